//! How compiled arithmetic moves as one loop variable counts up. A test
//! such as `k * k <= n` is true for the first values of `k` and false for
//! every value after the first that fails it, so the loop over `k` can end
//! there, and one such as `2 * k >= n` can start where it first holds
//! (`bounds`); a result such as `x - 2 * k` changes by the same step
//! for each value, so the loop's keys form a progression (see
//! `progression`). Both follow from the arithmetic's meaning (the signs of
//! the terms, which registers vary with the variable), not from how the
//! rule is spelled: `n >= k * k`, `not (k * k > n)` and a helper that
//! squares its argument all read the same.
//!
//! The facts hold for exact arithmetic on a variable that is not negative.
//! The code that uses them checks at run time that the variable is not
//! negative and that every comparison's operands are computed without
//! overflow at both ends of the stretch it skips: a term that moves one way
//! lies between its values at the ends, so it cannot overflow in between.

use super::code::{Bind, Num, Rule, Truth};
use crate::syntax::ast::BinaryOp;

/// Which way a number (or a test's truth, true counting as the larger)
/// moves as the variable counts up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trend {
    /// The same for every value of the variable.
    Flat,
    /// Never smaller than before.
    Up,
    /// Never larger than before.
    Down,
}

impl Trend {
    fn flip(self) -> Trend {
        match self {
            Trend::Flat => Trend::Flat,
            Trend::Up => Trend::Down,
            Trend::Down => Trend::Up,
        }
    }

    /// The trend of a sum of terms with these trends, if it has one.
    fn and(self, other: Trend) -> Option<Trend> {
        match (self, other) {
            (Trend::Flat, t) | (t, Trend::Flat) => Some(t),
            (a, b) if a == b => Some(a),
            _ => None,
        }
    }
}

/// What is known of a number as the variable counts up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// `None` when it varies in no known direction.
    pub trend: Option<Trend>,
    pub nonneg: bool,
    pub nonpos: bool,
    /// Whether it is `a + b * k` for numbers `a`, `b` that do not vary.
    pub affine: bool,
}

impl Shape {
    const UNKNOWN: Shape = Shape {
        trend: None,
        nonneg: false,
        nonpos: false,
        affine: false,
    };

    fn flat(nonneg: bool, nonpos: bool) -> Shape {
        Shape {
            trend: Some(Trend::Flat),
            nonneg,
            nonpos,
            affine: true,
        }
    }

    pub fn is_flat(&self) -> bool {
        self.trend == Some(Trend::Flat)
    }

    fn negated(self) -> Shape {
        Shape {
            trend: self.trend.map(Trend::flip),
            nonneg: self.nonpos,
            nonpos: self.nonneg,
            affine: self.affine,
        }
    }

    /// The trend of its size (its distance from zero), where its sign is
    /// known.
    fn size_trend(&self) -> Option<Trend> {
        match (self.trend?, self.nonneg, self.nonpos) {
            (Trend::Flat, ..) => Some(Trend::Flat),
            (t, true, _) => Some(t),
            (t, _, true) => Some(t.flip()),
            _ => None,
        }
    }
}

/// Reads numbers and tests for one loop variable: the registers below
/// `fields` hold the key's fields (natural numbers), `var` the variable,
/// and helpers' arguments bound inside the expression carry their value's
/// shape; every other register is set outside the loop and so is flat.
pub struct Reader {
    var: u32,
    fields: u32,
    bound: Vec<(u32, Shape)>,
}

impl Reader {
    pub fn new(var: u32, fields: u32) -> Reader {
        Reader {
            var,
            fields,
            bound: Vec::new(),
        }
    }

    pub fn num(&mut self, n: &Num) -> Shape {
        use BinaryOp::*;
        match n {
            Num::Lit(v) => Shape::flat(*v >= 0, *v <= 0),
            Num::Reg(r) => self.reg(*r),
            Num::Item(xs, i) => match self.num(i).is_flat() {
                true => Shape::flat(xs.iter().all(|&x| x >= 0), xs.iter().all(|&x| x <= 0)),
                false => Shape::UNKNOWN,
            },
            Num::Field(_, i) | Num::TupleAt(_, i) => {
                // A field of the key is a natural number; a tuple's
                // element may be any number.
                let nonneg = matches!(n, Num::Field(f, _) if f.bias == 0);
                if self.num(i).is_flat() {
                    Shape::flat(nonneg, false)
                } else {
                    Shape::UNKNOWN
                }
            }
            Num::TupleLen(_) | Num::Matches(..) => Shape::flat(true, false),
            Num::SumFields(f) => Shape::flat(f.bias == 0, false),
            Num::SumTuple(_) => Shape::flat(false, false),
            // Code already made into a closure says nothing of its shape
            // (the analysis runs before that, so this is only caution).
            Num::Closure(_) | Num::IndexOf(..) => Shape::UNKNOWN,
            // What a set's mask answers is not followed.
            Num::Ones(_) | Num::Extreme { .. } | Num::Fold(..) => Shape::UNKNOWN,
            Num::Neg(x) => self.num(x).negated(),
            Num::Abs(x) => {
                let x = self.num(x);
                match x.size_trend() {
                    Some(t) => Shape {
                        trend: Some(t),
                        nonneg: true,
                        nonpos: x.nonneg && x.nonpos,
                        affine: x.is_flat() || x.nonneg || x.nonpos,
                    },
                    None => Shape::UNKNOWN,
                }
            }
            Num::Min(xs) | Num::Max(xs) => {
                let min = matches!(n, Num::Min(_));
                let shapes: Vec<Shape> = xs.iter().map(|x| self.num(x)).collect();
                let mut trend = Some(Trend::Flat);
                for s in &shapes {
                    trend = trend.zip(s.trend).and_then(|(a, b)| a.and(b));
                }
                // The least is not negative when all are not, and not
                // positive when one is not; the greatest the other way.
                let all = |f: fn(&Shape) -> bool| shapes.iter().all(f);
                let any = |f: fn(&Shape) -> bool| shapes.iter().any(f);
                Shape {
                    trend,
                    nonneg: if min {
                        all(|s| s.nonneg)
                    } else {
                        any(|s| s.nonneg)
                    },
                    nonpos: if min {
                        any(|s| s.nonpos)
                    } else {
                        all(|s| s.nonpos)
                    },
                    affine: trend == Some(Trend::Flat),
                }
            }
            Num::Binary(op, a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                match op {
                    Add => sum(a, b),
                    Sub => sum(a, b.negated()),
                    Mul => product(a, b),
                    // Dividing by a positive number keeps the order (a
                    // divisor of 0 fails at every value alike).
                    Div | Shr if b.is_flat() && (b.nonneg || *op == Shr) => Shape {
                        trend: a.trend,
                        nonneg: a.nonneg,
                        nonpos: a.nonpos,
                        affine: a.is_flat(),
                    },
                    // A shift left multiplies by a power of two.
                    Shl if b.is_flat() => a,
                    Pow if b.is_flat() && b.nonneg && a.nonneg => Shape {
                        trend: a.trend,
                        nonneg: true,
                        nonpos: false,
                        affine: a.is_flat(),
                    },
                    _ if a.is_flat() && b.is_flat() => Shape::flat(false, false),
                    _ => Shape::UNKNOWN,
                }
            }
            // A test that does not vary takes the same branch at every
            // value: the number moves as that branch does, whichever it is.
            Num::If(c, a, b) => {
                let (c, a, b) = (self.truth(c), self.num(a), self.num(b));
                if c == Some(Trend::Flat) {
                    Shape {
                        trend: a.trend.zip(b.trend).and_then(|(x, y)| x.and(y)),
                        nonneg: a.nonneg && b.nonneg,
                        nonpos: a.nonpos && b.nonpos,
                        affine: a.affine && b.affine,
                    }
                } else {
                    Shape::UNKNOWN
                }
            }
            Num::Let(bind, body) => match self.bind(bind) {
                Some(()) => {
                    let shape = self.num(body);
                    self.bound.pop();
                    shape
                }
                None => Shape::UNKNOWN,
            },
            Num::TextLen(_) | Num::Find(..) | Num::Code(_) => Shape::UNKNOWN,
        }
    }

    fn reg(&self, r: u32) -> Shape {
        if let Some((_, shape)) = self.bound.iter().rev().find(|(b, _)| *b == r) {
            return *shape;
        }
        if r == self.var {
            return Shape {
                trend: Some(Trend::Up),
                nonneg: true,
                nonpos: false,
                affine: true,
            };
        }
        Shape::flat(r < self.fields, false)
    }

    /// A helper's number argument, bound for its body; `None` for other
    /// arguments (not read here).
    fn bind(&mut self, bind: &Bind) -> Option<()> {
        let Bind::Num { reg, value, nat } = bind else {
            return None;
        };
        let mut shape = self.num(value);
        // A natural argument that is negative fails (at the ends too).
        shape.nonneg |= *nat;
        self.bound.push((*reg, shape));
        Some(())
    }

    /// Which way a test's truth moves (true counting as the larger).
    pub fn truth(&mut self, t: &Truth) -> Option<Trend> {
        use BinaryOp::*;
        match t {
            Truth::Lit(_) => Some(Trend::Flat),
            Truth::Not(x) => self.truth(x).map(Trend::flip),
            Truth::And(a, b) | Truth::Or(a, b) => self.truth(a)?.and(self.truth(b)?),
            Truth::Compare(op, a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                // `a < b` and `a <= b` hold while `a - b` is small enough.
                let below = |a: Shape, b: Shape| Some(sum(a, b.negated()).trend?.flip());
                match op {
                    Lt | Le => below(a, b),
                    Gt | Ge => below(b, a),
                    _ if a.is_flat() && b.is_flat() => Some(Trend::Flat),
                    _ => None,
                }
            }
            Truth::In(_, n, _) => self.num(n).is_flat().then_some(Trend::Flat),
            Truth::Member(..) => None,
            Truth::Let(bind, body) => {
                self.bind(bind)?;
                let trend = self.truth(body);
                self.bound.pop();
                trend
            }
            Truth::SameChar(..)
            | Truth::Has(..)
            | Truth::SameText(..)
            | Truth::HasText(..)
            | Truth::Each { .. }
            | Truth::Closure(_) => None,
        }
    }
}

fn sum(a: Shape, b: Shape) -> Shape {
    Shape {
        trend: a.trend.zip(b.trend).and_then(|(x, y)| x.and(y)),
        nonneg: a.nonneg && b.nonneg,
        nonpos: a.nonpos && b.nonpos,
        affine: a.affine && b.affine,
    }
}

fn product(a: Shape, b: Shape) -> Shape {
    let nonneg = (a.nonneg && b.nonneg) || (a.nonpos && b.nonpos);
    let nonpos = (a.nonneg && b.nonpos) || (a.nonpos && b.nonneg);
    // The product's size moves as both sizes do; its sign says which way
    // that moves the product.
    let size = a
        .size_trend()
        .zip(b.size_trend())
        .and_then(|(x, y)| x.and(y));
    let trend = match size {
        Some(Trend::Flat) => Some(Trend::Flat),
        Some(t) if nonneg => Some(t),
        Some(t) if nonpos => Some(t.flip()),
        _ => None,
    };
    Shape {
        trend,
        nonneg,
        nonpos,
        affine: (a.is_flat() && b.affine) || (b.is_flat() && a.affine),
    }
}

/// For each of the rule's generators that walks a range, or a set's
/// numbers (in order, the least first), into a register, a test to make
/// as soon as it is set whose truth changes at most once along the
/// values: the conjuncts of the tests made there (the early tests, or the
/// guard for the last generator) that only fall, or failing those, that
/// only rise, moved to the front where the conjuncts left before them
/// cannot fail. They are taken out of those tests, which keep the rest.
pub fn bounds(rule: &mut Rule, fields: u32) {
    use super::code::{Seq, Source, Target};
    let mut bounds = Vec::with_capacity(rule.gens.len());
    for d in 0..rule.gens.len() {
        let gen = &rule.gens[d];
        let var = match (&gen.source, gen.target) {
            (Source::Each(Seq::Range(..)), Target::Reg(r)) => r,
            (Source::Each(Seq::Items(xs)), Target::Reg(r)) if xs.is_sorted() => r,
            _ => {
                bounds.push(None);
                continue;
            }
        };
        let Some(tests) = rule.tests_after(d) else {
            bounds.push(None);
            continue;
        };
        bounds.push(take_bound(tests, &mut Reader::new(var, fields)));
    }
    rule.bounds = bounds;
}

/// The bound among `tests`' conjuncts, taken out of them.
fn take_bound(tests: &mut Option<Truth>, reader: &mut Reader) -> Option<Truth> {
    let mut conjuncts = Vec::new();
    tests.take()?.conjuncts(&mut conjuncts);
    // A conjunct the lowering cannot copy is no bound: a bound runs as
    // closures made of its copy (see `bound_runs`).
    let trends: Vec<Option<Trend>> = conjuncts
        .iter()
        .map(|c| reader.truth(c).filter(|_| c.copy().is_some()))
        .collect();
    // Every conjunct that moves one way and that no conjunct left behind
    // it could have kept from being made (by failing), together: tests
    // that all fall (or all rise) fall (or rise) together, as Wythoff's
    // `k * dx <= x and k * dy <= y` does for each step (dx, dy). One that
    // ends the loop is worth more than one that starts it late.
    let takes = |want: Trend| {
        let mut blocked = false;
        let mut taken = vec![false; conjuncts.len()];
        for (i, c) in conjuncts.iter().enumerate() {
            if !blocked && trends[i] == Some(want) {
                taken[i] = true;
            } else {
                blocked |= !cannot_fail(c);
            }
        }
        taken
    };
    let taken = [Trend::Down, Trend::Up]
        .into_iter()
        .map(takes)
        .find(|taken| taken.contains(&true))
        .unwrap_or_else(|| vec![false; conjuncts.len()]);
    let (mut bound, mut kept) = (Vec::new(), Vec::new());
    for (c, taken) in conjuncts.into_iter().zip(taken) {
        if taken {
            bound.push(c);
        } else {
            kept.push(c);
        }
    }
    *tests = Truth::all(kept);
    Truth::all(bound)
}

/// Whether a test can be made without an error for any registers: a
/// comparison of literals and registers.
fn cannot_fail(t: &Truth) -> bool {
    let plain = |n: &Num| matches!(n, Num::Lit(_) | Num::Reg(_));
    match t {
        Truth::Lit(_) => true,
        Truth::Not(x) => cannot_fail(x),
        Truth::And(a, b) | Truth::Or(a, b) => cannot_fail(a) && cannot_fail(b),
        Truth::Compare(_, a, b) => plain(a) && plain(b),
        Truth::In(_, n, _) => plain(n),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::super::code::Target;
    use super::super::testing::{compiled, inside};
    use super::{Reader, Trend};
    use crate::solve::dense::written_out;

    /// Which way the bound found for `move m(k in 1..=n) if GUARD` moves:
    /// `Down` ends the loop at its first failure, `Up` starts it at its
    /// first success.
    fn bound(guard: &str) -> Option<Trend> {
        let text = format!(
            "fn sq(k: nat) = k * k;\n\
             game G(n: nat) {{ move m(k in 1..=n) if {guard} => G(n - 1); }}"
        );
        let (game, _) = compiled(&text, "G(50)", true);
        let game = inside(&*game);
        let rule = &game.code.rules[0];
        let Target::Reg(var) = rule.gens[0].target else {
            panic!("a range into a register");
        };
        let test = rule.bounds[0].as_ref()?;
        Reader::new(var, game.layout.fields).truth(test)
    }

    #[test]
    fn tests_that_only_fall_end_the_loop_however_spelled() {
        for guard in [
            "k * k <= n",
            "n >= k * k",
            "k + k * k <= n",
            "not (k * k > n)",
            "k ** 2 < n",
            "sq(k) <= n",
            "2 * k - n <= 3",
            "(k + 1) * (k + 2) <= n",
            "k / 2 <= n / 3",
            "max(k, 3) <= n",
            "n - k * k >= 0 - n",
            "k * k <= n or 2 * k < n",
            "k < n and k * k < n + 7",
            "(0 - k) * (0 - k) <= n",
            "0 - k >= 0 - n",
            "k >= 1 and k * k <= n",
        ] {
            assert_eq!(
                bound(guard),
                Some(Trend::Down),
                "`{guard}` should end the loop"
            );
        }
    }

    #[test]
    fn tests_that_only_rise_start_the_loop_late() {
        // (`k >= n` itself starts the range at `n`: see `facts`.)
        for guard in [
            "k >= n - 1",
            "2 * k >= n",
            "k * k > n",
            "not (k < n / 2)",
            "sq(k) + k >= n and k != 7",
        ] {
            assert_eq!(bound(guard), Some(Trend::Up), "`{guard}` should start late");
        }
    }

    #[test]
    fn tests_that_may_change_again_bound_nothing() {
        for guard in [
            "k % 3 <= n",
            "k * k == n",
            "k * (8 - k) <= n",
            "(k - 4) * (k - 4) <= n",
            "k & 3 <= n",
            "abs(k - 5) <= n",
            "k * k <= n or k == 5",
            "n % k == 0",
            "k <= n / 2 or k >= n - 2",
            // Conjuncts before the bound that may fail keep their place.
            "n / (k - 1) > 0 and k * k <= n",
        ] {
            assert_eq!(bound(guard), None, "`{guard}` must not bound the loop");
        }
    }

    /// The options of `position` (runs written out), its key, and the
    /// steps the compiled code took to list them.
    fn options_of(text: &str, position: &str) -> (Vec<u64>, u64, usize) {
        let (mut game, key) = compiled(text, position, true);
        let mut out = Vec::new();
        game.options(key, &mut out).expect("options");
        let steps = inside(&*game).machine.steps_taken();
        (written_out(&out), key, steps)
    }

    /// `k >= n - 5` from 10^6: six options, found in about six steps.
    #[test]
    fn the_loop_starts_where_the_test_first_holds() {
        let text = "game S(n: nat) { move m(k in 1..=n) if k + 5 >= n => S(n - k); }";
        let (options, key, steps) = options_of(text, "S(1000000)");
        let want: Vec<u64> = (999_995..=1_000_000).map(|k| key - k).collect();
        assert_eq!(options, want);
        assert!(steps <= 6, "{steps} steps");
    }

    /// Squares from 10^6: the thousand options, found in about a thousand
    /// steps rather than a million.
    #[test]
    fn the_loop_stops_at_the_first_failure() {
        let text = "game S(n: nat) { move m(k in 1..=n) if k * k <= n => S(n - k * k); }";
        let (options, key, steps) = options_of(text, "S(1000000)");
        let want: Vec<u64> = (1..=1000).map(|k| key - k * k).collect();
        assert_eq!(options, want);
        assert!(steps <= 1001, "{steps} steps");
    }

    /// A set's numbers are walked least first: the walk ends at the first
    /// too large to take.
    #[test]
    fn the_walk_over_a_set_stops_at_the_first_failure() {
        let text = "game S(s: {nat}, n: nat) { move m(k in s) if k <= n => S(s, n - k); }";
        let set: Vec<String> = (1..=500).map(|k| k.to_string()).collect();
        let position = format!("S({{{}}}, 40)", set.join(", "));
        let (options, key, steps) = options_of(text, &position);
        let want: Vec<u64> = (1..=40).map(|k| key - k).collect();
        assert_eq!(options, want);
        assert!(steps <= 41, "{steps} steps");
    }
}
