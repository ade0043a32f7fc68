//! Variables and leaf expressions shared by the tests that compare a fast
//! path (`fast`) with the interpreter on random expressions.

use super::interp::Env;
use super::ir::{Ir, IrKind};
use super::value::Value;
use crate::syntax::ast::BinaryOp;
use proptest::prelude::*;

/// Variables of every kind the fast paths look at, and some they refuse;
/// slots 8 and 9 are free for generators.
pub fn env() -> Env {
    vec![
        Value::Int(3),
        Value::Int(-2),
        Value::list(vec![Value::Int(5), Value::Int(0), Value::Int(i64::MAX)]),
        Value::str("..X.X"),
        Value::Bool(true),
        Value::list(vec![Value::Int(1), Value::str("a")]),
        Value::str("é.X"),
        Value::Range(2, 9),
        Value::Int(0),
        Value::Int(0),
    ]
}

/// Every binary operator.
pub const OPERATORS: [BinaryOp; 23] = [
    BinaryOp::Or,
    BinaryOp::And,
    BinaryOp::Eq,
    BinaryOp::Ne,
    BinaryOp::Lt,
    BinaryOp::Le,
    BinaryOp::Gt,
    BinaryOp::Ge,
    BinaryOp::In,
    BinaryOp::NotIn,
    BinaryOp::RangeExclusive,
    BinaryOp::RangeInclusive,
    BinaryOp::BitOr,
    BinaryOp::BitXor,
    BinaryOp::BitAnd,
    BinaryOp::Shl,
    BinaryOp::Shr,
    BinaryOp::Add,
    BinaryOp::Sub,
    BinaryOp::Mul,
    BinaryOp::Div,
    BinaryOp::Rem,
    BinaryOp::Pow,
];

pub fn ir(kind: IrKind) -> Ir {
    Ir {
        kind,
        span: Default::default(),
    }
}

/// Literals of each kind, and variables in slots below `slots`.
pub fn leaf(slots: u32) -> impl Strategy<Value = Ir> {
    prop_oneof![
        prop_oneof![-3i64..8, Just(i64::MAX), Just(i64::MIN)]
            .prop_map(|n| ir(IrKind::Lit(Value::Int(n)))),
        any::<bool>().prop_map(|b| ir(IrKind::Lit(Value::Bool(b)))),
        prop::sample::select(vec![".", "X", "ab", "é", ""])
            .prop_map(|s| ir(IrKind::Lit(Value::str(s)))),
        (0..slots).prop_map(|s| ir(IrKind::Local(s))),
    ]
}

/// `a op b` for any operator and operands drawn from `inner`.
pub fn binary(inner: BoxedStrategy<Ir>) -> impl Strategy<Value = Ir> {
    (
        prop::sample::select(OPERATORS.to_vec()),
        inner.clone(),
        inner,
    )
        .prop_map(|(op, a, b)| ir(IrKind::Binary(op, Box::new(a), Box::new(b))))
}
