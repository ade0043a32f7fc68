//! A helper's number argument that is a literal or a register already is
//! passed as it is, with no register of its own, when it cannot fail the
//! parameter's type: so `empty(board, i)` reads `board[i]` exactly as the
//! rule written without the helper does, and the loops that run on the
//! key see the same test. A register holds only natural numbers when it
//! is a field of the key (a layout packs no negative number) or walks a
//! range that starts at one, or a list's fields; a tuple register holds
//! only natural numbers when what it is drawn from does.

use super::{Compiler, Val};
use crate::eval::compact::code::{Num, Seq, Source, Target};

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
