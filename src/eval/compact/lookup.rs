//! Expressions that depend on nothing but one element of a list or string
//! parameter, read at a register's index, worked out once for every value
//! that element's field can hold and then read off a table. Mock Turtles'
//! `flip(row[k])` (a helper, a test and two letters) is a function of the
//! letter at `k` alone: two entries, and the move's write reads one of
//! them. What an expression reads is found from the compiled code (which
//! registers it reads, which it sets), never from how the rules spell it.

use super::code::{Char, Num};
use super::layout::Fields;
use super::reads::{self, Visit};

/// Fields at most this wide are tabulated (a table of 2^8 entries at most).
const MAX_WIDTH: u32 = 8;

/// The one element an expression reads: field `index` of `fields`, where
/// `index` is the register that holds the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub fields: Fields,
    pub index: u32,
}

/// What an expression reads, as it is walked.
#[derive(Default)]
struct Reads {
    site: Option<Site>,
    /// Registers and string registers the expression sets itself (a
    /// helper's arguments): reading them reads nothing from outside.
    set: Vec<u32>,
    set_texts: Vec<u32>,
    /// Whether it reads anything else from outside: another register, the
    /// key, a row, a tuple, a second element.
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
    r.site()
}

/// The element a letter alone depends on (see `num_site`).
pub fn char_site(c: &Char) -> Option<Site> {
    if matches!(c, Char::Code(_) | Char::Reg(_) | Char::Cell(..)) {
        return None;
    }
    let mut r = Reads::default();
    reads::char(&mut r, c);
    r.site()
}

impl Reads {
    fn site(self) -> Option<Site> {
        let site = self.site?;
        let plain = !self.outside
            && !self.set.contains(&site.index)
            && site.fields.len > 0
            && site.fields.width <= MAX_WIDTH;
        plain.then_some(site)
    }
}

impl Visit for Reads {
    fn reg(&mut self, r: u32) {
        if !self.set.contains(&r) {
            self.outside = true;
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
        let site = match *i {
            Num::Reg(index) if !self.set.contains(&index) => Site {
                fields: *fields,
                index,
            },
            _ => return self.opaque(),
        };
        match self.site {
            None => self.site = Some(site),
            Some(s) if s == site => {}
            Some(_) => self.outside = true,
        }
    }

    fn row(&mut self, _: &Fields, _: &Num, _: Option<&Num>) {
        self.outside = true;
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
