//! A rule whose result is an `if` on one of its generators against the
//! end of that generator's range, as the language guide's Mock Turtles
//! writes `a in 0..=i` and `if a == i then <one coin> else ...`, runs as
//! one rule a branch: one whose generator walks the values below the end,
//! and one whose generator stops at the end alone. Each is then a rule of
//! its own, whose writes the fast paths take (see `facts`, which works out
//! what the narrower ranges decide, and drops a last loop of one value).
//!
//! The rules give the options of the one rule, in another order: the
//! rules of a value search need only the options, and a listing, which
//! needs their order, runs the rule as it is written.

use super::facts::{end_test, turned};
use crate::eval::ir::{Ir, IrKind, MoveIr};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

/// The rules `m` runs as.
pub fn pieces(m: &MoveIr) -> Vec<MoveIr> {
    peeled(m.clone(), 0)
}

/// `m` split at the first generator from `floor` on that its result's
/// `if` splits, and each part split again further in.
fn peeled(m: MoveIr, floor: usize) -> Vec<MoveIr> {
    let Some((depth, below, end)) = split(&m, floor) else {
        return vec![m];
    };
    let mut out = peeled(below, depth + 1);
    out.append(&mut peeled(end, depth + 1));
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
            let (_, last) = last_value(&g.source)?;
            let last = last.clone();
            let IrKind::Binary(op, _, hi) = &mut g.source.kind else {
                return None;
            };
            if !end {
                // The values below the last: `lo..last`.
                *op = BinaryOp::RangeExclusive;
                **hi = last;
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
                    Box::new(last),
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

/// The generator (from `floor` on) whose last value `test` compares it
/// with, when its range reads variables or literals alone (see
/// `last_value`), and whether the test holds at the end (else below it).
fn at_end(m: &MoveIr, test: &Ir, floor: usize) -> Option<(usize, bool)> {
    let IrKind::Binary(op, l, r) = &test.kind else {
        return None;
    };
    m.generators
        .iter()
        .enumerate()
        .skip(floor)
        .find_map(|(depth, g)| {
            let (lo, hi) = last_value(&g.source)?;
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

/// The first and last values of a range whose last is written out:
/// `lo..=hi`, or `lo..hi + 1` and `lo..1 + hi`, which hold the same
/// values. The rule of the end keeps the range as written, so a `hi + 1`
/// that overflows still fails there.
fn last_value(range: &Ir) -> Option<(&Ir, &Ir)> {
    let IrKind::Binary(op, lo, hi) = &range.kind else {
        return None;
    };
    match op {
        BinaryOp::RangeInclusive => Some((lo, hi)),
        BinaryOp::RangeExclusive => {
            let IrKind::Binary(BinaryOp::Add, a, b) = &hi.kind else {
                return None;
            };
            let one = |x: &Ir| matches!(x.kind, IrKind::Lit(Value::Int(1)));
            match (one(a), one(b)) {
                (false, true) => Some((lo, a)),
                (true, false) => Some((lo, b)),
                _ => None,
            }
        }
        _ => None,
    }
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

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const GUIDE: &str =
        include_str!("../../../bench/games/search-rewrites/mock-turtles-guide.game");

    /// How many rules the game's rules compile to.
    fn rules(source: &str, position: &str) -> usize {
        let (game, _) = compiled(source, position, true);
        inside(&*game).code.rules.len()
    }

    #[test]
    fn the_guides_one_rule_runs_as_a_rule_a_number_of_coins() {
        // Three coins (`b` below `a` below `i`), two (`b` at `a`), and one
        // (`a` at `i`).
        assert_eq!(rules(GUIDE, r#"Turtles("HTHHT")"#), 3);
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
        assert_eq!(rules(ELSEWHERE, position), 3);
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
    fn ranges_split_the_other_way_round_give_the_one_rules_options() {
        let position = r#"Turtles("HHTHHH")"#;
        assert_eq!(rules(TURNED, position), 5);
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
        assert_eq!(rules(STEPS, "Steps(9)"), 4);
        // Steps(0) is out of reach: a move leaves at least 1.
        assert_eq!(same_options(STEPS, "Steps(9)"), 9);
        assert_eq!(same_options(STEPS, "Steps(1)"), 1);
    }
}
