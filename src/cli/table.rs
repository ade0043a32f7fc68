//! `grundy table FILE GAME --upto N`, and the REPL's `table GAME N`.

use super::query::{open, report};
use super::{Failed, Options, Output};
use crate::error::{ErrorKind, Errors};
use crate::session::Session;
use crate::solve::period;
use serde_json::json;

pub fn run(
    opts: &Options,
    file: &str,
    game: &str,
    upto: u64,
    json: bool,
    out: &mut Output,
) -> Result<(), Failed> {
    let mut session = open(opts, file, out)?;
    let g = session
        .heap_game(game)
        .map_err(|e| report(&session, out, e))?;
    if json {
        let values = session
            .table(g, upto, |_, _| {})
            .map_err(|e| report(&session, out, e))?;
        let found = period::find(&values);
        let period =
            found.map(|p| json!({ "preperiod": p.preperiod, "period": p.period, "proven": false }));
        out.line(
            json!({ "game": game, "upto": upto, "values": values, "period": period }).to_string(),
        );
        return Ok(());
    }
    show(&mut session, g, game, upto, out).map_err(|e| report(&session, out, e))
}

/// The nim-sequence in rows of ten, with its period; if Ctrl-C stops it,
/// how far it got.
pub(crate) fn show(
    session: &mut Session,
    game: u32,
    name: &str,
    upto: u64,
    out: &mut Output,
) -> Result<(), Errors> {
    let mut found = Vec::new();
    let values = match session.table(game, upto, |_, v| found.push(v)) {
        Ok(values) => values,
        Err(errors) if errors.iter().any(|e| e.kind == ErrorKind::Interrupted) => {
            // The solver keeps the values found; say how far it got.
            if !found.is_empty() {
                out.line(format!(
                    "{name}: stopped after g(0..={}); those values are kept",
                    found.len() - 1
                ));
            }
            return Err(errors);
        }
        Err(errors) => return Err(errors),
    };
    out.line(format!("{name}: g(n) for n = 0..={upto}"));
    rows(&values, out);
    match period::find(&values) {
        Some(p) => out.line(format!(
            "period {}, preperiod {} (g(n + {}) = g(n) from n = {} on), seen up to n = {upto}; not proven",
            p.period, p.preperiod, p.period, p.preperiod
        )),
        None => out.line(format!("no period seen up to n = {upto}")),
    }
    Ok(())
}

/// Rows of ten values, each row headed by its first n.
fn rows(values: &[u32], out: &mut Output) {
    let last = values.len().saturating_sub(1);
    let index_width = last.to_string().len();
    let cell = values
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        .max(2)
        + 1;
    for (row, chunk) in values.chunks(10).enumerate() {
        let cells: String = chunk.iter().map(|v| format!("{v:>cell$}")).collect();
        out.line(format!("{:>index_width$}:{cells}", row * 10));
    }
}
