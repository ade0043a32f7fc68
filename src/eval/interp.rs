//! The interpreter: evaluates compiled expressions, builds positions and
//! runs move rules to list a position's options.

use super::builtins::{self, Builtin, MAX_COLLECTION};
use super::ir::{CompIr, GameKind, GenIr, Ir, IrKind, MoveIr, Program};
use super::positions::{GameId, PosId, Positions};
use super::show;
use super::value::Value;
use crate::error::{Error, ErrorKind};
use crate::solve::{Move, Rules, Solver};
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;
use std::sync::Arc;

/// Helper functions may call each other this deep before we stop them.
const MAX_CALL_DEPTH: usize = 2_000;

type Result<T> = std::result::Result<T, Error>;

/// A frame of local variables: parameters first, then bound variables.
pub type Env = Vec<Value>;

/// How many distinct positions a session may create unless told otherwise.
pub const DEFAULT_MAX_POSITIONS: usize = 4_000_000;

pub struct Interp {
    pub program: Arc<Program>,
    pub positions: Positions,
    pub consts: Vec<Value>,
    pub solver: Solver,
    /// Creating more positions than this is an error rather than a search
    /// that exhausts memory (an infinite game never finishes).
    pub max_positions: usize,
    depth: usize,
}

impl Default for Interp {
    fn default() -> Interp {
        Interp {
            program: Arc::default(),
            positions: Positions::default(),
            consts: Vec::new(),
            solver: Solver::default(),
            max_positions: DEFAULT_MAX_POSITIONS,
            depth: 0,
        }
    }
}

impl Interp {
    pub fn new(program: Arc<Program>) -> Interp {
        Interp {
            program,
            ..Interp::default()
        }
    }

    /// Replaces the program (a REPL definition or a reload). Positions and
    /// values computed so far may no longer hold, so they are dropped.
    pub fn set_program(&mut self, program: Arc<Program>) {
        self.program = program;
        self.positions.clear();
        self.solver = Solver::default();
    }

    /// Evaluates the constants the program does not have values for yet.
    pub fn eval_consts(&mut self) -> Result<()> {
        let program = self.program.clone();
        for c in program.consts.iter().skip(self.consts.len()) {
            let mut env = vec![Value::Int(0); c.frame_size];
            let v = self.eval(&c.value, &mut env)?;
            self.consts.push(v);
        }
        Ok(())
    }

    /// Runs `f` with the solver lent out, so that it may call back into us.
    pub fn with_solver<T>(&mut self, f: impl FnOnce(&mut Solver, &mut Interp) -> T) -> T {
        let mut solver = std::mem::take(&mut self.solver);
        let result = f(&mut solver, self);
        self.solver = solver;
        result
    }

    pub fn show(&self, v: &Value) -> String {
        show::value(&self.program, &self.positions, v)
    }

    pub fn show_pos(&self, id: PosId) -> String {
        show::position(&self.program, &self.positions, id)
    }

    pub fn eval(&mut self, ir: &Ir, env: &mut Env) -> Result<Value> {
        let at = |kind: ErrorKind| Error::new(kind, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(v) => v.clone(),
            IrKind::Local(slot) => env[*slot as usize].clone(),
            IrKind::Const(i) => self.consts.get(*i as usize).cloned().ok_or_else(|| {
                at(ErrorKind::BadValue {
                    detail: "this constant is used before its value is known".into(),
                })
            })?,
            IrKind::CallFn(f, args) => {
                let program = self.program.clone();
                let func = &program.functions[*f as usize];
                let mut frame = vec![Value::Int(0); func.frame_size.max(args.len())];
                for ((slot, a), param) in frame.iter_mut().zip(args).zip(&func.params) {
                    let v = self.eval(a, env)?;
                    *slot =
                        conform(&param.name, &param.ty, v).map_err(|k| Error::new(k, a.span))?;
                }
                if self.depth >= MAX_CALL_DEPTH {
                    return Err(at(ErrorKind::RecursionTooDeep {
                        limit: MAX_CALL_DEPTH,
                    }));
                }
                self.depth += 1;
                // Helpers may recurse; grow the stack rather than overflow
                // it, whatever thread the library runs on.
                let result = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
                    self.eval(&func.body, &mut frame)
                });
                self.depth -= 1;
                result?
            }
            IrKind::MakePos(g, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                self.make_position(*g, values, ir.span)?
            }
            IrKind::Builtin(b, args) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                if b.is_query() {
                    self.query(*b, &values, ir.span)?
                } else {
                    b.call(&values).map_err(at)?
                }
            }
            IrKind::List(items) => {
                let mut values = Vec::with_capacity(items.len());
                for a in items {
                    values.push(self.eval(a, env)?);
                }
                Value::list(values)
            }
            IrKind::Set(items) => {
                let mut values = Vec::with_capacity(items.len());
                for a in items {
                    values.push(self.eval(a, env)?.materialize());
                }
                Value::set(values)
            }
            IrKind::Tuple(items) => {
                let mut values = Vec::with_capacity(items.len());
                for a in items {
                    values.push(self.eval(a, env)?);
                }
                Value::Tuple(values.into())
            }
            IrKind::Comprehension { element, clauses } => {
                let mut out = Vec::new();
                self.comprehension(element, clauses, env, &mut out)?;
                Value::list(out)
            }
            IrKind::If(cond, then, otherwise) => {
                if self.eval_bool(cond, env)? {
                    self.eval(then, env)?
                } else {
                    self.eval(otherwise, env)?
                }
            }
            IrKind::Unary(op, operand) => {
                let v = self.eval(operand, env)?;
                match (op, v) {
                    (UnaryOp::Neg, Value::Int(n)) => {
                        Value::Int(n.checked_neg().ok_or_else(|| {
                            at(ErrorKind::Overflow {
                                detail: format!("-({n})"),
                            })
                        })?)
                    }
                    (UnaryOp::Not, Value::Bool(b)) => Value::Bool(!b),
                    (op, v) => {
                        return Err(Error::new(
                            ErrorKind::WrongType {
                                expected: if *op == UnaryOp::Neg {
                                    "a number"
                                } else {
                                    "a boolean"
                                }
                                .into(),
                                found: v.kind().into(),
                            },
                            operand.span,
                        ))
                    }
                }
            }
            IrKind::Binary(op, lhs, rhs) => self.binary(*op, lhs, rhs, env, ir.span)?,
            IrKind::Index(target, index) => {
                let t = self.eval(target, env)?;
                let i = self.eval(index, env)?;
                let i = builtins::int(&i).map_err(|k| Error::new(k, index.span))?;
                element_at(&t, i).map_err(|k| Error::new(k, index.span))?
            }
        })
    }

    pub fn eval_bool(&mut self, ir: &Ir, env: &mut Env) -> Result<bool> {
        match self.eval(ir, env)? {
            Value::Bool(b) => Ok(b),
            other => Err(Error::new(
                ErrorKind::WrongType {
                    expected: "a boolean".into(),
                    found: other.kind().into(),
                },
                ir.span,
            )),
        }
    }

    /// Calls `each` with `var` bound to every element of the generator's
    /// source in turn. Ranges are walked without being built.
    pub fn for_each(
        &mut self,
        generator: &GenIr,
        env: &mut Env,
        each: &mut dyn FnMut(&mut Interp, &mut Env) -> Result<()>,
    ) -> Result<()> {
        let source = self.eval(&generator.source, env)?;
        let slot = generator.slot as usize;
        let stop = || Error::new(ErrorKind::Interrupted, generator.source.span);
        if let Value::Range(lo, hi) = source {
            let mut i = lo;
            while i < hi {
                if crate::interrupt::requested() {
                    return Err(stop());
                }
                env[slot] = Value::Int(i);
                each(self, env)?;
                i += 1;
            }
            return Ok(());
        }
        let items = match &source {
            Value::Pos(parts) => parts.iter().map(|p| Value::Pos(Arc::from([*p]))).collect(),
            other => builtins::elements(other).map_err(|k| Error::new(k, generator.source.span))?,
        };
        for item in items {
            if crate::interrupt::requested() {
                return Err(stop());
            }
            env[slot] = item;
            each(self, env)?;
        }
        Ok(())
    }

    fn comprehension(
        &mut self,
        element: &Ir,
        clauses: &[CompIr],
        env: &mut Env,
        out: &mut Vec<Value>,
    ) -> Result<()> {
        let Some((clause, rest)) = clauses.split_first() else {
            if out.len() >= MAX_COLLECTION {
                return Err(Error::new(
                    ErrorKind::TooLarge {
                        what: "this list".into(),
                        size: format!("more than {MAX_COLLECTION} elements"),
                        limit: MAX_COLLECTION.to_string(),
                    },
                    element.span,
                ));
            }
            let v = self.eval(element, env)?;
            out.push(v);
            return Ok(());
        };
        self.for_each(&clause.generator, env, &mut |me, env| {
            if let Some(guard) = &clause.guard {
                if !me.eval_bool(guard, env)? {
                    return Ok(());
                }
            }
            me.comprehension(element, rest, env, out)
        })
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &Ir,
        rhs: &Ir,
        env: &mut Env,
        span: Span,
    ) -> Result<Value> {
        use BinaryOp::*;
        if matches!(op, And | Or) {
            let l = self.eval_bool(lhs, env)?;
            if (op == And) != l {
                return Ok(Value::Bool(l));
            }
            return Ok(Value::Bool(self.eval_bool(rhs, env)?));
        }
        let l = self.eval(lhs, env)?;
        let r = self.eval(rhs, env)?;
        // Numbers are by far the most common operands: no clones, no
        // closures for them.
        if let (Value::Int(a), Value::Int(b)) = (&l, &r) {
            if let Some(v) = int_fast_path(op, *a, *b) {
                return Ok(v);
            }
        }
        let wrong = |side: &Ir, expected: &str, v: &Value| {
            Error::new(
                ErrorKind::WrongType {
                    expected: expected.into(),
                    found: v.kind().into(),
                },
                side.span,
            )
        };
        let overflow = || {
            Error::new(
                ErrorKind::Overflow {
                    detail: format!("{} {} {}", self.show(&l), op.symbol(), self.show(&r)),
                },
                span,
            )
        };
        Ok(match op {
            Eq => Value::Bool(l.same(&r)),
            Ne => Value::Bool(!l.same(&r)),
            Lt | Le | Gt | Ge => {
                let (a, b) = (l.materialize(), r.materialize());
                let ord = a.cmp(&b);
                Value::Bool(match op {
                    Lt => ord.is_lt(),
                    Le => ord.is_le(),
                    Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                })
            }
            In | NotIn => {
                let found = match (&l, &r) {
                    (Value::Int(n), Value::Range(lo, hi)) => lo <= n && n < hi,
                    (Value::Str(sub), Value::Str(s)) => s.contains(&**sub),
                    (v, Value::Set(xs)) => xs.binary_search(v).is_ok(),
                    (v, c) => builtins::elements(c)
                        .map_err(|k| Error::new(k, rhs.span))?
                        .iter()
                        .any(|x| x.same(v)),
                };
                Value::Bool(found == (op == In))
            }
            RangeExclusive | RangeInclusive => {
                let a = builtins::int(&l).map_err(|_| wrong(lhs, "a number", &l))?;
                let b = builtins::int(&r).map_err(|_| wrong(rhs, "a number", &r))?;
                let hi = if op == RangeInclusive {
                    b.checked_add(1).ok_or_else(overflow)?
                } else {
                    b
                };
                Value::Range(a, hi)
            }
            Add => match (&l, &r) {
                (Value::Int(a), Value::Int(b)) => {
                    Value::Int(a.checked_add(*b).ok_or_else(overflow)?)
                }
                (Value::Str(a), Value::Str(b)) => Value::str(&format!("{a}{b}")),
                (Value::List(_) | Value::Range(..), Value::List(_) | Value::Range(..)) => {
                    let mut items = builtins::elements(&l).map_err(|k| Error::new(k, lhs.span))?;
                    items.extend(builtins::elements(&r).map_err(|k| Error::new(k, rhs.span))?);
                    Value::list(items)
                }
                (Value::Pos(a), Value::Pos(b)) => {
                    let parts: Vec<PosId> = a.iter().chain(b.iter()).copied().collect();
                    self.sum_of(parts, span)?
                }
                (Value::Int(_) | Value::Str(_) | Value::List(_) | Value::Pos(_), other) => {
                    return Err(wrong(rhs, l.kind(), other))
                }
                (other, _) => return Err(wrong(lhs, "a number, string, list or position", other)),
            },
            Sub | Mul | Div | Rem | BitOr | BitXor | BitAnd | Shl | Shr => {
                let a = builtins::int(&l).map_err(|_| wrong(lhs, "a number", &l))?;
                let b = builtins::int(&r).map_err(|_| wrong(rhs, "a number", &r))?;
                let zero = || Error::new(ErrorKind::DivisionByZero, rhs.span);
                Value::Int(match op {
                    Sub => a.checked_sub(b).ok_or_else(overflow)?,
                    Mul => a.checked_mul(b).ok_or_else(overflow)?,
                    Div if b == 0 => return Err(zero()),
                    Div => a.checked_div_euclid(b).ok_or_else(overflow)?,
                    Rem if b == 0 => return Err(zero()),
                    Rem => a.checked_rem_euclid(b).ok_or_else(overflow)?,
                    BitOr => a | b,
                    BitXor => a ^ b,
                    BitAnd => a & b,
                    Shl => {
                        let shift = u32::try_from(b)
                            .ok()
                            .filter(|s| *s < 63)
                            .ok_or_else(overflow)?;
                        let v = a.checked_shl(shift).ok_or_else(overflow)?;
                        if v >> shift != a {
                            return Err(overflow());
                        }
                        v
                    }
                    _ => {
                        a >> u32::try_from(b)
                            .ok()
                            .filter(|s| *s < 64)
                            .ok_or_else(overflow)?
                    }
                })
            }
            And | Or => unreachable!("handled above"),
        })
    }

    /// A position of game `g` with these arguments, checked against the
    /// parameter types. Games given as sums become their sums.
    pub fn make_position(&mut self, g: GameId, args: Vec<Value>, span: Span) -> Result<Value> {
        let program = self.program.clone();
        let game = &program.games[g as usize];
        let mut args = args;
        for (param, arg) in game.params.iter().zip(args.iter_mut()) {
            *arg = conform(
                &param.name,
                &param.ty,
                std::mem::replace(arg, Value::Int(0)),
            )
            .map_err(|k| Error::new(k, span))?;
        }
        let body = match &game.kind {
            GameKind::Alias(body) => Some(body),
            GameKind::Rules {
                moves,
                lose: None,
                parts: Some(parts),
            } if moves.is_empty() => Some(parts),
            _ => None,
        };
        match body {
            Some(body) => {
                let mut env = args;
                env.resize(game.frame_size, Value::Int(0));
                let v = self.eval(body, &mut env).map_err(|e| {
                    e.with_context(format!("building the position {}(...)", game.name))
                })?;
                self.to_sum(v, body.span)
            }
            None => {
                let id = self.positions.intern_slice(g, &args);
                if self.positions.len() > self.max_positions {
                    return Err(Error::new(
                        ErrorKind::StateLimit {
                            limit: self.max_positions,
                        },
                        span,
                    ));
                }
                Ok(Value::Pos(Arc::from([id])))
            }
        }
    }

    /// A sum of components, refusing games whose `lose if` rule would end
    /// the whole sum.
    pub fn sum_of(&self, mut parts: Vec<PosId>, span: Span) -> Result<Value> {
        if parts.len() > 1 {
            for &p in &parts {
                let (g, _) = self.positions.get(p);
                let game = &self.program.games[g as usize];
                if game.has_lose_rule() {
                    return Err(Error::new(
                        ErrorKind::TerminalInSum {
                            game: game.name.clone(),
                        },
                        span,
                    )
                    .with_related(game.span, "the game with the `lose if` rule"));
                }
            }
        }
        parts.sort_unstable();
        Ok(Value::Pos(parts.into()))
    }

    /// A position, a sum, or a list of positions, as one sum.
    pub fn to_sum(&self, v: Value, span: Span) -> Result<Value> {
        match v {
            Value::Pos(_) => Ok(v),
            Value::List(items) => {
                let mut parts = Vec::new();
                for item in items.iter() {
                    match item {
                        Value::Pos(p) => parts.extend(p.iter().copied()),
                        other => {
                            return Err(Error::new(
                                ErrorKind::NotAPosition {
                                    found: format!("a list holding {}", other.kind()),
                                },
                                span,
                            ))
                        }
                    }
                }
                self.sum_of(parts, span)
            }
            other => Err(Error::new(
                ErrorKind::NotAPosition {
                    found: other.kind().into(),
                },
                span,
            )),
        }
    }

    /// The moves of one component, each with the sum it leads to, and a
    /// label such as `take(k = 2)` when asked for.
    pub fn moves_of(&mut self, pos: PosId, labels: bool, out: &mut Vec<Move>) -> Result<()> {
        let program = self.program.clone();
        let (g, args) = self.positions.get(pos);
        let args = args.clone();
        let game = &program.games[g as usize];
        match &game.kind {
            GameKind::Octal(code) => {
                let Some(Value::Int(n)) = args.first().cloned() else {
                    return Ok(());
                };
                code.for_each_move(n, |k, left| {
                    let parts: Vec<PosId> = left
                        .iter()
                        .map(|&h| self.positions.intern_slice(g, &[Value::Int(h)]))
                        .collect();
                    let label = labels.then(|| match left {
                        [] => format!("remove {k}"),
                        [a] => format!("remove {k} leaving {a}"),
                        [a, b] if k == 0 => format!("split into {a} + {b}"),
                        [a, b] => format!("remove {k} leaving {a} + {b}"),
                        _ => String::new(),
                    });
                    let mut parts = parts;
                    parts.sort_unstable();
                    out.push(Move {
                        rule: k as u32,
                        result: parts.into(),
                        label,
                    });
                });
                Ok(())
            }
            GameKind::Rules { moves, lose, .. } => {
                let mut env: Env = args.to_vec();
                env.resize(game.frame_size, Value::Int(0));
                if let Some(lose) = lose {
                    let lost = self.eval_bool(lose, &mut env).map_err(|e| {
                        e.with_context(format!(
                            "checking the `lose if` rule of {}",
                            self.show_pos(pos)
                        ))
                    })?;
                    if lost {
                        return Ok(());
                    }
                }
                for (index, rule) in moves.iter().enumerate() {
                    self.run_move(rule, index as u32, 0, &mut env, labels, out)
                        .map_err(|e| {
                            e.with_context(format!(
                                "finding the moves of {} by rule `{}`",
                                self.show_pos(pos),
                                rule.name
                            ))
                        })?;
                }
                Ok(())
            }
            GameKind::Alias(_) => Ok(()),
        }
    }

    fn run_move(
        &mut self,
        rule: &MoveIr,
        index: u32,
        depth: usize,
        env: &mut Env,
        labels: bool,
        out: &mut Vec<Move>,
    ) -> Result<()> {
        if let Some(generator) = rule.generators.get(depth) {
            return self.for_each(generator, env, &mut |me, env| {
                me.run_move(rule, index, depth + 1, env, labels, out)
            });
        }
        if let Some(guard) = &rule.guard {
            if !self.eval_bool(guard, env)? {
                return Ok(());
            }
        }
        let v = self.eval(&rule.result, env)?;
        let Value::Pos(result) = self.to_sum(v, rule.result.span)? else {
            return Ok(());
        };
        let label = labels.then(|| {
            let bindings: Vec<String> = rule
                .generators
                .iter()
                .map(|g| format!("{} = {}", g.var, self.show(&env[g.slot as usize])))
                .collect();
            format!("{}({})", rule.name, bindings.join(", "))
        });
        out.push(Move {
            rule: index,
            result,
            label,
        });
        Ok(())
    }

    /// Whether the `lose if` rule of a position's game holds.
    pub fn lost(&mut self, pos: PosId) -> Result<bool> {
        let program = self.program.clone();
        let (g, args) = self.positions.get(pos);
        let game = &program.games[g as usize];
        let GameKind::Rules {
            lose: Some(lose), ..
        } = &game.kind
        else {
            return Ok(false);
        };
        let mut env: Env = args.to_vec();
        env.resize(game.frame_size, Value::Int(0));
        self.eval_bool(lose, &mut env)
    }

    /// The parts a position is declared equal to, if its game has them.
    pub fn parts(&mut self, pos: PosId) -> Result<Option<Arc<[PosId]>>> {
        let program = self.program.clone();
        let (g, args) = self.positions.get(pos);
        let game = &program.games[g as usize];
        let GameKind::Rules {
            parts: Some(parts), ..
        } = &game.kind
        else {
            return Ok(None);
        };
        let mut env: Env = args.to_vec();
        env.resize(game.frame_size, Value::Int(0));
        let v = self.eval(parts, &mut env)?;
        match self.to_sum(v, parts.span)? {
            Value::Pos(p) => Ok(Some(p)),
            _ => Ok(None),
        }
    }

    fn query(&mut self, b: Builtin, args: &[Value], span: Span) -> Result<Value> {
        let Some(Value::Pos(p)) = args.first() else {
            return Err(Error::new(
                ErrorKind::WrongType {
                    expected: "a position".into(),
                    found: args.first().map_or("nothing", |v| v.kind()).into(),
                },
                span,
            ));
        };
        let p = p.clone();
        let positions =
            |items: Vec<Arc<[PosId]>>| Value::set(items.into_iter().map(Value::Pos).collect());
        self.with_solver(|solver, me| {
            Ok(match b {
                Builtin::Value => Value::Int(solver.value_of_sum(me, &p)? as i64),
                Builtin::Outcome => Value::str(if solver.value_of_sum(me, &p)? == 0 {
                    "P"
                } else {
                    "N"
                }),
                Builtin::Misere => Value::str(if solver.misere_wins(me, &p)? {
                    "N"
                } else {
                    "P"
                }),
                Builtin::Height => Value::Int(solver.height_of_sum(me, &p)? as i64),
                Builtin::Moves => positions(
                    solver
                        .moves(me, &p)?
                        .into_iter()
                        .map(|m| m.result)
                        .collect(),
                ),
                _ => positions(
                    solver
                        .moves(me, &p)?
                        .into_iter()
                        .filter(|m| m.value == 0)
                        .map(|m| m.result)
                        .collect(),
                ),
            })
        })
        .map_err(|e: Error| {
            if e.span == Span::default() {
                e.at(span)
            } else {
                e
            }
        })
    }
}

impl Rules for Interp {
    fn options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<()> {
        self.moves_of(pos, false, out)
    }

    fn labelled_options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<()> {
        self.moves_of(pos, true, out)
    }

    fn parts(&mut self, pos: PosId) -> Result<Option<Arc<[PosId]>>> {
        Interp::parts(self, pos)
    }

    fn lost(&mut self, pos: PosId) -> Result<bool> {
        Interp::lost(self, pos)
    }

    fn describe(&self, pos: PosId) -> String {
        self.show_pos(pos)
    }

    fn parts_span(&self, pos: PosId) -> Span {
        let (g, _) = self.positions.get(pos);
        let game = &self.program.games[g as usize];
        match &game.kind {
            GameKind::Rules { parts: Some(p), .. } => p.span,
            _ => game.span,
        }
    }

    fn max_states(&self) -> usize {
        self.max_positions
    }

    fn rule_span(&self, pos: PosId, rule: u32) -> Span {
        let (g, _) = self.positions.get(pos);
        let game = &self.program.games[g as usize];
        match &game.kind {
            GameKind::Rules { moves, .. } => moves.get(rule as usize).map_or(game.span, |m| m.span),
            _ => game.span,
        }
    }
}

/// The result of an operator on two numbers when it cannot fail; `None`
/// leaves overflow, division by zero and shifts to the general path, which
/// reports them.
fn int_fast_path(op: BinaryOp, a: i64, b: i64) -> Option<Value> {
    use BinaryOp::*;
    Some(match op {
        Eq => Value::Bool(a == b),
        Ne => Value::Bool(a != b),
        Lt => Value::Bool(a < b),
        Le => Value::Bool(a <= b),
        Gt => Value::Bool(a > b),
        Ge => Value::Bool(a >= b),
        Add => Value::Int(a.checked_add(b)?),
        Sub => Value::Int(a.checked_sub(b)?),
        Mul => Value::Int(a.checked_mul(b)?),
        BitOr => Value::Int(a | b),
        BitXor => Value::Int(a ^ b),
        BitAnd => Value::Int(a & b),
        RangeExclusive => Value::Range(a, b),
        RangeInclusive => Value::Range(a, b.checked_add(1)?),
        _ => return None,
    })
}

/// A value checked (and, for sets, normalised) against a parameter type.
fn conform(name: &str, ty: &Type, v: Value) -> std::result::Result<Value, ErrorKind> {
    let wrong = |v: &Value| ErrorKind::WrongType {
        expected: format!("`{ty}` for parameter `{name}`"),
        found: v.kind().into(),
    };
    Ok(match (ty, v) {
        (Type::Unknown, v) => v,
        (Type::Nat, Value::Int(n)) if n < 0 => {
            return Err(ErrorKind::Negative {
                name: name.to_string(),
                value: n,
            })
        }
        (Type::Nat | Type::Int, v @ Value::Int(_)) => v,
        (Type::Bool, v @ Value::Bool(_)) => v,
        (Type::Str, v @ Value::Str(_)) => v,
        (Type::Game, v @ Value::Pos(_)) => v,
        (Type::Grid, v) => {
            let rows = builtins::elements(&v.materialize()).map_err(|_| wrong(&v))?;
            let mut width = None;
            for row in &rows {
                let Value::Str(s) = row else {
                    return Err(wrong(&v));
                };
                let w = s.chars().count();
                if *width.get_or_insert(w) != w {
                    return Err(ErrorKind::BadValue {
                        detail: format!("the rows of grid `{name}` must all have the same length"),
                    });
                }
            }
            Value::list(rows)
        }
        (Type::List(t), v @ (Value::List(_) | Value::Range(..))) => {
            let items = builtins::elements(&v)?;
            Value::list(
                items
                    .into_iter()
                    .map(|x| conform(name, t, x))
                    .collect::<std::result::Result<_, _>>()?,
            )
        }
        (Type::Set(t), v @ (Value::Set(_) | Value::List(_) | Value::Range(..))) => {
            let items = builtins::elements(&v)?;
            Value::set(
                items
                    .into_iter()
                    .map(|x| conform(name, t, x))
                    .collect::<std::result::Result<_, _>>()?,
            )
        }
        (Type::Tuple(ts), Value::Tuple(xs)) if ts.len() == xs.len() => Value::Tuple(
            ts.iter()
                .zip(xs.iter())
                .map(|(t, x)| conform(name, t, x.clone()))
                .collect::<std::result::Result<Vec<_>, _>>()?
                .into(),
        ),
        (_, v) => return Err(wrong(&v)),
    })
}

fn element_at(v: &Value, i: i64) -> std::result::Result<Value, ErrorKind> {
    let out_of_range = |len: usize, what| ErrorKind::IndexOutOfRange {
        index: i,
        len,
        what,
    };
    match v {
        Value::Str(s) => {
            let c = usize::try_from(i).ok().and_then(|i| s.chars().nth(i));
            c.map(|c| Value::str(c.encode_utf8(&mut [0; 4])))
                .ok_or_else(|| out_of_range(s.chars().count(), "string"))
        }
        Value::List(xs) | Value::Tuple(xs) | Value::Set(xs) => usize::try_from(i)
            .ok()
            .and_then(|i| xs.get(i).cloned())
            .ok_or_else(|| out_of_range(xs.len(), "list")),
        Value::Range(lo, hi) => {
            let len = hi.saturating_sub(*lo).max(0);
            if i < 0 || i >= len {
                return Err(out_of_range(len as usize, "range"));
            }
            Ok(Value::Int(lo + i))
        }
        other => Err(ErrorKind::WrongType {
            expected: "a list or string to index".into(),
            found: other.kind().into(),
        }),
    }
}
