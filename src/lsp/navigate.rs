//! Go to definition: from a name to where it is defined, whether a game, a
//! helper, a constant, a parameter or a generator variable, in the
//! document or in a file it imports.

use super::analysis::Analysis;
use super::symbols::word_at;
use lsp_types::{Location, Uri};

pub fn definition(analysis: &Analysis, uri: &Uri, offset: usize) -> Option<Location> {
    let (start, end) = word_at(&analysis.text, offset)?;
    let word = &analysis.text[start..end];
    let local = analysis
        .symbols
        .as_ref()
        .and_then(|symbols| symbols.resolve(word, start));
    let span = match local {
        Some(d) => d.span,
        // Not defined in the document: the session knows where each
        // imported name is.
        None => analysis.session.interp.program.definition_span(word)?,
    };
    analysis.location(uri, span)
}
