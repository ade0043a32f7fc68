//! `grundy check FILE...`

use super::{Failed, Options, Output};
use crate::error::ErrorKind;

pub fn run(opts: &Options, files: &[String], out: &mut Output) -> Result<(), Failed> {
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
        // Once the time limit runs out every later claim stops at once:
        // one report of it is enough.
        if let Some(first) = failures
            .iter()
            .position(|e| matches!(e.kind, ErrorKind::TimeLimit { .. }))
        {
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
    }
    if all_ok {
        Ok(())
    } else {
        Err(Failed::Diagnostic)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
