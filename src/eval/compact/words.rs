//! Strings as the compiled code holds them: the letters' codes side by
//! side in one word, `w` bits each, and the length. Each operation answers
//! `None` where the interpreter reports an error or the string would not
//! fit a word (the interpreter then answers).

use super::run::low_bits;

/// A string's letters and length.
pub type Word = (u64, u32);

/// `text[i]`.
#[inline(always)]
pub fn at((word, len): Word, i: i64, w: u32) -> Option<Word> {
    let i = u32::try_from(i).ok().filter(|&i| i < len)?;
    Some(((word >> (i * w)) & low_bits(w), 1))
}

/// `set_at(text, i, letter)`.
#[inline(always)]
pub fn set_at((word, len): Word, i: i64, (letter, one): Word, w: u32) -> Option<Word> {
    let i = u32::try_from(i).ok().filter(|&i| i < len)?;
    if one != 1 {
        return None;
    }
    let shift = i * w;
    Some((word & !(low_bits(w) << shift) | letter << shift, len))
}

/// `set_at(text, i, letter)` where the new letter is `letters[old]` of
/// the old one's code (none where that entry is none).
#[inline(always)]
pub fn set_by_table((word, len): Word, i: i64, letters: &[Option<u64>], w: u32) -> Option<Word> {
    let i = u32::try_from(i).ok().filter(|&i| i < len)?;
    let shift = i * w;
    let old = (word >> shift) & low_bits(w);
    let letter = (*letters.get(old as usize)?)?;
    Some((word & !(low_bits(w) << shift) | letter << shift, len))
}

/// `slice(text, from, to)`, the bounds clamped as the interpreter clamps
/// them.
#[inline(always)]
pub fn slice((word, len): Word, from: i64, to: i64, w: u32) -> Word {
    let from = from.clamp(0, i64::from(len)) as u32;
    let to = (to.clamp(0, i64::from(len)) as u32).max(from);
    (
        word.checked_shr(from * w).unwrap_or(0) & low_bits((to - from) * w),
        to - from,
    )
}

/// `repeat(text, n)`.
#[inline(always)]
pub fn repeat((word, len): Word, n: i64, w: u32) -> Option<Word> {
    if n < 0 {
        return None;
    }
    if len == 0 {
        return Some((0, 0));
    }
    let total = u32::try_from(n).ok()?.checked_mul(len)?;
    if u64::from(total) * u64::from(w) > 64 {
        return None;
    }
    let mut out = 0u64;
    for i in 0..n as u32 {
        out |= word << (i * len * w);
    }
    Some((out, total))
}

/// `reverse(text)`: also a list's fields turned in a key.
#[inline(always)]
pub fn reverse((word, len): Word, w: u32) -> Word {
    if len == 0 {
        return (word, 0);
    }
    let reversed = if w == 1 {
        // One bit a cell: the bits themselves reversed.
        word.reverse_bits() >> (64 - len)
    } else {
        (0..len).fold(0, |out, i| {
            out | ((word >> (i * w)) & low_bits(w)) << ((len - 1 - i) * w)
        })
    };
    (reversed, len)
}

/// The order of two strings, as the interpreter orders them: letter by
/// letter, a string before any longer one it begins. Codes follow the
/// alphabet's order, so the first letter that differs decides.
#[inline(always)]
pub fn order((wa, la): Word, (wb, lb): Word, w: u32) -> std::cmp::Ordering {
    let shared = la.min(lb) * w;
    let differ = (wa ^ wb) & low_bits(shared);
    if differ == 0 {
        return la.cmp(&lb);
    }
    let at = differ.trailing_zeros() / w * w;
    ((wa >> at) & low_bits(w)).cmp(&((wb >> at) & low_bits(w)))
}

/// The smaller of two strings (the larger when `most`), the first when
/// they are equal.
#[inline(always)]
pub fn better(a: Word, b: Word, most: bool, w: u32) -> Word {
    let wanted = if most {
        std::cmp::Ordering::Greater
    } else {
        std::cmp::Ordering::Less
    };
    if order(b, a, w) == wanted {
        b
    } else {
        a
    }
}

/// `a + b`.
#[inline(always)]
pub fn concat((wa, la): Word, (wb, lb): Word, w: u32) -> Option<Word> {
    let total = la + lb;
    if u64::from(total) * u64::from(w) > 64 {
        return None;
    }
    Some(if lb == 0 {
        (wa, la)
    } else {
        (wa | wb << (la * w), total)
    })
}
