//! Rules written with whole comprehensions where a shorter built-in would
//! do: a window of cells tested with `all` over a range (in a helper or
//! not), and a new list made element by element where one element
//! changes. The compiled code answers such rules on the key's bits and
//! writes one element; here every position reachable from small starts
//! is asked of the reference interpreter and of the compiled code, step
//! by step and fused (values, options in order, errors alike), for those
//! forms and for look-alikes that must be walked element by element: a
//! window whose width the position sets, elements that read more than a
//! cell, windows that reach past the list, lists that change in two
//! places or by a comparison that is no equality.

mod common;

use common::engines::{compare_from, Limits};

/// Every position of these small games is reached.
const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

/// Every engine agrees with the reference from each start, which reaches
/// every position of its game, and the compiled search answers for it.
fn agree(name: &str, text: &str, starts: &[&str]) {
    for start in starts {
        let compared = compare_from(name, text, start, LIMITS)
            .unwrap_or_else(|difference| panic!("{difference}"));
        assert!(
            compared.positions.len() < LIMITS.reached,
            "{name}: {start} reaches more than {} positions",
            LIMITS.reached
        );
        assert!(
            compared.searched_compiled,
            "{name}: {start} is not searched compiled"
        );
    }
}

/// Treblecross on a list of booleans, its loss written with a helper that
/// tests a window, given its rule for the loss and the new list.
fn treblecross(lose: &str, placed: &str) -> String {
    format!(
        "fn full(cells: [bool], i: nat) = all([cells[j] for j in i..i + 3]);\n\
         fn wide(cells: [bool], i: nat, w: nat) = all([cells[j] for j in i..i + w]);\n\
         game T(cells: [bool], w: nat) {{\n  lose if {lose};\n  \
         move place(i in indices(cells)) if cells[i] == false => T({placed}, w);\n  \
         move narrow() if w > 1 => T(cells, w - 1);\n}}\n"
    )
}

const STARTS: &[&str] = &[
    "T([false, false, false, false, false, false], 3)",
    "T([false, true, false, false, false, true, false], 2)",
];

#[test]
fn lists_made_whole_that_change_one_place_agree_with_the_reference() {
    let lose = "any([full(cells, i) for i in 0..len(cells) - 2])";
    for placed in [
        "[cells[j] or j == i for j in indices(cells)]",
        "[if i == j then true else cells[j] for j in 0..len(cells)]",
        "[cells[j] or not (j != i) for j in indices(cells)]",
        // Two places, and a place that is no one index.
        "[cells[j] or j == i or j == min(i + 1, len(cells) - 1) for j in indices(cells)]",
        "[cells[j] or j <= i for j in indices(cells)]",
        // A toggle: the element at the place depends on the old one.
        "[cells[j] != (j == i) for j in indices(cells)]",
    ] {
        agree(placed, &treblecross(lose, placed), STARTS);
    }
}

#[test]
fn lists_of_numbers_made_whole_agree_with_the_reference() {
    let game = |made: &str| {
        format!(
            "game Take(h: [nat]) {{\n  move take(i in indices(h), k in 1..=h[i]) => Take({made});\n}}\n"
        )
    };
    for made in [
        "[if j == i then h[j] - k else h[j] for j in indices(h)]",
        "[if j != i then h[j] else 0 for j in indices(h)]",
        // A comparison that is no equality, and an element past the place.
        "[if j >= i then h[j] - min(h[j], k) else h[j] for j in indices(h)]",
        "[if j == i then h[j] - k else h[j] for j in 0..len(h) - 1] + [h[len(h) - 1]]",
    ] {
        agree(made, &game(made), &["Take([2, 3, 1])", "Take([0, 4, 2])"]);
    }
}
