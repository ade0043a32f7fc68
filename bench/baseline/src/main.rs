//! The hand-written baseline for grundy's benchmarks: the nim-sequence
//! g(0..=N) of an octal game, or of Grundy's game, the way a specialist
//! writes a one-off program for it.
//!
//! * Values live in a dense `Vec<u8>`, widened to `u16` the first time a
//!   value reaches 256, and to `u32` past 65535 (Lasker's Nim, whose values
//!   grow with the heap).
//! * A second array holds the same values in reverse order (`rev[N - m] =
//!   g(m)`), so the two heaps of a split, g(a) and g(rest - a), are read
//!   from two slices that both run forwards: the xor of a chunk of options
//!   is a plain element-wise loop the compiler vectorises.
//! * While every value is below 64, the options of a heap are or-ed into
//!   one `u64` mask (`mask` method); past that, or when asked, they are
//!   xor-ed a chunk at a time into a small buffer and marked in a "seen"
//!   array of one byte per value, a plain store with no read-modify-write
//!   (`bytes` method).
//! * `--method rc`: the rare/common method (see `rc.rs`), far faster on
//!   games whose values are mostly of one parity under some mask (0.16,
//!   0.6, Grundy's game), slower on others (0.07).
//! * The hot loop is compiled twice, for the portable x86-64 target and
//!   with AVX2 (and AVX-512 where the processor has it), and picked at run
//!   time, as a specialist's program built with `-C target-cpu=native`
//!   would be; `--portable` keeps the portable one.
//!
//! Usage:
//!   baseline octal CODE N [--method mask|bytes|rc] [--portable] [--last K]
//!   baseline grundy N     [--method mask|bytes|rc] [--portable] [--last K]
//!   baseline square N     (subtract a square; its own loop, any method)
//!   baseline digest FILE [--last K]   (the same digest, from the output of
//!                                      `grundy table`, plain or `--json`)
//!
//! Output: `checksum XXXXXXXX` (ogsolve's Fletcher-32 of the values as u16,
//! so it compares with ogsolve's `checksum:`), `max V`, and `last K: ...`
//! with the last K values (default 1000).

mod rc;
mod square;

use std::process::exit;

/// The moves of a heap game whose moves leave zero, one or two smaller heaps.
#[derive(Clone, Debug, Default)]
struct Rules {
    /// Heap sizes k from which a move may take all k tokens.
    take_all: Vec<usize>,
    /// k such that a move may take k tokens and leave one non-empty heap.
    take: Vec<usize>,
    /// (k, strict): a move may take k tokens (k = 0: none) and split the
    /// rest into two non-empty heaps a and rest - a with a <= rest - a, or
    /// a < rest - a when strict (Grundy's game).
    split: Vec<(usize, bool)>,
}

impl Rules {
    fn octal(code: &str) -> Result<Rules, String> {
        let (before, after) = code
            .split_once('.')
            .ok_or_else(|| format!("`{code}`: an octal code has a point, as in 0.77"))?;
        let mut rules = Rules::default();
        match before {
            "" | "0" => {}
            "4" => rules.split.push((0, false)),
            _ => return Err(format!("`{code}`: the digit before the point is 0 or 4")),
        }
        for (i, c) in after.chars().enumerate() {
            let k = i + 1;
            let d = c
                .to_digit(8)
                .ok_or_else(|| format!("`{code}`: `{c}` is not an octal digit"))?;
            if d & 1 != 0 {
                rules.take_all.push(k);
            }
            if d & 2 != 0 {
                rules.take.push(k);
            }
            if d & 4 != 0 {
                rules.split.push((k, false));
            }
        }
        Ok(rules)
    }

    fn grundys_game() -> Rules {
        Rules {
            split: vec![(0, true)],
            ..Rules::default()
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Method {
    /// A u64 mask of options while values stay below 64, then bytes.
    Mask,
    /// A byte per value from the start.
    Bytes,
    /// Rare and common values (see `rc`), after `rc::WARM` heaps of `Mask`.
    Rc,
}

/// A stored value: u8, u16 or u32.
trait Val: Copy + Default + std::ops::BitXor<Output = Self> + 'static {
    const MAX: usize;
    fn from_usize(v: usize) -> Self;
    fn to_usize(self) -> usize;
}
macro_rules! val {
    ($($t:ty),*) => {$(
        impl Val for $t {
            const MAX: usize = <$t>::MAX as usize;
            #[inline(always)]
            fn from_usize(v: usize) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_usize(self) -> usize {
                self as usize
            }
        }
    )*};
}
val!(u8, u16, u32);

/// The state of a run: values so far, forwards and backwards.
struct Table<V> {
    upto: usize,
    g: Vec<V>,
    /// rev[upto - m] = g(m).
    rev: Vec<V>,
    largest: usize,
}

const CHUNK: usize = 256;

/// Options of heap n or-ed into a 64-bit mask; every value so far is below
/// 64, so every xor of two is too.
#[inline(always)]
fn mask_mex<V: Val>(rules: &Rules, t: &Table<V>, n: usize) -> usize {
    let mut options: u64 = 0;
    if rules.take_all.contains(&n) {
        options |= 1;
    }
    for &k in &rules.take {
        if k >= n {
            break;
        }
        options |= 1u64 << t.g[n - k].to_usize();
    }
    for &(k, strict) in &rules.split {
        if k + 2 > n {
            continue;
        }
        let rest = n - k;
        let half = if strict { (rest - 1) / 2 } else { rest / 2 };
        if half == 0 {
            continue;
        }
        // g(a) for a = 1..=half against g(rest - a), read forwards in rev.
        let left = &t.g[1..=half];
        let start = t.upto - rest + 1;
        let right = &t.rev[start..start + half];
        let mut acc = [0u64; 8];
        let mut lc = left.chunks_exact(8);
        let mut rc = right.chunks_exact(8);
        for (l, r) in (&mut lc).zip(&mut rc) {
            for j in 0..8 {
                acc[j] |= 1u64 << ((l[j] ^ r[j]).to_usize() & 63);
            }
        }
        for (&l, &r) in lc.remainder().iter().zip(rc.remainder()) {
            acc[0] |= 1u64 << ((l ^ r).to_usize() & 63);
        }
        options |= acc.iter().fold(0, |a, b| a | b);
    }
    (!options).trailing_zeros() as usize
}

/// Options of heap n xor-ed a chunk at a time and marked a byte per value.
#[inline(always)]
fn bytes_mex<V: Val>(rules: &Rules, t: &Table<V>, n: usize, seen: &mut Vec<u8>) -> usize {
    // Any xor of two values is below the next power of two past the largest.
    let size = (t.largest + 1).next_power_of_two() * 2;
    if seen.len() < size {
        seen.resize(size, 0);
    }
    let seen = &mut seen[..size];
    seen.fill(0);
    if rules.take_all.contains(&n) {
        seen[0] = 1;
    }
    for &k in &rules.take {
        if k >= n {
            break;
        }
        seen[t.g[n - k].to_usize()] = 1;
    }
    let mut buf = [V::default(); CHUNK];
    for &(k, strict) in &rules.split {
        if k + 2 > n {
            continue;
        }
        let rest = n - k;
        let half = if strict { (rest - 1) / 2 } else { rest / 2 };
        if half == 0 {
            continue;
        }
        let left = &t.g[1..=half];
        let start = t.upto - rest + 1;
        let right = &t.rev[start..start + half];
        for (l, r) in left.chunks(CHUNK).zip(right.chunks(CHUNK)) {
            let buf = &mut buf[..l.len()];
            for ((x, &a), &b) in buf.iter_mut().zip(l).zip(r) {
                *x = a ^ b;
            }
            for &x in buf.iter() {
                seen[x.to_usize() & (size - 1)] = 1;
            }
        }
    }
    seen.iter().position(|&s| s == 0).unwrap_or(size)
}

/// The mask method compiled for one instruction set.
type MaskMex<V> = fn(&Rules, &Table<V>, usize) -> usize;

/// Fills the table from g.len() up to `upto`, or until a value does not
/// fit V; returns that value when it does not.
fn fill<V: Val>(
    rules: &Rules,
    t: &mut Table<V>,
    method: Method,
    mask: MaskMex<V>,
) -> Option<usize> {
    let mut seen = Vec::new();
    for n in t.g.len()..=t.upto {
        let v = if method == Method::Mask && t.largest < 64 {
            mask(rules, t, n)
        } else {
            bytes_mex(rules, t, n, &mut seen)
        };
        if v > V::MAX {
            return Some(v);
        }
        t.largest = t.largest.max(v);
        t.g.push(V::from_usize(v));
        t.rev[t.upto - n] = V::from_usize(v);
    }
    None
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Simd {
    Portable,
    Avx2,
    Avx512,
}

fn simd_level(portable: bool) -> Simd {
    #[cfg(target_arch = "x86_64")]
    if !portable {
        if is_x86_feature_detected!("avx512f")
            && is_x86_feature_detected!("avx512bw")
            && is_x86_feature_detected!("avx512vl")
            && is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi2")
        {
            return Simd::Avx512;
        }
        if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("bmi2") {
            return Simd::Avx2;
        }
    }
    let _ = portable;
    Simd::Portable
}

/// The mask method for the instruction set chosen. Only the mask's
/// or-reduction gains from AVX: the byte-per-value marking is a store per
/// option, which the wider instruction sets make slower (they turn it into
/// scatters), so it stays portable.
fn mask_for<V: Val>(simd: Simd) -> MaskMex<V> {
    fn portable<V: Val>(rules: &Rules, t: &Table<V>, n: usize) -> usize {
        mask_mex(rules, t, n)
    }
    #[cfg(target_arch = "x86_64")]
    {
        #[target_feature(enable = "avx2,bmi2")]
        unsafe fn avx2<V: Val>(rules: &Rules, t: &Table<V>, n: usize) -> usize {
            mask_mex(rules, t, n)
        }
        #[target_feature(enable = "avx2,bmi2,avx512f,avx512bw,avx512vl")]
        unsafe fn avx512<V: Val>(rules: &Rules, t: &Table<V>, n: usize) -> usize {
            mask_mex(rules, t, n)
        }
        // SAFETY: simd_level chose these only where the processor has the
        // features they were compiled for.
        match simd {
            Simd::Portable => portable,
            Simd::Avx2 => |r, t, n| unsafe { avx2(r, t, n) },
            Simd::Avx512 => |r, t, n| unsafe { avx512(r, t, n) },
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = simd;
        portable
    }
}

/// g(0..=upto), starting in u8 and widening when a value needs it.
fn sequence(rules: &Rules, upto: usize, method: Method, simd: Simd) -> Vec<u32> {
    let mut t8 = Table::<u8> {
        upto,
        g: Vec::with_capacity(upto + 1),
        rev: vec![0; upto + 1],
        largest: 0,
    };
    if fill(rules, &mut t8, method, mask_for(simd)).is_none() {
        return t8.g.iter().map(|&v| u32::from(v)).collect();
    }
    let mut t16 = Table::<u16> {
        upto,
        g: t8.g.iter().map(|&v| v as u16).collect(),
        rev: t8.rev.iter().map(|&v| v as u16).collect(),
        largest: t8.largest,
    };
    drop(t8);
    if fill(rules, &mut t16, method, mask_for(simd)).is_none() {
        return t16.g.iter().map(|&v| u32::from(v)).collect();
    }
    let mut t32 = Table::<u32> {
        upto,
        g: t16.g.iter().map(|&v| u32::from(v)).collect(),
        rev: t16.rev.iter().map(|&v| u32::from(v)).collect(),
        largest: t16.largest,
    };
    drop(t16);
    if let Some(v) = fill(rules, &mut t32, method, mask_for(simd)) {
        eprintln!("baseline: a value ({v}) does not fit 32 bits");
        exit(1);
    }
    t32.g
}

/// ogsolve's checksum: Fletcher-32 over the values as u16 (ogsolve's
/// values are u16; a value past 65535 counts its low 16 bits).
fn checksum(values: &[u32]) -> u32 {
    let (mut a, mut b) = (0u16, 0u16);
    for &v in values {
        a = a.wrapping_add(v as u16);
        b = b.wrapping_add(a);
    }
    ((b as u32) << 16) | a as u32
}

fn digest(values: &[u32], last: usize) -> String {
    let from = values.len().saturating_sub(last);
    let tail: Vec<String> = values[from..].iter().map(|v| v.to_string()).collect();
    format!(
        "checksum {:X}\nmax {}\nlast {}: {}\n",
        checksum(values),
        values.iter().max().copied().unwrap_or(0),
        values.len() - from,
        tail.join(" ")
    )
}

/// The values of `grundy table`'s output: the JSON document of `--json`, or
/// the plain rows of ten (`   120:  1  4  7 ...`), read line by line so that
/// a table of 10^8 heaps is never held as text.
fn values_from_output(path: &str) -> Result<Vec<u32>, String> {
    use std::io::{BufRead, BufReader, Read};
    let mut reader = BufReader::new(std::fs::File::open(path).map_err(|e| e.to_string())?);
    let json = matches!(reader.fill_buf(), Ok(b) if b.first() == Some(&b'{'));
    if json {
        let mut text = String::new();
        reader
            .read_to_string(&mut text)
            .map_err(|e| e.to_string())?;
        return values_from_json(&text);
    }
    values_from_rows(reader.lines().map(|l| l.map_err(|e| e.to_string())))
}

/// The values of the plain table: every line that starts with a heap size
/// and a colon is a row; the other lines (the heading, the period) are not.
/// Each row must start at the heap size that the rows before it reached.
fn values_from_rows(
    lines: impl Iterator<Item = Result<String, String>>,
) -> Result<Vec<u32>, String> {
    let mut values = Vec::new();
    for line in lines {
        let line = line?;
        let Some((head, cells)) = line.split_once(':') else {
            continue;
        };
        let Ok(n) = head.trim().parse::<usize>() else {
            continue;
        };
        if n != values.len() {
            return Err(format!("the row of {n} follows {} values", values.len()));
        }
        for cell in cells.split_whitespace() {
            values.push(
                cell.parse::<u32>()
                    .map_err(|e| format!("value `{cell}` in the row of {n}: {e}"))?,
            );
        }
    }
    if values.is_empty() {
        return Err("no rows of values".into());
    }
    Ok(values)
}

/// The "values" array of `grundy table --json`, read without a JSON library.
fn values_from_json(text: &str) -> Result<Vec<u32>, String> {
    let start = text.find("\"values\"").ok_or("no \"values\" in the JSON")?;
    let open = start + text[start..].find('[').ok_or("no [ after \"values\"")?;
    let close = open + text[open..].find(']').ok_or("no ] after \"values\"")?;
    text[open + 1..close]
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| {
            s.trim()
                .parse::<u32>()
                .map_err(|e| format!("value `{}`: {e}", s.trim()))
        })
        .collect()
}

/// The rare/common method from the values in `first` (few, and small: it
/// keeps its values in 16 bits).
fn rc_sequence(rules: &Rules, upto: usize, first: &[u32]) -> Vec<u32> {
    let first = first.iter().map(|&v| v as u16).collect();
    rc::sequence(rules, upto, first)
        .into_iter()
        .map(u32::from)
        .collect()
}

fn usage() -> ! {
    eprintln!(
        "usage: baseline octal CODE N | grundy N | square N | digest FILE.json  [--method mask|bytes|rc] [--portable] [--last K]"
    );
    exit(2)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut positional = Vec::new();
    let mut method = Method::Mask;
    let mut portable = false;
    let mut last = 1000;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--method" => {
                i += 1;
                method = match args.get(i).map(String::as_str) {
                    Some("mask") => Method::Mask,
                    Some("bytes") => Method::Bytes,
                    Some("rc") => Method::Rc,
                    _ => usage(),
                };
            }
            "--portable" => portable = true,
            "--last" => {
                i += 1;
                last = args
                    .get(i)
                    .and_then(|s| s.parse().ok())
                    .unwrap_or_else(|| usage());
            }
            _ => positional.push(args[i].clone()),
        }
        i += 1;
    }
    let size = |s: Option<&String>| -> usize {
        s.and_then(|s| s.replace('_', "").parse().ok())
            .unwrap_or_else(|| usage())
    };
    let (rules, upto) = match positional.first().map(String::as_str) {
        Some("octal") => {
            let code = positional.get(1).unwrap_or_else(|| usage());
            let rules = Rules::octal(code).unwrap_or_else(|e| {
                eprintln!("baseline: {e}");
                exit(2)
            });
            (rules, size(positional.get(2)))
        }
        Some("grundy") => (Rules::grundys_game(), size(positional.get(1))),
        Some("square") => {
            let values = square::sequence(size(positional.get(1)));
            print!("{}", digest(&values, last));
            return;
        }
        Some("digest") => {
            let path = positional.get(1).unwrap_or_else(|| usage());
            let values = values_from_output(path).unwrap_or_else(|e| {
                eprintln!("baseline: {path}: {e}");
                exit(1)
            });
            print!("{}", digest(&values, last));
            return;
        }
        _ => usage(),
    };
    let values = if method == Method::Rc {
        let first = sequence(
            &rules,
            upto.min(rc::WARM),
            Method::Mask,
            simd_level(portable),
        );
        rc_sequence(&rules, upto, &first)
    } else {
        sequence(&rules, upto, method, simd_level(portable))
    };
    print!("{}", digest(&values, last));
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The textbook method: every option listed, the mex found by search.
    fn plain(rules: &Rules, upto: usize) -> Vec<u32> {
        let mut g: Vec<u32> = Vec::new();
        for n in 0..=upto {
            let mut options = Vec::new();
            if rules.take_all.contains(&n) {
                options.push(0);
            }
            for &k in &rules.take {
                if k < n {
                    options.push(g[n - k]);
                }
            }
            for &(k, strict) in &rules.split {
                if k + 2 > n {
                    continue;
                }
                let rest = n - k;
                for a in 1..rest {
                    let b = rest - a;
                    if a < b || (a == b && !strict) {
                        options.push(g[a] ^ g[b]);
                    }
                }
            }
            let mex = (0..).find(|v| !options.contains(v)).unwrap();
            g.push(mex);
        }
        g
    }

    #[test]
    fn every_method_matches_the_textbook_one() {
        let mut cases: Vec<(Rules, usize)> = [
            "0.77", "0.07", "0.137", "0.007", "4.7", "0.16", "0.6", "4.0", "0.51", "0.3122",
        ]
        .iter()
        .map(|c| (Rules::octal(c).unwrap(), 400))
        .collect();
        cases.push((Rules::grundys_game(), 600));
        // g(n) = n for small n: values pass 64 and 256.
        cases.push((
            Rules::octal(&format!("0.{}", "7".repeat(300))).unwrap(),
            700,
        ));
        for (rules, upto) in cases {
            let want = plain(&rules, upto);
            for method in [Method::Mask, Method::Bytes] {
                for simd in [Simd::Portable, simd_level(false)] {
                    assert_eq!(sequence(&rules, upto, method, simd), want, "{rules:?}");
                }
            }
        }
    }

    #[test]
    fn rare_common_matches_the_plain_method() {
        let mut cases: Vec<(Rules, usize)> = [
            "0.77", "0.07", "0.137", "0.007", "4.7", "0.16", "0.6", "4.0", "0.51", "0.3122", "0.0",
            "0.4", "0.04",
        ]
        .iter()
        .map(|c| (Rules::octal(c).unwrap(), 6000))
        .collect();
        cases.push((Rules::grundys_game(), 6000));
        for (rules, upto) in cases {
            let want = sequence(&rules, upto, Method::Mask, Simd::Portable);
            for warm in [0, 1, 5, 100, rc::WARM] {
                assert_eq!(
                    rc_sequence(&rules, upto, &want[..=warm]),
                    want,
                    "{rules:?} from {warm}"
                );
            }
        }
    }

    #[test]
    fn published_values() {
        // OEIS A002186 (Kayles), A002188 (Grundy's game).
        let kayles = sequence(
            &Rules::octal("0.77").unwrap(),
            11,
            Method::Mask,
            Simd::Portable,
        );
        assert_eq!(kayles, [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
        let grundy = sequence(&Rules::grundys_game(), 12, Method::Mask, Simd::Portable);
        assert_eq!(grundy, [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]);
    }

    #[test]
    fn digest_reads_grundys_json() {
        let json = r#"{"game":"Kayles","period":null,"upto":3,"values":[0,1,2,3]}"#;
        assert_eq!(values_from_json(json).unwrap(), [0, 1, 2, 3]);
    }

    #[test]
    fn digest_reads_grundys_rows() {
        let rows = |text: &str| values_from_rows(text.lines().map(|l| Ok(l.to_string())));
        let text = "Kayles: g(n) for n = 0..=11\n 0:  0  1  2  3  1  4  3  2  1  4\n10:  2  6\nperiod 12, preperiod 71: g(n + 12) = g(n)\n";
        assert_eq!(rows(text).unwrap(), [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]);
        assert!(rows("K: g(n) for n = 0..=20\n 0:  0  1\n20:  2\n").is_err());
        assert!(rows("no rows\n").is_err());
    }
}
