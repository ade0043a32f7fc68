//! The interpreter: evaluates compiled expressions, builds positions and
//! runs move rules to list a position's options.

use super::builtins::{self, Builtin, MAX_COLLECTION};
use super::conform::{already_fits, conform};
use super::ir::{CompIr, GameKind, GenIr, Ir, IrKind, Program};
use super::operators::element_at;
use super::positions::{GameId, PosId, Positions};
use super::show;
use super::value::Value;
use crate::error::{Error, ErrorKind};
use crate::solve::loopy::Generalised;
use crate::solve::Solver;
use crate::source::Span;
use crate::syntax::ast::UnaryOp;
use crate::types::Type;
use std::sync::Arc;

/// Helper functions may call each other (and games given by expressions
/// expand into each other, other than as their last step) this deep before
/// we stop them.
const MAX_CALL_DEPTH: usize = 2_000;

/// How deeply games may hold games inside their arguments: as deep as the
/// parser lets a position be typed, so that every position can be shown
/// and typed back.
pub const MAX_POSITION_DEPTH: usize = 200;

/// What the last step of a game given by an expression comes to: a value,
/// or another such game still to expand (walked in a loop, not recursed).
enum Tail {
    Value(Value),
    Expand(GameId, Vec<Value>, Span),
}

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
    /// Positions only the compiled searches hold: they count against
    /// `max_positions` as if made here, so that the limit means the same
    /// whichever engine found them.
    pub(crate) held_elsewhere: usize,
    depth: usize,
    /// Emptied argument lists and frames, kept for the next call: every
    /// move calls built-ins and makes a position, and asking the allocator
    /// each time costs more than the call.
    pub(super) spare: Vec<Vec<Value>>,
    /// Whether value searches pack positions into keys where they can.
    pub compact: super::Compact,
    /// Which engine each game ran on, and why faster ones turned it down.
    pub engines: super::engine::EngineLog,
    /// What the value search knows of `symmetry =` orbits.
    pub(super) orbits: super::symmetry::Orbits,
    /// The rules compiled to list one position's options at a time.
    pub(super) listings: super::compact::Listings,
}

impl Default for Interp {
    fn default() -> Interp {
        Interp {
            program: Arc::default(),
            positions: Positions::default(),
            consts: Vec::new(),
            solver: Solver::default(),
            max_positions: DEFAULT_MAX_POSITIONS,
            held_elsewhere: 0,
            depth: 0,
            spare: Vec::new(),
            compact: super::Compact::default(),
            engines: super::engine::EngineLog::default(),
            orbits: super::symmetry::Orbits::default(),
            listings: super::compact::Listings::default(),
        }
    }
}

impl Interp {
    /// Replaces the program (a REPL definition or a reload). Positions and
    /// values computed so far may no longer hold, so they are dropped.
    pub fn set_program(&mut self, program: Arc<Program>) {
        self.program = program;
        self.positions.clear();
        self.solver = Solver::default();
        self.held_elsewhere = 0;
        self.orbits = super::symmetry::Orbits::default();
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

    /// The positions `max_positions` counts: those interned here and
    /// those only the compiled searches hold.
    pub(crate) fn states_held(&self) -> usize {
        self.positions.len() + self.held_elsewhere
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

    /// A position as an error describes it: cut short if it is long.
    pub fn describe_pos(&self, id: PosId) -> String {
        show::brief(self.show_pos(id))
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
                let mut frame = self.spare_vec();
                frame.resize(func.frame_size.max(args.len()), Value::Int(0));
                for ((slot, a), param) in frame.iter_mut().zip(args).zip(&func.params) {
                    let v = self.eval(a, env)?;
                    *slot = if already_fits(&param.ty, &v) {
                        v
                    } else {
                        conform(&param.name, &param.ty, v).map_err(|k| Error::new(k, a.span))?
                    };
                }
                if self.depth >= MAX_CALL_DEPTH {
                    return Err(at(ErrorKind::RecursionTooDeep {
                        limit: MAX_CALL_DEPTH,
                    }));
                }
                // A helper that recurses without building anything would
                // otherwise never look at the budget.
                if crate::interrupt::requested() {
                    return Err(at(crate::interrupt::stop_kind()));
                }
                self.depth += 1;
                // Helpers may recurse; grow the stack rather than overflow
                // it, whatever thread the library runs on.
                let result = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
                    self.eval(&func.body, &mut frame)
                });
                self.depth -= 1;
                self.give_back(frame);
                result?
            }
            IrKind::MakePos(g, args) => {
                let mut values = self.spare_vec();
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                self.make_position(*g, values, ir.span)?
            }
            IrKind::Builtin(b, args) => {
                let mut values = self.spare_vec();
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                let result = if b.is_query() {
                    self.query(*b, &values, ir.span)
                } else {
                    b.call(&values).map_err(at)
                };
                self.give_back(values);
                result?
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
                    let v = self.eval(a, env)?;
                    // A range in a set stands for its list: one too long to
                    // build is refused, as a comprehension that long is.
                    if let Some(size) = v.count().filter(|_| matches!(v, Value::Range(..))) {
                        if size > MAX_COLLECTION {
                            return Err(Error::new(
                                ErrorKind::TooLarge {
                                    what: "this range".into(),
                                    size: format!("{size} elements"),
                                    limit: MAX_COLLECTION.to_string(),
                                },
                                a.span,
                            ));
                        }
                    }
                    values.push(v.materialize());
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
                                hint: None,
                            },
                            operand.span,
                        ))
                    }
                }
            }
            IrKind::Binary(op, lhs, rhs) => self.binary(*op, lhs, rhs, env, ir.span)?,
            IrKind::Index(target, index) if matches!(target.kind, IrKind::Local(_)) => {
                let IrKind::Local(slot) = target.kind else {
                    unreachable!("matched above");
                };
                // Reading a variable cannot fail, so evaluating the index
                // first changes nothing but the clone it saves.
                let i = self.eval(index, env)?;
                let i = builtins::int(&i).map_err(|k| Error::new(k, index.span))?;
                element_at(&env[slot as usize], i).map_err(|k| Error::new(k, index.span))?
            }
            IrKind::Index(target, index) => {
                let t = self.eval(target, env)?;
                let i = self.eval(index, env)?;
                let i = builtins::int(&i).map_err(|k| Error::new(k, index.span))?;
                element_at(&t, i).map_err(|k| Error::new(k, index.span))?
            }
        })
    }

    fn spare_vec(&mut self) -> Vec<Value> {
        self.spare.pop().unwrap_or_default()
    }

    fn give_back(&mut self, mut v: Vec<Value>) {
        // A few are enough for the nesting of one expression; a huge one
        // is not kept.
        if self.spare.len() < 64 && v.capacity() <= 64 {
            v.clear();
            self.spare.push(v);
        }
    }

    /// Helper `f` called on `args` from a rule evaluated inside `nesting`
    /// helpers: as deep as a call written there would go, so that a
    /// recursion too deep fails here exactly where it fails in the rule.
    pub(crate) fn call_helper(
        &mut self,
        f: u32,
        args: Vec<Value>,
        nesting: usize,
        span: Span,
    ) -> Result<Value> {
        let lit = |v| Ir {
            kind: IrKind::Lit(v),
            span,
        };
        let call = Ir {
            kind: IrKind::CallFn(f, args.into_iter().map(lit).collect()),
            span,
        };
        let outside = std::mem::replace(&mut self.depth, nesting);
        let result = self.eval(&call, &mut Vec::new());
        self.depth = outside;
        result
    }

    pub fn eval_bool(&mut self, ir: &Ir, env: &mut Env) -> Result<bool> {
        match self.eval(ir, env)? {
            Value::Bool(b) => Ok(b),
            other => Err(Error::new(
                ErrorKind::WrongType {
                    expected: "a boolean".into(),
                    found: other.kind().into(),
                    hint: None,
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
        let slot = generator.slot as usize;
        if let IrKind::Builtin(Builtin::Product, args) = &generator.source.kind {
            if let [lists] = &args[..] {
                let lists = self.eval(lists, env)?;
                return self.for_each_tuple(&lists, slot, generator.source.span, env, each);
            }
        }
        let source = self.eval(&generator.source, env)?;
        let stop = || Error::new(crate::interrupt::stop_kind(), generator.source.span);
        if let Value::Range(lo, hi) = source {
            let mut i = lo;
            while i < hi {
                if crate::interrupt::requested() {
                    return Err(stop());
                }
                // Overwritten in place: the old number needs no dropping.
                match &mut env[slot] {
                    Value::Int(n) => *n = i,
                    other => *other = Value::Int(i),
                }
                each(self, env)?;
                i += 1;
            }
            return Ok(());
        }
        let items = match &source {
            // Read in place: copying the elements out first costs a list.
            Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => xs.clone(),
            Value::Pos(parts) => parts.iter().map(|p| Value::Pos(Arc::from([*p]))).collect(),
            other => builtins::elements(other)
                .map_err(|k| Error::new(k, generator.source.span))?
                .into(),
        };
        for item in items.iter().cloned() {
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
        let mut count = 0;
        self.comprehend(element, clauses, env, &mut count, &mut |v| {
            out.push(v);
            Ok(())
        })
    }

    /// Every element of a comprehension, in order, handed to `sink`.
    fn comprehend(
        &mut self,
        element: &Ir,
        clauses: &[CompIr],
        env: &mut Env,
        count: &mut usize,
        sink: &mut dyn FnMut(Value) -> Result<()>,
    ) -> Result<()> {
        let Some((clause, rest)) = clauses.split_first() else {
            if *count >= MAX_COLLECTION {
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
            *count += 1;
            return sink(v);
        };
        self.for_each(&clause.generator, env, &mut |me, env| {
            if let Some(guard) = &clause.guard {
                if !me.eval_bool(guard, env)? {
                    return Ok(());
                }
            }
            me.comprehend(element, rest, env, count, sink)
        })
    }

    /// A position of game `g` with these arguments, checked against the
    /// parameter types. Games given as sums become their sums.
    pub fn make_position(&mut self, g: GameId, args: Vec<Value>, span: Span) -> Result<Value> {
        let mut args = args;
        self.conform_args(g, &mut args, span)?;
        if self.given_by_expression(g) {
            return self.expand(g, args, span);
        }
        self.intern_position(g, args, span)
    }

    /// Arguments of game `g` checked against its parameter types (sets
    /// normalised), as a position made of them would hold them.
    pub fn conform_args(&self, g: GameId, args: &mut [Value], span: Span) -> Result<()> {
        // Borrow the game through the field, not a clone of the program:
        // this runs for every option of every position searched.
        let game = &self.program.games[g as usize];
        for (param, arg) in game.params.iter().zip(args.iter_mut()) {
            if !already_fits(&param.ty, arg) {
                *arg = conform(
                    &param.name,
                    &param.ty,
                    std::mem::replace(arg, Value::Int(0)),
                )
                .map_err(|k| Error::new(k, span))?;
            }
        }
        Ok(())
    }

    /// Whether game `g` stands for the value of an expression (an alias,
    /// or a game given only by its parts) rather than being a position.
    pub(super) fn given_by_expression(&self, g: GameId) -> bool {
        match &self.program.games[g as usize].kind {
            GameKind::Alias(_) => true,
            GameKind::Rules {
                moves,
                lose: None,
                parts: Some(_),
            } => moves.is_empty(),
            _ => false,
        }
    }

    pub(super) fn intern_position(
        &mut self,
        g: GameId,
        args: Vec<Value>,
        span: Span,
    ) -> Result<Value> {
        if self.holds_games(g) && self.nesting(&args, MAX_POSITION_DEPTH) >= MAX_POSITION_DEPTH {
            return Err(Error::new(
                ErrorKind::PositionTooDeep {
                    limit: MAX_POSITION_DEPTH,
                },
                span,
            ));
        }
        let id = self.positions.intern_slice(g, &args);
        self.give_back(args);
        if self.states_held() > self.max_positions {
            return Err(Error::new(
                ErrorKind::StateLimit {
                    limit: self.max_positions,
                },
                span,
            ));
        }
        Ok(Value::Pos(Arc::from([id])))
    }

    /// Whether a parameter of game `g` can hold a position.
    fn holds_games(&self, g: GameId) -> bool {
        fn may_hold(ty: &Type) -> bool {
            match ty {
                Type::Game | Type::Unknown => true,
                Type::List(t) | Type::Set(t) => may_hold(t),
                Type::Tuple(ts) => ts.iter().any(may_hold),
                _ => false,
            }
        }
        self.program.games[g as usize]
            .params
            .iter()
            .any(|p| may_hold(&p.ty))
    }

    /// How deeply these values hold positions inside positions, counted no
    /// further than `cap`.
    fn nesting(&self, values: &[Value], cap: usize) -> usize {
        let mut deepest = 0;
        for v in values {
            let depth = match v {
                Value::Pos(ids) => {
                    let mut inner = 0;
                    for &id in ids.iter() {
                        if inner + 1 >= cap {
                            break;
                        }
                        inner = inner.max(self.nesting(&self.positions.get(id).1, cap - 1));
                    }
                    inner + 1
                }
                Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => self.nesting(xs, cap),
                _ => 0,
            };
            deepest = deepest.max(depth);
            if deepest >= cap {
                break;
            }
        }
        deepest
    }

    /// The position or sum a game given by an expression stands for. When
    /// its last step is another such game (`D(n) = ... else D(n - 1)`),
    /// that one is expanded in the same loop, so a long chain needs no
    /// stack; each step counts against the budget and the state limit.
    fn expand(&mut self, g: GameId, args: Vec<Value>, span: Span) -> Result<Value> {
        if self.depth >= MAX_CALL_DEPTH {
            return Err(Error::new(
                ErrorKind::ExpansionTooDeep {
                    game: self.program.games[g as usize].name.clone(),
                    limit: MAX_CALL_DEPTH,
                },
                span,
            ));
        }
        self.depth += 1;
        let result = stacker::maybe_grow(256 * 1024, 4 * 1024 * 1024, || {
            self.expand_chain(g, args, span)
        });
        self.depth -= 1;
        result
    }

    fn expand_chain(
        &mut self,
        mut g: GameId,
        mut args: Vec<Value>,
        mut span: Span,
    ) -> Result<Value> {
        let program = self.program.clone();
        let mut steps = 0usize;
        loop {
            let game = &program.games[g as usize];
            let body = match &game.kind {
                GameKind::Alias(body) => body,
                GameKind::Rules {
                    parts: Some(parts), ..
                } => parts,
                _ => return self.intern_position(g, args, span),
            };
            if crate::interrupt::requested() {
                return Err(Error::new(crate::interrupt::stop_kind(), span));
            }
            steps += 1;
            if steps > self.max_positions {
                return Err(Error::new(
                    ErrorKind::ExpansionTooDeep {
                        game: game.name.clone(),
                        limit: self.max_positions,
                    },
                    span,
                ));
            }
            let params = args.len();
            let mut env = args;
            env.resize(game.frame_size.max(params), Value::Int(0));
            // Said once however deep a game nests itself: the message stays
            // short.
            let context = |e: Error| {
                let doing = format!("building the position {}(...)", game.name);
                if e.context.last() == Some(&doing) {
                    e
                } else {
                    e.with_context(doing)
                }
            };
            match self.eval_tail(body, &mut env).map_err(context)? {
                Tail::Value(v) => return self.to_sum(v, body.span),
                Tail::Expand(next, mut next_args, at) => {
                    self.conform_args(next, &mut next_args, at)
                        .map_err(context)?;
                    // The same game with the same arguments again can only
                    // go round for ever.
                    if next == g && next_args.iter().zip(&env).all(|(a, b)| a.same(b)) {
                        return Err(Error::new(
                            ErrorKind::Cycle {
                                cycle: {
                                    let shown =
                                        show::brief(self.show(&Value::Tuple(next_args.into())));
                                    format!("{0}{shown} -> {0}{shown}", game.name)
                                },
                            },
                            at,
                        ));
                    }
                    if !self.given_by_expression(next) {
                        return self.intern_position(next, next_args, at);
                    }
                    (g, args, span) = (next, next_args, at);
                }
            }
        }
    }

    /// Evaluates the last step of an expansion, stopping short of a game
    /// given by an expression that it would expand.
    fn eval_tail(&mut self, ir: &Ir, env: &mut Env) -> Result<Tail> {
        match &ir.kind {
            IrKind::If(cond, then, otherwise) => {
                let branch = if self.eval_bool(cond, env)? {
                    then
                } else {
                    otherwise
                };
                self.eval_tail(branch, env)
            }
            IrKind::MakePos(g, args) if self.given_by_expression(*g) => {
                let mut values = Vec::with_capacity(args.len());
                for a in args {
                    values.push(self.eval(a, env)?);
                }
                Ok(Tail::Expand(*g, values, ir.span))
            }
            // A list of one position is that position.
            IrKind::List(items) if items.len() == 1 => match self.eval_tail(&items[0], env)? {
                Tail::Value(v) => Ok(Tail::Value(Value::list(vec![v]))),
                expand => Ok(expand),
            },
            _ => self.eval(ir, env).map(Tail::Value),
        }
    }

    /// A sum of components, refusing games whose `lose if` rule would end
    /// the whole sum.
    pub fn sum_of(&self, mut parts: Vec<PosId>, span: Span) -> Result<Value> {
        if parts.len() > 1 {
            for &p in &parts {
                let game = &self.program.games[self.positions.game(p) as usize];
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

    fn query(&mut self, b: Builtin, args: &[Value], span: Span) -> Result<Value> {
        let Some(Value::Pos(p)) = args.first() else {
            return Err(Error::new(
                ErrorKind::WrongType {
                    expected: "a position".into(),
                    found: args.first().map_or("nothing", |v| v.kind()).into(),
                    hint: None,
                },
                span,
            ));
        };
        let p = p.clone();
        let positions =
            |items: Vec<Arc<[PosId]>>| Value::set(items.into_iter().map(Value::Pos).collect());
        self.with_solver(|solver, me| {
            Ok(match b {
                Builtin::Value | Builtin::Infinite => {
                    let v = solver.general_value_of_sum(me, &p)?;
                    let wrong = |what| {
                        Error::new(
                            ErrorKind::ValueKind {
                                position: crate::eval::show::brief(me.show(&Value::Pos(p.clone()))),
                                value: v.to_string(),
                                what,
                            },
                            span,
                        )
                    };
                    match (b, &v) {
                        (Builtin::Value, Generalised::Finite(n)) => Value::Int(*n as i64),
                        (Builtin::Value, _) => return Err(wrong("infinite, not a number")),
                        (_, Generalised::Infinite(k)) => {
                            Value::set(k.iter().map(|&x| Value::Int(x as i64)).collect())
                        }
                        _ => return Err(wrong("a number, not infinite")),
                    }
                }
                Builtin::Outcome => {
                    Value::str(solver.general_value_of_sum(me, &p)?.outcome().letter())
                }
                Builtin::Misere => Value::str(if solver.misere_wins(me, &p)? {
                    "N"
                } else {
                    "P"
                }),
                Builtin::Height => Value::Int(solver.height_of_sum(me, &p)? as i64),
                Builtin::Moves => positions(
                    Solver::results(me, &p)?
                        .into_iter()
                        .map(Arc::from)
                        .collect(),
                ),
                _ => positions(
                    solver
                        .moves(me, &p)?
                        .into_iter()
                        .filter(|m| m.winning)
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
