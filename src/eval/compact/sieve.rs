//! Loops that visit only the values their first tests let through. In
//! Cram's `move across(r in indices(g), c in 0..width(g) - 1) if g[r][c]
//! == "." and g[r][c + 1] == "."`, each test reads the letter at the loop's
//! variable plus an amount the loop does not change, in a row the loop does
//! not change: for a whole row at once, the cells that hold "." are bits of
//! a word, and the values of `c` that pass both tests are those bits ANDed
//! together, each shifted by its test's amount. The loop then walks the
//! bits that are set.
//!
//! Only the leading tests of the `and` chain made right after the variable
//! is set are taken (the rest keep their order and run value by value), and
//! only where every letter they would read, at every value of the loop, is
//! inside its row: a value the first test turns down would have had the
//! interpreter stop there, without an error, as the sieve does. Where a row
//! or an amount cannot be worked out, or a letter would fall outside, the
//! loop runs value by value with the tests as they were.

use super::code::{Char, Num, Rows, Rule, Seq, Source, Target, Truth};
use super::layout::Fields;
use super::letters::{shifting, Shifting};
use super::run::{low_bits, Machine};
use crate::syntax::ast::BinaryOp;

/// The leading letter tests of the tests made after a loop's variable is
/// set, read for all its values at once.
#[derive(Debug)]
pub struct Sieve {
    pub tests: Vec<LetterTest>,
    /// The same tests as one `and` chain, for the loops the sieve cannot
    /// take: made value by value, before the tests left behind.
    pub whole: Truth,
    /// For the innermost loop, its options as letters that move with
    /// the variable, where the move's writes are such (see `letters`).
    pub shifting: Option<Shifting>,
    /// The register of the loop before, where the two loops run as one
    /// plane of the grid (see `plane`).
    pub plane: Option<u32>,
}

impl Sieve {
    /// The rows and amounts of its tests made into what runs fastest
    /// (see `closure`).
    pub fn lower(&mut self, mut lowered: impl FnMut(&mut Num)) {
        for test in &mut self.tests {
            if let Line::Row(_, r) = &mut test.line {
                lowered(r);
            }
            if let Some(k) = &mut test.offset {
                lowered(k);
            }
        }
    }
}

/// `line[var + offset] == code` (or `!=` when `eq` is not set).
#[derive(Debug)]
pub struct LetterTest {
    pub eq: bool,
    pub code: i64,
    pub line: Line,
    /// What is added to the variable; `None` for nothing.
    pub offset: Option<Num>,
    /// Whether the offset is subtracted (`var - offset`).
    pub minus: bool,
}

/// The letters a test reads one of.
#[derive(Debug)]
pub enum Line {
    /// A string's cells in the key, or a list's of booleans or of small
    /// numbers.
    Cells(Fields),
    /// A row of a grid, at a row index the loop does not change: its
    /// register holds its letters, also where the key holds its number.
    Row(Rows, Num),
}

/// Takes the sieves of `rule`'s loops out of their tests, one entry a
/// generator: for a loop over a range with no other way of walking it (a
/// bound, a fused step, a progression), the leading letter tests among the
/// tests made right after its variable is set.
pub fn recognise(rule: &mut Rule) {
    let last = rule.gens.len().saturating_sub(1);
    let sieves = (0..rule.gens.len())
        .map(|d| {
            let gen = &rule.gens[d];
            let (Source::Each(Seq::Range(..)), Target::Reg(var)) = (&gen.source, gen.target) else {
                return None;
            };
            let walked_otherwise = rule.bounds.get(d).is_some_and(Option::is_some)
                || (d == last && (rule.fused.is_some() || rule.progression));
            if walked_otherwise {
                return None;
            }
            let mut sieve = take(rule.tests_after(d)?, var)?;
            // Writes made earlier for the outer loops' values (a hoist)
            // are made again from the key by the shifting code.
            if d == last && rule.sum.is_none() {
                sieve.shifting = shifting(&rule.writes, var, &rule.gens);
            }
            Some(sieve)
        })
        .collect();
    rule.sieves = sieves;
    let plane = super::plane::recognise(rule);
    if let Some(Some(sieve)) = rule.sieves.last_mut() {
        sieve.plane = plane;
    }
}

/// The leading letter tests of `tests` on register `var`, taken out of
/// them; `tests` as they were when the first is not one.
fn take(tests: &mut Option<Truth>, var: u32) -> Option<Sieve> {
    let mut first = tests.as_ref()?;
    while let Truth::And(a, _) = first {
        first = a;
    }
    letter_test(first, var)?;
    let mut conjuncts = Vec::new();
    tests.take()?.conjuncts(&mut conjuncts);
    let letter_tests: Vec<LetterTest> = conjuncts
        .iter()
        .map_while(|t| letter_test(t, var))
        .collect();
    *tests = Truth::all(conjuncts.split_off(letter_tests.len()));
    Some(Sieve {
        tests: letter_tests,
        whole: Truth::all(conjuncts)?,
        shifting: None,
        plane: None,
    })
}

/// `t` as a letter test at `var` plus an amount, if it is one.
fn letter_test(t: &Truth, var: u32) -> Option<LetterTest> {
    let (eq, line, column, code) = match t {
        Truth::SameChar(eq, a, b) => {
            let (cell, code) = match (a, b) {
                (cell, Char::Code(code)) | (Char::Code(code), cell) => (cell, *code),
                _ => return None,
            };
            let (line, column) = match cell {
                Char::Cell(f, i) => (Line::Cells(*f), &**i),
                Char::GridCell(rows, r, c) if steady(r, var) => (Line::Row(*rows, r.copy()?), &**c),
                _ => return None,
            };
            (*eq, line, column, code)
        }
        // A list of small numbers compared with one is read as letters
        // are: each element a field of the key.
        Truth::Compare(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b) => {
            let ((Num::Field(f, i), n) | (n, Num::Field(f, i))) = (a, b) else {
                return None;
            };
            (*op == BinaryOp::Eq, Line::Cells(*f), &**i, n.constant()?)
        }
        _ => return None,
    };
    let (offset, minus) = along(column, var)?;
    let offset = match offset {
        Some(k) => Some(k.copy()?),
        None => None,
    };
    Some(LetterTest {
        eq,
        code,
        line,
        offset,
        minus,
    })
}

/// `n` as register `var` plus or minus (when the flag is set) an amount
/// that does not read it (`None` for nothing), if it is one.
pub(super) fn along(n: &Num, var: u32) -> Option<(Option<&Num>, bool)> {
    let is_var = |x: &Num| matches!(*x, Num::Reg(r) if r == var);
    match n {
        Num::Reg(r) if *r == var => Some((None, false)),
        Num::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), x, k) if is_var(x) && steady(k, var) => {
            Some((Some(&**k), *op == BinaryOp::Sub))
        }
        Num::Binary(BinaryOp::Add, k, x) if is_var(x) && steady(k, var) => {
            Some((Some(&**k), false))
        }
        _ => None,
    }
}

/// Whether `n` is made of literals, registers other than `var`,
/// arithmetic, elements and choices on comparisons of such numbers
/// alone: worked out once for a loop, it is what it would be at each
/// value.
pub(super) fn steady(n: &Num, var: u32) -> bool {
    let mut regs = Vec::new();
    n.reads(&mut regs).is_some() && !regs.contains(&var)
}

impl Machine {
    /// What a letter test adds to its loop's variable.
    pub(super) fn offset(&mut self, test: &LetterTest) -> Option<i64> {
        let offset = match &test.offset {
            Some(k) => self.quick(k)?,
            None => 0,
        };
        if test.minus {
            offset.checked_neg()
        } else {
            Some(offset)
        }
    }

    /// The values `start..end` of a loop that pass a sieve's tests, as
    /// bits from `start`; `None` where the sieve cannot vouch for them (a
    /// row or amount not worked out, a letter outside its row, more than
    /// 64 values): the loop then runs value by value.
    pub(super) fn sieved(&mut self, sieve: &Sieve, (start, end): (i64, i64)) -> Option<u64> {
        if end <= start {
            return Some(0);
        }
        let count = end.checked_sub(start)?;
        if count > 64 {
            return None;
        }
        let mut passed = low_bits(count as u32);
        for test in &sieve.tests {
            let (word, len, width, bias) = match &test.line {
                Line::Cells(f) => (
                    (self.key >> f.shift) & low_bits(f.len * f.width),
                    f.len,
                    f.width,
                    f.bias,
                ),
                Line::Row(rows, r) => {
                    let r = self.quick(r)?;
                    let r = u32::try_from(r).ok().filter(|&r| r < rows.fields.len)?;
                    let word = self.regs[(rows.fields.first + r) as usize] as u64;
                    (word, rows.cols, self.cell, 0)
                }
            };
            let offset = self.offset(test)?;
            // The letters read, from `start + offset` to `end - 1 + offset`,
            // all inside the line.
            let from = start.checked_add(offset)?;
            let to = (end - 1).checked_add(offset)?;
            if from < 0 || to >= i64::from(len) {
                return None;
            }
            let holding = letters_equal(word, len, width, test.code.checked_sub(bias)?);
            let holding = if test.eq {
                holding
            } else {
                !holding & low_bits(len)
            };
            passed &= holding >> from;
        }
        Some(passed)
    }
}

/// Bit `i` set where letter `i` of the `len` letters of `word` (`width`
/// bits each) is `code`.
#[inline]
fn letters_equal(word: u64, len: u32, width: u32, code: i64) -> u64 {
    let all = low_bits(len);
    if width == 1 {
        return match code {
            0 => !word & all,
            1 => word & all,
            _ => 0,
        };
    }
    let Ok(code) = u64::try_from(code) else {
        return 0;
    };
    let mask = low_bits(width);
    (0..len)
        .filter(|&i| (word >> (i * width)) & mask == code)
        .fold(0, |bits, i| bits | 1 << i)
}

impl Machine {
    /// The loop over register `r` at `depth` of `rule`, for the values
    /// from `start` whose bits are set in `passed`.
    pub(super) fn sieved_loop(
        &mut self,
        rule: &Rule,
        depth: usize,
        r: usize,
        start: i64,
        mut passed: u64,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        // The steps the loop would have taken, counted at once.
        self.steps(passed.count_ones() as usize)?;
        // The innermost loop, each value an option where the guard left
        // after the sieve (if any) holds.
        let last = depth + 1 == rule.gens.len()
            && rule.early[depth].is_none()
            && rule.sum.is_none()
            && self.trail.is_none();
        let leaf = last && rule.guard.is_none();
        let shifting = rule.sieves[depth]
            .as_ref()
            .and_then(|s| s.shifting.as_ref());
        if let (true, Some(shifting)) = (leaf && passed != 0, shifting) {
            let first = passed.trailing_zeros();
            let last = 63 - passed.leading_zeros();
            let lo = start + i64::from(first);
            if let Some((changed, letters)) = self.shifted_letters(shifting, lo, (last - first, 0))
            {
                let key = self.key;
                let w = self.cell;
                passed >>= first;
                while passed != 0 {
                    let shift = passed.trailing_zeros() * w;
                    passed &= passed - 1;
                    out.push(key & !(changed << shift) | letters << shift);
                }
                return Some(());
            }
        }
        if last {
            // Made here rather than through `generate` a value at a time.
            let split = super::split::of_last_loop(rule).and_then(super::split::LastLoop::one);
            let mut route = None;
            while passed != 0 {
                let at = passed.trailing_zeros();
                passed &= passed - 1;
                self.regs[r] = start + i64::from(at);
                if let Some(guard) = &rule.guard {
                    if !self.truth(guard)? {
                        continue;
                    }
                }
                let Some(split) = split else {
                    out.push(self.rule_written(rule)?);
                    continue;
                };
                // The values left, from this one on, as register values.
                let left = passed | 1 << at;
                let values = u32::try_from(start)
                    .ok()
                    .and_then(|start| left.checked_shl(start).filter(|v| v >> start == left));
                let (value, tests) = (start + i64::from(at), [rule.guard.as_ref(), None, None]);
                let (done, _) =
                    split.written_from(self, (rule, &mut route), (r, value, values), tests, out)?;
                // The values whose options are written are passed.
                passed &= !low_bits(u32::try_from(done - start).ok()?);
            }
            return Some(());
        }
        while passed != 0 {
            let at = passed.trailing_zeros();
            passed &= passed - 1;
            self.regs[r] = start + i64::from(at);
            self.generate(rule, depth + 1, out)?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const CRAM: &str = include_str!("../../../bench/games/cram.game");
    /// Cram in one rule, the step's row and column offsets from an outer
    /// generator (`r + dr`, `c + dc`).
    const ONE_RULE: &str = include_str!("../../../bench/games/search-rewrites/cram-one-rule.game");
    /// Letter tests of every kind the sieve reads, with tests after them
    /// and a column read past the row's end at the loop's last value.
    const MIXED: &str = r#"
        game Strip(s: str) {
          move left(i in 1..len(s)) if s[i - 1] != "X" and s[i] == "." and i % 2 == 1
            => Strip(set_at(s, i, "X"));
          move pair(k in 0..2, i in 0..len(s) - k) if s[i + k] == "." and s[k + i] == "."
            => Strip(set_at(s, i, "o"));
          move past(i in 0..len(s)) if s[i] == "o" and s[i + 1] == "."
            => Strip(set_at(set_at(s, i, "X"), i + 1, "X"));
        }
    "#;

    /// Lists of numbers whose elements are compared with a number, read
    /// as letters are: both ways round, `==` and `!=`, with tests after
    /// them, an element read past the list's end where a 3 ends it, and
    /// numbers below 0 (stored from the least).
    const NUMBERS: &str = r#"
        game Row(xs: [nat]) {
          move take(i in 1..len(xs)) if xs[i - 1] != 0 and xs[i] == 2 and i % 2 == 1
            => Row(set_at(xs, i, 0));
          move pair(k in 0..2, i in 0..len(xs) - k) if 1 == xs[i + k] and xs[k + i] != 7
            => Row(set_at(xs, i + k, 0));
          move past(i in 0..len(xs)) if xs[i] == 3 and xs[i + 1] == 0
            => Row(set_at(set_at(xs, i, 1), i + 1, 2));
        }
        game Signed(xs: [int]) {
          move down(i in indices(xs)) if xs[i] == -1 => Signed(set_at(xs, i, -2));
          move zero(i in indices(xs)) if -2 != xs[i] and xs[i] != 0 => Signed(set_at(xs, i, 0));
        }
    "#;

    /// How many rules have a sieve on their last loop.
    fn sieved(text: &str, start: &str) -> usize {
        let (game, _) = compiled(text, start, true);
        let code = &inside(&*game).code;
        code.rules
            .iter()
            .filter(|r| r.sieves.last().is_some_and(Option::is_some))
            .count()
    }

    #[test]
    fn letter_tests_of_a_loop_are_read_for_all_its_values() {
        assert_eq!(sieved(CRAM, r#"Cram(["...", "..."])"#), 2);
        // One rule a direction (see `pieces`).
        assert_eq!(sieved(ONE_RULE, r#"Cram(["...", "..."])"#), 2);
        assert_eq!(sieved(MIXED, r#"Strip("....")"#), 3);
        assert_eq!(sieved(NUMBERS, "Row([2, 2, 1, 3, 0, 1])"), 3);
        assert_eq!(sieved(NUMBERS, "Signed([1, -1, 0, -2])"), 2);
    }

    const CHOMP: &str = include_str!("../../../bench/games/chomp-grid.game");

    /// A grid of `rows` rows of `width` letters, the first `open` of
    /// each "." and the rest "#".
    fn board(rows: usize, width: usize, open: &[usize]) -> String {
        let row = |n: usize| format!("\"{}{}\"", ".".repeat(n), "#".repeat(width - n));
        let rows: Vec<_> = (0..rows).map(|i| row(open[i % open.len()])).collect();
        format!("[{}]", rows.join(", "))
    }

    #[test]
    fn rows_held_by_their_numbers_are_sieved_from_their_letters() {
        // 3 rows of 19 letters (57 bits) and 2 of 29 (58): too many for a
        // key, so the rows are numbered and their registers hold letters.
        let chomp = format!("Chomp({})", board(3, 19, &[19]));
        assert_eq!(sieved(CHOMP, &chomp), 1);
        // Every never increasing list of 3 heights up to 19 but the empty
        // one: C(22, 3) - 1.
        assert_eq!(same_options(CHOMP, &chomp), 1539);
        let cram = r##"Cram(["...#..#.#####################", "..#.#...#####################"])"##;
        assert_eq!(sieved(CRAM, cram), 2);
        assert!(same_options(CRAM, cram) > 100);
    }

    #[test]
    fn sieved_loops_give_the_options_step_by_step_code_gives() {
        // Every board the hand-written solver reaches.
        assert_eq!(same_options(CRAM, r#"Cram(["...", "...", "..."])"#), 98);
        assert_eq!(
            same_options(ONE_RULE, r#"Cram(["....", "....", "...."])"#),
            550
        );
        assert!(same_options(CRAM, r##"Cram(["#..#", "....", ".#.."])"##) > 10);
        assert!(same_options(MIXED, r#"Strip(".....")"#) > 10);
        // `past` reads beyond the end where an "o" ends the string: both
        // ways give such a key up alike (the start, here, after no option).
        assert!(same_options(MIXED, r#"Strip("..o..")"#) > 1);
        assert_eq!(same_options(MIXED, r#"Strip("X.o")"#), 1);
        assert!(same_options(NUMBERS, "Row([2, 2, 1, 3, 0, 1, 3, 2, 2, 1])") > 50);
        // A 3 last: `past` reads beyond the end, and both ways give the
        // start up alike.
        assert_eq!(same_options(NUMBERS, "Row([1, 3, 0, 2, 1, 3])"), 1);
        // A 1 goes to 0, a -1 to -2 or 0, and a 0 stays.
        assert_eq!(same_options(NUMBERS, "Signed([1, 1, -1, 0])"), 2 * 2 * 3);
    }
}
