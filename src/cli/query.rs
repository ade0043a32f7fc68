//! `grundy value`, `grundy outcome` and `grundy moves`.

use super::{Failed, Options, Output};
use crate::error::{ErrorKind, Errors};
use crate::eval::PosId;
use crate::session::Session;
use crate::solve::loopy::{Generalised, Outcome};
use serde_json::json;
use std::sync::Arc;

/// Loads the files in order, as one program, printing any diagnostics.
pub(super) fn open(opts: &Options, files: &[String], out: &mut Output) -> Result<Session, Failed> {
    let mut session = opts.session();
    for file in files {
        session
            .load_file(file)
            .map_err(|e| report(&session, out, e))?;
    }
    warn(&mut session, out);
    Ok(session)
}

/// Shows the warnings found so far.
pub(super) fn warn(session: &mut Session, out: &mut Output) {
    let warnings = session.take_warnings();
    out.warnings(&warnings, &session.sources);
}

/// Reads the position typed on the command line, printing any diagnostics.
pub(super) fn read_position(
    session: &mut Session,
    position: &str,
    out: &mut Output,
) -> Result<Arc<[PosId]>, Failed> {
    let pos = session
        .position(position)
        .map_err(|e| report(session, out, e))?;
    warn(session, out);
    Ok(pos)
}

pub(super) fn report(session: &Session, out: &mut Output, errors: Errors) -> Failed {
    if errors.iter().any(|e| e.kind == ErrorKind::Interrupted) {
        out.interrupted();
        return Failed::Interrupted;
    }
    out.errors(&errors, &session.sources);
    Failed::Diagnostic
}

fn open_position(
    opts: &Options,
    files: &[String],
    position: &str,
    out: &mut Output,
) -> Result<(Session, Arc<[PosId]>), Failed> {
    let mut session = open(opts, files, out)?;
    let pos = read_position(&mut session, position, out)?;
    Ok((session, pos))
}

pub fn value(
    opts: &Options,
    files: &[String],
    position: &str,
    json: bool,
    out: &mut Output,
) -> Result<(), Failed> {
    let (mut session, pos) = open_position(opts, files, position, out)?;
    let started = super::stats::start(&mut session);
    let v = session
        .general_value(&pos)
        .map_err(|e| report(&session, out, e))?;
    super::stats::report(&started, &session, out);
    if json {
        let position = super::json::position(&session, &pos);
        out.line(json!({ "position": position, "value": v.to_json() }).to_string());
    } else {
        out.line(session.show_value(&v));
    }
    Ok(())
}

pub fn outcome(
    opts: &Options,
    files: &[String],
    position: &str,
    misere: bool,
    json: bool,
    out: &mut Output,
) -> Result<(), Failed> {
    let (mut session, pos) = open_position(opts, files, position, out)?;
    let started = super::stats::start(&mut session);
    let outcome = if misere {
        session
            .misere_wins(&pos)
            .map(|wins| if wins { Outcome::N } else { Outcome::P })
    } else {
        session.general_value(&pos).map(|v| v.outcome())
    }
    .map_err(|e| report(&session, out, e))?;
    super::stats::report(&started, &session, out);
    let outcome = outcome.letter();
    if json {
        let position = super::json::position(&session, &pos);
        out.line(json!({ "position": position, "outcome": outcome, "misere": misere }).to_string());
    } else {
        out.line(outcome);
    }
    Ok(())
}

pub fn moves(
    opts: &Options,
    files: &[String],
    position: &str,
    winning: bool,
    json: bool,
    out: &mut Output,
) -> Result<(), Failed> {
    let (mut session, pos) = open_position(opts, files, position, out)?;
    let started = super::stats::start(&mut session);
    print_moves(&mut session, &pos, winning, json, out).map_err(|e| report(&session, out, e))?;
    super::stats::report(&started, &session, out);
    Ok(())
}

/// One line per move (or one JSON document), winning moves marked.
pub(super) fn print_moves(
    session: &mut Session,
    pos: &[PosId],
    winning: bool,
    json: bool,
    out: &mut Output,
) -> Result<(), Errors> {
    let value = session.general_value(pos)?;
    let moves = session.moves(pos)?;
    let shown: Vec<_> = moves.iter().filter(|m| !winning || m.winning).collect();
    let several_parts = pos.len() > 1;
    let describe = |m: &crate::solve::SumMove| {
        if several_parts {
            format!("{} in {}", m.label, session.show_sum(&[m.part]))
        } else {
            m.label.text.clone()
        }
    };
    if json {
        let list: Vec<_> = shown
            .iter()
            .map(|m| super::json::one_move(session, m))
            .collect();
        let position = super::json::position(session, pos);
        out.line(
            json!({ "position": position, "value": value.to_json(), "moves": list }).to_string(),
        );
        return Ok(());
    }
    if winning && shown.is_empty() {
        out.line(if moves.is_empty() {
            "none: no moves are left, so the player to move has lost"
        } else if value.outcome() == Outcome::D {
            "none: this position is a draw, no move wins"
        } else {
            "none: this is a P-position, every move leads to an N-position"
        });
        return Ok(());
    }
    let rows: Vec<(String, String, &Generalised, bool)> = shown
        .iter()
        .map(|m| {
            (
                describe(m),
                session.show_sum(&m.result),
                &m.value,
                m.winning,
            )
        })
        .collect();
    let move_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let result_width = rows.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (mv, result, v, wins) in rows {
        let mark = if wins { "  winning" } else { "" };
        let v = session.show_value(v);
        out.line(format!(
            "{mv:<move_width$}  ->  {result:<result_width$}  value {v}{mark}"
        ));
    }
    Ok(())
}
