//! The iterative memoized search behind values and heights. It keeps its
//! own stack, so a chain of a million positions needs no deep recursion.

use super::mex::{mex, MexSet};
use super::{Move, Rules};
use crate::error::{Error, ErrorKind};
use crate::eval::PosId;
use std::collections::HashMap;

const UNKNOWN: u32 = u32::MAX;
const ON_STACK: u32 = u32::MAX - 1;
/// The search of this position met a position with more options than the
/// state limit (see `Memo::failed`).
const FAILED: u32 = u32::MAX - 2;
/// No position with a `lose if` rule can be reached.
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Measure {
    /// The Grundy value: the mex of the options' values (or the xor of
    /// declared parts).
    Value,
    /// The longest play: one more than the longest option (options are
    /// sums whose heights add).
    Height,
}

/// One entry per interned position.
#[derive(Default)]
pub struct Memo {
    table: Vec<u32>,
    /// For each position searched, a position with a `lose if` rule that
    /// play from it can reach (or `NONE`): such a position ends the whole
    /// game, so one that reaches it may not stand in a sum.
    reaches: Vec<u32>,
    /// The options' results of the position being finished.
    results: Vec<u32>,
    /// Emptied lists of closed frames.
    spare: Vec<FrameLists>,
    /// Positions opened, to say now and then how far the state limit is.
    opened: u64,
    /// The values a long list of options has, for its mex.
    mex_set: MexSet,
    /// The error of each position marked `FAILED`, and the state limit it
    /// was met under. A search that met a position with too many options
    /// made each position on its way there fail: asked again, each would
    /// go the same way, working out the same options one by one (a REPL
    /// asking again, the positions of a game asked one after another), so
    /// it fails at once; under another limit it is searched again.
    failed: HashMap<PosId, (Error, usize)>,
    /// The games whose positions another engine (see `Elsewhere`) did not
    /// value once: not asked again.
    declined: Vec<u32>,
}

/// Values a position by another engine, if it can: `Ok(None)` where it
/// cannot, and the general search goes on.
pub type Elsewhere<'a> = dyn FnMut(&mut dyn Rules, PosId) -> Result<Option<u32>, Error> + 'a;

/// How many positions are opened between looks at how far the state limit
/// is: often enough for a slow game (a grid whose every move is turned
/// round to find the position that stands for its orbit opens a thousand
/// or two a second in a debug build), and the look is a clock read.
const FORESEE_EVERY: u64 = 1 << 10;

/// A frame's `pending` and `ends`, emptied.
type FrameLists = (Vec<PosId>, Vec<(usize, u32)>);

/// A position whose options are being resolved.
struct Frame {
    pos: PosId,
    /// The components of all options, one after another.
    pending: Vec<PosId>,
    /// Where each option ends in `pending`, and the rule that made it.
    ends: Vec<(usize, u32)>,
    /// The next component of `pending` to look at.
    next: usize,
    /// Whether `pending` holds declared parts rather than options.
    is_parts: bool,
}

impl Memo {
    fn get(&self, pos: PosId) -> u32 {
        self.table.get(pos as usize).copied().unwrap_or(UNKNOWN)
    }

    fn set(&mut self, pos: PosId, v: u32) {
        let i = pos as usize;
        if i >= self.table.len() {
            let more = i + 1 - self.table.len();
            crate::eval::positions::grow_gently(&mut self.table, more);
            self.table.resize(i + 1, UNKNOWN);
        }
        self.table[i] = v;
    }

    /// Whether play from `pos` can reach a position with a `lose if`
    /// rule, as far as this memo has found.
    pub fn reaches_lose_rule(&self, pos: PosId) -> bool {
        self.reached_from(pos).is_some()
    }

    fn reached_from(&self, pos: PosId) -> Option<PosId> {
        self.reaches
            .get(pos as usize)
            .copied()
            .filter(|&r| r != NONE)
    }

    /// Refuses a sum of several components when one of them can reach a
    /// position whose `lose if` rule would end the whole sum: its value
    /// would count the loss of one part as the end of that part only. The
    /// components must have been searched.
    pub fn independent(
        &self,
        rules: &mut dyn Rules,
        parts: &[PosId],
        span: crate::source::Span,
    ) -> Result<(), Error> {
        if parts.len() < 2 {
            return Ok(());
        }
        for &p in parts {
            if let Some(reached) = self.reached_from(p) {
                let kind = if reached == p {
                    ErrorKind::TerminalInSum {
                        game: rules.game_name(p),
                    }
                } else {
                    ErrorKind::TerminalReachedInSum {
                        from: rules.describe(p),
                        reached: rules.describe(reached),
                        game: rules.game_name(reached),
                    }
                };
                return Err(Error::new(kind, span));
            }
        }
        Ok(())
    }

    /// Records which `lose if` position a finished frame can reach, and
    /// refuses an option (or declared parts) that is a sum holding a
    /// component that reaches one.
    fn note_reach(&mut self, rules: &mut dyn Rules, frame: &Frame) -> Result<(), Error> {
        let mut reached = if rules.ends_whole_game(frame.pos) {
            Some(frame.pos)
        } else {
            None
        };
        let mut start = 0;
        for &(end, rule) in &frame.ends {
            let option = &frame.pending[start..end];
            start = end;
            if reached.is_some() && option.len() < 2 {
                continue;
            }
            // A single component is always independent: the span, which
            // costs a look-up, is found only for a sum.
            if option.len() >= 2 {
                let span = if frame.is_parts {
                    rules.parts_span(frame.pos)
                } else {
                    rules.rule_span(frame.pos, rule)
                };
                self.independent(rules, option, span).map_err(|e| {
                    e.with_context(format!(
                        "finding the options of {}",
                        rules.describe(frame.pos)
                    ))
                })?;
            }
            reached = reached.or_else(|| option.iter().find_map(|&c| self.reached_from(c)));
        }
        if let Some(r) = reached {
            let i = frame.pos as usize;
            if i >= self.reaches.len() {
                self.reaches.resize(i + 1, NONE);
            }
            self.reaches[i] = r;
        }
        Ok(())
    }

    /// The result for a position, if it is known.
    pub fn peek(&self, pos: PosId) -> Option<u32> {
        Some(self.get(pos)).filter(|&v| v < FAILED)
    }

    /// The bytes the table holds on the heap.
    pub fn heap_bytes(&self) -> usize {
        // The stack of open frames and the spare lists are working memory
        // of one search, bounded by its depth, not stored per position.
        self.table.capacity() * std::mem::size_of::<u32>()
    }

    /// Records that play from `pos` reaches a position with a `lose if`
    /// rule, found elsewhere.
    pub fn remember_reach(&mut self, pos: PosId, reached: PosId) {
        let i = pos as usize;
        if i >= self.reaches.len() {
            self.reaches.resize(i + 1, NONE);
        }
        self.reaches[i] = reached;
    }

    /// Records that `pos` has the result of `other`, found already (a
    /// position of the same orbit under a declared symmetry), and reaches
    /// what it reaches.
    pub fn same_as(&mut self, pos: PosId, other: PosId) {
        self.remember(pos, self.get(other));
        if let Some(reached) = self.reached_from(other) {
            self.remember_reach(pos, reached);
        }
    }

    /// Records a result found elsewhere (carried over a reload).
    pub fn remember(&mut self, pos: PosId, v: u32) {
        if v < FAILED {
            self.set(pos, v);
        }
    }

    pub fn compute(
        &mut self,
        rules: &mut dyn Rules,
        root: PosId,
        measure: Measure,
    ) -> Result<u32, Error> {
        self.compute_with(rules, root, measure, &mut |_, _| Ok(None))
    }

    /// `compute`, where a position of another game than the one whose
    /// options it is among is first offered to `elsewhere`.
    pub fn compute_with(
        &mut self,
        rules: &mut dyn Rules,
        root: PosId,
        measure: Measure,
        elsewhere: &mut Elsewhere,
    ) -> Result<u32, Error> {
        let known = self.get(root);
        if known < FAILED {
            return Ok(known);
        }
        if let Some(e) = self.failure(rules, root) {
            return Err(e);
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut moves: Vec<Move> = Vec::new();
        let result = self.run(rules, root, measure, &mut stack, &mut moves, elsewhere);
        if let Err(e) = &result {
            // Leave nothing marked as in progress, so a later call starts
            // clean, or fails at once where it would fail the same way.
            let again = matches!(e.kind, ErrorKind::OptionLimit { .. });
            for frame in &stack {
                if again {
                    self.set(frame.pos, FAILED);
                    self.failed
                        .insert(frame.pos, (e.clone(), rules.max_states()));
                } else {
                    self.set(frame.pos, UNKNOWN);
                }
            }
        }
        result
    }

    /// The error a position marked `FAILED` met, if it was met under the
    /// state limit in force; otherwise the mark is taken off.
    fn failure(&mut self, rules: &mut dyn Rules, pos: PosId) -> Option<Error> {
        if self.get(pos) != FAILED {
            return None;
        }
        match self.failed.get(&pos) {
            Some((e, limit)) if *limit == rules.max_states() => Some(e.clone()),
            _ => {
                self.failed.remove(&pos);
                self.set(pos, UNKNOWN);
                None
            }
        }
    }

    fn run(
        &mut self,
        rules: &mut dyn Rules,
        root: PosId,
        measure: Measure,
        stack: &mut Vec<Frame>,
        moves: &mut Vec<Move>,
        elsewhere: &mut Elsewhere,
    ) -> Result<u32, Error> {
        stack.push(self.open(rules, root, measure, moves)?);
        loop {
            if let Some(err) = self.cycle_among_options(rules, stack) {
                return Err(err);
            }
            let top = stack.len() - 1;
            // Descend into the first component whose result is not known.
            let mut descend = None;
            {
                let frame = &mut stack[top];
                while frame.next < frame.pending.len() {
                    let c = frame.pending[frame.next];
                    match self.get(c) {
                        ON_STACK => return Err(self.cycle(rules, stack, c)),
                        UNKNOWN | FAILED => {
                            descend = Some(c);
                            break;
                        }
                        _ => frame.next += 1,
                    }
                }
            }
            if let Some(c) = descend {
                if let Some(e) = self.failure(rules, c) {
                    return Err(e);
                }
                if measure == Measure::Value
                    && self.valued_elsewhere(rules, stack[top].pos, c, elsewhere)?
                {
                    continue;
                }
                let frame = self.open(rules, c, measure, moves)?;
                stack.push(frame);
                continue;
            }
            let Some(frame) = stack.pop() else {
                unreachable!("the stack holds at least the frame just examined");
            };
            if let Err(e) = self.note_reach(rules, &frame) {
                self.set(frame.pos, UNKNOWN);
                return Err(e);
            }
            let v = self.finish(&frame, measure);
            self.set(frame.pos, v);
            self.give_back(frame);
            if stack.is_empty() {
                return Ok(v);
            }
        }
    }

    /// Whether `c`, a position of another game than `parent`'s, was
    /// valued by `elsewhere` (its value, and the `lose if` it may reach,
    /// noted as the search notes them).
    fn valued_elsewhere(
        &mut self,
        rules: &mut dyn Rules,
        parent: PosId,
        c: PosId,
        elsewhere: &mut Elsewhere,
    ) -> Result<bool, Error> {
        let Some(game) = rules.game_of(c) else {
            return Ok(false);
        };
        if rules.game_of(parent) == Some(game) || self.declined.contains(&game) {
            return Ok(false);
        }
        let Some(v) = elsewhere(rules, c)? else {
            self.declined.push(game);
            return Ok(false);
        };
        self.remember(c, v);
        if rules.ends_whole_game(c) {
            self.remember_reach(c, c);
        }
        Ok(true)
    }

    fn open(
        &mut self,
        rules: &mut dyn Rules,
        pos: PosId,
        measure: Measure,
        moves: &mut Vec<Move>,
    ) -> Result<Frame, Error> {
        if crate::interrupt::requested() {
            return Err(Error::new(
                crate::interrupt::stop_kind(),
                Default::default(),
            ));
        }
        if rules.loopy(pos) {
            // Its values are generalised ones, found by the loopy solver.
            return Err(Error::new(
                ErrorKind::LoopyNotHandled {
                    position: rules.describe(pos),
                    game: rules.game_name(pos),
                },
                Default::default(),
            ));
        }
        self.opened = self.opened.wrapping_add(1);
        if self.opened.is_multiple_of(FORESEE_EVERY) {
            crate::interrupt::foresee_state_limit(self.table.len(), rules.max_states());
        }
        if measure == Measure::Value {
            if let Some(parts) = rules.parts(pos)? {
                let pending = parts
                    .iter()
                    .map(|&c| rules.canonical(c))
                    .collect::<Result<Vec<_>, _>>()?;
                self.set(pos, ON_STACK);
                return Ok(Frame {
                    pos,
                    ends: vec![(parts.len(), 0)],
                    pending,
                    next: 0,
                    is_parts: true,
                });
            }
        }
        moves.clear();
        if measure == Measure::Value {
            rules.value_options(pos, moves)?;
        } else {
            rules.options(pos, moves)?;
        }
        let (mut pending, mut ends) = self.spare.pop().unwrap_or_default();
        for m in moves.iter() {
            if measure == Measure::Value {
                // Values are stored for one position of each orbit only.
                for &c in m.result.iter() {
                    pending.push(rules.canonical(c)?);
                }
            } else {
                pending.extend_from_slice(&m.result);
            }
            ends.push((pending.len(), m.rule));
        }
        self.set(pos, ON_STACK);
        Ok(Frame {
            pos,
            pending,
            ends,
            next: 0,
            is_parts: false,
        })
    }

    /// Keeps a closed frame's lists for the next position opened: one is
    /// opened for every position searched.
    fn give_back(&mut self, frame: Frame) {
        let (mut pending, mut ends) = (frame.pending, frame.ends);
        if self.spare.len() < 32 && pending.capacity() <= 4096 {
            pending.clear();
            ends.clear();
            self.spare.push((pending, ends));
        }
    }

    fn finish(&mut self, frame: &Frame, measure: Measure) -> u32 {
        let mut start = 0;
        // Reused from one position to the next: it is needed for every one.
        let mut option_results = std::mem::take(&mut self.results);
        option_results.clear();
        for &(end, _) in &frame.ends {
            let parts = frame.pending[start..end].iter().map(|&c| self.get(c));
            option_results.push(match measure {
                Measure::Value => parts.fold(0, |acc, v| acc ^ v),
                Measure::Height => parts.fold(0u32, |acc, v| acc.saturating_add(v)),
            });
            start = end;
        }
        let result = match (measure, frame.is_parts) {
            (Measure::Value, true) => option_results[0],
            (Measure::Value, false) => mex(&option_results, &mut self.mex_set),
            (Measure::Height, _) => option_results
                .iter()
                .max()
                .map_or(0, |h| h.saturating_add(1)),
        };
        self.results = option_results;
        result
    }

    /// A freshly opened frame whose options lead back onto the stack is
    /// reported at once: searching its other options first could run
    /// forever in a game that is infinite as well as cyclic.
    fn cycle_among_options(&mut self, rules: &mut dyn Rules, stack: &mut [Frame]) -> Option<Error> {
        let top = stack.len() - 1;
        if stack[top].next != 0 {
            return None;
        }
        let found = stack[top]
            .pending
            .iter()
            .position(|&c| self.get(c) == ON_STACK)?;
        stack[top].next = found;
        let again = stack[top].pending[found];
        Some(self.cycle(rules, stack, again))
    }

    fn cycle(&mut self, rules: &mut dyn Rules, stack: &[Frame], again: PosId) -> Error {
        let start = stack.iter().position(|f| f.pos == again).unwrap_or(0);
        let mut names: Vec<String> = stack[start..]
            .iter()
            .map(|f| rules.describe(f.pos))
            .collect();
        names.push(rules.describe(again));
        let top = &stack[stack.len() - 1];
        let option = top
            .ends
            .iter()
            .position(|&(end, _)| end > top.next)
            .unwrap_or(0);
        let span = if top.is_parts {
            rules.parts_span(top.pos)
        } else {
            rules.rule_span(top.pos, top.ends.get(option).map_or(0, |&(_, r)| r))
        };
        for frame in stack {
            self.set(frame.pos, UNKNOWN);
        }
        Error::new(
            ErrorKind::Cycle {
                cycle: names.join(" -> "),
            },
            span,
        )
    }
}
