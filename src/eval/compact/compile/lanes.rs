//! A list of truth values made whole by a comprehension over its own
//! places, `[free[u] and u != v and not (u in ADJ[v]) for u in
//! indices(free)]`, worked out for every place at once: the list is one
//! bit a place in the key, and each part of the element is a word of
//! bits, one a place. The element may read the place only through the
//! list's own element there, comparisons of the place with a number the
//! walk does not change, truth values the walk does not change, and its
//! membership in a constant list or in a row of a constant list of lists
//! (a graph's neighbour lists); `and`, `or`, `not`, `==`, `!=` and `if`
//! join them (Mock Turtles' `[h[x] != (x == j or x == k) for x in
//! indices(h)]`).
//!
//! `and` and `or` read their right side only where the left does not
//! decide, as the interpreter does place by place: a row read at a place
//! off the constant is an error only where it is read, and then the whole
//! position goes to the general search, which reports it.

use super::{Compiler, Scope, Val};
use crate::eval::compact::closure::Closure;
use crate::eval::compact::code::{Truth, Walk, Write};
use crate::eval::compact::lanes::{flipped, places, Lanes, Operand};
use crate::eval::compact::layout::Fields;
use crate::eval::compact::one_place::whole_list;
use crate::eval::compact::run::low_bits;
use crate::eval::ir::{CompIr, Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use std::rc::Rc;

impl Compiler<'_> {
    /// The write of `[element for walk]` into the list of truth values
    /// `fields` as bits, where the element is made of parts read at every
    /// place at once (see the top of this file).
    pub(super) fn lanes(
        &self,
        scope: &Scope,
        walk: &Walk,
        element: &Ir,
        fields: Fields,
    ) -> Option<Write> {
        if walk.guard.is_some() || !whole_list(walk, fields) || fields.width != 1 {
            return None;
        }
        let lanes = self.lanes_of(scope, walk.var, fields, element)?;
        Some(Write::Lanes(fields, Box::new(lanes)))
    }

    fn lanes_of(&self, scope: &Scope, place: u32, fields: Fields, ir: &Ir) -> Option<Lanes> {
        let is_place = |x: &Ir| matches!(self.val(scope, x), Some(Val::Num(r)) if r == place);
        let of = |x: &Ir| self.lanes_of(scope, place, fields, x).map(Box::new);
        Some(match &ir.kind {
            IrKind::Lit(Value::Bool(b)) => Lanes::Const(*b),
            IrKind::Local(_) => match self.val(scope, ir)? {
                Val::Flag(r) => Lanes::Flag(r),
                _ => return None,
            },
            IrKind::If(test, a, b) => Lanes::If(Box::new([
                self.lanes_of(scope, place, fields, test)?,
                self.lanes_of(scope, place, fields, a)?,
                self.lanes_of(scope, place, fields, b)?,
            ])),
            IrKind::Index(list, at)
                if is_place(at)
                    && matches!(self.val(scope, list), Some(Val::Bools(f)) if f == fields) =>
            {
                Lanes::Own
            }
            IrKind::Unary(UnaryOp::Not, a) => Lanes::Not(of(a)?),
            IrKind::Binary(BinaryOp::And, a, b) => Lanes::And(of(a)?, of(b)?),
            IrKind::Binary(BinaryOp::Or, a, b) => Lanes::Or(of(a)?, of(b)?),
            IrKind::Binary(
                op @ (BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge),
                a,
                b,
            ) => {
                let (op, other) = if is_place(a) {
                    (*op, b)
                } else if is_place(b) {
                    (flipped(*op), a)
                } else if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                    // Two truth values (only they make lanes).
                    return Some(Lanes::Same(*op == BinaryOp::Eq, of(a)?, of(b)?));
                } else {
                    return None;
                };
                Lanes::Compare(op, self.operand(scope, other)?)
            }
            IrKind::Binary(op @ (BinaryOp::In | BinaryOp::NotIn), x, list) if is_place(x) => {
                let found = self.places_in(scope, list)?;
                if *op == BinaryOp::In {
                    found
                } else {
                    Lanes::Not(Box::new(found))
                }
            }
            _ => return None,
        })
    }

    /// A number the walk does not change, read as it is: a register or a
    /// literal (neither can fail).
    fn operand(&self, scope: &Scope, ir: &Ir) -> Option<Operand> {
        match (&ir.kind, self.val(scope, ir)) {
            (IrKind::Lit(Value::Int(n)), _) => Some(Operand::Lit(*n)),
            (_, Some(Val::Num(r))) => Some(Operand::Reg(r)),
            _ => match self.known(ir)? {
                Value::Int(n) => Some(Operand::Lit(n)),
                _ => None,
            },
        }
    }

    /// Membership of the place in a constant list, or in a row of a
    /// constant list of lists at a register's place.
    fn places_in(&self, scope: &Scope, list: &Ir) -> Option<Lanes> {
        if let Some(Value::List(items)) = self.known(list) {
            return Some(Lanes::Within(places(&super::numbers(&items)?)));
        }
        let IrKind::Index(table, at) = &list.kind else {
            return None;
        };
        let (Some(Value::List(rows)), Some(Val::Num(reg))) =
            (self.known(table), self.val(scope, at))
        else {
            return None;
        };
        let rows = rows
            .iter()
            .map(|row| match row {
                Value::List(items) => Some(places(&super::numbers(items)?)),
                _ => None,
            })
            .collect::<Option<Rc<[u64]>>>()?;
        Some(Lanes::InRow(rows, reg))
    }

    /// `any` (`any` set) or `all` of `[list[w] for w in ROWS[v]]` or of
    /// `[not list[w] ...]`, for a list of truth values and a row of a
    /// constant list of lists at a register's place (`all([not taken[w]
    /// for w in ADJ[v]])`): the row's places as bits, tested against the
    /// list's bits in one step. A row past the constant's end, or one
    /// holding a place off the list, is the interpreter's index error.
    pub(super) fn row_test(&self, scope: &Scope, any: bool, list: &Ir) -> Option<Truth> {
        let IrKind::Comprehension { element, clauses } = &list.kind else {
            return None;
        };
        let [CompIr {
            generator,
            guard: None,
        }] = &clauses[..]
        else {
            return None;
        };
        let IrKind::Index(table, at) = &generator.source.kind else {
            return None;
        };
        let (Some(Value::List(rows)), Some(Val::Num(reg))) =
            (self.known(table), self.val(scope, at))
        else {
            return None;
        };
        let (negated, read) = match &element.kind {
            IrKind::Unary(UnaryOp::Not, x) => (true, &**x),
            _ => (false, &**element),
        };
        let IrKind::Index(bools, place) = &read.kind else {
            return None;
        };
        let (Some(Val::Bools(f)), IrKind::Local(slot)) = (self.val(scope, bools), &place.kind)
        else {
            return None;
        };
        if *slot != generator.slot || f.width != 1 {
            return None;
        }
        let on_list = |n: &i64| (0..i64::from(f.len)).contains(n);
        let rows = rows
            .iter()
            .map(|row| match row {
                Value::List(items) => {
                    let items = super::numbers(items)?;
                    Some(items.iter().all(on_list).then(|| places(&items)))
                }
                _ => None,
            })
            .collect::<Option<Rc<[Option<u64>]>>>()?;
        let (shift, all) = (f.shift, low_bits(f.len));
        Some(Truth::Closure(Closure::new(Box::new(move |m| {
            let row = usize::try_from(m.regs[reg as usize]).ok()?;
            let places = (*rows.get(row)?)?;
            let set = m.key >> shift & all & places;
            Some(match (any, negated) {
                (true, false) => set != 0,
                (true, true) => set != places,
                (false, false) => set == places,
                (false, true) => set == 0,
            })
        }))))
    }
}
