//! A new list made whole by a comprehension that changes one place:
//! `[cells[j] or j == i for j in indices(cells)]` keeps every element but
//! the one at `i`, which becomes true. Such a list is the write of one
//! element (`set_at(cells, i, true)`), and written so it is placed on the
//! key by the loops that place letters (see `fused`, `hoist`).
//!
//! The element is worked out twice for every value the old element's
//! field can hold: once where the walk's variable differs from the place
//! (it must give the old element back) and once where it is the place. It
//! is read only as far as those answers need: a test of the variable
//! against the place is known in each case, and whatever else the element
//! holds must be literals, the old element and tests between them, which
//! cannot fail; a part that is not reached is not read.

use super::code::{Bind, Char, Element, Num, Seq, Truth, Walk, Write};
use super::layout::Fields;
use crate::eval::arith::compare;
use crate::syntax::ast::BinaryOp;

/// The most values of an element's field tried: a field wider than this
/// is left to the comprehension.
const MOST_VALUES: u64 = 1 << 12;

/// The write of one element that `[element for walk]` into `fields` makes,
/// if it makes one: `bools` for a list of booleans (its elements letters
/// 0 and 1).
pub fn written(fields: Fields, walk: &Walk, element: &Element, bools: bool) -> Option<Write> {
    let Element::Num(element) = element else {
        return None;
    };
    if walk.guard.is_some() || !whole_list(walk, fields) {
        return None;
    }
    let j = walk.var;
    let place = place_of(element, j)?;
    let values = fields.bias
        ..=fields
            .bias
            .checked_add(i64::try_from(fields.mask()).ok()?)?;
    if fields.mask() >= MOST_VALUES {
        return None;
    }
    let reading = |at_place| Reading {
        fields,
        var: j,
        place: &place,
        at_place,
    };
    // Away from the place, every element is the old one.
    let (apart, at) = (reading(false), reading(true));
    if !values.clone().all(|v| apart.num(element, v) == Some(v)) {
        return None;
    }
    let at_place: Vec<Option<i64>> = values.clone().map(|v| at.num(element, v)).collect();
    let constant = at_place
        .first()
        .copied()
        .flatten()
        .filter(|c| at_place.iter().all(|x| *x == Some(*c)));
    let index = place.copy()?;
    Some(match (constant, bools) {
        (Some(c), true) => Write::Cell(fields, index, Char::Code(c)),
        (Some(c), false) => Write::Element(fields, index, Num::Lit(c)),
        // The element worked out with the variable at the place, as the
        // comprehension works it out there.
        (None, _) => {
            let bind = Bind::Num {
                reg: j,
                value: place.copy()?,
                nat: false,
            };
            let value = element.copy()?;
            Write::Element(fields, index, Num::Let(Box::new(bind), Box::new(value)))
        }
    })
}

/// Whether a walk goes over every index of the list, in order.
pub(super) fn whole_list(walk: &Walk, fields: Fields) -> bool {
    matches!(
        &walk.over,
        Seq::Range(Num::Lit(0), Num::Lit(hi), false) if *hi == i64::from(fields.len)
    )
}

/// The place an element tests the walk's variable `j` against
/// (`j == i`): a register or a literal, the same in every test.
fn place_of(element: &Num, j: u32) -> Option<Num> {
    let mut found: Option<Num> = None;
    let mut same = true;
    visit_compares(element, &mut |a, b| {
        let other = match (a, b) {
            (Num::Reg(r), other) | (other, Num::Reg(r)) if *r == j => other,
            _ => return,
        };
        let other = match other {
            Num::Reg(r) if *r != j => Num::Reg(*r),
            Num::Lit(v) => Num::Lit(*v),
            _ => {
                same = false;
                return;
            }
        };
        match &found {
            None => found = Some(other),
            Some(p) => same &= same_place(p, &other),
        }
    });
    found.filter(|_| same)
}

fn same_place(a: &Num, b: &Num) -> bool {
    match (a, b) {
        (Num::Reg(x), Num::Reg(y)) => x == y,
        (Num::Lit(x), Num::Lit(y)) => x == y,
        _ => false,
    }
}

/// Every comparison between numbers in `n`'s tests.
fn visit_compares(n: &Num, f: &mut impl FnMut(&Num, &Num)) {
    if let Num::If(t, a, b) = n {
        visit_truth(t, f);
        visit_compares(a, f);
        visit_compares(b, f);
    }
}

fn visit_truth(t: &Truth, f: &mut impl FnMut(&Num, &Num)) {
    match t {
        Truth::Not(x) => visit_truth(x, f),
        Truth::And(a, b) | Truth::Or(a, b) => {
            visit_truth(a, f);
            visit_truth(b, f);
        }
        Truth::Compare(_, a, b) => {
            f(a, b);
            visit_compares(a, f);
            visit_compares(b, f);
        }
        _ => {}
    }
}

/// The element read with the old element's value given, on one side of
/// the place: `None` where it reads anything else.
struct Reading<'a> {
    fields: Fields,
    var: u32,
    place: &'a Num,
    at_place: bool,
}

impl Reading<'_> {
    fn num(&self, n: &Num, old: i64) -> Option<i64> {
        match n {
            Num::Lit(v) => Some(*v),
            Num::Field(f, at) if *f == self.fields && self.is_var(at) => Some(old),
            Num::If(t, a, b) => {
                if self.truth(t, old)? {
                    self.num(a, old)
                } else {
                    self.num(b, old)
                }
            }
            _ => None,
        }
    }

    fn truth(&self, t: &Truth, old: i64) -> Option<bool> {
        match t {
            Truth::Lit(b) => Some(*b),
            Truth::Not(x) => Some(!self.truth(x, old)?),
            Truth::And(a, b) => Some(self.truth(a, old)? && self.truth(b, old)?),
            Truth::Or(a, b) => Some(self.truth(a, old)? || self.truth(b, old)?),
            Truth::SameChar(eq, a, b) => {
                let (a, b) = (self.char(a, old)?, self.char(b, old)?);
                // Two letters outside the alphabet may differ.
                (a >= 0 || b >= 0).then_some((a == b) == *eq)
            }
            Truth::Compare(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b)
                if self.is_var(a) || self.is_var(b) =>
            {
                let other = if self.is_var(a) { b } else { a };
                if !same_place(other, self.place) {
                    return None;
                }
                Some(self.at_place == (*op == BinaryOp::Eq))
            }
            Truth::Compare(op, a, b) => compare(*op, self.num(a, old)?, self.num(b, old)?),
            _ => None,
        }
    }

    fn char(&self, c: &Char, old: i64) -> Option<i64> {
        match c {
            Char::Code(c) => Some(*c),
            Char::Cell(f, at) if *f == self.fields && self.is_var(at) => Some(old),
            _ => None,
        }
    }

    fn is_var(&self, n: &Num) -> bool {
        matches!(n, Num::Reg(r) if *r == self.var)
    }
}
