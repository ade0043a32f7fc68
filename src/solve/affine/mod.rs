//! Heap games whose rules are affine once read by what they mean: each
//! rule, case by case, lets one number `a` run over a range with bounds
//! linear in the heap `n`, keeps the values where linear tests hold, and
//! moves to heaps of the same game at sizes linear in `n` and `a`
//! (Grundy's game, Kayles written out by hand, subtraction by fixed
//! amounts, however the guard, helpers and result are spelled: see
//! `read`). Such rules are read once from the IR and their options
//! computed with integer arithmetic, bottom-up in a dense array, instead
//! of by running the interpreter for every option.
//!
//! Anything the reading cannot follow is not recognised, and anything
//! surprising at run time (a heap that is not smaller, a negative heap, a
//! step of the arithmetic that would overflow) gives up, so the caller
//! falls back to the plain method, which reports it properly.

mod alias;
mod eliminate;
mod heap_rules;
mod read;
mod shape;
mod specialise;

pub use alias::{alias_heap, AliasHeap};
pub use specialise::specialise;

use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{FnIr, GameIr, GameKind};
use crate::eval::Value;
use crate::solve::kernel::STRETCH;
use crate::solve::values::Values;
use crate::types::Type;
use std::ops::ControlFlow;

/// `a·A + n·N + c`, and `b·B` while a rule is read: a second generator
/// over a range that grows with the heap, which the reading then
/// eliminates (see `read`), so that a rule's arithmetic never has it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Affine {
    a: i64,
    b: i64,
    n: i64,
    c: i64,
}

impl Affine {
    fn at(self, n: i64, a: i64) -> Option<i64> {
        self.a
            .checked_mul(a)?
            .checked_add(self.n.checked_mul(n)?)?
            .checked_add(self.c)
    }

    /// `self + other` or `self - other`; `None` if a coefficient overflows.
    fn combine(self, other: Affine, sign: i64) -> Option<Affine> {
        let term = |x: i64, y: i64| x.checked_add(y.checked_mul(sign)?);
        Some(Affine {
            a: term(self.a, other.a)?,
            b: term(self.b, other.b)?,
            n: term(self.n, other.n)?,
            c: term(self.c, other.c)?,
        })
    }

    /// `k·self`.
    fn scaled(self, k: i64) -> Option<Affine> {
        Some(Affine {
            a: self.a.checked_mul(k)?,
            b: self.b.checked_mul(k)?,
            n: self.n.checked_mul(k)?,
            c: self.c.checked_mul(k)?,
        })
    }

    /// `self·other`, when one of them is a constant.
    fn times(self, other: Affine) -> Option<Affine> {
        match (self.is_constant(), other.is_constant()) {
            (true, _) => other.scaled(self.c),
            (_, true) => self.scaled(other.c),
            _ => None,
        }
    }

    fn is_constant(self) -> bool {
        self.a == 0 && self.b == 0 && self.n == 0
    }
}

/// `expr ⋈ 0` for one of <, <=, ==.
#[derive(Clone, Copy, Debug)]
enum Test {
    Below(Affine),
    AtMost(Affine),
    Zero(Affine),
}

impl Test {
    fn map(self, f: impl Fn(Affine) -> Option<Affine>) -> Option<Test> {
        Some(match self {
            Test::Below(t) => Test::Below(f(t)?),
            Test::AtMost(t) => Test::AtMost(f(t)?),
            Test::Zero(t) => Test::Zero(f(t)?),
        })
    }

    fn uses_b(self) -> bool {
        let (Test::Below(t) | Test::AtMost(t) | Test::Zero(t)) = self;
        t.b != 0
    }

    /// Whether it holds, if that depends on neither the heap nor `a`.
    fn constant(self) -> Option<bool> {
        match self {
            Test::Below(t) => t.is_constant().then_some(t.c < 0),
            Test::AtMost(t) => t.is_constant().then_some(t.c <= 0),
            Test::Zero(t) => t.is_constant().then_some(t.c == 0),
        }
    }
}

/// One case of a move rule, read as arithmetic.
#[derive(Clone, Debug)]
struct Rule {
    /// `a` runs over `lo..hi` (the rule has no generator over a range that
    /// grows with the heap: `a` is unused and the range is one value).
    lo: Affine,
    hi: Affine,
    tests: Vec<Test>,
    heaps: Vec<Affine>,
    /// The numbers the interpreter works out before `a` runs, once per
    /// heap (free of `a`).
    bounds: Vec<Step>,
    /// The numbers it works out for each `a`, in order.
    steps: Vec<Step>,
}

/// A number the interpreter works out on the way: it computes each in 64
/// bits and stops with an error if one does not fit (or, for a `nat`
/// argument of a helper, is negative), so the arithmetic here may stand for
/// it only where every step is fine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Step {
    value: Affine,
    /// Whether it must not be negative.
    nat: bool,
    /// Worked out only where the first `after` tests of the rule hold.
    after: usize,
}

impl Step {
    /// Whether the step is fine at heap n for every `a` in `from..=to`
    /// (it is affine in `a`, so the two ends decide).
    fn holds(self, n: i64, from: i64, to: i64) -> bool {
        [from, to]
            .iter()
            .all(|&a| self.value.at(n, a).is_some_and(|v| !self.nat || v >= 0))
    }
}

/// A game recognised as affine.
#[derive(Clone, Debug)]
pub struct AffineGame {
    rules: Vec<Rule>,
    /// Cases that make no move but work numbers out on the way: at a heap
    /// where one of those is not fine, the interpreter stops.
    checks: Vec<Rule>,
}

/// The game's rules as arithmetic, if they all have the affine shape.
pub fn recognise(
    game: &GameIr,
    id: u32,
    functions: &[FnIr],
    consts: &[Value],
) -> Compiled<AffineGame> {
    let heap = match game.params.as_slice() {
        [param] if param.ty == Type::Nat => param,
        _ => {
            return Err(Unsupported::new(
                "a game that is not one heap (one `nat` parameter)",
                game.span,
            ))
        }
    };
    let moves = match &game.kind {
        GameKind::Rules {
            moves,
            lose: None,
            parts: None,
        } => moves,
        GameKind::Rules {
            lose: Some(rule), ..
        }
        | GameKind::Rules {
            parts: Some(rule), ..
        } => return Err(Unsupported::new("a `lose if` or `parts =` rule", rule.span)),
        GameKind::Alias(ir) => {
            return Err(Unsupported::new(
                "an alias that is not another game at the heap or the heap plus a constant, its other arguments fixed",
                ir.span,
            ))
        }
        GameKind::Octal(_) => return Err(Unsupported::new("an octal code", heap.span)),
        GameKind::TakeBreak(_) => {
            return Err(Unsupported::new(
                "a take-and-break code beyond octal (searched heap by heap)",
                heap.span,
            ))
        }
    };
    let reader = read::Reader {
        game: id,
        functions,
        consts,
    };
    let mut read = read::Read::default();
    for m in moves {
        reader.rules(m, game.frame_size, &mut read)?;
    }
    // A case that never applies is dropped; what it works out before `a`
    // runs (at every heap) is still checked, once for all such cases.
    // What it works out after, where earlier tests hold, a case beside it
    // that does apply works out too.
    let mut before_a: Vec<Step> = Vec::new();
    let mut possible = |rules: Vec<Rule>| -> Vec<Rule> {
        let (never, rules): (Vec<Rule>, Vec<Rule>) =
            rules.into_iter().partition(shape::never_applies);
        for step in never.iter().flat_map(|r| &r.bounds) {
            if !before_a.contains(step) {
                before_a.push(*step);
            }
        }
        rules
    };
    let rules = possible(read.rules);
    let mut checks = possible(read.checks);
    if !before_a.is_empty() {
        let nothing = Affine::default();
        checks.push(Rule {
            lo: nothing,
            hi: nothing,
            tests: Vec::new(),
            heaps: Vec::new(),
            bounds: before_a,
            steps: Vec::new(),
        });
    }
    Ok(AffineGame { rules, checks })
}

impl Test {
    /// The part of `lo..hi` where the test holds at heap n.
    fn narrow(self, n: i64, lo: i64, hi: i64) -> Option<(i64, i64)> {
        let rest = |t: Affine| t.n.checked_mul(n)?.checked_add(t.c);
        Some(match self {
            Test::Below(t) => narrow(lo, hi, t.a, rest(t)?, true),
            Test::AtMost(t) => narrow(lo, hi, t.a, rest(t)?, false),
            Test::Zero(t) => {
                // t == 0: t <= 0 and -t <= 0.
                let (lo, hi) = narrow(lo, hi, t.a, rest(t)?, false);
                narrow(lo, hi, t.a.checked_neg()?, rest(t)?.checked_neg()?, false)
            }
        })
    }
}

/// The part of `lo..hi` where `k·a + r < 0` (or `<= 0`) holds. Worked
/// out in 128 bits, where no step can overflow.
fn narrow(lo: i64, hi: i64, k: i64, r: i64, strict: bool) -> (i64, i64) {
    let (k, r) = (i128::from(k), i128::from(r));
    // k·a + r < 0  <=>  k·a < -r ; for `<=`, k·a <= -r.
    let bound = if strict { -r - 1 } else { -r }; // k·a <= bound
                                                  // Into `lo..=hi` (an empty range stays empty).
    let clamp = |x: i128| x.max(i128::from(lo)).min(i128::from(hi)) as i64;
    match k.cmp(&0) {
        // The common slopes, without a division (this runs for every test
        // at every heap).
        _ if k == 1 => (lo, clamp(bound + 1)),
        _ if k == -1 => (clamp(-bound), hi),
        std::cmp::Ordering::Greater => (lo, clamp(bound.div_euclid(k) + 1)),
        // a >= ceil(bound / k) with k < 0: a·(-k) >= -bound.
        std::cmp::Ordering::Less => (clamp((-bound - k - 1).div_euclid(-k)), hi),
        std::cmp::Ordering::Equal => {
            if (strict && r < 0) || (!strict && r <= 0) {
                (lo, hi)
            } else {
                (lo, lo)
            }
        }
    }
}

impl AffineGame {
    /// The first heap at which the interpreter's arithmetic might not fit
    /// in 64 bits (a bound: it may fit there still). Below it, the values
    /// worked out here are the interpreter's.
    pub fn exact_below(&self) -> u64 {
        let exact = |last: i64| {
            (self.rules.iter())
                .chain(&self.checks)
                .all(|r| r.exact_through(last))
        };
        if exact(i64::MAX) {
            return u64::MAX;
        }
        if !exact(0) {
            return 0;
        }
        // Exact through `good`, perhaps not through `bad`.
        let (mut good, mut bad) = (0i64, i64::MAX);
        while bad - good > 1 {
            let mid = good + (bad - good) / 2;
            if exact(mid) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        bad as u64
    }

    /// g(0), ..., g(upto), carrying on from the values `known`, with
    /// `hook` shown the values every `STRETCH` heaps (it may stop the run,
    /// which then returns what it has). If a heap's options fall outside
    /// the shape (a heap not smaller than n, a negative heap), `Err` with
    /// the values before that heap.
    pub fn sequence(
        &self,
        known: Values,
        upto: usize,
        mut hook: impl FnMut(&Values) -> ControlFlow<()>,
    ) -> Result<Values, Values> {
        let mut g = known.compact();
        g.truncate(upto + 1);
        g.reserve(upto + 1 - g.len());
        // g backwards (`backwards[upto - m] == g(m)`), so that the second
        // heap of a split `a + b1, b2 - a` is read forwards as well.
        let mut backwards: Vec<u32> = vec![0; upto + 1];
        for (m, v) in g.iter().enumerate() {
            backwards[upto - m] = v;
        }
        let mut seen = Options::default();
        let mut largest = g.largest();
        for n in g.len()..=upto {
            if n % STRETCH == 0 && n > 0 && hook(&g).is_break() {
                break;
            }
            seen.start(n, largest);
            let halves = Halves {
                g: &g,
                backwards: &backwards,
                upto,
            };
            if self.mark_options(n as i64, halves, &mut seen).is_none() {
                return Err(g);
            }
            let mex = seen.mex();
            largest = largest.max(mex);
            g.push(mex);
            backwards[upto - n] = mex;
        }
        Ok(g)
    }

    /// Marks the options of heap n; `None` if one falls outside the shape.
    fn mark_options(&self, ni: i64, h: Halves, seen: &mut Options) -> Option<()> {
        for check in &self.checks {
            check.range(ni)?;
        }
        for rule in &self.rules {
            let (lo, hi) = rule.range(ni)?;
            if lo >= hi {
                continue;
            }
            if let Some((b1, b2)) = rule.split(ni) {
                // Heaps a + b1 and b2 - a for a in lo..hi: both ends must
                // lie in 0..n, and then every heap between does (the ends
                // fit in 64 bits: they are steps `range` checked).
                let (first, last) = (lo.checked_add(b1)?, (hi - 1).checked_add(b1)?);
                let (high, low) = (b2.checked_sub(lo)?, b2.checked_sub(hi - 1)?);
                if first < 0 || last >= ni || low < 0 || high >= ni {
                    return None;
                }
                let (first, last) = (first as usize, last as usize);
                let start = h.upto - high as usize;
                let right = &h.backwards[start..start + last + 1 - first];
                match h.g {
                    Values::Narrow(g) => seen.pairs(&g[first..=last], right),
                    Values::Wide(g) => seen.pairs(&g[first..=last], right),
                }
                continue;
            }
            if let [heap @ Affine { a: 1 | -1, .. }] = rule.heaps.as_slice() {
                // One heap running over a stretch of smaller heaps (take
                // any number): their values as they lie.
                let (x, y) = (heap.at(ni, lo)?, heap.at(ni, hi - 1)?);
                let (first, last) = (x.min(y), x.max(y));
                if first < 0 || last >= ni {
                    return None;
                }
                let (first, last) = (first as usize, last as usize);
                match h.g {
                    Values::Narrow(g) => seen.each(&g[first..=last]),
                    Values::Wide(g) => seen.each(&g[first..=last]),
                }
                continue;
            }
            for a in lo..hi {
                let mut v = 0;
                for heap in &rule.heaps {
                    let at = heap.at(ni, a)?;
                    if at < 0 || at >= ni {
                        return None;
                    }
                    v ^= h.g.at(at as usize);
                }
                seen.mark(v);
            }
        }
        Some(())
    }
}

/// The values so far, and backwards (`backwards[upto - m] == g(m)`).
#[derive(Clone, Copy)]
struct Halves<'a> {
    g: &'a Values,
    backwards: &'a [u32],
    upto: usize,
}

impl Rule {
    /// The values of `a` this rule allows at heap n: its range narrowed by
    /// every test. `None` if the interpreter would stop on the way (a step
    /// that overflows or a `nat` that is negative, where it is worked out)
    /// or a test's arithmetic here would overflow.
    fn range(&self, n: i64) -> Option<(i64, i64)> {
        if !self.bounds.iter().all(|s| s.holds(n, 0, 0)) {
            return None;
        }
        let (mut lo, mut hi) = (self.lo.at(n, 0)?, self.hi.at(n, 0)?);
        let mut steps = self.steps.iter().peekable();
        for j in 0..=self.tests.len() {
            while let Some(step) = steps.next_if(|s| s.after == j) {
                if lo < hi && !step.holds(n, lo, hi - 1) {
                    return None;
                }
            }
            if let Some(test) = self.tests.get(j) {
                (lo, hi) = test.narrow(n, lo, hi)?;
            }
        }
        Some((lo, hi))
    }

    /// Whether the interpreter's arithmetic is fine at every heap up to
    /// `last`. Each step is affine, and the pairs (n, a) with `a` in the
    /// generator's range at heap n lie within the four corners of that
    /// range at the first and last heaps where it is not empty: the step
    /// is fine wherever it is worked out if it is fine at those corners.
    fn exact_through(&self, last: i64) -> bool {
        let fine = |s: &Step, n: i64, a: i64| s.holds(n, a, a);
        if !self
            .bounds
            .iter()
            .all(|s| fine(s, 0, 0) && fine(s, last, 0))
        {
            return false;
        }
        let Some((first, end)) = self.live(last) else {
            return true;
        };
        let corners = [first, end].map(|n| {
            let ends = (
                self.lo.at(n, 0),
                self.hi.at(n, 0).and_then(|h| h.checked_sub(1)),
            );
            (n, ends)
        });
        corners.iter().all(|&(n, ends)| match ends {
            (Some(lo), Some(hi)) => self.steps.iter().all(|s| fine(s, n, lo) && fine(s, n, hi)),
            _ => false,
        })
    }

    /// The first and last heaps in `0..=last` at which the generator's
    /// range is not empty (they are consecutive: `hi - lo` is affine in
    /// n); `None` if there are none.
    fn live(&self, last: i64) -> Option<(i64, i64)> {
        // hi - lo = s·n + c > 0.
        let s = i128::from(self.hi.n) - i128::from(self.lo.n);
        let c = i128::from(self.hi.c) - i128::from(self.lo.c);
        let (mut from, mut to) = (0i128, i128::from(last));
        match s.cmp(&0) {
            // n > -c / s.
            std::cmp::Ordering::Greater => from = from.max((-c).div_euclid(s) + 1),
            // n < c / -s.
            std::cmp::Ordering::Less => to = to.min((c - 1).div_euclid(-s)),
            std::cmp::Ordering::Equal if c <= 0 => return None,
            std::cmp::Ordering::Equal => {}
        }
        (from <= to).then_some((from as i64, to as i64))
    }

    /// For a split into heaps `a + b1` and `b2 - a` (in either order), b1
    /// and b2 at heap n.
    fn split(&self, n: i64) -> Option<(i64, i64)> {
        let [x, y] = self.heaps.as_slice() else {
            return None;
        };
        let (up, down) = match (x.a, y.a) {
            (1, -1) => (x, y),
            (-1, 1) => (y, x),
            _ => return None,
        };
        Some((up.at(n, 0)?, down.at(n, 0)?))
    }
}

/// The option values of the current heap: bits of one word while every
/// value is below 64 (so every xor of two is too), else a stamped array
/// large enough for any xor of two values seen so far.
#[derive(Default)]
struct Options {
    small: bool,
    bits: u64,
    stamps: Vec<u32>,
    stamp: u32,
    /// The xors of a chunk of pairs, computed before they are stamped.
    xors: Vec<u32>,
}

impl Options {
    fn start(&mut self, n: usize, largest: u32) {
        self.small = largest < 64;
        self.bits = 0;
        self.stamp = n as u32 + 1;
        // Always a power of two, past twice the largest value.
        let size = (largest as usize + 1).next_power_of_two() * 2;
        if self.stamps.len() < size {
            self.stamps.resize(size, 0);
        }
        debug_assert!(self.stamps.len().is_power_of_two());
    }

    fn mark(&mut self, v: u32) {
        if self.small && v < 64 {
            self.bits |= 1 << v;
            return;
        }
        let v = v as usize;
        if v >= self.stamps.len() {
            self.stamps.resize((v + 1).next_power_of_two(), 0);
        }
        self.stamps[v] = self.stamp;
    }

    /// Marks each value.
    fn each<T: Copy + Into<u32>>(&mut self, values: &[T]) {
        for &v in values {
            self.mark(v.into());
        }
    }

    /// Marks the xor of each pair: the loop a split spends its time in.
    fn pairs<T: Copy + Into<u32>>(&mut self, left: &[T], right: &[u32]) {
        if self.small {
            self.bits |= bits_of_xors(left, right);
            return;
        }
        // Every xor is below the stamps' length (a power of two past twice
        // the largest value), so the mask changes nothing but spares the
        // bounds checks.
        let mask = self.stamps.len() - 1;
        for (l, r) in left.chunks(512).zip(right.chunks(512)) {
            self.xors.clear();
            self.xors
                .extend(l.iter().zip(r).map(|(&a, b)| a.into() ^ b));
            for &v in &self.xors {
                self.stamps[v as usize & mask] = self.stamp;
            }
        }
    }

    fn mex(&self) -> u32 {
        let mut v = if self.small {
            (!self.bits).trailing_zeros()
        } else {
            0
        };
        while (v as usize) < self.stamps.len() && self.stamps[v as usize] == self.stamp {
            v += 1;
        }
        v
    }
}

/// The xors of the pairs as bits of one word (all below 64), with the
/// AVX-512 or AVX2 build of the loop where the processor has it.
fn bits_of_xors<T: Copy + Into<u32>>(left: &[T], right: &[u32]) -> u64 {
    #[inline(always)]
    fn fold<T: Copy + Into<u32>>(left: &[T], right: &[u32]) -> u64 {
        left.iter()
            .zip(right)
            .fold(0u64, |acc, (&a, b)| acc | (1u64 << ((a.into() ^ b) & 63)))
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn fold_avx2<T: Copy + Into<u32>>(left: &[T], right: &[u32]) -> u64 {
        fold(left, right)
    }
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    unsafe fn fold_avx512<T: Copy + Into<u32>>(left: &[T], right: &[u32]) -> u64 {
        fold(left, right)
    }
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx2") {
            // SAFETY: the processor was just found to support these.
            return unsafe { fold_avx512(left, right) };
        }
        if has!("avx2") {
            // SAFETY: the processor was just found to support AVX2.
            return unsafe { fold_avx2(left, right) };
        }
    }
    fold(left, right)
}

#[cfg(test)]
mod tests {
    use super::narrow;

    /// `narrow` keeps exactly the values a brute force keeps, for every
    /// small slope, offset and range (the slopes ±1 take a path of their
    /// own).
    #[test]
    fn narrow_keeps_what_a_brute_force_keeps() {
        for k in -3..=3i64 {
            for r in -7..=7i64 {
                for (lo, hi) in [(-4, 5), (0, 3), (2, 2), (3, 1), (-2, 0)] {
                    for strict in [true, false] {
                        let kept: Vec<i64> = (lo..hi)
                            .filter(|a| {
                                if strict {
                                    k * a + r < 0
                                } else {
                                    k * a + r <= 0
                                }
                            })
                            .collect();
                        let (from, to) = narrow(lo, hi, k, r, strict);
                        let found: Vec<i64> = (from..to).collect();
                        assert_eq!(found, kept, "k {k}, r {r}, {lo}..{hi}, strict {strict}");
                    }
                }
            }
        }
    }
}
