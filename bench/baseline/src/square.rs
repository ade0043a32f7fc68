//! Subtract a square: a move takes k * k tokens for any k >= 1. No octal
//! code says that, so it has its own loop: the options of heap n are the
//! heaps n - 1, n - 4, n - 9, ..., their values marked in words of bits,
//! as a specialist's one-off program would do it.

/// g(0..=upto) of subtract-a-square.
pub fn sequence(upto: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(upto + 1);
    let mut seen: Vec<u64> = Vec::new();
    for n in 0..=upto {
        // The mex of m options is at most m: m + 1 bits are enough.
        let options = (1..).take_while(|k| k * k <= n).count();
        seen.clear();
        seen.resize(options / 64 + 1, 0);
        let mut k = 1;
        while k * k <= n {
            let v = g[n - k * k] as usize;
            if let Some(word) = seen.get_mut(v / 64) {
                *word |= 1 << (v % 64);
            }
            k += 1;
        }
        let (at, word) = seen
            .iter()
            .enumerate()
            .find(|(_, &w)| w != u64::MAX)
            .map_or((seen.len(), 0), |(at, &w)| (at, w));
        g.push((at * 64) as u32 + word.trailing_ones());
    }
    g
}

#[cfg(test)]
mod tests {
    /// The P-positions begin 0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34
    /// (OEIS A030193).
    #[test]
    fn losing_heaps_are_the_published_ones() {
        let g = super::sequence(40);
        let lost: Vec<usize> = (0..=40).filter(|&n| g[n] == 0).collect();
        assert_eq!(lost, [0, 2, 5, 7, 10, 12, 15, 17, 20, 22, 34, 39]);
    }
}
