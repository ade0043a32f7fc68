//! A second generator over a range that grows with the heap, as in `a in
//! 1..n, b in 1..n if a + b == n`: every case that makes a move must fix
//! it by an equation (`b = n - a`), which is put in for it everywhere
//! after, with its range becoming two tests at the place the generator
//! stood. A number worked out before the equation holds is worked out for
//! every `b` of the range: it lies between its values at the two ends of
//! that range (it is affine in `b`), and those two are checked instead. A
//! case that makes no move keeps only what does not mention `b`.

use super::{Affine, Step, Test};

/// The second generator: its range (its ends may use `a`), and how many
/// tests were made before it.
#[derive(Clone, Copy)]
pub(super) struct Second {
    pub lo: Affine,
    pub hi: Affine,
    pub first_test: usize,
}

/// A case's tests, steps and heaps.
pub(super) type Parts = (Vec<Test>, Vec<Step>, Vec<Affine>);

/// The case with `b` eliminated; `None` if a case that makes a move has no
/// equation for it (or the arithmetic here would overflow).
pub(super) fn eliminate(
    (tests, steps, heaps): Parts,
    second: Second,
    moves: bool,
) -> Option<Parts> {
    let pin = tests.iter().enumerate().find_map(|(j, t)| match t {
        Test::Zero(t) if t.b.abs() == 1 => Some((j, *t)),
        _ => None,
    });
    let last = second.hi.combine(
        Affine {
            c: 1,
            ..Affine::default()
        },
        -1,
    )?;
    // Worked out for every b in its range: checked at both ends, where
    // only the tests before the generator hold.
    let ends = |s: &Step| -> Option<[Step; 2]> {
        Some([second.lo, last].map(|end| Step {
            value: put(s.value, end).unwrap_or(s.value),
            after: s.after.min(second.first_test),
            ..*s
        }))
        .filter(|pair| pair.iter().all(|s| s.value.b == 0))
    };
    let Some((j, t)) = pin else {
        if moves {
            return None;
        }
        let always = Test::AtMost(Affine::default());
        let tests = tests
            .into_iter()
            .map(|t| if t.uses_b() { always } else { t })
            .collect();
        let mut kept = Vec::new();
        for s in &steps {
            match s.value.b {
                0 => kept.push(*s),
                _ => kept.extend(ends(s)?),
            }
        }
        return Some((tests, kept, heaps));
    };
    // b·t.b + rest = 0 with t.b = ±1: b = -rest·t.b.
    let b = Affine { b: 0, ..t }.scaled(-t.b)?;
    let range = [
        Test::AtMost(second.lo.combine(b, -1)?),
        Test::Below(b.combine(second.hi, -1)?),
    ];
    let mut put_tests = Vec::with_capacity(tests.len() + 2);
    for (i, test) in tests.iter().enumerate() {
        if i == second.first_test {
            put_tests.extend(range);
        }
        put_tests.push(test.map(|x| put(x, b))?);
    }
    let moved = |after: usize| match after > second.first_test {
        true => after + 2,
        false => after,
    };
    let mut put_steps = Vec::with_capacity(steps.len());
    for s in &steps {
        if s.value.b == 0 {
            put_steps.push(Step {
                after: moved(s.after),
                ..*s
            });
        } else if s.after > j {
            put_steps.push(Step {
                value: put(s.value, b)?,
                after: moved(s.after),
                ..*s
            });
        } else {
            put_steps.extend(ends(s)?);
        }
    }
    let heaps = heaps.iter().map(|h| put(*h, b)).collect::<Option<_>>()?;
    Some((put_tests, put_steps, heaps))
}

/// `x` with `b` replaced by `e`.
fn put(x: Affine, e: Affine) -> Option<Affine> {
    Affine { b: 0, ..x }.combine(e.scaled(x.b)?, 1)
}
