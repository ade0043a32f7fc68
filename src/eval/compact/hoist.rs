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
    })
}

/// The key the hoisted writes of a rule made, and what it was made from.
#[derive(Clone, Debug, Default)]
pub struct Made {
    made: bool,
    key: u64,
    reads: Vec<i64>,
    written: u64,
    /// The key whose `bits` are made, if any.
    bits_of: Option<u64>,
    /// For each index of a `Last` write that is made once a key, the bits
    /// it leaves in its field there (the rest of the key zero)...
    bits: Vec<u64>,
    /// ... the key's other bits (those it keeps)...
    kept: Vec<u64>,
    /// ... and whether it is written at all (bit `i` set: the value is
    /// worked out without an error and fits the field).
    written_at: u64,
}

impl Machine {
    /// The key of the option the current registers make by `rule`: its
    /// hoisted writes made once for each value of what they read.
    pub(super) fn rule_written(&mut self, rule: &Rule) -> Option<u64> {
        let Some(hoist) = &rule.hoist else {
            return self.written_onto(self.key, &rule.writes);
        };
        let written = self.hoisted_key(hoist, &rule.writes[..hoist.writes])?;
        let k = self.written_onto(written, &rule.writes[hoist.writes..])?;
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

    /// Makes the bits a `Last` write made once a key leaves at each index
    /// (see `Made::bits`), unless they are made for this key.
    #[inline(always)]
    fn last_bits(&mut self, slot: usize, last: &Last) {
        if self.hoisted[slot].bits_of != Some(self.key) {
            self.make_last_bits(slot, last);
        }
    }

    /// `last_bits` for a key whose bits are not made yet.
    #[inline(never)]
    fn make_last_bits(&mut self, slot: usize, last: &Last) {
        let mut bits = std::mem::take(&mut self.hoisted[slot].bits);
        bits.clear();
        let mut written_at = 0;
        let f = &last.fields;
        for at in 0..f.len {
            self.regs[last.index] = i64::from(at);
            let v = last.value.get(self).filter(|&v| f.fits(v));
            written_at |= u64::from(v.is_some()) << at;
            bits.push(v.map_or(0, |v| f.stored(v) << f.shift_of(at)));
        }
        let made = &mut self.hoisted[slot];
        made.bits = bits;
        made.kept.clear();
        made.kept
            .extend((0..f.len).map(|at| !(f.mask() << f.shift_of(at))));
        made.written_at = written_at;
        made.bits_of = Some(self.key);
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
        if self.trail.is_none() && last.per_key() {
            self.last_bits(hoist.slot, last);
            let made = &self.hoisted[hoist.slot];
            let len = last.fields.len;
            // A range of indices, each written: its keys at once.
            if let (Seq::Range(..), Ok(from), Some(to)) = (
                seq,
                u32::try_from(start),
                super::leaves::index(end - 1, len),
            ) {
                let all = low_bits(to + 1 - from) << from;
                if made.written_at & all == all {
                    let (from, to) = (from as usize, to as usize);
                    let kept = &made.kept[from..=to];
                    let bits = &made.bits[from..=to];
                    out.extend(kept.iter().zip(bits).map(|(k, b)| base & k | b));
                    return Some(());
                }
            }
            for i in start..end {
                let at = super::leaves::index(self.item(seq, i)?, len)?;
                if made.written_at >> at & 1 == 0 {
                    return None;
                }
                out.push(base & made.kept[at as usize] | made.bits[at as usize]);
            }
            return Some(());
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
}
