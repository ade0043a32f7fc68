//! The Sprague-Grundy solver, generic over any game whose positions are
//! interned integers and whose rules can list a position's options.

pub mod affine;
mod backwards;
pub mod bottom_up;
mod components;
pub mod dense;
pub mod kernel;
pub mod loopy;
mod memo;
mod mex;
mod misere;
mod moves;
mod packed;
pub mod period;
mod quotient;
pub mod sparse;
mod store;
pub mod values;

pub use components::Components;
pub use moves::SumMove;

use crate::error::{Error, ErrorKind};
use crate::eval::PosId;
use crate::source::Span;
use dense::{DenseSearch, KeyGame};
use memo::{Measure, Memo};
use std::sync::Arc;

/// One move of one component: the rule that made it and the sum it leads to.
#[derive(Clone, Debug)]
pub struct Move {
    pub rule: u32,
    pub result: Components,
    /// How a user would name the move, such as `take(k = 2)`; only made
    /// when asked for, since the search never needs it.
    pub label: Option<MoveLabel>,
}

/// A move as its rule names it: the rule, and the value each of its
/// generators bound, both as text for people and as data for scripts.
#[derive(Clone, Debug, Default)]
pub struct MoveLabel {
    /// The whole name, such as `take(k = 2)`.
    pub text: String,
    /// The rule, such as `take`.
    pub rule: String,
    /// Each bound variable and its value, in the order of the rule.
    pub args: Vec<(String, crate::eval::Value)>,
}

impl std::fmt::Display for MoveLabel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.text)
    }
}

/// What the solver needs to know of a game.
pub trait Rules {
    /// The options of a position; none when the player to move has lost.
    fn options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<(), Error>;
    /// The options, as the value search needs them: a move's result may
    /// already be the position that stands for its orbit (see `canonical`).
    fn value_options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<(), Error> {
        self.options(pos, out)
    }
    /// The same options, each with its label.
    fn labelled_options(&mut self, pos: PosId, out: &mut Vec<Move>) -> Result<(), Error>;
    /// The parts a position is declared equal to, if any.
    fn parts(&mut self, pos: PosId) -> Result<Option<Arc<[PosId]>>, Error>;
    /// Whether a `lose if` rule says the player to move has already lost.
    fn lost(&mut self, pos: PosId) -> Result<bool, Error>;
    /// The position as a user would write it.
    fn describe(&self, pos: PosId) -> String;
    /// Where the rule that made a move is written.
    fn rule_span(&self, pos: PosId, rule: u32) -> Span;
    /// Where the `parts =` rule of a position's game is written.
    fn parts_span(&self, pos: PosId) -> Span;
    /// How many positions a session's searches may hold before they stop:
    /// those the general search made and those only the compiled searches
    /// hold, counted alike (see `held_elsewhere`).
    fn max_states(&self) -> usize;
    /// How many positions the general search has made so far.
    fn positions_made(&self) -> usize {
        0
    }
    /// Tells the general search how many positions only the compiled
    /// searches hold, so that its limit counts them as its own.
    fn held_elsewhere(&mut self, _positions: usize) {}
    /// Whether the position's game has a `lose if` rule, which ends the
    /// whole game and so may not be played inside a sum.
    fn ends_whole_game(&self, pos: PosId) -> bool;
    /// The name of the position's game, for messages.
    fn game_name(&self, pos: PosId) -> String;
    /// The position's game, where the rules number games.
    fn game_of(&self, _pos: PosId) -> Option<u32> {
        None
    }
    /// Whether the position's game is declared loopy: its positions may
    /// repeat, and its values are generalised ones.
    fn loopy(&self, _pos: PosId) -> bool {
        false
    }
    /// The position's game compiled to work on packed keys, laid out to
    /// hold this position, with its key; `None` leaves it to the general
    /// search.
    fn compact(&mut self, _pos: PosId) -> Option<(Box<dyn KeyGame>, u64)> {
        None
    }
    /// The key of a position in a compiled game's layout, if it fits there.
    fn compact_key(&self, _game: &dyn KeyGame, _pos: PosId) -> Option<u64> {
        None
    }
    /// The position that stands for all those its game's `symmetry =`
    /// declares equal to `pos` (the position itself when there are none):
    /// the value search stores only such positions.
    fn canonical(&mut self, pos: PosId) -> Result<PosId, Error> {
        Ok(pos)
    }
}

/// Compiled searches kept for later questions about their positions: at
/// most this many, holding at most `KEEP_DENSE_BYTES` between them besides
/// the newest.
const KEEP_DENSE: usize = 8;
const KEEP_DENSE_BYTES: usize = 64 << 20;
/// How many times one question lays a compiled game out again, each time
/// with more room, before the general search answers.
const MAX_RELAYOUTS: u32 = 4;

/// Values and heights computed so far; they stay valid as long as the
/// rules do not change.
#[derive(Default)]
pub struct Solver {
    values: Memo,
    heights: Memo,
    misere: misere::Sums,
    /// Searches of games compiled to keys, the latest last.
    dense: Vec<DenseSearch>,
    /// Positions only the searches dropped from `dense` held: the state
    /// limit still counts them, as it counts every position the general
    /// search made.
    dropped: usize,
    /// Generalised values of positions of loopy games, and of positions
    /// whose play reaches one.
    loopy: loopy::Known,
}

impl Solver {
    /// The Grundy value of one component.
    pub fn value(&mut self, rules: &mut dyn Rules, pos: PosId) -> Result<u32, Error> {
        self.counting_once(rules, |solver, rules| solver.value_of(rules, pos))
    }

    fn value_of(&mut self, rules: &mut dyn Rules, pos: PosId) -> Result<u32, Error> {
        if let Some(v) = self.values.peek(pos) {
            return Ok(v);
        }
        let canonical = rules.canonical(pos)?;
        if canonical != pos {
            let v = self.value_of(rules, canonical)?;
            self.values.same_as(pos, canonical);
            return Ok(v);
        }
        if let Some(v) = self.compact_value(rules, pos, 0)? {
            self.values.remember(pos, v);
            if rules.ends_whole_game(pos) {
                // Every position of its game has the `lose if` rule.
                self.values.remember_reach(pos, pos);
            }
            return Ok(v);
        }
        // A position of another game met on the way (a game whose moves
        // lead into a second one, the parts of a sum) is valued by its
        // own game's compiled search where that compiles.
        let mut values = std::mem::take(&mut self.values);
        let found = values.compute_with(rules, pos, Measure::Value, &mut |rules, c| {
            self.compact_value(rules, c, 0)
        });
        self.values = values;
        found
    }

    /// The value of a component whose game compiles to keys, searched in a
    /// table kept from an earlier search when the position fits its layout;
    /// `relaid` says how many layouts this question has outgrown.
    fn compact_value(
        &mut self,
        rules: &mut dyn Rules,
        pos: PosId,
        relaid: u32,
    ) -> Result<Option<u32>, Error> {
        let limit = rules.max_states();
        let found = self
            .dense
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, d)| Some((i, rules.compact_key(&*d.game, pos)?)));
        let (index, key, fresh) = match found {
            Some((index, key)) => (index, key, relaid > 0),
            None => {
                let Some((game, key)) = rules.compact(pos) else {
                    return Ok(None);
                };
                let held = |d: &[DenseSearch]| d.iter().map(DenseSearch::heap_bytes).sum::<usize>();
                while !self.dense.is_empty()
                    && (self.dense.len() >= KEEP_DENSE || held(&self.dense) > KEEP_DENSE_BYTES)
                {
                    self.dropped += self.dense.remove(0).held_alone();
                }
                self.dense.push(DenseSearch::new(game));
                (self.dense.len() - 1, key, true)
            }
        };
        // The limit counts the session's positions, whichever search holds
        // them: the general search's (the root among them) and those only
        // the other compiled searches hold leave this one the rest, besides
        // the positions it holds that the general search holds too.
        let elsewhere = rules.positions_made() + self.dense_made() - self.dense[index].held_alone();
        let search = &mut self.dense[index];
        let room = limit
            .saturating_sub(elsewhere)
            .saturating_add(search.answered + 1);
        let before = search.positions;
        let v = search.value(key, room, limit);
        search.answered += match v {
            // The memo keeps what it answers.
            Ok(Some(_)) => 1,
            // The positions it holds leave the general search no room, so
            // that search reports the limit, with a rule's span, at once
            // rather than after making them all again one at a time.
            Ok(None) if search.over_limit => 0,
            // The general search goes over the same positions again.
            Ok(None) => search.positions - before,
            Err(_) => 0,
        };
        rules.held_elsewhere(self.dense_made());
        // A search that gave up may have met a number too wide for its
        // layout, which was made to hold the start alone, or a list longer
        // than its room. The game laid out again has room to spare (see
        // `Interp::compact_game`), more each time: while its keys are wider
        // or its list has more room, it searches once more before the
        // general search takes over.
        let may_grow = fresh && relaid < MAX_RELAYOUTS;
        if may_grow && matches!(v, Ok(None)) && !self.dense[index].over_limit {
            if let Some((game, _)) = rules.compact(pos) {
                let old = &self.dense[index].game;
                if game.bits() > old.bits() || game.room() > old.room() {
                    self.dropped += self.dense.remove(index).held_alone();
                    self.dense.push(DenseSearch::new(game));
                    return self.compact_value(rules, pos, relaid + 1);
                }
            }
        }
        v
    }

    /// Runs a search; when it stops at the state limit, counts again the
    /// positions the searches hold (see `count_each_once`) and, if fewer
    /// than were counted, lets the search go on: it stopped only because a
    /// position held by both a compiled search and the general one was
    /// counted twice.
    fn counting_once<T>(
        &mut self,
        rules: &mut dyn Rules,
        mut search: impl FnMut(&mut Solver, &mut dyn Rules) -> Result<T, Error>,
    ) -> Result<T, Error> {
        loop {
            match search(self, rules) {
                Err(e) if matches!(e.kind, ErrorKind::StateLimit { .. }) => {
                    if !self.count_each_once(rules) {
                        return Err(e);
                    }
                }
                other => return other,
            }
        }
    }

    /// Counts which positions of the compiled searches the general search
    /// holds too (the count kept as they run only estimates it: a search
    /// that answered holds positions the general search may have made
    /// since) and tells the general search how many only the compiled
    /// searches hold; whether that is fewer than the estimate said.
    fn count_each_once(&mut self, rules: &mut dyn Rules) -> bool {
        let before = self.dense_made();
        let made = rules.positions_made();
        for search in &mut self.dense {
            let both = (0..made as PosId)
                .filter(|&pos| {
                    rules
                        .compact_key(&*search.game, pos)
                        .is_some_and(|key| search.holds(key))
                })
                .count();
            // A run that gave up counts as held by the general search too,
            // which goes over the same positions (see `compact_value`).
            search.answered = search.answered.max(both);
        }
        rules.held_elsewhere(self.dense_made());
        self.dense_made() < before
    }

    /// Positions whose values only the searches of compiled games hold
    /// (those asked about are in the memo too).
    pub fn dense_positions(&self) -> usize {
        self.dense.iter().map(DenseSearch::held_alone).sum()
    }

    /// Positions only the searches of compiled games found, those they
    /// hold and those they held before they were dropped: what the state
    /// limit counts besides the general search's positions.
    fn dense_made(&self) -> usize {
        self.dense_positions() + self.dropped
    }

    /// The Grundy value of a sum: the xor of its parts' values.
    pub fn value_of_sum(&mut self, rules: &mut dyn Rules, parts: &[PosId]) -> Result<u32, Error> {
        let mut total = 0;
        for &p in parts {
            total ^= self.value(rules, p)?;
        }
        self.values.independent(rules, parts, Span::default())?;
        Ok(total)
    }

    /// The generalised value of one component: its Grundy value when its
    /// play is finite; otherwise Smith's value, found by labelling every
    /// position it reaches.
    pub fn general_value(
        &mut self,
        rules: &mut dyn Rules,
        pos: PosId,
    ) -> Result<loopy::Generalised, Error> {
        if !rules.loopy(pos) {
            match self.value(rules, pos) {
                Ok(v) => return Ok(loopy::Generalised::Finite(v)),
                Err(e) if !matches!(e.kind, ErrorKind::LoopyNotHandled { .. }) => return Err(e),
                // Play from it reaches a loopy game.
                Err(_) => {}
            }
        }
        self.loopy.value(rules, pos)
    }

    /// The generalised value of a sum, part by part by Smith's rule.
    pub fn general_value_of_sum(
        &mut self,
        rules: &mut dyn Rules,
        parts: &[PosId],
    ) -> Result<loopy::Generalised, Error> {
        let mut total = loopy::Generalised::Finite(0);
        let mut finite = Vec::new();
        for &p in parts {
            let v = self.general_value(rules, p)?;
            if parts.len() >= 2 && self.loopy.reaches_lose_rule(p) {
                return Err(Error::new(
                    ErrorKind::TerminalInSum {
                        game: rules.game_name(p),
                    },
                    Span::default(),
                ));
            }
            if self.values.peek(p).is_some() {
                finite.push(p);
            }
            total = total.plus(&v);
        }
        self.values.independent(rules, &finite, Span::default())?;
        Ok(total)
    }

    /// The length of the longest play from one component.
    pub fn height(&mut self, rules: &mut dyn Rules, pos: PosId) -> Result<u32, Error> {
        self.counting_once(rules, |solver, rules| {
            solver.heights.compute(rules, pos, Measure::Height)
        })
    }

    /// The length of the longest play from a sum: the parts are played
    /// independently, so their heights add up.
    pub fn height_of_sum(&mut self, rules: &mut dyn Rules, parts: &[PosId]) -> Result<u32, Error> {
        let mut total: u32 = 0;
        for &p in parts {
            total = total.saturating_add(self.height(rules, p)?);
        }
        self.heights.independent(rules, parts, Span::default())?;
        Ok(total)
    }

    /// Whether the player to move wins under misère play (the player who
    /// cannot move wins), found by searching the whole sum.
    pub fn misere_wins(&mut self, rules: &mut dyn Rules, parts: &[PosId]) -> Result<bool, Error> {
        // The normal-play values first: they prove the game finite, so the
        // search below terminates, and they report any loop with its cycle.
        if let Err(e) = self.value_of_sum(rules, parts) {
            return Err(match &e.kind {
                ErrorKind::LoopyNotHandled { game, .. } => {
                    Error::new(ErrorKind::LoopyMisere { game: game.clone() }, e.span)
                }
                _ => e,
            });
        }
        self.counting_once(rules, |solver, rules| {
            misere::wins(&mut solver.misere, rules, parts)
        })
    }

    /// Every move from a sum, with the position it leads to and its value.
    pub fn moves(&mut self, rules: &mut dyn Rules, parts: &[PosId]) -> Result<Vec<SumMove>, Error> {
        match moves::all(self, rules, parts) {
            Err(e) if matches!(e.kind, ErrorKind::LoopyNotHandled { .. }) => {
                loopy::moves(self, rules, parts)
            }
            other => other,
        }
    }

    /// The sums one move from `parts` leads to, in the order the rules
    /// list them, without working out any value.
    pub fn results(rules: &mut dyn Rules, parts: &[PosId]) -> Result<Vec<Vec<PosId>>, Error> {
        moves::results(rules, parts)
    }

    /// The bytes the memos hold on the heap: the tables, and the misère
    /// map's entries with the sums they are keyed by.
    pub fn heap_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(Arc<[PosId]>, bool)>() + 1;
        let keys: usize = self
            .misere
            .keys()
            .map(|k| 2 * std::mem::size_of::<usize>() + std::mem::size_of_val(&**k))
            .sum();
        let dense: usize = self.dense.iter().map(DenseSearch::heap_bytes).sum();
        self.values.heap_bytes()
            + self.heights.heap_bytes()
            + self.misere.capacity() * entry
            + keys
            + dense
    }

    /// The value and height of a component, where known.
    pub fn known(&self, pos: PosId) -> (Option<u32>, Option<u32>) {
        (self.values.peek(pos), self.heights.peek(pos))
    }

    /// Whether a search found that play from `pos` can reach a position
    /// with a `lose if` rule (which ends the whole game).
    pub fn reaches_lose_rule(&self, pos: PosId) -> bool {
        self.values.reaches_lose_rule(pos) || self.heights.reaches_lose_rule(pos)
    }

    /// Records a value and height found elsewhere (carried over a reload).
    pub fn remember(&mut self, pos: PosId, value: Option<u32>, height: Option<u32>) {
        if let Some(v) = value {
            self.values.remember(pos, v);
        }
        if let Some(h) = height {
            self.heights.remember(pos, h);
        }
    }
}
