//! Random games whose positions pack into a key (decoded from bytes by
//! `fuzz/src/packed_games.rs`, beside the heap games' generator), each
//! compared with the reference interpreter on every position
//! reachable from its starts (`common::engines`): values by the compiled
//! search of packed keys, options in order with their labels by the
//! compiled code of packed keys, and errors as whole diagnostics.

mod common;

#[allow(dead_code)]
#[path = "../fuzz/src/lib.rs"]
mod harness;

use common::engines::{compare_from, session, value_of, Limits};
use grundy::eval::Compact;
use harness::packed_games::{decode, PackedGame};
use proptest::prelude::*;
use proptest::test_runner::{FileFailurePersistence, RngSeed};

/// Small: a random game's starts reach a few dozen positions, and a game
/// that grows without end stops at the state limit in every engine alike.
const LIMITS: Limits = Limits {
    reached: 60,
    max_positions: 400,
};

/// What one game's comparison covered.
#[derive(Default)]
struct Covered {
    positions: usize,
    listed_compiled: usize,
    searched_compiled: bool,
}

/// Smaller still, for the games that stop at a limit in a few positions
/// with every question asked again: a debug build compares them quickly.
const TIGHT: Limits = Limits {
    reached: 30,
    max_positions: 60,
};

/// Compares every engine with the reference from each start of `game`,
/// panicking with the game's text at the first difference.
fn compare(game: &PackedGame, limits: Limits) -> Covered {
    let mut covered = Covered::default();
    for start in &game.starts {
        match compare_from("random.game", &game.text, start, limits) {
            Ok(compared) => {
                covered.positions += compared.positions.len();
                covered.listed_compiled += compared.listed_compiled;
                covered.searched_compiled |= compared.searched_compiled;
            }
            Err(difference) => panic!("{difference}\nstarts {:?}\n{}", game.starts, game.text),
        }
    }
    covered
}

/// The seed of the random games: `PROPTEST_RNG_SEED` when set (for a
/// run of other games by hand), otherwise a fixed one, so that every run
/// of the suite compares the same games and takes the same time. Now and
/// then a drawn game walks millions of candidates that its guard turns
/// down, which no limit bounds (minutes in a debug build); the games of
/// the fixed seed are known to take seconds.
fn seed() -> RngSeed {
    match std::env::var_os("PROPTEST_RNG_SEED") {
        Some(_) => ProptestConfig::default().rng_seed,
        None => RngSeed::Fixed(0x6772_756e_6479),
    }
}

/// The number of random games a run compares: `PROPTEST_CASES` when set
/// (for a long run by hand), otherwise few enough for a debug build.
fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: cases(),
        rng_seed: seed(),
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct(
            "tests/random_packed.proptest-regressions",
        ))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_packed_games_agree_with_the_reference(
        bytes in prop::collection::vec(any::<u8>(), 0..160)
    ) {
        compare(&decode(&bytes), LIMITS);
    }
}

/// The same comparison on a fixed set of games, which must mostly take
/// the compiled code: a generator whose games all fell back on the
/// interpreter would compare the interpreter with itself.
#[test]
fn most_random_packed_games_take_the_compiled_code() {
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next_byte = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state >> 32) as u8
    };
    let games = 60;
    let (mut positions, mut listed, mut searched) = (0, 0, 0);
    for _ in 0..games {
        let bytes: Vec<u8> = (0..160).map(|_| next_byte()).collect();
        let covered = compare(&decode(&bytes), LIMITS);
        positions += covered.positions;
        listed += covered.listed_compiled;
        searched += usize::from(covered.searched_compiled);
    }
    println!("{games} games, {positions} positions, {listed} listed by the compiled code, {searched} games searched by it");
    assert!(
        searched * 3 > games * 2,
        "only {searched} of {games} games took the compiled search"
    );
    assert!(
        listed * 2 > positions,
        "the compiled code listed only {listed} of {positions} positions"
    );
}

/// Compares every engine with the reference from each start of `text`,
/// and returns the reference's value of the first start.
fn agrees(text: &str, starts: &[&str]) -> Result<u32, String> {
    agrees_within(text, starts, LIMITS)
}

/// `agrees` within other limits.
fn agrees_within(text: &str, starts: &[&str], limits: Limits) -> Result<u32, String> {
    let game = PackedGame {
        text: text.to_string(),
        starts: starts.iter().map(|s| s.to_string()).collect(),
    };
    compare(&game, limits);
    let mut reference = session("test.game", text, Compact::Off, limits).expect("it loads");
    value_of(&mut reference, starts[0])
}

/// A tuple is worked out whole before it is compared: an element that
/// overflows is an error even where the first elements already differ.
/// The compiled code compared element by element and stopped at the
/// first difference, so it answered a value where the interpreter
/// reports the overflow.
#[test]
fn a_tuple_compared_is_worked_out_whole() {
    let text = "game G(x: nat, y: nat) {
        move m(k in 1..=y) if y > x and (x, x - 9223372036854775807 - 2) != (y, 2) => G(x, y - k);
    }";
    let found = agrees(text, &["G(0, 2)", "G(3, 3)"]);
    assert!(found.is_err_and(|e| e.starts_with("Overflow")));
    let nested = "game G(x: nat, y: nat) {
        move m(k in 1..=y) if y > x and ((x, 1), (x - 9223372036854775807 - 2, 3)) != ((y, 1), (2, 3))
            => G(x, y - k);
    }";
    let found = agrees(nested, &["G(0, 2)", "G(3, 3)"]);
    assert!(found.is_err_and(|e| e.starts_with("Overflow")));
}

/// Games drawn here whose positions grow without end and have many
/// options each, most of them alike: a move adds a heap whatever the
/// loops' variables hold, so a list of n heaps has n² options (the first)
/// or three for each token (the second). Worked out one by one on the
/// interpreter up to the state limit (lists of 400 heaps, 160,000 options
/// each), the first took 97 s in a release build. The state limit bounds
/// one position's options too: every engine stops at the first position
/// with more (60 here), a few positions in.
#[test]
fn a_position_with_more_options_than_the_state_limit_ends_the_search() {
    let grows = [
        (
            "game G(hs: [nat], t: bool) {
                move m0(i in indices(hs), j in indices(hs)) => G(hs + [min(abs(2 - 1), 9)], not t);
            }",
            ["G([3, 4], false)", "G([0], true)"],
        ),
        (
            "game G(hs: [nat]) {
                move m0(i in indices(hs), k in 1..=hs[i]) if min(2, 1) in {1, 2} => [];
                move m1(i in indices(hs), k in 0..hs[i]) if k < hs[i] and not (i == 0 or hs[i - 1] >= hs[i]) => [];
                move m2(i in indices(hs), k in 0..hs[i]) => G(hs + [min(2, 9)]);
                lose if hs[0] == 2 and hs[3] > 0;
            }",
            ["G([4, 0, 4])", "G([0, 4])"],
        ),
    ];
    for (text, starts) in grows {
        for start in starts {
            let found = agrees_within(text, &[start], TIGHT);
            assert!(
                found.as_ref().is_err_and(|e| e.starts_with("OptionLimit")),
                "{start}: {found:?}"
            );
            // Alone, as the command line asks: the positions made before
            // the one with too many options, far fewer than the limit,
            // each a heap longer.
            let mut alone = session("test.game", text, Compact::Off, TIGHT).expect("it loads");
            assert_eq!(value_of(&mut alone, start), found);
            let made = alone.interp.positions.len();
            assert!(
                made < TIGHT.max_positions / 3,
                "{start}: {made} positions made"
            );
        }
    }
}

/// A game the compiled search answers whose positions have more options
/// than the state limit, all but a few alike (three loops over the board,
/// the result reading one): it gives the position up, and every engine
/// reports it as the interpreter does.
#[test]
fn the_compiled_search_gives_up_a_position_with_more_options_than_the_limit() {
    let text = "game G(b: str) {
        move m(i in indices(b), j in indices(b), k in indices(b)) if b[i] == \".\" => G(set_at(b, i, \"X\"));
    }";
    // 3 cells: 3 * 9 options at the start; 4 cells: 4 * 16.
    assert_eq!(agrees_within(text, &["G(\"...\")"], TIGHT), Ok(1));
    let found = agrees_within(text, &["G(\"....\")", "G(\".X..X\")"], TIGHT);
    assert!(found.is_err_and(|e| e.starts_with("OptionLimit")));
}
