//! Errors as LSP diagnostics, in the words `grundy check` prints: the
//! same message, code and help (through the same miette report), the
//! same spans.

use super::analysis::{Analysis, DOCUMENT};
use crate::diagnostic::Report;
use crate::error::Error;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, NumberOrString, Uri,
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
    // An error in a file the document imports is shown on the `use` that
    // brought that file in, and points to where it is.
    let in_document = |span: &crate::source::Span| span.source == DOCUMENT;
    let shown_at = if in_document(&error.span) {
        Some(error.span)
    } else {
        error
            .related
            .iter()
            .map(|(span, _)| *span)
            .find(in_document)
    };
    let elsewhere = (!in_document(&error.span)).then(|| (error.span, error.kind.label()));
    let related: Vec<DiagnosticRelatedInformation> = elsewhere
        .iter()
        .chain(&error.related)
        .filter_map(|(span, label)| {
            Some(DiagnosticRelatedInformation {
                location: analysis.location(uri, *span)?,
                message: label.clone(),
            })
        })
        .collect();
    let range = shown_at
        .and_then(|span| analysis.location(uri, span))
        .map(|l| l.range)
        .unwrap_or_default();
    Diagnostic {
        range,
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
