//! Helpers, compiled in place: their arguments are bound to registers
//! or stand for the caller's values.

use super::types::{grid, list_of_bools, list_of_ints, list_of_numbers, set_of_numbers};
use super::{Compiler, Scope, Val, MAX_INLINE};
use crate::eval::compact::called::{Arg, Called, Held};
use crate::eval::compact::closure::Closure;
use crate::eval::compact::code::{Bind, Num, Truth};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind, Program};
use crate::types::Type;
use std::rc::Rc;

impl<'a> Compiler<'a> {
    /// Helper `f`'s body compiled in place by `body`, inside the bindings
    /// of its arguments (`wrap` puts one binding around the code).
    pub(in crate::eval::compact) fn inline<T>(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
        body: impl FnOnce(&mut Self, &mut Scope, &Ir) -> Compiled<T>,
        wrap: impl Fn(Box<Bind>, T) -> T,
    ) -> Compiled<T> {
        let (binds, mut inner, ir) = self.enter(scope, call, f, args, false)?;
        let code = body(self, &mut inner, ir);
        self.depth -= 1;
        let mut code = code?;
        for b in binds.into_iter().rev() {
            code = wrap(Box::new(b), code);
        }
        Ok(code)
    }

    /// A helper's scope with its parameters bound to the arguments: lists,
    /// strings and tuples passed as they are, numbers put in registers, and
    /// where `made` is set, new grids made where the body uses them (see
    /// `made`).
    pub(super) fn enter(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
        made: bool,
    ) -> Compiled<(Vec<Bind>, Scope, &'a Ir)> {
        let program: &'a Program = self.program;
        let func = program
            .functions
            .get(f as usize)
            .or_unsupported("an unknown helper", call.span)?;
        if self.depth >= MAX_INLINE || func.params.len() != args.len() {
            return Err(Unsupported::new(
                "a helper called more than 12 deep (or calling itself): the compiled search \
                 inlines helpers",
                call.span,
            ));
        }
        let mut inner: Scope = vec![None; func.frame_size.max(args.len())];
        let mut binds = Vec::new();
        for (i, (param, arg)) in func.params.iter().zip(args).enumerate() {
            let refused = || {
                Unsupported::new(
                    format!(
                        "an argument the compiled search cannot pass to `{}: {}`",
                        param.name, param.ty
                    ),
                    arg.span,
                )
            };
            let string = matches!(param.ty, Type::Str | Type::Unknown);
            let passed = match self.val(scope, arg) {
                Some(v @ Val::List(_)) if list_of_numbers(&param.ty) => Some(v),
                Some(v @ Val::Bools(_)) if list_of_bools(&param.ty) => Some(v),
                Some(v @ Val::Tuple(t))
                    if list_of_ints(&param.ty)
                        || (list_of_numbers(&param.ty) && self.natural_tuple(t)) =>
                {
                    Some(v)
                }
                Some(v @ (Val::Str(..) | Val::Text(_) | Val::Letter(_))) if string => Some(v),
                Some(v @ Val::Grid(_)) if grid(&param.ty) => Some(v),
                Some(v @ Val::Items(_)) if set_of_numbers(&param.ty) => Some(v),
                Some(v @ Val::Mask(_)) if set_of_numbers(&param.ty) => Some(v),
                Some(v @ Val::Made(_)) if grid(&param.ty) => Some(v),
                Some(v @ Val::View(..)) if grid(&param.ty) => Some(v),
                None if made => self.made_argument(scope, &param.ty, arg),
                Some(
                    Val::List(_)
                    | Val::Bools(_)
                    | Val::Tuple(_)
                    | Val::Str(..)
                    | Val::Text(_)
                    | Val::Grid(_)
                    | Val::View(..),
                ) => return Err(refused()),
                _ => None,
            };
            inner[i] = Some(match passed {
                Some(v) => v,
                None => self
                    .register(scope, arg, &param.ty, param.ty == Type::Bool, &mut binds)?
                    .ok_or_else(refused)?,
            });
        }
        self.depth += 1;
        Ok((binds, inner, &func.body))
    }
}

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

    /// Helper `f` called through the reference evaluator, where it cannot
    /// be compiled in place (see `called`): each argument, a number, a
    /// boolean or a set of numbers, worked out into a register of its own
    /// by `binds`, and the helper's answer held as `returns`.
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
                "a helper given too few arguments",
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
}

impl Compiler<'_> {
    /// A list or string parameter passed as it is to a parameter of type
    /// `ty`, read off the key's fields when the helper is called.
    fn passed_as_keyed(&self, scope: &Scope, ty: &Type, arg: &Ir) -> Option<Arg> {
        let string = matches!(ty, Type::Str | Type::Unknown);
        let list = matches!(ty, Type::List(_) | Type::Unknown);
        match self.val(scope, arg)? {
            Val::List(f) if list && list_of_numbers(ty) || *ty == Type::Unknown => {
                Some(Arg::Numbers(f))
            }
            Val::Bools(f) if list_of_bools(ty) || *ty == Type::Unknown => Some(Arg::Bools(f)),
            Val::Str(f, alphabet) if string => Some(Arg::Letters(f, alphabet.into())),
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
        let mut found = false;
        let mut calls = |ir: &Ir| {
            each_call(ir, &mut |h| {
                found |= h == f;
                if let Some(seen) = seen.get_mut(h as usize).filter(|s| !**s) {
                    *seen = true;
                    todo.push(h);
                }
            })
        };
        calls(&func.body);
        if found {
            return true;
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
