//! The abstract syntax tree: what the user wrote, with spans, before any
//! name is resolved.

use crate::source::Span;
use crate::types::Type;
use std::sync::Arc;

#[derive(Clone, Debug)]
pub struct File {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Use(UseDecl),
    Const(ConstDef),
    Fn(FnDef),
    Game(GameDef),
    Claim(Claim),
}

/// `use "heaps.game";`: the definitions of another file, found relative
/// to the file that names it.
#[derive(Clone, Debug)]
pub struct UseDecl {
    pub path: String,
    /// The string naming the file, quotes included.
    pub path_span: Span,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct ConstDef {
    pub name: Ident,
    pub value: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FnDef {
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub name: Ident,
    pub ty: Option<TypeExpr>,
}

#[derive(Clone, Debug)]
pub struct TypeExpr {
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct GameDef {
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: GameBody,
    /// Declared `loopy game`: its positions may repeat.
    pub loopy: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum GameBody {
    /// `= octal 0.77;`
    Octal { code: String, span: Span },
    /// `= expr;`: each position is this position or sum.
    Alias(Expr),
    /// `{ move ...; lose if ...; parts = ...; }`
    Rules(Vec<GameItem>),
}

#[derive(Clone, Debug)]
pub enum GameItem {
    Move(MoveRule),
    /// `let w = width(g);`: seen by every rule of the game.
    Let(LetBinding),
    Lose {
        condition: Expr,
        span: Span,
    },
    Parts {
        parts: Expr,
        span: Span,
    },
    /// `symmetry = [G(...), ...];`: the same position seen another way.
    Symmetry {
        images: Expr,
        span: Span,
    },
}

#[derive(Clone, Debug)]
pub struct MoveRule {
    pub name: Ident,
    pub generators: Vec<Clause>,
    pub guard: Option<Expr>,
    pub result: Expr,
    pub span: Span,
}

/// One clause of a move's or a claim's scope: a generator or a `let`.
#[derive(Clone, Debug)]
pub enum Clause {
    Each(Generator),
    Let(LetBinding),
}

/// `pattern in source`
#[derive(Clone, Debug)]
pub struct Generator {
    pub pattern: Pattern,
    pub source: Expr,
}

/// `let pattern = value`: a name (or names) for an expression.
#[derive(Clone, Debug)]
pub struct LetBinding {
    pub pattern: Pattern,
    pub value: Expr,
    pub span: Span,
}

/// What a generator or `let` binds: `x`, or `(r, c)` taking a tuple apart.
#[derive(Clone, Debug)]
pub enum Pattern {
    Name(Ident),
    Tuple(Vec<Pattern>, Span),
}

impl Pattern {
    pub fn span(&self) -> Span {
        match self {
            Pattern::Name(n) => n.span,
            Pattern::Tuple(_, span) => *span,
        }
    }

    /// The names it binds, left to right.
    pub fn names(&self) -> Vec<&Ident> {
        match self {
            Pattern::Name(n) => vec![n],
            Pattern::Tuple(parts, _) => parts.iter().flat_map(Pattern::names).collect(),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Claim {
    pub scope: Vec<Clause>,
    /// Only the bindings for which this holds are checked.
    pub filter: Option<Expr>,
    pub body: Expr,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Int(i64),
    Str(Arc<str>),
    Bool(bool),
    Var(String),
    Call {
        name: Ident,
        args: Vec<Expr>,
    },
    List(Vec<Expr>),
    Set(Vec<Expr>),
    Tuple(Vec<Expr>),
    Comprehension {
        element: Box<Expr>,
        clauses: Vec<CompClause>,
    },
    If {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Unary {
        op: UnaryOp,
        operand: Box<Expr>,
    },
    Binary {
        op: BinaryOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Index {
        target: Box<Expr>,
        index: Box<Expr>,
    },
    /// `(e)`: the same value as `e`; kept so that `(a < b) < c` is not
    /// mistaken for a chain.
    Group(Box<Expr>),
    /// `let x = e; body`
    Let {
        binding: Box<LetBinding>,
        body: Box<Expr>,
    },
}

/// `for pattern in source if guard` inside a list comprehension.
#[derive(Clone, Debug)]
pub struct CompClause {
    pub generator: Generator,
    pub guard: Option<Expr>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Or,
    And,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    In,
    NotIn,
    RangeExclusive,
    RangeInclusive,
    BitOr,
    BitXor,
    BitAnd,
    Shl,
    Shr,
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Pow,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Or => "or",
            And => "and",
            Eq => "==",
            Ne => "!=",
            Lt => "<",
            Le => "<=",
            Gt => ">",
            Ge => ">=",
            In => "in",
            NotIn => "not in",
            RangeExclusive => "..",
            RangeInclusive => "..=",
            BitOr => "|",
            BitXor => "^",
            BitAnd => "&",
            Shl => "<<",
            Shr => ">>",
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Pow => "**",
        }
    }
}
