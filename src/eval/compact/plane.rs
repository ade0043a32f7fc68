//! A rule's last two loops walked as one plane of a grid. In Cram's
//! `move down(r in 0..len(g) - 1, c in 0..width(g)) if g[r][c] == "." and
//! g[r + 1][c] == "."`, the last loop's sieve reads rows that move one for
//! one with `r` and the move's writes cover cells whose rows move with `r`
//! and whose places move with `c`. The grid's rows lie side by side in the
//! key, so cell `(r, c)` is cell `r * columns + c` of one word: each test
//! holds for every pair at once where the letters it reads, the word of
//! the grid shifted by the cells between `(r, c)` and the cell read, are
//! its letter; and the option of each pair that passes is the option of
//! the first pair with its letters moved by as many cells as lie between
//! the two pairs. A position's options of the whole rule are then a few
//! word operations, and one mask and one shift each.
//!
//! The plane is taken only where the two loops would do nothing else: no
//! other test, no other way of walking them, no rule following them. At
//! run time it is taken only where every value of either loop falls inside
//! the grid, every letter a test reads there is inside the grid, and the
//! writes hold from the least pair to the greatest; otherwise the loops
//! run as before, which meet whatever the interpreter would meet.

use super::code::{Rows, Rule, Seq, Source, Target};
use super::letters::Shifting;
use super::run::{low_bits, Machine};
use super::sieve::{along, steady, Line, Sieve};

/// The register of the loop before a rule's last one, where the two run
/// as one plane: its last loop has a sieve whose tests all read rows of
/// the grid its writes edit, each row that register plus an amount
/// neither loop changes, and writes that move with both (see
/// `Shifting::follows_rows`).
pub fn recognise(rule: &Rule) -> Option<u32> {
    let inner_at = rule.gens.len().checked_sub(1)?;
    let outer_at = inner_at.checked_sub(1)?;
    let sieve = rule.sieves.get(inner_at)?.as_ref()?;
    let shifting = sieve.shifting.as_ref()?;
    let (outer, inner) = (&rule.gens[outer_at], &rule.gens[inner_at]);
    let (Source::Each(Seq::Range(..)), Target::Reg(outer)) = (&outer.source, outer.target) else {
        return None;
    };
    let Target::Reg(inner) = inner.target else {
        return None;
    };
    let alone = rule.guard.is_none()
        && rule.sum.is_none()
        && rule.fused.is_none()
        && !rule.progression
        && rule.early[outer_at..].iter().all(Option::is_none)
        && rule.bounds.get(outer_at).is_none_or(Option::is_none)
        && rule.sieves.get(outer_at).is_none_or(Option::is_none);
    let rows = shifting.rows();
    if !alone || rows.numbered {
        return None;
    }
    for test in &sieve.tests {
        let Line::Row(read, row) = &test.line else {
            return None;
        };
        let (amount, _) = along(row, outer)?;
        let steady_amount = amount.is_none_or(|k| steady(k, inner));
        let steady_offset = test.offset.as_ref().is_none_or(|k| steady(k, outer));
        if *read != rows || !steady_amount || !steady_offset {
            return None;
        }
    }
    shifting.follows_rows(outer).then_some(outer)
}

/// Where the grid lies in the key and how its cells are laid out.
struct Grid {
    rows: Rows,
    /// Bits a letter takes.
    cell: u32,
    /// The lowest bit of every cell.
    lows: u64,
}

impl Grid {
    fn new(rows: Rows, cell: u32) -> Grid {
        let cells = rows.fields.len * rows.cols;
        let lows = match cell {
            1 => low_bits(cells),
            _ => (0..cells).fold(0, |lows, i| lows | 1 << (i * cell)),
        };
        Grid { rows, cell, lows }
    }

    /// The bit of cell `(r, c)` from the grid's first, where both are
    /// inside the grid.
    #[inline]
    fn bit(&self, r: i64, c: i64) -> Option<u32> {
        let r = u32::try_from(r)
            .ok()
            .filter(|&r| r < self.rows.fields.len)?;
        let c = u32::try_from(c).ok().filter(|&c| c < self.rows.cols)?;
        Some((r * self.rows.cols + c) * self.cell)
    }

    /// The lowest bit of each cell of the grid in `key` that holds the
    /// letter `code`.
    fn holding(&self, key: u64, code: i64) -> u64 {
        let Some(code) = u64::try_from(code).ok().filter(|c| c >> self.cell == 0) else {
            return 0;
        };
        let word = (key >> self.rows.fields.shift) & self.all();
        let differ = word ^ code.wrapping_mul(self.lows);
        // A cell's lowest bit, ORed with the bits above it in the cell.
        let any = (1..self.cell).fold(differ, |any, b| any | differ >> b);
        !any & self.lows
    }

    fn all(&self) -> u64 {
        low_bits(self.rows.fields.len * self.rows.cols * self.cell)
    }
}

/// The least and greatest row and column the pairs of a plane take.
#[derive(Clone, Copy)]
struct Corners {
    rows: (i64, i64),
    cols: (i64, i64),
}

impl Machine {
    /// The options of `rule`'s last two loops, the one at `depth` over
    /// `start..end` and the one after it, walked as one plane, and
    /// `true`; `false` (nothing made) where the rule has no plane or this
    /// position cannot vouch for it.
    #[inline(always)]
    pub(super) fn planed(
        &mut self,
        rule: &Rule,
        depth: usize,
        range: (i64, i64),
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        // Asked at every loop: most have no plane, and say so at once.
        if depth + 2 != rule.gens.len() {
            return Some(false);
        }
        match rule.sieves.get(depth + 1) {
            Some(Some(sieve)) if sieve.plane.is_some() => {
                self.planed_loops(rule, sieve, depth, range, out)
            }
            _ => Some(false),
        }
    }

    /// `planed` for a rule whose last loop's sieve has a plane.
    fn planed_loops(
        &mut self,
        rule: &Rule,
        sieve: &Sieve,
        depth: usize,
        (start, end): (i64, i64),
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        let (Some(outer), Some(shifting)) = (sieve.plane, &sieve.shifting) else {
            return Some(false);
        };
        let Source::Each(inner) = &rule.gens[depth + 1].source else {
            return Some(false);
        };
        if self.trail.is_some() {
            return Some(false);
        }
        let grid = Grid::new(shifting.rows(), self.cell);
        let Some((passed, corners)) = self.plane(&grid, sieve, (outer, inner), (start, end)) else {
            return Some(false);
        };
        // The steps the two loops would have taken, counted at once.
        let outer_steps = usize::try_from(end.saturating_sub(start)).unwrap_or(0);
        if passed == 0 {
            self.steps(outer_steps)?;
            return Some(true);
        }
        let Some((from, changed, letters)) = self.plane_letters(&grid, shifting, outer, corners)
        else {
            return Some(false);
        };
        self.steps(outer_steps + passed.count_ones() as usize)?;
        let key = self.key;
        let mut passed = passed >> from;
        while passed != 0 {
            let shift = passed.trailing_zeros();
            passed &= passed - 1;
            out.push(key & !(changed << shift) | letters << shift);
        }
        Some(true)
    }

    /// The lowest bit of the cell `(r, c)` of each pair of values of the
    /// registers `outer` (over `start..end`) and `inner` that passes the
    /// sieve's tests, and the pairs' corners; `None` where a value or a
    /// letter read falls outside the grid, or a number is not worked out.
    fn plane(
        &mut self,
        grid: &Grid,
        sieve: &Sieve,
        (outer, inner): (u32, &Seq),
        (start, end): (i64, i64),
    ) -> Option<(u64, Corners)> {
        let outer = outer as usize;
        // The cells the loops walk, and the least and greatest pairs.
        let mut walked = 0u64;
        let mut corners = Corners {
            rows: (i64::MAX, i64::MIN),
            cols: (i64::MAX, i64::MIN),
        };
        for r in start..end {
            self.regs[outer] = r;
            let (from, to) = self.bounds(inner)?;
            if to <= from {
                continue;
            }
            let first = grid.bit(r, from)?;
            let count = u32::try_from(to - from).ok()?;
            grid.bit(r, to - 1)?;
            walked |= (grid.lows & low_bits(count * grid.cell)) << first;
            corners.rows = (corners.rows.0.min(r), r);
            corners.cols = (corners.cols.0.min(from), corners.cols.1.max(to - 1));
        }
        if walked == 0 {
            return Some((0, corners));
        }
        self.regs[outer] = start;
        let cols = i64::from(grid.rows.cols);
        let mut passed = walked;
        for test in &sieve.tests {
            let Line::Row(_, row) = &test.line else {
                return None;
            };
            // The row read and the letter's place, less the pair's.
            let down = self.quick(row)?.checked_sub(start)?;
            let across = self.offset(test)?;
            let read = |(r, c): (i64, i64)| grid.bit(r.checked_add(down)?, c.checked_add(across)?);
            read((corners.rows.0, corners.cols.0))?;
            read((corners.rows.1, corners.cols.1))?;
            let holding = grid.holding(self.key, test.code);
            let holding = if test.eq {
                holding
            } else {
                !holding & grid.lows
            };
            // Cells apart, as bits: at most the grid's, inside a word.
            let apart = (down * cols + across) * i64::from(grid.cell);
            passed &= match u32::try_from(apart) {
                Ok(up) => holding.checked_shr(up)?,
                Err(_) => holding.checked_shl(u32::try_from(-apart).ok()?)?,
            };
        }
        Some((passed, corners))
    }

    /// The bit of the least pair's cell, and the cells its option changes
    /// and the letters it puts there, where the writes hold from the least
    /// pair to the greatest: as the writes move with both loops, each
    /// number they work out is least at the one and greatest at the other.
    fn plane_letters(
        &mut self,
        grid: &Grid,
        shifting: &Shifting,
        outer: u32,
        corners: Corners,
    ) -> Option<(u32, u64, u64)> {
        let (lo, hi) = corners.rows;
        let (left, right) = corners.cols;
        let from = grid.bit(lo, left)?;
        let span = (
            u32::try_from(right - left).ok()?,
            u32::try_from(hi - lo).ok()?,
        );
        self.regs[outer as usize] = lo;
        let (changed, letters) = self.shifted_letters(shifting, left, span)?;
        Some((from, changed, letters))
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const CRAM: &str = include_str!("../../../bench/games/cram.game");
    const ONE_RULE: &str = include_str!("../../../bench/games/search-rewrites/cram-one-rule.game");
    const DOMINO: &str = include_str!("../../../bench/games/search-rewrites/cram-domino.game");
    const GUIDE: &str = include_str!("../../../bench/games/search-rewrites/cram-guide.game");
    const TRANSPOSE: &str =
        include_str!("../../../bench/games/search-rewrites/cram-transpose.game");

    /// Look-alikes: a domino laid in the first row whatever row was
    /// tested (the writes stay while the tests move), a test of every
    /// other row (`2 * r`), a test past the last row, a loop whose
    /// columns end where its row number does, and a move that tests a
    /// cell of the row below the one it covers.
    const LOOKALIKES: &str = r##"
        fn cover(row: str, c: nat) = set_at(row, c, "#");
        game G(g: grid) {
          move first(r in indices(g), c in 0..len(g[0]) - 1) if g[r][c] == "." and g[r][c + 1] == "."
            => G(set_at(g, 0, cover(cover(g[0], c), c + 1)));
          move even(r in 0..len(g) / 2, c in indices(g[0])) if g[2 * r][c] == "."
            => G(set_at(g, r, cover(g[r], c)));
        }
        game Past(g: grid) {
          move down(r in indices(g), c in indices(g[0])) if g[r][c] == "." and g[r + 1][c] == "."
            => Past(set_at(g, r, cover(g[r], c)));
        }
        game Stairs(g: grid) {
          move step(r in indices(g), c in 0..min(r, len(g[0]) - 1)) if g[r][c] == "." and g[r][c + 1] != "#"
            => Stairs(set_at(g, r, cover(g[r], c + 1)));
          move under(r in 1..len(g), c in indices(g[0])) if g[r - 1][c] == "x" and g[r][c] == "."
            => Stairs(set_at(g, r - 1, cover(g[r - 1], c)));
        }
    "##;

    /// Which rules run their last two loops as a plane.
    fn planes(text: &str, start: &str) -> Vec<bool> {
        let (game, _) = compiled(text, start, true);
        let code = &inside(&*game).code;
        code.rules
            .iter()
            .map(|r| {
                r.sieves
                    .last()
                    .is_some_and(|s| s.as_ref().is_some_and(|s| s.plane.is_some()))
            })
            .collect()
    }

    #[test]
    fn grid_games_whose_tests_and_writes_move_with_both_loops_take_the_plane() {
        let board = r#"Cram(["...", "..."])"#;
        assert_eq!(planes(CRAM, board), [true, true]);
        // One rule a direction (see `pieces`).
        assert_eq!(planes(ONE_RULE, board), [true, true]);
        assert_eq!(planes(DOMINO, board), [true, true]);
        assert_eq!(planes(GUIDE, board), [true, true]);
        // A domino laid by slices and "##" is letters put at places where
        // it lies on the row (see `spliced`), which the guard keeps it
        // on; the moves down, on the turned board, set the two cells of
        // the key it covers, the rows walked outside (see `grid_order`).
        assert_eq!(planes(TRANSPOSE, board), [true, true]);
        assert_eq!(planes(LOOKALIKES, r#"G(["...", "..."])"#), [false, false]);
        assert_eq!(planes(LOOKALIKES, r#"Past(["...", "..."])"#), [true]);
        assert_eq!(
            planes(LOOKALIKES, r#"Stairs(["...", "..."])"#),
            [true, true]
        );
    }

    #[test]
    fn planes_give_the_options_step_by_step_code_gives() {
        for board in [
            r#"["...", "...", "..."]"#,
            r#"["....", "....", "...."]"#,
            r#"["...", "...", "...", "..."]"#,
            r#"[".....", "....."]"#,
            r#"["......"]"#,
            r#"[".", ".", ".", "."]"#,
            r##"["#..#", "....", ".#.."]"##,
        ] {
            let start = format!("Cram({board})");
            let reached = same_options(CRAM, &start);
            assert!(reached > 4, "{start}");
            for text in [ONE_RULE, DOMINO, GUIDE, TRANSPOSE] {
                assert_eq!(same_options(text, &start), reached, "{start}");
            }
        }
        // Every board the hand-written solver reaches on 3x3.
        assert_eq!(same_options(CRAM, r#"Cram(["...", "...", "..."])"#), 98);
    }

    #[test]
    fn look_alikes_and_letters_of_two_bits_agree_with_step_by_step_code() {
        // From an empty board, `Past` reads past the last row at once.
        assert_eq!(same_options(LOOKALIKES, r#"Past(["...", "..."])"#), 1);
        for start in [
            r#"G(["...", "...", "..."])"#,
            r#"Past(["...", "...", "xxx"])"#,
            r#"Past(["x...", ".x..", "....", "xxxx"])"#,
            r#"Stairs(["....", "....", "....", "...."])"#,
            r#"Stairs(["x..x", "..x.", "xx..", "...."])"#,
        ] {
            assert!(same_options(LOOKALIKES, start) > 4, "{start}");
        }
        // Three letters, two bits a cell: the plane reads two-bit letters.
        let start = r#"Cram(["x...", "..x.", "...."])"#;
        assert!(same_options(CRAM, start) > 10);
        assert!(same_options(ONE_RULE, start) > 10);
    }
}
