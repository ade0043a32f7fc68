//! Comprehensions walked by the compiled code: the one generator of a
//! comprehension that makes a parameter's new list, and `any` and `all`
//! of a comprehension, tested by walking it: that list is never built,
//! but each of its elements is worked out as it would be.

use super::worked::walked_value;
use super::{Compiler, Scope, CONDITIONS};
use crate::eval::compact::code::{Char, Num, Seq, Truth, Walk};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{CompIr, Ir, IrKind};
use crate::syntax::ast::BinaryOp;

impl Compiler<'_> {
    /// `any(list)` (`any` set) or `all(list)` of a comprehension with one
    /// generator.
    pub(super) fn each(&mut self, scope: &mut Scope, any: bool, list: &Ir) -> Compiled<Truth> {
        if let Some(test) = self.row_test(scope, any, list) {
            return Ok(test);
        }
        if let IrKind::Binary(BinaryOp::Add, l, r) = &list.kind {
            // Lists joined (`all(xs + ys)`): every element of both is
            // worked out, as the joined list would be, so the two tests
            // are read as 1 or 0 and the least (all) or greatest (any)
            // taken, never one test left out.
            let mut read = |part| {
                let t = Box::new(self.each(scope, any, part)?);
                Ok(Num::If(t, Box::new(Num::Lit(1)), Box::new(Num::Lit(0))))
            };
            let both = vec![read(l)?, read(r)?];
            let n = if any { Num::Max(both) } else { Num::Min(both) };
            return Ok(Truth::Compare(BinaryOp::Eq, n, Num::Lit(1)));
        }
        if let IrKind::List(items) = &list.kind {
            return self.each_written(scope, any, items);
        }
        let IrKind::Comprehension { element, clauses } = &list.kind else {
            return Err(Unsupported::new(CONDITIONS, list.span));
        };
        let (walk, mut inner) = self.walk(scope, clauses, list, CONDITIONS)?;
        let element = Box::new(self.truth(&mut inner, element)?);
        let each = Truth::Each {
            any,
            walk: Box::new(walk),
            element,
        };
        Ok(as_has(&each).unwrap_or(each))
    }

    /// `any` or `all` of tests written out (`any([c > 0, t > 0])`): every
    /// test is worked out, as the list would be. Comparisons of registers
    /// and literals, which cannot fail, are joined by `or` (`and`); other
    /// tests are read as 1 or 0 and the greatest (least) taken.
    fn each_written(&mut self, scope: &mut Scope, any: bool, items: &[Ir]) -> Compiled<Truth> {
        let tests = items
            .iter()
            .map(|t| self.truth(scope, t))
            .collect::<Compiled<Vec<_>>>()?;
        let plain = |n: &Num| matches!(n, Num::Reg(_) | Num::Lit(_));
        let safe = tests
            .iter()
            .all(|t| matches!(t, Truth::Compare(_, a, b) if plain(a) && plain(b)));
        if safe {
            let join = |a, b| match any {
                true => Truth::Or(Box::new(a), Box::new(b)),
                false => Truth::And(Box::new(a), Box::new(b)),
            };
            return Ok(tests.into_iter().reduce(join).unwrap_or(Truth::Lit(!any)));
        }
        let read = |t| Num::If(Box::new(t), Box::new(Num::Lit(1)), Box::new(Num::Lit(0)));
        let mut read: Vec<Num> = tests.into_iter().map(read).collect();
        // The empty list: `any` is false, `all` true.
        read.push(Num::Lit(i64::from(!any)));
        let n = if any { Num::Max(read) } else { Num::Min(read) };
        Ok(Truth::Compare(BinaryOp::Eq, n, Num::Lit(1)))
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
        let source = &clause.generator.source;
        let (over, parts) = match self.tuples_walked(source) {
            Some((over, parts)) => (over, Some(parts)),
            None => self.walked(&mut inner, source)?,
        };
        let var = self.reg();
        *inner
            .get_mut(clause.generator.slot as usize)
            .or_unsupported(refused, list.span)? = Some(walked_value(var, parts));
        let guard = match &clause.guard {
            Some(g) => Some(self.truth(&mut inner, g)?),
            None => None,
        };
        Ok((Walk { var, over, guard }, inner))
    }
}

/// `any` over every window of a string or list of booleans, testing that
/// the window holds given letters (`any([xs[i] and xs[i + 1] and xs[i +
/// 2] for i in 0..len(xs) - 2])`): whether it holds those letters in a
/// row, tested on the key. Every window is inside the list, so no element
/// could have been an error.
fn as_has(t: &Truth) -> Option<Truth> {
    let Truth::Each {
        any: true,
        walk,
        element,
    } = t
    else {
        return None;
    };
    let Walk {
        var,
        over: Seq::Range(lo, hi, false),
        guard: None,
    } = &**walk
    else {
        return None;
    };
    let mut tests = Vec::new();
    element.and_chain(&mut tests);
    let mut fields = None;
    let mut codes: Vec<Option<i64>> = vec![None; tests.len()];
    for test in tests {
        let (f, at, code) = match test {
            Truth::SameChar(true, Char::Cell(f, at), Char::Code(c))
            | Truth::SameChar(true, Char::Code(c), Char::Cell(f, at)) => (*f, at, *c),
            _ => return None,
        };
        if *fields.get_or_insert(f) != f || code < 0 {
            return None;
        }
        let offset = usize::try_from(offset_of(at, *var)?).ok()?;
        if codes.get_mut(offset)?.replace(code).is_some() {
            return None;
        }
    }
    let f = fields?;
    let codes: Vec<i64> = codes.into_iter().collect::<Option<_>>()?;
    let windows = i64::from(f.len) - codes.len() as i64 + 1;
    (lo.constant()? == 0 && hi.constant()? == windows).then(|| Truth::Has(f, Some(codes)))
}

/// `k` where `at` is the loop's register `var` plus the literal `k`.
fn offset_of(at: &Num, var: u32) -> Option<i64> {
    match at {
        Num::Reg(r) if *r == var => Some(0),
        Num::Binary(BinaryOp::Add, a, b) => match (&**a, &**b) {
            (Num::Reg(r), k) | (k, Num::Reg(r)) if *r == var => k.constant(),
            _ => None,
        },
        _ => None,
    }
}
