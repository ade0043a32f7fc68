//! `any` and `all` of a comprehension whose elements test cells of the
//! key, answered on the key's bits for every element at once.
//!
//! An element such as `cells[j]`, `board[j] == "X"` or `h[j] != 0` is one
//! bit a cell: which cells hold the letter (or number) is a mask read off
//! the key, and `any`/`all` over a range of them is a test of that mask
//! shifted to the range. An element that is itself `any`/`all` over a
//! window of fixed width around the walk's variable (Treblecross's
//! `all([cells[j] for j in i..i + 3])`, written in a helper or not) is a
//! mask too: the cell mask shifted once for each place of the window and
//! joined (`&` for `all`, `|` for `any`). `not`, `and`, `or` and helpers'
//! arguments that are the variable plus a constant combine such masks.
//!
//! Beside each mask goes the mask of the indices whose element could be
//! worked out without an error (a cell inside the list, a helper's natural
//! argument at least 0); where an element of the walk could not be, the
//! test gives the question back (as the step-by-step walk does), so no
//! error is ever hidden. A window whose width is not fixed, or an element
//! that reads anything else, is walked step by step.

use super::code::{Bind, Char, Num, Seq, Truth, Walk};
use super::layout::Fields;
use super::leaves::Operand;
use super::run::{cells_equal, low_bits, Machine};
use crate::syntax::ast::BinaryOp;

/// For each index `t` of a walk (0 to 63), the truth of its element.
#[derive(Debug, Clone)]
pub enum Bits {
    /// Cell `t + shift` of `fields` holds `code` (stored as the key
    /// stores it); with `differs`, it does not.
    Cells {
        fields: Fields,
        code: u64,
        shift: i64,
        differs: bool,
    },
    /// `any` (or `all`) of `inner` over `t + from .. t + from + width`.
    Window {
        any: bool,
        inner: Box<Bits>,
        from: i64,
        width: i64,
    },
    Not(Box<Bits>),
    /// `a and b` (or with `or` set, `a or b`): `b` is worked out only
    /// where `a` does not decide.
    Both {
        or: bool,
        a: Box<Bits>,
        b: Box<Bits>,
    },
    Lit(bool),
}

/// The widest window joined shift by shift.
const WIDEST: i64 = 64;

/// A helper's argument that is a walk's variable plus a constant: the
/// argument's register, the variable's and the constant.
type Alias = (u32, u32, i64);

impl Bits {
    /// The masks of `element` over the walk's variable `var`, if every
    /// part of it is read off the key.
    pub fn of(element: &Truth, var: u32) -> Option<Bits> {
        of(element, var, &mut Vec::new())
    }

    /// The element's truth at each index, and the indices where it could
    /// be worked out without an error.
    #[inline]
    fn masks(&self, key: u64) -> (u64, u64) {
        match self {
            Bits::Cells {
                fields,
                code,
                shift,
                differs,
            } => {
                let inside = low_bits(fields.len);
                let mut held = cells_equal(key, fields, *code as i64);
                if *differs {
                    held = !held & inside;
                }
                (shifted(held, *shift), shifted(inside, *shift))
            }
            Bits::Window {
                any,
                inner,
                from,
                width,
            } => {
                let (held, valid) = inner.masks(key);
                let mut joined = if *any { 0 } else { u64::MAX };
                let mut whole = u64::MAX;
                for t in *from..from + width {
                    let h = shifted(held, t);
                    joined = if *any { joined | h } else { joined & h };
                    whole &= shifted(valid, t);
                }
                (joined, whole)
            }
            Bits::Not(x) => {
                let (held, valid) = x.masks(key);
                (!held, valid)
            }
            Bits::Both { or, a, b } => {
                let (ha, va) = a.masks(key);
                let (hb, vb) = b.masks(key);
                // Where `a` decides, `b` is never worked out.
                let decided = if *or { ha } else { !ha };
                let held = if *or { ha | hb } else { ha & hb };
                (held, va & (decided | vb))
            }
            Bits::Lit(b) => (if *b { u64::MAX } else { 0 }, u64::MAX),
        }
    }

    /// The most steps the step-by-step walk takes for one element.
    fn steps(&self) -> u64 {
        match self {
            Bits::Cells { .. } | Bits::Lit(_) => 0,
            Bits::Window { inner, width, .. } => {
                (*width.max(&0) as u64).saturating_mul(1 + inner.steps())
            }
            Bits::Not(x) => x.steps(),
            Bits::Both { a, b, .. } => a.steps().saturating_add(b.steps()),
        }
    }
}

/// `x` moved so that bit `t` is bit `t + by` of `x` (bits past either end
/// are 0).
#[inline(always)]
fn shifted(x: u64, by: i64) -> u64 {
    if by >= 0 {
        x.checked_shr(by as u32).unwrap_or(0)
    } else {
        x.checked_shl(by.unsigned_abs() as u32).unwrap_or(0)
    }
}

fn of(t: &Truth, var: u32, aliases: &mut Vec<Alias>) -> Option<Bits> {
    Some(match t {
        Truth::Lit(b) => Bits::Lit(*b),
        Truth::Not(x) => Bits::Not(Box::new(of(x, var, aliases)?)),
        Truth::And(a, b) | Truth::Or(a, b) => Bits::Both {
            or: matches!(t, Truth::Or(..)),
            a: Box::new(of(a, var, aliases)?),
            b: Box::new(of(b, var, aliases)?),
        },
        Truth::SameChar(eq, Char::Cell(fields, at), Char::Code(code))
        | Truth::SameChar(eq, Char::Code(code), Char::Cell(fields, at)) => {
            cells(*fields, at, *code, !eq, var, aliases)?
        }
        Truth::Compare(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b) => {
            let (fields, at, n) = match (a, b) {
                (Num::Field(f, at), Num::Lit(n)) | (Num::Lit(n), Num::Field(f, at)) => (f, at, n),
                _ => return None,
            };
            if !fields.fits(*n) {
                return None;
            }
            cells(
                *fields,
                at,
                fields.stored(*n) as i64,
                *op == BinaryOp::Ne,
                var,
                aliases,
            )?
        }
        Truth::Let(bind, body) => {
            let Bind::Num { reg, value, nat } = &**bind else {
                return None;
            };
            let k = offset(value, var, aliases)?;
            // Past the lowest index (0), a natural argument is at least 0.
            if *nat && k < 0 {
                return None;
            }
            aliases.push((*reg, var, k));
            let body = of(body, var, aliases);
            aliases.pop();
            body?
        }
        Truth::Each { any, walk, element } => {
            let Walk {
                var: inner,
                over: Seq::Range(lo, hi, inclusive),
                guard: None,
            } = &**walk
            else {
                return None;
            };
            let from = offset(lo, var, aliases)?;
            let to = offset(hi, var, aliases)?.checked_add(i64::from(*inclusive))?;
            let width = to.checked_sub(from)?;
            if width > WIDEST {
                return None;
            }
            // The window's element reads its own variable, not the walk's.
            let element = of(element, *inner, &mut Vec::new())?;
            if width <= 0 {
                // Every window is empty: no element is worked out.
                return Some(Bits::Lit(!any));
            }
            Bits::Window {
                any: *any,
                inner: Box::new(element),
                from,
                width,
            }
        }
        _ => return None,
    })
}

/// A test of the cell at `at`, `code` as the key stores it.
fn cells(
    fields: Fields,
    at: &Num,
    code: i64,
    differs: bool,
    var: u32,
    aliases: &[Alias],
) -> Option<Bits> {
    if code < 0 {
        return None;
    }
    Some(Bits::Cells {
        fields,
        code: code as u64,
        shift: offset(at, var, aliases)?,
        differs,
    })
}

/// Whether `t` is tested on the key alone, without the registers the
/// key's fields decode into: `has` and `count` on a string, and `any` or
/// `all` of cells over a range between such numbers, joined with `not`,
/// `and`, `or`.
pub fn on_key(t: &Truth) -> bool {
    match t {
        Truth::Lit(_) | Truth::Has(..) => true,
        Truth::Not(x) => on_key(x),
        Truth::And(a, b) | Truth::Or(a, b) => on_key(a) && on_key(b),
        Truth::Compare(_, a, b) => number_on_key(a) && number_on_key(b),
        Truth::Each { walk, element, .. } => match &**walk {
            Walk {
                var,
                over: Seq::Range(lo, hi, _),
                guard: None,
            } => number_on_key(lo) && number_on_key(hi) && Bits::of(element, *var).is_some(),
            _ => false,
        },
        _ => false,
    }
}

/// Whether a number is worked out of literals and the key alone.
fn number_on_key(n: &Num) -> bool {
    match n {
        Num::Lit(_) | Num::Matches(..) => true,
        Num::Binary(_, a, b) => number_on_key(a) && number_on_key(b),
        _ => false,
    }
}

/// `k` where `n` is the walk's variable (or a helper's argument that is
/// it plus a constant) plus the literal `k`.
fn offset(n: &Num, var: u32, aliases: &[Alias]) -> Option<i64> {
    match n {
        Num::Reg(r) if *r == var => Some(0),
        Num::Reg(r) => aliases
            .iter()
            .rev()
            .find(|(reg, _, _)| reg == r)
            .filter(|(_, of, _)| *of == var)
            .map(|(_, _, k)| *k),
        Num::Binary(BinaryOp::Add, a, b) => match (&**a, &**b) {
            (Num::Lit(k), x) | (x, Num::Lit(k)) => offset(x, var, aliases)?.checked_add(*k),
            _ => None,
        },
        Num::Binary(BinaryOp::Sub, x, k) => match &**k {
            Num::Lit(k) => offset(x, var, aliases)?.checked_sub(*k),
            _ => None,
        },
        _ => None,
    }
}

/// `any` (or `all`) of the element whose masks are `bits` over the walk
/// `lo..hi` (`..=` when `inclusive`), worked out on the key; `None` where
/// some element of the walk could not be worked out, or the walk reaches
/// past the indices a mask holds.
pub struct Tested {
    any: bool,
    bits: Bits,
    lo: Operand,
    hi: Operand,
    inclusive: bool,
    /// The most steps the step-by-step walk takes for one element.
    steps: u64,
}

impl Tested {
    pub fn new(any: bool, bits: Bits, (lo, hi): (Operand, Operand), inclusive: bool) -> Tested {
        let steps = 1 + bits.steps();
        Tested {
            any,
            bits,
            lo,
            hi,
            inclusive,
            steps,
        }
    }

    #[inline]
    pub fn run(&self, m: &mut Machine) -> Option<bool> {
        let lo = self.lo.get(m)?;
        let hi = self.hi.get(m)?;
        let hi = if self.inclusive {
            hi.checked_add(1)?
        } else {
            hi
        };
        if hi <= lo {
            return Some(!self.any);
        }
        if lo < 0 || hi > 64 {
            return None;
        }
        let n = (hi - lo) as u64;
        m.steps(usize::try_from(n.saturating_mul(self.steps)).ok()?)?;
        let (held, valid) = self.bits.masks(m.key);
        let walked = low_bits(n as u32) << lo;
        if valid & walked != walked {
            return None;
        }
        let held = held & walked;
        Some(if self.any { held != 0 } else { held == walked })
    }
}
