//! Mock Turtles on a row of coins: a move turns over one, two or three
//! coins, the rightmost of them from heads to tails.
//!
//! A row is a bit mask of its heads (bit i for the i-th coin from the
//! left), so every option, which turns a head at i to tails and changes
//! only coins left of it, is a smaller number, and one upward pass over
//! the numbers fills a dense table (a byte a row) with options always
//! before the rows that reach them. The rows reachable from the start are
//! counted in a downward pass first; from a row of heads alone every row
//! is reachable (turn over the heads one at a time), and that pass is left
//! out.

use crate::{Mex, Report};

pub fn run(args: &[String]) -> Result<Report, String> {
    let [row] = args else {
        return Err("turtles needs one row of coins, such as 'HTHH'".into());
    };
    let coins = row.len();
    if coins == 0 || coins > 30 {
        return Err("a row of 1 to 30 coins".into());
    }
    let mut start = 0u32;
    for (i, c) in row.bytes().enumerate() {
        match c {
            b'H' => start |= 1 << i,
            b'T' => {}
            _ => return Err(format!("bad coin '{}'", c as char)),
        }
    }
    Ok(solve(coins, start))
}

/// Calls `option` with every option of `row`.
#[inline]
fn options(row: u32, mut option: impl FnMut(u32)) {
    let mut heads = row;
    while heads != 0 {
        let i = heads.trailing_zeros();
        heads &= heads - 1;
        let turned = row ^ (1 << i);
        option(turned);
        for j in 0..i {
            let two = turned ^ (1 << j);
            option(two);
            for k in 0..j {
                option(two ^ (1 << k));
            }
        }
    }
}

pub fn solve(coins: usize, start: u32) -> Report {
    let size = start as usize + 1;
    let all_heads = start == ((1u64 << coins) - 1) as u32;
    let reached = if all_heads {
        None
    } else {
        let mut reached = vec![false; size];
        reached[start as usize] = true;
        for row in (0..size).rev() {
            if reached[row] {
                options(row as u32, |option| reached[option as usize] = true);
            }
        }
        Some(reached)
    };
    let mut values = vec![0u8; size];
    let mut mex = Mex::default();
    for row in 0..size {
        if reached.as_ref().is_some_and(|reached| !reached[row]) {
            continue;
        }
        mex.clear();
        options(row as u32, |option| {
            mex.add(u32::from(values[option as usize]))
        });
        let value = mex.get();
        assert!(value <= u32::from(u8::MAX), "a value too large for a byte");
        values[row] = value as u8;
    }
    let positions = match &reached {
        Some(reached) => reached.iter().filter(|&&r| r).count(),
        None => size,
    };
    Report {
        value: u32::from(values[start as usize]),
        positions,
    }
}
