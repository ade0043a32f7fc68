//! The loops that take the time, compiled for plain x86-64 and for AVX2
//! and chosen at run time: pairing the rare heaps, and sweeping the splits
//! for the rare values still missing.

use super::marks::Started;
use super::rules::HeapRules;

/// Marks every split of heap n until each candidate is marked, and leaves
/// in `candidates` those that never were.
pub(super) type Sweep = fn(&HeapRules, &[u32], usize, &mut Started, &mut Vec<u32>, &mut Vec<u32>);

/// `out[i] = values[i] ^ g[rest - heaps[i]]`, for heaps below `rest`.
pub(super) type RareXors = fn(&[u32], &[u32], &[u32], usize, &mut [u32]);

/// Marks every split of heap n: the plain method.
pub(super) type MarkAll = fn(&HeapRules, &[u32], usize, &mut Started, &mut Vec<u32>);

/// The builds of the hot loops chosen for this processor.
pub(super) struct HotLoops {
    pub sweep: Sweep,
    pub rare_xors: RareXors,
    pub mark_all: MarkAll,
}

pub(super) fn hot_loops_for_this_cpu() -> HotLoops {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY (both): the processor was just found to support AVX2.
        return HotLoops {
            sweep: |rules, g, n, marks, candidates, xors| unsafe {
                sweep_avx2(rules, g, n, marks, candidates, xors)
            },
            rare_xors: |heaps, values, g, rest, out| unsafe {
                rare_xors_avx2(heaps, values, g, rest, out)
            },
            mark_all: |rules, g, n, marks, xors| unsafe { mark_all_avx2(rules, g, n, marks, xors) },
        };
    }
    HotLoops {
        sweep: sweep_portable,
        rare_xors: rare_xors_portable,
        mark_all: mark_all_portable,
    }
}

#[inline(always)]
fn mark_all(rules: &HeapRules, g: &[u32], n: usize, marks: &mut Started, xors: &mut Vec<u32>) {
    if xors.len() < MOST {
        xors.resize(MOST, 0);
    }
    for (rest, half, _) in rules.splits(n) {
        let mut end = half;
        while end > 0 {
            let start = end.saturating_sub(MOST) + 1;
            let left = &g[start..=end];
            let right = &g[rest - end..=rest - start];
            let xors = &mut xors[..=end - start];
            for (o, (l, r)) in xors.iter_mut().zip(left.iter().zip(right.iter().rev())) {
                *o = l ^ r;
            }
            for &x in xors.iter() {
                marks.set(x);
            }
            end = start - 1;
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn mark_all_avx2(
    rules: &HeapRules,
    g: &[u32],
    n: usize,
    marks: &mut Started,
    xors: &mut Vec<u32>,
) {
    mark_all(rules, g, n, marks, xors)
}

fn mark_all_portable(
    rules: &HeapRules,
    g: &[u32],
    n: usize,
    marks: &mut Started,
    xors: &mut Vec<u32>,
) {
    mark_all(rules, g, n, marks, xors)
}

#[inline(always)]
fn rare_xors(heaps: &[u32], values: &[u32], g: &[u32], rest: usize, out: &mut [u32]) {
    // The clamp never changes an index (every heap is below `rest`, which
    // is at most the last heap), but it lets the compiler drop the bounds
    // check, and the loop becomes gathers.
    let last = g.len().saturating_sub(1);
    let g = &g[..=last];
    for ((o, &h), &v) in out.iter_mut().zip(heaps).zip(values) {
        *o = v ^ g[rest.wrapping_sub(h as usize).min(last)];
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn rare_xors_avx2(heaps: &[u32], values: &[u32], g: &[u32], rest: usize, out: &mut [u32]) {
    rare_xors(heaps, values, g, rest, out)
}

fn rare_xors_portable(heaps: &[u32], values: &[u32], g: &[u32], rest: usize, out: &mut [u32]) {
    rare_xors(heaps, values, g, rest, out)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn sweep_avx2(
    rules: &HeapRules,
    g: &[u32],
    n: usize,
    marks: &mut Started,
    candidates: &mut Vec<u32>,
    xors: &mut Vec<u32>,
) {
    sweep(rules, g, n, marks, candidates, xors)
}

fn sweep_portable(
    rules: &HeapRules,
    g: &[u32],
    n: usize,
    marks: &mut Started,
    candidates: &mut Vec<u32>,
    xors: &mut Vec<u32>,
) {
    sweep(rules, g, n, marks, candidates, xors)
}

#[inline(always)]
fn sweep(
    rules: &HeapRules,
    g: &[u32],
    n: usize,
    marks: &mut Started,
    candidates: &mut Vec<u32>,
    xors: &mut Vec<u32>,
) {
    // From the middle outwards: there both parts are large, so almost
    // surely common, and their xors are the rare values sought; the pairs
    // with a small part mostly hold the rare heaps, already paired. Most
    // candidates turn up within a few hundred pairs; the chunks grow so
    // that a long sweep does not check the candidates too often.
    let mut chunk = 64;
    if xors.len() < MOST {
        xors.resize(MOST, 0);
    }
    for (rest, half, _) in rules.splits(n) {
        let mut end = half;
        while end > 0 {
            let start = end.saturating_sub(chunk) + 1;
            // Pair x is g(x) with g(rest - x): the right parts run backwards.
            let left = &g[start..=end];
            let right = &g[rest - end..=rest - start];
            if candidates.len() > FEW {
                let xors = &mut xors[..=end - start];
                for (o, (l, r)) in xors.iter_mut().zip(left.iter().zip(right.iter().rev())) {
                    *o = l ^ r;
                }
                for &x in xors.iter() {
                    marks.set(x);
                }
                candidates.retain(|&v| !marks.get(v));
            } else {
                let found = find_few(candidates, left, right);
                let mut i = 0;
                candidates.retain(|_| {
                    i += 1;
                    found & (1 << (i - 1)) == 0
                });
            }
            if candidates.is_empty() {
                return;
            }
            end = start - 1;
            chunk = (chunk + chunk / 2).min(MOST);
        }
    }
}

/// With this many candidates left or fewer, the pairs are compared with
/// each of them instead of marked: comparing vectorises, marking (a store
/// at a data-dependent place) does not.
const FEW: usize = 2;

/// Bit i set: candidate i is the xor of some `left[j]` and
/// `right[len - 1 - j]`.
#[inline(always)]
fn find_few(candidates: &[u32], left: &[u32], right: &[u32]) -> u32 {
    // A missing second candidate is a copy of the first.
    let c0 = candidates[0];
    let c1 = candidates.get(1).copied().unwrap_or(c0);
    let (mut h0, mut h1) = (0u32, 0u32);
    for (l, r) in left.iter().zip(right.iter().rev()) {
        let x = l ^ r;
        h0 |= (x == c0) as u32;
        h1 |= (x == c1) as u32;
    }
    h0 | h1 << 1
}

/// The longest chunk of a sweep.
pub(super) const MOST: usize = 4096;
