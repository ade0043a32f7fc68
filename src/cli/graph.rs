//! `grundy graph FILE POSITION`: the game graph in Graphviz DOT, as in
//! Figures 1-3 of seed 002. Each position reachable from the start is a
//! node labelled with its value (or with P/N); each move is an edge.
//! P-positions are drawn with a double border. Big graphs are refused
//! with a clear message instead of producing a file no one can read.

use super::query::{open, report};
use super::{Failed, Options, Output};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::PosId;
use crate::session::Session;
use crate::source::Span;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// How many positions a graph may have unless told otherwise; past a few
/// hundred, a drawing is no longer readable anyway.
pub const DEFAULT_MAX_NODES: usize = 500;

/// What each node says besides the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Label {
    /// `value 3`
    Value,
    /// `N` or `P`
    Outcome,
}

pub struct Node {
    pub parts: Arc<[PosId]>,
    pub value: u32,
}

pub struct Graph {
    /// The start first, then the others in the order they were reached.
    pub nodes: Vec<Node>,
    /// Each move as (from, to), indices into `nodes`; several moves
    /// between the same positions are one edge.
    pub edges: Vec<(usize, usize)>,
}

impl Graph {
    pub fn edge_count(&self) -> usize {
        self.edges.len()
    }
}

/// Every position reachable from `start`, breadth first; an error if
/// there are more than `max_nodes`. `span` is where the start was typed.
pub fn build(
    session: &mut Session,
    start: &[PosId],
    max_nodes: usize,
    span: Span,
) -> Result<Graph, Errors> {
    let mut index: HashMap<Arc<[PosId]>, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let mut seen_edges = HashSet::new();
    let start: Arc<[PosId]> = start.into();
    index.insert(start.clone(), 0);
    nodes.push(Node {
        value: session.value(&start)?,
        parts: start,
    });
    let mut next = 0;
    while next < nodes.len() {
        let parts = nodes[next].parts.clone();
        for m in session.moves(&parts)? {
            let to = match index.get(&m.result) {
                Some(&to) => to,
                None => {
                    if nodes.len() >= max_nodes {
                        let name = session.show_sum(&nodes[0].parts);
                        return Err(vec![Error::new(
                            ErrorKind::TooLarge {
                                what: format!("the game graph of {name}"),
                                size: format!("more than {max_nodes} positions"),
                                limit: format!("{max_nodes}, which --max-nodes raises"),
                            },
                            span,
                        )]);
                    }
                    let to = nodes.len();
                    index.insert(m.result.clone(), to);
                    nodes.push(Node {
                        value: session.value(&m.result)?,
                        parts: m.result.clone(),
                    });
                    to
                }
            };
            if seen_edges.insert((next, to)) {
                edges.push((next, to));
            }
        }
        next += 1;
    }
    Ok(Graph { nodes, edges })
}

/// The graph in DOT. Nodes are `n0`, `n1`, ... with the start `n0`.
pub fn dot(session: &Session, graph: &Graph, label: Label) -> String {
    let title = session.show_sum(&graph.nodes[0].parts);
    let mut out = String::new();
    out.push_str(&format!("digraph {} {{\n", quote(&title)));
    out.push_str(&format!(
        "  // The game graph of {title}: {} positions, {} moves.\n",
        graph.nodes.len(),
        graph.edges.len()
    ));
    out.push_str(
        "  // Each position shows its Grundy value; P-positions (value 0) have a double border.\n",
    );
    out.push_str("  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n");
    for (i, node) in graph.nodes.iter().enumerate() {
        let position = session.show_sum(&node.parts);
        let note = match label {
            Label::Value => format!("value {}", node.value),
            Label::Outcome => if node.value == 0 { "P" } else { "N" }.to_string(),
        };
        let border = if node.value == 0 {
            ", peripheries=2"
        } else {
            ""
        };
        out.push_str(&format!(
            "  n{i} [label={}{border}];\n",
            quote(&format!("{position}\n{note}"))
        ));
    }
    for (from, to) in &graph.edges {
        out.push_str(&format!("  n{from} -> n{to};\n"));
    }
    out.push_str("}\n");
    out
}

/// A DOT string: quotes and backslashes escaped, line breaks as `\n`.
fn quote(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

pub struct GraphArgs<'a> {
    pub file: &'a str,
    pub position: &'a str,
    pub outcome: bool,
    pub max_nodes: usize,
    pub output: Option<&'a str>,
}

pub fn run(opts: &Options, args: GraphArgs, out: &mut Output) -> Result<(), Failed> {
    let mut session = open(opts, args.file, out)?;
    let parts = session
        .position(args.position)
        .map_err(|e| report(&session, out, e))?;
    let source = session.sources.add("<position>", args.position);
    let span = Span::new(source, 0, args.position.len());
    let graph =
        build(&mut session, &parts, args.max_nodes, span).map_err(|e| report(&session, out, e))?;
    let label = if args.outcome {
        Label::Outcome
    } else {
        Label::Value
    };
    let text = dot(&session, &graph, label);
    match args.output {
        None => {
            // The DOT text is the answer; print it as it is.
            out.line(text.trim_end());
            Ok(())
        }
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                let error = session.file_error("write", path, e);
                return Err(report(&session, out, vec![error]));
            }
            out.line(format!(
                "wrote the game graph of {} (positions: {}, moves: {}) to {path}",
                session.show_sum(&parts),
                graph.nodes.len(),
                graph.edges.len()
            ));
            Ok(())
        }
    }
}
