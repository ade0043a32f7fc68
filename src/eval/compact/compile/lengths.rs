//! Lists whose length the rules change. A list parameter keeps its length
//! when every result gives it a list as long as itself (the list, `set_at`
//! of it, it reversed, a comprehension over its elements or indices, or
//! pieces whose lengths add up to its own: `slice(h, 0, c) + [... for j in
//! c..len(h)]`). Any other list (Chomp keeps only the rows that are left)
//! is laid out with its length as a field of its own and room for as many
//! elements as it starts with (see `Group::Sized`), and the rules are
//! compiled once for each length it may have: every construct that reads
//! the list reads it as a list of that length. A list that some result may
//! make longer has more room (see `growing`). A string whose results have
//! lengths that follow from the expressions (`slice(w, 0, i) + "#" +
//! slice(w, i + 2, len(w))`), one of them another length than its own, is
//! laid out so too, its letters as codes; a string whose new length does
//! not follow from the expression keeps the fixed layout, and a result of
//! another length is handed to the interpreter. A string whose new length
//! is longer has room as a list has.

use super::{Compiler, Scope, Val, MAX_INLINE};
use crate::eval::builtins::Builtin;
use crate::eval::compact::code::{Appended, Bind, Num, Seq, Walk, Write};
use crate::eval::compact::layout::{Fields, Group};
use crate::eval::compact::sums;
use crate::eval::engine::Compiled;
use crate::eval::ir::{GameKind, Ir, IrKind, Param, Program};
use crate::eval::value::Value;
use crate::syntax::ast::BinaryOp;
use crate::types::Type;
use std::collections::BTreeMap;

impl Compiler<'_> {
    /// The write of a new list made whole (a comprehension, a list written
    /// out, pieces joined) for a list whose length changes: as long as it
    /// comes out. `None` for a value that keeps the list's length
    /// (`set_at` of the list, the list reversed).
    pub(super) fn resized(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        items: &Fields,
        length: &Fields,
        out: &mut Vec<Write>,
    ) -> Compiled<Option<Write>> {
        let pieces = match &ir.kind {
            IrKind::Builtin(Builtin::SetAt | Builtin::Reverse, _) => return Ok(None),
            _ if !super::unwritten(out) => return Ok(None),
            // What stands before the place joined to what stands after it.
            // The element taken out is read first, so that a place past the
            // end hands the position to the interpreter, which reports it.
            IrKind::Builtin(Builtin::RemoveAt, a) => {
                let [list, at] = &a[..] else {
                    return Ok(None);
                };
                let ir_of = |kind| Ir {
                    kind,
                    span: ir.span,
                };
                let read = ir_of(IrKind::Index(Box::new(list.clone()), Box::new(at.clone())));
                out.push(Write::Bind(Bind::Num {
                    reg: self.reg(),
                    value: self.num(scope, &read)?,
                    nat: false,
                }));
                let one = ir_of(IrKind::Lit(Value::Int(1)));
                let after = ir_of(IrKind::Binary(
                    BinaryOp::Add,
                    Box::new(at.clone()),
                    Box::new(one),
                ));
                let end = ir_of(IrKind::Builtin(Builtin::Len, vec![list.clone()]));
                let zero = ir_of(IrKind::Lit(Value::Int(0)));
                let before = ir_of(IrKind::Builtin(
                    Builtin::Slice,
                    vec![list.clone(), zero, at.clone()],
                ));
                let rest = ir_of(IrKind::Builtin(
                    Builtin::Slice,
                    vec![list.clone(), after, end],
                ));
                self.appended(
                    scope,
                    &ir_of(IrKind::Binary(
                        BinaryOp::Add,
                        Box::new(before),
                        Box::new(rest),
                    )),
                )?
            }
            IrKind::Comprehension { element, clauses } => {
                let (walk, mut inner) = self.walk(scope, clauses, ir, super::WRITES)?;
                let element = self.num(&mut inner, element)?;
                vec![Appended::Each(Box::new(walk), element)]
            }
            _ => match self.appended(scope, ir) {
                Ok(pieces) => pieces,
                // Any other list the rules can make whole (pieces joined
                // with a removal among them) is made first, then copied.
                Err(why) => {
                    let mut binds = Vec::new();
                    let Some(Val::Tuple(t)) = self.passed_list(scope, ir, false, &mut binds)?
                    else {
                        return Err(why);
                    };
                    out.extend(binds.into_iter().map(Write::Bind));
                    let var = self.reg();
                    let walk = Walk {
                        var,
                        over: Seq::Tuple(t),
                        guard: None,
                    };
                    vec![Appended::Each(Box::new(walk), Num::Reg(var))]
                }
            },
        };
        Ok(Some(Write::Sized {
            items: *items,
            length: *length,
            pieces,
        }))
    }

    /// A list whose length changes, as the list of the length the code is
    /// compiled for: what keeps its length (`set_at`, `reverse`) writes it
    /// so.
    pub(super) fn kept_length(&self, items: &Fields, text: bool) -> Group {
        let items = Fields {
            len: self.shape,
            ..*items
        };
        match text {
            true => Group::Str(items, self.layout.alphabet.clone()),
            false => Group::List(items),
        }
    }
}

/// Which parameters of game `g` are lists of numbers or strings whose
/// length some result may change: at most one (the layout holds one such
/// list), a list before a string.
pub fn changing(program: &Program, g: u32) -> Vec<bool> {
    by_results(program, g, |reader, (arg, text), own| {
        match reader.length(arg) {
            Some(length) => length != *own,
            // A string of a length that does not follow from the expression
            // (a `join` of letters a helper makes) is taken to keep it: one
            // that does not is handed to the interpreter.
            None => !text,
        }
    })
}

/// Which parameters of game `g` are lists of numbers or strings that some
/// result may make longer than they are (`remove_at(hs, i) + [a, b]`,
/// `slice(w, 0, i) + "a" + slice(w, i, len(w))`): such a list is laid out
/// with room for more elements than it starts with.
pub fn growing(program: &Program, g: u32) -> Vec<bool> {
    let within = |most: Length, own: &Length| {
        most.plus(own.clone(), -1)
            .is_some_and(|more| more.terms.is_empty() && more.constant <= 0)
    };
    by_results(program, g, |reader, (arg, text), own| {
        if text {
            // Only a string whose new length follows from the expression
            // is laid out with room (see `changing`).
            return reader
                .length(arg)
                .is_some_and(|length| !within(length, own));
        }
        !reader.bounds(arg).into_iter().any(|most| within(most, own))
    })
}

/// For each parameter of game `g`, whether it is a list of numbers or a
/// string and, for the first such one only, whether some result's
/// argument for it is `changed` (given that argument, whether it is a
/// string, and the parameter's own length).
fn by_results(
    program: &Program,
    g: u32,
    changed: impl Fn(&Reader, (&Ir, bool), &Length) -> bool,
) -> Vec<bool> {
    let Some(game) = program.games.get(g as usize) else {
        return Vec::new();
    };
    let mut changing = vec![false; game.params.len()];
    let GameKind::Rules { moves, .. } = &game.kind else {
        return changing;
    };
    let mut results = Vec::new();
    for m in moves {
        match sums::positions(program, g, &m.result) {
            // A helper's variables are not the game's parameters, and a
            // position a helper makes keeps lists as they are.
            Ok((made, false)) => results.extend(made),
            _ => return changing,
        }
    }
    // Lists of numbers first, then strings.
    let params = game.params.iter().enumerate();
    let numbers = |(_, p): &(usize, &Param)| matches!(&p.ty, Type::List(t) if matches!(**t, Type::Nat | Type::Int));
    let strings = |(_, p): &(usize, &Param)| p.ty == Type::Str;
    let lists = params.clone().filter(numbers).chain(params.filter(strings));
    for (i, param) in lists {
        let text = param.ty == Type::Str;
        let own = Length::of_param();
        let reader = Reader::top(program, i);
        let kept = results.iter().all(|result| match &result.kind {
            IrKind::MakePos(_, args) => args
                .get(i)
                .is_some_and(|a| !changed(&reader, (a, text), &own)),
            _ => true,
        });
        if !kept {
            changing[i] = true;
            break;
        }
    }
    changing
}

/// How many lengths `Reader::bounds` keeps for one expression.
const MOST_BOUNDS: usize = 8;

/// What a length is made of: `len` of the parameter, the game's number
/// variables, and a constant.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct Length {
    terms: BTreeMap<Atom, i64>,
    constant: i64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Atom {
    /// The parameter's length.
    Param,
    /// A number variable of the rule.
    Slot(u32),
}

impl Length {
    fn of_param() -> Length {
        Length::atom(Atom::Param)
    }

    fn atom(a: Atom) -> Length {
        Length {
            terms: BTreeMap::from([(a, 1)]),
            constant: 0,
        }
    }

    fn constant(n: i64) -> Length {
        Length {
            terms: BTreeMap::new(),
            constant: n,
        }
    }

    fn plus(mut self, other: Length, sign: i64) -> Option<Length> {
        for (atom, k) in other.terms {
            let entry = self.terms.entry(atom).or_insert(0);
            *entry = entry.checked_add(k.checked_mul(sign)?)?;
            if *entry == 0 {
                self.terms.remove(&atom);
            }
        }
        self.constant = self
            .constant
            .checked_add(other.constant.checked_mul(sign)?)?;
        Some(self)
    }
}

/// Reads lengths and numbers out of expressions, in the game's rule or a
/// helper's body (where `lists` gives the lengths of its list arguments).
struct Reader<'p> {
    program: &'p Program,
    /// The length of each list variable known.
    lists: BTreeMap<u32, Length>,
    /// Whether number variables are the rule's (not a helper's).
    top: bool,
    depth: u32,
}

impl<'p> Reader<'p> {
    fn top(program: &'p Program, param: usize) -> Reader<'p> {
        Reader {
            program,
            lists: BTreeMap::from([(param as u32, Length::of_param())]),
            top: true,
            depth: 0,
        }
    }

    /// The length of list `ir`, where it follows from the expression.
    fn length(&self, ir: &Ir) -> Option<Length> {
        match &ir.kind {
            IrKind::Local(s) => self.lists.get(s).cloned(),
            IrKind::List(items) => Some(Length::constant(items.len() as i64)),
            IrKind::Lit(Value::List(items)) => Some(Length::constant(items.len() as i64)),
            IrKind::Lit(Value::Str(s)) => Some(Length::constant(s.chars().count() as i64)),
            IrKind::Builtin(Builtin::SetAt | Builtin::Reverse | Builtin::Sort, a) => {
                self.length(a.first()?)
            }
            IrKind::Builtin(Builtin::Slice, a) => match &a[..] {
                [_, from, to] => self.number(to)?.plus(self.number(from)?, -1),
                _ => None,
            },
            IrKind::Binary(BinaryOp::Add, a, b) => self.length(a)?.plus(self.length(b)?, 1),
            IrKind::If(_, a, b) => {
                let a = self.length(a)?;
                (self.length(b)? == a).then_some(a)
            }
            IrKind::Comprehension { clauses, .. } => match &clauses[..] {
                [clause] if clause.guard.is_none() => self.count(&clause.generator.source),
                _ => None,
            },
            IrKind::CallFn(f, args) if self.depth < MAX_INLINE => {
                let func = self.program.functions.get(*f as usize)?;
                self.called(args, Reader::length).length(&func.body)
            }
            _ => None,
        }
    }

    /// Lengths list `ir` never passes, each where one follows from the
    /// expression: its length where that is known, and the most it may
    /// have by its parts (a filter keeps no more than it walks, a slice
    /// no more than its list, a removal one less). Several, since either
    /// may be the one that matches another's (`if j == 0 then slice(h, 0,
    /// i) else h`). For a helper's body, `lists` gives the most its list
    /// arguments may have.
    fn bounds(&self, ir: &Ir) -> Vec<Length> {
        let mut found: Vec<Length> = self.length(ir).into_iter().collect();
        let mut add = |more: Vec<Length>| {
            for length in more {
                if found.len() < MOST_BOUNDS && !found.contains(&length) {
                    found.push(length);
                }
            }
        };
        match &ir.kind {
            IrKind::Builtin(
                Builtin::SetAt | Builtin::Reverse | Builtin::Sort | Builtin::Slice,
                a,
            ) => {
                if let Some(list) = a.first() {
                    add(self.bounds(list));
                }
            }
            IrKind::Builtin(Builtin::RemoveAt, a) => {
                if let Some(list) = a.first() {
                    let one = |l: Length| l.plus(Length::constant(1), -1);
                    add(self.bounds(list).into_iter().filter_map(one).collect());
                }
            }
            IrKind::Binary(BinaryOp::Add, a, b) => {
                let (a, b) = (self.bounds(a), self.bounds(b));
                let sums = a
                    .iter()
                    .flat_map(|x| b.iter().filter_map(|y| x.clone().plus(y.clone(), 1)));
                add(sums.collect());
            }
            IrKind::If(_, a, b) => {
                let (a, b) = (self.bounds(a), self.bounds(b));
                let larger = |x: &Length, y: &Length| {
                    (x.terms == y.terms)
                        .then(|| if x.constant >= y.constant { x } else { y }.clone())
                };
                add(a
                    .iter()
                    .flat_map(|x| b.iter().filter_map(|y| larger(x, y)))
                    .collect());
            }
            IrKind::Comprehension { clauses, .. } => {
                if let [clause] = &clauses[..] {
                    let source = &clause.generator.source;
                    match &source.kind {
                        IrKind::Builtin(Builtin::Indices, a) => {
                            if let Some(list) = a.first() {
                                add(self.bounds(list));
                            }
                        }
                        IrKind::Binary(BinaryOp::RangeExclusive | BinaryOp::RangeInclusive, ..) => {
                            add(self.count(source).into_iter().collect())
                        }
                        _ => add(self.bounds(source)),
                    }
                }
            }
            IrKind::CallFn(f, args) if self.depth < MAX_INLINE => {
                if let Some(func) = self.program.functions.get(*f as usize) {
                    let most = |r: &Self, arg: &Ir| r.bounds(arg).into_iter().next();
                    add(self.called(args, most).bounds(&func.body));
                }
            }
            _ => {}
        }
        found
    }

    /// The reader of a helper's body given `args`, each list argument's
    /// length the one `of` finds.
    fn called(&self, args: &[Ir], of: impl Fn(&Self, &Ir) -> Option<Length>) -> Reader<'p> {
        let lists = args.iter().enumerate();
        let lists = lists.filter_map(|(slot, arg)| Some((slot as u32, of(self, arg)?)));
        Reader {
            program: self.program,
            lists: lists.collect(),
            top: false,
            depth: self.depth + 1,
        }
    }

    /// How many values generator source `ir` gives.
    fn count(&self, ir: &Ir) -> Option<Length> {
        match &ir.kind {
            IrKind::Binary(op @ (BinaryOp::RangeExclusive | BinaryOp::RangeInclusive), lo, hi) => {
                let n = self.number(hi)?.plus(self.number(lo)?, -1)?;
                let one = i64::from(*op == BinaryOp::RangeInclusive);
                n.plus(Length::constant(one), 1)
            }
            IrKind::Builtin(Builtin::Indices, a) => self.length(a.first()?),
            _ => self.length(ir),
        }
    }

    /// Number `ir` as a sum of lengths, variables and a constant.
    fn number(&self, ir: &Ir) -> Option<Length> {
        match &ir.kind {
            IrKind::Lit(Value::Int(n)) => Some(Length::constant(*n)),
            IrKind::Local(s) if self.top && !self.lists.contains_key(s) => {
                Some(Length::atom(Atom::Slot(*s)))
            }
            IrKind::Builtin(Builtin::Len, a) => self.length(a.first()?),
            IrKind::Binary(op @ (BinaryOp::Add | BinaryOp::Sub), a, b) => {
                let sign = if *op == BinaryOp::Add { 1 } else { -1 };
                self.number(a)?.plus(self.number(b)?, sign)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{changing, growing};
    use crate::eval::ir::Program;
    use crate::session::Session;

    /// What `by` says of the parameters of each game of a shipped file
    /// that has parameters.
    fn of_games(path: &str, by: fn(&Program, u32) -> Vec<bool>) -> Vec<Vec<bool>> {
        let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
        let text = std::fs::read_to_string(&file).expect("the file reads");
        let mut session = Session::new();
        session.load_text(path, &text).expect("the game loads");
        let program = &*session.interp.program;
        let games = program.games.iter().enumerate();
        let with_params = games.filter(|(_, g)| !g.params.is_empty());
        with_params.map(|(g, _)| by(program, g as u32)).collect()
    }

    /// Which parameters of the first game of a shipped file change length.
    fn changing_in(path: &str) -> Vec<bool> {
        of_games(path, changing).swap_remove(0)
    }

    /// Lists that a heap split in two makes longer grow, however the
    /// pieces are joined; lists that only lose elements (a removal, a
    /// filter, a slice of the list or pieces that add up to it) do not.
    #[test]
    fn only_lists_that_may_grow_are_given_room() {
        let grown = of_games("tests/unseen_games/grown.game", growing);
        assert_eq!(grown, [[true], [true], [true], [false], [false]]);
        for path in [
            "examples/chomp.game",
            "bench/games/search-rewrites/chomp-rows.game",
            "bench/games/search-rewrites/chomp-rows-kept.game",
            "bench/games/search-rewrites/chomp-heights-slice.game",
            "bench/games/search-rewrites/chomp-heights-joined.game",
        ] {
            assert_eq!(of_games(path, growing)[0], [false], "{path}");
        }
    }

    /// Chomp keeps only the rows that are left; every other way of writing
    /// a list's new value here gives it its own length, whatever the
    /// spelling (a comprehension over its indices or elements, a helper,
    /// a slice joined to the rest, two comprehensions joined).
    #[test]
    fn only_lists_that_may_change_length_are_sized() {
        for path in [
            "examples/chomp.game",
            "bench/games/search-rewrites/chomp-rows.game",
        ] {
            assert_eq!(changing_in(path), [true], "{path}");
        }
        for path in [
            "bench/games/chomp-heights.game",
            "bench/games/search-rewrites/chomp-heights-helper.game",
            "bench/games/search-rewrites/chomp-heights-enumerate.game",
            "bench/games/search-rewrites/chomp-heights-slice.game",
            "bench/games/search-rewrites/chomp-heights-joined.game",
            "bench/games/search-rewrites/wythoff-list.game",
            "bench/games/search-rewrites/mock-turtles-list.game",
            "bench/games/search-rewrites/mock-turtles-turned.game",
            "examples/nim.game",
        ] {
            assert!(!changing_in(path).contains(&true), "{path}");
        }
    }
}
