//! `**` computed by every way of running rules: the interpreter alone (the
//! reference) and positions packed into keys (step by step and fused). Each must give the same value, or the
//! same error (a power past 64 bits, a negative exponent), for every
//! position reachable from a few starts.

mod common;

use common::{reachable, session_with, POWER};
use grundy::eval::Compact;

/// The value of each position, or its error, in a fresh session.
fn values(positions: &[String], compact: Compact) -> Vec<Result<u32, String>> {
    let mut session = session_with(POWER);
    session.interp.compact = compact;
    positions
        .iter()
        .map(|p| {
            let parts = session.position(p).expect("a position");
            session.value(&parts).map_err(|e| format!("{e:?}"))
        })
        .collect()
}

#[test]
fn powers_have_the_same_values_however_the_rules_run() {
    let mut compared = 0;
    let mut errors = 0;
    for start in [
        "Power(60, 0)",
        "Power(60, 2)",
        "Power(50, 3)",
        "Power(2, 5)",
        "Power(3, 6)",
    ] {
        let mut session = session_with(POWER);
        let positions: Vec<String> = reachable(&mut session, start, 400)
            .into_iter()
            .map(|p| session.show_sum(&[p]))
            .collect();
        let reference = values(&positions, Compact::Off);
        for compact in [Compact::Plain, Compact::Fused] {
            assert_eq!(
                values(&positions, compact),
                reference,
                "from {start}, packed {compact:?}"
            );
        }
        compared += positions.len();
        errors += reference.iter().filter(|v| v.is_err()).count();
    }
    assert!(compared > 150, "only {compared} positions compared");
    assert!(
        errors >= 2,
        "the overflow and the negative exponent are both met"
    );
}

#[test]
fn powers_bind_tighter_than_minus_and_to_the_right() {
    let mut session = session_with("");
    for (text, expected) in [
        ("-2 ** 2", -4),
        ("2 ** 3 ** 2", 512),
        ("(2 ** 3) ** 2", 64),
        ("2 * 3 ** 2", 18),
        ("(-1) ** 9999999999", -1),
        ("0 ** 0", 1),
        ("2 ** 62 + (2 ** 62 - 1)", i64::MAX),
    ] {
        let got = session.eval_text(text).map(|v| format!("{v:?}"));
        assert_eq!(got, Ok(format!("Int({expected})")), "{text}");
    }
    for (text, code) in [("2 ** 63", "Overflow"), ("2 ** -1", "NegativeExponent")] {
        let got = session
            .eval_text(text)
            .map_err(|e| format!("{:?}", e[0].kind));
        assert!(
            got.as_ref().is_err_and(|e| e.starts_with(code)),
            "{text}: {got:?}"
        );
    }
}
