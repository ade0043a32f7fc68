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
