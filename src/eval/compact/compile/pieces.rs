//! A rule compiled as several:
//!
//! - a result's `if` on a generator against the end of its range, one
//!   rule a branch (`peel`);
//! - a generator over a few tuples of numbers written out (`(dx, dy) in
//!   [(1, 0), (0, 1), (1, 1)]`, or a constant naming them), one rule a
//!   tuple, each walking that tuple's place alone, so that the tuple's
//!   numbers are known (see `facts`): `k * dx <= x` reads as the rule
//!   written for that direction would;
//! - a generator over the subsets of a range of at most 64 numbers with at
//!   most three elements (Mock Turtles' `others in subsets(0..i, 0, 2)`),
//!   one rule a size, each subset walked as loops over its elements in
//!   increasing order (`j in 0..i, k in j + 1..i`), the subset read as the
//!   list of them (`[j, k]`) and a comprehension over such a list as the
//!   list of its elements: the shapes that read loops over numbers (a
//!   write made once for the loops outside, a progression) read it as the
//!   rule written with those loops.
//!
//! Each rule walks every generator itself, one rule after the other: the
//! search needs a position's options, not their order, and what each rule
//! knows of its branch, tuple or size (a range its tuple cuts short, a
//! loop its branch leaves one value) holds for it alone.
//!
//! Only the search's fused code is split; listing options with their
//! labels runs each rule whole.

use super::unfold::Unfolded;
use crate::eval::builtins::Builtin;
use crate::eval::compact::peel;
use crate::eval::ir::{GenIr, Ir, IrKind, MoveIr};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;

/// One rule to compile.
pub(super) struct Piece {
    pub rule: MoveIr,
    /// The generator that walks one tuple's place alone, and that place.
    pub tuple: Option<(usize, i64)>,
    /// The test each generator's value must pass first (see `unfold`).
    pub filters: Vec<Option<Ir>>,
    /// The size of the rule's frame.
    pub frame: usize,
}

/// Most tuples written out a generator may walk for it to run as one
/// rule a tuple.
const MOST_TUPLES: usize = 8;
/// Most elements of a subset walked as loops.
const MOST_PICKED: i64 = 3;
/// Most numbers of a range whose subsets are walked as loops: at most
/// `MOST_PICKED` of 64 are far fewer than the interpreter's limit on
/// collections, so walking them as loops cannot pass a limit it meets.
const MOST_PICKED_FROM: i64 = 64;

/// The rules `unfolded` runs as: one, or (in `fused` code) one a branch,
/// a tuple or a size as the module's header says.
pub(super) fn pieces(
    unfolded: Unfolded,
    fuse: bool,
    consts: &[Value],
    held: impl Fn(&Ir) -> bool,
) -> Vec<Piece> {
    let Unfolded {
        rule,
        filters,
        frame,
    } = unfolded;
    let piece = |rule| Piece {
        rule,
        tuple: None,
        filters: filters.clone(),
        frame,
    };
    if !fuse {
        return vec![piece(rule.into_owned())];
    }
    let mut peeled = peel::pieces(&rule);
    if peeled.len() > 1 {
        return peeled.into_iter().map(piece).collect();
    }
    let Some(m) = peeled.pop() else {
        return Vec::new();
    };
    if let Some(split) = by_tuple(&m, consts) {
        return split
            .into_iter()
            .map(|tuple| Piece {
                tuple: Some(tuple),
                ..piece(m.clone())
            })
            .collect();
    }
    if filters.iter().all(Option::is_none) {
        if let Some(split) = by_size(&m, frame, held) {
            return split;
        }
    }
    vec![piece(m)]
}

/// For the first generator over a few tuples written out: for each rule,
/// the generator and the place it walks alone.
fn by_tuple(m: &MoveIr, consts: &[Value]) -> Option<Vec<(usize, i64)>> {
    let (d, n) = m.generators.iter().enumerate().find_map(|(d, g)| {
        let rows = match g.source.kind {
            IrKind::Const(i) => consts.get(i as usize).and_then(|v| {
                let named = Ir {
                    kind: IrKind::Lit(v.clone()),
                    span: g.source.span,
                };
                super::types::tuples_written_out(&named)
            }),
            _ => super::types::tuples_written_out(&g.source),
        };
        rows.filter(|rows| (2..=MOST_TUPLES).contains(&rows.len()))
            .map(|rows| (d, rows.len()))
    })?;
    let places = 0..i64::try_from(n).ok()?;
    Some(places.map(|place| (d, place)).collect())
}

/// The rules of the first generator over small subsets of a short range,
/// one a size, smallest first.
fn by_size(m: &MoveIr, frame: usize, held: impl Fn(&Ir) -> bool) -> Option<Vec<Piece>> {
    let (d, (from, to, inclusive), (least, most)) =
        m.generators.iter().enumerate().find_map(|(d, g)| {
            let picks = picked(g, &m.generators[..d], &held)?;
            Some((d, picks.0, picks.1))
        })?;
    let slot = m.generators[d].slot;
    let mut out = Vec::new();
    for size in least..=most {
        let mut rule = m.clone();
        let first = u32::try_from(frame).ok()?;
        let vars: Vec<u32> = (0..size as u32).map(|k| first + k).collect();
        let span = rule.generators[d].source.span;
        let ir = |kind| Ir { kind, span };
        let local = |v: u32| ir(IrKind::Local(v));
        let op = match inclusive {
            true => BinaryOp::RangeInclusive,
            false => BinaryOp::RangeExclusive,
        };
        // Element k walks from the one before it, plus one.
        let loops = vars.iter().enumerate().map(|(k, &v)| {
            let start = match k {
                0 => from.clone(),
                _ => ir(IrKind::Binary(
                    BinaryOp::Add,
                    Box::new(local(vars[k - 1])),
                    Box::new(ir(IrKind::Lit(Value::Int(1)))),
                )),
            };
            GenIr {
                slot: v,
                source: ir(IrKind::Binary(op, Box::new(start), Box::new(to.clone()))),
                shown: Vec::new(),
            }
        });
        let loops: Vec<GenIr> = loops.collect();
        let subset = ir(IrKind::List(vars.iter().map(|&v| local(v)).collect()));
        let read = |x: &mut Ir| {
            put(x, slot, &subset);
            unrolled(x);
        };
        for later in &mut rule.generators[d + 1..] {
            read(&mut later.source);
        }
        rule.guard.iter_mut().for_each(read);
        read(&mut rule.result);
        rule.generators.splice(d..=d, loops);
        let filters = vec![None; rule.generators.len()];
        out.push(Piece {
            rule,
            tuple: None,
            filters,
            frame: frame + size as usize,
        });
    }
    Some(out)
}

type Range = (Ir, Ir, bool);

/// For `subsets(from..to, least, most)` with sizes written out, at most
/// `MOST_PICKED`, over a range whose ends are read as often as asked
/// without an error and that holds at most `MOST_PICKED_FROM` numbers (its
/// end a literal, or the variable of an earlier generator over the places
/// of a list or string `held` in the key, which has at most 64): the range
/// and the sizes.
fn picked(g: &GenIr, earlier: &[GenIr], held: impl Fn(&Ir) -> bool) -> Option<(Range, (i64, i64))> {
    let IrKind::Builtin(Builtin::Subsets, a) = &g.source.kind else {
        return None;
    };
    let [items, least, rest @ ..] = &a[..] else {
        return None;
    };
    let most = rest.first().unwrap_or(least);
    let (IrKind::Lit(Value::Int(least)), IrKind::Lit(Value::Int(most))) = (&least.kind, &most.kind)
    else {
        return None;
    };
    if *least < 0 || least > most || *most > MOST_PICKED {
        return None;
    }
    let IrKind::Binary(op @ (BinaryOp::RangeExclusive | BinaryOp::RangeInclusive), from, to) =
        &items.kind
    else {
        return None;
    };
    let from_zero = matches!(from.kind, IrKind::Lit(Value::Int(0)));
    let short = match &to.kind {
        IrKind::Lit(Value::Int(n)) => *n < MOST_PICKED_FROM,
        IrKind::Local(s) => earlier.iter().any(|e| {
            e.slot == *s
                && matches!(&e.source.kind, IrKind::Builtin(Builtin::Indices, x)
                    if matches!(&x[..], [list] if held(list)))
        }),
        _ => false,
    };
    let inclusive = *op == BinaryOp::RangeInclusive;
    (from_zero && short).then(|| {
        let range = ((**from).clone(), (**to).clone(), inclusive);
        (range, (*least, *most))
    })
}

/// `ir` with variable `slot` read as `with`.
fn put(ir: &mut Ir, slot: u32, with: &Ir) {
    match &mut ir.kind {
        IrKind::Local(s) if *s == slot => *ir = with.clone(),
        _ => super::children_mut(ir, |child| put(child, slot, with)),
    }
}

/// `ir` with each comprehension over a list written out, with one
/// generator and no test, as the list of its elements, each with the
/// generator's variable read as its item: `[flip(row[j]) for j in [a,
/// b]]` is `[flip(row[a]), flip(row[b])]`.
fn unrolled(ir: &mut Ir) {
    super::children_mut(ir, unrolled);
    let IrKind::Comprehension { element, clauses } = &ir.kind else {
        return;
    };
    let [clause] = &clauses[..] else {
        return;
    };
    let IrKind::List(items) = &clause.generator.source.kind else {
        return;
    };
    if clause.guard.is_some() {
        return;
    }
    let slot = clause.generator.slot;
    let elements = items
        .iter()
        .map(|item| {
            let mut e = (**element).clone();
            put(&mut e, slot, item);
            e
        })
        .collect();
    ir.kind = IrKind::List(elements);
}
