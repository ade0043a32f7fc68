//! Arithmetic on plain numbers as the interpreter does it, for the code
//! that runs rules without building values (the compiled code of packed
//! keys): `None` wherever the interpreter would report an error, which is
//! then left to it.

use crate::syntax::ast::BinaryOp;

/// `a op b` for an arithmetic operator, as the interpreter computes it;
/// `None` where it would report an error (an overflow, a zero divisor, a
/// shift out of range), which is then the interpreter's to report.
#[inline(always)]
pub fn arithmetic(op: BinaryOp, a: i64, b: i64) -> Option<i64> {
    use BinaryOp::*;
    Some(match op {
        Add => a.checked_add(b)?,
        Sub => a.checked_sub(b)?,
        Mul => a.checked_mul(b)?,
        Div => a.checked_div_euclid(b)?,
        Rem => a.checked_rem_euclid(b)?,
        BitOr => a | b,
        BitXor => a ^ b,
        BitAnd => a & b,
        Shl => {
            let s = u32::try_from(b).ok().filter(|s| *s < 63)?;
            let v = a.checked_shl(s)?;
            if v >> s != a {
                return None;
            }
            v
        }
        Shr => a >> u32::try_from(b).ok().filter(|s| *s < 64)?,
        Pow => power(a, b)?,
        _ => return None,
    })
}

/// `a ** b`; `None` for a negative exponent or a result past 64 bits.
pub fn power(a: i64, b: i64) -> Option<i64> {
    match u32::try_from(b) {
        Ok(b) => a.checked_pow(b),
        // Exponents past u32 overflow unless the base is 0, 1 or -1.
        Err(_) if b > 0 => match a {
            0 | 1 => Some(a),
            -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
            _ => None,
        },
        Err(_) => None,
    }
}

/// `a op b` for a comparison operator.
#[inline(always)]
pub fn compare(op: BinaryOp, a: i64, b: i64) -> Option<bool> {
    use BinaryOp::*;
    Some(match op {
        Eq => a == b,
        Ne => a != b,
        Lt => a < b,
        Le => a <= b,
        Gt => a > b,
        Ge => a >= b,
        _ => return None,
    })
}
