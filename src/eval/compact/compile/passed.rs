//! A list of numbers that a helper is given and the rules work out
//! (`ordered(set_at(h, i, h[i] - k))`, a comprehension): made whole into a
//! tuple register before the helper's body runs, as the interpreter works
//! out every argument before the body, so that every error making it
//! meets is met here too and the position is handed back.

use super::{Compiler, Scope, Val, SOURCES};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Bind, MadeList, Num, Seq, Truth, Walk};
use crate::eval::engine::{Compiled, Unsupported};
use crate::eval::ir::{Ir, IrKind};
use crate::syntax::ast::BinaryOp;

impl Compiler<'_> {
    /// `arg` made into a tuple register for a list parameter (of natural
    /// numbers only, where `nat` is set), its bindings added to `binds`;
    /// `None` for a list not made so.
    pub(super) fn passed_list(
        &mut self,
        scope: &mut Scope,
        arg: &Ir,
        nat: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<Option<Val>> {
        let made = match &arg.kind {
            IrKind::Comprehension { .. } => {
                let made = self.made_list(scope, arg)?;
                MadeList {
                    element: self.checked(made.element, nat),
                    ..made
                }
            }
            IrKind::Builtin(Builtin::SetAt, a) => match &a[..] {
                [list, at, value] => self.set_at_made(scope, list, at, value, nat, binds)?,
                _ => return Ok(None),
            },
            IrKind::Builtin(Builtin::Slice, _) => match self.slice_made(scope, arg, nat)? {
                Some(made) => made,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        let tuple = made.tuple;
        binds.push(Bind::List(Box::new(made)));
        Ok(Some(Val::Tuple(tuple)))
    }

    /// `set_at(list, at, value)` of a list held in fields or a tuple
    /// register, element by element: the place and the value worked out
    /// first, and the element at the place read, so that a place off the
    /// list fails as the interpreter's `set_at` does.
    fn set_at_made(
        &mut self,
        scope: &mut Scope,
        list: &Ir,
        at: &Ir,
        value: &Ir,
        nat: bool,
        binds: &mut Vec<Bind>,
    ) -> Compiled<MadeList> {
        let refused = || Unsupported::new(SOURCES, list.span);
        let held = self.val(scope, list).ok_or_else(refused)?;
        let len = length_of(&held).ok_or_else(refused)?;
        let place = self.reg();
        let at = self.num(scope, at)?;
        binds.push(Bind::Num {
            reg: place,
            value: at,
            nat: false,
        });
        let new = self.reg();
        let value = self.num(scope, value)?;
        binds.push(Bind::Num {
            reg: new,
            value,
            nat,
        });
        let replaced = self.reg();
        binds.push(Bind::Num {
            reg: replaced,
            value: element_of(&held, Num::Reg(place)).ok_or_else(refused)?,
            nat: false,
        });
        let var = self.reg();
        let kept = element_of(&held, Num::Reg(var)).ok_or_else(refused)?;
        let here = Truth::Compare(BinaryOp::Eq, Num::Reg(var), Num::Reg(place));
        let each = Num::If(Box::new(here), Box::new(Num::Reg(new)), Box::new(kept));
        Ok(MadeList {
            tuple: self.tuple(),
            walk: Walk {
                var,
                over: Seq::Range(Num::Lit(0), len, false),
                guard: None,
            },
            element: self.checked(each, nat),
        })
    }

    /// `set_at(list, at, value)` walked by a generator: `set_at_made`,
    /// its bindings worked out again with each element, and the first
    /// element worked out even for an empty list, where the place is off
    /// the list and the interpreter's `set_at` fails.
    pub(super) fn set_at_walked(
        &mut self,
        scope: &mut Scope,
        (list, at, value): (&Ir, &Ir, &Ir),
    ) -> Compiled<MadeList> {
        let mut binds = Vec::new();
        let made = self.set_at_made(scope, list, at, value, false, &mut binds)?;
        let Seq::Range(lo, len, false) = made.walk.over else {
            return Err(Unsupported::new(SOURCES, list.span));
        };
        let element = binds
            .into_iter()
            .rev()
            .fold(made.element, |n, b| Num::Let(Box::new(b), Box::new(n)));
        Ok(MadeList {
            walk: Walk {
                over: Seq::Range(lo, Num::Max(vec![len, Num::Lit(1)]), false),
                ..made.walk
            },
            element,
            ..made
        })
    }

    /// `slice(list, from, to)` of a list held in fields or a tuple
    /// register, its ends moved inside the list as the interpreter moves
    /// them; `None` for a slice of anything else.
    pub(super) fn slice_made(
        &mut self,
        scope: &mut Scope,
        slice: &Ir,
        nat: bool,
    ) -> Compiled<Option<MadeList>> {
        let IrKind::Builtin(Builtin::Slice, a) = &slice.kind else {
            return Ok(None);
        };
        let [list, from, to] = &a[..] else {
            return Ok(None);
        };
        let Some(held) = self.val(scope, list).filter(|v| length_of(v).is_some()) else {
            return Ok(None);
        };
        let refused = || Unsupported::new(SOURCES, slice.span);
        let mut inside = |c: &mut Self, end: &Ir| -> Compiled<Num> {
            let end = c.num(scope, end)?;
            let len = length_of(&held).ok_or_else(refused)?;
            Ok(Num::Max(vec![Num::Min(vec![end, len]), Num::Lit(0)]))
        };
        let (lo, hi) = (inside(self, from)?, inside(self, to)?);
        let var = self.reg();
        let element = element_of(&held, Num::Reg(var)).ok_or_else(refused)?;
        Ok(Some(MadeList {
            tuple: self.tuple(),
            walk: Walk {
                var,
                over: Seq::Range(lo, hi, false),
                guard: None,
            },
            element: self.checked(element, nat),
        }))
    }

    /// `n`, checked to be natural where `nat` is set.
    fn checked(&mut self, n: Num, nat: bool) -> Num {
        if !nat {
            return n;
        }
        let reg = self.reg();
        let bind = Bind::Num {
            reg,
            value: n,
            nat: true,
        };
        Num::Let(Box::new(bind), Box::new(Num::Reg(reg)))
    }
}

/// Element `at` of a list held in fields or a tuple register.
fn element_of(list: &Val, at: Num) -> Option<Num> {
    match list {
        Val::List(f) => Some(Num::Field(*f, Box::new(at))),
        Val::Tuple(t) => Some(Num::TupleAt(*t, Box::new(at))),
        _ => None,
    }
}

/// The length of a list held in fields or a tuple register.
fn length_of(list: &Val) -> Option<Num> {
    match list {
        Val::List(f) => Some(Num::Lit(i64::from(f.len))),
        Val::Tuple(t) => Some(Num::TupleLen(*t)),
        _ => None,
    }
}
