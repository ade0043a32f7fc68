//! pest's errors in words a user knows: "expected `;` or an operator", not
//! a list of grammar rule names.

use super::parser::Rule;
use crate::error::{Error, ErrorKind};
use crate::source::{SourceId, Span};
use pest::error::{ErrorVariant, InputLocation};
use std::collections::BTreeSet;

pub(super) fn syntax_error(err: pest::error::Error<Rule>, source: SourceId, text: &str) -> Error {
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    if let ErrorVariant::CustomError { message } = &err.variant {
        if message.contains("limit") {
            return Error::new(
                ErrorKind::NestedTooDeeply {
                    depth: nesting_at(text, pos),
                    limit: 200,
                },
                Span::new(source, pos, pos),
            );
        }
    }
    let mut words = BTreeSet::new();
    if let ErrorVariant::ParsingError { positives, .. } = &err.variant {
        for rule in positives {
            if let Some(w) = rule_words(*rule) {
                words.insert(w.to_string());
            }
        }
    }
    if let Some(attempts) = err.parse_attempts() {
        for token in attempts.expected_tokens() {
            if let Some(w) = token_words(&token.to_string()) {
                words.insert(w);
            }
        }
    }
    fold_expression_starts(&mut words);
    let (found, len) = found_at(text, pos);
    let name_expected = words.contains("a name") || words.contains("an expression");
    let hint = hint_at(text, pos, name_expected);
    let expected = join_alternatives(words.into_iter().collect());
    // A token missing at the end of a line is pointed at there, not at
    // whatever starts the next line.
    let end_of_previous = previous_token_end(text, pos);
    let span = if text[end_of_previous..pos].contains('\n') {
        Span::new(source, end_of_previous, end_of_previous)
    } else if pos >= text.len() && end_of_previous > 0 {
        // At the end of the input there is nothing to point at: point at
        // the last character, which is what needed more after it.
        let last = text[..end_of_previous]
            .chars()
            .next_back()
            .map_or(1, char::len_utf8);
        Span::new(source, end_of_previous - last, end_of_previous)
    } else {
        Span::new(source, pos, pos + len)
    };
    Error::new(
        ErrorKind::Syntax {
            expected,
            found,
            hint,
        },
        span,
    )
}

/// Advice for mistakes recognised from what stands at `pos`: habits from
/// other languages, keywords used as names, a string left open.
fn hint_at(text: &str, pos: usize, name_expected: bool) -> Option<String> {
    let rest = text.get(pos..).unwrap_or("");
    let before = text.get(..pos).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = rest.find('\n').map_or(text.len(), |i| pos + i);
    let line = &text[line_start..line_end];
    if line.matches('"').count() % 2 == 1 {
        return Some("a string on this line is left open: is a closing `\"` missing?".into());
    }
    let pair =
        |a: &str| rest.starts_with(a) || (before.ends_with(&a[..1]) && rest.starts_with(&a[1..]));
    if pair("&&") {
        return Some("grundy writes `and` for `&&`".into());
    }
    if pair("||") {
        return Some("grundy writes `or` for `||`".into());
    }
    if rest.starts_with('!') && !rest.starts_with("!=") {
        return Some("grundy writes `not` for `!`".into());
    }
    if rest.starts_with('=') && !rest.starts_with("==") && !rest.starts_with("=>") {
        return Some("to compare, write `==`".into());
    }
    let word: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    const KEYWORDS: &[&str] = &[
        "for", "in", "if", "then", "else", "and", "or", "not", "true", "false",
    ];
    if name_expected && KEYWORDS.contains(&word.as_str()) {
        return Some(format!(
            "`{word}` is a keyword, so it cannot be used as a name"
        ));
    }
    None
}

/// Everything that can start an operand, folded into "an expression"
/// when an operand was what the parser wanted.
fn fold_expression_starts(words: &mut BTreeSet<String>) {
    const STARTS: &[&str] = &[
        "`\"`", "`(`", "`[`", "`{`", "`_`", "`-`", "`false`", "`true`", "`if`", "`not`", "a name",
        "a number", "a string",
    ];
    let starts = words
        .iter()
        .filter(|w| STARTS.contains(&w.as_str()))
        .count();
    if starts >= 3 {
        words.retain(|w| !STARTS.contains(&w.as_str()));
        words.insert("an expression".into());
    }
    // `_` and `"` only start a name or a string.
    if words.contains("a name") || words.contains("an expression") {
        words.remove("`_`");
    }
    if words.contains("a string") || words.contains("an expression") {
        words.remove("`\"`");
    }
    // Indexing is an operator too, as far as the reader is concerned.
    if words.contains("an operator") {
        words.remove("`[`");
    }
}

/// Where the last token before `pos` ends, skipping blanks and comments.
fn previous_token_end(text: &str, pos: usize) -> usize {
    let mut end = pos.min(text.len());
    loop {
        let before = &text[..end];
        let trimmed = before.trim_end();
        // A comment ends at a line end: step over it.
        let line_start = trimmed.rfind('\n').map_or(0, |i| i + 1);
        match trimmed[line_start..].find("//") {
            Some(c) if !trimmed[line_start..line_start + c].contains('"') => {
                end = line_start + c;
            }
            _ => return trimmed.len(),
        }
    }
}

/// How many brackets are open at `pos`: the depth a stack limit was hit at.
fn nesting_at(text: &str, pos: usize) -> usize {
    let mut depth: usize = 0;
    for c in text[..pos.min(text.len())].chars() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

fn rule_words(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::expr | Rule::operand | Rule::prefix => "an expression",
        Rule::ident | Rule::var => "a name",
        Rule::int_lit => "a number",
        Rule::str_lit => "a string",
        Rule::type_expr => "a type such as `nat`, `[nat]` or `str`",
        Rule::item | Rule::const_def | Rule::fn_def | Rule::game_def | Rule::claim => {
            "a definition (`game`, `fn`, `const` or `claim`)"
        }
        Rule::move_rule | Rule::lose_rule | Rule::parts_rule => {
            "a rule (`move`, `lose if` or `parts =`)"
        }
        Rule::infix
        | Rule::or
        | Rule::and
        | Rule::eq
        | Rule::ne
        | Rule::lt
        | Rule::le
        | Rule::gt
        | Rule::ge
        | Rule::in_
        | Rule::not_in
        | Rule::range_excl
        | Rule::range_incl
        | Rule::add
        | Rule::sub
        | Rule::pow
        | Rule::mul
        | Rule::div
        | Rule::rem
        | Rule::bit_or
        | Rule::bit_xor
        | Rule::bit_and
        | Rule::shl
        | Rule::shr => "an operator",
        Rule::index => "`[`",
        Rule::octal_code => "an octal code such as 0.77",
        Rule::generator => "a generator such as `k in 1..=n`",
        Rule::guard => "`if`",
        Rule::EOI => "the end of the input",
        _ => return None,
    })
}

/// Literal tokens the grammar tried; operators are folded into one word.
fn token_words(token: &str) -> Option<String> {
    const OPERATORS: &[&str] = &[
        "or", "and", "..=", "..", "==", "!=", "<=", ">=", "<<", ">>", "<", ">", "not", "in", "+",
        "-", "**", "*", "/", "%", "|", "^", "&",
    ];
    if OPERATORS.contains(&token) {
        return Some("an operator".into());
    }
    let is_char_range = token.chars().count() == 4 && token.get(1..3) == Some("..");
    if is_char_range || token == "BUILTIN_RULE" || token.trim().is_empty() || token == "//" {
        return None;
    }
    Some(format!("`{token}`"))
}

fn join_alternatives(mut words: Vec<String>) -> String {
    if words.is_empty() {
        return "something else".into();
    }
    // Backquoted tokens first: they are the most precise advice.
    words.sort_by_key(|w| (!w.starts_with('`'), w.clone()));
    match words.len() {
        1 => words.remove(0),
        _ => {
            let last = words.pop().unwrap_or_default();
            format!("{} or {}", words.join(", "), last)
        }
    }
}

/// A short description of what stands at `pos`, and its length in bytes.
fn found_at(text: &str, pos: usize) -> (String, usize) {
    let rest = text.get(pos..).unwrap_or("");
    let Some(first) = rest.chars().next() else {
        return ("the end of the input".into(), 0);
    };
    let len = if first.is_alphanumeric() || first == '_' {
        rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len())
    } else {
        first.len_utf8()
    };
    let word = &rest[..len];
    let shown = match word {
        "\n" | "\r" => "the end of the line".to_string(),
        _ => format!("`{word}`"),
    };
    (shown, len)
}
