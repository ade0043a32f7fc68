//! Games given by expressions that stand for each other without end
//! (`game A(n: nat) = B(n); game B(n: nat) = A(n);`): found when the file
//! is checked, since expanding them could never finish.

use crate::error::{Error, ErrorKind};
use crate::eval::ir::{GameKind, Ir, IrKind, Program};
use crate::source::Span;

/// The game a game given by an expression always expands into, whatever
/// its arguments, with where that is written: its body's last step when
/// no branch can leave.
fn always_becomes(program: &Program, g: usize) -> Option<(usize, Span)> {
    let game = &program.games[g];
    let body = match &game.kind {
        GameKind::Alias(body) => body,
        GameKind::Rules {
            moves,
            lose: None,
            parts: Some(parts),
        } if moves.is_empty() => parts,
        _ => return None,
    };
    last_step(body)
}

fn last_step(ir: &Ir) -> Option<(usize, Span)> {
    match &ir.kind {
        IrKind::MakePos(g, _) => Some((*g as usize, ir.span)),
        IrKind::List(items) if items.len() == 1 => last_step(&items[0]),
        _ => None,
    }
}

/// One error for each loop of games that always expand into the next,
/// pointing at every step of it.
pub fn alias_loops(program: &Program) -> Vec<Error> {
    let next: Vec<_> = (0..program.games.len())
        .map(|g| always_becomes(program, g))
        .collect();
    // Each game is visited once: `seen` holds the walk that reached it.
    let mut seen = vec![usize::MAX; next.len()];
    let mut errors = Vec::new();
    for start in 0..next.len() {
        let mut g = start;
        while seen[g] == usize::MAX {
            seen[g] = start;
            match next[g] {
                Some((to, _)) => g = to,
                None => break,
            }
        }
        // Back at a game of this walk: the loop is from `g` round to `g`.
        if seen[g] != start || next[g].is_none() {
            continue;
        }
        let mut steps = vec![g];
        let mut at = next[g].map_or(g, |(to, _)| to);
        while at != g {
            steps.push(at);
            at = next[at].map_or(g, |(to, _)| to);
        }
        let name = |g: usize| program.games[g].name.clone();
        let cycle = steps
            .iter()
            .chain([&g])
            .map(|&s| format!("{}(...)", name(s)))
            .collect::<Vec<_>>()
            .join(" -> ");
        let span_of = |s: usize| next[s].map_or(Span::default(), |(_, span)| span);
        let mut error = Error::new(ErrorKind::AliasLoop { cycle }, span_of(g));
        for &s in &steps[1..] {
            error = error.with_related(span_of(s), format!("`{}` stands for this", name(s)));
        }
        errors.push(error);
    }
    errors
}
