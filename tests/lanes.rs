//! A list of truth values made whole by a comprehension over its own
//! places (`[free[u] and u != v and not (u in ADJ[v]) for u in
//! indices(free)]`), which the compiled code works out at every place at
//! once. Each element form, and look-alikes it must leave to the
//! step-by-step code, is compared with the reference interpreter on every
//! position reachable from a few starts (values, options in order, errors
//! alike), among them a row of a constant read past its end only at
//! places where the element reads it.

mod common;

use common::engines::{agree_from, Limits};

const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

/// A path of six vertices, and a list of rows that stops at the third.
const CONSTS: &str = "const ADJ = [[1], [0, 2], [1, 3], [2, 4], [3, 5], [4]];\n\
                      const SHORT = [[1], [0, 2], [1]];\n";

fn game(element: &str) -> String {
    format!(
        "{CONSTS}game G(free: [bool]) {{\n  move take(v in indices(free)) if free[v] => \
         G([{element} for u in indices(free)]);\n}}\n"
    )
}

const STARTS: [&str; 3] = [
    "G([true, true, true, true, true, true])",
    "G([true, false, true, true, false, true])",
    "G([false, true, false, false, false, true])",
];

#[test]
fn truth_values_made_at_every_place_agree_with_the_reference() {
    for element in [
        // Node Kayles on the path, its parts in several orders.
        "free[u] and u != v and not (u in ADJ[v])",
        "free[u] and not (u in ADJ[v]) and v != u",
        "not (not free[u] or u == v or u in ADJ[v])",
        "free[u] and u not in ADJ[v] and u != v",
        // Everything from the place on, or up to it, is taken.
        "free[u] and u < v",
        "free[u] and v > u",
        "u > v and free[u]",
        "free[u] and (u < v or u > 5)",
        "free[u] and not (u >= v)",
        "free[u] and (v <= u) == false",
        // Constants: a list of places, a literal, a truth value.
        "free[u] and u != v and not (u in [0, 2])",
        "free[u] and u != v and u != 3",
        "free[u] and u != v and true",
        "false or (free[u] and u != v)",
        // Truth values compared, and chosen between by `if`.
        "free[u] != (u == v)",
        "free[u] == (u != v and not (u in ADJ[v]))",
        "(u in ADJ[v] or u == v) != free[u] and free[u]",
        "if u == v then false else free[u]",
        "if u in ADJ[v] then not free[u] and u > 6 else free[u] and u != v",
        // Look-alikes left to the step-by-step code: the place moved, a
        // number worked out.
        "free[u] and u != v and not (u + 1 in ADJ[v])",
        "free[u] and u != v + 0",
    ] {
        agree_from("lanes.game", &game(element), &STARTS, LIMITS, true);
    }
}

/// A row read past the constant's end is an error only where the element
/// reads it: from a position whose other places are all taken, `u != v`
/// is false at every place, so `SHORT[v]` is never read.
#[test]
fn a_row_past_the_end_fails_only_where_it_is_read() {
    let text = game("free[u] and u != v and not (u in SHORT[v])");
    let starts = [
        "G([false, false, false, false, true, false])",
        "G([true, false, false, false, true, false])",
        "G([true, true, true, true, true, true])",
    ];
    agree_from("short.game", &text, &starts, LIMITS, false);
    // Read only in the branch taken at the place `v`, or only where a
    // place is still free.
    for element in [
        "if u != v then free[u] else u in SHORT[v]",
        "if free[u] then u != v and not (u in SHORT[v]) else false",
    ] {
        agree_from("short.game", &game(element), &starts, LIMITS, false);
    }
}

/// A truth value the walk does not change, read at every place: the
/// player's turn, kept beside the row.
#[test]
fn truth_values_beside_the_list_agree_with_the_reference() {
    let text = "game F(free: [bool], on: bool) {\n  move take(v in indices(free)) if free[v] => \
                F([free[u] and (u != v or on) and not (on and u == 0) for u in indices(free)], \
                not on);\n  move skip(v in indices(free)) if free[v] and on => \
                F([if on then free[u] != (u == v) else free[u] for u in indices(free)], false);\n}\n";
    let starts = [
        "F([true, true, true, true, true], true)",
        "F([true, false, true, true, false, true], false)",
    ];
    agree_from("beside.game", text, &starts, LIMITS, true);
}

/// Node Kayles with the taken vertices as truth values: a vertex may be
/// taken while it and its neighbours are free.
fn taken_game(guard: &str) -> String {
    format!(
        "{CONSTS}const OFF = [[1], [0, 2], [1, 9], [2, 4], [3, 5], [4]];\n\
         game G(taken: [bool]) {{\n  move take(v in indices(taken)) if not taken[v] and {guard} => \
         G(set_at(taken, v, true));\n}}\n"
    )
}

const TAKEN: [&str; 3] = [
    "G([false, false, false, false, false, false])",
    "G([false, true, false, false, false, false])",
    "G([true, false, false, false, true, false])",
];

/// `any` or `all` of the list's elements at the places of a row of a
/// constant, tested as bits; a row past the constant's end or holding a
/// place off the list fails only where the guard reads it.
#[test]
fn tests_of_a_row_of_places_agree_with_the_reference() {
    for (guard, compiled) in [
        ("all([not taken[w] for w in ADJ[v]])", true),
        ("not any([taken[w] for w in ADJ[v]])", true),
        ("(any([not taken[w] for w in ADJ[v]]) or v == 0)", true),
        ("(all([taken[w] for w in ADJ[v]]) or v < 3)", true),
        ("all([not taken[w] for w in SHORT[v]])", false),
        ("all([not taken[w] for w in OFF[v]])", false),
        // Look-alikes walked: a place moved, a filter.
        ("all([not taken[w] for w in ADJ[v] if w > 0])", true),
        ("all([not taken[w] for w in slice(ADJ[v], 0, 1)])", false),
    ] {
        agree_from("taken.game", &taken_game(guard), &TAKEN, LIMITS, compiled);
    }
}
