//! Running lowered code (see `lowered`). Every function answers `None`
//! whenever the interpreter might answer differently: an error it would
//! report, a value of a kind the lowered code does not handle, or a walk
//! long enough that the interpreter's checks for an interrupt matter. The
//! caller then evaluates the expression the ordinary way. Nothing here
//! writes anything but the generators' own variables, which the
//! interpreter writes again before reading them.

use super::conform::already_fits;
use super::interp::Env;
use super::ir::Program;
use super::lowered::{Arg, Clause, Loop, Lowered, Num, NumList, Source, Truth};
use super::value::{range_len, Value};
use crate::syntax::ast::BinaryOp;
use crate::types::Type;

/// Helpers may call each other this deep in lowered code; deeper calls
/// are left to the interpreter, which grows its stack.
const MAX_DEPTH: usize = 64;

/// Generator steps one run may take before it leaves the rest to the
/// interpreter, which checks for an interrupt at every step.
pub const STEPS: usize = 1 << 16;

pub struct Runner<'a> {
    pub code: &'a Lowered,
    pub program: &'a Program,
    /// Emptied frames for helper calls, reused.
    pub frames: &'a mut Vec<Vec<Value>>,
    /// Generator steps left in this run.
    pub steps: usize,
    depth: usize,
}

impl<'a> Runner<'a> {
    pub fn new(code: &'a Lowered, program: &'a Program, frames: &'a mut Vec<Vec<Value>>) -> Self {
        Runner {
            code,
            program,
            frames,
            steps: STEPS,
            depth: 0,
        }
    }

    /// A number, with the leaves most expressions are made of (a
    /// variable, a literal, `xs[i]`) read right here: a call through the
    /// general match for each costs more than reading them.
    #[inline(always)]
    fn quick(&mut self, code: &Num, env: &mut Env) -> Option<i64> {
        match code {
            Num::Lit(n) => Some(*n),
            Num::Local(slot) => int(&env[*slot as usize]),
            Num::Element(slot, index) => {
                let i = match &**index {
                    Num::Local(at) => int(&env[*at as usize])?,
                    Num::Lit(n) => *n,
                    other => self.num(other, env)?,
                };
                element(&env[*slot as usize], i)
            }
            _ => self.num(code, env),
        }
    }

    pub fn num(&mut self, code: &Num, env: &mut Env) -> Option<i64> {
        Some(match code {
            Num::Lit(n) => *n,
            Num::Local(slot) => int(&env[*slot as usize])?,
            Num::Element(slot, index) => {
                let i = self.quick(index, env)?;
                element(&env[*slot as usize], i)?
            }
            Num::Binary(op, lhs, rhs) => {
                let a = self.quick(lhs, env)?;
                let b = self.quick(rhs, env)?;
                arithmetic(*op, a, b)?
            }
            Num::Neg(operand) => self.num(operand, env)?.checked_neg()?,
            Num::Len(slot) => i64::try_from(env[*slot as usize].count()?).ok()?,
            Num::SumOf(slot) => match &env[*slot as usize] {
                Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => {
                    let mut total: i64 = 0;
                    for x in xs.iter() {
                        total = total.checked_add(int(x)?)?;
                    }
                    total
                }
                _ => return None,
            },
            Num::Sum(body) => {
                let mut total: i64 = 0;
                self.walk(body, &body.clauses, env, &mut |n| {
                    total = total.checked_add(n)?;
                    Some(())
                })?;
                total
            }
            Num::If(cond, then, otherwise) => {
                if self.truth(cond, env)? {
                    self.num(then, env)?
                } else {
                    self.num(otherwise, env)?
                }
            }
            Num::Call(f, args) => {
                let body = self.code.functions.get(*f as usize)?.num.as_ref()?;
                self.call(*f, args, env, |me, frame| me.num(body, frame))?
            }
        })
    }

    pub fn truth(&mut self, code: &Truth, env: &mut Env) -> Option<bool> {
        Some(match code {
            Truth::Lit(b) => *b,
            Truth::Local(slot) => match env[*slot as usize] {
                Value::Bool(b) => b,
                _ => return None,
            },
            Truth::Not(operand) => !self.truth(operand, env)?,
            Truth::And(lhs, rhs) => self.truth(lhs, env)? && self.truth(rhs, env)?,
            Truth::Or(lhs, rhs) => self.truth(lhs, env)? || self.truth(rhs, env)?,
            Truth::Compare(op, lhs, rhs) => {
                let a = self.quick(lhs, env)?;
                let b = self.quick(rhs, env)?;
                compare(*op, a, b)?
            }
            Truth::CellIs(slot, index, want, equal) => {
                let i = usize::try_from(self.quick(index, env)?).ok()?;
                let Value::Str(board) = &env[*slot as usize] else {
                    return None;
                };
                if !board.is_ascii() {
                    return None;
                }
                (*board.as_bytes().get(i)? == *want) == *equal
            }
            Truth::HasText(slot, sub) => match &env[*slot as usize] {
                Value::Str(s) => s.contains(&**sub),
                _ => return None,
            },
            Truth::Call(f, args) => {
                let body = self.code.functions.get(*f as usize)?.truth.as_ref()?;
                self.call(*f, args, env, |me, frame| me.truth(body, frame))?
            }
        })
    }

    /// Appends the list's numbers to `out`.
    pub fn list(&mut self, code: &NumList, env: &mut Env, out: &mut Vec<i64>) -> Option<()> {
        match code {
            NumList::Items(items) => {
                for item in items {
                    let n = self.num(item, env)?;
                    out.push(n);
                }
                Some(())
            }
            NumList::Comprehension(body) => self.walk(body, &body.clauses, env, &mut |n| {
                out.push(n);
                Some(())
            }),
            NumList::Call(f, args) => {
                let body = self.code.functions.get(*f as usize)?.list.as_ref()?;
                self.call(*f, args, env, |me, frame| me.list(body, frame, out))
            }
            NumList::Inlined(checks, body) => {
                if !checks
                    .iter()
                    .all(|(slot, ty)| fits(ty, &env[*slot as usize]))
                {
                    return None;
                }
                self.list(body, env, out)
            }
        }
    }

    /// Hands every element of a comprehension, in order, to `sink`.
    fn walk<S: FnMut(i64) -> Option<()>>(
        &mut self,
        body: &Loop,
        clauses: &[Clause],
        env: &mut Env,
        sink: &mut S,
    ) -> Option<()> {
        let Some((clause, rest)) = clauses.split_first() else {
            let n = self.quick(&body.element, env)?;
            return sink(n);
        };
        let (lo, hi) = match &clause.source {
            Source::Range(lo, hi, inclusive) => {
                let lo = self.num(lo, env)?;
                let hi = self.num(hi, env)?;
                (lo, if *inclusive { hi.checked_add(1)? } else { hi })
            }
            Source::Indices(slot) => (0, i64::try_from(env[*slot as usize].count()?).ok()?),
        };
        let slot = clause.slot as usize;
        let mut i = lo;
        while i < hi {
            self.steps = self.steps.checked_sub(1)?;
            // Overwritten in place: a whole new value written over the
            // old one is read back in halves, which stalls the loads.
            match &mut env[slot] {
                Value::Int(n) => *n = i,
                other => *other = Value::Int(i),
            }
            let keep = match &clause.guard {
                // A comparison, the usual guard, is made right here.
                Some(Truth::Compare(op, lhs, rhs)) => {
                    compare(*op, self.quick(lhs, env)?, self.quick(rhs, env)?)?
                }
                Some(guard) => self.truth(guard, env)?,
                None => true,
            };
            if keep {
                self.walk(body, rest, env, sink)?;
            }
            i += 1;
        }
        Some(())
    }

    /// Calls helper `f` with these arguments, running `body` in its frame.
    fn call<T>(
        &mut self,
        f: u32,
        args: &[Arg],
        env: &mut Env,
        body: impl FnOnce(&mut Self, &mut Env) -> Option<T>,
    ) -> Option<T> {
        let func = self.program.functions.get(f as usize)?;
        if self.depth >= MAX_DEPTH || func.params.len() != args.len() {
            return None;
        }
        let mut frame = self.frames.pop().unwrap_or_default();
        frame.clear();
        frame.resize(func.frame_size.max(args.len()), Value::Int(0));
        // Binding either fails before any variable moves or moves them all.
        let bound = self.bind(args, env, &mut frame);
        let result = bound.and_then(|()| {
            let fits = args
                .iter()
                .zip(&func.params)
                .enumerate()
                .all(|(i, (_, param))| fits(&param.ty, &frame[i]));
            if !fits {
                return None;
            }
            self.depth += 1;
            let r = body(self, &mut frame);
            self.depth -= 1;
            r
        });
        if bound.is_some() {
            unbind(args, env, &mut frame);
        }
        frame.clear();
        self.frames.push(frame);
        result
    }

    /// Puts a helper's arguments in its frame. Variables are moved there,
    /// not copied (a copy of a list costs two atomic counts), and moved
    /// back by `unbind`; numbers are worked out first, since they may read
    /// the variables that move.
    fn bind(&mut self, args: &[Arg], env: &mut Env, frame: &mut [Value]) -> Option<()> {
        for (i, a) in args.iter().enumerate() {
            match a {
                Arg::Num(code) => frame[i] = Value::Int(self.num(code, env)?),
                Arg::Value(_) => {}
                // Lists and boards as arguments are left to the interpreter.
                Arg::List(_) | Arg::SetCell(..) | Arg::SetSeveral(..) => return None,
            }
        }
        for (i, a) in args.iter().enumerate() {
            if let Arg::Value(slot) = a {
                match moved_before(args, i, *slot) {
                    Some(j) => frame[i] = frame[j].clone(),
                    None => std::mem::swap(&mut env[*slot as usize], &mut frame[i]),
                }
            }
        }
        Some(())
    }
}

/// The argument before `i` that moved variable `slot` already, if any.
fn moved_before(args: &[Arg], i: usize, slot: u32) -> Option<usize> {
    args[..i]
        .iter()
        .position(|a| matches!(a, Arg::Value(s) if *s == slot))
}

/// Moves the variables `bind` moved into a frame back where they were.
fn unbind(args: &[Arg], env: &mut Env, frame: &mut [Value]) {
    for (i, a) in args.iter().enumerate() {
        if let Arg::Value(slot) = a {
            if moved_before(args, i, *slot).is_none() {
                std::mem::swap(&mut env[*slot as usize], &mut frame[i]);
            }
        }
    }
}

/// Whether a value fits a parameter's type as it is: `already_fits`, with
/// lists of numbers (the common case, checked for every call) done here.
fn fits(ty: &Type, v: &Value) -> bool {
    match (ty, v) {
        (Type::List(t), Value::List(xs)) if matches!(**t, Type::Nat | Type::Int) => {
            let nat = **t == Type::Nat;
            xs.iter()
                .all(|x| matches!(x, Value::Int(n) if !nat || *n >= 0))
        }
        _ => already_fits(ty, v),
    }
}

/// `a op b` for an arithmetic operator, as the interpreter computes it;
/// `None` where it would report an error (an overflow, a zero divisor, a
/// shift out of range), which is then the interpreter's to report.
#[inline(always)]
pub fn arithmetic(op: BinaryOp, a: i64, b: i64) -> Option<i64> {
    use BinaryOp::*;
    Some(match op {
        Add => a.checked_add(b)?,
        Sub => a.checked_sub(b)?,
        Mul => a.checked_mul(b)?,
        Div => a.checked_div_euclid(b)?,
        Rem => a.checked_rem_euclid(b)?,
        BitOr => a | b,
        BitXor => a ^ b,
        BitAnd => a & b,
        Shl => {
            let s = u32::try_from(b).ok().filter(|s| *s < 63)?;
            let v = a.checked_shl(s)?;
            if v >> s != a {
                return None;
            }
            v
        }
        Shr => a >> u32::try_from(b).ok().filter(|s| *s < 64)?,
        Pow => power(a, b)?,
        _ => return None,
    })
}

/// `a ** b`; `None` for a negative exponent or a result past 64 bits.
pub fn power(a: i64, b: i64) -> Option<i64> {
    match u32::try_from(b) {
        Ok(b) => a.checked_pow(b),
        // Exponents past u32 overflow unless the base is 0, 1 or -1.
        Err(_) if b > 0 => match a {
            0 | 1 => Some(a),
            -1 => Some(if b % 2 == 0 { 1 } else { -1 }),
            _ => None,
        },
        Err(_) => None,
    }
}

/// `a op b` for a comparison operator.
#[inline(always)]
pub fn compare(op: BinaryOp, a: i64, b: i64) -> Option<bool> {
    use BinaryOp::*;
    Some(match op {
        Eq => a == b,
        Ne => a != b,
        Lt => a < b,
        Le => a <= b,
        Gt => a > b,
        Ge => a >= b,
        _ => return None,
    })
}

#[inline(always)]
fn int(v: &Value) -> Option<i64> {
    match v {
        Value::Int(n) => Some(*n),
        _ => None,
    }
}

/// Element `i` of a collection of numbers, when it is one.
#[inline(always)]
/// `set_at(target, at, values)` on a list of numbers, with one index and
/// a number or lists of both, written into `out`; `None` for anything else
/// (a string, an index out of range, lengths that differ), which the
/// interpreter then handles.
pub fn set_several(target: &Value, at: &Value, values: &Value, out: &mut Vec<i64>) -> Option<()> {
    let Value::List(xs) = target else {
        return None;
    };
    for x in xs.iter() {
        out.push(int(x)?);
    }
    let mut set = |i: &Value, v: &Value| -> Option<()> {
        *out.get_mut(usize::try_from(int(i)?).ok()?)? = int(v)?;
        Some(())
    };
    match (at, values) {
        (Value::List(at) | Value::Tuple(at), Value::List(vs) | Value::Tuple(vs)) => {
            if at.len() != vs.len() {
                return None;
            }
            for (i, v) in at.iter().zip(vs.iter()) {
                set(i, v)?;
            }
        }
        (i @ Value::Int(_), v) => set(i, v)?,
        _ => return None,
    }
    Some(())
}

fn element(v: &Value, i: i64) -> Option<i64> {
    match v {
        Value::List(xs) | Value::Tuple(xs) | Value::Set(xs) => {
            int(xs.get(usize::try_from(i).ok()?)?)
        }
        Value::Range(lo, hi) => (0 <= i && (i as u64) < range_len(*lo, *hi)).then(|| lo + i),
        _ => None,
    }
}

/// Whether a number fits a parameter's type as it is.
pub fn num_fits(ty: &Type, n: i64) -> bool {
    match ty {
        Type::Nat => n >= 0,
        Type::Int | Type::Unknown => true,
        _ => false,
    }
}

/// Whether a list of numbers fits a parameter's type as it is.
pub fn list_fits(ty: &Type, ns: &[i64]) -> bool {
    match ty {
        Type::List(t) => ns.iter().all(|&n| num_fits(t, n)),
        Type::Unknown => true,
        _ => false,
    }
}
