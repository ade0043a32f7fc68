//! Results: the writes that make the new position from the key, a
//! parameter at a time, and the registers that hold a result's parts.

use super::several::Given;
use super::texts::letter_code;
use super::types::list_of_numbers;
use super::types::tuple_items;
use super::{unwritten, Compiler, Scope, Val, CONDITIONS, NUMBERED_TURN, RESHAPED, WRITES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, Element, Indices, MadeList, Num, Rows, Seq, Walk, Write};
use crate::eval::compact::layout::{Group, Layout};
use crate::eval::compact::one_place;
use crate::eval::compact::sums::Part;
use crate::eval::compact::turn;
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::syntax::ast::BinaryOp;
use crate::types::Type;

impl<'a> Compiler<'a> {
    /// The writes of helper `f` called in a result, its made arguments
    /// made where its body writes them (`made`) or all worked out at the
    /// call.
    fn helper_writes(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        (f, args): (u32, &[Ir]),
        (param, group): (usize, &Group),
        made: bool,
        out: &mut Vec<Write>,
    ) -> Compiled<()> {
        let (binds, mut inner, body) = self.enter(scope, call, f, args, made)?;
        out.extend(binds.into_iter().map(Write::Bind));
        let written = self.writes(&mut inner, body, param, group, out);
        self.depth -= 1;
        written?;
        self.check_written(&inner, call)
    }

    /// The writes that make a result `G(args)` of the layout's game from
    /// the key: a move's result, or an image a `symmetry =` declares.
    pub(in crate::eval::compact) fn result(
        &mut self,
        scope: &mut Scope,
        result: &Ir,
        layout: &Layout,
    ) -> Compiled<Vec<Write>> {
        let IrKind::MakePos(_, args) = &result.kind else {
            return Err(Unsupported::new(
                "a result that is not one position of the same game",
                result.span,
            ));
        };
        // In a helper's body a variable is the helper's, not the game's
        // parameter of the same slot: every field is written, and only
        // numbers and booleans are (lists, strings and grids are written
        // by reading which parameter is changed).
        let in_helper = self.depth > 0;
        if in_helper
            && (args.len() != layout.groups.len()
                || layout
                    .groups
                    .iter()
                    .any(|g| !matches!(g, Group::Scalar(_) | Group::Flag(_))))
        {
            return Err(Unsupported::new(
                "a position made by a helper, of a game with other parameters than numbers and \
                 booleans",
                result.span,
            ));
        }
        let mut writes = Vec::new();
        for (i, (a, group)) in args.iter().zip(&layout.groups).enumerate() {
            if !in_helper && matches!(a.kind, IrKind::Local(s) if s as usize == i) {
                continue;
            }
            match group {
                Group::Fixed(_) => {
                    return Err(Unsupported::new(
                        "a parameter held aside but changed",
                        a.span,
                    ))
                }
                Group::Scalar(f) => writes.push(Write::Scalar(*f, self.num(scope, a)?)),
                Group::Flag(f) => writes.push(Write::Scalar(*f, self.flag(scope, a)?)),
                Group::Bits(f) => writes.push(Write::Scalar(*f, self.mask(scope, a)?)),
                // Each parameter's writes are its own: a write of every
                // element may follow another parameter's writes.
                Group::List(_)
                | Group::Sized { .. }
                | Group::Bools(_)
                | Group::Str(..)
                | Group::Grid(_) => {
                    let mut own = Vec::new();
                    self.writes(scope, a, i, group, &mut own)?;
                    writes.append(&mut own);
                }
            }
        }
        Ok(writes)
    }

    /// A move's result: the writes that make its one position, or what
    /// makes the parts of the sum it leaves.
    pub(super) fn move_result(
        &mut self,
        scope: &mut Scope,
        result: &Ir,
        layout: &Layout,
    ) -> Compiled<(Vec<Write>, Option<Vec<Part>>)> {
        let mut parts = Vec::new();
        self.parts(scope, result, layout, &mut parts)?;
        Ok(match parts.pop() {
            Some(Part::Key(writes)) if parts.is_empty() => (writes, None),
            Some(last) => {
                parts.push(last);
                (Vec::new(), Some(parts))
            }
            None => (Vec::new(), Some(parts)),
        })
    }

    /// `arg` worked out into a register for a value of type `ty`: a letter
    /// stays a code, a boolean (where `flag` allows one) is 1 or 0, a
    /// string goes in a string register, a number is checked to be
    /// natural for a `nat`. The binding is added to `binds`; `None` when
    /// `arg` is none of these.
    pub(super) fn register(
        &mut self,
        scope: &mut Scope,
        arg: &Ir,
        ty: &Type,
        flag: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Option<Val>> {
        let string = matches!(ty, Type::Str | Type::Unknown);
        Ok(Some(if string && self.is_letter(scope, arg) {
            let value = self.char(scope, arg)?;
            let reg = self.reg();
            binds.push(Bind::Letter { reg, value });
            Val::Letter(reg)
        } else if flag && self.is_flag(scope, arg) {
            let value = self.flag(scope, arg)?;
            let reg = self.reg();
            binds.push(Bind::Num {
                reg,
                value,
                nat: false,
            });
            Val::Flag(reg)
        } else if string && self.is_text(scope, arg) {
            let value = self.text(scope, arg)?;
            let reg = self.text_reg();
            binds.push(Bind::Text { reg, value });
            Val::Text(reg)
        } else if matches!(ty, Type::Set(_) | Type::Unknown) && self.is_set(scope, arg) {
            let value = self.mask(scope, arg)?;
            let reg = self.reg();
            binds.push(Bind::Num {
                reg,
                value,
                nat: false,
            });
            Val::Mask(reg)
        } else if matches!(ty, Type::List(_)) && list_of_numbers(ty) {
            let nat = matches!(ty, Type::List(t) if **t == Type::Nat);
            match self.passed_list(scope, arg, nat, binds)? {
                Some(val) => val,
                None => return Ok(None),
            }
        } else if matches!(ty, Type::Nat | Type::Int | Type::Unknown) {
            let value = self.num(scope, arg)?;
            let nat = *ty == Type::Nat;
            match self.passed_as_is(&value, nat) {
                Some(val) => val,
                None => {
                    let reg = self.reg();
                    binds.push(Bind::Num { reg, value, nat });
                    Val::Num(reg)
                }
            }
        } else {
            return Ok(None);
        }))
    }

    /// The elements of a tuple written out, each one that must be worked
    /// out put in a register first (in a slot added to `scope`), in
    /// order: the interpreter works out a whole tuple before it compares
    /// it, so an element's error comes even where an earlier element
    /// already decides the comparison.
    pub(super) fn worked_out(
        &mut self,
        scope: &mut Scope,
        items: Vec<Ir>,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Vec<Ir>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            if matches!(item.kind, IrKind::Local(_) | IrKind::Lit(_)) {
                out.push(item);
                continue;
            }
            // A tuple inside is worked out element by element in its place,
            // as the interpreter works out the whole.
            if let Some(inner) = tuple_items(&item) {
                let inner = self.worked_out(scope, inner, binds)?;
                out.push(Ir {
                    kind: IrKind::Tuple(inner),
                    span: item.span,
                });
                continue;
            }
            let val = self
                .register(scope, &item, &Type::Unknown, true, binds)?
                .or_unsupported(CONDITIONS, item.span)?;
            out.push(Ir {
                kind: IrKind::Local(scope.len() as u32),
                span: item.span,
            });
            scope.push(Some(val));
        }
        Ok(out)
    }

    /// The writes of a list or string parameter's new value: a `set_at`
    /// chain on the parameter itself, or for a list, a list literal or a
    /// comprehension.
    pub(super) fn writes(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        param: usize,
        group: &Group,
        out: &mut Vec<Write>,
    ) -> Compiled<()> {
        if self.is_param(scope, ir, group) {
            return Ok(());
        }
        if let Some((places, values)) = self.put_back(scope, ir, group) {
            return self.set_at(scope, ir, group, places, values, out);
        }
        if let Some(made) = self.made_writes(scope, ir, param, group, out) {
            return made;
        }
        let kept;
        let group = match group {
            // A helper or an `if` makes the new list in its body or
            // branches, where it is seen whole; `sort` sorts what its list
            // makes.
            Group::Sized {
                items,
                length,
                text,
            } if !matches!(
                ir.kind,
                IrKind::CallFn(..) | IrKind::If(..) | IrKind::Builtin(Builtin::Sort, _)
            ) =>
            {
                match self.resized(scope, ir, items, length, out)? {
                    Some(write) => {
                        out.push(write);
                        return Ok(());
                    }
                    None => {
                        kept = self.kept_length(items, *text);
                        &kept
                    }
                }
            }
            _ => group,
        };
        let write = match (&ir.kind, group) {
            // A helper writes what its body writes, its arguments first: a
            // new grid or string made where the body writes it, or else
            // (a new string the body reads whole, `min([b, reverse(b)])`)
            // worked out at the call, as the interpreter does.
            (IrKind::CallFn(f, args), _) => {
                let before = out.len();
                let made = self.helper_writes(scope, ir, (*f, args), (param, group), true, out);
                if made.is_ok() {
                    return made;
                }
                out.truncate(before);
                let worked_out =
                    self.helper_writes(scope, ir, (*f, args), (param, group), false, out);
                return worked_out.or(made);
            }
            // The whole parameter backwards: every element is written.
            (
                IrKind::Builtin(Builtin::Reverse, a),
                Group::List(f)
                | Group::Bools(f)
                | Group::Str(f, _)
                | Group::Grid(Rows { fields: f, .. }),
            ) if unwritten(out) && matches!(&a[..], [x] if self.is_param(scope, x, group)) => {
                Write::Reversed(*f)
            }
            // A turn names the parameter by its slot in the game's frame.
            (IrKind::Builtin(b, _), Group::Grid(rows))
                if turn::TURNS.contains(b) && self.depth == 0 =>
            {
                // A turned view with a row set, turned back.
                if turn::of(ir, param, rows).is_none()
                    && self.turned_back(scope, ir, rows, out)?.is_some()
                {
                    return Ok(());
                }
                self.turned(ir, param, rows, false)?
            }
            (
                IrKind::If(test, then, otherwise),
                Group::List(_)
                | Group::Sized { .. }
                | Group::Bools(_)
                | Group::Str(..)
                | Group::Grid(_),
            ) => {
                let test = self.truth(scope, test)?;
                let (then, otherwise) = self.written_in_both(scope, |c, scope, taken| {
                    let branch = if taken { then } else { otherwise };
                    c.branch(scope, branch, param, group)
                })?;
                Write::Choose {
                    test,
                    then,
                    otherwise,
                }
            }
            // The list the writes before make, in order.
            (
                IrKind::Builtin(Builtin::Sort, a),
                Group::List(f) | Group::Bools(f) | Group::Str(f, _) | Group::Sized { items: f, .. },
            ) => {
                let [list] = &a[..] else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                self.writes(scope, list, param, group, out)?;
                let length = match group {
                    Group::Sized { length, .. } => Some(*length),
                    _ => None,
                };
                Write::Sorted(*f, length)
            }
            (IrKind::Builtin(Builtin::SetAt, a), _) => {
                let [target, index, value] = &a[..] else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                self.writes(scope, target, param, group, out)?;
                return self.set_at(scope, ir, group, index, value, out);
            }
            (IrKind::Binary(BinaryOp::Add, ..), Group::List(f)) if unwritten(out) => {
                Write::Appended(*f, self.appended(scope, ir)?)
            }
            // Every element is written, so earlier writes would be lost.
            (IrKind::List(items) | IrKind::Tuple(items), Group::List(f))
                if unwritten(out) && items.len() == f.len as usize =>
            {
                Write::Whole(*f, self.nums(scope, items)?)
            }
            (IrKind::List(items), Group::Bools(f))
                if unwritten(out) && items.len() == f.len as usize =>
            {
                let flags = items.iter().map(|x| self.flag(scope, x));
                Write::Whole(*f, flags.collect::<Compiled<_>>()?)
            }
            (IrKind::List(items), Group::Grid(rows))
                if unwritten(out) && items.len() == rows.fields.len as usize =>
            {
                let rows_text = items
                    .iter()
                    .map(|x| self.text(scope, x))
                    .collect::<Compiled<_>>()?;
                Write::Rows(*rows, rows_text)
            }
            (
                IrKind::Comprehension { element, clauses },
                Group::List(f) | Group::Bools(f) | Group::Grid(Rows { fields: f, .. }),
            ) if unwritten(out) => {
                let (walk, mut inner) = self.walk(scope, clauses, ir, WRITES)?;
                let element_ir = element;
                let element = match group {
                    Group::Grid(rows) => Element::Row(*rows, self.text(&mut inner, element)?),
                    Group::Bools(_) => Element::Num(self.flag(&mut inner, element)?),
                    _ => Element::Num(self.num(&mut inner, element)?),
                };
                let bools = matches!(group, Group::Bools(_));
                if let Some(write) = one_place::written(*f, &walk, &element, bools) {
                    out.push(write);
                    return Ok(());
                }
                if let Some(write) = bools
                    .then(|| self.lanes(&inner, &walk, element_ir, *f))
                    .flatten()
                {
                    out.push(write);
                    return Ok(());
                }
                Write::Comprehension {
                    fields: *f,
                    walk,
                    element,
                }
            }
            // A string joined from one letter an element: its cells are
            // written as a list's elements are, each letter as its code.
            // (Any other `join` is a string worked out whole, below.)
            (IrKind::Builtin(Builtin::Join, a), Group::Str(f, _))
                if unwritten(out)
                    && matches!(&a[..], [list] if matches!(list.kind, IrKind::Comprehension { .. })) =>
            {
                let [list] = &a[..] else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                let IrKind::Comprehension { element, clauses } = &list.kind else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                let (walk, mut inner) = self.walk(scope, clauses, list, WRITES)?;
                let code = self.char(&mut inner, element)?;
                Write::Comprehension {
                    fields: *f,
                    walk,
                    element: Element::Num(letter_code(code)),
                }
            }
            // A string worked out whole, which later `set_at`s may change.
            (_, Group::Str(f, _)) if unwritten(out) => Write::Text(*f, self.text(scope, ir)?),
            _ => return Err(Unsupported::new(WRITES, ir.span)),
        };
        out.push(write);
        Ok(())
    }

    /// A grid parameter turned or reflected (see `turn`). In a branch of
    /// an `if`, a turn into another shape is kept as one that no key holds:
    /// the condition may rule it out, as `if len(g) == width(g) then
    /// rotate(g) else g` does on a board that is not square.
    pub(super) fn turned(
        &self,
        ir: &Ir,
        param: usize,
        rows: &Rows,
        in_branch: bool,
    ) -> Compiled<Write> {
        if rows.numbered {
            return Err(Unsupported::new(NUMBERED_TURN, ir.span));
        }
        let turned = turn::of(ir, param, rows).or_unsupported(WRITES, ir.span)?;
        if turned.keeps_shape(rows) {
            Ok(Write::Turned(*rows, Some(turned.into_cells())))
        } else if in_branch {
            Ok(Write::Turned(*rows, None))
        } else {
            Err(Unsupported::new(RESHAPED, ir.span))
        }
    }

    /// The writes of one branch of an `if` that makes a parameter's new
    /// value.
    pub(super) fn branch(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        param: usize,
        group: &Group,
    ) -> Compiled<Vec<Write>> {
        if let Group::Grid(rows) = group {
            if !rows.numbered && self.depth == 0 && turn::of(ir, param, rows).is_some() {
                return Ok(vec![self.turned(ir, param, rows, true)?]);
            }
        }
        let mut out = Vec::new();
        self.writes(scope, ir, param, group, &mut out)?;
        Ok(out)
    }

    /// `set_at(x, index, value)` on a list or string parameter: one
    /// element, or several (see `several`).
    pub(super) fn set_at(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        group: &Group,
        index: &Ir,
        value: &Ir,
        out: &mut Vec<Write>,
    ) -> Compiled<()> {
        if let Group::List(f) = group {
            let mut fills = Vec::new();
            let at = match self.val(scope, index) {
                Some(Val::Tuple(at)) => Some(Indices::Tuple(at)),
                Some(Val::List(at)) => Some(Indices::Fields(at)),
                _ => self.filled(scope, index, &mut fills).map(Indices::Tuple),
            };
            let vs = match self.val(scope, value) {
                Some(Val::Tuple(vs)) => Some(vs),
                _ => match self.zipped(scope, value) {
                    Some(vs) => Some(vs),
                    None => self.filled(scope, value, &mut fills),
                },
            };
            if let (Some(at), Some(vs)) = (at, vs) {
                out.extend(fills);
                out.push(Write::Several(*f, at, vs));
                return Ok(());
            }
        }
        if self.set_several(scope, call, group, index, value, out)? {
            return Ok(());
        }
        let i = self.num(scope, index)?;
        let write = self.set_one(scope, call, group, i, Given::Expr(value))?;
        out.push(write);
        Ok(())
    }

    /// For the values of a `set_at` of several places written as one
    /// list of a `zip` taken back out (`[l for (_, l) in zip(chosen,
    /// left)]`), that list's tuple register. The pairs stop at the shorter
    /// list, so the values are the whole list only where it is no longer
    /// than the other; where it is longer, the places and the values
    /// differ in number, which the write refuses (the position is then
    /// handed to the interpreter), so reading the whole list never gives
    /// another answer.
    fn zipped(&mut self, scope: &mut Scope, value: &Ir) -> Option<u32> {
        let IrKind::Comprehension { element, clauses } = &value.kind else {
            return None;
        };
        let (source, Some(part)) = super::element_taken(element, clauses)? else {
            return None;
        };
        let IrKind::Builtin(Builtin::Zip, _) = source.kind else {
            return None;
        };
        let Ok((_, Some(parts))) = self.walked(scope, source) else {
            return None;
        };
        match parts.get(usize::try_from(part).ok()?) {
            Some(super::worked::Part::Of(Val::Tuple(t))) => Some(*t),
            _ => None,
        }
    }

    /// The tuple register a comprehension or a range made a list
    /// (`list(c..len(h))`) is worked out into, its write added to
    /// `fills`; `None` for another list (a range itself is not a list of
    /// places to `set_at`), or one that does not compile so.
    fn filled(&mut self, scope: &mut Scope, list: &Ir, fills: &mut Vec<Write>) -> Option<u32> {
        let made = match &list.kind {
            IrKind::Comprehension { .. } => self.made_list(scope, list).ok()?,
            IrKind::Builtin(Builtin::List, a) => {
                let [range] = &a[..] else {
                    return None;
                };
                if !matches!(
                    range.kind,
                    IrKind::Binary(BinaryOp::RangeExclusive | BinaryOp::RangeInclusive, ..)
                ) {
                    return None;
                }
                let (lo, hi, inclusive) = self.range(scope, list).ok()?;
                let var = self.reg();
                let walk = Walk {
                    var,
                    over: Seq::Range(lo, hi, inclusive),
                    guard: None,
                };
                MadeList {
                    tuple: self.tuple(),
                    walk,
                    element: Num::Reg(var),
                }
            }
            _ => return None,
        };
        let tuple = made.tuple;
        fills.push(Write::Fill(Box::new(made)));
        Some(tuple)
    }

    /// One element of a list or string parameter set to `value`.
    pub(super) fn set_one(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        group: &Group,
        i: Num,
        value: Given,
    ) -> Compiled<Write> {
        let value = match value {
            Given::Expr(ir) => ir,
            // An element read off a list of numbers.
            Given::Item(n) => match group {
                Group::List(f) => return Ok(Write::Element(*f, i, n)),
                _ => return Err(Unsupported::new(WRITES, call.span)),
            },
        };
        Ok(match group {
            Group::Str(f, _) => Write::Cell(*f, i, self.char(scope, value)?),
            Group::Grid(rows) => Write::Row(*rows, i, self.text(scope, value)?),
            Group::Bools(f) => Write::Cell(*f, i, self.truth_letter(scope, value)?),
            Group::List(f) => Write::Element(*f, i, self.num(scope, value)?),
            Group::Fixed(_)
            | Group::Scalar(_)
            | Group::Flag(_)
            | Group::Bits(_)
            | Group::Sized { .. } => return Err(Unsupported::new(WRITES, call.span)),
        })
    }
}
