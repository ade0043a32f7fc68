//! What a generator walks: ranges, `indices`, lists, `subsets`,
//! `product` and the cells of a grid, compiled to `Source`.

use super::types::tuple_items;
use super::worked::{walked_value, Part};
use super::{Compiler, Entry, Scope, Val, SOURCES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Num, Seq, Source, Target};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use std::rc::Rc;

impl<'a> Compiler<'a> {
    /// A generator's source: what it walks, and what its variable becomes.
    pub(super) fn generator(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
    ) -> Compiled<(Target, Source, Val)> {
        if let IrKind::Builtin(Builtin::Subsets, a) = &ir.kind {
            let (Some(items), Some(lo)) = (a.first(), a.get(1)) else {
                return Err(Unsupported::new(SOURCES, ir.span));
            };
            let (items, parts) = self.walked(scope, items)?;
            let lo_code = self.num(scope, lo)?;
            let hi = self.num(scope, a.get(2).unwrap_or(lo))?;
            let t = self.tuple();
            let val = match parts {
                Some(parts) => Val::Mapped(t, parts),
                None => Val::Tuple(t),
            };
            return Ok((Target::Tuple(t), Source::Subsets(items, lo_code, hi), val));
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
            // A string's are those of one row: its columns, each standing
            // for the pair (0, column).
            let shape = match a.first().and_then(|grid| self.val(scope, grid)) {
                Some(Val::Grid(rows)) => Some((rows.fields.len, rows.cols)),
                Some(Val::Str(f, _)) => {
                    let r = self.reg();
                    let columns = Seq::Range(Num::Lit(0), Num::Lit(i64::from(f.len)), false);
                    let pair = [Part::Of(Val::Const(0)), Part::Place];
                    return Ok((
                        Target::Reg(r),
                        Source::Each(columns),
                        Val::Pair(r, pair.into()),
                    ));
                }
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
        if let Some(rows) = self.tuples_listed(scope, ir) {
            // The loop walks the places; an element is read off its place.
            let r = self.reg();
            let places = Seq::Range(Num::Lit(0), Num::Lit(rows.len() as i64), false);
            return Ok((Target::Reg(r), Source::Each(places), Val::Chosen(r, rows)));
        }
        // Letters written out: the loop walks their codes in the alphabet,
        // each of which the alphabet must hold (a move's label shows the
        // letter a code stands for).
        if let Some(letters) = super::letters_written_out(ir, self.consts) {
            let alphabet = &self.layout.alphabet;
            let codes = letters
                .iter()
                .map(|c| alphabet.binary_search(c).ok().map(|i| i as i64))
                .collect::<Option<Vec<i64>>>()
                .or_unsupported(SOURCES, ir.span)?;
            let r = self.reg();
            return Ok((
                Target::Reg(r),
                Source::Each(Seq::Items(codes.into())),
                Val::Letter(r),
            ));
        }
        let (seq, parts) = self.walked(scope, ir)?;
        // A move's label shows a pair of `zip` or `enumerate` read off its
        // place in the list; a subset's places are not places in it.
        let listed = matches!(
            ir.kind,
            IrKind::Builtin(Builtin::Zip | Builtin::Enumerate, _)
        );
        if parts.is_some() && !listed {
            return Err(Unsupported::new(SOURCES, ir.span));
        }
        let r = self.reg();
        Ok((Target::Reg(r), Source::Each(seq), walked_value(r, parts)))
    }

    /// Tuples of numbers written out, or named by a constant, whose
    /// elements are literals or number variables bound before the walk
    /// (`(x, y) in [(k, 0), (0, k), (k, k)]`): working them out cannot
    /// fail, so reading the one at the walk's place reads what the
    /// interpreter's list holds there.
    fn tuples_listed(&self, scope: &Scope, ir: &Ir) -> Option<Rc<[Vec<Entry>]>> {
        if let Some(rows) = self.known_tuples(ir) {
            let entries = rows.iter().map(|row| row.iter().map(|&n| Entry::Lit(n)));
            return Some(entries.map(|row| row.collect()).collect());
        }
        let IrKind::List(items) = &ir.kind else {
            return None;
        };
        let rows: Vec<Vec<Entry>> = items
            .iter()
            .map(|item| {
                let entry = |x: &Ir| match (&x.kind, self.val(scope, x)) {
                    (IrKind::Lit(Value::Int(n)), _) => Some(Entry::Lit(*n)),
                    (IrKind::Local(_) | IrKind::Const(_), Some(Val::Num(r))) => Some(Entry::Reg(r)),
                    (IrKind::Local(_) | IrKind::Const(_), Some(Val::Const(n))) => {
                        Some(Entry::Lit(n))
                    }
                    _ => None,
                };
                tuple_items(item)?.iter().map(entry).collect()
            })
            .collect::<Option<_>>()?;
        let width = rows.first()?.len();
        rows.iter().all(|r| r.len() == width).then(|| rows.into())
    }

    pub(super) fn product(&mut self, scope: &mut Scope, lists: &Ir) -> Compiled<Source> {
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
                let (over, parts) = self.walked(scope, &clause.generator.source)?;
                let var = self.reg();
                let mut inner = scope.clone();
                *inner
                    .get_mut(clause.generator.slot as usize)
                    .or_unsupported(PRODUCT, lists.span)? = Some(walked_value(var, parts));
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

    /// A range's ends, and whether it holds its end. A range made into a
    /// list (`list(0..n)`) is the same range to a `product`, which makes
    /// its lists whole either way, refusing the same lengths.
    pub(super) fn range(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<(Num, Num, bool)> {
        match &ir.kind {
            IrKind::Builtin(Builtin::List, a) if matches!(&a[..], [x] if matches!(x.kind, IrKind::Binary(BinaryOp::RangeExclusive | BinaryOp::RangeInclusive, ..))) => {
                self.range(scope, &a[0])
            }
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

    pub(in crate::eval::compact) fn seq(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Seq> {
        match &ir.kind {
            IrKind::Binary(BinaryOp::RangeExclusive | BinaryOp::RangeInclusive, ..) => {
                let (lo, hi, inclusive) = self.range(scope, ir)?;
                Ok(Seq::Range(lo, hi, inclusive))
            }
            IrKind::Builtin(Builtin::Indices, a) if a.len() == 1 => {
                Ok(Seq::Range(Num::Lit(0), self.len(scope, &a[0])?, false))
            }
            // A list worked out, made each time it is walked.
            IrKind::Comprehension { .. } => Ok(Seq::Made(Box::new(self.made_list(scope, ir)?))),
            IrKind::Builtin(Builtin::SetAt, a) if a.len() == 3 => {
                let made = self.set_at_walked(scope, (&a[0], &a[1], &a[2]))?;
                Ok(Seq::Made(Box::new(made)))
            }
            IrKind::Builtin(Builtin::Slice, _) => match self.slice_made(scope, ir, false)? {
                Some(made) => Ok(Seq::Made(Box::new(made))),
                None => Err(Unsupported::new(SOURCES, ir.span)),
            },
            _ => match self.val(scope, ir) {
                Some(Val::List(f)) => Ok(Seq::Fields(f)),
                Some(Val::Items(xs)) => Ok(Seq::Items(xs)),
                Some(Val::Tuple(t)) => Ok(Seq::Tuple(t)),
                Some(Val::Row(table, row)) => Ok(self.table_row(&table, row)),
                // A set the rules change, in increasing order.
                _ => self
                    .members(scope, ir)
                    .ok_or_else(|| Unsupported::new(SOURCES, ir.span)),
            },
        }
    }
}
