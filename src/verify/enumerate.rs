//! Every value of a parameter type up to a size, for verifying a
//! decomposition on every small position.
//!
//! The size of a value: a number's absolute value; a string's length; a
//! grid's number of cells; a list's or set's length plus the sizes of its
//! elements (so `[0, 0]` has size 2 and `[3]` size 4); a tuple's sum of
//! sizes; a boolean 0. Strings and grids are written in the letters of
//! the file (see `alphabet`). Grids have at least one row and one column
//! (and the empty grid `[]`), since a grid of empty rows has no size.

use crate::eval::Value;
use crate::types::Type;

/// Why a type's values up to a size were not listed.
#[derive(Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No finite list of its values exists (a `game` parameter).
    NotEnumerable(String),
    /// More values than the limit.
    TooMany,
}

type Sized = (Value, usize);

pub struct Enumerator<'a> {
    pub letters: &'a [char],
    pub limit: usize,
}

impl Enumerator<'_> {
    /// Every value of `ty` whose size is at most `n`, with its size.
    pub fn values(&self, ty: &Type, n: usize) -> Result<Vec<Sized>, Refusal> {
        let n_int = i64::try_from(n).map_err(|_| Refusal::TooMany)?;
        match ty {
            Type::Nat => self.capped((0..=n_int).map(|k| (Value::Int(k), k as usize))),
            Type::Int => self.capped(
                std::iter::once((Value::Int(0), 0)).chain(
                    (1..=n_int)
                        .flat_map(|k| [(Value::Int(k), k), (Value::Int(-k), k)])
                        .map(|(v, k)| (v, k as usize)),
                ),
            ),
            Type::Bool => Ok(vec![(Value::Bool(false), 0), (Value::Bool(true), 0)]),
            Type::Str => Ok(self
                .strings(n)?
                .into_iter()
                .map(|s| {
                    let len = s.chars().count();
                    (Value::str(&s), len)
                })
                .collect()),
            Type::Grid => self.grids(n),
            Type::List(t) => self.collections(t, n, false),
            Type::Set(t) => self.collections(t, n, true),
            Type::Tuple(ts) => self.tuples(ts, n),
            Type::Game => Err(Refusal::NotEnumerable(
                "its positions hold other positions (a `game` parameter)".into(),
            )),
            Type::Unknown => Err(Refusal::NotEnumerable(
                "a parameter has no type to enumerate".into(),
            )),
        }
    }

    fn capped(&self, items: impl Iterator<Item = Sized>) -> Result<Vec<Sized>, Refusal> {
        let mut out = Vec::new();
        for item in items {
            if out.len() >= self.limit {
                return Err(Refusal::TooMany);
            }
            out.push(item);
        }
        Ok(out)
    }

    /// Whether `count` values holding `letters` letters in all are too
    /// many: counted before any is made, so that a huge N with one letter
    /// is refused at once rather than filling memory.
    fn too_many(&self, count: u128, letters: u128) -> bool {
        count > self.limit as u128 || letters > 32 * self.limit as u128
    }

    /// How many strings of exactly `len` letters there are.
    fn strings_of(&self, len: usize) -> u128 {
        let k = self.letters.len() as u128;
        (0..len).fold(1u128, |acc, _| acc.saturating_mul(k))
    }

    /// Every string of at most `n` letters, shortest first.
    fn strings(&self, n: usize) -> Result<Vec<String>, Refusal> {
        let (mut count, mut letters) = (0u128, 0u128);
        for len in 0..=n {
            let here = self.strings_of(len);
            count = count.saturating_add(here);
            letters = letters.saturating_add(here.saturating_mul(len as u128));
            if self.too_many(count, letters) {
                return Err(Refusal::TooMany);
            }
            if here == 0 {
                break;
            }
        }
        let mut all = Vec::new();
        for len in 0..=n {
            let before = all.len();
            self.exactly(len, &mut all);
            if all.len() == before {
                break;
            }
        }
        Ok(all)
    }

    /// Appends every string of exactly `len` letters.
    fn exactly(&self, len: usize, out: &mut Vec<String>) {
        if len > 0 && self.letters.is_empty() {
            return;
        }
        let k = self.letters.len();
        let mut digits = vec![0usize; len];
        loop {
            out.push(digits.iter().map(|&d| self.letters[d]).collect());
            // The next string, as an odometer over the letters.
            let mut i = len;
            loop {
                if i == 0 {
                    return;
                }
                i -= 1;
                digits[i] += 1;
                if digits[i] < k {
                    break;
                }
                digits[i] = 0;
            }
        }
    }

    /// Every grid of r rows by c columns with r * c <= n, and `[]`.
    fn grids(&self, n: usize) -> Result<Vec<Sized>, Refusal> {
        let mut out = vec![(Value::list(Vec::new()), 0)];
        if self.letters.is_empty() {
            return Ok(out);
        }
        let (mut count, mut letters) = (0u128, 0u128);
        let mut shapes = Vec::new();
        for rows in 1..=n {
            for cols in 1..=n / rows {
                let cells = rows * cols;
                let here = self.strings_of(cells);
                count = count.saturating_add(here);
                letters = letters.saturating_add(here.saturating_mul(cells as u128));
                if self.too_many(count, letters) {
                    return Err(Refusal::TooMany);
                }
                shapes.push((rows, cols));
            }
        }
        for (rows, cols) in shapes {
            let mut texts = Vec::new();
            self.exactly(rows * cols, &mut texts);
            for text in texts {
                let letters: Vec<char> = text.chars().collect();
                let grid = letters
                    .chunks(cols)
                    .map(|row| Value::str(&row.iter().collect::<String>()))
                    .collect();
                out.push((Value::list(grid), rows * cols));
            }
        }
        Ok(out)
    }

    /// Lists (or sets: no element twice) of size at most `n`.
    fn collections(&self, element: &Type, n: usize, distinct: bool) -> Result<Vec<Sized>, Refusal> {
        let elements = if n == 0 {
            Vec::new()
        } else {
            self.values(element, n - 1)?
        };
        let mut out = Vec::new();
        let mut prefix = Vec::new();
        self.extend(&elements, n, distinct, 0, 0, &mut prefix, &mut out)?;
        Ok(out)
    }

    #[allow(clippy::too_many_arguments)]
    fn extend(
        &self,
        elements: &[Sized],
        n: usize,
        distinct: bool,
        from: usize,
        size: usize,
        prefix: &mut Vec<Value>,
        out: &mut Vec<Sized>,
    ) -> Result<(), Refusal> {
        if out.len() >= self.limit {
            return Err(Refusal::TooMany);
        }
        let made = if distinct {
            Value::set(prefix.clone())
        } else {
            Value::list(prefix.clone())
        };
        out.push((made, size));
        let start = if distinct { from } else { 0 };
        for (i, (v, s)) in elements.iter().enumerate().skip(start) {
            let grown = size + 1 + s;
            if grown > n {
                continue;
            }
            prefix.push(v.clone());
            self.extend(elements, n, distinct, i + 1, grown, prefix, out)?;
            prefix.pop();
        }
        Ok(())
    }

    fn tuples(&self, types: &[Type], n: usize) -> Result<Vec<Sized>, Refusal> {
        let mut acc: Vec<(Vec<Value>, usize)> = vec![(Vec::new(), 0)];
        for ty in types {
            let values = self.values(ty, n)?;
            let mut next = Vec::new();
            for (prefix, size) in &acc {
                for (v, s) in &values {
                    if size + s > n {
                        continue;
                    }
                    if next.len() >= self.limit {
                        return Err(Refusal::TooMany);
                    }
                    let mut t = prefix.clone();
                    t.push(v.clone());
                    next.push((t, size + s));
                }
            }
            acc = next;
        }
        Ok(acc
            .into_iter()
            .map(|(xs, s)| (Value::Tuple(xs.into()), s))
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(ty: Type, n: usize, letters: &[char]) -> usize {
        Enumerator {
            letters,
            limit: 1_000_000,
        }
        .values(&ty, n)
        .map(|v| v.len())
        .unwrap_or(0)
    }

    #[test]
    fn sizes_are_counted_as_documented() {
        assert_eq!(count(Type::Nat, 5, &[]), 6);
        assert_eq!(count(Type::Int, 2, &[]), 5);
        // 1 + 2 + 4 + 8 strings of length 0..=3 over two letters.
        assert_eq!(count(Type::Str, 3, &['.', 'X']), 15);
        // [] and the 1x1, 1x2 and 2x1 grids over two letters: 1 + 2 + 4 + 4.
        assert_eq!(count(Type::Grid, 2, &['.', '#']), 11);
        // Lists of nat of size <= 3: [], [0], [1], [2], [0,0], [0,1], [1,0], [0,0,0].
        assert_eq!(count(Type::List(Box::new(Type::Nat)), 3, &[]), 8);
        // Sets: {}, {0}, {1}, {2}, {0,1}.
        assert_eq!(count(Type::Set(Box::new(Type::Nat)), 3, &[]), 5);
    }

    #[test]
    fn the_limit_is_an_answer_not_a_long_wait() {
        let e = Enumerator {
            letters: &['a', 'b', 'c'],
            limit: 100,
        };
        assert_eq!(e.values(&Type::Str, 30).err(), Some(Refusal::TooMany));
        assert!(matches!(
            e.values(&Type::Game, 3),
            Err(Refusal::NotEnumerable(_))
        ));
    }
}
