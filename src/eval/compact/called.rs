//! Helpers the compiled code cannot write in place (one that calls
//! itself, or whose body reads what the code has no form for), called all
//! the same: the rule's code works out the arguments into registers (or
//! reads a list or string the position holds off the key), and the
//! reference evaluator works out the helper once for each tuple of
//! arguments met. The answer is remembered, so a search around such a
//! helper stays compiled and pays the evaluator once per distinct call:
//! Green Hackenbush's `below(u, v)` on a tree of 18 vertices is 324 calls,
//! however many positions ask.

use super::bitsets::Universe;
use super::layout::Fields;
use super::run::Machine;
use crate::eval::interp::Interp;
use crate::eval::ir::Program;
use crate::eval::value::Value;
use crate::source::Span;
use hashbrown::HashMap;
use rustc_hash::FxBuildHasher;
use std::cell::RefCell;
use std::rc::Rc;
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

/// Where an argument is: a register holding it, or the fields of the key
/// holding a list or string parameter passed as it is (each element a
/// number, a truth value as 0 or 1, or a letter's code in `alphabet`).
#[derive(Clone, Debug)]
pub enum Arg {
    Reg(u32, Held),
    Numbers(Fields),
    Bools(Fields),
    Letters(Fields, Rc<[u8]>),
}

impl Arg {
    /// The argument as the numbers that stand for it, onto `out`.
    fn read(&self, m: &Machine, out: &mut Vec<i64>) {
        match self {
            Arg::Reg(reg, _) => out.push(m.regs[*reg as usize]),
            Arg::Numbers(f) => out.extend((0..f.len).map(|i| f.number(m.key, i))),
            Arg::Bools(f) | Arg::Letters(f, _) => {
                out.extend((0..f.len).map(|i| f.read(m.key, i) as i64))
            }
        }
    }

    /// The argument's value, from the numbers `read` gave, which it takes
    /// off the front of `numbers`.
    fn value(&self, numbers: &mut &[i64]) -> Option<Value> {
        let mut take = |n: u32| {
            let (these, rest) = numbers.split_at_checked(n as usize)?;
            *numbers = rest;
            Some(these)
        };
        Some(match self {
            Arg::Reg(_, held) => held.value(take(1)?[0]),
            Arg::Numbers(f) => Value::list(take(f.len)?.iter().map(|&n| Value::Int(n)).collect()),
            Arg::Bools(f) => {
                Value::list(take(f.len)?.iter().map(|&b| Value::Bool(b != 0)).collect())
            }
            Arg::Letters(f, alphabet) => {
                let letters = take(f.len)?.iter().map(|&code| {
                    alphabet
                        .get(usize::try_from(code).ok()?)
                        .map(|&l| char::from(l))
                });
                Value::Str(letters.collect::<Option<String>>()?.into())
            }
        })
    }
}

/// One helper called from the compiled code, with its answers so far.
pub struct Called {
    evaluator: RefCell<Interp>,
    f: u32,
    /// Helpers the call is written inside, compiled in place.
    nesting: usize,
    span: Span,
    args: Vec<Arg>,
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
        args: Vec<Arg>,
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
        for arg in &self.args {
            arg.read(m, &mut asked);
        }
        if let Some(&answer) = self.remembered.borrow().get(&asked[..]) {
            return Some(answer);
        }
        let mut numbers = &asked[..];
        let values = self
            .args
            .iter()
            .map(|arg| arg.value(&mut numbers))
            .collect::<Option<Vec<Value>>>()?;
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
