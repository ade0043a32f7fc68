//! From a game's compiled program (`Ir`) to code over a packed key, for
//! one layout. Compiling is all or nothing: a rule, guard or expression
//! outside what `code` can say leaves the game to the general search.
//! Helpers are inlined, their arguments bound to registers.

mod bools;
mod each;
mod made;
mod naturals;
mod several;
use several::Given;
mod unfold;

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
use super::sums::{self, Part};
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
pub(super) const MAX_INLINE: u32 = 8;

/// What a variable of the program is, to the compiled code.
#[derive(Clone, Debug)]
pub(super) enum Val {
    Num(u32),
    Const(i64),
    List(Fields),
    /// A list of booleans: a string of two letters, false (0) and true (1).
    Bools(Fields),
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
    /// A new grid a helper is given, made where it is used (see `made`).
    Made(Rc<made::Made>),
}

pub(super) type Scope = Vec<Option<Val>>;

pub(super) struct Compiler<'a> {
    program: &'a Program,
    /// The values of the program's constants, known before any rule runs.
    consts: &'a [Value],
    layout: &'a Layout,
    regs: u32,
    tuples: u32,
    texts: u32,
    depth: u32,
    /// Registers that hold natural numbers only: the key's fields' and
    /// those of generators that walk them (see `naturals`).
    naturals: Vec<u32>,
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
    let mut results = Vec::new();
    for m in moves {
        let (made, by_helper) = sums::positions(program, g, &m.result)?;
        if by_helper {
            // A helper's variables are not the game's parameters.
            fixed.fill(false);
        }
        results.extend(made);
    }
    for result in results.into_iter().chain(images) {
        let IrKind::MakePos(target, args) = &result.kind else {
            return Err(Unsupported::new(
                "a result that is not a position of the same game (an alias)",
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

/// `children` and `children_mut`: one walk, over shared or mutable
/// references.
macro_rules! children_of {
    ($(#[$doc:meta])* $name:ident $(, $mutable:tt)?) => {
        $(#[$doc])*
        pub(super) fn $name<'i>(ir: &'i $($mutable)? Ir, mut f: impl FnMut(&'i $($mutable)? Ir)) {
            match & $($mutable)? ir.kind {
                IrKind::Lit(_) | IrKind::Local(_) | IrKind::Const(_) => {}
                IrKind::CallFn(_, xs)
                | IrKind::MakePos(_, xs)
                | IrKind::Builtin(_, xs)
                | IrKind::List(xs)
                | IrKind::Set(xs)
                | IrKind::Tuple(xs) => xs.into_iter().for_each(f),
                IrKind::Comprehension { element, clauses } => {
                    f(element);
                    for c in clauses {
                        f(& $($mutable)? c.generator.source);
                        if let Some(g) = & $($mutable)? c.guard {
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
    };
}

children_of!(
    /// Calls `f` on each expression directly inside `ir`.
    children
);
children_of!(
    /// Calls `f` on each expression directly inside `ir`, to change it.
    children_mut,
    mut
);

fn letter(ir: &Ir) -> Option<u8> {
    match &ir.kind {
        IrKind::Lit(Value::Str(s)) if s.len() == 1 && s.is_ascii() => Some(s.as_bytes()[0]),
        _ => None,
    }
}

/// Game `layout.game`'s rules compiled for `layout`, with the innermost
/// loops of the shapes `fused` knows run on the key when `fuse` is set.
pub fn game(
    program: &Program,
    consts: &[Value],
    layout: &Layout,
    fuse: bool,
) -> Compiled<GameCode> {
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
                numbers(xs).or_unsupported("a set held aside of other than numbers", game.span)?,
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
            Group::Bools(f) => Val::Bools(*f),
            Group::Str(f, alphabet) => Val::Str(*f, alphabet.clone()),
            Group::Grid(rows) => Val::Grid(*rows),
        });
    }
    let mut c = Compiler {
        program,
        consts,
        layout,
        regs: layout.fields,
        tuples: 0,
        texts: 0,
        depth: 0,
        naturals: Vec::new(),
    };
    let lose = match lose {
        Some(l) => Some(c.truth(&mut scope, l)?),
        None => None,
    };
    let mut rules = Vec::new();
    for m in moves {
        let m = &*unfold::unfolded(m);
        let mut scope = scope.clone();
        let mut gens = Vec::new();
        for g in &m.generators {
            let (target, source, val) = c.generator(&mut scope, &g.source)?;
            c.note_natural(target, &source);
            *scope
                .get_mut(g.slot as usize)
                .or_unsupported("a variable outside the rule's frame", g.source.span)? = Some(val);
            gens.push(Gen { target, source });
        }
        // `cells(g, letter)` keeps the cells holding the letter: each is
        // tested as soon as its generator sets it, before anything else,
        // so later generators and the guard never see the others.
        let one_row = |grid: &Ir| matches!(c.val(&scope, grid), Some(Val::Str(..)));
        let filters: Vec<Option<Ir>> = m
            .generators
            .iter()
            .map(|g| cells_filter(g, one_row))
            .collect();
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
        let (writes, sum) = c.move_result(&mut scope, &m.result, layout)?;
        let mut rule = Rule {
            gens,
            early,
            guard,
            writes,
            sum,
            fused: None,
            bounds: Vec::new(),
            progression: false,
            hoist: None,
        };
        // The registers that hold natural numbers: the key's fields,
        // unless some hold integers below 0.
        let naturals = if layout.signed() { 0 } else { layout.fields };
        if fuse {
            monotone::bounds(&mut rule, naturals);
        }
        // The shapes below read the writes of a move that leaves one
        // position.
        if fuse && rule.sum.is_none() {
            if rule.bounds.last().is_none_or(Option::is_none) {
                rule.fused = fused::recognise(&rule);
            }
            rule.progression = progression::affine(&rule, naturals);
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
    closure::lower(&mut code, fuse, layout.fields);
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
/// `g[t[0]][t[1]] == letter` on the generator's slot `t` (`g[t[1]]` for a
/// string, whose cells are those of one row): the compiled search walks
/// every cell and tests it.
fn cells_filter(g: &GenIr, one_row: impl Fn(&Ir) -> bool) -> Option<Ir> {
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
    let row = match one_row(grid) {
        true => grid.clone(),
        false => ir(IrKind::Index(Box::new(grid.clone()), Box::new(element(0)))),
    };
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
     list parameter), `count` (of a number in a list, or of a text in a string parameter) \
     and helpers";
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
    pub(super) fn reg(&mut self) -> u32 {
        self.regs += 1;
        self.regs - 1
    }

    /// The writes that make a result `G(args)` of the layout's game from
    /// the key: a move's result, or an image a `symmetry =` declares.
    pub(super) fn result(
        &mut self,
        scope: &mut Scope,
        result: &Ir,
        layout: &Layout,
    ) -> Compiled<Vec<Write>> {
        let IrKind::MakePos(_, args) = &result.kind else {
            return Err(Unsupported::new(
                "a result that is not one position of the same game",
                result.span,
            ));
        };
        // In a helper's body a variable is the helper's, not the game's
        // parameter of the same slot: every field is written, and only
        // numbers and booleans are (lists, strings and grids are written
        // by reading which parameter is changed).
        let in_helper = self.depth > 0;
        if in_helper
            && (args.len() != layout.groups.len()
                || layout
                    .groups
                    .iter()
                    .any(|g| !matches!(g, Group::Scalar(_) | Group::Flag(_))))
        {
            return Err(Unsupported::new(
                "a position made by a helper, of a game with other parameters than numbers and \
                 booleans",
                result.span,
            ));
        }
        let mut writes = Vec::new();
        for (i, (a, group)) in args.iter().zip(&layout.groups).enumerate() {
            if !in_helper && matches!(a.kind, IrKind::Local(s) if s as usize == i) {
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
                // Each parameter's writes are its own: a write of every
                // element may follow another parameter's writes.
                Group::List(_) | Group::Bools(_) | Group::Str(..) | Group::Grid(_) => {
                    let mut own = Vec::new();
                    self.writes(scope, a, i, group, &mut own)?;
                    writes.append(&mut own);
                }
            }
        }
        Ok(writes)
    }

    /// A move's result: the writes that make its one position, or what
    /// makes the parts of the sum it leaves.
    fn move_result(
        &mut self,
        scope: &mut Scope,
        result: &Ir,
        layout: &Layout,
    ) -> Compiled<(Vec<Write>, Option<Vec<Part>>)> {
        let mut parts = Vec::new();
        self.parts(scope, result, layout, &mut parts)?;
        Ok(match parts.pop() {
            Some(Part::Key(writes)) if parts.is_empty() => (writes, None),
            Some(last) => {
                parts.push(last);
                (Vec::new(), Some(parts))
            }
            None => (Vec::new(), Some(parts)),
        })
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
            IrKind::Local(_) => {
                matches!(
                    self.val(scope, ir),
                    Some(Val::Str(..) | Val::Text(_) | Val::Letter(_))
                ) || self.is_made_str(scope, ir)
            }
            IrKind::Index(target, _) => {
                matches!(self.val(scope, target), Some(Val::Grid(_) | Val::Made(_)))
                    || self.is_text(scope, target)
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
                // A new string read whole: worked out whole.
                Some(Val::Made(_)) if self.is_made_str(scope, ir) => self.made_text(scope, ir)?,
                _ => return Err(refused()),
            },
            IrKind::Index(target, index) => match self.val(scope, target) {
                Some(Val::Grid(rows)) => {
                    Text::Row(rows.fields, rows.cols, Box::new(self.num(scope, index)?))
                }
                Some(Val::Made(_)) if !self.is_made_str(scope, target) => {
                    self.made_row(scope, target, index)?
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
            _ => match self.known(ir)? {
                Value::Int(n) => Some(Val::Const(n)),
                Value::Set(xs) | Value::List(xs) => Some(Val::Items(numbers(&xs)?)),
                _ => None,
            },
        }
    }

    /// The value of an expression known before any rule runs: a literal,
    /// a constant, or a set or list of them written out (`{2, 3, 5}`).
    fn known(&self, ir: &Ir) -> Option<Value> {
        match &ir.kind {
            IrKind::Lit(v) => Some(v.clone()),
            IrKind::Const(c) => self.consts.get(*c as usize).cloned(),
            IrKind::Set(items) => Some(Value::set(
                items.iter().map(|x| self.known(x)).collect::<Option<_>>()?,
            )),
            IrKind::List(items) => Some(Value::list(
                items.iter().map(|x| self.known(x)).collect::<Option<_>>()?,
            )),
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
            // A string's are those of one row.
            let shape = match a.first().and_then(|grid| self.val(scope, grid)) {
                Some(Val::Grid(rows)) => Some((rows.fields.len, rows.cols)),
                Some(Val::Str(f, _)) => Some((1, f.len)),
                _ => None,
            };
            if let Some((height, width)) = shape {
                let t = self.tuple();
                let upto = |n: u32| (Num::Lit(0), Num::Lit(i64::from(n)), false);
                let source = Source::ProductList(vec![upto(height), upto(width)]);
                return Ok((Target::Tuple(t), source, Val::Tuple(t)));
            }
        }
        // A constant naming tuples is read as if written out.
        let named = self.known(ir).map(|v| Ir {
            kind: IrKind::Lit(v),
            span: ir.span,
        });
        if let Some(rows) = tuples_written_out(named.as_ref().unwrap_or(ir)) {
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

    pub(super) fn seq(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Seq> {
        match &ir.kind {
            IrKind::Binary(BinaryOp::RangeExclusive | BinaryOp::RangeInclusive, ..) => {
                let (lo, hi, inclusive) = self.range(scope, ir)?;
                Ok(Seq::Range(lo, hi, inclusive))
            }
            IrKind::Builtin(Builtin::Indices, a) if a.len() == 1 => {
                Ok(Seq::Range(Num::Lit(0), self.len(scope, &a[0])?, false))
            }
            _ => match self.val(scope, ir) {
                Some(Val::List(f)) => Ok(Seq::Fields(f)),
                Some(Val::Items(xs)) => Ok(Seq::Items(xs)),
                Some(Val::Tuple(t)) => Ok(Seq::Tuple(t)),
                _ => Err(Unsupported::new(SOURCES, ir.span)),
            },
        }
    }

    pub(super) fn nums(&mut self, scope: &mut Scope, irs: &[Ir]) -> Compiled<Vec<Num>> {
        irs.iter().map(|x| self.num(scope, x)).collect()
    }

    fn num(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        use BinaryOp::*;
        let refused = || Unsupported::new(NUMBERS, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Int(n)) => Num::Lit(*n),
            IrKind::Local(_) | IrKind::Const(_) => match self.val(scope, ir) {
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
                    Some(Val::Items(xs)) => Num::Lit(
                        xs.iter()
                            .try_fold(0i64, |total, &x| total.checked_add(x))
                            .ok_or_else(refused)?,
                    ),
                    _ => return Err(refused()),
                },
                (Builtin::Count, [x, item]) => self.count(scope, ir, x, item)?,
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

    /// `count(x, item)` of a list or string whose length the position
    /// fixes: each element compared with the item in turn. The item is
    /// worked out once, first, as the interpreter does even when `x` is
    /// empty.
    fn count(&mut self, scope: &mut Scope, call: &Ir, x: &Ir, item: &Ir) -> Compiled<Num> {
        let refused = || Unsupported::new(NUMBERS, call.span);
        let reg = self.reg();
        let (bind, tests): (Bind, Vec<Truth>) = match self.val(scope, x) {
            Some(Val::List(f)) => {
                let value = self.num(scope, item)?;
                let each = (0..f.len).map(|i| Num::Field(f, Box::new(Num::Lit(i64::from(i)))));
                let tests = each
                    .map(|n| Truth::Compare(BinaryOp::Eq, n, Num::Reg(reg)))
                    .collect();
                let nat = false;
                (Bind::Num { reg, value, nat }, tests)
            }
            Some(Val::Items(xs)) => {
                let value = self.num(scope, item)?;
                let tests = xs
                    .iter()
                    .map(|&n| Truth::Compare(BinaryOp::Eq, Num::Lit(n), Num::Reg(reg)))
                    .collect();
                let nat = false;
                (Bind::Num { reg, value, nat }, tests)
            }
            // A text written out, counted in a string parameter on the
            // key; a letter worked out by the rules, each cell compared
            // with it.
            Some(Val::Str(f, alphabet)) => {
                if let IrKind::Lit(Value::Str(text)) = &item.kind {
                    let codes: Option<Rc<[i64]>> = text
                        .bytes()
                        .map(|b| alphabet.binary_search(&b).ok().map(|c| c as i64))
                        .collect();
                    // A letter outside the alphabet is in no cell; nor is
                    // the empty text counted.
                    return Ok(match codes {
                        Some(codes) if !codes.is_empty() => Num::Matches(f, codes),
                        _ => Num::Lit(0),
                    });
                }
                if !self.is_letter(scope, item) {
                    return Err(refused());
                }
                let value = self.char(scope, item)?;
                let cell = |i: u32| Char::Cell(f, Box::new(Num::Lit(i64::from(i))));
                let tests = (0..f.len)
                    .map(|i| Truth::SameChar(true, cell(i), Char::Reg(reg)))
                    .collect();
                (Bind::Letter { reg, value }, tests)
            }
            _ => return Err(refused()),
        };
        Ok(Num::Let(Box::new(bind), Box::new(sum_of_ones(tests))))
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
            Some(Val::List(f) | Val::Bools(f) | Val::Str(f, _)) => Num::Lit(i64::from(f.len)),
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
            IrKind::Const(_) => matches!(self.known(ir), Some(Value::Bool(_))),
            IrKind::Local(_) => matches!(self.val(scope, ir), Some(Val::Flag(_))),
            IrKind::Unary(UnaryOp::Not, _) => true,
            IrKind::Binary(op, ..) => {
                matches!(op, And | Or | Eq | Ne | Lt | Le | Gt | Ge | In | NotIn)
            }
            IrKind::Builtin(Builtin::Has | Builtin::Any | Builtin::All, _) => true,
            IrKind::Index(target, _) => matches!(self.val(scope, target), Some(Val::Bools(_))),
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
        if let Some(Char::Cell(f, i)) = self.truth_cell(scope, ir)? {
            return Ok(Num::Field(f, i));
        }
        let t = self.truth(scope, ir)?;
        Ok(Num::If(
            Box::new(t),
            Box::new(Num::Lit(1)),
            Box::new(Num::Lit(0)),
        ))
    }

    pub(super) fn truth(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Truth> {
        use BinaryOp::*;
        let refused = || Unsupported::new(CONDITIONS, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Bool(b)) => Truth::Lit(*b),
            IrKind::Const(_) if matches!(self.known(ir), Some(Value::Bool(_))) => {
                Truth::Lit(matches!(self.known(ir), Some(Value::Bool(true))))
            }
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
                match self.same_truth(scope, *op == Eq, l, r)? {
                    Some(t) => t,
                    None => Truth::Compare(*op, self.flag(scope, l)?, self.flag(scope, r)?),
                }
            }
            // A cell of a list of booleans holds one of two letters.
            IrKind::Index(..) if self.is_flag(scope, ir) => {
                let cell = self.truth_cell(scope, ir)?.ok_or_else(refused)?;
                Truth::SameChar(true, cell, Char::Code(1))
            }
            IrKind::Unary(UnaryOp::Not, x)
                if self.is_flag(scope, x) && matches!(x.kind, IrKind::Index(..)) =>
            {
                let cell = self.truth_cell(scope, x)?.ok_or_else(refused)?;
                Truth::SameChar(true, cell, Char::Code(0))
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
            IrKind::Builtin(b @ (Builtin::Any | Builtin::All), a) => match &a[..] {
                [list] => self.each(scope, *b == Builtin::Any, list)?,
                _ => return Err(refused()),
            },
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
                _ => {
                    matches!(self.val(scope, target), Some(Val::Str(..)))
                        || self.is_made_str(scope, target)
                }
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
                if self.is_made_str(scope, target) {
                    return self.made_char(scope, target, index);
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
    pub(super) fn inline<T>(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
        body: impl FnOnce(&mut Self, &mut Scope, &Ir) -> Compiled<T>,
        wrap: impl Fn(Box<Bind>, T) -> T,
    ) -> Compiled<T> {
        let (binds, mut inner, ir) = self.enter(scope, call, f, args, false)?;
        let code = body(self, &mut inner, ir);
        self.depth -= 1;
        let mut code = code?;
        for b in binds.into_iter().rev() {
            code = wrap(Box::new(b), code);
        }
        Ok(code)
    }

    /// A helper's scope with its parameters bound to the arguments: lists,
    /// strings and tuples passed as they are, numbers put in registers, and
    /// where `made` is set, new grids made where the body uses them (see
    /// `made`).
    fn enter(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        f: u32,
        args: &[Ir],
        made: bool,
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
                Some(v @ Val::Bools(_)) if list_of_bools(&param.ty) => Some(v),
                Some(v @ Val::Tuple(_)) if list_of_ints(&param.ty) => Some(v),
                Some(v @ (Val::Str(..) | Val::Text(_) | Val::Letter(_))) if string => Some(v),
                Some(v @ Val::Grid(_)) if grid(&param.ty) => Some(v),
                Some(v @ Val::Items(_)) if set_of_numbers(&param.ty) => Some(v),
                Some(v @ Val::Made(_)) if grid(&param.ty) => Some(v),
                None if made => self.made_argument(scope, &param.ty, arg),
                Some(
                    Val::List(_)
                    | Val::Bools(_)
                    | Val::Tuple(_)
                    | Val::Str(..)
                    | Val::Text(_)
                    | Val::Grid(_),
                ) => return Err(refused()),
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
            let nat = *ty == Type::Nat;
            match self.passed_as_is(&value, nat) {
                Some(val) => val,
                None => {
                    let reg = self.reg();
                    binds.push(Bind::Num { reg, value, nat });
                    Val::Num(reg)
                }
            }
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
            // A tuple inside is worked out element by element in its place,
            // as the interpreter works out the whole.
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
        if self.is_param(scope, ir, group) {
            return Ok(());
        }
        if let Some(made) = self.made_writes(scope, ir, param, group, out) {
            return made;
        }
        let write = match (&ir.kind, group) {
            // A helper writes what its body writes, its arguments first.
            (IrKind::CallFn(f, args), _) => {
                let (binds, mut inner, body) = self.enter(scope, ir, *f, args, true)?;
                out.extend(binds.into_iter().map(Write::Bind));
                let written = self.writes(&mut inner, body, param, group, out);
                self.depth -= 1;
                written?;
                return self.check_written(&inner, ir);
            }
            // The whole parameter backwards: every element is written.
            (
                IrKind::Builtin(Builtin::Reverse, a),
                Group::List(f)
                | Group::Bools(f)
                | Group::Str(f, _)
                | Group::Grid(Rows { fields: f, .. }),
            ) if unwritten(out) && matches!(&a[..], [x] if self.is_param(scope, x, group)) => {
                Write::Reversed(*f)
            }
            // A turn names the parameter by its slot in the game's frame.
            (IrKind::Builtin(b, _), Group::Grid(rows))
                if turn::TURNS.contains(b) && self.depth == 0 =>
            {
                self.turned(ir, param, rows, false)?
            }
            (
                IrKind::If(test, then, otherwise),
                Group::List(_) | Group::Bools(_) | Group::Grid(_),
            ) => Write::Choose {
                test: self.truth(scope, test)?,
                then: self.branch(scope, then, param, group)?,
                otherwise: self.branch(scope, otherwise, param, group)?,
            },
            (IrKind::Builtin(Builtin::SetAt, a), _) => {
                let [target, index, value] = &a[..] else {
                    return Err(Unsupported::new(WRITES, ir.span));
                };
                self.writes(scope, target, param, group, out)?;
                return self.set_at(scope, ir, group, index, value, out);
            }
            (IrKind::Binary(BinaryOp::Add, ..), Group::List(f)) if unwritten(out) => {
                Write::Appended(*f, self.appended(scope, ir)?)
            }
            // Every element is written, so earlier writes would be lost.
            (IrKind::List(items) | IrKind::Tuple(items), Group::List(f))
                if unwritten(out) && items.len() == f.len as usize =>
            {
                Write::Whole(*f, self.nums(scope, items)?)
            }
            (IrKind::List(items), Group::Bools(f))
                if unwritten(out) && items.len() == f.len as usize =>
            {
                let flags = items.iter().map(|x| self.flag(scope, x));
                Write::Whole(*f, flags.collect::<Compiled<_>>()?)
            }
            (IrKind::List(items), Group::Grid(rows))
                if unwritten(out) && items.len() == rows.fields.len as usize =>
            {
                let rows_text = items
                    .iter()
                    .map(|x| self.text(scope, x))
                    .collect::<Compiled<_>>()?;
                Write::Rows(*rows, rows_text)
            }
            (
                IrKind::Comprehension { element, clauses },
                Group::List(f) | Group::Bools(f) | Group::Grid(Rows { fields: f, .. }),
            ) if unwritten(out) => {
                let (walk, mut inner) = self.walk(scope, clauses, ir, WRITES)?;
                let element = match group {
                    Group::Grid(rows) => Element::Row(*rows, self.text(&mut inner, element)?),
                    Group::Bools(_) => Element::Num(self.flag(&mut inner, element)?),
                    _ => Element::Num(self.num(&mut inner, element)?),
                };
                Write::Comprehension {
                    fields: *f,
                    walk,
                    element,
                }
            }
            // A string worked out whole, which later `set_at`s may change.
            (_, Group::Str(f, _)) if unwritten(out) => Write::Text(*f, self.text(scope, ir)?),
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
            if !rows.numbered && self.depth == 0 && turn::of(ir, param, rows).is_some() {
                return Ok(vec![self.turned(ir, param, rows, true)?]);
            }
        }
        let mut out = Vec::new();
        self.writes(scope, ir, param, group, &mut out)?;
        Ok(out)
    }

    /// `set_at(x, index, value)` on a list or string parameter: one
    /// element, or several (see `several`).
    fn set_at(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        group: &Group,
        index: &Ir,
        value: &Ir,
        out: &mut Vec<Write>,
    ) -> Compiled<()> {
        if let Group::List(f) = group {
            let at = match (self.val(scope, index), self.val(scope, value)) {
                (Some(Val::Tuple(at)), Some(Val::Tuple(vs))) => Some((Indices::Tuple(at), vs)),
                (Some(Val::List(at)), Some(Val::Tuple(vs))) => Some((Indices::Fields(at), vs)),
                _ => None,
            };
            if let Some((at, vs)) = at {
                out.push(Write::Several(*f, at, vs));
                return Ok(());
            }
        }
        if self.set_several(scope, call, group, index, value, out)? {
            return Ok(());
        }
        let i = self.num(scope, index)?;
        let write = self.set_one(scope, call, group, i, Given::Expr(value))?;
        out.push(write);
        Ok(())
    }

    /// One element of a list or string parameter set to `value`.
    fn set_one(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        group: &Group,
        i: Num,
        value: Given,
    ) -> Compiled<Write> {
        let value = match value {
            Given::Expr(ir) => ir,
            // An element read off a list of numbers.
            Given::Item(n) => match group {
                Group::List(f) => return Ok(Write::Element(*f, i, n)),
                _ => return Err(Unsupported::new(WRITES, call.span)),
            },
        };
        Ok(match group {
            Group::Str(f, _) => Write::Cell(*f, i, self.char(scope, value)?),
            Group::Grid(rows) => Write::Row(*rows, i, self.text(scope, value)?),
            Group::Bools(f) => Write::Cell(*f, i, self.truth_letter(scope, value)?),
            Group::List(f) => Write::Element(*f, i, self.num(scope, value)?),
            Group::Fixed(_) | Group::Scalar(_) | Group::Flag(_) => {
                return Err(Unsupported::new(WRITES, call.span))
            }
        })
    }
}

/// How many of `tests` hold.
fn sum_of_ones(tests: Vec<Truth>) -> Num {
    let one = |t: Truth| Num::If(Box::new(t), Box::new(Num::Lit(1)), Box::new(Num::Lit(0)));
    tests
        .into_iter()
        .map(one)
        .reduce(|a, b| Num::Binary(BinaryOp::Add, Box::new(a), Box::new(b)))
        .unwrap_or(Num::Lit(0))
}

/// The numbers of a collection known before any rule runs, in its order;
/// `None` if any element is not a number.
fn numbers(items: &[Value]) -> Option<Rc<[i64]>> {
    items
        .iter()
        .map(|x| match x {
            Value::Int(n) => Some(*n),
            _ => None,
        })
        .collect()
}

/// Whether `out` holds no write to the key yet, only helpers' arguments:
/// a write of every element would lose earlier ones, and a write read off
/// the key needs the key's fields as they are.
fn unwritten(out: &[Write]) -> bool {
    out.iter().all(|w| matches!(w, Write::Bind(_)))
}

fn list_of_bools(ty: &Type) -> bool {
    match ty {
        Type::List(t) => matches!(**t, Type::Bool | Type::Unknown),
        Type::Unknown => true,
        _ => false,
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
    /// whose arguments are `args`, or why they are not.
    fn compile_for(text: &str, args: &[Value]) -> Compiled<GameCode> {
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
        game(program, &session.interp.consts, &layout, true)
    }

    fn compiled(text: &str, args: &[Value]) -> GameCode {
        compile_for(text, args).expect("the rules compile")
    }

    /// Whether `text`'s rules compile for a grid of two rows of three.
    fn compiles_on_grid(text: &str) -> bool {
        let board = Value::list(vec![Value::str("..."), Value::str("...")]);
        compile_for(text, &[board]).is_ok()
    }

    /// A helper that makes the new board is written in place, however it
    /// is spelled: set_at chains, a helper given the board another helper
    /// made, an `if` choosing between two.
    #[test]
    fn helpers_that_make_the_new_board_compile() {
        let cover = "fn cover(b: grid, r: nat, c: nat) = set_at(b, r, set_at(b[r], c, \"#\"));\n";
        for result in [
            "cover(g, r, c)",
            "cover(cover(g, r, c), r, c + 1)",
            "twice(g, r, c, r + 1 < len(g))",
        ] {
            let text = format!(
                "{cover}fn twice(b: grid, r: nat, c: nat, down: bool) = \
                 if down then cover(cover(b, r, c), r + 1, c) else cover(b, r, c);\n\
                 game G(g: grid) {{\n  move m(r in indices(g), c in indices(g[r])) \
                 if g[r][c] == \".\" => G({result});\n}}\n"
            );
            assert!(compiles_on_grid(&text), "{result}");
        }
    }

    /// A generator over the cells a comprehension keeps walks the cells,
    /// the comprehension's test first in the guard: placing on the key.
    #[test]
    fn a_generator_over_the_kept_cells_places_on_the_key() {
        for kept in [
            r#"[j for j in indices(board) if board[j] == "."]"#,
            r#"[j for (j, c) in enumerate(board) if c != "X"]"#,
        ] {
            let text = format!(
                "game T(board: str) {{\n  let empty = {kept};\n  \
                 move place(i in empty) => T(set_at(board, i, \"X\"));\n}}\n"
            );
            let code = compiled(&text, &[Value::str("....")]);
            assert!(
                matches!(code.rules[0].fused, Some(Fused::Place { .. })),
                "{kept}"
            );
        }
    }

    /// `set_at` with lists of places and letters written in pieces sets
    /// each in turn; lists that are not sure to have one length are left to
    /// the interpreter, which says why they must.
    #[test]
    fn several_places_set_at_once_compile_when_their_pieces_match() {
        let rule = |places: &str, letters: &str| {
            format!(
                "game T(board: str) {{\n  move m(i in 0..len(board) - 1, rest in \
                 subsets(0..i, 0, 1)) => T(set_at(board, {places}, {letters}));\n}}\n"
            )
        };
        let board = [Value::str("....")];
        for (places, letters, compiles) in [
            ("[i, i + 1]", r#"["X", "X"]"#, true),
            ("rest + [i]", r#"["X" for j in rest] + ["X"]"#, true),
            ("[i] + rest", r#"["X"] + ["X" for j in 0..i]"#, false),
            ("[i, i + 1]", r#"["X"]"#, false),
        ] {
            let text = rule(places, letters);
            assert_eq!(
                compile_for(&text, &board).is_ok(),
                compiles,
                "{places}, {letters}"
            );
        }
    }

    /// A new list joined from pieces is written piece after piece,
    /// however the pieces are spelled.
    #[test]
    fn a_new_list_joined_from_pieces_compiles() {
        let piles = [Value::list(vec![Value::Int(3); 3])];
        for joined in [
            "slice(h, 0, c) + [min(x, 1) for x in slice(h, c, len(h))]",
            "[h[j] for j in 0..c] + [min(h[j], 1) for j in c..len(h)]",
            "[h[0]] + slice(h, 1, len(h))",
        ] {
            let text =
                format!("game G(h: [nat]) {{\n  move m(c in indices(h)) => G({joined});\n}}\n");
            assert!(compile_for(&text, &piles).is_ok(), "{joined}");
        }
    }

    /// `any` over every window of three cells testing each is X is
    /// whether the row holds three X in a row, tested on the key; a range
    /// that leaves a window out is walked.
    #[test]
    fn any_window_of_letters_is_a_test_on_the_key() {
        for (lose, on_key) in [
            (
                "any([xs[i] and xs[i + 1] and xs[i + 2] for i in 0..len(xs) - 2])",
                true,
            ),
            (
                "any([xs[i + 2] and xs[i] and xs[i + 1] for i in 0..len(xs) - 2])",
                true,
            ),
            (
                "any([xs[i] and xs[i + 1] and xs[i + 2] for i in 0..len(xs) - 3])",
                false,
            ),
            ("any([xs[i] and xs[i + 2] for i in 0..len(xs) - 2])", false),
        ] {
            let text = format!(
                "game T(xs: [bool]) {{\n  lose if {lose};\n  move place(i in indices(xs)) \
                 if not xs[i] => T(set_at(xs, i, true));\n}}\n"
            );
            let code = compiled(&text, &[Value::list(vec![Value::Bool(false); 6])]);
            // On the key, with the placing loop: no field is decoded.
            assert_eq!(!code.decode, on_key, "{lose}");
        }
    }

    /// A helper given the generator's own variable reads the cell the rule
    /// without the helper reads: the placing loop runs on the key.
    #[test]
    fn a_helper_given_a_natural_variable_reads_it_as_it_is() {
        let text = "fn empty(board: str, i: nat) = board[i] == \".\";\n\
             game T(board: str) {\n  move place(i in indices(board)) if empty(board, i) \
             => T(set_at(board, i, \"X\"));\n}\n";
        let code = compiled(text, &[Value::str("....")]);
        assert!(matches!(code.rules[0].fused, Some(Fused::Place { .. })));
    }

    /// Tests that all end the loop end it together: in Wythoff's game in
    /// one rule, `k * dx <= x and k * dy <= y` bounds `k` for each step,
    /// and the options of each step form one progression of keys.
    #[test]
    fn tests_that_all_end_a_loop_bound_it_together() {
        let text = "game W(x: nat, y: nat) {\n  move take((dx, dy) in [(1, 0), (0, 1), (1, 1)], \
             k in 1..=max(x, y)) if k * dx <= x and k * dy <= y => W(x - k * dx, y - k * dy);\n}\n";
        let code = compiled(text, &[Value::Int(30), Value::Int(30)]);
        let rule = &code.rules[0];
        assert!(rule.guard.is_none() && rule.progression);
    }

    /// A new string given to a helper is made where the helper uses it,
    /// as a new grid is: each letter set is written into the key, each
    /// letter read is read through the `set_at`s before it, and one left
    /// out of the result stays with the interpreter.
    #[test]
    fn helpers_given_a_new_string_write_it_letter_by_letter() {
        let flip = "fn flip(row: str, j: nat) = set_at(row, j, if row[j] == \"H\" then \"T\" else \"H\");\n\
             fn second(a: str, b: str) = b;\n";
        for (result, compiles) in [
            ("flip(flip(row, i), j)", true),
            ("second(flip(row, i), row)", false),
        ] {
            let text = format!(
                "{flip}game T(row: str) {{\n  move m(i in indices(row), j in 0..i) \
                 if row[i] == \"H\" => T({result});\n}}\n"
            );
            let compiled = compile_for(&text, &[Value::str("HHTH")]).is_ok();
            assert_eq!(compiled, compiles, "{result}");
        }
    }

    /// A list of booleans is a string of two letters: placing true where
    /// a cell is false runs on the key, however the test is written.
    #[test]
    fn placing_a_truth_value_runs_on_the_key() {
        for guard in ["not xs[i]", "xs[i] == false", "true != xs[i]"] {
            let text = format!(
                "game T(xs: [bool]) {{\n  move place(i in indices(xs)) if {guard} => \
                 T(set_at(xs, i, true));\n}}\n"
            );
            let cells = Value::list(vec![Value::Bool(false); 5]);
            let code = compiled(&text, &[cells]);
            let placing = matches!(
                code.rules[0].fused,
                Some(Fused::Place { from: 0, to: 1, .. })
            );
            assert!(placing, "{guard}");
        }
    }

    /// A new board given to a helper that leaves it out of its result is
    /// never made, so an error making it would go unseen: such a helper is
    /// left to the interpreter.
    #[test]
    fn a_new_board_left_out_of_the_result_is_not_compiled() {
        let text = "fn second(a: grid, b: grid) = b;\n\
             game G(g: grid) {\n  move m(r in indices(g)) => G(second(set_at(g, r + 5, \"###\"), g));\n}\n";
        assert!(!compiles_on_grid(text));
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
