//! A row of a grid written back as a row of the key with some of its
//! letters changed: `set_at(g, r, set_at(set_at(g[r], c, "#"), c + 1,
//! "#"))`, and any nesting of `set_at` with a letter written out on a row
//! read off the key, through helpers' arguments. What such a write means
//! is a few letters put at places in one field of the key, so it runs as
//! masked writes on the row's word: no string is made, and no closure is
//! called for each `set_at`, each helper's argument and the row read.
//!
//! A row read off a grid some of whose rows were just written is, in the
//! compiled code, a choice on the row's index (`if i == r then <row r as
//! written> else g[i]`); when both sides are edited rows, the choice is
//! made on the numbers at run time and the side taken runs as masked
//! writes too.
//!
//! The steps keep every test the string operations make (each index in
//! its row, each helper's natural-number argument at least 0); where one
//! fails the whole position goes to the general search, as it would from
//! the string operations, so the order in which they are made does not
//! matter.

use super::code::{Bind, Num, Rows, Text, Truth};
use super::leaves::{index, Operand};
use super::run::{low_bits, put, Machine};
use crate::eval::arith::compare;
use crate::syntax::ast::BinaryOp;

mod settled;
mod shifting;
pub use shifting::{shifting, Put, Shifting};

/// One step of an edited row, in the order the code makes them; or, in
/// the writes of a move that edits rows (see `shifting`), a row written.
#[derive(Debug)]
pub enum Edit<N> {
    /// A helper's number argument put in its register (checked to be at
    /// least 0 when the flag is set).
    Bind { reg: usize, value: N, nat: bool },
    /// The row at this index read off the key: what the letters change.
    Read(N),
    /// The letter with this code put at this place of the row.
    Letter { at: N, code: u64 },
    /// The steps of `then` when `a op b` holds, else those of
    /// `otherwise`: each side reads its row once.
    Choose {
        op: BinaryOp,
        a: N,
        b: N,
        then: Vec<Edit<N>>,
        otherwise: Vec<Edit<N>>,
    },
    /// The row at this index set to what the steps make of it.
    Row(N, Vec<Edit<N>>),
}

impl<N> Edit<N> {
    /// The step with its numbers made into `M`s.
    pub fn map<M>(self, mut f: impl FnMut(N) -> M) -> Edit<M> {
        self.map_with(&mut f)
    }

    fn map_with<M>(self, f: &mut impl FnMut(N) -> M) -> Edit<M> {
        match self {
            Edit::Bind { reg, value, nat } => Edit::Bind {
                reg,
                value: f(value),
                nat,
            },
            Edit::Read(i) => Edit::Read(f(i)),
            Edit::Letter { at, code } => Edit::Letter { at: f(at), code },
            Edit::Choose {
                op,
                a,
                b,
                then,
                otherwise,
            } => Edit::Choose {
                op,
                a: f(a),
                b: f(b),
                then: then.into_iter().map(|s| s.map_with(f)).collect(),
                otherwise: otherwise.into_iter().map(|s| s.map_with(f)).collect(),
            },
            Edit::Row(row, steps) => {
                Edit::Row(f(row), steps.into_iter().map(|s| s.map_with(f)).collect())
            }
        }
    }

    /// Every number of the step, in its branches too.
    fn each_num(&mut self, f: &mut impl FnMut(&mut N)) {
        match self {
            Edit::Bind { value: n, .. } | Edit::Read(n) | Edit::Letter { at: n, .. } => f(n),
            Edit::Choose {
                a,
                b,
                then,
                otherwise,
                ..
            } => {
                f(a);
                f(b);
                then.iter_mut()
                    .chain(otherwise.iter_mut())
                    .for_each(|s| s.each_num(f));
            }
            Edit::Row(row, steps) => {
                f(row);
                steps.iter_mut().for_each(|s| s.each_num(f));
            }
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
    (reads(&steps)? == 1).then_some(steps)
}

/// How many rows `steps` read, whichever sides they take, if that is the
/// same on every side; `None` too when a letter comes before the read
/// (the read would drop it).
fn reads(steps: &[Edit<Num>]) -> Option<usize> {
    let mut made = 0;
    for step in steps {
        match step {
            Edit::Bind { .. } => {}
            Edit::Read(_) => made += 1,
            Edit::Letter { .. } => (made > 0).then_some(())?,
            Edit::Choose {
                then, otherwise, ..
            } => {
                let n = reads(then)?;
                (n == reads(otherwise)?).then_some(())?;
                made += n;
            }
            Edit::Row(..) => return None,
        }
    }
    Some(made)
}

/// A string register bound by a helper, its steps, and how often the
/// helper's body used it.
type Bound = (u32, Vec<Edit<Num>>, usize);

fn steps(t: &Text, rows: &Rows, bound: &mut Vec<Bound>) -> Option<Vec<Edit<Num>>> {
    match t {
        Text::Row(f, cols, i) if *f == rows.fields && *cols == rows.cols => {
            Some(vec![Edit::Read(i.copy()?)])
        }
        Text::SetAt(t, at, letter) => {
            let Text::Lit(Some((code, 1))) = **letter else {
                return None;
            };
            let mut made = steps(t, rows, bound)?;
            made.push(Edit::Letter {
                at: at.copy()?,
                code,
            });
            Some(made)
        }
        Text::Reg(r) => {
            let (_, made, uses) = bound.iter_mut().rev().find(|(reg, ..)| reg == r)?;
            *uses += 1;
            // Its steps are wanted where it is used once only (see
            // `Bind::Text`): taken there, not copied.
            Some(std::mem::take(made))
        }
        Text::Let(bind, body) => match &**bind {
            Bind::Num { reg, value, nat } => {
                let mut made = vec![Edit::Bind {
                    reg: *reg as usize,
                    value: value.copy()?,
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
            Bind::Letter { .. } | Bind::List(_) => None,
        },
        Text::If(test, then, otherwise) => {
            let (op, a, b) = match &**test {
                Truth::Compare(op, a, b) => {
                    compare(*op, 0, 0)?;
                    (*op, a.copy()?, b.copy()?)
                }
                // Any other test of numbers (a helper's `r < 0 or r >=
                // len(g)`), as a number that is 1 where it holds.
                test => {
                    let holds = Num::If(
                        Box::new(test.copy()?),
                        Box::new(Num::Lit(1)),
                        Box::new(Num::Lit(0)),
                    );
                    (BinaryOp::Eq, holds, Num::Lit(1))
                }
            };
            Some(vec![Edit::Choose {
                op,
                a,
                b,
                then: steps(then, rows, bound)?,
                otherwise: steps(otherwise, rows, bound)?,
            }])
        }
        _ => None,
    }
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
    let word = edit(m, rows, steps, w, 0)?;
    put(k, &rows.fields, row, word as i64)
}

/// `word` with `steps` made on it.
fn edit(
    m: &mut Machine,
    rows: &Rows,
    steps: &[Edit<Operand>],
    w: u32,
    mut word: u64,
) -> Option<u64> {
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
            Edit::Choose {
                op,
                a,
                b,
                then,
                otherwise,
            } => {
                let side = if compare(*op, a.get(m)?, b.get(m)?)? {
                    then
                } else {
                    otherwise
                };
                word = edit(m, rows, side, w, word)?;
            }
            // Not a step of one row's edits (see `edited`).
            Edit::Row(..) => return None,
        }
    }
    Some(word)
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const CRAM: &str = include_str!("../../../bench/games/cram.game");
    const CELLS: &str = include_str!("../../../bench/games/search-rewrites/cram-cells.game");
    const SLICE: &str = include_str!("../../../bench/games/search-rewrites/cram-slice.game");
    const ONE_RULE: &str = include_str!("../../../bench/games/search-rewrites/cram-one-rule.game");
    const DOMINO: &str = include_str!("../../../bench/games/search-rewrites/cram-domino.game");
    const GUIDE: &str = include_str!("../../../bench/games/search-rewrites/cram-guide.game");
    /// A row read after another row of the grid was written: the same row
    /// (`again`), the row below (`next`), or a row past the end, which
    /// gives the position up on either side of the choice (`off`).
    const REREAD: &str = r##"
        fn cover(g: grid, r: nat, c: nat) = set_at(g, r, set_at(g[r], c, "#"));
        game Board(g: grid) {
          move again(r in indices(g), c in 0..len(g[r]) - 1) if g[r][c] == "."
            => Board(cover(cover(g, r, c), r, c + 1));
          move next(r in 0..len(g) - 1, c in indices(g[r])) if g[r][c] == "."
            => Board(cover(cover(g, r, c), r + 1, c));
          move off(r in indices(g), c in indices(g[r])) if g[r][c] == "o"
            => Board(cover(cover(g, r, c), r + 1, c));
        }
    "##;
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
        for text in [ONE_RULE, DOMINO, GUIDE] {
            assert_eq!(same_options(text, r#"Cram(["...", "...", "..."])"#), 98);
        }
        assert!(same_options(REREAD, r#"Board(["...", "...", "..."])"#) > 10);
        for board in [
            r#"Board(["o..", "...", "..."])"#,
            r#"Board(["...", "...", ".o."])"#,
        ] {
            assert!(same_options(REREAD, board) >= 1, "{board}");
        }
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

    /// `cover(cover(g, r, c), r2, c2)` with `cover(g, r, c) = set_at(g, r,
    /// set_at(g[r], c, "#"))`, as the compiler writes row `r2`: row `r2`
    /// of the grid the first cover made, a choice on `r2 == r`, with
    /// `#` put at `c2`. It runs as letters put on the key.
    #[test]
    fn a_row_read_after_a_write_is_letters_put_on_the_key() {
        use super::super::code::{Num, Rows, Text, Truth};
        use super::super::layout::Fields;
        use super::{edited, Edit};
        use crate::syntax::ast::BinaryOp;
        let fields = Fields {
            first: 0,
            len: 3,
            width: 3,
            shift: 0,
            bias: 0,
        };
        let rows = Rows {
            fields,
            cols: 3,
            numbered: false,
        };
        let row = |r: u32| Text::Row(fields, 3, Box::new(Num::Reg(r)));
        let hash = || Box::new(Text::Lit(Some((0, 1))));
        let covered = |t: Text, c: u32| Text::SetAt(Box::new(t), Box::new(Num::Reg(c)), hash());
        let compare = |op, a: u32, b: u32| Box::new(Truth::Compare(op, Num::Reg(a), Num::Reg(b)));
        let reread = Text::If(
            compare(BinaryOp::Eq, 8, 9),
            Box::new(Text::If(
                Box::new(Truth::Compare(BinaryOp::Lt, Num::Reg(9), Num::Lit(3))),
                Box::new(covered(row(4), 5)),
                Box::new(row(9)),
            )),
            Box::new(row(8)),
        );
        let steps = edited(&covered(reread, 7), &rows).expect("an edited row");
        assert!(matches!(
            steps[..],
            [Edit::Choose { .. }, Edit::Letter { .. }]
        ));
        // A choice whose sides read different numbers of rows is not one.
        let uneven = Text::If(
            compare(BinaryOp::Eq, 8, 9),
            Box::new(covered(row(4), 5)),
            hash(),
        );
        assert!(edited(&uneven, &rows).is_none());
    }

    #[test]
    fn dominoes_laid_along_a_loop_are_letters_moving_with_it() {
        assert_eq!(shifting(CRAM, r#"Cram(["...", "..."])"#), 2);
        // A cell covered on a board whose other cell was just covered:
        // the row read again is a choice on row numbers the loop does
        // not change. Each direction is a rule of its own.
        assert_eq!(shifting(ONE_RULE, r#"Cram(["...", "..."])"#), 2);
        assert_eq!(shifting(DOMINO, r#"Cram(["...", "..."])"#), 2);
        assert_eq!(shifting(GUIDE, r#"Cram(["...", "..."])"#), 2);
        // Rows edited from another row or twice are recognised as such
        // too, and turned down at run time (see the test above).
        assert_eq!(shifting(EDITS, r#"Board(["..", ".."])"#), 5);
    }
}
