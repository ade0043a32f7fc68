//! The command-line contract, through the real `grundy` binary: what each
//! command prints, the exit statuses (0 success, 1 a problem with the game
//! file, the position or a claim, 2 bad usage), JSON output, colour, and
//! hostile inputs that must neither panic nor hang.
//!
//! Every run has a time limit and is killed when it runs out, so a hang is
//! a failed test, not a stalled one. Fixtures live in `tests/cli/`; inputs
//! too large or too random to keep as files are written at run time.

mod common;

use serde_json::Value as Json;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

/// Longer than any run here should take, even in a debug build on a busy
/// machine (the slowest, checking an example file, takes about a second).
const TIME_LIMIT: Duration = Duration::from_secs(20);

/// What one run of `grundy` did.
#[derive(Debug)]
struct Run {
    /// The exit status; `None` if a signal ended the process.
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Both streams, for messages and for searching.
    fn output(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }

    fn assert_status(&self, expected: i32, what: &str) {
        assert_eq!(
            self.status,
            Some(expected),
            "{what}: expected exit status {expected}\n--- stdout\n{}\n--- stderr\n{}",
            self.stdout,
            self.stderr
        );
    }

    /// Status 0, nothing on stderr.
    fn assert_success(&self, what: &str) {
        self.assert_status(0, what);
        assert!(
            self.stderr.is_empty(),
            "{what}: a successful run printed on stderr:\n{}",
            self.stderr
        );
    }

    /// Status 1 with a diagnostic on stderr, no answer on stdout, and no
    /// panic.
    fn assert_user_error(&self, what: &str) {
        self.assert_status(1, what);
        self.assert_no_panic(what);
        assert!(
            !self.stderr.trim().is_empty(),
            "{what}: failed without saying why on stderr"
        );
        assert!(
            self.stdout.is_empty(),
            "{what}: printed an answer although it failed:\n{}",
            self.stdout
        );
    }

    fn assert_no_panic(&self, what: &str) {
        assert!(
            !self.output().contains("panicked"),
            "{what}: grundy panicked:\n{}",
            self.output()
        );
    }

    fn stdout_lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }

    /// stdout as exactly one JSON document.
    fn json(&self, what: &str) -> Json {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "{what}: stdout is not one JSON document ({e}):\n{}",
                self.stdout
            )
        })
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn fixture(name: &str) -> String {
    format!("tests/cli/{name}")
}

/// `grundy ARGS` run from the crate's root, with a fixed terminal width
/// and NO_COLOR unset, so that the output does not depend on who runs it.
fn grundy(args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(args)
        .current_dir(root())
        .env("COLUMNS", "100")
        .env_remove("NO_COLOR");
    command
}

/// Runs a command to the end, or kills it once it is past `TIME_LIMIT`.
fn finish(mut command: Command, stdin: &str) -> Run {
    let description = format!("{command:?}");
    let shown = description.chars().take(200).collect::<String>();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {shown}: {e}"));
    // Feed stdin and drain both pipes on threads of their own, so that a
    // long diagnostic cannot fill a pipe and stall the child.
    let mut input = child.stdin.take().expect("piped stdin");
    let stdin = stdin.to_string();
    let feeder = thread::spawn(move || {
        use std::io::Write;
        let _ = input.write_all(stdin.as_bytes());
    });
    let drain = |mut pipe: Box<dyn Read + Send>| {
        thread::spawn(move || {
            let mut bytes = Vec::new();
            let _ = pipe.read_to_end(&mut bytes);
            String::from_utf8_lossy(&bytes).into_owned()
        })
    };
    let stdout = drain(Box::new(child.stdout.take().expect("piped stdout")));
    let stderr = drain(Box::new(child.stderr.take().expect("piped stderr")));
    let Some(status) = common::wait_or_kill(&mut child, TIME_LIMIT) else {
        panic!(
            "{shown} did not finish within {} seconds (a hang)",
            TIME_LIMIT.as_secs()
        );
    };
    let _ = feeder.join();
    Run {
        status: status.code(),
        stdout: stdout.join().expect("stdout is read"),
        stderr: stderr.join().expect("stderr is read"),
    }
}

fn run(args: &[&str]) -> Run {
    finish(grundy(args), "")
}

/// A file written for one test under Cargo's scratch directory for
/// integration tests.
fn scratch_file(name: &str, contents: &[u8]) -> String {
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    std::fs::write(&path, contents).expect("the scratch file can be written");
    path.to_str().expect("a UTF-8 path").to_string()
}

/// Deterministic pseudo-random bytes (a xorshift generator), so that a
/// failure can be reproduced.
fn random_bytes(seed: u64, len: usize) -> Vec<u8> {
    let mut state = seed.max(1);
    (0..len)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 24) as u8
        })
        .collect()
}

const NIM: &str = "examples/nim.game";
const SUBTRACTION: &str = "examples/subtraction.game";

// ---- Answers ----

#[test]
fn value_of_3_5_7_nim_is_1() {
    let r = run(&["value", NIM, "Nim([3,5,7])"]);
    r.assert_success("value of Nim([3,5,7])");
    assert_eq!(r.stdout, "1\n");
}

#[test]
fn value_of_a_sum_typed_on_the_command_line() {
    // 3 ^ 5 ^ 6 = 0, and a sum may be written with `+`.
    let r = run(&["value", NIM, "Heap(3) + Heap(5) + Heap(6)"]);
    r.assert_success("value of a sum");
    assert_eq!(r.stdout, "0\n");
}

#[test]
fn outcome_is_p_or_n() {
    for (position, expected) in [
        ("Nim([3,5,7])", "N"),
        ("Nim([1,2,3])", "P"),
        ("Nim([1,1])", "P"),
        ("Nim([])", "P"),
    ] {
        let r = run(&["outcome", NIM, position]);
        r.assert_success(&format!("outcome of {position}"));
        assert_eq!(r.stdout, format!("{expected}\n"), "outcome of {position}");
    }
}

#[test]
fn misere_outcome_differs_where_it_should() {
    // Misère Nim: with every heap at most 1, the player to move wins
    // exactly when the number of heaps of 1 is even; otherwise as in Nim.
    for (position, normal, misere) in [
        ("Nim([1,1])", "P", "N"),
        ("Nim([1])", "N", "P"),
        ("Nim([])", "P", "N"),
        ("Nim([2,2])", "P", "P"),
        ("Nim([3,5,7])", "N", "N"),
        ("Nim([1,2,3])", "P", "P"),
    ] {
        let r = run(&["outcome", NIM, position]);
        r.assert_success(&format!("outcome of {position}"));
        assert_eq!(r.stdout.trim(), normal, "normal outcome of {position}");
        let r = run(&["outcome", "--misere", NIM, position]);
        r.assert_success(&format!("misère outcome of {position}"));
        assert_eq!(r.stdout.trim(), misere, "misère outcome of {position}");
    }
}

#[test]
fn winning_moves_of_3_5_7_nim_are_exactly_three() {
    let r = run(&["moves", "--winning", NIM, "Nim([3,5,7])"]);
    r.assert_success("moves --winning");
    let lines = r.stdout_lines();
    assert_eq!(lines.len(), 3, "three winning moves:\n{}", r.stdout);
    // Take 1 from the 3, from the 5 or from the 7: one line each.
    for result in [
        "Heap(2) + Heap(5) + Heap(7)",
        "Heap(3) + Heap(4) + Heap(7)",
        "Heap(3) + Heap(5) + Heap(6)",
    ] {
        assert_eq!(
            lines.iter().filter(|l| l.contains(result)).count(),
            1,
            "one winning move leads to {result}:\n{}",
            r.stdout
        );
    }
    assert!(
        lines.iter().all(|l| l.contains("winning")),
        "every line is marked winning:\n{}",
        r.stdout
    );
}

#[test]
fn all_moves_are_listed_and_only_the_winning_ones_marked() {
    let r = run(&["moves", NIM, "Nim([3,5,7])"]);
    r.assert_success("moves");
    let lines = r.stdout_lines();
    assert_eq!(lines.len(), 3 + 5 + 7, "one line per move:\n{}", r.stdout);
    assert_eq!(
        lines.iter().filter(|l| l.contains("winning")).count(),
        3,
        "three moves are marked winning:\n{}",
        r.stdout
    );
}

#[test]
fn a_p_position_has_no_winning_move() {
    let r = run(&["moves", "--winning", NIM, "Nim([1,2,3])"]);
    r.assert_success("moves --winning from a P-position");
    assert_eq!(
        r.stdout_lines().len(),
        1,
        "one line saying so:\n{}",
        r.stdout
    );
    assert!(r.stdout.contains("none"), "{}", r.stdout);
}

#[test]
fn table_prints_the_values_and_finds_period_7() {
    let r = run(&["table", SUBTRACTION, "T", "--upto", "20"]);
    r.assert_success("table T --upto 20");
    // Rows look like ` 0:   0  0  1 ...`: an index, a colon, values.
    let values: Vec<u32> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(index, _)| index.trim().parse::<u32>().is_ok())
        .flat_map(|(_, cells)| cells.split_whitespace().map(|c| c.parse::<u32>().unwrap()))
        .collect();
    let expected: Vec<u32> = (0..=20).map(|n| [0, 0, 1, 1, 2, 2, 3][n % 7]).collect();
    assert_eq!(values, expected, "g(0..=20) of T:\n{}", r.stdout);
    assert!(
        r.stdout.lines().any(|l| l.contains("period 7")),
        "the period is reported:\n{}",
        r.stdout
    );
}

// ---- JSON ----

#[test]
fn json_value() {
    let r = run(&["value", "--json", NIM, "Nim([3,5,7])"]);
    r.assert_success("value --json");
    let doc = r.json("value --json");
    assert_eq!(doc["value"], 1, "{doc}");
    assert_eq!(
        doc["position"]["text"], "Heap(3) + Heap(5) + Heap(7)",
        "{doc}"
    );
}

#[test]
fn json_outcome() {
    let r = run(&["outcome", "--json", NIM, "Nim([1,1])"]);
    r.assert_success("outcome --json");
    let doc = r.json("outcome --json");
    assert_eq!(doc["outcome"], "P", "{doc}");
    assert_eq!(doc["misere"], false, "{doc}");

    let r = run(&["outcome", "--json", "--misere", NIM, "Nim([1,1])"]);
    r.assert_success("outcome --json --misere");
    let doc = r.json("outcome --json --misere");
    assert_eq!(doc["outcome"], "N", "{doc}");
    assert_eq!(doc["misere"], true, "{doc}");
}

#[test]
fn json_moves() {
    let r = run(&["moves", "--json", NIM, "Nim([3,5,7])"]);
    r.assert_success("moves --json");
    let doc = r.json("moves --json");
    assert_eq!(doc["value"], 1, "{doc}");
    let moves = doc["moves"].as_array().expect("a list of moves");
    assert_eq!(moves.len(), 15, "{doc}");
    for m in moves {
        let value = m["value"].as_u64().expect("a value");
        // Each move leaves one heap smaller: its value is the new nim-sum.
        assert_eq!(m["winning"], value == 0, "{m}");
        assert!(
            m["result"]["text"].is_string() && m["move"]["rule"] == "take",
            "{m}"
        );
    }
    assert_eq!(moves.iter().filter(|m| m["winning"] == true).count(), 3);

    let r = run(&["moves", "--json", "--winning", NIM, "Nim([3,5,7])"]);
    r.assert_success("moves --json --winning");
    let doc = r.json("moves --json --winning");
    let mut results: Vec<&str> = doc["moves"]
        .as_array()
        .expect("a list of moves")
        .iter()
        .map(|m| m["result"]["text"].as_str().expect("a result"))
        .collect();
    results.sort();
    assert_eq!(
        results,
        [
            "Heap(2) + Heap(5) + Heap(7)",
            "Heap(3) + Heap(4) + Heap(7)",
            "Heap(3) + Heap(5) + Heap(6)",
        ]
    );
}

#[test]
fn json_table() {
    let r = run(&["table", "--json", SUBTRACTION, "T", "--upto", "20"]);
    r.assert_success("table --json");
    let doc = r.json("table --json");
    let values: Vec<u64> = doc["values"]
        .as_array()
        .expect("a list of values")
        .iter()
        .map(|v| v.as_u64().expect("a number"))
        .collect();
    let expected: Vec<u64> = (0..=20).map(|n| [0, 0, 1, 1, 2, 2, 3][n % 7]).collect();
    assert_eq!(values, expected, "{doc}");
    assert_eq!(doc["period"]["period"], 7, "{doc}");
    assert_eq!(doc["upto"], 20, "{doc}");
}

#[test]
fn json_commands_that_fail_print_an_errors_document() {
    for args in [
        ["value", "--json", NIM, "Nim([3,5"],
        ["outcome", "--json", NIM, "Nmi([1])"],
        ["moves", "--json", NIM, "3"],
    ] {
        let r = run(&args);
        r.assert_status(1, &args.join(" "));
        r.assert_no_panic(&args.join(" "));
        let doc = r.json(&args.join(" "));
        assert!(doc["errors"][0]["message"].is_string(), "{doc}");
        assert!(r.stderr.is_empty(), "{}", r.stderr);
    }
}

// ---- check ----

#[test]
fn every_example_file_checks() {
    let mut examples: Vec<String> = std::fs::read_dir(root().join("examples"))
        .expect("examples/ exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "game"))
        .map(|p| format!("examples/{}", p.file_name().unwrap().to_str().unwrap()))
        .collect();
    examples.sort();
    assert!(!examples.is_empty());
    // Two at a time: the slowest take about a second each in a debug build.
    for pair in examples.chunks(2) {
        let runs: Vec<(String, Run)> = thread::scope(|s| {
            let handles: Vec<_> = pair
                .iter()
                .map(|file| s.spawn(move || (file.clone(), run(&["check", file]))))
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        for (file, r) in runs {
            r.assert_success(&format!("grundy check {file}"));
            assert!(r.stdout.contains(&file), "{file}: {}", r.stdout);
        }
    }
}

#[test]
fn check_takes_several_files_and_fails_if_any_fails() {
    let r = run(&["check", NIM, &fixture("failing-claim.game"), SUBTRACTION]);
    r.assert_status(1, "check with one failing file among three");
    r.assert_no_panic("check with one failing file among three");
    // The good files are still checked and reported.
    assert!(
        r.stdout.contains(NIM) && r.stdout.contains(SUBTRACTION),
        "{}",
        r.output()
    );
}

// ---- Exit status 1: problems with the file, the position or a claim ----

#[test]
fn a_bad_game_file_exits_1_with_the_diagnostic() {
    let file = fixture("bad-syntax.game");
    for args in [
        vec!["check", &file],
        vec!["value", &file, "Heap(3)"],
        vec!["table", &file, "Heap", "--upto", "5"],
    ] {
        let what = args.join(" ");
        let r = run(&args);
        r.assert_status(1, &what);
        r.assert_no_panic(&what);
        assert!(
            r.stderr.contains("grundy::syntax") && r.stderr.contains("bad-syntax.game:3"),
            "{what}: the syntax error, with where it is, on stderr:\n{}",
            r.stderr
        );
    }
}

#[test]
fn a_position_with_a_syntax_error_exits_1() {
    for position in [
        "Nim([3,5",
        "Nim([3,5,7]",
        "Nim([3,,5])",
        "Nim([3 5])",
        "",
        "+",
    ] {
        let r = run(&["value", NIM, position]);
        r.assert_user_error(&format!("value of `{position}`"));
        assert!(
            r.stderr.contains("grundy::syntax"),
            "`{position}`: {}",
            r.stderr
        );
    }
}

#[test]
fn an_unknown_game_in_a_position_exits_1_with_a_suggestion() {
    let r = run(&["value", NIM, "Nmi([3,5,7])"]);
    r.assert_user_error("unknown game Nmi");
    assert!(r.stderr.contains("Nmi"), "{}", r.stderr);
    assert!(r.stderr.contains("did you mean `Nim`?"), "{}", r.stderr);

    let r = run(&["table", SUBTRACTION, "Tt", "--upto", "5"]);
    r.assert_user_error("table of an unknown game");
    assert!(r.stderr.contains("did you mean"), "{}", r.stderr);
}

#[test]
fn a_position_that_is_not_a_position_exits_1() {
    for position in [
        "3",
        "\"abc\"",
        "[1, 2]",
        "Heap(-1)",
        "Heap(\"3\")",
        "Nim(3)",
    ] {
        let r = run(&["value", NIM, position]);
        r.assert_user_error(&format!("value of `{position}`"));
    }
}

#[test]
fn table_of_a_game_without_one_nat_parameter_exits_1() {
    let r = run(&["table", NIM, "Nim", "--upto", "5"]);
    r.assert_user_error("table of Nim");
    assert!(r.stderr.contains("Nim"), "{}", r.stderr);
}

#[test]
fn a_failed_claim_exits_1_with_its_counterexample() {
    let file = fixture("failing-claim.game");
    let r = run(&["check", &file]);
    r.assert_status(1, "check with a failing claim");
    r.assert_no_panic("check with a failing claim");
    assert!(
        r.stderr.contains("claim failed") && r.stderr.contains("failing-claim.game:9"),
        "the failed claim, with where it is:\n{}",
        r.stderr
    );
    // The counterexamples: both sides of the failed comparison, and the n
    // for which the `for` claim fails.
    let headlines: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.contains("claim failed"))
        .collect();
    assert_eq!(headlines.len(), 2, "two failures:\n{}", r.stderr);
    assert!(
        headlines[0].contains('1') && headlines[0].contains('0'),
        "both sides of the comparison are shown:\n{}",
        r.stderr
    );
    assert!(
        headlines[1].contains("n = 4"),
        "the failing n is shown:\n{}",
        r.stderr
    );
    assert!(
        r.output().contains("2 of 3"),
        "a summary counts the failures:\n{}",
        r.output()
    );
    // The other commands do not run claims: the file's games still answer.
    let r = run(&["value", &file, "Nim([3,5,7])"]);
    r.assert_success("value from a file whose claim fails");
    assert_eq!(r.stdout, "1\n");
}

#[test]
fn the_state_limit_is_an_error_not_an_answer() {
    let r = run(&["value", "--max-states", "3", NIM, "Nim([3,5,7])"]);
    r.assert_user_error("value with --max-states 3");
    assert!(r.stderr.contains("--max-states"), "{}", r.stderr);
}

/// `--max-states` counts the positions of every part of a sum together,
/// whichever engine searched each part: Wythoff's game from (6, 6) has 49
/// positions and Cram on an empty 3x3 board 98, so 147 are needed (the
/// compiled search once let each part have the whole limit to itself).
#[test]
fn the_state_limit_counts_every_part_of_a_sum() {
    let files = ["bench/games/wythoff.game", "bench/games/cram.game"];
    let sum = r#"Wythoff(6, 6) + Cram(["...", "...", "..."])"#;
    let r = run(&["value", files[0], files[1], sum, "--max-states", "146"]);
    r.assert_user_error("a sum past the state limit");
    assert!(r.stderr.contains("more than 146 positions"), "{}", r.stderr);
    let r = run(&["value", files[0], files[1], sum, "--max-states", "147"]);
    r.assert_success("a sum within the state limit");
    assert_eq!(r.stdout, "3\n");
}

/// `moves(p)` lists where one move goes; it needs no value, so a claim
/// about the moves of a position whose game is far too large to solve
/// under the limit (2^20 rows of coins) still holds.
#[test]
fn a_claim_about_moves_searches_nothing() {
    let text = "game Flip(s: str) {
        move f(i in indices(s)) if s[i] == \"H\" => Flip(set_at(s, i, \"T\"));
    }
    claim len(moves(Flip(repeat(\"H\", 20)))) == 20;
    claim moves(Flip(\"HT\")) == {Flip(\"TT\")};
    claim moves(Flip(\"HH\")) == {Flip(\"TH\"), Flip(\"HT\")};\n";
    let file = scratch_file("moves-only.game", text.as_bytes());
    let r = run(&["check", "--max-states", "1000", &file]);
    r.assert_success("claims about moves under a small state limit");
    assert!(r.stdout.contains("3 claims hold"), "{}", r.stdout);
}

#[test]
fn a_missing_file_exits_1_with_a_clear_message() {
    let missing = "tests/cli/no-such-file.game";
    for args in [
        vec!["check", missing],
        vec!["value", missing, "Heap(1)"],
        vec!["outcome", missing, "Heap(1)"],
        vec!["moves", missing, "Heap(1)"],
        vec!["table", missing, "Heap", "--upto", "3"],
    ] {
        let what = args.join(" ");
        let r = run(&args);
        r.assert_status(1, &what);
        r.assert_no_panic(&what);
        assert!(
            r.stderr.contains("cannot read") && r.stderr.contains(missing),
            "{what}: says which file it cannot read:\n{}",
            r.stderr
        );
        assert!(
            r.stderr.to_lowercase().contains("no such file"),
            "{what}: says why:\n{}",
            r.stderr
        );
    }
}

// ---- Exit status 2: bad usage ----

#[test]
fn bad_usage_exits_2() {
    for args in [
        vec!["frobnicate"],
        vec![],
        vec!["value"],
        vec!["value", NIM],
        vec!["check"],
        vec!["table", SUBTRACTION, "T"],
        vec!["table", SUBTRACTION, "T", "--upto", "abc"],
        vec!["table", SUBTRACTION, "T", "--upto", "-1"],
        vec!["table", SUBTRACTION, "T", "--upto", "1.5"],
        vec!["value", "--frob", NIM, "Nim([1])"],
        vec!["value", "--max-states", "many", NIM, "Nim([1])"],
    ] {
        let what = format!("grundy {}", args.join(" "));
        let r = run(&args);
        r.assert_status(2, &what);
        r.assert_no_panic(&what);
        assert!(
            r.stdout.is_empty(),
            "{what}: printed on stdout:\n{}",
            r.stdout
        );
        assert!(
            r.stderr.starts_with("error:") || r.stderr.contains("Usage:"),
            "{what}: says what is wrong with the command line:\n{}",
            r.stderr
        );
    }
}

/// Durations and limits that cannot mean what they say are bad usage,
/// not a panic, "no limit" or "save every time".
#[test]
fn numeric_options_out_of_range_exit_2() {
    let cases: &[(&str, &[&str])] = &[
        (
            "--timeout",
            &["99999999999999999999", "0", "-1", "nan", "inf", "1e30"],
        ),
        ("--checkpoint-every", &["1e30", "inf", "nan", "0", "-5"]),
        ("--max-states", &["0", "-1"]),
        ("--max-nodes", &["0"]),
    ];
    for (option, values) in cases {
        for value in *values {
            // `--option=-1`, since clap reads a lone `-1` as an option.
            let given = format!("{option}={value}");
            let args: Vec<&str> = match *option {
                "--checkpoint-every" => vec!["table", SUBTRACTION, "T", "--upto", "5", &given],
                "--max-nodes" => vec!["graph", NIM, "Nim([1])", &given],
                _ => vec!["value", &given, NIM, "Nim([1])"],
            };
            let what = format!("grundy {}", args.join(" "));
            let r = run(&args);
            r.assert_status(2, &what);
            r.assert_no_panic(&what);
            assert!(r.stdout.is_empty(), "{what}: printed {}", r.stdout);
            assert!(
                r.stderr.contains(option) && r.stderr.contains("expected"),
                "{what}: does not say what the option expects:\n{}",
                r.stderr
            );
        }
    }
    let r = run(&["value", "--timeout", "30", NIM, "Nim([3, 5, 7])"]);
    r.assert_success("a timeout in range");
    assert_eq!(r.stdout.trim(), "1");
}

#[test]
fn help_and_version_exit_0() {
    for args in [["--help"], ["--version"]] {
        let r = run(&args);
        r.assert_success(args[0]);
        assert!(!r.stdout.is_empty());
    }
}

// ---- Colour ----

const ESC: char = '\u{1b}';

#[test]
fn no_colour_when_stderr_is_not_a_terminal() {
    let r = run(&["value", NIM, "Nmi([3])"]);
    r.assert_user_error("an error on a pipe");
    assert!(!r.output().contains(ESC), "escape codes:\n{:?}", r.stderr);
    let r = run(&["frobnicate"]);
    assert!(!r.output().contains(ESC), "escape codes:\n{:?}", r.stderr);
}

#[test]
fn no_colour_with_no_color_set() {
    for args in [
        vec!["value", NIM, "Nmi([3])"],
        vec!["check", "tests/cli/failing-claim.game"],
        vec!["frobnicate"],
    ] {
        let mut command = grundy(&args);
        command.env("NO_COLOR", "1");
        let r = finish(command, "");
        assert!(
            !r.output().contains(ESC),
            "{args:?}: escape codes with NO_COLOR=1:\n{:?}",
            r.output()
        );
    }
}

/// `grundy ARGS` on a pseudo-terminal, through util-linux `script`; `None`
/// where `script` is not available.
fn on_a_terminal(args: &[&str], no_color: bool) -> Option<Run> {
    let available = Command::new("script")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !available {
        eprintln!("skipped: `script` is needed to run grundy on a terminal");
        return None;
    }
    let quoted: Vec<String> = std::iter::once(env!("CARGO_BIN_EXE_grundy"))
        .chain(args.iter().copied())
        .map(|a| format!("'{}'", a.replace('\'', r"'\''")))
        .collect();
    let mut command = Command::new("script");
    command
        .args(["-q", "-e", "-c", &quoted.join(" "), "/dev/null"])
        .current_dir(root())
        .env("COLUMNS", "100")
        .env_remove("NO_COLOR");
    if no_color {
        command.env("NO_COLOR", "1");
    }
    Some(finish(command, ""))
}

#[test]
fn colour_on_a_terminal_only_without_no_color() {
    let args = ["value", NIM, "Nmi([3])"];
    let Some(coloured) = on_a_terminal(&args, false) else {
        return;
    };
    // The control: on a terminal, diagnostics are in colour, so the test
    // below can see escape codes when there are any.
    assert!(
        coloured.output().contains(ESC),
        "expected colour on a terminal:\n{:?}",
        coloured.output()
    );
    let plain = on_a_terminal(&args, true).expect("script was there a moment ago");
    assert!(
        plain.output().contains("unknown"),
        "the diagnostic is shown:\n{:?}",
        plain.output()
    );
    assert!(
        !plain.output().contains(ESC),
        "escape codes on a terminal with NO_COLOR=1:\n{:?}",
        plain.output()
    );
    let usage = on_a_terminal(&["frobnicate"], true).expect("script was there a moment ago");
    assert!(
        !usage.output().contains(ESC),
        "escape codes in a usage error with NO_COLOR=1:\n{:?}",
        usage.output()
    );
}

// ---- Hostile inputs: no panic, no hang, exit 1 ----

fn assert_rejected(r: &Run, what: &str) {
    r.assert_status(1, what);
    r.assert_no_panic(what);
    assert!(!r.stderr.trim().is_empty(), "{what}: no diagnostic");
}

const DEPTH: usize = 10_000;

/// A position nested `DEPTH` levels deep is refused quickly, with exit 1.
fn deeply_nested_position_is_rejected(what: &str, position: &str) {
    let r = run(&["value", NIM, position]);
    assert_rejected(&r, what);
}

#[test]
fn ten_thousand_nested_lists_in_a_position() {
    let position = format!("Nim({}{})", "[".repeat(DEPTH), "]".repeat(DEPTH));
    deeply_nested_position_is_rejected("nested lists", &position);
}

#[test]
fn ten_thousand_nested_parentheses_in_a_position() {
    let position = format!("{}Heap(1){}", "(".repeat(DEPTH), ")".repeat(DEPTH));
    deeply_nested_position_is_rejected("nested parentheses", &position);
}

#[test]
fn ten_thousand_unclosed_brackets_in_a_position() {
    let position = format!("Nim({}", "[".repeat(DEPTH));
    deeply_nested_position_is_rejected("unclosed lists", &position);
}

#[test]
fn ten_thousand_nested_sets_in_a_position() {
    let position = format!("Nim({}1{})", "{".repeat(DEPTH), "}".repeat(DEPTH));
    deeply_nested_position_is_rejected("nested sets", &position);
}

#[test]
fn ten_thousand_nested_calls_in_a_position() {
    let position = format!("{}1{}", "Heap(".repeat(DEPTH), ")".repeat(DEPTH));
    deeply_nested_position_is_rejected("nested calls", &position);
}

#[test]
fn ten_thousand_negations_in_a_position() {
    // An odd number of negations makes a heap of -1 ...
    let position = format!("Heap({}1)", "-".repeat(DEPTH + 1));
    deeply_nested_position_is_rejected("an odd number of negations", &position);
    // ... and an even number is a long way to write 1.
    let r = run(&["value", NIM, &format!("Heap({}1)", "-".repeat(DEPTH))]);
    r.assert_success("10,000 negations");
    assert_eq!(r.stdout, "1\n");
}

#[test]
fn ten_thousand_nested_brackets_in_a_file() {
    let depth = DEPTH;
    let text = format!(
        "game Heap(n: nat) {{ move take(k in 1..=n) => Heap(n - k); }}\nclaim len({}{}) == 1;\n",
        "[".repeat(depth),
        "]".repeat(depth)
    );
    let file = scratch_file("nested.game", text.as_bytes());
    let r = run(&["check", &file]);
    assert_rejected(&r, "a file with 10,000 nested brackets");
}

#[test]
fn a_huge_number() {
    let r = run(&["value", NIM, "Heap(99999999999999999999999)"]);
    assert_rejected(&r, "a 23-digit heap");
    assert!(r.stderr.contains("too large"), "{}", r.stderr);

    let r = run(&[
        "table",
        SUBTRACTION,
        "T",
        "--upto",
        "99999999999999999999999",
    ]);
    r.assert_status(2, "--upto beyond 64 bits");
    r.assert_no_panic("--upto beyond 64 bits");
}

#[test]
fn an_empty_file() {
    let empty = fixture("empty.game");
    for args in [
        vec!["value", &empty, "Heap(1)"],
        vec!["outcome", &empty, "Heap(1)"],
        vec!["moves", &empty, "Heap(1)"],
        vec!["table", &empty, "Heap", "--upto", "3"],
    ] {
        let what = args.join(" ");
        let r = run(&args);
        assert_rejected(&r, &what);
        assert!(r.stderr.contains("Heap"), "{what}: {}", r.stderr);
    }
    // An empty file is a program without claims: checking it succeeds.
    let r = run(&["check", &empty]);
    r.assert_success("check of an empty file");
    assert!(r.stdout.contains("0 claims"), "{}", r.stdout);
}

/// Some editors start a UTF-8 file with a byte-order mark: it is skipped,
/// and columns after it are counted as the editor shows them.
#[test]
fn a_byte_order_mark_at_the_start_of_a_file_is_skipped() {
    let good = scratch_file(
        "bom.game",
        "\u{feff}game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k); }\nclaim value(Heap(3)) == 3;\n"
            .as_bytes(),
    );
    run(&["check", &good]).assert_success("check of a file that starts with a byte-order mark");
    let r = run(&["value", &good, "Heap(5)"]);
    r.assert_success("value in a file that starts with a byte-order mark");
    assert_eq!(r.stdout.trim(), "5");
    let bad = scratch_file("bom-bad.game", "\u{feff}const X = 1 + \"a\";\n".as_bytes());
    let r = run(&["check", &bad]);
    r.assert_user_error("a type error after a byte-order mark");
    assert!(
        r.stderr.contains("bom-bad.game:1:15]") && !r.stderr.contains('\u{feff}'),
        "the string is at column 15 and the mark is not shown:\n{}",
        r.stderr
    );
}

/// miette cannot pad an underline past column 65,535: a diagnostic far
/// along a line shows a window of the line around its label instead.
#[test]
fn a_diagnostic_far_along_a_long_line_shows_a_window_of_it() {
    let text = format!("const X = \"{}\" + 1;\nconst Y = 2;\n", "a".repeat(100_000));
    let file = scratch_file("long-line.game", text.as_bytes());
    let r = run(&["check", &file]);
    r.assert_user_error("a type error at column 100,016");
    assert!(
        r.stderr.contains("long-line.game:1:100016]")
            && r.stderr.contains(" │ …aaaa")
            && r.stderr.contains("aaaa\" + 1;"),
        "the real column and a window of the line:\n{}",
        r.stderr
    );
    let longest = r.stderr.lines().map(|l| l.chars().count()).max();
    assert!(longest < Some(200), "a line of {longest:?} characters");

    let position = format!("Nim([{}\"x\"])", "1, ".repeat(40_000));
    let r = run(&["value", NIM, &position]);
    r.assert_user_error("a position of 120,000 characters with a string at the end");
    let longest = r.stderr.lines().map(|l| l.chars().count()).max();
    assert!(
        longest < Some(200),
        "a line of {longest:?} characters:\n{}",
        r.stderr
    );
}

#[test]
fn a_file_of_random_bytes() {
    for seed in 1..=5 {
        let file = scratch_file(&format!("random-{seed}.game"), &random_bytes(seed, 4096));
        for args in [vec!["check", &file], vec!["value", &file, "Heap(1)"]] {
            let r = run(&args);
            assert_rejected(&r, &format!("{} (seed {seed})", args.join(" ")));
        }
    }
}

#[test]
fn a_file_of_random_text() {
    // Valid UTF-8, so it reaches the parser.
    const ALPHABET: &[u8] =
        b"abcXYZ019_ ()[]{}<>=!+-*/%^&|.,:;\"\\\n\t#game move claim fn const if";
    for seed in 1..=20 {
        let text: Vec<u8> = random_bytes(seed, 2000)
            .into_iter()
            .map(|b| ALPHABET[b as usize % ALPHABET.len()])
            .collect();
        let file = scratch_file(&format!("random-text-{seed}.game"), &text);
        let r = run(&["check", &file]);
        assert_rejected(&r, &format!("check of random text (seed {seed})"));
    }
}

#[test]
fn random_text_as_a_position() {
    for seed in 1..=20 {
        let text: String = random_bytes(seed, 200)
            .into_iter()
            .map(|b| char::from(b' ' + b % 95))
            .collect();
        let r = run(&["value", NIM, &text]);
        assert_rejected(&r, &format!("value of random text `{text}`"));
    }
}

// ---- The REPL as a script ----

#[test]
fn the_repl_reads_a_script_from_stdin() {
    let r = finish(
        grundy(&["repl", NIM]),
        "value Nim([3,5,7])\noutcome Nim([1,1])\nmisere Nim([1,1])\n",
    );
    r.assert_success("repl script");
    assert_eq!(r.stdout_lines(), ["1", "P", "N"]);

    let r = finish(grundy(&["repl", NIM]), "value Nmi([3])\nvalue Nim([1])\n");
    r.assert_status(1, "repl script with a bad line");
    r.assert_no_panic("repl script with a bad line");
    assert_eq!(r.stdout_lines(), ["1"], "later lines still run");
    assert!(r.stderr.contains("did you mean `Nim`?"), "{}", r.stderr);
}

/// Every command that answers on standard output, with its arguments.
const ANSWERING: &[&[&str]] = &[
    &["value", NIM, "Nim([3, 5, 7])"],
    &["outcome", NIM, "Nim([3, 5, 7])"],
    &["moves", NIM, "Nim([3, 5, 7])"],
    &["table", "examples/octal.game", "Kayles", "--upto", "200"],
    &["check", NIM],
    &["graph", NIM, "Nim([1, 2])"],
];

/// `grundy ARGS` with standard output sent where `stdout` says.
fn run_into(args: &[&str], stdout: Stdio) -> std::process::Output {
    grundy(args)
        .stdin(Stdio::null())
        .stdout(stdout)
        .output()
        .expect("grundy runs")
}

#[cfg(unix)]
#[test]
fn an_answer_written_to_a_full_disk_is_an_error() {
    for args in ANSWERING {
        let full = std::fs::File::create("/dev/full").expect("/dev/full");
        let run = run_into(args, full.into());
        let said = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {said}");
        assert!(
            said.contains("could not be written to standard output")
                && said.contains("No space left on device"),
            "{args:?}: {said}"
        );
    }
    // Written to a file named with -o, the same.
    for args in [
        &["graph", NIM, "Nim([1, 2])", "-o", "/dev/full"][..],
        &[
            "plot",
            "examples/octal.game",
            "Kayles",
            "--upto",
            "100",
            "-o",
            "/dev/full",
        ],
    ] {
        let run = run(args);
        run.assert_user_error("an answer written to a full disk");
        assert!(
            run.stderr.contains("No space left on device"),
            "{}",
            run.stderr
        );
    }
    // A script in the REPL too, which stops at the first answer it cannot
    // write (the table after it would take minutes).
    let full = std::fs::File::create("/dev/full").expect("/dev/full");
    let started = std::time::Instant::now();
    let mut repl = grundy(&["repl", NIM, "examples/grundys-game.game"])
        .stdin(Stdio::piped())
        .stdout(full)
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy runs");
    {
        use std::io::Write;
        let mut stdin = repl.stdin.take().expect("piped");
        stdin
            .write_all(b"value Nim([1])\ntable Grundy 1000000\n")
            .expect("written");
    }
    let run = repl.wait_with_output().expect("grundy ends");
    assert_eq!(run.status.code(), Some(1));
    assert!(started.elapsed() < TIME_LIMIT, "the script went on");
}

#[cfg(unix)]
#[test]
fn an_answer_thrown_away_by_a_script_is_not_an_error() {
    // Scripts discard answers by handing grundy `/dev/null` opened
    // read-write (Python's `subprocess.DEVNULL`, daemons), the same file
    // the Rust runtime puts in place of a closed standard output: an
    // answer sent there is written, and the command succeeds.
    for args in ANSWERING {
        let null = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open("/dev/null")
            .expect("/dev/null");
        let run = run_into(args, Stdio::from(null));
        let said = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(0), "{args:?}: {said}");
        assert!(!said.contains("could not be written"), "{args:?}: {said}");
    }
}

#[cfg(unix)]
#[test]
fn a_reader_that_stops_early_ends_grundy_quietly_as_sigpipe_would() {
    let mut child = grundy(&["table", "examples/octal.game", "Kayles", "--upto", "300000"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy runs");
    let mut stdout = child.stdout.take().expect("piped");
    let mut first = [0u8; 10];
    stdout.read_exact(&mut first).expect("the table starts");
    drop(stdout);
    let run = child.wait_with_output().expect("grundy ends");
    assert_eq!(run.status.code(), Some(141));
    assert_eq!(String::from_utf8_lossy(&run.stderr), "");
}

#[test]
fn a_dense_table_is_not_bounded_by_the_state_limit() {
    // Kayles (0.77) from its octal code: a dense table, no search. A state
    // limit far below the table's length does not stop it.
    let r = run(&[
        "table",
        "examples/octal.game",
        "Kayles",
        "--upto",
        "5000",
        "--max-states",
        "1000",
    ]);
    r.assert_success("a table longer than --max-states");
    // Kayles has period 12 from n = 71 (OEIS A002186).
    assert!(r.stdout.contains("\n4990:"), "{}", r.stdout);
    assert!(r.stdout.contains("period 12, preperiod 71"), "{}", r.stdout);
}

#[test]
fn a_table_larger_than_memory_is_refused_at_once_saying_how_large() {
    let r = run(&[
        "table",
        "examples/octal.game",
        "Kayles",
        "--upto",
        "18446744073709551615",
    ]);
    r.assert_user_error("a table of 2^64 values");
    assert!(
        r.stderr
            .contains("the table g(0..=18446744073709551615) is too large")
            && r.stderr.contains("at two bytes a value")
            && r.stderr.contains("of memory available"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("infinite game"), "{}", r.stderr);
}

// Tables of a position with `_` for the free number, and grids of two.

const CANDY: &str = "examples/candy-split.game";

/// The values of a text table: the numbers after each row's colon.
fn table_values(stdout: &str) -> Vec<u32> {
    stdout
        .lines()
        .filter_map(|l| l.split_once(':'))
        .filter(|(index, _)| index.trim().parse::<u64>().is_ok())
        .flat_map(|(_, values)| values.split_whitespace())
        .map(|v| v.parse().expect("a value"))
        .collect()
}

/// g(0..=upto) of the subtraction game with this set, by brute force.
fn subtraction_values(set: &[usize], upto: usize) -> Vec<u32> {
    let mut values = Vec::new();
    for n in 0..=upto {
        let options = set.iter().filter(|&&s| s <= n).map(|&s| values[n - s]);
        values.push(common::mex(options));
    }
    values
}

#[test]
fn a_subtraction_set_fixed_in_the_position_gives_the_game_t_with_its_period_proven() {
    let r = run(&[
        "table",
        SUBTRACTION,
        "Subtract({2, 3, 5}, _)",
        "--upto",
        "30",
    ]);
    r.assert_success("table of Subtract({2, 3, 5}, _)");
    // T of the crash course: period 7, values 0 0 1 1 2 2 3.
    let t: Vec<u32> = (0..=30).map(|n| [0, 0, 1, 1, 2, 2, 3][n % 7]).collect();
    assert_eq!(table_values(&r.stdout), t, "{}", r.stdout);
    let period = r.stdout.lines().last().unwrap_or_default();
    assert!(
        period.starts_with("period 7, preperiod 0") && period.contains(", proven"),
        "the period is proven, as for T itself: {period}"
    );
    // The same lines as the game written with the constant set, past the
    // header naming it.
    let written = run(&["table", SUBTRACTION, "T", "--upto", "30"]);
    let lines = |r: &Run| {
        r.stdout
            .lines()
            .skip(1)
            .map(String::from)
            .collect::<Vec<_>>()
    };
    assert_eq!(lines(&r), lines(&written));

    let json = run(&[
        "table",
        SUBTRACTION,
        "Subtract({1, 4, 5}, _)",
        "--upto",
        "40",
        "--json",
    ]);
    json.assert_success("table --json of Subtract({1, 4, 5}, _)");
    let doc = json.json("table --json");
    let values: Vec<u32> = doc["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_u64().expect("a value") as u32)
        .collect();
    assert_eq!(values, subtraction_values(&[1, 4, 5], 40));
    assert_eq!(doc["period"]["proven"], true, "{doc}");
}

/// The values of a grid printed as JSON, row by row.
fn grid_of(doc: &Json) -> Vec<Vec<u32>> {
    doc["values"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|row| {
            row.as_array()
                .expect("a row")
                .iter()
                .map(|v| v.as_u64().expect("a value") as u32)
                .collect()
        })
        .collect()
}

#[test]
fn wythoffs_game_has_its_zeros_at_the_golden_ratio_pairs() {
    let wythoff = fixture("wythoff.game");
    let r = run(&[
        "table",
        &wythoff,
        "Wythoff(_, _)",
        "--upto",
        "20x15",
        "--json",
    ]);
    r.assert_success("grid of Wythoff(_, _)");
    let grid = grid_of(&r.json("grid --json"));
    assert_eq!((grid.len(), grid[0].len()), (21, 16));
    // The P-positions are (floor(k phi), floor(k phi^2)) and their mirrors.
    let phi = (1.0 + 5f64.sqrt()) / 2.0;
    let mut zeros = std::collections::BTreeSet::new();
    for k in 0..30 {
        let (a, b) = ((k as f64 * phi) as usize, (k as f64 * phi * phi) as usize);
        zeros.insert((a, b));
        zeros.insert((b, a));
    }
    for (a, row) in grid.iter().enumerate() {
        for (b, &g) in row.iter().enumerate() {
            assert_eq!(g == 0, zeros.contains(&(a, b)), "g({a}, {b}) = {g}");
        }
    }
    // A game of two nat parameters named bare is the same grid; the text
    // grid shows the same values under a header of column numbers.
    let text = run(&["table", &wythoff, "Wythoff", "--upto", "20x15"]);
    text.assert_success("grid of Wythoff");
    let mut lines = text.stdout.lines().skip(1);
    let columns: Vec<&str> = lines
        .next()
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    let numbers: Vec<String> = (0..16).map(|y| y.to_string()).collect();
    assert_eq!(columns[0], "a\\b");
    assert_eq!(columns[1..], numbers);
    let rows: Vec<Vec<u32>> = lines
        .map(|l| {
            let (_, values) = l.split_once(':').expect("a row");
            values
                .split_whitespace()
                .map(|v| v.parse().expect("a value"))
                .collect()
        })
        .collect();
    assert_eq!(rows, grid);
}

#[test]
fn a_candy_split_grid_agrees_with_grundy_value_at_every_cell() {
    let r = run(&[
        "table",
        CANDY,
        "Candy(_, _)",
        "--upto",
        "4x5",
        "--format",
        "csv",
    ]);
    r.assert_success("grid of Candy(_, _) as CSV");
    let mut lines = r.stdout.lines();
    assert_eq!(lines.next(), Some("x,y,g"));
    let cells: Vec<(u32, u32, String)> = lines
        .map(|l| {
            let fields: Vec<&str> = l.split(',').collect();
            let number = |i: usize| fields[i].parse::<u32>().expect("a number");
            (number(0), number(1), fields[2].to_string())
        })
        .collect();
    assert_eq!(cells.len(), 5 * 6);
    for (x, y, g) in cells {
        let position = format!("Candy({x}, {y})");
        let value = run(&["value", CANDY, &position]);
        value.assert_success(&position);
        assert_eq!(value.stdout.trim(), g, "{position}");
    }
}

/// A diagnostic pointing into the text given, with advice.
fn assert_table_diagnostic(r: &Run, code: &str, what: &str) {
    r.assert_user_error(what);
    assert!(
        r.stderr.contains(&format!("grundy::{code}")),
        "{what}:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains("╭─["), "{what}: no span:\n{}", r.stderr);
    assert!(r.stderr.contains("help:"), "{what}: no help:\n{}", r.stderr);
}

#[test]
fn placeholders_in_the_wrong_number_or_place_are_diagnostics() {
    let table = |game: &str, upto: &str| run(&["table", CANDY, game, "--upto", upto]);
    assert_table_diagnostic(&table("Candy(3, 4)", "5"), "no-placeholder", "no `_`");
    assert_table_diagnostic(
        &table("Candy(_, _, _)", "5"),
        "too-many-placeholders",
        "three `_`",
    );
    let subtract = run(&["table", SUBTRACTION, "Subtract(_, 3)", "--upto", "5"]);
    assert_table_diagnostic(&subtract, "placeholder-not-nat", "`_` for a set");
    let value = run(&["value", SUBTRACTION, "Subtract({2, 3, 5}, _)"]);
    assert_table_diagnostic(&value, "placeholder-outside-table", "`_` in a value");
    let nested = run(&["table", SUBTRACTION, "Subtract({_}, 3)", "--upto", "5"]);
    assert_table_diagnostic(
        &nested,
        "placeholder-outside-table",
        "`_` inside an argument",
    );
    let grid_for_a_line = run(&["table", SUBTRACTION, "T", "--upto", "10x10"]);
    assert_table_diagnostic(&grid_for_a_line, "wrong-upto", "a grid of one free number");
    for upto in ["10x", "x10", "10x10x10"] {
        let r = table("Candy(_, _)", upto);
        r.assert_status(2, &format!("--upto {upto}"));
        r.assert_no_panic(upto);
    }
}

#[test]
fn a_grid_larger_than_the_state_limit_is_refused() {
    let r = run(&["table", CANDY, "Candy(_, _)", "--upto", "100000x100000"]);
    r.assert_user_error("a grid of 10^10 cells");
    assert!(r.stderr.contains("grundy::too-large"), "{}", r.stderr);
    assert!(r.stderr.contains("100001x100001 cells"), "{}", r.stderr);
}

// ---- Powers and exclusive or ----

#[test]
fn a_power_is_written_with_two_stars() {
    // Kayles has period 12 from heap 71 on: 10 ** 12 = 4 (mod 12), and
    // g(4) = 1 (Winning Ways).
    let file = scratch_file("kayles-power.game", b"game Kayles = octal 0.77;\n");
    let r = run(&["value", &file, "Kayles(10 ** 12)"]);
    r.assert_success("value of Kayles(10 ** 12)");
    assert_eq!(r.stdout, "1\n");
    assert!(!r.stderr.contains("exclusive or"), "{}", r.stderr);
}

#[test]
fn a_xor_of_two_numbers_warns_but_answers() {
    // 10 ^ 12 = 6, and Kayles g(6) = 3: the answer stands, with a warning
    // that says what was computed and how to write a power.
    let file = scratch_file("kayles-xor.game", b"game Kayles = octal 0.77;\n");
    let r = run(&["value", &file, "Kayles(10^12)"]);
    r.assert_status(0, "value of Kayles(10^12)");
    assert_eq!(r.stdout, "3\n");
    assert!(r.stderr.contains("`10^12` is 6"), "{}", r.stderr);
    assert!(r.stderr.contains("`10 ** 12`"), "{}", r.stderr);
    let checked = scratch_file("xor-claim.game", b"claim 10^12 == 6;\n");
    let r = run(&["check", &checked]);
    r.assert_status(0, "a file whose only fault is a warning");
    assert!(r.stderr.contains("exclusive or"), "{}", r.stderr);
}

/// An infinite value is written `∞{1}` in a UTF-8 locale (or with none
/// set), and `inf{1}` with `--ascii` or in a locale of another character
/// set, where `∞` would not show.
#[test]
fn infinite_values_are_written_in_ascii_where_asked_or_needed() {
    let token = "examples/token-graph.game";
    let with = |vars: &[(&str, &str)], extra: &[&str]| {
        let mut args = vec!["value", token, "Token(2)"];
        args.extend_from_slice(extra);
        let mut command = grundy(&args);
        command
            .env_remove("LC_ALL")
            .env_remove("LC_CTYPE")
            .env_remove("LANG");
        for (k, v) in vars {
            command.env(k, v);
        }
        let r = finish(command, "");
        r.assert_success("value of Token(2)");
        r.stdout.trim().to_string()
    };
    assert_eq!(with(&[], &[]), "∞{1}");
    assert_eq!(with(&[("LANG", "en_GB.UTF-8")], &[]), "∞{1}");
    assert_eq!(with(&[("LANG", "C.utf8")], &[]), "∞{1}");
    assert_eq!(with(&[], &["--ascii"]), "inf{1}");
    assert_eq!(with(&[("LANG", "C")], &[]), "inf{1}");
    assert_eq!(
        with(&[("LANG", "en_GB.UTF-8"), ("LC_ALL", "POSIX")], &[]),
        "inf{1}"
    );
}

/// Misère play of a loopy game is refused with a diagnostic saying it is
/// out of scope, and a table of a loopy game with one saying tables are
/// for finite games.
#[test]
fn misere_play_and_tables_of_a_loopy_game_are_refused() {
    let r = run(&[
        "outcome",
        "--misere",
        "examples/token-graph.game",
        "Token(1)",
    ]);
    r.assert_user_error("misère outcome of a loopy game");
    assert!(r.stderr.contains("grundy::loopy-misere"), "{}", r.output());
    assert!(r.stderr.contains("out of scope"), "{}", r.output());
    let r = run(&["table", "examples/climb.game", "Climb", "--upto", "5"]);
    r.assert_user_error("table of a loopy game");
    assert!(
        r.stderr.contains("grundy::loopy-not-handled"),
        "{}",
        r.output()
    );
}

/// A loopy game with endlessly many positions stops at the state limit,
/// and at the time limit, instead of exploring for ever.
#[test]
fn an_endless_loopy_game_stops_at_the_limits() {
    let file = "tests/cli/endless-walk.game";
    let r = run(&["value", file, "Walk(3)", "--max-states", "1000"]);
    r.assert_user_error("an endless loopy game under a state limit");
    assert!(r.stderr.contains("grundy::state-limit"), "{}", r.output());
    let r = run(&["value", file, "Walk(3)", "--timeout", "1"]);
    r.assert_user_error("an endless loopy game under a time limit");
    assert!(r.stderr.contains("grundy::time-limit"), "{}", r.output());
}
