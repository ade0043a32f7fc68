//! The packed table of `packed` in slots of 32 bits instead of 64:
//! a slot keeps only what its place in the table does not already say.
//!
//! As there, a key is scrambled to `h` (a bijection of the `key_bits`-bit
//! numbers), the table is kept in increasing order of `h`, and a key lies
//! at its home or after it. Here the homes are a power of two, `2^home_bits`,
//! and a key's home is the top `home_bits` of `h` (its quotient), so `h` is
//! known from the home and the bits below the quotient (the remainder). A
//! slot holds, from the top, how far it lies past its home (the
//! displacement), the remainder (its bits inverted, see `find`) and the
//! value's code; its home is its place less the displacement.
//!
//! Cram on 5x5 has keys of 25 bits and 2^21 homes: a remainder of 4 bits,
//! so a slot of 32 bits has room for long displacements and any value a
//! byte holds, and the table takes fewer bytes than one of 64-bit slots
//! (7.5 bytes a stored position against 9.6). When a value's code, a
//! displacement or a remainder does not fit, the table is laid out again
//! with more code bits or more homes where that keeps it small; otherwise
//! `set` says `Full`, and the search moves to 64-bit slots.

use super::packed::{scramble, unscramble, LOAD_DENOMINATOR, LOAD_NUMERATOR};
use super::store::{Full, ON_STACK, UNKNOWN};

/// An unsigned integer a slot is made of.
pub trait Slot: Copy + Default + Eq {
    const BITS: u32;
    /// The low `BITS` bits of `word`.
    fn wrap(word: u64) -> Self;
    fn word(self) -> u64;
}

impl Slot for u32 {
    const BITS: u32 = 32;
    #[inline(always)]
    fn wrap(word: u64) -> u32 {
        word as u32
    }
    #[inline(always)]
    fn word(self) -> u64 {
        u64::from(self)
    }
}

/// Homes at the start, and slots past the last home where runs that reach
/// the end go on.
const FIRST_CAPACITY: usize = 1 << 12;
const TAIL: usize = 64;
/// Keys too long for the first homes start with more, up to these (a
/// megabyte of slots): Chomp's column heights, ten fields of 4 bits, need
/// 2^16 homes to leave room beside their remainder.
const MOST_FIRST_CAPACITY: usize = 1 << 18;
/// A value's code that needs more bits may take more homes (each doubling
/// takes a bit off the remainder) up to this many a stored key, or the
/// most a table starts with: four slots of 32 bits a key are what slots of
/// 64 bits take half full, where the table would go otherwise.
const MOST_HOMES_A_KEY: usize = 4;
/// Slots a look-up reads at once, without a branch (see `find`).
const WINDOW: usize = 4;
/// Code bits at the start: values up to 12. More are taken as values need
/// them (see `set`).
const FIRST_CODE_BITS: u32 = 4;
/// The fewest displacement bits a layout may have: fewer would make the
/// table lay itself out again at almost every insertion.
const MIN_DISPLACEMENT_BITS: u32 = 4;

/// How a slot's bits are shared out, for a number of homes.
#[derive(Clone, Copy, Debug)]
struct Layout {
    capacity: usize,
    /// Bits of `h` below the quotient: the remainder's.
    low_bits: u32,
    code_bits: u32,
    most_displacement: u64,
}

/// Where a key belongs: its home, and the least slot that is larger than
/// its entry would be at its home (see `find`).
#[derive(Clone, Copy)]
struct Place {
    home: usize,
    above: u64,
}

impl Layout {
    /// The layout of `capacity` homes (a power of two) for keys of
    /// `key_bits` bits in slots of `slot_bits` bits, if there is room for
    /// `code_bits` of code and enough displacement bits.
    fn new(key_bits: u32, capacity: usize, code_bits: u32, slot_bits: u32) -> Option<Layout> {
        let home_bits = capacity.trailing_zeros();
        let low_bits = key_bits.checked_sub(home_bits)?;
        let displacement_bits = slot_bits.checked_sub(code_bits + low_bits)?;
        if displacement_bits < MIN_DISPLACEMENT_BITS {
            return None;
        }
        Some(Layout {
            capacity,
            low_bits,
            code_bits,
            most_displacement: (1 << displacement_bits) - 1,
        })
    }

    #[inline(always)]
    fn place(&self, h: u64) -> Place {
        let rem = !h & ((1 << self.low_bits) - 1);
        Place {
            home: (h >> self.low_bits) as usize,
            above: (rem + 1) << self.code_bits,
        }
    }

    /// The first bit of the displacement.
    #[inline(always)]
    fn step(&self) -> u64 {
        1 << (self.low_bits + self.code_bits)
    }

    /// The slot of an entry `displacement` past its home, with its code.
    #[inline(always)]
    fn slot(&self, place: Place, displacement: u64, code: u64) -> u64 {
        (place.above - (1 << self.code_bits) + displacement * self.step()) | code
    }

    /// The scrambled key of the entry in `slot` at `at`, with its code.
    #[inline(always)]
    fn entry(&self, at: usize, slot: u64) -> (u64, u64) {
        let displacement = slot >> (self.low_bits + self.code_bits);
        let home = at as u64 - displacement;
        let rem = !(slot >> self.code_bits) & ((1 << self.low_bits) - 1);
        (
            home << self.low_bits | rem,
            slot & ((1 << self.code_bits) - 1),
        )
    }
}

/// Values by key, for keys of a fixed number of bits, in slots of `S`.
pub struct QuotientTable<S> {
    slots: Vec<S>,
    len: usize,
    key_bits: u32,
    layout: Layout,
}

/// What a look-up finds: `Err(at)` is where the key would go.
type Found = Result<usize, usize>;

impl<S: Slot> QuotientTable<S> {
    /// A table for keys of `key_bits` bits, if its slots have room for them.
    pub fn new(key_bits: u32) -> Option<QuotientTable<S>> {
        let (capacity, layout) = std::iter::successors(Some(FIRST_CAPACITY), |&c| Some(grown(c)))
            .take_while(|&c| c <= MOST_FIRST_CAPACITY)
            .find_map(|c| Some((c, Layout::new(key_bits, c, FIRST_CODE_BITS, S::BITS)?)))?;
        Some(QuotientTable {
            slots: vec![S::default(); capacity + TAIL],
            len: 0,
            key_bits,
            layout,
        })
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn key_bits(&self) -> u32 {
        self.key_bits
    }

    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<S>()
    }

    /// Whether one more key would make the table grow.
    #[inline(always)]
    pub fn full(&self) -> bool {
        (self.len + 1) * LOAD_DENOMINATOR > self.layout.capacity * LOAD_NUMERATOR
    }

    /// The bytes of the slots once the table has grown.
    pub fn grown_bytes(&self) -> usize {
        (grown(self.layout.capacity) + TAIL) * std::mem::size_of::<S>()
    }

    /// The value or mark stored for `key`, or `UNKNOWN`.
    #[inline(always)]
    pub fn get(&self, key: u64) -> u32 {
        match self.find(self.layout.place(scramble(key, self.key_bits))) {
            Ok(at) => decode(self.slots[at].word() & self.code_mask()),
            Err(_) => UNKNOWN,
        }
    }

    /// Asks for the cache lines a look-up of `key` reads at once.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let home = self.layout.place(scramble(key, self.key_bits)).home;
        super::store::prefetch(&self.slots, home);
        super::store::prefetch(&self.slots, home + WINDOW - 1);
    }

    #[inline(always)]
    fn code_mask(&self) -> u64 {
        (1 << self.layout.code_bits) - 1
    }

    /// Where the entry of `place` lies, or would go. Its run's slots
    /// before it are those that are smaller in the table's order: a larger
    /// displacement (an earlier home), or the same one and a smaller
    /// remainder. With the remainder's bits inverted, that is a slot at
    /// least `place.above` at the home, a step more for each slot on; an
    /// empty slot (0) never is, nor a slot past an empty one (a later
    /// home, a smaller displacement). So the smaller slots of the window
    /// can be counted without a branch, as in `packed`.
    #[inline(always)]
    fn find(&self, place: Place) -> Found {
        let step = self.layout.step();
        let mut at = place.home;
        let mut above = place.above;
        if let Some(&[a, b, c, d]) = self.slots.get(at..at + WINDOW) {
            let smaller = |slot: S, i: u64| usize::from(slot.word() >= above + i * step);
            at += smaller(a, 0) + smaller(b, 1) + smaller(c, 2) + smaller(d, 3);
            above += (at - place.home) as u64 * step;
        }
        let least = 1 << self.layout.code_bits;
        loop {
            let slot = self.slots[at].word();
            if slot >= above {
                at += 1;
                above += step;
                continue;
            }
            // Below `above` and at least a code's range less: this entry.
            return if slot != 0 && slot >= above - least {
                Ok(at)
            } else {
                Err(at)
            };
        }
    }

    /// Stores a value or mark for `key` (`UNKNOWN` forgets a mark), or says
    /// `Full`, the table as it was, when it would not fit these slots.
    pub fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        let code = encode(v);
        if code > self.code_mask() {
            let code_bits = 64 - code.leading_zeros() + 1;
            let most = MOST_FIRST_CAPACITY.max(self.len * MOST_HOMES_A_KEY);
            *self = std::iter::successors(Some(self.layout.capacity), |&c| Some(grown(c)))
                .take_while(|&c| c == self.layout.capacity || c <= most)
                .find_map(|c| self.laid_out(c, code_bits))
                .ok_or(Full)?;
        }
        let h = scramble(key, self.key_bits);
        // At most one growth to make room, and one for a displacement too
        // long (after which the table is sparse enough to refuse another).
        for _ in 0..3 {
            let place = self.layout.place(h);
            let at = match self.find(place) {
                Ok(at) => {
                    let slot = self.slots[at].word();
                    self.slots[at] = S::wrap(slot & !self.code_mask() | code);
                    return Ok(());
                }
                // Nothing stored is the same as unknown.
                Err(_) if v == UNKNOWN => return Ok(()),
                Err(at) => at,
            };
            if self.full() {
                self.grow()?;
                continue;
            }
            match self.insert(place, at, code) {
                Inserted::Done => return Ok(()),
                Inserted::NoRoom => self.grow()?,
                Inserted::TooFar => {
                    // Growing shortens runs; a table already sparse goes to
                    // wider slots instead.
                    if self.len * 2 < self.layout.capacity {
                        return Err(Full);
                    }
                    self.grow()?;
                }
            }
        }
        Err(Full)
    }

    /// Puts the entry at `at`, the rest of its run one slot on, if every
    /// displacement still fits and the run does not reach the last slot.
    fn insert(&mut self, place: Place, at: usize, code: u64) -> Inserted {
        let layout = self.layout;
        let displacement = (at - place.home) as u64;
        if displacement > layout.most_displacement {
            return Inserted::TooFar;
        }
        // The largest slot of the run from `at` has its largest
        // displacement.
        let (mut end, mut largest) = (at, 0);
        while end < self.slots.len() && self.slots[end] != S::default() {
            largest = largest.max(self.slots[end].word());
            end += 1;
        }
        if largest >= layout.most_displacement * layout.step() {
            return Inserted::TooFar;
        }
        if end + 1 >= self.slots.len() {
            return Inserted::NoRoom;
        }
        // Each entry of the rest of the run moves one slot on: one more
        // displacement.
        for j in (at..end).rev() {
            self.slots[j + 1] = S::wrap(self.slots[j].word() + layout.step());
        }
        self.slots[at] = S::wrap(layout.slot(place, displacement, code));
        self.len += 1;
        Inserted::Done
    }

    /// Twice the homes (more if a run would pass the last slot), or `Full`
    /// if the slots have no room for the layout.
    fn grow(&mut self) -> Result<(), Full> {
        let mut capacity = grown(self.layout.capacity);
        for _ in 0..2 {
            match self.laid_out(capacity, self.layout.code_bits) {
                Some(table) => {
                    *self = table;
                    return Ok(());
                }
                None => capacity = grown(capacity),
            }
        }
        Err(Full)
    }

    /// The same entries laid out for `capacity` homes and `code_bits` of
    /// code, if they fit.
    fn laid_out(&self, capacity: usize, code_bits: u32) -> Option<QuotientTable<S>> {
        let layout = Layout::new(self.key_bits, capacity, code_bits, S::BITS)?;
        let mut slots = vec![S::default(); capacity + TAIL];
        let mut next = 0;
        for (h, code) in self.scrambled_entries() {
            let place = layout.place(h);
            let at = place.home.max(next);
            let displacement = (at - place.home) as u64;
            if at + 1 >= slots.len() || displacement > layout.most_displacement {
                return None;
            }
            slots[at] = S::wrap(layout.slot(place, displacement, code));
            next = at + 1;
        }
        Some(QuotientTable {
            slots,
            len: self.len,
            key_bits: self.key_bits,
            layout,
        })
    }

    /// Every entry as its scrambled key and code, in the table's order
    /// (increasing `h`).
    fn scrambled_entries(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let layout = self.layout;
        self.slots
            .iter()
            .enumerate()
            .filter(|(_, s)| **s != S::default())
            .map(move |(at, slot)| layout.entry(at, slot.word()))
    }

    /// Every key stored, with its value or mark, in the table's order.
    pub fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.scrambled_entries()
            .map(|(h, code)| (unscramble(h, self.key_bits), decode(code)))
    }
}

/// How an insertion went.
enum Inserted {
    Done,
    /// The run would reach the last slot.
    NoRoom,
    /// A displacement would not fit its bits.
    TooFar,
}

/// Homes after growing: twice as many. Laid out again, an entry costs
/// more than in the merge of 64-bit slots (its key is worked out from its
/// place), and growing by a quarter, as those do, made Cram 5x5 a quarter
/// slower for its eleven merges more. Doubled, the table is at least 7/16
/// full: at most 9.2 bytes a stored position.
fn grown(capacity: usize) -> usize {
    capacity * 2
}

/// The code of a value or mark: never 0, which is an empty slot's.
#[inline(always)]
fn encode(v: u32) -> u64 {
    match v {
        UNKNOWN => 1,
        ON_STACK => 2,
        v => u64::from(v) + 3,
    }
}

#[inline(always)]
fn decode(code: u64) -> u32 {
    match code {
        1 => UNKNOWN,
        2 => ON_STACK,
        code => (code - 3) as u32,
    }
}

#[cfg(test)]
mod tests {
    use super::super::packed::tests::numbers;
    use super::*;
    use std::collections::HashMap;

    /// Every key of the map has its value in the table, and the table
    /// read whole holds the map's entries, each once.
    fn same(table: &QuotientTable<u32>, map: &HashMap<u64, u32>) {
        for (&k, &want) in map {
            assert_eq!(table.get(k), want, "key {k:#x}");
        }
        let mut entries: Vec<(u64, u32)> = table.entries().filter(|&(_, v)| v != UNKNOWN).collect();
        entries.sort_unstable();
        let mut want: Vec<(u64, u32)> = map
            .iter()
            .filter(|&(_, &v)| v != UNKNOWN)
            .map(|(&k, &v)| (k, v))
            .collect();
        want.sort_unstable();
        assert_eq!(entries, want);
    }

    /// The table against a plain map through growth, overwrites, marks set
    /// and undone, and values that need more code bits; where it says
    /// `Full`, it must be as it was.
    fn agrees_with_a_map(key_bits: u32, count: usize, seed: u64) -> usize {
        let mut table = QuotientTable::<u32>::new(key_bits).expect("room for these keys");
        let mut map = HashMap::new();
        let mask = u64::MAX >> (64 - key_bits);
        let mut stream = numbers(seed);
        let mut refused = 0;
        for i in 0..count {
            // Some keys again, to overwrite and unmark them.
            let key = match i % 5 {
                4 if !map.is_empty() => (i as u64 * 31) % (i as u64),
                _ => stream.next().unwrap_or(0),
            } & mask;
            let v = match i % 9 {
                0 => UNKNOWN,
                1 => ON_STACK,
                2 if i % 1000 == 2 => 300 + (i % 700) as u32,
                _ => (i % 11) as u32,
            };
            match table.set(key, v) {
                Ok(()) => {
                    map.insert(key, v);
                }
                Err(Full) => refused += 1,
            }
            if i % 4999 == 0 {
                same(&table, &map);
            }
        }
        same(&table, &map);
        for k in numbers(seed ^ 0x5555).take(5000) {
            let k = k & mask;
            if !map.contains_key(&k) {
                assert_eq!(table.get(k), UNKNOWN);
            }
        }
        refused
    }

    #[test]
    fn agrees_with_a_map_for_keys_of_many_lengths() {
        // Keys of 21 to 26 bits have room for every value here.
        for (bits, seed) in [(21, 1), (23, 2), (25, 3), (26, 4)] {
            assert_eq!(agrees_with_a_map(bits, 60_000, seed), 0, "{bits} bits");
        }
        // Longer keys leave fewer bits for the code: values past a byte
        // would need more homes than the table may take for them, and are
        // refused, the table left as it was.
        assert!(agrees_with_a_map(40, 60_000, 5) > 0);
    }

    /// Keys that no slot of 32 bits has room for, even in the most homes
    /// a table starts with; keys of 40 bits start with more homes.
    #[test]
    fn long_keys_get_no_narrow_table() {
        assert!(QuotientTable::<u32>::new(48).is_none());
        assert!(QuotientTable::<u32>::new(25).is_some());
        let table = QuotientTable::<u32>::new(40).expect("room in more homes");
        assert!(table.layout.capacity > FIRST_CAPACITY);
    }

    /// Keys of 40 bits whose values pass what the first code holds: the
    /// longer code takes more homes, and the slots stay 32 bits.
    #[test]
    fn long_keys_take_more_homes_for_longer_codes() {
        let mut table = QuotientTable::<u32>::new(40).expect("room");
        let mut map = HashMap::new();
        for (i, key) in numbers(7).take(20_000).enumerate() {
            let (key, v) = (key & ((1 << 40) - 1), (i % 29) as u32);
            assert!(table.set(key, v).is_ok(), "value {v}");
            map.insert(key, v);
        }
        same(&table, &map);
        assert!(table.layout.code_bits > FIRST_CODE_BITS);
    }

    /// Every key of 16 bits: the homes outnumber the quotients' room at
    /// last, and the table grows as far as a slot allows.
    #[test]
    fn every_key_of_a_short_length() {
        let mut table = QuotientTable::<u32>::new(16).expect("room");
        let mut map = HashMap::new();
        for k in 0..1u64 << 16 {
            if table.set(k, (k % 13) as u32).is_ok() {
                map.insert(k, (k % 13) as u32);
            }
        }
        assert!(map.len() > 1 << 15, "{} keys stored", map.len());
        same(&table, &map);
    }

    /// Keys as games make them, packed fields rather than random bits:
    /// each key is found again, the table laid out again as it grows.
    #[test]
    fn keys_with_a_pattern() {
        let mut table = QuotientTable::<u32>::new(30).expect("room");
        let mut map = HashMap::new();
        for a in 0..30 {
            for b in a + 1..30 {
                for c in b + 1..30 {
                    let key = 1 << a | 1 << b | 1 << c;
                    let v = (a + b + c) % 7;
                    assert!(table.set(key, v).is_ok());
                    map.insert(key, v);
                }
            }
        }
        same(&table, &map);
        assert_eq!(table.len(), map.len());
    }

    #[test]
    fn a_stored_position_costs_at_most_twelve_bytes() {
        let mut table = QuotientTable::<u32>::new(28).expect("room");
        for (i, k) in numbers(9).take(300_000).enumerate() {
            assert!(table.set(k & ((1 << 28) - 1), (i % 4) as u32).is_ok());
            if table.len() > 10_000 && i % 1000 == 0 {
                let per = table.heap_bytes() as f64 / table.len() as f64;
                assert!(per <= 9.2, "{per:.1} bytes a position at {}", table.len());
            }
        }
    }
}
