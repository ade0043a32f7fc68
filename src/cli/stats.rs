//! `--stats`: after a value, outcome, moves or graph search (or a table), how many
//! positions the search stored, how fast, and how many bytes each stored
//! position costs (the memo, the interner and the tables of games searched
//! as packed keys, counted from what they hold); then which engine each
//! game ran on, and what stopped a faster one, with where it is written.

use super::Output;
use crate::eval::engine::Path;
use crate::session::Session;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

static ENABLED: AtomicBool = AtomicBool::new(false);

/// A process-wide switch, so that commands need no extra argument.
pub fn enable(on: bool) {
    ENABLED.store(on, Ordering::Relaxed);
}

/// What the session held before a search, to report only the search's part.
pub struct Start {
    at: Instant,
    positions: usize,
}

/// Positions stored: in the interner, and in the tables of games searched
/// as packed keys.
fn stored(session: &Session) -> usize {
    session.interp.positions.len() + session.interp.solver.dense_positions()
}

pub fn start(session: &mut Session) -> Start {
    session.interp.engines.clear();
    Start {
        at: Instant::now(),
        positions: stored(session),
    }
}

/// One line on standard error, when `--stats` is on.
pub fn report(start: &Start, session: &Session, out: &mut Output) {
    if !ENABLED.load(Ordering::Relaxed) {
        return;
    }
    let seconds = start.at.elapsed().as_secs_f64();
    let stored = stored(session);
    let searched = stored.saturating_sub(start.positions);
    let interner = session.interp.positions.heap_bytes();
    let memo = session.interp.solver.heap_bytes();
    let per_position = (interner + memo) as f64 / stored.max(1) as f64;
    let rate = if seconds > 0.0 {
        searched as f64 / seconds
    } else {
        0.0
    };
    out.note(format!(
        "stats: {searched} positions searched in {seconds:.3} s ({rate:.0} positions/s); \
         {stored} stored in {} bytes ({per_position:.1} bytes/position: interner {interner}, memo {memo})",
        interner + memo
    ));
    for line in engines(session) {
        out.note(line);
    }
}

/// For a table, one line first: how many values it holds and how fast
/// they were worked out. Its heaps need not be positions searched (a heap
/// kernel or a table filled upwards stores none), so the line after it
/// counts only the positions a search stored.
pub fn report_values(start: &Start, values: usize, out: &mut Output) {
    if !ENABLED.load(Ordering::Relaxed) {
        return;
    }
    let seconds = start.at.elapsed().as_secs_f64();
    let rate = if seconds > 0.0 {
        values as f64 / seconds
    } else {
        0.0
    };
    out.note(format!(
        "stats: {values} values of the table in {seconds:.3} s ({rate:.0} values/s)"
    ));
}

/// One line per game and engine it ran on, each followed by what turned the
/// faster engines down.
fn engines(session: &Session) -> Vec<String> {
    let mut lines = Vec::new();
    for entry in &session.interp.engines.entries {
        let game = session.interp.program.games.get(entry.game as usize);
        let name = game.map_or("?", |g| g.name.as_str());
        let declined = &entry.declined;
        let mut path = entry.path.describe();
        // Turned down on packed keys, a symmetry is named with the reason.
        let symmetric = session.interp.has_symmetry(entry.game)
            && entry.path != Path::CompiledOptions
            && !declined.iter().any(|(by, _)| by.contains("symmetry"));
        if symmetric {
            path.push_str(", one position stored for each family its `symmetry =` makes");
        }
        lines.push(format!("stats: {name} ran on {path}"));
        for (by, why) in declined {
            lines.push(format!(
                "stats:   {by} stopped at {} ({}): {}",
                quoted(session, why.span),
                crate::diagnostic::location(&session.sources, why.span),
                why.what
            ));
        }
    }
    lines
}

/// The text of a span, on one line and cut short, in backquotes.
fn quoted(session: &Session, span: crate::source::Span) -> String {
    const MOST: usize = 60;
    let text = session
        .sources
        .try_get(span.source)
        .and_then(|s| s.text.get(span.start as usize..span.end as usize))
        .unwrap_or("");
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(MOST) {
        Some((cut, _)) => format!("`{} ...`", &one_line[..cut]),
        None => format!("`{one_line}`"),
    }
}
