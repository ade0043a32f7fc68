//! `:save FILE`: the definitions typed in this session, as a .game file.

use super::super::Output;
use super::commands::{write_file, Entry};
use super::Repl;
use crate::error::Errors;
use crate::session::{span_of, Session};

/// What `:save` adds to an existing file name to replace the file.
const FORCE: &str = "--force";

impl Repl {
    /// Writes the definitions typed in this session and still in force
    /// (a replaced one is written as it reads now, where it first came),
    /// and the claims that held, in order. An existing file is replaced
    /// only when `--force` says so.
    pub(super) fn save(
        &mut self,
        entry: &Entry,
        rest: &str,
        out: &mut Output,
    ) -> Result<(), Errors> {
        let (path, force) = match rest.strip_suffix(FORCE) {
            Some(path) => (path.trim(), true),
            None => (rest, false),
        };
        if path.is_empty() {
            return Err(entry.missing("a file name, as in `:save mine.game`"));
        }
        let texts: Vec<&str> = self
            .session
            .typed_definitions()
            .map(|item| self.session.sources.slice(span_of(item)))
            .collect();
        if texts.is_empty() {
            return Err(entry.error(
                path,
                "nothing to save: no definition has been typed in this session",
            ));
        }
        if !force && std::path::Path::new(path).exists() {
            return Err(entry.error(
                path,
                format!("`{path}` exists already; `:save {path} {FORCE}` replaces it"),
            ));
        }
        let mut text = texts.join("\n\n");
        text.push('\n');
        write_file(entry, path, text.as_bytes())?;
        let count = texts.len();
        out.line(format!(
            "wrote {count} definition{} to {path}",
            if count == 1 { "" } else { "s" }
        ));
        // Definitions that use games of the loaded files need them
        // beside them.
        if !self.files.is_empty() && Session::new().load_text(path, &text).is_err() {
            let files: Vec<&str> = self.files.iter().map(String::as_str).collect();
            out.line(format!(
                "they use definitions of {}: `grundy repl {} {path}` loads them together",
                files.join(", "),
                files.join(" ")
            ));
        }
        Ok(())
    }
}
