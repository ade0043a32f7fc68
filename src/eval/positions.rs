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
        let mut key = std::mem::take(&mut self.scratch);
        key.clear();
        varint(u64::from(game), &mut key);
        self.packer.write(args, &mut key);
        let id = self.intern_bytes(&key);
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
