//! Tests of a guard made as soon as the generators they read are set:
//! in Mock Turtles' `move three(i in indices(row), j in 0..i, k in 0..j)
//! if row[i] == "H"`, the guard reads `i` alone, and tested there it
//! spares the walk over `j` and `k` for every tail. Only a prefix of the
//! guard's `and` chain moves (so the conjuncts keep their order), and only
//! past generators that cannot fail: skipping them must not skip an error
//! the interpreter would report. A test that fails early is at worst a
//! question given back to the interpreter, never a different answer.

use super::code::{Gen, Num, Seq, Source, Target};
use super::compile::children;
use super::run::binomial;
use crate::eval::builtins::MAX_COLLECTION;
use crate::eval::ir::{GenIr, Ir, IrKind};
use crate::syntax::ast::BinaryOp;

/// Whether walking a generator's source can fail (an overflow, an index
/// out of range, a collection past the interpreter's limit), given the
/// generators before it: a range between literals and variables, or a
/// list, tuple or set held in a register, cannot; nor can the subsets of
/// such a range whose length and sizes the earlier generators' ranges
/// bound below that limit (Mock Turtles' `subsets(0..i, 0, 2)` for `i in
/// indices(row)`).
pub fn cannot_fail(source: &Source, earlier: &[Gen]) -> bool {
    let plain = |n: &Num| safe_sum(n, earlier);
    match source {
        Source::Each(Seq::Range(lo, hi, _)) => plain(lo) && plain(hi),
        Source::Each(Seq::Fields(_) | Seq::Tuple(_) | Seq::Items(_) | Seq::Members(..)) => true,
        Source::Subsets(Seq::Range(lo, hi, inclusive), _, most) => {
            let length = upper(hi, earlier)
                .zip(lower(lo, earlier))
                .and_then(|(hi, lo)| hi.checked_add(i64::from(*inclusive))?.checked_sub(lo));
            match (length, upper(most, earlier)) {
                (Some(n), Some(most)) => within_limit(n.max(0), most),
                _ => false,
            }
        }
        _ => false,
    }
}

/// Whether the subsets of at most `most` elements of `n` items stay within
/// what the compiled search and the interpreter build (see
/// `Machine::subsets`).
fn within_limit(n: i64, most: i64) -> bool {
    let (Ok(n), Ok(most)) = (usize::try_from(n), usize::try_from(most.max(0))) else {
        return false;
    };
    if n > 64 {
        return false;
    }
    let count: u128 = (0..=most.min(n)).map(|k| binomial(n, k)).sum();
    count.saturating_mul(most.max(1) as u128) <= MAX_COLLECTION as u128
}

/// The two sides of a sum or difference, and whether it is a difference.
fn sides(n: &Num) -> Option<(&Num, &Num, bool)> {
    match n {
        Num::Binary(BinaryOp::Add, a, b) => Some((a, b, false)),
        Num::Binary(BinaryOp::Sub, a, b) => Some((a, b, true)),
        _ => None,
    }
}

/// Whether working out `n` cannot fail: a literal, a register, or sums
/// and differences of such numbers that the earlier generators keep so
/// small that no step overflows (`j + 1` for `j in 0..i`, `2 - d` for
/// `d in 0..2`).
fn safe_sum(n: &Num, earlier: &[Gen]) -> bool {
    use super::facts::NEAR;
    let small = |x: &Num| {
        safe_sum(x, earlier)
            && upper(x, earlier).is_some_and(|u| u.abs() < NEAR)
            && lower(x, earlier).is_some_and(|l| l.abs() < NEAR)
    };
    match n {
        Num::Lit(_) | Num::Reg(_) => true,
        n => sides(n).is_some_and(|(a, b, _)| small(a) && small(b)),
    }
}

/// The most a number can be where it is read: a literal, the register
/// of an earlier generator over a range whose end has a most, or a sum or
/// difference of such numbers that cannot overflow.
fn upper(n: &Num, earlier: &[Gen]) -> Option<i64> {
    match n {
        Num::Lit(v) => Some(*v),
        Num::Reg(r) => {
            let (at, Seq::Range(_, hi, inclusive)) = range_of(*r, earlier)? else {
                return None;
            };
            upper(hi, &earlier[..at])?.checked_sub(i64::from(!inclusive))
        }
        n => {
            let (a, b, minus) = sides(n)?;
            if !safe_sum(n, earlier) {
                return None;
            }
            match minus {
                false => upper(a, earlier)?.checked_add(upper(b, earlier)?),
                true => upper(a, earlier)?.checked_sub(lower(b, earlier)?),
            }
        }
    }
}

/// The least a number can be where it is read (see `upper`).
fn lower(n: &Num, earlier: &[Gen]) -> Option<i64> {
    match n {
        Num::Lit(v) => Some(*v),
        Num::Reg(r) => {
            let (at, Seq::Range(lo, ..)) = range_of(*r, earlier)? else {
                return None;
            };
            lower(lo, &earlier[..at])
        }
        n => {
            let (a, b, minus) = sides(n)?;
            if !safe_sum(n, earlier) {
                return None;
            }
            match minus {
                false => lower(a, earlier)?.checked_add(lower(b, earlier)?),
                true => lower(a, earlier)?.checked_sub(upper(b, earlier)?),
            }
        }
    }
}

/// The earlier generator that walks a range into register `r`: its place
/// and the range.
fn range_of(r: u32, earlier: &[Gen]) -> Option<(usize, &Seq)> {
    let at = earlier.iter().position(|g| g.target == Target::Reg(r))?;
    match &earlier[at].source {
        Source::Each(range @ Seq::Range(..)) => Some((at, range)),
        _ => None,
    }
}

/// The guard's conjuncts to test after each generator (by its place), and
/// those left for the end.
pub fn split<'i>(
    generators: &[GenIr],
    guard: &'i Ir,
    safe: &[bool],
) -> (Vec<Vec<&'i Ir>>, Vec<&'i Ir>) {
    let mut conjuncts = Vec::new();
    operands(guard, BinaryOp::And, &mut conjuncts);
    let mut early = vec![Vec::new(); generators.len()];
    let mut level = 0;
    let mut moved = 0;
    for c in &conjuncts {
        level = level.max(last_generator_read(c, generators));
        let inner = level + 1..generators.len();
        if inner.is_empty() || !safe[inner].iter().all(|&s| s) {
            break;
        }
        early[level].push(*c);
        moved += 1;
    }
    (early, conjuncts[moved..].to_vec())
}

/// `a op b op c` as `[a, b, c]`, in the order they are worked out: the
/// tests of an `and`, the strings joined by `+`.
pub(super) fn operands<'i>(ir: &'i Ir, op: BinaryOp, out: &mut Vec<&'i Ir>) {
    match &ir.kind {
        IrKind::Binary(o, l, r) if *o == op => {
            operands(l, op, out);
            operands(r, op, out);
        }
        _ => out.push(ir),
    }
}

/// The place of the last generator whose variable `ir` reads (0 if none).
fn last_generator_read(ir: &Ir, generators: &[GenIr]) -> usize {
    let mut last = 0;
    if let IrKind::Local(s) = ir.kind {
        if let Some(d) = generators.iter().position(|g| g.slot == s) {
            last = d;
        }
    }
    children(ir, |child| {
        last = last.max(last_generator_read(child, generators))
    });
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `i in lo..hi` into register `r`.
    fn range(r: u32, lo: Num, hi: Num, inclusive: bool) -> Gen {
        Gen {
            target: Target::Reg(r),
            source: Source::Each(Seq::Range(lo, hi, inclusive)),
        }
    }

    fn subsets(hi: Num, inclusive: bool, most: i64) -> Source {
        Source::Subsets(
            Seq::Range(Num::Lit(0), hi, inclusive),
            Num::Lit(0),
            Num::Lit(most),
        )
    }

    #[test]
    fn subsets_bounded_by_earlier_ranges_cannot_fail() {
        // i in 0..64, subsets(0..i, 0, 2): at most 63 items, 2017 subsets.
        let earlier = [range(7, Num::Lit(0), Num::Lit(64), false)];
        assert!(cannot_fail(&subsets(Num::Reg(7), false, 2), &earlier));
        // Through two ranges: j in 0..=i, i in 0..64.
        let two = [
            range(7, Num::Lit(0), Num::Lit(64), false),
            range(8, Num::Lit(0), Num::Reg(7), true),
        ];
        assert!(cannot_fail(&subsets(Num::Reg(8), true, 2), &two));
    }

    #[test]
    fn subsets_past_the_limits_or_unbounded_may_fail() {
        // 65 items: past the 64 a key's subsets are kept in.
        let wide = [range(7, Num::Lit(0), Num::Lit(65), true)];
        assert!(!cannot_fail(&subsets(Num::Reg(7), true, 2), &wide));
        // 60 items in subsets of up to 30: past the interpreter's limit.
        let earlier = [range(7, Num::Lit(0), Num::Lit(60), true)];
        assert!(!cannot_fail(&subsets(Num::Reg(7), false, 30), &earlier));
        // A range that ends at a parameter's field: nothing bounds it.
        assert!(!cannot_fail(&subsets(Num::Reg(0), false, 2), &earlier));
        // A register no earlier generator sets.
        assert!(!cannot_fail(&subsets(Num::Reg(9), false, 2), &earlier));
    }

    #[test]
    fn the_limit_is_the_interpreters() {
        // C(24, 12) = 2704156 subsets of 12, times 12 elements, passes 10^7.
        assert!(within_limit(24, 1));
        assert!(!within_limit(24, 12));
        assert!(within_limit(64, 2));
        assert!(!within_limit(65, 0));
    }
}
