//! Random heap games decoded from bytes, for the differential target and
//! the property tests: the rules the fast paths read as arithmetic (takes,
//! splits, moves from heap 0, guards, parts of size 0) written in the
//! ways that trip them (constants at the edge of 64 bits, so that the
//! interpreter overflows from some heap on), now and then an octal code.
//!
//! Every byte sequence decodes to some game (missing bytes read as 0), so
//! the fuzzer's mutations always mean something. Generator ranges stay
//! within a few heaps of n, so the general search always ends.

use super::choices::{edge, Choices};

/// A heap game and what to ask of it.
#[derive(Debug)]
pub struct HeapGame {
    pub text: String,
    pub upto: usize,
    pub reference_upto: usize,
    pub checkpoint: usize,
}

/// The game is always called `G`.
pub const NAME: &str = "G";

/// The most heaps tabulated, and the most further the general search goes
/// to check a proven period.
pub const MOST_UPTO: usize = 100;
pub const MOST_BEYOND: usize = 60;

/// Decodes a game from `bytes`; `scale` (at most 1) shrinks the heaps
/// asked for, for quick tests in a debug build.
pub fn decode(bytes: &[u8], scale: f64) -> HeapGame {
    decode_with(bytes, scale, |c| match c.below(8) {
        0 => octal(c),
        _ => rules(c, rule),
    })
}

/// Like `decode`, but every rule has one of the shapes the rare/common
/// method reads, and heap 0 has a move half the time: the games where
/// taking a part of 0 for no heap at all goes wrong.
pub fn decode_take_and_break(bytes: &[u8], scale: f64) -> HeapGame {
    decode_with(bytes, scale, |c| {
        let mut text = rules(c, take_or_break);
        if c.below(2) == 0 {
            text.insert_str(text.len() - 2, "  move zero() if n == 0 => [];\n");
        }
        text
    })
}

fn decode_with(bytes: &[u8], scale: f64, game: impl FnOnce(&mut Choices) -> String) -> HeapGame {
    let mut c = Choices { bytes };
    let shrink = |x: usize| ((x as f64) * scale) as usize;
    let upto = c.below(shrink(MOST_UPTO) + 1);
    let reference_upto = upto + c.below(shrink(MOST_BEYOND) + 1);
    let checkpoint = c.below(reference_upto + 2);
    HeapGame {
        text: game(&mut c),
        upto,
        reference_upto,
        checkpoint,
    }
}

fn octal(c: &mut Choices) -> String {
    let first = if c.below(3) == 0 { 4 } else { 0 };
    let digits: String = (0..=c.below(5))
        .map(|_| char::from(b'0' + c.below(8) as u8))
        .collect();
    format!("game {NAME} = octal {first}.{digits};\n")
}

fn rules(c: &mut Choices, rule: fn(&mut Choices) -> String) -> String {
    let mut text = format!("game {NAME}(n: nat) {{\n");
    for i in 0..=c.below(4) {
        text.push_str(&format!("  move m{i}{};\n", rule(c)));
    }
    text.push_str("}\n");
    text
}

/// `(generators) if guard => result`, without the name.
fn rule(c: &mut Choices) -> String {
    if c.below(3) == 0 {
        return take_or_break(c);
    }
    let (generators, uses_a) = match c.below(6) {
        0 | 1 => (String::new(), false),
        2 => (format!("a in {}..{}", low(c), high(c)), true),
        3 => (format!("a in {}..={}", low(c), high(c)), true),
        4 => {
            let values: Vec<String> = (0..=c.below(3)).map(|_| c.small().to_string()).collect();
            (format!("a in {{{}}}", values.join(", ")), true)
        }
        // Kayles written out: remove k, leaving two heaps either side.
        _ => (format!("k in 1..={}, a in 0..=n - k", 1 + c.below(3)), true),
    };
    let mut guards = Vec::new();
    if generators.starts_with('k') {
        guards.push("k <= n".to_string());
    }
    for _ in 0..c.below(3) {
        guards.push(comparison(c, uses_a));
    }
    let guard = if guards.is_empty() {
        String::new()
    } else {
        format!(" if {}", guards.join(" and "))
    };
    let heap = |c: &mut Choices| {
        let size = heap_size(c, uses_a);
        format!("{NAME}({})", edge(c, size))
    };
    let result = match c.below(5) {
        0 => "[]".to_string(),
        1 | 2 => heap(c),
        3 => format!("{} + {}", heap(c), heap(c)),
        _ => format!("[{}, {}]", heap(c), heap(c)),
    };
    format!("({generators}){guard} => {result}")
}

/// A rule in one of the shapes the rare/common method reads (take k,
/// remove a heap of exactly k, remove k and split the rest), so that the
/// fast paths built on them are reached often; parts of 0 and moves from
/// heap 0 included.
fn take_or_break(c: &mut Choices) -> String {
    let k = c.below(4);
    let n_minus_k = edge(c, format!("n - {k}"));
    match c.below(4) {
        0 => format!("() if n >= {} => {NAME}({n_minus_k})", c.below(k + 2)),
        1 => format!("() if n == {k} => []"),
        _ => {
            let first = c.below(2);
            let last = c.pick(&["n", "n + 1", "n - 1"]).to_string();
            let last = edge(c, last);
            let order = c.pick(&["<", "<="]);
            let rest = edge(c, format!("n - {k} - a"));
            let result = match c.below(2) {
                0 => format!("{NAME}(a) + {NAME}({rest})"),
                _ => format!("[{NAME}({rest}), {NAME}(a)]"),
            };
            format!("(a in {first}..{last}) if a {order} n - {k} - a => {result}")
        }
    }
}

fn low(c: &mut Choices) -> String {
    let start = c
        .pick(&["0", "1", "2", "0", "1", "n - 3", "-1"])
        .to_string();
    edge(c, start)
}

fn high(c: &mut Choices) -> String {
    let end = match c.below(6) {
        0 => "n".to_string(),
        1 => "n - 1".to_string(),
        2 => "n - 2".to_string(),
        3 => "n + 1".to_string(),
        4 => format!("n / 2 + {}", c.small()),
        _ => c.small().to_string(),
    };
    edge(c, end)
}

/// The size of one resulting heap: smaller than n for most choices, a
/// part of 0 or the whole heap for some.
fn heap_size(c: &mut Choices, uses_a: bool) -> String {
    let k = c.small();
    let choices: &[&str] = if uses_a {
        &[
            "a",
            "n - 1 - a",
            "n - a",
            "n - K - a",
            "a + K",
            "n - K",
            "K",
        ]
    } else {
        &["n - 1", "n - 2", "n - K", "K", "n", "0"]
    };
    c.pick(choices).replace('K', &k.to_string())
}

fn comparison(c: &mut Choices, uses_a: bool) -> String {
    let side = |c: &mut Choices| {
        let k = c.small().to_string();
        let sides: &[&str] = if uses_a {
            &[
                "a",
                "n",
                "n - a",
                "2 * a",
                "K",
                "n - 1 - a",
                "a + K",
                "n - K",
            ]
        } else {
            &["n", "K", "n - K", "2 * n"]
        };
        let side = c.pick(sides).replace('K', &k);
        edge(c, side)
    };
    let op = c.pick(&["<", "<=", ">", ">=", "==", "<"]);
    format!("{} {op} {}", side(c), side(c))
}
