//! The rare/common method ("sparse space", Winning Ways ch. 4): under a
//! mask m, call v rare when v & m has an even number of bits, common when
//! odd. An xor of two values is common only when exactly one of them is
//! rare, so with few rare heaps every common option of heap n is found by
//! pairing the rare heaps alone. The smallest common value not found, c,
//! bounds g(n); the rare values below c that are still missing are then
//! looked for among all the splits, only until each has been seen, which
//! takes a full pass only at heaps whose value is rare.

use crate::Rules;

/// Heaps computed the plain way before a mask is chosen.
pub const WARM: usize = 4096;

struct Rc<'a> {
    rules: &'a Rules,
    upto: usize,
    g: Vec<u16>,
    /// rev[upto - m] = g(m): the second part of a split read forwards.
    rev: Vec<u16>,
    mask: usize,
    /// rare[v]: v is rare under the mask.
    rare: Vec<bool>,
    rare_at: Vec<u32>,
    rare_val: Vec<u16>,
    /// seen[v] == stamp: v is an option of the current heap.
    seen: Vec<u32>,
    stamp: u32,
    missing: Vec<u16>,
    largest: usize,
}

/// Values are u16, so every option is below 65536; the room above it holds
/// a value of each class that is never an option.
const SEEN: usize = 1 << 17;

impl Rc<'_> {
    fn choose_mask(&mut self) {
        let largest = self.g.iter().copied().max().unwrap_or(0) as usize;
        let mut count = vec![0usize; largest + 1];
        for &v in &self.g {
            count[v as usize] += 1;
        }
        let rare_under = |m: usize| -> usize {
            count
                .iter()
                .enumerate()
                .filter(|&(v, _)| (v & m).count_ones() & 1 == 0)
                .map(|(_, c)| c)
                .sum()
        };
        let Some((best, rare)) = (1..(largest + 1).next_power_of_two())
            .map(|m| (m, rare_under(m)))
            .min_by_key(|&(m, r)| (r, m))
        else {
            return;
        };
        if self.mask != 0 && rare * 10 >= rare_under(self.mask) * 9 {
            return;
        }
        self.mask = best;
        for (v, r) in self.rare.iter_mut().enumerate() {
            *r = (v & best).count_ones() & 1 == 0;
        }
        self.rare_at.clear();
        self.rare_val.clear();
        for (n, &v) in self.g.iter().enumerate().skip(1) {
            if self.rare[v as usize] {
                self.rare_at.push(n as u32);
                self.rare_val.push(v);
            }
        }
    }

    fn mex(&mut self, n: usize) -> usize {
        self.stamp += 1;
        let s = self.stamp;
        let (g, rev, seen) = (&self.g, &self.rev, &mut self.seen[..SEEN]);
        if self.rules.take_all.contains(&n) {
            seen[0] = s;
        }
        for &k in &self.rules.take {
            if k < n {
                seen[g[n - k] as usize] = s;
            }
        }
        for &(k, strict) in &self.rules.split {
            if k + 2 > n {
                continue;
            }
            let rest = n - k;
            for (&r, &v) in self.rare_at.iter().zip(&self.rare_val) {
                let r = r as usize;
                if r >= rest {
                    break;
                }
                if !(strict && 2 * r == rest) {
                    seen[(v ^ g[rest - r]) as usize] = s;
                }
            }
        }
        let mut c = 0;
        while self.rare[c] || seen[c] == s {
            c += 1;
        }
        self.missing.clear();
        let below = self.rare[..c].iter().zip(&seen[..c]).enumerate();
        for (v, (&rare, &at)) in below {
            if rare && at != s {
                self.missing.push(v as u16);
            }
        }
        if self.missing.is_empty() {
            return c;
        }
        'splits: for &(k, strict) in &self.rules.split {
            if k + 2 > n {
                continue;
            }
            let rest = n - k;
            let half = if strict { (rest - 1) / 2 } else { rest / 2 };
            // The middle first: two large parts, both almost surely common.
            let mut hi = half;
            let mut block = 64;
            while hi > 0 {
                let lo = hi.saturating_sub(block) + 1;
                let base = self.upto - rest;
                let (left, right) = (&g[lo..=hi], &rev[base + lo..=base + hi]);
                if self.missing.len() <= 2 {
                    // One or two left: look for them with compares, which
                    // vectorise, rather than stores to `seen`.
                    let x = self.missing[0];
                    let y = *self.missing.last().unwrap_or(&x);
                    let (hit_x, hit_y) = left
                        .iter()
                        .zip(right)
                        .fold((false, false), |(p, q), (&a, &b)| {
                            (p | (a ^ b == x), q | (a ^ b == y))
                        });
                    self.missing
                        .retain(|&v| !((v == x && hit_x) || (v == y && hit_y)));
                } else {
                    for (&a, &b) in left.iter().zip(right) {
                        seen[(a ^ b) as usize] = s;
                    }
                    self.missing.retain(|&v| seen[v as usize] != s);
                }
                if self.missing.is_empty() {
                    break 'splits;
                }
                hi = lo - 1;
                block = (block * 3 / 2).min(4096);
            }
        }
        self.missing.first().map_or(c, |&v| v as usize)
    }
}

/// g(0..=upto), continuing from `first` (g(0), g(1), ... computed the plain
/// way, at least one value).
pub fn sequence(rules: &Rules, upto: usize, first: Vec<u16>) -> Vec<u16> {
    let mut rev = vec![0u16; upto + 1];
    for (m, &v) in first.iter().enumerate() {
        rev[upto - m] = v;
    }
    let mut rc = Rc {
        rules,
        upto,
        g: first,
        rev,
        mask: 0,
        rare: vec![false; SEEN],
        rare_at: Vec::new(),
        rare_val: Vec::new(),
        seen: vec![0; SEEN],
        stamp: 0,
        missing: Vec::new(),
        largest: 0,
    };
    rc.largest = rc.g.iter().copied().max().unwrap_or(0) as usize;
    rc.g.reserve(upto + 1 - rc.g.len());
    rc.choose_mask();
    for n in rc.g.len()..=upto {
        if n.is_power_of_two() || (rc.mask == 0 && rc.largest > 0) {
            rc.choose_mask();
        }
        let v = if rc.mask == 0 {
            plain_mex(&rc, n)
        } else {
            rc.mex(n)
        };
        if v > u16::MAX as usize {
            eprintln!("baseline: a value ({v}) does not fit 16 bits");
            std::process::exit(1);
        }
        rc.largest = rc.largest.max(v);
        rc.g.push(v as u16);
        rc.rev[upto - n] = v as u16;
        if rc.mask != 0 && rc.rare[v] {
            rc.rare_at.push(n as u32);
            rc.rare_val.push(v as u16);
        }
    }
    rc.g
}

/// While every value is 0 no mask makes any common: every split is paired.
fn plain_mex(rc: &Rc, n: usize) -> usize {
    let mut seen = vec![false; (rc.largest + 1).next_power_of_two() * 2];
    if rc.rules.take_all.contains(&n) {
        seen[0] = true;
    }
    for &k in &rc.rules.take {
        if k < n {
            seen[rc.g[n - k] as usize] = true;
        }
    }
    for &(k, strict) in &rc.rules.split {
        if k + 2 > n {
            continue;
        }
        let rest = n - k;
        let half = if strict { (rest - 1) / 2 } else { rest / 2 };
        for a in 1..=half {
            seen[(rc.g[a] ^ rc.g[rest - a]) as usize] = true;
        }
    }
    seen.iter().position(|&s| !s).unwrap_or(seen.len())
}
