//! `:load` and `:reload`: the files a session reads, and reading them again.

use super::super::Output;
use super::commands::Entry;
use super::Repl;
use crate::error::{Error, ErrorKind, Errors};
use crate::source::Span;

impl Repl {
    /// Loads a file and the files it imports, remembering it for
    /// `:reload`.
    pub fn load(&mut self, path: &str) -> Result<(), Errors> {
        self.session.load_file(path)?;
        self.files.push(path.to_string());
        Ok(())
    }

    pub(super) fn load_command(
        &mut self,
        entry: &Entry,
        path: &str,
        out: &mut Output,
    ) -> Result<(), Errors> {
        if path.is_empty() {
            return Err(entry.missing("a file name"));
        }
        let named = self.files.iter().any(|p| p == path);
        if named || self.session.is_loaded(path) {
            let how = if named {
                ""
            } else {
                ", imported by a file loaded before"
            };
            return Err(entry.error(
                path,
                format!("`{path}` is already loaded{how}; `:reload` reads it again if it changed"),
            ));
        }
        let before = self.session.interp.program.games.len();
        self.load(path)?;
        let games: Vec<String> = self.session.interp.program.games[before..]
            .iter()
            .map(|g| g.name.clone())
            .collect();
        if games.is_empty() {
            out.line(format!("loaded {path}"));
        } else {
            out.line(format!("loaded {path}: {}", games.join(", ")));
        }
        Ok(())
    }

    /// Reads every loaded file again, imports included; if any changed,
    /// the session starts afresh from the files loaded and the definitions
    /// typed since.
    pub(super) fn reload(&mut self, out: &mut Output) -> Result<(), Errors> {
        let mut changed = Vec::new();
        let loaded: Vec<(String, String)> = self
            .session
            .loaded_files()
            .iter()
            .map(|f| (f.name.clone(), f.text.clone()))
            .collect();
        for (path, old) in loaded {
            match crate::source::read_file(&path) {
                Ok(text) if text != old => changed.push(path),
                Ok(_) => {}
                Err(e) => {
                    return Err(vec![self.session.file_error("read", &path, e)]);
                }
            }
        }
        if changed.is_empty() {
            out.line("no file changed; every value computed so far is kept");
            return Ok(());
        }
        let mut fresh = Repl::new(&super::super::Options {
            max_states: self.max_states,
        });
        let mut errors = Vec::new();
        for path in &self.files {
            match fresh.session.load_file(path) {
                Ok(()) => fresh.files.push(path.clone()),
                Err(e) => errors.extend(e),
            }
        }
        if !errors.is_empty() {
            out.errors(&errors, &fresh.session.sources);
            return Err(vec![Error::new(
                ErrorKind::BadValue {
                    detail: "the files did not load, so the session is as it was".into(),
                },
                Span::new(self.session.sources.add("<reload>", ""), 0, 0),
            )]);
        }
        for (i, text) in self.typed.iter().enumerate() {
            match fresh
                .session
                .load_text(&format!("<definition {}>", i + 1), text)
            {
                Ok(_) => fresh.typed.push(text.clone()),
                Err(e) => {
                    out.note("a definition typed earlier no longer fits, and is dropped:");
                    out.errors(&e, &fresh.session.sources);
                }
            }
        }
        fresh.names = self.names.clone();
        let kept = crate::reload::carry_over(&self.session, &mut fresh.session);
        // Each binding's value is worked out again under the new
        // definitions, from the text it is shown as.
        for (name, (value, _)) in &self.session.bindings {
            let shown = self.session.interp.show(value);
            match fresh.session.eval_typed(&shown) {
                Ok(binding) => {
                    fresh.session.bindings.insert(name.clone(), binding);
                }
                Err(e) => {
                    out.note(format!("`{name}` no longer has a value, and is dropped:"));
                    out.errors(&e, &fresh.session.sources);
                }
            }
        }
        *self = fresh;
        out.line(format!(
            "reloaded {}; {kept} values of games whose rules did not change are kept",
            changed.join(", ")
        ));
        Ok(())
    }
}
