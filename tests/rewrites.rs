//! Every rewrite in `bench/games/rewrites/` (the same heap game written
//! another way) gives the values of the game's fastest form in
//! `bench/games/`, as `bench/games/rewrites/forms.txt` pairs them: the
//! correctness side of the benchmark that times them against each other.

mod common;

use common::{session_with, table_of};
use std::path::Path;

/// Heaps compared: enough for every rule to matter (splits, the largest
/// amount taken), small enough for the plain search of every rewrite.
const UPTO: u64 = 80;

fn games() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/bench/games"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

/// (rewrite file, its game, fastest form's file, its game), from forms.txt.
fn forms() -> Vec<[String; 4]> {
    read(&games().join("rewrites/forms.txt"))
        .lines()
        .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
        .map(|line| {
            let words: Vec<String> = line.split_whitespace().map(String::from).collect();
            words
                .try_into()
                .unwrap_or_else(|w: Vec<String>| panic!("forms.txt: not four words: {w:?}"))
        })
        .collect()
}

#[test]
fn every_rewrite_gives_its_fastest_forms_values() {
    let forms = forms();
    assert!(
        forms.len() >= 20,
        "forms.txt lists {} rewrites",
        forms.len()
    );
    for [rewrite, game, form, form_game] in forms {
        let fastest = table_of(
            &mut session_with(&read(&games().join(&form))),
            &form_game,
            UPTO,
        );
        let text = read(&games().join("rewrites").join(&rewrite));
        let values = table_of(&mut session_with(&text), &game, UPTO);
        assert_eq!(values, fastest, "{rewrite} against {form}");
    }
}

#[test]
fn every_rewrite_file_is_listed() {
    let listed: Vec<String> = forms().into_iter().map(|[rewrite, ..]| rewrite).collect();
    for entry in std::fs::read_dir(games().join("rewrites")).expect("bench/games/rewrites") {
        let name = entry.expect("a directory entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".game") {
            assert!(
                listed.iter().any(|l| l == &name),
                "{name} is not in forms.txt"
            );
        }
    }
}
