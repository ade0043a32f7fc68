//! A game graph written in Graphviz DOT: positions as boxes (P-positions
//! with a double border; boards as their rows, in a fixed-width font),
//! moves as arrows labelled with the move (winning moves bold and red),
//! and a legend saying so.

use super::{Graph, Label};
use crate::eval::{PosId, Value};
use crate::session::Session;

/// How winning moves stand out: red, and thicker.
const WINNING: &str = "color=\"#c0392b\", fontcolor=\"#c0392b\", penwidth=2.2";

/// The graph in DOT. Nodes are `n0`, `n1`, ... with the start `n0`.
pub fn dot(session: &Session, graph: &Graph, label: Label) -> String {
    let title = session.show_sum(&graph.nodes[0].parts);
    let mut out = String::new();
    out.push_str(&format!("digraph {} {{\n", quote(&title, "\\n")));
    out.push_str(&format!(
        "  // The game graph of {title}: {} positions, {} moves.\n",
        graph.nodes.len(),
        graph.edges.len()
    ));
    out.push_str(
        "  // Each position shows its Grundy value; P-positions (value 0) have a double border;\n  \
         // winning moves (to a P-position) are bold and red.\n",
    );
    out.push_str("  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n");
    out.push_str("  edge [fontname=\"Helvetica\", fontsize=10];\n");
    for (i, node) in graph.nodes.iter().enumerate() {
        let note = match label {
            Label::Value => format!("value {}", node.value),
            Label::Outcome => if node.value == 0 { "P" } else { "N" }.to_string(),
        };
        let border = if node.value == 0 {
            ", peripheries=2"
        } else {
            ""
        };
        let text = match boards(session, &node.parts) {
            // Rows of a board line up only left-justified, in a fixed-width font.
            Some(rows) => format!(
                "{}, fontname=\"Courier\"",
                quote(&format!("{rows}\n{note}\n"), "\\l")
            ),
            None => quote(&format!("{}\n{note}", session.show_sum(&node.parts)), "\\n"),
        };
        out.push_str(&format!("  n{i} [label={text}{border}];\n"));
    }
    for edge in &graph.edges {
        let winning = graph.nodes[edge.to].value == 0;
        let style = if winning {
            format!(", {WINNING}")
        } else {
            String::new()
        };
        out.push_str(&format!(
            "  n{} -> n{} [label={}{style}];\n",
            edge.from,
            edge.to,
            quote(&edge.moves.join("\n"), "\\n")
        ));
    }
    out.push_str(&legend());
    out.push_str("}\n");
    out
}

/// A box apart from the graph that says what its marks mean.
fn legend() -> String {
    format!(
        "  subgraph cluster_legend {{\n    \
         label=\"Legend\"; fontname=\"Helvetica\"; fontsize=11; style=\"rounded,dashed\"; color=\"gray60\";\n    \
         node [fontsize=10];\n    \
         legend_n [label=\"N-position: the next player wins\\n(value above 0)\"];\n    \
         legend_p [label=\"P-position: the previous player wins\\n(value 0)\", peripheries=2];\n    \
         legend_n -> legend_p [label=\"a winning move\", {WINNING}];\n  \
         }}\n"
    )
}

/// The position with each board drawn as its rows under its game's name,
/// if any of its parts is a board (a grid: a list of equal-length strings).
fn boards(session: &Session, parts: &[PosId]) -> Option<String> {
    let interp = &session.interp;
    let mut any_board = false;
    let shown: Vec<String> = parts
        .iter()
        .map(|&part| {
            let (game, args) = interp.positions.get(part);
            match args.as_ref() {
                [Value::List(rows)] if is_grid(rows) => {
                    any_board = true;
                    let name = interp
                        .program
                        .games
                        .get(game as usize)
                        .map_or("?", |g| g.name.as_str());
                    let rows: Vec<String> = rows
                        .iter()
                        .filter_map(|r| match r {
                            Value::Str(s) => Some(s.to_string()),
                            _ => None,
                        })
                        .collect();
                    format!("{name}\n{}", rows.join("\n"))
                }
                _ => session.show_sum(&[part]),
            }
        })
        .collect();
    any_board.then(|| shown.join("\n+\n"))
}

fn is_grid(rows: &[Value]) -> bool {
    let mut widths = rows.iter().map(|r| match r {
        Value::Str(s) => Some(s.chars().count()),
        _ => None,
    });
    match widths.next() {
        Some(Some(first)) => widths.all(|w| w == Some(first)),
        _ => false,
    }
}

/// A DOT string: quotes and backslashes escaped, each line break written
/// as `line_end` (`\n` centres the line, `\l` left-justifies it).
fn quote(text: &str, line_end: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str(line_end),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
