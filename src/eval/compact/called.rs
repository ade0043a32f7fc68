//! Helpers the compiled code cannot write in place (one that calls
//! itself, or whose body reads what the code has no form for), called all
//! the same: the rule's code works out the arguments into registers, and
//! the reference evaluator works out the helper once for each tuple of
//! arguments met. The answer is remembered, so a search around such a
//! helper stays compiled and pays the evaluator once per distinct call:
//! Green Hackenbush's `below(u, v)` on a tree of 18 vertices is 324 calls,
//! however many positions ask.

use super::bitsets::Universe;
use super::run::Machine;
use crate::eval::interp::Interp;
use crate::eval::ir::Program;
use crate::eval::value::Value;
use crate::source::Span;
use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;
use std::cell::RefCell;
use std::sync::Arc;

/// Answers remembered at most: past them a call is worked out each time.
const MOST_REMEMBERED: usize = 1 << 20;

/// How a value sits in a register: a number, a boolean as 0 or 1, or a
/// set of numbers as a mask over its universe.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Held {
    Number,
    Flag,
    Mask(Universe),
}

impl Held {
    fn value(self, held: i64) -> Value {
        match self {
            Held::Number => Value::Int(held),
            Held::Flag => Value::Bool(held != 0),
            Held::Mask(universe) => universe.elements(held as u64),
        }
    }

    /// The register's form of `value`; `None` for a value of another
    /// kind, or a set with a number outside the universe.
    fn held(self, value: &Value) -> Option<i64> {
        match (self, value) {
            (Held::Number, Value::Int(n)) => Some(*n),
            (Held::Flag, Value::Bool(b)) => Some(i64::from(*b)),
            (Held::Mask(universe), Value::Set(xs)) => Some(universe.mask(xs)? as i64),
            _ => None,
        }
    }
}

/// One helper called from the compiled code, with its answers so far.
pub struct Called {
    evaluator: RefCell<Interp>,
    f: u32,
    /// Helpers the call is written inside, compiled in place.
    nesting: usize,
    span: Span,
    /// The registers holding the arguments, and how each is held.
    args: Vec<(u32, Held)>,
    returns: Held,
    remembered: RefCell<HashMap<Box<[i64]>, i64, FxBuildHasher>>,
    /// The arguments of this call, read off the registers.
    asked: RefCell<Vec<i64>>,
}

impl Called {
    /// Helper `f` of `program` (whose constants are `consts`), called at
    /// `span` inside `nesting` helpers with `args`, answering as `returns`.
    pub fn new(
        (program, consts): (&Arc<Program>, &[Value]),
        f: u32,
        (nesting, span): (u32, Span),
        args: Vec<(u32, Held)>,
        returns: Held,
    ) -> Called {
        let mut evaluator = Interp::default();
        evaluator.program = program.clone();
        evaluator.consts = consts.to_vec();
        // Only helpers run here: a search a helper asks for takes the
        // reference's path.
        evaluator.compact = crate::eval::Compact::Off;
        Called {
            evaluator: RefCell::new(evaluator),
            f,
            nesting: nesting as usize,
            span,
            args,
            returns,
            remembered: RefCell::default(),
            asked: RefCell::default(),
        }
    }

    /// The helper's answer on the arguments in the machine's registers;
    /// `None` where the evaluator fails (the reference then reports it
    /// for the whole rule) or answers with a value of another kind.
    pub fn call(&self, m: &Machine) -> Option<i64> {
        let mut asked = self.asked.borrow_mut();
        asked.clear();
        asked.extend(self.args.iter().map(|&(reg, _)| m.regs[reg as usize]));
        if let Some(&answer) = self.remembered.borrow().get(&asked[..]) {
            return Some(answer);
        }
        let values = self
            .args
            .iter()
            .zip(asked.iter())
            .map(|(&(_, held), &n)| held.value(n))
            .collect();
        let answer = self
            .evaluator
            .borrow_mut()
            .call_helper(self.f, values, self.nesting, self.span)
            .ok()
            .and_then(|v| self.returns.held(&v))?;
        // A failure is not remembered: it may be an interruption, and the
        // reference works the whole rule out again anyway.
        let mut remembered = self.remembered.borrow_mut();
        if remembered.len() < MOST_REMEMBERED {
            remembered.insert(asked[..].into(), answer);
        }
        Some(answer)
    }
}
