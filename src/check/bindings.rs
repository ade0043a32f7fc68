//! Generators, `let` and tuple patterns: how names get their values.
//!
//! Nothing here adds to what the engines run. A `let` name stands for its
//! expression, which is put in wherever the name is used; a tuple pattern
//! is one hidden slot holding the tuple, and each of its names stands for
//! an element of that slot; `(i, x) in enumerate(xs)` of a name is
//! `i in indices(xs)` with `x` standing for `xs[i]`. A rule written with
//! them compiles to the IR of the same rule written out by hand, so every
//! engine reads it as before.

use super::describe;
use super::items::Checker;
use super::scope::Scope;
use crate::error::{Error, ErrorKind};
use crate::eval::builtins::Builtin;
use crate::eval::ir::{GenIr, Ir, IrKind};
use crate::eval::Value;
use crate::source::Span;
use crate::syntax::ast;
use crate::types::Type;

/// A `let` expression may hold at most this many IR nodes once the names
/// in it are written out: a chain of names each using the one before
/// twice would otherwise double at every step.
const MOST_LET_NODES: usize = 10_000;

impl Checker {
    /// The generators and `let`s of a move's or a claim's scope, in order:
    /// each may use the names bound before it.
    pub(super) fn clauses(&mut self, clauses: &[ast::Clause], scope: &mut Scope) -> Vec<GenIr> {
        let mut generators = Vec::new();
        for clause in clauses {
            match clause {
                ast::Clause::Each(g) => generators.push(self.generator(g, scope)),
                ast::Clause::Let(binding) => self.let_binding(binding, scope),
            }
        }
        generators
    }

    pub(super) fn generator(&mut self, g: &ast::Generator, scope: &mut Scope) -> GenIr {
        let (source, ty) = self.expr(&g.source, scope);
        let element = match ty.element() {
            Some(t) => t,
            None if ty == Type::Game => Type::Game,
            None => {
                self.error(
                    ErrorKind::WrongType {
                        expected: "something to range over (a range, list, set or string)".into(),
                        found: describe(&ty),
                        hint: None,
                    },
                    g.source.span,
                );
                Type::Unknown
            }
        };
        self.distinct_names(&g.pattern);
        if let Some(generator) = self.enumerated(&g.pattern, &source, &element, scope) {
            return generator;
        }
        let slot = match &g.pattern {
            ast::Pattern::Name(name) if !is_wildcard(name) => {
                scope.bind(&name.name, element.clone())
            }
            _ => scope.bind_hidden(element.clone()),
        };
        let whole = Ir {
            kind: IrKind::Local(slot),
            span: g.pattern.span(),
        };
        if let ast::Pattern::Tuple(..) = &g.pattern {
            self.bind_pattern(&g.pattern, whole.clone(), &element, scope);
        }
        GenIr {
            slot,
            source,
            shown: shown(&g.pattern, whole),
        }
    }

    /// `(i, x) in enumerate(xs)` for a name `xs`, as it would be written
    /// out: `i in indices(xs)`, with `x` standing for `xs[i]`. The engines
    /// that walk indices of a variable walk this too, where they have no
    /// list of pairs to walk.
    fn enumerated(
        &mut self,
        pattern: &ast::Pattern,
        source: &Ir,
        element: &Type,
        scope: &mut Scope,
    ) -> Option<GenIr> {
        let ast::Pattern::Tuple(parts, _) = pattern else {
            return None;
        };
        let [ast::Pattern::Name(index), item] = &parts[..] else {
            return None;
        };
        let IrKind::Builtin(Builtin::Enumerate, args) = &source.kind else {
            return None;
        };
        let [named] = &args[..] else {
            return None;
        };
        if !matches!(named.kind, IrKind::Local(_) | IrKind::Const(_)) {
            return None;
        }
        let item_type = match element {
            Type::Tuple(types) => types.get(1).cloned().unwrap_or(Type::Unknown),
            _ => Type::Unknown,
        };
        let index_pattern = &parts[0];
        let slot = if is_wildcard(index) {
            scope.bind_hidden(Type::Nat)
        } else {
            scope.bind(&index.name, Type::Nat)
        };
        let at = Ir {
            kind: IrKind::Local(slot),
            span: index.span,
        };
        let read = Ir {
            kind: IrKind::Index(Box::new(named.clone()), Box::new(at.clone())),
            span: item.span(),
        };
        self.bind_pattern(item, read.clone(), &item_type, scope);
        let mut shown_names = shown(index_pattern, at);
        shown_names.extend(shown(item, read));
        Some(GenIr {
            slot,
            source: Ir {
                kind: IrKind::Builtin(Builtin::Indices, vec![named.clone()]),
                span: source.span,
            },
            shown: shown_names,
        })
    }

    /// `let pattern = value`: from here on, each name stands for its part
    /// of the value.
    pub(super) fn let_binding(&mut self, binding: &ast::LetBinding, scope: &mut Scope) {
        let (value, ty) = self.expr(&binding.value, scope);
        self.distinct_names(&binding.pattern);
        if nodes(&value, MOST_LET_NODES + 1) > MOST_LET_NODES {
            self.error(
                ErrorKind::LetTooLarge {
                    limit: MOST_LET_NODES,
                },
                binding.span,
            );
            // Each name stands for nothing much, so that checking goes on.
            let nothing = Ir {
                kind: IrKind::Lit(Value::Int(0)),
                span: binding.span,
            };
            return self.bind_pattern(&binding.pattern, nothing, &Type::Unknown, scope);
        }
        self.bind_pattern(&binding.pattern, value, &ty, scope);
    }

    /// Makes each name of `pattern` stand for its part of `value`.
    fn bind_pattern(&mut self, pattern: &ast::Pattern, value: Ir, ty: &Type, scope: &mut Scope) {
        let (parts, span) = match pattern {
            ast::Pattern::Name(name) if is_wildcard(name) => return,
            ast::Pattern::Name(name) => return scope.alias(&name.name, value, ty.clone()),
            ast::Pattern::Tuple(parts, span) => (parts, *span),
        };
        let types = match ty {
            Type::Tuple(types) if types.len() == parts.len() => types.clone(),
            Type::Tuple(types) => {
                self.error(
                    ErrorKind::PatternArity {
                        names: parts.len(),
                        found: types.len(),
                        ty: ty.to_string(),
                    },
                    span,
                );
                vec![Type::Unknown; parts.len()]
            }
            // A list's length is known only when it is read: an element
            // past its end is an error at the name that reads it.
            Type::List(element) => vec![(**element).clone(); parts.len()],
            Type::Grid => vec![Type::Str; parts.len()],
            Type::Unknown => vec![Type::Unknown; parts.len()],
            other => {
                self.error(
                    ErrorKind::WrongType {
                        expected: "a tuple or list to take apart".into(),
                        found: describe(other),
                        hint: None,
                    },
                    span,
                );
                vec![Type::Unknown; parts.len()]
            }
        };
        for (i, (part, ty)) in parts.iter().zip(&types).enumerate() {
            self.bind_pattern(part, element(&value, i, part.span()), ty, scope);
        }
    }

    /// A pattern binds each name once: `(a, a)` is a mistake.
    fn distinct_names(&mut self, pattern: &ast::Pattern) {
        let names: Vec<&ast::Ident> = pattern
            .names()
            .into_iter()
            .filter(|n| !is_wildcard(n))
            .collect();
        for (i, name) in names.iter().enumerate() {
            if let Some(first) = names[..i].iter().find(|n| n.name == name.name) {
                self.errors.push(
                    Error::new(
                        ErrorKind::Duplicate {
                            name: name.name.clone(),
                        },
                        name.span,
                    )
                    .with_related(first.span, "first bound here"),
                );
            }
        }
    }
}

/// Each name of `pattern` with the expression that reads its part of
/// `whole`, for labels.
fn shown(pattern: &ast::Pattern, whole: Ir) -> Vec<(String, Ir)> {
    match pattern {
        ast::Pattern::Name(name) if is_wildcard(name) => Vec::new(),
        ast::Pattern::Name(name) => vec![(name.name.clone(), whole)],
        ast::Pattern::Tuple(parts, _) => parts
            .iter()
            .enumerate()
            .flat_map(|(i, part)| shown(part, element(&whole, i, part.span())))
            .collect(),
    }
}

/// `_`, which binds nothing: `(_, x) in pairs` reads only the second.
fn is_wildcard(name: &ast::Ident) -> bool {
    name.name == "_"
}

/// `whole[i]`, pointing at `at` (the name that reads it).
fn element(whole: &Ir, i: usize, at: Span) -> Ir {
    let index = Ir {
        kind: IrKind::Lit(Value::Int(i as i64)),
        span: at,
    };
    Ir {
        kind: IrKind::Index(Box::new(whole.clone()), Box::new(index)),
        span: at,
    }
}

/// How many nodes `ir` has, counted up to `most`.
fn nodes(ir: &Ir, most: usize) -> usize {
    let mut count = 0;
    let mut todo = vec![ir];
    while let Some(ir) = todo.pop() {
        count += 1;
        if count >= most {
            break;
        }
        match &ir.kind {
            IrKind::Lit(_) | IrKind::Local(_) | IrKind::Const(_) => {}
            IrKind::CallFn(_, args)
            | IrKind::MakePos(_, args)
            | IrKind::Builtin(_, args)
            | IrKind::List(args)
            | IrKind::Set(args)
            | IrKind::Tuple(args) => todo.extend(args),
            IrKind::Comprehension { element, clauses } => {
                todo.push(element);
                for c in clauses {
                    todo.push(&c.generator.source);
                    todo.extend(&c.guard);
                }
            }
            IrKind::If(a, b, c) => todo.extend([&**a, b, c]),
            IrKind::Unary(_, a) => todo.push(a),
            IrKind::Binary(_, a, b) | IrKind::Index(a, b) => todo.extend([&**a, b]),
        }
    }
    count
}
