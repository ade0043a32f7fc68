//! A rule whose result is an `if` on one of its generators against the
//! end of that generator's range, as the language guide's Mock Turtles
//! writes `a in 0..=i` and `if a == i then <one coin> else ...`, runs as
//! one rule a branch: the values below the end take one branch, the end
//! the other, in that order. Each branch is then a rule of its own, its
//! generator walking its part of the range, whose writes the fast paths
//! take (see `facts`, which works out what the narrower ranges decide).
//!
//! The options come in the order the one rule gives them: the rule of
//! the end runs, for each value of the generators before the split one,
//! right after the rule of the values below it (see `Follower`), reading
//! the values those generators hold.

use super::code::{Rule, Target};
use super::facts::{end_test, turned};
use crate::eval::ir::{Ir, IrKind, MoveIr};
use crate::syntax::ast::BinaryOp;

/// A rule run after another for each value of the other's first `depth`
/// generators, which it takes over (`copies`: from the other's register
/// to its own) rather than walks.
#[derive(Debug)]
pub struct Follower {
    pub depth: usize,
    pub copies: Vec<(Target, Target)>,
    pub rule: Rule,
}

/// The rules `m` runs as, in order, each after the first with the depth
/// at which it takes over from the rules before it.
pub fn pieces(m: &MoveIr) -> Vec<(Option<usize>, MoveIr)> {
    peeled(m.clone(), 0)
}

/// `m` split at the first generator from `floor` on that its result's
/// `if` splits, and each part split again further in.
fn peeled(m: MoveIr, floor: usize) -> Vec<(Option<usize>, MoveIr)> {
    let Some((depth, below, end)) = split(&m, floor) else {
        return vec![(None, m)];
    };
    let mut out = peeled(below, depth + 1);
    let mut rest = peeled(end, depth + 1);
    rest[0].0 = Some(depth);
    out.append(&mut rest);
    out
}

/// The rule of the values below the end of generator `depth` and the rule
/// of its end, where the result is a position one of whose arguments is
/// an `if` that tells them apart.
fn split(m: &MoveIr, floor: usize) -> Option<(usize, MoveIr, MoveIr)> {
    let IrKind::MakePos(_, args) = &m.result.kind else {
        return None;
    };
    args.iter().enumerate().find_map(|(arg, a)| {
        let IrKind::If(test, then, otherwise) = &a.kind else {
            return None;
        };
        let (depth, end_first) = at_end(m, test, floor)?;
        let (at_end, below) = if end_first {
            (then, otherwise)
        } else {
            (otherwise, then)
        };
        let part = |branch: &Ir, end: bool| {
            let mut part = m.clone();
            let IrKind::MakePos(_, args) = &mut part.result.kind else {
                return None;
            };
            args[arg] = branch.clone();
            let g = &mut part.generators[depth];
            let IrKind::Binary(op, _, hi) = &mut g.source.kind else {
                return None;
            };
            if !end {
                *op = BinaryOp::RangeExclusive;
                return Some(part);
            }
            // The end: the range kept (it may be empty), its values tested
            // first against its end (see `facts`, which narrows the range).
            let span = test.span;
            let at_end = Ir {
                kind: IrKind::Binary(
                    BinaryOp::Eq,
                    Box::new(Ir {
                        kind: IrKind::Local(g.slot),
                        span,
                    }),
                    hi.clone(),
                ),
                span,
            };
            part.guard = Some(match part.guard.take() {
                Some(guard) => Ir {
                    kind: IrKind::Binary(BinaryOp::And, Box::new(at_end), Box::new(guard)),
                    span,
                },
                None => at_end,
            });
            Some(part)
        };
        Some((depth, part(below, false)?, part(at_end, true)?))
    })
}

/// The generator (from `floor` on) whose end `test` compares it with,
/// when its range `lo..=hi` reads variables or literals alone, and
/// whether the test holds at the end (else below it).
fn at_end(m: &MoveIr, test: &Ir, floor: usize) -> Option<(usize, bool)> {
    let IrKind::Binary(op, l, r) = &test.kind else {
        return None;
    };
    m.generators
        .iter()
        .enumerate()
        .skip(floor)
        .find_map(|(depth, g)| {
            let IrKind::Binary(BinaryOp::RangeInclusive, lo, hi) = &g.source.kind else {
                return None;
            };
            if !plain(lo) || !plain(hi) {
                return None;
            }
            let var = |x: &Ir| matches!(x.kind, IrKind::Local(s) if s == g.slot);
            let end = |x: &Ir| same_plain(x, hi);
            // `x op hi`, or `hi op x` turned round.
            let op = if var(l) && end(r) {
                *op
            } else if end(l) && var(r) {
                turned(*op)
            } else {
                return None;
            };
            Some((depth, end_test(op)?))
        })
}

/// A variable or a literal: read without an error, as often as asked.
fn plain(x: &Ir) -> bool {
    matches!(x.kind, IrKind::Local(_) | IrKind::Lit(_))
}

fn same_plain(x: &Ir, y: &Ir) -> bool {
    match (&x.kind, &y.kind) {
        (IrKind::Local(a), IrKind::Local(b)) => a == b,
        (IrKind::Lit(a), IrKind::Lit(b)) => a == b,
        _ => false,
    }
}

/// The rules of `pieces` (each with the depth at which it takes over,
/// none for a rule of its own) with each follower put in the rule it
/// follows: the nearest before it that takes over less deep.
pub fn nest(pieces: Vec<(Option<usize>, Rule)>) -> Vec<Rule> {
    let mut out = Vec::new();
    let mut open: Vec<(Option<usize>, Rule)> = Vec::new();
    for (joins, rule) in pieces {
        while open.last().is_some_and(|(j, _)| j.is_some() && *j >= joins) {
            close(&mut open, &mut out);
        }
        if joins.is_none() {
            while !open.is_empty() {
                close(&mut open, &mut out);
            }
        }
        open.push((joins, rule));
    }
    while !open.is_empty() {
        close(&mut open, &mut out);
    }
    out
}

/// The last open rule put in the one before it, or among the rules.
fn close(open: &mut Vec<(Option<usize>, Rule)>, out: &mut Vec<Rule>) {
    let Some((joins, rule)) = open.pop() else {
        return;
    };
    match (joins, open.last_mut()) {
        (Some(depth), Some((_, owner))) => {
            // A rule is followed only where it walks on past the depth:
            // the loop there runs the followers for each value.
            debug_assert!(depth < owner.gens.len(), "a follower past the rule's loops");
            let copies = owner.gens[..depth]
                .iter()
                .zip(&rule.gens)
                .map(|(from, to)| (from.target, to.target))
                .collect();
            owner.after.push(Follower {
                depth,
                copies,
                rule,
            });
        }
        _ => out.push(rule),
    }
}

/// How many rules, followers and all, keep hoisted writes (see `hoist`).
pub fn hoists(rules: &[Rule]) -> usize {
    rules.iter().map(hoisted).sum()
}

fn hoisted(rule: &Rule) -> usize {
    let own = usize::from(rule.hoist.is_some());
    own + rule.after.iter().map(|f| hoisted(&f.rule)).sum::<usize>()
}

impl super::run::Machine {
    /// The options of the rules that follow `rule` at `depth`, for the
    /// values its generators hold.
    #[inline(never)]
    pub(super) fn follow(&mut self, rule: &Rule, depth: usize, out: &mut Vec<u64>) -> Option<()> {
        for next in rule.after.iter().filter(|f| f.depth == depth) {
            self.take_over(next);
            self.generate(&next.rule, depth, out)?;
        }
        Some(())
    }

    /// The values of the generators `next` takes over, put in its own
    /// registers.
    pub(super) fn take_over(&mut self, next: &Follower) {
        for (from, to) in &next.copies {
            match (*from, *to) {
                (Target::Reg(f), Target::Reg(t)) => self.regs[t as usize] = self.regs[f as usize],
                (Target::Tuple(f), Target::Tuple(t)) if f != t => {
                    let from = std::mem::take(&mut self.tuples[f as usize]);
                    self.tuples[t as usize].clone_from(&from);
                    self.tuples[f as usize] = from;
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const GUIDE: &str =
        include_str!("../../../bench/games/search-rewrites/mock-turtles-guide.game");

    /// The depths at which the rules of each rule's branches follow it.
    fn followers(source: &str, position: &str) -> Vec<Vec<usize>> {
        let (game, _) = compiled(source, position, true);
        let code = &inside(&*game).code;
        code.rules
            .iter()
            .map(|r| r.after.iter().map(|f| f.depth).collect())
            .collect()
    }

    #[test]
    fn the_guides_one_rule_runs_as_a_rule_a_number_of_coins() {
        // Two coins or three (`b` below `a` or at it) for each `a` below
        // `i`, then one coin at `a == i`.
        assert_eq!(followers(GUIDE, r#"Turtles("HTHHT")"#), [vec![2, 1]]);
        let (game, _) = compiled(GUIDE, r#"Turtles("HTHHT")"#, true);
        let three = &inside(&*game).code.rules[0];
        let last = three.hoist.as_ref().and_then(|h| h.last.as_ref());
        assert!(last.is_some_and(|l| l.table.is_some()));
        assert_eq!(same_options(GUIDE, r#"Turtles("HHHHHHHHH")"#), 1 << 9);
    }

    /// Branches on generators that do not split a range at its end: `a`
    /// against a bound it never reaches, `b` against another generator,
    /// and a test that holds at both ends of the range.
    const ELSEWHERE: &str = r#"
        fn flip(row: str, j: nat) = set_at(row, j, if row[j] == "H" then "T" else "H");
        game Turtles(row: str) {
          move below(i in indices(row), a in 0..i) if row[i] == "H"
            => Turtles(if a == i then flip(row, i) else flip(flip(row, i), a));
          move other(i in indices(row), a in 0..=i, b in 0..=i) if row[i] == "H" and b < a
            => Turtles(if b == a then flip(row, i) else flip(flip(row, i), b));
          move always(i in indices(row), a in 0..=i) if row[i] == "H"
            => Turtles(if a <= i then flip(row, i) else flip(flip(row, i), a));
        }
    "#;

    #[test]
    fn branches_that_do_not_split_a_range_at_its_end_stay_one_rule() {
        let position = r#"Turtles("HTHHTH")"#;
        assert_eq!(followers(ELSEWHERE, position), vec![Vec::<usize>::new(); 3]);
        assert!(same_options(ELSEWHERE, position) > 40);
    }

    /// The end is the first value where the range runs downwards from a
    /// variable: `hi..=lo` written with the end a literal, and tests
    /// written the other way round (`i != a`, `i > a`).
    const TURNED: &str = r#"
        fn flip(row: str, j: nat) = set_at(row, j, if row[j] == "H" then "T" else "H");
        game Turtles(row: str) {
          move ne(i in indices(row), a in 0..=i) if row[i] == "H"
            => Turtles(if i != a then flip(flip(row, i), a) else flip(row, i));
          move gt(i in indices(row), a in 0..=i, b in 0..=3) if row[i] == "H" and b < len(row)
            => Turtles(if i > a then flip(flip(row, i), a) else if b >= 3 then flip(row, i)
                       else flip(flip(row, i), b));
        }
    "#;

    #[test]
    fn split_ranges_give_the_options_in_the_one_rules_order() {
        let position = r#"Turtles("HHTHHH")"#;
        assert_eq!(followers(TURNED, position), [vec![1], vec![1]]);
        assert!(same_options(TURNED, position) > 40);
        assert!(same_options(TURNED, r#"Turtles("THHHHHH")"#) > 60);
    }

    /// A range that may be empty (`2..=n` with `n` below 2) has no end
    /// to take: its rule of the end makes nothing there either.
    const STEPS: &str = r#"
        game Steps(n: nat) {
          move take(k in 2..=n) => Steps(if k == n then n - 1 else n - k);
          move both(j in 0..=n, k in 3..=j) => Steps(if k != j then n - k else n - 1);
        }
    "#;

    #[test]
    fn an_empty_range_has_no_end() {
        assert_eq!(followers(STEPS, "Steps(9)"), [vec![0], vec![1]]);
        // Steps(0) is out of reach: a move leaves at least 1.
        assert_eq!(same_options(STEPS, "Steps(9)"), 9);
        assert_eq!(same_options(STEPS, "Steps(1)"), 1);
    }
}
