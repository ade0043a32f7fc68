//! A row of a grid written back as a row of the key with some of its
//! letters changed: `set_at(g, r, set_at(set_at(g[r], c, "#"), c + 1,
//! "#"))`, and any nesting of `set_at` with a letter written out on a row
//! read off the key, through helpers' arguments. What such a write means
//! is a few letters put at places in one field of the key, so it runs as
//! masked writes on the row's word: no string is made, and no closure is
//! called for each `set_at`, each helper's argument and the row read.
//!
//! The steps keep every test the string operations make (each index in
//! its row, each helper's natural-number argument at least 0); where one
//! fails the whole position goes to the general search, as it would from
//! the string operations, so the order in which they are made does not
//! matter.

use super::code::{Bind, Num, Rows, Text, Write};
use super::leaves::{index, Operand};
use super::run::{low_bits, put, Machine};
use super::sieve::copy;
use crate::syntax::ast::BinaryOp;

/// One step of an edited row, in the order the code makes them.
#[derive(Debug)]
pub enum Edit<N> {
    /// A helper's number argument put in its register (checked to be at
    /// least 0 when the flag is set).
    Bind { reg: usize, value: N, nat: bool },
    /// The row at this index read off the key: what the letters change.
    Read(N),
    /// The letter with this code put at this place of the row.
    Letter { at: N, code: u64 },
}

impl<N> Edit<N> {
    /// The step with its numbers made into `M`s.
    pub fn map<M>(self, mut f: impl FnMut(N) -> M) -> Edit<M> {
        match self {
            Edit::Bind { reg, value, nat } => Edit::Bind {
                reg,
                value: f(value),
                nat,
            },
            Edit::Read(i) => Edit::Read(f(i)),
            Edit::Letter { at, code } => Edit::Letter { at: f(at), code },
        }
    }
}

/// The steps of `t`, a row of `rows` with letters put at places, if it is
/// one: exactly one row read, first among the reads and letters.
pub fn edited(t: &Text, rows: &Rows) -> Option<Vec<Edit<Num>>> {
    if rows.numbered {
        return None;
    }
    let steps = steps(t, rows, &mut Vec::new())?;
    let mut reads = steps.iter().filter_map(|s| match s {
        Edit::Read(_) => Some(()),
        _ => None,
    });
    (reads.next().is_some() && reads.next().is_none()).then_some(steps)
}

/// A string register bound by a helper, its steps, and how often the
/// helper's body used it.
type Bound = (u32, Vec<Edit<Num>>, usize);

fn steps(t: &Text, rows: &Rows, bound: &mut Vec<Bound>) -> Option<Vec<Edit<Num>>> {
    match t {
        Text::Row(f, cols, i) if *f == rows.fields && *cols == rows.cols => {
            Some(vec![Edit::Read(copy(i)?)])
        }
        Text::SetAt(t, at, letter) => {
            let Text::Lit(Some((code, 1))) = **letter else {
                return None;
            };
            let mut made = steps(t, rows, bound)?;
            made.push(Edit::Letter {
                at: copy(at)?,
                code,
            });
            Some(made)
        }
        Text::Reg(r) => {
            let (_, made, uses) = bound.iter_mut().rev().find(|(reg, ..)| reg == r)?;
            *uses += 1;
            made.iter().map(copy_edit).collect()
        }
        Text::Let(bind, body) => match &**bind {
            Bind::Num { reg, value, nat } => {
                let mut made = vec![Edit::Bind {
                    reg: *reg as usize,
                    value: copy(value)?,
                    nat: *nat,
                }];
                made.extend(steps(body, rows, bound)?);
                Some(made)
            }
            // Used once, the string's steps are made where it is used; a
            // string bound and never used would still have its tests made.
            Bind::Text { reg, value } => {
                let value = steps(value, rows, bound)?;
                bound.push((*reg, value, 0));
                let made = steps(body, rows, bound);
                let (_, _, uses) = bound.pop()?;
                made.filter(|_| uses == 1)
            }
            Bind::Letter { .. } => None,
        },
        _ => None,
    }
}

fn copy_edit(e: &Edit<Num>) -> Option<Edit<Num>> {
    Some(match e {
        Edit::Bind { reg, value, nat } => Edit::Bind {
            reg: *reg,
            value: copy(value)?,
            nat: *nat,
        },
        Edit::Read(i) => Edit::Read(copy(i)?),
        Edit::Letter { at, code } => Edit::Letter {
            at: copy(at)?,
            code: *code,
        },
    })
}

/// `k` with row `row` of `rows` set to what `steps` make: the key's row
/// they read with their letters put in, `w` bits a letter.
#[inline(always)]
pub fn written(
    m: &mut Machine,
    k: u64,
    rows: &Rows,
    row: &Operand,
    steps: &[Edit<Operand>],
    w: u32,
) -> Option<u64> {
    let row = index(row.get(m)?, rows.fields.len)?;
    let mut word = 0u64;
    for step in steps {
        match step {
            Edit::Bind { reg, value, nat } => {
                let v = value.get(m)?;
                if *nat && v < 0 {
                    return None;
                }
                m.regs[*reg] = v;
            }
            Edit::Read(i) => {
                let i = index(i.get(m)?, rows.fields.len)?;
                word = m.regs[(rows.fields.first + i) as usize] as u64;
            }
            Edit::Letter { at, code } => {
                let shift = index(at.get(m)?, rows.cols)? * w;
                word = word & !(low_bits(w) << shift) | code << shift;
            }
        }
    }
    put(k, &rows.fields, row, word as i64)
}

/// A move whose writes each edit a row in place (the row written is the
/// row read), at places that are the innermost loop's variable plus an
/// amount the loop does not change, the rows and letters the same for
/// every value: the option at value `c` is the key with the same letters
/// put at places `c - lo` cells further on than at value `lo`. The keys
/// of a loop's values are then one mask and one shift each.
#[derive(Debug)]
pub struct Shifting {
    var: u32,
    rows: Rows,
    /// Each write's row index and steps.
    writes: Vec<(Num, Vec<Edit<Num>>)>,
}

/// How a number moves with the loop's variable.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Moves {
    /// Not at all.
    Steady,
    /// One for one: the variable plus a steady amount.
    Along,
}

/// `writes` as a `Shifting` for the loop over register `var`, if they are
/// one.
pub fn shifting(writes: &[Write], var: u32) -> Option<Shifting> {
    let mut rows = None;
    // Registers bound to the variable plus an amount.
    let mut along = vec![var];
    let mut edited_writes = Vec::new();
    for write in writes {
        let Write::Row(r, row, t) = write else {
            return None;
        };
        if *rows.get_or_insert(*r) != *r {
            return None;
        }
        (moves(row, &along)? == Moves::Steady).then_some(())?;
        let steps = edited(t, r)?;
        for step in &steps {
            match step {
                Edit::Bind { reg, value, .. } => {
                    let reg = *reg as u32;
                    along.retain(|&a| a != reg);
                    if moves(value, &along)? == Moves::Along {
                        along.push(reg);
                    }
                }
                Edit::Read(i) => (moves(i, &along)? == Moves::Steady).then_some(())?,
                Edit::Letter { at, .. } => (moves(at, &along)? == Moves::Along).then_some(())?,
            }
        }
        edited_writes.push((copy(row)?, steps));
    }
    Some(Shifting {
        var,
        rows: rows?,
        writes: edited_writes,
    })
}

/// How `n` moves with the variable (registers `along` move one for one),
/// if it is steady or moves one for one.
fn moves(n: &Num, along: &[u32]) -> Option<Moves> {
    use Moves::{Along, Steady};
    let both = |a: &Num, b: &Num| Some((moves(a, along)?, moves(b, along)?));
    match n {
        Num::Lit(_) => Some(Steady),
        Num::Reg(r) if along.contains(r) => Some(Along),
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
        Num::Neg(a) => (moves(a, along)? == Steady).then_some(Steady),
        Num::Field(_, i) | Num::TupleAt(_, i) => (moves(i, along)? == Steady).then_some(Steady),
        _ => None,
    }
}

impl Shifting {
    /// Every number made into what runs fastest (see `closure`).
    pub fn lower(&mut self, mut lowered: impl FnMut(&mut Num)) {
        for (row, steps) in &mut self.writes {
            lowered(row);
            for step in steps {
                match step {
                    Edit::Bind { value: n, .. } | Edit::Read(n) | Edit::Letter { at: n, .. } => {
                        lowered(n)
                    }
                }
            }
        }
    }
}

impl Machine {
    /// The cells a `Shifting`'s writes change at the variable's value
    /// `lo`, as a mask over the key, and the letters they put there, if
    /// every step holds at `lo` and at `lo + span` (so at every value
    /// between, each place and each bound number moving one for one, up
    /// from `lo`) and each write edits its own row in place; `None`
    /// otherwise, and the loop then runs value by value.
    pub(super) fn shifted_letters(
        &mut self,
        s: &Shifting,
        lo: i64,
        span: u32,
    ) -> Option<(u64, u64)> {
        self.regs[s.var as usize] = lo;
        let (rows, w) = (&s.rows, self.cell);
        let (mut changed, mut letters, mut written) = (0u64, 0u64, 0u64);
        for (row, steps) in &s.writes {
            let row = index(self.quick(row)?, rows.fields.len)?;
            // Each row once: a second write of a row starts from the row
            // as the key holds it, not from the first write's letters.
            if written & 1 << row != 0 {
                return None;
            }
            written |= 1 << row;
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
                        changed |= cell;
                        letters = letters & !cell | code << shift;
                    }
                }
            }
        }
        Some((changed, letters))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const CRAM: &str = include_str!("../../../bench/games/cram.game");
    const CELLS: &str = include_str!("../../../bench/games/search-rewrites/cram-cells.game");
    const SLICE: &str = include_str!("../../../bench/games/search-rewrites/cram-slice.game");
    /// Rows edited in the ways the masks must keep apart: a row read and
    /// another written (`drop`), one row written twice, the second write
    /// winning (`twice`), a letter put past the row's end at the last
    /// column (`past`, which gives the position up), a helper's string
    /// bound and not used, whose place may be past the end (`unused`),
    /// and a helper's natural-number argument below 0 (`below`).
    const EDITS: &str = r#"
        fn mark(row: str, c: nat) = set_at(row, c, "x");
        fn skip(row: str, c: nat) = let unused = mark(row, c + 2); mark(row, c);
        game Board(g: grid) {
          move drop(r in 0..len(g) - 1, c in indices(g[r])) if g[r][c] == "."
            => Board(set_at(g, r + 1, mark(g[r], c)));
          move twice(r in indices(g), c in 0..len(g[r]) - 1) if g[r][c] == "." and g[r][c + 1] == "."
            => Board(set_at(set_at(g, r, mark(g[r], c)), r, mark(g[r], c + 1)));
          move past(r in indices(g), c in indices(g[r])) if g[r][c] == "o"
            => Board(set_at(g, r, mark(mark(g[r], c), c + 1)));
          move unused(r in indices(g), c in indices(g[r])) if g[r][c] == "u"
            => Board(set_at(g, r, skip(g[r], c)));
          move below(r in indices(g), c in indices(g[r])) if g[r][c] == "b"
            => Board(set_at(g, r, mark(g[r], c - 1)));
        }
    "#;

    /// The masked writes give every reachable board the options the
    /// string operations give, in the same order, and give up on the same
    /// boards.
    #[test]
    fn letters_put_on_the_key_give_the_options_strings_give() {
        assert_eq!(same_options(CRAM, r#"Cram(["...", "...", "..."])"#), 98);
        assert!(same_options(CRAM, r##"Cram(["#..#", "....", ".#.."])"##) > 10);
        assert_eq!(same_options(CELLS, r#"Cram(["...", "...", "..."])"#), 98);
        assert_eq!(same_options(SLICE, r#"Cram(["...", "...", "..."])"#), 98);
        assert!(same_options(EDITS, r#"Board(["..", "..", ".."])"#) > 10);
        for board in [
            r#"Board(["o.", "..", ".."])"#,
            r#"Board([".o", "..", ".."])"#,
            r#"Board(["u..", "...", "..."])"#,
            r#"Board(["..u", "...", "..."])"#,
            r#"Board([".b.", "...", "..."])"#,
            r#"Board(["b..", "...", "..."])"#,
        ] {
            assert!(same_options(EDITS, board) >= 1, "{board}");
        }
    }

    /// How many rules' innermost loops run as letters moving along.
    fn shifting(text: &str, start: &str) -> usize {
        let (game, _) = compiled(text, start, true);
        let code = &inside(&*game).code;
        code.rules
            .iter()
            .filter_map(|r| r.sieves.last()?.as_ref())
            .filter(|s| s.shifting.is_some())
            .count()
    }

    #[test]
    fn dominoes_laid_along_a_loop_are_letters_moving_with_it() {
        assert_eq!(shifting(CRAM, r#"Cram(["...", "..."])"#), 2);
        // Rows edited from another row or twice are recognised as such
        // too, and turned down at run time (see the test above).
        assert_eq!(shifting(EDITS, r#"Board(["..", ".."])"#), 5);
    }
}
