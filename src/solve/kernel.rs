//! The nim-sequence of an octal game computed bottom-up in a dense array:
//! no interning, no memo lookups, one pass per heap size.
//!
//! Values are kept as 16-bit numbers, with a second copy in reverse order
//! so that both heaps of a split are read forwards (its dead end given
//! back as the sequence grows: see `backwards`). While every value is
//! below 64, the options of a heap are or-ed into one 64-bit word; past
//! that, the xors of a chunk of splits are computed into a buffer and then
//! marked in a byte per value. Both loops vectorise; they are compiled
//! twice, for plain x86-64 and for AVX2, and chosen at run time. Values of
//! 32768 and more (rare) fall back to a plain stamped "seen" array.

use super::backwards::{self, give_back, still_read};
use super::values::Values;
use crate::eval::octal::OctalCode;
use std::ops::ControlFlow;

/// Values are handed to the caller's hook every this many heaps.
pub const STRETCH: usize = 1 << 12;

/// g(0), ..., g(upto), carrying on from the values `known` (a run resumed
/// from a checkpoint). Every `STRETCH` heaps `hook` sees the values so far
/// and may stop the run, which then returns what it has.
pub fn octal_sequence(
    code: &OctalCode,
    known: Values,
    upto: usize,
    hook: impl FnMut(&Values) -> ControlFlow<()>,
) -> Values {
    sequence_with_limits(code, known, upto, Limits::default(), hook)
}

/// Below `mask`, options are or-ed into a word; below `bytes`, marked a
/// byte each; from `bytes` on, stamped. Tests lower them to reach every
/// method with small games.
#[derive(Clone, Copy)]
pub(crate) struct Limits {
    mask: u32,
    bytes: u32,
}

/// The usual limits, then limits that send every heap through one method:
/// marked a byte each, or stamped.
pub(crate) const EVERY_METHOD: &[(&str, Limits)] = &[
    (
        "octal kernel",
        Limits {
            mask: 64,
            bytes: 1 << 15,
        },
    ),
    (
        "octal kernel, bytes only",
        Limits {
            mask: 0,
            bytes: 1 << 15,
        },
    ),
    ("octal kernel, stamps only", Limits { mask: 0, bytes: 0 }),
];

impl Default for Limits {
    fn default() -> Limits {
        EVERY_METHOD[0].1
    }
}

pub(crate) fn sequence_with_limits(
    code: &OctalCode,
    known: Values,
    upto: usize,
    limits: Limits,
    mut hook: impl FnMut(&Values) -> ControlFlow<()>,
) -> Values {
    let mut g = known.compact();
    g.truncate(upto + 1);
    g.reserve(upto + 1 - g.len());
    let mut backwards: Vec<u16> = vec![0; upto + 1];
    let mut largest = g.largest();
    if largest < limits.bytes {
        for (n, v) in g.iter().enumerate() {
            backwards[upto - n] = v as u16;
        }
    }
    let mut seen = Seen::default();
    let mut scratch = Scratch::default();
    let (small_mex, bytes_mex) = hot_loops_for_this_cpu();
    for n in g.len()..=upto {
        if n % STRETCH == 0 && n > 0 && hook(&g).is_break() {
            break;
        }
        if n % backwards::EVERY == 0 {
            give_back(&mut backwards, still_read(upto, n, code.digits.len()));
        }
        // Below `limits.bytes` every value fits in u16, so `g` is narrow.
        let mex = match &g {
            Values::Narrow(forwards) if largest < limits.bytes => {
                let small = Small {
                    forwards,
                    backwards: &backwards,
                    upto,
                };
                if largest < limits.mask {
                    small_mex(code, &small, n)
                } else {
                    bytes_mex(code, &small, n, largest, &mut scratch)
                }
            }
            Values::Narrow(g) => seen.mex(code, g, n, largest),
            Values::Wide(g) => seen.mex(code, g, n, largest),
        };
        largest = largest.max(mex);
        g.push(mex);
        if largest < limits.bytes {
            backwards[upto - n] = mex as u16;
        }
    }
    g
}

/// The values while they are below 32768, forwards and backwards:
/// `backwards[upto - n] == forwards[n]`.
struct Small<'a> {
    forwards: &'a [u16],
    backwards: &'a [u16],
    upto: usize,
}

type SmallMex = fn(&OctalCode, &Small, usize) -> u32;
type BytesMex = fn(&OctalCode, &Small, usize, u32, &mut Scratch) -> u32;

/// The AVX2 builds of the hot loops where the processor has it.
fn hot_loops_for_this_cpu() -> (SmallMex, BytesMex) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::is_x86_feature_detected as has;
        if has!("avx512f") && has!("avx512bw") && has!("avx512vl") && has!("avx2") {
            return (
                // SAFETY (both): the processor was just found to support
                // these features. The byte loop gains nothing from AVX-512.
                |code, small, n| unsafe { small_mex_avx512(code, small, n) },
                |code, small, n, largest, scratch| unsafe {
                    bytes_mex_avx2(code, small, n, largest, scratch)
                },
            );
        }
        if has!("avx2") {
            return (
                // SAFETY (both): the processor was just found to support AVX2.
                |code, small, n| unsafe { small_mex_avx2(code, small, n) },
                |code, small, n, largest, scratch| unsafe {
                    bytes_mex_avx2(code, small, n, largest, scratch)
                },
            );
        }
    }
    (small_mex, bytes_mex)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
unsafe fn small_mex_avx512(code: &OctalCode, small: &Small, n: usize) -> u32 {
    small_mex(code, small, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn small_mex_avx2(code: &OctalCode, small: &Small, n: usize) -> u32 {
    small_mex(code, small, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn bytes_mex_avx2(
    code: &OctalCode,
    small: &Small,
    n: usize,
    largest: u32,
    scratch: &mut Scratch,
) -> u32 {
    bytes_mex(code, small, n, largest, scratch)
}

/// Buffers reused from one heap to the next.
struct Scratch {
    /// One byte per value: 1 if it is an option of the current heap. One
    /// for every u16, so that marking an xor of two u16 values needs no
    /// bounds check.
    seen: Box<[u8; 1 << 16]>,
    /// The xors of a chunk of splits.
    xors: Vec<u16>,
}

impl Default for Scratch {
    fn default() -> Scratch {
        Scratch {
            seen: Box::new([0; 1 << 16]),
            xors: Vec::new(),
        }
    }
}

/// Splits are xor-ed this many at a time before they are marked.
const CHUNK: usize = 512;

/// The mex when values are below 32768: xors computed a chunk at a time
/// (a loop that vectorises), then marked one byte each.
#[inline(always)]
fn bytes_mex(
    code: &OctalCode,
    small: &Small,
    n: usize,
    largest: u32,
    scratch: &mut Scratch,
) -> u32 {
    // Any xor of two values is below the next power of two past the largest.
    // With values below 32768 that is at most 65536.
    let size = (largest as usize + 1).next_power_of_two() * 2;
    let seen = &mut scratch.seen;
    seen[..size].fill(0);
    let g = &small.forwards;
    for (k, &digit) in code.digits.iter().enumerate() {
        if k > n {
            break;
        }
        let rest = n - k;
        if digit & 1 != 0 && rest == 0 && k > 0 {
            seen[0] = 1;
        }
        if digit & 2 != 0 && rest >= 1 && k > 0 {
            seen[g[rest] as usize] = 1;
        }
        if digit & 4 != 0 && rest >= 2 {
            let half = rest / 2;
            let start = small.upto - rest + 1;
            let left = &g[1..=half];
            let right = &small.backwards[start..start + half];
            for (l, r) in left.chunks(CHUNK).zip(right.chunks(CHUNK)) {
                scratch.xors.clear();
                scratch.xors.extend(l.iter().zip(r).map(|(a, b)| a ^ b));
                for &v in &scratch.xors {
                    seen[v as usize] = 1;
                }
            }
        }
    }
    seen[..size].iter().position(|&s| s == 0).unwrap_or(size) as u32
}

/// The mex when every value so far is below 64, so every option (a value
/// or the xor of two) is too.
#[inline(always)]
fn small_mex(code: &OctalCode, small: &Small, n: usize) -> u32 {
    let g = &small.forwards;
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
            // The pairs g(a), g(rest - a) for a = 1..=rest/2; the second is
            // backwards[upto - rest + a].
            let half = rest / 2;
            let start = small.upto - rest + 1;
            let left = &g[1..=half];
            let right = &small.backwards[start..start + half];
            options |= left
                .iter()
                .zip(right)
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
    fn mex<T: Copy + Into<u32>>(
        &mut self,
        code: &OctalCode,
        g: &[T],
        n: usize,
        largest: u32,
    ) -> u32 {
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
                stamps[g[rest].into() as usize & mask] = stamp;
            }
            if digit & 4 != 0 && rest >= 2 {
                let half = rest / 2;
                for a in 1..=half {
                    stamps[(g[a].into() ^ g[rest - a].into()) as usize & mask] = stamp;
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
        octal_sequence(
            &code,
            Values::default(),
            upto,
            |_| ControlFlow::Continue(()),
        )
        .to_vec()
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
    fn every_build_of_the_hot_loops_agrees() {
        let code = OctalCode::parse("0.137").expect("a valid code");
        let (fast_small_mex, fast_bytes_mex) = hot_loops_for_this_cpu();
        let (mut forwards, mut backwards) = (Vec::new(), vec![0; 301]);
        let mut scratch = Scratch::default();
        for n in 0..=300 {
            let small = Small {
                forwards: &forwards,
                backwards: &backwards,
                upto: 300,
            };
            let portable = small_mex(&code, &small, n);
            assert_eq!(fast_small_mex(&code, &small, n), portable, "n = {n}");
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                // SAFETY: the processor supports AVX2.
                assert_eq!(unsafe { small_mex_avx2(&code, &small, n) }, portable);
            }
            let largest = small.forwards.iter().copied().max().unwrap_or(0) as u32;
            let bytes = fast_bytes_mex(&code, &small, n, largest, &mut scratch);
            assert_eq!(bytes, portable, "n = {n}");
            let bytes = bytes_mex(&code, &small, n, largest, &mut scratch);
            assert_eq!(bytes, portable, "n = {n}");
            forwards.push(portable as u16);
            backwards[300 - n] = portable as u16;
        }
    }

    #[test]
    fn each_method_alone_gives_the_same_sequence() {
        for code in ["0.77", "0.007", "4.7", "0.16"] {
            let code = OctalCode::parse(code).expect("a valid code");
            let run = |limits| {
                sequence_with_limits(&code, Values::default(), 400, limits, |_| {
                    ControlFlow::Continue(())
                })
            };
            let default = run(Limits::default());
            for (method, limits) in EVERY_METHOD {
                assert_eq!(run(*limits), default, "{}: {method}", code.text);
            }
        }
    }

    #[test]
    fn a_stopped_run_returns_what_it_has_and_resumes_to_the_same_values() {
        let code = OctalCode::parse("0.007").expect("a valid code");
        let whole = sequence("0.007", 3 * STRETCH);
        let part = octal_sequence(&code, Values::default(), 3 * STRETCH, |g| {
            if g.len() >= STRETCH {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(part.len(), STRETCH);
        assert_eq!(part.to_vec(), whole[..STRETCH]);
        let resumed = octal_sequence(&code, part, 3 * STRETCH, |_| ControlFlow::Continue(()));
        assert_eq!(resumed.to_vec(), whole);
    }
}
