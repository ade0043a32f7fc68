//! `grundy check --verify-symmetry N`: the images a `symmetry =` rule
//! declares are trusted when values are computed. This values every
//! position up to a size and each of its images by a search that ignores
//! every symmetry, and reports the first position whose image differs.

use super::plan::Plan;
use super::{positions, Summary};
use crate::error::{Error, ErrorKind};
use crate::eval::{Interp, Value};
use crate::session::Session;
use std::sync::Arc;

/// Verifies every declared symmetry of the session's program on every
/// position of size at most `n` (at most `limit` positions a game).
pub fn symmetries(session: &mut Session, n: usize, limit: usize) -> Result<Summary, Error> {
    let program = session.interp.program.clone();
    // The games without their symmetries, in an interpreter of their own,
    // so that no value found with the declaration is used.
    let mut stripped = (*program).clone();
    for game in &mut stripped.games {
        game.symmetry = None;
    }
    let mut searcher = Interp::default();
    searcher.set_program(Arc::new(stripped));
    searcher.consts = session.interp.consts.clone();
    searcher.max_positions = session.interp.max_positions;
    let mut summary = Summary::default();
    for g in 0..program.games.len() as u32 {
        let game = &program.games[g as usize];
        let Some(symmetry) = &game.symmetry else {
            continue;
        };
        let plan = Plan {
            game: g,
            searched: g,
            span: symmetry.span,
        };
        let all = match positions(
            session,
            &plan,
            n,
            limit,
            ("the symmetry", "--verify-symmetry"),
        )? {
            Ok(all) => all,
            Err(why) => {
                summary.unverifiable.push((game.name.clone(), why));
                continue;
            }
        };
        let count = all.len();
        for args in all {
            compare(session, &mut searcher, g, args)?;
        }
        summary
            .verified
            .push((game.name.clone(), "each of its images".into(), count));
    }
    Ok(summary)
}

/// Values a position and each of its images without any symmetry.
fn compare(
    session: &mut Session,
    searcher: &mut Interp,
    g: u32,
    args: Vec<Value>,
) -> Result<(), Error> {
    let program = session.interp.program.clone();
    let game = &program.games[g as usize];
    let span = session.interp.symmetry_span(g);
    let shown = |interp: &Interp, args: &[Value]| {
        let shown: Vec<String> = args.iter().map(|a| interp.show(a)).collect();
        format!("{}({})", game.name, shown.join(", "))
    };
    let position = shown(&session.interp, &args);
    let context = |e: Error| {
        e.with_context(format!(
            "verifying the symmetry of `{}` at {position}",
            game.name
        ))
    };
    let images = session.interp.images(g, &args).map_err(context)?;
    let value = super::value(searcher, g, args, span).map_err(context)?;
    for image in images {
        let image_shown = shown(&session.interp, &image);
        let image_value = super::value(searcher, g, image, span).map_err(context)?;
        if image_value != value {
            return Err(Error::new(
                ErrorKind::SymmetryWrong {
                    game: game.name.clone(),
                    position: position.clone(),
                    image: image_shown,
                    value,
                    image_value,
                },
                span,
            )
            .with_related(game.span, "the game"));
        }
    }
    Ok(())
}
