//! Misère play of sums: a heap game written as rules, whose moves leave
//! sums with finished parts (`Kayles(0) + Kayles(3)`), must answer as the
//! same game given by its octal code, as the reference interpreter, and
//! as an independent search (single rows of Kayles lose under misère play
//! at 1, 4, 9, 12 and 20 pins, and at no other length up to 35); a
//! position with no move that a `lose if` rule says is lost stays lost.

mod common;

use common::engines::{session, Limits};
use grundy::eval::Compact;

const GAMES: &str = "
game Kayles(n: nat) {
  move knock(k in 1..=2, a in 0..=n - k) if k <= n => Kayles(a) + Kayles(n - a - k);
}
game Octal = octal 0.77;

// Lost on a heap of 5, which has no move.
game Stuck(n: nat) {
  lose if n == 5;
  move take(k in 1..=2) if k <= n and n != 5 => Stuck(n - k);
}
";

const LIMITS: Limits = Limits {
    reached: 0,
    max_positions: 4_000_000,
};

/// Whether the player to move wins `position` under misère play.
fn wins(compact: Compact, position: &str) -> bool {
    let mut s = session("misere.game", GAMES, compact, LIMITS).expect("the games load");
    let parts = s.position(position).expect("a position");
    s.misere_wins(&parts).expect("an answer")
}

#[test]
fn misere_kayles_written_as_rules_loses_on_the_published_rows() {
    let lost: Vec<u32> = (0..=35)
        .filter(|n| !wins(Compact::Fused, &format!("Kayles({n})")))
        .collect();
    assert_eq!(lost, [1, 4, 9, 12, 20]);
}

#[test]
fn misere_sums_agree_with_the_octal_game_and_the_interpreter() {
    // Two rows lost by the player to move, from an independent search.
    let lost_pairs = [
        (1, 5),
        (1, 8),
        (2, 2),
        (2, 7),
        (3, 3),
        (3, 6),
        (4, 5),
        (4, 8),
        (6, 6),
        (7, 7),
        (8, 8),
    ];
    for a in 1..=8 {
        for b in a..=8 {
            let want = !lost_pairs.contains(&(a, b));
            let rules = format!("Kayles({a}) + Kayles({b})");
            let octal = format!("Octal({a}) + Octal({b})");
            assert_eq!(wins(Compact::Fused, &rules), want, "{rules}");
            assert_eq!(wins(Compact::Off, &rules), want, "{rules}, interpreted");
            assert_eq!(wins(Compact::Off, &octal), want, "{octal}");
        }
    }
}

#[test]
fn a_finished_position_that_is_lost_is_kept() {
    // Stuck(0) has no move and is not lost: under misère play the player
    // to move wins. Stuck(5) has no move either, but a `lose if` rule
    // says the player to move has lost: it is no finished part to leave
    // out of the search, and moving to it wins.
    for compact in [Compact::Fused, Compact::Off] {
        assert!(wins(compact, "Stuck(0)"));
        assert!(!wins(compact, "Stuck(5)"));
        assert!(wins(compact, "Stuck(6)"));
        assert!(wins(compact, "Stuck(7)"));
    }
}
