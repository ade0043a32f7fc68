//! Strings and single letters: what a result writes into a string or a
//! grid's row, compiled to `Text` and `Char`.

use super::{letter, Compiler, Scope, Val, TEXTS};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Char, MadeList, Num, Text};
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use crate::types::Type;

impl<'a> Compiler<'a> {
    /// Whether an expression is a string (a letter is a string of one).
    pub(super) fn is_text(&self, scope: &Scope, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Lit(v) => matches!(v, Value::Str(_)),
            IrKind::Local(_) => {
                matches!(
                    self.val(scope, ir),
                    Some(Val::Str(..) | Val::Text(_) | Val::Letter(_))
                ) || self.is_made_str(scope, ir)
            }
            IrKind::Index(target, _) => {
                matches!(
                    self.val(scope, target),
                    Some(Val::Grid(_) | Val::Made(_) | Val::View(..))
                ) || self.is_text(scope, target)
            }
            IrKind::Builtin(Builtin::SetAt | Builtin::Slice | Builtin::Reverse, a) => {
                a.first().is_some_and(|t| self.is_text(scope, t))
            }
            IrKind::Builtin(Builtin::Min | Builtin::Max, a) => written_out(a)
                .first()
                .is_some_and(|t| self.is_text(scope, t)),
            IrKind::Builtin(Builtin::Repeat | Builtin::Join, _) => true,
            IrKind::Binary(BinaryOp::Add, l, r) => self.is_text(scope, l) || self.is_text(scope, r),
            IrKind::If(_, a, b) => self.is_text(scope, a) || self.is_text(scope, b),
            IrKind::CallFn(f, _) => self
                .program
                .functions
                .get(*f as usize)
                .is_some_and(|func| func.ret == Type::Str),
            _ => false,
        }
    }

    /// A string, worked out in the game's alphabet.
    pub(super) fn text(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Text> {
        let refused = || Unsupported::new(TEXTS, ir.span);
        let boxed = |t: Text| Box::new(t);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Str(s)) => {
                Text::Lit(self.layout.word(s).map(|w| (w, s.len() as u32)))
            }
            IrKind::Local(_) => match self.val(scope, ir) {
                Some(Val::Str(f, _)) => Text::Param(f),
                Some(Val::Text(t)) => Text::Reg(t),
                Some(Val::Letter(r)) => Text::Letter(r),
                // A new string read whole: worked out whole.
                Some(Val::Made(_)) if self.is_made_str(scope, ir) => self.made_text(scope, ir)?,
                _ => return Err(refused()),
            },
            IrKind::Index(target, index) => match self.val(scope, target) {
                Some(Val::Grid(rows)) => {
                    Text::Row(rows.fields, rows.cols, Box::new(self.num(scope, index)?))
                }
                Some(Val::Made(_)) if !self.is_made_str(scope, target) => {
                    self.made_row(scope, target, index)?
                }
                Some(Val::View(rows, view)) => self.view_row(scope, (rows, &view), index)?,
                _ => Text::At(
                    boxed(self.text(scope, target)?),
                    Box::new(self.num(scope, index)?),
                ),
            },
            IrKind::Builtin(Builtin::SetAt, a) => match &a[..] {
                [t, i, v] => match self.set_from_own_letter(scope, (t, i, v))? {
                    Some(set) => set,
                    None => Text::SetAt(
                        boxed(self.text(scope, t)?),
                        Box::new(self.num(scope, i)?),
                        boxed(self.text(scope, v)?),
                    ),
                },
                _ => return Err(refused()),
            },
            IrKind::Builtin(Builtin::Slice, a) => match &a[..] {
                [t, from, to] => Text::Slice(
                    boxed(self.text(scope, t)?),
                    Box::new(self.num(scope, from)?),
                    Box::new(self.num(scope, to)?),
                ),
                _ => return Err(refused()),
            },
            IrKind::Builtin(Builtin::Repeat, a) => match &a[..] {
                [t, n] => Text::Repeat(boxed(self.text(scope, t)?), Box::new(self.num(scope, n)?)),
                _ => return Err(refused()),
            },
            IrKind::Binary(BinaryOp::Add, l, r) => match self.spliced(scope, ir)? {
                Some(spliced) => spliced,
                None => Text::Concat(boxed(self.text(scope, l)?), boxed(self.text(scope, r)?)),
            },
            IrKind::Builtin(Builtin::Join, a) => match (&a[..], a.first().map(|l| &l.kind)) {
                // Pieces written out (`join([slice(s, 0, i), "##", rest])`):
                // one after another, as `+` puts them.
                ([_], Some(IrKind::List(pieces))) => {
                    let (first, rest) = pieces.split_first().ok_or_else(refused)?;
                    let mut joined = self.text(scope, first)?;
                    for piece in rest {
                        joined = Text::Concat(boxed(joined), boxed(self.text(scope, piece)?));
                    }
                    joined
                }
                ([list], _) => Text::Joined(Box::new(self.joined(scope, list, TEXTS)?)),
                _ => return Err(refused()),
            },
            IrKind::If(cond, then, otherwise) => Text::If(
                Box::new(self.truth(scope, cond)?),
                boxed(self.text(scope, then)?),
                boxed(self.text(scope, otherwise)?),
            ),
            IrKind::Builtin(Builtin::Reverse, a) => match &a[..] {
                [t] => Text::Reversed(boxed(self.text(scope, t)?)),
                _ => return Err(refused()),
            },
            // A string chosen among some written out (`min([b,
            // reverse(b)])`, a board and its mirror image).
            IrKind::Builtin(b @ (Builtin::Min | Builtin::Max), a) if !written_out(a).is_empty() => {
                let texts = written_out(a).iter().map(|t| self.text(scope, t));
                Text::Least(*b == Builtin::Max, texts.collect::<Compiled<_>>()?)
            }
            IrKind::CallFn(f, args) => self.inline(scope, ir, *f, args, Self::text, |b, t| {
                Text::Let(b, Box::new(t))
            })?,
            _ => return Err(refused()),
        })
    }

    /// `[letter for walk]`, the list `join` makes one string of, as the
    /// letters' codes: each element one letter the compiled code reads
    /// without working out a string.
    pub(super) fn joined(&mut self, scope: &Scope, list: &Ir, what: &str) -> Compiled<MadeList> {
        self.made_list_of(scope, list, what, |c, scope, each| {
            Ok(letter_code(c.char(scope, each)?))
        })
    }

    /// Whether an expression is one letter read without working out a
    /// string: a literal, a string parameter's cell, a letter argument.
    pub(super) fn is_letter(&self, scope: &Scope, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Index(target, _) => match &target.kind {
                IrKind::Index(grid, _) => {
                    matches!(self.val(scope, grid), Some(Val::Grid(_) | Val::View(..)))
                }
                _ => {
                    matches!(self.val(scope, target), Some(Val::Str(..)))
                        || self.is_made_str(scope, target)
                }
            },
            IrKind::Local(_) => matches!(self.val(scope, ir), Some(Val::Letter(_))),
            _ => letter(ir).is_some(),
        }
    }

    /// A letter, as its code in the game's alphabet (-1 for a literal
    /// outside it): read directly where it can be, `if` and helpers worked
    /// out on codes, anything else through its string.
    pub(super) fn char(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Char> {
        if let Some(c) = letter(ir) {
            let code = self.layout.alphabet.binary_search(&c);
            return Ok(Char::Code(code.map_or(-1, |i| i as i64)));
        }
        match &ir.kind {
            IrKind::Index(target, index) => {
                if let Some(Val::Str(g, _)) = self.val(scope, target) {
                    return Ok(Char::Cell(g, Box::new(self.num(scope, index)?)));
                }
                if self.is_made_str(scope, target) {
                    return self.made_char(scope, target, index);
                }
                if let IrKind::Index(grid, row) = &target.kind {
                    match self.val(scope, grid) {
                        Some(Val::Grid(rows)) => {
                            let r = self.num(scope, row)?;
                            let c = self.num(scope, index)?;
                            return Ok(Char::GridCell(rows, Box::new(r), Box::new(c)));
                        }
                        Some(Val::View(rows, view)) => {
                            return self.view_cell(scope, (rows, &view), row, index);
                        }
                        _ => {}
                    }
                }
            }
            IrKind::Local(_) => {
                if let Some(Val::Letter(r)) = self.val(scope, ir) {
                    return Ok(Char::Reg(r));
                }
            }
            IrKind::If(cond, then, otherwise) => {
                return Ok(Char::If(
                    Box::new(self.truth(scope, cond)?),
                    Box::new(self.char(scope, then)?),
                    Box::new(self.char(scope, otherwise)?),
                ))
            }
            IrKind::CallFn(f, args) => {
                return self.inline(scope, ir, *f, args, Self::char, |b, c| {
                    Char::Let(b, Box::new(c))
                })
            }
            _ => {}
        }
        Ok(Char::Text(Box::new(self.text(scope, ir)?)))
    }
}

/// A letter as the number its cell holds: read directly where it can
/// be (a cell, a literal, a helper's letter argument, and `if` and helpers
/// over those), else through its code. A literal outside the alphabet is
/// -1, which no field holds: the interpreter makes such a position.
pub(super) fn letter_code(c: Char) -> Num {
    match c {
        Char::Cell(f, i) => Num::Field(f, i),
        Char::Code(code) => Num::Lit(code),
        Char::Reg(r) => Num::Reg(r),
        Char::If(t, a, b) => Num::If(t, Box::new(letter_code(*a)), Box::new(letter_code(*b))),
        Char::Let(bind, c) => Num::Let(bind, Box::new(letter_code(*c))),
        c @ (Char::GridCell(..) | Char::Text(_)) => Num::Code(Box::new(c)),
    }
}

/// The values `min` or `max` chooses among when they are written out: its
/// arguments, or the elements of the one list literal it is given (none
/// for a list worked out).
fn written_out(args: &[Ir]) -> &[Ir] {
    match args {
        [one] => match &one.kind {
            IrKind::List(items) => items,
            _ => &[],
        },
        many => many,
    }
}
