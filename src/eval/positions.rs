//! Positions are interned: each distinct (game, arguments) pair is stored
//! once and named by a small integer, so the solver's memo is a plain array.
//!
//! A position is stored as bytes (see `packing`): its game, then its
//! arguments, in a word of its own when they are short and in one growing
//! buffer otherwise, with a hash table of ids over them.
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
    /// One word a position: its bytes themselves when there are at most
    /// eight, or else where they start in `bytes` (see `inline_word`). Most
    /// positions of a search are that short (a
    /// board of 20 cells, four small piles), and a word compared in place
    /// saves the two reads a look-up would make elsewhere in memory.
    words: Vec<u64>,
    /// The bytes of longer positions, each after its length (a varint).
    bytes: Vec<u8>,
    /// The ids, found by the hash of their bytes (a fast non-cryptographic
    /// hash: the keys are the program's own positions).
    table: HashTable<PosId>,
    packer: Packer,
    /// The bytes of the position being looked up, reused.
    scratch: Vec<u8>,
}

// A word's low byte says what it holds. A position's first byte is its
// game's varint, below 0x80 for the first 128 games, so a word of eight
// such bytes is the bytes themselves; otherwise the low byte is `SHORT`
// plus the length of up to seven bytes that follow it, or `LONG`, with
// where the bytes start in the rest of the word.
const SHORT: u8 = 0x80;
const LONG: u8 = 0xff;

/// The word of a key short enough to be held in one.
fn inline_word(key: &[u8]) -> Option<u64> {
    let mut word = [0u8; 8];
    match key.len() {
        8 if key[0] < SHORT => word.copy_from_slice(key),
        len @ 0..=7 => {
            word[0] = SHORT + len as u8;
            word[1..=len].copy_from_slice(key);
        }
        _ => return None,
    }
    Some(u64::from_le_bytes(word))
}

fn is_long(word: u64) -> bool {
    word as u8 == LONG
}

/// The bytes of position `id`, copied into `buf` when they are in its word.
fn stored<'a>(words: &[u64], bytes: &'a [u8], id: PosId, buf: &'a mut [u8; 8]) -> &'a [u8] {
    let word = words[id as usize];
    if is_long(word) {
        let mut at = (word >> 8) as usize;
        let len = read_varint(bytes, &mut at) as usize;
        return &bytes[at..at + len];
    }
    *buf = word.to_le_bytes();
    match buf[0] {
        head @ SHORT.. => &buf[1..=(head - SHORT) as usize],
        _ => &buf[..],
    }
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
        let inline = inline_word(key);
        let hash = FxBuildHasher.hash_one(key);
        let Positions {
            words,
            bytes,
            table,
            ..
        } = self;
        let found = match inline {
            Some(word) => table.find(hash, |&id| words[id as usize] == word),
            None => table.find(hash, |&id| {
                is_long(words[id as usize]) && stored(words, bytes, id, &mut [0; 8]) == key
            }),
        };
        if let Some(&id) = found {
            return id;
        }
        let id = words.len() as PosId;
        let word = match inline {
            Some(word) => word,
            None => {
                let at = bytes.len() as u64;
                grow_gently(bytes, key.len() + 10);
                varint(key.len() as u64, bytes);
                bytes.extend_from_slice(key);
                at << 8 | u64::from(LONG)
            }
        };
        grow_gently(words, 1);
        words.push(word);
        let (words, bytes) = (&*words, &*bytes);
        table.insert_unique(hash, id, |&other| {
            FxBuildHasher.hash_one(stored(words, bytes, other, &mut [0; 8]))
        });
        id
    }

    /// The game of an interned position.
    pub fn game(&self, id: PosId) -> GameId {
        let mut buf = [0; 8];
        read_varint(stored(&self.words, &self.bytes, id, &mut buf), &mut 0) as GameId
    }

    /// The game and arguments of an interned position.
    pub fn get(&self, id: PosId) -> (GameId, Arc<[Value]>) {
        let mut buf = [0; 8];
        let key = stored(&self.words, &self.bytes, id, &mut buf);
        let mut at = 0;
        let game = read_varint(key, &mut at) as GameId;
        (game, self.packer.read(&key[at..]).into())
    }

    /// The game of an interned position, with its arguments appended to
    /// `out` (a frame for its rules, made without a shared copy first).
    pub fn args_into(&self, id: PosId, out: &mut Vec<Value>) -> GameId {
        let mut buf = [0; 8];
        let key = stored(&self.words, &self.bytes, id, &mut buf);
        let mut at = 0;
        let game = read_varint(key, &mut at) as GameId;
        self.packer.read_into(&key[at..], out);
        game
    }

    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Forget every position (for example when a game is redefined).
    pub fn clear(&mut self) {
        *self = Positions::default();
    }

    /// The bytes held on the heap: a word a position, the bytes of the
    /// longer ones, and the hash table.
    pub fn heap_bytes(&self) -> usize {
        self.words.capacity() * std::mem::size_of::<u64>()
            + self.bytes.capacity()
            + self.table.allocation_size()
            + self.scratch.capacity()
    }
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
            // Past a word of codes (64 bits) at each width.
            "[.X]{60,140}".prop_map(|s| Value::str(&s)),
            "[.XO]{30,70}".prop_map(|s| Value::str(&s)),
            "[.XO#ab]{14,40}".prop_map(|s| Value::str(&s)),
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
