//! Tests of a guard made as soon as the generators they read are set:
//! in Mock Turtles' `move three(i in indices(row), j in 0..i, k in 0..j)
//! if row[i] == "H"`, the guard reads `i` alone, and tested there it
//! spares the walk over `j` and `k` for every tail. Only a prefix of the
//! guard's `and` chain moves (so the conjuncts keep their order), and only
//! past generators that cannot fail: skipping them must not skip an error
//! the interpreter would report. A test that fails early is at worst a
//! question given back to the interpreter, never a different answer.

use super::code::{Num, Seq, Source};
use super::compile::children;
use crate::eval::ir::{GenIr, Ir, IrKind};
use crate::syntax::ast::BinaryOp;

/// Whether walking a generator's source can fail (an overflow, an index
/// out of range): a range between literals and variables, or a list,
/// tuple or set held in a register, cannot.
pub fn cannot_fail(source: &Source) -> bool {
    let plain = |n: &Num| matches!(n, Num::Lit(_) | Num::Reg(_));
    match source {
        Source::Each(Seq::Range(lo, hi, _)) => plain(lo) && plain(hi),
        Source::Each(Seq::Fields(_) | Seq::Tuple(_) | Seq::Items(_) | Seq::Members(..)) => true,
        _ => false,
    }
}

/// The guard's conjuncts to test after each generator (by its place), and
/// those left for the end.
pub fn split<'i>(
    generators: &[GenIr],
    guard: &'i Ir,
    safe: &[bool],
) -> (Vec<Vec<&'i Ir>>, Vec<&'i Ir>) {
    let mut conjuncts = Vec::new();
    and_chain(guard, &mut conjuncts);
    let mut early = vec![Vec::new(); generators.len()];
    let mut level = 0;
    let mut moved = 0;
    for c in &conjuncts {
        level = level.max(last_generator_read(c, generators));
        let inner = level + 1..generators.len();
        if inner.is_empty() || !safe[inner].iter().all(|&s| s) {
            break;
        }
        early[level].push(*c);
        moved += 1;
    }
    (early, conjuncts[moved..].to_vec())
}

/// `a and b and c` as `[a, b, c]`, in the order they are tested.
fn and_chain<'i>(ir: &'i Ir, out: &mut Vec<&'i Ir>) {
    match &ir.kind {
        IrKind::Binary(BinaryOp::And, l, r) => {
            and_chain(l, out);
            and_chain(r, out);
        }
        _ => out.push(ir),
    }
}

/// The place of the last generator whose variable `ir` reads (0 if none).
fn last_generator_read(ir: &Ir, generators: &[GenIr]) -> usize {
    let mut last = 0;
    if let IrKind::Local(s) = ir.kind {
        if let Some(d) = generators.iter().position(|g| g.slot == s) {
            last = d;
        }
    }
    children(ir, |child| {
        last = last.max(last_generator_read(child, generators))
    });
    last
}
