//! The REPL's history file is loaded only when its checksum matches: a
//! truncated history is refused with a warning, kept aside, and the
//! session starts all the same. Through a pseudo-terminal, since only an
//! interactive session keeps history.

use rexpect::session::spawn_command;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fresh_home(name: &str) -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&home);
    fs::create_dir_all(&home).expect("a scratch data directory");
    home
}

/// Starts `grundy repl examples/nim.game` with `home` as the data directory,
/// types `line`, then `:quit`; returns everything the terminal showed.
fn session(home: &Path, line: &str) -> String {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(["repl", "examples/nim.game"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_DATA_HOME", home)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(command, Some(20_000)).expect("a pseudo-terminal");
    let (before, _) = p.exp_regex("grundy> ").expect("a prompt");
    p.send_line(line).expect("typing");
    let answer = p.exp_string("grundy> ").expect("a prompt after the entry");
    p.send_line(":quit").expect("typing");
    let rest = p.exp_eof().expect("grundy leaves");
    format!("{before}{answer}{rest}")
}

#[test]
fn a_history_grundy_wrote_is_loaded_and_a_truncated_one_is_refused() {
    let home = fresh_home("history-truncated");
    let history = home.join("grundy/history.txt");
    let sum = home.join("grundy/history.txt.sum");

    let shown = session(&home, "value Nim([3, 5, 7])");
    assert!(!shown.contains("warning"), "{shown}");
    let written = fs::read_to_string(&history).expect("history is kept");
    assert!(written.contains("value Nim([3, 5, 7])"), "{written}");
    assert!(sum.exists(), "a checksum is written beside the history");

    // A second session trusts it: no warning, and the history grows.
    let shown = session(&home, "value Nim([1, 2])");
    assert!(!shown.contains("warning"), "{shown}");
    let written = fs::read_to_string(&history).expect("history is kept");
    assert!(written.contains("value Nim([3, 5, 7])") && written.contains("value Nim([1, 2])"));

    // Cut the file short, as a crash in the middle of a write would.
    let cut = &written[..written.len() - 5];
    fs::write(&history, cut).expect("truncated");
    let shown = session(&home, "value Nim([4, 4])");
    assert!(
        shown.contains("warning: the history file")
            && shown.contains("bytes long, but was")
            && shown.contains("it was not loaded"),
        "{shown}"
    );
    // The session still answers.
    assert!(
        shown.contains("\r\n0\r\n"),
        "the value of Nim([4, 4]): {shown}"
    );
    // The refused file is kept as it was, and the new history holds only
    // this session's entry, sealed again.
    let aside = fs::read_to_string(home.join("grundy/history.txt.refused")).expect("kept aside");
    assert_eq!(aside, cut);
    let written = fs::read_to_string(&history).expect("history is kept");
    assert!(written.contains("value Nim([4, 4])"), "{written}");
    assert!(!written.contains("value Nim([3, 5, 7])"), "{written}");
    let shown = session(&home, ":help");
    assert!(
        !shown.contains("warning"),
        "the new history is trusted: {shown}"
    );
}

#[test]
fn an_altered_history_is_refused() {
    let home = fresh_home("history-altered");
    let history = home.join("grundy/history.txt");
    session(&home, "value Nim([3, 5, 7])");
    let written = fs::read_to_string(&history).expect("history is kept");
    fs::write(&history, written.replace("3, 5, 7", "3, 5, 8")).expect("altered");
    let shown = session(&home, "value Nim([1])");
    assert!(shown.contains("it was changed"), "{shown}");
    assert!(shown.contains("\r\n1\r\n"), "the session answers: {shown}");
}
