//! The backwards copy of a nim-sequence that the heap kernels read the
//! second part of each split from (`copy[upto - m] == g(m)`), so that both
//! parts of a run of splits are read forwards.
//!
//! Heap n splits into parts of at least `(n - t) / 2` and at most n tokens
//! (t: the most tokens a move removes), so once n is past 2m + t, g(m) is
//! never read backwards again: the end of the copy dies as the sequence
//! grows. Giving it back keeps a long table at three bytes a value (two
//! for the values, one for the live half of the copy) rather than four.

/// Entries the copy keeps past the last one still read, for safety.
const MARGIN: usize = 64;

/// The least end worth giving back. The unit tests, whose sequences are
/// short, give back far smaller ends, so that every comparison of the
/// kernels with the plain method also checks what is kept.
const LEAST_BYTES: usize = if cfg!(test) { 64 } else { 1 << 16 };

/// The kernels see whether to give back every this many heaps (a power
/// of two); the unit tests, often.
pub const EVERY: usize = if cfg!(test) { 64 } else { 1 << 12 };

/// The length of the copy still read once heaps up to `n` are computed,
/// when a move removes at most `most_taken` tokens.
pub fn still_read(upto: usize, n: usize, most_taken: usize) -> usize {
    // The largest index read: upto - ceil(rest / 2), rest >= n - most_taken.
    let smallest_rest = n.saturating_sub(most_taken);
    (upto + 1)
        .saturating_sub(smallest_rest / 2)
        .saturating_add(MARGIN)
        .min(upto + 1)
}

/// Drops the end of `copy` past `keep` entries once that end is worth
/// giving back: at least 64 KiB and an eighth of the copy (a shrink may
/// move the copy, and moving it often would cost more than it saves).
pub fn give_back<T>(copy: &mut Vec<T>, keep: usize) {
    let dead = copy.len().saturating_sub(keep);
    if dead * std::mem::size_of::<T>() >= LEAST_BYTES && dead * 8 >= copy.len() {
        copy.truncate(keep);
        copy.shrink_to_fit();
    }
}

#[cfg(test)]
mod tests {
    use super::still_read;

    /// Every index a split of a heap past n reads backwards is kept.
    #[test]
    fn the_entries_kept_cover_every_later_split() {
        let upto = 5000;
        for most_taken in [0, 1, 2, 7] {
            for n in (0..=upto).step_by(37) {
                let keep = still_read(upto, n, most_taken);
                for later in n..=upto {
                    for taken in 0..=most_taken.min(later) {
                        let rest = later - taken;
                        // Parts a = 1..=rest/2 read backwards[upto - rest + a].
                        if rest >= 2 {
                            assert!(
                                upto - rest + rest / 2 < keep,
                                "n {n} later {later} taken {taken}"
                            );
                        }
                    }
                }
            }
        }
    }
}
