//! Calls of helpers as numbers, sets and tests: written in place where
//! the body compiles (see `calls`), else made through the reference
//! evaluator (see `called`), the arguments worked out by the compiled
//! code.

use super::types::{list_of_bools, list_of_numbers, set_of_numbers};
use super::{Compiler, Scope, Val};
use crate::eval::compact::called::{Arg, Called, Held};
use crate::eval::compact::closure::Closure;
use crate::eval::compact::code::{Bind, Num, Truth};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind, Program};
use crate::types::Type;
use std::rc::Rc;

impl Compiler<'_> {
    /// A call of helper `f` as a number (or a set held as a mask, as
    /// `returns` says): compiled in place, or where its body does not
    /// compile, called through the reference evaluator.
    pub(super) fn num_call(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        (f, args): (u32, &[Ir]),
        returns: Held,
    ) -> Compiled<Num> {
        let body = match returns {
            Held::Mask(_) => Self::mask,
            _ => Self::num,
        };
        let wrap = |b, n| Num::Let(b, Box::new(n));
        let (binds, called) = match self.in_place(scope, call, (f, args), body, wrap) {
            Ok(code) => return Ok(code),
            Err(why) => self.called_instead(scope, call, (f, args), returns, why)?,
        };
        let code = Num::Closure(Closure::new(Box::new(move |m| called.call(m))));
        Ok(binds
            .into_iter()
            .rev()
            .fold(code, |code, b| wrap(Box::new(b), code)))
    }

    /// A call of helper `f` as a test, as `num_call` makes one.
    pub(super) fn truth_call(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        (f, args): (u32, &[Ir]),
    ) -> Compiled<Truth> {
        let wrap = |b, t| Truth::Let(b, Box::new(t));
        let (binds, called) = match self.in_place(scope, call, (f, args), Self::truth, wrap) {
            Ok(code) => return Ok(code),
            Err(why) => self.called_instead(scope, call, (f, args), Held::Flag, why)?,
        };
        let code = Truth::Closure(Closure::new(Box::new(move |m| {
            called.call(m).map(|answer| answer != 0)
        })));
        Ok(binds
            .into_iter()
            .rev()
            .fold(code, |code, b| wrap(Box::new(b), code)))
    }

    /// `inline`, counting the helpers that call themselves being written
    /// in place around the call (see `called_instead`).
    fn in_place<T>(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        (f, args): (u32, &[Ir]),
        body: impl FnOnce(&mut Self, &mut Scope, &Ir) -> Compiled<T>,
        wrap: impl Fn(Box<Bind>, T) -> T,
    ) -> Compiled<T> {
        let recursive = reaches_itself(self.program, f);
        self.recursing += u32::from(recursive);
        let code = self.inline(scope, call, f, args, body, wrap);
        self.recursing -= u32::from(recursive);
        code
    }

    /// Helper `f` called through the reference evaluator, where writing it
    /// in place failed for `why`; `why` again where it cannot be called
    /// either, or where the call is itself inside a helper that calls
    /// itself being written in place: that outer call is the one made,
    /// once, rather than a dozen levels of its body around this one.
    fn called_instead(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        (f, args): (u32, &[Ir]),
        returns: Held,
        why: Unsupported,
    ) -> Compiled<(Vec<Bind>, Rc<Called>)> {
        if self.recursing > 0 {
            return Err(why);
        }
        let called = self.called(scope, call, f, args, returns);
        let called = called.map_err(|_| why.clone())?;
        self.evaluated.get_or_insert(why);
        Ok(called)
    }

    /// Helper `f` called through the reference evaluator (see `called`):
    /// each argument a list or string the position holds, passed as it
    /// is, or a number, a boolean or a set of numbers worked out into a
    /// register of its own by `binds`; the helper's answer held as
    /// `returns`.
    pub(super) fn called(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
        returns: Held,
    ) -> Compiled<(Vec<Bind>, Rc<Called>)> {
        let func = self
            .program
            .functions
            .get(f as usize)
            .or_unsupported("an unknown helper", call.span)?;
        if func.params.len() != args.len() {
            return Err(Unsupported::new(
                "a helper given another number of arguments than it takes",
                call.span,
            ));
        }
        let mut binds = Vec::new();
        let mut passed = Vec::new();
        for (param, arg) in func.params.iter().zip(args) {
            if let Some(as_is) = self.passed_as_keyed(scope, &param.ty, arg) {
                passed.push(as_is);
                continue;
            }
            let unknown = param.ty == Type::Unknown;
            let (value, how) = if param.ty == Type::Bool || unknown && self.is_flag(scope, arg) {
                (self.flag(scope, arg)?, Held::Flag)
            } else if set_of_numbers(&param.ty) || unknown && self.is_set(scope, arg) {
                let universe = self.layout.universe.or_unsupported(PASSED, arg.span)?;
                (self.mask(scope, arg)?, Held::Mask(universe))
            } else if matches!(param.ty, Type::Nat | Type::Int) || unknown {
                (self.num(scope, arg)?, Held::Number)
            } else {
                return Err(Unsupported::new(PASSED, arg.span));
            };
            let reg = self.reg();
            let nat = param.ty == Type::Nat;
            binds.push(Bind::Num { reg, value, nat });
            passed.push(Arg::Reg(reg, how));
        }
        let called = Called::new(
            (self.program, self.consts),
            f,
            (self.depth, call.span),
            passed,
            returns,
        );
        Ok((binds, Rc::new(called)))
    }

    /// A list or string parameter passed as it is to a parameter of type
    /// `ty`, read off the key's fields when the helper is called.
    fn passed_as_keyed(&self, scope: &Scope, ty: &Type, arg: &Ir) -> Option<Arg> {
        let unknown = *ty == Type::Unknown;
        match self.val(scope, arg)? {
            Val::List(f) if unknown || list_of_numbers(ty) => Some(Arg::Numbers(f)),
            Val::Bools(f) if unknown || list_of_bools(ty) => Some(Arg::Bools(f)),
            Val::Str(f, alphabet) if unknown || *ty == Type::Str => {
                Some(Arg::Letters(f, alphabet.into()))
            }
            _ => None,
        }
    }
}

/// Why a helper's argument keeps it from being called.
const PASSED: &str = "a helper that is not compiled in place is called with numbers, booleans, \
                      sets of numbers, and lists and strings the position holds only";

/// Whether helper `f` calls itself, through other helpers or directly.
fn reaches_itself(program: &Program, f: u32) -> bool {
    let mut seen = vec![false; program.functions.len()];
    let mut todo = vec![f];
    while let Some(g) = todo.pop() {
        let Some(func) = program.functions.get(g as usize) else {
            continue;
        };
        let mut callees = Vec::new();
        each_call(&func.body, &mut |h| callees.push(h));
        for h in callees {
            if h == f {
                return true;
            }
            if let Some(seen) = seen.get_mut(h as usize).filter(|seen| !**seen) {
                *seen = true;
                todo.push(h);
            }
        }
    }
    false
}

/// Calls `each` with every helper `ir` calls, at any depth of it.
fn each_call(ir: &Ir, each: &mut impl FnMut(u32)) {
    if let IrKind::CallFn(h, _) = ir.kind {
        each(h);
    }
    super::children(ir, |child| each_call(child, each));
}
