//! A new list written whole in a rule's write, piece by piece: a
//! comprehension (Chomp's `[if j < c then h[j] else min(h[j], t) for j in
//! indices(h)]`), one whose filter drops elements (`[... for k in
//! indices(rows) if k < i or j > 0]`, a list that grows shorter), or pieces
//! joined (`slice(h, 0, c) + [min(x, t) for x in slice(h, c, len(h))]`,
//! `[h[j] for j in 0..c] + [min(h[j], t) for j in c..len(h)]`). Each piece
//! walks a range; the filter says which of its values give an element, a
//! test between two branches (or one value) gives each element, and the
//! kept elements follow one another in the new list. Most of what a piece
//! works out at one option it worked out at the last: what each part reads
//! (the filter, the test, each branch), found from the compiled code, says
//! how long its values hold, and each is remembered that long, by the
//! value of the walk's variable.
//!
//! A part that reads nothing of the key holds for every key: `j < c` sends
//! the same elements each way for each `c`, `k < i or j > 0` keeps the same
//! rows for each `i` and `j`. A part that reads the key holds while the key
//! does. Besides the key and the variable, a part that reads one or two
//! more registers is remembered for each of their values (`min(h[j], t)`
//! for each `t`), and one that reads more, for as long as they all stay as
//! they were. An option's list is then made of the remembered values:
//! each branch's elements under the mask of those the test sends its way,
//! and each run of kept elements moved to its place in the new list.
//!
//! A branch that reads one element of the key, at the walk's variable, and
//! one more register (`eaten(g[i], c)`, and `min(h[j], t)` however little
//! it costs) gives each element a value that holds while that element and
//! that register do: its values for each value of the register are kept
//! from one key to the next for the elements the two keys share, and only
//! the others are worked out again.
//!
//! A rule's last loop whose list goes one route for all its values (see
//! `of_last_loop`) works out, at its first option, the key with the
//! elements of the branches that stay written, and how the elements of
//! the others move to their places (`Pass`); each option then adds only
//! what its own branches give. Where one branch alone reads the loop's
//! register and is kept by it, the options from the first on are made in
//! one loop over the register's values, each value tested first
//! (`Split::written_from`). A branch that is the written list's own
//! element at the walk's variable (`h[j]` written into `h`) gives the
//! key's bits as they are.

use super::clamped::Clamped;
use super::closure::{NumFn, Step, TruthFn};
use super::code::{Appended, Element, Num, Rows, Rule, Seq, Target, Text, Truth, Walk, Write};
use super::layout::Fields;
use super::leaves::Operand;
use super::lookup::{self, Site};
use super::reads::{self, outside_and_key};
use super::run::{low_bits, put, Machine};
use std::cell::{Cell, OnceCell, RefCell};

/// The values of a register a part is remembered by: `0..64` (each of
/// two registers, for a part that reads two).
const SLOTS: usize = 64;

/// What lowers the parts of a new list into closures (see `closure`).
pub(super) trait Lower {
    fn operand(&self, n: Num) -> Operand;
    fn truth(&self, t: Truth) -> TruthFn;
    /// A grid's row, as the number its field holds.
    fn row(&self, rows: Rows, t: Text) -> NumFn;
}

/// A piece of a new list, as compiled: one element, or one for each value
/// of a walk.
pub(super) enum Source {
    One(Num),
    Each(Box<Walk>, Element),
}

impl Source {
    /// The pieces of a list joined from `pieces`.
    pub fn appended(pieces: Vec<Appended>) -> Vec<Source> {
        pieces
            .into_iter()
            .map(|p| match p {
                Appended::One(n) => Source::One(n),
                Appended::Each(walk, n) => Source::Each(walk, Element::Num(n)),
            })
            .collect()
    }
}

/// Whether the pieces of a new list can be written here: every walk over a
/// range, and what each part reads known. `fields`: the registers that
/// hold the key's fields.
pub fn readable(pieces: &[Appended], fields: u32) -> bool {
    pieces.iter().all(|piece| match piece {
        Appended::One(_) => true,
        Appended::Each(walk, n) => walk_readable(walk, Value::Num(n), fields),
    })
}

/// Whether a comprehension can be written here (see `readable`).
pub fn readable_walk(walk: &Walk, element: &Element, fields: u32) -> bool {
    let value = match element {
        Element::Num(n) => Value::Num(n),
        Element::Row(_, t) => Value::Row(t),
    };
    walk_readable(walk, value, fields)
}

fn walk_readable(walk: &Walk, value: Value, fields: u32) -> bool {
    let var = Some(walk.var);
    let guard = walk.guard.as_ref().map_or(Some(()), |g| {
        Reads::of(outside_and_key(|v| reads::truth(v, g)), var, fields).map(drop)
    });
    matches!(walk.over, Seq::Range(..)) && guard.is_some() && parts(value, var, fields).is_some()
}

type Parts = (Option<Reads>, Vec<Reads>);

/// An element of a new list: a number, or a grid's row.
#[derive(Clone, Copy)]
enum Value<'e> {
    Num(&'e Num),
    Row(&'e Text),
}

/// What the test and each branch of an element read; `None` for the
/// test of an element that is one value.
fn parts(value: Value, var: Option<u32>, fields: u32) -> Option<Parts> {
    let of = |found| Reads::of(found, var, fields);
    Some(match value {
        Value::Num(Num::If(t, a, b)) => (
            Some(of(outside_and_key(|v| reads::truth(v, t)))?),
            vec![
                of(outside_and_key(|v| reads::num(v, a)))?,
                of(outside_and_key(|v| reads::num(v, b)))?,
            ],
        ),
        Value::Row(Text::If(t, a, b)) => (
            Some(of(outside_and_key(|v| reads::truth(v, t)))?),
            vec![
                of(outside_and_key(|v| reads::text(v, a)))?,
                of(outside_and_key(|v| reads::text(v, b)))?,
            ],
        ),
        Value::Num(n) => (None, vec![of(outside_and_key(|v| reads::num(v, n)))?]),
        Value::Row(t) => (None, vec![of(outside_and_key(|v| reads::text(v, t)))?]),
    })
}

/// What one part reads from outside itself besides its walk's variable:
/// whether it reads the key (its fields, or the key itself), and the
/// other registers.
#[derive(Clone)]
struct Reads {
    key: bool,
    regs: Vec<u32>,
}

impl Reads {
    fn of(found: Option<(Vec<u32>, bool)>, var: Option<u32>, fields: u32) -> Option<Reads> {
        let (regs, key) = found?;
        let mut beyond: Vec<u32> = regs
            .iter()
            .copied()
            .filter(|&r| r >= fields && Some(r) != var)
            .collect();
        beyond.sort_unstable();
        beyond.dedup();
        Some(Reads {
            key: key || regs.iter().any(|&r| r < fields),
            regs: beyond,
        })
    }
}

/// The new list `pieces` make, lowered by `l`, written into `fields`:
/// exactly as many elements as it holds, or with `length`, as many as the
/// pieces make and their number there. The pieces must be `readable`;
/// `key_regs`: the registers that hold the key's fields, `inner`: the one
/// the rule's last generator sets.
pub(super) fn lower(
    l: &impl Lower,
    (fields, length): (Fields, Option<Fields>),
    pieces: Vec<Source>,
    (key_regs, inner): (u32, u32),
) -> Split {
    let pieces = pieces
        .into_iter()
        .map(|piece| match piece {
            Source::One(n) => Piece::One(l.operand(n)),
            Source::Each(walk, element) => {
                let regs = (key_regs, inner);
                Piece::Each(Box::new(each(l, *walk, element, &fields, regs)))
            }
        })
        .collect();
    Split {
        fields,
        length,
        pieces,
        key_regs,
        guard: RefCell::default(),
        last_loop: OnceCell::new(),
    }
}

/// A walk's piece, lowered.
fn each(
    l: &impl Lower,
    walk: Walk,
    element: Element,
    list: &Fields,
    (fields, inner): (u32, u32),
) -> Each {
    let var = Some(walk.var);
    let value = match &element {
        Element::Num(n) => Value::Num(n),
        Element::Row(_, t) => Value::Row(t),
    };
    let (test_reads, branch_reads) = parts(value, var, fields).unwrap_or((None, Vec::new()));
    let (lo, hi, inclusive) = match walk.over {
        Seq::Range(lo, hi, inclusive) => {
            let bounds =
                [&lo, &hi].map(|n| Reads::of(outside_and_key(|v| reads::num(v, n)), var, fields));
            (Some((lo, bounds)), hi, inclusive)
        }
        _ => (None, Num::Lit(0), false),
    };
    let (lo, bounds) = match lo {
        Some((lo, bounds)) => (l.operand(lo), Some(bounds)),
        None => (Operand::Lit(0), None),
    };
    let hi = l.operand(hi);
    let ends_move = bounds.as_ref().is_none_or(|ends| {
        ends.iter()
            .any(|end| end.as_ref().is_none_or(|end| end.regs.contains(&inner)))
    });
    let route = route_reads(
        walk.guard
            .as_ref()
            .map(|g| Reads::of(outside_and_key(|v| reads::truth(v, g)), var, fields)),
        &test_reads,
        bounds,
    );
    // What the filter and the test read besides the last generator: a
    // route that reads it only through them is the same over the same
    // values wherever those stay (see `Pass::same_route`).
    let tested = (!ends_move).then(|| {
        let filter = walk
            .guard
            .as_ref()
            .map(|g| outside_and_key(|v| reads::truth(v, g)));
        let filter = filter.map(|found| Reads::of(found, var, fields));
        let parts = [filter.flatten(), test_reads.clone()];
        let mut all = joined(parts.iter().flatten().map(|r| (r.key, &r.regs)));
        all.regs.retain(|&r| r != inner);
        all
    });
    let steady = route
        .as_ref()
        .map(|route| steady(route, &branch_reads, (inner, tested)));
    let filter = walk.guard.and_then(|g| {
        let reads = Reads::of(outside_and_key(|v| reads::truth(v, &g)), var, fields)?;
        Some(Tested::new(l.truth(g), reads))
    });
    // A branch is remembered across keys too where it reads one element
    // (or row) and one register alone (see `lookup`); it is kept from key
    // to key where that element is the one at the walk's variable.
    // A branch that is the list's own element at the walk's variable
    // gives the bits the key holds there.
    let own = |n: &Num| matches!(n, Num::Field(f, i) if f == list && matches!(**i, Num::Reg(v) if v == walk.var));
    let branch = |(f, pair, reads): (NumFn, Option<(Site, u32)>, Reads), costly: bool| {
        let kept = pair
            .filter(|(site, extra)| site.index == walk.var && reads.regs == [*extra])
            .map(|(site, extra)| (site.fields, extra));
        let f = match pair.filter(|_| costly) {
            Some((site, extra)) => lookup::remembered(site, extra, f),
            None => f,
        };
        Branch::new(f, reads, kept)
    };
    let branch_of = |n: Num, reads: Reads| {
        let (pair, costly) = (lookup::num_reads_pair(&n), lookup::num_pair(&n).is_some());
        let same = own(&n);
        let mut made = branch((l.operand(n).into_fn(), pair, reads), costly);
        made.own = same;
        if let (Some((from, by)), Some((site, _))) = (made.kept, pair) {
            made.clamped = Clamped::new(from, list, site.index, by).filter(|_| !site.row);
        }
        made
    };
    let mut reads = branch_reads.into_iter();
    let mut next = || {
        reads.next().unwrap_or(Reads {
            key: true,
            regs: Vec::new(),
        })
    };
    let (test, branches) = match element {
        Element::Num(Num::If(t, a, b)) => {
            let test = l.truth(*t);
            let branches = [*a, *b].map(|n| branch_of(n, next()));
            (test_reads.map(|r| Tested::new(test, r)), branches.into())
        }
        Element::Row(rows, Text::If(t, a, b)) => {
            let test = l.truth(*t);
            let branches = [*a, *b].map(|t| {
                let pair = lookup::row_pair(&t, rows.numbered);
                branch((l.row(rows, t), pair, next()), true)
            });
            (test_reads.map(|r| Tested::new(test, r)), branches.into())
        }
        Element::Num(n) => (None, vec![branch_of(n, next())]),
        Element::Row(rows, t) => {
            let pair = lookup::row_pair(&t, rows.numbered);
            (None, vec![branch((l.row(rows, t), pair, next()), true)])
        }
    };
    Each {
        var: walk.var as usize,
        lo,
        hi,
        inclusive,
        filter,
        test,
        branches,
        shapes: route.map(|r| (r, RefCell::default())),
        steady,
    }
}

/// What the walk's ends, its filter and its test read together, where
/// all of it is known.
fn route_reads(
    filter: Option<Option<Reads>>,
    test: &Option<Reads>,
    bounds: Option<[Option<Reads>; 2]>,
) -> Option<Reads> {
    let [lo, hi] = bounds?;
    let mut parts = vec![lo?, hi?];
    parts.extend(filter.map_or(Some(None), |f| f.map(Some))?);
    let test = test.iter().map(|t| (t.key, &t.regs));
    let parts = parts.iter().map(|r| (r.key, &r.regs)).chain(test);
    Some(joined(parts))
}

/// What several parts read together.
fn joined<'r>(parts: impl Iterator<Item = (bool, &'r Vec<u32>)>) -> Reads {
    let mut all = Reads {
        key: false,
        regs: Vec::new(),
    };
    for (key, regs) in parts {
        all.key |= key;
        all.regs.extend(regs);
    }
    all.regs.sort_unstable();
    all.regs.dedup();
    all
}

/// What stays while the rule's last generator `inner` alone changes:
/// where what the route reads (see `route_reads`) does not include it,
/// the elements are kept and sent each way alike at all its values, and
/// where it does, alike over the values that give the same route. Which
/// branches do not read it either (their bits then stay too), and what
/// all those read.
fn steady(route: &Reads, branches: &[Reads], (inner, tested): (u32, Option<Reads>)) -> Steady {
    let moves = route.regs.contains(&inner).then(|| Moves {
        reg: inner,
        ends: tested.is_none(),
        passed: Cell::default(),
        runs: tested.map(|reads| (reads, RefCell::default())),
    });
    let still: Vec<bool> = branches.iter().map(|b| !b.regs.contains(&inner)).collect();
    let steady_branches = branches
        .iter()
        .zip(&still)
        .filter(|(_, s)| **s)
        .map(|(b, _)| (b.key, &b.regs));
    let Reads { key, regs } =
        joined(std::iter::once((route.key, &route.regs)).chain(steady_branches));
    Steady {
        still,
        key,
        regs,
        moves,
        held: RefCell::default(),
    }
}

/// Whether the options of a rule's loop at `depth` are its writes alone,
/// made right in the loop: its last loop, with no sum and no trail
/// (`untraced`).
pub(super) fn plain_last(rule: &Rule, depth: usize, untraced: bool) -> bool {
    untraced && depth + 1 == rule.gens.len() && rule.sum.is_none()
}

/// The lists a rule's `plain_last` loop writes by one route each (see
/// `Split::steady_in`, `Split::written_from`): the rule's one write, or
/// those of the two branches of an `if` made at each value (`if j == 0
/// then slice(rows, 0, i) else ...`), not hoisted. Each route then reads
/// only registers of the generators outside the loop, which no test of
/// the loop sets, and the loop's own.
pub(super) enum LastLoop<'r> {
    One(&'r Split),
    /// The test, and the writes where it holds and where it does not,
    /// each with its list where it is one written by one route (one of
    /// them at least).
    Chosen(&'r Truth, [Chosen<'r>; 2]),
}

/// One branch's writes, and its list written by one route.
pub(super) type Chosen<'r> = (&'r [Write], Option<&'r Split>);

impl<'r> LastLoop<'r> {
    pub fn one(self) -> Option<&'r Split> {
        match self {
            LastLoop::One(split) => Some(split),
            LastLoop::Chosen(..) => None,
        }
    }
}

#[inline]
pub(super) fn of_last_loop<'r>(rule: &'r Rule) -> Option<LastLoop<'r>> {
    if rule.hoist.is_some() {
        return None;
    }
    match &rule.writes[..] {
        [Write::Closure(step)] => Some(LastLoop::One(one_route(rule, step)?)),
        [Write::Choose {
            test,
            then,
            otherwise,
        }] => {
            let route = |writes: &'r [Write]| match writes {
                [Write::Closure(step)] => one_route(rule, step),
                _ => None,
            };
            let (a, b) = (route(then), route(otherwise));
            (a.is_some() || b.is_some())
                .then_some(LastLoop::Chosen(test, [(then, a), (otherwise, b)]))
        }
        _ => None,
    }
}

/// The list `step` writes, where the loop writes it by one route; found
/// at the first loop that asks (a split is one rule's write).
fn one_route<'r>(rule: &Rule, step: &'r Step) -> Option<&'r Split> {
    let split = step.split()?;
    let steady = *split.last_loop.get_or_init(|| {
        let outer = rule.gens.len().saturating_sub(1);
        split.steady_in(|r| {
            rule.gens[..outer]
                .iter()
                .any(|g| matches!(g.target, Target::Reg(x) if x == r))
        })
    });
    steady.then_some(split)
}

impl Machine {
    /// The options of a rule's `plain_last` loop, over `seq` from `i` to
    /// `end` into register `r` (`test` the values' test), each written
    /// where its tests pass; a list written by one route (see
    /// `of_last_loop`) has it worked out at the first such option, as
    /// writing it there would, and kept.
    pub(super) fn last_values(
        &mut self,
        rule: &Rule,
        (r, seq): (usize, &Seq),
        (mut i, end): (i64, i64),
        test: Option<&Truth>,
        out: &mut Vec<u64>,
    ) -> Option<()> {
        let depth = rule.gens.len() - 1;
        let routes = of_last_loop(rule);
        let early = rule.early.get(depth).and_then(Option::as_ref);
        let tests = [test, early, rule.guard.as_ref()];
        // A route worked out for each list; for two, which the last value
        // chose.
        let mut passes = [None, None];
        let mut chosen = None;
        // Passes worked out again as the route changed, and the options
        // written through passes: where the route changes at nearly every
        // value (a filter or test comparing the walk's places with the
        // loop's variable, `k < i` over `i`), a pass costs more than it
        // saves, and the rest of the loop writes each option whole.
        let (mut remade, mut written) = (0, 0);
        'values: while i < end {
            self.step()?;
            self.regs[r] = self.item(seq, i)?;
            i += 1;
            for test in tests.iter().flatten() {
                if !self.truth(test)? {
                    continue 'values;
                }
            }
            let Some(routes) = routes
                .as_ref()
                .filter(|_| remade < 2 || written >= 2 * (remade + 1))
            else {
                out.push(self.rule_written(rule)?);
                continue;
            };
            // The values left, from this one on, at once where they are
            // all places of a word.
            let first = i - 1;
            let mut values = matches!(seq, Seq::Range(..))
                .then_some(())
                .filter(|()| first >= 0 && end <= 64)
                .map(|()| low_bits((end - first) as u32) << first);
            let (split, pass) = match *routes {
                LastLoop::One(split) => (split, &mut passes[0]),
                LastLoop::Chosen(test, branches) => {
                    let holds = self.truth(test)?;
                    // Where the choice changes, the values from this one
                    // on that choose alike; else one value at a time.
                    values = values
                        .filter(|_| chosen != Some(holds))
                        .map(|values| self.chosen_alike(test, holds, (r, first), values));
                    chosen = Some(holds);
                    let b = usize::from(!holds);
                    let (writes, split) = branches[b];
                    let Some(split) = split else {
                        out.push(self.written_onto(self.key, writes)?);
                        continue;
                    };
                    (split, &mut passes[b])
                }
            };
            let (done, again) =
                split.written_from(self, (rule, pass), (r, first, values), tests, out)?;
            remade += i64::from(again);
            written += done - first;
            if done > i {
                self.steps(usize::try_from(done - i).ok()?)?;
                i = done;
            }
        }
        Some(())
    }
}

impl Machine {
    /// The values of `values` (a bit each, `first` the least) from `first`
    /// on up to the first at which `test` is not `holds`, or fails (it is
    /// made there before the values' tests); register `r` is left at
    /// `first`.
    fn chosen_alike(
        &mut self,
        test: &Truth,
        holds: bool,
        (r, first): (usize, i64),
        values: u64,
    ) -> u64 {
        let mut rest = values & !(1u64 << first);
        let mut alike = values;
        while rest != 0 {
            let at = rest.trailing_zeros();
            self.regs[r] = i64::from(at);
            if self.truth(test) != Some(holds) {
                alike = values & low_bits(at);
                break;
            }
            rest &= rest - 1;
        }
        self.regs[r] = first;
        alike
    }
}

/// A new list, ready to run.
pub(super) struct Split {
    fields: Fields,
    length: Option<Fields>,
    pieces: Vec<Piece>,
    /// The registers that hold the key's fields.
    key_regs: u32,
    /// What the rule's guard reads besides the loop's register (a split
    /// is the write of one rule, whose last loop is over one register),
    /// and its truths at the values of that loop (see `passing`).
    guard: RefCell<Option<(Option<Reads>, Memo<Worked>)>>,
    /// Whether it is written by one route in its rule's last loop (see
    /// `of_last_loop`).
    last_loop: OnceCell<bool>,
}

enum Piece {
    One(Operand),
    Each(Box<Each>),
}

/// A walk over `lo..hi` (`..=` when `inclusive`), its elements those
/// `filter` keeps, each `branches[0]` where `test` holds, else
/// `branches[1]` (or `branches[0]` alone where there is no test).
struct Each {
    var: usize,
    lo: Operand,
    hi: Operand,
    inclusive: bool,
    filter: Option<Tested>,
    test: Option<Tested>,
    branches: Vec<Branch>,
    /// Where the elements come from, remembered by what that reads.
    shapes: Option<(Reads, RefCell<Memo<Option<Shape>>>)>,
    steady: Option<Steady>,
}

/// What stays while the rule's last generator alone changes (see
/// `steady`): which branches stay, whether any of it reads the key, the
/// registers it reads, and the route last worked out, for that key and
/// those registers' values.
struct Steady {
    still: Vec<bool>,
    key: bool,
    regs: Vec<u32>,
    /// Where the route reads the last generator's register (a filter
    /// `k < i or j > 0`): the route then stays only over the values that
    /// give it alike, and a loop checks it at each (see `Each::holds`).
    moves: Option<Moves>,
    held: RefCell<Option<(u64, Vec<i64>, Route)>>,
}

/// The last generator's register, which the route reads, and whether
/// the walk's ends read it (else only the filter or the test does); where
/// they do not, the runs of values that give a route alike, remembered by
/// what the filter and the test read besides.
struct Moves {
    reg: u32,
    ends: bool,
    /// The route's shape the last pass was worked out for (see
    /// `Split::pass`): a loop works out one at a time.
    passed: Cell<Shape>,
    runs: Option<(Reads, RefCell<Memo<Option<SameRun>>>)>,
}

/// A run of values that give a route alike (see `Pass::same_route`): what
/// was asked (the first value, the values, the values walked, those kept
/// and those the test sends the first way), and the run.
type SameRun = ([u64; 5], u64);

/// Where an option's elements come from: the values walked, those kept,
/// and those each branch gives (a bit each) with their fields' mask.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Shape {
    steps: usize,
    /// The walk's ends, where its values are past the places of the list:
    /// its elements are then worked out one after the other.
    outside: Option<(i64, i64)>,
    kept: u64,
    /// The first value kept and how many follow it, where no value
    /// between is dropped.
    run: Option<(u32, u32)>,
    sent: [(u64, u64); 2],
}

/// An option's shape with the bits of the branches that stay (see
/// `Steady`), and the branches that give some elements and do not stay,
/// a bit each.
#[derive(Clone, Copy, Default)]
pub(super) struct Route {
    shape: Shape,
    bits: u64,
    live: u8,
}

/// A filter or a test, remembered by the registers it reads.
struct Tested {
    f: TruthFn,
    reads: Reads,
    memo: RefCell<Memo<Worked>>,
}

/// Where a filter's or test's truths are held: one bit a value, at the
/// value's place.
const TRUTHS: Fields = Fields {
    first: 0,
    len: 64,
    width: 1,
    shift: 0,
    bias: 0,
};

/// A branch, remembered by the registers it reads; `kept`: the list whose
/// element at the walk's variable it reads, and the one register it reads
/// besides, when its values are kept from key to key.
struct Branch {
    f: NumFn,
    /// Whether it is the list's own element at the walk's variable: its
    /// bits are the key's.
    own: bool,
    reads: Reads,
    memo: RefCell<Memo<Worked>>,
    kept: Option<(Fields, u32)>,
    across: RefCell<Across>,
    /// For a kept branch of a number, where it holds the element within
    /// bounds: its elements at once (see `clamped`).
    clamped: Option<Clamped>,
}

/// What a kept branch keeps: its values by the register's value, each
/// with the key it holds for; and the elements the last two keys asked
/// about share: the keys, the elements (a bit each) and their fields'
/// mask.
struct Across {
    slots: Vec<(u64, Worked)>,
    last: (u64, u64, u64, u64),
}

impl Tested {
    fn new(f: TruthFn, reads: Reads) -> Tested {
        Tested {
            f,
            reads,
            memo: RefCell::default(),
        }
    }

    /// The values of `want` (a bit each) at which it holds; `None` where it
    /// fails at one of them.
    #[inline(always)]
    fn held(&self, m: &mut Machine, var: usize, want: u64) -> Option<u64> {
        let memo = &mut *self.memo.borrow_mut();
        let work = |m: &mut Machine, at: u32| {
            m.regs[var] = i64::from(at);
            (self.f)(m).map(i64::from)
        };
        let held = match memo.at(&self.reads, m) {
            Some(truths) => truths.get(want, &TRUTHS, |at| work(m, at)),
            None => Worked::default().get(want, &TRUTHS, |at| work(m, at)),
        };
        Some(held? & want)
    }
}

impl Branch {
    fn new(f: NumFn, reads: Reads, kept: Option<(Fields, u32)>) -> Branch {
        Branch {
            f,
            own: false,
            reads,
            memo: RefCell::default(),
            kept,
            clamped: None,
            // Key 0 with nothing worked out; keys 0 and 0 share no element:
            // as nothing was worked out for key 0, nothing is lost.
            across: RefCell::new(Across {
                slots: vec![(0, Worked::default()); SLOTS],
                last: (0, 0, 0, 0),
            }),
        }
    }

    /// The fields' bits of the elements at the values `want` (among
    /// others'), each at the place of its value in `fields`.
    #[inline(always)]
    fn bits(&self, m: &mut Machine, var: usize, want: u64, fields: &Fields) -> Option<u64> {
        if self.own {
            return Some(m.key);
        }
        let work = |m: &mut Machine, at: u32| {
            m.regs[var] = i64::from(at);
            (self.f)(m)
        };
        if let Some((list, by)) = self.kept {
            if let Some(bits) = self.clamped_bits(m, want, fields) {
                return Some(bits);
            }
            if let Some(slot) = usize::try_from(m.regs[by as usize])
                .ok()
                .filter(|&v| v < SLOTS)
            {
                let across = &mut *self.across.borrow_mut();
                let worked = across.at(slot, m.key, fields, &list);
                return worked.get(want, fields, |at| work(m, at));
            }
        }
        self.remembered(m, var, want, fields)
    }

    /// `bits` at once, where the branch holds the element within bounds
    /// at the current value of the register it reads (see `clamped`).
    #[inline(always)]
    fn clamped_bits(&self, m: &Machine, want: u64, fields: &Fields) -> Option<u64> {
        self.clamped.as_ref()?.bits(m, &self.f, want, fields)
    }

    /// Whether the branch is kept by the value of register `by` (see
    /// `Across`).
    fn kept_by(&self, by: usize) -> bool {
        self.kept.is_some_and(|(_, r)| r as usize == by)
    }

    /// `bits` for each of the `values` (a bit each, at the value's place)
    /// of register `by` that has `passed`, handed to `each` in order,
    /// where the branch is `kept_by` that register.
    #[inline(always)]
    fn each_bits(
        &self,
        m: &mut Machine,
        (var, want, fields): (usize, u64, &Fields),
        (by, mut values): (usize, u64),
        mut passed: impl FnMut(&mut Machine, i64) -> Option<bool>,
        mut each: impl FnMut(u64),
    ) -> Option<()> {
        let (list, _) = self.kept.filter(|_| self.kept_by(by))?;
        let across = &mut *self.across.borrow_mut();
        while values != 0 {
            let value = values.trailing_zeros();
            values &= values - 1;
            m.regs[by] = i64::from(value);
            if !passed(m, i64::from(value))? {
                continue;
            }
            if let Some(bits) = self.clamped_bits(m, want, fields) {
                each(bits);
                continue;
            }
            let worked = across.at(value as usize, m.key, fields, &list);
            each(worked.get(want, fields, |at| {
                m.regs[var] = i64::from(at);
                (self.f)(m)
            })?);
        }
        Some(())
    }

    /// `bits` remembered by the registers the branch reads.
    #[inline(always)]
    fn remembered(&self, m: &mut Machine, var: usize, want: u64, fields: &Fields) -> Option<u64> {
        let work = |m: &mut Machine, at: u32| {
            m.regs[var] = i64::from(at);
            (self.f)(m)
        };
        let memo = &mut *self.memo.borrow_mut();
        match memo.at(&self.reads, m) {
            Some(worked) => worked.get(want, fields, |at| work(m, at)),
            None => Worked::default().get(want, fields, |at| work(m, at)),
        }
    }
}

impl Across {
    /// What is kept for the register's value `slot`, at `key`: what was
    /// worked out at the key it was last asked about, for the elements
    /// the two keys share.
    #[inline(always)]
    fn at(&mut self, slot: usize, key: u64, fields: &Fields, list: &Fields) -> &mut Worked {
        let (held, worked) = &mut self.slots[slot];
        if *held != key {
            let (same, mask) = shared(&mut self.last, fields, list, *held, key);
            worked.keep(same, mask);
            *held = key;
        }
        worked
    }
}

/// The places whose element in `list` is the same in keys `old` and
/// `new`, a bit each, and their fields' mask in `fields`; the last pair of
/// keys asked about is remembered in `last`.
fn shared(
    last: &mut (u64, u64, u64, u64),
    fields: &Fields,
    list: &Fields,
    old: u64,
    new: u64,
) -> (u64, u64) {
    if (last.0, last.1) != (old, new) {
        let (mut same, mut mask) = (0, 0);
        for at in 0..fields.len.min(list.len) {
            if list.read(old, at) == list.read(new, at) {
                same |= 1 << at;
                mask |= fields.mask() << fields.shift_of(at);
            }
        }
        *last = (old, new, same, mask);
    }
    (last.2, last.3)
}

/// What one part remembers, by the values of the registers it reads.
struct Memo<T> {
    /// The key it was worked out for, where it reads the key.
    key: Option<u64>,
    /// By the value of the one register it reads (slot 0 when it reads
    /// none), or of the two, each with the round of keys it was worked out
    /// in: it holds only in the current round.
    slots: Vec<(u64, T)>,
    round: u64,
    /// For a part that reads more registers: their values when `single`
    /// was worked out.
    values: Option<Vec<i64>>,
    single: T,
}

impl<T: Default> Default for Memo<T> {
    fn default() -> Memo<T> {
        Memo {
            key: None,
            slots: Vec::new(),
            round: 1,
            values: None,
            single: T::default(),
        }
    }
}

impl<T: Default + Clone> Memo<T> {
    /// What is remembered for the current key and values of the registers
    /// `reads` names; `None` where nothing is (a value outside the slots).
    #[inline(always)]
    fn at(&mut self, reads: &Reads, m: &Machine) -> Option<&mut T> {
        if reads.key && self.key != Some(m.key) {
            self.key = Some(m.key);
            self.round += 1;
            self.values = None;
        }
        let slot = |r: &u32| {
            usize::try_from(m.regs[*r as usize])
                .ok()
                .filter(|&v| v < SLOTS)
        };
        let s = match reads.regs[..] {
            [] => 0,
            [r] => slot(&r)?,
            [r, q] => slot(&r)? * SLOTS + slot(&q)?,
            _ => {
                let now = reads.regs.iter().map(|r| m.regs[*r as usize]);
                if !self
                    .values
                    .as_ref()
                    .is_some_and(|v| v.iter().copied().eq(now.clone()))
                {
                    self.values = Some(now.collect());
                    self.single = T::default();
                }
                return Some(&mut self.single);
            }
        };
        if s >= self.slots.len() {
            let size = if reads.regs.len() == 2 {
                SLOTS * SLOTS
            } else {
                SLOTS
            };
            self.slots.resize(size.max(s + 1), (0, T::default()));
        }
        let slot = &mut self.slots[s];
        if slot.0 != self.round {
            *slot = (self.round, T::default());
        }
        Some(&mut slot.1)
    }
}

/// Values of one branch, for some elements, as they were asked for; or
/// the truths of a filter or test, held as fields of one bit (`TRUTHS`).
#[derive(Clone, Copy, Default)]
struct Worked {
    /// The elements worked out, a bit each (bit `at`), and those whose
    /// branch failed or whose field cannot hold its value.
    done: u64,
    failed: u64,
    /// The fields' bits of the others.
    bits: u64,
}

impl Worked {
    /// Forgets the elements but `same`, whose fields' bits are `mask`.
    #[inline(always)]
    fn keep(&mut self, same: u64, mask: u64) {
        self.done &= same;
        self.failed &= same;
        self.bits &= mask;
    }

    /// The fields' bits of the elements `want` (among others'), those not
    /// worked out yet worked out now with `work`; `None` where one of them
    /// fails.
    #[inline(always)]
    fn get(
        &mut self,
        want: u64,
        fields: &Fields,
        mut work: impl FnMut(u32) -> Option<i64>,
    ) -> Option<u64> {
        let mut missing = want & !self.done;
        self.done |= missing;
        while missing != 0 {
            let at = missing.trailing_zeros();
            missing &= missing - 1;
            match work(at).filter(|&v| fields.fits(v)) {
                Some(v) => self.bits |= fields.stored(v) << fields.shift_of(at),
                None => self.failed |= 1 << at,
            }
        }
        (self.failed & want == 0).then_some(self.bits)
    }
}

/// The fields' mask of the elements `at` (a bit each).
#[inline(always)]
fn spread(fields: &Fields, mut at: u64) -> u64 {
    let mut mask = 0;
    while at != 0 {
        let first = at.trailing_zeros();
        let run = (at >> first).trailing_ones();
        mask |= low_bits(run * fields.width) << fields.shift_of(first);
        at &= !(low_bits(run) << first);
    }
    mask
}

/// The list being made: its fields' bits and how many elements it has.
struct Made<'f> {
    fields: &'f Fields,
    bits: u64,
    count: u32,
}

impl Made<'_> {
    fn new(fields: &Fields) -> Made<'_> {
        Made {
            fields,
            bits: 0,
            count: 0,
        }
    }

    /// Element `v` appended; `None` where it does not fit.
    #[inline(always)]
    fn push(&mut self, v: i64) -> Option<()> {
        let f = self.fields;
        if self.count >= f.len || !f.fits(v) {
            return None;
        }
        self.bits |= f.stored(v) << f.shift_of(self.count);
        self.count += 1;
        Some(())
    }

    /// The `run` elements at the values from `first` on, whose fields'
    /// bits (theirs alone) are at their values' places in `bits`,
    /// appended in order.
    #[inline(always)]
    fn append(&mut self, bits: u64, (first, run): (u32, u32)) -> Option<()> {
        let f = self.fields;
        if self.count + run > f.len {
            return None;
        }
        let (from, to) = (f.shift_of(first), f.shift_of(self.count));
        self.bits |= if to >= from {
            bits << (to - from)
        } else {
            bits >> (from - to)
        };
        self.count += run;
        Some(())
    }

    /// The elements at the values `kept` (a bit each), whose fields' bits
    /// (theirs alone) are at their values' places in `bits`, appended in
    /// order: for elements kept with gaps between them, or none.
    #[inline(never)]
    fn runs(&mut self, bits: u64, mut kept: u64) -> Option<()> {
        let f = self.fields;
        while kept != 0 {
            let first = kept.trailing_zeros();
            let run = (kept >> first).trailing_ones();
            if self.count + run > f.len {
                return None;
            }
            let moved = (bits >> f.shift_of(first)) & low_bits(run * f.width);
            self.bits |= moved << f.shift_of(self.count);
            self.count += run;
            kept &= !(low_bits(run) << first);
        }
        Some(())
    }
}

impl Split {
    /// `k` with the list written.
    #[inline(always)]
    pub fn run(&self, m: &mut Machine, k: u64) -> Option<u64> {
        let mut made = Made::new(&self.fields);
        for piece in &self.pieces {
            match piece {
                Piece::One(n) => made.push(n.get(m)?)?,
                Piece::Each(each) => each.run(m, &mut made)?,
            }
        }
        self.finished(k, made)
    }

    /// Whether the list is one walk all of whose route stays while the
    /// rule's last generator alone changes (see `steady`), reading no
    /// register but the key's, those `outer` names and that generator's
    /// own where the route reads it: a loop over that generator then
    /// works the route out once (once for each run of values that give
    /// it alike) and each option's list from it (see `written_from`).
    fn steady_in(&self, outer: impl Fn(u32) -> bool) -> bool {
        matches!(&self.pieces[..], [Piece::Each(each)]
            if each.steady.as_ref().is_some_and(|s| s.regs.iter().all(|&r| outer(r) || s.moves.as_ref().is_some_and(|moves| moves.reg == r))))
    }

    /// Whether the list is `steady_in` some generators: only such a list
    /// is kept for a loop to ask about.
    pub fn steady(&self) -> bool {
        self.steady_in(|_| true)
    }

    /// The key of the option at value `first` of register `r`, whose
    /// tests passed, pushed to `out`: the list of a `steady_in` split
    /// written by the route `pass` holds, worked out first where it is
    /// not yet (or where the route reads `r` and is not the one `pass`
    /// holds). Where it is worked out now, the options at the rest of
    /// `values` (a bit each, at the value's place; `first` among them)
    /// are written too where they can be at once (see `rest_written`).
    /// The value up to which options are written (`first + 1` where only
    /// `first`'s is), and whether a pass was worked out again because its
    /// route did not hold; the steps of the values after `first` are the
    /// caller's.
    #[inline(never)]
    pub(super) fn written_from<'s>(
        &'s self,
        m: &mut Machine,
        (rule, pass): (&Rule, &mut Option<Pass<'s>>),
        (r, first, values): (usize, i64, Option<u64>),
        tests: [Option<&Truth>; 3],
        out: &mut Vec<u64>,
    ) -> Option<(i64, bool)> {
        let mut remade = false;
        if let Some(made) = pass.as_ref() {
            if let Some(moves) = made.moves() {
                if !made.each.holds(m, &self.fields, &moves.passed.get(), moves) {
                    *pass = None;
                    remade = true;
                }
            }
        }
        if pass.is_none() {
            self.pass(m, pass)?;
            if let (Some(made), Some(values)) = (pass.as_ref(), values) {
                let tests = (rule, tests);
                if let Some(done) = self.rest_written(m, made, (r, first, values), tests, out)? {
                    return Some((done, remade));
                }
            }
        }
        out.push(pass.as_ref()?.key(m)?);
        Some((first + 1, remade))
    }

    /// The keys of the options of a loop over the rule's last generator,
    /// register `r`, at the values `values` (a bit each, at the value's
    /// place), from `first`, the first whose tests passed and at which
    /// `pass` was worked out: the one branch that reads the register
    /// worked out value after value as that branch is kept (see
    /// `Branch::each_bits`), each value after the first tested first,
    /// up to the first value whose route is not `pass`'s where the route
    /// reads `r`: the value past the last written; `None` where the list
    /// is not written so, and no key was made. The steps of the values
    /// are the caller's to count.
    fn rest_written(
        &self,
        m: &mut Machine,
        pass: &Pass,
        (r, first, values): (usize, i64, u64),
        tests: (&Rule, [Option<&Truth>; 3]),
        out: &mut Vec<u64>,
    ) -> Option<Option<i64>> {
        let (([(at, mask), _], 1) | ([_, (at, mask)], 2)) = (pass.sent, pass.live) else {
            return Some(None);
        };
        let live = pass.live.trailing_zeros() as usize;
        let branch = pass.each.branches.get(live)?;
        if pass.outside || pass.runs != 0 || !branch.kept_by(r) {
            return Some(None);
        }
        let values = match pass.moves() {
            Some(moves) => pass.same_route(m, (r, moves), first, values),
            None => values,
        };
        if values == 1 << first {
            // The route holds at this value alone: its key is made as any
            // one option's is.
            return Some(None);
        }
        let done = i64::from(64 - values.leading_zeros());
        let (base, down) = (pass.base, pass.down);
        let passing = self.passing(m, (r, first, values), tests)?;
        let passed = |_: &mut Machine, value: i64| Some(passing >> value & 1 == 1);
        let var = pass.each.var;
        let before = out.len();
        // A branch that holds its elements within bounds at each value:
        // every option in a few word operations.
        if let Some(clamped) = &branch.clamped {
            let f = (&branch.f, &self.fields);
            let each = |bits: u64| out.push(base | (bits & mask) >> down);
            if clamped.each(m, f, (at, passing), each).is_some() {
                // Where the loop of one value at a time leaves it.
                m.regs[r] = done - 1;
                let options = out.len() - before;
                m.steps(options.checked_mul(pass.steps)?)?;
                return Some(Some(done));
            }
        }
        branch.each_bits(m, (var, at, &self.fields), (r, values), passed, |bits| {
            out.push(base | (bits & mask) >> down);
        })?;
        // Each option takes the steps of its walk: counted once the loop
        // is done, as it is bounded.
        let options = out.len() - before;
        m.steps(options.checked_mul(pass.steps)?)?;
        Some(Some(done))
    }

    /// The values of `values` (a bit each) at which all of `tests` hold,
    /// made in order as the loop of one value at a time makes them (each
    /// at the values the one before let through), register `r` holding
    /// the value; `first` passed them already. The rule's guard, whose
    /// reads are known, is remembered by them as a filter is (see
    /// `Tested`): one that reads the loop's register and those of the
    /// loops outside alone is made once for each of their values. `None`
    /// where a test fails at a value it is made at.
    fn passing(
        &self,
        m: &mut Machine,
        (r, first, values): (usize, i64, u64),
        (rule, tests): (&Rule, [Option<&Truth>; 3]),
    ) -> Option<u64> {
        let first = 1u64.checked_shl(u32::try_from(first).ok()?)?;
        let mut passed = values & !first;
        for test in tests.into_iter().flatten() {
            if passed == 0 {
                break;
            }
            let work = |m: &mut Machine, at: u32| {
                m.regs[r] = i64::from(at);
                m.truth(test).map(i64::from)
            };
            let guard = rule.guard.as_ref().filter(|g| std::ptr::eq(*g, test));
            let held = &mut *self.guard.borrow_mut();
            let truths = match guard.map(|_| {
                held.get_or_insert_with(|| {
                    let found = rule.guard_reads.clone();
                    (
                        Reads::of(found, Some(r as u32), self.key_regs),
                        Memo::default(),
                    )
                })
            }) {
                Some((Some(reads), memo)) => match memo.at(reads, m) {
                    Some(truths) => truths.get(passed, &TRUTHS, |at| work(m, at)),
                    None => Worked::default().get(passed, &TRUTHS, |at| work(m, at)),
                },
                _ => Worked::default().get(passed, &TRUTHS, |at| work(m, at)),
            };
            passed &= truths?;
        }
        Some(passed | first)
    }

    /// What every option of a loop over the rule's last generator shares,
    /// worked out at the first, into `pass`: the route, and the key with
    /// the list written from the branches that stay. It is written where
    /// it is kept, not moved there: it is made once for each value of
    /// the loops outside.
    #[inline(never)]
    fn pass<'s>(&'s self, m: &mut Machine, pass: &mut Option<Pass<'s>>) -> Option<()> {
        let [Piece::Each(each)] = &self.pieces[..] else {
            return None;
        };
        let steady = each.steady.as_ref()?;
        let still = &steady.still;
        let key = m.key;
        let made = each.routed(m, &self.fields, still, |shape, bits, live| {
            if let Some(moves) = &steady.moves {
                moves.passed.set(*shape);
            }
            // The elements kept are moved to their places, which no
            // option changes: the elements of the branches worked out at
            // each option are moved the same way and added to the key.
            let mut made = Made::new(&self.fields);
            let (base, down) = match (shape.outside, shape.run) {
                (Some(_), _) => (Some(0), 0),
                (None, Some((first, run))) => {
                    let down = self.fields.shift_of(first) - self.fields.shift;
                    let made = made.append(bits, (first, run)).map(|()| made);
                    (made.and_then(|made| self.finished(key, made)), down)
                }
                (None, None) => {
                    let made = made.runs(bits, shape.kept).map(|()| made);
                    (made.and_then(|made| self.finished(key, made)), 0)
                }
            };
            Some(Pass {
                split: self,
                each,
                steps: shape.steps,
                outside: shape.outside.is_some(),
                base: base?,
                down,
                runs: if shape.run.is_some() { 0 } else { shape.kept },
                live,
                sent: shape.sent,
            })
        })?;
        *pass = Some(made?);
        Some(())
    }

    /// `k` with the list `made` in its fields (and its length).
    #[inline(always)]
    fn finished(&self, k: u64, made: Made) -> Option<u64> {
        let f = &self.fields;
        let k = k & !(low_bits(f.len * f.width) << f.shift) | made.bits;
        match &self.length {
            Some(length) => put(k, length, 0, i64::from(made.count)),
            None => (made.count == f.len).then_some(k),
        }
    }
}

/// A loop's options written by one route (see `Split::written`): the
/// list and its piece; the steps each option takes, and whether the
/// walk's values are past the list's places (each option then works its
/// elements out one by one); the key with the list written from the
/// branches that stay, and how the elements of the others are moved to
/// their places: down `down` bits where the elements kept follow one
/// another, else run by run of `runs`; those branches (a bit each), and
/// the elements each branch gives (a bit each) with their fields' mask.
pub(super) struct Pass<'s> {
    split: &'s Split,
    each: &'s Each,
    steps: usize,
    outside: bool,
    base: u64,
    down: u32,
    runs: u64,
    live: u8,
    sent: [(u64, u64); 2],
}

impl Pass<'_> {
    /// Whether the route reads the loop's register (see `Steady::moves`).
    fn moves(&self) -> Option<&Moves> {
        self.each.steady.as_ref()?.moves.as_ref()
    }

    /// The values of `values` (a bit each, `first` the least) from `first`
    /// on up to the first whose route is not this one's, or cannot be
    /// worked out: the route is read there before the values' tests are
    /// made, and a route that fails leaves that value to the loop, which
    /// makes its tests first. Register `r` is left at `first`.
    fn same_route(
        &self,
        m: &mut Machine,
        (r, moves): (usize, &Moves),
        first: i64,
        values: u64,
    ) -> u64 {
        let scan = |m: &mut Machine| {
            let mut rest = values & !(1u64 << first);
            let mut same = values;
            while rest != 0 {
                let at = rest.trailing_zeros();
                m.regs[r] = i64::from(at);
                if !self
                    .each
                    .holds(m, &self.split.fields, &moves.passed.get(), moves)
                {
                    same = values & low_bits(at);
                    break;
                }
                rest &= rest - 1;
            }
            m.regs[r] = first;
            same
        };
        let Some((reads, runs)) = &moves.runs else {
            return scan(m);
        };
        let shape = &moves.passed.get();
        let Some(walked) = self.each.walked(m) else {
            return scan(m);
        };
        let asked = [first as u64, values, walked, shape.kept, shape.sent[0].0];
        let runs = &mut *runs.borrow_mut();
        let Some(run) = runs.at(reads, m) else {
            return scan(m);
        };
        match run {
            // Compared word by word: an array's `==` calls `memcmp`.
            Some((was, same)) if was.iter().zip(asked).fold(0, |d, (w, a)| d | (w ^ a)) == 0 => {
                *same
            }
            _ => {
                let same = scan(m);
                *run = Some((asked, same));
                same
            }
        }
    }

    /// The key of the current option.
    #[inline(always)]
    fn key(&self, m: &mut Machine) -> Option<u64> {
        let fields = &self.split.fields;
        if self.outside {
            return self.one_by_one(m);
        }
        m.steps(self.steps)?;
        let (mut bits, mut live) = (0, self.live);
        while live != 0 {
            let b = live.trailing_zeros() as usize;
            live &= live - 1;
            let (at, mask) = self.sent[b];
            bits |= self
                .each
                .branches
                .get(b)?
                .bits(m, self.each.var, at, fields)?
                & mask;
        }
        if self.runs == 0 {
            return Some(self.base | bits >> self.down);
        }
        let mut made = Made::new(fields);
        made.runs(bits, self.runs)?;
        Some(self.base | made.bits)
    }

    /// The key of the current option where the walk's values are past
    /// the list's places: its elements worked out one by one, their
    /// number maybe not the one the key was written with.
    #[inline(never)]
    fn one_by_one(&self, m: &mut Machine) -> Option<u64> {
        let fields = &self.split.fields;
        let route = self
            .each
            .route(m, fields, &self.each.steady.as_ref()?.still)?;
        let mut made = Made::new(fields);
        self.each
            .made_by(m, &mut made, &route.shape, (route.bits, route.live))?;
        self.split.finished(m.key, made)
    }
}

impl Each {
    /// The piece's elements appended to `made`.
    #[inline(always)]
    fn run(&self, m: &mut Machine, made: &mut Made) -> Option<()> {
        let f = made.fields;
        // A route that reads the last generator is remembered by its
        // shape alone: it changes within a loop.
        let Some(steady) = self.steady.as_ref().filter(|s| s.moves.is_none()) else {
            // Every branch is worked out at each option: the shape is
            // read where it is remembered.
            if let Some((reads, shapes)) = &self.shapes {
                let shapes = &mut *shapes.borrow_mut();
                if let Some(entry) = shapes.at(reads, m) {
                    let shape = match entry {
                        Some(shape) => shape,
                        None => entry.insert(self.shape(m, f)?),
                    };
                    let live = u8::from(shape.sent[0].0 != 0) | u8::from(shape.sent[1].0 != 0) << 1;
                    return self.made_by(m, made, shape, (0, live));
                }
            }
            let route = self.route(m, f, &[])?;
            return self.made_by(m, made, &route.shape, (route.bits, route.live));
        };
        let held = &mut *steady.held.borrow_mut();
        let holds = held.as_ref().is_some_and(|(key, values, _)| {
            (!steady.key || *key == m.key)
                && values
                    .iter()
                    .zip(&steady.regs)
                    .all(|(v, r)| m.regs[*r as usize] == *v)
        });
        if !holds {
            let route = self.route(m, f, &steady.still)?;
            let (_, mut values, _) = held.take().unwrap_or_default();
            values.clear();
            values.extend(steady.regs.iter().map(|r| m.regs[*r as usize]));
            *held = Some((m.key, values, route));
        }
        let route = &held.as_ref()?.2;
        self.made_by(m, made, &route.shape, (route.bits, route.live))
    }

    /// The piece's elements by `shape` appended to `made`: `bits` of the
    /// branches that stay, and those of the branches `live` (a bit each)
    /// worked out now.
    #[inline(always)]
    fn made_by(
        &self,
        m: &mut Machine,
        made: &mut Made,
        shape: &Shape,
        (mut bits, mut live): (u64, u8),
    ) -> Option<()> {
        m.steps(shape.steps)?;
        if let Some((lo, hi)) = shape.outside {
            return self.one_by_one(m, made, lo, hi);
        }
        while live != 0 {
            let b = live.trailing_zeros() as usize;
            live &= live - 1;
            let (at, mask) = shape.sent[b];
            bits |= self.branches.get(b)?.bits(m, self.var, at, made.fields)? & mask;
        }
        match shape.run {
            Some(run) => made.append(bits, run),
            None => made.runs(bits, shape.kept),
        }
    }

    /// Where this option's elements come from, with the bits of the
    /// branches that stay (`still`).
    #[inline(never)]
    fn route(&self, m: &mut Machine, f: &Fields, still: &[bool]) -> Option<Route> {
        self.routed(m, f, still, |shape, bits, live| Route {
            shape: *shape,
            bits,
            live,
        })
    }

    /// What `then` makes of this option's shape, the bits of the branches
    /// that stay (`still`) and the branches left (a bit each), the shape
    /// read where it is remembered: a shape handed back by value from a
    /// call is read again before it is all written, which stalls.
    #[inline(always)]
    fn routed<R>(
        &self,
        m: &mut Machine,
        f: &Fields,
        still: &[bool],
        then: impl FnOnce(&Shape, u64, u8) -> R,
    ) -> Option<R> {
        let (mut guard, made);
        let shape = match &self.shapes {
            Some((reads, shapes)) => {
                guard = shapes.borrow_mut();
                match guard.at(reads, m) {
                    Some(Some(shape)) => &*shape,
                    Some(entry) => &*entry.insert(self.shape(m, f)?),
                    None => {
                        made = self.shape(m, f)?;
                        &made
                    }
                }
            }
            None => {
                made = self.shape(m, f)?;
                &made
            }
        };
        let (mut bits, mut live) = (0, 0);
        for (b, branch) in self.branches.iter().enumerate() {
            let (at, mask) = shape.sent[b];
            if at == 0 {
                continue;
            }
            if still.get(b).copied().unwrap_or(false) {
                bits |= branch.bits(m, self.var, at, f)? & mask;
            } else {
                live |= 1 << b;
            }
        }
        Some(then(shape, bits, live))
    }

    /// Whether this option's elements come from where `shape` says, the
    /// route reading the loop's register as `moves` says: only what reads
    /// it is made again. `false` where a part of it fails.
    fn holds(&self, m: &mut Machine, f: &Fields, shape: &Shape, moves: &Moves) -> bool {
        if moves.ends || shape.outside.is_some() {
            return self.routed(m, f, &[], |now, _, _| now == shape) == Some(true);
        }
        let reads_it = |t: &Tested| t.reads.regs.contains(&moves.reg);
        let kept = match &self.filter {
            Some(filter) if reads_it(filter) => self
                .walked(m)
                .and_then(|walked| filter.held(m, self.var, walked)),
            _ => Some(shape.kept),
        };
        if kept != Some(shape.kept) {
            return false;
        }
        match &self.test {
            Some(test) if shape.kept != 0 && reads_it(test) => {
                test.held(m, self.var, shape.kept) == Some(shape.sent[0].0)
            }
            _ => true,
        }
    }

    /// The values walked, a bit each, where they are places of the
    /// list (as `shape` finds them).
    fn walked(&self, m: &mut Machine) -> Option<u64> {
        let lo = self.lo.get(m)?;
        let hi = self.hi.get(m)?;
        let hi = if self.inclusive {
            hi.checked_add(1)?
        } else {
            hi
        };
        let places = (0..=64).contains(&lo) && (lo..=64).contains(&hi);
        places.then(|| low_bits((hi - lo) as u32) << lo)
    }

    /// Where this option's elements come from, worked out.
    #[inline(never)]
    fn shape(&self, m: &mut Machine, f: &Fields) -> Option<Shape> {
        let lo = self.lo.get(m)?;
        let hi = self.hi.get(m)?;
        let hi = if self.inclusive {
            hi.checked_add(1)?
        } else {
            hi
        };
        let mut shape = Shape::default();
        if lo >= hi {
            return Some(shape);
        }
        shape.steps = usize::try_from(hi - lo).ok()?;
        if lo < 0 || hi > i64::from(f.len.min(64)) {
            shape.outside = Some((lo, hi));
            return Some(shape);
        }
        let range = low_bits((hi - lo) as u32) << lo;
        shape.kept = match &self.filter {
            Some(filter) => filter.held(m, self.var, range)?,
            None => range,
        };
        let sent = match &self.test {
            Some(test) if shape.kept != 0 => test.held(m, self.var, shape.kept)?,
            _ => shape.kept,
        };
        let rest = shape.kept & !sent;
        shape.sent = [(sent, spread(f, sent)), (rest, spread(f, rest))];
        let first = shape.kept.trailing_zeros();
        let run = (shape.kept >> first.min(63)).trailing_ones();
        if shape.kept != 0 && (shape.kept >> first).checked_shr(run).unwrap_or(0) == 0 {
            shape.run = Some((first, run));
        }
        Some(shape)
    }

    /// The elements of `lo..hi`, worked out one after the other as the
    /// step-by-step code works them out: for values no field's place holds.
    #[inline(never)]
    fn one_by_one(&self, m: &mut Machine, made: &mut Made, lo: i64, hi: i64) -> Option<()> {
        for v in lo..hi {
            m.regs[self.var] = v;
            if let Some(filter) = &self.filter {
                if !(filter.f)(m)? {
                    continue;
                }
            }
            let b = match &self.test {
                Some(test) if !(test.f)(m)? => 1,
                _ => 0,
            };
            made.push((self.branches.get(b)?.f)(m)?)?;
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    const HEIGHTS: &str = include_str!("../../../bench/games/chomp-heights.game");
    /// Elements kept where the test picks a branch that does not read the
    /// last generator (both branches of `lift`), and with `reach` past
    /// the list's end, an element that errs in a kept branch; a branch
    /// remembered by element and generator (`cut`, `part`), which errs
    /// where an element is 0 and `t` is 1.
    fn rows(reach: u32) -> String {
        format!(
            r#"
            game Shift(xs: [nat]) {{
              move cut(c in indices(xs), t in 0..xs[c])
                => Shift([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
              move lift(c in 0..len(xs) + {reach}, t in 0..2) if t < c
                => Shift([if j + 1 < c then xs[j + 1] else 0 for j in indices(xs)]);
              move part(c in indices(xs), t in 0..2)
                => Shift([if j <= c then xs[j] else 6 / (xs[j] + 1 - t) % 4 for j in indices(xs)]);
            }}
            "#
        )
    }

    /// Whether the last loop of each rule writes its options by one route
    /// (see `of_last_loop`).
    fn by_one_route(text: &str, start: &str) -> Vec<bool> {
        let (game, _) = compiled(text, start, true);
        let rules = &inside(&*game).code.rules;
        rules
            .iter()
            .map(|rule| {
                super::of_last_loop(rule)
                    .and_then(super::LastLoop::one)
                    .is_some()
            })
            .collect()
    }

    /// `cut` turns down the first values of `t` for odd columns, so that
    /// the route is worked out at a later option than the loop's first;
    /// `zero` turns down every `t` of the columns past the first but
    /// those of 1, where the route errs (a division by zero at `j = c -
    /// 1`). `swap` looks like `cut` with its generators' roles swapped:
    /// its test reads the last generator, so its route is worked out
    /// again at each option, where it is not the last one's.
    const LOOPS: &str = r#"
        game Cut(xs: [nat]) {
          move cut(c in indices(xs), t in 0..xs[c]) if c % 2 == 0 or t > 0
            => Cut([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
          move zero(c in indices(xs), t in 0..2) if c == 0 or xs[c] == 1
            => Cut([if 4 / (j - c + 1) > 0 then xs[j] else min(xs[j], t) for j in indices(xs)]);
          move swap(t in 0..2, c in indices(xs)) if xs[c] > t
            => Cut([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;

    #[test]
    fn a_last_loop_writes_by_one_route_the_options_step_by_step_code_writes() {
        assert_eq!(by_one_route(HEIGHTS, "Chomp([3, 3])"), [true]);
        assert_eq!(by_one_route(GRID, r#"Chomp(["..", ".."])"#), [true]);
        assert_eq!(by_one_route(LOOPS, "Cut([2, 2])"), [true, true, true]);
        // Both give up at a key with a column of 1 past the first.
        assert_eq!(same_options(LOOPS, "Cut([3, 1, 2, 1])"), 1);
        assert_eq!(same_options(LOOPS, "Cut([2, 2, 2])"), 10);
        assert_eq!(same_options(LOOPS, "Cut([3, 3, 2, 2])"), 31);
    }

    /// A last loop whose walk's values are past the list's places (`j`
    /// from 5 on, the element read at `j - 5`): its options are written
    /// by one route all the same, each one's elements worked out one by
    /// one.
    const FAR: &str = r#"
        game Far(xs: [nat]) {
          move cut(c in indices(xs), t in 0..xs[c])
            => Far([if j < c + 5 then xs[j - 5] else min(xs[j - 5], t) for j in 5..5 + len(xs)]);
        }
    "#;

    #[test]
    fn a_last_loop_past_the_lists_places_writes_the_options_step_by_step_code_writes() {
        assert_eq!(by_one_route(FAR, "Far([3, 3, 2])"), [true]);
        // Every never increasing list of 3 numbers, the first up to 3,
        // the last up to 2.
        assert_eq!(same_options(FAR, "Far([3, 3, 2])"), 19);
    }

    /// Last loops whose test reads the loop's register at every value
    /// (`t % 2 == 0` bounds no run of values), and one whose test fails
    /// at a value after the first (a division by zero at `t = 2`): the
    /// options after the first are written at once, each value tested.
    const TESTED: &str = r#"
        game Odd(xs: [nat]) {
          move even(c in indices(xs), t in 0..xs[c]) if t % 2 == 0 or c + t == 1
            => Odd([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;
    const FAILS_LATER: &str = r#"
        game Odd(xs: [nat]) {
          move cut(c in indices(xs), t in 0..xs[c]) if 6 / (2 - t) > 0
            => Odd([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;

    /// Guards remembered by what they read: the first key's column
    /// with the loop's register (made once a key), and one that fails
    /// past `t = c + 1` in every column past the first, remembered as
    /// failing for each `c` (both give up on the first key).
    const GUARDED: &str = r#"
        game Odd(xs: [nat]) {
          move by_key(c in indices(xs), t in 0..xs[c]) if (xs[0] + t) % 3 != 1
            => Odd([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;
    const GUARD_FAILS: &str = r#"
        game Odd(xs: [nat]) {
          move cut(c in indices(xs), t in 0..xs[c]) if c == 0 or 6 / (c + 2 - t) > 0
            => Odd([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;

    #[test]
    fn options_written_at_once_are_tested_value_by_value() {
        assert!(same_options(GUARDED, "Odd([5, 4, 4, 2])") > 20);
        assert!(same_options(GUARD_FAILS, "Odd([3, 3, 3])") > 10);
        assert_eq!(same_options(GUARD_FAILS, "Odd([4, 4, 3])"), 1);
        assert_eq!(by_one_route(TESTED, "Odd([4, 4, 3])"), [true]);
        assert!(same_options(TESTED, "Odd([4, 4, 3])") > 10);
        assert!(same_options(TESTED, "Odd([5, 3, 3, 2])") > 20);
        // Both give up on the first key.
        assert_eq!(same_options(FAILS_LATER, "Odd([3, 3, 3])"), 1);
    }

    /// Elements copied from the list written (`xs[j]`: the key's bits
    /// taken as they are) and look-alikes that must be worked out: an
    /// element of another list of the same shape (`ys[j]`), one at
    /// another place (`xs[j + 1]`, past the end at the last).
    const COPIED: &str = r#"
        game Two(xs: [nat], ys: [nat]) {
          move own(c in indices(xs), t in 0..xs[c])
            => Two([if j < c then xs[j] else min(xs[j], t) for j in indices(xs)], ys);
          move other(c in indices(xs), t in 0..2)
            => Two([if j < c then ys[j] else min(xs[j], t) for j in indices(xs)], ys);
          move next(c in indices(xs), t in 0..2) if c > 0
            => Two([if j < c - 1 then xs[j + 1] else min(xs[j], t) for j in indices(xs)], ys);
        }
    "#;

    /// For each rule, which branches of its list are taken as the key's
    /// bits.
    fn copied(text: &str, start: &str) -> Vec<Vec<bool>> {
        let (game, _) = compiled(text, start, true);
        let rules = &inside(&*game).code.rules;
        let branches = |rule: &super::Rule| {
            let split = super::of_last_loop(rule)?.one()?;
            match &split.pieces[..] {
                [super::Piece::Each(each)] => Some(each.branches.iter().map(|b| b.own).collect()),
                _ => None,
            }
        };
        rules.iter().filter_map(branches).collect()
    }

    #[test]
    fn elements_copied_from_the_list_written_are_the_ones_step_by_step_code_copies() {
        assert_eq!(by_one_route(COPIED, "Two([3, 2, 2], [1, 0, 1])"), [true; 3]);
        let only_own = vec![true, false];
        let want = [only_own.clone(), vec![false; 2], vec![false; 2]];
        assert_eq!(copied(COPIED, "Two([3, 2, 2], [1, 0, 1])"), want);
        assert_eq!(
            copied(HEIGHTS, "Chomp([3, 3])"),
            std::slice::from_ref(&only_own)
        );
        let enumerate =
            include_str!("../../../bench/games/search-rewrites/chomp-heights-enumerate.game");
        assert_eq!(copied(enumerate, "Chomp([3, 3])"), [only_own]);
        assert!(same_options(COPIED, "Two([3, 2, 2], [1, 0, 1])") > 10);
        assert!(same_options(COPIED, "Two([2, 3, 1, 2], [2, 0, 1, 1])") > 20);
    }

    /// Branches of an element and the loop's register that hold the
    /// element within bounds however they are spelled (`min` either way
    /// round, an `if`, `max`), and look-alikes that do not (`min(xs[j] +
    /// 1, t)`, `min(xs[j] / 2, t)`), or that read another list (`ys`,
    /// which may be shorter than `xs`), or numbers that may be negative.
    const CLAMPS: &str = r#"
        game Clip(xs: [nat], ys: [nat]) {
          move low(c in indices(xs), t in 0..xs[c])
            => Clip([if j < c then xs[j] else min(t, xs[j]) for j in indices(xs)], ys);
          move spelled(c in indices(xs), t in 0..xs[c]) if c > 0
            => Clip([if j < c then xs[j] else (if xs[j] > t then t else xs[j]) for j in indices(xs)], ys);
          move raise(c in indices(xs), t in 0..3) if xs[c] < 2
            => Clip([if j < c then xs[j] else max(xs[j], t) for j in indices(xs)], ys);
          move near(c in indices(xs), t in 0..xs[c])
            => Clip([if j < c then xs[j] else min(xs[j] + 1, t) for j in indices(xs)], ys);
          move half(c in indices(xs), t in 1..xs[c])
            => Clip([if j < c then xs[j] else min(xs[j] / 2, t) for j in indices(xs)], ys);
          move other(c in indices(xs), t in 0..2) if c > 0
            => Clip([if j < c then xs[j] else min(ys[j], t) for j in indices(xs)], ys);
        }
    "#;
    const SIGNED_CLAMPS: &str = r#"
        game Sink(xs: [int]) {
          move cut(c in indices(xs), t in 0..3) if xs[c] > -3
            => Sink([if j < c then xs[j] else max(min(xs[j], 1 - t), -3) for j in indices(xs)]);
        }
    "#;

    /// For each rule's branches, the values of the loop's register at
    /// which it was found to hold its element within bounds, after the
    /// options of every key reachable from `start`.
    fn clamps_found(text: &str, start: &str) -> Vec<Vec<u64>> {
        let (mut game, key) = compiled(text, start, true);
        let (mut seen, mut todo) = (std::collections::HashSet::from([key]), vec![key]);
        while let Some(key) = todo.pop() {
            let mut out = Vec::new();
            if game.options(key, &mut out).is_ok() {
                for k in crate::solve::dense::written_out(&out) {
                    if seen.insert(k) {
                        todo.push(k);
                    }
                }
            }
        }
        let rules = &inside(&*game).code.rules;
        let branches = |rule: &super::Rule| {
            let split = super::of_last_loop(rule)?.one()?;
            match &split.pieces[..] {
                [super::Piece::Each(each)] => Some(
                    each.branches
                        .iter()
                        .map(|b| b.clamped.as_ref().map_or(0, |c| c.found()))
                        .collect(),
                ),
                _ => None,
            }
        };
        rules.iter().filter_map(branches).collect()
    }

    #[test]
    fn elements_held_within_bounds_are_the_ones_step_by_step_code_writes() {
        let start = "Clip([5, 4, 4, 2, 1], [3, 1, 0, 2, 1])";
        assert!(same_options(CLAMPS, start) > 100);
        assert!(same_options(CLAMPS, "Clip([3, 3, 1], [2, 2, 2])") > 10);
        // `ys` shorter than `xs`: both give up where `other` reads past it.
        assert!(same_options(CLAMPS, "Clip([3, 2, 2], [1, 1])") >= 1);
        let found = clamps_found(CLAMPS, start);
        let low = 0b1_1111; // t from 0 to 4
        assert_eq!(found[0], [0, low]);
        // `c > 0`: t up to 3.
        assert_eq!(found[1], [0, 0b1111]);
        assert_eq!(found[2], [0, 0b111]);
        // `min(xs[j] + 1, t)` is 0 at t = 0 and 1 at t = 1, both of them
        // clamps (one value whatever the element), and none after; nor is
        // `min(xs[j] / 2, t)` at any t from 1.
        assert_eq!(found[3], [0, 0b11]);
        assert_eq!(found[4], [0, 0]);
        // `ys`'s fields narrower than `xs`'s: left to the element-by-element
        // code; as wide, held within bounds.
        assert_eq!(found[5], [0, 0]);
        let same_width = "Clip([3, 3, 1], [2, 3, 1])";
        assert!(same_options(CLAMPS, same_width) > 10);
        assert_eq!(clamps_found(CLAMPS, same_width)[5], [0, 0b11]);
        assert!(same_options(SIGNED_CLAMPS, "Sink([2, -1, 1, 0])") > 10);
        assert_eq!(
            clamps_found(SIGNED_CLAMPS, "Sink([2, -1, 1, 0])"),
            [[0, 0b111]]
        );
        // Chomp's own rule, and the same rule's rewrites.
        assert_eq!(clamps_found(HEIGHTS, "Chomp([4, 4, 4])"), [[0, 0b1111]]);
        let enumerate =
            include_str!("../../../bench/games/search-rewrites/chomp-heights-enumerate.game");
        assert_eq!(clamps_found(enumerate, "Chomp([4, 4, 4])"), [[0, 0b1111]]);
    }

    #[test]
    fn split_comprehensions_give_the_options_step_by_step_code_gives() {
        // Every never increasing list of 4 heights up to 3 but the empty one.
        assert_eq!(same_options(HEIGHTS, "Chomp([3, 3, 3, 3])"), 34);
        assert!(same_options(&rows(1), "Shift([2, 3, 1])") > 10);
        // xs[3]: both give up on the first key.
        assert_eq!(same_options(&rows(2), "Shift([2, 3, 1])"), 1);
    }

    /// Tests and branches that read more than the element's place and the
    /// key: a test of the key itself (`by`, whose elements go each way by
    /// the key, not by `c` alone), a branch left to each option that reads
    /// an outer generator too (`by`) or two (`two`), a kept branch that
    /// reads one (`lift`).
    const MIXED: &str = r#"
        game Mix(xs: [nat]) {
          move by(c in indices(xs), t in 0..xs[c])
            => Mix([if xs[j] < c then xs[j] else min(xs[j], t + c % 2) for j in indices(xs)]);
          move lift(c in indices(xs), t in 0..xs[c])
            => Mix([if j < c then max(xs[j] - c, 0) else min(xs[j], t) for j in indices(xs)]);
          move two(c in indices(xs), d in 0..2, t in 0..xs[c])
            => Mix([if j < c then xs[j] else min(xs[j], t + d) for j in indices(xs)]);
        }
    "#;

    /// A test that fails for some `c` alone (a division by zero at
    /// `j = c - 1`), remembered as failing.
    const FAILING: &str = r#"
        game Fail(xs: [nat]) {
          move cut(c in indices(xs), t in 0..xs[c]) if c == 0 or xs[c] == 1
            => Fail([if j < c and 4 / (j - c + 1) > 0 then xs[j] else min(xs[j], t) for j in indices(xs)]);
        }
    "#;

    #[test]
    fn what_each_part_reads_says_how_long_it_is_remembered() {
        assert!(same_options(MIXED, "Mix([3, 3, 2, 3])") > 10);
        assert!(same_options(MIXED, "Mix([2, 4, 1, 3, 5])") > 30);
        // The first column cut to 1 or 2 everywhere; both then fail at a
        // column of 1 past the first.
        assert_eq!(same_options(FAILING, "Fail([3, 2, 3, 2])"), 4);
    }

    const GRID: &str = include_str!("../../../bench/games/chomp-grid.game");

    /// `eaten(g[i], c)` reads row `i` and `c` alone: its rows are kept
    /// from key to key where the keys share them. Every key is compared,
    /// met in an order where the next key shares some rows and not others.
    #[test]
    fn rows_kept_from_key_to_key_are_the_rows_step_by_step_code_writes() {
        // Grids of 3 rows of up to 4 squares, never longer than the row
        // above, but the empty one.
        assert_eq!(same_options(GRID, r#"Chomp(["....", "....", "...."])"#), 34);
        // Grids of 4 rows under a staircase: rows of at most 5, 3, 2 and
        // 1 squares.
        assert_eq!(
            same_options(GRID, r#"Chomp([".....", "...##", "..###", ".####"])"#),
            55
        );
    }

    /// The bite's row as the last generator: the test reads it, and the
    /// branch that eats reads two registers (the width and the column).
    const COLUMNS: &str =
        include_str!("../../../bench/games/search-rewrites/chomp-grid-columns.game");

    #[test]
    fn a_test_of_the_last_generator_and_a_branch_of_two_registers_are_remembered_alike() {
        // Every grid of 3 rows of up to 4 squares, each row never longer
        // than the one above, but the empty one.
        let n = same_options(COLUMNS, r#"Chomp(["....", "....", "...."])"#);
        assert_eq!(n, 34);
    }

    /// The bite as a pair from `cells`, a generator that sets no one
    /// register: every part stays while the registers it reads do.
    const CELLS: &str = include_str!("../../../bench/games/search-rewrites/chomp-grid-cells.game");

    #[test]
    fn a_last_generator_of_pairs_leaves_each_part_to_what_it_reads() {
        assert_eq!(
            same_options(CELLS, r#"Chomp(["....", "....", "...."])"#),
            34
        );
    }

    /// Integers are kept with a bias (a field holds `v - bias`): the kept
    /// elements are written as the field stores them.
    const SIGNED: &str = r#"
        game Sink(xs: [int]) {
          move cut(c in indices(xs), t in 0..2) if xs[c] > -2
            => Sink([if j < c then xs[j] else xs[j] - 1 - t for j in indices(xs)]);
        }
    "#;

    #[test]
    fn kept_integers_are_written_as_their_fields_store_them() {
        assert!(same_options(SIGNED, "Sink([1, -1, 2])") > 20);
    }

    /// Chomp by row lengths and by heights joined from pieces: the list
    /// the filter shortens (the rows cut to nothing dropped), the same
    /// with slices, and two comprehensions or a slice and a comprehension
    /// joined.
    const FORMS: [&str; 4] = [
        include_str!("../../../bench/games/search-rewrites/chomp-rows.game"),
        include_str!("../../../bench/games/search-rewrites/chomp-rows-kept.game"),
        include_str!("../../../bench/games/search-rewrites/chomp-heights-joined.game"),
        include_str!("../../../bench/games/search-rewrites/chomp-heights-slice.game"),
    ];

    #[test]
    fn lists_filtered_or_joined_give_the_options_step_by_step_code_gives() {
        for form in FORMS {
            // Every never increasing list of up to 3 lengths up to 4 but
            // the empty one, as rows; as heights, 4 of up to 3.
            assert_eq!(same_options(form, "Chomp([4, 4, 4])"), 34);
            assert_eq!(same_options(form, "Chomp([3, 3, 3, 3])"), 34);
        }
    }

    /// Routes that read the loop's register: a filter that changes once
    /// along it (`eat`, Chomp by rows), one that changes and comes back
    /// (`odd`, every third value keeps the rows), one that fails at a
    /// value the guard turns down (`far`, read there before the guard is
    /// made), a test that changes at every value (`lift`) and ends that
    /// read it (`cut`, the list cut short or left whole), and Chomp's rows
    /// with the loops the other way round (`swapped`, whose route changes
    /// at every value, so that a loop stops working routes out).
    const MOVING: &str = r#"
        game Rows(rows: [nat]) {
          move swapped(j in 0..6, i in indices(rows)) if j < rows[i] and i + j > 0
            => Rows([if k >= i then min(rows[k], j) else rows[k] for k in indices(rows) if k < i or j > 0]);
          move eat(i in indices(rows), j in 0..rows[i]) if i > 0 or j > 0
            => Rows([if k >= i then min(rows[k], j) else rows[k] for k in indices(rows) if k < i or j > 0]);
          move odd(i in indices(rows), j in 1..rows[i] + 1)
            => Rows([if k >= i then min(rows[k], j - 1) else rows[k] for k in indices(rows) if k < i or j % 3 == 1]);
          move far(i in indices(rows), j in 0..4) if j != 2 and j < rows[i] and i + j > 0
            => Rows([if k >= i then min(rows[k], j) else rows[k] for k in indices(rows) if k < i or 6 / (j - 2) > 0]);
          move lift(i in indices(rows), j in 0..rows[i])
            => Rows([if k == i + j % 2 then min(rows[k], j) else rows[k] for k in indices(rows)]);
          move cut(i in 1..len(rows), j in 0..2) if rows[i] > 0
            => Rows([min(rows[k], rows[i] - 1) for k in 0..i + j * (len(rows) - i)]);
        }
    "#;

    /// A list chosen at each value by an `if` on the loop's register:
    /// that changes at every value (`cut`), reads the key too (`key`), or
    /// fails at a value the guard turns down (`far`, made there before
    /// the guard is).
    const CHOSEN: &str = r#"
        game Pick(h: [nat]) {
          move cut(c in indices(h), t in 0..h[c])
            => Pick(if t % 2 == 0 then [if j < c then h[j] else min(h[j], t) for j in indices(h)]
                    else [if j == c then t else h[j] for j in indices(h)]);
          move key(c in indices(h), t in 0..h[c])
            => Pick(if h[c] > t + 1 then [if j == c then t else h[j] for j in indices(h)]
                    else [if j < c then h[j] else min(h[j], t) for j in indices(h)]);
          move far(c in indices(h), t in 0..4) if t != 2 and t < h[c]
            => Pick(if 6 / (t - 2) > 0 then [if j == c then t else h[j] for j in indices(h)]
                    else [if j < c then h[j] else min(h[j], t) for j in indices(h)]);
        }
    "#;

    #[test]
    fn lists_chosen_at_each_value_give_the_options_step_by_step_code_gives() {
        let chosen = |text, start| {
            let (game, _) = compiled(text, start, true);
            let rules = &inside(&*game).code.rules;
            let chosen =
                |rule| matches!(super::of_last_loop(rule), Some(super::LastLoop::Chosen(..)));
            rules.iter().map(chosen).collect::<Vec<_>>()
        };
        assert_eq!(chosen(CHOSEN, "Pick([2, 2])"), [true; 3]);
        for start in [
            "Pick([4, 4, 4])",
            "Pick([5, 3, 3, 1])",
            "Pick([2, 6, 1, 5])",
        ] {
            assert!(same_options(CHOSEN, start) > 30, "{start}");
        }
        // Chomp's rows kept, cut, or dropped where `j` is even.
        let rows = r#"
            game Rows(rows: [nat]) {
              move eat(i in indices(rows), j in 0..rows[i])
                => Rows(if j % 2 == 0 then slice(rows, 0, i) + [min(r, j) for r in slice(rows, i, len(rows))]
                        else slice(rows, 0, i));
            }
        "#;
        for start in [
            "Rows([6, 6, 5, 3])",
            "Rows([5, 3, 3, 1])",
            "Rows([3, 6, 2, 5])",
        ] {
            assert!(same_options(rows, start) > 30, "{start}");
        }
    }

    #[test]
    fn routes_that_read_the_loops_register_give_the_options_step_by_step_code_gives() {
        for start in [
            "Rows([4, 4, 4])",
            "Rows([5, 3, 3, 1])",
            "Rows([2, 6, 1, 5])",
        ] {
            assert!(same_options(MOVING, start) > 30, "{start}");
        }
    }

    /// Filters that keep elements with gaps between them (`drop`: every
    /// place but one) or read the key (`sift`: the elements other than
    /// `t`), so that the elements kept move to other places.
    const GAPS: &str = r#"
        game Drop(xs: [nat]) {
          move drop(i in indices(xs), t in 0..2) if len(xs) > 1
            => Drop([if k > i then min(xs[k], t + 1) else xs[k] for k in indices(xs) if k != i]);
          move sift(t in 1..3) if t in xs
            => Drop([xs[k] for k in indices(xs) if xs[k] != t]);
        }
    "#;

    /// A filter that fails at `k = i - 1` (a division by zero): where it
    /// is asked, both ways give up.
    const FILTER_FAILS: &str = r#"
        game Fail(xs: [nat]) {
          move cut(i in indices(xs), j in 0..xs[i]) if i > 0 or j > 0
            => Fail([xs[k] for k in indices(xs) if 4 / (k - i + 1) > j]);
        }
    "#;

    /// Pieces of one element, ranges with an inclusive end, and a walk
    /// over values past the list's places (`far`), worked out one by one.
    const PIECES: &str = r#"
        game Join(xs: [nat]) {
          move shift(c in indices(xs), t in 0..xs[c])
            => Join([xs[j] for j in 0..=c - 1] + [t] + [min(xs[j], t) for j in c + 1..len(xs)]);
          move far(c in 1..len(xs), t in 0..2)
            => Join([xs[j - 5] for j in 5..5 + c] + [min(xs[j], t) for j in c..len(xs)]);
        }
    "#;

    #[test]
    fn gaps_failures_and_pieces_of_every_kind_give_the_options_step_by_step_code_gives() {
        assert!(same_options(GAPS, "Drop([2, 1, 2, 1])") > 10);
        assert!(same_options(GAPS, "Drop([1, 2, 2, 0, 1])") > 20);
        // The filter fails at row 0 for a bite in row 1: both give up on
        // the first key.
        assert_eq!(same_options(FILTER_FAILS, "Fail([3, 2, 2])"), 1);
        assert!(same_options(PIECES, "Join([2, 3, 1, 2])") > 10);
    }
}
