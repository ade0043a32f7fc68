//! pest's errors in words a user knows: "expected `;` or an operator", not
//! a list of grammar rule names.

use super::parser::Rule;
use crate::error::{Error, ErrorKind};
use crate::source::{SourceId, Span};
use pest::error::{ErrorVariant, InputLocation};
use std::collections::BTreeSet;

pub(super) fn syntax_error(err: pest::error::Error<Rule>, source: SourceId, text: &str) -> Error {
    let mut pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    // pest places the error where the last rule that failed as a whole
    // began (`fn` of `fn f(x: nat) { x + 1 }`); the tokens it tried reach
    // further, to where the text stopped making sense (the `{`). That is
    // the place to point at, and the rules named at the start no longer
    // describe it. Within one word the start stays: `in` as a name fails
    // as a whole, at its start, though a letter after it was tried.
    let furthest = err
        .parse_attempts()
        .map(|a| a.max_position)
        .filter(|&m| m > pos && m <= text.len())
        .filter(|&m| {
            text.get(pos..m).is_some_and(|skipped| {
                skipped.contains(|c: char| !(c.is_alphanumeric() || c == '_'))
            })
        });
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
    if let Some(m) = furthest {
        pos = m;
    } else if let ErrorVariant::ParsingError { positives, .. } = &err.variant {
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
    drop_covered(&mut words);
    fold_expression_starts(&mut words);
    if ends_with_let(&text[..previous_token_end(text, pos)]) {
        // What may follow `let` is a pattern, not any expression.
        words = BTreeSet::from(["a name, or names in brackets such as `(r, c)`".to_string()]);
    }
    let (found, len) = found_at(text, pos);
    let hint = hint_at(text, pos, &words);
    let expected = join_alternatives(words.into_iter().collect());
    // A token missing at the end of a line is pointed at there, not at
    // whatever starts the next line.
    let end_of_previous = previous_token_end(text, pos);
    // Nothing but blanks and comments before it: then nothing is missing
    // at the end of a line, and the line above is only a comment.
    // After a `;`, `{` or `}` the line above is whole, so what is wrong is
    // what starts this one.
    // Unless a top-level item starts it: then the `}` missing above is.
    let starts_item = TOP_LEVEL.iter().any(|w| first_word(&text[pos..]) == *w);
    let line_above_whole = text[..end_of_previous].ends_with([';', '{', '}']) && !starts_item;
    let span =
        if end_of_previous > 0 && !line_above_whole && text[end_of_previous..pos].contains('\n') {
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
fn hint_at(text: &str, pos: usize, expected: &BTreeSet<String>) -> Option<String> {
    let name_expected = expected.contains("a name") || expected.contains("an expression");
    let rest = text.get(pos..).unwrap_or("");
    let before = text.get(..pos).unwrap_or("");
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line_end = rest.find('\n').map_or(text.len(), |i| pos + i);
    let line = &text[line_start..line_end];
    if line.matches('"').count() % 2 == 1 {
        return Some("a string on this line is left open: is a closing `\"` missing?".into());
    }
    if ends_with_let(before.trim_end()) && expected.len() == 1 {
        return Some("`let` is followed by the name it defines: `let rest = n - k`".into());
    }
    if rest.starts_with("let") && expected.iter().any(|w| w.contains("`const`")) {
        return Some(
            "`let` names a value inside a game, a rule or an expression; a name for the whole file is a constant: `const NAME = ...;`"
                .into(),
        );
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
        if expected.contains("`=>`") {
            return Some(
                "a move rule writes `=>` before the position it leads to: `move take(k in 1..=n) => Heap(n - k);`"
                    .into(),
            );
        }
        return Some("to compare, write `==`".into());
    }
    if rest.starts_with('{') && expected.contains("`=`") {
        if let Some(helper) = helper_with_braces(before, rest) {
            return Some(format!(
                "a helper is one expression after `=`, without braces: `{helper}`"
            ));
        }
    }
    if let Some(quoted) = rest.strip_prefix('\'') {
        let inner = quoted.split(['\'', '\n']).next().unwrap_or("");
        return Some(format!(
            "strings are written in double quotes: `\"{inner}\"`"
        ));
    }
    if rest.starts_with('#') {
        return Some("comments start with `//`".into());
    }
    if expected.contains("a string") && before.trim_end().ends_with("use") {
        let path = rest.split([';', '\n']).next().unwrap_or("").trim();
        return Some(format!(
            "the file to import is a string, in double quotes: `use \"{path}\";`"
        ));
    }
    let word = first_word(rest);
    const KEYWORDS: &[&str] = &[
        "for", "in", "if", "then", "else", "and", "or", "not", "true", "false", "let",
    ];
    if name_expected && KEYWORDS.contains(&word) {
        return Some(format!(
            "`{word}` is a keyword, so it cannot be used as a name"
        ));
    }
    // A misspelt keyword where keywords were expected: `mvoe`.
    let keywords = expected
        .iter()
        .flat_map(|w| w.split('`').skip(1).step_by(2))
        .filter(|w| w.len() > 1 && w.chars().all(|c| c.is_ascii_lowercase()));
    if !word.is_empty() {
        if let Some(near) = crate::check::suggest::closest(word, keywords) {
            return Some(format!("did you mean `{near}`?"));
        }
    }
    None
}

/// The words that start a top-level item.
const TOP_LEVEL: &[&str] = &["game", "loopy", "fn", "const", "claim", "use"];

/// The name or keyword `text` starts with.
fn first_word(text: &str) -> &str {
    let end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    &text[..end]
}

/// Whether the last word of `text` is the keyword `let` (not `outlet`).
fn ends_with_let(text: &str) -> bool {
    text.strip_suffix("let")
        .is_some_and(|before| !before.ends_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// `fn f(x: nat) { x + 1 }` rewritten as grundy writes a helper, when the
/// braces hold one simple expression: `fn f(x: nat) = x + 1;`.
fn helper_with_braces(before: &str, rest: &str) -> Option<String> {
    let header = before[before.rfind("fn ")?..].trim_end();
    let body = rest[1..rest.find('}')?].trim();
    let simple = !body.is_empty() && !body.contains(['{', ';', '\n']) && !header.contains('\n');
    simple.then(|| format!("{header} = {body};"))
}

/// Tokens that a description in the same list already names: "`move` or
/// a rule (`move`, `lose if` or `parts =`)" says `move` twice, and a type
/// is never "an expression" although `[`, `(` and `{` start both.
fn drop_covered(words: &mut BTreeSet<String>) {
    if words.iter().any(|w| w.starts_with("a type")) {
        const TYPE_STARTS: &[&str] = &[
            "`bool`", "`game`", "`grid`", "`int`", "`nat`", "`str`", "`[`", "`(`", "`{`",
        ];
        words.retain(|w| !TYPE_STARTS.contains(&w.as_str()));
    }
    let descriptions: Vec<String> = words
        .iter()
        .filter(|w| !w.starts_with('`'))
        .cloned()
        .collect();
    words.retain(|w| {
        let Some(token) = w.strip_prefix('`').and_then(|t| t.strip_suffix('`')) else {
            return true;
        };
        !descriptions
            .iter()
            .any(|d| d.contains(&format!("`{token}`")) || d.contains(&format!("`{token} ")))
    });
}

/// Everything that can start an operand, folded into "an expression"
/// when an operand was what the parser wanted.
fn fold_expression_starts(words: &mut BTreeSet<String>) {
    const STARTS: &[&str] = &[
        "`\"`", "`(`", "`[`", "`{`", "`_`", "`-`", "`false`", "`true`", "`if`", "`let`", "`not`",
        "a name", "a number", "a string",
    ];
    let starts = words
        .iter()
        .filter(|w| STARTS.contains(&w.as_str()))
        .count();
    // After a name, `(`, `[` and `if` may follow too; only a place where
    // a literal may stand is the start of an operand.
    const ONLY_STARTS: &[&str] = &[
        "a name", "a number", "a string", "`true`", "`false`", "`\"`",
    ];
    let operand_start = words.iter().any(|w| ONLY_STARTS.contains(&w.as_str()));
    if starts >= 3 && operand_start {
        words.retain(|w| !STARTS.contains(&w.as_str()));
        words.insert("an expression".into());
    }
    // `_` only starts or continues a name: never the advice wanted; nor is
    // `let` where an expression or a rule would do.
    words.remove("`_`");
    if words.contains("an expression") || words.iter().any(|w| w.starts_with("a rule")) {
        words.remove("`let`");
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
        Rule::item
        | Rule::use_decl
        | Rule::const_def
        | Rule::fn_def
        | Rule::game_def
        | Rule::claim => "a definition (`game`, `fn`, `const` or `claim`)",
        Rule::move_rule | Rule::lose_rule | Rule::parts_rule | Rule::symmetry_rule => {
            "a rule (`move`, `lose if`, `parts =` or `symmetry =`)"
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
