//! A list of numbers that a helper is given and the rules work out
//! (`ordered(set_at(h, i, h[i] - k))`, a comprehension): made whole into a
//! tuple register before the helper's body runs, as the interpreter works
//! out every argument before the body, so that every error making it
//! meets is met here too and the position is handed back.

use super::{Compiler, Scope, Val, SOURCES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, MadeList, Num, Seq, Truth, Walk};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

/// A piece of a list joined with `+` (see `joined_made`): an element in a
/// register, or the places from one register to another (never fewer) of
/// a list held in fields or a tuple register.
enum Joined {
    One(u32),
    Span(Val, u32, u32),
}

impl Compiler<'_> {
    /// `arg` made into a tuple register for a list parameter (of natural
    /// numbers only, where `nat` is set), its bindings added to `binds`;
    /// `None` for a list not made so.
    pub(super) fn passed_list(
        &mut self,
        scope: &mut Scope,
        arg: &Ir,
        nat: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Option<Val>> {
        let made = match &arg.kind {
            IrKind::Comprehension { .. } => {
                let made = self.made_list(scope, arg)?;
                MadeList {
                    element: self.checked(made.element, nat),
                    ..made
                }
            }
            IrKind::Builtin(Builtin::SetAt, a) => match &a[..] {
                [list, at, value] => self.set_at_made(scope, list, at, value, nat, binds)?,
                _ => return Ok(None),
            },
            IrKind::Builtin(Builtin::Slice, _) => match self.slice_made(scope, arg, nat)? {
                Some(made) => made,
                None => return Ok(None),
            },
            IrKind::Binary(BinaryOp::Add, ..)
            | IrKind::List(_)
            | IrKind::Lit(Value::List(_))
            | IrKind::Builtin(Builtin::RemoveAt, _) => {
                match self.joined_made(scope, arg, nat, binds)? {
                    Some(made) => made,
                    None => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let tuple = made.tuple;
        binds.push(Bind::List(Box::new(made)));
        Ok(Some(Val::Tuple(tuple)))
    }

    /// `set_at(list, at, value)` of a list held in fields or a tuple
    /// register, element by element: the place and the value worked out
    /// first, and the element at the place read, so that a place off the
    /// list fails as the interpreter's `set_at` does.
    fn set_at_made(
        &mut self,
        scope: &mut Scope,
        list: &Ir,
        at: &Ir,
        value: &Ir,
        nat: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<MadeList> {
        let refused = || Unsupported::new(SOURCES, list.span);
        let held = self.val(scope, list).ok_or_else(refused)?;
        let len = length_of(&held).ok_or_else(refused)?;
        let place = self.reg();
        let at = self.num(scope, at)?;
        binds.push(Bind::Num {
            reg: place,
            value: at,
            nat: false,
        });
        let new = self.reg();
        let value = self.num(scope, value)?;
        binds.push(Bind::Num {
            reg: new,
            value,
            nat,
        });
        let replaced = self.reg();
        binds.push(Bind::Num {
            reg: replaced,
            value: element_of(&held, Num::Reg(place)).ok_or_else(refused)?,
            nat: false,
        });
        let var = self.reg();
        let kept = element_of(&held, Num::Reg(var)).ok_or_else(refused)?;
        let here = Truth::Compare(BinaryOp::Eq, Num::Reg(var), Num::Reg(place));
        let each = Num::If(Box::new(here), Box::new(Num::Reg(new)), Box::new(kept));
        Ok(MadeList {
            tuple: self.tuple(),
            walk: Walk {
                var,
                over: Seq::Range(Num::Lit(0), len, false),
                guard: None,
            },
            element: self.checked(each, nat),
        })
    }

    /// `set_at(list, at, value)` walked by a generator: `set_at_made`,
    /// its bindings worked out again with each element, and the first
    /// element worked out even for an empty list, where the place is off
    /// the list and the interpreter's `set_at` fails.
    pub(super) fn set_at_walked(
        &mut self,
        scope: &mut Scope,
        (list, at, value): (&Ir, &Ir, &Ir),
    ) -> Compiled<MadeList> {
        let mut binds = Vec::new();
        let made = self.set_at_made(scope, list, at, value, false, &mut binds)?;
        let Seq::Range(lo, len, false) = made.walk.over else {
            return Err(Unsupported::new(SOURCES, list.span));
        };
        let element = binds
            .into_iter()
            .rev()
            .fold(made.element, |n, b| Num::Let(Box::new(b), Box::new(n)));
        Ok(MadeList {
            walk: Walk {
                over: Seq::Range(lo, Num::Max(vec![len, Num::Lit(1)]), false),
                ..made.walk
            },
            element,
            ..made
        })
    }

    /// `slice(list, from, to)` of a list held in fields or a tuple
    /// register, its ends moved inside the list as the interpreter moves
    /// them; `None` for a slice of anything else.
    pub(super) fn slice_made(
        &mut self,
        scope: &mut Scope,
        slice: &Ir,
        nat: bool,
    ) -> Compiled<Option<MadeList>> {
        let IrKind::Builtin(Builtin::Slice, a) = &slice.kind else {
            return Ok(None);
        };
        let [list, from, to] = &a[..] else {
            return Ok(None);
        };
        let Some(held) = self.val(scope, list).filter(|v| length_of(v).is_some()) else {
            return Ok(None);
        };
        let refused = || Unsupported::new(SOURCES, slice.span);
        let mut inside = |c: &mut Self, end: &Ir| -> Compiled<Num> {
            let end = c.num(scope, end)?;
            let len = length_of(&held).ok_or_else(refused)?;
            Ok(Num::Max(vec![Num::Min(vec![end, len]), Num::Lit(0)]))
        };
        let (lo, hi) = (inside(self, from)?, inside(self, to)?);
        let var = self.reg();
        let element = element_of(&held, Num::Reg(var)).ok_or_else(refused)?;
        Ok(Some(MadeList {
            tuple: self.tuple(),
            walk: Walk {
                var,
                over: Seq::Range(lo, hi, false),
                guard: None,
            },
            element: self.checked(element, nat),
        }))
    }

    /// A list joined from pieces with `+` (`remove_at(hs, i) + [a, b]`):
    /// each piece worked out in order into registers, as the interpreter
    /// works out each operand before it joins them, and the list walked
    /// over their places one after another. `None` for a piece that is
    /// not made so.
    fn joined_made(
        &mut self,
        scope: &mut Scope,
        arg: &Ir,
        nat: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Option<MadeList>> {
        let mut pieces = Vec::new();
        let before = binds.len();
        if !self.joined_pieces(scope, arg, binds, &mut pieces)? {
            // A piece not made so leaves no work behind for the others.
            binds.truncate(before);
            return Ok(None);
        }
        let refused = || Unsupported::new(SOURCES, arg.span);
        // Where each piece starts in the joined list, and where it ends.
        let mut starts = Vec::with_capacity(pieces.len());
        let mut end = Num::Lit(0);
        for piece in &pieces {
            let start = self.bound(binds, end, false);
            starts.push(start);
            let len = match piece {
                Joined::One(_) => Num::Lit(1),
                Joined::Span(_, lo, hi) => sub(Num::Reg(*hi), Num::Reg(*lo)),
            };
            end = Num::Binary(BinaryOp::Add, Box::new(Num::Reg(start)), Box::new(len));
        }
        let len = self.bound(binds, end, false);
        let var = self.reg();
        let mut element = Num::Lit(0);
        for (k, piece) in pieces.iter().enumerate().rev() {
            let here = match piece {
                Joined::One(reg) => Num::Reg(*reg),
                Joined::Span(list, lo, _) => {
                    let from_start = sub(Num::Reg(var), Num::Reg(starts[k]));
                    let at =
                        Num::Binary(BinaryOp::Add, Box::new(Num::Reg(*lo)), Box::new(from_start));
                    element_of(list, at).ok_or_else(refused)?
                }
            };
            element = match starts.get(k + 1) {
                Some(&next) => {
                    let before = Truth::Compare(BinaryOp::Lt, Num::Reg(var), Num::Reg(next));
                    Num::If(Box::new(before), Box::new(here), Box::new(element))
                }
                None => here,
            };
        }
        Ok(Some(MadeList {
            tuple: self.tuple(),
            walk: Walk {
                var,
                over: Seq::Range(Num::Lit(0), Num::Reg(len), false),
                guard: None,
            },
            element: self.checked(element, nat),
        }))
    }

    /// The pieces of `ir` joined with `+`, in order, their registers bound
    /// in `binds`; `false` for a piece that is not made so.
    fn joined_pieces(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        binds: &mut Vec<Bind>,
        out: &mut Vec<Joined>,
    ) -> Compiled<bool> {
        match &ir.kind {
            IrKind::Binary(BinaryOp::Add, a, b) => Ok(self.joined_pieces(scope, a, binds, out)?
                && self.joined_pieces(scope, b, binds, out)?),
            IrKind::List(items) => {
                for item in items {
                    let value = self.num(scope, item)?;
                    out.push(Joined::One(self.bound(binds, value, false)));
                }
                Ok(true)
            }
            IrKind::Lit(Value::List(items)) => {
                for item in items.iter() {
                    let Value::Int(n) = item else {
                        return Ok(false);
                    };
                    out.push(Joined::One(self.bound(binds, Num::Lit(*n), false)));
                }
                Ok(true)
            }
            // What stands before the place, then what stands after it; the
            // element at the place is read first, so that a place off the
            // list fails as the interpreter's `remove_at` does.
            IrKind::Builtin(Builtin::RemoveAt, a) => {
                let [list, at] = &a[..] else {
                    return Ok(false);
                };
                let Some((held, len)) = self.held_list(scope, list) else {
                    return Ok(false);
                };
                let value = self.num(scope, at)?;
                let place = self.bound(binds, value, false);
                let removed = element_of(&held, Num::Reg(place));
                let removed = removed.or_unsupported(SOURCES, list.span)?;
                self.bound(binds, removed, false);
                let zero = self.bound(binds, Num::Lit(0), false);
                let after = Num::Binary(
                    BinaryOp::Add,
                    Box::new(Num::Reg(place)),
                    Box::new(Num::Lit(1)),
                );
                let after = self.bound(binds, after, false);
                let end = self.bound(binds, len, false);
                out.push(Joined::Span(held.clone(), zero, place));
                out.push(Joined::Span(held, after, end));
                Ok(true)
            }
            // The places kept, moved inside the list as `slice` moves them.
            IrKind::Builtin(Builtin::Slice, a)
                if a.first()
                    .is_some_and(|list| self.held_list(scope, list).is_some()) =>
            {
                let [list, from, to] = &a[..] else {
                    return Ok(false);
                };
                let Some((held, len)) = self.held_list(scope, list) else {
                    return Ok(false);
                };
                let len = self.bound(binds, len, false);
                let mut inside = |c: &mut Self, end: &Ir| -> Compiled<Num> {
                    let end = c.num(scope, end)?;
                    Ok(Num::Max(vec![
                        Num::Min(vec![end, Num::Reg(len)]),
                        Num::Lit(0),
                    ]))
                };
                let (lo, hi) = (inside(self, from)?, inside(self, to)?);
                let lo = self.bound(binds, lo, false);
                let hi = self.bound(binds, Num::Max(vec![hi, Num::Reg(lo)]), false);
                out.push(Joined::Span(held, lo, hi));
                Ok(true)
            }
            _ => {
                // A list held as it is, or one made whole first.
                let held = match self.held_list(scope, ir) {
                    Some(held) => held,
                    None => match self.passed_list(scope, ir, false, binds)? {
                        Some(made @ Val::Tuple(t)) => (made, Num::TupleLen(t)),
                        _ => return Ok(false),
                    },
                };
                let (held, len) = held;
                let zero = self.bound(binds, Num::Lit(0), false);
                let end = self.bound(binds, len, false);
                out.push(Joined::Span(held, zero, end));
                Ok(true)
            }
        }
    }

    /// A list variable held in fields or a tuple register, with its
    /// length.
    fn held_list(&self, scope: &Scope, ir: &Ir) -> Option<(Val, Num)> {
        let held = self.val(scope, ir)?;
        let len = length_of(&held)?;
        Some((held, len))
    }

    /// A new register holding `value`, bound in `binds`.
    fn bound(&mut self, binds: &mut Vec<Bind>, value: Num, nat: bool) -> u32 {
        let reg = self.reg();
        binds.push(Bind::Num { reg, value, nat });
        reg
    }

    /// `n`, checked to be natural where `nat` is set.
    fn checked(&mut self, n: Num, nat: bool) -> Num {
        if !nat {
            return n;
        }
        let reg = self.reg();
        let bind = Bind::Num {
            reg,
            value: n,
            nat: true,
        };
        Num::Let(Box::new(bind), Box::new(Num::Reg(reg)))
    }
}

/// `a - b`.
fn sub(a: Num, b: Num) -> Num {
    Num::Binary(BinaryOp::Sub, Box::new(a), Box::new(b))
}

/// Element `at` of a list held in fields or a tuple register.
fn element_of(list: &Val, at: Num) -> Option<Num> {
    match list {
        Val::List(f) => Some(Num::Field(*f, Box::new(at))),
        Val::Tuple(t) => Some(Num::TupleAt(*t, Box::new(at))),
        _ => None,
    }
}

/// The length of a list held in fields or a tuple register.
fn length_of(list: &Val) -> Option<Num> {
    match list {
        Val::List(f) => Some(Num::Lit(i64::from(f.len))),
        Val::Tuple(t) => Some(Num::TupleLen(*t)),
        _ => None,
    }
}
