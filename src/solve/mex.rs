//! The least natural number missing from a list of values, for lists too
//! long for one word of bits. The mex of `n` values is at most `n`, so a
//! set of `n + 1` bits holds every value that can matter: no sorting, and
//! the set is kept from one position to the next, so no allocation either
//! once it has grown to the longest list.

/// One bit a value, below a bound set by `start`.
#[derive(Default)]
pub struct MexSet(Vec<u64>);

impl MexSet {
    /// Starts over for a list of `count` values.
    pub fn start(&mut self, count: usize) {
        self.0.clear();
        self.0.resize(count / 64 + 1, 0);
    }

    /// Counts a value; one past the bound cannot be the mex's concern.
    #[inline(always)]
    pub fn note(&mut self, v: u32) {
        if let Some(word) = self.0.get_mut(v as usize / 64) {
            *word |= 1 << (v % 64);
        }
    }

    /// The least value not counted since `start`.
    pub fn least_missing(&self) -> u32 {
        let (at, word) = self
            .0
            .iter()
            .enumerate()
            .find(|(_, &w)| w != u64::MAX)
            .map_or((self.0.len(), 0), |(at, &w)| (at, w));
        (at * 64) as u32 + word.trailing_ones()
    }
}

/// The least natural number not among `values`.
pub fn mex(values: &[u32], set: &mut MexSet) -> u32 {
    // Most positions have few options with small values: a word of bits.
    if values.len() < 64 {
        let mut seen = 0u64;
        for &v in values {
            if v < 64 {
                seen |= 1 << v;
            }
        }
        return (!seen).trailing_zeros();
    }
    set.start(values.len());
    for &v in values {
        set.note(v);
    }
    set.least_missing()
}

#[cfg(test)]
mod tests {
    use super::{mex, MexSet};

    /// The least missing value by its definition: count up until one is
    /// not there.
    fn plain(values: &[u32]) -> u32 {
        (0..).find(|m| !values.contains(m)).unwrap_or(0)
    }

    #[test]
    fn mex_is_the_least_missing_value() {
        let mut set = MexSet::default();
        assert_eq!(mex(&[], &mut set), 0);
        assert_eq!(mex(&[1, 2], &mut set), 0);
        assert_eq!(mex(&[0, 2, 1, 4], &mut set), 3);
        assert_eq!(mex(&[0, 0, 1], &mut set), 2);
        // Every value 0..200 but 130, shuffled by a stride: 130.
        let long: Vec<u32> = (0..200)
            .map(|i| i * 7 % 200)
            .filter(|&v| v != 130)
            .collect();
        assert_eq!(mex(&long, &mut set), 130);
        // All of 0..128: the mex is one past the last word.
        let whole: Vec<u32> = (0..128).rev().collect();
        assert_eq!(mex(&whole, &mut set), 128);
    }

    /// The word and the set against the definition, on short and long
    /// lists with values below, around and past 64, one set reused
    /// throughout (a longer list before a shorter one must leave nothing
    /// behind).
    #[test]
    fn mex_agrees_with_the_definition() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound) as u32
        };
        let mut set = MexSet::default();
        for _ in 0..5000 {
            let len = next(400) as usize;
            let bound = [3, 40, 70, 200, 400][next(5) as usize];
            let mut values: Vec<u32> = (0..len).map(|_| next(bound)).collect();
            // Often every value up to some point, as in Wythoff's game,
            // where the mex passes 64 and the list is long.
            if next(2) == 0 {
                let upto = next(len as u64 + 1);
                values.extend(0..upto);
            }
            assert_eq!(mex(&values, &mut set), plain(&values), "{values:?}");
        }
    }
}
