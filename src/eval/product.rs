//! The tuples of `product(lists)`, walked in order (the last list varies
//! fastest). The built-in collects them into a list; a move's generator
//! walks them one at a time, rewriting one tuple in place, since a rule
//! such as Moore's Nim meets a product for every choice of piles.

use super::builtins::product_lists;
use super::interp::{Env, Interp};
use super::value::Value;
use crate::error::{Error, ErrorKind};
use crate::source::Span;
use std::sync::Arc;

pub struct Tuples {
    lists: Vec<Vec<Value>>,
    at: Vec<usize>,
    /// How many tuples the product has.
    pub count: usize,
}

impl Tuples {
    pub fn new(lists: &Value) -> Result<Tuples, ErrorKind> {
        let (lists, count) = product_lists(lists)?;
        let at = vec![0; lists.len()];
        Ok(Tuples { lists, at, count })
    }

    /// The first tuple (meaningless when there are none).
    pub fn first(&self) -> Vec<Value> {
        self.lists
            .iter()
            .filter_map(|l| l.first().cloned())
            .collect()
    }

    /// Turns `tuple` into the tuple after it (the first again after the last).
    pub fn step(&mut self, tuple: &mut [Value]) {
        for d in (0..self.lists.len()).rev() {
            self.at[d] += 1;
            if self.at[d] < self.lists[d].len() {
                tuple[d] = self.lists[d][self.at[d]].clone();
                return;
            }
            self.at[d] = 0;
            tuple[d] = self.lists[d][0].clone();
        }
    }
}

impl Interp {
    /// Calls `each` with `slot` bound to every tuple of the product of
    /// `lists` in turn, as a generator over `product(lists)` would.
    pub(super) fn for_each_tuple(
        &mut self,
        lists: &Value,
        slot: usize,
        span: Span,
        env: &mut Env,
        each: &mut dyn FnMut(&mut Interp, &mut Env) -> Result<(), Error>,
    ) -> Result<(), Error> {
        let mut tuples = Tuples::new(lists).map_err(|k| Error::new(k, span))?;
        let mut tuple = tuples.first();
        for _ in 0..tuples.count {
            if crate::interrupt::requested() {
                return Err(Error::new(crate::interrupt::stop_kind(), span));
            }
            // The previous tuple is rewritten when nothing else kept it
            // (its move's position is interned as bytes, not as values).
            match &mut env[slot] {
                Value::List(held) if held.len() == tuple.len() => match Arc::get_mut(held) {
                    Some(items) => items.clone_from_slice(&tuple),
                    None => *held = Arc::from(&tuple[..]),
                },
                other => *other = Value::List(Arc::from(&tuple[..])),
            }
            each(self, env)?;
            tuples.step(&mut tuple);
        }
        Ok(())
    }
}
