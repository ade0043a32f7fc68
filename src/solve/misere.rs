//! Misère play: the player who cannot move wins. Values do not add up
//! under misère play, so the whole sum is searched as one position.

use super::{Move, Rules};
use crate::error::{Error, ErrorKind};
use crate::eval::PosId;
use std::collections::HashMap;
use std::sync::Arc;

/// A sum being searched, with the sums one move leads to.
struct Frame {
    state: Arc<[PosId]>,
    children: Vec<Arc<[PosId]>>,
    next: usize,
}

/// Whether the player to move from `root` wins under misère play. `memo`
/// maps sums (sorted components) to that answer. The game must already be
/// known to be finite.
pub fn wins(
    memo: &mut HashMap<Arc<[PosId]>, bool>,
    rules: &mut dyn Rules,
    root: &[PosId],
) -> Result<bool, Error> {
    let root: Arc<[PosId]> = Arc::from(root);
    if let Some(&known) = memo.get(&root) {
        return Ok(known);
    }
    let mut stack = vec![open(rules, root)?];
    loop {
        let top = stack.len() - 1;
        let frame = &mut stack[top];
        // A `lose if` rule ends the game whatever the play convention.
        let mut answer = if frame.children.is_empty() {
            Some(!lost_somewhere(rules, &frame.state)?)
        } else {
            None
        };
        let mut descend = None;
        while answer.is_none() && frame.next < frame.children.len() {
            let child = &frame.children[frame.next];
            match memo.get(child) {
                // A move to a position the opponent loses from wins.
                Some(false) => answer = Some(true),
                Some(true) => frame.next += 1,
                None => {
                    descend = Some(child.clone());
                    break;
                }
            }
        }
        if answer.is_none() && descend.is_none() {
            answer = Some(false);
        }
        if memo.len() + stack.len() > rules.max_states() {
            return Err(Error::new(
                ErrorKind::StateLimit {
                    limit: rules.max_states(),
                },
                Default::default(),
            ));
        }
        if let Some(child) = descend {
            let next = open(rules, child)?;
            stack.push(next);
            continue;
        }
        let wins = answer.unwrap_or(false);
        let Some(done) = stack.pop() else {
            unreachable!("the frame above was on the stack")
        };
        memo.insert(done.state, wins);
        if stack.is_empty() {
            return Ok(wins);
        }
    }
}

fn lost_somewhere(rules: &mut dyn Rules, state: &[PosId]) -> Result<bool, Error> {
    for &p in state {
        if rules.lost(p)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// The sums reachable in one move: a move in one component, the others kept.
fn open(rules: &mut dyn Rules, state: Arc<[PosId]>) -> Result<Frame, Error> {
    if crate::interrupt::requested() {
        return Err(Error::new(
            crate::interrupt::stop_kind(),
            Default::default(),
        ));
    }
    let mut children = Vec::new();
    let mut moves: Vec<Move> = Vec::new();
    for (i, &p) in state.iter().enumerate() {
        if i > 0 && state[i - 1] == p {
            continue;
        }
        moves.clear();
        rules.options(p, &mut moves)?;
        for m in &moves {
            let mut next: Vec<PosId> = state.iter().copied().collect();
            next.remove(i);
            next.extend_from_slice(&m.result);
            next.sort_unstable();
            children.push(Arc::from(next));
        }
    }
    Ok(Frame {
        state,
        children,
        next: 0,
    })
}
