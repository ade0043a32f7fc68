//! A game's rules compiled for one layout, and what every rule passes on
//! unchanged (which decides the layout).

use super::{children, numbers, pieces, Compiler, Scope, Val, MAX_INLINE};
use crate::eval::builtins::Builtin;
use crate::eval::compact::closure;
use crate::eval::compact::code::{GameCode, Gen, Num, Rule, Seq, Source, Write};
use crate::eval::compact::early;
use crate::eval::compact::facts;
use crate::eval::compact::fused;
use crate::eval::compact::hoist;
use crate::eval::compact::layout::{Fields, Group, Layout};
use crate::eval::compact::monotone;
use crate::eval::compact::sieve;
use crate::eval::compact::sums::{self};
use crate::eval::compact::turn;
use crate::eval::compact::{product_runs, progression};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{GameKind, GenIr, Ir, IrKind, Program};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::BinaryOp;
use std::sync::Arc;

/// Which parameters every move rule of game `g` passes on unchanged, and
/// the letters its results write into strings.
pub fn fixed_and_letters(
    program: &Program,
    consts: &[Value],
    g: u32,
) -> Compiled<(Vec<bool>, Vec<u8>)> {
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
        // A letter a generator walks may be written by the move.
        let walked = m
            .generators
            .iter()
            .filter_map(|gen| super::letters_written_out(&gen.source, consts));
        letters.extend(walked.flatten());
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

/// Game `layout.game`'s rules compiled for `layout` once for each of its
/// shapes (each length its list whose length changes may have, see
/// `Layout::shapes`), with the innermost loops of the shapes `fused`
/// knows run on the key when `fuse` is set. In each, the list is as long
/// as that shape says, so every construct that reads it reads it as it
/// reads a list of a fixed length.
pub fn games(
    program: &Arc<Program>,
    consts: &[Value],
    layout: &Layout,
    fuse: bool,
) -> Compiled<Vec<GameCode>> {
    (0..layout.shapes())
        .map(|shape| game(program, consts, layout, fuse, shape))
        .collect()
}

/// Game `layout.game`'s rules compiled for `layout`, for keys of shape
/// `shape`.
pub fn game(
    program: &Arc<Program>,
    consts: &[Value],
    layout: &Layout,
    fuse: bool,
    shape: u32,
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
            Group::Sized { items, text, .. } => {
                let items = Fields {
                    len: shape,
                    ..*items
                };
                match text {
                    true => Val::Str(items, layout.alphabet.clone()),
                    false => Val::List(items),
                }
            }
            Group::Bools(f) => Val::Bools(*f),
            Group::Str(f, alphabet) => Val::Str(*f, alphabet.clone()),
            Group::Grid(rows) => Val::Grid(*rows),
            Group::Bits(f) => Val::Mask(f.first),
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
        natural_tuples: Vec::new(),
        ranges: Vec::new(),
        distinct_tuples: Vec::new(),
        shape,
        evaluated: None,
        recursing: 0,
    };
    let lose = match lose {
        Some(l) => Some(c.truth(&mut scope, l)?),
        None => None,
    };
    let mut rules = Vec::new();
    // With fused code, a rule may run as several, one after the other
    // (see `pieces`).
    let frame = scope.len();
    let pieces_of = |m, split| {
        let mut frame = frame;
        let inlined = super::helper_result::inlined(m, program, layout.game, &mut frame);
        let m = inlined.as_ref().unwrap_or(m);
        let unfolded = super::unfold::unfolded(m, |ir| grid_held(ir, layout), frame);
        pieces::pieces(unfolded, split, consts, |ir| list_held(ir, layout))
    };
    for m in moves {
        // A rule split into pieces that do not all compile (a subset read
        // as a list a test cannot read) is compiled whole.
        let before = rules.len();
        let pieces = pieces_of(m, fuse);
        let split = push_pieces(&mut c, &scope, pieces, (layout, fuse), &mut rules);
        match split {
            Err(_) if fuse => {
                rules.truncate(before);
                let whole = pieces_of(m, false);
                push_pieces(&mut c, &scope, whole, (layout, fuse), &mut rules)?;
            }
            split => split?,
        }
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
        evaluated: c.evaluated.take(),
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

/// The pieces of a rule compiled, after the rules before them.
fn push_pieces(
    c: &mut Compiler<'_>,
    scope: &Scope,
    pieces: Vec<pieces::Piece>,
    (layout, fuse): (&Layout, bool),
    rules: &mut Vec<Rule>,
) -> Compiled<()> {
    for piece in pieces {
        let rule = piece_rule(c, scope, piece, (layout, fuse), rules)?;
        rules.push(rule);
    }
    Ok(())
}

/// One piece of a rule (see `pieces`) compiled, after the rules before
/// it (`rules`, whose hoisted writes take the first slots).
fn piece_rule(
    c: &mut Compiler<'_>,
    scope: &Scope,
    piece: pieces::Piece,
    (layout, fuse): (&Layout, bool),
    rules: &[Rule],
) -> Compiled<Rule> {
    let (tuple, unfolded_filters) = (piece.tuple, piece.filters);
    let m = &piece.rule;
    let mut scope = scope.clone();
    scope.resize(piece.frame, None);
    let mut gens = Vec::new();
    for (d, g) in m.generators.iter().enumerate() {
        let (target, mut source, val) = c.generator(&mut scope, &g.source)?;
        // The generator a piece walks at one tuple's place alone: the
        // places of the tuples, narrowed to that one.
        if let Some((_, place)) = tuple.filter(|&(at, _)| at == d) {
            let Source::Each(Seq::Range(..)) = source else {
                return Err(Unsupported::new(
                    "a walk over tuples written out that is not over their places",
                    g.source.span,
                ));
            };
            source = Source::Each(Seq::Range(Num::Lit(place), Num::Lit(place + 1), false));
        }
        c.note_natural(target, &source);
        c.note_held(target, &mut source);
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
        .zip(unfolded_filters)
        .map(|(g, unfolded)| unfolded.or_else(|| cells_filter(g, one_row)))
        .collect();
    let safe: Vec<bool> = (0..gens.len())
        .map(|d| early::cannot_fail(&gens[d].source, &gens[..d]))
        .collect();
    let (mut early, mut rest) = match &m.guard {
        Some(g) => early::split(&m.generators, g, &safe),
        None => (vec![Vec::new(); gens.len()], Vec::new()),
    };
    for (tests, filter) in early.iter_mut().zip(&filters) {
        if let Some(filter) = filter {
            tests.insert(0, filter);
        }
    }
    // The tests made after the last generator is set and the guard
    // are made one after the other: one chain, which the shapes that
    // read the last loop's tests read as its guard.
    if let Some(last) = early.last_mut() {
        rest.splice(0..0, last.drain(..));
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
        guard_reads: None,
        writes,
        sum,
        fused: None,
        bounds: Vec::new(),
        bound_runs: Vec::new(),
        progression: false,
        product_runs: None,
        hoist: None,
        sieves: Vec::new(),
    };
    // The registers that hold natural numbers: the key's fields,
    // unless some hold integers below 0.
    let naturals = if layout.signed() { 0 } else { layout.fields };
    if fuse {
        super::grid_order::rows_outside(&mut rule, layout.fields);
        facts::simplify(&mut rule);
        monotone::bounds(&mut rule, naturals);
    }
    // The shapes below read the writes of a move that leaves one
    // position.
    if fuse && rule.sum.is_none() {
        if rule.bounds.last().is_none_or(Option::is_none) {
            rule.fused = fused::recognise(&rule);
        }
        rule.progression = progression::affine(&rule, naturals);
        rule.product_runs = product_runs::affine(&rule);
        let slot = rules.iter().filter(|r| r.hoist.is_some()).count();
        rule.hoist = hoist::recognise(&rule, layout.fields, slot);
    }
    if fuse {
        sieve::recognise(&mut rule);
    }
    Ok(rule)
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

/// The group of the key a parameter `ir` is held in.
fn held_group<'l>(ir: &Ir, layout: &'l Layout) -> Option<&'l Group> {
    let IrKind::Local(p) = ir.kind else {
        return None;
    };
    layout.groups.get(p as usize)
}

/// Whether `ir` is a list, string or grid parameter the key holds, whose
/// elements (or rows) are then at most 64.
pub fn list_held(ir: &Ir, layout: &Layout) -> bool {
    matches!(
        held_group(ir, layout),
        Some(
            Group::List(_)
                | Group::Sized { .. }
                | Group::Bools(_)
                | Group::Str(..)
                | Group::Grid(_)
        )
    )
}

/// Whether `ir` is a grid parameter the key holds (whose cells a rule may
/// walk as rows and columns, see `unfold`).
pub fn grid_held(ir: &Ir, layout: &Layout) -> bool {
    matches!(held_group(ir, layout), Some(Group::Grid(_)))
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
