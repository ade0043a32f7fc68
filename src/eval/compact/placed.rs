//! Moves whose last generator is a product of ranges and whose result sets
//! one element at each chosen place to a value made from the product's
//! element at that place: Moore's Nim's `set_at(piles, chosen, left)`, and
//! the same written by the amounts taken,
//! `set_at(piles, chosen, [piles[i] - t for (i, t) in zip(chosen, taken)])`.
//! Each value is the element itself or `base + times * element`, with
//! `base` read at the place alone and `times` a number, so the key moves by
//! a fixed step each time one element of the tuple counts up: the keys
//! with the last element counting are one run, and no tuple's writes are
//! made one by one.
//!
//! The values are checked at both ends of each range before any key is
//! made: a value is affine in its element, so if both ends fit the field,
//! every value between does, and no sum or product on the way overflows.

use super::code::{Indices, MadeList, Num, Rule, Seq, Write};
use super::layout::Fields;
use super::product_runs::affine_keys;
use super::run::Machine;
use crate::syntax::ast::BinaryOp;

/// How the value put at each chosen place is made from the product's
/// element there.
#[derive(Debug)]
pub enum Placed {
    /// The element itself: `set_at(list, at, t)`.
    Element,
    /// `base + times * element`, by a comprehension over the places
    /// (`[piles[i] - e for (i, e) in zip(chosen, t)]`) or over the
    /// elements (`[e - 1 for e in t]`).
    Affine {
        /// The register the comprehension sets to the place's number,
        /// where it walks the places; `None` where it walks the elements,
        /// which `base` then does not read.
        place: Option<u32>,
        /// `None` for 0.
        base: Option<Num>,
        times: i64,
        /// How many values a walk over the places makes: it must be the
        /// product's number of ranges.
        count: Option<Num>,
    },
}

/// How the values the writes `set_at` with are made from tuple `t` of the
/// product, if each is made from the element at its own place alone (see
/// `Placed`): the list's fields, the places and the values.
pub fn placed(writes: &[Write], t: u32) -> Option<(Fields, Indices, Placed)> {
    match writes {
        [Write::Several(f, at, vs)] if *vs == t => Some((*f, *at, Placed::Element)),
        [Write::Fill(made), Write::Several(f, at, vs)] if *vs == made.tuple => {
            let MadeList { walk, element, .. } = &**made;
            if walk.guard.is_some() {
                return None;
            }
            let var = walk.var;
            let (element, place, count) = match &walk.over {
                Seq::Range(Num::Lit(0), count, false) if free_of(count, t, var) => {
                    let at_place = move |x: &Num| matches!(x, Num::TupleAt(u, i) if *u == t && matches!(**i, Num::Reg(r) if r == var));
                    (
                        affine_in(element, t, (at_place, u32::MAX))?,
                        Some(var),
                        Some(count.copy()?),
                    )
                }
                Seq::Tuple(u) if *u == t => {
                    let itself = move |x: &Num| matches!(x, Num::Reg(r) if *r == var);
                    (affine_in(element, t, (itself, var))?, None, None)
                }
                _ => return None,
            };
            let (base, times) = element;
            let placed = Placed::Affine {
                place,
                base,
                times,
                count,
            };
            Some((*f, *at, placed))
        }
        _ => None,
    }
}

/// `n` as `base + times * element`, where `element` tells the element's
/// term and `base` reads neither tuple `t` nor register `barred`: the
/// element's term at the top, added to or taken from such a term.
fn affine_in(
    n: &Num,
    t: u32,
    (element, barred): (impl Fn(&Num) -> bool + Copy, u32),
) -> Option<(Option<Num>, i64)> {
    if let Some(times) = element_times(n, element) {
        return Some((None, times));
    }
    let Num::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) = n else {
        return None;
    };
    let free = |x: &Num| free_of(x, t, barred).then(|| x.copy()).flatten();
    match (element_times(a, element), element_times(b, element)) {
        (Some(times), None) => {
            let rest = free(b)?;
            let base = match op {
                BinaryOp::Add => rest,
                _ => Num::Neg(Box::new(rest)),
            };
            Some((Some(base), times))
        }
        (None, Some(times)) => {
            let times = if *op == BinaryOp::Add {
                times
            } else {
                times.checked_neg()?
            };
            Some((Some(free(a)?), times))
        }
        _ => None,
    }
}

/// `times` where `n` is the element's term times a number (1 for the
/// term alone, -1 for its negation).
fn element_times(n: &Num, element: impl Fn(&Num) -> bool) -> Option<i64> {
    match n {
        x if element(x) => Some(1),
        Num::Neg(a) if element(a) => Some(-1),
        Num::Binary(BinaryOp::Mul, a, b) if element(a) => b.constant(),
        Num::Binary(BinaryOp::Mul, a, b) if element(b) => a.constant(),
        _ => None,
    }
}

/// Whether `n` is made of literals, registers, lengths of tuples,
/// elements of lists and of tuples other than `t`, arithmetic, negation,
/// `min` and `max` alone, reading no register `var` (`u32::MAX` for none
/// barred): the same at every tuple of the product (`t`'s length never
/// changes).
fn free_of(n: &Num, t: u32, var: u32) -> bool {
    match n {
        Num::Lit(_) | Num::TupleLen(_) => true,
        Num::Reg(r) => *r != var,
        Num::Field(_, i) => free_of(i, t, var),
        Num::TupleAt(u, i) => *u != t && free_of(i, t, var),
        Num::Binary(_, a, b) => free_of(a, t, var) && free_of(b, t, var),
        Num::Neg(a) => free_of(a, t, var),
        Num::Min(ns) | Num::Max(ns) => ns.iter().all(|n| free_of(n, t, var)),
        _ => false,
    }
}

impl Placed {
    /// Its numbers made into what runs fastest (see `closure`).
    pub fn lower(&mut self, lowered: impl FnMut(&mut Num)) {
        if let Placed::Affine { base, count, .. } = self {
            base.iter_mut().chain(count).for_each(lowered);
        }
    }
}

impl Machine {
    /// The options of a rule whose last generator is the product in
    /// tuple `t` and whose writes set the places `at` of `fields` to the
    /// values `placed` makes: one run for each tuple of the elements
    /// before the last. `None` where a value does not fit or a number
    /// cannot be worked out.
    #[inline]
    pub(super) fn set_product(
        &mut self,
        rule: &Rule,
        (fields, at, t): (Fields, &Indices, usize),
        placed: &Placed,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        let count = self.fill_ranges(&rule.gens.last()?.source, t)?;
        if count == 0 {
            return Some(());
        }
        self.steps(usize::try_from(count).ok()?)?;
        // The tuple at its least elements, which the values' numbers may
        // read (its length).
        let lists = self.scratch[t].len() / 2;
        let (ranges, cur) = (&self.scratch[t], &mut self.tuples[t]);
        cur.clear();
        cur.extend((0..lists).map(|d| ranges[2 * d]));
        let counted = match placed {
            Placed::Affine {
                count: Some(count), ..
            } => self.quick(count)? == lists as i64,
            _ => true,
        };
        let places = super::run::indices(&self.tuples, &self.regs, at);
        let distinct = (0..places.len()).all(|i| !places[..i].contains(&places[i]));
        if places.len() != lists || !distinct || !counted {
            // A mismatch is an error, and a repeated place a rarity: the
            // step-by-step loop handles both.
            return self.product(t, rule, rule.gens.len() - 1, out);
        }
        let ranges = std::mem::take(&mut self.scratch[t]);
        let made = self.placed_runs((fields, at, t), placed, &ranges, out);
        self.scratch[t] = ranges;
        made
    }

    /// The options `set_product` makes once the places are known to be
    /// as many as the ranges, and distinct.
    #[inline]
    fn placed_runs(
        &mut self,
        (fields, at, t): (Fields, &Indices, usize),
        placed: &Placed,
        ranges: &[i64],
        out: &mut Vec<u64>,
    ) -> Option<()> {
        let lists = ranges.len() / 2;
        // The key at the least elements, and each element's step.
        let mut key = self.key;
        let mut steps = std::mem::take(&mut self.placed_steps);
        steps.clear();
        for d in 0..lists {
            let place = super::run::indices(&self.tuples, &self.regs, at)[d];
            let i = u32::try_from(place).ok().filter(|&i| i < fields.len)?;
            let (lo, hi) = (ranges[2 * d], ranges[2 * d + 1]);
            let (base, times) = match placed {
                Placed::Element => (0, 1),
                Placed::Affine {
                    place, base, times, ..
                } => {
                    if let Some(var) = place {
                        self.regs[*var as usize] = d as i64;
                    }
                    let base = match base {
                        Some(b) => self.quick(b)?,
                        None => 0,
                    };
                    (base, *times)
                }
            };
            let value = |e: i64| base.checked_add(times.checked_mul(e)?);
            let (least, most) = (value(lo)?, value(hi - 1)?);
            if !fields.fits(least) || !fields.fits(most) {
                return None;
            }
            let shift = fields.shift_of(i);
            key = key & !(fields.mask() << shift) | fields.stored(least) << shift;
            steps.push((times as u64).wrapping_shl(shift));
        }
        affine_keys(key, (&steps, ranges), &mut self.tuples[t], out);
        self.placed_steps = steps;
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::code::Fused;
    use super::super::testing::{compiled, inside, same_options};

    /// Whether each rule of the game in `text` sets its places from the
    /// product's elements (see `Placed`), at `position`.
    fn set_in_place(text: &str, position: &str) -> Vec<bool> {
        let (game, _) = compiled(text, position, true);
        let rules = &inside(&*game).code.rules;
        rules
            .iter()
            .map(|r| matches!(r.fused, Some(Fused::SetProduct { .. })))
            .collect()
    }

    /// Moore's Nim by what is left and by what is taken, the values made
    /// from the element each way a comprehension over the places can
    /// make them: every key the tuple-by-tuple loop gives, in order.
    #[test]
    fn values_made_from_the_element_at_each_place_give_the_options_step_by_step_code_gives() {
        for (ranges, values) in [
            ("0..piles[i]", "left"),
            (
                "1..=piles[i]",
                "[piles[i] - t for (i, t) in zip(chosen, left)]",
            ),
            ("1..=piles[i]", "[t - 1 for t in left]"),
            (
                "1..=piles[i]",
                "[(0 - 1) * t + piles[i] for (i, t) in zip(chosen, left)]",
            ),
            (
                "1..=piles[i]",
                "[-t + piles[i] for (i, t) in zip(chosen, left)]",
            ),
            (
                "0..=piles[i] / 2",
                "[piles[i] - 2 * t for (i, t) in zip(chosen, left)]",
            ),
            ("0..piles[i]", "[t * 1 + 0 for t in left]"),
            // Past the field's room at the top end: the position is given
            // up both ways.
            ("0..=piles[i]", "[t + 4 for t in left]"),
        ] {
            let text = format!(
                "game M(k: nat, piles: [nat]) {{\n  move take(chosen in subsets(indices(piles), 1, k), \
                 left in product([{ranges} for i in chosen])) => M(k, set_at(piles, chosen, {values}));\n}}\n"
            );
            assert_eq!(set_in_place(&text, "M(2, [3, 2, 4])"), [true], "{values}");
            assert!(same_options(&text, "M(2, [3, 2, 4])") >= 1, "{values}");
            assert!(same_options(&text, "M(3, [2, 1, 3, 2])") >= 1, "{values}");
        }
        // Every position of three piles up to 3, 2 and 4 is reached.
        let text =
            "game M(k: nat, piles: [nat]) {\n  move take(chosen in subsets(indices(piles), 1, k), \
            left in product([1..=piles[i] for i in chosen])) => M(k, set_at(piles, chosen, \
            [piles[i] - t for (i, t) in zip(chosen, left)]));\n}\n";
        assert_eq!(same_options(text, "M(2, [3, 2, 4])"), 4 * 3 * 5);
    }

    /// Places that repeat (a product of places), a value that reads the
    /// tuple elsewhere, a sum of two elements: the first set in place and
    /// walked tuple by tuple where a place repeats, the others not set in
    /// place; the same options either way.
    #[test]
    fn values_not_made_from_their_own_element_alone_are_not_set_in_place() {
        let text = "game P(xs: [nat]) {\n  \
            move a(at in product([0..2, 0..2]), t in product([0..xs[i] for i in at])) \
              => P(set_at(xs, at, [e * 1 for e in t]));\n  \
            move b(c in subsets(indices(xs), 2, 2), t in product([0..xs[i] / 2 for i in c])) \
              => P(set_at(xs, c, [t[1 - j] for j in 0..2]));\n  \
            move d(c in subsets(indices(xs), 2, 2), t in product([0..xs[i] / 3 for i in c])) \
              => P(set_at(xs, c, [e + t[0] for e in t]));\n}\n";
        assert_eq!(set_in_place(text, "P([3, 3, 2])"), [true, false, false]);
        assert!(same_options(text, "P([3, 3, 2])") > 10);
    }
}
