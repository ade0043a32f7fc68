use super::*;
use crate::eval::compact::code::Fused;
use crate::eval::compact::code::GameCode;
use crate::eval::engine::Compiled;
use crate::session::Session;
use crate::types::Type;

/// The rules of `text`'s first game compiled, fused, for the position
/// whose arguments are `args` (and positions of its shape), or why they
/// are not.
fn compile_for(text: &str, args: &[Value]) -> Compiled<GameCode> {
    compile_with(text, args, true)
}

/// As `compile_for`, fused when `fuse` is set.
fn compile_with(text: &str, args: &[Value], fuse: bool) -> Compiled<GameCode> {
    let mut session = Session::new();
    session
        .load_text("test.game", text)
        .expect("the game loads");
    let program = &session.interp.program;
    let (fixed, letters) = fixed_and_letters(program, &[], 0).expect("its letters");
    let types: Vec<Type> = program.games[0]
        .params
        .iter()
        .map(|p| p.ty.clone())
        .collect();
    let changing = changing(program, 0);
    let layout =
        Layout::with_lengths(0, &types, args, (&fixed, &changing), &letters).expect("a layout");
    // The code for the keys of the position's shape.
    let shape = layout.shape(layout.encode(0, args).expect("a key"));
    games(program, &session.interp.consts, &layout, fuse).map(|mut codes| codes.swap_remove(shape))
}

fn compiled(text: &str, args: &[Value]) -> GameCode {
    compile_for(text, args).expect("the rules compile")
}

/// Whether `text`'s rules compile for a grid of two rows of three.
fn compiles_on_grid(text: &str) -> bool {
    let board = Value::list(vec![Value::str("..."), Value::str("...")]);
    compile_for(text, &[board]).is_ok()
}

/// A helper that makes the new board is written in place, however it
/// is spelled: set_at chains, a helper given the board another helper
/// made, an `if` choosing between two.
#[test]
fn helpers_that_make_the_new_board_compile() {
    let cover = "fn cover(b: grid, r: nat, c: nat) = set_at(b, r, set_at(b[r], c, \"#\"));\n";
    for result in [
        "cover(g, r, c)",
        "cover(cover(g, r, c), r, c + 1)",
        "twice(g, r, c, r + 1 < len(g))",
    ] {
        let text = format!(
            "{cover}fn twice(b: grid, r: nat, c: nat, down: bool) = \
             if down then cover(cover(b, r, c), r + 1, c) else cover(b, r, c);\n\
             game G(g: grid) {{\n  move m(r in indices(g), c in indices(g[r])) \
             if g[r][c] == \".\" => G({result});\n}}\n"
        );
        assert!(compiles_on_grid(&text), "{result}");
    }
}

/// A generator over the cells a comprehension keeps walks the cells,
/// the comprehension's test first in the guard: placing on the key.
#[test]
fn a_generator_over_the_kept_cells_places_on_the_key() {
    for kept in [
        r#"[j for j in indices(board) if board[j] == "."]"#,
        r#"[j for (j, c) in enumerate(board) if c != "X"]"#,
    ] {
        let text = format!(
            "game T(board: str) {{\n  let empty = {kept};\n  \
             move place(i in empty) => T(set_at(board, i, \"X\"));\n}}\n"
        );
        let code = compiled(&text, &[Value::str("....")]);
        assert!(
            matches!(code.rules[0].fused, Some(Fused::Place { .. })),
            "{kept}"
        );
    }
}

/// `set_at` with lists of places and letters written in pieces sets
/// each in turn; lists that are not sure to have one length are left to
/// the interpreter, which says why they must.
#[test]
fn several_places_set_at_once_compile_when_their_pieces_match() {
    let rule = |places: &str, letters: &str| {
        format!(
            "game T(board: str) {{\n  move m(i in 0..len(board) - 1, rest in \
             subsets(0..i, 0, 1)) => T(set_at(board, {places}, {letters}));\n}}\n"
        )
    };
    let board = [Value::str("....")];
    for (places, letters, compiles) in [
        ("[i, i + 1]", r#"["X", "X"]"#, true),
        ("rest + [i]", r#"["X" for j in rest] + ["X"]"#, true),
        ("[i] + rest", r#"["X"] + ["X" for j in 0..i]"#, false),
        ("[i, i + 1]", r#"["X"]"#, false),
    ] {
        let text = rule(places, letters);
        assert_eq!(
            compile_for(&text, &board).is_ok(),
            compiles,
            "{places}, {letters}"
        );
    }
}

/// A new list joined from pieces is written piece after piece,
/// however the pieces are spelled.
#[test]
fn a_new_list_joined_from_pieces_compiles() {
    let piles = [Value::list(vec![Value::Int(3); 3])];
    for joined in [
        "slice(h, 0, c) + [min(x, 1) for x in slice(h, c, len(h))]",
        "[h[j] for j in 0..c] + [min(h[j], 1) for j in c..len(h)]",
        "[h[0]] + slice(h, 1, len(h))",
    ] {
        let text = format!("game G(h: [nat]) {{\n  move m(c in indices(h)) => G({joined});\n}}\n");
        assert!(compile_for(&text, &piles).is_ok(), "{joined}");
    }
}

/// `any` over windows of cells testing each is X is tested on the key,
/// over every window (three X in a row) or some of them; an element that
/// reads its index is walked.
#[test]
fn any_window_of_letters_is_a_test_on_the_key() {
    for (lose, on_key) in [
        (
            "any([xs[i] and xs[i + 1] and xs[i + 2] for i in 0..len(xs) - 2])",
            true,
        ),
        (
            "any([xs[i + 2] and xs[i] and xs[i + 1] for i in 0..len(xs) - 2])",
            true,
        ),
        (
            "any([xs[i] and xs[i + 1] and xs[i + 2] for i in 0..len(xs) - 3])",
            true,
        ),
        ("any([xs[i] and xs[i + 2] for i in 0..len(xs) - 2])", true),
        ("any([xs[i] and i > 0 for i in 0..len(xs)])", false),
    ] {
        let text = format!(
            "game T(xs: [bool]) {{\n  lose if {lose};\n  move place(i in indices(xs)) \
             if not xs[i] => T(set_at(xs, i, true));\n}}\n"
        );
        let code = compiled(&text, &[Value::list(vec![Value::Bool(false); 6])]);
        // On the key, with the placing loop: no field is decoded.
        assert_eq!(!code.decode, on_key, "{lose}");
    }
}

/// A helper given the generator's own variable reads the cell the rule
/// without the helper reads: the placing loop runs on the key.
#[test]
fn a_helper_given_a_natural_variable_reads_it_as_it_is() {
    let text = "fn empty(board: str, i: nat) = board[i] == \".\";\n\
         game T(board: str) {\n  move place(i in indices(board)) if empty(board, i) \
         => T(set_at(board, i, \"X\"));\n}\n";
    let code = compiled(text, &[Value::str("....")]);
    assert!(matches!(code.rules[0].fused, Some(Fused::Place { .. })));
}

/// Tests that all end the loop end it together: in Wythoff's game in
/// one rule, `k * dx <= x and k * dy <= y` bounds `k` for each step,
/// and the options of each step form one progression of keys.
#[test]
fn tests_that_all_end_a_loop_bound_it_together() {
    let text = "game W(x: nat, y: nat) {\n  move take((dx, dy) in [(1, 0), (0, 1), (1, 1)], \
         k in 1..=max(x, y)) if k * dx <= x and k * dy <= y => W(x - k * dx, y - k * dy);\n}\n";
    let code = compiled(text, &[Value::Int(30), Value::Int(30)]);
    let rule = &code.rules[0];
    assert!(rule.guard.is_none() && rule.progression);
}

/// A new string given to a helper is made where the helper uses it,
/// as a new grid is: each letter set is written into the key, each
/// letter read is read through the `set_at`s before it; one left out of
/// the result is worked out where the helper is called, as the
/// interpreter works out every argument, so its errors are met too.
#[test]
fn helpers_given_a_new_string_write_it_letter_by_letter() {
    let flip =
        "fn flip(row: str, j: nat) = set_at(row, j, if row[j] == \"H\" then \"T\" else \"H\");\n\
         fn second(a: str, b: str) = b;\n";
    for (result, compiles) in [
        ("flip(flip(row, i), j)", true),
        ("second(flip(row, i), row)", true),
    ] {
        let text = format!(
            "{flip}game T(row: str) {{\n  move m(i in indices(row), j in 0..i) \
             if row[i] == \"H\" => T({result});\n}}\n"
        );
        let compiled = compile_for(&text, &[Value::str("HHTH")]).is_ok();
        assert_eq!(compiled, compiles, "{result}");
    }
}

/// A list of booleans is a string of two letters: placing true where
/// a cell is false runs on the key, however the test is written.
#[test]
fn placing_a_truth_value_runs_on_the_key() {
    for guard in ["not xs[i]", "xs[i] == false", "true != xs[i]"] {
        let text = format!(
            "game T(xs: [bool]) {{\n  move place(i in indices(xs)) if {guard} => \
             T(set_at(xs, i, true));\n}}\n"
        );
        let cells = Value::list(vec![Value::Bool(false); 5]);
        let code = compiled(&text, &[cells]);
        let placing = matches!(
            code.rules[0].fused,
            Some(Fused::Place { from: 0, to: 1, .. })
        );
        assert!(placing, "{guard}");
    }
}

/// A new board given to a helper that leaves it out of its result is
/// never made, so an error making it would go unseen: such a helper is
/// left to the interpreter.
#[test]
fn a_new_board_left_out_of_the_result_is_not_compiled() {
    let text = "fn second(a: grid, b: grid) = b;\n\
         game G(g: grid) {\n  move m(r in indices(g)) => G(second(set_at(g, r + 5, \"###\"), g));\n}\n";
    assert!(!compiles_on_grid(text));
}

fn placing(guard: &str) -> String {
    format!(
        "game T(board: str) {{\n  move place(i in indices(board)) if {guard} => \
         T(set_at(board, i, \"X\"));\n}}\n"
    )
}

/// Of two letters, not being one is being the other: however the test
/// is written, the placing loop runs on the key.
#[test]
fn not_one_of_two_letters_is_the_other_and_places_on_the_key() {
    for guard in [
        r#"board[i] == ".""#,
        r#"board[i] != "X""#,
        r#""X" != board[i]"#,
    ] {
        let code = compiled(&placing(guard), &[Value::str("....")]);
        assert!(
            matches!(code.rules[0].fused, Some(Fused::Place { .. })),
            "{guard}"
        );
    }
    // With a third letter, a cell that is not "X" may be "." or "O".
    let code = compiled(&placing(r#"board[i] != "X""#), &[Value::str("..O.")]);
    assert!(code.rules[0].fused.is_none());
}

/// A list of booleans made whole, every element the old one but one made
/// true, is that one element written: the placing loop runs on the key.
/// Made true by a test that is no equality, it is not.
#[test]
fn a_list_made_whole_that_changes_one_place_places_on_the_key() {
    let cells = Value::list(vec![Value::Bool(false); 4]);
    for (made, places) in [
        ("[cells[j] or j == i for j in indices(cells)]", true),
        (
            "[if i == j then true else cells[j] for j in 0..len(cells)]",
            true,
        ),
        ("[cells[j] or j <= i for j in indices(cells)]", false),
    ] {
        let text = format!(
            "game T(cells: [bool]) {{\n  move place(i in indices(cells)) \
             if cells[i] == false => T({made});\n}}\n"
        );
        let code = compiled(&text, std::slice::from_ref(&cells));
        let fused = matches!(code.rules[0].fused, Some(Fused::Place { .. }));
        assert_eq!(fused, places, "{made}");
    }
}

/// Windows of three cells tested with `all` in a helper, over every place
/// they fit, are tested on the key's bits: with the placing loop, no
/// field is decoded into registers. A window whose width the position
/// sets, or an element that reads its index, is walked.
#[test]
fn windows_of_cells_are_tested_on_the_key() {
    let cells = Value::list(vec![Value::Bool(false); 5]);
    for (lose, on_key) in [
        ("any([full(cells, i) for i in 0..len(cells) - 2])", true),
        ("not all([not full(cells, i) for i in 1..3])", true),
        ("any([wide(cells, i, len(cells) - 4) for i in 0..4])", false),
        (
            "any([full(cells, i) and i > 0 for i in 0..len(cells) - 2])",
            false,
        ),
    ] {
        let text = format!(
            "fn full(cells: [bool], i: nat) = all([cells[j] for j in i..i + 3]);\n\
             fn wide(cells: [bool], i: nat, w: nat) = all([cells[j] for j in i..i + w]);\n\
             game T(cells: [bool]) {{\n  lose if {lose};\n  move place(i in indices(cells)) \
             if cells[i] == false => T(set_at(cells, i, true));\n}}\n"
        );
        let code = compiled(&text, std::slice::from_ref(&cells));
        assert_eq!(code.decode, !on_key, "{lose}");
    }
}

/// The cells of a string are its columns, each the pair (0, column): a
/// rule over the empty ones places on the key, and `count` of a text
/// compared with a number reads the key alone, so no field is decoded.
#[test]
fn the_cells_of_a_string_place_on_the_key() {
    for (generator, lose) in [
        ("(_, i) in cells(board, \".\")", "count(board, \"XXX\") > 0"),
        ("(r, i) in cells(board, \".\")", "count(board, \"XX\") >= 2"),
    ] {
        let text = format!(
            "game T(board: str) {{\n  lose if {lose};\n  \
             move place({generator}) => T(set_at(board, i, \"X\"));\n}}\n"
        );
        let code = compiled(&text, &[Value::str("....")]);
        assert!(
            matches!(code.rules[0].fused, Some(Fused::Place { .. })),
            "{generator}"
        );
        assert!(!code.decode, "{generator}");
    }
}

/// A list of truth values made whole from parts read at every place at
/// once is one write of bits; where the place is moved (`u + 1`) or
/// compared with a number worked out, the comprehension is walked.
#[test]
fn truth_values_made_at_every_place_are_one_write_of_bits() {
    let free = Value::list(vec![Value::Bool(true); 5]);
    for (element, bits) in [
        ("free[u] and u != v and not (u in ADJ[v])", true),
        ("not (not free[u] or v == u) and u < 4", true),
        ("free[u] != (u == v or u == 2)", true),
        ("if u == v then not free[u] else free[u] == (u != 3)", true),
        ("free[u] and u != v and not (u + 1 in ADJ[v])", false),
        ("free[u] and u != v + 0", false),
        ("free[u] != (u + 0 == v)", false),
    ] {
        let text = format!(
            "const ADJ = [[1], [0, 2], [1, 3], [2, 4], [3]];\n\
             game G(free: [bool]) {{\n  move take(v in indices(free)) if free[v] => \
             G([{element} for u in indices(free)]);\n}}\n"
        );
        // Unfused, so that the comprehension stays as it is written.
        let code = compile_with(&text, std::slice::from_ref(&free), false).expect("it compiles");
        let one = matches!(code.rules[0].writes[..], [Write::Lanes(..)]);
        assert_eq!(one, bits, "{element}");
    }
}
