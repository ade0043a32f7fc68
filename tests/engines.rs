//! `--stats` names the engine each game ran on and, when a faster engine
//! turned a game down, the construct that stopped it with where it is
//! written: on recognised games, on rewrites that fall off, and on games
//! the compiled search cannot pack.

mod common;

/// `grundy ARGS` from the crate's root: its standard error, after checking
/// that it succeeded.
fn stats_of(args: &[&str]) -> String {
    common::grundy_ok(args).1
}

/// A game file written for one test, by name.
fn scratch(name: &str, text: &str) -> String {
    let path =
        std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("engines-{name}.game"));
    std::fs::write(&path, text).expect("the scratch file can be written");
    path.to_str().expect("a UTF-8 path").to_string()
}

fn assert_has(stderr: &str, wanted: &str) {
    assert!(
        stderr.contains(wanted),
        "expected a line with\n  {wanted}\nin\n{stderr}"
    );
}

#[test]
fn an_octal_game_runs_on_the_heap_kernel_with_its_code() {
    let s = stats_of(&[
        "table",
        "bench/games/kayles.game",
        "Kayles",
        "--upto",
        "60",
        "--stats",
    ]);
    assert_has(&s, "stats: Kayles ran on the heap kernel (octal 0.77)");
    assert!(!s.contains("stopped at"), "nothing was turned down:\n{s}");
}

#[test]
fn recognised_rules_run_on_the_heap_kernel() {
    let s = stats_of(&[
        "table",
        "bench/games/grundys-game.game",
        "Grundy",
        "--upto",
        "60",
        "--stats",
    ]);
    assert_has(
        &s,
        "stats: Grundy ran on the heap kernel (rules read as take-and-break moves)",
    );
}

#[test]
fn a_rule_that_falls_off_names_the_construct_that_stopped_it() {
    // Grundy's game where no part may be a multiple of 3: `%` is not
    // arithmetic the heap-rule reader follows.
    let text = "game Grundy(n: nat) {\n  move split(a in 1..n) if a != n - a and a % 3 != 0 and (n - a) % 3 != 0 => Grundy(a) + Grundy(n - a);\n}\n";
    let file = scratch("modulo", text);
    let s = stats_of(&["table", &file, "Grundy", "--upto", "60", "--stats"]);
    assert_has(
        &s,
        &format!("the heap-rule reader stopped at `a % 3` ({file}:2:43): an operator"),
    );
    // The table's values are counted, whatever a search stored.
    assert_has(&s, "stats: 61 values of the table in ");
    // Its heaps are tabulated upwards by the compiled code, which makes
    // the sum of two heaps as one option.
    assert_has(
        &s,
        "stats: Grundy ran on the compiled code of packed keys, heap by heap upwards",
    );
    assert!(!s.contains("reference interpreter"), "{s}");
}

#[test]
fn an_alias_runs_as_the_game_it_names_with_its_set_put_in() {
    let file = "bench/games/rewrites/subtraction-alias.game";
    let s = stats_of(&["table", file, "Sub", "--upto", "30", "--stats"]);
    assert_has(
        &s,
        "stats: Subtract ran on the heap kernel (rules read as take-and-break moves)",
    );
    assert!(!s.contains("stopped at"), "nothing was turned down:\n{s}");
}

#[test]
fn a_board_runs_on_the_compiled_search() {
    let s = stats_of(&[
        "value",
        "bench/games/treblecross.game",
        "Treblecross(\"........\")",
        "--stats",
    ]);
    assert_has(
        &s,
        "stats: Treblecross ran on the compiled search of packed keys",
    );
}

#[test]
fn a_grid_runs_on_the_compiled_search() {
    let file = "bench/games/cram.game";
    let s = stats_of(&["value", file, "Cram([\"...\", \"...\"])", "--stats"]);
    assert_has(&s, "stats: Cram ran on the compiled search of packed keys");
}

#[test]
fn a_parameter_type_outside_the_compiled_search_is_named() {
    let text =
        "game Nest(xs: [[(nat, nat)]]) {\n  move m(k in 1..=len(xs)) => Nest(slice(xs, k, len(xs)));\n}\n";
    let file = scratch("nest", text);
    let file = file.as_str();
    let s = stats_of(&["value", file, "Nest([[(1, 2)], [(2, 3)]])", "--stats"]);
    assert_has(&s, "stats: Nest ran on the reference interpreter");
    assert_has(
        &s,
        &format!("stopped at `xs` ({file}:1:11): a parameter of type [[(nat, nat)]]"),
    );
}

/// The `--stats` lines of `value` of `position` in a scratch file holding
/// `text`, with every `@` of `wanted` read as the file's path: each
/// wanted line is there.
fn assert_stats(name: &str, text: &str, position: &str, wanted: &[&str]) {
    let file = scratch(name, text);
    let s = stats_of(&["value", &file, position, "--stats"]);
    for line in wanted {
        assert_has(&s, &line.replace('@', &file));
    }
}

#[test]
fn a_condition_outside_the_compiled_code_is_named_where_it_is_written() {
    let text = "game Row(board: str) {\n  move mark(i in indices(board)) if board[i] == \".\" and len(runs(board, \"X\")) < 2 => Row(set_at(board, i, \"X\"));\n}\n";
    let wanted = [
        "stats: Row ran on the reference interpreter",
        "stopped at `runs(board, \"X\")` (@:2:61): an expression the compiled search cannot compute",
    ];
    assert_stats("row", text, "Row(\"....\")", &wanted);
}

/// A list looked in that the compiled search cannot make is named as
/// such, not as a generator.
#[test]
fn a_list_looked_in_is_named_as_one() {
    let text = "const EDGES = [(0, 1), (1, 2), (2, 3)];\nfn nbrs(v: nat) = [b for (a, b) in EDGES if a == v] + [a for (a, b) in EDGES if b == v];\ngame NK(alive: {nat}) {\n  move pick(v in alive) => NK(set([u for u in alive if u != v and u not in nbrs(v)]));\n}\n";
    let wanted = ["stopped at `nbrs(v)` (@:4:76): a list the compiled search cannot look in"];
    assert_stats("looked-in", text, "NK({0, 1, 2, 3})", &wanted);
}

#[test]
fn without_stats_nothing_is_said() {
    let s = stats_of(&[
        "table",
        "bench/games/rewrites/grundy-not-equal.game",
        "Grundy",
        "--upto",
        "20",
    ]);
    assert!(!s.contains("ran on"), "{s}");
}

#[test]
fn a_position_that_does_not_pack_is_named_with_its_game() {
    // Two numbers of 40 bits: more than a key's 63.
    let text = "game Far(xs: [nat]) {\n  move down(i in indices(xs)) if xs[i] >= 999999999999 and i < 1 => Far(set_at(xs, i, xs[i] - 1));\n}\n";
    let file = scratch("far", text);
    let file = file.as_str();
    let s = stats_of(&[
        "value",
        file,
        "Far([1000000000000, 1000000000000])",
        "--stats",
    ]);
    assert_has(&s, "stats: Far ran on the reference interpreter");
    assert_has(
        &s,
        &format!("stopped at `Far` ({file}:1:6): a position that does not pack"),
    );
}

#[test]
fn the_moves_of_a_position_are_listed_by_the_compiled_code() {
    let s = stats_of(&[
        "moves",
        "examples/cram.game",
        r#"Cram(["...", "..."])"#,
        "--stats",
    ]);
    assert_has(
        &s,
        "stats: Cram ran on the compiled code of packed keys, one position at a time\n",
    );
    let s = stats_of(&[
        "outcome",
        "--misere",
        "examples/nim.game",
        "Nim([3, 4, 5])",
        "--stats",
    ]);
    assert_has(
        &s,
        "stats: Heap ran on the compiled code of packed keys, one position at a time",
    );
}

#[test]
fn moves_the_compiled_code_cannot_list_are_listed_by_the_interpreter_and_named() {
    // A heap of 1 packs in a few bits: the option `Up(1000)` does not fit.
    let text = "game Up(n: nat) {\n  move up() if n < 3 => Up(n * 1000);\n}\n";
    let file = scratch("up", text);
    let file = file.as_str();
    let s = stats_of(&["moves", file, "Up(1)", "--stats"]);
    assert_has(&s, "stats: Up ran on the reference interpreter");
    assert_has(
        &s,
        &format!(
            "the compiled code of packed keys, for some positions stopped at `Up` ({file}:1:6): \
             a position whose options it cannot make exactly as the interpreter would"
        ),
    );
    // A game it cannot compile is named with the construct, as for values.
    let text =
        "game Nest(xs: [[nat]]) {\n  move drop(i in indices(xs)) => Nest(remove_at(xs, i));\n}\n";
    let file = scratch("nest", text);
    let s = stats_of(&["moves", &file, "Nest([[1], [2]])", "--stats"]);
    assert_has(&s, "stats: Nest ran on the reference interpreter");
    assert_has(
        &s,
        &format!(
            "the compiled search of packed keys stopped at `remove_at(xs, i)` ({file}:2:39): \
             a parameter whose type nests"
        ),
    );
    // The Chomp example compiles, its helper written in place, and so do
    // the positions whose rows get fewer: its list of rows keeps its
    // length in the key.
    let s = stats_of(&["moves", "examples/chomp.game", "Chomp([2, 1])", "--stats"]);
    assert_has(
        &s,
        "stats: Chomp ran on the compiled code of packed keys, one position at a time",
    );
    assert!(!s.contains("stopped at"), "{s}");
}

#[test]
fn a_table_made_heap_by_heap_names_the_engine_the_heaps_ran_on() {
    // `n % k` is beyond the heap-rule reader; the heaps are tabulated
    // upwards by the compiled code, not by the interpreter.
    let text = "game Div(n: nat) {\n  move take(k in 1..n) if n % k == 0 => Div(n - k);\n}\n";
    let file = scratch("divisors", text);
    let s = stats_of(&["table", &file, "Div", "--upto", "40", "--stats"]);
    assert_has(
        &s,
        "stats: Div ran on the compiled code of packed keys, heap by heap upwards\n",
    );
    assert_has(
        &s,
        &format!("the heap-rule reader stopped at `n % k` ({file}:2:27)"),
    );
    assert!(!s.contains("reference interpreter"), "{s}");
}

#[test]
fn a_graph_names_the_engine_that_listed_its_moves() {
    let s = stats_of(&[
        "graph",
        "bench/games/wythoff.game",
        "Wythoff(2, 1)",
        "--stats",
    ]);
    assert_has(
        &s,
        "stats: Wythoff ran on the compiled code of packed keys, one position at a time",
    );
}

/// A heap of a thousand of a take-and-break game written as rules is read
/// off the heap kernel's table, not searched sum by sum (which took 3.9 s
/// at a heap of 4,000), and its value is the octal game's.
#[test]
fn a_middling_heap_of_a_game_with_a_fast_table_is_read_off_the_table() {
    let (out, s) = common::grundy_ok(&[
        "value",
        "examples/octal.game",
        "KaylesRules(1000)",
        "--stats",
    ]);
    assert_has(
        &s,
        "stats: KaylesRules ran on the heap kernel (rules read as take-and-break moves)",
    );
    assert!(!s.contains("reference interpreter"), "{s}");
    let (octal, _) = common::grundy_ok(&["value", "examples/octal.game", "Kayles(1000)"]);
    assert_eq!(out, octal);
}

/// A number that starts at 0 and grows past any room one more layout
/// gives it (four times over, a move) is laid out again with more room
/// each time, and never left to the interpreter.
#[test]
fn a_number_that_outgrows_its_field_is_laid_out_again_with_more_room() {
    let text =
        "game Grow(n: nat, m: nat) {\n  move take(k in 1..=n) => Grow(n - k, 4 * m + k);\n}\n";
    let file = scratch("grow", text);
    let (out, s) = common::grundy_ok(&["value", &file, "Grow(11, 0)", "--stats"]);
    // The second number never changes a move: Grow(n, m) is a heap of n.
    assert_eq!(out.trim(), "11");
    assert_has(&s, "stats: Grow ran on the compiled search of packed keys");
    assert!(!s.contains("reference interpreter"), "{s}");
}
