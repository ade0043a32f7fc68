//! Constants read at places the rules work out: a list of numbers indexed
//! by a generator (`W[i]`), and a list of lists of numbers, such as a
//! graph's neighbour lists, whose row at a vertex is walked, measured,
//! searched and indexed (`u in ADJ[v]`, `len(ADJ[v])`, `ADJ[v][0]`). Every
//! position reachable from small starts is asked of the reference
//! interpreter and of the compiled code, step by step and fused (values,
//! options in order, errors alike), look-alikes whose reads go past a
//! constant's end included; and the compiled search must answer.

mod common;

use common::engines::{agree_from, Limits};
use common::{session_with, value_of};
use grundy::eval::engine::Path;

const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

/// Every engine agrees with the reference from each start; `compiled`:
/// whether the compiled search must answer (a start whose reads fail is
/// answered by the interpreter, with its error).
fn agree(name: &str, text: &str, starts: &[&str], compiled: bool) {
    agree_from(name, text, starts, LIMITS, compiled);
}

/// Node Kayles on a graph given by its neighbour lists: taking a vertex
/// takes its neighbours too.
fn node_kayles(adjacency: &str) -> String {
    format!(
        "const ADJ = {adjacency};\n\
         game NK(free: [bool]) {{\n  \
         move take(v in indices(free)) if free[v] => \
         NK([free[u] and u != v and not (u in ADJ[v]) for u in indices(free)]);\n}}\n"
    )
}

/// The neighbour lists of a path of `n` vertices.
fn path(n: usize) -> String {
    let rows: Vec<String> = (0..n)
        .map(|v| {
            let mut next = Vec::new();
            if v > 0 {
                next.push(v - 1);
            }
            if v + 1 < n {
                next.push(v + 1);
            }
            format!("{next:?}")
        })
        .collect();
    format!("[{}]", rows.join(", "))
}

fn all_free(n: usize) -> String {
    format!("NK([{}])", vec!["true"; n].join(", "))
}

/// Node Kayles on a path is Dawson's Kayles: taking a vertex of a path of
/// n leaves paths of a and n - 3 - a (or n - 2 from an end). Its values
/// are OEIS A002187.
#[test]
fn node_kayles_on_a_path_is_dawsons_kayles() {
    const DAWSON: [u32; 16] = [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5];
    for (n, want) in DAWSON.iter().enumerate().skip(1) {
        let mut session = session_with(&node_kayles(&path(n)));
        assert_eq!(value_of(&mut session, &all_free(n)), *want, "a path of {n}");
    }
    agree("path.game", &node_kayles(&path(7)), &[&all_free(7)], true);
}

/// A graph with vertices of every degree, a vertex without neighbours
/// among them; and a look-alike whose lists are fewer than the vertices,
/// so that reading past them is the interpreter's index error.
#[test]
fn node_kayles_on_a_graph_agrees_with_the_reference() {
    let graph = "[[1, 4], [0, 2, 5], [1, 3, 6], [2, 7], [0, 5], [1, 4, 6], [2, 5, 7], [3, 6], []]";
    agree("graph.game", &node_kayles(graph), &[&all_free(9)], true);
    let short = "[[1], [0, 2], [1]]";
    agree("short.game", &node_kayles(short), &[&all_free(4)], false);
}

/// A token on an acyclic graph with a counter, walked by the row at the
/// token; its length and first element read too; and weights read at a
/// heap's place, one look-alike with fewer weights than heaps.
#[test]
fn rows_and_elements_of_constants_agree_with_the_reference() {
    let token = "const MOVES = [[1, 2], [2], [0, 3], []];\n\
                 game C(at: nat, n: nat) {\n  \
                 move go(u in MOVES[at]) if n > 0 => C(u, n - 1);\n  \
                 move first() if len(MOVES[at]) > 1 and n > 1 => C(MOVES[at][0], n - 2);\n  \
                 move jump(k in 0..3) if n > 2 => C(MOVES[at][k], 0);\n}\n";
    agree("token.game", token, &["C(0, 6)", "C(3, 4)"], false);
    let weights = "const W = [2, 1, 3];\n\
                   game B(hs: [nat]) {\n  \
                   move take(i in indices(hs), k in 1..=W[i]) if k <= hs[i] => \
                   B(set_at(hs, i, hs[i] - k));\n}\n";
    agree("weights.game", weights, &["B([3, 2, 4])"], true);
    agree("too-few.game", weights, &["B([1, 1, 1, 1])"], false);
}

/// Vertex geography on a graph: the token's vertex and the set of those
/// visited. The set starts as `{0}` and takes in larger vertices as the
/// token moves: its bits, laid out for the start alone, are laid out again
/// with as much room as the key holds, so no position is left to the
/// interpreter (on the cycle of 20, room for numbers up to 15 was not
/// enough, and the next wider layout was not tried).
#[test]
fn geography_on_a_graph_runs_compiled_throughout() {
    let grid = "[[1, 3], [0, 2, 4], [1, 5], [0, 4, 6], [1, 3, 5, 7], [2, 4, 8], [3, 7], [4, 6, 8], [5, 7]]";
    let cycle: Vec<String> = (0..20)
        .map(|v| format!("[{}, {}]", (v + 19) % 20, (v + 1) % 20))
        .collect();
    let cycle = format!("[{}]", cycle.join(", "));
    for adjacency in [grid.to_string(), cycle] {
        let geography = format!(
            "const ADJ = {adjacency};\n\
             game Geo(seen: {{nat}}, at: nat) {{\n  \
             move go(u in ADJ[at]) if not (u in seen) => Geo(set(list(seen) + [u]), u);\n}}\n"
        );
        agree(
            "geography.game",
            &geography,
            &["Geo({0}, 0)", "Geo({4}, 4)"],
            true,
        );
        let mut session = session_with(&geography);
        let reference = {
            let mut reference = session_with(&geography);
            reference.interp.compact = grundy::eval::Compact::Off;
            value_of(&mut reference, "Geo({0}, 0)")
        };
        assert_eq!(value_of(&mut session, "Geo({0}, 0)"), reference);
        let entries = &session.interp.engines.entries;
        assert!(
            entries.iter().all(|e| e.path != Path::Interpreter),
            "{adjacency}: {:?}",
            entries.iter().map(|e| &e.path).collect::<Vec<_>>()
        );
    }
}
