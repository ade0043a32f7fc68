//! The compiled form of a game's rules over a packed key: expressions read
//! registers (the key's fields, decoded, then the rules' own variables) and
//! small tuple registers (what `subsets` and `product` give), and a move
//! writes fields of a copy of the key.

use super::layout::Fields;
use crate::syntax::ast::BinaryOp;

#[derive(Debug)]
pub enum Num {
    Lit(i64),
    Reg(u32),
    /// Element `i` of a list's fields.
    Field(Fields, Box<Num>),
    /// Element `i` of a tuple register.
    TupleAt(u32, Box<Num>),
    TupleLen(u32),
    /// `+ - * / % | ^ & << >>`.
    Binary(BinaryOp, Box<Num>, Box<Num>),
    Neg(Box<Num>),
    Abs(Box<Num>),
    Min(Vec<Num>),
    Max(Vec<Num>),
    SumFields(Fields),
    SumTuple(u32),
    If(Box<Truth>, Box<Num>, Box<Num>),
    /// A helper's argument put in a register (checked to be a natural
    /// number when the flag is set), then the helper's body.
    Let(Box<Bind>, Box<Num>),
}

/// A character of a string, as its code in the string's alphabet.
#[derive(Debug)]
pub enum Char {
    Cell(Fields, Box<Num>),
    /// A literal; -1 for a letter outside the alphabet (it matches no cell).
    Code(i64),
}

#[derive(Debug)]
pub enum Truth {
    Lit(bool),
    Not(Box<Truth>),
    And(Box<Truth>, Box<Truth>),
    Or(Box<Truth>, Box<Truth>),
    Compare(BinaryOp, Num, Num),
    /// `==` (flag set) or `!=` between characters.
    SameChar(bool, Char, Char),
    /// `has(board, "...")`: the codes of the text, or `None` when a letter
    /// of it is outside the alphabet (so no board has it).
    Has(Fields, Option<Vec<i64>>),
    Let(Box<Bind>, Box<Truth>),
}

/// `reg = value`, checked to be natural when `nat` is set.
#[derive(Debug)]
pub struct Bind {
    pub reg: u32,
    pub value: Num,
    pub nat: bool,
}

/// What a `for`, `subsets` or comprehension walks.
#[derive(Debug)]
pub enum Seq {
    /// `lo..hi`, or `lo..=hi` when the flag is set.
    Range(Num, Num, bool),
    /// The elements of a list.
    Fields(Fields),
    /// The elements of a tuple register.
    Tuple(u32),
}

#[derive(Debug)]
pub enum Source {
    /// Every element, into a register.
    Each(Seq),
    /// `subsets(items, lo, hi)`, into a tuple register.
    Subsets(Seq, Num, Num),
    /// `product([lo..hi for var in over])` (`..=` when the flag is set),
    /// into a tuple register.
    ProductOf {
        over: Seq,
        var: u32,
        lo: Num,
        hi: Num,
        inclusive: bool,
    },
    /// `product([a..b, c..=d, ...])`, into a tuple register.
    ProductList(Vec<(Num, Num, bool)>),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    Reg(u32),
    Tuple(u32),
}

#[derive(Debug)]
pub struct Gen {
    pub target: Target,
    pub source: Source,
}

/// What a move writes into the new key.
#[derive(Debug)]
pub enum Write {
    /// A number parameter's new value.
    Scalar(Fields, Num),
    /// `set_at(list, i, n)`.
    Element(Fields, Num, Num),
    /// `set_at(board, i, c)`.
    Cell(Fields, Num, Char),
    /// `set_at(list, indices, values)` with the values in a tuple register.
    Several(Fields, Indices, u32),
    /// A list parameter's new elements, all of them.
    Whole(Fields, Vec<Num>),
    /// `reverse(x)` of a list or string parameter, whole.
    Reversed(Fields),
    /// `[element for var in over if guard]` as a list parameter's elements.
    Comprehension {
        fields: Fields,
        var: u32,
        over: Seq,
        guard: Option<Truth>,
        element: Num,
    },
}

#[derive(Debug)]
pub struct Rule {
    pub gens: Vec<Gen>,
    pub guard: Option<Truth>,
    pub writes: Vec<Write>,
    /// The last generator, the guard and the writes run as one step on
    /// the key, where their shape allows (see `fused`).
    pub fused: Option<Fused>,
}

/// Shapes of a rule's innermost loop that run on the key itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fused {
    /// `i in indices(board)`, guard `board[i] == from`, result
    /// `set_at(board, i, to)`: every cell holding `from` read off the key.
    Place { fields: Fields, from: i64, to: i64 },
    /// A last generator `t in product(...)` and the result
    /// `set_at(list, at, t)`: the keys counted up as the tuples are.
    SetProduct {
        fields: Fields,
        at: Indices,
        tuple: u32,
    },
}

/// Where the indices of a `set_at` of several elements are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Indices {
    Tuple(u32),
    /// A list argument's elements.
    Fields(Fields),
}

/// A game's rules, compiled for one layout.
#[derive(Debug)]
pub struct GameCode {
    pub lose: Option<Truth>,
    pub rules: Vec<Rule>,
    /// What each image a `symmetry =` declares writes into the key.
    pub images: Vec<Vec<Write>>,
    /// Why the images could not be compiled, when they could not: the
    /// search then stores every position of an orbit.
    pub unimaged: Option<crate::eval::engine::Unsupported>,
    /// Scalar registers in all (the key's fields first).
    pub regs: u32,
    pub tuples: u32,
    /// Whether the rules read the key's fields as registers; fused rules
    /// and `has` read the key itself.
    pub decode: bool,
}
