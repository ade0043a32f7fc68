//! Helpers shared by the integration tests: load .game text into a fresh
//! session and ask it for values.

// Each test binary uses a different subset of these helpers.
#![allow(dead_code)]

pub mod engines;

use grundy::eval::PosId;
use grundy::session::Session;
use std::collections::HashSet;
use std::path::Path;

/// A session with `text` loaded; panics with grundy's errors if it does not
/// parse or check.
pub fn session_with(text: &str) -> Session {
    let mut session = Session::new();
    if let Err(errors) = session.load_text("test.game", text) {
        panic!("the test's game text does not load: {errors:?}\n{text}");
    }
    session
}

/// The benchmark games' folder, `bench/games/`.
pub fn bench_games() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/games"))
}

/// The text of a file the tests read; panics naming the file.
pub fn read_text(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// The words of each line of a list such as `bench/games/rewrites/forms.txt`,
/// blank lines and `#` comments left out.
pub fn listed_words(path: &Path) -> Vec<Vec<String>> {
    read_text(path)
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| line.split_whitespace().map(String::from).collect())
        .collect()
}

/// Panics unless every `.game` file in `folder` is among `listed`.
pub fn assert_every_game_file_listed(folder: &Path, listed: &[String]) {
    let entries = std::fs::read_dir(folder)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", folder.display()));
    for entry in entries {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".game") {
            assert!(
                listed.iter().any(|l| l == &name),
                "{name} is not listed in {}",
                folder.display()
            );
        }
    }
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

/// `grundy ARGS` run from the crate's root: its standard output and
/// standard error, after checking that it succeeded.
pub fn grundy_ok(args: &[&str]) -> (String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("grundy runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "grundy {args:?} failed:\n{stderr}");
    (String::from_utf8_lossy(&out.stdout).into_owned(), stderr)
}

/// Whether golden files are being rewritten (`GRUNDY_BLESS=1`) rather than
/// compared.
pub fn blessing() -> bool {
    std::env::var_os("GRUNDY_BLESS").is_some_and(|v| v == "1")
}

/// Compares `actual` with the golden file at `path`, or writes it there
/// when blessing; a difference is added to `problems`.
pub fn check_golden(path: &std::path::Path, actual: &str, problems: &mut Vec<String>) {
    if blessing() {
        std::fs::write(path, actual).expect("a writable golden file");
        return;
    }
    match std::fs::read_to_string(path) {
        Ok(expected) if expected == actual => {}
        Ok(expected) => problems.push(format!(
            "{} changed\n--- expected\n{expected}\n--- actual\n{actual}",
            path.display()
        )),
        Err(_) => problems.push(format!(
            "{} is missing; run with GRUNDY_BLESS=1 to write it\n--- actual\n{actual}",
            path.display()
        )),
    }
}

/// Waits for a child process, killing it after `limit`: `None` means it
/// hung.
pub fn wait_or_kill(
    child: &mut std::process::Child,
    limit: std::time::Duration,
) -> Option<std::process::ExitStatus> {
    let started = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("the child can be waited for") {
            return Some(status);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return None;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
}

/// Values every position reachable from `starts` in `brute` (up to
/// `limit` from each) in both sessions, which must agree; returns how many
/// positions were compared.
pub fn agree_on_reachable(
    other: &mut Session,
    brute: &mut Session,
    starts: &[&str],
    limit: usize,
) -> usize {
    let mut compared = 0;
    for start in starts {
        for pos in reachable(brute, start, limit) {
            let shown = brute.show_sum(&[pos]);
            assert_eq!(
                value_of(other, &shown),
                value_of(brute, &shown),
                "{shown}, reached from {start}"
            );
            compared += 1;
        }
    }
    compared
}

/// Every position reachable from `start` by the interpreter alone (no
/// compiled code), up to `limit` of them, the start first.
pub fn reachable(session: &mut Session, start: &str, limit: usize) -> Vec<PosId> {
    let parts = session
        .position(start)
        .unwrap_or_else(|e| panic!("cannot build `{start}`: {e:?}"));
    let mut seen: HashSet<PosId> = parts.iter().copied().collect();
    let mut queue: Vec<PosId> = parts.to_vec();
    let mut at = 0;
    let compact = session.interp.compact;
    session.interp.compact = grundy::eval::Compact::Off;
    while at < queue.len() && queue.len() < limit {
        let pos = queue[at];
        at += 1;
        let mut moves = Vec::new();
        if session.interp.moves_of(pos, false, &mut moves).is_err() {
            continue;
        }
        for m in moves {
            for &p in m.result.iter() {
                if seen.insert(p) {
                    queue.push(p);
                }
            }
        }
    }
    session.interp.compact = compact;
    queue
}

/// A game whose rules compute powers: `**` binds tighter than unary minus
/// and to the right; a result past 64 bits (from `Power(2, 5)`) and a
/// negative exponent (from `Power(3, 6)`) are errors. Every faster way of
/// running rules must give what the interpreter gives.
pub const POWER: &str = r#"
game Power(n: nat, e: nat) {
  move down(k in 1..3) if k ** e <= n => Power(n - k ** e, e);
  move raise(k in 0..1) if e < 3 and n > 0 => Power(n - 1, e + 1);
  move drop(k in 0..1) if n > 8 and e < 3 => Power(n - 2 ** 3 ** (e % 2) + -2 ** 2 + 4, e);
  move over(k in 0..1) if e == 5 and n == 2 => Power(n ** 70, 0);
  move negative(k in 0..1) if e == 6 and n == 3 => Power(2 ** (n - 5), 0);
}
"#;
