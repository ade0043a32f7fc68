//! The loops that take the time, compiled for plain x86-64 and for AVX2
//! and chosen at run time: pairing the rare heaps, sweeping the splits for
//! the rare values still missing, and (the plain method) marking every
//! split. Values are read as u16 while they fit, from a forwards and a
//! backwards copy, so that both parts of a run of splits are read forwards.

use super::marks::Started;
use super::rules::HeapRules;
use std::ops::BitXor;

/// A value as stored for the hot loops: u16, or u32 once values outgrow it.
pub(super) trait Val:
    Copy + Default + Eq + BitXor<Output = Self> + Into<u32> + TryFrom<u32> + 'static
{
}
impl Val for u16 {}
impl Val for u32 {}

/// g(m) = `forwards[m]` = `backwards[upto - m]`.
#[derive(Clone, Copy)]
pub(super) struct Halves<'a, T> {
    pub forwards: &'a [T],
    pub backwards: &'a [T],
    pub upto: usize,
}

impl<'a, T: Val> Halves<'a, T> {
    /// g(x) for x in `start..=end`, and g(rest - x) in the same order.
    #[inline(always)]
    fn pairs(self, rest: usize, start: usize, end: usize) -> (&'a [T], &'a [T]) {
        let base = self.upto - rest;
        (
            &self.forwards[start..=end],
            &self.backwards[base + start..=base + end],
        )
    }
}

/// Marks every split of heap n until each candidate is marked, and leaves
/// in `candidates` those that never were.
pub(super) type Sweep<T> =
    fn(&HeapRules, Halves<T>, usize, &mut Started, &mut Vec<u32>, &mut Vec<u32>);

/// `out[i] = values[i] ^ g(rest - heaps[i])`: `rare_xors` for heaps up to
/// half of `rest` (g read backwards), `rare_xors_forwards` for heaps past
/// half of it and below it (g read forwards).
pub(super) type RareXors<T> = fn(&[u32], &[u32], Halves<T>, usize, &mut [u32]);

/// Marks every split of heap n: the plain method.
pub(super) type MarkAll<T> = fn(&HeapRules, Halves<T>, usize, &mut Started, &mut Vec<u32>);

/// The builds of the hot loops chosen for this processor.
pub(super) struct HotLoops<T> {
    pub sweep: Sweep<T>,
    pub rare_xors: RareXors<T>,
    pub rare_xors_forwards: RareXors<T>,
    pub mark_all: MarkAll<T>,
}

pub(super) fn hot_loops_for_this_cpu<T: Val>() -> HotLoops<T> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY (all three): the processor was just found to support AVX2.
        return HotLoops {
            sweep: |rules, h, n, marks, candidates, xors| unsafe {
                sweep_avx2(rules, h, n, marks, candidates, xors)
            },
            rare_xors: |heaps, values, h, rest, out| unsafe {
                rare_xors_avx2::<T, false>(heaps, values, h, rest, out)
            },
            rare_xors_forwards: |heaps, values, h, rest, out| unsafe {
                rare_xors_avx2::<T, true>(heaps, values, h, rest, out)
            },
            mark_all: |rules, h, n, marks, xors| unsafe { mark_all_avx2(rules, h, n, marks, xors) },
        };
    }
    HotLoops {
        sweep,
        rare_xors: rare_xors::<T, false>,
        rare_xors_forwards: rare_xors::<T, true>,
        mark_all,
    }
}

#[inline(always)]
fn mark_all<T: Val>(
    rules: &HeapRules,
    h: Halves<T>,
    n: usize,
    marks: &mut Started,
    xors: &mut Vec<u32>,
) {
    if xors.len() < MOST {
        xors.resize(MOST, 0);
    }
    for (rest, half, _) in rules.splits(n) {
        let mut end = half;
        while end > 0 {
            let start = end.saturating_sub(MOST) + 1;
            let (left, right) = h.pairs(rest, start, end);
            mark_xors(left, right, &mut xors[..=end - start], marks);
            end = start - 1;
        }
    }
}

/// Marks `left[i] ^ right[i]` for each `i`, worked out first into `xors`
/// (a loop that vectorises).
#[inline(always)]
fn mark_xors<T: Val>(left: &[T], right: &[T], xors: &mut [u32], marks: &mut Started) {
    for (o, (&l, &r)) in xors.iter_mut().zip(left.iter().zip(right)) {
        *o = (l ^ r).into();
    }
    for &x in xors.iter() {
        marks.set(x);
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_all_avx2<T: Val>(
    rules: &HeapRules,
    h: Halves<T>,
    n: usize,
    marks: &mut Started,
    xors: &mut Vec<u32>,
) {
    mark_all(rules, h, n, marks, xors)
}

/// `out[i] = values[i] ^ g(rest - heaps[i])`, g read forwards or, for
/// heaps up to half of `rest`, backwards.
#[inline(always)]
fn rare_xors<T: Val, const FORWARDS: bool>(
    heaps: &[u32],
    values: &[u32],
    h: Halves<T>,
    rest: usize,
    out: &mut [u32],
) {
    // g(rest - r) = forwards[rest - r] = backwards[upto - rest + r]. The
    // clamp never changes an index (every heap is below `rest`, and half
    // of it when read backwards), but it lets the compiler drop the bounds
    // check, and the loop becomes gathers.
    let (g, base) = if FORWARDS {
        (h.forwards, 0)
    } else {
        (h.backwards, h.upto - rest)
    };
    let last = g.len().saturating_sub(1);
    let g = &g[..=last];
    for ((o, &r), &v) in out.iter_mut().zip(heaps).zip(values) {
        let at = if FORWARDS {
            rest - r as usize
        } else {
            base + r as usize
        };
        *o = v ^ g[at.min(last)].into();
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rare_xors_avx2<T: Val, const FORWARDS: bool>(
    heaps: &[u32],
    values: &[u32],
    h: Halves<T>,
    rest: usize,
    out: &mut [u32],
) {
    rare_xors::<T, FORWARDS>(heaps, values, h, rest, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sweep_avx2<T: Val>(
    rules: &HeapRules,
    h: Halves<T>,
    n: usize,
    marks: &mut Started,
    candidates: &mut Vec<u32>,
    xors: &mut Vec<u32>,
) {
    sweep(rules, h, n, marks, candidates, xors)
}

#[inline(always)]
fn sweep<T: Val>(
    rules: &HeapRules,
    h: Halves<T>,
    n: usize,
    marks: &mut Started,
    candidates: &mut Vec<u32>,
    xors: &mut Vec<u32>,
) {
    // From the middle outwards: there both parts are large, so almost
    // surely common, and their xors are the rare values sought; the pairs
    // with a small part mostly hold the rare heaps, already paired. Each
    // candidate needs a pair at least, and most turn up within a few
    // hundred, so the first chunk is sized to their number; the chunks
    // grow so that a long sweep does not check the candidates too often.
    let mut chunk = 32 + candidates.len();
    if xors.len() < MOST {
        xors.resize(MOST, 0);
    }
    for (rest, half, _) in rules.splits(n) {
        let mut end = half;
        while end > 0 {
            let start = end.saturating_sub(chunk) + 1;
            let (left, right) = h.pairs(rest, start, end);
            if candidates.len() > SOME {
                mark_xors(left, right, &mut xors[..=end - start], marks);
                keep_only(candidates, |_, v| !marks.get(v));
            } else {
                let found = if candidates.len() > FEW {
                    find_some::<T, SOME>(candidates, left, right)
                } else {
                    find_some::<T, FEW>(candidates, left, right)
                };
                keep_only(candidates, |i, _| found & (1 << i) == 0);
            }
            if candidates.is_empty() {
                return;
            }
            end = start - 1;
            chunk = (chunk + chunk / 2).min(MOST);
        }
    }
}

/// `candidates.retain`, without a branch per element: whether one is kept
/// is as good as random, and a mispredicted branch costs more than the
/// store made either way.
#[inline(always)]
fn keep_only(candidates: &mut Vec<u32>, keep: impl Fn(usize, u32) -> bool) {
    let mut kept = 0;
    for i in 0..candidates.len() {
        let v = candidates[i];
        candidates[kept] = v;
        kept += usize::from(keep(i, v));
    }
    candidates.truncate(kept);
}

/// With this many candidates left or fewer, the pairs are compared with
/// each of them instead of marked: comparing vectorises, marking (a store
/// at a data-dependent place) does not. Two candidates, the common case
/// late in a sweep, are compared in fewer lanes than up to eight.
const FEW: usize = 2;
const SOME: usize = 8;

/// Bit i set: `candidates[i]` (one of at most N) is the xor of some
/// `left[j]` and `right[j]`.
#[inline(always)]
fn find_some<T: Val, const N: usize>(candidates: &[u32], left: &[T], right: &[T]) -> u32 {
    // Compared as T, so that a vector holds as many lanes as it can. A
    // candidate too large for T is no xor of two values of T: its lane
    // repeats another candidate and its bit is dropped.
    let Some(pad) = candidates.iter().find_map(|&c| T::try_from(c).ok()) else {
        return 0;
    };
    let mut lanes = [pad; N];
    let mut real = 0u32;
    for (i, &c) in candidates.iter().enumerate().take(N) {
        if let Ok(t) = T::try_from(c) {
            lanes[i] = t;
            real |= 1 << i;
        }
    }
    find_lanes(lanes, left, right) & real
}

/// Bit i set if `lanes[i]` is the xor of some `left[j]` and `right[j]`.
/// (A fold over every pair, with no early exit: it vectorises.)
#[inline(always)]
fn find_lanes<T: Val, const N: usize>(lanes: [T; N], left: &[T], right: &[T]) -> u32 {
    let mut hit = [false; N];
    for (&l, &r) in left.iter().zip(right) {
        let x = l ^ r;
        for (h, &c) in hit.iter_mut().zip(&lanes) {
            *h |= x == c;
        }
    }
    hit.iter()
        .enumerate()
        .fold(0, |bits, (i, &h)| bits | (h as u32) << i)
}

/// The longest chunk of a sweep.
pub(super) const MOST: usize = 4096;

#[cfg(test)]
mod tests {
    use super::{find_some, keep_only, FEW, SOME};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The vector compare finds exactly the candidates some pair xors
        /// to, whatever their number, order and repeats, including those
        /// too large for the lanes.
        #[test]
        fn the_lane_compare_finds_what_a_plain_search_finds(
            pairs in prop::collection::vec((0u16..64, 0u16..64), 0..200),
            candidates in prop::collection::vec(prop_oneof![0u32..70, 65_530u32..70_000], 1..=SOME),
        ) {
            let (left, right): (Vec<u16>, Vec<u16>) = pairs.into_iter().unzip();
            let plain = |c: u32| left.iter().zip(&right).any(|(&l, &r)| u32::from(l ^ r) == c);
            let found = if candidates.len() > FEW {
                find_some::<u16, SOME>(&candidates, &left, &right)
            } else {
                find_some::<u16, FEW>(&candidates, &left, &right)
            };
            for (i, &c) in candidates.iter().enumerate() {
                prop_assert_eq!(found & (1 << i) != 0, plain(c), "candidate {} ({})", i, c);
            }
            let mut kept = candidates.clone();
            keep_only(&mut kept, |i, _| found & (1 << i) == 0);
            let want: Vec<u32> = candidates.iter().copied().filter(|&c| !plain(c)).collect();
            prop_assert_eq!(kept, want);
        }
    }
}
