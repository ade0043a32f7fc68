//! The one place where errors become miette diagnostics and are rendered.

use crate::error::Error;
use crate::source::{Sources, Span};
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceSpan,
};
use std::fmt;

/// An error with the text it points into, ready for miette.
#[derive(Debug)]
pub struct Report {
    message: String,
    code: String,
    help: Option<String>,
    source: NamedSource<String>,
    labels: Vec<LabeledSpan>,
    warning: bool,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Report {}

impl Diagnostic for Report {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(&self.code))
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(if self.warning {
            miette::Severity::Warning
        } else {
            miette::Severity::Error
        })
    }

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }
}

impl Report {
    pub fn new(error: &Error, sources: &Sources) -> Report {
        let source = sources.try_get(error.span.source);
        let named = match source {
            Some(s) => NamedSource::new(s.name.clone(), s.text.clone()),
            None => NamedSource::new("<unknown>", String::new()),
        };
        let mut labels = Vec::new();
        if source.is_some_and(|s| !s.text.is_empty()) {
            labels.push(LabeledSpan::new_primary_with_span(
                Some(error.kind.label()),
                to_span(error.span),
            ));
        }
        let mut help: Vec<String> = error.kind.help().into_iter().collect();
        for (span, label) in &error.related {
            if span.source == error.span.source {
                labels.push(LabeledSpan::new_with_span(
                    Some(label.clone()),
                    to_span(*span),
                ));
            } else {
                // A place in another text (a game's file, for a position
                // typed on the command line) is named rather than drawn.
                help.push(format!("{label}: {}", location(sources, *span)));
            }
        }
        help.extend(error.context.iter().map(|c| format!("while {c}")));
        Report {
            message: error.kind.to_string(),
            code: format!("grundy::{}", error.kind.code()),
            help: (!help.is_empty()).then(|| help.join("\n")),
            source: named,
            labels,
            warning: error.kind.is_warning(),
        }
    }
}

fn to_span(span: Span) -> SourceSpan {
    SourceSpan::new((span.start as usize).into(), span.len())
}

/// `file:line:column` of the start of a span.
fn location(sources: &Sources, span: Span) -> String {
    let Some(source) = sources.try_get(span.source) else {
        return "an unknown place".into();
    };
    let (line, column) = line_and_column(&source.text, span.start as usize);
    format!("{}:{line}:{column}", source.name)
}

/// The line and column (in characters) of a byte offset, both from 1.
fn line_and_column(text: &str, offset: usize) -> (usize, usize) {
    let before = text.get(..offset).unwrap_or("");
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// An error as plain fields, the same message, code and help as its
/// rendered report, for output read by programs.
pub struct Fields {
    pub code: String,
    pub message: String,
    /// The file (or `<position>`, ...) the error points into.
    pub file: Option<String>,
    /// Where in it, when it points into a text.
    pub line: Option<usize>,
    pub column: Option<usize>,
    pub help: Option<String>,
}

pub fn fields(error: &Error, sources: &Sources) -> Fields {
    let report = Report::new(error, sources);
    let source = sources.try_get(error.span.source);
    let place = source
        .filter(|s| !s.text.is_empty())
        .map(|s| line_and_column(&s.text, error.span.start as usize));
    Fields {
        code: report.code,
        message: report.message,
        file: source.map(|s| s.name.clone()),
        line: place.map(|p| p.0),
        column: place.map(|p| p.1),
        help: report.help,
    }
}

/// Renders an error as text; `color` only when writing to a terminal.
pub fn render(error: &Error, sources: &Sources, color: bool, width: usize) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme).with_width(width);
    let mut out = String::new();
    let report = Report::new(error, sources);
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("error: {}\n", error.kind);
    }
    out
}
