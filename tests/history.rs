//! The REPL's history file keeps every line: a file edited by hand is
//! loaded as far as it can be read, two sessions open at once both keep
//! their lines, and a session ended by SIGHUP or SIGTERM at its prompt
//! keeps its lines too. Through a pseudo-terminal, since only an
//! interactive session keeps history.

use rexpect::process::{Signal, WaitStatus};
use rexpect::session::{spawn_command, PtySession};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn fresh_home(name: &str) -> PathBuf {
    let home = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = fs::remove_dir_all(&home);
    fs::create_dir_all(home.join("grundy")).expect("a scratch data directory");
    home
}

/// `grundy repl examples/nim.game` with `home` as the data directory, at
/// its first prompt; and what the terminal showed before it.
fn start(home: &Path) -> (PtySession, String) {
    start_with(home, "examples/nim.game")
}

fn start_with(home: &Path, file: &str) -> (PtySession, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(["repl", file])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("XDG_DATA_HOME", home)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = spawn_command(command, Some(20_000)).expect("a pseudo-terminal");
    let (before, _) = p.exp_regex("grundy> ").expect("a prompt");
    (p, before)
}

/// Types `line` and waits for the next prompt; returns what it showed.
fn enter(p: &mut PtySession, line: &str) -> String {
    p.send_line(line).expect("typing");
    p.exp_string("grundy> ").expect("a prompt after the entry")
}

fn quit(mut p: PtySession) {
    p.send_line(":quit").expect("typing");
    p.exp_eof().expect("grundy leaves");
}

fn history(home: &Path) -> String {
    fs::read_to_string(home.join("grundy/history.txt")).unwrap_or_default()
}

#[test]
fn a_history_edited_by_hand_is_loaded_as_far_as_it_can_be_read() {
    let home = fresh_home("history-edited");
    let mut edited = b"#V2\nvalue Nim([1, 2])\n".to_vec();
    // A line that is not UTF-8, and one with an escape grundy never writes.
    edited.extend_from_slice(b"value \xff\nbroken \\q\nvalue Nim([4, 1])\n");
    fs::write(home.join("grundy/history.txt"), &edited).expect("written");
    let (mut p, before) = start(&home);
    assert!(
        before.contains("warning: 2 lines of the history file")
            && before.contains("could not be read and were skipped"),
        "{before}"
    );
    // Ctrl-P (the up arrow) recalls the last readable line, so it was loaded.
    p.send_control('p').expect("previous entry");
    p.exp_string("value Nim([4, 1])")
        .expect("the last line recalled");
    p.send_line("").expect("entered");
    p.exp_string("\r\n5\r\n").expect("Nim([4, 1]) valued");
    p.exp_string("grundy> ").expect("a prompt");
    quit(p);
    // Nothing was moved aside or overwritten: the unreadable lines stay,
    // and the recalled entry was appended.
    let after = fs::read(home.join("grundy/history.txt")).expect("kept");
    assert!(after.starts_with(&edited), "{after:?}");
    assert!(!home.join("grundy/history.txt.refused").exists());
    let (p, before) = start(&home);
    assert!(
        before.contains("2 lines"),
        "one warning, as before: {before}"
    );
    quit(p);
}

#[test]
fn two_sessions_at_once_both_keep_their_lines() {
    let home = fresh_home("history-two-sessions");
    let (mut first, _) = start(&home);
    let (mut second, _) = start(&home);
    enter(&mut first, "value Nim([1, 1])");
    enter(&mut second, "value Nim([2, 2])");
    enter(&mut first, "value Nim([3, 3])");
    quit(second);
    quit(first);
    let kept = history(&home);
    for line in [
        "value Nim([1, 1])",
        "value Nim([2, 2])",
        "value Nim([3, 3])",
    ] {
        assert!(kept.contains(line), "{line} is lost: {kept}");
    }
}

/// Sends `signal` to a session waiting at its prompt after one entry;
/// the history keeps the entry, and grundy exits with 128 + the signal.
fn ended_by(signal: Signal, name: &str) {
    let home = fresh_home(name);
    let (mut p, _) = start(&home);
    enter(&mut p, "value Nim([5, 6])");
    p.process.signal(signal).expect("signalled");
    let status = p.process.wait().expect("grundy ends");
    assert_eq!(
        status,
        WaitStatus::Exited(p.process.child_pid, 128 + signal as i32)
    );
    assert!(
        history(&home).contains("value Nim([5, 6])"),
        "{}",
        history(&home)
    );
}

#[test]
fn a_session_hung_up_keeps_its_history() {
    ended_by(Signal::SIGHUP, "history-sighup");
}

#[test]
fn a_session_terminated_keeps_its_history() {
    ended_by(Signal::SIGTERM, "history-sigterm");
}

#[test]
fn a_session_terminated_in_a_long_command_stops_it_and_keeps_its_history() {
    let home = fresh_home("history-sigterm-busy");
    let (mut p, _) = start_with(&home, "examples/grundys-game.game");
    enter(&mut p, "value Grundy(5)");
    // Grundy's game far out takes minutes.
    p.send_line("table Grundy 1000000").expect("typing");
    std::thread::sleep(std::time::Duration::from_millis(500));
    p.process.signal(Signal::SIGTERM).expect("signalled");
    let status = p.process.wait().expect("grundy ends");
    assert_eq!(status, WaitStatus::Exited(p.process.child_pid, 143));
    let kept = history(&home);
    assert!(
        kept.contains("value Grundy(5)") && kept.contains("table Grundy 1000000"),
        "{kept}"
    );
}
