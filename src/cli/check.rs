//! `grundy check FILE...`

use super::{Failed, Options, Output};
use crate::error::ErrorKind;
use crate::session::Session;

/// `--help` for `--verify-decomposition N`: what is compared, and what
/// "up to size N" means for each kind of parameter.
pub const VERIFY_HELP: &str = "\
Also compare every declared decomposition with a search of the whole
position, on every position up to size N, and report the first
difference (exit 1).

A game with `parts =` is compared with a search of its own moves that
ignores its `parts =`. An alias that sums positions of one game taking
the same parameters, such as `game Board(g: grid) = [Cram(r) for r in
regions(g, \".\")]`, is compared with that game on the whole position
(`Cram(g)`). Any other sum, and a game with `parts =` but no moves, is
named as not verifiable.

Size up to N: a nat 0..=N; an int -N..=N; a string of at most N letters;
a grid of at most N cells; a list or set whose length plus the sizes of
its elements is at most N; a tuple whose sizes add up to at most N. Each
parameter is bounded on its own. Strings and grids are written in the
letters of the string literals of the game's rules and helpers. At most
100000 positions per game.";

pub fn run(
    opts: &Options,
    files: &[String],
    verify: Option<usize>,
    out: &mut Output,
) -> Result<(), Failed> {
    let mut all_ok = true;
    for file in files {
        // Each file is its own program: files may define the same names.
        let mut session = opts.session();
        if let Err(errors) = session.load_file(file) {
            out.errors(&errors, &session.sources);
            out.note(format!(
                "{file}: {} error{}",
                errors.len(),
                plural(errors.len())
            ));
            all_ok = false;
            continue;
        }
        let results = session.run_claims(0);
        let mut failures: Vec<_> = results.into_iter().filter_map(|r| r.failure).collect();
        // Once the time or memory limit is reached every later claim stops
        // at once: one report of it is enough.
        if let Some(first) = failures.iter().position(|e| {
            matches!(
                e.kind,
                ErrorKind::TimeLimit { .. } | ErrorKind::MemoryLimit { .. }
            )
        }) {
            failures.truncate(first + 1);
        }
        if failures.iter().any(|e| e.kind == ErrorKind::Interrupted) {
            out.note("interrupted");
            return Err(Failed::Interrupted);
        }
        let total = session.claim_count();
        if failures.is_empty() {
            out.line(format!(
                "{file}: {total} claim{} hold{}",
                plural(total),
                if total == 1 { "s" } else { "" }
            ));
        } else {
            out.errors(&failures, &session.sources);
            out.line(format!(
                "{file}: {} of {total} claims failed",
                failures.len()
            ));
            all_ok = false;
        }
        if let Some(n) = verify {
            all_ok &= verify_file(&mut session, file, n, out)?;
        }
    }
    if all_ok {
        Ok(())
    } else {
        Err(Failed::Diagnostic)
    }
}

/// Verifies the file's decompositions; whether they all held.
fn verify_file(
    session: &mut Session,
    file: &str,
    n: usize,
    out: &mut Output,
) -> Result<bool, Failed> {
    let summary = match crate::verify::decompositions(session, n) {
        Ok(summary) => summary,
        Err(e) if e.kind == ErrorKind::Interrupted => {
            out.note("interrupted");
            return Err(Failed::Interrupted);
        }
        Err(e) => {
            out.errors(&[e], &session.sources);
            out.line(format!("{file}: a decomposition failed to verify"));
            return Ok(false);
        }
    };
    for (game, why) in &summary.unverifiable {
        out.note(format!("{file}: `{game}` cannot be verified: {why}"));
    }
    for (game, against, count) in &summary.verified {
        out.line(format!(
            "{file}: `{game}` agrees with {against} on all {count} positions up to size {n}"
        ));
    }
    if summary.verified.is_empty() && summary.unverifiable.is_empty() {
        out.line(format!(
            "{file}: no game declares a decomposition (`parts =`, or an alias that sums a \
             board's parts), so there is nothing to verify"
        ));
    }
    Ok(true)
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
