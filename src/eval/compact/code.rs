//! The compiled form of a game's rules over a packed key: expressions read
//! registers (the key's fields, decoded, then the rules' own variables) and
//! small tuple registers (what `subsets` and `product` give), and a move
//! writes fields of a copy of the key.

use super::bound_runs::BoundRun;
use super::closure::{Closure, Step};
use super::hoist::Hoist;
use super::layout::Fields;
use super::placed::Placed;
use super::sieve::Sieve;
use crate::syntax::ast::BinaryOp;
use std::rc::Rc;

#[derive(Debug)]
pub enum Num {
    Lit(i64),
    Reg(u32),
    /// Element `i` of a list's fields.
    Field(Fields, Box<Num>),
    /// Element `i` of a tuple register.
    TupleAt(u32, Box<Num>),
    /// Element `i` of a list known before any rule runs (a constant);
    /// none past its end.
    Item(Rc<[i64]>, Box<Num>),
    TupleLen(u32),
    /// `+ - * / % | ^ & << >>`.
    Binary(BinaryOp, Box<Num>, Box<Num>),
    Neg(Box<Num>),
    Abs(Box<Num>),
    Min(Vec<Num>),
    Max(Vec<Num>),
    SumFields(Fields),
    SumTuple(u32),
    /// `count(board, "text")` on a string parameter: how often the codes
    /// occur in its cells without overlapping, read off the key.
    Matches(Fields, Rc<[i64]>),
    /// `index_of(items, n)`: the place of the first item equal to `n`,
    /// -1 where none is (also `n in items`, where it is at least 0).
    IndexOf(Box<Seq>, Box<Num>),
    /// `len` of a string worked out by the rules.
    TextLen(Box<Text>),
    /// `index_of(text, "...")` or `count(text, "...")`: where the literal
    /// (as `Text::Lit` holds it, never empty) first starts in a string, -1
    /// where it does not, or how often it occurs without overlapping;
    /// `None` for a literal with a letter outside the alphabet, which no
    /// string holds.
    Find(Box<Text>, Option<(u64, u32)>, Sought),
    /// A letter's code, where a list of codes is made of letters.
    Code(Box<Char>),
    If(Box<Truth>, Box<Num>, Box<Num>),
    /// A helper's argument put in a register (checked to be a natural
    /// number when the flag is set), then the helper's body.
    Let(Box<Bind>, Box<Num>),
    /// The 1 bits of a number at least 0: `popcount`, and the length of
    /// a set held as a mask (see `bitsets`).
    Ones(Box<Num>),
    /// The least (or with `highest`, the largest) number of a set held
    /// as a mask over numbers from `lo`; none for the empty set.
    Extreme {
        mask: Box<Num>,
        lo: i64,
        highest: bool,
    },
    /// What `element` makes for the values of a walk, joined (see
    /// `Join`): `|` of masks for a set made by a comprehension, `+` for
    /// `sum`, `len` and `count` of one, the least for `min`. The
    /// comprehension's list is never made, but no more elements are worked
    /// out than it could hold.
    Fold(Join, Box<Walk>, Box<Num>),
    /// The expression made into a closure once compiled (see `closure`).
    Closure(Closure<i64>),
}

/// What `Num::Find` gives of a text in a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sought {
    /// Where it first starts, as `index_of`.
    First,
    /// How often it occurs without overlapping, as `count`.
    Count,
}

/// How a fold joins the values its walk makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Join {
    /// By the operator, from 0: the sum, XOR or OR of no values is 0.
    Op(BinaryOp),
    /// The least value (or with `highest`, the largest): none for no
    /// values, as `min` of an empty list is an error.
    Extreme { highest: bool },
}

impl Join {
    /// The values joined so far once `v`, the walk's `count`th (from 1),
    /// joins them.
    #[inline(always)]
    pub fn step(self, joined: i64, count: usize, v: i64) -> Option<i64> {
        match self {
            Join::Op(op) => crate::eval::arith::arithmetic(op, joined, v),
            Join::Extreme { .. } if count == 1 => Some(v),
            Join::Extreme { highest: false } => Some(joined.min(v)),
            Join::Extreme { highest: true } => Some(joined.max(v)),
        }
    }

    /// The fold's value once its walk made `count` values.
    #[inline(always)]
    pub fn end(self, joined: i64, count: usize) -> Option<i64> {
        match self {
            Join::Extreme { .. } if count == 0 => None,
            _ => Some(joined),
        }
    }
}

/// A character of a string, as its code in the string's alphabet.
#[derive(Debug)]
pub enum Char {
    Cell(Fields, Box<Num>),
    /// `grid[r][c]`, read off the row's register.
    GridCell(Rows, Box<Num>, Box<Num>),
    /// A literal; -1 for a letter outside the alphabet (it matches no cell).
    Code(i64),
    /// A helper's one-letter argument.
    Reg(u32),
    If(Box<Truth>, Box<Char>, Box<Char>),
    Let(Box<Bind>, Box<Char>),
    /// Any other string, which must be one letter long.
    Text(Box<Text>),
}

/// A string worked out by the rules: its letters' codes side by side in
/// one word (cell `i` at bit `i` times the alphabet's width) and its
/// length. Every string of a game shares one alphabet (see `layout`).
#[derive(Debug)]
pub enum Text {
    /// A literal: `None` when a letter of it is outside the alphabet.
    Lit(Option<(u64, u32)>),
    /// A string parameter, read off the key.
    Param(Fields),
    /// Row `i` of a grid whose rows (of `cols` letters) are in registers.
    Row(Fields, u32, Box<Num>),
    /// A helper's string argument.
    Reg(u32),
    /// A helper's one-letter argument, held as its code.
    Letter(u32),
    /// `text[i]`.
    At(Box<Text>, Box<Num>),
    /// `set_at(text, i, letter)`.
    SetAt(Box<Text>, Box<Num>, Box<Text>),
    /// `slice(text, from, to)`.
    Slice(Box<Text>, Box<Num>, Box<Num>),
    /// `repeat(text, n)`.
    Repeat(Box<Text>, Box<Num>),
    /// `a + b`.
    Concat(Box<Text>, Box<Text>),
    If(Box<Truth>, Box<Text>, Box<Text>),
    Let(Box<Bind>, Box<Text>),
    /// `join([letter for walk])`: the letters' codes, made as a list.
    Joined(Box<MadeList>),
    /// `reverse(text)`.
    Reversed(Box<Text>),
    /// `min` (flag unset) or `max` (set) of strings written out, in the
    /// order of strings.
    Least(bool, Vec<Text>),
    Closure(Closure<(u64, u32)>),
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
    /// `==` (flag set) or `!=` between strings.
    SameText(bool, Text, Text),
    /// `n in items` (flag set) or `n not in items`, for a set held aside.
    In(bool, Num, Rc<[i64]>),
    /// `n in set` (flag set) or `n not in set`, for a set held as a mask
    /// over numbers from the given one.
    Member(bool, Num, Num, i64),
    /// `has(text, "...")` on a string worked out by the rules: the
    /// literal as `Text::Lit` holds it (never empty).
    HasText(Text, Option<(u64, u32)>),
    /// `any([element for walk])` (flag set) or `all(...)`: every element
    /// is worked out, as the list would be.
    Each {
        any: bool,
        walk: Box<Walk>,
        element: Box<Truth>,
    },
    Let(Box<Bind>, Box<Truth>),
    Closure(Closure<bool>),
}

/// A helper's argument put in a register: a number (checked to be
/// natural when `nat` is set) or a string (in a string register).
#[derive(Debug)]
pub enum Bind {
    Num {
        reg: u32,
        value: Num,
        nat: bool,
    },
    Text {
        reg: u32,
        value: Text,
    },
    /// One letter's code, in a number register.
    Letter {
        reg: u32,
        value: Char,
    },
    /// A list of numbers worked out whole, into its tuple register.
    List(Box<MadeList>),
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
    /// The elements of a set held aside.
    Items(Rc<[i64]>),
    /// The elements, in increasing order, of a set whose mask over
    /// numbers from the given one is in a register.
    Members(u32, i64),
    /// A list the rules work out, made afresh each time it is walked.
    Made(Box<MadeList>),
}

/// A list the rules work out, `[element for walk]`, put in a tuple
/// register: each time a generator or a comprehension walks it (as
/// `Seq::Made`), or before a write reads the register (`Write::Fill`).
#[derive(Debug)]
pub struct MadeList {
    pub tuple: u32,
    pub walk: Walk,
    pub element: Num,
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
    /// `sort(list)` or `sort(text)` of what the writes before it made:
    /// the elements in increasing order (a field's order is its number's,
    /// and a letter's code follows the alphabet's order); of a list whose
    /// length the rules change, the elements its length field counts.
    Sorted(Fields, Option<Fields>),
    /// `[element for var in over if guard]` as a list parameter's elements,
    /// or a grid's rows.
    Comprehension {
        fields: Fields,
        walk: Walk,
        element: Element,
    },
    /// A string parameter's new value, whole.
    Text(Fields, Text),
    /// `set_at(grid, i, row)`.
    Row(Rows, Num, Text),
    /// A grid's new rows, all of them.
    Rows(Rows, Vec<Text>),
    /// The grid turned or reflected (see `turn`): for each cell, the cell
    /// it takes its letter from; `None` for a turn into another shape,
    /// which no key of the layout holds.
    Turned(Rows, Option<Box<[u32]>>),
    /// `if test then .. else ..` as a parameter's new value: the writes of
    /// the branch taken.
    Choose {
        test: Truth,
        then: Vec<Write>,
        otherwise: Vec<Write>,
    },
    /// A list parameter's new elements written in pieces, one after the
    /// other (`slice(h, 0, c) + [...]`): every element, no more.
    Appended(Fields, Vec<Appended>),
    /// A new list, written in pieces, for a list whose length the rules
    /// change: as many elements as the pieces make (no more than `items`
    /// has room for), the rest cleared, and their number in `length`.
    Sized {
        items: Fields,
        length: Fields,
        pieces: Vec<Appended>,
    },
    /// `writes` made for every value of a walk, in turn.
    Each { walk: Walk, writes: Vec<Write> },
    /// A list worked out into its tuple register, for the writes after it
    /// (`set_at(xs, at, [... for (i, t) in zip(at, taken)])`); the key is
    /// left as it is.
    Fill(Box<MadeList>),
    /// A helper's argument put in its register, for the writes after it
    /// (a helper that makes a parameter's new value is written in place);
    /// the key is left as it is.
    Bind(Bind),
    /// A list of truth values made whole at every place at once (see
    /// `lanes`).
    Lanes(Fields, Box<super::lanes::Lanes>),
    /// The write made into a closure once compiled (see `closure`).
    Closure(Step),
}

/// A piece of a new list: one element, or one for each value of a walk.
#[derive(Debug)]
pub enum Appended {
    One(Num),
    Each(Box<Walk>, Num),
}

/// A comprehension's one generator: `var in over if guard`.
#[derive(Debug)]
pub struct Walk {
    pub var: u32,
    pub over: Seq,
    pub guard: Option<Truth>,
}

/// A new list's element: a number, or a grid's row.
#[derive(Debug)]
pub enum Element {
    Num(Num),
    Row(Rows, Text),
}

/// A grid's place in the key: one field a row, `cols` letters a row. The
/// field holds the row's letters side by side, or when `numbered` its
/// number in the game's table of rows (see `rows`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rows {
    pub fields: Fields,
    pub cols: u32,
    pub numbered: bool,
}

#[derive(Debug)]
pub struct Rule {
    pub gens: Vec<Gen>,
    /// Tests of the guard made as soon as generator `i` is set (see
    /// `early`), one entry a generator.
    pub early: Vec<Option<Truth>>,
    /// The rest of the guard.
    pub guard: Option<Truth>,
    /// What the guard reads from outside itself (registers, and whether
    /// the key), found before it is made a closure (see `closure::lower`):
    /// `None` where that is not known.
    pub guard_reads: Option<(Vec<u32>, bool)>,
    pub writes: Vec<Write>,
    /// For a move that leaves a sum of positions, what makes its parts
    /// (see `sums`); `writes` is then empty.
    pub sum: Option<Vec<super::sums::Part>>,
    /// The last generator, the guard and the writes run as one step on
    /// the key, where their shape allows (see `fused`).
    pub fused: Option<Fused>,
    /// For each generator, a test of the guard whose truth changes at
    /// most once along the generator's values (see `monotone`): the loop
    /// walks only the values where it holds. Empty when none is sought.
    pub bounds: Vec<Option<Truth>>,
    /// The same bounds as closures, what runs (see `bound_runs`); empty
    /// until the code is lowered.
    pub bound_runs: Vec<Option<BoundRun>>,
    /// Whether the last loop's keys form a progression (see `progression`).
    pub progression: bool,
    /// Whether the last generator is a product whose tuple the keys are
    /// affine in, and how (see `product_runs`).
    pub product_runs: Option<Spread>,
    /// The first writes, made once for each value of the generators
    /// before the last (see `hoist`).
    pub hoist: Option<Hoist>,
    /// For each generator, the leading letter tests made after it is set,
    /// read for all its values at once (see `sieve`). Empty when none is
    /// sought.
    pub sieves: Vec<Option<Sieve>>,
}

impl Truth {
    /// `a and b and c` as `[a, b, c]`, in the order they are made.
    pub fn conjuncts(self, out: &mut Vec<Truth>) {
        match self {
            Truth::And(a, b) => {
                a.conjuncts(out);
                b.conjuncts(out);
            }
            t => out.push(t),
        }
    }

    /// `a and b and c` as `[a, b, c]`, borrowed.
    pub fn and_chain<'t>(&'t self, out: &mut Vec<&'t Truth>) {
        match self {
            Truth::And(a, b) => {
                a.and_chain(out);
                b.and_chain(out);
            }
            t => out.push(t),
        }
    }

    /// The tests as one `and` chain, made in their order; `None` for none.
    pub fn all(tests: Vec<Truth>) -> Option<Truth> {
        tests
            .into_iter()
            .reduce(|a, b| Truth::And(Box::new(a), Box::new(b)))
    }
}

impl Num {
    /// The value of a number made of literals alone.
    pub fn constant(&self) -> Option<i64> {
        match self {
            Num::Lit(v) => Some(*v),
            Num::Neg(a) => a.constant()?.checked_neg(),
            Num::Binary(BinaryOp::Add, a, b) => a.constant()?.checked_add(b.constant()?),
            Num::Binary(BinaryOp::Sub, a, b) => a.constant()?.checked_sub(b.constant()?),
            _ => None,
        }
    }

    /// A copy of a number of arithmetic on registers and the key's
    /// fields, for a tree read again after it is lowered (see
    /// `bound_runs`); `None` where it has a part not copied (a sequence,
    /// a string, a walk, a closure).
    pub fn copy(&self) -> Option<Num> {
        let boxed = |x: &Num| x.copy().map(Box::new);
        let all = |xs: &[Num]| xs.iter().map(Num::copy).collect::<Option<Vec<_>>>();
        Some(match self {
            Num::Lit(v) => Num::Lit(*v),
            Num::Reg(r) => Num::Reg(*r),
            Num::Field(f, i) => Num::Field(*f, boxed(i)?),
            Num::TupleAt(t, i) => Num::TupleAt(*t, boxed(i)?),
            Num::Item(xs, i) => Num::Item(xs.clone(), boxed(i)?),
            Num::TupleLen(t) => Num::TupleLen(*t),
            Num::Binary(op, a, b) => Num::Binary(*op, boxed(a)?, boxed(b)?),
            Num::Neg(x) => Num::Neg(boxed(x)?),
            Num::Abs(x) => Num::Abs(boxed(x)?),
            Num::Min(xs) => Num::Min(all(xs)?),
            Num::Max(xs) => Num::Max(all(xs)?),
            Num::SumFields(f) => Num::SumFields(*f),
            Num::SumTuple(t) => Num::SumTuple(*t),
            Num::Matches(f, codes) => Num::Matches(*f, codes.clone()),
            Num::If(c, a, b) => Num::If(Box::new(c.copy()?), boxed(a)?, boxed(b)?),
            Num::Let(bind, body) => Num::Let(Box::new(bind.copy()?), boxed(body)?),
            Num::Ones(x) => Num::Ones(boxed(x)?),
            // The length of a grid's row, which the layout fixes.
            Num::TextLen(t) => match &**t {
                Text::Row(f, cols, i) => Num::TextLen(Box::new(Text::Row(*f, *cols, boxed(i)?))),
                _ => return None,
            },
            Num::Extreme { mask, lo, highest } => Num::Extreme {
                mask: boxed(mask)?,
                lo: *lo,
                highest: *highest,
            },
            _ => return None,
        })
    }

    /// The registers a number of arithmetic, elements and choices on
    /// comparisons of such numbers reads, onto `regs`; `None` for a
    /// number read some other way.
    pub fn reads(&self, regs: &mut Vec<u32>) -> Option<()> {
        match self {
            Num::Lit(_) => {}
            Num::Reg(r) => regs.push(*r),
            Num::Binary(_, a, b) => {
                a.reads(regs)?;
                b.reads(regs)?;
            }
            Num::Neg(a) | Num::Field(_, a) | Num::TupleAt(_, a) | Num::Item(_, a) => {
                a.reads(regs)?
            }
            Num::If(t, a, b) => {
                t.reads(regs)?;
                a.reads(regs)?;
                b.reads(regs)?;
            }
            _ => return None,
        }
        Some(())
    }
}

impl Truth {
    /// A copy of a test made of comparisons of numbers `Num::copy`
    /// copies.
    pub fn copy(&self) -> Option<Truth> {
        let boxed = |x: &Truth| x.copy().map(Box::new);
        Some(match self {
            Truth::Lit(b) => Truth::Lit(*b),
            Truth::Not(x) => Truth::Not(boxed(x)?),
            Truth::And(a, b) => Truth::And(boxed(a)?, boxed(b)?),
            Truth::Or(a, b) => Truth::Or(boxed(a)?, boxed(b)?),
            Truth::Compare(op, a, b) => Truth::Compare(*op, a.copy()?, b.copy()?),
            Truth::In(flag, n, set) => Truth::In(*flag, n.copy()?, set.clone()),
            Truth::Member(flag, n, mask, lo) => Truth::Member(*flag, n.copy()?, mask.copy()?, *lo),
            Truth::Let(bind, body) => Truth::Let(Box::new(bind.copy()?), boxed(body)?),
            _ => return None,
        })
    }

    /// The registers a test of comparisons of numbers `Num::reads` takes
    /// reads, onto `regs`; `None` for a test made some other way.
    fn reads(&self, regs: &mut Vec<u32>) -> Option<()> {
        match self {
            Truth::Lit(_) => Some(()),
            Truth::Compare(_, a, b) => {
                a.reads(regs)?;
                b.reads(regs)
            }
            Truth::Not(a) => a.reads(regs),
            Truth::And(a, b) | Truth::Or(a, b) => {
                a.reads(regs)?;
                b.reads(regs)
            }
            _ => None,
        }
    }
}

impl Bind {
    fn copy(&self) -> Option<Bind> {
        match self {
            Bind::Num { reg, value, nat } => Some(Bind::Num {
                reg: *reg,
                value: value.copy()?,
                nat: *nat,
            }),
            _ => None,
        }
    }
}

impl Rule {
    /// The tests made right after generator `d` is set: its early tests,
    /// or for the last generator the guard where it has none (the rules
    /// are compiled with the last generator's tests put in the guard);
    /// `None` for a last generator with early tests of its own.
    pub fn tests_after(&mut self, d: usize) -> Option<&mut Option<Truth>> {
        if d + 1 < self.gens.len() {
            self.early.get_mut(d)
        } else if self.early.get(d)?.is_none() {
            Some(&mut self.guard)
        } else {
            None
        }
    }
}

/// How the terms of a rule's writes read the tuple of its last generator,
/// a product, when they are affine in it (see `product_runs`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Spread {
    /// Each reads one element of the tuple at most.
    Single,
    /// Some read several.
    Affine,
}

/// Shapes of a rule's innermost loop that run on the key itself.
#[derive(Debug)]
pub enum Fused {
    /// `i in indices(board)`, guard `board[i] == from`, result
    /// `set_at(board, i, to)`: every cell holding `from` read off the key.
    Place { fields: Fields, from: i64, to: i64 },
    /// A last generator `t in product(...)` and the result `set_at(list,
    /// at, values)`, each value made from the element of `t` at its
    /// place: the keys counted up as the tuples are (see `placed`).
    SetProduct {
        fields: Fields,
        at: Indices,
        tuple: u32,
        placed: Placed,
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
    /// Why a helper could not be compiled in place, where one runs on
    /// the reference evaluator instead (see `called`).
    pub evaluated: Option<crate::eval::engine::Unsupported>,
    /// Scalar registers in all (the key's fields first).
    pub regs: u32,
    pub tuples: u32,
    /// String registers in all.
    pub texts: u32,
    /// Bits a letter takes in a string's word (see `layout`).
    pub cell: u32,
    /// Whether the rules read the key's fields as registers; fused rules
    /// and `has` read the key itself.
    pub decode: bool,
}
