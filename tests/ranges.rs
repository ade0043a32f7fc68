//! Ranges near the edges of 64 bits: a range may hold up to 2^64 - 1
//! numbers, more than a number of the language can count. Its length is
//! exact or an overflow error, and indexing it is exact, never clipped to
//! the largest number.

mod common;

use common::session_with;
use grundy::error::ErrorKind;
use grundy::eval::Value;
use proptest::prelude::*;

/// Ends of ranges: near 0 and near both edges.
fn end() -> impl Strategy<Value = i64> {
    prop_oneof![
        -3i64..3,
        (0i64..4).prop_map(|k| i64::MAX - k),
        (0i64..4).prop_map(|k| i64::MIN + k),
        any::<i64>(),
    ]
}

/// A number as source text: the smallest has no literal of its own.
fn lit(x: i64) -> String {
    match x {
        i64::MIN => format!("({} - 1)", i64::MIN + 1),
        x => format!("({x})"),
    }
}

fn eval(text: &str) -> Result<Value, ErrorKind> {
    let mut session = session_with("");
    session
        .eval_text(text)
        .map_err(|errors| errors[0].kind.clone())
}

#[test]
fn a_range_longer_than_the_largest_number_has_no_length() {
    // Both lengths used to be clipped to 9223372036854775807, so they
    // were equal.
    let max = i64::MAX;
    assert!(matches!(
        eval(&format!("len(-5..{max}) == len(0..{max})")),
        Err(ErrorKind::Overflow { .. })
    ));
    assert_eq!(eval(&format!("len(0..{max})")), Ok(Value::Int(max)));
    // And indexing past the clipped length found the element out of range.
    assert_eq!(
        eval(&format!("(-5..{max})[{}]", max - 1)),
        Ok(Value::Int(max - 6))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn lengths_and_elements_of_ranges_are_exact(lo in end(), hi in end(), i in end()) {
        let len = (i128::from(hi) - i128::from(lo)).max(0);
        let (l, h, at) = (lit(lo), lit(hi), lit(i));
        match eval(&format!("len({l}..{h})")) {
            Ok(Value::Int(n)) => prop_assert_eq!(i128::from(n), len),
            Err(ErrorKind::Overflow { .. }) => prop_assert!(len > i128::from(i64::MAX)),
            other => prop_assert!(false, "len({lo}..{hi}) gave {other:?}"),
        }
        match eval(&format!("({l}..{h})[{at}]")) {
            Ok(Value::Int(x)) => {
                prop_assert!(i >= 0 && i128::from(i) < len);
                prop_assert_eq!(i128::from(x), i128::from(lo) + i128::from(i));
            }
            Err(ErrorKind::IndexOutOfRange { .. }) => {
                prop_assert!(i < 0 || i128::from(i) >= len)
            }
            other => prop_assert!(false, "({lo}..{hi})[{i}] gave {other:?}"),
        }
    }
}
