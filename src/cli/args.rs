//! Value parsers for the numeric options. Each refuses what the option
//! cannot mean, so that clap reports it as bad usage (exit 2) instead of a
//! command quietly reading it as "no limit" or "every time".

use std::time::Duration;

/// The longest duration an option accepts, in seconds: about 31 years,
/// far beyond any run, and small enough that a deadline counted in
/// milliseconds cannot overflow.
pub const MAX_SECONDS: u64 = 1_000_000_000;

/// A number of seconds greater than 0 and at most `MAX_SECONDS`, such as
/// `60` or `0.5`.
pub fn seconds(text: &str) -> Result<Duration, String> {
    let refused = || {
        format!("expected a number of seconds greater than 0 and at most {MAX_SECONDS}, such as 60 or 0.5")
    };
    let seconds: f64 = text.trim().parse().map_err(|_| refused())?;
    // Written so that NaN fails too.
    if !(seconds > 0.0 && seconds <= MAX_SECONDS as f64) {
        return Err(refused());
    }
    match Duration::try_from_secs_f64(seconds) {
        Ok(d) if !d.is_zero() => Ok(d),
        _ => Err(refused()),
    }
}

/// A count of at least 1, such as a limit on positions.
pub fn at_least_one(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("expected a whole number from 1 to {}", usize::MAX)),
    }
}

/// The error for a command given one argument where it takes files and
/// then a position (or a game). clap fills the last argument first, so it
/// takes the file for the position and says the file is missing; the user
/// named the file and left out the position, and is told so.
pub fn position_missing(mut e: clap::Error) -> clap::Error {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    let missing_files = matches!(
        e.get(ContextKind::InvalidArg),
        Some(ContextValue::Strings(names)) if names == &["<FILE>..."]
    );
    if e.kind() != ErrorKind::MissingRequiredArgument || !missing_files {
        return e;
    }
    let usage = e
        .get(ContextKind::Usage)
        .map(|u| u.to_string())
        .unwrap_or_default();
    let Some(last) = ["<POSITION>", "<GAME>"]
        .into_iter()
        .find(|last| usage.contains(last))
    else {
        return e;
    };
    e.insert(
        ContextKind::InvalidArg,
        ContextValue::Strings(vec![last.to_string()]),
    );
    e
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_must_be_finite_positive_and_in_range() {
        assert_eq!(seconds("60"), Ok(Duration::from_secs(60)));
        assert_eq!(seconds("0.5"), Ok(Duration::from_millis(500)));
        assert_eq!(seconds("1000000000"), Ok(Duration::from_secs(MAX_SECONDS)));
        for bad in [
            "0",
            "-1",
            "nan",
            "NaN",
            "inf",
            "-inf",
            "infinity",
            "1e30",
            "99999999999999999999",
            "1000000000.5",
            "1e-300",
            "",
            "ten",
        ] {
            assert!(seconds(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn counts_start_at_one() {
        assert_eq!(at_least_one("1"), Ok(1));
        assert_eq!(at_least_one("500"), Ok(500));
        for bad in ["0", "-1", "1.5", "", "many", "99999999999999999999999"] {
            assert!(at_least_one(bad).is_err(), "{bad:?} was accepted");
        }
    }

    /// What clap says about `grundy ARGS`, after `position_missing`.
    fn usage_error(args: &[&str]) -> String {
        use clap::Parser;
        let e = super::super::Cli::try_parse_from(args).expect_err("refused");
        position_missing(e).render().to_string()
    }

    #[test]
    fn one_argument_is_the_file_and_the_position_is_missing() {
        let said = usage_error(&["grundy", "value", "nim.game"]);
        assert!(said.contains("not provided:\n  <POSITION>\n"), "{said}");
        let said = usage_error(&["grundy", "table", "nim.game", "--upto", "3"]);
        assert!(said.contains("not provided:\n  <GAME>\n"), "{said}");
        // With nothing given, both are missing; `check` takes files alone.
        let said = usage_error(&["grundy", "value"]);
        assert!(said.contains("<FILE>...\n  <POSITION>\n"), "{said}");
        let said = usage_error(&["grundy", "check"]);
        assert!(said.contains("not provided:\n  <FILE>...\n"), "{said}");
    }
}
