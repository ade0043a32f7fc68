//! Every rewrite in `bench/games/rewrites/` (the same heap game written
//! another way) gives the values of the game's fastest form in
//! `bench/games/`, as `bench/games/rewrites/forms.txt` pairs them: the
//! correctness side of the benchmark that times them against each other.

mod common;

use common::{
    assert_every_game_file_listed, bench_games, listed_words, read_text, session_with, table_of,
};
use std::path::Path;

/// Heaps compared: enough for every rule to matter (splits, the largest
/// amount taken), small enough for the plain search of every rewrite.
const UPTO: u64 = 80;

/// (rewrite file, its game, fastest form's file, its game), from forms.txt.
fn forms() -> Vec<[String; 4]> {
    listed_words(&bench_games().join("rewrites/forms.txt"))
        .into_iter()
        .map(|words| {
            words
                .try_into()
                .unwrap_or_else(|w: Vec<String>| panic!("forms.txt: not four words: {w:?}"))
        })
        .collect()
}

#[test]
fn every_rewrite_gives_its_fastest_forms_values() {
    let forms = forms();
    assert!(
        forms.len() >= 20,
        "forms.txt lists {} rewrites",
        forms.len()
    );
    for [rewrite, game, form, form_game] in forms {
        let fastest = table_of(
            &mut session_with(&read_text(&bench_games().join(&form))),
            &form_game,
            UPTO,
        );
        let text = read_text(&bench_games().join("rewrites").join(&rewrite));
        let values = table_of(&mut session_with(&text), &game, UPTO);
        assert_eq!(values, fastest, "{rewrite} against {form}");
    }
}

#[test]
fn every_rewrite_file_is_listed() {
    let listed: Vec<String> = forms().into_iter().map(|[rewrite, ..]| rewrite).collect();
    assert_every_game_file_listed(&bench_games().join("rewrites"), &listed);
}

/// The engines `grundy table FILE GAME --stats` names, with the octal
/// code or the rules read left out ("heap kernel", "heap-rule reader").
fn engines(file: &Path, game: &str) -> Vec<String> {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "table",
            &file.to_string_lossy(),
            game,
            "--upto",
            "100",
            "--stats",
        ])
        .output()
        .expect("grundy runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{}: {stderr}", file.display());
    stderr
        .lines()
        .filter_map(|line| line.split_once(" ran on the ").map(|(_, e)| e))
        .map(|engine| engine.split(" (").next().unwrap_or(engine).to_string())
        .collect()
}

#[test]
fn every_rewrite_runs_on_the_engine_of_its_fastest_form() {
    for [rewrite, game, form, form_game] in forms() {
        let fastest = engines(&bench_games().join(&form), &form_game);
        let fast_paths = [
            "heap kernel",
            "heap-rule reader",
            "compiled code of packed keys, heap by heap upwards",
        ];
        assert!(
            fastest.len() == 1 && fast_paths.contains(&fastest[0].as_str()),
            "{form}: {fastest:?}"
        );
        let found = engines(&bench_games().join("rewrites").join(&rewrite), &game);
        assert_eq!(found, fastest, "{rewrite} against {form}");
    }
}

/// Random take-and-break games, each move written in one of several ways a
/// user might (generators in either order, guards as comparisons, `!=`,
/// `not`, `or`, `in`, through a helper; results as sums, lists, `if` and
/// comprehensions), against the general search: the heap-rule reader must
/// read every one of them, as take-and-break moves, and agree with it.
mod random_spellings {
    use grundy::session::fast_paths::{compare, Question};
    use proptest::prelude::*;

    /// What a move does: remove k leaving nothing (the heap was k), one
    /// heap, or two heaps (unequal ones when `strict`).
    #[derive(Clone, Copy, Debug)]
    enum Move {
        TakeAll(i64),
        Take(i64),
        Split(i64, bool),
    }

    fn a_move() -> impl Strategy<Value = Move> {
        prop_oneof![
            (1..=4i64).prop_map(Move::TakeAll),
            (1..=4i64).prop_map(Move::Take),
            (0..=3i64, any::<bool>()).prop_map(|(k, strict)| Move::Split(k, strict)),
        ]
    }

    /// The move as rule `i`, in spelling `way`; helpers it needs go to
    /// `helpers`.
    fn spelled(m: Move, i: usize, way: usize, helpers: &mut String) -> String {
        match m {
            Move::TakeAll(k) => match way % 4 {
                0 => format!("move m{i}() if n == {k} => [];"),
                1 => format!("move m{i}(j in 1..=n) if j == {k} and not (n - j > 0) => G(n - j);"),
                2 => format!("move m{i}(j in {{{k}}}) if n - j == 0 => [];"),
                _ => {
                    helpers.push_str(&format!("fn whole{i}(n: nat) = n == {k};\n"));
                    format!("move m{i}() if whole{i}(n) => [G(0)];")
                }
            },
            Move::Take(k) => match way % 6 {
                0 => format!("move m{i}() if n > {k} => G(n - {k});"),
                1 => format!("move m{i}(j in 1..=n) if (j == {k} or j == {k}) and j != n => [G(n - j)];"),
                2 => format!("move m{i}(j in [{k}]) if j < n => G(n - j);"),
                3 => {
                    helpers.push_str(&format!("fn left{i}(n: nat) = n - {k};\n"));
                    format!("move m{i}() if {k} < n => G(left{i}(n));")
                }
                4 => format!("move m{i}(a in 0..n) if a == 0 and n >= {k} + 1 => if a == 0 then G(n - {k}) else G(0);"),
                _ => format!("move m{i}(a in 0..n, j in 1..=n - a) if a == 0 and j == {k} and j < n => G(n - j);"),
            },
            Move::Split(k, strict) => {
                let differ = if strict { [" and a != n - {k} - a", " and not (a == n - {k} - a)", " and (a < n - {k} - a or a > n - {k} - a)"][way % 3].replace("{k}", &k.to_string()) } else { String::new() };
                match way % 5 {
                    0 => format!("move m{i}(a in 1..n) if a + {k} < n{differ} => G(a) + G(n - {k} - a);"),
                    1 => format!("move m{i}(a in 0..n, j in {{{k}}}) if a >= 1 and a + j < n{differ} => [G(a), G(n - j - a)];"),
                    2 => format!("move m{i}(a in 1..n) if not (a + {k} >= n){differ} => [G(p) for p in [a, n - {k} - a]];"),
                    3 => format!("move m{i}(a in 1..n, b in 1..n) if a + b + {k} == n{differ} => G(a) + G(b);"),
                    _ => {
                        helpers.push_str(&format!("fn rest{i}(n: nat, a: nat) = n - {k} - a;\n"));
                        format!("move m{i}(a in 1..n) if rest{i}(n, a) >= 1{differ} => G(a) + G(rest{i}(n, a));")
                    }
                }
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn are_read_as_take_and_break_moves_and_agree_with_the_interpreter(
            moves in proptest::collection::vec((a_move(), 0..60usize), 1..=4),
        ) {
            let mut helpers = String::new();
            let rules: Vec<String> = moves
                .iter()
                .enumerate()
                .map(|(i, &(m, way))| spelled(m, i, way, &mut helpers))
                .collect();
            let text = format!("{helpers}game G(n: nat) {{\n  {}\n}}\n", rules.join("\n  "));
            let question = Question { text: &text, game: "G", upto: 40, reference_upto: 60, checkpoint: 20 };
            let paths = compare(&question).unwrap_or_else(|difference| panic!("{difference}\n{text}"));
            prop_assert!(paths.contains(&"affine rules"), "not read as arithmetic:\n{}", text);
            prop_assert!(paths.contains(&"rare/common's plain loop"), "not read as take-and-break moves:\n{}", text);
        }
    }
}

/// The general search and every fast path agree on `text`'s game G,
/// which the heap-rule reader reads.
fn agrees_with_the_interpreter(text: &str) {
    use grundy::session::fast_paths::{compare, Question};
    let question = Question {
        text,
        game: "G",
        upto: 40,
        reference_upto: 60,
        checkpoint: 20,
    };
    let paths = compare(&question).unwrap_or_else(|difference| panic!("{difference}\n{text}"));
    assert!(paths.contains(&"affine rules"), "not read:\n{text}");
}

/// At heap 2 the helper is given -1 for a `nat`: the interpreter stops
/// there, and no fast path may give a value for heap 2 or past it.
#[test]
fn a_negative_argument_of_a_helper_stops_every_path_where_the_interpreter_stops() {
    agrees_with_the_interpreter(
        "fn positive(x: nat) = x > 0;\n\
         game G(n: nat) {\n  move s(a in 1..n) if positive(n - 2 - a) => G(a) + G(n - 2 - a);\n}\n",
    );
}

/// The guard never holds, but working it out overflows from heap 1 on.
#[test]
fn an_overflow_in_a_guard_that_fails_stops_every_path_where_the_interpreter_stops() {
    agrees_with_the_interpreter(
        "game G(n: nat) {\n  move t() if n >= 1 => G(n - 1);\n  \
         move m() if n - 2 >= n + 9223372036854775807 - 9223372036854775807 => [];\n}\n",
    );
}

/// A rule the heap-rule reader cannot follow is named with the construct
/// that stopped it: here a product of two numbers that both vary.
#[test]
fn a_product_of_two_varying_numbers_is_named_as_what_stops_the_reader() {
    let text = "game Sq(n: nat) {\n  move take(k in 1..=n) if k * k <= n => Sq(n - k * k);\n}\n";
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join("rewrites-squares.game");
    std::fs::write(&file, text).expect("the scratch file can be written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "table",
            &file.to_string_lossy(),
            "Sq",
            "--upto",
            "30",
            "--stats",
        ])
        .output()
        .expect("grundy runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the heap-rule reader stopped at `k * k`")
            && stderr.contains("a product of two numbers that both vary"),
        "{stderr}"
    );
}

/// The rule never makes a move, but working out its range overflows from
/// heap 1 on.
#[test]
fn an_overflow_in_a_rule_that_never_applies_stops_every_path_where_the_interpreter_stops() {
    agrees_with_the_interpreter(
        "game G(n: nat) {\n  move m0() if n < n - 3 => G(n - 1);\n  \
         move m1(a in 0..n + 9223372036854775807 - 9223372036854775807) => [];\n}\n",
    );
}
