//! `grundy plot FILE GAME --upto N -o FILE.svg`: the nim-sequence of a
//! heap game as a scatter plot, heap size against value. A periodic
//! sequence shows as horizontal stripes repeating along the axis; an
//! arithmetic-periodic one as rising stripes. Drawn with plotters' SVG
//! backend only, so no fonts or system libraries are needed.

use super::query::{open, report};
use super::{Failed, Options, Output};
use crate::solve::period;
use crate::solve::values::Values;
use plotters::prelude::*;

const SIZE: (u32, u32) = (960, 540);

/// The plot as SVG text.
pub fn svg(game: &str, values: &[u32]) -> Result<String, String> {
    let mut text = String::new();
    draw(game, values, &mut text).map_err(|e| format!("the plot could not be drawn: {e}"))?;
    Ok(text)
}

fn draw(
    game: &str,
    values: &[u32],
    text: &mut String,
) -> Result<(), Box<dyn std::error::Error + 'static>> {
    let last = values.len().saturating_sub(1) as u64;
    let top = values.iter().copied().max().unwrap_or(0);
    let caption = match period::find(&Values::from(values)) {
        Some(p) => format!(
            "{game}: g(n) for n = 0..={last}; period {} from n = {} (seen, not proven)",
            p.period, p.preperiod
        ),
        None => format!("{game}: g(n) for n = 0..={last}"),
    };
    {
        let root = SVGBackend::with_string(text, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(to_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(caption, ("sans-serif", 20))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0u64..last.max(1), 0u32..top + 1)
            .map_err(to_error)?;
        chart
            .configure_mesh()
            .x_desc("n (heap size)")
            .y_desc("g(n)")
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(to_error)?;
        // Smaller dots for longer sequences, so stripes stay visible.
        let radius = if values.len() > 2000 {
            1
        } else if values.len() > 300 {
            2
        } else {
            3
        };
        chart
            .draw_series(
                values
                    .iter()
                    .enumerate()
                    .map(|(n, &v)| Circle::new((n as u64, v), radius, BLUE.filled())),
            )
            .map_err(to_error)?;
        root.present().map_err(to_error)?;
    }
    Ok(())
}

fn to_error<E: std::fmt::Debug>(e: E) -> Box<dyn std::error::Error + 'static> {
    format!("{e:?}").into()
}

pub struct PlotArgs<'a> {
    pub file: &'a str,
    pub game: &'a str,
    pub upto: u64,
    pub output: &'a str,
}

pub fn run(opts: &Options, args: PlotArgs, out: &mut Output) -> Result<(), Failed> {
    let mut session = open(opts, args.file, out)?;
    let g = session
        .heap_game(args.game)
        .map_err(|e| report(&session, out, e))?;
    let values = session
        .table(g, args.upto, |_, _| {})
        .map_err(|e| report(&session, out, e))?;
    let path = args.output;
    let written = svg(args.game, &values)
        .and_then(|text| std::fs::write(path, text).map_err(|e| e.to_string()));
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
