//! A grid parameter turned or reflected on the key: `reverse`, `mirror`,
//! `transpose` and `rotate` of the parameter, however nested, are one
//! shuffle of its cells, worked out once when the rules are compiled. A
//! grid whose letters sit side by side in the key (rows not numbered) is a
//! run of cells, so an image is each cell's letter copied to its new place,
//! with no registers. This is what a `symmetry =` of a board game asks for
//! every position the search stores.

use super::code::Rows;
use crate::eval::builtins::Builtin;
use crate::eval::ir::{Ir, IrKind};

/// A grid after some turns: its shape, and for each of its cells (row by
/// row) the cell of the parameter it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turned {
    height: u32,
    width: u32,
    from: Vec<u32>,
}

impl Turned {
    fn identity(height: u32, width: u32) -> Turned {
        Turned {
            height,
            width,
            from: (0..height * width).collect(),
        }
    }

    /// This grid turned once more by the built-in `how`.
    fn then(&self, how: Builtin) -> Option<Turned> {
        let (h, w) = (self.height, self.width);
        let at = |r: u32, c: u32| self.from[(r * w + c) as usize];
        // The new shape, and the cell (r, c) of it in the old grid.
        let (height, width, old): (u32, u32, &dyn Fn(u32, u32) -> u32) = match how {
            Builtin::Reverse => (h, w, &|r, c| at(h - 1 - r, c)),
            Builtin::Mirror => (h, w, &|r, c| at(r, w - 1 - c)),
            Builtin::Transpose => (w, h, &|r, c| at(c, r)),
            // A quarter turn clockwise: new row r is old column r read
            // from the bottom up.
            Builtin::Rotate => (w, h, &|r, c| at(h - 1 - c, r)),
            _ => return None,
        };
        let from = (0..height)
            .flat_map(|r| (0..width).map(move |c| (r, c)))
            .map(|(r, c)| old(r, c))
            .collect();
        Some(Turned {
            height,
            width,
            from,
        })
    }

    /// Whether the turned grid has the parameter's shape, so that a key of
    /// the same layout holds it.
    pub fn keeps_shape(&self, rows: &Rows) -> bool {
        self.height == rows.fields.len && self.width == rows.cols
    }

    /// This grid turned by each of `hows` in turn.
    pub fn then_all(&self, hows: &[Builtin]) -> Option<Turned> {
        hows.iter()
            .try_fold(self.clone(), |turned, &how| turned.then(how))
    }

    /// A grid of `height` rows of `width` cells turned by each of `hows`.
    pub fn of_grid(height: u32, width: u32, hows: &[Builtin]) -> Option<Turned> {
        Turned::identity(height, width).then_all(hows)
    }

    /// Whether every cell is where it was: the turns undid each other.
    pub fn is_identity(&self) -> bool {
        self.from.iter().enumerate().all(|(i, &f)| i as u32 == f)
    }

    /// The turned grid's rows and columns.
    pub fn shape(&self) -> (u32, u32) {
        (self.height, self.width)
    }

    /// The cell of the parameter that cell (r, c) of the turned grid
    /// holds, counted row by row.
    pub fn source(&self, r: u32, c: u32) -> Option<u32> {
        (r < self.height && c < self.width).then(|| self.from[(r * self.width + c) as usize])
    }

    /// For each cell of the turned grid, the cell of the parameter.
    pub fn into_cells(self) -> Box<[u32]> {
        self.from.into_boxed_slice()
    }
}

/// The built-ins that turn or reflect a grid.
pub const TURNS: [Builtin; 4] = [
    Builtin::Reverse,
    Builtin::Mirror,
    Builtin::Transpose,
    Builtin::Rotate,
];

/// What `ir` makes of grid parameter `param` (of shape `rows`), if it is
/// the parameter turned by `reverse`, `mirror`, `transpose` and `rotate`.
pub fn of(ir: &Ir, param: usize, rows: &Rows) -> Option<Turned> {
    of_shape(ir, param, rows.fields.len, rows.cols)
}

/// `of` for a grid of `height` rows of `width` letters.
fn of_shape(ir: &Ir, param: usize, height: u32, width: u32) -> Option<Turned> {
    match &ir.kind {
        IrKind::Local(s) if *s as usize == param => Some(Turned::identity(height, width)),
        IrKind::Builtin(how, args) if TURNS.contains(how) => match &args[..] {
            [inner] => of_shape(inner, param, height, width)?.then(*how),
            _ => None,
        },
        _ => None,
    }
}

/// Turns a group of them may hold: the 8 of a square, twice over.
const MAX_TURNS: usize = 16;

/// For a symmetry whose images each turn one grid parameter and pass the
/// others on, some into another shape (a quarter turn of a rectangle):
/// the turns they make together, composed, that keep the grid's shape.
/// Two positions of one layout are images of each other only through such
/// a turn, so these give the search the same families on its keys. `None`
/// when the images are not all such turns, or all keep the shape (they
/// are then compiled one by one).
pub fn keeping_shape(images: &[&Ir], rows: &Rows, param: usize) -> Option<Vec<Box<[u32]>>> {
    let mut turns = Vec::new();
    for image in images {
        let IrKind::MakePos(_, args) = &image.kind else {
            return None;
        };
        for (i, arg) in args.iter().enumerate() {
            let passed_on = matches!(arg.kind, IrKind::Local(s) if s as usize == i);
            if i != param && !passed_on {
                return None;
            }
        }
        turns.push(args.get(param)?);
    }
    let start = Turned::identity(rows.fields.len, rows.cols);
    let mut group = vec![start.clone()];
    let mut next = 0;
    while let Some(done) = group.get(next).cloned() {
        next += 1;
        for ir in &turns {
            let more = of_shape(ir, param, done.height, done.width)?;
            let from = more.from.iter().map(|&i| done.from[i as usize]).collect();
            let composed = Turned { from, ..more };
            if !group.contains(&composed) {
                if group.len() >= MAX_TURNS {
                    return None;
                }
                group.push(composed);
            }
        }
    }
    if group.iter().all(|t| t.keeps_shape(rows)) {
        return None;
    }
    let kept = group
        .into_iter()
        .filter(|t| t.keeps_shape(rows) && *t != start);
    Some(kept.map(Turned::into_cells).collect())
}

/// `key` with the grid of `rows` (letters side by side, `cell` bits each)
/// replaced by its cells shuffled as `cells` says.
#[inline]
pub fn apply(key: u64, rows: &Rows, cell: u32, cells: &[u32]) -> u64 {
    let letter = (1u64 << cell) - 1;
    let grid = key >> rows.fields.shift;
    let mut turned = 0u64;
    for (to, &from) in cells.iter().enumerate() {
        turned |= ((grid >> (from * cell)) & letter) << (to as u32 * cell);
    }
    let bits = rows.fields.len * rows.fields.width;
    let all = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    key & !(all << rows.fields.shift) | turned << rows.fields.shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::compact::layout::Fields;

    /// A grid of `h` rows of `w` letters, one bit a letter, at bit 0.
    fn rows(h: u32, w: u32) -> Rows {
        Rows {
            fields: Fields {
                first: 0,
                len: h,
                width: w,
                shift: 0,
                bias: 0,
            },
            cols: w,
            numbered: false,
        }
    }

    /// The grid's letters as text, row by row, `#` for a set bit.
    fn drawn(key: u64, h: u32, w: u32) -> Vec<String> {
        (0..h)
            .map(|r| {
                (0..w)
                    .map(|c| {
                        if (key >> (r * w + c)) & 1 == 1 {
                            '#'
                        } else {
                            '.'
                        }
                    })
                    .collect()
            })
            .collect()
    }

    fn turned(how: &[Builtin], h: u32, w: u32) -> Turned {
        how.iter()
            .fold(Turned::identity(h, w), |t, &b| t.then(b).expect("a turn"))
    }

    #[test]
    fn cells_move_as_the_interpreter_turns_a_grid() {
        // ##.      .#      .#.
        // .#.      ##      ##.
        //          .#    (mirror)
        //        (rotate: the first column, bottom up, is the first row)
        let key = 0b010_011;
        let r = rows(2, 3);
        let rotated = turned(&[Builtin::Rotate], 2, 3);
        assert_eq!(
            drawn(apply(key, &rows(3, 2), 1, &rotated.into_cells()), 3, 2),
            [".#", "##", ".."]
        );
        let mirrored = turned(&[Builtin::Mirror], 2, 3).into_cells();
        assert_eq!(drawn(apply(key, &r, 1, &mirrored), 2, 3), [".##", ".#."]);
        let reversed = turned(&[Builtin::Reverse], 2, 3).into_cells();
        assert_eq!(drawn(apply(key, &r, 1, &reversed), 2, 3), [".#.", "##."]);
        let transposed = turned(&[Builtin::Transpose], 2, 3).into_cells();
        assert_eq!(
            drawn(apply(key, &rows(3, 2), 1, &transposed), 3, 2),
            ["#.", "##", ".."]
        );
    }

    #[test]
    fn four_quarter_turns_and_two_reflections_come_back() {
        let square = Turned::identity(3, 3);
        let spun = [Builtin::Rotate; 4];
        assert_eq!(turned(&spun, 3, 3), square);
        assert_eq!(turned(&[Builtin::Mirror, Builtin::Mirror], 3, 3), square);
        // A half turn is both reflections.
        assert_eq!(
            turned(&[Builtin::Rotate, Builtin::Rotate], 3, 3),
            turned(&[Builtin::Reverse, Builtin::Mirror], 3, 3)
        );
        assert!(!turned(&[Builtin::Rotate], 2, 3).keeps_shape(&rows(2, 3)));
        assert!(turned(&[Builtin::Rotate; 2], 2, 3).keeps_shape(&rows(2, 3)));
    }
}
