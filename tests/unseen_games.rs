//! Games written from the language guide by hands that never saw the
//! engines: each compared with the reference interpreter on every
//! position reachable from a small start, by every engine.

mod common;

use common::engines::{agree_from, Limits};
use common::{mex, session_with, value_of};
use grundy::eval::engine::Path;
use std::collections::{HashMap, HashSet};
use std::hash::Hash;

const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

macro_rules! game {
    ($name:literal) => {
        (
            $name,
            include_str!(concat!("unseen_games/", $name, ".game")),
        )
    };
}

fn agree((name, text): (&str, &str), starts: &[&str], compiled: bool) {
    agree_from(name, text, starts, LIMITS, compiled);
}

/// Nim with a cap on each heap, the caps a constant read beside the
/// heaps: by a pair of pairs (`enumerate(zip(..))`), a pair whose first
/// element is a pair, and a plain `zip`; caps shorter than the heaps
/// leave the last heaps out. Each must be searched compiled.
#[test]
fn caps_read_beside_heaps_compile() {
    let capped = game!("capped");
    agree(capped, &["Capped([1,2,3,2])", "Capped([0,4,1])"], true);
    let forms = [
        "move take(((i, h), c) in zip(enumerate(hs), CAPS), k in 1..=min(h, c)) => \
         Capped(set_at(hs, i, h - k));",
        "move take((i, (h, c)) in enumerate(zip(hs, CAPS)), k in 1..=c) if k <= h => \
         Capped(set_at(hs, i, hs[i] - k));",
    ];
    for (n, form) in forms.iter().enumerate() {
        for caps in ["[1, 2, 3, 4]", "[2, 1]"] {
            let text = format!("const CAPS = {caps};\ngame Capped(hs: [nat]) {{\n  {form}\n}}\n");
            let name = format!("capped form {n} caps {caps}");
            agree_from(&name, &text, &["Capped([2,3,1,2])"], LIMITS, true);
        }
    }
    let zipped = "const CAPS = [2, 1, 3];\ngame Z(hs: [nat]) {\n  \
         move take(i in indices(hs), (h, c) in zip(hs, CAPS), k in 1..=min(h, c)) \
         if hs[i] == h => Z(set_at(hs, i, h - k));\n}\n";
    agree_from("zip with a constant", zipped, &["Z([2,2,3])"], LIMITS, true);
}

/// Every game written for this file agrees with the reference, whichever
/// engine runs it.
#[test]
fn every_game_agrees() {
    agree(game!("northcott"), &["North([(0,3),(1,4),(0,2)])"], false);
    agree(game!("passnim"), &["Pass([2,3,1,2])"], false);
    agree(
        game!("hackenstrings"),
        &["Stalks([\"GGG\",\"GG\",\"G.G\"])"],
        false,
    );
    agree(game!("nodekayles"), &["NK(\"..............\")"], true);
    agree(game!("nodekayles2"), &["NK({})"], false);
    agree(game!("divchomp"), &["Chomp(set(0..15))"], false);
    agree(game!("twocoins"), &["Coins(\"HTHHTHH\")"], false);
    agree(game!("dawson"), &["Dawson(\"..........\")"], false);
    agree(game!("triple"), &["T((4,5,6))"], false);
    agree(game!("capped"), &["Capped([1,2,3,2])"], false);
    agree(game!("product"), &["Many([2,2,3])"], false);
    agree(game!("sorted"), &["Sorted([3,4,5])"], true);
    agree(game!("joinrow"), &["Row(\"....#.......\")"], false);
    agree(game!("mirror"), &["TX(\"........\")"], true);
    agree(
        game!("anyrow"),
        &["Cover([\"...\", \"...\", \"..#\"])"],
        false,
    );
}

/// Two lists of numbers compared whole: a `product`'s tuple against the
/// heaps (`p != hs`), and the heaps against a constant as long as they
/// are, shorter, and longer. Each must be searched compiled.
#[test]
fn lists_compared_whole_compile() {
    agree(
        game!("product"),
        &["Many([2,2,3])", "Many([1,0,2,1])"],
        true,
    );
    for goal in ["[1, 1]", "[1]", "[1, 1, 0]"] {
        let text = format!(
            "const GOAL = {goal};\ngame G(hs: [nat]) {{\n  \
             move take(i in indices(hs), k in 1..=hs[i]) if hs != GOAL => \
             G(set_at(hs, i, hs[i] - k));\n}}\n"
        );
        agree_from(
            &format!("against {goal}"),
            &text,
            &["G([2,3])"],
            LIMITS,
            true,
        );
    }
}

/// Tuples written out, or named by a constant, walked by a comprehension
/// inside `any` or `all`: each element read from the tuples' column at
/// the walk's place. Each must be searched compiled.
#[test]
fn tuples_written_out_walked_by_comprehensions_compile() {
    agree(
        game!("anycover"),
        &["Cover([\"...\", \"...\", \"..#\"])"],
        true,
    );
    let lone = "const DIRS = [(0, 1), (1, 0), (0, -1), (-1, 0)];\n\
         fn empty(g: grid, r: int, c: int) = r >= 0 and c >= 0 and r < len(g) and \
         c < len(g[0]) and g[r][c] == \".\";\n\
         game Lone(g: grid) {\n  \
         move put((r, c) in cells(g, \".\")) if all([not empty(g, r + dr, c + dc) or \
         (dr, dc) == (1, 0) for (dr, dc) in DIRS]) => \
         Lone(set_at(g, r, set_at(g[r], c, \"#\")));\n  \
         move pair((r, c) in cells(g, \".\")) if empty(g, r, c + 1) => \
         Lone(set_at(g, r, set_at(set_at(g[r], c, \"#\"), c + 1, \"#\")));\n}\n";
    agree_from(
        "lone cells",
        lone,
        &["Lone([\"...\", \".#.\", \"...\"])"],
        LIMITS,
        true,
    );
}

/// The length of a constant whose elements are lists (a graph's
/// neighbour lists), as the bound of a walk over its vertices: Node
/// Kayles with the taken vertices as a set. Each must be searched
/// compiled.
#[test]
fn lengths_of_constant_lists_of_lists_compile() {
    agree(game!("nodekayles2"), &["NK({})", "NK({3, 10})"], true);
    let indexed = "const ADJ = [[1], [0, 2], [1, 3], [2, 4], [3]];\n\
         game P(taken: [bool]) {\n  \
         move pick(v in indices(ADJ)) if not taken[v] and \
         all([not taken[w] for w in ADJ[v]]) => P(set_at(taken, v, true));\n}\n";
    agree_from(
        "a path by indices",
        indexed,
        &["P([false, false, false, false, false])"],
        LIMITS,
        true,
    );
}

/// The Grundy value of `start` by brute force: the least value none of
/// its options has, each option's value found the same way.
fn brute<S: Clone + Eq + Hash>(
    start: &S,
    options: &dyn Fn(&S) -> Vec<S>,
    memo: &mut HashMap<S, u32>,
) -> u32 {
    if let Some(&v) = memo.get(start) {
        return v;
    }
    let values: Vec<u32> = options(start)
        .iter()
        .map(|o| brute(o, options, memo))
        .collect();
    let v = mex(values);
    memo.insert(start.clone(), v);
    v
}

/// Whether heap `i` of heaps `h` may lose `k` counters.
type Rule = fn(&[u32], usize, u32) -> bool;

/// Each game named beside its rule, from each start, against a brute
/// force that takes any heap down by any amount the rule allows.
fn taken_down_by_rules(game: (&str, &str), rules: &[(&str, Rule)], starts: &[Vec<u32>]) {
    for &(name, rule) in rules {
        let options = |h: &Vec<u32>| -> Vec<Vec<u32>> {
            let mut out = Vec::new();
            for i in 0..h.len() {
                for k in (1..=h[i]).filter(|&k| rule(h, i, k)) {
                    let mut o = h.clone();
                    o[i] -= k;
                    out.push(o);
                }
            }
            out
        };
        let texts: Vec<String> = starts.iter().map(|s| format!("{name}({s:?})")).collect();
        let mut memo = HashMap::new();
        for (s, v) in starts.iter().zip(values_of(game, &texts)) {
            assert_eq!(v, brute(s, &options, &mut memo), "{name}({s:?})");
        }
    }
}

/// The values of the positions written as text, by the default engines.
fn values_of((_, text): (&str, &str), positions: &[String]) -> Vec<u32> {
    let mut session = session_with(text);
    positions
        .iter()
        .map(|p| value_of(&mut session, p))
        .collect()
}

/// Neighbour lists of a graph given by its edges.
fn neighbours(n: usize, edges: &[(usize, usize)]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges {
        adj[a].push(b);
        adj[b].push(a);
    }
    adj
}

/// Dawson's Kayles, g(0..=20) (OEIS A002187): Cram on a path of cells.
const DAWSON: [u32; 21] = [
    0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3,
];

/// Kayles by brute force: knock down one pin or two neighbours of a row,
/// leaving rows of a and b pins.
fn kayles(n: usize) -> u32 {
    let mut g = vec![0u32; n + 1];
    for m in 1..=n {
        let rows = (1..=m.min(2)).flat_map(|k| (0..=m - k).map(move |a| (a, m - k - a)));
        let values: Vec<u32> = rows.map(|(a, b)| g[a] ^ g[b]).collect();
        g[m] = mex(values);
    }
    g[n]
}

/// Pins as the 1 bits of a number, found with `pow` and cleared with
/// `xor`: a row of n pins is Dawson's Kayles on n (OEIS A002187), and
/// rows apart add as a nim-sum. Searched compiled.
#[test]
fn pins_as_bits_are_dawsons_kayles() {
    let game = game!("bitrow");
    agree(game, &["Pins(1911)", "Pins(255)"], true);
    let rows = (0..=15).map(|n| (1u32 << n) - 1);
    let apart = [0b1110111, 0b1111011111, 0b110110110111, 0b1011101101111011];
    let all: Vec<u32> = rows.chain(apart).collect();
    let texts: Vec<String> = all.iter().map(|x| format!("Pins({x})")).collect();
    for (&x, v) in all.iter().zip(values_of(game, &texts)) {
        let runs = format!("{x:b}");
        let want = runs.split('0').fold(0, |g, run| g ^ DAWSON[run.len()]);
        assert_eq!(v, want, "Pins({runs})");
    }
}

/// `len`, `sum` and `count` of comprehensions in guards, worked out as
/// the walk makes the elements, and `xor` of the heaps and of the list a
/// move makes: each game searched compiled and against a brute force,
/// Moore's Nim against Moore's theorem (a position is lost exactly when
/// every binary column of the piles sums to a multiple of 3), and a
/// place off the list failing as the reference fails.
#[test]
fn lists_counted_by_comprehensions_compile() {
    let game = game!("counted");
    agree(
        game,
        &[
            "Crowd([2,3,1])",
            "Others([3,1,2])",
            "Odd([2,3,3])",
            "Moore([2,3,1])",
            "NotOne([2,3,1])",
            "Calm([2,1,3])",
        ],
        true,
    );
    agree(game, &["Past([1,2])"], false);
    let rules: [(&str, Rule); 5] = [
        ("Crowd", |h, _, k| {
            k as usize <= h.iter().filter(|&&x| x > 0).count()
        }),
        ("Others", |h, i, k| {
            let others: u32 = h
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != i)
                .map(|(_, x)| x)
                .sum();
            k <= others.max(1)
        }),
        ("Odd", |h, _, k| {
            k <= 2 && h.iter().filter(|&&x| x % 2 == 1).count() % 2 == 1
        }),
        ("NotOne", |h, i, k| {
            h.iter().fold(0, |x, &v| x ^ v) ^ h[i] ^ (h[i] - k) != 1
        }),
        ("Calm", |h, _, k| {
            h.iter().fold(0, |x, &v| x ^ v) != 0 || k == 1
        }),
    ];
    let starts = [vec![3, 4, 2], vec![5, 1, 1], vec![0, 6, 3], vec![2, 2, 5]];
    taken_down_by_rules(game, &rules, &starts);
    let piles = [
        [1, 2, 3],
        [3, 3, 3],
        [2, 4, 5],
        [1, 1, 1],
        [4, 4, 4],
        [3, 5, 6],
        [7, 7, 7],
    ];
    let texts: Vec<String> = piles.iter().map(|p| format!("Moore({p:?})")).collect();
    for (p, v) in piles.iter().zip(values_of(game, &texts)) {
        let lost = (0..3).all(|bit| p.iter().map(|x| x >> bit & 1).sum::<u32>() % 3 == 0);
        assert_eq!(v == 0, lost, "Moore({p:?})");
    }
}

/// `mex` of a list parameter, a list written out and a comprehension
/// (whose values may be negative, and whose mex passes what one word of
/// bits holds): each compared with the reference, searched compiled.
#[test]
fn a_mex_worked_out_in_a_rule_compiles() {
    let game = game!("mexed");
    agree(game, &["Skip([2,3,1])", "Digits(30)", "Far(12)"], true);
    agree(game, &["Far(80)"], false);
    let options = |&n: &u32| -> Vec<u32> {
        let avoid = [n % 3, (n / 3) % 3];
        let mex = (0..).find(|v| !avoid.contains(v)).unwrap_or(0);
        (1..=n.min(2))
            .filter(|&k| k != mex)
            .map(|k| n - k)
            .collect()
    };
    let texts: Vec<String> = (0..40).map(|n| format!("Digits({n})")).collect();
    let mut memo = HashMap::new();
    for (n, v) in (0..40u32).zip(values_of(game, &texts)) {
        assert_eq!(v, brute(&n, &options, &mut memo), "Digits({n})");
    }
}

/// A helper given the list a move makes (`set_at` of the heaps, a
/// comprehension) to test it: the list is made whole before the helper's
/// body, as the interpreter makes it, errors and all. The games are
/// searched compiled and against a brute force; the mistakes fail as the
/// reference does.
#[test]
fn helpers_given_the_list_a_move_makes_compile() {
    let game = game!("ordered");
    agree(game, &["Ordered([1,2,3,3])", "Enough([2,1,3])"], true);
    agree(game, &["Off([1,2,2])", "Below([1,2,2])", "Off([])"], false);
    let ordered = |h: &Vec<u32>| h.windows(2).all(|w| w[0] <= w[1]);
    let options = |h: &Vec<u32>| -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for i in 0..h.len() {
            for k in 1..=h[i] {
                let mut o = h.clone();
                o[i] -= k;
                if ordered(&o) {
                    out.push(o);
                }
            }
        }
        out
    };
    let starts = [
        vec![1, 2, 3],
        vec![2, 2, 5],
        vec![0, 3, 4, 6],
        vec![1, 1, 1, 7],
    ];
    let texts: Vec<String> = starts.iter().map(|s| format!("Ordered({s:?})")).collect();
    let mut memo = HashMap::new();
    for (s, v) in starts.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, brute(s, &options, &mut memo), "Ordered({s:?})");
    }
}

/// `index_of` of a letter in a string parameter, a letter the board
/// holds and one it never does: searched compiled, against the reference
/// and a brute force.
#[test]
fn the_first_place_of_a_letter_compiles() {
    let game = game!("leftmost");
    agree(game, &["Left(\"HTHHTH\")", "Never(\"HHTH\")"], true);
    let options = |row: &Vec<bool>| -> Vec<Vec<bool>> {
        let Some(first) = row.iter().position(|&h| h) else {
            return Vec::new();
        };
        let mut one = row.clone();
        one[first] = false;
        let mut out = vec![one.clone()];
        for j in first + 1..row.len() {
            let mut two = one.clone();
            two[j] = !two[j];
            out.push(two);
        }
        out
    };
    let rows = ["HTHHTHTTH", "TTTH", "HHHHHHH", "THTHTHTHTH"];
    let texts: Vec<String> = rows.iter().map(|r| format!("Left(\"{r}\")")).collect();
    let mut memo = HashMap::new();
    for (r, v) in rows.iter().zip(values_of(game, &texts)) {
        let heads: Vec<bool> = r.chars().map(|c| c == 'H').collect();
        assert_eq!(v, brute(&heads, &options, &mut memo), "Left({r})");
    }
}

/// Pieces of a list cut out with `slice` (its ends past the list, or
/// below 0, moved inside): summed, walked, and given to a helper, each
/// searched compiled and against a brute force.
#[test]
fn slices_of_a_list_compile() {
    let game = game!("sliced");
    agree(
        game,
        &["Left([2,3,1,2])", "Tallest([2,3,1,2])", "Three([2,1,2,1])"],
        true,
    );
    let rules: [(&str, Rule); 2] = [
        ("Left", |h, i, k| k <= h[..i].iter().sum::<u32>().max(1)),
        ("Tallest", |h, i, _| h[i + 1..].iter().all(|&x| x <= h[i])),
    ];
    let starts = [
        vec![3, 1, 2],
        vec![1, 4, 2, 2],
        vec![0, 3, 3],
        vec![2, 5, 1],
    ];
    taken_down_by_rules(game, &rules, &starts);
}

/// A game whose moves lead into another (Fibonacci Nim's first move):
/// the positions of the second game met in the first's search are valued
/// by the second's compiled search. Against the reference, and Zeckendorf's
/// fact that the first player loses exactly on a Fibonacci number.
#[test]
fn a_game_leading_into_another_searches_the_other_compiled() {
    let game = game!("fibonacci");
    agree(game, &["Start(12)", "Start(13)"], false);
    let mut session = session_with(game.1);
    session.interp.engines.clear();
    let lost: Vec<u32> = (2..=100)
        .filter(|n| value_of(&mut session, &format!("Start({n})")) == 0)
        .collect();
    assert_eq!(lost, [2, 3, 5, 8, 13, 21, 34, 55, 89]);
    let compiled = session.interp.engines.entries.iter().any(|e| {
        e.path == grundy::eval::engine::Path::CompiledSearch
            && session.interp.program.games[e.game as usize].name == "FibNim"
    });
    assert!(compiled, "FibNim is searched compiled");
}

/// Nimble: a coin on square n is a heap of n.
#[test]
fn nimble_is_nim_of_the_squares() {
    let game = game!("nimble");
    agree(game, &["Nimble([2,3,1])"], true);
    let starts = [[0, 0, 0], [1, 2, 3], [3, 5, 6], [4, 4, 7], [7, 1, 5]];
    let texts: Vec<String> = starts.iter().map(|s| format!("Nimble({s:?})")).collect();
    for (s, v) in starts.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, s[0] ^ s[1] ^ s[2], "Nimble({s:?})");
    }
}

/// Welter's game: two coins are worth one less than the nim-sum of their
/// squares; more coins against a brute force over masks of squares.
#[test]
fn welter_matches_its_function() {
    let game = game!("welter");
    agree(game, &["Welter({1,3,5})"], true);
    let pairs: Vec<(u32, u32)> = (0..7)
        .flat_map(|a| (a + 1..8).map(move |b| (a, b)))
        .collect();
    let texts: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("Welter({{{a}, {b}}})"))
        .collect();
    for (&(a, b), v) in pairs.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, (a ^ b) - 1, "Welter({{{a}, {b}}})");
    }
    let options = |&mask: &u32| -> Vec<u32> {
        let mut out = Vec::new();
        for c in (0..10).filter(|c| mask >> c & 1 == 1) {
            for to in (0..c).filter(|t| mask >> t & 1 == 0) {
                out.push(mask & !(1 << c) | 1 << to);
            }
        }
        out
    };
    let sets = [
        vec![1, 4, 6],
        vec![2, 3, 7],
        vec![0, 5, 8, 9],
        vec![3, 4, 5, 6],
    ];
    let texts: Vec<String> = sets.iter().map(|s| format!("Welter(set({s:?}))")).collect();
    let mut memo = HashMap::new();
    for (s, v) in sets.iter().zip(values_of(game, &texts)) {
        let mask = s.iter().fold(0u32, |m, c| m | 1 << c);
        assert_eq!(v, brute(&mask, &options, &mut memo), "Welter({s:?})");
    }
}

/// Ruler: a head on the nth coin (from 1) is worth the largest power of
/// 2 dividing n (OEIS A006519), and heads add as a nim-sum.
#[test]
fn ruler_is_the_ruler_function() {
    let game = game!("ruler");
    agree(game, &["Ruler(\"HHTHHH\")"], true);
    let rows = [
        "H",
        "TH",
        "TTH",
        "TTTH",
        "TTTTTTTH",
        "HTHH",
        "THTHTTHH",
        "HHHHHHHHH",
    ];
    let texts: Vec<String> = rows.iter().map(|r| format!("Ruler(\"{r}\")")).collect();
    for (row, v) in rows.iter().zip(values_of(game, &texts)) {
        let want = row
            .chars()
            .enumerate()
            .filter(|&(_, c)| c == 'H')
            .fold(0, |x, (i, _)| x ^ (1 << (i + 1).trailing_zeros()));
        assert_eq!(v, want, "Ruler({row})");
    }
}

/// Staircase Nim: the nim-sum of the coins on the odd steps (the first,
/// third, ... step from the ground).
#[test]
fn staircase_is_nim_on_odd_steps() {
    let game = game!("staircase");
    agree(game, &["Stairs([2,1,2,1])"], true);
    let starts = [
        vec![3, 2, 4, 1, 2],
        vec![1, 5, 1],
        vec![0, 3, 2, 3],
        vec![4, 4, 4, 4],
    ];
    let texts: Vec<String> = starts.iter().map(|s| format!("Stairs({s:?})")).collect();
    for (s, v) in starts.iter().zip(values_of(game, &texts)) {
        let want = s.iter().step_by(2).fold(0, |x, h| x ^ h);
        assert_eq!(v, want, "Stairs({s:?})");
    }
}

/// The silver dollar game without the dollar is Staircase Nim on the
/// gaps: the nim-sum of the gap before the last coin, the one before the
/// last but two, and so on.
#[test]
fn silver_dollar_is_staircase_on_gaps() {
    let game = game!("silver");
    agree(game, &["Strip(\".O..O.O\")"], true);
    let strips = [
        "..O.O...O.O.O",
        "O",
        "...O",
        ".O.O",
        "..O...O",
        "O..O.O...O",
    ];
    let texts: Vec<String> = strips.iter().map(|s| format!("Strip(\"{s}\")")).collect();
    for (strip, v) in strips.iter().zip(values_of(game, &texts)) {
        let coins: Vec<usize> = strip.match_indices('O').map(|(i, _)| i).collect();
        let gaps: Vec<u32> = coins
            .iter()
            .enumerate()
            .map(|(k, &p)| (if k == 0 { p } else { p - coins[k - 1] - 1 }) as u32)
            .collect();
        let want = gaps.iter().rev().step_by(2).fold(0, |x, g| x ^ g);
        assert_eq!(v, want, "Strip({strip})");
    }
}

/// Where a text first starts in a string, a parameter or one the rules
/// work out, and how often it occurs there, compile. Treblecross so
/// written is lost, from 3 to 14 empty cells, at 6 and 12 only.
#[test]
fn the_first_place_of_a_text_compiles() {
    let game = game!("found");
    agree(game, &["Treble(\"........\")", "Treble(\"..X..X.\")"], true);
    agree(game, &["Safe(\"......\")", "Safe(\"X..O..\")"], true);
    agree(game, &["Strip(\".o..o.oo\")", "Strip(\"..o.o\")"], true);
    agree(game, &["Pairs(\"........\")", "Pairs(\".X..XX..\")"], true);
    let rows: Vec<String> = (3..=14)
        .map(|n| format!("Treble(\"{}\")", ".".repeat(n)))
        .collect();
    let lost: Vec<usize> = (3..=14)
        .zip(values_of(game, &rows))
        .filter_map(|(n, v)| (v == 0).then_some(n))
        .collect();
    assert_eq!(lost, [6, 12]);
}

/// Mock Turtles on truth values, each new row made whole by a
/// comprehension: the value of a row is the nim-sum of the odious numbers
/// (those with an odd count of 1 bits: 1, 2, 4, 7, 8, ...) at its heads,
/// the coin at place i worth the i-th of them.
#[test]
fn mock_turtles_on_truth_values_is_the_odious_numbers() {
    let game = game!("turtlebools");
    let odious: Vec<u32> = (0..)
        .filter(|n: &u32| n.count_ones() % 2 == 1)
        .take(8)
        .collect();
    let rows: Vec<u32> = (0..1 << 8).collect();
    for name in ["Turtles", "Chosen"] {
        let start = format!("{name}([true,false,true,true,false,true])");
        agree_from(name, game.1, &[start.as_str()], LIMITS, true);
        let texts: Vec<String> = rows
            .iter()
            .map(|row| {
                let coins: Vec<&str> = (0..8)
                    .map(|i| if row >> i & 1 == 1 { "true" } else { "false" })
                    .collect();
                format!("{name}([{}])", coins.join(","))
            })
            .collect();
        for (row, v) in rows.iter().zip(values_of(game, &texts)) {
            let want = (0..8)
                .filter(|i| row >> i & 1 == 1)
                .fold(0, |x, i| x ^ odious[i]);
            assert_eq!(v, want, "{name} row {row:#010b}");
        }
    }
}

/// `set_at` at the places of a range made a list compiles. The
/// ruler game's single head at place i is worth the largest power of 2
/// dividing i + 1; in Chomp an L of equal arms is lost, and every
/// rectangle of more than one square is won.
#[test]
fn writes_at_the_places_of_a_range_compile() {
    let game = game!("ranged");
    agree(game, &["Ruler(\"HTHHTH\")", "Ruler(\"TTHH\")"], true);
    agree(game, &["Chomp([3,3,2,1])", "Chomp([4,1,1])"], true);
    // A range itself is no list of places: an error, reported alike.
    agree(game, &["Bare([3,3,2,1])"], false);
    agree(game, &["Bad(\"HTH\")"], false);
    let heads: Vec<String> = (0..10)
        .map(|i| format!("Ruler(\"{}H\")", "T".repeat(i)))
        .collect();
    for (i, v) in values_of(game, &heads).into_iter().enumerate() {
        assert_eq!(v, 1 << (i + 1).trailing_zeros(), "{}", heads[i]);
    }
    let ells: Vec<String> = (2..7)
        .map(|n| format!("Chomp([{n}{}])", ",1".repeat(n - 1)))
        .collect();
    assert!(values_of(game, &ells).iter().all(|&v| v == 0));
    let rectangles: Vec<String> = (2..5)
        .map(|n| format!("Chomp([{n}{}])", format!(",{n}").repeat(n)))
        .collect();
    assert!(values_of(game, &rectangles).iter().all(|&v| v != 0));
}

/// Two piles.
type Piles = (u32, u32);

/// Every pair of piles below `n`, and the pairs Wythoff's game loses at:
/// (floor(k phi), floor(k phi^2)) and the same turned round.
fn wythoff_lost(n: u32) -> (Vec<Piles>, HashSet<Piles>) {
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let lost = (0..n)
        .map(|k| {
            (
                (f64::from(k) * phi) as u32,
                (f64::from(k) * phi * phi) as u32,
            )
        })
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    let pairs = (0..n).flat_map(|a| (0..n).map(move |b| (a, b))).collect();
    (pairs, lost)
}

/// The least or largest of a comprehension, or of a choice of `subsets`,
/// compiles, and the least of no numbers fails as the reference fails.
/// Taking alike from one or two of two piles is Wythoff's game: lost
/// exactly at the pairs (floor(n phi), floor(n phi^2)).
#[test]
fn least_and_largest_of_worked_out_lists_compile() {
    let game = game!("least");
    agree(game, &["Least([3,2,4])", "Least([5,5])"], true);
    agree(game, &["Level([3,1,4,2])", "Level([2,5,5])"], true);
    agree(game, &["Most([2,1])", "Most([3,1,2])"], false);
    let (pairs, lost) = wythoff_lost(12);
    let texts: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("Least([{a},{b}])"))
        .collect();
    for (pair, v) in pairs.iter().zip(values_of(game, &texts)) {
        assert_eq!(v == 0, lost.contains(pair), "Least({pair:?})");
    }
}

/// Tuples written out whose elements are variables bound before the
/// walk (`(x, y) in [(k, 0), (0, k), (k, k)]`) compile, and their moves
/// are listed compiled with the pair each took, as are those of tuples
/// a constant names. Wythoff's game so written loses exactly at the
/// pairs (floor(n phi), floor(n phi^2)); the king's walk loses exactly
/// where both distances are even.
#[test]
fn tuples_of_variables_written_out_compile() {
    let game = game!("pairs");
    for (starts, name) in [
        (["Wythoff(5,7)", "Wythoff(0,4)"], "Wythoff"),
        (["King(4,5)", "King(3,0)"], "King"),
        (["Mixed(6,5)", "Mixed(3,7)"], "Mixed"),
    ] {
        for compared in agree_from(name, game.1, &starts, LIMITS, true) {
            let listed = (compared.listed_compiled, compared.positions.len());
            assert_eq!(listed.0, listed.1, "{name}: some listed by the interpreter");
        }
    }
    let (pairs, lost) = wythoff_lost(15);
    let wythoff: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("Wythoff({a},{b})"))
        .collect();
    let king: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("King({a},{b})"))
        .collect();
    let values = values_of(game, &wythoff)
        .into_iter()
        .zip(values_of(game, &king));
    for (&(a, b), (w, k)) in pairs.iter().zip(values) {
        assert_eq!(w == 0, lost.contains(&(a, b)), "Wythoff({a},{b})");
        assert_eq!(k == 0, a % 2 == 0 && b % 2 == 0, "King({a},{b})");
    }
}

/// Euclid's game: with 0 < a <= b, the player to move loses exactly when
/// a < b and b / a is below the golden ratio, b^2 - ab - a^2 < 0 (with
/// a = b, taking b to 0 ends the game).
#[test]
fn euclid_loses_below_the_golden_ratio() {
    let game = game!("euclid");
    agree(game, &["Euclid((13, 8))", "Euclid((5, 12))"], true);
    let pairs: Vec<(i64, i64)> = (1..15).flat_map(|a| (a..25).map(move |b| (a, b))).collect();
    let texts: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("Euclid(({b}, {a}))"))
        .collect();
    for (&(a, b), v) in pairs.iter().zip(values_of(game, &texts)) {
        let lost = a < b && b * b - a * b - a * a < 0;
        assert_eq!(v == 0, lost, "Euclid(({b}, {a}))");
    }
}

/// Divisor chomp: the first player wins on the divisors of every n > 1
/// (strategy stealing, as in Chomp), and loses on {1}.
#[test]
fn divisor_chomp_is_a_first_player_win() {
    let game = game!("dividers");
    agree(game, &["Div(divisors(24))", "Div(divisors(30))"], true);
    let texts: Vec<String> = (1..=40).map(|n| format!("Div(divisors({n}))")).collect();
    for (n, v) in (1..=40).zip(values_of(game, &texts)) {
        assert_eq!(v == 0, n == 1, "Div(divisors({n}))");
    }
}

/// A token on a graph, by neighbour lists and by the edges themselves,
/// against a brute force over the vertices removed.
#[test]
fn token_on_a_graph_matches_brute_force() {
    let edges = [
        (0, 1),
        (0, 2),
        (0, 4),
        (1, 3),
        (1, 5),
        (2, 3),
        (2, 6),
        (3, 7),
        (4, 5),
        (4, 6),
        (5, 7),
        (6, 7),
        (4, 8),
        (8, 9),
    ];
    let adj = neighbours(10, &edges);
    let options = |&(at, gone): &(usize, u32)| -> Vec<(usize, u32)> {
        adj[at]
            .iter()
            .filter(|&&w| gone >> w & 1 == 0)
            .map(|&w| (w, gone | 1 << at))
            .collect()
    };
    let mut memo = HashMap::new();
    let starts: Vec<(usize, u32)> = (0..10)
        .map(|v| (v, 0))
        .chain([(4, 0b10), (7, 0b1001)])
        .collect();
    let texts: Vec<String> = starts
        .iter()
        .map(|&(at, gone)| {
            let gone: Vec<u32> = (0..10).filter(|v| gone >> v & 1 == 1).collect();
            format!("Token({at}, set({gone:?}))")
        })
        .collect();
    for game in [game!("graphtoken"), game!("edgetoken")] {
        agree(game, &["Token(0, {})", "Token(9, {})"], true);
        for (start, v) in starts.iter().zip(values_of(game, &texts)) {
            assert_eq!(
                v,
                brute(start, &options, &mut memo),
                "{}: {start:?}",
                game.0
            );
        }
    }
}

/// The subtraction game {1, 3, 4} on several heaps: the nim-sum of the
/// heaps' values, which repeat 0 1 0 1 2 3 2.
#[test]
fn subtraction_heaps_add_up() {
    let game = game!("subheaps");
    agree(game, &["Heaps([5,6,3])"], true);
    let period = [0, 1, 0, 1, 2, 3, 2];
    let starts = [
        vec![9, 10, 11, 12],
        vec![7],
        vec![2, 9],
        vec![4, 5, 6, 13, 20],
    ];
    let texts: Vec<String> = starts.iter().map(|s| format!("Heaps({s:?})")).collect();
    for (s, v) in starts.iter().zip(values_of(game, &texts)) {
        let want = s.iter().fold(0, |x, h| x ^ period[h % 7]);
        assert_eq!(v, want, "Heaps({s:?})");
    }
}

/// Dots on a ring: the first domino leaves a row of n - 2 cells, which
/// is Dawson's Kayles; a ring with one cell covered is a row of n - 1.
#[test]
fn dots_on_a_ring_is_dawson_after_the_first_move() {
    let game = game!("dotsring");
    agree(game, &["Ring(\"..........\")"], true);
    let texts: Vec<String> = (2..=20)
        .flat_map(|n| {
            let open = ".".repeat(n);
            let holed = format!("#{}", ".".repeat(n - 1));
            [format!("Ring(\"{open}\")"), format!("Ring(\"{holed}\")")]
        })
        .collect();
    let found = values_of(game, &texts);
    for (n, v) in (2..=20).zip(found.chunks(2)) {
        assert_eq!(v[0], u32::from(DAWSON[n - 2] == 0), "a ring of {n}");
        assert_eq!(v[1], DAWSON[n - 1], "a ring of {n}, one cell covered");
    }
}

/// Circular Kayles: the first move leaves a row of n - 1 or n - 2 pins.
#[test]
fn circular_kayles_is_kayles_after_the_first_move() {
    let game = game!("kaylesring");
    agree(game, &["Ring(\"||||||||\")"], true);
    let texts: Vec<String> = (2..=14)
        .map(|n| format!("Ring(\"{}\")", "|".repeat(n)))
        .collect();
    for (n, v) in (2..=14).zip(values_of(game, &texts)) {
        assert_eq!(v, mex([kayles(n - 1), kayles(n - 2)]), "a ring of {n}");
    }
}

/// Cram by brute force on a set of cells given by their rows: `.` a cell.
fn cram(rows: &[&str]) -> u32 {
    let cells: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(r, row)| row.match_indices('.').map(move |(c, _)| (r, c)))
        .collect();
    let at = |r: usize, c: usize| cells.iter().position(|&x| x == (r, c));
    let dominoes: Vec<u32> = cells
        .iter()
        .flat_map(|&(r, c)| [at(r, c + 1), at(r + 1, c)].map(|o| (at(r, c), o)))
        .filter_map(|(a, b)| Some(1u32 << a? | 1 << b?))
        .collect();
    let options = |&taken: &u32| -> Vec<u32> {
        dominoes
            .iter()
            .filter(|&&d| taken & d == 0)
            .map(|d| taken | d)
            .collect()
    };
    brute(&0, &options, &mut HashMap::new())
}

/// Cram on boards of rows of different lengths, and on a board with
/// holes: a path of cells is Dawson's Kayles, and every board against
/// the brute force.
#[test]
fn cram_on_odd_boards_matches_brute_force() {
    let ragged = game!("raggedcram");
    agree(ragged, &["Cram([\"...\", \"..\", \".\"])"], false);
    let boards: [&[&str]; 6] = [
        &["....", "...", "..", "."],
        &[".", ".", ".", ".", "."],
        &["....", ".", ".", "."],
        &["..", "....", "...", "."],
        &["......"],
        &[".....", "..", "...."],
    ];
    let texts: Vec<String> = boards.iter().map(|b| format!("Cram({b:?})")).collect();
    let found = values_of(ragged, &texts);
    for (b, v) in boards.iter().zip(found) {
        assert_eq!(v, cram(b), "Cram({b:?})");
    }
    assert_eq!(cram(&[".", ".", ".", ".", "."]), DAWSON[5]);
    assert_eq!(cram(&["....", ".", ".", "."]), DAWSON[7]);
    let plus = game!("pluscram");
    agree(
        plus,
        &["Plus([\"#..#\", \"....\", \"....\", \"#..#\"])"],
        true,
    );
    let boards: [&[&str]; 4] = [
        &["#..#", "....", "....", "#..#"],
        &["#.#", "...", "#.#"],
        &["..#", "...", "#.."],
        &["#..##", ".....", "##..#"],
    ];
    let texts: Vec<String> = boards.iter().map(|b| format!("Plus({b:?})")).collect();
    for (b, v) in boards.iter().zip(values_of(plus, &texts)) {
        assert_eq!(v, cram(b), "Plus({b:?})");
    }
    // Turned a half turn onto itself, with no domino onto itself: the
    // second player copies every move.
    assert_eq!(cram(boards[0]), 0);
}

/// Cram walked by its cells, `(r, c) in cells(g, ".")`, each pair taken
/// apart into a row and a column: searched compiled, against the
/// reference (labels included) and the brute force. `Reach` reads a
/// cell's pair whole, and walks every cell with a loop after it. `Steps`
/// and `Bounds` lay both dominoes in one rule over two steps, which runs
/// as one rule a step: what one step's rule knows cuts none of the
/// other's loops.
#[test]
fn cram_by_its_cells_compiles() {
    let game = game!("cellscram");
    agree(game, &["Reach([\"...\", \"...\", \"..#\"])"], true);
    cram_forms(game, &["Cram", "Reach", "Steps", "Bounds"]);
}

/// Cram written column by column, each domino's cells compared as one
/// string (a slice of the row, two cells joined), or laid by joining the
/// row around the domino: searched compiled, against the reference and
/// Cram's brute force; a slice past the row's end is never two cells; a
/// joined string whose second cell is off the board fails as the
/// reference does, and a run laid past a string's end makes it longer; a
/// walk over a row the board lacks fails before the empty walk over its
/// rows, as written. The moves down made on the board turned (by
/// `transpose` or `rotate`) and turned back set the two cells they cover;
/// where the domino runs past the turned row's end, turning back fails
/// as the reference's does, and a row read past a turned board's end
/// fails, even where the turned board has one row.
#[test]
fn cram_by_strings_of_its_cells_compiles() {
    let game = game!("lettercram");
    cram_forms(game, &["Cram", "Edge", "Spliced", "Turned", "Quarter"]);
    let failing = [
        "Past([\"..\", \"..\"])",
        "Grow(\"...\")",
        "Sixth([\"..\", \"..\", \"..\"])",
        "Spill([\"...\", \"...\"])",
        "Spin([\"...\", \"...\"])",
        "Spill([\"...\"])",
        "Narrow([\".\", \"#\"])",
        "Narrow([\"#\", \"#\"])",
    ];
    agree(game, &failing, false);
    agree(game, &["Bottom([\"....\", \".#..\", \"....\"])"], true);
}

/// Each of the games `names` of `game`, a form of Cram on a grid: searched
/// compiled and compared with the reference from a board with a covered
/// cell, and its values on a few boards Cram's brute force's.
fn cram_forms(game: (&str, &str), names: &[&str]) {
    let boards: [&[&str]; 4] = [
        &["....", ".#..", "...."],
        &["......"],
        &["...", "...", "..."],
        &["#...", "....", "...#"],
    ];
    for name in names {
        agree(
            game,
            &[&format!("{name}([\"....\", \".#..\", \"....\"])")],
            true,
        );
        let texts: Vec<String> = boards.iter().map(|b| format!("{name}({b:?})")).collect();
        for (b, v) in boards.iter().zip(values_of(game, &texts)) {
            assert_eq!(v, cram(b), "{name}({b:?})");
        }
    }
}

/// Generators over a few pairs written out (a constant's, or a list in
/// the rule) run as one rule a pair, after a loop or before one: searched
/// compiled, against the reference and a brute force, and Wythoff's
/// losing positions are the pairs of the Beatty sequences of the golden
/// ratio.
#[test]
fn generators_over_pairs_written_out_compile() {
    let game = game!("knight");
    agree(game, &["Knight(9, 8)", "Wythoff(7, 9)"], true);
    let jumps = |&(x, y): &(u32, u32)| -> Vec<(u32, u32)> {
        let mut out = Vec::new();
        for k in 1..=2 {
            for (dx, dy) in [(2, 1), (1, 2)] {
                if k * dx <= x && k * dy <= y {
                    out.push((x - k * dx, y - k * dy));
                }
            }
        }
        out
    };
    let squares: Vec<(u32, u32)> = (0..12).flat_map(|x| (0..12).map(move |y| (x, y))).collect();
    let texts: Vec<String> = squares
        .iter()
        .map(|(x, y)| format!("Knight({x}, {y})"))
        .collect();
    let mut memo = HashMap::new();
    for (square, v) in squares.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, brute(square, &jumps, &mut memo), "Knight{square:?}");
    }
    let golden = (1.0 + 5f64.sqrt()) / 2.0;
    let texts: Vec<String> = squares
        .iter()
        .map(|(x, y)| format!("Wythoff({x}, {y})"))
        .collect();
    for ((x, y), v) in squares.iter().zip(values_of(game, &texts)) {
        let (a, b) = ((*x).min(*y), (*x).max(*y));
        let n = (0..12).find(|&n| (n as f64 * golden).floor() as u32 == a);
        let losing = n.is_some_and(|n| (n as f64 * golden * golden).floor() as u32 == b);
        assert_eq!(v == 0, losing, "Wythoff({x}, {y})");
    }
}

/// A new list joined from two pieces that lie side by side over the whole
/// list, read as one walk that chooses between them: searched compiled,
/// against the reference and a brute force of Chomp by column heights.
#[test]
fn pieces_side_by_side_compile() {
    let game = game!("tiles");
    agree(game, &["Bite([4, 4, 3, 1])", "Joined([3, 3, 2, 2])"], true);
    let bites = |h: &Vec<u32>| -> Vec<Vec<u32>> {
        let mut out = Vec::new();
        for c in 0..h.len() {
            for t in 0..h[c] {
                if c + t as usize > 0 {
                    let cut = |(j, &x): (usize, &u32)| if j < c { x } else { x.min(t) };
                    out.push(h.iter().enumerate().map(cut).collect());
                }
            }
        }
        out
    };
    let boards: [Vec<u32>; 4] = [
        vec![4, 4, 3, 1],
        vec![5, 5, 5],
        vec![3, 1, 2, 3],
        vec![6, 2],
    ];
    let mut memo = HashMap::new();
    for name in ["Bite", "Joined"] {
        let texts: Vec<String> = boards.iter().map(|h| format!("{name}({h:?})")).collect();
        for (h, v) in boards.iter().zip(values_of(game, &texts)) {
            assert_eq!(v, brute(h, &bites, &mut memo), "{name}({h:?})");
        }
    }
    // A rectangle is a first-player win: the strategy-stealing argument.
    assert_ne!(brute(&vec![5, 5, 5], &bites, &mut memo), 0);
}

/// A comprehension that gives back the places a subset holds (`[i for
/// (i, _) in chosen]` of a subset of `enumerate(piles)`, or `[i for i in
/// chosen]`) is that subset, and the values of a `set_at` taken back out
/// of a `zip` are that list: searched compiled, against the reference and
/// Moore's theorem (lost exactly when every binary column of the piles
/// sums to a multiple of 3); so is a list remade place by place from a
/// subset's places. A list longer than the places, which the pairs stop
/// short of, is handed to the interpreter, as the reference shows; so
/// are places that may repeat, and places past the list.
#[test]
fn places_read_back_from_a_subset_compile() {
    let game = game!("places");
    agree(
        game,
        &[
            "Places([2, 3, 1])",
            "Copied([3, 1, 2])",
            "Paired([2, 1, 3])",
            "Found([2, 3, 1])",
            "Helped([1, 3, 2])",
        ],
        true,
    );
    agree(
        game,
        &["Longer([2, 1, 2])", "Twice([2, 1, 2])", "Past([1, 2, 0])"],
        false,
    );
    let mut piles = Vec::new();
    for a in 0..4u32 {
        for b in 0..4u32 {
            for c in 0..4u32 {
                piles.push([a, b, c]);
            }
        }
    }
    for name in ["Places", "Copied", "Paired", "Found", "Helped"] {
        let texts: Vec<String> = piles.iter().map(|p| format!("{name}({p:?})")).collect();
        for (p, v) in piles.iter().zip(values_of(game, &texts)) {
            let lost = (0..2).all(|bit| p.iter().map(|x| (x >> bit) & 1).sum::<u32>() % 3 == 0);
            assert_eq!(v == 0, lost, "{name}({p:?})");
        }
    }
}

/// A generator over the small subsets of the coins left of the one
/// turned runs as one rule a size, each a loop a coin, or whole where the
/// sizes' rules do not compile: searched compiled, against the reference
/// and a brute force; a head alone in Mock Turtles is worth an odious
/// number (OEIS A000069).
#[test]
fn small_subsets_compile() {
    let game = game!("subsetcoins");
    agree(
        game,
        &[
            "Turtles(\"HTHHTH\")",
            "Four([1, 0, 1, 1, 0, 1])",
            "Apart(\"HTHHTH\")",
            "Moved(\"HTHHTHT\")",
        ],
        true,
    );
    // The rightmost head turned, and from `least` to `most` coins left of it.
    let turns = |least: usize, most: usize| {
        move |row: &Vec<bool>| -> Vec<Vec<bool>> {
            let mut out = Vec::new();
            for i in (0..row.len()).filter(|&i| row[i]) {
                for subset in 0u32..1 << i {
                    let size = subset.count_ones() as usize;
                    if size < least || size > most {
                        continue;
                    }
                    let mut next = row.clone();
                    next[i] = false;
                    for j in (0..i).filter(|&j| subset >> j & 1 == 1) {
                        next[j] = !next[j];
                    }
                    out.push(next);
                }
            }
            out
        }
    };
    let rows = ["HTHHTH", "TTTTTTH", "HHHHHHH", "THTTHHTH"];
    let heads = |r: &str| -> Vec<bool> { r.chars().map(|c| c == 'H').collect() };
    let texts: Vec<String> = rows.iter().map(|r| format!("Turtles(\"{r}\")")).collect();
    let mut memo = HashMap::new();
    for (r, v) in rows.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, brute(&heads(r), &turns(0, 2), &mut memo), "Turtles({r})");
    }
    // A subset read by `in`, which its rules a size cannot read: the
    // rule compiles whole, as it did before it was split.
    let texts: Vec<String> = rows.iter().map(|r| format!("Apart(\"{r}\")")).collect();
    for (r, v) in rows.iter().zip(values_of(game, &texts)) {
        assert_eq!(
            v,
            brute(&heads(r), &turns(0, 1), &mut HashMap::new()),
            "Apart({r})"
        );
    }
    let odious = [1, 2, 4, 7, 8, 11, 13];
    let alone: Vec<String> = (0..7)
        .map(|n| format!("Turtles(\"{}H\")", "T".repeat(n)))
        .collect();
    assert_eq!(values_of(game, &alone), odious);
    let bits = |r: &str| -> String {
        let coins: Vec<&str> = r
            .chars()
            .map(|c| if c == 'H' { "1" } else { "0" })
            .collect();
        format!("Four([{}])", coins.join(", "))
    };
    let texts: Vec<String> = rows.iter().map(|r| bits(r)).collect();
    let mut memo = HashMap::new();
    for (r, v) in rows.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, brute(&heads(r), &turns(1, 3), &mut memo), "{}", bits(r));
    }
}

/// Green Hackenbush on a graph: by the fusion principle a cycle through
/// the ground is as many loops, each worth 1, and a cycle at the top of a
/// stalk is a vertex with that many loops.
#[test]
fn hackenbush_on_a_graph_follows_fusion() {
    let game = game!("hackengraph");
    agree(game, &["Hack({0, 1, 2, 3, 4})", "Hack({5, 6, 7, 8})"], true);
    let cases = [
        ("{0, 1, 2}", 1),
        ("{0, 1, 2, 3, 4}", 1 ^ 2),
        ("{5, 6, 7, 8}", 2),
        ("{0, 1, 2, 5, 6, 7, 8}", 1 ^ 2),
        ("set(0..13)", 1 ^ 2 ^ 2 ^ 2),
    ];
    let texts: Vec<String> = cases.iter().map(|(s, _)| format!("Hack({s})")).collect();
    for ((s, want), v) in cases.iter().zip(values_of(game, &texts)) {
        assert_eq!(v, *want, "Hack({s})");
    }
}

/// The tree of `hackentree.game`, by each vertex's parent.
const TREE: [usize; 18] = [0, 0, 0, 1, 1, 2, 3, 3, 5, 5, 6, 8, 2, 12, 7, 4, 9, 13];

/// Green Hackenbush on a tree, whose rule asks a helper that calls itself
/// (`below`) which vertices fall: searched compiled, against the
/// reference, and each tree left by one cut worth what the colon
/// principle gives (a vertex is worth the nim-sum of its children's
/// worths, each plus one).
#[test]
fn hackenbush_on_a_tree_follows_the_colon_principle() {
    let game = game!("hackentree");
    agree(
        game,
        &["Tree(set(0..10))", "Tree({0, 2, 5, 8, 9, 11, 16})"],
        true,
    );
    let in_subtree = |mut u: usize, v: usize| loop {
        if u == v {
            return true;
        }
        if u == 0 {
            return false;
        }
        u = TREE[u];
    };
    fn worth(v: usize, alive: &[usize]) -> u32 {
        alive
            .iter()
            .filter(|&&c| c != 0 && TREE[c] == v)
            .fold(0, |x, &c| x ^ (worth(c, alive) + 1))
    }
    let trees: Vec<Vec<usize>> = (0..TREE.len())
        .map(|cut| {
            (0..TREE.len())
                .filter(|&u| cut == 0 || !in_subtree(u, cut))
                .collect()
        })
        .collect();
    let texts: Vec<String> = trees
        .iter()
        .map(|alive| {
            let shown: Vec<String> = alive.iter().map(|u| u.to_string()).collect();
            format!("Tree({{{}}})", shown.join(", "))
        })
        .collect();
    for ((alive, text), v) in trees.iter().zip(&texts).zip(values_of(game, &texts)) {
        assert_eq!(v, worth(0, alive), "{text}");
    }
}

/// Helpers that call themselves, each searched compiled and compared with
/// the reference, errors included: a Fibonacci subtraction game, also
/// against a brute force; take one or three, told by a helper of a
/// boolean; and recursions that go past the limit on calls, one of them
/// inside a helper written in place, from the heap where the reference
/// first fails; two helpers that call each other, also against the
/// nim-sum of two heaps' brute forces; and helpers given a string and a
/// list the position holds.
#[test]
fn helpers_that_call_themselves() {
    let game = game!("recursive");
    let starts = [
        "Fib(12)",
        "Odd(7)",
        "Half(1)",
        "Half(4)",
        "Deep(8)",
        "Deep(9)",
        "Two(7, 6)",
        "Coins(\"HHTHHTH\")",
        "Below([3, 2, 4])",
    ];
    agree(game, &starts, true);
    let mut fibonacci = vec![1, 2];
    while fibonacci.len() < 10 {
        fibonacci.push(fibonacci[fibonacci.len() - 1] + fibonacci[fibonacci.len() - 2]);
    }
    let mut want: Vec<u32> = Vec::new();
    for n in 0..=60 {
        let options = fibonacci.iter().filter(|&&f| f <= n).map(|&f| want[n - f]);
        want.push(mex(options));
    }
    let texts: Vec<String> = (0..want.len()).map(|n| format!("Fib({n})")).collect();
    assert_eq!(values_of(game, &texts), want);
    // Two heaps, each a subtraction game of its own: their nim-sum.
    let heap = |takes: fn(usize) -> bool| {
        let mut values: Vec<u32> = Vec::new();
        for n in 0..=20 {
            let options = (1..=n).filter(|&k| takes(k)).map(|k| values[n - k]);
            values.push(mex(options));
        }
        values
    };
    let (first, second) = (heap(|k| k % 2 == 0 || k == 1), heap(|k| k % 2 == 1));
    let pairs: Vec<(usize, usize)> = (0..=20).flat_map(|a| [(a, 20 - a), (a, a / 2)]).collect();
    let texts: Vec<String> = pairs
        .iter()
        .map(|(a, b)| format!("Two({a}, {b})"))
        .collect();
    let want: Vec<u32> = pairs.iter().map(|&(a, b)| first[a] ^ second[b]).collect();
    assert_eq!(values_of(game, &texts), want);
}

/// Nim kept in order, its new heaps walked straight from `set_at`:
/// searched compiled, against the reference and against Bouton's theorem
/// (the nim-sum of the heaps); and heaps emptied at a place past the
/// last, which `set_at` refuses, even on no heaps at all: the error the
/// reference reports.
#[test]
fn a_list_set_at_one_place_is_walked_compiled() {
    let game = game!("sorted");
    agree(
        game,
        &["Kept([1, 2, 3, 3])", "Beyond([1, 2])", "Beyond([])"],
        true,
    );
    let heaps: [&[u32]; 5] = [&[1, 2, 3], &[3, 5, 6], &[1, 4, 5, 7], &[2, 2], &[7]];
    let texts: Vec<String> = heaps.iter().map(|h| format!("Kept({h:?})")).collect();
    let want: Vec<u32> = heaps
        .iter()
        .map(|h| h.iter().fold(0, |x, &n| x ^ n))
        .collect();
    assert_eq!(values_of(game, &texts), want);
}

/// Games whose list of heaps moves make longer (a heap split into pieces
/// joined onto the rest, through a helper or sorted where it is written):
/// searched compiled, with no position handed to the reference, though
/// the lists outgrow the room the first layout gives them; against the
/// reference, and against Lasker's Nim's values (4k + 3 and 4k + 4
/// swapped), brute forces of Grundy's game and Kayles, and the parity of
/// the heaps dropped. A removal past the last heap fails as the
/// reference's does.
#[test]
fn lists_that_grow_are_searched_compiled() {
    let game = game!("grown");
    let starts = [
        "Lasker([3, 4])",
        "Grundy([5, 7])",
        "Rows([4, 5])",
        "Drop([1, 2, 3])",
        "Off([1, 2])",
        "Off([])",
    ];
    agree(game, &starts, true);
    let lasker = |n: u32| match n % 4 {
        3 => n + 1,
        0 if n > 0 => n - 1,
        _ => n,
    };
    let grundy = heap_values(20, |n| {
        (1..n)
            .filter(|&a| a < n - a)
            .map(|a| vec![a, n - a])
            .collect()
    });
    let kayles = heap_values(20, |n| {
        let knocks = (1..=2).flat_map(|k| {
            (0..n)
                .filter(move |&a| a + k <= n)
                .map(move |a| vec![a, n - a - k])
        });
        knocks.collect()
    });
    let heaps: [&[u32]; 5] = [&[6, 7], &[2, 9], &[12], &[1, 3, 5, 4], &[10, 3]];
    let nim_sum = |value: &dyn Fn(u32) -> u32, h: &[u32]| h.iter().fold(0, |x, &n| x ^ value(n));
    for (name, value) in [
        ("Lasker", &lasker as &dyn Fn(u32) -> u32),
        ("Grundy", &|n: u32| grundy[n as usize]),
        ("Rows", &|n: u32| kayles[n as usize]),
    ] {
        let texts: Vec<String> = heaps.iter().map(|h| format!("{name}({h:?})")).collect();
        let want: Vec<u32> = heaps.iter().map(|h| nim_sum(value, h)).collect();
        assert_eq!(values_of(game, &texts), want, "{name}");
        searched_compiled_alone(game, &texts);
    }
    let drops: Vec<String> = (0..6).map(|n| format!("Drop({:?})", vec![1; n])).collect();
    let parities: Vec<u32> = (0..6).map(|n| n % 2).collect();
    assert_eq!(values_of(game, &drops), parities);
}

/// Strings that moves make shorter (a letter crossed out, two cells fused
/// into one, two equal letters taken out) or longer (a letter put in):
/// searched compiled, against the reference, and against a brute force
/// over the strings themselves. `Pairs` reads the letter after the last,
/// the reference's error.
#[test]
fn strings_whose_length_changes_are_searched_compiled() {
    let game = game!("wordlength");
    let starts = [
        "Cross(\"abcab\")",
        "Fuse(\"...#....\")",
        "Pairs(\"aabba\")",
        "Pairs(\"ab\")",
        "Insert(\"bc\")",
    ];
    agree(game, &starts, true);
    let cut = |w: &str, i: usize, k: usize, put: &str| format!("{}{put}{}", &w[..i], &w[i + k..]);
    let cross = |w: &str| (0..w.len()).map(|i| cut(w, i, 1, "")).collect::<Vec<_>>();
    let fuse = |w: &str| {
        let b = w.as_bytes();
        (0..w.len().saturating_sub(1))
            .filter(|&i| b[i] == b'.' && b[i + 1] == b'.')
            .map(|i| cut(w, i, 2, "#"))
            .collect::<Vec<_>>()
    };
    let insert = |w: &str| match w.len() < 8 && w.matches('a').count() < 3 {
        true => (0..=w.len()).map(|i| cut(w, i, 0, "a")).collect(),
        false => Vec::new(),
    };
    for (name, words, options) in [
        (
            "Cross",
            ["abcdefg", "xy", ""],
            &cross as &dyn Fn(&str) -> Vec<String>,
        ),
        ("Fuse", ["..........", "..#...#....", "...."], &fuse),
        ("Insert", ["b", "bc", "cab"], &insert),
    ] {
        let texts: Vec<String> = words.iter().map(|w| format!("{name}(\"{w}\")")).collect();
        let want: Vec<u32> = words
            .iter()
            .map(|w| {
                brute(
                    &w.to_string(),
                    &|w: &String| options(w),
                    &mut HashMap::new(),
                )
            })
            .collect();
        assert_eq!(values_of(game, &texts), want, "{name}");
        searched_compiled_alone(game, &texts);
    }
    // A word crossed out letter by letter lasts as many moves as it has
    // letters: worth 1 when that is odd.
    let words: Vec<String> = (0..9)
        .map(|n| format!("Cross(\"{}\")", &"abcabcabc"[..n]))
        .collect();
    let parity: Vec<u32> = (0..9).map(|n| n % 2).collect();
    assert_eq!(values_of(game, &words), parity);
}

/// Each position's value is searched by the compiled search alone: no
/// position is handed to the reference, and no other engine runs.
fn searched_compiled_alone((_, text): (&str, &str), positions: &[String]) {
    for position in positions {
        let mut session = session_with(text);
        value_of(&mut session, position);
        let entries = &session.interp.engines.entries;
        let paths: Vec<_> = entries.iter().map(|e| &e.path).collect();
        assert!(
            paths.iter().all(|&p| *p == Path::CompiledSearch),
            "{position}: {paths:?}"
        );
    }
}

/// The values of heaps below `heaps` of the game whose moves take heap
/// `n` to the heaps of each list `options(n)` gives, by the definition.
fn heap_values(heaps: u32, options: impl Fn(u32) -> Vec<Vec<u32>>) -> Vec<u32> {
    let mut values: Vec<u32> = Vec::new();
    for n in 0..heaps {
        let reached: Vec<u32> = options(n)
            .iter()
            .map(|parts| parts.iter().fold(0, |x, &p| x ^ values[p as usize]))
            .collect();
        values.push(mex(reached));
    }
    values
}

/// Colouring a graph's vertices, no edge with one colour at both ends;
/// and Node Kayles on the Petersen graph by its edges: both against a
/// brute force.
#[test]
fn vertex_games_on_graphs_match_brute_force() {
    let colouring = game!("colouring");
    agree(colouring, &["Colour(\"......\")"], true);
    let adj = [
        vec![1, 5, 3],
        vec![0, 2],
        vec![1, 3],
        vec![2, 4, 0],
        vec![3, 5],
        vec![4, 0],
    ];
    let options = |b: &Vec<u8>| -> Vec<Vec<u8>> {
        let mut out = Vec::new();
        for v in (0..b.len()).filter(|&v| b[v] == b'.') {
            for c in [b'R', b'B'] {
                if adj[v].iter().all(|&w| b[w] != c) {
                    let mut next = b.clone();
                    next[v] = c;
                    out.push(next);
                }
            }
        }
        out
    };
    let boards = ["......", "R.....", ".B..R.", "RB....", "..R..B"];
    let texts: Vec<String> = boards.iter().map(|b| format!("Colour(\"{b}\")")).collect();
    let mut memo = HashMap::new();
    for (b, v) in boards.iter().zip(values_of(colouring, &texts)) {
        assert_eq!(v, brute(&b.as_bytes().to_vec(), &options, &mut memo), "{b}");
    }
    let kayles = game!("edgekayles");
    agree(kayles, &["NK(\"..........\")", "NK(\"#...#.....\")"], true);
    let petersen = [
        (0, 1),
        (1, 2),
        (2, 3),
        (3, 4),
        (4, 0),
        (0, 5),
        (1, 6),
        (2, 7),
        (3, 8),
        (4, 9),
        (5, 7),
        (7, 9),
        (9, 6),
        (6, 8),
        (8, 5),
    ];
    let adj = neighbours(10, &petersen);
    let options = |&picked: &u32| -> Vec<u32> {
        (0..10)
            .filter(|&v| picked >> v & 1 == 0 && adj[v].iter().all(|&w| picked >> w & 1 == 0))
            .map(|v| picked | 1 << v)
            .collect()
    };
    let boards = ["..........", "#.........", "#....#....", "..#.....#."];
    let texts: Vec<String> = boards.iter().map(|b| format!("NK(\"{b}\")")).collect();
    let mut memo = HashMap::new();
    for (b, v) in boards.iter().zip(values_of(kayles, &texts)) {
        let picked = b.match_indices('#').fold(0u32, |m, (i, _)| m | 1 << i);
        assert_eq!(v, brute(&picked, &options, &mut memo), "{b}");
    }
}

/// A tuple of a constant list of tuples read at a place a rule works out
/// (`EDGES[e][0]`, `let (x, y) = EDGES[e]`): compiled, and a place past
/// the end is the interpreter's error.
#[test]
fn tuples_of_constants_at_places_compile() {
    agree(game!("edgetoken"), &["Token(3, {0})"], true);
    let edges = "const EDGES = [(0, 1), (1, 2), (2, 3), (3, 4)];\n";
    let pattern = format!(
        "{edges}game P(b: str) {{\n  \
         move pick(e in indices(EDGES), let (x, y) = EDGES[e]) if b[x] == \".\" and \
         b[y] == \".\" => P(set_at(b, [x, y], [\"#\", \"#\"]));\n}}\n"
    );
    agree_from("a pattern", &pattern, &["P(\".....\")"], LIMITS, true);
    let past = format!(
        "{edges}game P(b: str) {{\n  \
         move pick(e in 0..len(EDGES) + 1) if b[EDGES[e][0]] == \".\" and \
         b[EDGES[e][1]] == \".\" => P(set_at(set_at(b, EDGES[e][0], \"#\"), EDGES[e][1], \"#\"));\n}}\n"
    );
    agree_from("past the end", &past, &["P(\".....\")"], LIMITS, false);
    // Compared whole, and written whole into a list of pairs: whichever
    // engine runs them, the reference's answers.
    let whole = format!(
        "{edges}game P(b: str) {{\n  \
         move pick(e in indices(EDGES)) if EDGES[e] != (1, 2) and b[EDGES[e][1]] == \".\" => \
         P(set_at(b, EDGES[e][1], \"#\"));\n}}\n\
         game Q(qs: [(nat, nat)], n: nat) {{\n  \
         move put(e in indices(EDGES), i in indices(qs)) if n > 0 and qs[i] != EDGES[e] => \
         Q(set_at(qs, i, EDGES[e]), n - 1);\n}}\n"
    );
    agree_from(
        "whole",
        &whole,
        &["P(\".....\")", "Q([(0, 0), (1, 2)], 3)"],
        LIMITS,
        false,
    );
}

/// `all` and `any` of lists joined with `+` test every element of every
/// list, as the joined list is made: compiled, and an element that is an
/// error after a list already decided is still the interpreter's error.
#[test]
fn tests_of_joined_lists_compile() {
    agree(game!("edgekayles"), &["NK(\"..#.......\")"], true);
    let each = |test: &str, lists: &str| {
        format!(
            "game Q(b: str) {{\n  \
             move mark(i in indices(b)) if b[i] == \".\" and {test}({lists}) => \
             Q(set_at(b, i, \"X\"));\n}}\n"
        )
    };
    let inside = "[b[j] == \".\" for j in 0..i] + [b[j] != \"X\" for j in i..len(b)] + \
         [j != 2 for j in 0..i]";
    for test in ["all", "any"] {
        let text = each(test, inside);
        agree_from(test, &text, &["Q(\"....\")", "Q(\"X.X..\")"], LIMITS, true);
    }
    // From "X...", the first list is false when i = 3, and the second
    // reads past the end.
    let past = "[b[j] == \".\" for j in 0..i] + [b[j] != \"X\" for j in i..i + 2]";
    for test in ["all", "any"] {
        let text = each(test, past);
        agree_from(test, &text, &["Q(\"X...\")"], LIMITS, false);
    }
}

/// `join` of strings written out, pieces of the old string and new
/// letters (`join([slice(s, 0, i), "##", slice(s, i + 2, len(s))])`),
/// one of them a `join` of a comprehension: compiled, one piece after
/// another as `+` puts them; a piece with a letter no position holds
/// makes a position the interpreter makes.
#[test]
fn strings_joined_from_pieces_compile() {
    let row = |pieces: &str| {
        format!(
            "game Row(s: str) {{\n  \
             move cover(i in 0..len(s) - 1) if slice(s, i, i + 2) == \"..\" => \
             Row(join([{pieces}]));\n}}\n"
        )
    };
    let forms = [
        "slice(s, 0, i), \"##\", slice(s, i + 2, len(s))",
        "slice(s, 0, i), join([\"#\" for _ in 0..2]), slice(s, i + 2, len(s))",
        "slice(s, 0, i) + \"#\", \"#\" + slice(s, i + 2, len(s))",
        "slice(s, 0, i), \"#@\", slice(s, i + 2, len(s))",
    ];
    for pieces in forms {
        agree_from(pieces, &row(pieces), &["Row(\"....#.....\")"], LIMITS, true);
    }
}

/// `set_at` of a vertex and its neighbour lists' row (`[v] + ADJ[v]`) to
/// one letter written as often as there are places (`["#" for _ in
/// 0..len(ADJ[v]) + 1]`), or a piece for each piece: compiled; too few
/// or too many copies are the interpreter's error.
#[test]
fn places_of_a_vertex_and_its_neighbours_compile() {
    agree(game!("nodekayles"), &["NK(\"#.............\")"], true);
    let game = |places: &str, letters: &str| {
        format!(
            "const ADJ = [[1, 4], [0, 2], [1, 3], [2, 4], [3, 0], [0]];\n\
             game NK(free: str) {{\n  \
             move pick(v in indices(free)) if free[v] == \".\" => \
             NK(set_at(free, {places}, {letters}));\n}}\n"
        )
    };
    let forms = [
        ("[v] + ADJ[v]", "[\"#\"] + [\"#\" for w in ADJ[v]]"),
        (
            "[v] + [w for w in ADJ[v]]",
            "[\"#\" for _ in 0..=len(ADJ[v])]",
        ),
        ("ADJ[v] + [v]", "[\"#\" for _ in 0..len(ADJ[v]) + 1]"),
    ];
    for (places, letters) in forms {
        let text = game(places, letters);
        agree_from(places, &text, &["NK(\"......\")"], LIMITS, true);
    }
    for letters in [
        "[\"#\" for _ in 0..len(ADJ[v])]",
        "[\"#\" for _ in 0..len(ADJ[v]) + 2]",
    ] {
        let text = game("[v] + ADJ[v]", letters);
        agree_from(letters, &text, &["NK(\"......\")"], LIMITS, false);
    }
}

/// A helper given a new list of numbers the rule makes (`add(set_at(c,
/// n, c[n] - 1), n - k)`) reads its elements through the `set_at`s and
/// writes its result from it: compiled. Nim with the heaps counted by
/// size is Nim: the nim-sum of the sizes held an odd number of times.
#[test]
fn helpers_given_new_lists_compile() {
    let game = game!("nimcounts");
    agree(game, &["Counts([0,2,1,1])", "Counts([1,0,1,0,1])"], true);
    let counts = [
        vec![0, 2, 1, 1, 0, 1],
        vec![0, 1, 1, 1],
        vec![3, 0, 0, 2, 1],
        vec![0, 0, 0, 0, 0, 3],
    ];
    let texts: Vec<String> = counts.iter().map(|c| format!("Counts({c:?})")).collect();
    for (c, v) in counts.iter().zip(values_of(game, &texts)) {
        let want = c
            .iter()
            .enumerate()
            .filter(|(_, k)| *k % 2 == 1)
            .fold(0, |x, (n, _)| x ^ n as u32);
        assert_eq!(v, want, "Counts({c:?})");
    }
    let pass = |give: &str, past: &str| {
        format!(
            "{give}\n\
             fn take(hs: [nat], i: nat, k: nat) = set_at(hs, i, hs[i] - k);\n\
             game P(hs: [nat]) {{\n  \
             move take(i in indices(hs), k in 1..=hs[i]) => P(give(take(hs, i, k), i{past}));\n}}\n"
        )
    };
    let gives = [
        "fn give(hs: [nat], i: nat) = if i == 0 then hs else set_at(hs, i - 1, hs[i - 1] + 1);",
        "fn give(hs: [nat], i: nat) = if hs[i] % 2 == 0 then hs else set_at(hs, i, hs[i] + 1);",
    ];
    for give in gives {
        agree_from(give, &pass(give, ""), &["P([2,3,1])"], LIMITS, true);
    }
    // Past the end: the helper's read of the new list is the error.
    let bump = "fn give(hs: [nat], i: nat) = set_at(hs, i, hs[i] + 1);";
    agree_from(
        "past the end",
        &pass(bump, " + 1"),
        &["P([1,2])"],
        LIMITS,
        false,
    );
}

/// Node Kayles on a grid written three more ways: a helper for each
/// neighbour (helpers nested ten deep), the new board made whole from a
/// distance test on the cells `cells` gives, and from steps in a
/// constant list. Each agrees with the reference and is searched
/// compiled, and all give one board the same value as the shipped form.
#[test]
fn node_kayles_on_a_grid_written_three_more_ways_compiles() {
    let starts = [
        "NK([\"...\", \"...\", \"...\"])",
        "NK([\"....\", \".#..\"])",
    ];
    let shipped = (
        "node-kayles",
        include_str!("../bench/games/node-kayles.game"),
    );
    let board = ["NK([\"....\", \"....\", \"...#\"])".to_string()];
    let want = values_of(shipped, &board);
    for form in [game!("nkhelpers"), game!("nknear"), game!("nksteps")] {
        agree(form, &starts, true);
        assert_eq!(values_of(form, &board), want, "{}", form.0);
    }
}

/// The nim product of `a` and `b`, by its definition: the least number
/// that is not `a' * b ^ a * b' ^ a' * b'` for any `a' < a`, `b' < b`.
fn nim_product(a: usize, b: usize, memo: &mut HashMap<(usize, usize), usize>) -> usize {
    if let Some(&p) = memo.get(&(a, b)) {
        return p;
    }
    let mut seen = HashSet::new();
    for x in 0..a {
        for y in 0..b {
            seen.insert(
                nim_product(x, b, memo) ^ nim_product(a, y, memo) ^ nim_product(x, y, memo),
            );
        }
    }
    let p = (0..).find(|v| !seen.contains(v)).unwrap_or(0);
    memo.insert((a, b), p);
    p
}

/// Turning Corners, a coin-turning game on a grid with a rule of four
/// generators, two of them up to the other two: a single head at row r
/// and column c is worth the nim product of r and c (Winning Ways), and a
/// board the nim-sum of its heads. Searched compiled, against the
/// reference from a small board.
#[test]
fn turning_corners_is_the_nim_product() {
    let game = game!("corners");
    let starts = [
        "Corners([\"TTH\", \"THT\", \"HTH\"])",
        "Inline([\"TTH\", \"THT\", \"HTH\"])",
    ];
    agree(game, &starts, true);
    let mut memo = HashMap::new();
    let (rows, cols) = (4, 5);
    let mut texts = Vec::new();
    let mut want = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let board: Vec<String> = (0..rows)
                .map(|i| {
                    (0..cols)
                        .map(|j| if (i, j) == (r, c) { 'H' } else { 'T' })
                        .collect()
                })
                .collect();
            texts.push(format!("Corners({board:?})"));
            want.push(nim_product(r, c, &mut memo) as u32);
        }
    }
    assert_eq!(values_of(game, &texts), want);
    // The same with each coin turned by a test written in place.
    let inline: Vec<String> = texts
        .iter()
        .map(|t| t.replace("Corners", "Inline"))
        .collect();
    assert_eq!(values_of(game, &inline), want);
    // Two heads: the nim-sum of their products.
    let two = "Corners([\"TTTTT\", \"TTTHT\", \"TTTTT\", \"TTTTH\"])".to_string();
    let sum = nim_product(1, 3, &mut memo) ^ nim_product(3, 4, &mut memo);
    assert_eq!(values_of(game, &[two]), [sum as u32]);
}

/// Dials (in `corners.game`): two cells of a row of three-way dials
/// turned down a step by a helper that reads the dial it sets, compiled
/// and compared with the reference, and valued as a search written here
/// values it.
#[test]
fn dials_turned_by_their_own_letter_agree_with_a_brute_force() {
    fn value(g: &[Vec<u8>], memo: &mut HashMap<Vec<Vec<u8>>, u32>) -> u32 {
        if let Some(&v) = memo.get(g) {
            return v;
        }
        let down = |d: u8| if d == 0 { 2 } else { d - 1 };
        let mut options = Vec::new();
        for r in 0..g.len() {
            for c in 0..g[r].len() {
                for b in 0..c {
                    if g[r][c] != 0 {
                        let mut next = g.to_vec();
                        next[r][c] = down(next[r][c]);
                        next[r][b] = down(next[r][b]);
                        options.push(value(&next, memo));
                    }
                }
            }
        }
        let v = mex(options);
        memo.insert(g.to_vec(), v);
        v
    }
    let game = game!("corners");
    agree(game, &["Dials([\"O.X\", \"XO.\"])"], true);
    let dial = |d: u8| ['.', 'X', 'O'][d as usize];
    let mut memo = HashMap::new();
    let (mut texts, mut want) = (Vec::new(), Vec::new());
    for n in 0..3u32.pow(6) {
        let digits: Vec<u8> = (0..6).map(|i| (n / 3u32.pow(i) % 3) as u8).collect();
        let g = vec![digits[..3].to_vec(), digits[3..].to_vec()];
        let rows: Vec<String> = g
            .iter()
            .map(|row| row.iter().map(|&d| dial(d)).collect())
            .collect();
        texts.push(format!("Dials({rows:?})"));
        want.push(value(&g, &mut memo));
    }
    assert_eq!(values_of(game, &texts), want);
}
