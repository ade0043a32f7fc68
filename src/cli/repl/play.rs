//! `play POSITION [first|second]`: a game against the computer. The user
//! picks a move by its number or by writing the position it leads to; the
//! computer answers with a winning move when it has one, and otherwise
//! with the move that keeps the game longest (as seed 003's program does),
//! hoping for a mistake. Where play can repeat (a loopy game), a winning
//! move also brings the end nearer, so that the win comes however the
//! user plays; from a drawn position the computer says so and keeps the
//! draw.

use super::super::Output;
use super::{Input, Line};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::{PosId, Value};
use crate::session::Session;
use crate::solve::loopy::Play;
use crate::solve::SumMove;
use std::sync::Arc;

/// What the user is asked for at each turn.
pub const MOVE_PROMPT: &str = "your move> ";

/// Plays to the end. Refused moves are reported as they happen; if there
/// were any, the result is an error with nothing more to say, so that a
/// script's exit status shows them.
pub fn play(
    session: &mut Session,
    start: Arc<[PosId]>,
    user_first: bool,
    input: &mut dyn Input,
    out: &mut Output,
) -> Result<(), Errors> {
    out.line(format!(
        "you play {} against the computer: type a move's number or the position it leads to (`:quit` gives up)",
        if user_first { "first" } else { "second" }
    ));
    let loopy = session.reaches_loopy(&start)?;
    let mut current = start;
    let mut user_turn = user_first;
    let mut refused = 0;
    let mut draw_told = false;
    loop {
        out.line(format!("position: {}", session.show_sum(&current)));
        for row in board_rows(session, &current) {
            out.line(format!("    {row}"));
        }
        let moves = session.moves(&current)?;
        if moves.is_empty() {
            out.line(if user_turn {
                "you cannot move: the computer wins"
            } else {
                "the computer cannot move: you win"
            });
            break;
        }
        let plays = if loopy {
            Some(session.loopy_play(&current, &moves)?)
        } else {
            None
        };
        let drawn = matches!(plays, Some((Play::Drawn, _)));
        if drawn && !draw_told {
            out.line("this position is a draw: neither player can force a win, and the computer keeps it drawn (`:quit` stops)");
            draw_told = true;
        }
        let several_parts = current.len() > 1;
        let describe = |session: &Session, m: &SumMove| {
            if several_parts {
                format!("{} in {}", m.label, session.show_sum(&[m.part]))
            } else {
                m.label.text.clone()
            }
        };
        let chosen = if user_turn {
            let width = moves.len().to_string().len();
            let rows: Vec<(String, String)> = moves
                .iter()
                .map(|m| (describe(session, m), session.show_sum(&m.result)))
                .collect();
            let move_width = rows.iter().map(|r| r.0.chars().count()).max().unwrap_or(0);
            for (i, (mv, result)) in rows.iter().enumerate() {
                out.line(format!(
                    "  {:>width$}. {mv:<move_width$}  ->  {result}",
                    i + 1
                ));
            }
            match choose(session, &current, &moves, input, out, &mut refused) {
                Some(i) => i,
                None => {
                    out.line(if drawn {
                        "you stop: the game is drawn"
                    } else {
                        "you give up: the computer wins"
                    });
                    break;
                }
            }
        } else if let Some((_, after)) = &plays {
            loopy_computer_move(&moves, after)
        } else {
            computer_move(session, &moves)?
        };
        let m = &moves[chosen];
        let who = if user_turn { "you" } else { "the computer" };
        out.line(format!("{who}: {}", describe(session, m)));
        current = m.result.clone();
        user_turn = !user_turn;
    }
    if refused > 0 {
        Err(Vec::new())
    } else {
        Ok(())
    }
}

/// A winning move if there is one, otherwise the move after which the
/// game can last longest; the first such move in the list.
fn computer_move(session: &mut Session, moves: &[SumMove]) -> Result<usize, Errors> {
    if let Some(i) = moves.iter().position(|m| m.winning) {
        return Ok(i);
    }
    let mut best = (0, 0);
    for (i, m) in moves.iter().enumerate() {
        let h = session.height(&m.result)?;
        if i == 0 || h > best.1 {
            best = (i, h);
        }
    }
    Ok(best.0)
}

/// Where play can repeat: a winning move (one nearer the end) if there is
/// one, else a move that keeps a draw, else the move after which the
/// user's win is furthest off.
fn loopy_computer_move(moves: &[SumMove], after: &[Play]) -> usize {
    if let Some(i) = moves.iter().position(|m| m.winning) {
        return i;
    }
    if let Some(i) = after.iter().position(|p| *p == Play::Drawn) {
        return i;
    }
    let delay = |p: &Play| match p {
        Play::Won(r) => *r,
        _ => 0,
    };
    (0..after.len())
        .max_by_key(|&i| (delay(&after[i]), std::cmp::Reverse(i)))
        .unwrap_or(0)
}

/// Reads moves until one is legal; `None` if the user gives up or the
/// input ends.
fn choose(
    session: &mut Session,
    current: &[PosId],
    moves: &[SumMove],
    input: &mut dyn Input,
    out: &mut Output,
    refused: &mut usize,
) -> Option<usize> {
    loop {
        let text = match input.read(MOVE_PROMPT, out) {
            Line::Entry(text) => text,
            Line::Interrupted => continue,
            Line::End => return None,
        };
        let typed = text.trim();
        if typed.is_empty() {
            continue;
        }
        if matches!(typed, ":quit" | ":q" | "quit" | "resign") {
            return None;
        }
        match pick(session, current, moves, typed) {
            Ok(i) => return Some(i),
            Err(errors) => {
                *refused += 1;
                out.errors(&errors, &session.sources);
            }
        }
    }
}

/// The move the user means: a number from the list, or the position the
/// move leads to. Anything else is refused with the reason.
fn pick(
    session: &mut Session,
    current: &[PosId],
    moves: &[SumMove],
    typed: &str,
) -> Result<usize, Errors> {
    if typed.chars().all(|c| c.is_ascii_digit()) {
        let source = session.sources.add("<move>", typed);
        let span = crate::source::Span::new(source, 0, typed.len());
        return match typed.parse::<usize>() {
            Ok(n) if (1..=moves.len()).contains(&n) => Ok(n - 1),
            _ => Err(refuse(
                format!(
                    "there is no move {typed}: pick a number from 1 to {}",
                    moves.len()
                ),
                span,
            )),
        };
    }
    let wanted = session.position(typed)?;
    if let Some(i) = moves.iter().position(|m| m.result[..] == wanted[..]) {
        return Ok(i);
    }
    let source = session.sources.add("<move>", typed);
    let span = crate::source::Span::new(source, 0, typed.len());
    let (removed, added) = difference(current, &wanted);
    let reason = if removed.is_empty() && added.is_empty() {
        "that is the position now; a move must change it".to_string()
    } else if removed.is_empty() {
        format!(
            "a move changes a part, but this only adds {}",
            session.show_sum(&added)
        )
    } else {
        let mut distinct = removed.clone();
        distinct.dedup();
        if distinct.len() > 1 {
            let mut names: Vec<String> = distinct.iter().map(|p| session.show_sum(&[*p])).collect();
            let last = names.pop().unwrap_or_default();
            format!(
                "a move is made in one part, but this changes {} and {last}",
                names.join(", ")
            )
        } else {
            format!(
                "no move of {} leads to {}",
                session.show_sum(&distinct),
                session.show_sum(&added)
            )
        }
    };
    Err(refuse(reason, span))
}

fn refuse(reason: String, span: crate::source::Span) -> Errors {
    vec![Error::new(ErrorKind::BadValue { detail: reason }, span)
        .with_context("choosing a move: type its number, or the position it leads to")]
}

/// The parts only in `now` and the parts only in `then`, as multisets.
fn difference(now: &[PosId], then: &[PosId]) -> (Vec<PosId>, Vec<PosId>) {
    let mut removed = now.to_vec();
    let mut added = Vec::new();
    for p in then {
        match removed.iter().position(|q| q == p) {
            Some(i) => {
                removed.remove(i);
            }
            None => added.push(*p),
        }
    }
    removed.sort_unstable();
    (removed, added)
}

/// A grid argument (a list of two or more equal-length strings) drawn as
/// its rows, so a board game is seen as a board.
fn board_rows(session: &Session, parts: &[PosId]) -> Vec<String> {
    let mut rows = Vec::new();
    for &part in parts {
        let (_, args) = session.interp.positions.get(part);
        for arg in args.iter() {
            let Value::List(items) = arg else { continue };
            let lines: Vec<&str> = items
                .iter()
                .filter_map(|v| match v {
                    Value::Str(s) => Some(&**s),
                    _ => None,
                })
                .collect();
            let grid = lines.len() >= 2
                && lines.len() == items.len()
                && lines
                    .iter()
                    .all(|l| l.chars().count() == lines[0].chars().count());
            if grid {
                if !rows.is_empty() {
                    rows.push(String::new());
                }
                rows.extend(lines.iter().map(|l| l.to_string()));
            }
        }
    }
    rows
}
