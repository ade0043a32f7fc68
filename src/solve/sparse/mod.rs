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
//! To pick it automatically: compute `judge_after(upto)` values the plain
//! way, ask `pays(&rules, &values, upto)`, and if it says so, go on with
//! `sequence(&rules, values, upto, ..)`.
//!
//! Every step is exact whatever the mask: a mask that fits badly makes the
//! method slower, never wrong. The mask is chosen from the values so far
//! and chosen again each time the sequence doubles in length.

mod choice;
mod hot;
mod marks;
mod mask;
mod rules;
#[cfg(test)]
mod tests;

use hot::{hot_loops_for_this_cpu, HotLoops};
use marks::Marks;

pub use choice::{judge_after, pays, ENOUGH_TO_JUDGE};
pub use mask::{choose_mask, Mask};
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
    // Rare heaps are listed as u32 (half the memory traffic of usize);
    // past that, every heap is paired the plain way.
    let warm = if upto < u32::MAX as usize {
        warm
    } else {
        usize::MAX
    };
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
        (self.hot.mark_all)(self.rules, g, n, &mut marks, &mut self.xors);
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
