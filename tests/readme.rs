//! The README's transcripts are real: every `$ grundy ...` line in a
//! console block of the README and of docs/json.md is run again and must
//! print what the page shows. A REPL session (`$ grundy repl ...` followed
//! by `grundy> ` and `your move> ` lines) is replayed through standard
//! input with `--echo`. And the README's two commands are the ones CI runs.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// One command and the output the README shows for it.
struct Transcript {
    line: usize,
    args: Vec<String>,
    expected: String,
}

/// Splits a command line on spaces, keeping '...' together.
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in command.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    out.push(std::mem::take(&mut current));
                    any = false;
                }
            }
            c => {
                current.push(c);
                any = true;
            }
        }
    }
    if any {
        out.push(current);
    }
    out
}

/// `dir/*.ext` as the shell would expand it, in sorted order.
fn expand(root: &Path, arg: &str) -> Vec<String> {
    let Some((dir, pattern)) = arg.rsplit_once('/') else {
        return vec![arg.to_string()];
    };
    let Some(extension) = pattern.strip_prefix('*') else {
        return vec![arg.to_string()];
    };
    let mut names: Vec<String> = std::fs::read_dir(root.join(dir))
        .expect("the folder exists")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(extension))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    names.sort();
    names
}

fn transcripts(readme: &str) -> Vec<Transcript> {
    let mut out: Vec<Transcript> = Vec::new();
    let mut in_console = false;
    for (i, line) in readme.lines().enumerate() {
        if line.starts_with("```") {
            in_console = line == "```console";
            continue;
        }
        if !in_console {
            continue;
        }
        if let Some(command) = line.strip_prefix("$ grundy ") {
            out.push(Transcript {
                line: i + 1,
                args: words(command),
                expected: String::new(),
            });
        } else if let Some(t) = out.last_mut() {
            if !line.is_empty() || !t.expected.is_empty() {
                t.expected.push_str(line);
                t.expected.push('\n');
            }
        }
    }
    for t in &mut out {
        // A blank line separates one command's output from the next prompt.
        while t.expected.ends_with("\n\n") {
            t.expected.pop();
        }
    }
    out
}

#[test]
fn every_readme_transcript_matches_a_real_run() {
    let failures = check_transcripts("README.md", 8);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_json_transcript_matches_a_real_run() {
    let failures = check_transcripts("docs/json.md", 10);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The README's commands under "The two commands", each as CI's script
/// runs it (which may add `--quiet`).
#[test]
fn ci_runs_the_readme_commands() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md is readable");
    let ci = std::fs::read_to_string(root.join(".ci/run")).expect(".ci/run is readable");
    let section = readme
        .split("## The two commands")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the README has a section \"The two commands\"");
    let commands: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("cargo "))
        .collect();
    assert_eq!(
        commands,
        ["cargo run --release -- check examples/*.game", "cargo test"]
    );
    let ci_lines: Vec<String> = ci
        .lines()
        .map(|l| l.trim().replace(" --quiet", ""))
        .collect();
    for command in commands {
        assert!(
            ci_lines.iter().any(|l| l == command),
            "CI does not run the README's `{command}`"
        );
    }
}

/// Runs every transcript of the page `name` (at least `at_least` of them);
/// a description of each that printed something else.
fn check_transcripts(name: &str, at_least: usize) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join(name)).expect("the page is readable");
    let scratch = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme");
    std::fs::create_dir_all(&scratch).expect("a scratch folder");
    let all = transcripts(&readme);
    assert!(
        all.len() >= at_least,
        "{name} should show the commands it documents"
    );
    let mut failures = Vec::new();
    for t in &all {
        let is_repl = t.args.first().map(String::as_str) == Some("repl");
        // Files are named relative to the repository; the REPL runs in a
        // scratch folder so that files it writes stay out of the tree.
        let args: Vec<String> = t
            .args
            .iter()
            .flat_map(|a| expand(root, a))
            .map(|a| {
                if is_repl && a.ends_with(".game") {
                    root.join(a).display().to_string()
                } else {
                    a
                }
            })
            .collect();
        let mut command = Command::new(env!("CARGO_BIN_EXE_grundy"));
        command
            .args(&args)
            .env("NO_COLOR", "1")
            .env("COLUMNS", "100");
        let output = if is_repl {
            let input: String = t
                .expected
                .lines()
                .filter_map(|l| {
                    l.strip_prefix("grundy> ")
                        .or_else(|| l.strip_prefix("your move> "))
                })
                .map(|l| format!("{l}\n"))
                .collect();
            let mut child = command
                .arg("--echo")
                .current_dir(&scratch)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .expect("grundy runs");
            child
                .stdin
                .take()
                .expect("stdin is piped")
                .write_all(input.as_bytes())
                .expect("the script is written");
            child.wait_with_output().expect("grundy finishes")
        } else {
            command.current_dir(root).output().expect("grundy runs")
        };
        let mut actual = String::from_utf8_lossy(&output.stdout).into_owned();
        actual.push_str(&String::from_utf8_lossy(&output.stderr));
        let actual = actual.trim_end().to_string() + "\n";
        let expected = t.expected.trim_end().to_string() + "\n";
        if actual != expected {
            failures.push(format!(
                "{name}:{}: `grundy {}`\n--- the page shows\n{expected}--- the real run prints\n{actual}",
                t.line,
                t.args.join(" ")
            ));
        }
    }
    failures
}
