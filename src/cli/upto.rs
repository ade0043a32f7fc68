//! `--upto N` for a table of one free number, `--upto XxY` for two.

use std::fmt;
use std::str::FromStr;

/// How far a table runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Upto {
    /// g(0..=N).
    Line(u64),
    /// g(x, y) for x <= X and y <= Y.
    Grid(u64, u64),
}

impl FromStr for Upto {
    type Err = String;

    fn from_str(text: &str) -> Result<Upto, String> {
        let number = |part: &str| {
            part.trim().parse::<u64>().map_err(|_| {
                format!("`{text}` is not a count: write a natural number such as 30, or two joined by x such as 10x10")
            })
        };
        match text.split_once(['x', 'X']) {
            Some((x, y)) => Ok(Upto::Grid(number(x)?, number(y)?)),
            None => Ok(Upto::Line(number(text)?)),
        }
    }
}

impl fmt::Display for Upto {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            Upto::Line(n) => write!(f, "{n}"),
            Upto::Grid(x, y) => write!(f, "{x}x{y}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Upto;

    #[test]
    fn counts_and_pairs_of_counts() {
        assert_eq!("30".parse(), Ok(Upto::Line(30)));
        assert_eq!("10x12".parse(), Ok(Upto::Grid(10, 12)));
        for bad in ["10x", "x10", "-1", "10x10x10", "ten", ""] {
            assert!(bad.parse::<Upto>().is_err(), "{bad}");
        }
    }
}
