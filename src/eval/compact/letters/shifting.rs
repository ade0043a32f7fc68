//! A move whose writes each edit a row in place (the row written is the
//! row read), at places that are the innermost loop's variable plus an
//! amount the loop does not change, the rows and letters the same for
//! every value: the option at value `c` is the key with the same letters
//! put at places `c - lo` cells further on than at value `lo`. The keys
//! of a loop's values are then one mask and one shift each.
//!
//! Between the rows, the writes may bind numbers and choose between
//! writes on a comparison of two numbers the loop does not change, or of
//! two that both move one for one with it (a row number plus an amount
//! with the row number itself, where a helper reads a row of the board
//! another helper wrote): such a choice takes the same side at every
//! value, so the side taken at `lo` holds for all.

use super::super::code::{Bind, Gen, Num, Rows, Truth, Write};
use super::super::leaves::index;
use super::super::run::{low_bits, Machine};
use super::settled::settled;
use super::{edited, Edit};
use crate::eval::arith::compare;
use crate::syntax::ast::BinaryOp;

#[derive(Debug)]
pub struct Shifting {
    var: u32,
    rows: Rows,
    /// Numbers bound, rows written (`Edit::Row`) and choices between
    /// them, in the order the code makes them.
    writes: Vec<Edit<Num>>,
}

/// How a number moves with the loop's variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    /// Not at all.
    Steady,
    /// One for one: the variable plus a steady amount.
    Along,
}

/// Which way the variable walks the grid.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Walks {
    /// Along a row: each letter put moves with it, the rows stay.
    Columns,
    /// Down the rows: each row written (and read) moves with it, the
    /// places in the rows stay.
    Rows,
}

/// What is known of the registers on the way through the writes.
#[derive(Clone)]
struct Registers {
    walks: Walks,
    /// Bound to the variable plus an amount.
    along: Vec<u32>,
    /// Bound on one side of a choice and not the same way on the other:
    /// no longer to be read.
    mixed: Vec<u32>,
}

impl Registers {
    fn bound(&mut self, reg: u32, moves: Moves) {
        self.along.retain(|&a| a != reg);
        self.mixed.retain(|&a| a != reg);
        if moves == Moves::Along {
            self.along.push(reg);
        }
    }

    /// What holds after a choice whose sides left `self` and `other`.
    fn join(&mut self, other: Registers) {
        let mut mixed = other.mixed;
        mixed.extend(other.along.iter().filter(|r| !self.along.contains(r)));
        mixed.extend(self.along.iter().filter(|r| !other.along.contains(r)));
        self.along.retain(|r| other.along.contains(r));
        self.mixed.append(&mut mixed);
    }

    /// How `n` moves with the variable, if it is steady or moves one for
    /// one.
    fn moves(&self, n: &Num) -> Option<Moves> {
        use Moves::{Along, Steady};
        let both = |a: &Num, b: &Num| Some((self.moves(a)?, self.moves(b)?));
        match n {
            Num::Lit(_) => Some(Steady),
            Num::Reg(r) if self.mixed.contains(r) => None,
            Num::Reg(r) if self.along.contains(r) => Some(Along),
            Num::Reg(_) => Some(Steady),
            Num::Binary(BinaryOp::Add, a, b) => match both(a, b)? {
                (Steady, Steady) => Some(Steady),
                (Along, Steady) | (Steady, Along) => Some(Along),
                (Along, Along) => None,
            },
            Num::Binary(BinaryOp::Sub, a, b) => match both(a, b)? {
                (x, Steady) => Some(x),
                _ => None,
            },
            Num::Binary(_, a, b) => (both(a, b)? == (Steady, Steady)).then_some(Steady),
            Num::Neg(a) => (self.moves(a)? == Steady).then_some(Steady),
            Num::Field(_, i) | Num::TupleAt(_, i) | Num::Item(_, i) => {
                (self.moves(i)? == Steady).then_some(Steady)
            }
            // Both sides one way, on a test the variable does not move.
            Num::If(test, a, b) => {
                self.steady_test(test)?;
                let (a, b) = both(a, b)?;
                (a == b).then_some(a)
            }
            _ => None,
        }
    }

    /// Whether `test` holds at every value if at one.
    fn steady_test(&self, test: &Truth) -> Option<()> {
        match test {
            Truth::Lit(_) => Some(()),
            Truth::Compare(_, a, b) => (self.steady(a) && self.steady(b)).then_some(()),
            Truth::Not(t) => self.steady_test(t),
            Truth::And(a, b) | Truth::Or(a, b) => {
                self.steady_test(a)?;
                self.steady_test(b)
            }
            _ => None,
        }
    }

    fn steady(&self, n: &Num) -> bool {
        self.moves(n) == Some(Moves::Steady)
    }

    /// Whether `i` moves as a row's number must: not at all where the
    /// variable walks columns, one for one where it walks rows.
    fn row_moves(&self, i: &Num) -> Option<()> {
        let wanted = match self.walks {
            Walks::Columns => Moves::Steady,
            Walks::Rows => Moves::Along,
        };
        (self.moves(i)? == wanted).then_some(())
    }

    /// Whether `at` moves as a letter's place must: one for one where the
    /// variable walks columns, not at all where it walks rows.
    fn place_moves(&self, at: &Num) -> Option<()> {
        let wanted = match self.walks {
            Walks::Columns => Moves::Along,
            Walks::Rows => Moves::Steady,
        };
        (self.moves(at)? == wanted).then_some(())
    }

    /// Whether `steps` write rows and read them, and put each letter,
    /// where the variable moves them as the way it walks asks.
    fn edits(&mut self, steps: &[Edit<Num>]) -> Option<()> {
        for step in steps {
            match step {
                Edit::Bind { reg, value, .. } => {
                    let moves = self.moves(value)?;
                    self.bound(*reg as u32, moves);
                }
                Edit::Read(i) => self.row_moves(i)?,
                Edit::Letter { at, .. } => self.place_moves(at)?,
                Edit::Choose {
                    a,
                    b,
                    then,
                    otherwise,
                    ..
                } => {
                    // Both steady, or both the variable plus an amount:
                    // compared, the amounts decide, the same at every
                    // value.
                    (self.moves(a)? == self.moves(b)?).then_some(())?;
                    let mut other = self.clone();
                    self.edits(then)?;
                    other.edits(otherwise)?;
                    self.join(other);
                }
                Edit::Row(row, steps) => {
                    self.row_moves(row)?;
                    self.edits(steps)?;
                }
            }
        }
        Some(())
    }
}

/// `writes` as a `Shifting` for the loop over register `var`, if they are
/// one, with the choices the generators' ranges settle taken (see
/// `settled`).
pub fn shifting(writes: &[Write], var: u32, gens: &[Gen]) -> Option<Shifting> {
    let mut rows = None;
    let writes = shifts(writes, &mut rows)?;
    let mut registers = Registers {
        walks: Walks::Columns,
        along: vec![var],
        mixed: Vec::new(),
    };
    registers.edits(&writes)?;
    Some(Shifting {
        var,
        rows: rows?,
        writes: settled(writes, gens),
    })
}

/// `writes` as steps, each row written one of `rows`.
fn shifts(writes: &[Write], rows: &mut Option<Rows>) -> Option<Vec<Edit<Num>>> {
    let mut made = Vec::new();
    for write in writes {
        made.push(match write {
            Write::Bind(Bind::Num { reg, value, nat }) => Edit::Bind {
                reg: *reg as usize,
                value: value.copy()?,
                nat: *nat,
            },
            Write::Row(r, row, t) => {
                if *rows.get_or_insert(*r) != *r {
                    return None;
                }
                Edit::Row(row.copy()?, edited(t, r)?)
            }
            Write::Choose {
                test: Truth::Compare(op, a, b),
                then,
                otherwise,
            } => {
                compare(*op, 0, 0)?;
                Edit::Choose {
                    op: *op,
                    a: a.copy()?,
                    b: b.copy()?,
                    then: shifts(then, rows)?,
                    otherwise: shifts(otherwise, rows)?,
                }
            }
            _ => return None,
        });
    }
    Some(made)
}

impl Shifting {
    /// The grid whose rows the writes edit.
    pub fn rows(&self) -> Rows {
        self.rows
    }

    /// Whether the writes also move one row for one with register
    /// `outer` (each row written and read is `outer` plus an amount, the
    /// places in them stay): then the keys of a value of `outer` and of
    /// the variable are those of another pair moved by as many cells as
    /// lie between the two pairs' cells (see `plane`). Asked before the
    /// numbers are lowered.
    pub fn follows_rows(&self, outer: u32) -> bool {
        let mut registers = Registers {
            walks: Walks::Rows,
            along: vec![outer],
            mixed: Vec::new(),
        };
        registers.edits(&self.writes).is_some()
    }

    /// Every number made into what runs fastest (see `closure`).
    pub fn lower(&mut self, mut lowered: impl FnMut(&mut Num)) {
        self.writes
            .iter_mut()
            .for_each(|w| w.each_num(&mut lowered));
    }
}

/// The cells the writes change, as a mask over the key, and the letters
/// they put there.
#[derive(Default)]
pub struct Put {
    pub changed: u64,
    pub letters: u64,
}

impl Machine {
    /// The cells a `Shifting`'s writes change at the variable's value
    /// `lo`, as a mask over the key, and the letters they put there, if
    /// every step holds at `lo` and at `lo + span.0` (so at every value
    /// between, each place and each bound number moving one for one, up
    /// from `lo`) and each write edits its own row in place; `None`
    /// otherwise, and the loop then runs value by value. Where the rows
    /// move with an outer loop too (see `Shifting::follows_rows`), the
    /// steps hold as well with that loop `span.1` values further on.
    pub(in crate::eval::compact) fn shifted_letters(
        &mut self,
        s: &Shifting,
        lo: i64,
        span: (u32, u32),
    ) -> Option<(u64, u64)> {
        self.regs[s.var as usize] = lo;
        let mut put = Put::default();
        self.put_edits(&s.rows, None, &s.writes, span, &mut put)?;
        Some((put.changed, put.letters))
    }

    /// `steps`, writing row `row` (none outside a row's write), made at
    /// the variable's value `lo` into `put`, if they hold there and at
    /// `lo + span.0` (and `span.1` rows further down).
    pub(in crate::eval::compact) fn put_edits(
        &mut self,
        rows: &Rows,
        row: Option<u32>,
        steps: &[Edit<Num>],
        span: (u32, u32),
        put: &mut Put,
    ) -> Option<()> {
        let w = self.cell;
        let (across, down) = span;
        for step in steps {
            match step {
                Edit::Bind { reg, value, nat } => {
                    let v = self.quick(value)?;
                    // Natural at `lo`, so all the way up; and no
                    // overflow on the way.
                    if *nat && v < 0 || v.checked_add(i64::from(across) + i64::from(down)).is_none()
                    {
                        return None;
                    }
                    self.regs[*reg] = v;
                }
                Edit::Read(i) => {
                    (index(self.quick(i)?, rows.fields.len)? == row?).then_some(())?;
                }
                Edit::Letter { at, code } => {
                    let place = index(self.quick(at)?, rows.cols)?;
                    index(i64::from(place) + i64::from(across), rows.cols)?;
                    let shift = rows.fields.shift_of(row?) + place * w;
                    let cell = low_bits(w) << shift;
                    (code >> w == 0).then_some(())?;
                    put.changed |= cell;
                    put.letters = put.letters & !cell | code << shift;
                }
                // The same side at every value (see `Registers::edits`).
                Edit::Choose {
                    op,
                    a,
                    b,
                    then,
                    otherwise,
                } => {
                    let holds = compare(*op, self.quick(a)?, self.quick(b)?)?;
                    let side = if holds { then } else { otherwise };
                    self.put_edits(rows, row, side, span, put)?;
                }
                Edit::Row(row, steps) => {
                    let row = index(self.quick(row)?, rows.fields.len)?;
                    index(i64::from(row) + i64::from(down), rows.fields.len)?;
                    // A second write of a row starts from the row as the
                    // key holds it: the first write's letters there are
                    // dropped.
                    let whole = rows.fields.mask() << rows.fields.shift_of(row);
                    put.changed &= !whole;
                    put.letters &= !whole;
                    self.put_edits(rows, Some(row), steps, span, put)?;
                }
            }
        }
        Some(())
    }
}
