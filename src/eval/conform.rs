//! Values checked against parameter types when a position or a helper
//! call is made.

use super::builtins;
use super::value::Value;
use crate::error::ErrorKind;
use crate::types::Type;

/// A value checked (and, for sets, normalised) against a parameter type.
pub(super) fn conform(name: &str, ty: &Type, v: Value) -> std::result::Result<Value, ErrorKind> {
    let wrong = |v: &Value| ErrorKind::WrongType {
        expected: format!("`{ty}` for parameter `{name}`"),
        found: v.kind().into(),
        hint: None,
    };
    Ok(match (ty, v) {
        (Type::Unknown, v) => v,
        (Type::Nat, Value::Int(n)) if n < 0 => {
            return Err(ErrorKind::Negative {
                name: name.to_string(),
                value: n,
            })
        }
        (Type::Nat | Type::Int, v @ Value::Int(_)) => v,
        (Type::Bool, v @ Value::Bool(_)) => v,
        (Type::Str, v @ Value::Str(_)) => v,
        (Type::Game, v @ Value::Pos(_)) => v,
        (Type::Grid, v) => {
            let rows = builtins::elements(&v.materialize()).map_err(|_| wrong(&v))?;
            let mut width = None;
            for (i, row) in rows.iter().enumerate() {
                let Value::Str(s) = row else {
                    return Err(wrong(&v));
                };
                let w = s.chars().count();
                let first = *width.get_or_insert(w);
                if first != w {
                    return Err(ErrorKind::BadValue {
                        detail: format!(
                            "the rows of grid `{name}` must all have the same length, but row 0 has {first} and row {i} has {w}"
                        ),
                    });
                }
            }
            Value::list(rows)
        }
        (Type::List(t), v @ (Value::List(_) | Value::Range(..))) => {
            let items = builtins::elements(&v)?;
            Value::list(
                items
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| conform(&format!("{name}[{i}]"), t, x))
                    .collect::<std::result::Result<_, _>>()?,
            )
        }
        (Type::Set(t), v @ (Value::Set(_) | Value::List(_) | Value::Range(..))) => {
            let items = builtins::elements(&v)?;
            Value::set(
                items
                    .into_iter()
                    .map(|x| conform(name, t, x))
                    .collect::<std::result::Result<_, _>>()?,
            )
        }
        (Type::Tuple(ts), Value::Tuple(xs)) if ts.len() == xs.len() => Value::Tuple(
            ts.iter()
                .zip(xs.iter())
                .enumerate()
                .map(|(i, (t, x))| conform(&format!("{name}[{i}]"), t, x.clone()))
                .collect::<std::result::Result<Vec<_>, _>>()?
                .into(),
        ),
        (_, v) => return Err(wrong(&v)),
    })
}

/// Whether a value needs no conversion for a parameter: `conform` would
/// return it unchanged. Saves rebuilding collections, element by element,
/// on every position made and every helper called.
pub(super) fn already_fits(ty: &Type, v: &Value) -> bool {
    match (ty, v) {
        (Type::Nat, Value::Int(n)) => *n >= 0,
        (Type::Int, Value::Int(_)) | (Type::Unknown, _) => true,
        (Type::Str, Value::Str(_)) | (Type::Bool, Value::Bool(_)) | (Type::Game, Value::Pos(_)) => {
            true
        }
        // A set's elements that fit stay as they are, so it stays sorted.
        (Type::List(t), Value::List(xs)) | (Type::Set(t), Value::Set(xs)) => {
            xs.iter().all(|x| already_fits(t, x))
        }
        (Type::Tuple(ts), Value::Tuple(xs)) => {
            ts.len() == xs.len() && ts.iter().zip(xs.iter()).all(|(t, x)| already_fits(t, x))
        }
        (Type::Grid, Value::List(rows)) => {
            let mut width = None;
            rows.iter().all(|row| match row {
                Value::Str(s) => *width.get_or_insert(s.chars().count()) == s.chars().count(),
                _ => false,
            })
        }
        _ => false,
    }
}
