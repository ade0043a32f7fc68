//! Parameters whose type nests, packed as a list of numbers: a tuple that
//! holds a boolean, a list of tuples, a list of lists of numbers (or of
//! booleans). Each is a run of records of one length (`stride`), that
//! length fixed by the starting position as a grid's rows are: a tuple is
//! one record, a list of tuples a record a tuple, a list of lists a record
//! a row. A boolean is held as 0 or 1.
//!
//! The game's rules are rewritten to read and write that flat list, so
//! that every construct the compiled search runs on a list of numbers runs
//! on them too: `qs[i][j]` reads element `i * stride + j`, `len(qs)` is
//! the number of records, `indices(rs[r])` the range of a record,
//! `set_at(qs, i, (a, b))` writes the record's elements one by one, and
//! `(a, b) in qs` walks the records by their places. A record index out of
//! range becomes a flat index out of range, so the compiled code stops
//! where the interpreter would report it, and the interpreter answers. A
//! nested value used any other way (passed to a helper, a row made
//! longer, nesting deeper) leaves the game to the interpreter, named.

use super::compile::children_mut;
use crate::eval::builtins::Builtin;
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{CompIr, GameKind, GenIr, Ir, IrKind, Program};
use crate::eval::value::Value;
use crate::source::Span;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;
use std::sync::Arc;

/// How a nested parameter is laid out as a flat list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nest {
    /// Records in the list; `None` for a tuple, itself one record.
    pub records: Option<u32>,
    /// For each element of a record, whether it holds a boolean.
    pub bools: Vec<bool>,
    /// Whether a record is a tuple (else a list).
    pub tuple: bool,
}

/// The elements a record may hold.
fn flat_element(t: &Type) -> bool {
    matches!(t, Type::Nat | Type::Int | Type::Bool)
}

/// Whether a parameter of this type is packed by nesting.
pub fn nests(ty: &Type) -> bool {
    match ty {
        Type::Tuple(ts) => ts.iter().all(flat_element) && ts.contains(&Type::Bool),
        Type::List(t) => match &**t {
            Type::Tuple(ts) => ts.iter().all(flat_element),
            Type::List(t) => flat_element(t),
            _ => false,
        },
        _ => false,
    }
}

/// The type of the flat list a nested type is held as.
fn flat_type(ty: &Type) -> Type {
    let signed = match ty {
        Type::Tuple(ts) => ts.contains(&Type::Int),
        Type::List(t) => match &**t {
            Type::Tuple(ts) => ts.contains(&Type::Int),
            t => *t == Type::List(Box::new(Type::Int)),
        },
        _ => false,
    };
    Type::List(Box::new(if signed { Type::Int } else { Type::Nat }))
}

impl Nest {
    /// The layout of `arg`, a value of `ty` (which `nests`); `None` when
    /// its records differ in length or it holds something else.
    fn of(ty: &Type, arg: &Value) -> Option<Nest> {
        let (records, tuple, kinds): (_, _, Vec<Type>) = match (ty, arg) {
            (Type::Tuple(ts), Value::Tuple(_)) => (None, true, ts.clone()),
            (Type::List(t), Value::List(xs)) => {
                let n = u32::try_from(xs.len()).ok()?;
                match &**t {
                    Type::Tuple(ts) => (Some(n), true, ts.clone()),
                    Type::List(t) => {
                        let len = match xs.first() {
                            Some(Value::List(row)) => row.len(),
                            _ => return None,
                        };
                        (Some(n), false, vec![(**t).clone(); len])
                    }
                    _ => return None,
                }
            }
            _ => return None,
        };
        let nest = Nest {
            records,
            bools: kinds.iter().map(|t| *t == Type::Bool).collect(),
            tuple,
        };
        // A record of no element has no place to read a row's bounds at.
        (!nest.bools.is_empty()).then_some(nest)
    }

    /// Whether element `k` of a record is a boolean, where that is known:
    /// `k` a number, or every element of one kind.
    fn boolean_at(&self, k: &Ir) -> Option<bool> {
        let known = match k.kind {
            IrKind::Lit(Value::Int(j)) => usize::try_from(j).ok(),
            _ => None,
        };
        match known.and_then(|j| self.bools.get(j)) {
            Some(&b) => Some(b),
            None => {
                let first = *self.bools.first()?;
                self.bools.iter().all(|&b| b == first).then_some(first)
            }
        }
    }

    pub fn stride(&self) -> u32 {
        self.bools.len() as u32
    }

    /// The records of a value of this layout, each checked to be of the
    /// record's length.
    fn records<'v>(&self, arg: &'v Value) -> Option<Vec<&'v [Value]>> {
        let records: Vec<&[Value]> = match (self.records, arg) {
            (None, Value::Tuple(xs)) => vec![xs],
            (Some(n), Value::List(xs)) if xs.len() == n as usize => xs
                .iter()
                .map(|x| match x {
                    Value::Tuple(r) | Value::List(r) => Some(&r[..]),
                    _ => None,
                })
                .collect::<Option<_>>()?,
            _ => return None,
        };
        records
            .iter()
            .all(|r| r.len() == self.bools.len())
            .then_some(records)
    }

    /// The flat list of numbers a value of this layout is held as.
    pub fn flatten(&self, arg: &Value) -> Option<Value> {
        let mut flat = Vec::new();
        for record in self.records(arg)? {
            for (x, &b) in record.iter().zip(&self.bools) {
                flat.push(match (x, b) {
                    (Value::Int(n), false) => Value::Int(*n),
                    (Value::Bool(t), true) => Value::Int(i64::from(*t)),
                    _ => return None,
                });
            }
        }
        Some(Value::list(flat))
    }

    /// The value whose flat list is `numbers`.
    pub fn value(&self, numbers: &[i64]) -> Value {
        let record = |chunk: &[i64]| {
            let items = chunk.iter().zip(&self.bools).map(|(&n, &b)| match b {
                true => Value::Bool(n == 1),
                false => Value::Int(n),
            });
            match self.tuple {
                true => Value::Tuple(items.collect()),
                false => Value::list(items.collect()),
            }
        };
        let mut records = numbers.chunks(self.bools.len()).map(record);
        match self.records {
            None => records.next().unwrap_or(Value::Tuple(Arc::from([]))),
            Some(_) => Value::list(records.collect()),
        }
    }
}

/// A program whose nested parameters are flat lists, and how each
/// parameter was flattened.
pub type Flattened = (Arc<Program>, Vec<Option<Nest>>);

/// Game `g`'s program with its nested parameters made flat lists for a
/// position with arguments `args`, and how each was flattened (`None` for
/// a parameter held as it is); `Ok(None)` when an argument's records
/// differ in length. A program with no nested parameter is returned as it
/// is.
pub fn flattened(program: &Arc<Program>, g: u32, args: &[Value]) -> Compiled<Option<Flattened>> {
    let Some(game) = program.games.get(g as usize) else {
        return Ok(Some((program.clone(), Vec::new())));
    };
    if !game.params.iter().any(|p| nests(&p.ty)) {
        return Ok(Some((program.clone(), vec![None; game.params.len()])));
    }
    let mut nests_of = Vec::new();
    for (param, arg) in game.params.iter().zip(args) {
        nests_of.push(match nests(&param.ty) {
            true => match Nest::of(&param.ty, arg) {
                Some(nest) => Some(nest),
                None => return Ok(None),
            },
            false => None,
        });
    }
    let mut game = game.clone();
    let mut flat = Flat {
        nests: &nests_of,
        aliases: vec![None; game.frame_size.max(game.params.len())],
        g,
    };
    if let GameKind::Rules { moves, lose, .. } = &mut game.kind {
        if let Some(lose) = lose {
            *lose = flat.scalar(lose)?;
        }
        for m in moves {
            flat.aliases.fill(None);
            for generator in &mut m.generators {
                flat.generator(generator)?;
            }
            if let Some(guard) = &mut m.guard {
                *guard = flat.scalar(guard)?;
            }
            m.result = flat.scalar(&m.result)?;
        }
    }
    if let Some(symmetry) = &mut game.symmetry {
        flat.aliases.fill(None);
        for image in &mut symmetry.images {
            *image = flat.scalar(image)?;
        }
    }
    for (param, nest) in game.params.iter_mut().zip(&nests_of) {
        if nest.is_some() {
            param.ty = flat_type(&param.ty);
        }
    }
    let mut program = Program::clone(program);
    program.games[g as usize] = game;
    Ok(Some((Arc::new(program), nests_of)))
}

/// What a nested value is used for that the rewrite does not follow.
const WHOLE: &str = "a parameter whose type nests (a list of tuples or of lists, or a tuple \
     holding a boolean) used whole: the compiled search reads its elements (`qs[i][0]`, `(a, b) \
     in qs`, `len`, `indices`, `sum` and `==` of an element) and writes them (`set_at` of an \
     element or of one number in it, a tuple or list written out of the element's length, a \
     comprehension over the elements without a guard); other uses, and rows made longer or \
     shorter, are left to the interpreter";

/// One record: the nested parameter it is in, and its place there
/// (`None` for a tuple parameter, itself the record).
struct Record {
    param: u32,
    at: Option<Ir>,
}

/// What a slot stands for, where the rewrite puts something in its place.
#[derive(Clone)]
enum Alias {
    /// A record of the nested list parameter, at this place: a generator
    /// that walks the records holds the place (`(a, b) in qs` is
    /// `qs[slot]`), a new list made record by record the place written out.
    Record(u32, Ir),
    /// A place written out, in a new list made record by record.
    Place(i64),
}

/// The rewrite of one game's rules.
#[derive(Clone)]
struct Flat<'a> {
    nests: &'a [Option<Nest>],
    aliases: Vec<Option<Alias>>,
    g: u32,
}

fn ir(kind: IrKind, span: Span) -> Ir {
    Ir { kind, span }
}

fn lit(n: i64, span: Span) -> Ir {
    ir(IrKind::Lit(Value::Int(n)), span)
}

fn binary(op: BinaryOp, a: Ir, b: Ir) -> Ir {
    let span = a.span;
    ir(IrKind::Binary(op, Box::new(a), Box::new(b)), span)
}

/// `if test then a else b`.
fn choose(test: Ir, a: Ir, b: Ir) -> Ir {
    let span = a.span;
    ir(IrKind::If(Box::new(test), Box::new(a), Box::new(b)), span)
}

/// `0 <= x and x < n`.
fn between(x: &Ir, n: i64) -> Ir {
    let span = x.span;
    binary(
        BinaryOp::And,
        binary(BinaryOp::Le, lit(0, span), x.clone()),
        binary(BinaryOp::Lt, x.clone(), lit(n, span)),
    )
}

fn unsupported<T>(span: Span) -> Compiled<T> {
    Err(Unsupported::new(WHOLE, span))
}

impl Flat<'_> {
    fn nest(&self, param: u32) -> Option<&Nest> {
        self.nests.get(param as usize)?.as_ref()
    }

    /// A nested list parameter `ir` names, with its layout.
    fn list_param(&self, ir: &Ir) -> Option<(u32, &Nest)> {
        match ir.kind {
            IrKind::Local(p) => self.nest(p).filter(|n| n.records.is_some()).map(|n| (p, n)),
            _ => None,
        }
    }

    /// The record `ir` names, if it names one.
    fn record(&self, ir: &Ir) -> Compiled<Option<Record>> {
        Ok(match &ir.kind {
            IrKind::Local(s) => match (self.nest(*s), self.aliases.get(*s as usize)) {
                (Some(n), _) if n.records.is_none() => Some(Record {
                    param: *s,
                    at: None,
                }),
                (_, Some(Some(Alias::Record(p, at)))) => Some(Record {
                    param: *p,
                    at: Some(at.clone()),
                }),
                _ => None,
            },
            IrKind::Index(list, at) => match self.list_param(list) {
                Some((param, _)) => Some(Record {
                    param,
                    at: Some(self.scalar(at)?),
                }),
                None => None,
            },
            _ => None,
        })
    }

    /// The flat list of a record's parameter.
    fn flat_list(&self, record: &Record, span: Span) -> Ir {
        ir(IrKind::Local(record.param), span)
    }

    /// `list[-1]`: read where the interpreter reports an index out of
    /// range, so that the compiled code stops there too.
    fn out_of_range(&self, record: &Record, span: Span) -> Ir {
        let list = self.flat_list(record, span);
        ir(IrKind::Index(Box::new(list), Box::new(lit(-1, span))), span)
    }

    /// `value` where the record's place is within its list, else a read
    /// out of range (the interpreter's error where it reads the record);
    /// `boolean` when `value` is a truth.
    fn in_bounds(&self, record: &Record, value: Ir, boolean: bool) -> Ir {
        let span = value.span;
        let Some(at) = &record.at else {
            return value;
        };
        let n = self.nest(record.param).and_then(|n| n.records).unwrap_or(0);
        let fail = self.failed(record, span, boolean);
        choose(between(at, i64::from(n)), value, fail)
    }

    /// A read out of range, as a number or (`boolean`) a truth.
    fn failed(&self, record: &Record, span: Span, boolean: bool) -> Ir {
        let read = self.out_of_range(record, span);
        match boolean {
            true => binary(BinaryOp::Eq, read, lit(1, span)),
            false => read,
        }
    }

    /// The place in the flat list of element `k` (rewritten) of a record:
    /// -1, out of range, where `k` is past the record's end.
    fn place(&self, record: &Record, k: &Ir) -> Compiled<Ir> {
        let span = k.span;
        let Some(nest) = self.nest(record.param) else {
            return unsupported(span);
        };
        let stride = i64::from(nest.stride());
        let known = match k.kind {
            IrKind::Lit(Value::Int(j)) => Some(j),
            _ => None,
        };
        let within = known.is_some_and(|j| (0..stride).contains(&j));
        let offset = match &record.at {
            None => k.clone(),
            Some(at) => binary(
                BinaryOp::Add,
                binary(BinaryOp::Mul, at.clone(), lit(stride, span)),
                k.clone(),
            ),
        };
        if within {
            return Ok(offset);
        }
        // An element past the record's end is out of range even where the
        // flat list goes on.
        Ok(choose(between(k, stride), offset, lit(-1, span)))
    }

    /// Element `k` (rewritten) of a record, as the rules read it: a
    /// boolean element tested against 1.
    fn element(&self, record: &Record, k: &Ir) -> Compiled<Ir> {
        let span = k.span;
        let place = self.place(record, k)?;
        let read = ir(
            IrKind::Index(Box::new(self.flat_list(record, span)), Box::new(place)),
            span,
        );
        let Some(boolean) = self.nest(record.param).and_then(|n| n.boolean_at(k)) else {
            return unsupported(span);
        };
        Ok(match boolean {
            true => binary(BinaryOp::Eq, read, lit(1, span)),
            false => read,
        })
    }

    /// Element `k` of an expression whose value is a record of the layout
    /// of parameter `param`: a record read, a tuple or list written out, a
    /// `set_at` of one, or an `if` between them.
    fn element_of(&self, value: &Ir, param: u32, k: usize) -> Compiled<Ir> {
        let span = value.span;
        let Some(nest) = self.nest(param) else {
            return unsupported(span);
        };
        if let Some(record) = self.record(value)? {
            if record.param != param {
                return unsupported(span);
            }
            return self.element(&record, &lit(k as i64, span));
        }
        match &value.kind {
            IrKind::Tuple(items) | IrKind::List(items) if items.len() == nest.bools.len() => {
                let item = self.scalar(&items[k])?;
                match item.kind {
                    IrKind::List(_) | IrKind::Tuple(_) => unsupported(span),
                    _ => Ok(item),
                }
            }
            IrKind::Builtin(Builtin::SetAt, a) if a.len() == 3 => {
                let row = &a[0];
                let Some(record) = self.record(row)? else {
                    return unsupported(span);
                };
                let at = self.scalar(&a[1])?;
                let new = self.scalar(&a[2])?;
                let old = self.element_of(row, param, k)?;
                let boolean = nest.bools.get(k) == Some(&true);
                let here = binary(BinaryOp::Eq, at.clone(), lit(k as i64, span));
                // The place is checked within the record whatever `k` is,
                // and the record within its list whether or not it is read.
                let fail = self.failed(&record, span, boolean);
                let chosen = choose(here, new, old);
                let checked = choose(between(&at, i64::from(nest.stride())), chosen, fail);
                Ok(self.in_bounds(&record, checked, boolean))
            }
            IrKind::If(c, a, b) => Ok(choose(
                self.scalar(c)?,
                self.element_of(a, param, k)?,
                self.element_of(b, param, k)?,
            )),
            _ => unsupported(span),
        }
    }

    /// Element `k` of a record of parameter `param`, as the flat list
    /// holds it: a boolean as 1 or 0.
    fn stored(&self, value: &Ir, param: u32, k: usize) -> Compiled<Ir> {
        let element = self.element_of(value, param, k)?;
        let boolean = self
            .nest(param)
            .is_some_and(|n| n.bools.get(k) == Some(&true));
        Ok(stored_as(element, boolean))
    }

    /// The new flat list of nested parameter `param` that a position's
    /// argument makes.
    fn argument(&self, value: &Ir, param: u32) -> Compiled<Ir> {
        let span = value.span;
        let Some(nest) = self.nest(param) else {
            return unsupported(span);
        };
        let stride = nest.bools.len();
        match &value.kind {
            IrKind::Local(p) if *p == param => Ok(value.clone()),
            // A tuple parameter written out.
            IrKind::Tuple(_) if nest.records.is_none() => {
                let items = (0..stride).map(|k| self.stored(value, param, k));
                Ok(ir(IrKind::List(items.collect::<Compiled<_>>()?), span))
            }
            IrKind::List(records) if Some(records.len() as u32) == nest.records => {
                let mut items = Vec::new();
                for record in records {
                    for k in 0..stride {
                        items.push(self.stored(record, param, k)?);
                    }
                }
                Ok(ir(IrKind::List(items), span))
            }
            IrKind::Comprehension { element, clauses } => {
                self.record_by_record(element, clauses, param)
            }
            IrKind::Builtin(Builtin::SetAt, a) if a.len() == 3 => {
                if matches!(a[1].kind, IrKind::List(_) | IrKind::Tuple(_)) {
                    return unsupported(span);
                }
                let target = self.argument(&a[0], param)?;
                let at = self.scalar(&a[1])?;
                let set = |list: Ir, place: Ir, v: Ir| {
                    ir(IrKind::Builtin(Builtin::SetAt, vec![list, place, v]), span)
                };
                // A tuple's element: a number (or truth) of its own.
                if nest.records.is_none() {
                    let record = Record { param, at: None };
                    let new = self.scalar(&a[2])?;
                    let Some(boolean) = nest.boolean_at(&at) else {
                        return unsupported(span);
                    };
                    let new = stored_as(new, boolean);
                    return Ok(set(target, self.place(&record, &at)?, new));
                }
                let record = Record {
                    param,
                    at: Some(at.clone()),
                };
                // One element of the record changed, on the parameter
                // itself: one element of the flat list.
                if let (IrKind::Local(_), IrKind::Builtin(Builtin::SetAt, inner)) =
                    (&a[0].kind, &a[2].kind)
                {
                    if let Some(row) = self.record(&inner[0])? {
                        if row.param == param && row.at.as_ref().is_some_and(|r| same(r, &at)) {
                            let k = self.scalar(&inner[1])?;
                            if let Some(boolean) = nest.boolean_at(&k) {
                                let new = stored_as(self.scalar(&inner[2])?, boolean);
                                return Ok(set(target, self.place(&record, &k)?, new));
                            }
                        }
                    }
                }
                let mut list = target;
                for k in 0..stride {
                    let new = self.stored(&a[2], param, k)?;
                    let place = self.place(&record, &lit(k as i64, span))?;
                    list = set(list, place, new);
                }
                Ok(list)
            }
            IrKind::If(c, a, b) => Ok(choose(
                self.scalar(c)?,
                self.argument(a, param)?,
                self.argument(b, param)?,
            )),
            _ => unsupported(span),
        }
    }

    /// `[element for q in qs]` or `[element for i in indices(qs)]` as the
    /// new flat list of `qs`: the element worked out for each record, its
    /// place written out. A guard, which would change the list's length,
    /// is left to the interpreter.
    fn record_by_record(&self, element: &Ir, clauses: &[CompIr], param: u32) -> Compiled<Ir> {
        let span = element.span;
        let ([clause], Some(nest)) = (clauses, self.nest(param)) else {
            return unsupported(span);
        };
        let source = &clause.generator.source;
        let walks_records = self.list_param(source).is_some_and(|(p, _)| p == param);
        let walks_places = matches!(&source.kind, IrKind::Builtin(Builtin::Indices, a)
            if a.len() == 1 && self.list_param(&a[0]).is_some_and(|(p, _)| p == param));
        let (false, Some(n)) = (clause.guard.is_some(), nest.records) else {
            return unsupported(span);
        };
        if !walks_records && !walks_places {
            return unsupported(span);
        }
        let mut items = Vec::new();
        for i in 0..i64::from(n) {
            let mut inner = self.clone();
            let alias = match walks_records {
                true => Alias::Record(param, lit(i, span)),
                false => Alias::Place(i),
            };
            match inner.aliases.get_mut(clause.generator.slot as usize) {
                Some(slot) => *slot = Some(alias),
                None => return unsupported(span),
            }
            for k in 0..nest.bools.len() {
                items.push(inner.stored(element, param, k)?);
            }
        }
        Ok(ir(IrKind::List(items), span))
    }

    /// A generator: one that walks a nested list's records walks their
    /// places, its slot an alias of the record.
    fn generator(&mut self, generator: &mut GenIr) -> Compiled<()> {
        if let Some((param, nest)) = self.list_param(&generator.source) {
            let span = generator.source.span;
            let n = i64::from(nest.records.unwrap_or(0));
            generator.source = binary(BinaryOp::RangeExclusive, lit(0, span), lit(n, span));
            let place = ir(IrKind::Local(generator.slot), span);
            if let Some(alias) = self.aliases.get_mut(generator.slot as usize) {
                *alias = Some(Alias::Record(param, place));
            }
            return Ok(());
        }
        generator.source = self.scalar(&generator.source)?;
        Ok(())
    }

    /// An expression whose value does not nest, rewritten to read the flat
    /// lists.
    fn scalar(&self, value: &Ir) -> Compiled<Ir> {
        let span = value.span;
        match &value.kind {
            IrKind::Index(of, k) => {
                if let Some(record) = self.record(of)? {
                    let k = self.scalar(k)?;
                    return self.element(&record, &k);
                }
            }
            IrKind::Builtin(b @ (Builtin::Len | Builtin::Indices | Builtin::Sum), a)
                if a.len() == 1 =>
            {
                if let Some((_, nest)) = self.list_param(&a[0]) {
                    let n = lit(i64::from(nest.records.unwrap_or(0)), span);
                    return match b {
                        Builtin::Len => Ok(n),
                        Builtin::Indices => Ok(binary(BinaryOp::RangeExclusive, lit(0, span), n)),
                        _ => unsupported(span),
                    };
                }
                if let Some(record) = self.record(&a[0])? {
                    let stride = self.nest(record.param).map_or(0, Nest::stride);
                    let len = self.in_bounds(&record, lit(i64::from(stride), span), false);
                    return match b {
                        Builtin::Len => Ok(len),
                        Builtin::Indices => Ok(binary(BinaryOp::RangeExclusive, lit(0, span), len)),
                        _ => {
                            let mut total = lit(0, span);
                            for k in 0..stride {
                                let element = self.element(&record, &lit(i64::from(k), span))?;
                                total = binary(BinaryOp::Add, total, element);
                            }
                            Ok(self.in_bounds(&record, total, false))
                        }
                    };
                }
            }
            IrKind::Binary(op @ (BinaryOp::Eq | BinaryOp::Ne), a, b) => {
                let param = match (self.record(a)?, self.record(b)?) {
                    (Some(r), _) | (None, Some(r)) => Some(r.param),
                    _ => None,
                };
                if let Some(param) = param {
                    let stride = self.nest(param).map_or(0, |n| n.bools.len());
                    let mut all = ir(IrKind::Lit(Value::Bool(true)), span);
                    for k in 0..stride {
                        let same = binary(
                            BinaryOp::Eq,
                            self.element_of(a, param, k)?,
                            self.element_of(b, param, k)?,
                        );
                        all = binary(BinaryOp::And, all, same);
                    }
                    return Ok(match op {
                        BinaryOp::Eq => all,
                        _ => ir(IrKind::Unary(UnaryOp::Not, Box::new(all)), span),
                    });
                }
            }
            IrKind::MakePos(g, args) if *g == self.g => {
                let mut made = Vec::new();
                for (p, arg) in args.iter().enumerate() {
                    made.push(match self.nest(p as u32) {
                        Some(_) => self.argument(arg, p as u32)?,
                        None => self.scalar(arg)?,
                    });
                }
                return Ok(ir(IrKind::MakePos(*g, made), span));
            }
            IrKind::Local(s) => {
                return match self.aliases.get(*s as usize) {
                    Some(Some(Alias::Place(i))) => Ok(lit(*i, span)),
                    Some(Some(Alias::Record(..))) => unsupported(span),
                    _ if self.nest(*s).is_some() => unsupported(span),
                    _ => Ok(value.clone()),
                };
            }
            IrKind::Comprehension { .. } => {
                // A comprehension's generators may walk records too; its
                // slots are its own.
                let mut inner = self.clone();
                let mut value = value.clone();
                if let IrKind::Comprehension { element, clauses } = &mut value.kind {
                    for clause in clauses {
                        inner.generator(&mut clause.generator)?;
                        if let Some(guard) = &mut clause.guard {
                            *guard = inner.scalar(guard)?;
                        }
                    }
                    **element = inner.scalar(element)?;
                }
                return Ok(value);
            }
            _ => {}
        }
        let mut value = value.clone();
        let mut failed = None;
        children_mut(&mut value, |child| match self.scalar(child) {
            Ok(new) => *child = new,
            Err(why) => failed = failed.take().or(Some(why)),
        });
        match failed {
            Some(why) => Err(why),
            None => Ok(value),
        }
    }
}

/// A value as the flat list holds it: a truth (`boolean`) as 1 or 0.
fn stored_as(value: Ir, boolean: bool) -> Ir {
    let span = value.span;
    match boolean {
        true => choose(value, lit(1, span), lit(0, span)),
        false => value,
    }
}

/// Whether two expressions are the same variable or number (the record
/// a `set_at` writes and the one it reads).
fn same(a: &Ir, b: &Ir) -> bool {
    match (&a.kind, &b.kind) {
        (IrKind::Local(x), IrKind::Local(y)) => x == y,
        (IrKind::Lit(Value::Int(x)), IrKind::Lit(Value::Int(y))) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list of pairs holding a boolean is flattened record by record,
    /// and read back as it was; a record of another length does not pack.
    #[test]
    fn records_flatten_and_come_back_whole() {
        let ty = Type::List(Box::new(Type::Tuple(vec![Type::Nat, Type::Bool])));
        let pair = |n, b| Value::Tuple([Value::Int(n), Value::Bool(b)].into());
        let arg = Value::list(vec![pair(3, true), pair(0, false)]);
        assert!(nests(&ty));
        let nest = Nest::of(&ty, &arg).expect("it nests");
        assert_eq!(nest.stride(), 2);
        let flat = nest.flatten(&arg).expect("it flattens");
        let numbers = [3, 1, 0, 0].map(Value::Int);
        assert_eq!(flat, Value::list(numbers.to_vec()));
        assert_eq!(nest.value(&[3, 1, 0, 0]), arg);
        let ragged = Value::list(vec![pair(3, true), Value::Tuple([Value::Int(1)].into())]);
        assert_eq!(nest.flatten(&ragged), None);
        // Rows of lists: each as long as the first.
        let rows = Type::List(Box::new(Type::List(Box::new(Type::Nat))));
        let row = |xs: &[i64]| Value::list(xs.iter().map(|&x| Value::Int(x)).collect());
        let uneven = Value::list(vec![row(&[1, 2]), row(&[3])]);
        let nest = Nest::of(&rows, &uneven).expect("a layout from the first row");
        assert_eq!(nest.flatten(&uneven), None);
        // Nesting deeper is not packed.
        assert!(!nests(&Type::List(Box::new(rows))));
    }
}
