//! Whether affine heap rules have the shape the Guy–Smith theorem needs
//! (see `period`), read from the arithmetic alone so that a proven period
//! rests on the rules and not on the values seen.
//!
//! Every bound, test and heap is linear in n with integer coefficients, so
//! two of them that differ in slope cross below `2·C + 2`, where C is the
//! largest constant term anywhere. Past that heap (`settled`) each rule
//! keeps one form for good: a fixed number of options, each a heap n - t
//! beside at most one heap of constant size; or every split of n - j into
//! two heaps above fixed minimums; or nothing.

use super::{Affine, AffineGame, Rule, Test};
use crate::solve::period::Shape;

/// `s·n + c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Line {
    pub s: i64,
    pub c: i64,
}

impl Line {
    fn of(t: Affine) -> Line {
        Line { s: t.n, c: t.c }
    }

    fn plus(self, c: i64) -> Option<Line> {
        Some(Line {
            s: self.s,
            c: self.c.checked_add(c)?,
        })
    }

    fn neg(self) -> Option<Line> {
        Some(Line {
            s: self.s.checked_neg()?,
            c: self.c.checked_neg()?,
        })
    }

    /// The sign of `s·n + c` once n is past every constant.
    fn eventual_sign(self) -> i64 {
        if self.s != 0 {
            self.s.signum()
        } else {
            self.c.signum()
        }
    }
}

/// The most options a rule with a fixed count of them may have before the
/// analysis gives up (it lists them).
const MOST_FIXED_OPTIONS: i64 = 4096;

/// What one rule looks like past the settled heap.
#[derive(Default)]
struct Form {
    most_taken: i64,
    least_heap: i64,
}

impl AffineGame {
    /// The shape of these rules, if the Guy–Smith theorem applies to them.
    pub fn shape(&self) -> Option<Shape> {
        let mut largest_constant: i64 = 0;
        let mut most_taken = 0;
        let mut least_heap = 0;
        for rule in &self.rules {
            let form = settled_form(rule, &mut largest_constant)?;
            most_taken = most_taken.max(form.most_taken);
            least_heap = least_heap.max(form.least_heap);
        }
        let settled = largest_constant.checked_mul(2)?.checked_add(2)?;
        Some(Shape {
            most_taken: usize::try_from(most_taken).ok()?,
            settled: usize::try_from(settled).ok()?,
            least_heap: usize::try_from(least_heap).ok()?,
            exact_below: self.exact_below(),
        })
    }
}

/// A rule's range and tests as bounds on `a` (`lows[i] <= a < highs[j]`)
/// and conditions on the heap alone (`line < 0`, `<= 0` or `== 0`, as the
/// two flags say: strict, equal).
pub(super) struct Bounds {
    pub lows: Vec<Line>,
    pub highs: Vec<Line>,
    pub conditions: Vec<(Line, bool, bool)>,
}

/// The bounds of a rule, or `None` if a test is on a multiple of `a`.
pub(super) fn bounds(rule: &Rule) -> Option<Bounds> {
    let mut lows = vec![Line::of(rule.lo)];
    let mut highs = vec![Line::of(rule.hi)];
    let mut conditions = Vec::new();
    for test in &rule.tests {
        // a·k + r (< | <= | ==) 0 with r = Line.
        let (t, strict, equal) = match *test {
            Test::Below(t) => (t, true, false),
            Test::AtMost(t) => (t, false, false),
            Test::Zero(t) => (t, false, true),
        };
        let r = Line::of(t);
        match t.a {
            0 => conditions.push((r, strict, equal)),
            // a < -r, a <= -r, or a == -r.
            1 => {
                let bound = r.neg()?;
                highs.push(if strict { bound } else { bound.plus(1)? });
                if equal {
                    lows.push(bound);
                }
            }
            // a > r, a >= r, or a == r.
            -1 => {
                lows.push(if strict { r.plus(1)? } else { r });
                if equal {
                    highs.push(r.plus(1)?);
                }
            }
            _ => return None,
        }
    }
    Some(Bounds {
        lows,
        highs,
        conditions,
    })
}

/// Whether a rule's bounds contradict at every heap: a low bound at or
/// above a high one of the same slope (`a < 1` beside `a == 3`). Such
/// cases come from splitting a guard, and cost time at every heap.
pub(super) fn never_applies(rule: &Rule) -> bool {
    bounds(rule).is_some_and(|b| {
        b.lows.iter().any(|low| {
            b.highs
                .iter()
                .any(|high| high.s == low.s && high.c <= low.c)
        })
    })
}

/// The rule's form for large heaps, or `None` if it has none the theorem
/// covers (a range that grows at another rate, a test on `2·a`, ...).
/// `largest_constant` grows to cover every constant the rule uses.
fn settled_form(rule: &Rule, largest_constant: &mut i64) -> Option<Form> {
    let Bounds {
        lows,
        highs,
        conditions,
    } = bounds(rule)?;
    let heaps: Vec<Line> = rule.heaps.iter().map(|h| Line::of(*h)).collect();
    for line in lows
        .iter()
        .chain(&highs)
        .chain(conditions.iter().map(|c| &c.0))
        .chain(&heaps)
    {
        *largest_constant = (*largest_constant).max(line.c.checked_abs()?);
    }
    for (r, strict, equal) in conditions {
        let sign = r.eventual_sign();
        let holds = if equal {
            sign == 0
        } else if strict {
            sign < 0
        } else {
            sign <= 0
        };
        if !holds {
            return Some(Form::default());
        }
    }
    // For large n the greatest low bound is the one of steepest slope, and
    // of those the largest constant; the least high bound likewise.
    let lo = *lows.iter().max()?;
    let hi = highs.iter().copied().min_by_key(|l| (l.s, l.c))?;
    if hi.s < lo.s || (hi.s == lo.s && hi.c <= lo.c) || rule.heaps.is_empty() {
        // No options for large n, or always a move to the empty position:
        // either way the same at every large heap.
        return Some(Form::default());
    }
    if hi.s == lo.s {
        return fixed_options(rule, lo, hi.c - lo.c, largest_constant);
    }
    every_split(rule, lo, hi)
}

/// A fixed number of options: a = lo + i for i < count. Each must be one
/// heap n - t (t >= 1), beside at most one heap of constant size.
fn fixed_options(rule: &Rule, lo: Line, count: i64, largest_constant: &mut i64) -> Option<Form> {
    if count > MOST_FIXED_OPTIONS {
        return None;
    }
    let mut most_taken = 0;
    for i in 0..count {
        let a_const = lo.c.checked_add(i)?;
        let lines = rule.heaps.iter().map(|h| {
            // h = h.a·(lo.s·n + a_const) + h.n·n + h.c
            Some(Line {
                s: h.a.checked_mul(lo.s)?.checked_add(h.n)?,
                c: h.a.checked_mul(a_const)?.checked_add(h.c)?,
            })
        });
        let lines: Vec<Line> = lines.collect::<Option<_>>()?;
        for line in &lines {
            *largest_constant = (*largest_constant).max(line.c.checked_abs()?);
        }
        let (big, small): (Vec<Line>, Vec<Line>) = lines.iter().partition(|l| l.s == 1);
        let [big] = big.as_slice() else { return None };
        if small.iter().any(|l| l.s != 0 || l.c < 0) {
            return None;
        }
        let taken = big.c.checked_neg()?;
        if taken < 1 {
            return None;
        }
        most_taken = most_taken.max(taken);
    }
    Some(Form {
        most_taken,
        least_heap: 0,
    })
}

/// `a` from a constant up to about n: the heaps must be `a + c1` and
/// `n - a + c2`, every split of n - j above two fixed minimums.
fn every_split(rule: &Rule, lo: Line, hi: Line) -> Option<Form> {
    if lo.s != 0 || hi.s != 1 {
        return None;
    }
    let [first, second] = rule.heaps.as_slice() else {
        return None;
    };
    let (small, big) = match (first.a, second.a) {
        (1, -1) => (first, second),
        (-1, 1) => (second, first),
        _ => return None,
    };
    if small.n != 0 || big.n != 1 {
        return None;
    }
    // The small heap runs from lo.c + small.c to n + hi.c - 1 + small.c, so
    // the big one from big.c - hi.c + 1 upwards; together n - j.
    let least_small = lo.c.checked_add(small.c)?;
    let least_big = big.c.checked_sub(hi.c)?.checked_add(1)?;
    let taken = small.c.checked_add(big.c)?.checked_neg()?;
    if least_small < 0 || least_big < 0 || taken < 0 {
        return None;
    }
    if taken == 0 && least_small.min(least_big) == 0 {
        // A split leaving an empty heap and the whole of n: a loop.
        return None;
    }
    Some(Form {
        most_taken: taken,
        least_heap: least_small.max(least_big),
    })
}
