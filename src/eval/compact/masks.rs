//! Writes that the generators settle. A move that covers a cell and its
//! neighbours through a helper that leaves cells off the board alone
//! (`cover(cover(g, r, c), r - 1, c)` ...) tests the board's edges and
//! chooses between writes at every option, but what it writes depends on
//! the generators' values alone: which rows, which places, which letters,
//! never the letters the position holds there. For each value of the
//! generators the writes read, the new key is the key with some bits
//! cleared and some set, `key & keep | set`: the pairs are worked out once
//! when the game is compiled, for every value in the ranges the
//! generators walk, and each option is one look-up and two word
//! operations, however many helpers, tests and `set_at`s wrote it.
//!
//! A write is taken where everything it works out (places, rows, tests,
//! helpers' numbers, letters and values written) reads only literals, the
//! rule's generators and numbers the writes bind from those: nothing of
//! the key. A grid's row written must be the row it reads (letters put
//! in place); where at some value it reads another, or a step fails (a
//! place off the row, a value its field cannot hold), that value keeps
//! the writes as they were, which answer or give the position up as
//! before. So does a value outside the ranges worked out here.

use super::closure::Step;
use super::code::{
    Bind, Char, Element, Gen, Num, Rows, Seq, Source, Target, Text, Truth, Walk, Write,
};
use super::layout::Fields;
use super::leaves::index;
use super::letters::{edited, Edit, Put};
use super::run::{low_bits, put as put_in, Machine};

/// Values of the generators tabulated at most, for one rule.
const MAX_VALUES: usize = 1 << 12;

/// A generator's register, or an element of its tuple (`(r, c) in
/// cells(g, ".")`), and the values of it the table holds.
#[derive(Debug, Clone, Copy)]
struct Axis {
    leaf: Leaf,
    lo: i64,
    count: usize,
}

/// Where a generator's value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Leaf {
    Reg(u32),
    /// Element `.1` of tuple register `.0`.
    Item(u32, usize),
}

impl Leaf {
    #[inline(always)]
    fn get(self, m: &Machine) -> Option<i64> {
        match self {
            Leaf::Reg(r) => Some(m.regs[r as usize]),
            Leaf::Item(t, i) => m.tuples[t as usize].get(i).copied(),
        }
    }

    fn set(self, m: &mut Machine, v: i64) {
        match self {
            Leaf::Reg(r) => m.regs[r as usize] = v,
            Leaf::Item(t, i) => {
                let tuple = &mut m.tuples[t as usize];
                tuple.resize(tuple.len().max(i + 1), 0);
                tuple[i] = v;
            }
        }
    }
}

/// The pairs `(keep, set)` of a rule's writes for every value of the
/// generators they read, or `None` where a value keeps the writes.
#[derive(Debug)]
pub struct Masks {
    axes: Vec<Axis>,
    table: Box<[Option<(u64, u64)>]>,
}

impl Masks {
    /// The table's place for the generators' current values, if they are
    /// inside it.
    #[inline(always)]
    fn place(&self, m: &Machine) -> Option<usize> {
        let mut at = 0usize;
        for axis in &self.axes {
            let v = usize::try_from(axis.leaf.get(m)?.checked_sub(axis.lo)?).ok()?;
            if v >= axis.count {
                return None;
            }
            at = at * axis.count + v;
        }
        Some(at)
    }

    /// The pair for the generators' current values, if the table has one.
    #[inline(always)]
    pub fn pair(&self, m: &Machine) -> Option<(u64, u64)> {
        self.table[self.place(m)?]
    }

    /// The masks as the rule's one write, the writes as they were (already
    /// lowered) kept for the values the table does not hold.
    pub fn into_step(self, writes: Vec<Write>) -> Write {
        Write::Closure(Step::new(Box::new(move |m, k| match self.pair(m) {
            Some((keep, set)) => Some(k & keep | set),
            None => m.written_onto(k, &writes),
        })))
    }
}

/// The masks of a move's `writes`, where they read only the generators
/// `gens` (and numbers bound from them), for every value of the
/// generators that walk ranges whose ends are known when compiling. A
/// scratch machine of `regs` registers, `texts` string registers and
/// letters of `cell` bits works them out; `fields` registers hold the
/// key's fields.
pub fn recognise(
    writes: &[Write],
    gens: &[Gen],
    fields: u32,
    (regs, texts, cell): (u32, u32, u32),
) -> Option<Masks> {
    let mut reads = Reads {
        fields,
        bound: Vec::new(),
        gens: Vec::new(),
        cell: None,
    };
    reads.writes(writes)?;
    if reads.gens.is_empty() && writes.is_empty() {
        return None;
    }
    let axes = axes(gens, &reads.gens)?;
    let values = axes
        .iter()
        .try_fold(1usize, |n, a| n.checked_mul(a.count))
        .filter(|&n| n <= MAX_VALUES)?;
    let mut m = Machine::scratch(regs, texts, cell);
    let tuples = axes.iter().map(|a| match a.leaf {
        Leaf::Item(t, _) => t as usize + 1,
        Leaf::Reg(_) => 0,
    });
    m.tuples = vec![Vec::new(); tuples.max().unwrap_or(0)];
    let table = (0..values)
        .map(|at| {
            let mut rest = at;
            for axis in axes.iter().rev() {
                axis.leaf.set(&mut m, axis.lo + (rest % axis.count) as i64);
                rest /= axis.count;
            }
            let mut put = Put::default();
            m.masked_writes(writes, &mut put)?;
            Some((!put.changed, put.letters))
        })
        .collect();
    // A table where no value takes the masks is no use.
    let masks = Masks { axes, table };
    let any = masks.table.iter().any(Option::is_some);
    #[cfg(test)]
    MADE.with(|m| m.set(m.get() + usize::from(any)));
    any.then_some(masks)
}

/// The generators among `read` that walk ranges between ends known when
/// compiling, as the table's axes, in the generators' order; `None` when
/// a register read is not such a generator.
fn axes(gens: &[Gen], read: &[Leaf]) -> Option<Vec<Axis>> {
    let mut known: Vec<(Leaf, (i64, i64))> = Vec::new();
    let range = |(lo, hi, inclusive): (&Num, &Num, bool), known: &[(Leaf, (i64, i64))]| {
        let ((lo, _), (_, hi)) = (ends(lo, known)?, ends(hi, known)?);
        let hi = if inclusive { hi } else { hi.checked_sub(1)? };
        (lo <= hi).then_some((lo, hi))
    };
    for gen in gens {
        match (gen.target, &gen.source) {
            (Target::Reg(r), Source::Each(Seq::Range(lo, hi, inclusive))) => {
                if let Some(ends) = range((lo, hi, *inclusive), &known) {
                    known.push((Leaf::Reg(r), ends));
                }
            }
            (Target::Tuple(t), Source::ProductList(ranges)) => {
                for (i, (lo, hi, inclusive)) in ranges.iter().enumerate() {
                    if let Some(ends) = range((lo, hi, *inclusive), &known) {
                        known.push((Leaf::Item(t, i), ends));
                    }
                }
            }
            _ => {}
        }
    }
    // In the generators' order, a tuple's elements in theirs.
    let mut axes = Vec::new();
    for (leaf, (lo, hi)) in known {
        if !read.contains(&leaf) {
            continue;
        }
        let count = usize::try_from(hi.checked_sub(lo)?.checked_add(1)?).ok()?;
        axes.push(Axis { leaf, lo, count });
    }
    (axes.len() == read.len()).then_some(axes)
}

/// The least and greatest value `n` takes, where the compiled code fixes
/// them: literals, the length of a grid's row (the layout fixes it),
/// earlier generators' registers, sums and differences.
fn ends(n: &Num, known: &[(Leaf, (i64, i64))]) -> Option<(i64, i64)> {
    use crate::syntax::ast::BinaryOp;
    match n {
        Num::Lit(v) => Some((*v, *v)),
        Num::TextLen(t) => match &**t {
            Text::Row(_, cols, _) => Some((i64::from(*cols), i64::from(*cols))),
            _ => None,
        },
        Num::Reg(r) => known
            .iter()
            .find(|(k, _)| *k == Leaf::Reg(*r))
            .map(|(_, e)| *e),
        Num::Binary(BinaryOp::Add, a, b) => {
            let ((alo, ahi), (blo, bhi)) = (ends(a, known)?, ends(b, known)?);
            Some((alo.checked_add(blo)?, ahi.checked_add(bhi)?))
        }
        Num::Binary(BinaryOp::Sub, a, b) => {
            let ((alo, ahi), (blo, bhi)) = (ends(a, known)?, ends(b, known)?);
            Some((alo.checked_sub(bhi)?, ahi.checked_sub(blo)?))
        }
        // Either side (`if len(g) == 0 then 0 else len(g[0])`): the table
        // may hold values a generator never takes.
        Num::If(_, a, b) => {
            let ((alo, ahi), (blo, bhi)) = (ends(a, known)?, ends(b, known)?);
            Some((alo.min(blo), ahi.max(bhi)))
        }
        Num::Let(_, body) => ends(body, known),
        _ => None,
    }
}

/// What the writes read, checked to be nothing of the key.
struct Reads {
    /// Registers below this hold the key's fields.
    fields: u32,
    /// Registers the writes bind before reading them.
    bound: Vec<u32>,
    /// Other registers (and tuples' elements) read: the generators'.
    gens: Vec<Leaf>,
    /// Where a grid is made whole, cell by cell: the grid and the
    /// registers of its row and column, whose cell may be read.
    cell: Option<(Rows, u32, u32)>,
}

impl Reads {
    fn reg(&mut self, r: u32) -> Option<()> {
        if r < self.fields {
            return None;
        }
        if !self.bound.contains(&r) {
            self.leaf(Leaf::Reg(r));
        }
        Some(())
    }

    fn leaf(&mut self, leaf: Leaf) {
        if !self.gens.contains(&leaf) {
            self.gens.push(leaf);
        }
    }

    /// `check` with what it binds forgotten after it: a helper's
    /// argument is read in the helper's body, a branch's binds on that
    /// branch.
    fn scoped(&mut self, check: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let before = self.bound.len();
        let checked = check(self);
        self.bound.truncate(before);
        checked
    }

    fn bind(&mut self, reg: u32, value: &Num) -> Option<()> {
        self.num(value)?;
        self.bound.push(reg);
        Some(())
    }

    fn num(&mut self, n: &Num) -> Option<()> {
        match n {
            Num::Lit(_) => Some(()),
            Num::Reg(r) => self.reg(*r),
            Num::Item(_, i) | Num::Neg(i) | Num::Abs(i) => self.num(i),
            Num::Binary(_, a, b) => {
                self.num(a)?;
                self.num(b)
            }
            Num::Min(xs) | Num::Max(xs) => xs.iter().try_for_each(|x| self.num(x)),
            // A grid's row is as long as the layout makes it, whatever
            // letters it holds.
            Num::TextLen(t) => match &**t {
                Text::Row(_, _, i) => self.num(i),
                _ => None,
            },
            Num::If(t, a, b) => {
                self.truth(t)?;
                self.num(a)?;
                self.num(b)
            }
            Num::Let(bind, body) => self.scoped(|reads| {
                reads.bound_value(bind)?;
                reads.num(body)
            }),
            Num::TupleAt(t, i) => match **i {
                Num::Lit(i) => {
                    self.leaf(Leaf::Item(*t, usize::try_from(i).ok()?));
                    Some(())
                }
                _ => None,
            },
            Num::Code(c) => self.char(c),
            _ => None,
        }
    }

    /// A walk over a range, its variable bound for `each`.
    fn walk(&mut self, walk: &Walk, each: impl FnOnce(&mut Self) -> Option<()>) -> Option<()> {
        let Seq::Range(lo, hi, _) = &walk.over else {
            return None;
        };
        self.num(lo)?;
        self.num(hi)?;
        self.scoped(|reads| {
            reads.bound.push(walk.var);
            if let Some(guard) = &walk.guard {
                reads.truth(guard)?;
            }
            each(reads)
        })
    }

    /// A grid's new rows, each worked out from its row number alone and
    /// the row's own cells.
    fn made_rows(&mut self, fields: &Fields, walk: &Walk, element: &Element) -> Option<()> {
        let Element::Row(rows, text) = element else {
            return None;
        };
        (rows.fields == *fields && !rows.numbered && walk.guard.is_none()).then_some(())?;
        self.walk(walk, |reads| match text {
            Text::Joined(made) => {
                made.walk.guard.is_none().then_some(())?;
                reads.walk(&made.walk, |reads| {
                    let outer = reads.cell.replace((*rows, walk.var, made.walk.var));
                    let read = reads.num(&made.element);
                    reads.cell = outer;
                    read
                })
            }
            _ => reads.edits(&edited(text, rows)?),
        })
    }

    fn bound_value(&mut self, bind: &Bind) -> Option<()> {
        match bind {
            Bind::Num { reg, value, .. } => self.bind(*reg, value),
            _ => None,
        }
    }

    fn truth(&mut self, t: &Truth) -> Option<()> {
        match t {
            Truth::Lit(_) => Some(()),
            Truth::Not(a) => self.truth(a),
            Truth::And(a, b) | Truth::Or(a, b) => {
                self.truth(a)?;
                self.truth(b)
            }
            Truth::Compare(_, a, b) => {
                self.num(a)?;
                self.num(b)
            }
            Truth::In(_, n, _) => self.num(n),
            Truth::Each { walk, element, .. } => self.walk(walk, |reads| reads.truth(element)),
            Truth::Let(bind, body) => self.scoped(|reads| {
                reads.bound_value(bind)?;
                reads.truth(body)
            }),
            _ => None,
        }
    }

    fn char(&mut self, c: &Char) -> Option<()> {
        match c {
            Char::Code(_) => Some(()),
            // The cell being made, as the key holds it.
            Char::GridCell(rows, r, c) => match (&**r, &**c) {
                (Num::Reg(r), Num::Reg(c)) => (self.cell == Some((*rows, *r, *c))).then_some(()),
                _ => None,
            },
            Char::Let(bind, body) => self.scoped(|reads| {
                reads.bound_value(bind)?;
                reads.char(body)
            }),
            Char::If(t, a, b) => {
                self.truth(t)?;
                self.char(a)?;
                self.char(b)
            }
            _ => None,
        }
    }

    fn edits(&mut self, steps: &[Edit<Num>]) -> Option<()> {
        for step in steps {
            match step {
                Edit::Bind { reg, value, .. } => self.bind(*reg as u32, value)?,
                Edit::Read(i) | Edit::Letter { at: i, .. } => self.num(i)?,
                Edit::Choose {
                    a,
                    b,
                    then,
                    otherwise,
                    ..
                } => {
                    self.num(a)?;
                    self.num(b)?;
                    self.scoped(|reads| reads.edits(then))?;
                    self.scoped(|reads| reads.edits(otherwise))?;
                }
                Edit::Row(i, steps) => {
                    self.num(i)?;
                    self.edits(steps)?;
                }
            }
        }
        Some(())
    }

    fn writes(&mut self, writes: &[Write]) -> Option<()> {
        for write in writes {
            match write {
                Write::Bind(bind) => self.bound_value(bind)?,
                Write::Choose {
                    test,
                    then,
                    otherwise,
                } => {
                    self.truth(test)?;
                    self.scoped(|reads| reads.writes(then))?;
                    self.scoped(|reads| reads.writes(otherwise))?;
                }
                Write::Row(rows, i, t) => {
                    self.num(i)?;
                    self.edits(&edited(t, rows)?)?;
                }
                Write::Cell(_, i, c) => {
                    self.num(i)?;
                    self.char(c)?;
                }
                Write::Element(_, i, n) => {
                    self.num(i)?;
                    self.num(n)?;
                }
                Write::Scalar(_, n) => self.num(n)?,
                Write::Comprehension {
                    fields,
                    walk,
                    element,
                } => self.made_rows(fields, walk, element)?,
                _ => return None,
            }
        }
        Some(())
    }
}

/// Field `i` of `f` set to `v` in `put`, a later write of it winning.
fn put_field(put: &mut Put, f: &Fields, i: u32, v: i64) -> Option<()> {
    put.changed |= f.mask() << f.shift_of(i);
    put.letters = put_in(put.letters, f, i, v)?;
    Some(())
}

impl Machine {
    /// `writes` made at the generators' current values into `put`, if
    /// each step holds and each row written is the row read.
    fn masked_writes(&mut self, writes: &[Write], put: &mut Put) -> Option<()> {
        for write in writes {
            match write {
                Write::Bind(bind) => self.bind(bind)?,
                Write::Choose {
                    test,
                    then,
                    otherwise,
                } => {
                    let side = if self.truth(test)? { then } else { otherwise };
                    self.masked_writes(side, put)?;
                }
                Write::Row(rows, i, t) => {
                    let row = index(self.num(i)?, rows.fields.len)?;
                    // A row written again starts from the row as the key
                    // holds it: letters put there before are dropped.
                    let whole = rows.fields.mask() << rows.fields.shift_of(row);
                    put.changed &= !whole;
                    put.letters &= !whole;
                    self.put_edits(rows, Some(row), &edited(t, rows)?, (0, 0), put)?;
                }
                Write::Cell(f, i, c) => {
                    let i = index(self.num(i)?, f.len)?;
                    let v = self.char(c)?;
                    put_field(put, f, i, v)?;
                }
                Write::Element(f, i, n) => {
                    let i = index(self.num(i)?, f.len)?;
                    let v = self.num(n)?;
                    put_field(put, f, i, v)?;
                }
                Write::Scalar(f, n) => {
                    let v = self.num(n)?;
                    put_field(put, f, 0, v)?;
                }
                Write::Comprehension {
                    walk,
                    element: Element::Row(rows, text),
                    ..
                } => self.masked_rows(rows, walk, text, put)?,
                _ => return None,
            }
        }
        Some(())
    }

    /// The values of a range walked, in order.
    fn range_of(&mut self, walk: &Walk) -> Option<std::ops::Range<i64>> {
        let Seq::Range(lo, hi, inclusive) = &walk.over else {
            return None;
        };
        let (lo, hi) = (self.num(lo)?, self.num(hi)?);
        Some(lo..if *inclusive { hi.checked_add(1)? } else { hi })
    }

    /// A grid's rows made whole (see `Reads::made_rows`) into `put`: as
    /// many rows as the grid has, each as long as its rows.
    fn masked_rows(&mut self, rows: &Rows, walk: &Walk, text: &Text, put: &mut Put) -> Option<()> {
        let w = self.cell;
        let mut row = 0u32;
        for i in self.range_of(walk)? {
            (row < rows.fields.len).then_some(())?;
            self.regs[walk.var as usize] = i;
            let whole = rows.fields.mask() << rows.fields.shift_of(row);
            put.changed &= !whole;
            put.letters &= !whole;
            match text {
                Text::Joined(made) => {
                    let mut col = 0u32;
                    for j in self.range_of(&made.walk)? {
                        (col < rows.cols).then_some(())?;
                        self.regs[made.walk.var as usize] = j;
                        // The cell read is the cell made (`Reads::char`):
                        // only where it is at its own place is it kept.
                        let at = (index(i, rows.fields.len)?, index(j, rows.cols)?);
                        let kept = at == (row, col);
                        if let Some(code) = self.made_cell(&made.element, kept)? {
                            (code >= 0 && code >> w == 0).then_some(())?;
                            let shift = rows.fields.shift_of(row) + col * w;
                            put.changed |= low_bits(w) << shift;
                            put.letters |= (code as u64) << shift;
                        }
                        col += 1;
                    }
                    (col == rows.cols).then_some(())?;
                }
                _ => self.put_edits(rows, Some(row), &edited(text, rows)?, (0, 0), put)?,
            }
            row += 1;
        }
        (row == rows.fields.len).then_some(())
    }

    /// The letter a cell of a grid made whole takes: `None` for the cell
    /// as the key holds it, where `kept` says that is its own.
    fn made_cell(&mut self, n: &Num, kept: bool) -> Option<Option<i64>> {
        match n {
            Num::If(t, a, b) => {
                let side = if self.truth(t)? { a } else { b };
                self.made_cell(side, kept)
            }
            Num::Let(bind, body) => {
                self.bind(bind)?;
                self.made_cell(body, kept)
            }
            Num::Code(c) => self.made_letter(c, kept),
            n => Some(Some(self.num(n)?)),
        }
    }

    fn made_letter(&mut self, c: &Char, kept: bool) -> Option<Option<i64>> {
        match c {
            Char::GridCell(..) => kept.then_some(None),
            Char::If(t, a, b) => {
                let side = if self.truth(t)? { a } else { b };
                self.made_letter(side, kept)
            }
            Char::Let(bind, body) => {
                self.bind(bind)?;
                self.made_letter(body, kept)
            }
            c => Some(Some(self.char(c)?)),
        }
    }
}

#[cfg(test)]
thread_local! {
    /// How many rules' writes took masks, for the tests to see.
    static MADE: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, same_options};
    use super::MADE;

    const NODE_KAYLES: &str = include_str!("../../../bench/games/node-kayles.game");
    const CRAM: &str = include_str!("../../../bench/games/cram.game");
    const ONE_RULE: &str = include_str!("../../../bench/games/search-rewrites/cram-one-rule.game");
    /// Node Kayles as strangers write it: a helper for each neighbour,
    /// the board made whole from a distance test on the cells, and from
    /// steps in a constant list.
    const FORMS: [&str; 3] = [
        include_str!("../../../tests/unseen_games/nkhelpers.game"),
        include_str!("../../../tests/unseen_games/nknear.game"),
        include_str!("../../../tests/unseen_games/nksteps.game"),
    ];

    /// How many rules of `text` take masks, compiled for `start`.
    fn masked(text: &str, start: &str) -> usize {
        MADE.with(|m| m.set(0));
        compiled(text, start, true);
        MADE.with(std::cell::Cell::get)
    }

    /// Look-alikes whose writes read the position, or whose rows move:
    /// a helper that covers a cell only where it is free (`free`), a row
    /// copied onto the next (`copy`), a letter read off the board
    /// (`read`), and a cell past the row's end at the last column
    /// (`past`, which gives the position up), and a board made whole
    /// from the cells of another row (`flip`).
    const LOOKALIKES: &str = r##"
        fn cover(g: grid, r: int, c: int) =
          if r < 0 or r >= len(g) or c < 0 or c >= len(g[0]) then g
          else set_at(g, r, set_at(g[r], c, "#"));
        fn take(g: grid, r: int, c: int) =
          if r < 0 or r >= len(g) or c < 0 or c >= len(g[0]) or g[r][c] == "#" then g
          else set_at(g, r, set_at(g[r], c, "x"));
        game B(g: grid) {
          move free(r in indices(g), c in indices(g[r])) if g[r][c] == "." =>
            B(take(take(cover(g, r, c), r - 1, c), r + 1, c));
          move copy(r in indices(g), c in indices(g[r])) if g[r][c] == "c" =>
            B(cover(if r + 1 < len(g) then set_at(g, r + 1, g[r]) else g, r, c));
          move read(r in indices(g), c in 0..len(g[r]) - 1) if g[r][c] == "r" =>
            B(set_at(g, r, set_at(g[r], c, g[r][c + 1])));
          move past(r in indices(g), c in indices(g[r])) if g[r][c] == "p" =>
            B(set_at(cover(g, r, c), r, set_at(g[r], c + 1, "#")));
          move flip(r in indices(g), c in indices(g[r])) if g[r][c] == "f" =>
            B([join([if i == r and j == c then "#" else g[len(g) - 1 - i][j]
                      for j in indices(g[i])]) for i in indices(g)]);
        }
    "##;

    /// Node Kayles with its covering helper, the five covers' edges
    /// tested at every option step by step, takes masks, and gives every
    /// reachable board the options the step-by-step code gives.
    #[test]
    fn covers_settled_by_the_generators_give_the_step_by_step_options() {
        assert_eq!(masked(NODE_KAYLES, r#"NK(["...", "..."])"#), 1);
        // Every set of free cells a 3x4 board reaches, and boards with
        // holes.
        assert!(same_options(NODE_KAYLES, r#"NK(["....", "....", "...."])"#) > 100);
        assert!(same_options(NODE_KAYLES, r##"NK(["#..#.", ".....", "..#.."])"##) > 30);
        assert!(same_options(NODE_KAYLES, r#"NK([".........."])"#) > 30);
        for text in FORMS {
            assert_eq!(masked(text, r#"NK(["...", "..."])"#), 1);
            assert!(same_options(text, r#"NK(["....", "....", "...."])"#) > 100);
            assert!(same_options(text, r##"NK(["#..#", "....", ".#.."])"##) > 30);
        }
        // Cram's dominoes take them too, beside the letters moving along
        // a row that its loops take first.
        assert_eq!(masked(CRAM, r#"Cram(["...", "..."])"#), 2);
        assert_eq!(same_options(CRAM, r#"Cram(["...", "...", "..."])"#), 98);
        assert_eq!(same_options(ONE_RULE, r#"Cram(["...", "...", "..."])"#), 98);
    }

    /// Writes that read the board are not taken; a row copied onto
    /// another, or a letter past the row's end, keeps its writes at the
    /// values where it happens.
    #[test]
    fn writes_that_read_the_position_keep_their_steps() {
        // `copy` and `past` take masks where their rows stay put.
        assert_eq!(masked(LOOKALIKES, r#"B(["...", "..."])"#), 2);
        for board in [
            r#"B(["...", "...", "..."])"#,
            r#"B(["c..", ".c.", "..c"])"#,
            r#"B(["r.r", ".rr", "..."])"#,
            r#"B(["..p", "p..", "..."])"#,
            r#"B(["c.p", "r..", ".c."])"#,
            r#"B(["f.f", ".r.", "c.f"])"#,
        ] {
            assert!(same_options(LOOKALIKES, board) >= 1, "{board}");
        }
    }
}
