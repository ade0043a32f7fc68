//! Games written from the language guide by hands that never saw the
//! engines: each compared with the reference interpreter on every
//! position reachable from a small start, by every engine.

mod common;

use common::engines::{agree_from, Limits};

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
    agree(game!("hackentree"), &["Tree(set(0..10))"], false);
    agree(
        game!("hackenstrings"),
        &["Stalks([\"GGG\",\"GG\",\"G.G\"])"],
        false,
    );
    agree(game!("nodekayles"), &["NK(\"..............\")"], false);
    agree(game!("nodekayles2"), &["NK({})"], false);
    agree(game!("divchomp"), &["Chomp(set(0..15))"], false);
    agree(game!("twocoins"), &["Coins(\"HTHHTHH\")"], false);
    agree(game!("dawson"), &["Dawson(\"..........\")"], false);
    agree(game!("triple"), &["T((4,5,6))"], false);
    agree(game!("capped"), &["Capped([1,2,3,2])"], false);
    agree(game!("product"), &["Many([2,2,3])"], false);
    agree(game!("sorted"), &["Sorted([3,4,5])"], false);
    agree(game!("joinrow"), &["Row(\"....#.......\")"], false);
    agree(game!("mirror"), &["TX(\"........\")"], false);
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
