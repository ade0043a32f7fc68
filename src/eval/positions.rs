//! Positions are interned: each distinct (game, arguments) pair is stored
//! once and named by a small integer, so the solver's memo is a plain array.

use super::value::Value;
use indexmap::IndexSet;
use rustc_hash::FxBuildHasher;
use std::sync::Arc;

pub type GameId = u32;
pub type PosId = u32;

#[derive(Clone, Debug, Default)]
pub struct Positions {
    /// A fast non-cryptographic hash: the keys are the program's own
    /// positions, and hashing them is on the search's hot path.
    set: IndexSet<(GameId, Arc<[Value]>), FxBuildHasher>,
}

impl Positions {
    pub fn intern(&mut self, game: GameId, args: Arc<[Value]>) -> PosId {
        let (index, _) = self.set.insert_full((game, args));
        index as PosId
    }

    /// The same, without allocating when the position is already known.
    pub fn intern_slice(&mut self, game: GameId, args: &[Value]) -> PosId {
        match self.set.get_index_of(&Key(game, args)) {
            Some(index) => index as PosId,
            None => self.intern(game, Arc::from(args)),
        }
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

    /// The bytes held on the heap: the set's entries and index, and each
    /// position's arguments with everything they share out.
    pub fn heap_bytes(&self) -> usize {
        let entry = std::mem::size_of::<(GameId, Arc<[Value]>)>() + std::mem::size_of::<u64>();
        let index = std::mem::size_of::<usize>() + 1;
        let args: usize = self.set.iter().map(|(_, a)| arc_bytes(a)).sum();
        self.set.capacity() * (entry + index) + args
    }

    /// Forget every position (for example when a game is redefined).
    pub fn clear(&mut self) {
        self.set.clear();
    }
}

/// A position looked up by borrowed arguments; it hashes and compares as
/// the stored `(game, Arc<[Value]>)` does.
#[derive(Hash)]
struct Key<'a>(GameId, &'a [Value]);

impl indexmap::Equivalent<(GameId, Arc<[Value]>)> for Key<'_> {
    fn equivalent(&self, key: &(GameId, Arc<[Value]>)) -> bool {
        self.0 == key.0 && self.1 == &*key.1
    }
}

/// An `Arc<[Value]>`'s allocation (two counts and the elements) and what
/// its elements hold. Shared parts are counted once per holder, which is
/// what a position that owns them would cost.
fn arc_bytes(values: &[Value]) -> usize {
    2 * std::mem::size_of::<usize>()
        + std::mem::size_of_val(values)
        + values.iter().map(value_bytes).sum::<usize>()
}

fn value_bytes(v: &Value) -> usize {
    match v {
        Value::Str(s) => 2 * std::mem::size_of::<usize>() + s.len(),
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => arc_bytes(xs),
        Value::Pos(p) => 2 * std::mem::size_of::<usize>() + std::mem::size_of_val(&**p),
        Value::Int(_) | Value::Bool(_) | Value::Range(..) => 0,
    }
}
