//! Where answers and diagnostics go, and whether they are in colour.

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
        }
    }

    /// An output that writes nothing and keeps the diagnostics it is
    /// given, rendered without colour.
    pub fn silent() -> Output {
        Output {
            color: false,
            kept: Some(Vec::new()),
            json_errors: false,
        }
    }

    /// The diagnostics a silent output kept.
    pub fn kept(&self) -> &[String] {
        self.kept.as_deref().unwrap_or_default()
    }

    /// One line of an answer on standard output.
    pub fn line(&mut self, text: impl AsRef<str>) {
        if self.kept.is_some() {
            return;
        }
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{}", text.as_ref());
    }

    /// Many lines of an answer on standard output, written by `write`
    /// through one buffer (standard output alone flushes every line).
    pub fn lines(&mut self, write: impl FnOnce(&mut dyn Write) -> std::io::Result<()>) {
        if self.kept.is_some() {
            return;
        }
        let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let _ = write(&mut stdout).and_then(|()| stdout.flush());
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
