//! Where a test whose truth changes at most once along a range (see
//! `monotone`) changes, found from its comparisons' values at the range's
//! ends rather than by halving: a comparison `a <= b` whose difference
//! `a - b` changes by the same step at each value (Wythoff's `k * dx <=
//! x`) crosses its threshold where a line through the ends does. The
//! place found is only a guess, checked by making the test just before it
//! and at it: a test that changes once, and has changed between those
//! two, changes there and nowhere else. A guess that fails the check
//! (a difference that is not a line) leaves the halving to find it.

use super::code::{Num, Seq, Truth};
use super::run::Machine;
use crate::syntax::ast::BinaryOp;

impl Machine {
    /// The first value of the range `start..end` (register `r`) where
    /// `test`, `first` at `start` and the other way at `end - 1`, no
    /// longer is `first`; `None` where the lines of its comparisons (those
    /// of its `and` chain, `a op b`) do not find it. Every comparison of
    /// the test has been made without an error at both ends.
    pub(super) fn crossing<'n>(
        &mut self,
        (test, comparisons): (&Truth, impl Iterator<Item = (BinaryOp, &'n Num, &'n Num)>),
        r: usize,
        seq: &Seq,
        (start, end): (i64, i64),
        first: bool,
    ) -> Option<i64> {
        if !matches!(seq, Seq::Range(..)) || end - start < 3 {
            return None;
        }
        for (op, a, b) in comparisons {
            let Some(at) = self.line_crossing(op, a, b, r, (start, end - 1)) else {
                continue;
            };
            if at <= start || at >= end {
                continue;
            }
            self.regs[r] = at - 1;
            let before = self.truth(test)?;
            self.regs[r] = at;
            if before == first && self.truth(test)? != first {
                return Some(at);
            }
        }
        None
    }

    /// Where `a op b` first differs from its truth at `k0`, if `a - b`
    /// is the line through its values at `k0` and `k1`.
    fn line_crossing(
        &mut self,
        op: BinaryOp,
        a: &Num,
        b: &Num,
        r: usize,
        (k0, k1): (i64, i64),
    ) -> Option<i64> {
        use BinaryOp::*;
        let difference = |m: &mut Machine, k: i64| -> Option<i128> {
            m.regs[r] = k;
            Some(i128::from(m.num(a)?) - i128::from(m.num(b)?))
        };
        let d0 = difference(self, k0)?;
        let d1 = difference(self, k1)?;
        // Each test is `a - b >= t` or its opposite, over integers.
        let t: i128 = match op {
            Lt | Ge => 0,
            Le | Gt => 1,
            _ => return None,
        };
        let rise = d1 - d0;
        if rise == 0 {
            return None;
        }
        // The line meets `t` at `k0 + x`; the first value past it where
        // the test has changed.
        let num = (t - d0) * i128::from(k1 - k0);
        let x = if rise > 0 {
            // The first value where the difference reaches `t`.
            -(-num).div_euclid(rise)
        } else {
            // The first value where it is below `t`.
            (-num).div_euclid(-rise) + 1
        };
        i64::try_from(i128::from(k0) + x).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::same_options;

    /// Guards whose comparisons are lines in the loop's variable, rising
    /// and falling, each comparison, one or several, and some that are
    /// not lines: the loop's ends found from the lines give the options
    /// the step-by-step code gives, at every reachable position.
    #[test]
    fn ends_found_from_lines_agree_with_the_plain_loop() {
        for guard in [
            "k * dx <= x and k * dy <= y",
            "x >= dx * k and y >= k * dy",
            "3 * k < x + 2",
            "2 * k > x",
            "x - 2 * k >= 0 - 3",
            "7 - k * 2 <= y",
            "k * k <= x + y",
            "k * dx <= x and k + 3 * dy < y + 1 and k <= 40",
        ] {
            let text = format!(
                "game W(x: nat, y: nat) {{\n  move take((dx, dy) in [(1, 0), (0, 1), (1, 1), (2, 1)], \
                 k in 1..=max(x, y)) if {guard} => W(x - min(x, k * dx), y - min(y, k * dy));\n}}\n"
            );
            let reached = same_options(&text, "W(23, 17)");
            assert!(reached > 50, "{guard}");
        }
    }
}
