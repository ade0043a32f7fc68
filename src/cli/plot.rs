//! `grundy plot FILE GAME --upto N -o FILE.svg|FILE.png`: the nim-sequence
//! of a heap game (or of a position with `_` for the heap, as `table`
//! takes it) as a scatter plot, heap size against value. A periodic
//! sequence shows as horizontal stripes repeating along the axis; an
//! arithmetic-periodic one as rising stripes. The title states the period
//! as `table` does (proven, or only seen), and the chart marks where the
//! periodic part starts.

mod bins;
mod chart;
mod raster;

use super::query::{open, report};
use super::{Failed, Options, Output};
use crate::error::{Error, ErrorKind, Errors};
use crate::session::{Family, Session, TableRequest};
use plotters::prelude::*;

pub use chart::Known;

/// The default picture size, in pixels.
pub const DEFAULT_SIZE: (u32, u32) = (960, 540);

/// g(0..=upto) of a heap game, and its period as `table` states it: the
/// same table run, so the same proof or the same period seen.
pub fn sequence(
    session: &mut Session,
    family: &Family,
    upto: u64,
) -> Result<(Vec<u32>, Option<Known>), Errors> {
    if family.free.len() != 1 {
        return Err(vec![Error::new(
            ErrorKind::BadValue {
                detail: "a plot shows one free number; print a grid of two with `table`".into(),
            },
            session.asked(),
        )]);
    }
    let table = session.table_run(family, TableRequest::upto(upto))?;
    if let Some(kind) = table.stopped {
        let span = session.interp.program.games[family.game as usize].span;
        return Err(vec![Error::new(kind, span)]);
    }
    let known = match table.proof {
        Some(proof) => Some(Known {
            period: proof.period,
            proven: true,
        }),
        None => table.seen().map(|period| Known {
            period,
            proven: false,
        }),
    };
    Ok((table.values.to_vec(), known))
}

/// The plot, as PNG if `path` ends in `.png` and as SVG otherwise.
pub fn render(
    game: &str,
    values: &[u32],
    known: Option<Known>,
    path: &str,
    size: (u32, u32),
) -> Result<Vec<u8>, String> {
    let drawn = if path.to_ascii_lowercase().ends_with(".png") {
        raster::png(size, |root| chart::draw(&root, game, values, known))
    } else {
        let mut text = String::new();
        {
            let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
            chart::draw(&root, game, values, known)
        }
        .map(|()| text.into_bytes())
    };
    drawn.map_err(|e| format!("the plot could not be drawn: {e}"))
}

pub struct PlotArgs<'a> {
    pub files: &'a [String],
    pub game: &'a str,
    pub upto: u64,
    pub output: &'a str,
    pub size: (u32, u32),
}

pub fn run(opts: &Options, args: PlotArgs, out: &mut Output) -> Result<(), Failed> {
    let mut session = open(opts, args.files, out)?;
    let family = session
        .family(args.game)
        .map_err(|e| report(&session, out, e))?;
    let (values, known) =
        sequence(&mut session, &family, args.upto).map_err(|e| report(&session, out, e))?;
    let path = args.output;
    let written = render(args.game, &values, known, path, args.size)
        .and_then(|bytes| std::fs::write(path, bytes).map_err(|e| e.to_string()));
    if let Err(reason) = written {
        let error = session.file_error("write", path, reason);
        return Err(report(&session, out, vec![error]));
    }
    out.line(format!(
        "wrote the plot of g(n) for {}, n = 0..={}, to {path}",
        args.game, args.upto
    ));
    Ok(())
}
