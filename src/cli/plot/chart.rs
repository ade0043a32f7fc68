//! The drawing of a nim-sequence, the same on every backend: heap size
//! across, value up; the start of the periodic part and one period marked;
//! one dot per value while there is room, otherwise the values binned to
//! pixels.

use super::bins;
use super::raster::FONT;
use crate::solve::period::Period;
use plotters::coord::Shift;
use plotters::prelude::*;

/// What the chart says about the period: the result `table` prints.
#[derive(Clone, Copy, Debug)]
pub struct Known {
    pub period: Period,
    pub proven: bool,
}

/// The title: the game, the range, and the period as `table` states it.
pub fn title(game: &str, last: usize, known: Option<Known>) -> String {
    let range = format!("{game}: g(n) for n = 0..={last}");
    let Some(Known { period: p, proven }) = known else {
        return format!("{range}, no period seen");
    };
    let how = if proven { "proven" } else { "seen, not proven" };
    if p.saltus == 0 {
        format!(
            "{range}, period {} from n = {} ({how})",
            p.period, p.preperiod
        )
    } else {
        format!(
            "{range}, arithmetic period {} (saltus {}) from n = {} ({how})",
            p.period, p.saltus, p.preperiod
        )
    }
}

const INK: RGBColor = RGBColor(31, 78, 160);
const MARK: RGBColor = RGBColor(200, 90, 20);

/// Draws the chart on `root`, which is filled white first.
pub fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    game: &str,
    values: &[u32],
    known: Option<Known>,
) -> Result<(), String> {
    super::raster::register_font()?;
    let (width, height) = root.dim_in_pixel();
    // Text grows with the picture, from a base readable at 960 x 540.
    let scale = (width.min(height * 16 / 9) as f64 / 960.0).clamp(0.8, 4.0);
    let px = |size: f64| (size * scale).round();
    root.fill(&WHITE).map_err(text)?;

    let last = values.len().saturating_sub(1);
    let top = values.iter().copied().max().unwrap_or(0) as f64;
    // Room around the data, so that the dot at (0, 0) sits clear of both
    // axes and the largest value clear of the top border.
    let x_pad = (last as f64 * 0.01).max(0.6);
    let y_pad = (top * 0.04).max(0.6);
    // Headroom above the largest value for the period's label.
    let y_top = top + y_pad + (top + 1.0) * 0.08;

    let caption = title(game, last, known);
    let caption_size = fitting_size(root, &caption, px(24.0), width as f64 * 0.94);
    let mut chart = ChartBuilder::on(root)
        .caption(&caption, (FONT, caption_size))
        .margin(px(12.0) as u32)
        .margin_right(px(40.0) as u32)
        .x_label_area_size(px(58.0) as u32)
        .y_label_area_size(px(70.0) as u32)
        .build_cartesian_2d(-x_pad..last as f64 + x_pad, -y_pad..y_top)
        .map_err(text)?;
    let whole = |v: &f64| {
        if (v - v.round()).abs() < 1e-9 {
            format!("{}", v.round() as i64)
        } else {
            String::new()
        }
    };
    chart
        .configure_mesh()
        .x_desc("n (heap size)")
        .y_desc("g(n)")
        .x_label_formatter(&whole)
        .y_label_formatter(&whole)
        .x_labels(8)
        .y_labels(8)
        .label_style((FONT, px(17.0)))
        .axis_desc_style((FONT, px(19.0)))
        .light_line_style(WHITE.mix(0.0))
        .bold_line_style(BLACK.mix(0.08))
        .draw()
        .map_err(text)?;

    if let Some(known) = known {
        mark_period(root, &chart, known.period, last, top, px(16.0))?;
    }

    let (plot_width, _) = chart.plotting_area().dim_in_pixel();
    if values.len() as u32 <= plot_width {
        // Smaller dots when they crowd, so that stripes stay apart.
        let radius = if values.len() as u32 > plot_width / 3 {
            2.0
        } else {
            3.0
        };
        let radius = (radius * scale).round().max(1.0) as i32;
        chart
            .draw_series(
                values
                    .iter()
                    .enumerate()
                    .map(|(n, &v)| Circle::new((n as f64, v as f64), radius, INK.filled())),
            )
            .map_err(text)?;
    } else {
        // One pixel per value is all a screen can show: points that land
        // on the same pixels are drawn once, as runs along each row.
        let half = ((1.5 * scale).round() as i32).max(1);
        let pixels = values
            .iter()
            .enumerate()
            .map(|(n, &v)| chart.backend_coord(&(n as f64, v as f64)));
        for run in bins::runs(pixels) {
            root.draw(&Rectangle::new(
                [
                    (run.from - half, run.row - half),
                    (run.to + half, run.row + half),
                ],
                INK.filled(),
            ))
            .map_err(text)?;
        }
    }
    root.present().map_err(text)
}

/// The start of the periodic part as a line, one period after it as a
/// shaded band (at least a few pixels wide), and a label saying which.
fn mark_period<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &ChartContext<
        DB,
        Cartesian2d<plotters::coord::types::RangedCoordf64, plotters::coord::types::RangedCoordf64>,
    >,
    p: Period,
    last: usize,
    top: f64,
    font: f64,
) -> Result<(), String> {
    let start = p.preperiod as f64 - 0.5;
    let end = ((p.preperiod + p.period) as f64 - 0.5).min(last as f64 + 0.5);
    let y_range = chart.y_range();
    let (x0, y0) = chart.backend_coord(&(start, y_range.end));
    let (x1, y1) = chart.backend_coord(&(end, y_range.start));
    let x1 = x1.max(x0 + 3);
    root.draw(&Rectangle::new(
        [(x0, y0), (x1, y1)],
        MARK.mix(0.15).filled(),
    ))
    .map_err(text)?;
    root.draw(&PathElement::new(
        vec![(x0, y0), (x0, y1)],
        MARK.stroke_width(2),
    ))
    .map_err(text)?;
    let label = format!(
        "periodic from n = {}; one period ({}) shaded",
        p.preperiod, p.period
    );
    let style = TextStyle::from((FONT, font)).color(&MARK);
    let (label_width, _) = root.estimate_text_size(&label, &style).map_err(text)?;
    let (_, label_y) = chart.backend_coord(&(0.0, top + (top + 1.0) * 0.06));
    // Right of the line when there is room, else ending at it.
    let (right_edge, _) = chart.backend_coord(&(chart.x_range().end, 0.0));
    let label_x = if x0 + 6 + label_width as i32 <= right_edge {
        x0 + 6
    } else {
        (x0 - 6 - label_width as i32).max(chart.backend_coord(&(chart.x_range().start, 0.0)).0 + 4)
    };
    root.draw(&Text::new(label, (label_x, label_y - font as i32), style))
        .map_err(text)
}

/// The largest font size, at most `size`, at which `line` fits in `room`
/// pixels.
fn fitting_size<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    line: &str,
    size: f64,
    room: f64,
) -> f64 {
    let mut size = size;
    while size > 10.0 {
        match root.estimate_text_size(line, &TextStyle::from((FONT, size))) {
            Ok((w, _)) if (w as f64) > room => size -= 1.0,
            _ => break,
        }
    }
    size
}

fn text<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}
