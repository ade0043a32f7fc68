//! Wythoff's game: two heaps; a move takes any number from one heap, or
//! the same number from both.
//!
//! Every position (x, y) with x and y at most the start's is reachable, so
//! the table is dense, (x, y) at x * (y0 + 1) + y, and filled in one
//! upward pass: every option lies below its position. Values grow with the
//! heaps (about x + y), so the mex marks a stamp per value rather than a bit.

use crate::{numbers, Report};

pub fn run(args: &[String]) -> Result<Report, String> {
    let [x, y] = numbers("wythoff", ["X", "Y"], args)?;
    Ok(solve(x, y))
}

pub fn solve(x0: usize, y0: usize) -> Report {
    let width = y0 + 1;
    let mut values = vec![0u32; (x0 + 1) * width];
    // seen[v] == stamp: value v is an option's of the current position.
    // A value is at most its position's number of options.
    let mut seen = vec![0u32; x0 + y0 + x0.min(y0) + 2];
    let mut stamp = 0u32;
    for x in 0..=x0 {
        for y in 0..=y0 {
            stamp += 1;
            for k in 1..=x {
                seen[values[(x - k) * width + y] as usize] = stamp;
            }
            for k in 1..=y {
                seen[values[x * width + y - k] as usize] = stamp;
            }
            for k in 1..=x.min(y) {
                seen[values[(x - k) * width + y - k] as usize] = stamp;
            }
            let mut mex = 0;
            while seen[mex] == stamp {
                mex += 1;
            }
            values[x * width + y] = mex as u32;
        }
    }
    Report {
        value: values[x0 * width + y0],
        positions: values.len(),
    }
}
