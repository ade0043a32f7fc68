//! The leaves of the compiled expressions that a closure reads inline,
//! without a call of their own (see `closure`): numbers (a literal, a
//! register, a register plus a constant, a list's element, a grid's cell),
//! strings (a literal, a string register or parameter, a grid's row) and
//! helpers' arguments put in their registers.

use super::closure::{NumFn, TextFn};
use super::code::MadeList;
use super::run::{low_bits, Machine};
use super::words::Word;

/// A number read inside its user's closure: a literal or a register
/// without a call, anything else through its closure.
pub(super) enum Operand {
    Lit(i64),
    Reg(usize),
    /// A register plus a constant: `i + 1`, `n - k` for a literal `k`.
    Offset(usize, i64),
    /// Element `regs[index]` of the `len` registers from `first`: `xs[i]`.
    Element {
        first: usize,
        len: u32,
        index: usize,
    },
    /// The letter at `grid[r][c]`, each index a register plus a constant.
    Cell {
        first: usize,
        rows: u32,
        cols: u32,
        cell: u32,
        r: (usize, i64),
        c: (usize, i64),
    },
    /// An expression of `regs[first + regs[index]]` alone (see `lookup`),
    /// read off its table of every value that field can hold; `slow` where
    /// the index is out of range.
    Table {
        first: usize,
        len: u32,
        index: usize,
        table: Box<[Option<i64>]>,
        slow: Box<Operand>,
    },
    Call(NumFn),
}

impl Operand {
    /// A register plus a constant, if the operand is one.
    pub(super) fn offset(&self) -> Option<(usize, i64)> {
        match *self {
            Operand::Reg(r) => Some((r, 0)),
            Operand::Offset(r, k) => Some((r, k)),
            _ => None,
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, m: &mut Machine) -> Option<i64> {
        match self {
            Operand::Lit(v) => Some(*v),
            Operand::Reg(r) => Some(m.regs[*r]),
            Operand::Offset(r, k) => m.regs[*r].checked_add(*k),
            Operand::Element { first, len, index } => {
                let i = self::index(m.regs[*index], *len)?;
                Some(m.regs[first + i as usize])
            }
            Operand::Cell {
                first,
                rows,
                cols,
                cell,
                r,
                c,
            } => {
                let r = self::index(m.regs[r.0].checked_add(r.1)?, *rows)?;
                let c = self::index(m.regs[c.0].checked_add(c.1)?, *cols)?;
                let row = m.regs[first + r as usize] as u64;
                Some(((row >> (c * cell)) & low_bits(*cell)) as i64)
            }
            Operand::Table {
                first,
                len,
                index,
                table,
                slow,
            } => match self::index(m.regs[*index], *len)
                .and_then(|i| table.get(m.regs[first + i as usize] as usize))
            {
                Some(v) => *v,
                None => slow.get_out_of_line(m),
            },
            Operand::Call(f) => f(m),
        }
    }

    /// `get`, as a call: what a table's index out of range reads, so that
    /// `get` is not recursive and stays inline.
    #[inline(never)]
    fn get_out_of_line(&self, m: &mut Machine) -> Option<i64> {
        self.get(m)
    }

    pub(super) fn into_fn(self) -> NumFn {
        match self {
            Operand::Lit(v) => Box::new(move |_| Some(v)),
            Operand::Reg(r) => Box::new(move |m| Some(m.regs[r])),
            Operand::Call(f) => f,
            other => Box::new(move |m| other.get(m)),
        }
    }
}

/// An index into `len` elements, or `None` out of range (as `run` checks).
#[inline(always)]
pub(super) fn index(i: i64, len: u32) -> Option<u32> {
    u32::try_from(i).ok().filter(|&i| i < len)
}

/// A helper's argument put in its register, inside the closure of the
/// helper's body.
pub(super) enum Binding {
    Num {
        reg: usize,
        value: Operand,
        nat: bool,
    },
    Text {
        reg: usize,
        value: Piece,
    },
    Letter {
        reg: usize,
        value: Operand,
    },
    /// A list of numbers worked out whole into its tuple register.
    List(Box<MadeList>),
}

impl Binding {
    #[inline(always)]
    pub(super) fn set(&self, m: &mut Machine) -> Option<()> {
        match self {
            Binding::Num { reg, value, nat } => {
                let v = value.get(m)?;
                if *nat && v < 0 {
                    return None;
                }
                m.regs[*reg] = v;
            }
            Binding::Text { reg, value } => m.texts[*reg] = value.get(m)?,
            Binding::Letter { reg, value } => {
                // A letter outside the alphabet is not held.
                m.regs[*reg] = value.get(m).filter(|&c| c >= 0)?;
            }
            Binding::List(made) => m.make_list(made)?,
        }
        Some(())
    }
}

/// A string read inside its user's closure: a literal, a string register,
/// a string parameter or a grid's row at a register's index without a
/// call, anything else through its closure.
pub(super) enum Piece {
    Lit(Option<Word>),
    Reg(usize),
    Param {
        shift: u32,
        bits: u64,
        len: u32,
    },
    Row {
        first: usize,
        len: u32,
        cols: u32,
        index: usize,
    },
    Call(TextFn),
}

impl Piece {
    #[inline(always)]
    pub(super) fn get(&self, m: &mut Machine) -> Option<Word> {
        match self {
            Piece::Lit(lit) => *lit,
            Piece::Reg(r) => Some(m.texts[*r]),
            Piece::Param { shift, bits, len } => Some(((m.key >> shift) & bits, *len)),
            Piece::Row {
                first,
                len,
                cols,
                index,
            } => {
                let i = self::index(m.regs[*index], *len)?;
                Some((m.regs[first + i as usize] as u64, *cols))
            }
            Piece::Call(f) => f(m),
        }
    }

    pub(super) fn into_fn(self) -> TextFn {
        match self {
            Piece::Call(f) => f,
            other => Box::new(move |m| other.get(m)),
        }
    }
}
