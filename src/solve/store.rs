//! Where the search of packed keys (see `dense`) keeps its values: a table
//! with an entry for every key when keys are short, an open-addressing
//! table of key and value packed together for longer ones (in 32-bit slots
//! while they fit, see `quotient`, then in 64-bit ones, see `packed`)
//! until it would take more memory than a table of every key, and a hash
//! map past 56 bits.
//!
//! The move from the packed table to a table of every key is decided by
//! bytes alone, so it holds at any key width: the packed table may grow
//! only while its grown slots stay within what a table of every key would
//! take. When it would pass that, the search moves (if the memory budget
//! has room for the new table), so the packed table's growth (old and new
//! slots alive at once) never holds more than 1.8 times the table of every
//! key, and that table costs at most what the packed one would have: about
//! 11.4 bytes a stored position at the most. The move itself holds less:
//! the new table is written a range of keys at a time while the packed
//! one gives its memory back, and its pages are taken from the system only
//! when written, so keys no position uses may cost nothing.

use super::packed::{PackedTable, MIN_CODE_BITS};
use super::quotient::{QuotientTable, Slot};
use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;

/// Keys this short get a table with an entry for every key from the start.
/// Longer ones start in the packed table, at most 12 bytes a stored
/// position: a byte for every key of 25 bits is 32 MB, 30 bytes a position
/// for Cram 5x5's 1.1 million, though it reads each value faster (0.26 s
/// against 0.37 s). The packed table moves to one of every key once it
/// holds enough of them (see `densify`).
const DENSE_FIRST_BITS: u32 = 20;
/// Keys up to this long get a table that holds key and value together in
/// eight bytes (see `packed`); longer ones a hash map.
pub const PACKED_BITS: u32 = 64 - MIN_CODE_BITS;

// In this order, so that a dense entry of 0 (fresh) reads as unknown and
// 1 as open: see `Narrow`.
pub(super) const UNKNOWN: u32 = u32::MAX - 1;
pub(super) const ON_STACK: u32 = u32::MAX;

/// Values by key, with the two marks above.
pub(super) trait Store {
    fn get(&self, key: u64) -> u32;
    /// Stores a value or a mark; `Full` for a value too wide for it.
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full>;
    /// Whether a new key would be better stored in a table of another
    /// kind.
    fn outgrown(&self) -> bool {
        false
    }
    /// Starts bringing the entry of `key` into the cache, so that a later
    /// `get` does not wait for memory.
    fn prefetch(&self, _key: u64) {}
}

/// Asks the processor to bring `items[at]` into the cache (where it can be
/// asked; elsewhere nothing happens). A table far larger than the cache
/// has every look-up wait for memory: asked for all of a position's
/// options at once, the waits overlap.
#[inline(always)]
pub(super) fn prefetch<T>(items: &[T], at: usize) {
    #[cfg(target_arch = "x86_64")]
    if let Some(item) = items.get(at) {
        let p = (item as *const T).cast::<i8>();
        // SAFETY: a prefetch is a hint that reads nothing a program sees
        // and cannot fault; SSE, which it needs, is part of every x86_64
        // processor. The address is of an element of the slice.
        unsafe { std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(p) };
    }
}

/// `bytes` zero bytes, or `None` if the allocator has not got them. Zeroed
/// by the allocator (fresh pages from the system for a large table), so
/// that no page is held before it is written.
fn zeroed(bytes: usize) -> Option<Vec<u8>> {
    let layout = std::alloc::Layout::array::<u8>(bytes).ok()?;
    if bytes == 0 {
        return Some(Vec::new());
    }
    // SAFETY: the layout has a non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    if p.is_null() {
        return None;
    }
    // SAFETY: `p` holds `bytes` initialised (zero) bytes, allocated by the
    // global allocator with the layout of `[u8; bytes]`, which is how a
    // `Vec<u8>` of that capacity frees it.
    Some(unsafe { Vec::from_raw_parts(p, bytes, bytes) })
}

/// A value wider than a table's entries.
pub(super) struct Full;

/// A value `v` as an entry of a table of every key: `v + 2`, so that a
/// fresh (zeroed) table reads as unknown everywhere and the open mark
/// wraps round to 1.
#[inline(always)]
fn entry(v: u32) -> u32 {
    v.wrapping_add(2)
}

/// An entry for every key, a byte each: most games' values fit.
pub(super) struct Narrow(Vec<u8>);

impl Store for Narrow {
    #[inline(always)]
    fn get(&self, key: u64) -> u32 {
        u32::from(self.0[key as usize]).wrapping_sub(2)
    }

    #[inline(always)]
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        self.0[key as usize] = u8::try_from(entry(v)).map_err(|_| Full)?;
        Ok(())
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        prefetch(&self.0, key as usize);
    }
}

/// An entry for every key, two bytes each (low byte first): kept as bytes
/// so that a byte table can be widened where it lies (see
/// `Table::widen`).
pub(super) struct Wide(Vec<u8>);

impl Store for Wide {
    #[inline(always)]
    fn get(&self, key: u64) -> u32 {
        let at = key as usize * 2;
        u32::from(u16::from_le_bytes([self.0[at], self.0[at + 1]])).wrapping_sub(2)
    }

    #[inline(always)]
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        let at = key as usize * 2;
        let code = u16::try_from(entry(v)).map_err(|_| Full)?;
        self.0[at..at + 2].copy_from_slice(&code.to_le_bytes());
        Ok(())
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        prefetch(&self.0, key as usize * 2);
    }
}

pub(super) struct Hashed(HashMap<u64, u32, FxBuildHasher>);

impl Store for Hashed {
    #[inline(always)]
    fn get(&self, key: u64) -> u32 {
        self.0.get(&key).copied().unwrap_or(UNKNOWN)
    }

    fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        if v == UNKNOWN {
            self.0.remove(&key);
        } else {
            self.0.insert(key, v);
        }
        Ok(())
    }
}

/// What the search needs of a table that holds key and value together
/// (see `packed` and `quotient`).
pub(super) trait Slotted {
    fn get(&self, key: u64) -> u32;
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full>;
    fn prefetch(&self, key: u64);
    /// Whether one more key would make the table grow.
    fn full(&self) -> bool;
    /// The bytes of the slots once the table has grown.
    fn grown_bytes(&self) -> usize;
    fn key_bits(&self) -> u32;
    /// The largest value stored, `ON_STACK` and `UNKNOWN` as their
    /// entries in a table of every key (1 and 0).
    fn most_entry(&self) -> u32;
    /// Hands every key stored, with its value or mark, to `each`, giving
    /// the table's memory back as it goes where it can.
    fn drain(self, each: impl FnMut(u64, u32));
}

impl Slotted for PackedTable {
    #[inline(always)]
    fn get(&self, key: u64) -> u32 {
        PackedTable::get(self, key)
    }

    #[inline(always)]
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        PackedTable::set(self, key, v);
        Ok(())
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        PackedTable::prefetch(self, key);
    }

    #[inline(always)]
    fn full(&self) -> bool {
        PackedTable::full(self)
    }

    fn grown_bytes(&self) -> usize {
        PackedTable::grown_bytes(self)
    }

    fn key_bits(&self) -> u32 {
        PackedTable::key_bits(self)
    }

    fn most_entry(&self) -> u32 {
        self.entries().map(|(_, v)| entry(v)).max().unwrap_or(0)
    }

    /// A range of keys at a time (see `drain_in_parts`), so that the new
    /// table and the packed one are never both whole.
    fn drain(self, each: impl FnMut(u64, u32)) {
        self.drain_in_parts(8, each);
    }
}

impl<S: Slot> Slotted for QuotientTable<S> {
    #[inline(always)]
    fn get(&self, key: u64) -> u32 {
        QuotientTable::get(self, key)
    }

    #[inline(always)]
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        QuotientTable::set(self, key, v)
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        QuotientTable::prefetch(self, key);
    }

    #[inline(always)]
    fn full(&self) -> bool {
        QuotientTable::full(self)
    }

    fn grown_bytes(&self) -> usize {
        QuotientTable::grown_bytes(self)
    }

    fn key_bits(&self) -> u32 {
        QuotientTable::key_bits(self)
    }

    fn most_entry(&self) -> u32 {
        self.entries().map(|(_, v)| entry(v)).max().unwrap_or(0)
    }

    /// Whole: a slot's key is read from its place, so the slots cannot be
    /// given back a range at a time. They take at most the bytes of the
    /// table of every key they move to (see `Packed::outgrown`).
    fn drain(self, mut each: impl FnMut(u64, u32)) {
        self.entries().for_each(|(k, v)| each(k, v));
    }
}

/// A table of key and value together, and the bytes a table of every key
/// would take in its place (`None` once such a table was refused, or none
/// can be made).
pub(super) struct Packed<T> {
    table: T,
    dense_bytes: Option<usize>,
}

impl<T: Slotted> Store for Packed<T> {
    #[inline(always)]
    fn get(&self, key: u64) -> u32 {
        self.table.get(key)
    }

    #[inline(always)]
    fn set(&mut self, key: u64, v: u32) -> Result<(), Full> {
        self.table.set(key, v)
    }

    #[inline(always)]
    fn prefetch(&self, key: u64) {
        self.table.prefetch(key);
    }

    /// Whether the next new key would grow the slots past the bytes of a
    /// table of every key.
    #[inline(always)]
    fn outgrown(&self) -> bool {
        self.table.full()
            && self
                .dense_bytes
                .is_some_and(|d| self.table.grown_bytes() > d)
    }
}

pub(super) enum Table {
    Narrow(Narrow),
    Wide(Wide),
    /// Key and value in 32 bits, while they fit.
    Quotient(Packed<QuotientTable<u32>>),
    /// Key and value in 64 bits.
    Packed(Packed<PackedTable>),
    Hashed(Hashed),
}

/// How a table of every key was refused.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Refused;

impl Table {
    pub(super) fn new(bits: u32) -> Table {
        if bits <= DENSE_FIRST_BITS {
            Table::Narrow(Narrow(vec![0; 1 << bits]))
        } else if bits <= PACKED_BITS {
            let dense_bytes = 1usize.checked_shl(bits);
            match QuotientTable::new(bits) {
                Some(table) => Table::Quotient(Packed { table, dense_bytes }),
                None => Table::Packed(Packed {
                    table: PackedTable::new(bits),
                    dense_bytes,
                }),
            }
        } else {
            Table::Hashed(Hashed(HashMap::default()))
        }
    }

    /// The byte table as a two-byte one, holding the same entries: the
    /// bytes are spread out in place from the last, so only the added half
    /// is new memory (and refused when `room`, the bytes the budget still
    /// allows, is less).
    pub(super) fn widen(&mut self, room: Option<usize>) -> Result<(), Refused> {
        let Table::Narrow(narrow) = self else {
            return Ok(());
        };
        let size = narrow.0.len();
        if room.is_some_and(|room| size > room) || narrow.0.try_reserve_exact(size).is_err() {
            return Err(Refused);
        }
        let mut bytes = std::mem::take(&mut narrow.0);
        bytes.resize(2 * size, 0);
        // Entry i moves to 2i and 2i + 1, never below i: from the last
        // down, each is read before anything lands on it.
        for i in (0..size).rev() {
            let code = u16::from(bytes[i]).to_le_bytes();
            bytes[2 * i..2 * i + 2].copy_from_slice(&code);
        }
        *self = Table::Wide(Wide(bytes));
        Ok(())
    }

    /// The slots of 32 bits as slots of 64, holding the same entries (in
    /// the same order, so each is written at its place or just after the
    /// one before): when a value, a displacement or a remainder no longer
    /// fits 32 bits.
    pub(super) fn widen_slots(&mut self) {
        let Table::Quotient(packed) = self else {
            return;
        };
        let table = &packed.table;
        // Three quarters full: room to grow before the next merge.
        let mut wide = PackedTable::with_capacity(table.key_bits(), table.len() / 3 * 4);
        table.entries().for_each(|(k, v)| wide.set(k, v));
        *self = Table::Packed(Packed {
            table: wide,
            dense_bytes: packed.dense_bytes,
        });
    }

    /// Whether the packed table would pass a table of every key (see
    /// `densify`) rather than the slots being too narrow.
    pub(super) fn outgrown(&self) -> bool {
        match self {
            Table::Quotient(t) => t.outgrown(),
            Table::Packed(t) => t.outgrown(),
            _ => false,
        }
    }

    /// The packed table as a table of every key, holding the same entries:
    /// a byte a key if every value fits, else two. It stays as it is, and
    /// is never asked again, when `room` (the bytes the budget still
    /// allows) is less than the new table, when the allocation fails, or
    /// when a value does not fit two bytes. When values need two bytes, the
    /// move waits until the packed table would pass a table of two bytes a
    /// key.
    pub(super) fn densify(&mut self, room: Option<usize>) {
        let dense = match std::mem::replace(self, Table::Narrow(Narrow(Vec::new()))) {
            Table::Quotient(packed) => densified(packed, room).map_err(Table::Quotient),
            Table::Packed(packed) => densified(packed, room).map_err(Table::Packed),
            other => Err(other),
        };
        *self = dense.unwrap_or_else(|table| table);
    }

    pub(super) fn heap_bytes(&self) -> usize {
        match self {
            Table::Narrow(t) => t.0.capacity(),
            Table::Wide(t) => t.0.capacity(),
            Table::Quotient(t) => t.table.heap_bytes(),
            Table::Packed(t) => t.table.heap_bytes(),
            // A key, a value (padded to 16 bytes) and a control byte a slot.
            Table::Hashed(m) => m.0.capacity() * 17,
        }
    }
}

/// A table of every key holding the packed table's entries, or the packed
/// table back, with `dense_bytes` brought up to date (see `Table::densify`).
fn densified<T: Slotted>(mut packed: Packed<T>, room: Option<usize>) -> Result<Table, Packed<T>> {
    let width = match packed.table.most_entry() {
        most if most <= u32::from(u8::MAX) => 1,
        most if most <= u32::from(u16::MAX) => 2,
        _ => {
            packed.dense_bytes = None;
            return Err(packed);
        }
    };
    let size = 1usize.checked_shl(packed.table.key_bits());
    let Some(bytes) = size.and_then(|size| size.checked_mul(width)) else {
        packed.dense_bytes = None;
        return Err(packed);
    };
    if packed.dense_bytes != Some(bytes) {
        packed.dense_bytes = Some(bytes);
        if !packed.outgrown() {
            return Err(packed);
        }
    }
    let zeroed = match room.is_some_and(|room| bytes > room) {
        true => None,
        false => zeroed(bytes),
    };
    let Some(table) = zeroed else {
        packed.dense_bytes = None;
        return Err(packed);
    };
    // Every value fits the width chosen above. The new table's memory is
    // taken as it is written, while the packed table gives its back where
    // it can.
    Ok(if width == 1 {
        let mut dense = Narrow(table);
        packed.table.drain(|k, v| drop(dense.set(k, v)));
        Table::Narrow(dense)
    } else {
        let mut dense = Wide(table);
        packed.table.drain(|k, v| drop(dense.set(k, v)));
        Table::Wide(dense)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Keys `key(from), key(from + 1), ...`, the i-th with the value `value(i)`,
    /// stored until the table says it has outgrown itself: the `i` it
    /// stopped at.
    fn fill_until_outgrown(table: &mut Table, from: u64, value: impl Fn(u64) -> u32) -> u64 {
        assert!(
            matches!(table, Table::Quotient(_) | Table::Packed(_)),
            "a packed table to begin with"
        );
        let mut i = from;
        while !table.outgrown() {
            assert!(set(table, key(i), value(i)).is_ok());
            i += 1;
        }
        i
    }

    /// A table for keys of `bits` bits: slots of 32 bits, or of 64 (the
    /// empty table widened).
    fn packed(bits: u32, wide: bool) -> Table {
        let mut table = Table::new(bits);
        assert!(matches!(table, Table::Quotient(_)));
        if wide {
            table.widen_slots();
            assert!(matches!(table, Table::Packed(_)));
        }
        table
    }

    fn set(table: &mut Table, key: u64, v: u32) -> Result<(), Full> {
        match table {
            Table::Narrow(t) => t.set(key, v),
            Table::Wide(t) => t.set(key, v),
            Table::Quotient(t) => t.set(key, v),
            Table::Packed(t) => t.set(key, v),
            Table::Hashed(t) => t.set(key, v),
        }
    }

    /// The i-th key of a test: distinct for every i below 2^22 (more than
    /// any test stores).
    fn key(i: u64) -> u64 {
        (i * 7 + 2) % (1 << 22)
    }

    fn value_of(i: u64) -> u32 {
        (i % 5) as u32
    }

    fn get(table: &Table, key: u64) -> u32 {
        match table {
            Table::Narrow(t) => t.get(key),
            Table::Wide(t) => t.get(key),
            Table::Quotient(t) => t.get(key),
            Table::Packed(t) => t.get(key),
            Table::Hashed(t) => t.get(key),
        }
    }

    /// Keys of 25 bits, past the 24 up to which the move used to be
    /// allowed: a packed table of either width gives way to a byte a key
    /// before its slots would pass 2^25 bytes, holding every entry.
    #[test]
    fn a_packed_table_of_long_keys_moves_to_a_table_of_every_key() {
        let bits = 25;
        for wide in [false, true] {
            let mut table = packed(bits, wide);
            let stored = fill_until_outgrown(&mut table, 0, value_of);
            let before = table.heap_bytes();
            assert!(before <= 1 << bits, "{before} bytes before the move");
            // A byte a key then costs at most what the packed table's slots
            // would have: under 11.5 bytes a stored position.
            let per = (1u64 << bits) as f64 / stored as f64;
            assert!(per < 11.5, "{per:.1} bytes a position after the move");
            table.densify(None);
            assert!(matches!(table, Table::Narrow(_)));
            assert_eq!(table.heap_bytes(), 1 << bits);
            for i in (0..stored).step_by(97).chain([stored - 1]) {
                assert_eq!(get(&table, key(i)), value_of(i), "key {}", key(i));
            }
            assert_eq!(get(&table, (1 << 22) + 1), UNKNOWN, "a key never stored");
        }
    }

    /// Without room for a table of every key, the packed table stays, is
    /// never asked again, and goes on growing.
    #[test]
    fn a_table_of_every_key_is_refused_without_room() {
        for wide in [false, true] {
            let mut table = packed(22, wide);
            let stored = fill_until_outgrown(&mut table, 0, value_of);
            table.densify(Some((1 << 22) - 1));
            assert!(matches!(table, Table::Quotient(_) | Table::Packed(_)));
            assert!(!table.outgrown(), "not asked again");
            for i in stored..stored * 2 {
                assert!(set(&mut table, key(i), value_of(i)).is_ok());
            }
            assert!(
                table.heap_bytes() > 1 << 22,
                "it grew past the refused size"
            );
            for i in (0..stored * 2).step_by(31) {
                assert_eq!(get(&table, key(i)), value_of(i));
            }
        }
    }

    /// Values past a byte's range: the move waits until the packed table
    /// would pass a table of two bytes a key, then makes one.
    #[test]
    fn wide_values_move_to_two_bytes_a_key() {
        let value = |i: u64| if i == 3 { 300 } else { value_of(i) };
        for wide in [false, true] {
            let mut table = packed(22, wide);
            let first = fill_until_outgrown(&mut table, 0, value);
            table.densify(None);
            assert!(
                matches!(table, Table::Quotient(_) | Table::Packed(_)),
                "not yet at {first} keys"
            );
            let stored = fill_until_outgrown(&mut table, first, value);
            assert!(stored > first * 3 / 2, "{stored} keys, against {first}");
            table.densify(None);
            assert!(matches!(table, Table::Wide(_)));
            assert_eq!(table.heap_bytes(), 2 << 22);
            for i in (0..stored).step_by(53).chain([3, stored - 1]) {
                assert_eq!(get(&table, key(i)), value(i), "key {}", key(i));
            }
        }
    }

    /// Slots of 32 bits widened to 64 hold the same entries and marks,
    /// values too wide for a slot's code included.
    #[test]
    fn narrow_slots_widen_to_wide_ones() {
        let mut table = Table::new(40);
        let mut stored = Vec::new();
        for i in 0..20_000u64 {
            let k = (key(i) << 12) | (i % 4096);
            let v = match i % 6 {
                0 => ON_STACK,
                1 => UNKNOWN,
                _ => (i % 9) as u32,
            };
            assert!(set(&mut table, k, v).is_ok());
            stored.push((k, v));
        }
        assert!(matches!(table, Table::Quotient(_)));
        // 40-bit keys leave a 32-bit slot no room for this value's code.
        assert!(set(&mut table, 5, 1000).is_err());
        table.widen_slots();
        assert!(matches!(table, Table::Packed(_)));
        assert!(set(&mut table, 5, 1000).is_ok());
        assert_eq!(get(&table, 5), 1000);
        for (k, v) in stored {
            assert_eq!(get(&table, k), v, "key {k:#x}");
        }
    }

    /// A byte table widened in place keeps every entry and mark; refused,
    /// it is left as it was.
    #[test]
    fn a_byte_table_widens_in_place() {
        let mut table = Table::new(12);
        let Table::Narrow(narrow) = &mut table else {
            panic!("a byte table for short keys");
        };
        for key in 0..1 << 12 {
            let v = match key % 4 {
                0 => UNKNOWN,
                1 => ON_STACK,
                _ => (key % 250) as u32,
            };
            assert!(narrow.set(key, v).is_ok());
        }
        let want: Vec<u32> = (0..1 << 12).map(|key| get(&table, key)).collect();
        assert_eq!(table.widen(Some(100)), Err(Refused));
        assert!(matches!(table, Table::Narrow(_)));
        assert_eq!(table.widen(None), Ok(()));
        assert!(matches!(table, Table::Wide(_)));
        let got: Vec<u32> = (0..1 << 12).map(|key| get(&table, key)).collect();
        assert_eq!(got, want);
        let Table::Wide(wide) = &mut table else {
            unreachable!("just widened")
        };
        assert!(wide.set(5, 60_000).is_ok());
        assert_eq!(wide.get(5), 60_000);
    }
}
