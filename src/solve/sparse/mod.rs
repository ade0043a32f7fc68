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

use crate::solve::kernel::STRETCH;
use hot::{hot_loops_for_this_cpu, Halves, HotLoops, Val};
use marks::{Marks, Started};
use std::ops::ControlFlow;

pub use choice::{judge_after, pays, ENOUGH_TO_JUDGE};
pub use mask::{choose_mask, Mask};
pub use rules::HeapRules;

/// g(0), ..., g(upto), continuing from `known` = g(0..known.len()) (which
/// may be empty). `hook` is shown the values so far every `STRETCH` heaps,
/// as the dense kernel does; if it breaks, the values so far are returned.
pub fn sequence(
    rules: &HeapRules,
    known: Vec<u32>,
    upto: usize,
    hook: impl FnMut(&[u32]) -> ControlFlow<()>,
) -> Vec<u32> {
    sequence_warmed(rules, known, upto, ENOUGH_TO_JUDGE, hook)
}

/// `sequence`, choosing the first mask after `warm` heaps (and again at
/// each power of two past it); tests lower it to reach every path with
/// short sequences.
fn sequence_warmed(
    rules: &HeapRules,
    known: Vec<u32>,
    upto: usize,
    warm: usize,
    mut hook: impl FnMut(&[u32]) -> ControlFlow<()>,
) -> Vec<u32> {
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
    g: Vec<u32>,
    shadow: Shadow,
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

/// The values again, arranged for the hot loops: as u16 forwards and
/// backwards while every value fits (half the memory traffic), then as a
/// u32 backwards copy beside `g`.
enum Shadow {
    Narrow {
        forwards: Vec<u16>,
        backwards: Vec<u16>,
    },
    Wide {
        backwards: Vec<u32>,
    },
}

impl Shadow {
    fn new(g: &[u32], upto: usize) -> Shadow {
        if g.iter().all(|&v| v <= u16::MAX as u32) {
            let mut forwards = Vec::with_capacity(upto + 1);
            forwards.extend(g.iter().map(|&v| v as u16));
            let mut backwards = vec![0; upto + 1];
            for (m, &v) in forwards.iter().enumerate() {
                backwards[upto - m] = v;
            }
            Shadow::Narrow {
                forwards,
                backwards,
            }
        } else {
            let mut backwards = vec![0; upto + 1];
            for (m, &v) in g.iter().enumerate() {
                backwards[upto - m] = v;
            }
            Shadow::Wide { backwards }
        }
    }
}

impl<'r> Run<'r> {
    fn new(rules: &'r HeapRules, mut known: Vec<u32>, upto: usize) -> Run<'r> {
        known.truncate(upto + 1);
        known.reserve(upto + 1 - known.len());
        Run {
            rules,
            upto,
            largest: known.iter().copied().max().unwrap_or(0),
            shadow: Shadow::new(&known, upto),
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
        match &mut self.shadow {
            Shadow::Narrow {
                forwards,
                backwards,
            } if v <= u16::MAX as u32 => {
                forwards.push(v as u16);
                backwards[self.upto - n] = v as u16;
            }
            Shadow::Narrow { .. } => self.shadow = Shadow::new(&self.g, self.upto),
            Shadow::Wide { backwards } => backwards[self.upto - n] = v,
        }
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
        self.rules.single_options(&self.g, n, |v| marks.set(v));
        let (rules, upto, xors) = (self.rules, self.upto, &mut self.xors);
        match &self.shadow {
            Shadow::Narrow {
                forwards,
                backwards,
            } => {
                let h = Halves {
                    forwards,
                    backwards,
                    upto,
                };
                (self.narrow.mark_all)(rules, h, n, &mut marks, xors);
            }
            Shadow::Wide { backwards } => {
                let h = Halves {
                    forwards: &self.g,
                    backwards,
                    upto,
                };
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
        self.rules.single_options(&self.g, n, |v| marks.set(v));
        let work = Work {
            rules: self.rules,
            rare: &self.rare,
            rare_heaps: &self.rare_heaps,
            rare_values: &self.rare_values,
            marks,
            xors: &mut self.xors,
            candidates: &mut self.candidates,
        };
        let upto = self.upto;
        match &self.shadow {
            Shadow::Narrow {
                forwards,
                backwards,
            } => {
                let h = Halves {
                    forwards,
                    backwards,
                    upto,
                };
                work.mex(h, &self.narrow, n)
            }
            Shadow::Wide { backwards } => {
                let h = Halves {
                    forwards: &self.g,
                    backwards,
                    upto,
                };
                work.mex(h, &self.wide, n)
            }
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
                let heaps = self.rare_heaps[range.clone()].chunks(RARE_CHUNK);
                let values = self.rare_values[range].chunks(RARE_CHUNK);
                for (heaps, values) in heaps.zip(values) {
                    let xors = &mut self.xors[..heaps.len()];
                    (hot.rare_xors)(heaps, values, h, rest, xors);
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
