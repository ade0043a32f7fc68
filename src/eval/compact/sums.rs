//! Moves whose result is a sum of positions (`G(a) + G(b)`, a list of
//! positions, a comprehension of them, `[]` for the finished game), each
//! part a position of the game itself and so a key of the same layout.
//! Such a move is one option written as a sum of keys (see
//! `solve::dense::begin_sum`): the search finds each part's value and takes
//! their XOR, and a single position's listing turns the keys back into the
//! sum the interpreter would make. A move that leaves one position stays a
//! plain key, whatever the rule's other moves leave.

use super::code::{Bind, Num, Seq, Truth, Write};
use super::compile::{Compiler, Scope, Val, MAX_INLINE};
use super::layout::Layout;
use super::run::Machine;
use crate::eval::builtins::MAX_COLLECTION;
use crate::eval::engine::{Compiled, OrUnsupported, Unsupported};
use crate::eval::ir::{GameIr, Ir, IrKind, Program};
use crate::eval::value::Value;
use crate::solve::dense::{begin_sum, end_sum};
use crate::syntax::ast::BinaryOp;

/// What makes some of a sum's parts, in the order the interpreter makes
/// them.
#[derive(Debug)]
pub enum Part {
    /// One position of the game: the writes that make its key.
    Key(Vec<Write>),
    /// `if test then .. else ..`: the parts of the branch taken.
    If(Truth, Vec<Part>, Vec<Part>),
    /// A helper's argument put in a register, then the helper's parts.
    Let(Box<Bind>, Vec<Part>),
    /// `[... for var in over if guard]`: the parts made for each element.
    Each {
        var: u32,
        over: Over,
        guard: Option<Truth>,
        parts: Vec<Part>,
    },
}

/// What a comprehension of positions walks.
#[derive(Debug)]
pub enum Over {
    Seq(Seq),
    /// A list of numbers written out (`p in [a, n - a - k]`).
    Items(Vec<Num>),
}

/// Why a result is not compiled as a sum.
const SUMS: &str = "a result the compiled code cannot make: it makes positions of the same \
     game, sums of them (`+`), lists of them, `if` between them, comprehensions of them over \
     ranges, list parameters or lists of numbers written out, and helpers that return them";

/// Whether a result is a list of positions rather than a position (a
/// sum): the interpreter adds lists by joining them.
fn is_list(program: &Program, ir: &Ir, depth: u32) -> bool {
    match &ir.kind {
        IrKind::List(_) | IrKind::Comprehension { .. } | IrKind::Lit(Value::List(_)) => true,
        IrKind::Binary(BinaryOp::Add, a, _) | IrKind::If(_, a, _) => is_list(program, a, depth),
        IrKind::CallFn(f, _) if depth < MAX_INLINE => program
            .functions
            .get(*f as usize)
            .is_some_and(|func| is_list(program, &func.body, depth + 1)),
        _ => false,
    }
}

/// Every position a move's result of game `g` may be made of, in the
/// forms the compiled code makes, and whether a helper makes some of
/// them (their arguments are then the helper's variables); why not,
/// otherwise.
pub fn positions<'i>(
    program: &'i Program,
    g: u32,
    result: &'i Ir,
) -> Compiled<(Vec<&'i Ir>, bool)> {
    let mut found = Found {
        program,
        out: Vec::new(),
        by_helper: false,
    };
    found.gather(result, is_list(program, result, 0), 0)?;
    let Found { out, by_helper, .. } = found;
    if let [one] = &out[..] {
        if std::ptr::eq(*one, result) {
            return Ok((out, false));
        }
    }
    // A sum of several positions of a game with a `lose if` rule is an
    // error the interpreter reports.
    if program
        .games
        .get(g as usize)
        .is_some_and(GameIr::has_lose_rule)
    {
        return Err(Unsupported::new(
            "a sum of positions of a game with a `lose if` rule",
            result.span,
        ));
    }
    if let Some(other) = out
        .iter()
        .find(|p| !matches!(p.kind, IrKind::MakePos(h, _) if h == g))
    {
        return Err(Unsupported::new(
            "a sum holding a position of another game",
            other.span,
        ));
    }
    Ok((out, by_helper))
}

/// The positions found in a result so far.
struct Found<'i> {
    program: &'i Program,
    out: Vec<&'i Ir>,
    by_helper: bool,
}

impl<'i> Found<'i> {
    /// The positions in `ir`, a position (or a list of them when `list`),
    /// inside helpers `depth` deep.
    fn gather(&mut self, ir: &'i Ir, list: bool, depth: u32) -> Compiled<()> {
        let program = self.program;
        let refused = || Unsupported::new(SUMS, ir.span);
        let is_list = |x: &Ir| is_list(program, x, depth);
        match &ir.kind {
            IrKind::MakePos(..) if !list => self.out.push(ir),
            IrKind::Lit(Value::List(items)) if items.is_empty() => {}
            IrKind::List(items) => {
                for item in items {
                    self.gather(item, false, depth)?;
                }
            }
            IrKind::Comprehension { element, .. } => self.gather(element, false, depth)?,
            IrKind::Binary(BinaryOp::Add, a, b) | IrKind::If(_, a, b)
                if is_list(a) == is_list(b) =>
            {
                self.gather(a, is_list(a), depth)?;
                self.gather(b, is_list(b), depth)?;
            }
            IrKind::CallFn(f, _) if depth < MAX_INLINE => {
                let func = program.functions.get(*f as usize).ok_or_else(refused)?;
                self.by_helper = true;
                self.gather(&func.body, list, depth + 1)?;
            }
            _ => return Err(refused()),
        }
        if list != is_list(ir) {
            return Err(refused());
        }
        Ok(())
    }
}

impl Compiler<'_> {
    /// What makes the parts of a move's result, a sum or list of positions
    /// of the layout's game (`positions` vouched for its forms).
    pub(super) fn parts(
        &mut self,
        scope: &mut Scope,
        ir: &Ir,
        layout: &Layout,
        out: &mut Vec<Part>,
    ) -> Compiled<()> {
        match &ir.kind {
            IrKind::MakePos(..) => out.push(Part::Key(self.result(scope, ir, layout)?)),
            IrKind::Lit(_) => {}
            IrKind::List(items) => {
                for item in items {
                    self.parts(scope, item, layout, out)?;
                }
            }
            IrKind::Binary(_, a, b) => {
                self.parts(scope, a, layout, out)?;
                self.parts(scope, b, layout, out)?;
            }
            IrKind::CallFn(f, args) => {
                let parts = self.inline(
                    scope,
                    ir,
                    *f,
                    args,
                    |c, inner, body| {
                        let mut parts = Vec::new();
                        c.parts(inner, body, layout, &mut parts)?;
                        Ok(parts)
                    },
                    |bind, parts| vec![Part::Let(bind, parts)],
                )?;
                out.extend(parts);
            }
            IrKind::If(test, a, b) => {
                let test = self.truth(scope, test)?;
                let mut then = Vec::new();
                self.parts(scope, a, layout, &mut then)?;
                let mut otherwise = Vec::new();
                self.parts(scope, b, layout, &mut otherwise)?;
                out.push(Part::If(test, then, otherwise));
            }
            IrKind::Comprehension { element, clauses } => {
                let mut inner = scope.clone();
                let mut walks = Vec::new();
                for clause in clauses {
                    let source = &clause.generator.source;
                    let over = match &source.kind {
                        IrKind::List(items) => Over::Items(self.nums(&mut inner, items)?),
                        _ => Over::Seq(self.seq(&mut inner, source)?),
                    };
                    let var = self.reg();
                    *inner
                        .get_mut(clause.generator.slot as usize)
                        .or_unsupported(SUMS, ir.span)? = Some(Val::Num(var));
                    let guard = match &clause.guard {
                        Some(g) => Some(self.truth(&mut inner, g)?),
                        None => None,
                    };
                    walks.push((var, over, guard));
                }
                let mut parts = Vec::new();
                self.parts(&mut inner, element, layout, &mut parts)?;
                for (var, over, guard) in walks.into_iter().rev() {
                    parts = vec![Part::Each {
                        var,
                        over,
                        guard,
                        parts,
                    }];
                }
                out.extend(parts);
            }
            _ => return Err(Unsupported::new(SUMS, ir.span)),
        }
        Ok(())
    }
}

impl Machine {
    /// Appends the option a sum move makes from the current key.
    pub(super) fn sum_written(&mut self, parts: &[Part], out: &mut Vec<u64>) -> Option<()> {
        let at = begin_sum(out);
        self.parts_written(parts, out)?;
        // The interpreter refuses a list longer than this.
        (out.len() - at <= MAX_COLLECTION).then_some(())?;
        end_sum(out, at);
        Some(())
    }

    fn parts_written(&mut self, parts: &[Part], out: &mut Vec<u64>) -> Option<()> {
        for part in parts {
            match part {
                Part::Key(writes) => {
                    let key = self.written_onto(self.key, writes)?;
                    out.push(key);
                }
                Part::If(test, then, otherwise) => {
                    let branch = if self.truth(test)? { then } else { otherwise };
                    self.parts_written(branch, out)?;
                }
                Part::Let(bind, parts) => {
                    self.bind(bind)?;
                    self.parts_written(parts, out)?;
                }
                Part::Each {
                    var,
                    over,
                    guard,
                    parts,
                } => {
                    let (start, end) = match over {
                        Over::Seq(seq) => self.bounds(seq)?,
                        Over::Items(items) => (0, items.len() as i64),
                    };
                    for i in start..end {
                        self.step()?;
                        self.regs[*var as usize] = match over {
                            Over::Seq(seq) => self.item(seq, i)?,
                            Over::Items(items) => self.num(&items[i as usize])?,
                        };
                        if let Some(guard) = guard {
                            if !self.truth(guard)? {
                                continue;
                            }
                        }
                        self.parts_written(parts, out)?;
                    }
                }
            }
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use crate::eval::compact::Compact;
    use crate::eval::engine::Path;
    use crate::session::Session;

    /// Kayles' Grundy values for heaps 0 to 83 (OEIS A002186).
    const KAYLES: [u32; 84] = [
        0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2, 1, 4, 6, 7, 4, 1, 2, 8, 5, 4,
        7, 2, 1, 8, 6, 7, 4, 1, 2, 3, 1, 4, 7, 2, 1, 8, 2, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 4, 2, 7,
        4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 8, 1, 4, 7, 2, 1, 8, 2, 7,
    ];

    /// Kayles written in the ways the language guide teaches: a sum, a
    /// list, a comprehension that leaves out empty rows, and an `if`
    /// between one row and two.
    const KAYLES_RULES: [&str; 4] = [
        "move knock(k in 1..=2, a in 0..=n - k) if k <= n => G(a) + G(n - k - a);",
        "move knock(k in 1..=2, a in 0..=n - k) if k <= n => [G(a), G(n - k - a)];",
        "move knock(k in 1..=2, a in 0..n) if a + k <= n => [G(p) for p in [a, n - a - k] if p > 0];",
        "move knock(k in 1..=2, a in 0..n) if a + k <= n => \
           if a == 0 then G(n - k) else G(a) + G(n - a - k);",
    ];

    fn session(text: &str, compact: Compact) -> Session {
        let mut session = Session::new();
        session.interp.compact = compact;
        session
            .load_text("sums.game", text)
            .expect("the game loads");
        session
    }

    /// The ways the questions asked of `session` ran.
    fn paths(session: &Session) -> Vec<Path> {
        let entries = session.interp.engines.entries.iter();
        entries.map(|e| e.path.clone()).collect()
    }

    fn value(session: &mut Session, position: &str) -> u32 {
        let parts = session.position(position).expect("a position");
        session.value(&parts).expect("a value")
    }

    /// The values of `G(0)` to `G(upto)`, searched the way `compact` says,
    /// and the ways the searches ran.
    fn values(text: &str, upto: u32, compact: Compact) -> (Vec<u32>, Vec<Path>) {
        let mut session = session(text, compact);
        let values = (0..=upto)
            .map(|n| value(&mut session, &format!("G({n})")))
            .collect();
        (values, paths(&session))
    }

    #[test]
    fn kayles_as_sums_of_keys_has_the_published_values() {
        for rule in KAYLES_RULES {
            let text = format!("game G(n: nat) {{ {rule} }}");
            let (found, paths) = values(&text, 83, Compact::Fused);
            assert_eq!(found, KAYLES, "{rule}");
            assert!(
                paths.iter().all(|p| *p == Path::CompiledSearch),
                "{rule}: {paths:?}"
            );
            let (reference, _) = values(&text, 83, Compact::Off);
            assert_eq!(reference, KAYLES, "{rule}, by the interpreter");
        }
    }

    /// Heap 0 moves to the finished game, so it is worth 1, not 0: a part
    /// of 0 in a sum counts.
    #[test]
    fn a_heap_of_0_with_a_move_counts_in_a_sum() {
        let text = "game G(n: nat) {
            move z() if n == 0 => [];
            move t() if n >= 2 => G(n - 2);
            move s(a in 0..n) if n >= 1 => G(a) + G(n - 1 - a);
        }";
        // By the definition, independent of grundy.
        let mut want: Vec<u32> = vec![1];
        for n in 1..=40usize {
            let mut options: Vec<u32> = (0..n).map(|a| want[a] ^ want[n - 1 - a]).collect();
            if n >= 2 {
                options.push(want[n - 2]);
            }
            want.push((0..).find(|v| !options.contains(v)).expect("a mex"));
        }
        for compact in [Compact::Plain, Compact::Fused] {
            let (found, paths) = values(text, 40, compact);
            assert_eq!(found, want);
            assert!(
                paths.iter().all(|p| *p == Path::CompiledSearch),
                "{paths:?}"
            );
        }
    }

    /// With a symmetry declared, each part of a sum is stored as the
    /// position that stands for its family.
    #[test]
    fn sums_of_a_game_with_a_symmetry_have_the_interpreters_values() {
        let text = "game P(a: nat, b: nat) {
            symmetry = [P(b, a)];
            move left(k in 1..=a) => P(a - k, b) + P(k - 1, 0);
            move right(k in 1..=b) => [P(a, b - k), P(0, k - 1), P(k - 1, k - 1)];
            move clear() if a == b and a > 0 => [];
        }";
        for a in 0..=6 {
            for b in 0..=6 {
                let position = format!("P({a}, {b})");
                let want = value(&mut session(text, Compact::Off), &position);
                let mut fast = session(text, Compact::Fused);
                assert_eq!(value(&mut fast, &position), want, "{position}");
                let paths = paths(&fast);
                assert!(paths.contains(&Path::CompiledSearch), "{paths:?}");
            }
        }
    }

    /// The options of one position, with labels, listed the way `compact`
    /// says, and the ways they were listed.
    fn listed(text: &str, position: &str, compact: Compact) -> (Vec<String>, Vec<Path>) {
        let mut session = session(text, compact);
        let parts = session.position(position).expect("a position");
        let mut moves = Vec::new();
        session
            .interp
            .moves_of(parts[0], true, &mut moves)
            .expect("moves");
        let shown = moves
            .iter()
            .map(|m| {
                let label = m.label.as_ref().map(|l| l.text.clone());
                format!("{} {label:?} {}", m.rule, session.show_sum(&m.result))
            })
            .collect();
        (shown, paths(&session))
    }

    /// The compiled code lists the options of `position` itself, as the
    /// interpreter lists them.
    fn lists_as_the_interpreter(text: &str, position: &str) {
        let (want, _) = listed(text, position, Compact::Off);
        let (found, paths) = listed(text, position, Compact::Fused);
        assert_eq!(found, want, "{position}");
        assert!(
            paths.iter().all(|p| *p == Path::CompiledOptions),
            "{position}: {paths:?}"
        );
    }

    /// Helpers that return positions: their variables are not the game's
    /// parameters, even where a slot's number is the same (`x` of `one`
    /// is slot 0, as `n` is).
    #[test]
    fn positions_made_by_helpers_are_the_interpreters() {
        let text = "fn one(x: nat, n: nat) = H(x, n > 3);
            fn halves(n: nat, a: nat) = [H(a, false), H(n - a, true)];
            fn both(n: nat, a: nat) = halves(n, a) + [one(a, n)];
            game H(n: nat, up: bool) {
                move a(k in 1..n) if k < n - k => halves(n, k);
                move b(k in 1..=n) if up => one(n - k, k);
                move c(k in 2..n) if k * 2 <= n and not up => both(n - k, k - 1);
            }";
        for n in 0..=9 {
            for up in [false, true] {
                let position = format!("H({n}, {up})");
                let want = value(&mut session(text, Compact::Off), &position);
                let mut fast = session(text, Compact::Fused);
                assert_eq!(value(&mut fast, &position), want, "{position}");
                assert!(paths(&fast).contains(&Path::CompiledSearch), "{position}");
                lists_as_the_interpreter(text, &position);
            }
        }
    }

    #[test]
    fn sums_of_any_length_are_listed_as_the_interpreter_lists_them() {
        // Sums of no part, one part and several, made by a comprehension
        // over a range with a guard and by an `if`.
        let text = "game R(n: nat) {
            move all(k in 0..=n) if k < n => [R(j) for j in 0..k if j != 1];
            move pair(a in 0..n) => if a % 2 == 0 then [R(a) + R(a), R(n - 1 - a)] else [];
        }";
        for n in 0..=7 {
            let position = format!("R({n})");
            lists_as_the_interpreter(text, &position);
        }
    }
}
