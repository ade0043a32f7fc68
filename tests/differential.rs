//! Every fast path against the general search (see
//! `grundy::session::fast_paths`): games written to reach the corners that
//! once gave wrong values, then random heap games decoded by the
//! differential fuzz target's generator (included by path, so the test and
//! the fuzzer build the same games).

#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod harness;

use grundy::session::fast_paths::{compare, Question};
use proptest::prelude::*;

fn agrees(text: &str, upto: usize, reference_upto: usize, checkpoint: usize) -> Vec<&'static str> {
    let question = Question {
        text,
        game: "G",
        upto,
        reference_upto,
        checkpoint,
    };
    compare(&question).unwrap_or_else(|difference| panic!("{difference}\n{text}"))
}

/// Heap 0 moves to the finished game, so g(0) = 1, and a part of 0 beside
/// another heap changes the value: the rules may not be read as takes and
/// splits of non-empty heaps, where a heap of 0 counts as 0.
#[test]
fn a_heap_of_0_with_a_move_is_not_taken_for_an_empty_heap() {
    let text = "game G(n: nat) {
        move z() if n == 0 => [];
        move t() if n >= 2 => G(n - 2);
        move s(a in 0..n) if n >= 1 => G(a) + G(n - 1 - a);
    }";
    let paths = agrees(text, 60, 90, 30);
    assert!(paths.contains(&"rare/common's plain loop") || paths.contains(&"affine rules"));
    // Brute force, independent of grundy: g(0) = 1 (a move to nothing),
    // g(n) = mex of g(n - 2) and g(a) ^ g(n - 1 - a).
    let mut g: Vec<u32> = vec![1];
    for n in 1..=20usize {
        let mut options: Vec<u32> = (0..n).map(|a| g[a] ^ g[n - 1 - a]).collect();
        if n >= 2 {
            options.push(g[n - 2]);
        }
        g.push((0..).find(|v| !options.contains(v)).expect("a mex"));
    }
    let mut session = grundy::Session::new();
    session.load_text("zero.game", text).expect("loads");
    let game = session.heap_game("G").expect("a heap game");
    assert_eq!(session.table(game, 20, |_, _| {}).expect("a table"), g);
}

/// The affine reading used to add the constants up in wrapping arithmetic:
/// `n - 1 + MAX + MAX + 2` became `n - 1`, where the interpreter overflows.
#[test]
fn arithmetic_that_overflows_in_the_interpreter_overflows_in_every_fast_path() {
    let max = i64::MAX;
    for result in [
        format!("G(n - 1 + {max} + {max} + 2)"),
        // Overflows only from heap 41 on, after a period could be seen.
        format!("G(n - 1 + {} - {})", max - 40, max - 40),
        format!("G(n - 2 + {} - {})", max - 70, max - 70),
        format!("[G(a), G(n - 1 - a + {} - {})]", max - 50, max - 50),
    ] {
        let generator = if result.contains('a') {
            "a in 0..n"
        } else {
            ""
        };
        let text = format!("game G(n: nat) {{ move m({generator}) if n >= 2 => {result}; }}");
        agrees(&text, 100, 120, 0);
        agrees(&text, 30, 120, 60);
    }
}

/// A checkpoint from a longer run: the table is exactly what was asked.
#[test]
fn a_longer_checkpoint_gives_exactly_the_table_asked_for() {
    let grundys_game = "game G(n: nat) { move split(a in 1..n) if a < n - a => G(a) + G(n - a); }";
    agrees(grundys_game, 10, 200, 150);
    agrees("game G = octal 0.07;", 10, 200, 150);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Random heap games, small: every fast path gives what the general
    /// search gives, errors included.
    #[test]
    fn random_heap_games_agree_with_the_general_search(
        bytes in prop::collection::vec(any::<u8>(), 0..64)
    ) {
        harness::differential_scaled(&bytes, 0.3);
    }

    /// Take-and-break games, heap 0 with a move or not.
    #[test]
    fn random_take_and_break_games_agree_with_the_general_search(
        bytes in prop::collection::vec(any::<u8>(), 0..48)
    ) {
        harness::compare_all(harness::heap_games::decode_take_and_break(&bytes, 0.3));
    }
}
