//! `explain POSITION` where play can repeat (a loopy game): Smith's
//! labelling of the positions reached, round by round, each position's
//! generalised value, and the outcome with the moves that win. For a sum:
//! each part's value and Smith's rule for adding them.

use super::super::Output;
use crate::error::Errors;
use crate::eval::PosId;
use crate::session::Session;
use crate::solve::loopy::{Generalised, Outcome};

/// At most this many labelling steps are listed.
const MAX_STEPS: usize = 40;

pub fn explain(session: &mut Session, parts: &[PosId], out: &mut Output) -> Result<(), Errors> {
    if parts.len() >= 2 {
        return explain_sum(session, parts, out);
    }
    let name = session.show_sum(parts);
    let (graph, labelling) = session.loopy_labelling(parts)?;
    let positions = graph.size();
    out.line(format!(
        "{name} is in a loopy game: {positions} position{} can be reached from it; Smith's labelling gives each a value, round by round:",
        if positions == 1 { "" } else { "s" }
    ));
    let inf = infinity(session);
    out.line(format!(
        "  in round m, a position gets the value m when none of its options has the value m and every option still unlabelled or labelled {inf} has an option of value m;"
    ));
    out.line(format!(
        "  then every position left with no option of value m is labelled {inf}."
    ));
    let shown = labelling.steps.len().min(MAX_STEPS);
    let mut i = 0;
    while i < shown {
        let (round, finite) = (labelling.steps[i].round, labelling.steps[i].finite);
        let mut names = Vec::new();
        while i < shown && labelling.steps[i].round == round && labelling.steps[i].finite == finite
        {
            let node = labelling.steps[i].node as usize;
            names.push(session.show_sum(&graph.nodes[node]));
            i += 1;
        }
        let what = if finite {
            format!("value {round}")
        } else {
            format!("{} (no option of value {round})", infinity(session))
        };
        out.line(format!("  round {round}, {what}: {}", names.join(", ")));
    }
    if labelling.steps.len() > shown {
        out.line(format!(
            "  ... and {} more steps",
            labelling.steps.len() - shown
        ));
    }
    let infinite: Vec<String> = labelling
        .steps
        .iter()
        .filter(|s| !s.finite)
        .take(MAX_STEPS)
        .map(|s| {
            let node = s.node as usize;
            let value = session.show_value(&labelling.values[node]);
            format!("{} = {value}", session.show_sum(&graph.nodes[node]))
        })
        .collect();
    if !infinite.is_empty() {
        out.line(format!(
            "a position labelled {} carries the set of its options' finite values: {}",
            infinity(session),
            infinite.join(", ")
        ));
    }
    let value = session.general_value(parts)?;
    conclude(session, &name, &value, parts, out)
}

fn explain_sum(session: &mut Session, parts: &[PosId], out: &mut Output) -> Result<(), Errors> {
    let name = session.show_sum(parts);
    let inf = infinity(session);
    out.line(format!(
        "{name} is a sum of {} parts; by Smith's rule, finite values xor, {inf}K plus a finite a is {inf}(K xor a), and two infinite parts make a draw, {inf}{{}}:",
        parts.len()
    ));
    for &p in parts {
        let v = session.general_value(&[p])?;
        out.line(format!(
            "  {}  value {}",
            session.show_sum(&[p]),
            session.show_value(&v)
        ));
    }
    let value = session.general_value(parts)?;
    conclude(session, &name, &value, parts, out)
}

/// The value, what it says about who wins, and the moves that win.
fn conclude(
    session: &mut Session,
    name: &str,
    value: &Generalised,
    parts: &[PosId],
    out: &mut Output,
) -> Result<(), Errors> {
    let shown = session.show_value(value);
    let verdict = match value.outcome() {
        Outcome::P => "a P-position: every move leads to a position from which the opponent wins".to_string(),
        Outcome::D => "a draw: neither player can force a win, and either can keep play going for ever".to_string(),
        Outcome::N => "an N-position: the player to move wins by moving to a position of value 0, each time one nearer the end".to_string(),
    };
    out.line(format!("so {name} has value {shown}: {verdict}"));
    if value.outcome() == Outcome::N {
        for m in session.moves(parts)?.iter().filter(|m| m.winning) {
            let played = if parts.len() > 1 {
                format!("{} in {}", m.label, session.show_sum(&[m.part]))
            } else {
                m.label.text.clone()
            };
            out.line(format!("  {played}  ->  {}", session.show_sum(&m.result)));
        }
    }
    Ok(())
}

/// The sign of an infinite value, as the session writes values.
fn infinity(session: &Session) -> &'static str {
    if session.ascii {
        "inf"
    } else {
        "∞"
    }
}
