//! Property tests of the solver: sums decompose correctly, winning moves
//! win, Nim is the nim-sum, and misère Nim follows Bouton's misère rule.
//! Sizes are kept small so the file runs in a few seconds in debug mode.

mod common;

use common::{mex, session_with, value_of};
use proptest::prelude::*;
use std::collections::BTreeSet;

/// Nim as in examples/nim.game.
const NIM: &str = r#"
game Heap(n: nat) {
  move take(k in 1..=n) => Heap(n - k);
}
game Nim(heaps: [nat]) = [Heap(h) for h in heaps];
"#;

fn list(items: &[u32]) -> String {
    let items: Vec<String> = items.iter().map(u32::to_string).collect();
    items.join(", ")
}

/// The subtraction game with set `s`, both as a heap game `T` (so a sum of
/// heaps is a sum the solver can split) and as `Whole`, one game whose
/// position is the whole list of heaps (so the solver sees no sum).
fn subtraction_games(s: &BTreeSet<u32>) -> String {
    format!(
        r#"
const S = {{{}}};
game T(n: nat) {{
  move take(s in S) if s <= n => T(n - s);
}}
game Whole(hs: [nat]) {{
  move take(i in indices(hs), s in S) if s <= hs[i] => Whole(set_at(hs, i, hs[i] - s));
}}
"#,
        list(&s.iter().copied().collect::<Vec<_>>())
    )
}

/// g(0..=upto) of the subtraction game with set `s`, by a direct mex.
fn subtraction_brute(s: &BTreeSet<u32>, upto: u32) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let options = s.iter().filter(|&&k| k <= n).map(|&k| g[(n - k) as usize]);
        g.push(mex(options.collect::<Vec<_>>()));
    }
    g
}

/// Games for random positions in the winning-move property: Nim heaps,
/// Kayles, Grundy's game and a subtraction game.
const MIXED: &str = r#"
game Heap(n: nat) {
  move take(k in 1..=n) => Heap(n - k);
}
game Kayles = octal 0.77;
game Grundy(n: nat) {
  move split(a in 1..n) if a < n - a => Grundy(a) + Grundy(n - a);
}
game Sub(n: nat) {
  move take(s in {1, 3, 4}) if s <= n => Sub(n - s);
}
"#;
const MIXED_NAMES: [&str; 4] = ["Heap", "Kayles", "Grundy", "Sub"];

fn config() -> ProptestConfig {
    ProptestConfig::with_cases(64)
}

proptest! {
    #![proptest_config(config())]

    /// The value of `T(a) + T(b) + ...` found through the decomposition
    /// equals the value of the same sum searched as one game.
    #[test]
    fn sum_decomposition_matches_whole_search(
        s in prop::collection::btree_set(1u32..=6, 1..=3),
        heaps in prop::collection::vec(0u32..=10, 1..=4),
    ) {
        let mut session = session_with(&subtraction_games(&s));
        let sum: Vec<String> = heaps.iter().map(|h| format!("T({h})")).collect();
        let sum = sum.join(" + ");
        let whole = format!("Whole([{}])", list(&heaps));
        let by_parts = value_of(&mut session, &sum);
        let by_search = value_of(&mut session, &whole);
        prop_assert_eq!(by_parts, by_search, "{} vs {}", sum, whole);
        // And both agree with a brute force outside grundy.
        let g = subtraction_brute(&s, 10);
        let expected = heaps.iter().fold(0, |x, &h| x ^ g[h as usize]);
        prop_assert_eq!(by_parts, expected, "{} with S = {:?}", sum, s);
    }

    /// Every move reported with value 0 really leads to a position of value
    /// 0, every reported value is right, a position has a winning move iff
    /// its value is non-zero, and the value is the mex of its moves' values.
    #[test]
    fn winning_moves_lead_to_zero(
        components in prop::collection::vec((0usize..4, 0u32..=20), 1..=4),
    ) {
        let mut session = session_with(MIXED);
        let text: Vec<String> = components
            .iter()
            .map(|&(g, n)| format!("{}({n})", MIXED_NAMES[g]))
            .collect();
        let text = text.join(" + ");
        let parts = session.position(&text).expect("position");
        let value = session.value(&parts).expect("value");
        let moves = session.moves(&parts).expect("moves");
        let mut reached = Vec::new();
        for m in &moves {
            let actual = session.value(&m.result).expect("value of a move");
            prop_assert_eq!(
                actual, m.value,
                "{} -> {} ({}): reported value {}, real value {}",
                &text, session.show_sum(&m.result), &m.label, m.value, actual
            );
            if m.value == 0 {
                prop_assert_eq!(actual, 0);
            }
            reached.push(actual);
        }
        let has_winning_move = moves.iter().any(|m| m.value == 0);
        prop_assert_eq!(has_winning_move, value != 0, "{} has value {}", &text, value);
        prop_assert_eq!(value, mex(reached), "{}: value is not the mex of its moves", &text);
    }

    /// Bouton: the value of Nim is the xor of the heaps.
    #[test]
    fn nim_value_is_xor_of_heaps(heaps in prop::collection::vec(0u32..=40, 0..=8)) {
        let mut session = session_with(NIM);
        let text = format!("Nim([{}])", list(&heaps));
        let expected = heaps.iter().fold(0, |x, &h| x ^ h);
        prop_assert_eq!(value_of(&mut session, &text), expected, "{}", text);
    }

    /// Misère Nim: the player to move loses exactly when every heap is at
    /// most 1 and an odd number of heaps are 1, or some heap is larger than
    /// 1 and the nim-sum is 0.
    #[test]
    fn misere_nim_follows_boutons_rule(heaps in prop::collection::vec(0u32..=7, 0..=5)) {
        let mut session = session_with(NIM);
        let text = format!("Nim([{}])", list(&heaps));
        let parts = session.position(&text).expect("position");
        let wins = session.misere_wins(&parts).expect("misere");
        let ones = heaps.iter().filter(|&&h| h == 1).count();
        let nim_sum = heaps.iter().fold(0, |x, &h| x ^ h);
        let loses = if heaps.iter().all(|&h| h <= 1) {
            ones % 2 == 1
        } else {
            nim_sum == 0
        };
        prop_assert_eq!(wins, !loses, "{}", text);
    }
}
