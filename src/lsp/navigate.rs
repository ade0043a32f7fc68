//! Go to definition: from a name to where it is defined, whether a game, a
//! helper, a constant, a parameter or a generator variable.

use super::analysis::Analysis;
use super::symbols::word_at;
use lsp_types::Range;

pub fn definition(analysis: &Analysis, offset: usize) -> Option<Range> {
    let (start, end) = word_at(&analysis.text, offset)?;
    let symbols = analysis.symbols.as_ref()?;
    let d = symbols.resolve(&analysis.text[start..end], start)?;
    Some(
        analysis
            .lines
            .range(&analysis.text, d.span.start as usize, d.span.end as usize),
    )
}
