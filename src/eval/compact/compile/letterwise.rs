//! A string made from a board compared with a string written out, read as
//! the letters it compares: `slice(g[r], c, c + 2) == ".."` is
//! `len(g[r]) >= c + 2 and c >= 0 and g[r][c] == "." and g[r][c + 1] ==
//! "."`, and `g[r][c] + g[r + 1][c] == ".."` is `g[r][c] == "." and g[r +
//! 1][c] == "."`. Letters of the board compared with letters are what the
//! shapes that read a row at once (a plane of the grid) read, where a
//! string made at each move is not.
//!
//! Both ask exactly what the comparison asks, and meet the errors it
//! meets:
//!
//! - a slice never fails past the string's ends (it stops at them), so a
//!   slice of the literal's length starts at 0 or later and ends at the
//!   string's end or before; the letters are read only then, and the
//!   string is read first, as the slice reads it;
//! - a string joined from letters reads every letter, so each letter but
//!   the first must be one read without fail, a cell of a grid held in the
//!   key at places the generators' ranges keep on the board (see
//!   `Compiler::within`); else the strings are compared as they are.

use super::{same_ir, Compiler, Scope};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Char, Truth};
use crate::eval::compact::early::operands;
use crate::eval::engine::Compiled;
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::BinaryOp;

impl Compiler<'_> {
    /// `l == r` (`eq`) or `l != r` of strings, letter by letter where one
    /// side is written out and the other is a slice of its length or
    /// letters joined: `None` where it is neither.
    pub(super) fn letterwise(
        &mut self,
        scope: &mut Scope,
        eq: bool,
        l: &Ir,
        r: &Ir,
    ) -> Compiled<Option<Truth>> {
        let (made, written) = match (written_out(l), written_out(r)) {
            (None, Some(s)) => (l, s),
            (Some(s), None) => (r, s),
            _ => return Ok(None),
        };
        if written.chars().count() < 2 || !written.is_ascii() {
            return Ok(None);
        }
        let tests = match &made.kind {
            IrKind::Builtin(Builtin::Slice, a) => match &a[..] {
                [text, from, to] => slice_letters(text, from, to, written),
                _ => None,
            },
            IrKind::Binary(BinaryOp::Add, ..) => self.joined_letters(scope, made, written),
            _ => None,
        };
        let Some(tests) = tests else {
            return Ok(None);
        };
        let all = self.truth(scope, &tests)?;
        Ok(Some(if eq { all } else { Truth::Not(Box::new(all)) }))
    }

    /// For letters joined that spell `written`'s length, each after the
    /// first read without fail: each compared with its letter.
    fn joined_letters(&mut self, scope: &mut Scope, made: &Ir, written: &str) -> Option<Ir> {
        let mut pieces = Vec::new();
        operands(made, BinaryOp::Add, &mut pieces);
        if pieces.len() != written.len() {
            return None;
        }
        for (i, piece) in pieces.iter().enumerate() {
            if !self.is_letter(scope, piece) {
                return None;
            }
            if i > 0 && !self.read_without_fail(scope, piece) {
                return None;
            }
        }
        let span = made.span;
        let tests = pieces
            .into_iter()
            .zip(written.chars())
            .map(|(piece, c)| same(piece.clone(), c, span));
        tests.reduce(|a, b| both(a, b, span))
    }

    /// Whether reading the letter `ir` cannot fail: a cell of a grid held
    /// in the key at a row and column the ranges keep on the board.
    fn read_without_fail(&mut self, scope: &mut Scope, ir: &Ir) -> bool {
        match self.char(scope, ir) {
            Ok(Char::GridCell(rows, r, c)) => {
                self.within(&r, i64::from(rows.fields.len)) && self.within(&c, i64::from(rows.cols))
            }
            Ok(Char::Code(_) | Char::Reg(_)) => true,
            _ => false,
        }
    }
}

/// For `slice(text, from, from + k)` with `k` the length of `written`:
/// `len(text) >= from + k and from >= 0` and each letter compared.
fn slice_letters(text: &Ir, from: &Ir, to: &Ir, written: &str) -> Option<Ir> {
    let k = written.len() as i64;
    let length = match (&from.kind, &to.kind) {
        (IrKind::Lit(Value::Int(a)), IrKind::Lit(Value::Int(b))) => b.checked_sub(*a)?,
        (_, IrKind::Binary(BinaryOp::Add, start, n)) if same_ir(start, from) => match n.kind {
            IrKind::Lit(Value::Int(n)) => n,
            _ => return None,
        },
        _ => return None,
    };
    if length != k {
        return None;
    }
    let span = to.span;
    let ir = |kind| Ir { kind, span };
    let int = |n: i64| ir(IrKind::Lit(Value::Int(n)));
    let binary = |op, a: Ir, b: Ir| ir(IrKind::Binary(op, Box::new(a), Box::new(b)));
    // The string first, as the slice reads it before its ends.
    let len = ir(IrKind::Builtin(Builtin::Len, vec![text.clone()]));
    let fits = binary(BinaryOp::Ge, len, to.clone());
    let starts = binary(BinaryOp::Ge, from.clone(), int(0));
    let letters = written.chars().enumerate().map(|(i, c)| {
        let at = match i {
            0 => from.clone(),
            i => binary(BinaryOp::Add, from.clone(), int(i as i64)),
        };
        let cell = ir(IrKind::Index(Box::new(text.clone()), Box::new(at)));
        same(cell, c, span)
    });
    [fits, starts]
        .into_iter()
        .chain(letters)
        .reduce(|a, b| both(a, b, span))
}

/// The string a literal writes out.
fn written_out(ir: &Ir) -> Option<&str> {
    match &ir.kind {
        IrKind::Lit(Value::Str(s)) => Some(s),
        _ => None,
    }
}

fn same(letter: Ir, c: char, span: Span) -> Ir {
    let c = Ir {
        kind: IrKind::Lit(Value::char(c)),
        span,
    };
    Ir {
        kind: IrKind::Binary(BinaryOp::Eq, Box::new(letter), Box::new(c)),
        span,
    }
}

fn both(a: Ir, b: Ir, span: Span) -> Ir {
    Ir {
        kind: IrKind::Binary(BinaryOp::And, Box::new(a), Box::new(b)),
        span,
    }
}
