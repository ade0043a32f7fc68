//! Completion: the file's games, helpers and constants, the names in scope
//! at the cursor, the names of the files it imports, the built-ins and the
//! keywords.

use super::analysis::Analysis;
use super::symbols::Kind;
use crate::eval::builtins::Builtin;
use crate::eval::ir::Callable;
use lsp_types::{CompletionItem, CompletionItemKind};

/// Every word of the grammar that is not a name: the keywords proper and
/// the words that open definitions, rules and types.
pub const KEYWORDS: &[&str] = &[
    "const", "fn", "game", "loopy", "use", "octal", "move", "lose", "parts", "symmetry", "claim",
    "for", "in", "if", "then", "else", "and", "or", "not", "true", "false", "let", "nat", "int",
    "bool", "str", "grid",
];

pub fn items(analysis: &Analysis, offset: usize) -> Vec<CompletionItem> {
    let mut items = Vec::new();
    if let Some(symbols) = &analysis.symbols {
        for d in &symbols.definitions {
            let seen = match d.scope {
                None => true,
                Some(s) => (s.start as usize) <= offset && offset <= s.end as usize,
            };
            if !seen || items.iter().any(|i: &CompletionItem| i.label == d.name) {
                continue;
            }
            let kind = match d.kind {
                Kind::Game => CompletionItemKind::CLASS,
                Kind::Helper => CompletionItemKind::FUNCTION,
                Kind::Const => CompletionItemKind::CONSTANT,
                Kind::Local => CompletionItemKind::VARIABLE,
            };
            items.push(CompletionItem {
                label: d.name.clone(),
                kind: Some(kind),
                detail: Some(d.signature.clone()),
                documentation: d.doc.clone().map(lsp_types::Documentation::String),
                ..CompletionItem::default()
            });
        }
    }
    // Names from imported files: the session has them, with where each is
    // defined.
    let program = &analysis.session.interp.program;
    let imported = program
        .callables
        .iter()
        .map(|(name, c)| match c {
            Callable::Game(_) => (name, CompletionItemKind::CLASS),
            Callable::Function(_) => (name, CompletionItemKind::FUNCTION),
        })
        .chain(
            program
                .consts
                .iter()
                .map(|c| (&c.name, CompletionItemKind::CONSTANT)),
        );
    for (name, kind) in imported {
        if items.iter().any(|i| &i.label == name) {
            continue;
        }
        let place = program
            .definition_span(name)
            .and_then(|span| analysis.session.sources.try_get(span.source))
            .map(|source| format!("from {}", source.name));
        items.push(CompletionItem {
            label: name.clone(),
            kind: Some(kind),
            detail: place,
            ..CompletionItem::default()
        });
    }
    items.extend(Builtin::ALL.iter().map(|b| CompletionItem {
        label: b.name().to_string(),
        kind: Some(CompletionItemKind::FUNCTION),
        detail: Some(b.doc().to_string()),
        ..CompletionItem::default()
    }));
    items.extend(KEYWORDS.iter().map(|k| CompletionItem {
        label: k.to_string(),
        kind: Some(CompletionItemKind::KEYWORD),
        ..CompletionItem::default()
    }));
    items
}
