//! A helper's number argument that is a literal or a register already is
//! passed as it is, with no register of its own, when it cannot fail the
//! parameter's type: so `empty(board, i)` reads `board[i]` exactly as the
//! rule written without the helper does, and the loops that run on the
//! key see the same test. A register holds only natural numbers when it
//! is a field of the key (a layout packs no negative number) or walks a
//! range that starts at one, or a list's fields.

use super::{Compiler, Val};
use crate::eval::compact::code::{Num, Seq, Source, Target};

impl Compiler<'_> {
    /// Notes a generator's register as natural where its source is.
    pub(super) fn note_natural(&mut self, target: Target, source: &Source) {
        let Target::Reg(r) = target else {
            return;
        };
        let natural = match source {
            Source::Each(Seq::Range(lo, ..)) => self.is_natural(lo),
            Source::Each(Seq::Fields(_)) => true,
            Source::Each(Seq::Items(xs)) => xs.iter().all(|&x| x >= 0),
            _ => false,
        };
        if natural {
            self.naturals.push(r);
        }
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
