//! The connected regions of a grid, for declaring a board equal to the sum
//! of its independent parts.

/// Each 4-connected region of cells equal to `cell`, cut out as the
/// smallest grid holding it; every other cell of that grid becomes `#`.
/// Regions come in the order of their first cell, row by row.
pub fn regions(rows: &[Vec<char>], cell: char) -> Vec<Vec<String>> {
    let height = rows.len();
    let mut seen: Vec<Vec<bool>> = rows.iter().map(|r| vec![false; r.len()]).collect();
    let mut out = Vec::new();
    for r in 0..height {
        for c in 0..rows[r].len() {
            if rows[r][c] != cell || seen[r][c] {
                continue;
            }
            // Flood fill with an explicit stack.
            let mut members = Vec::new();
            let mut stack = vec![(r, c)];
            seen[r][c] = true;
            while let Some((y, x)) = stack.pop() {
                members.push((y, x));
                let mut neighbours = Vec::with_capacity(4);
                if y > 0 {
                    neighbours.push((y - 1, x));
                }
                if y + 1 < height {
                    neighbours.push((y + 1, x));
                }
                if x > 0 {
                    neighbours.push((y, x - 1));
                }
                neighbours.push((y, x + 1));
                for (ny, nx) in neighbours {
                    if rows[ny].get(nx) == Some(&cell) && !seen[ny][nx] {
                        seen[ny][nx] = true;
                        stack.push((ny, nx));
                    }
                }
            }
            out.push(cut_out(&members, cell));
        }
    }
    out
}

fn cut_out(members: &[(usize, usize)], cell: char) -> Vec<String> {
    let top = members.iter().map(|m| m.0).min().unwrap_or(0);
    let bottom = members.iter().map(|m| m.0).max().unwrap_or(0);
    let left = members.iter().map(|m| m.1).min().unwrap_or(0);
    let right = members.iter().map(|m| m.1).max().unwrap_or(0);
    let mut grid = vec![vec!['#'; right - left + 1]; bottom - top + 1];
    for &(y, x) in members {
        grid[y - top][x - left] = cell;
    }
    grid.into_iter()
        .map(|row| row.into_iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::regions;

    fn grid(rows: &[&str]) -> Vec<Vec<char>> {
        rows.iter().map(|r| r.chars().collect()).collect()
    }

    #[test]
    fn separate_regions_are_cut_out_apart() {
        let g = grid(&["..#.", "#.#.", "##.."]);
        assert_eq!(
            regions(&g, '.'),
            vec![
                vec!["..".to_string(), "#.".to_string()],
                vec!["#.".to_string(), "#.".to_string(), "..".to_string()],
            ]
        );
    }

    #[test]
    fn diagonal_cells_are_not_connected() {
        let g = grid(&[".#", "#."]);
        assert_eq!(regions(&g, '.').len(), 2);
    }
}
