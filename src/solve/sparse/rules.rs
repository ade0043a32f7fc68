//! The moves of a heap game whose moves remove some tokens and leave zero,
//! one or two heaps: octal codes and Grundy's game.

use crate::eval::octal::OctalCode;

/// Which moves a heap of `n` has, as lists of how many tokens they remove.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HeapRules {
    /// k: a heap of exactly k tokens may be removed whole (option 0).
    pub take_all: Vec<usize>,
    /// k > 0: k tokens may be removed leaving one non-empty heap.
    pub take: Vec<usize>,
    /// (k, strict): k tokens may be removed (k = 0: none) and the rest
    /// split into two non-empty heaps `a` and `rest - a`, unequal when
    /// `strict`.
    pub split: Vec<(usize, bool)>,
}

impl HeapRules {
    pub fn octal(code: &OctalCode) -> HeapRules {
        let mut rules = HeapRules::default();
        for (k, &digit) in code.digits.iter().enumerate() {
            // A digit before the point can only split: removing nothing and
            // leaving the whole heap would loop, and the parser refuses it.
            if digit & 1 != 0 && k > 0 {
                rules.take_all.push(k);
            }
            if digit & 2 != 0 && k > 0 {
                rules.take.push(k);
            }
            if digit & 4 != 0 {
                rules.split.push((k, false));
            }
        }
        rules
    }

    /// The octal code with exactly these moves, if there is one: every
    /// split may leave equal heaps, and no move takes more than 63.
    pub fn as_octal(&self) -> Option<OctalCode> {
        let most = (self.take_all.iter().chain(&self.take))
            .chain(self.split.iter().map(|(k, _)| k))
            .copied()
            .max()
            .unwrap_or(0);
        if most >= 64 || self.split.iter().any(|&(_, strict)| strict) {
            return None;
        }
        let mut digits = vec![0u8; most + 1];
        for &k in &self.take_all {
            digits[k] |= 1;
        }
        for &k in &self.take {
            digits[k] |= 2;
        }
        for &(k, _) in &self.split {
            digits[k] |= 4;
        }
        let (before, after) = digits.split_first()?;
        let text: String = after.iter().map(|d| char::from(b'0' + d)).collect();
        OctalCode::parse(&format!("{before}.{text}")).ok()
    }

    /// Split a heap into two unequal non-empty heaps.
    pub fn grundys_game() -> HeapRules {
        HeapRules {
            split: vec![(0, true)],
            ..HeapRules::default()
        }
    }

    /// The most tokens a split removes (0 when nothing splits).
    pub(super) fn most_taken_by_a_split(&self) -> usize {
        self.split.iter().map(|&(k, _)| k).max().unwrap_or(0)
    }

    /// Calls `each` with the value of every option of heap `n` that leaves
    /// at most one heap.
    #[inline]
    pub(super) fn single_options<T: Copy + Into<u32>>(
        &self,
        g: &[T],
        n: usize,
        mut each: impl FnMut(u32),
    ) {
        if self.take_all.contains(&n) {
            each(0);
        }
        for &k in &self.take {
            if k < n {
                each(g[n - k].into());
            }
        }
    }

    /// The splits possible from heap `n`: (what is left to split, the
    /// largest smaller part).
    #[inline]
    pub(super) fn splits(&self, n: usize) -> impl Iterator<Item = (usize, usize, bool)> + '_ {
        self.split.iter().filter_map(move |&(k, strict)| {
            let rest = n.checked_sub(k)?;
            let half = if strict {
                rest.checked_sub(1)? / 2
            } else {
                rest / 2
            };
            (half > 0).then_some((rest, half, strict))
        })
    }
}
