//! What a file names and where: its games, helpers and constants with their
//! signatures and doc comments, the local names (parameters and generator
//! variables) with the part of the file they are seen in, and its calls.

use crate::source::Span;
use crate::syntax::ast::{
    Clause, Expr, ExprKind, File, GameBody, GameItem, Generator, Ident, Item, LetBinding, Param,
    Pattern,
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Game,
    Helper,
    Const,
    Local,
}

/// A name defined in the file.
#[derive(Clone, Debug)]
pub struct Definition {
    pub name: String,
    pub kind: Kind,
    /// The name where it is defined.
    pub span: Span,
    /// Where the name is seen: the whole file for a game, a helper or a
    /// constant; its rule, claim or comprehension for a local name.
    pub scope: Option<Span>,
    /// How it is written: `game Heap(n: nat)`, `fn half(n: nat)`, `k`.
    pub signature: String,
    /// The comment lines directly above the definition.
    pub doc: Option<String>,
}

/// A game or helper applied to arguments, such as `Heap(n - k)`.
#[derive(Clone, Copy, Debug)]
pub struct Call {
    pub name: Span,
    pub whole: Span,
}

#[derive(Default)]
pub struct Symbols {
    pub definitions: Vec<Definition>,
    pub calls: Vec<Call>,
}

impl Symbols {
    pub fn of(file: &File, text: &str) -> Symbols {
        let mut symbols = Symbols::default();
        for item in &file.items {
            symbols.item(item, text);
        }
        symbols
    }

    /// The games, helpers and constants.
    pub fn globals(&self) -> impl Iterator<Item = &Definition> {
        self.definitions.iter().filter(|d| d.kind != Kind::Local)
    }

    /// What `name` means at byte `offset`: the innermost local name seen
    /// there, else the file's definition.
    pub fn resolve(&self, name: &str, offset: usize) -> Option<&Definition> {
        let offset = offset as u32;
        let local = self
            .definitions
            .iter()
            .filter(|d| d.name == name)
            .filter_map(|d| d.scope.map(|s| (d, s)))
            .filter(|(_, s)| s.start <= offset && offset <= s.end)
            .min_by_key(|(d, s)| (s.len(), u32::MAX - d.span.start));
        local
            .map(|(d, _)| d)
            .or_else(|| self.globals().find(|d| d.name == name))
    }

    /// The call whose name covers byte `offset`.
    pub fn call_at(&self, offset: usize) -> Option<Call> {
        let offset = offset as u32;
        self.calls
            .iter()
            .copied()
            .find(|c| c.name.start <= offset && offset <= c.name.end)
    }

    fn item(&mut self, item: &Item, text: &str) {
        match item {
            // An imported file's names are found through the session.
            Item::Use(_) => {}
            Item::Const(c) => {
                let value = slice(text, c.value.span);
                self.global(
                    &c.name,
                    Kind::Const,
                    format!("const {} = {value}", c.name.name),
                    text,
                );
                self.expr(&c.value);
            }
            Item::Fn(f) => {
                let signature = format!("fn {}({})", f.name.name, params(&f.params));
                self.global(&f.name, Kind::Helper, signature, text);
                self.params(&f.params, f.span);
                self.expr(&f.body);
            }
            Item::Game(g) => {
                let signature = match &g.body {
                    GameBody::Octal { code, .. } => format!("game {} = octal {code}", g.name.name),
                    _ => format!("game {}({})", g.name.name, params(&g.params)),
                };
                self.global(&g.name, Kind::Game, signature, text);
                self.params(&g.params, g.span);
                match &g.body {
                    GameBody::Octal { .. } => {}
                    GameBody::Alias(e) => self.expr(e),
                    GameBody::Rules(rules) => {
                        for rule in rules {
                            match rule {
                                GameItem::Move(m) => {
                                    self.generators(&m.generators, m.span);
                                    self.exprs(m.guard.iter().chain([&m.result]));
                                }
                                GameItem::Lose { condition: e, .. }
                                | GameItem::Parts { parts: e, .. }
                                | GameItem::Symmetry { images: e, .. } => self.expr(e),
                                GameItem::Let(binding) => self.binding(binding, g.span),
                            }
                        }
                    }
                }
            }
            Item::Claim(c) => {
                self.generators(&c.scope, c.span);
                self.exprs(c.filter.iter().chain([&c.body]));
            }
        }
    }

    fn global(&mut self, name: &Ident, kind: Kind, signature: String, text: &str) {
        self.definitions.push(Definition {
            name: name.name.clone(),
            kind,
            span: name.span,
            scope: None,
            signature,
            doc: doc_comment(text, name.span.start as usize),
        });
    }

    fn local(&mut self, name: &Ident, scope: Span, signature: String) {
        self.definitions.push(Definition {
            name: name.name.clone(),
            kind: Kind::Local,
            span: name.span,
            scope: Some(scope),
            signature,
            doc: None,
        });
    }

    fn params(&mut self, params: &[Param], scope: Span) {
        for p in params {
            self.local(&p.name, scope, param(p));
        }
    }

    fn generators(&mut self, clauses: &[Clause], scope: Span) {
        for clause in clauses {
            match clause {
                Clause::Each(g) => self.generator(g, scope),
                Clause::Let(binding) => self.binding(binding, scope),
            }
        }
    }

    fn generator(&mut self, g: &Generator, scope: Span) {
        self.pattern(&g.pattern, scope);
        self.expr(&g.source);
    }

    fn binding(&mut self, binding: &LetBinding, scope: Span) {
        self.pattern(&binding.pattern, scope);
        self.expr(&binding.value);
    }

    fn pattern(&mut self, pattern: &Pattern, scope: Span) {
        for name in pattern.names() {
            self.local(name, scope, name.name.clone());
        }
    }

    fn exprs<'a>(&mut self, exprs: impl IntoIterator<Item = &'a Expr>) {
        for e in exprs {
            self.expr(e);
        }
    }

    fn expr(&mut self, expr: &Expr) {
        match &expr.kind {
            ExprKind::Int(_) | ExprKind::Str(_) | ExprKind::Bool(_) | ExprKind::Var(_) => {}
            ExprKind::Call { name, args } => {
                self.calls.push(Call {
                    name: name.span,
                    whole: expr.span,
                });
                self.exprs(args);
            }
            ExprKind::List(items) | ExprKind::Set(items) | ExprKind::Tuple(items) => {
                self.exprs(items)
            }
            ExprKind::Comprehension { element, clauses } => {
                for clause in clauses {
                    self.generator(&clause.generator, expr.span);
                    self.exprs(clause.guard.iter());
                }
                self.expr(element);
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => self.exprs([&**cond, then, otherwise]),
            ExprKind::Unary { operand, .. } => self.expr(operand),
            ExprKind::Binary { lhs, rhs, .. } => self.exprs([&**lhs, rhs]),
            ExprKind::Index { target, index } => self.exprs([&**target, index]),
            ExprKind::Group(inner) => self.expr(inner),
            ExprKind::Let { binding, body } => {
                self.binding(binding, expr.span);
                self.expr(body);
            }
        }
    }
}

fn slice(text: &str, span: Span) -> &str {
    text.get(span.start as usize..span.end as usize)
        .unwrap_or("")
}

fn param(p: &Param) -> String {
    match &p.ty {
        Some(t) => format!("{}: {}", p.name.name, t.ty),
        None => p.name.name.clone(),
    }
}

fn params(ps: &[Param]) -> String {
    ps.iter().map(param).collect::<Vec<_>>().join(", ")
}

/// The comment lines directly above the line at byte `at`, without their
/// slashes: the grammar drops comments, so a definition's documentation is
/// read from the text (`///` and `//` alike).
pub fn doc_comment(text: &str, at: usize) -> Option<String> {
    let line_start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
    let mut lines: Vec<&str> = text[..line_start]
        .lines()
        .rev()
        .map(str::trim)
        .take_while(|l| l.starts_with("//"))
        .map(|l| {
            let body = l.trim_start_matches('/');
            body.strip_prefix(' ').unwrap_or(body)
        })
        .collect();
    lines.reverse();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The name (letters, digits, underscores) around byte `offset`.
pub fn word_at(text: &str, offset: usize) -> Option<(usize, usize)> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let offset = offset.min(text.len());
    let before = text.get(..offset)?;
    let start = before
        .char_indices()
        .rev()
        .take_while(|&(_, c)| is_word(c))
        .last()
        .map_or(offset, |(i, _)| i);
    let end = offset
        + text[offset..]
            .find(|c: char| !is_word(c))
            .unwrap_or(text.len() - offset);
    (start < end && !text[start..].starts_with(|c: char| c.is_ascii_digit()))
        .then_some((start, end))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn doc_comments_are_the_comment_lines_just_above() {
        let text = "// not this\n\n/// Take one or two.\n// From a heap.\ngame Heap(n: nat) {}\n";
        let at = text.find("game").unwrap();
        assert_eq!(
            doc_comment(text, at).as_deref(),
            Some("Take one or two.\nFrom a heap.")
        );
        assert_eq!(doc_comment(text, 0), None);
    }

    #[test]
    fn words_are_found_around_an_offset() {
        let text = "value(Heap(12))";
        assert_eq!(word_at(text, 8), Some((6, 10)));
        assert_eq!(word_at(text, 10), Some((6, 10)));
        assert_eq!(word_at(text, 12), None);
    }
}
