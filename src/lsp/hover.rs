//! Hover: a definition's signature and doc comment, a built-in's one-line
//! documentation, the value of a position written with constant
//! arguments, and on the word `claim` what became of the claim.

use super::analysis::{Analysis, Verdict, DOCUMENT};
use super::symbols::{word_at, Definition, Kind, Symbols};
use crate::eval::builtins::Builtin;

/// The Markdown shown at byte `offset` and the byte range it is about.
pub fn at(analysis: &mut Analysis, offset: usize) -> Option<(String, usize, usize)> {
    let (start, end) = word_at(&analysis.text, offset)?;
    let word = analysis.text[start..end].to_string();
    if word == "claim" {
        let claim = analysis
            .claims
            .iter()
            .find(|c| c.span.start as usize == start)?;
        return Some((verdict(&claim.verdict), start, end));
    }
    let symbols = analysis.symbols.as_ref()?;
    let (definition, from) = match symbols.resolve(&word, start) {
        Some(d) => (Some(d.clone()), None),
        None => match imported(analysis, &word) {
            Some((d, file)) => (Some(d), Some(file)),
            None => (None, None),
        },
    };
    let mut text = match &definition {
        Some(d) => {
            let mut text = format!("```grundy\n{}\n```", d.signature);
            if let Some(doc) = &d.doc {
                text.push_str(&format!("\n\n{doc}"));
            }
            if let Some(file) = from {
                text.push_str(&format!("\n\nfrom `{file}`"));
            }
            text
        }
        None => format!("```grundy\n{}\n```", Builtin::lookup(&word)?.doc()),
    };
    let is_game = definition.map(|d| d.kind) == Some(Kind::Game);
    if let Some(call) = symbols.call_at(start).filter(|_| is_game) {
        if let Some(value) = analysis.value_of(call.whole) {
            let outcome = if value == 0 {
                "P: the previous player wins"
            } else {
                "N: the next player wins"
            };
            text.push_str(&format!("\n\n---\n\nvalue **{value}**, outcome {outcome}"));
        }
    }
    Some((text, start, end))
}

/// The definition of a name from a file the document imports, read from
/// that file's text, with the file's name.
fn imported(analysis: &Analysis, name: &str) -> Option<(Definition, String)> {
    let span = analysis.session.interp.program.definition_span(name)?;
    if span.source == DOCUMENT {
        return None;
    }
    let source = analysis.session.sources.try_get(span.source)?;
    let file = crate::syntax::parse_file(span.source, &source.text).ok()?;
    let symbols = Symbols::of(&file, &source.text);
    let definition = symbols.resolve(name, span.start as usize)?.clone();
    Some((definition, source.name.clone()))
}

pub fn verdict(v: &Verdict) -> String {
    match v {
        Verdict::Holds => "holds".into(),
        Verdict::Fails(why) => format!("fails: {why}"),
        Verdict::Unsettled(why) => {
            format!(
                "not settled within the editor's limits ({why}): run `grundy check` on the file"
            )
        }
    }
}
