//! `set_at(s, i, ...)` whose new letter reads `s[i]`, the letter it
//! replaces (`set_at(row, c, if row[c] == "H" then "T" else "H")`): the
//! old letter is read into a string register of its own, and the new one
//! worked out from that register, as a helper given `row[c]` would have
//! it. The lowered code then reads the new letter off a table
//! of the old one (see `lookup::set_from_itself`).

use super::{children, children_mut, Compiler, Scope, Val};
use crate::eval::compact::code::{Bind, Text};
use crate::eval::engine::Compiled;
use crate::eval::ir::{Ir, IrKind};

impl Compiler<'_> {
    /// `set_at(s, i, letter)` for `s` and `i` named by the rules (locals)
    /// and a `letter` that reads `s[i]`; `None` for any other.
    pub(super) fn set_from_own_letter(
        &mut self,
        scope: &mut Scope,
        (s, i, letter): (&Ir, &Ir, &Ir),
    ) -> Compiled<Option<Text>> {
        let (IrKind::Local(text), IrKind::Local(place)) = (&s.kind, &i.kind) else {
            return Ok(None);
        };
        let old = |ir: &Ir| match &ir.kind {
            IrKind::Index(of, at) => {
                matches!((&of.kind, &at.kind), (IrKind::Local(t), IrKind::Local(p)) if t == text && p == place)
            }
            _ => false,
        };
        if !reads(letter, &old) {
            return Ok(None);
        }
        let value = Text::At(
            Box::new(self.text(scope, s)?),
            Box::new(self.num(scope, i)?),
        );
        let reg = self.text_reg();
        let slot = scope.len() as u32;
        let mut letter = letter.clone();
        read_as(&mut letter, &old, slot);
        scope.push(Some(Val::Text(reg)));
        let new = self.text(scope, &letter);
        scope.pop();
        let letter = Text::Let(Box::new(Bind::Text { reg, value }), Box::new(new?));
        Ok(Some(Text::SetAt(
            Box::new(self.text(scope, s)?),
            Box::new(self.num(scope, i)?),
            Box::new(letter),
        )))
    }
}

/// Whether `ir` holds a part `old` picks.
fn reads(ir: &Ir, old: &impl Fn(&Ir) -> bool) -> bool {
    if old(ir) {
        return true;
    }
    let mut found = false;
    children(ir, |child| found |= reads(child, old));
    found
}

/// `ir` with every part `old` picks read from local `slot` instead.
fn read_as(ir: &mut Ir, old: &impl Fn(&Ir) -> bool, slot: u32) {
    if old(ir) {
        ir.kind = IrKind::Local(slot);
        return;
    }
    children_mut(ir, |child| read_as(child, old, slot));
}
