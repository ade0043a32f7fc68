//! Lowered code against the interpreter on random expressions: whenever
//! lowered code answers, the interpreter gives the same value, without an
//! error. (tests/lowered.rs compares whole move rules of real games.)

use super::builtins::Builtin;
use super::interp::Interp;
use super::ir::{CompIr, GenIr, Ir, IrKind, Program};
use super::lowered::{Lower, Lowered};
use super::lowered_run::Runner;
use super::test_values::{binary, env, ir, leaf};
use super::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use proptest::prelude::*;

fn boxed(kind: IrKind) -> Box<Ir> {
    Box::new(ir(kind))
}

/// A bound of a generator's range: small, so that the interpreter, which
/// walks a range to its end whatever the guard says, finishes.
fn bound() -> impl Strategy<Value = Ir> {
    prop_oneof![
        (-3i64..6).prop_map(|n| ir(IrKind::Lit(Value::Int(n)))),
        (0u32..2).prop_map(|s| ir(IrKind::Local(s))),
        (0u32..2).prop_map(|s| ir(IrKind::Binary(
            BinaryOp::Add,
            boxed(IrKind::Local(s)),
            boxed(IrKind::Lit(Value::Int(2)))
        ))),
    ]
}

/// A generator over a range or the indices of a variable, into `slot`.
fn generator(slot: u32) -> impl Strategy<Value = GenIr> {
    prop_oneof![
        (bound(), bound(), any::<bool>()).prop_map(|(lo, hi, inclusive)| {
            let op = if inclusive {
                BinaryOp::RangeInclusive
            } else {
                BinaryOp::RangeExclusive
            };
            ir(IrKind::Binary(op, Box::new(lo), Box::new(hi)))
        }),
        (0u32..8).prop_map(|s| ir(IrKind::Builtin(
            Builtin::Indices,
            vec![ir(IrKind::Local(s))]
        ))),
    ]
    .prop_map(move |source| GenIr {
        slot,
        source,
        shown: Vec::new(),
    })
}

fn comprehension(inner: BoxedStrategy<Ir>) -> impl Strategy<Value = IrKind> {
    (
        inner.clone(),
        generator(8),
        prop::option::of(inner.clone()),
        prop::option::of(generator(9)),
    )
        .prop_map(|(element, first, guard, second)| {
            let mut clauses = vec![CompIr {
                generator: first,
                guard,
            }];
            if let Some(g) = second {
                clauses.push(CompIr {
                    generator: g,
                    guard: None,
                });
            }
            IrKind::Comprehension {
                element: Box::new(element),
                clauses,
            }
        })
}

fn expr() -> impl Strategy<Value = Ir> {
    leaf(10).prop_recursive(4, 40, 3, |inner| {
        let inner = inner.boxed();
        prop_oneof![
            ((0u32..10), inner.clone())
                .prop_map(|(s, i)| ir(IrKind::Index(boxed(IrKind::Local(s)), Box::new(i)))),
            binary(inner.clone()),
            (any::<bool>(), inner.clone()).prop_map(|(neg, a)| {
                let op = if neg { UnaryOp::Neg } else { UnaryOp::Not };
                ir(IrKind::Unary(op, Box::new(a)))
            }),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| ir(IrKind::If(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            ))),
            (0u32..10).prop_map(|s| ir(IrKind::Builtin(Builtin::Len, vec![ir(IrKind::Local(s))]))),
            (0u32..10).prop_map(|s| ir(IrKind::Builtin(Builtin::Sum, vec![ir(IrKind::Local(s))]))),
            ((0u32..10), prop::sample::select(vec!["X", ".X", "XX", ""])).prop_map(|(s, sub)| ir(
                IrKind::Builtin(
                    Builtin::Has,
                    vec![ir(IrKind::Local(s)), ir(IrKind::Lit(Value::str(sub)))]
                )
            )),
            comprehension(inner.clone())
                .prop_map(|c| ir(IrKind::Builtin(Builtin::Sum, vec![ir(c)]))),
            comprehension(inner).prop_map(ir),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn lowered_answers_are_what_evaluation_gives(e in expr()) {
        let (code, program) = (Lowered::default(), Program::default());
        let frame = std::cell::Cell::new(10);
        let lower = Lower { program: &program, functions: &[], slots: None, frame: &frame, inlined: 0 };
        let mut frames = Vec::new();
        let general = Interp::default().eval(&e, &mut env()).ok();
        if let Ok(c) = lower.num(&e) {
            if let Some(n) = Runner::new(&code, &program, &mut frames).num(&c, &mut env()) {
                prop_assert_eq!(&general, &Some(Value::Int(n)));
            }
        }
        if let Ok(c) = lower.truth(&e) {
            if let Some(b) = Runner::new(&code, &program, &mut frames).truth(&c, &mut env()) {
                prop_assert_eq!(&general, &Some(Value::Bool(b)));
            }
        }
        if let Ok(c) = lower.list(&e) {
            let mut ns = Vec::new();
            if Runner::new(&code, &program, &mut frames).list(&c, &mut env(), &mut ns).is_some() {
                let want = Value::list(ns.into_iter().map(Value::Int).collect());
                prop_assert_eq!(&general, &Some(want));
            }
        }
    }
}
