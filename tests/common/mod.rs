//! Helpers shared by the integration tests: load .game text into a fresh
//! session and ask it for values.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

use grundy::session::Session;

/// A session with `text` loaded; panics with grundy's errors if it does not
/// parse or check.
pub fn session_with(text: &str) -> Session {
    let mut session = Session::new();
    if let Err(errors) = session.load_text("test.game", text) {
        panic!("the test's game text does not load: {errors:?}\n{text}");
    }
    session
}

/// The Grundy value of a position typed as text, such as `Kayles(10) + Kayles(3)`.
pub fn value_of(session: &mut Session, position: &str) -> u32 {
    let parts = session
        .position(position)
        .unwrap_or_else(|e| panic!("cannot build position `{position}`: {e:?}"));
    session
        .value(&parts)
        .unwrap_or_else(|e| panic!("cannot value `{position}`: {e:?}"))
}

/// g(0), ..., g(upto) of the heap game `name`, through `Session::table`.
pub fn table_of(session: &mut Session, name: &str, upto: u64) -> Vec<u32> {
    let game = session
        .heap_game(name)
        .unwrap_or_else(|e| panic!("`{name}` is not a heap game: {e:?}"));
    let values = session
        .table(game, upto, |_, _| {})
        .unwrap_or_else(|e| panic!("cannot tabulate `{name}`: {e:?}"));
    assert_eq!(
        values.len() as u64,
        upto + 1,
        "table of `{name}` has the wrong length"
    );
    values
}

/// The least natural number not in `values`.
pub fn mex(values: impl IntoIterator<Item = u32>) -> u32 {
    let mut seen: Vec<bool> = Vec::new();
    for v in values {
        let v = v as usize;
        if v >= seen.len() {
            seen.resize(v + 1, false);
        }
        seen[v] = true;
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len()) as u32
}
