//! Games whose positions may repeat (declared `loopy game`): the graph of
//! positions a question reaches is explored within the state limit, then
//! labelled with Smith's generalised Sprague-Grundy values for values and
//! outcomes, and analysed backwards from its ends for winning play.

mod generalised;
mod graph;
mod remoteness;
mod smith;

pub use generalised::{Generalised, Outcome};
pub use graph::Graph;
pub use remoteness::Play;
pub use smith::{Labelling, Step};

use super::{MoveLabel, Rules, Solver, SumMove};
use crate::error::Error;
use crate::eval::PosId;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// The generalised values of single positions found so far.
#[derive(Default)]
pub struct Known {
    values: HashMap<PosId, Generalised>,
    /// Positions whose explored graph holds a game with a `lose if` rule,
    /// which may therefore not stand in a sum.
    reaches_lose: HashSet<PosId>,
}

impl Known {
    /// The generalised value of one position, found by labelling every
    /// position reachable from it.
    pub fn value(&mut self, rules: &mut dyn Rules, pos: PosId) -> Result<Generalised, Error> {
        if let Some(v) = self.values.get(&pos) {
            return Ok(v.clone());
        }
        let (graph, labelling) = label(rules, &[pos])?;
        // Any position of the graph may reach the `lose if` rule, as far
        // as this graph tells: each is refused in a sum.
        let lose = graph
            .nodes
            .iter()
            .any(|sum| sum.iter().any(|&c| rules.ends_whole_game(c)));
        for (sum, value) in graph.nodes.iter().zip(labelling.values) {
            if let [c] = **sum {
                if lose {
                    self.reaches_lose.insert(c);
                }
                self.values.insert(c, value);
            }
        }
        let root = &graph.nodes[Graph::ROOT as usize];
        match **root {
            [c] => Ok(self.values[&c].clone()),
            // The position is declared a sum of parts: its value is theirs.
            _ => {
                let parts = root.clone();
                let mut total = Generalised::Finite(0);
                for &c in parts.iter() {
                    total = total.plus(&self.value(rules, c)?);
                }
                Ok(total)
            }
        }
    }

    pub fn reaches_lose_rule(&self, pos: PosId) -> bool {
        self.reaches_lose.contains(&pos)
    }
}

/// The graph of every sum reachable from `sum`, labelled by Smith's rounds.
pub fn label(rules: &mut dyn Rules, sum: &[PosId]) -> Result<(Graph, Labelling), Error> {
    let graph = graph::explore(rules, sum)?;
    let labelling = smith::label(&graph)?;
    Ok((graph, labelling))
}

/// Every move from a sum that holds a loopy part, with the value of the sum
/// it leads to (by Smith's rule). A move is marked winning when it leads
/// to a lost position one move nearer the end than this one is won, found
/// by analysing the whole sum backwards: a move to a value of 0 alone
/// could let the loser go round for ever.
pub fn moves(
    solver: &mut Solver,
    rules: &mut dyn Rules,
    parts: &[PosId],
) -> Result<Vec<SumMove>, Error> {
    let graph = graph::explore(rules, parts)?;
    let play = remoteness::analyse(&graph);
    let here = play[Graph::ROOT as usize];
    let mut out = Vec::new();
    super::moves::each_move(rules, parts, true, |rules, i, m| {
        let result = super::moves::replace_part(parts, i, &m.result);
        let value = solver.general_value_of_sum(rules, &result)?;
        let node = graph::normalise(rules, &result)?;
        let there = graph.node_of(&node).map(|n| play[n as usize]);
        let winning = matches!((here, there), (Play::Won(r), Some(Play::Lost(s))) if s + 1 == r);
        out.push(SumMove {
            part: parts[i],
            label: m.label.clone().unwrap_or_else(MoveLabel::default),
            result: Arc::from(result),
            value,
            winning,
        });
        Ok(())
    })?;
    Ok(out)
}

/// Who wins a sum and how soon, and the same for each of the sums its
/// moves lead to (`results`), from the backward analysis of the whole sum
/// (not part by part): what `play` follows.
pub fn play(
    rules: &mut dyn Rules,
    parts: &[PosId],
    results: &[&[PosId]],
) -> Result<(Play, Vec<Play>), Error> {
    let graph = graph::explore(rules, parts)?;
    let play = remoteness::analyse(&graph);
    let mut after = Vec::with_capacity(results.len());
    for result in results {
        let node = graph::normalise(rules, result)?;
        // Every move's result is in the graph of where it was made.
        after.push(
            graph
                .node_of(&node)
                .map_or(Play::Drawn, |n| play[n as usize]),
        );
    }
    Ok((play[Graph::ROOT as usize], after))
}
