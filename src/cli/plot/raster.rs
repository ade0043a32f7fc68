//! Plots as PNG: drawn on plotters' bitmap backend, encoded by the `png`
//! crate. Text uses DejaVu Sans, built into the binary and registered for
//! SVG plots too (there it sets the text measurements that lay the chart
//! out), so a plot needs no fonts from the system and looks alike on
//! every machine.

use plotters::prelude::*;
use plotters::style::FontStyle;
use std::sync::OnceLock;

/// The font family every plot's text is set in.
pub const FONT: &str = "sans-serif";

/// Registers the built-in font under [`FONT`]; safe to call often.
pub fn register_font() -> Result<(), String> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        plotters::style::register_font(FONT, FontStyle::Normal, dejavu::sans::regular()).is_ok()
    });
    if ok {
        Ok(())
    } else {
        Err("the built-in font could not be read".into())
    }
}

/// Draws with `draw` on a white `size` bitmap and returns it as PNG bytes.
pub fn png(
    size: (u32, u32),
    draw: impl FnOnce(DrawingArea<BitMapBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let (width, height) = size;
    let mut pixels = vec![255u8; width as usize * height as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut pixels, size).into_drawing_area();
        draw(root)?;
    }
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder
        .write_header()
        .and_then(|mut writer| writer.write_image_data(&pixels))
        .map_err(|e| format!("the PNG could not be encoded: {e}"))?;
    Ok(bytes)
}
