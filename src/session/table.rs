//! Nim-sequences of heap games: `table`, and values of heaps too large to
//! search, through a proven period.
//!
//! The fastest method that applies computes the values: the octal kernel,
//! the affine rules read as arithmetic, or else the general solver one heap
//! at a time. Each hands back the values every stretch of heaps, so a run
//! can be watched, saved, stopped, and ended early once a period is proven.

use super::{Family, Session};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::engine::{Compiled, OrUnsupported, Path, Unsupported};
use crate::eval::ir::GameKind;
use crate::eval::{PosId, Value};
use crate::solve::affine::{self, AffineGame};
use crate::solve::bottom_up;
use crate::solve::kernel::{self, STRETCH};
use crate::solve::period::{self, Period, Proof, Shape};
use crate::solve::sparse::HeapRules;
use crate::solve::values::Values;
use crate::source::Span;
use std::ops::ControlFlow;
use std::sync::Arc;

/// Shown the values so far every stretch of heaps; breaking stops the run.
pub type Hook<'a> = dyn FnMut(&Values) -> ControlFlow<()> + 'a;

/// What a table run is asked to do.
pub struct TableRequest<'a> {
    pub upto: u64,
    /// g(0), g(1), ... already known, from a checkpoint.
    pub known: Values,
    /// Whether a proven period may end the computation early (the values
    /// past it then follow from the period).
    pub shortcut: bool,
    /// Shown the values so far after every stretch of heaps; it may stop
    /// the run (which then ends with neither a proof nor `stopped`).
    pub progress: Option<&'a mut Hook<'a>>,
    /// Whether the session keeps the values of a run that is stopped, and
    /// the next run of the game (with nothing `known`) carries on from
    /// them. A run saved to a checkpoint has no need of it.
    pub resume: bool,
}

impl TableRequest<'_> {
    /// g(0..=upto), unwatched, ending early at a proven period; carried on
    /// from a stopped run of the game if there was one.
    pub fn upto(upto: u64) -> TableRequest<'static> {
        TableRequest {
            upto,
            known: Values::default(),
            shortcut: true,
            progress: None,
            resume: true,
        }
    }
}

/// What a table run found.
pub struct Table {
    /// g(0), ..., g(upto), or as far as the run got if it was stopped.
    pub values: Values,
    /// How many of the values were computed rather than read off a period.
    pub computed: usize,
    /// A period the game's rules prove, if one was found.
    pub proof: Option<Proof>,
    /// Why the run ended before `upto`: Ctrl-C or the time limit.
    pub stopped: Option<ErrorKind>,
    /// How many values were known when the run started: read from a
    /// checkpoint, or kept from an earlier run of this session that was
    /// stopped.
    pub resumed: usize,
}

impl Table {
    /// A period seen in the values (possibly with a saltus), when none is
    /// proven.
    pub fn seen(&self) -> Option<Period> {
        match self.proof {
            Some(_) => None,
            None => period::find(&self.values),
        }
    }
}

/// Heaps from this size on are answered from a table (and its period)
/// rather than searched position by position, when the game has a fast
/// table: below it a search takes milliseconds, above it a search of a
/// game whose moves split heaps grows as the square of the heap while the
/// kernel's table stays far faster (Kayles written as rules: 3.9 s
/// searched at 4,000, against a table of a few milliseconds).
const TABLE_FROM: i64 = 1 << 8;

/// A table kept to answer for large heaps, or the values of a run that was
/// stopped, kept for the next run to carry on from.
pub(super) struct Known {
    values: Values,
    proof: Option<Proof>,
    /// Whether the run went as far as it was asked (else it was stopped).
    complete: bool,
}

impl Session {
    /// g(0), g(1), ..., g(upto) of a heap game; `each` is told of each
    /// value. A Ctrl-C or time limit is an error.
    pub fn table(
        &mut self,
        game: u32,
        upto: u64,
        mut each: impl FnMut(u64, u32),
    ) -> Result<Vec<u32>, Errors> {
        let table = self.table_run(&Family::heaps(game), TableRequest::upto(upto))?;
        if let Some(kind) = table.stopped {
            let span = self.interp.program.games[game as usize].span;
            return Err(vec![Error::new(kind, span)]);
        }
        for (n, v) in table.values.iter().enumerate() {
            each(n as u64, v);
        }
        Ok(table.values.to_vec())
    }

    /// A table of a family with one free number, computed as asked.
    pub fn table_run(&mut self, family: &Family, request: TableRequest) -> Result<Table, Errors> {
        // A dense table is no search: its memory is known before it starts,
        // so it is refused only when that much is not there. (A game
        // searched heap by heap is bounded by the search's state limit.)
        let needed = table_bytes(request.upto);
        let upto = match usize::try_from(request.upto) {
            Ok(n)
                if crate::memory::available()
                    .map(|b| b as u64)
                    .is_none_or(|free| needed <= free as u128) =>
            {
                n
            }
            _ => {
                return Err(vec![Error::new(
                    ErrorKind::TooLarge {
                        what: format!("the table g(0..={})", request.upto),
                        size: format!("{} at two bytes a value", bytes(needed)),
                        limit: match crate::memory::available().map(|b| b as u64) {
                            Some(available) => {
                                format!("the {} of memory available", bytes(available as u128))
                            }
                            None => "what this machine can address".into(),
                        },
                    },
                    self.asked,
                )])
            }
        };
        // An alias of another game at the same heap has its table.
        let inner = self.alias_family(family);
        let family = match &inner {
            Some((inner, 0)) => inner,
            _ => family,
        };
        let resume = request.resume;
        let mut known = match request.known.is_empty() && resume {
            true => self.kept_from_a_stopped_run(family, upto),
            false => request.known,
        };
        // Values known past `upto` (a checkpoint of a longer run) are not
        // asked for: the table, its period and its proof end at `upto`.
        known.truncate(upto + 1);
        let resumed = known.len();
        let shape = self.shape(family);
        let shortcut = request.shortcut;
        let mut progress = request.progress;
        let mut proof = None;
        let mut stopped = None;
        let mut hook = |values: &Values| {
            if let Some(progress) = progress.as_mut() {
                progress(values)?;
            }
            if crate::interrupt::requested_now() {
                stopped = Some(crate::interrupt::stop_kind());
                return ControlFlow::Break(());
            }
            // Trying at powers of two keeps the cost of trying small.
            if let (true, Some(shape)) = (shortcut, shape) {
                if values.len().is_power_of_two() {
                    proof = period::prove(values, shape).filter(|p| p.reaches(upto as u64));
                    if proof.is_some() {
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        };
        let mut values = self.compute(family, known, upto, &mut hook)?;
        if stopped.is_some() && resume {
            let kept = Known {
                values: values.clone(),
                proof: None,
                complete: false,
            };
            self.tables.insert(family.clone(), kept);
        }
        let computed = values.len();
        if let Some(proof) = proof {
            for n in computed..=upto {
                match proof.value(&values, n as u64) {
                    Some(v) => values.push(v),
                    None => break,
                }
            }
        }
        if stopped.is_none() && proof.is_none() && values.len() == upto + 1 {
            proof = shape.and_then(|shape| period::prove(&values, shape));
        }
        Ok(Table {
            values,
            computed,
            proof,
            stopped,
            resumed,
        })
    }

    /// The values a stopped run of this game found, up to `upto`; none if
    /// no run was stopped since the definitions last changed.
    fn kept_from_a_stopped_run(&mut self, family: &Family, upto: usize) -> Values {
        match self.tables.get(family) {
            Some(kept) if !kept.complete && kept.values.len() > upto + 1 => {
                let mut values = kept.values.clone();
                values.truncate(upto + 1);
                values
            }
            Some(kept) if !kept.complete => self
                .tables
                .remove(family)
                .map(|kept| kept.values)
                .unwrap_or_default(),
            _ => Values::default(),
        }
    }

    /// The value of a large heap of a game with a fast table: read off the
    /// table, or off the period it proves if the heap lies beyond it.
    /// `None` for any other position (the solver searches it).
    pub(super) fn large_heap_value(&mut self, pos: PosId) -> Result<Option<u32>, Errors> {
        let (game, args) = self.interp.positions.get(pos);
        if self.interp.program.games[game as usize].loopy {
            // Tables hold finite values only.
            return Ok(None);
        }
        let (family, n) = match args[..] {
            [Value::Int(n)] if n >= TABLE_FROM => (Family::heaps(game), n),
            _ => return Ok(None),
        };
        // A table made for a smaller heap answers only through its period.
        let answers = |known: &Known| {
            known.complete && (known.values.get(n as usize).is_some() || known.proof.is_some())
        };
        if !self.tables.get(&family).is_some_and(answers) {
            // Past the state limit only a proven period can answer, and
            // without a shape none can be proven: the solver refuses it.
            let beyond = n as u64 >= self.interp.max_positions as u64;
            if !self.has_fast_table(&family) || (beyond && self.shape(&family).is_none()) {
                return Ok(None);
            }
            // Far enough to prove a period if there is one within the state
            // limit; no further than needed for the heap itself, or twice
            // the table kept, so that heaps asked for one after another
            // (a claim over a range) make tables of doubling sizes, not
            // one a heap.
            let limit = self.interp.max_positions as u64 - 1;
            let kept = self
                .tables
                .get(&family)
                .map_or(0, |k| k.values.len() as u64);
            let upto = (n as u64).max(2 * kept).min(limit);
            let table = self.table_run(&family, TableRequest::upto(upto))?;
            if let Some(kind) = table.stopped {
                return Err(vec![Error::new(kind, self.asked)]);
            }
            let known = Known {
                values: table.values,
                proof: table.proof,
                complete: true,
            };
            self.tables.insert(family.clone(), known);
        }
        let Some(known) = self.tables.get(&family) else {
            return Ok(None);
        };
        if let Some(v) = known.values.get(n as usize) {
            return Ok(Some(v));
        }
        match &known.proof {
            Some(proof) => Ok(proof.value(&known.values, n as u64)),
            // Not in the table and no period: too large to search.
            None => Err(vec![Error::new(
                ErrorKind::StateLimit {
                    limit: self.interp.max_positions,
                },
                self.asked,
            )
            .with_context(format!(
                "finding the value of {}: no period is proven among the first {} values",
                self.interp.show_pos(pos),
                known.values.len()
            ))]),
        }
    }

    /// Whether a heap game's table comes from a fast method.
    fn has_fast_table(&self, family: &Family) -> bool {
        let ir = &self.interp.program.games[family.game as usize];
        matches!(ir.kind, GameKind::Octal(_)) || self.affine(family).is_ok()
    }

    /// The shape of a family's moves, if a period can be proven for it.
    pub fn shape(&self, family: &Family) -> Option<Shape> {
        let ir = &self.interp.program.games[family.game as usize];
        match &ir.kind {
            GameKind::Octal(code) => Some(code.shape()),
            _ => self.affine(family).ok()?.shape(),
        }
    }

    /// A family's rules read as arithmetic, if they have that shape: the
    /// game's own rules, or with its fixed arguments put in.
    fn affine(&self, family: &Family) -> Compiled<AffineGame> {
        let ir = &self.interp.program.games[family.game as usize];
        let consts = &self.interp.consts;
        let functions = &self.interp.program.functions;
        if family.is_whole_game() {
            return affine::recognise(ir, family.game, functions, consts);
        }
        let heap_game = match family.free[..] {
            [free] => affine::specialise(ir, family.game, &family.args, free),
            _ => None,
        }
        .or_unsupported(
            "fixed arguments that a move changes (the heap-rule reader reads moves to the same arguments but the heap)",
            ir.span,
        )?;
        affine::recognise(&heap_game, family.game, functions, consts)
    }

    /// The family an alias of another game stands for, and how much larger
    /// its heap is there: `game Sub(n: nat) = Subtract({1, 3, 4}, n)` is
    /// `Subtract` with its first argument fixed, at the same heap.
    fn alias_family(&mut self, family: &Family) -> Option<(Family, usize)> {
        if !family.is_whole_game() {
            return None;
        }
        let ir = &self.interp.program.games[family.game as usize];
        let (heap, span) = (affine::alias_heap(ir)?, ir.span);
        // The fixed arguments, as the interpreter works them out.
        let parts = self.family_position(family, &[0], span).ok()?;
        let [pos] = parts[..] else {
            return None;
        };
        let (game, args) = self.interp.positions.get(pos);
        if game != heap.target {
            return None;
        }
        let mut args = args.to_vec();
        *args.get_mut(heap.free)? = Value::Int(0);
        let inner = Family {
            game,
            args,
            free: vec![heap.free],
        };
        Some((inner, heap.offset))
    }

    /// The values of an alias of another game at a larger heap: that
    /// game's, from the shift on (what is known is worked out again).
    fn compute_shifted(
        &mut self,
        inner: &Family,
        offset: usize,
        upto: usize,
        hook: &mut Hook,
    ) -> Result<Values, Errors> {
        let mut shifted = Values::default();
        let mut shifted_hook = |values: &Values| {
            shifted.truncate(values.len().saturating_sub(offset));
            for m in offset + shifted.len()..values.len() {
                shifted.push(values.at(m));
            }
            hook(&shifted)
        };
        let values = self.compute(inner, Values::default(), upto + offset, &mut shifted_hook)?;
        let mut shifted = Values::default();
        for m in offset..values.len() {
            shifted.push(values.at(m));
        }
        Ok(shifted)
    }

    /// The values by the fastest method that applies.
    fn compute(
        &mut self,
        family: &Family,
        known: Values,
        upto: usize,
        hook: &mut Hook,
    ) -> Result<Values, Errors> {
        if let Some((inner, offset @ 1..)) = self.alias_family(family) {
            return self.compute_shifted(&inner, offset, upto, hook);
        }
        let game = family.game;
        let ir = &self.interp.program.games[game as usize];
        let mut unread = None;
        let known = if let GameKind::Octal(code) = &ir.kind {
            self.interp
                .engines
                .record(game, Path::HeapKernel(code.text.clone()), Vec::new());
            let rules = HeapRules::octal(code);
            let mut dense =
                |known, upto, hook: &mut Hook| Ok(kernel::octal_sequence(code, known, upto, hook));
            heap_values(&rules, &mut dense, known, upto, hook)
        } else {
            match self.affine(family) {
                Ok(affine) => {
                    let mut dense =
                        |known, upto, hook: &mut Hook| affine.sequence(known, upto, hook);
                    match affine.heap_rules(upto) {
                        Some(rules) => {
                            self.interp
                                .engines
                                .record(game, Path::HeapKernelRules, Vec::new());
                            // Moves an octal code has: its dense method,
                            // faster than reading the rules' arithmetic.
                            match rules.as_octal() {
                                Some(code) => {
                                    let mut dense = |known, upto, hook: &mut Hook| {
                                        Ok(kernel::octal_sequence(&code, known, upto, hook))
                                    };
                                    heap_values(&rules, &mut dense, known, upto, hook)
                                }
                                None => heap_values(&rules, &mut dense, known, upto, hook),
                            }
                        }
                        None => {
                            self.interp
                                .engines
                                .record(game, Path::HeapRuleReader, Vec::new());
                            dense(known, upto, hook)
                        }
                    }
                }
                Err(why) => {
                    unread = Some(why);
                    Err(known)
                }
            }
        };
        // Outside the fast methods' shape somewhere: the plain method goes
        // on from where they stopped, searching each heap the way a value
        // is searched, and says what is wrong.
        let known = match known {
            Ok(values) => return Ok(values),
            Err(known) => known,
        };
        let known = match self.compiled_upwards(family, known, upto, hook, &unread) {
            Ok(values) => return Ok(values),
            Err(known) => known,
        };
        let before = self.interp.engines.entries.len();
        let values = self.plain_sequence(family, known, upto, hook);
        self.note_plain_method(game, before, unread);
        values
    }

    /// The values on from `known` by the compiled rules, heap by heap
    /// upwards (see `bottom_up`), laid out for the largest heap; `Err` with
    /// the values found where the rules do not compile or an option is not
    /// a smaller heap of the family.
    fn compiled_upwards(
        &mut self,
        family: &Family,
        known: Values,
        upto: usize,
        hook: &mut Hook,
        unread: &Option<Unsupported>,
    ) -> Result<Values, Values> {
        let span = self.interp.program.games[family.game as usize].span;
        let (&[param], true) = (&family.free[..], known.len() <= upto) else {
            return Err(known);
        };
        let Ok(largest) = self.heap(family, upto, span) else {
            return Err(known);
        };
        let before = self.interp.engines.entries.len();
        let compiled = match largest[..] {
            [pos] => self.interp.compact_heaps(pos, param),
            _ => None,
        };
        // The compiled search was laid out, not run: the log names the
        // path the table takes.
        self.interp.engines.entries.truncate(before);
        let Some((mut game, field)) = compiled else {
            return Err(known);
        };
        let declined = unread
            .iter()
            .map(|why| ("the heap-rule reader", why.clone()))
            .collect();
        self.interp
            .engines
            .record(family.game, Path::CompiledTable, declined);
        bottom_up::sequence(&mut *game, &field, known, upto, hook)
    }

    /// Records why a table was made heap by heap, with the engines the
    /// heaps' searches first ran on (entries from `before` on), or with
    /// the interpreter when they recorded none.
    fn note_plain_method(&mut self, game: u32, before: usize, unread: Option<Unsupported>) {
        let declined: Vec<_> = unread
            .into_iter()
            .map(|why| ("the heap-rule reader", why))
            .collect();
        let engines = &mut self.interp.engines;
        let mut paths: Vec<Path> = engines
            .entries
            .iter()
            .skip(before)
            .filter(|e| e.game == game)
            .map(|e| e.path.clone())
            .collect();
        if paths.is_empty() {
            paths.push(Path::Interpreter);
        }
        for path in paths {
            engines.record(game, path, declined.clone());
        }
    }

    /// The table through the general solver, one position at a time: the
    /// plain method every faster path is compared with.
    pub fn plain_table(
        &mut self,
        game: u32,
        upto: u64,
        mut each: impl FnMut(u64, u32),
    ) -> Result<Vec<u32>, Errors> {
        let span = self.interp.program.games[game as usize].span;
        let upto = usize::try_from(upto).map_err(|_| heap_too_large(upto, usize::MAX, span))?;
        let mut stopped = false;
        let family = Family::heaps(game);
        let values = self.plain_sequence(&family, Values::default(), upto, &mut |_| {
            if crate::interrupt::requested() {
                stopped = true;
                return ControlFlow::Break(());
            }
            ControlFlow::Continue(())
        })?;
        if stopped || crate::interrupt::requested() {
            return Err(vec![Error::new(crate::interrupt::stop_kind(), span)]);
        }
        for (n, v) in values.iter().enumerate() {
            each(n as u64, v);
        }
        Ok(values.to_vec())
    }

    fn plain_sequence(
        &mut self,
        family: &Family,
        known: Values,
        upto: usize,
        hook: &mut Hook,
    ) -> Result<Values, Errors> {
        let span = self.interp.program.games[family.game as usize].span;
        let mut values = known;
        values.truncate(upto + 1);
        // Known values go into the memo, so that later heaps use them.
        for (n, v) in values.iter().enumerate() {
            if let [pos] = self.heap(family, n, span)?[..] {
                self.interp
                    .with_solver(|s, _| s.remember(pos, Some(v), None));
            }
        }
        for n in values.len()..=upto {
            if (n % STRETCH == 0 && n > 0 && hook(&values).is_break())
                || crate::interrupt::requested()
            {
                break;
            }
            let parts = self.heap(family, n, span)?;
            let v = self.value(&parts)?;
            values.push(v);
        }
        Ok(values)
    }

    /// The position of a heap of n.
    fn heap(&mut self, family: &Family, n: usize, span: Span) -> Result<Arc<[PosId]>, Errors> {
        let arg = i64::try_from(n).map_err(|_| heap_too_large(n, i64::MAX, span))?;
        self.family_position(family, &[arg], span)
    }

    /// The position of a family at these free numbers.
    pub(super) fn family_position(
        &mut self,
        family: &Family,
        numbers: &[i64],
        span: Span,
    ) -> Result<Arc<[PosId]>, Errors> {
        match self
            .interp
            .make_position(family.game, family.at(numbers), span)
            .map_err(|e| vec![e])?
        {
            Value::Pos(parts) => Ok(parts),
            _ => Err(vec![Error::new(
                ErrorKind::NotAHeapGame {
                    name: self.interp.program.games[family.game as usize].name.clone(),
                },
                span,
            )]),
        }
    }
}

/// The memory a table of g(0..=upto) needs: two bytes a value (four once
/// a value passes 65,535, which few games reach).
pub fn table_bytes(upto: u64) -> u128 {
    (upto as u128 + 1) * 2
}

/// A number of bytes as people read it: whole kB and MB, then tenths.
pub fn bytes(n: u128) -> String {
    match n {
        0..1_000_000 => format!("{} kB", n.div_ceil(1000)),
        1_000_000..1_000_000_000 => format!("{} MB", n.div_ceil(1_000_000)),
        _ => {
            let mut size = n as f64 / 1e9;
            let mut units = ["GB", "TB", "PB", "EB", "ZB"].iter().peekable();
            while size >= 1000.0 && units.len() > 1 {
                size /= 1000.0;
                units.next();
            }
            format!("{size:.1} {}", units.peek().unwrap_or(&&"ZB"))
        }
    }
}

fn heap_too_large(size: impl ToString, limit: impl ToString, span: Span) -> Errors {
    vec![Error::new(
        ErrorKind::TooLarge {
            what: "the heap".into(),
            size: size.to_string(),
            limit: limit.to_string(),
        },
        span,
    )]
}

/// The method that computes a heap game's values one heap at a time with
/// a dense array: given the values known, how far to go and the hook; `Err`
/// with the values found so far if the game turns out not to fit it.
type Dense<'a> = dyn FnMut(Values, usize, &mut Hook) -> Result<Values, Values> + 'a;

/// A take-and-break game's values: the dense method first, then, if
/// measuring shows it pays for this run, the rare-value method for the
/// rest.
fn heap_values(
    rules: &crate::solve::sparse::HeapRules,
    dense: &mut Dense,
    known: Values,
    upto: usize,
    hook: &mut Hook,
) -> Result<Values, Values> {
    use crate::solve::sparse;
    let mut values = known;
    // Judged after a sixteenth of the run, when the rare heaps have had
    // time to thin out; before that, at a quarter of that, so that a game
    // where the method clearly pays spends less time the plain way; and on
    // long runs, where even that would be slow, after 4096 heaps as well.
    let last = sparse::judge_after(upto);
    let quarter = (last / 4).max(sparse::ENOUGH_TO_JUDGE);
    let first = if upto >= 1 << 22 {
        sparse::ENOUGH_TO_JUDGE
    } else {
        quarter
    };
    let mut pays = false;
    let mut judged = 0;
    for judge in [first, quarter, last] {
        let judge = judge.max(values.len().saturating_sub(1)).min(upto);
        if judge <= judged {
            continue;
        }
        judged = judge;
        // A resumed run may know these values already: the dense method
        // would only copy them.
        if values.len() <= judge {
            values = dense(values, judge, &mut *hook)?;
        }
        if values.len() != judge + 1 || judge == upto {
            return Ok(values);
        }
        // An early judgement extrapolates further, and misled by a factor
        // of about three (0.007 to 10^5 at 4096 heaps), so it must
        // promise more.
        let needed = if judge >= last { 1.0 } else { 4.0 };
        let advantage;
        (advantage, values) = sparse::advantage(rules, values, upto);
        pays = advantage > needed;
        if pays {
            break;
        }
    }
    if !pays {
        return dense(values, upto, hook);
    }
    Ok(sparse::sequence(rules, values, upto, hook))
}
