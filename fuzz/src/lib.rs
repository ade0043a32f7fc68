//! The paths the fuzz targets drive grundy through, shared with
//! `tests/fuzz_regressions.rs` (which includes this file by path), so a
//! saved input is replayed exactly as the fuzzer ran it.
//!
//! Every path builds a fresh `Session`, feeds it the input, and renders
//! every error it returns the way the command line does. A path may end in
//! answers or in errors; it must never panic, overflow the stack, hang or
//! run out of memory. Each runs on a thread with the stack the `grundy`
//! binary gives its commands (src/main.rs), so what crashes here crashes
//! the command line and the REPL too.
//!
//! Only this crate's own code lives here; it uses nothing but grundy's
//! public API.

use grundy::diagnostic::render;
use grundy::error::Errors;
use grundy::eval::Program;
use grundy::session::Session;
use std::sync::{Arc, OnceLock};

/// The state limit for every search, so each run takes milliseconds and
/// a search that would not end is an error, not a timeout.
pub const MAX_POSITIONS: usize = 2000;

/// The most positions the `claims` target verifies a decomposition on.
pub const VERIFY_LIMIT: usize = 200;

/// The largest table the `eval` target asks for.
pub const MAX_TABLE: u64 = 5000;

/// The stack the `grundy` binary runs its commands on (src/main.rs).
pub const STACK_SIZE: usize = 256 * 1024 * 1024;

/// How a run ended, when it ended at all.
#[derive(Debug)]
pub enum Verdict {
    /// The input is not one this target looks at (not UTF-8, or empty).
    Skipped,
    /// grundy answered.
    Answered,
    /// grundy refused, with these errors rendered as the command line
    /// renders them (without colour, 80 columns).
    Refused(Vec<String>),
}

/// The well-formed files the `eval` target asks positions of: every
/// example, and the diagnostics cases that load but fail when run (loops,
/// infinite games, overflow, deep recursion, ...).
pub const FILES: &[(&str, &str)] = &[
    (
        "examples/candy-split.game",
        include_str!("../../examples/candy-split.game"),
    ),
    (
        "examples/cram.game",
        include_str!("../../examples/cram.game"),
    ),
    (
        "examples/grundys-game.game",
        include_str!("../../examples/grundys-game.game"),
    ),
    (
        "examples/moores-nim.game",
        include_str!("../../examples/moores-nim.game"),
    ),
    ("examples/nim.game", include_str!("../../examples/nim.game")),
    (
        "examples/octal.game",
        include_str!("../../examples/octal.game"),
    ),
    (
        "examples/subtraction.game",
        include_str!("../../examples/subtraction.game"),
    ),
    (
        "examples/sums.game",
        include_str!("../../examples/sums.game"),
    ),
    (
        "examples/treblecross.game",
        include_str!("../../examples/treblecross.game"),
    ),
    (
        "tests/diagnostics/cycle.game",
        include_str!("../../tests/diagnostics/cycle.game"),
    ),
    (
        "tests/diagnostics/cycle-two-games.game",
        include_str!("../../tests/diagnostics/cycle-two-games.game"),
    ),
    (
        "tests/diagnostics/cycle-down-first.game",
        include_str!("../../tests/diagnostics/cycle-down-first.game"),
    ),
    (
        "tests/diagnostics/infinite-game.game",
        include_str!("../../tests/diagnostics/infinite-game.game"),
    ),
    (
        "tests/diagnostics/lose-if-in-sum.game",
        include_str!("../../tests/diagnostics/lose-if-in-sum.game"),
    ),
    (
        "tests/diagnostics/overflow.game",
        include_str!("../../tests/diagnostics/overflow.game"),
    ),
    (
        "tests/diagnostics/parts-loop.game",
        include_str!("../../tests/diagnostics/parts-loop.game"),
    ),
    (
        "tests/diagnostics/recursion-too-deep.game",
        include_str!("../../tests/diagnostics/recursion-too-deep.game"),
    ),
    (
        "tests/diagnostics/division-by-zero.game",
        include_str!("../../tests/diagnostics/division-by-zero.game"),
    ),
    (
        "tests/diagnostics/index-out-of-range.game",
        include_str!("../../tests/diagnostics/index-out-of-range.game"),
    ),
    (
        "tests/diagnostics/helper-negative-nat.game",
        include_str!("../../tests/diagnostics/helper-negative-nat.game"),
    ),
    (
        "tests/diagnostics/regions-of-filler.game",
        include_str!("../../tests/diagnostics/regions-of-filler.game"),
    ),
];

/// The questions the `eval` target asks of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Value,
    /// The value, then the position shown as the command line shows it.
    Show,
    Misere,
    Height,
    Moves,
    /// `table NAME [UPTO]`: the text is a game's name and an optional
    /// bound (at most `MAX_TABLE`), as `grundy table FILE NAME --upto N`.
    Table,
}

pub const QUERIES: [Query; 6] = [
    Query::Value,
    Query::Show,
    Query::Misere,
    Query::Height,
    Query::Moves,
    Query::Table,
];

/// The file and question an `eval` input's first byte selects.
pub fn select(selector: u8) -> (usize, Query) {
    let s = selector as usize;
    (s % FILES.len(), QUERIES[s / FILES.len() % QUERIES.len()])
}

/// The first byte that selects this file and question (the inverse of
/// `select`), for writing seeds.
pub fn selector(file: usize, query: Query) -> u8 {
    let q = QUERIES
        .iter()
        .position(|&x| x == query)
        .expect("a known query");
    u8::try_from(q * FILES.len() + file).expect("fewer than 256 combinations")
}

fn session() -> Session {
    let mut session = Session::new();
    session.interp.max_positions = MAX_POSITIONS;
    session
}

fn verdict<T>(session: &Session, result: Result<T, Errors>) -> Verdict {
    match result {
        Ok(_) => Verdict::Answered,
        Err(errors) => Verdict::Refused(
            errors
                .iter()
                .map(|e| render(e, &session.sources, false, 80))
                .collect(),
        ),
    }
}

/// Runs `f` on a thread with the binary's stack and returns what it
/// returned; a panic in it is raised again here.
pub fn on_big_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    match std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(f)
        .expect("a thread can be started")
        .join()
    {
        Ok(v) => v,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// `parse`: arbitrary bytes as a .game file, through the parser only.
pub fn parse(data: &[u8]) -> Verdict {
    let Ok(text) = std::str::from_utf8(data) else {
        return Verdict::Skipped;
    };
    let text = text.to_string();
    on_big_stack(move || {
        let mut session = session();
        let source = session.sources.add("fuzz.game", text.as_str());
        let result = grundy::syntax::parse_file(source, &text);
        verdict(&session, result)
    })
}

/// `check`: arbitrary bytes as a .game file, parsed and then checked
/// (names, types, arity) against an empty program.
pub fn check(data: &[u8]) -> Verdict {
    let Ok(text) = std::str::from_utf8(data) else {
        return Verdict::Skipped;
    };
    let text = text.to_string();
    on_big_stack(move || {
        let mut session = session();
        let source = session.sources.add("fuzz.game", text.as_str());
        let result = grundy::syntax::parse_file(source, &text)
            .and_then(|file| grundy::check::check_items(&file.items, &Program::default()));
        verdict(&session, result)
    })
}

/// `eval`: the first byte picks a well-formed file from `FILES` and a
/// question (`select`); the rest, as UTF-8, is the position asked about,
/// as typed after `grundy value FILE`.
pub fn eval(data: &[u8]) -> Verdict {
    let Some((&first, rest)) = data.split_first() else {
        return Verdict::Skipped;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return Verdict::Skipped;
    };
    let text = text.to_string();
    on_big_stack(move || eval_text(first, &text))
}

/// The `eval` path for a selector byte and a position typed as text.
pub fn eval_text(selector: u8, text: &str) -> Verdict {
    let (file, query) = select(selector);
    let (name, source) = FILES[file];
    let mut session = session();
    // The file is parsed and checked once; each run starts from that
    // program in a fresh session, as `load_text` would leave it.
    static PROGRAMS: OnceLock<Vec<OnceLock<Arc<Program>>>> = OnceLock::new();
    let programs = PROGRAMS.get_or_init(|| FILES.iter().map(|_| OnceLock::new()).collect());
    let program = programs[file].get_or_init(|| {
        let mut fresh = Session::new();
        if let Err(errors) = fresh.load_text(name, source) {
            panic!("{name} no longer loads: {errors:?}");
        }
        fresh.interp.program.clone()
    });
    session.sources.add(name, source);
    session.interp.set_program(program.clone());
    if let Err(e) = session.interp.eval_consts() {
        panic!("{name}: its constants no longer evaluate: {e:?}");
    }
    if query == Query::Table {
        let mut words = text.split_whitespace();
        let game = words.next().unwrap_or("");
        let upto = words
            .next()
            .and_then(|w| w.parse::<u64>().ok())
            .unwrap_or(10)
            .min(MAX_TABLE);
        let result = session
            .heap_game(game)
            .and_then(|g| session.table(g, upto, |_, _| {}));
        return verdict(&session, result);
    }
    let parts = match session.position(text) {
        Ok(parts) => parts,
        Err(errors) => return verdict(&session, Err::<(), _>(errors)),
    };
    let result = match query {
        Query::Value => session.value(&parts).map(|_| ()),
        Query::Show => session.value(&parts).map(|_| {
            session.show_sum(&parts);
        }),
        Query::Misere => session.misere_wins(&parts).map(|_| ()),
        Query::Height => session.height(&parts).map(|_| ()),
        Query::Moves => session.moves(&parts).map(|_| ()),
        Query::Table => unreachable!("handled above"),
    };
    verdict(&session, result)
}

/// `claims`: arbitrary bytes as a .game file, loaded (parsed, checked,
/// constants evaluated) and, when it loads, every claim in it run and
/// every declared decomposition verified, as `grundy check
/// --verify-decomposition 3 FILE` does.
pub fn claims(data: &[u8]) -> Verdict {
    let Ok(text) = std::str::from_utf8(data) else {
        return Verdict::Skipped;
    };
    let text = text.to_string();
    on_big_stack(move || {
        let mut session = session();
        match session.load_text("fuzz.game", &text) {
            Err(errors) => verdict(&session, Err::<(), _>(errors)),
            Ok(_) => {
                let mut failures: Vec<_> = session
                    .run_claims(0)
                    .into_iter()
                    .filter_map(|r| r.failure)
                    .collect();
                // And as `grundy check --verify-decomposition 3`, on at
                // most VERIFY_LIMIT positions a game.
                if let Err(e) = grundy::verify::decompositions_within(&mut session, 3, VERIFY_LIMIT)
                {
                    failures.push(e);
                }
                if failures.is_empty() {
                    Verdict::Answered
                } else {
                    verdict(&session, Err::<(), _>(failures))
                }
            }
        }
    })
}

/// Whether a REPL script line reaches the file system: `:load` and
/// `:reload` read files, `:graph`, `:plot` and `:save` write them. The `repl`
/// target leaves those out, so a run never reads a device or writes a
/// file where it pleases.
pub fn touches_files(line: &str) -> bool {
    // `:time ENTRY` runs the entry.
    let word = line
        .split_whitespace()
        .find(|w| *w != ":time")
        .unwrap_or("");
    matches!(
        word,
        ":load" | ":l" | ":reload" | ":r" | ":graph" | ":plot" | ":save"
    )
}

/// `repl`: the first byte picks a file of `FILES` to load first; the rest,
/// as UTF-8, is a script typed at the REPL (commands, positions, `let`,
/// definitions, `play` and its moves), run as `grundy repl FILE < script`.
pub fn repl(data: &[u8]) -> Verdict {
    let Some((&first, rest)) = data.split_first() else {
        return Verdict::Skipped;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return Verdict::Skipped;
    };
    if text.lines().any(touches_files) {
        return Verdict::Skipped;
    }
    let text = text.to_string();
    on_big_stack(move || repl_text(first, &text))
}

/// The `repl` path for a selector byte and a script.
pub fn repl_text(selector: u8, script: &str) -> Verdict {
    let (name, source) = FILES[selector as usize % FILES.len()];
    let opts = grundy::cli::Options {
        max_states: MAX_POSITIONS,
        ascii: false,
    };
    let mut out = grundy::cli::Output::silent();
    if grundy::cli::run_script(&opts, &[(name, source)], script, &mut out) {
        Verdict::Answered
    } else {
        Verdict::Refused(out.kept().to_vec())
    }
}

#[path = "choices.rs"]
pub mod choices;
#[path = "heap_games.rs"]
pub mod heap_games;
#[path = "packed_games.rs"]
pub mod packed_games;

/// `differential`: the bytes decode to a random heap game (`heap_games`),
/// whose values every fast path must give exactly as the general search
/// does; a difference panics, with the game and what differs.
pub fn differential(data: &[u8]) -> Verdict {
    differential_scaled(data, 1.0)
}

/// `differential` with the heaps asked for shrunk by `scale`, for quick
/// runs in a debug build.
pub fn differential_scaled(data: &[u8], scale: f64) -> Verdict {
    compare_all(heap_games::decode(data, scale))
}

/// Runs every fast path on the game and panics at a difference.
pub fn compare_all(game: heap_games::HeapGame) -> Verdict {
    on_big_stack(move || {
        let question = grundy::session::fast_paths::Question {
            text: &game.text,
            game: heap_games::NAME,
            upto: game.upto,
            reference_upto: game.reference_upto,
            checkpoint: game.checkpoint,
        };
        match grundy::session::fast_paths::compare(&question) {
            Ok(_) => Verdict::Answered,
            Err(difference) => panic!(
                "a fast path differs from the general search: {difference}\n{} to {}, checked to {}, checkpoint of {}:\n{}",
                heap_games::NAME,
                game.upto,
                game.reference_upto,
                game.checkpoint,
                game.text
            ),
        }
    })
}
