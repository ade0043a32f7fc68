//! A comprehension that writes a whole list or grid, in a rule's last
//! write, whose elements are `if test then a else b` where the test does
//! not read the rule's last generator: for each element the test picks a
//! branch, and a branch that does not read that generator either gives the
//! same value for each of its values. Chomp's `[if i < r then g[i] else
//! eaten(g[i], c) for i in indices(g)]` keeps the rows above `r` for every
//! `c`. Those elements are worked out once, while the key and every
//! register they read stay as they were, and only the others for each
//! option. What an element reads is found from the compiled code.

use super::code::{Element, Num, Text};
use super::layout::Fields;
use super::reads::{self, outside};

/// Which branches of a split comprehension's elements are kept, and the
/// registers their values depend on besides the key.
pub struct Plan {
    /// Whether the `then` branch, and the `else` branch, are kept.
    pub kept: [bool; 2],
    /// The registers the test and the kept branches read that the key does
    /// not hold and the comprehension does not set.
    pub reads: Vec<u32>,
}

/// The plan for a comprehension over `var` whose elements are `element`,
/// in a rule whose last generator sets `inner`, when its elements are
/// tests between branches and a branch is worth keeping. `fields`: the
/// registers that hold the key's fields.
pub fn plan(element: &Element, inner: u32, var: u32, fields: u32) -> Option<Plan> {
    let (test, then, otherwise) = match element {
        Element::Num(Num::If(t, a, b)) => (
            outside(|v| reads::truth(v, t)),
            outside(|v| reads::num(v, a)),
            outside(|v| reads::num(v, b)),
        ),
        Element::Row(_, Text::If(t, a, b)) => (
            outside(|v| reads::truth(v, t)),
            outside(|v| reads::text(v, a)),
            outside(|v| reads::text(v, b)),
        ),
        _ => return None,
    };
    let mut read = test.filter(|r| !r.contains(&inner))?;
    let kept = [&then, &otherwise].map(|r| r.as_ref().is_some_and(|r| !r.contains(&inner)));
    if kept == [false, false] {
        return None;
    }
    for (branch, kept) in [then, otherwise].into_iter().zip(kept) {
        if kept {
            read.extend(branch.into_iter().flatten());
        }
    }
    read.retain(|&r| r >= fields && r != var);
    read.sort_unstable();
    read.dedup();
    Some(Plan { kept, reads: read })
}

/// What a split comprehension worked out for one key and one set of
/// values of the registers its plan reads.
#[derive(Default)]
pub struct Kept {
    made: bool,
    key: u64,
    reads: Vec<i64>,
    /// The kept elements' fields: which bits, and what they hold.
    mask: u64,
    bits: u64,
    /// The other elements: where each goes, the comprehension's value for
    /// it, and whether the test picked `then`.
    pub rest: Vec<(u32, i64, bool)>,
}

impl Kept {
    /// Whether this was worked out for the current key and registers.
    #[inline(always)]
    pub fn holds(&self, key: u64, regs: &[i64], plan: &Plan) -> bool {
        self.made
            && self.key == key
            && plan
                .reads
                .iter()
                .zip(&self.reads)
                .all(|(r, v)| regs[*r as usize] == *v)
    }

    /// Starts again for the current key and registers.
    pub fn restart(&mut self, key: u64, regs: &[i64], plan: &Plan) {
        self.made = false;
        self.key = key;
        self.reads.clear();
        self.reads
            .extend(plan.reads.iter().map(|r| regs[*r as usize]));
        self.mask = 0;
        self.bits = 0;
        self.rest.clear();
    }

    /// Element `at` kept with value `v`; `None` when its field cannot hold
    /// it.
    pub fn keep(&mut self, fields: &Fields, at: u32, v: i64) -> Option<()> {
        if !fields.fits(v) {
            return None;
        }
        let shift = fields.shift_of(at);
        self.mask |= fields.mask() << shift;
        self.bits |= fields.stored(v) << shift;
        Some(())
    }

    pub fn finish(&mut self) {
        self.made = true;
    }

    /// `k` with the kept elements written.
    #[inline(always)]
    pub fn onto(&self, k: u64) -> u64 {
        k & !self.mask | self.bits
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::same_options;

    const HEIGHTS: &str = include_str!("../../../bench/games/chomp-heights.game");
    /// Elements kept where the test picks a branch that does not read the
    /// last generator (both branches of `lift`), and with `reach` past
    /// the list's end, an element that errs in a kept branch; a branch
    /// remembered by element and generator (`cut`, `part`), which errs
    /// where an element is 0 and `t` is 1.
    fn rows(reach: u32) -> String {
        format!(
            r#"
            game Shift(xs: [nat]) {{
              move cut(c in indices(xs), t in 0..xs[c])
                => Shift([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
              move lift(c in 0..len(xs) + {reach}, t in 0..2) if t < c
                => Shift([if j + 1 < c then xs[j + 1] else 0 for j in indices(xs)]);
              move part(c in indices(xs), t in 0..2)
                => Shift([if j <= c then xs[j] else 6 / (xs[j] + 1 - t) % 4 for j in indices(xs)]);
            }}
            "#
        )
    }

    #[test]
    fn split_comprehensions_give_the_options_step_by_step_code_gives() {
        // Every never increasing list of 4 heights up to 3 but the empty one.
        assert_eq!(same_options(HEIGHTS, "Chomp([3, 3, 3, 3])"), 34);
        assert!(same_options(&rows(1), "Shift([2, 3, 1])") > 10);
        // xs[3]: both give up on the first key.
        assert_eq!(same_options(&rows(2), "Shift([2, 3, 1])"), 1);
    }

    /// Integers are kept with a bias (a field holds `v - bias`): the kept
    /// elements are written as the field stores them.
    const SIGNED: &str = r#"
        game Sink(xs: [int]) {
          move cut(c in indices(xs), t in 0..2) if xs[c] > -2
            => Sink([if j < c then xs[j] else xs[j] - 1 - t for j in indices(xs)]);
        }
    "#;

    #[test]
    fn kept_integers_are_written_as_their_fields_store_them() {
        assert!(same_options(SIGNED, "Sink([1, -1, 2])") > 20);
    }
}
