//! Code lenses: above each claim, what became of it when the document was
//! last analysed.

use super::analysis::Analysis;
use lsp_types::{CodeLens, Command};

pub fn of(analysis: &Analysis) -> Vec<CodeLens> {
    analysis
        .claims
        .iter()
        .map(|claim| {
            let start = claim.span.start as usize;
            CodeLens {
                range: analysis.lines.range(&analysis.text, start, start),
                // A command that does nothing: the title is the message.
                command: Some(Command::new(
                    format!("claim {}", super::hover::verdict(&claim.verdict)),
                    String::new(),
                    None,
                )),
                data: None,
            }
        })
        .collect()
}
