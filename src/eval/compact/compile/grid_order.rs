//! A rule's generators put in the order its grid is read in. A value needs
//! a position's options, not their order, and two generators side by side
//! that do not read each other walk the same pairs of values either way
//! round: `c in 0..w, r in 0..h` and `r in 0..h, c in 0..w` make the same
//! options. Where one of them picks a row of a grid held in the key, its
//! loop is put outside, as the shapes that read a row at once (a plane of
//! the grid, writes made once for the loops outside) expect, whichever
//! order the author chose.
//!
//! This reads the compiled rule, not its text: a generator picks a row
//! where its register is the row read by the guard or written by a move,
//! directly or through a helper's argument, so that `t[c][r]` on
//! `transpose(g)` picks row `r` of `g`, as `g[r][c]` does.
//!
//! Only the search's fused code, which gives values, is put in this
//! order; listing options with their labels keeps the author's.
//!
//! Only the first generators trade places, and only while each walks a
//! range between numbers known before any generator is set (literals, or
//! the key's fields) and has no test of its own: in any order they make
//! the same options and meet no error. A range the author wrote from
//! another generator's variable counts where it was worked out to
//! literals (`len(t[c])` for `c` on the grid), since it then is the same
//! range at every value of that variable.

use crate::eval::compact::code::{Bind, Gen, Num, Rule, Seq, Source, Target, Write};
use crate::eval::compact::facts::NEAR;
use crate::eval::compact::layout::Fields;
use crate::eval::compact::reads::{self, Visit};

/// `rule` with its first generators that may trade places ordered so
/// that those picking a row of a grid come first, each group in the
/// author's order; `key_regs`: the registers that hold the key's fields.
pub(super) fn rows_outside(rule: &mut Rule, key_regs: u32) {
    let known = |n: &Num| match n {
        Num::Lit(x) => x.abs() < NEAR,
        Num::Reg(r) => *r < key_regs,
        _ => false,
    };
    let free = rule
        .gens
        .iter()
        .zip(&rule.early)
        .take_while(|(g, early)| {
            let range = match (&g.target, &g.source) {
                (Target::Reg(_), Source::Each(Seq::Range(lo, hi, _))) => known(lo) && known(hi),
                _ => false,
            };
            range && early.is_none()
        })
        .count();
    if free < 2 {
        return;
    }
    let pickers = row_pickers(rule);
    let picks = |g: &Gen| matches!(g.target, Target::Reg(r) if pickers.contains(&r));
    let mut order: Vec<usize> = (0..free).collect();
    order.sort_by_key(|&d| !picks(&rule.gens[d]));
    if order.iter().enumerate().all(|(i, &d)| i == d) {
        return;
    }
    let mut gens: Vec<Option<Gen>> = rule.gens.drain(..free).map(Some).collect();
    let moved = order.iter().filter_map(|&d| gens[d].take());
    rule.gens.splice(0..0, moved);
    // The tests of these generators are none, so `early` stays as it is.
}

/// The registers a rule reads or writes a grid's row at: those of the row
/// numbers in its tests and writes, and those a helper's argument that is
/// such a number was bound from.
fn row_pickers(rule: &Rule) -> Vec<u32> {
    let mut rows = RowReads::default();
    for test in rule.early.iter().flatten().chain(&rule.guard) {
        reads::truth(&mut rows, test);
    }
    let mut bound: Vec<(u32, Vec<u32>)> = Vec::new();
    for w in &rule.writes {
        match w {
            Write::Bind(Bind::Num { reg, value, .. }) => {
                let from = reads::outside(|o| reads::num(o, value)).unwrap_or_default();
                bound.push((*reg, from));
                reads::num(&mut rows, value);
            }
            Write::Row(_, at, text) => {
                rows.row_at(at);
                reads::num(&mut rows, at);
                reads::text(&mut rows, text);
            }
            w => reads::write(&mut rows, w),
        }
    }
    let mut pickers = rows.picks;
    // Bound registers are bound before the writes that read them, in
    // order: from the last back, each picks where what it holds does.
    for (reg, from) in bound.iter().rev() {
        if pickers.contains(reg) {
            pickers.extend(from);
        }
    }
    pickers
}

/// The registers the row numbers of a grid read (see `row_pickers`).
#[derive(Default)]
struct RowReads {
    picks: Vec<u32>,
}

impl RowReads {
    fn row_at(&mut self, at: &Num) {
        self.picks
            .extend(reads::outside(|o| reads::num(o, at)).unwrap_or_default());
    }
}

impl Visit for RowReads {
    fn reg(&mut self, _: u32) {}
    fn text_reg(&mut self, _: u32) {}
    fn element(&mut self, _: &Fields, i: &Num) {
        reads::num(self, i);
    }
    fn row(&mut self, _: &Fields, r: &Num, c: Option<&Num>) {
        self.row_at(r);
        reads::num(self, r);
        if let Some(c) = c {
            reads::num(self, c);
        }
    }
    fn fields(&mut self, _: &Fields) {}
    fn key(&mut self) {}
    fn opaque(&mut self) {}
    fn set(&mut self, _: u32) {}
    fn set_text(&mut self, _: u32) {}
}
