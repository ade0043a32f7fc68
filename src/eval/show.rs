//! Values and positions written the way a user would type them.

use super::ir::Program;
use super::positions::{PosId, Positions};
use super::value::Value;
use std::fmt::Write;

pub fn value(program: &Program, positions: &Positions, v: &Value) -> String {
    let mut out = String::new();
    write_value(program, positions, v, &mut out);
    out
}

pub fn position(program: &Program, positions: &Positions, id: PosId) -> String {
    let mut out = String::new();
    write_position(program, positions, id, &mut out);
    out
}

/// The longest description an error gives of a position or value: a
/// position can be as long as memory allows, a message must stay readable.
pub const BRIEF_CHARS: usize = 160;

/// The text cut to its first `BRIEF_CHARS` characters, saying how long it
/// was, when it is longer than that.
pub fn brief(text: String) -> String {
    match text.char_indices().nth(BRIEF_CHARS) {
        None => text,
        Some((cut, _)) => format!(
            "{}... ({} characters in all)",
            &text[..cut],
            text.chars().count()
        ),
    }
}

/// A sum of components; the empty sum is the finished game `0`.
pub fn sum(program: &Program, positions: &Positions, parts: &[PosId]) -> String {
    let mut out = String::new();
    write_sum(program, positions, parts, &mut out);
    out
}

fn write_sum(program: &Program, positions: &Positions, parts: &[PosId], out: &mut String) {
    if parts.is_empty() {
        out.push('0');
    }
    // Components are stored in interning order; show them in the order of
    // their games and arguments, as a reader would list them.
    let mut ordered = parts.to_vec();
    ordered.sort_by_cached_key(|&a| positions.get(a));
    for (i, p) in ordered.iter().enumerate() {
        if i > 0 {
            out.push_str(" + ");
        }
        write_position(program, positions, *p, out);
    }
}

fn write_position(program: &Program, positions: &Positions, id: PosId, out: &mut String) {
    let (g, args) = positions.get(id);
    let name = program
        .games
        .get(g as usize)
        .map_or("?", |game| game.name.as_str());
    out.push_str(name);
    out.push('(');
    write_items(program, positions, &args, out);
    out.push(')');
}

fn write_items(program: &Program, positions: &Positions, items: &[Value], out: &mut String) {
    for (i, v) in items.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_value(program, positions, v, out);
    }
}

fn write_value(program: &Program, positions: &Positions, v: &Value, out: &mut String) {
    match v {
        Value::Int(n) => {
            let _ = write!(out, "{n}");
        }
        Value::Bool(b) => {
            let _ = write!(out, "{b}");
        }
        Value::Str(s) => {
            let _ = write!(out, "{s:?}");
        }
        Value::List(xs) => {
            out.push('[');
            write_items(program, positions, xs, out);
            out.push(']');
        }
        Value::Set(xs) => {
            out.push('{');
            write_items(program, positions, xs, out);
            out.push('}');
        }
        Value::Tuple(xs) => {
            out.push('(');
            write_items(program, positions, xs, out);
            out.push(')');
        }
        Value::Range(lo, hi) => {
            let _ = write!(out, "{lo}..{hi}");
        }
        Value::Pos(parts) => write_sum(program, positions, parts, out),
    }
}
