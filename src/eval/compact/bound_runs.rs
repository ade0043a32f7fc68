//! A loop's bound (see `monotone`) as closures for running, kept beside
//! its tree: the tree stays for what reads its shape (the checks of
//! `monotone` and their tests), and the closures make it at each step as
//! fast as the rest of the compiled code, and they are what runs: the
//! tree is copied before it is lowered, and only a test that can be
//! copied is taken as a bound.

use super::closure::Closure;
use super::code::{Num, Truth};
use crate::syntax::ast::BinaryOp;

/// A bound's test lowered twice: as it is made (`and` and `or` cut
/// short), and with every comparison in it made (`exact`); and the
/// comparisons of its `and` chain, their operands lowered, where
/// `crossing` looks for lines.
#[derive(Debug)]
pub struct BoundRun {
    /// `Truth::Closure`, read where a test tree is.
    pub truth: Truth,
    pub exact: Closure<bool>,
    pub lines: Vec<Comparison>,
}

/// `a op b`, one comparison of a bound's `and` chain.
#[derive(Debug)]
pub struct Comparison {
    pub op: BinaryOp,
    pub a: Num,
    pub b: Num,
}

/// The comparisons of a test's `and` chain, in order.
pub fn comparisons(test: &Truth) -> impl Iterator<Item = (BinaryOp, &Num, &Num)> {
    let mut conjuncts = Vec::new();
    test.and_chain(&mut conjuncts);
    conjuncts.into_iter().filter_map(|c| match c {
        Truth::Compare(op, a, b) => Some((*op, a, b)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside, same_options};

    /// Every bound `monotone` finds, whatever it is made of (helpers,
    /// `not`, `or`, products, `min`, a field read at a constant place),
    /// runs as closures, and the loops it bounds give the options the
    /// plain code gives at every reachable position.
    #[test]
    fn every_bound_found_runs_as_closures() {
        for guard in [
            "k * k <= n",
            "sq(k) <= n",
            "not (k * k > n)",
            "k * k <= n or 2 * k < n",
            "k < n and k * k < n + 7",
            "max(k, 3) <= n and k <= m",
            "k / 2 <= n / 3",
            "2 * k >= n",
            "sq(k) + k >= n and k != 7",
            "(if n > 3 then k else 2 * k) <= n",
        ] {
            let text = format!(
                "fn sq(k: nat) = k * k;\n\
                 game G(n: nat, m: nat) {{ move m(k in 1..=n) if {guard} => G(n - k, m); }}"
            );
            let (game, _) = compiled(&text, "G(40, 5)", true);
            let rule = &inside(&*game).code.rules[0];
            assert!(rule.bounds[0].is_some(), "`{guard}` should bound the loop");
            assert!(rule.bound_runs[0].is_some(), "`{guard}` runs as closures");
            assert!(same_options(&text, "G(40, 5)") > 20, "{guard}");
        }
    }
}
