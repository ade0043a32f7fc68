//! Positions are interned: each distinct (game, arguments) pair is stored
//! once and named by a small integer, so the solver's memo is a plain array.
//!
//! A position is stored as bytes (see `packing`): its game, then its
//! arguments, all in one growing buffer, with a hash table of ids over it.
//! A search of a million positions thus costs a few bytes a position
//! rather than an allocation or two each.

use super::packing::{read_varint, varint, Packer};
use super::value::Value;
use hashbrown::HashTable;
use rustc_hash::FxBuildHasher;
use std::hash::BuildHasher;
use std::sync::Arc;

pub type GameId = u32;
pub type PosId = u32;

#[derive(Clone, Debug, Default)]
pub struct Positions {
    /// Every position's bytes, one after another.
    bytes: Vec<u8>,
    /// Where each position's bytes end in `bytes`, modulo 2^32: four bytes
    /// a position, not eight.
    ends: Vec<u32>,
    /// The first position whose end passes each further 2^32 bytes (empty
    /// unless the positions take more than 4 GiB).
    wraps: Vec<PosId>,
    /// The ids, found by the hash of their bytes (a fast non-cryptographic
    /// hash: the keys are the program's own positions).
    table: HashTable<PosId>,
    packer: Packer,
    /// The bytes of the position being looked up, reused.
    scratch: Vec<u8>,
}

impl Positions {
    pub fn intern(&mut self, game: GameId, args: Arc<[Value]>) -> PosId {
        self.intern_slice(game, &args)
    }

    /// The id of a position, new if it was not known.
    pub fn intern_slice(&mut self, game: GameId, args: &[Value]) -> PosId {
        let id = self.intern_built(game, |packer, out| {
            packer.write(args, out);
            Some(())
        });
        id.unwrap_or_else(|| unreachable!("writing values always succeeds"))
    }

    /// The id of a position of `game` whose arguments `build` writes (as
    /// `Packer::write` would write them), new if it was not known; nothing
    /// is interned when `build` gives up.
    pub(crate) fn intern_built(
        &mut self,
        game: GameId,
        build: impl FnOnce(&mut Packer, &mut Vec<u8>) -> Option<()>,
    ) -> Option<PosId> {
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        varint(u64::from(game), &mut key);
        let id = build(&mut self.packer, &mut key).map(|()| self.intern_bytes(&key));
        self.scratch = key;
        id
    }

    fn intern_bytes(&mut self, key: &[u8]) -> PosId {
        let hash = FxBuildHasher.hash_one(key);
        let Positions {
            bytes,
            ends,
            wraps,
            table,
            ..
        } = self;
        if let Some(&id) = table.find(hash, |&id| slice(bytes, ends, wraps, id) == key) {
            return id;
        }
        let id = ends.len() as PosId;
        grow_gently(bytes, key.len());
        bytes.extend_from_slice(key);
        while (wraps.len() as u64) < (bytes.len() as u64) >> 32 {
            wraps.push(id);
        }
        grow_gently(ends, 1);
        ends.push(bytes.len() as u32);
        let (bytes, ends, wraps) = (&*bytes, &*ends, &*wraps);
        table.insert_unique(hash, id, |&other| {
            FxBuildHasher.hash_one(slice(bytes, ends, wraps, other))
        });
        id
    }

    fn stored(&self, id: PosId) -> &[u8] {
        slice(&self.bytes, &self.ends, &self.wraps, id)
    }

    /// The game of an interned position.
    pub fn game(&self, id: PosId) -> GameId {
        read_varint(self.stored(id), &mut 0) as GameId
    }

    /// The game and arguments of an interned position.
    pub fn get(&self, id: PosId) -> (GameId, Arc<[Value]>) {
        let key = self.stored(id);
        let mut at = 0;
        let game = read_varint(key, &mut at) as GameId;
        (game, self.packer.read(&key[at..]).into())
    }

    /// The game of an interned position, with its arguments appended to
    /// `out` (a frame for its rules, made without a shared copy first).
    pub fn args_into(&self, id: PosId, out: &mut Vec<Value>) -> GameId {
        let key = self.stored(id);
        let mut at = 0;
        let game = read_varint(key, &mut at) as GameId;
        self.packer.read_into(&key[at..], out);
        game
    }

    pub fn len(&self) -> usize {
        self.ends.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Forget every position (for example when a game is redefined).
    pub fn clear(&mut self) {
        *self = Positions::default();
    }

    /// The bytes held on the heap: the positions' bytes, where each ends,
    /// and the hash table.
    pub fn heap_bytes(&self) -> usize {
        self.bytes.capacity()
            + self.ends.capacity() * std::mem::size_of::<u32>()
            + self.wraps.capacity() * std::mem::size_of::<PosId>()
            + self.table.allocation_size()
            + self.scratch.capacity()
    }
}

/// The bytes of position `id`.
fn slice<'a>(bytes: &'a [u8], ends: &[u32], wraps: &[PosId], id: PosId) -> &'a [u8] {
    let end = |id: PosId| {
        let high = if wraps.is_empty() {
            0
        } else {
            wraps.partition_point(|&w| w <= id)
        };
        ((high as u64) << 32 | u64::from(ends[id as usize])) as usize
    };
    let start = if id == 0 { 0 } else { end(id - 1) };
    &bytes[start..end(id)]
}

/// Room for `more` elements, growing by a quarter rather than doubling:
/// the buffers hold every position of a search, and a doubled buffer
/// would leave up to half of it unused.
pub(crate) fn grow_gently<T>(v: &mut Vec<T>, more: usize) {
    if v.len() + more > v.capacity() {
        v.reserve_exact(more.max(v.capacity() / 4).max(64));
    }
}

#[cfg(test)]
mod tests {
    use super::{GameId, PosId, Positions};
    use crate::eval::value::Value;
    use proptest::prelude::*;
    use std::collections::HashMap;
    use std::sync::Arc;

    fn value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            (0i64..200).prop_map(Value::Int),
            any::<i64>().prop_map(Value::Int),
            any::<bool>().prop_map(Value::Bool),
            // Few characters (packed), many, and non-ASCII (written whole).
            "[.X]{0,25}".prop_map(|s| Value::str(&s)),
            "[.XO#ab]{0,9}".prop_map(|s| Value::str(&s)),
            "[a-zA-Z0-9é→ ]{0,6}".prop_map(|s| Value::str(&s)),
            (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Value::Range(a, b)),
            prop::collection::vec(any::<u32>(), 0..4).prop_map(|p| Value::Pos(p.into())),
        ];
        leaf.prop_recursive(3, 24, 5, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::list),
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::set),
                prop::collection::vec(inner, 0..4).prop_map(|v| Value::Tuple(v.into())),
            ]
        })
    }

    fn position() -> impl Strategy<Value = (GameId, Vec<Value>)> {
        (
            prop_oneof![0u32..3, any::<u32>()],
            prop::collection::vec(value(), 0..4),
        )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]

        /// The byte interner names positions exactly as a plain map from
        /// (game, arguments) to ids would, and gives back what it was given.
        #[test]
        fn interning_agrees_with_a_plain_map(
            positions in prop::collection::vec(position(), 1..60),
            again in prop::collection::vec(any::<prop::sample::Index>(), 0..30),
        ) {
            let mut interned = Positions::default();
            let mut plain: HashMap<(GameId, Vec<Value>), PosId> = HashMap::new();
            let picks = again.iter().map(|i| i.index(positions.len()));
            for k in (0..positions.len()).chain(picks) {
                let (game, args) = &positions[k];
                let id = interned.intern_slice(*game, args);
                let next = plain.len() as PosId;
                let want = *plain.entry((*game, args.clone())).or_insert(next);
                prop_assert_eq!(id, want);
                let (g, back) = interned.get(id);
                prop_assert_eq!(g, *game);
                prop_assert_eq!(interned.game(id), *game);
                prop_assert_eq!(&*back, &args[..]);
            }
            prop_assert_eq!(interned.len(), plain.len());
        }
    }

    #[test]
    fn a_string_packs_the_same_way_whatever_came_before() {
        let mut p = Positions::default();
        let board = |s: &str| -> Arc<[Value]> { Arc::from(vec![Value::str(s)]) };
        let a = p.intern(0, board("..X.."));
        // Sixteen new characters fill the codes; later strings with a
        // character that has none are written whole.
        let many: String = ('a'..='z').collect();
        let b = p.intern(0, board(&many));
        let c = p.intern(0, board("..X.."));
        let d = p.intern(0, board(&many));
        assert_eq!((a, b), (c, d));
        assert_ne!(a, b);
        assert_eq!(&*p.get(b).1, &[Value::str(&many)]);
        p.clear();
        assert!(p.is_empty());
        assert_eq!(p.intern(0, board(&many)), 0);
        assert_eq!(&*p.get(0).1, &[Value::str(&many)]);
    }
}
