//! Move rules lowered, once per program, into code over plain numbers.
//!
//! The interpreter works on `Value`s: every list it makes is an allocation,
//! every variable it reads a reference count. A move's result in most games
//! is numbers and lists of numbers worked out from the position (a pile
//! less what was taken, a board with one more X), and the search runs it
//! for every option of every position. The parts of a rule that are such
//! arithmetic are lowered here to a small tree that computes on `i64`s and
//! writes the result position's bytes straight into the interner (see
//! `lowered_run`).
//!
//! Lowering is partial: an expression this module does not know is simply
//! not lowered, and the interpreter evaluates it as before. Running lowered
//! code may also give up (`None`) on anything unusual, such as an overflow,
//! a negative index or a value of an unexpected kind; the interpreter then
//! evaluates the same expression the ordinary way and reports what it finds.

use super::builtins::Builtin;
use super::engine::{Compiled, OrUnsupported, Unsupported};
use super::ir::{CompIr, GameIr, GameKind, Ir, IrKind, Program};
use super::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;
use std::cell::Cell;

/// An expression whose value is a number.
#[derive(Debug)]
pub enum Num {
    Lit(i64),
    Local(u32),
    /// `xs[i]` of a list, tuple, set or range held in a variable.
    Element(u32, Box<Num>),
    /// `+ - * / % | ^ &`.
    Binary(BinaryOp, Box<Num>, Box<Num>),
    Neg(Box<Num>),
    /// `len(x)` of a variable.
    Len(u32),
    /// `sum(xs)` of a list in a variable.
    SumOf(u32),
    /// `sum([e for ...])`, without the list.
    Sum(Box<Loop>),
    If(Box<Truth>, Box<Num>, Box<Num>),
    Call(u32, Vec<Arg>),
}

/// An expression whose value is a boolean.
#[derive(Debug)]
pub enum Truth {
    Lit(bool),
    Local(u32),
    Not(Box<Truth>),
    And(Box<Truth>, Box<Truth>),
    Or(Box<Truth>, Box<Truth>),
    /// `== != < <= > >=` between numbers.
    Compare(BinaryOp, Num, Num),
    /// `board[i] == "c"` (or `!=`, when the flag is false) for a variable
    /// holding an ASCII string and a one-byte literal.
    CellIs(u32, Num, u8, bool),
    /// `has(s, "sub")` for a variable holding a string.
    HasText(u32, Box<str>),
    Call(u32, Vec<Arg>),
}

/// An expression whose value is a list of numbers.
#[derive(Debug)]
pub enum NumList {
    Items(Vec<Num>),
    Comprehension(Box<Loop>),
    Call(u32, Vec<Arg>),
    /// A helper's body inlined, once the variables it reads as its
    /// parameters are found to fit their types as they are.
    Inlined(Vec<(u32, Type)>, Box<NumList>),
}

/// `[element for var in source if guard ...]`.
#[derive(Debug)]
pub struct Loop {
    pub clauses: Vec<Clause>,
    pub element: Num,
}

#[derive(Debug)]
pub struct Clause {
    pub slot: u32,
    pub source: Source,
    pub guard: Option<Truth>,
}

/// What a generator walks.
#[derive(Debug)]
pub enum Source {
    /// `lo..hi`, or `lo..=hi` when the flag is set.
    Range(Num, Num, bool),
    /// `indices(x)` of a variable.
    Indices(u32),
}

/// An argument of a helper call or of a position.
#[derive(Debug)]
pub enum Arg {
    /// A variable, passed on as it is.
    Value(u32),
    Num(Num),
    List(NumList),
    /// `set_at(board, i, "c")` for a variable holding an ASCII string.
    SetCell(u32, Num, u8),
    /// `set_at(xs, at, values)` for variables holding lists of numbers.
    SetSeveral(u32, u32, u32),
}

/// A helper function's body, in each shape it could be lowered to.
#[derive(Debug, Default)]
pub struct FnCode {
    pub num: Option<Num>,
    pub truth: Option<Truth>,
    pub list: Option<NumList>,
}

/// A move rule's guard and the position it leads to, where lowered.
#[derive(Debug, Default)]
pub struct RuleCode {
    pub guard: Option<Truth>,
    /// The game and arguments of the single position the move makes.
    pub result: Option<(u32, Vec<Arg>)>,
}

/// A game's `lose if` condition and move rules, where lowered.
#[derive(Debug, Default)]
pub struct GameCode {
    pub lose: Option<Truth>,
    pub rules: Vec<RuleCode>,
    /// The conditions and results left to the interpreter, and why.
    pub unlowered: Vec<Unsupported>,
    /// The slots the rules' frame needs: the game's own, and those of the
    /// helpers inlined.
    pub frame_size: usize,
}

#[derive(Debug, Default)]
pub struct Lowered {
    pub games: Vec<GameCode>,
    pub functions: Vec<FnCode>,
}

impl Lowered {
    pub fn new(program: &Program) -> Lowered {
        // Helpers first, calling each other with no shape known; then
        // everything again, each call in the shape its helper's body has.
        let mut functions = Vec::new();
        for _ in 0..2 {
            // Helper bodies run in frames of their own size: nothing is
            // inlined into them.
            let frame = Cell::new(0);
            let lower = Lower {
                program,
                functions: &functions,
                slots: None,
                frame: &frame,
                inlined: MAX_INLINED,
            };
            let again = program
                .functions
                .iter()
                .map(|f| FnCode {
                    num: lower.num(&f.body).ok(),
                    truth: lower.truth(&f.body).ok(),
                    list: lower.list(&f.body).ok(),
                })
                .collect();
            functions = again;
        }
        let games = program
            .games
            .iter()
            .map(|g| {
                let frame = Cell::new(g.frame_size as u32);
                let lower = Lower {
                    program,
                    functions: &functions,
                    slots: None,
                    frame: &frame,
                    inlined: 0,
                };
                let mut code = lower.game(program, g);
                code.frame_size = frame.get() as usize;
                code
            })
            .collect();
        Lowered { games, functions }
    }
}

/// The code, or `None` with the reason noted.
fn kept<T>(code: Compiled<T>, unlowered: &mut Vec<Unsupported>) -> Option<T> {
    code.map_err(|why| unlowered.push(why)).ok()
}

/// A one-byte ASCII string literal.
fn ascii_char(ir: &Ir) -> Option<u8> {
    match &ir.kind {
        IrKind::Lit(Value::Str(s)) if s.len() == 1 && s.is_ascii() => Some(s.as_bytes()[0]),
        _ => None,
    }
}

/// Lowers expressions, knowing the shapes helper bodies were lowered to.
pub(super) struct Lower<'a> {
    pub program: &'a Program,
    pub functions: &'a [FnCode],
    /// Inside a helper's body inlined into a rule: where the rule's frame
    /// keeps each of the helper's variables.
    pub slots: Option<&'a [u32]>,
    /// The rule's frame size, grown by the variables of inlined helpers.
    pub frame: &'a Cell<u32>,
    /// How many helpers deep the body being lowered is inlined.
    pub inlined: u32,
}

/// Helper bodies are inlined into rules this deep; deeper calls are calls.
const MAX_INLINED: u32 = 2;

impl Lower<'_> {
    /// Where a variable lives in the frame the lowered code runs in.
    fn slot(&self, slot: u32) -> u32 {
        match self.slots {
            Some(map) => map.get(slot as usize).copied().unwrap_or(u32::MAX),
            None => slot,
        }
    }

    fn local(&self, ir: &Ir) -> Compiled<u32> {
        match ir.kind {
            IrKind::Local(slot) => Ok(self.slot(slot)),
            _ => Err(Unsupported::new(VARIABLES, ir.span)),
        }
    }

    /// `f(args...)` whose arguments are all variables, with `f`'s body
    /// lowered in place as a list: its parameters read the variables
    /// passed, and its own variables get fresh slots of the frame.
    fn inline_list(&self, call: &Ir, f: u32, args: &[Ir]) -> Compiled<NumList> {
        let func = self
            .program
            .functions
            .get(f as usize)
            .or_unsupported(LISTS, call.span)?;
        if self.inlined >= MAX_INLINED || func.params.len() != args.len() {
            return Err(Unsupported::new(LISTS, call.span));
        }
        let mut slots: Vec<u32> = args
            .iter()
            .map(|a| self.local(a))
            .collect::<Compiled<_>>()?;
        let base = self.frame.get();
        let own = func.frame_size.saturating_sub(args.len()) as u32;
        slots.extend(base..base + own);
        self.frame.set(base + own);
        let inner = Lower {
            functions: self.functions,
            slots: Some(&slots),
            frame: self.frame,
            inlined: self.inlined + 1,
            program: self.program,
        };
        let body = inner.list(&func.body)?;
        let checks = func
            .params
            .iter()
            .zip(&slots)
            .map(|(p, &s)| (s, p.ty.clone()))
            .collect();
        Ok(NumList::Inlined(checks, Box::new(body)))
    }

    fn game(&self, program: &Program, g: &GameIr) -> GameCode {
        let GameKind::Rules { moves, lose, .. } = &g.kind else {
            return GameCode::default();
        };
        let mut unlowered = Vec::new();
        let lose = lose
            .as_ref()
            .and_then(|x| kept(self.truth(x), &mut unlowered));
        let rules = moves
            .iter()
            .map(|m| RuleCode {
                guard: m
                    .guard
                    .as_ref()
                    .and_then(|x| kept(self.truth(x), &mut unlowered)),
                result: kept(self.position(program, &m.result), &mut unlowered),
            })
            .collect();
        GameCode {
            lose,
            rules,
            unlowered,
            // Set by the caller once every rule is lowered.
            frame_size: 0,
        }
    }

    /// A position made by a game call, for a game whose positions are its own
    /// (not a game standing for a sum, which the interpreter expands).
    fn position(&self, program: &Program, ir: &Ir) -> Compiled<(u32, Vec<Arg>)> {
        let IrKind::MakePos(g, args) = &ir.kind else {
            return Err(Unsupported::new(POSITIONS, ir.span));
        };
        let game = program
            .games
            .get(*g as usize)
            .or_unsupported(POSITIONS, ir.span)?;
        let own_positions = match &game.kind {
            GameKind::Rules {
                moves,
                lose,
                parts: Some(_),
            } => !moves.is_empty() || lose.is_some(),
            GameKind::Rules { .. } => true,
            GameKind::Alias(_) | GameKind::Octal(_) | GameKind::TakeBreak(_) => false,
        };
        if !own_positions || game.params.len() != args.len() {
            return Err(Unsupported::new(POSITIONS, ir.span));
        }
        Ok((*g, self.args(args)?))
    }

    /// Whether helper `f`'s body was lowered to a list and not to a number.
    fn gives_list(&self, f: u32) -> bool {
        self.functions
            .get(f as usize)
            .is_some_and(|c| c.list.is_some() && c.num.is_none())
    }

    fn args(&self, irs: &[Ir]) -> Compiled<Vec<Arg>> {
        irs.iter().map(|x| self.arg(x)).collect()
    }

    fn arg(&self, ir: &Ir) -> Compiled<Arg> {
        if let Ok(slot) = self.local(ir) {
            return Ok(Arg::Value(slot));
        }
        if let IrKind::CallFn(f, a) = &ir.kind {
            if self.gives_list(*f) {
                let inlined = self.inline_list(ir, *f, a);
                return Ok(Arg::List(match inlined {
                    Ok(body) => body,
                    Err(_) => NumList::Call(*f, self.args(a)?),
                }));
            }
        }
        if let IrKind::Builtin(Builtin::SetAt, a) = &ir.kind {
            if let [target, index, value] = &a[..] {
                if let (Ok(t), Ok(i), Ok(v)) =
                    (self.local(target), self.local(index), self.local(value))
                {
                    // Which kind of set_at it is shows when it runs.
                    return Ok(Arg::SetSeveral(t, i, v));
                }
                return Ok(Arg::SetCell(
                    self.local(target)?,
                    self.num(index)?,
                    ascii_char(value).or_unsupported(LETTERS, value.span)?,
                ));
            }
        }
        match self.num(ir) {
            Ok(num) => Ok(Arg::Num(num)),
            Err(_) if matches!(ir.kind, IrKind::List(_) | IrKind::Comprehension { .. }) => {
                self.list(ir).map(Arg::List)
            }
            Err(why) => Err(why),
        }
    }

    pub(super) fn num(&self, ir: &Ir) -> Compiled<Num> {
        use BinaryOp::*;
        Ok(match &ir.kind {
            IrKind::Lit(Value::Int(n)) => Num::Lit(*n),
            IrKind::Local(slot) => Num::Local(self.slot(*slot)),
            IrKind::Index(target, index) => {
                Num::Element(self.local(target)?, Box::new(self.num(index)?))
            }
            IrKind::Binary(
                op @ (Add | Sub | Mul | Div | Rem | BitOr | BitXor | BitAnd | Pow),
                lhs,
                rhs,
            ) => Num::Binary(*op, Box::new(self.num(lhs)?), Box::new(self.num(rhs)?)),
            IrKind::Unary(UnaryOp::Neg, operand) => Num::Neg(Box::new(self.num(operand)?)),
            IrKind::Builtin(Builtin::Len, a) if a.len() == 1 => Num::Len(self.local(&a[0])?),
            IrKind::Builtin(Builtin::Sum, a) if a.len() == 1 => match &a[0].kind {
                IrKind::Local(slot) => Num::SumOf(self.slot(*slot)),
                IrKind::Comprehension { element, clauses } => {
                    Num::Sum(Box::new(self.lower_loop(element, clauses)?))
                }
                _ => return Err(Unsupported::new(NUMBERS, ir.span)),
            },
            IrKind::If(cond, then, otherwise) => Num::If(
                Box::new(self.truth(cond)?),
                Box::new(self.num(then)?),
                Box::new(self.num(otherwise)?),
            ),
            IrKind::CallFn(f, a) if !self.gives_list(*f) => Num::Call(*f, self.args(a)?),
            _ => return Err(Unsupported::new(NUMBERS, ir.span)),
        })
    }

    pub(super) fn truth(&self, ir: &Ir) -> Compiled<Truth> {
        use BinaryOp::*;
        Ok(match &ir.kind {
            IrKind::Lit(Value::Bool(b)) => Truth::Lit(*b),
            IrKind::Local(slot) => Truth::Local(self.slot(*slot)),
            IrKind::Unary(UnaryOp::Not, operand) => Truth::Not(Box::new(self.truth(operand)?)),
            IrKind::Binary(And, lhs, rhs) => {
                Truth::And(Box::new(self.truth(lhs)?), Box::new(self.truth(rhs)?))
            }
            IrKind::Binary(Or, lhs, rhs) => {
                Truth::Or(Box::new(self.truth(lhs)?), Box::new(self.truth(rhs)?))
            }
            IrKind::Binary(op @ (Eq | Ne), lhs, rhs) => {
                if let Some(cell) = self
                    .cell_is(lhs, rhs, *op)
                    .or_else(|| self.cell_is(rhs, lhs, *op))
                {
                    return Ok(cell);
                }
                Truth::Compare(*op, self.num(lhs)?, self.num(rhs)?)
            }
            IrKind::Binary(op @ (Lt | Le | Gt | Ge), lhs, rhs) => {
                Truth::Compare(*op, self.num(lhs)?, self.num(rhs)?)
            }
            IrKind::Builtin(Builtin::Has, a) if a.len() == 2 => match &a[1].kind {
                IrKind::Lit(Value::Str(sub)) => Truth::HasText(self.local(&a[0])?, (**sub).into()),
                _ => return Err(Unsupported::new(CONDITIONS, ir.span)),
            },
            IrKind::CallFn(f, a) => Truth::Call(*f, self.args(a)?),
            _ => return Err(Unsupported::new(CONDITIONS, ir.span)),
        })
    }

    /// `board[i] == "c"`, with the cell on the left.
    fn cell_is(&self, cell: &Ir, literal: &Ir, op: BinaryOp) -> Option<Truth> {
        let c = ascii_char(literal)?;
        let IrKind::Index(target, index) = &cell.kind else {
            return None;
        };
        Some(Truth::CellIs(
            self.local(target).ok()?,
            self.num(index).ok()?,
            c,
            op == BinaryOp::Eq,
        ))
    }

    pub(super) fn list(&self, ir: &Ir) -> Compiled<NumList> {
        Ok(match &ir.kind {
            IrKind::List(items) => {
                NumList::Items(items.iter().map(|x| self.num(x)).collect::<Compiled<_>>()?)
            }
            IrKind::Comprehension { element, clauses } => {
                NumList::Comprehension(Box::new(self.lower_loop(element, clauses)?))
            }
            IrKind::CallFn(f, a) => NumList::Call(*f, self.args(a)?),
            _ => return Err(Unsupported::new(LISTS, ir.span)),
        })
    }

    fn lower_loop(&self, element: &Ir, clauses: &[CompIr]) -> Compiled<Loop> {
        let clauses = clauses
            .iter()
            .map(|c| {
                let guard = match &c.guard {
                    Some(g) => Some(self.truth(g)?),
                    None => None,
                };
                Ok(Clause {
                    slot: self.slot(c.generator.slot),
                    source: self.source(&c.generator.source)?,
                    guard,
                })
            })
            .collect::<Compiled<_>>()?;
        Ok(Loop {
            clauses,
            element: self.num(element)?,
        })
    }

    fn source(&self, ir: &Ir) -> Compiled<Source> {
        Ok(match &ir.kind {
            IrKind::Binary(op @ (BinaryOp::RangeExclusive | BinaryOp::RangeInclusive), lo, hi) => {
                Source::Range(
                    self.num(lo)?,
                    self.num(hi)?,
                    *op == BinaryOp::RangeInclusive,
                )
            }
            IrKind::Builtin(Builtin::Indices, a) if a.len() == 1 => {
                Source::Indices(self.local(&a[0])?)
            }
            _ => return Err(Unsupported::new(SOURCES, ir.span)),
        })
    }
}

/// What the lowered code accepts, for the reasons it gives.
const NUMBERS: &str = "an expression the lowered code cannot compute: it computes numbers with \
     arithmetic, indexing a variable, `len` and `sum` of a variable, `if` and helpers";
const CONDITIONS: &str = "a condition the lowered code cannot test: it tests comparisons of \
     numbers, a cell against a one-letter string, `has(board, \"text\")`, `and`, `or`, `not` \
     and helpers";
const LISTS: &str = "a list the lowered code cannot build: it builds lists of numbers written \
     out, comprehensions over ranges and `indices`, and helpers giving them";
const SOURCES: &str = "a generator the lowered code cannot walk: it walks ranges and `indices`";
const VARIABLES: &str =
    "a value the lowered code cannot index or measure: it reads cells, elements \
     and lengths of variables only";
const LETTERS: &str = "a letter the lowered code cannot write: it writes one-letter strings \
     written out";
const POSITIONS: &str = "a result the lowered code cannot make: it makes one position of a game \
     defined by move rules (not a sum, a list or an alias), each argument a variable, a number, \
     a list of numbers or a `set_at`";

#[cfg(test)]
mod tests {
    use super::{Arg, Lowered};
    use crate::session::Session;

    /// The shapes the search meets most are lowered (so the comparison
    /// with the interpreter in tests/lowered.rs compares something).
    #[test]
    fn the_bench_games_rules_are_lowered() {
        let mut session = Session::new();
        let moore = include_str!("../../bench/games/moores-nim.game");
        let treblecross = include_str!("../../bench/games/treblecross.game");
        for (name, text) in [("moore", moore), ("treblecross", treblecross)] {
            if let Err(e) = session.load_text(name, text) {
                panic!("{name} does not load: {e:?}");
            }
        }
        let code = Lowered::new(&session.interp.program);
        let moore = &code.games[0];
        let set_several = matches!(
            &moore.rules[0].result,
            Some((_, args)) if matches!(args[..], [Arg::Value(_), Arg::SetSeveral(..)])
        );
        assert!(set_several, "{moore:?}");
        let treblecross = &code.games[1];
        assert!(treblecross.lose.is_some(), "{treblecross:?}");
        assert!(treblecross.rules[0].guard.is_some(), "{treblecross:?}");
        assert!(treblecross.rules[0].result.is_some(), "{treblecross:?}");
    }
}
