//! A nim-sequence tabulated upwards from heap 0 with the compiled rules: for
//! each heap in turn, its options' keys are listed and read back as heaps,
//! whose values are already in the table. This is the method for a heap
//! game whose moves the heap-rule reader cannot read as arithmetic (a `%`,
//! a product of two variables, a helper it cannot run in place): no search,
//! no memo, a value a heap in the dense table.
//!
//! It relies only on what the options are: every option must be a heap of
//! the same family smaller than the heap it comes from, or a sum of such
//! heaps. Where one is not (a heap as large or larger, another argument
//! changed) or the compiled code cannot answer, the values found so far
//! are handed back and the plain method goes on from there, as it would
//! from any other method that stops.

use super::dense::{options_of, run_key, KeyGame, Listed};
use super::kernel::STRETCH;
use super::mex::{mex, MexSet};
use super::values::Values;
use std::ops::ControlFlow;

/// Where the heap lies in the keys of a family's positions: one field,
/// every other bit the same for every heap of the family.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HeapField {
    /// The bits of every other argument.
    pub others: u64,
    pub shift: u32,
    /// The field's bits, before the shift.
    pub mask: u64,
    /// The number a field of 0 holds.
    pub bias: i64,
}

impl HeapField {
    /// The key of heap `n`, if its field holds it.
    pub fn key(&self, n: usize) -> Option<u64> {
        let raw = i64::try_from(n).ok()?.checked_sub(self.bias)?;
        let raw = u64::try_from(raw).ok().filter(|&r| r <= self.mask)?;
        Some(self.others | raw << self.shift)
    }

    /// The heap key `key` holds, if it is a position of the family.
    pub fn heap(&self, key: u64) -> Option<usize> {
        let field = self.mask << self.shift;
        if key & !field != self.others {
            return None;
        }
        let n = ((key & field) >> self.shift) as i64 + self.bias;
        usize::try_from(n).ok()
    }
}

/// g(0..=upto), from the values `known` on; `Err` with the values found so
/// far where an option is not a smaller heap of the family or the compiled
/// code cannot answer. The hook sees the values every stretch of heaps and
/// may stop the run.
pub fn sequence(
    game: &mut dyn KeyGame,
    field: &HeapField,
    known: Values,
    upto: usize,
    hook: &mut dyn FnMut(&Values) -> ControlFlow<()>,
) -> Result<Values, Values> {
    let mut g = known;
    g.truncate(upto + 1);
    g.reserve(upto + 1 - g.len());
    let mut listed = Vec::new();
    let mut values = Vec::new();
    let mut seen = MexSet::default();
    for n in g.len()..=upto {
        if (n % STRETCH == 0 && n > 0 && hook(&g).is_break()) || crate::interrupt::requested() {
            break;
        }
        let Some(key) = field.key(n) else {
            return Err(g);
        };
        listed.clear();
        if game.options(key, &mut listed).is_err() {
            return Err(g);
        }
        values.clear();
        if option_values(&listed, field, n, &g, &mut values).is_none() {
            return Err(g);
        }
        g.push(mex(&values, &mut seen));
    }
    Ok(g)
}

/// The value of each option of heap `n` listed in `listed`; `None` where
/// one is not a sum of heaps of the family smaller than `n`.
fn option_values(
    listed: &[u64],
    field: &HeapField,
    n: usize,
    g: &Values,
    values: &mut Vec<u32>,
) -> Option<()> {
    let value_of = |key: u64| -> Option<u32> {
        let m = field.heap(key).filter(|&m| m < n)?;
        Some(g.at(m))
    };
    for option in options_of(listed) {
        match option {
            Listed::Run(first, step, count) => {
                for j in 0..count {
                    values.push(value_of(run_key(first, step, j))?);
                }
            }
            Listed::Sum(parts) => {
                let mut v = 0;
                for &part in parts {
                    v ^= value_of(part)?;
                }
                values.push(v);
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::dense::{begin_sum, end_sum, push_run, Abort};
    use std::any::Any;

    /// Heaps in bits 4 and up, bit 0 set on every key: Lasker's Nim, a
    /// heap taken down by any amount (a run of keys) or split into two
    /// non-empty heaps (a sum).
    struct Lasker;

    const FIELD: HeapField = HeapField {
        others: 1,
        shift: 4,
        mask: (1 << 20) - 1,
        bias: 0,
    };

    impl KeyGame for Lasker {
        fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
            let n = FIELD.heap(key).ok_or(Abort)?;
            if n > 0 {
                push_run(out, FIELD.others, 1 << 4, n as u64);
            }
            for a in 1..=n / 2 {
                let at = begin_sum(out);
                out.push(FIELD.key(a).ok_or(Abort)?);
                out.push(FIELD.key(n - a).ok_or(Abort)?);
                end_sum(out, at);
            }
            Ok(())
        }

        fn bits(&self) -> u32 {
            24
        }

        fn as_any(&self) -> &dyn Any {
            self
        }
    }

    /// Lasker's Nim: g(4k+1) = 4k+1, g(4k+2) = 4k+2, g(4k+3) = 4k+4,
    /// g(4k+4) = 4k+3.
    #[test]
    fn lasker_nim_follows_its_formula() {
        let g = sequence(&mut Lasker, &FIELD, Values::default(), 200, &mut |_| {
            ControlFlow::Continue(())
        })
        .expect("every option is a smaller heap");
        for n in 1..=200usize {
            let want = match n % 4 {
                3 => n + 1,
                0 => n - 1,
                _ => n,
            };
            assert_eq!(g.at(n) as usize, want, "g({n})");
        }
        assert_eq!(g.at(0), 0);
    }

    /// A heap that leads to itself is not tabulated upwards: the values
    /// before it are handed back.
    #[test]
    fn an_option_not_smaller_hands_back_the_values_so_far() {
        struct Stays;
        impl KeyGame for Stays {
            fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
                if FIELD.heap(key) == Some(5) {
                    out.push(key);
                }
                Ok(())
            }
            fn bits(&self) -> u32 {
                24
            }
            fn as_any(&self) -> &dyn Any {
                self
            }
        }
        let stopped = sequence(&mut Stays, &FIELD, Values::default(), 9, &mut |_| {
            ControlFlow::Continue(())
        });
        assert_eq!(stopped.err().map(|g| g.len()), Some(5));
    }

    #[test]
    fn keys_read_back_as_their_heaps() {
        for n in [0, 1, 17, (1 << 20) - 1] {
            assert_eq!(FIELD.key(n).and_then(|k| FIELD.heap(k)), Some(n));
        }
        assert_eq!(FIELD.key(1 << 20), None);
        assert_eq!(FIELD.heap(0), None, "another argument's bits differ");
    }
}
