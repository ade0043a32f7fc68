//! Take-and-break codes past octal, as CGSuite writes them: `0.[3]` (Nim),
//! `4!.0` (Grundy's game), `0.8` (leave three heaps), `{2+}.0`.
//!
//! Digit j says into how many non-empty heaps the rest of a heap may be
//! left after removing j tokens: bit i of the digit allows exactly i heaps
//! (bit 0: none, so the heap was exactly j tokens). Digits run 0-9, then
//! A-Z for 10 to 35; `{2,3}` lists heap counts outright and `{2+}` means
//! two or more. A digit may carry a modifier: `!` the heaps left must be
//! pairwise unequal, `?` not all equal, `=` all equal. Digits in brackets
//! at the end repeat forever: `0.[3]` is 0.333... Codes an octal kernel
//! can run (digits 0-7, no modifier, no repetition) stay `OctalCode`s.

/// How the heaps left by one digit may relate to each other.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Modifier {
    Any,
    /// `!`: pairwise unequal.
    Distinct,
    /// `?`: not all equal.
    NotAllEqual,
    /// `=`: all equal.
    AllEqual,
}

/// One digit: the numbers of heaps that may be left, and how they relate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Digit {
    /// Bit i: exactly i heaps may be left (i below 64).
    pub counts: u64,
    /// Any number of heaps from this one on, for `{k+}`.
    pub from: Option<u32>,
    pub modifier: Modifier,
}

impl Digit {
    fn zero() -> Digit {
        Digit {
            counts: 0,
            from: None,
            modifier: Modifier::Any,
        }
    }

    fn allows(&self, heaps: u64) -> bool {
        (heaps < 64 && self.counts >> heaps & 1 == 1)
            || self.from.is_some_and(|f| heaps >= f as u64)
    }

    fn is_zero(&self) -> bool {
        self.counts == 0 && self.from.is_none()
    }

    /// The plain octal digit this is, if it is one.
    fn octal(&self) -> Option<u8> {
        (self.counts < 8 && self.from.is_none() && self.modifier == Modifier::Any)
            .then_some(self.counts as u8)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TakeBreakCode {
    /// `digits[j]`: the digit for removing j tokens (`digits[0]` stands
    /// before the point).
    pub digits: Vec<Digit>,
    /// Digits repeated forever after `digits`.
    pub repeat: Vec<Digit>,
    pub text: String,
}

impl TakeBreakCode {
    pub fn parse(text: &str) -> Result<TakeBreakCode, String> {
        let (before, after) = text
            .split_once('.')
            .ok_or_else(|| "it has no point".to_string())?;
        let first = digits(before)?;
        if first.len() != 1 {
            return Err("exactly one digit must stand before the point".into());
        }
        let (plain, repeat) = match after.split_once('[') {
            Some((plain, rest)) => {
                let inner = rest
                    .strip_suffix(']')
                    .ok_or_else(|| "a repeated part `[...]` must close the code".to_string())?;
                let repeat = digits(inner)?;
                if repeat.is_empty() {
                    return Err("`[]` repeats nothing: put digits in it".into());
                }
                (plain, repeat)
            }
            None => (after, Vec::new()),
        };
        let mut all = first;
        all.extend(digits(plain)?);
        if all[0].allows(0) || all[0].allows(1) {
            return Err(
                "the digit before the point may only split a heap (into two or more): removing nothing and leaving nothing or the same heap makes no move".into(),
            );
        }
        let repeat = if repeat.iter().all(Digit::is_zero) {
            Vec::new()
        } else {
            repeat
        };
        if repeat.is_empty() {
            while all.len() > 1 && all.last().is_some_and(Digit::is_zero) {
                all.pop();
            }
        }
        Ok(TakeBreakCode {
            digits: all,
            repeat,
            text: text.to_string(),
        })
    }

    /// The same code as plain octal digits, when an octal kernel can run it.
    pub fn octal_digits(&self) -> Option<Vec<u8>> {
        if !self.repeat.is_empty() {
            return None;
        }
        self.digits.iter().map(Digit::octal).collect()
    }

    fn digit(&self, j: usize) -> Option<&Digit> {
        match self.digits.get(j) {
            Some(d) => Some(d),
            None if self.repeat.is_empty() => None,
            None => Some(&self.repeat[(j - self.digits.len()) % self.repeat.len()]),
        }
    }

    /// Calls `each(removed, left)` for every move from a heap of `n`, where
    /// `left` holds the heaps that remain, largest first.
    pub fn for_each_move(&self, n: i64, mut each: impl FnMut(i64, &[i64])) {
        let mut heaps = Vec::new();
        for j in 0..=n {
            let Some(digit) = self.digit(j as usize) else {
                break;
            };
            let rest = n - j;
            if digit.allows(0) && rest == 0 && j > 0 {
                each(j, &[]);
            }
            // Removing nothing and leaving the heap as it was is no move.
            let fewest = if j == 0 { 2 } else { 1 };
            for count in fewest..=rest {
                if digit.allows(count as u64) {
                    partitions(rest, count, rest, &mut heaps, &mut |left| {
                        if fits(digit.modifier, left) {
                            each(j, left);
                        }
                    });
                }
            }
        }
    }
}

/// Every way of writing `total` as `count` positive parts of at most
/// `largest` each, parts in non-increasing order.
fn partitions(
    total: i64,
    count: i64,
    largest: i64,
    parts: &mut Vec<i64>,
    each: &mut dyn FnMut(&[i64]),
) {
    if count == 0 {
        if total == 0 {
            each(parts);
        }
        return;
    }
    // Each of the `count` parts is at least 1 and at most the part before.
    let most = largest.min(total - (count - 1));
    let least = (total + count - 1) / count;
    for part in (least..=most).rev() {
        parts.push(part);
        partitions(total - part, count - 1, part, parts, each);
        parts.pop();
    }
}

/// Whether heaps in non-increasing order obey the modifier.
fn fits(modifier: Modifier, heaps: &[i64]) -> bool {
    let all_equal = heaps.windows(2).all(|w| w[0] == w[1]);
    match modifier {
        Modifier::Any => true,
        Modifier::Distinct => heaps.windows(2).all(|w| w[0] != w[1]),
        Modifier::NotAllEqual => !all_equal,
        Modifier::AllEqual => all_equal,
    }
}

/// The digits of a run such as `07`, `8!`, `{2,3}?` or `Z`.
fn digits(text: &str) -> Result<Vec<Digit>, String> {
    let mut out = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut digit = Digit::zero();
        match c {
            '{' => {
                let mut inside = String::new();
                for c in chars.by_ref() {
                    if c == '}' {
                        break;
                    }
                    inside.push(c);
                }
                heap_counts(&inside, &mut digit)?;
            }
            c => {
                let value = c.to_digit(36).filter(|_| !c.is_ascii_lowercase()).ok_or_else(|| {
                    format!("`{c}` is not a digit: digits are 0-9 and A-Z (10 to 35), or heap counts in braces such as {{2,3}}")
                })?;
                digit.counts = u64::from(value);
            }
        }
        digit.modifier = match chars.peek() {
            Some('!') => Modifier::Distinct,
            Some('?') => Modifier::NotAllEqual,
            Some('=') => Modifier::AllEqual,
            _ => Modifier::Any,
        };
        if digit.modifier != Modifier::Any {
            chars.next();
        }
        out.push(digit);
    }
    Ok(out)
}

/// `2,3` or `2+` (or both, `0,4+`): the heap counts a braced digit allows.
fn heap_counts(inside: &str, digit: &mut Digit) -> Result<(), String> {
    for item in inside.split(',').map(str::trim) {
        let (number, open) = match item.strip_suffix('+') {
            Some(n) => (n, true),
            None => (item, false),
        };
        let count: u32 = number.parse().ok().filter(|&c| c < 64).ok_or_else(|| {
            format!("`{{{inside}}}` must list heap counts from 0 to 63, such as {{2,3}} or {{2+}}")
        })?;
        if open {
            digit.from = Some(digit.from.map_or(count, |f| f.min(count)));
        } else {
            digit.counts |= 1 << count;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(code: &str, n: i64) -> Vec<(i64, Vec<i64>)> {
        let code = TakeBreakCode::parse(code).expect("a valid code");
        let mut out = Vec::new();
        code.for_each_move(n, |k, left| out.push((k, left.to_vec())));
        out
    }

    #[test]
    fn nim_repeats_three_forever() {
        assert_eq!(
            moves("0.[3]", 3),
            vec![(1, vec![2]), (2, vec![1]), (3, vec![])]
        );
    }

    #[test]
    fn grundys_game_splits_into_unequal_heaps() {
        assert_eq!(moves("4!.0", 6), vec![(0, vec![5, 1]), (0, vec![4, 2])]);
        assert_eq!(moves("4!.0", 2), vec![]);
    }

    #[test]
    fn eight_leaves_three_heaps_and_the_modifiers_filter_them() {
        assert_eq!(
            moves("8.0", 6),
            vec![(0, vec![4, 1, 1]), (0, vec![3, 2, 1]), (0, vec![2, 2, 2])]
        );
        assert_eq!(moves("8!.0", 6), vec![(0, vec![3, 2, 1])]);
        assert_eq!(
            moves("8?.0", 6),
            vec![(0, vec![4, 1, 1]), (0, vec![3, 2, 1])]
        );
        assert_eq!(moves("8=.0", 6), vec![(0, vec![2, 2, 2])]);
    }

    #[test]
    fn braces_list_heap_counts() {
        // `{2,3}` is hexadecimal C; `{2+}` is any number of heaps from two.
        assert_eq!(moves("0.{2,3}", 5), moves("0.C", 5));
        assert_eq!(moves("{2+}.0", 4).len(), 4); // 3+1, 2+2, 2+1+1, 1+1+1+1
    }

    #[test]
    fn plain_octal_codes_are_recognised() {
        let octal = |c: &str| TakeBreakCode::parse(c).expect("valid").octal_digits();
        assert_eq!(octal("0.77"), Some(vec![0, 7, 7]));
        assert_eq!(octal("0.[3]"), None);
        assert_eq!(octal("0.8"), None);
        assert_eq!(octal("4!.0"), None);
        assert_eq!(octal("0.77[0]"), Some(vec![0, 7, 7]));
    }

    #[test]
    fn bad_codes_say_why() {
        for bad in ["1.7", "07", "0.7a", "0.[3", "0.[]", "0.{x}", "2.0"] {
            assert!(TakeBreakCode::parse(bad).is_err(), "{bad}");
        }
    }
}
