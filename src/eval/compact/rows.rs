//! The rows of grids too large to hold every letter in a key (Chomp on 12
//! rows of 10 is 120 letters): each distinct row met gets a number, and a
//! row's field holds its number instead of its letters. Most such games
//! meet few distinct rows (Chomp's are a run of squares and a run of eaten
//! ones: 11 of them), so a few bits a row are enough; a row past what the
//! fields can number stops the compiled search, and the general one
//! answers.

use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;

/// Rows this short (in bits) are numbered through an array indexed by the
/// row itself, longer ones through a hash map.
const DIRECT_BITS: u32 = 16;

/// The rows met so far, shared by every grid of a game: a row's letters
/// (side by side, as `Text` holds them) by number, and back.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RowTable {
    words: Vec<u64>,
    /// By row, its number plus one (0: not met yet), for short rows.
    direct: Vec<u32>,
    /// By row, its number, for long rows.
    hashed: HashMap<u64, u32, FxBuildHasher>,
    /// How many numbers a field holds.
    limit: usize,
}

impl RowTable {
    /// A table for rows of `word_bits` bits, numbered in `number_bits`.
    pub fn new(word_bits: u32, number_bits: u32) -> RowTable {
        let direct = if word_bits <= DIRECT_BITS {
            vec![0; 1 << word_bits]
        } else {
            Vec::new()
        };
        RowTable {
            words: Vec::new(),
            direct,
            hashed: HashMap::default(),
            limit: 1 << number_bits.min(32),
        }
    }

    /// The letters of row number `n`.
    #[inline(always)]
    pub fn word(&self, n: u64) -> u64 {
        self.words[n as usize]
    }

    /// The number of a row, given one if it is new; `None` when the fields
    /// can number no more rows.
    #[inline(always)]
    pub fn number(&mut self, word: u64) -> Option<u64> {
        let next = self.words.len();
        if let Some(slot) = self.direct.get_mut(word as usize) {
            if *slot != 0 {
                return Some(u64::from(*slot - 1));
            }
            if next >= self.limit {
                return None;
            }
            *slot = next as u32 + 1;
        } else {
            if let Some(&n) = self.hashed.get(&word) {
                return Some(u64::from(n));
            }
            if next >= self.limit {
                return None;
            }
            self.hashed.insert(word, next as u32);
        }
        self.words.push(word);
        Some(next as u64)
    }

    /// How many distinct rows were met.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.words.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_keep_their_numbers_and_stop_at_the_limit() {
        for word_bits in [10, 40] {
            let mut table = RowTable::new(word_bits, 2);
            let rows = [0b11_0000_0000u64, 0, 0b1, 0b11_0000_0000];
            let numbers: Vec<_> = rows.iter().map(|&w| table.number(w)).collect();
            assert_eq!(numbers, [Some(0), Some(1), Some(2), Some(0)]);
            assert_eq!(table.word(2), 0b1);
            assert_eq!(table.number(0b111), Some(3));
            // Two bits number four rows: a fifth does not fit.
            assert_eq!(table.number(0b1111), None);
            assert_eq!(table.len(), 4);
            assert_eq!(table.number(0), Some(1));
        }
    }
}
