//! A rule's generators put in the order its grid is read in. A value needs
//! a position's options, not their order, and two generators side by side
//! that do not read each other walk the same pairs of values either way
//! round: `c in 0..w, r in 0..h` and `r in 0..h, c in 0..w` make the same
//! options. Where the inner of two such generators picks a row of a grid
//! held in the key and the outer does not, the row is walked outside, as
//! the shapes that read a row at once (a plane of the grid, writes made
//! once for the loops outside) expect, whichever order the author chose.
//!
//! Only the search's fused code, which gives values, is put in this
//! order; listing options with their labels keeps the author's.
//!
//! Only generators that read no other generator's variable, have no test
//! of their own and whose walks are made without fail (a range between
//! settled numbers) trade places: in any order they make the same
//! options and meet no error, where a walk made inside another may be
//! made fewer times, or never.

use super::unfold::Unfolded;
use crate::eval::builtins::Builtin;
use crate::eval::ir::{Ir, IrKind, MoveIr};

/// `unfolded` with the generators that pick a row of a grid put first
/// among the first generators, where those read no generator's variable,
/// have no test of their own and are `settled` (making the walk cannot
/// fail, read before any generator is set); `is_grid`: a grid held in
/// the key. Any order of such generators makes the same options, and
/// meets no error.
pub(super) fn rows_first(
    unfolded: &mut Unfolded,
    is_grid: impl Fn(&Ir) -> bool,
    settled: impl Fn(&Ir) -> bool,
) {
    let rule = &unfolded.rule;
    let slots: Vec<u32> = rule.generators.iter().map(|g| g.slot).collect();
    let free = rule
        .generators
        .iter()
        .zip(&unfolded.filters)
        .take_while(|(g, filter)| {
            filter.is_none() && !slots.iter().any(|&s| reads(&g.source, s)) && settled(&g.source)
        })
        .count();
    let row = |at: usize| picks_row(rule, slots[at], &is_grid);
    let mut order: Vec<usize> = (0..free).collect();
    // Stable: rows first, each group in the author's order.
    order.sort_by_key(|&at| !row(at));
    if order.iter().enumerate().all(|(i, &g)| i == g) {
        return;
    }
    let rule = unfolded.rule.to_mut();
    let mut moved: Vec<_> = order.iter().map(|&g| rule.generators[g].clone()).collect();
    rule.generators.splice(..free, moved.drain(..));
}

/// Whether the rule reads a grid held in the key at a row given by
/// variable `slot`: `g[slot]`, `g[slot + 1]`, `set_at(g, slot, ...)`.
fn picks_row(rule: &MoveIr, slot: u32, is_grid: &impl Fn(&Ir) -> bool) -> bool {
    let sources = rule.generators.iter().map(|g| &g.source);
    sources
        .chain(&rule.guard)
        .chain([&rule.result])
        .any(|ir| row_read(ir, slot, is_grid))
}

fn row_read(ir: &Ir, slot: u32, is_grid: &impl Fn(&Ir) -> bool) -> bool {
    let at_row = match &ir.kind {
        IrKind::Index(grid, row) => is_grid(grid) && reads(row, slot),
        IrKind::Builtin(Builtin::SetAt, a) => {
            matches!(&a[..], [grid, row, _] if is_grid(grid) && reads(row, slot))
        }
        _ => false,
    };
    let mut found = at_row;
    super::children(ir, |child| found = found || row_read(child, slot, is_grid));
    found
}

/// Whether `ir` reads variable `slot`.
fn reads(ir: &Ir, slot: u32) -> bool {
    if matches!(ir.kind, IrKind::Local(s) if s == slot) {
        return true;
    }
    let mut found = false;
    super::children(ir, |child| found = found || reads(child, slot));
    found
}
