//! The general search (games searched whole, with no decomposition) against
//! small solvers written here, on every position of small games: the fast
//! paths (positions interned as bytes, values read in place, fused sums)
//! must give what the plain method gives.

mod common;

use common::{mex, session_with, value_of};
use std::collections::HashMap;

const MOORE: &str = include_str!("../bench/games/moores-nim.game");
const TREBLECROSS: &str = include_str!("../bench/games/treblecross.game");

/// Moore's Nim_k by brute force: every way of taking from 1 to k piles.
fn moore(k: usize, piles: &[u32], memo: &mut HashMap<Vec<u32>, u32>) -> u32 {
    if let Some(&v) = memo.get(piles) {
        return v;
    }
    let mut options = Vec::new();
    // Each pile either keeps its counters or loses some; at most k lose.
    let mut choice = vec![0u32; piles.len()];
    loop {
        let touched = choice.iter().filter(|&&c| c > 0).count();
        if (1..=k).contains(&touched) {
            let after: Vec<u32> = piles.iter().zip(&choice).map(|(p, c)| p - c).collect();
            options.push(moore(k, &after, memo));
        }
        // The next choice, counting in a mixed radix of piles[i] + 1.
        let mut i = 0;
        while i < piles.len() && choice[i] == piles[i] {
            choice[i] = 0;
            i += 1;
        }
        if i == piles.len() {
            break;
        }
        choice[i] += 1;
    }
    let v = mex(options);
    memo.insert(piles.to_vec(), v);
    v
}

#[test]
fn moores_nim_agrees_with_brute_force_on_every_small_position() {
    let mut session = session_with(MOORE);
    let mut memo = HashMap::new();
    for k in [1usize, 2, 3] {
        for a in 0..4u32 {
            for b in 0..4 {
                for c in 0..4 {
                    for d in 0..3 {
                        let piles = [a, b, c, d];
                        let want = moore(k, &piles, &mut memo);
                        let got =
                            value_of(&mut session, &format!("Moore({k}, [{a}, {b}, {c}, {d}])"));
                        assert_eq!(got, want, "Moore({k}, {piles:?})");
                    }
                }
            }
        }
        memo.clear();
    }
}

#[test]
fn moores_theorem_holds_for_k_2_on_four_piles() {
    let mut session = session_with(MOORE);
    for a in 0..6u32 {
        for b in 0..6 {
            for c in 0..5 {
                for d in 0..4 {
                    let piles = [a, b, c, d];
                    let columns_divisible = (0..3)
                        .all(|bit| piles.iter().map(|p| (p >> bit) & 1).sum::<u32>() % 3 == 0);
                    let p_position =
                        value_of(&mut session, &format!("Moore(2, [{a}, {b}, {c}, {d}])")) == 0;
                    assert_eq!(p_position, columns_divisible, "Moore(2, {piles:?})");
                }
            }
        }
    }
}

/// The Treblecross board by brute force, on bit masks.
fn treblecross(cells: u32, board: u32, memo: &mut HashMap<u32, u32>) -> u32 {
    if board & (board >> 1) & (board >> 2) != 0 {
        return 0;
    }
    if let Some(&v) = memo.get(&board) {
        return v;
    }
    let options: Vec<u32> = (0..cells)
        .filter(|i| board & (1 << i) == 0)
        .map(|i| treblecross(cells, board | (1 << i), memo))
        .collect();
    let v = mex(options);
    memo.insert(board, v);
    v
}

fn row(cells: u32, board: u32) -> String {
    (0..cells)
        .map(|i| if board & (1 << i) != 0 { 'X' } else { '.' })
        .collect()
}

#[test]
fn treblecross_boards_agree_with_brute_force() {
    let mut session = session_with(TREBLECROSS);
    for cells in 1..=8u32 {
        let mut memo = HashMap::new();
        for board in 0..(1u32 << cells) {
            let want = treblecross(cells, board, &mut memo);
            let position = format!("Treblecross(\"{}\")", row(cells, board));
            assert_eq!(value_of(&mut session, &position), want, "{position}");
        }
    }
}

#[test]
fn the_empty_treblecross_row_is_lost_for_6_and_12_cells_only() {
    let mut session = session_with(TREBLECROSS);
    // Rows of 1 or 2 cells cannot hold three X: they are lost or won by
    // parity alone, so the fact is stated from 3 cells on.
    let lost: Vec<u32> = (3..=13u32)
        .filter(|&n| value_of(&mut session, &format!("Treblecross(\"{}\")", row(n, 0))) == 0)
        .collect();
    assert_eq!(lost, [6, 12]);
}

/// Strings of many characters, and characters past ASCII, are interned
/// whole rather than packed: deleting one character of a word is a game
/// whose value is the word's length mod 2, and `moves` lists the words
/// left exactly as they were made.
#[test]
fn words_of_many_characters_are_interned_whole() {
    let mut session =
        session_with("game Word(w: str) { move cut(i in indices(w)) => Word(remove_at(w, i)); }");
    for word in [
        "abcdefghijklmnopq",
        "déjà→vu",
        "aaaa",
        "..X..",
        "zyxwvutsrqponm",
    ] {
        let len = word.chars().count() as u32;
        assert_eq!(
            value_of(&mut session, &format!("Word(\"{word}\")")),
            len % 2,
            "{word}"
        );
    }
    let parts = session.position("Word(\"é→a\")").expect("a position");
    let shown: Vec<String> = session
        .moves(&parts)
        .expect("its moves")
        .iter()
        .map(|m| session.show_sum(&m.result))
        .collect();
    assert_eq!(shown, ["Word(\"→a\")", "Word(\"éa\")", "Word(\"é→\")"]);
}

/// `--stats` adds one line on standard error and leaves the answer alone.
#[test]
fn stats_report_positions_speed_and_bytes() {
    let game = concat!(env!("CARGO_MANIFEST_DIR"), "/bench/games/treblecross.game");
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["value", game, "Treblecross(\"......\")"])
            .args(extra)
            .env("NO_COLOR", "1")
            .output()
            .expect("grundy runs")
    };
    let plain = run(&[]);
    let with = run(&["--stats"]);
    assert!(with.status.success());
    assert_eq!(with.stdout, plain.stdout);
    assert!(plain.stderr.is_empty());
    let note = String::from_utf8_lossy(&with.stderr);
    assert!(note.starts_with("stats: "), "{note}");
    assert!(note.contains(" positions/s"), "{note}");
    assert!(note.contains(" bytes/position"), "{note}");
    let stored: usize = note
        .split("; ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of stored positions in {note}"));
    // Every board reachable from the empty row: one more X at a time,
    // stopping at three in a row.
    let mut seen = std::collections::HashSet::from([0u32]);
    let mut todo = vec![0u32];
    while let Some(board) = todo.pop() {
        if board & (board >> 1) & (board >> 2) != 0 {
            continue;
        }
        for i in 0..6 {
            if seen.insert(board | (1 << i)) {
                todo.push(board | (1 << i));
            }
        }
    }
    assert_eq!(stored, seen.len(), "{note}");
}

/// Ranges far too long to build are compared without being built, and a
/// set that would hold one is refused with an error, not a crash.
#[test]
fn huge_ranges_are_compared_and_refused_without_being_built() {
    let mut session = session_with(
        "claim (0..1000000000000000000) > (0..5);\n\
         claim (-9223372036854775807..0) < [0];\n\
         claim {0..1000000000000000000} == {0..1000000000000000000};\n",
    );
    let results = session.run_claims(0);
    assert!(results[0].failure.is_none(), "{:?}", results[0].failure);
    assert!(results[1].failure.is_none(), "{:?}", results[1].failure);
    let refused = results[2].failure.as_ref().map(|e| format!("{e:?}"));
    assert!(
        refused.as_deref().is_some_and(|e| e.contains("TooLarge")),
        "{refused:?}"
    );
}
