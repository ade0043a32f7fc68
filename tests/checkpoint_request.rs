//! `grundy table --checkpoint` answers exactly the request whatever the
//! checkpoint holds: a checkpoint of a longer run gives the first values
//! (and is kept whole for the longer run), one of a shorter run is carried
//! on. The output is always that of a run with no checkpoint.

use std::process::{Command, Output};

fn table(upto: &str, extra: &[&str]) -> Output {
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

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-request-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

#[test]
fn a_checkpoint_of_a_longer_run_gives_exactly_the_table_asked_for() {
    let ck = scratch("longer.ck");
    let ck = ck.to_str().expect("a UTF-8 path");
    table("3000", &["--checkpoint", ck]);
    let saved = std::fs::read(ck).expect("a checkpoint");
    for format in [&[][..], &["--json"][..]] {
        let plain = table("10", format);
        let resumed = table("10", &[format, &["--checkpoint", ck][..]].concat());
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
    table("40", &["--checkpoint", ck]);
    let plain = table("500", &["--no-shortcut"]);
    let resumed = table("500", &["--no-shortcut", "--checkpoint", ck]);
    assert_eq!(resumed.stdout, plain.stdout);
}
