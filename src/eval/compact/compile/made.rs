//! Helpers that make a parameter's new value, compiled in place. A helper
//! called in a move's result (`cover(board, r, c)`) writes what its body
//! writes, its number arguments put in registers first. An argument that
//! is itself a new grid made from the parameter (`cover(cover(g, r, c),
//! r, c + 1)`) is not worked out at the call: the helper's body reads it
//! and writes it where it uses it, the expression compiled there in the
//! caller's scope. Every such argument must be written into the result,
//! so that every error making it meets is met by the compiled code too.

use super::{Compiler, Scope, Val, MAX_INLINE};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, Num, Rows, Text, Truth, Write};
use crate::eval::compact::layout::Group;
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::syntax::ast::BinaryOp;
use crate::types::Type;
use std::cell::Cell;
use std::rc::Rc;

/// A new grid given to a helper: the expression that makes it, and the
/// scope of the call it is read in.
#[derive(Debug)]
pub(in crate::eval::compact) struct Made {
    ir: Ir,
    scope: Scope,
    /// Whether the helper's result writes it.
    written: Cell<bool>,
}

/// What a helper is told when a made argument is never written.
const UNWRITTEN: &str = "a new grid passed to a helper that does not make its result from it: \
     the compiled search works out such an argument only where the result writes it";

/// What it is told of a grid it cannot read a row of.
const ROWS: &str = "a row of a new grid the compiled search cannot read: it reads rows of \
     `set_at` chains on the grid parameter, `if` and helpers";

/// `arg` to be made where it is used, in `scope`.
fn made(scope: &Scope, arg: &Ir) -> Val {
    Val::Made(Rc::new(Made {
        ir: arg.clone(),
        scope: scope.clone(),
        written: Cell::new(false),
    }))
}

impl Compiler<'_> {
    /// Whether `ir` is parameter `group` itself, however many helpers it
    /// was passed through.
    pub(super) fn is_param(&self, scope: &Scope, ir: &Ir, group: &Group) -> bool {
        match (self.val(scope, ir), group) {
            (Some(Val::List(f)), Group::List(g)) | (Some(Val::Bools(f)), Group::Bools(g)) => {
                f == *g
            }
            (Some(Val::Str(f, _)), Group::Str(g, _)) => f == *g,
            (Some(Val::Grid(r)), Group::Grid(g)) => r == *g,
            (Some(Val::Made(m)), _) => self.is_param(&m.scope, &m.ir, group),
            _ => false,
        }
    }

    /// An argument of a helper called in a result: a grid the caller makes
    /// is made where the body uses it.
    pub(super) fn made_argument(&self, scope: &Scope, ty: &Type, arg: &Ir) -> Option<Val> {
        let grid = matches!(ty, Type::Grid) || matches!(ty, Type::List(t) if **t == Type::Str);
        (grid && self.grid_rows(scope, arg).is_some()).then(|| made(scope, arg))
    }

    /// Turns down a helper's body whose result leaves out a made argument.
    pub(super) fn check_written(&self, inner: &Scope, call: &Ir) -> Compiled<()> {
        let unwritten = inner
            .iter()
            .flatten()
            .any(|v| matches!(v, Val::Made(m) if !m.written.get()));
        if unwritten {
            return Err(Unsupported::new(UNWRITTEN, call.span));
        }
        Ok(())
    }

    /// The writes of a made argument, where the result uses it.
    pub(super) fn made_writes(
        &mut self,
        scope: &Scope,
        ir: &Ir,
        param: usize,
        group: &Group,
        out: &mut Vec<Write>,
    ) -> Option<Compiled<()>> {
        let Some(Val::Made(m)) = self.val(scope, ir) else {
            return None;
        };
        m.written.set(true);
        Some(self.writes(&mut m.scope.clone(), &m.ir, param, group, out))
    }

    /// The grid parameter that `ir` is a new value of, through `set_at`,
    /// `if`, helpers and made arguments.
    pub(super) fn grid_rows(&self, scope: &Scope, ir: &Ir) -> Option<Rows> {
        self.grid_rows_within(scope, ir, 0)
    }

    /// `grid_rows`, inside helpers `depth` deep.
    fn grid_rows_within(&self, scope: &Scope, ir: &Ir, depth: u32) -> Option<Rows> {
        match &ir.kind {
            IrKind::Local(_) => match self.val(scope, ir)? {
                Val::Grid(rows) => Some(rows),
                Val::Made(m) => self.grid_rows_within(&m.scope, &m.ir, depth),
                _ => None,
            },
            IrKind::Builtin(Builtin::SetAt, a) => self.grid_rows_within(scope, a.first()?, depth),
            IrKind::If(_, a, b) => {
                let rows = self.grid_rows_within(scope, a, depth)?;
                (self.grid_rows_within(scope, b, depth)? == rows).then_some(rows)
            }
            IrKind::CallFn(f, args) if self.depth + depth < MAX_INLINE => {
                let func = self.program.functions.get(*f as usize)?;
                // Only the grids passed on matter: what the others hold
                // does not change which parameter the body is made from.
                let mut inner: Scope = vec![None; func.frame_size.max(args.len())];
                for (slot, arg) in inner.iter_mut().zip(args) {
                    *slot = Some(self.val(scope, arg).unwrap_or_else(|| made(scope, arg)));
                }
                self.grid_rows_within(&inner, &func.body, depth + 1)
            }
            _ => None,
        }
    }

    /// Row `index` of a new grid: each `set_at` on the way down is a test
    /// of the index, the parameter's row read where none holds.
    pub(super) fn made_row(&mut self, scope: &mut Scope, grid: &Ir, index: &Ir) -> Compiled<Text> {
        let value = self.num(scope, index)?;
        let reg = self.reg();
        let row = self.row_at(scope, grid, reg)?;
        Ok(Text::Let(
            Box::new(Bind::Num {
                reg,
                value,
                nat: false,
            }),
            Box::new(row),
        ))
    }

    /// Row `reg` (a register) of a new grid.
    fn row_at(&mut self, scope: &mut Scope, grid: &Ir, reg: u32) -> Compiled<Text> {
        let refused = || Unsupported::new(ROWS, grid.span);
        Ok(match &grid.kind {
            IrKind::Local(_) => match self.val(scope, grid) {
                Some(Val::Grid(rows)) => Text::Row(rows.fields, rows.cols, Box::new(Num::Reg(reg))),
                Some(Val::Made(m)) => self.row_at(&mut m.scope.clone(), &m.ir, reg)?,
                _ => return Err(refused()),
            },
            IrKind::Builtin(Builtin::SetAt, a) => {
                let [target, at, row] = &a[..] else {
                    return Err(refused());
                };
                let rows = self.grid_rows(scope, target).ok_or_else(refused)?;
                // `set_at` at a row the grid does not have is an error: the
                // read of that row of the parameter meets it.
                let at_value = self.num(scope, at)?;
                let at_reg = self.reg();
                let at = || Num::Reg(at_reg);
                let missing = Text::Row(rows.fields, rows.cols, Box::new(at()));
                let inside =
                    Truth::Compare(BinaryOp::Lt, at(), Num::Lit(i64::from(rows.fields.len)));
                let written = Text::If(
                    Box::new(inside),
                    Box::new(self.text(scope, row)?),
                    Box::new(missing),
                );
                let before = self.row_at(scope, target, reg)?;
                let chosen = Text::If(
                    Box::new(Truth::Compare(BinaryOp::Eq, Num::Reg(reg), at())),
                    Box::new(written),
                    Box::new(before),
                );
                Text::Let(
                    Box::new(Bind::Num {
                        reg: at_reg,
                        value: at_value,
                        nat: true,
                    }),
                    Box::new(chosen),
                )
            }
            IrKind::If(test, a, b) => Text::If(
                Box::new(self.truth(scope, test)?),
                Box::new(self.row_at(scope, a, reg)?),
                Box::new(self.row_at(scope, b, reg)?),
            ),
            // The made grid a helper returns is part of one that is
            // written, so its arguments may be made where they are read.
            IrKind::CallFn(f, args) => {
                let (binds, mut inner, body) = self.enter(scope, grid, *f, args, true)?;
                let row = self.row_at(&mut inner, body, reg);
                self.depth -= 1;
                let mut row = row?;
                for b in binds.into_iter().rev() {
                    row = Text::Let(Box::new(b), Box::new(row));
                }
                row
            }
            _ => return Err(refused()),
        })
    }
}
