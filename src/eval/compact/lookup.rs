//! Expressions that depend on nothing but one element of a list or string
//! parameter, read at a register's index, worked out once for every value
//! that element's field can hold and then read off a table. Mock Turtles'
//! `flip(row[k])` (a helper, a test and two letters) is a function of the
//! letter at `k` alone: two entries, and the move's write reads one of
//! them. What an expression reads is found from the compiled code (which
//! registers it reads, which it sets), never from how the rules spell it.
//!
//! An expression of one element (or a grid's row) and one more register
//! is remembered instead, entry by entry as it is met, by the element's
//! field as the key holds it and the register's value (see `remembered`):
//! Chomp's `eaten(g[i], c)`.

use super::closure::NumFn;
use super::code::{Bind, Char, Num, Text};
use super::cost;
use super::layout::Fields;
use super::reads::{self, Visit};
use std::cell::Cell;

/// Fields at most this wide are tabulated (a table of 2^8 entries at most).
const MAX_WIDTH: u32 = 8;

/// The values of the other register a memo keeps entries for: `0..64`.
const MEMO_VALUES: u64 = 64;

/// `slow`, a number worked out from the element at `site` and register
/// `extra` alone (see `num_pair`), remembered by the element's field as the
/// key holds it and the register's value, as they are met: the first time
/// a pair is met it is worked out, errors included, and after that read.
/// A register's value outside `0..64`, or an index out of range, is
/// worked out each time, and so is a value the table keeps for its marks.
pub(super) fn remembered(site: Site, extra: u32, slow: NumFn) -> NumFn {
    let f = site.fields;
    let (index, extra) = (site.index as usize, extra as usize);
    let memo: Box<[Cell<i64>]> = (0..MEMO_VALUES << f.width)
        .map(|_| Cell::new(NOT_MET))
        .collect();
    Box::new(move |m| {
        let x = m.regs[extra] as u64;
        let i = m.regs[index] as u64;
        if x >= MEMO_VALUES || i >= u64::from(f.len) {
            return slow(m);
        }
        let slot = (x << f.width | f.read(m.key, i as u32)) as usize;
        let cell = &memo[slot];
        match cell.get() {
            NOT_MET => {}
            FAILED => return None,
            v => return Some(v),
        }
        let v = slow(m);
        match v {
            None => cell.set(FAILED),
            Some(NOT_MET | FAILED) => {}
            Some(v) => cell.set(v),
        }
        v
    })
}

/// What a memo's entry holds before its pair is met, and where working
/// it out failed.
const NOT_MET: i64 = i64::MIN;
const FAILED: i64 = i64::MIN + 1;

/// The one element an expression reads: field `index` of `fields`, where
/// `index` is the register that holds the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub fields: Fields,
    pub index: u32,
    /// Whether the element is a grid's row (whose register may hold
    /// another thing than its field: the row's letters for its number).
    pub row: bool,
}

/// What an expression reads, as it is walked.
#[derive(Default)]
struct Reads {
    site: Option<Site>,
    /// Registers and string registers the expression sets itself (a
    /// helper's arguments): reading them reads nothing from outside.
    set: Vec<u32>,
    set_texts: Vec<u32>,
    /// Other registers it reads from outside.
    extra: Vec<u32>,
    /// Whether it reads anything else from outside: the key, a grid's
    /// cell, a tuple, a second element.
    outside: bool,
}

/// The element `n` alone depends on, if it depends on one and is worth a
/// table (more than the element itself).
pub fn num_site(n: &Num) -> Option<Site> {
    if matches!(
        n,
        Num::Lit(_) | Num::Reg(_) | Num::Field(..) | Num::Closure(_)
    ) {
        return None;
    }
    let mut r = Reads::default();
    reads::num(&mut r, n);
    r.site().filter(|s| !s.row)
}

/// The element a letter alone depends on (see `num_site`).
pub fn char_site(c: &Char) -> Option<Site> {
    if matches!(c, Char::Code(_) | Char::Reg(_) | Char::Cell(..)) {
        return None;
    }
    let mut r = Reads::default();
    reads::char(&mut r, c);
    r.site().filter(|s| !s.row)
}

/// The element (or row) and the one other register a number alone
/// depends on, if it depends on such a pair and costs more to work out
/// than to remember (see `remembered`).
pub fn num_pair(n: &Num) -> Option<(Site, u32)> {
    if cost::num(n) <= cost::MEMO {
        return None;
    }
    num_reads_pair(n)
}

/// The element and the register a number alone depends on, whatever it
/// costs.
pub fn num_reads_pair(n: &Num) -> Option<(Site, u32)> {
    let mut r = Reads::default();
    reads::num(&mut r, n);
    r.pair()
}

/// The string and place registers of `set_at(t, i, c)` where the new
/// letter `c` depends on nothing but the letter it replaces: `c` binds
/// `t[i]` and reads nothing else from outside (`flip(row[c])` on a row a
/// helper was given). Such a letter is a table of the old one's code.
pub fn set_from_itself(t: &Text, i: &Num, c: &Text) -> Option<(u32, u32)> {
    let (Text::Reg(text), Num::Reg(place), Text::Let(bind, body)) = (t, i, c) else {
        return None;
    };
    let Bind::Text { reg, value } = &**bind else {
        return None;
    };
    let Text::At(read, at) = value else {
        return None;
    };
    let same = matches!((&**read, &**at), (Text::Reg(r), Num::Reg(a)) if r == text && a == place);
    let (regs, key) = reads::outside_and_key(|o| {
        o.set_text(*reg);
        reads::text(o, body)
    })?;
    (same && regs.is_empty() && !key).then_some((*text, *place))
}

/// The element and the register a grid's row alone depends on (see
/// `num_pair`); `numbered`: whether the row's number is then looked up
/// among the rows met, which costs more than any memo.
pub fn row_pair(t: &Text, numbered: bool) -> Option<(Site, u32)> {
    if !numbered && cost::text(t) <= cost::MEMO {
        return None;
    }
    let mut r = Reads::default();
    reads::text(&mut r, t);
    r.pair()
}

impl Reads {
    /// The site, when the expression reads nothing else from outside.
    fn site(self) -> Option<Site> {
        if !self.extra.is_empty() {
            return None;
        }
        self.usable()
    }

    /// The site and the one other register read, when it reads nothing
    /// else from outside.
    fn pair(mut self) -> Option<(Site, u32)> {
        self.extra.sort_unstable();
        self.extra.dedup();
        let [extra] = self.extra[..] else {
            return None;
        };
        let site = self.usable()?;
        (extra != site.index).then_some((site, extra))
    }

    fn usable(&self) -> Option<Site> {
        let site = self.site?;
        let plain = !self.outside
            && !self.set.contains(&site.index)
            && !self.extra.contains(&site.index)
            && site.fields.len > 0
            && site.fields.width <= MAX_WIDTH;
        plain.then_some(site)
    }
}

impl Reads {
    fn at(&mut self, fields: &Fields, i: &Num, row: bool) {
        let site = match *i {
            Num::Reg(index) if !self.set.contains(&index) => Site {
                fields: *fields,
                index,
                row,
            },
            _ => return self.opaque(),
        };
        match self.site {
            None => self.site = Some(site),
            Some(s) if s == site => {}
            Some(_) => self.outside = true,
        }
    }
}

impl Visit for Reads {
    fn reg(&mut self, r: u32) {
        if !self.set.contains(&r) {
            self.extra.push(r);
        }
    }

    fn text_reg(&mut self, r: u32) {
        if !self.set_texts.contains(&r) {
            self.outside = true;
        }
    }

    /// `fields[i]`: the site when `i` is a register from outside, and the
    /// same site each time.
    fn element(&mut self, fields: &Fields, i: &Num) {
        self.at(fields, i, false);
    }

    /// A grid's row is a site as an element is; a cell is not.
    fn row(&mut self, fields: &Fields, r: &Num, c: Option<&Num>) {
        match c {
            None => self.at(fields, r, true),
            Some(_) => self.outside = true,
        }
    }

    fn fields(&mut self, _: &Fields) {
        self.outside = true;
    }

    fn key(&mut self) {
        self.outside = true;
    }

    fn opaque(&mut self) {
        self.outside = true;
    }

    fn set(&mut self, r: u32) {
        self.set.push(r);
    }

    fn set_text(&mut self, r: u32) {
        self.set_texts.push(r);
    }
}

#[cfg(test)]
mod tests {
    use super::super::leaves::Operand;
    use super::super::testing::{compiled, inside, same_options};

    const TURTLES: &str = include_str!("../../../bench/games/mock-turtles.game");
    const DIAL: &str = r#"
        fn turn(c: nat) = if c == 2 then 0 else c + 1;
        game Dial(xs: [nat]) {
          move spin(i in indices(xs), k in 0..i) if xs[i] > 0
            => Dial(set_at(set_at(xs, i, xs[i] - 1), k, turn(xs[k])));
        }
    "#;

    #[test]
    fn a_last_write_of_one_element_reads_a_table() {
        let (game, _) = compiled(TURTLES, r#"Turtles("HHHHHHH")"#, true);
        let code = &inside(&*game).code;
        let lasts: Vec<_> = code
            .rules
            .iter()
            .filter_map(|r| r.hoist.as_ref()?.last.as_ref())
            .collect();
        // `two` and `three`: each flips the coin at its last generator.
        assert_eq!(lasts.len(), 2);
        assert!(lasts
            .iter()
            .all(|last| matches!(last.value, Operand::Table { .. })));
    }

    /// A last write of a literal, and of an element plus one (which may
    /// outgrow its field).
    const SPILL: &str = r#"
        game Spill(xs: [nat]) {
          move clear(i in indices(xs), k in 0..i) if xs[i] > 0
            => Spill(set_at(set_at(xs, i, xs[i] - 1), k, 0));
          move bump(i in indices(xs), k in 1..i) if xs[i] > 1
            => Spill(set_at(set_at(xs, i, xs[i] - 2), k, xs[k] + 1));
        }
    "#;

    #[test]
    fn a_last_write_made_once_a_key_gives_the_options_step_by_step_code_gives() {
        let (game, _) = compiled(SPILL, "Spill([6, 1, 3, 2, 5])", true);
        let code = &inside(&*game).code;
        let lasts = code
            .rules
            .iter()
            .filter(|r| r.hoist.as_ref().is_some_and(|h| h.last.is_some()))
            .count();
        assert_eq!(lasts, 2);
        assert!(same_options(SPILL, "Spill([6, 1, 3, 2, 5])") > 100);
        // xs[1] + 1 is 8, past the field's three bits: both ways give the
        // start up.
        assert_eq!(same_options(SPILL, "Spill([1, 7, 1, 3])"), 1);
    }

    const CORNERS: &str = include_str!("../../../tests/unseen_games/corners.game");

    /// Turning Corners and Dials turn letters of a row a helper was given,
    /// each by a helper of the letter alone, or (`Inline`) by a test of
    /// the letter written in place.
    #[test]
    fn letters_set_from_themselves_give_the_options_step_by_step_code_gives() {
        let corners = r#"Corners(["HHHH", "HHHH", "HHHH"])"#;
        assert_eq!(same_options(CORNERS, corners), 1 << 6);
        let inline = r#"Inline(["HHHH", "HHHH", "HHHH"])"#;
        assert_eq!(same_options(CORNERS, inline), 1 << 6);
        assert!(same_options(CORNERS, r#"Dials(["OOO", "OXO"])"#) > 200);
    }

    #[test]
    fn tables_give_the_options_step_by_step_code_gives() {
        assert_eq!(same_options(TURTLES, r#"Turtles("HHHHHHH")"#), 1 << 7);
        // Every row with the last coin tails, and some with it heads.
        assert!(same_options(TURTLES, r#"Turtles("THTHHTH")"#) > 1 << 6);
        assert!(same_options(DIAL, "Dial([2, 2, 1, 2])") > 20);
        // turn(3) is past the field's width: the key's options stop alike.
        assert_eq!(same_options(DIAL, "Dial([3, 1, 2, 2])"), 1);
    }
}
