//! The writes of a move that do not depend on its innermost generator,
//! made once for each value of the generators they do read. In Mock
//! Turtles' `set_at(set_at(set_at(row, i, "T"), j, flip(row[j])), k,
//! flip(row[k]))` the first two writes read `i` and `j` alone: made once
//! for each `j`, only the last is made for every `k`. The writes run in
//! order on the key, so a first few of them made earlier give the same key;
//! they are made at the first option that needs them (never for a `j` whose
//! `k`s the guard turns all down), so an error they meet is met just where
//! the step-by-step code meets it.

use super::code::{
    Appended, Bind, Char, Element, Num, Rule, Seq, Target, Text, Truth, Walk, Write,
};
use super::run::Machine;

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
    let mut reads = Vec::new();
    let mut count = 0;
    for w in &rule.writes {
        let mut found = Reads::default();
        found.write(w);
        // A register the writes read must be a field of the key, an
        // earlier generator's, or one they set themselves (a helper's
        // argument, a comprehension's variable).
        let plain = !found.unknown
            && found
                .regs
                .iter()
                .all(|r| *r < fields || outer.contains(r) || found.set.contains(r));
        if !plain || found.regs.contains(&inner) {
            break;
        }
        reads.extend(found.regs.iter().filter(|r| outer.contains(r)));
        count += 1;
    }
    if count == 0 {
        return None;
    }
    reads.sort_unstable();
    reads.dedup();
    Some(Hoist {
        writes: count,
        reads,
        slot,
    })
}

/// The registers an expression reads and sets, and whether it reads what
/// is not followed here (a tuple register, a closure).
#[derive(Default)]
struct Reads {
    regs: Vec<u32>,
    set: Vec<u32>,
    unknown: bool,
}

impl Reads {
    fn write(&mut self, w: &Write) {
        match w {
            Write::Scalar(_, n) => self.num(n),
            Write::Element(_, i, n) => {
                self.num(i);
                self.num(n);
            }
            Write::Cell(_, i, c) => {
                self.num(i);
                self.char(c);
            }
            Write::Several(..) | Write::Closure(_) => self.unknown = true,
            Write::Whole(_, ns) => ns.iter().for_each(|n| self.num(n)),
            Write::Reversed(_) | Write::Turned(..) => {}
            Write::Comprehension { walk, element, .. } => {
                self.walk(walk);
                match element {
                    Element::Num(n) => self.num(n),
                    Element::Row(_, t) => self.text(t),
                }
            }
            Write::Text(_, t) => self.text(t),
            Write::Row(_, i, t) => {
                self.num(i);
                self.text(t);
            }
            Write::Rows(_, ts) => ts.iter().for_each(|t| self.text(t)),
            Write::Bind(bind) => self.bind(bind),
            Write::Appended(_, pieces) => {
                for piece in pieces {
                    match piece {
                        Appended::One(n) => self.num(n),
                        Appended::Each(walk, n) => {
                            self.walk(walk);
                            self.num(n);
                        }
                    }
                }
            }
            Write::Each { walk, writes } => {
                self.walk(walk);
                writes.iter().for_each(|w| self.write(w));
            }
            Write::Choose {
                test,
                then,
                otherwise,
            } => {
                self.truth(test);
                then.iter().chain(otherwise).for_each(|w| self.write(w));
            }
        }
    }

    fn seq(&mut self, seq: &Seq) {
        match seq {
            Seq::Range(lo, hi, _) => {
                self.num(lo);
                self.num(hi);
            }
            Seq::Fields(f) => self.regs.extend(f.first..f.first + f.len),
            Seq::Tuple(_) => self.unknown = true,
            Seq::Items(_) => {}
        }
    }

    fn num(&mut self, n: &Num) {
        match n {
            Num::Lit(_) => {}
            Num::Reg(r) => self.regs.push(*r),
            Num::Field(f, i) => {
                self.regs.extend(f.first..f.first + f.len);
                self.num(i);
            }
            Num::SumFields(f) => self.regs.extend(f.first..f.first + f.len),
            Num::TupleAt(..) | Num::TupleLen(_) | Num::SumTuple(_) => self.unknown = true,
            Num::Binary(_, a, b) => {
                self.num(a);
                self.num(b);
            }
            Num::Neg(x) | Num::Abs(x) => self.num(x),
            Num::Min(xs) | Num::Max(xs) => xs.iter().for_each(|x| self.num(x)),
            Num::TextLen(t) => self.text(t),
            // The key is the position's throughout a rule.
            Num::Matches(..) => {}
            Num::If(c, a, b) => {
                self.truth(c);
                self.num(a);
                self.num(b);
            }
            Num::Let(bind, body) => {
                self.bind(bind);
                self.num(body);
            }
            // Closures are made after this reads the rules (see `closure`).
            Num::Closure(_) => self.unknown = true,
        }
    }

    fn char(&mut self, c: &Char) {
        match c {
            Char::Code(_) => {}
            Char::Reg(r) => self.regs.push(*r),
            Char::Cell(f, i) => {
                self.regs.extend(f.first..f.first + f.len);
                self.num(i);
            }
            Char::GridCell(rows, r, c) => {
                let f = rows.fields;
                self.regs.extend(f.first..f.first + f.len);
                self.num(r);
                self.num(c);
            }
            Char::If(t, a, b) => {
                self.truth(t);
                self.char(a);
                self.char(b);
            }
            Char::Let(bind, body) => {
                self.bind(bind);
                self.char(body);
            }
            Char::Text(t) => self.text(t),
        }
    }

    fn text(&mut self, t: &Text) {
        match t {
            Text::Lit(_) | Text::Param(_) => {}
            // String registers are set by helpers' arguments alone.
            Text::Reg(_) => {}
            Text::Row(f, _, i) => {
                self.regs.extend(f.first..f.first + f.len);
                self.num(i);
            }
            Text::Letter(r) => self.regs.push(*r),
            Text::At(t, i) | Text::Repeat(t, i) => {
                self.text(t);
                self.num(i);
            }
            Text::SetAt(t, i, c) => {
                self.text(t);
                self.num(i);
                self.text(c);
            }
            Text::Slice(t, a, b) => {
                self.text(t);
                self.num(a);
                self.num(b);
            }
            Text::Concat(a, b) => {
                self.text(a);
                self.text(b);
            }
            Text::If(c, a, b) => {
                self.truth(c);
                self.text(a);
                self.text(b);
            }
            Text::Let(bind, body) => {
                self.bind(bind);
                self.text(body);
            }
            Text::Closure(_) => self.unknown = true,
        }
    }

    fn truth(&mut self, t: &Truth) {
        match t {
            Truth::Lit(_) | Truth::Has(..) => {}
            Truth::Not(x) => self.truth(x),
            Truth::And(a, b) | Truth::Or(a, b) => {
                self.truth(a);
                self.truth(b);
            }
            Truth::Compare(_, a, b) => {
                self.num(a);
                self.num(b);
            }
            Truth::SameChar(_, a, b) => {
                self.char(a);
                self.char(b);
            }
            Truth::SameText(_, a, b) => {
                self.text(a);
                self.text(b);
            }
            Truth::In(_, n, _) => self.num(n),
            Truth::HasText(t, _) => self.text(t),
            Truth::Each { walk, element, .. } => {
                self.walk(walk);
                self.truth(element);
            }
            Truth::Let(bind, body) => {
                self.bind(bind);
                self.truth(body);
            }
            Truth::Closure(_) => self.unknown = true,
        }
    }

    fn walk(&mut self, walk: &Walk) {
        self.set.push(walk.var);
        self.seq(&walk.over);
        if let Some(g) = &walk.guard {
            self.truth(g);
        }
    }

    fn bind(&mut self, bind: &Bind) {
        match bind {
            Bind::Num { reg, value, .. } => {
                self.num(value);
                self.set.push(*reg);
            }
            Bind::Text { value, .. } => self.text(value),
            Bind::Letter { reg, value } => {
                self.char(value);
                self.set.push(*reg);
            }
        }
    }
}

/// The key the hoisted writes of a rule made, and what it was made from.
#[derive(Clone, Debug, Default)]
pub struct Made {
    made: bool,
    key: u64,
    reads: Vec<i64>,
    written: u64,
}

impl Machine {
    /// The key of the option the current registers make by `rule`: its
    /// hoisted writes made once for each value of what they read.
    pub(super) fn rule_written(&mut self, rule: &Rule) -> Option<u64> {
        let Some(hoist) = &rule.hoist else {
            return self.written_onto(self.key, &rule.writes);
        };
        let (first, rest) = rule.writes.split_at(hoist.writes);
        let regs = &self.regs;
        let made = &self.hoisted[hoist.slot];
        let same = made.made
            && made.key == self.key
            && hoist
                .reads
                .iter()
                .zip(&made.reads)
                .all(|(r, v)| regs[*r as usize] == *v);
        let written = if same {
            made.written
        } else {
            let written = self.written_onto(self.key, first)?;
            let regs = &self.regs;
            let made = &mut self.hoisted[hoist.slot];
            made.made = true;
            made.key = self.key;
            made.reads.clear();
            made.reads
                .extend(hoist.reads.iter().map(|r| regs[*r as usize]));
            made.written = written;
            written
        };
        self.written_onto(written, rest)
    }
}
