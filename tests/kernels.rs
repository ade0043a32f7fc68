//! Every fast path against the plain method: the octal-game kernel behind
//! `table` must give exactly the values the general memoized solver finds.

mod common;

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

/// Every heap game in the examples, and a few written to reach the corners
/// of the affine reading (fixed generators, sets, constants, `==`, `*`,
/// guards on n alone, a move to a heap that is not smaller): `table`
/// through the fast paths agrees with the plain memoized method.
#[test]
fn heap_games_written_as_rules_agree_with_the_plain_method() {
    const EXTRA: &str = "
        const S = {1, 3, 4};
        game Sub(n: nat) { move take(s in S) if s <= n => Sub(n - s); }
        game Halves(n: nat) { move cut(a in 1..=n / 2) => Halves(a) + Halves(n - 2 * a); }
        game Exact(n: nat) { move two(a in 0..n) if 2 * a + 1 == n => Exact(a) + Exact(a); move one() if n > 0 => Exact(n - 1); }
        game Fixed(n: nat) { move m(k in [2, 5], a in 0..=n - k) if k <= n => [Fixed(a), Fixed(n - k - a)]; }
        game Grow(n: nat) { move up() if n < 3 => Grow(n + 1); move down() if n > 0 => Grow(n - 1); }
    ";
    let mut checked = 0;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut texts: Vec<(String, String)> = std::fs::read_dir(root.join("examples"))
        .expect("examples/")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).expect("readable"),
            )
        })
        .collect();
    texts.push(("extra".into(), EXTRA.into()));
    for (name, text) in texts {
        let mut session = Session::new();
        session.load_text(&name, &text).expect("the file loads");
        let program = session.interp.program.clone();
        for game in program.games.iter() {
            let Ok(g) = session.heap_game(&game.name) else {
                continue;
            };
            let fast = session.table(g, 150, |_, _| {});
            let plain = session.plain_table(g, 150, |_, _| {});
            match (fast, plain) {
                (Ok(fast), Ok(plain)) => assert_eq!(fast, plain, "{name}: {}", game.name),
                (Err(_), Err(_)) => {}
                (fast, plain) => panic!("{name}: {}: {fast:?} against {plain:?}", game.name),
            }
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} heap games were compared");
}

/// The shapes the affine reading is meant for are recognised (so the test
/// above compares the fast path, not the plain method with itself).
#[test]
fn the_usual_heap_rules_are_read_as_arithmetic() {
    let text = "
        game Grundy(n: nat) { move split(a in 1..n) if a < n - a => Grundy(a) + Grundy(n - a); }
        game Kayles(n: nat) { move knock(k in 1..=2, a in 0..=n - k) if k <= n => Kayles(a) + Kayles(n - k - a); }
        const S = {2, 3, 5};
        game T(n: nat) { move take(s in S) if s <= n => T(n - s); }
        game Nim(n: nat) { move take(k in 1..=n) => Nim(n - k); }
        game Board(b: str) { move m(i in indices(b)) => Board(b); }
    ";
    let mut session = Session::new();
    session.load_text("shapes.game", text).expect("loads");
    let program = session.interp.program.clone();
    let recognised = |name: &str| {
        let g = program
            .games
            .iter()
            .position(|g| g.name == name)
            .expect("defined") as u32;
        grundy::solve::affine::recognise(
            &program.games[g as usize],
            g,
            &program.functions,
            &session.interp.consts,
        )
        .is_ok()
    };
    for name in ["Grundy", "Kayles", "T", "Nim"] {
        assert!(recognised(name), "{name} should be read as arithmetic");
    }
    assert!(!recognised("Board"), "a board game is not a heap game");
}

/// A split game whose values pass 64 early, so splits are also marked
/// through the stamped array, compared with the plain method.
#[test]
fn splits_with_large_values_agree_with_the_plain_method() {
    let text = "
        game Big(n: nat) {
          move take(k in 1..=n) => Big(n - k);
          move split(a in 1..n) if a < n - a => Big(a) + Big(n - a);
        }
        game Even(n: nat) {
          move take(k in 1..=n) => Even(n - k);
          move split(a in 0..=n - 2) if a <= n - 2 - a => [Even(a), Even(n - 2 - a)];
        }
    ";
    let mut session = Session::new();
    session.load_text("big.game", text).expect("loads");
    for name in ["Big", "Even"] {
        let g = session.heap_game(name).expect("a heap game");
        let fast = session.table(g, 220, |_, _| {}).expect("fast");
        let plain = session.plain_table(g, 220, |_, _| {}).expect("plain");
        assert!(
            plain.iter().any(|&v| v >= 64),
            "{name} should reach values of 64"
        );
        assert_eq!(fast, plain, "{name}");
    }
}

/// Take-and-break games written as rules are handed to the rare-value
/// method as take, take-all and split moves only when every rule means
/// exactly that at every heap; the values it gives with the rules read that
/// way agree with the plain method, and near misses are left alone.
#[test]
fn rules_read_as_take_and_break_moves_agree_with_the_plain_method() {
    use grundy::solve::sparse::{self, HeapRules};
    let text = "
        game Grundy(n: nat) { move split(a in 1..n) if a < n - a => Grundy(a) + Grundy(n - a); }
        game Kayles(n: nat) { move knock(k in 1..=2, a in 0..=n - k) if k <= n => Kayles(a) + Kayles(n - k - a); }
        const S = {2, 3, 5};
        game T(n: nat) { move take(s in S) if s <= n => T(n - s); }
        game Leave(n: nat) { move take(s in S) if s < n => Leave(n - s); move split(a in 1..=n - 4) if 2 * a <= n - 3 => [Leave(a), Leave(n - 3 - a)]; }
        game Late(n: nat) { move split(a in 1..n) if a < n - a and n >= 10 => Late(a) + Late(n - a); move one() if n > 0 => Late(n - 1); }
        game NoOnes(n: nat) { move split(a in 2..n) if a < n - a => NoOnes(a) + NoOnes(n - a); move one() if n > 0 => NoOnes(n - 1); }
        game FromFive(n: nat) { move one() if n >= 5 => FromFive(n - 1); move two() if n >= 2 => FromFive(n - 2); }
        game ZeroMoves(n: nat) { move z() if n == 0 => []; move t() if n >= 2 => ZeroMoves(n - 2); move s(a in 0..n) if a <= n - 1 - a => ZeroMoves(a) + ZeroMoves(n - 1 - a); }
    ";
    let mut session = Session::new();
    session.load_text("moves.game", text).expect("loads");
    let program = session.interp.program.clone();
    let upto = 300;
    let mut read = Vec::new();
    for (g, game) in program.games.iter().enumerate() {
        let g = g as u32;
        let affine =
            grundy::solve::affine::recognise(game, g, &program.functions, &session.interp.consts)
                .expect("every game here is affine");
        let Some(rules) = affine.heap_rules(upto) else {
            continue;
        };
        read.push(game.name.clone());
        let values = sparse::sequence(&rules, Default::default(), upto, |_| {
            std::ops::ControlFlow::Continue(())
        });
        let plain = session
            .plain_table(g, upto as u64, |_, _| {})
            .expect("plain");
        assert_eq!(values.to_vec(), plain, "{}", game.name);
        if game.name == "Grundy" {
            assert_eq!(rules, HeapRules::grundys_game());
        }
    }
    assert_eq!(read, ["Grundy", "Kayles", "T", "Leave"]);
}

/// A game's table with all but the heap fixed (`Subtract({2, 3, 5}, _)`)
/// against each position's value found by a fresh session's search; the
/// period is proven exactly when the fixed arguments make the rules
/// arithmetic.
#[test]
fn tables_with_fixed_arguments_agree_with_each_positions_value() {
    let text = "
        game Subtract(s: {nat}, n: nat) {
          move take(k in s) if 1 <= k and k <= n => Subtract(s, n - k);
        }
        game UpTo(k: nat, n: nat) {
          move take(j in 1..=k) if j <= n => UpTo(k, n - j);
        }
        game Split(n: nat, m: nat) {
          move cut(a in 1..n) if a < n - a => Split(a, m) + Split(n - a, m);
          move eat(j in 1..=m) if j <= n => Split(n - j, m);
        }
        // The fixed argument changes along a move: searched, not read as
        // arithmetic.
        game Growing(k: nat, n: nat) {
          move take(j in 1..=k) if j <= n => Growing(k + 1, n - j);
        }
    ";
    let upto = 60;
    for (family, proven) in [
        ("Subtract({2, 3, 5}, _)", Some(true)),
        ("Subtract({5, 1, 4, 4}, _)", Some(true)),
        ("UpTo(3, _)", Some(true)),
        ("Split(_, 2)", None),
        ("Growing(1, _)", Some(false)),
    ] {
        let mut session = common::session_with(text);
        let free = session.family(family).expect("a family of one free number");
        let table = session
            .table_run(&free, grundy::session::TableRequest::upto(upto))
            .expect("the table runs");
        let mut searched = common::session_with(text);
        for n in 0..=upto {
            let position = family.replace('_', &n.to_string());
            assert_eq!(
                table.values.get(n as usize),
                Some(common::value_of(&mut searched, &position)),
                "{position}"
            );
        }
        if let Some(proven) = proven {
            assert_eq!(table.proof.is_some(), proven, "{family}");
        }
    }
}

/// The rare/common method counts a heap of 0 as 0 and drops a part of 0
/// (a heap of 0 has no move in an octal game). A game whose heap 0 has a
/// move (above, `ZeroMoves`, whose g(0) is 1) is not read that way; this
/// one, whose heap 0 has none, is, parts of 0 and all.
#[test]
fn rules_with_a_part_of_0_are_read_as_takes_only_while_heap_0_has_no_move() {
    use grundy::solve::sparse::HeapRules;
    let text = "game Lasker0(n: nat) { move s(a in 0..n) if a <= n - 1 - a => Lasker0(a) + Lasker0(n - 1 - a); }";
    let mut session = Session::new();
    session.load_text("zero.game", text).expect("loads");
    let program = session.interp.program.clone();
    let affine = grundy::solve::affine::recognise(
        &program.games[0],
        0,
        &program.functions,
        &session.interp.consts,
    )
    .expect("affine");
    let rules = affine.heap_rules(100).expect("read as takes and splits");
    assert_eq!(
        rules,
        // At heap 1 both parts are 0: a take of the whole heap.
        HeapRules {
            take_all: vec![1],
            take: vec![1],
            split: vec![(1, false)],
        }
    );
}

/// A proven period speaks for a heap only where none of the rules'
/// arithmetic can overflow: `n - 1 + C - C` with C = MAX - 40 overflows
/// from heap 42 on, as the interpreter finds.
#[test]
fn a_period_speaks_only_for_heaps_whose_arithmetic_fits() {
    let c = i64::MAX - 40;
    let text = format!("game W(n: nat) {{ move m() if n >= 2 => W(n - 1 + {c} - {c}); }}");
    let mut session = Session::new();
    session.load_text("edge.game", &text).expect("loads");
    let program = session.interp.program.clone();
    let affine = grundy::solve::affine::recognise(
        &program.games[0],
        0,
        &program.functions,
        &session.interp.consts,
    )
    .expect("affine");
    assert_eq!(affine.exact_below(), 42);
    assert_eq!(affine.shape().map(|s| s.exact_below), Some(42));
    // The table to 30 proves period 2 from heap 1 on, for heaps below 42.
    let family = session.family("W").expect("a heap game");
    let table = session
        .table_run(&family, grundy::session::TableRequest::upto(30))
        .expect("a table");
    let proof = table.proof.expect("a proven period");
    assert_eq!(proof.period.period, 2);
    assert_eq!(proof.value(&table.values, 41), Some(table.values.at(1)));
    assert_eq!(proof.value(&table.values, 42), None);
    let w41 = session.position("W(41)").expect("a position");
    assert!(session.value(&w41).is_ok());
    let w42 = session.position("W(42)").expect("a position");
    let errors = session.value(&w42).expect_err("an overflow");
    assert!(matches!(
        errors[0].kind,
        grundy::error::ErrorKind::Overflow { .. }
    ));
    // Rules whose only edge is `n + 1` at the largest heap speak for all
    // the others.
    let nim = "game Nim(n: nat) { move take(k in 1..=n) => Nim(n - k); }";
    let mut session = Session::new();
    session.load_text("nim.game", nim).expect("loads");
    let program = session.interp.program.clone();
    let affine = grundy::solve::affine::recognise(
        &program.games[0],
        0,
        &program.functions,
        &session.interp.consts,
    )
    .expect("affine");
    assert_eq!(affine.exact_below(), i64::MAX as u64);
}
