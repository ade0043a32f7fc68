//! A position's moves: running its game's rules (or its octal code), its
//! `lose if` condition and its declared parts, for the solver.

use super::interp::{Env, Interp};
use super::ir::{shown_bindings, GameKind, MoveIr};
use super::positions::PosId;
use super::value::Value;
use crate::error::{Error, ErrorKind};
use crate::solve::{Components, Move, MoveLabel, Rules};
use crate::source::Span;
use std::sync::Arc;

type Result<T> = std::result::Result<T, Error>;

impl Interp {
    /// The moves of one component, each with the sum it leads to, and a
    /// label such as `take(k = 2)` when asked for.
    pub fn moves_of(&mut self, pos: PosId, labels: bool, out: &mut Vec<Move>) -> Result<()> {
        let program = self.program.clone();
        let mut args: Env = Vec::new();
        let g = self.positions.args_into(pos, &mut args);
        let game = &program.games[g as usize];
        match &game.kind {
            GameKind::Octal(_) | GameKind::TakeBreak(_) => {
                let Some(Value::Int(n)) = args.first().cloned() else {
                    return Ok(());
                };
                // A heap of n has about n/2 options over heaps up to n: past
                // the state limit the search could never finish.
                if n > 0 && n as u64 >= self.max_positions as u64 {
                    return Err(Error::new(
                        ErrorKind::StateLimit {
                            limit: self.max_positions,
                        },
                        Default::default(),
                    )
                    .with_context(format!("finding the moves of {}", self.describe_pos(pos))));
                }
                let each = |k: i64, left: &[i64]| {
                    let parts: Vec<PosId> = left
                        .iter()
                        .map(|&h| self.positions.intern_slice(g, &[Value::Int(h)]))
                        .collect();
                    let label = labels.then(|| octal_label(k, left));
                    let mut parts = parts;
                    parts.sort_unstable();
                    out.push(Move {
                        rule: k as u32,
                        result: parts.into(),
                        label,
                    });
                };
                match &game.kind {
                    GameKind::Octal(code) => code.for_each_move(n, each),
                    GameKind::TakeBreak(code) => code.for_each_move(n, each),
                    _ => {}
                }
                Ok(())
            }
            GameKind::Rules { moves, lose, .. } => {
                let before = out.len();
                if self.compiled_moves((g, &args), labels, out) {
                    if out.len() - before <= self.max_positions {
                        return Ok(());
                    }
                    // The rules run again, as far as the option past the
                    // limit, to report it at its rule.
                    out.truncate(before);
                }
                // Past this many options the listing stops (see `run_move`).
                let most = before.saturating_add(self.max_positions);
                let mut env = args;
                env.resize(game.frame_size, Value::Int(0));
                if let Some(lose) = lose {
                    let lost = self.eval_bool(lose, &mut env).map_err(|e| {
                        e.with_context(format!(
                            "checking the `lose if` rule of {}",
                            self.describe_pos(pos)
                        ))
                    })?;
                    if lost {
                        return Ok(());
                    }
                }
                for (index, rule) in moves.iter().enumerate() {
                    self.run_move(rule, index as u32, 0, &mut env, (labels, most), out)
                        .map_err(|e| {
                            e.with_context(format!(
                                "finding the moves of {} by rule `{}`",
                                self.describe_pos(pos),
                                rule.name
                            ))
                        })?;
                }
                Ok(())
            }
            GameKind::Alias(_) => Ok(()),
        }
    }

    /// Runs `rule` from its generator at `depth` on, adding its moves to
    /// `out` (labelled when `labels` says so) until `out` holds `most`.
    fn run_move(
        &mut self,
        rule: &MoveIr,
        index: u32,
        depth: usize,
        env: &mut Env,
        (labels, most): (bool, usize),
        out: &mut Vec<Move>,
    ) -> Result<()> {
        if let Some(generator) = rule.generators.get(depth) {
            return self.for_each(generator, env, &mut |me, env| {
                me.run_move(rule, index, depth + 1, env, (labels, most), out)
            });
        }
        if let Some(guard) = &rule.guard {
            if !self.eval_bool(guard, env)? {
                return Ok(());
            }
        }
        // The state limit bounds one position's options as well as the
        // positions a search makes: options are worked out one by one,
        // and a rule whose result ignores a loop's variable makes the same
        // option again for every value, so a long position may have
        // millions of them and no limit but this one would end the listing.
        if out.len() >= most {
            return Err(Error::new(
                ErrorKind::OptionLimit {
                    limit: self.max_positions,
                },
                rule.result.span,
            ));
        }
        let result = match self.least_result(&rule.result, env)? {
            Some(id) => Components::One([id]),
            None => {
                let v = self.eval(&rule.result, env)?;
                let Value::Pos(result) = self.to_sum(v, rule.result.span)? else {
                    return Ok(());
                };
                result.into()
            }
        };
        let label = if labels {
            Some(self.move_label(rule, env)?)
        } else {
            None
        };
        out.push(Move {
            rule: index,
            result,
            label,
        });
        Ok(())
    }

    /// The label of a move made by `rule`, from the values its generators
    /// hold in `env`: `take(k = 2)`.
    pub(super) fn move_label(&mut self, rule: &MoveIr, env: &mut Env) -> Result<MoveLabel> {
        let args = shown_bindings(&rule.generators, |read| self.eval(read, env))?;
        let bindings: Vec<String> = args
            .iter()
            .map(|(var, v)| format!("{var} = {}", self.show(v)))
            .collect();
        Ok(MoveLabel {
            text: format!("{}({})", rule.name, bindings.join(", ")),
            rule: rule.name.clone(),
            args,
        })
    }

    /// A position's game, and a frame holding its arguments, ready for
    /// the game's rules to run in.
    fn frame(&self, pos: PosId) -> (Arc<crate::eval::Program>, u32, Env) {
        let program = self.program.clone();
        let mut env: Env = Vec::new();
        let g = self.positions.args_into(pos, &mut env);
        env.resize(program.games[g as usize].frame_size, Value::Int(0));
        (program, g, env)
    }

    /// The kind of a position's game, read without its arguments.
    fn kind_of(&self, pos: PosId) -> &GameKind {
        &self.program.games[self.positions.game(pos) as usize].kind
    }

    /// Whether the `lose if` rule of a position's game holds.
    pub fn lost(&mut self, pos: PosId) -> Result<bool> {
        if !matches!(self.kind_of(pos), GameKind::Rules { lose: Some(_), .. }) {
            return Ok(false);
        }
        let (program, g, mut env) = self.frame(pos);
        match &program.games[g as usize].kind {
            GameKind::Rules {
                lose: Some(lose), ..
            } => self.eval_bool(lose, &mut env),
            _ => Ok(false),
        }
    }

    /// The parts a position is declared equal to, if its game has them.
    pub fn parts(&mut self, pos: PosId) -> Result<Option<Arc<[PosId]>>> {
        // Asked of every position searched: most games have no parts.
        if !matches!(self.kind_of(pos), GameKind::Rules { parts: Some(_), .. }) {
            return Ok(None);
        }
        let (program, g, mut env) = self.frame(pos);
        let GameKind::Rules {
            parts: Some(parts), ..
        } = &program.games[g as usize].kind
        else {
            return Ok(None);
        };
        let v = self.eval(parts, &mut env)?;
        match self.to_sum(v, parts.span)? {
            // A position whose only part is itself does not split: it is
            // searched by its moves (a Cram board of one region, a row of
            // Mock Turtles with one coin heads up).
            Value::Pos(p) if *p == [pos] => Ok(None),
            Value::Pos(p) => Ok(Some(p)),
            _ => Ok(None),
        }
    }
}

/// An octal move named as the code's rule reads: remove `k` tokens and
/// leave the heaps `left`, or (removing none) split a heap in two.
fn octal_label(k: i64, left: &[i64]) -> MoveLabel {
    let heaps = Value::list(left.iter().map(|&h| Value::Int(h)).collect());
    let shown: Vec<String> = left.iter().map(i64::to_string).collect();
    let shown = shown.join(" + ");
    if k == 0 && left.len() >= 2 {
        return MoveLabel {
            text: format!("split into {shown}"),
            rule: "split".into(),
            args: vec![("into".into(), heaps)],
        };
    }
    MoveLabel {
        text: if left.is_empty() {
            format!("remove {k}")
        } else {
            format!("remove {k} leaving {shown}")
        },
        rule: "remove".into(),
        args: vec![("count".into(), Value::Int(k)), ("leaving".into(), heaps)],
    }
}

impl Rules for Interp {
    fn options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<()> {
        self.moves_of(pos, false, out)
    }

    fn labelled_options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<()> {
        self.moves_of(pos, true, out)
    }

    fn parts(&mut self, pos: PosId) -> Result<Option<Arc<[PosId]>>> {
        Interp::parts(self, pos)
    }

    fn lost(&mut self, pos: PosId) -> Result<bool> {
        Interp::lost(self, pos)
    }

    fn describe(&self, pos: PosId) -> String {
        self.describe_pos(pos)
    }

    fn parts_span(&self, pos: PosId) -> Span {
        let game = &self.program.games[self.positions.game(pos) as usize];
        match &game.kind {
            GameKind::Rules { parts: Some(p), .. } => p.span,
            _ => game.span,
        }
    }

    fn max_states(&self) -> usize {
        self.max_positions
    }

    fn positions_made(&self) -> usize {
        self.positions.len()
    }

    fn held_elsewhere(&mut self, positions: usize) {
        self.held_elsewhere = positions;
    }

    fn ends_whole_game(&self, pos: PosId) -> bool {
        // Asked of every position searched: the game alone, not the
        // arguments, is read.
        let g = self.positions.game(pos);
        self.program.games[g as usize].has_lose_rule()
    }

    fn game_of(&self, pos: PosId) -> Option<u32> {
        Some(self.positions.game(pos))
    }

    fn game_name(&self, pos: PosId) -> String {
        let g = self.positions.game(pos);
        self.program.games[g as usize].name.clone()
    }

    fn loopy(&self, pos: PosId) -> bool {
        let g = self.positions.game(pos);
        self.program.games[g as usize].loopy
    }

    fn canonical(&mut self, pos: PosId) -> Result<PosId> {
        Interp::canonical(self, pos)
    }

    fn value_options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<()> {
        self.orbits.searching = true;
        let listed = self.moves_of(pos, false, out);
        self.orbits.searching = false;
        listed
    }

    fn compact(&mut self, pos: PosId) -> Option<(Box<dyn crate::solve::dense::KeyGame>, u64)> {
        if Rules::loopy(self, pos) {
            return None;
        }
        self.compact_game(pos)
    }

    fn compact_key(&self, game: &dyn crate::solve::dense::KeyGame, pos: PosId) -> Option<u64> {
        Interp::compact_key(self, game, pos)
    }

    fn rule_span(&self, pos: PosId, rule: u32) -> Span {
        let game = &self.program.games[self.positions.game(pos) as usize];
        match &game.kind {
            GameKind::Rules { moves, .. } => moves.get(rule as usize).map_or(game.span, |m| m.span),
            _ => game.span,
        }
    }
}
