//! "Did you mean ...?" for misspelled names.

/// The candidate closest to `name`, if it is close enough to be a likely
/// misspelling.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<String> {
    let lower = name.to_lowercase();
    candidates
        .into_iter()
        .filter(|c| *c != name)
        .map(|c| (strsim::damerau_levenshtein(&lower, &c.to_lowercase()), c))
        .filter(|(d, c)| *d <= (name.len().max(c.len()) / 3).max(1))
        .min_by_key(|(d, c)| (*d, c.len()))
        .map(|(_, c)| c.to_string())
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
}
