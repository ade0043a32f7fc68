//! Tables of heap games the heap-rule reader cannot read, filled upwards
//! from heap 0 by the compiled rules: each against the plain method (every
//! heap searched as a value is) and, where the game is simple enough to
//! write again here, against a brute force of its own.

mod common;

use common::mex;
use grundy::eval::engine::Path;
use grundy::Session;

const GAMES: &str = "
    // Subtract a square.
    game Square(n: nat) { move take(k in 1..=n) if k * k <= n => Square(n - k * k); }
    // Subtract a proper divisor.
    game Divisor(n: nat) { move take(d in 1..n) if n % d == 0 => Divisor(n - d); }
    // Grundy's game with no part a multiple of 3.
    game NoThrees(n: nat) {
      move split(a in 1..n) if a != n - a and a % 3 != 0 and (n - a) % 3 != 0
        => NoThrees(a) + NoThrees(n - a);
    }
    // Take a power of two, or halve an even heap into two equal halves.
    game Powers(n: nat) {
      move take(i in 0..20) if pow(2, i) <= n => Powers(n - pow(2, i));
      move halve() if n > 0 and n % 2 == 0 => [Powers(n / 2), Powers(n / 2)];
    }
    // Take any number, or split into three heaps of which none is empty:
    // values pass 64 early.
    game Three(n: nat) {
      move take(k in 1..=n) => Three(n - k);
      move split(a in 1..n, b in 1..n) if a * b > 0 and a + b < n and a <= b and b <= n - a - b
        => Three(a) + Three(b) + Three(n - a - b);
    }
";

/// The paths the engine log holds, in the order they were first taken.
fn paths_of(session: &Session) -> Vec<Path> {
    let entries = &session.interp.engines.entries;
    entries.iter().map(|e| e.path.clone()).collect()
}

/// The session's table of `name` and the plain method's, and the path the
/// table took.
fn both_ways(name: &str, upto: u64) -> (Vec<u32>, Vec<u32>, Vec<Path>) {
    let mut session = common::session_with(GAMES);
    let g = session.heap_game(name).expect("a heap game");
    session.interp.engines.clear();
    let table = session.table(g, upto, |_, _| {}).expect("the table runs");
    let paths = paths_of(&session);
    let mut plain = Session::new();
    plain.load_text("plain.game", GAMES).expect("loads");
    let searched = plain
        .plain_table(g, upto, |_, _| {})
        .expect("the plain method runs");
    (table, searched, paths)
}

#[test]
fn every_game_agrees_with_the_plain_method_upwards() {
    for (name, upto) in [
        ("Square", 300),
        ("Divisor", 300),
        ("NoThrees", 150),
        ("Powers", 300),
        ("Three", 90),
    ] {
        let (table, plain, paths) = both_ways(name, upto);
        assert_eq!(table, plain, "{name}");
        assert_eq!(paths, [Path::CompiledTable], "{name}");
    }
    let (three, _, _) = both_ways("Three", 90);
    assert!(three.iter().any(|&v| v >= 64), "values of 64 and more");
}

#[test]
fn subtract_a_square_and_a_divisor_match_a_brute_force() {
    let upto = 400;
    let mut square = vec![0u32; upto + 1];
    let mut divisor = vec![0u32; upto + 1];
    for n in 1..=upto {
        let squares = (1..).take_while(|k| k * k <= n).map(|k| square[n - k * k]);
        square[n] = mex(squares.collect::<Vec<_>>());
        let divisors = (1..n).filter(|d| n % d == 0).map(|d| divisor[n - d]);
        divisor[n] = mex(divisors.collect::<Vec<_>>());
    }
    assert_eq!(both_ways("Square", upto as u64).0, square);
    assert_eq!(both_ways("Divisor", upto as u64).0, divisor);
}

/// A move to a larger heap is not tabulated upwards: the plain method
/// takes over where it first appears, and the values are the same.
#[test]
fn a_move_to_a_larger_heap_hands_the_table_to_the_plain_method() {
    // Heap 5 may grow to 7, which never comes back to 5 or 6.
    let text = "game Up(n: nat) {\n  move down(k in 1..=n) if n != 7 or k >= 3 => Up(n - k);\n  \
                move up() if n == 5 => Up(7);\n}\n";
    let mut session = common::session_with(text);
    let g = session.heap_game("Up").expect("a heap game");
    session.interp.engines.clear();
    let table = session.table(g, 40, |_, _| {}).expect("the table runs");
    let paths = paths_of(&session);
    // The reader and the compiled code each stop at heap 5.
    let stopped = [
        Path::HeapRuleReader,
        Path::CompiledTable,
        Path::CompiledSearch,
    ];
    assert_eq!(paths, stopped);
    let mut plain = common::session_with(text);
    let searched = plain.plain_table(g, 40, |_, _| {}).expect("plain");
    assert_eq!(table, searched);
}

/// An overflow at some heap is reported as the interpreter reports it,
/// with the same span, however the heaps before it were tabulated.
#[test]
fn an_overflow_is_reported_where_the_rule_makes_it() {
    let text = "game Big(n: nat) {\n  move take(k in 1..=n) if k * 1000000000000 * n > 0 => Big(n - k);\n}\n";
    let mut session = common::session_with(text);
    let g = session.heap_game("Big").expect("a heap game");
    let table = session.table(g, 20000, |_, _| {});
    let mut plain = common::session_with(text);
    let searched = plain.plain_table(g, 20000, |_, _| {});
    let kinds = |r: &Result<Vec<u32>, grundy::error::Errors>| match r {
        Ok(_) => panic!("the product overflows"),
        Err(errors) => errors.iter().map(|e| format!("{e:?}")).collect::<Vec<_>>(),
    };
    assert_eq!(kinds(&table), kinds(&searched));
}
