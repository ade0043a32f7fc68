//! `grundy check --verify-decomposition N`: a wrong `parts =` or alias is
//! found with the smallest position it is wrong on, a right one passes,
//! and what cannot be verified is said to be so. Fixtures in `tests/cli/`.

use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

fn check(args: &[&str]) -> Run {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .arg("check")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("COLUMNS", "200")
        .env("NO_COLOR", "1");
    let shown = format!("{command:?}");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(command.output());
    });
    let output = rx
        .recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("{shown} did not finish within 60 s"))
        .unwrap_or_else(|e| panic!("cannot run {shown}: {e}"));
    Run {
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[test]
fn a_wrong_parts_rule_is_reported_at_its_smallest_counterexample() {
    let run = check(&["--verify-decomposition", "6", "tests/cli/wrong-parts.game"]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let e = &run.stderr;
    assert!(e.contains("grundy::decomposition-wrong"), "{e}");
    // One empty cell: no move, so 0; the wrong parts give Stretch(1) = 1.
    assert!(e.contains("wrong at Strip(\".\")"), "{e}");
    assert!(e.contains("its parts give the value 1"), "{e}");
    assert!(e.contains("ignores `parts =` gives 0"), "{e}");
    assert!(
        e.contains("wrong-parts.game:7:11"),
        "the span is the `parts =`: {e}"
    );
    assert!(!run.stdout.contains("agrees"), "{}", run.stdout);
}

#[test]
fn without_the_flag_the_wrong_parts_are_trusted() {
    let run = check(&["tests/cli/wrong-parts.game"]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
}

#[test]
fn a_wrong_alias_is_compared_with_the_whole_board() {
    let run = check(&[
        "--verify-decomposition",
        "4",
        "tests/cli/wrong-regions.game",
    ]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let e = &run.stderr;
    // Two cells one above the other: a domino fits down, not in either row.
    assert!(e.contains("wrong at Rows([\".\", \".\"])"), "{e}");
    assert!(e.contains("its parts give the value 0"), "{e}");
    assert!(
        e.contains("a search of Cram([\".\", \".\"]) gives 1"),
        "{e}"
    );
}

#[test]
fn a_right_parts_rule_passes_on_every_string_up_to_n() {
    let run = check(&["--verify-decomposition", "6", "tests/cli/strip-parts.game"]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    // Every string over the file's letters "." and "#" of length 0..=6.
    assert!(
        run.stdout.contains(
            "`Strip` agrees with a search of its moves that ignores its parts on all 127 positions up to size 6"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn the_shipped_examples_verify_or_say_why_not() {
    let files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/examples"))
        .expect("examples/ is readable")
        .map(|e| {
            format!(
                "examples/{}",
                e.expect("an entry").file_name().to_string_lossy()
            )
        })
        .filter(|p| p.ends_with(".game"))
        .collect();
    let mut args = vec!["--verify-decomposition", "6"];
    args.extend(files.iter().map(String::as_str));
    let run = check(&args);
    assert_eq!(run.status, Some(0), "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("`Board` agrees with a search of `Cram` on the whole position"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("`Nim` cannot be verified"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("`Row` cannot be verified"),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout
            .contains("octal.game: no game declares a decomposition"),
        "{}",
        run.stdout
    );
}

#[test]
fn games_that_cannot_be_verified_are_named_with_the_reason() {
    let run = check(&[
        "--verify-decomposition",
        "3",
        "tests/cli/unverifiable-parts.game",
    ]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("`Pair` cannot be verified: `Pair` has `parts =` but no move rule"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr
            .contains("`Twice` cannot be verified: its positions cannot be listed: `g` is `game`"),
        "{}",
        run.stderr
    );
    assert!(!run.stdout.contains("agrees"), "{}", run.stdout);
}

#[test]
fn too_many_positions_is_refused_at_once() {
    let run = check(&["--verify-decomposition", "40", "tests/cli/strip-parts.game"]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert!(run.stderr.contains("grundy::too-large"), "{}", run.stderr);
    assert!(run.stderr.contains("give a smaller N"), "{}", run.stderr);
}

#[test]
fn help_says_what_size_means() {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    let output = command
        .args(["check", "--help"])
        .output()
        .expect("grundy runs");
    let help = String::from_utf8_lossy(&output.stdout);
    assert!(help.contains("--verify-decomposition <N>"), "{help}");
    assert!(help.contains("a grid of at most N cells"), "{help}");
}

/// Which games count as declaring a decomposition, through the library.
#[test]
fn aliases_that_are_not_a_board_and_its_regions_are_not_compared() {
    let mut session = grundy::Session::new();
    session
        .load_text(
            "aliases.game",
            r#"
game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k); }
// A renaming: no sum, nothing to verify.
game Pile(n: nat) = Heap(n);
// A fixed sum: a definition, not a claim that two games agree.
game Double(n: nat) = Heap(n) + Heap(n);
// A sum of one game with the same parameters: compared with Heap(n).
game Same(n: nat) = [Heap(k) for k in [n]];
"#,
        )
        .expect("the file loads");
    let summary = grundy::verify::decompositions(&mut session, 5).expect("no difference");
    let verified: Vec<&str> = summary.verified.iter().map(|v| v.0.as_str()).collect();
    let unverifiable: Vec<&str> = summary.unverifiable.iter().map(|v| v.0.as_str()).collect();
    assert_eq!(verified, ["Same"]);
    assert_eq!(summary.verified[0].2, 6, "n = 0..=5");
    assert_eq!(unverifiable, ["Double"]);
}

#[test]
fn a_wrong_symmetry_is_reported_at_its_smallest_counterexample() {
    let run = check(&["--verify-symmetry", "6", "tests/cli/wrong-symmetry.game"]);
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    let e = &run.stderr;
    assert!(e.contains("grundy::symmetry-wrong"), "{e}");
    // Take(0, 3) gives at most 2 at a time: 0. Take(3, 0) is a heap of 3.
    assert!(e.contains("wrong at Take(0, 3): it has the value 0"), "{e}");
    assert!(e.contains("its image Take(3, 0) has the value 3"), "{e}");
    assert!(
        e.contains("wrong-symmetry.game:4:3"),
        "the span is the `symmetry =`: {e}"
    );
    assert!(
        run.stdout.contains("a symmetry failed to verify"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_shipped_symmetries_agree_with_their_images() {
    for (file, size) in [
        ("examples/cram.game", "9"),
        ("examples/treblecross.game", "10"),
    ] {
        let run = check(&["--verify-symmetry", size, file]);
        assert_eq!(run.status, Some(0), "{file}: {}", run.stderr);
        assert!(
            run.stdout.contains("agrees with each of its images on all"),
            "{file}: {}",
            run.stdout
        );
    }
    let run = check(&["--verify-symmetry", "3", "examples/nim.game"]);
    assert_eq!(run.status, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains("no game declares a symmetry"),
        "{}",
        run.stdout
    );
}
