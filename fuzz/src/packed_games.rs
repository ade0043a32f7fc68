//! Random games whose positions pack into a key, decoded from bytes, for
//! comparing the compiled code of packed keys with the reference
//! interpreter: a board (a string of two or three letters), a short list
//! of small heaps, a small grid, a pair of numbers (as two parameters
//! or one tuple), a set of small numbers, or a list of truth values over
//! the vertices of a constant graph (`ADJ`, a list of neighbour lists
//! whose rows may be short or name places past the list), now and then
//! with a flag (`bool`) and a counter
//! (`nat`) beside it; rules written with the constructs the language
//! guide teaches (generators over `indices`, `enumerate`, `cells`, ranges
//! bounded by the position, a list made by a comprehension; guards with
//! comparisons, `in`, `has`, `and`, `or`, `not` and helpers, some calling
//! themselves (one of them too deeply from an odd number); results by
//! `set_at`, comprehensions, `if`, helper calls and arithmetic, lists of
//! heaps that grow shorter or longer), and a few random starts.
//!
//! Most rules make progress (a cell goes to a later letter, a heap
//! shrinks), so that most games end; the others are drawn freely, and
//! reach what the compiled code must hand back or report alike: a loop,
//! an index out of range, a negative number, an overflow, a division by
//! zero, a number past its field's width.

use super::choices::{edge, Choices};

/// A game and the positions to start from.
#[derive(Debug)]
pub struct PackedGame {
    pub text: String,
    pub starts: Vec<String>,
}

/// The largest number a rule drawn freely leaves in a position (it may
/// still leave a negative one): a position holding 2 ** 62 would have a
/// rule walk `1..=x` for ever, in every engine alike.
const SMALL: u32 = 9;

/// The game is always called `G`.
pub const NAME: &str = "G";

/// The shape of the position's main part.
#[derive(Clone, Copy)]
enum Shape {
    /// `b: str`, of two or three letters.
    Board,
    /// `hs: [nat]`.
    Heaps,
    /// `g: grid` of `.` and `#`.
    Grid,
    /// `x: nat, y: nat`, or `p: (nat, nat)` when `tuple`.
    Pair { tuple: bool },
    /// `s: {nat}`.
    Set,
    /// `f: [bool]`, with a constant `ADJ` of neighbour lists.
    Flags,
}

/// What a game is made of, fixed before its rules are drawn.
struct Game {
    shape: Shape,
    /// The board's letters, in the order a cell goes through them.
    letters: Vec<&'static str>,
    /// Whether the position has a flag `t: bool` and a counter `n: nat`.
    flag: bool,
    counter: bool,
    /// Whether the game's body lists the empty cells (`empty`) or the
    /// heaps not yet 0 (`nonzero`) for its rules to range over.
    listed: bool,
    /// Whether the rules may use the constructs the compiled code turns
    /// down (sums and lists as results, membership in a set, a range or a
    /// list, `index_of`, a helper that makes a list, the cells of a
    /// string): then only the lowered code is compared with the
    /// reference, so such games are the fewer.
    wide: bool,
}

/// What a rule's generators bound: numbers, and a cell's letter.
#[derive(Default)]
struct Scope {
    numbers: Vec<&'static str>,
    letter: Option<&'static str>,
}

/// Decodes a game from `bytes`.
pub fn decode(bytes: &[u8]) -> PackedGame {
    let mut c = Choices { bytes };
    let shape = match c.below(7) {
        0 => Shape::Board,
        1 => Shape::Heaps,
        2 => Shape::Grid,
        3 => Shape::Pair { tuple: false },
        4 => Shape::Set,
        5 => Shape::Flags,
        _ => Shape::Pair { tuple: true },
    };
    let letters = match (shape, c.below(3)) {
        (Shape::Grid, _) => vec![".", "#"],
        (_, 0) => vec![".", "X", "O"],
        (_, 1) => vec![".", "O", "X"],
        _ => vec![".", "X"],
    };
    let game = Game {
        shape,
        letters,
        flag: c.below(3) == 0,
        counter: c.below(4) == 0,
        listed: matches!(shape, Shape::Board | Shape::Heaps) && c.below(3) == 0,
        wide: c.below(4) == 0,
    };
    let mut text = helpers(shape).to_string();
    if let Shape::Flags = shape {
        text.push_str(&neighbours(&mut c));
    }
    text.push_str(&format!("game {NAME}({}) {{\n", game.params()));
    if game.listed {
        text.push_str(match shape {
            Shape::Board => "  let empty = [i for (i, cell) in enumerate(b) if cell == \".\"];\n",
            _ => "  let nonzero = [i for (i, h) in enumerate(hs) if h > 0];\n",
        });
    }
    for i in 0..=c.below(3) {
        text.push_str(&format!("  move m{i}{};\n", game.rule(&mut c)));
    }
    if game.counter && c.below(2) == 0 {
        let tick = game.position(&game.unchanged(), "t", "n - 1");
        text.push_str(&format!("  move tick() if n > 0 => {tick};\n"));
    }
    if c.below(5) == 0 {
        text.push_str(&format!("  lose if {};\n", game.lose(&mut c)));
    }
    text.push_str("}\n");
    let starts = (0..2).map(|_| game.start(&mut c)).collect();
    PackedGame { text, starts }
}

/// The helpers a game of each shape may call; the others go unused.
fn helpers(shape: Shape) -> &'static str {
    match shape {
        Shape::Board => {
            "fn put(s: str, i: nat, l: str) = set_at(s, i, l);\n\
             fn free(s: str, i: nat) = s[i] == \".\";\n\
             fn next_free(s: str, i: nat) = i + 1 < len(s) and s[i + 1] == \".\";\n\
             fn either(s: str, t: str, i: nat) = if i % 2 == 0 then s else t;\n\
             fn later(s: str, i: int) = set_at(s, i, if s[i] == \".\" then \"X\" else \"O\");\n\
             fn xs_from(s: str, i: nat) =\n  \
             if i >= len(s) then 0 else (if s[i] == \"X\" then 1 else 0) + xs_from(s, i + 1);\n"
        }
        Shape::Heaps => {
            "fn take(h: [nat], i: nat, k: nat) = set_at(h, i, h[i] - k);\n\
             fn big(h: [nat], i: nat) = h[i] >= 2;\n\
             fn upto(h: [nat], i: nat) = if i == 0 or i > 8 then 0 else h[i - 1] + upto(h, i - 1);\n\
             fn lowered(h: [nat], at: [nat], to: [nat]) =\n  \
             [if j in at then to[index_of(at, j)] else h[j] for j in indices(h)];\n"
        }
        Shape::Grid => {
            "fn cover(g: grid, r: nat, c: nat) = set_at(g, r, set_at(g[r], c, \"#\"));\n\
             fn open(g: grid, r: nat, c: nat) = g[r][c] == \".\";\n\
             fn cover_in(g: grid, r: int, c: int) =\n  \
             if r < 0 or r >= len(g) or c < 0 or c >= len(g[0]) then g\n  \
             else set_at(g, r, set_at(g[r], c, \"#\"));\n\
             fn either(g: grid, h: grid, r: nat) = if r % 2 == 0 then g else h;\n\
             fn lay(g: grid, r: nat, c: nat) =\n  \
             set_at(g, r, slice(g[r], 0, c) + \"##\" + slice(g[r], c + 2, len(g[r])));\n\
             fn flip(l: str) = if l == \".\" then \"#\" else \".\";\n\
             fn turn(row: str, c: int) = set_at(row, c, flip(row[c]));\n"
        }
        Shape::Pair { .. } => {
            "fn low(a: nat, b: nat) = min(a, b);\n\
             fn even(a: nat) = a % 2 == 0;\n\
             fn gcd(a: nat, b: nat) = if b == 0 then a else gcd(b, a % b);\n\
             fn halves(a: int) = if a == 0 then 0 else 1 + halves(a - 2);\n\
             fn flips(a: nat, up: bool) = if a == 0 then up else flips(a - 1, not up);\n"
        }
        Shape::Set => {
            "fn drop(s: {nat}, x: nat) = set([y for y in s if y != x]);\n\
             fn next_in(s: {nat}, x: nat) = x + 1 in s;\n\
             fn run_to(s: {nat}, x: nat) = x in s and (x == 0 or run_to(s, x - 1));\n\
             fn peel(s: {nat}, x: nat) =\n  \
             if x == 0 or x not in s then s else peel(set([y for y in s if y != x]), x - 1);\n"
        }
        Shape::Flags => {
            "fn alone(f: [bool], v: nat) = all([not f[w] for w in ADJ[v]]);\n\
             fn taken(f: [bool], v: nat) = [f[u] and u != v and not (u in ADJ[v]) for u in indices(f)];\n"
        }
    }
}

/// `const ADJ = ...`: neighbour lists of four to seven vertices, each a
/// few places below 7. Starts have three to seven truth values, so a
/// row may be missing for a place of the list, or name a place past it:
/// errors the compiled code must meet only where the interpreter does.
fn neighbours(c: &mut Choices) -> String {
    let rows: Vec<String> = (0..4 + c.below(4))
        .map(|v| {
            let row: Vec<String> = (0..c.below(4))
                .map(|_| match c.below(3) {
                    0 => c.below(7).to_string(),
                    // Mostly the vertices beside it on a path.
                    _ => (v + 1 - 2 * c.below(2).min(v)).to_string(),
                })
                .collect();
            format!("[{}]", row.join(", "))
        })
        .collect();
    format!("const ADJ = [{}];\n", rows.join(", "))
}

impl Game {
    fn params(&self) -> String {
        let mut params = vec![match self.shape {
            Shape::Board => "b: str",
            Shape::Heaps => "hs: [nat]",
            Shape::Grid => "g: grid",
            Shape::Pair { tuple: false } => "x: nat, y: nat",
            Shape::Pair { tuple: true } => "p: (nat, nat)",
            Shape::Set => "s: {nat}",
            Shape::Flags => "f: [bool]",
        }];
        if self.flag {
            params.push("t: bool");
        }
        if self.counter {
            params.push("n: nat");
        }
        params.join(", ")
    }

    /// The pair's two numbers, as the rules read them.
    fn xy(&self) -> (&'static str, &'static str) {
        match self.shape {
            Shape::Pair { tuple: true } => ("p[0]", "p[1]"),
            _ => ("x", "y"),
        }
    }

    /// The main part's arguments, unchanged.
    fn unchanged(&self) -> String {
        match self.shape {
            Shape::Board => "b".to_string(),
            Shape::Heaps => "hs".to_string(),
            Shape::Grid => "g".to_string(),
            Shape::Pair { tuple: false } => "x, y".to_string(),
            Shape::Pair { tuple: true } => "(p[0], p[1])".to_string(),
            Shape::Set => "s".to_string(),
            Shape::Flags => "f".to_string(),
        }
    }

    /// `G(main, flag, counter)`, leaving out the parts the game lacks.
    fn position(&self, main: &str, flag: &str, counter: &str) -> String {
        let mut args = vec![main.to_string()];
        if self.flag {
            args.push(flag.to_string());
        }
        if self.counter {
            args.push(counter.to_string());
        }
        format!("{NAME}({})", args.join(", "))
    }

    /// `(generators) if guard => result`, without the name.
    fn rule(&self, c: &mut Choices) -> String {
        let (generators, scope, progress) = self.generators(c);
        let (mut guards, main) = if c.below(4) == 0 {
            (Vec::new(), self.free_result(c, &scope))
        } else {
            let (guard, main) = progress;
            (guard.into_iter().collect(), main)
        };
        for _ in 0..c.below(3) {
            guards.push(self.guard(c, &scope, 1));
        }
        let flag = c.pick(&["t", "t", "not t", "false", "true"]).to_string();
        let counter = match c.below(4) {
            0 if self.counter => {
                guards.push("n > 0".to_string());
                "n - 1".to_string()
            }
            1 => edge(c, "n".to_string()),
            _ => "n".to_string(),
        };
        let mut result = self.position(&main, &flag, &counter);
        match c.below(if self.wide { 4 } else { 0 } + 12) {
            0 if self.wide => result = "[]".to_string(),
            1 if self.wide => result = format!("{result} + {}", self.position(&main, "false", "0")),
            2 if self.wide => result = format!("[{result}]"),
            _ => {}
        }
        let guard = if guards.is_empty() {
            String::new()
        } else {
            format!(" if {}", guards.join(" and "))
        };
        format!("({generators}){guard} => {result}")
    }

    /// A rule's generators, the names they bind, and a guard and result
    /// that make progress with them.
    fn generators(&self, c: &mut Choices) -> (String, Scope, (Option<String>, String)) {
        let mut scope = Scope::default();
        let (generators, guard, result) = match self.shape {
            Shape::Board => {
                let (from, to) = self.later_letters(c);
                let write = format!("set_at(b, i, {to})");
                let generators = match c.below(7) {
                    0 => "i in indices(b)",
                    1 => {
                        scope.letter = Some("cell");
                        "(i, cell) in enumerate(b)"
                    }
                    2 => "i in 0..len(b) - 1",
                    3 => {
                        scope.numbers.push("j");
                        "i in indices(b), j in i + 1..len(b)"
                    }
                    4 if self.wide => "(_, i) in cells(b, \".\")",
                    5 => "i in 1..=len(b)",
                    6 if self.listed => "i in empty",
                    _ => "i in indices(b)",
                };
                scope.numbers.push("i");
                let guard = format!("b[i] == {from}");
                let result = match c.below(7) {
                    // A letter put in before the cell, while the board is
                    // short: a longer board.
                    6 => {
                        return (
                            generators.to_string(),
                            scope,
                            (
                                Some(format!("{guard} and len(b) < 8")),
                                format!("slice(b, 0, i) + {to} + slice(b, i, len(b))"),
                            ),
                        );
                    }
                    // The cell taken out, or it and the next made one:
                    // a shorter board.
                    4 => "slice(b, 0, i) + slice(b, i + 1, len(b))".to_string(),
                    5 => format!("slice(b, 0, i) + {to} + slice(b, i + 2, len(b))"),
                    0 if c.below(3) == 0 => {
                        // Each argument made before the helper chooses one.
                        format!("either(set_at(b, i, {to}), put(b, i, {to}), i)")
                    }
                    0 => format!("put(b, i, {to})"),
                    1 => format!(
                        "if {} then {write} else set_at(b, i, {})",
                        self.guard(c, &scope, 0),
                        self.letter(c)
                    ),
                    // Past the last cell, unless the generators stop short.
                    2 if c.below(2) == 0 => {
                        return (
                            generators.to_string(),
                            scope,
                            (
                                Some(format!("b[i] == {from} and b[i + 1] == {from}")),
                                format!("set_at(set_at(b, i, {to}), i + 1, {to})"),
                            ),
                        );
                    }
                    // The cell set, then the one before it moved on by a
                    // test of its own letter (off the board at 0).
                    3 if c.below(3) == 0 => format!("later(put(b, i, {to}), i - 1)"),
                    // Two cells set by joining the board around them:
                    // past its end, a longer board.
                    3 if c.below(2) == 0 => {
                        let run = to.trim_matches('"').repeat(2);
                        format!("slice(b, 0, i) + \"{run}\" + slice(b, i + 2, len(b))")
                    }
                    _ => write,
                };
                (generators.to_string(), Some(guard), result)
            }
            Shape::Heaps => {
                if c.below(6) == 0 {
                    // Coins as numbers, Mock Turtles' way: a place lowered,
                    // and maybe one before it turned, each found by tests of
                    // elements near it against a number (read for every
                    // place at once where they come first).
                    let near = |c: &mut Choices, at: &str| {
                        format!(
                            "hs[{}] {} {}",
                            c.pick(&[at, &format!("{at} + 1"), &format!("{at} - 1")]),
                            c.pick(&["==", "!="]),
                            c.pick(&["0", "1", "2", "-1"])
                        )
                    };
                    let first = near(c, "i");
                    scope.numbers.push("i");
                    let lowered = "set_at(hs, i, hs[i] - 1)";
                    if c.below(2) == 0 {
                        let guard = format!("{first} and hs[i] > 0");
                        return (
                            "i in indices(hs)".to_string(),
                            scope,
                            (Some(guard), lowered.to_string()),
                        );
                    }
                    scope.numbers.push("j");
                    let guard = format!("{first} and hs[i] > 0 and {}", near(c, "j"));
                    let result = format!("set_at({lowered}, j, 1 - min(hs[j], 1))");
                    return (
                        "i in indices(hs), j in 0..i".to_string(),
                        scope,
                        (Some(guard), result),
                    );
                }
                if c.below(6) == 0 {
                    // Moore's Nim: lower one or two heaps at once (or, now
                    // and then, leave them as they are: a loop).
                    let most = c.pick(&["hs[i]", "hs[i]", "hs[i] + 1"]);
                    if c.below(4) == 0 {
                        // The heaps chosen as pairs of enumerate.
                        let most = most.replace("hs[i]", "h");
                        let generators = format!(
                            "chosen in subsets(enumerate(hs), 1, 2), \
                             left in product([0..{most} for (_, h) in chosen])"
                        );
                        let result = "set_at(hs, [i for (i, _) in chosen], left)".to_string();
                        return (generators, scope, (None, result));
                    }
                    // Chosen among every heap or a list worked out first.
                    let among = c.pick(&["indices(hs)", "[i for i in indices(hs) if hs[i] > 0]"]);
                    let generators = format!(
                        "chosen in subsets({among}, 1, 2), \
                         left in product([0..{most} for i in chosen])"
                    );
                    // The new heaps set in place (the values read back
                    // through zip), or read one by one by a helper given
                    // the tuples for lists of naturals.
                    let result = c
                        .pick(&[
                            "set_at(hs, chosen, left)",
                            "set_at(hs, chosen, [l for (_, l) in zip(chosen, left)])",
                            "lowered(hs, chosen, left)",
                        ])
                        .to_string();
                    if c.below(3) == 0 {
                        // By the amounts taken: each heap less the amount
                        // at its place, or the amounts less one.
                        let generators = format!(
                            "chosen in subsets({among}, 1, 2), \
                             taken in product([1..={most} for i in chosen])"
                        );
                        let result = c.pick(&[
                            "set_at(hs, chosen, [hs[i] - t for (i, t) in zip(chosen, taken)])",
                            "set_at(hs, chosen, [t - 1 for t in taken])",
                            "set_at(hs, chosen, [2 * t - 2 for t in taken])",
                            "set_at(hs, chosen, [hs[i] + (0 - 1) * t for (i, t) in zip(chosen, taken)])",
                        ]);
                        return (generators, scope, (None, result.to_string()));
                    }
                    return (generators, scope, (None, result));
                }
                let generators = match c.below(7) {
                    0 => "i in indices(hs), k in 1..=hs[i]",
                    // The amounts walked as a list worked out.
                    6 => "i in indices(hs), k in [m + 1 for m in 0..hs[i]]",
                    1 => "(i, h) in enumerate(hs), k in 1..=h",
                    2 => "k in 1..=3, i in indices(hs)",
                    3 if self.listed => "i in nonzero, k in 1..=hs[i]",
                    4 => "i in indices(hs), k in 0..hs[i]",
                    _ => "i in indices(hs), j in indices(hs)",
                };
                scope.numbers.push("i");
                if generators.contains(" j ") {
                    // A token moves from a heap to a later one.
                    scope.numbers.push("j");
                    let result = "set_at(set_at(hs, i, hs[i] - 1), j, hs[j] + 1)";
                    let guard = "i < j and hs[i] > 0".to_string();
                    return (
                        generators.to_string(),
                        scope,
                        (Some(guard), result.to_string()),
                    );
                }
                scope.numbers.push("k");
                let guard = match generators {
                    g if g.starts_with('k') => Some("k <= hs[i]"),
                    g if g.contains("0..") => Some("k < hs[i]"),
                    _ => None,
                };
                let k = if generators.contains("0..") {
                    "k + 1"
                } else {
                    "k"
                };
                let result = match c.below(10) {
                    0 if self.wide => format!("take(hs, i, {k})"),
                    // The same with slices, the heaps from the i-th on
                    // dropped where an `if` on the amount says.
                    9 if c.below(2) == 0 => format!(
                        "if {} then slice(hs, 0, i) + [min(h, ({k}) - 1) for h in slice(hs, i, len(hs))] \
                         else slice(hs, 0, i)",
                        match c.below(3) {
                            0 => format!("hs[i] + i > {k}"),
                            1 => format!("({k}) % 3 != 0"),
                            _ => format!("({k}) > 1"),
                        }
                    ),
                    // Chomp by rows: the heaps from the i-th on cut down
                    // to what the i-th becomes, or dropped where the
                    // filter on the amount says.
                    9 => format!(
                        "[if j >= i then min(hs[j], ({k}) - 1) else hs[j] for j in indices(hs) \
                         if j < i or {}]",
                        match c.below(3) {
                            0 => format!("hs[i] + j > {k}"),
                            1 => format!("({k}) % 3 != 0"),
                            _ => format!("({k}) > 1"),
                        }
                    ),
                    // A counter taken and the rest of the heap split in
                    // two: the list grows.
                    7 => format!("[({k}) - 1] + remove_at(hs, i) + [hs[i] - ({k})]"),
                    8 => format!(
                        "sort([h for h in remove_at(hs, i) + [({k}) - 1, hs[i] - ({k})] if h > 0])"
                    ),
                    // The new heaps walked straight from `set_at`, those
                    // taken to nothing left out.
                    6 => format!("[h for h in set_at(hs, i, hs[i] - ({k})) if h > 0]"),
                    1 => format!("[if j == i then h - ({k}) else h for (j, h) in enumerate(hs)]"),
                    // Every heap from the i-th on cut down to what the
                    // i-th becomes (Chomp's columns).
                    4 => format!(
                        "[if j < i then hs[j] else min(hs[j], hs[i] - ({k})) for j in indices(hs)]"
                    ),
                    5 if c.below(2) == 0 => format!(
                        "[if j >= i then min(h, hs[i] - ({k})) else h for (j, h) in enumerate(hs)]"
                    ),
                    // A heap taken to nothing goes: the list grows shorter.
                    3 => format!(
                        "[if j == i then h - ({k}) else h for (j, h) in enumerate(hs) \
                         if j != i or h > {k}]"
                    ),
                    2 if self.wide => format!("sort(set_at(hs, i, hs[i] - ({k})))"),
                    _ => format!("set_at(hs, i, hs[i] - ({k}))"),
                };
                (generators.to_string(), guard.map(str::to_string), result)
            }
            Shape::Grid => {
                let generators = match c.below(7) {
                    0 => "(r, c) in cells(g, \".\")",
                    1 => "(r, c) in cells(g)",
                    2 => "r in indices(g), c in indices(g[r])",
                    3 => "r in indices(g), c in 0..len(g[r]) - 1",
                    // Columns first: the search may walk the rows outside.
                    5 => "c in indices(g[0]), r in indices(g)",
                    6 => "c in 0..=2, r in 0..=1",
                    _ => "r in 0..len(g) - 1, c in indices(g[r])",
                };
                scope.numbers.extend(["r", "c"]);
                let (guard, result) = match c.below(12) {
                    0 if c.below(3) == 0 => (
                        "open(g, r, c)",
                        "either(cover(g, r, c), set_at(g, r, set_at(g[r], c, \"#\")), r)",
                    ),
                    0 => ("open(g, r, c)", "cover(g, r, c)"),
                    // The board turned, read as a grid of its own shape:
                    // column c is its row c; set whole and turned back.
                    5 => (
                        "transpose(g)[c][r] == \".\" and open(transpose(g), c, r)",
                        "transpose(set_at(transpose(g), c, repeat(\"#\", len(g))))",
                    ),
                    6 => (
                        "has(rotate(g)[c], \".\") and len(rotate(g)) > r",
                        "rotate(rotate(rotate(cover(rotate(g), c, r))))",
                    ),
                    1 => (
                        "g[r][c] == \".\" and c + 1 < len(g[r]) and g[r][c + 1] == \".\"",
                        "set_at(g, r, set_at(set_at(g[r], c, \"#\"), c + 1, \"#\"))",
                    ),
                    2 => (
                        "g[r][c] == \".\" and r + 1 < len(g) and g[r + 1][c] == \".\"",
                        "set_at(set_at(g, r, set_at(g[r], c, \"#\")), r + 1, set_at(g[r + 1], c, \"#\"))",
                    ),
                    3 if c.below(2) == 0 => (
                        "open(g, r, c)",
                        "cover_in(cover_in(cover_in(cover_in(g, r, c), r - 1, c), r, c + 1), r + 1, c)",
                    ),
                    3 => ("has(g[r], \".\")", "set_at(g, r, repeat(\"#\", len(g[r])))"),
                    // Past the last column, unless the generators stop short.
                    4 if c.below(2) == 0 => (
                        "g[r][c] == \".\" and g[r][c + 1] == \".\"",
                        "set_at(g, r, set_at(set_at(g[r], c, \"#\"), c + 1, \"#\"))",
                    ),
                    // One rule a branch of the `if` on the row's last
                    // value (where the rows are `0..=1`), the cell below
                    // covered too in the other.
                    7 => (
                        "open(g, r, c)",
                        "if r == 1 then cover(g, r, c) else cover(cover(g, r, c), r + 1, c)",
                    ),
                    // Two cells down laid across on the board turned, by
                    // joining its row around them, and turned back; past
                    // the turned row's end the row grows and turning back
                    // fails.
                    8 => (
                        "open(transpose(g), c, r)",
                        "transpose(lay(transpose(g), c, r))",
                    ),
                    // Two cells compared as one string: a slice across
                    // (shorter past the row's end), two cells joined down
                    // (the second off the board past the last row).
                    9 => (
                        "slice(g[r], c, c + 2) == \"..\"",
                        "lay(g, r, c)",
                    ),
                    10 => (
                        "g[r][c] + g[r + 1][c] == \"..\"",
                        "cover(cover(g, r, c), r + 1, c)",
                    ),
                    // Two cells of a row turned over, each by a helper of
                    // its own letter; the second off the row at column 0.
                    11 => (
                        "open(g, r, c)",
                        "set_at(g, r, turn(turn(g[r], c), c - 1))",
                    ),
                    _ => ("g[r][c] == \".\"", "set_at(g, r, set_at(g[r], c, \"#\"))"),
                };
                (
                    generators.to_string(),
                    Some(guard.to_string()),
                    result.to_string(),
                )
            }
            Shape::Pair { tuple } => {
                let (x, y) = self.xy();
                // Each way of drawing k, with the results that shrink
                // the pair's sum by it.
                let (generators, guard, results) = match c.below(5) {
                    0 => (
                        format!("k in 1..={x}"),
                        None,
                        [
                            ("X - k", "Y"),
                            ("Y", "X - k"),
                            ("min(X - k, Y)", "max(X - k, Y)"),
                        ],
                    ),
                    1 => (
                        format!("k in 1..=min({x}, {y})"),
                        None,
                        [("X - k", "Y - k"), ("X - k", "Y"), ("Y - k", "X")],
                    ),
                    2 => (
                        "k in 0..3".to_string(),
                        Some(format!("k > 0 and k <= {x}")),
                        [("X - k", "Y"), ("Y", "X - k"), ("X - k", "Y")],
                    ),
                    3 => (
                        format!("k in 1..={x}, j in 0..k"),
                        None,
                        [("X - k", "Y + j"); 3],
                    ),
                    _ => (
                        format!("k in 1..={y}"),
                        Some(format!("{y} > {x}")),
                        [("X", "Y - k"), ("Y - k", "X"), ("X", "Y - k")],
                    ),
                };
                scope.numbers.push("k");
                if generators.contains(" j ") {
                    scope.numbers.push("j");
                }
                let (a, b) = results[c.below(3)];
                let fill = |e: &str| e.replace('X', x).replace('Y', y);
                let (a, b) = (fill(a), fill(b));
                let main = if tuple {
                    format!("({a}, {b})")
                } else {
                    format!("{a}, {b}")
                };
                (generators, guard, main)
            }
            Shape::Set => {
                scope.numbers.push("x");
                let (generators, guard, result) = match c.below(6) {
                    0 => ("x in s", None, "set([y for y in s if y != x])"),
                    1 => {
                        scope.numbers.push("k");
                        (
                            "x in s, k in 1..=x",
                            Some("x - k not in s"),
                            "set([y for y in s if y != x] + [x - k])",
                        )
                    }
                    // A divisor of 0 is a division by zero.
                    2 => ("x in s", None, "set([y for y in s if x % y != 0])"),
                    3 => {
                        scope.numbers.push("k");
                        (
                            "x in list(s), k in 0..x",
                            Some("not next_in(s, k) and k not in s"),
                            "set([y for y in s if y != x] + [k])",
                        )
                    }
                    4 => (
                        "x in sort(s)",
                        Some("x == min(s) or x == max(s)"),
                        "set([y for y in s if y > x])",
                    ),
                    _ => ("x in s", Some("len(s) > 1"), "drop(s, x)"),
                };
                (
                    generators.to_string(),
                    guard.map(str::to_string),
                    result.to_string(),
                )
            }
            Shape::Flags => {
                scope.numbers.push("v");
                let (generators, guard) = match c.below(4) {
                    0 => ("(v, x) in enumerate(f)", "x"),
                    // Past the list when `ADJ` has more rows.
                    1 => ("v in 0..len(ADJ)", "f[v]"),
                    _ => ("v in indices(f)", "f[v]"),
                };
                let element = c.pick(&[
                    "f[u] and u != v and not (u in ADJ[v])",
                    "f[u] and u not in ADJ[v] and u != v",
                    "not (not f[u] or u == v or u in ADJ[v])",
                    "f[u] and u < v",
                    "f[u] and (u > v or u == 0)",
                    "f[u] and u != v and u != 2",
                    "f[u] and u != v and not (u in [1, 3])",
                    // Look-alikes: a place worked out, a row moved.
                    "f[u] and u + 1 != v + 1",
                    "f[u] and u != v and not (u in ADJ[v + 1])",
                ]);
                let result = match c.below(6) {
                    0 => "taken(f, v)".to_string(),
                    1 => "set_at(f, [v] + ADJ[v], [false for w in [v] + ADJ[v]])".to_string(),
                    2 => "set_at(f, v, false)".to_string(),
                    3 => "[x and u != v for (u, x) in enumerate(f)]".to_string(),
                    _ => format!("[{element} for u in indices(f)]"),
                };
                (generators.to_string(), Some(guard.to_string()), result)
            }
        };
        (generators, scope, (guard, result))
    }

    /// Two letters, the second later in the order a cell goes through.
    fn later_letters(&self, c: &mut Choices) -> (String, String) {
        let from = c.below(self.letters.len() - 1);
        let to = from + 1 + c.below(self.letters.len() - 1 - from);
        (
            format!("\"{}\"", self.letters[from]),
            format!("\"{}\"", self.letters[to]),
        )
    }

    /// One of the board's letters; now and then a letter no board holds,
    /// or a string that is not one letter (which `set_at` refuses).
    fn letter(&self, c: &mut Choices) -> String {
        let letter = match c.below(16) {
            0 => c.pick(&["Z", "XX", ""]),
            _ => c.pick(&self.letters),
        };
        format!("\"{letter}\"")
    }

    /// A main part drawn freely: it may loop, leave the board, go below 0
    /// or grow.
    fn free_result(&self, c: &mut Choices, scope: &Scope) -> String {
        let number = |c: &mut Choices| self.number(c, scope, 1);
        match self.shape {
            Shape::Board => match c.below(6) {
                0 => format!(
                    "set_at(set_at(b, i, {}), {}, {})",
                    self.letter(c),
                    number(c),
                    self.letter(c)
                ),
                1 => format!(
                    "set_at(b, [i, {}], [{}, {}])",
                    number(c),
                    self.letter(c),
                    self.letter(c)
                ),
                2 if c.below(2) == 0 => "reverse(b)".to_string(),
                // An argument that fails even where the helper leaves it.
                2 => format!("either(set_at(b, {}, {}), b, i)", number(c), self.letter(c)),
                3 if c.below(2) == 0 => "b".to_string(),
                3 => format!(
                    "{}([set_at(b, i, {l}), reverse(set_at(b, i, {l}))])",
                    c.pick(&["min", "max"]),
                    l = self.letter(c)
                ),
                _ => format!("set_at(b, {}, {})", number(c), self.letter(c)),
            },
            Shape::Heaps => match c.below(6) {
                0 => format!("[min(h + {}, {SMALL}) for h in hs]", number(c)),
                // Lists that change length: heaps kept by a test, one
                // heap left out, a heap added (past the length the
                // position started with, which the compiled code hands
                // back).
                2 => format!("[h for h in hs if h > {}]", number(c)),
                3 => {
                    let n = number(c);
                    format!("slice(hs, 0, {n}) + slice(hs, {n} + 1, len(hs))")
                }
                4 => format!("hs + [min({}, {SMALL})]", number(c)),
                1 => "reverse(hs)".to_string(),
                _ => format!("set_at(hs, {}, min({}, {SMALL}))", number(c), number(c)),
            },
            Shape::Grid => match c.below(3) {
                0 => format!("cover(g, {}, {})", number(c), number(c)),
                1 if c.below(2) == 0 => "mirror(g)".to_string(),
                1 => format!("either(cover(g, {}, {}), g, r)", number(c), number(c)),
                _ => format!("set_at(g, r, set_at(g[r], {}, \".\"))", number(c)),
            },
            Shape::Set => match c.below(6) {
                5 => format!("peel(s, {})", number(c)),
                0 => format!("set([min(y + {}, {SMALL}) for y in s])", number(c)),
                1 => format!("{{{}, min({}, {SMALL})}}", c.below(4), number(c)),
                2 => "s".to_string(),
                3 => format!("drop(s, {})", number(c)),
                _ => format!("set(list(s) + [min({}, {SMALL})])", number(c)),
            },
            Shape::Flags => match c.below(4) {
                0 => "[not x for x in f]".to_string(),
                1 => format!("set_at(f, {}, true)", number(c)),
                2 => "reverse(f)".to_string(),
                _ => "f".to_string(),
            },
            Shape::Pair { tuple } => {
                let small = |c: &mut Choices| format!("min({}, {SMALL})", number(c));
                let (a, b) = (small(c), small(c));
                if tuple {
                    format!("({a}, {b})")
                } else {
                    format!("{a}, {b}")
                }
            }
        }
    }

    /// A number: a name the rule bound, a number of the position, a
    /// small constant, or arithmetic on them (which may overflow, go
    /// below 0 or divide by 0).
    fn number(&self, c: &mut Choices, scope: &Scope, depth: u32) -> String {
        let (x, y) = self.xy();
        let position: &[&str] = match self.shape {
            Shape::Board if self.wide => &["len(b)", "count(b, \"X\")", "index_of(b, \".\")"],
            Shape::Board => &["len(b)"],
            Shape::Heaps => &["len(hs)", "hs[0]", "sum(hs)", "max(hs)", "index_of(hs, 1)"],
            Shape::Grid => &["len(g)", "len(g[0])"],
            Shape::Pair { .. } => &[x, y],
            // `min` and `max` of the empty set are errors.
            Shape::Set => &["len(s)", "max(s)", "min(s)"],
            Shape::Flags => &["len(f)", "len(ADJ)", "len(ADJ[0])"],
        };
        let atom = match c.below(4) {
            0 => c.below(4).to_string(),
            1 => c.pick(position).to_string(),
            _ if !scope.numbers.is_empty() => c.pick(&scope.numbers).to_string(),
            _ => c.pick(position).to_string(),
        };
        if depth == 0 || c.below(3) != 0 {
            return edge(c, atom);
        }
        let other = self.number(c, scope, depth - 1);
        match c.below(12) {
            0 => format!("(if {atom} < {other} then {other} else {atom})"),
            1 => format!("{}({atom}, {other})", c.pick(&["min", "max"])),
            2 => format!("abs({atom} - {other})"),
            _ => {
                // Division rounds down and a remainder is never negative;
                // a power, a shift or a product may go past 64 bits.
                let op = c.pick(&[
                    "+", "-", "*", "/", "%", "+", "-", "**", "<<", ">>", "&", "|", "^",
                ]);
                format!("({atom} {op} {other})")
            }
        }
    }

    /// A guard over the position and the rule's names.
    fn guard(&self, c: &mut Choices, scope: &Scope, depth: u32) -> String {
        if depth > 0 && c.below(3) == 0 {
            let a = self.guard(c, scope, depth - 1);
            return match c.below(3) {
                0 => format!("({a} or {})", self.guard(c, scope, depth - 1)),
                1 => format!("not ({a})"),
                _ => format!("({a} and {})", self.guard(c, scope, depth - 1)),
            };
        }
        let number = |c: &mut Choices| self.number(c, scope, 1);
        match c.below(6) {
            0 => {
                let op = c.pick(&["==", "!=", "<", "<=", ">", ">="]);
                format!("{} {op} {}", number(c), number(c))
            }
            1 if self.wide => format!("{} in {{1, {}}}", number(c), c.below(4)),
            2 if self.wide => format!("{} in {}..{}", number(c), number(c), number(c)),
            3 if self.flag => "t".to_string(),
            _ => self.shape_test(c, scope),
        }
    }

    /// A test only a position of this shape can make.
    fn shape_test(&self, c: &mut Choices, scope: &Scope) -> String {
        let n = self.number(c, scope, 0);
        match self.shape {
            Shape::Board => {
                let (l, m) = (self.letter(c), self.letter(c));
                let pair = format!("\"{}{}\"", l.trim_matches('"'), m.trim_matches('"'));
                // Letters and boards compare in the order of strings,
                // whatever codes a key gives them.
                let order = if self.wide {
                    c.pick(&["<", "<=", ">", ">="])
                } else {
                    c.pick(&["==", "!="])
                };
                let board = self.start_board(c);
                match (c.below(10), scope.letter) {
                    (0, Some(cell)) => format!("{cell} != {l}"),
                    (0, None) | (1, _) => format!("b[{n}] == {l}"),
                    (2, _) => format!("has(b, {pair})"),
                    (3, _) => format!("{pair} in b"),
                    (4, _) => format!("free(b, {n})"),
                    (5, _) => format!("b[{n}] {order} {l}"),
                    (6, _) => format!("b {order} {board}"),
                    (7, _) => format!("b[i] == {l} and b[i + 1] {order} {m}"),
                    (8, _) if c.below(2) == 0 => format!("slice(b, i, {n}) == {pair}"),
                    (8, _) => format!("b[i] {} b[{n}]", self.equality(c)),
                    // A helper that calls itself, given the board.
                    (9, _) if c.below(2) == 0 => format!("xs_from(b, {n}) < 2"),
                    _ => format!("next_free(b, {n})"),
                }
            }
            Shape::Heaps => match c.below(8) {
                0 => format!("hs[{n}] > 0"),
                // A helper that calls itself, given the heaps; past the
                // last heap it reads out of range. It stops 8 deep: on a
                // list that grows with every move, the reference checks
                // the whole list at every call.
                7 => format!("upto(hs, {n}) > 2"),
                5 if scope.numbers.contains(&"i") => format!("hs[i + 1] < hs[i] + {n}"),
                6 if self.wide => format!("hs {} [{n}, 1]", c.pick(&["<", "==", ">=", "!="])),
                // An element near the loop's place against a number, read
                // for every place at once (one below 0 never holds).
                4 if scope.numbers.contains(&"i") => format!(
                    "hs[{}] {} {}",
                    c.pick(&["i", "i + 1", "i - 1", "1 + i"]),
                    c.pick(&["==", "!="]),
                    c.pick(&["0", "1", "2", "-1"])
                ),
                1 => format!("has(hs, {n})"),
                2 => format!("{n} {} hs", c.pick(&["in", "not in"])),
                3 => format!("big(hs, {n})"),
                _ if scope.numbers.contains(&"i") => "i == 0 or hs[i - 1] >= hs[i]".to_string(),
                _ => format!("hs[{n}] == 1"),
            },
            Shape::Grid => match c.below(8) {
                7 => format!("g[r][c] {} g[{n}][c]", self.equality(c)),
                4 => format!("g[r][c + 1] == \".\" and {n} < 2"),
                5 => format!("g[{n}] {} g[r]", self.equality(c)),
                6 => format!("g[r] {} \".#\"", self.equality(c)),
                0 if scope.numbers.contains(&"r") => {
                    "r + 1 < len(g) and g[r + 1][c] == \".\"".to_string()
                }
                1 => format!("open(g, 0, {n})"),
                2 => format!("has(g[{n}], \"..\")"),
                3 if self.wide => format!("count(g[0], \"#\") < {n}"),
                _ => format!("len(g[0]) < {n}"),
            },
            Shape::Set => match c.below(6) {
                0 => format!("{n} in s"),
                1 => format!("{n} not in s"),
                2 => format!("s {} {{1, {n}}}", c.pick(&["==", "!="])),
                3 => format!("next_in(s, {n})"),
                4 => format!("run_to(s, {n})"),
                _ => format!("popcount(len(s)) < {n}"),
            },
            Shape::Flags => match c.below(6) {
                0 => format!("f[{n}]"),
                1 if scope.numbers.contains(&"v") => "alone(f, v)".to_string(),
                2 if scope.numbers.contains(&"v") => {
                    format!("{}([f[w] for w in ADJ[v]])", c.pick(&["any", "all"]))
                }
                3 if scope.numbers.contains(&"v") => {
                    "all([not f[w] for w in ADJ[v]] + [f[v]])".to_string()
                }
                4 => format!("{n} in ADJ[0]"),
                _ => format!("not f[{n}]"),
            },
            Shape::Pair { .. } => {
                let (x, y) = self.xy();
                match c.below(8) {
                    3 => format!("({x}, {n}) {} ({y}, 2)", self.equality(c)),
                    4 => format!("(if {x} < {y} then {x} else {n}) == {y} - 1"),
                    0 => format!("even({n})"),
                    1 => format!("low({x}, {y}) > {n}"),
                    // Helpers that call themselves: `halves` of an odd
                    // or negative number goes too deep.
                    5 => format!("gcd({x}, {n}) == 1"),
                    6 => format!("halves({n}) < {y}"),
                    7 => format!("flips({n}, {x} > {y})"),
                    _ => format!("{x} != {y}"),
                }
            }
        }
    }

    /// A board of one to seven of the game's letters, written out.
    fn start_board(&self, c: &mut Choices) -> String {
        let cells: String = (0..=c.below(6)).map(|_| c.pick(&self.letters)).collect();
        format!("\"{cells}\"")
    }

    /// `==` or `!=`, or in a wide game an order too (which the compiled
    /// code leaves to the interpreter for strings, tuples and lists).
    fn equality(&self, c: &mut Choices) -> &'static str {
        if self.wide {
            c.pick(&["<", "==", ">=", "!="])
        } else {
            c.pick(&["==", "!="])
        }
    }

    /// A `lose if` condition, over the position alone.
    fn lose(&self, c: &mut Choices) -> String {
        let (x, y) = self.xy();
        let l = c.pick(&self.letters[1..]);
        // The second of each shape fails on some positions.
        let conditions = match self.shape {
            Shape::Board => [
                format!("has(b, \"{l}{l}\")"),
                format!("b[0] == \"{l}\" and b[4] == \"{l}\""),
            ],
            Shape::Heaps => [
                format!("sum(hs) == {}", 1 + c.below(4)),
                "hs[0] == 2 and hs[3] > 0".to_string(),
            ],
            Shape::Grid => [
                "has(g[0], \"##\")".to_string(),
                "g[0][0] == \"#\" and g[2][0] == \"#\"".to_string(),
            ],
            Shape::Pair { .. } => [format!("{x} == {y}"), format!("{x} / ({y} - 1) > 2")],
            Shape::Set => ["len(s) == 1".to_string(), "min(s) == 2".to_string()],
            Shape::Flags => ["f[0] and not f[1]".to_string(), "f[5]".to_string()],
        };
        let [first, second] = conditions;
        if c.below(3) == 0 {
            second
        } else {
            first
        }
    }

    /// A starting position: small enough that the reference interpreter
    /// searches it in milliseconds.
    fn start(&self, c: &mut Choices) -> String {
        let number = |c: &mut Choices, most: usize| c.below(most + 1).to_string();
        let main = match self.shape {
            Shape::Board => self.start_board(c),
            Shape::Heaps => {
                let heaps: Vec<String> = (0..=c.below(3)).map(|_| number(c, 4)).collect();
                format!("[{}]", heaps.join(", "))
            }
            Shape::Grid => {
                let columns = 1 + c.below(3);
                let rows: Vec<String> = (0..=c.below(2))
                    .map(|_| {
                        let row: String = (0..columns)
                            .map(|_| if c.below(4) == 0 { "#" } else { "." })
                            .collect();
                        format!("\"{row}\"")
                    })
                    .collect();
                format!("[{}]", rows.join(", "))
            }
            Shape::Set => {
                let items: Vec<String> = (0..c.below(5)).map(|_| number(c, 7)).collect();
                format!("{{{}}}", items.join(", "))
            }
            Shape::Flags => {
                let flags: Vec<&str> = (0..3 + c.below(5))
                    .map(|_| if c.below(4) == 0 { "false" } else { "true" })
                    .collect();
                format!("[{}]", flags.join(", "))
            }
            Shape::Pair { tuple } => {
                let (a, b) = (number(c, 6), number(c, 6));
                if tuple {
                    format!("({a}, {b})")
                } else {
                    format!("{a}, {b}")
                }
            }
        };
        let flag = if c.below(2) == 0 { "true" } else { "false" };
        let counter = number(c, 3);
        self.position(&main, flag, &counter)
    }
}
