//! The graph of every sum reachable from a starting sum, found through the
//! rules' options (the one path every question takes to a position's
//! moves). A node is a whole sum, sorted, so that a move in one part and
//! positions that repeat both lead back to the same node.

use crate::error::{Error, ErrorKind};
use crate::eval::PosId;
use crate::solve::{Move, Rules};
use std::collections::HashMap;
use std::sync::Arc;

/// How many nodes are opened between looks at the stop request.
const LOOK_EVERY: usize = 256;

pub struct Graph {
    /// Each node's sum of components, sorted.
    pub nodes: Vec<Arc<[PosId]>>,
    /// Each node's options, as node numbers without repeats.
    pub options: Vec<Vec<u32>>,
    /// Each node's predecessors: the nodes that have it as an option.
    pub before: Vec<Vec<u32>>,
    index: HashMap<Arc<[PosId]>, u32>,
}

impl Graph {
    pub fn size(&self) -> usize {
        self.nodes.len()
    }

    /// The node of a sum (its parts normalised and sorted), if reached.
    pub fn node_of(&self, sum: &[PosId]) -> Option<u32> {
        self.index.get(sum).copied()
    }

    /// The node of the starting sum.
    pub const ROOT: u32 = 0;
}

/// Explores every sum reachable from `start`, up to the state limit.
pub fn explore(rules: &mut dyn Rules, start: &[PosId]) -> Result<Graph, Error> {
    let mut explorer = Explorer {
        index: HashMap::new(),
        nodes: Vec::new(),
        component_options: HashMap::new(),
        moves: Vec::new(),
    };
    let root = normalise(rules, start)?;
    explorer.node(rules, root)?;
    let mut options = Vec::new();
    let mut next = 0;
    while next < explorer.nodes.len() {
        if next.is_multiple_of(LOOK_EVERY) && crate::interrupt::requested() {
            return Err(Error::new(
                crate::interrupt::stop_kind(),
                Default::default(),
            ));
        }
        let sum = explorer.nodes[next].clone();
        let mut found = Vec::new();
        for (i, &c) in sum.iter().enumerate() {
            // Equal components have the same moves, leading to the same sums.
            if i > 0 && sum[i - 1] == c {
                continue;
            }
            for option in explorer.options_of(rules, c)?.iter() {
                let result = crate::solve::moves::replace_part(&sum, i, option);
                found.push(explorer.node(rules, result.into())?);
            }
        }
        found.sort_unstable();
        found.dedup();
        options.push(found);
        next += 1;
    }
    let mut before = vec![Vec::new(); options.len()];
    for (u, opts) in options.iter().enumerate() {
        for &v in opts {
            before[v as usize].push(u as u32);
        }
    }
    Ok(Graph {
        nodes: explorer.nodes,
        options,
        before,
        index: explorer.index,
    })
}

struct Explorer {
    index: HashMap<Arc<[PosId]>, u32>,
    nodes: Vec<Arc<[PosId]>>,
    /// Each component's options, each already a normalised list of parts:
    /// a component turns up in many sums.
    component_options: HashMap<PosId, Arc<[Arc<[PosId]>]>>,
    moves: Vec<Move>,
}

impl Explorer {
    /// The number of a sum's node, made if new.
    fn node(&mut self, rules: &mut dyn Rules, sum: Arc<[PosId]>) -> Result<u32, Error> {
        if let Some(&n) = self.index.get(&sum) {
            return Ok(n);
        }
        if self.nodes.len() >= rules.max_states() {
            return Err(Error::new(
                ErrorKind::StateLimit {
                    limit: rules.max_states(),
                },
                Default::default(),
            ));
        }
        if sum.len() >= 2 {
            if let Some(&c) = sum.iter().find(|&&c| rules.ends_whole_game(c)) {
                return Err(Error::new(
                    ErrorKind::TerminalInSum {
                        game: rules.game_name(c),
                    },
                    Default::default(),
                ));
            }
        }
        let n = self.nodes.len() as u32;
        self.index.insert(sum.clone(), n);
        self.nodes.push(sum);
        Ok(n)
    }

    fn options_of(
        &mut self,
        rules: &mut dyn Rules,
        c: PosId,
    ) -> Result<Arc<[Arc<[PosId]>]>, Error> {
        if let Some(known) = self.component_options.get(&c) {
            return Ok(known.clone());
        }
        self.moves.clear();
        rules.options(c, &mut self.moves)?;
        let results = self
            .moves
            .iter()
            .map(|m| normalise(rules, &m.result))
            .collect::<Result<Vec<_>, _>>()?;
        let results: Arc<[Arc<[PosId]>]> = results.into();
        self.component_options.insert(c, results.clone());
        Ok(results)
    }
}

/// A sum with every component that is declared a sum of parts replaced by
/// those parts, sorted.
pub fn normalise(rules: &mut dyn Rules, sum: &[PosId]) -> Result<Arc<[PosId]>, Error> {
    let mut done = Vec::new();
    let mut todo = sum.to_vec();
    let mut steps = 0usize;
    while let Some(c) = todo.pop() {
        match rules.parts(c)? {
            Some(parts) if !(parts.len() == 1 && parts[0] == c) => {
                steps += parts.len();
                if steps > rules.max_states() {
                    return Err(Error::new(
                        ErrorKind::StateLimit {
                            limit: rules.max_states(),
                        },
                        Default::default(),
                    ));
                }
                todo.extend_from_slice(&parts);
            }
            _ => done.push(c),
        }
    }
    done.sort_unstable();
    Ok(done.into())
}
