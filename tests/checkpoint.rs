//! `grundy table --checkpoint`: a run stopped part way and resumed gives
//! exactly the output of a run never stopped; a damaged checkpoint is
//! refused; and whatever the checkpoint holds, the output is exactly the
//! request's (a checkpoint of a longer run gives its first values and is
//! kept whole; one of a shorter run is carried on).

use std::process::{Command, Output};

/// Long enough that the time limits below stop the run part way: a
/// release build of grundy is many times quicker than a debug one.
const UPTO: &str = if cfg!(debug_assertions) {
    "30000"
} else {
    "300000"
};

fn table(extra: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["table", "tests/cli/checkpoint.game", "G", "--upto", UPTO])
        .args(["--no-shortcut"])
        .args(extra)
        .output()
        .expect("grundy runs")
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_stopped_run_resumes_to_the_same_output() {
    let whole = table(&[]);
    assert!(whole.status.success());
    let ck = scratch("resume.ck");
    let ck = ck.to_str().expect("a UTF-8 path");
    // Stopped by its time limit: it saves what it found and says so.
    let stopped = table(&["--checkpoint", ck, "--timeout", "0.5"]);
    assert_eq!(stopped.status.code(), Some(1));
    let said = String::from_utf8_lossy(&stopped.stderr);
    assert!(said.contains("run the same command to carry on"), "{said}");
    let saved = std::fs::metadata(ck).expect("a checkpoint").len();
    assert!(saved > 100, "the checkpoint holds values");
    let resumed = table(&["--checkpoint", ck]);
    assert!(resumed.status.success());
    assert_eq!(resumed.stdout, whole.stdout);
}

#[test]
fn a_damaged_checkpoint_is_refused() {
    let ck = scratch("damaged.ck");
    let ck_str = ck.to_str().expect("a UTF-8 path");
    let stopped = table(&["--checkpoint", ck_str, "--timeout", "0.3"]);
    assert_eq!(stopped.status.code(), Some(1));
    let mut bytes = std::fs::read(&ck).expect("a checkpoint");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&ck, &bytes).expect("written");
    let refused = table(&["--checkpoint", ck_str]);
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("bad-checkpoint"), "{said}");
    // Cut short: refused too.
    std::fs::write(&ck, &bytes[..middle]).expect("written");
    let refused = table(&["--checkpoint", ck_str]);
    assert_eq!(refused.status.code(), Some(1));
}

/// Starts a run that saves to `ck`, and waits until it holds it.
fn started(ck: &std::path::Path, upto: &str, extra: &[&str]) -> std::process::Child {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["table", "tests/cli/checkpoint.game", "G", "--upto", upto])
        .args(["--no-shortcut", "--checkpoint"])
        .arg(ck)
        .args(extra)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("grundy runs");
    let mut lock = ck.as_os_str().to_owned();
    lock.push(".lock");
    let lock = std::path::PathBuf::from(lock);
    let start = std::time::Instant::now();
    while !lock.exists() {
        assert!(
            start.elapsed().as_secs() < 20,
            "the run never took its checkpoint"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child
}

#[test]
fn a_second_run_on_the_same_checkpoint_is_refused_at_its_start() {
    let ck = scratch("shared.ck");
    let first = started(&ck, "3000000", &["--timeout", "3"]);
    let second = table(&["--checkpoint", ck.to_str().expect("a UTF-8 path")]);
    assert_eq!(second.status.code(), Some(1));
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(said.contains("another grundy run is"), "{said}");
    assert!(second.stdout.is_empty(), "nothing was computed");
    // The first run is not disturbed: stopped by its limit, it saves.
    let first = first.wait_with_output().expect("the first run ends");
    let said = String::from_utf8_lossy(&first.stderr);
    assert!(said.contains("run the same command to carry on"), "{said}");
    assert!(std::fs::metadata(&ck).expect("a checkpoint").len() > 100);
}

#[test]
fn a_checkpoint_that_could_not_be_saved_is_refused_before_computing() {
    let dir = scratch("not-a-folder");
    std::fs::write(&dir, "a file, not a folder").expect("written");
    for ck in [dir.join("missing/t.ck"), dir.join("t.ck")] {
        let started = std::time::Instant::now();
        let run = table(&["--checkpoint", ck.to_str().expect("a UTF-8 path")]);
        assert_eq!(run.status.code(), Some(1));
        let said = String::from_utf8_lossy(&run.stderr);
        assert!(
            said.contains("cannot use the checkpoint") && said.contains("Not a directory"),
            "{said}"
        );
        assert!(run.stdout.is_empty());
        // Refused at once, not after the table (tens of seconds in a debug build).
        assert!(started.elapsed().as_secs() < 10);
    }
}

#[cfg(unix)]
#[test]
fn sigterm_stops_a_run_which_saves_and_exits_143() {
    let whole = table(&[]);
    let ck = scratch("terminated.ck");
    let child = started(&ck, UPTO, &["--checkpoint-every", "1000"]);
    std::thread::sleep(std::time::Duration::from_millis(300));
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGTERM,
    )
    .expect("signalled");
    let stopped = child.wait_with_output().expect("the run ends");
    let said = String::from_utf8_lossy(&stopped.stderr);
    assert_eq!(stopped.status.code(), Some(143), "{said}");
    assert!(said.contains("run the same command to carry on"), "{said}");
    assert!(std::fs::metadata(&ck).expect("a checkpoint").len() > 100);
    let resumed = table(&["--checkpoint", ck.to_str().expect("a UTF-8 path")]);
    assert_eq!(resumed.stdout, whole.stdout);
}

/// `grundy table` on a pseudo-terminal, where it shows a progress bar.
fn on_a_terminal(ck: &str, seconds: &str) -> rexpect::session::PtySession {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args([
            "--timeout",
            seconds,
            "table",
            "tests/cli/checkpoint.game",
            "G",
        ])
        .args(["--upto", "3000000", "--no-shortcut", "--checkpoint", ck])
        .env("COLUMNS", "200")
        .env("TERM", "xterm");
    rexpect::session::spawn_command(command, Some(30_000)).expect("a pseudo-terminal")
}

#[test]
fn the_progress_bar_shows_at_once_whole_rates_and_after_a_resume_counts_only_new_values() {
    let ck = scratch("bar.ck");
    let ck = ck.to_str().expect("a UTF-8 path");
    let mut p = on_a_terminal(ck, "1");
    // Drawn in the first second, with a rate in whole values a second.
    p.exp_regex(r"00:00:00 \[[=> ]*\] [\d,]+/3,000,001 heaps, [\d,]+/s, ")
        .expect("a bar at once, with a whole rate");
    let (_, stopped) = p
        .exp_regex(r"stopped after g\(0\.\.=\d+\)")
        .expect("stopped by the time limit");
    p.exp_eof().expect("grundy ends");
    let last: u64 = stopped
        .trim_start_matches("stopped after g(0..=")
        .trim_end_matches(')')
        .parse()
        .expect("a number");
    // Resumed: the bar starts where the checkpoint ends, and none of the
    // values read from it counts in the rate.
    let mut p = on_a_terminal(ck, "1");
    let (_, bar) = p
        .exp_regex(r"[\d,]+/3,000,001 heaps, [\d,]+/s")
        .expect("a bar");
    assert_eq!(
        bar.replace(',', ""),
        format!("{}/3000001 heaps 0/s", last + 1)
    );
    p.exp_eof().expect("grundy ends");
}

/// A checkpoint of a table with fixed arguments is made for those
/// arguments: another set is refused, the same set resumes; a grid keeps
/// none.
#[test]
fn a_checkpoint_is_made_for_the_fixed_arguments_too() {
    let ck = scratch("fixed.ck");
    let ck = ck.to_str().expect("a UTF-8 path");
    let subtract = |position: &str| {
        Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["table", "examples/subtraction.game", position])
            .args(["--upto", "40", "--checkpoint", ck])
            .output()
            .expect("grundy runs")
    };
    let first = subtract("Subtract({1, 4, 5}, _)");
    assert!(first.status.success());
    let again = subtract("Subtract({1, 4, 5}, _)");
    assert!(again.status.success());
    assert_eq!(again.stdout, first.stdout);
    let other = subtract("Subtract({1, 4, 6}, _)");
    assert_eq!(other.status.code(), Some(1));
    let said = String::from_utf8_lossy(&other.stderr);
    // The checkpoint shows what it was made for: the set it holds.
    assert!(said.contains("bad-checkpoint"), "{said}");
    assert!(said.contains("Subtract({1, 4, 5}, _)"), "{said}");
    let candy = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["table", "examples/candy-split.game", "Candy(_, _)"])
        .args(["--upto", "3x3", "--checkpoint", ck])
        .output()
        .expect("grundy runs");
    assert_eq!(candy.status.code(), Some(1));
    let said = String::from_utf8_lossy(&candy.stderr);
    assert!(said.contains("a grid is computed whole"), "{said}");
}

// ---- A checkpoint of another length than the request ----

/// `table` of Grundy's game to `upto`, which must succeed.
fn table_upto(upto: &str, extra: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args([
            "table",
            "examples/grundys-game.game",
            "Grundy",
            "--upto",
            upto,
        ])
        .args(extra)
        .output()
        .expect("grundy runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn a_checkpoint_of_a_longer_run_gives_exactly_the_table_asked_for() {
    let ck = scratch("longer.ck");
    let ck = ck.to_str().expect("a UTF-8 path");
    table_upto("3000", &["--checkpoint", ck]);
    let saved = std::fs::read(ck).expect("a checkpoint");
    for format in [&[][..], &["--json"][..]] {
        let plain = table_upto("10", format);
        let resumed = table_upto("10", &[format, &["--checkpoint", ck][..]].concat());
        // It used to print all 3001 values under "n = 0..=10" (and in JSON
        // beside "upto": 10), with a period "seen up to n = 10".
        assert_eq!(
            String::from_utf8_lossy(&resumed.stdout),
            String::from_utf8_lossy(&plain.stdout)
        );
    }
    // The longer run's values are all still there.
    assert_eq!(std::fs::read(ck).expect("a checkpoint"), saved);
}

#[test]
fn a_checkpoint_of_a_shorter_run_is_carried_on() {
    let ck = scratch("shorter.ck");
    let ck = ck.to_str().expect("a UTF-8 path");
    table_upto("40", &["--checkpoint", ck]);
    let plain = table_upto("500", &["--no-shortcut"]);
    let resumed = table_upto("500", &["--no-shortcut", "--checkpoint", ck]);
    assert_eq!(resumed.stdout, plain.stdout);
}
