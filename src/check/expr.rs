//! Expressions: names resolved, types inferred, calls checked.

use super::items::Checker;
use super::scope::Scope;
use super::{conversion, describe};
use crate::error::ErrorKind;
use crate::eval::builtins::Builtin;
use crate::eval::ir::{Callable, CompIr, Ir, IrKind, Param};
use crate::eval::Value;
use crate::source::Span;
use crate::syntax::ast::{self, BinaryOp, ExprKind, UnaryOp};
use crate::types::Type;

impl Checker {
    /// Compiles an expression; mistakes are recorded and the type of a
    /// wrong part is Unknown, so checking goes on and finds the rest.
    pub fn expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> (Ir, Type) {
        let (kind, ty) = self.expr_kind(e, scope);
        (Ir { kind, span: e.span }, ty)
    }

    fn exprs(&mut self, es: &[ast::Expr], scope: &mut Scope) -> (Vec<Ir>, Vec<Type>) {
        es.iter().map(|e| self.expr(e, scope)).unzip()
    }

    fn expr_kind(&mut self, e: &ast::Expr, scope: &mut Scope) -> (IrKind, Type) {
        match &e.kind {
            ExprKind::Int(n) => (
                IrKind::Lit(Value::Int(*n)),
                if *n >= 0 { Type::Nat } else { Type::Int },
            ),
            ExprKind::Str(s) => (IrKind::Lit(Value::Str(s.clone())), Type::Str),
            ExprKind::Bool(b) => (IrKind::Lit(Value::Bool(*b)), Type::Bool),
            ExprKind::Var(name) => self.var(name, e.span, scope),
            ExprKind::Group(inner) => self.expr_kind(inner, scope),
            ExprKind::Let { binding, body } => {
                let mark = scope.mark();
                self.let_binding(binding, scope);
                let found = self.expr_kind(body, scope);
                scope.truncate(mark);
                found
            }
            ExprKind::Call { name, args } => self.call(name, args, e.span, scope),
            ExprKind::List(items) => {
                let (irs, types) = self.exprs(items, scope);
                let element = types.iter().fold(Type::Unknown, |acc, t| acc.join(t));
                (IrKind::List(irs), Type::List(Box::new(element)))
            }
            ExprKind::Set(items) => {
                let (irs, types) = self.exprs(items, scope);
                let element = types.iter().fold(Type::Unknown, |acc, t| acc.join(t));
                (IrKind::Set(irs), Type::Set(Box::new(element)))
            }
            ExprKind::Tuple(items) => {
                let (irs, types) = self.exprs(items, scope);
                (IrKind::Tuple(irs), Type::Tuple(types))
            }
            ExprKind::Comprehension { element, clauses } => {
                let mark = scope.mark();
                let mut compiled = Vec::new();
                for clause in clauses {
                    let generator = self.generator(&clause.generator, scope);
                    let guard = clause.guard.as_ref().map(|g| self.bool_expr(g, scope));
                    compiled.push(CompIr { generator, guard });
                }
                let (element, ty) = self.expr(element, scope);
                scope.truncate(mark);
                (
                    IrKind::Comprehension {
                        element: Box::new(element),
                        clauses: compiled,
                    },
                    Type::List(Box::new(ty)),
                )
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                let cond = self.bool_expr(cond, scope);
                let (then_ir, then_ty) = self.expr(then, scope);
                let (else_ir, else_ty) = self.expr(otherwise, scope);
                if !then_ty.fits(&else_ty) {
                    self.error(
                        ErrorKind::WrongType {
                            expected: format!("{}, like the `then` branch", describe(&then_ty)),
                            found: describe(&else_ty),
                            hint: None,
                        },
                        otherwise.span,
                    );
                }
                (
                    IrKind::If(Box::new(cond), Box::new(then_ir), Box::new(else_ir)),
                    then_ty.join(&else_ty),
                )
            }
            ExprKind::Unary { op, operand } => {
                let (ir, ty) = self.expr(operand, scope);
                let (expected, result) = match op {
                    UnaryOp::Neg => (Type::Int, Type::Int),
                    UnaryOp::Not => (Type::Bool, Type::Bool),
                };
                if !ty.fits(&expected) {
                    self.error(
                        ErrorKind::WrongType {
                            expected: describe(&expected),
                            found: describe(&ty),
                            hint: None,
                        },
                        operand.span,
                    );
                }
                (IrKind::Unary(*op, Box::new(ir)), result)
            }
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, scope),
            ExprKind::Index { target, index } => {
                let (t_ir, t_ty) = self.expr(target, scope);
                let (i_ir, i_ty) = self.expr(index, scope);
                self.expect_number(&i_ty, index.span);
                let ty = match &t_ty {
                    Type::Str | Type::Grid => Type::Str,
                    Type::List(t) | Type::Set(t) => (**t).clone(),
                    Type::Tuple(_) | Type::Unknown => Type::Unknown,
                    other => {
                        self.error(
                            ErrorKind::WrongType {
                                expected: "a list or string to index".into(),
                                found: describe(other),
                                hint: None,
                            },
                            target.span,
                        );
                        Type::Unknown
                    }
                };
                (IrKind::Index(Box::new(t_ir), Box::new(i_ir)), ty)
            }
        }
    }

    fn expect_number(&mut self, ty: &Type, span: Span) {
        if !ty.is_numeric() {
            self.error(
                ErrorKind::WrongType {
                    expected: "a number".into(),
                    found: describe(ty),
                    hint: None,
                },
                span,
            );
        }
    }

    fn var(&mut self, name: &str, span: Span, scope: &Scope) -> (IrKind, Type) {
        if let Some(found) = scope.lookup(name) {
            return found;
        }
        let visible = &self.program.consts[..self.visible_consts];
        if let Some(i) = visible.iter().position(|c| c.name == name) {
            return (IrKind::Const(i as u32), visible[i].ty.clone());
        }
        if name == "_" {
            // The placeholder of a table, which replaces it before checking.
            self.error(ErrorKind::PlaceholderOutsideTable, span);
            return (IrKind::Lit(Value::Int(0)), Type::Unknown);
        }
        if let Some(Callable::Game(g)) = self.program.callables.get(name) {
            // A game named without its arguments.
            let game = &self.program.games[*g as usize];
            let params: Vec<&str> = game.params.iter().map(|p| p.name.as_str()).collect();
            let call = format!("{name}({})", params.join(", "));
            self.error(
                ErrorKind::UnknownName {
                    what: "variable",
                    name: name.to_string(),
                    suggestion: Some(call),
                },
                span,
            );
            return (IrKind::Lit(Value::Int(0)), Type::Unknown);
        }
        let mut candidates: Vec<String> = scope.names().map(String::from).collect();
        candidates.extend(visible.iter().map(|c| c.name.clone()));
        self.unknown_name("variable", name, span, candidates);
        (IrKind::Lit(Value::Int(0)), Type::Unknown)
    }

    fn call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
        scope: &mut Scope,
    ) -> (IrKind, Type) {
        let (irs, types) = self.exprs(args, scope);
        let arity_error =
            |checker: &mut Checker, what: &'static str, expected: String, signature| {
                checker.error(
                    ErrorKind::WrongArity {
                        what,
                        name: name.name.clone(),
                        expected,
                        found: args.len(),
                        signature,
                    },
                    span,
                );
            };
        match self.program.callables.get(&name.name).copied() {
            Some(Callable::Game(g)) => {
                let params = self.program.games[g as usize].params.clone();
                if params.len() != args.len() {
                    let signature = signature(&name.name, &params);
                    arity_error(self, "game", params.len().to_string(), signature);
                } else {
                    self.arguments(&params, &types, args);
                }
                (IrKind::MakePos(g, irs), Type::Game)
            }
            Some(Callable::Function(f)) => {
                let func = &self.program.functions[f as usize];
                let (params, ret) = (func.params.clone(), func.ret.clone());
                if params.len() != args.len() {
                    let signature = signature(&name.name, &params);
                    arity_error(self, "function", params.len().to_string(), signature);
                } else {
                    self.arguments(&params, &types, args);
                }
                (IrKind::CallFn(f, irs), ret)
            }
            None => match Builtin::lookup(&name.name) {
                Some(b) => {
                    let (min, max) = b.arity();
                    if args.len() < min || args.len() > max {
                        let expected = if min == max {
                            min.to_string()
                        } else {
                            format!("{min} to {max}")
                        };
                        let usage = b.doc().split(':').next().unwrap_or(b.name());
                        arity_error(
                            self,
                            "built-in function",
                            expected,
                            format!("`{}`", usage.replace(" or ", "` or `")),
                        );
                        return (IrKind::Builtin(b, irs), Type::Unknown);
                    }
                    if b.is_query() && !scope.allow_queries {
                        self.error(
                            ErrorKind::QueryOutsideClaim {
                                name: name.name.clone(),
                            },
                            name.span,
                        );
                    }
                    let ty = match b.result_type(&types) {
                        Ok(t) => t,
                        Err((i, expected)) => {
                            self.error(
                                ErrorKind::WrongType {
                                    expected: format!("{expected} for `{}`", b.name()),
                                    found: describe(&types[i]),
                                    hint: None,
                                },
                                args[i].span,
                            );
                            Type::Unknown
                        }
                    };
                    (as_operators(b, irs, &types), ty)
                }
                None => {
                    let mut candidates: Vec<String> =
                        self.program.callables.keys().cloned().collect();
                    candidates.extend(Builtin::ALL.iter().map(|b| b.name().to_string()));
                    self.unknown_name("game or function", &name.name, name.span, candidates);
                    (IrKind::Lit(Value::Int(0)), Type::Unknown)
                }
            },
        }
    }

    /// Checks each argument of a call against its parameter's type.
    fn arguments(&mut self, params: &[Param], types: &[Type], args: &[ast::Expr]) {
        for ((param, ty), arg) in params.iter().zip(types).zip(args) {
            if !ty.fits(&param.ty) {
                self.error(
                    ErrorKind::WrongType {
                        expected: format!("`{}` for parameter `{}`", param.ty, param.name),
                        found: describe(ty),
                        hint: conversion(&param.ty, ty),
                    },
                    arg.span,
                );
            }
        }
    }

    fn binary(
        &mut self,
        op: BinaryOp,
        lhs: &ast::Expr,
        rhs: &ast::Expr,
        scope: &mut Scope,
    ) -> (IrKind, Type) {
        use BinaryOp::*;
        let (l_ir, l) = self.expr(lhs, scope);
        let (r_ir, r) = self.expr(rhs, scope);
        let mismatch = |checker: &mut Checker, expected: String, found: &Type, span: Span| {
            checker.error(
                ErrorKind::WrongType {
                    expected,
                    found: describe(found),
                    hint: None,
                },
                span,
            );
        };
        let ty = match op {
            Or | And => {
                for (t, e) in [(&l, lhs), (&r, rhs)] {
                    if !t.fits(&Type::Bool) {
                        mismatch(
                            self,
                            format!("a condition for `{}`", op.symbol()),
                            t,
                            e.span,
                        );
                    }
                }
                Type::Bool
            }
            Eq | Ne | Lt | Le | Gt | Ge => {
                // `a < b < c` reads like mathematics but would compare a
                // boolean with a number; `(a == b) == c` is fine.
                if matches!(op, Lt | Le | Gt | Ge) && is_comparison(lhs) {
                    self.error(ErrorKind::ChainedComparison, lhs.span.to(rhs.span));
                } else if !(l.fits(&r) || is_listy(&l) && is_listy(&r)) {
                    mismatch(
                        self,
                        format!("{}, to compare with the left side", describe(&l)),
                        &r,
                        rhs.span,
                    );
                }
                Type::Bool
            }
            In | NotIn => {
                if r.element().is_none() {
                    mismatch(self, "a list, set, range or string".into(), &r, rhs.span);
                }
                Type::Bool
            }
            RangeExclusive | RangeInclusive => {
                self.expect_number(&l, lhs.span);
                self.expect_number(&r, rhs.span);
                Type::List(Box::new(Type::Int))
            }
            Add => {
                let both_numbers = l.is_numeric() && r.is_numeric();
                if both_numbers {
                    if l == Type::Nat && r == Type::Nat {
                        Type::Nat
                    } else {
                        Type::Int
                    }
                } else if addable(&l, &r) {
                    l.join(&r)
                } else {
                    let expected = match l {
                        Type::Int | Type::Nat | Type::Str | Type::Game | Type::List(_) => {
                            describe(&l)
                        }
                        _ => "a number, string, list or position".into(),
                    };
                    let (bad, span) = if matches!(
                        l,
                        Type::Int | Type::Nat | Type::Str | Type::Game | Type::List(_)
                    ) {
                        (&r, rhs.span)
                    } else {
                        (&l, lhs.span)
                    };
                    mismatch(self, format!("{expected} for `+`"), bad, span);
                    Type::Unknown
                }
            }
            Sub | Mul | Div | Rem | BitOr | BitXor | BitAnd | Shl | Shr | Pow => {
                if op == BitXor {
                    self.warn_xor_of_literals(lhs, rhs);
                }
                for (t, e) in [(&l, lhs), (&r, rhs)] {
                    if !t.is_numeric() {
                        mismatch(self, format!("a number for `{}`", op.symbol()), t, e.span);
                    }
                }
                if op != Sub && l == Type::Nat && r == Type::Nat {
                    Type::Nat
                } else {
                    Type::Int
                }
            }
        };
        (IrKind::Binary(op, Box::new(l_ir), Box::new(r_ir)), ty)
    }
}

impl Checker {
    /// `10^12` is 6: whoever writes `^` between two numbers most likely
    /// meant a power, so say what it computes and how to write one.
    fn warn_xor_of_literals(&mut self, lhs: &ast::Expr, rhs: &ast::Expr) {
        if let (ExprKind::Int(a), ExprKind::Int(b)) = (&lhs.kind, &rhs.kind) {
            self.warnings.push(crate::error::Error::new(
                ErrorKind::XorOfNumbers {
                    lhs: *a,
                    rhs: *b,
                    value: a ^ b,
                },
                lhs.span.to(rhs.span),
            ));
        }
    }
}

/// `f(a: nat, b: [nat])`, backquoted: how a game or helper is called.
fn signature(name: &str, params: &[crate::eval::ir::Param]) -> String {
    let params: Vec<String> = params
        .iter()
        .map(|p| match &p.ty {
            Type::Unknown => p.name.clone(),
            ty => format!("{}: {ty}", p.name),
        })
        .collect();
    format!("`{name}({})`", params.join(", "))
}

/// Whether `+` joins two non-numbers: strings, lists or positions (sums).
fn addable(l: &Type, r: &Type) -> bool {
    let same_kind = l.fits(r)
        && matches!(
            l.join(r),
            Type::Str | Type::List(_) | Type::Game | Type::Grid | Type::Unknown
        );
    same_kind || (is_listy(l) && is_listy(r))
}

fn is_comparison(e: &ast::Expr) -> bool {
    use BinaryOp::*;
    matches!(
        e.kind,
        ExprKind::Binary {
            op: Eq | Ne | Lt | Le | Gt | Ge,
            ..
        }
    )
}

fn is_listy(t: &Type) -> bool {
    matches!(t, Type::List(_) | Type::Grid | Type::Unknown)
}

/// `pow(a, b)` is `a ** b`, and `xor(a, b, ...)` of numbers is `a ^ b ^
/// ...`: written as the operators, every engine that runs rules knows them
/// through the operators alone, errors included.
fn as_operators(b: Builtin, irs: Vec<Ir>, types: &[Type]) -> IrKind {
    let op = match b {
        Builtin::Pow => BinaryOp::Pow,
        Builtin::Xor if types.iter().all(Type::is_numeric) => BinaryOp::BitXor,
        _ => return IrKind::Builtin(b, irs),
    };
    if irs.len() < 2 {
        return IrKind::Builtin(b, irs);
    }
    let joined = irs.into_iter().reduce(|l, r| Ir {
        span: l.span.to(r.span),
        kind: IrKind::Binary(op, Box::new(l), Box::new(r)),
    });
    joined.map_or_else(|| IrKind::Builtin(b, Vec::new()), |ir| ir.kind)
}
