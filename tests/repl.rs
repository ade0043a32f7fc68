//! The REPL, through the real `grundy` binary.
//!
//! Golden transcripts: each `tests/repl/NAME.in` is a scripted session.
//! Its first line is a comment giving the arguments, such as
//! `// grundy repl examples/nim.game --echo`; the rest is piped to
//! `grundy` on standard input. `tests/repl/NAME.txt` holds exactly what
//! grundy printed (standard output and standard error together, in the
//! order written) followed by a line with the exit status. To rewrite the
//! `.txt` files after a deliberate change, run
//!
//!     GRUNDY_BLESS=1 cargo test --test repl
//!
//! and read the diff: the `.txt` files are the specification of what users
//! see. Other tests here check facts in that output (the parts' values of
//! 3-5-7 Nim and their xor, the winning move of T8 + T12 + T13), the DOT
//! graph of CANDY(3, 4) against seed 002's Figure 1 (rendered with
//! Graphviz's `dot` when it is installed), the SVG plot, `:reload`, and the
//! interactive editor through a pseudo-terminal.

mod common;

use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::thread;
use std::time::Duration;

const TIME_LIMIT: Duration = Duration::from_secs(20);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("repl-{name}"))
}

/// Runs `grundy ARGS` from the crate's root with `stdin` piped in;
/// returns everything it printed on both streams, in order, and the exit
/// status.
fn run(args: &[&str], stdin: &str, name: &str) -> (String, Option<i32>) {
    let out_path = scratch(&format!("{name}.out"));
    let file = File::create(&out_path).expect("a scratch file");
    let err = file.try_clone().expect("the scratch file can be shared");
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(root())
        .env("COLUMNS", "80")
        // Infinite values of loopy games are written with ∞ in a UTF-8 locale.
        .env("LC_ALL", "C.UTF-8")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::from(file))
        .stderr(Stdio::from(err))
        .spawn()
        .expect("grundy starts");
    let mut input = child.stdin.take().expect("piped stdin");
    let text = stdin.to_string();
    let feeder = thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let Some(status) = common::wait_or_kill(&mut child, TIME_LIMIT) else {
        panic!("grundy {args:?} did not finish in time (a hang)");
    };
    let _ = feeder.join();
    let output = fs::read_to_string(&out_path).expect("the output is UTF-8");
    let _ = fs::remove_file(&out_path);
    (output, status.code())
}

/// Every `.in` file in tests/repl, sorted.
fn cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = fs::read_dir(root().join("tests/repl"))
        .expect("tests/repl exists")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "in"))
        .collect();
    cases.sort();
    cases
}

/// The transcript of one case: the output, then the exit status.
fn transcript(path: &Path) -> String {
    let script = fs::read_to_string(path).expect("a readable .in file");
    let (first, rest) = script.split_once('\n').unwrap_or((&script, ""));
    let args: Vec<&str> = first
        .strip_prefix("// grundy ")
        .unwrap_or_else(|| {
            panic!(
                "{}: the first line must be `// grundy ARGS`",
                path.display()
            )
        })
        .split_whitespace()
        .collect();
    let name = path
        .file_stem()
        .and_then(|s| s.to_str())
        .expect("a UTF-8 name");
    let (output, status) = run(&args, rest, name);
    let status = status.map_or("killed by a signal".to_string(), |s| s.to_string());
    format!("{}[exit status {status}]\n", mask_times(&output))
}

/// `took 1.5 ms` becomes `took [time]`: a transcript pins that the time
/// is given, not what it was.
fn mask_times(output: &str) -> String {
    output
        .lines()
        .map(|line| {
            let timed = line.strip_prefix("took ").is_some_and(|t| {
                t.strip_suffix(" ms")
                    .or_else(|| t.strip_suffix(" s"))
                    .is_some_and(|n| n.parse::<f64>().is_ok())
            });
            if timed {
                "took [time]\n".to_string()
            } else {
                format!("{line}\n")
            }
        })
        .collect()
}

#[test]
fn transcripts_match_their_golden_files() {
    let cases = cases();
    assert!(cases.len() >= 10, "expected the REPL's golden transcripts");
    let mut problems = Vec::new();
    for case in &cases {
        let actual = transcript(case);
        assert!(
            !actual.contains("panicked"),
            "{}: grundy panicked:\n{actual}",
            case.display()
        );
        common::check_golden(&case.with_extension("txt"), &actual, &mut problems);
    }
    assert!(
        problems.is_empty(),
        "{} transcript(s) differ (GRUNDY_BLESS=1 rewrites them):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn every_golden_transcript_has_its_script() {
    for entry in fs::read_dir(root().join("tests/repl")).expect("tests/repl exists") {
        let path = entry.expect("a directory entry").path();
        if path.extension().is_some_and(|e| e == "txt") {
            assert!(
                path.with_extension("in").exists(),
                "{} has no .in script",
                path.display()
            );
        }
    }
}

// ---- Facts in the output ----

#[test]
fn explain_of_3_5_7_nim_shows_the_parts_values_and_their_xor() {
    let (out, status) = run(
        &["repl", "examples/nim.game"],
        "explain Nim([3,5,7])\n",
        "fact-nim",
    );
    assert_eq!(status, Some(0), "{out}");
    assert!(out.contains("Heap(3)  value 3 = mex {0, 1, 2}"), "{out}");
    assert!(out.contains("Heap(5)  value 5"), "{out}");
    assert!(out.contains("Heap(7)  value 7"), "{out}");
    assert!(out.contains("xor = 001 = 1"), "{out}");
    // Exactly the three winning moves of seed 000.
    let winning: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("  in Heap("))
        .collect();
    assert_eq!(winning.len(), 3, "{out}");
    assert!(out.contains("->  Heap(2) + Heap(5) + Heap(7)"), "{out}");
    assert!(out.contains("->  Heap(3) + Heap(4) + Heap(7)"), "{out}");
    assert!(out.contains("->  Heap(3) + Heap(5) + Heap(6)"), "{out}");
}

#[test]
fn explain_of_t8_t12_t13_finds_seed_002s_winning_move() {
    let (out, status) = run(
        &["repl", "examples/subtraction.game"],
        "explain T(8) + T(12) + T(13)\n",
        "fact-t",
    );
    assert_eq!(status, Some(0), "{out}");
    // 0* + 2* + 3*: the xor is 1.
    assert!(out.contains("T(8)   value 0"), "{out}");
    assert!(out.contains("T(12)  value 2"), "{out}");
    assert!(out.contains("T(13)  value 3"), "{out}");
    assert!(out.contains("xor = 01 = 1"), "{out}");
    // Taking 2 from T13 leaves T11 (seed 002).
    assert!(
        out.contains("in T(13) (value 3, and 3 ^ 1 = 2): take(s = 2)  ->  T(8) + T(11) + T(12)"),
        "{out}"
    );
}

/// From an N-position of a loopy game, the computer wins against an
/// opponent who steers back towards positions already played: each of
/// the computer's moves brings the end nearer, so no position comes back,
/// though moving back to a position of value 0 (from 7 to 6, from 10 to 5)
/// would also "win" by value alone and let the game go round for ever.
#[test]
fn the_computer_wins_a_loopy_game_against_an_opponent_who_repeats() {
    let script = "play Token(7) + Token(2) second\n\
                  Token(6) + Token(1)\n\
                  Token(7) + Token(0)\n\
                  Token(10) + Token(0)\n";
    let (out, status) = run(&["repl", "examples/token-graph.game"], script, "loopy-play");
    assert_eq!(status, Some(0), "{out}");
    assert!(out.contains("you cannot move: the computer wins"), "{out}");
    let positions: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("position: "))
        .collect();
    let mut distinct = positions.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(
        distinct.len(),
        positions.len(),
        "a position came back: {out}"
    );
    assert!(!out.contains("the computer: slide(w = 6)"), "{out}");
    assert!(
        !out.contains("the computer: slide(w = 5) in Token(10)"),
        "{out}"
    );
}

#[test]
fn a_script_has_no_prompts_and_fails_if_a_line_fails() {
    let (out, status) = run(
        &["repl", "examples/nim.game"],
        "value Nim([3,5,7])\nvalue Nope(1)\nvalue Heap(4)\n",
        "fact-script",
    );
    assert_eq!(status, Some(1), "{out}");
    assert!(!out.contains("grundy>"), "{out}");
    assert!(out.starts_with("1\n"), "{out}");
    assert!(out.ends_with("4\n"), "{out}");
    let (out, status) = run(&["repl", "examples/nim.game"], "value Heap(4)\n", "fact-ok");
    assert_eq!((out.as_str(), status), ("4\n", Some(0)));
}

/// A diagnostic far along a long entry used to panic in the renderer and
/// end the session; now it is drawn and the next entry is answered.
#[test]
fn a_diagnostic_far_along_a_long_entry_leaves_the_session_running() {
    let script = format!(
        "value Nim([{}1]) + Nope(1)\nvalue Nim([3, 5, 7])\n",
        "1, ".repeat(40_000)
    );
    let (output, status) = run(&["repl", "examples/nim.game"], &script, "long-entry");
    assert!(!output.contains("panicked"), "{output}");
    assert!(
        output.contains("unknown game or function `Nope`"),
        "{output}"
    );
    assert_eq!(output.lines().last(), Some("1"), "{output}");
    assert_eq!(status, Some(1));
}

/// `:save` writes the definitions typed and in force, as they read now
/// and in the order they came, and the claims that held: `grundy check`
/// accepts the file, and its claims hold there too. The game is seed
/// 002's T, subtraction of 2, 3 or 5, whose values repeat 0 0 1 1 2 2 3.
#[test]
fn saved_definitions_check_as_a_file() {
    let dir = scratch("save");
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).expect("a scratch folder");
    let file = dir.join("mine.game");
    let file = file.to_str().expect("a UTF-8 path");
    let script = format!(
        "const S = {{1, 2}};
game T(n: nat) {{ move take(s in S) if s <= n => T(n - s); }}
claim value(T(7)) == 1;
claim value(T(7)) == 3;
const S = {{2, 3, 5}};
claim for n in 0..30: value(T(n)) == [0, 0, 1, 1, 2, 2, 3][n % 7];
:save {file}
"
    );
    let (out, status) = run(&["repl"], &script, "save");
    // The claim that fails is not kept, and neither is the one that held
    // under S = {1, 2} but not under the new S.
    assert_eq!(status, Some(1), "{out}");
    assert!(
        out.contains("1 claim typed earlier no longer holds with the new definition"),
        "{out}"
    );
    assert!(out.contains("wrote 3 definitions to"), "{out}");
    let saved = fs::read_to_string(file).expect("the file is written");
    assert_eq!(
        saved,
        "const S = {2, 3, 5};\n\n\
         game T(n: nat) { move take(s in S) if s <= n => T(n - s); }\n\n\
         claim for n in 0..30: value(T(n)) == [0, 0, 1, 1, 2, 2, 3][n % 7];\n"
    );
    let checked = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["check", file])
        .output()
        .expect("grundy check runs");
    let said = String::from_utf8_lossy(&checked.stdout);
    assert!(checked.status.success(), "{said}");
    assert!(said.contains("1 claim holds"), "{said}");
    // A second `:save` to the same file is refused; `--force` replaces it.
    let (out, status) = run(
        &["repl"],
        &format!("fn f(x) = x;\n:save {file}\n:save {file} --force\n"),
        "save-again",
    );
    assert_eq!(status, Some(1), "{out}");
    assert!(out.contains("exists already"), "{out}");
    assert!(out.contains("wrote 1 definition to"), "{out}");
    assert_eq!(
        fs::read_to_string(file).expect("the file"),
        "fn f(x) = x;\n"
    );
}

#[test]
fn reload_reads_a_changed_file_and_keeps_bindings_and_typed_definitions() {
    let game = scratch("reload.game");
    fs::write(
        &game,
        "game H(n: nat) { move take(k in 1..=n) => H(n - k); }\n",
    )
    .expect("a scratch game file");
    let game_path = game.to_str().expect("a UTF-8 path").to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["repl", &game_path])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let stdout = child.stdout.take().expect("piped stdout");
    let (tx, rx) = std::sync::mpsc::channel();
    thread::spawn(move || {
        use std::io::BufRead;
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let next = |what: &str| {
        rx.recv_timeout(TIME_LIMIT)
            .unwrap_or_else(|_| panic!("no answer to {what}"))
    };
    writeln!(stdin, "let p = H(5)\nvalue p").expect("grundy reads");
    assert_eq!(next("let"), "p = H(5)");
    assert_eq!(next("value"), "5");
    // Typed definitions: one using another typed after it in the same
    // entry, and a claim that fails, which is not kept.
    writeln!(
        stdin,
        "game Far(n: nat) = Near(n); game Near(n: nat) = H(n) + H(1);\nclaim value(H(3)) == 0;"
    )
    .expect("grundy reads");
    assert_eq!(
        next("definitions"),
        "defined game Far(n: nat), game Near(n: nat)"
    );
    writeln!(stdin, ":reload").expect("grundy reads");
    assert_eq!(
        next(":reload"),
        "no file changed; every value computed so far is kept"
    );
    // Now a heap may lose only one or two counters: g(5) = 2.
    fs::write(
        &game,
        "game H(n: nat) { move take(k in 1..=min(2, n)) => H(n - k); }\n",
    )
    .expect("the game file can be rewritten");
    let saved = scratch("reload-saved.game");
    let saved_path = saved.to_str().expect("a UTF-8 path");
    writeln!(
        stdin,
        ":reload\nvalue p\nvalue Far(5)\n:save {saved_path} --force\n:quit"
    )
    .expect("grundy reads");
    assert!(
        next(":reload").starts_with("reloaded "),
        "reload says what it read"
    );
    assert_eq!(next("value after reload"), "2");
    // The typed definitions are read again, under the new H: 2 ^ 1.
    assert_eq!(next("a typed game after reload"), "3");
    assert!(next(":save").starts_with("wrote 2 definitions"));
    assert_eq!(
        fs::read_to_string(&saved).expect("the saved file"),
        "game Far(n: nat) = Near(n);\n\ngame Near(n: nat) = H(n) + H(1);\n"
    );
    drop(stdin);
    let status = child.wait().expect("grundy ends");
    assert_eq!(status.code(), Some(1), "the claim that failed");
}

// ---- Pictures ----

/// The edges of a DOT graph, as (from label, to label), first lines only.
fn dot_edges(dot: &str) -> Vec<(String, String)> {
    let mut labels = std::collections::HashMap::new();
    let mut edges = Vec::new();
    // The legend's sample nodes and move are not part of the game.
    for line in dot
        .lines()
        .map(str::trim)
        .filter(|l| !l.starts_with("legend"))
    {
        if let Some((from, rest)) = line.split_once(" -> ") {
            let to = rest.split([' ', ';']).next().unwrap_or("");
            edges.push((from.to_string(), to.to_string()));
        } else if let Some((id, rest)) = line.split_once(" [label=\"") {
            let label = rest.split("\\n").next().unwrap_or("").to_string();
            labels.insert(id.to_string(), label);
        }
    }
    let mut named: Vec<(String, String)> = edges
        .into_iter()
        .map(|(f, t)| (labels[&f].clone(), labels[&t].clone()))
        .collect();
    named.sort();
    named
}

#[test]
fn the_graph_of_candy_3_4_is_seed_002s_figure_1() {
    let (dot, status) = run(
        &["graph", "examples/candy-split.game", "Candy(3, 4)"],
        "",
        "graph",
    );
    assert_eq!(status, Some(0), "{dot}");
    let expected: Vec<(String, String)> = [
        ("Candy(1, 2)", "Candy(1, 1)"),
        ("Candy(1, 3)", "Candy(1, 2)"),
        ("Candy(2, 2)", "Candy(1, 1)"),
        ("Candy(3, 4)", "Candy(1, 2)"),
        ("Candy(3, 4)", "Candy(1, 3)"),
        ("Candy(3, 4)", "Candy(2, 2)"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(dot_edges(&dot), expected, "{dot}");
    // Figure 2: CANDY(1, 3) and CANDY(1, 1) are the P-positions.
    assert!(
        dot.contains("label=\"Candy(1, 3)\\nvalue 0\", peripheries=2"),
        "{dot}"
    );
    assert!(dot.contains("label=\"Candy(3, 4)\\nvalue 2\"]"), "{dot}");

    // Graphviz must accept it.
    let path = scratch("candy.dot");
    fs::write(&path, &dot).expect("a scratch file");
    match Command::new("dot").arg("-Tsvg").arg(&path).output() {
        Ok(rendered) => {
            assert!(
                rendered.status.success(),
                "dot rejected the graph: {}",
                String::from_utf8_lossy(&rendered.stderr)
            );
            let svg = String::from_utf8_lossy(&rendered.stdout);
            for position in [
                "Candy(3, 4)",
                "Candy(1, 3)",
                "Candy(2, 2)",
                "Candy(1, 2)",
                "Candy(1, 1)",
            ] {
                assert!(svg.contains(position), "{position} is not drawn");
            }
        }
        Err(_) => eprintln!(
            "skipped rendering with Graphviz: `dot` is not installed (apt-get install graphviz)"
        ),
    }
}

#[test]
fn a_big_graph_is_refused_with_the_limit() {
    let (out, status) = run(
        &[
            "graph",
            "examples/nim.game",
            "Nim([9, 9, 9])",
            "--max-nodes",
            "50",
        ],
        "",
        "graph-big",
    );
    assert_eq!(status, Some(1), "{out}");
    // The message may be wrapped; read it as one line.
    let flat = out
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(flat.contains("more than 50 positions"), "{out}");
    assert!(
        flat.contains("the limit is 50, which --max-nodes raises"),
        "{out}"
    );
}

#[test]
fn the_plot_is_an_svg_with_a_point_per_heap() {
    let path = scratch("t.svg");
    let path_text = path.to_str().expect("a UTF-8 path");
    let (out, status) = run(
        &[
            "plot",
            "examples/subtraction.game",
            "T",
            "--upto",
            "70",
            "-o",
            path_text,
        ],
        "",
        "plot",
    );
    assert_eq!(status, Some(0), "{out}");
    let svg = fs::read_to_string(&path).expect("the plot was written");
    assert!(svg.starts_with("<svg"), "not an SVG");
    assert_eq!(
        svg.matches("<circle").count(),
        71,
        "one point per n = 0..=70"
    );
    assert!(
        svg.contains("period 7 from n = 0"),
        "the caption gives the period"
    );
}

// ---- The interactive editor, through a pseudo-terminal ----

/// Waits until the editor has handed `line` to the session (it echoes the
/// line and ends it), and then a little longer, so that a Ctrl-C sent next
/// stops the command rather than the editing of its line. A fixed wait from
/// the moment of typing was not enough on a loaded machine: the Ctrl-C could
/// reach the editor first and only clear the line.
fn started(p: &mut rexpect::session::PtySession, line: &str) {
    p.exp_string(line).expect("the editor echoes the line");
    // The editor leaves its raw mode (whatever escapes that takes) and
    // ends the line once it hands it on.
    p.exp_string("\r\n").expect("the editor hands the line on");
    thread::sleep(Duration::from_millis(300));
}

#[test]
fn tab_completes_and_ctrl_c_stops_a_long_table() {
    let (mut p, home) = editor(&["examples/grundys-game.game", "examples/nim.game"], "home");
    // `Ni` + Tab completes to the only name that starts so: `Nim`.
    p.send("value Ni").expect("typing");
    p.send("\t").expect("tab");
    p.flush().expect("typing");
    p.exp_string("grundy> value Nim")
        .expect("the completed name");
    p.send("([3, 5, 7])\r").expect("typing");
    p.flush().expect("typing");
    p.exp_string("\r\n1\r\n").expect("the value of 3-5-7 Nim");
    p.exp_string("grundy> ").expect("a prompt");
    // A table of Grundy's game far out takes minutes; Ctrl-C stops it.
    p.send_line("table Grundy 1000000").expect("typing");
    started(&mut p, "table Grundy 1000000");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string("interrupted").expect("the table stops");
    p.exp_string("grundy> ")
        .expect("a prompt after the interrupt");
    // The session goes on, with what it knew.
    p.send_line("value Grundy(5) + Heap(2)").expect("typing");
    p.exp_string("\r\n0\r\n")
        .expect("g(5) = 2, so the sum is 0");
    p.send_line(":quit").expect("typing");
    p.exp_eof().expect("grundy leaves");
    let history = home.join("grundy/history.txt");
    let kept = fs::read_to_string(&history).expect("history is kept in the data directory");
    assert!(kept.contains("table Grundy 1000000"), "{kept}");
}

#[test]
fn a_table_stopped_by_ctrl_c_keeps_its_values_for_the_next_one() {
    let (mut p, _home) = editor(&["examples/grundys-game.game"], "home-resume");
    p.send_line("table Grundy 1000000").expect("typing");
    started(&mut p, "table Grundy 1000000");
    p.send_control('c').expect("Ctrl-C");
    let (_, stopped) = p
        .exp_regex(r"stopped after g\(0\.\.=\d+\)")
        .expect("how far it got");
    p.exp_string("interrupted; the values computed so far are kept")
        .expect("the table stops");
    p.exp_string("grundy> ").expect("a prompt");
    // The same command carries on from there instead of starting again.
    let reached = stopped.trim_start_matches("stopped after ");
    p.send_line("table Grundy 1000000").expect("typing");
    started(&mut p, "table Grundy 1000000");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string(&format!("carried on from {reached}"))
        .expect("the kept values used");
    p.exp_string("grundy> ").expect("a prompt");
    // A shorter table is read from them, and agrees with the seed texts:
    // g = 0, 0, 0, 1, 0, 2 for heaps 0 to 5.
    p.send_line("table Grundy 5").expect("typing");
    p.exp_string("0:  0  0  0  1  0  2").expect("the values");
    p.send_line(":quit").expect("typing");
    p.exp_eof().expect("grundy leaves");
}

/// Tab after characters of several bytes, in the real line editor: the
/// session goes on (it used to panic, ending the session and losing its
/// history).
#[test]
fn tab_after_characters_of_several_bytes_keeps_the_session() {
    let (mut p, home) = editor(&["examples/nim.game"], "home-unicode");
    for typed in ["é", "x🙂y"] {
        p.send(typed).expect("typing");
        p.send("\t").expect("tab");
        p.flush().expect("typing");
        // Ctrl-U clears the line.
        p.send_control('u').expect("Ctrl-U");
    }
    p.send_line("value Nim([3, 5, 7])").expect("typing");
    p.exp_string("\r\n1\r\n").expect("the session goes on");
    p.send_line(":quit").expect("typing");
    p.exp_eof().expect("grundy leaves");
    let history = home.join("grundy/history.txt");
    let kept = fs::read_to_string(&history).expect("the history is saved");
    assert!(kept.contains("value Nim([3, 5, 7])"), "{kept}");
}

/// An unfinished entry in the line editor goes on after the continuation
/// prompt, and runs once it is whole.
#[test]
fn an_unfinished_entry_continues_after_its_own_prompt() {
    let (mut p, _home) = editor(&["examples/nim.game"], "home-continue");
    p.send_line("value Nim([3,").expect("typing");
    p.exp_string("   ...> ").expect("the continuation prompt");
    p.send_line("5, 7])").expect("typing");
    p.exp_string("\r\n1\r\n").expect("the value of 3-5-7 Nim");
    p.exp_string("grundy> ").expect("the first prompt again");
    // Ctrl-C at the continuation prompt drops the unfinished entry.
    p.send_line("game G(n: nat) {").expect("typing");
    p.exp_string("   ...> ").expect("the continuation prompt");
    p.send_control('c').expect("Ctrl-C");
    p.exp_string("grundy> ").expect("the first prompt again");
    // The next line is an entry of its own, not more of the dropped one.
    p.send_line("value Nim([1])").expect("typing");
    p.exp_string("\r\n1\r\n").expect("the value of one heap");
    p.send_line(":quit").expect("typing");
    p.exp_eof().expect("grundy leaves");
}

/// `grundy repl FILES` in the line editor, through a pseudo-terminal,
/// with its data (the history) in a fresh scratch directory `home`;
/// returned at its first prompt.
fn editor(files: &[&str], home: &str) -> (rexpect::session::PtySession, PathBuf) {
    let home = scratch(home);
    let _ = fs::remove_dir_all(&home);
    let _ = fs::create_dir_all(&home);
    let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
    command
        .arg("repl")
        .args(files)
        .current_dir(root())
        .env("XDG_DATA_HOME", &home)
        .env("NO_COLOR", "1")
        .env("TERM", "xterm");
    let mut p = rexpect::session::spawn_command(command, Some(20_000)).expect("a pseudo-terminal");
    p.exp_string("grundy> ").expect("a prompt");
    (p, home)
}
