//! Heap games whose rules are affine: each move has at most one generator
//! `a in lo..hi` with bounds linear in the heap `n`, a guard made of linear
//! comparisons, and a result that is one or two heaps of the same game at
//! sizes linear in `n` and `a` (Grundy's game, Kayles written out by hand,
//! subtraction by a fixed amount). Such rules are read once from the IR and
//! their options computed with integer arithmetic, bottom-up in a dense
//! array, instead of by running the interpreter for every option.
//!
//! Anything outside that shape is not recognised, and anything surprising
//! at run time (a heap that is not smaller, a negative heap) gives up, so
//! the caller falls back to the plain method, which reports it properly.

mod heap_rules;
mod shape;
mod specialise;

pub use specialise::specialise;

use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{GameIr, GameKind, Ir, IrKind, MoveIr};
use crate::eval::Value;
use crate::solve::kernel::STRETCH;
use crate::solve::values::Values;
use crate::syntax::ast::BinaryOp;
use crate::types::Type;
use std::ops::ControlFlow;

/// `a·A + n·N + c`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Affine {
    a: i64,
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
            n: term(self.n, other.n)?,
            c: term(self.c, other.c)?,
        })
    }

    /// Whether `at(n, a)` fits in 64 bits for every `a` in `from..=to`
    /// (it is affine in `a`, so the two ends decide).
    fn fits(self, n: i64, from: i64, to: i64) -> bool {
        self.at(n, from).is_some() && self.at(n, to).is_some()
    }
}

/// `expr ⋈ 0` for one of <, <=, ==.
#[derive(Clone, Copy, Debug)]
enum Test {
    Below(Affine),
    AtMost(Affine),
    Zero(Affine),
}

/// One move rule, read as arithmetic.
#[derive(Clone, Debug)]
struct Rule {
    /// `a` runs over `lo..hi` (the rule has no generator: `a` is unused and
    /// the range is one value).
    lo: Affine,
    hi: Affine,
    tests: Vec<Test>,
    heaps: Vec<Affine>,
    /// Every number the interpreter works out on the way, in three groups
    /// by how often it does: see `Steps`.
    steps: Steps,
}

/// The intermediate results of a rule's arithmetic: the interpreter
/// computes each in 64 bits and stops with an overflow error if one does
/// not fit, so the arithmetic here may stand for it only where none
/// overflows.
#[derive(Clone, Debug, Default)]
struct Steps {
    /// The generator's bounds: once per heap (free of `a`).
    bounds: Vec<Affine>,
    /// The guard: for every `a` of the generator's range.
    guard: Vec<Affine>,
    /// The resulting heaps: for every `a` the guard lets through.
    result: Vec<Affine>,
}

/// A game recognised as affine.
#[derive(Clone, Debug)]
pub struct AffineGame {
    rules: Vec<Rule>,
}

/// Slot 0 holds the heap; the last generator, if any, is `a`; earlier
/// generators over fixed values are substituted one value at a time.
struct Reader {
    game: u32,
    a_slot: Option<u32>,
    fixed: Vec<(u32, i64)>,
}

impl Reader {
    /// The expression as arithmetic; it and every part of it on the way
    /// are pushed onto `steps`.
    fn affine(&self, ir: &Ir, steps: &mut Vec<Affine>) -> Option<Affine> {
        let step = match &ir.kind {
            IrKind::Lit(Value::Int(c)) => Affine { a: 0, n: 0, c: *c },
            IrKind::Local(0) => Affine { a: 0, n: 1, c: 0 },
            IrKind::Local(s) if Some(*s) == self.a_slot => Affine { a: 1, n: 0, c: 0 },
            IrKind::Local(s) => {
                let c = self.fixed.iter().find(|(slot, _)| slot == s)?.1;
                Affine { a: 0, n: 0, c }
            }
            IrKind::Binary(BinaryOp::Add, l, r) => {
                self.affine(l, steps)?.combine(self.affine(r, steps)?, 1)?
            }
            IrKind::Binary(BinaryOp::Sub, l, r) => {
                self.affine(l, steps)?.combine(self.affine(r, steps)?, -1)?
            }
            IrKind::Binary(BinaryOp::Mul, l, r) => {
                let (l, r) = (self.affine(l, steps)?, self.affine(r, steps)?);
                let (k, x) = match (l, r) {
                    (Affine { a: 0, n: 0, c }, x) | (x, Affine { a: 0, n: 0, c }) => (c, x),
                    _ => return None,
                };
                Affine {
                    a: x.a.checked_mul(k)?,
                    n: x.n.checked_mul(k)?,
                    c: x.c.checked_mul(k)?,
                }
            }
            _ => return None,
        };
        steps.push(step);
        Some(step)
    }

    /// A guard: comparisons joined by `and`. Each comparison is read as
    /// the sign of the difference of its sides, which the interpreter never
    /// works out: it is not a step.
    fn tests(&self, ir: &Ir, out: &mut Vec<Test>, steps: &mut Vec<Affine>) -> Option<()> {
        let IrKind::Binary(op, l, r) = &ir.kind else {
            return None;
        };
        if *op == BinaryOp::And {
            self.tests(l, out, steps)?;
            return self.tests(r, out, steps);
        }
        let (l, r) = (self.affine(l, steps)?, self.affine(r, steps)?);
        out.push(match op {
            BinaryOp::Lt => Test::Below(l.combine(r, -1)?),
            BinaryOp::Le => Test::AtMost(l.combine(r, -1)?),
            BinaryOp::Gt => Test::Below(r.combine(l, -1)?),
            BinaryOp::Ge => Test::AtMost(r.combine(l, -1)?),
            BinaryOp::Eq => Test::Zero(l.combine(r, -1)?),
            _ => return None,
        });
        Some(())
    }

    /// The heaps a result names: `G(e)`, `G(e1) + G(e2)` or `[G(e1), G(e2)]`.
    fn heaps(&self, ir: &Ir, out: &mut Vec<Affine>, steps: &mut Vec<Affine>) -> Option<()> {
        match &ir.kind {
            IrKind::MakePos(g, args) if *g == self.game && args.len() == 1 => {
                out.push(self.affine(&args[0], steps)?);
            }
            IrKind::Binary(BinaryOp::Add, l, r) => {
                self.heaps(l, out, steps)?;
                self.heaps(r, out, steps)?;
            }
            IrKind::List(items) => {
                for item in items {
                    self.heaps(item, out, steps)?;
                }
            }
            _ => return None,
        }
        (out.len() <= 2).then_some(())
    }
}

/// The values a generator over fixed numbers takes: a constant range, a
/// set or list of numbers written out, or a constant holding one.
fn fixed_values(source: &Ir, consts: &[Value]) -> Option<Vec<i64>> {
    const MOST: usize = 64;
    let fixed = |value: &Value| -> Option<Vec<i64>> {
        match value {
            Value::Set(items) | Value::List(items) => items
                .iter()
                .map(|v| match v {
                    Value::Int(n) => Some(*n),
                    _ => None,
                })
                .collect(),
            Value::Range(lo, hi) if hi.saturating_sub(*lo) <= MOST as i64 => {
                Some((*lo..*hi).collect())
            }
            _ => None,
        }
    };
    let values = match &source.kind {
        IrKind::Binary(op @ (BinaryOp::RangeExclusive | BinaryOp::RangeInclusive), lo, hi) => {
            let (IrKind::Lit(Value::Int(lo)), IrKind::Lit(Value::Int(hi))) = (&lo.kind, &hi.kind)
            else {
                return None;
            };
            let hi = if *op == BinaryOp::RangeInclusive {
                hi.checked_add(1)?
            } else {
                *hi
            };
            if hi.saturating_sub(*lo) > MOST as i64 {
                return None;
            }
            (*lo..hi).collect()
        }
        IrKind::Set(items) | IrKind::List(items) => items
            .iter()
            .map(|i| match i.kind {
                IrKind::Lit(Value::Int(n)) => Some(n),
                _ => None,
            })
            .collect::<Option<Vec<_>>>()?,
        // A constant, or a game's argument fixed for a table.
        IrKind::Const(c) => fixed(consts.get(*c as usize)?)?,
        IrKind::Lit(value) => fixed(value)?,
        _ => return None,
    };
    (values.len() <= MOST).then_some(values)
}

/// One move rule as arithmetic: one `Rule` for each choice of the values of
/// its fixed generators.
fn rules(game: u32, m: &MoveIr, consts: &[Value], out: &mut Vec<Rule>) -> Compiled<()> {
    let (last, fixed) = match m.generators.split_last() {
        None => (None, &[][..]),
        Some((last, fixed)) => (Some(last), fixed),
    };
    let choices: Vec<(u32, Vec<i64>)> = fixed
        .iter()
        .map(|g| {
            let values = fixed_values(&g.source, consts).or_unsupported(FIXED, g.source.span)?;
            Ok((g.slot, values))
        })
        .collect::<Compiled<_>>()?;
    // Every combination of the fixed generators' values.
    let mut combos: Vec<Vec<(u32, i64)>> = vec![Vec::new()];
    for (slot, values) in &choices {
        combos = combos
            .iter()
            .flat_map(|c| {
                values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push((*slot, *v));
                    c
                })
            })
            .collect();
        if combos.len() > 256 {
            return Err(Unsupported::new(
                "more than 256 choices of the generators before the last one",
                m.span,
            ));
        }
    }
    for fixed in combos {
        let mut reader = Reader {
            game,
            a_slot: last.map(|g| g.slot),
            fixed,
        };
        let mut bounds = Vec::new();
        let (lo, hi) = match last {
            None => (Affine { a: 0, n: 0, c: 0 }, Affine { a: 0, n: 0, c: 1 }),
            Some(g) => match &g.source.kind {
                IrKind::Binary(
                    op @ (BinaryOp::RangeExclusive | BinaryOp::RangeInclusive),
                    lo,
                    hi,
                ) => {
                    let lo = reader
                        .affine(lo, &mut bounds)
                        .or_unsupported(RANGE, g.source.span)?;
                    let mut hi = reader
                        .affine(hi, &mut bounds)
                        .or_unsupported(RANGE, g.source.span)?;
                    if *op == BinaryOp::RangeInclusive {
                        // The interpreter works out the bound past the last.
                        hi.c = hi.c.checked_add(1).or_unsupported(RANGE, g.source.span)?;
                        bounds.push(hi);
                    }
                    if lo.a != 0 || hi.a != 0 {
                        return Err(Unsupported::new(RANGE, g.source.span));
                    }
                    (lo, hi)
                }
                _ => {
                    // The last generator ranges over fixed values too: read
                    // it as `a` taking each of them in turn.
                    let values =
                        fixed_values(&g.source, consts).or_unsupported(FIXED, g.source.span)?;
                    reader.a_slot = None;
                    for v in values {
                        reader.fixed.push((g.slot, v));
                        rules_with(
                            &reader,
                            m,
                            Affine { a: 0, n: 0, c: 0 },
                            Affine { a: 0, n: 0, c: 1 },
                            Vec::new(),
                            out,
                        )?;
                        reader.fixed.pop();
                    }
                    continue;
                }
            },
        };
        rules_with(&reader, m, lo, hi, bounds, out)?;
    }
    Ok(())
}

fn rules_with(
    reader: &Reader,
    m: &MoveIr,
    lo: Affine,
    hi: Affine,
    bounds: Vec<Affine>,
    out: &mut Vec<Rule>,
) -> Compiled<()> {
    let mut steps = Steps {
        bounds,
        ..Steps::default()
    };
    let mut tests = Vec::new();
    if let Some(guard) = &m.guard {
        if reader.tests(guard, &mut tests, &mut steps.guard).is_none() {
            return Err(Unsupported::new(GUARD, unread_test(reader, guard).span));
        }
    }
    let mut heaps = Vec::new();
    if reader
        .heaps(&m.result, &mut heaps, &mut steps.result)
        .is_none()
    {
        return Err(Unsupported::new(
            RESULT,
            unread_heap(reader, &m.result).span,
        ));
    }
    out.push(Rule {
        lo,
        hi,
        steps,
        tests,
        heaps,
    });
    Ok(())
}

/// The first comparison of a guard the reader cannot read (the whole guard
/// when its parts each read).
fn unread_test<'a>(reader: &Reader, guard: &'a Ir) -> &'a Ir {
    if let IrKind::Binary(BinaryOp::And, l, r) = &guard.kind {
        for part in [l, r] {
            if reader
                .tests(part, &mut Vec::new(), &mut Vec::new())
                .is_none()
            {
                return unread_test(reader, part);
            }
        }
    }
    guard
}

/// The first heap of a result the reader cannot read (the whole result
/// when it names too many heaps).
fn unread_heap<'a>(reader: &Reader, result: &'a Ir) -> &'a Ir {
    let parts: Vec<&Ir> = match &result.kind {
        IrKind::Binary(BinaryOp::Add, l, r) => vec![l, r],
        IrKind::List(items) => items.iter().collect(),
        _ => return result,
    };
    parts
        .into_iter()
        .find(|p| reader.heaps(p, &mut Vec::new(), &mut Vec::new()).is_none())
        .map_or(result, |p| unread_heap(reader, p))
}

/// The game's rules as arithmetic, if they all have the affine shape.
pub fn recognise(game: &GameIr, id: u32, consts: &[Value]) -> Compiled<AffineGame> {
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
                "an alias (the heap-rule reader reads move rules)",
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
    let mut out = Vec::new();
    for m in moves {
        rules(id, m, consts, &mut out)?;
    }
    Ok(AffineGame { rules: out })
}

/// What the reader accepts, for the reasons it gives.
const FIXED: &str = "a generator the heap-rule reader cannot read: before the last, it reads \
     ranges of constants, sets and lists of numbers written out, and constants holding them \
     (at most 64 values)";
const RANGE: &str = "a range the heap-rule reader cannot read: its ends must be sums of the \
     heap, earlier generators and constants";
const GUARD: &str = "a condition the heap-rule reader cannot read: it reads comparisons (<, <=, \
     >, >=, ==) of sums of the heap, the generators and constants, joined by `and`";
const RESULT: &str = "a result the heap-rule reader cannot read: it reads one or two heaps of \
     the same game, as `G(e)`, `G(e1) + G(e2)` or `[G(e1), G(e2)]`, each heap a sum of the \
     heap, the generators and constants";

/// The part of `lo..hi` where `k·a + r < 0` (or `<= 0`) holds. Worked
/// out in 128 bits, where no step can overflow.
fn narrow(lo: i64, hi: i64, k: i64, r: i64, strict: bool) -> (i64, i64) {
    let (k, r) = (i128::from(k), i128::from(r));
    // k·a + r < 0  <=>  k·a < -r ; for `<=`, k·a <= -r.
    let bound = if strict { -r - 1 } else { -r }; // k·a <= bound
                                                  // Into `lo..=hi` (an empty range stays empty).
    let clamp = |x: i128| x.max(i128::from(lo)).min(i128::from(hi)) as i64;
    match k.cmp(&0) {
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
        let exact = |last: i64| self.rules.iter().all(|r| r.exact_through(last));
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
    /// every test of its guard. `None` if the interpreter would overflow
    /// on the way (or a test's arithmetic here would).
    fn range(&self, n: i64) -> Option<(i64, i64)> {
        let steps = &self.steps;
        if !steps.bounds.iter().all(|s| s.fits(n, 0, 0)) {
            return None;
        }
        let (lo, hi) = self.narrowed(n)?;
        let (from, to) = (self.lo.at(n, 0)?, self.hi.at(n, 0)?);
        let fit = |group: &[Affine], from: i64, hi: i64| {
            from >= hi || group.iter().all(|s| s.fits(n, from, hi - 1))
        };
        (fit(&steps.guard, from, to) && fit(&steps.result, lo, hi)).then_some((lo, hi))
    }

    /// Whether the interpreter's arithmetic fits in 64 bits at every heap
    /// up to `last`: each step is affine, so over a box of heaps and values
    /// of `a` it is largest and smallest at a corner. The box holds every
    /// `a` of the generator's range at any of those heaps.
    fn exact_through(&self, last: i64) -> bool {
        let ends = [0, last];
        let fits = |s: &Affine, a: i128, n: i64| {
            let v = (i128::from(s.a).checked_mul(a))
                .and_then(|v| v.checked_add(i128::from(s.n) * i128::from(n)))
                .and_then(|v| v.checked_add(i128::from(s.c)));
            v.is_some_and(|v| i64::try_from(v).is_ok())
        };
        let steps = &self.steps;
        if !steps
            .bounds
            .iter()
            .all(|s| ends.iter().all(|&n| fits(s, 0, n)))
        {
            return false;
        }
        // The generator's bounds at both ends (affine in n as well).
        let at_ends = |bound: Affine| Some((bound.at(0, 0)?, bound.at(last, 0)?));
        let (Some(lo), Some(hi)) = (at_ends(self.lo), at_ends(self.hi)) else {
            return false;
        };
        let (lo, hi) = (lo.0.min(lo.1), hi.0.max(hi.1));
        let (first, last_a) = (i128::from(lo), i128::from(hi) - 1);
        first > last_a
            || steps.guard.iter().chain(&steps.result).all(|s| {
                ends.iter()
                    .all(|&n| fits(s, first, n) && fits(s, last_a, n))
            })
    }

    fn narrowed(&self, n: i64) -> Option<(i64, i64)> {
        let (mut lo, mut hi) = (self.lo.at(n, 0)?, self.hi.at(n, 0)?);
        for test in &self.tests {
            let rest = |t: Affine| t.n.checked_mul(n)?.checked_add(t.c);
            match *test {
                Test::Below(t) => (lo, hi) = narrow(lo, hi, t.a, rest(t)?, true),
                Test::AtMost(t) => (lo, hi) = narrow(lo, hi, t.a, rest(t)?, false),
                Test::Zero(t) => {
                    // t == 0: t <= 0 and -t <= 0.
                    (lo, hi) = narrow(lo, hi, t.a, rest(t)?, false);
                    (lo, hi) = narrow(lo, hi, -t.a, rest(t)?.checked_neg()?, false);
                }
            }
        }
        Some((lo, hi))
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
