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
    let mut moves: Vec<Move> = Vec::new();
    for (i, &p) in parts.iter().enumerate() {
        // Equal components have the same moves, leading to the same sums.
        if i > 0 && parts[i - 1] == p {
            continue;
        }
        let others = total ^ solver.value(rules, p)?;
        moves.clear();
        rules.labelled_options(p, &mut moves)?;
        for m in &moves {
            let option = solver.value_of_sum(rules, &m.result)?;
            let result = replace_part(parts, i, &m.result);
            out.push(SumMove {
                part: p,
                label: m.label.clone().unwrap_or_default(),
                result: result.into(),
                value: (others ^ option).into(),
                winning: others ^ option == 0,
            });
        }
    }
    Ok(out)
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
