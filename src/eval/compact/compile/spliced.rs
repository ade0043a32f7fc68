//! A string with a run of its letters replaced, written as the pieces
//! around it joined: `slice(row, 0, c) + "##" + slice(row, c + 2,
//! len(row))` is `row` with the letters at `c` and `c + 1` set to `#`,
//! `set_at(set_at(row, c, "#"), c + 1, "#")`, wherever the run lies on
//! the string. Letters set on a row are what the fast paths put on the key
//! (see `letters`), where a string joined from slices is made whole.
//!
//! Where the run does not lie on the string (`c` past its end), the
//! pieces make a longer string, which `set_at` would refuse: the string
//! is then joined as written. Which of the two is made is decided by the
//! rule's facts where they can (see `facts`), and else at each move.

use super::{same_ir, Compiler, Scope};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::Text;
use crate::eval::compact::early::operands;
use crate::eval::engine::Compiled;
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::BinaryOp;

/// A run of letters replaced: `slice(text, 0, start) + letters +
/// slice(text, end, len(text))`, `end` written `start + k` for `k`
/// letters.
pub(super) struct Run<'i> {
    pub text: &'i Ir,
    start: &'i Ir,
    pub letters: &'i str,
    end: &'i Ir,
    head: &'i Ir,
    tail: &'i Ir,
    middle: &'i Ir,
}

impl<'i> Run<'i> {
    /// `ir` as a run of letters replaced, where it is one.
    pub fn of(ir: &'i Ir) -> Option<Run<'i>> {
        let mut pieces = Vec::new();
        operands(ir, BinaryOp::Add, &mut pieces);
        let [head, middle, tail] = pieces[..] else {
            return None;
        };
        let (text, start, letters, end) = run_replaced(head, middle, tail)?;
        Some(Run {
            text,
            start,
            letters,
            end,
            head,
            tail,
            middle,
        })
    }

    /// Whether the run lies on the string: `len(text) >= end and start
    /// >= 0`, read as the string is, first.
    fn fits(&self, span: Span) -> Ir {
        let node = |kind| Ir { kind, span };
        let binary = |op, a: Ir, b: Ir| node(IrKind::Binary(op, Box::new(a), Box::new(b)));
        let len = node(IrKind::Builtin(Builtin::Len, vec![self.text.clone()]));
        binary(
            BinaryOp::And,
            binary(BinaryOp::Ge, len, self.end.clone()),
            binary(
                BinaryOp::Ge,
                self.start.clone(),
                node(IrKind::Lit(Value::Int(0))),
            ),
        )
    }

    /// Where letter `i` of the run goes: `start + i`.
    pub fn place(&self, i: usize, span: Span) -> Ir {
        let node = |kind| Ir { kind, span };
        match i {
            0 => self.start.clone(),
            i => node(IrKind::Binary(
                BinaryOp::Add,
                Box::new(self.start.clone()),
                Box::new(node(IrKind::Lit(Value::Int(i as i64)))),
            )),
        }
    }
}

impl Compiler<'_> {
    /// For `slice(x, 0, a) + "..." + slice(x, a + k, len(x))`, `k` the
    /// length of the string written out: `x` with its letters from `a`
    /// set where they lie on it, else the pieces joined.
    pub(super) fn spliced(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Option<Text>> {
        let Some(run) = Run::of(ir) else {
            return Ok(None);
        };
        let span = ir.span;
        let node = |kind| Ir { kind, span };
        let mut set = run.text.clone();
        for (i, c) in run.letters.chars().enumerate() {
            let letter = node(IrKind::Lit(Value::char(c)));
            set = node(IrKind::Builtin(
                Builtin::SetAt,
                vec![set, run.place(i, span), letter],
            ));
        }
        let joined = Text::Concat(
            Box::new(Text::Concat(
                Box::new(self.text(scope, run.head)?),
                Box::new(self.text(scope, run.middle)?),
            )),
            Box::new(self.text(scope, run.tail)?),
        );
        Ok(Some(Text::If(
            Box::new(self.truth(scope, &run.fits(span))?),
            Box::new(self.text(scope, &set)?),
            Box::new(joined),
        )))
    }
}

/// For `slice(x, 0, a)`, a string written out of `k` letters and
/// `slice(x, b, len(x))` with `b` written `a + k` (or literals `k` apart):
/// `x`, `a`, the letters and `b`.
fn run_replaced<'i>(
    head: &'i Ir,
    middle: &'i Ir,
    tail: &'i Ir,
) -> Option<(&'i Ir, &'i Ir, &'i str, &'i Ir)> {
    let IrKind::Lit(Value::Str(letters)) = &middle.kind else {
        return None;
    };
    if letters.is_empty() || !letters.is_ascii() {
        return None;
    }
    let k = letters.len() as i64;
    let (IrKind::Builtin(Builtin::Slice, a), IrKind::Builtin(Builtin::Slice, b)) =
        (&head.kind, &tail.kind)
    else {
        return None;
    };
    let ([text, zero, start], [again, end, len]) = (&a[..], &b[..]) else {
        return None;
    };
    let whole = matches!(&len.kind, IrKind::Builtin(Builtin::Len, x) if matches!(&x[..], [x] if same_ir(x, text)));
    if !matches!(zero.kind, IrKind::Lit(Value::Int(0))) || !same_ir(text, again) || !whole {
        return None;
    }
    let apart = match (&start.kind, &end.kind) {
        (IrKind::Lit(Value::Int(s)), IrKind::Lit(Value::Int(e))) => e.checked_sub(*s) == Some(k),
        (_, IrKind::Binary(BinaryOp::Add, from, n)) => {
            same_ir(from, start) && matches!(n.kind, IrKind::Lit(Value::Int(n)) if n == k)
        }
        _ => false,
    };
    apart.then_some((text, start, letters, end))
}
