//! A `parts =` whose result is the position itself means "no split here":
//! the position is searched by its moves. Cram and Mock Turtles written as
//! one game each (splitting into regions, or into single coins, which
//! then split no further) must value every position reachable from a few
//! starts exactly as the same rules without `parts =` do.

mod common;

use common::{agree_on_reachable, session_with, value_of};

const CRAM: &str = r##"
fn width(g: grid) = if len(g) == 0 then 0 else len(g[0]);
fn cover(row: str, c: nat) = set_at(row, c, "#");

game Cram(g: grid) {
  move across(r in indices(g), c in 0..width(g) - 1) if g[r][c] == "." and g[r][c + 1] == "."
    => Cram(set_at(g, r, cover(cover(g[r], c), c + 1)));
  move down(r in 0..len(g) - 1, c in 0..width(g)) if g[r][c] == "." and g[r + 1][c] == "."
    => Cram(set_at(set_at(g, r, cover(g[r], c)), r + 1, cover(g[r + 1], c)));
  PARTS
}
"##;

const MOCK_TURTLES: &str = r##"
fn flip(row: str, j: nat) = set_at(row, j, if row[j] == "H" then "T" else "H");
fn alone(row: str, i: nat) = set_at(repeat("T", len(row)), i, "H");

game Mock(row: str) {
  move turn(i in indices(row), a in 0..=i, b in 0..=a) if row[i] == "H" and (a < i or b == i)
    => Mock(if a == i then flip(row, i)
            else if b == a then flip(flip(row, i), a)
            else flip(flip(flip(row, i), a), b));
  PARTS
}
"##;

/// The values of every position reachable from `starts`, first with the
/// game's `parts =` rule, then with the rules alone (brute force); both
/// must agree. Returns how many positions were compared.
fn compare(game: &str, parts: &str, starts: &[&str]) -> usize {
    let mut split = session_with(&game.replace("PARTS", parts));
    let mut brute = session_with(&game.replace("PARTS", ""));
    agree_on_reachable(&mut split, &mut brute, starts, 2000)
}

#[test]
fn cram_split_into_regions_agrees_with_its_moves() {
    let n = compare(
        CRAM,
        r#"parts = [Cram(r) for r in regions(g, ".")];"#,
        &[
            r#"Cram(["...", "...", "..."])"#,
            r#"Cram(["....", ".#..", "...."])"#,
            r#"Cram([".....", "....."])"#,
            r#"Cram(["......."])"#,
        ],
    );
    assert!(n > 500, "only {n} positions compared");
}

#[test]
fn mock_turtles_split_into_coins_agrees_with_its_moves() {
    let n = compare(
        MOCK_TURTLES,
        r#"parts = [Mock(alone(row, i)) for i in indices(row) if row[i] == "H"];"#,
        &["Mock(\"HHHHHHH\")", "Mock(\"THTHHTHH\")"],
    );
    assert!(n > 200, "only {n} positions compared");
}

#[test]
fn a_lone_mock_turtle_is_worth_an_odious_number() {
    // A single head in place n (from 1) is worth the n-th odious number
    // (OEIS A000069; Winning Ways, Mock Turtles).
    let mut session = session_with(&MOCK_TURTLES.replace(
        "PARTS",
        r#"parts = [Mock(alone(row, i)) for i in indices(row) if row[i] == "H"];"#,
    ));
    const ODIOUS: [u32; 10] = [1, 2, 4, 7, 8, 11, 13, 14, 16, 19];
    for (i, odious) in ODIOUS.iter().enumerate() {
        let mut row = vec!['T'; ODIOUS.len()];
        row[i] = 'H';
        let row: String = row.into_iter().collect();
        assert_eq!(
            value_of(&mut session, &format!("Mock(\"{row}\")")),
            *odious,
            "{row}"
        );
    }
}
