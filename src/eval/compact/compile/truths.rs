//! Conditions: comparisons, `and`, `or`, `not`, `has` and `in`, compiled
//! to `Truth`.

use super::types::tuple_items;
use super::{letter, Compiler, Scope, Val, CONDITIONS};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Char, Num, Seq, Truth, Walk};
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};

impl<'a> Compiler<'a> {
    pub(in crate::eval::compact) fn truth(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
    ) -> Compiled<Truth> {
        use BinaryOp::*;
        let refused = || Unsupported::new(CONDITIONS, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Bool(b)) => Truth::Lit(*b),
            IrKind::Const(_) if matches!(self.known(ir), Some(Value::Bool(_))) => {
                Truth::Lit(matches!(self.known(ir), Some(Value::Bool(true))))
            }
            IrKind::Local(_) if matches!(self.val(scope, ir), Some(Val::Flag(_))) => {
                let Some(Val::Flag(r)) = self.val(scope, ir) else {
                    return Err(refused());
                };
                Truth::Compare(Ne, Num::Reg(r), Num::Lit(0))
            }
            IrKind::If(cond, then, otherwise) => {
                // (c and a) or (not c and b), with c tested once: as numbers.
                let n = Num::If(
                    Box::new(self.truth(scope, cond)?),
                    Box::new(self.flag(scope, then)?),
                    Box::new(self.flag(scope, otherwise)?),
                );
                Truth::Compare(Ne, n, Num::Lit(0))
            }
            IrKind::Binary(op @ (Eq | Ne), l, r) if tuple_items(l).is_some() => {
                // Tuples are equal when every element is: `(c, t) != (0, 0)`
                // is `c != 0 or t != 0`.
                let (Some(ls), Some(rs)) = (tuple_items(l), tuple_items(r)) else {
                    return Err(refused());
                };
                if ls.len() != rs.len() {
                    return Err(refused());
                }
                let slots = scope.len();
                let mut binds = Vec::new();
                let ls = self.worked_out(scope, ls, &mut binds)?;
                let rs = self.worked_out(scope, rs, &mut binds)?;
                let mut all = Truth::Lit(true);
                for (a, b) in ls.into_iter().zip(rs).rev() {
                    let pair = Ir {
                        kind: IrKind::Binary(Eq, Box::new(a), Box::new(b)),
                        span: ir.span,
                    };
                    all = Truth::And(Box::new(self.truth(scope, &pair)?), Box::new(all));
                }
                scope.truncate(slots);
                if *op == Ne {
                    all = Truth::Not(Box::new(all));
                }
                for b in binds.into_iter().rev() {
                    all = Truth::Let(Box::new(b), Box::new(all));
                }
                all
            }
            IrKind::Binary(op @ (Eq | Ne), l, r)
                if self.is_flag(scope, l) || self.is_flag(scope, r) =>
            {
                match self.same_truth(scope, *op == Eq, l, r)? {
                    Some(t) => t,
                    None => Truth::Compare(*op, self.flag(scope, l)?, self.flag(scope, r)?),
                }
            }
            // A cell of a list of booleans holds one of two letters.
            IrKind::Index(..) if self.is_flag(scope, ir) => {
                let cell = self.truth_cell(scope, ir)?.ok_or_else(refused)?;
                Truth::SameChar(true, cell, Char::Code(1))
            }
            IrKind::Unary(UnaryOp::Not, x)
                if self.is_flag(scope, x) && matches!(x.kind, IrKind::Index(..)) =>
            {
                let cell = self.truth_cell(scope, x)?.ok_or_else(refused)?;
                Truth::SameChar(true, cell, Char::Code(0))
            }
            IrKind::Unary(UnaryOp::Not, x) => Truth::Not(Box::new(self.truth(scope, x)?)),
            IrKind::Binary(And, l, r) => Truth::And(
                Box::new(self.truth(scope, l)?),
                Box::new(self.truth(scope, r)?),
            ),
            IrKind::Binary(Or, l, r) => Truth::Or(
                Box::new(self.truth(scope, l)?),
                Box::new(self.truth(scope, r)?),
            ),
            IrKind::Binary(op @ (Eq | Ne), l, r)
                if self.is_text(scope, l) || self.is_text(scope, r) =>
            {
                match self.same_char(scope, *op == Eq, l, r) {
                    Some(t) => t,
                    None => match self.letterwise(scope, *op == Eq, l, r)? {
                        Some(t) => t,
                        None => {
                            Truth::SameText(*op == Eq, self.text(scope, l)?, self.text(scope, r)?)
                        }
                    },
                }
            }
            IrKind::Binary(op @ (In | NotIn), x, s)
                if self.is_set(scope, s) && !matches!(self.val(scope, s), Some(Val::Items(_))) =>
            {
                self.member(scope, *op == In, x, s)?
            }
            IrKind::Binary(op @ (Eq | Ne), l, r)
                if self.is_set(scope, l) || self.is_set(scope, r) =>
            {
                Truth::Compare(*op, self.mask(scope, l)?, self.mask(scope, r)?)
            }
            IrKind::Binary(op @ (In | NotIn), x, s) => match self.val(scope, s) {
                Some(Val::Items(xs)) => Truth::In(*op == In, self.num(scope, x)?, xs),
                // Membership in a string is a substring test: `has`.
                _ if self.is_text(scope, s) => {
                    let has = self.has(scope, ir, s, x)?;
                    if *op == In {
                        has
                    } else {
                        Truth::Not(Box::new(has))
                    }
                }
                // Membership in a list is an index found.
                _ => {
                    let place = self.index_of(scope, s, x)?;
                    let found = if *op == In { Ge } else { Lt };
                    Truth::Compare(found, place, Num::Lit(0))
                }
            },
            IrKind::Binary(op @ (Eq | Ne), l, r) if self.numbers_at(scope, l).is_some() => {
                let same = self.same_list(scope, l, r).ok_or_else(refused)?;
                if *op == Eq {
                    same
                } else {
                    Truth::Not(Box::new(same))
                }
            }
            IrKind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), l, r) => {
                Truth::Compare(*op, self.num(scope, l)?, self.num(scope, r)?)
            }
            IrKind::Builtin(Builtin::Has, a) if a.len() == 2 && !self.is_text(scope, &a[0]) => {
                Truth::Compare(Ge, self.index_of(scope, &a[0], &a[1])?, Num::Lit(0))
            }
            IrKind::Builtin(Builtin::Has, a) if a.len() == 2 => {
                self.has(scope, ir, &a[0], &a[1])?
            }
            IrKind::Builtin(b @ (Builtin::Any | Builtin::All), a) => match &a[..] {
                [list] => self.each(scope, *b == Builtin::Any, list)?,
                _ => return Err(refused()),
            },
            IrKind::CallFn(f, args) => self.truth_call(scope, ir, (*f, args))?,
            _ => return Err(refused()),
        })
    }

    /// Whether two lists of numbers are equal: as long as each other, and
    /// equal at every place (`p != heaps`, of a `product`'s tuple and a
    /// parameter); `None` unless both are lists of numbers held.
    fn same_list(&mut self, scope: &mut Scope, l: &Ir, r: &Ir) -> Option<Truth> {
        let (at_l, at_r) = (self.numbers_at(scope, l)?, self.numbers_at(scope, r)?);
        let (len_l, len_r) = (self.len(scope, l).ok()?, self.len(scope, r).ok()?);
        // Walked up to the shorter, so that no read goes past an end.
        let (shorter_l, shorter_r) = (self.len(scope, l).ok()?, self.len(scope, r).ok()?);
        let var = self.reg();
        let element = Truth::Compare(BinaryOp::Eq, at_l(Num::Reg(var)), at_r(Num::Reg(var)));
        let every = Truth::Each {
            any: false,
            walk: Box::new(Walk {
                var,
                over: Seq::Range(Num::Lit(0), Num::Min(vec![shorter_l, shorter_r]), false),
                guard: None,
            }),
            element: Box::new(element),
        };
        let lengths = Truth::Compare(BinaryOp::Eq, len_l, len_r);
        Some(Truth::And(Box::new(lengths), Box::new(every)))
    }

    /// How to read the element at a place of a list of numbers held in
    /// the key, a tuple register or a constant; `None` for anything else.
    fn numbers_at(&self, scope: &Scope, list: &Ir) -> Option<impl Fn(Num) -> Num> {
        let val = self.val(scope, list)?;
        matches!(val, Val::List(_) | Val::Tuple(_) | Val::Items(_)).then_some(())?;
        Some(move |at: Num| match &val {
            Val::List(f) => Num::Field(*f, Box::new(at)),
            Val::Tuple(t) => Num::TupleAt(*t, Box::new(at)),
            Val::Items(xs) => Num::Item(xs.clone(), Box::new(at)),
            _ => at,
        })
    }

    /// Every one of `tests`, in order; `None` for none.
    pub(super) fn all(&mut self, scope: &mut Scope, tests: &[&Ir]) -> Compiled<Option<Truth>> {
        let mut all: Option<Truth> = None;
        for t in tests {
            let t = self.truth(scope, t)?;
            all = Some(match all {
                Some(before) => Truth::And(Box::new(before), Box::new(t)),
                None => t,
            });
        }
        Ok(all)
    }

    /// Whether string `board` holds the written-out string `text`.
    pub(super) fn has(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        board: &Ir,
        text: &Ir,
    ) -> Compiled<Truth> {
        let refused = || Unsupported::new(CONDITIONS, ir.span);
        let IrKind::Lit(Value::Str(text)) = &text.kind else {
            return Err(refused());
        };
        if !text.is_ascii() || text.is_empty() {
            return Err(refused());
        }
        let Some(Val::Str(f, alphabet)) = self.val(scope, board) else {
            if !self.is_text(scope, board) {
                return Err(refused());
            }
            let word = self.layout.word(text).map(|w| (w, text.len() as u32));
            return Ok(Truth::HasText(self.text(scope, board)?, word));
        };
        let codes = text
            .bytes()
            .map(|b| alphabet.binary_search(&b).ok().map(|c| c as i64))
            .collect();
        Ok(Truth::Has(f, codes))
    }

    /// `a == b` (or `!=`) between letters: cells of strings, literals and
    /// helpers' one-letter arguments. `None` for other strings, which are
    /// compared whole.
    pub(super) fn same_char(
        &mut self,
        scope: &mut Scope,
        eq: bool,
        l: &Ir,
        r: &Ir,
    ) -> Option<Truth> {
        if !self.is_letter(scope, l) || !self.is_letter(scope, r) {
            return None;
        }
        if let (Some(a), Some(b)) = (letter(l), letter(r)) {
            return Some(Truth::Lit((a == b) == eq));
        }
        let a = self.char(scope, l).ok()?;
        let b = self.char(scope, r).ok()?;
        // A cell holds a letter of the alphabet: of two, not being one is
        // being the other (`board[i] != "X"` is `board[i] == "."`), which
        // is the test a placing loop runs on the key itself.
        if !eq && self.layout.alphabet.len() == 2 {
            let other = |c: &Char| match c {
                Char::Code(0) => Some(Char::Code(1)),
                Char::Code(1) => Some(Char::Code(0)),
                _ => None,
            };
            match (&a, &b) {
                (Char::Cell(..) | Char::GridCell(..), code) => {
                    if let Some(code) = other(code) {
                        return Some(Truth::SameChar(true, a, code));
                    }
                }
                (code, Char::Cell(..) | Char::GridCell(..)) => {
                    if let Some(code) = other(code) {
                        return Some(Truth::SameChar(true, code, b));
                    }
                }
                _ => {}
            }
        }
        Some(Truth::SameChar(eq, a, b))
    }
}
