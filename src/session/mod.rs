//! A session: the files loaded so far, the program they define, and the
//! interpreter and solver behind every question asked of it. The command
//! line and the REPL both work through this.

use crate::check;
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::ir::{Callable, ClaimIr, GameKind, Ir, IrKind};
use crate::eval::{Interp, PosId, Value};
use crate::solve::loopy::Generalised;
use crate::solve::SumMove;
use crate::source::{SourceId, Sources, Span};
use crate::syntax::ast::BinaryOp;
use crate::syntax::{parse_file, parse_position};
use crate::types::Type;
use std::sync::Arc;

mod family;
pub mod fast_paths;
mod grid;
mod imports;
mod redefine;
mod table;
pub use family::Family;
pub use grid::Grid;
pub use imports::LoadedFile;
pub use redefine::{span_of, Defined, Definition};
pub use table::{bytes, table_bytes, Table, TableRequest};

#[derive(Default)]
pub struct Session {
    pub sources: Sources,
    pub interp: Interp,
    /// The text of the last position asked about, where solver errors that
    /// belong to no rule (a state limit in a misère search) are shown.
    asked: Span,
    /// Tables of heap games made to answer for large heaps, with the
    /// period that extends them, if proven; cleared when definitions change.
    tables: std::collections::HashMap<Family, table::Known>,
    /// Variables bound at the REPL with `let`, visible in every expression
    /// and position typed after: each name with its value and type.
    pub bindings: indexmap::IndexMap<String, (Value, Type)>,
    /// Warnings found while reading files and positions, not yet shown.
    warnings: Errors,
    /// Infinite values of loopy games are written `inf{0,2}`, not `∞{0,2}`.
    pub ascii: bool,
    /// Every file read, imports included, so that each is read once.
    loaded: imports::LoadedFiles,
    /// The files whose imports are being loaded, outermost first.
    importing: imports::ImportStack,
    /// Every definition loaded so far, in order, as written: replacing
    /// one checks them all again.
    definitions: Vec<Definition>,
}

/// The result of running one claim.
pub struct ClaimResult {
    pub span: Span,
    pub failure: Option<Error>,
}

impl Session {
    pub fn new() -> Session {
        Session::default()
    }

    /// A file that could not be read or written, as an error naming it
    /// (there is no text in it to point at).
    pub fn file_error(&mut self, doing: &'static str, path: &str, reason: impl ToString) -> Error {
        let source = self.sources.add(path, "");
        Error::new(
            ErrorKind::Io {
                doing,
                path: path.to_string(),
                reason: reason.to_string(),
            },
            Span::new(source, 0, 0),
        )
    }

    /// Reads, parses and checks a file and the files it imports, adding
    /// their definitions; a file loaded already is not read again.
    pub fn load_file(&mut self, path: &str) -> Result<(), Errors> {
        if self.is_loaded(path) {
            return Ok(());
        }
        let text = match crate::source::read_file(path) {
            Ok(text) => text,
            Err(reason) => return Err(vec![self.file_error("read", path, reason)]),
        };
        self.load_text(path, &text).map(|_| ())
    }

    /// Parses and checks source text, adding its definitions (after those
    /// of the files it imports); returns the number of claims it added.
    pub fn load_text(&mut self, name: &str, text: &str) -> Result<usize, Errors> {
        let source = self.sources.add(name, text);
        let file = parse_file(source, text)?;
        self.load_imports(name, &file)?;
        let added = self.add_items(file.items, false)?;
        self.remember_file(name, text);
        Ok(added)
    }

    /// Checks `items` after the definitions already loaded and adds them;
    /// returns the number of claims among them.
    fn add_items(
        &mut self,
        items: Vec<crate::syntax::ast::Item>,
        typed: bool,
    ) -> Result<usize, Errors> {
        let before = self.interp.program.claims.len();
        check::check_items_into(&items, &mut self.interp.program, &mut self.warnings)?;
        let added = self.interp.program.claims.len() - before;
        self.definitions
            .extend(items.into_iter().map(|item| Definition { item, typed }));
        self.tables.clear();
        self.interp.eval_consts().map_err(|e| vec![e])?;
        Ok(added)
    }

    /// The warnings found since the last call: legal text that most likely
    /// does not mean what it says, such as `10^12`.
    pub fn take_warnings(&mut self) -> Errors {
        std::mem::take(&mut self.warnings)
    }

    /// Loads text and runs its claims: the errors that stopped it loading,
    /// or else the claims that failed (none when all is well).
    pub fn check_text(&mut self, name: &str, text: &str) -> Errors {
        match self.load_text(name, text) {
            Err(errors) => errors,
            Ok(_) => self
                .run_claims(0)
                .into_iter()
                .filter_map(|r| r.failure)
                .collect(),
        }
    }

    /// Evaluates an expression typed by the user, such as a position.
    pub fn eval_text(&mut self, text: &str) -> Result<Value, Errors> {
        self.eval_typed(text).map(|(v, _)| v)
    }

    /// Evaluates an expression typed by the user, with its type.
    pub fn eval_typed(&mut self, text: &str) -> Result<(Value, Type), Errors> {
        let source = self.sources.add("<position>", text);
        self.eval_in(source, text)
    }

    fn eval_in(&mut self, source: SourceId, text: &str) -> Result<(Value, Type), Errors> {
        let expr = parse_position(source, text)?;
        let bound: Vec<(&str, Type)> = self
            .bindings
            .iter()
            .map(|(name, (_, ty))| (name.as_str(), ty.clone()))
            .collect();
        let (ir, frame_size, ty) =
            check::check_query_with(&expr, &self.interp.program, &bound, &mut self.warnings)?;
        let mut env = vec![Value::Int(0); frame_size];
        for (slot, (value, _)) in self.bindings.values().enumerate() {
            env[slot] = value.clone();
        }
        let value = self.interp.eval(&ir, &mut env).map_err(|e| vec![e])?;
        Ok((value, ty))
    }

    /// A position typed by the user, as the components of its sum.
    pub fn position(&mut self, text: &str) -> Result<Arc<[PosId]>, Errors> {
        let source = self.sources.add("<position>", text);
        let (v, _) = self.eval_in(source, text)?;
        let span = Span::new(source, 0, text.len());
        self.asked = span;
        match self.interp.to_sum(v.clone(), span) {
            Ok(Value::Pos(p)) => Ok(p),
            // A sum that may not be formed says why itself.
            Err(e) if matches!(e.kind, ErrorKind::TerminalInSum { .. }) => Err(vec![e]),
            _ => {
                let found = match &v {
                    Value::List(items) => {
                        match items.iter().find(|i| !matches!(i, Value::Pos(_))) {
                            Some(item) => format!("a list holding {}", item.kind()),
                            None => "a list".to_string(),
                        }
                    }
                    other => other.kind().to_string(),
                };
                Err(vec![Error::new(
                    ErrorKind::ExpectedPosition { found },
                    span,
                )])
            }
        }
    }

    /// Errors from the solver that point nowhere are pinned on the position
    /// asked about.
    fn pinned<T>(&self, result: Result<T, Error>) -> Result<T, Errors> {
        result.map_err(|e| {
            if e.span == Span::default() {
                vec![e.at(self.asked)]
            } else {
                vec![e]
            }
        })
    }

    pub fn value(&mut self, parts: &[PosId]) -> Result<u32, Errors> {
        // Large heaps of games with a fast table are read off it instead.
        let mut total = 0;
        let mut rest = Vec::new();
        for &part in parts {
            match self.large_heap_value(part)? {
                Some(v) => total ^= v,
                None => rest.push(part),
            }
        }
        let r = self.interp.with_solver(|s, i| s.value_of_sum(i, &rest));
        Ok(total ^ self.pinned(r)?)
    }

    /// The generalised value of a sum: its Grundy value when play is
    /// finite, Smith's value where it reaches a loopy game.
    pub fn general_value(&mut self, parts: &[PosId]) -> Result<Generalised, Errors> {
        if !self.has_loopy_games() {
            return self.value(parts).map(Generalised::Finite);
        }
        let r = self
            .interp
            .with_solver(|s, i| s.general_value_of_sum(i, parts));
        self.pinned(r)
    }

    /// Whether play from a sum reaches a position of a loopy game, so that
    /// its value is a generalised one.
    pub fn reaches_loopy(&mut self, parts: &[PosId]) -> Result<bool, Errors> {
        if !self.has_loopy_games() {
            return Ok(false);
        }
        match self.value(parts) {
            Ok(_) => Ok(false),
            Err(e)
                if e.iter()
                    .any(|e| matches!(e.kind, ErrorKind::LoopyNotHandled { .. })) =>
            {
                Ok(true)
            }
            Err(e) => Err(e),
        }
    }

    /// Every sum reachable from `parts`, with Smith's labelling of it.
    pub fn loopy_labelling(
        &mut self,
        parts: &[PosId],
    ) -> Result<(crate::solve::loopy::Graph, crate::solve::loopy::Labelling), Errors> {
        let r = crate::solve::loopy::label(&mut self.interp, parts);
        self.pinned(r)
    }

    /// Who wins a sum with a loopy part, and in how many moves, and the
    /// same after each of its moves, from the backward analysis of the
    /// whole sum.
    pub fn loopy_play(
        &mut self,
        parts: &[PosId],
        moves: &[SumMove],
    ) -> Result<(crate::solve::loopy::Play, Vec<crate::solve::loopy::Play>), Errors> {
        let results: Vec<&[PosId]> = moves.iter().map(|m| &m.result[..]).collect();
        let r = crate::solve::loopy::play(&mut self.interp, parts, &results);
        self.pinned(r)
    }

    /// Whether any game loaded is declared loopy.
    pub fn has_loopy_games(&self) -> bool {
        self.interp.program.games.iter().any(|g| g.loopy)
    }

    /// A generalised value as this session writes it.
    pub fn show_value(&self, v: &Generalised) -> String {
        v.show(self.ascii)
    }

    pub fn misere_wins(&mut self, parts: &[PosId]) -> Result<bool, Errors> {
        let r = self.interp.with_solver(|s, i| s.misere_wins(i, parts));
        self.pinned(r)
    }

    pub fn height(&mut self, parts: &[PosId]) -> Result<u32, Errors> {
        let r = self.interp.with_solver(|s, i| s.height_of_sum(i, parts));
        self.pinned(r)
    }

    pub fn moves(&mut self, parts: &[PosId]) -> Result<Vec<SumMove>, Errors> {
        let r = self.interp.with_solver(|s, i| s.moves(i, parts));
        self.pinned(r)
    }

    pub fn show_sum(&self, parts: &[PosId]) -> String {
        crate::eval::show::sum(&self.interp.program, &self.interp.positions, parts)
    }

    /// The game a `table` is asked of: it must take one natural number.
    pub fn heap_game(&mut self, name: &str) -> Result<u32, Errors> {
        let source = self.sources.add("<game>", name);
        let span = Span::new(source, 0, name.len());
        self.asked = span;
        let program = &self.interp.program;
        match program.callables.get(name) {
            Some(Callable::Game(g)) => {
                let game = &program.games[*g as usize];
                let heap_like = matches!(game.kind, GameKind::Octal(_))
                    || (game.params.len() == 1 && game.params[0].ty.fits(&Type::Nat));
                if game.loopy {
                    Err(vec![Error::new(
                        ErrorKind::LoopyNotHandled {
                            position: format!("{name}(n)"),
                            game: name.to_string(),
                        },
                        span,
                    )
                    .with_related(game.span, "declared loopy here")])
                } else if heap_like {
                    Ok(*g)
                } else {
                    Err(vec![Error::new(
                        ErrorKind::NotAHeapGame {
                            name: name.to_string(),
                        },
                        span,
                    )
                    .with_related(game.span, "defined here")])
                }
            }
            _ => {
                let games: Vec<&str> = program
                    .callables
                    .iter()
                    .filter(|(_, c)| matches!(c, Callable::Game(_)))
                    .map(|(n, _)| n.as_str())
                    .collect();
                Err(vec![Error::new(
                    ErrorKind::UnknownName {
                        what: "game",
                        name: name.to_string(),
                        suggestion: check::suggest::closest(name, games),
                    },
                    span,
                )])
            }
        }
    }

    /// Runs the claims from index `from` on, in order.
    pub fn run_claims(&mut self, from: usize) -> Vec<ClaimResult> {
        let program = self.interp.program.clone();
        program.claims[from..]
            .iter()
            .map(|claim| ClaimResult {
                span: claim.span,
                failure: self.run_claim(claim).err(),
            })
            .collect()
    }

    /// Runs the claim at `index`; why it fails, if it does.
    pub fn run_claim_at(&mut self, index: usize) -> Option<Error> {
        let program = self.interp.program.clone();
        self.run_claim(program.claims.get(index)?).err()
    }

    fn run_claim(&mut self, claim: &ClaimIr) -> Result<(), Error> {
        let mut env = vec![Value::Int(0); claim.frame_size];
        ClaimRunner {
            interp: &mut self.interp,
        }
        .check_case(claim, 0, &mut env)
    }

    pub fn claim_count(&self) -> usize {
        self.interp.program.claims.len()
    }
}

/// Runs one claim over every binding of its generators, stopping at the
/// first counterexample.
struct ClaimRunner<'a> {
    interp: &'a mut Interp,
}

impl ClaimRunner<'_> {
    fn check_case(
        &mut self,
        claim: &ClaimIr,
        depth: usize,
        env: &mut Vec<Value>,
    ) -> Result<(), Error> {
        if let Some(generator) = claim.generators.get(depth) {
            return self.interp.for_each(generator, env, &mut |interp, env| {
                ClaimRunner { interp }.check_case(claim, depth + 1, env)
            });
        }
        if let Some(filter) = &claim.filter {
            if !self.interp.eval_bool(filter, env)? {
                return Ok(());
            }
        }
        if self.interp.eval_bool(&claim.body, env)? {
            return Ok(());
        }
        let mut detail = String::new();
        let bindings: Vec<String> =
            crate::eval::ir::shown_bindings(&claim.generators, |read| self.interp.eval(read, env))?
                .iter()
                .map(|(name, v)| format!("{name} = {}", self.interp.show(v)))
                .collect();
        if !bindings.is_empty() {
            detail.push_str(&format!(" for {}", bindings.join(", ")));
        }
        let (span, why) = self.explain(&claim.body, env)?;
        if let Some(why) = why {
            detail.push_str(&format!(": {why}"));
        }
        let error = Error::new(ErrorKind::ClaimFailed { detail }, span);
        Err(if span == claim.body.span {
            error.at(claim.span)
        } else {
            error.with_related(claim.span, "in this claim")
        })
    }

    /// The part of a false condition that made it false, and the values
    /// that show why: for `a and b`, the conjunct that failed; for a
    /// comparison, both sides.
    fn explain(&mut self, ir: &Ir, env: &mut Vec<Value>) -> Result<(Span, Option<String>), Error> {
        let IrKind::Binary(op, lhs, rhs) = &ir.kind else {
            return Ok((ir.span, None));
        };
        match op {
            BinaryOp::And => {
                if self.interp.eval_bool(lhs, env)? {
                    self.explain(rhs, env)
                } else {
                    self.explain(lhs, env)
                }
            }
            BinaryOp::Eq
            | BinaryOp::Ne
            | BinaryOp::Lt
            | BinaryOp::Le
            | BinaryOp::Gt
            | BinaryOp::Ge => {
                let l = self.interp.eval(lhs, env)?;
                let r = self.interp.eval(rhs, env)?;
                let why = format!(
                    "the left side is {}, the right side is {}",
                    self.interp.show(&l),
                    self.interp.show(&r)
                );
                Ok((ir.span, Some(why)))
            }
            BinaryOp::In | BinaryOp::NotIn => {
                let l = self.interp.eval(lhs, env)?;
                let r = self.interp.eval(rhs, env)?;
                let is = if *op == BinaryOp::In { "is not" } else { "is" };
                let why = format!("{} {is} in {}", self.interp.show(&l), self.interp.show(&r));
                Ok((ir.span, Some(why)))
            }
            _ => Ok((ir.span, None)),
        }
    }
}
