//! Two shapes of a rule's innermost loop met in most placement and
//! take-from-piles games, recognised once and run on the key itself: the
//! general loop would decode, test and write a field for every option.
//! `tests/compact.rs` compares both ways on every position of many games.

use super::code::{Char, Fused, GameCode, Indices, Num, Rule, Seq, Source, Target, Truth, Write};

/// The fused form of a rule's innermost loop, if it has one of the shapes.
pub fn recognise(rule: &Rule) -> Option<Fused> {
    let last = rule.gens.last()?;
    match (&last.source, last.target, &rule.writes[..]) {
        (
            Source::Each(Seq::Range(Num::Lit(0), Num::Lit(len), false)),
            Target::Reg(r),
            [Write::Cell(f, Num::Reg(i), Char::Code(to))],
        ) if *i == r && *len == i64::from(f.len) && *to >= 0 => {
            // The test is the guard, or the one made as soon as the
            // generator is set (the letter `cells` keeps).
            let test = match (&rule.guard, rule.early.last()) {
                (Some(test), None | Some(None)) | (None, Some(Some(test))) => test,
                _ => return None,
            };
            let from = match test {
                Truth::SameChar(true, Char::Cell(g, at), Char::Code(c))
                | Truth::SameChar(true, Char::Code(c), Char::Cell(g, at)) => {
                    (g == f && matches!(**at, Num::Reg(j) if j == r)).then_some(*c)?
                }
                _ => return None,
            };
            (from >= 0).then_some(Fused::Place {
                fields: *f,
                from,
                to: *to,
            })
        }
        (Source::ProductOf { .. } | Source::ProductList(_), Target::Tuple(t), writes)
            if rule.guard.is_none() =>
        {
            let (fields, at, placed) = super::placed::placed(writes, t)?;
            (at != Indices::Tuple(t)).then_some(Fused::SetProduct {
                fields,
                at,
                tuple: t,
                placed,
            })
        }
        _ => None,
    }
}

/// Whether the compiled rules must see the key's fields in registers.
pub fn needs_registers(code: &GameCode) -> bool {
    let lose_on_key = code.lose.as_ref().is_none_or(super::windows::on_key);
    let rules_on_key = code
        .rules
        .iter()
        .all(|r| r.gens.len() == 1 && matches!(r.fused, Some(Fused::Place { .. })));
    !(lose_on_key && rules_on_key)
}
