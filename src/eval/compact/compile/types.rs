//! The parameter types each packed shape holds.

use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::types::Type;
use std::rc::Rc;

pub(super) fn list_of_bools(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Bool | Type::Unknown),
        Type::Unknown => true,
        _ => false,
    }
}

pub(super) fn set_of_numbers(ty: &Type) -> bool {
    match ty {
        Type::Set(t) => matches!(**t, Type::Nat | Type::Int | Type::Unknown),
        Type::Unknown => true,
        _ => false,
    }
}

pub(super) fn grid(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Str | Type::Unknown),
        Type::Grid | Type::Unknown => true,
        _ => false,
    }
}

pub(super) fn list_of_numbers(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Nat | Type::Int | Type::Unknown),
        Type::Tuple(ts) => ts
            .iter()
            .all(|t| matches!(t, Type::Nat | Type::Int | Type::Unknown)),
        Type::Unknown => true,
        _ => false,
    }
}

/// Tuple registers may hold negative numbers: only parameters that take
/// any integers receive them.
pub(super) fn list_of_ints(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Int | Type::Unknown),
        Type::Unknown => true,
        _ => false,
    }
}

/// The elements of a tuple written out, `(r, c)` or a literal `(0, 0)`.
pub(super) fn tuple_items(ir: &Ir) -> Option<Vec<Ir>> {
    match &ir.kind {
        IrKind::Tuple(items) => Some(items.clone()),
        IrKind::Lit(Value::Tuple(values)) => Some(
            values
                .iter()
                .map(|v| Ir {
                    kind: IrKind::Lit(v.clone()),
                    span: ir.span,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The rows of a list of tuples of numbers written out, each as long as
/// the first: `[(0, 1), (1, 0)]`.
pub(super) fn tuples_written_out(ir: &Ir) -> Option<Rc<[Vec<i64>]>> {
    let number = |v: &Value| match v {
        Value::Int(n) => Some(*n),
        _ => None,
    };
    let rows: Vec<Vec<i64>> = match &ir.kind {
        IrKind::Lit(Value::List(items)) => items
            .iter()
            .map(|item| match item {
                Value::Tuple(xs) => xs.iter().map(number).collect(),
                _ => None,
            })
            .collect::<Option<_>>()?,
        IrKind::List(items) => items
            .iter()
            .map(|item| {
                tuple_items(item)?
                    .iter()
                    .map(|x| match &x.kind {
                        IrKind::Lit(v) => number(v),
                        _ => None,
                    })
                    .collect()
            })
            .collect::<Option<_>>()?,
        _ => return None,
    };
    let width = rows.first()?.len();
    rows.iter().all(|r| r.len() == width).then(|| rows.into())
}
