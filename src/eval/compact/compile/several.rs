//! Lists written in pieces: a new list `slice(h, 0, c) + [min(x, t) for
//! x in slice(h, c, len(h))]` is written piece after piece, and
//! `set_at(x, indices, values)` takes lists like `[i] + others` and
//! `["T"] + [flip(row[j]) for j in others]`. The two lists are
//! taken apart into the same pieces, one element against one element, a
//! walk against a walk over the same list (a list or tuple variable, or a
//! comprehension over it with no test), so that both have one length; each
//! element is then set in turn, as the interpreter sets them, and a walk's
//! elements in a loop on the key.

use super::{Compiler, Scope, Val, WRITES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Appended, Bind, Num, Seq, Truth, Walk, Write};
use crate::eval::compact::layout::Group;
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp::{Add, Eq, RangeExclusive, RangeInclusive, Sub};
use std::rc::Rc;

/// The value an element is set to: an expression, or (for a list of
/// numbers) the element of a list the walk reads.
pub(super) enum Given<'i> {
    Expr(&'i Ir),
    Item(Num),
}

/// A piece of a list written out.
enum Piece {
    /// One element.
    One(Ir),
    /// One letter of a string written out, as its code.
    Code(i64),
    /// Every element of list `source`, or with `element`, the element
    /// worked out for each of them in variable `slot`.
    Over {
        source: Ir,
        element: Option<(u32, Ir)>,
    },
}

impl Compiler<'_> {
    /// The pieces of a list parameter's new value `list`, a concatenation.
    pub(super) fn appended(&mut self, scope: &mut Scope, list: &Ir) -> Compiled<Vec<Appended>> {
        let mut pieces = Vec::new();
        if !self.pieces(scope, list, &mut pieces) {
            return Err(Unsupported::new(WRITES, list.span));
        }
        pieces
            .into_iter()
            .map(|piece| match piece {
                Piece::One(e) => Ok(Appended::One(self.num(scope, &e)?)),
                Piece::Code(code) => Ok(Appended::One(Num::Lit(code))),
                Piece::Over { source, element } => {
                    let (var, over, item) = self.walk_over(scope, &source)?;
                    let walk = Walk {
                        var,
                        over,
                        guard: None,
                    };
                    let Some((slot, e)) = element else {
                        return Ok(Appended::Each(Box::new(walk), item));
                    };
                    // The comprehension's variable holds the element read.
                    let reg = self.reg();
                    let mut inner = scope.clone();
                    *inner
                        .get_mut(slot as usize)
                        .or_unsupported(WRITES, list.span)? = Some(Val::Num(reg));
                    let value = self.num(&mut inner, &e)?;
                    let bind = Bind::Num {
                        reg,
                        value: item,
                        nat: false,
                    };
                    Ok(Appended::Each(
                        Box::new(walk),
                        Num::Let(Box::new(bind), Box::new(value)),
                    ))
                }
            })
            .collect()
    }

    /// A loop over `source`'s elements: its register, what it walks, and
    /// the element at each step. A slice of a list walks the places it
    /// keeps (clamped to the list, as `slice` clamps them).
    fn walk_over(&mut self, scope: &mut Scope, source: &Ir) -> Compiled<(u32, Seq, Num)> {
        let var = self.reg();
        if let IrKind::Builtin(Builtin::Slice, a) = &source.kind {
            if let [list, from, to] = &a[..] {
                if let Some(Val::List(f) | Val::Str(f, _)) = self.val(scope, list) {
                    let len = i64::from(f.len);
                    let mut clamped = |x: &Ir| -> Compiled<Num> {
                        let x = self.num(scope, x)?;
                        Ok(Num::Max(vec![
                            Num::Lit(0),
                            Num::Min(vec![x, Num::Lit(len)]),
                        ]))
                    };
                    let over = Seq::Range(clamped(from)?, clamped(to)?, false);
                    return Ok((var, over, Num::Field(f, Box::new(Num::Reg(var)))));
                }
            }
        }
        if let Some(Val::Str(f, _)) = self.val(scope, source) {
            let over = Seq::Range(Num::Lit(0), Num::Lit(i64::from(f.len)), false);
            return Ok((var, over, Num::Field(f, Box::new(Num::Reg(var)))));
        }
        Ok((var, self.seq(scope, source)?, Num::Reg(var)))
    }

    /// The writes of `set_at(x, indices, values)` where `indices` is a list
    /// made of pieces; `false` where it is not.
    pub(super) fn set_several(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        group: &Group,
        indices: &Ir,
        values: &Ir,
        out: &mut Vec<Write>,
    ) -> Compiled<bool> {
        let mut at = Vec::new();
        if !self.pieces(scope, indices, &mut at) {
            return Ok(false);
        }
        let refused = || Unsupported::new(WRITES, call.span);
        let mut given = Vec::new();
        let copies = self.copies(scope, values, &at, &mut given)?;
        if copies.is_none() && !self.pieces(scope, values, &mut given) || given.len() != at.len() {
            return Err(refused());
        }
        let mut writes = Vec::new();
        for (at, given) in at.into_iter().zip(given) {
            let write = match (at, given) {
                (Piece::One(i), Piece::One(v)) => {
                    let i = self.num(scope, &i)?;
                    self.set_one(scope, call, group, i, Given::Expr(&v))?
                }
                (
                    Piece::Over { source, element: i },
                    Piece::Over {
                        source: s,
                        element: v,
                    },
                ) if same_list(&source, &s) => {
                    let over = self.seq(scope, &source)?;
                    let var = self.reg();
                    let mut inner = scope.clone();
                    for (slot, _) in i.iter().chain(&v) {
                        *inner
                            .get_mut(*slot as usize)
                            .or_unsupported(WRITES, call.span)? = Some(Val::Num(var));
                    }
                    let i = match &i {
                        Some((_, e)) => self.num(&mut inner, e)?,
                        None => Num::Reg(var),
                    };
                    let v = match &v {
                        Some((_, e)) => Given::Expr(e),
                        None => Given::Item(Num::Reg(var)),
                    };
                    let one = self.set_one(&mut inner, call, group, i, v)?;
                    Write::Each {
                        walk: Walk {
                            var,
                            over,
                            guard: None,
                        },
                        writes: vec![one],
                    }
                }
                _ => return Err(refused()),
            };
            writes.push(write);
        }
        match copies {
            // As many places as copies, or a read that fails: the
            // interpreter reports the lengths.
            Some(same) => out.push(Write::Choose {
                test: same,
                then: writes,
                otherwise: vec![Write::Bind(Bind::Num {
                    reg: self.reg(),
                    value: Num::Item(Rc::from([]), Box::new(Num::Lit(0))),
                    nat: false,
                })],
            }),
            None => out.extend(writes),
        }
        Ok(true)
    }

    /// `[value for _ in lo..hi]`, one value written out as many times as
    /// the range is long, set at the places `at`: the value as a piece
    /// against each of theirs, onto `given`, and the test that there are
    /// as many places as copies; `None` for another list.
    fn copies(
        &mut self,
        scope: &mut Scope,
        values: &Ir,
        at: &[Piece],
        given: &mut Vec<Piece>,
    ) -> Compiled<Option<Truth>> {
        let IrKind::Comprehension { element, clauses } = &values.kind else {
            return Ok(None);
        };
        let ([clause], IrKind::Lit(_)) = (&clauses[..], &element.kind) else {
            return Ok(None);
        };
        let IrKind::Binary(op @ (RangeExclusive | RangeInclusive), lo, hi) =
            &clause.generator.source.kind
        else {
            return Ok(None);
        };
        if clause.guard.is_some() {
            return Ok(None);
        }
        let mut span = Num::Binary(
            Sub,
            Box::new(self.num(scope, hi)?),
            Box::new(self.num(scope, lo)?),
        );
        if *op == RangeInclusive {
            span = Num::Binary(Add, Box::new(span), Box::new(Num::Lit(1)));
        }
        let mut places = Num::Lit(0);
        for piece in at {
            let (count, copy) = match piece {
                Piece::One(_) | Piece::Code(_) => (Num::Lit(1), Piece::One((**element).clone())),
                Piece::Over { source, .. } => (
                    self.len(scope, source)?,
                    Piece::Over {
                        source: source.clone(),
                        element: Some((clause.generator.slot, (**element).clone())),
                    },
                ),
            };
            places = Num::Binary(Add, Box::new(places), Box::new(count));
            given.push(copy);
        }
        let copies = Num::Max(vec![Num::Lit(0), span]);
        Ok(Some(Truth::Compare(Eq, places, copies)))
    }

    /// `list` taken apart into pieces, onto `out`; `false` if it is not a
    /// list the pieces can say.
    fn pieces(&self, scope: &Scope, list: &Ir, out: &mut Vec<Piece>) -> bool {
        match &list.kind {
            IrKind::Binary(Add, l, r) => self.pieces(scope, l, out) && self.pieces(scope, r, out),
            IrKind::List(items) => {
                out.extend(items.iter().cloned().map(Piece::One));
                true
            }
            IrKind::Lit(Value::List(items)) => {
                let lit = |v: &Value| Ir {
                    kind: IrKind::Lit(v.clone()),
                    span: list.span,
                };
                out.extend(items.iter().map(|v| Piece::One(lit(v))));
                true
            }
            IrKind::Comprehension { element, clauses } => match &clauses[..] {
                [clause] if clause.guard.is_none() => {
                    out.push(Piece::Over {
                        source: clause.generator.source.clone(),
                        element: Some((clause.generator.slot, (**element).clone())),
                    });
                    true
                }
                _ => false,
            },
            // A string written out, letter by letter (its letters are in
            // the alphabet: the rules' letters are).
            IrKind::Lit(Value::Str(s)) => {
                let code = |b: u8| self.layout.alphabet.iter().position(|&a| a == b);
                let codes: Option<Vec<usize>> = s.bytes().map(code).collect();
                let Some(codes) = codes else {
                    return false;
                };
                out.extend(codes.into_iter().map(|c| Piece::Code(c as i64)));
                true
            }
            IrKind::Builtin(Builtin::Slice, a)
                if matches!(
                    a.first().and_then(|x| self.val(scope, x)),
                    Some(Val::List(_) | Val::Str(..))
                ) =>
            {
                out.push(Piece::Over {
                    source: list.clone(),
                    element: None,
                });
                true
            }
            // A range made a list (`list(a..=i)`): its numbers. (A range
            // itself is not a list of places to `set_at`: an error.)
            IrKind::Builtin(Builtin::List, a) if matches!(&a[..], [r] if matches!(r.kind, IrKind::Binary(RangeExclusive | RangeInclusive, ..))) =>
            {
                out.push(Piece::Over {
                    source: a[0].clone(),
                    element: None,
                });
                true
            }
            // A list, tuple or string variable, or a constant's row at a
            // place (`ADJ[v]`).
            IrKind::Local(_) | IrKind::Index(..)
                if matches!(
                    self.val(scope, list),
                    Some(Val::Tuple(_) | Val::List(_) | Val::Row(..) | Val::Str(..))
                ) =>
            {
                out.push(Piece::Over {
                    source: list.clone(),
                    element: None,
                });
                true
            }
            _ => false,
        }
    }
}

/// Whether two lists are one variable's, one constant's row at one
/// variable's place (`ADJ[v]`), or ranges between the same numbers
/// (`a..=i` twice), so that walks over them have one length.
fn same_list(a: &Ir, b: &Ir) -> bool {
    match (&a.kind, &b.kind) {
        (IrKind::Local(x), IrKind::Local(y)) | (IrKind::Const(x), IrKind::Const(y)) => x == y,
        (IrKind::Index(l, i), IrKind::Index(m, j)) => same_list(l, m) && same_list(i, j),
        (IrKind::Lit(Value::Int(x)), IrKind::Lit(Value::Int(y))) => x == y,
        (IrKind::Binary(op, l, r), IrKind::Binary(other, m, s)) => {
            op == other && same_list(l, m) && same_list(r, s)
        }
        (IrKind::Builtin(f, xs), IrKind::Builtin(g, ys)) => {
            f == g && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_list(x, y))
        }
        _ => false,
    }
}
