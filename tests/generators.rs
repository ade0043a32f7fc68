//! A generator over `product(lists)` walks the tuples one at a time instead
//! of building the product; it must bind exactly the tuples the built-in
//! lists, in the same order, and fail where the built-in fails.

mod common;

use common::session_with;
use proptest::prelude::*;

/// An argument for `product`: lists of numbers, ranges, strings, and now
/// and then something that is not a collection.
fn lists() -> impl Strategy<Value = String> {
    let list = prop_oneof![
        prop::collection::vec(0i64..9, 0..4).prop_map(|xs| format!("{xs:?}")),
        (0i64..4, 0i64..4).prop_map(|(a, b)| format!("{a}..={b}")),
        "[a-c]{0,3}".prop_map(|s| format!("{s:?}")),
        Just("7".to_string()),
    ];
    prop::collection::vec(list, 0..4).prop_map(|ls| format!("[{}]", ls.join(", ")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn a_product_generator_binds_the_tuples_the_built_in_lists(arg in lists()) {
        let mut session = session_with("");
        let built = session.eval_text(&format!("product({arg})"));
        // The list keeps every tuple, so none may be rewritten in place.
        let walked = session.eval_text(&format!("[t for t in product({arg})]"));
        match (&built, &walked) {
            (Ok(b), Ok(w)) => prop_assert_eq!(b, w),
            (Err(b), Err(w)) => prop_assert_eq!(&b[0].kind, &w[0].kind),
            _ => prop_assert!(false, "{arg}: built {built:?}, walked {walked:?}"),
        }
    }
}

#[test]
fn a_rule_that_keeps_its_tuple_sees_every_tuple() {
    // Each move's position is made from the tuple it was given; the
    // walk rewrites the tuple only once the move is done with it.
    let mut session = session_with(
        "game Keep(n: nat, t: [nat]) { move pick(p in product([0..n, 0..n])) if n > 0 => Keep(n - 1, p); }",
    );
    let parts = session.position("Keep(3, [])").expect("a position");
    let moves = session.moves(&parts).expect("moves");
    let results: Vec<String> = moves.iter().map(|m| session.show_sum(&m.result)).collect();
    let want: Vec<String> = (0..3)
        .flat_map(|a| (0..3).map(move |b| format!("Keep(2, [{a}, {b}])")))
        .collect();
    assert_eq!(results, want);
}
