//! Choices among a row's steps settled when the code is compiled. A
//! helper's arguments are bound to registers of their own, so a rule that
//! covers two cells through a helper compares registers that hold the same
//! number (`r == r`), or a row number with the grid's length where the
//! generator walking it already stops short of it. What the compiled code
//! knows settles such a test for every key of the layout: which register
//! holds another's number plus an amount (a bind), and between which ends
//! each generator's register runs (its range, whose ends the layout
//! fixes). The side a settled test takes replaces the choice, and a bind
//! no step reads any more, which cannot fail, is dropped.

use super::super::code::{Gen, Num, Seq, Source, Target, Text, Truth};
use super::Edit;
use crate::eval::arith::compare;
use crate::syntax::ast::BinaryOp;

/// A number as a register's number plus an amount, or an amount alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Form {
    base: Option<u32>,
    amount: i64,
}

/// What is known of the registers where a step runs.
#[derive(Clone, Debug, Default)]
struct Facts {
    /// Registers bound to another's number plus an amount.
    forms: Vec<(u32, Form)>,
    /// The least and greatest number a generator's register takes.
    ends: Vec<(u32, (i64, i64))>,
}

impl Facts {
    /// The ends of every generator's register that walks a range between
    /// numbers known when compiling: the writes run with every generator
    /// set.
    fn of_generators(gens: &[Gen]) -> Facts {
        let mut facts = Facts::default();
        for gen in gens {
            let (Target::Reg(r), Source::Each(Seq::Range(lo, hi, inclusive))) =
                (gen.target, &gen.source)
            else {
                continue;
            };
            let ends = facts.ends(lo).zip(facts.ends(hi));
            if let Some(((lo, _), (_, hi))) = ends {
                let hi = if *inclusive {
                    Some(hi)
                } else {
                    hi.checked_sub(1)
                };
                if let Some(hi) = hi.filter(|&hi| lo <= hi) {
                    facts.ends.push((r, (lo, hi)));
                }
            }
        }
        facts
    }

    /// The least and greatest number `n` can be, where that is known:
    /// sums and differences of numbers whose ends are, either side of a
    /// choice, and the length of a grid's row, which the layout fixes.
    fn ends(&self, n: &Num) -> Option<(i64, i64)> {
        if let Some(ends) = self.form(n).and_then(|f| self.ends_of(f)) {
            return Some(ends);
        }
        match n {
            Num::Binary(BinaryOp::Add, a, b) => {
                let ((alo, ahi), (blo, bhi)) = (self.ends(a)?, self.ends(b)?);
                Some((alo.checked_add(blo)?, ahi.checked_add(bhi)?))
            }
            Num::Binary(BinaryOp::Sub, a, b) => {
                let ((alo, ahi), (blo, bhi)) = (self.ends(a)?, self.ends(b)?);
                Some((alo.checked_sub(bhi)?, ahi.checked_sub(blo)?))
            }
            Num::If(test, a, b) => match self.holds(test) {
                Some(true) => self.ends(a),
                Some(false) => self.ends(b),
                None => {
                    let ((alo, ahi), (blo, bhi)) = (self.ends(a)?, self.ends(b)?);
                    Some((alo.min(blo), ahi.max(bhi)))
                }
            },
            Num::TextLen(t) => match **t {
                Text::Row(_, cols, _) => Some((i64::from(cols), i64::from(cols))),
                _ => None,
            },
            _ => None,
        }
    }

    fn form(&self, n: &Num) -> Option<Form> {
        let plus = |f: Form, k: i64| {
            Some(Form {
                base: f.base,
                amount: f.amount.checked_add(k)?,
            })
        };
        match n {
            Num::Lit(v) => Some(Form {
                base: None,
                amount: *v,
            }),
            Num::Reg(r) => Some(self.form_of(*r).unwrap_or(Form {
                base: Some(*r),
                amount: 0,
            })),
            Num::Binary(BinaryOp::Add, a, b) => match (self.form(a)?, self.form(b)?) {
                (f, Form { base: None, amount }) | (Form { base: None, amount }, f) => {
                    plus(f, amount)
                }
                _ => None,
            },
            Num::Binary(BinaryOp::Sub, a, b) => match self.form(b)? {
                Form { base: None, amount } => plus(self.form(a)?, amount.checked_neg()?),
                _ => None,
            },
            // A choice settled here is its side (a flag written out as
            // `true` or `false` is one).
            Num::If(test, a, b) => match self.holds(test)? {
                true => self.form(a),
                false => self.form(b),
            },
            _ => None,
        }
    }

    fn form_of(&self, r: u32) -> Option<Form> {
        self.forms
            .iter()
            .rev()
            .find(|(reg, _)| *reg == r)
            .map(|f| f.1)
    }

    /// The least and greatest number of a form, where its register's are
    /// known (so that working it out cannot overflow either).
    fn ends_of(&self, f: Form) -> Option<(i64, i64)> {
        let (lo, hi) = match f.base {
            None => (0, 0),
            Some(r) => self.ends.iter().rev().find(|(reg, _)| *reg == r)?.1,
        };
        Some((lo.checked_add(f.amount)?, hi.checked_add(f.amount)?))
    }

    /// Whether `test` holds for every key, or fails for every key.
    fn holds(&self, test: &Truth) -> Option<bool> {
        match test {
            Truth::Lit(v) => Some(*v),
            Truth::Compare(op, a, b) => self.settle(*op, a, b),
            Truth::Not(t) => Some(!self.holds(t)?),
            _ => None,
        }
    }

    /// Whether `a op b` holds for every key, or fails for every key.
    fn settle(&self, op: BinaryOp, a: &Num, b: &Num) -> Option<bool> {
        let (fa, fb) = (self.form(a)?, self.form(b)?);
        // The same register on both sides: the amounts decide, where the
        // numbers are worked out without overflow (plain copies, or a
        // register whose ends are known).
        let plain = fa.amount == 0 && fb.amount == 0;
        if fa.base == fb.base && (plain || self.ends_of(fa).is_some() && self.ends_of(fb).is_some())
        {
            return compare(op, fa.amount, fb.amount);
        }
        let ((alo, ahi), (blo, bhi)) = (self.ends(a)?, self.ends(b)?);
        let (always, never) = match op {
            BinaryOp::Lt => (ahi < blo, alo >= bhi),
            BinaryOp::Le => (ahi <= blo, alo > bhi),
            BinaryOp::Gt => (alo > bhi, ahi <= blo),
            BinaryOp::Ge => (alo >= bhi, ahi < blo),
            BinaryOp::Eq => (
                alo == ahi && blo == bhi && alo == blo,
                ahi < blo || bhi < alo,
            ),
            BinaryOp::Ne => (
                ahi < blo || bhi < alo,
                alo == ahi && blo == bhi && alo == blo,
            ),
            _ => (false, false),
        };
        (always || never).then_some(always)
    }

    /// Register `reg` bound to `value` (checked natural when `nat`):
    /// whether the bind can be dropped when no step reads the register.
    fn bound(&mut self, reg: u32, value: &Num, nat: bool) -> bool {
        let form = self.form(value);
        self.forget(reg);
        let Some(form) = form else {
            return false;
        };
        self.forms.push((reg, form));
        // Worked out with no overflow (nor by a loop's span on top), and
        // natural where it must be.
        self.ends_of(form).is_some_and(|(lo, hi)| {
            (!nat || lo >= 0) && hi.checked_add(i64::from(u32::MAX)).is_some()
        })
    }

    /// Register `reg` set to what is not known.
    fn forget(&mut self, reg: u32) {
        self.forms.retain(|(r, f)| *r != reg && f.base != Some(reg));
        self.ends.retain(|(r, _)| *r != reg);
    }

    /// `n` reading the register it copies where it reads a copy: the
    /// register the copy is of, or the first register still bound to the
    /// same number.
    fn plain(&self, n: Num) -> Num {
        let Num::Reg(r) = n else {
            return n;
        };
        match self.form_of(r) {
            Some(Form {
                base: Some(b),
                amount: 0,
            }) => Num::Reg(b),
            Some(f) => {
                let first = self.forms.iter().find(|(_, g)| *g == f);
                Num::Reg(first.map_or(r, |(s, _)| *s))
            }
            None => n,
        }
    }

    /// Whether `a` and `b` are the same number for every key.
    fn same(&self, a: &Num, b: &Num) -> bool {
        self.form(a).is_some_and(|f| self.form(b) == Some(f))
    }

    /// Whether `later` reads the row `first` reads and puts every letter
    /// it puts, with no bind or choice in `first`: then `first` cannot
    /// fail where `later` does not.
    fn covers(&self, first: &[Edit<Num>], later: &[Edit<Num>]) -> bool {
        let made_later = |step: &Edit<Num>| {
            later.iter().any(|l| match (step, l) {
                (Edit::Read(a), Edit::Read(b)) => self.same(a, b),
                (Edit::Letter { at: a, code: x }, Edit::Letter { at: b, code: y }) => {
                    x == y && self.same(a, b)
                }
                _ => false,
            })
        };
        first.iter().all(made_later)
    }

    /// `steps` with every choice the facts settle replaced by its side;
    /// the binds put on `dropped` are those that may go if nothing reads
    /// their registers. What either side of a choice left standing binds
    /// is unknown after it.
    fn steps(&mut self, steps: Vec<Edit<Num>>, dropped: &mut Vec<u32>) -> Vec<Edit<Num>> {
        let mut made = Vec::with_capacity(steps.len());
        for step in steps {
            match step {
                Edit::Bind { reg, value, nat } => {
                    let value = self.plain(value);
                    if self.bound(reg as u32, &value, nat) {
                        dropped.push(reg as u32);
                    }
                    made.push(Edit::Bind { reg, value, nat });
                }
                Edit::Read(i) => made.push(Edit::Read(self.plain(i))),
                Edit::Letter { at, code } => made.push(Edit::Letter {
                    at: self.plain(at),
                    code,
                }),
                Edit::Choose {
                    op,
                    a,
                    b,
                    then,
                    otherwise,
                } => match self.settle(op, &a, &b) {
                    Some(holds) => {
                        let side = if holds { then } else { otherwise };
                        made.extend(self.steps(side, dropped));
                    }
                    None => {
                        let (a, b) = (self.plain(a), self.plain(b));
                        let mut other = self.clone();
                        let then = self.steps(then, dropped);
                        let otherwise = other.steps(otherwise, dropped);
                        let mut bound = Vec::new();
                        binds(&then, &mut bound);
                        binds(&otherwise, &mut bound);
                        bound.into_iter().for_each(|r| self.forget(r));
                        made.push(Edit::Choose {
                            op,
                            a,
                            b,
                            then,
                            otherwise,
                        });
                    }
                },
                Edit::Row(row, steps) => {
                    let (row, steps) = (self.plain(row), self.steps(steps, dropped));
                    // A row written again starts from the key's row,
                    // dropping the letters an earlier write put there (see
                    // `put_edits`): an earlier write of the same row whose
                    // every step the later one makes too is not made.
                    let earlier = made.iter().rposition(|s| matches!(s, Edit::Row(..)));
                    if let Some(i) = earlier {
                        if let Edit::Row(first_row, first) = &made[i] {
                            if self.same(first_row, &row) && self.covers(first, &steps) {
                                made.remove(i);
                            }
                        }
                    }
                    made.push(Edit::Row(row, steps));
                }
            }
        }
        made
    }
}

/// `steps` with the choices the generators' ranges settle taken, and
/// the binds no step then reads dropped.
pub fn settled(steps: Vec<Edit<Num>>, gens: &[Gen]) -> Vec<Edit<Num>> {
    let mut dropped = Vec::new();
    let steps = Facts::of_generators(gens).steps(steps, &mut dropped);
    let mut read = Vec::new();
    match step_reads(&steps, &mut read) {
        Some(()) => unread(steps, &dropped, &read),
        None => steps,
    }
}

/// The registers `steps` bind, on either side of their choices, onto
/// `bound`.
fn binds(steps: &[Edit<Num>], bound: &mut Vec<u32>) {
    for step in steps {
        match step {
            Edit::Bind { reg, .. } => bound.push(*reg as u32),
            Edit::Choose {
                then, otherwise, ..
            } => {
                binds(then, bound);
                binds(otherwise, bound);
            }
            Edit::Row(_, steps) => binds(steps, bound),
            _ => {}
        }
    }
}

/// The registers `steps` read, onto `regs`.
fn step_reads(steps: &[Edit<Num>], regs: &mut Vec<u32>) -> Option<()> {
    for step in steps {
        match step {
            Edit::Bind { value, .. } => value.reads(regs)?,
            Edit::Read(i) => i.reads(regs)?,
            Edit::Letter { at, .. } => at.reads(regs)?,
            Edit::Choose {
                a,
                b,
                then,
                otherwise,
                ..
            } => {
                a.reads(regs)?;
                b.reads(regs)?;
                step_reads(then, regs)?;
                step_reads(otherwise, regs)?;
            }
            Edit::Row(row, steps) => {
                row.reads(regs)?;
                step_reads(steps, regs)?;
            }
        }
    }
    Some(())
}

/// `steps` without the binds on `dropped` that no step reads.
fn unread(steps: Vec<Edit<Num>>, dropped: &[u32], read: &[u32]) -> Vec<Edit<Num>> {
    steps
        .into_iter()
        .filter_map(|step| match step {
            Edit::Bind { reg, .. }
                if dropped.contains(&(reg as u32)) && !read.contains(&(reg as u32)) =>
            {
                None
            }
            Edit::Choose {
                op,
                a,
                b,
                then,
                otherwise,
            } => Some(Edit::Choose {
                op,
                a,
                b,
                then: unread(then, dropped, read),
                otherwise: unread(otherwise, dropped, read),
            }),
            Edit::Row(row, steps) => Some(Edit::Row(row, unread(steps, dropped, read))),
            step => Some(step),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::super::testing::{compiled, inside, same_options};

    const ONE_RULE: &str =
        include_str!("../../../../bench/games/search-rewrites/cram-one-rule.game");
    const DOMINO: &str = include_str!("../../../../bench/games/search-rewrites/cram-domino.game");
    const GUIDE: &str = include_str!("../../../../bench/games/search-rewrites/cram-guide.game");

    /// A cell covered on a board whose other cell was just covered in a
    /// row `s` that is no copy of `r`: the test `s == r` stays.
    const ANY_ROW: &str = r##"
fn cover(g: grid, r: nat, c: nat) = set_at(g, r, set_at(g[r], c, "#"));
game Cram(g: grid) {
  move m(r in indices(g), s in indices(g), c in 0..len(g[r]) - 1)
    if g[r][c] == "." and g[s][c + 1] == "."
    => Cram(cover(cover(g, r, c), s, c + 1));
}
"##;

    /// A row walked one past the board's last, the guard keeping it on
    /// the board: the walk's end is worked out (`len(g) + 1` is a
    /// literal), and the guard cuts it at the board's last row.
    const PAST_THE_END: &str = r##"
fn cover(g: grid, r: nat, c: nat) = set_at(g, r, set_at(g[r], c, "#"));
game Cram(g: grid) {
  move across(r in 0..len(g) + 1, c in 0..3)
    if r < len(g) and g[r][c] == "." and g[r][c + 1] == "."
    => Cram(cover(cover(g, r, c), r, c + 1));
}
"##;

    /// The choices left in the innermost loops' writes that run as
    /// letters moving along.
    fn choices(text: &str, start: &str) -> Vec<usize> {
        counted(text, start, "Choose")
    }

    /// How often `what` shows in the innermost loops' writes that run as
    /// letters moving along.
    fn counted(text: &str, start: &str, what: &str) -> Vec<usize> {
        let (game, _) = compiled(text, start, true);
        let code = &inside(&*game).code;
        code.rules
            .iter()
            .filter_map(|r| r.sieves.last()?.as_ref()?.shifting.as_ref())
            .map(|s| format!("{s:?}").matches(what).count())
            .collect()
    }

    #[test]
    fn a_copy_compared_with_its_register_is_settled() {
        let board = r#"Cram(["....", "....", "...."])"#;
        assert_eq!(choices(GUIDE, board), [0, 0]);
        // The row read back is the one written only across (`dr` is 0):
        // run as one rule a direction, `dr` is known in each, and no
        // choice stays.
        assert_eq!(choices(ONE_RULE, board), [0, 0]);
        assert_eq!(choices(DOMINO, board), [0, 0]);
        assert_eq!(choices(ANY_ROW, board), [1]);
        // Across, the guide covers two cells of one row, each cover a
        // write of the row: the second puts both letters, so the first
        // goes. Down, it writes two rows.
        assert_eq!(counted(GUIDE, board, "Row("), [1, 2]);
        assert_eq!(counted(ANY_ROW, board, "Row("), [2]);
        assert_eq!(choices(PAST_THE_END, board), [0]);
    }

    /// Every key reachable from the board, with the same options from the
    /// code whose choices are settled as from the code run step by step.
    #[test]
    fn settled_choices_give_the_options_of_the_steps() {
        for text in [ONE_RULE, DOMINO, GUIDE, ANY_ROW] {
            assert!(same_options(text, r#"Cram(["....", "....", "...."])"#) > 100);
        }
        assert!(same_options(PAST_THE_END, r#"Cram(["....", "....", "...."])"#) > 50);
    }
}
