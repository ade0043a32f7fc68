//! Lists of lists of numbers known before any rule runs (a constant such
//! as a graph's neighbour lists, `const ADJ = [[1, 2], [0], ...]`), read
//! at a place a register holds: `ADJ[v]` is the row at `v`, walked,
//! measured, searched and indexed as a list the rules work out is, its
//! numbers read from one flat table.

use super::{Compiler, Val};
use crate::eval::compact::code::{MadeList, Num, Seq, Truth, Walk};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use std::rc::Rc;

/// The rows of a constant, one after another.
#[derive(Debug)]
pub(in crate::eval::compact) struct Table {
    numbers: Rc<[i64]>,
    /// Where each row starts in `numbers`.
    starts: Rc<[i64]>,
    lens: Rc<[i64]>,
}

impl Table {
    /// The table of a list whose elements are lists of numbers.
    pub(super) fn of(value: &Value) -> Option<Table> {
        let Value::List(rows) = value else {
            return None;
        };
        let (mut numbers, mut starts, mut lens) = (Vec::new(), Vec::new(), Vec::new());
        for row in rows.iter() {
            let Value::List(items) = row else {
                return None;
            };
            starts.push(numbers.len() as i64);
            lens.push(items.len() as i64);
            numbers.extend_from_slice(&super::numbers(items)?);
        }
        Some(Table {
            numbers: numbers.into(),
            starts: starts.into(),
            lens: lens.into(),
        })
    }

    /// The length of the row at the place in register `row` (none past
    /// the last row).
    pub(super) fn len(&self, row: u32) -> Num {
        Num::Item(self.lens.clone(), Box::new(Num::Reg(row)))
    }

    /// Element `at` of the row at `row`: none past either end.
    pub(super) fn element(&self, row: u32, at: Num) -> Option<Num> {
        let inside = Truth::And(
            Box::new(Truth::Compare(BinaryOp::Ge, at.copy()?, Num::Lit(0))),
            Box::new(Truth::Compare(BinaryOp::Lt, at.copy()?, self.len(row))),
        );
        Some(Num::If(
            Box::new(inside),
            Box::new(self.within(row, at)),
            // Element 0 of no numbers: the read fails, so the interpreter
            // reports the index as it does.
            Box::new(Num::Item(Rc::from([]), Box::new(Num::Lit(0)))),
        ))
    }

    /// Element `at` of the row at `row`, `at` known to be inside it.
    fn within(&self, row: u32, at: Num) -> Num {
        let start = Num::Item(self.starts.clone(), Box::new(Num::Reg(row)));
        let place = Num::Binary(BinaryOp::Add, Box::new(start), Box::new(at));
        Num::Item(self.numbers.clone(), Box::new(place))
    }
}

/// `list[place]` where `list` is a constant list of lists of numbers and
/// the place a register: that row.
pub(super) fn row_of_table(list: &Value, place: &Val) -> Option<Val> {
    match place {
        Val::Num(r) => Some(Val::Row(Rc::new(Table::of(list)?), *r)),
        _ => None,
    }
}

impl Compiler<'_> {
    /// The row at `row` walked in order, as a list made each time it is
    /// walked.
    pub(super) fn table_row(&mut self, table: &Table, row: u32) -> Seq {
        let var = self.reg();
        let walk = Walk {
            var,
            over: Seq::Range(Num::Lit(0), table.len(row), false),
            guard: None,
        };
        Seq::Made(Box::new(MadeList {
            tuple: self.tuple(),
            walk,
            element: table.within(row, Num::Reg(var)),
        }))
    }
}
