//! `use "other.game";`: the files a file imports are loaded before it, each
//! once however many files import it, and a loop of imports is refused.
//!
//! A path in `use` is relative to the folder of the file that holds it. A
//! file is known by its canonical path, so `heaps.game` and
//! `./lib/../heaps.game` are one file. Every definition loaded is visible
//! to everything loaded after it: a session is one program, whichever file
//! a name comes from.

use super::Session;
use crate::error::{Error, ErrorKind, Errors};
use crate::source::Span;
use crate::syntax::ast::{File, Item, UseDecl};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// A file the session has read: its name as shown in diagnostics, and the
/// text it had, so that a reload can tell whether it changed.
#[derive(Clone, Debug)]
pub struct LoadedFile {
    pub name: String,
    pub text: String,
}

/// The files read so far, in the order they loaded, and a set of their
/// keys: a long chain of imports asks at every `use` whether a file is in.
#[derive(Clone, Debug, Default)]
pub(super) struct LoadedFiles {
    files: Vec<LoadedFile>,
    keys: HashSet<PathBuf>,
}

/// A file whose imports are being loaded.
#[derive(Clone, Debug, Default)]
pub(super) struct Importing {
    name: String,
    key: Option<PathBuf>,
    /// The `use` being followed now.
    following: Option<Span>,
}

/// The files whose imports are being loaded, outermost first, and where
/// each is on the stack.
#[derive(Clone, Debug, Default)]
pub(super) struct ImportStack {
    files: Vec<Importing>,
    at: HashMap<PathBuf, usize>,
}

impl ImportStack {
    fn push(&mut self, file: Importing) {
        if let Some(key) = &file.key {
            self.at.insert(key.clone(), self.files.len());
        }
        self.files.push(file);
    }

    fn pop(&mut self) {
        if let Some(key) = self.files.pop().and_then(|f| f.key) {
            self.at.remove(&key);
        }
    }
}

/// What a file is known by: its canonical path, when it is a file on disk.
fn key_of(path: &Path) -> Option<PathBuf> {
    std::fs::canonicalize(path).ok()
}

impl Session {
    /// Every file read so far, imports included, in the order they loaded
    /// (each after the files it imports).
    pub fn loaded_files(&self) -> &[LoadedFile] {
        &self.loaded.files
    }

    /// Whether the file at `path` has been loaded, directly or as an import.
    pub fn is_loaded(&self, path: &str) -> bool {
        key_of(Path::new(path)).is_some_and(|key| self.loaded.keys.contains(&key))
    }

    /// Notes that the text `name` loaded, if it is a file on disk, so that
    /// a later `use` of it does not load it again.
    pub(super) fn remember_file(&mut self, name: &str, text: &str) {
        if let Some(key) = key_of(Path::new(name)) {
            self.loaded.keys.insert(key);
            self.loaded.files.push(LoadedFile {
                name: name.to_string(),
                text: text.to_string(),
            });
        }
    }

    /// Loads the files `file` (named `name`) imports, and theirs, before
    /// its own definitions are checked.
    pub(super) fn load_imports(&mut self, name: &str, file: &File) -> Result<(), Errors> {
        let uses: Vec<&UseDecl> = file
            .items
            .iter()
            .filter_map(|item| match item {
                Item::Use(u) => Some(u),
                _ => None,
            })
            .collect();
        if uses.is_empty() {
            return Ok(());
        }
        self.importing.push(Importing {
            name: name.to_string(),
            key: key_of(Path::new(name)),
            following: None,
        });
        let result = uses.into_iter().try_for_each(|u| self.import(name, u));
        self.importing.pop();
        result
    }

    /// Loads the file one `use` in file `importer` names, unless it is
    /// loaded already.
    fn import(&mut self, importer: &str, u: &UseDecl) -> Result<(), Errors> {
        let folder = Path::new(importer).parent().unwrap_or(Path::new(""));
        let path = folder.join(&u.path);
        let name = path.to_string_lossy().into_owned();
        let key = key_of(&path);
        if let Some(key) = &key {
            if let Some(&at) = self.importing.at.get(key) {
                return Err(vec![self.import_cycle(at, u)]);
            }
            if self.loaded.keys.contains(key) {
                return Ok(());
            }
        }
        let text = crate::source::read_file(&name).map_err(|reason| {
            vec![Error::new(
                ErrorKind::ImportUnreadable {
                    path: name.clone(),
                    reason,
                },
                u.path_span,
            )]
        })?;
        if let Some(current) = self.importing.files.last_mut() {
            current.following = Some(u.path_span);
        }
        self.load_text(&name, &text).map_err(|errors| {
            // Each mistake in an imported file also says which `use`
            // brought the file in.
            errors
                .into_iter()
                .map(|e| {
                    if e.span == u.path_span || e.related.iter().any(|(s, _)| *s == u.path_span) {
                        e
                    } else {
                        e.with_related(u.path_span, "imported here")
                    }
                })
                .collect::<Errors>()
        })?;
        Ok(())
    }

    /// The loop closed by `u`, which names the file `importing[at]`: shown
    /// at `u`, with the `use` in each file on the loop that leads on.
    fn import_cycle(&self, at: usize, u: &UseDecl) -> Error {
        let on_loop = &self.importing.files[at..];
        let names: Vec<&str> = on_loop
            .iter()
            .map(|f| f.name.as_str())
            .chain([on_loop[0].name.as_str()])
            .collect();
        let mut error = Error::new(
            ErrorKind::ImportCycle {
                cycle: names.join(" -> "),
            },
            u.path_span,
        );
        for (file, next) in on_loop.iter().zip(&on_loop[1..]) {
            if let Some(span) = file.following {
                error = error.with_related(span, format!("imports `{}`", next.name));
            }
        }
        error
    }
}
