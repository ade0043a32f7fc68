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

use super::compile::children_mut;
use super::facts::{end_test, passing, turned};
use crate::eval::ir::{Ir, IrKind, MoveIr};
use crate::eval::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};

/// Most rules one rule may run as: a chain of `if`s longer than this
/// runs as written.
const MOST_BRANCHES: usize = 16;

/// The rules `m` runs as.
pub fn pieces(m: &MoveIr) -> Vec<MoveIr> {
    let mut out = Vec::new();
    for branch in branches(m.clone()) {
        out.append(&mut peeled(branch, 0));
    }
    out
}

/// `m` as one rule for each branch of its result's `if`s (`=> if which
/// == 0 then W(x - k, y) else W(x, y - k)`): each rule's guard adds its
/// branch's test (or the test's negation), before the guard where the
/// test cannot fail, so that a test of the generators alone narrows
/// their ranges (see `facts`), else after it, where the result made it.
fn branches(whole: MoveIr) -> Vec<MoveIr> {
    let mut out = Vec::new();
    let mut todo = vec![whole.clone()];
    while let Some(m) = todo.pop() {
        let IrKind::If(test, then, otherwise) = &m.result.kind else {
            out.push(m);
            continue;
        };
        if out.len() + todo.len() + 2 > MOST_BRANCHES {
            return vec![whole];
        }
        let span = test.span;
        let negated = negation(test);
        let branch = |test: Ir, result: &Ir| {
            let first = cannot_fail(&test);
            if first {
                if let Some(pinned) = pinned(&m, &test, result) {
                    return pinned;
                }
            }
            let guard = match m.guard.clone() {
                None => test,
                Some(guard) => {
                    // Made first, a test skips the guard where it fails,
                    // and with it any error the guard meets there; the
                    // other branch's rule, whose test holds there, meets
                    // that error. Only a test that may fail itself is made
                    // where the result made it.
                    let (a, b) = if first { (test, guard) } else { (guard, test) };
                    Ir {
                        kind: IrKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
                        span,
                    }
                }
            };
            Some(MoveIr {
                guard: Some(guard),
                result: result.clone(),
                ..m.clone()
            })
        };
        // Kept in the order written: `otherwise` is taken after `then`.
        todo.extend(branch(negated, otherwise));
        todo.extend(branch((**test).clone(), then));
    }
    out
}

/// The rule of one branch where its test compares a generator over a
/// range of literals with a literal (`d == 0` for `d in 0..2`): with the
/// generator's range cut to the values that pass, or the generator gone
/// and its one value put where it was read; no rule where none passes.
/// The test is made first (it cannot fail), so the values that fail it
/// are the other branch's, which meets any error they lead to.
fn pinned(m: &MoveIr, test: &Ir, result: &Ir) -> Option<Option<MoveIr>> {
    let IrKind::Binary(op, a, b) = &test.kind else {
        return None;
    };
    let (slot, op, v) = match (&a.kind, &b.kind) {
        (IrKind::Local(s), IrKind::Lit(Value::Int(v))) => (*s, *op, *v),
        (IrKind::Lit(Value::Int(v)), IrKind::Local(s)) => (*s, turned(*op), *v),
        _ => return None,
    };
    let depth = m.generators.iter().position(|g| g.slot == slot)?;
    let (lo, end) = literal_range(&m.generators[depth].source)?;
    let (lo, end) = passing(op, v, (lo, end))?;
    if lo >= end {
        return Some(None);
    }
    let mut rule = MoveIr {
        result: result.clone(),
        ..m.clone()
    };
    let span = test.span;
    let int = |v: i64| Ir {
        kind: IrKind::Lit(Value::Int(v)),
        span,
    };
    if end - lo > 1 {
        let IrKind::Binary(range, from, to) = &mut rule.generators[depth].source.kind else {
            return None;
        };
        (*range, **from, **to) = (BinaryOp::RangeExclusive, int(lo), int(end));
        return Some(Some(rule));
    }
    rule.generators.remove(depth);
    let put = |ir: &mut Ir| put_value(ir, slot, lo);
    rule.generators[depth..]
        .iter_mut()
        .for_each(|g| put(&mut g.source));
    rule.guard.iter_mut().for_each(put);
    put(&mut rule.result);
    Some(Some(rule))
}

/// The ends of a range between literals, as `lo..end`.
fn literal_range(source: &Ir) -> Option<(i64, i64)> {
    let IrKind::Binary(op, lo, hi) = &source.kind else {
        return None;
    };
    let (IrKind::Lit(Value::Int(lo)), IrKind::Lit(Value::Int(hi))) = (&lo.kind, &hi.kind) else {
        return None;
    };
    match op {
        BinaryOp::RangeExclusive => Some((*lo, *hi)),
        BinaryOp::RangeInclusive => Some((*lo, hi.checked_add(1)?)),
        _ => None,
    }
}

/// `ir` with `value` where it reads `slot`.
fn put_value(ir: &mut Ir, slot: u32, value: i64) {
    if matches!(ir.kind, IrKind::Local(s) if s == slot) {
        ir.kind = IrKind::Lit(Value::Int(value));
        return;
    }
    children_mut(ir, |child| put_value(child, slot, value));
}

/// `not test`, a comparison turned into its opposite (`d != 0` for `d ==
/// 0`), which the facts read as they read the test.
fn negation(test: &Ir) -> Ir {
    let kind = match &test.kind {
        IrKind::Binary(op, a, b) => {
            let opposite = match op {
                BinaryOp::Eq => Some(BinaryOp::Ne),
                BinaryOp::Ne => Some(BinaryOp::Eq),
                BinaryOp::Lt => Some(BinaryOp::Ge),
                BinaryOp::Ge => Some(BinaryOp::Lt),
                BinaryOp::Le => Some(BinaryOp::Gt),
                BinaryOp::Gt => Some(BinaryOp::Le),
                _ => None,
            };
            opposite.map(|op| IrKind::Binary(op, a.clone(), b.clone()))
        }
        IrKind::Unary(UnaryOp::Not, inner) => Some(inner.kind.clone()),
        _ => None,
    };
    Ir {
        kind: kind.unwrap_or_else(|| IrKind::Unary(UnaryOp::Not, Box::new(test.clone()))),
        span: test.span,
    }
}

/// Whether working out `x` cannot fail: variables and literals compared
/// and joined by `and`, `or` and `not`.
fn cannot_fail(x: &Ir) -> bool {
    match &x.kind {
        IrKind::Local(_) | IrKind::Lit(_) => true,
        IrKind::Unary(UnaryOp::Not, a) => cannot_fail(a),
        IrKind::Binary(
            BinaryOp::And
            | BinaryOp::Or
            | BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge,
            a,
            b,
        ) => cannot_fail(a) && cannot_fail(b),
        _ => false,
    }
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

    /// Positions made whole in each branch of the result's `if`: on a
    /// generator of a few literals (`which`, `d`), and on a test that
    /// reads the position.
    const CHOSEN: &str = r##"
        fn cover(g: grid, r: nat, c: nat) = set_at(g, r, set_at(g[r], c, "#"));
        game Cram(g: grid) {
          move place(d in 0..2, r in 0..len(g) - d, c in 0..len(g[0]) - 1 + d)
            if g[r][c] == "." and g[r + d][c + 1 - d] == "."
            => if d == 0 then Cram(cover(cover(g, r, c), r, c + 1))
               else Cram(cover(cover(g, r, c), r + 1, c));
          move corner(r in indices(g)) if g[r][0] == "."
            => if g[0][0] == "." then Cram(cover(g, 0, 0)) else Cram(cover(g, r, 0));
        }
    "##;

    const WHICH: &str = r#"
        game Wythoff(x: nat, y: nat) {
          move take(which in 0..3, k in 1..=(if which == 0 then x else if which == 1 then y else min(x, y)))
            => if which == 0 then Wythoff(x - k, y) else if which == 1 then Wythoff(x, y - k)
               else Wythoff(x - k, y - k);
        }
    "#;

    /// The generators of each rule the game's rules compile to.
    fn generators(source: &str, position: &str) -> Vec<usize> {
        let (game, _) = compiled(source, position, true);
        let code = &inside(&*game).code;
        code.rules.iter().map(|r| r.gens.len()).collect()
    }

    #[test]
    fn a_chain_of_more_ifs_than_rules_allowed_runs_whole() {
        // `k == 0`, `k == 1`, ... each a branch: 20 in all, past the most.
        let chain: String = (0..19)
            .map(|k| format!("if k == {k} then N(n - {k} - 1) else "))
            .collect();
        let text =
            format!("game N(n: nat) {{\n  move m(k in 0..20) if k < n => {chain}N(n - 20);\n}}\n");
        assert_eq!(generators(&text, "N(30)"), [1]);
        assert_eq!(same_options(&text, "N(30)"), 31);
        // Three branches split, as each has a rule.
        let short = "game N(n: nat) {\n  move m(k in 0..3) if k < n => \
            if k == 0 then N(n - 1) else if k == 1 then N(n - 2) else N(n - 3);\n}\n";
        assert_eq!(generators(short, "N(30)"), [0, 0, 0]);
        assert_eq!(same_options(short, "N(30)"), 31);
    }

    #[test]
    fn each_branch_of_an_if_valued_result_runs_as_a_rule() {
        let position = r##"Cram(["...", "..#", "..."])"##;
        // `d` is gone from the rules of `place` (it is 0 in one, 1 in the
        // other); `corner` keeps its generator in both.
        assert_eq!(generators(CHOSEN, position), [2, 2, 1, 1]);
        assert!(same_options(CHOSEN, position) > 40);
        assert!(same_options(CHOSEN, r##"Cram(["....", "...."])"##) > 40);
        assert_eq!(generators(WHICH, "Wythoff(5, 4)"), [1, 1, 1]);
        // Every position with piles up to 5 and 4.
        assert_eq!(same_options(WHICH, "Wythoff(5, 4)"), 6 * 5);
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
