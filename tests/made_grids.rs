//! A new grid or string handed to a helper that changes it again, as in
//! `cover(cover(g, r, c), r + 1, c)`, where the helper first asks how big
//! the board is, so that a cell off the edge is left alone. Node Kayles on
//! a grid graph is written that way: a move takes a cell and the cells
//! beside it. Every position reachable from small boards is asked of the
//! reference interpreter and of the compiled code (values, options in
//! order, errors alike), and the compiled search must answer.

mod common;

use common::engines::{agree_from, Limits};
use common::{session_with, value_of};

const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

/// Node Kayles on a grid graph: the helper covers a cell when it is on
/// the board, measuring the board and its first row.
const NODE_KAYLES_GRID: &str = r##"
fn cover(g: grid, r: int, c: int) =
  if r < 0 or r >= len(g) or c < 0 or c >= len(g[0]) then g
  else set_at(g, r, set_at(g[r], c, "#"));

game NK(g: grid) {
  move pick(r in indices(g), c in indices(g[r])) if g[r][c] == "." =>
    NK(cover(cover(cover(cover(cover(g, r, c), r - 1, c), r + 1, c), r, c - 1), r, c + 1));
}
"##;

/// The same on a row, as a string.
const NODE_KAYLES_ROW: &str = r##"
fn take(s: str, i: int) = if i < 0 or i >= len(s) then s else set_at(s, i, "#");

game NK(s: str) {
  move pick(v in indices(s)) if s[v] == "." => NK(take(take(take(s, v), v - 1), v + 1));
}
"##;

/// Node Kayles on a path is Dawson's Kayles: taking a vertex of a path of
/// n leaves paths of a and n - 3 - a (or n - 2 from an end). Its values
/// are OEIS A002187.
const DAWSON: [u32; 16] = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5];

fn row(n: usize) -> String {
    ".".repeat(n)
}

#[test]
fn node_kayles_on_a_row_of_the_grid_is_dawsons_kayles() {
    let mut session = session_with(NODE_KAYLES_GRID);
    for (n, want) in DAWSON.iter().enumerate().skip(1) {
        let position = format!("NK([\"{}\"])", row(n));
        assert_eq!(value_of(&mut session, &position), *want, "a row of {n}");
    }
    let mut session = session_with(NODE_KAYLES_ROW);
    for (n, want) in DAWSON.iter().enumerate().skip(1) {
        let position = format!("NK(\"{}\")", row(n));
        assert_eq!(value_of(&mut session, &position), *want, "a row of {n}");
    }
}

#[test]
fn a_board_measured_inside_the_helper_runs_compiled_and_agrees() {
    let boards = [
        "NK([\".......\"])",
        "NK([\"...\", \"...\", \"...\"])",
        "NK([\"..#.\", \"....\", \".#..\"])",
    ];
    agree_from("grid.game", NODE_KAYLES_GRID, &boards, LIMITS, true);
    let rows = ["NK(\"..........\")", "NK(\"..#...#..\")"];
    agree_from("row.game", NODE_KAYLES_ROW, &rows, LIMITS, true);
}

/// A look-alike that measures the board but not the row, so that covering
/// past a row's end is the interpreter's index error, met alike.
#[test]
fn a_cover_past_the_edge_fails_alike() {
    let text = r##"
fn cover(g: grid, r: int, c: int) =
  if r < 0 or r >= len(g) then g else set_at(g, r, set_at(g[r], c, "#"));

game NK(g: grid) {
  move pick(r in indices(g), c in indices(g[r])) if g[r][c] == "." =>
    NK(cover(cover(cover(g, r, c), r + 1, c), r, c + len(g)));
}
"##;
    agree_from(
        "edge.game",
        text,
        &["NK([\"...\", \"...\"])"],
        LIMITS,
        false,
    );
}

/// Look-alikes for the length of a new board's row: a row read above the
/// board (an index error, met alike), and a chain that writes a whole new
/// row, whose length is worked out rather than taken from the board.
#[test]
fn rows_of_a_new_board_are_measured_alike() {
    let above = r##"
fn cover(g: grid, r: int, c: int) =
  if c >= len(g[r - 1]) then g else set_at(g, r, set_at(g[r], c, "#"));

game NK(g: grid) {
  move pick(r in indices(g), c in indices(g[r])) if g[r][c] == "." =>
    NK(cover(cover(g, r, c), r, c + 1));
}
"##;
    agree_from(
        "above.game",
        above,
        &["NK([\"...\", \"...\"])"],
        LIMITS,
        false,
    );
    let wiped = r##"
fn wipe(g: grid, r: int) =
  if r < 0 or r >= len(g) then g else set_at(g, r, repeat("#", len(g[0])));
fn cover(g: grid, r: int, c: int) =
  if c >= len(g[0]) then g else set_at(g, r, set_at(g[r], c, "#"));

game NK(g: grid) {
  move pick(r in indices(g), c in indices(g[r])) if g[r][c] == "." =>
    NK(cover(wipe(g, r + 1), r, c));
}
"##;
    let boards = ["NK([\"...\", \"...\", \"...\"])", "NK([\".\"])"];
    agree_from("wiped.game", wiped, &boards, LIMITS, false);
}

/// A new list handed to a helper that measures it, as a board is: each
/// move empties a counter and, where there is one, the next.
#[test]
fn a_list_measured_inside_the_helper_runs_compiled_and_agrees() {
    let text = r##"
fn empty(c: [nat], i: int) = if i < 0 or i >= len(c) then c else set_at(c, i, 0);

game G(c: [nat]) {
  move m(i in indices(c)) if c[i] > 0 => G(empty(empty(c, i), i + 1));
}
"##;
    agree_from(
        "counters.game",
        text,
        &["G([2, 1, 3])", "G([0, 3, 0, 2])"],
        LIMITS,
        true,
    );
}

/// A new board or string handed to a helper that writes it on one branch
/// only: the interpreter makes it before choosing a branch, so an error
/// making it is an error on both. The compiled code must meet it too,
/// here a write one cell past the end, whichever branch the helper takes.
#[test]
fn a_new_value_written_on_one_branch_fails_on_both() {
    let string = r##"
fn pick(b: str, s: str, i: nat) = if i >= 4 then set_at(s, i, "X") else b;
game P(b: str) {
  move m(i in indices(b)) if b[i] == "." => P(pick(set_at(set_at(b, i, "X"), i + 2, "X"), b, i));
}
"##;
    agree_from(
        "one branch",
        string,
        &["P(\"......\")", "P(\"....\")"],
        LIMITS,
        false,
    );
    let grid = r##"
fn pick(g: grid, h: grid, c: nat) = if c >= 2 then set_at(h, 0, repeat("#", len(h[0]))) else g;
game G(g: grid) {
  move m(c in indices(g[0])) if g[0][c] == "." =>
    G(pick(set_at(g, 0, set_at(set_at(g[0], c, "#"), c + 2, "#")), g, c));
}
"##;
    agree_from(
        "one branch of rows",
        grid,
        &["G([\"....\"])", "G([\"...\", \"...\"])"],
        LIMITS,
        false,
    );
    // A new string the helper leaves out of its result altogether.
    let unused = r##"
fn second(a: str, b: str) = set_at(b, 0, "X");
game P(b: str) {
  move m(i in indices(b)) if b[i] == "." => P(second(set_at(b, i + 1, "X"), set_at(b, i, "X")));
}
"##;
    agree_from(
        "left out",
        unused,
        &["P(\"....\")", "P(\".X..\")"],
        LIMITS,
        false,
    );
}

/// A board put in its least form by hand, the smaller of itself and its
/// mirror image (`min([b, reverse(b)])`), in the order of strings: the
/// new string is worked out where the helper is called, and searched
/// compiled.
#[test]
fn a_board_or_its_mirror_image_runs_compiled_and_agrees() {
    for chosen in [
        "min([b, reverse(b)])",
        "max([b, reverse(b)])",
        "min(b, reverse(b))",
        "min([reverse(b), b, slice(b, 0, 0) + b])",
        "if min([b, reverse(b)]) == b then b else reverse(b)",
    ] {
        let text = format!(
            "fn canon(b: str) = {chosen};\n\
             game TX(b: str) {{\n  \
             move mark(i in indices(b)) if b[i] == \".\" => TX(canon(set_at(b, i, \"X\")));\n  \
             move two(i in indices(b)) if b[i] == \"X\" and i + 1 < len(b) and b[i + 1] == \".\" \
             => TX(canon(set_at(b, i + 1, \"O\")));\n  \
             lose if has(b, \"XXX\");\n}}\n"
        );
        agree_from(
            chosen,
            &text,
            &["TX(\"......\")", "TX(\".X..O.\")", "TX(\"\")"],
            LIMITS,
            true,
        );
    }
}
