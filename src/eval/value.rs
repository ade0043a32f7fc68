//! Runtime values. Collections are shared behind `Arc` so that copying a
//! value into a position or an environment never copies its elements.

use super::positions::PosId;
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
            Value::Range(lo, hi) => hi.saturating_sub(*lo).max(0) as usize,
            _ => return None,
        })
    }

    /// Equality that sees a range and the list it stands for as equal.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Range(..), Value::List(_)) | (Value::List(_), Value::Range(..)) => {
                self.materialize() == other.materialize()
            }
            _ => self == other,
        }
    }

    /// A range as the list it stands for; other values unchanged.
    pub fn materialize(&self) -> Value {
        match self {
            Value::Range(lo, hi) => Value::list((*lo..*hi).map(Value::Int).collect()),
            other => other.clone(),
        }
    }
}
