//! Positions are interned: each distinct (game, arguments) pair is stored
//! once and named by a small integer, so the solver's memo is a plain array.

use super::value::Value;
use indexmap::IndexSet;
use std::sync::Arc;

pub type GameId = u32;
pub type PosId = u32;

#[derive(Clone, Debug, Default)]
pub struct Positions {
    set: IndexSet<(GameId, Arc<[Value]>)>,
}

impl Positions {
    pub fn intern(&mut self, game: GameId, args: Arc<[Value]>) -> PosId {
        let (index, _) = self.set.insert_full((game, args));
        index as PosId
    }

    /// The game and arguments of an interned position.
    pub fn get(&self, id: PosId) -> (GameId, &Arc<[Value]>) {
        let (game, args) = &self.set[id as usize];
        (*game, args)
    }

    pub fn len(&self) -> usize {
        self.set.len()
    }

    pub fn is_empty(&self) -> bool {
        self.set.is_empty()
    }

    /// Forget every position (for example when a game is redefined).
    pub fn clear(&mut self) {
        self.set.clear();
    }
}
