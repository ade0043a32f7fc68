//! Periods in a nim-sequence g(0), g(1), ..., g(N): seen in the values
//! computed so far, and proven where the game's moves allow it.
//!
//! The proof is the Guy–Smith theorem. Suppose that from some heap on, a
//! move removes j tokens (never more than t) and leaves one heap, or two
//! heaps of every size at least `least_heap` that add up to n - j. Then if
//! g(n + p) = g(n) for every n with n0 <= n < 2·n0 + p + t, it holds for
//! every n >= n0: for larger n, every option of n + p has a heap of at least
//! n0 + p whose value repeats p lower, and that pairs it with an option of n.

use crate::solve::values::Values;
/// `g(n + period) == g(n) + saltus` for every `n >= preperiod` (saltus 0:
/// an ordinary period; otherwise the sequence is arithmetic-periodic).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    pub preperiod: usize,
    pub period: usize,
    pub saltus: u32,
}

/// What the Guy–Smith theorem needs to know of a heap game's moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// The most tokens a move removes (t).
    pub most_taken: usize,
    /// From this heap on, the moves follow the pattern above.
    pub settled: usize,
    /// The smallest heap a split may leave.
    pub least_heap: usize,
    /// The rules are known to give these values only below this heap (past
    /// it their arithmetic may overflow, an error): a period says nothing
    /// from there on.
    pub exact_below: u64,
}

/// A period the theorem proves: it holds for every heap, not just those
/// computed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    pub period: Period,
    /// The values were checked to repeat for every n with
    /// `period.preperiod <= n < checked_below`.
    pub checked_below: usize,
    pub most_taken: usize,
    /// The heaps the proof speaks for are those below this (see `Shape`).
    pub exact_below: u64,
}

impl Proof {
    /// Whether the proof gives the value of every heap up to `last`.
    pub fn reaches(&self, last: u64) -> bool {
        last < self.exact_below
    }

    /// g(n) for any heap the proof speaks for, from the values it rests on.
    pub fn value(&self, values: &Values, n: u64) -> Option<u32> {
        if !self.reaches(n) {
            return None;
        }
        let Period {
            preperiod, period, ..
        } = self.period;
        let index = if n < preperiod as u64 {
            n as usize
        } else {
            preperiod + ((n - preperiod as u64) % period as u64) as usize
        };
        values.get(index)
    }
}

/// The shortest period, with or without a saltus, such that the periodic
/// part was seen at least three times, and for it the shortest preperiod.
/// Seeing it is evidence, not proof: the caller says so.
pub fn find(values: &Values) -> Option<Period> {
    let len = values.len();
    let last = values.get(len.checked_sub(1)?)?;
    let seen = |period: usize, saltus: u32, least: usize| {
        let start = repeats_from(values, period, saltus);
        (len - start >= least).then_some(Period {
            preperiod: start,
            period,
            saltus,
        })
    };
    // An ordinary period first; a saltus only if none, and then it must
    // cover at least half the values, since short runs of steps are common.
    (1..=len / 3).find_map(|p| seen(p, 0, 3 * p)).or_else(|| {
        (1..=len / 3).find_map(|p| {
            let saltus = last
                .checked_sub(values.at(len - 1 - p))
                .filter(|&s| s > 0)?;
            seen(p, saltus, (3 * p).max(len / 2))
        })
    })
}

/// The first n such that `g(m + period) == g(m) + saltus` for every m from
/// n on that the values reach.
fn repeats_from(values: &Values, period: usize, saltus: u32) -> usize {
    let mut start = values.len() - period;
    while start > 0
        && values.at(start - 1).checked_add(saltus) == Some(values.at(start - 1 + period))
    {
        start -= 1;
    }
    start
}

/// The shortest period the values prove for a game of this shape.
pub fn prove(values: &Values, shape: Shape) -> Option<Proof> {
    let len = values.len();
    // Tried shortest first, so a multiple of a proven period never wins.
    (1..len / 2).find_map(|period| proof_for(values, shape, period))
}

fn proof_for(values: &Values, shape: Shape, period: usize) -> Option<Proof> {
    let len = values.len();
    // The repeat must hold from at most halfway along what is left after
    // 2·p + t; a few samples from there on rule out most periods at once.
    let latest = len.checked_sub(2 * period + shape.most_taken)? / 2;
    let last = len - period - 1;
    if [latest, (latest + last) / 2, last]
        .iter()
        .any(|&n| n < len - period && values.at(n) != values.at(n + period))
    {
        return None;
    }
    let preperiod = repeats_from(values, period, 0);
    // The argument shifts heaps of at least n0 + p down by p and needs the
    // result to be a heap a split may leave.
    let n0 = preperiod.max(shape.least_heap);
    let checked_below = (2 * n0 + period + shape.most_taken).max(shape.settled);
    // Every n below `checked_below` needs g(n + period) among the values.
    (checked_below + period <= len).then_some(Proof {
        period: Period {
            preperiod,
            period,
            saltus: 0,
        },
        checked_below,
        most_taken: shape.most_taken,
        exact_below: shape.exact_below,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Subtraction of 2, 3 or 5, written as octal 0.0330 3: at most five
    /// tokens taken, moves settled from heap 5 on, no splits.
    const SUBTRACT_235: Shape = Shape {
        most_taken: 5,
        settled: 5,
        least_heap: 1,
        exact_below: u64::MAX,
    };

    fn repeat(pattern: &[u32], len: usize) -> Values {
        Values::from(
            (0..len)
                .map(|n| pattern[n % pattern.len()])
                .collect::<Vec<_>>(),
        )
    }

    #[test]
    fn subtraction_235_has_period_seven_from_the_start() {
        let g = repeat(&[0, 0, 1, 1, 2, 2, 3], 70);
        let seven = Period {
            preperiod: 0,
            period: 7,
            saltus: 0,
        };
        assert_eq!(find(&g), Some(seven));
        let proof = prove(&g, SUBTRACT_235).expect("proven");
        assert_eq!(proof.period, seven);
        // 2·max(0, 1) + 7 + 5 = 14 values checked against the next 7.
        assert_eq!(proof.checked_below, 14);
        assert_eq!(
            proof.value(&g, 1_000_000_000_000),
            Some(g.at((1e12 as usize) % 7))
        );
    }

    #[test]
    fn too_few_values_prove_nothing() {
        let g = repeat(&[0, 0, 1, 1, 2, 2, 3], 20);
        assert_eq!(prove(&g, SUBTRACT_235), None);
    }

    #[test]
    fn a_preperiod_is_found() {
        let mut g = vec![5, 4];
        g.extend((0..30).map(|n| (n % 3) as u32));
        let g = Values::from(g);
        assert_eq!(
            find(&g),
            Some(Period {
                preperiod: 2,
                period: 3,
                saltus: 0,
            })
        );
    }

    #[test]
    fn nim_is_arithmetic_periodic_with_saltus_one() {
        let g = Values::from((0..100).collect::<Vec<u32>>());
        let found = find(&g).expect("a saltus");
        assert_eq!((found.period, found.saltus), (1, 1));
        let shape = Shape {
            most_taken: 1,
            settled: 1,
            least_heap: 1,
            exact_below: u64::MAX,
        };
        assert_eq!(prove(&g, shape), None);
    }

    #[test]
    fn a_multiple_of_the_period_is_shortened() {
        // Period 2 holds, but so does 4; the shortest is reported.
        let g = repeat(&[0, 1], 200);
        let shape = Shape {
            most_taken: 2,
            settled: 2,
            least_heap: 1,
            exact_below: u64::MAX,
        };
        assert_eq!(prove(&g, shape).map(|p| p.period.period), Some(2));
    }
}
