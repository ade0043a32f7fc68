//! The writes of a move that do not depend on its innermost generator,
//! made once for each value of the generators they do read. In Mock
//! Turtles' `set_at(set_at(set_at(row, i, "T"), j, flip(row[j])), k,
//! flip(row[k]))` the first two writes read `i` and `j` alone: made once
//! for each `j`, only the last is made for every `k`. The writes run in
//! order on the key, so a first few of them made earlier give the same key;
//! they are made at the first option that needs them (never for a `j` whose
//! `k`s the guard turns all down), so an error they meet is met just where
//! the step-by-step code meets it.

use super::code::{Char, Num, Rule, Seq, Source, Target, Write};
use super::layout::Fields;
use super::leaves::Operand;
use super::lookup::Site;
use super::reads;
use super::run::{low_bits, put, Machine};
use std::fmt;

/// A first few of a rule's writes that read no register of its last
/// generator.
#[derive(Debug)]
pub struct Hoist {
    /// How many writes, from the first.
    pub writes: usize,
    /// The registers of earlier generators they read: the key they make
    /// is kept while these and the key stay as they were.
    pub reads: Vec<u32>,
    /// Where the machine keeps the key they made.
    pub slot: usize,
    /// The one write left after them, when it sets the element at the
    /// last generator's value (see `Last`).
    pub last: Option<Last>,
    /// The write before `last`, taken out of the hoisted ones, when it
    /// sets the element at the value of the generator before the last and
    /// no test follows that generator: Mock Turtles' `set_at(..., j,
    /// flip(row[j]))`. The last two loops then run as one (see
    /// `Machine::pair_loop`), each option's key made from the hoisted key
    /// with no step of the general code per value of `j`.
    pub pair: Option<Last>,
    /// Registers below this hold the key's fields.
    pub fields: u32,
    /// Whether the last generator's range reads nothing but the key's
    /// fields and the pair's register: the keys of the last two loops
    /// are then the hoisted key under masks made once a key, laid out
    /// for every value of the pair's generator (see `Flat`).
    pub flat: bool,
}

/// The last write of a rule whose other writes are hoisted, when it sets
/// one element of a list or string at the last generator's value and
/// nothing but that write depends on it (no test follows the generator):
/// Mock Turtles' `set_at(..., k, flip(row[k]))`. The loop over the last
/// generator then writes each option's key straight from the hoisted key,
/// one element a value (see `Machine::last_loop`).
pub struct Last {
    pub fields: Fields,
    /// The last generator's register, which is the element's index.
    pub index: usize,
    pub value: Operand,
    /// The one element the value is worked out from, if it is one (see
    /// `lookup`).
    pub read: Option<Site>,
    /// Where its bits at each index are kept, when they are made once a
    /// key (see `share_tables`).
    pub table: Option<TableAt>,
}

impl Last {
    /// Whether the value written reads nothing but the key's fields and
    /// the index: a literal, `xs[k]`, or an expression of `xs[k]` alone
    /// (`flip(row[k])`, see `lookup`). Its bits at each index are then the
    /// same for every option of a key, and made once a key.
    fn per_key(&self) -> bool {
        match &self.value {
            Operand::Lit(_) => true,
            Operand::Element { index, .. } | Operand::Table { index, .. } => *index == self.index,
            _ => false,
        }
    }

    /// What its bits at each index are made from, when they are made once
    /// a key: the field written and the compiled value with the index left
    /// out (each write reads its own generator's register). Two writes
    /// with the same shape leave the same bits at each index of a key.
    fn shape(&self) -> Option<(Fields, Shape)> {
        if !self.per_key() {
            return None;
        }
        let shape = match &self.value {
            Operand::Lit(v) => Shape::Lit(*v),
            Operand::Element { first, len, .. } => Shape::Element(*first, *len),
            // The table answers for every value a field holds from zero;
            // a field biased below zero reads its other values another way,
            // not compared.
            Operand::Table {
                first, len, table, ..
            } => match self.read {
                Some(site)
                    if site.fields.bias == 0
                        && site.fields.first as usize == *first
                        && site.fields.len == *len =>
                {
                    Shape::Table(site.fields, table.clone())
                }
                _ => return None,
            },
            _ => return None,
        };
        Some((self.fields, shape))
    }
}

/// A value made once a key, as its bits at each index depend on it.
#[derive(PartialEq, Eq)]
enum Shape {
    Lit(i64),
    /// `xs[k]`: the element's first register and length.
    Element(usize, u32),
    /// An expression of `xs[k]` alone, by its value for each value of the
    /// element's field.
    Table(Fields, Box<[Option<i64>]>),
}

/// Where a table of bits made once a key is kept: the `last` or the
/// `pair` bits of a rule's hoisted key (see `Made`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableAt {
    slot: usize,
    pair: bool,
}

/// Gives each write made once a key the place of its table of bits, one
/// place for the writes of the same shape in every rule: Mock Turtles'
/// `two` flips the coin at its last generator as `three` does at its last
/// two, and the three writes share one table, made once a key.
pub fn share_tables(rules: &mut [Rule]) {
    let mut made: Vec<((Fields, Shape), TableAt)> = Vec::new();
    for rule in rules {
        let Some(hoist) = &mut rule.hoist else {
            continue;
        };
        let slot = hoist.slot;
        let writes = [(&mut hoist.pair, true), (&mut hoist.last, false)];
        for (last, pair) in writes {
            let Some(last) = last else { continue };
            let Some(shape) = last.shape() else { continue };
            last.table = Some(match made.iter().find(|(s, _)| *s == shape) {
                Some((_, at)) => *at,
                None => {
                    let at = TableAt { slot, pair };
                    made.push((shape, at));
                    at
                }
            });
        }
    }
}

impl fmt::Debug for Last {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Last")
            .field("fields", &self.fields)
            .field("index", &self.index)
            .finish_non_exhaustive()
    }
}

/// Where the write after a rule's hoisted writes sets an element at the
/// last generator's value, and that element's value: the write taken out
/// of the rule's writes, to be lowered into a `Last`. `None` (the rule
/// unchanged) when it is anything else, or when a test follows the last
/// generator or its loop is walked another way (bounds, a progression).
pub fn last_write(rule: &mut Rule) -> Option<(Fields, u32, LastValue)> {
    let hoist = rule.hoist.as_ref()?;
    let last = rule.gens.last()?;
    let plain = rule.writes.len() == hoist.writes + 1
        && rule.guard.is_none()
        && rule.early.last().is_none_or(Option::is_none)
        && rule.bounds.last().is_none_or(Option::is_none)
        && rule.sieves.last().is_none_or(Option::is_none)
        && !rule.progression
        && matches!(last.source, Source::Each(_));
    let Target::Reg(inner) = last.target else {
        return None;
    };
    let at = |i: &Num| matches!(i, Num::Reg(r) if *r == inner);
    match rule.writes.last()? {
        Write::Cell(_, i, _) | Write::Element(_, i, _) if plain && at(i) => {}
        _ => return None,
    }
    match rule.writes.pop()? {
        Write::Cell(f, _, c) => Some((f, inner, LastValue::Char(c))),
        Write::Element(f, _, n) => Some((f, inner, LastValue::Num(n))),
        _ => None,
    }
}

/// Where the last of a rule's hoisted writes sets an element at the value
/// of the generator before the last, and that element's value: the write
/// taken out of the hoisted ones (which then read that generator no
/// more), to be lowered into the hoist's `pair`. Asked once `last_write`
/// has taken the rule's last write; `None` (the rule unchanged) when no
/// such write is there, when an earlier hoisted write reads that
/// generator, or when a test follows it or its loop is walked another way.
pub fn pair_write(rule: &mut Rule) -> Option<(Fields, u32, LastValue)> {
    let hoist = rule.hoist.as_ref()?;
    let at = rule.gens.len().checked_sub(2)?;
    let Target::Reg(reg) = rule.gens[at].target else {
        return None;
    };
    let plain = hoist.writes > 0
        && rule.writes.len() == hoist.writes
        && rule.early.get(at).is_some_and(Option::is_none)
        && rule.bounds.get(at).is_none_or(Option::is_none)
        && rule.sieves.get(at).is_none_or(Option::is_none)
        && matches!(rule.gens[at].source, Source::Each(_));
    let (pair, earlier) = rule.writes.split_last()?;
    let index_is_reg = |i: &Num| matches!(i, Num::Reg(r) if *r == reg);
    match pair {
        Write::Cell(_, i, _) | Write::Element(_, i, _) if plain && index_is_reg(i) => {}
        _ => return None,
    }
    // The registers of earlier generators the other hoisted writes read:
    // the key they make is kept across the pair's values.
    let mut reads = Vec::new();
    for w in earlier {
        let regs = reads::outside(|v| reads::write(v, w))?;
        if regs.contains(&reg) {
            return None;
        }
        reads.extend(regs.into_iter().filter(|r| hoist.reads.contains(r)));
    }
    reads.sort_unstable();
    reads.dedup();
    let flat = match rule.gens.last().map(|g| &g.source) {
        Some(Source::Each(inner @ Seq::Range(..))) => reads::outside(|v| reads::seq(v, inner))
            .is_some_and(|regs| regs.iter().all(|&r| r < hoist.fields || r == reg)),
        _ => false,
    };
    let hoist = rule.hoist.as_mut()?;
    hoist.writes -= 1;
    hoist.reads = reads;
    hoist.flat = flat;
    match rule.writes.pop()? {
        Write::Cell(f, _, c) => Some((f, reg, LastValue::Char(c))),
        Write::Element(f, _, n) => Some((f, reg, LastValue::Num(n))),
        _ => None,
    }
}

/// What the last write sets its element to, before it is lowered.
pub enum LastValue {
    Num(Num),
    Char(Char),
}

/// The writes of `rule` worth making once for each value of the
/// generators before its last, if any are. `fields`: the registers that
/// hold the key's fields, which stay as they are for every option.
pub fn recognise(rule: &Rule, fields: u32, slot: usize) -> Option<Hoist> {
    let (last, outer) = rule.gens.split_last()?;
    if rule.fused.is_some() {
        return None;
    }
    let Target::Reg(inner) = last.target else {
        return None;
    };
    let outer: Vec<u32> = outer
        .iter()
        .map(|g| match g.target {
            Target::Reg(r) => Some(r),
            Target::Tuple(_) => None,
        })
        .collect::<Option<_>>()?;
    let mut read = Vec::new();
    let mut count = 0;
    for w in &rule.writes {
        // A register the writes read must be a field of the key or an
        // earlier generator's (those they set themselves are their own).
        let found = reads::outside(|v| reads::write(v, w));
        let plain = found.as_ref().is_some_and(|regs| {
            regs.iter().all(|r| *r < fields || outer.contains(r)) && !regs.contains(&inner)
        });
        let Some(regs) = found.filter(|_| plain) else {
            break;
        };
        read.extend(regs.iter().filter(|r| outer.contains(r)));
        count += 1;
    }
    if count == 0 {
        return None;
    }
    read.sort_unstable();
    read.dedup();
    Some(Hoist {
        writes: count,
        reads: read,
        slot,
        last: None,
        pair: None,
        fields,
        flat: false,
    })
}

/// The key the hoisted writes of a rule made, and what it was made from.
#[derive(Clone, Debug, Default)]
pub struct Made {
    made: bool,
    key: u64,
    reads: Vec<i64>,
    written: u64,
    /// What the `last` write leaves at each index, made once a key...
    last: Bits,
    /// ... and what the `pair` write does; each also serves the writes
    /// of other rules that leave the same bits (see `share_tables`).
    pair: Bits,
    /// The two writes at once, for each value of the pair's generator.
    flat: Flat,
}

/// The ranges of the last loop of a rule with a `flat` hoist, for each
/// value `j` of the pair's generator from 0, worked out once a key: the
/// loops over a range of `j` then list their options from the `pair` and
/// `last` bits with no step of the general code a `j`. Made for the
/// values of `j` asked for so far.
#[derive(Clone, Debug, Default)]
struct Flat {
    /// The key they are made for, if any.
    of: Option<u64>,
    /// For each value, the last loop's indices.
    ranges: Vec<(usize, usize)>,
    /// The values (bit `j`) whose loop is not listed so: the last range
    /// or a write there is an error, which the loops meet step by step.
    odd: u64,
}

/// What a `Last` write made once a key leaves at each index of its field.
#[derive(Clone, Debug, Default)]
struct Bits {
    /// The key they are made for, if any.
    of: Option<u64>,
    /// For each index, the bits the write leaves in its field there (the
    /// rest of the key zero)...
    bits: Vec<u64>,
    /// ... the key's other bits (those it keeps)...
    kept: Vec<u64>,
    /// ... and whether it is written at all (bit `i` set: the value is
    /// worked out without an error and fits the field).
    written_at: u64,
}

impl Bits {
    /// `base` with the write made at index `at`, if it is made there.
    #[inline(always)]
    fn at(&self, base: u64, at: u32) -> Option<u64> {
        if self.written_at >> at & 1 == 0 {
            return None;
        }
        Some(base & self.kept[at as usize] | self.bits[at as usize])
    }
}

impl Machine {
    /// The table of bits kept at `at`, made for the current key by `last`,
    /// taken out of its place until `put_bits` puts it back.
    fn take_bits(&mut self, at: TableAt, last: &Last) -> Bits {
        let mut bits = std::mem::take(self.bits_at(at));
        self.bits_for(&mut bits, last);
        bits
    }

    fn put_bits(&mut self, at: TableAt, bits: Bits) {
        *self.bits_at(at) = bits;
    }

    fn bits_at(&mut self, at: TableAt) -> &mut Bits {
        let made = &mut self.hoisted[at.slot];
        if at.pair {
            &mut made.pair
        } else {
            &mut made.last
        }
    }

    /// The key of the option the current registers make by `rule`: its
    /// hoisted writes made once for each value of what they read.
    pub(super) fn rule_written(&mut self, rule: &Rule) -> Option<u64> {
        let Some(hoist) = &rule.hoist else {
            return self.written_onto(self.key, &rule.writes);
        };
        let written = self.hoisted_key(hoist, &rule.writes[..hoist.writes])?;
        let k = self.written_onto(written, &rule.writes[hoist.writes..])?;
        let k = match &hoist.pair {
            Some(pair) => self.last_written(pair, k)?,
            None => k,
        };
        match &hoist.last {
            Some(last) => self.last_written(last, k),
            None => Some(k),
        }
    }

    /// `k` with the element the last write sets at the last generator's
    /// current value.
    #[inline(always)]
    fn last_written(&mut self, last: &Last, k: u64) -> Option<u64> {
        let i = super::leaves::index(self.regs[last.index], last.fields.len)?;
        let v = last.value.get(self)?;
        put(k, &last.fields, i, v)
    }

    /// The key the hoisted writes `first` make from the current key, made
    /// again only when what they read has changed.
    fn hoisted_key(&mut self, hoist: &Hoist, first: &[Write]) -> Option<u64> {
        let regs = &self.regs;
        let made = &self.hoisted[hoist.slot];
        let same = made.made
            && made.key == self.key
            && hoist
                .reads
                .iter()
                .zip(&made.reads)
                .all(|(r, v)| regs[*r as usize] == *v);
        if same {
            return Some(made.written);
        }
        let written = self.written_onto(self.key, first)?;
        let regs = &self.regs;
        let made = &mut self.hoisted[hoist.slot];
        made.made = true;
        made.key = self.key;
        made.reads.clear();
        made.reads
            .extend(hoist.reads.iter().map(|r| regs[*r as usize]));
        made.written = written;
        Some(written)
    }

    /// `bits` made for the current key, unless they are made for it.
    #[inline(always)]
    fn bits_for(&mut self, bits: &mut Bits, last: &Last) {
        if bits.of != Some(self.key) {
            self.make_bits(bits, last);
        }
    }

    /// `bits_for` a key whose bits are not made yet.
    #[inline(never)]
    fn make_bits(&mut self, made: &mut Bits, last: &Last) {
        made.bits.clear();
        let mut written_at = 0;
        let f = &last.fields;
        for at in 0..f.len {
            self.regs[last.index] = i64::from(at);
            let v = last.value.get(self).filter(|&v| f.fits(v));
            written_at |= u64::from(v.is_some()) << at;
            made.bits
                .push(v.map_or(0, |v| f.stored(v) << f.shift_of(at)));
        }
        // The bits kept depend on the fields alone.
        if made.kept.len() != f.len as usize {
            made.kept.clear();
            made.kept
                .extend((0..f.len).map(|at| !(f.mask() << f.shift_of(at))));
        }
        made.written_at = written_at;
        made.of = Some(self.key);
    }

    /// The loop over the last generator of a rule with a `Last` write,
    /// from `start` to `end` of `seq` into the write's index register:
    /// the hoisted key made once, then each option's key from it.
    pub(super) fn last_loop(
        &mut self,
        rule: &Rule,
        hoist: &Hoist,
        last: &Last,
        seq: &Seq,
        (start, end): (i64, i64),
        out: &mut Vec<u64>,
    ) -> Option<()> {
        if end <= start {
            return Some(());
        }
        // The steps the loop takes, counted at once: a loop past the
        // limit is stopped all the same.
        self.steps(usize::try_from(end - start).ok()?)?;
        let (first, rest) = rule.writes.split_at(hoist.writes);
        let base = self.hoisted_key(hoist, first)?;
        let base = if rest.is_empty() {
            base
        } else {
            self.written_onto(base, rest)?
        };
        let base = match &hoist.pair {
            Some(pair) => self.last_written(pair, base)?,
            None => base,
        };
        if let (None, Some(at)) = (&self.trail, last.table) {
            let bits = self.take_bits(at, last);
            let pushed = self.push_last(&bits, last, seq, (start, end), base, out);
            self.put_bits(at, bits);
            return pushed;
        }
        for i in start..end {
            self.regs[last.index] = self.item(seq, i)?;
            let k = self.last_written(last, base)?;
            out.push(k);
            if let Some(trail) = &mut self.trail {
                trail.record(&self.regs, &self.tuples);
            }
        }
        Some(())
    }

    /// The keys of the last loop, from `start` to `end` of `seq`, its
    /// write made once a key (`bits`) onto `base`.
    #[inline(always)]
    fn push_last(
        &self,
        bits: &Bits,
        last: &Last,
        seq: &Seq,
        (start, end): (i64, i64),
        base: u64,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        let len = last.fields.len;
        // A range of indices, each written: its keys at once.
        if let (Seq::Range(..), Ok(from), Some(to)) = (
            seq,
            u32::try_from(start),
            super::leaves::index(end - 1, len),
        ) {
            let all = low_bits(to + 1 - from) << from;
            if bits.written_at & all == all {
                let (from, to) = (from as usize, to as usize);
                let kept = &bits.kept[from..=to];
                let made = &bits.bits[from..=to];
                out.extend(kept.iter().zip(made).map(|(k, b)| base & k | b));
                return Some(());
            }
        }
        for i in start..end {
            let at = super::leaves::index(self.item(seq, i)?, len)?;
            out.push(bits.at(base, at)?);
        }
        Some(())
    }

    /// The last two loops of a rule with a `pair` and a `last` write, the
    /// pair's generator from `start` to `end` of `seq`: for each of its
    /// values, the last generator's bounds, then the pair's write and each
    /// option's key made from the hoisted key, both writes made once a
    /// key. `false` (nothing done) where they are not made once a key or
    /// the options are being recorded: the loops then run step by step.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn pair_loop(
        &mut self,
        rule: &Rule,
        hoist: &Hoist,
        (pair, last): (&Last, &Last),
        seq: &Seq,
        (start, end): (i64, i64),
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        let Some(Source::Each(inner)) = rule.gens.last().map(|g| &g.source) else {
            return Some(false);
        };
        let (None, Some(pair_at), Some(last_at)) = (&self.trail, pair.table, last.table) else {
            return Some(false);
        };
        // The two writes may share one table (Mock Turtles' flips).
        let pair_bits = self.take_bits(pair_at, pair);
        let own_last = (last_at != pair_at).then(|| self.take_bits(last_at, last));
        let last_bits = own_last.as_ref().unwrap_or(&pair_bits);
        let first = &rule.writes[..hoist.writes];
        // The pair's values are the numbers of its range.
        if hoist.flat && matches!(seq, Seq::Range(..)) {
            let bits = (&pair_bits, last_bits);
            let loops = (first, inner);
            let listed = self.flat_pairs(hoist, (pair, last), bits, loops, (start, end), out);
            if listed != Some(false) {
                if let Some(bits) = own_last {
                    self.put_bits(last_at, bits);
                }
                self.put_bits(pair_at, pair_bits);
                return listed.map(|_| true);
            }
        }
        let mut base = None;
        let mut each = |m: &mut Machine| -> Option<()> {
            // The steps of the pair's loop, counted at once.
            m.steps(usize::try_from(end.saturating_sub(start).max(0)).ok()?)?;
            for i in start..end {
                let value = m.item(seq, i)?;
                m.regs[pair.index] = value;
                let (from, to) = m.bounds(inner)?;
                if to > from {
                    m.steps(usize::try_from(to - from).ok()?)?;
                    let base = match base {
                        Some(b) => b,
                        None => *base.insert(m.hoisted_key(hoist, first)?),
                    };
                    let at = super::leaves::index(value, pair.fields.len)?;
                    let paired = pair_bits.at(base, at)?;
                    m.push_last(last_bits, last, inner, (from, to), paired, out)?;
                }
            }
            Some(())
        };
        let done = each(self);
        if let Some(bits) = own_last {
            self.put_bits(last_at, bits);
        }
        self.put_bits(pair_at, pair_bits);
        done.map(|()| true)
    }

    /// The options of `pair_loop` from the rule's `Flat` ranges, the
    /// pair's values `start..end`: `false` (nothing done) where one of
    /// them is out of the field's range or its loop is odd.
    #[allow(clippy::too_many_arguments)]
    fn flat_pairs(
        &mut self,
        hoist: &Hoist,
        (pair, last): (&Last, &Last),
        (pair_bits, last_bits): (&Bits, &Bits),
        (first, inner): (&[Write], &Seq),
        (start, end): (i64, i64),
        out: &mut Vec<u64>,
    ) -> Option<bool> {
        if end <= start {
            return Some(true);
        }
        let (Ok(from), Some(to)) = (
            usize::try_from(start),
            super::leaves::index(end - 1, pair.fields.len),
        ) else {
            return Some(false);
        };
        let to = to as usize;
        let mut flat = std::mem::take(&mut self.hoisted[hoist.slot].flat);
        if flat.of != Some(self.key) {
            flat.of = Some(self.key);
            flat.ranges.clear();
            flat.odd = 0;
        }
        let saved = self.regs[pair.index];
        while flat.ranges.len() <= to {
            let j = flat.ranges.len();
            self.regs[pair.index] = j as i64;
            let range = self.flat_range(j, last, (pair_bits, last_bits), inner);
            flat.odd |= u64::from(range.is_none()) << j;
            flat.ranges.push(range.unwrap_or((0, 0)));
        }
        self.regs[pair.index] = saved;
        let plain = flat.odd & low_bits((to + 1 - from) as u32) << from == 0;
        let listed = plain.then(|| {
            let ranges = &flat.ranges[from..=to];
            let count: usize = ranges.iter().map(|(a, b)| b - a).sum();
            self.steps(ranges.len() + count)?;
            if count == 0 {
                return Some(());
            }
            let base = self.hoisted_key(hoist, first)?;
            // Written into slots made at once: pushed one by one, each
            // key would wait for the list's length to be read again.
            let at = out.len();
            out.resize(at + count, 0);
            let mut slots = &mut out[at..];
            for (j, &(a, b)) in (from..).zip(ranges) {
                let paired = base & pair_bits.kept[j] | pair_bits.bits[j];
                let (these, rest) = std::mem::take(&mut slots).split_at_mut(b - a);
                let made = last_bits.kept[a..b].iter().zip(&last_bits.bits[a..b]);
                for (slot, (k, b)) in these.iter_mut().zip(made) {
                    *slot = paired & k | b;
                }
                slots = rest;
            }
            Some(())
        });
        self.hoisted[hoist.slot].flat = flat;
        listed.map_or(Some(false), |done| done.map(|()| true))
    }

    /// The indices of the last loop where the pair's value is `j` (in its
    /// register), `None` where its range or a write there is an error: an
    /// empty range writes nothing.
    fn flat_range(
        &mut self,
        j: usize,
        last: &Last,
        (pair_bits, last_bits): (&Bits, &Bits),
        inner: &Seq,
    ) -> Option<(usize, usize)> {
        let (from, to) = self.bounds(inner)?;
        if to <= from {
            return Some((0, 0));
        }
        let from = u32::try_from(from).ok()?;
        let to = super::leaves::index(to - 1, last.fields.len)?;
        let all = low_bits(to + 1 - from) << from;
        let written = pair_bits.written_at >> j & 1 == 1 && last_bits.written_at & all == all;
        written.then_some((from as usize, to as usize + 1))
    }
}

#[cfg(test)]
mod tests {
    use super::super::leaves::Operand;
    use super::super::testing::{compiled, inside, same_options};
    use super::{Last, TableAt};

    const TURTLES: &str = include_str!("../../../bench/games/mock-turtles.game");

    /// Three generators whose last two each set their own element: the
    /// element at `j` made from a table, from `xs[j]` plus one (which may
    /// outgrow its field), or a literal; `bump`'s last loop's bounds read
    /// both.
    const DIALS: &str = r#"
        fn turn(c: nat) = if c == 2 then 0 else c + 1;
        game Dials(xs: [nat]) {
          move spin(i in indices(xs), j in 0..i, k in 0..j) if xs[i] > 0
            => Dials(set_at(set_at(set_at(xs, i, xs[i] - 1), j, turn(xs[j])), k, turn(xs[k])));
          move bump(i in indices(xs), j in 1..i, k in j - 1..i) if xs[i] > 1
            => Dials(set_at(set_at(set_at(xs, i, xs[i] - 2), j, xs[j] + 1), k, 0));
          move clear(i in indices(xs), j in 0..=i, k in 0..j) if xs[i] > 2
            => Dials(set_at(set_at(set_at(xs, i, 0), j, 0), k, turn(xs[k])));
          move grow(i in indices(xs), j in 0..i, k in 0..j) if xs[i] == 2
            => Dials(set_at(set_at(set_at(xs, i, 0), j, xs[j] + 1), k, turn(xs[k])));
        }
    "#;

    #[test]
    fn the_two_last_writes_of_the_three_coin_move_are_made_once_a_key() {
        let (game, _) = compiled(TURTLES, r#"Turtles("HHHHHHH")"#, true);
        let code = &inside(&*game).code;
        let pairs: Vec<_> = code
            .rules
            .iter()
            .filter_map(|r| Some((r.hoist.as_ref()?.pair.as_ref()?, r.gens.len())))
            .collect();
        // Only `three`: in `two` a test follows the generator before the
        // last.
        assert_eq!(pairs.len(), 1);
        assert_eq!(pairs[0].1, 3);
        assert!(matches!(pairs[0].0.value, Operand::Table { .. }));
    }

    /// The tables of bits of each rule's `pair` and `last` writes.
    fn tables(source: &str, position: &str) -> Vec<[Option<TableAt>; 2]> {
        let (game, _) = compiled(source, position, true);
        let code = &inside(&*game).code;
        let at = |l: &Option<Last>| l.as_ref().and_then(|l| l.table);
        code.rules
            .iter()
            .map(|r| {
                r.hoist
                    .as_ref()
                    .map_or([None; 2], |h| [at(&h.pair), at(&h.last)])
            })
            .collect()
    }

    #[test]
    fn the_flips_of_the_two_and_three_coin_moves_share_one_table() {
        let [one, two, three] = tables(TURTLES, r#"Turtles("HHHHHHH")"#)[..] else {
            panic!("Mock Turtles has three moves");
        };
        assert_eq!(one, [None, None]);
        assert!(two[1].is_some());
        assert_eq!(three, [two[1], two[1]]);
    }

    /// Writes of one element at the last generators that look alike:
    /// `same` turns its dial as `spin` does, spelled another way; `other`
    /// turns another list's dial; `back` turns it the other way, and
    /// `over` by a rule that differs from `spin`'s at a value the field
    /// holds (3) though not at those the rules make.
    const TWINS: &str = r#"
        fn turn(c: nat) = if c == 2 then 0 else c + 1;
        fn again(c: nat) = if c != 2 then c + 1 else 0;
        fn back(c: nat) = if c == 0 then 2 else c - 1;
        game Twins(xs: [nat], ys: [nat]) {
          move spin(i in indices(xs), k in 0..i) if xs[i] > 0
            => Twins(set_at(set_at(xs, i, xs[i] - 1), k, turn(xs[k])), ys);
          move same(i in indices(xs), j in 0..i, k in 0..j) if xs[i] > 1
            => Twins(set_at(set_at(set_at(xs, i, xs[i] - 2), j, again(xs[j])), k, turn(xs[k])), ys);
          move other(i in indices(ys), k in 0..i) if ys[i] > 0
            => Twins(xs, set_at(set_at(ys, i, ys[i] - 1), k, turn(ys[k])));
          move back(i in indices(xs), k in 0..i) if xs[i] > 2
            => Twins(set_at(set_at(xs, i, xs[i] - 3), k, back(xs[k])), ys);
          move over(i in indices(xs), k in 0..i) if xs[i] > 1
            => Twins(set_at(set_at(xs, i, xs[i] - 1), k, (xs[k] + 1) % 3), ys);
        }
    "#;

    #[test]
    fn only_writes_of_the_same_field_and_value_share_a_table() {
        let [spin, same, other, back, over] = tables(TWINS, "Twins([2, 1, 0, 2], [1, 2, 0])")[..]
        else {
            panic!("Twins has five moves");
        };
        let spin = spin[1].expect("spin's write is made once a key");
        assert_eq!(same, [Some(spin), Some(spin)]);
        for [_, last] in [other, back, over] {
            assert!(last.is_some_and(|t| t != spin));
        }
        assert_ne!(back[1], over[1]);
        assert_ne!(other[1], over[1]);
        assert_ne!(other[1], back[1]);
        assert!(same_options(TWINS, "Twins([2, 1, 0, 2], [1, 2, 0])") > 40);
        assert!(same_options(TWINS, "Twins([2, 2, 1, 2, 2], [2, 0, 1, 2])") > 1000);
    }

    /// Whether each rule's last two loops are listed from ranges worked
    /// out once a key.
    fn flat(source: &str, position: &str) -> Vec<bool> {
        let (game, _) = compiled(source, position, true);
        let code = &inside(&*game).code;
        let flat = |r: &super::super::code::Rule| r.hoist.as_ref().is_some_and(|h| h.flat);
        code.rules.iter().map(flat).collect()
    }

    #[test]
    fn a_last_range_that_reads_the_first_generator_is_not_laid_out_once_a_key() {
        assert_eq!(flat(TURTLES, r#"Turtles("HHHHHHH")"#), [false, false, true]);
        // `bump`'s `k in j - 1..i` reads `i`, which changes within a key.
        assert_eq!(
            flat(DIALS, "Dials([2, 1, 2, 0, 2])"),
            [true, false, true, true]
        );
    }

    #[test]
    fn paired_loops_give_the_options_step_by_step_code_gives() {
        assert_eq!(same_options(TURTLES, r#"Turtles("HHHHHHHH")"#), 1 << 8);
        assert!(same_options(TURTLES, r#"Turtles("THTHHTHT")"#) > 1 << 6);
        assert!(same_options(DIALS, "Dials([2, 1, 2, 0, 2])") > 100);
        // xs[j] + 1 outgrows the field of two bits: both ways stop alike.
        assert!(same_options(DIALS, "Dials([3, 3, 1, 3])") > 0);
    }
}
