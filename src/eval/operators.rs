//! Operators: what `+`, `<`, `in`, `..` and indexing do to values.

use super::builtins;
use super::interp::{Env, Interp};
use super::ir::Ir;
use super::positions::PosId;
use super::value::{range_len, Value};
use crate::error::{Error, ErrorKind};
use crate::source::Span;
use crate::syntax::ast::BinaryOp;

type Result<T> = std::result::Result<T, Error>;

impl Interp {
    pub(super) fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &Ir,
        rhs: &Ir,
        env: &mut Env,
        span: Span,
    ) -> Result<Value> {
        use BinaryOp::*;
        if matches!(op, And | Or) {
            let l = self.eval_bool(lhs, env)?;
            if (op == And) != l {
                return Ok(Value::Bool(l));
            }
            return Ok(Value::Bool(self.eval_bool(rhs, env)?));
        }
        let l = self.eval(lhs, env)?;
        let r = self.eval(rhs, env)?;
        // Numbers are by far the most common operands: no clones, no
        // closures for them.
        if let (Value::Int(a), Value::Int(b)) = (&l, &r) {
            if let Some(v) = int_fast_path(op, *a, *b) {
                return Ok(v);
            }
        }
        let wrong = |side: &Ir, expected: &str, v: &Value| {
            Error::new(
                ErrorKind::WrongType {
                    expected: expected.into(),
                    found: v.kind().into(),
                    hint: None,
                },
                side.span,
            )
        };
        let overflow = || {
            Error::new(
                ErrorKind::Overflow {
                    detail: format!("{} {} {}", self.show(&l), op.symbol(), self.show(&r)),
                },
                span,
            )
        };
        Ok(match op {
            Eq => Value::Bool(l.same(&r)),
            Ne => Value::Bool(!l.same(&r)),
            Lt | Le | Gt | Ge => {
                let ord = l.order(&r);
                Value::Bool(match op {
                    Lt => ord.is_lt(),
                    Le => ord.is_le(),
                    Gt => ord.is_gt(),
                    _ => ord.is_ge(),
                })
            }
            In | NotIn => {
                let found = match (&l, &r) {
                    (Value::Int(n), Value::Range(lo, hi)) => lo <= n && n < hi,
                    (Value::Str(sub), Value::Str(s)) => s.contains(&**sub),
                    (v, Value::Set(xs)) => xs.binary_search(v).is_ok(),
                    (v, c) => builtins::elements(c)
                        .map_err(|k| Error::new(k, rhs.span))?
                        .iter()
                        .any(|x| x.same(v)),
                };
                Value::Bool(found == (op == In))
            }
            RangeExclusive | RangeInclusive => {
                let a = builtins::int(&l).map_err(|_| wrong(lhs, "a number", &l))?;
                let b = builtins::int(&r).map_err(|_| wrong(rhs, "a number", &r))?;
                let hi = if op == RangeInclusive {
                    b.checked_add(1).ok_or_else(overflow)?
                } else {
                    b
                };
                Value::Range(a, hi)
            }
            Add => match (&l, &r) {
                (Value::Int(a), Value::Int(b)) => {
                    Value::Int(a.checked_add(*b).ok_or_else(overflow)?)
                }
                (Value::Str(a), Value::Str(b)) => Value::str(&format!("{a}{b}")),
                (Value::List(_) | Value::Range(..), Value::List(_) | Value::Range(..)) => {
                    let mut items = builtins::elements(&l).map_err(|k| Error::new(k, lhs.span))?;
                    items.extend(builtins::elements(&r).map_err(|k| Error::new(k, rhs.span))?);
                    Value::list(items)
                }
                (Value::Pos(a), Value::Pos(b)) => {
                    let parts: Vec<PosId> = a.iter().chain(b.iter()).copied().collect();
                    self.sum_of(parts, span)?
                }
                (Value::Int(_) | Value::Str(_) | Value::List(_) | Value::Pos(_), other) => {
                    return Err(wrong(rhs, l.kind(), other))
                }
                (other, _) => return Err(wrong(lhs, "a number, string, list or position", other)),
            },
            Sub | Mul | Div | Rem | BitOr | BitXor | BitAnd | Shl | Shr | Pow => {
                let a = builtins::int(&l).map_err(|_| wrong(lhs, "a number", &l))?;
                let b = builtins::int(&r).map_err(|_| wrong(rhs, "a number", &r))?;
                let zero = || Error::new(ErrorKind::DivisionByZero, rhs.span);
                Value::Int(match op {
                    Sub => a.checked_sub(b).ok_or_else(overflow)?,
                    Mul => a.checked_mul(b).ok_or_else(overflow)?,
                    Div if b == 0 => return Err(zero()),
                    Div => a.checked_div_euclid(b).ok_or_else(overflow)?,
                    Rem if b == 0 => return Err(zero()),
                    Rem => a.checked_rem_euclid(b).ok_or_else(overflow)?,
                    Pow if b < 0 => {
                        return Err(Error::new(
                            ErrorKind::NegativeExponent {
                                base: a,
                                exponent: b,
                            },
                            span,
                        ))
                    }
                    Pow => super::arith::power(a, b).ok_or_else(overflow)?,
                    BitOr => a | b,
                    BitXor => a ^ b,
                    BitAnd => a & b,
                    Shl => {
                        let shift = u32::try_from(b)
                            .ok()
                            .filter(|s| *s < 63)
                            .ok_or_else(overflow)?;
                        let v = a.checked_shl(shift).ok_or_else(overflow)?;
                        if v >> shift != a {
                            return Err(overflow());
                        }
                        v
                    }
                    _ => {
                        a >> u32::try_from(b)
                            .ok()
                            .filter(|s| *s < 64)
                            .ok_or_else(overflow)?
                    }
                })
            }
            And | Or => unreachable!("handled above"),
        })
    }
}

/// The result of an operator on two numbers when it cannot fail; `None`
/// leaves overflow, division by zero and shifts to the general path, which
/// reports them.
fn int_fast_path(op: BinaryOp, a: i64, b: i64) -> Option<Value> {
    use BinaryOp::*;
    Some(match op {
        Eq => Value::Bool(a == b),
        Ne => Value::Bool(a != b),
        Lt => Value::Bool(a < b),
        Le => Value::Bool(a <= b),
        Gt => Value::Bool(a > b),
        Ge => Value::Bool(a >= b),
        Add => Value::Int(a.checked_add(b)?),
        Sub => Value::Int(a.checked_sub(b)?),
        Mul => Value::Int(a.checked_mul(b)?),
        BitOr => Value::Int(a | b),
        BitXor => Value::Int(a ^ b),
        BitAnd => Value::Int(a & b),
        RangeExclusive => Value::Range(a, b),
        RangeInclusive => Value::Range(a, b.checked_add(1)?),
        _ => return None,
    })
}

pub(super) fn element_at(v: &Value, i: i64) -> std::result::Result<Value, ErrorKind> {
    let out_of_range = |len: usize, what| ErrorKind::IndexOutOfRange {
        index: i,
        len,
        what,
    };
    match v {
        Value::Str(s) => {
            let c = usize::try_from(i).ok().and_then(|i| {
                if s.is_ascii() {
                    s.as_bytes().get(i).map(|&b| b as char)
                } else {
                    s.chars().nth(i)
                }
            });
            c.map(Value::char)
                .ok_or_else(|| out_of_range(s.chars().count(), "string"))
        }
        Value::List(xs) | Value::Tuple(xs) | Value::Set(xs) => usize::try_from(i)
            .ok()
            .and_then(|i| xs.get(i).cloned())
            .ok_or_else(|| out_of_range(xs.len(), "list")),
        Value::Range(lo, hi) => {
            let len = range_len(*lo, *hi);
            if i < 0 || i as u64 >= len {
                return Err(out_of_range(len as usize, "range"));
            }
            // Below `hi`, so it fits.
            Ok(Value::Int(lo + i))
        }
        other => Err(ErrorKind::WrongType {
            expected: "a list or string to index".into(),
            found: other.kind().into(),
            hint: None,
        }),
    }
}
