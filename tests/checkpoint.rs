//! `grundy table --checkpoint`: a run stopped part way and resumed gives
//! exactly the output of a run never stopped; a damaged checkpoint is
//! refused.

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
