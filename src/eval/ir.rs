//! The compiled program: names resolved to indices, variables to frame
//! slots. The checker produces it once; the interpreter runs it many times.

use super::builtins::Builtin;
use super::octal::OctalCode;
use super::take_break::TakeBreakCode;
use super::value::Value;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;
use indexmap::IndexMap;

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub games: Vec<GameIr>,
    pub functions: Vec<FnIr>,
    pub consts: Vec<ConstIr>,
    pub claims: Vec<ClaimIr>,
    /// Every name a call may refer to, to its definition.
    pub callables: IndexMap<String, Callable>,
}

impl Program {
    /// Where the game, function or constant `name` is defined (its name).
    pub fn definition_span(&self, name: &str) -> Option<Span> {
        match self.callables.get(name) {
            Some(Callable::Game(g)) => self.games.get(*g as usize).map(|g| g.span),
            Some(Callable::Function(f)) => self.functions.get(*f as usize).map(|f| f.span),
            None => self.consts.iter().find(|c| c.name == name).map(|c| c.span),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Callable {
    Game(u32),
    Function(u32),
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct GameIr {
    pub name: String,
    pub params: Vec<Param>,
    pub kind: GameKind,
    /// The name, where errors about the definition point.
    pub span: Span,
    /// The whole definition, from its first keyword to its end.
    pub definition: Span,
    /// Slots needed by the rules' environments (parameters first).
    pub frame_size: usize,
    /// Declared `loopy game`: its positions may repeat, and its values are
    /// the generalised ones.
    pub loopy: bool,
    /// `symmetry = [...]`: positions of this same game equal to each one.
    pub symmetry: Option<SymmetryIr>,
}

/// The images a `symmetry =` rule declares: each a position of the game
/// itself (`MakePos` of it, as the checker ensures), made from the
/// arguments of the position in the game's frame, as a move's result is.
#[derive(Clone, Debug)]
pub struct SymmetryIr {
    pub images: Vec<Ir>,
    /// The whole rule, where a wrong declaration is reported.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum GameKind {
    Rules {
        moves: Vec<MoveIr>,
        lose: Option<Ir>,
        parts: Option<Ir>,
    },
    /// A position of this game is whatever the expression gives.
    Alias(Ir),
    Octal(OctalCode),
    /// A take-and-break code past octal (`0.[3]`, `4!.0`, `0.8`): its
    /// moves are listed by the code, its values found by the general search.
    TakeBreak(TakeBreakCode),
}

impl GameIr {
    /// Whether the game has a `lose if` rule, which ends the whole game.
    pub fn has_lose_rule(&self) -> bool {
        matches!(&self.kind, GameKind::Rules { lose: Some(_), .. })
    }
}

#[derive(Clone, Debug)]
pub struct MoveIr {
    pub name: String,
    pub generators: Vec<GenIr>,
    pub guard: Option<Ir>,
    pub result: Ir,
    pub span: Span,
}

/// `pattern in source`, with each element stored in `slot`.
#[derive(Clone, Debug)]
pub struct GenIr {
    pub slot: u32,
    pub source: Ir,
    /// The names the user wrote for what the generator binds, each with
    /// the expression that reads its value: `k` reads the slot, and `r`
    /// of `(r, c)` its first element. Only labels and counterexamples
    /// evaluate them; the rules read the same values where they use them.
    pub shown: Vec<(String, Ir)>,
}

/// The names and values a move's or claim's generators have bound: what
/// a label or a counterexample shows.
pub fn shown_bindings(
    generators: &[GenIr],
    mut eval: impl FnMut(&Ir) -> Result<Value, crate::error::Error>,
) -> Result<Vec<(String, Value)>, crate::error::Error> {
    let mut out = Vec::new();
    for g in generators {
        for (name, read) in &g.shown {
            out.push((name.clone(), eval(read)?));
        }
    }
    Ok(out)
}

#[derive(Clone, Debug)]
pub struct FnIr {
    pub name: String,
    pub params: Vec<Param>,
    pub body: Ir,
    pub ret: Type,
    pub frame_size: usize,
    /// The name, where errors about the definition point.
    pub span: Span,
    /// The whole definition, from its first keyword to its end.
    pub definition: Span,
}

#[derive(Clone, Debug)]
pub struct ConstIr {
    pub name: String,
    pub value: Ir,
    pub ty: Type,
    pub frame_size: usize,
    /// The name, where errors about the definition point.
    pub span: Span,
    /// The whole definition, from its first keyword to its end.
    pub definition: Span,
}

#[derive(Clone, Debug)]
pub struct ClaimIr {
    pub generators: Vec<GenIr>,
    pub filter: Option<Ir>,
    pub body: Ir,
    pub frame_size: usize,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Ir {
    pub kind: IrKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum IrKind {
    Lit(Value),
    Local(u32),
    Const(u32),
    CallFn(u32, Vec<Ir>),
    MakePos(u32, Vec<Ir>),
    Builtin(Builtin, Vec<Ir>),
    List(Vec<Ir>),
    Set(Vec<Ir>),
    Tuple(Vec<Ir>),
    Comprehension {
        element: Box<Ir>,
        clauses: Vec<CompIr>,
    },
    If(Box<Ir>, Box<Ir>, Box<Ir>),
    Unary(UnaryOp, Box<Ir>),
    Binary(BinaryOp, Box<Ir>, Box<Ir>),
    Index(Box<Ir>, Box<Ir>),
}

#[derive(Clone, Debug)]
pub struct CompIr {
    pub generator: GenIr,
    pub guard: Option<Ir>,
}
