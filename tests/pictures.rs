//! Pictures through the real binary: plots (SVG and PNG) and game graphs
//! (DOT, and PNG drawn by Graphviz where it is installed). Each PNG is
//! decoded and its drawn pixels checked to stay inside the canvas, so a
//! clipped label or a point on the border fails the test.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TIME_LIMIT: Duration = Duration::from_secs(60);

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("grundy-pictures-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a scratch folder");
    dir.join(name)
}

/// Runs grundy in the project folder; its exit status and standard output
/// (killed, and the test failed, past the time limit).
fn grundy(args: &[&str]) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(args)
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("grundy starts");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > TIME_LIMIT {
            let _ = child.kill();
            panic!("grundy {args:?} did not finish in time");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("output");
    let text = String::from_utf8_lossy(&output.stdout).to_string()
        + &String::from_utf8_lossy(&output.stderr);
    (output.status.code(), text)
}

/// A decoded PNG: its size and its pixels as RGBA.
struct Picture {
    width: usize,
    height: usize,
    rgba: Vec<[u8; 4]>,
}

impl Picture {
    fn read(path: &Path) -> Picture {
        let bytes = std::fs::read(path).expect("the PNG was written");
        let mut decoder = png::Decoder::new(Cursor::new(bytes));
        decoder.set_transformations(png::Transformations::EXPAND);
        let mut reader = decoder.read_info().expect("a PNG");
        let mut buf = vec![0; reader.output_buffer_size().expect("a size")];
        let info = reader.next_frame(&mut buf).expect("a frame");
        assert_eq!(info.bit_depth, png::BitDepth::Eight);
        let channels = info.color_type.samples();
        let rgba = buf[..info.buffer_size()]
            .chunks(channels)
            .map(|p| match p {
                [r, g, b] => [*r, *g, *b, 255],
                [r, g, b, a] => [*r, *g, *b, *a],
                [v] => [*v, *v, *v, 255],
                [v, a] => [*v, *v, *v, *a],
                _ => unreachable!("1 to 4 channels"),
            })
            .collect();
        Picture {
            width: info.width as usize,
            height: info.height as usize,
            rgba,
        }
    }

    fn pixels(&self) -> impl Iterator<Item = (usize, usize, [u8; 4])> + '_ {
        self.rgba
            .iter()
            .enumerate()
            .map(|(i, &p)| (i % self.width, i / self.width, p))
    }

    /// The smallest box holding every pixel that is neither white nor
    /// transparent: (left, top, right, bottom).
    fn drawn_box(&self) -> (usize, usize, usize, usize) {
        let drawn: Vec<(usize, usize)> = self
            .pixels()
            .filter(|&(_, _, [r, g, b, a])| a > 0 && (r, g, b) != (255, 255, 255))
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(!drawn.is_empty(), "nothing is drawn");
        (
            drawn.iter().map(|p| p.0).min().unwrap(),
            drawn.iter().map(|p| p.1).min().unwrap(),
            drawn.iter().map(|p| p.0).max().unwrap(),
            drawn.iter().map(|p| p.1).max().unwrap(),
        )
    }

    /// Asserts that nothing drawn touches the border: within `margin`
    /// pixels of it, the picture is blank.
    fn assert_inside(&self, margin: usize) {
        let (left, top, right, bottom) = self.drawn_box();
        assert!(
            left >= margin
                && top >= margin
                && right + margin < self.width
                && bottom + margin < self.height,
            "drawn box ({left}, {top})-({right}, {bottom}) reaches within {margin} px of the \
             {}x{} canvas's border",
            self.width,
            self.height
        );
    }

    /// The pixels close to a colour.
    fn count_near(&self, colour: [u8; 3]) -> usize {
        self.pixels()
            .filter(|&(_, _, p)| (0..3).all(|i| p[i].abs_diff(colour[i]) <= 12))
            .count()
    }
}

/// The plot's ink and the period's mark.
const INK: [u8; 3] = [31, 78, 160];
const MARK: [u8; 3] = [200, 90, 20];

#[test]
fn a_plot_as_png_stays_inside_its_canvas_with_the_period_marked() {
    let path = scratch("kayles.png");
    let (status, out) = grundy(&[
        "plot",
        "examples/octal.game",
        "Kayles",
        "--upto",
        "200",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{out}");
    let picture = Picture::read(&path);
    assert_eq!((picture.width, picture.height), (960, 540));
    picture.assert_inside(4);
    assert!(picture.count_near(INK) > 1000, "the points are drawn");
    assert!(picture.count_near(MARK) > 100, "the period is marked");

    // Every point, (0, 0) included, lies above the x axis and right of the
    // y axis: the axes are the longest black row and column.
    let black = |x: usize, y: usize| picture.rgba[y * picture.width + x][..3] == [0, 0, 0];
    let axis_row = (0..picture.height)
        .max_by_key(|&y| (0..picture.width).filter(|&x| black(x, y)).count())
        .unwrap();
    let axis_column = (0..picture.width)
        .max_by_key(|&x| (0..picture.height).filter(|&y| black(x, y)).count())
        .unwrap();
    let ink: Vec<(usize, usize)> = picture
        .pixels()
        .filter(|&(_, _, p)| (0..3).all(|i| p[i].abs_diff(INK[i]) <= 12))
        .map(|(x, y, _)| (x, y))
        .collect();
    let lowest = ink.iter().map(|p| p.1).max().unwrap();
    let leftmost = ink.iter().map(|p| p.0).min().unwrap();
    assert!(
        lowest < axis_row,
        "a point at row {lowest} reaches the x axis at {axis_row}"
    );
    assert!(
        leftmost > axis_column,
        "a point at column {leftmost} reaches the y axis at {axis_column}"
    );
}

#[test]
fn the_plot_title_states_the_period_as_table_does() {
    // T's period 7 and Dawson's Chess' period 34 are proven by `table`;
    // taking any odd number has period 2, which no theorem here proves
    // (a move may take any number of counters); Grundy's game shows no
    // period in its first values.
    let odd = scratch("odd.game");
    std::fs::write(
        &odd,
        "game Odd(n: nat) {\n  move take(k in 1..=n) if k % 2 == 1 => Odd(n - k);\n}\n",
    )
    .expect("a game file");
    let odd = odd.to_str().unwrap();
    for (file, game, upto, period) in [
        (odd, "Odd", "40", "period 2 from n = 0 (seen, not proven)"),
        (
            "examples/subtraction.game",
            "T",
            "150",
            "period 7 from n = 0 (proven)",
        ),
        // The same game as T, its set fixed in the position: the same proof.
        (
            "examples/subtraction.game",
            "Subtract({2, 3, 5}, _)",
            "150",
            "period 7 from n = 0 (proven)",
        ),
        (
            "examples/octal.game",
            "DawsonsChess",
            "1000",
            "period 34 from n = 52 (proven)",
        ),
        (
            "examples/grundys-game.game",
            "Grundy",
            "100",
            "no period seen",
        ),
    ] {
        let (status, table) = grundy(&["table", file, game, "--upto", upto]);
        assert_eq!(status, Some(0), "{table}");
        let proven = table.contains(", proven (");
        assert_eq!(proven, period.ends_with("(proven)"), "{table}");
        assert_eq!(
            table.contains("; not proven"),
            period.ends_with("not proven)"),
            "{table}"
        );
        let name = game.replace(|c: char| !c.is_alphanumeric(), "-");
        let path = scratch(&format!("{name}.svg"));
        let (status, out) = grundy(&[
            "plot",
            file,
            game,
            "--upto",
            upto,
            "-o",
            path.to_str().unwrap(),
        ]);
        assert_eq!(status, Some(0), "{out}");
        let svg = std::fs::read_to_string(&path).expect("the plot was written");
        assert!(
            svg.contains(period),
            "{game}: the title should say {period:?}"
        );
    }
}

#[test]
fn a_million_values_make_a_small_file() {
    let svg = scratch("million.svg");
    let png = scratch("million.png");
    for path in [&svg, &png] {
        let (status, out) = grundy(&[
            "plot",
            "examples/octal.game",
            "Kayles",
            "--upto",
            "1000000",
            "-o",
            path.to_str().unwrap(),
        ]);
        assert_eq!(status, Some(0), "{out}");
    }
    // Kayles takes ten values from n = 71 on: a run per value, not a
    // shape per point.
    let size = std::fs::metadata(&svg).expect("written").len();
    assert!(size < 100_000, "the SVG has {size} bytes");
    assert!(
        std::fs::read_to_string(&svg)
            .unwrap()
            .matches("<circle")
            .count()
            == 0
    );
    Picture::read(&png).assert_inside(4);
}

#[test]
fn size_options_set_the_canvas() {
    let path = scratch("small.png");
    let (status, out) = grundy(&[
        "plot",
        "examples/subtraction.game",
        "T",
        "--upto",
        "60",
        "--width",
        "640",
        "--height",
        "400",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{out}");
    let picture = Picture::read(&path);
    assert_eq!((picture.width, picture.height), (640, 400));
    picture.assert_inside(3);
    let (status, out) = grundy(&[
        "plot",
        "examples/subtraction.game",
        "T",
        "--upto",
        "6",
        "--width",
        "5",
        "-o",
        "x.png",
    ]);
    assert_eq!(
        status,
        Some(2),
        "a size too small to draw is refused: {out}"
    );
}

#[test]
fn a_game_graph_names_moves_marks_winning_ones_and_draws_boards() {
    let (status, dot) = grundy(&["graph", "examples/nim.game", "Nim([2, 0, 1])"]);
    assert_eq!(status, Some(0), "{dot}");
    // Heaps with nothing left are dropped from every position.
    assert!(
        !dot.contains("Heap(0) +") && !dot.contains("+ Heap(0)"),
        "{dot}"
    );
    assert!(
        dot.contains("n0 [label=\"Heap(1) + Heap(2)\\nvalue 3\"];"),
        "{dot}"
    );
    // The winning move from 1 + 2 takes one from the heap of 2.
    assert!(
        dot.contains("n0 -> n1 [label=\"take(k = 1) in Heap(2)\", color=\"#c0392b\""),
        "{dot}"
    );
    assert!(
        dot.contains("n0 -> n2 [label=\"take(k = 2) in Heap(2)\"];"),
        "{dot}"
    );
    assert!(dot.contains("subgraph cluster_legend"), "{dot}");

    let (status, dot) = grundy(&["graph", "examples/cram.game", "Cram([\"...\", \"..#\"])"]);
    assert_eq!(status, Some(0), "{dot}");
    // The board's rows, one per line, left-justified.
    assert!(
        dot.contains("label=\"Cram\\l...\\l..#\\lvalue 0\\l\""),
        "{dot}"
    );
}

#[test]
fn a_game_graph_as_png_stays_inside_its_canvas() {
    if Command::new("dot").arg("-V").output().is_err() {
        eprintln!("skipped: Graphviz's `dot` is not installed (apt-get install graphviz)");
        return;
    }
    let path = scratch("cram.png");
    let (status, out) = grundy(&[
        "graph",
        "examples/cram.game",
        "Cram([\"...\", \"..#\"])",
        "-o",
        path.to_str().unwrap(),
    ]);
    assert_eq!(status, Some(0), "{out}");
    let picture = Picture::read(&path);
    assert!(picture.width > 200 && picture.height > 100);
    picture.assert_inside(1);
    assert!(
        picture.count_near([192, 57, 43]) > 100,
        "winning moves are red"
    );
}

#[test]
fn a_drawn_graph_without_graphviz_says_what_is_missing() {
    // A PATH with no programs on it: `dot` cannot be found.
    let empty = scratch("no-programs");
    std::fs::create_dir_all(&empty).expect("a folder");
    let path = scratch("unreachable.png");
    let output = Command::new(env!("CARGO_BIN_EXE_grundy"))
        .args(["graph", "examples/nim.game", "Heap(2)", "-o"])
        .arg(&path)
        .current_dir(root())
        .env("PATH", &empty)
        .env("NO_COLOR", "1")
        .output()
        .expect("grundy runs");
    assert_eq!(output.status.code(), Some(1));
    let err = String::from_utf8_lossy(&output.stderr).replace(['│', '\n'], " ");
    let err = err.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(err.contains("needs Graphviz's `dot` program"), "{err}");
    assert!(err.contains("write the graph as a .dot file"), "{err}");
    assert!(!path.exists());
}
