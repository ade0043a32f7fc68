//! `symmetry =`: positions declared to be one position seen another way.
//! The value search stores one position of each orbit; every position
//! reachable from small boards must get the value the rules alone give,
//! and fewer positions must be stored for it.

mod common;

use common::{agree_on_reachable, session_with, value_of};
use grundy::eval::engine::Path;
use grundy::eval::Compact;
use grundy::session::Session;

const CRAM: &str = r##"
fn width(g: grid) = if len(g) == 0 then 0 else len(g[0]);
fn cover(row: str, c: nat) = set_at(row, c, "#");

game Cram(g: grid) {
  SYMMETRY
  move across(r in indices(g), c in 0..width(g) - 1) if g[r][c] == "." and g[r][c + 1] == "."
    => Cram(set_at(g, r, cover(cover(g[r], c), c + 1)));
  move down(r in 0..len(g) - 1, c in 0..width(g)) if g[r][c] == "." and g[r + 1][c] == "."
    => Cram(set_at(set_at(g, r, cover(g[r], c)), r + 1, cover(g[r + 1], c)));
}
"##;

/// The symmetries of a square board (8), or of a rectangle (4).
const SQUARE: &str = r#"symmetry = [Cram(reverse(g)), Cram(mirror(g)),
                         Cram(if len(g) == width(g) then transpose(g) else g)];"#;
/// Every board turned and reflected, a rectangle into the other shape too.
const TURNS: &str = "symmetry = [Cram(rotate(g)), Cram(mirror(g))];";

const TREBLECROSS: &str = r#"
game Treblecross(board: str) {
  lose if has(board, "XXX");
  SYMMETRY
  move place(i in indices(board)) if board[i] == "." => Treblecross(set_at(board, i, "X"));
}
"#;

/// The values of every position reachable from `starts`, with the
/// declaration and with the rules alone, agree; returns how many
/// positions were compared.
fn compare(game: &str, symmetry: &str, starts: &[&str]) -> usize {
    let mut declared = session_with(&game.replace("SYMMETRY", symmetry));
    let mut plain = session_with(&game.replace("SYMMETRY", ""));
    agree_on_reachable(&mut declared, &mut plain, starts, 5000)
}

#[test]
fn cram_with_its_symmetries_agrees_with_its_rules() {
    let starts = [
        r#"Cram(["...", "...", "..."])"#,
        r#"Cram(["....", "....", "...."])"#,
        r#"Cram(["....", ".#..", "...."])"#,
    ];
    let n = compare(CRAM, SQUARE, &starts);
    assert!(n > 400, "only {n} positions compared");
    assert_eq!(compare(CRAM, TURNS, &starts), n);
    // With the board split into its regions too, each region stands for
    // its orbit.
    let split = format!("{SQUARE}\n  parts = [Cram(r) for r in regions(g, \".\")];");
    assert_eq!(compare(CRAM, &split, &starts), n);
}

#[test]
fn treblecross_reversed_agrees_with_its_rules() {
    let starts = [
        r#"Treblecross(".......")"#,
        r#"Treblecross("..X......")"#,
        r#"Treblecross("........")"#,
    ];
    let n = compare(
        TREBLECROSS,
        "symmetry = [Treblecross(reverse(board))];",
        &starts,
    );
    assert!(n > 300, "only {n} positions compared");
}

/// Positions the compiled search stored after valuing `position` in a
/// fresh session, checked to have made every image on the key.
fn stored(text: &str, position: &str) -> (u32, usize) {
    let mut session: Session = session_with(text);
    let v = value_of(&mut session, position);
    declined_nothing(&session);
    (v, session.interp.solver.dense_positions())
}

/// Every game of the session ran on the compiled search, images and all.
fn declined_nothing(session: &Session) {
    let engines = &session.interp.engines.entries;
    assert!(engines.iter().all(|e| e.declined.is_empty()), "{engines:?}");
}

/// The declaration of examples/cram.game: a quarter turn of a square, a
/// half turn of any other board, and the reflection left to right.
const EXAMPLE: &str = "symmetry = [Cram(if len(g) == width(g) then rotate(g) else \
     reverse(mirror(g))), Cram(mirror(g))];";

#[test]
fn the_compiled_search_turns_boards_as_the_rules_do() {
    let starts = [
        r#"Cram(["...", "...", "..."])"#,
        r#"Cram(["....", "....", "...."])"#,
        r#"Cram(["....", "....", "....", "...."])"#,
        r#"Cram(["....", ".#..", "...."])"#,
    ];
    let mut general = session_with(&CRAM.replace("SYMMETRY", ""));
    general.interp.compact = Compact::Off;
    for symmetry in [EXAMPLE, SQUARE, TURNS, ""] {
        let mut compiled = session_with(&CRAM.replace("SYMMETRY", symmetry));
        let n = agree_on_reachable(&mut compiled, &mut general, &starts, 700);
        assert!(n > 1500, "only {n} positions compared");
        declined_nothing(&compiled);
        assert!(compiled.interp.solver.dense_positions() > 0);
    }
}

#[test]
fn a_square_board_stores_a_fraction_of_its_positions() {
    let board = r#"Cram(["....", "....", "....", "...."])"#;
    let (v, with) = stored(&CRAM.replace("SYMMETRY", SQUARE), board);
    let (w, without) = stored(&CRAM.replace("SYMMETRY", ""), board);
    // The second player wins on an even-by-even board by mirroring.
    assert_eq!((v, w), (0, 0));
    // 8 symmetries: close to an eighth; at most a sixth is pinned.
    assert!(with * 6 <= without, "{with} stored with, {without} without");
}

#[test]
fn an_orbit_that_never_comes_back_is_an_error() {
    let mut session = session_with(
        "game H(n: nat) { symmetry = [H(n + 1)]; move take(k in 1..=n) => H(n - k); }",
    );
    let parts = session.position("H(3)").expect("a position");
    let errors = session.value(&parts).expect_err("the orbit grows forever");
    let e = &errors[0];
    assert_eq!(e.kind.code(), "symmetry-orbit", "{e:?}");
}

#[test]
fn the_compiled_search_stores_one_row_of_each_pair() {
    let row = r#"Treblecross("................")"#;
    let stored = |symmetry: &str| {
        let mut session = session_with(&TREBLECROSS.replace("SYMMETRY", symmetry));
        let v = value_of(&mut session, row);
        let engines = &session.interp.engines.entries;
        assert!(engines.iter().all(|e| e.declined.is_empty()), "{engines:?}");
        (v, session.interp.solver.dense_positions())
    };
    let (v, with) = stored("symmetry = [Treblecross(reverse(board))];");
    let (w, without) = stored("");
    assert_eq!((v, w), (1, 1));
    // A row and its reverse are one position, except the few palindromes.
    assert!(
        with * 100 <= without * 51,
        "{with} stored with, {without} without"
    );
}

/// A board of three rows of 20 is too large for its letters to sit side
/// by side in a key, so its rows are numbered: the compiled search turns
/// it upside down, and names a reflection as what it cannot make.
#[test]
fn a_board_whose_rows_are_numbered_is_turned_only_upside_down() {
    let wall = |n| "#".repeat(n);
    let board = &format!(
        r#"Cram(["...{}", "..{}.", "{}.."])"#,
        wall(17),
        wall(17),
        wall(18)
    );
    let mut general = session_with(&CRAM.replace("SYMMETRY", ""));
    general.interp.compact = Compact::Off;
    let expected = value_of(&mut general, board);
    for (symmetry, turned) in [("symmetry = [Cram(reverse(g))];", true), (EXAMPLE, false)] {
        let mut session = session_with(&CRAM.replace("SYMMETRY", symmetry));
        assert_eq!(value_of(&mut session, board), expected, "{symmetry}");
        let engines = &session.interp.engines.entries;
        assert!(
            engines.iter().all(|e| e.path == Path::CompiledSearch),
            "{engines:?}"
        );
        let declined: Vec<_> = engines.iter().flat_map(|e| &e.declined).collect();
        let numbered = declined
            .iter()
            .any(|(_, why)| why.what.contains("rows are numbered"));
        assert_eq!(numbered, !turned, "{declined:?}");
        assert_eq!(declined.is_empty(), turned, "{declined:?}");
    }
}

#[test]
fn images_the_compiled_search_cannot_make_are_named_and_skipped() {
    let game = TREBLECROSS.replace(
        "SYMMETRY",
        "symmetry = [Treblecross(min([b for b in [board, reverse(board)]]))];",
    );
    let mut declared = session_with(&game);
    let mut plain = session_with(&TREBLECROSS.replace("SYMMETRY", ""));
    let row = r#"Treblecross("..........")"#;
    assert_eq!(value_of(&mut declared, row), value_of(&mut plain, row));
    let declined: Vec<_> = declared
        .interp
        .engines
        .entries
        .iter()
        .flat_map(|e| &e.declined)
        .collect();
    assert!(
        declined.iter().any(|(by, why)| by.contains("symmetry")
            && why
                .what
                .starts_with("a string the compiled search cannot work out")),
        "{declined:?}"
    );
    assert_eq!(
        declared.interp.solver.dense_positions(),
        plain.interp.solver.dense_positions()
    );
}

#[test]
fn piles_and_rows_reversed_agree_on_fields_of_several_bits() {
    let game = r#"
game Piles(h: [nat]) {
  SYMMETRY
  move take(i in indices(h), k in 1..=h[i]) if k <= 2 => Piles(set_at(h, i, h[i] - k));
}
game Row(board: str) {
  SYMMETRY
  move x(i in indices(board)) if board[i] == "." and not has(board, "XOX") => Row(set_at(board, i, "X"));
  move o(i in indices(board)) if board[i] == "." and not has(board, "XOX") => Row(set_at(board, i, "O"));
}
"#;
    let declared = game
        .replacen("SYMMETRY", "symmetry = [Piles(reverse(h))];", 1)
        .replacen("SYMMETRY", "symmetry = [Row(reverse(board))];", 1);
    let mut declared = session_with(&declared);
    let mut plain = session_with(&game.replace("SYMMETRY", ""));
    let n = agree_on_reachable(
        &mut declared,
        &mut plain,
        &[r#"Row(".....")"#, r#"Row("X..O..")"#, "Piles([3, 1, 2, 3])"],
        5000,
    );
    assert!(n > 300, "only {n} positions compared");
}

/// `grundy value --stats FILE POSITION`: the value, the positions the
/// search says it stored, and all it says.
fn value_and_stored(position: &str) -> (String, usize, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["value", "--stats", "tests/cli/cram-symmetry.game", position])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .env("NO_COLOR", "1")
        .output()
        .expect("grundy runs");
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    // "stats: N positions searched in ... s (...); M stored in ..."
    let stored = stderr
        .split("; ")
        .find_map(|part| part.split_once(" stored in ").map(|(n, _)| n.to_string()))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of positions stored in\n{stderr}"));
    let value = String::from_utf8_lossy(&output.stdout).trim().to_string();
    (value, stored, stderr.into_owned())
}

#[test]
fn stats_show_the_positions_a_symmetry_saves() {
    let board = r#"[".....", ".....", "....."]"#;
    let (v, without, plain) = value_and_stored(&format!("Cram({board})"));
    let (w, with, stats) = value_and_stored(&format!("Turned({board})"));
    let note = "one position stored for each family its `symmetry =` makes";
    assert!(
        stats.contains(note) && !plain.contains(note),
        "{stats}\n{plain}"
    );
    assert_eq!(v, w, "the same board, with and without its symmetry");
    // A 3x5 board has 4 symmetries that keep its shape, and the quarter
    // turn adds its 5x3 twin: well under half is stored.
    assert!(with * 3 <= without, "{with} stored with, {without} without");
}
