//! Every fast path against the plain method: the octal-game kernel behind
//! `table` must give exactly the values the general memoized solver finds.

use grundy::Session;
use proptest::prelude::*;

fn both_ways(code: &str, upto: u64) -> (Vec<u32>, Vec<u32>) {
    let mut session = Session::new();
    let text = format!("game G = octal {code};");
    if let Err(e) = session.load_text("kernel-test.game", &text) {
        panic!("`{text}` does not load: {e:?}");
    }
    let g = session.heap_game("G").expect("G is a heap game");
    let fast = session.table(g, upto, |_, _| {}).expect("the kernel runs");
    let plain = session
        .plain_table(g, upto, |_, _| {})
        .expect("the memo runs");
    (fast, plain)
}

#[test]
fn named_games_agree_far_out() {
    for code in [
        "0.77", "0.07", "0.137", "0.007", "4.7", "0.16", "0.6", "4.0",
    ] {
        let (fast, plain) = both_ways(code, 300);
        assert_eq!(fast, plain, "octal {code}");
    }
}

#[test]
fn values_of_64_and_more_take_the_stamped_path() {
    // A code of seventy 7s lets a move remove up to 70 tokens anywhere, so
    // g(n) = n for small n: values pass 64 and both ways of marking options
    // are exercised.
    let code = format!("0.{}", "7".repeat(70));
    let (fast, plain) = both_ways(&code, 200);
    assert!(
        plain.iter().any(|&v| v >= 64),
        "the test needs values of 64 and more"
    );
    assert_eq!(fast, plain);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_codes_agree(first in prop::sample::select(vec!['0', '4']),
                          digits in prop::collection::vec(0u8..8, 1..5),
                          upto in 0u64..60) {
        let code: String = std::iter::once(first.to_string())
            .chain(std::iter::once(".".to_string()))
            .chain(digits.iter().map(|d| d.to_string()))
            .collect();
        let (fast, plain) = both_ways(&code, upto);
        prop_assert_eq!(fast, plain, "octal {}", code);
    }
}
