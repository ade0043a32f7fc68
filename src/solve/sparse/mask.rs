//! Choosing the mask that splits values into rare and common ones.
//!
//! A value v is rare when `v & mask` has an even number of bits, common
//! when odd. Parity is linear under xor, so a common option can only be
//! the xor of a rare and a common value: with few rare heaps, every
//! common option is found by pairing the rare heaps alone.

use crate::solve::values::Values;
/// A mask and how well it fits the values it was chosen from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mask {
    pub bits: u32,
    /// How many of the values are rare under it (0 always is).
    pub rare: usize,
    pub total: usize,
}

impl Mask {
    pub fn is_rare(self, v: u32) -> bool {
        (v & self.bits).count_ones() & 1 == 0
    }

    pub fn rare_fraction(self) -> f64 {
        self.rare as f64 / self.total.max(1) as f64
    }
}

/// Masks are searched among the low bits only: past that, the transform
/// below costs more than it can save.
const WIDEST: u32 = 1 << 16;

/// The mask under which the fewest of `values` are rare, or `None` when no
/// mask makes any value common (all are 0).
///
/// For a mask m, (rare - common) = Σ_v count(v)·(-1)^popcount(v & m), which
/// is the Walsh-Hadamard transform of the histogram of values: all masks
/// are scored at once in O(w log w) for values below w.
pub fn choose_mask(values: &Values) -> Option<Mask> {
    let largest = values.iter().max()?;
    let width = largest
        .checked_add(1)
        .map_or(WIDEST, |w| w.next_power_of_two())
        .min(WIDEST) as usize;
    let mut score = vec![0i64; width];
    for v in values.iter() {
        score[v as usize & (width - 1)] += 1;
    }
    let mut step = 1;
    while step < width {
        for block in score.chunks_exact_mut(2 * step) {
            let (lo, hi) = block.split_at_mut(step);
            for (x, y) in lo.iter_mut().zip(hi) {
                (*x, *y) = (*x + *y, *x - *y);
            }
        }
        step *= 2;
    }
    // Ties go to the smallest mask, so the choice is reproducible.
    let (bits, &best) = score
        .iter()
        .enumerate()
        .skip(1)
        .min_by_key(|&(m, &s)| (s, m))?;
    let total = values.len();
    let rare = (total as i64 + best) / 2;
    (rare < total as i64).then_some(Mask {
        bits: bits as u32,
        rare: rare as usize,
        total,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_best(values: &[u32]) -> usize {
        let width = values
            .iter()
            .max()
            .map_or(1, |&v| (v + 1).next_power_of_two());
        (1..width)
            .map(|m| {
                let mask = Mask {
                    bits: m,
                    rare: 0,
                    total: 0,
                };
                values.iter().filter(|&&v| mask.is_rare(v)).count()
            })
            .min()
            .unwrap_or(values.len())
    }

    #[test]
    fn the_transform_finds_the_best_mask() {
        let cases: [&[u32]; 4] = [
            &[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6],
            &[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1, 3, 2, 1, 3, 2, 4, 3],
            &[5, 6, 9, 12, 3, 3, 10, 0, 7],
            &[7, 7, 7],
        ];
        for values in cases {
            let mask = choose_mask(&Values::from(values)).expect("some value is not 0");
            assert_eq!(mask.rare, brute_best(values), "{values:?}");
            let counted = values.iter().filter(|&&v| mask.is_rare(v)).count();
            assert_eq!(mask.rare, counted, "{values:?}");
        }
    }

    #[test]
    fn all_zeros_have_no_mask() {
        assert_eq!(choose_mask(&Values::from(vec![0, 0, 0])), None);
        assert_eq!(choose_mask(&Values::default()), None);
    }
}
