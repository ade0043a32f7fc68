//! Helpers, compiled in place: their arguments are bound to registers
//! or stand for the caller's values.

use super::types::{grid, list_of_bools, list_of_ints, list_of_numbers, set_of_numbers};
use super::{Compiler, Scope, Val, MAX_INLINE};
use crate::eval::compact::called::{Called, Held};
use crate::eval::compact::closure::Closure;
use crate::eval::compact::code::{Bind, Num, Truth};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, Program};
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
        let why = match self.inline(scope, call, f, args, body, |b, n| Num::Let(b, Box::new(n))) {
            Ok(code) => return Ok(code),
            Err(why) => why,
        };
        let (binds, called) = self
            .called(scope, call, f, args, returns)
            .map_err(|_| why.clone())?;
        self.evaluated.get_or_insert(why);
        let code = Num::Closure(Closure::new(Box::new(move |m| called.call(m))));
        Ok(binds
            .into_iter()
            .rev()
            .fold(code, |code, b| Num::Let(Box::new(b), Box::new(code))))
    }

    /// A call of helper `f` as a test, as `num_call` makes one.
    pub(super) fn truth_call(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        (f, args): (u32, &[Ir]),
    ) -> Compiled<Truth> {
        let wrap = |b, t| Truth::Let(b, Box::new(t));
        let why = match self.inline(scope, call, f, args, Self::truth, wrap) {
            Ok(code) => return Ok(code),
            Err(why) => why,
        };
        let (binds, called) = self
            .called(scope, call, f, args, Held::Flag)
            .map_err(|_| why.clone())?;
        self.evaluated.get_or_insert(why);
        let code = Truth::Closure(Closure::new(Box::new(move |m| {
            called.call(m).map(|answer| answer != 0)
        })));
        Ok(binds
            .into_iter()
            .rev()
            .fold(code, |code, b| Truth::Let(Box::new(b), Box::new(code))))
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
        let mut held = Vec::new();
        for (param, arg) in func.params.iter().zip(args) {
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
            held.push((reg, how));
        }
        let called = Called::new(
            (self.program, self.consts),
            f,
            (self.depth, call.span),
            held,
            returns,
        );
        Ok((binds, Rc::new(called)))
    }
}

/// Why a helper's argument keeps it from being called.
const PASSED: &str = "a helper that is not compiled in place is called with numbers, booleans \
                      and sets of numbers only";
