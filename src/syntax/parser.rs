//! pest pairs to AST. One function per grammar rule; a pair that does not
//! have the shape the grammar promises is a bug here, reported as a syntax
//! error rather than a panic.

use super::ast::*;
use super::expected;
use crate::error::{Error, ErrorKind, Errors};
use crate::source::{SourceId, Span};
use crate::types::Type;
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use std::sync::{Arc, OnceLock};

#[derive(pest_derive::Parser)]
#[grammar = "../grammar/game.pest"]
pub(super) struct GameParser;

/// Expressions nested deeper than this are refused, so that no later pass
/// can run out of stack on them.
const MAX_DEPTH: usize = 200;

type Result<T> = std::result::Result<T, Error>;

/// What one REPL line holds.
#[derive(Clone, Debug)]
pub enum ReplLine {
    Items(Vec<Item>),
    Expr(Expr),
}

pub fn parse_file(source: SourceId, text: &str) -> std::result::Result<File, Errors> {
    let file = run(Rule::file, source, text)?;
    let items = Builder::new(source)
        .items(file.into_inner())
        .map_err(|e| vec![e])?;
    Ok(File { items })
}

pub fn parse_position(source: SourceId, text: &str) -> std::result::Result<Expr, Errors> {
    let input = run(Rule::position_input, source, text)?;
    let b = Builder::new(source);
    let expr = input
        .into_inner()
        .find(|p| p.as_rule() == Rule::expr)
        .ok_or_else(|| vec![b.malformed_at(0)])?;
    b.expr(expr, 0).map_err(|e| vec![e])
}

pub fn parse_repl_line(source: SourceId, text: &str) -> std::result::Result<ReplLine, Errors> {
    let line = run(Rule::repl_line, source, text)?;
    let b = Builder::new(source);
    let inner: Vec<Pair<Rule>> = line
        .into_inner()
        .filter(|p| p.as_rule() != Rule::EOI)
        .collect();
    if let [single] = inner.as_slice() {
        if single.as_rule() == Rule::expr {
            return b
                .expr(single.clone(), 0)
                .map(ReplLine::Expr)
                .map_err(|e| vec![e]);
        }
    }
    let mut items = Vec::new();
    for pair in inner {
        items.push(b.item(pair).map_err(|e| vec![e])?);
    }
    Ok(ReplLine::Items(items))
}

fn run(rule: Rule, source: SourceId, text: &str) -> std::result::Result<Pair<'_, Rule>, Errors> {
    pest::set_error_detail(true);
    match GameParser::parse(rule, text) {
        Ok(mut pairs) => pairs
            .next()
            .ok_or_else(|| vec![Builder::new(source).malformed_at(0)]),
        Err(err) => Err(vec![expected::syntax_error(err, source, text)]),
    }
}

fn pratt() -> &'static PrattParser<Rule> {
    static PRATT: OnceLock<PrattParser<Rule>> = OnceLock::new();
    PRATT.get_or_init(|| {
        PrattParser::new()
            .op(Op::infix(Rule::or, Assoc::Left))
            .op(Op::infix(Rule::and, Assoc::Left))
            .op(Op::prefix(Rule::not))
            .op(Op::infix(Rule::eq, Assoc::Left)
                | Op::infix(Rule::ne, Assoc::Left)
                | Op::infix(Rule::lt, Assoc::Left)
                | Op::infix(Rule::le, Assoc::Left)
                | Op::infix(Rule::gt, Assoc::Left)
                | Op::infix(Rule::ge, Assoc::Left)
                | Op::infix(Rule::in_, Assoc::Left)
                | Op::infix(Rule::not_in, Assoc::Left))
            .op(Op::infix(Rule::range_excl, Assoc::Left) | Op::infix(Rule::range_incl, Assoc::Left))
            .op(Op::infix(Rule::bit_or, Assoc::Left))
            .op(Op::infix(Rule::bit_xor, Assoc::Left))
            .op(Op::infix(Rule::bit_and, Assoc::Left))
            .op(Op::infix(Rule::shl, Assoc::Left) | Op::infix(Rule::shr, Assoc::Left))
            .op(Op::infix(Rule::add, Assoc::Left) | Op::infix(Rule::sub, Assoc::Left))
            .op(Op::infix(Rule::mul, Assoc::Left)
                | Op::infix(Rule::div, Assoc::Left)
                | Op::infix(Rule::rem, Assoc::Left))
            .op(Op::prefix(Rule::neg))
            // Tighter than unary minus, as in Python: `-2 ** 2` is -4.
            .op(Op::infix(Rule::pow, Assoc::Right))
            .op(Op::postfix(Rule::index))
    })
}

struct Builder {
    source: SourceId,
}

impl Builder {
    fn new(source: SourceId) -> Builder {
        Builder { source }
    }

    fn span(&self, pair: &Pair<Rule>) -> Span {
        let s = pair.as_span();
        Span::new(self.source, s.start(), s.end())
    }

    fn malformed_at(&self, pos: usize) -> Error {
        Error::new(
            ErrorKind::Syntax {
                expected: "a well-formed definition".into(),
                found: "something the parser could not read".into(),
                hint: None,
            },
            Span::new(self.source, pos, pos),
        )
    }

    fn malformed(&self, pair: &Pair<Rule>) -> Error {
        Error::new(
            ErrorKind::Syntax {
                expected: "a well-formed definition".into(),
                found: format!("`{}`", pair.as_str()),
                hint: None,
            },
            self.span(pair),
        )
    }

    /// The next child of a pair, which the grammar guarantees.
    fn next<'i>(
        &self,
        parent: &Pair<'i, Rule>,
        pairs: &mut Pairs<'i, Rule>,
    ) -> Result<Pair<'i, Rule>> {
        pairs.next().ok_or_else(|| self.malformed(parent))
    }

    fn items(&self, pairs: Pairs<Rule>) -> Result<Vec<Item>> {
        let mut items = Vec::new();
        for pair in pairs {
            if pair.as_rule() == Rule::EOI {
                continue;
            }
            items.push(self.item(pair)?);
        }
        Ok(items)
    }

    fn item(&self, pair: Pair<Rule>) -> Result<Item> {
        match pair.as_rule() {
            Rule::use_decl => self.use_decl(pair).map(Item::Use),
            Rule::const_def => self.const_def(pair).map(Item::Const),
            Rule::fn_def => self.fn_def(pair).map(Item::Fn),
            Rule::game_def => self.game_def(pair).map(Item::Game),
            Rule::claim => self.claim(pair).map(Item::Claim),
            _ => Err(self.malformed(&pair)),
        }
    }

    fn ident(&self, pair: Pair<Rule>) -> Ident {
        Ident {
            name: pair.as_str().to_string(),
            span: self.span(&pair),
        }
    }

    fn use_decl(&self, pair: Pair<Rule>) -> Result<UseDecl> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        let string = self.next(&pair, &mut inner)?;
        let path_span = self.span(&string);
        let body = self.next(&string, &mut string.clone().into_inner())?;
        Ok(UseDecl {
            path: self.unescape(body)?.to_string(),
            path_span,
            span,
        })
    }

    fn const_def(&self, pair: Pair<Rule>) -> Result<ConstDef> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        let name = self.ident(self.next(&pair, &mut inner)?);
        let value = self.expr(self.next(&pair, &mut inner)?, 0)?;
        Ok(ConstDef { name, value, span })
    }

    fn fn_def(&self, pair: Pair<Rule>) -> Result<FnDef> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        let name = self.ident(self.next(&pair, &mut inner)?);
        let params = self.params(self.next(&pair, &mut inner)?)?;
        let body = self.expr(self.next(&pair, &mut inner)?, 0)?;
        Ok(FnDef {
            name,
            params,
            body,
            span,
        })
    }

    fn params(&self, pair: Pair<Rule>) -> Result<Vec<Param>> {
        let mut params = Vec::new();
        for param in pair.into_inner() {
            let mut inner = param.clone().into_inner();
            let name = self.ident(self.next(&param, &mut inner)?);
            let ty = match inner.next() {
                Some(t) => Some(self.type_expr(t)?),
                None => None,
            };
            params.push(Param { name, ty });
        }
        Ok(params)
    }

    fn type_expr(&self, pair: Pair<Rule>) -> Result<TypeExpr> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        let t = self.next(&pair, &mut inner)?;
        let ty = match t.as_rule() {
            Rule::nat_type => Type::Nat,
            Rule::int_type => Type::Int,
            Rule::bool_type => Type::Bool,
            Rule::str_type => Type::Str,
            Rule::grid_type => Type::Grid,
            Rule::game_type => Type::Game,
            Rule::list_type | Rule::set_type => {
                let mut parts = t.clone().into_inner();
                let element = self.type_expr(self.next(&t, &mut parts)?)?.ty;
                if t.as_rule() == Rule::list_type {
                    Type::List(Box::new(element))
                } else {
                    Type::Set(Box::new(element))
                }
            }
            Rule::tuple_type => {
                let mut elements = Vec::new();
                for p in t.into_inner() {
                    elements.push(self.type_expr(p)?.ty);
                }
                Type::Tuple(elements)
            }
            _ => return Err(self.malformed(&t)),
        };
        Ok(TypeExpr { ty, span })
    }

    fn game_def(&self, pair: Pair<Rule>) -> Result<GameDef> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        let mut first = self.next(&pair, &mut inner)?;
        let loopy = first.as_rule() == Rule::loopy_mark;
        if loopy {
            first = self.next(&pair, &mut inner)?;
        }
        let name = self.ident(first);
        let next = self.next(&pair, &mut inner)?;
        if next.as_rule() == Rule::octal_def {
            let mut code = next.clone().into_inner();
            let code = self.next(&next, &mut code)?;
            return Ok(GameDef {
                name,
                params: Vec::new(),
                body: GameBody::Octal {
                    code: code.as_str().to_string(),
                    span: self.span(&code),
                },
                loopy,
                span,
            });
        }
        let params = self.params(next)?;
        let body_pair = self.next(&pair, &mut inner)?;
        let body = match body_pair.as_rule() {
            Rule::alias_body => {
                let mut b = body_pair.clone().into_inner();
                GameBody::Alias(self.expr(self.next(&body_pair, &mut b)?, 0)?)
            }
            Rule::rules_body => {
                let mut items = Vec::new();
                for item in body_pair.into_inner() {
                    items.push(self.game_item(item)?);
                }
                GameBody::Rules(items)
            }
            _ => return Err(self.malformed(&body_pair)),
        };
        Ok(GameDef {
            name,
            params,
            body,
            loopy,
            span,
        })
    }

    fn game_item(&self, pair: Pair<Rule>) -> Result<GameItem> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        match pair.as_rule() {
            Rule::move_rule => {
                let name = self.ident(self.next(&pair, &mut inner)?);
                let generators = self.generators(self.next(&pair, &mut inner)?.into_inner())?;
                let mut guard = None;
                let mut result = self.next(&pair, &mut inner)?;
                if result.as_rule() == Rule::guard {
                    guard = Some(self.guard(result)?);
                    result = self.next(&pair, &mut inner)?;
                }
                let result = self.expr(result, 0)?;
                Ok(GameItem::Move(MoveRule {
                    name,
                    generators,
                    guard,
                    result,
                    span,
                }))
            }
            Rule::lose_rule => Ok(GameItem::Lose {
                condition: self.expr(self.next(&pair, &mut inner)?, 0)?,
                span,
            }),
            Rule::parts_rule => Ok(GameItem::Parts {
                parts: self.expr(self.next(&pair, &mut inner)?, 0)?,
                span,
            }),
            Rule::let_item => self.let_binding(pair, 0).map(GameItem::Let),
            Rule::symmetry_rule => Ok(GameItem::Symmetry {
                images: self.expr(self.next(&pair, &mut inner)?, 0)?,
                span,
            }),
            _ => Err(self.malformed(&pair)),
        }
    }

    fn guard(&self, pair: Pair<Rule>) -> Result<Expr> {
        let mut inner = pair.clone().into_inner();
        self.expr(self.next(&pair, &mut inner)?, 0)
    }

    fn generators(&self, pairs: Pairs<Rule>) -> Result<Vec<Clause>> {
        pairs.map(|p| self.clause(p)).collect()
    }

    /// A generator or a `let` of a move's or claim's scope.
    fn clause(&self, pair: Pair<Rule>) -> Result<Clause> {
        match pair.as_rule() {
            Rule::let_clause => self.let_binding(pair, 0).map(Clause::Let),
            _ => self.generator(pair, 0).map(Clause::Each),
        }
    }

    fn generator(&self, pair: Pair<Rule>, depth: usize) -> Result<Generator> {
        let mut inner = pair.clone().into_inner();
        let pattern = self.pattern(self.next(&pair, &mut inner)?)?;
        let source = self.expr(self.next(&pair, &mut inner)?, depth)?;
        Ok(Generator { pattern, source })
    }

    /// `let pattern = value`, the keyword first; whatever follows the
    /// value (the body of a `let` expression) is left to the caller.
    fn let_binding(&self, pair: Pair<Rule>, depth: usize) -> Result<LetBinding> {
        let mut inner = pair.clone().into_inner();
        let keyword = self.span(&self.next(&pair, &mut inner)?);
        let pattern = self.pattern(self.next(&pair, &mut inner)?)?;
        let value = self.expr(self.next(&pair, &mut inner)?, depth)?;
        Ok(LetBinding {
            span: keyword.to(value.span),
            pattern,
            value,
        })
    }

    fn pattern(&self, pair: Pair<Rule>) -> Result<Pattern> {
        match pair.as_rule() {
            Rule::tuple_pattern => {
                let span = self.span(&pair);
                let parts = pair
                    .into_inner()
                    .map(|p| self.pattern(p))
                    .collect::<Result<_>>()?;
                Ok(Pattern::Tuple(parts, span))
            }
            _ => Ok(Pattern::Name(self.ident(pair))),
        }
    }

    fn claim(&self, pair: Pair<Rule>) -> Result<Claim> {
        let span = self.span(&pair);
        let mut scope = Vec::new();
        let mut filter = None;
        let mut body = None;
        for p in pair.clone().into_inner() {
            match p.as_rule() {
                Rule::claim_scope => {
                    for part in p.into_inner() {
                        if part.as_rule() == Rule::guard {
                            filter = Some(self.guard(part)?);
                        } else {
                            scope.push(self.clause(part)?);
                        }
                    }
                }
                Rule::expr => body = Some(self.expr(p, 0)?),
                _ => return Err(self.malformed(&p)),
            }
        }
        let body = body.ok_or_else(|| self.malformed(&pair))?;
        Ok(Claim {
            scope,
            filter,
            body,
            span,
        })
    }

    fn expr(&self, pair: Pair<Rule>, depth: usize) -> Result<Expr> {
        if depth > MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::NestedTooDeeply {
                    depth,
                    limit: MAX_DEPTH,
                },
                self.span(&pair),
            ));
        }
        let source = self.source;
        let me = self;
        pratt()
            .map_primary(move |p| me.operand(p, depth + 1))
            .map_prefix(move |op, rhs| {
                let rhs = rhs?;
                let span = Span::new(source, op.as_span().start(), 0).to(rhs.span);
                let op = match op.as_rule() {
                    Rule::neg => UnaryOp::Neg,
                    _ => UnaryOp::Not,
                };
                Ok(Expr {
                    kind: ExprKind::Unary {
                        op,
                        operand: Box::new(rhs),
                    },
                    span,
                })
            })
            .map_postfix(move |lhs, op| {
                let lhs = lhs?;
                let op_span = op.as_span();
                let mut inner = op.clone().into_inner();
                let index = me.next(&op, &mut inner)?;
                let index = me.expr(index, depth + 1)?;
                let span = lhs
                    .span
                    .to(Span::new(source, op_span.start(), op_span.end()));
                Ok(Expr {
                    kind: ExprKind::Index {
                        target: Box::new(lhs),
                        index: Box::new(index),
                    },
                    span,
                })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                let op = binary_op(op.as_rule());
                let span = lhs.span.to(rhs.span);
                Ok(Expr {
                    kind: ExprKind::Binary {
                        op,
                        lhs: Box::new(lhs),
                        rhs: Box::new(rhs),
                    },
                    span,
                })
            })
            .parse(pair.into_inner())
    }

    fn exprs(&self, pairs: Pairs<Rule>, depth: usize) -> Result<Vec<Expr>> {
        pairs.map(|p| self.expr(p, depth)).collect()
    }

    fn operand(&self, pair: Pair<Rule>, depth: usize) -> Result<Expr> {
        let span = self.span(&pair);
        let mut inner = pair.clone().into_inner();
        let kind = match pair.as_rule() {
            Rule::int_lit => match pair.as_str().parse::<i64>() {
                Ok(n) => ExprKind::Int(n),
                Err(_) => {
                    return Err(Error::new(
                        ErrorKind::NumberTooLarge {
                            text: pair.as_str().to_string(),
                        },
                        span,
                    ))
                }
            },
            Rule::str_lit => {
                let body = self.next(&pair, &mut inner)?;
                ExprKind::Str(self.unescape(body)?)
            }
            Rule::true_lit => ExprKind::Bool(true),
            Rule::false_lit => ExprKind::Bool(false),
            Rule::var => ExprKind::Var(pair.as_str().to_string()),
            Rule::call => {
                let name = self.ident(self.next(&pair, &mut inner)?);
                let args = self.exprs(self.next(&pair, &mut inner)?.into_inner(), depth)?;
                ExprKind::Call { name, args }
            }
            Rule::set_lit => ExprKind::Set(self.exprs(inner, depth)?),
            Rule::paren => {
                let first = self.expr(self.next(&pair, &mut inner)?, depth)?;
                match inner.next() {
                    None => ExprKind::Group(Box::new(first)),
                    Some(rest) => {
                        let mut items = vec![first];
                        items.extend(self.exprs(rest.into_inner(), depth)?);
                        ExprKind::Tuple(items)
                    }
                }
            }
            Rule::list => match inner.next() {
                None => ExprKind::List(Vec::new()),
                Some(first) => {
                    let first = self.expr(first, depth)?;
                    let rest: Vec<Pair<Rule>> = inner.collect();
                    if rest.first().is_some_and(|p| p.as_rule() == Rule::comp_for) {
                        self.comprehension(first, rest, depth)?
                    } else {
                        let mut items = vec![first];
                        for r in rest {
                            items.extend(self.exprs(r.into_inner(), depth)?);
                        }
                        ExprKind::List(items)
                    }
                }
            },
            Rule::let_expr => {
                let binding = self.let_binding(pair.clone(), depth)?;
                // The body is what follows the `;`.
                let body = inner.last().ok_or_else(|| self.malformed(&pair))?;
                ExprKind::Let {
                    binding: Box::new(binding),
                    body: Box::new(self.expr(body, depth)?),
                }
            }
            Rule::if_expr => {
                let cond = self.expr(self.next(&pair, &mut inner)?, depth)?;
                let then = self.expr(self.next(&pair, &mut inner)?, depth)?;
                let otherwise = self.expr(self.next(&pair, &mut inner)?, depth)?;
                ExprKind::If {
                    cond: Box::new(cond),
                    then: Box::new(then),
                    otherwise: Box::new(otherwise),
                }
            }
            _ => return Err(self.malformed(&pair)),
        };
        Ok(Expr { kind, span })
    }

    fn comprehension(
        &self,
        element: Expr,
        clauses: Vec<Pair<Rule>>,
        depth: usize,
    ) -> Result<ExprKind> {
        let mut compiled = Vec::new();
        for clause in clauses {
            let mut parts = clause.clone().into_inner();
            let pattern = self.pattern(self.next(&clause, &mut parts)?)?;
            let source = self.expr(self.next(&clause, &mut parts)?, depth)?;
            let guard = match parts.next() {
                Some(g) => Some(self.guard(g)?),
                None => None,
            };
            compiled.push(CompClause {
                generator: Generator { pattern, source },
                guard,
            });
        }
        Ok(ExprKind::Comprehension {
            element: Box::new(element),
            clauses: compiled,
        })
    }

    fn unescape(&self, pair: Pair<Rule>) -> Result<Arc<str>> {
        let raw = pair.as_str();
        let mut out = String::with_capacity(raw.len());
        let mut chars = raw.char_indices();
        while let Some((i, c)) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match chars.next() {
                Some((_, '"')) => out.push('"'),
                Some((_, '\\')) => out.push('\\'),
                Some((_, 'n')) => out.push('\n'),
                Some((_, 't')) => out.push('\t'),
                Some((j, other)) => {
                    let start = pair.as_span().start() + i;
                    let end = pair.as_span().start() + j + other.len_utf8();
                    return Err(Error::new(
                        ErrorKind::BadEscape { found: other },
                        Span::new(self.source, start, end),
                    ));
                }
                None => out.push('\\'),
            }
        }
        Ok(out.into())
    }
}

fn binary_op(rule: Rule) -> BinaryOp {
    match rule {
        Rule::or => BinaryOp::Or,
        Rule::and => BinaryOp::And,
        Rule::eq => BinaryOp::Eq,
        Rule::ne => BinaryOp::Ne,
        Rule::lt => BinaryOp::Lt,
        Rule::le => BinaryOp::Le,
        Rule::gt => BinaryOp::Gt,
        Rule::ge => BinaryOp::Ge,
        Rule::in_ => BinaryOp::In,
        Rule::not_in => BinaryOp::NotIn,
        Rule::range_excl => BinaryOp::RangeExclusive,
        Rule::range_incl => BinaryOp::RangeInclusive,
        Rule::bit_or => BinaryOp::BitOr,
        Rule::bit_xor => BinaryOp::BitXor,
        Rule::bit_and => BinaryOp::BitAnd,
        Rule::shl => BinaryOp::Shl,
        Rule::shr => BinaryOp::Shr,
        Rule::add => BinaryOp::Add,
        Rule::sub => BinaryOp::Sub,
        Rule::mul => BinaryOp::Mul,
        Rule::div => BinaryOp::Div,
        Rule::pow => BinaryOp::Pow,
        // The Pratt table only hands over the operators above.
        _ => BinaryOp::Rem,
    }
}
