//! A rule as the compiled search walks it, the same values in the same
//! order as the interpreter's:
//!
//! - a generator over a comprehension that keeps some of its source's
//!   values (`i in [i for i in indices(board) if board[i] == "."]`, often
//!   through a `let`) walks the source itself, the comprehension's test
//!   made first in the rule's guard, as building the list meets it;
//! - `(r, c) in cells(g, letter)` on a grid held in the key walks
//!   `r in indices(g), c in indices(g[r])`, the cell tested for the letter
//!   as soon as `c` is set, so that later generators and the guard never
//!   see the other cells. Row and column are then plain numbers, which
//!   every shape that reads loops over rows and columns (a plane of the
//!   grid, a sieve) reads as it reads the loops written out.

use super::children_mut;
use crate::eval::builtins::Builtin;
use crate::eval::ir::{GenIr, Ir, IrKind, MoveIr};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use std::borrow::Cow;

/// A move rule unfolded, with the test each generator's value must pass
/// before anything else reads it and the frame its variables need.
pub struct Unfolded<'m> {
    pub rule: Cow<'m, MoveIr>,
    pub filters: Vec<Option<Ir>>,
    pub frame: usize,
}

/// `m` unfolded as the module's header says, where `is_grid` tells a grid
/// held in the key and `frame` is the size of the rule's frame.
pub fn unfolded<'m>(m: &'m MoveIr, is_grid: impl Fn(&Ir) -> bool, frame: usize) -> Unfolded<'m> {
    let walks_cells = m
        .generators
        .iter()
        .any(|g| grid_cells(g, &is_grid).is_some());
    if !walks_cells && !m.generators.iter().any(|g| kept(g).is_some()) {
        let filters = vec![None; m.generators.len()];
        return Unfolded {
            rule: Cow::Borrowed(m),
            filters,
            frame,
        };
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
    let mut frame = frame;
    let filters = cells_apart(&mut rule, &is_grid, &mut frame);
    Unfolded {
        rule: Cow::Owned(rule),
        filters,
        frame,
    }
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

/// For a generator over `cells(g)` or `cells(g, letter)` of a grid held
/// in the key, with a letter written out: the grid and the letter. A
/// letter of other than one character is an error the interpreter
/// reports, so it is left to the general walk.
fn grid_cells(g: &GenIr, is_grid: impl Fn(&Ir) -> bool) -> Option<(&Ir, Option<&Ir>)> {
    let IrKind::Builtin(Builtin::Cells, a) = &g.source.kind else {
        return None;
    };
    let (grid, letter) = match &a[..] {
        [grid] => (grid, None),
        [grid, letter] => match &letter.kind {
            IrKind::Lit(Value::Str(s)) if s.chars().count() == 1 => (grid, Some(letter)),
            _ => return None,
        },
        _ => return None,
    };
    is_grid(grid).then_some((grid, letter))
}

/// Splits each generator over the cells of a grid whose pair is only
/// ever taken apart (`(r, c)`, read as its two elements) into a loop over
/// the rows and one over the row's places, and gives the test of the
/// cell's letter, made as soon as the column is set, for each generator.
fn cells_apart(
    rule: &mut MoveIr,
    is_grid: impl Fn(&Ir) -> bool,
    frame: &mut usize,
) -> Vec<Option<Ir>> {
    let mut filters = vec![None; rule.generators.len()];
    let mut at = 0;
    while at < rule.generators.len() {
        let g = &rule.generators[at];
        let slot = g.slot;
        let Some((grid, letter)) = grid_cells(g, &is_grid) else {
            at += 1;
            continue;
        };
        let (grid, letter, span) = (grid.clone(), letter.cloned(), g.source.span);
        let Ok(column) = u32::try_from(*frame) else {
            break;
        };
        if !taken_apart(rule, at, slot) {
            at += 1;
            continue;
        }
        *frame += 1;
        let apart = |ir: &mut Ir| read_apart(ir, slot, column);
        for later in &mut rule.generators[at + 1..] {
            apart(&mut later.source);
        }
        for g in &mut rule.generators[at..] {
            g.shown.iter_mut().for_each(|(_, read)| apart(read));
        }
        rule.guard.iter_mut().for_each(apart);
        apart(&mut rule.result);
        let ir = |kind| Ir { kind, span };
        let row = ir(IrKind::Index(
            Box::new(grid.clone()),
            Box::new(ir(IrKind::Local(slot))),
        ));
        let filter = letter.map(|letter| {
            let cell = ir(IrKind::Index(
                Box::new(row.clone()),
                Box::new(ir(IrKind::Local(column))),
            ));
            ir(IrKind::Binary(
                BinaryOp::Eq,
                Box::new(cell),
                Box::new(letter),
            ))
        });
        let rows = GenIr {
            slot,
            source: ir(IrKind::Builtin(Builtin::Indices, vec![grid])),
            shown: Vec::new(),
        };
        let columns = GenIr {
            slot: column,
            source: ir(IrKind::Builtin(Builtin::Indices, vec![row])),
            shown: std::mem::take(&mut rule.generators[at].shown),
        };
        rule.generators.splice(at..=at, [rows, columns]);
        filters.splice(at..=at, [None, filter]);
        at += 2;
    }
    filters
}

/// Whether everything after generator `at` of `rule` (and the names it
/// shows) reads variable `slot` only as `slot[0]` or `slot[1]`.
fn taken_apart(rule: &MoveIr, at: usize, slot: u32) -> bool {
    let later = rule.generators[at + 1..].iter().map(|g| &g.source);
    let shown = rule.generators[at..]
        .iter()
        .flat_map(|g| g.shown.iter().map(|(_, read)| read));
    later
        .chain(shown)
        .chain(&rule.guard)
        .chain([&rule.result])
        .all(|ir| only_elements(ir, slot))
}

fn only_elements(ir: &Ir, slot: u32) -> bool {
    if element_of(ir, slot).is_some() {
        return true;
    }
    if matches!(ir.kind, IrKind::Local(s) if s == slot) {
        return false;
    }
    let mut all = true;
    super::children(ir, |child| all &= only_elements(child, slot));
    all
}

/// `Some(0)` for `slot[0]`, `Some(1)` for `slot[1]`.
fn element_of(ir: &Ir, slot: u32) -> Option<i64> {
    let IrKind::Index(of, at) = &ir.kind else {
        return None;
    };
    match (&of.kind, &at.kind) {
        (IrKind::Local(s), IrKind::Lit(Value::Int(i @ (0 | 1)))) if *s == slot => Some(*i),
        _ => None,
    }
}

/// `ir` with `slot[0]` read as variable `slot` and `slot[1]` as `column`.
fn read_apart(ir: &mut Ir, slot: u32, column: u32) {
    match element_of(ir, slot) {
        Some(0) => ir.kind = IrKind::Local(slot),
        Some(_) => ir.kind = IrKind::Local(column),
        None => children_mut(ir, |child| read_apart(child, slot, column)),
    }
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
