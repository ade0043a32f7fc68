//! `--max-states` counts the positions a session's searches hold, whichever
//! engine holds them: a question fails or succeeds under a limit alike
//! when the general search answers it alone (`Compact::Off`) and when the
//! compiled search of packed keys answers what it can.

mod common;

use grundy::error::ErrorKind;
use grundy::eval::Compact;
use grundy::session::Session;

const WYTHOFF: &str = include_str!("../bench/games/wythoff.game");
const CRAM: &str = include_str!("../bench/games/cram.game");
const CRAM_SYMMETRIC: &str = include_str!("../bench/games/cram-symmetric.game");
const BOARD: &str = r#"Cram(["...", "...", "..."])"#;

/// The values of `questions`, asked one after another in one session
/// under the limit, or the first error: its kind, where it points and
/// what the search was doing.
fn answers(
    text: &str,
    questions: &[&str],
    compact: Compact,
    limit: usize,
) -> Result<Vec<u32>, String> {
    let mut session = Session::new();
    session.interp.compact = compact;
    session.interp.max_positions = limit;
    session
        .load_text("test.game", text)
        .map_err(|e| format!("{e:?}"))?;
    let mut values = Vec::new();
    for question in questions {
        let parts = session.position(question).map_err(|e| format!("{e:?}"))?;
        let v = session.value(&parts).map_err(|errors| {
            let e = &errors[0];
            format!("{:?} at {:?}, {:?}", e.kind, e.span, e.context)
        })?;
        values.push(v);
    }
    Ok(values)
}

/// Answers with only the kind of their error.
fn kind(answers: Result<Vec<u32>, String>) -> Result<Vec<u32>, String> {
    answers.map_err(|e| e[..e.find(" at ").unwrap_or(e.len())].to_string())
}

/// The least limit under which the general search answers every question
/// (the answers succeed from some limit on); then, around it, every engine
/// answers as the general search does, and below it fails with the same
/// kind of error. (Where a compiled search meets the limit, the general
/// search reports it at once, at the first move it makes, rather than
/// making every position again to reach the same move.)
fn agree_around_the_least_limit(text: &str, questions: &[&str]) -> usize {
    let general = |limit| answers(text, questions, Compact::Off, limit);
    let least = (1..10_000)
        .find(|&limit| general(limit).is_ok())
        .expect("the questions can be answered");
    for limit in least.saturating_sub(3).max(1)..least + 3 {
        let want = kind(general(limit));
        for mode in [Compact::Plain, Compact::Fused] {
            let got = kind(answers(text, questions, mode, limit));
            assert_eq!(
                got, want,
                "{questions:?} under a limit of {limit}, searched {mode:?}"
            );
        }
    }
    least
}

/// A compiled search that meets the limit leaves the general search no
/// room: it reports the limit after a few moves instead of making every
/// position again on the interpreter (which took 100 seconds for a game
/// the compiled search met the limit of in 12).
#[test]
fn a_compiled_search_at_the_limit_is_not_searched_again() {
    let limit = 20_000;
    for mode in [Compact::Plain, Compact::Fused] {
        let mut session = Session::new();
        session.interp.compact = mode;
        session.interp.max_positions = limit;
        session
            .load_text("test.game", WYTHOFF)
            .expect("the game checks");
        let parts = session.position("Wythoff(300, 300)").expect("a position");
        let errors = session.value(&parts).expect_err("over the limit");
        assert!(matches!(errors[0].kind, ErrorKind::StateLimit { .. }));
        let made = session.interp.positions.len();
        // The root and its options, and as many as the compiled search had
        // open when it stopped (a path down from the root).
        assert!(
            made < limit / 10,
            "the interpreter made {made} positions, searched {mode:?}"
        );
    }
}

#[test]
fn one_game_needs_the_same_limit_in_every_engine() {
    // Wythoff's game from (6, 6) has 7 * 7 positions.
    assert_eq!(
        agree_around_the_least_limit(WYTHOFF, &["Wythoff(6, 6)"]),
        49
    );
    agree_around_the_least_limit(CRAM, &[BOARD]);
    agree_around_the_least_limit(CRAM_SYMMETRIC, &[BOARD]);
}

/// The parts of a sum, searched by two compiled searches, count together,
/// as the general search's positions do: a limit that holds each game's
/// positions but not both stops the question in every engine.
#[test]
fn the_parts_of_a_sum_count_together() {
    let text = format!("{WYTHOFF}\n{CRAM}");
    let alone = agree_around_the_least_limit(&text, &[BOARD]);
    let sum = format!("Wythoff(6, 6) + {BOARD}");
    let both = agree_around_the_least_limit(&text, &[&sum]);
    assert!(
        both >= alone + 49 - 1,
        "{both} positions for both, {alone} for Cram alone"
    );
}

/// Questions asked one after another in a session count together too,
/// each position once when the later questions fit the layout the first
/// of their game was searched in (3 bits a heap for Wythoff(6, 6) and
/// Wythoff(8, 8) hold up to 7 and 15). Only the kind of error is compared:
/// when a compiled search stops at the limit, the general search goes over
/// the question again, and the positions the compiled searches hold that it
/// has not made yet count already, so it may stop at another move.
#[test]
fn questions_one_after_another_count_together() {
    let text = format!("{WYTHOFF}\n{CRAM}");
    let questions = ["Wythoff(6, 6)", BOARD, "Wythoff(7, 3)"];
    agree_around_the_least_limit(&text, &questions);
    let questions = [BOARD, "Wythoff(8, 8)", "Wythoff(3, 3)", "Wythoff(12, 9)"];
    agree_around_the_least_limit(&text, &questions);
}

/// Heaps asked one after another, each larger than the last, outgrow the
/// layout the first was searched in: the next layout has room to grow, so
/// the small heaps are not searched again at every doubling (before, 201
/// heaps needed more than twice the limit the general search needs).
#[test]
fn growing_heaps_asked_one_after_another_are_searched_about_once() {
    let text = "game S(n: nat) { move take(k in 1..=3) if k <= n => S(n - k); }";
    let questions: Vec<String> = (0..=200).map(|n| format!("S({n})")).collect();
    let questions: Vec<&str> = questions.iter().map(String::as_str).collect();
    assert!(answers(text, &questions, Compact::Off, 201).is_ok());
    for mode in [Compact::Plain, Compact::Fused] {
        let found = answers(text, &questions, mode, 210);
        assert!(found.is_ok(), "searched {mode:?}: {found:?}");
    }
}

/// Two-pile Nim with one move that goes back up: from (3, 3) to (4, 4),
/// which leads back to (3, 3). Every position with both piles at least 3
/// reaches that loop; the others have the value x xor y.
const BACK_UP: &str = "game G(x: nat, y: nat) {
  move a(k in 1..=x) => G(x - k, y);
  move b(k in 1..=y) => G(x, y - k);
  move c() if x == 3 and y == 3 => G(4, 4);
}";

/// What each question says in one session, errors and all: its value, or
/// the kind of its error.
fn every_answer(questions: &[&str], compact: Compact, limit: usize) -> Vec<String> {
    let mut session = Session::new();
    session.interp.compact = compact;
    session.interp.max_positions = limit;
    session
        .load_text("test.game", BACK_UP)
        .expect("the game checks");
    questions
        .iter()
        .map(|question| {
            let kind = |kind: &grundy::error::ErrorKind| {
                let kind = format!("{kind:?}");
                kind[..kind.find(' ').unwrap_or(kind.len())].to_string()
            };
            // Making the position itself counts against the limit.
            let parts = match session.position(question) {
                Ok(parts) => parts,
                Err(errors) => return kind(&errors[0].kind),
            };
            match session.value(&parts) {
                Ok(v) => v.to_string(),
                Err(errors) => kind(&errors[0].kind),
            }
        })
        .collect()
}

/// A position counts once against the limit, even when a compiled search
/// and the general search both hold it: G(2, 2)'s 9 positions are found by
/// the compiled search, and found again by the general search when it
/// goes over G(10, 10) (whose 121 positions hold them) to report its
/// loop. Before, those 9 counted twice, so G(10, 10) stopped at the limit
/// below 130 instead of reporting its loop, and after it G(2, 20) (30 more
/// positions) stopped below 160.
#[test]
fn a_position_both_searches_hold_counts_once() {
    let questions = ["G(2, 2)", "G(10, 10)", "G(2, 20)"];
    for limit in [121, 125, 150, 151, 160] {
        let want = every_answer(&questions, Compact::Off, limit);
        for mode in [Compact::Plain, Compact::Fused] {
            let got = every_answer(&questions, mode, limit);
            assert_eq!(got, want, "under a limit of {limit}, searched {mode:?}");
        }
    }
    let answers = every_answer(&questions, Compact::Fused, 151);
    assert_eq!(answers, ["0", "Cycle", "22"]);
    let answers = every_answer(&questions, Compact::Fused, 150);
    assert_eq!(answers, ["0", "Cycle", "StateLimit"]);
}
