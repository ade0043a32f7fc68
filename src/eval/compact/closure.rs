//! The compiled expressions turned, once, into closures: walking a boxed
//! tree costs a call and a dispatch on its kind at every node, so each
//! node becomes a closure made for its kind, and the leaves most
//! expressions are made of (a literal, a register) are read inside their
//! parent's closure without a call. Operations on constants are worked
//! out here, and an element at a constant index becomes the register that
//! holds it. Every closure answers exactly as `run` answers on the tree.

use super::bitsets;
use super::bound_runs::{self, BoundRun, Comparison};
use super::code::{
    Appended, Bind, Char, Element, Fused, GameCode, Num, Rows, Seq, Source, Target, Text, Truth,
    Walk, Write,
};
use super::hoist::{self, Last, LastValue};
use super::layout::Fields;
use super::leaves::{index, Binding, Operand, Piece};
use super::letters;
use super::lookup::{self, Site};
use super::masks;
use super::run::{has, has_text, low_bits, matches, put, Machine};
use super::split;
use super::windows;
use super::words;
use crate::eval::arith::{arithmetic, compare};
use crate::syntax::ast::BinaryOp;
use std::fmt;
use std::rc::Rc;

/// An expression as a closure over the machine's registers.
pub struct Closure<T>(Run<T>);

/// What a closure of the compiled code is: a run on the machine, `None`
/// where the interpreter might answer differently.
type Run<T> = Box<dyn Fn(&mut Machine) -> Option<T>>;

impl<T> Closure<T> {
    /// An expression made as a closure where it is compiled.
    pub(super) fn new(run: Run<T>) -> Closure<T> {
        Closure(run)
    }

    #[inline(always)]
    pub fn run(&self, m: &mut Machine) -> Option<T> {
        (self.0)(m)
    }
}

impl<T> fmt::Debug for Closure<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Closure")
    }
}

/// A write as a closure: the key it makes of the key so far; and the new
/// list it writes, where that is a split (see `split`), for a loop that
/// writes its options by one route.
pub struct Step(WriteFn, Option<Rc<split::Split>>);

type WriteFn = Box<dyn Fn(&mut Machine, u64) -> Option<u64>>;

impl Step {
    /// A write made as a closure outside this module (see `masks`).
    pub(super) fn new(f: WriteFn) -> Step {
        Step(f, None)
    }

    #[inline(always)]
    pub fn run(&self, m: &mut Machine, k: u64) -> Option<u64> {
        (self.0)(m, k)
    }

    pub fn split(&self) -> Option<&split::Split> {
        self.1.as_deref()
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Step")
    }
}

pub(super) type NumFn = Run<i64>;
pub(super) type TruthFn = Run<bool>;
pub(super) type TextFn = Run<(u64, u32)>;

/// Every expression of the game's code turned into a closure, where it is
/// more than a leaf (a leaf is read as fast without one); with `tables`,
/// an expression of one element alone is read off a table (see `lookup`).
pub fn lower(code: &mut GameCode, tables: bool, fields: u32) {
    let l = Lowering {
        tables,
        fields,
        cell: code.cell,
        regs: code.regs,
        texts: code.texts,
    };
    if let Some(t) = &mut code.lose {
        l.root_truth(t);
    }
    for rule in &mut code.rules {
        // Worked out on the writes and generators as compiled, before
        // they are lowered.
        let masks = (tables && rule.sum.is_none() && rule.hoist.is_none())
            .then(|| masks::recognise(&rule.writes, &rule.gens, fields, (l.regs, l.texts, l.cell)))
            .flatten();
        for g in &mut rule.gens {
            l.source(&mut g.source);
        }
        for t in rule.early.iter_mut().flatten() {
            l.root_truth(t);
        }
        rule.bound_runs = rule
            .bounds
            .iter()
            .map(|b| l.bound_run(b.as_ref()?))
            .collect();
        if let Some(t) = &mut rule.guard {
            rule.guard_reads = super::reads::outside_and_key(|v| super::reads::truth(v, t));
            l.root_truth(t);
        }
        if let Some(Fused::SetProduct { placed, .. }) = &mut rule.fused {
            placed.lower(|n| l.root_num(n));
        }
        for sieve in rule.sieves.iter_mut().flatten() {
            l.root_truth(&mut sieve.whole);
            if let Some(shifting) = &mut sieve.shifting {
                shifting.lower(|n| l.root_num(n));
            }
            sieve.lower(|n| l.root_num(n));
        }
        if let Some(last) = hoist::last_write(rule) {
            let last = Some(l.last(last));
            let pair = hoist::pair_write(rule).map(|pair| l.last(pair));
            if let Some(hoist) = &mut rule.hoist {
                (hoist.last, hoist.pair) = (last, pair);
            }
        }
        // A last generator that sets no one register (a tuple's, or none)
        // is one no part reads: every part then stays while the registers
        // it reads do.
        let inner = match rule.gens.last().map(|g| g.target) {
            Some(Target::Reg(r)) if tables => Some(r),
            _ if tables => Some(u32::MAX),
            _ => None,
        };
        l.writes(&mut rule.writes, inner);
        if let Some(masks) = masks {
            rule.writes = vec![masks.into_step(std::mem::take(&mut rule.writes))];
        }
    }
    for image in &mut code.images {
        l.writes(image, None);
    }
    hoist::share_tables(&mut code.rules);
}

/// A comprehension's generator and guard, the guard as a closure.
struct Walked {
    var: usize,
    over: Seq,
    /// The ends of a range between literals.
    constant: Option<(i64, i64)>,
    guard: Option<TruthFn>,
}

impl Walked {
    /// `each` run for every value the guard lets through, as `run` walks.
    #[inline(always)]
    fn run(&self, m: &mut Machine, mut each: impl FnMut(&mut Machine) -> Option<()>) -> Option<()> {
        let (start, end) = match self.constant {
            Some((lo, hi)) => {
                m.steps(usize::try_from(hi.saturating_sub(lo).max(0)).ok()?)?;
                (lo, hi)
            }
            None => m.bounds(&self.over)?,
        };
        for i in start..end {
            m.regs[self.var] = if self.constant.is_some() {
                i
            } else {
                m.step()?;
                m.item(&self.over, i)?
            };
            if let Some(g) = &self.guard {
                if !g(m)? {
                    continue;
                }
            }
            each(m)?;
        }
        Some(())
    }
}

/// One element set at each value a walk takes, in the walk's own loop:
/// the same steps as the write made for each value in turn, without
/// going through the general writes for every element.
fn each_element(walk: Walked, f: Fields, value: Operand) -> WriteFn {
    let var = walk.var;
    Box::new(move |m, mut k| {
        walk.run(m, |m| {
            let i = index(m.regs[var], f.len)?;
            k = put(k, &f, i, value.get(m)?)?;
            Some(())
        })?;
        Some(k)
    })
}

/// What the closures need to know of the layout.
struct Lowering {
    /// Whether expressions of one element alone are tabulated, and
    /// comprehensions split (see `split`).
    tables: bool,
    /// The registers that hold the key's fields.
    fields: u32,
    /// Bits a letter takes in a string's word.
    cell: u32,
    /// Registers and string registers in all, for working out tables.
    regs: u32,
    texts: u32,
}

/// `op` on two operands, the operation made inline for each pair of
/// shapes the operands come in.
macro_rules! pair {
    ($l:expr, $r:expr, |$a:ident, $b:ident| $body:expr) => {
        match ($l, $r) {
            (Operand::Reg(x), Operand::Lit($b)) => Box::new(move |m: &mut Machine| {
                let $a = m.regs[x];
                $body
            }),
            (Operand::Reg(x), Operand::Reg(y)) => Box::new(move |m: &mut Machine| {
                let ($a, $b) = (m.regs[x], m.regs[y]);
                $body
            }),
            (Operand::Lit($a), Operand::Reg(y)) => Box::new(move |m: &mut Machine| {
                let $b = m.regs[y];
                $body
            }),
            (l, r) => Box::new(move |m: &mut Machine| {
                let $a = l.get(m)?;
                let $b = r.get(m)?;
                $body
            }),
        }
    };
}

impl Lowering {
    fn source(&self, source: &mut Source) {
        match source {
            Source::Each(seq) => self.seq(seq),
            Source::Subsets(seq, lo, hi) => {
                self.seq(seq);
                self.root_num(lo);
                self.root_num(hi);
            }
            Source::ProductOf { over, lo, hi, .. } => {
                self.seq(over);
                self.root_num(lo);
                self.root_num(hi);
            }
            Source::ProductList(ranges) => {
                for (lo, hi, _) in ranges {
                    self.root_num(lo);
                    self.root_num(hi);
                }
            }
        }
    }

    fn seq(&self, seq: &mut Seq) {
        if let Seq::Range(lo, hi, _) = seq {
            self.root_num(lo);
            self.root_num(hi);
        }
    }

    /// Each write made into a closure where it is one of the common
    /// kinds, the expressions of the others made into closures.
    /// `inner`: the register of the rule's last generator, when new lists
    /// may be written by their parts remembered (see `split`).
    fn writes(&self, writes: &mut [Write], inner: Option<u32>) {
        for w in writes {
            let placeholder = Write::Choose {
                test: Truth::Lit(false),
                then: Vec::new(),
                otherwise: Vec::new(),
            };
            let write = std::mem::replace(w, placeholder);
            *w = self.write(write, inner);
        }
    }

    /// A write of one element at a generator's value, lowered (see
    /// `hoist`).
    fn last(&self, (fields, index, value): (Fields, u32, LastValue)) -> Last {
        let (read, value) = match value {
            LastValue::Num(n) => (lookup::num_site(&n), self.operand(n)),
            LastValue::Char(c) => (lookup::char_site(&c), self.char(c)),
        };
        Last {
            fields,
            index: index as usize,
            value,
            read,
            table: None,
        }
    }

    fn write(&self, w: Write, inner: Option<u32>) -> Write {
        let step = |f: WriteFn| Write::Closure(Step(f, None));
        match w {
            Write::Scalar(f, n) => {
                let n = self.operand(n);
                step(Box::new(move |m, k| put(k, &f, 0, n.get(m)?)))
            }
            Write::Element(f, i, n) => {
                let (i, n) = (self.operand(i), self.operand(n));
                step(Box::new(move |m, k| {
                    let i = index(i.get(m)?, f.len)?;
                    put(k, &f, i, n.get(m)?)
                }))
            }
            Write::Cell(f, i, c) => {
                let (i, c) = (self.operand(i), self.char(c));
                step(Box::new(move |m, k| {
                    let i = index(i.get(m)?, f.len)?;
                    put(k, &f, i, c.get(m)?)
                }))
            }
            Write::Text(f, t) => {
                let t = self.piece(t);
                let bits = low_bits(f.len * f.width);
                step(Box::new(move |m, k| {
                    let (word, len) = t.get(m)?;
                    if len != f.len {
                        return None;
                    }
                    Some(k & !(bits << f.shift) | word << f.shift)
                }))
            }
            Write::Row(rows, i, t) => {
                if let Some(steps) = letters::edited(&t, &rows).filter(|_| self.tables) {
                    let i = self.operand(i);
                    let steps: Vec<_> = steps
                        .into_iter()
                        .map(|s| s.map(|n| self.operand(n)))
                        .collect();
                    let w = self.cell;
                    return step(Box::new(move |m, k| {
                        letters::written(m, k, &rows, &i, &steps, w)
                    }));
                }
                let (i, t) = (self.operand(i), self.piece(t));
                step(Box::new(move |m, k| {
                    let i = index(i.get(m)?, rows.fields.len)?;
                    let text = t.get(m)?;
                    put(k, &rows.fields, i, m.row_field(&rows, text)?)
                }))
            }
            Write::Comprehension {
                fields,
                walk,
                element,
            } => {
                // A filter, or elements that choose between two values.
                let chooses = matches!(element, Element::Num(Num::If(..)))
                    || matches!(element, Element::Row(_, Text::If(..)));
                if let Some(inner) = inner.filter(|_| {
                    (chooses || walk.guard.is_some())
                        && split::readable_walk(&walk, &element, self.fields)
                }) {
                    let pieces = vec![split::Source::Each(Box::new(walk), element)];
                    return self.split((fields, None), pieces, inner);
                }
                let walk = self.walk(walk);
                let element: NumFn = match element {
                    Element::Num(n) => self.operand(n).into_fn(),
                    Element::Row(rows, t) => split::Lower::row(self, rows, t),
                };
                step(Box::new(move |m, mut k| {
                    let mut made = 0u32;
                    walk.run(m, |m| {
                        let v = element(m)?;
                        if made >= fields.len {
                            return None;
                        }
                        k = put(k, &fields, made, v)?;
                        made += 1;
                        Some(())
                    })?;
                    (made == fields.len).then_some(k)
                }))
            }
            Write::Whole(f, mut ns) => {
                ns.iter_mut().for_each(|n| self.root_num(n));
                Write::Whole(f, ns)
            }
            Write::Rows(rows, mut ts) => {
                ts.iter_mut().for_each(|t| self.root_text(t));
                Write::Rows(rows, ts)
            }
            Write::Choose {
                mut test,
                mut then,
                mut otherwise,
            } => {
                self.root_truth(&mut test);
                self.writes(&mut then, inner);
                self.writes(&mut otherwise, inner);
                Write::Choose {
                    test,
                    then,
                    otherwise,
                }
            }
            Write::Appended(fields, pieces)
                if inner.is_some() && split::readable(&pieces, self.fields) =>
            {
                let pieces = split::Source::appended(pieces);
                self.split((fields, None), pieces, inner.unwrap_or(u32::MAX))
            }
            Write::Sized {
                items,
                length,
                pieces,
            } if inner.is_some() && split::readable(&pieces, self.fields) => {
                let pieces = split::Source::appended(pieces);
                self.split((items, Some(length)), pieces, inner.unwrap_or(u32::MAX))
            }
            Write::Appended(fields, mut pieces) => {
                self.pieces(&mut pieces);
                Write::Appended(fields, pieces)
            }
            Write::Sized {
                items,
                length,
                mut pieces,
            } => {
                self.pieces(&mut pieces);
                Write::Sized {
                    items,
                    length,
                    pieces,
                }
            }
            Write::Each { walk, mut writes } => {
                let walk = self.walk(walk);
                if let Some((f, value)) = self.one_element(&mut writes, walk.var) {
                    return step(each_element(walk, f, value));
                }
                self.writes(&mut writes, None);
                step(Box::new(move |m, mut k| {
                    walk.run(m, |m| {
                        k = m.written_onto(k, &writes)?;
                        Some(())
                    })?;
                    Some(k)
                }))
            }
            Write::Bind(bind) => {
                let binding = self.bind(bind);
                step(Box::new(move |m, k| {
                    binding.set(m)?;
                    Some(k)
                }))
            }
            Write::Fill(mut made) => {
                // The list stays made by the machine's walk, its parts
                // closures.
                self.seq(&mut made.walk.over);
                if let Some(g) = &mut made.walk.guard {
                    self.root_truth(g);
                }
                self.root_num(&mut made.element);
                Write::Fill(made)
            }
            w @ (Write::Several(..)
            | Write::Reversed(_)
            | Write::Sorted(..)
            | Write::Turned(..)
            | Write::Lanes(..)
            | Write::Closure(_)) => w,
        }
    }

    /// The expressions of a new list's pieces made into closures.
    fn pieces(&self, pieces: &mut [Appended]) {
        for piece in pieces {
            match piece {
                Appended::One(n) => self.root_num(n),
                Appended::Each(walk, n) => {
                    self.seq(&mut walk.over);
                    if let Some(g) = &mut walk.guard {
                        self.root_truth(g);
                    }
                    self.root_num(n);
                }
            }
        }
    }

    fn walk(&self, walk: Walk) -> Walked {
        let Walk {
            var,
            mut over,
            guard,
        } = walk;
        self.seq(&mut over);
        // A range between literals: its steps are counted at once (a walk
        // stopped part way is stopped all the same).
        let constant = constant_range(&over);
        Walked {
            var: var as usize,
            over,
            constant,
            guard: guard.map(|g| self.truth(g)),
        }
    }

    /// The field and the lowered value of `writes` when they are one
    /// element set at the walk's variable `var` (the coins a move turns,
    /// walked as a list), taken out of `writes`.
    fn one_element(&self, writes: &mut Vec<Write>, var: usize) -> Option<(Fields, Operand)> {
        let at_var = |r: &u32| *r as usize == var;
        match writes.as_slice() {
            [Write::Cell(_, Num::Reg(r), _) | Write::Element(_, Num::Reg(r), _)] if at_var(r) => {}
            _ => return None,
        }
        match writes.pop()? {
            Write::Cell(f, _, c) => Some((f, self.char(c))),
            Write::Element(f, _, n) => Some((f, self.operand(n))),
            _ => None,
        }
    }

    /// A new list written by its parts remembered (see `split`), in a rule
    /// whose last generator sets `inner`.
    fn split(
        &self,
        list: (Fields, Option<Fields>),
        pieces: Vec<split::Source>,
        inner: u32,
    ) -> Write {
        let split = split::lower(self, list, pieces, (self.fields, inner));
        if !split.steady() {
            return Write::Closure(Step(Box::new(move |m, k| split.run(m, k)), None));
        }
        let split = Rc::new(split);
        let run = Rc::clone(&split);
        Write::Closure(Step(Box::new(move |m, k| run.run(m, k)), Some(split)))
    }

    fn root_num(&self, n: &mut Num) {
        if matches!(n, Num::Lit(_) | Num::Reg(_) | Num::Closure(_)) {
            return;
        }
        let tree = std::mem::replace(n, Num::Lit(0));
        *n = match self.operand(tree) {
            Operand::Lit(v) => Num::Lit(v),
            Operand::Reg(r) => Num::Reg(r as u32),
            Operand::Call(f) => Num::Closure(Closure(f)),
            other => Num::Closure(Closure(other.into_fn())),
        };
    }

    fn root_truth(&self, t: &mut Truth) {
        if matches!(t, Truth::Lit(_) | Truth::Closure(_)) {
            return;
        }
        let tree = std::mem::replace(t, Truth::Lit(false));
        *t = Truth::Closure(Closure(self.truth(tree)));
    }

    /// A bound's closures, made of a copy of its tree.
    fn bound_run(&self, test: &Truth) -> Option<BoundRun> {
        let truth = self.truth(test.copy()?);
        let exact = self.exact(test.copy()?);
        let lines = bound_runs::comparisons(test)
            .map(|(op, a, b)| {
                let (mut a, mut b) = (a.copy()?, b.copy()?);
                self.root_num(&mut a);
                self.root_num(&mut b);
                Some(Comparison { op, a, b })
            })
            .collect::<Option<_>>()?;
        Some(BoundRun {
            truth: Truth::Closure(Closure(truth)),
            exact: Closure(exact),
            lines,
        })
    }

    /// A test with every comparison in it made, `and` and `or` not cut
    /// short, as `Machine::exact` makes it.
    fn exact(&self, t: Truth) -> TruthFn {
        match t {
            Truth::And(a, b) => {
                let (a, b) = (self.exact(*a), self.exact(*b));
                Box::new(move |m| {
                    let a = a(m)?;
                    Some(b(m)? && a)
                })
            }
            Truth::Or(a, b) => {
                let (a, b) = (self.exact(*a), self.exact(*b));
                Box::new(move |m| {
                    let a = a(m)?;
                    Some(b(m)? || a)
                })
            }
            Truth::Not(x) => {
                let x = self.exact(*x);
                Box::new(move |m| Some(!x(m)?))
            }
            Truth::Let(bind, body) => {
                let bind = self.bind(*bind);
                let body = self.exact(*body);
                Box::new(move |m| {
                    bind.set(m)?;
                    body(m)
                })
            }
            t => self.truth(t),
        }
    }

    fn root_text(&self, t: &mut Text) {
        if matches!(t, Text::Lit(_) | Text::Reg(_) | Text::Closure(_)) {
            return;
        }
        let tree = std::mem::replace(t, Text::Lit(None));
        *t = Text::Closure(Closure(self.text(tree)));
    }

    /// A number: a literal or register where it comes to one, else a
    /// closure.
    fn operand(&self, n: Num) -> Operand {
        if let Some(site) = lookup::num_site(&n).filter(|_| self.tables) {
            let slow = self.operand_of_tree(n);
            return self.tabulated(site, slow);
        }
        self.operand_of_tree(n)
    }

    /// `slow`, an expression of the element at `site` alone, as a table
    /// of its values for every value the element's field can hold,
    /// worked out now on a machine of its own: the index register reads 0
    /// and the first element each value in turn, and nothing else the
    /// expression reads comes from outside it.
    fn tabulated(&self, site: Site, slow: Operand) -> Operand {
        let mut m = Machine::scratch(self.regs, self.texts, self.cell);
        let (first, index) = (site.fields.first as usize, site.index as usize);
        let table = (0..=site.fields.mask())
            .map(|v| {
                m.regs[index] = 0;
                m.regs[first] = v as i64;
                slow.get(&mut m)
            })
            .collect();
        Operand::Table {
            first,
            len: site.fields.len,
            index,
            table,
            slow: Box::new(slow),
        }
    }

    /// The registers of `t` and `i` in `set_at(t, i, letter)` where
    /// `letter` reads nothing but `t[i]` (see `lookup::set_from_itself`).
    fn set_of_itself(&self, t: &Text, i: &Num, letter: &Text) -> Option<(usize, usize)> {
        let (text, place) = lookup::set_from_itself(t, i, letter).filter(|_| self.tables)?;
        Some((text as usize, place as usize))
    }

    /// Such a `set_at` as a table of what `letter` gives for each code
    /// `t[i]` may hold, worked out now on a machine of its own whose
    /// string register `t` is that one letter and `i` reads 0.
    fn letter_table(&self, (text, place): (usize, usize), letter: Text) -> LetterTable {
        let letter = self.piece(letter);
        let mut m = Machine::scratch(self.regs, self.texts, self.cell);
        let letters = (0..=low_bits(self.cell))
            .map(|code| {
                m.texts[text] = (code, 1);
                m.regs[place] = 0;
                match letter.get(&mut m) {
                    Some((new, 1)) => Some(new),
                    _ => None,
                }
            })
            .collect();
        LetterTable {
            at: (text, place),
            letters,
            cell: self.cell,
        }
    }

    /// `let t = value; set_at(t, i, letter)` where `letter` reads nothing
    /// but `t[i]`: the string worked out and set by the table at once; the
    /// binding and its body given back otherwise.
    fn bound_and_set_from_itself(
        &self,
        bind: Box<Bind>,
        body: Box<Text>,
    ) -> Result<TextFn, (Box<Bind>, Box<Text>)> {
        let at = match (&*bind, &*body) {
            (Bind::Text { reg, .. }, Text::SetAt(t, i, letter)) if matches!(**t, Text::Reg(r) if r == *reg) => {
                self.set_of_itself(t, i, letter)
            }
            _ => None,
        };
        let Some(at) = at else {
            return Err((bind, body));
        };
        match (*bind, *body) {
            (Bind::Text { value, .. }, Text::SetAt(_, _, letter)) => {
                let value = self.piece(value);
                let table = self.letter_table(at, *letter);
                Ok(Box::new(move |m| {
                    let t = value.get(m)?;
                    m.texts[table.at.0] = t;
                    table.set(t, m)
                }))
            }
            (bind, body) => Err((Box::new(bind), Box::new(body))),
        }
    }

    /// A number, without looking for a table at its root.
    fn operand_of_tree(&self, n: Num) -> Operand {
        let call = |f: NumFn| Operand::Call(f);
        match n {
            Num::Lit(v) => Operand::Lit(v),
            Num::Reg(r) => Operand::Reg(r as usize),
            Num::Closure(f) => call(f.0),
            Num::Field(f, i) => match self.operand(*i) {
                Operand::Lit(i) => match index(i, f.len) {
                    Some(i) => Operand::Reg((f.first + i) as usize),
                    None => call(Box::new(|_| None)),
                },
                Operand::Reg(i) => Operand::Element {
                    first: f.first as usize,
                    len: f.len,
                    index: i,
                },
                i => call(Box::new(move |m| {
                    let i = index(i.get(m)?, f.len)?;
                    Some(m.regs[(f.first + i) as usize])
                })),
            },
            Num::TupleAt(t, i) => {
                let (t, i) = (t as usize, self.operand(*i));
                call(Box::new(move |m| {
                    let i = usize::try_from(i.get(m)?).ok()?;
                    m.tuples[t].get(i).copied()
                }))
            }
            Num::TupleLen(t) => call(Box::new(move |m| Some(m.tuples[t as usize].len() as i64))),
            Num::Item(xs, i) => match self.operand(*i) {
                Operand::Lit(i) => match usize::try_from(i).ok().and_then(|i| xs.get(i)) {
                    Some(&x) => Operand::Lit(x),
                    None => call(Box::new(|_| None)),
                },
                i => call(Box::new(move |m| {
                    xs.get(usize::try_from(i.get(m)?).ok()?).copied()
                })),
            },
            Num::Binary(op, l, r) => self.binary(op, self.operand(*l), self.operand(*r)),
            Num::Neg(x) => match self.operand(*x) {
                Operand::Lit(v) if v.checked_neg().is_some() => Operand::Lit(-v),
                x => call(Box::new(move |m| x.get(m)?.checked_neg())),
            },
            Num::Abs(x) => {
                let x = self.operand(*x);
                call(Box::new(move |m| x.get(m)?.checked_abs()))
            }
            Num::Min(xs) => self.fold(xs, i64::min),
            Num::Max(xs) => self.fold(xs, i64::max),
            Num::SumFields(f) => call(Box::new(move |m| {
                let mut total: i64 = 0;
                for i in 0..f.len {
                    total = total.checked_add(m.regs[(f.first + i) as usize])?;
                }
                Some(total)
            })),
            Num::SumTuple(t) => call(Box::new(move |m| {
                let mut total: i64 = 0;
                for &v in &m.tuples[t as usize] {
                    total = total.checked_add(v)?;
                }
                Some(total)
            })),
            Num::Matches(f, codes) => call(Box::new(move |m| Some(matches(m.key, &f, &codes)))),
            Num::IndexOf(mut seq, x) => {
                self.seq(&mut seq);
                let x = self.operand(*x);
                call(Box::new(move |m| {
                    let x = x.get(m)?;
                    m.index_in(&seq, x)
                }))
            }
            Num::Code(c) => self.char(*c),
            Num::Find(t, sub, sought) => {
                let t = self.piece(*t);
                let cell = self.cell;
                call(Box::new(move |m| {
                    let (word, len) = t.get(m)?;
                    Some(super::run::found(word, len, sub, cell, sought))
                }))
            }
            Num::TextLen(t) => {
                // Every row of a grid is as long as the first: a row at a
                // constant index inside the grid has that length.
                if let Text::Row(f, cols, i) = &*t {
                    if matches!(**i, Num::Lit(i) if index(i, f.len).is_some()) {
                        return Operand::Lit(i64::from(*cols));
                    }
                }
                let t = self.piece(*t);
                call(Box::new(move |m| Some(i64::from(t.get(m)?.1))))
            }
            Num::If(c, a, b) => {
                // A test between constants (a grid's height against 0, say,
                // once a helper is written in): the branch it takes.
                if let Truth::Compare(op, Num::Lit(x), Num::Lit(y)) = &*c {
                    if let Some(then) = compare(*op, *x, *y) {
                        return self.operand(if then { *a } else { *b });
                    }
                }
                let c = self.truth(*c);
                let (a, b) = (self.operand(*a), self.operand(*b));
                call(Box::new(move |m| if c(m)? { a.get(m) } else { b.get(m) }))
            }
            Num::Let(bind, body) => {
                let bind = self.bind(*bind);
                let body = self.operand(*body);
                call(Box::new(move |m| {
                    bind.set(m)?;
                    body.get(m)
                }))
            }
            n @ (Num::Ones(_) | Num::Extreme { .. }) => call(self.bitset(n)),
            Num::Fold(join, walk, element) => {
                let walk = self.walk(*walk);
                let element = self.operand(*element);
                call(Box::new(move |m| {
                    let (mut joined, mut count) = (0, 0);
                    walk.run(m, |m| {
                        count = super::run::counted(count)?;
                        joined = join.step(joined, count, element.get(m)?)?;
                        Some(())
                    })?;
                    join.end(joined, count)
                }))
            }
        }
    }

    /// What a set held as a mask answers (see `bitsets`).
    fn bitset(&self, n: Num) -> NumFn {
        match n {
            Num::Ones(x) => {
                let x = self.operand(*x);
                Box::new(move |m| bitsets::ones(x.get(m)?))
            }
            Num::Extreme { mask, lo, highest } => {
                let mask = self.operand(*mask);
                Box::new(move |m| bitsets::extreme(mask.get(m)?, lo, highest))
            }
            _ => Box::new(|_| None),
        }
    }

    /// `min` or `max` of the operands, left to right.
    fn fold<F>(&self, xs: Vec<Num>, best: F) -> Operand
    where
        F: Fn(i64, i64) -> i64 + Copy + 'static,
    {
        let mut xs: Vec<Operand> = xs.into_iter().map(|x| self.operand(x)).collect();
        if xs.len() == 2 {
            if let (Some(r), Some(l)) = (xs.pop(), xs.pop()) {
                return Operand::Call(pair!(l, r, |a, b| Some(best(a, b))));
            }
        }
        Operand::Call(Box::new(move |m| {
            let (first, rest) = xs.split_first()?;
            let mut acc = first.get(m)?;
            for x in rest {
                acc = best(acc, x.get(m)?);
            }
            Some(acc)
        }))
    }

    /// `l op r`, worked out now when both are literals.
    fn binary(&self, op: BinaryOp, l: Operand, r: Operand) -> Operand {
        use BinaryOp::*;
        if let (Operand::Lit(a), Operand::Lit(b)) = (&l, &r) {
            return match arithmetic(op, *a, *b) {
                Some(v) => Operand::Lit(v),
                None => Operand::Call(Box::new(|_| None)),
            };
        }
        match (op, l, r) {
            (Add, Operand::Reg(x), Operand::Lit(k)) | (Add, Operand::Lit(k), Operand::Reg(x)) => {
                Operand::Offset(x, k)
            }
            (Sub, Operand::Reg(x), Operand::Lit(k)) if k.checked_neg().is_some() => {
                Operand::Offset(x, -k)
            }
            (op, l, r) => self.arithmetic(op, l, r),
        }
    }

    /// `l op r`, the operator fixed in the closure where it is a common one.
    fn arithmetic(&self, op: BinaryOp, l: Operand, r: Operand) -> Operand {
        use BinaryOp::*;
        Operand::Call(match op {
            Add => pair!(l, r, |a, b| a.checked_add(b)),
            Sub => pair!(l, r, |a, b| a.checked_sub(b)),
            Mul => pair!(l, r, |a, b| a.checked_mul(b)),
            BitAnd => pair!(l, r, |a, b| Some(a & b)),
            BitOr => pair!(l, r, |a, b| Some(a | b)),
            BitXor => pair!(l, r, |a, b| Some(a ^ b)),
            _ => pair!(l, r, |a, b| arithmetic(op, a, b)),
        })
    }

    fn truth(&self, t: Truth) -> TruthFn {
        use BinaryOp::*;
        match t {
            Truth::Lit(b) => Box::new(move |_| Some(b)),
            Truth::Closure(f) => f.0,
            Truth::Not(x) => {
                let x = self.truth(*x);
                Box::new(move |m| Some(!x(m)?))
            }
            Truth::And(a, b) => {
                let (a, b) = (self.truth(*a), self.truth(*b));
                Box::new(move |m| Some(a(m)? && b(m)?))
            }
            Truth::Or(a, b) => {
                let (a, b) = (self.truth(*a), self.truth(*b));
                Box::new(move |m| Some(a(m)? || b(m)?))
            }
            Truth::Compare(op, a, b) => {
                let (l, r) = (self.operand(a), self.operand(b));
                if let (Operand::Lit(a), Operand::Lit(b)) = (&l, &r) {
                    let v = compare(op, *a, *b);
                    return Box::new(move |_| v);
                }
                match op {
                    Eq => pair!(l, r, |a, b| Some(a == b)),
                    Ne => pair!(l, r, |a, b| Some(a != b)),
                    Lt => pair!(l, r, |a, b| Some(a < b)),
                    Le => pair!(l, r, |a, b| Some(a <= b)),
                    Gt => pair!(l, r, |a, b| Some(a > b)),
                    Ge => pair!(l, r, |a, b| Some(a >= b)),
                    _ => Box::new(|_| None),
                }
            }
            Truth::SameChar(eq, a, b) => {
                let (l, r) = (self.char(a), self.char(b));
                // Two letters outside the alphabet may differ.
                pair!(l, r, |a, b| if a < 0 && b < 0 {
                    None
                } else {
                    Some((a == b) == eq)
                })
            }
            Truth::Has(f, codes) => match codes {
                Some(codes) => Box::new(move |m| Some(has(m.key, &f, &codes))),
                None => Box::new(|_| Some(false)),
            },
            Truth::HasText(t, sub) => {
                let t = self.piece(t);
                let cell = self.cell;
                Box::new(move |m| {
                    let (word, len) = t.get(m)?;
                    Some(match sub {
                        Some((sub, n)) => has_text(word, len, sub, n, cell),
                        None => false,
                    })
                })
            }
            Truth::In(is_in, n, xs) => {
                let n = self.operand(n);
                Box::new(move |m| Some(xs.contains(&n.get(m)?) == is_in))
            }
            Truth::Member(is_in, n, mask, lo) => {
                let (n, mask) = (self.operand(n), self.operand(mask));
                Box::new(move |m| {
                    let n = n.get(m)?;
                    Some(bitsets::holds(mask.get(m)?, n, lo) == is_in)
                })
            }
            Truth::Each { any, walk, element } => {
                if let Some(tested) = self.windows(any, &walk, &element) {
                    return Box::new(move |m| tested.run(m));
                }
                let walk = self.walk(*walk);
                let element = self.truth(*element);
                Box::new(move |m| {
                    let mut found = false;
                    walk.run(m, |m| {
                        found |= element(m)? == any;
                        Some(())
                    })?;
                    Some(found == any)
                })
            }
            Truth::SameText(eq, a, b) => {
                let (a, b) = (self.foreign(a), self.foreign(b));
                Box::new(move |m| match (a(m)?, b(m)?) {
                    (Some(a), Some(b)) => Some((a == b) == eq),
                    // Two literals outside the alphabet: not worked out here.
                    (None, None) => None,
                    _ => Some(!eq),
                })
            }
            Truth::Let(bind, body) => {
                let bind = self.bind(*bind);
                let body = self.truth(*body);
                Box::new(move |m| {
                    bind.set(m)?;
                    body(m)
                })
            }
        }
    }

    /// `any` or `all` of an element read off the key's bits, tested on
    /// them at once (see `windows`); the step-by-step code keeps the walk.
    fn windows(&self, any: bool, walk: &Walk, element: &Truth) -> Option<windows::Tested> {
        let Walk {
            var,
            over: Seq::Range(lo, hi, inclusive),
            guard: None,
        } = walk
        else {
            return None;
        };
        let bits = windows::Bits::of(element, *var).filter(|_| self.tables)?;
        let bound = |n: &Num| Some(self.operand(n.copy()?));
        let bounds = (bound(lo)?, bound(hi)?);
        Some(windows::Tested::new(any, bits, bounds, *inclusive))
    }

    /// A string, or `None` inside for a literal with a letter outside the
    /// alphabet.
    fn foreign(&self, t: Text) -> Run<Option<(u64, u32)>> {
        match t {
            Text::Lit(lit) => Box::new(move |_| Some(lit)),
            t => {
                let t = self.piece(t);
                Box::new(move |m| Some(Some(t.get(m)?)))
            }
        }
    }

    /// A letter's code, read inline where it is a literal or a register.
    fn char(&self, c: Char) -> Operand {
        if let Some(site) = lookup::char_site(&c).filter(|_| self.tables) {
            let slow = self.char_of_tree(c);
            return self.tabulated(site, slow);
        }
        self.char_of_tree(c)
    }

    /// A letter's code, without looking for a table at its root.
    fn char_of_tree(&self, c: Char) -> Operand {
        let cell = self.cell;
        match c {
            Char::Code(code) => Operand::Lit(code),
            Char::Reg(r) => Operand::Reg(r as usize),
            Char::Cell(f, i) => self.operand(Num::Field(f, i)),
            Char::GridCell(rows, r, c) => {
                let (r, c) = (self.operand(*r), self.operand(*c));
                let (fields, cols, bits) = (rows.fields, rows.cols, low_bits(cell));
                if let (Some(r), Some(c)) = (r.offset(), c.offset()) {
                    return Operand::Cell {
                        first: fields.first as usize,
                        rows: fields.len,
                        cols,
                        cell,
                        r,
                        c,
                    };
                }
                Operand::Call(Box::new(move |m| {
                    let r = index(r.get(m)?, fields.len)?;
                    let c = index(c.get(m)?, cols)?;
                    let row = m.regs[(fields.first + r) as usize] as u64;
                    Some(((row >> (c * cell)) & bits) as i64)
                }))
            }
            Char::If(t, a, b) => {
                let t = self.truth(*t);
                let (a, b) = (self.char(*a), self.char(*b));
                Operand::Call(Box::new(move |m| if t(m)? { a.get(m) } else { b.get(m) }))
            }
            Char::Let(bind, body) => {
                let bind = self.bind(*bind);
                let body = self.char(*body);
                Operand::Call(Box::new(move |m| {
                    bind.set(m)?;
                    body.get(m)
                }))
            }
            Char::Text(t) => {
                let t = self.piece(*t);
                Operand::Call(Box::new(move |m| match t.get(m)? {
                    (word, 1) => Some(word as i64),
                    _ => None,
                }))
            }
        }
    }

    fn bind(&self, bind: Bind) -> Binding {
        match bind {
            Bind::Num { reg, value, nat } => Binding::Num {
                reg: reg as usize,
                value: self.operand(value),
                nat,
            },
            Bind::Text { reg, value } => Binding::Text {
                reg: reg as usize,
                value: self.piece(value),
            },
            Bind::Letter { reg, value } => Binding::Letter {
                reg: reg as usize,
                value: self.char(value),
            },
            Bind::List(made) => Binding::List(made),
        }
    }

    fn text(&self, t: Text) -> TextFn {
        self.piece(t).into_fn()
    }

    /// A string: read inline where it is a leaf, else a closure.
    fn piece(&self, t: Text) -> Piece {
        match t {
            Text::Lit(lit) => Piece::Lit(lit),
            Text::Reg(r) => Piece::Reg(r as usize),
            Text::Closure(f) => Piece::Call(f.0),
            Text::Param(f) => Piece::Param {
                shift: f.shift,
                bits: low_bits(f.len * f.width),
                len: f.len,
            },
            Text::Row(f, cols, i) => match self.operand(*i) {
                Operand::Reg(index) => Piece::Row {
                    first: f.first as usize,
                    len: f.len,
                    cols,
                    index,
                },
                i => Piece::Call(Box::new(move |m| {
                    let i = index(i.get(m)?, f.len)?;
                    Some((m.regs[(f.first + i) as usize] as u64, cols))
                })),
            },
            t => Piece::Call(self.composite(t)),
        }
    }

    /// A string that is more than a leaf, as a closure.
    fn composite(&self, t: Text) -> TextFn {
        let w = self.cell;
        match t {
            Text::Letter(r) => Box::new(move |m| Some((m.regs[r as usize] as u64, 1))),
            Text::At(t, i) => {
                let (t, i) = (self.piece(*t), self.operand(*i));
                Box::new(move |m| {
                    let t = t.get(m)?;
                    words::at(t, i.get(m)?, w)
                })
            }
            Text::SetAt(t, i, c) => {
                if let Some(at) = self.set_of_itself(&t, &i, &c) {
                    let table = self.letter_table(at, *c);
                    return Box::new(move |m| table.set(m.texts[table.at.0], m));
                }
                let (t, i, c) = (self.piece(*t), self.operand(*i), self.piece(*c));
                Box::new(move |m| {
                    let t = t.get(m)?;
                    let i = i.get(m)?;
                    words::set_at(t, i, c.get(m)?, w)
                })
            }
            Text::Slice(t, from, to) => {
                let (t, from, to) = (self.piece(*t), self.operand(*from), self.operand(*to));
                Box::new(move |m| {
                    let t = t.get(m)?;
                    let from = from.get(m)?;
                    Some(words::slice(t, from, to.get(m)?, w))
                })
            }
            Text::Repeat(t, n) => {
                let (t, n) = (self.piece(*t), self.operand(*n));
                Box::new(move |m| {
                    let t = t.get(m)?;
                    words::repeat(t, n.get(m)?, w)
                })
            }
            Text::Concat(a, b) => {
                let (a, b) = (self.piece(*a), self.piece(*b));
                Box::new(move |m| {
                    let a = a.get(m)?;
                    words::concat(a, b.get(m)?, w)
                })
            }
            Text::If(c, a, b) => {
                let (c, a, b) = (self.truth(*c), self.piece(*a), self.piece(*b));
                Box::new(move |m| if c(m)? { a.get(m) } else { b.get(m) })
            }
            Text::Let(bind, body) => {
                let (bind, body) = match self.bound_and_set_from_itself(bind, body) {
                    Ok(set) => return set,
                    Err((bind, body)) => (self.bind(*bind), self.piece(*body)),
                };
                Box::new(move |m| {
                    bind.set(m)?;
                    body.get(m)
                })
            }
            Text::Joined(made) => Box::new(move |m| m.joined(&made)),
            Text::Reversed(t) => {
                let t = self.piece(*t);
                Box::new(move |m| Some(words::reverse(t.get(m)?, w)))
            }
            Text::Least(most, ts) => {
                let ts: Vec<Piece> = ts.into_iter().map(|t| self.piece(t)).collect();
                Box::new(move |m| {
                    let (first, rest) = ts.split_first()?;
                    let mut best = first.get(m)?;
                    for t in rest {
                        best = words::better(best, t.get(m)?, most, w);
                    }
                    Some(best)
                })
            }
            leaf => self.piece(leaf).into_fn(),
        }
    }
}

/// `set_at(t, i, letter)` where the new letter is a function of the old:
/// the registers of `t` and `i`, and the new letter for each old code.
struct LetterTable {
    at: (usize, usize),
    letters: Rc<[Option<u64>]>,
    cell: u32,
}

impl LetterTable {
    #[inline(always)]
    fn set(&self, t: (u64, u32), m: &Machine) -> Option<(u64, u32)> {
        words::set_by_table(t, m.regs[self.at.1], &self.letters, self.cell)
    }
}

/// The bounds of a range between literals, the end exclusive.
fn constant_range(over: &Seq) -> Option<(i64, i64)> {
    match over {
        Seq::Range(Num::Lit(lo), Num::Lit(hi), inclusive) => {
            let end = if *inclusive {
                hi.checked_add(1)
            } else {
                Some(*hi)
            };
            end.map(|end| (*lo, end))
        }
        _ => None,
    }
}

impl split::Lower for Lowering {
    fn operand(&self, n: Num) -> Operand {
        Lowering::operand(self, n)
    }

    fn truth(&self, t: Truth) -> TruthFn {
        Lowering::truth(self, t)
    }

    fn row(&self, rows: Rows, t: Text) -> NumFn {
        let t = self.piece(t);
        Box::new(move |m| {
            let text = t.get(m)?;
            m.row_field(&rows, text)
        })
    }
}
