//! A game of several parameters with all but one fixed, rewritten as a
//! heap game of its free one, so that `Subtract({1, 4, 5}, _)` is read as
//! arithmetic (and its period proven) exactly as a game written with the
//! constant set is.
//!
//! A move to the same game with other fixed arguments cannot be rewritten:
//! it gives `None`, and the table is computed the plain way.

use crate::eval::ir::{CompIr, GameIr, GameKind, GenIr, Ir, IrKind, MoveIr, Param};
use crate::eval::Value;

/// The game with the arguments `args` fixed except at `free`: its heap in
/// slot 0, the fixed parameters as literals, and each move to the same
/// game with the same fixed arguments as a move to a heap.
pub fn specialise(game: &GameIr, id: u32, args: &[Value], free: usize) -> Option<GameIr> {
    let GameKind::Rules {
        moves,
        lose: None,
        parts: None,
    } = &game.kind
    else {
        return None;
    };
    let rewriter = Rewriter { id, args, free };
    let moves = moves
        .iter()
        .map(|m| {
            Some(MoveIr {
                name: m.name.clone(),
                generators: m
                    .generators
                    .iter()
                    .map(|g| rewriter.generator(g))
                    .collect::<Option<_>>()?,
                guard: rewriter.optional(&m.guard)?,
                result: rewriter.ir(&m.result)?,
                span: m.span,
            })
        })
        .collect::<Option<_>>()?;
    let heap = game.params.get(free)?;
    Some(GameIr {
        params: vec![Param {
            name: heap.name.clone(),
            ty: heap.ty.clone(),
            span: heap.span,
        }],
        kind: GameKind::Rules {
            moves,
            lose: None,
            parts: None,
        },
        // The images are positions of the game of every parameter.
        symmetry: None,
        ..game.clone()
    })
}

struct Rewriter<'a> {
    id: u32,
    args: &'a [Value],
    free: usize,
}

impl Rewriter<'_> {
    fn ir(&self, ir: &Ir) -> Option<Ir> {
        let kind = match &ir.kind {
            IrKind::Lit(v) => IrKind::Lit(v.clone()),
            IrKind::Const(c) => IrKind::Const(*c),
            IrKind::Local(s) => self.local(*s),
            IrKind::Binary(op, l, r) => IrKind::Binary(*op, self.boxed(l)?, self.boxed(r)?),
            IrKind::Unary(op, x) => IrKind::Unary(*op, self.boxed(x)?),
            IrKind::If(c, t, e) => IrKind::If(self.boxed(c)?, self.boxed(t)?, self.boxed(e)?),
            IrKind::Index(x, i) => IrKind::Index(self.boxed(x)?, self.boxed(i)?),
            IrKind::List(items) => IrKind::List(self.irs(items)?),
            // Read by labels: an element of a tuple a pattern takes apart.
            IrKind::Set(items) => IrKind::Set(self.irs(items)?),
            IrKind::Tuple(items) => IrKind::Tuple(self.irs(items)?),
            // A helper's body has its own frame: only its arguments change.
            IrKind::CallFn(f, args) => IrKind::CallFn(*f, self.irs(args)?),
            IrKind::Builtin(b, args) => IrKind::Builtin(*b, self.irs(args)?),
            IrKind::Comprehension { element, clauses } => IrKind::Comprehension {
                element: self.boxed(element)?,
                clauses: clauses
                    .iter()
                    .map(|c| {
                        Some(CompIr {
                            generator: self.generator(&c.generator)?,
                            guard: self.optional(&c.guard)?,
                        })
                    })
                    .collect::<Option<_>>()?,
            },
            IrKind::MakePos(g, args) if *g == self.id => {
                // The same game with the same fixed arguments: a heap.
                let same = args.iter().enumerate().all(|(i, arg)| {
                    i == self.free || matches!(arg.kind, IrKind::Local(s) if s as usize == i)
                });
                if !same || args.len() != self.args.len() {
                    return None;
                }
                IrKind::MakePos(*g, vec![self.ir(&args[self.free])?])
            }
            IrKind::MakePos(g, args) => IrKind::MakePos(*g, self.irs(args)?),
        };
        Some(Ir {
            kind,
            span: ir.span,
        })
    }

    fn boxed(&self, ir: &Ir) -> Option<Box<Ir>> {
        self.ir(ir).map(Box::new)
    }

    fn optional(&self, ir: &Option<Ir>) -> Option<Option<Ir>> {
        match ir {
            Some(ir) => Some(Some(self.ir(ir)?)),
            None => Some(None),
        }
    }

    fn generator(&self, g: &GenIr) -> Option<GenIr> {
        Some(GenIr {
            slot: g.slot,
            source: self.ir(&g.source)?,
            shown: g
                .shown
                .iter()
                .map(|(name, read)| Some((name.clone(), self.ir(read)?)))
                .collect::<Option<_>>()?,
        })
    }

    fn irs(&self, irs: &[Ir]) -> Option<Vec<Ir>> {
        irs.iter().map(|ir| self.ir(ir)).collect()
    }

    /// The heap moves to slot 0 and slot 0 to where the heap was; the
    /// fixed parameters become their values.
    fn local(&self, slot: u32) -> IrKind {
        let s = slot as usize;
        if s == self.free {
            IrKind::Local(0)
        } else if s < self.args.len() {
            IrKind::Lit(self.args[s].clone())
        } else {
            IrKind::Local(slot)
        }
    }
}
