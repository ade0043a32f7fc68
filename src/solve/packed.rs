//! A table of values by key for keys too long for a dense table: open
//! addressing, each slot one `u64` holding the key (scrambled) and a code
//! for its value, so that a stored position costs 8 bytes over the load
//! factor (at most 11.5 bytes) instead of a hash map's 17 over its own.
//!
//! Keys of `bits` bits are first scrambled by a bijection of the `bits`-bit
//! numbers (so distinct keys stay distinct), and a scrambled key `h` has
//! its home slot at `h * capacity >> bits`: homes grow with `h`. The slots
//! are kept in increasing order of `h` (an ordered linear-probing table:
//! each run of full slots sorted, every entry at or after its home, no
//! wrapping past the end). A look-up starts at the home and stops at the
//! first empty slot or larger `h`; an insertion shifts the rest of its run
//! one slot on. Growing is a merge: the slots are read in order and each
//! written at its new home or just after the one before.
//!
//! A slot is `h << code_bits | code`, 0 when empty; code 1 is the search's
//! "unknown" (a mark undone), 2 its "open" mark, and a value `v` is
//! `v + 3`. Values too large for the code go to a side map.

use super::store::{ON_STACK, UNKNOWN};
use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;

/// Grown when more than 7/8 of the slots are full, by a quarter: after
/// growing at least 7/10 are full, so a position costs at most 8 / 0.7 =
/// 11.4 bytes.
pub(super) const LOAD_NUMERATOR: usize = 7;
pub(super) const LOAD_DENOMINATOR: usize = 8;
const GROWTH_NUMERATOR: usize = 5;
const GROWTH_DENOMINATOR: usize = 4;
/// Slots at the start, and slots past the last home, where runs that
/// reach the end go on.
const FIRST_CAPACITY: usize = 1 << 12;
const TAIL: usize = 64;
/// Bits a slot keeps for a value's code at the least (keys of more bits
/// than 64 less this go to a hash map instead).
pub const MIN_CODE_BITS: u32 = 8;
/// Slots a look-up reads at once, without a branch (see `find`).
const WINDOW: usize = 4;
/// An odd multiplier whose bits look random: 2^64 over the golden ratio.
const SPREAD: u64 = 0x9E37_79B9_7F4A_7C15;

/// Values by key, for keys of a fixed number of bits.
pub struct PackedTable {
    slots: Vec<u64>,
    /// Homes are `0..capacity`; the slots run `TAIL` further.
    capacity: usize,
    len: usize,
    key_bits: u32,
    code_bits: u32,
    /// Values whose code would not fit, by scrambled key.
    large: HashMap<u64, u32, FxBuildHasher>,
}

/// What a look-up finds: `Err(at)` is where the key would go.
type Found = Result<usize, usize>;

impl PackedTable {
    /// A table for keys of at most `key_bits` bits (at most 64 less
    /// `MIN_CODE_BITS`).
    pub fn new(key_bits: u32) -> PackedTable {
        PackedTable::with_capacity(key_bits, FIRST_CAPACITY)
    }

    /// A table for keys of at most `key_bits` bits with `capacity` homes
    /// from the start.
    pub fn with_capacity(key_bits: u32, capacity: usize) -> PackedTable {
        assert!(
            key_bits + MIN_CODE_BITS <= 64,
            "keys too long for packed slots"
        );
        let capacity = capacity.max(FIRST_CAPACITY);
        PackedTable {
            slots: vec![0; capacity + TAIL],
            capacity,
            len: 0,
            key_bits,
            code_bits: 64 - key_bits,
            large: HashMap::default(),
        }
    }

    /// Keys stored (with a value, a mark or "unknown").
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn key_bits(&self) -> u32 {
        self.key_bits
    }

    /// Every key stored, with its value or mark.
    pub fn entries(&self) -> impl Iterator<Item = (u64, u32)> + '_ {
        self.slots.iter().filter(|&&s| s != 0).map(|&slot| {
            let h = self.scrambled(slot);
            (self.unscramble(h), self.decode(h, slot))
        })
    }

    /// Hands every key stored, with its value or mark, to `each`, the
    /// keys below `2^key_bits / parts` first, then the next such range,
    /// and so on, giving the slots' memory back as it goes: a table of
    /// every key filled from it is written a range at a time, so the two
    /// are never both whole.
    pub fn drain_in_parts(mut self, parts: u64, mut each: impl FnMut(u64, u32)) {
        let mut slots = std::mem::take(&mut self.slots);
        let keys = 1u64 << self.key_bits;
        for part in 1..=parts {
            let end = u64::try_from(u128::from(keys) * u128::from(part) / u128::from(parts))
                .unwrap_or(u64::MAX);
            let mut kept = 0;
            for at in 0..slots.len() {
                let slot = slots[at];
                if slot == 0 {
                    continue;
                }
                let h = self.scrambled(slot);
                let key = self.unscramble(h);
                if key < end {
                    each(key, self.decode(h, slot));
                } else {
                    slots[kept] = slot;
                    kept += 1;
                }
            }
            slots.truncate(kept);
            slots.shrink_to_fit();
        }
    }

    pub fn heap_bytes(&self) -> usize {
        self.slots.capacity() * 8 + self.large.capacity() * 17
    }

    /// Whether one more key would make the table grow.
    #[inline(always)]
    pub fn full(&self) -> bool {
        (self.len + 1) * LOAD_DENOMINATOR > self.capacity * LOAD_NUMERATOR
    }

    /// The bytes of the slots once the table has grown.
    pub fn grown_bytes(&self) -> usize {
        (self.capacity * GROWTH_NUMERATOR / GROWTH_DENOMINATOR + TAIL) * 8
    }

    /// The value or mark stored for `key`, or `UNKNOWN`.
    #[inline(always)]
    pub fn get(&self, key: u64) -> u32 {
        let h = self.scramble(key);
        match self.find(h) {
            Ok(at) => self.decode(h, self.slots[at]),
            Err(_) => UNKNOWN,
        }
    }

    /// Asks the processor to bring the slots a look-up of `key` reads at
    /// once (see `find`) into the cache: the home's line, and the next
    /// when the window reaches into it.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        let home = self.home(self.scramble(key));
        super::store::prefetch(&self.slots, home);
        super::store::prefetch(&self.slots, home + WINDOW - 1);
    }

    /// Stores a value or mark for `key` (`UNKNOWN` forgets a mark).
    pub fn set(&mut self, key: u64, v: u32) {
        let h = self.scramble(key);
        let code = self.encode(h, v);
        let slot = h | code;
        match self.find(h) {
            Ok(at) => self.slots[at] = slot,
            Err(at) => self.insert(at, slot),
        }
    }

    /// The key scrambled, in the high `key_bits` bits of a word (where a
    /// slot holds it): a bijection of the `key_bits`-bit numbers, a
    /// multiplication by an odd number, whose high bits (which the home
    /// takes) depend on every bit of the key. One multiplication and a
    /// shift: a look-up waits for them before it can read the table.
    #[inline(always)]
    fn scramble(&self, key: u64) -> u64 {
        key.wrapping_mul(SPREAD) << self.code_bits
    }

    /// The key that `scramble` made `h` of.
    fn unscramble(&self, h: u64) -> u64 {
        unscramble(h >> self.code_bits, self.key_bits)
    }

    /// A slot's scrambled key, its code cleared.
    #[inline(always)]
    fn scrambled(&self, slot: u64) -> u64 {
        slot >> self.code_bits << self.code_bits
    }

    #[inline(always)]
    fn home(&self, h: u64) -> usize {
        home_of(h, self.capacity)
    }

    #[inline(always)]
    fn find(&self, h: u64) -> Found {
        let mut at = self.home(h);
        // The slots before the one sought are those of its run that hold
        // smaller keys: the first of the window's slots (a slot past an
        // empty one holds a key of a later home, so a larger key). Counted
        // without a branch, a probe's length, which changes from key to
        // key, does not cost a mispredicted jump.
        let below = h.saturating_sub(1);
        if let Some(&[a, b, c, d]) = self.slots.get(at..at + WINDOW) {
            let smaller = |slot: u64| usize::from(slot.wrapping_sub(1) < below);
            at += smaller(a) + smaller(b) + smaller(c) + smaller(d);
        }
        loop {
            let slot = self.slots[at];
            if slot == 0 || slot >= h {
                return if slot != 0 && (slot ^ h) >> self.code_bits == 0 {
                    Ok(at)
                } else {
                    Err(at)
                };
            }
            at += 1;
        }
    }

    /// The code of a value or mark; the largest code puts the value aside.
    #[inline(always)]
    fn encode(&mut self, h: u64, v: u32) -> u64 {
        let most = (1u64 << self.code_bits) - 1;
        let code = match v {
            UNKNOWN => 1,
            ON_STACK => 2,
            v => u64::from(v) + 3,
        };
        if code < most {
            if !self.large.is_empty() {
                self.large.remove(&h);
            }
            return code;
        }
        self.large.insert(h, v);
        most
    }

    #[inline(always)]
    fn decode(&self, h: u64, slot: u64) -> u32 {
        let most = (1u64 << self.code_bits) - 1;
        match slot & most {
            1 => UNKNOWN,
            2 => ON_STACK,
            code if code == most => self.large.get(&h).copied().unwrap_or(UNKNOWN),
            code => (code - 3) as u32,
        }
    }

    /// Puts `slot` at `at`, the rest of the run one slot on.
    fn insert(&mut self, at: usize, slot: u64) {
        let end = match self.slots[at..].iter().position(|&s| s == 0) {
            Some(empty) => at + empty,
            None => return self.grow_then_set(slot),
        };
        self.slots.copy_within(at..end, at + 1);
        self.slots[at] = slot;
        self.len += 1;
        let full_tail = self.slots.last().is_some_and(|&s| s != 0);
        if full_tail || self.len * LOAD_DENOMINATOR > self.capacity * LOAD_NUMERATOR {
            self.grow();
        }
    }

    fn grow_then_set(&mut self, slot: u64) {
        self.grow();
        let h = self.scrambled(slot);
        match self.find(h) {
            Ok(at) => self.slots[at] = slot,
            Err(at) => self.insert(at, slot),
        }
    }

    /// A quarter more homes (or more, until every run fits before the
    /// end), the slots merged in order.
    fn grow(&mut self) {
        let mut capacity = self.capacity * GROWTH_NUMERATOR / GROWTH_DENOMINATOR;
        loop {
            if let Some(slots) = self.spread(capacity) {
                self.slots = slots;
                self.capacity = capacity;
                return;
            }
            capacity = capacity * GROWTH_NUMERATOR / GROWTH_DENOMINATOR;
        }
    }

    /// The slots laid out for `capacity` homes, if the last run ends before
    /// the tail's last slot.
    fn spread(&self, capacity: usize) -> Option<Vec<u64>> {
        let mut slots = vec![0u64; capacity + TAIL];
        let mut next = 0;
        for &slot in self.slots.iter().filter(|&&s| s != 0) {
            let home = home_of(self.scrambled(slot), capacity);
            let at = home.max(next);
            if at + 1 >= slots.len() {
                return None;
            }
            slots[at] = slot;
            next = at + 1;
        }
        Some(slots)
    }
}

/// A key of `bits` bits scrambled as a packed table scrambles it, in the
/// low bits of a word (the table keeps it in the high bits): a table of
/// narrower slots keeps its keys in the same order.
#[inline(always)]
pub(super) fn scramble(key: u64, bits: u32) -> u64 {
    key.wrapping_mul(SPREAD) & (u64::MAX >> (64 - bits))
}

/// The key of `bits` bits that `scramble` made `h` of.
pub(super) fn unscramble(h: u64, bits: u32) -> u64 {
    h.wrapping_mul(inverse(SPREAD)) & (u64::MAX >> (64 - bits))
}

/// The home of a scrambled key `h` (in a word's high bits) among
/// `capacity` homes: its place in `0..capacity` as a fraction of 2^64, the
/// high word of a product.
#[inline(always)]
fn home_of(h: u64, capacity: usize) -> usize {
    ((u128::from(h) * capacity as u128) >> 64) as usize
}

/// The inverse of an odd number modulo 2^64 (so modulo any power of two
/// below it too), by Newton's iteration: each step doubles the bits that
/// are right.
const fn inverse(odd: u64) -> u64 {
    let mut x = odd;
    let mut i = 0;
    while i < 6 {
        x = x.wrapping_mul(2u64.wrapping_sub(odd.wrapping_mul(x)));
        i += 1;
    }
    x
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::collections::HashMap as Plain;

    /// A deterministic stream of numbers (xorshift), for the tests of
    /// this table and of `quotient`.
    pub(in crate::solve) fn numbers(seed: u64) -> impl Iterator<Item = u64> {
        let mut s = seed.max(1);
        std::iter::repeat_with(move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        })
    }

    /// The table against a plain map, through growth, overwrites, marks
    /// undone and values too wide for their code.
    fn agrees_with_a_map(key_bits: u32, count: usize, seed: u64) {
        let mut table = PackedTable::new(key_bits);
        let mut map = Plain::new();
        let mask = u64::MAX >> (64 - key_bits);
        let mut stream = numbers(seed);
        for i in 0..count {
            let key = stream.next().unwrap_or(0) & mask;
            let v = match i % 7 {
                0 => UNKNOWN,
                1 => ON_STACK,
                3 => u32::MAX - 2,
                2 => (stream.next().unwrap_or(0) >> 40) as u32,
                _ => (i % 5) as u32,
            };
            table.set(key, v);
            map.insert(key, v);
            if i % 97 == 0 {
                for (&k, &want) in map.iter().take(50) {
                    assert_eq!(table.get(k), want, "key {k:#x} of {key_bits} bits");
                }
            }
        }
        for (&k, &want) in &map {
            assert_eq!(table.get(k), want, "key {k:#x} of {key_bits} bits");
        }
        assert_eq!(table.len(), map.len());
        // Read back whole, every key comes back with its value.
        let mut entries: Vec<(u64, u32)> = table.entries().collect();
        entries.sort_unstable();
        let mut expected: Vec<(u64, u32)> = map.iter().map(|(&k, &v)| (k, v)).collect();
        expected.sort_unstable();
        assert_eq!(entries, expected);
        // Keys never stored are unknown.
        for k in numbers(seed ^ 0x5555).take(2000) {
            let k = k & mask;
            if !map.contains_key(&k) {
                assert_eq!(table.get(k), UNKNOWN);
            }
        }
    }

    #[test]
    fn agrees_with_a_map_for_keys_of_many_lengths() {
        for (bits, seed) in [(25, 1), (28, 2), (33, 3), (40, 4), (56, 5)] {
            agrees_with_a_map(bits, 30_000, seed);
        }
    }

    /// Drained in parts, every entry comes out once, with its value (with
    /// 56-bit keys, values past 252 are set aside, too wide for their
    /// code), each range of keys before the next.
    #[test]
    fn drained_in_parts_every_entry_comes_out_once_range_by_range() {
        let bits = 56;
        let mut table = PackedTable::new(bits);
        let mut map = Plain::new();
        for (i, k) in numbers(7).take(30_000).enumerate() {
            let key = k & ((1 << bits) - 1);
            let v = if i % 1000 == 0 {
                u32::MAX - 2
            } else {
                (i % 300) as u32
            };
            table.set(key, v);
            map.insert(key, v);
        }
        let mut out = Vec::new();
        table.drain_in_parts(8, |k, v| out.push((k, v)));
        let parts: Vec<u64> = out.iter().map(|&(k, _)| k >> (bits - 3)).collect();
        assert!(parts.windows(2).all(|w| w[0] <= w[1]), "range by range");
        out.sort_unstable();
        let mut want: Vec<(u64, u32)> = map.into_iter().collect();
        want.sort_unstable();
        assert_eq!(out, want);
    }

    /// How far entries lie past their homes, on average: the slots a
    /// look-up of a stored key reads, less one.
    fn mean_displacement(table: &PackedTable) -> f64 {
        let total: usize = (0..table.slots.len())
            .filter(|&at| table.slots[at] != 0)
            .map(|at| at - table.home(table.scrambled(table.slots[at])))
            .sum();
        total as f64 / table.len as f64
    }

    /// Keys as games make them, packed fields with a pattern, not random
    /// bits: ten 4-bit heights that never increase (Chomp's columns) and
    /// 30-bit masks with four bits set. One multiplication must spread
    /// them about as well as as many random keys (a mean displacement of
    /// 1.16 and 1.54 slots, against 1.47 and 1.39 for random ones).
    #[test]
    fn keys_with_a_pattern_lie_near_their_homes() {
        let mut heights = Vec::new();
        let mut stack = vec![(0u64, 0u32, 12u64)];
        while let Some((key, column, cap)) = stack.pop() {
            if column == 10 {
                heights.push(key);
                continue;
            }
            for h in 0..=cap {
                stack.push((key | h << (4 * column), column + 1, h));
            }
        }
        assert_eq!(heights.len(), 646_646);
        let mut masks = Vec::new();
        for a in 0..30 {
            for b in a + 1..30 {
                for c in b + 1..30 {
                    for d in c + 1..30 {
                        masks.push(1 << a | 1 << b | 1 << c | 1 << d);
                    }
                }
            }
        }
        for (bits, keys, seed) in [(40, heights, 3), (30, masks, 4)] {
            let filled = |keys: &mut dyn Iterator<Item = u64>| {
                let mut table = PackedTable::new(bits);
                keys.for_each(|key| table.set(key, 1));
                table
            };
            let table = filled(&mut keys.iter().copied());
            let mask = u64::MAX >> (64 - bits);
            let random = filled(&mut numbers(seed).map(|k| k & mask).take(keys.len()));
            assert_eq!(table.capacity, random.capacity);
            let (mean, random_mean) = (mean_displacement(&table), mean_displacement(&random));
            assert!(
                mean < 1.25 * random_mean,
                "{mean:.2} slots past the home, against {random_mean:.2} for random keys"
            );
        }
    }

    #[test]
    fn keys_of_few_bits_fill_every_home() {
        // 2^13 keys of 13 bits: every key, so every run is as long as it
        // gets, and the table grows to hold all of them.
        let mut table = PackedTable::new(13);
        for k in 0..1u64 << 13 {
            table.set(k, (k % 300) as u32);
        }
        for k in 0..1u64 << 13 {
            assert_eq!(table.get(k), (k % 300) as u32);
        }
    }

    #[test]
    fn wide_values_go_aside_when_the_code_is_short() {
        // 56-bit keys leave 8 bits of code: values past 253 go aside.
        let mut table = PackedTable::new(56);
        for k in 0..3000u64 {
            table.set(k << 20, k as u32 * 1000);
        }
        for k in 0..3000u64 {
            assert_eq!(table.get(k << 20), k as u32 * 1000);
        }
        // A small value again takes the code back.
        table.set(5 << 20, 3);
        assert_eq!(table.get(5 << 20), 3);
    }

    #[test]
    fn a_stored_position_costs_at_most_twelve_bytes() {
        let mut table = PackedTable::new(30);
        for (i, k) in numbers(9).take(200_000).enumerate() {
            table.set(k & ((1 << 30) - 1), (i % 4) as u32);
            if table.len() > 10_000 && i % 1000 == 0 {
                let per = table.heap_bytes() as f64 / table.len() as f64;
                assert!(per <= 12.0, "{per:.1} bytes a position at {}", table.len());
            }
        }
    }
}
