//! `grundy graph FILE POSITION --json`: the game graph as data, every
//! position reachable from the start with its value, and every move with
//! its rule, as `moves --json` names them.

use super::graph::build;
use super::query::{open, read_position, report};
use super::{json, Failed, Options, Output};
use crate::source::Span;
use serde_json::json;
use std::collections::HashMap;

pub fn run(
    opts: &Options,
    files: &[String],
    position: &str,
    max_nodes: usize,
    out: &mut Output,
) -> Result<(), Failed> {
    let mut session = open(opts, files, out)?;
    let start = read_position(&mut session, position, out)?;
    let source = session.sources.add("<position>", position);
    let span = Span::new(source, 0, position.len());
    let graph =
        build(&mut session, &start, max_nodes, span).map_err(|e| report(&session, out, e))?;
    let index: HashMap<_, _> = graph
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| (node.parts.clone(), i))
        .collect();
    let mut nodes = Vec::with_capacity(graph.nodes.len());
    let mut moves = Vec::new();
    for (from, node) in graph.nodes.iter().enumerate() {
        nodes.push(json!({
            "id": from,
            "position": json::position(&session, &node.parts),
            "value": node.value,
            "outcome": if node.value == 0 { "P" } else { "N" },
        }));
        // The graph holds every position a move reaches, so each is found.
        for m in session
            .moves(&node.parts)
            .map_err(|e| report(&session, out, e))?
        {
            let Some(&to) = index.get(&m.result) else {
                continue;
            };
            let mut shown = json::one_move(&session, &m);
            if let Some(fields) = shown.as_object_mut() {
                fields.shift_remove("result");
                fields.insert("from".into(), json!(from));
                fields.insert("to".into(), json!(to));
            }
            moves.push(shown);
        }
    }
    out.line(json!({ "start": 0, "nodes": nodes, "moves": moves }).to_string());
    Ok(())
}
