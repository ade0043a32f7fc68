//! Smith's labelling of a finite graph with generalised Sprague-Grundy
//! values, in rounds m = 0, 1, 2, ... (as Fraenkel and Yesha give it):
//!
//! 1. While some unlabelled position u has no option labelled m, and every
//!    option of u that is unlabelled or labelled ∞ has an option labelled
//!    m, label u with m (and with the next counter).
//! 2. Label ∞ every unlabelled position with no option labelled m: its
//!    options miss the value m, so it can have no finite value above m.
//! 3. If positions remain unlabelled, go on with m + 1.
//!
//! Every position labelled ∞ then gets the set K of its options' finite
//! values. The counter orders the positions of each value: from a
//! position of value m, every option with a larger value or ∞ has an
//! option of value m with a smaller counter, which is what makes a win
//! end.

use super::generalised::Generalised;
use super::graph::Graph;
use crate::error::Error;

const UNLABELLED: u32 = u32::MAX;
const INFINITE: u32 = u32::MAX - 1;

/// One labelling step, in the order the algorithm took them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The round, m.
    pub round: u32,
    pub node: u32,
    /// Labelled m (true) or ∞ (false).
    pub finite: bool,
}

pub struct Labelling {
    pub values: Vec<Generalised>,
    /// For a finite value, the order in which it was labelled.
    pub counters: Vec<u32>,
    pub steps: Vec<Step>,
}

pub fn label(graph: &Graph) -> Result<Labelling, Error> {
    let n = graph.size();
    let mut label = vec![UNLABELLED; n];
    let mut counters = vec![0u32; n];
    let mut steps = Vec::with_capacity(n);
    let mut left = n;
    let mut next_counter = 0u32;
    let mut round = 0u32;
    // Per round: how many options of a position are labelled m, and how
    // many of its unlabelled or infinite options still lack an option
    // labelled m.
    let mut has_m = vec![0u32; n];
    let mut need = vec![0u32; n];
    let mut queue = Vec::new();
    // Each round looks only at the positions still unlabelled, and resets
    // only the counts it raised, so that a game with large values does not
    // pay for every position in every round.
    let mut open: Vec<u32> = (0..n as u32).collect();
    let mut touched: Vec<u32> = Vec::new();
    // For each position, how many of its options have no finite value
    // yet: kept up to date as values are given, so that a round starts
    // without counting every option again.
    let mut unfinished: Vec<u32> = graph.options.iter().map(|o| o.len() as u32).collect();
    while left > 0 {
        if crate::interrupt::requested() {
            return Err(Error::new(
                crate::interrupt::stop_kind(),
                Default::default(),
            ));
        }
        for &p in &touched {
            has_m[p as usize] = 0;
        }
        touched.clear();
        open.retain(|&u| label[u as usize] == UNLABELLED);
        for &u in &open {
            let u = u as usize;
            need[u] = unfinished[u];
            if need[u] == 0 {
                queue.push(u as u32);
            }
        }
        while let Some(u) = queue.pop() {
            let u = u as usize;
            if label[u] != UNLABELLED || has_m[u] > 0 || need[u] > 0 {
                continue;
            }
            label[u] = round;
            counters[u] = next_counter;
            next_counter += 1;
            left -= 1;
            steps.push(Step {
                round,
                node: u as u32,
                finite: true,
            });
            for &p in &graph.before[u] {
                let p = p as usize;
                unfinished[p] -= 1;
                if has_m[p] == 0 {
                    touched.push(p as u32);
                }
                has_m[p] += 1;
                // An unlabelled or infinite option of the positions before
                // `p` now has an option labelled m.
                if has_m[p] == 1 && label[p] >= INFINITE {
                    for &q in &graph.before[p] {
                        let q = q as usize;
                        if label[q] == UNLABELLED {
                            need[q] -= 1;
                            if need[q] == 0 && has_m[q] == 0 {
                                queue.push(q as u32);
                            }
                        }
                    }
                }
            }
        }
        for &u in &open {
            let u = u as usize;
            if label[u] == UNLABELLED && has_m[u] == 0 {
                label[u] = INFINITE;
                left -= 1;
                steps.push(Step {
                    round,
                    node: u as u32,
                    finite: false,
                });
            }
        }
        round += 1;
    }
    let values = (0..n)
        .map(|u| match label[u] {
            INFINITE => Generalised::infinite(
                graph.options[u]
                    .iter()
                    .map(|&v| label[v as usize])
                    .filter(|&l| l < INFINITE)
                    .collect(),
            ),
            m => Generalised::Finite(m),
        })
        .collect();
    Ok(Labelling {
        values,
        counters,
        steps,
    })
}
