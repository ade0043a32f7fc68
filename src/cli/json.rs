//! The JSON shapes every `--json` output is built from, so that a script
//! reads positions, moves and errors as data instead of re-parsing the
//! game language. `docs/json.md` documents each shape, and its schema
//! beside it is checked against real runs by the tests.

use crate::diagnostic;
use crate::error::Error;
use crate::eval::{PosId, Value};
use crate::session::Session;
use crate::solve::SumMove;
use crate::source::Sources;
use serde_json::{json, Map, Value as Json};

/// A position: its text as a user would type it, and its parts (one for a
/// plain position, none for the finished game `0`), each a game and its
/// arguments by parameter name.
pub fn position(session: &Session, parts: &[PosId]) -> Json {
    // In the order the text lists them.
    let mut ordered = parts.to_vec();
    ordered.sort_by_cached_key(|&p| session.interp.positions.get(p));
    json!({
        "text": session.show_sum(parts),
        "parts": ordered.iter().map(|&p| part(session, p)).collect::<Vec<_>>(),
    })
}

fn part(session: &Session, id: PosId) -> Json {
    let interp = &session.interp;
    let (g, args) = interp.positions.get(id);
    let game = &interp.program.games[g as usize];
    let named: Map<String, Json> = game
        .params
        .iter()
        .zip(args.iter())
        .map(|(param, v)| (param.name.clone(), value(session, v)))
        .collect();
    json!({ "game": game.name, "args": named })
}

/// A value of the game language: numbers, booleans and strings as
/// themselves, lists, sets and tuples as arrays, a range as its bounds,
/// and a position as `position` shows it.
pub fn value(session: &Session, v: &Value) -> Json {
    match v {
        Value::Int(n) => json!(n),
        Value::Bool(b) => json!(b),
        Value::Str(s) => json!(s.as_ref()),
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => {
            Json::Array(xs.iter().map(|x| value(session, x)).collect())
        }
        Value::Range(start, end) => json!({ "start": start, "end": end }),
        Value::Pos(parts) => position(session, parts),
    }
}

/// One move of a position: its rule and the values its variables took,
/// the part it is played in, the whole position it leads to, and that
/// position's value.
pub fn one_move(session: &Session, m: &SumMove) -> Json {
    let args: Map<String, Json> = m
        .label
        .args
        .iter()
        .map(|(name, v)| (name.clone(), value(session, v)))
        .collect();
    json!({
        "move": { "text": m.label.text, "rule": m.label.rule, "args": args },
        "part": position(session, &[m.part]),
        "result": position(session, &m.result),
        "value": m.value.to_json(),
        "winning": m.winning,
    })
}

/// One error: its code, message and help as the text report has them,
/// and where it points (the file or `<position>`, with the line and the
/// column in characters, both counted from 1; null where the error is
/// about no place in a text, such as a file that cannot be read).
pub fn error(e: &Error, sources: &Sources) -> Json {
    let d = diagnostic::fields(e, sources);
    json!({
        "code": d.code,
        "message": d.message,
        "file": d.file,
        "line": d.line,
        "column": d.column,
        "help": d.help,
    })
}

/// The document a failed `--json` command prints instead of its answer.
pub fn errors(errors: &[Error], sources: &Sources) -> Json {
    json!({ "errors": errors.iter().map(|e| error(e, sources)).collect::<Vec<_>>() })
}

/// A command line clap refused, as the one error of an errors document.
pub fn usage_error(e: &clap::Error) -> Json {
    let text = e.render().to_string();
    let text = text.trim();
    // The first paragraph says what is wrong; the rest is clap's advice.
    let (first, rest) = text.split_once("\n\n").unwrap_or((text, ""));
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let message: Vec<&str> = first.lines().map(str::trim).collect();
    let rest = rest.trim();
    json!({ "errors": [{
        "code": "grundy::usage",
        "message": message.join(" "),
        "file": null,
        "line": null,
        "column": null,
        "help": (!rest.is_empty()).then_some(rest),
    }]})
}

/// What a `--json` command stopped by Ctrl-C prints: an errors document
/// whose one error says so.
pub fn interrupted() -> Json {
    json!({ "errors": [{
        "code": "grundy::interrupted",
        "message": "interrupted",
        "file": null,
        "line": null,
        "column": null,
        "help": null,
    }]})
}
