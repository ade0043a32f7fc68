//! What compiled code costs to run, roughly: the operations one working
//! out of an expression makes, counted on its compiled form. A memo costs
//! a few operations of its own (a key for it worked out, a table read, a
//! test), so an expression cheaper than that is worked out each time
//! rather than remembered (see `lookup`): Chomp's `min(h[j], t)` is one
//! comparison and one read, `eaten(g[i], c)` a slice, a repeat, a join and
//! a row's number looked up.

use super::code::{Bind, Char, Num, Text, Truth};

/// What an expression whose cost is not followed (a walk, a closure, a
/// search of a string) counts as: more than any memo.
pub const MANY: u32 = 64;

/// Operations past which a memo is worth its own.
pub const MEMO: u32 = 4;

pub fn num(n: &Num) -> u32 {
    match n {
        Num::Lit(_) | Num::Reg(_) | Num::TupleLen(_) => 0,
        Num::Field(_, i) | Num::TupleAt(_, i) | Num::Item(_, i) => 1 + num(i),
        Num::Binary(_, l, r) => 1 + num(l) + num(r),
        Num::Neg(x) | Num::Abs(x) => 1 + num(x),
        Num::Min(xs) | Num::Max(xs) => xs.iter().map(num).sum::<u32>() + xs.len() as u32 - 1,
        Num::SumFields(f) => f.len,
        Num::TextLen(t) => 1 + text(t),
        Num::Code(c) => char(c),
        Num::If(t, a, b) => 1 + truth(t) + num(a).max(num(b)),
        Num::Let(b, body) => bind(b) + num(body),
        Num::SumTuple(_)
        | Num::Matches(..)
        | Num::IndexOf(..)
        | Num::Find(..)
        | Num::Ones(_)
        | Num::Extreme { .. }
        | Num::Fold(..)
        | Num::Closure(_) => MANY,
    }
    .min(MANY)
}

pub fn text(t: &Text) -> u32 {
    match t {
        Text::Lit(_) | Text::Reg(_) | Text::Letter(_) => 0,
        Text::Param(_) => 1,
        Text::Row(_, _, i) => 1 + num(i),
        Text::At(t, i) | Text::Repeat(t, i) => 2 + text(t) + num(i),
        Text::SetAt(t, i, c) => 2 + text(t) + num(i) + text(c),
        Text::Slice(t, from, to) => 2 + text(t) + num(from) + num(to),
        Text::Concat(a, b) => 2 + text(a) + text(b),
        Text::Reversed(t) => 2 + text(t),
        Text::Least(_, ts) => ts.iter().map(|t| 2 + text(t)).sum(),
        Text::If(c, a, b) => 1 + truth(c) + text(a).max(text(b)),
        Text::Let(b, body) => bind(b) + text(body),
        Text::Joined(_) | Text::Closure(_) => MANY,
    }
    .min(MANY)
}

fn truth(t: &Truth) -> u32 {
    match t {
        Truth::Lit(_) => 0,
        Truth::Not(x) => 1 + truth(x),
        Truth::And(a, b) | Truth::Or(a, b) => 1 + truth(a) + truth(b),
        Truth::Compare(_, a, b) => 1 + num(a) + num(b),
        Truth::SameChar(_, a, b) => 1 + char(a) + char(b),
        Truth::SameText(_, a, b) => 1 + text(a) + text(b),
        Truth::In(_, n, _) => 2 + num(n),
        Truth::Member(_, n, mask, _) => 2 + num(n) + num(mask),
        Truth::Let(b, body) => bind(b) + truth(body),
        Truth::Has(..) | Truth::HasText(..) | Truth::Each { .. } | Truth::Closure(_) => MANY,
    }
    .min(MANY)
}

fn char(c: &Char) -> u32 {
    match c {
        Char::Code(_) | Char::Reg(_) => 0,
        Char::Cell(_, i) => 1 + num(i),
        Char::GridCell(_, r, c) => 2 + num(r) + num(c),
        Char::If(t, a, b) => 1 + truth(t) + char(a).max(char(b)),
        Char::Let(b, body) => bind(b) + char(body),
        Char::Text(t) => 1 + text(t),
    }
    .min(MANY)
}

fn bind(b: &Bind) -> u32 {
    match b {
        Bind::Num { value, .. } => 1 + num(value),
        Bind::Text { value, .. } => 1 + text(value),
        Bind::Letter { value, .. } => 1 + char(value),
        Bind::List(_) => MANY,
    }
}
