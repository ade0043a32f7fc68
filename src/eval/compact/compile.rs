//! From a game's compiled program (`Ir`) to code over a packed key, for
//! one layout. Compiling is all or nothing: a rule, guard or expression
//! outside what `code` can say leaves the game to the general search.
//! Helpers are inlined, their arguments bound to registers.

use super::closure;
use super::code::{
    Bind, Char, Element, GameCode, Gen, Indices, Num, Rows, Rule, Seq, Source, Target, Text, Truth,
    Write,
};
use super::early;
use super::fused;
use super::hoist;
use super::layout::{Fields, Group, Layout};
use super::monotone;
use super::progression;
use super::turn;
use crate::eval::builtins::Builtin;
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{GameKind, GenIr, Ir, IrKind, Program};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;
use std::rc::Rc;

/// Helpers are inlined this deep; a deeper (or recursive) call is not
/// compiled.
const MAX_INLINE: u32 = 8;

/// What a variable of the program is, to the compiled code.
#[derive(Clone, Debug)]
enum Val {
    Num(u32),
    Const(i64),
    List(Fields),
    Str(Fields, Vec<u8>),
    Tuple(u32),
    Grid(Rows),
    /// A set of numbers held aside.
    Items(Rc<[i64]>),
    /// A string in a string register.
    Text(u32),
    /// One letter, its code in a register.
    Letter(u32),
    /// A boolean, 1 or 0 in a register.
    Flag(u32),
    /// One of a list of tuples of numbers written out (`(dx, dy) in [(1, 0),
    /// (0, 1)]`): the register holds its place in the list.
    Chosen(u32, Rc<[Vec<i64>]>),
}

type Scope = Vec<Option<Val>>;

struct Compiler<'a> {
    program: &'a Program,
    layout: &'a Layout,
    regs: u32,
    tuples: u32,
    texts: u32,
    depth: u32,
}

/// Which parameters every move rule of game `g` passes on unchanged, and
/// the letters its results write into strings.
pub fn fixed_and_letters(program: &Program, g: u32) -> Compiled<(Vec<bool>, Vec<u8>)> {
    let game = program
        .games
        .get(g as usize)
        .or_unsupported("an unknown game", Span::default())?;
    let moves = match &game.kind {
        GameKind::Rules {
            moves, parts: None, ..
        } => moves,
        GameKind::Rules { parts: Some(p), .. } => {
            return Err(Unsupported::new(
                "a `parts =` rule (the search splits such positions into their parts)",
                p.span,
            ))
        }
        _ => {
            return Err(Unsupported::new(
                "a game that is not defined by move rules",
                game.span,
            ))
        }
    };
    let mut fixed = vec![true; game.params.len()];
    let mut letters = Vec::new();
    // An image is made as a move's result is: what it changes is not fixed.
    let images = game.symmetry.iter().flat_map(|s| &s.images);
    for result in moves.iter().map(|m| &m.result).chain(images) {
        let IrKind::MakePos(target, args) = &result.kind else {
            return Err(Unsupported::new(
                "a result that is not one position of the same game (a sum, a list or an alias)",
                result.span,
            ));
        };
        if *target != g || args.len() != fixed.len() {
            return Err(Unsupported::new(
                "a result that is a position of another game",
                result.span,
            ));
        }
        for (i, a) in args.iter().enumerate() {
            if !matches!(a.kind, IrKind::Local(s) if s as usize == i) {
                fixed[i] = false;
            }
        }
        written_letters(program, result, 0, &mut letters);
    }
    Ok((fixed, letters))
}

/// The letters of the string literals a result may write: those in it and
/// in the helpers it calls (as deep as they are inlined).
fn written_letters(program: &Program, ir: &Ir, depth: u32, out: &mut Vec<u8>) {
    match &ir.kind {
        IrKind::Lit(Value::Str(s)) => out.extend(s.bytes().filter(u8::is_ascii)),
        IrKind::CallFn(f, _) if depth < MAX_INLINE => {
            if let Some(func) = program.functions.get(*f as usize) {
                written_letters(program, &func.body, depth + 1, out);
            }
        }
        _ => {}
    }
    children(ir, |child| written_letters(program, child, depth, out));
}

/// Calls `f` on each expression directly inside `ir`.
pub(super) fn children<'i>(ir: &'i Ir, mut f: impl FnMut(&'i Ir)) {
    match &ir.kind {
        IrKind::Lit(_) | IrKind::Local(_) | IrKind::Const(_) => {}
        IrKind::CallFn(_, xs)
        | IrKind::MakePos(_, xs)
        | IrKind::Builtin(_, xs)
        | IrKind::List(xs)
        | IrKind::Set(xs)
        | IrKind::Tuple(xs) => xs.iter().for_each(f),
        IrKind::Comprehension { element, clauses } => {
            f(element);
            for c in clauses {
                f(&c.generator.source);
                if let Some(g) = &c.guard {
                    f(g);
                }
            }
        }
        IrKind::If(a, b, c) => {
            f(a);
            f(b);
            f(c);
        }
        IrKind::Unary(_, x) => f(x),
        IrKind::Binary(_, a, b) | IrKind::Index(a, b) => {
            f(a);
            f(b);
        }
    }
}

fn letter(ir: &Ir) -> Option<u8> {
    match &ir.kind {
        IrKind::Lit(Value::Str(s)) if s.len() == 1 && s.is_ascii() => Some(s.as_bytes()[0]),
        _ => None,
    }
}

/// Game `layout.game`'s rules compiled for `layout`, with the innermost
/// loops of the shapes `fused` knows run on the key when `fuse` is set.
pub fn game(program: &Program, layout: &Layout, fuse: bool) -> Compiled<GameCode> {
    let game = program
        .games
        .get(layout.game as usize)
        .or_unsupported("an unknown game", Span::default())?;
    let GameKind::Rules {
        moves,
        lose,
        parts: None,
    } = &game.kind
    else {
        return Err(Unsupported::new(
            "a game that is not defined by move rules alone",
            game.span,
        ));
    };
    let mut scope: Scope = vec![None; game.frame_size.max(game.params.len())];
    for (i, group) in layout.groups.iter().enumerate() {
        scope[i] = Some(match group {
            Group::Fixed(Value::Int(n)) => Val::Const(*n),
            Group::Fixed(Value::Set(xs)) => Val::Items(
                xs.iter()
                    .map(|x| match x {
                        Value::Int(n) => Some(*n),
                        _ => None,
                    })
                    .collect::<Option<_>>()
                    .or_unsupported("a set held aside of other than numbers", game.span)?,
            ),
            Group::Fixed(_) => {
                return Err(Unsupported::new(
                    "a value held aside of another kind",
                    game.span,
                ))
            }
            Group::Scalar(f) => Val::Num(f.first),
            Group::Flag(f) => Val::Flag(f.first),
            Group::List(f) => Val::List(*f),
            Group::Str(f, alphabet) => Val::Str(*f, alphabet.clone()),
            Group::Grid(rows) => Val::Grid(*rows),
        });
    }
    let mut c = Compiler {
        program,
        layout,
        regs: layout.fields,
        tuples: 0,
        texts: 0,
        depth: 0,
    };
    let lose = match lose {
        Some(l) => Some(c.truth(&mut scope, l)?),
        None => None,
    };
    let mut rules = Vec::new();
    for m in moves {
        let mut scope = scope.clone();
        let mut gens = Vec::new();
        for g in &m.generators {
            let (target, source, val) = c.generator(&mut scope, &g.source)?;
            *scope
                .get_mut(g.slot as usize)
                .or_unsupported("a variable outside the rule's frame", g.source.span)? = Some(val);
            gens.push(Gen { target, source });
        }
        // `cells(g, letter)` keeps the cells holding the letter: each is
        // tested as soon as its generator sets it, before anything else,
        // so later generators and the guard never see the others.
        let filters: Vec<Option<Ir>> = m.generators.iter().map(cells_filter).collect();
        let safe: Vec<bool> = gens.iter().map(|g| early::cannot_fail(&g.source)).collect();
        let (mut early, rest) = match &m.guard {
            Some(g) => early::split(&m.generators, g, &safe),
            None => (vec![Vec::new(); gens.len()], Vec::new()),
        };
        for (tests, filter) in early.iter_mut().zip(&filters) {
            if let Some(filter) = filter {
                tests.insert(0, filter);
            }
        }
        let early = early
            .iter()
            .map(|tests| c.all(&mut scope, tests))
            .collect::<Compiled<_>>()?;
        let guard = c.all(&mut scope, &rest)?;
        let writes = c.result(&mut scope, &m.result, layout)?;
        let mut rule = Rule {
            gens,
            early,
            guard,
            writes,
            fused: None,
            bounds: Vec::new(),
            progression: false,
            hoist: None,
        };
        if fuse {
            monotone::bounds(&mut rule, layout.fields);
            if rule.bounds.last().is_none_or(Option::is_none) {
                rule.fused = fused::recognise(&rule);
            }
            rule.progression = progression::affine(&rule, layout.fields);
            let slot = rules.iter().filter(|r: &&Rule| r.hoist.is_some()).count();
            rule.hoist = hoist::recognise(&rule, layout.fields, slot);
        }
        rules.push(rule);
    }
    // Each image is a result made from the position itself; images that
    // cannot be compiled leave the search to store every position.
    let images: Vec<&Ir> = game.symmetry.iter().flat_map(|s| &s.images).collect();
    let images = match turned_grid(&images, layout) {
        Some(turns) => Ok(turns),
        None => images
            .iter()
            .map(|image| c.result(&mut scope.clone(), image, layout))
            .collect::<Compiled<Vec<_>>>(),
    };
    let (images, unimaged) = match images {
        Ok(images) => (images, None),
        Err(why) => (Vec::new(), Some(why)),
    };
    let mut code = GameCode {
        lose,
        rules,
        images,
        unimaged,
        regs: c.regs,
        tuples: c.tuples,
        texts: c.texts,
        cell: layout.cell,
        decode: true,
    };
    code.decode = fused::needs_registers(&code);
    closure::lower(&mut code);
    Ok(code)
}

/// The images as the turns of a grid that keep its shape, where some of
/// them change it (see `turn::keeping_shape`).
fn turned_grid(images: &[&Ir], layout: &Layout) -> Option<Vec<Vec<Write>>> {
    layout
        .groups
        .iter()
        .enumerate()
        .find_map(|(param, group)| match group {
            Group::Grid(rows) if !rows.numbered => {
                let turns = turn::keeping_shape(images, rows, param)?;
                Some(
                    turns
                        .into_iter()
                        .map(|cells| vec![Write::Turned(*rows, Some(cells))])
                        .collect(),
                )
            }
            _ => None,
        })
}

/// For `(r, c) in cells(g, letter)`, the test that a cell holds the letter,
/// `g[t[0]][t[1]] == letter` on the generator's slot `t`: the compiled
/// search walks every cell and tests it.
fn cells_filter(g: &GenIr) -> Option<Ir> {
    let IrKind::Builtin(Builtin::Cells, a) = &g.source.kind else {
        return None;
    };
    let [grid, letter] = &a[..] else {
        return None;
    };
    let span = g.source.span;
    let ir = |kind| Ir { kind, span };
    let element = |i: i64| {
        ir(IrKind::Index(
            Box::new(ir(IrKind::Local(g.slot))),
            Box::new(ir(IrKind::Lit(Value::Int(i)))),
        ))
    };
    let row = ir(IrKind::Index(Box::new(grid.clone()), Box::new(element(0))));
    let cell = ir(IrKind::Index(Box::new(row), Box::new(element(1))));
    Some(ir(IrKind::Binary(
        BinaryOp::Eq,
        Box::new(cell),
        Box::new(letter.clone()),
    )))
}

/// What the compiled code reads as a number.
const NUMBERS: &str = "an expression the compiled search cannot compute: it computes numbers \
     with arithmetic, `if`, indexing, `len`, `sum`, `abs`, `min`, `max` (of numbers, or of a \
     list parameter) and helpers";
/// What it reads as a condition.
const CONDITIONS: &str = "a condition the compiled search cannot test: it tests comparisons of \
     numbers, strings or tuples written out, `and`, `or`, `not`, `has(string, \"text\")` or \
     `\"text\" in string`, and helpers";
/// What it walks.
const SOURCES: &str = "a generator the compiled search cannot walk: it walks ranges, \
     `indices`, lists held in parameters, lists of tuples of numbers written out, `subsets`, \
     `product` and the cells of a grid";
/// What it writes into a list or string.
const WRITES: &str = "a new value the compiled search cannot write: it writes `set_at` chains \
     on the parameter, the parameter reversed, list literals and comprehensions";
/// Which grids it turns.
const NUMBERED_TURN: &str = "a grid turned or reflected whose rows are numbered (too many \
     letters to hold side by side in a key): the compiled search turns such a grid only upside \
     down, with `reverse`";
/// Which turns it makes.
const RESHAPED: &str = "a `transpose` or `rotate` that changes the grid's shape (a board that is \
     not square), which no key of the same layout holds: `if len(g) == width(g) then \
     rotate(g) else ...` turns square boards only";
/// What it works out as a string.
const TEXTS: &str = "a string the compiled search cannot work out: it works out literals, \
     indexing, `set_at`, `slice`, `repeat`, `+`, `if` and helpers over strings and grids";

impl<'a> Compiler<'a> {
    fn reg(&mut self) -> u32 {
        self.regs += 1;
        self.regs - 1
    }

    /// The writes that make a result `G(args)` of the layout's game from
    /// the key: a move's result, or an image a `symmetry =` declares.
    fn result(&mut self, scope: &mut Scope, result: &Ir, layout: &Layout) -> Compiled<Vec<Write>> {
        let IrKind::MakePos(_, args) = &result.kind else {
            return Err(Unsupported::new(
                "a result that is not one position of the same game",
                result.span,
            ));
        };
        let mut writes = Vec::new();
        for (i, (a, group)) in args.iter().zip(&layout.groups).enumerate() {
            if matches!(a.kind, IrKind::Local(s) if s as usize == i) {
                continue;
            }
            match group {
                Group::Fixed(_) => {
                    return Err(Unsupported::new(
                        "a parameter held aside but changed",
                        a.span,
                    ))
                }
                Group::Scalar(f) => writes.push(Write::Scalar(*f, self.num(scope, a)?)),
                Group::Flag(f) => writes.push(Write::Scalar(*f, self.flag(scope, a)?)),
                Group::List(_) | Group::Str(..) | Group::Grid(_) => {
                    self.writes(scope, a, i, group, &mut writes)?
                }
            }
        }
        Ok(writes)
    }

    fn tuple(&mut self) -> u32 {
        self.tuples += 1;
        self.tuples - 1
    }

    fn text_reg(&mut self) -> u32 {
        self.texts += 1;
        self.texts - 1
    }

    /// Whether an expression is a string (a letter is a string of one).
    fn is_text(&self, scope: &Scope, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Lit(v) => matches!(v, Value::Str(_)),
            IrKind::Local(_) => matches!(
                self.val(scope, ir),
                Some(Val::Str(..) | Val::Text(_) | Val::Letter(_))
            ),
            IrKind::Index(target, _) => {
                matches!(self.val(scope, target), Some(Val::Grid(_))) || self.is_text(scope, target)
            }
            IrKind::Builtin(Builtin::SetAt | Builtin::Slice, a) => {
                a.first().is_some_and(|t| self.is_text(scope, t))
            }
            IrKind::Builtin(Builtin::Repeat, _) => true,
            IrKind::Binary(BinaryOp::Add, l, r) => self.is_text(scope, l) || self.is_text(scope, r),
            IrKind::If(_, a, b) => self.is_text(scope, a) || self.is_text(scope, b),
            IrKind::CallFn(f, _) => self
                .program
                .functions
                .get(*f as usize)
                .is_some_and(|func| func.ret == Type::Str),
            _ => false,
        }
    }

    /// A string, worked out in the game's alphabet.
    fn text(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Text> {
        let refused = || Unsupported::new(TEXTS, ir.span);
        let boxed = |t: Text| Box::new(t);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Str(s)) => {
                Text::Lit(self.layout.word(s).map(|w| (w, s.len() as u32)))
            }
            IrKind::Local(_) => match self.val(scope, ir) {
                Some(Val::Str(f, _)) => Text::Param(f),
                Some(Val::Text(t)) => Text::Reg(t),
                Some(Val::Letter(r)) => Text::Letter(r),
                _ => return Err(refused()),
            },
            IrKind::Index(target, index) => match self.val(scope, target) {
                Some(Val::Grid(rows)) => {
                    Text::Row(rows.fields, rows.cols, Box::new(self.num(scope, index)?))
                }
                _ => Text::At(
                    boxed(self.text(scope, target)?),
                    Box::new(self.num(scope, index)?),
                ),
            },
            IrKind::Builtin(Builtin::SetAt, a) => match &a[..] {
                [t, i, v] => Text::SetAt(
                    boxed(self.text(scope, t)?),
                    Box::new(self.num(scope, i)?),
                    boxed(self.text(scope, v)?),
                ),
                _ => return Err(refused()),
            },
            IrKind::Builtin(Builtin::Slice, a) => match &a[..] {
                [t, from, to] => Text::Slice(
                    boxed(self.text(scope, t)?),
                    Box::new(self.num(scope, from)?),
                    Box::new(self.num(scope, to)?),
                ),
                _ => return Err(refused()),
            },
            IrKind::Builtin(Builtin::Repeat, a) => match &a[..] {
                [t, n] => Text::Repeat(boxed(self.text(scope, t)?), Box::new(self.num(scope, n)?)),
                _ => return Err(refused()),
            },
            IrKind::Binary(BinaryOp::Add, l, r) => {
                Text::Concat(boxed(self.text(scope, l)?), boxed(self.text(scope, r)?))
            }
            IrKind::If(cond, then, otherwise) => Text::If(
                Box::new(self.truth(scope, cond)?),
                boxed(self.text(scope, then)?),
                boxed(self.text(scope, otherwise)?),
            ),
            IrKind::CallFn(f, args) => self.inline(scope, ir, *f, args, Self::text, |b, t| {
                Text::Let(b, Box::new(t))
            })?,
            _ => return Err(refused()),
        })
    }

    fn val(&self, scope: &Scope, ir: &Ir) -> Option<Val> {
        match ir.kind {
            IrKind::Local(s) => scope.get(s as usize)?.clone(),
            _ => None,
        }
    }

    /// A generator's source: what it walks, and what its variable becomes.
    fn generator(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<(Target, Source, Val)> {
        if let IrKind::Builtin(Builtin::Subsets, a) = &ir.kind {
            let (Some(items), Some(lo)) = (a.first(), a.get(1)) else {
                return Err(Unsupported::new(SOURCES, ir.span));
            };
            let items = self.seq(scope, items)?;
            let lo_code = self.num(scope, lo)?;
            let hi = self.num(scope, a.get(2).unwrap_or(lo))?;
            let t = self.tuple();
            return Ok((
                Target::Tuple(t),
                Source::Subsets(items, lo_code, hi),
                Val::Tuple(t),
            ));
        }
        if let IrKind::Builtin(Builtin::Product, a) = &ir.kind {
            let lists = a.first().or_unsupported(SOURCES, ir.span)?;
            let source = self.product(scope, lists)?;
            let t = self.tuple();
            return Ok((Target::Tuple(t), source, Val::Tuple(t)));
        }
        if let IrKind::Builtin(Builtin::Cells, a) = &ir.kind {
            // A packed grid is a rectangle, so its cells, row by row, are
            // the product of its row and column numbers (those holding a
            // letter are tested by the rule: see `cells_filter`).
            if let [grid, ..] = &a[..] {
                if let Some(Val::Grid(rows)) = self.val(scope, grid) {
                    let t = self.tuple();
                    let upto = |n: u32| (Num::Lit(0), Num::Lit(i64::from(n)), false);
                    let source = Source::ProductList(vec![upto(rows.fields.len), upto(rows.cols)]);
                    return Ok((Target::Tuple(t), source, Val::Tuple(t)));
                }
            }
        }
        if let Some(rows) = tuples_written_out(ir) {
            // The loop walks the places; an element is read off its place.
            let r = self.reg();
            let places = Seq::Range(Num::Lit(0), Num::Lit(rows.len() as i64), false);
            return Ok((Target::Reg(r), Source::Each(places), Val::Chosen(r, rows)));
        }
        let seq = self.seq(scope, ir)?;
        let r = self.reg();
        Ok((Target::Reg(r), Source::Each(seq), Val::Num(r)))
    }

    fn product(&mut self, scope: &mut Scope, lists: &Ir) -> Compiled<Source> {
        const PRODUCT: &str = "a `product` of something other than ranges: the compiled search \
             walks a product of ranges, written out or by a comprehension with no `if`";
        match &lists.kind {
            IrKind::Comprehension { element, clauses } => {
                let [clause] = &clauses[..] else {
                    return Err(Unsupported::new(PRODUCT, lists.span));
                };
                if let Some(guard) = &clause.guard {
                    return Err(Unsupported::new(PRODUCT, guard.span));
                }
                let over = self.seq(scope, &clause.generator.source)?;
                let var = self.reg();
                let mut inner = scope.clone();
                *inner
                    .get_mut(clause.generator.slot as usize)
                    .or_unsupported(PRODUCT, lists.span)? = Some(Val::Num(var));
                let (lo, hi, inclusive) = self.range(&mut inner, element)?;
                Ok(Source::ProductOf {
                    over,
                    var,
                    lo,
                    hi,
                    inclusive,
                })
            }
            IrKind::List(items) => Ok(Source::ProductList(
                items
                    .iter()
                    .map(|x| self.range(scope, x))
                    .collect::<Compiled<_>>()?,
            )),
            _ => Err(Unsupported::new(PRODUCT, lists.span)),
        }
    }

    fn range(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<(Num, Num, bool)> {
        match &ir.kind {
            IrKind::Binary(op @ (BinaryOp::RangeExclusive | BinaryOp::RangeInclusive), lo, hi) => {
                Ok((
                    self.num(scope, lo)?,
                    self.num(scope, hi)?,
                    *op == BinaryOp::RangeInclusive,
                ))
            }
            _ => Err(Unsupported::new(SOURCES, ir.span)),
        }
    }

    fn seq(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Seq> {
        match &ir.kind {
            IrKind::Binary(BinaryOp::RangeExclusive | BinaryOp::RangeInclusive, ..) => {
                let (lo, hi, inclusive) = self.range(scope, ir)?;
                Ok(Seq::Range(lo, hi, inclusive))
            }
            IrKind::Builtin(Builtin::Indices, a) if a.len() == 1 => {
                Ok(Seq::Range(Num::Lit(0), self.len(scope, &a[0])?, false))
            }
            IrKind::Local(_) => match self.val(scope, ir) {
                Some(Val::List(f)) => Ok(Seq::Fields(f)),
                Some(Val::Items(xs)) => Ok(Seq::Items(xs)),
                Some(Val::Tuple(t)) => Ok(Seq::Tuple(t)),
                _ => Err(Unsupported::new(SOURCES, ir.span)),
            },
            _ => Err(Unsupported::new(SOURCES, ir.span)),
        }
    }

    fn nums(&mut self, scope: &mut Scope, irs: &[Ir]) -> Compiled<Vec<Num>> {
        irs.iter().map(|x| self.num(scope, x)).collect()
    }

    fn num(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        use BinaryOp::*;
        let refused = || Unsupported::new(NUMBERS, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Int(n)) => Num::Lit(*n),
            IrKind::Local(_) => match self.val(scope, ir) {
                Some(Val::Num(r)) => Num::Reg(r),
                Some(Val::Const(n)) => Num::Lit(n),
                _ => return Err(refused()),
            },
            IrKind::Index(target, index) => match self.val(scope, target) {
                Some(Val::List(f)) => Num::Field(f, Box::new(self.num(scope, index)?)),
                Some(Val::Tuple(t)) => Num::TupleAt(t, Box::new(self.num(scope, index)?)),
                Some(Val::Chosen(place, rows)) => {
                    let IrKind::Lit(Value::Int(j)) = index.kind else {
                        return Err(refused());
                    };
                    let column = usize::try_from(j).map_err(|_| refused())?;
                    let mut read = None;
                    for (i, row) in rows.iter().enumerate().rev() {
                        let n = Num::Lit(*row.get(column).ok_or_else(refused)?);
                        read = Some(match read {
                            None => n,
                            Some(later) => Num::If(
                                Box::new(Truth::Compare(Eq, Num::Reg(place), Num::Lit(i as i64))),
                                Box::new(n),
                                Box::new(later),
                            ),
                        });
                    }
                    read.ok_or_else(refused)?
                }
                _ => return Err(refused()),
            },
            IrKind::Binary(
                op @ (Add | Sub | Mul | Div | Rem | BitOr | BitXor | BitAnd | Shl | Shr | Pow),
                lhs,
                rhs,
            ) => Num::Binary(
                *op,
                Box::new(self.num(scope, lhs)?),
                Box::new(self.num(scope, rhs)?),
            ),
            IrKind::Unary(UnaryOp::Neg, x) => Num::Neg(Box::new(self.num(scope, x)?)),
            IrKind::If(cond, then, otherwise) => Num::If(
                Box::new(self.truth(scope, cond)?),
                Box::new(self.num(scope, then)?),
                Box::new(self.num(scope, otherwise)?),
            ),
            IrKind::Builtin(b, a) => match (b, &a[..]) {
                (Builtin::Len, [x]) => self.len(scope, x)?,
                (Builtin::Sum, [x]) => match self.val(scope, x) {
                    Some(Val::List(f)) => Num::SumFields(f),
                    Some(Val::Tuple(t)) => Num::SumTuple(t),
                    _ => return Err(refused()),
                },
                (Builtin::Abs, [x]) => Num::Abs(Box::new(self.num(scope, x)?)),
                (Builtin::Min, [_, _, ..]) => Num::Min(self.nums(scope, a)?),
                (Builtin::Max, [_, _, ..]) => Num::Max(self.nums(scope, a)?),
                // Of a list whose length the position fixes: of its fields.
                // An empty one is an error the interpreter reports.
                (Builtin::Min | Builtin::Max, [x]) => match self.val(scope, x) {
                    Some(Val::List(f)) if f.len > 0 => {
                        let each = (0..f.len)
                            .map(|i| Num::Field(f, Box::new(Num::Lit(i64::from(i)))))
                            .collect();
                        if *b == Builtin::Min {
                            Num::Min(each)
                        } else {
                            Num::Max(each)
                        }
                    }
                    _ => return Err(refused()),
                },
                _ => return Err(refused()),
            },
            IrKind::CallFn(f, args) => self.inline(scope, ir, *f, args, Self::num, |b, n| {
                Num::Let(b, Box::new(n))
            })?,
            _ => return Err(refused()),
        })
    }

    /// Every one of `tests`, in order; `None` for none.
    fn all(&mut self, scope: &mut Scope, tests: &[&Ir]) -> Compiled<Option<Truth>> {
        let mut all: Option<Truth> = None;
        for t in tests {
            let t = self.truth(scope, t)?;
            all = Some(match all {
                Some(before) => Truth::And(Box::new(before), Box::new(t)),
                None => t,
            });
        }
        Ok(all)
    }

    /// `len(x)`.
    fn len(&mut self, scope: &mut Scope, x: &Ir) -> Compiled<Num> {
        Ok(match self.val(scope, x) {
            Some(Val::List(f) | Val::Str(f, _)) => Num::Lit(i64::from(f.len)),
            Some(Val::Items(xs)) => Num::Lit(xs.len() as i64),
            Some(Val::Grid(rows)) => Num::Lit(i64::from(rows.fields.len)),
            Some(Val::Tuple(t)) => Num::TupleLen(t),
            _ if self.is_text(scope, x) => Num::TextLen(Box::new(self.text(scope, x)?)),
            _ => return Err(Unsupported::new(NUMBERS, x.span)),
        })
    }

    /// Whether an expression is a boolean.
    fn is_flag(&self, scope: &Scope, ir: &Ir) -> bool {
        use BinaryOp::*;
        match &ir.kind {
            IrKind::Lit(v) => matches!(v, Value::Bool(_)),
            IrKind::Local(_) => matches!(self.val(scope, ir), Some(Val::Flag(_))),
            IrKind::Unary(UnaryOp::Not, _) => true,
            IrKind::Binary(op, ..) => {
                matches!(op, And | Or | Eq | Ne | Lt | Le | Gt | Ge | In | NotIn)
            }
            IrKind::Builtin(Builtin::Has, _) => true,
            IrKind::If(_, a, b) => self.is_flag(scope, a) || self.is_flag(scope, b),
            IrKind::CallFn(f, _) => self
                .program
                .functions
                .get(*f as usize)
                .is_some_and(|func| func.ret == Type::Bool),
            _ => false,
        }
    }

    /// A boolean as a number: 1 or 0.
    fn flag(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        let t = self.truth(scope, ir)?;
        Ok(Num::If(
            Box::new(t),
            Box::new(Num::Lit(1)),
            Box::new(Num::Lit(0)),
        ))
    }

    fn truth(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Truth> {
        use BinaryOp::*;
        let refused = || Unsupported::new(CONDITIONS, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Bool(b)) => Truth::Lit(*b),
            IrKind::Local(_) if matches!(self.val(scope, ir), Some(Val::Flag(_))) => {
                let Some(Val::Flag(r)) = self.val(scope, ir) else {
                    return Err(refused());
                };
                Truth::Compare(Ne, Num::Reg(r), Num::Lit(0))
            }
            IrKind::If(cond, then, otherwise) => {
                // (c and a) or (not c and b), with c tested once: as numbers.
                let n = Num::If(
                    Box::new(self.truth(scope, cond)?),
                    Box::new(self.flag(scope, then)?),
                    Box::new(self.flag(scope, otherwise)?),
                );
                Truth::Compare(Ne, n, Num::Lit(0))
            }
            IrKind::Binary(op @ (Eq | Ne), l, r) if tuple_items(l).is_some() => {
                // Tuples are equal when every element is: `(c, t) != (0, 0)`
                // is `c != 0 or t != 0`.
                let (Some(ls), Some(rs)) = (tuple_items(l), tuple_items(r)) else {
                    return Err(refused());
                };
                if ls.len() != rs.len() {
                    return Err(refused());
                }
                let slots = scope.len();
                let mut binds = Vec::new();
                let ls = self.worked_out(scope, ls, &mut binds)?;
                let rs = self.worked_out(scope, rs, &mut binds)?;
                let mut all = Truth::Lit(true);
                for (a, b) in ls.into_iter().zip(rs).rev() {
                    let pair = Ir {
                        kind: IrKind::Binary(Eq, Box::new(a), Box::new(b)),
                        span: ir.span,
                    };
                    all = Truth::And(Box::new(self.truth(scope, &pair)?), Box::new(all));
                }
                scope.truncate(slots);
                if *op == Ne {
                    all = Truth::Not(Box::new(all));
                }
                for b in binds.into_iter().rev() {
                    all = Truth::Let(Box::new(b), Box::new(all));
                }
                all
            }
            IrKind::Binary(op @ (Eq | Ne), l, r)
                if self.is_flag(scope, l) || self.is_flag(scope, r) =>
            {
                Truth::Compare(*op, self.flag(scope, l)?, self.flag(scope, r)?)
            }
            IrKind::Unary(UnaryOp::Not, x) => Truth::Not(Box::new(self.truth(scope, x)?)),
            IrKind::Binary(And, l, r) => Truth::And(
                Box::new(self.truth(scope, l)?),
                Box::new(self.truth(scope, r)?),
            ),
            IrKind::Binary(Or, l, r) => Truth::Or(
                Box::new(self.truth(scope, l)?),
                Box::new(self.truth(scope, r)?),
            ),
            IrKind::Binary(op @ (Eq | Ne), l, r)
                if self.is_text(scope, l) || self.is_text(scope, r) =>
            {
                match self.same_char(scope, *op == Eq, l, r) {
                    Some(t) => t,
                    None => Truth::SameText(*op == Eq, self.text(scope, l)?, self.text(scope, r)?),
                }
            }
            IrKind::Binary(op @ (In | NotIn), x, s) => match self.val(scope, s) {
                Some(Val::Items(xs)) => Truth::In(*op == In, self.num(scope, x)?, xs),
                // Membership in a string is a substring test: `has`.
                _ if self.is_text(scope, s) => {
                    let has = self.has(scope, ir, s, x)?;
                    if *op == In {
                        has
                    } else {
                        Truth::Not(Box::new(has))
                    }
                }
                _ => return Err(refused()),
            },
            IrKind::Binary(op @ (Eq | Ne | Lt | Le | Gt | Ge), l, r) => {
                Truth::Compare(*op, self.num(scope, l)?, self.num(scope, r)?)
            }
            IrKind::Builtin(Builtin::Has, a) if a.len() == 2 => {
                self.has(scope, ir, &a[0], &a[1])?
            }
            IrKind::CallFn(f, args) => self.inline(scope, ir, *f, args, Self::truth, |b, t| {
                Truth::Let(b, Box::new(t))
            })?,
            _ => return Err(refused()),
        })
    }

    /// Whether string `board` holds the written-out string `text`.
    fn has(&mut self, scope: &mut Scope, ir: &Ir, board: &Ir, text: &Ir) -> Compiled<Truth> {
        let refused = || Unsupported::new(CONDITIONS, ir.span);
        let IrKind::Lit(Value::Str(text)) = &text.kind else {
            return Err(refused());
        };
        if !text.is_ascii() || text.is_empty() {
            return Err(refused());
        }
        let Some(Val::Str(f, alphabet)) = self.val(scope, board) else {
            if !self.is_text(scope, board) {
                return Err(refused());
            }
            let word = self.layout.word(text).map(|w| (w, text.len() as u32));
            return Ok(Truth::HasText(self.text(scope, board)?, word));
        };
        let codes = text
            .bytes()
            .map(|b| alphabet.binary_search(&b).ok().map(|c| c as i64))
            .collect();
        Ok(Truth::Has(f, codes))
    }

    /// `a == b` (or `!=`) between letters: cells of strings, literals and
    /// helpers' one-letter arguments. `None` for other strings, which are
    /// compared whole.
    fn same_char(&mut self, scope: &mut Scope, eq: bool, l: &Ir, r: &Ir) -> Option<Truth> {
        if !self.is_letter(scope, l) || !self.is_letter(scope, r) {
            return None;
        }
        if let (Some(a), Some(b)) = (letter(l), letter(r)) {
            return Some(Truth::Lit((a == b) == eq));
        }
        let a = self.char(scope, l).ok()?;
        let b = self.char(scope, r).ok()?;
        // A cell holds a letter of the alphabet: of two, not being one is
        // being the other (`board[i] != "X"` is `board[i] == "."`), which
        // is the test a placing loop runs on the key itself.
        if !eq && self.layout.alphabet.len() == 2 {
            let other = |c: &Char| match c {
                Char::Code(0) => Some(Char::Code(1)),
                Char::Code(1) => Some(Char::Code(0)),
                _ => None,
            };
            match (&a, &b) {
                (Char::Cell(..) | Char::GridCell(..), code) => {
                    if let Some(code) = other(code) {
                        return Some(Truth::SameChar(true, a, code));
                    }
                }
                (code, Char::Cell(..) | Char::GridCell(..)) => {
                    if let Some(code) = other(code) {
                        return Some(Truth::SameChar(true, code, b));
                    }
                }
                _ => {}
            }
        }
        Some(Truth::SameChar(eq, a, b))
    }

    /// Whether an expression is one letter read without working out a
    /// string: a literal, a string parameter's cell, a letter argument.
    fn is_letter(&self, scope: &Scope, ir: &Ir) -> bool {
        match &ir.kind {
            IrKind::Index(target, _) => match &target.kind {
                IrKind::Index(grid, _) => matches!(self.val(scope, grid), Some(Val::Grid(_))),
                _ => matches!(self.val(scope, target), Some(Val::Str(..))),
            },
            IrKind::Local(_) => matches!(self.val(scope, ir), Some(Val::Letter(_))),
            _ => letter(ir).is_some(),
        }
    }

    /// A letter, as its code in the game's alphabet (-1 for a literal
    /// outside it): read directly where it can be, `if` and helpers worked
    /// out on codes, anything else through its string.
    fn char(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Char> {
        if let Some(c) = letter(ir) {
            let code = self.layout.alphabet.binary_search(&c);
            return Ok(Char::Code(code.map_or(-1, |i| i as i64)));
        }
        match &ir.kind {
            IrKind::Index(target, index) => {
                if let Some(Val::Str(g, _)) = self.val(scope, target) {
                    return Ok(Char::Cell(g, Box::new(self.num(scope, index)?)));
                }
                if let IrKind::Index(grid, row) = &target.kind {
                    if let Some(Val::Grid(rows)) = self.val(scope, grid) {
                        let r = self.num(scope, row)?;
                        let c = self.num(scope, index)?;
                        return Ok(Char::GridCell(rows, Box::new(r), Box::new(c)));
                    }
                }
            }
            IrKind::Local(_) => {
                if let Some(Val::Letter(r)) = self.val(scope, ir) {
                    return Ok(Char::Reg(r));
                }
            }
            IrKind::If(cond, then, otherwise) => {
                return Ok(Char::If(
                    Box::new(self.truth(scope, cond)?),
                    Box::new(self.char(scope, then)?),
                    Box::new(self.char(scope, otherwise)?),
                ))
            }
            IrKind::CallFn(f, args) => {
                return self.inline(scope, ir, *f, args, Self::char, |b, c| {
                    Char::Let(b, Box::new(c))
                })
            }
            _ => {}
        }
        Ok(Char::Text(Box::new(self.text(scope, ir)?)))
    }

    /// Helper `f`'s body compiled in place by `body`, inside the bindings
    /// of its arguments (`wrap` puts one binding around the code).
    fn inline<T>(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
        body: impl FnOnce(&mut Self, &mut Scope, &Ir) -> Compiled<T>,
        wrap: impl Fn(Box<Bind>, T) -> T,
    ) -> Compiled<T> {
        let (binds, mut inner, ir) = self.enter(scope, call, f, args)?;
        let code = body(self, &mut inner, ir);
        self.depth -= 1;
        let mut code = code?;
        for b in binds.into_iter().rev() {
            code = wrap(Box::new(b), code);
        }
        Ok(code)
    }

    /// A helper's scope with its parameters bound to the arguments: lists,
    /// strings and tuples passed as they are, numbers put in registers.
    fn enter(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
    ) -> Compiled<(Vec<Bind>, Scope, &'a Ir)> {
        let program: &'a Program = self.program;
        let func = program
            .functions
            .get(f as usize)
            .or_unsupported("an unknown helper", call.span)?;
        if self.depth >= MAX_INLINE || func.params.len() != args.len() {
            return Err(Unsupported::new(
                "a helper called more than 8 deep (or calling itself): the compiled search \
                 inlines helpers",
                call.span,
            ));
        }
        let mut inner: Scope = vec![None; func.frame_size.max(args.len())];
        let mut binds = Vec::new();
        for (i, (param, arg)) in func.params.iter().zip(args).enumerate() {
            let refused = || {
                Unsupported::new(
                    format!(
                        "an argument the compiled search cannot pass to `{}: {}`",
                        param.name, param.ty
                    ),
                    arg.span,
                )
            };
            let string = matches!(param.ty, Type::Str | Type::Unknown);
            let passed = match self.val(scope, arg) {
                Some(v @ Val::List(_)) if list_of_numbers(&param.ty) => Some(v),
                Some(v @ Val::Tuple(_)) if list_of_ints(&param.ty) => Some(v),
                Some(v @ (Val::Str(..) | Val::Text(_) | Val::Letter(_))) if string => Some(v),
                Some(v @ Val::Grid(_)) if grid(&param.ty) => Some(v),
                Some(v @ Val::Items(_)) if set_of_numbers(&param.ty) => Some(v),
                Some(Val::List(_) | Val::Tuple(_) | Val::Str(..) | Val::Text(_) | Val::Grid(_)) => {
                    return Err(refused())
                }
                _ => None,
            };
            inner[i] = Some(match passed {
                Some(v) => v,
                None => self
                    .register(scope, arg, &param.ty, param.ty == Type::Bool, &mut binds)?
                    .ok_or_else(refused)?,
            });
        }
        self.depth += 1;
        Ok((binds, inner, &func.body))
    }

    /// `arg` worked out into a register for a value of type `ty`: a letter
    /// stays a code, a boolean (where `flag` allows one) is 1 or 0, a
    /// string goes in a string register, a number is checked to be
    /// natural for a `nat`. The binding is added to `binds`; `None` when
    /// `arg` is none of these.
    fn register(
        &mut self,
        scope: &mut Scope,
        arg: &Ir,
        ty: &Type,
        flag: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Option<Val>> {
        let string = matches!(ty, Type::Str | Type::Unknown);
        Ok(Some(if string && self.is_letter(scope, arg) {
            let value = self.char(scope, arg)?;
            let reg = self.reg();
            binds.push(Bind::Letter { reg, value });
            Val::Letter(reg)
        } else if flag && self.is_flag(scope, arg) {
            let value = self.flag(scope, arg)?;
            let reg = self.reg();
            binds.push(Bind::Num {
                reg,
                value,
                nat: false,
            });
            Val::Flag(reg)
        } else if string && self.is_text(scope, arg) {
            let value = self.text(scope, arg)?;
            let reg = self.text_reg();
            binds.push(Bind::Text { reg, value });
            Val::Text(reg)
        } else if matches!(ty, Type::Nat | Type::Int | Type::Unknown) {
            let value = self.num(scope, arg)?;
            let reg = self.reg();
            binds.push(Bind::Num {
                reg,
                value,
                nat: *ty == Type::Nat,
            });
            Val::Num(reg)
        } else {
            return Ok(None);
        }))
    }

    /// The elements of a tuple written out, each one that must be worked
    /// out put in a register first (in a slot added to `scope`), in
    /// order: the interpreter works out a whole tuple before it compares
    /// it, so an element's error comes even where an earlier element
    /// already decides the comparison.
    fn worked_out(
        &mut self,
        scope: &mut Scope,
        items: Vec<Ir>,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Vec<Ir>> {
        let mut out = Vec::with_capacity(items.len());
        for item in items {
            if matches!(item.kind, IrKind::Local(_) | IrKind::Lit(_)) {
                out.push(item);
                continue;
            }
            if let Some(inner) = tuple_items(&item) {
                let inner = self.worked_out(scope, inner, binds)?;
                out.push(Ir {
                    kind: IrKind::Tuple(inner),
                    span: item.span,
                });
                continue;
            }
            let val = self
                .register(scope, &item, &Type::Unknown, true, binds)?
                .or_unsupported(CONDITIONS, item.span)?;
            out.push(Ir {
                kind: IrKind::Local(scope.len() as u32),
                span: item.span,
            });
            scope.push(Some(val));
        }
        Ok(out)
    }

    /// The writes of a list or string parameter's new value: a `set_at`
    /// chain on the parameter itself, or for a list, a list literal or a
    /// comprehension.
    fn writes(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        param: usize,
        group: &Group,
        out: &mut Vec<Write>,
    ) -> Compiled<()> {
        let write = match (&ir.kind, group) {
            (IrKind::Local(s), _) if *s as usize == param => return Ok(()),
            // The whole parameter backwards: every element is written.
            (
                IrKind::Builtin(Builtin::Reverse, a),
                Group::List(f) | Group::Str(f, _) | Group::Grid(Rows { fields: f, .. }),
            ) if out.is_empty()
                && matches!(&a[..], [x] if matches!(x.kind, IrKind::Local(s) if s as usize == param)) =>
            {
                Write::Reversed(*f)
            }
            (IrKind::Builtin(b, _), Group::Grid(rows)) if turn::TURNS.contains(b) => {
                self.turned(ir, param, rows, false)?
            }
            (IrKind::If(test, then, otherwise), Group::List(_) | Group::Grid(_)) => Write::Choose {
                test: self.truth(scope, test)?,
                then: self.branch(scope, then, param, group)?,
                otherwise: self.branch(scope, otherwise, param, group)?,
            },
            (IrKind::Builtin(Builtin::SetAt, a), _) => {
                let [target, index, value] = &a[..] else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                self.writes(scope, target, param, group, out)?;
                self.set_at(scope, ir, group, index, value)?
            }
            // Every element is written, so earlier writes would be lost.
            (IrKind::List(items) | IrKind::Tuple(items), Group::List(f))
                if out.is_empty() && items.len() == f.len as usize =>
            {
                Write::Whole(*f, self.nums(scope, items)?)
            }
            (IrKind::List(items), Group::Grid(rows))
                if out.is_empty() && items.len() == rows.fields.len as usize =>
            {
                let rows_text = items
                    .iter()
                    .map(|x| self.text(scope, x))
                    .collect::<Compiled<_>>()?;
                Write::Rows(*rows, rows_text)
            }
            (
                IrKind::Comprehension { element, clauses },
                Group::List(f) | Group::Grid(Rows { fields: f, .. }),
            ) if out.is_empty() => {
                let [clause] = &clauses[..] else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                let over = self.seq(scope, &clause.generator.source)?;
                let var = self.reg();
                let mut inner = scope.clone();
                *inner
                    .get_mut(clause.generator.slot as usize)
                    .or_unsupported(WRITES, ir.span)? = Some(Val::Num(var));
                let guard = match &clause.guard {
                    Some(g) => Some(self.truth(&mut inner, g)?),
                    None => None,
                };
                let element = match group {
                    Group::Grid(rows) => Element::Row(*rows, self.text(&mut inner, element)?),
                    _ => Element::Num(self.num(&mut inner, element)?),
                };
                Write::Comprehension {
                    fields: *f,
                    var,
                    over,
                    guard,
                    element,
                }
            }
            // A string worked out whole, which later `set_at`s may change.
            (_, Group::Str(f, _)) if out.is_empty() => Write::Text(*f, self.text(scope, ir)?),
            _ => return Err(Unsupported::new(WRITES, ir.span)),
        };
        out.push(write);
        Ok(())
    }

    /// A grid parameter turned or reflected (see `turn`). In a branch of
    /// an `if`, a turn into another shape is kept as one that no key holds:
    /// the condition may rule it out, as `if len(g) == width(g) then
    /// rotate(g) else g` does on a board that is not square.
    fn turned(&self, ir: &Ir, param: usize, rows: &Rows, in_branch: bool) -> Compiled<Write> {
        if rows.numbered {
            return Err(Unsupported::new(NUMBERED_TURN, ir.span));
        }
        let turned = turn::of(ir, param, rows).or_unsupported(WRITES, ir.span)?;
        if turned.keeps_shape(rows) {
            Ok(Write::Turned(*rows, Some(turned.into_cells())))
        } else if in_branch {
            Ok(Write::Turned(*rows, None))
        } else {
            Err(Unsupported::new(RESHAPED, ir.span))
        }
    }

    /// The writes of one branch of an `if` that makes a parameter's new
    /// value.
    fn branch(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        param: usize,
        group: &Group,
    ) -> Compiled<Vec<Write>> {
        if let Group::Grid(rows) = group {
            if !rows.numbered && turn::of(ir, param, rows).is_some() {
                return Ok(vec![self.turned(ir, param, rows, true)?]);
            }
        }
        let mut out = Vec::new();
        self.writes(scope, ir, param, group, &mut out)?;
        Ok(out)
    }

    /// One `set_at(x, index, value)` on a list or string parameter.
    fn set_at(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        group: &Group,
        index: &Ir,
        value: &Ir,
    ) -> Compiled<Write> {
        Ok(match group {
            Group::Str(f, _) => {
                let i = self.num(scope, index)?;
                Write::Cell(*f, i, self.char(scope, value)?)
            }
            Group::Grid(rows) => {
                let i = self.num(scope, index)?;
                Write::Row(*rows, i, self.text(scope, value)?)
            }
            Group::List(f) => match (self.val(scope, index), self.val(scope, value)) {
                (Some(Val::Tuple(at)), Some(Val::Tuple(vs))) => {
                    Write::Several(*f, Indices::Tuple(at), vs)
                }
                (Some(Val::List(at)), Some(Val::Tuple(vs))) => {
                    Write::Several(*f, Indices::Fields(at), vs)
                }
                _ => Write::Element(*f, self.num(scope, index)?, self.num(scope, value)?),
            },
            Group::Fixed(_) | Group::Scalar(_) | Group::Flag(_) => {
                return Err(Unsupported::new(WRITES, call.span))
            }
        })
    }
}

fn set_of_numbers(ty: &Type) -> bool {
    match ty {
        Type::Set(t) => matches!(**t, Type::Nat | Type::Int | Type::Unknown),
        Type::Unknown => true,
        _ => false,
    }
}

fn grid(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Str | Type::Unknown),
        Type::Grid | Type::Unknown => true,
        _ => false,
    }
}

fn list_of_numbers(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Nat | Type::Int | Type::Unknown),
        Type::Tuple(ts) => ts
            .iter()
            .all(|t| matches!(t, Type::Nat | Type::Int | Type::Unknown)),
        Type::Unknown => true,
        _ => false,
    }
}

/// Tuple registers may hold negative numbers: only parameters that take
/// any integers receive them.
fn list_of_ints(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Int | Type::Unknown),
        Type::Unknown => true,
        _ => false,
    }
}

/// The elements of a tuple written out, `(r, c)` or a literal `(0, 0)`.
fn tuple_items(ir: &Ir) -> Option<Vec<Ir>> {
    match &ir.kind {
        IrKind::Tuple(items) => Some(items.clone()),
        IrKind::Lit(Value::Tuple(values)) => Some(
            values
                .iter()
                .map(|v| Ir {
                    kind: IrKind::Lit(v.clone()),
                    span: ir.span,
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The rows of a list of tuples of numbers written out, each as long as
/// the first: `[(0, 1), (1, 0)]`.
fn tuples_written_out(ir: &Ir) -> Option<Rc<[Vec<i64>]>> {
    let number = |v: &Value| match v {
        Value::Int(n) => Some(*n),
        _ => None,
    };
    let rows: Vec<Vec<i64>> = match &ir.kind {
        IrKind::Lit(Value::List(items)) => items
            .iter()
            .map(|item| match item {
                Value::Tuple(xs) => xs.iter().map(number).collect(),
                _ => None,
            })
            .collect::<Option<_>>()?,
        IrKind::List(items) => items
            .iter()
            .map(|item| {
                tuple_items(item)?
                    .iter()
                    .map(|x| match &x.kind {
                        IrKind::Lit(v) => number(v),
                        _ => None,
                    })
                    .collect()
            })
            .collect::<Option<_>>()?,
        _ => return None,
    };
    let width = rows.first()?.len();
    rows.iter().all(|r| r.len() == width).then(|| rows.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::compact::code::Fused;
    use crate::session::Session;

    /// The rules of `text`'s first game compiled, fused, for the position
    /// whose arguments are `args`.
    fn compiled(text: &str, args: &[Value]) -> GameCode {
        let mut session = Session::new();
        session
            .load_text("test.game", text)
            .expect("the game loads");
        let program = &*session.interp.program;
        let (fixed, letters) = fixed_and_letters(program, 0).expect("its letters");
        let types: Vec<Type> = program.games[0]
            .params
            .iter()
            .map(|p| p.ty.clone())
            .collect();
        let layout = Layout::new(0, &types, args, &fixed, &letters).expect("a layout");
        game(program, &layout, true).expect("the rules compile")
    }

    fn placing(guard: &str) -> String {
        format!(
            "game T(board: str) {{\n  move place(i in indices(board)) if {guard} => \
             T(set_at(board, i, \"X\"));\n}}\n"
        )
    }

    /// Of two letters, not being one is being the other: however the test
    /// is written, the placing loop runs on the key.
    #[test]
    fn not_one_of_two_letters_is_the_other_and_places_on_the_key() {
        for guard in [
            r#"board[i] == ".""#,
            r#"board[i] != "X""#,
            r#""X" != board[i]"#,
        ] {
            let code = compiled(&placing(guard), &[Value::str("....")]);
            assert!(
                matches!(code.rules[0].fused, Some(Fused::Place { .. })),
                "{guard}"
            );
        }
        // With a third letter, a cell that is not "X" may be "." or "O".
        let code = compiled(&placing(r#"board[i] != "X""#), &[Value::str("..O.")]);
        assert!(code.rules[0].fused.is_none());
    }
}
