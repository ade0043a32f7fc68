//! Top-level definitions: games, functions, constants and claims.

use super::scope::Scope;
use super::{describe, suggest};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::builtins::Builtin;
use crate::eval::ir::*;
use crate::eval::octal::OctalCode;
use crate::eval::take_break::TakeBreakCode;
use crate::source::Span;
use crate::syntax::ast;
use crate::types::Type;

pub struct Checker {
    pub(super) program: Program,
    pub(super) errors: Errors,
    /// Mistakes that are legal but most likely not meant; they do not stop
    /// the program from loading.
    pub warnings: Errors,
    /// How many constants are visible (those defined so far).
    pub(super) visible_consts: usize,
}

impl Checker {
    pub fn new(program: Program) -> Checker {
        let visible_consts = program.consts.len();
        Checker {
            program,
            errors: Vec::new(),
            warnings: Vec::new(),
            visible_consts,
        }
    }

    /// The program as checked so far, and the errors found.
    pub fn into_parts(self) -> (Program, Errors) {
        (self.program, self.errors)
    }

    pub fn finish(self) -> Result<Program, Errors> {
        if self.errors.is_empty() {
            Ok(self.program)
        } else {
            Err(self.errors)
        }
    }

    pub(super) fn error(&mut self, kind: ErrorKind, span: Span) {
        self.errors.push(Error::new(kind, span));
    }

    pub fn items(&mut self, items: &[ast::Item]) {
        // Declare every game and function first, so they may be used
        // before they are defined; then compile bodies.
        let mut fns = Vec::new();
        let mut games = Vec::new();
        for item in items {
            match item {
                ast::Item::Fn(f) if self.declare(&f.name) => fns.push((f, self.declare_fn(f))),
                ast::Item::Game(g) if self.declare(&g.name) => {
                    games.push((g, self.declare_game(g)))
                }
                _ => {}
            }
        }
        for item in items {
            if let ast::Item::Const(c) = item {
                self.const_def(c);
            }
        }
        for (f, id) in fns {
            self.fn_body(f, id);
        }
        for (g, id) in games {
            self.game_body(g, id);
        }
        if self.errors.is_empty() {
            let loops = super::loops::alias_loops(&self.program);
            self.errors.extend(loops);
        }
        for item in items {
            if let ast::Item::Claim(c) = item {
                self.claim(c);
            }
        }
    }

    /// Whether a new name is free; reports it if not.
    fn declare(&mut self, name: &ast::Ident) -> bool {
        let taken = self.program.callables.contains_key(&name.name)
            || self.program.consts.iter().any(|c| c.name == name.name);
        if taken || Builtin::lookup(&name.name).is_some() {
            let mut e = Error::new(
                ErrorKind::Duplicate {
                    name: name.name.clone(),
                },
                name.span,
            );
            if let Some(first) = self.program.definition_span(&name.name) {
                e = e.with_related(first, "first defined here");
            } else {
                e = e.with_context(format!("`{}` is a built-in function", name.name));
            }
            self.errors.push(e);
            return false;
        }
        true
    }

    fn params(&mut self, params: &[ast::Param], need_types: bool) -> Vec<Param> {
        let mut out: Vec<Param> = Vec::new();
        for p in params {
            if let Some(first) = out.iter().find(|q| q.name == p.name.name) {
                let first = first.span;
                self.errors.push(
                    Error::new(
                        ErrorKind::Duplicate {
                            name: p.name.name.clone(),
                        },
                        p.name.span,
                    )
                    .with_related(first, "first defined here"),
                );
            }
            let ty = match &p.ty {
                Some(t) => t.ty.clone(),
                None => {
                    if need_types {
                        self.error(
                            ErrorKind::MissingType {
                                name: p.name.name.clone(),
                            },
                            p.name.span,
                        );
                    }
                    Type::Unknown
                }
            };
            out.push(Param {
                name: p.name.name.clone(),
                ty,
                span: p.name.span,
            });
        }
        out
    }

    fn declare_fn(&mut self, f: &ast::FnDef) -> u32 {
        let params = self.params(&f.params, false);
        let id = self.program.functions.len() as u32;
        self.program.functions.push(FnIr {
            name: f.name.name.clone(),
            params,
            body: Ir {
                kind: IrKind::Lit(crate::eval::Value::Int(0)),
                span: f.span,
            },
            ret: Type::Unknown,
            frame_size: 0,
            span: f.name.span,
            definition: f.span,
        });
        self.program
            .callables
            .insert(f.name.name.clone(), Callable::Function(id));
        id
    }

    fn declare_game(&mut self, g: &ast::GameDef) -> u32 {
        let params = match &g.body {
            ast::GameBody::Octal { .. } => vec![Param {
                name: "n".into(),
                ty: Type::Nat,
                span: g.name.span,
            }],
            _ => self.params(&g.params, true),
        };
        let id = self.program.games.len() as u32;
        self.program.games.push(GameIr {
            name: g.name.name.clone(),
            params,
            kind: GameKind::Rules {
                moves: Vec::new(),
                lose: None,
                parts: None,
            },
            span: g.name.span,
            definition: g.span,
            frame_size: 0,
            loopy: g.loopy,
            symmetry: None,
        });
        self.program
            .callables
            .insert(g.name.name.clone(), Callable::Game(id));
        id
    }

    fn const_def(&mut self, c: &ast::ConstDef) {
        if !self.declare(&c.name) {
            return;
        }
        let mut scope = Scope::new(false);
        let (value, ty) = self.expr(&c.value, &mut scope);
        self.program.consts.push(ConstIr {
            name: c.name.name.clone(),
            value,
            ty,
            frame_size: scope.frame_size,
            span: c.name.span,
            definition: c.span,
        });
        self.visible_consts = self.program.consts.len();
    }

    fn fn_body(&mut self, f: &ast::FnDef, id: u32) {
        let mut scope = Scope::new(false);
        for p in &self.program.functions[id as usize].params.clone() {
            scope.bind(&p.name, p.ty.clone());
        }
        let (body, ret) = self.expr(&f.body, &mut scope);
        let func = &mut self.program.functions[id as usize];
        func.body = body;
        func.ret = ret;
        func.frame_size = scope.frame_size;
    }

    fn game_body(&mut self, g: &ast::GameDef, id: u32) {
        let mut scope = Scope::new(false);
        for p in &self.program.games[id as usize].params.clone() {
            scope.bind(&p.name, p.ty.clone());
        }
        let mut symmetry = None;
        let kind = match &g.body {
            ast::GameBody::Octal { code, span } => match TakeBreakCode::parse(code) {
                // Plain octal codes go to the octal kernels; the rest are
                // searched move by move.
                Ok(general) => match general.octal_digits() {
                    Some(digits) => GameKind::Octal(OctalCode {
                        digits,
                        text: code.clone(),
                    }),
                    None => GameKind::TakeBreak(general),
                },
                Err(reason) => {
                    self.error(
                        ErrorKind::BadOctalCode {
                            code: code.clone(),
                            reason,
                        },
                        *span,
                    );
                    return;
                }
            },
            ast::GameBody::Alias(body) => GameKind::Alias(self.position_expr(body, &mut scope)),
            ast::GameBody::Rules(items) => {
                symmetry = self.symmetry(id, items, &mut scope);
                self.rules(g, items, &mut scope)
            }
        };
        let game = &mut self.program.games[id as usize];
        game.kind = kind;
        game.symmetry = symmetry;
        game.frame_size = scope.frame_size;
    }

    fn rules(&mut self, g: &ast::GameDef, items: &[ast::GameItem], scope: &mut Scope) -> GameKind {
        let mut moves = Vec::new();
        let mut lose: Option<Ir> = None;
        let mut parts: Option<Ir> = None;
        let mut lose_span = None;
        let mut parts_span = None;
        let mut seen_names: Vec<&ast::Ident> = Vec::new();
        // A game's `let`s are seen by all its rules, wherever they stand,
        // and each by the `let`s after it.
        for item in items {
            if let ast::GameItem::Let(binding) = item {
                self.let_binding(binding, scope);
            }
        }
        for item in items {
            match item {
                ast::GameItem::Move(m) => {
                    if let Some(first) = seen_names.iter().find(|n| n.name == m.name.name) {
                        let first = first.span;
                        self.errors.push(
                            Error::new(
                                ErrorKind::Duplicate {
                                    name: m.name.name.clone(),
                                },
                                m.name.span,
                            )
                            .with_related(first, "first defined here"),
                        );
                    }
                    seen_names.push(&m.name);
                    moves.push(self.move_rule(m, scope));
                }
                ast::GameItem::Lose { condition, span } => {
                    if lose.is_some() {
                        self.error(
                            ErrorKind::Duplicate {
                                name: "lose if".into(),
                            },
                            *span,
                        );
                    }
                    lose = Some(self.bool_expr(condition, scope));
                    lose_span = Some(*span);
                }
                ast::GameItem::Parts { parts: p, span } => {
                    if parts.is_some() {
                        self.error(
                            ErrorKind::Duplicate {
                                name: "parts".into(),
                            },
                            *span,
                        );
                    }
                    parts = Some(self.position_expr(p, scope));
                    parts_span = Some(*span);
                }
                ast::GameItem::Let(_) => {}
                // Checked by `symmetry`.
                ast::GameItem::Symmetry { .. } => {}
            }
        }
        // The value would come from the parts alone, and the `lose if`
        // rule that ends the whole game would never be asked.
        if let (Some(lose), Some(parts)) = (lose_span, parts_span) {
            self.errors.push(
                Error::new(
                    ErrorKind::LoseWithParts {
                        game: g.name.name.clone(),
                    },
                    parts,
                )
                .with_related(lose, "the `lose if` rule"),
            );
        }
        if items.iter().all(|i| matches!(i, ast::GameItem::Let(_))) {
            self.error(
                ErrorKind::EmptyGame {
                    name: g.name.name.clone(),
                },
                g.name.span,
            );
        }
        GameKind::Rules { moves, lose, parts }
    }

    /// The images of a `symmetry =` rule: a list of positions of game `id`
    /// itself (or one such position), each made from the position's
    /// arguments as a move's result is.
    fn symmetry(
        &mut self,
        id: u32,
        items: &[ast::GameItem],
        scope: &mut Scope,
    ) -> Option<SymmetryIr> {
        let mut found: Option<SymmetryIr> = None;
        for item in items {
            let ast::GameItem::Symmetry { images, span } = item else {
                continue;
            };
            if found.is_some() {
                self.error(
                    ErrorKind::Duplicate {
                        name: "symmetry".into(),
                    },
                    *span,
                );
            }
            let written = match &images.kind {
                ast::ExprKind::List(items) => &items[..],
                _ => std::slice::from_ref(images),
            };
            let mut checked = Vec::new();
            for image in written {
                let (ir, ty) = self.expr(image, scope);
                let found = match &ir.kind {
                    IrKind::MakePos(g, _) if *g == id => {
                        checked.push(ir);
                        continue;
                    }
                    IrKind::MakePos(g, _) => {
                        format!("a position of `{}`", self.program.games[*g as usize].name)
                    }
                    IrKind::Comprehension { .. } => "a list comprehension".into(),
                    _ if ty.fits(&Type::Game) => "a position made another way".into(),
                    _ => describe(&ty),
                };
                self.error(
                    ErrorKind::SymmetryNotImage {
                        game: self.program.games[id as usize].name.clone(),
                        found,
                    },
                    image.span,
                );
            }
            found = Some(SymmetryIr {
                images: checked,
                span: *span,
            });
        }
        found
    }

    fn move_rule(&mut self, m: &ast::MoveRule, scope: &mut Scope) -> MoveIr {
        let mark = scope.mark();
        let generators = self.clauses(&m.generators, scope);
        let guard = m.guard.as_ref().map(|g| self.bool_expr(g, scope));
        let result = self.position_expr(&m.result, scope);
        scope.truncate(mark);
        MoveIr {
            name: m.name.name.clone(),
            generators,
            guard,
            result,
            span: m.span,
        }
    }

    fn claim(&mut self, c: &ast::Claim) {
        let mut scope = Scope::new(true);
        let generators = self.clauses(&c.scope, &mut scope);
        let filter = c.filter.as_ref().map(|f| self.bool_expr(f, &mut scope));
        let body = self.bool_expr(&c.body, &mut scope);
        self.program.claims.push(ClaimIr {
            generators,
            filter,
            body,
            frame_size: scope.frame_size,
            span: c.span,
        });
    }

    /// An expression that must be a boolean.
    pub(super) fn bool_expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> Ir {
        let (ir, ty) = self.expr(e, scope);
        if !ty.fits(&Type::Bool) {
            self.error(
                ErrorKind::WrongType {
                    expected: "a condition (true or false)".into(),
                    found: describe(&ty),
                    hint: None,
                },
                e.span,
            );
        }
        ir
    }

    /// An expression that must be a position, a sum or a list of positions.
    fn position_expr(&mut self, e: &ast::Expr, scope: &mut Scope) -> Ir {
        let (ir, ty) = self.expr(e, scope);
        let ok = ty.fits(&Type::Game) || ty.fits(&Type::List(Box::new(Type::Game)));
        if !ok {
            self.error(
                ErrorKind::NotAPosition {
                    found: describe(&ty),
                },
                e.span,
            );
        }
        ir
    }

    pub(super) fn unknown_name(
        &mut self,
        what: &'static str,
        name: &str,
        span: Span,
        candidates: Vec<String>,
    ) {
        let suggestion = suggest::closest(name, candidates.iter().map(String::as_str));
        self.error(
            ErrorKind::UnknownName {
                what,
                name: name.to_string(),
                suggestion,
            },
            span,
        );
    }
}
