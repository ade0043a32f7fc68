//! Take-and-break games given by their octal code, such as 0.77 (Kayles).
//!
//! Digit k of the code says what may remain after removing k tokens from a
//! heap: bit 1, nothing (the whole heap was k tokens); bit 2, one non-empty
//! heap; bit 4, two non-empty heaps. The digit before the point is for
//! removing nothing, where only bit 4 (split into two heaps) makes sense.

use crate::solve::period::Shape;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OctalCode {
    /// `digits[k]` is the digit for removing k tokens.
    pub digits: Vec<u8>,
    pub text: String,
}

impl OctalCode {
    pub fn parse(text: &str) -> Result<OctalCode, String> {
        let (before, after) = text
            .split_once('.')
            .ok_or_else(|| "it has no point".to_string())?;
        let mut digits = Vec::new();
        for c in before.chars().chain(after.chars()) {
            match c.to_digit(8) {
                Some(d) => digits.push(d as u8),
                None => return Err(format!("`{c}` is not an octal digit (0-7)")),
            }
        }
        if before.len() != 1 {
            return Err("exactly one digit must stand before the point".into());
        }
        if digits[0] & 3 != 0 {
            return Err(format!(
                "the digit before the point may be 0 or 4, not {}: removing nothing and leaving the same heap would loop",
                digits[0]
            ));
        }
        while digits.len() > 1 && digits.last() == Some(&0) {
            digits.pop();
        }
        Ok(OctalCode {
            digits,
            text: text.to_string(),
        })
    }

    /// The shape the Guy–Smith theorem needs: from a heap of one more than
    /// the last digit's k on, every digit's moves are all there.
    pub fn shape(&self) -> Shape {
        let most_taken = self.digits.len() - 1;
        Shape {
            most_taken,
            settled: most_taken + 1,
            least_heap: 1,
            // A code's moves need no arithmetic that could overflow.
            exact_below: u64::MAX,
        }
    }

    /// Calls `each(removed, left)` for every move from a heap of `n`, where
    /// `left` holds the zero, one or two heaps that remain.
    pub fn for_each_move(&self, n: i64, mut each: impl FnMut(i64, &[i64])) {
        for (k, &d) in self.digits.iter().enumerate() {
            let k = k as i64;
            if k > n {
                break;
            }
            let rest = n - k;
            if d & 1 != 0 && rest == 0 && k > 0 {
                each(k, &[]);
            }
            if d & 2 != 0 && rest >= 1 && k > 0 {
                each(k, &[rest]);
            }
            if d & 4 != 0 && rest >= 2 {
                for a in 1..=rest / 2 {
                    each(k, &[a, rest - a]);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn moves(code: &str, n: i64) -> Vec<(i64, Vec<i64>)> {
        let code = OctalCode::parse(code).expect("valid code");
        let mut out = Vec::new();
        code.for_each_move(n, |k, left| out.push((k, left.to_vec())));
        out
    }

    #[test]
    fn kayles_takes_one_or_two_from_anywhere() {
        assert_eq!(
            moves("0.77", 3),
            vec![(1, vec![2]), (1, vec![1, 1]), (2, vec![1])]
        );
    }

    #[test]
    fn grundys_game_style_split_needs_the_four_before_the_point() {
        assert_eq!(moves("4.0", 4), vec![(0, vec![1, 3]), (0, vec![2, 2])]);
    }

    #[test]
    fn bad_codes_say_why() {
        assert!(OctalCode::parse("0.78").is_err());
        assert!(OctalCode::parse("1.7").is_err());
        assert!(OctalCode::parse("07").is_err());
    }
}
