//! The moves of a sum, found part by part: a move changes one component,
//! and the value of the result is the total with that component's value
//! swapped for its option's.

use super::{Move, MoveLabel, Rules, Solver};
use crate::error::Error;
use crate::eval::PosId;
use std::sync::Arc;

/// One move from a sum.
#[derive(Clone, Debug)]
pub struct SumMove {
    /// The component the move is made in.
    pub part: PosId,
    /// How the move is named in that component's rules.
    pub label: MoveLabel,
    /// The whole sum after the move.
    pub result: Arc<[PosId]>,
    /// The value of `result`: its Grundy value, or a generalised one
    /// where loopy games are played.
    pub value: super::loopy::Generalised,
    /// Whether the move wins: it leads to a P-position, and where
    /// positions may repeat, one nearer the end.
    pub winning: bool,
}

pub fn all(
    solver: &mut Solver,
    rules: &mut dyn Rules,
    parts: &[PosId],
) -> Result<Vec<SumMove>, Error> {
    let total = solver.value_of_sum(rules, parts)?;
    let mut out = Vec::new();
    each_move(rules, parts, true, |rules, i, m| {
        let others = total ^ solver.value(rules, parts[i])?;
        let option = solver.value_of_sum(rules, &m.result)?;
        out.push(SumMove {
            part: parts[i],
            label: m.label.clone().unwrap_or_default(),
            result: replace_part(parts, i, &m.result).into(),
            value: (others ^ option).into(),
            winning: others ^ option == 0,
        });
        Ok(())
    })?;
    Ok(out)
}

/// The sums one move leads to, without their values: listing them needs
/// no search, so `moves(p)` of a position whose game is too large to
/// solve still answers.
pub fn results(rules: &mut dyn Rules, parts: &[PosId]) -> Result<Vec<Vec<PosId>>, Error> {
    let mut out = Vec::new();
    each_move(rules, parts, false, |_, i, m| {
        out.push(replace_part(parts, i, &m.result));
        Ok(())
    })?;
    Ok(out)
}

/// Calls `f` with each move of a sum: the index of the part it is made
/// in, and the move in that part. Equal parts have the same moves, leading
/// to the same sums, so only the first of them is moved in.
pub fn each_move(
    rules: &mut dyn Rules,
    parts: &[PosId],
    labelled: bool,
    mut f: impl FnMut(&mut dyn Rules, usize, &Move) -> Result<(), Error>,
) -> Result<(), Error> {
    let mut moves: Vec<Move> = Vec::new();
    for (i, &p) in parts.iter().enumerate() {
        if i > 0 && parts[i - 1] == p {
            continue;
        }
        moves.clear();
        if labelled {
            rules.labelled_options(p, &mut moves)?;
        } else {
            rules.options(p, &mut moves)?;
        }
        for m in &moves {
            f(rules, i, m)?;
        }
    }
    Ok(())
}

/// A sum with its part `i` replaced by `with` (the result of a move in that
/// part), sorted.
pub fn replace_part(parts: &[PosId], i: usize, with: &[PosId]) -> Vec<PosId> {
    let mut result = parts.to_vec();
    result.remove(i);
    result.extend_from_slice(with);
    result.sort_unstable();
    result
}
