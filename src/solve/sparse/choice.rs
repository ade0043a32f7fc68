//! Whether the rare/common method pays for a run, judged by timing both
//! methods on a few heaps past the values known and extrapolating.

use super::mask::{choose_mask, Mask};
use super::{HeapRules, Run};
use crate::solve::values::Values;
use std::time::Instant;

/// Below this many values the structure of a sequence says little.
pub const ENOUGH_TO_JUDGE: usize = 1 << 12;

/// How many values to compute the plain way before asking [`pays`] about a
/// run to `upto`: a sixteenth of the run costs about 1/256 of it with the
/// plain method, and shows the rare heaps thinning out (or not).
pub fn judge_after(upto: usize) -> usize {
    (upto / 16).max(ENOUGH_TO_JUDGE).min(upto)
}

/// Heaps timed with each method.
const SAMPLE: usize = 256;

/// The dense kernel (`kernel.rs`: u16 values, a byte per option) against
/// the plain loop timed here (u32 values, stamps), measured to 10^5 on
/// 0.007 and 0.6; and while every value is below 64, when the kernel or-s
/// options into one word, measured on 0.07.
const KERNEL_SPEEDUP: f64 = 1.2;
const KERNEL_SPEEDUP_SMALL: f64 = 6.0;

/// Each method is timed this many times, and the fastest taken: other
/// work on the machine only ever slows a sample down.
const TRIES: usize = 3;

/// Whether computing g(len)..=g(upto) after `values` = g(0..len) is
/// expected to be faster with the rare/common method than the plain one.
///
/// Both are timed on the next few heaps. The plain method's cost grows in
/// proportion to the heap. The rare/common method's grows with the number
/// of rare heaps: new ones are expected at the rate of the last quarter of
/// `values`, shrinking from quarter to quarter as it shrank from the third
/// quarter to the last (in the games where the method pays, rare heaps die
/// out; in those where it does not, they keep coming).
pub fn pays(rules: &HeapRules, values: &Values, upto: usize) -> bool {
    advantage(rules, values.clone(), upto).0 > 1.0
}

/// How many times faster the rare/common method is expected to finish the
/// run than the plain one (0 when it cannot be judged), and the values back
/// (taken rather than copied: on a resumed run they may be long); see
/// `pays`.
pub fn advantage(rules: &HeapRules, values: Values, upto: usize) -> (f64, Values) {
    let len = values.len();
    if len < ENOUGH_TO_JUDGE || upto <= len || upto >= u32::MAX as usize {
        return (0.0, values);
    }
    let Some(mask) = choose_mask(&values) else {
        return (0.0, values);
    };
    let sample = SAMPLE.min(upto - len);
    let (mut sparse_each, mut plain_each) = (f64::MAX, f64::MAX);
    let mut run = Run::new(rules, values, len + sample);
    run.rechoose();
    for _ in 0..TRIES {
        run.truncate(len);
        let start = Instant::now();
        for n in len..len + sample {
            let v = run.sparse_mex(n, mask);
            run.push(n, v);
        }
        sparse_each = sparse_each.min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        for n in len..len + sample {
            std::hint::black_box(run.plain_mex(n));
        }
        plain_each = plain_each.min(start.elapsed().as_secs_f64());
    }
    run.truncate(len);
    let values = run.g;
    let small = values.iter().all(|v| v < 64);
    let speedup = if small {
        KERNEL_SPEEDUP_SMALL
    } else {
        KERNEL_SPEEDUP
    };
    let (sparse_each, plain_each) = (
        sparse_each / sample as f64,
        plain_each / sample as f64 / speedup,
    );
    let (from, to) = (len as f64, upto as f64);
    let plain = plain_each * (to * to - from * from) / (2.0 * from);
    let sparse = sparse_each * rare_growth(&values, mask, upto);
    (plain / sparse, values)
}

/// Σ over the heaps still to compute of (rare heaps then) / (rare heaps
/// now): how the cost of a heap with the rare/common method adds up.
fn rare_growth(values: &Values, mask: Mask, upto: usize) -> f64 {
    let len = values.len();
    let quarter = len / 4;
    let rare_in = |from: usize| {
        (from..from + quarter)
            .filter(|&n| mask.is_rare(values.at(n)))
            .count() as f64
    };
    let (third, last) = (rare_in(len - 2 * quarter), rare_in(len - quarter));
    let shrink = if third > 0.0 {
        (last / third).min(1.0)
    } else {
        1.0
    };
    let now = mask.rare.max(1) as f64;
    let (mut rare, mut new, mut at, mut total) = (now, last, len, 0.0);
    while at < upto {
        let step = quarter.min(upto - at);
        new *= shrink;
        // The new rare heaps arrive evenly over the step.
        total += step as f64 * (rare + new / 2.0) / now;
        rare += new;
        at += step;
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rare_heaps_that_die_out_cost_little_more() {
        // Mostly 1 (common under mask 1) and 0s that stop after a while.
        let mut values = vec![1u32; 1000];
        for v in values.iter_mut().take(500).step_by(5) {
            *v = 0;
        }
        let values = Values::from(values);
        let mask = choose_mask(&values).expect("a mask");
        assert_eq!(mask.bits & 1, 1);
        // No new rare heap in the last quarter: every heap costs the same.
        assert_eq!(rare_growth(&values, mask, 2000), 1000.0);
        // Rare heaps throughout: the cost per heap grows.
        let even = Values::from((0..1000).map(|n| n % 2).collect::<Vec<u32>>());
        let mask = choose_mask(&even).expect("a mask");
        assert!(rare_growth(&even, mask, 2000) > 1400.0);
    }

    #[test]
    fn judging_needs_enough_values() {
        assert!(judge_after(1_000_000) >= ENOUGH_TO_JUDGE);
        assert!(judge_after(100) <= 100);
        let rules = HeapRules::grundys_game();
        assert!(!pays(&rules, &Values::from(vec![0, 0, 0, 1]), 1_000_000));
    }
}
