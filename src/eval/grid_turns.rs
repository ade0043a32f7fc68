//! A grid turned or reflected: `transpose`, `rotate` and `mirror`, the
//! built-ins a `symmetry =` rule of a board game is written with. With
//! `reverse` (the rows upside down) they make every symmetry of a square.

use super::value::Value;
use crate::error::ErrorKind;
use std::sync::Arc;

/// How a grid is turned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Rows become columns: cell (r, c) goes to (c, r).
    Transpose,
    /// A quarter turn clockwise: the first column, read bottom to top,
    /// becomes the first row.
    Rotate,
    /// Each row backwards: the mirror image left to right.
    Mirror,
}

/// The grid `g` turned; an error if it is not a list of strings of one
/// length.
pub fn turn(how: Turn, name: &str, g: &Value) -> Result<Value, ErrorKind> {
    if let Some(turned) = turn_ascii(how, g) {
        return Ok(turned);
    }
    let rows = cells(name, g)?;
    let height = rows.len();
    let width = rows.first().map_or(0, Vec::len);
    let row =
        |chars: &mut dyn Iterator<Item = char>| Value::Str(Arc::from(chars.collect::<String>()));
    let turned: Vec<Value> = match how {
        Turn::Transpose => (0..width)
            .map(|c| row(&mut (0..height).map(|r| rows[r][c])))
            .collect(),
        Turn::Rotate => (0..width)
            .map(|c| row(&mut (0..height).rev().map(|r| rows[r][c])))
            .collect(),
        Turn::Mirror => rows
            .iter()
            .map(|cells| row(&mut cells.iter().rev().copied()))
            .collect(),
    };
    Ok(Value::list(turned))
}

/// `turn` for a grid of ASCII rows of one length, a byte a cell (boards
/// are turned for every move of a search with a symmetry); `None` for any
/// other value, which `turn` then reads a character at a time.
fn turn_ascii(how: Turn, g: &Value) -> Option<Value> {
    let Value::List(items) = g else {
        return None;
    };
    let mut rows: Vec<&[u8]> = Vec::with_capacity(items.len());
    for item in items.iter() {
        match item {
            Value::Str(s) if s.is_ascii() => rows.push(s.as_bytes()),
            _ => return None,
        }
    }
    let width = rows.first().map_or(0, |r| r.len());
    if rows.iter().any(|r| r.len() != width) {
        return None;
    }
    let height = rows.len();
    let row = |bytes: Vec<u8>| {
        String::from_utf8(bytes)
            .ok()
            .map(|s| Value::Str(Arc::from(s)))
    };
    let turned: Option<Vec<Value>> = match how {
        Turn::Transpose => (0..width)
            .map(|c| row((0..height).map(|r| rows[r][c]).collect()))
            .collect(),
        Turn::Rotate => (0..width)
            .map(|c| row((0..height).rev().map(|r| rows[r][c]).collect()))
            .collect(),
        Turn::Mirror => rows
            .iter()
            .map(|cells| row(cells.iter().rev().copied().collect()))
            .collect(),
    };
    turned.map(Value::list)
}

/// The characters of each row, checked to be a grid.
fn cells(name: &str, g: &Value) -> Result<Vec<Vec<char>>, ErrorKind> {
    let Value::List(items) = g else {
        return Err(not_a_grid(name, g.kind()));
    };
    let mut rows = Vec::with_capacity(items.len());
    for item in items.iter() {
        let Value::Str(s) = item else {
            return Err(not_a_grid(name, &format!("a list holding {}", item.kind())));
        };
        rows.push(s.chars().collect::<Vec<char>>());
    }
    if let Some(first) = rows.first() {
        if let Some(other) = rows.iter().find(|r| r.len() != first.len()) {
            return Err(ErrorKind::BadValue {
                detail: format!(
                    "{name} needs a grid of rows of one length, but it has rows of {} and {} cells",
                    first.len(),
                    other.len()
                ),
            });
        }
    }
    Ok(rows)
}

fn not_a_grid(name: &str, found: &str) -> ErrorKind {
    ErrorKind::BadValue {
        detail: format!("{name} needs a grid (a list of strings), not {found}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Value {
        Value::list(rows.iter().map(|r| Value::str(r)).collect())
    }

    #[test]
    fn a_rectangle_turns_as_drawn() {
        // a b c      d a      c f      c b a
        // d e f      e b      b e      f e d
        //            f c      a d
        let g = grid(&["abc", "def"]);
        let turned = |how| turn(how, "t", &g).expect("a grid");
        assert_eq!(turned(Turn::Rotate), grid(&["da", "eb", "fc"]));
        assert_eq!(turned(Turn::Transpose), grid(&["ad", "be", "cf"]));
        assert_eq!(turned(Turn::Mirror), grid(&["cba", "fed"]));
    }

    #[test]
    fn four_quarter_turns_come_back() {
        let g = grid(&["ab.", "c#d"]);
        let mut turned = g.clone();
        for _ in 0..4 {
            turned = turn(Turn::Rotate, "rotate", &turned).expect("a grid");
        }
        assert_eq!(turned, g);
        assert_eq!(turn(Turn::Rotate, "rotate", &grid(&[])), Ok(grid(&[])));
    }

    #[test]
    fn letters_past_ascii_turn_the_same_way() {
        let g = grid(&["aé", "çd"]);
        let turned = |how| turn(how, "t", &g).expect("a grid");
        assert_eq!(turned(Turn::Rotate), grid(&["ça", "dé"]));
        assert_eq!(turned(Turn::Transpose), grid(&["aç", "éd"]));
        assert_eq!(turned(Turn::Mirror), grid(&["éa", "dç"]));
    }

    #[test]
    fn rows_of_different_lengths_are_refused() {
        let e = turn(Turn::Transpose, "transpose", &grid(&["ab", "c"])).unwrap_err();
        assert!(e.to_string().contains("rows of 2 and 1 cells"), "{e}");
    }
}
