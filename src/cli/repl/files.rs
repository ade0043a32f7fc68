//! `:load`, `:reload` and `:reset`: the files a session reads, reading
//! them again, and going back to them alone.

use super::super::Output;
use super::commands::Entry;
use super::{plural, Repl};
use crate::error::{Error, ErrorKind, Errors};
use crate::session::span_of;
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
            ascii: self.session.ascii,
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
        // The definitions typed and in force (a replaced one as it reads
        // now, a failed claim not at all) are read again after the files:
        // together, since one may use another typed after it, or else one
        // by one, so that those that still fit are kept.
        let texts: Vec<&str> = self
            .session
            .typed_definitions()
            .map(|item| self.session.sources.slice(span_of(item)))
            .collect();
        fresh.definitions_typed = self.definitions_typed;
        if !texts.is_empty()
            && fresh
                .session
                .define("<typed definitions>", &texts.join("\n\n"))
                .is_err()
        {
            for text in texts {
                fresh.definitions_typed += 1;
                let name = format!("<definition {}>", fresh.definitions_typed);
                if let Err(e) = fresh.session.define(&name, text) {
                    out.note("a definition typed earlier no longer fits, and is dropped:");
                    out.errors(&e, &fresh.session.sources);
                }
            }
        }
        fresh.names = self.names.clone();
        let kept = crate::reload::carry_over(&self.session, &mut fresh.session);
        // Each binding's value is worked out again under the new
        // definitions, from the text it is shown as.
        let shown = self
            .session
            .bindings
            .iter()
            .map(|(name, (value, _))| (name.clone(), self.session.interp.show(value)))
            .collect();
        for (name, e) in fresh.session.rebind(shown) {
            out.note(format!("`{name}` no longer has a value, and is dropped:"));
            out.errors(&e, &fresh.session.sources);
        }
        *self = fresh;
        out.line(format!(
            "reloaded {}; {kept} values of games whose rules did not change are kept",
            changed.join(", ")
        ));
        Ok(())
    }

    /// Forgets what was typed in this session (definitions, `let` names)
    /// and every value computed, keeping the loaded files: the session is
    /// as `grundy repl FILES` started it, with the files' texts as they
    /// were read.
    pub(super) fn reset(
        &mut self,
        entry: &Entry,
        rest: &str,
        out: &mut Output,
    ) -> Result<(), Errors> {
        if !rest.is_empty() {
            return Err(entry.error(
                rest,
                "`:reset` takes nothing: it forgets every definition typed and every value",
            ));
        }
        let mut fresh = Repl::new(&super::super::Options {
            max_states: self.max_states,
            ascii: self.session.ascii,
        });
        for path in &self.files {
            let read = self.session.loaded_files().iter().find(|f| &f.name == path);
            match read {
                Some(file) => fresh.session.load_text(path, &file.text.clone())?,
                None => fresh.session.load_file(path).map(|()| 0)?,
            };
        }
        fresh.files = self.files.clone();
        fresh.names = self.names.clone();
        fresh.timing = self.timing;
        let definitions = self.session.typed_definitions().count();
        let bindings = self.session.bindings.len();
        *self = fresh;
        let mut note = format!(
            "forgot {} and {} typed in this session, and every value computed",
            plural(definitions, "definition"),
            plural(bindings, "`let` name"),
        );
        if !self.files.is_empty() {
            let files: Vec<&str> = self.files.iter().map(String::as_str).collect();
            note.push_str(&format!("; still loaded: {}", files.join(", ")));
        }
        out.line(note);
        Ok(())
    }
}
