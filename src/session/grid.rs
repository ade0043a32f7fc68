//! Tables of two free numbers: g(x, y) for every x <= X and y <= Y, each
//! position searched by the solver (which shares what it learns between
//! cells, as every option of a cell is a smaller cell or another position
//! it has seen).

use super::{Family, Session};
use crate::error::{Error, ErrorKind, Errors};

/// g(x, y) for x in 0..=X (rows) and y in 0..=Y (columns).
pub struct Grid {
    /// The values row by row: g(x, y) is at `x * (Y + 1) + y`.
    pub values: Vec<u32>,
    pub rows: usize,
    pub columns: usize,
}

impl Grid {
    pub fn get(&self, x: usize, y: usize) -> u32 {
        self.values[x * self.columns + y]
    }

    pub fn row(&self, x: usize) -> &[u32] {
        &self.values[x * self.columns..(x + 1) * self.columns]
    }
}

impl Session {
    /// The table of a family with two free numbers, up to (X, Y). A Ctrl-C
    /// or time limit is an error.
    pub fn grid_run(&mut self, family: &Family, upto: (u64, u64)) -> Result<Grid, Errors> {
        let span = self.asked;
        let cells = (upto.0 as u128 + 1) * (upto.1 as u128 + 1);
        let limit = self.interp.max_positions;
        let (rows, columns) = match (usize::try_from(upto.0), usize::try_from(upto.1)) {
            (Ok(x), Ok(y)) if cells <= limit as u128 => (x + 1, y + 1),
            _ => {
                return Err(vec![Error::new(
                    ErrorKind::TooLarge {
                        what: format!("the table of {}x{} cells", upto.0 + 1, upto.1 + 1),
                        size: format!("{cells} positions"),
                        limit: format!("the state limit of {limit} positions"),
                    },
                    span,
                )])
            }
        };
        let mut values = Vec::with_capacity(rows * columns);
        for x in 0..rows {
            for y in 0..columns {
                if crate::interrupt::requested() {
                    return Err(vec![Error::new(crate::interrupt::stop_kind(), span)]);
                }
                let parts = self.family_position(family, &[x as i64, y as i64], span)?;
                values.push(self.value(&parts)?);
            }
        }
        Ok(Grid {
            values,
            rows,
            columns,
        })
    }
}
