//! Every fast way to a heap game's values, each one forced, held against
//! the general search: the interpreter with no compiled search, one heap
//! at a time. The differential fuzz target and the
//! property tests run random heap games through `compare`; any difference
//! is a wrong value some command could print.
//!
//! The fast ways are: the compiled (compact) search, plain and fused,
//! asked heap by heap; `table` with and without
//! the period shortcut, from scratch and from a checkpoint of a shorter or
//! longer run; the affine rules computed densely; the affine rules read as
//! take-and-break moves and run by the rare/common method (its mask chosen
//! after a few heaps, so that short runs reach it) and by its plain loop;
//! and for octal codes, the kernel with each way of marking options.
//!
//! Where the general search stops with an error at some heap, a fast way
//! may give up before that heap (the table then goes on with the general
//! search and reports it), but never give a value for it; and a proven
//! period may never speak for it.

use super::{Session, TableRequest};
use crate::error::Errors;
use crate::eval::ir::GameKind;
use crate::eval::Compact;
use crate::solve::kernel;
use crate::solve::period::Proof;
use crate::solve::sparse::{self, HeapRules};
use crate::solve::values::Values;
use std::ops::ControlFlow;

/// What to compare: the game (heap game `game` in `text`), the last heap
/// of the tables, how far the general search goes (at least `upto`; a
/// proven period is checked against every heap up to there), and where a
/// checkpoint ends (it may end past `upto`).
pub struct Question<'a> {
    pub text: &'a str,
    pub game: &'a str,
    pub upto: usize,
    pub reference_upto: usize,
    pub checkpoint: usize,
}

/// The most positions a search holds: an infinite game (a move to a
/// larger heap) is an error, a state limit, in every path alike, and soon.
pub const MAX_POSITIONS: usize = 400;

/// The most heaps compared, well within that limit (a table holds a value
/// for every heap, and counts against it).
pub const MOST_HEAPS: usize = 300;

/// The general search's answer: g(0), g(1), ... up to the heap where it
/// stopped with an error, if it did, and that error.
struct Reference {
    values: Vec<u32>,
    error: Option<Errors>,
}

/// Runs every fast path that applies to the game and compares it with the
/// general search. `Ok` with the names of the paths compared; `Err` with
/// what differs. A game that does not load, or is no heap game, compares
/// nothing.
pub fn compare(question: &Question) -> Result<Vec<&'static str>, String> {
    let upto = question.upto.min(MOST_HEAPS);
    let reference_upto = question.reference_upto.clamp(upto, MOST_HEAPS);
    let Some(mut general) = session(question, Compact::Off) else {
        return Ok(Vec::new());
    };
    let reference = reference(&mut general, question.game, reference_upto);
    let mut paths = Vec::new();
    let mut check = |path: &'static str, result: Result<(), String>| {
        paths.push(path);
        result.map_err(|e| format!("{path}: {e}"))
    };
    for (path, compact) in [
        ("compact search, fused", Compact::Fused),
        ("compact search, step by step", Compact::Plain),
    ] {
        if let Some(mut fast) = session(question, compact) {
            let found = self::reference(&mut fast, question.game, reference_upto);
            check(path, same_heaps(&found, &reference))?;
        }
    }
    let known = |cut: usize| Values::from(&reference.values[..cut.min(reference.values.len())]);
    for (path, shortcut, cut) in [
        ("table", true, 0),
        ("table, every value computed", false, 0),
        ("table from a checkpoint", true, question.checkpoint),
        (
            "table from a checkpoint, every value computed",
            false,
            question.checkpoint,
        ),
    ] {
        let Some(mut fast) = session(question, Compact::Fused) else {
            continue;
        };
        let game = fast
            .heap_game(question.game)
            .map_err(|e| format!("{e:?}"))?;
        let request = TableRequest {
            upto: upto as u64,
            known: known(cut),
            shortcut,
            progress: None,
            resume: false,
        };
        let table = fast.table_run(&super::Family::heaps(game), request);
        check(path, table_agrees(table, &reference, upto))?;
    }
    let Some(mut fast) = session(question, Compact::Fused) else {
        return Ok(paths);
    };
    let game = fast
        .heap_game(question.game)
        .map_err(|e| format!("{e:?}"))?;
    let ir = &fast.interp.program.games[game as usize];
    let cuts = [0, question.checkpoint];
    if let GameKind::Octal(code) = &ir.kind {
        for (path, limits) in kernel::EVERY_METHOD {
            for cut in cuts {
                let values = kernel::sequence_with_limits(code, known(cut), upto, *limits, go_on);
                check(path, whole(&values, &reference, upto))?;
            }
        }
        compare_heap_rules(&HeapRules::octal(code), &reference, upto, &cuts, &mut check)?;
    } else if let Ok(affine) = crate::solve::affine::recognise(
        ir,
        game,
        &fast.interp.program.functions,
        &fast.interp.consts,
    ) {
        for cut in cuts {
            let found = affine.sequence(known(cut), upto, go_on);
            let agrees = match found {
                Ok(values) => whole(&values, &reference, upto),
                // Given up: what it found before must be right.
                Err(values) => prefix(&values, &reference),
            };
            check("affine rules", agrees)?;
        }
        if let Some(rules) = affine.heap_rules(upto) {
            compare_heap_rules(&rules, &reference, upto, &cuts, &mut check)?;
        }
    }
    Ok(paths)
}

/// The rare/common method, its mask chosen early and at the usual time,
/// and its plain loop alone, each from scratch and from a checkpoint.
fn compare_heap_rules(
    rules: &HeapRules,
    reference: &Reference,
    upto: usize,
    cuts: &[usize],
    check: &mut impl FnMut(&'static str, Result<(), String>) -> Result<(), String>,
) -> Result<(), String> {
    for (path, warm) in [
        ("rare/common, mask chosen at heap 8", 8),
        ("rare/common, mask chosen at heap 48", 48),
        ("rare/common's plain loop", usize::MAX),
    ] {
        for &cut in cuts {
            let known = Values::from(&reference.values[..cut.min(reference.values.len())]);
            let values = sparse::sequence_warmed(rules, known, upto, warm, go_on);
            check(path, whole(&values, reference, upto))?;
        }
    }
    Ok(())
}

fn go_on(_: &Values) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// A session with the game loaded, searching as told; `None` if the text
/// does not load or names no heap game.
fn session(question: &Question, compact: Compact) -> Option<Session> {
    let mut session = Session::new();
    session.interp.compact = compact;
    session.interp.max_positions = MAX_POSITIONS;
    session.load_text("differential.game", question.text).ok()?;
    session.heap_game(question.game).ok()?;
    Some(session)
}

/// The value of each heap in turn, asked of the session's solver, up to
/// the first that is an error.
fn reference(session: &mut Session, game: &str, upto: usize) -> Reference {
    let mut values = Vec::new();
    for n in 0..=upto {
        let value = session
            .position(&format!("{game}({n})"))
            .and_then(|parts| session.value(&parts));
        match value {
            Ok(v) => values.push(v),
            Err(e) => {
                return Reference {
                    values,
                    error: Some(e),
                }
            }
        }
    }
    Reference {
        values,
        error: None,
    }
}

/// Two searches heap by heap: the same values, and an error at the same
/// heap, of the same kind, at the same place.
fn same_heaps(found: &Reference, reference: &Reference) -> Result<(), String> {
    prefix(&Values::from(&found.values[..]), reference)?;
    if found.values.len() != reference.values.len() {
        return Err(format!(
            "{} values where the general search has {}",
            found.values.len(),
            reference.values.len()
        ));
    }
    match (&found.error, &reference.error) {
        (None, None) => Ok(()),
        (Some(a), Some(b)) if same_error(a, b) => Ok(()),
        (a, b) => Err(format!(
            "at heap {}: {a:?} where the general search has {b:?}",
            found.values.len()
        )),
    }
}

fn same_error(a: &Errors, b: &Errors) -> bool {
    match (a.first(), b.first()) {
        (Some(a), Some(b)) => {
            std::mem::discriminant(&a.kind) == std::mem::discriminant(&b.kind)
                && (a.span.start, a.span.end) == (b.span.start, b.span.end)
        }
        _ => false,
    }
}

/// `values` are g(0), g(1), ... as far as they go.
fn prefix(values: &Values, reference: &Reference) -> Result<(), String> {
    if values.len() > reference.values.len() {
        return Err(format!(
            "a value for heap {} where the general search stops with {:?}",
            reference.values.len(),
            reference.error
        ));
    }
    match values
        .iter()
        .zip(&reference.values)
        .position(|(a, &b)| a != b)
    {
        Some(n) => Err(format!(
            "g({n}) = {} where the general search has {}",
            values.at(n),
            reference.values[n]
        )),
        None => Ok(()),
    }
}

/// `values` are exactly g(0..=upto).
fn whole(values: &Values, reference: &Reference, upto: usize) -> Result<(), String> {
    prefix(values, reference)?;
    if values.len() != upto + 1 {
        return Err(format!("{} values for a table to {upto}", values.len()));
    }
    Ok(())
}

/// A table agrees when it has exactly the values the general search finds
/// up to `upto`, or fails where that search fails; and a period it proves
/// gives every heap the general search reached its value, and none to a
/// heap where it stopped.
fn table_agrees(
    table: Result<super::Table, Errors>,
    reference: &Reference,
    upto: usize,
) -> Result<(), String> {
    let table = match table {
        Err(e) => {
            let reached = reference.values.len();
            return match &reference.error {
                Some(r) if reached <= upto && same_error(&e, r) => Ok(()),
                _ => Err(format!(
                    "fails with {e:?}; the general search has {reached} values and {:?}",
                    reference.error
                )),
            };
        }
        Ok(table) => table,
    };
    if table.stopped.is_some() {
        return Err("stopped without being asked to".into());
    }
    whole(&table.values, reference, upto)?;
    if let Some(proof) = table.proof {
        period_agrees(&proof, &table.values, reference)?;
    }
    Ok(())
}

fn period_agrees(proof: &Proof, values: &Values, reference: &Reference) -> Result<(), String> {
    for (n, &want) in reference.values.iter().enumerate() {
        match proof.value(values, n as u64) {
            Some(v) if v != want => {
                return Err(format!(
                    "the proven period {:?} gives g({n}) = {v}; the general search finds {want}",
                    proof.period
                ))
            }
            _ => {}
        }
    }
    let failed = reference.values.len() as u64;
    match (&reference.error, proof.value(values, failed)) {
        (Some(e), Some(v)) => Err(format!(
            "the proven period {:?} gives g({failed}) = {v}; the general search stops with {e:?}",
            proof.period
        )),
        _ => Ok(()),
    }
}
