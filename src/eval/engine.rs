//! Which engine answered for each game, and why a faster one could not.
//!
//! grundy has several ways to run a game's rules: the heap kernel (octal
//! codes, and heap rules read as take-and-break moves), the heap-rule
//! reader's own table, the compiled search of packed keys and the
//! reference interpreter. Each faster way compiles only part of the
//! language; when it turns a game down it says which construct stopped it
//! and where (`Unsupported`), so that `--stats` can tell the user what to
//! change.

use crate::source::Span;

/// A construct a fast path cannot compile: what it is (and what the path
/// accepts instead), and where it is written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    pub what: String,
    pub span: Span,
}

impl Unsupported {
    pub fn new(what: impl Into<String>, span: Span) -> Unsupported {
        Unsupported {
            what: what.into(),
            span,
        }
    }
}

/// What compiling for a fast path gives: the compiled form, or the reason.
pub type Compiled<T> = Result<T, Unsupported>;

/// Turns a helper's bare "no" into a reason.
pub trait OrUnsupported<T> {
    fn or_unsupported(self, what: &str, span: Span) -> Compiled<T>;
}

impl<T> OrUnsupported<T> for Option<T> {
    fn or_unsupported(self, what: &str, span: Span) -> Compiled<T> {
        self.ok_or_else(|| Unsupported::new(what, span))
    }
}

/// The ways a game's rules can run, fastest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Path {
    /// The dense heap kernel, on an octal code.
    HeapKernel(String),
    /// Heap rules read as take-and-break moves, run by the heap kernel.
    HeapKernelRules,
    /// Heap rules read as arithmetic and tabulated by the reader.
    HeapRuleReader,
    /// The rules compiled to code over packed keys.
    CompiledSearch,
    /// The same code, listing each heap's options in turn for a table
    /// filled upwards from heap 0.
    CompiledTable,
    /// The same code, listing the options of one position at a time.
    CompiledOptions,
    /// The reference interpreter.
    Interpreter,
}

impl Path {
    pub fn describe(&self) -> String {
        match self {
            Path::HeapKernel(code) => format!("the heap kernel (octal {code})"),
            Path::HeapKernelRules => {
                "the heap kernel (rules read as take-and-break moves)".to_string()
            }
            Path::HeapRuleReader => "the heap-rule reader".to_string(),
            Path::CompiledSearch => "the compiled search of packed keys".to_string(),
            Path::CompiledTable => {
                "the compiled code of packed keys, heap by heap upwards".to_string()
            }
            Path::CompiledOptions => {
                "the compiled code of packed keys, one position at a time".to_string()
            }
            Path::Interpreter => "the reference interpreter".to_string(),
        }
    }
}

/// What happened to one game in one question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Engine {
    pub game: u32,
    pub path: Path,
    /// The faster paths that turned the game down, by name, with why.
    pub declined: Vec<(&'static str, Unsupported)>,
}

/// The engines used since the log was last cleared, one entry per game and
/// path, in the order they were first used.
#[derive(Clone, Debug, Default)]
pub struct EngineLog {
    pub entries: Vec<Engine>,
}

impl EngineLog {
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Records that `game` ran on `path`, and why faster paths turned it
    /// down; each path's first reason is kept.
    pub fn record(&mut self, game: u32, path: Path, declined: Vec<(&'static str, Unsupported)>) {
        let at = match self
            .entries
            .iter()
            .position(|e| e.game == game && e.path == path)
        {
            Some(at) => at,
            None => {
                self.entries.push(Engine {
                    game,
                    path,
                    declined: Vec::new(),
                });
                self.entries.len() - 1
            }
        };
        let entry = &mut self.entries[at];
        for (by, why) in declined {
            if !entry.declined.iter().any(|(b, _)| *b == by) {
                entry.declined.push((by, why));
            }
        }
    }
}
