//! Helpers, compiled in place: their arguments are bound to registers
//! or stand for the caller's values.

use super::types::{grid, list_of_bools, list_of_ints, list_of_numbers, set_of_numbers};
use super::{Compiler, Scope, Val, MAX_INLINE};
use crate::eval::compact::code::Bind;
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, Program};
use crate::types::Type;

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
