//! Helpers that make a parameter's new value, compiled in place. A helper
//! called in a move's result (`cover(board, r, c)`) writes what its body
//! writes, its number arguments put in registers first. An argument that
//! is itself a new grid made from the parameter (`cover(cover(g, r, c),
//! r, c + 1)`) is not worked out at the call: the helper's body reads it
//! and writes it where it uses it, the expression compiled there in the
//! caller's scope. Every such argument must be written into the result,
//! so that every error making it meets is met by the compiled code too.

use super::types::list_of_numbers;
use super::{Compiler, Scope, Val, MAX_INLINE};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, Char, Num, Rows, Text, Truth, Write};
use crate::eval::compact::layout::{Fields, Group};
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::syntax::ast::BinaryOp;
use crate::types::Type;
use std::cell::Cell;
use std::rc::Rc;

/// What a made argument is a new value of.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Base {
    Grid(Rows),
    Str(Fields),
    List(Fields),
}

/// A new grid or string given to a helper: the expression that makes it,
/// and the scope of the call it is read in.
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
            (Some(Val::List(f) | Val::Str(f, _)), Group::Sized { items, .. }) => {
                f.first == items.first
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
        let fits = match self.made_of(scope, arg, 0)? {
            Base::Grid(_) => grid,
            Base::Str(_) => *ty == Type::Str,
            Base::List(_) => list_of_numbers(ty),
        };
        fits.then(|| made(scope, arg))
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

    /// The two branches of an `if` made by `branch` (`true` for the one
    /// taken when the test holds): a made argument counts as written only
    /// where both write it, since the interpreter makes it before either
    /// is taken and meets its errors whichever is.
    pub(super) fn written_in_both<T>(
        &mut self,
        scope: &mut Scope,
        mut branch: impl FnMut(&mut Self, &mut Scope, bool) -> Compiled<T>,
    ) -> Compiled<(T, T)> {
        let made: Vec<Rc<Made>> = (scope.iter().flatten())
            .filter_map(|v| match v {
                Val::Made(m) => Some(Rc::clone(m)),
                _ => None,
            })
            .collect();
        let before: Vec<bool> = made.iter().map(|m| m.written.get()).collect();
        let then = branch(self, scope, true)?;
        let after_then: Vec<bool> = made.iter().map(|m| m.written.get()).collect();
        for (m, &was) in made.iter().zip(&before) {
            m.written.set(was);
        }
        let otherwise = branch(self, scope, false)?;
        for (m, &then_wrote) in made.iter().zip(&after_then) {
            m.written.set(then_wrote && m.written.get());
        }
        Ok((then, otherwise))
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

    /// The string parameter that `ir` is a new value of, through `set_at`,
    /// `if`, helpers and made arguments.
    fn str_fields(&self, scope: &Scope, ir: &Ir) -> Option<Fields> {
        match self.made_of(scope, ir, 0)? {
            Base::Str(f) => Some(f),
            Base::Grid(_) | Base::List(_) => None,
        }
    }

    /// The length of a made argument: its parameter's, which `set_at`
    /// keeps (a string's letter is one letter, a grid's row one row, a
    /// list's element one element).
    pub(super) fn made_len(&self, scope: &Scope, ir: &Ir) -> Option<Num> {
        let len = match self.made_of(scope, ir, 0)? {
            Base::Grid(rows) => rows.fields.len,
            Base::Str(f) | Base::List(f) => f.len,
        };
        Some(Num::Lit(i64::from(len)))
    }

    /// The length of row `index` of a made grid whose every row written
    /// is a row of it with letters set (`set_at(g, r, set_at(g[r], c,
    /// "#"))`), which keeps each row as long as the parameter's: an index
    /// off the board reads no row, so that the interpreter reports it.
    pub(super) fn made_row_len(
        &mut self,
        scope: &mut Scope,
        grid: &Ir,
        index: &Ir,
    ) -> Compiled<Option<Num>> {
        // The parameter's own rows are read as they are.
        if matches!(self.val(scope, grid), Some(Val::Grid(_))) {
            return Ok(None);
        }
        let Some(Base::Grid(rows)) = self.made_of(scope, grid, 0) else {
            return Ok(None);
        };
        if !self.keeps_rows(scope, grid, 0) {
            return Ok(None);
        }
        let at = self.num(scope, index)?;
        let reg = self.reg();
        let inside = Truth::And(
            Box::new(Truth::Compare(BinaryOp::Ge, Num::Reg(reg), Num::Lit(0))),
            Box::new(Truth::Compare(
                BinaryOp::Lt,
                Num::Reg(reg),
                Num::Lit(i64::from(rows.fields.len)),
            )),
        );
        let len = Num::If(
            Box::new(inside),
            Box::new(Num::Lit(i64::from(rows.cols))),
            Box::new(Num::Item(Rc::from([]), Box::new(Num::Lit(0)))),
        );
        let bind = Bind::Num {
            reg,
            value: at,
            nat: false,
        };
        Ok(Some(Num::Let(Box::new(bind), Box::new(len))))
    }

    /// Whether every row a made grid's chain writes keeps its length.
    fn keeps_rows(&self, scope: &Scope, ir: &Ir, depth: u32) -> bool {
        match &ir.kind {
            IrKind::Local(_) => match self.val(scope, ir) {
                Some(Val::Grid(_)) => true,
                Some(Val::Made(m)) => self.keeps_rows(&m.scope, &m.ir, depth),
                _ => false,
            },
            IrKind::Builtin(Builtin::SetAt, a) => match &a[..] {
                [target, _, row] => {
                    self.keeps_rows(scope, target, depth) && self.is_kept_row(scope, row, depth)
                }
                _ => false,
            },
            IrKind::If(_, a, b) => {
                self.keeps_rows(scope, a, depth) && self.keeps_rows(scope, b, depth)
            }
            IrKind::CallFn(f, args) if self.depth + depth < MAX_INLINE => {
                let Some(func) = self.program.functions.get(*f as usize) else {
                    return false;
                };
                let mut inner: Scope = vec![None; func.frame_size.max(args.len())];
                for (slot, arg) in inner.iter_mut().zip(args) {
                    *slot = Some(self.val(scope, arg).unwrap_or_else(|| made(scope, arg)));
                }
                self.keeps_rows(&inner, &func.body, depth + 1)
            }
            _ => false,
        }
    }

    /// Whether `row` is a row of a grid that keeps its rows, with letters
    /// set: a string's `set_at` sets one letter.
    fn is_kept_row(&self, scope: &Scope, row: &Ir, depth: u32) -> bool {
        match &row.kind {
            IrKind::Builtin(Builtin::SetAt, a) => {
                matches!(&a[..], [text, _, _] if self.is_kept_row(scope, text, depth))
            }
            IrKind::Index(grid, _) => self.keeps_rows(scope, grid, depth),
            IrKind::If(_, a, b) => {
                self.is_kept_row(scope, a, depth) && self.is_kept_row(scope, b, depth)
            }
            _ => false,
        }
    }

    /// Whether `ir` is a made argument holding a new string.
    pub(super) fn is_made_str(&self, scope: &Scope, ir: &Ir) -> bool {
        matches!(self.val(scope, ir), Some(Val::Made(_))) && self.str_fields(scope, ir).is_some()
    }

    /// The grid or string parameter `ir` is a new value of, inside helpers
    /// `depth` deep.
    fn made_of(&self, scope: &Scope, ir: &Ir, depth: u32) -> Option<Base> {
        match &ir.kind {
            IrKind::Local(_) => match self.val(scope, ir)? {
                Val::Grid(rows) => Some(Base::Grid(rows)),
                Val::Str(f, _) => Some(Base::Str(f)),
                Val::List(f) => Some(Base::List(f)),
                Val::Made(m) => self.made_of(&m.scope, &m.ir, depth),
                _ => None,
            },
            IrKind::Builtin(Builtin::SetAt, a) => self.made_of(scope, a.first()?, depth),
            IrKind::If(_, a, b) => {
                let base = self.made_of(scope, a, depth)?;
                (self.made_of(scope, b, depth)? == base).then_some(base)
            }
            IrKind::CallFn(f, args) if self.depth + depth < MAX_INLINE => {
                let func = self.program.functions.get(*f as usize)?;
                // Only the grids passed on matter: what the others hold
                // does not change which parameter the body is made from.
                let mut inner: Scope = vec![None; func.frame_size.max(args.len())];
                for (slot, arg) in inner.iter_mut().zip(args) {
                    *slot = Some(self.val(scope, arg).unwrap_or_else(|| made(scope, arg)));
                }
                self.made_of(&inner, &func.body, depth + 1)
            }
            _ => None,
        }
    }

    /// Row `index` of a new grid: each `set_at` on the way down is a test
    /// of the index, the parameter's row read where none holds.
    pub(super) fn made_row(&mut self, scope: &mut Scope, grid: &Ir, index: &Ir) -> Compiled<Text> {
        self.made_part(scope, grid, index)
    }

    /// Letter `index` of a new string, as `made_row` reads a row.
    pub(super) fn made_char(&mut self, scope: &mut Scope, text: &Ir, index: &Ir) -> Compiled<Char> {
        self.made_part(scope, text, index)
    }

    /// Element `index` of a new list of numbers, as `made_row` reads a row.
    pub(super) fn made_element(
        &mut self,
        scope: &mut Scope,
        list: &Ir,
        index: &Ir,
    ) -> Compiled<Num> {
        self.made_part(scope, list, index)
    }

    /// Element `index` of a new grid, string or list.
    fn made_part<P: Part>(&mut self, scope: &mut Scope, made: &Ir, index: &Ir) -> Compiled<P> {
        let value = self.num(scope, index)?;
        let reg = self.reg();
        let part = self.part_at(scope, made, reg)?;
        let bind = Bind::Num {
            reg,
            value,
            nat: false,
        };
        Ok(P::bound(bind, part))
    }

    /// Element `reg` (a register) of a new grid or string.
    fn part_at<P: Part>(&mut self, scope: &mut Scope, made: &Ir, reg: u32) -> Compiled<P> {
        let refused = || Unsupported::new(ROWS, made.span);
        Ok(match &made.kind {
            IrKind::Local(_) => match self.val(scope, made) {
                Some(Val::Made(m)) => self.part_at(&mut m.scope.clone(), &m.ir, reg)?,
                Some(v) => P::of_param(&v, Num::Reg(reg)).ok_or_else(refused)?,
                None => return Err(refused()),
            },
            IrKind::Builtin(Builtin::SetAt, a) => {
                let [target, at, value] = &a[..] else {
                    return Err(refused());
                };
                let base = self.made_of(scope, target, 0).ok_or_else(refused)?;
                // `set_at` past the end is an error: the read of that
                // element of the parameter meets it.
                let at_value = self.num(scope, at)?;
                let at_reg = self.reg();
                let at = || Num::Reg(at_reg);
                let (len, param) = match base {
                    Base::Grid(rows) => (rows.fields.len, Val::Grid(rows)),
                    Base::Str(f) => (f.len, Val::Str(f, Vec::new())),
                    Base::List(f) => (f.len, Val::List(f)),
                };
                let missing = P::of_param(&param, at()).ok_or_else(refused)?;
                let inside = Truth::Compare(BinaryOp::Lt, at(), Num::Lit(i64::from(len)));
                let written = P::choose(inside, P::value(self, scope, value)?, missing);
                let before = self.part_at(scope, target, reg)?;
                let same = Truth::Compare(BinaryOp::Eq, Num::Reg(reg), at());
                let bind = Bind::Num {
                    reg: at_reg,
                    value: at_value,
                    nat: true,
                };
                P::bound(bind, P::choose(same, written, before))
            }
            IrKind::If(test, a, b) => {
                let test = self.truth(scope, test)?;
                let (a, b) = (self.part_at(scope, a, reg)?, self.part_at(scope, b, reg)?);
                P::choose(test, a, b)
            }
            // The made value a helper returns is part of one that is
            // written, so its arguments may be made where they are read.
            IrKind::CallFn(f, args) => {
                let (binds, mut inner, body) = self.enter(scope, made, *f, args, true)?;
                let part = self.part_at(&mut inner, body, reg);
                self.depth -= 1;
                let mut part = part?;
                for b in binds.into_iter().rev() {
                    part = P::bound(b, part);
                }
                part
            }
            _ => return Err(refused()),
        })
    }

    /// A made argument's whole string, worked out in its caller's scope.
    pub(super) fn made_text(&mut self, scope: &Scope, ir: &Ir) -> Compiled<Text> {
        let Some(Val::Made(m)) = self.val(scope, ir) else {
            return Err(Unsupported::new(ROWS, ir.span));
        };
        self.text(&mut m.scope.clone(), &m.ir)
    }
}

/// An element of a made grid or string: a row's text, or a letter.
trait Part: Sized {
    /// Element `at` of grid or string parameter `param`.
    fn of_param(param: &Val, at: Num) -> Option<Self>;
    /// An element written, as the code works it out.
    fn value(c: &mut Compiler<'_>, scope: &mut Scope, ir: &Ir) -> Compiled<Self>;
    fn choose(test: Truth, then: Self, otherwise: Self) -> Self;
    fn bound(bind: Bind, body: Self) -> Self;
}

impl Part for Text {
    fn of_param(param: &Val, at: Num) -> Option<Text> {
        match param {
            Val::Grid(rows) => Some(Text::Row(rows.fields, rows.cols, Box::new(at))),
            _ => None,
        }
    }

    fn value(c: &mut Compiler<'_>, scope: &mut Scope, ir: &Ir) -> Compiled<Text> {
        c.text(scope, ir)
    }

    fn choose(test: Truth, then: Text, otherwise: Text) -> Text {
        Text::If(Box::new(test), Box::new(then), Box::new(otherwise))
    }

    fn bound(bind: Bind, body: Text) -> Text {
        Text::Let(Box::new(bind), Box::new(body))
    }
}

impl Part for Char {
    fn of_param(param: &Val, at: Num) -> Option<Char> {
        match param {
            Val::Str(f, _) => Some(Char::Cell(*f, Box::new(at))),
            _ => None,
        }
    }

    fn value(c: &mut Compiler<'_>, scope: &mut Scope, ir: &Ir) -> Compiled<Char> {
        c.char(scope, ir)
    }

    fn choose(test: Truth, then: Char, otherwise: Char) -> Char {
        Char::If(Box::new(test), Box::new(then), Box::new(otherwise))
    }

    fn bound(bind: Bind, body: Char) -> Char {
        Char::Let(Box::new(bind), Box::new(body))
    }
}

impl Part for Num {
    fn of_param(param: &Val, at: Num) -> Option<Num> {
        match param {
            Val::List(f) => Some(Num::Field(*f, Box::new(at))),
            _ => None,
        }
    }

    fn value(c: &mut Compiler<'_>, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        c.num(scope, ir)
    }

    fn choose(test: Truth, then: Num, otherwise: Num) -> Num {
        Num::If(Box::new(test), Box::new(then), Box::new(otherwise))
    }

    fn bound(bind: Bind, body: Num) -> Num {
        Num::Let(Box::new(bind), Box::new(body))
    }
}
