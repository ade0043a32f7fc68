//! A move rule read as arithmetic by what it means rather than how it is
//! spelled. The rule is run symbolically: the heap `n` and the one
//! generator whose range grows with the heap (`a`) stay unknown, and
//! everything else is worked out. A comparison splits the run in two
//! cases, where it holds and where it does not, so `or`, `!=`, `not`,
//! `k in S`, `if`, `max` and `min` each become cases that are conjunctions
//! of linear tests; a helper runs in place on its arguments; a generator
//! over a list of numbers (a constant, a set written out, a short constant
//! range), wherever it stands, takes its values one at a time, and so does
//! a comprehension; a list of positions and a sum are the same. Every case
//! that reaches a result becomes one `Rule`.
//!
//! The interpreter computes in 64 bits and stops at an overflow, and at a
//! negative argument for a `nat` parameter of a helper. So every number it
//! would work out is kept as a step, with the tests in force where it is
//! worked out: the values computed from the rules are the interpreter's
//! only where no step overflows or turns negative, which `Rule::range`
//! checks at every heap. Whatever this reading cannot follow is declined
//! with the construct and its place, never approximated.

use super::eliminate::{eliminate, Second};
use super::{Affine, Rule, Step, Test};
use crate::eval::builtins::Builtin;
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{CompIr, FnIr, GenIr, Ir, IrKind, MoveIr};
use crate::eval::Value;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;

/// The most cases one rule may split into before the reading gives up.
const MOST_CASES: usize = 1024;
/// The longest constant range a generator or comprehension is unrolled
/// over (a longer one is the generator `a`).
const MOST_UNROLLED: i64 = 64;
/// How deep helpers may call helpers.
const MOST_DEPTH: usize = 16;

/// What an expression is, symbolically.
#[derive(Clone, Debug)]
enum Sym {
    Num(Affine),
    Bool(bool),
    /// `lo..hi`.
    Range(Affine, Affine),
    /// A list or set, its elements known one by one.
    Items(Vec<Sym>),
    /// Heaps of the game being read: one position, or a sum of them.
    Heaps(Vec<Affine>),
}

type Env = Vec<Option<Sym>>;

/// One way through a rule: the tests that hold on it, in the order they
/// are made, and the numbers worked out on it.
#[derive(Clone, Debug, Default)]
struct Case {
    tests: Vec<Test>,
    steps: Vec<Step>,
}

impl Case {
    fn step(&mut self, value: Affine, nat: bool) {
        self.steps.push(Step {
            value,
            nat,
            after: self.tests.len(),
        });
    }

    /// The case where `tests` hold too; `None` if one of them never does.
    fn with(&self, tests: &[Test]) -> Option<Case> {
        let mut case = self.clone();
        for &test in tests {
            match test.constant() {
                Some(true) => {}
                Some(false) => return None,
                None => case.tests.push(test),
            }
        }
        Some(case)
    }
}

/// The rules read so far: the cases that make a move, and those that make
/// none but work numbers out on the way (which must be fine too).
#[derive(Default)]
pub(super) struct Read {
    pub rules: Vec<Rule>,
    pub checks: Vec<Rule>,
}

impl Read {
    /// The case as a rule (a second generator eliminated, `None` if it
    /// cannot be).
    fn rule(case: Case, vars: Vars, heaps: Vec<Affine>, moves: bool) -> Option<Rule> {
        let (lo, hi, first) = match vars.a {
            Some(v) => (v.lo, v.hi, v.first_step),
            None => (constant(0), constant(1), 0),
        };
        let (tests, mut steps, heaps) = match vars.b {
            None => (case.tests, case.steps, heaps),
            Some(second) => eliminate((case.tests, case.steps, heaps), second, moves)?,
        };
        // Steps before `a` are free of `b` too, so still the first ones.
        let body = steps.split_off(first.min(steps.len()));
        Some(Rule {
            lo,
            hi,
            tests,
            heaps,
            bounds: steps,
            steps: body,
        })
    }

    /// A case that makes no move, kept for its steps.
    fn check(&mut self, case: &Case, vars: Vars, span: Span) -> Compiled<()> {
        if !case.steps.is_empty() {
            let rule = Read::rule(case.clone(), vars, Vec::new(), false)
                .ok_or_else(|| Unsupported::new(TWO_RANGES, span))?;
            self.checks.push(rule);
        }
        self.limit(span)
    }

    fn limit(&self, span: Span) -> Compiled<()> {
        if self.rules.len() + self.checks.len() > MOST_CASES {
            return decline(TOO_MANY, span);
        }
        Ok(())
    }
}

/// Values found along each case, the cases a run split into.
type Forks<T> = Vec<(Case, T)>;

/// Where `a` comes from in a rule: its range, and how many steps were
/// worked out before it (once per heap, whatever `a` is).
#[derive(Clone, Copy)]
struct Var {
    lo: Affine,
    hi: Affine,
    first_step: usize,
}

/// The generators over ranges that grow with the heap met so far: `a`,
/// and a second one `b` that each case must fix by an equation.
#[derive(Clone, Copy, Default)]
struct Vars {
    a: Option<Var>,
    b: Option<Second>,
}

pub(super) struct Reader<'a> {
    pub game: u32,
    pub functions: &'a [FnIr],
    pub consts: &'a [Value],
}

fn decline<T>(what: &str, span: Span) -> Compiled<T> {
    Err(Unsupported::new(what, span))
}

const A: Affine = Affine {
    a: 1,
    b: 0,
    n: 0,
    c: 0,
};
const B: Affine = Affine {
    a: 0,
    b: 1,
    n: 0,
    c: 0,
};

fn constant(c: i64) -> Affine {
    Affine {
        c,
        ..Affine::default()
    }
}

impl Reader<'_> {
    /// The rules one move stands for.
    pub fn rules(&self, m: &MoveIr, frame: usize, out: &mut Read) -> Compiled<()> {
        let mut env: Env = vec![None; frame.max(1)];
        env[0] = Some(Sym::Num(Affine {
            n: 1,
            ..Affine::default()
        }));
        self.generators(m, &m.generators, env, Case::default(), Vars::default(), out)
    }

    fn generators(
        &self,
        m: &MoveIr,
        gens: &[GenIr],
        env: Env,
        case: Case,
        vars: Vars,
        out: &mut Read,
    ) -> Compiled<()> {
        let Some((g, rest)) = gens.split_first() else {
            return self.guard_and_result(m, &env, case, vars, out);
        };
        for (case, source) in self.eval(&g.source, &env, case, 0)? {
            if let Some(values) = unrolled(&source) {
                if values.is_empty() {
                    // No move, but the source was worked out.
                    out.check(&case, vars, m.span)?;
                }
                for value in values {
                    let mut env = env.clone();
                    env[g.slot as usize] = Some(value);
                    self.generators(m, rest, env, case.clone(), vars, out)?;
                }
                continue;
            }
            let Sym::Range(lo, hi) = source else {
                return decline(GENERATOR, g.source.span);
            };
            let mut env = env.clone();
            let mut vars = vars;
            match vars.a {
                None if lo.a == 0 && hi.a == 0 && lo.b == 0 && hi.b == 0 => {
                    vars.a = Some(Var {
                        lo,
                        hi,
                        first_step: case.steps.len(),
                    });
                    env[g.slot as usize] = Some(Sym::Num(A));
                }
                Some(_) if vars.b.is_none() && lo.b == 0 && hi.b == 0 => {
                    vars.b = Some(Second {
                        lo,
                        hi,
                        first_test: case.tests.len(),
                    });
                    env[g.slot as usize] = Some(Sym::Num(B));
                }
                _ => return decline(TWO_RANGES, g.source.span),
            }
            self.generators(m, rest, env, case, vars, out)?;
        }
        Ok(())
    }

    fn guard_and_result(
        &self,
        m: &MoveIr,
        env: &Env,
        case: Case,
        vars: Vars,
        out: &mut Read,
    ) -> Compiled<()> {
        let passing = match &m.guard {
            None => vec![case],
            Some(guard) => {
                let mut passing = Vec::new();
                for (case, holds) in self.eval(guard, env, case, 0)? {
                    if truth(&holds, guard.span)? {
                        passing.push(case);
                    } else {
                        // No move, but the guard was worked out.
                        out.check(&case, vars, m.span)?;
                    }
                }
                passing
            }
        };
        for case in passing {
            for (case, result) in self.eval(&m.result, env, case, 0)? {
                let heaps =
                    heaps_of(result).ok_or_else(|| Unsupported::new(RESULT, m.result.span))?;
                let rule = Read::rule(case, vars, heaps, true)
                    .ok_or_else(|| Unsupported::new(TWO_RANGES, m.span))?;
                out.rules.push(rule);
                out.limit(m.span)?;
            }
        }
        Ok(())
    }

    /// The expression's value in each case it splits `case` into.
    fn eval(&self, ir: &Ir, env: &Env, case: Case, depth: usize) -> Compiled<Forks<Sym>> {
        let one = |sym| Ok(vec![(case.clone(), sym)]);
        let forks = match &ir.kind {
            IrKind::Lit(v) => return one(self.value(v, ir.span)?),
            IrKind::Const(c) => match self.consts.get(*c as usize) {
                Some(v) => return one(self.value(v, ir.span)?),
                None => return decline(CONSTANT, ir.span),
            },
            IrKind::Local(slot) => match env.get(*slot as usize).cloned().flatten() {
                Some(sym) => return one(sym),
                None => return decline(VARIABLE, ir.span),
            },
            IrKind::CallFn(f, args) => self.call(*f, args, env, case, depth, ir.span)?,
            IrKind::MakePos(g, args) if *g == self.game && args.len() == 1 => self
                .eval(&args[0], env, case, depth)?
                .into_iter()
                .map(|(case, heap)| match heap {
                    Sym::Num(h) => Ok((case, Sym::Heaps(vec![h]))),
                    _ => decline(HEAP, args[0].span),
                })
                .collect::<Compiled<_>>()?,
            IrKind::MakePos(..) => return decline(OTHER_GAME, ir.span),
            IrKind::List(items) | IrKind::Set(items) => self
                .all(items, env, case, depth)?
                .into_iter()
                .map(|(case, items)| (case, Sym::Items(items)))
                .collect(),
            IrKind::Comprehension { element, clauses } => self
                .comprehension(element, clauses, env.clone(), case, Vec::new(), depth)?
                .into_iter()
                .map(|(case, items)| (case, Sym::Items(items)))
                .collect(),
            IrKind::If(cond, then, otherwise) => {
                let mut forks = Vec::new();
                for (case, holds) in self.eval(cond, env, case, depth)? {
                    let branch = if truth(&holds, cond.span)? {
                        then
                    } else {
                        otherwise
                    };
                    forks.extend(self.eval(branch, env, case, depth)?);
                }
                forks
            }
            IrKind::Unary(op, operand) => self
                .eval(operand, env, case, depth)?
                .into_iter()
                .map(|(mut case, x)| match (op, x) {
                    (UnaryOp::Not, Sym::Bool(b)) => Ok((case, Sym::Bool(!b))),
                    (UnaryOp::Neg, Sym::Num(x)) => {
                        let negated = x.scaled(-1).ok_or_else(|| too_large(ir.span))?;
                        case.step(negated, false);
                        Ok((case, Sym::Num(negated)))
                    }
                    _ => decline(OPERATOR, ir.span),
                })
                .collect::<Compiled<_>>()?,
            IrKind::Binary(op, l, r) => self.binary(*op, l, r, env, case, depth, ir.span)?,
            IrKind::Builtin(b @ (Builtin::Max | Builtin::Min | Builtin::Abs), args) => {
                self.extreme(*b, args, env, case, depth, ir.span)?
            }
            _ => return decline(EXPRESSION, ir.span),
        };
        if forks.len() > MOST_CASES {
            return decline(TOO_MANY, ir.span);
        }
        Ok(forks)
    }

    /// Expressions evaluated in order, in each case they split into.
    fn all(&self, irs: &[Ir], env: &Env, case: Case, depth: usize) -> Compiled<Forks<Vec<Sym>>> {
        let mut forks = vec![(case, Vec::new())];
        for ir in irs {
            let mut next = Vec::new();
            for (case, done) in forks {
                for (case, sym) in self.eval(ir, env, case, depth)? {
                    let mut done = done.clone();
                    done.push(sym);
                    next.push((case, done));
                }
            }
            if next.len() > MOST_CASES {
                return decline(TOO_MANY, ir.span);
            }
            forks = next;
        }
        Ok(forks)
    }

    /// A constant as a symbolic value.
    fn value(&self, v: &Value, span: Span) -> Compiled<Sym> {
        Ok(match v {
            Value::Int(c) => Sym::Num(constant(*c)),
            Value::Bool(b) => Sym::Bool(*b),
            Value::Range(lo, hi) => Sym::Range(constant(*lo), constant(*hi)),
            Value::List(items) | Value::Set(items) if items.len() <= MOST_CASES => Sym::Items(
                items
                    .iter()
                    .map(|v| self.value(v, span))
                    .collect::<Compiled<_>>()?,
            ),
            _ => return decline(CONSTANT, span),
        })
    }

    /// A helper run in place: its arguments worked out (each checked
    /// against a `nat` parameter as the interpreter checks it), then its
    /// body with them.
    fn call(
        &self,
        f: u32,
        args: &[Ir],
        env: &Env,
        case: Case,
        depth: usize,
        span: Span,
    ) -> Compiled<Forks<Sym>> {
        let Some(func) = self.functions.get(f as usize) else {
            return decline(EXPRESSION, span);
        };
        if depth >= MOST_DEPTH {
            return decline(DEEP, span);
        }
        let mut forks = Vec::new();
        for (mut case, values) in self.all(args, env, case, depth)? {
            let mut frame: Env = vec![None; func.frame_size.max(args.len())];
            for ((slot, value), (param, arg)) in frame
                .iter_mut()
                .zip(values)
                .zip(func.params.iter().zip(args))
            {
                conform(&param.ty, &value, &mut case, arg.span)?;
                *slot = Some(value);
            }
            forks.extend(self.eval(&func.body, &frame, case, depth + 1)?);
        }
        Ok(forks)
    }

    #[allow(clippy::too_many_arguments)]
    fn binary(
        &self,
        op: BinaryOp,
        l: &Ir,
        r: &Ir,
        env: &Env,
        case: Case,
        depth: usize,
        span: Span,
    ) -> Compiled<Forks<Sym>> {
        use BinaryOp::*;
        if matches!(op, And | Or) {
            // The right side is worked out only where the left one does not
            // decide.
            let mut forks = Vec::new();
            for (case, left) in self.eval(l, env, case, depth)? {
                if truth(&left, l.span)? == (op == Or) {
                    forks.push((case, left));
                } else {
                    forks.extend(self.eval(r, env, case, depth)?);
                }
            }
            return Ok(forks);
        }
        let mut forks = Vec::new();
        for (mut case, sides) in self.all(&[l.clone(), r.clone()], env, case, depth)? {
            let [x, y]: [Sym; 2] = sides
                .try_into()
                .map_err(|_| Unsupported::new(OPERATOR, span))?;
            match (op, x, y) {
                (Mul, Sym::Num(x), Sym::Num(y)) if !x.is_constant() && !y.is_constant() => {
                    return decline(PRODUCT, span);
                }
                (Add | Sub | Mul, Sym::Num(x), Sym::Num(y)) => {
                    let v = match op {
                        Add => x.combine(y, 1),
                        Sub => x.combine(y, -1),
                        _ => x.times(y),
                    }
                    .ok_or_else(|| too_large(span))?;
                    case.step(v, false);
                    forks.push((case, Sym::Num(v)));
                }
                (Add, Sym::Heaps(mut x), Sym::Heaps(y)) => {
                    x.extend(y);
                    forks.push((case, Sym::Heaps(x)));
                }
                (Eq | Ne | Lt | Le | Gt | Ge, Sym::Num(x), Sym::Num(y)) => {
                    let (yes, no) = compare(op, x, y).ok_or_else(|| too_large(span))?;
                    split(&case, yes, no, &mut forks);
                }
                (Eq | Ne, Sym::Bool(x), Sym::Bool(y)) => {
                    forks.push((case, Sym::Bool((x == y) == (op == Eq))));
                }
                (In | NotIn, Sym::Num(x), collection) => {
                    let (yes, no) = membership(x, &collection)
                        .ok_or_else(|| Unsupported::new(MEMBERSHIP, r.span))?;
                    if op == In {
                        split(&case, yes, no, &mut forks);
                    } else {
                        split(&case, no, yes, &mut forks);
                    }
                }
                (RangeExclusive | RangeInclusive, Sym::Num(lo), Sym::Num(hi)) => {
                    let hi = if op == RangeInclusive {
                        // The interpreter works out the bound past the last.
                        let past = hi.combine(constant(1), 1).ok_or_else(|| too_large(span))?;
                        case.step(past, false);
                        past
                    } else {
                        hi
                    };
                    forks.push((case, Sym::Range(lo, hi)));
                }
                _ => return decline(OPERATOR, span),
            }
        }
        Ok(forks)
    }

    /// `max`, `min` and `abs`: one case for each argument that may be the
    /// answer.
    fn extreme(
        &self,
        b: Builtin,
        args: &[Ir],
        env: &Env,
        case: Case,
        depth: usize,
        span: Span,
    ) -> Compiled<Forks<Sym>> {
        let mut forks = Vec::new();
        for (case, values) in self.all(args, env, case, depth)? {
            let values = match values.as_slice() {
                [Sym::Items(items)] if b != Builtin::Abs => items.clone(),
                _ => values,
            };
            let numbers: Vec<Affine> = values
                .iter()
                .map(|v| match v {
                    Sym::Num(x) => Some(*x),
                    _ => None,
                })
                .collect::<Option<_>>()
                .ok_or_else(|| Unsupported::new(EXTREME, span))?;
            if b == Builtin::Abs {
                let [x] = numbers[..] else {
                    return decline(EXTREME, span);
                };
                let (yes, no) =
                    compare(BinaryOp::Ge, x, constant(0)).ok_or_else(|| too_large(span))?;
                let negated = x.scaled(-1).ok_or_else(|| too_large(span))?;
                for tests in yes {
                    if let Some(c) = case.with(&tests) {
                        forks.push((c, Sym::Num(x)));
                    }
                }
                for tests in no {
                    if let Some(mut c) = case.with(&tests) {
                        c.step(negated, false);
                        forks.push((c, Sym::Num(negated)));
                    }
                }
                continue;
            }
            let Some((&first, rest)) = numbers.split_first() else {
                return decline(EXTREME, span);
            };
            // The answer so far in each case, then each later argument
            // taking over where it is larger (for `max`).
            let mut best = vec![(case, first)];
            let beats = if b == Builtin::Max {
                BinaryOp::Gt
            } else {
                BinaryOp::Lt
            };
            for &y in rest {
                let mut next = Vec::new();
                for (case, x) in best {
                    let (yes, no) = compare(beats, y, x).ok_or_else(|| too_large(span))?;
                    for tests in yes {
                        next.extend(case.with(&tests).map(|c| (c, y)));
                    }
                    for tests in no {
                        next.extend(case.with(&tests).map(|c| (c, x)));
                    }
                }
                best = next;
            }
            forks.extend(best.into_iter().map(|(c, x)| (c, Sym::Num(x))));
        }
        Ok(forks)
    }

    /// A comprehension unrolled over lists it knows element by element:
    /// the elements gathered in each case.
    fn comprehension(
        &self,
        element: &Ir,
        clauses: &[CompIr],
        env: Env,
        case: Case,
        so_far: Vec<Sym>,
        depth: usize,
    ) -> Compiled<Forks<Vec<Sym>>> {
        let Some((clause, rest)) = clauses.split_first() else {
            return Ok(self
                .eval(element, &env, case, depth)?
                .into_iter()
                .map(|(case, sym)| {
                    let mut items = so_far.clone();
                    items.push(sym);
                    (case, items)
                })
                .collect());
        };
        let g = &clause.generator;
        let mut out = Vec::new();
        for (case, source) in self.eval(&g.source, &env, case, depth)? {
            let values =
                unrolled(&source).ok_or_else(|| Unsupported::new(COMPREHENSION, g.source.span))?;
            let mut forks = vec![(case, so_far.clone())];
            for value in values {
                let mut env = env.clone();
                env[g.slot as usize] = Some(value);
                let mut next = Vec::new();
                for (case, items) in forks {
                    let kept = match &clause.guard {
                        None => vec![(case, Sym::Bool(true))],
                        Some(guard) => self.eval(guard, &env, case, depth)?,
                    };
                    for (case, keep) in kept {
                        if truth(&keep, g.source.span)? {
                            next.extend(self.comprehension(
                                element,
                                rest,
                                env.clone(),
                                case,
                                items.clone(),
                                depth,
                            )?);
                        } else {
                            next.push((case, items.clone()));
                        }
                    }
                }
                if next.len() > MOST_CASES {
                    return decline(TOO_MANY, g.source.span);
                }
                forks = next;
            }
            out.extend(forks);
        }
        Ok(out)
    }
}

/// The values a generator takes one at a time: the elements of a list or
/// set, or of a short range with constant ends.
fn unrolled(source: &Sym) -> Option<Vec<Sym>> {
    match source {
        Sym::Items(items) => Some(items.clone()),
        Sym::Range(lo, hi) if lo.is_constant() && hi.is_constant() => (hi.c.saturating_sub(lo.c)
            <= MOST_UNROLLED)
            .then(|| (lo.c..hi.c).map(|v| Sym::Num(constant(v))).collect()),
        _ => None,
    }
}

/// A result's heaps: a position, a sum, or a list of them.
fn heaps_of(result: Sym) -> Option<Vec<Affine>> {
    match result {
        Sym::Heaps(heaps) => Some(heaps),
        Sym::Items(items) => {
            let mut heaps = Vec::new();
            for item in items {
                heaps.extend(heaps_of(item)?);
            }
            Some(heaps)
        }
        _ => None,
    }
}

fn truth(sym: &Sym, span: Span) -> Compiled<bool> {
    match sym {
        Sym::Bool(b) => Ok(*b),
        _ => decline(EXPRESSION, span),
    }
}

/// The interpreter's check of an argument against a helper's parameter:
/// a `nat` must not be negative.
fn conform(ty: &Type, value: &Sym, case: &mut Case, span: Span) -> Compiled<()> {
    match (ty, value) {
        (Type::Nat, Sym::Num(x)) => {
            case.step(*x, true);
            Ok(())
        }
        (Type::Int | Type::Unknown, Sym::Num(_)) | (Type::Bool | Type::Unknown, Sym::Bool(_)) => {
            Ok(())
        }
        (Type::Set(t) | Type::List(t), Sym::Items(items)) => items
            .iter()
            .try_for_each(|item| conform(t, item, case, span)),
        _ => decline(ARGUMENT, span),
    }
}

/// Alternatives, each a conjunction of tests.
type Either = Vec<Vec<Test>>;

/// Where `x op y` holds and where it does not.
fn compare(op: BinaryOp, x: Affine, y: Affine) -> Option<(Either, Either)> {
    use BinaryOp::*;
    let d = x.combine(y, -1)?;
    let minus = d.scaled(-1)?;
    Some(match op {
        Lt => (vec![vec![Test::Below(d)]], vec![vec![Test::AtMost(minus)]]),
        Le => (vec![vec![Test::AtMost(d)]], vec![vec![Test::Below(minus)]]),
        Gt => (vec![vec![Test::Below(minus)]], vec![vec![Test::AtMost(d)]]),
        Ge => (vec![vec![Test::AtMost(minus)]], vec![vec![Test::Below(d)]]),
        Eq => (
            vec![vec![Test::Zero(d)]],
            vec![vec![Test::Below(d)], vec![Test::Below(minus)]],
        ),
        Ne => (
            vec![vec![Test::Below(d)], vec![Test::Below(minus)]],
            vec![vec![Test::Zero(d)]],
        ),
        _ => return None,
    })
}

/// Where `x in collection` holds and where it does not.
fn membership(x: Affine, collection: &Sym) -> Option<(Either, Either)> {
    match collection {
        Sym::Range(lo, hi) => {
            let (above, _) = compare(BinaryOp::Ge, x, *lo)?;
            let (below, _) = compare(BinaryOp::Lt, x, *hi)?;
            let inside = vec![[above[0].clone(), below[0].clone()].concat()];
            let (_, not_above) = compare(BinaryOp::Ge, x, *lo)?;
            let (_, not_below) = compare(BinaryOp::Lt, x, *hi)?;
            Some((inside, [not_above, not_below].concat()))
        }
        Sym::Items(items) => {
            let numbers: Vec<Affine> = items
                .iter()
                .map(|i| match i {
                    Sym::Num(v) => Some(*v),
                    _ => None,
                })
                .collect::<Option<_>>()?;
            let mut yes = Vec::new();
            for &v in &numbers {
                yes.extend(compare(BinaryOp::Eq, x, v)?.0);
            }
            // Outside constants: below the least, between two, above the
            // greatest.
            let mut values: Vec<i64> = numbers
                .iter()
                .map(|v| v.is_constant().then_some(v.c))
                .collect::<Option<_>>()?;
            values.sort_unstable();
            values.dedup();
            let lt = |v: i64| compare(BinaryOp::Lt, x, constant(v)).map(|t| t.0[0].clone());
            let gt = |v: i64| compare(BinaryOp::Gt, x, constant(v)).map(|t| t.0[0].clone());
            let no = match (values.first(), values.last()) {
                (Some(&least), Some(&greatest)) => {
                    let mut no = vec![lt(least)?];
                    for pair in values.windows(2) {
                        no.push([gt(pair[0])?, lt(pair[1])?].concat());
                    }
                    no.push(gt(greatest)?);
                    no
                }
                _ => vec![Vec::new()],
            };
            Some((yes, no))
        }
        _ => None,
    }
}

/// The case split where `yes` holds (true) and where `no` does (false).
fn split(case: &Case, yes: Either, no: Either, forks: &mut Forks<Sym>) {
    for (alternatives, holds) in [(yes, true), (no, false)] {
        for tests in alternatives {
            if let Some(c) = case.with(&tests) {
                forks.push((c, Sym::Bool(holds)));
            }
        }
    }
}

fn too_large(span: Span) -> Unsupported {
    Unsupported::new("arithmetic whose coefficients do not fit in 64 bits", span)
}

/// What the reader accepts, for the reasons it gives.
const GENERATOR: &str = "a generator the heap-rule reader cannot read: it reads ranges, \
     and lists or sets of numbers";
const TWO_RANGES: &str = "generators over ranges that grow with the heap that the heap-rule \
     reader cannot reduce to one: it reads one such range, and a second only where an \
     equation of the guard fixes it (`a + b == n`)";
const RESULT: &str = "a result the heap-rule reader cannot read: it reads positions of the \
     same game, summed or in a list";
const HEAP: &str = "a heap the heap-rule reader cannot read: it reads sums and multiples of \
     the heap, the generators and constants";
const OTHER_GAME: &str = "a position of another game (the heap-rule reader reads moves to \
     heaps of the same game)";
const CONSTANT: &str = "a constant the heap-rule reader cannot read: it reads numbers, \
     booleans, ranges, and lists and sets of numbers";
const VARIABLE: &str = "a variable the heap-rule reader does not follow";
const EXPRESSION: &str = "an expression the heap-rule reader cannot read: it reads sums, \
     differences, multiples by constants, comparisons, `and`, `or`, `not`, `in`, `if`, \
     `max`, `min`, `abs`, helpers, lists, sets and comprehensions over them";
const PRODUCT: &str = "a product of two numbers that both vary: the heap-rule reader reads \
     multiples by constants";
const OPERATOR: &str = "an operator the heap-rule reader cannot read here: it reads `+`, \
     `-`, `*` by a constant, comparisons, `and`, `or`, `not`, `in` and ranges";
const MEMBERSHIP: &str = "a test of membership the heap-rule reader cannot read: it reads \
     ranges, and lists and sets of numbers (written out or constant)";
const EXTREME: &str = "`max`, `min` or `abs` of something other than numbers";
const COMPREHENSION: &str = "a comprehension over something other than a list or set of \
     numbers or a short constant range";
const ARGUMENT: &str = "an argument of a helper the heap-rule reader cannot read";
const DEEP: &str = "helpers calling helpers too deep for the heap-rule reader";
const TOO_MANY: &str = "a rule that splits into more than 1024 cases";
