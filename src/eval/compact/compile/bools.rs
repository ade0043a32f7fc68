//! Lists of booleans, packed one bit an element: to the compiled code a
//! string of two letters, false (code 0) and true (code 1). A test of an
//! element is a test of a letter and `set_at` writes one, so the loops
//! that place a letter on the key run on these lists too.

use super::{Compiler, Scope, Val};
use crate::eval::compact::code::{Char, Truth};
use crate::eval::engine::Compiled;
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;

impl Compiler<'_> {
    /// `xs[i]` of a list of booleans as its cell, if `ir` is one.
    pub(super) fn truth_cell(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Option<Char>> {
        let IrKind::Index(target, index) = &ir.kind else {
            return Ok(None);
        };
        let Some(Val::Bools(f)) = self.val(scope, target) else {
            return Ok(None);
        };
        Ok(Some(Char::Cell(f, Box::new(self.num(scope, index)?))))
    }

    /// A boolean as the letter a list of booleans holds for it.
    pub(super) fn truth_letter(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Char> {
        if let IrKind::Lit(Value::Bool(b)) = ir.kind {
            return Ok(Char::Code(i64::from(b)));
        }
        if let Some(cell) = self.truth_cell(scope, ir)? {
            return Ok(cell);
        }
        Ok(Char::If(
            Box::new(self.truth(scope, ir)?),
            Box::new(Char::Code(1)),
            Box::new(Char::Code(0)),
        ))
    }

    /// `a == b` (`eq` set) or `a != b` where one side is a cell of a list
    /// of booleans: a test of its letter. `None` where neither side is.
    pub(super) fn same_truth(
        &mut self,
        scope: &mut Scope,
        eq: bool,
        l: &Ir,
        r: &Ir,
    ) -> Compiled<Option<Truth>> {
        let (cell, other) = match self.truth_cell(scope, l)? {
            Some(cell) => (cell, r),
            None => match self.truth_cell(scope, r)? {
                Some(cell) => (cell, l),
                None => return Ok(None),
            },
        };
        Ok(Some(match self.truth_letter(scope, other)? {
            // Of two letters, not being one is being the other.
            Char::Code(c) if !eq => Truth::SameChar(true, cell, Char::Code(1 - c)),
            letter => Truth::SameChar(eq, cell, letter),
        }))
    }
}
