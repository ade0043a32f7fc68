//! Golden diagnostics: every `tests/diagnostics/NAME.game` holds one kind of
//! mistake a new user makes, and `tests/diagnostics/NAME.txt` holds exactly
//! what grundy says about it.
//!
//! Each file is loaded into a fresh `Session` under the name
//! `tests/diagnostics/NAME.game`, with the state limit lowered to
//! `MAX_POSITIONS`. If it does not load, its load errors are rendered;
//! otherwise its claims are run and their failures are rendered, after any
//! warnings (such as `^` between two numbers). Every error
//! is rendered without colour at width 80 and the renderings are
//! concatenated. Each case runs in a child process with a time limit, so a
//! hang or a crash in grundy fails that case instead of the whole run.
//!
//! To regenerate the expected files after a deliberate change to a message,
//! run
//!
//!     GRUNDY_BLESS=1 cargo test --test diagnostics
//!
//! which writes every `.txt` file instead of comparing, then read the diff:
//! the `.txt` files are the specification of what users see, never edit them
//! by hand.

mod common;

use grundy::diagnostic::render;
use grundy::session::Session;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/diagnostics")
}

/// Every case, as (name, path of the `.game` file), sorted by name.
fn cases() -> Vec<(String, PathBuf)> {
    let mut cases: Vec<(String, PathBuf)> = fs::read_dir(cases_dir())
        .expect("tests/diagnostics exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "game"))
        .map(|path| {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .expect("a UTF-8 file name")
                .to_string();
            (name, path)
        })
        .collect();
    cases.sort();
    cases
}

/// The state limit for every case (`grundy --max-states`). No case needs
/// more than a few hundred positions; the default limit of ten million lets
/// an infinite game run for half a minute and take gigabytes first.
const MAX_POSITIONS: usize = 100_000;

/// What grundy reports about one file: its load errors, or else the
/// failures of its claims, each rendered without colour at width 80; with
/// how many errors there were.
fn diagnose(name: &str, text: &str) -> (String, usize) {
    let mut session = Session::new();
    session.interp.max_positions = MAX_POSITIONS;
    let errors = session.check_text(&format!("tests/diagnostics/{name}.game"), text);
    // Warnings come first, as the command line shows them before the
    // claims it runs fail.
    let warnings = session.take_warnings();
    let rendered = warnings
        .iter()
        .chain(&errors)
        .map(|e| render(e, &session.sources, false, 80))
        .collect::<String>();
    (rendered, warnings.len() + errors.len())
}

/// How long one case may take. Each takes milliseconds; a case that runs
/// out of time is a hang in grundy, reported as a failure rather than left
/// to stall the test run (or to eat all memory, as a runaway search does).
const TIME_LIMIT: Duration = Duration::from_secs(5);

/// The variables through which the main test asks a child process (this
/// same test binary, running only `diagnose_one_case_in_a_child`) to
/// diagnose one case and write the result to a file.
const CASE_VAR: &str = "GRUNDY_DIAGNOSTICS_CASE";
const OUT_VAR: &str = "GRUNDY_DIAGNOSTICS_OUT";

/// The stack the `grundy` binary runs its commands on (src/main.rs). The
/// parser and the interpreter recurse: in a debug build, helper recursion up
/// to grundy's limit of 2000 calls needs between 32 and 64 MiB, so an
/// ordinary thread's stack would overflow on `recursion-too-deep.game`.
const STACK_SIZE: usize = 256 * 1024 * 1024;

/// Not a test of its own: when the main test starts this binary again with
/// `CASE_VAR` set, this diagnoses that one case and writes the error count
/// and the rendering to the file named by `OUT_VAR`. Run normally, it does
/// nothing.
#[test]
fn diagnose_one_case_in_a_child() {
    let (Some(case), Some(out)) = (std::env::var_os(CASE_VAR), std::env::var_os(OUT_VAR)) else {
        return;
    };
    let path = PathBuf::from(case);
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a UTF-8 file name");
    let text = fs::read_to_string(&path).expect("a readable .game file");
    let name = name.to_string();
    let (rendered, count) = thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(move || diagnose(&name, &text))
        .expect("a thread can be started")
        .join()
        .expect("diagnosing does not panic");
    fs::write(out, format!("{count}\n{rendered}")).expect("a writable result file");
}

/// `diagnose` in a child process that is killed if it runs out of time, so
/// that a hang or a crash in grundy becomes one failed case.
fn diagnose_in_time(name: &str, path: &Path) -> Result<(String, usize), String> {
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("diagnostics-{name}.out"));
    let _ = fs::remove_file(&out);
    let mut child = Command::new(std::env::current_exe().expect("the test binary's path"))
        .args([
            "--exact",
            "diagnose_one_case_in_a_child",
            "--test-threads=1",
            "--quiet",
        ])
        .env(CASE_VAR, path)
        .env(OUT_VAR, &out)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the test binary can start itself");
    let Some(status) = common::wait_or_kill(&mut child, TIME_LIMIT) else {
        return Err(format!(
            "grundy did not finish within {} seconds (a hang?)",
            TIME_LIMIT.as_secs()
        ));
    };
    let result = fs::read_to_string(&out).ok();
    let _ = fs::remove_file(&out);
    match result {
        Some(result) if status.success() => {
            let (count, rendered) = result.split_once('\n').expect("a count line");
            Ok((rendered.to_string(), count.parse().expect("a count")))
        }
        _ => {
            let mut stderr = String::new();
            if let Some(mut pipe) = child.stderr.take() {
                let _ = pipe.read_to_string(&mut stderr);
            }
            Err(format!("grundy failed ({status}); it said:\n{stderr}"))
        }
    }
}

#[test]
fn diagnostics_match_their_golden_files() {
    let cases = cases();
    assert!(
        cases.len() >= 20,
        "expected at least 20 cases in tests/diagnostics, found {}",
        cases.len()
    );
    let mut problems = Vec::new();
    for (name, path) in &cases {
        let (actual, count) = match diagnose_in_time(name, path) {
            Ok(result) => result,
            Err(problem) => {
                problems.push(format!("{name}: {problem}"));
                continue;
            }
        };
        if count == 0 {
            problems.push(format!(
                "{name}: grundy reports nothing, but every case holds a mistake"
            ));
            continue;
        }
        if actual.contains('\u{1b}') {
            problems.push(format!(
                "{name}: escape codes in output rendered without colour:\n{actual}"
            ));
        }
        common::check_golden(&path.with_extension("txt"), &actual, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "{} of {} diagnostic cases failed (GRUNDY_BLESS=1 rewrites the .txt files):\n\n{}",
        problems.len(),
        cases.len(),
        problems.join("\n\n")
    );
}

/// A `.txt` file without its `.game` file is a leftover of a renamed case.
#[test]
fn every_golden_file_has_its_game_file() {
    let orphans: Vec<String> = fs::read_dir(cases_dir())
        .expect("tests/diagnostics exists")
        .map(|entry| entry.expect("a readable directory entry").path())
        .filter(|path| path.extension().is_some_and(|e| e == "txt"))
        .filter(|path| !path.with_extension("game").exists())
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "golden files without a case: {orphans:?}"
    );
}
