//! Where answers and diagnostics go, and whether they are in colour.
//!
//! An answer that cannot be written (a full disk) is an error: the first
//! failure is kept, nothing more is written, and the command ends with it
//! (`write_failure`). A reader that closes its end of a pipe early (`|
//! head`) ends grundy quietly with status 141, as it ends other Unix tools.
//!
//! A standard output closed before grundy starts (`>&-`) cannot be told
//! apart: the Rust runtime opens `/dev/null` read-write in its place, just
//! as scripts do that throw the answer away on purpose (Python's
//! `subprocess.DEVNULL`, daemons), so both are taken as `/dev/null`.

use crate::diagnostic;
use crate::error::Error;
use crate::source::Sources;
use std::io::{IsTerminal, Write};

pub struct Output {
    /// Colour only on a terminal, and never with NO_COLOR set.
    pub color: bool,
    /// Write nothing, and keep each rendered diagnostic here instead (the
    /// REPL fuzz target).
    kept: Option<Vec<String>>,
    /// Diagnostics as one JSON document on standard output (`--json`),
    /// for a script to read, instead of text on standard error.
    json_errors: bool,
    /// Why standard output could not be written, once it could not.
    failed: Option<std::io::Error>,
}

impl Default for Output {
    fn default() -> Self {
        Self::new()
    }
}

impl Output {
    pub fn new() -> Output {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        Output {
            color: !no_color && std::io::stderr().is_terminal(),
            kept: None,
            json_errors: false,
            failed: None,
        }
    }

    /// An output that writes nothing and keeps the diagnostics it is
    /// given, rendered without colour.
    pub fn silent() -> Output {
        Output {
            color: false,
            kept: Some(Vec::new()),
            json_errors: false,
            failed: None,
        }
    }

    /// The diagnostics a silent output kept.
    pub fn kept(&self) -> &[String] {
        self.kept.as_deref().unwrap_or_default()
    }

    /// One line of an answer on standard output.
    pub fn line(&mut self, text: impl AsRef<str>) {
        self.write(|stdout| writeln!(stdout, "{}", text.as_ref()));
    }

    /// Many lines of an answer on standard output, written by `write`
    /// through one buffer (standard output alone flushes every line).
    pub fn lines(&mut self, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
        self.write(|stdout| {
            let mut buffered = std::io::BufWriter::with_capacity(1 << 16, stdout);
            write(&mut buffered).and_then(|()| buffered.flush())
        });
    }

    /// Writes to standard output unless an earlier write failed, and keeps
    /// the first failure.
    fn write(&mut self, write: impl FnOnce(&mut std::io::StdoutLock) -> std::io::Result<()>) {
        if self.kept.is_some() || self.failed.is_some() {
            return;
        }
        if let Err(e) = write(&mut std::io::stdout().lock()) {
            self.failed = Some(e);
        }
    }

    /// Whether an answer could not be written: nothing more will be.
    pub fn write_failed(&self) -> bool {
        self.failed.is_some()
    }

    /// Why an answer could not be written, if one could not.
    pub fn write_failure(&mut self) -> Option<std::io::Error> {
        self.failed.take()
    }

    /// From now on, diagnostics go to standard output as JSON.
    pub fn json_errors(&mut self) {
        self.json_errors = true;
    }

    /// Diagnostics on standard error, or under `--json` one document on
    /// standard output.
    pub fn errors(&mut self, errors: &[Error], sources: &Sources) {
        if self.json_errors {
            self.line(super::json::errors(errors, sources).to_string());
            return;
        }
        let width = terminal_width();
        let mut stderr = std::io::stderr().lock();
        for e in errors {
            let text = diagnostic::render(e, sources, self.color, width);
            match &mut self.kept {
                Some(kept) => kept.push(text),
                None => {
                    let _ = write!(stderr, "{text}");
                }
            }
        }
    }

    /// Warnings on standard error; under `--json`, where standard output
    /// is one document for programs, they are left out.
    pub fn warnings(&mut self, warnings: &[Error], sources: &Sources) {
        if !self.json_errors {
            self.errors(warnings, sources);
        }
    }

    /// Ctrl-C stopped the command: a note on standard error, or under
    /// `--json` an errors document that says so.
    pub fn interrupted(&mut self) {
        if self.json_errors {
            self.line(super::json::interrupted().to_string());
        } else {
            self.note("interrupted");
        }
    }

    /// A note on standard error (progress, summaries).
    pub fn note(&mut self, text: impl AsRef<str>) {
        if self.kept.is_some() {
            return;
        }
        let mut stderr = std::io::stderr().lock();
        let _ = writeln!(stderr, "{}", text.as_ref());
    }
}

fn terminal_width() -> usize {
    std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(100)
}
