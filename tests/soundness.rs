//! A `lose if` rule ends the whole game, so a position that has one, or
//! can reach one, may not be a part of a sum: grundy refuses such sums
//! wherever they are formed (typed, made by a move, declared as parts, or
//! reached by playing), rather than xor a value that means nothing.

mod common;

use common::session_with;
use grundy::error::ErrorKind;

/// `X(1)` has one move, to `T("..")`, whose `lose if` rule ends the game.
const REACHES: &str = r#"
game T(b: str) {
  lose if has(b, "XX");
  move put(i in indices(b)) if b[i] == "." => T(set_at(b, i, "X"));
}
game X(n: nat) {
  move m() if n > 0 => T("..");
}
game Heap(n: nat) {
  move take(k in 1..=n) => Heap(n - k);
}
game Y(n: nat) {
  move m() if n > 0 => X(1) + Heap(2);
}
game Z(n: nat) {
  move take(k in 1..=n) => Z(n - k);
  parts = [X(n), Heap(n)];
}
"#;

fn refused(text: &str, ask: &str) -> ErrorKind {
    let mut session = session_with(REACHES);
    let parts = session.position(text).expect("the position can be made");
    let result = match ask {
        "value" => session.value(&parts).map(|_| ()),
        "misere" => session.misere_wins(&parts).map(|_| ()),
        "height" => session.height(&parts).map(|_| ()),
        "moves" => session.moves(&parts).map(|_| ()),
        _ => unreachable!("a question this test asks"),
    };
    let errors = result.expect_err("a sum reaching a `lose if` game is refused");
    errors[0].kind.clone()
}

#[test]
fn a_sum_whose_part_can_reach_a_lose_rule_is_refused_for_every_question() {
    for ask in ["value", "misere", "height", "moves"] {
        let kind = refused("X(1) + Heap(1)", ask);
        assert_eq!(
            kind,
            ErrorKind::TerminalReachedInSum {
                from: "X(1)".into(),
                reached: "T(\"..\")".into(),
                game: "T".into(),
            },
            "{ask}"
        );
    }
}

#[test]
fn a_move_to_such_a_sum_is_refused() {
    assert!(matches!(
        refused("Y(1)", "value"),
        ErrorKind::TerminalReachedInSum { .. }
    ));
}

#[test]
fn parts_holding_such_a_position_are_refused() {
    assert!(matches!(
        refused("Z(1)", "value"),
        ErrorKind::TerminalReachedInSum { .. }
    ));
}

#[test]
fn on_its_own_the_position_is_answered() {
    let mut session = session_with(REACHES);
    // T("X.") and T(".X") can only move to the lost T("XX"), so have
    // value 1; T("..") moves only to them, so has value 0; X(1) has 1.
    let x = session.position("X(1)").expect("position");
    assert_eq!(session.value(&x).expect("value"), 1);
    // A sum of parts that never reach a `lose if` game is fine, and X(0),
    // which has no move, is not refused either.
    let fine = session.position("X(0) + Heap(3)").expect("position");
    assert_eq!(session.value(&fine).expect("value"), 3);
}

#[test]
fn a_game_with_lose_if_and_parts_is_refused_when_checked() {
    let mut session = grundy::Session::new();
    let errors = session
        .load_text(
            "t.game",
            r#"
game S(n: nat) { move take(k in 1..=n) => S(n - k); }
game T(b: str) {
  lose if has(b, "XX");
  move put(i in indices(b)) if b[i] == "." => T(set_at(b, i, "X"));
  parts = [S(n) for n in runs(b, ".")];
}
"#,
        )
        .expect_err("refused");
    assert_eq!(
        errors[0].kind,
        ErrorKind::LoseWithParts { game: "T".into() }
    );
}
