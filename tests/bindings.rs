//! `let` names and tuple patterns: a game written with them must have the
//! values of the same game written without them, show the names the user
//! wrote in its move labels, and run on the engine the written-out game
//! runs on (the checker turns both into the same program).

mod common;

use common::{grundy_ok, reachable, session_with, table_of, value_of};
use std::process::Command;

/// Cram by row and column indices, as the benchmarks write it.
const CRAM: &str = include_str!("../bench/games/cram.game");

/// Cram by its empty cells, each taken apart into its row and column, with
/// the row a domino covers named once.
const CRAM_BY_CELLS: &str = r##"
fn cover(row: str, c: nat) = set_at(row, c, "#");

game Cram(g: grid) {
  move across((r, c) in cells(g, "."), let row = g[r]) if c + 1 < len(row) and row[c + 1] == "."
    => Cram(set_at(g, r, cover(cover(row, c), c + 1)));
  move down((r, c) in cells(g, ".")) if r + 1 < len(g) and g[r + 1][c] == "."
    => let below = r + 1;
       Cram(set_at(set_at(g, r, cover(g[r], c)), below, cover(g[below], c)));
}
"##;

#[test]
fn cram_by_its_cells_values_every_position_as_cram_by_indices() {
    let mut by_cells = session_with(CRAM_BY_CELLS);
    let mut by_indices = session_with(CRAM);
    let mut compared = 0;
    for start in [
        r#"Cram(["...", "...", "..."])"#,
        r#"Cram(["....", ".#..", "...."])"#,
        r#"Cram([".....", "....."])"#,
    ] {
        for pos in reachable(&mut by_indices, start, 1500) {
            let shown = by_indices.show_sum(&[pos]);
            assert_eq!(
                value_of(&mut by_cells, &shown),
                value_of(&mut by_indices, &shown),
                "{shown}, reached from {start}"
            );
            compared += 1;
        }
    }
    assert!(compared > 500, "only {compared} positions compared");
}

#[test]
fn nim_by_enumerate_is_the_nim_sum() {
    // Bouton: the value of Nim is the nim-sum of its heaps.
    let mut nim = session_with(
        "game Nim(h: [nat]) {\n  \
           move take((i, size) in enumerate(h), let left = size - 1, k in 0..=left)\n    \
             => Nim(set_at(h, i, k));\n}\n",
    );
    for a in 0..6u32 {
        for b in 0..6u32 {
            for c in 0..4u32 {
                let position = format!("Nim([{a}, {b}, {c}])");
                assert_eq!(value_of(&mut nim, &position), a ^ b ^ c, "{position}");
            }
        }
    }
}

#[test]
fn a_subtraction_game_with_let_has_the_period_of_the_seed_text() {
    // The subtraction game T with S = {2, 3, 5}: period 7, values 0 0 1 1 2 2 3.
    let mut t = session_with(
        "game T(n: nat) {\n  let heap = n;\n  \
           move take(s in {2, 3, 5}, let rest = heap - s) if s <= heap => T(rest);\n}\n",
    );
    let values = table_of(&mut t, "T", 69);
    for (n, v) in values.iter().enumerate() {
        assert_eq!(*v, [0, 0, 1, 1, 2, 2, 3][n % 7], "g({n})");
    }
}

#[test]
fn kayles_with_let_agrees_with_its_octal_code() {
    let mut s = session_with(
        "game Kayles(n: nat) {\n  \
           move knock(k in 1..=2, a in 0..=n - k, let b = n - k - a) if k <= n and a <= b\n    \
             => Kayles(a) + Kayles(b);\n}\n\
         game Code = octal 0.77;\n",
    );
    assert_eq!(
        table_of(&mut s, "Kayles", 120),
        table_of(&mut s, "Code", 120)
    );
}

#[test]
fn let_and_patterns_in_helpers_games_comprehensions_and_claims_hold() {
    let mut s = session_with(
        r#"
fn square_plus_one(x: nat) = let y = x * x; y + 1;
fn swap(p: (nat, str)) = let (a, b) = p; (b, a);
claim square_plus_one(7) == 50 and swap((1, "a")) == ("a", 1);
claim [i * x for (i, x) in enumerate([5, 6, 7])] == [0, 6, 14];
claim [a + b for ((a, b), c) in zip(zip([1, 2], [10, 20]), "xy") if c == "y"] == [22];
claim for (a, b) in zip(0..5, 1..6), let d = b - a: d == 1;
// A game's `let` is seen by its rules wherever it stands.
game Down(n: nat) {
  move step() if n > 0 => Down(below);
  let below = n - 1;
}
claim for n in 0..9: value(Down(n)) == n % 2;
"#,
    );
    let results = s.run_claims(0);
    assert_eq!(results.len(), 5);
    for r in results {
        assert!(r.failure.is_none(), "{:?}", r.failure);
    }
}

/// A game file written for one test, by name.
fn scratch(name: &str, text: &str) -> String {
    let path =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("bindings-{name}.game"));
    std::fs::write(&path, text).expect("the scratch file can be written");
    path.to_str().expect("a UTF-8 path").to_string()
}

/// The labels `grundy moves` gives the moves of `position` in `game`.
fn labels(game: &str, name: &str, position: &str) -> Vec<String> {
    let file = scratch(&format!("{name}-labels"), game);
    let (moves, _) = grundy_ok(&["moves", &file, position]);
    moves
        .lines()
        .map(|l| l.split("  ").next().unwrap_or("").to_string())
        .collect()
}

#[test]
fn labels_name_the_pattern_parts_and_leave_let_names_out() {
    assert_eq!(
        labels(CRAM_BY_CELLS, "cram", r##"Cram(["..", "#."])"##),
        ["across(r = 0, c = 0)", "down(r = 0, c = 1)"]
    );
}

#[test]
fn an_underscore_binds_nothing_and_is_not_shown() {
    let game = "game G(h: [nat]) {\n  \
        move m((_, x) in enumerate(h), (_, _) in [(7, 8)], k in 1..=x) => G([x - k]);\n}\n";
    assert_eq!(
        labels(game, "underscore", "G([2])"),
        ["m(x = 2, k = 1)", "m(x = 2, k = 2)"]
    );
}

#[test]
fn a_failed_claim_names_the_pattern_parts() {
    let file = scratch(
        "claim-pattern",
        "claim for (i, x) in enumerate([3, 4, 6]), let twice = 2 * x: twice != 8;\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["check", &file])
        .output()
        .expect("grundy runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("for i = 1, x = 4"), "{stderr}");
}

/// The lines of `--stats` that name the engine and what turned it down,
/// with the file's name taken out (the two files differ only in it).
fn engine_lines(stderr: &str, file: &str) -> Vec<String> {
    stderr
        .lines()
        .filter(|l| l.contains("ran on") || l.contains("stopped at"))
        .map(|l| l.replace(file, "FILE"))
        .collect()
}

/// The engine a question about a game runs on, which must be the same
/// whether the game is written out or with `let` and patterns (the lines
/// naming what turned faster engines down must match too).
fn same_engine(name: &str, written_out: &str, with_bindings: &str, args: &[&str]) -> String {
    let [plain, bound] = [("plain", written_out), ("bound", with_bindings)].map(|(way, text)| {
        let file = scratch(&format!("{name}-{way}"), text);
        let mut all = vec![args[0], file.as_str()];
        all.extend(&args[1..]);
        all.push("--stats");
        let (_, stderr) = grundy_ok(&all);
        engine_lines(&stderr, &file)
    });
    assert_eq!(plain, bound, "{name}");
    bound[0].clone()
}

#[test]
fn a_subtraction_game_with_let_runs_on_the_heap_kernel_as_without() {
    let engine = same_engine(
        "subtract",
        "game T(n: nat) {\n  move take(s in {2, 3, 5}) if s <= n => T(n - s);\n}\n",
        "game T(n: nat) {\n  let heap = n;\n  \
           move take(s in {2, 3, 5}, let rest = heap - s) if s <= heap => T(rest);\n}\n",
        &["table", "T", "--upto", "40"],
    );
    assert_eq!(
        engine,
        "stats: T ran on the heap kernel (rules read as take-and-break moves)"
    );
}

#[test]
fn kayles_with_let_runs_on_the_heap_kernel_as_without() {
    let engine = same_engine(
        "kayles",
        "game K(n: nat) {\n  move knock(k in 1..=2, a in 0..=n - k) if k <= n => K(a) + K(n - k - a);\n}\n",
        "game K(n: nat) {\n  move knock(k in 1..=2, a in 0..=n - k, let b = n - k - a) if k <= n => K(a) + K(b);\n}\n",
        &["table", "K", "--upto", "40"],
    );
    assert!(engine.contains("heap kernel"), "{engine}");
}

#[test]
fn a_board_with_let_runs_on_the_compiled_search_as_without() {
    let engine = same_engine(
        "row",
        "game Row(b: str) {\n  move mark(i in indices(b)) if b[i] == \".\" => Row(set_at(b, i, \"X\"));\n}\n",
        "game Row(b: str) {\n  move mark(i in indices(b), let cell = b[i]) if cell == \".\" => Row(set_at(b, i, \"X\"));\n}\n",
        &["value", "Row(\".......\")"],
    );
    assert_eq!(
        engine,
        "stats: Row ran on the compiled search of packed keys"
    );
}

const NIM_BY_ENUMERATE: &str = "game Nim(h: [nat]) {\n  \
    move take((i, size) in enumerate(h), k in 1..=size) => Nim(set_at(h, i, size - k));\n}\n";

#[test]
fn nim_by_enumerate_runs_on_the_compiled_search_as_by_indices() {
    // `enumerate` of a name is walked as its indices, the element read
    // where it is used, as the written-out rule does.
    let engine = same_engine(
        "nim",
        "game Nim(h: [nat]) {\n  move take(i in indices(h), k in 1..=h[i]) => Nim(set_at(h, i, h[i] - k));\n}\n",
        NIM_BY_ENUMERATE,
        &["value", "Nim([3, 5, 7, 4])"],
    );
    assert_eq!(
        engine,
        "stats: Nim ran on the compiled search of packed keys"
    );
}

#[test]
fn labels_of_nim_by_enumerate_name_the_place_and_the_size() {
    assert_eq!(
        labels(NIM_BY_ENUMERATE, "nim", "Nim([1, 2])"),
        [
            "take(i = 0, size = 1, k = 1)",
            "take(i = 1, size = 2, k = 1)",
            "take(i = 1, size = 2, k = 2)"
        ]
    );
}

#[test]
fn a_pair_taken_apart_by_a_pattern_runs_as_by_indexing() {
    // A product of ranges is walked by the compiled search as tuples; a
    // pattern reads the same elements an index would.
    let engine = same_engine(
        "pairs",
        "game M(p: [nat]) {\n  move take(t in product([0..p[0], 0..=p[1]])) => M([t[0], t[1]]);\n}\n",
        "game M(p: [nat]) {\n  move take((a, b) in product([0..p[0], 0..=p[1]])) => M([a, b]);\n}\n",
        &["value", "M([5, 6])"],
    );
    assert_eq!(engine, "stats: M ran on the compiled search of packed keys");
}

#[test]
fn cram_by_cells_runs_on_the_engine_of_cram_by_indices() {
    // A rectangular grid packs into a key, and `(r, c) in cells(g, ".")`
    // is walked there as every cell tested for the letter.
    let engine = |text: &str, way: &str| {
        let file = scratch(&format!("cram-{way}"), text);
        let (_, stderr) = grundy_ok(&["value", &file, r#"Cram(["...", "..."])"#, "--stats"]);
        engine_lines(&stderr, &file)[0].clone()
    };
    assert_eq!(engine(CRAM, "plain"), engine(CRAM_BY_CELLS, "bound"));
    assert_eq!(
        engine(CRAM_BY_CELLS, "bound"),
        "stats: Cram ran on the compiled search of packed keys"
    );
}
