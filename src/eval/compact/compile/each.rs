//! Comprehensions walked by the compiled code: the one generator of a
//! comprehension that makes a parameter's new list, and `any` and `all`
//! of a comprehension, tested by walking it: that list is never built,
//! but each of its elements is worked out as it would be.

use super::{Compiler, Scope, Val, CONDITIONS};
use crate::eval::compact::code::{Truth, Walk};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{CompIr, Ir, IrKind};

impl Compiler<'_> {
    /// `any(list)` (`any` set) or `all(list)` of a comprehension with one
    /// generator.
    pub(super) fn each(&mut self, scope: &mut Scope, any: bool, list: &Ir) -> Compiled<Truth> {
        let IrKind::Comprehension { element, clauses } = &list.kind else {
            return Err(Unsupported::new(CONDITIONS, list.span));
        };
        let (walk, mut inner) = self.walk(scope, clauses, list, CONDITIONS)?;
        let element = Box::new(self.truth(&mut inner, element)?);
        Ok(Truth::Each {
            any,
            walk: Box::new(walk),
            element,
        })
    }

    /// A comprehension's clauses as one walk, and the scope its element
    /// is worked out in; `refused` says why other clauses are not walked.
    pub(super) fn walk(
        &mut self,
        scope: &Scope,
        clauses: &[CompIr],
        list: &Ir,
        refused: &str,
    ) -> Compiled<(Walk, Scope)> {
        let [clause] = clauses else {
            return Err(Unsupported::new(refused, list.span));
        };
        let mut inner = scope.clone();
        let over = self.seq(&mut inner, &clause.generator.source)?;
        let var = self.reg();
        *inner
            .get_mut(clause.generator.slot as usize)
            .or_unsupported(refused, list.span)? = Some(Val::Num(var));
        let guard = match &clause.guard {
            Some(g) => Some(self.truth(&mut inner, g)?),
            None => None,
        };
        Ok((Walk { var, over, guard }, inner))
    }
}
