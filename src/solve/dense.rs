//! The search of a game whose positions pack into one integer key (see
//! `eval::compact`): options are keys made straight from keys, and values
//! live in a table indexed by the key itself, or by key and value packed
//! together, or in a hash map (see `store`). The search is depth-first with
//! its own stack, as the general memo's is.
//!
//! Whatever the compiled rules cannot answer as the interpreter would (an
//! overflow, an index out of range, a value that does not fit the key, a
//! cycle) stops this search with `Abort`, and so does the state limit;
//! the general search then answers, and reports any error with its span.

pub use super::store::PACKED_BITS;
use super::store::{Full, Store, Table, ON_STACK, UNKNOWN};
use crate::error::Error;
use std::any::Any;

/// The compiled rules cannot answer; the general search must.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Abort;

/// A game whose positions are keys of at most `bits` bits.
pub trait KeyGame: Any {
    /// Appends the keys of the position's options to `out`, each a key, a
    /// run of keys (see `push_run`) or a sum of keys (see `push_sum`);
    /// none when the player to move has lost.
    fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort>;
    /// How many bits a key has.
    fn bits(&self) -> u32;
    /// How many elements a list whose length changes has room for: none
    /// when there is no such list.
    fn room(&self) -> u32 {
        0
    }
    fn as_any(&self) -> &dyn Any;
    /// Whether `canonical` can give another key than the one it is given:
    /// the game declares a symmetry, and it compiled.
    fn has_symmetry(&self) -> bool {
        false
    }
    /// The key that stands for every key of the orbit of `key` under the
    /// game's declared symmetry (the search stores only such keys): the
    /// key itself when there is none.
    fn canonical(&mut self, key: u64) -> Result<u64, Abort> {
        Ok(key)
    }
}

/// The options from `start` on, each key (runs written out) replaced by
/// the key that stands for its orbit, each such key once: symmetric moves
/// lead to one position, and the mex needs it once. A sum's parts are
/// each replaced so, the sums kept after the keys.
fn canonical_options(
    game: &mut dyn KeyGame,
    arena: &mut Vec<u64>,
    start: usize,
    keys: &mut Vec<u64>,
) -> Result<(), Abort> {
    keys.clear();
    let mut sums = Vec::new();
    for option in options_of(&arena[start..]) {
        match option {
            Listed::Run(first, step, count) => {
                for j in 0..count {
                    keys.push(game.canonical(run_key(first, step, j))?);
                }
            }
            Listed::Sum(parts) => {
                sums.push(SUM | parts.len() as u64);
                for &part in parts {
                    sums.push(game.canonical(part)?);
                }
            }
        }
    }
    keys.sort_unstable();
    keys.dedup();
    arena.truncate(start);
    arena.extend_from_slice(keys);
    arena.extend_from_slice(&sums);
    Ok(())
}

/// Marks the first word of a run in a list of options. Keys have at most
/// 63 bits, so a plain key never has it.
const RUN: u64 = 1 << 63;
/// Marks the first word of a sum in a list of options: a run's count
/// never reaches the second bit.
const SUM: u64 = RUN | 1 << 62;

/// Appends one option that is a sum of positions: the count of its parts
/// with the mark, then their keys. The value of the sum is the XOR of
/// its parts' values, so the search reads it once every part's value is
/// known; a sum of no parts (the finished game) is worth 0. A sum of one
/// part is written as its key alone (see `end_sum`).
#[inline(always)]
pub fn begin_sum(out: &mut Vec<u64>) -> usize {
    out.push(SUM);
    out.len() - 1
}

/// Closes the sum `begin_sum` opened at `at`, whose parts' keys follow it
/// to the end of `out`.
#[inline(always)]
pub fn end_sum(out: &mut Vec<u64>, at: usize) {
    let parts = out.len() - at - 1;
    if parts == 1 {
        out.swap_remove(at);
    } else {
        out[at] = SUM | parts as u64;
    }
}

/// Appends the options `first`, `first + step`, ... (`count` of them) as
/// three words: the count with the mark, the first key, the step. Moves
/// that count one element through a range make such runs, and the search
/// reads them without each key being written out. A step down is written
/// as its two's complement: the keys are `first + j * step` in wrapping
/// arithmetic, which is exact as long as every key of the run is one.
#[inline(always)]
pub fn push_run(out: &mut Vec<u64>, first: u64, step: u64, count: u64) {
    // Three pushes rather than a copy of a three-word slice, which
    // inlined into a loop can become a call to `memmove`.
    out.reserve(3);
    out.push(RUN | count);
    out.push(first);
    out.push(step);
}

/// The keys of a list of options as `KeyGame::options` writes it, its
/// runs written out key by key and a sum's parts one after another.
pub fn written_out(options: &[u64]) -> Vec<u64> {
    let mut keys = Vec::new();
    for listed in options_of(options) {
        match listed {
            Listed::Run(first, step, count) => {
                keys.extend((0..count).map(|j| run_key(first, step, j)));
            }
            Listed::Sum(parts) => keys.extend_from_slice(parts),
        }
    }
    keys
}

/// One entry of a list of options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listed<'a> {
    /// `count` keys from `first` by `step`: a single key is a run of one.
    Run(u64, u64, u64),
    /// One option, the sum of positions with these keys.
    Sum(&'a [u64]),
}

/// A list of options as `KeyGame::options` writes it, entry by entry.
pub fn options_of(options: &[u64]) -> impl Iterator<Item = Listed<'_>> + '_ {
    let mut at = 0;
    std::iter::from_fn(move || {
        let word = *options.get(at)?;
        if word & RUN == 0 {
            at += 1;
            return Some(Listed::Run(word, 0, 1));
        }
        if word & SUM == SUM {
            let parts = (word & !SUM) as usize;
            let sum = Listed::Sum(&options[at + 1..at + 1 + parts]);
            at += 1 + parts;
            return Some(sum);
        }
        let run = Listed::Run(options[at + 1], options[at + 2], word & !RUN);
        at += 3;
        Some(run)
    })
}

/// How many options a list of them holds, as `KeyGame::options` writes
/// it: a run counts its keys, a sum one.
fn count_options(options: &[u64]) -> usize {
    options_of(options)
        .map(|listed| match listed {
            Listed::Run(_, _, count) => count as usize,
            Listed::Sum(_) => 1,
        })
        .fold(0, usize::saturating_add)
}

/// Key `j` of the run from `first` by `step` (see `push_run`).
#[inline(always)]
pub(super) fn run_key(first: u64, step: u64, j: u64) -> u64 {
    first.wrapping_add(j.wrapping_mul(step))
}

/// How often (in positions opened) the search says how far the state limit
/// is.
const CHECK_EVERY: usize = 1 << 10;
/// How often (in positions opened) the search looks at its budget (Ctrl-C,
/// time, memory): often, since a position may have a hundred thousand
/// options to list, but not at every one, where the call costs 3% of a
/// search of short option lists.
const LOOK_EVERY: usize = 16;

/// Stops the search when Ctrl-C, the time limit or the memory limit says
/// so.
fn look_at_budget() -> Result<(), Error> {
    if crate::interrupt::requested() {
        return Err(Error::new(
            crate::interrupt::stop_kind(),
            Default::default(),
        ));
    }
    Ok(())
}

/// Asks for the table's entries of the options listed: looked at one after
/// another, most of them after the search comes back from the first, they
/// arrive together (Treblecross on 28 cells, whose table of a byte a key is
/// 256 MiB, takes 30% less time). Single keys only: a run may stand for
/// thousands. Counts at least as many options as there are (a run's other
/// two words count too), for the words of bits their values of 64 or more
/// take.
fn prefetched<S: Store>(table: &S, listed: &[u64]) -> usize {
    let mut options = 0usize;
    for &word in listed {
        if word & RUN == 0 {
            table.prefetch(word);
            options += 1;
        } else if word & SUM == SUM {
            options += 1;
        } else {
            options = options.saturating_add((word & !RUN) as usize);
        }
    }
    options
}

/// Notes in `seen` the values below 64 of the single keys listed from
/// `start` on that the table knows, and drops them, so that the scan meets
/// only the options it must open (or whose values need the words past 64):
/// a position whose options are all known is settled with no frame. Counts
/// the options as `prefetched` does.
fn noted<S: Store>(table: &S, arena: &mut Vec<u64>, start: usize, seen: &mut u64) -> usize {
    let mut options = 0usize;
    let (mut at, mut kept) = (start, start);
    while at < arena.len() {
        let word = arena[at];
        let len = if word & RUN == 0 {
            options += 1;
            let v = table.get(word);
            if v < 64 {
                *seen |= 1 << v;
                at += 1;
                continue;
            }
            1
        } else if word & SUM == SUM {
            options += 1;
            1 + (word & !SUM) as usize
        } else {
            options = options.saturating_add((word & !RUN) as usize);
            3
        };
        if kept != at {
            for i in 0..len {
                arena[kept + i] = arena[at + i];
            }
        }
        (at, kept) = (at + len, kept + len);
    }
    arena.truncate(kept);
    options
}

/// Bytes past which a table is taken to be far larger than the cache, so
/// that asking for a position's entries before reading them pays: a table
/// that fits is read as fast without.
const FAR: usize = 8 << 20;

/// An open position: its key, where its options start in the arena, the
/// next option to look at, and the values of those looked at so far.
struct Frame {
    key: u64,
    start: usize,
    next: usize,
    /// Within a run at `next`, how many of its keys were looked at.
    within: u64,
    /// Values below 64, as bits.
    seen: u64,
    /// Where this position's words of bits for values of 64 or more start
    /// in the search's stack of them (see `Search::highs`): the words from
    /// there to the stack's end are this position's while it is on top.
    highs: usize,
}

impl Frame {
    /// Looks at the keys of a run (its three words) from `within` on: the
    /// first whose value is unknown, if any, or `Abort` at one that is open.
    /// Kept out of line, so that the loop over single keys stays small.
    #[inline(never)]
    fn scan_run<S: Store>(
        &mut self,
        table: &S,
        run: &[u64],
        highs: &mut [u64],
    ) -> Result<Option<u64>, Abort> {
        let (count, first, step) = (run[0] & !RUN, run[1], run[2]);
        // In locals, so that the loop keeps them in registers.
        let (mut within, mut seen) = (self.within, self.seen);
        while within < count {
            let option = run_key(first, step, within);
            let v = table.get(option);
            if v >= UNKNOWN {
                (self.within, self.seen) = (within, seen);
                if v == ON_STACK {
                    return Err(Abort);
                }
                return Ok(Some(option));
            }
            note(&mut seen, v, highs);
            within += 1;
        }
        (self.within, self.seen) = (0, seen);
        Ok(None)
    }

    /// Looks at the parts of a sum: the first whose value is unknown, if
    /// any (the sum is looked at again, from its first part, once it is
    /// known), or `Abort` at one that is open; else notes the XOR of
    /// their values.
    #[inline(never)]
    fn scan_sum<S: Store>(
        &mut self,
        table: &S,
        parts: &[u64],
        highs: &mut [u64],
    ) -> Result<Option<u64>, Abort> {
        let mut value = 0;
        for &part in parts {
            let v = table.get(part);
            if v >= UNKNOWN {
                if v == ON_STACK {
                    return Err(Abort);
                }
                return Ok(Some(part));
            }
            value ^= v;
        }
        note(&mut self.seen, value, highs);
        Ok(None)
    }
}

/// Counts an option's value towards the mex: below 64 as a bit of `seen`,
/// else as a bit of the position's words in `highs` (value 64 is the first
/// word's lowest bit), so that the mex never reads the options a second
/// time. A value past the words is past the count of options, which the
/// mex never reaches (see `high_words`).
#[inline(always)]
fn note(seen: &mut u64, v: u32, highs: &mut [u64]) {
    if v < 64 {
        *seen |= 1 << v;
    } else if let Some(word) = highs.get_mut((v as usize - 64) / 64) {
        *word |= 1 << (v % 64);
    }
}

/// The words of bits a position with at most `options` options needs for
/// its values of 64 or more: its mex is at most `options`, so values from
/// 64 up to `options` may matter, and none past.
fn high_words(options: usize) -> usize {
    options.saturating_sub(64).div_ceil(64)
}

/// The least value missing from a position whose values below 64 are the
/// bits of `seen` and whose values of 64 or more are the bits of `highs`.
fn mex_of(seen: u64, highs: &[u64]) -> u32 {
    if seen != u64::MAX {
        return seen.trailing_ones();
    }
    let (at, word) = highs
        .iter()
        .enumerate()
        .find(|(_, &w)| w != u64::MAX)
        .map_or((highs.len(), 0), |(at, &w)| (at, w));
    64 + (at * 64) as u32 + word.trailing_ones()
}

/// A compiled game with the values found so far.
pub struct DenseSearch {
    pub game: Box<dyn KeyGame>,
    table: Table,
    /// Positions whose value the table holds.
    pub positions: usize,
    /// Positions the general search holds too: those whose values were
    /// asked for, and those it searched again when this search gave up.
    pub answered: usize,
    /// Whether the last search stopped because it met the state limit.
    pub over_limit: bool,
    /// The options of the open positions, one after another.
    arena: Vec<u64>,
    /// The open positions: key, where its options start, the next to look at.
    stack: Vec<Frame>,
    /// The values of 64 or more met by the open positions, as words of
    /// bits, each position's after its parent's.
    highs: Vec<u64>,
    /// The options of the position being opened, each for its orbit.
    canonical: Vec<u64>,
}

impl DenseSearch {
    pub fn new(game: Box<dyn KeyGame>) -> DenseSearch {
        let table = Table::new(game.bits());
        DenseSearch {
            game,
            table,
            positions: 0,
            answered: 0,
            over_limit: false,
            arena: Vec::new(),
            stack: Vec::new(),
            highs: Vec::new(),
            canonical: Vec::new(),
        }
    }

    pub fn heap_bytes(&self) -> usize {
        self.table.heap_bytes()
    }

    /// Positions only this search holds.
    pub fn held_alone(&self) -> usize {
        self.positions.saturating_sub(self.answered)
    }

    /// Whether the table holds the value of the position with this key.
    pub fn holds(&mut self, key: u64) -> bool {
        let Ok(key) = self.game.canonical(key) else {
            return false;
        };
        let value = match &self.table {
            Table::Narrow(t) => t.get(key),
            Table::Wide(t) => t.get(key),
            Table::Quotient(t) => t.get(key),
            Table::Packed(t) => t.get(key),
            Table::Hashed(t) => t.get(key),
        };
        value < UNKNOWN
    }

    /// The value of the position with this key, searched if not known:
    /// `Ok(None)` when the compiled rules cannot answer.
    /// `max_options`: the most options one position may have (see
    /// `Search::max_options`).
    pub fn value(
        &mut self,
        root: u64,
        max_states: usize,
        max_options: usize,
    ) -> Result<Option<u32>, Error> {
        let Ok(root) = self.game.canonical(root) else {
            return Ok(None);
        };
        let mut search = Search {
            game: &mut *self.game,
            positions: &mut self.positions,
            arena: &mut self.arena,
            stack: &mut self.stack,
            highs: &mut self.highs,
            canonical: &mut self.canonical,
            max_states,
            max_options,
            closed: 0,
            // A table that grows as it fills is taken to be far.
            far: !matches!(self.table, Table::Narrow(_) | Table::Wide(_))
                || self.table.heap_bytes() > FAR,
        };
        let step = loop {
            let step = match &mut self.table {
                Table::Narrow(t) => search.run(t, root),
                Table::Wide(t) => search.run(t, root),
                Table::Quotient(t) => search.run(t, root),
                Table::Packed(t) => search.run(t, root),
                Table::Hashed(t) => search.run(t, root),
            };
            match (step, &self.table) {
                // The open positions and their options stay as they are:
                // the search goes on in the wider table.
                (Ok(Step::Full), Table::Narrow(_)) => {
                    if self.table.widen(crate::interrupt::memory_room()).is_err() {
                        // No room for two bytes a key: the general search
                        // answers, within the budget or stopped by it.
                        break Ok(Step::Abort);
                    }
                }
                (Ok(Step::Full), Table::Quotient(_)) => {
                    if self.table.outgrown() {
                        self.table.densify(crate::interrupt::memory_room());
                    } else {
                        // An entry that does not fit 32 bits.
                        self.table.widen_slots();
                    }
                }
                (Ok(Step::Full), Table::Packed(_)) => {
                    self.table.densify(crate::interrupt::memory_room())
                }
                (step, _) => break step,
            }
        };
        if !matches!(step, Ok(Step::Done(_))) {
            // Leave nothing marked as open; the values found stay, and
            // only they count as held.
            self.positions -= self.stack.len();
            for frame in self.stack.iter() {
                match &mut self.table {
                    Table::Narrow(t) => t.set(frame.key, UNKNOWN),
                    Table::Wide(t) => t.set(frame.key, UNKNOWN),
                    Table::Quotient(t) => t.set(frame.key, UNKNOWN),
                    Table::Packed(t) => t.set(frame.key, UNKNOWN),
                    Table::Hashed(t) => t.set(frame.key, UNKNOWN),
                }
                .ok();
            }
        }
        self.stack.clear();
        self.arena.clear();
        self.highs.clear();
        self.over_limit = matches!(step, Ok(Step::Limit));
        match step? {
            Step::Done(v) => Ok(Some(v)),
            Step::Abort | Step::Limit | Step::Full => Ok(None),
        }
    }
}

/// How a run of the search ended.
enum Step {
    Done(u32),
    /// The compiled rules cannot answer.
    Abort,
    /// The search needs more positions than the state limit allows.
    Limit,
    /// A value too wide for the table, or a table outgrown; the open
    /// positions are kept.
    Full,
}

/// One search's borrowed state.
struct Search<'a> {
    game: &'a mut dyn KeyGame,
    positions: &'a mut usize,
    arena: &'a mut Vec<u64>,
    stack: &'a mut Vec<Frame>,
    highs: &'a mut Vec<u64>,
    canonical: &'a mut Vec<u64>,
    max_states: usize,
    /// The state limit, which bounds one position's options too: the
    /// general search reports a position with more, at the rule that made
    /// the option past the limit (see `Interp::moves_of`).
    max_options: usize,
    /// Whether the table is far larger than the cache (see `open`).
    far: bool,
    /// Positions whose values this run has set: when each has many
    /// options, closing them is where the time goes, so the budget is
    /// looked at there too.
    closed: usize,
}

impl Search<'_> {
    /// Opens the position `key`: `None` when it has options to look at, or
    /// how the search must go on (`Done` when it has none and its value is
    /// set already).
    fn open<S: Store>(&mut self, table: &mut S, key: u64) -> Result<Option<Step>, Error> {
        if table.outgrown() {
            // Nothing done yet: the position is opened again in the new
            // table.
            return Ok(Some(Step::Full));
        }
        *self.positions += 1;
        if *self.positions > self.max_states {
            // The general search reports the limit, at the move that went
            // past it: a key knows no rule or span. That search counts
            // every position it makes, this one only those it opens, so it
            // meets the limit after little work of its own.
            *self.positions -= 1;
            return Ok(Some(Step::Limit));
        }
        if (*self.positions).is_multiple_of(CHECK_EVERY) {
            crate::interrupt::foresee_state_limit(*self.positions, self.max_states);
        }
        if (*self.positions).is_multiple_of(LOOK_EVERY) {
            look_at_budget()?;
        }
        let start = self.arena.len();
        let listed = self.game.options(key, self.arena).and_then(|()| {
            if self.game.has_symmetry() {
                // Counted as listed, before the options of one orbit
                // become one.
                if count_options(&self.arena[start..]) > self.max_options {
                    return Err(Abort);
                }
                canonical_options(self.game, self.arena, start, self.canonical)?;
            }
            Ok(())
        });
        if listed.is_err() {
            self.arena.truncate(start);
            *self.positions -= 1;
            return Ok(Some(Step::Abort));
        }
        // In a table far larger than the cache, the options' entries are
        // asked for first, so that they arrive together (see `prefetched`);
        // in one that fits, those known are noted at once (see `noted`).
        let mut seen = 0u64;
        let options = if self.far {
            prefetched(table, &self.arena[start..])
        } else {
            noted(table, self.arena, start, &mut seen)
        };
        if options > self.max_options {
            self.arena.truncate(start);
            *self.positions -= 1;
            return Ok(Some(Step::Abort));
        }
        if self.arena.len() == start {
            // No options (most often a lost position), or all known: no
            // frame.
            let v = mex_of(seen, &[]);
            return Ok(Some(match table.set(key, v) {
                Ok(()) => Step::Done(v),
                // A value too wide for the table: the search goes on in
                // a wider one, which opens the position again.
                Err(Full) => Step::Full,
            }));
        }
        if table.set(key, ON_STACK).is_err() {
            // A table whose slots are too narrow: the position is opened
            // again in a wider one (nothing was stored).
            *self.positions -= 1;
            self.arena.truncate(start);
            return Ok(Some(Step::Full));
        }
        self.stack.push(Frame {
            key,
            start,
            next: start,
            within: 0,
            seen,
            highs: self.highs.len(),
        });
        let words = self.highs.len() + high_words(options);
        self.highs.resize(words, 0);
        Ok(None)
    }

    /// Searches from `root`, or goes on with the open positions if a run
    /// stopped at a full table left some.
    fn run<S: Store>(&mut self, table: &mut S, root: u64) -> Result<Step, Error> {
        if self.stack.is_empty() {
            let known = table.get(root);
            if known < UNKNOWN {
                return Ok(Step::Done(known));
            }
            if let Some(step) = self.open(table, root)? {
                return Ok(step);
            }
        }
        loop {
            let Some(frame) = self.stack.last_mut() else {
                unreachable!("the root's frame is closed only by returning");
            };
            let mut descend = None;
            let options = &self.arena[..];
            let highs = &mut self.highs[frame.highs..];
            'scan: while frame.next < options.len() {
                let word = options[frame.next];
                if word & RUN == 0 {
                    // Most options are single keys: they take the short way.
                    let v = table.get(word);
                    if v >= UNKNOWN {
                        if v == ON_STACK {
                            // A cycle: the general search reports it.
                            return Ok(Step::Abort);
                        }
                        descend = Some(word);
                        break 'scan;
                    }
                    note(&mut frame.seen, v, highs);
                    frame.next += 1;
                    continue;
                }
                let (scanned, len) = if word & SUM == SUM {
                    let parts = (word & !SUM) as usize;
                    let at = frame.next + 1;
                    let sum = &options[at..at + parts];
                    (frame.scan_sum(table, sum, highs), 1 + parts)
                } else {
                    let run = &options[frame.next..frame.next + 3];
                    (frame.scan_run(table, run, highs), 3)
                };
                match scanned {
                    Ok(None) => frame.next += len,
                    Ok(Some(option)) => {
                        descend = Some(option);
                        break 'scan;
                    }
                    // A cycle: the general search reports it.
                    Err(Abort) => return Ok(Step::Abort),
                }
            }
            if let Some(option) = descend {
                match self.open(table, option)? {
                    // Opened, or settled at once: the scan goes on.
                    None | Some(Step::Done(_)) => continue,
                    Some(step) => return Ok(step),
                }
            }
            let (key, start, highs) = (frame.key, frame.start, frame.highs);
            let v = mex_of(frame.seen, &self.highs[highs..]);
            if table.set(key, v).is_err() {
                // The search goes on at this frame: its values are kept.
                return Ok(Step::Full);
            }
            self.highs.truncate(highs);
            self.arena.truncate(start);
            self.stack.pop();
            let Some(parent) = self.stack.last() else {
                return Ok(Step::Done(v));
            };
            if self.far {
                // The parent's entry was last read when it was opened, and
                // its search since has likely pushed it out of the cache:
                // asked for now, it comes while the parent's other options
                // are read, before the parent's value is set.
                table.prefetch(parent.key);
            }
            self.closed += 1;
            if self.closed.is_multiple_of(LOOK_EVERY) {
                look_at_budget()?;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys of 21 bits, the top one always set; a move clears one of the
    /// 19 lowest bits that is set, so a position's value is the parity of
    /// those bits, and 2^19 positions are reachable from the top: a quarter
    /// of the keys, past the eighth at which the packed table gives way.
    struct ClearOne;

    const TOP: u64 = 1 << 20;

    impl KeyGame for ClearOne {
        fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
            let mut bits = key & ((1 << 19) - 1);
            while bits != 0 {
                let low = bits & bits.wrapping_neg();
                out.push(key & !low);
                bits &= bits - 1;
            }
            Ok(())
        }

        fn bits(&self) -> u32 {
            21
        }

        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    /// A heap of `key` whose options are every smaller heap `m` but those
    /// with `key * m` one more than a multiple of `modulus`, written as
    /// runs or as single keys: values reach the hundreds, past the word of
    /// bits, with gaps below them.
    struct SkipSome {
        modulus: u64,
        as_runs: bool,
    }

    impl SkipSome {
        fn option_keys(&self, key: u64) -> Vec<u64> {
            (0..key).filter(|m| key * m % self.modulus != 1).collect()
        }
    }

    impl KeyGame for SkipSome {
        fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
            let keys = self.option_keys(key);
            if !self.as_runs {
                // Backwards and each twice: order and repeats do not matter.
                out.extend(keys.iter().rev().chain(&keys));
                return Ok(());
            }
            for chunk in keys.chunk_by(|a, b| b == &(a + 1)) {
                push_run(out, chunk[0], 1, chunk.len() as u64);
            }
            Ok(())
        }

        fn bits(&self) -> u32 {
            10
        }

        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    #[test]
    fn a_position_whose_options_are_all_known_is_settled_where_it_is_opened() {
        // Asked bottom up, every heap's options are known when it is
        // opened: its value is found with no frame, as the mex of theirs.
        let game = SkipSome {
            modulus: 3,
            as_runs: false,
        };
        let want = bottom_up(&game, 200);
        assert!(want.iter().any(|&v| v > 64), "values pass 64");
        let mut search = DenseSearch::new(Box::new(game));
        every_heap_has_its_value(&mut search, &want);
    }

    /// The values of the heaps below `heaps`, bottom up, each by the
    /// definition of the mex.
    fn bottom_up(game: &SkipSome, heaps: u64) -> Vec<u32> {
        let mut want: Vec<u32> = Vec::new();
        for n in 0..heaps {
            let values: Vec<u32> = game
                .option_keys(n)
                .iter()
                .map(|&m| want[m as usize])
                .collect();
            want.push((0..).find(|v| !values.contains(v)).unwrap_or(0));
        }
        want
    }

    /// The search finds `want[n]` for every heap `n`.
    fn every_heap_has_its_value(search: &mut DenseSearch, want: &[u32]) {
        for (n, &v) in want.iter().enumerate() {
            assert_eq!(
                search
                    .value(n as u64, usize::MAX, usize::MAX)
                    .ok()
                    .flatten(),
                Some(v),
                "heap {n}"
            );
        }
    }

    #[test]
    fn values_past_64_are_the_least_missing_value() {
        for modulus in [1, 5, 7, 11] {
            for as_runs in [false, true] {
                let game = SkipSome { modulus, as_runs };
                let want = bottom_up(&game, 600);
                assert!(want.iter().any(|&v| v > 200), "values pass 64 by far");
                let mut search = DenseSearch::new(Box::new(game));
                assert_eq!(
                    search.value(599, usize::MAX, usize::MAX).ok().flatten(),
                    Some(want[599])
                );
                every_heap_has_its_value(&mut search, &want);
            }
        }
    }

    /// `SkipSome` with keys of 40 bits: slots of 32 bits have room for few
    /// code bits beside them.
    struct LongKeys(SkipSome);

    impl KeyGame for LongKeys {
        fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
            self.0.options(key, out)
        }

        fn bits(&self) -> u32 {
            40
        }

        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    #[test]
    fn values_too_wide_for_narrow_slots_move_the_search_to_wide_ones() {
        for as_runs in [false, true] {
            let game = SkipSome {
                modulus: 7,
                as_runs,
            };
            let want = bottom_up(&game, 400);
            let mut search = DenseSearch::new(Box::new(LongKeys(game)));
            assert!(matches!(search.table, Table::Quotient(_)));
            assert_eq!(
                search.value(399, usize::MAX, usize::MAX).ok().flatten(),
                Some(want[399])
            );
            assert!(matches!(search.table, Table::Packed(_)));
            every_heap_has_its_value(&mut search, &want);
            assert_eq!(search.positions, 400, "nothing searched twice");
        }
    }

    #[test]
    fn a_packed_table_moves_to_one_of_every_key_part_way() {
        let mut search = DenseSearch::new(Box::new(ClearOne));
        assert!(matches!(search.table, Table::Quotient(_)));
        let root = TOP | ((1 << 19) - 1);
        assert_eq!(
            search.value(root, usize::MAX, usize::MAX).ok().flatten(),
            Some(1)
        );
        assert!(matches!(search.table, Table::Narrow(_)));
        assert_eq!(search.positions, 1 << 19);
        // Values found before the move and after it are all there.
        for key in [
            TOP,
            TOP | 1,
            TOP | 0b110,
            TOP | 0b1_0110_1000_0000_0001,
            root - 1,
        ] {
            let parity = (key & !TOP).count_ones() % 2;
            assert_eq!(
                search.value(key, usize::MAX, usize::MAX).ok().flatten(),
                Some(parity)
            );
        }
        assert_eq!(search.positions, 1 << 19, "nothing searched twice");
    }
}
