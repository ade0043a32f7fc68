//! Who wins from each node of a graph, and how soon, by retrograde
//! analysis: a node with no options is lost at once; a node with an option
//! that is lost is won, one move later than the quickest such option; a
//! node whose options are all won is lost, one move later than the slowest;
//! whatever is never settled is a draw. A winner who always moves to a
//! lost node one move nearer the end wins, however the loser plays.

use super::graph::Graph;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// The player to move loses in this many moves.
    Lost(u32),
    /// The player to move wins in this many moves.
    Won(u32),
    Drawn,
}

pub fn analyse(graph: &Graph) -> Vec<Play> {
    let n = graph.size();
    let mut play = vec![Play::Drawn; n];
    let mut unsettled: Vec<u32> = graph.options.iter().map(|o| o.len() as u32).collect();
    // First in, first out: nodes are settled in the order of their
    // remoteness, so the first lost option found is the quickest and the
    // last won one the slowest.
    let mut queue = std::collections::VecDeque::new();
    for u in 0..n {
        if unsettled[u] == 0 {
            play[u] = Play::Lost(0);
            queue.push_back(u);
        }
    }
    while let Some(v) = queue.pop_front() {
        for &p in &graph.before[v] {
            let p = p as usize;
            if play[p] != Play::Drawn {
                continue;
            }
            match play[v] {
                Play::Lost(r) => {
                    play[p] = Play::Won(r + 1);
                    queue.push_back(p);
                }
                Play::Won(r) => {
                    unsettled[p] -= 1;
                    if unsettled[p] == 0 {
                        play[p] = Play::Lost(r + 1);
                        queue.push_back(p);
                    }
                }
                Play::Drawn => {}
            }
        }
    }
    play
}
