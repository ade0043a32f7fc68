//! `use "other.game";` and commands given several files, through the real
//! `grundy` binary: paths relative to the importing file, a file imported
//! twice read once, a loop of imports, a name defined in two files, a
//! missing import, and `:reload` picking up a change in an imported file.
//!
//! The fixtures in `tests/imports/`: `heaps.game` (Nim heaps, g(n) = n),
//! imported by `pair.game` and by `subtract/take-123.game` (the
//! subtraction game S(1, 2, 3), g(n) = n mod 4), all three imported by
//! `sums.game`.

mod common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

const TIME_LIMIT: Duration = Duration::from_secs(20);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

/// Runs `grundy ARGS` in `dir` without colour.
fn grundy_in(dir: &Path, args: &[&str]) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    let stdout = child.stdout.take().expect("piped stdout");
    let stderr = child.stderr.take().expect("piped stderr");
    let read = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut s = String::new();
            let _ = r.read_to_string(&mut s);
            s
        })
    };
    let (out, err) = (read(Box::new(stdout)), read(Box::new(stderr)));
    let Some(status) = common::wait_or_kill(&mut child, TIME_LIMIT) else {
        panic!("grundy {args:?} did not finish in time (a hang)");
    };
    Run {
        status: status.code(),
        stdout: out.join().expect("stdout is read"),
        stderr: err.join().expect("stderr is read"),
    }
}

fn grundy(args: &[&str]) -> Run {
    grundy_in(root(), args)
}

/// The answer of a run that must succeed.
fn answer(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(
        (run.status, run.stderr.as_str()),
        (Some(0), ""),
        "grundy {args:?} failed"
    );
    run.stdout.trim_end().to_string()
}

/// The diagnostics of a run that must fail with exit status 1.
fn diagnostics(args: &[&str]) -> String {
    let run = grundy(args);
    assert_eq!(
        run.status,
        Some(1),
        "grundy {args:?}\n{}{}",
        run.stdout,
        run.stderr
    );
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
    run.stderr
}

#[test]
fn imports_are_relative_to_the_importing_file_and_nest() {
    // sums.game imports subtract/take-123.game, which imports
    // ../heaps.game: g(Take(7)) = 3, g(Heap(5)) = 5.
    assert_eq!(
        answer(&["value", "tests/imports/sums.game", "Take(7) + Heap(5)"]),
        "6"
    );
    assert_eq!(
        answer(&["check", "tests/imports/sums.game"]),
        "tests/imports/sums.game: 3 claims hold"
    );
    // From another folder, the paths still start at each file.
    let run = grundy_in(
        &root().join("tests/imports/subtract"),
        &["value", "take-123.game", "Beside(6, 2)"],
    );
    assert_eq!(
        (run.status, run.stdout.trim()),
        (Some(0), "0"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_file_imported_twice_is_read_once() {
    // heaps.game comes in through sums.game and pair.game, and is named
    // again on the command line under another spelling: were it read
    // twice, `Heap` would be defined twice.
    assert_eq!(
        answer(&[
            "value",
            "tests/imports/heaps.game",
            "tests/imports/sums.game",
            "tests/imports/subtract/../heaps.game",
            "Pair(3, 5) + Heap(6)",
        ]),
        "0"
    );
}

#[test]
fn every_command_about_a_position_takes_several_files() {
    let files = [
        "tests/imports/heaps.game",
        "tests/imports/subtract/take-123.game",
    ];
    let with = |rest: &[&str]| {
        let mut args: Vec<&str> = vec![rest[0]];
        args.extend(files);
        args.extend(&rest[1..]);
        answer(&args)
    };
    // g(Heap(3)) = 3 and g(Take(6)) = 2, so the sum has value 1.
    assert_eq!(with(&["value", "Heap(3) + Take(6)"]), "1");
    assert_eq!(with(&["outcome", "Heap(2) + Take(6)"]), "P");
    // The winning moves leave 2 xor 2 or 3 xor 3.
    let moves = with(&["moves", "Heap(3) + Take(6)", "--winning"]);
    assert_eq!(moves.lines().count(), 2, "{moves}");
    assert!(moves.contains("->  Heap(2) + Take(6)"), "{moves}");
    assert!(moves.contains("->  Heap(3) + Take(3)"), "{moves}");
    let table = with(&["table", "Take", "--upto", "7", "--format", "csv"]);
    assert_eq!(table, "n,g\n0,0\n1,1\n2,2\n3,3\n4,0\n5,1\n6,2\n7,3");
    let dot = with(&["graph", "Take(2) + Heap(1)"]);
    assert!(dot.starts_with("digraph"), "{dot}");
    // Files the position does not use are loaded all the same.
    let svg = std::env::temp_dir().join(format!("grundy-imports-{}.svg", std::process::id()));
    let svg_path = svg.to_str().expect("a UTF-8 path");
    with(&["plot", "Take", "--upto", "20", "-o", svg_path]);
    assert!(std::fs::read_to_string(&svg).is_ok_and(|s| s.contains("<svg")));
    let _ = std::fs::remove_file(&svg);
}

#[test]
fn two_files_defining_one_name_are_refused_with_both_places() {
    let said = diagnostics(&["check", "tests/imports/duplicate.game"]);
    assert!(said.contains("`Heap` is defined twice"), "{said}");
    assert!(
        said.contains("[tests/imports/duplicate.game:4:6]"),
        "{said}"
    );
    assert!(said.contains("[tests/imports/heaps.game:2:6]"), "{said}");
    // JSON, which shows no excerpts, names the other place in its help.
    let run = grundy(&["check", "tests/imports/duplicate.game", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(
        doc["files"][0]["errors"][0]["help"],
        "rename one of them\nfirst defined here: tests/imports/heaps.game:2:6"
    );
    // The same across two files on the command line.
    let said = diagnostics(&[
        "value",
        "tests/imports/heaps.game",
        "tests/imports/duplicate.game",
        "Heap(1)",
    ]);
    assert!(said.contains("[tests/imports/heaps.game:2:6]"), "{said}");
}

#[test]
fn a_loop_of_imports_shows_both_uses() {
    let said = diagnostics(&["value", "tests/imports/cycle/first.game", "First(1)"]);
    assert!(said.contains("grundy::import-cycle"), "{said}");
    assert!(
        said.contains("[tests/imports/cycle/second.game:2:5]"),
        "{said}"
    );
    assert!(
        said.contains("[tests/imports/cycle/first.game:2:5]"),
        "{said}"
    );
    let run = grundy(&[
        "value",
        "tests/imports/cycle/first.game",
        "First(1)",
        "--json",
    ]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    assert_eq!(
        doc["errors"][0]["message"],
        "the files import each other in a loop: tests/imports/cycle/first.game -> \
         tests/imports/cycle/second.game -> tests/imports/cycle/first.game"
    );
}

#[test]
fn a_missing_import_points_at_its_use() {
    let said = diagnostics(&["check", "tests/imports/missing.game"]);
    assert!(
        said.contains("cannot import `tests/imports/no-such-file.game`"),
        "{said}"
    );
    assert!(said.contains("[tests/imports/missing.game:2:5]"), "{said}");
    // As JSON, the error is placed in the importing file.
    let run = grundy(&["value", "tests/imports/missing.game", "Heap(1)", "--json"]);
    let doc: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON document");
    let error = &doc["errors"][0];
    assert_eq!(error["code"], "grundy::import-unreadable");
    assert_eq!(error["file"], "tests/imports/missing.game");
    assert_eq!(
        (error["line"].as_u64(), error["column"].as_u64()),
        (Some(2), Some(5))
    );
}

#[test]
fn one_argument_is_the_file_and_the_position_is_missing() {
    let run = grundy(&["value", "tests/imports/heaps.game"]);
    assert_eq!(run.status, Some(2));
    assert!(
        run.stderr.contains("not provided:\n  <POSITION>"),
        "{}",
        run.stderr
    );
}

#[test]
fn files_without_a_position_after_them_are_a_usage_error() {
    // Before, the second file was read as a position: a syntax error at
    // its `.`, exit 1.
    let run = grundy(&[
        "value",
        "tests/imports/heaps.game",
        "tests/imports/pair.game",
    ]);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(
        run.stderr.contains(
            "the last argument, `tests/imports/pair.game`, names a file, but it must be the position"
        ),
        "{}",
        run.stderr
    );
    let run = grundy(&[
        "table",
        "tests/imports/heaps.game",
        "pair.game",
        "--upto",
        "3",
    ]);
    assert_eq!(run.status, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("it must be the game"), "{}", run.stderr);
}

/// An import of the terminal is refused rather than read: reading it
/// would wait for typing, and Ctrl-C would not end the wait.
#[test]
#[cfg(unix)]
fn an_import_of_the_terminal_is_refused() {
    let dir = scratch("terminal");
    std::fs::write(dir.join("tty.game"), "use \"/dev/tty\";\n").expect("write");
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(["check", "tty.game"])
        .current_dir(&dir)
        .env("NO_COLOR", "1");
    let mut p = rexpect::session::spawn_command(command, Some(20_000)).expect("a pseudo-terminal");
    p.exp_string("cannot import `/dev/tty`: it is a terminal, not a file")
        .expect("the terminal is refused");
    p.exp_eof().expect("grundy ends");
}

/// A scratch folder of its own for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("imports-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("lib")).expect("a scratch folder");
    dir
}

#[test]
fn reload_reads_a_changed_import() {
    let dir = scratch("reload");
    let heap = |moves: &str| format!("game H(n: nat) {{ move take(k in {moves}) => H(n - k); }}\n");
    std::fs::write(dir.join("lib/heap.game"), heap("1..=n")).expect("write");
    std::fs::write(dir.join("main.game"), "use \"lib/heap.game\";\n").expect("write");
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["repl", "main.game"])
        .current_dir(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("grundy starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next = |what: &str| {
        rx.recv_timeout(TIME_LIMIT)
            .unwrap_or_else(|_| panic!("no answer to {what}"))
    };
    writeln!(stdin, "value H(5)").expect("grundy reads");
    assert_eq!(next("value"), "5");
    // Only the imported file changes: a heap loses one or two tokens, so
    // g(5) = 5 mod 3 = 2.
    std::fs::write(dir.join("lib/heap.game"), heap("1..=min(2, n)")).expect("rewrite");
    writeln!(stdin, ":reload\nvalue H(5)\n:quit").expect("grundy reads");
    assert_eq!(
        next(":reload"),
        "reloaded lib/heap.game; 0 values of games whose rules did not change are kept"
    );
    assert_eq!(next("value after reload"), "2");
    drop(stdin);
    let status = common::wait_or_kill(&mut child, TIME_LIMIT).expect("grundy ends");
    assert!(status.success());
}
