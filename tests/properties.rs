//! Property tests of the solver: sums decompose correctly, winning moves
//! win, Nim is the nim-sum, and misère Nim follows Bouton's misère rule.
//! Sizes are kept small so the file runs in a few seconds in debug mode.

mod common;

use common::{mex, session_with, table_of, value_of};
use grundy::eval::PosId;
use grundy::session::Session;
use proptest::prelude::*;
use std::collections::{BTreeSet, HashMap};

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

/// Three random heap games: a subtraction game `A` with set `sa`, an
/// octal game `B` with `code`, and a splitting game `C` that removes one
/// token and may split the rest (Lasker-like, so sums grow inside it).
fn random_games(sa: &BTreeSet<u32>, code: &str) -> String {
    format!(
        r#"
const SA = {{{}}};
game A(n: nat) {{
  move take(s in SA) if s <= n => A(n - s);
}}
game B = octal {code};
game C(n: nat) {{
  move take(k in 1..=n) => C(n - k);
  move split(a in 1..n) if a <= n - 1 - a => C(a) + C(n - 1 - a);
}}
"#,
        list(&sa.iter().copied().collect::<Vec<_>>())
    )
}

/// The value of a sum found without the xor rule: the mex of the values
/// of the whole sum's options, each found the same way, remembered by the
/// sum's components.
fn searched_as_one_game(
    session: &mut Session,
    sum: &[PosId],
    memo: &mut HashMap<Vec<PosId>, u32>,
) -> u32 {
    let key = sum.to_vec();
    if let Some(&v) = memo.get(&key) {
        return v;
    }
    let moves = session.moves(sum).expect("the moves of a sum");
    let options: Vec<u32> = moves
        .iter()
        .map(|m| searched_as_one_game(session, &m.result, memo))
        .collect();
    let v = mex(options);
    memo.insert(key, v);
    v
}

/// A random octal code: 0 or 4 before the point, one to four digits after.
fn octal_code() -> impl Strategy<Value = String> {
    (
        prop::sample::select(vec![0u8, 4]),
        prop::collection::vec(0u8..=7, 1..=4),
    )
        .prop_map(|(first, rest)| {
            let rest: String = rest.iter().map(|d| d.to_string()).collect();
            format!("{first}.{rest}")
        })
}

/// g(0..=upto) of an octal game, written here from the definition of the
/// code: digit k, bit 1, removing k leaves nothing; bit 2, one non-empty
/// heap; bit 4, two non-empty heaps (k = 0 only splits).
fn octal_reference(code: &str, upto: usize) -> Vec<u32> {
    let digits: Vec<u32> = code
        .chars()
        .filter(|c| *c != '.')
        .map(|c| c.to_digit(8).expect("an octal digit"))
        .collect();
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let mut options = Vec::new();
        for (k, &d) in digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if k > 0 && d & 1 != 0 && rest == 0 {
                options.push(0);
            }
            if k > 0 && d & 2 != 0 && rest >= 1 {
                options.push(g[rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    options.push(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push(mex(options));
    }
    g
}

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
                m.value.clone(), actual,
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

    /// Sums of positions of random games (a subtraction game, an octal
    /// game, a splitting game): the value through the xor of the parts
    /// equals the value of the same sum searched as one game.
    #[test]
    fn sums_of_random_games_match_a_search_of_the_whole_sum(
        sa in prop::collection::btree_set(1u32..=5, 1..=3),
        code in octal_code(),
        components in prop::collection::vec((0usize..3, 0u32..=6), 1..=3),
    ) {
        let mut session = session_with(&random_games(&sa, &code));
        let text: Vec<String> = components
            .iter()
            .map(|&(g, n)| format!("{}({n})", ["A", "B", "C"][g]))
            .collect();
        let text = text.join(" + ");
        let parts = session.position(&text).expect("position");
        let by_xor = session.value(&parts).expect("value");
        let whole = searched_as_one_game(&mut session, &parts, &mut HashMap::new());
        prop_assert_eq!(by_xor, whole, "{} with SA = {:?}, B = {}", &text, &sa, &code);
    }

    /// Random subtraction sets: the table (bottom-up, through the affine
    /// path), the plain method and a brute force written here agree.
    #[test]
    fn random_subtraction_sets_agree_with_brute_force(
        s in prop::collection::btree_set(1u32..=12, 1..=5),
    ) {
        let mut session = session_with(&subtraction_games(&s));
        let upto = 60;
        let table = table_of(&mut session, "T", upto);
        let game = session.heap_game("T").expect("a heap game");
        let plain = session.plain_table(game, upto, |_, _| {}).expect("plain table");
        let brute = subtraction_brute(&s, upto as u32);
        prop_assert_eq!(&table, &brute, "table, S = {:?}", &s);
        prop_assert_eq!(&plain, &brute, "plain table, S = {:?}", &s);
    }

    /// Random octal codes: the kernel (`Session::table`), the plain method
    /// (`Session::plain_table`) and the reference written here agree.
    #[test]
    fn random_octal_codes_agree_with_a_plain_reference(code in octal_code()) {
        let mut session = session_with(&format!("game O = octal {code};"));
        let upto = 40;
        let table = table_of(&mut session, "O", upto);
        let game = session.heap_game("O").expect("a heap game");
        let plain = session.plain_table(game, upto, |_, _| {}).expect("plain table");
        let reference = octal_reference(&code, upto as usize);
        prop_assert_eq!(&table, &reference, "kernel, code {}", &code);
        prop_assert_eq!(&plain, &reference, "plain method, code {}", &code);
    }
}

/// The reference itself, on codes whose sequences are published: Kayles
/// (OEIS A002186) and Dawson's Chess 0.137 (A002187).
#[test]
fn the_octal_reference_gives_the_published_sequences() {
    assert_eq!(
        octal_reference("0.77", 12),
        [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4]
    );
    assert_eq!(
        octal_reference("0.137", 12),
        [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2]
    );
}
