//! Move rules run as lowered code (numbers and boards computed without
//! building values, result positions written straight into the interner),
//! and as the compiled code of packed keys where a game compiles, must
//! list exactly the moves the interpreter alone lists: the same
//! results, rules and labels, and the same error when a rule fails. Every
//! position reachable from a few starts of each game is compared.

mod common;

use common::{reachable, session_with};
use grundy::eval::{Compact, PosId};
use grundy::session::Session;

/// Rules that use every construct the lowering knows, and some it refuses
/// (sets, strings built by joining, helpers of several shapes).
const MIXED: &str = r#"
fn half(n: int) = if n % 2 == 0 then n / 2 else -(n / 2);
fn spread(xs: [nat], i: nat) = [if j == i then 0 else xs[j] + xs[i] / 2 for j in indices(xs)];
fn total(xs: [nat]) = sum(xs);
fn pair(a: [nat], b: [nat], n: nat) = [a[j] + b[len(b) - 1 - j] + n for j in indices(a)];
fn free(board: str, i: nat) = board[i] != "X" and board[i] != "O";
fn big(n: int) = n * n * n * n * n * n * n * n * n * n * n;

game Spread(xs: [nat]) {
  move give(i in indices(xs)) if xs[i] > 1 and total(xs) < 12 => Spread(spread(xs, i));
  move drop(i in 0..len(xs), t in 1..=xs[i]) => Spread([xs[j] - (if j == i then t else 0) for j in indices(xs)]);
  move twin(k in 0..2) if len(xs) > 0 and total(xs) + k < 7 => Spread(pair(xs, xs, xs[0] + k));
}

game Signed(n: int, m: nat) {
  move halve(k in 1..3) if n != 0 => Signed(half(n) - k + 1, m);
  move count(c in 0..m) => Signed(n, c);
}

game Board(board: str) {
  lose if has(board, "XOX");
  move mark(i in indices(board)) if free(board, i) => Board(set_at(board, i, "X"));
  move other(i in indices(board)) if board[i] == "." or board[i] == "?" => Board(set_at(board, i, "O"));
}

// Moore's Nim as first written: a helper with two generators and a guard,
// inlined into the rule.
game Moore(k: nat, piles: [nat]) {
  move take(chosen in subsets(indices(piles), 1, k),
            amounts in product([1..=piles[i] for i in chosen]))
    => Moore(k, after(piles, chosen, amounts));
}

fn after(piles: [nat], chosen: [nat], amounts: [nat]) =
  [piles[i] - sum([amounts[j] for j in indices(chosen) if chosen[j] == i]) for i in indices(piles)];

// Several elements set at once, one element set from a variable, and
// indices out of range (an error the interpreter reports).
game Several(xs: [nat], at: [nat]) {
  move lower(vs in product([0..xs[i] for i in at])) => Several(set_at(xs, at, vs), at);
  move one(i in indices(xs), v in 0..xs[i]) if len(at) == 0 => Several(set_at(xs, i, v), at);
}

game Mismatch(xs: [nat]) {
  move cut(i in indices(xs)) if xs[i] > 0 => Mismatch(set_at(xs, [i], [xs[i] - 1, 0]));
}

fn shifted(xs: [nat], d: nat) = [xs[j] + d for j in indices(xs)];

game Shift(xs: [nat], d: int) {
  move up(k in 0..2) if d < 3 => Shift(shifted(xs, d), d + 1 + k);
}

game Sets(s: {nat}, n: nat) {
  move take(k in s) if k <= n => Sets(s, n - k);
}

game Broken(n: nat) {
  move down(k in 1..=2) => Broken(n - k * 2);
}

game Huge(n: int) {
  move grow(k in 0..1) if n < 5 => Huge(big(n + 2));
}
"#;

/// The moves of `pos` with lowering on or off, as comparable data.
type Listed = Result<Vec<(u32, Vec<PosId>, Option<String>)>, String>;

fn moves(session: &mut Session, pos: PosId, lowering: bool, compact: Compact) -> Listed {
    session.interp.lowering = lowering;
    session.interp.compact = compact;
    let mut out = Vec::new();
    let listed = session.interp.moves_of(pos, true, &mut out);
    session.interp.lowering = true;
    session.interp.compact = Compact::default();
    listed.map_err(|e| format!("{e:?}"))?;
    Ok(out
        .into_iter()
        .map(|m| (m.rule, m.result.to_vec(), m.label.map(|l| l.text)))
        .collect())
}

fn compare(text: &str, starts: &[&str]) -> usize {
    let mut session = session_with(text);
    let mut compared = 0;
    for start in starts {
        for pos in reachable(&mut session, start, 3000) {
            let plain = moves(&mut session, pos, false, Compact::Off);
            // The lowered code alone, then the compiled code of packed
            // keys where the game compiles (the lowered code elsewhere).
            for compact in [Compact::Off, Compact::Fused] {
                let fast = moves(&mut session, pos, true, compact);
                assert_eq!(
                    fast,
                    plain,
                    "the moves of {} from {start} ({compact:?})",
                    session.show_sum(&[pos])
                );
            }
            compared += 1;
        }
    }
    compared
}

#[test]
fn lowered_rules_list_the_moves_the_interpreter_lists() {
    let n = compare(
        MIXED,
        &[
            "Spread([3, 0, 4])",
            "Spread([1, 5])",
            "Signed(-7, 3)",
            "Signed(9, 2)",
            "Board(\"..?.O.\")",
            "Board(\"X.é..\")",
            "Sets({1, 3}, 9)",
            "Shift([1, 2], 0)",
            "Shift([4], -1)",
            "Broken(5)",
            "Huge(1)",
            "Huge(-3)",
            "Moore(2, [3, 1, 2])",
            "Several([2, 1, 3], [0, 2])",
            "Several([2, 3], [1, 1])",
            "Several([2, 3], [])",
            "Several([2, 3], [0, 4])",
            "Mismatch([1, 2])",
        ],
    );
    assert!(n > 300, "only {n} positions compared");
}

#[test]
fn powers_list_the_moves_the_interpreter_lists() {
    let n = compare(
        common::POWER,
        &["Power(40, 0)", "Power(2, 5)", "Power(3, 6)"],
    );
    assert!(n > 100, "only {n} positions compared");
}

#[test]
fn the_examples_list_the_same_moves_lowered() {
    let cases: [(&str, &[&str]); 5] = [
        (
            include_str!("../examples/moores-nim.game"),
            &[
                "Moore(2, [3, 2, 3, 1])",
                "Moore(3, [2, 2, 2, 2])",
                "Moore(1, [4, 0, 3])",
            ],
        ),
        (
            include_str!("../examples/treblecross.game"),
            &["Treblecross(\"..........\")", "Row(\"...........\")"],
        ),
        (
            include_str!("../examples/candy-split.game"),
            &["Candy(7, 9)"],
        ),
        (
            include_str!("../examples/cram.game"),
            &["Cram([\"....\", \"...#\", \"....\"])"],
        ),
        (
            include_str!("../examples/subtraction.game"),
            &[
                "Coins(30)",
                "T(40)",
                "TakeAway(25)",
                "Subtract({2, 3, 7}, 30)",
            ],
        ),
    ];
    for (text, starts) in cases {
        compare(text, starts);
    }
}

#[test]
fn the_bench_games_list_the_same_moves_lowered() {
    compare(
        include_str!("../bench/games/moores-nim.game"),
        &["Moore(2, [4, 3, 4, 2])"],
    );
    compare(
        include_str!("../bench/games/treblecross.game"),
        &[
            "Treblecross(\"...........\")",
            "Treblecross(\".X..X.....\")",
        ],
    );
}
