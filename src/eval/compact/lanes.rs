//! A list of truth values made whole at every place at once (see the
//! compiled form's making in `compile/lanes.rs`): each part of the
//! element is a word of bits, one a place of the list.

use super::layout::Fields;
use super::run::{low_bits, Machine};
use crate::syntax::ast::BinaryOp;
use std::rc::Rc;

/// A truth value at every place of the list, as bits.
#[derive(Debug)]
pub enum Lanes {
    /// The list's own element at the place.
    Own,
    Const(bool),
    /// The place compared (`place op number`) with a register or a
    /// literal.
    Compare(BinaryOp, Operand),
    /// The place in the constant row at the register's value: each row's
    /// places as bits, `None` for a row beyond the constant (an error
    /// where it is read).
    InRow(Rc<[u64]>, u32),
    /// The place in a constant list.
    Within(u64),
    /// A truth value the walk does not change, 1 or 0 in a register.
    Flag(u32),
    Not(Box<Lanes>),
    And(Box<Lanes>, Box<Lanes>),
    Or(Box<Lanes>, Box<Lanes>),
    /// Two truth values compared: `==` (flag set) or `!=`.
    Same(bool, Box<Lanes>, Box<Lanes>),
    /// `if test then a else b`: each branch read only where it is taken.
    If(Box<[Lanes; 3]>),
}

#[derive(Clone, Copy, Debug)]
pub enum Operand {
    Reg(u32),
    Lit(i64),
}

impl Lanes {
    /// The bits of every place, `all` the list's places, `reach` the
    /// places where this part is worked out; `None` where a part read at
    /// a reached place fails.
    fn eval(&self, m: &Machine, own: u64, all: u64, reach: u64) -> Option<u64> {
        Some(match self {
            Lanes::Own => own,
            Lanes::Const(b) => all * u64::from(*b),
            Lanes::Compare(op, x) => {
                let x = match *x {
                    Operand::Reg(r) => m.regs[r as usize],
                    Operand::Lit(n) => n,
                };
                compared(*op, x, all)
            }
            Lanes::InRow(rows, reg) => {
                let row = usize::try_from(m.regs[*reg as usize]).ok();
                match row.and_then(|r| rows.get(r)) {
                    Some(places) => places & all,
                    None if reach == 0 => 0,
                    None => return None,
                }
            }
            Lanes::Within(places) => places & all,
            Lanes::Not(a) => all & !a.eval(m, own, all, reach)?,
            Lanes::And(a, b) => {
                let a = a.eval(m, own, all, reach)?;
                a & b.eval(m, own, all, reach & a)?
            }
            Lanes::Or(a, b) => {
                let a = a.eval(m, own, all, reach)?;
                a | b.eval(m, own, all, reach & !a)?
            }
            Lanes::Flag(r) => all * u64::from(m.regs[*r as usize] != 0),
            Lanes::Same(eq, a, b) => {
                let differ = a.eval(m, own, all, reach)? ^ b.eval(m, own, all, reach)?;
                if *eq {
                    all & !differ
                } else {
                    differ
                }
            }
            Lanes::If(parts) => {
                let [test, a, b] = &**parts;
                let test = test.eval(m, own, all, reach)?;
                let a = a.eval(m, own, all, reach & test)?;
                test & a | all & !test & b.eval(m, own, all, reach & !test)?
            }
        })
    }
}

/// The places `p` (bits of `all`, from 0) where `p op x` holds.
fn compared(op: BinaryOp, x: i64, all: u64) -> u64 {
    // Places below `n`, for any `n`.
    let below = |n: i64| low_bits(n.clamp(0, 64) as u32) & all;
    match op {
        BinaryOp::Lt => below(x),
        BinaryOp::Le => below(x.saturating_add(1)),
        BinaryOp::Ge => all & !below(x),
        BinaryOp::Gt => all & !below(x.saturating_add(1)),
        BinaryOp::Eq => below(x.saturating_add(1)) & !below(x),
        _ => all & !(below(x.saturating_add(1)) & !below(x)),
    }
}

/// `x op y` as `y flipped(op) x`.
pub fn flipped(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// The places among `items` as bits (numbers off the list's places are
/// never a place).
pub fn places(items: &[i64]) -> u64 {
    items
        .iter()
        .copied()
        .filter(|n| (0..64).contains(n))
        .fold(0, |bits, n| bits | 1 << n)
}

/// The key with the list in `fields` made anew, its elements the bits of
/// `lanes`: `k` holds the list as the position does (its first write).
pub fn written(m: &Machine, k: u64, fields: &Fields, lanes: &Lanes) -> Option<u64> {
    let (all, shift) = (low_bits(fields.len), fields.shift);
    let own = k >> shift & all;
    let made = lanes.eval(m, own, all, all)?;
    Some(k & !(all << shift) | made << shift)
}
