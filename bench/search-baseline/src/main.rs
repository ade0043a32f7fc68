//! What a specialist would write for one game searched as a whole: the
//! position packed into an integer, a dense table indexed by it, and the
//! mex of the options' values. Each solver computes the Grundy value of
//! every position reachable from its start, as grundy's search does, and
//! prints the value of the start and how many positions it stored, so the
//! two programs can be checked against each other.
//!
//!   search-baseline moore K PILE...     Moore's Nim_K from these piles
//!   search-baseline treblecross BOARD   Treblecross from a row such as "..X..."
//!   search-baseline cram ROWS COLUMNS   Cram on an empty grid
//!   search-baseline chomp ROWS COLUMNS  Chomp on a whole rectangle
//!   search-baseline wythoff X Y         Wythoff's game from heaps X and Y
//!   search-baseline turtles ROW         Mock Turtles from a row such as "HTHH"
//!   search-baseline nodekayles ROWS COLUMNS  Node Kayles on a grid graph

mod chomp;
mod cram;
mod moore;
mod nodekayles;
mod treblecross;
mod turtles;
mod wythoff;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("moore") => moore::run(&args[1..]),
        Some("treblecross") => treblecross::run(&args[1..]),
        Some("cram") => cram::run(&args[1..]),
        Some("chomp") => chomp::run(&args[1..]),
        Some("wythoff") => wythoff::run(&args[1..]),
        Some("turtles") => turtles::run(&args[1..]),
        Some("nodekayles") => nodekayles::run(&args[1..]),
        _ => Err(
            "usage: search-baseline moore K PILE... | treblecross BOARD | cram ROWS COLUMNS \
             | chomp ROWS COLUMNS | wythoff X Y | turtles ROW | nodekayles ROWS COLUMNS"
                .to_string(),
        ),
    };
    match result {
        Ok(report) => {
            println!("value {}", report.value);
            println!("positions {}", report.positions);
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("search-baseline: {message}");
            ExitCode::from(2)
        }
    }
}

/// The numbers of a command line, such as ROWS and COLUMNS, named in the
/// message when one is missing or not a number.
pub fn numbers<const N: usize>(
    game: &str,
    names: [&str; N],
    args: &[String],
) -> Result<[usize; N], String> {
    if args.len() != N {
        return Err(format!("{game} needs {}", names.join(" and ")));
    }
    let mut parsed = [0; N];
    for ((into, name), text) in parsed.iter_mut().zip(names).zip(args) {
        *into = text.parse().map_err(|_| format!("bad {name} '{text}'"))?;
    }
    Ok(parsed)
}

/// What every solver prints.
pub struct Report {
    pub value: u32,
    pub positions: usize,
}

/// The least value missing from a set given as bits, with values of 64 and
/// more kept in a spill list (rare, but no value is capped).
#[derive(Default)]
pub struct Mex {
    low: u64,
    high: Vec<u32>,
}

impl Mex {
    pub fn clear(&mut self) {
        self.low = 0;
        self.high.clear();
    }

    #[inline]
    pub fn add(&mut self, v: u32) {
        if v < 64 {
            self.low |= 1 << v;
        } else {
            self.high.push(v);
        }
    }

    pub fn get(&mut self) -> u32 {
        let m = (!self.low).trailing_zeros();
        if m < 64 {
            return m;
        }
        self.high.sort_unstable();
        self.high.dedup();
        let mut m = 64;
        for &v in &self.high {
            if v == m {
                m += 1;
            } else if v > m {
                break;
            }
        }
        m
    }
}
