//! Sets of numbers the rules change, compiled as masks over the layout's
//! universe (see `bitsets`): a set literal joins its elements' bits, and
//! `set(...)` of a comprehension, list or range joins those of the values
//! it walks. A number outside the universe has no bit: working it out
//! fails, and the interpreter answers.

use super::{Compiler, Scope, Val};
use crate::eval::builtins::Builtin;
use crate::eval::compact::bitsets::Universe;
use crate::eval::compact::called::Held;
use crate::eval::compact::code::{Join, Num, Seq, Truth, Walk};
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use crate::types::Type;

/// What the compiled code makes as a set.
const SETS: &str = "a set the compiled search cannot make: it makes set literals, `set(...)` of \
     a comprehension, list or range, `if` between sets and helpers that return sets";

impl Compiler<'_> {
    /// The universe every set of the layout is a mask over, where the
    /// rules change a set.
    fn universe(&self, ir: &Ir) -> Compiled<Universe> {
        self.layout.universe.or_unsupported(SETS, ir.span)
    }

    /// Whether an expression is a set to be held as a mask: only in a
    /// layout with sets the rules change (elsewhere sets are held aside).
    pub(super) fn is_set(&self, scope: &Scope, ir: &Ir) -> bool {
        if self.layout.universe.is_none() {
            return false;
        }
        match &ir.kind {
            IrKind::Set(_) | IrKind::Lit(Value::Set(_)) => true,
            IrKind::Builtin(Builtin::Set, _) => true,
            IrKind::Local(_) | IrKind::Const(_) => {
                matches!(self.val(scope, ir), Some(Val::Mask(_)))
            }
            IrKind::If(_, a, b) => self.is_set(scope, a) || self.is_set(scope, b),
            IrKind::CallFn(f, _) => self
                .program
                .functions
                .get(*f as usize)
                .is_some_and(|func| matches!(func.ret, Type::Set(_))),
            _ => false,
        }
    }

    /// A set's mask.
    pub(super) fn mask(&mut self, scope: &mut Scope, ir: &Ir) -> Compiled<Num> {
        let universe = self.universe(ir)?;
        let refused = || Unsupported::new(SETS, ir.span);
        Ok(match &ir.kind {
            IrKind::Local(_) | IrKind::Const(_) | IrKind::Lit(_) => match self.val(scope, ir) {
                Some(Val::Mask(r)) => Num::Reg(r),
                Some(Val::Items(xs)) => {
                    let xs: Vec<Value> = xs.iter().map(|&n| Value::Int(n)).collect();
                    Num::Lit(universe.mask(&xs).ok_or_else(refused)? as i64)
                }
                _ => return Err(refused()),
            },
            IrKind::Set(items) => self.written_out(scope, items, universe)?,
            IrKind::Builtin(Builtin::Set, a) => match &a[..] {
                [x] => self.gathered(scope, x, universe)?,
                _ => return Err(refused()),
            },
            IrKind::If(test, then, otherwise) => Num::If(
                Box::new(self.truth(scope, test)?),
                Box::new(self.mask(scope, then)?),
                Box::new(self.mask(scope, otherwise)?),
            ),
            IrKind::CallFn(f, args) => {
                self.num_call(scope, ir, (*f, args), Held::Mask(universe))?
            }
            _ => return Err(refused()),
        })
    }

    /// `set(x)`: the bits of the values `x` holds, a comprehension walked
    /// as the list would be.
    fn gathered(&mut self, scope: &mut Scope, x: &Ir, universe: Universe) -> Compiled<Num> {
        if let Some(set) = as_list(x).filter(|set| self.is_set(scope, set)) {
            return self.mask(scope, set);
        }
        if self.is_set(scope, x) {
            return self.mask(scope, x);
        }
        let (walk, element) = match &x.kind {
            // The elements of lists joined, or written out.
            IrKind::Binary(BinaryOp::Add, a, b) => {
                let a = self.gathered(scope, a, universe)?;
                let b = self.gathered(scope, b, universe)?;
                return Ok(Num::Binary(BinaryOp::BitOr, Box::new(a), Box::new(b)));
            }
            IrKind::List(items) => return self.written_out(scope, items, universe),
            IrKind::Comprehension { element, clauses } => {
                let (walk, mut inner) = self.walk(scope, clauses, x, SETS)?;
                let element = self.num(&mut inner, element)?;
                (walk, element)
            }
            _ => {
                let over = self.seq(scope, x)?;
                let var = self.reg();
                let walk = Walk {
                    var,
                    over,
                    guard: None,
                };
                (walk, Num::Reg(var))
            }
        };
        Ok(Num::Fold(
            Join::Op(BinaryOp::BitOr),
            Box::new(walk),
            Box::new(bit(element, universe)),
        ))
    }

    /// The mask of numbers written out, `{a, b}` or `[a, b]`.
    fn written_out(
        &mut self,
        scope: &mut Scope,
        items: &[Ir],
        universe: Universe,
    ) -> Compiled<Num> {
        let bits = items
            .iter()
            .map(|x| Ok(bit(self.num(scope, x)?, universe)))
            .collect::<Compiled<Vec<_>>>()?;
        Ok(joined(bits))
    }

    /// `x in s` (`is_in` set) or `x not in s` of a set held as a mask.
    pub(super) fn member(
        &mut self,
        scope: &mut Scope,
        is_in: bool,
        x: &Ir,
        s: &Ir,
    ) -> Compiled<Truth> {
        let universe = self.universe(s)?;
        let n = self.num(scope, x)?;
        Ok(Truth::Member(is_in, n, self.mask(scope, s)?, universe.lo))
    }

    /// What walking a set held as a mask in a register visits: its
    /// elements in increasing order. A set worked out by the rules is not
    /// walked.
    pub(super) fn members(&mut self, scope: &Scope, ir: &Ir) -> Option<Seq> {
        if let Some(set) = as_list(ir) {
            return self.members(scope, set);
        }
        match self.val(scope, ir)? {
            Val::Mask(r) => Some(Seq::Members(r, self.layout.universe?.lo)),
            _ => None,
        }
    }

    /// `min(s)` (or `max`) of a set held as a mask.
    pub(super) fn extreme(&mut self, scope: &mut Scope, s: &Ir, highest: bool) -> Compiled<Num> {
        let universe = self.universe(s)?;
        Ok(Num::Extreme {
            mask: Box::new(self.mask(scope, s)?),
            lo: universe.lo,
            highest,
        })
    }
}

/// The bit of number `n`: `1 << (n - lo)`, which fails (as a shift past the
/// word does) for a number below the universe; one above it makes a mask
/// too wide for the set's field, which the write refuses.
fn bit(n: Num, universe: Universe) -> Num {
    let place = match universe.lo {
        0 => n,
        lo => Num::Binary(BinaryOp::Sub, Box::new(n), Box::new(Num::Lit(lo))),
    };
    Num::Binary(BinaryOp::Shl, Box::new(Num::Lit(1)), Box::new(place))
}

/// The set `list(s)` or `sort(s)` lists in increasing order.
fn as_list(ir: &Ir) -> Option<&Ir> {
    match &ir.kind {
        IrKind::Builtin(Builtin::List | Builtin::Sort, a) => match &a[..] {
            [set] => Some(set),
            _ => None,
        },
        _ => None,
    }
}

/// Masks joined with `|`; the empty set for none.
fn joined(bits: Vec<Num>) -> Num {
    bits.into_iter()
        .reduce(|a, b| Num::Binary(BinaryOp::BitOr, Box::new(a), Box::new(b)))
        .unwrap_or(Num::Lit(0))
}
