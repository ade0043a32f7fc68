//! Where answers and diagnostics go, and whether they are in colour.

use crate::diagnostic;
use crate::error::Error;
use crate::source::Sources;
use std::io::{IsTerminal, Write};

pub struct Output {
    /// Colour only on a terminal, and never with NO_COLOR set.
    pub color: bool,
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
        }
    }

    /// One line of an answer on standard output.
    pub fn line(&mut self, text: impl AsRef<str>) {
        let mut stdout = std::io::stdout().lock();
        let _ = writeln!(stdout, "{}", text.as_ref());
    }

    /// Diagnostics on standard error.
    pub fn errors(&mut self, errors: &[Error], sources: &Sources) {
        let width = terminal_width();
        let mut stderr = std::io::stderr().lock();
        for e in errors {
            let _ = write!(
                stderr,
                "{}",
                diagnostic::render(e, sources, self.color, width)
            );
        }
    }

    /// A note on standard error (progress, summaries).
    pub fn note(&mut self, text: impl AsRef<str>) {
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
