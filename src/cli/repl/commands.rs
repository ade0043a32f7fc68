//! Reading one entry and running it: a command, a query on a position, a
//! `let` binding, a definition, or an expression to evaluate.

use super::super::query::print_moves;
use super::super::{graph, plot, Output};
use super::help::{command_words, COMMANDS};
use super::{explain, lex, play, Input, Repl, Status};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::builtins::Builtin;
use crate::eval::ir::{Callable, GameKind};
use crate::eval::PosId;
use crate::source::{SourceId, Span};
use std::sync::Arc;

/// An entry as typed, registered as a source so diagnostics can point
/// into it.
pub(super) struct Entry<'t> {
    text: &'t str,
    source: SourceId,
}

impl Entry<'_> {
    /// The span of `part`, which must be a slice of the entry's text (the
    /// end of the entry otherwise).
    pub(super) fn span(&self, part: &str) -> Span {
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

    pub(super) fn error(&self, part: &str, detail: impl Into<String>) -> Errors {
        vec![Error::new(
            ErrorKind::BadValue {
                detail: detail.into(),
            },
            self.span(part),
        )]
    }

    pub(super) fn missing(&self, expected: &str) -> Errors {
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

impl Repl {
    /// Whether `word` is a `let` name or a constant, so that typing it asks
    /// for its value rather than running the command of the same name.
    fn names_a_value(&self, word: &str) -> bool {
        self.session.bindings.contains_key(word)
            || self
                .session
                .interp
                .program
                .consts
                .iter()
                .any(|c| c.name == word)
    }
}

/// An empty entry, or a comment alone: nothing to run.
fn is_blank(text: &str) -> bool {
    let trimmed = text.trim();
    trimmed.is_empty() || trimmed.starts_with("//") && !trimmed.contains('\n')
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
    /// Runs one entry; its answers and diagnostics are printed, and the
    /// time it took when timing is on.
    pub fn handle(&mut self, text: &str, input: &mut dyn Input, out: &mut Output) -> Status {
        let (word, rest) = split_word(text);
        if word == ":time" {
            return self.time(rest, input, out);
        }
        if !self.timing || is_blank(text) {
            return self.run(text, input, out);
        }
        let start = std::time::Instant::now();
        let status = self.run(text, input, out);
        if status != Status::Quit {
            out.note(super::time::took(start.elapsed()));
        }
        status
    }

    /// Runs one entry.
    pub(super) fn run(&mut self, text: &str, input: &mut dyn Input, out: &mut Output) -> Status {
        crate::interrupt::clear();
        if is_blank(text) {
            return Status::Done;
        }
        let source = self.session.sources.add("<input>", text);
        let entry = Entry { text, source };
        let (word, rest) = split_word(text);
        let result = match word {
            ":quit" | ":q" | ":exit" => return Status::Quit,
            // Typed without the colon, as in most shells, unless the word
            // names a value of the session's own.
            "quit" | "exit" if rest.is_empty() && !self.names_a_value(word) => return Status::Quit,
            ":help" | ":h" | ":?" => self.help(&entry, rest, out),
            "help" if !self.names_a_value(word) => self.help(&entry, rest, out),
            ":load" | ":l" => self.load_command(&entry, rest, out),
            ":reload" | ":r" => self.reload(out),
            ":reset" => self.reset(&entry, rest, out),
            ":save" => self.save(&entry, rest, out),
            ":games" => {
                self.games(out);
                Ok(())
            }
            ":show" => self.show(&entry, rest, out),
            ":graph" => self.graph(&entry, rest, out),
            ":plot" => self.plot(&entry, rest, out),
            "value" => self
                .position(&entry, rest)
                .and_then(|p| self.session.general_value(&p))
                .map(|v| out.line(self.session.show_value(&v))),
            // Plain P, N or D, as `grundy outcome` prints, so scripts can read it.
            "outcome" => self
                .position(&entry, rest)
                .and_then(|p| self.session.general_value(&p))
                .map(|v| out.line(v.outcome().letter())),
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
            // `let y = 3; y + 1` is an expression, not a binding.
            "let" if !is_expression(text) => self.bind(&entry, rest, out),
            "game" | "fn" | "const" | "claim" | "use" => self.define(text, out),
            "loopy" if rest.starts_with("game") => self.define(text, out),
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
        let warnings = self.session.take_warnings();
        out.warnings(&warnings, &self.session.sources);
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
            && !self.session.bindings.contains_key(word)
            && Builtin::lookup(word).is_none()
            && !rest.starts_with("and ")
            && !rest.starts_with("or ")
            && !rest.starts_with("in ")
    }

    /// The position an argument names (`let` names are variables in it).
    fn position(&mut self, entry: &Entry, text: &str) -> Result<Arc<[PosId]>, Errors> {
        if text.is_empty() {
            return Err(entry.missing("a position, such as `Nim([3, 5, 7])`"));
        }
        self.session.position(text)
    }

    fn evaluate(&mut self, text: &str, out: &mut Output) -> Result<(), Errors> {
        let v = self.session.eval_text(text.trim())?;
        out.line(self.session.interp.show(&v));
        Ok(())
    }

    /// A definition typed at the prompt; its claims are checked at once,
    /// and a name already defined gets the new definition.
    fn define(&mut self, text: &str, out: &mut Output) -> Result<(), Errors> {
        let before = self.session.interp.program.clone();
        // Each typed definition is its own source, so a diagnostic that
        // points back at one ("first defined here") says which.
        self.definitions_typed += 1;
        let name = format!("<definition {}>", self.definitions_typed);
        let done = self.session.define(&name, text)?;
        let program = self.session.interp.program.clone();
        let mut defined: Vec<String> = Vec::new();
        let mut replaced: Vec<String> = Vec::new();
        for (name, c) in &program.callables {
            let shown = match c {
                Callable::Game(g) => format!("game {}", signature_of_game(&program, *g)),
                Callable::Function(f) => {
                    let f = &program.functions[*f as usize];
                    format!("fn {}({})", f.name, params(&f.params))
                }
            };
            if done.replaced.contains(name) {
                replaced.push(shown);
            } else if !before.callables.contains_key(name) {
                defined.push(shown);
            }
        }
        for c in &program.consts {
            if done.replaced.contains(&c.name) {
                replaced.push(format!("const {}", c.name));
            } else if !before.consts.iter().any(|old| old.name == c.name) {
                defined.push(format!("const {}", c.name));
            }
        }
        if !defined.is_empty() {
            out.line(format!("defined {}", defined.join(", ")));
        }
        if !replaced.is_empty() {
            out.line(replacement_note(&replaced, &done));
        }
        for (name, errors) in &done.unbound {
            out.note(format!("`{name}` no longer has a value, and is dropped:"));
            out.errors(errors, &self.session.sources);
        }
        if !done.dropped_claims.is_empty() {
            let count = done.dropped_claims.len();
            out.note(format!(
                "{} loaded earlier no longer {} with the new definition, and {} dropped:",
                plural(count, "claim", "claims"),
                if count == 1 { "checks" } else { "check" },
                if count == 1 { "is" } else { "are" },
            ));
            out.errors(&done.dropped_claims, &self.session.sources);
        }
        // A claim that does not hold is reported, not kept: the claims of
        // the session stay true, and `:save` writes them.
        let stale: Vec<(usize, Error)> = done
            .claims_to_rerun
            .iter()
            .filter_map(|&i| self.session.run_claim_at(i).map(|e| (i, e)))
            .collect();
        if !stale.is_empty() {
            out.note(format!(
                "{} typed earlier no longer {} with the new definition, and {} dropped:",
                plural(stale.len(), "claim", "claims"),
                if stale.len() == 1 { "holds" } else { "hold" },
                if stale.len() == 1 { "is" } else { "are" },
            ));
            let (indices, errors): (Vec<usize>, Vec<Error>) = stale.into_iter().unzip();
            out.errors(&errors, &self.session.sources);
            self.session.drop_claims(&indices);
        }
        if done.claims > 0 {
            let count = self.session.claim_count();
            let new: Vec<usize> = (count - done.claims..count).collect();
            let failures: Vec<Error> = new
                .iter()
                .filter_map(|&i| self.session.run_claim_at(i))
                .collect();
            if !failures.is_empty() {
                self.session.drop_claims(&new);
                return Err(failures);
            }
            out.line(if done.claims == 1 {
                "the claim holds".to_string()
            } else {
                format!("all {} claims hold", done.claims)
            });
        }
        Ok(())
    }

    /// `let NAME = EXPRESSION`: the value is computed now, and `NAME` is a
    /// variable holding it in everything typed after.
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
        let (v, ty) = self.session.eval_typed(expr)?;
        out.line(format!("{name} = {}", self.session.interp.show(&v)));
        self.session.bindings.insert(name.to_string(), (v, ty));
        Ok(())
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
                        if g.loopy {
                            what.push_str(", loopy");
                        }
                        if g.symmetry.is_some() {
                            what.push_str(", symmetry");
                        }
                        what
                    }
                    GameKind::Alias(_) => "another position or a sum".to_string(),
                    GameKind::Octal(code) => format!("octal {}", code.text),
                    GameKind::TakeBreak(code) => format!("octal {}", code.text),
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
        let (game, count) = crate::cli::table::split_game(rest);
        if game.is_empty() {
            return Err(entry.missing("a game and a count, as in `table T 30`"));
        }
        let family = self.session.family(game)?;
        // `10x10` for a grid; otherwise a count, or an expression for one.
        let upto = match count.parse() {
            Ok(upto) => upto,
            Err(_) => crate::cli::upto::Upto::Line(self.count(entry, count, 20)?),
        };
        crate::cli::table::show(&mut self.session, &family, game, upto, out)
    }

    /// A count typed after a command: a number, or an expression for one.
    fn count(&mut self, entry: &Entry, text: &str, default: u64) -> Result<u64, Errors> {
        if text.is_empty() {
            return Ok(default);
        }
        if let Ok(n) = text.parse() {
            return Ok(n);
        }
        match self.session.eval_text(text)? {
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
        let (game, count) = crate::cli::table::split_game(args);
        if game.is_empty() {
            return Err(entry.missing("a game and a count, as in `:plot T 100`"));
        }
        let family = self.session.family(game)?;
        let upto = self.count(entry, count, 100)?;
        let default = format!("{}.svg", game.split('(').next().unwrap_or(game).trim());
        let file = file.unwrap_or(&default);
        let (values, known) = plot::sequence(&mut self.session, &family, upto)?;
        let bytes = plot::render(game, &values, known, file, plot::DEFAULT_SIZE)
            .map_err(|reason| entry.error(rest, reason))?;
        write_file(entry, file, &bytes)?;
        out.line(format!(
            "wrote the plot of g(n) for {game}, n = 0..={upto}, to {file}"
        ));
        Ok(())
    }
}

/// One line on what a redefinition changed: what was replaced, what uses
/// it, and that values that may have changed are gone.
fn replacement_note(replaced: &[String], done: &crate::session::Defined) -> String {
    let mut note = format!("replaced {}", replaced.join(", "));
    if !done.rechecked.is_empty() {
        let users: Vec<String> = done.rechecked.iter().map(|n| format!("`{n}`")).collect();
        note.push_str(&format!(
            "; {} {} it and still {}",
            users.join(", "),
            if users.len() == 1 { "uses" } else { "use" },
            if users.len() == 1 { "checks" } else { "check" }
        ));
    }
    note.push_str("; values computed under the old definition are forgotten");
    note
}

pub(super) fn write_file(entry: &Entry, path: &str, bytes: &[u8]) -> Result<(), Errors> {
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
        GameKind::Octal(_) | GameKind::TakeBreak(_) => format!("{}(n: nat)", game.name),
        _ => format!("{}({})", game.name, params(&game.params)),
    }
}

/// Whether the whole line reads as one expression.
fn is_expression(text: &str) -> bool {
    crate::syntax::parse_position(crate::source::SourceId(0), text).is_ok()
}
