//! Treblecross searched as a board: a row of cells, each empty or X; a
//! move writes an X in an empty cell; the player to move has lost when the
//! row holds three X in a row.
//!
//! A board is a bit mask (bit i set when cell i holds an X), and the table
//! is indexed by it directly: one byte per board of the row, with a mark
//! for boards not reached. The search is depth-first with its own stack.

use crate::{Mex, Report};

const UNSEEN: u8 = u8::MAX;

pub fn run(args: &[String]) -> Result<Report, String> {
    let [board] = args else {
        return Err("treblecross needs one board, such as '......'".into());
    };
    let cells = board.len();
    if cells == 0 || cells > 28 {
        return Err("a board of 1 to 28 cells".into());
    }
    let mut start = 0u32;
    for (i, c) in board.bytes().enumerate() {
        match c {
            b'.' => {}
            b'X' => start |= 1 << i,
            _ => return Err(format!("bad cell '{}'", c as char)),
        }
    }
    Ok(solve(cells, start))
}

fn lost(board: u32) -> bool {
    board & (board >> 1) & (board >> 2) != 0
}

pub fn solve(cells: usize, start: u32) -> Report {
    let full = (1u32 << cells) - 1;
    let mut values = vec![UNSEEN; 1 << cells];
    let mut positions = 0usize;
    // A frame is a board and the next cell to try; the values of the
    // options already visited are re-read from the table when it closes.
    let mut stack: Vec<(u32, u32)> = vec![(start, 0)];
    positions += 1;
    while let Some(&mut (board, ref mut next)) = stack.last_mut() {
        if lost(board) {
            values[board as usize] = 0;
            stack.pop();
            continue;
        }
        let empty = !board & full;
        let mut descend = None;
        while *next < cells as u32 {
            let cell = *next;
            *next += 1;
            if empty & (1 << cell) == 0 {
                continue;
            }
            let option = board | (1 << cell);
            if values[option as usize] == UNSEEN {
                descend = Some(option);
                break;
            }
        }
        if let Some(option) = descend {
            positions += 1;
            // Mark it so a second path to it does not count it twice; it
            // is always resolved before its parent closes.
            values[option as usize] = UNSEEN - 1;
            stack.push((option, 0));
            continue;
        }
        let mut mex = Mex::default();
        let mut rest = empty;
        while rest != 0 {
            let cell = rest.trailing_zeros();
            rest &= rest - 1;
            mex.add(u32::from(values[(board | (1 << cell)) as usize]));
        }
        let value = mex.get();
        // Two byte values are marks; Treblecross rows never come near them.
        assert!(
            value < u32::from(UNSEEN - 1),
            "a value too large for a byte"
        );
        values[board as usize] = value as u8;
        stack.pop();
    }
    Report {
        value: u32::from(values[start as usize]),
        positions,
    }
}
