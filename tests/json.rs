//! Output for scripts, through the real `grundy` binary: every `--json`
//! document is checked against its definition in `docs/json.schema.json`
//! (the schema `docs/json.md` documents), and what it says is checked
//! against known facts: the moves, positions and errors a script reads
//! must agree with the text output and with the games' values.

use serde_json::{json, Value as Json};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// Far longer than any run here takes, even in a debug build.
const TIME_LIMIT: Duration = Duration::from_secs(30);

const NIM: &str = "examples/nim.game";
const OCTAL: &str = "examples/octal.game";
const SUBTRACTION: &str = "examples/subtraction.game";
const CANDY: &str = "examples/candy-split.game";

struct Run {
    status: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Standard output as exactly one JSON document.
    fn document(&self) -> Json {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| {
            panic!(
                "stdout is not one JSON document ({e}):\n{}\n--- stderr\n{}",
                self.stdout, self.stderr
            )
        })
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `grundy ARGS` from the crate's root; a run past the time limit is
/// killed and fails the test.
fn grundy(args: &[&str]) -> Run {
    let child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    let pid = child.id();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = sender.send(child.wait_with_output());
    });
    match receiver.recv_timeout(TIME_LIMIT) {
        Ok(output) => {
            let output = output.expect("grundy finishes");
            Run {
                status: output.status.code(),
                stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
                stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            }
        }
        Err(_) => {
            let _ = Command::new("kill").arg(pid.to_string()).status();
            panic!("`grundy {}` did not finish in time", args.join(" "));
        }
    }
}

/// The schema of one kind of document: the shared schema file with its
/// root pointed at the definition `name`.
fn schema(name: &str) -> jsonschema::Validator {
    let text = std::fs::read_to_string(root().join("docs/json.schema.json"))
        .expect("docs/json.schema.json is readable");
    let mut schema: Json = serde_json::from_str(&text).expect("the schema is JSON");
    let object = schema.as_object_mut().expect("the schema is an object");
    assert!(
        object["$defs"].get(name).is_some(),
        "the schema has no definition `{name}`"
    );
    object.remove("oneOf");
    object.insert("$ref".into(), json!(format!("#/$defs/{name}")));
    jsonschema::validator_for(&schema).expect("the schema compiles")
}

fn assert_fits(name: &str, doc: &Json) {
    let validator = schema(name);
    let problems: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        problems.is_empty(),
        "the document does not fit `{name}`:\n{}\n{doc:#}",
        problems.join("\n")
    );
}

/// A successful `--json` run: status 0, nothing on stderr, one document
/// of the kind `name`.
fn answer(name: &str, args: &[&str]) -> Json {
    let run = grundy(args);
    assert_eq!(
        run.status,
        Some(0),
        "`grundy {}` failed:\n{}{}",
        args.join(" "),
        run.stdout,
        run.stderr
    );
    assert!(run.stderr.is_empty(), "stderr: {}", run.stderr);
    let doc = run.document();
    assert_fits(name, &doc);
    doc
}

/// A failed `--json` run: the usual exit status, the errors as one
/// document on stdout, nothing on stderr.
fn failure(status: i32, args: &[&str]) -> Vec<Json> {
    let run = grundy(args);
    assert_eq!(run.status, Some(status), "`grundy {}`", args.join(" "));
    assert!(
        run.stderr.is_empty(),
        "`grundy {}` wrote on stderr too:\n{}",
        args.join(" "),
        run.stderr
    );
    let doc = run.document();
    assert_fits("errors", &doc);
    doc["errors"].as_array().expect("a list").clone()
}

#[test]
fn the_schema_refuses_what_it_should() {
    // A position as bare text (the old shape), a move without its rule,
    // an error without a place: each must fail, or the schema checks nothing.
    let position = json!({ "text": "Heap(3)", "parts": [{ "game": "Heap", "args": { "n": 3 } }] });
    assert!(schema("value").is_valid(&json!({ "position": position, "value": 3 })));
    assert!(!schema("value").is_valid(&json!({ "position": "Heap(3)", "value": 3 })));
    assert!(!schema("value").is_valid(&json!({ "position": position, "value": -1 })));
    let a_move = json!({
        "move": { "text": "take(k = 1)", "args": { "k": 1 } },
        "part": position, "result": position, "value": 2, "winning": false,
    });
    assert!(!schema("move").is_valid(&a_move));
    assert!(
        !schema("errors").is_valid(&json!({ "errors": [{ "code": "grundy::x", "message": "m" }] }))
    );
    assert!(!schema("errors").is_valid(&json!({ "errors": [] })));
}

#[test]
fn value_and_outcome_give_the_position_as_text_and_as_parts() {
    let doc = answer("value", &["value", "--json", NIM, "Nim([3,5,7])"]);
    // 3 ^ 5 ^ 7 = 1.
    assert_eq!(doc["value"], 1);
    assert_eq!(doc["position"]["text"], "Heap(3) + Heap(5) + Heap(7)");
    let heaps: Vec<&Json> = doc["position"]["parts"]
        .as_array()
        .expect("parts")
        .iter()
        .map(|p| {
            assert_eq!(p["game"], "Heap");
            &p["args"]["n"]
        })
        .collect();
    assert_eq!(heaps, [&json!(3), &json!(5), &json!(7)]);

    let doc = answer("outcome", &["outcome", "--json", NIM, "Nim([1,1])"]);
    assert_eq!(
        (&doc["outcome"], &doc["misere"]),
        (&json!("P"), &json!(false))
    );
    let doc = answer(
        "outcome",
        &["outcome", "--json", "--misere", NIM, "Nim([1,1])"],
    );
    assert_eq!(
        (&doc["outcome"], &doc["misere"]),
        (&json!("N"), &json!(true))
    );

    // A string argument is a JSON string; the empty sum has no parts.
    let doc = answer(
        "value",
        &[
            "value",
            "--json",
            "examples/treblecross.game",
            "Treblecross(\"X.X\")",
        ],
    );
    assert_eq!(doc["position"]["parts"][0]["args"]["board"], "X.X");
    let doc = answer("value", &["value", "--json", NIM, "Nim([])"]);
    assert_eq!(doc["position"], json!({ "text": "0", "parts": [] }));
    assert_eq!(doc["value"], 0);
}

#[test]
fn moves_are_rules_with_named_arguments_and_their_parts() {
    let doc = answer("moves", &["moves", "--json", NIM, "Nim([3,5,7])"]);
    let moves = doc["moves"].as_array().expect("moves");
    // 3 + 5 + 7 ways to take from one heap.
    assert_eq!(moves.len(), 15);
    let mut winning = Vec::new();
    for m in moves {
        assert_eq!(m["move"]["rule"], "take");
        let k = m["move"]["args"]["k"].as_i64().expect("k is a number");
        let heap = m["part"]["parts"][0]["args"]["n"].as_i64().expect("n");
        // The part played in loses k; the others stay.
        let mut expected: Vec<i64> = [3, 5, 7].into_iter().filter(|&h| h != heap).collect();
        expected.push(heap - k);
        expected.sort();
        let mut left: Vec<i64> = m["result"]["parts"]
            .as_array()
            .expect("result parts")
            .iter()
            .map(|p| p["args"]["n"].as_i64().expect("n"))
            .collect();
        left.sort();
        assert_eq!(left, expected, "{m}");
        assert_eq!(m["move"]["text"], format!("take(k = {k})"));
        let nim_sum = expected.iter().fold(0, |x, h| x ^ h);
        assert_eq!(m["value"], nim_sum, "{m}");
        assert_eq!(m["winning"], nim_sum == 0, "{m}");
        if nim_sum == 0 {
            winning.push(m["result"]["text"].as_str().expect("text").to_string());
        }
    }
    winning.sort();
    assert_eq!(
        winning,
        [
            "Heap(2) + Heap(5) + Heap(7)",
            "Heap(3) + Heap(4) + Heap(7)",
            "Heap(3) + Heap(5) + Heap(6)"
        ]
    );
    let doc = answer(
        "moves",
        &["moves", "--json", "--winning", NIM, "Nim([3,5,7])"],
    );
    assert_eq!(doc["moves"].as_array().map(Vec::len), Some(3));
}

#[test]
fn octal_moves_say_how_many_tokens_go_and_which_heaps_are_left() {
    // Kayles (0.77) removes one or two pins, leaving up to two rows.
    // Kayles(3): one from an end (leaving 2), one from the middle (leaving
    // 1 + 1, value 0: the winning move), or two (leaving 1).
    let doc = answer("moves", &["moves", "--json", OCTAL, "Kayles(3)"]);
    let mut seen: Vec<(Json, Json, bool)> = doc["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            assert_eq!(m["move"]["rule"], "remove");
            let args = &m["move"]["args"];
            (
                args["count"].clone(),
                args["leaving"].clone(),
                m["winning"] == true,
            )
        })
        .collect();
    seen.sort_by_key(|s| s.0.to_string() + &s.1.to_string());
    assert_eq!(
        seen,
        [
            (json!(1), json!([1, 1]), true),
            (json!(1), json!([2]), false),
            (json!(2), json!([1]), false),
        ]
    );
    // Grundy's game only splits: 4.0 as an octal code.
    let doc = answer(
        "moves",
        &[
            "moves",
            "--json",
            "examples/grundys-game.game",
            "AnySplit(4)",
        ],
    );
    let splits: Vec<&Json> = doc["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| {
            assert_eq!(m["move"]["rule"], "split");
            &m["move"]["args"]["into"]
        })
        .collect();
    assert!(splits.contains(&&json!([1, 3])), "{doc}");
}

#[test]
fn a_grid_of_two_free_numbers_fits_its_schema_and_agrees_with_the_values() {
    let doc = answer(
        "grid",
        &["table", CANDY, "Candy(_, _)", "--upto", "3x4", "--json"],
    );
    assert_eq!(doc["game"], "Candy(_, _)");
    assert_eq!((&doc["rows"], &doc["columns"]), (&json!("x"), &json!("y")));
    assert_eq!(doc["upto"], json!([3, 4]));
    // Facts of the crash course: CANDY(1, 1) is terminal, CANDY(1, 3) and
    // CANDY(3, 3) are P, CANDY(3, 4) has a move to a P-position.
    let g = |x: usize, y: usize| doc["values"][x][y].as_u64().expect("a value");
    assert_eq!(g(1, 1), 0);
    assert_eq!((g(1, 3), g(3, 3)), (0, 0));
    assert_ne!(g(3, 4), 0);
    assert_eq!(doc["values"].as_array().map(Vec::len), Some(4));
    assert!(doc["values"]
        .as_array()
        .expect("rows")
        .iter()
        .all(|row| row.as_array().map(Vec::len) == Some(5)));
    // Its errors are documents too.
    let errors = failure(1, &["table", "--json", CANDY, "Candy(3, 4)", "--upto", "3"]);
    assert_eq!(errors[0]["code"], "grundy::no-placeholder");
}

#[test]
fn table_formats_agree_with_each_other_and_with_the_period() {
    // T = {2, 3, 5}: g(n) = [0, 0, 1, 1, 2, 2, 3][n % 7].
    let expected: Vec<u32> = (0..=30).map(|n| [0, 0, 1, 1, 2, 2, 3][n % 7]).collect();
    let doc = answer(
        "table",
        &[
            "table",
            SUBTRACTION,
            "T",
            "--upto",
            "30",
            "--format",
            "json",
        ],
    );
    let values: Vec<u32> = doc["values"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v.as_u64().expect("a number") as u32)
        .collect();
    assert_eq!(values, expected);
    assert_eq!(doc["period"]["period"], 7);
    assert_eq!(doc["period"]["proven"], true);
    // --json is the same as --format json.
    let same = answer(
        "table",
        &["table", SUBTRACTION, "T", "--upto", "30", "--json"],
    );
    assert_eq!(same, doc);

    let csv = grundy(&["table", SUBTRACTION, "T", "--upto", "30", "--format", "csv"]);
    assert_eq!(csv.status, Some(0));
    let mut lines = csv.stdout.lines();
    assert_eq!(lines.next(), Some("n,g"));
    let rows: Vec<String> = lines.map(str::to_string).collect();
    let wanted: Vec<String> = expected
        .iter()
        .enumerate()
        .map(|(n, g)| format!("{n},{g}"))
        .collect();
    assert_eq!(rows, wanted);

    let oeis = grundy(&["table", OCTAL, "Kayles", "--upto", "12", "--format", "oeis"]);
    assert_eq!(oeis.status, Some(0));
    // OEIS A002186 (Kayles), offset 0, as its b-file lists it.
    let a002186 = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4];
    let wanted: String = a002186
        .iter()
        .enumerate()
        .map(|(n, g)| format!("{n} {g}\n"))
        .collect();
    assert_eq!(oeis.stdout, wanted);

    let both = grundy(&[
        "table",
        SUBTRACTION,
        "T",
        "--upto",
        "3",
        "--json",
        "--format",
        "csv",
    ]);
    assert_eq!(both.status, Some(2), "--json and --format conflict");
}

#[test]
fn check_reports_each_file_with_its_claims_and_errors() {
    let run = grundy(&[
        "check",
        "--json",
        NIM,
        "tests/cli/mistake.game",
        "tests/cli/failing-claim.game",
    ]);
    // One bad file makes the whole check fail, as without --json.
    assert_eq!(run.status, Some(1));
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    let doc = run.document();
    assert_fits("check", &doc);
    assert_eq!(doc["ok"], false);
    let files = doc["files"].as_array().expect("files");
    assert_eq!(files.len(), 3);
    assert_eq!(
        (
            &files[0]["loaded"],
            &files[0]["failed"],
            &files[0]["errors"]
        ),
        (&json!(true), &json!(0), &json!([]))
    );
    assert!(files[0]["claims"].as_u64() > Some(0));
    // mistake.game misspells Heap on line 2, column 28.
    let mistake = &files[1];
    assert_eq!(mistake["loaded"], false);
    let error = &mistake["errors"][0];
    assert_eq!(error["code"], "grundy::unknown-name");
    assert_eq!((&error["line"], &error["column"]), (&json!(2), &json!(28)));
    assert_eq!(error["file"], "tests/cli/mistake.game");
    assert_eq!(error["help"], "did you mean `Heap`?");
    // failing-claim.game: of its 3 claims, those on lines 9 and 12 fail.
    let failing = &files[2];
    assert_eq!(
        (&failing["claims"], &failing["failed"]),
        (&json!(3), &json!(2))
    );
    let lines: Vec<&Json> = failing["errors"]
        .as_array()
        .expect("errors")
        .iter()
        .map(|e| &e["line"])
        .collect();
    assert_eq!(lines, [&json!(9), &json!(12)]);

    let doc = answer(
        "check",
        &[
            "check",
            "--json",
            "examples/cram.game",
            "--verify-decomposition",
            "4",
        ],
    );
    assert_eq!(doc["ok"], true);
    let verified = &doc["files"][0]["decompositions"];
    assert_eq!(verified["size"], 4);
    assert_eq!(verified["verified"][0]["game"], "Board");
}

#[test]
fn errors_under_json_are_one_document_on_stdout_with_the_usual_status() {
    // A position that does not parse: its place is in `<position>`.
    let errors = failure(1, &["value", "--json", NIM, "Nim([3,5"]);
    assert_eq!(errors[0]["code"], "grundy::syntax");
    assert_eq!(errors[0]["file"], "<position>");
    assert_eq!(
        (&errors[0]["line"], &errors[0]["column"]),
        (&json!(1), &json!(8))
    );

    let errors = failure(1, &["outcome", "--json", NIM, "Nmi([1])"]);
    assert_eq!(errors[0]["code"], "grundy::unknown-name");
    assert!(errors[0]["help"]
        .as_str()
        .is_some_and(|h| h.contains("Nim")));

    let errors = failure(1, &["moves", "--json", "tests/cli/no-such-file.game", "X"]);
    assert_eq!(errors[0]["file"], "tests/cli/no-such-file.game");
    assert_eq!(
        (&errors[0]["line"], &errors[0]["column"]),
        (&Json::Null, &Json::Null)
    );

    let errors = failure(1, &["table", "--format", "json", NIM, "Nim", "--upto", "3"]);
    assert_eq!(errors[0]["code"], "grundy::not-a-heap-game");

    // A search past its limit is an error like any other.
    let errors = failure(
        1,
        &[
            "value",
            "--json",
            "--max-states",
            "10",
            OCTAL,
            "KaylesRules(40)",
        ],
    );
    assert_eq!(errors[0]["code"], "grundy::state-limit");
    assert_eq!(errors[0]["file"], OCTAL);

    // A command line clap refuses: status 2, and still JSON.
    let errors = failure(2, &["value", "--json", NIM]);
    assert_eq!(errors[0]["code"], "grundy::usage");
    assert!(errors[0]["message"]
        .as_str()
        .is_some_and(|m| m.contains("<POSITION>")));
    let errors = failure(
        2,
        &["table", "--format", "json", NIM, "Heap", "--upto", "x"],
    );
    assert_eq!(errors[0]["code"], "grundy::usage");

    // An argument that is not UTF-8 is a usage error too, not a crash.
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
            .args(["value", "--json", NIM])
            .arg(std::ffi::OsStr::from_bytes(b"Nim([\xff])"))
            .stdin(Stdio::null())
            .current_dir(root())
            .output()
            .expect("grundy runs");
        assert_eq!(output.status.code(), Some(2));
        let doc: Json = serde_json::from_slice(&output.stdout).expect("one document");
        assert_fits("errors", &doc);
    }

    // Without --json, diagnostics stay text on stderr.
    let run = grundy(&["value", NIM, "Nim([3,5"]);
    assert_eq!(run.status, Some(1));
    assert!(run.stdout.is_empty() && run.stderr.contains("syntax error"));
}

/// Every document docs/json.md shows fits the schema, and each spread-out
/// ```json block is one that a transcript on the page really printed
/// (the transcripts themselves are run by the README test).
#[test]
fn the_documented_examples_fit_the_schema() {
    let page = std::fs::read_to_string(root().join("docs/json.md")).expect("docs/json.md");
    let mut printed = Vec::new();
    let mut spread = Vec::new();
    let mut block: Option<(String, String)> = None;
    for line in page.lines() {
        if let Some(fence) = line.strip_prefix("```") {
            match block.take() {
                Some((lang, text)) if lang == "json" => spread.push(text),
                Some(_) => {}
                None => block = Some((fence.to_string(), String::new())),
            }
            continue;
        }
        match &mut block {
            Some((lang, _)) if lang == "console" && line.starts_with('{') => {
                printed.push(serde_json::from_str::<Json>(line).expect("a printed document"));
            }
            Some((_, text)) => {
                text.push_str(line);
                text.push('\n');
            }
            None => {}
        }
    }
    assert!(printed.len() >= 8 && !spread.is_empty());
    let text = std::fs::read_to_string(root().join("docs/json.schema.json")).expect("schema");
    let whole = jsonschema::validator_for(&serde_json::from_str(&text).expect("JSON"))
        .expect("the schema compiles");
    for doc in &printed {
        assert!(whole.is_valid(doc), "does not fit the schema: {doc}");
    }
    for text in spread {
        let doc: Json = serde_json::from_str(&text).expect("a spread-out document");
        assert!(printed.contains(&doc), "no transcript printed {doc}");
    }
}

#[test]
fn a_graph_is_every_reachable_position_with_its_moves() {
    // Candy Split from (3, 4): 5 positions and 6 distinct arrows, as the
    // DOT drawing of the same graph says.
    let doc = answer("graph", &["graph", "--json", CANDY, "Candy(3, 4)"]);
    let nodes = doc["nodes"].as_array().expect("nodes");
    let moves = doc["moves"].as_array().expect("moves");
    assert_eq!(nodes.len(), 5);
    assert_eq!(nodes[0]["position"]["text"], "Candy(3, 4)");
    let arrows: std::collections::BTreeSet<(u64, u64)> = moves
        .iter()
        .map(|m| {
            (
                m["from"].as_u64().expect("from"),
                m["to"].as_u64().expect("to"),
            )
        })
        .collect();
    assert_eq!(arrows.len(), 6);
    // Each value is the mex of the values its moves lead to, each move's
    // value is its target's, and P is exactly value 0.
    let value = |id: u64| nodes[id as usize]["value"].as_u64().expect("a value");
    for node in nodes {
        let id = node["id"].as_u64().expect("an id");
        let options: Vec<u64> = moves
            .iter()
            .filter(|m| m["from"] == id)
            .map(|m| {
                let to = m["to"].as_u64().expect("to");
                assert_eq!(m["value"], value(to), "{m}");
                assert_eq!(m["winning"], value(to) == 0, "{m}");
                value(to)
            })
            .collect();
        let mex = (0..).find(|v| !options.contains(v)).expect("a mex");
        assert_eq!(node["value"], mex, "{node}");
        assert_eq!(node["outcome"], if mex == 0 { "P" } else { "N" });
    }
    // The crash course: CANDY(3, 4) is an N-position.
    assert_eq!(nodes[0]["outcome"], "N");

    let errors = failure(
        1,
        &["graph", "--json", "--max-nodes", "2", CANDY, "Candy(3, 4)"],
    );
    assert_eq!(errors[0]["code"], "grundy::too-large");
    let clash = grundy(&["graph", "--json", "--outcome", NIM, "Heap(2)"]);
    assert_eq!(clash.status, Some(2));
}

/// Starts `grundy ARGS` on a search that never ends, stops it as Ctrl-C
/// would (SIGINT), and returns what it printed.
#[cfg(unix)]
fn interrupted(args: &[&str]) -> Run {
    let game = Path::new(env!("CARGO_TARGET_TMPDIR")).join("json-endless.game");
    std::fs::write(&game, "game Up(n: nat) {\n  move up() => Up(n + 1);\n}\n").expect("written");
    let game = game.display().to_string();
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .args(args)
        .args(["--max-states", "1000000000", &game, "Up(0)"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let child = command.spawn().expect("grundy starts");
    // Long enough for grundy to be searching, its Ctrl-C handler in place.
    std::thread::sleep(Duration::from_millis(1500));
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let output = child.wait_with_output().expect("grundy stops");
    Run {
        status: output.status.code(),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_under_json_is_an_errors_document_with_status_130() {
    let run = interrupted(&["value", "--json"]);
    assert_eq!(run.status, Some(130), "{}{}", run.stdout, run.stderr);
    let doc = run.document();
    assert_fits("errors", &doc);
    assert_eq!(doc["errors"][0]["code"], "grundy::interrupted");
    assert!(run.stderr.is_empty(), "{}", run.stderr);

    let run = interrupted(&["value"]);
    assert_eq!(run.status, Some(130));
    assert!(run.stdout.is_empty());
    assert_eq!(run.stderr.trim(), "interrupted");
}

/// A loopy game's infinite values and draws, as scripts read them: ∞{1}
/// is `{"infinity": [1]}`, a draw is `"D"`, and of the moves from
/// Token(7) only the one to Token(5) wins (the move back to Token(6), also
/// of value 0, would not bring the end nearer).
#[test]
fn loopy_values_draws_and_winning_moves_fit_the_schema() {
    const TOKEN: &str = "examples/token-graph.game";
    let doc = answer("value", &["value", "--json", TOKEN, "Token(2)"]);
    assert_eq!(doc["value"], json!({ "infinity": [1] }));
    let doc = answer("value", &["value", "--json", TOKEN, "Token(7)"]);
    assert_eq!(doc["value"], json!(1));
    let doc = answer(
        "outcome",
        &["outcome", "--json", TOKEN, "Token(2) + Token(3)"],
    );
    assert_eq!(doc["outcome"], "D");
    let doc = answer("moves", &["moves", "--json", TOKEN, "Token(7)"]);
    let moves = doc["moves"].as_array().expect("moves");
    let winning: Vec<&Json> = moves.iter().filter(|m| m["winning"] == true).collect();
    assert_eq!(moves.len(), 2);
    assert_eq!(winning.len(), 1);
    assert_eq!(winning[0]["result"]["text"], "Token(5)");
    assert!(moves.iter().all(|m| m["value"] == json!(0)));
    let position = json!({ "text": "Token(2)", "parts": [] });
    assert!(
        !schema("value").is_valid(&json!({ "position": position, "value": { "infinity": [-1] } }))
    );
    assert!(!schema("value").is_valid(&json!({ "position": position, "value": { "inf": [1] } })));
}
