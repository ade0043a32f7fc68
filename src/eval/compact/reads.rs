//! What compiled code reads: one walk of its expressions and writes,
//! telling a `Visit` each register, element, row and key it reads and each
//! register it sets. `hoist` asks which generators a write reads, `lookup`
//! whether an expression reads one element and nothing else.

use super::code::{Appended, Bind, Char, Element, Num, Seq, Text, Truth, Walk, Write};
use super::layout::Fields;

/// What a walk meets. Indices are walked by the visitor itself (in
/// `element` and `row`), which may read them differently.
pub trait Visit: Sized {
    /// A register read.
    fn reg(&mut self, r: u32);
    /// A string register read.
    fn text_reg(&mut self, r: u32);
    /// `fields[i]`: an element of a list or a letter of a string.
    fn element(&mut self, fields: &Fields, i: &Num);
    /// Row `r` of a grid (and letter `c` of it, for a cell).
    fn row(&mut self, fields: &Fields, r: &Num, c: Option<&Num>);
    /// Every field of `fields`, read as registers.
    fn fields(&mut self, fields: &Fields);
    /// The key itself, read without registers: a string parameter, `has`.
    fn key(&mut self);
    /// What is not followed: a tuple register, a closure.
    fn opaque(&mut self);
    /// A register set by the code itself (a helper's argument, a
    /// comprehension's variable).
    fn set(&mut self, r: u32);
    fn set_text(&mut self, r: u32);
}

pub fn write<V: Visit>(v: &mut V, w: &Write) {
    match w {
        Write::Scalar(_, n) => num(v, n),
        Write::Element(f, i, n) => {
            v.element(f, i);
            num(v, n);
        }
        Write::Cell(f, i, c) => {
            v.element(f, i);
            char(v, c);
        }
        Write::Several(..) | Write::Lanes(..) | Write::Closure(_) | Write::Fill(_) => v.opaque(),
        Write::Whole(_, ns) => ns.iter().for_each(|n| num(v, n)),
        Write::Reversed(_) | Write::Turned(..) => v.key(),
        // It reads the key the writes before it made, not the position's.
        Write::Sorted(..) => v.opaque(),
        Write::Comprehension {
            walk: w, element, ..
        } => {
            walk(v, w);
            match element {
                Element::Num(n) => num(v, n),
                Element::Row(_, t) => text(v, t),
            }
        }
        Write::Text(_, t) => text(v, t),
        Write::Row(rows, i, t) => {
            v.element(&rows.fields, i);
            text(v, t);
        }
        Write::Rows(_, ts) => ts.iter().for_each(|t| text(v, t)),
        Write::Bind(b) => bind(v, b),
        Write::Appended(_, pieces) | Write::Sized { pieces, .. } => {
            for piece in pieces {
                match piece {
                    Appended::One(n) => num(v, n),
                    Appended::Each(w, n) => {
                        walk(v, w);
                        num(v, n);
                    }
                }
            }
        }
        Write::Each { walk: w, writes } => {
            walk(v, w);
            writes.iter().for_each(|x| write(v, x));
        }
        Write::Choose {
            test,
            then,
            otherwise,
        } => {
            truth(v, test);
            then.iter().chain(otherwise).for_each(|w| write(v, w));
        }
    }
}

/// A comprehension's loop: its variable is set, its source and test read.
pub fn walk<V: Visit>(v: &mut V, w: &Walk) {
    v.set(w.var);
    seq(v, &w.over);
    if let Some(g) = &w.guard {
        truth(v, g);
    }
}

pub fn seq<V: Visit>(v: &mut V, s: &Seq) {
    match s {
        Seq::Range(lo, hi, _) => {
            num(v, lo);
            num(v, hi);
        }
        Seq::Fields(f) => v.fields(f),
        Seq::Tuple(_) | Seq::Made(_) => v.opaque(),
        Seq::Items(_) => {}
        Seq::Members(r, _) => v.reg(*r),
    }
}

pub fn num<V: Visit>(v: &mut V, n: &Num) {
    match n {
        Num::Lit(_) => {}
        Num::Reg(r) => v.reg(*r),
        Num::Field(f, i) => v.element(f, i),
        Num::Item(_, i) => num(v, i),
        Num::SumFields(f) => v.fields(f),
        Num::TupleAt(..) | Num::TupleLen(_) | Num::SumTuple(_) => v.opaque(),
        Num::Binary(_, a, b) => {
            num(v, a);
            num(v, b);
        }
        Num::Neg(x) | Num::Abs(x) | Num::Ones(x) => num(v, x),
        Num::Extreme { mask, .. } => num(v, mask),
        Num::Fold(_, w, element) => {
            walk(v, w);
            num(v, element);
        }
        Num::Min(xs) | Num::Max(xs) => xs.iter().for_each(|x| num(v, x)),
        Num::TextLen(t) | Num::Find(t, ..) => text(v, t),
        Num::Code(c) => char(v, c),
        Num::IndexOf(s, x) => {
            seq(v, s);
            num(v, x);
        }
        Num::Matches(..) => v.key(),
        Num::If(c, a, b) => {
            truth(v, c);
            num(v, a);
            num(v, b);
        }
        Num::Let(b, body) => {
            bind(v, b);
            num(v, body);
        }
        Num::Closure(_) => v.opaque(),
    }
}

pub fn char<V: Visit>(v: &mut V, c: &Char) {
    match c {
        Char::Code(_) => {}
        Char::Reg(r) => v.reg(*r),
        Char::Cell(f, i) => v.element(f, i),
        Char::GridCell(rows, r, c) => v.row(&rows.fields, r, Some(c)),
        Char::If(t, a, b) => {
            truth(v, t);
            char(v, a);
            char(v, b);
        }
        Char::Let(b, body) => {
            bind(v, b);
            char(v, body);
        }
        Char::Text(t) => text(v, t),
    }
}

pub fn text<V: Visit>(v: &mut V, t: &Text) {
    match t {
        Text::Lit(_) => {}
        Text::Joined(_) => v.opaque(),
        Text::Param(_) => v.key(),
        Text::Reg(r) => v.text_reg(*r),
        Text::Row(f, _, i) => v.row(f, i, None),
        Text::Letter(r) => v.reg(*r),
        Text::At(t, i) | Text::Repeat(t, i) => {
            text(v, t);
            num(v, i);
        }
        Text::Reversed(t) => text(v, t),
        Text::Least(_, ts) => ts.iter().for_each(|t| text(v, t)),
        Text::SetAt(t, i, c) => {
            text(v, t);
            num(v, i);
            text(v, c);
        }
        Text::Slice(t, a, b) => {
            text(v, t);
            num(v, a);
            num(v, b);
        }
        Text::Concat(a, b) => {
            text(v, a);
            text(v, b);
        }
        Text::If(c, a, b) => {
            truth(v, c);
            text(v, a);
            text(v, b);
        }
        Text::Let(b, body) => {
            bind(v, b);
            text(v, body);
        }
        Text::Closure(_) => v.opaque(),
    }
}

pub fn truth<V: Visit>(v: &mut V, t: &Truth) {
    match t {
        Truth::Lit(_) => {}
        Truth::Has(..) => v.key(),
        Truth::Not(x) => truth(v, x),
        Truth::And(a, b) | Truth::Or(a, b) => {
            truth(v, a);
            truth(v, b);
        }
        Truth::Compare(_, a, b) => {
            num(v, a);
            num(v, b);
        }
        Truth::SameChar(_, a, b) => {
            char(v, a);
            char(v, b);
        }
        Truth::SameText(_, a, b) => {
            text(v, a);
            text(v, b);
        }
        Truth::In(_, n, _) => num(v, n),
        Truth::Member(_, n, mask, _) => {
            num(v, n);
            num(v, mask);
        }
        Truth::HasText(t, _) => text(v, t),
        Truth::Let(b, body) => {
            bind(v, b);
            truth(v, body);
        }
        Truth::Each {
            walk: w, element, ..
        } => {
            walk(v, w);
            truth(v, element);
        }
        Truth::Closure(_) => v.opaque(),
    }
}

/// A helper's argument: what it is worked out from is read, then its
/// register set.
pub fn bind<V: Visit>(v: &mut V, b: &Bind) {
    match b {
        Bind::Num { reg, value, .. } => {
            num(v, value);
            v.set(*reg);
        }
        Bind::Letter { reg, value } => {
            char(v, value);
            v.set(*reg);
        }
        Bind::Text { reg, value } => {
            text(v, value);
            v.set_text(*reg);
        }
        // What is read into a tuple register is not followed.
        Bind::List(_) => v.opaque(),
    }
}

/// The registers an expression reads from outside itself (not those it
/// sets, as a helper's arguments), `None` if it reads what is not followed
/// (a tuple, a closure, a string register set elsewhere).
pub fn outside(walk: impl FnOnce(&mut Outside)) -> Option<Vec<u32>> {
    outside_and_key(walk).map(|(regs, _)| regs)
}

/// What `outside` finds, and whether the expression reads the key itself
/// (a string parameter, `has`), which no register shows.
pub fn outside_and_key(walk: impl FnOnce(&mut Outside)) -> Option<(Vec<u32>, bool)> {
    let mut o = Outside::default();
    walk(&mut o);
    (!o.opaque).then_some((o.regs, o.key))
}

/// What an expression reads from outside itself (see `outside`).
#[derive(Default)]
pub struct Outside {
    regs: Vec<u32>,
    set: Vec<u32>,
    set_texts: Vec<u32>,
    opaque: bool,
    key: bool,
}

impl Visit for Outside {
    fn reg(&mut self, r: u32) {
        if !self.set.contains(&r) {
            self.regs.push(r);
        }
    }

    fn text_reg(&mut self, r: u32) {
        if !self.set_texts.contains(&r) {
            self.opaque = true;
        }
    }

    fn element(&mut self, f: &Fields, i: &Num) {
        self.fields(f);
        num(self, i);
    }

    fn row(&mut self, f: &Fields, r: &Num, c: Option<&Num>) {
        self.fields(f);
        num(self, r);
        if let Some(c) = c {
            num(self, c);
        }
    }

    fn fields(&mut self, f: &Fields) {
        self.regs.extend(f.first..f.first + f.len);
    }

    /// The key is compared whole (`outside_and_key` tells of it).
    fn key(&mut self) {
        self.key = true;
    }

    fn opaque(&mut self) {
        self.opaque = true;
    }

    fn set(&mut self, r: u32) {
        self.set.push(r);
    }

    fn set_text(&mut self, r: u32) {
        self.set_texts.push(r);
    }
}
