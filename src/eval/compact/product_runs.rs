//! Moves whose last generator is a `product` and whose every written field
//! is affine in the product's tuple: `a + b0 * t[0] + b1 * t[1] + ...`,
//! with `a` and the `b`s fixed while the tuple changes. Moore's Nim
//! written as `set_at(piles, chosen, left)`, as a helper that reads
//! `left[index_of(chosen, i)]` for each pile, or as `[piles[i] - t for (i,
//! t) in zip(chosen, taken)]` all are: what varies with the tuple is read
//! only as its elements at places that do not vary, added, taken away, or
//! multiplied by what does not vary. The key, which holds the fields side
//! by side, is then affine in the tuple too, so the keys at the tuple's
//! corners give every key: those with the last element counting up are
//! one run.
//!
//! This follows from what the code computes, not from its spelling: the
//! analysis below follows which registers and tuples vary with the tuple
//! through helpers' arguments, comprehensions and lists worked out.
//!
//! Checking the corners checks every tuple. Whatever could fail in the
//! writes (a term that overflows, a field the value does not fit, a
//! natural argument below 0) fails for values outside an interval, and an
//! affine term's values over the product's box lie between its values at
//! the corners; everything else (an index, a length, a test) does not vary.

use super::code::{Appended, Bind, Char, Element, Indices, Num, Rule, Seq, Source, Spread, Target};
use super::code::{Text, Truth, Walk, Write};
use super::layout::Fields;
use super::reads::{self, Visit};
use super::run::Machine;
use crate::solve::dense::push_run;
use crate::syntax::ast::BinaryOp;

/// How a number depends on the tuple, the least dependence first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Dep {
    /// The same for every tuple.
    Flat,
    /// `a + b * t[d]`: one element of the tuple, or none, where which one
    /// does not vary.
    Single,
    /// `a + b0 * t[0] + b1 * t[1] + ...`.
    Affine,
    /// Anything else.
    Other,
}

/// Whether the rule's last generator is a product whose tuple every
/// written field is affine in, and that nothing after it tests: `Single`
/// where every term reads one element of the tuple at most, so that its
/// values at the corner of the least elements and at those with one
/// element at its largest are its least and largest values, `Affine`
/// where every corner must be made.
pub fn affine(rule: &Rule) -> Option<Spread> {
    let last = rule.gens.last()?;
    let (Source::ProductOf { .. } | Source::ProductList(_), Target::Tuple(t)) =
        (&last.source, last.target)
    else {
        return None;
    };
    if rule.fused.is_some() || rule.sum.is_some() {
        return None;
    }
    let mut deps = Deps {
        regs: Vec::new(),
        tuples: vec![(t, Dep::Single)],
        texts: Vec::new(),
        mixed: false,
    };
    let mut tests = rule.early.last().into_iter().flatten().chain(&rule.guard);
    if !(tests.all(|test| deps.flat_truth(test)) && deps.writes(&rule.writes)) {
        return None;
    }
    Some(if deps.mixed {
        Spread::Affine
    } else {
        Spread::Single
    })
}

/// What varies with the tuple: registers and tuple registers with their
/// dependence (any other is `Flat`), and string registers that vary.
struct Deps {
    regs: Vec<(u32, Dep)>,
    tuples: Vec<(u32, Dep)>,
    texts: Vec<u32>,
    /// Whether some term read several elements of the tuple.
    mixed: bool,
}

/// The dependence of a sum of two terms.
fn plus(a: Dep, b: Dep) -> Dep {
    match (a, b) {
        (Dep::Single, Dep::Single) => Dep::Affine,
        _ => a.max(b),
    }
}

fn flat_if(flat: bool) -> Dep {
    if flat {
        Dep::Flat
    } else {
        Dep::Other
    }
}

fn find(list: &[(u32, Dep)], r: u32) -> Dep {
    list.iter()
        .rev()
        .find(|(x, _)| *x == r)
        .map_or(Dep::Flat, |(_, d)| *d)
}

impl Deps {
    fn reg(&self, r: u32) -> Dep {
        find(&self.regs, r)
    }

    fn tuple(&self, t: u32) -> Dep {
        find(&self.tuples, t)
    }

    fn num(&mut self, n: &Num) -> Dep {
        let dep = self.term(n);
        self.mixed |= dep == Dep::Affine;
        dep
    }

    fn term(&mut self, n: &Num) -> Dep {
        use BinaryOp::*;
        match n {
            Num::Lit(_) | Num::SumFields(_) | Num::Matches(..) => Dep::Flat,
            Num::Reg(r) => self.reg(*r),
            Num::Field(_, i) | Num::Item(_, i) => flat_if(self.num(i) == Dep::Flat),
            // An element at a place that does not vary is one of the
            // tuple's elements, or an affine value of a list worked out.
            Num::TupleAt(t, i) if self.num(i) == Dep::Flat => self.tuple(*t),
            Num::TupleAt(..) => Dep::Other,
            // A tuple whose elements are affine has a length that does not
            // vary (see `walk`).
            Num::TupleLen(t) => flat_if(self.tuple(*t) != Dep::Other),
            Num::SumTuple(t) => match self.tuple(*t) {
                Dep::Single => Dep::Affine,
                dep => dep,
            },
            Num::Binary(op, a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                match op {
                    Add | Sub => plus(a, b),
                    Mul if a == Dep::Flat || b == Dep::Flat => a.max(b),
                    // A shift left multiplies by a power of two, exactly.
                    Shl if b == Dep::Flat => a,
                    _ => flat_if(a == Dep::Flat && b == Dep::Flat),
                }
            }
            Num::Neg(x) => self.num(x),
            Num::Abs(x) | Num::Ones(x) | Num::Extreme { mask: x, .. } => {
                let flat = self.num(x) == Dep::Flat;
                flat_if(flat)
            }
            Num::Min(xs) | Num::Max(xs) => {
                let flat = xs.iter().all(|x| self.num(x) == Dep::Flat);
                flat_if(flat)
            }
            Num::TextLen(t) | Num::Find(t, ..) => flat_if(self.flat_text(t)),
            Num::Code(c) => flat_if(self.flat_char(c)),
            Num::IndexOf(seq, x) => {
                let flat = self.seq(seq) == Some(Dep::Flat) && self.num(x) == Dep::Flat;
                flat_if(flat)
            }
            Num::Fold(_, walk, element) => {
                let flat = self.walk(walk) == Some(Dep::Flat) && self.num(element) == Dep::Flat;
                flat_if(flat)
            }
            // The branch taken does not vary: the value is as affine as
            // both branches are.
            Num::If(c, a, b) if self.flat_truth(c) => self.num(a).max(self.num(b)),
            Num::If(..) | Num::Closure(_) => Dep::Other,
            Num::Let(bind, body) => {
                self.bind(bind);
                self.num(body)
            }
        }
    }

    /// How the items of a sequence depend on the tuple, where their
    /// number does not; `None` where it may.
    fn seq(&mut self, s: &Seq) -> Option<Dep> {
        match s {
            Seq::Range(lo, hi, _) => {
                (self.num(lo) == Dep::Flat && self.num(hi) == Dep::Flat).then_some(Dep::Flat)
            }
            Seq::Fields(_) | Seq::Items(_) => Some(Dep::Flat),
            Seq::Members(r, _) => (self.reg(*r) == Dep::Flat).then_some(Dep::Flat),
            Seq::Tuple(t) => Some(self.tuple(*t)).filter(|d| *d != Dep::Other),
            Seq::Made(made) => {
                self.made(made.tuple, &made.walk, &made.element);
                self.seq(&Seq::Tuple(made.tuple))
            }
        }
    }

    /// A walk whose values' number does not vary (the sequence's length
    /// and the guard), its variable bound to how its items depend on the
    /// tuple; `None` otherwise.
    fn walk(&mut self, w: &Walk) -> Option<Dep> {
        let items = self.seq(&w.over)?;
        self.regs.push((w.var, items));
        let guard = w.guard.as_ref().is_none_or(|g| self.flat_truth(g));
        guard.then_some(items)
    }

    /// A list worked out into tuple register `t`: its elements as affine
    /// as `element` is, where the walk makes the same number of them for
    /// every tuple.
    fn made(&mut self, t: u32, walk: &Walk, element: &Num) {
        let dep = match self.walk(walk) {
            Some(_) => self.num(element),
            None => Dep::Other,
        };
        self.tuples.push((t, dep));
    }

    fn bind(&mut self, bind: &Bind) {
        match bind {
            Bind::Num { reg, value, .. } => {
                let dep = self.num(value);
                self.regs.push((*reg, dep));
            }
            Bind::Letter { reg, value } => {
                let flat = self.flat_char(value);
                let dep = flat_if(flat);
                self.regs.push((*reg, dep));
            }
            Bind::Text { reg, value } => {
                if !self.flat_text(value) {
                    self.texts.push(*reg);
                }
            }
            Bind::List(made) => self.made(made.tuple, &made.walk, &made.element),
        }
    }

    fn flat_truth(&mut self, t: &Truth) -> bool {
        match t {
            Truth::Lit(_) | Truth::Has(..) => true,
            Truth::Not(x) => self.flat_truth(x),
            Truth::And(a, b) | Truth::Or(a, b) => self.flat_truth(a) && self.flat_truth(b),
            Truth::Compare(_, a, b) => self.num(a) == Dep::Flat && self.num(b) == Dep::Flat,
            Truth::In(_, n, _) => self.num(n) == Dep::Flat,
            Truth::Member(_, n, mask, _) => self.num(n) == Dep::Flat && self.num(mask) == Dep::Flat,
            Truth::SameChar(_, a, b) => self.flat_char(a) && self.flat_char(b),
            Truth::SameText(_, a, b) => self.flat_text(a) && self.flat_text(b),
            Truth::HasText(t, _) => self.flat_text(t),
            Truth::Each { walk, element, .. } => {
                self.walk(walk) == Some(Dep::Flat) && self.flat_truth(element)
            }
            Truth::Let(bind, body) => {
                self.bind(bind);
                self.flat_truth(body)
            }
            Truth::Closure(_) => false,
        }
    }

    /// Letters and strings are followed only as far as whether they read
    /// anything that varies (see `Touches`).
    fn flat_char(&mut self, c: &Char) -> bool {
        self.untouched(|v| reads::char(v, c))
    }

    fn flat_text(&mut self, t: &Text) -> bool {
        self.untouched(|v| reads::text(v, t))
    }

    fn untouched(&mut self, walk: impl FnOnce(&mut Touches)) -> bool {
        let mut touches = Touches {
            deps: self,
            touched: false,
        };
        walk(&mut touches);
        !touches.touched
    }

    /// Whether every field the writes set is affine in the tuple (and
    /// every place they set, and every list's length, does not vary).
    fn writes(&mut self, writes: &[Write]) -> bool {
        writes.iter().all(|w| self.write(w))
    }

    fn write(&mut self, w: &Write) -> bool {
        let affine = |d: Dep| d != Dep::Other;
        match w {
            Write::Scalar(_, n) => affine(self.num(n)),
            Write::Element(_, i, n) => self.num(i) == Dep::Flat && affine(self.num(n)),
            Write::Cell(_, i, c) => self.num(i) == Dep::Flat && self.flat_char(c),
            Write::Several(_, at, values) => {
                let at_flat = match at {
                    Indices::Tuple(t) => self.tuple(*t) == Dep::Flat,
                    Indices::Fields(_) => true,
                };
                at_flat && affine(self.tuple(*values))
            }
            Write::Whole(_, ns) => ns.iter().all(|n| affine(self.num(n))),
            // A walk over the tuple's elements writes them, each affine.
            Write::Comprehension { walk, element, .. } => {
                self.walk(walk).is_some()
                    && match element {
                        Element::Num(n) => affine(self.num(n)),
                        Element::Row(_, t) => self.flat_text(t),
                    }
            }
            Write::Text(_, t) => self.flat_text(t),
            Write::Row(_, i, t) => self.num(i) == Dep::Flat && self.flat_text(t),
            Write::Rows(_, ts) => ts.iter().all(|t| self.flat_text(t)),
            Write::Choose {
                test,
                then,
                otherwise,
            } => self.flat_truth(test) && self.writes(then) && self.writes(otherwise),
            Write::Appended(_, pieces) | Write::Sized { pieces, .. } => {
                pieces.iter().all(|piece| match piece {
                    Appended::One(n) => affine(self.num(n)),
                    Appended::Each(walk, n) => self.walk(walk).is_some() && affine(self.num(n)),
                })
            }
            Write::Each { walk, writes } => self.walk(walk).is_some() && self.writes(writes),
            Write::Fill(made) => {
                self.made(made.tuple, &made.walk, &made.element);
                true
            }
            Write::Bind(bind) => {
                self.bind(bind);
                true
            }
            // A turn reads the key being written, which varies.
            Write::Reversed(_)
            | Write::Sorted(..)
            | Write::Turned(..)
            | Write::Lanes(..)
            | Write::Closure(_) => false,
        }
    }
}

/// Whether a letter or string reads a register or string register that
/// varies; a tuple, a closure or a helper's argument bound inside it
/// counts as varying, to be safe.
struct Touches<'a> {
    deps: &'a mut Deps,
    touched: bool,
}

impl Visit for Touches<'_> {
    fn reg(&mut self, r: u32) {
        self.touched |= self.deps.reg(r) != Dep::Flat;
    }

    fn text_reg(&mut self, r: u32) {
        self.touched |= self.deps.texts.contains(&r);
    }

    fn element(&mut self, _: &Fields, i: &Num) {
        reads::num(self, i);
    }

    fn row(&mut self, _: &Fields, r: &Num, c: Option<&Num>) {
        reads::num(self, r);
        if let Some(c) = c {
            reads::num(self, c);
        }
    }

    fn fields(&mut self, _: &Fields) {}

    fn key(&mut self) {}

    fn opaque(&mut self) {
        self.touched = true;
    }

    fn set(&mut self, _: u32) {
        self.touched = true;
    }

    fn set_text(&mut self, _: u32) {
        self.touched = true;
    }
}

/// Products of more lists than this are walked tuple by tuple.
const MAX_LISTS: usize = 16;

/// The keys of a product of the ranges `ranges` (as pairs, the last
/// exclusive) from `key` at its least elements, which `tuple` holds,
/// counting up element `d` moving the key by `steps[d]`: one run for each
/// tuple of the elements before the last, in the product's order. The
/// tuple is left at its least elements.
#[inline]
pub(super) fn affine_keys(
    mut key: u64,
    (steps, ranges): (&[u64], &[i64]),
    tuple: &mut [i64],
    out: &mut Vec<u64>,
) {
    let Some(last) = steps.len().checked_sub(1) else {
        // The product of no lists: one empty tuple.
        out.push(key);
        return;
    };
    let len = |d: usize| (ranges[2 * d + 1] - ranges[2 * d]) as u64;
    loop {
        push_run(out, key, steps[last], len(last));
        // Count up the elements before the last, as `product` does.
        let mut d = last;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            tuple[d] += 1;
            key = key.wrapping_add(steps[d]);
            if tuple[d] < ranges[2 * d + 1] {
                break;
            }
            key = key.wrapping_sub(steps[d].wrapping_mul(len(d)));
            tuple[d] = ranges[2 * d];
        }
    }
}

impl Machine {
    /// The options of a rule whose last generator is a product whose
    /// tuple its keys are affine in (see `affine`), the product's ranges
    /// in scratch list `t` and `count` tuples in all (at least one): the
    /// keys at the corners, then one run for each tuple of the elements
    /// before the last, and `true`; `false` where walking the tuples one
    /// by one costs no more, or where the corners do not agree with one
    /// another (the loop then runs tuple by tuple).
    pub(super) fn product_runs(
        &mut self,
        rule: &Rule,
        t: usize,
        count: u64,
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        let ranges = std::mem::take(&mut self.scratch[t]);
        let made = self.corner_runs(rule, t, &ranges, count, out);
        self.scratch[t] = ranges;
        made
    }

    fn corner_runs(
        &mut self,
        rule: &Rule,
        t: usize,
        ranges: &[i64],
        count: u64,
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        let lists = ranges.len() / 2;
        if lists > MAX_LISTS {
            return Some(false);
        }
        let lo = |d: usize| ranges[2 * d];
        let hi = |d: usize| ranges[2 * d + 1];
        let len = |d: usize| (hi(d) - lo(d)) as u64;
        // The elements that take more than one value: a corner sets each
        // of them to its least or its largest value.
        let mut varying = [0usize; MAX_LISTS];
        let mut n = 0;
        for d in (0..lists).filter(|&d| len(d) > 1) {
            varying[n] = d;
            n += 1;
        }
        let varying = &varying[..n];
        // The corner of the least elements and those with one element at
        // its largest, then (where terms read several) every other one.
        let corners: u64 = match rule.product_runs? {
            Spread::Single => n as u64 + 1,
            Spread::Affine => 1 << n,
        };
        if 2 * corners > count {
            return Some(false);
        }
        let at_lo = |m: &mut Machine| {
            let tuple = &mut m.tuples[t];
            tuple.clear();
            tuple.extend((0..lists).map(lo));
        };
        at_lo(self);
        // The tests do not vary: as they are at one tuple, so at every one.
        let tests = rule.early.last().into_iter().flatten().chain(&rule.guard);
        for test in tests {
            if !self.truth(test)? {
                return Some(true);
            }
        }
        let first = self.rule_written(rule)?;
        let mut steps = [0u64; MAX_LISTS];
        for &d in varying {
            self.tuples[t][d] = hi(d) - 1;
            let far = self.rule_written(rule)?;
            self.tuples[t][d] = lo(d);
            let span = i128::from(far) - i128::from(first);
            let gaps = i128::from(len(d) - 1);
            if span % gaps != 0 {
                return Some(false);
            }
            let Ok(step) = i64::try_from(span / gaps) else {
                return Some(false);
            };
            steps[d] = step as u64;
        }
        if rule.product_runs == Some(Spread::Affine) {
            // Every other corner, made (so that what fails anywhere fails
            // there) and checked against the steps.
            for corner in (1..corners).filter(|c| c.count_ones() > 1) {
                let mut want = first;
                for (bit, &d) in varying.iter().enumerate() {
                    if corner >> bit & 1 == 1 {
                        self.tuples[t][d] = hi(d) - 1;
                        want = want.wrapping_add(steps[d].wrapping_mul(len(d) - 1));
                    }
                }
                let key = self.rule_written(rule)?;
                at_lo(self);
                if key != want {
                    return Some(false);
                }
            }
        }
        self.steps(usize::try_from(count).ok()?)?;
        affine_keys(first, (&steps[..lists], ranges), &mut self.tuples[t], out);
        Some(true)
    }
}

#[cfg(test)]
mod tests {
    use super::super::code::Spread;
    use super::super::testing::{compiled, inside, same_options};

    /// Whether each rule of the game in `text` was found affine in its
    /// product's tuple, at `position`.
    fn found(text: &str, position: &str) -> Vec<Option<Spread>> {
        let (game, _) = compiled(text, position, true);
        let rules = &inside(&*game).code.rules;
        rules.iter().map(|r| r.product_runs).collect()
    }

    /// Moore's Nim, its new piles written each way the language allows:
    /// the runs give every key the tuple-by-tuple loop gives, in order.
    #[test]
    fn new_piles_however_written_are_runs() {
        let helpers = "fn after(piles: [nat], chosen: [nat], left: [nat]) = \
              [if i in chosen then left[index_of(chosen, i)] else p for (i, p) in enumerate(piles)];\n\
            fn place(chosen: [nat], i: nat) = index_of(chosen, i);\n\
            fn kept(piles: [nat], chosen: [nat], left: [nat]) = \
              [if i not in chosen then piles[i] else left[place(chosen, i)] for i in 0..len(piles)];\n";
        use Spread::{Affine, Single};
        // The values taken back out of a `zip` are the tuple itself, and a
        // list remade place by place from a subset's places is that
        // `set_at` (see `put_back`): each is written as the shipped
        // `set_at(piles, chosen, left)` is.
        let shipped = found(
            "game M(k: nat, piles: [nat]) {\n  move take(chosen in subsets(indices(piles), 1, k), \
             left in product([0..piles[i] for i in chosen])) => M(k, set_at(piles, chosen, left));\n}\n",
            "M(2, [3, 2, 4])",
        );
        for (chosen, left, result, spread) in [
            ("indices(piles)", "[0..piles[i] for i in chosen]", "set_at(piles, chosen, [l for (_, l) in zip(chosen, left)])", shipped[0]),
            ("indices(piles)", "[0..piles[i] for i in chosen]", "after(piles, chosen, left)", shipped[0]),
            ("0..len(piles)", "[0..piles[i] for i in chosen]", "kept(piles, chosen, left)", shipped[0]),
            // Each pile less the amount taken at its place is set in
            // place as well (see `placed`).
            ("indices(piles)", "[1..=piles[i] for i in chosen]", "set_at(piles, chosen, [piles[i] - t for (i, t) in zip(chosen, left)])", shipped[0]),
            ("indices(piles)", "[1..=piles[i] for i in chosen]", "set_at(piles, chosen, [piles[i] - t - 0 for (i, t) in zip(chosen, left)])", Some(Single)),
            ("indices(piles)", "[0..piles[i] for i in chosen]", "set_at(piles, chosen, [2 * l - l + 0 * k for l in left])", Some(Affine)),
            ("indices(piles)", "[0..piles[i] for i in chosen]", "[p - (if i in chosen then p - left[index_of(chosen, i)] else 0) for (i, p) in enumerate(piles)]", Some(Single)),
        ] {
            let text = format!(
                "{helpers}game M(k: nat, piles: [nat]) {{\n  move take(chosen in subsets({chosen}, 1, k), \
                 left in product({left})) => M(k, {result});\n}}\n"
            );
            assert_eq!(found(&text, "M(2, [3, 2, 4])"), [spread], "{result}");
            assert!(same_options(&text, "M(2, [3, 2, 4])") > 50, "{result}");
            assert!(same_options(&text, "M(3, [2, 1, 3, 2])") > 70, "{result}");
        }
    }

    /// Two elements of the tuple in one field, a product of lists written
    /// out, a tuple element scaled and shifted: still affine.
    #[test]
    fn sums_and_multiples_of_the_elements_are_runs() {
        let text = "game R(a: nat, b: nat, c: nat) {\n  \
            move m(t in product([0..a, 0..=b])) if c >= 2 * a + 2 * b \
              => R(a - 1 - t[0], t[1], c - t[0] - 2 * t[1]);\n  \
            move n(t in product([0..a, 0..b])) => R(a - 1 - t[0], b - 1 - t[1], (t[0] + t[1]) << 1);\n}\n";
        assert_eq!(found(text, "R(4, 3, 40)"), [Some(Spread::Affine); 2]);
        assert!(same_options(text, "R(4, 3, 40)") > 100);
    }

    /// A guard that reads the tuple, a field set at a place the tuple
    /// gives, a product of two of its elements, an element read at a
    /// place that varies: not affine, walked tuple by tuple, and the
    /// same options either way.
    #[test]
    fn what_is_not_affine_is_walked_tuple_by_tuple() {
        let text = "game P(xs: [nat]) {\n  \
            move a(t in product([0..xs[0], 0..xs[1]])) if t[0] != t[1] => P(set_at(xs, 0, t[1]));\n  \
            move b(t in product([0..xs[0], 0..xs[1]])) => P(set_at(xs, t[0] % 3, t[1]));\n  \
            move c(t in product([0..xs[0], 0..xs[1]])) => P(set_at(xs, 1, t[0] * t[1] % 4));\n  \
            move d(t in product([0..xs[0], 0..2])) => P(set_at(xs, 0, t[t[1]]));\n  \
            move e(t in product([0..xs[0], 0..xs[1]])) => P(set_at(xs, 2, t[0] / 2));\n}\n";
        assert_eq!(found(text, "P([3, 3, 2])"), [None; 5]);
        assert!(same_options(text, "P([3, 3, 2])") > 10);
    }

    /// A field that leaves its range inside the box fails at a corner,
    /// where the tuple-by-tuple loop fails too: both give the position up.
    #[test]
    fn a_value_out_of_range_fails_at_a_corner() {
        let text = "game Q(a: nat, b: nat) {\n  \
            move m(t in product([0..=a, 0..=b])) => Q(a - t[0], b + t[1] - 2);\n}\n";
        assert_eq!(found(text, "Q(3, 4)"), [Some(Spread::Single)]);
        same_options(text, "Q(3, 4)");
    }
}
