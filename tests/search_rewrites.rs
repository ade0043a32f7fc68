//! Every rewrite in `bench/games/search-rewrites/` (a game searched whole,
//! written another way) gives the values of its game's shipped form in
//! `bench/games/` on small positions, as
//! `bench/games/search-rewrites/forms.txt` pairs them: the correctness side
//! of `bench/search-rewrites.sh`, which times the two against each other.

mod common;

use common::{
    assert_every_game_file_listed, bench_games, listed_words, read_text, session_with, value_of,
};

/// (rewrite file, shipped form's file, shape), from forms.txt; the rest of
/// each line says what the rewrite varies.
fn forms() -> Vec<[String; 3]> {
    listed_words(&bench_games().join("search-rewrites/forms.txt"))
        .into_iter()
        .map(|words| {
            assert!(
                words.len() > 3,
                "forms.txt: nothing said of what varies: {words:?}"
            );
            [words[0].clone(), words[1].clone(), words[2].clone()]
        })
        .collect()
}

/// A small position of one of the shipped games, before it is written in
/// a shape.
#[derive(Clone, Copy)]
enum Small {
    /// Rows of a board, "." empty.
    Board(&'static [&'static str]),
    /// Chomp's columns, left to right, never increasing.
    Heights(&'static [u32]),
    Piles(u32, u32),
    /// Coins or cells, one letter each.
    Row(&'static str),
    Moore(u32, &'static [u32]),
}

/// The small positions compared for each shipped form.
fn small_positions(form: &str) -> &'static [Small] {
    use Small::*;
    match form {
        "cram.game" => &[
            Board(&["...", "..."]),
            Board(&["....", "#...", "...."]),
            Board(&["...", "...", "..."]),
            Board(&[".#..", "....", "..#."]),
            Board(&["......"]),
            Board(&["..", "..", "..", "#."]),
        ],
        "chomp-grid.game" | "chomp-heights.game" => &[
            Heights(&[3, 3, 3, 3]),
            Heights(&[4, 3, 3, 1]),
            Heights(&[3, 2, 2]),
            Heights(&[5, 5, 1]),
            Heights(&[2, 2, 2, 2, 1]),
            Heights(&[4, 4, 4]),
        ],
        "wythoff.game" => &[
            Piles(5, 3),
            Piles(6, 6),
            Piles(9, 7),
            Piles(0, 4),
            Piles(10, 12),
        ],
        "mock-turtles.game" => &[
            Row("HHTHH"),
            Row("THTHHT"),
            Row("HHHHHH"),
            Row("TTTH"),
            Row("HTHTHTH"),
        ],
        "treblecross.game" => &[
            Row("........"),
            Row(".X..X."),
            Row("..X.X.."),
            Row("X......."),
            Row("........."),
        ],
        "moores-nim.game" => &[
            Moore(2, &[3, 3, 2]),
            Moore(1, &[4, 3]),
            Moore(3, &[2, 2, 1, 2]),
            Moore(2, &[5, 4, 3, 1]),
        ],
        other => panic!("forms.txt: no small positions for {other}"),
    }
}

fn quoted(rows: impl IntoIterator<Item = String>) -> String {
    let rows: Vec<String> = rows.into_iter().map(|r| format!("{r:?}")).collect();
    format!("[{}]", rows.join(", "))
}

fn listed<T: ToString>(items: impl IntoIterator<Item = T>) -> String {
    let items: Vec<String> = items.into_iter().map(|i| i.to_string()).collect();
    format!("[{}]", items.join(", "))
}

/// The game each shipped form defines.
fn game_of(form: &str) -> &'static str {
    match form {
        "cram.game" => "Cram",
        "chomp-grid.game" | "chomp-heights.game" => "Chomp",
        "wythoff.game" => "Wythoff",
        "mock-turtles.game" => "Turtles",
        "treblecross.game" => "Treblecross",
        "moores-nim.game" => "Moore",
        other => panic!("forms.txt: no game for {other}"),
    }
}

/// The shape each shipped form is written in.
fn shape_of(form: &str) -> &'static str {
    match form {
        "cram.game" | "chomp-grid.game" => "grid",
        "chomp-heights.game" => "heights",
        "wythoff.game" => "pair",
        "mock-turtles.game" | "treblecross.game" => "str",
        "moores-nim.game" => "moore",
        other => panic!("forms.txt: no shape for {other}"),
    }
}

/// `small` written in `shape`, as a position of `game`.
fn written(game: &str, small: Small, shape: &str) -> String {
    let args = match (small, shape) {
        (Small::Board(rows), "grid") => quoted(rows.iter().map(|r| r.to_string())),
        (Small::Heights(h), "grid") => {
            let rows =
                (0..h[0]).map(|i| h.iter().map(|&x| if i < x { '.' } else { '#' }).collect());
            quoted(rows)
        }
        (Small::Heights(h), "heights") => listed(h.iter()),
        // The same bar by its rows from the poisoned one: row k holds a
        // square of every column taller than k.
        (Small::Heights(h), "rows") => {
            listed((0..h[0]).map(|k| h.iter().filter(|&&x| x > k).count()))
        }
        (Small::Piles(x, y), "pair") => format!("{x}, {y}"),
        (Small::Piles(x, y), "tuple") => format!("({x}, {y})"),
        (Small::Piles(x, y), "list") => format!("[{x}, {y}]"),
        (Small::Row(row), "str") => format!("{row:?}"),
        (Small::Row(row), "list") => listed(row.chars().map(|c| u32::from(c == 'H'))),
        (Small::Row(row), "bools") => listed(row.chars().map(|c| c == 'H' || c == 'X')),
        (Small::Moore(k, piles), "moore") => format!("{k}, {}", listed(piles.iter())),
        (_, other) => panic!("forms.txt: shape {other} does not fit {game}"),
    };
    format!("{game}({args})")
}

#[test]
fn every_rewrite_gives_its_shipped_forms_values() {
    let forms = forms();
    for [rewrite, form, shape] in &forms {
        let game = game_of(form);
        let mut shipped = session_with(&read_text(&bench_games().join(form)));
        let mut written_again = session_with(&read_text(
            &bench_games().join("search-rewrites").join(rewrite),
        ));
        for &small in small_positions(form) {
            let want = value_of(&mut shipped, &written(game, small, shape_of(form)));
            let position = written(game, small, shape);
            assert_eq!(
                value_of(&mut written_again, &position),
                want,
                "{rewrite}: {position}, against {form}"
            );
        }
    }
}

/// At least three rewrites of each game searched whole.
#[test]
fn every_game_searched_whole_has_three_rewrites() {
    let forms = forms();
    for game in [
        "Cram",
        "Chomp",
        "Wythoff",
        "Turtles",
        "Treblecross",
        "Moore",
    ] {
        let count = forms
            .iter()
            .filter(|[_, form, _]| game_of(form) == game)
            .count();
        assert!(count >= 3, "{game}: {count} rewrites");
    }
}

#[test]
fn every_rewrite_file_is_listed() {
    let listed: Vec<String> = forms().into_iter().map(|[rewrite, ..]| rewrite).collect();
    assert_every_game_file_listed(&bench_games().join("search-rewrites"), &listed);
}
