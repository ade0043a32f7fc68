//! The rare/common ("sparse space") method for heap games whose moves
//! leave zero, one or two heaps: octal games and Grundy's game.
//!
//! Under a mask (see `mask`), values are rare or common, and a common
//! option of heap n can only come from a split with a rare part. So:
//!
//! 1. pair every rare heap r with `rest - r` for each split: this finds
//!    every common option, and some rare ones, in time proportional to the
//!    number of rare heaps;
//! 2. the smallest common value not found, c, is not an option, so
//!    g(n) <= c;
//! 3. the rare values below c not found yet are the only other candidates;
//!    the splits are swept only until each of them turns up as an option.
//!    Common parts xor to rare values all the time, so that sweep is short,
//!    except at the (rare) heaps whose value is rare.
//!
//! Every step is exact whatever the mask: a mask that fits badly makes the
//! method slower, never wrong. The mask is chosen from the values so far
//! and chosen again each time the sequence doubles in length.

mod mask;
mod rules;
#[cfg(test)]
mod tests;

pub use mask::{choose_mask, judge_after, pays, Mask, ENOUGH_TO_JUDGE};
pub use rules::HeapRules;

/// g(0), ..., g(upto), continuing from `known` = g(0..known.len()) (which
/// may be empty), or `None` if `stop` asked to stop early. `each` is told
/// of each value computed here, not of those in `known`.
pub fn sequence(
    rules: &HeapRules,
    known: Vec<u32>,
    upto: usize,
    each: impl FnMut(usize, u32),
    stop: impl Fn() -> bool,
) -> Option<Vec<u32>> {
    sequence_warmed(rules, known, upto, ENOUGH_TO_JUDGE, each, stop)
}

/// `sequence`, choosing the first mask after `warm` heaps (and again at
/// each power of two past it); tests lower it to reach every path with
/// short sequences.
fn sequence_warmed(
    rules: &HeapRules,
    known: Vec<u32>,
    upto: usize,
    warm: usize,
    mut each: impl FnMut(usize, u32),
    stop: impl Fn() -> bool,
) -> Option<Vec<u32>> {
    let mut run = Run::new(rules, known, upto);
    if run.g.len() > upto {
        run.g.truncate(upto + 1);
        return Some(run.g);
    }
    if run.g.len() >= warm {
        run.rechoose();
    }
    for n in run.g.len()..=upto {
        if n % 1024 == 0 && stop() {
            return None;
        }
        if n >= warm && (n == warm || n.is_power_of_two()) {
            run.rechoose();
        }
        let v = match run.mask {
            Some(mask) => run.sparse_mex(n, mask),
            None => run.plain_mex(n),
        };
        run.push(n, v);
        each(n, v);
    }
    Some(run.g)
}

/// The state of one computation.
struct Run<'r> {
    rules: &'r HeapRules,
    g: Vec<u32>,
    largest: u32,
    mask: Option<Mask>,
    /// The heaps of one token or more whose value is rare, in order, and
    /// their values (kept alongside: one random read fewer per pair).
    rare_heaps: Vec<u32>,
    rare_values: Vec<u32>,
    marks: Marks,
    candidates: Vec<u32>,
    /// The xors of one chunk of a sweep.
    xors: Vec<u32>,
    hot: HotLoops,
}

impl<'r> Run<'r> {
    fn new(rules: &'r HeapRules, mut known: Vec<u32>, upto: usize) -> Run<'r> {
        known.reserve((upto + 1).saturating_sub(known.len()));
        Run {
            rules,
            largest: known.iter().copied().max().unwrap_or(0),
            g: known,
            mask: None,
            rare_heaps: Vec::new(),
            rare_values: Vec::new(),
            marks: Marks::default(),
            candidates: Vec::new(),
            xors: Vec::new(),
            hot: hot_loops_for_this_cpu(),
        }
    }

    fn push(&mut self, n: usize, v: u32) {
        self.g.push(v);
        self.largest = self.largest.max(v);
        if n > 0 && self.mask.is_some_and(|m| m.is_rare(v)) {
            self.rare_heaps.push(n as u32);
            self.rare_values.push(v);
        }
    }

    /// Takes a better mask if the values so far suggest one: a clearly
    /// smaller count of rare heaps, since switching costs a pass.
    fn rechoose(&mut self) {
        let Some(best) = choose_mask(&self.g) else {
            return;
        };
        // g(0) = 0 is rare under every mask but not listed.
        let rare_now = self.rare_heaps.len() + 1;
        if self.mask.is_some() && best.rare * 10 >= rare_now * 9 {
            return;
        }
        self.mask = Some(best);
        self.rare_heaps.clear();
        self.rare_values.clear();
        for (n, &v) in self.g.iter().enumerate().skip(1) {
            if best.is_rare(v) {
                self.rare_heaps.push(n as u32);
                self.rare_values.push(v);
            }
        }
    }

    /// Every option marked; the first value not marked. For the first heaps,
    /// before there is anything to choose a mask from.
    fn plain_mex(&mut self, n: usize) -> u32 {
        let mut marks = self.marks.start(self.largest);
        let g = &self.g;
        self.rules.single_options(g, n, |v| marks.set(v));
        for (rest, half, _) in self.rules.splits(n) {
            for a in 1..=half {
                marks.set(g[a] ^ g[rest - a]);
            }
        }
        marks.first_unset(|_| true)
    }

    fn sparse_mex(&mut self, n: usize, mask: Mask) -> u32 {
        if self.xors.len() < self.rare_heaps.len() {
            self.xors.resize(2 * self.rare_heaps.len(), 0);
        }
        let mut marks = self.marks.start(self.largest);
        let g = &self.g;
        self.rules.single_options(g, n, |v| marks.set(v));
        for (rest, _, strict) in self.rules.splits(n) {
            let below = self.rare_heaps.partition_point(|&r| (r as usize) < rest);
            // Grundy's game may not split into two equal heaps.
            let middle = if strict && rest % 2 == 0 {
                self.rare_heaps[..below]
                    .binary_search(&((rest / 2) as u32))
                    .ok()
            } else {
                None
            };
            let (skip_from, skip_to) = middle.map_or((below, below), |i| (i, i + 1));
            for range in [0..skip_from, skip_to..below] {
                let heaps = &self.rare_heaps[range.clone()];
                let values = &self.rare_values[range];
                let xors = &mut self.xors[..heaps.len()];
                (self.hot.rare_xors)(heaps, values, g, rest, xors);
                for &x in xors.iter() {
                    marks.set(x);
                }
            }
        }
        let common = marks.first_unset(|v| !mask.is_rare(v));
        self.candidates.clear();
        self.candidates
            .extend((0..common).filter(|&v| mask.is_rare(v) && !marks.get(v)));
        if !self.candidates.is_empty() {
            (self.hot.sweep)(
                self.rules,
                g,
                n,
                &mut marks,
                &mut self.candidates,
                &mut self.xors,
            );
        }
        self.candidates.first().copied().unwrap_or(common)
    }
}

/// Marks every split of heap n until each candidate is marked, and leaves
/// in `candidates` those that never were.
type Sweep = fn(&HeapRules, &[u32], usize, &mut Started, &mut Vec<u32>, &mut Vec<u32>);

/// `out[i] = values[i] ^ g[rest - heaps[i]]`, for heaps below `rest`.
type RareXors = fn(&[u32], &[u32], &[u32], usize, &mut [u32]);

/// The builds of the hot loops chosen for this processor.
struct HotLoops {
    sweep: Sweep,
    rare_xors: RareXors,
}

fn hot_loops_for_this_cpu() -> HotLoops {
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
        };
    }
    HotLoops {
        sweep: sweep_portable,
        rare_xors: rare_xors_portable,
    }
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
const FEW: usize = 4;

/// Bit i set: candidate i is the xor of some `left[j]` and
/// `right[len - 1 - j]`.
#[inline(always)]
fn find_few(candidates: &[u32], left: &[u32], right: &[u32]) -> u32 {
    // Missing candidates are padded with a copy of the first.
    let c = |i: usize| candidates.get(i).copied().unwrap_or(candidates[0]);
    let (c0, c1, c2, c3) = (c(0), c(1), c(2), c(3));
    let (mut h0, mut h1, mut h2, mut h3) = (0u32, 0u32, 0u32, 0u32);
    for (l, r) in left.iter().zip(right.iter().rev()) {
        let x = l ^ r;
        h0 |= (x == c0) as u32;
        h1 |= (x == c1) as u32;
        h2 |= (x == c2) as u32;
        h3 |= (x == c3) as u32;
    }
    h0 | h1 << 1 | h2 << 2 | h3 << 3
}

/// The longest chunk of a sweep.
const MOST: usize = 4096;

/// Which values are options of the current heap: a stamp per value, so
/// that nothing is cleared between heaps.
#[derive(Default)]
struct Marks {
    stamps: Vec<u32>,
    now: u32,
}

/// The marks of one heap, sized for its options.
struct Started<'m> {
    stamps: &'m mut [u32],
    now: u32,
}

impl Marks {
    fn start(&mut self, largest: u32) -> Started<'_> {
        // Any xor of two values is below the next power of two past the
        // largest; twice that leaves room for a value no option reaches in
        // either class.
        let size = ((largest as usize + 1).next_power_of_two() * 2).max(64);
        if self.stamps.len() < size {
            self.stamps.resize(size, 0);
        }
        if self.now == u32::MAX {
            self.stamps.fill(0);
            self.now = 0;
        }
        self.now += 1;
        Started {
            stamps: &mut self.stamps[..size],
            now: self.now,
        }
    }
}

impl Started<'_> {
    #[inline(always)]
    fn set(&mut self, v: u32) {
        let last = self.stamps.len() - 1;
        self.stamps[v as usize & last] = self.now;
    }

    #[inline(always)]
    fn get(&self, v: u32) -> bool {
        let last = self.stamps.len() - 1;
        self.stamps[v as usize & last] == self.now
    }

    /// The smallest value of a class that is not marked. There is one:
    /// the upper half of the stamps is never marked, and holds values of
    /// both classes for any mask below it.
    fn first_unset(&self, in_class: impl Fn(u32) -> bool) -> u32 {
        (0..self.stamps.len() as u32)
            .find(|&v| in_class(v) && self.stamps[v as usize] != self.now)
            .unwrap_or(self.stamps.len() as u32)
    }
}
