//! One open document, analysed as `grundy check` would: parsed, checked,
//! its claims run, all within limits small enough that the editor never
//! waits long for an answer.

use super::symbols::Symbols;
use super::text::LineIndex;
use crate::error::{Error, ErrorKind, Errors};
use crate::session::Session;
use crate::source::{SourceId, Span};
use lsp_types::{Location, Uri};
use std::time::Duration;

/// The document is the first text its session reads; the files it
/// imports come after.
pub const DOCUMENT: SourceId = SourceId(0);

/// How long the claims of one version of a document may run in all.
pub const CLAIM_TIME: Duration = Duration::from_secs(2);
/// How long the value of a position under the mouse may take.
pub const HOVER_TIME: Duration = Duration::from_millis(500);
/// The positions one search may store: a fraction of the command line's
/// default, so that the server stays small beside the editor.
pub const MAX_POSITIONS: usize = 500_000;

/// What became of a claim.
pub enum Verdict {
    Holds,
    Fails(String),
    /// It ran past the editor's limits (not an error in the file).
    Unsettled(String),
}

pub struct ClaimState {
    pub span: Span,
    pub verdict: Verdict,
}

pub struct Analysis {
    pub text: String,
    pub lines: LineIndex,
    /// The names of this version, if it parses.
    pub symbols: Option<Symbols>,
    /// The errors `grundy check` would print, in the same words.
    pub errors: Errors,
    pub claims: Vec<ClaimState>,
    /// The loaded program, to answer questions about positions.
    pub session: Session,
}

impl Analysis {
    pub fn new(name: &str, text: String) -> Analysis {
        let mut session = Session::new();
        session.interp.max_positions = MAX_POSITIONS;
        let symbols = crate::syntax::parse_file(crate::source::SourceId(0), &text)
            .ok()
            .map(|file| Symbols::of(&file, &text));
        let mut claims = Vec::new();
        let mut errors = within(CLAIM_TIME, || match session.load_text(name, &text) {
            Err(errors) => errors,
            Ok(_) => {
                let mut errors = Vec::new();
                for result in session.run_claims(0) {
                    let verdict = match result.failure {
                        None => Verdict::Holds,
                        Some(e) if is_limit(&e) => Verdict::Unsettled(e.kind.to_string()),
                        Some(e) => {
                            let message = e.kind.to_string();
                            errors.push(e);
                            Verdict::Fails(message)
                        }
                    };
                    claims.push(ClaimState {
                        span: result.span,
                        verdict,
                    });
                }
                errors
            }
        });
        // Warnings (`10^12`) are published too, with their own severity.
        errors.extend(session.take_warnings());
        Analysis {
            lines: LineIndex::new(&text),
            text,
            symbols,
            errors,
            claims,
            session,
        }
    }

    /// Where a span is: in the document (`uri`), or in a file it imports.
    pub fn location(&self, uri: &Uri, span: Span) -> Option<Location> {
        if span.source == DOCUMENT {
            let range = self
                .lines
                .range(&self.text, span.start as usize, span.end as usize);
            return Some(Location::new(uri.clone(), range));
        }
        let source = self.session.sources.try_get(span.source)?;
        let lines = LineIndex::new(&source.text);
        let range = lines.range(&source.text, span.start as usize, span.end as usize);
        Some(Location::new(super::files::uri_of(&source.name)?, range))
    }

    /// The Grundy value of the position written at `span`, if it names one
    /// without free variables and its search ends within the limits.
    pub fn value_of(&mut self, span: Span) -> Option<u32> {
        let text = self
            .text
            .get(span.start as usize..span.end as usize)?
            .to_string();
        let session = &mut self.session;
        within(HOVER_TIME, || {
            let parts = session.position(&text).ok()?;
            session.value(&parts).ok()
        })
    }
}

/// Whether an error says the editor's limits were reached rather than that
/// something is wrong in the file.
fn is_limit(e: &Error) -> bool {
    matches!(
        e.kind,
        ErrorKind::TimeLimit { .. }
            | ErrorKind::StateLimit { .. }
            | ErrorKind::OptionLimit { .. }
            | ErrorKind::Interrupted
    )
}

/// Runs `f` with the time limit set to `limit`, and then without one. A
/// Ctrl-C pressed meanwhile is kept, for the server to end on.
fn within<T>(limit: Duration, f: impl FnOnce() -> T) -> T {
    crate::interrupt::set_time_limit(Some(limit));
    crate::interrupt::clear();
    let result = f();
    let ctrl_c =
        crate::interrupt::requested() && crate::interrupt::stop_kind() == ErrorKind::Interrupted;
    crate::interrupt::set_time_limit(None);
    if !ctrl_c {
        crate::interrupt::clear();
    }
    result
}
