//! Carrying computed values across a reload. A position keeps its value
//! when its game reads the same as before, and so does every game, helper
//! and constant that game uses, directly or not: then its moves, and so its
//! value, cannot have changed.

use crate::eval::ir::{Callable, ClaimIr, GameKind, Ir, IrKind, Program};
use crate::eval::{Interp, Value};
use crate::session::Session;
use crate::source::{Sources, Span};
use std::collections::{BTreeMap, BTreeSet};

/// A definition a game's rules may depend on.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Item {
    Game(u32),
    Function(u32),
    Const(u32),
}

/// Copies into `new` the values and heights `old` knows for positions of
/// games that did not change; returns how many positions kept theirs.
pub fn carry_over(old: &Session, new: &mut Session) -> usize {
    carry_values(&old.interp, &old.sources, &mut new.interp, &new.sources)
}

/// `carry_over` between two interpreters, each reading its definitions
/// from its own sources (a redefinition keeps one set of sources).
pub fn carry_values(
    old: &Interp,
    old_sources: &Sources,
    new: &mut Interp,
    new_sources: &Sources,
) -> usize {
    let old_program = &old.program;
    let new_program = new.program.clone();
    let old_prints = fingerprints(old_program, old_sources);
    let new_prints = fingerprints(&new_program, new_sources);
    // Old game id -> new game id, for games that read the same.
    let unchanged: BTreeMap<u32, u32> = old_program
        .games
        .iter()
        .enumerate()
        .filter_map(|(old_id, game)| {
            let Some(Callable::Game(new_id)) = new_program.callables.get(&game.name) else {
                return None;
            };
            (old_prints.get(&Item::Game(old_id as u32)) == new_prints.get(&Item::Game(*new_id)))
                .then_some((old_id as u32, *new_id))
        })
        .collect();
    let mut kept = 0;
    for pos in 0..old.positions.len() as u32 {
        let (game, args) = old.positions.get(pos);
        let Some(&new_game) = unchanged.get(&game) else {
            continue;
        };
        // Arguments that are positions name ids of the old session.
        if args.iter().any(holds_position) {
            continue;
        }
        let (value, height) = old.solver.known(pos);
        // A value carried over would lose the note that play from it can
        // reach a `lose if` position, and a sum with it would then be
        // taken: such positions are searched again instead.
        if (value.is_none() && height.is_none()) || old.solver.reaches_lose_rule(pos) {
            continue;
        }
        let id = new.positions.intern(new_game, args.clone());
        new.solver.remember(id, value, height);
        kept += 1;
    }
    kept
}

fn holds_position(v: &Value) -> bool {
    match v {
        Value::Pos(_) => true,
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => xs.iter().any(holds_position),
        _ => false,
    }
}

/// The games, helpers and constants that use one of `names`, directly or
/// through others, in the order they were defined; `names` themselves
/// are left out.
pub fn users(program: &Program, names: &[String]) -> Vec<String> {
    let items = (0..program.games.len() as u32)
        .map(Item::Game)
        .chain((0..program.functions.len() as u32).map(Item::Function))
        .chain((0..program.consts.len() as u32).map(Item::Const));
    let mut found: Vec<(Span, String)> = items
        .filter_map(|item| {
            let (name, span) = name_of(program, item);
            if names.iter().any(|n| n == name) {
                return None;
            }
            let mut closure = BTreeSet::new();
            collect(program, item, &mut closure);
            closure
                .iter()
                .any(|&used| names.iter().any(|n| n == name_of(program, used).0))
                .then(|| (span, name.to_string()))
        })
        .collect();
    found.sort_by_key(|(span, _)| (span.source, span.start));
    found.into_iter().map(|(_, name)| name).collect()
}

/// Whether a claim uses one of `names`, directly or through the games,
/// helpers and constants it names.
pub fn claim_uses(program: &Program, claim: &ClaimIr, names: &[String]) -> bool {
    let mut uses = Vec::new();
    for generator in &claim.generators {
        references(&generator.source, &mut uses);
    }
    claim.filter.iter().for_each(|f| references(f, &mut uses));
    references(&claim.body, &mut uses);
    let mut closure = BTreeSet::new();
    for used in uses {
        collect(program, used, &mut closure);
    }
    closure
        .iter()
        .any(|&item| names.iter().any(|n| n == name_of(program, item).0))
}

fn name_of(program: &Program, item: Item) -> (&str, Span) {
    match item {
        Item::Game(g) => {
            let g = &program.games[g as usize];
            (&g.name, g.definition)
        }
        Item::Function(f) => {
            let f = &program.functions[f as usize];
            (&f.name, f.definition)
        }
        Item::Const(c) => {
            let c = &program.consts[c as usize];
            (&c.name, c.definition)
        }
    }
}

/// For each game, the text of its definition and of everything it uses.
fn fingerprints(program: &Program, sources: &Sources) -> BTreeMap<Item, String> {
    (0..program.games.len() as u32)
        .map(|g| (Item::Game(g), fingerprint(program, sources, g)))
        .collect()
}

/// The text of a game's definition and of everything it uses: equal
/// fingerprints mean equal rules (a checkpoint is tied to one too).
pub fn fingerprint(program: &Program, sources: &Sources, game: u32) -> String {
    let mut closure = BTreeSet::new();
    collect(program, Item::Game(game), &mut closure);
    let texts: Vec<&str> = closure
        .iter()
        .map(|&item| text(program, sources, item))
        .collect();
    texts.join("\n")
}

fn text<'s>(program: &Program, sources: &'s Sources, item: Item) -> &'s str {
    let span = match item {
        Item::Game(g) => program.games[g as usize].definition,
        Item::Function(f) => program.functions[f as usize].definition,
        Item::Const(c) => program.consts[c as usize].definition,
    };
    sources.slice(span)
}

/// Adds `item` and everything it uses to `closure`.
fn collect(program: &Program, item: Item, closure: &mut BTreeSet<Item>) {
    if !closure.insert(item) {
        return;
    }
    let mut uses = Vec::new();
    // A wrong symmetry gives wrong values: what its images use counts too.
    if let Item::Game(g) = item {
        let symmetry = program.games[g as usize].symmetry.iter();
        for image in symmetry.flat_map(|s| &s.images) {
            references(image, &mut uses);
        }
    }
    match item {
        Item::Game(g) => match &program.games[g as usize].kind {
            GameKind::Rules { moves, lose, parts } => {
                for m in moves {
                    for generator in &m.generators {
                        references(&generator.source, &mut uses);
                    }
                    m.guard.iter().for_each(|g| references(g, &mut uses));
                    references(&m.result, &mut uses);
                }
                lose.iter()
                    .chain(parts)
                    .for_each(|e| references(e, &mut uses));
            }
            GameKind::Alias(body) => references(body, &mut uses),
            GameKind::Octal(_) | GameKind::TakeBreak(_) => {}
        },
        Item::Function(f) => references(&program.functions[f as usize].body, &mut uses),
        Item::Const(c) => references(&program.consts[c as usize].value, &mut uses),
    }
    for used in uses {
        collect(program, used, closure);
    }
}

/// The games, helpers and constants an expression names.
fn references(ir: &Ir, out: &mut Vec<Item>) {
    let all = |irs: &[Ir], out: &mut Vec<Item>| irs.iter().for_each(|e| references(e, out));
    match &ir.kind {
        IrKind::Lit(_) | IrKind::Local(_) => {}
        IrKind::Const(c) => out.push(Item::Const(*c)),
        IrKind::CallFn(f, args) => {
            out.push(Item::Function(*f));
            all(args, out);
        }
        IrKind::MakePos(g, args) => {
            out.push(Item::Game(*g));
            all(args, out);
        }
        IrKind::Builtin(_, args) | IrKind::List(args) | IrKind::Set(args) | IrKind::Tuple(args) => {
            all(args, out)
        }
        IrKind::Comprehension { element, clauses } => {
            references(element, out);
            for clause in clauses {
                references(&clause.generator.source, out);
                clause.guard.iter().for_each(|g| references(g, out));
            }
        }
        IrKind::If(a, b, c) => {
            references(a, out);
            references(b, out);
            references(c, out);
        }
        IrKind::Unary(_, a) => references(a, out),
        IrKind::Binary(_, a, b) | IrKind::Index(a, b) => {
            references(a, out);
            references(b, out);
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::error::ErrorKind;

    const BEFORE: &str = "
        fn step() = 1;
        game A(n: nat) { move take(k in 1..=n) => A(n - k); }
        game B(n: nat) { move take(k in 1..=step()) if k <= n => B(n - k); }
        game C(n: nat) { move take(k in {1, 2}) if k <= n => C(n - k); }
    ";

    fn session(text: &str) -> Session {
        let mut s = Session::new();
        s.load_text("games.game", text).expect("the games load");
        s
    }

    pub(crate) fn value(s: &mut Session, position: &str) -> u32 {
        let p = s.position(position).expect("a position");
        s.value(&p).expect("a value")
    }

    /// Whether the memo holds the value of `position`.
    pub(crate) fn known(s: &mut Session, position: &str) -> bool {
        let p = s.position(position).expect("a position");
        s.interp.solver.known(p[0]).0.is_some()
    }

    #[test]
    fn only_games_whose_rules_changed_lose_their_values() {
        let mut old = session(BEFORE);
        // The memo is what a reload carries: a search of packed keys keeps
        // A's positions out of it.
        old.interp.compact = crate::eval::Compact::Off;
        for p in ["A(5)", "B(5)", "C(5)"] {
            value(&mut old, p);
        }
        // B changes through the helper it calls; A and C read the same.
        let mut new = session(&BEFORE.replace("fn step() = 1;", "fn step() = 2;"));
        let kept = carry_over(&old, &mut new);
        assert_eq!(kept, 12, "A(0..=5) and C(0..=5) keep their values");
        assert!(known(&mut new, "A(5)") && known(&mut new, "C(3)"));
        assert!(!known(&mut new, "B(5)"));
        // The values carried over are the right ones, and B is recomputed
        // under its new rules.
        assert_eq!(value(&mut new, "A(5)"), 5);
        assert_eq!(value(&mut new, "C(5)"), 2);
        assert_eq!(value(&mut new, "B(5)"), 2);
    }

    #[test]
    fn a_game_whose_images_changed_through_a_helper_loses_its_values() {
        // Wrong at first: the helper swaps the heaps of a game that is not
        // symmetric, so P(3, 0) is given the value of P(0, 3).
        const GAMES: &str = "
            fn turned(a: nat, b: nat) = b;
            game P(a: nat, b: nat) {
              symmetry = [P(turned(a, b), turned(b, a))];
              move left(k in 1..=a) => P(a - k, b);
              move right(k in 1..=b) if k <= 2 => P(a, b - k);
            }
        ";
        let mut old = session(GAMES);
        old.interp.compact = crate::eval::Compact::Off;
        assert_eq!(value(&mut old, "P(3, 0)"), 0);
        let fixed = GAMES.replace(
            "fn turned(a: nat, b: nat) = b;",
            "fn turned(a: nat, b: nat) = a;",
        );
        let mut new = session(&fixed);
        carry_over(&old, &mut new);
        assert!(!known(&mut new, "P(3, 0)"), "P is searched again");
        assert_eq!(value(&mut new, "P(3, 0)"), 3);
    }

    #[test]
    fn a_position_that_reaches_a_lose_rule_stays_out_of_sums_after_a_reload() {
        const GAMES: &str = r#"
            fn unused() = 1;
            game T(b: str) {
              lose if has(b, "XX");
              move put(i in indices(b)) if b[i] == "." => T(set_at(b, i, "X"));
            }
            game X(n: nat) { move m() if n > 0 => T(".."); }
            game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k); }
        "#;
        let mut old = session(GAMES);
        // Alone, X(1) has a value; the search notes that it reaches T.
        value(&mut old, "X(1)");
        value(&mut old, "Heap(1)");
        let mut new = session(&GAMES.replace("fn unused() = 1;", "fn unused() = 2;"));
        carry_over(&old, &mut new);
        assert!(!known(&mut new, "X(1)"), "X(1) is searched again");
        assert!(known(&mut new, "Heap(1)"));
        let sum = new.position("X(1) + Heap(1)").expect("a position");
        let errors = new.value(&sum).expect_err("the sum is refused");
        assert!(
            matches!(errors[0].kind, ErrorKind::TerminalReachedInSum { .. }),
            "{:?}",
            errors[0].kind
        );
    }
}
