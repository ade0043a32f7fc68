//! Tables of two free numbers (`grundy table FILE 'Wythoff(_, _)' --upto
//! 10x10`): a grid with the first free number down the rows and the second
//! across the columns, as text, one JSON document, or CSV.

use super::table::TableArgs;
use super::table_format::Format;
use super::upto::Upto;
use super::Output;
use crate::error::{Error, ErrorKind, Errors};
use crate::session::{Family, Grid, Session};
use serde_json::json;

/// Prints the grid the command line asked for, in its format.
pub fn run(
    session: &mut Session,
    family: &Family,
    args: &TableArgs,
    out: &mut Output,
) -> Result<(), Errors> {
    if let Some(path) = args.checkpoint {
        return Err(vec![Error::new(
            ErrorKind::BadCheckpoint {
                path: path.to_string(),
                reason: "checkpoints keep tables of one free number; a grid is computed whole"
                    .into(),
            },
            session.asked(),
        )]);
    }
    if args.format == Format::Oeis {
        return Err(vec![Error::new(
            ErrorKind::BadValue {
                detail: "a b-file holds one sequence: print a table of two free numbers as text, json or csv".into(),
            },
            session.asked(),
        )]);
    }
    let (grid, names) = compute(session, family, args.upto)?;
    match args.format {
        Format::Json => write_json(&grid, args.game, &names, out),
        Format::Csv => write_csv(&grid, &names, out),
        Format::Text | Format::Oeis => print(&grid, args.game, &names, out),
    }
    Ok(())
}

/// The grid at the REPL, as text.
pub fn show(
    session: &mut Session,
    family: &Family,
    name: &str,
    upto: Upto,
    out: &mut Output,
) -> Result<(), Errors> {
    let (grid, names) = compute(session, family, upto)?;
    print(&grid, name, &names, out);
    Ok(())
}

/// The grid, and the names of the rows' and columns' parameters. A single
/// count N means N x N.
fn compute(
    session: &mut Session,
    family: &Family,
    upto: Upto,
) -> Result<(Grid, Vec<String>), Errors> {
    let upto = match upto {
        Upto::Line(n) => (n, n),
        Upto::Grid(x, y) => (x, y),
    };
    let grid = session.grid_run(family, upto)?;
    Ok((grid, session.free_names(family)))
}

/// A header line, a line of column numbers, then one line per row headed
/// by its number.
fn print(grid: &Grid, game: &str, names: &[String], out: &mut Output) {
    let (x, y) = (&names[0], &names[1]);
    out.line(format!(
        "{game}: g({x}, {y}) for {x} = 0..={} (rows), {y} = 0..={} (columns)",
        grid.rows - 1,
        grid.columns - 1
    ));
    let widest = grid.values.iter().max().copied().unwrap_or(0);
    let cell = widest
        .to_string()
        .len()
        .max((grid.columns - 1).to_string().len())
        + 1;
    let label = (grid.rows - 1).to_string().len().max(x.len() + y.len() + 1);
    out.lines(|w| {
        write!(w, "{:>label$} ", format!("{x}\\{y}"))?;
        for column in 0..grid.columns {
            write!(w, "{column:>cell$}")?;
        }
        writeln!(w)?;
        for row in 0..grid.rows {
            write!(w, "{row:>label$}:")?;
            for v in grid.row(row) {
                write!(w, "{v:>cell$}")?;
            }
            writeln!(w)?;
        }
        Ok(())
    });
}

fn write_json(grid: &Grid, game: &str, names: &[String], out: &mut Output) {
    let values: Vec<&[u32]> = (0..grid.rows).map(|row| grid.row(row)).collect();
    let doc = json!({
        "game": game,
        "rows": names[0],
        "columns": names[1],
        "upto": [grid.rows - 1, grid.columns - 1],
        "values": values,
    });
    out.line(doc.to_string());
}

/// A header naming the two parameters and `g`, then one line per cell.
fn write_csv(grid: &Grid, names: &[String], out: &mut Output) {
    out.lines(|w| {
        writeln!(w, "{},{},g", names[0], names[1])?;
        for row in 0..grid.rows {
            for (column, v) in grid.row(row).iter().enumerate() {
                writeln!(w, "{row},{column},{v}")?;
            }
        }
        Ok(())
    });
}
