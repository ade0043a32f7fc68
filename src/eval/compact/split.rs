//! A comprehension that writes a whole list or grid in a rule's write,
//! whose elements are `if test then a else b`: Chomp's `[if i < r then g[i]
//! else eaten(g[i], c) for i in indices(g)]`. Most of what it works out at
//! one option it worked out at the last: what each part reads (the test,
//! each branch), found from the compiled code, says how long its values
//! hold, and each is remembered that long.
//!
//! A part that reads nothing of the key holds for every key: `i < r` sends
//! the same rows each way for each `r`. A part that reads the key holds
//! while the key does. Besides the key and the element's place, a part
//! read at most one more register is remembered for each of its values
//! (`eaten(g[i], c)` for each `c`, whatever `r` is; `g[i]` once a key),
//! and one that reads more, for as long as they all stay as they were. An
//! option's key is then the two branches' remembered bits, each under the
//! mask of the elements the test sends its way.
//!
//! A branch that reads one element of the key, at the comprehension's
//! place, and one more register (`eaten(g[i], c)`, and `min(h[j], t)`
//! however little it costs) gives each element a value that holds while
//! that element and that register do: its values for each value of the
//! register are kept from one key to the next for the elements the two
//! keys share, and only the others are worked out again.

use super::closure::{NumFn, TruthFn};
use super::code::{Element, Num, Text};
use super::layout::Fields;
use super::lookup::Site;
use super::reads::{self, outside_and_key};
use super::run::{low_bits, Machine};
use std::cell::RefCell;

/// The values of a register a part is remembered by: `0..64`. Other
/// values are worked out each time.
const SLOTS: usize = 64;

/// What the test and each branch of a split comprehension's elements read.
pub struct Plan {
    test: Reads,
    branches: [Reads; 2],
    /// When the test does not read the rule's last generator, the
    /// elements go each way alike at all its values: which branches do
    /// not read it either (their bits then stay too), and the registers
    /// the test and those branches read.
    steady: Option<([bool; 2], Vec<u32>)>,
}

/// What one part reads from outside itself besides the comprehension's
/// variable: whether it reads the key (its fields, or the key itself), and
/// the other registers.
struct Reads {
    key: bool,
    regs: Vec<u32>,
}

/// The plan for a comprehension over `var` whose elements are `element`,
/// in a rule whose last generator sets `inner`, when its elements are
/// tests between branches whose reads are all known. `fields`: the
/// registers that hold the key's fields.
pub fn plan(element: &Element, inner: u32, var: u32, fields: u32) -> Option<Plan> {
    let (test, then, otherwise) = match element {
        Element::Num(Num::If(t, a, b)) => (
            outside_and_key(|v| reads::truth(v, t)),
            outside_and_key(|v| reads::num(v, a)),
            outside_and_key(|v| reads::num(v, b)),
        ),
        Element::Row(_, Text::If(t, a, b)) => (
            outside_and_key(|v| reads::truth(v, t)),
            outside_and_key(|v| reads::text(v, a)),
            outside_and_key(|v| reads::text(v, b)),
        ),
        _ => return None,
    };
    let part = |found: Option<(Vec<u32>, bool)>| -> Option<Reads> {
        let (regs, key) = found?;
        let mut beyond: Vec<u32> = regs
            .iter()
            .copied()
            .filter(|&r| r >= fields && r != var)
            .collect();
        beyond.sort_unstable();
        beyond.dedup();
        Some(Reads {
            key: key || regs.iter().any(|&r| r < fields),
            regs: beyond,
        })
    };
    let (test, branches) = (part(test)?, [part(then)?, part(otherwise)?]);
    let steady = (!test.regs.contains(&inner)).then(|| {
        let still = branches.each_ref().map(|b| !b.regs.contains(&inner));
        let mut regs = test.regs.clone();
        for (b, still) in branches.iter().zip(still) {
            if still {
                regs.extend(&b.regs);
            }
        }
        regs.sort_unstable();
        regs.dedup();
        (still, regs)
    });
    Some(Plan {
        test,
        branches,
        steady,
    })
}

/// A split comprehension over `lo..lo + count` into `fields`, ready to run.
pub(super) struct Split {
    pub fields: Fields,
    /// The comprehension's variable.
    pub var: usize,
    pub lo: i64,
    pub count: usize,
    pub test: TruthFn,
    pub branches: [NumFn; 2],
    pub plan: Plan,
    /// For each branch whose elements are kept from key to key (see
    /// `kept`): the list whose element at the place it reads, and the
    /// register its values are kept by.
    pub kept: [Option<(Fields, u32)>; 2],
    pub memo: RefCell<Memo>,
}

/// Which branches' elements can be kept from one key to the next: those
/// that read one element of a list at the comprehension's variable and
/// one more register alone (`pairs`, see `lookup::num_pair`), that
/// register being the one the branch is remembered by.
pub fn kept(pairs: [Option<(Site, u32)>; 2], var: u32, plan: &Plan) -> [Option<(Fields, u32)>; 2] {
    let mut kept = [None, None];
    for (b, pair) in pairs.into_iter().enumerate() {
        if let Some((site, extra)) = pair {
            if site.index == var && plan.branches[b].regs == [extra] {
                kept[b] = Some((site.fields, extra));
            }
        }
    }
    kept
}

/// What a split comprehension remembers.
pub(super) struct Memo {
    /// Whether anything below holds, and the key it was worked out for.
    known: bool,
    key: u64,
    /// The elements the test sends to `then`, a bit each (bit `at`), and
    /// their fields' bits, or `None` where it fails.
    test: Part<Option<Option<(u64, u64)>>>,
    branches: [Part<Worked>; 2],
    /// What stays while the last generator alone changes (see
    /// `Plan::steady`), for these values of the registers it reads.
    steady: Option<Vec<i64>>,
    /// The steady branches' fields: their mask and bits; and the elements
    /// the test sends to each branch.
    steady_mask: u64,
    steady_bits: u64,
    sent: [(u64, u64); 2],
    /// The kept branches' values by their register's value, each with the
    /// key it holds for.
    kept: [Vec<(u64, Worked)>; 2],
    /// The elements two keys share, as last worked out: the keys, the
    /// elements (a bit each) and their fields' mask.
    shared: (u64, u64, u64, u64),
}

/// What one part remembers, by the values of the registers it reads.
struct Part<T> {
    /// By the value of the one register it reads (slot 0 when it reads
    /// none), each with the round of keys it was worked out in: it holds
    /// only in the current round.
    slots: Vec<(u64, T)>,
    round: u64,
    /// For a part that reads more registers: their values when `single`
    /// was worked out.
    values: Option<Vec<i64>>,
    single: T,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            known: false,
            key: 0,
            test: Part::default(),
            branches: Default::default(),
            steady: None,
            steady_mask: 0,
            steady_bits: 0,
            sent: [(0, 0); 2],
            // Key 0 with nothing worked out.
            kept: [0, 1].map(|_| vec![(0, Worked::default()); SLOTS]),
            // Keys 0 and 0 share no element: as nothing was worked out
            // for key 0, nothing is lost.
            shared: (0, 0, 0, 0),
        }
    }
}

impl<T: Default + Clone> Default for Part<T> {
    fn default() -> Part<T> {
        Part {
            slots: vec![(0, T::default()); SLOTS],
            round: 0,
            values: None,
            single: T::default(),
        }
    }
}

impl<T: Default> Part<T> {
    /// Forgets everything, for another key.
    fn forget(&mut self) {
        self.round += 1;
        self.values = None;
    }

    /// What is remembered for the current values of `by`; `None` where
    /// nothing is (a value outside the slots).
    #[inline(always)]
    fn at(&mut self, by: &[u32], regs: &[i64]) -> Option<&mut T> {
        let s = match by {
            [] => 0,
            [r] => usize::try_from(regs[*r as usize])
                .ok()
                .filter(|&v| v < SLOTS)?,
            _ => {
                let now = by.iter().map(|r| regs[*r as usize]);
                if !self
                    .values
                    .as_ref()
                    .is_some_and(|v| v.iter().copied().eq(now.clone()))
                {
                    self.values = Some(now.collect());
                    self.single = T::default();
                }
                return Some(&mut self.single);
            }
        };
        let slot = &mut self.slots[s];
        if slot.0 != self.round {
            *slot = (self.round, T::default());
        }
        Some(&mut slot.1)
    }
}

/// Values of one branch, for some elements, as they were asked for.
#[derive(Clone, Copy, Default)]
pub(super) struct Worked {
    /// The elements worked out, a bit each (bit `at`), and those whose
    /// branch failed or whose field cannot hold its value.
    done: u64,
    failed: u64,
    /// The fields' bits of the others.
    bits: u64,
}

impl Worked {
    /// Forgets the elements but `same`, whose fields' bits are `mask`.
    #[inline(always)]
    fn keep(&mut self, same: u64, mask: u64) {
        self.done &= same;
        self.failed &= same;
        self.bits &= mask;
    }

    /// The fields' bits of the elements `want` (among others'), those not
    /// worked out yet worked out now with `work`; `None` where one of them
    /// fails.
    #[inline(always)]
    fn get(
        &mut self,
        want: u64,
        fields: &Fields,
        mut work: impl FnMut(u32) -> Option<i64>,
    ) -> Option<u64> {
        let mut missing = want & !self.done;
        self.done |= missing;
        while missing != 0 {
            let at = missing.trailing_zeros();
            missing &= missing - 1;
            match work(at).filter(|&v| fields.fits(v)) {
                Some(v) => self.bits |= fields.stored(v) << fields.shift_of(at),
                None => self.failed |= 1 << at,
            }
        }
        (self.failed & want == 0).then_some(self.bits)
    }
}

impl Split {
    /// `k` with the comprehension written.
    #[inline(always)]
    pub fn run(&self, m: &mut Machine, k: u64) -> Option<u64> {
        m.steps(self.count)?;
        if self.count != self.fields.len as usize {
            // Too many elements or too few: an error.
            return None;
        }
        let memo = &mut *self.memo.borrow_mut();
        if !memo.known || memo.key != m.key {
            (memo.known, memo.key, memo.steady) = (true, m.key, None);
            memo.branches.iter_mut().for_each(Part::forget);
            if self.plan.test.key {
                memo.test.forget();
            }
        }
        let all_mask = low_bits(self.fields.len * self.fields.width) << self.fields.shift;
        let Some((still, regs)) = &self.plan.steady else {
            let sent = self.sent(m, memo)?;
            let mut k = k & !all_mask;
            for (b, (at, mask)) in sent.into_iter().enumerate() {
                k |= self.bits(m, memo, b, at)? & mask;
            }
            return Some(k);
        };
        let holds = memo
            .steady
            .as_ref()
            .is_some_and(|v| v.iter().zip(regs).all(|(v, r)| m.regs[*r as usize] == *v));
        if !holds {
            let mut now = memo.steady.take().unwrap_or_default();
            now.clear();
            now.extend(regs.iter().map(|r| m.regs[*r as usize]));
            memo.sent = self.sent(m, memo)?;
            (memo.steady_mask, memo.steady_bits) = (0, 0);
            for (b, (at, mask)) in memo.sent.into_iter().enumerate() {
                if still[b] {
                    memo.steady_bits |= self.bits(m, memo, b, at)? & mask;
                    memo.steady_mask |= mask;
                }
            }
            memo.steady = Some(now);
        }
        let mut k = k & !all_mask | memo.steady_bits;
        for b in [0, 1] {
            let (at, mask) = memo.sent[b];
            if !still[b] && at != 0 {
                k |= self.bits(m, memo, b, at)? & mask;
            }
        }
        Some(k)
    }

    /// The elements the test sends to each branch, a bit each, and their
    /// fields' bits.
    #[inline(always)]
    fn sent(&self, m: &mut Machine, memo: &mut Memo) -> Option<[(u64, u64); 2]> {
        let sent = match memo.test.at(&self.plan.test.regs, &m.regs) {
            Some(entry) => match *entry {
                Some(sent) => sent,
                None => {
                    let sent = self.partition(m);
                    *entry = Some(sent);
                    sent
                }
            },
            None => self.partition(m),
        };
        let (then_at, then_mask) = sent?;
        let f = &self.fields;
        let all_mask = low_bits(f.len * f.width) << f.shift;
        Some([
            (then_at, then_mask),
            (low_bits(f.len) & !then_at, all_mask & !then_mask),
        ])
    }

    /// The fields' bits branch `b` gives the elements `at` (among others').
    #[inline(always)]
    fn bits(&self, m: &mut Machine, memo: &mut Memo, b: usize, at: u64) -> Option<u64> {
        if at == 0 {
            return Some(0);
        }
        let branch = &self.branches[b];
        if let Some((list, by)) = self.kept[b] {
            if let Some(slot) = usize::try_from(m.regs[by as usize])
                .ok()
                .filter(|&v| v < SLOTS)
            {
                let (key, worked) = &mut memo.kept[b][slot];
                if *key != m.key {
                    let (same, mask) = self.shared(&mut memo.shared, &list, *key, m.key);
                    worked.keep(same, mask);
                    *key = m.key;
                }
                return worked.get(at, &self.fields, |at| self.element(m, branch, at));
            }
        }
        let worked = memo.branches[b].at(&self.plan.branches[b].regs, &m.regs);
        let work = |at| self.element(m, branch, at);
        match worked {
            Some(worked) => worked.get(at, &self.fields, work),
            None => Worked::default().get(at, &self.fields, work),
        }
    }

    /// The elements whose place in `list` holds the same field in keys
    /// `old` and `new`, a bit each, and their fields' mask; the last pair
    /// of keys asked about is remembered in `last`.
    fn shared(
        &self,
        last: &mut (u64, u64, u64, u64),
        list: &Fields,
        old: u64,
        new: u64,
    ) -> (u64, u64) {
        if (last.0, last.1) != (old, new) {
            let (mut same, mut mask) = (0, 0);
            for at in 0..self.fields.len {
                let place = self.lo + i64::from(at);
                let Ok(place) = u32::try_from(place) else {
                    continue;
                };
                if place < list.len && list.read(old, place) == list.read(new, place) {
                    same |= 1 << at;
                    mask |= self.fields.mask() << self.fields.shift_of(at);
                }
            }
            *last = (old, new, same, mask);
        }
        (last.2, last.3)
    }

    /// Element `at` by `branch`.
    #[inline(always)]
    fn element(&self, m: &mut Machine, branch: &NumFn, at: u32) -> Option<i64> {
        m.regs[self.var] = self.lo + i64::from(at);
        branch(m)
    }

    /// The elements the test sends to `then`, a bit each, and their
    /// fields' bits; `None` where it fails.
    fn partition(&self, m: &mut Machine) -> Option<(u64, u64)> {
        let (mut at, mut mask) = (0, 0);
        for i in 0..self.fields.len {
            m.regs[self.var] = self.lo + i64::from(i);
            if (self.test)(m)? {
                at |= 1 << i;
                mask |= self.fields.mask() << self.fields.shift_of(i);
            }
        }
        Some((at, mask))
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

    /// Tests and branches that read more than the element's place and the
    /// key: a test of the key itself (`by`, whose elements go each way by
    /// the key, not by `c` alone), a branch left to each option that reads
    /// an outer generator too (`by`) or two (`two`), a kept branch that
    /// reads one (`lift`).
    const MIXED: &str = r#"
        game Mix(xs: [nat]) {
          move by(c in indices(xs), t in 0..xs[c])
            => Mix([if xs[j] < c then xs[j] else min(xs[j], t + c % 2) for j in indices(xs)]);
          move lift(c in indices(xs), t in 0..xs[c])
            => Mix([if j < c then max(xs[j] - c, 0) else min(xs[j], t) for j in indices(xs)]);
          move two(c in indices(xs), d in 0..2, t in 0..xs[c])
            => Mix([if j < c then xs[j] else min(xs[j], t + d) for j in indices(xs)]);
        }
    "#;

    /// A test that fails for some `c` alone (a division by zero at
    /// `j = c - 1`), remembered as failing.
    const FAILING: &str = r#"
        game Fail(xs: [nat]) {
          move cut(c in indices(xs), t in 0..xs[c]) if c == 0 or xs[c] == 1
            => Fail([if j < c and 4 / (j - c + 1) > 0 then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;

    #[test]
    fn what_each_part_reads_says_how_long_it_is_remembered() {
        assert!(same_options(MIXED, "Mix([3, 3, 2, 3])") > 10);
        assert!(same_options(MIXED, "Mix([2, 4, 1, 3, 5])") > 30);
        // The first column cut to 1 or 2 everywhere; both then fail at a
        // column of 1 past the first.
        assert_eq!(same_options(FAILING, "Fail([3, 2, 3, 2])"), 4);
    }

    const GRID: &str = include_str!("../../../bench/games/chomp-grid.game");

    /// `eaten(g[i], c)` reads row `i` and `c` alone: its rows are kept
    /// from key to key where the keys share them. Every key is compared,
    /// met in an order where the next key shares some rows and not others.
    #[test]
    fn rows_kept_from_key_to_key_are_the_rows_step_by_step_code_writes() {
        // Grids of 3 rows of up to 4 squares, never longer than the row
        // above, but the empty one.
        assert_eq!(same_options(GRID, r#"Chomp(["....", "....", "...."])"#), 34);
        // Grids of 4 rows under a staircase: rows of at most 5, 3, 2 and
        // 1 squares.
        assert_eq!(
            same_options(GRID, r#"Chomp([".....", "...##", "..###", ".####"])"#),
            55
        );
    }

    /// The bite's row as the last generator: the test reads it, and the
    /// branch that eats reads two registers (the width and the column).
    const COLUMNS: &str =
        include_str!("../../../bench/games/search-rewrites/chomp-grid-columns.game");

    #[test]
    fn a_test_of_the_last_generator_and_a_branch_of_two_registers_are_remembered_alike() {
        // Every grid of 3 rows of up to 4 squares, each row never longer
        // than the one above, but the empty one.
        let n = same_options(COLUMNS, r#"Chomp(["....", "....", "...."])"#);
        assert_eq!(n, 34);
    }

    /// The bite as a pair from `cells`, a generator that sets no one
    /// register: every part stays while the registers it reads do.
    const CELLS: &str = include_str!("../../../bench/games/search-rewrites/chomp-grid-cells.game");

    #[test]
    fn a_last_generator_of_pairs_leaves_each_part_to_what_it_reads() {
        assert_eq!(
            same_options(CELLS, r#"Chomp(["....", "....", "...."])"#),
            34
        );
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
