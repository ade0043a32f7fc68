//! Loopy games against an independent analysis.
//!
//! Random directed graphs (with cycles, self-loops and repeated edges) are
//! written as `.game` files, a token on each declared `loopy`, next to an
//! ordinary Nim heap. For random sums of tokens on two graphs and a heap,
//! the outcome grundy derives from the generalised values (part by part, by
//! Smith's rule) must equal the outcome found here by a plain retrograde
//! win/lose/draw analysis of the whole sum, on every position the sum can
//! reach. The analysis below reads the graphs' edge lists directly and
//! knows nothing of values. Every move grundy marks winning must lead to a
//! position that analysis finds lost, one move nearer the end.

use grundy::session::Session;
use grundy::solve::loopy::{Generalised, Outcome};
use proptest::prelude::*;
use std::collections::{HashMap, VecDeque};

/// A part of a sum: a token on graph 0 or 1 at a vertex, or a heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Part {
    Token(usize, usize),
    Heap(usize),
}

type State = Vec<Part>;

fn options(graphs: &[Vec<Vec<usize>>; 2], state: &State) -> Vec<State> {
    let mut out = Vec::new();
    for (i, part) in state.iter().enumerate() {
        let replaced: Vec<Part> = match *part {
            Part::Token(g, v) => graphs[g][v].iter().map(|&w| Part::Token(g, w)).collect(),
            Part::Heap(h) => (0..h).map(Part::Heap).collect(),
        };
        for new in replaced {
            let mut next = state.clone();
            next[i] = new;
            next.sort_unstable();
            out.push(next);
        }
    }
    out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Play {
    Lost(u32),
    Won(u32),
    Drawn,
}

/// Every state reachable from `start`, with who wins from it: a state with
/// no moves is lost; one with a lost option is won; one whose options are
/// all won is lost; the rest are draws.
fn retrograde(graphs: &[Vec<Vec<usize>>; 2], start: &State) -> HashMap<State, Play> {
    let mut index: HashMap<State, usize> = HashMap::new();
    let mut states = vec![start.clone()];
    index.insert(start.clone(), 0);
    let mut succ: Vec<Vec<usize>> = Vec::new();
    let mut i = 0;
    while i < states.len() {
        let mut mine = Vec::new();
        for next in options(graphs, &states[i]) {
            let n = *index.entry(next.clone()).or_insert_with(|| {
                states.push(next);
                states.len() - 1
            });
            mine.push(n);
        }
        succ.push(mine);
        i += 1;
    }
    let mut pred = vec![Vec::new(); states.len()];
    for (u, s) in succ.iter().enumerate() {
        for &v in s {
            pred[v].push(u);
        }
    }
    let mut play = vec![Play::Drawn; states.len()];
    let mut left: Vec<usize> = succ.iter().map(Vec::len).collect();
    let mut queue = VecDeque::new();
    for u in 0..states.len() {
        if left[u] == 0 {
            play[u] = Play::Lost(0);
            queue.push_back(u);
        }
    }
    while let Some(v) = queue.pop_front() {
        for &p in &pred[v] {
            if play[p] != Play::Drawn {
                continue;
            }
            match play[v] {
                Play::Lost(r) => {
                    play[p] = Play::Won(r + 1);
                    queue.push_back(p);
                }
                Play::Won(r) => {
                    left[p] -= 1;
                    if left[p] == 0 {
                        play[p] = Play::Lost(r + 1);
                        queue.push_back(p);
                    }
                }
                Play::Drawn => {}
            }
        }
    }
    states.into_iter().zip(play).collect()
}

const NAMES: [&str; 2] = ["Token", "Other"];

fn source(graphs: &[Vec<Vec<usize>>; 2]) -> String {
    let mut text = String::new();
    for (g, edges) in graphs.iter().enumerate() {
        let lists: Vec<String> = edges
            .iter()
            .map(|e| {
                let items: Vec<String> = e.iter().map(usize::to_string).collect();
                format!("[{}]", items.join(", "))
            })
            .collect();
        text.push_str(&format!(
            "const EDGES_{g} = [{}];\nloopy game {}(v: nat) {{\n  move slide(w in EDGES_{g}[v]) => {}(w);\n}}\n",
            lists.join(", "),
            NAMES[g],
            NAMES[g],
        ));
    }
    text.push_str("game Heap(n: nat) {\n  move take(k in 1..=n) => Heap(n - k);\n}\n");
    text
}

fn show(state: &State) -> String {
    if state.is_empty() {
        return "0".into();
    }
    let parts: Vec<String> = state
        .iter()
        .map(|p| match *p {
            Part::Token(g, v) => format!("{}({v})", NAMES[g]),
            Part::Heap(h) => format!("Heap({h})"),
        })
        .collect();
    parts.join(" + ")
}

/// A graph of 1 to 6 vertices, each with up to three edges out.
fn graph() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (1usize..=6).prop_flat_map(|n| prop::collection::vec(prop::collection::vec(0..n, 0..=3), n))
}

/// Checks every state reachable from `start`: grundy's outcome against the
/// retrograde one, and its winning moves against the remoteness.
fn agree(graphs: &[Vec<Vec<usize>>; 2], start: &State) -> Result<(), TestCaseError> {
    let mut session = Session::new();
    session
        .load_text("random.game", &source(graphs))
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let truth = retrograde(graphs, start);
    // Each state as grundy's parts, to look up where a move leads.
    let mut by_parts = HashMap::new();
    for (state, play) in &truth {
        let parts = session.position(&show(state)).expect("a position");
        by_parts.insert(parts.to_vec(), *play);
    }
    for (state, play) in &truth {
        let text = show(state);
        let parts = session.position(&text).expect("a position");
        let value = session.general_value(&parts).expect("a value");
        let expected = match play {
            Play::Won(_) => Outcome::N,
            Play::Lost(_) => Outcome::P,
            Play::Drawn => Outcome::D,
        };
        prop_assert_eq!(
            value.outcome(),
            expected,
            "{} has value {} in\n{}",
            &text,
            &value,
            source(graphs)
        );
        let moves = session.moves(&parts).expect("moves");
        for m in moves.iter().filter(|m| m.winning) {
            let shown = session.show_sum(&m.result);
            match (play, by_parts.get(&m.result[..])) {
                (Play::Won(r), Some(Play::Lost(s))) => {
                    prop_assert_eq!(s + 1, *r, "{} -> {}", &text, &shown)
                }
                other => prop_assert!(false, "{} -> {} marked winning: {:?}", text, shown, other),
            }
        }
        // A won position has a winning move.
        if let Play::Won(_) = play {
            prop_assert!(
                moves.iter().any(|m| m.winning),
                "{} has no winning move",
                text
            );
        }
    }
    Ok(())
}

/// The conditions that define the generalised values (Winning Ways,
/// chapter 12), checked on a token at every vertex of a graph: a finite
/// value m is the mex of the finite values of the options, and every
/// option of larger or infinite value has an option of value m (the
/// opponent's escape can be reversed); an infinite value's set is exactly
/// the finite values of the options.
fn values_satisfy_the_definition(graph: &[Vec<usize>]) -> Result<(), TestCaseError> {
    let graphs = [graph.to_vec(), vec![vec![]]];
    let mut session = Session::new();
    session
        .load_text("random.game", &source(&graphs))
        .map_err(|e| TestCaseError::fail(format!("{e:?}")))?;
    let values: Vec<Generalised> = (0..graph.len())
        .map(|v| {
            let parts = session
                .position(&format!("Token({v})"))
                .expect("a position");
            session.general_value(&parts).expect("a value")
        })
        .collect();
    for (v, value) in values.iter().enumerate() {
        let finite: Vec<u32> = graph[v]
            .iter()
            .filter_map(|&w| values[w].finite())
            .collect();
        match value.finite() {
            Some(m) => {
                prop_assert!(
                    !finite.contains(&m),
                    "Token({}) = {} has an option of value {}",
                    v,
                    m,
                    m
                );
                for j in 0..m {
                    prop_assert!(
                        finite.contains(&j),
                        "Token({}) = {} has no option of value {}",
                        v,
                        m,
                        j
                    );
                }
                for &w in &graph[v] {
                    if values[w].finite().is_none_or(|x| x > m) {
                        prop_assert!(
                            graph[w].iter().any(|&x| values[x].finite() == Some(m)),
                            "Token({}) = {}: its option Token({}) = {} cannot be reversed",
                            v,
                            m,
                            w,
                            &values[w]
                        );
                    }
                }
            }
            None => {
                let mut k = finite.clone();
                k.sort_unstable();
                k.dedup();
                prop_assert_eq!(
                    value.clone(),
                    Generalised::Infinite(k.into()),
                    "Token({})",
                    v
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// A token on one random graph, from every vertex.
    #[test]
    fn single_tokens_agree_with_retrograde_analysis(g in graph()) {
        let graphs = [g.clone(), vec![vec![]]];
        for v in 0..g.len() {
            agree(&graphs, &vec![Part::Token(0, v)])?;
        }
        values_satisfy_the_definition(&g)?;
    }

    /// Sums of tokens on two random graphs and a Nim heap.
    #[test]
    fn sums_agree_with_retrograde_analysis(
        a in graph(),
        b in graph(),
        picks in prop::collection::vec((0usize..3, 0usize..6), 1..=3),
    ) {
        let graphs = [a, b];
        let mut start: State = picks
            .iter()
            .map(|&(kind, x)| match kind {
                0 => Part::Token(0, x % graphs[0].len()),
                1 => Part::Token(1, x % graphs[1].len()),
                _ => Part::Heap(x % 3),
            })
            .collect();
        start.sort_unstable();
        agree(&graphs, &start)?;
    }
}

/// An ordinary game that leads into a loopy one gets a generalised value
/// (from Start(2) the only move enters a drawn position, so Start(2) is a
/// draw too), and a cycle in a game not declared loopy stays an error even
/// beside loopy games.
#[test]
fn ordinary_games_lead_into_loopy_ones_and_undeclared_cycles_stay_errors() {
    let text = "\
const EDGES = [[], [0], [1, 3], [2, 4], [0, 5], [4]];
loopy game Token(v: nat) {
  move slide(w in EDGES[v]) => Token(w);
}
game Start(v: nat) {
  move enter() => Token(v);
}
game Spin(n: nat) {
  move turn() => Spin((n + 1) % 3);
}
";
    let mut session = Session::new();
    session
        .load_text("mixed.game", text)
        .expect("the file loads");
    let value = |s: &mut Session, p: &str| {
        let parts = s.position(p).expect("a position");
        s.general_value(&parts)
    };
    let start2 = value(&mut session, "Start(2)").expect("a value");
    assert_eq!(start2.to_string(), "∞{}");
    assert_eq!(start2.outcome(), Outcome::D);
    let start1 = value(&mut session, "Start(1)").expect("a value");
    assert_eq!(start1.to_string(), "0");
    let start1_token2 = value(&mut session, "Start(1) + Token(2)").expect("a value");
    assert_eq!(start1_token2.to_string(), "∞{1}");
    let errors = value(&mut session, "Spin(0)").expect_err("a cycle");
    assert!(
        errors.iter().any(|e| e.kind.code() == "cycle"),
        "{errors:?}"
    );
}
