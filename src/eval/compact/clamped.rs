//! A branch of a new list's element that reads the element at the walk's
//! variable and one register alone (a branch `split` keeps from key to
//! key) is, at each value of that register, a function of the element's
//! field. Where that function is, by its values at every number the
//! field can hold, the field held between two bounds (`min(h[j], t)`:
//! between 0 and `t`; `max(x, 2)`; the field itself; one value whatever
//! the field holds), the elements of an option are worked out all at
//! once, one lane of a word each: a few word operations an option rather
//! than a call an element. The function is found by working it out at
//! each number, never from how the rule spells it; a function that fails
//! or overflows its field at one number, or is no such clamp, is left to
//! the element-by-element code.

use super::closure::NumFn;
use super::layout::Fields;
use super::run::{low_bits, Machine};
use std::cell::Cell;

/// Fields at most this wide are worked out at every number they hold
/// (256 calls at most, once for each value of the register).
const MAX_WIDTH: u32 = 8;

/// The values of the register a function is found for: `0..64`.
const VALUES: usize = 64;

/// A kept branch's functions, one for each value of the register it
/// reads besides the element: `list` the fields the element is read from
/// (at register `index`, the walk's variable), `by` that register.
pub(super) struct Clamped {
    list: Fields,
    index: usize,
    by: usize,
    /// A bit at the lowest place of each lane of the list's fields.
    low: u64,
    word: Word,
    classes: Box<[Cell<Class>]>,
    /// The values at which it is known to be a clamp, a bit each.
    clamps: Cell<u64>,
}

/// What a branch is at one value of the register, in the numbers the
/// fields store: not yet worked out, the field held within `lo..=hi`
/// (once a value; each bound in every lane, for `Clamped`), or something
/// else.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Class {
    Unknown,
    Clamp { lo: u64, hi: u64 },
    Other,
}

impl Clamped {
    /// For a branch that reads the element of `list` at register `index`
    /// and register `by` alone, written into fields of `written`'s width:
    /// `None` where the widths differ or the fields are too wide to work
    /// the function out at every number.
    pub fn new(list: Fields, written: &Fields, index: u32, by: u32) -> Option<Clamped> {
        let fits = list.width == written.width
            && (1..=MAX_WIDTH).contains(&list.width)
            && list.len > 0
            && list.len * list.width <= 64;
        if !fits {
            return None;
        }
        let low = low_bits(list.len * list.width) / list.mask();
        Some(Clamped {
            list,
            index: index as usize,
            by: by as usize,
            low,
            word: Word {
                high: low << (list.width - 1),
                full: low * list.mask(),
                top: list.width - 1,
            },
            classes: (0..VALUES).map(|_| Cell::new(Class::Unknown)).collect(),
            clamps: Cell::new(0),
        })
    }

    /// The bits of the elements at the places `want` (a bit each; among
    /// others' bits), each at its place in `written`, where the branch
    /// `f` is a clamp at the register's current value; `None` where it is
    /// not (or may not be: a place past the list read).
    #[inline(always)]
    pub fn bits(&self, m: &Machine, f: &NumFn, want: u64, written: &Fields) -> Option<u64> {
        let x = usize::try_from(m.regs[self.by])
            .ok()
            .filter(|&x| x < VALUES)?;
        if !self.inside(want) {
            return None;
        }
        let Class::Clamp { lo, hi } = self.class(m, f, x, written) else {
            return None;
        };
        Some(self.word.clamp(self.lanes(m.key), lo, hi) << written.shift)
    }

    /// `bits` for each of the `values` of the register (a bit each, at the
    /// value's place), handed to `each` in order: `None`, and nothing
    /// handed, where the branch is not a clamp at one of them.
    #[inline(always)]
    pub fn each(
        &self,
        m: &mut Machine,
        (f, written): (&NumFn, &Fields),
        (want, values): (u64, u64),
        mut each: impl FnMut(u64),
    ) -> Option<()> {
        if !self.inside(want) {
            return None;
        }
        if values & !self.clamps.get() != 0 {
            let mut left = values & !self.clamps.get();
            while left != 0 {
                let x = left.trailing_zeros();
                left &= left - 1;
                self.class(m, f, x as usize, written);
            }
            if values & !self.clamps.get() != 0 {
                return None;
            }
        }
        // What the loop reads held apart from `self`, which `each` might
        // otherwise be taken to change.
        let (word, lanes, shift) = (self.word, self.lanes(m.key), written.shift);
        let mut left = values;
        while left != 0 {
            let x = left.trailing_zeros();
            left &= left - 1;
            let Class::Clamp { lo, hi } = self.classes[x as usize].get() else {
                return None;
            };
            each(word.clamp(lanes, lo, hi) << shift);
        }
        Some(())
    }

    /// The values of the register at which the branch was found to be a
    /// clamp, a bit each.
    #[cfg(test)]
    pub fn found(&self) -> u64 {
        self.clamps.get()
    }

    /// Whether the places `want` (a bit each) are all places of the list.
    #[inline(always)]
    fn inside(&self, want: u64) -> bool {
        want.checked_shr(self.list.len).unwrap_or(0) == 0
    }

    /// What the branch is at value `x` of the register, worked out the
    /// first time it is asked.
    #[inline(always)]
    fn class(&self, m: &Machine, f: &NumFn, x: usize, written: &Fields) -> Class {
        match self.classes[x].get() {
            Class::Unknown => {
                let class = self.classify(m, f, x as i64, written);
                self.classes[x].set(class);
                if matches!(class, Class::Clamp { .. }) {
                    self.clamps.set(self.clamps.get() | 1 << x);
                }
                class
            }
            class => class,
        }
    }

    /// The list's lanes of `key`, from the lowest bit on.
    #[inline(always)]
    fn lanes(&self, key: u64) -> u64 {
        (key >> self.list.shift) & low_bits(self.list.len * self.list.width)
    }

    /// What `f` is at value `x` of the register, worked out at every
    /// number the list's field can hold, on a copy of the machine whose
    /// first element (and the key's field) holds it: the branch reads
    /// that element and the register alone.
    #[cold]
    fn classify(&self, m: &Machine, f: &NumFn, x: i64, written: &Fields) -> Class {
        let list = &self.list;
        let mut copy = Machine::scratch(m.regs.len() as u32, m.texts.len() as u32, m.cell);
        copy.regs.copy_from_slice(&m.regs);
        copy.texts.copy_from_slice(&m.texts);
        copy.regs[self.index] = 0;
        copy.regs[self.by] = x;
        let first = list.first as usize;
        let mut values = Vec::with_capacity(1 << list.width);
        for stored in 0..=list.mask() {
            copy.regs[first] = stored as i64 + list.bias;
            copy.key = m.key & !(list.mask() << list.shift) | stored << list.shift;
            match f(&mut copy).filter(|&v| written.fits(v)) {
                Some(v) => values.push(written.stored(v)),
                None => return Class::Other,
            }
        }
        match clamp_of(&values) {
            Class::Clamp { lo, hi } => Class::Clamp {
                lo: lo * self.low,
                hi: hi * self.low,
            },
            other => other,
        }
    }
}

/// The bounds `values` (the function's value at each number from 0 on)
/// hold their number within, where they do.
fn clamp_of(values: &[u64]) -> Class {
    let (Some(&lo), Some(&hi)) = (values.first(), values.last()) else {
        return Class::Other;
    };
    let held = lo <= hi
        && values
            .iter()
            .enumerate()
            .all(|(v, &got)| got == (v as u64).clamp(lo, hi));
    if held {
        Class::Clamp { lo, hi }
    } else {
        Class::Other
    }
}

/// The lanes of a word: a bit at the highest place of each lane, every
/// bit of every lane, and the place of the highest bit in a lane.
#[derive(Clone, Copy)]
struct Word {
    high: u64,
    full: u64,
    top: u32,
}

impl Word {
    /// Each of the lanes held within `lo..=hi` (each bound in every lane).
    #[inline(always)]
    fn clamp(self, mut lanes: u64, lo: u64, hi: u64) -> u64 {
        if lo != 0 {
            lanes = pick(self.at_least(lanes, lo), lanes, lo);
        }
        if hi != self.full {
            lanes = pick(self.at_least(lanes, hi), hi, lanes);
        }
        lanes
    }

    /// The lanes of `a` where its lane is at least `b`'s, all ones, others
    /// zero, `b` the same number in every lane: below its top bit, `a`'s
    /// lanes with their top bits set less `b`'s are at least `b` where
    /// their top bits stay set (no borrow crosses into the next lane);
    /// then the top bits' part.
    #[inline(always)]
    fn at_least(self, a: u64, b: u64) -> u64 {
        let h = self.high;
        let rest = (a | h).wrapping_sub(b & !h);
        let top = if b & h == 0 { rest | a } else { rest & a } & h;
        (top - (top >> self.top)) | top
    }
}

/// `yes`'s lanes where `mask` is set, `no`'s elsewhere.
#[inline(always)]
fn pick(mask: u64, yes: u64, no: u64) -> u64 {
    no ^ ((yes ^ no) & mask)
}

#[cfg(test)]
mod tests {
    use super::{clamp_of, Clamped, Class};
    use crate::eval::compact::layout::Fields;

    fn fields(len: u32, width: u32, shift: u32) -> Fields {
        Fields {
            first: 0,
            len,
            width,
            shift,
            bias: 0,
        }
    }

    #[test]
    fn clamps_are_found_by_their_values() {
        let min3: Vec<u64> = (0..16).map(|v: u64| v.min(3)).collect();
        assert_eq!(clamp_of(&min3), Class::Clamp { lo: 0, hi: 3 });
        let max2: Vec<u64> = (0..8).map(|v: u64| v.max(2)).collect();
        assert_eq!(clamp_of(&max2), Class::Clamp { lo: 2, hi: 7 });
        assert_eq!(clamp_of(&[5; 8]), Class::Clamp { lo: 5, hi: 5 });
        let same: Vec<u64> = (0..4).collect();
        assert_eq!(clamp_of(&same), Class::Clamp { lo: 0, hi: 3 });
        // One more, a value off at one number, falling, a clamp to 1..=3
        // but at 0.
        let plus: Vec<u64> = (0..8).map(|v: u64| (v + 1).min(7)).collect();
        assert_eq!(clamp_of(&plus), Class::Other);
        assert_eq!(clamp_of(&[0, 1, 2, 2, 2, 2, 3, 2]), Class::Other);
        assert_eq!(clamp_of(&[3, 2, 1, 0]), Class::Other);
        assert_eq!(clamp_of(&[0, 1, 2, 3, 3]), Class::Clamp { lo: 0, hi: 3 });
        assert_eq!(clamp_of(&[0, 1, 2, 3, 3, 3, 3, 3][1..]), Class::Other);
    }

    /// Every pair of lanes of every width compared with the word
    /// operations and one by one, lanes filling the word or not, the
    /// top lane at the word's top bit.
    #[test]
    fn lanes_compared_at_once_are_compared_one_by_one() {
        for width in 1..=8u32 {
            let len = 64 / width;
            let shift = 64 - len * width;
            let clamped = Clamped::new(fields(len, width, shift), &fields(len, width, 0), 0, 1)
                .expect("a clamp");
            let mask = (1u64 << width) - 1;
            let lane = |x: u64, i: u32| (x >> (i * width)) & mask;
            let mut seed = 0x9e37_79b9_7f4a_7c15u64 ^ u64::from(width);
            for _ in 0..2000 {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                let a = seed >> shift;
                // One number in every lane.
                let b = (seed.rotate_left(29) & mask) * clamped.low;
                let ge = clamped.word.at_least(a, b);
                for i in 0..len {
                    let want = if lane(a, i) >= lane(b, i) { mask } else { 0 };
                    assert_eq!(lane(ge, i), want, "width {width} lane {i}");
                }
            }
        }
    }
}
