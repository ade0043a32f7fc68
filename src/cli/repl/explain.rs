//! `explain POSITION`: the computation behind a value, worked as the seed
//! texts work their examples. For one position: each option and its
//! value, the set of values, and its mex. For a sum: each part's value
//! (with its mex), the xor in binary, and the winning moves as moves to
//! `v ^ total` in one part.

use super::super::Output;
use crate::error::Errors;
use crate::eval::PosId;
use crate::session::Session;
use crate::solve::SumMove;

/// At most this many options are listed one per line.
const MAX_ROWS: usize = 24;

pub fn explain(session: &mut Session, parts: &[PosId], out: &mut Output) -> Result<(), Errors> {
    if session.reaches_loopy(parts)? {
        return super::explain_loopy::explain(session, parts, out);
    }
    match parts {
        [] => {
            out.line("0 is the finished game: there are no moves, so the player to move has lost.");
            out.line("value 0 = mex {}: a P-position");
            Ok(())
        }
        [one] => explain_one(session, *one, out),
        _ => explain_sum(session, parts, out),
    }
}

fn explain_one(session: &mut Session, p: PosId, out: &mut Output) -> Result<(), Errors> {
    let name = session.show_sum(&[p]);
    if session.interp.lost(p).map_err(|e| vec![e])? {
        out.line(format!(
            "{name}: a `lose if` rule holds, so the player to move has already lost"
        ));
        out.line("value 0: a P-position");
        return Ok(());
    }
    let moves = session.moves(&[p])?;
    let value = session.value(&[p])?;
    if moves.is_empty() {
        out.line(format!("{name} has no moves: the player to move has lost"));
        out.line("value 0 = mex {}: a P-position");
        return Ok(());
    }
    out.line(format!(
        "{name}: its value is the mex of the values of its {} option{}",
        moves.len(),
        if moves.len() == 1 { "" } else { "s" }
    ));
    let rows: Vec<(String, String, String)> = moves
        .iter()
        .map(|m| {
            let result = session.show_sum(&m.result);
            (m.label.text.clone(), result, session.show_value(&m.value))
        })
        .collect();
    print_rows(&rows, out);
    let values = option_values(&moves);
    let mex = mex_of(&values);
    out.line(format!("the values of the options: {}", set(&values)));
    out.line(format!(
        "mex {} = {mex}, the least natural number not in the set",
        set(&values)
    ));
    if let Some(declared) = session.interp.parts(p).map_err(|e| vec![e])? {
        let shown = session.show_sum(&declared);
        if mex == value {
            out.line(format!(
                "({name} is declared equal to {shown}, whose value {value} agrees)"
            ));
        } else {
            out.line(format!(
                "but {name} is declared equal to {shown}, of value {value}: the `parts =` declaration is wrong here"
            ));
        }
    }
    conclude(&name, value, &moves, false, session, out);
    Ok(())
}

fn explain_sum(session: &mut Session, parts: &[PosId], out: &mut Output) -> Result<(), Errors> {
    let name = session.show_sum(parts);
    out.line(format!(
        "{name} is a sum of {} parts; its value is the xor (nim-sum) of theirs",
        parts.len()
    ));
    // Parts in the order they are shown in the sum.
    let mut sorted = parts.to_vec();
    let positions = &session.interp.positions;
    sorted.sort_by_cached_key(|&a| positions.get(a));
    let ordered: Vec<(String, PosId)> = sorted
        .iter()
        .map(|&p| (session.show_sum(&[p]), p))
        .collect();
    let mut lines = Vec::new();
    let mut values = Vec::new();
    for (part_name, p) in &ordered {
        let v = session.value(&[*p])?;
        let how = if session.interp.lost(*p).map_err(|e| vec![e])? {
            "(a `lose if` rule holds)".to_string()
        } else if session.interp.parts(*p).map_err(|e| vec![e])?.is_some() {
            "(the xor of its declared parts)".to_string()
        } else {
            let moves = session.moves(&[*p])?;
            format!("= mex {}", set(&option_values(&moves)))
        };
        lines.push((part_name.clone(), v, how));
        values.push(v);
    }
    let width = lines.iter().map(|l| l.0.chars().count()).max().unwrap_or(0);
    for (part_name, v, how) in &lines {
        out.line(format!("  {part_name:<width$}  value {v} {how}"));
    }
    let total = values.iter().fold(0, |a, v| a ^ v);
    let bits = (32 - values.iter().copied().max().unwrap_or(0).leading_zeros()).max(1) as usize;
    let number_width = values
        .iter()
        .map(|v| v.to_string().len())
        .max()
        .unwrap_or(1)
        .max(3);
    out.line("in binary, column by column:");
    for v in &values {
        out.line(format!("  {v:>number_width$} = {v:0bits$b}"));
    }
    out.line(format!(
        "  {:>number_width$} = {total:0bits$b} = {total}",
        "xor"
    ));
    let moves = session.moves(parts)?;
    conclude(&name, total, &moves, true, session, out);
    Ok(())
}

/// The verdict, and for an N-position the moves that win and why.
fn conclude(
    name: &str,
    value: u32,
    moves: &[SumMove],
    sum: bool,
    session: &mut Session,
    out: &mut Output,
) {
    if value == 0 {
        out.line(format!(
            "so {name} has value 0: a P-position; every move leads to a position of value other than 0, from which the opponent wins"
        ));
        return;
    }
    out.line(format!(
        "so {name} has value {value}: an N-position; the player to move wins by moving to a position of value 0"
    ));
    let winning: Vec<&SumMove> = moves.iter().filter(|m| m.winning).collect();
    if !sum {
        for m in winning {
            out.line(format!(
                "  {}  ->  {}",
                m.label,
                session.show_sum(&m.result)
            ));
        }
        return;
    }
    out.line(format!(
        "in a part of value v, a move to a position of value v ^ {value} makes the xor 0:"
    ));
    for m in winning {
        let v = session.value(&[m.part]).unwrap_or(0);
        out.line(format!(
            "  in {} (value {v}, and {v} ^ {value} = {}): {}  ->  {}",
            session.show_sum(&[m.part]),
            v ^ value,
            m.label,
            session.show_sum(&m.result)
        ));
    }
}

pub(super) fn print_rows(rows: &[(String, String, String)], out: &mut Output) {
    let shown = &rows[..rows.len().min(MAX_ROWS)];
    let move_width = shown.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
    let result_width = shown.iter().map(|r| r.1.chars().count()).max().unwrap_or(0);
    for (label, result, v) in shown {
        out.line(format!(
            "  {label:<move_width$}  ->  {result:<result_width$}  value {v}"
        ));
    }
    if rows.len() > MAX_ROWS {
        out.line(format!("  ... and {} more", rows.len() - MAX_ROWS));
    }
}

/// The distinct values of the options, in increasing order.
fn option_values(moves: &[SumMove]) -> Vec<u32> {
    // Only finite games are explained here: every value is a number.
    let mut values: Vec<u32> = moves.iter().filter_map(|m| m.value.finite()).collect();
    values.sort_unstable();
    values.dedup();
    values
}

/// The least natural number not in a sorted, deduplicated list.
fn mex_of(sorted: &[u32]) -> u32 {
    let mut mex = 0;
    for &v in sorted {
        if v == mex {
            mex += 1;
        } else if v > mex {
            break;
        }
    }
    mex
}

/// `{0, 1, 2}`; long runs of consecutive values are shortened to
/// `0, 1, ..., 40`.
fn set(sorted: &[u32]) -> String {
    let mut items: Vec<String> = Vec::new();
    let mut i = 0;
    while i < sorted.len() {
        let mut j = i;
        while j + 1 < sorted.len() && sorted[j + 1] == sorted[j] + 1 {
            j += 1;
        }
        if j - i >= 8 {
            items.push(format!(
                "{}, {}, ..., {}",
                sorted[i],
                sorted[i + 1],
                sorted[j]
            ));
        } else {
            items.extend(sorted[i..=j].iter().map(u32::to_string));
        }
        i = j + 1;
    }
    format!("{{{}}}", items.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mex_is_the_least_missing_value() {
        assert_eq!(mex_of(&[]), 0);
        assert_eq!(mex_of(&[0, 1, 2]), 3);
        assert_eq!(mex_of(&[1, 2, 3]), 0);
        assert_eq!(mex_of(&[0, 1, 3]), 2);
    }

    #[test]
    fn long_runs_are_shortened() {
        assert_eq!(set(&[0, 1, 2]), "{0, 1, 2}");
        let long: Vec<u32> = (0..=20).chain([25]).collect();
        assert_eq!(set(&long), "{0, 1, ..., 20, 25}");
    }
}
