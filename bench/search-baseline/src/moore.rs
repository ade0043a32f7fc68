//! Moore's Nim_k: take at least one counter from each of 1 to k piles.
//!
//! A position is its piles written as digits in base (largest pile + 1),
//! so every move lowers the packed number and one pass upwards over the
//! numbers below the start visits options before the positions that reach
//! them. Only the positions below the start in every pile are reachable,
//! and the table holds exactly those.

use crate::{Mex, Report};

pub fn run(args: &[String]) -> Result<Report, String> {
    let (k, piles) = args.split_first().ok_or("moore needs K and the piles")?;
    let k: usize = k.parse().map_err(|_| format!("bad k '{k}'"))?;
    let piles: Vec<usize> = piles
        .iter()
        .map(|p| p.parse().map_err(|_| format!("bad pile '{p}'")))
        .collect::<Result<_, _>>()?;
    if piles.is_empty() || piles.len() > 8 {
        return Err("give 1 to 8 piles".into());
    }
    Ok(solve(k, &piles))
}

/// The Grundy value of `start` and the number of positions reachable from it.
pub fn solve(k: usize, start: &[usize]) -> Report {
    let n = start.len();
    // Mixed radix: pile i ranges over 0..=start[i].
    let mut stride = vec![1usize; n];
    for i in 1..n {
        stride[i] = stride[i - 1] * (start[i - 1] + 1);
    }
    let size = stride[n - 1] * (start[n - 1] + 1);
    let mut values = vec![0u16; size];
    let mut piles = vec![0usize; n];
    let mut mex = Mex::default();
    let mut chosen = Vec::with_capacity(k);
    for index in 0..size {
        mex.clear();
        chosen.clear();
        options(k, &piles, &stride, index, 0, &mut chosen, &values, &mut mex);
        values[index] = u16::try_from(mex.get()).expect("a value too large for 16 bits");
        // Next position: count up in the mixed radix.
        for i in 0..n {
            if piles[i] < start[i] {
                piles[i] += 1;
                break;
            }
            piles[i] = 0;
        }
    }
    Report {
        value: u32::from(values[size - 1]),
        positions: size,
    }
}

/// Every option: choose up to k piles (in increasing order, from `from`),
/// then every amount from each; `index` is the position with the amounts
/// chosen so far already taken.
#[allow(clippy::too_many_arguments)]
fn options(
    k: usize,
    piles: &[usize],
    stride: &[usize],
    index: usize,
    from: usize,
    chosen: &mut Vec<usize>,
    values: &[u16],
    mex: &mut Mex,
) {
    for i in from..piles.len() {
        for take in 1..=piles[i] {
            let next = index - take * stride[i];
            mex.add(u32::from(values[next]));
            if chosen.len() + 1 < k {
                chosen.push(i);
                options(k, piles, stride, next, i + 1, chosen, values, mex);
                chosen.pop();
            }
        }
    }
}
