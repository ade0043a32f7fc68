//! A direct-mapped index of the positions held in one word (see
//! `positions`), for searches whose positions differ in only a few bits.
//!
//! A search's positions are mostly one game with arguments that change in
//! small ways: four piles below 16, a row of twenty cells each `.` or `X`.
//! Their words then differ from the first one in at most a couple of dozen
//! bit places. Those places, gathered into a number, index a table of ids
//! directly, so finding a position costs a few reads from small tables and
//! one from the index, instead of a hash and a probe of the hash table
//! followed by a read of the word it points to.
//!
//! The index only answers for words inside the bit places it knows; any
//! other word is left to the hash table, which always holds every position.
//! It is rebuilt when a new position varies in a new place, and kept only
//! while it costs at most a few bytes a stored position.

/// The most bit places the index covers: a table of 2^24 ids is 64 MiB.
const MOST_BITS: u32 = 24;

/// The index is kept while its table is at most this many ids a stored
/// position (four bytes each), or at most `SMALL` ids (4 MiB) in any case:
/// a search cannot wait to know how large it will be, and most of its
/// look-ups happen long before it ends.
const IDS_PER_POSITION: usize = 2;
const SMALL: usize = 1 << 20;

/// Marks a table entry with no position.
const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct Direct {
    /// The word the others are compared with.
    first: Option<u64>,
    /// The bit places where some word differs from `first`.
    varying: u64,
    /// Whether `ids` is built for `varying` (it is not while too large).
    built: bool,
    /// For each byte of a word and each value of that byte, the index bits
    /// it contributes: the index is the sum over the eight bytes.
    spread: Vec<[u32; 256]>,
    /// The id of each word inside `varying`, by index.
    ids: Vec<u32>,
}

impl Direct {
    /// The id of `word` when the index knows for sure: `Some(Some(id))` if
    /// it is stored, `Some(None)` if it is not; `None` when it cannot tell.
    #[inline]
    pub fn find(&self, word: u64) -> Option<Option<u32>> {
        if !self.built {
            return None;
        }
        let diff = word ^ self.first?;
        if diff & !self.varying != 0 {
            return None;
        }
        let id = self.ids[self.index(diff)];
        Some((id != NONE).then_some(id))
    }

    /// Notes a new position `id` held in `word`. `words` gives every word
    /// stored so far (`id` last), for a rebuild; `inline` says which of them
    /// are positions held in one word.
    pub fn insert(&mut self, word: u64, id: u32, words: &[u64], inline: impl Fn(u64) -> bool) {
        let first = *self.first.get_or_insert(word);
        let diff = word ^ first;
        let wider = self.varying | diff;
        let count = words.len();
        if wider != self.varying || (!self.built && count.is_power_of_two()) {
            self.varying = wider;
            self.rebuild(words, inline, count);
        } else if self.built {
            let at = self.index(diff);
            self.ids[at] = id;
        }
    }

    fn rebuild(&mut self, words: &[u64], inline: impl Fn(u64) -> bool, count: usize) {
        let bits = self.varying.count_ones();
        let size = 1usize << bits.min(MOST_BITS);
        self.built = bits <= MOST_BITS && size <= SMALL.max(IDS_PER_POSITION * count);
        self.ids.clear();
        if !self.built {
            self.ids.shrink_to_fit();
            return;
        }
        self.spread = spread(self.varying);
        // Refilled in place: a search adds its bit places one by one, and a
        // table allocated afresh each time would leave holes in the heap.
        self.ids.resize(size, NONE);
        let Some(first) = self.first else {
            return;
        };
        for (id, &word) in words.iter().enumerate() {
            if inline(word) && (word ^ first) & !self.varying == 0 {
                let at = self.index(word ^ first);
                self.ids[at] = id as u32;
            }
        }
    }

    #[inline(always)]
    fn index(&self, diff: u64) -> usize {
        let bytes = diff.to_le_bytes();
        let mut at = 0u32;
        for (table, &b) in self.spread.iter().zip(&bytes) {
            at |= table[b as usize];
        }
        at as usize
    }

    pub fn heap_bytes(&self) -> usize {
        self.ids.capacity() * std::mem::size_of::<u32>()
            + self.spread.capacity() * std::mem::size_of::<[u32; 256]>()
    }
}

/// For each byte place and byte value, the bits of `varying` that byte
/// holds, gathered in order from the lowest (a portable bit-gather).
fn spread(varying: u64) -> Vec<[u32; 256]> {
    let mut tables = vec![[0u32; 256]; 8];
    let mut below = 0u32;
    for (place, table) in tables.iter_mut().enumerate() {
        let mask = (varying >> (8 * place)) as u8;
        for (value, entry) in table.iter_mut().enumerate() {
            let mut gathered = 0u32;
            let mut out = 0;
            for bit in 0..8 {
                if mask & (1 << bit) != 0 {
                    if value & (1 << bit) != 0 {
                        gathered |= 1 << out;
                    }
                    out += 1;
                }
            }
            *entry = gathered << below;
        }
        below += mask.count_ones();
    }
    tables
}

#[cfg(test)]
mod tests {
    use super::spread;

    /// The tables gather exactly the varying bits, in order.
    #[test]
    fn the_tables_gather_the_varying_bits() {
        let varying: u64 = 0x00f0_0301_8000_0ff0;
        let tables = spread(varying);
        for word in [0u64, u64::MAX, 0x1234_5678_9abc_def0, 0x00f0_0000_0000_0010] {
            let want = {
                let (mut out, mut at) = (0u32, 0);
                for bit in 0..64 {
                    if varying >> bit & 1 == 1 {
                        out |= ((word >> bit & 1) as u32) << at;
                        at += 1;
                    }
                }
                out
            };
            let got = word
                .to_le_bytes()
                .iter()
                .zip(&tables)
                .fold(0, |acc, (&b, t)| acc | t[b as usize]);
            assert_eq!(got, want, "{word:#x}");
        }
    }
}
