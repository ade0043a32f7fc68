//! Chomp on a rectangle: a move eats a square and every square below and
//! to the right of it; the top-left square is poisoned, so a player left
//! with it alone has lost.
//!
//! A position is its column heights, left to right, never increasing; a
//! move picks column c and a height t below its own and cuts every column
//! from c on down to t. Such sequences of `columns` heights up to `rows`
//! are ranked by the combinatorial number system (column i of height h
//! adds C(h + columns - 1 - i, columns - i)), which numbers them densely
//! from 0 to C(rows + columns, columns) - 1 and gives every option a
//! smaller rank than its position (an option is lower in every column), so
//! one upward pass over the ranks fills a dense table (a byte a position)
//! with options before the positions that reach them. From the whole
//! rectangle every such sequence is reachable except the empty one (the
//! poisoned square is never eaten).

use crate::{numbers, Mex, Report};

pub fn run(args: &[String]) -> Result<Report, String> {
    let [rows, columns] = numbers("chomp", ["ROWS", "COLUMNS"], args)?;
    if rows == 0 || columns == 0 || rows > 15 || columns > 16 {
        return Err("a rectangle of 1 to 15 rows and 1 to 16 columns".into());
    }
    Ok(solve(rows, columns))
}

pub fn solve(rows: usize, columns: usize) -> Report {
    // share[i][h]: what column i of height h adds to a rank.
    let mut binomial = vec![vec![0usize; columns + 1]; rows + columns + 1];
    for n in 0..=rows + columns {
        binomial[n][0] = 1;
        for k in 1..=columns.min(n) {
            binomial[n][k] = binomial[n - 1][k - 1] + binomial[n - 1][k];
        }
    }
    let share: Vec<Vec<usize>> = (0..columns)
        .map(|i| {
            (0..=rows)
                .map(|h| binomial[h + columns - 1 - i][columns - i])
                .collect()
        })
        .collect();
    let size = binomial[rows + columns][columns];
    let mut values = vec![0u8; size];
    // The empty board (rank 0) is never reached, and no option reads it.
    let mut heights = vec![0usize; columns];
    let mut mex = Mex::default();
    for rank in 1..size {
        next_in_rank_order(&mut heights, rows);
        mex.clear();
        // before: the rank of the columns left of c, which a cut keeps.
        let mut before = 0;
        for c in 0..columns {
            for t in 0..heights[c] {
                if c == 0 && t == 0 {
                    continue; // the poisoned square alone is never eaten
                }
                let mut option = before;
                for (i, &h) in heights.iter().enumerate().skip(c) {
                    option += share[i][h.min(t)];
                }
                mex.add(u32::from(values[option]));
            }
            before += share[c][heights[c]];
        }
        debug_assert_eq!(before, rank, "the sequences are stepped in rank order");
        let value = mex.get();
        assert!(value <= u32::from(u8::MAX), "a value too large for a byte");
        values[rank] = value as u8;
    }
    Report {
        value: u32::from(values[size - 1]),
        positions: size - 1,
    }
}

/// Steps `heights` (never increasing, each at most `rows`) to the sequence
/// of the next rank: the rightmost column that can grow without passing
/// its left neighbour (or `rows`) grows by one, and every column right of
/// it drops to zero.
fn next_in_rank_order(heights: &mut [usize], rows: usize) {
    for i in (0..heights.len()).rev() {
        let cap = if i == 0 { rows } else { heights[i - 1] };
        if heights[i] < cap {
            heights[i] += 1;
            for h in &mut heights[i + 1..] {
                *h = 0;
            }
            return;
        }
    }
}
