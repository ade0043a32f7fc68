//! A move whose writes each edit a row in place (the row written is the
//! row read), at places that are the innermost loop's variable plus an
//! amount the loop does not change, the rows and letters the same for
//! every value: the option at value `c` is the key with the same letters
//! put at places `c - lo` cells further on than at value `lo`. The keys
//! of a loop's values are then one mask and one shift each.
//!
//! Between the rows, the writes may bind numbers and choose between
//! writes on numbers the loop does not change: such a choice takes the
//! same side at every value, so the side taken at `lo` holds for all.

use super::super::code::{Bind, Gen, Num, Rows, Truth, Write};
use super::super::leaves::index;
use super::super::run::{low_bits, Machine};
use super::super::sieve::copy;
use super::settled::{self, Facts};
use super::{edited, Edit};
use crate::eval::arith::compare;
use crate::syntax::ast::BinaryOp;

#[derive(Debug)]
pub struct Shifting {
    var: u32,
    rows: Rows,
    writes: Vec<Shift>,
}

/// One of a `Shifting`'s writes, in the order the code makes them.
#[derive(Debug)]
enum Shift {
    /// A number put in its register for the writes after it (an
    /// `Edit::Bind`).
    Bind(Edit<Num>),
    /// A row, by its index, edited by the steps.
    Row(Num, Vec<Edit<Num>>),
    /// The writes of `then` when `a op b` holds, else those of
    /// `otherwise`.
    Choose {
        op: BinaryOp,
        a: Num,
        b: Num,
        then: Vec<Shift>,
        otherwise: Vec<Shift>,
    },
}

/// How a number moves with the loop's variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    /// Not at all.
    Steady,
    /// One for one: the variable plus a steady amount.
    Along,
}

/// What is known of the registers on the way through the writes.
#[derive(Clone)]
struct Registers {
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
            Num::Field(_, i) | Num::TupleAt(_, i) => (self.moves(i)? == Steady).then_some(Steady),
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

    /// Whether `steps` read their row where the variable does not move
    /// it and put each letter where it moves one for one.
    fn edits(&mut self, steps: &[Edit<Num>]) -> Option<()> {
        for step in steps {
            match step {
                Edit::Bind { reg, value, .. } => {
                    let moves = self.moves(value)?;
                    self.bound(*reg as u32, moves);
                }
                Edit::Read(i) => self.steady(i).then_some(())?,
                Edit::Letter { at, .. } => (self.moves(at)? == Moves::Along).then_some(())?,
                Edit::Choose {
                    a,
                    b,
                    then,
                    otherwise,
                    ..
                } => {
                    (self.steady(a) && self.steady(b)).then_some(())?;
                    let mut other = self.clone();
                    self.edits(then)?;
                    other.edits(otherwise)?;
                    self.join(other);
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
    let mut registers = Registers {
        along: vec![var],
        mixed: Vec::new(),
    };
    let writes = shifts(writes, &mut rows, &mut registers)?;
    let mut dropped = Vec::new();
    let writes = settle(writes, &mut Facts::of_generators(gens), &mut dropped);
    let mut read = Vec::new();
    let writes = match shift_reads(&writes, &mut read) {
        Some(()) => unread(writes, &dropped, &read),
        None => writes,
    };
    Some(Shifting {
        var,
        rows: rows?,
        writes,
    })
}

/// `writes` as `Shift`s, each row one of `rows`.
fn shifts(writes: &[Write], rows: &mut Option<Rows>, known: &mut Registers) -> Option<Vec<Shift>> {
    let mut made = Vec::new();
    for write in writes {
        made.push(match write {
            Write::Bind(Bind::Num { reg, value, nat }) => {
                let moves = known.moves(value)?;
                known.bound(*reg, moves);
                Shift::Bind(Edit::Bind {
                    reg: *reg as usize,
                    value: copy(value)?,
                    nat: *nat,
                })
            }
            Write::Row(r, row, t) => {
                if *rows.get_or_insert(*r) != *r {
                    return None;
                }
                known.steady(row).then_some(())?;
                let steps = edited(t, r)?;
                known.edits(&steps)?;
                Shift::Row(copy(row)?, steps)
            }
            Write::Choose {
                test: Truth::Compare(op, a, b),
                then,
                otherwise,
            } => {
                (known.steady(a) && known.steady(b)).then_some(())?;
                let mut other = known.clone();
                let then = shifts(then, rows, known)?;
                let otherwise = shifts(otherwise, rows, &mut other)?;
                known.join(other);
                compare(*op, 0, 0)?;
                Shift::Choose {
                    op: *op,
                    a: copy(a)?,
                    b: copy(b)?,
                    then,
                    otherwise,
                }
            }
            _ => return None,
        });
    }
    Some(made)
}

/// `writes` with the choices `facts` settle taken.
fn settle(writes: Vec<Shift>, facts: &mut Facts, dropped: &mut Vec<u32>) -> Vec<Shift> {
    let mut made = Vec::with_capacity(writes.len());
    for write in writes {
        match write {
            Shift::Bind(bind) => made.extend(
                facts
                    .steps(vec![bind], dropped)
                    .into_iter()
                    .map(Shift::Bind),
            ),
            Shift::Row(row, steps) => {
                let (row, steps) = (facts.plain(row), facts.steps(steps, dropped));
                // A row written again starts from the key's row, dropping
                // the letters an earlier write put there (see
                // `put_writes`): an earlier write of the same row whose
                // every step the later one makes too is not made.
                let earlier = made.iter().rposition(|w| matches!(w, Shift::Row(..)));
                if let Some(i) = earlier {
                    if let Shift::Row(first_row, first) = &made[i] {
                        if facts.same(first_row, &row) && facts.covers(first, &steps) {
                            made.remove(i);
                        }
                    }
                }
                made.push(Shift::Row(row, steps));
            }
            Shift::Choose {
                op,
                a,
                b,
                then,
                otherwise,
            } => match facts.settle(op, &a, &b) {
                Some(holds) => {
                    let side = if holds { then } else { otherwise };
                    made.extend(settle(side, facts, dropped));
                }
                None => {
                    let (a, b) = (facts.plain(a), facts.plain(b));
                    let sides = (then, otherwise, &mut *dropped);
                    let (then, otherwise) =
                        facts.sides(sides, |f, w, d| settle(w, f, d), shift_binds);
                    made.push(Shift::Choose {
                        op,
                        a,
                        b,
                        then,
                        otherwise,
                    });
                }
            },
        }
    }
    made
}

/// The registers `writes` bind, on either side of their choices.
fn shift_binds(writes: &[Shift], bound: &mut Vec<u32>) {
    for write in writes {
        match write {
            Shift::Bind(step) => settled::binds(std::slice::from_ref(step), bound),
            Shift::Row(_, steps) => settled::binds(steps, bound),
            Shift::Choose {
                then, otherwise, ..
            } => {
                shift_binds(then, bound);
                shift_binds(otherwise, bound);
            }
        }
    }
}

/// The registers `writes` read, onto `read`; `None` where a number is
/// read some other way.
fn shift_reads(writes: &[Shift], read: &mut Vec<u32>) -> Option<()> {
    for write in writes {
        match write {
            Shift::Bind(step) => settled::step_reads(std::slice::from_ref(step), read)?,
            Shift::Row(row, steps) => {
                settled::reads(row, read)?;
                settled::step_reads(steps, read)?;
            }
            Shift::Choose {
                a,
                b,
                then,
                otherwise,
                ..
            } => {
                settled::reads(a, read)?;
                settled::reads(b, read)?;
                shift_reads(then, read)?;
                shift_reads(otherwise, read)?;
            }
        }
    }
    Some(())
}

/// `writes` without the binds on `dropped` that nothing reads.
fn unread(writes: Vec<Shift>, dropped: &[u32], read: &[u32]) -> Vec<Shift> {
    let mut made = Vec::with_capacity(writes.len());
    for write in writes {
        match write {
            Shift::Bind(step) => made.extend(
                settled::unread(vec![step], dropped, read)
                    .into_iter()
                    .map(Shift::Bind),
            ),
            Shift::Row(row, steps) => {
                made.push(Shift::Row(row, settled::unread(steps, dropped, read)))
            }
            Shift::Choose {
                op,
                a,
                b,
                then,
                otherwise,
            } => made.push(Shift::Choose {
                op,
                a,
                b,
                then: unread(then, dropped, read),
                otherwise: unread(otherwise, dropped, read),
            }),
        }
    }
    made
}

impl Shifting {
    /// Every number made into what runs fastest (see `closure`).
    pub fn lower(&mut self, mut lowered: impl FnMut(&mut Num)) {
        lower_shifts(&mut self.writes, &mut lowered);
    }
}

fn lower_shifts(writes: &mut [Shift], lowered: &mut impl FnMut(&mut Num)) {
    for write in writes {
        match write {
            Shift::Bind(step) => step.each_num(lowered),
            Shift::Row(row, steps) => {
                lowered(row);
                steps.iter_mut().for_each(|s| s.each_num(lowered));
            }
            Shift::Choose {
                a,
                b,
                then,
                otherwise,
                ..
            } => {
                lowered(a);
                lowered(b);
                lower_shifts(then, lowered);
                lower_shifts(otherwise, lowered);
            }
        }
    }
}

/// The cells the writes change, as a mask over the key, and the letters
/// they put there.
#[derive(Default)]
struct Put {
    changed: u64,
    letters: u64,
}

impl Machine {
    /// The cells a `Shifting`'s writes change at the variable's value
    /// `lo`, as a mask over the key, and the letters they put there, if
    /// every step holds at `lo` and at `lo + span` (so at every value
    /// between, each place and each bound number moving one for one, up
    /// from `lo`) and each write edits its own row in place; `None`
    /// otherwise, and the loop then runs value by value.
    pub(in crate::eval::compact) fn shifted_letters(
        &mut self,
        s: &Shifting,
        lo: i64,
        span: u32,
    ) -> Option<(u64, u64)> {
        self.regs[s.var as usize] = lo;
        let mut put = Put::default();
        self.put_writes(&s.rows, &s.writes, span, &mut put)?;
        Some((put.changed, put.letters))
    }

    fn put_writes(
        &mut self,
        rows: &Rows,
        writes: &[Shift],
        span: u32,
        put: &mut Put,
    ) -> Option<()> {
        for write in writes {
            match write {
                Shift::Bind(bind) => {
                    self.put_edits(rows, 0, std::slice::from_ref(bind), span, put)?
                }
                Shift::Row(row, steps) => {
                    let row = index(self.quick(row)?, rows.fields.len)?;
                    // A second write of a row starts from the row as the
                    // key holds it: the first write's letters there are
                    // dropped.
                    let whole = rows.fields.mask() << rows.fields.shift_of(row);
                    put.changed &= !whole;
                    put.letters &= !whole;
                    self.put_edits(rows, row, steps, span, put)?;
                }
                Shift::Choose {
                    op,
                    a,
                    b,
                    then,
                    otherwise,
                } => {
                    let side = self.side((*op, a, b), then, otherwise)?;
                    self.put_writes(rows, side, span, put)?;
                }
            }
        }
        Some(())
    }

    /// `then` if `a op b` holds, else `otherwise`.
    fn side<'s, T>(
        &mut self,
        (op, a, b): (BinaryOp, &Num, &Num),
        then: &'s T,
        otherwise: &'s T,
    ) -> Option<&'s T> {
        let holds = compare(op, self.quick(a)?, self.quick(b)?)?;
        Some(if holds { then } else { otherwise })
    }

    /// `steps`, writing row `row`, made at the variable's value `lo` into
    /// `put`, if they hold there and at `lo + span`.
    fn put_edits(
        &mut self,
        rows: &Rows,
        row: u32,
        steps: &[Edit<Num>],
        span: u32,
        put: &mut Put,
    ) -> Option<()> {
        let w = self.cell;
        for step in steps {
            match step {
                Edit::Bind { reg, value, nat } => {
                    let v = self.quick(value)?;
                    // Natural at `lo`, so all the way up; and no
                    // overflow on the way.
                    if *nat && v < 0 || v.checked_add(i64::from(span)).is_none() {
                        return None;
                    }
                    self.regs[*reg] = v;
                }
                Edit::Read(i) => {
                    (index(self.quick(i)?, rows.fields.len)? == row).then_some(())?;
                }
                Edit::Letter { at, code } => {
                    let place = index(self.quick(at)?, rows.cols)?;
                    index(i64::from(place + span), rows.cols)?;
                    let shift = rows.fields.shift_of(row) + place * w;
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
                    let side = self.side((*op, a, b), then, otherwise)?;
                    self.put_edits(rows, row, side, span, put)?;
                }
            }
        }
        Some(())
    }
}
