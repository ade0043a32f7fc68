//! The solver's promises that no single example shows.

use grundy::Session;

/// A heap that can only shrink by one is a chain as long as the heap: the
/// search keeps its own stack, so even on a test thread's small stack a
/// chain of 300,000 positions is fine.
#[test]
fn a_long_chain_needs_no_deep_stack() {
    let mut session = Session::new();
    session
        .load_text(
            "chain.game",
            "game S(n: nat) { move take() if n > 0 => S(n - 1); }",
        )
        .expect("the game loads");
    let parts = session.position("S(300000)").expect("a position");
    assert_eq!(session.value(&parts).expect("a value"), 0);
    let parts = session.position("S(299999)").expect("a position");
    assert_eq!(session.value(&parts).expect("a value"), 1);
    assert_eq!(session.height(&parts).expect("a height"), 299_999);
}

/// Values are not capped: a heap of n in Nim has value n, far past 255.
#[test]
fn grundy_values_are_unbounded() {
    let mut session = Session::new();
    session
        .load_text(
            "nim.game",
            "game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k); }",
        )
        .expect("the game loads");
    let parts = session.position("Heap(700)").expect("a position");
    assert_eq!(session.value(&parts).expect("a value"), 700);
}
