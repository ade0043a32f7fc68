//! Every engine against the reference interpreter, on the games a user
//! meets first: every example in examples/ and every game in bench/games/
//! (its rewrites included). From a few small starts of each game, every
//! position reachable (up to a bound) is asked of the reference
//! interpreter (no compiled code) and of each faster way: its options, in
//! order and with their labels, from the compiled code of packed keys
//! (which must list most of them itself, not hand them to the
//! interpreter); its value from the compiled search of packed keys, step
//! by step and fused. An error must be of the
//! same kind at the same place. Heap games also go through every table
//! path (`fast_paths::compare`: the kernels, the affine rules, the
//! rare/common method, checkpoints and the period shortcut).
//!
//! Games with one natural-number parameter start from a heap; other games
//! start from `STARTS`, or are reached from another game's positions (a
//! heap game defined through a general one): the test fails for a game no
//! compared position belongs to, so a new example cannot go unchecked.

mod common;

use common::engines::{self, session, Compared, Limits};
use grundy::eval::ir::GameKind;
use grundy::eval::Compact;
use grundy::session::fast_paths::{compare, Question};
use grundy::types::Type;
use std::path::Path;

/// Small starts of every game that is not a heap game, by file.
const STARTS: &[(&str, &[&str])] = &[
    ("examples/candy-split.game", &["Candy(5, 4)", "Candy(3, 7)"]),
    (
        "examples/chomp.game",
        &["Chomp([4, 2, 1])", "Chomp([3, 3])"],
    ),
    ("examples/laskers-nim.game", &["Heaps([3, 5])"]),
    ("examples/misere.game", &["Nim([2, 3, 1])"]),
    (
        "examples/nim-with-additions.game",
        &["Nim([1, 0, 1, 1])", "Nim([5, 1])"],
    ),
    ("examples/wythoff.game", &["Wythoff(5, 3)", "Wythoff(6, 6)"]),
    (
        "examples/staircase.game",
        &["Stairs([0, 2, 1, 2])", "Stairs([1, 0, 3])"],
    ),
    (
        "examples/ruler.game",
        &["Ruler(\"HTHHTH\")", "Ruler(\"THHHT\")"],
    ),
    (
        "examples/sets.game",
        &[
            "Divisors(set(1..=9))",
            "Divisors({2, 3, 4, 6, 9, 12})",
            "Turtles({1, 3, 6})",
            "Ends({-2, 0, 5, 7})",
        ],
    ),
    (
        "examples/cram.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "....", "...."])"##,
            "Board([\"..#..\", \"..#..\", \"#####\"])",
        ],
    ),
    (
        "examples/moores-nim.game",
        &[
            "Moore(2, [3, 2, 2])",
            "Moore(1, [4, 3])",
            "Moore(3, [2, 2, 1, 2])",
        ],
    ),
    ("examples/nim.game", &["Nim([3, 4, 5])", "Nim([])"]),
    (
        "examples/subtraction.game",
        &["Subtract({1, 3, 4}, 12)", "Subtract({}, 4)"],
    ),
    (
        "examples/sums.game",
        &["Candy(4, 6)", "Subtract({1, 2, 4}, 9)"],
    ),
    (
        "examples/treblecross.game",
        &[
            r##"Treblecross(".......")"##,
            r##"Treblecross("..X.X..")"##,
            r##"Row("...X.....")"##,
        ],
    ),
    (
        "bench/games/chomp-grid.game",
        &[
            r##"Chomp(["....", "....", "...."])"##,
            "Chomp([\"...\", \"..#\", \"###\"])",
        ],
    ),
    (
        "bench/games/chomp-heights.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([1, 3])"],
    ),
    (
        "bench/games/cram.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/cram-symmetric.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/mock-turtles.game",
        &[r##"Turtles("HHTHH")"##, r##"Turtles("THTHHT")"##],
    ),
    ("bench/games/moores-nim.game", &["Moore(2, [3, 3, 2])"]),
    (
        "bench/games/node-kayles.game",
        &[
            r##"NK(["....", "...."])"##,
            r##"NK([".#.", "...", "#.."])"##,
        ],
    ),
    (
        "bench/games/treblecross.game",
        &[r##"Treblecross("........")"##, r##"Treblecross(".X..X.")"##],
    ),
    ("bench/games/wythoff.game", &["Wythoff(9, 7)"]),
    (
        "bench/games/search-rewrites/cram-cells.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-one-rule.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-guide.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-slice.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-transpose.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-rotate.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-domino.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/cram-if-result.game",
        &[
            r##"Cram(["...", "..."])"##,
            r##"Cram(["....", "#...", "...."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/chomp-rows.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([2, 1, 1])"],
    ),
    (
        "bench/games/search-rewrites/chomp-rows-kept.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([2, 1, 1])"],
    ),
    (
        "bench/games/search-rewrites/chomp-heights-helper.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([1, 3])"],
    ),
    (
        "bench/games/search-rewrites/chomp-heights-enumerate.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([1, 3])"],
    ),
    (
        "bench/games/search-rewrites/chomp-heights-slice.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([1, 3])"],
    ),
    (
        "bench/games/search-rewrites/chomp-heights-joined.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([1, 3])"],
    ),
    (
        "bench/games/search-rewrites/chomp-grid-cells.game",
        &[
            r##"Chomp(["....", "...#", "..##"])"##,
            r##"Chomp(["...", "..."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/chomp-grid-columns.game",
        &[
            r##"Chomp(["....", "...#", "..##"])"##,
            r##"Chomp(["...", "..."])"##,
        ],
    ),
    (
        "bench/games/search-rewrites/wythoff-one-rule.game",
        &["Wythoff(9, 7)"],
    ),
    (
        "bench/games/search-rewrites/wythoff-steps.game",
        &["Wythoff(9, 7)"],
    ),
    (
        "bench/games/search-rewrites/wythoff-tuple.game",
        &["Wythoff((9, 7))"],
    ),
    (
        "bench/games/search-rewrites/wythoff-list.game",
        &["Wythoff([9, 7])"],
    ),
    (
        "bench/games/search-rewrites/wythoff-leave.game",
        &["Wythoff(9, 7)"],
    ),
    (
        "bench/games/search-rewrites/wythoff-which.game",
        &["Wythoff(9, 7)"],
    ),
    (
        "bench/games/search-rewrites/wythoff-helper.game",
        &["Wythoff(9, 7)"],
    ),
    (
        "bench/games/search-rewrites/chomp-heights-any.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([2, 2])"],
    ),
    (
        "bench/games/search-rewrites/chomp-heights-after.game",
        &["Chomp([4, 3, 3, 1])", "Chomp([2, 2])"],
    ),
    (
        "bench/games/search-rewrites/wythoff-if-result.game",
        &["Wythoff(9, 7)"],
    ),
    (
        "bench/games/search-rewrites/mock-turtles-list.game",
        &["Turtles([1, 1, 0, 1, 1])", "Turtles([0, 1, 0, 1, 1, 0])"],
    ),
    (
        "bench/games/search-rewrites/mock-turtles-guide.game",
        &[r##"Turtles("HHTHH")"##, r##"Turtles("THTHHT")"##],
    ),
    (
        "bench/games/search-rewrites/mock-turtles-subsets.game",
        &[r##"Turtles("HHTHH")"##, r##"Turtles("THTHHT")"##],
    ),
    (
        "bench/games/search-rewrites/mock-turtles-heads.game",
        &[r##"Turtles("HHTHH")"##, r##"Turtles("THTHHT")"##],
    ),
    (
        "bench/games/search-rewrites/mock-turtles-turned.game",
        &["Turtles([1, 1, 0, 1, 1])", "Turtles([0, 1, 0, 1, 1, 0])"],
    ),
    (
        "bench/games/search-rewrites/mock-turtles-bools.game",
        &[
            "Turtles([true, true, false, true, true])",
            "Turtles([false, true, false, true, true, false])",
        ],
    ),
    (
        "bench/games/search-rewrites/treblecross-has-helper.game",
        &[r##"Treblecross("........")"##, r##"Treblecross(".X..X.")"##],
    ),
    (
        "bench/games/search-rewrites/treblecross-let-empty.game",
        &[r##"Treblecross("........")"##, r##"Treblecross(".X..X.")"##],
    ),
    (
        "bench/games/search-rewrites/treblecross-in.game",
        &[r##"Treblecross("........")"##, r##"Treblecross(".X..X.")"##],
    ),
    (
        "bench/games/search-rewrites/treblecross-bools.game",
        &[
            "Treblecross([false, false, false, false, false, false, false, false])",
            "Treblecross([false, true, false, false, true, false])",
        ],
    ),
    (
        "bench/games/search-rewrites/treblecross-bools-windows.game",
        &[
            "Treblecross([false, false, false, false, false, false, false, false])",
            "Treblecross([false, true, false, false, true, false])",
        ],
    ),
    (
        "bench/games/search-rewrites/treblecross-cells.game",
        &[r##"Treblecross("........")"##, r##"Treblecross(".X..X.")"##],
    ),
    (
        "bench/games/search-rewrites/moore-subsets-take.game",
        &["Moore(2, [3, 3, 2])"],
    ),
    (
        "bench/games/search-rewrites/moore-one-or-more.game",
        &["Moore(2, [3, 3, 2])"],
    ),
    (
        "bench/games/search-rewrites/moore-index-of.game",
        &["Moore(2, [3, 3, 2])"],
    ),
    (
        "bench/games/search-rewrites/moore-not-in.game",
        &["Moore(2, [3, 3, 2])", "Moore(1, [2, 0, 3])"],
    ),
    (
        "bench/games/search-rewrites/moore-nonempty.game",
        &["Moore(2, [3, 3, 2])", "Moore(1, [2, 0, 3])"],
    ),
    (
        "bench/games/search-rewrites/moore-enumerate.game",
        &["Moore(2, [3, 3, 2])"],
    ),
    (
        "bench/games/search-rewrites/moore-list-range.game",
        &["Moore(2, [3, 3, 2])", "Moore(1, [2, 0, 3])"],
    ),
    (
        "bench/games/search-rewrites/moore-zip-made.game",
        &["Moore(2, [3, 3, 2])", "Moore(1, [2, 0, 3])"],
    ),
];

/// The heap each heap game starts from.
const HEAP: u32 = 14;
/// The most positions compared from one start, and the state limit of
/// every search: low, so that a start too large for it is an error every
/// engine must report alike.
const LIMITS: Limits = Limits {
    reached: 300,
    max_positions: 5000,
};

/// Every .game file the test covers, sorted.
fn game_files() -> Vec<String> {
    let mut files = Vec::new();
    for folder in [
        "examples",
        "bench/games",
        "bench/games/rewrites",
        "bench/games/search-rewrites",
    ] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(folder);
        for entry in std::fs::read_dir(&dir).expect("the folder can be read") {
            let name = entry.expect("an entry").file_name();
            let name = name.to_str().expect("a UTF-8 name");
            if name.ends_with(".game") {
                files.push(format!("{folder}/{name}"));
            }
        }
    }
    files.sort();
    files
}

fn read(path: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Compares every engine with the reference on the positions reachable
/// from `start`, panicking at the first difference.
fn compare_from(path: &str, text: &str, start: &str) -> Compared {
    engines::compare_from(path, text, start, LIMITS)
        .unwrap_or_else(|difference| panic!("{difference}"))
}

/// Whether the game's one parameter is a natural number (octal codes and
/// take-and-break games included).
fn is_heap_game(kind: &GameKind, params: &[Type]) -> bool {
    matches!(kind, GameKind::Octal(_) | GameKind::TakeBreak(_)) || params == [Type::Nat]
}

#[test]
fn every_engine_agrees_with_the_reference_on_every_shipped_game() {
    let mut compared = 0;
    let mut listed_compiled = 0;
    let mut unchecked = Vec::new();
    for path in game_files() {
        let text = read(&path);
        let loaded = match session(&path, &text, Compact::Off, LIMITS) {
            Ok(session) => session,
            // The symmetry declaration is newer than some builds: such a
            // file may be refused for it, and for nothing else.
            Err(errors) if text.contains("symmetry =") => {
                let at = errors.first().map_or(0, |e| e.span.start as usize);
                assert!(
                    text[at..].contains("symmetry ="),
                    "{path} does not load, and not for its symmetry: {errors:?}"
                );
                continue;
            }
            Err(errors) => panic!("{path} does not load: {errors:?}"),
        };
        let games: Vec<(String, bool)> = loaded
            .interp
            .program
            .games
            .iter()
            .map(|g| {
                let types: Vec<Type> = g.params.iter().map(|p| p.ty.clone()).collect();
                (g.name.clone(), is_heap_game(&g.kind, &types))
            })
            .collect();
        let mut starts: Vec<String> = STARTS
            .iter()
            .filter(|(file, _)| *file == path)
            .flat_map(|(_, starts)| starts.iter().map(|s| s.to_string()))
            .collect();
        for (name, heap) in &games {
            if !*heap {
                continue;
            }
            starts.push(format!("{name}({HEAP})"));
            let question = Question {
                text: &text,
                game: name,
                upto: 40,
                reference_upto: 60,
                checkpoint: 20,
            };
            if let Err(difference) = compare(&question) {
                panic!("{path}: {name}: {difference}");
            }
        }
        let mut seen = Vec::new();
        for start in &starts {
            let compared = compare_from(&path, &text, start);
            seen.extend(compared.positions);
            listed_compiled += compared.listed_compiled;
        }
        compared += seen.len();
        for (name, _) in &games {
            let own = format!("{name}(");
            // An alias is never a position of its own: its start is.
            if !seen.iter().chain(&starts).any(|p| p.starts_with(&own)) {
                unchecked.push(format!("{path}: {name}"));
            }
        }
    }
    assert!(
        unchecked.is_empty(),
        "games no compared position belongs to (give them starts in STARTS): {unchecked:?}"
    );
    assert!(compared > 2000, "only {compared} positions compared");
    // Most shipped games compile, sums of positions included: their
    // options must come from the compiled code, not from the interpreter
    // it falls back on.
    assert!(
        listed_compiled * 7 > compared * 4,
        "the compiled code listed the options of only {listed_compiled} of {compared} positions"
    );
}

/// A search past the state limit stops with the same error in every
/// engine, pointing at a rule and saying which position's moves the
/// search was finding (where a compiled search met the limit, the
/// general search reports it at its first move, not searching again).
#[test]
fn a_search_past_the_state_limit_stops_alike_in_every_engine() {
    let path = "bench/games/wythoff.game";
    let start = "Wythoff(90, 90)";
    let text = read(path);
    compare_from(path, &text, start);
    // The whole error, the line saying what the search was doing included.
    let whole = |compact: Compact| {
        let mut s = session(path, &text, compact, LIMITS).expect("it loaded before");
        let parts = s.position(start).expect("a position");
        let errors = s.value(&parts).expect_err("past the state limit");
        let e = errors.first().expect("an error");
        (format!("{:?}", e.kind), e.span, e.context.clone())
    };
    let want = whole(Compact::Off);
    assert!(!want.2.is_empty(), "the reference says where: {want:?}");
    for compact in [Compact::Plain, Compact::Fused] {
        let (kind, span, context) = whole(compact);
        assert_eq!(kind, want.0);
        assert!(
            span != Default::default() && !context.is_empty(),
            "{compact:?}: {context:?}"
        );
    }
}

/// Every file named in `STARTS` is one the test reads: a renamed example
/// must not leave its starts behind, unread.
#[test]
fn every_file_with_starts_exists() {
    let files = game_files();
    for (file, _) in STARTS {
        assert!(files.iter().any(|f| f == file), "{file} is not there");
    }
}
