//! A generator over a comprehension that keeps some of its source's
//! values (`i in [i for i in indices(board) if board[i] == "."]`, often
//! through a `let`) walks the source itself, the comprehension's test
//! made first in the rule's guard: the same values in the same order, and
//! the test met for every one of them, as building the list meets it.

use super::children_mut;
use crate::eval::ir::{GenIr, Ir, IrKind, MoveIr};
use crate::syntax::ast::BinaryOp;
use std::borrow::Cow;

/// `m` with each generator over a comprehension whose element is its own
/// variable walking the comprehension's source instead.
pub(super) fn unfolded(m: &MoveIr) -> Cow<'_, MoveIr> {
    if !m.generators.iter().any(|g| kept(g).is_some()) {
        return Cow::Borrowed(m);
    }
    let mut rule = m.clone();
    let mut tests = Vec::new();
    for g in &mut rule.generators {
        let Some((source, test)) = kept(g) else {
            continue;
        };
        let (source, test) = (source.clone(), test);
        g.source = source;
        tests.extend(test);
    }
    // The tests first, in the generators' order, then the rule's guard.
    let guard = tests.into_iter().chain(rule.guard.take()).reduce(|a, b| {
        let span = a.span;
        Ir {
            kind: IrKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
            span,
        }
    });
    rule.guard = guard;
    Cow::Owned(rule)
}

/// For a generator over `[x for x in source if test]`: the source and the
/// test, read in the generator's own variable.
fn kept(g: &GenIr) -> Option<(&Ir, Option<Ir>)> {
    let IrKind::Comprehension { element, clauses } = &g.source.kind else {
        return None;
    };
    let [clause] = &clauses[..] else {
        return None;
    };
    let slot = clause.generator.slot;
    if !matches!(element.kind, IrKind::Local(s) if s == slot) {
        return None;
    }
    let test = clause.guard.as_ref().map(|t| renamed(t, slot, g.slot));
    Some((&clause.generator.source, test))
}

/// `ir` with variable `from` read as `to`.
fn renamed(ir: &Ir, from: u32, to: u32) -> Ir {
    let mut out = ir.clone();
    rename(&mut out, from, to);
    out
}

fn rename(ir: &mut Ir, from: u32, to: u32) {
    match &mut ir.kind {
        IrKind::Local(s) if *s == from => *s = to,
        _ => children_mut(ir, |child| rename(child, from, to)),
    }
}
