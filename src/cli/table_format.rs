//! The machine-readable ways `grundy table` prints a nim-sequence: one
//! JSON document, CSV, and the `n g(n)` lines of an OEIS b-file.

use super::Output;
use crate::session::Table;
use serde_json::json;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Rows of ten values, then what is known of the period.
    Text,
    /// One JSON document: the game, the period, and the values.
    Json,
    /// A header `n,g`, then one line `n,g(n)` per heap.
    Csv,
    /// The lines `n g(n)` of an OEIS b-file.
    Oeis,
}

/// Prints the table in one of the formats for programs; `Text`, the
/// table command's own rows, is printed by the table command.
pub fn write(table: &Table, game: &str, upto: u64, format: Format, out: &mut Output) {
    match format {
        Format::Json => write_json(table, game, upto, out),
        Format::Csv => write_lines(table, Some("n,g"), b',', out),
        Format::Oeis => write_lines(table, None, b' ', out),
        Format::Text => {}
    }
}

fn write_json(table: &Table, game: &str, upto: u64, out: &mut Output) {
    let period = table.proof.map(|p| p.period).or(table.seen()).map(|p| {
        json!({
            "preperiod": p.preperiod,
            "period": p.period,
            "saltus": p.saltus,
            "proven": table.proof.is_some(),
        })
    });
    // The keys in order, "values" last and streamed: a table of millions
    // of values is never held as JSON.
    let head = json!({ "game": game, "period": period, "upto": upto }).to_string();
    let head = head.strip_suffix('}').unwrap_or(&head);
    out.lines(|w| {
        write!(w, "{head},\"values\":[")?;
        let mut digits = itoa::Buffer::new();
        for (n, v) in table.values.iter().enumerate() {
            if n > 0 {
                w.write_all(b",")?;
            }
            w.write_all(digits.format(v).as_bytes())?;
        }
        writeln!(w, "]}}")
    });
}

/// One line `n<separator>g(n)` per value, after an optional header.
fn write_lines(table: &Table, header: Option<&str>, separator: u8, out: &mut Output) {
    out.lines(|w| {
        if let Some(header) = header {
            writeln!(w, "{header}")?;
        }
        let mut digits = itoa::Buffer::new();
        let mut line = Vec::with_capacity(48);
        for (n, v) in table.values.iter().enumerate() {
            line.clear();
            line.extend_from_slice(digits.format(n).as_bytes());
            line.push(separator);
            line.extend_from_slice(digits.format(v).as_bytes());
            line.push(b'\n');
            w.write_all(&line)?;
        }
        Ok(())
    });
}
