//! Running compiled rules on a key. Every function answers `None` where
//! the interpreter might answer differently (an overflow, an index out of
//! range, a value its field cannot hold, a collection past the size the
//! interpreter allows): the search then stops, and the general one answers.

use super::bitsets;
use super::bound_runs::BoundRun;
use super::code::Rows;
use super::code::{
    Appended, Bind, Char, Element, Fused, GameCode, Indices, MadeList, Num, Rule, Seq, Sought,
    Source, Target, Text, Truth, Walk, Write,
};
use super::hoist::Made;
use super::layout::{Fields, Layout};
use super::progression;
use super::rows::RowTable;
use super::split;
use super::turn;
use super::words;
use crate::eval::arith::{arithmetic, compare};
use crate::eval::builtins::MAX_COLLECTION;
use std::cell::RefCell;
use std::rc::Rc;

/// How many elements a list the rules work out has with one more; `None`
/// past the size the interpreter allows a collection.
#[inline(always)]
pub(super) fn counted(count: usize) -> Option<usize> {
    (count < MAX_COLLECTION).then_some(count + 1)
}

/// Generator steps one position may take before the compact search gives
/// it up to the general one, which checks for Ctrl-C at every step.
const MAX_STEPS: usize = 1 << 24;

/// Registers and scratch lists, reused from one position to the next.
#[derive(Default)]
pub struct Machine {
    pub(super) regs: Vec<i64>,
    pub(super) tuples: Vec<Vec<i64>>,
    /// What each tuple generator walks: its items, or its ranges as pairs.
    pub(super) scratch: Vec<Vec<i64>>,
    /// Where each `subsets` generator is in its items.
    picks: Vec<Vec<usize>>,
    /// How far the key moves as each element of a fused product counts
    /// up (see `placed`).
    pub(super) placed_steps: Vec<u64>,
    steps: usize,
    /// The key whose options are being made.
    pub(super) key: u64,
    /// Strings in registers, as `Text` gives them: letters and length.
    pub(super) texts: Vec<(u64, u32)>,
    /// Bits a letter takes in a string's word.
    pub(super) cell: u32,
    /// The keys each rule's hoisted writes made (see `hoist`).
    pub(super) hoisted: Vec<Made>,
    /// The numbers of the rows of numbered grids.
    rows: Rc<RefCell<RowTable>>,
    /// Where each option's rule and generators are recorded, when a
    /// single position's moves are listed.
    pub trail: Option<super::Trail>,
}

impl Machine {
    pub fn new(code: &GameCode, layout: &Layout) -> Machine {
        let tuples = code.tuples as usize;
        Machine {
            regs: vec![0; code.regs as usize],
            tuples: vec![Vec::new(); tuples],
            scratch: vec![Vec::new(); tuples],
            picks: vec![Vec::new(); tuples],
            placed_steps: Vec::new(),
            steps: 0,
            key: 0,
            texts: vec![(0, 0); code.texts as usize],
            cell: code.cell,
            rows: layout.rows.clone(),
            trail: None,
            hoisted: vec![Made::default(); code.rules.iter().filter(|r| r.hoist.is_some()).count()],
        }
    }

    /// A machine for working out expressions alone, with these many
    /// registers and string registers (see `lookup`).
    pub(super) fn scratch(regs: u32, texts: u32, cell: u32) -> Machine {
        Machine {
            regs: vec![0; regs as usize],
            texts: vec![(0, 0); texts as usize],
            cell,
            ..Machine::default()
        }
    }

    /// Appends the keys of the options of `key` to `out`.
    pub fn options(
        &mut self,
        layout: &Layout,
        code: &GameCode,
        key: u64,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        if code.decode {
            layout.decode(key, &mut self.regs);
        }
        self.key = key;
        if let Some(lose) = &code.lose {
            if self.truth(lose)? {
                return Some(());
            }
        }
        self.steps = 0;
        for (index, rule) in code.rules.iter().enumerate() {
            if let Some(trail) = &mut self.trail {
                trail.begin_rule(index as u32);
            }
            self.generate(rule, 0, out)?;
        }
        Some(())
    }

    /// The key of the image that `writes` make of `key`.
    pub fn image(&mut self, layout: &Layout, key: u64, writes: &[Write]) -> Option<u64> {
        if !matches!(writes, [Write::Reversed(_) | Write::Turned(..)]) {
            layout.decode(key, &mut self.regs);
        }
        self.key = key;
        self.steps = 0;
        self.written(writes)
    }

    /// Generator steps the last position's options took.
    #[cfg(test)]
    pub fn steps_taken(&self) -> usize {
        self.steps
    }

    pub(super) fn step(&mut self) -> Option<()> {
        self.steps += 1;
        (self.steps <= MAX_STEPS).then_some(())
    }

    pub(super) fn steps(&mut self, n: usize) -> Option<()> {
        self.steps = self.steps.saturating_add(n);
        (self.steps <= MAX_STEPS).then_some(())
    }

    /// The options of `rule` for the values its first `depth` generators
    /// hold.
    pub(super) fn generate(&mut self, rule: &Rule, depth: usize, out: &mut Vec<u64>) -> Option<()> {
        if let Some(Some(test)) = depth.checked_sub(1).map(|d| &rule.early[d]) {
            if !self.truth(test)? {
                return Some(());
            }
        }
        if let Some(fused) = &rule.fused {
            if depth + 1 == rule.gens.len() {
                return self.fused(fused, rule, out);
            }
        }
        let Some(gen) = rule.gens.get(depth) else {
            if let Some(guard) = &rule.guard {
                if !self.truth(guard)? {
                    return Some(());
                }
            }
            match &rule.sum {
                Some(parts) => self.sum_written(parts, out)?,
                None => {
                    let k = self.rule_written(rule)?;
                    out.push(k);
                }
            }
            if let Some(trail) = &mut self.trail {
                trail.record(&self.regs, &self.tuples);
            }
            return Some(());
        };
        match (&gen.source, gen.target) {
            (Source::Each(seq), Target::Reg(r)) => {
                let (start, end) = self.bounds(seq)?;
                if let Some(hoist) = &rule.hoist {
                    if let (Some(last), true) = (&hoist.last, depth + 1 == rule.gens.len()) {
                        return self.last_loop(rule, hoist, last, seq, (start, end), out);
                    }
                    if let (Some(pair), Some(last), true) =
                        (&hoist.pair, &hoist.last, depth + 2 == rule.gens.len())
                    {
                        if self.pair_loop(rule, hoist, (pair, last), seq, (start, end), out)? {
                            return Some(());
                        }
                    }
                }
                if self.planed(rule, depth, (start, end), out)? {
                    return Some(());
                }
                let r = r as usize;
                let sieve = rule.sieves.get(depth).and_then(Option::as_ref);
                if let Some(sieve) = sieve {
                    if let Some(passed) = self.sieved(sieve, (start, end)) {
                        return self.sieved_loop(rule, depth, r, start, passed, out);
                    }
                }
                if rule.progression
                    && depth + 1 == rule.gens.len()
                    && self.progression(rule, r, seq, (start, end), out)?
                {
                    return Some(());
                }
                // Where the test that moves one way holds, worked out at
                // once; where that cannot be vouched for, tested value by
                // value.
                let (mut i, end, test) = match rule.bound_runs.get(depth).and_then(Option::as_ref) {
                    Some(run) => match self.holds(run, r, seq, (start, end)) {
                        Some((from, to)) => (from, to, None),
                        None => (start, end, Some(&run.truth)),
                    },
                    None => (start, end, sieve.map(|s| &s.whole)),
                };
                if split::plain_last(rule, depth, self.trail.is_none()) {
                    return self.last_values(rule, (r, seq), (i, end), test, out);
                }
                while i < end {
                    self.step()?;
                    self.regs[r] = self.item(seq, i)?;
                    i += 1;
                    if let Some(test) = test {
                        if !self.truth(test)? {
                            continue;
                        }
                    }
                    self.generate(rule, depth + 1, out)?;
                }
                Some(())
            }
            (Source::Subsets(items, lo, hi), Target::Tuple(t)) => {
                let sizes = (self.num(lo)?, self.num(hi)?);
                self.subsets(items, sizes, t as usize, rule, depth, out)
            }
            (Source::ProductOf { .. } | Source::ProductList(_), Target::Tuple(t)) => {
                let t = t as usize;
                let count = self.fill_ranges(&gen.source, t)?;
                if count == 0 {
                    return Some(());
                }
                let last = depth + 1 == rule.gens.len();
                let runs = rule.product_runs.is_some() && last && self.trail.is_none();
                if runs && self.product_runs(rule, t, count, out)? {
                    return Some(());
                }
                self.product(t, rule, depth, out)
            }
            _ => None,
        }
    }

    /// The last loop of a rule whose keys form a progression (see
    /// `progression`), over register `r` from `start` to `end`: its keys
    /// as a run (or none, where the guard left beside its bound fails),
    /// and `true`; `false` where the ends cannot vouch for the keys
    /// between (the loop then runs value by value).
    fn progression(
        &mut self,
        rule: &Rule,
        r: usize,
        seq: &Seq,
        (start, end): (i64, i64),
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        // The shapes hold for a variable that is not negative.
        if start < 0 {
            return Some(false);
        }
        let (start, end) = match rule.bound_runs.last().and_then(Option::as_ref) {
            Some(run) => match self.holds(run, r, seq, (start, end)) {
                Some(range) => range,
                None => return Some(false),
            },
            None => (start, end),
        };
        if end <= start {
            return Some(true);
        }
        let count = end - start;
        self.steps(usize::try_from(count).ok()?)?;
        self.regs[r] = start;
        // The rest of the guard does not vary: as it is at the first value,
        // so it is at every one.
        if let Some(guard) = &rule.guard {
            if !self.truth(guard)? {
                return Some(true);
            }
        }
        let first = self.written(&rule.writes)?;
        if count == 1 {
            out.push(first);
            return Some(true);
        }
        self.regs[r] = end - 1;
        let last = self.written(&rule.writes)?;
        let span = i128::from(last) - i128::from(first);
        let gaps = i128::from(count - 1);
        let Ok(step) = i64::try_from(span / gaps) else {
            return Some(false);
        };
        if span % gaps != 0 {
            return Some(false);
        }
        progression::push(out, first, step, count as u64);
        Some(true)
    }

    /// The positions `from..to` within `start..end` of a loop's values
    /// (read with `item` into register `r`, least first) where a test
    /// whose truth changes at most once along them (see `monotone`)
    /// holds, found by halving. `None` unless the values are not negative
    /// and every comparison of the test is computed without an error at
    /// both ends: their terms move one way, so they lie between, and the
    /// test is then made without an error at every value. The test is
    /// made by its closures (see `bound_runs`).
    fn holds(
        &mut self,
        run: &BoundRun,
        r: usize,
        seq: &Seq,
        (start, end): (i64, i64),
    ) -> Option<(i64, i64)> {
        if end <= start {
            return Some((start, end));
        }
        self.regs[r] = self.item(seq, start)?;
        if self.regs[r] < 0 {
            return None;
        }
        let first = run.exact.run(self)?;
        self.regs[r] = self.item(seq, end - 1)?;
        let last = run.exact.run(self)?;
        if first == last {
            return Some(if first { (start, end) } else { (end, end) });
        }
        let made = &run.truth;
        let lines = run.lines.iter().map(|c| (c.op, &c.a, &c.b));
        if let Some(at) = self.crossing((made, lines), r, seq, (start, end), first) {
            return Some(if first { (start, at) } else { (at, end) });
        }
        // `first` at `lo`, `last` at `hi`.
        let (mut lo, mut hi) = (start, end - 1);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            self.regs[r] = self.item(seq, mid)?;
            if self.truth(made)? == first {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Some(if first { (start, hi) } else { (hi, end) })
    }

    /// The positions `start..end` a sequence's items are read at (with
    /// `item`): the numbers themselves for a range, indices otherwise.
    /// A range's, the most common, made inline; the others out of line.
    #[inline(always)]
    pub(super) fn bounds(&mut self, seq: &Seq) -> Option<(i64, i64)> {
        match seq {
            Seq::Range(lo, hi, inclusive) => self.range(lo, hi, *inclusive),
            _ => self.other_bounds(seq),
        }
    }

    #[inline(always)]
    fn range(&mut self, lo: &Num, hi: &Num, inclusive: bool) -> Option<(i64, i64)> {
        let lo = self.quick(lo)?;
        let hi = self.quick(hi)?;
        Some((lo, if inclusive { hi.checked_add(1)? } else { hi }))
    }

    /// `bounds` of a sequence other than a range.
    #[inline(never)]
    fn other_bounds(&mut self, seq: &Seq) -> Option<(i64, i64)> {
        Some(match seq {
            Seq::Range(lo, hi, inclusive) => self.range(lo, hi, *inclusive)?,
            Seq::Fields(f) => (0, i64::from(f.len)),
            Seq::Items(xs) => (0, xs.len() as i64),
            Seq::Tuple(t) => (0, self.tuples[*t as usize].len() as i64),
            Seq::Members(r, _) => (0, bitsets::ones(self.regs[*r as usize])?),
            Seq::Made(made) => {
                self.make_list(made)?;
                (0, self.tuples[made.tuple as usize].len() as i64)
            }
        })
    }

    #[inline(always)]
    pub(super) fn item(&self, seq: &Seq, i: i64) -> Option<i64> {
        Some(match seq {
            Seq::Range(..) => i,
            Seq::Fields(f) => self.regs[(f.first as i64 + i) as usize],
            Seq::Items(xs) => *xs.get(i as usize)?,
            Seq::Tuple(t) => *self.tuples[*t as usize].get(i as usize)?,
            Seq::Members(r, lo) => bitsets::member(self.regs[*r as usize], i, *lo)?,
            Seq::Made(made) => *self.tuples[made.tuple as usize].get(i as usize)?,
        })
    }

    fn subsets(
        &mut self,
        items: &Seq,
        (lo, hi): (i64, i64),
        t: usize,
        rule: &Rule,
        depth: usize,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        let (start, end) = self.bounds(items)?;
        let n = usize::try_from(end.saturating_sub(start).max(0)).ok()?;
        if n > 64 {
            return None;
        }
        let mut list = std::mem::take(&mut self.scratch[t]);
        list.clear();
        for i in start..end {
            list.push(self.item(items, i)?);
        }
        self.scratch[t] = list;
        let (lo, hi) = (lo.max(0) as usize, hi.min(n as i64));
        if hi < 0 || (lo as i64) > hi {
            return Some(());
        }
        let hi = hi as usize;
        // The interpreter refuses to build more elements than this.
        let mut count: u128 = 0;
        for k in lo..=hi {
            count += binomial(n, k);
        }
        if count.saturating_mul(hi.max(1) as u128) > MAX_COLLECTION as u128 {
            return None;
        }
        for k in lo..=hi {
            let mut pick: Vec<usize> = std::mem::take(&mut self.picks[t]);
            pick.clear();
            pick.extend(0..k);
            loop {
                self.step()?;
                let tuple = &mut self.tuples[t];
                tuple.clear();
                tuple.extend(pick.iter().map(|&i| self.scratch[t][i]));
                self.generate(rule, depth + 1, out)?;
                // The next k-subset in lexicographic order.
                let Some(j) = (0..k).rev().find(|&j| pick[j] < n - k + j) else {
                    break;
                };
                pick[j] += 1;
                for m in j + 1..k {
                    pick[m] = pick[m - 1] + 1;
                }
            }
            self.picks[t] = pick;
        }
        Some(())
    }

    /// Works out a product generator's ranges into its scratch list, and
    /// how many tuples they make (`None` past the interpreter's limit).
    pub(super) fn fill_ranges(&mut self, source: &Source, t: usize) -> Option<u64> {
        let mut ranges = std::mem::take(&mut self.scratch[t]);
        ranges.clear();
        let made = self.ranges(source, &mut ranges);
        self.scratch[t] = ranges;
        made?;
        product_size(&self.scratch[t])
    }

    /// Every tuple of the product whose ranges `fill_ranges` made (at
    /// least one), into tuple register `t`, each with the generators after.
    pub(super) fn product(
        &mut self,
        t: usize,
        rule: &Rule,
        depth: usize,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        let ranges = &self.scratch[t];
        let lists = ranges.len() / 2;
        let tuple = &mut self.tuples[t];
        tuple.clear();
        tuple.extend((0..lists).map(|d| ranges[2 * d]));
        loop {
            self.step()?;
            self.generate(rule, depth + 1, out)?;
            // Count up, the last list fastest.
            let mut d = lists;
            loop {
                if d == 0 {
                    return Some(());
                }
                d -= 1;
                let tuple = &mut self.tuples[t];
                tuple[d] += 1;
                if tuple[d] < self.scratch[t][2 * d + 1] {
                    break;
                }
                tuple[d] = self.scratch[t][2 * d];
            }
        }
    }

    fn fused(&mut self, fused: &Fused, rule: &Rule, out: &mut Vec<u64>) -> Option<()> {
        let key = self.key;
        match fused {
            &Fused::Place { fields, from, to } => {
                self.steps(fields.len as usize)?;
                let mut cells = cells_equal(key, &fields, from);
                let change = (to as u64).wrapping_sub(from as u64);
                while cells != 0 {
                    let i = cells.trailing_zeros();
                    cells &= cells - 1;
                    out.push(key.wrapping_add(change << fields.shift_of(i)));
                }
                Some(())
            }
            Fused::SetProduct {
                fields,
                at,
                tuple,
                placed,
            } => self.set_product(rule, (*fields, at, *tuple as usize), placed, out),
        }
    }

    /// A product's ranges, as (lo, hi) pairs with hi exclusive.
    fn ranges(&mut self, source: &Source, out: &mut Vec<i64>) -> Option<()> {
        let mut push = |me: &mut Self, lo: &Num, hi: &Num, inclusive: bool| -> Option<()> {
            let lo = me.quick(lo)?;
            let hi = me.quick(hi)?;
            out.push(lo);
            out.push(if inclusive { hi.checked_add(1)? } else { hi });
            Some(())
        };
        match source {
            Source::ProductOf {
                over,
                var,
                lo,
                hi,
                inclusive,
            } => {
                let (start, end) = self.bounds(over)?;
                for i in start..end {
                    self.regs[*var as usize] = self.item(over, i)?;
                    push(self, lo, hi, *inclusive)?;
                }
            }
            Source::ProductList(list) => {
                for (lo, hi, inclusive) in list {
                    push(self, lo, hi, *inclusive)?;
                }
            }
            _ => return None,
        }
        Some(())
    }

    /// The key of the position a move's writes make from the current key.
    fn written(&mut self, writes: &[Write]) -> Option<u64> {
        self.written_onto(self.key, writes)
    }

    /// `writes` made onto `k`, which holds the fields they write as the
    /// current key does.
    pub(super) fn written_onto(&mut self, mut k: u64, writes: &[Write]) -> Option<u64> {
        for w in writes {
            match w {
                Write::Scalar(f, n) => {
                    let v = self.num(n)?;
                    k = put(k, f, 0, v)?;
                }
                Write::Element(f, i, n) => {
                    let i = self.index(f, i)?;
                    let v = self.num(n)?;
                    k = put(k, f, i, v)?;
                }
                Write::Cell(f, i, c) => {
                    let i = self.index(f, i)?;
                    let v = self.char(c)?;
                    k = put(k, f, i, v)?;
                }
                Write::Several(f, at, vs) => {
                    let at = indices(&self.tuples, &self.regs, at);
                    let vs = &self.tuples[*vs as usize];
                    if at.len() != vs.len() {
                        return None;
                    }
                    for (&i, &v) in at.iter().zip(vs) {
                        let i = u32::try_from(i).ok().filter(|&i| i < f.len)?;
                        k = put(k, f, i, v)?;
                    }
                }
                // The first write of its parameter (see `compile`), whose
                // fields `k` still holds as the key does: read off the key
                // itself, which needs no registers.
                Write::Reversed(f) => k = reversed(k, f),
                Write::Sorted(f, length) => k = sorted(k, f, length.map(|l| l.read(k, 0)))?,
                Write::Turned(rows, cells) => {
                    k = turn::apply(k, rows, self.cell, cells.as_deref()?);
                }
                Write::Choose {
                    test,
                    then,
                    otherwise,
                } => {
                    let branch = if self.truth(test)? { then } else { otherwise };
                    k = self.written_onto(k, branch)?;
                }
                Write::Whole(f, items) => {
                    for (i, n) in items.iter().enumerate() {
                        let v = self.num(n)?;
                        k = put(k, f, i as u32, v)?;
                    }
                }
                Write::Comprehension {
                    fields,
                    walk,
                    element,
                } => {
                    let mut made = 0u32;
                    self.walk(walk, |m| {
                        let v = match element {
                            Element::Num(n) => m.num(n)?,
                            Element::Row(rows, text) => m.row(rows, text)?,
                        };
                        if made >= fields.len {
                            return None;
                        }
                        k = put(k, fields, made, v)?;
                        made += 1;
                        Some(())
                    })?;
                    if made != fields.len {
                        return None;
                    }
                }
                Write::Text(f, t) => {
                    let (word, len) = self.text(t)?;
                    if len != f.len {
                        return None;
                    }
                    let bits = low_bits(f.len * f.width);
                    k = k & !(bits << f.shift) | word << f.shift;
                }
                Write::Row(rows, i, t) => {
                    let i = self.index(&rows.fields, i)?;
                    let v = self.row(rows, t)?;
                    k = put(k, &rows.fields, i, v)?;
                }
                Write::Lanes(f, lanes) => k = super::lanes::written(self, k, f, lanes)?,
                Write::Closure(step) => k = step.run(self, k)?,
                Write::Bind(bind) => self.bind(bind)?,
                Write::Fill(made) => self.make_list(made)?,
                Write::Appended(fields, pieces) => {
                    let made;
                    (k, made) = self.pieces_onto(k, fields, pieces)?;
                    if made != fields.len {
                        return None;
                    }
                }
                Write::Sized {
                    items,
                    length,
                    pieces,
                } => k = self.sized(k, items, length, pieces)?,
                Write::Each { walk, writes } => {
                    self.walk(walk, |m| {
                        k = m.written_onto(k, writes)?;
                        Some(())
                    })?;
                }
                Write::Rows(rows, texts) => {
                    for (i, t) in texts.iter().enumerate() {
                        let v = self.row(rows, t)?;
                        k = put(k, &rows.fields, i as u32, v)?;
                    }
                }
            }
        }
        Some(k)
    }

    /// A new list of the length its pieces make, written onto `k` (see
    /// `Write::Sized`).
    fn sized(
        &mut self,
        k: u64,
        items: &Fields,
        length: &Fields,
        pieces: &[Appended],
    ) -> Option<u64> {
        let cleared = k & !(low_bits(items.len * items.width) << items.shift);
        let (k, made) = self.pieces_onto(cleared, items, pieces)?;
        put(k, length, 0, i64::from(made))
    }

    /// `pieces` written onto `k` into `fields` from the first: the key and
    /// how many elements they made, no more than `fields` holds.
    fn pieces_onto(
        &mut self,
        mut k: u64,
        fields: &Fields,
        pieces: &[Appended],
    ) -> Option<(u64, u32)> {
        let mut made = 0u32;
        for piece in pieces {
            let mut append = |m: &mut Self, n: &Num| {
                let v = m.num(n)?;
                if made >= fields.len {
                    return None;
                }
                k = put(k, fields, made, v)?;
                made += 1;
                Some(())
            };
            match piece {
                Appended::One(n) => append(self, n)?,
                Appended::Each(walk, n) => self.walk(walk, |m| append(m, n))?,
            }
        }
        Some((k, made))
    }

    fn index(&mut self, f: &Fields, i: &Num) -> Option<u32> {
        let i = self.num(i)?;
        u32::try_from(i).ok().filter(|&i| i < f.len)
    }

    pub(super) fn char(&mut self, c: &Char) -> Option<i64> {
        match c {
            Char::Code(code) => Some(*code),
            Char::Cell(f, i) => {
                let i = self.index(f, i)?;
                Some(self.regs[(f.first + i) as usize])
            }
            Char::GridCell(rows, r, c) => {
                let r = self.index(&rows.fields, r)?;
                let c = self.num(c)?;
                let c = u32::try_from(c).ok().filter(|&c| c < rows.cols)?;
                let row = self.regs[(rows.fields.first + r) as usize] as u64;
                Some(((row >> (c * self.cell)) & low_bits(self.cell)) as i64)
            }
            Char::Reg(r) => Some(self.regs[*r as usize]),
            Char::If(c, a, b) => {
                if self.truth(c)? {
                    self.char(a)
                } else {
                    self.char(b)
                }
            }
            Char::Let(bind, body) => {
                self.bind(bind)?;
                self.char(body)
            }
            Char::Text(t) => match self.text(t)? {
                (word, 1) => Some(word as i64),
                _ => None,
            },
        }
    }

    /// A grid's new row, as its field holds it: `None` unless it has the
    /// grid's length (and, in a numbered grid, a number).
    fn row(&mut self, rows: &Rows, t: &Text) -> Option<i64> {
        let text = self.text(t)?;
        self.row_field(rows, text)
    }

    /// What a grid's field holds for a new row (see `row`).
    #[inline(always)]
    pub(super) fn row_field(&mut self, rows: &Rows, (word, len): (u64, u32)) -> Option<i64> {
        if len != rows.cols {
            return None;
        }
        if rows.numbered {
            return Some(self.rows.borrow_mut().number(word)? as i64);
        }
        Some(word as i64)
    }

    /// A string: its letters' codes side by side, and its length. `None`
    /// where the interpreter reports an error, and where the string would
    /// not fit a word (the interpreter then answers).
    fn text(&mut self, t: &Text) -> Option<(u64, u32)> {
        let w = self.cell;
        Some(match t {
            Text::Lit(lit) => (*lit)?,
            Text::Param(f) => ((self.key >> f.shift) & low_bits(f.len * f.width), f.len),
            Text::Row(f, cols, i) => {
                let i = self.index(f, i)?;
                (self.regs[(f.first + i) as usize] as u64, *cols)
            }
            Text::Reg(r) => self.texts[*r as usize],
            Text::Letter(r) => (self.regs[*r as usize] as u64, 1),
            Text::At(t, i) => {
                let t = self.text(t)?;
                words::at(t, self.num(i)?, w)?
            }
            Text::SetAt(t, i, c) => {
                let t = self.text(t)?;
                let i = self.num(i)?;
                let c = self.text(c)?;
                words::set_at(t, i, c, w)?
            }
            Text::Slice(t, from, to) => {
                let t = self.text(t)?;
                let from = self.num(from)?;
                words::slice(t, from, self.num(to)?, w)
            }
            Text::Repeat(t, n) => {
                let t = self.text(t)?;
                words::repeat(t, self.num(n)?, w)?
            }
            Text::Concat(a, b) => {
                let a = self.text(a)?;
                words::concat(a, self.text(b)?, w)?
            }
            Text::If(c, a, b) => {
                if self.truth(c)? {
                    self.text(a)?
                } else {
                    self.text(b)?
                }
            }
            Text::Let(bind, body) => {
                self.bind(bind)?;
                self.text(body)?
            }
            Text::Joined(made) => self.joined(made)?,
            Text::Reversed(t) => words::reverse(self.text(t)?, w),
            Text::Least(most, ts) => {
                let (first, rest) = ts.split_first()?;
                let mut best = self.text(first)?;
                for t in rest {
                    best = words::better(best, self.text(t)?, *most, w);
                }
                best
            }
            Text::Closure(f) => f.run(self)?,
        })
    }

    /// The string of the letters a made list holds as codes; `None` past
    /// a word.
    pub(super) fn joined(&mut self, made: &MadeList) -> Option<(u64, u32)> {
        self.make_list(made)?;
        let codes = &self.tuples[made.tuple as usize];
        let len = u32::try_from(codes.len()).ok()?;
        if len.checked_mul(self.cell)? > 64 {
            return None;
        }
        let word = (0..)
            .zip(codes)
            .fold(0, |word, (i, &c)| word | (c as u64) << (i * self.cell));
        Some((word, len))
    }

    /// A string, or `None` inside for a literal with a letter outside the
    /// alphabet (no string a position holds is equal to it).
    fn text_or_foreign(&mut self, t: &Text) -> Option<Option<(u64, u32)>> {
        match t {
            Text::Lit(None) => Some(None),
            _ => Some(Some(self.text(t)?)),
        }
    }

    /// `each` run for every value of a comprehension's generator that its
    /// guard lets through, the value in the generator's register.
    fn walk(&mut self, walk: &Walk, mut each: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        let (start, end) = self.bounds(&walk.over)?;
        for i in start..end {
            self.step()?;
            self.regs[walk.var as usize] = self.item(&walk.over, i)?;
            if let Some(g) = &walk.guard {
                if !self.truth(g)? {
                    continue;
                }
            }
            each(self)?;
        }
        Some(())
    }

    /// A list the rules work out, into its tuple register; `None` past
    /// the size the interpreter allows a collection.
    pub(super) fn make_list(&mut self, made: &MadeList) -> Option<()> {
        let mut items = std::mem::take(&mut self.tuples[made.tuple as usize]);
        items.clear();
        let walked = self.walk(&made.walk, |m| {
            if items.len() >= MAX_COLLECTION {
                return None;
            }
            items.push(m.num(&made.element)?);
            Some(())
        });
        self.tuples[made.tuple as usize] = items;
        walked
    }

    /// The place of the first of `seq`'s items equal to `x`, -1 where
    /// none is.
    pub(super) fn index_in(&mut self, seq: &Seq, x: i64) -> Option<i64> {
        if let Seq::Tuple(t) = seq {
            let items = &self.tuples[*t as usize];
            let place = items.iter().position(|&item| item == x);
            self.steps(items.len())?;
            return Some(place.map_or(-1, |p| p as i64));
        }
        let (start, end) = self.bounds(seq)?;
        self.steps(usize::try_from(end.saturating_sub(start).max(0)).ok()?)?;
        for (place, i) in (start..end).enumerate() {
            if self.item(seq, i)? == x {
                return i64::try_from(place).ok();
            }
        }
        Some(-1)
    }

    /// A helper's argument put in its register.
    pub(super) fn bind(&mut self, bind: &Bind) -> Option<()> {
        match bind {
            Bind::Num { reg, value, nat } => {
                let v = self.num(value)?;
                if *nat && v < 0 {
                    return None;
                }
                self.regs[*reg as usize] = v;
            }
            Bind::Text { reg, value } => {
                let t = self.text(value)?;
                self.texts[*reg as usize] = t;
            }
            Bind::Letter { reg, value } => {
                // A letter outside the alphabet is not held.
                let code = self.char(value).filter(|&c| c >= 0)?;
                self.regs[*reg as usize] = code;
            }
            Bind::List(made) => self.make_list(made)?,
        }
        Some(())
    }

    /// A number, with the leaves most expressions are made of (a literal,
    /// a register, `xs[i]`) read here rather than through `num`.
    #[inline(always)]
    pub(super) fn quick(&mut self, n: &Num) -> Option<i64> {
        match n {
            Num::Lit(v) => Some(*v),
            Num::Reg(r) => Some(self.regs[*r as usize]),
            Num::Field(f, i) => {
                let i = match **i {
                    Num::Reg(r) => self.regs[r as usize],
                    _ => self.num(i)?,
                };
                let i = u32::try_from(i).ok().filter(|&i| i < f.len)?;
                Some(self.regs[(f.first + i) as usize])
            }
            Num::Closure(f) => f.run(self),
            _ => self.num(n),
        }
    }

    pub fn num(&mut self, n: &Num) -> Option<i64> {
        Some(match n {
            Num::Lit(v) => *v,
            Num::Reg(r) => self.regs[*r as usize],
            Num::Field(f, i) => {
                let i = self.index(f, i)?;
                self.regs[(f.first + i) as usize]
            }
            Num::TupleAt(t, i) => {
                let i = usize::try_from(self.num(i)?).ok()?;
                *self.tuples[*t as usize].get(i)?
            }
            Num::TupleLen(t) => self.tuples[*t as usize].len() as i64,
            Num::Item(xs, i) => *xs.get(usize::try_from(self.num(i)?).ok()?)?,
            Num::Binary(op, l, r) => {
                let a = self.num(l)?;
                let b = self.num(r)?;
                arithmetic(*op, a, b)?
            }
            Num::Neg(x) => self.num(x)?.checked_neg()?,
            Num::Abs(x) => self.num(x)?.checked_abs()?,
            Num::Min(xs) | Num::Max(xs) => {
                let mut best = self.num(&xs[0])?;
                for x in &xs[1..] {
                    let v = self.num(x)?;
                    best = if matches!(n, Num::Min(_)) {
                        best.min(v)
                    } else {
                        best.max(v)
                    };
                }
                best
            }
            Num::SumFields(f) => {
                let mut total: i64 = 0;
                for i in 0..f.len {
                    total = total.checked_add(self.regs[(f.first + i) as usize])?;
                }
                total
            }
            Num::SumTuple(t) => {
                let mut total: i64 = 0;
                for &v in &self.tuples[*t as usize] {
                    total = total.checked_add(v)?;
                }
                total
            }
            Num::TextLen(t) => i64::from(self.text(t)?.1),
            Num::Find(t, sub, sought) => {
                let (word, len) = self.text(t)?;
                found(word, len, *sub, self.cell, *sought)
            }
            Num::Code(c) => self.char(c)?,
            Num::IndexOf(seq, x) => {
                let x = self.num(x)?;
                self.index_in(seq, x)?
            }
            Num::Matches(f, codes) => matches(self.key, f, codes),
            Num::If(c, a, b) => {
                if self.truth(c)? {
                    self.num(a)?
                } else {
                    self.num(b)?
                }
            }
            Num::Let(bind, body) => {
                self.bind(bind)?;
                self.num(body)?
            }
            Num::Ones(x) => bitsets::ones(self.num(x)?)?,
            Num::Extreme { mask, lo, highest } => bitsets::extreme(self.num(mask)?, *lo, *highest)?,
            Num::Fold(join, walk, element) => {
                let (mut joined, mut count) = (0, 0);
                self.walk(walk, |m| {
                    count = counted(count)?;
                    joined = join.step(joined, count, m.num(element)?)?;
                    Some(())
                })?;
                join.end(joined, count)?
            }
            Num::Closure(f) => f.run(self)?,
        })
    }

    pub fn truth(&mut self, t: &Truth) -> Option<bool> {
        Some(match t {
            Truth::Lit(b) => *b,
            Truth::Not(x) => !self.truth(x)?,
            Truth::And(a, b) => self.truth(a)? && self.truth(b)?,
            Truth::Or(a, b) => self.truth(a)? || self.truth(b)?,
            Truth::Compare(op, a, b) => {
                let (a, b) = (self.num(a)?, self.num(b)?);
                compare(*op, a, b)?
            }
            Truth::SameChar(eq, a, b) => {
                let (a, b) = (self.char(a)?, self.char(b)?);
                // Two letters outside the alphabet may differ.
                if a < 0 && b < 0 {
                    return None;
                }
                (a == b) == *eq
            }
            Truth::Has(f, codes) => match codes {
                Some(codes) => has(self.key, f, codes),
                None => false,
            },
            Truth::HasText(t, sub) => {
                let (word, len) = self.text(t)?;
                match sub {
                    Some((sub, m)) => has_text(word, len, *sub, *m, self.cell),
                    None => false,
                }
            }
            Truth::In(is_in, n, xs) => xs.contains(&self.num(n)?) == *is_in,
            Truth::Member(is_in, n, mask, lo) => {
                let n = self.num(n)?;
                bitsets::holds(self.num(mask)?, n, *lo) == *is_in
            }
            Truth::Each { any, walk, element } => {
                let mut found = false;
                self.walk(walk, |m| {
                    found |= m.truth(element)? == *any;
                    Some(())
                })?;
                found == *any
            }
            Truth::SameText(eq, a, b) => {
                match (self.text_or_foreign(a)?, self.text_or_foreign(b)?) {
                    (Some(a), Some(b)) => (a == b) == *eq,
                    // Two literals outside the alphabet: not worked out here.
                    (None, None) => return None,
                    _ => !*eq,
                }
            }
            Truth::Let(bind, body) => {
                self.bind(bind)?;
                self.truth(body)?
            }
            Truth::Closure(f) => f.run(self)?,
        })
    }
}

/// Whether the string `(word, len)` holds `(sub, m)` somewhere, letters
/// `cell` bits each.
pub(super) fn has_text(word: u64, len: u32, sub: u64, m: u32, cell: u32) -> bool {
    first_place(word, len, (sub, m), cell, 0).is_some()
}

/// Where the string `(word, len)` first holds `(sub, m)` from place
/// `from` on, letters `cell` bits each.
fn first_place(word: u64, len: u32, (sub, m): (u64, u32), cell: u32, from: u32) -> Option<u32> {
    let mask = low_bits(m * cell);
    (from + m <= len)
        .then(|| (from..=len - m).find(|&i| (word >> (i * cell)) & mask == sub))
        .flatten()
}

/// `index_of` (-1 where it is not) or `count` of a literal in the string
/// `(word, len)` (see `Num::Find`).
pub(super) fn found(
    word: u64,
    len: u32,
    sub: Option<(u64, u32)>,
    cell: u32,
    sought: Sought,
) -> i64 {
    let Some(sub) = sub else {
        return if sought == Sought::First { -1 } else { 0 };
    };
    match sought {
        Sought::First => first_place(word, len, sub, cell, 0).map_or(-1, i64::from),
        Sought::Count => {
            let (mut count, mut from) = (0, 0);
            while let Some(at) = first_place(word, len, sub, cell, from) {
                count += 1;
                from = at + sub.1;
            }
            count
        }
    }
}

/// A word's lowest `n` bits set.
#[inline(always)]
pub(super) fn low_bits(n: u32) -> u64 {
    u64::MAX
        .checked_shr(64 - n.min(64))
        .filter(|_| n > 0)
        .unwrap_or(0)
}

/// The indices of a `set_at` of several elements.
pub(super) fn indices<'m>(tuples: &'m [Vec<i64>], regs: &'m [i64], at: &Indices) -> &'m [i64] {
    match at {
        Indices::Tuple(t) => &tuples[*t as usize],
        Indices::Fields(f) => &regs[f.first as usize..(f.first + f.len) as usize],
    }
}

/// `key` with field `i` of `f` set to `v`, if `v` fits.
#[inline(always)]
pub(super) fn put(key: u64, f: &Fields, i: u32, v: i64) -> Option<u64> {
    if !f.fits(v) {
        return None;
    }
    let shift = f.shift_of(i);
    Some(key & !(f.mask() << shift) | f.stored(v) << shift)
}

/// `key` with the fields `f` in increasing order.
fn sorted(key: u64, f: &Fields, length: Option<u64>) -> Option<u64> {
    // A key has fewer than 64 fields.
    let mut fields = [0u64; 64];
    let len = length.map_or(Some(f.len), |n| {
        u32::try_from(n).ok().filter(|&n| n <= f.len)
    })?;
    let fields = &mut fields[..len as usize];
    for (i, field) in (0..).zip(fields.iter_mut()) {
        *field = f.read(key, i);
    }
    fields.sort_unstable();
    Some(fields.iter().zip(0..).fold(key, |k, (&v, i)| {
        k & !(f.mask() << f.shift_of(i)) | v << f.shift_of(i)
    }))
}

/// `key` with the fields of `f` in the opposite order.
#[inline]
fn reversed(key: u64, f: &Fields) -> u64 {
    if f.len == 0 {
        return key;
    }
    let all = if f.len * f.width >= 64 {
        u64::MAX
    } else {
        (1u64 << (f.len * f.width)) - 1
    };
    let (turned, _) = words::reverse(((key >> f.shift) & all, f.len), f.width);
    key & !(all << f.shift) | turned << f.shift
}

/// How many tuples a product of these ranges has, or `None` past the
/// interpreter's limit on a product (counted as it counts, elements too).
fn product_size(ranges: &[i64]) -> Option<u64> {
    let limit = MAX_COLLECTION as u64;
    let mut tuples: u64 = 1;
    for (d, pair) in ranges.chunks_exact(2).enumerate() {
        let len = pair[1].saturating_sub(pair[0]).max(0) as u64;
        let counted = tuples.saturating_mul(len).saturating_mul(d as u64 + 1);
        if len > limit || counted > limit {
            return None;
        }
        tuples *= len;
    }
    Some(tuples)
}

/// Bit `i` set when cell `i` of the string in fields `f` holds `code`.
#[inline(always)]
pub(super) fn cells_equal(key: u64, f: &Fields, code: i64) -> u64 {
    let all = if f.len == 64 {
        u64::MAX
    } else {
        (1u64 << f.len) - 1
    };
    if f.width == 1 {
        let cells = (key >> f.shift) & all;
        return match code {
            0 => !cells & all,
            1 => cells,
            _ => 0,
        };
    }
    let mut found = 0u64;
    for i in 0..f.len {
        if f.read(key, i) as i64 == code {
            found |= 1 << i;
        }
    }
    found
}

/// Whether the string in fields `f` holds the text with these codes.
pub(super) fn has(key: u64, f: &Fields, codes: &[i64]) -> bool {
    starts(key, f, codes) != 0
}

/// How often `codes` occur in the cells of `f`, matches that do not
/// overlap, taken from the left (as `count` counts a substring).
pub(super) fn matches(key: u64, f: &Fields, codes: &[i64]) -> i64 {
    let m = codes.len() as u32;
    let mut starts = starts(key, f, codes);
    let mut found = 0;
    while starts != 0 {
        let at = starts.trailing_zeros();
        found += 1;
        starts &= u64::MAX.checked_shl(at + m).unwrap_or(0);
    }
    found
}

/// Bit i set when the cells of `f` from cell i on hold `codes` (never
/// empty).
fn starts(key: u64, f: &Fields, codes: &[i64]) -> u64 {
    let m = codes.len() as u32;
    if m > f.len {
        return 0;
    }
    // Bit i: the text could start at cell i.
    let mut starts = (1u64 << (f.len - m + 1)) - 1;
    // A text such as "XXX" repeats its letters: each letter's cells are
    // found once for a run of it.
    let mut letter = -1;
    let mut cells = 0;
    for (j, &c) in codes.iter().enumerate() {
        if c != letter {
            letter = c;
            cells = cells_equal(key, f, c);
        }
        starts &= cells >> j;
        if starts == 0 {
            return 0;
        }
    }
    starts
}

pub(super) fn binomial(n: usize, k: usize) -> u128 {
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * (n - i) as u128 / (i + 1) as u128;
    }
    c
}
