//! A list remade place by place from chosen places and their new values,
//! as a newcomer writes Moore's Nim's move:
//!
//! ```text
//! [if i in chosen then left[index_of(chosen, i)] else p for (i, p) in enumerate(piles)]
//! [if i not in chosen then piles[i] else left[place(chosen, i)] for i in 0..len(piles)]
//! ```
//!
//! (`place` a helper that is `index_of`), is `set_at(piles, chosen,
//! left)`, and is written as that is: the values put at their places on
//! the key, with no list made. The two say the same where `chosen` holds
//! each place once: a subset of a range (`subsets(indices(piles), 1,
//! k)`), whose numbers only rise, is known to. Where they could differ,
//! the write refuses and the interpreter answers as written: a place off
//! the list (which the comprehension passes over), or `left` longer than
//! `chosen` (whose values past the places it never reads).

use super::{Compiler, Scope, Val};
use crate::eval::builtins::Builtin;
use crate::eval::compact::layout::Group;
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

impl Compiler<'_> {
    /// For a comprehension over the places of the list parameter `group`
    /// holds, each element its new value where its place is in a subset
    /// of a range and else the list's own: the subset and the values, as
    /// `set_at(list, subset, values)` takes them.
    pub(super) fn put_back<'i>(
        &self,
        scope: &Scope,
        ir: &'i Ir,
        group: &Group,
    ) -> Option<(&'i Ir, &'i Ir)> {
        let IrKind::Comprehension { element, clauses } = &ir.kind else {
            return None;
        };
        let [clause] = &clauses[..] else {
            return None;
        };
        if clause.guard.is_some() {
            return None;
        }
        let walk = Walk::of(&clause.generator.source, clause.generator.slot)?;
        if !self.is_param(scope, walk.list, group) {
            return None;
        }
        let IrKind::If(test, then, otherwise) = &element.kind else {
            return None;
        };
        let IrKind::Binary(op @ (BinaryOp::In | BinaryOp::NotIn), place, chosen) = &test.kind
        else {
            return None;
        };
        let (put, kept) = match op {
            BinaryOp::In => (then, otherwise),
            _ => (otherwise, then),
        };
        if !walk.place(place) || !walk.own(kept) {
            return None;
        }
        let IrKind::Index(values, at) = &put.kind else {
            return None;
        };
        let (among, found) = self.found_in(at)?;
        if !same_local(among, chosen) || !walk.place(found) {
            return None;
        }
        match self.val(scope, chosen) {
            Some(Val::Tuple(t)) if self.distinct_tuples.contains(&t) => Some((chosen, values)),
            _ => None,
        }
    }

    /// For `index_of(list, x)`, or a helper whose body is `index_of` of
    /// its two parameters in order: the list and `x`.
    fn found_in<'i>(&self, ir: &'i Ir) -> Option<(&'i Ir, &'i Ir)> {
        let (IrKind::Builtin(Builtin::IndexOf, args) | IrKind::CallFn(_, args)) = &ir.kind else {
            return None;
        };
        if let IrKind::CallFn(f, _) = &ir.kind {
            let body = &self.program.functions.get(*f as usize)?.body;
            let IrKind::Builtin(Builtin::IndexOf, inner) = &body.kind else {
                return None;
            };
            let params = inner.iter().map(|x| match x.kind {
                IrKind::Local(s) => Some(s),
                _ => None,
            });
            if !params.eq([Some(0), Some(1)]) {
                return None;
            }
        }
        match &args[..] {
            [list, x] => Some((list, x)),
            _ => None,
        }
    }
}

/// A walk over the places of a list: `(i, p) in enumerate(list)`, or `i`
/// in `indices(list)` or `0..len(list)`.
struct Walk<'i> {
    list: &'i Ir,
    slot: u32,
    pairs: bool,
}

impl<'i> Walk<'i> {
    fn of(source: &'i Ir, slot: u32) -> Option<Walk<'i>> {
        let (list, pairs) = match &source.kind {
            IrKind::Builtin(Builtin::Enumerate, a) => (one(a)?, true),
            IrKind::Builtin(Builtin::Indices, a) => (one(a)?, false),
            IrKind::Binary(BinaryOp::RangeExclusive, lo, hi) => match (&lo.kind, &hi.kind) {
                (IrKind::Lit(Value::Int(0)), IrKind::Builtin(Builtin::Len, a)) => (one(a)?, false),
                _ => return None,
            },
            _ => return None,
        };
        Some(Walk { list, slot, pairs })
    }

    /// Whether `ir` is the walk's place: `i`.
    fn place(&self, ir: &Ir) -> bool {
        match self.pairs {
            true => self.part(ir, 0),
            false => matches!(ir.kind, IrKind::Local(s) if s == self.slot),
        }
    }

    /// Whether `ir` is the list's element at the walk's place: `p`, or
    /// `list[i]`.
    fn own(&self, ir: &Ir) -> bool {
        if self.pairs && self.part(ir, 1) {
            return true;
        }
        matches!(&ir.kind, IrKind::Index(list, at) if same_local(list, self.list) && self.place(at))
    }

    /// Whether `ir` is part `k` of the pair the walk sets.
    fn part(&self, ir: &Ir, k: i64) -> bool {
        matches!(&ir.kind, IrKind::Index(pair, at)
            if matches!(pair.kind, IrKind::Local(s) if s == self.slot)
                && matches!(at.kind, IrKind::Lit(Value::Int(i)) if i == k))
    }
}

fn one(args: &[Ir]) -> Option<&Ir> {
    match args {
        [x] => Some(x),
        _ => None,
    }
}

/// Whether two expressions are the same variable.
fn same_local(a: &Ir, b: &Ir) -> bool {
    matches!((&a.kind, &b.kind), (IrKind::Local(x), IrKind::Local(y)) if x == y)
}
