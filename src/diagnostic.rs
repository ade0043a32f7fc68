//! The one place where errors become miette diagnostics and are rendered.

use crate::error::Error;
use crate::source::Sources;
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
    related: Vec<Report>,
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

    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        Some(&self.source)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        Some(Box::new(self.labels.iter().cloned()))
    }

    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|r| r as &dyn Diagnostic)))
    }
}

impl Report {
    pub fn new(error: &Error, sources: &Sources) -> Report {
        let src = sources_text(sources, error.span.source);
        let has_text = sources
            .try_get(error.span.source)
            .is_some_and(|s| !s.text.is_empty());
        let mut labels = Vec::new();
        if has_text {
            labels.push(LabeledSpan::new_primary_with_span(
                Some(error.kind.label()),
                to_span(error.span.start, error.span.end),
            ));
        }
        let mut related = Vec::new();
        for (span, label) in &error.related {
            if span.source == error.span.source {
                labels.push(LabeledSpan::new_with_span(
                    Some(label.clone()),
                    to_span(span.start, span.end),
                ));
            } else {
                related.push(Report {
                    message: label.clone(),
                    code: "grundy::note".into(),
                    help: None,
                    source: sources_text(sources, span.source),
                    labels: vec![LabeledSpan::new_primary_with_span(
                        None,
                        to_span(span.start, span.end),
                    )],
                    related: Vec::new(),
                });
            }
        }
        let mut help: Vec<String> = error.kind.help().into_iter().collect();
        help.extend(error.context.iter().map(|c| format!("while {c}")));
        Report {
            message: error.kind.to_string(),
            code: format!("grundy::{}", error.kind.code()),
            help: (!help.is_empty()).then(|| help.join("\n")),
            source: src,
            labels,
            related,
        }
    }
}

fn sources_text(sources: &Sources, id: crate::source::SourceId) -> NamedSource<String> {
    match sources.try_get(id) {
        Some(s) => NamedSource::new(s.name.clone(), s.text.clone()),
        None => NamedSource::new("<unknown>", String::new()),
    }
}

fn to_span(start: u32, end: u32) -> SourceSpan {
    SourceSpan::new((start as usize).into(), (end - start.min(end)) as usize)
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
