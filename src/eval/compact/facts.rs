//! What a rule's writes know of its registers before they run: each
//! generator's value lies in its range, the guard holds, and inside a
//! branch of an `if` its test holds (or fails). A comparison those facts
//! decide is replaced by its answer and the branch it rules out dropped,
//! and a helper's number argument that is a register is read as that
//! register. In the language guide's Mock Turtles, `flip(flip(row, i), a)`
//! reads the coin at `a` of a row whose coin at `i` was turned: `if a == i
//! then <the turned coin> else row[a]`; in a branch where `a` is below `i`
//! that is `row[a]`, and the write becomes one the fast paths take.
//!
//! Only what is never worked out is dropped: the value of a comparison
//! the facts decide is the one the code would find, and no test that can
//! fail (a helper's argument checked to be natural) is taken away unless
//! the facts show it holds.

use super::code::{
    Appended, Bind, Char, Element, Gen, Num, Rule, Seq, Source, Target, Text, Truth, Walk, Write,
};
use super::layout::Fields;
use super::reads;
use crate::syntax::ast::BinaryOp;

/// A register or a literal: what the facts compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    Reg(u32),
    Lit(i64),
}

impl Node {
    fn num(self) -> Num {
        match self {
            Node::Reg(r) => Num::Reg(r),
            Node::Lit(v) => Num::Lit(v),
        }
    }
}

/// The values of `lo..end` at which `x op bound` holds, where they are
/// a range: the range, perhaps empty.
pub(super) fn passing(op: BinaryOp, bound: i64, (lo, end): (i64, i64)) -> Option<(i64, i64)> {
    Some(match op {
        BinaryOp::Lt => (lo, end.min(bound)),
        BinaryOp::Le => (lo, end.min(bound.checked_add(1)?)),
        BinaryOp::Gt => (lo.max(bound.checked_add(1)?), end),
        BinaryOp::Ge => (lo.max(bound), end),
        BinaryOp::Eq => (lo.max(bound), end.min(bound.checked_add(1)?)),
        BinaryOp::Ne if bound == lo => (lo.checked_add(1)?, end),
        BinaryOp::Ne if end.checked_sub(1) == Some(bound) => (lo, bound),
        _ => return None,
    })
}

/// A bound on numbers and the literals added to them within which a sum
/// of two cannot overflow: what makes `c + 1 < 6` the same test as `c <
/// 5`, and a range from `j + 1` one that cannot fail.
pub(super) const NEAR: i64 = 1 << 40;

/// `from <= to`, or `from < to` when `strict`.
#[derive(Clone, Copy, Debug)]
struct Edge {
    from: Node,
    to: Node,
    strict: bool,
}

/// The facts known at a point of the code.
#[derive(Clone, Default)]
struct Facts {
    edges: Vec<Edge>,
    unequal: Vec<(Node, Node)>,
    /// A helper's argument register read as the register it was given.
    aliases: Vec<(u32, u32)>,
}

/// `n` worked out with what it tells alone: a test of literals decided,
/// a packed row's length read off its grid.
pub(super) fn worked_alone(n: Num) -> Num {
    Facts::default().num(n)
}

/// The writes of `rule` with what its generators' ranges, its early tests
/// and its guard decide worked out.
pub fn simplify(rule: &mut Rule) {
    let mut facts = Facts::default();
    // Each range and each early test worked out with what the generators
    // before it and their tests tell.
    for (gen, early) in rule.gens.iter_mut().zip(&mut rule.early) {
        if let Source::Each(Seq::Range(lo, hi, inclusive)) = &mut gen.source {
            *lo = facts.num(std::mem::replace(lo, Num::Lit(0)));
            *hi = facts.num(std::mem::replace(hi, Num::Lit(0)));
            if let Some(last) = facts.last_of(hi, *inclusive) {
                (*hi, *inclusive) = (last, true);
            }
        }
        facts.generator(gen);
        *early = match early.take().map(|t| facts.truth(t)) {
            Some(Truth::Lit(true)) => None,
            t => t,
        };
        early.iter().for_each(|t| facts.hold(t));
    }
    // The guard is worked out with what the generators and early tests
    // tell, before it tells anything itself.
    rule.guard = match rule.guard.take().map(|g| facts.truth(g)) {
        Some(Truth::Lit(true)) => None,
        guard => guard,
    };
    facts.lift(rule);
    let dropped = facts.narrow(rule);
    // Narrowed ranges tell more than the ranges did.
    rule.gens.iter().for_each(|gen| facts.generator(gen));
    let mut facts = facts.early(&rule.early);
    rule.guard = rule.guard.take().map(|g| facts.truth(g));
    if let Some(guard) = &rule.guard {
        facts.hold(guard);
    }
    let writes = std::mem::take(&mut rule.writes);
    rule.writes = facts.writes(writes);
    facts.order_writes(rule);
    // A generator no longer walked is set where the guard is made, if
    // anything still reads it.
    for (reg, value) in dropped {
        let read = |r: Option<Vec<u32>>| r.is_none_or(|regs| regs.contains(&reg));
        let guard = rule.guard.as_ref();
        let in_guard = guard.is_some_and(|g| read(reads::outside(|v| reads::truth(v, g))));
        let in_writes = rule
            .writes
            .iter()
            .any(|w| read(reads::outside(|v| reads::write(v, w))));
        if in_guard || in_writes {
            let bind = Bind::Num {
                reg,
                value,
                nat: false,
            };
            let guard = rule.guard.take().unwrap_or(Truth::Lit(true));
            rule.guard = Some(Truth::Let(Box::new(bind), Box::new(guard)));
        }
    }
}

impl Facts {
    /// Narrows each generator's range to the values where the first test
    /// made right after it holds, when that test compares it with the
    /// range's end (a test made before any later loop, or the guard of
    /// the last, so the values left out made nothing); and stops walking
    /// last generators of one value (as a rule of a branch's end has, see
    /// `peel`), read as the registers that hold it from then on. Gives
    /// the registers no longer walked and their values, the last
    /// generator first.
    fn narrow(&mut self, rule: &mut Rule) -> Vec<(u32, Num)> {
        for d in 0..rule.gens.len() {
            let outside = self.outside(rule, d);
            outside.cut_at(rule, d);
            while outside.ordered_at(rule, d).is_some() {}
            outside.narrow_at(rule, d);
        }
        let mut dropped = Vec::new();
        while let Some(last) = rule.gens.len().checked_sub(1) {
            let outside = self.outside(rule, last);
            let Some((x, lo, hi, true)) = outside.range(rule, last) else {
                break;
            };
            match hi {
                Node::Reg(r) if outside.same(lo, hi) => {
                    rule.gens.pop();
                    let early = rule.early.pop().flatten();
                    rule.guard = Truth::all(early.into_iter().chain(rule.guard.take()).collect());
                    self.aliases.push((x, r));
                    dropped.push((x, Num::Reg(r)));
                }
                _ => break,
            }
        }
        dropped
    }

    /// What the generators before `d` tell, with these facts' aliases:
    /// what holds of `d`'s range whether or not it is empty.
    fn outside(&self, rule: &Rule, d: usize) -> Facts {
        let mut facts = Facts {
            aliases: self.aliases.clone(),
            ..Facts::default()
        };
        rule.gens[..d].iter().for_each(|g| facts.generator(g));
        facts
    }

    /// Generator `d`'s register and the ends of its range, and whether
    /// it holds its end, where they are registers or literals.
    fn range(&self, rule: &Rule, d: usize) -> Option<(u32, Node, Node, bool)> {
        match rule.gens.get(d)? {
            Gen {
                target: Target::Reg(x),
                source: Source::Each(Seq::Range(lo, hi, inclusive)),
            } => Some((*x, self.node(lo)?, self.node(hi)?, *inclusive)),
            _ => None,
        }
    }

    /// Moves each test made after a generator that does not read its
    /// variable to the tests made after the generator before, where
    /// neither it nor the tests it passes can fail and the generator's
    /// walk cannot fail: tested once rather than for every value, with the
    /// same options (Cram's `r + 1 < len(g)` of `move down((r, c) in
    /// cells(g, "."))`, made before the walk over `c`).
    fn lift(&self, rule: &mut Rule) {
        for d in (1..rule.gens.len()).rev() {
            let Target::Reg(x) = rule.gens[d].target else {
                continue;
            };
            if !super::early::cannot_fail(&rule.gens[d].source, &rule.gens[..d]) {
                continue;
            }
            let Some(tests) = rule.tests_after(d) else {
                continue;
            };
            let Some(chain) = tests.take() else {
                continue;
            };
            let mut conjuncts = Vec::new();
            chain.conjuncts(&mut conjuncts);
            let (mut kept, mut moved) = (Vec::new(), Vec::new());
            let mut passable = true;
            for t in conjuncts {
                let safe = self.cannot_fail(&t);
                let reads = reads::outside(|v| reads::truth(v, &t));
                if passable && safe && reads.is_some_and(|regs| !regs.contains(&x)) {
                    moved.push(t);
                } else {
                    passable &= safe;
                    kept.push(t);
                }
            }
            *tests = Truth::all(kept);
            if !moved.is_empty() {
                let before = rule.early[d - 1].take();
                rule.early[d - 1] = Truth::all(before.into_iter().chain(moved).collect());
            }
        }
    }

    /// The writes of single elements and letters put in the order of the
    /// loops they read, outer first, where two at places the facts show
    /// apart trade places: each value is worked out from the position as
    /// it was, so their order tells only which of two writes at one place
    /// stays. Mock Turtles' `set_at(coins, left + [i], ...)` sets the coin
    /// at `i` last; set first, it is made once for each `i` (see
    /// `hoist`).
    fn order_writes(&self, rule: &mut Rule) {
        let depth = |w: &Write| -> usize {
            let Some(regs) = reads::outside(|v| reads::write(v, w)) else {
                return usize::MAX;
            };
            let at = |r: &u32| rule.gens.iter().position(|g| g.target == Target::Reg(*r));
            regs.iter().filter_map(at).max().map_or(0, |d| d + 1)
        };
        let place = |w: &Write| match w {
            Write::Element(f, i, _) | Write::Cell(f, i, _) => Some((f.first, self.node(i)?)),
            _ => None,
        };
        let apart = |a: &Write, b: &Write| match (place(a), place(b)) {
            (Some((f, x)), Some((g, y))) => f == g && self.decide(BinaryOp::Ne, x, y) == Some(true),
            _ => false,
        };
        let writes = &mut rule.writes;
        for end in (1..writes.len()).rev() {
            for i in 0..end {
                if depth(&writes[i + 1]) < depth(&writes[i]) && apart(&writes[i], &writes[i + 1]) {
                    writes.swap(i, i + 1);
                }
            }
        }
    }

    /// Generator `d`'s range between literals cut to the values where a
    /// comparison of it with a literal holds (`c < 5` of `c in 0..6`),
    /// that comparison the first test made after it that can fail, or
    /// that only tests which cannot fail come before: the values left out
    /// would have made nothing.
    fn cut_at(&self, rule: &mut Rule, d: usize) -> Option<()> {
        let Gen {
            target: Target::Reg(x),
            source: Source::Each(Seq::Range(Num::Lit(lo), Num::Lit(hi), inclusive)),
        } = &rule.gens[d]
        else {
            return None;
        };
        let (x, lo) = (Node::Reg(*x), *lo);
        let hi = hi.checked_add(i64::from(*inclusive))?;
        let mut inside = self.clone();
        inside.generator(&rule.gens[d]);
        let tests = rule.tests_after(d)?;
        let mut conjuncts = Vec::new();
        tests.as_ref()?.and_chain(&mut conjuncts);
        let cut = conjuncts.iter().position(|t| {
            let compared = inside.compared(t);
            compared.is_some_and(|(_, a, b)| {
                matches!((a, b), (_, Node::Lit(_)) | (Node::Lit(_), _)) && (a == x || b == x)
            }) || !inside.cannot_fail(t)
        })?;
        let (op, a, b) = inside.compared(conjuncts[cut])?;
        // As `x op bound`.
        let (op, bound) = match (a, b) {
            (a, Node::Lit(v)) if a == x => (op, v),
            (Node::Lit(v), b) if b == x => (turned(op), v),
            _ => return None,
        };
        let (lo, hi) = passing(op, bound, (lo, hi))?;
        let mut kept = Vec::new();
        tests.take()?.conjuncts(&mut kept);
        kept.remove(cut);
        *tests = Truth::all(kept);
        let range = Seq::Range(Num::Lit(lo), Num::Lit(hi.max(lo)), false);
        rule.gens[d].source = Source::Each(range);
        Some(())
    }

    /// Generator `d`'s range narrowed by the first test made after it,
    /// where that test compares its variable with a register or literal
    /// set before it by `<`, `<=`, `>` or `>=`: the values the test turns
    /// away are not walked (`j in indices(h)` with `i < j` walks from
    /// `i + 1`), so neither the test nor a search for where it changes
    /// (see `monotone`) is made. The new end is the other side itself
    /// where the facts show it lies within the range, else the nearer of
    /// the two. A comparison of registers and literals cannot fail, so
    /// the options are the same.
    fn ordered_at(&self, rule: &mut Rule, d: usize) -> Option<()> {
        use BinaryOp::*;
        let compared = {
            let tests = rule.tests_after(d)?;
            let mut conjuncts = Vec::new();
            tests.as_ref()?.and_chain(&mut conjuncts);
            self.compared(conjuncts.first()?)?
        };
        let (x, lo, hi, inclusive) = match &rule.gens[d] {
            Gen {
                target: Target::Reg(x),
                source: Source::Each(Seq::Range(lo, hi, inclusive)),
            } => (Node::Reg(*x), lo, hi, *inclusive),
            _ => return None,
        };
        // As `x op y`.
        let (op, y) = match compared {
            (op, a, y) if a == x && y != x => (op, y),
            (op, y, b) if b == x && y != x => (turned(op), y),
            _ => return None,
        };
        let after = |y: Node| match y {
            Node::Lit(v) => v.checked_add(1).map(Num::Lit),
            Node::Reg(r) => Some(Num::Binary(
                Add,
                Box::new(Num::Reg(r)),
                Box::new(Num::Lit(1)),
            )),
        };
        // The range as `lo..end`, `end` past its last value.
        let end = |hi: &Num| match (inclusive, self.node(hi)) {
            (false, _) => Some(hi.copy()?),
            (true, Some(Node::Lit(v))) => v.checked_add(1).map(Num::Lit),
            (true, _) => Some(Num::Binary(
                Add,
                Box::new(hi.copy()?),
                Box::new(Num::Lit(1)),
            )),
        };
        let within_lo = self.node(lo).is_some_and(|lo| self.order(lo, y).is_some());
        let within_hi = self.node(hi).is_some_and(|hi| match inclusive {
            true => self.order(y, hi).is_some(),
            false => self.order(y, hi) == Some(true),
        });
        let range = match op {
            Gt | Ge => {
                let first = if op == Gt { after(y)? } else { y.num() };
                let lo = match within_lo {
                    true => first,
                    false => Num::Max(vec![lo.copy()?, first]),
                };
                Seq::Range(lo, hi.copy()?, inclusive)
            }
            Lt | Le => {
                let last = if op == Lt { y.num() } else { after(y)? };
                let end = match (op, within_hi) {
                    (Le, true) => {
                        return self.narrowed(rule, d, Seq::Range(lo.copy()?, y.num(), true))
                    }
                    (_, true) => last,
                    (_, false) => Num::Min(vec![end(hi)?, last]),
                };
                Seq::Range(lo.copy()?, end, false)
            }
            _ => return None,
        };
        self.narrowed(rule, d, range)
    }

    /// Generator `d` walks `range`, and the first test after it, which
    /// the range now keeps, is no longer made.
    fn narrowed(&self, rule: &mut Rule, d: usize, range: Seq) -> Option<()> {
        let tests = rule.tests_after(d)?;
        let mut kept = Vec::new();
        tests.take()?.conjuncts(&mut kept);
        kept.remove(0);
        *tests = Truth::all(kept);
        rule.gens[d].source = Source::Each(range);
        Some(())
    }

    /// Whether working out `t` cannot fail: comparisons of registers and
    /// literals, and letters read at places the facts keep inside.
    fn cannot_fail(&self, t: &Truth) -> bool {
        let char_safe = |c: &Char| match c {
            Char::Code(_) | Char::Reg(_) => true,
            Char::Cell(f, i) => self.node(i).is_some_and(|i| self.within(i, f.len)),
            Char::GridCell(rows, r, c) => {
                let r = self
                    .node(r)
                    .is_some_and(|r| self.within(r, rows.fields.len));
                r && self.node(c).is_some_and(|c| self.within(c, rows.cols))
            }
            _ => false,
        };
        match t {
            Truth::Lit(_) => true,
            Truth::Compare(_, a, b) => self.node(a).is_some() && self.node(b).is_some(),
            Truth::SameChar(_, a, b) => char_safe(a) && char_safe(b),
            _ => false,
        }
    }

    /// Generator `d`'s range narrowed by the first test made after it
    /// (see `narrow`), if that test compares it with the end by `==` or
    /// `!=` (`<` and `>=` are left to the bounds that find where a test
    /// that changes once holds, see `monotone`).
    fn narrow_at(&self, rule: &mut Rule, d: usize) -> Option<()> {
        let (x, lo, hi, true) = self.range(rule, d)? else {
            return None;
        };
        let tests = rule.tests_after(d)?;
        let mut conjuncts = Vec::new();
        tests.take()?.conjuncts(&mut conjuncts);
        let x = Node::Reg(x);
        let at_end = match conjuncts.first().and_then(|t| self.compared(t)) {
            Some((op @ (BinaryOp::Eq | BinaryOp::Ne), a, b))
                if (a == x && self.same(b, hi)) || (b == x && self.same(a, hi)) =>
            {
                end_test(op)
            }
            _ => None,
        };
        // The end alone only where the range is not empty.
        let at_end = at_end.filter(|&end| !end || self.order(lo, hi).is_some());
        if at_end.is_some() {
            conjuncts.remove(0);
        }
        *tests = Truth::all(conjuncts);
        let seq = match at_end? {
            true => Seq::Range(hi.num(), hi.num(), true),
            false => Seq::Range(lo.num(), hi.num(), false),
        };
        rule.gens[d].source = Source::Each(seq);
        Some(())
    }

    /// Whether `a` and `b` are known to be equal.
    fn same(&self, a: Node, b: Node) -> bool {
        self.order(a, b).is_some() && self.order(b, a).is_some()
    }

    /// These facts and what the early tests tell.
    fn early(&self, early: &[Option<Truth>]) -> Facts {
        let mut facts = self.clone();
        early.iter().flatten().for_each(|t| facts.hold(t));
        facts
    }

    /// What each comparison of `t`'s `and` chain tells, `t` known to hold.
    fn hold(&mut self, t: &Truth) {
        let mut tests = Vec::new();
        t.and_chain(&mut tests);
        for t in tests {
            if let Some((op, a, b)) = self.compared(t) {
                self.assume(op, a, b, true);
            }
        }
    }

    fn generator(&mut self, gen: &Gen) {
        let (Target::Reg(r), Source::Each(Seq::Range(lo, hi, inclusive))) =
            (gen.target, &gen.source)
        else {
            return;
        };
        let x = Node::Reg(r);
        // A range that starts past a register (see `ordered_at`).
        let past = match lo {
            Num::Binary(BinaryOp::Add, a, one) if matches!(**one, Num::Lit(1)) => self.node(a),
            _ => None,
        };
        if let Some(before) = past {
            self.edges.push(Edge {
                from: before,
                to: x,
                strict: true,
            });
        }
        if let Some(lo) = self.node(lo) {
            self.edges.push(Edge {
                from: lo,
                to: x,
                strict: false,
            });
        }
        if let Some(hi) = self.node(hi) {
            self.edges.push(Edge {
                from: x,
                to: hi,
                strict: !inclusive,
            });
        }
    }

    fn node(&self, n: &Num) -> Option<Node> {
        match n {
            Num::Lit(v) => Some(Node::Lit(*v)),
            Num::Reg(r) => Some(Node::Reg(self.alias(*r))),
            _ => None,
        }
    }

    fn alias(&self, r: u32) -> u32 {
        self.aliases
            .iter()
            .find(|(from, _)| *from == r)
            .map_or(r, |(_, to)| *to)
    }

    /// `t` as a comparison of two registers or literals, if it is one.
    fn compared(&self, t: &Truth) -> Option<(BinaryOp, Node, Node)> {
        match t {
            Truth::Compare(op, a, b) => Some((*op, self.node(a)?, self.node(b)?)),
            _ => None,
        }
    }

    /// `a op b` known to hold (`holds`) or to fail.
    fn assume(&mut self, op: BinaryOp, a: Node, b: Node, holds: bool) {
        use BinaryOp::*;
        let op = if holds {
            op
        } else {
            match op {
                Eq => Ne,
                Ne => Eq,
                Lt => Ge,
                Le => Gt,
                Gt => Le,
                Ge => Lt,
                _ => return,
            }
        };
        let mut edge = |from, to, strict| self.edges.push(Edge { from, to, strict });
        match op {
            Eq => {
                edge(a, b, false);
                edge(b, a, false);
            }
            Lt => edge(a, b, true),
            Le => edge(a, b, false),
            Gt => edge(b, a, true),
            Ge => edge(b, a, false),
            Ne => {
                // Unequal and in order: strictly in order.
                for (from, to) in [(a, b), (b, a)] {
                    if self.order(from, to) == Some(false) {
                        self.edges.push(Edge {
                            from,
                            to,
                            strict: true,
                        });
                    }
                }
                self.unequal.push((a, b));
            }
            _ => {}
        }
    }

    /// Whether `a <= b` follows from the facts: `Some(true)` when `a < b`
    /// does.
    fn order(&self, a: Node, b: Node) -> Option<bool> {
        if a == b {
            return Some(false);
        }
        // Every node reached from `a`, and whether strictly.
        let mut reached: Vec<(Node, bool)> = vec![(a, false)];
        let mut next = 0;
        while next < reached.len() {
            let (at, strict) = reached[next];
            next += 1;
            let steps = self.edges.iter().filter_map(|e| {
                let step = match (at, e.from) {
                    _ if at == e.from => Some(false),
                    (Node::Lit(x), Node::Lit(y)) if x <= y => Some(x < y),
                    _ => None,
                };
                step.map(|s| (e.to, strict || s || e.strict))
            });
            let found: Vec<_> = steps.collect();
            for (to, strict) in found {
                let seen = reached.iter().position(|(n, _)| *n == to);
                match seen {
                    Some(i) if reached[i].1 || !strict => {}
                    Some(i) => reached[i].1 = true,
                    None => reached.push((to, strict)),
                }
            }
        }
        // Below a literal, strictly, is at most the number before it: the
        // registers hold whole numbers.
        let direct = |x: Node, strict: bool| match (x, b) {
            (x, b) if x == b => Some(strict),
            (Node::Lit(x), Node::Lit(y)) if x <= y => Some(strict || x < y),
            (Node::Lit(x), Node::Lit(y)) if strict && x.checked_sub(1)? <= y => Some(x - 1 < y),
            _ => None,
        };
        reached
            .iter()
            .filter_map(|&(n, strict)| direct(n, strict))
            .reduce(|a, b| a || b)
    }

    /// The answer of `a op b`, where the facts decide it.
    fn decide(&self, op: BinaryOp, a: Node, b: Node) -> Option<bool> {
        use BinaryOp::*;
        let unequal = || {
            self.order(a, b) == Some(true)
                || self.order(b, a) == Some(true)
                || self
                    .unequal
                    .iter()
                    .any(|&(x, y)| (x, y) == (a, b) || (x, y) == (b, a))
        };
        let at_most = |x, y| self.order(x, y).is_some();
        let below = |x, y| self.order(x, y) == Some(true);
        match op {
            Eq | Ne => {
                let same = if at_most(a, b) && at_most(b, a) {
                    Some(true)
                } else if unequal() {
                    Some(false)
                } else {
                    None
                };
                same.map(|s| s == (op == Eq))
            }
            Lt if below(a, b) => Some(true),
            Lt if at_most(b, a) => Some(false),
            Le if at_most(a, b) => Some(true),
            Le if below(b, a) => Some(false),
            Gt => self.decide(Lt, b, a),
            Ge => self.decide(Le, b, a),
            _ => None,
        }
    }

    /// What `t` is known to be, and the facts inside each branch it
    /// chooses between.
    fn test(&self, t: Truth) -> (Truth, Option<[Facts; 2]>) {
        let t = self.truth(t);
        let Some((op, a, b)) = self.compared(&t) else {
            return (t, None);
        };
        let mut then = self.clone();
        then.assume(op, a, b, true);
        let mut otherwise = self.clone();
        otherwise.assume(op, a, b, false);
        (t, Some([then, otherwise]))
    }

    /// `if t then a else b` with what the facts know: the branch taken
    /// when they decide `t`, else both branches with what `t` tells.
    fn choose<T>(
        &self,
        t: Truth,
        a: T,
        b: T,
        each: impl Fn(&Facts, T) -> T,
    ) -> Result<T, (Truth, T, T)> {
        match self.test(t) {
            (Truth::Lit(true), _) => Ok(each(self, a)),
            (Truth::Lit(false), _) => Ok(each(self, b)),
            (t, Some([then, otherwise])) => Err((t, each(&then, a), each(&otherwise, b))),
            (t, None) => Err((t, each(self, a), each(self, b))),
        }
    }

    fn writes(&self, writes: Vec<Write>) -> Vec<Write> {
        let mut out = Vec::with_capacity(writes.len());
        // A register bound to another is read as that one by the writes
        // after it.
        let mut facts = self.clone();
        for w in writes {
            match w {
                Write::Choose {
                    test,
                    then,
                    otherwise,
                } => match facts.choose(test, then, otherwise, |f, ws| f.writes(ws)) {
                    Ok(taken) => out.extend(taken),
                    Err((test, then, otherwise)) => out.push(Write::Choose {
                        test,
                        then,
                        otherwise,
                    }),
                },
                Write::Cell(f, i, c) => out.push(Write::Cell(f, facts.num(i), facts.char(c))),
                Write::Element(f, i, n) => out.push(Write::Element(f, facts.num(i), facts.num(n))),
                Write::Scalar(f, n) => out.push(Write::Scalar(f, facts.num(n))),
                Write::Text(f, t) => out.push(Write::Text(f, facts.text(t))),
                Write::Row(rows, i, t) => out.push(Write::Row(rows, facts.num(i), facts.text(t))),
                Write::Appended(f, pieces) => out.push(facts.appended(f, pieces)),
                Write::Sized {
                    items,
                    length,
                    pieces,
                } => out.push(facts.sized((items, length), pieces)),
                Write::Bind(Bind::Num {
                    reg,
                    value: Num::Reg(x),
                    nat,
                }) => {
                    facts.aliases.push((reg, facts.alias(x)));
                    out.push(Write::Bind(Bind::Num {
                        reg,
                        value: Num::Reg(x),
                        nat,
                    }));
                }
                Write::Bind(Bind::Text { reg, value }) => out.push(Write::Bind(Bind::Text {
                    reg,
                    value: facts.text(value),
                })),
                w => out.push(w),
            }
        }
        out
    }

    /// A list written in pieces with what the facts know; two walks that
    /// lie side by side over the whole list (`slice(h, 0, c) + [min(x, t)
    /// for x in slice(h, c, len(h))]`, `c` known to be on the list) as the
    /// one walk over its places that chooses between them, `if j < c then
    /// h[j] else min(h[j], t)`: the same elements in the same order, in
    /// the shape whose parts a loop works out once (see `split`).
    fn appended(&self, f: Fields, pieces: Vec<Appended>) -> Write {
        let pieces = self.pieces(pieces);
        let end = Node::Lit(i64::from(f.len));
        match self.side_by_side(pieces, |from, to| from == Node::Lit(0) && to == end) {
            Ok((walk, element)) => Write::Comprehension {
                fields: f,
                walk,
                element: Element::Num(element),
            },
            Err(pieces) => Write::Appended(f, pieces),
        }
    }

    /// A list whose length changes written in pieces, as `appended`: two
    /// walks side by side over any places (`slice(rows, 0, i) + [min(r,
    /// j) for r in slice(rows, i, len(rows))]`) as one.
    fn sized(&self, (items, length): (Fields, Fields), pieces: Vec<Appended>) -> Write {
        let pieces = self.pieces(pieces);
        let pieces = match self.side_by_side(pieces, |_, _| true) {
            Ok((walk, element)) => vec![Appended::Each(Box::new(walk), element)],
            Err(pieces) => pieces,
        };
        Write::Sized {
            items,
            length,
            pieces,
        }
    }

    fn pieces(&self, pieces: Vec<Appended>) -> Vec<Appended> {
        pieces
            .into_iter()
            .map(|piece| match piece {
                Appended::One(n) => Appended::One(self.num(n)),
                Appended::Each(mut walk, n) => {
                    if let Seq::Range(lo, hi, inclusive) = walk.over {
                        walk.over = Seq::Range(self.num(lo), self.num(hi), inclusive);
                    }
                    Appended::Each(walk, self.num(n))
                }
            })
            .collect()
    }

    /// Two walks `a..x` and `x..d` with no filter, `x` known to lie
    /// between `a` and `d` and the ends as `ends` wants them, as the one
    /// walk over `a..d` and its element; the pieces as they were where
    /// they are not so.
    fn side_by_side(
        &self,
        mut pieces: Vec<Appended>,
        ends: impl Fn(Node, Node) -> bool,
    ) -> Result<(Walk, Num), Vec<Appended>> {
        let split = match &pieces[..] {
            [Appended::Each(below, _), Appended::Each(above, _)]
                if below.guard.is_none() && above.guard.is_none() =>
            {
                match (&below.over, &above.over) {
                    (Seq::Range(a, b, false), Seq::Range(c, d, false)) => {
                        match [a, b, c, d].map(|n| self.node(n)) {
                            [Some(from), Some(x), Some(y), Some(to)]
                                if x == y
                                    && ends(from, to)
                                    && self.order(from, x).is_some()
                                    && self.order(x, to).is_some() =>
                            {
                                Some((x, from, to))
                            }
                            _ => None,
                        }
                    }
                    _ => None,
                }
            }
            _ => None,
        };
        let Some((split, from, to)) = split else {
            return Err(pieces);
        };
        let (Some(Appended::Each(above, later)), Some(Appended::Each(below, first))) =
            (pieces.pop(), pieces.pop())
        else {
            return Err(pieces);
        };
        let var = below.var;
        // The second walk's variable is the place, read through a copy.
        let copy = Bind::Num {
            reg: above.var,
            value: Num::Reg(var),
            nat: false,
        };
        let element = Num::If(
            Box::new(Truth::Compare(BinaryOp::Lt, Num::Reg(var), split.num())),
            Box::new(first),
            Box::new(self.num(Num::Let(Box::new(copy), Box::new(later)))),
        );
        let walk = Walk {
            var,
            over: Seq::Range(from.num(), to.num(), false),
            guard: None,
        };
        Ok((walk, element))
    }

    /// A `max` (`largest`) or `min` with the numbers the facts show
    /// another one passes left out: `min(c, 6)` is `c` where `c` is below
    /// 6. Only registers and literals are left out, which cannot fail.
    fn extreme(&self, xs: Vec<Num>, largest: bool) -> Num {
        let xs: Vec<Num> = xs.into_iter().map(|x| self.num(x)).collect();
        let nodes: Vec<Option<Node>> = xs.iter().map(|x| self.node(x)).collect();
        // Whether `b` is known to be at least as far out as `a`.
        let passes = |a: Node, b: Node| match largest {
            true => self.order(a, b).is_some(),
            false => self.order(b, a).is_some(),
        };
        // Of two numbers known equal, the first stays.
        let outdone = |i: usize, a: Node| {
            nodes
                .iter()
                .enumerate()
                .any(|(j, b)| b.is_some_and(|b| j != i && passes(a, b) && (j < i || !passes(b, a))))
        };
        let mut kept: Vec<Num> = xs
            .into_iter()
            .zip(&nodes)
            .enumerate()
            .filter(|(i, (_, node))| !node.is_some_and(|a| outdone(*i, a)))
            .map(|(_, (x, _))| x)
            .collect();
        match (kept.len(), largest) {
            (1, _) => kept.pop().unwrap_or(Num::Lit(0)),
            (_, true) => Num::Max(kept),
            (_, false) => Num::Min(kept),
        }
    }

    fn num(&self, n: Num) -> Num {
        match n {
            Num::Max(xs) if !xs.is_empty() => self.extreme(xs, true),
            Num::Min(xs) if !xs.is_empty() => self.extreme(xs, false),
            Num::Reg(r) => Num::Reg(self.alias(r)),
            Num::Field(f, i) => Num::Field(f, Box::new(self.num(*i))),
            Num::Binary(op, a, b) => match (op, self.num(*a), self.num(*b)) {
                // Literals added, taken away or multiplied, where that
                // cannot overflow: the number they make.
                (BinaryOp::Add, Num::Lit(x), Num::Lit(y)) if x.checked_add(y).is_some() => {
                    Num::Lit(x + y)
                }
                (BinaryOp::Sub, Num::Lit(x), Num::Lit(y)) if x.checked_sub(y).is_some() => {
                    Num::Lit(x - y)
                }
                (BinaryOp::Mul, Num::Lit(x), Num::Lit(y)) if x.checked_mul(y).is_some() => {
                    Num::Lit(x * y)
                }
                // Nothing added or taken away (a turned grid's offset).
                (BinaryOp::Add, Num::Lit(0), x)
                | (BinaryOp::Add | BinaryOp::Sub, x, Num::Lit(0)) => x,
                (op, a, b) => self.sum(op, a, b),
            },
            Num::If(t, a, b) => match self.choose(*t, *a, *b, |f, n| f.num(n)) {
                Ok(n) => n,
                Err((t, a, b)) => Num::If(Box::new(t), Box::new(a), Box::new(b)),
            },
            Num::Let(bind, body) => self.helper(
                *bind,
                *body,
                |f, x| f.num(x),
                reads::num,
                |b, x| Num::Let(Box::new(b), Box::new(x)),
            ),
            // Every row of a packed grid is as long as the grid is wide.
            Num::TextLen(text) => match *text {
                Text::Row(f, cols, i) => {
                    let i = self.num(*i);
                    match self.node(&i) {
                        Some(i) if self.within(i, f.len) => Num::Lit(i64::from(cols)),
                        _ => Num::TextLen(Box::new(Text::Row(f, cols, Box::new(i)))),
                    }
                }
                text => match self.letters(&text) {
                    Some(n) => Num::Lit(n),
                    None => Num::TextLen(Box::new(text)),
                },
            },
            n => n,
        }
    }

    /// A string with the `if`s the facts decide taken (a run of letters
    /// set where it is known to lie on the string, see `spliced`).
    fn text(&self, t: Text) -> Text {
        match t {
            Text::If(t, a, b) => match self.choose(*t, *a, *b, |f, x| f.text(x)) {
                Ok(x) => x,
                Err((t, a, b)) => Text::If(Box::new(t), Box::new(a), Box::new(b)),
            },
            Text::Let(bind, body) => self.helper(
                *bind,
                *body,
                |f, x| f.text(x),
                reads::text,
                |b, x| Text::Let(Box::new(b), Box::new(x)),
            ),
            Text::SetAt(t, i, v) => Text::SetAt(
                Box::new(self.text(*t)),
                Box::new(self.num(*i)),
                Box::new(self.text(*v)),
            ),
            Text::Concat(a, b) => Text::Concat(Box::new(self.text(*a)), Box::new(self.text(*b))),
            t => t,
        }
    }

    /// How many letters `t` holds, where that is known and reading it
    /// cannot fail: a cell of a packed grid at a place the facts keep on
    /// it, a helper's letter, letters written out, and such strings joined.
    fn letters(&self, t: &Text) -> Option<i64> {
        // `x + k` with `-k <= x < len - k`: on the string, with no
        // overflow on the way.
        let on = |n: &Num, len: u32| {
            let (x, k) = match n {
                Num::Binary(BinaryOp::Add, a, b) => match (&**a, &**b) {
                    (Num::Lit(k), x) | (x, Num::Lit(k)) if k.abs() < NEAR => (x, *k),
                    _ => return false,
                },
                Num::Binary(BinaryOp::Sub, x, k) => match **k {
                    Num::Lit(k) if k.abs() < NEAR => (&**x, -k),
                    _ => return false,
                },
                x => (x, 0),
            };
            self.node(x).is_some_and(|x| {
                self.order(Node::Lit(-k), x).is_some()
                    && self.order(x, Node::Lit(i64::from(len) - k)) == Some(true)
            })
        };
        match t {
            Text::At(row, i) => match &**row {
                Text::Row(f, cols, r) if on(r, f.len) && on(i, *cols) => Some(1),
                _ => None,
            },
            Text::Letter(_) => Some(1),
            Text::Lit(Some((_, n))) => Some(i64::from(*n)),
            Text::Concat(a, b) => self.letters(a)?.checked_add(self.letters(b)?),
            _ => None,
        }
    }

    /// The last value of a range whose end `hi` (not held) is a register
    /// or literal plus one (`0..i + 1`, `0..1 + i`) that the facts keep
    /// far from overflow: the range `lo..=last` holds the same values.
    fn last_of(&self, hi: &Num, inclusive: bool) -> Option<Num> {
        let Num::Binary(BinaryOp::Add, a, b) = hi else {
            return None;
        };
        let last = match (&**a, &**b) {
            (x, Num::Lit(1)) | (Num::Lit(1), x) => x,
            _ => return None,
        };
        let last = self.node(last)?;
        let near = self.order(last, Node::Lit(NEAR)).is_some();
        (!inclusive && near).then(|| last.num())
    }

    /// `a op b`, where a literal added to a register and another added or
    /// taken away (`c + 1 - d` with `d` put at 1) are one literal: where
    /// the facts keep the register so small that no sum overflows.
    fn sum(&self, op: BinaryOp, a: Num, b: Num) -> Num {
        if let (BinaryOp::Add | BinaryOp::Sub, Num::Binary(inner, x, k), Num::Lit(j)) = (op, &a, &b)
        {
            if let Some((x, k)) = self.shifted(*inner, x, k).filter(|_| j.abs() < NEAR) {
                let total = if op == BinaryOp::Add { k + j } else { k - j };
                let literal = |t: i64| Box::new(Num::Lit(t));
                return match total {
                    0 => x.num(),
                    t if t > 0 => Num::Binary(BinaryOp::Add, Box::new(x.num()), literal(t)),
                    t => Num::Binary(BinaryOp::Sub, Box::new(x.num()), literal(-t)),
                };
            }
        }
        Num::Binary(op, Box::new(a), Box::new(b))
    }

    /// `x + k` or `x - k` (`op` the sign) as the register or literal `x`
    /// and the literal added, where the facts keep `x` and `k` within
    /// `NEAR`.
    fn shifted(&self, op: BinaryOp, x: &Num, k: &Num) -> Option<(Node, i64)> {
        let (x, &Num::Lit(k)) = (self.node(x)?, k) else {
            return None;
        };
        let k = match op {
            BinaryOp::Add => k,
            BinaryOp::Sub => k.checked_neg()?,
            _ => return None,
        };
        let near = k.abs() < NEAR
            && self.order(Node::Lit(-NEAR), x).is_some()
            && self.order(x, Node::Lit(NEAR)).is_some();
        near.then_some((x, k))
    }

    /// Whether `0 <= i < len` follows from the facts.
    fn within(&self, i: Node, len: u32) -> bool {
        self.order(Node::Lit(0), i).is_some()
            && self.order(i, Node::Lit(i64::from(len))) == Some(true)
    }

    /// A comparison of `a` and `b` as one of a register and a literal,
    /// where it is one with a literal added to or taken from the register
    /// (`c + 1 < 6` as `c < 5`) and the facts bound the register so
    /// tightly that the sum cannot overflow: the same answer, as neither
    /// side fails.
    fn affine(&self, a: &Num, b: &Num) -> Option<(Node, Node)> {
        let shifted = |n: &Num| -> Option<(Node, i64)> {
            match n {
                Num::Binary(BinaryOp::Add, a, b) => match (&**a, &**b) {
                    (x, Num::Lit(k)) | (Num::Lit(k), x) => Some((self.node(x)?, *k)),
                    _ => None,
                },
                Num::Binary(BinaryOp::Sub, x, k) => {
                    let (Num::Lit(k), Some(x)) = (&**k, self.node(x)) else {
                        return None;
                    };
                    Some((x, k.checked_neg()?))
                }
                n => Some((self.node(n)?, 0)),
            }
        };
        let small = |x: Node, k: i64| {
            k.abs() < NEAR
                && self.order(Node::Lit(-NEAR), x).is_some()
                && self.order(x, Node::Lit(NEAR)).is_some()
        };
        let ((x, k), (y, j)) = (shifted(a)?, shifted(b)?);
        if k == j || !small(x, k) || !small(y, j) {
            return None;
        }
        // x + k op y + j is x op y + (j - k), where one side is a literal.
        match (x, y) {
            (x, Node::Lit(y)) => Some((x, Node::Lit(y.checked_add(j - k)?))),
            (Node::Lit(x), y) => Some((Node::Lit(x.checked_add(k - j)?), y)),
            _ => None,
        }
    }

    fn char(&self, c: Char) -> Char {
        match c {
            Char::Cell(f, i) => Char::Cell(f, Box::new(self.num(*i))),
            Char::GridCell(rows, r, c) => {
                Char::GridCell(rows, Box::new(self.num(*r)), Box::new(self.num(*c)))
            }
            Char::If(t, a, b) => match self.choose(*t, *a, *b, |f, c| f.char(c)) {
                Ok(c) => c,
                Err((t, a, b)) => Char::If(Box::new(t), Box::new(a), Box::new(b)),
            },
            Char::Let(bind, body) => self.helper(
                *bind,
                *body,
                |f, x| f.char(x),
                reads::char,
                |b, x| Char::Let(Box::new(b), Box::new(x)),
            ),
            c => c,
        }
    }

    fn truth(&self, t: Truth) -> Truth {
        match t {
            Truth::Compare(op, a, b) => {
                let (a, b) = (self.num(a), self.num(b));
                let (a, b) = match self.affine(&a, &b) {
                    Some((x, y)) => (x.num(), y.num()),
                    None => (a, b),
                };
                let known = match (self.node(&a), self.node(&b)) {
                    (Some(x), Some(y)) => self.decide(op, x, y),
                    _ => None,
                };
                match known {
                    Some(v) => Truth::Lit(v),
                    None => Truth::Compare(op, a, b),
                }
            }
            Truth::SameChar(eq, a, b) => Truth::SameChar(eq, self.char(a), self.char(b)),
            // What `and` and `or` make of a side the facts decide: the
            // other side is worked out only where it would be.
            Truth::And(a, b) => match (self.truth(*a), self.truth(*b)) {
                (Truth::Lit(false), _) => Truth::Lit(false),
                (Truth::Lit(true), b) | (b, Truth::Lit(true)) => b,
                (a, b) => Truth::And(Box::new(a), Box::new(b)),
            },
            Truth::Or(a, b) => match (self.truth(*a), self.truth(*b)) {
                (Truth::Lit(true), _) => Truth::Lit(true),
                (Truth::Lit(false), b) | (b, Truth::Lit(false)) => b,
                (a, b) => Truth::Or(Box::new(a), Box::new(b)),
            },
            Truth::Not(x) => match self.truth(*x) {
                Truth::Lit(v) => Truth::Lit(!v),
                x => Truth::Not(Box::new(x)),
            },
            t => t,
        }
    }

    /// A helper's body with what the facts know, its argument dropped
    /// where the body reads it no more (see `bind`).
    fn helper<T>(
        &self,
        bind: Bind,
        body: T,
        each: impl Fn(&Facts, T) -> T,
        read: impl FnOnce(&mut reads::Outside, &T),
        bound: impl FnOnce(Bind, T) -> T,
    ) -> T {
        let (bind, inner) = self.bind(bind);
        let body = each(&inner, body);
        match bind {
            Ok(b) => bound(b, body),
            Err(b) if reads_bound(&b, |v| read(v, &body)) => bound(b, body),
            Err(_) => body,
        }
    }

    /// A helper's argument, and the facts inside the helper: `Err` when
    /// it is a register whose test, if any, holds, the facts then reading
    /// its register as that one (the binding may be dropped once the body
    /// reads its register no more).
    fn bind(&self, b: Bind) -> (Result<Bind, Bind>, Facts) {
        let mut inner = self.clone();
        match b {
            Bind::Num { reg, value, nat } => {
                let value = self.num(value);
                let copied = match value {
                    Num::Reg(r) if !nat || self.order(Node::Lit(0), Node::Reg(r)).is_some() => {
                        inner.aliases.push((reg, r));
                        true
                    }
                    _ => false,
                };
                let b = Bind::Num { reg, value, nat };
                (if copied { Err(b) } else { Ok(b) }, inner)
            }
            b => (Ok(b), inner),
        }
    }
}

/// Whether a helper's body still reads the register `b` binds (a body
/// that reads what is not followed is taken to).
fn reads_bound(b: &Bind, walk: impl FnOnce(&mut reads::Outside)) -> bool {
    let reg = match b {
        Bind::Num { reg, .. } | Bind::Letter { reg, .. } => *reg,
        Bind::Text { .. } | Bind::List(_) => return true,
    };
    reads::outside(walk).is_none_or(|regs| regs.contains(&reg))
}

/// Whether a test of a generator against the end of its range holds at
/// the end alone (`Some(true)`) or below it alone.
pub(super) fn end_test(op: BinaryOp) -> Option<bool> {
    match op {
        BinaryOp::Eq | BinaryOp::Ge => Some(true),
        BinaryOp::Ne | BinaryOp::Lt => Some(false),
        _ => None,
    }
}

/// `a op b` as `b op' a`.
pub(super) fn turned(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Ge => BinaryOp::Le,
        op => op,
    }
}

#[cfg(test)]
mod tests {
    use super::super::code::{Num, Rule, Seq, Source};
    use super::super::hoist::Last;
    use super::super::testing::{compiled, inside, same_options};

    const GUIDE: &str =
        include_str!("../../../bench/games/search-rewrites/mock-turtles-guide.game");

    /// Mock Turtles with the guide's `flip(row, j)` helper, a rule for
    /// each number of coins turned: the coins to the left of `i` are
    /// below it, so each flip reads the row as it was.
    const NESTED: &str = r#"
        fn flip(row: str, j: nat) = set_at(row, j, if row[j] == "H" then "T" else "H");
        game Turtles(row: str) {
          move one(i in indices(row)) if row[i] == "H" => Turtles(flip(row, i));
          move two(i in indices(row), a in 0..i) if row[i] == "H" => Turtles(flip(flip(row, i), a));
          move three(i in indices(row), a in 0..i, b in 0..a) if row[i] == "H"
            => Turtles(flip(flip(flip(row, i), a), b));
        }
    "#;

    /// The same flips, but the second coin may be the first (`a in
    /// 0..=i`), and the third the second: turned twice, a coin is back.
    const AGAIN: &str = r#"
        fn flip(row: str, j: nat) = set_at(row, j, if row[j] == "H" then "T" else "H");
        game Turtles(row: str) {
          move two(i in indices(row), a in 0..=i) if row[i] == "H" => Turtles(flip(flip(row, i), a));
          move three(i in indices(row), a in 0..i, b in 0..=a) if row[i] == "H"
            => Turtles(flip(flip(flip(row, i), a), b));
        }
    "#;

    /// For each rule, whether its last write (and the one before) are
    /// made once a key from a table of bits.
    fn tabled(source: &str, position: &str) -> Vec<[bool; 2]> {
        let (game, _) = compiled(source, position, true);
        let code = &inside(&*game).code;
        let at = |l: &Option<Last>| l.as_ref().is_some_and(|l| l.table.is_some());
        code.rules
            .iter()
            .map(|r| {
                r.hoist
                    .as_ref()
                    .map_or([false; 2], |h| [at(&h.pair), at(&h.last)])
            })
            .collect()
    }

    #[test]
    fn flips_of_coins_left_of_the_first_read_the_row_as_it_was() {
        let position = r#"Turtles("HTHHTHH")"#;
        assert_eq!(
            tabled(NESTED, position),
            [[false; 2], [false, true], [true; 2]]
        );
        assert!(same_options(NESTED, position) > 100);
        assert_eq!(same_options(NESTED, r#"Turtles("HHHHHHHH")"#), 1 << 8);
    }

    #[test]
    fn a_flip_that_may_meet_an_earlier_one_reads_it() {
        let position = r#"Turtles("HTHHTHH")"#;
        // In `three` the coin at `a` is left of `i`: only `b` may meet it.
        assert_eq!(tabled(AGAIN, position), [[false; 2], [true, false]]);
        assert!(same_options(AGAIN, position) > 100);
        assert!(same_options(AGAIN, r#"Turtles("HHHHHHHH")"#) > 200);
    }

    /// The last loop of each rule: a range from a
    /// generator to itself, one up to it, or another; and the number of
    /// generators.
    fn last_loops(source: &str, position: &str) -> Vec<(&'static str, usize)> {
        let (game, _) = compiled(source, position, true);
        let code = &inside(&*game).code;
        let one = |r: &Rule| match r.gens.last().map(|g| &g.source) {
            Some(Source::Each(Seq::Range(Num::Reg(a), Num::Reg(b), true))) if a == b => "one",
            Some(Source::Each(Seq::Range(_, Num::Reg(_), false))) => "below",
            _ => "other",
        };
        code.rules.iter().map(|r| (one(r), r.gens.len())).collect()
    }

    /// A coin at `b` tested against the end of its range first (`b ==
    /// a`, `a != b`), or after a test that reads the row.
    const ENDS: &str = r#"
        fn flip(row: str, j: nat) = set_at(row, j, if row[j] == "H" then "T" else "H");
        game Turtles(row: str) {
          move at(i in indices(row), a in 0..i, b in 0..=a) if row[i] == "H" and b == a
            => Turtles(flip(flip(row, i), b));
          move below(i in indices(row), a in 0..i, b in 0..=a) if row[i] == "H" and a != b
            => Turtles(flip(flip(flip(row, i), a), b));
          move after(i in indices(row), a in 0..i, b in 0..=a) if row[i] == "H" and row[b] == "T" and b == a
            => Turtles(flip(flip(row, i), b));
        }
    "#;

    #[test]
    fn a_last_loop_walks_only_where_its_first_test_against_its_end_holds() {
        let position = r#"Turtles("HTHHTH")"#;
        // `at` walks no loop of one value (`b` is `a`), `below` walks
        // `0..a`, `after` tests each `b`.
        assert_eq!(
            last_loops(ENDS, position),
            [("below", 2), ("below", 3), ("other", 3)]
        );
        assert!(same_options(ENDS, position) > 40);
        // Neither do the guide's rules of two coins and one coin: `b` is
        // `a`, and `a` and `b` are `i`.
        assert_eq!(
            last_loops(GUIDE, position),
            [("below", 3), ("below", 2), ("other", 1)]
        );
    }

    #[test]
    fn a_range_written_up_to_one_past_its_end_runs_as_one_written_to_its_end() {
        // `0..i + 1` and `0..1 + a` hold the values of `0..=i` and
        // `0..=a`: the same rules, each walking the same loops.
        let past = GUIDE.replace("a in 0..=i, b in 0..=a", "a in 0..i + 1, b in 0..1 + a");
        assert_ne!(past, GUIDE);
        let position = r#"Turtles("HTHHTH")"#;
        assert_eq!(
            last_loops(&past, position),
            [("below", 3), ("below", 2), ("other", 1)]
        );
        assert_eq!(same_options(&past, r#"Turtles("HHHHHHHH")"#), 1 << 8);
        assert!(same_options(&past, r#"Turtles("THTTHHTH")"#) > 100);
    }

    /// A second place compared with the first, each way round, within
    /// the range or past its end, and with a literal.
    const ORDERED: &str = r#"
        game P(h: [nat]) {
          move after(i in indices(h), j in indices(h)) if i < j and h[j] > 0
            => P(set_at(h, j, h[j] - 1));
          move upto(i in indices(h), j in 0..=3) if j <= i and h[j] > 1
            => P(set_at(h, j, h[j] - 2));
          move from(i in indices(h), j in 1..len(h)) if i >= j and h[i] > 2
            => P(set_at(h, i, h[i] - 3));
          move past(i in indices(h), j in 0..i + 2) if j > i and h[i] > 0 and j < 9
            => P(set_at(h, i, h[i] - 1));
          move over(i in indices(h), j in 0..7) if i > j and j >= 2 and h[i] > 3
            => P(set_at(h, i, h[i] - 4));
        }
    "#;

    #[test]
    fn a_loop_compared_with_a_number_set_before_it_walks_only_where_the_test_holds() {
        let position = "P([3, 1, 4, 2, 5])";
        let (game, _) = compiled(ORDERED, position, true);
        let rules = &inside(&*game).code.rules;
        assert_eq!(rules.len(), 5);
        for rule in rules {
            assert!(rule.bounds.iter().all(Option::is_none), "{:?}", rule.gens);
            // The comparisons are gone; only the tests of the piles stay.
            let tests = rule.early.iter().flatten().chain(&rule.guard).count();
            assert_eq!(tests, 1, "{:?}", rule.gens);
        }
        assert!(same_options(ORDERED, position) > 300);
        assert!(same_options(ORDERED, "P([6, 0, 7])") > 40);
    }

    #[test]
    fn the_guides_one_rule_gives_the_options_step_by_step_code_gives() {
        assert_eq!(same_options(GUIDE, r#"Turtles("HHHHHHHH")"#), 1 << 8);
        assert!(same_options(GUIDE, r#"Turtles("THTTHHTH")"#) > 100);
    }
}
