//! Reading one entry and running it: a command, a query on a position, a
//! `let` binding, a definition, or an expression to evaluate.

use super::super::query::print_moves;
use super::super::{graph, plot, Output};
use super::{explain, lex, play, Input, Repl, Status};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::builtins::Builtin;
use crate::eval::ir::{Callable, GameKind};
use crate::eval::PosId;
use crate::source::{SourceId, Span};
use std::sync::Arc;

/// One command of the REPL, for `:help` and for completion.
pub struct Command {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
}

pub const COMMANDS: &[Command] = &[
    Command {
        name: "value",
        usage: "value POSITION",
        about: "the Grundy value (nim-value) of a position or a sum",
    },
    Command {
        name: "outcome",
        usage: "outcome POSITION",
        about: "P (the player to move loses) or N (the player to move wins)",
    },
    Command {
        name: "misere",
        usage: "misere POSITION",
        about: "P or N under misère play, where whoever cannot move wins",
    },
    Command {
        name: "moves",
        usage: "moves POSITION",
        about: "every move, the position it leads to and its value; winning moves marked",
    },
    Command {
        name: "win",
        usage: "win POSITION",
        about: "the winning moves only",
    },
    Command {
        name: "explain",
        usage: "explain POSITION",
        about: "why the value is what it is: the mex of the options, or the xor of a sum's parts",
    },
    Command {
        name: "height",
        usage: "height POSITION",
        about: "the length of the longest play from the position",
    },
    Command {
        name: "table",
        usage: "table GAME N",
        about:
            "the nim-sequence g(0..=N) of a game with one natural-number parameter, and its period",
    },
    Command {
        name: "play",
        usage: "play POSITION [first|second]",
        about: "play against the computer (you move first unless you say `second`)",
    },
    Command {
        name: "let",
        usage: "let NAME = EXPRESSION",
        about: "name a position or a value for later entries, such as `let p = Nim([3, 5, 7])`",
    },
    Command {
        name: ":load",
        usage: ":load FILE",
        about: "load a .game file",
    },
    Command {
        name: ":reload",
        usage: ":reload",
        about:
            "read the loaded files again if they changed, keeping bindings and typed definitions",
    },
    Command {
        name: ":games",
        usage: ":games",
        about: "each game with its parameters, and the helper functions",
    },
    Command {
        name: ":show",
        usage: ":show NAME",
        about: "the source of a game, function or constant",
    },
    Command {
        name: ":graph",
        usage: ":graph POSITION [-o FILE.dot] [--max-nodes N]",
        about:
            "write the game graph in Graphviz DOT, each position with its value (default graph.dot)",
    },
    Command {
        name: ":plot",
        usage: ":plot GAME N [-o FILE.svg]",
        about: "draw the nim-sequence g(0..=N) as an SVG scatter plot (default GAME.svg)",
    },
    Command {
        name: ":help",
        usage: ":help [TOPIC]",
        about: "this list, or more on one command or topic",
    },
    Command {
        name: ":quit",
        usage: ":quit",
        about: "leave (Ctrl-D does too)",
    },
];

/// Help topics that are not commands.
const TOPICS: &[(&str, &str)] = &[
    (
        "positions",
        "A POSITION is written in the language: a game applied to its arguments, such as
`Nim([3, 5, 7])` or `Candy(3, 4)`, or a sum of positions of any games, such as
`T(8) + T(12) + T(13)` or `Heap(3) + Kayles(4)`. Names bound by `let` may be used.",
    ),
    (
        "definitions",
        "Anything starting with `game`, `fn`, `const` or `claim` is a definition, as in a
.game file; claims are checked at once. A definition may run over several lines:
the entry goes on while a bracket is open, a line ends in the middle of an
expression, or the definition has not reached its `;` or closing `}`. An empty
line ends it in any case. See docs/language.md for the language.",
    ),
    (
        "keys",
        "Tab completes commands, names and (after :load) file names; the grey hint
after the cursor comes from your history (Right arrow takes it). Ctrl-C clears
the line, or stops a computation (the values found so far are kept); Ctrl-D
leaves. History is kept in grundy's folder of your data directory.",
    ),
    (
        "scripts",
        "When standard input is not a terminal, grundy repl reads its entries from it
and prints only answers and diagnostics, with no prompts (`--echo` shows each
entry after a prompt, as on a terminal). The exit status is 1 if any entry failed.",
    ),
];

/// The words the completer offers at the start of a line.
pub fn command_words() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
}

/// An entry as typed, registered as a source so diagnostics can point
/// into it.
struct Entry<'t> {
    text: &'t str,
    source: SourceId,
}

impl Entry<'_> {
    /// The span of `part`, which must be a slice of the entry's text (the
    /// end of the entry otherwise).
    fn span(&self, part: &str) -> Span {
        let base = self.text.as_ptr() as usize;
        let at = part.as_ptr() as usize;
        if at >= base && at + part.len() <= base + self.text.len() {
            Span::new(self.source, at - base, at - base + part.len())
        } else {
            self.end()
        }
    }

    fn end(&self) -> Span {
        Span::new(self.source, self.text.len(), self.text.len())
    }

    fn error(&self, part: &str, detail: impl Into<String>) -> Errors {
        vec![Error::new(
            ErrorKind::BadValue {
                detail: detail.into(),
            },
            self.span(part),
        )]
    }

    fn missing(&self, expected: &str) -> Errors {
        vec![Error::new(
            ErrorKind::Syntax {
                expected: expected.into(),
                found: "the end of the line".into(),
                hint: None,
            },
            self.end(),
        )]
    }
}

/// The first word and the rest, both slices of `text`.
fn split_word(text: &str) -> (&str, &str) {
    let text = text.trim();
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, &text[text.len()..]),
    }
}

/// `ARGS -o FILE`: the arguments and the file, if one is named.
fn split_output(rest: &str) -> (&str, Option<&str>) {
    match rest.rfind(" -o ") {
        Some(i) => (rest[..i].trim(), Some(rest[i + 4..].trim())),
        None => (rest, None),
    }
}

impl Repl {
    /// Runs one entry; its answers and diagnostics are printed.
    pub fn handle(&mut self, text: &str, input: &mut dyn Input, out: &mut Output) -> Status {
        crate::interrupt::clear();
        let trimmed = text.trim();
        if trimmed.is_empty() || trimmed.starts_with("//") && !trimmed.contains('\n') {
            return Status::Done;
        }
        let source = self.session.sources.add("<input>", text);
        let entry = Entry { text, source };
        let (word, rest) = split_word(text);
        let result = match word {
            ":quit" | ":q" | ":exit" => return Status::Quit,
            ":help" | ":h" | ":?" => self.help(&entry, rest, out),
            ":load" | ":l" => self.load_command(&entry, rest, out),
            ":reload" | ":r" => self.reload(out),
            ":games" => {
                self.games(out);
                Ok(())
            }
            ":show" => self.show(&entry, rest, out),
            ":graph" => self.graph(&entry, rest, out),
            ":plot" => self.plot(&entry, rest, out),
            "value" => self
                .position(&entry, rest)
                .and_then(|p| self.session.value(&p))
                .map(|v| out.line(v.to_string())),
            // Plain P or N, as `grundy outcome` prints, so scripts can read it.
            "outcome" => self
                .position(&entry, rest)
                .and_then(|p| self.session.value(&p))
                .map(|v| out.line(if v == 0 { "P" } else { "N" })),
            "misere" => self
                .position(&entry, rest)
                .and_then(|p| self.session.misere_wins(&p))
                .map(|wins| out.line(if wins { "N" } else { "P" })),
            "height" => self
                .position(&entry, rest)
                .and_then(|p| self.session.height(&p))
                .map(|h| out.line(h.to_string())),
            "moves" | "win" => self
                .position(&entry, rest)
                .and_then(|p| print_moves(&mut self.session, &p, word == "win", false, out)),
            "explain" => self
                .position(&entry, rest)
                .and_then(|p| explain::explain(&mut self.session, &p, out)),
            "table" => self.table(&entry, rest, out),
            "play" => {
                let (position, side) = match rest.rsplit_once(char::is_whitespace) {
                    Some((p, s @ ("first" | "second"))) => (p.trim(), s),
                    _ => (rest, "first"),
                };
                self.position(&entry, position)
                    .and_then(|p| play::play(&mut self.session, p, side == "first", input, out))
            }
            "let" => self.bind(&entry, rest, out),
            "game" | "fn" | "const" | "claim" => self.define(text, out),
            _ if word.starts_with(':') => Err(vec![Error::new(
                ErrorKind::UnknownName {
                    what: "command",
                    name: word.to_string(),
                    suggestion: crate::check::suggest::closest(
                        word,
                        COMMANDS
                            .iter()
                            .map(|c| c.name)
                            .filter(|n| n.starts_with(':')),
                    ),
                },
                entry.span(word),
            )]),
            _ if self.looks_like_a_command(word, rest) => Err(vec![Error::new(
                ErrorKind::UnknownName {
                    what: "command",
                    name: word.to_string(),
                    suggestion: crate::check::suggest::closest(word, command_words()),
                },
                entry.span(word),
            )]),
            _ => self.evaluate(text, out),
        };
        match result {
            Ok(()) => Status::Done,
            Err(errors) => {
                if errors.iter().any(|e| e.kind == ErrorKind::Interrupted) {
                    out.note("interrupted; the values computed so far are kept");
                } else {
                    out.errors(&errors, &self.session.sources);
                }
                Status::Failed
            }
        }
    }

    /// `vlaue Heap(3)`: a word that is no name, followed by more words, is
    /// a misspelled command rather than an expression.
    fn looks_like_a_command(&self, word: &str, rest: &str) -> bool {
        !rest.is_empty()
            && !rest.starts_with(|c: char| "+-*/%^|&<>=.([{".contains(c))
            && word.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            && !lex::KEYWORDS.contains(&word)
            && !self.session.interp.program.callables.contains_key(word)
            && !self.bindings.contains_key(word)
            && Builtin::lookup(word).is_none()
            && !rest.starts_with("and ")
            && !rest.starts_with("or ")
            && !rest.starts_with("in ")
    }

    /// The text with every `let` name replaced by its value.
    fn expand(&self, text: &str) -> String {
        if self.bindings.is_empty() {
            return text.to_string();
        }
        lex::substitute(text, |name| self.bindings.get(name).cloned())
    }

    /// The position an argument names, `let` names expanded.
    fn position(&mut self, entry: &Entry, text: &str) -> Result<Arc<[PosId]>, Errors> {
        if text.is_empty() {
            return Err(entry.missing("a position, such as `Nim([3, 5, 7])`"));
        }
        let expanded = self.expand(text);
        self.session.position(&expanded)
    }

    fn evaluate(&mut self, text: &str, out: &mut Output) -> Result<(), Errors> {
        let expanded = self.expand(text.trim());
        let v = self.session.eval_text(&expanded)?;
        out.line(self.session.interp.show(&v));
        Ok(())
    }

    /// Loads a file, remembering its text for `:reload`.
    pub fn load(&mut self, path: &str) -> Result<(), Errors> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => {
                let source = self.session.sources.add(path, "");
                return Err(vec![Error::new(
                    ErrorKind::Io {
                        path: path.to_string(),
                        reason: e.to_string(),
                    },
                    Span::new(source, 0, 0),
                )]);
            }
        };
        self.session.load_text(path, &text)?;
        self.files.push((path.to_string(), text));
        Ok(())
    }

    fn load_command(&mut self, entry: &Entry, path: &str, out: &mut Output) -> Result<(), Errors> {
        if path.is_empty() {
            return Err(entry.missing("a file name"));
        }
        if self.files.iter().any(|(p, _)| p == path) {
            return Err(entry.error(
                path,
                format!("`{path}` is already loaded; `:reload` reads it again if it changed"),
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

    /// Reads every loaded file again; if any changed, the session starts
    /// afresh from the new texts and the definitions typed since.
    fn reload(&mut self, out: &mut Output) -> Result<(), Errors> {
        let mut texts = Vec::new();
        let mut changed = Vec::new();
        for (path, old) in &self.files {
            match std::fs::read_to_string(path) {
                Ok(text) => {
                    if &text != old {
                        changed.push(path.clone());
                    }
                    texts.push((path.clone(), text));
                }
                Err(e) => {
                    let source = self.session.sources.add(path.as_str(), "");
                    return Err(vec![Error::new(
                        ErrorKind::Io {
                            path: path.clone(),
                            reason: e.to_string(),
                        },
                        Span::new(source, 0, 0),
                    )]);
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
        for (path, text) in &texts {
            match fresh.session.load_text(path, text) {
                Ok(_) => fresh.files.push((path.clone(), text.clone())),
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
        fresh.bindings = std::mem::take(&mut self.bindings);
        fresh.names = self.names.clone();
        let kept = crate::reload::carry_over(&self.session, &mut fresh.session);
        *self = fresh;
        out.line(format!(
            "reloaded {}; {kept} values of games whose rules did not change are kept",
            changed.join(", ")
        ));
        Ok(())
    }

    /// A definition typed at the prompt; its claims are checked at once.
    fn define(&mut self, text: &str, out: &mut Output) -> Result<(), Errors> {
        let before = self.session.interp.program.clone();
        // Each typed definition is its own source, so a diagnostic that
        // points back at one ("first defined here") says which.
        let name = format!("<definition {}>", self.typed.len() + 1);
        let added = self.session.load_text(&name, text)?;
        self.typed.push(text.to_string());
        let program = self.session.interp.program.clone();
        let mut defined: Vec<String> = Vec::new();
        for (name, c) in &program.callables {
            if before.callables.contains_key(name) {
                continue;
            }
            defined.push(match c {
                Callable::Game(g) => format!("game {}", signature_of_game(&program, *g)),
                Callable::Function(f) => {
                    let f = &program.functions[*f as usize];
                    format!("fn {}({})", f.name, params(&f.params))
                }
            });
        }
        for c in &program.consts[before.consts.len()..] {
            defined.push(format!("const {}", c.name));
        }
        if !defined.is_empty() {
            out.line(format!("defined {}", defined.join(", ")));
        }
        if added > 0 {
            let failures: Vec<Error> = self
                .session
                .run_claims(self.session.claim_count() - added)
                .into_iter()
                .filter_map(|r| r.failure)
                .collect();
            if !failures.is_empty() {
                return Err(failures);
            }
            out.line(if added == 1 {
                "the claim holds".to_string()
            } else {
                format!("all {added} claims hold")
            });
        }
        Ok(())
    }

    /// `let NAME = EXPRESSION`: the value is computed now and kept as text.
    fn bind(&mut self, entry: &Entry, rest: &str, out: &mut Output) -> Result<(), Errors> {
        let Some((name, expr)) = rest.split_once('=') else {
            return Err(entry.missing("`=` and a value, as in `let p = Nim([3, 5, 7])`"));
        };
        let name = name.trim();
        let expr = expr.trim();
        let is_ident = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !is_ident || lex::KEYWORDS.contains(&name) {
            return Err(entry.error(
                name,
                format!("`{name}` cannot be a name: a name is letters, digits and `_`, not a reserved word"),
            ));
        }
        let program = &self.session.interp.program;
        if program.callables.contains_key(name)
            || program.consts.iter().any(|c| c.name == name)
            || Builtin::lookup(name).is_some()
        {
            return Err(entry.error(
                name,
                format!(
                    "`{name}` is already the name of a game, function or constant; pick another"
                ),
            ));
        }
        if expr.is_empty() {
            return Err(entry.missing("a value after `=`"));
        }
        let expanded = self.expand(expr);
        let v = self.session.eval_text(&expanded)?;
        let shown = self.session.interp.show(&v);
        out.line(format!("{name} = {shown}"));
        self.bindings.insert(name.to_string(), shown);
        Ok(())
    }

    fn help(&mut self, entry: &Entry, topic: &str, out: &mut Output) -> Result<(), Errors> {
        if topic.is_empty() {
            out.line("commands (POSITION is any position or sum, such as `Nim([3, 5, 7])`):");
            let width = COMMANDS.iter().map(|c| c.usage.len()).max().unwrap_or(0);
            for c in COMMANDS {
                out.line(format!("  {:<width$}  {}", c.usage, c.about));
            }
            out.line(
                "anything else is a definition (game, fn, const, claim) or an expression to evaluate",
            );
            let topics: Vec<&str> = TOPICS.iter().map(|t| t.0).collect();
            out.line(format!(
                "`:help COMMAND` tells more; other topics: {}",
                topics.join(", ")
            ));
            return Ok(());
        }
        let wanted = topic.trim_start_matches(':');
        if let Some(c) = COMMANDS
            .iter()
            .find(|c| c.name.trim_start_matches(':') == wanted)
        {
            out.line(c.usage);
            out.line(format!("  {}", c.about));
            if let Some(example) = example(c.name) {
                out.line(format!("  for example: {example}"));
            }
            return Ok(());
        }
        if let Some((_, text)) = TOPICS.iter().find(|t| t.0 == wanted) {
            out.line(*text);
            return Ok(());
        }
        let names = COMMANDS
            .iter()
            .map(|c| c.name.trim_start_matches(':'))
            .chain(TOPICS.iter().map(|t| t.0));
        Err(vec![Error::new(
            ErrorKind::UnknownName {
                what: "help topic",
                name: topic.to_string(),
                suggestion: crate::check::suggest::closest(wanted, names),
            },
            entry.span(topic),
        )])
    }

    fn games(&mut self, out: &mut Output) {
        let program = self.session.interp.program.clone();
        if program.games.is_empty() && program.functions.is_empty() {
            out.line("no games yet: `:load FILE` or type a `game` definition");
            return;
        }
        let rows: Vec<(String, String)> = program
            .games
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let what = match &g.kind {
                    GameKind::Rules { moves, lose, parts } => {
                        let mut what = format!(
                            "{} move rule{}",
                            moves.len(),
                            if moves.len() == 1 { "" } else { "s" }
                        );
                        if lose.is_some() {
                            what.push_str(", lose if");
                        }
                        if parts.is_some() {
                            what.push_str(", parts");
                        }
                        what
                    }
                    GameKind::Alias(_) => "another position or a sum".to_string(),
                    GameKind::Octal(code) => format!("octal {}", code.text),
                };
                (signature_of_game(&program, i as u32), what)
            })
            .collect();
        let width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
        if !rows.is_empty() {
            out.line("games:");
        }
        for (signature, what) in rows {
            out.line(format!("  {signature:<width$}  {what}"));
        }
        if !program.functions.is_empty() {
            out.line("functions:");
            for f in &program.functions {
                out.line(format!("  {}({})", f.name, params(&f.params)));
            }
        }
        if !program.consts.is_empty() {
            let names: Vec<&str> = program.consts.iter().map(|c| c.name.as_str()).collect();
            out.line(format!("constants: {}", names.join(", ")));
        }
    }

    fn show(&mut self, entry: &Entry, name: &str, out: &mut Output) -> Result<(), Errors> {
        if name.is_empty() {
            return Err(entry.missing("the name of a game, function or constant"));
        }
        let program = self.session.interp.program.clone();
        let span = match program.callables.get(name) {
            Some(Callable::Game(g)) => Some(program.games[*g as usize].span),
            Some(Callable::Function(f)) => Some(program.functions[*f as usize].span),
            None => program
                .consts
                .iter()
                .find(|c| c.name == name)
                .map(|c| c.span),
        };
        let Some(span) = span else {
            if let Some(b) = Builtin::lookup(name) {
                out.line(format!("{name} is built in: {}", b.doc()));
                return Ok(());
            }
            let names = program
                .callables
                .keys()
                .map(String::as_str)
                .chain(program.consts.iter().map(|c| c.name.as_str()));
            return Err(vec![Error::new(
                ErrorKind::UnknownName {
                    what: "game, function or constant",
                    name: name.to_string(),
                    suggestion: crate::check::suggest::closest(name, names),
                },
                entry.span(name),
            )]);
        };
        let Some(source) = self.session.sources.try_get(span.source) else {
            return Ok(());
        };
        let text = lex::definition_at(&source.text, span.start as usize).unwrap_or("");
        let line = source.text[..span.start as usize].matches('\n').count() + 1;
        out.line(format!("// {}:{line}", source.name));
        out.line(text.trim_end());
        Ok(())
    }

    fn table(&mut self, entry: &Entry, rest: &str, out: &mut Output) -> Result<(), Errors> {
        let (game, count) = split_word(rest);
        if game.is_empty() {
            return Err(entry.missing("a game and a count, as in `table T 30`"));
        }
        let g = self.session.heap_game(game)?;
        let upto = self.count(entry, count, 20)?;
        crate::cli::table::show(&mut self.session, g, game, upto, out)
    }

    /// A count typed after a command: a number, or an expression for one.
    fn count(&mut self, entry: &Entry, text: &str, default: u64) -> Result<u64, Errors> {
        if text.is_empty() {
            return Ok(default);
        }
        if let Ok(n) = text.parse() {
            return Ok(n);
        }
        let expanded = self.expand(text);
        match self.session.eval_text(&expanded)? {
            crate::eval::Value::Int(n) if n >= 0 => Ok(n as u64),
            other => {
                let shown = self.session.interp.show(&other);
                Err(entry.error(
                    text,
                    format!("expected a count (a natural number), found {shown}"),
                ))
            }
        }
    }

    fn graph(&mut self, entry: &Entry, rest: &str, out: &mut Output) -> Result<(), Errors> {
        let (rest, max_nodes) = match rest.rsplit_once("--max-nodes") {
            Some((before, count)) => (before.trim(), self.count(entry, count.trim(), 0)?),
            None => (rest, graph::DEFAULT_MAX_NODES as u64),
        };
        let (position, file) = split_output(rest);
        let file = file.unwrap_or("graph.dot");
        let parts = self.position(entry, position)?;
        let span = entry.span(position);
        let max_nodes = usize::try_from(max_nodes).unwrap_or(usize::MAX);
        let g = graph::build(&mut self.session, &parts, max_nodes, span)?;
        let dot = graph::dot(&self.session, &g, graph::Label::Value);
        write_file(entry, file, dot.as_bytes())?;
        let svg = match file.strip_suffix(".dot") {
            Some(stem) => format!("{stem}.svg"),
            None => format!("{file}.svg"),
        };
        out.line(format!(
            "wrote the game graph of {} ({}, {}) to {file}; `dot -Tsvg {file} -o {svg}` draws it",
            self.session.show_sum(&parts),
            plural(g.nodes.len(), "position", "positions"),
            plural(g.edge_count(), "move", "moves")
        ));
        Ok(())
    }

    fn plot(&mut self, entry: &Entry, rest: &str, out: &mut Output) -> Result<(), Errors> {
        let (args, file) = split_output(rest);
        let (game, count) = split_word(args);
        if game.is_empty() {
            return Err(entry.missing("a game and a count, as in `:plot T 100`"));
        }
        let g = self.session.heap_game(game)?;
        let upto = self.count(entry, count, 100)?;
        let default = format!("{game}.svg");
        let file = file.unwrap_or(&default);
        let values = self.session.table(g, upto, |_, _| {})?;
        let svg = plot::svg(game, &values).map_err(|reason| entry.error(rest, reason))?;
        write_file(entry, file, svg.as_bytes())?;
        out.line(format!(
            "wrote the plot of g(n) for {game}, n = 0..={upto}, to {file}"
        ));
        Ok(())
    }
}

fn write_file(entry: &Entry, path: &str, bytes: &[u8]) -> Result<(), Errors> {
    std::fs::write(path, bytes)
        .map_err(|e| entry.error(path, format!("cannot write `{path}`: {e}")))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn params(params: &[crate::eval::ir::Param]) -> String {
    params
        .iter()
        .map(|p| match p.ty {
            crate::types::Type::Unknown => p.name.clone(),
            ref ty => format!("{}: {ty}", p.name),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// `Heap(n: nat)`, or `Kayles` for an octal game.
fn signature_of_game(program: &crate::eval::Program, g: u32) -> String {
    let game = &program.games[g as usize];
    match game.kind {
        GameKind::Octal(_) => format!("{}(n: nat)", game.name),
        _ => format!("{}({})", game.name, params(&game.params)),
    }
}

fn example(command: &str) -> Option<&'static str> {
    Some(match command {
        "value" => "value Nim([3, 5, 7])",
        "outcome" => "outcome Candy(3, 4) + Candy(1, 2)",
        "misere" => "misere Nim([1, 1])",
        "moves" => "moves T(8) + T(12) + T(13)",
        "win" => "win Nim([3, 5, 7])",
        "explain" => "explain Nim([3, 5, 7])",
        "height" => "height Candy(3, 4)",
        "table" => "table T 30",
        "play" => "play Nim([1, 2, 3]) second",
        "let" => "let p = Nim([3, 5, 7])",
        ":load" => ":load examples/nim.game",
        ":show" => ":show Heap",
        ":graph" => ":graph Candy(3, 4) -o candy.dot",
        ":plot" => ":plot T 100 -o t.svg",
        _ => return None,
    })
}
