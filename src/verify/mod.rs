//! `grundy check --verify-decomposition N`: a declared decomposition
//! (`parts =`, or an alias that sums the regions of a board) is trusted
//! when values are computed. This compares it, on every position up to a
//! size, with a search of the whole position that ignores it.

mod alphabet;
pub mod enumerate;
pub mod plan;
mod symmetry;

use crate::error::{Error, ErrorKind};
use crate::eval::ir::GameKind;
use crate::eval::{Interp, Value};
use crate::session::Session;
use crate::source::Span;
use enumerate::{Enumerator, Refusal};
use plan::{Plan, Verdict};
use std::sync::Arc;

/// The most positions one game is verified on, so a large N is refused at
/// once rather than running for hours.
pub const MAX_POSITIONS: usize = 100_000;

/// What verifying one file found, short of a wrong decomposition.
#[derive(Debug, Default)]
pub struct Summary {
    /// Each game verified: its name, what it was compared with, and on how
    /// many positions.
    pub verified: Vec<(String, String, usize)>,
    /// Each game that declares a decomposition that could not be verified,
    /// and why.
    pub unverifiable: Vec<(String, String)>,
}

/// Verifies every declared decomposition of the session's program on every
/// position of size at most `n`; the first difference (or error) stops it.
pub fn decompositions(session: &mut Session, n: usize) -> Result<Summary, Error> {
    decompositions_within(session, n, MAX_POSITIONS)
}

/// The same, refusing a game with more than `limit` positions up to size
/// `n` (the fuzz targets keep each run short with a small one).
pub fn decompositions_within(
    session: &mut Session,
    n: usize,
    limit: usize,
) -> Result<Summary, Error> {
    let program = session.interp.program.clone();
    let mut summary = Summary::default();
    for g in 0..program.games.len() as u32 {
        let name = program.games[g as usize].name.clone();
        match plan::of_game(&program, g) {
            Verdict::Nothing => {}
            Verdict::Cannot(why) => summary.unverifiable.push((name, why)),
            Verdict::Verify(plan) => match positions(
                session,
                &plan,
                n,
                limit,
                ("the decomposition", "--verify-decomposition"),
            )? {
                Err(why) => summary.unverifiable.push((name, why)),
                Ok(all) => {
                    let count = all.len();
                    compare(session, &plan, all)?;
                    let searched = &program.games[plan.searched as usize].name;
                    let against = if plan.searched == plan.game {
                        "a search of its moves that ignores its parts".to_string()
                    } else {
                        format!("a search of `{searched}` on the whole position")
                    };
                    summary.verified.push((name, against, count));
                }
            },
        }
    }
    Ok(summary)
}

/// Verifies every declared symmetry on every position of size at most
/// `n`, as `--verify-symmetry N` does.
pub fn symmetries(session: &mut Session, n: usize) -> Result<Summary, Error> {
    symmetry::symmetries(session, n, MAX_POSITIONS)
}

/// Every argument list of the game up to size `n`, smallest first; or why
/// there is none.
/// `(what, flag)` name the declaration verified and the option that asks,
/// for the message when there are too many.
fn positions(
    session: &Session,
    plan: &Plan,
    n: usize,
    limit: usize,
    (what, flag): (&str, &str),
) -> Result<Result<Vec<Vec<Value>>, String>, Error> {
    let program = &session.interp.program;
    let game = &program.games[plan.game as usize];
    let letters = alphabet::of_games(program, &[plan.game, plan.searched]);
    let enumerator = Enumerator {
        letters: &letters,
        limit,
    };
    let too_many = || {
        Error::new(
            ErrorKind::TooLarge {
                what: format!("the number of positions of `{}` up to size {n}", game.name),
                size: format!("more than {limit}"),
                limit: limit.to_string(),
            },
            plan.span,
        )
        .with_context(format!(
            "verifying {what} of `{}`; give a smaller N to {flag}",
            game.name
        ))
    };
    let mut all: Vec<(Vec<Value>, usize)> = vec![(Vec::new(), 0)];
    for param in &game.params {
        let mut values = match enumerator.values(&param.ty, n) {
            Ok(values) => values,
            Err(Refusal::TooMany) => return Err(too_many()),
            Err(Refusal::NotEnumerable(why)) => {
                return Ok(Err(format!(
                    "its positions cannot be listed: `{}` is `{}`, and {why}",
                    param.name, param.ty
                )))
            }
        };
        values.sort_by_key(|(_, size)| *size);
        let mut next = Vec::new();
        for (args, size) in &all {
            for (v, s) in &values {
                if next.len() >= limit {
                    return Err(too_many());
                }
                let mut args = args.clone();
                args.push(v.clone());
                next.push((args, size + s));
            }
        }
        all = next;
    }
    // Smallest first, so the difference reported is a smallest one.
    all.sort_by_key(|(_, size)| *size);
    Ok(Ok(all.into_iter().map(|(args, _)| args).collect()))
}

/// Compares the decomposed value with the searched one on each position.
fn compare(session: &mut Session, plan: &Plan, all: Vec<Vec<Value>>) -> Result<(), Error> {
    let program = session.interp.program.clone();
    let game = &program.games[plan.game as usize];
    // The searched game without its `parts =`, in an interpreter of its
    // own, so the two searches share no memo.
    let mut stripped = (*program).clone();
    if let GameKind::Rules { parts, .. } = &mut stripped.games[plan.searched as usize].kind {
        *parts = None;
    }
    let mut searcher = Interp::default();
    searcher.set_program(Arc::new(stripped));
    searcher.consts = session.interp.consts.clone();
    searcher.max_positions = session.interp.max_positions;
    let searched_name = &program.games[plan.searched as usize].name;
    for args in all {
        let shown_args = args
            .iter()
            .map(|a| session.interp.show(a))
            .collect::<Vec<_>>()
            .join(", ");
        let shown = format!("{}({shown_args})", game.name);
        let whole = if plan.searched == plan.game {
            "a search of its moves that ignores `parts =`".to_string()
        } else {
            format!("a search of {searched_name}({shown_args})")
        };
        let context = |e: Error| {
            e.with_context(format!(
                "verifying the decomposition of `{}` at {shown}",
                game.name
            ))
        };
        let decomposed =
            value(&mut session.interp, plan.game, args.clone(), plan.span).map_err(context)?;
        let searched = value(&mut searcher, plan.searched, args, plan.span).map_err(context)?;
        if decomposed != searched {
            return Err(Error::new(
                ErrorKind::DecompositionWrong {
                    game: game.name.clone(),
                    position: shown,
                    whole,
                    decomposed,
                    searched,
                },
                plan.span,
            )
            .with_related(game.span, "the game"));
        }
    }
    Ok(())
}

/// The value of game `g`'s position with arguments `args`; `span` is where
/// an error in making it is reported.
fn value(interp: &mut Interp, g: u32, args: Vec<Value>, span: Span) -> Result<u32, Error> {
    let made = interp.make_position(g, args, span)?;
    let Value::Pos(parts) = interp.to_sum(made, span)? else {
        return Ok(0);
    };
    interp.with_solver(|s, i| s.value_of_sum(i, &parts))
}
