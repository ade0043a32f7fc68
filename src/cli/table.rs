//! `grundy table FILE GAME --upto N`

use super::query::{open, report};
use super::{Failed, Options, Output};
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
    let values = session
        .table(g, upto, |_, _| {})
        .map_err(|e| report(&session, out, e))?;
    let found = period::find(&values);
    if json {
        let period =
            found.map(|p| json!({ "preperiod": p.preperiod, "period": p.period, "proven": false }));
        out.line(
            json!({ "game": game, "upto": upto, "values": values, "period": period }).to_string(),
        );
        return Ok(());
    }
    out.line(format!("{game}: g(n) for n = 0..={upto}"));
    let index_width = upto.to_string().len();
    let cell_width = values.iter().max().map_or(1, |m| m.to_string().len()) + 1;
    for (row, chunk) in values.chunks(10).enumerate() {
        let cells: Vec<String> = chunk.iter().map(|v| format!("{v:>cell_width$}")).collect();
        out.line(format!("{:>index_width$}: {}", row * 10, cells.join("")));
    }
    match found {
        Some(p) => out.line(format!(
            "period {} from n = {} (seen repeating up to n = {upto}; not proven)",
            p.period, p.preperiod
        )),
        None => out.line(format!("no period seen up to n = {upto}")),
    }
    Ok(())
}
