//! Definitions typed at the REPL, which may replace earlier ones.
//!
//! A definition whose name is taken replaces the old one in its place,
//! and every definition loaded so far is checked again with it. If one
//! that uses the name no longer checks (the new game takes two numbers
//! where it was called with one), the new definition is refused with both
//! places shown and the session stays as it was: a session never holds a
//! definition that does not check. Otherwise the values of positions whose
//! game reads the same as before, through everything it uses, are kept;
//! the rest are dropped, and `let` names are worked out again.

use super::Session;
use crate::check;
use crate::error::{Error, Errors};
use crate::eval::ir::Program;
use crate::eval::Interp;
use crate::source::{SourceId, Span};
use crate::syntax::ast::{Ident, Item};
use crate::syntax::parse_file;
use std::sync::Arc;

/// One definition as written, and whether it was typed at the prompt
/// rather than read from a file.
#[derive(Clone, Debug)]
pub struct Definition {
    pub item: Item,
    pub typed: bool,
}

/// What a typed definition did.
#[derive(Debug, Default)]
pub struct Defined {
    /// How many claims it added (the last ones of the program).
    pub claims: usize,
    /// The names it gave a new definition.
    pub replaced: Vec<String>,
    /// The definitions that use a replaced name, checked again.
    pub rechecked: Vec<String>,
    /// Claims loaded earlier that no longer check, with why; they are gone.
    pub dropped_claims: Errors,
    /// The claims typed earlier that use a replaced name (their indices in
    /// the program), to be run again: a claim kept must hold.
    pub claims_to_rerun: Vec<usize>,
    /// `let` names that no longer have a value, with why; they are gone.
    pub unbound: Vec<(String, Errors)>,
}

/// The name a definition gives, if it gives one (a claim does not).
fn name_of(item: &Item) -> Option<&Ident> {
    match item {
        Item::Const(c) => Some(&c.name),
        Item::Fn(f) => Some(&f.name),
        Item::Game(g) => Some(&g.name),
        _ => None,
    }
}

/// Where a definition is, from its first keyword to its end.
pub fn span_of(item: &Item) -> Span {
    match item {
        Item::Const(c) => c.span,
        Item::Fn(f) => f.span,
        Item::Game(g) => g.span,
        Item::Claim(c) => c.span,
        Item::Use(u) => u.span,
    }
}

/// Whether `inner` lies within `outer`.
fn within(inner: Span, outer: Span) -> bool {
    inner.source == outer.source && outer.start <= inner.start && inner.end <= outer.end
}

/// Whether `text` names `name` as a whole word.
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices(name)
        .any(|(at, _)| !text[..at].ends_with(word) && !text[at + name.len()..].starts_with(word))
}

fn defines(program: &Program, name: &str) -> bool {
    program.callables.contains_key(name) || program.consts.iter().any(|c| c.name == name)
}

impl Session {
    /// A definition typed at the prompt, named `name` for diagnostics:
    /// like `load_text`, except that a name already defined, by a file or
    /// at the prompt, gets the new definition.
    pub fn define(&mut self, name: &str, text: &str) -> Result<Defined, Errors> {
        let source = self.sources.add(name, text);
        let file = parse_file(source, text)?;
        // `use` typed at the prompt imports relative to the current folder.
        self.load_imports(name, &file)?;
        let program = self.interp.program.clone();
        let replacing = file
            .items
            .iter()
            .filter_map(name_of)
            .any(|n| defines(&program, &n.name));
        if !replacing {
            let claims = self.add_items(file.items, true)?;
            return Ok(Defined {
                claims,
                ..Defined::default()
            });
        }
        self.replace(source, file.items)
    }

    /// The definitions typed at the prompt and still in force, in order.
    pub fn typed_definitions(&self) -> impl Iterator<Item = &Item> {
        self.definitions.iter().filter(|d| d.typed).map(|d| &d.item)
    }

    /// Forgets the claims at `indices` (in the program's order), which
    /// failed: a session keeps only claims that hold.
    pub fn drop_claims(&mut self, indices: &[usize]) {
        let mut program = (*self.interp.program).clone();
        let mut index = 0;
        program.claims.retain(|_| {
            index += 1;
            !indices.contains(&(index - 1))
        });
        self.interp.program = Arc::new(program);
        let mut index = 0;
        self.definitions.retain(|d| {
            if !matches!(d.item, Item::Claim(_)) {
                return true;
            }
            index += 1;
            !indices.contains(&(index - 1))
        });
    }

    fn replace(&mut self, source: SourceId, items: Vec<Item>) -> Result<Defined, Errors> {
        let old_count = self.definitions.len();
        let mut all = self.definitions.clone();
        let mut replaced_at: Vec<usize> = Vec::new();
        let mut replaced = Vec::new();
        for item in items {
            // Only an old definition is replaced: the same name twice in
            // one entry is still a name defined twice.
            let at = name_of(&item).and_then(|new| {
                (0..old_count).find(|i| {
                    !replaced_at.contains(i)
                        && name_of(&all[*i].item).is_some_and(|old| old.name == new.name)
                })
            });
            match at {
                Some(i) => {
                    replaced.extend(name_of(&item).map(|n| n.name.clone()));
                    replaced_at.push(i);
                    all[i] = Definition { item, typed: true };
                }
                None => all.push(Definition { item, typed: true }),
            }
        }
        let claims = all
            .iter()
            .filter(|d| matches!(d.item, Item::Claim(_)) && span_of(&d.item).source == source)
            .count();
        let mut dropped_claims = Vec::new();
        let program = loop {
            let items: Vec<Item> = all.iter().map(|d| d.item.clone()).collect();
            let mut warnings = Vec::new();
            let errors =
                match check::check_items_warning(&items, &Program::default(), &mut warnings) {
                    Ok(program) => {
                        // The other definitions' warnings were shown when they
                        // were loaded.
                        self.warnings
                            .extend(warnings.into_iter().filter(|w| w.span.source == source));
                        break program;
                    }
                    Err(errors) => errors,
                };
            // A claim loaded earlier that no longer checks is dropped
            // rather than standing in the way: nothing depends on a claim.
            let old_claim = |e: &Error| {
                all.iter().position(|d| {
                    matches!(d.item, Item::Claim(_))
                        && span_of(&d.item).source != source
                        && within(e.span, span_of(&d.item))
                })
            };
            if !errors.iter().all(|e| old_claim(e).is_some()) {
                let errors = errors
                    .into_iter()
                    .filter(|e| old_claim(e).is_none())
                    .collect();
                return Err(self.blame(errors, source, &all, &replaced));
            }
            let mut gone: Vec<usize> = errors.iter().filter_map(old_claim).collect();
            gone.sort_unstable();
            gone.dedup();
            for i in gone.into_iter().rev() {
                all.remove(i);
            }
            dropped_claims.extend(errors);
        };
        let rechecked = crate::reload::users(&program, &replaced);
        // The claims come in the order of the definitions; the new ones
        // are last and run anyway.
        let typed_claims = all
            .iter()
            .filter(|d| matches!(d.item, Item::Claim(_)))
            .map(|d| d.typed);
        let claims_to_rerun = program.claims[..program.claims.len() - claims]
            .iter()
            .zip(typed_claims)
            .enumerate()
            .filter(|(_, (claim, typed))| {
                *typed && crate::reload::claim_uses(&program, claim, &replaced)
            })
            .map(|(i, _)| i)
            .collect();

        let shown: Vec<(String, String)> = self
            .bindings
            .iter()
            .map(|(name, (value, _))| (name.clone(), self.interp.show(value)))
            .collect();
        let mut fresh = Interp::default();
        fresh.max_positions = self.interp.max_positions;
        fresh.compact = self.interp.compact;
        fresh.program = Arc::new(program);
        let old = std::mem::replace(&mut self.interp, fresh);
        crate::reload::carry_values(&old, &self.sources, &mut self.interp, &self.sources);
        self.definitions = all;
        self.tables.clear();
        self.interp.eval_consts().map_err(|e| vec![e])?;
        let unbound = self.rebind(shown);
        Ok(Defined {
            claims,
            replaced,
            rechecked,
            claims_to_rerun,
            dropped_claims,
            unbound,
        })
    }

    /// Works out each `let` name again, under the definitions now in
    /// force, from the text its value is shown as; returns the names that
    /// no longer have a value, which are dropped.
    pub fn rebind(&mut self, shown: Vec<(String, String)>) -> Vec<(String, Errors)> {
        self.bindings.clear();
        let mut unbound = Vec::new();
        for (name, text) in shown {
            match self.eval_typed(&text) {
                Ok(binding) => {
                    self.bindings.insert(name, binding);
                }
                Err(e) => unbound.push((name, e)),
            }
        }
        unbound
    }

    /// The errors that refuse a new definition: one in a definition that
    /// was already there is shown where it is, with the new definition
    /// beside it.
    fn blame(
        &self,
        errors: Errors,
        source: SourceId,
        all: &[Definition],
        replaced: &[String],
    ) -> Errors {
        let new_names: Vec<&Ident> = all
            .iter()
            .filter_map(|d| name_of(&d.item))
            .filter(|n| n.span.source == source && replaced.contains(&n.name))
            .collect();
        errors
            .into_iter()
            .map(|e| {
                if e.span.source == source {
                    return e;
                }
                let user = all
                    .iter()
                    .map(|d| &d.item)
                    .find(|item| within(e.span, span_of(item)));
                let text = user.map_or("", |item| self.sources.slice(span_of(item)));
                let user = user
                    .and_then(name_of)
                    .map_or_else(|| "a claim".to_string(), |n| format!("`{}`", n.name));
                // The new definitions this one names, or all of them.
                let mut blamed: Vec<&Ident> = new_names
                    .iter()
                    .copied()
                    .filter(|n| mentions(text, &n.name))
                    .collect();
                if blamed.is_empty() {
                    blamed = new_names.clone();
                }
                let names: Vec<String> = blamed.iter().map(|n| format!("`{}`", n.name)).collect();
                let mut e = e.with_context(format!(
                    "checking {user} again with the new {}: the new definition is refused and the old one kept",
                    names.join(", ")
                ));
                for n in blamed {
                    e = e.with_related(n.span, format!("the new `{}`", n.name));
                }
                e
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorKind;
    use crate::reload::tests::{known, value};

    const GAMES: &str = "
        fn step() = 1;
        game A(n: nat) { move take(k in 1..=n) => A(n - k); }
        game B(n: nat) { move take(k in 1..=step()) if k <= n => B(n - k); }
    ";

    fn session() -> Session {
        let mut s = Session::new();
        // The memo is what a redefinition carries: a search of packed keys
        // keeps positions out of it.
        s.interp.compact = crate::eval::Compact::Off;
        s.load_text("games.game", GAMES).expect("the games load");
        s
    }

    #[test]
    fn a_new_helper_drops_the_values_of_the_games_that_use_it() {
        let mut s = session();
        assert_eq!((value(&mut s, "A(5)"), value(&mut s, "B(5)")), (5, 1));
        let done = s
            .define("<definition 1>", "fn step() = 2;")
            .expect("it checks");
        assert_eq!(done.replaced, ["step"]);
        assert_eq!(done.rechecked, ["B"]);
        assert!(known(&mut s, "A(5)"), "A does not use step: kept");
        assert!(!known(&mut s, "B(5)"), "B does: forgotten");
        // Subtraction of 1 or 2: 5 mod 3.
        assert_eq!(value(&mut s, "B(5)"), 2);
        assert_eq!(s.typed_definitions().count(), 1);
    }

    #[test]
    fn a_definition_that_a_user_cannot_follow_is_refused_and_nothing_changes() {
        let mut s = session();
        value(&mut s, "B(4)");
        let errors = s
            .define("<definition 1>", "fn step(x) = x;")
            .expect_err("B calls step() with no argument");
        assert!(
            matches!(errors[0].kind, ErrorKind::WrongArity { .. }),
            "{:?}",
            errors[0].kind
        );
        assert_eq!(errors[0].related.len(), 1, "the new definition is shown");
        assert!(known(&mut s, "B(4)"), "the values stay");
        assert_eq!(value(&mut s, "B(4)"), 0);
        assert_eq!(s.typed_definitions().count(), 0);
    }

    #[test]
    fn a_let_name_is_worked_out_again_under_the_new_rules() {
        let mut s = session();
        let (v, ty) = s.eval_typed("B(4) + A(1)").expect("a position");
        s.bindings.insert("p".into(), (v, ty));
        s.define("<definition 1>", "fn step() = 2;")
            .expect("it checks");
        let p = s.position("p").expect("p still names a position");
        // 4 mod 3 = 1, xor 1.
        assert_eq!(s.value(&p).expect("a value"), 0);
    }

    #[test]
    fn a_loaded_claim_that_no_longer_checks_is_dropped_not_in_the_way() {
        let mut s = session();
        s.load_text("claims.game", "claim value(A(2)) == 2;")
            .expect("the claim loads");
        let done = s
            .define(
                "<definition 1>",
                "game A(n: nat, m: nat) { move take(k in 1..=n) => A(n - k, m); }",
            )
            .expect("only a claim stood in the way");
        assert_eq!(done.dropped_claims.len(), 1);
        assert_eq!(s.claim_count(), 0);
        assert_eq!(value(&mut s, "A(2, 7)"), 2);
    }
}
