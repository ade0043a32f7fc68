//! Numbers: arithmetic, `len`, `count`, `index_of`, `sum`, `min`, `max` and the
//! booleans read as 1 or 0, compiled to `Num`.

use super::{Compiler, Entry, Scope, Val, LOOKED_IN, NUMBERS};
use crate::eval::builtins::Builtin;
use crate::eval::compact::called::Held;
use crate::eval::compact::code::{Bind, Char, Join, Num, Seq, Sought, Truth, Walk};
use crate::eval::compact::facts::worked_alone;
use crate::eval::compact::layout::Fields;
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::{BinaryOp, UnaryOp};
use crate::types::Type;
use std::rc::Rc;

impl<'a> Compiler<'a> {
    pub(super) fn num(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        use BinaryOp::*;
        let refused = || Unsupported::new(NUMBERS, ir.span);
        Ok(match &ir.kind {
            IrKind::Lit(Value::Int(n)) => Num::Lit(*n),
            IrKind::Local(_) | IrKind::Const(_) => match self.val(scope, ir) {
                Some(Val::Num(r)) => Num::Reg(r),
                Some(Val::Const(n)) => Num::Lit(n),
                _ => return Err(refused()),
            },
            IrKind::Index(target, index) => match self.val(scope, target) {
                Some(Val::List(f)) => Num::Field(f, Box::new(self.num(scope, index)?)),
                Some(Val::Tuple(t)) => Num::TupleAt(t, Box::new(self.num(scope, index)?)),
                Some(Val::Items(xs)) => Num::Item(xs, Box::new(self.num(scope, index)?)),
                Some(Val::Made(_)) => self.made_element(scope, target, index)?,
                Some(Val::Row(table, row)) => {
                    let at = self.num(scope, index)?;
                    table.element(row, at).ok_or_else(refused)?
                }
                Some(Val::Pair(place, parts)) => {
                    let IrKind::Lit(Value::Int(k)) = index.kind else {
                        return Err(refused());
                    };
                    let k = usize::try_from(k).map_err(|_| refused())?;
                    self.pair_element(place, &parts, k).ok_or_else(refused)?
                }
                Some(Val::Chosen(place, rows)) => {
                    let IrKind::Lit(Value::Int(j)) = index.kind else {
                        return Err(refused());
                    };
                    let column = usize::try_from(j).map_err(|_| refused())?;
                    let mut read = None;
                    for (i, row) in rows.iter().enumerate().rev() {
                        let n = match row.get(column).ok_or_else(refused)? {
                            Entry::Lit(n) => Num::Lit(*n),
                            Entry::Reg(r) => Num::Reg(*r),
                        };
                        read = Some(match read {
                            None => n,
                            Some(later) => Num::If(
                                Box::new(Truth::Compare(Eq, Num::Reg(place), Num::Lit(i as i64))),
                                Box::new(n),
                                Box::new(later),
                            ),
                        });
                    }
                    read.ok_or_else(refused)?
                }
                _ => return Err(refused()),
            },
            IrKind::Binary(
                op @ (Add | Sub | Mul | Div | Rem | BitOr | BitXor | BitAnd | Shl | Shr | Pow),
                lhs,
                rhs,
            ) => Num::Binary(
                *op,
                Box::new(self.num(scope, lhs)?),
                Box::new(self.num(scope, rhs)?),
            ),
            IrKind::Unary(UnaryOp::Neg, x) => Num::Neg(Box::new(self.num(scope, x)?)),
            // Worked out alone (see `facts`): a test of what the layout
            // fixes (`if len(g) == 0 then 0 else len(g[0])`) is decided.
            IrKind::If(cond, then, otherwise) => worked_alone(Num::If(
                Box::new(self.truth(scope, cond)?),
                Box::new(self.num(scope, then)?),
                Box::new(self.num(scope, otherwise)?),
            )),
            IrKind::Builtin(b, a) => match (b, &a[..]) {
                (Builtin::Len, [x]) if self.is_set(scope, x) => {
                    Num::Ones(Box::new(self.mask(scope, x)?))
                }
                // Of a comprehension: its elements worked out and added up
                // one by one (1 each for `len`), the list never made.
                (Builtin::Sum, [x]) if self.is_made_list(scope, x) => {
                    self.folded(scope, x, Join::Op(BinaryOp::Add), |e| e)?
                }
                (Builtin::Xor, [x]) if self.is_made_list(scope, x) => {
                    self.folded(scope, x, Join::Op(BinaryOp::BitXor), |e| e)?
                }
                (Builtin::Xor, [x]) => match self.val(scope, x) {
                    Some(Val::List(f)) => fields(f).fold(Num::Lit(0), |joined, e| {
                        Num::Binary(BinaryOp::BitXor, Box::new(joined), Box::new(e))
                    }),
                    _ => return Err(refused()),
                },
                (Builtin::Len, [x]) if self.is_made_list(scope, x) => {
                    self.folded(scope, x, Join::Op(BinaryOp::Add), |e| {
                        let worked_out =
                            Num::Binary(BinaryOp::Mul, Box::new(e), Box::new(Num::Lit(0)));
                        Num::Binary(BinaryOp::Add, Box::new(worked_out), Box::new(Num::Lit(1)))
                    })?
                }
                (Builtin::Count, [x, item]) if self.is_made_list(scope, x) => {
                    // The item is worked out once, before the list is
                    // walked; either failing hands the position to the
                    // interpreter, which meets the error the rule makes.
                    let reg = self.reg();
                    let value = self.num(scope, item)?;
                    let counted = self.folded(scope, x, Join::Op(BinaryOp::Add), |e| {
                        let same = Truth::Compare(BinaryOp::Eq, e, Num::Reg(reg));
                        Num::If(Box::new(same), Box::new(Num::Lit(1)), Box::new(Num::Lit(0)))
                    })?;
                    let nat = false;
                    Num::Let(Box::new(Bind::Num { reg, value, nat }), Box::new(counted))
                }
                (Builtin::Mex, [x]) => self.mex(scope, x)?,
                (Builtin::Len, [x]) => self.len(scope, x)?,
                (Builtin::Popcount, [x]) => Num::Ones(Box::new(self.num(scope, x)?)),
                (Builtin::Min | Builtin::Max, [x]) if self.is_set(scope, x) => {
                    self.extreme(scope, x, *b == Builtin::Max)?
                }
                (Builtin::Sum, [x]) => match self.val(scope, x) {
                    Some(Val::List(f)) => Num::SumFields(f),
                    Some(Val::Tuple(t)) => Num::SumTuple(t),
                    Some(Val::Items(xs)) => Num::Lit(
                        xs.iter()
                            .try_fold(0i64, |total, &x| total.checked_add(x))
                            .ok_or_else(refused)?,
                    ),
                    _ => return Err(refused()),
                },
                // A text written out in a string the rules work out, or
                // in a string parameter where the faster reads below do
                // not take it.
                (Builtin::IndexOf | Builtin::Count, [board, item])
                    if self.sought_text(scope, *b, board, item).is_some() =>
                {
                    let (sought, word) = self
                        .sought_text(scope, *b, board, item)
                        .or_unsupported(NUMBERS, ir.span)?;
                    Num::Find(Box::new(self.text(scope, board)?), word, sought)
                }
                (Builtin::Count, [x, item]) => self.count(scope, ir, x, item)?,
                (Builtin::IndexOf, [items, x]) if !self.is_text(scope, items) => {
                    self.index_of(scope, items, x)?
                }
                // The first cell of a string parameter that holds a letter:
                // its cells are letter codes, walked as numbers.
                (Builtin::IndexOf, [board, x]) if self.is_letter(scope, x) => {
                    let Some(Val::Str(f, _)) = self.val(scope, board) else {
                        return Err(refused());
                    };
                    let letter = Num::Code(Box::new(self.char(scope, x)?));
                    Num::IndexOf(Box::new(Seq::Fields(f)), Box::new(letter))
                }
                (Builtin::Abs, [x]) => Num::Abs(Box::new(self.num(scope, x)?)),
                (Builtin::Min, [_, _, ..]) => Num::Min(self.nums(scope, a)?),
                (Builtin::Max, [_, _, ..]) => Num::Max(self.nums(scope, a)?),
                // Of a list whose length the position fixes: of its fields.
                // An empty one is an error the interpreter reports. Of a
                // comprehension, or of a list worked out whole (a choice
                // of `subsets`, lists joined): the least or largest
                // element as the walk makes them, none (the interpreter's
                // error) for an empty list.
                (Builtin::Min | Builtin::Max, [x]) => match self.val(scope, x) {
                    Some(Val::List(f)) if f.len > 0 => {
                        let each = fields(f).collect();
                        if *b == Builtin::Min {
                            Num::Min(each)
                        } else {
                            Num::Max(each)
                        }
                    }
                    Some(Val::List(_)) => return Err(refused()),
                    _ => {
                        let highest = *b == Builtin::Max;
                        self.folded(scope, x, Join::Extreme { highest }, |e| e)?
                    }
                },
                _ => return Err(refused()),
            },
            IrKind::CallFn(f, args) => self.num_call(scope, ir, (*f, args), Held::Number)?,
            _ => return Err(refused()),
        })
    }

    /// What `index_of` or `count` (`call`) seeks of a text written out
    /// (not empty) in `board`, a string, and the text as `Text::Lit`
    /// holds it; `None` where the faster reads of a string parameter
    /// take it (any text `count`s, one letter's place), or for another
    /// call.
    fn sought_text(
        &self,
        scope: &Scope,
        call: Builtin,
        board: &Ir,
        item: &Ir,
    ) -> Option<(Sought, Option<(u64, u32)>)> {
        let IrKind::Lit(Value::Str(text)) = &item.kind else {
            return None;
        };
        if !text.is_ascii() || text.is_empty() || !self.is_text(scope, board) {
            return None;
        }
        let parameter = matches!(self.val(scope, board), Some(Val::Str(..)));
        let sought = match call {
            Builtin::IndexOf if !(parameter && text.len() == 1) => Sought::First,
            Builtin::Count if !parameter => Sought::Count,
            _ => return None,
        };
        Some((
            sought,
            self.layout.word(text).map(|w| (w, text.len() as u32)),
        ))
    }

    /// `mex` of a list the rules make (see `is_made_list`), a list written
    /// out or a list parameter:
    /// the values below 62 marked as bits of a word, the least unmarked
    /// found from the word (`(m ^ (m + 1))` has one bit more than `m` has
    /// low bits set). A mex of 62 or more (every bit marked) is left to
    /// the interpreter.
    fn mex(&mut self, scope: &mut Scope, list: &Ir) -> Compiled<Num> {
        let elements = match (&list.kind, self.val(scope, list)) {
            _ if self.is_made_list(scope, list) => None,
            (IrKind::List(items), _) => Some(self.nums(scope, items)?),
            (_, Some(Val::List(f))) => Some(fields(f).collect()),
            _ => return Err(Unsupported::new(NUMBERS, list.span)),
        };
        let marks = match elements {
            None => {
                let reg = self.reg();
                self.folded(scope, list, Join::Op(BinaryOp::BitOr), |e| marked(reg, e))?
            }
            Some(elements) => {
                let mut marks = Num::Lit(0);
                for e in elements {
                    let mark = Box::new(marked(self.reg(), e));
                    marks = Num::Binary(BinaryOp::BitOr, Box::new(marks), mark);
                }
                marks
            }
        };
        let (m, least) = (self.reg(), self.reg());
        let next = Num::Binary(BinaryOp::Add, Box::new(Num::Reg(m)), Box::new(Num::Lit(1)));
        let changed = Num::Binary(BinaryOp::BitXor, Box::new(Num::Reg(m)), Box::new(next));
        let found = Num::Binary(
            BinaryOp::Sub,
            Box::new(Num::Ones(Box::new(changed))),
            Box::new(Num::Lit(1)),
        );
        // Every bit marked: a read of nothing fails, and the interpreter
        // answers.
        let past = Num::Item(Rc::from([]), Box::new(Num::Lit(0)));
        let below = Truth::Compare(BinaryOp::Lt, Num::Reg(least), Num::Lit(MEX_BITS));
        let answer = Num::If(Box::new(below), Box::new(Num::Reg(least)), Box::new(past));
        let nat = false;
        let least = Bind::Num {
            reg: least,
            value: found,
            nat,
        };
        let within = Num::Let(Box::new(least), Box::new(answer));
        let marks = Bind::Num {
            reg: m,
            value: marks,
            nat,
        };
        Ok(Num::Let(Box::new(marks), Box::new(within)))
    }

    /// The elements of `list`, a comprehension, a list of numbers the
    /// rules make (see `is_made_list`) or one held in a tuple register (a
    /// choice of `subsets`), each made into a number by `each` and joined
    /// as the walk makes them: a comprehension's list is never made, one
    /// the rules make is made whole first, as the interpreter makes it.
    fn folded(
        &mut self,
        scope: &mut Scope,
        list: &Ir,
        join: Join,
        each: impl FnOnce(Num) -> Num,
    ) -> Compiled<Num> {
        if let IrKind::Comprehension { element, clauses } = &list.kind {
            let (walk, mut inner) = self.walk(scope, clauses, list, NUMBERS)?;
            let element = each(self.num(&mut inner, element)?);
            return Ok(Num::Fold(join, Box::new(walk), Box::new(element)));
        }
        let mut binds = Vec::new();
        let held = match self.val(scope, list) {
            Some(Val::Tuple(t)) => Some(Val::Tuple(t)),
            _ => self.passed_list(scope, list, false, &mut binds)?,
        };
        let Some(Val::Tuple(t)) = held else {
            return Err(Unsupported::new(NUMBERS, list.span));
        };
        let var = self.reg();
        let walk = Walk {
            var,
            over: Seq::Tuple(t),
            guard: None,
        };
        let mut folded = Num::Fold(join, Box::new(walk), Box::new(each(Num::Reg(var))));
        for bind in binds.into_iter().rev() {
            folded = Num::Let(Box::new(bind), Box::new(folded));
        }
        Ok(folded)
    }

    /// Whether `list` is a comprehension, or `set_at` or `slice` of a list
    /// of numbers held in fields or a tuple register: a list the rules make
    /// that `folded` walks.
    fn is_made_list(&self, scope: &Scope, list: &Ir) -> bool {
        match &list.kind {
            IrKind::Comprehension { .. } => true,
            IrKind::Builtin(Builtin::SetAt | Builtin::Slice, a) => matches!(
                a.first().and_then(|held| self.val(scope, held)),
                Some(Val::List(_) | Val::Tuple(_))
            ),
            _ => false,
        }
    }

    /// `count(x, item)` of a list or string whose length the position
    /// fixes: each element compared with the item in turn. The item is
    /// worked out once, first, as the interpreter does even when `x` is
    /// empty.
    pub(super) fn count(
        &mut self,
        scope: &mut Scope,
        call: &Ir,
        x: &Ir,
        item: &Ir,
    ) -> Compiled<Num> {
        let refused = || Unsupported::new(NUMBERS, call.span);
        let reg = self.reg();
        let (bind, tests): (Bind, Vec<Truth>) = match self.val(scope, x) {
            Some(Val::List(f)) => {
                let value = self.num(scope, item)?;
                let tests = fields(f)
                    .map(|n| Truth::Compare(BinaryOp::Eq, n, Num::Reg(reg)))
                    .collect();
                let nat = false;
                (Bind::Num { reg, value, nat }, tests)
            }
            Some(Val::Items(xs)) => {
                let value = self.num(scope, item)?;
                let tests = xs
                    .iter()
                    .map(|&n| Truth::Compare(BinaryOp::Eq, Num::Lit(n), Num::Reg(reg)))
                    .collect();
                let nat = false;
                (Bind::Num { reg, value, nat }, tests)
            }
            // A text written out, counted in a string parameter on the
            // key; a letter worked out by the rules, each cell compared
            // with it.
            Some(Val::Str(f, alphabet)) => {
                if let IrKind::Lit(Value::Str(text)) = &item.kind {
                    let codes: Option<Rc<[i64]>> = text
                        .bytes()
                        .map(|b| alphabet.binary_search(&b).ok().map(|c| c as i64))
                        .collect();
                    // A letter outside the alphabet is in no cell; nor is
                    // the empty text counted.
                    return Ok(match codes {
                        Some(codes) if !codes.is_empty() => Num::Matches(f, codes),
                        _ => Num::Lit(0),
                    });
                }
                if !self.is_letter(scope, item) {
                    return Err(refused());
                }
                let value = self.char(scope, item)?;
                let cell = |i: u32| Char::Cell(f, Box::new(Num::Lit(i64::from(i))));
                let tests = (0..f.len)
                    .map(|i| Truth::SameChar(true, cell(i), Char::Reg(reg)))
                    .collect();
                (Bind::Letter { reg, value }, tests)
            }
            _ => return Err(refused()),
        };
        Ok(Num::Let(Box::new(bind), Box::new(sum_of_ones(tests))))
    }

    /// `len(x)`.
    /// `index_of(items, x)` in a list of numbers, the items walked as a
    /// generator walks them.
    pub(super) fn index_of(&mut self, scope: &mut Scope, items: &Ir, x: &Ir) -> Compiled<Num> {
        // The list itself refused is named as a list looked in, not as a
        // generator; a part of it refused keeps its own reason.
        let over = self
            .seq(scope, items)
            .map_err(|e| match e.span == items.span {
                true => Unsupported::new(LOOKED_IN, e.span),
                false => e,
            })?;
        Ok(Num::IndexOf(Box::new(over), Box::new(self.num(scope, x)?)))
    }

    pub(super) fn len(&mut self, scope: &mut Scope, x: &Ir) -> Compiled<Num> {
        if let IrKind::Index(grid, row) = &x.kind {
            if let Some(len) = self.made_row_len(scope, grid, row)? {
                return Ok(len);
            }
            if let Some(len) = self.row_len_within(scope, grid, row)? {
                return Ok(len);
            }
        }
        Ok(match self.val(scope, x) {
            Some(Val::List(f) | Val::Bools(f) | Val::Str(f, _)) => Num::Lit(i64::from(f.len)),
            Some(Val::Items(xs)) => Num::Lit(xs.len() as i64),
            Some(Val::Grid(rows)) => Num::Lit(i64::from(rows.fields.len)),
            Some(Val::View(_, view)) => Num::Lit(i64::from(view.height())),
            Some(Val::Tuple(t) | Val::Mapped(t, _)) => Num::TupleLen(t),
            Some(Val::Row(table, row)) => table.len(row),
            Some(Val::Made(_)) => self.made_len(scope, x).or_unsupported(NUMBERS, x.span)?,
            // A constant of any elements (a graph's neighbour lists) is as
            // long as it is before any rule runs.
            _ if matches!(self.known(x), Some(Value::List(_))) => match self.known(x) {
                Some(Value::List(xs)) => Num::Lit(xs.len() as i64),
                _ => return Err(Unsupported::new(NUMBERS, x.span)),
            },
            _ if self.is_text(scope, x) => Num::TextLen(Box::new(self.text(scope, x)?)),
            _ => return Err(Unsupported::new(NUMBERS, x.span)),
        })
    }

    /// The length of row `row` of a grid parameter or a view of one, where
    /// the walks' ranges keep `row` on the grid: every row is as long as
    /// the layout's, so the length is known before any rule runs and a
    /// range up to it is a range between literals (see `note_held`).
    fn row_len_within(&mut self, scope: &mut Scope, grid: &Ir, row: &Ir) -> Compiled<Option<Num>> {
        let (height, width) = match self.val(scope, grid) {
            Some(Val::Grid(rows)) => (rows.fields.len, rows.cols),
            Some(Val::View(_, view)) => (view.height(), view.width()),
            _ => return Ok(None),
        };
        let at = self.num(scope, row)?;
        Ok(self
            .within(&at, i64::from(height))
            .then(|| Num::Lit(i64::from(width))))
    }

    /// Whether an expression is a boolean.
    pub(super) fn is_flag(&self, scope: &Scope, ir: &Ir) -> bool {
        use BinaryOp::*;
        match &ir.kind {
            IrKind::Lit(v) => matches!(v, Value::Bool(_)),
            IrKind::Const(_) => matches!(self.known(ir), Some(Value::Bool(_))),
            IrKind::Local(_) => matches!(self.val(scope, ir), Some(Val::Flag(_))),
            IrKind::Unary(UnaryOp::Not, _) => true,
            IrKind::Binary(op, ..) => {
                matches!(op, And | Or | Eq | Ne | Lt | Le | Gt | Ge | In | NotIn)
            }
            IrKind::Builtin(Builtin::Has | Builtin::Any | Builtin::All, _) => true,
            IrKind::Index(target, _) => matches!(self.val(scope, target), Some(Val::Bools(_))),
            IrKind::If(_, a, b) => self.is_flag(scope, a) || self.is_flag(scope, b),
            IrKind::CallFn(f, _) => self
                .program
                .functions
                .get(*f as usize)
                .is_some_and(|func| func.ret == Type::Bool),
            _ => false,
        }
    }

    /// A boolean as a number: 1 or 0.
    pub(super) fn flag(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        if let Some(Char::Cell(f, i)) = self.truth_cell(scope, ir)? {
            return Ok(Num::Field(f, i));
        }
        let t = self.truth(scope, ir)?;
        Ok(Num::If(
            Box::new(t),
            Box::new(Num::Lit(1)),
            Box::new(Num::Lit(0)),
        ))
    }

    pub(in crate::eval::compact) fn nums(
        &mut self,
        scope: &mut Scope,
        irs: &[Ir],
    ) -> Compiled<Vec<Num>> {
        irs.iter().map(|x| self.num(scope, x)).collect()
    }
}

/// How many of `tests` hold.
pub(super) fn sum_of_ones(tests: Vec<Truth>) -> Num {
    let one = |t: Truth| Num::If(Box::new(t), Box::new(Num::Lit(1)), Box::new(Num::Lit(0)));
    tests
        .into_iter()
        .map(one)
        .reduce(|a, b| Num::Binary(BinaryOp::Add, Box::new(a), Box::new(b)))
        .unwrap_or(Num::Lit(0))
}

/// The elements of a list held in fields, in order.
fn fields(f: Fields) -> impl Iterator<Item = Num> {
    (0..f.len).map(move |i| Num::Field(f, Box::new(Num::Lit(i64::from(i)))))
}

/// The values `mex` marks as bits of one word.
const MEX_BITS: i64 = 62;

/// The bit of value `e` (held in register `reg`) for `mex`, none for a
/// value past the word: such a value cannot be the least missing one
/// while any below it is missing.
fn marked(reg: u32, e: Num) -> Num {
    let low = Truth::And(
        Box::new(Truth::Compare(BinaryOp::Ge, Num::Reg(reg), Num::Lit(0))),
        Box::new(Truth::Compare(
            BinaryOp::Lt,
            Num::Reg(reg),
            Num::Lit(MEX_BITS),
        )),
    );
    let one = Num::Binary(
        BinaryOp::Shl,
        Box::new(Num::Lit(1)),
        Box::new(Num::Reg(reg)),
    );
    let mark = Num::If(Box::new(low), Box::new(one), Box::new(Num::Lit(0)));
    let nat = false;
    Num::Let(Box::new(Bind::Num { reg, value: e, nat }), Box::new(mark))
}
