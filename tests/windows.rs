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

use common::engines::{agree_from, Limits};

/// Every position of these small games is reached.
const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

/// Every engine agrees with the reference from each start, which reaches
/// every position of its game, and the compiled search answers for it.
fn agree(name: &str, text: &str, starts: &[&str]) {
    agree_from(name, text, starts, LIMITS, true);
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
fn windows_of_cells_agree_with_the_reference() {
    let placed = "set_at(cells, i, true)";
    for lose in [
        // The windows a helper tests, over every place they fit.
        "any([full(cells, i) for i in 0..len(cells) - 2])",
        // Over some of them, and backwards through `not`.
        "any([full(cells, i) for i in 1..len(cells) - 3])",
        "not all([not full(cells, i) for i in 0..=len(cells) - 3])",
        // A window around its variable, reaching back.
        "any([all([cells[j] for j in i - 1..i + 2]) for i in 1..len(cells) - 1])",
        // `any` of a window, and windows joined with `and`.
        "all([any([cells[j] for j in i..i + 2]) for i in 0..len(cells) - 1]) and cells[0]",
        "any([cells[i] and not cells[i + 1] and cells[i + 2] for i in 2..len(cells) - 2])",
        // A window whose width the position sets.
        "any([wide(cells, i, w) for i in 0..len(cells) - w + 1])",
        // Elements that read more than a cell.
        "any([full(cells, i) and i % 2 == 0 for i in 0..len(cells) - 2])",
        "any([full(cells, i) for i in 0..w])",
        // Windows past the end of the list: an index out of range.
        "any([full(cells, i) for i in 0..len(cells)])",
        "all([not full(cells, i) for i in 0..len(cells) - 1])",
    ] {
        agree(lose, &treblecross(lose, placed), STARTS);
    }
}

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

/// Strings tested with windows: letters of more than one bit.
#[test]
fn windows_of_letters_agree_with_the_reference() {
    let lose = "any([all([b[j] == \"X\" for j in i..i + 3]) for i in 0..len(b) - 2]) \
                or any([b[j] != \".\" and b[j] != \"X\" for j in 0..1])";
    let text = format!(
        "game T(b: str) {{\n  lose if {lose};\n  \
         move place(i in indices(b)) if b[i] == \".\" => T(set_at(b, i, \"X\"));\n  \
         move block(i in indices(b)) if b[i] == \".\" and i % 3 == 1 => T(set_at(b, i, \"O\"));\n}}\n"
    );
    agree("letters", &text, &["T(\"......\")", "T(\".O....X\")"]);
}

/// The cells of a string, each the pair (0, column), in labels too.
#[test]
fn the_cells_of_a_string_agree_with_the_reference() {
    for (generator, result) in [
        ("(_, i) in cells(b, \".\")", "set_at(b, i, \"X\")"),
        ("(r, c) in cells(b, \".\")", "set_at(b, r + c, \"X\")"),
        ("p in cells(b, \"O\")", "set_at(b, p[1], \".\")"),
    ] {
        let text = format!(
            "game T(b: str) {{\n  lose if count(b, \"XXX\") > 0;\n  \
             move place({generator}) => T({result});\n}}\n"
        );
        agree(generator, &text, &["T(\"......\")", "T(\".O..O.X\")"]);
    }
}
