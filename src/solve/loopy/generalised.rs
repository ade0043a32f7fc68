//! A generalised Sprague-Grundy value (Smith's): a natural number, as in a
//! finite game, or infinity with the set K of the finite values among the
//! position's options. Sums and outcomes follow Smith's rule, as Winning
//! Ways (chapter 12) and Siegel's Combinatorial Game Theory (IV.4) state it.

use std::fmt;
use std::sync::Arc;

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Generalised {
    /// A position that behaves as a nim-heap of this size.
    Finite(u32),
    /// ∞K: the player to move can keep play going for ever, and can reach
    /// exactly the finite values in K (sorted, without repeats).
    Infinite(Arc<[u32]>),
}

/// Who wins with best play: the previous player (P), the next one (N), or
/// neither, since play goes on for ever (D, a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    P,
    N,
    D,
}

impl Outcome {
    pub fn letter(self) -> &'static str {
        match self {
            Outcome::P => "P",
            Outcome::N => "N",
            Outcome::D => "D",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.letter())
    }
}

impl Generalised {
    pub fn infinite(mut set: Vec<u32>) -> Generalised {
        set.sort_unstable();
        set.dedup();
        Generalised::Infinite(set.into())
    }

    /// The finite value, if the value is one.
    pub fn finite(&self) -> Option<u32> {
        match self {
            Generalised::Finite(v) => Some(*v),
            Generalised::Infinite(_) => None,
        }
    }

    /// Smith's rule for a sum: finite values xor; ∞K plus a finite value a
    /// is ∞(K xor a), every element of K xor-ed with a; two infinite parts
    /// make ∞∅, a draw.
    pub fn plus(&self, other: &Generalised) -> Generalised {
        match (self, other) {
            (Generalised::Finite(a), Generalised::Finite(b)) => Generalised::Finite(a ^ b),
            (Generalised::Infinite(k), Generalised::Finite(a))
            | (Generalised::Finite(a), Generalised::Infinite(k)) => {
                Generalised::infinite(k.iter().map(|v| v ^ a).collect())
            }
            (Generalised::Infinite(_), Generalised::Infinite(_)) => {
                Generalised::Infinite(Arc::from([]))
            }
        }
    }

    /// P for the value 0, N for any other number or an infinity whose set
    /// holds 0 (the player to move goes to a P-position), D otherwise.
    pub fn outcome(&self) -> Outcome {
        match self {
            Generalised::Finite(0) => Outcome::P,
            Generalised::Finite(_) => Outcome::N,
            Generalised::Infinite(k) if k.contains(&0) => Outcome::N,
            Generalised::Infinite(_) => Outcome::D,
        }
    }

    /// The value as text: `3`, `∞{0,2}`, or with `ascii` `inf{0,2}`.
    pub fn show(&self, ascii: bool) -> String {
        match self {
            Generalised::Finite(v) => v.to_string(),
            Generalised::Infinite(k) => {
                let set: Vec<String> = k.iter().map(u32::to_string).collect();
                let sign = if ascii { "inf" } else { "∞" };
                format!("{sign}{{{}}}", set.join(","))
            }
        }
    }

    /// The value in a JSON answer: a number, or `{"infinity": [0, 2]}`.
    pub fn to_json(&self) -> serde_json::Value {
        match self {
            Generalised::Finite(v) => serde_json::json!(v),
            Generalised::Infinite(k) => serde_json::json!({ "infinity": &k[..] }),
        }
    }
}

impl From<u32> for Generalised {
    fn from(v: u32) -> Generalised {
        Generalised::Finite(v)
    }
}

/// Whether a value is this number, so that `value == 0` still reads as
/// "the move wins" where only finite values can occur.
impl PartialEq<u32> for Generalised {
    fn eq(&self, other: &u32) -> bool {
        self.finite() == Some(*other)
    }
}

impl fmt::Display for Generalised {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.show(false))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inf(k: &[u32]) -> Generalised {
        Generalised::infinite(k.to_vec())
    }

    #[test]
    fn sums_follow_smiths_rule() {
        use Generalised::Finite;
        assert_eq!(Finite(3).plus(&Finite(5)), Finite(6));
        assert_eq!(inf(&[0, 2]).plus(&Finite(2)), inf(&[0, 2]));
        assert_eq!(inf(&[0, 3]).plus(&Finite(1)), inf(&[1, 2]));
        assert_eq!(Finite(1).plus(&inf(&[1])), inf(&[0]));
        assert_eq!(inf(&[0]).plus(&inf(&[0])), inf(&[]));
    }

    #[test]
    fn outcomes_follow_the_value() {
        assert_eq!(Generalised::Finite(0).outcome(), Outcome::P);
        assert_eq!(Generalised::Finite(4).outcome(), Outcome::N);
        assert_eq!(inf(&[0, 1]).outcome(), Outcome::N);
        assert_eq!(inf(&[1, 2]).outcome(), Outcome::D);
        assert_eq!(inf(&[]).outcome(), Outcome::D);
    }

    #[test]
    fn values_are_shown_with_and_without_unicode() {
        assert_eq!(inf(&[2, 0]).show(false), "∞{0,2}");
        assert_eq!(inf(&[2, 0]).show(true), "inf{0,2}");
        assert_eq!(inf(&[]).show(true), "inf{}");
        assert_eq!(Generalised::Finite(7).show(true), "7");
    }
}
