//! A forgiving tokenizer for what is typed at the prompt. It never fails:
//! the parser reports mistakes; this only needs to know where names,
//! numbers, strings, comments and brackets are, for the validator (is the
//! input complete?), the highlighter and `:show`.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Number,
    /// A string literal; `closed` is false when the line ends inside it.
    Str {
        closed: bool,
    },
    Comment,
    Space,
    /// Any other character or operator.
    Punct,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: Kind,
    pub text: &'a str,
    /// Byte offset in the input.
    pub start: usize,
}

impl Token<'_> {
    pub fn end(&self) -> usize {
        self.start + self.text.len()
    }
}

/// The reserved words of the language, and the words that start a
/// definition or a rule.
pub const KEYWORDS: &[&str] = &[
    "game", "loopy", "fn", "const", "claim", "use", "move", "lose", "parts", "symmetry", "octal",
    "for", "in", "if", "then", "else", "and", "or", "not", "true", "false", "let",
];

/// Operator spellings, longest first.
const OPERATORS: &[&str] = &["..=", "=>", "..", "==", "!=", "<=", ">=", "<<", ">>"];

pub fn tokens(text: &str) -> Vec<Token<'_>> {
    #[cfg(test)]
    LEXED.with(|n| n.set(n.get() + text.len()));
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        let c = bytes[i];
        let kind = if c.is_ascii_whitespace() {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            Kind::Space
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            Kind::Ident
        } else if c.is_ascii_digit() {
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            Kind::Number
        } else if c == b'"' {
            i += 1;
            let mut closed = false;
            while i < bytes.len() {
                match bytes[i] {
                    // An escape, but never of the line break: a token
                    // ends with its line, so lines can be read one by one.
                    b'\\' if bytes.get(i + 1) != Some(&b'\n') => i += 2,
                    b'"' => {
                        i += 1;
                        closed = true;
                        break;
                    }
                    b'\n' => break,
                    _ => i += 1,
                }
            }
            i = i.min(bytes.len());
            Kind::Str { closed }
        } else if text[i..].starts_with("//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            Kind::Comment
        } else {
            match OPERATORS.iter().find(|op| text[i..].starts_with(*op)) {
                Some(op) => i += op.len(),
                // One character, however many bytes it takes.
                None => i += text[i..].chars().next().map_or(1, char::len_utf8),
            }
            Kind::Punct
        };
        // Stay on character boundaries whatever the input holds.
        while i < text.len() && !text.is_char_boundary(i) {
            i += 1;
        }
        out.push(Token {
            kind,
            text: &text[start..i.min(text.len())],
            start,
        });
    }
    out
}

#[cfg(test)]
thread_local! {
    /// How many bytes `tokens` has read on this thread, for tests that
    /// count work.
    pub static LEXED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Whether the input is a complete entry (see `Completeness`).
#[cfg(test)]
pub fn is_complete(text: &str) -> bool {
    Completeness::of(text).is_complete()
}

/// Whether the input is a complete entry, or the user is still typing it:
/// a bracket is open, a string is open, the last token leaves an
/// expression unfinished (an operator, `=`, `=>`, `,`, `if`, `then`, ...),
/// or a definition has not reached its `;` or closing `}`. An empty last
/// line always ends the entry, so a forgotten `;` cannot trap the user.
///
/// What this needs to know is gathered line by line: no token runs past
/// the end of its line, so each line is read once however many follow.
#[derive(Default)]
pub struct Completeness {
    lines: usize,
    last_line_blank: bool,
    /// Brackets opened and not yet closed.
    depth: i64,
    /// Whether some line ends inside a string.
    open_string: bool,
    /// The first and the last token that is neither space nor comment.
    first: Option<String>,
    last: Option<String>,
}

impl Completeness {
    /// What is known of a whole entry.
    pub fn of(text: &str) -> Completeness {
        let mut entry = Completeness::default();
        for line in text.split('\n') {
            entry.push_line(line);
        }
        entry
    }

    pub fn push_line(&mut self, line: &str) {
        self.lines += 1;
        self.last_line_blank = line.trim().is_empty();
        let mut last = None;
        for t in tokens(line) {
            match t.kind {
                Kind::Space | Kind::Comment => continue,
                Kind::Str { closed: false } => self.open_string = true,
                _ => {}
            }
            match t.text {
                "(" | "[" | "{" => self.depth += 1,
                ")" | "]" | "}" => self.depth -= 1,
                _ => {}
            }
            if self.first.is_none() {
                self.first = Some(t.text.to_string());
            }
            last = Some(t.text);
        }
        if let Some(last) = last {
            self.last = Some(last.to_string());
        }
    }

    pub fn is_complete(&self) -> bool {
        if self.lines > 1 && self.last_line_blank {
            return true;
        }
        if self.open_string || self.depth > 0 {
            return false;
        }
        let Some(last) = self.last.as_deref() else {
            return true;
        };
        let unfinished = matches!(
            last,
            "=" | "=>"
                | ","
                | "+"
                | "-"
                | "*"
                | "/"
                | "%"
                | "^"
                | "|"
                | "&"
                | "<<"
                | ">>"
                | "=="
                | "!="
                | "<"
                | ">"
                | "<="
                | ">="
                | ".."
                | "..="
                | ":"
                | "if"
                | "then"
                | "else"
                | "and"
                | "or"
                | "not"
                | "in"
                | "for"
        );
        if unfinished {
            return false;
        }
        // A definition ends with `;` or with the `}` of a rules body.
        if matches!(
            self.first.as_deref(),
            Some("game" | "fn" | "const" | "claim" | "loopy" | "use")
        ) {
            return last == ";" || last == "}";
        }
        true
    }
}

/// The whole definition whose name is at byte `name_start` of `source`:
/// from its keyword (with the comment lines just above it) to its `;` or
/// the `}` that closes its rules.
pub fn definition_at(source: &str, name_start: usize) -> Option<&str> {
    let before = source.get(..name_start)?;
    // The keyword is the last word before the name.
    let keyword_start = before
        .trim_end()
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let mut start = before[..keyword_start].rfind('\n').map_or(0, |i| i + 1);
    // Comment lines directly above belong to the definition.
    while start > 0 {
        let above_end = start - 1;
        let above_start = source[..above_end].rfind('\n').map_or(0, |i| i + 1);
        if source[above_start..above_end]
            .trim_start()
            .starts_with("//")
        {
            start = above_start;
        } else {
            break;
        }
    }
    let rest = &source[name_start..];
    let mut depth = 0i64;
    let mut body_brace = false;
    let mut previous = "";
    for t in tokens(rest) {
        let before = previous;
        if !matches!(t.kind, Kind::Space | Kind::Comment) {
            previous = t.text;
        }
        match (t.kind, t.text) {
            (Kind::Punct, "(" | "[") => depth += 1,
            (Kind::Punct, "{") => {
                // Rules follow the parameters: `game Heap(n: nat) {`.
                if depth == 0 && before == ")" {
                    body_brace = true;
                }
                depth += 1;
            }
            (Kind::Punct, ")" | "]") => depth -= 1,
            (Kind::Punct, "}") => {
                depth -= 1;
                if depth == 0 && body_brace {
                    return source.get(start..name_start + t.end());
                }
            }
            (Kind::Punct, ";") if depth == 0 => {
                return source.get(start..name_start + t.end());
            }
            _ => {}
        }
    }
    source.get(start..)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_brackets_and_trailing_operators_continue() {
        assert!(!is_complete("game Heap(n: nat) {"));
        assert!(!is_complete("value Nim([3,"));
        assert!(!is_complete("fn double(x) ="));
        assert!(!is_complete("value Heap(1) +"));
        assert!(!is_complete("claim value(Heap(3)) == 3"));
        assert!(!is_complete("value Treblecross(\"..X"));
        assert!(is_complete("value Nim([3, 5, 7])"));
        assert!(is_complete(
            "game Heap(n: nat) {\n  move take(k in 1..=n) => Heap(n - k);\n}"
        ));
        assert!(is_complete("fn double(x) = 2 * x;"));
        assert!(is_complete(":help"));
        assert!(is_complete(""));
    }

    #[test]
    fn an_empty_line_ends_an_unfinished_entry() {
        assert!(is_complete("claim value(Heap(3)) == 3\n"));
        assert!(is_complete("game Heap(n: nat) {\n\n"));
    }

    #[test]
    fn a_definition_is_found_from_its_name() {
        let src = "// one heap\ngame Heap(n: nat) {\n  move take(k in 1..=n) => Heap(n - k);\n}\nconst S = {1, 2};\n";
        let name = src.find("Heap").unwrap_or(0);
        assert_eq!(
            definition_at(src, name),
            Some("// one heap\ngame Heap(n: nat) {\n  move take(k in 1..=n) => Heap(n - k);\n}")
        );
        let s = src.find("S =").unwrap_or(0);
        assert_eq!(definition_at(src, s), Some("const S = {1, 2};"));
        // Whitespace of several bytes before the keyword.
        let src = "const S = \"a\u{3000}b\";game X = Heap(1);";
        let x = src.find("X =").unwrap_or(0);
        assert_eq!(definition_at(src, x), Some(src));
    }
}
