//! Many points drawn as few shapes: points that land on the same pixel are
//! one, and the pixels of one row that touch are one horizontal run. A
//! periodic sequence of a million values then becomes one run per value
//! it takes, instead of a million circles.

use std::collections::BTreeMap;

/// A horizontal run of lit pixels: columns `from..=to` of row `row`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Run {
    pub row: i32,
    pub from: i32,
    pub to: i32,
}

/// The runs covering the given pixels, row by row, left to right.
pub fn runs(pixels: impl IntoIterator<Item = (i32, i32)>) -> Vec<Run> {
    let mut rows: BTreeMap<i32, Vec<i32>> = BTreeMap::new();
    for (x, y) in pixels {
        rows.entry(y).or_default().push(x);
    }
    let mut runs = Vec::new();
    for (row, mut columns) in rows {
        columns.sort_unstable();
        columns.dedup();
        let mut start = 0;
        for i in 1..=columns.len() {
            if i == columns.len() || columns[i] != columns[i - 1] + 1 {
                runs.push(Run {
                    row,
                    from: columns[start],
                    to: columns[i - 1],
                });
                start = i;
            }
        }
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn touching_pixels_of_a_row_are_one_run() {
        let pixels = [(3, 1), (1, 1), (2, 1), (2, 1), (7, 1), (5, 0)];
        assert_eq!(
            runs(pixels),
            vec![
                Run {
                    row: 0,
                    from: 5,
                    to: 5
                },
                Run {
                    row: 1,
                    from: 1,
                    to: 3
                },
                Run {
                    row: 1,
                    from: 7,
                    to: 7
                },
            ]
        );
    }

    #[test]
    fn a_periodic_sequence_is_one_run_per_value() {
        // 100,000 values of period 3 squeezed into 800 columns.
        let pixels = (0..100_000).map(|n| (n * 800 / 100_000, [0, 1, 2][n as usize % 3]));
        assert_eq!(runs(pixels).len(), 3);
    }
}
