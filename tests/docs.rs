//! The language reference, docs/language.md, kept honest.
//!
//! * Every ```game block loads into a fresh session and all its claims
//!   hold. A block tagged `fails` (```game,fails) must fail instead, either
//!   to load or in a claim; `fails=CODE` also names the error it must fail
//!   with, as in `grundy::CODE` (```game,fails=terminal-in-sum).
//! * A block tagged `file=NAME` (```game file=sub.game) is a file that the
//!   transcripts use. A later block with the same name adds to that file, so
//!   it is loaded together with the blocks before it. Such a block is
//!   loaded as a file of a folder holding every named file, so that its
//!   `use "OTHER.game";` finds the block named OTHER.game.
//! * Every `$ grundy ...` line of a ```console block is run, in the order of
//!   the document, in a directory holding the files written so far, and must
//!   print exactly the lines under it (standard error, then standard output,
//!   which is the order the command writes them in). `< NAME` feeds a file to
//!   standard input.
//!
//! Bless mode: after a change to the command's output,
//!
//!     GRUNDY_BLESS=1 cargo test --release --test docs
//!
//! makes the transcript test write the real output of every command into
//! the document instead of comparing. Only the output lines of commands
//! whose output differs are replaced; every other byte of the document
//! (prose, code, commands, and outputs that already match) stays as it
//! was (`-- --nocapture` also shows how many outputs were rewritten).
//! Read `git diff docs/language.md` afterwards: the prose around a changed
//! output may need changing too.

use grundy::session::Session;
use std::collections::HashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

const DOC: &str = "docs/language.md";

/// A fenced code block of the document.
struct Block {
    /// The language, the first word of the info string: `game`, `console`, ...
    lang: String,
    /// `fails` or `fails=CODE`: Some(None) or Some(Some(CODE)).
    fails: Option<Option<String>>,
    /// `file=NAME`.
    file: Option<String>,
    /// The line of the opening fence, counting from 1.
    line: usize,
    /// The lines between the fences, each ending in a newline.
    text: String,
}

fn doc_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC)
}

fn read_doc() -> String {
    std::fs::read_to_string(doc_path()).unwrap_or_else(|e| panic!("cannot read {DOC}: {e}"))
}

/// Whether GRUNDY_BLESS=1: write real outputs into the document.
fn blessing() -> bool {
    std::env::var_os("GRUNDY_BLESS").is_some_and(|v| v == "1")
}

fn blocks(doc: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in doc.lines().enumerate() {
        let fence = line.trim_start();
        match open.as_mut() {
            None => {
                if let Some(info) = fence.strip_prefix("```") {
                    open = Some(parse_info(info, i + 1));
                }
            }
            Some(block) => {
                if fence.trim_end() == "```" {
                    out.extend(open.take());
                } else {
                    block.text.push_str(line);
                    block.text.push('\n');
                }
            }
        }
    }
    if let Some(block) = open {
        panic!("{DOC}:{}: this ``` block is never closed", block.line);
    }
    out
}

/// `game`, `game,fails`, `game,fails=claim-failed`, `game file=sub.game`, ...
fn parse_info(info: &str, line: usize) -> Block {
    let mut words = info
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty());
    let lang = words.next().unwrap_or("").to_string();
    let mut block = Block {
        lang,
        fails: None,
        file: None,
        line,
        text: String::new(),
    };
    for word in words {
        match word.split_once('=') {
            None if word == "fails" => block.fails = Some(None),
            Some(("fails", code)) => block.fails = Some(Some(code.to_string())),
            Some(("file", name)) => block.file = Some(name.to_string()),
            // Other languages' tags (```rust,ignore) are none of our business.
            _ if block.lang != "game" => {}
            _ => panic!("{DOC}:{line}: unknown tag `{word}` on a ```game block"),
        }
    }
    block
}

/// The text each block is loaded as: a block adding to a named file is
/// loaded with everything written to that file before it.
fn loadable_texts(blocks: &[Block]) -> Vec<String> {
    let mut files: HashMap<&str, String> = HashMap::new();
    blocks
        .iter()
        .map(|b| match &b.file {
            Some(name) => {
                let file = files.entry(name).or_default();
                file.push_str(&b.text);
                file.clone()
            }
            None => b.text.clone(),
        })
        .collect()
}

#[test]
fn every_game_block_loads_and_its_claims_hold() {
    let doc = read_doc();
    let blocks = blocks(&doc);
    let texts = loadable_texts(&blocks);
    let files = write_named_files(&blocks, "docs-language-files");
    let mut problems = Vec::new();
    let mut count = 0;
    for (block, text) in blocks.iter().zip(&texts) {
        if block.lang != "game" {
            continue;
        }
        count += 1;
        let name = match &block.file {
            Some(file) => files.join(file).display().to_string(),
            None => format!("{DOC} block {count}"),
        };
        if let Err(problem) = check_game_block(&name, block, text) {
            let counted_from = match &block.file {
                Some(name) => format!("the first block of file {name}"),
                None => "the block's first line".to_string(),
            };
            problems.push(format!(
                "{DOC}:{}: game block {count} (lines in its diagnostics count from {counted_from}): {problem}",
                block.line
            ));
        }
    }
    assert!(count > 0, "{DOC} has no ```game blocks");
    assert!(
        problems.is_empty(),
        "{} of {count} game blocks are wrong:\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

/// A fresh folder `name` holding every block tagged `file=NAME`, each file
/// with all the blocks that add to it.
fn write_named_files(blocks: &[Block], name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the folder of named files");
    }
    std::fs::create_dir_all(&dir).expect("make the folder of named files");
    let mut files: HashMap<&str, String> = HashMap::new();
    for block in blocks {
        if let Some(file) = &block.file {
            files.entry(file).or_default().push_str(&block.text);
        }
    }
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write a file of the document");
    }
    dir
}

/// Loads a block under `name` and runs its claims; Err says what is wrong
/// with it.
fn check_game_block(name: &str, block: &Block, text: &str) -> Result<(), String> {
    let mut session = Session::new();
    let render = |session: &Session, errors: &[grundy::Error]| -> String {
        errors
            .iter()
            .map(|e| grundy::diagnostic::render(e, &session.sources, false, 100))
            .collect()
    };
    let errors = session.check_text(name, text);
    match (&block.fails, errors.first()) {
        (None, None) => Ok(()),
        (None, Some(_)) => Err(format!(
            "it should load and its claims hold, but:\n{}",
            render(&session, &errors)
        )),
        (Some(_), None) => {
            Err("it is tagged `fails`, but it loads and all its claims hold".to_string())
        }
        (Some(None), Some(_)) => Ok(()),
        (Some(Some(code)), Some(first)) if first.kind.code() == code => Ok(()),
        (Some(Some(code)), Some(first)) => Err(format!(
            "it should fail with grundy::{code}, but it fails with grundy::{}:\n{}",
            first.kind.code(),
            render(&session, &errors)
        )),
    }
}

#[test]
fn every_console_transcript_matches_a_real_run() {
    let doc = read_doc();
    let bless = blessing();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("docs-language");
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("clear the transcript directory");
    }
    std::fs::create_dir_all(&dir).expect("make the transcript directory");
    let mut problems = Vec::new();
    // Bless mode: (the document's lines to replace, the real output).
    let mut rewrites: Vec<(Range<usize>, String)> = Vec::new();
    let mut commands = 0;
    for block in blocks(&doc) {
        if let Some(name) = &block.file {
            let path = dir.join(name);
            let mut text = std::fs::read_to_string(&path).unwrap_or_default();
            text.push_str(&block.text);
            std::fs::write(&path, text).expect("write a file of the document");
        }
        if block.lang != "console" {
            continue;
        }
        for step in transcript(&block) {
            commands += 1;
            let line = step.line;
            let actual = run(&dir, &step.command)
                .unwrap_or_else(|e| panic!("{DOC}:{line}: cannot run `{}`: {e}", step.command));
            if normalize(&actual) == normalize(&step.expected) {
                continue;
            }
            if bless {
                rewrites.push((step.output_lines, blessed_output(line, &actual)));
            } else {
                problems.push(format!(
                    "{DOC}:{line}: `{}` prints\n{}\nbut the document says\n{}",
                    step.command,
                    indent(&actual),
                    indent(&step.expected)
                ));
            }
        }
    }
    assert!(commands > 0, "{DOC} has no `$ grundy` commands");
    if bless {
        if !rewrites.is_empty() {
            std::fs::write(doc_path(), rewrite(&doc, &rewrites))
                .unwrap_or_else(|e| panic!("cannot write {DOC}: {e}"));
        }
        eprintln!(
            "GRUNDY_BLESS=1: rewrote the output of {} of {commands} commands in {DOC}",
            rewrites.len()
        );
        return;
    }
    assert!(
        problems.is_empty(),
        "{} of {commands} commands print something else (GRUNDY_BLESS=1 writes the real outputs into {DOC}):\n\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

/// One `$ grundy ...` command of a console block.
struct Step {
    /// The line of the command, counting from 1.
    line: usize,
    command: String,
    /// The output the document shows, each line ending in a newline.
    expected: String,
    /// The document's lines holding that output, counting from 0, up to
    /// its last line that is not blank.
    output_lines: Range<usize>,
}

/// The commands of a console block, in order.
fn transcript(block: &Block) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    // The block's first line after the fence, counting from 0.
    let first = block.line;
    for (i, line) in block.text.lines().enumerate() {
        if let Some(command) = line.strip_prefix("$ ") {
            out.push(Step {
                line: first + i + 1,
                command: command.to_string(),
                expected: String::new(),
                output_lines: first + i + 1..first + i + 1,
            });
        } else if let Some(step) = out.last_mut() {
            step.expected.push_str(line);
            step.expected.push('\n');
            // Blank lines after the output, before the next command or the
            // end of the block, are the document's, not the output's.
            if !line.trim_end().is_empty() {
                step.output_lines.end = first + i + 1;
            }
        } else {
            panic!(
                "{DOC}:{}: output before the first `$ ` command",
                first + i + 1
            );
        }
    }
    out
}

/// A command's real output as the document's lines: without blanks at line
/// ends or blank lines at the end, which the comparison ignores. Output the
/// document could not hold (a line that would read as a command or close
/// the block) is refused.
fn blessed_output(line: usize, actual: &str) -> String {
    let mut text = String::new();
    for l in normalize(actual) {
        if l.starts_with("$ ") || l.trim_start().starts_with("```") {
            panic!("{DOC}:{line}: cannot bless an output holding the line `{l}`");
        }
        text.push_str(l);
        text.push('\n');
    }
    text
}

/// The document with the given ranges of lines (counting from 0, in
/// increasing order) replaced; every other byte is kept, line ends included.
fn rewrite(doc: &str, rewrites: &[(Range<usize>, String)]) -> String {
    let crlf = doc.contains("\r\n");
    let lines: Vec<&str> = doc.split_inclusive('\n').collect();
    let mut out = String::with_capacity(doc.len());
    let mut next = 0;
    for (range, text) in rewrites {
        assert!(next <= range.start, "rewrites out of order");
        out.extend(lines[next..range.start].iter().copied());
        for l in text.lines() {
            out.push_str(l);
            out.push_str(if crlf { "\r\n" } else { "\n" });
        }
        next = range.end;
    }
    out.extend(lines[next..].iter().copied());
    out
}

/// Runs `grundy ARGS [< FILE]` in `dir`, without colour and at a fixed width.
fn run(dir: &Path, command: &str) -> Result<String, String> {
    let mut words = shell_words(command)?;
    if words.first().map(String::as_str) != Some("grundy") {
        return Err("only `grundy` commands can be checked".into());
    }
    let mut stdin = Stdio::null();
    if let Some(at) = words.iter().position(|w| w == "<") {
        let name = words.get(at + 1).ok_or("`<` needs a file name")?;
        let file = std::fs::File::open(dir.join(name))
            .map_err(|e| format!("no file `{name}` (tag a block `file={name}`): {e}"))?;
        stdin = Stdio::from(file);
        words.truncate(at);
    }
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(&words[1..])
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        // Infinite values of loopy games are written with ∞ in a UTF-8 locale.
        .env("LC_ALL", "C.UTF-8")
        .stdin(stdin)
        .output()
        .map_err(|e| e.to_string())?;
    Ok(format!(
        "{}{}",
        String::from_utf8_lossy(&output.stderr),
        String::from_utf8_lossy(&output.stdout)
    ))
}

/// Splits a command line the way a POSIX shell would for the simple cases
/// the document uses: blanks, '...' and "..." with \" and \\.
fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => words.extend(word.take()),
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("unclosed '".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '$' | '`')) => w.push(c),
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("unclosed \"".into()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("unclosed \"".into()),
                    }
                }
            }
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
}

/// Output compared line by line, ignoring blanks at line ends and blank
/// lines at the very end.
fn normalize(text: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    while lines.last() == Some(&"") {
        lines.pop();
    }
    lines
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    | {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_block_reader_understands_tags_and_continued_files() {
    let doc = "text\n```game file=a.game\ngame A() = [];\n```\n\n```game,fails=claim-failed\nclaim false;\n```\n```game file=a.game\nclaim true;\n```\n";
    let blocks = blocks(doc);
    assert_eq!(blocks.len(), 3);
    assert_eq!(blocks[0].line, 2);
    assert_eq!(blocks[0].file.as_deref(), Some("a.game"));
    assert_eq!(blocks[1].fails, Some(Some("claim-failed".to_string())));
    let texts = loadable_texts(&blocks);
    assert_eq!(texts[2], "game A() = [];\nclaim true;\n");
    assert_eq!(
        shell_words(r#"grundy value f.game 'A() + B("x y")' "a\"b""#).unwrap(),
        ["grundy", "value", "f.game", r#"A() + B("x y")"#, "a\"b"]
    );
}

#[test]
fn blessing_replaces_only_the_outputs_that_differ() {
    let doc = "Text\n```console\n$ grundy a\nold 1\nold 2\n\n$ grundy b\nsame  \n```\nEnd\n";
    let blocks = blocks(doc);
    let steps = transcript(&blocks[0]);
    assert_eq!(steps.len(), 2);
    assert_eq!((steps[0].line, steps[1].line), (3, 7));
    assert_eq!(steps[0].output_lines, 3..5);
    assert_eq!(steps[1].output_lines, 7..8);
    let new = blessed_output(3, "new 1  \n\nnew 3\n\n\n");
    let blessed = rewrite(doc, &[(steps[0].output_lines.clone(), new)]);
    assert_eq!(
        blessed,
        "Text\n```console\n$ grundy a\nnew 1\n\nnew 3\n\n$ grundy b\nsame  \n```\nEnd\n"
    );
    // An unchanged document is kept byte for byte, line ends included.
    let crlf = doc.replace('\n', "\r\n");
    assert_eq!(rewrite(&crlf, &[]), crlf);
}

/// Collapses every run of blanks and line breaks into one space, so that
/// prose can be searched whatever its line breaks.
fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// 4000000 as "4,000,000".
fn with_commas(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn the_documented_limits_are_the_real_ones() {
    let doc = one_line(&read_doc());
    let states = with_commas(grundy::eval::interp::DEFAULT_MAX_POSITIONS);
    let collection = with_commas(grundy::eval::builtins::MAX_COLLECTION);
    for phrase in [
        format!("The limit is {states} positions unless the option `--max-states N`"),
        format!("a list, range or string of more than {collection} elements"),
    ] {
        assert!(
            doc.contains(&phrase),
            "{DOC} should say \"{phrase}\", with the limit the code has"
        );
    }
    // The graph's limit is only known to the command line: ask it.
    let help = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["help", "graph"])
        .output()
        .expect("run grundy help graph");
    let help = String::from_utf8_lossy(&help.stdout);
    // Long help puts the default a few lines below the option's name.
    let nodes = help
        .lines()
        .skip_while(|l| !l.contains("--max-nodes"))
        .find(|l| l.contains("[default: "))
        .and_then(|l| l.split("[default: ").nth(1))
        .and_then(|rest| rest.split(']').next())
        .expect("`grundy help graph` shows the default of --max-nodes");
    let phrase = format!("A graph of more than {nodes} positions is refused");
    assert!(
        doc.contains(&phrase),
        "{DOC} should say \"{phrase}\", with the limit the command has"
    );
}
