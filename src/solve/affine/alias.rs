//! A heap game given as another game at a shifted heap with its other
//! arguments fixed (`game Sub(n: nat) = Subtract({1, 3, 4}, n)`, `game
//! DawsonsChess(n: nat) = Pins(n + 1)`): its table is the other game's,
//! read from the shift on.

use crate::eval::ir::{GameIr, GameKind, Ir, IrKind};
use crate::types::Type;

/// Where an alias's heap goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AliasHeap {
    /// The game the alias names.
    pub target: u32,
    /// The argument the heap is given as.
    pub free: usize,
    /// The heap there is the alias's heap plus this.
    pub offset: usize,
}

/// The most a heap may be shifted by (the table is that much longer).
const MOST_OFFSET: i64 = 1 << 16;

/// The alias's heap, if the game is one heap (`nat`) given as one position
/// of another game whose one argument is the heap or the heap plus a
/// constant, the others free of the heap.
pub fn alias_heap(game: &GameIr) -> Option<AliasHeap> {
    let (GameKind::Alias(ir), [param]) = (&game.kind, game.params.as_slice()) else {
        return None;
    };
    let IrKind::MakePos(target, args) = &ir.kind else {
        return None;
    };
    if param.ty != Type::Nat {
        return None;
    }
    let mut heap = None;
    for (i, arg) in args.iter().enumerate() {
        if !uses_locals(arg) {
            continue;
        }
        let offset = heap_plus(arg)?;
        if heap.is_some() || !(0..=MOST_OFFSET).contains(&offset) {
            return None;
        }
        heap = Some(AliasHeap {
            target: *target,
            free: i,
            offset: offset as usize,
        });
    }
    heap
}

/// `c` for an argument written `n`, `n + c` or `c + n`.
fn heap_plus(ir: &Ir) -> Option<i64> {
    use crate::syntax::ast::BinaryOp::Add;
    match &ir.kind {
        IrKind::Local(0) => Some(0),
        IrKind::Binary(Add, l, r) => match (&l.kind, &r.kind) {
            (IrKind::Local(0), IrKind::Lit(crate::eval::Value::Int(c)))
            | (IrKind::Lit(crate::eval::Value::Int(c)), IrKind::Local(0)) => Some(*c),
            _ => None,
        },
        _ => None,
    }
}

/// Whether an expression reads a variable (the heap, or a comprehension's).
fn uses_locals(ir: &Ir) -> bool {
    let any = |irs: &[Ir]| irs.iter().any(uses_locals);
    match &ir.kind {
        IrKind::Local(_) => true,
        IrKind::Lit(_) | IrKind::Const(_) => false,
        IrKind::CallFn(_, args)
        | IrKind::MakePos(_, args)
        | IrKind::Builtin(_, args)
        | IrKind::List(args)
        | IrKind::Set(args)
        | IrKind::Tuple(args) => any(args),
        IrKind::Comprehension { .. } => true,
        IrKind::If(c, t, e) => uses_locals(c) || uses_locals(t) || uses_locals(e),
        IrKind::Unary(_, x) => uses_locals(x),
        IrKind::Binary(_, l, r) | IrKind::Index(l, r) => uses_locals(l) || uses_locals(r),
    }
}
