//! Sets of numbers the rules change, packed as bitsets: every such set of
//! a layout is a mask over one run of numbers, its universe, a bit a
//! number (bit 0 for the universe's least). The universe holds what the
//! starting position holds: its sets' elements and, where the bits allow,
//! its other numbers (a set may gain numbers up to a size the position
//! gives). A move that makes a set with a number outside it stops the
//! compact search, as a number too wide for its field does.

use crate::eval::value::Value;
use crate::types::Type;

/// Numbers `lo..lo + size`, a bit each.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Universe {
    pub lo: i64,
    pub size: u32,
}

/// A set's mask may take this many bits: a bit's place is a shift the
/// compiled code makes, which stays below 63.
const MOST_BITS: u32 = 62;

impl Universe {
    /// The universe for the sets among `args` that the rules change (those
    /// not `fixed`): `Some(None)` when there are none, `None` when one of
    /// them holds other than numbers, or numbers too far apart.
    pub fn of(types: &[Type], args: &[Value], fixed: &[bool]) -> Option<Option<Universe>> {
        let mut elements = Vec::new();
        let mut changed = false;
        for ((ty, arg), &fixed) in types.iter().zip(args).zip(fixed) {
            if let (Type::Set(_), Value::Set(xs), false) = (ty, arg, fixed) {
                changed = true;
                for x in xs.iter() {
                    let Value::Int(n) = x else { return None };
                    elements.push(*n);
                }
            }
        }
        if !changed {
            return Some(None);
        }
        let own = Universe::spanning(&elements)?;
        // The position's other numbers, where they fit beside.
        let mut numbers = elements;
        for arg in args {
            let items = match arg {
                Value::Int(n) => std::slice::from_ref(n).to_vec(),
                Value::List(xs) | Value::Tuple(xs) => xs
                    .iter()
                    .filter_map(|x| match x {
                        Value::Int(n) => Some(*n),
                        _ => None,
                    })
                    .collect(),
                _ => continue,
            };
            numbers.extend(items.into_iter().filter(|&n| n >= own.lo));
        }
        Some(Some(Universe::spanning(&numbers).unwrap_or(own)))
    }

    /// The least universe holding `numbers` and 0.
    fn spanning(numbers: &[i64]) -> Option<Universe> {
        let lo = numbers.iter().copied().min().unwrap_or(0).min(0);
        let hi = numbers.iter().copied().max().unwrap_or(0).max(0);
        let size = u32::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
        (size <= MOST_BITS).then_some(Universe { lo, size })
    }

    /// The mask of a set's elements, if they are numbers inside.
    pub fn mask(&self, xs: &[Value]) -> Option<u64> {
        xs.iter().try_fold(0u64, |mask, x| match x {
            Value::Int(n) => Some(mask | self.bit(*n)?),
            _ => None,
        })
    }

    /// The bit of number `n`, if it is inside.
    pub fn bit(&self, n: i64) -> Option<u64> {
        let place = n.checked_sub(self.lo)?;
        (0..i64::from(self.size))
            .contains(&place)
            .then(|| 1u64 << place)
    }

    /// The set a mask stands for, in increasing order.
    pub fn elements(&self, mask: u64) -> Value {
        let items = (0..self.size)
            .filter(|i| mask >> i & 1 == 1)
            .map(|i| Value::Int(self.lo + i64::from(i)));
        Value::Set(items.collect())
    }
}

/// The 1 bits of `n`, which must be at least 0 (`popcount` of a negative
/// number is an error the interpreter reports).
#[inline]
pub fn ones(n: i64) -> Option<i64> {
    (n >= 0).then(|| i64::from(n.count_ones()))
}

/// The number bit `i` of a mask stands for, counting its 1 bits from the
/// lowest; `lo` is the number of bit 0.
#[inline]
pub fn member(mask: i64, i: i64, lo: i64) -> Option<i64> {
    let mut rest = mask as u64;
    for _ in 0..i {
        rest &= rest.checked_sub(1)?;
    }
    (rest != 0).then(|| lo + i64::from(rest.trailing_zeros()))
}

/// The least (or the largest) number of a set held as a mask; none for
/// the empty set, whose `min` is an error.
#[inline]
pub fn extreme(mask: i64, lo: i64, highest: bool) -> Option<i64> {
    let mask = u64::try_from(mask).ok().filter(|&m| m != 0)?;
    let place = match highest {
        true => 63 - mask.leading_zeros(),
        false => mask.trailing_zeros(),
    };
    lo.checked_add(i64::from(place))
}

/// Whether number `n` is in the set a mask stands for.
#[inline]
pub fn holds(mask: i64, n: i64, lo: i64) -> bool {
    n.checked_sub(lo)
        .and_then(|place| u32::try_from(place).ok())
        .is_some_and(|place| place < 64 && (mask as u64) >> place & 1 == 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(xs: &[i64]) -> Value {
        Value::Set(xs.iter().map(|&n| Value::Int(n)).collect())
    }

    #[test]
    fn a_universe_spans_the_sets_and_the_numbers_that_fit() {
        let types = [Type::Set(Box::new(Type::Nat)), Type::Nat];
        let start = [set(&[2, 5]), Value::Int(9)];
        let u = Universe::of(&types, &start, &[false, true])
            .unwrap()
            .unwrap();
        assert_eq!(u, Universe { lo: 0, size: 10 });
        assert_eq!(u.mask(&[Value::Int(2), Value::Int(5)]), Some(0b100100));
        assert_eq!(u.elements(0b100100), set(&[2, 5]));
        assert_eq!(u.bit(10), None);
        // A number too large to sit beside leaves the sets their own.
        let far = [set(&[2, 5]), Value::Int(1000)];
        let u = Universe::of(&types, &far, &[false, true]).unwrap().unwrap();
        assert_eq!(u, Universe { lo: 0, size: 6 });
        // No set the rules change: no universe.
        assert_eq!(Universe::of(&types, &start, &[true, true]), Some(None));
    }

    #[test]
    fn masks_answer_for_their_sets() {
        // {1, 3, 4} over numbers from -1: bits 2, 4 and 5.
        let mask = 0b110100;
        assert_eq!(ones(mask), Some(3));
        assert_eq!(ones(-1), None);
        let walked: Vec<_> = (0..3).map(|i| member(mask, i, -1)).collect();
        assert_eq!(walked, [Some(1), Some(3), Some(4)]);
        assert_eq!(member(mask, 3, -1), None);
        assert_eq!(extreme(mask, -1, false), Some(1));
        assert_eq!(extreme(mask, -1, true), Some(4));
        assert_eq!(extreme(0, -1, true), None);
        assert!(holds(mask, 3, -1) && !holds(mask, 2, -1) && !holds(mask, -5, -1));
        assert!(!holds(mask, 100, -1));
    }

    #[test]
    fn integers_below_zero_move_the_universe_down() {
        let types = [Type::Set(Box::new(Type::Int))];
        let u = Universe::of(&types, &[set(&[-3, 4])], &[false])
            .unwrap()
            .unwrap();
        assert_eq!(u, Universe { lo: -3, size: 8 });
        assert_eq!(u.bit(-3), Some(1));
        assert_eq!(u.bit(-4), None);
        assert!(Universe::of(&types, &[set(&[0, 70])], &[false]).is_none());
    }
}
