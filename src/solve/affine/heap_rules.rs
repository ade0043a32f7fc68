//! Affine rules read as `HeapRules` (take k leaving one heap, take a whole
//! heap of k, split what is left into two heaps), so that a take-and-break
//! game written as rules, Grundy's game among them, can use the rare-value
//! method as octal codes do.
//!
//! Each rule is matched to the moves it stands for by what it allows at
//! the first heaps past its k, and then checked at every heap of the run:
//! the options it names at heap n must be exactly those the matched moves
//! name. A rule that differs anywhere (a move allowed only from some
//! larger heap, a split missing its middle) keeps the game on the affine
//! method.

use super::{Affine, AffineGame, Rule};
use crate::solve::sparse::HeapRules;

/// The moves one rule stands for, for its fixed k.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Moves {
    /// Remove a heap of exactly k whole.
    take_all: bool,
    /// Remove k, leaving one non-empty heap.
    take: bool,
    /// Remove k and split the rest into two non-empty heaps; `Some(true)`
    /// when they must differ.
    split: Option<bool>,
}

/// What a rule allows at one heap, in the terms of `Moves`.
#[derive(Debug, PartialEq, Eq)]
struct Allowed {
    take_all: bool,
    take: bool,
    /// The splits allowed name every smaller part from 1 to this.
    split_up_to: i64,
}

/// How a rule's options are made.
#[derive(Clone, Copy)]
enum Kind {
    /// No heap is left: option 0.
    Nothing,
    /// One heap, n - k.
    One { k: i64 },
    /// Two heaps that add up to n - k, the first running over a range.
    Two { k: i64 },
}

impl AffineGame {
    /// The game as `HeapRules`, if every rule stands for take, take-all or
    /// split moves at every heap up to `upto`.
    pub fn heap_rules(&self, upto: usize) -> Option<HeapRules> {
        let upto = i64::try_from(upto).ok()?;
        // `HeapRules` gives a heap of 0 the value 0: a move to it is a move
        // to nothing, and a part of 0 beside another heap is dropped. That
        // holds only while heap 0 has no move.
        if self
            .rules
            .iter()
            .any(|r| r.range(0).is_none_or(|(lo, hi)| lo < hi))
        {
            return None;
        }
        // Past the heap where every rule has settled into its last form
        // (see `shape`), and below the first where arithmetic might
        // overflow, what a rule allows changes no more: the heaps checked
        // a little past that stand for the rest, both parities of a split
        // among them.
        let checked = match self.shape() {
            Some(shape) if shape.exact_below > upto as u64 => {
                let past = shape.settled.saturating_add(2 * shape.most_taken + 16);
                upto.min(i64::try_from(past).unwrap_or(i64::MAX))
            }
            _ => upto,
        };
        // (A stop asked for is honoured as below.)
        let fine_throughout = |rule: &Rule| {
            (0..=checked).all(|n| {
                rule.range(n).is_some() && !(n % (1 << 16) == 0 && crate::interrupt::requested())
            })
        };
        if !self.checks.iter().all(fine_throughout) {
            return None;
        }
        let mut heap_rules = HeapRules::default();
        for rule in &self.rules {
            let kind = rule.kind()?;
            let k = match kind {
                Kind::Nothing => match rule.first_heap_allowed(checked) {
                    Some(k) => k,
                    // Never allowed here (a case whose tests contradict),
                    // but its arithmetic must still be fine at every heap.
                    None if fine_throughout(rule) => continue,
                    None => return None,
                },
                Kind::One { k } | Kind::Two { k } => k,
            };
            let moves = match_moves(rule, kind, k, upto)?;
            for n in 0..=checked {
                if rule.allowed(kind, n)? != moves.allowed(k, n) {
                    return None;
                }
                // This check runs over every heap of a long table before
                // its first value: a stop asked for now is honoured by the
                // method the table falls back to, at its first check.
                if n % (1 << 16) == 0 && crate::interrupt::requested() {
                    return None;
                }
            }
            let k = usize::try_from(k).ok()?;
            if moves.take_all && !heap_rules.take_all.contains(&k) {
                heap_rules.take_all.push(k);
            }
            if moves.take && !heap_rules.take.contains(&k) {
                heap_rules.take.push(k);
            }
            if let Some(strict) = moves.split {
                if !heap_rules.split.contains(&(k, strict)) {
                    heap_rules.split.push((k, strict));
                }
            }
        }
        Some(heap_rules)
    }
}

/// The moves a rule would stand for, read off the heaps k to k + 3, where
/// each kind of move first shows (checked later at every heap).
fn match_moves(rule: &Rule, kind: Kind, k: i64, upto: i64) -> Option<Moves> {
    let at = |n: i64| match n <= upto {
        true => rule.allowed(kind, n),
        false => Some(Allowed {
            take_all: false,
            take: false,
            split_up_to: 0,
        }),
    };
    // Two equal parts first show at k + 2, unequal ones at k + 3 (a rule
    // that never applies shows neither).
    let split = match kind {
        Kind::Two { .. } if at(k.checked_add(2)?)?.split_up_to == 1 => Some(false),
        Kind::Two { .. } if at(k.checked_add(3)?)?.split_up_to >= 1 => Some(true),
        _ => None,
    };
    Some(Moves {
        take_all: at(k)?.take_all,
        take: at(k.checked_add(1)?)?.take,
        split,
    })
}

impl Moves {
    fn allowed(self, k: i64, n: i64) -> Allowed {
        let rest = n - k;
        let split_up_to = match self.split {
            Some(true) => (rest - 1) / 2,
            Some(false) => rest / 2,
            None => 0,
        };
        Allowed {
            take_all: self.take_all && rest == 0,
            take: self.take && rest > 0,
            split_up_to: split_up_to.max(0),
        }
    }
}

impl Rule {
    fn kind(&self) -> Option<Kind> {
        match self.heaps_left()?.as_slice() {
            [] => Some(Kind::Nothing),
            [h] if h.a == 0 && h.n == 1 && h.c < 0 => Some(Kind::One {
                k: h.c.checked_neg()?,
            }),
            [x, y]
                if matches!((x.a, y.a), (1, -1) | (-1, 1)) && x.n.checked_add(y.n) == Some(1) =>
            {
                let k = x.c.checked_add(y.c)?.checked_neg()?;
                (k >= 0).then_some(Kind::Two { k })
            }
            _ => None,
        }
    }

    /// The heaps a move leaves, where it is allowed: with `a` put in where
    /// the rule allows one value of it only (a lower bound `l` and an upper
    /// bound `l + 1`, as `a == n - 2`, or `a > 0` beside `a < 2`), and
    /// without the heaps of size 0, which add nothing.
    fn heaps_left(&self) -> Option<Vec<Affine>> {
        // (A test on a multiple of `a` pins nothing here.)
        let bounds = super::shape::bounds(self);
        let pinned = bounds.as_ref().and_then(|bounds| {
            bounds.lows.iter().find(|low| {
                bounds
                    .highs
                    .iter()
                    .any(|high| high.s == low.s && Some(high.c) == low.c.checked_add(1))
            })
        });
        let heaps = match pinned {
            None => self.heaps.clone(),
            Some(at) => self
                .heaps
                .iter()
                .map(|h| {
                    Some(Affine {
                        n: h.a.checked_mul(at.s)?.checked_add(h.n)?,
                        c: h.a.checked_mul(at.c)?.checked_add(h.c)?,
                        ..Affine::default()
                    })
                })
                .collect::<Option<_>>()?,
        };
        let empty = |h: &Affine| h.a == 0 && h.n == 0 && h.c == 0;
        Some(heaps.into_iter().filter(|h| !empty(h)).collect())
    }

    /// The one heap at which a rule leaving nothing applies.
    fn first_heap_allowed(&self, upto: i64) -> Option<i64> {
        (0..=upto).find(|&n| self.range(n).is_some_and(|(lo, hi)| lo < hi))
    }

    /// What the rule allows at heap n; `None` if it names a heap that is
    /// negative or not smaller than n, or a split that is not every split
    /// up to some size.
    fn allowed(&self, kind: Kind, n: i64) -> Option<Allowed> {
        let mut allowed = Allowed {
            take_all: false,
            take: false,
            split_up_to: 0,
        };
        let (lo, hi) = self.range(n)?;
        if lo >= hi {
            return Some(allowed);
        }
        match kind {
            Kind::Nothing => allowed.take_all = true,
            Kind::One { k } => {
                let rest = n - k;
                if rest < 0 {
                    return None;
                }
                allowed.take_all = rest == 0;
                allowed.take = rest > 0;
            }
            Kind::Two { k } => {
                let rest = n - k;
                let (b1, _) = self.split(n)?;
                // The first heap runs over first..=last, the second is
                // rest minus it.
                let (first, last) = (lo.checked_add(b1)?, (hi - 1).checked_add(b1)?);
                // With nothing removed, a part of 0 would leave heap n.
                let whole = first == 0 || last == rest;
                if first < 0 || last > rest || (k == 0 && whole) {
                    return None;
                }
                allowed.take_all = rest == 0;
                allowed.take = rest > 0 && whole;
                allowed.split_up_to = smaller_parts(first.max(1), last.min(rest - 1), rest)?;
            }
        }
        Some(allowed)
    }
}

/// With the first heap of a split running over `first..=last` (within
/// 1..rest), the smaller parts named must be exactly 1..=m: then `m`
/// (0 when there are none).
fn smaller_parts(first: i64, last: i64, rest: i64) -> Option<i64> {
    if first > last {
        return Some(0);
    }
    // Smaller part x while x <= rest / 2, then rest - x: two runs.
    let half = rest / 2;
    let mut runs = Vec::with_capacity(2);
    if first <= last.min(half) {
        runs.push((first, last.min(half)));
    }
    if first.max(half + 1) <= last {
        runs.push((rest - last, rest - first.max(half + 1)));
    }
    runs.sort_unstable();
    let mut reach = 0;
    for (from, to) in runs {
        if from > reach + 1 {
            return None;
        }
        reach = reach.max(to);
    }
    Some(reach)
}
