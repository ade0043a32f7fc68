//! Cram on a grid of empty cells: a move covers two empty neighbouring
//! cells with a domino, across or down; whoever cannot move loses.
//!
//! A board is a bit mask of its covered cells (bit r * columns + c), and
//! every domino of the grid is a mask of two bits worked out once, so the
//! options of a board are the dominoes that miss its covered cells. Boards
//! of up to 25 cells index a dense table (a byte a board, with marks for
//! boards not reached); larger ones go in a hash map. The search is
//! depth-first with its own stack, as for Treblecross.

use std::collections::HashMap;

use crate::{numbers, Mex, Report};

const UNSEEN: u8 = u8::MAX;
const OPEN: u8 = UNSEEN - 1;
/// The largest board whose dense table (2^cells bytes) is allocated.
const DENSE_CELLS: usize = 25;

pub fn run(args: &[String]) -> Result<Report, String> {
    let [rows, columns] = numbers("cram", ["ROWS", "COLUMNS"], args)?;
    if rows == 0 || columns == 0 || rows * columns > 64 {
        return Err("a grid of 1 to 64 cells".into());
    }
    Ok(solve(rows, columns))
}

/// Every domino of the grid as a mask of its two cells.
fn dominoes(rows: usize, columns: usize) -> Vec<u64> {
    let cell = |r: usize, c: usize| 1u64 << (r * columns + c);
    let mut all = Vec::new();
    for r in 0..rows {
        for c in 0..columns {
            if c + 1 < columns {
                all.push(cell(r, c) | cell(r, c + 1));
            }
            if r + 1 < rows {
                all.push(cell(r, c) | cell(r + 1, c));
            }
        }
    }
    all
}

/// The values of the boards seen so far: dense while the grid is small.
enum Table {
    Dense(Vec<u8>),
    Sparse(HashMap<u64, u8>),
}

impl Table {
    fn get(&self, board: u64) -> u8 {
        match self {
            Table::Dense(values) => values[board as usize],
            Table::Sparse(values) => values.get(&board).copied().unwrap_or(UNSEEN),
        }
    }

    fn set(&mut self, board: u64, value: u8) {
        match self {
            Table::Dense(values) => values[board as usize] = value,
            Table::Sparse(values) => {
                values.insert(board, value);
            }
        }
    }
}

pub fn solve(rows: usize, columns: usize) -> Report {
    let dominoes = dominoes(rows, columns);
    let cells = rows * columns;
    let mut table = if cells <= DENSE_CELLS {
        Table::Dense(vec![UNSEEN; 1 << cells])
    } else {
        Table::Sparse(HashMap::new())
    };
    let start = 0u64;
    let mut positions = 1usize;
    table.set(start, OPEN);
    // A frame is a board and the next domino to try; the values of the
    // options are re-read from the table when it closes.
    let mut stack: Vec<(u64, usize)> = vec![(start, 0)];
    let mut mex = Mex::default();
    while let Some(&mut (board, ref mut next)) = stack.last_mut() {
        let mut descend = None;
        while *next < dominoes.len() {
            let domino = dominoes[*next];
            *next += 1;
            if board & domino == 0 && table.get(board | domino) == UNSEEN {
                descend = Some(board | domino);
                break;
            }
        }
        if let Some(option) = descend {
            positions += 1;
            table.set(option, OPEN);
            stack.push((option, 0));
            continue;
        }
        mex.clear();
        for &domino in &dominoes {
            if board & domino == 0 {
                mex.add(u32::from(table.get(board | domino)));
            }
        }
        let value = mex.get();
        assert!(value < u32::from(OPEN), "a value too large for a byte");
        table.set(board, value as u8);
        stack.pop();
    }
    Report {
        value: u32::from(table.get(start)),
        positions,
    }
}
