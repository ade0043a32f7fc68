//! Moves whose options form one arithmetic progression of keys: the last
//! generator walks a range, nothing that varies with its variable but a
//! bound (see `monotone`) is tested after it, and every field the move
//! writes is `a + b * k` in its variable `k` (Wythoff's `x - k`, a pile
//! `p - 2 * k`, a register of an outer generator). Each field's value then changes by the same amount
//! from one option to the next, and so does the key, which holds the
//! fields side by side: the keys at both ends of the range give every key
//! between. Checking both ends checks every key: a field that fits at both
//! ends fits between them, and a term that is computed without overflow at
//! both ends is computed without overflow between them.

use super::code::{Element, Rule, Seq, Source, Target, Walk, Write};
use super::monotone::{Reader, Trend};
use crate::solve::dense::push_run;

/// Whether the rule's last loop makes a progression of keys; `fields` is
/// how many registers hold the key's fields.
pub fn affine(rule: &Rule, fields: u32) -> bool {
    let Some(last) = rule.gens.last() else {
        return false;
    };
    let (Source::Each(Seq::Range(..)), Target::Reg(var)) = (&last.source, last.target) else {
        return false;
    };
    if rule.fused.is_some() || rule.early.last().is_some_and(Option::is_some) {
        return false;
    }
    let mut reader = Reader::new(var, fields);
    // A test that reads nothing that varies passes every value or none.
    if let Some(guard) = &rule.guard {
        if reader.truth(guard) != Some(Trend::Flat) {
            return false;
        }
    }
    rule.writes.iter().all(|w| match w {
        Write::Scalar(_, n) => reader.num(n).affine,
        Write::Element(_, i, n) => reader.num(i).is_flat() && reader.num(n).affine,
        Write::Whole(_, ns) => ns.iter().all(|n| reader.num(n).affine),
        // A new list made element by element (`[p - k for p in piles]`):
        // which elements it makes does not vary, and each is affine.
        Write::Comprehension {
            walk,
            element: Element::Num(n),
            ..
        } => flat_walk(&mut reader, walk) && reader.num(n).affine,
        _ => false,
    })
}

/// Whether a comprehension's walk visits the same values for every value
/// of the loop's variable.
fn flat_walk(reader: &mut Reader, walk: &Walk) -> bool {
    let over = match &walk.over {
        Seq::Range(lo, hi, _) => reader.num(lo).is_flat() && reader.num(hi).is_flat(),
        Seq::Fields(_) | Seq::Items(_) | Seq::Tuple(_) => true,
        Seq::Members(..) | Seq::Made(_) => false,
    };
    let guard = walk.guard.as_ref();
    over && guard.is_none_or(|g| reader.truth(g) == Some(Trend::Flat))
}

/// Appends the `count` keys `first`, `first + step`, ... as one run (a step
/// down as its two's complement, which the search reads in wrapping
/// arithmetic), or as the one key when there is only one.
pub fn push(out: &mut Vec<u64>, first: u64, step: i64, count: u64) {
    match count {
        0 => {}
        1 => out.push(first),
        _ => push_run(out, first, step as u64, count),
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::{compiled, inside};
    use crate::solve::dense::written_out;

    /// The options of `position` listed fused and step by step, and
    /// whether each rule was found to make a progression.
    fn both_ways(text: &str, position: &str) -> (Vec<u64>, Vec<u64>, Vec<bool>) {
        let mut lists = Vec::new();
        for fused in [true, false] {
            let (mut game, key) = compiled(text, position, fused);
            let mut out = Vec::new();
            game.options(key, &mut out).expect("options");
            lists.push(out);
        }
        let (game, _) = compiled(text, position, true);
        let found = inside(&*game).code.rules.iter().map(|r| r.progression);
        let found = found.collect();
        let plain = lists.pop().unwrap_or_default();
        (lists.pop().unwrap_or_default(), plain, found)
    }

    #[test]
    fn wythoffs_moves_are_progressions() {
        let text = "game W(x: nat, y: nat) {
            move l(k in 1..=x) => W(x - k, y);
            move r(k in 1..=y) => W(x, y - k);
            move b(k in 1..=min(x, y)) => W(x - k, y - k);
        }";
        let (fused, plain, found) = both_ways(text, "W(300, 200)");
        assert_eq!(found, [true, true, true]);
        // Keys that go down are runs too, read in wrapping arithmetic.
        assert_eq!(fused.len(), 9, "three runs: {fused:?}");
        assert_eq!(written_out(&fused), plain);
        assert_eq!(plain.len(), 700);
    }

    /// A count moved to a later field: the keys go up, in one run.
    #[test]
    fn keys_that_go_up_are_one_run() {
        let text = "game R(left: nat, got: nat) {
            move a(k in 1..=left) if 3 * k + got <= 110 => R(left - k, got + 2 * k);
        }";
        let (fused, plain, found) = both_ways(text, "R(9, 100)");
        assert_eq!(found, [true]);
        assert_eq!(fused.len(), 3, "one run: {fused:?}");
        assert_eq!(written_out(&fused), plain);
        assert_eq!(plain.len(), 3);
    }

    /// Each pile less the same amount, a new list made by a
    /// comprehension: one run.
    #[test]
    fn lists_made_element_by_element_are_progressions() {
        let text = "game L(xs: [nat]) {
            move both(k in 1..=min(xs)) => L([x - k for x in xs]);
            move some(k in 1..=xs[2]) => L([if i == 1 then x else x - k for (i, x) in enumerate(xs)]);
        }";
        let (fused, plain, found) = both_ways(text, "L([30, 20, 25])");
        assert_eq!(found, [true, true]);
        assert_eq!(fused.len(), 6, "two runs: {fused:?}");
        assert_eq!(written_out(&fused), plain);
        assert_eq!(plain.len(), 45);
    }

    #[test]
    fn moves_not_linear_in_the_variable_are_not_progressions() {
        let text = "game P(n: nat, xs: [nat]) {
            move a(k in 1..=n) if k * k <= n => P(n - k * k, xs);
            move b(k in 1..=n) => P(n % k, xs);
            move c(k in 0..len(xs)) => P(n, set_at(xs, k, 0));
            move d(k in 1..=n) if k != 2 => P(n - k, xs);
            move e(k in 1..=n) => P(n - k, set_at(xs, 0, n));
            move f(k in 1..=n) => P(n, [x * k % 7 for x in xs]);
        }";
        let (fused, plain, found) = both_ways(text, "P(5, [1, 2, 9])");
        assert_eq!(found, [false, false, false, false, true, false]);
        assert_eq!(written_out(&fused), written_out(&plain));
    }
}
