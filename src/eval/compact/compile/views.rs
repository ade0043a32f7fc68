//! A grid parameter turned (`transpose(g)`, `rotate(g)`, often named by a
//! game-level `let`) and read as a grid of its own shape: its rows, cells
//! and length are the parameter's cells, found where the turn puts them
//! (a row of `transpose(g)` is a column of `g`). No key holds the turned
//! grid; it is read off the parameter. A result that turns it back after
//! setting one of its rows (`transpose(across(transpose(g), c, r))`) sets
//! the parameter's cells that row is made of.

use super::spliced::Run;
use super::{same_ir, Compiler, Scope, Val, TEXTS, WRITES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, Char, Num, Rows, Text, Write};
use crate::eval::compact::turn::{Turned, TURNS};
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use std::rc::Rc;

/// A grid parameter turned: the turn, and the parameter's row and column
/// of each cell (r, c) of the turned grid, `offset + by_row * r + by_col
/// * c` (a turn moves cells along rows and columns, one for one).
#[derive(Debug)]
pub(in crate::eval::compact) struct View {
    turn: Turned,
    row: Axis,
    col: Axis,
}

#[derive(Debug, Clone, Copy)]
struct Axis {
    offset: i64,
    by_row: i64,
    by_col: i64,
}

impl View {
    fn new(turn: Turned, cols: u32) -> Option<View> {
        let (height, width) = turn.shape();
        let at = |r: u32, c: u32| -> Option<(i64, i64)> {
            let cell = turn.source(r, c)?;
            Some((i64::from(cell / cols), i64::from(cell % cols)))
        };
        let origin = at(0, 0)?;
        let step =
            |next: Option<(i64, i64)>| next.map_or((0, 0), |(r, c)| (r - origin.0, c - origin.1));
        let down = step(if height > 1 { at(1, 0) } else { None });
        let across = step(if width > 1 { at(0, 1) } else { None });
        let view = View {
            row: Axis {
                offset: origin.0,
                by_row: down.0,
                by_col: across.0,
            },
            col: Axis {
                offset: origin.1,
                by_row: down.1,
                by_col: across.1,
            },
            turn,
        };
        // Every cell where the map puts it.
        let every = (0..height).flat_map(|r| (0..width).map(move |c| (r, c)));
        for (r, c) in every {
            let cell = view.turn.source(r, c)?;
            let (i, j) = (i64::from(r), i64::from(c));
            let found = (view.row.at(i, j), view.col.at(i, j));
            if found != (i64::from(cell / cols), i64::from(cell % cols)) {
                return None;
            }
        }
        Some(view)
    }

    pub(super) fn height(&self) -> u32 {
        self.turn.shape().0
    }

    pub(super) fn width(&self) -> u32 {
        self.turn.shape().1
    }
}

impl Axis {
    fn at(&self, r: i64, c: i64) -> i64 {
        self.offset + self.by_row * r + self.by_col * c
    }

    /// This axis at row `r` (a number worked out) and column `c` (known).
    fn num(&self, r: Num, c: i64) -> Num {
        plus_times(Num::Lit(self.offset + self.by_col * c), self.by_row, r)
    }
}

/// `base + k * x`, with no product where `k` is 0 or 1 or -1, and no sum
/// where `base` is 0 and `k` 1.
fn plus_times(base: Num, k: i64, x: Num) -> Num {
    let op = |op, a: Num, b: Num| Num::Binary(op, Box::new(a), Box::new(b));
    match k {
        0 => base,
        1 if matches!(base, Num::Lit(0)) => x,
        1 => op(BinaryOp::Add, base, x),
        -1 => op(BinaryOp::Sub, base, x),
        k => op(BinaryOp::Add, base, op(BinaryOp::Mul, Num::Lit(k), x)),
    }
}

/// The turns `ir` makes, innermost first, and what they turn.
fn turns_of(ir: &Ir) -> (Vec<Builtin>, &Ir) {
    let mut hows = Vec::new();
    let mut inner = ir;
    while let IrKind::Builtin(how, args) = &inner.kind {
        let ([x], true) = (&args[..], TURNS.contains(how)) else {
            break;
        };
        hows.push(*how);
        inner = x;
    }
    hows.reverse();
    (hows, inner)
}

impl Compiler<'_> {
    /// The grid parameter `ir` turns, as a view, where `ir` is one or more
    /// turns of a grid whose letters sit side by side in the key.
    pub(super) fn view_of(&self, scope: &Scope, ir: &Ir) -> Option<Val> {
        let (hows, inner) = turns_of(ir);
        if hows.is_empty() {
            return None;
        }
        let (rows, turn) = match self.val(scope, inner)? {
            Val::Grid(rows) if !rows.numbered => {
                (rows, Turned::of_grid(rows.fields.len, rows.cols, &hows)?)
            }
            Val::View(rows, view) => (rows, view.turn.then_all(&hows)?),
            _ => return None,
        };
        Some(Val::View(rows, Rc::new(View::new(turn, rows.cols)?)))
    }

    /// Row `index` of a view, its letters read off the parameter's cells.
    pub(super) fn view_row(
        &mut self,
        scope: &mut Scope,
        (rows, view): (Rows, &View),
        index: &Ir,
    ) -> Compiled<Text> {
        let checked = self.on_view(scope, index, view.height())?;
        let mut letters: Option<Text> = None;
        for c in 0..i64::from(view.width()) {
            let at = |me: &mut Self, scope: &mut Scope| checked.read(me, scope, index);
            let r = view.row.num(at(self, scope)?, c);
            let place = view.col.num(at(self, scope)?, c);
            let row = Text::Row(rows.fields, rows.cols, Box::new(r));
            let letter = Text::At(Box::new(row), Box::new(place));
            letters = Some(match letters {
                None => letter,
                Some(before) => Text::Concat(Box::new(before), Box::new(letter)),
            });
        }
        let letters = letters.ok_or_else(|| Unsupported::new(TEXTS, index.span))?;
        Ok(match checked.bind {
            Some(bind) => Text::Let(Box::new(bind), Box::new(letters)),
            None => letters,
        })
    }

    /// Cell (`row`, `col`) of a view, both worked out.
    pub(super) fn view_cell(
        &mut self,
        scope: &mut Scope,
        (rows, view): (Rows, &View),
        row: &Ir,
        col: &Ir,
    ) -> Compiled<Char> {
        let (height, width) = view.turn.shape();
        let (at_row, at_col) = (
            self.on_view(scope, row, height)?,
            self.on_view(scope, col, width)?,
        );
        let place = |axis: &Axis, me: &mut Self, scope: &mut Scope| -> Compiled<Num> {
            let from_row = axis.num(at_row.read(me, scope, row)?, 0);
            Ok(plus_times(
                from_row,
                axis.by_col,
                at_col.read(me, scope, col)?,
            ))
        };
        let r = place(&view.row, self, scope)?;
        let c = place(&view.col, self, scope)?;
        let mut cell = Char::GridCell(rows, Box::new(r), Box::new(c));
        for bind in [at_col.bind, at_row.bind].into_iter().flatten() {
            cell = Char::Let(Box::new(bind), Box::new(cell));
        }
        Ok(cell)
    }

    /// `at`, a row or column of a view `len` long, checked to lie on the
    /// view, as the interpreter's read there fails past its end: a turn
    /// maps places onto the parameter's cells along lines, and past the
    /// view's end a line may still meet a cell (a view of one row maps
    /// every row to it). Where the walks' ranges keep `at` on the view, no
    /// check; else `at` is put in a register by a bind that fails off it.
    fn on_view(&mut self, scope: &mut Scope, at: &Ir, len: u32) -> Compiled<OnView> {
        let value = self.num(scope, at)?;
        if self.within(&value, i64::from(len)) {
            return Ok(OnView {
                bind: None,
                reg: None,
            });
        }
        let places: Rc<[i64]> = (0..i64::from(len)).collect();
        let reg = self.reg();
        let bind = Bind::Num {
            reg,
            value: Num::Item(places, Box::new(value)),
            nat: false,
        };
        Ok(OnView {
            bind: Some(bind),
            reg: Some(reg),
        })
    }

    /// The writes of `ir`, turns of a view with one row set that undo the
    /// view's turn (`transpose(across(transpose(g), c, r))`): the cells of
    /// grid parameter `rows` that the row is made of are set, one by one.
    /// `None` where `ir` is not such a value.
    pub(super) fn turned_back(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        rows: &Rows,
        out: &mut Vec<Write>,
    ) -> Compiled<Option<()>> {
        let (hows, inner) = turns_of(ir);
        if hows.is_empty() || rows.numbered {
            return Ok(None);
        }
        let mut binds = Vec::new();
        let mut inner_scope = scope.clone();
        let mut entered = 0;
        let mut body = inner;
        // Helpers that make the new grid are written in place.
        let mut written = Ok(None);
        while let IrKind::CallFn(f, args) = &body.kind {
            match self.enter(&mut inner_scope, body, *f, args, false) {
                Ok((b, s, next)) => {
                    binds.extend(b);
                    inner_scope = s;
                    entered += 1;
                    body = next;
                }
                Err(why) => {
                    written = Err(why);
                    break;
                }
            }
        }
        if written.is_ok() {
            written = self.set_view_row(&mut inner_scope, body, (rows, &hows), &mut binds);
        }
        self.depth -= entered;
        let Some(writes) = written? else {
            return Ok(None);
        };
        out.extend(binds.into_iter().map(Write::Bind));
        out.extend(writes);
        Ok(Some(()))
    }

    /// `set_at(view, i, row)` turned back by `hows` to the parameter
    /// `rows`: the writes of the cells the row is made of.
    fn set_view_row(
        &mut self,
        scope: &mut Scope,
        body: &Ir,
        (rows, hows): (&Rows, &[Builtin]),
        binds: &mut Vec<Bind>,
    ) -> Compiled<Option<Vec<Write>>> {
        let IrKind::Builtin(Builtin::SetAt, a) = &body.kind else {
            return Ok(None);
        };
        let [target, index, value] = &a[..] else {
            return Ok(None);
        };
        let Some(Val::View(of, view)) = self.val(scope, target) else {
            return Ok(None);
        };
        if of != *rows || !view.turn.then_all(hows).is_some_and(|t| t.is_identity()) {
            return Ok(None);
        }
        let refused = || Unsupported::new(WRITES, body.span);
        // The row's place and letters, worked out once.
        let i = self.reg();
        let checked = self.on_view(scope, index, view.height())?;
        let value_num = checked.read(self, scope, index)?;
        binds.extend(checked.bind);
        binds.push(Bind::Num {
            reg: i,
            value: value_num,
            nat: false,
        });
        if let Some(cells) =
            self.run_on_view_row(scope, (target, index, value), (rows, &view), i)?
        {
            return Ok(Some(cells));
        }
        let text = self.text_reg();
        let value_text = self.text(scope, value)?;
        binds.push(Bind::Text {
            reg: text,
            value: value_text,
        });
        let width = i64::from(view.width());
        // Letter `c` of the new row; the last also takes whatever follows
        // it, so that a row longer than the view's is no letter.
        let letter = |c: i64| {
            let at = Text::At(Box::new(Text::Reg(text)), Box::new(Num::Lit(c)));
            if c + 1 < width {
                return at;
            }
            let rest = Text::Slice(
                Box::new(Text::Reg(text)),
                Box::new(Num::Lit(width)),
                Box::new(Num::Lit(width + 1)),
            );
            Text::Concat(Box::new(at), Box::new(rest))
        };
        let param_row = |n: Num| Text::Row(rows.fields, rows.cols, Box::new(n));
        let mut writes = Vec::new();
        if view.row.by_row == 0 {
            // Each letter of the view's row is in another row of the
            // parameter (a column of it, turned).
            for c in 0..width {
                let r = view.row.num(Num::Reg(i), c);
                let set = Text::SetAt(
                    Box::new(param_row(view.row.num(Num::Reg(i), c))),
                    Box::new(view.col.num(Num::Reg(i), c)),
                    Box::new(letter(c)),
                );
                writes.push(Write::Row(*rows, r, set));
            }
        } else if view.row.by_col == 0 {
            // The view's row is a row of the parameter, perhaps reversed.
            let mut set = param_row(view.row.num(Num::Reg(i), 0));
            for c in 0..width {
                set = Text::SetAt(
                    Box::new(set),
                    Box::new(view.col.num(Num::Reg(i), c)),
                    Box::new(letter(c)),
                );
            }
            writes.push(Write::Row(*rows, view.row.num(Num::Reg(i), 0), set));
        } else {
            return Err(refused());
        }
        Ok(Some(writes))
    }

    /// For a new row that is the view's row `index` with a run of its
    /// letters replaced (`slice(t[c], 0, r) + "##" + slice(t[c], r + 2,
    /// len(t[c]))`, see `spliced`): the writes of the parameter's cells the
    /// run covers, so that the rest of the row is not made and written
    /// back. A run that does not lie on the row would make it longer or
    /// shorter, which no turn back takes: the interpreter fails there, and
    /// so do these writes, at a cell off the parameter.
    fn run_on_view_row(
        &mut self,
        scope: &mut Scope,
        (target, index, value): (&Ir, &Ir, &Ir),
        (rows, view): (&Rows, &View),
        i: u32,
    ) -> Compiled<Option<Vec<Write>>> {
        let Some(run) = Run::of(value) else {
            return Ok(None);
        };
        let IrKind::Index(of, at) = &run.text.kind else {
            return Ok(None);
        };
        if !same_ir(of, target) || !same_ir(at, index) {
            return Ok(None);
        }
        let span = value.span;
        let param_row = |n: Num| Text::Row(rows.fields, rows.cols, Box::new(n));
        // Cell (i, place) of the view, as the parameter's row and column.
        let cell =
            |axis: &Axis, place: Num| plus_times(axis.num(Num::Reg(i), 0), axis.by_col, place);
        // The one row of the parameter every letter is in, set letter by
        // letter; or each letter in a row of its own.
        let one_row = view.row.by_col == 0;
        if !one_row && view.row.by_row != 0 {
            return Ok(None);
        }
        let mut set = param_row(view.row.num(Num::Reg(i), 0));
        let mut writes = Vec::new();
        for (k, c) in run.letters.chars().enumerate() {
            let place = run.place(k, span);
            let letter = Ir {
                kind: IrKind::Lit(Value::char(c)),
                span,
            };
            let letter = Box::new(self.text(scope, &letter)?);
            let mut checked = self.on_view(scope, &place, view.width())?;
            // A letter past the row's end fails, as the longer row the run
            // would make fails the turn back.
            writes.extend(checked.bind.take().map(Write::Bind));
            let at = |me: &mut Self, scope: &mut Scope| checked.read(me, scope, &place);
            let col = Box::new(cell(&view.col, at(self, scope)?));
            if one_row {
                set = Text::SetAt(Box::new(set), col, letter);
            } else {
                let row = param_row(cell(&view.row, at(self, scope)?));
                let r = cell(&view.row, at(self, scope)?);
                writes.push(Write::Row(
                    *rows,
                    r,
                    Text::SetAt(Box::new(row), col, letter),
                ));
            }
        }
        if one_row {
            writes.push(Write::Row(*rows, view.row.num(Num::Reg(i), 0), set));
        }
        Ok(Some(writes))
    }
}

/// A row or column of a view as `on_view` checks it: the bind that puts it
/// in register `reg` and fails off the view, or none where it stays on.
struct OnView {
    bind: Option<Bind>,
    reg: Option<u32>,
}

impl OnView {
    /// The place, read: the checked register, or `at` worked out again.
    fn read(&self, c: &mut Compiler<'_>, scope: &mut Scope, at: &Ir) -> Compiled<Num> {
        match self.reg {
            Some(reg) => Ok(Num::Reg(reg)),
            None => c.num(scope, at),
        }
    }
}
