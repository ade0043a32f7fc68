//! Lists the rules work out and walk: a comprehension walked by a
//! generator (`x in [2 * i for i in 0..n]`), given to `subsets` or
//! `set_at`, is made into a tuple register as the interpreter makes the
//! list (see `MadeList`); `zip(a, b)` and `enumerate(xs)` are walked by
//! their places, each pair standing for the elements at its place, so
//! that `(i, t) in zip(chosen, taken)` reads `chosen[j]` and `taken[j]`,
//! and a subset of `enumerate(piles)` holds places, each standing for
//! the pair `(i, piles[i])`. A pair of pairs (`enumerate(zip(hs, caps))`)
//! stands for the same place twice over, and a list zipped that the rules
//! work out (`zip([piles[i] for i in chosen], taken)`) is made whole into
//! a tuple register before the walk, as the interpreter makes it.

use super::types::tuples_written_out;
use super::{Compiler, Scope, Val, SOURCES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, MadeList, Num, Seq};
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use std::rc::Rc;

/// One element of a pair that stands for a place: the place itself, or
/// the element of a list at the place.
#[derive(Clone, Debug)]
pub(in crate::eval::compact) enum Part {
    Place,
    Of(Val),
    /// A pair of its own at the same place (a `zip` or `enumerate` paired).
    Pair(Rc<[Part]>),
}

impl Compiler<'_> {
    /// What a walk over `source` walks, and what each of its pairs holds
    /// when it walks places standing for pairs (`zip`, `enumerate`, a
    /// subset of `enumerate`); `None` when it walks the values themselves.
    pub(super) fn walked(
        &mut self,
        scope: &mut Scope,
        source: &Ir,
    ) -> Compiled<(Seq, Option<Rc<[Part]>>)> {
        if let Some((len, parts)) = self.places(scope, source)? {
            return Ok((Seq::Range(Num::Lit(0), len, false), Some(parts)));
        }
        match self.val(scope, source) {
            Some(Val::Mapped(t, parts)) => Ok((Seq::Tuple(t), Some(parts))),
            _ => Ok((self.seq(scope, source)?, None)),
        }
    }

    /// How many places a `zip` or `enumerate` has, and the parts of the
    /// pair at each; `None` for any other list. A list paired is read at
    /// the same place, whether it is held or is itself paired
    /// (`enumerate(zip(hs, CAPS))`: the place, and the pair of `hs` and
    /// `CAPS` at it).
    fn places(&mut self, scope: &mut Scope, source: &Ir) -> Compiled<Option<(Num, Rc<[Part]>)>> {
        let refused = || Unsupported::new(SOURCES, source.span);
        let (lists, enumerated) = match &source.kind {
            IrKind::Builtin(Builtin::Zip, lists) => (lists, false),
            IrKind::Builtin(Builtin::Enumerate, a) if a.len() == 1 => (a, true),
            IrKind::Builtin(Builtin::Enumerate, _) => return Err(refused()),
            _ => return Ok(None),
        };
        let mut parts = Vec::with_capacity(lists.len() + 1);
        let mut lens = Vec::with_capacity(lists.len());
        if enumerated {
            parts.push(Part::Place);
        }
        for list in lists {
            match self.places(scope, list)? {
                Some((len, inner)) => {
                    parts.push(Part::Pair(inner));
                    lens.push(len);
                }
                // A list worked out (`zip([piles[i] for i in chosen],
                // taken)`) is made whole where the walk's length is, before
                // its first value, as the interpreter makes it.
                None if matches!(list.kind, IrKind::Comprehension { .. }) => {
                    let made = self.made_list(scope, list)?;
                    let t = made.tuple;
                    parts.push(Part::Of(Val::Tuple(t)));
                    let bind = Box::new(Bind::List(Box::new(made)));
                    lens.push(Num::Let(bind, Box::new(Num::TupleLen(t))));
                }
                None => {
                    parts.push(Part::Of(self.val(scope, list).ok_or_else(refused)?));
                    lens.push(self.len(scope, list)?);
                }
            }
        }
        let shortest = match lens.len() {
            1 => lens.pop().ok_or_else(refused)?,
            _ => Num::Min(lens),
        };
        Ok(Some((shortest, parts.into())))
    }

    /// The rows of tuples of numbers written out, or named by a constant.
    pub(super) fn known_tuples(&self, ir: &Ir) -> Option<Rc<[Vec<i64>]>> {
        let named = self.known(ir).map(|v| Ir {
            kind: IrKind::Lit(v),
            span: ir.span,
        });
        tuples_written_out(named.as_ref().unwrap_or(ir))
    }

    /// Tuples of numbers written out, or named by a constant, walked by
    /// their places (`any([free(r + dr, c + dc) for (dr, dc) in [(0, 1),
    /// (1, 0)]])`). `None` for any other list.
    pub(super) fn tuples_walked(&self, source: &Ir) -> Option<(Seq, Rc<[Part]>)> {
        let rows = self.known_tuples(source)?;
        let places = Seq::Range(Num::Lit(0), Num::Lit(rows.len() as i64), false);
        Some((places, columns(&rows)?))
    }

    /// A comprehension with one generator, as a list made into a tuple
    /// register.
    pub(super) fn made_list(&mut self, scope: &Scope, list: &Ir) -> Compiled<MadeList> {
        self.made_list_of(scope, list, SOURCES, Self::num)
    }

    /// A comprehension with one generator, its elements compiled by
    /// `element`, as a list made into a tuple register.
    pub(super) fn made_list_of(
        &mut self,
        scope: &Scope,
        list: &Ir,
        what: &str,
        element: impl FnOnce(&mut Self, &mut Scope, &Ir) -> Compiled<Num>,
    ) -> Compiled<MadeList> {
        let IrKind::Comprehension {
            element: each,
            clauses,
        } = &list.kind
        else {
            return Err(Unsupported::new(what, list.span));
        };
        let (walk, mut inner) = self.walk(scope, clauses, list, what)?;
        let element = element(self, &mut inner, each)?;
        Ok(MadeList {
            tuple: self.tuple(),
            walk,
            element,
        })
    }

    /// Element `k` of a pair standing for the place in register `place`.
    pub(super) fn pair_element(&self, place: u32, parts: &[Part], k: usize) -> Option<Num> {
        let at = Box::new(Num::Reg(place));
        Some(match parts.get(k)? {
            Part::Place => Num::Reg(place),
            Part::Of(Val::List(f)) => Num::Field(*f, at),
            Part::Of(Val::Tuple(t)) => Num::TupleAt(*t, at),
            Part::Of(Val::Const(n)) => Num::Lit(*n),
            Part::Of(Val::Items(xs)) => Num::Item(xs.clone(), at),
            Part::Of(_) | Part::Pair(_) => return None,
        })
    }
}

/// The parts of a pair standing for a place among tuples of numbers:
/// element `k` is read from the list of the tuples' `k`th elements, so
/// that a place past the end is a read that fails, as the interpreter's
/// index does.
pub(super) fn columns(rows: &[Vec<i64>]) -> Option<Rc<[Part]>> {
    let width = rows.first()?.len();
    (0..width)
        .map(|k| {
            let column = rows.iter().map(|row| row.get(k).copied());
            Some(Part::Of(Val::Items(column.collect::<Option<_>>()?)))
        })
        .collect()
}

/// What a walk's variable stands for when the walk sets register `var`.
pub(super) fn walked_value(var: u32, parts: Option<Rc<[Part]>>) -> Val {
    match parts {
        Some(parts) => Val::Pair(var, parts),
        None => Val::Num(var),
    }
}
