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

use crate::solve::backwards::{self, give_back, still_read};
use crate::solve::kernel::STRETCH;
use crate::solve::values::Values;
use hot::{hot_loops_for_this_cpu, Halves, HotLoops, Val};
use marks::{Marks, Started};
use std::ops::ControlFlow;

pub use choice::{advantage, judge_after, pays, ENOUGH_TO_JUDGE};
pub use mask::{choose_mask, Mask};
pub use rules::HeapRules;

/// g(0), ..., g(upto), continuing from `known` = g(0..known.len()) (which
/// may be empty). `hook` is shown the values so far every `STRETCH` heaps,
/// as the dense kernel does; if it breaks, the values so far are returned.
pub fn sequence(
    rules: &HeapRules,
    known: Values,
    upto: usize,
    hook: impl FnMut(&Values) -> ControlFlow<()>,
) -> Values {
    sequence_warmed(rules, known, upto, ENOUGH_TO_JUDGE, hook)
}

/// `sequence`, choosing the first mask after `warm` heaps (and again at
/// each power of two past it); tests lower it to reach every path with
/// short sequences.
pub(crate) fn sequence_warmed(
    rules: &HeapRules,
    known: Values,
    upto: usize,
    warm: usize,
    mut hook: impl FnMut(&Values) -> ControlFlow<()>,
) -> Values {
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
        return run.g;
    }
    if run.g.len() >= warm {
        run.rechoose();
    }
    for n in run.g.len()..=upto {
        if n % STRETCH == 0 && n > 0 && hook(&run.g).is_break() {
            break;
        }
        if n % backwards::EVERY == 0 {
            run.give_back(n);
        }
        if n >= warm && (n == warm || n.is_power_of_two()) {
            run.rechoose();
        }
        let v = match run.mask {
            Some(mask) => run.sparse_mex(n, mask),
            None => run.plain_mex(n),
        };
        run.push(n, v);
    }
    run.g
}

/// The state of one computation.
struct Run<'r> {
    rules: &'r HeapRules,
    upto: usize,
    g: Values,
    backwards: Backwards,
    largest: u32,
    mask: Option<Mask>,
    /// The heaps of one token or more whose value is rare, in order, and
    /// their values (kept alongside: one random read fewer per pair).
    rare_heaps: Vec<u32>,
    rare_values: Vec<u32>,
    /// `rare[v]`: v is rare under the mask, for every value a heap's
    /// options can reach (a table: the processor may lack a popcount).
    rare: Vec<bool>,
    /// The mask bits `rare` was made for.
    rare_for: u32,
    marks: Marks,
    candidates: Vec<u32>,
    /// The xors of one chunk of splits, or of the rare heaps.
    xors: Vec<u32>,
    narrow: HotLoops<u16>,
    wide: HotLoops<u32>,
}

/// The values again, backwards (`backwards[upto - m] == g(m)`), so that
/// both parts of a run of splits are read forwards; as narrow as `g`.
enum Backwards {
    Narrow(Vec<u16>),
    Wide(Vec<u32>),
}

impl Backwards {
    fn new(g: &Values, upto: usize) -> Backwards {
        match g {
            Values::Narrow(g) => Backwards::Narrow(reversed(g, upto)),
            Values::Wide(g) => Backwards::Wide(reversed(g, upto)),
        }
    }
}

fn reversed<T: Copy + Default>(g: &[T], upto: usize) -> Vec<T> {
    let mut backwards = vec![T::default(); upto + 1];
    for (m, &v) in g.iter().enumerate() {
        backwards[upto - m] = v;
    }
    backwards
}

/// The forwards and backwards values, borrowed for the hot loops.
enum Both<'a> {
    Narrow(Halves<'a, u16>),
    Wide(Halves<'a, u32>),
}

fn both<'a>(g: &'a Values, backwards: &'a Backwards, upto: usize) -> Both<'a> {
    match (g, backwards) {
        (Values::Narrow(forwards), Backwards::Narrow(backwards)) => Both::Narrow(Halves {
            forwards,
            backwards,
            upto,
        }),
        (Values::Wide(forwards), Backwards::Wide(backwards)) => Both::Wide(Halves {
            forwards,
            backwards,
            upto,
        }),
        _ => unreachable!("`push` widens the backwards copy with the values"),
    }
}

impl<'r> Run<'r> {
    fn new(rules: &'r HeapRules, known: Values, upto: usize) -> Run<'r> {
        let mut known = known.compact();
        known.truncate(upto + 1);
        known.reserve(upto + 1 - known.len());
        Run {
            rules,
            upto,
            largest: known.largest(),
            backwards: Backwards::new(&known, upto),
            g: known,
            mask: None,
            rare_heaps: Vec::new(),
            rare_values: Vec::new(),
            rare: Vec::new(),
            rare_for: 0,
            marks: Marks::default(),
            candidates: Vec::new(),
            xors: Vec::new(),
            narrow: hot_loops_for_this_cpu(),
            wide: hot_loops_for_this_cpu(),
        }
    }

    fn push(&mut self, n: usize, v: u32) {
        self.g.push(v);
        self.largest = self.largest.max(v);
        match (&mut self.backwards, &self.g) {
            (Backwards::Narrow(backwards), Values::Narrow(_)) => {
                backwards[self.upto - n] = v as u16;
            }
            (Backwards::Wide(backwards), Values::Wide(_)) => backwards[self.upto - n] = v,
            // The values just widened.
            _ => self.backwards = Backwards::new(&self.g, self.upto),
        }
        if n > 0 && self.mask.is_some_and(|m| m.is_rare(v)) {
            self.rare_heaps.push(n as u32);
            self.rare_values.push(v);
        }
    }

    /// Gives back the end of the backwards copy that no heap from `n` on
    /// reads (see `solve::backwards`).
    fn give_back(&mut self, n: usize) {
        let keep = still_read(self.upto, n, self.rules.most_taken_by_a_split());
        match &mut self.backwards {
            Backwards::Narrow(copy) => give_back(copy, keep),
            Backwards::Wide(copy) => give_back(copy, keep),
        }
    }

    /// Forgets every value from heap `len` on.
    fn truncate(&mut self, len: usize) {
        self.g.truncate(len);
        let kept = self.rare_heaps.partition_point(|&r| (r as usize) < len);
        self.rare_heaps.truncate(kept);
        self.rare_values.truncate(kept);
    }

    /// Takes a better mask if the values so far suggest one: a clearly
    /// smaller count of rare heaps, since switching costs a pass.
    fn rechoose(&mut self) {
        let Some(best) = choose_mask(&self.g) else {
            return;
        };
        // g(0) = 0 (heap 0 has no move under `HeapRules`) is rare under
        // every mask but not listed: no split leaves a part of 0.
        let rare_now = self.rare_heaps.len() + 1;
        if self.mask.is_some() && best.rare * 10 >= rare_now * 9 {
            return;
        }
        self.mask = Some(best);
        self.rare_heaps.clear();
        self.rare_values.clear();
        for (n, v) in self.g.iter().enumerate().skip(1) {
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
        let (rules, xors) = (self.rules, &mut self.xors);
        match both(&self.g, &self.backwards, self.upto) {
            Both::Narrow(h) => {
                rules.single_options(h.forwards, n, |v| marks.set(v));
                (self.narrow.mark_all)(rules, h, n, &mut marks, xors);
            }
            Both::Wide(h) => {
                rules.single_options(h.forwards, n, |v| marks.set(v));
                (self.wide.mark_all)(rules, h, n, &mut marks, xors);
            }
        }
        marks.first_unset(|_| true)
    }

    fn sparse_mex(&mut self, n: usize, mask: Mask) -> u32 {
        if self.xors.len() < RARE_CHUNK {
            self.xors.resize(RARE_CHUNK, 0);
        }
        let mut marks = self.marks.start(self.largest);
        if self.rare_for != mask.bits {
            self.rare.clear();
            self.rare_for = mask.bits;
        }
        if self.rare.len() < marks.len() {
            let from = self.rare.len() as u32;
            self.rare
                .extend((from..marks.len() as u32).map(|v| mask.is_rare(v)));
        }
        let halves = both(&self.g, &self.backwards, self.upto);
        match &halves {
            Both::Narrow(h) => self.rules.single_options(h.forwards, n, |v| marks.set(v)),
            Both::Wide(h) => self.rules.single_options(h.forwards, n, |v| marks.set(v)),
        }
        let work = Work {
            rules: self.rules,
            rare: &self.rare,
            rare_heaps: &self.rare_heaps,
            rare_values: &self.rare_values,
            marks,
            xors: &mut self.xors,
            candidates: &mut self.candidates,
        };
        match halves {
            Both::Narrow(h) => work.mex(h, &self.narrow, n),
            Both::Wide(h) => work.mex(h, &self.wide, n),
        }
    }
}

/// The rare heaps are paired this many at a time, so that their xors stay
/// in the first-level cache until they are marked.
const RARE_CHUNK: usize = 1024;

/// What the rare/common mex of one heap works with, borrowed from `Run`.
struct Work<'a> {
    rules: &'a HeapRules,
    rare: &'a [bool],
    rare_heaps: &'a [u32],
    rare_values: &'a [u32],
    marks: Started<'a>,
    xors: &'a mut Vec<u32>,
    candidates: &'a mut Vec<u32>,
}

impl Work<'_> {
    fn mex<T: Val>(mut self, h: Halves<T>, hot: &HotLoops<T>, n: usize) -> u32 {
        let marks = &mut self.marks;
        for (rest, _, strict) in self.rules.splits(n) {
            let below = self.rare_heaps.partition_point(|&r| (r as usize) < rest);
            // A rare heap up to half of `rest` meets the other part in the
            // backwards copy, a larger one meets it (the smaller part) in
            // the forwards values: the copy's far end may be given back.
            let mut halfway = self
                .rare_heaps
                .partition_point(|&r| (r as usize) <= rest / 2);
            let smaller = halfway..below;
            // Grundy's game may not split into two equal heaps.
            if strict
                && rest % 2 == 0
                && halfway > 0
                && self.rare_heaps[halfway - 1] as usize == rest / 2
            {
                halfway -= 1;
            }
            for (range, pair) in [
                (0..halfway, hot.rare_xors),
                (smaller, hot.rare_xors_forwards),
            ] {
                let heaps = self.rare_heaps[range.clone()].chunks(RARE_CHUNK);
                let values = self.rare_values[range].chunks(RARE_CHUNK);
                for (heaps, values) in heaps.zip(values) {
                    let xors = &mut self.xors[..heaps.len()];
                    pair(heaps, values, h, rest, xors);
                    for &x in xors.iter() {
                        marks.set(x);
                    }
                }
            }
        }
        let rare = self.rare;
        let common = marks.first_unset(|v| !rare[v as usize]);
        self.candidates.clear();
        self.candidates
            .extend((0..common).filter(|&v| rare[v as usize] && !marks.get(v)));
        if !self.candidates.is_empty() {
            (hot.sweep)(self.rules, h, n, marks, self.candidates, self.xors);
        }
        self.candidates.first().copied().unwrap_or(common)
    }
}
