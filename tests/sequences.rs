//! Grundy values of classic heap games against their published OEIS
//! sequences, and hand-written rules against the octal codes they spell out.
//!
//! The OEIS terms below were transcribed from the OEIS entries' data
//! sections (oeis.org/A002186, /A002187, /A002188, internal format). A
//! transcription slip is caught by `published_terms_match_brute_force`,
//! which recomputes every term with a tiny brute force written here in
//! plain Rust, sharing no code with grundy.

mod common;

use common::{mex, session_with, table_of, value_of};

/// OEIS A002186: Sprague-Grundy values for Kayles (octal games .77 and .771).
/// OFFSET 0: the first term is a(0), the empty row, so `A002186[n]` is g(n).
const A002186: [u32; 100] = [
    0, 1, 2, 3, 1, 4, 3, 2, 1, 4, // 0..=9
    2, 6, 4, 1, 2, 7, 1, 4, 3, 2, // 10..=19
    1, 4, 6, 7, 4, 1, 2, 8, 5, 4, // 20..=29
    7, 2, 1, 8, 6, 7, 4, 1, 2, 3, // 30..=39
    1, 4, 7, 2, 1, 8, 2, 7, 4, 1, // 40..=49
    2, 8, 1, 4, 7, 2, 1, 4, 2, 7, // 50..=59
    4, 1, 2, 8, 1, 4, 7, 2, 1, 8, // 60..=69
    6, 7, 4, 1, 2, 8, 1, 4, 7, 2, // 70..=79
    1, 8, 2, 7, 4, 1, 2, 8, 1, 4, // 80..=89
    7, 2, 1, 8, 2, 7, 4, 1, 2, 8, // 90..=99
];

/// OEIS A002187: Sprague-Grundy values for Dawson's Chess (octal game .137).
/// OFFSET 0,4: the first term is a(0), so `A002187[n]` is g(n). The entry
/// also notes that Dawson's Kayles (.07) has values a(n-1).
const A002187: [u32; 100] = [
    0, 1, 1, 2, 0, 3, 1, 1, 0, 3, // 0..=9
    3, 2, 2, 4, 0, 5, 2, 2, 3, 3, // 10..=19
    0, 1, 1, 3, 0, 2, 1, 1, 0, 4, // 20..=29
    5, 2, 7, 4, 0, 1, 1, 2, 0, 3, // 30..=39
    1, 1, 0, 3, 3, 2, 2, 4, 4, 5, // 40..=49
    5, 2, 3, 3, 0, 1, 1, 3, 0, 2, // 50..=59
    1, 1, 0, 4, 5, 3, 7, 4, 8, 1, // 60..=69
    1, 2, 0, 3, 1, 1, 0, 3, 3, 2, // 70..=79
    2, 4, 4, 5, 5, 9, 3, 3, 0, 1, // 80..=89
    1, 3, 0, 2, 1, 1, 0, 4, 5, 3, // 90..=99
];

/// OEIS A002188: Sprague-Grundy values for Grundy's game.
/// OFFSET 0,6: the first term is a(0), so `A002188[n]` is g(n).
const A002188: [u32; 100] = [
    0, 0, 0, 1, 0, 2, 1, 0, 2, 1, // 0..=9
    0, 2, 1, 3, 2, 1, 3, 2, 4, 3, // 10..=19
    0, 4, 3, 0, 4, 3, 0, 4, 1, 2, // 20..=29
    3, 1, 2, 4, 1, 2, 4, 1, 2, 4, // 30..=39
    1, 5, 4, 1, 5, 4, 1, 5, 4, 1, // 40..=49
    0, 2, 1, 0, 2, 1, 5, 2, 1, 3, // 50..=59
    2, 1, 3, 2, 4, 3, 2, 4, 3, 2, // 60..=69
    4, 3, 2, 4, 3, 2, 4, 3, 2, 4, // 70..=79
    5, 2, 4, 5, 2, 4, 3, 7, 4, 3, // 80..=89
    7, 4, 3, 7, 4, 3, 5, 2, 3, 5, // 90..=99
];

/// The games under test, written in the language.
const GAMES: &str = r#"
game Kayles = octal 0.77;
game Dawson = octal 0.137;
game DawsonKayles = octal 0.07;

// Grundy's game: split one heap into two unequal non-empty heaps.
game Grundy(n: nat) {
  move split(a in 1..n) if a < n - a => Grundy(a) + Grundy(n - a);
}

// Kayles by hand: knock down one pin, or two adjacent pins, from a row of n,
// leaving the a pins to its left and the rest to its right.
game KaylesRules(n: nat) {
  move one(a in 0..n) => KaylesRules(a) + KaylesRules(n - 1 - a);
  move two(a in 0..n - 1) => KaylesRules(a) + KaylesRules(n - 2 - a);
}

// Dawson's Kayles by hand: knock down exactly two adjacent pins.
game DawsonKaylesRules(n: nat) {
  move two(a in 0..n - 1) => DawsonKaylesRules(a) + DawsonKaylesRules(n - 2 - a);
}

// Dawson's Chess by hand, in its node-Kayles form: pick one of the n files
// and remove it together with its neighbours. Picking file i leaves the
// i - 1 files left of its neighbour and the n - i - 2 right of the other.
game DawsonRules(n: nat) {
  move pick(i in 0..n) =>
    DawsonRules(if i == 0 then 0 else i - 1)
      + DawsonRules(if i + 2 > n then 0 else n - i - 2);
}
"#;

// ---------------------------------------------------------------------------
// Independent brute force: plain Rust, a direct mex over options.
// ---------------------------------------------------------------------------

/// Kayles from its description: a move knocks down one pin or two adjacent
/// pins of a row of n, leaving rows of a and b pins.
fn kayles_brute(upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let mut options = Vec::new();
        for take in 1..=2 {
            if take <= n {
                for a in 0..=n - take {
                    options.push(g[a] ^ g[n - take - a]);
                }
            }
        }
        g.push(mex(options));
    }
    g
}

/// Any octal game from the definition of its code: digit k (the k-th after
/// the point) has bit 1 if k tokens may be removed leaving nothing, bit 2 if
/// they may be removed leaving one non-empty heap, bit 4 if leaving two.
fn octal_brute(code: &str, upto: usize) -> Vec<u32> {
    let digits: Vec<u32> = code
        .strip_prefix("0.")
        .expect("codes here start with 0.")
        .chars()
        .map(|c| c.to_digit(8).expect("octal digit"))
        .collect();
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let mut options = Vec::new();
        for (i, &d) in digits.iter().enumerate() {
            let k = i + 1;
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                options.push(0);
            }
            if d & 2 != 0 && rest >= 1 {
                options.push(g[rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                for a in 1..rest {
                    options.push(g[a] ^ g[rest - a]);
                }
            }
        }
        g.push(mex(options));
    }
    g
}

/// Grundy's game: split a heap into two unequal non-empty heaps.
fn grundy_brute(upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let options = (1..n).filter(|&a| a != n - a).map(|a| g[a] ^ g[n - a]);
        g.push(mex(options.collect::<Vec<_>>()));
    }
    g
}

#[test]
fn published_terms_match_brute_force() {
    assert_eq!(kayles_brute(99), A002186, "A002186 vs Kayles brute force");
    assert_eq!(octal_brute("0.77", 99), A002186, "A002186 vs octal .77");
    assert_eq!(octal_brute("0.137", 99), A002187, "A002187 vs octal .137");
    assert_eq!(grundy_brute(99), A002188, "A002188 vs Grundy brute force");
    // The OEIS comment on A002187: Dawson's Kayles (.07) has values a(n-1).
    let dawson_kayles = octal_brute("0.07", 100);
    assert_eq!(dawson_kayles[0], 0);
    assert_eq!(&dawson_kayles[1..], &A002187[..]);
    // Spot checks against Flammenkamp's table of Grundy's game.
    for (n, v) in [(20, 0), (50, 0), (53, 0), (87, 7), (90, 7), (93, 7)] {
        assert_eq!(A002188[n], v, "G({n})");
    }
}

#[test]
fn kayles_matches_a002186() {
    let mut session = session_with(GAMES);
    assert_eq!(table_of(&mut session, "Kayles", 99), A002186);
}

#[test]
fn dawsons_chess_matches_a002187() {
    let mut session = session_with(GAMES);
    assert_eq!(table_of(&mut session, "Dawson", 99), A002187);
}

#[test]
fn dawsons_kayles_is_a002187_shifted() {
    let mut session = session_with(GAMES);
    let values = table_of(&mut session, "DawsonKayles", 100);
    assert_eq!(values[0], 0);
    assert_eq!(&values[1..], &A002187[..]);
}

#[test]
fn grundys_game_matches_a002188() {
    let mut session = session_with(GAMES);
    assert_eq!(table_of(&mut session, "Grundy", 99), A002188);
}

#[test]
fn grundys_game_as_the_code_4_bang_0_matches_a002188() {
    // CGSuite's code for Grundy's game: split into two unequal heaps.
    let mut session = session_with("game G = octal 4!.0;");
    assert_eq!(table_of(&mut session, "G", 99), A002188);
}

/// Split a heap into two or more non-empty heaps (CGSuite's `{2+}.0`),
/// by brute force over the partitions of each heap.
fn split_into_many_brute(upto: usize) -> Vec<u32> {
    // The nim-sums of the partitions of `rest` into parts of at most
    // `largest`, each folded into `acc`.
    fn sums(g: &[u32], rest: usize, largest: usize, acc: u32, parts: usize, out: &mut Vec<u32>) {
        if rest == 0 {
            if parts >= 2 {
                out.push(acc);
            }
            return;
        }
        for part in 1..=largest.min(rest) {
            sums(g, rest - part, part, acc ^ g[part], parts + 1, out);
        }
    }
    let mut g: Vec<u32> = Vec::new();
    for n in 0..=upto {
        let mut options = Vec::new();
        sums(&g, n, n.saturating_sub(1), 0, 0, &mut options);
        g.push(mex(options));
    }
    g
}

#[test]
fn splitting_into_two_or_more_heaps_matches_brute_force() {
    let mut session = session_with("game Many = octal {2+}.0;");
    assert_eq!(
        table_of(&mut session, "Many", 18),
        split_into_many_brute(18)
    );
}

#[test]
fn nim_as_the_repeating_code_0_3_is_the_heap_itself() {
    let mut session = session_with("game N = octal 0.[3];");
    let heaps: Vec<u32> = (0..=60).collect();
    assert_eq!(table_of(&mut session, "N", 60), heaps);
}

/// The same values asked one position at a time, through `position` and
/// `value`, rather than through `table`.
#[test]
fn single_positions_match_the_sequences() {
    let mut session = session_with(GAMES);
    for n in 0..100 {
        assert_eq!(value_of(&mut session, &format!("Kayles({n})")), A002186[n]);
        assert_eq!(value_of(&mut session, &format!("Dawson({n})")), A002187[n]);
        assert_eq!(value_of(&mut session, &format!("Grundy({n})")), A002188[n]);
    }
}

/// Sums of heaps: the value is the nim-sum of the published terms.
#[test]
fn sums_of_heaps_are_nim_sums_of_the_sequences() {
    let mut session = session_with(GAMES);
    for (a, b, c) in [(0, 0, 0), (1, 2, 3), (7, 11, 29), (40, 63, 99), (5, 5, 5)] {
        let text = format!("Kayles({a}) + Dawson({b}) + Grundy({c})");
        let expected = A002186[a] ^ A002187[b] ^ A002188[c];
        assert_eq!(value_of(&mut session, &text), expected, "{text}");
        let text = format!("Kayles({a}) + Kayles({b}) + Kayles({c})");
        let expected = A002186[a] ^ A002186[b] ^ A002186[c];
        assert_eq!(value_of(&mut session, &text), expected, "{text}");
    }
}

#[test]
fn hand_written_kayles_agrees_with_octal_077() {
    let mut session = session_with(GAMES);
    let by_code = table_of(&mut session, "Kayles", 60);
    let by_rules = table_of(&mut session, "KaylesRules", 60);
    assert_eq!(by_rules, by_code);
    assert_eq!(by_rules, A002186[..=60]);
}

#[test]
fn hand_written_dawsons_kayles_agrees_with_octal_007() {
    let mut session = session_with(GAMES);
    let by_code = table_of(&mut session, "DawsonKayles", 60);
    let by_rules = table_of(&mut session, "DawsonKaylesRules", 60);
    assert_eq!(by_rules, by_code);
    assert_eq!(by_rules[1..], A002187[..60]);
}

#[test]
fn hand_written_dawsons_chess_agrees_with_octal_0137() {
    let mut session = session_with(GAMES);
    let by_code = table_of(&mut session, "Dawson", 60);
    let by_rules = table_of(&mut session, "DawsonRules", 60);
    assert_eq!(by_rules, by_code);
    assert_eq!(by_rules, A002187[..=60]);
}
