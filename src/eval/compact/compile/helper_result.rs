//! A move's result that a helper makes (`=> after(h, c, t)` with `fn
//! after(h: [nat], c: nat, t: nat) = Chomp([...])`, or `=> W(x - k, y)`
//! with `fn W(a: nat, b: nat) = Wythoff(a, b)`) read as the helper's body
//! with the arguments put in its parameters' places, so that the rule is
//! compiled as the one written without the helper.
//!
//! That is the same rule only where putting an argument in place changes
//! nothing the interpreter does at the call: each argument is worked out
//! (and checked against its parameter's type) whatever the body does. So
//! an argument is put in place where it is a variable or a literal that
//! already has its parameter's type (a parameter of the game of the same
//! type, a number a generator takes from `indices` or a range from a
//! natural literal, a literal), or where the body's position takes the
//! parameter itself as an argument of the same type of number, truth
//! value or string: making the position works the argument out and checks
//! it as the call did. Any other call is compiled as a call.

use crate::eval::ir::{GenIr, Ir, IrKind, MoveIr, Program};
use crate::eval::value::Value;
use crate::types::Type;

/// Helpers called within helpers put in place, at most.
const MOST_DEEP: u32 = 8;

/// `m` with the helpers that make its result put in place, where any is;
/// the frame grows by the slots the helpers' bodies use of their own.
pub fn inlined(m: &MoveIr, program: &Program, game: u32, frame: &mut usize) -> Option<MoveIr> {
    let mut rule = m.clone();
    let at = Inliner {
        program,
        game,
        generators: &m.generators,
    };
    at.result(&mut rule.result, frame, 0).then_some(rule)
}

struct Inliner<'p> {
    program: &'p Program,
    game: u32,
    generators: &'p [GenIr],
}

impl Inliner<'_> {
    /// Puts in place the helpers that make `ir`, a result: itself, or the
    /// branches of its `if`s. Whether any was.
    fn result(&self, ir: &mut Ir, frame: &mut usize, depth: u32) -> bool {
        match &mut ir.kind {
            IrKind::If(_, then, otherwise) => {
                let a = self.result(then, frame, depth);
                self.result(otherwise, frame, depth) || a
            }
            IrKind::CallFn(f, args) if depth < MOST_DEEP => {
                let Some(body) = self.body(*f, args, frame) else {
                    return false;
                };
                *ir = body;
                self.result(ir, frame, depth + 1);
                true
            }
            _ => false,
        }
    }

    /// Helper `f`'s body with `args` in its parameters' places and its own
    /// slots moved past the frame, where that is the call (see the
    /// module's header).
    fn body(&self, f: u32, args: &[Ir], frame: &mut usize) -> Option<Ir> {
        let func = self.program.functions.get(f as usize)?;
        if func.params.len() != args.len() {
            return None;
        }
        let makes_position = matches!(
            func.body.kind,
            IrKind::MakePos(g, _) if g == self.game
        ) || matches!(func.body.kind, IrKind::If(..) | IrKind::CallFn(..));
        if !makes_position {
            return None;
        }
        let taken = self.taken(f, 0);
        let ready = args
            .iter()
            .zip(&func.params)
            .enumerate()
            .all(|(i, (a, p))| taken.get(i) == Some(&true) || self.fits(a, &p.ty));
        if !ready {
            return None;
        }
        let own = func.params.len() as u32;
        let base = *frame as u32;
        *frame += func.frame_size.saturating_sub(func.params.len());
        let mut body = func.body.clone();
        put_in(&mut body, args, (own, base));
        Some(body)
    }

    /// Which of helper `f`'s parameters its position takes as they are,
    /// as arguments of the same type of number, truth value or string,
    /// which making the position checks as the call did: in a body that
    /// makes the position, or calls a helper that does with parameters
    /// as they are (`fn Q(a: nat, b: nat) = P(a, b)`).
    fn taken(&self, f: u32, depth: u32) -> Vec<bool> {
        let Some(func) = self.program.functions.get(f as usize) else {
            return Vec::new();
        };
        let scalar = |ty: &Type| matches!(ty, Type::Nat | Type::Int | Type::Bool | Type::Str);
        let own = |a: &Ir, i: usize| matches!(a.kind, IrKind::Local(s) if s as usize == i);
        let params = &func.params;
        match &func.body.kind {
            IrKind::MakePos(g, made) if *g == self.game => {
                let game = &self.program.games[*g as usize];
                (0..params.len())
                    .map(|i| {
                        made.iter()
                            .zip(&game.params)
                            .any(|(a, p)| own(a, i) && p.ty == params[i].ty && scalar(&p.ty))
                    })
                    .collect()
            }
            IrKind::CallFn(g, passed) if depth < MOST_DEEP => {
                let Some(callee) = self.program.functions.get(*g as usize) else {
                    return Vec::new();
                };
                let inner = self.taken(*g, depth + 1);
                (0..params.len())
                    .map(|i| {
                        passed.iter().enumerate().any(|(j, a)| {
                            own(a, i)
                                && inner.get(j) == Some(&true)
                                && callee.params.get(j).map(|p| &p.ty) == Some(&params[i].ty)
                        })
                    })
                    .collect()
            }
            _ => Vec::new(),
        }
    }

    /// Whether `a` is a variable or literal that already has type `ty`.
    fn fits(&self, a: &Ir, ty: &Type) -> bool {
        let params = self
            .program
            .games
            .get(self.game as usize)
            .map_or(&[][..], |g| &g.params[..]);
        match (&a.kind, ty) {
            (_, Type::Unknown) => matches!(a.kind, IrKind::Local(_) | IrKind::Lit(_)),
            (IrKind::Lit(Value::Int(v)), Type::Nat) => *v >= 0,
            (IrKind::Lit(Value::Int(_)), Type::Int) | (IrKind::Lit(Value::Bool(_)), Type::Bool) => {
                true
            }
            (IrKind::Local(s), ty) => {
                let s = *s as usize;
                if s < params.len() {
                    return params[s].ty == *ty;
                }
                matches!(ty, Type::Nat | Type::Int) && self.natural_generator(s as u32)
            }
            _ => false,
        }
    }

    /// Whether slot `s` is a generator's number taken from `indices` or
    /// from a range that starts at a natural literal.
    fn natural_generator(&self, s: u32) -> bool {
        self.generators.iter().any(|g| {
            g.slot == s
                && match &g.source.kind {
                    IrKind::Builtin(crate::eval::builtins::Builtin::Indices, _) => true,
                    IrKind::Binary(
                        crate::syntax::ast::BinaryOp::RangeExclusive
                        | crate::syntax::ast::BinaryOp::RangeInclusive,
                        lo,
                        _,
                    ) => matches!(lo.kind, IrKind::Lit(Value::Int(v)) if v >= 0),
                    _ => false,
                }
        })
    }
}

/// `ir`, a helper's code, with `args` where it reads its `own` parameters
/// and its other slots moved up to start at `base`. The arguments are the
/// caller's code, put in as they are.
fn put_in(ir: &mut Ir, args: &[Ir], (own, base): (u32, u32)) {
    let moved = |s: u32| base + (s - own);
    if let IrKind::Local(s) = ir.kind {
        if s < own {
            *ir = args[s as usize].clone();
        } else {
            ir.kind = IrKind::Local(moved(s));
        }
        return;
    }
    match &mut ir.kind {
        IrKind::Comprehension { element, clauses } => {
            put_in(element, args, (own, base));
            for c in clauses {
                let g = &mut c.generator;
                if g.slot >= own {
                    g.slot = moved(g.slot);
                }
                put_in(&mut g.source, args, (own, base));
                for (_, shown) in &mut g.shown {
                    put_in(shown, args, (own, base));
                }
                if let Some(guard) = &mut c.guard {
                    put_in(guard, args, (own, base));
                }
            }
        }
        _ => super::children_mut(ir, |child| put_in(child, args, (own, base))),
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::compact::testing::{compiled, inside, same_options};

    /// The compiled rules of the game, as text: what a helper put in
    /// place must leave as the rule written without it.
    fn rules(source: &str, position: &str) -> String {
        let (game, _) = compiled(source, position, true);
        format!("{:?}", inside(&*game).code.rules)
    }

    const CHOMP: &str = include_str!("../../../../bench/games/chomp-heights.game");

    #[test]
    fn a_helper_that_makes_the_result_compiles_as_the_result_written_out() {
        let helper = "fn after(h: [nat], c: nat, t: nat) = \
            Chomp([if j < c then h[j] else min(h[j], t) for j in indices(h)]);\n\
            game Chomp(h: [nat]) {\n  move eat(c in indices(h), t in 0..h[c]) if c > 0 or t > 0 \
            => after(h, c, t);\n}\n";
        let position = "Chomp([4, 3, 3, 1])";
        assert_eq!(rules(helper, position), rules(CHOMP, position));
        assert_eq!(
            same_options(helper, position),
            same_options(CHOMP, position)
        );
        let plain = "game W(x: nat, y: nat) {\n  move a(k in 1..=x) => W(x - k, y);\n  \
            move b(k in 1..=y) => if k > 2 then W(x, y - k) else W(x, y - k);\n}\n";
        let helper = "fn P(a: nat, b: nat) = W(a, b);\nfn Q(a: nat, b: nat) = P(a, b);\n\
            game W(x: nat, y: nat) {\n  move a(k in 1..=x) => Q(x - k, y);\n  \
            move b(k in 1..=y) => if k > 2 then P(x, y - k) else W(x, y - k);\n}\n";
        assert_eq!(rules(helper, "W(5, 4)"), rules(plain, "W(5, 4)"));
        assert_eq!(same_options(helper, "W(5, 4)"), 30);
    }

    #[test]
    fn a_helper_whose_arguments_may_fail_unread_stays_a_call() {
        // `a` is not given to the position as it is: `x - k` must be
        // checked to be natural at the call, which is kept.
        let kept = "fn P(a: nat, b: nat) = W(min(a, b), max(a, b));\n\
            game W(x: nat, y: nat) {\n  move a(k in 1..=x) => P(x - k, y);\n}\n";
        let written = "game W(x: nat, y: nat) {\n  \
            move a(k in 1..=x) => W(min(x - k, y), max(x - k, y));\n}\n";
        assert_ne!(rules(kept, "W(5, 4)"), rules(written, "W(5, 4)"));
        assert!(same_options(kept, "W(5, 4)") > 5);
    }
}
