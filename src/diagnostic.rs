//! The one place where errors become miette diagnostics and are rendered.

mod excerpt;

use crate::error::Error;
use crate::source::{SourceId, Sources, Span};
use excerpt::{printable, Excerpt};
use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceSpan};
use std::fmt;

/// An error with the text it points into, ready for miette.
#[derive(Debug)]
pub struct Report {
    message: String,
    code: String,
    help: Option<String>,
    /// The lines the labels point into, made safe to print.
    source: Excerpt,
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
        let has_text = |span: Span| {
            sources
                .try_get(span.source)
                .is_some_and(|s| !s.text.is_empty())
        };
        // (span, label, whether it is the primary one)
        let mut drawn: Vec<(Span, String, bool)> = Vec::new();
        if has_text(error.span) {
            drawn.push((error.span, printable(&error.kind.label()), true));
        }
        for (span, label) in &error.related {
            if has_text(*span) {
                drawn.push((*span, printable(label), false));
            }
        }
        // A place with no text to show (a file that could not be read) is
        // named rather than drawn.
        let help = help_lines(error, sources, |span| !has_text(span));
        // One excerpt per text, the error's own first, each drawn under
        // its own name: a name defined in two files shows both.
        let mut texts: Vec<SourceId> = vec![error.span.source];
        for (span, _, _) in &drawn {
            if !texts.contains(&span.source) {
                texts.push(span.source);
            }
        }
        let mut excerpt: Option<Excerpt> = None;
        let mut labels = Vec::new();
        for id in texts {
            let (name, text, starts) = match sources.try_get(id) {
                Some(s) => (s.name.as_str(), s.text.as_str(), s.line_starts()),
                None => ("<unknown>", "", &[0][..]),
            };
            let here: Vec<&(Span, String, bool)> = drawn
                .iter()
                .filter(|(span, _, _)| span.source == id)
                .collect();
            let ranges: Vec<(usize, usize)> = here
                .iter()
                .map(|(span, _, _)| (span.start as usize, span.end as usize))
                .collect();
            let (part, mut moved) = Excerpt::new(name, text, starts, &ranges);
            let joined = match excerpt.take() {
                None => part,
                Some(before) => before.join(part, &mut moved),
            };
            excerpt = Some(joined);
            labels.extend(here.into_iter().zip(moved).map(
                |((_, label, primary), (start, end))| {
                    let span = SourceSpan::new(start.into(), end - start);
                    if *primary {
                        LabeledSpan::new_primary_with_span(Some(label.clone()), span)
                    } else {
                        LabeledSpan::new_with_span(Some(label.clone()), span)
                    }
                },
            ));
        }
        let excerpt = excerpt.unwrap_or_else(|| Excerpt::new("<unknown>", "", &[0], &[]).0);
        Report {
            message: printable(&error.kind.to_string()),
            code: format!("grundy::{}", error.kind.code()),
            help,
            source: excerpt,
            labels,
            warning: error.kind.is_warning(),
        }
    }
}

/// The help of an error: its advice, the related places `named` picks out
/// of those in other texts (as `label: file:line:column`), and what was
/// being done.
fn help_lines(error: &Error, sources: &Sources, named: impl Fn(Span) -> bool) -> Option<String> {
    let mut help: Vec<String> = error.kind.help().into_iter().collect();
    for (span, label) in &error.related {
        if span.source != error.span.source && named(*span) {
            help.push(format!("{label}: {}", location(sources, *span)));
        }
    }
    help.extend(error.context.iter().map(|c| format!("while {c}")));
    (!help.is_empty()).then(|| printable(&help.join("\n")))
}

/// `file:line:column` of the start of a span.
pub fn location(sources: &Sources, span: Span) -> String {
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
        // Output read by programs shows no excerpts: every place in
        // another text is named in the help.
        help: help_lines(error, sources, |_| true),
    }
}

/// Renders an error as text; `color` only when writing to a terminal.
pub fn render(error: &Error, sources: &Sources, color: bool, width: usize) -> String {
    let theme = if color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(width)
        .with_context_lines(excerpt::CONTEXT_LINES);
    let mut out = String::new();
    let report = Report::new(error, sources);
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("error: {}\n", error.kind);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use proptest::prelude::*;

    /// Text with what makes rendering hard: line breaks of every kind,
    /// control and invisible characters, characters of several bytes and
    /// long runs.
    fn awkward_text() -> impl Strategy<Value = String> {
        let piece = prop_oneof![
            "[a-z ]{0,8}",
            Just("\n".to_string()),
            Just("\r\n".to_string()),
            Just("\r".to_string()),
            Just("\u{1b}[31m".to_string()),
            Just("\t\u{7}\u{7f}\u{9b}\u{202e}\u{feff}".to_string()),
            Just("é🙂漢".to_string()),
            (1usize..3000).prop_map(|n| "x".repeat(n)),
        ];
        prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat())
    }

    /// A label in another text is drawn under that text's name and line,
    /// even where the line numbers of the two texts follow on (the last
    /// line shown of one is line 2, the first of the other line 3), which
    /// must not read as one piece.
    #[test]
    fn places_in_two_texts_are_drawn_under_their_own_names() {
        let mut sources = Sources::default();
        let a = sources.add("a.game", "// a\n// a\n// a\ngame Heap(n: nat) = [];\n");
        let b = sources.add("b.game", "// b\ngame Heap(n: nat) = [];\n");
        let error = Error::new(
            ErrorKind::Duplicate {
                name: "Heap".into(),
            },
            Span::new(b, 10, 14),
        )
        .with_related(Span::new(a, 20, 24), "first defined here");
        let shown = render(&error, &sources, false, 80);
        assert!(shown.contains("╭─[b.game:2:6]"), "{shown}");
        assert!(shown.contains("╭─[a.game:4:6]"), "{shown}");
        let first_here = shown.find("first defined here").unwrap_or(0);
        assert!(
            shown.find("a.game:4:6").is_some_and(|at| at < first_here),
            "{shown}"
        );
        assert!(
            !shown.contains("help: rename one of them\n        first"),
            "{shown}"
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Any spans into any text render without a panic, print no
        /// control character but line breaks and tabs, and stay narrow.
        #[test]
        fn any_span_of_any_text_renders_printably(
            text in awkward_text(),
            spans in prop::collection::vec((any::<prop::sample::Index>(), any::<prop::sample::Index>()), 1..4),
        ) {
            let mut sources = Sources::default();
            let id = sources.add("f", text.clone());
            let at = |(a, b): &(prop::sample::Index, prop::sample::Index)| {
                let (a, b) = (a.index(text.len() + 1), b.index(text.len() + 1));
                Span::new(id, a.min(b), a.max(b))
            };
            let mut error = Error::new(
                ErrorKind::BadValue { detail: format!("found `{}`", text.chars().take(50).collect::<String>()) },
                at(&spans[0]),
            );
            for s in &spans[1..] {
                error = error.with_related(at(s), "also here");
            }
            let shown = render(&error, &sources, false, 80);
            prop_assert!(shown.contains("found"), "{}", shown);
            prop_assert!(!shown.chars().any(|c| c.is_control() && !matches!(c, '\n' | '\t')), "{:?}", shown);
            let widest = shown.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            prop_assert!(widest < 200, "{}", shown);
        }
    }
}
