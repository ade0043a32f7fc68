//! Node Kayles on the grid graph of ROWS x COLUMNS cells: a move picks a
//! free cell, and it and the cells beside it (up, down, left, right) are
//! taken. The player who cannot pick has lost.
//!
//! A position is the set of free cells as bits (cell r * COLUMNS + c), at
//! most 32 of them. The reachable sets are a sliver of all 2^cells, so
//! they live in a table of open addressing (the key and its value in one
//! word), filled by a depth-first search whose stack is the recursion:
//! one move takes at least one cell, so it is at most `cells` deep.

use crate::{numbers, Mex, Report};

pub fn run(args: &[String]) -> Result<Report, String> {
    let [rows, columns] = numbers("nodekayles", ["ROWS", "COLUMNS"], args)?;
    if rows == 0 || columns == 0 || rows * columns > 32 {
        return Err("a grid of 1 to 32 cells".into());
    }
    Ok(solve(rows, columns))
}

pub fn solve(rows: usize, columns: usize) -> Report {
    let cells = rows * columns;
    // taken[v]: the cells a pick of v takes.
    let taken: Vec<u64> = (0..cells)
        .map(|v| {
            let (r, c) = (v / columns, v % columns);
            let mut mask = 1u64 << v;
            if r > 0 {
                mask |= 1 << (v - columns);
            }
            if r + 1 < rows {
                mask |= 1 << (v + columns);
            }
            if c > 0 {
                mask |= 1 << (v - 1);
            }
            if c + 1 < columns {
                mask |= 1 << (v + 1);
            }
            mask
        })
        .collect();
    let mut search = Search {
        taken,
        table: Table::new(),
    };
    let all = (1u64 << cells) - 1;
    let value = search.value(all);
    Report {
        value,
        positions: search.table.len,
    }
}

struct Search {
    taken: Vec<u64>,
    table: Table,
}

impl Search {
    fn value(&mut self, free: u64) -> u32 {
        if let Some(v) = self.table.get(free) {
            return v;
        }
        let mut mex = Mex::default();
        let mut left = free;
        while left != 0 {
            let v = left.trailing_zeros() as usize;
            left &= left - 1;
            let option = free & !self.taken[v];
            mex.add(self.value(option));
        }
        let value = mex.get();
        self.table.set(free, value);
        value
    }
}

/// Open addressing over words holding a key (the free cells, plus one so
/// that no key is 0) in the high 40 bits and its value in the low 24.
struct Table {
    slots: Vec<u64>,
    len: usize,
}

impl Table {
    fn new() -> Table {
        Table {
            slots: vec![0; 1 << 16],
            len: 0,
        }
    }

    fn home(&self, key: u64) -> usize {
        let h = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (h >> 32) as usize & (self.slots.len() - 1)
    }

    fn get(&self, free: u64) -> Option<u32> {
        let key = free + 1;
        let mut at = self.home(key);
        loop {
            let slot = self.slots[at];
            if slot == 0 {
                return None;
            }
            if slot >> 24 == key {
                return Some((slot & 0xff_ffff) as u32);
            }
            at = (at + 1) & (self.slots.len() - 1);
        }
    }

    fn set(&mut self, free: u64, value: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.put(free + 1, value);
        self.len += 1;
    }

    fn put(&mut self, key: u64, value: u32) {
        let mut at = self.home(key);
        while self.slots[at] != 0 {
            at = (at + 1) & (self.slots.len() - 1);
        }
        self.slots[at] = key << 24 | u64::from(value);
    }

    fn grow(&mut self) {
        let wider = vec![0; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, wider);
        for slot in old.into_iter().filter(|&s| s != 0) {
            self.put(slot >> 24, (slot & 0xff_ffff) as u32);
        }
    }
}
