//! Sets of numbers that the rules change, packed as bitsets: every engine
//! must answer as the reference interpreter does, option for option, on
//! every position reachable from small starts, including the sets that
//! grow past what the key holds (the interpreter then answers) and the
//! errors a set can make (`min` of the empty set, a number below 0 in a
//! set of naturals).

mod common;

use common::engines::{compare_from, Limits};

const GAMES: &str = r#"
// Slide a coin down by a step of the fixed set, onto an empty place.
game Slide(steps: {nat}, s: {nat}) {
  move slide(x in s, d in steps) if d <= x and x - d not in s =>
    Slide(steps, set([y for y in s if y != x] + [x - d]));
}

// A number climbs by one, up to 6: past the numbers the start holds.
game Climb(s: {nat}) {
  move up(x in s) if x < 6 and x + 1 not in s => Climb(set([y for y in s if y != x] + [x + 1]));
}

fn without(s: {nat}, x: nat) = set([y for y in s if y != x]);

// Helpers, `sort`, `len`, `max`.
game Pairs(s: {nat}) {
  move one(x in s) if len(s) > 2 or x == max(s) => Pairs(without(s, x));
  move two(x in sort(s)) if x + 1 in s => Pairs(without(without(s, x), x + 1));
}

// Integers below 0, two sets, a set compared with another and walked
// through `list`.
game Two(s: {int}, t: {int}) {
  move give(x in s) if x not in t => Two(set([y for y in s if y != x]), set(list(t) + [x]));
  move clear() if s == t and len(s) > 0 => Two({}, {});
  move drop(x in list(t)) if popcount(len(t)) == 1 => Two(s, set([y for y in t if y > x]));
}

// `subsets` of a set, each made a set again.
game Pick(s: {nat}) {
  move take(pick in subsets(s, 1, 2)) if sum(pick) % 3 != 0 =>
    Pick(set([y for y in s if y not in set(pick)]));
}

// Every number down by one: a number of a set of naturals may go below 0,
// and the empty set has no `min`.
game Down(s: {nat}) {
  move down() if min(s) >= 0 => Down(set([y - 1 for y in s]));
}
"#;

const LIMITS: Limits = Limits {
    reached: 200,
    max_positions: 5000,
};

/// Compares every engine with the reference from `start` (its value or its
/// error, and those of every position it reaches), and says whether the
/// compiled search answered for its game.
fn compiled_from(start: &str) -> bool {
    let compared = compare_from("sets.game", GAMES, start, LIMITS)
        .unwrap_or_else(|difference| panic!("{difference}"));
    compared.searched_compiled
}

#[test]
fn sets_the_rules_change_are_searched_compiled_and_agree() {
    for start in [
        "Slide({1, 2}, {3, 5, 6})",
        "Slide({1, 3}, {2, 4, 7, 8})",
        "Pairs({0, 1, 2, 4, 5, 7})",
        "Two({-3, 0, 2, 5}, {1})",
        "Pick({1, 2, 4, 5, 7, 8})",
    ] {
        assert!(compiled_from(start), "{start} was not searched compiled");
    }
}

#[test]
fn a_set_grown_past_its_key_and_a_set_in_error_agree() {
    // The key of Climb({0, 2}) holds the numbers 0 to 2: a move to 3 is
    // answered by the interpreter.
    compiled_from("Climb({0, 2})");
    compiled_from("Down({1, 3})");
    compiled_from("Down({})");
}
