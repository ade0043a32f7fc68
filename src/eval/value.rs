//! Runtime values. Collections are shared behind `Arc` so that copying a
//! value into a position or an environment never copies its elements.

use super::positions::PosId;
use std::cmp::Ordering;
use std::sync::Arc;

// A word-sized tag: values are moved between the interpreter's calls all the
// time, and with a byte tag the compiler copies the rest in odd-sized,
// misaligned pieces that stall the loads reading them back.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u64)]
pub enum Value {
    Int(i64),
    Bool(bool),
    Str(Arc<str>),
    List(Arc<[Value]>),
    /// Sorted, without repeats.
    Set(Arc<[Value]>),
    Tuple(Arc<[Value]>),
    /// `lo..hi`, exclusive; kept lazy so `1..10^18` costs nothing until iterated.
    Range(i64, i64),
    /// A position: the sum of these components, sorted (one component is a
    /// plain position, none is the empty sum whose value is 0).
    Pos(Arc<[PosId]>),
}

impl Value {
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(items.into())
    }

    pub fn set(mut items: Vec<Value>) -> Value {
        items.sort();
        items.dedup();
        Value::Set(items.into())
    }

    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }

    /// A string of one character. Boards are read a cell at a time, so the
    /// ASCII ones are made once per thread and shared, not allocated.
    pub fn char(c: char) -> Value {
        thread_local! {
            static ASCII: Vec<Arc<str>> =
                (0u8..128).map(|b| Arc::from((b as char).encode_utf8(&mut [0; 4]) as &str)).collect();
        }
        if c.is_ascii() {
            ASCII.with(|table| Value::Str(table[c as usize].clone()))
        } else {
            Value::str(c.encode_utf8(&mut [0; 4]))
        }
    }

    pub fn sum(mut parts: Vec<PosId>) -> Value {
        parts.sort_unstable();
        Value::Pos(parts.into())
    }

    /// A short name for the kind of value, for error messages.
    pub fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "a number",
            Value::Bool(_) => "a boolean",
            Value::Str(_) => "a string",
            Value::List(_) => "a list",
            Value::Set(_) => "a set",
            Value::Tuple(_) => "a tuple",
            Value::Range(..) => "a range",
            Value::Pos(_) => "a position",
        }
    }

    /// The number of elements of a collection.
    pub fn count(&self) -> Option<usize> {
        Some(match self {
            Value::Str(s) => s.chars().count(),
            Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => xs.len(),
            // Exact: a range has at most 2^64 - 1 elements, which fits.
            Value::Range(lo, hi) => range_len(*lo, *hi) as usize,
            _ => return None,
        })
    }

    /// Equality that sees a range and the list it stands for as equal.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Range(..), Value::List(_)) | (Value::List(_), Value::Range(..)) => {
                self.order(other).is_eq()
            }
            _ => self == other,
        }
    }

    /// The order of two values, a range ordered as the list it stands for,
    /// worked out without building that list (`0..10^18` has too many
    /// elements to build).
    pub fn order(&self, other: &Value) -> Ordering {
        use Value::{List, Range};
        match (self, other) {
            (Range(a, b), Range(c, d)) => {
                let (m, n) = (range_len(*a, *b), range_len(*c, *d));
                if m == 0 || n == 0 {
                    return m.cmp(&n);
                }
                // Both count up by one: the first elements decide, then
                // the lengths.
                a.cmp(c).then(m.cmp(&n))
            }
            (Range(lo, hi), List(xs)) => range_against_list(*lo, *hi, xs),
            (List(xs), Range(lo, hi)) => range_against_list(*lo, *hi, xs).reverse(),
            // Against any other kind, only the kind of a list counts.
            (Range(..), x) => List(Arc::from([])).cmp(x),
            (x, Range(..)) => x.cmp(&List(Arc::from([]))),
            _ => self.cmp(other),
        }
    }

    /// A range as the list it stands for; other values unchanged. Only for
    /// ranges known to be short.
    pub fn materialize(&self) -> Value {
        match self {
            Value::Range(lo, hi) => Value::list((*lo..*hi).map(Value::Int).collect()),
            other => other.clone(),
        }
    }
}

/// How many numbers `lo..hi` holds, exactly: up to 2^64 - 1 (from
/// `i64::MIN` to `i64::MAX`), more than an `i64` can count.
pub fn range_len(lo: i64, hi: i64) -> u64 {
    (i128::from(hi) - i128::from(lo)).max(0) as u64
}

/// The range `lo..hi` ordered against a list, as the list of its numbers
/// would be: no more of it is read than the list is long, plus one.
fn range_against_list(lo: i64, hi: i64, xs: &[Value]) -> Ordering {
    let numbers = (lo..hi).map(Value::Int).take(xs.len().saturating_add(1));
    numbers.cmp(xs.iter().cloned())
}

#[cfg(test)]
mod tests {
    use super::Value;

    /// Ranges ordered without being built agree with the lists they stand
    /// for, on every pair of short ranges and lists.
    #[test]
    fn ranges_order_as_their_lists() {
        let mut values = Vec::new();
        for lo in -2..3 {
            for hi in -2..4 {
                values.push(Value::Range(lo, hi));
            }
        }
        for list in [
            vec![],
            vec![-1],
            vec![0],
            vec![0, 1],
            vec![0, 1, 2],
            vec![1, 0],
            vec![2],
        ] {
            values.push(Value::list(list.into_iter().map(Value::Int).collect()));
        }
        values.push(Value::Int(0));
        values.push(Value::str("a"));
        for a in &values {
            for b in &values {
                let plain = a.materialize().cmp(&b.materialize());
                assert_eq!(a.order(b), plain, "{a:?} against {b:?}");
                let lists = matches!(a, Value::Range(..) | Value::List(_))
                    && matches!(b, Value::Range(..) | Value::List(_));
                if lists && !(matches!(a, Value::Range(..)) && matches!(b, Value::Range(..))) {
                    assert_eq!(a.same(b), plain.is_eq(), "{a:?} against {b:?}");
                }
            }
        }
    }

    #[test]
    fn huge_ranges_are_ordered_without_being_built() {
        let huge = Value::Range(i64::MIN, 0);
        assert!(huge.order(&Value::Int(0)).is_gt());
        assert!(huge.order(&Value::Range(0, i64::MAX)).is_lt());
        assert!(huge.order(&Value::list(vec![Value::Int(i64::MIN)])).is_gt());
        assert!(!huge.same(&Value::list(vec![])));
    }
}
