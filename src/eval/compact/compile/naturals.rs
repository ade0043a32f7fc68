//! A helper's number argument that is a literal or a register already is
//! passed as it is, with no register of its own, when it cannot fail the
//! parameter's type: so `empty(board, i)` reads `board[i]` exactly as the
//! rule written without the helper does, and the loops that run on the
//! key see the same test. A register holds only natural numbers when it
//! is a field of the key (a layout packs no negative number) or walks a
//! range that starts at one, or a list's fields; a tuple register holds
//! only natural numbers when what it is drawn from does. A register that
//! walks a range between numbers known at once holds only its values,
//! which says where a read at it cannot fail; a subset of a range holds
//! each number once.

use super::{Compiler, Val};
use crate::eval::compact::code::{Num, Seq, Source, Target};
use crate::eval::compact::facts::worked_alone;
use crate::syntax::ast::BinaryOp;

impl Compiler<'_> {
    /// Notes a generator's register (or tuple register) as natural where
    /// its source is: every tuple `subsets` or `product` gives holds items
    /// of its source, or numbers from its ranges' starts up.
    pub(super) fn note_natural(&mut self, target: Target, source: &Source) {
        let natural = match source {
            Source::Each(seq) | Source::Subsets(seq, ..) => self.natural_items(seq),
            Source::ProductOf { lo, .. } => self.is_natural(lo),
            Source::ProductList(ranges) => ranges.iter().all(|(lo, ..)| self.is_natural(lo)),
        };
        match target {
            Target::Reg(r) if natural => self.naturals.push(r),
            Target::Tuple(t) if natural => self.natural_tuples.push(t),
            _ => {}
        }
    }

    /// Whether every item of `seq` is a natural number.
    fn natural_items(&self, seq: &Seq) -> bool {
        match seq {
            Seq::Range(lo, ..) => self.is_natural(lo),
            Seq::Fields(f) => f.bias == 0,
            Seq::Items(xs) => xs.iter().all(|&x| x >= 0),
            Seq::Tuple(t) => self.natural_tuples.contains(t),
            Seq::Members(_, lo) => *lo >= 0,
            Seq::Made(_) => false,
        }
    }

    /// Whether tuple register `t` holds natural numbers only, so that it
    /// may be passed for a `[nat]` with no check.
    pub(super) fn natural_tuple(&self, t: u32) -> bool {
        self.natural_tuples.contains(&t)
    }

    /// Notes what a generator's register holds: the numbers from `lo` up
    /// to `hi` where it walks a range between numbers known at once (its
    /// ends worked out alone, see `facts`, which the rule's facts would
    /// make of them anyway); each number once, in a subset of a range.
    pub(super) fn note_held(&mut self, target: Target, source: &mut Source) {
        if let (Target::Tuple(t), Source::Subsets(Seq::Range(..), ..)) = (target, &*source) {
            self.distinct_tuples.push(t);
        }
        let (Target::Reg(r), Source::Each(Seq::Range(lo, hi, inclusive))) = (target, source) else {
            return;
        };
        for end in [&mut *lo, &mut *hi] {
            *end = worked_alone(std::mem::replace(end, Num::Lit(0)));
        }
        let known = |n: &Num| match n {
            Num::Lit(v) => Some(*v),
            _ => None,
        };
        let end = known(hi).and_then(|hi| {
            if *inclusive {
                hi.checked_add(1)
            } else {
                Some(hi)
            }
        });
        if let (Some(lo), Some(end)) = (known(lo), end) {
            self.ranges.push((r, lo, end));
        }
    }

    /// Whether `n` is at least 0 and below `len` at every value of the
    /// ranged registers it reads: a literal, or a register or a register
    /// with a literal added or taken away.
    pub(super) fn within(&self, n: &Num, len: i64) -> bool {
        let range = |r: &u32| {
            self.ranges
                .iter()
                .find(|(x, ..)| x == r)
                .map(|&(_, lo, hi)| (lo, hi))
        };
        let (lo, hi) = match n {
            Num::Lit(v) => match v.checked_add(1) {
                Some(end) => (*v, end),
                None => return false,
            },
            Num::Reg(r) => match range(r) {
                Some(range) => range,
                None => return false,
            },
            Num::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => match (&**a, &**b) {
                (Num::Reg(r), Num::Lit(k)) => {
                    let Some((lo, hi)) = range(r) else {
                        return false;
                    };
                    let k = if *op == BinaryOp::Add { *k } else { -*k };
                    match (lo.checked_add(k), hi.checked_add(k)) {
                        (Some(lo), Some(hi)) => (lo, hi),
                        _ => return false,
                    }
                }
                _ => return false,
            },
            _ => return false,
        };
        // An empty range reads nothing.
        lo >= hi || (lo >= 0 && hi <= len)
    }

    fn is_natural(&self, n: &Num) -> bool {
        match n {
            Num::Lit(v) => *v >= 0,
            Num::Reg(r) => *r < self.layout.fields || self.naturals.contains(r),
            _ => false,
        }
    }

    /// The value a parameter takes from an argument compiled to `value`
    /// without a register of its own, where that is the same (`nat`: the
    /// parameter takes natural numbers only).
    pub(super) fn passed_as_is(&self, value: &Num, nat: bool) -> Option<Val> {
        if nat && !self.is_natural(value) {
            return None;
        }
        match value {
            Num::Lit(v) => Some(Val::Const(*v)),
            Num::Reg(r) => Some(Val::Num(*r)),
            _ => None,
        }
    }
}
