//! From a game's compiled program (`Ir`) to code over a packed key, for
//! one layout. Compiling is all or nothing: a rule, guard or expression
//! outside what `code` can say leaves the game to the general search.
//! Helpers are inlined, their arguments bound to registers.

mod bools;
mod calls;
mod each;
mod evaluated;
mod game;
mod generators;
mod grid_order;
mod helper_result;
mod lanes;
mod lengths;
mod letterwise;
mod made;
mod naturals;
mod numbers;
mod own_letter;
mod passed;
mod pieces;
mod put_back;
mod sets;
mod several;
mod spliced;
mod tables;
mod texts;
mod truths;
mod types;
mod unfold;
mod views;
mod worked;
mod writes;

pub use game::{fixed_and_letters, games, grid_held};
pub use lengths::{changing, growing};
pub use unfold::unfolded;

use super::code::{Rows, Write};
use super::layout::{Fields, Layout};
use crate::eval::engine::Unsupported;
use crate::eval::ir::{CompIr, Ir, IrKind, Program};
use crate::eval::value::Value;
use std::rc::Rc;
use std::sync::Arc;

/// Helpers are inlined this deep; a deeper (or recursive) call is not
/// compiled.
pub(super) const MAX_INLINE: u32 = 12;

/// What a variable of the program is, to the compiled code.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Num(u32),
    Const(i64),
    List(Fields),
    /// A list of booleans: a string of two letters, false (0) and true (1).
    Bools(Fields),
    Str(Fields, Vec<u8>),
    Tuple(u32),
    Grid(Rows),
    /// A set of numbers held aside.
    Items(Rc<[i64]>),
    /// A string in a string register.
    Text(u32),
    /// One letter, its code in a register.
    Letter(u32),
    /// A boolean, 1 or 0 in a register.
    Flag(u32),
    /// One of a list of tuples of numbers written out (`(dx, dy) in [(1, 0),
    /// (0, 1)]`, `(x, y) in [(k, 0), (0, k)]`): the register holds its place
    /// in the list.
    Chosen(u32, Rc<[Vec<Entry>]>),
    /// A new grid a helper is given, made where it is used (see `made`).
    Made(Rc<made::Made>),
    /// A set of numbers the rules change: its mask over the layout's
    /// universe in a register (see `sets`).
    Mask(u32),
    /// A pair standing for the place in the register: its elements are
    /// the parts at that place (see `worked`).
    Pair(u32, Rc<[worked::Part]>),
    /// A tuple register of places, each standing for a pair of the parts
    /// (a subset of `enumerate(xs)`).
    Mapped(u32, Rc<[worked::Part]>),
    /// A grid parameter turned, read as a grid of its own shape (see
    /// `views`).
    View(Rows, Rc<views::View>),
    /// A row of a constant list of lists of numbers, at the place in the
    /// register (see `tables`).
    Row(Rc<tables::Table>, u32),
}

/// An element of a tuple written out in a list a generator walks: a
/// number, or the register of a number variable, which holds its value
/// while the walk goes on (the variable is bound before the walk).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    Lit(i64),
    Reg(u32),
}

pub(super) type Scope = Vec<Option<Val>>;

pub(super) struct Compiler<'a> {
    program: &'a Arc<Program>,
    /// The values of the program's constants, known before any rule runs.
    consts: &'a [Value],
    layout: &'a Layout,
    regs: u32,
    tuples: u32,
    texts: u32,
    depth: u32,
    /// Registers that hold natural numbers only: the key's fields' and
    /// those of generators that walk them (see `naturals`).
    naturals: Vec<u32>,
    /// Tuple registers that hold natural numbers only (see `naturals`).
    natural_tuples: Vec<u32>,
    /// Registers that walk a range between numbers known at once: the
    /// register, its least value and one past its largest.
    ranges: Vec<(u32, i64, i64)>,
    /// Tuple registers that hold each number at most once (see
    /// `naturals`).
    distinct_tuples: Vec<u32>,
    /// The length of the list whose length changes, in the keys the code
    /// is compiled for (see `Layout::shapes`).
    shape: u32,
    /// Why the first helper called through the reference evaluator could
    /// not be compiled in place (see `called`).
    evaluated: Option<Unsupported>,
    /// Helpers that call themselves being written in place around the
    /// code being compiled (see `calls`).
    recursing: u32,
}

/// `children` and `children_mut`: one walk, over shared or mutable
/// references.
macro_rules! children_of {
    ($(#[$doc:meta])* $name:ident $(, $mutable:tt)?) => {
        $(#[$doc])*
        pub(super) fn $name<'i>(ir: &'i $($mutable)? Ir, mut f: impl FnMut(&'i $($mutable)? Ir)) {
            match & $($mutable)? ir.kind {
                IrKind::Lit(_) | IrKind::Local(_) | IrKind::Const(_) => {}
                IrKind::CallFn(_, xs)
                | IrKind::MakePos(_, xs)
                | IrKind::Builtin(_, xs)
                | IrKind::List(xs)
                | IrKind::Set(xs)
                | IrKind::Tuple(xs) => xs.into_iter().for_each(f),
                IrKind::Comprehension { element, clauses } => {
                    f(element);
                    for c in clauses {
                        f(& $($mutable)? c.generator.source);
                        if let Some(g) = & $($mutable)? c.guard {
                            f(g);
                        }
                    }
                }
                IrKind::If(a, b, c) => {
                    f(a);
                    f(b);
                    f(c);
                }
                IrKind::Unary(_, x) => f(x),
                IrKind::Binary(_, a, b) | IrKind::Index(a, b) => {
                    f(a);
                    f(b);
                }
            }
        }
    };
}

children_of!(
    /// Calls `f` on each expression directly inside `ir`.
    children
);
children_of!(
    /// Calls `f` on each expression directly inside `ir`, to change it.
    children_mut,
    mut
);

pub(super) fn letter(ir: &Ir) -> Option<u8> {
    match &ir.kind {
        IrKind::Lit(Value::Str(s)) if s.len() == 1 && s.is_ascii() => Some(s.as_bytes()[0]),
        _ => None,
    }
}

/// The letters of a list of one-letter strings written out (`["R", "G",
/// "B"]`) or named by a constant, in order.
pub(in crate::eval::compact) fn letters_written_out(ir: &Ir, consts: &[Value]) -> Option<Vec<u8>> {
    let value = match &ir.kind {
        IrKind::List(items) => return items.iter().map(letter).collect(),
        IrKind::Lit(v) => v,
        IrKind::Const(c) => consts.get(*c as usize)?,
        _ => return None,
    };
    match value {
        Value::List(items) => items
            .iter()
            .map(|v| match v {
                Value::Str(s) if s.len() == 1 && s.is_ascii() => Some(s.as_bytes()[0]),
                _ => None,
            })
            .collect(),
        _ => None,
    }
}

/// What the compiled code reads as a number.
const NUMBERS: &str = "an expression the compiled search cannot compute: it computes numbers \
     with arithmetic (`pow` and `xor` of numbers among it), `if`, indexing, `len`, `sum`, `abs`, \
     `popcount`, `min`, `max` (of numbers, or of a list or set parameter), `count` (of a number \
     in a list, or of a text written out in a string), `len`, `sum`, `count`, `xor`, `min` and \
     `max` of a comprehension, of a choice of `subsets` or of `set_at` or `slice` of a list, \
     `mex` of a list, `index_of` of a number in a list, \
     of a letter in a string parameter or of a text written out in a string, and helpers";
/// What it reads as a condition.
const CONDITIONS: &str = "a condition the compiled search cannot test: it tests comparisons of \
     numbers, strings or tuples written out, `and`, `or`, `not`, `has(string, \"text\")` or \
     `\"text\" in string`, `n in list` or `has(list, n)`, and helpers";
/// What it looks in for `n in list`, `has(list, n)` and `index_of`.
const LOOKED_IN: &str = "a list the compiled search cannot look in: it looks in lists held in \
     parameters, constants, the lists a comprehension, `set_at` or `slice` makes, ranges and \
     `indices`";
/// What it walks.
const SOURCES: &str = "a generator the compiled search cannot walk: it walks ranges, \
     `indices`, lists held in parameters, `set_at` and `slice` of them, lists of tuples of \
     numbers or number variables written out, `subsets`, `product`, `zip`, `enumerate`, comprehensions with one \
     generator and the cells of a grid";
/// What it writes into a list or string.
const WRITES: &str = "a new value the compiled search cannot write: it writes `set_at` chains \
     on the parameter, the parameter reversed, list literals and comprehensions";
/// Which grids it turns.
const NUMBERED_TURN: &str = "a grid turned or reflected whose rows are numbered (too many \
     letters to hold side by side in a key): the compiled search turns such a grid only upside \
     down, with `reverse`";
/// Which turns it makes.
const RESHAPED: &str = "a `transpose` or `rotate` that changes the grid's shape (a board that is \
     not square) as the new position, which no key of the same layout holds: `if len(g) == \
     width(g) then rotate(g) else ...` turns square boards only (a turned board read, or one \
     row of it set and turned back, compiles)";
/// What it works out as a string.
const TEXTS: &str = "a string the compiled search cannot work out: it works out literals, \
     indexing, `set_at`, `slice`, `repeat`, `+`, `if` and helpers over strings and grids";

impl<'a> Compiler<'a> {
    pub(super) fn reg(&mut self) -> u32 {
        self.regs += 1;
        self.regs - 1
    }

    pub(super) fn tuple(&mut self) -> u32 {
        self.tuples += 1;
        self.tuples - 1
    }

    pub(super) fn text_reg(&mut self) -> u32 {
        self.texts += 1;
        self.texts - 1
    }

    pub(super) fn val(&self, scope: &Scope, ir: &Ir) -> Option<Val> {
        match ir.kind {
            IrKind::Local(s) => scope.get(s as usize)?.clone(),
            IrKind::Builtin(b, _) if super::turn::TURNS.contains(&b) => self.view_of(scope, ir),
            IrKind::Index(ref list, ref place) if self.known(ir).is_none() => {
                if let Some(Val::Pair(at, parts)) = self.val(scope, list) {
                    // The element of a pair of pairs that is a pair.
                    let IrKind::Lit(Value::Int(k)) = place.kind else {
                        return None;
                    };
                    return match parts.get(usize::try_from(k).ok()?)? {
                        worked::Part::Pair(inner) => Some(Val::Pair(at, inner.clone())),
                        _ => None,
                    };
                }
                let at = self.val(scope, place)?;
                if let (Val::Num(r), Some(rows)) = (&at, self.known_tuples(list)) {
                    // A tuple of a constant list of tuples (a graph's
                    // edges) at a place: a pair standing for that place.
                    return Some(Val::Pair(*r, worked::columns(&rows)?));
                }
                tables::row_of_table(&self.known(list)?, &at)
            }
            IrKind::Comprehension {
                ref element,
                ref clauses,
            } => self.walked_whole(scope, element, clauses),
            _ => match self.known(ir)? {
                Value::Int(n) => Some(Val::Const(n)),
                Value::Set(xs) | Value::List(xs) => Some(Val::Items(numbers(&xs)?)),
                _ => None,
            },
        }
    }

    /// A comprehension that gives back what it walks, a tuple register:
    /// `[x for x in chosen]`, or of a subset of `enumerate(piles)`, held
    /// as its places, `[i for (i, _) in chosen]`.
    fn walked_whole(&self, scope: &Scope, element: &Ir, clauses: &[CompIr]) -> Option<Val> {
        let (source, part) = element_taken(element, clauses)?;
        match (self.val(scope, source)?, part) {
            (Val::Tuple(t), None) => Some(Val::Tuple(t)),
            (Val::Mapped(t, parts), Some(0))
                if matches!(parts.first(), Some(worked::Part::Place)) =>
            {
                Some(Val::Tuple(t))
            }
            _ => None,
        }
    }

    /// The value of an expression known before any rule runs: a literal,
    /// a constant, or a set or list of them written out (`{2, 3, 5}`).
    pub(super) fn known(&self, ir: &Ir) -> Option<Value> {
        match &ir.kind {
            IrKind::Lit(v) => Some(v.clone()),
            IrKind::Const(c) => self.consts.get(*c as usize).cloned(),
            IrKind::Set(items) => Some(Value::set(
                items.iter().map(|x| self.known(x)).collect::<Option<_>>()?,
            )),
            IrKind::List(items) => Some(Value::list(
                items.iter().map(|x| self.known(x)).collect::<Option<_>>()?,
            )),
            IrKind::Index(list, place) => match (self.known(list)?, self.known(place)?) {
                (Value::List(xs), Value::Int(i)) => xs.get(usize::try_from(i).ok()?).cloned(),
                _ => None,
            },
            _ => None,
        }
    }
}

/// For a comprehension with one generator and no test whose element is
/// the generator's variable, or an element of it at a place written out
/// (`[l for (_, l) in pairs]`): what it walks, and that place (`None` for
/// the variable itself).
pub(super) fn element_taken<'i>(
    element: &Ir,
    clauses: &'i [CompIr],
) -> Option<(&'i Ir, Option<i64>)> {
    let [clause] = clauses else {
        return None;
    };
    if clause.guard.is_some() {
        return None;
    }
    let slot = clause.generator.slot;
    let part = match &element.kind {
        IrKind::Local(s) if *s == slot => None,
        IrKind::Index(pair, at) => match (&pair.kind, &at.kind) {
            (IrKind::Local(s), IrKind::Lit(Value::Int(k))) if *s == slot => Some(*k),
            _ => return None,
        },
        _ => return None,
    };
    Some((&clause.generator.source, part))
}

/// Whether two expressions are written alike: the same variables,
/// numbers and operations on them.
pub(super) fn same_ir(a: &Ir, b: &Ir) -> bool {
    match (&a.kind, &b.kind) {
        (IrKind::Local(x), IrKind::Local(y)) => x == y,
        (IrKind::Const(x), IrKind::Const(y)) => x == y,
        (IrKind::Lit(Value::Int(x)), IrKind::Lit(Value::Int(y))) => x == y,
        (IrKind::Binary(p, a1, a2), IrKind::Binary(q, b1, b2)) => {
            p == q && same_ir(a1, b1) && same_ir(a2, b2)
        }
        (IrKind::Index(a1, a2), IrKind::Index(b1, b2)) => same_ir(a1, b1) && same_ir(a2, b2),
        (IrKind::Builtin(p, xs), IrKind::Builtin(q, ys)) => {
            p == q && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same_ir(x, y))
        }
        _ => false,
    }
}

/// The numbers of a collection known before any rule runs, in its order;
/// `None` if any element is not a number.
pub(super) fn numbers(items: &[Value]) -> Option<Rc<[i64]>> {
    items
        .iter()
        .map(|x| match x {
            Value::Int(n) => Some(*n),
            _ => None,
        })
        .collect()
}

/// Whether `out` holds no write to the key yet, only helpers' arguments:
/// a write of every element would lose earlier ones, and a write read off
/// the key needs the key's fields as they are.
pub(super) fn unwritten(out: &[Write]) -> bool {
    out.iter().all(|w| matches!(w, Write::Bind(_)))
}

#[cfg(test)]
mod tests;
