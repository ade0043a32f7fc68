//! A comprehension that writes a whole list or grid, in a rule's last
//! write, whose elements are `if test then a else b` where the test does
//! not read the rule's last generator: for each element the test picks a
//! branch, and a branch that does not read that generator either gives the
//! same value for each of its values. Chomp's `[if i < r then g[i] else
//! eaten(g[i], c) for i in indices(g)]` keeps the rows above `r` for every
//! `c`. Those elements are worked out once, while the key and every
//! register they read stay as they were, and only the others for each
//! option.
//!
//! What each part reads, found from the compiled code, says how long its
//! values hold: a test that reads nothing of the key sends the same
//! elements each way for every key (`i < r` depends on `r` alone); a kept
//! branch that reads nothing but the key and the element's place gives the
//! same value at every option of a key (`g[i]`); and the other branch,
//! when it reads nothing but those and the last generator, gives the same
//! value for each value of that generator at every option of a key
//! (`eaten(g[i], c)` for each `c`, whatever `r` is). Each is worked out
//! once for as long as it holds, and an option's key is then written with
//! two masks.

use super::closure::{NumFn, TruthFn};
use super::code::{Element, Num, Text};
use super::layout::Fields;
use super::reads::{self, outside_and_key};
use super::run::{low_bits, put, Machine};
use std::cell::RefCell;

/// The values of a register a split comprehension remembers things by
/// (the last generator's, the test's): `0..64`. Other values are worked
/// out each time.
const SLOTS: usize = 64;

/// Which branches of a split comprehension's elements are kept, and for
/// how long what each part works out holds.
pub struct Plan {
    /// Whether the `then` branch, and the `else` branch, are kept.
    pub kept: [bool; 2],
    /// The registers the test and the kept branches read that the key does
    /// not hold and the comprehension does not set.
    pub reads: Vec<u32>,
    /// Each kept branch that reads nothing but the key and the
    /// comprehension's variable.
    per_key: [bool; 2],
    /// When the test reads nothing of the key and at most one register
    /// besides the comprehension's variable: that register, if any.
    test_by: Option<Option<u32>>,
    /// Whether the branch that is not kept reads nothing but the key, the
    /// comprehension's variable and the last generator.
    by_inner: bool,
}

/// The plan for a comprehension over `var` whose elements are `element`,
/// in a rule whose last generator sets `inner`, when its elements are
/// tests between branches and a branch is worth keeping. `fields`: the
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
    let (test, test_key) = test.filter(|(r, _)| !r.contains(&inner))?;
    let [then, otherwise] = [then, otherwise].map(|r| r.map(|(r, _)| r));
    let kept = [&then, &otherwise].map(|r| r.as_ref().is_some_and(|r| !r.contains(&inner)));
    if kept == [false, false] {
        return None;
    }
    // Registers other than the key's fields and the comprehension's
    // variable.
    let beyond = |r: &Vec<u32>| -> Vec<u32> {
        let mut r: Vec<u32> = r
            .iter()
            .copied()
            .filter(|&r| r >= fields && r != var)
            .collect();
        r.sort_unstable();
        r.dedup();
        r
    };
    let per_key = [&then, &otherwise].map(|r| r.as_ref().is_some_and(|r| beyond(r).is_empty()));
    let test_by = match beyond(&test)[..] {
        _ if test_key || test.iter().any(|&r| r < fields) => None,
        [] => Some(None),
        [r] => Some(Some(r)),
        _ => None,
    };
    let rest = if kept[0] { &otherwise } else { &then };
    let by_inner = rest
        .as_ref()
        .is_some_and(|r| beyond(r).iter().all(|&r| r == inner));
    let mut read = test;
    for (branch, kept) in [then, otherwise].into_iter().zip(kept) {
        if kept {
            read.extend(branch.into_iter().flatten());
        }
    }
    Some(Plan {
        kept,
        reads: beyond(&read),
        per_key,
        test_by,
        by_inner,
    })
}

/// A split comprehension over `lo..lo + count` into `fields`, ready to run.
pub(super) struct Split {
    pub fields: Fields,
    /// The comprehension's variable and the last generator's register.
    pub var: usize,
    pub inner: usize,
    pub lo: i64,
    pub count: usize,
    pub test: TruthFn,
    pub branches: [NumFn; 2],
    pub plan: Plan,
    pub memo: RefCell<Memo>,
}

/// What a split comprehension remembers.
pub(super) struct Memo {
    /// Whether anything below holds, and the key it was worked out for.
    known: bool,
    key: u64,
    /// The elements for the current key and registers of the plan's
    /// reads, when `made`.
    made: bool,
    reads: Vec<i64>,
    /// The kept elements' fields: which bits, and what they hold.
    keep_mask: u64,
    keep_bits: u64,
    /// The other elements, a bit each (bit `at`), and their fields' bits.
    rest_at: u64,
    rest_mask: u64,
    /// For each value of the test's register (see `Plan::test_by`), the
    /// elements it sends to `then` and their fields' bits, or `None` where
    /// the test fails; whatever the key.
    tests: Vec<Option<Option<(u64, u64)>>>,
    /// Each kept branch's values for the key.
    kept: [Worked; 2],
    /// The other branch's values for the key and each value of the last
    /// generator, and the values met, a bit each.
    rest: Vec<Worked>,
    met: u64,
}

impl Default for Memo {
    fn default() -> Memo {
        Memo {
            known: false,
            key: 0,
            made: false,
            reads: Vec::new(),
            keep_mask: 0,
            keep_bits: 0,
            rest_at: 0,
            rest_mask: 0,
            tests: vec![None; SLOTS],
            kept: Default::default(),
            rest: vec![Worked::default(); SLOTS],
            met: 0,
        }
    }
}

impl Memo {
    /// Starts again for `key`: what holds whatever the key stays.
    fn forget(&mut self, key: u64) {
        self.known = true;
        self.key = key;
        self.made = false;
        self.kept = Default::default();
        while self.met != 0 {
            let t = self.met.trailing_zeros() as usize;
            self.met &= self.met - 1;
            self.rest[t] = Worked::default();
        }
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
            memo.forget(m.key);
        }
        let holds = memo.made
            && self
                .plan
                .reads
                .iter()
                .zip(&memo.reads)
                .all(|(r, v)| m.regs[*r as usize] == *v);
        if !holds {
            self.restart(m, memo)?;
        }
        let k = k & !memo.keep_mask | memo.keep_bits;
        if memo.rest_at == 0 {
            return Some(k);
        }
        let rest = &self.branches[usize::from(self.plan.kept[0])];
        let (rest_at, rest_mask) = (memo.rest_at, memo.rest_mask);
        if self.plan.by_inner {
            if let Some(t) = slot(m.regs[self.inner]) {
                memo.met |= 1 << t;
                let bits =
                    memo.rest[t].get(rest_at, &self.fields, |at| self.element(m, rest, at))?;
                return Some(k & !rest_mask | bits & rest_mask);
            }
        }
        let mut k = k;
        let mut left = rest_at;
        while left != 0 {
            let at = left.trailing_zeros();
            left &= left - 1;
            let v = self.element(m, rest, at)?;
            k = put(k, &self.fields, at, v)?;
        }
        Some(k)
    }

    /// Element `at` by `branch`.
    #[inline(always)]
    fn element(&self, m: &mut Machine, branch: &NumFn, at: u32) -> Option<i64> {
        m.regs[self.var] = self.lo + i64::from(at);
        branch(m)
    }

    /// Which elements are kept and which are left to each option, and the
    /// kept ones' values, for the current key and registers.
    fn restart(&self, m: &mut Machine, memo: &mut Memo) -> Option<()> {
        memo.made = false;
        memo.reads.clear();
        memo.reads
            .extend(self.plan.reads.iter().map(|r| m.regs[*r as usize]));
        let at_slot = match self.plan.test_by {
            Some(None) => Some(0),
            Some(Some(r)) => slot(m.regs[r as usize]),
            None => None,
        };
        let (then_at, then_mask) = match at_slot {
            Some(s) => match memo.tests[s] {
                Some(sent) => sent?,
                None => {
                    let sent = self.partition(m);
                    memo.tests[s] = Some(sent);
                    sent?
                }
            },
            None => self.partition(m)?,
        };
        let all_mask = low_bits(self.fields.len * self.fields.width) << self.fields.shift;
        let sent = [
            (then_at, then_mask),
            (low_bits(self.fields.len) & !then_at, all_mask & !then_mask),
        ];
        (memo.keep_mask, memo.keep_bits, memo.rest_at, memo.rest_mask) = (0, 0, 0, 0);
        for (b, (at, mask)) in sent.into_iter().enumerate() {
            if !self.plan.kept[b] {
                (memo.rest_at, memo.rest_mask) = (at, mask);
                continue;
            }
            let branch = &self.branches[b];
            let bits = if self.plan.per_key[b] {
                memo.kept[b].get(at, &self.fields, |at| self.element(m, branch, at))?
            } else {
                Worked::default().get(at, &self.fields, |at| self.element(m, branch, at))?
            };
            memo.keep_mask |= mask;
            memo.keep_bits |= bits & mask;
        }
        memo.made = true;
        Some(())
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

/// A register's value as a slot a split comprehension remembers by.
#[inline(always)]
fn slot(v: i64) -> Option<usize> {
    usize::try_from(v).ok().filter(|&v| v < SLOTS)
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
    /// an outer generator too (`by`), a kept branch that reads one
    /// (`lift`).
    const MIXED: &str = r#"
        game Mix(xs: [nat]) {
          move by(c in indices(xs), t in 0..xs[c])
            => Mix([if xs[j] < c then xs[j] else min(xs[j], t + c % 2) for j in indices(xs)]);
          move lift(c in indices(xs), t in 0..xs[c])
            => Mix([if j < c then max(xs[j] - c, 0) else min(xs[j], t) for j in indices(xs)]);
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
