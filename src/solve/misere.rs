//! Misère play: the player who cannot move wins. Values do not add up
//! under misère play, so the whole sum is searched as one position: its
//! parts sorted, and without the parts that have no move left (a part
//! with no move changes no play, whatever the convention, unless a `lose
//! if` rule says it is lost), so that a sum is stored once however many
//! finished parts the moves leave in it (`Kayles(0) + Kayles(3)` is
//! `Kayles(3)`). Each part's moves are found once a search, however
//! many sums it is part of.

use super::{Move, Rules};
use crate::error::{Error, ErrorKind};
use crate::eval::PosId;
use rustc_hash::FxBuildHasher;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::Arc;

/// Each sum searched (its parts in play, sorted) and whether the player to
/// move wins it.
pub type Sums = HashMap<Arc<[PosId]>, bool, FxBuildHasher>;

/// A sum being searched, with the sums one move leads to.
struct Frame {
    state: Arc<[PosId]>,
    children: Vec<Arc<[PosId]>>,
    next: usize,
}

/// Whether the player to move from `root` wins under misère play. `memo`
/// maps sums (sorted components) to that answer. The game must already be
/// known to be finite.
pub fn wins(memo: &mut Sums, rules: &mut dyn Rules, root: &[PosId]) -> Result<bool, Error> {
    let mut parts = Parts::default();
    let root: Arc<[PosId]> = parts.playing(rules, root.iter().copied())?.into();
    if let Some(&known) = memo.get(&root) {
        return Ok(known);
    }
    let mut stack = vec![parts.open(rules, root)?];
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
            let next = parts.open(rules, child)?;
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

/// The parts of the sums one search meets: each part's moves, found
/// once, and whether it is finished (no move, and not lost).
#[derive(Default)]
struct Parts {
    moves: HashMap<PosId, Rc<[Box<[PosId]>]>, FxBuildHasher>,
    finished: HashMap<PosId, bool, FxBuildHasher>,
}

impl Parts {
    /// The results of a part's moves, each once (two moves that leave the
    /// same parts are one option, whatever their order), parts sorted.
    fn moves(&mut self, rules: &mut dyn Rules, p: PosId) -> Result<Rc<[Box<[PosId]>]>, Error> {
        if let Some(known) = self.moves.get(&p) {
            return Ok(known.clone());
        }
        let mut moves: Vec<Move> = Vec::new();
        rules.options(p, &mut moves)?;
        let mut results: Vec<Box<[PosId]>> = moves
            .into_iter()
            .map(|m| {
                let mut parts: Box<[PosId]> = m.result.iter().copied().collect();
                parts.sort_unstable();
                parts
            })
            .collect();
        results.sort_unstable();
        results.dedup();
        let results: Rc<[Box<[PosId]>]> = results.into();
        self.moves.insert(p, results.clone());
        Ok(results)
    }

    /// Whether a part has no move and no `lose if` says it is lost: a sum
    /// plays as if it were not there.
    fn is_finished(&mut self, rules: &mut dyn Rules, p: PosId) -> Result<bool, Error> {
        if let Some(&known) = self.finished.get(&p) {
            return Ok(known);
        }
        let finished = self.moves(rules, p)?.is_empty() && !rules.lost(p)?;
        self.finished.insert(p, finished);
        Ok(finished)
    }

    /// The parts still in play, sorted: the sum as it is stored.
    fn playing(
        &mut self,
        rules: &mut dyn Rules,
        parts: impl Iterator<Item = PosId>,
    ) -> Result<Vec<PosId>, Error> {
        let mut kept = Vec::new();
        for p in parts {
            if !self.is_finished(rules, p)? {
                kept.push(p);
            }
        }
        kept.sort_unstable();
        Ok(kept)
    }

    /// The sums reachable in one move: a move in one part, the others
    /// kept.
    fn open(&mut self, rules: &mut dyn Rules, state: Arc<[PosId]>) -> Result<Frame, Error> {
        if crate::interrupt::requested() {
            return Err(Error::new(
                crate::interrupt::stop_kind(),
                Default::default(),
            ));
        }
        let mut children = Vec::new();
        for (i, &p) in state.iter().enumerate() {
            if i > 0 && state[i - 1] == p {
                continue;
            }
            let moves = self.moves(rules, p)?;
            for result in moves.iter() {
                // The other parts are in play already: only the move's
                // parts are tested.
                let mut next = self.playing(rules, result.iter().copied())?;
                next.extend(state[..i].iter().chain(&state[i + 1..]));
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
}

#[cfg(test)]
mod tests {
    use crate::session::Session;

    const KAYLES: &str = "
game Kayles(n: nat) {
  move knock(k in 1..=2, a in 0..=n - k) if k <= n => Kayles(a) + Kayles(n - a - k);
}
game Octal = octal 0.77;
";

    /// The sums a misère search of `position` stores, and how many of
    /// them hold `part`.
    fn sums_stored(position: &str, part: &str) -> (usize, usize) {
        let mut session = Session::new();
        session.load_text("kayles.game", KAYLES).expect("it loads");
        let parts = session.position(position).expect("a position");
        let part = session.position(part).expect("a position")[0];
        session.misere_wins(&parts).expect("an answer");
        session.interp.with_solver(|s, _| {
            let holding = s.misere.keys().filter(|sum| sum.contains(&part)).count();
            (s.misere.len(), holding)
        })
    }

    /// Kayles written as rules leaves a row of 0 pins beside the other
    /// row (`Kayles(0) + Kayles(3)`); the octal game leaves none. Both
    /// searches meet the same sums: before, the rules' search stored each
    /// sum again for every count of empty rows beside it (about five
    /// times as many). The two may store a few sums more or less, as they
    /// try moves in another order.
    #[test]
    fn finished_parts_do_not_make_new_sums() {
        let (octal, _) = sums_stored("Octal(24)", "Octal(1)");
        let (rules, with_empty_rows) = sums_stored("Kayles(24)", "Kayles(0)");
        assert!(octal > 1000);
        assert_eq!(with_empty_rows, 0);
        assert!(
            rules * 10 < octal * 11,
            "{rules} sums stored, against {octal}"
        );
    }
}
