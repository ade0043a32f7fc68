//! "Did you mean ...?" for misspelled names.

/// The candidate closest to `name`, if it is close enough to be a likely
/// misspelling.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    if let Some(known) = familiar(name) {
        return Some(known.to_string());
    }
    let lower = name.to_lowercase();
    let mut near: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= (name.len().max(c.len()) / 3).max(1))
        .collect();
    near.sort_by_key(|(d, c)| (*d, c.len(), *c));
    near.dedup_by_key(|(_, c)| *c);
    match near.as_slice() {
        // Two names as near as each other (`j` when `k` and `n` are both
        // in scope): naming one would be a guess.
        [(d, _), (e, _), ..] if d == e => None,
        [(_, c), ..] => Some(c.to_string()),
        [] => None,
    }
}

/// Names people bring from other languages, and the outcomes written
/// without quotes: mistakes too far from the right name for spelling
/// distance to find it.
fn familiar(name: &str) -> Option<&'static str> {
    Some(match name {
        "length" | "lenght" | "size" | "count_of" => "len",
        "contains" | "includes" => "has",
        "nimsum" | "nim_sum" => "xor",
        "find" | "index" | "indexOf" | "indexof" | "position" => "index_of",
        "True" | "TRUE" => "true",
        "False" | "FALSE" => "false",
        "N" => "\"N\"",
        "P" => "\"P\"",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::closest;

    #[test]
    fn finds_a_near_miss_and_ignores_strangers() {
        let names = ["Heap", "Nim", "Kayles"];
        assert_eq!(closest("Kayels", names), Some("Kayles".into()));
        assert_eq!(closest("heap", names), Some("Heap".into()));
        assert_eq!(closest("Treblecross", names), None);
    }

    #[test]
    fn a_tie_is_not_a_suggestion() {
        assert_eq!(closest("j", ["k", "n"]), None);
        assert_eq!(closest("m", ["n"]), Some("n".into()));
        assert_eq!(closest("True", ["n"]), Some("true".into()));
    }

    #[test]
    fn familiar_names_from_other_languages_are_mapped() {
        assert_eq!(closest("lenght", ["height", "len"]), Some("len".into()));
        assert_eq!(closest("N", ["n"]), Some("\"N\"".into()));
        assert_eq!(closest("find", ["min", "len"]), Some("index_of".into()));
    }
}
