//! Errors as LSP diagnostics, in the words `grundy check` prints: the
//! same message, code and help (through the same miette report), the
//! same spans.

use super::analysis::Analysis;
use crate::diagnostic::Report;
use crate::error::Error;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString, Uri,
};
use miette::Diagnostic as _;

pub fn of(analysis: &Analysis, uri: &Uri) -> Vec<Diagnostic> {
    analysis
        .errors
        .iter()
        .map(|e| diagnostic(analysis, uri, e))
        .collect()
}

fn diagnostic(analysis: &Analysis, uri: &Uri, error: &Error) -> Diagnostic {
    let report = Report::new(error, &analysis.session.sources);
    let mut message = report.to_string();
    if let Some(help) = report.help() {
        message.push_str(&format!("\nhelp: {help}"));
    }
    let range = |span: crate::source::Span| {
        analysis
            .lines
            .range(&analysis.text, span.start as usize, span.end as usize)
    };
    // Places elsewhere in the file; places in other texts are named in the
    // help, as on the command line.
    let related: Vec<DiagnosticRelatedInformation> = error
        .related
        .iter()
        .filter(|(span, _)| span.source == error.span.source)
        .map(|(span, label)| DiagnosticRelatedInformation {
            location: Location::new(uri.clone(), range(*span)),
            message: label.clone(),
        })
        .collect();
    Diagnostic {
        range: range(error.span),
        severity: Some(if error.kind.is_warning() {
            DiagnosticSeverity::WARNING
        } else {
            DiagnosticSeverity::ERROR
        }),
        code: report.code().map(|c| NumberOrString::String(c.to_string())),
        source: Some("grundy".into()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}
