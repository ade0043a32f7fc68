//! The nim-sequence of an octal game computed bottom-up in a dense array:
//! no interning, no memo lookups, one pass per heap size.
//!
//! While every value so far is below 64, the options of a heap are gathered
//! as bits of one 64-bit word (an or-reduction the compiler vectorises);
//! past that, they are marked in a "seen" array stamped with the heap size,
//! so it never needs clearing.

use crate::eval::octal::OctalCode;

/// g(0), ..., g(upto), or `None` if `stop` asked to stop early; `each` is
/// told of each value as it is found.
pub fn octal_sequence(
    code: &OctalCode,
    upto: usize,
    mut each: impl FnMut(usize, u32),
    stop: impl Fn() -> bool,
) -> Option<Vec<u32>> {
    let mut g: Vec<u32> = Vec::with_capacity(upto + 1);
    let mut largest: u32 = 0;
    let mut seen = Seen::default();
    for n in 0..=upto {
        if n % 1024 == 0 && stop() {
            return None;
        }
        let mex = if largest < 64 {
            small_mex(code, &g, n)
        } else {
            seen.mex(code, &g, n, largest)
        };
        largest = largest.max(mex);
        each(n, mex);
        g.push(mex);
    }
    Some(g)
}

/// The mex when every value so far is below 64, so every option (a value
/// or the xor of two) is too.
fn small_mex(code: &OctalCode, g: &[u32], n: usize) -> u32 {
    let mut options: u64 = 0;
    for (k, &digit) in code.digits.iter().enumerate() {
        if k > n {
            break;
        }
        let rest = n - k;
        if digit & 1 != 0 && rest == 0 && k > 0 {
            options |= 1;
        }
        if digit & 2 != 0 && rest >= 1 && k > 0 {
            options |= 1 << g[rest];
        }
        if digit & 4 != 0 && rest >= 2 {
            let half = rest / 2;
            let left = &g[1..=half];
            let right = &g[rest - half..rest];
            options |= left
                .iter()
                .zip(right.iter().rev())
                .fold(0u64, |acc, (a, b)| acc | (1u64 << ((a ^ b) & 63)));
        }
    }
    (!options).trailing_zeros()
}

/// Options marked by stamping, for values of any size.
#[derive(Default)]
struct Seen {
    stamps: Vec<u32>,
}

impl Seen {
    fn mex(&mut self, code: &OctalCode, g: &[u32], n: usize, largest: u32) -> u32 {
        // Any xor of two values is below the next power of two past the largest.
        let size = ((largest as usize + 1).next_power_of_two() * 2).max(64);
        if self.stamps.len() < size {
            self.stamps.resize(size, u32::MAX);
        }
        let mask = size - 1;
        let stamp = n as u32;
        let stamps = &mut self.stamps[..size];
        for (k, &digit) in code.digits.iter().enumerate() {
            if k > n {
                break;
            }
            let rest = n - k;
            if digit & 1 != 0 && rest == 0 && k > 0 {
                stamps[0] = stamp;
            }
            if digit & 2 != 0 && rest >= 1 && k > 0 {
                stamps[g[rest] as usize & mask] = stamp;
            }
            if digit & 4 != 0 && rest >= 2 {
                let half = rest / 2;
                for a in 1..=half {
                    stamps[(g[a] ^ g[rest - a]) as usize & mask] = stamp;
                }
            }
        }
        stamps.iter().position(|&s| s != stamp).unwrap_or(size) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sequence(code: &str, upto: usize) -> Vec<u32> {
        let code = OctalCode::parse(code).expect("a valid code");
        octal_sequence(&code, upto, |_, _| {}, || false).expect("not stopped")
    }

    #[test]
    fn kayles_starts_as_published() {
        // OEIS A002186.
        assert_eq!(
            sequence("0.77", 11),
            vec![0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
        );
    }

    #[test]
    fn stopping_returns_nothing() {
        let code = OctalCode::parse("0.77").expect("a valid code");
        assert!(octal_sequence(&code, 10_000, |_, _| {}, || true).is_none());
    }
}
