//! `grundy graph FILE POSITION`: the game graph in Graphviz DOT (or drawn
//! by Graphviz as SVG, PNG or PDF), as in the figures of Berlekamp,
//! Conway and Guy's game graphs. Each position reachable from the start
//! is a node labelled with its value (or with P/N); each move is an edge
//! labelled with the move. Parts of a sum with no moves left are dropped,
//! so `Heap(0) + Heap(2)` is the node `Heap(2)`. Big graphs are refused
//! with a clear message instead of producing a file no one can read.

mod dot;
mod render;

pub use dot::dot;

use super::query::{open, read_position, report};
use super::{Failed, Options, Output};
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::PosId;
use crate::session::Session;
use crate::source::Span;
use std::collections::HashMap;
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
    /// The moves, each from one node to another; several moves between
    /// the same positions are one edge with several labels.
    pub edges: Vec<Edge>,
}

pub struct Edge {
    /// Indices into `nodes`.
    pub from: usize,
    pub to: usize,
    /// How each move is named, with the part it is played in when the
    /// position is a sum of several parts.
    pub moves: Vec<String>,
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
    let mut empty = HashMap::new();
    let mut index: HashMap<Arc<[PosId]>, usize> = HashMap::new();
    let mut nodes = Vec::new();
    let mut edges: Vec<Edge> = Vec::new();
    let mut edge_at: HashMap<(usize, usize), usize> = HashMap::new();
    let start = without_empty_parts(session, start, &mut empty)?;
    index.insert(start.clone(), 0);
    nodes.push(Node {
        value: session.value(&start)?,
        parts: start,
    });
    let mut next = 0;
    while next < nodes.len() {
        let parts = nodes[next].parts.clone();
        for m in session.moves(&parts)? {
            let result = without_empty_parts(session, &m.result, &mut empty)?;
            let to = match index.get(&result) {
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
                    index.insert(result.clone(), to);
                    nodes.push(Node {
                        // The start's value was a number, so every value is.
                        value: m.value.finite().unwrap_or_default(),
                        parts: result,
                    });
                    to
                }
            };
            let name = if parts.len() > 1 {
                format!("{} in {}", m.label, session.show_sum(&[m.part]))
            } else {
                m.label.text.clone()
            };
            match edge_at.get(&(next, to)) {
                Some(&e) => edges[e].moves.push(name),
                None => {
                    edge_at.insert((next, to), edges.len());
                    edges.push(Edge {
                        from: next,
                        to,
                        moves: vec![name],
                    });
                }
            }
        }
        next += 1;
    }
    Ok(Graph { nodes, edges })
}

/// The parts of a sum that have moves, in their order; a part with none
/// adds nothing to the game. When no part has a move, one of them stays,
/// so that the finished position still has a name.
fn without_empty_parts(
    session: &mut Session,
    parts: &[PosId],
    empty: &mut HashMap<PosId, bool>,
) -> Result<Arc<[PosId]>, Errors> {
    if parts.len() < 2 {
        return Ok(parts.into());
    }
    let mut kept = Vec::with_capacity(parts.len());
    for &part in parts {
        let is_empty = match empty.get(&part) {
            Some(&e) => e,
            None => {
                let e = session.moves(&[part])?.is_empty();
                empty.insert(part, e);
                e
            }
        };
        if !is_empty {
            kept.push(part);
        }
    }
    if kept.is_empty() {
        kept.push(parts[0]);
    }
    Ok(kept.into())
}

pub struct GraphArgs<'a> {
    pub files: &'a [String],
    pub position: &'a str,
    pub outcome: bool,
    pub max_nodes: usize,
    pub output: Option<&'a str>,
}

pub fn run(opts: &Options, args: GraphArgs, out: &mut Output) -> Result<(), Failed> {
    let mut session = open(opts, args.files, out)?;
    let parts = read_position(&mut session, args.position, out)?;
    let source = session.sources.add("<position>", args.position);
    let span = Span::new(source, 0, args.position.len());
    let started = super::stats::start(&mut session);
    let graph =
        build(&mut session, &parts, args.max_nodes, span).map_err(|e| report(&session, out, e))?;
    super::stats::report(&started, &session, out);
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
            let written = match render::format(path) {
                Some(format) => render::draw(&text, format, path),
                None => std::fs::write(path, text).map_err(|e| e.to_string()),
            };
            if let Err(reason) = written {
                let error = session.file_error("write", path, reason);
                return Err(report(&session, out, vec![error]));
            }
            out.line(format!(
                "wrote the game graph of {} (positions: {}, moves: {}) to {path}",
                session.show_sum(&graph.nodes[0].parts),
                graph.nodes.len(),
                graph.edges.len()
            ));
            Ok(())
        }
    }
}
