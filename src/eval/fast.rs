//! Expressions the interpreter can answer without making a value: numbers
//! read from variables and lists, arithmetic that cannot overflow, and
//! comparisons, including a board's cell against a one-character string.
//! A move rule's guard and its helpers are mostly these, and they run for
//! every move of every position searched.
//!
//! Each function answers only when the general path would give the same
//! answer without an error; otherwise it says nothing (`None`) and the
//! caller evaluates the expression the ordinary way. They read and never
//! write, so giving up part way leaves nothing to undo.

use super::interp::{Env, Interp};
use super::ir::{Ir, IrKind};
use super::operators::int_fast_path;
use super::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};

impl Interp {
    /// The number an expression evaluates to, when that is quick and sure.
    pub(super) fn try_int(&self, ir: &Ir, env: &Env) -> Option<i64> {
        match &ir.kind {
            IrKind::Lit(Value::Int(n)) => Some(*n),
            IrKind::Local(slot) => match &env[*slot as usize] {
                Value::Int(n) => Some(*n),
                _ => None,
            },
            IrKind::Index(target, index) => {
                let IrKind::Local(slot) = target.kind else {
                    return None;
                };
                let i = usize::try_from(self.try_int(index, env)?).ok()?;
                match &env[slot as usize] {
                    Value::List(xs) | Value::Tuple(xs) | Value::Set(xs) => match xs.get(i)? {
                        Value::Int(n) => Some(*n),
                        _ => None,
                    },
                    _ => None,
                }
            }
            IrKind::Binary(op, lhs, rhs) if !matches!(op, BinaryOp::And | BinaryOp::Or) => {
                let (a, b) = (self.try_int(lhs, env)?, self.try_int(rhs, env)?);
                match int_fast_path(*op, a, b)? {
                    Value::Int(n) => Some(n),
                    _ => None,
                }
            }
            IrKind::Unary(UnaryOp::Neg, operand) => self.try_int(operand, env)?.checked_neg(),
            _ => None,
        }
    }

    /// The truth of an expression, when that is quick and sure.
    pub(super) fn try_bool(&self, ir: &Ir, env: &Env) -> Option<bool> {
        use BinaryOp::*;
        match &ir.kind {
            IrKind::Lit(Value::Bool(b)) => Some(*b),
            IrKind::Local(slot) => match &env[*slot as usize] {
                Value::Bool(b) => Some(*b),
                _ => None,
            },
            IrKind::Unary(UnaryOp::Not, operand) => self.try_bool(operand, env).map(|b| !b),
            IrKind::Binary(op @ (And | Or), lhs, rhs) => {
                let l = self.try_bool(lhs, env)?;
                if (*op == And) != l {
                    return Some(l);
                }
                self.try_bool(rhs, env)
            }
            IrKind::Binary(op @ (Eq | Ne), lhs, rhs) => {
                let same = match (self.try_int(lhs, env), self.try_int(rhs, env)) {
                    (Some(a), Some(b)) => a == b,
                    _ => self
                        .cell_is(lhs, rhs, env)
                        .or_else(|| self.cell_is(rhs, lhs, env))?,
                };
                Some(same == (*op == Eq))
            }
            IrKind::Binary(op @ (Lt | Le | Gt | Ge), lhs, rhs) => {
                let (a, b) = (self.try_int(lhs, env)?, self.try_int(rhs, env)?);
                Some(match op {
                    Lt => a < b,
                    Le => a <= b,
                    Gt => a > b,
                    _ => a >= b,
                })
            }
            _ => None,
        }
    }

    /// Whether `board[i]` (an ASCII string in a variable) is the
    /// one-character string `literal`, read as bytes.
    fn cell_is(&self, cell: &Ir, literal: &Ir, env: &Env) -> Option<bool> {
        let IrKind::Lit(Value::Str(want)) = &literal.kind else {
            return None;
        };
        let IrKind::Index(target, index) = &cell.kind else {
            return None;
        };
        let IrKind::Local(slot) = target.kind else {
            return None;
        };
        let Value::Str(board) = &env[slot as usize] else {
            return None;
        };
        if want.len() != 1 || !board.is_ascii() {
            return None;
        }
        let i = usize::try_from(self.try_int(index, env)?).ok()?;
        board.as_bytes().get(i).map(|&b| b == want.as_bytes()[0])
    }
}

#[cfg(test)]
mod tests {
    use super::super::interp::Interp;
    use super::super::ir::{Ir, IrKind};
    use super::super::test_values::{binary, env, ir, leaf};
    use super::super::value::Value;
    use crate::syntax::ast::{BinaryOp, UnaryOp};
    use proptest::prelude::*;

    fn expr() -> impl Strategy<Value = Ir> {
        leaf(8).prop_recursive(4, 32, 2, |inner| {
            prop_oneof![
                ((0u32..8), inner.clone()).prop_map(|(s, i)| ir(IrKind::Index(
                    Box::new(ir(IrKind::Local(s))),
                    Box::new(i)
                ))),
                binary(inner.clone()),
                (any::<bool>(), inner).prop_map(|(neg, a)| ir(IrKind::Unary(
                    if neg { UnaryOp::Neg } else { UnaryOp::Not },
                    Box::new(a)
                ))),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Whenever a fast path answers, the general evaluation gives the
        /// same value, without an error.
        #[test]
        fn fast_answers_are_what_evaluation_gives(e in expr()) {
            let mut interp = Interp::default();
            let mut env = env();
            let fast_int = interp.try_int(&e, &env);
            let fast_bool = interp.try_bool(&e, &env);
            let general = interp.eval(&e, &mut env).ok();
            if let Some(n) = fast_int {
                prop_assert_eq!(general.clone(), Some(Value::Int(n)));
            }
            if let Some(b) = fast_bool {
                prop_assert_eq!(general, Some(Value::Bool(b)));
            }
        }
    }

    #[test]
    fn the_fast_paths_answer_the_common_cases() {
        let interp = Interp::default();
        let env = env();
        let local = |s| Box::new(ir(IrKind::Local(s)));
        let lit = |v| Box::new(ir(IrKind::Lit(v)));
        let cell = ir(IrKind::Index(local(3), lit(Value::Int(2))));
        let is_x = ir(IrKind::Binary(
            BinaryOp::Eq,
            Box::new(cell),
            lit(Value::str("X")),
        ));
        assert_eq!(interp.try_bool(&is_x, &env), Some(true));
        let pile = ir(IrKind::Index(local(2), local(1)));
        assert_eq!(interp.try_int(&pile, &env), None, "a negative index");
        let pile = ir(IrKind::Index(local(2), lit(Value::Int(0))));
        let less = ir(IrKind::Binary(BinaryOp::Sub, Box::new(pile), local(0)));
        assert_eq!(interp.try_int(&less, &env), Some(2));
        let overflow = ir(IrKind::Binary(
            BinaryOp::Add,
            Box::new(ir(IrKind::Index(local(2), lit(Value::Int(2))))),
            lit(Value::Int(1)),
        ));
        assert_eq!(interp.try_int(&overflow, &env), None);
    }
}
