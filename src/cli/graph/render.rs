//! Drawing a game graph with Graphviz: the DOT text piped through `dot`,
//! which lays graphs out far better than anything a plotting library
//! offers. Only for SVG, PNG and PDF files; DOT is written as it is.

use std::io::Write;
use std::process::{Command, Stdio};

/// The Graphviz output format a file's name asks for, if any.
pub fn format(path: &str) -> Option<&'static str> {
    let lower = path.to_ascii_lowercase();
    ["svg", "png", "pdf"]
        .into_iter()
        .find(|ext| lower.ends_with(&format!(".{ext}")))
}

/// Runs `dot -T<format>` on the text and writes its drawing to `path`;
/// the reason it could not, if it could not.
pub fn draw(text: &str, format: &str, path: &str) -> Result<(), String> {
    let mut child = Command::new("dot")
        .arg(format!("-T{format}"))
        .arg("-o")
        .arg(path)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|_| {
            format!(
                "drawing a .{format} file needs Graphviz's `dot` program, which was not found; \
                 install Graphviz, or write the graph as a .dot file"
            )
        })?;
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(text.as_bytes())
            .map_err(|e| format!("Graphviz could not be given the graph: {e}"))?;
    }
    let output = child
        .wait_with_output()
        .map_err(|e| format!("Graphviz did not finish: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "Graphviz failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ))
    }
}
