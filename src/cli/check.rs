//! `grundy check FILE...`

use super::{json, Failed, Options, Output};
use crate::error::{Error, ErrorKind, Errors};
use crate::session::Session;
use serde_json::Value as Json;

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

/// `--help` for `--verify-symmetry N`.
pub const VERIFY_SYMMETRY_HELP: &str = "\
Also value every position up to size N of each game with `symmetry =`,
and each of its images, by a search that ignores every symmetry, and
report the first position whose image has another value (exit 1).

Size up to N is counted as for --verify-decomposition: a grid of at most
N cells, a string of at most N letters, and so on. At most 100000
positions per game.";

/// Which declarations `grundy check` verifies, and up to which size.
#[derive(Clone, Copy, Debug, Default)]
pub struct Verify {
    /// `--verify-decomposition N`
    pub decomposition: Option<usize>,
    /// `--verify-symmetry N`
    pub symmetry: Option<usize>,
}

pub fn run(
    opts: &Options,
    files: &[String],
    verify: Verify,
    json: bool,
    out: &mut Output,
) -> Result<(), Failed> {
    let mut all_ok = true;
    let mut documents = Vec::new();
    for file in files {
        // Each file is its own program: files may define the same names.
        let mut session = opts.session();
        let Ok(checked) = check_file(&mut session, file, verify) else {
            out.interrupted();
            return Err(Failed::Interrupted);
        };
        super::query::warn(&mut session, out);
        all_ok &= checked.ok();
        if json {
            documents.push(checked.to_json(&session, file));
        } else {
            checked.print(&session, file, out);
        }
    }
    if json {
        out.line(serde_json::json!({ "ok": all_ok, "files": documents }).to_string());
    }
    if all_ok {
        Ok(())
    } else {
        Err(Failed::Diagnostic)
    }
}

/// What checking one file found.
enum Checked {
    /// The file could not be read, parsed or type-checked.
    NotLoaded(Errors),
    /// It loaded; these of its claims failed.
    Claims {
        total: usize,
        failures: Errors,
        /// What each `--verify-...` option asked for found.
        verified: Vec<Verified>,
    },
}

/// A kind of declaration the search trusts, which `check` can verify.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Declared {
    Decomposition,
    Symmetry,
}

/// What `--verify-decomposition N` or `--verify-symmetry N` found.
struct Verified {
    declared: Declared,
    size: usize,
    result: Result<crate::verify::Summary, Error>,
}

/// Loads the file, runs its claims and verifies its decompositions; an
/// error only when Ctrl-C stopped it.
fn check_file(session: &mut Session, file: &str, verify: Verify) -> Result<Checked, Failed> {
    if let Err(errors) = session.load_file(file) {
        return Ok(Checked::NotLoaded(errors));
    }
    let results = session.run_claims(0);
    let mut failures: Vec<_> = results.into_iter().filter_map(|r| r.failure).collect();
    // Once the time limit runs out every later claim stops at once: one
    // report of it is enough.
    if let Some(first) = failures.iter().position(|e| {
        matches!(
            e.kind,
            ErrorKind::TimeLimit { .. } | ErrorKind::MemoryLimit { .. }
        )
    }) {
        failures.truncate(first + 1);
    }
    let interrupted = |e: &Error| e.kind == ErrorKind::Interrupted;
    if failures.iter().any(interrupted) {
        return Err(Failed::Interrupted);
    }
    let asked = [
        (Declared::Decomposition, verify.decomposition),
        (Declared::Symmetry, verify.symmetry),
    ];
    let mut verified = Vec::new();
    for (declared, size) in asked {
        let Some(size) = size else { continue };
        let result = match declared {
            Declared::Decomposition => crate::verify::decompositions(session, size),
            Declared::Symmetry => crate::verify::symmetries(session, size),
        };
        if result.as_ref().is_err_and(interrupted) {
            return Err(Failed::Interrupted);
        }
        verified.push(Verified {
            declared,
            size,
            result,
        });
    }
    Ok(Checked::Claims {
        total: session.claim_count(),
        failures,
        verified,
    })
}

impl Checked {
    fn ok(&self) -> bool {
        match self {
            Checked::NotLoaded(_) => false,
            Checked::Claims {
                failures, verified, ..
            } => failures.is_empty() && verified.iter().all(|v| v.result.is_ok()),
        }
    }

    fn print(&self, session: &Session, file: &str, out: &mut Output) {
        match self {
            Checked::NotLoaded(errors) => {
                out.errors(errors, &session.sources);
                out.note(format!(
                    "{file}: {} error{}",
                    errors.len(),
                    plural(errors.len())
                ));
            }
            Checked::Claims {
                total,
                failures,
                verified,
            } => {
                if failures.is_empty() {
                    out.line(format!(
                        "{file}: {total} claim{} hold{}",
                        plural(*total),
                        if *total == 1 { "s" } else { "" }
                    ));
                } else {
                    out.errors(failures, &session.sources);
                    out.line(format!(
                        "{file}: {} of {total} claims failed",
                        failures.len()
                    ));
                }
                for v in verified {
                    v.print(session, file, out);
                }
            }
        }
    }

    fn to_json(&self, session: &Session, file: &str) -> Json {
        let errors = |errors: &[Error]| -> Vec<Json> {
            errors
                .iter()
                .map(|e| json::error(e, &session.sources))
                .collect()
        };
        match self {
            Checked::NotLoaded(e) => serde_json::json!({
                "file": file,
                "loaded": false,
                "claims": 0,
                "failed": 0,
                "errors": errors(e),
            }),
            Checked::Claims {
                total,
                failures,
                verified,
            } => {
                let mut doc = serde_json::json!({
                    "file": file,
                    "loaded": true,
                    "claims": total,
                    "failed": failures.len(),
                    "errors": errors(failures),
                });
                for v in verified {
                    let key = match v.declared {
                        Declared::Decomposition => "decompositions",
                        Declared::Symmetry => "symmetries",
                    };
                    doc[key] = v.to_json(session);
                }
                doc
            }
        }
    }
}

impl Verified {
    fn print(&self, session: &Session, file: &str, out: &mut Output) {
        let n = self.size;
        let summary = match &self.result {
            Ok(summary) => summary,
            Err(e) => {
                out.errors(std::slice::from_ref(e), &session.sources);
                let what = match self.declared {
                    Declared::Decomposition => "a decomposition",
                    Declared::Symmetry => "a symmetry",
                };
                out.line(format!("{file}: {what} failed to verify"));
                return;
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
            let none = match self.declared {
                Declared::Decomposition => {
                    "no game declares a decomposition (`parts =`, or an alias that sums a \
                     board's parts)"
                }
                Declared::Symmetry => "no game declares a symmetry (`symmetry =`)",
            };
            out.line(format!("{file}: {none}, so there is nothing to verify"));
        }
    }

    fn to_json(&self, session: &Session) -> Json {
        match &self.result {
            Ok(summary) => serde_json::json!({
                "size": self.size,
                "verified": summary.verified.iter().map(|(game, against, positions)| {
                    serde_json::json!({ "game": game, "against": against, "positions": positions })
                }).collect::<Vec<_>>(),
                "unverifiable": summary.unverifiable.iter().map(|(game, reason)| {
                    serde_json::json!({ "game": game, "reason": reason })
                }).collect::<Vec<_>>(),
                "error": null,
            }),
            Err(e) => serde_json::json!({
                "size": self.size,
                "verified": [],
                "unverifiable": [],
                "error": json::error(e, &session.sources),
            }),
        }
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
