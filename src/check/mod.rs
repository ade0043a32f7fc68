//! Names, types and arity: the AST checked and compiled into the IR the
//! interpreter runs. Every mistake found is collected, so a file with many
//! gets them all reported at once.

mod bindings;
mod expr;
mod items;
mod loops;
mod scope;
pub mod suggest;

use crate::error::Errors;
use crate::eval::ir::{Ir, Program};
use crate::syntax::ast;
use crate::types::Type;
use std::sync::Arc;

pub use items::Checker;

/// Checks a file's items and returns the program extended with them; the
/// program given is left as it was if anything is wrong.
pub fn check_items(items: &[ast::Item], base: &Program) -> Result<Program, Errors> {
    check_items_warning(items, base, &mut Vec::new())
}

/// `check_items`, adding the warnings it finds to `warnings` either way.
pub fn check_items_warning(
    items: &[ast::Item],
    base: &Program,
    warnings: &mut Errors,
) -> Result<Program, Errors> {
    let mut checker = Checker::new(base.clone());
    checker.items(items);
    warnings.append(&mut checker.warnings);
    checker.finish()
}

/// `check_items_warning` in place: the definitions are added to `program`
/// itself, which is left as it was when there are errors. The program is
/// copied only when it is shared, so that a chain of imports, loaded file
/// by file, costs each file its own size rather than the whole program's.
pub fn check_items_into(
    items: &[ast::Item],
    program: &mut Arc<Program>,
    warnings: &mut Errors,
) -> Result<(), Errors> {
    let own = Arc::make_mut(program);
    let before = Lengths::of(own);
    let mut checker = Checker::new(std::mem::take(own));
    checker.items(items);
    warnings.append(&mut checker.warnings);
    let (mut checked, errors) = checker.into_parts();
    if !errors.is_empty() {
        before.restore(&mut checked);
    }
    *own = checked;
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// How long each part of a program was: checking only appends, so these
/// undo a check that failed.
struct Lengths {
    games: usize,
    functions: usize,
    consts: usize,
    claims: usize,
    callables: usize,
}

impl Lengths {
    fn of(program: &Program) -> Lengths {
        Lengths {
            games: program.games.len(),
            functions: program.functions.len(),
            consts: program.consts.len(),
            claims: program.claims.len(),
            callables: program.callables.len(),
        }
    }

    fn restore(&self, program: &mut Program) {
        program.games.truncate(self.games);
        program.functions.truncate(self.functions);
        program.consts.truncate(self.consts);
        program.claims.truncate(self.claims);
        program.callables.truncate(self.callables);
    }
}

/// A query typed on the command line or at the prompt: an expression that
/// may ask the solver. Returns its IR and how many slots it needs.
pub fn check_query(
    expr: &ast::Expr,
    program: &Program,
    warnings: &mut Errors,
) -> Result<(Ir, usize, Type), Errors> {
    check_query_with(expr, program, &[], warnings)
}

/// Like `check_query`, with variables already bound around the
/// expression (the REPL's `let` names): the i-th of `bound` lives in frame
/// slot i, and a name the expression binds itself shadows it.
pub fn check_query_with(
    expr: &ast::Expr,
    program: &Program,
    bound: &[(&str, Type)],
    warnings: &mut Errors,
) -> Result<(Ir, usize, Type), Errors> {
    let mut checker = Checker::new(program.clone());
    let mut scope = scope::Scope::new(true);
    for (name, ty) in bound {
        scope.bind(name, ty.clone());
    }
    let (ir, ty) = checker.expr(expr, &mut scope);
    let frame_size = scope.frame_size;
    warnings.append(&mut checker.warnings);
    checker.finish().map(|_| (ir, frame_size, ty))
}

/// Words for a type in an error message: "a number", "a list of strings".
pub fn describe(t: &Type) -> String {
    match t {
        Type::Nat | Type::Int => "a number".into(),
        Type::Bool => "a boolean".into(),
        Type::Str => "a string".into(),
        Type::Grid => "a grid".into(),
        Type::Game => "a position".into(),
        Type::List(_) | Type::Set(_) | Type::Tuple(_) => {
            let kind = match t {
                Type::List(_) => "a list",
                Type::Set(_) => "a set",
                _ => "a tuple",
            };
            format!("{kind} (`{t}`)")
        }
        Type::Unknown => "a value".into(),
    }
}

/// How to turn a value of type `found` into the `expected` one, where a
/// built-in does it: the help of a wrong-type error.
pub fn conversion(expected: &Type, found: &Type) -> Option<String> {
    let hint = match (expected, found) {
        (Type::Str, Type::List(e)) if **e == Type::Str => {
            "`join(...)` makes one string of a list of strings"
        }
        (Type::List(e), Type::Str) if **e == Type::Str => {
            "`list(...)` makes a list of a string's letters"
        }
        (Type::Set(_), Type::List(_) | Type::Str) => {
            "`set(...)` makes a set of the elements of a list or string"
        }
        (Type::List(_), Type::Set(_)) => {
            "`list(...)` makes a list of a set's elements, in increasing order"
        }
        (Type::Nat | Type::Int, Type::Bool) => {
            "`if b then 1 else 0` makes a number of a truth value"
        }
        (Type::Bool, Type::Nat | Type::Int) => {
            "compare the number to make a truth value, as in `n > 0`"
        }
        _ => return None,
    };
    Some(hint.into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::SourceId;
    use crate::syntax::parse_file;

    fn check(text: &str) -> Result<Program, Errors> {
        let file = parse_file(SourceId(0), text).expect("parses");
        check_items(&file.items, &Program::default())
    }

    #[test]
    fn checking_in_place_leaves_the_program_as_it_was_when_it_fails() {
        let items = |text: &str| parse_file(SourceId(0), text).expect("parses").items;
        let mut program = Arc::new(Program::default());
        let mut warnings = Vec::new();
        let first = "game Heap(n: nat) { move take(k in 1..=n) => Heap(n - k); }
            fn twice(n: nat) = 2 * n; const LIMIT = 3; claim Heap(2) == Heap(2);";
        check_items_into(&items(first), &mut program, &mut warnings).expect("checks");
        let shared = program.clone();
        let bad = "game Pile(n: nat) { move take(k in 1..=n) => Pile(n - k); }
            fn half(n: nat) = n / 2; const TOP = 4; claim Pile(1) == Pile(1);
            claim nowhere(1) == 1;";
        assert!(check_items_into(&items(bad), &mut program, &mut warnings).is_err());
        let names: Vec<&String> = program.callables.keys().collect();
        assert_eq!(names, ["Heap", "twice"]);
        assert_eq!(
            (program.games.len(), program.functions.len()),
            (1, 1),
            "the failed check's definitions are gone"
        );
        assert_eq!((program.consts.len(), program.claims.len()), (1, 1));
        assert_eq!(
            shared.callables.len(),
            2,
            "a copy held elsewhere is untouched"
        );
        // The names the failed check took are free again.
        let good = "game Pile(n: nat) { move take(k in 1..=n) => Pile(n - k); }";
        check_items_into(&items(good), &mut program, &mut warnings).expect("checks");
        assert_eq!(program.games[1].name, "Pile");
    }

    #[test]
    fn a_misspelled_game_gets_a_suggestion() {
        let errors = check("game Heap(n: nat) { move take(k in 1..=n) => Haep(n - k); }")
            .expect_err("Haep is unknown");
        let e = errors.first().expect("one error");
        assert!(
            matches!(&e.kind, crate::ErrorKind::UnknownName { suggestion: Some(s), .. } if s == "Heap")
        );
    }

    #[test]
    fn every_mistake_is_reported() {
        let errors = check("fn f(a) = b + c;").expect_err("b and c are unknown");
        assert_eq!(errors.len(), 2);
    }
}
