//! Which games declare a decomposition, and what each is compared with.

use crate::eval::ir::{GameKind, IrKind, Program};
use crate::source::Span;

/// A declared decomposition and the search that must agree with it.
#[derive(Clone, Debug)]
pub struct Plan {
    /// The game whose values come from its parts.
    pub game: u32,
    /// The game whose moves are searched, with the same arguments, with
    /// its own `parts =` ignored: the game itself for `parts =`, the game
    /// an alias sums for an alias.
    pub searched: u32,
    /// The declaration, where a difference is reported.
    pub span: Span,
}

/// What verifying a game means: a plan, a reason it cannot be verified,
/// or nothing (the game declares no decomposition).
pub enum Verdict {
    Verify(Plan),
    Cannot(String),
    Nothing,
}

pub fn of_game(program: &Program, g: u32) -> Verdict {
    let game = &program.games[g as usize];
    match &game.kind {
        GameKind::Rules {
            moves,
            parts: Some(parts),
            ..
        } => {
            if moves.is_empty() {
                return Verdict::Cannot(format!(
                    "`{}` has `parts =` but no move rule, so there are no moves to search and \
                     compare with its parts; its value is its parts' by definition",
                    game.name
                ));
            }
            Verdict::Verify(Plan {
                game: g,
                searched: g,
                span: parts.span,
            })
        }
        GameKind::Alias(body) => alias(program, g, body),
        _ => Verdict::Nothing,
    }
}

/// An alias `game A(p) = [B(x) for x in ...]` is a decomposition of
/// `B(p)` when `B` takes the same parameters as `A` and has moves: the
/// board and its regions. Any other sum is a definition, not a claim that
/// two games agree, so there is nothing to search it against.
fn alias(program: &Program, g: u32, body: &crate::eval::ir::Ir) -> Verdict {
    let game = &program.games[g as usize];
    let element = match &body.kind {
        // One position under another name: no decomposition.
        IrKind::MakePos(..) => return Verdict::Nothing,
        IrKind::Comprehension { element, .. } => element,
        _ => {
            return Verdict::Cannot(format!(
                "`{}` is a fixed sum of positions; only an alias that sums positions of one \
                 game taking the same parameters (such as `game Board(g: grid) = [Cram(r) for r \
                 in regions(g, \".\")]`) can be searched whole",
                game.name
            ))
        }
    };
    let IrKind::MakePos(h, _) = &element.kind else {
        return Verdict::Cannot(format!(
            "`{}` is a sum, but not of positions of one named game",
            game.name
        ));
    };
    let part = &program.games[*h as usize];
    let same_params = part.params.len() == game.params.len()
        && part
            .params
            .iter()
            .zip(&game.params)
            .all(|(a, b)| a.ty == b.ty);
    let has_moves = matches!(&part.kind, GameKind::Rules { moves, .. } if !moves.is_empty());
    if !same_params || !has_moves {
        return Verdict::Cannot(format!(
            "`{}` is a sum of `{}` positions, but `{}` {}, so there is no whole position \
             to search instead; state how `{}` relates to another game as a claim",
            game.name,
            part.name,
            part.name,
            if same_params {
                "has no move rules".to_string()
            } else {
                format!("takes other parameters than `{}`", game.name)
            },
            game.name
        ));
    }
    Verdict::Verify(Plan {
        game: g,
        searched: *h,
        span: body.span,
    })
}
