//! Parameters whose type nests: a tuple holding a boolean, a list of
//! tuples, a list of lists of numbers or booleans. The compiled search
//! holds each as the flat list of its records' elements, a record's length
//! fixed by the start. Here every position reachable from small starts is
//! asked of the reference interpreter and of the compiled code, step by
//! step and fused (values, options in order with their labels, errors
//! alike), for the games a user writes that way and for look-alikes the
//! compiled search must leave to the interpreter (rows of different
//! lengths, a row made longer); and the values are checked against
//! facts: several Wythoff queens are the sum of their Wythoff games, Nim
//! on rows of heaps is the XOR of all heaps.

mod common;

use common::engines::{agree_from, session, value_of, Limits};
use grundy::eval::engine::Path;
use grundy::eval::Compact;

const LIMITS: Limits = Limits {
    reached: 3000,
    max_positions: 20_000,
};

const QUEENS: &str = "game Queens(qs: [(nat, nat)]) {
  move row(i in indices(qs), k in 1..=qs[i][0]) => Queens(set_at(qs, i, (qs[i][0] - k, qs[i][1])));
  move col(i in indices(qs), k in 1..=qs[i][1]) => Queens(set_at(qs, i, (qs[i][0], qs[i][1] - k)));
  move diag(i in indices(qs), k in 1..=min(qs[i][0], qs[i][1])) => Queens(set_at(qs, i, (qs[i][0] - k, qs[i][1] - k)));
}
";

const ROWS: &str = "game Rows(rs: [[nat]]) {
  move take(r in indices(rs), i in indices(rs[r]), k in 1..=rs[r][i]) => Rows(set_at(rs, r, set_at(rs[r], i, rs[r][i] - k)));
}
";

/// Every engine agrees with the reference from each start (which reaches
/// every position of its game); `compiled` says whether the compiled
/// search must answer for it, and list every option itself.
fn agree(text: &str, starts: &[&str], compiled: bool) {
    let lists = compiled;
    agree_listing(text, starts, compiled, lists);
}

/// `agree`, where `lists` says whether the compiled code lists every
/// position's options (an error is left to the interpreter to report).
fn agree_listing(text: &str, starts: &[&str], compiled: bool, lists: bool) {
    let covered = agree_from("nested.game", text, starts, LIMITS, compiled);
    for (start, compared) in starts.iter().zip(covered) {
        assert_eq!(
            compared.searched_compiled, compiled,
            "{start}: searched compiled"
        );
        // Where it compiles, the compiled code lists the options itself.
        assert_eq!(
            compared.listed_compiled == compared.positions.len(),
            lists,
            "{start}: the options listed compiled"
        );
    }
}

/// The values of Wythoff's game up to `n` on each side, by brute force.
fn wythoff(n: usize) -> Vec<Vec<u32>> {
    let mut g = vec![vec![0u32; n + 1]; n + 1];
    for a in 0..=n {
        for b in 0..=n {
            let mut seen = vec![false; 2 * (a + b) + 2];
            let options = (1..=a)
                .map(|k| g[a - k][b])
                .chain((1..=b).map(|k| g[a][b - k]))
                .chain((1..=a.min(b)).map(|k| g[a - k][b - k]));
            for v in options {
                seen[v as usize] = true;
            }
            g[a][b] = seen.iter().position(|s| !s).unwrap_or(0) as u32;
        }
    }
    g
}

/// The value of a position by the compiled search, which must answer it.
fn compiled_value(text: &str, position: &str) -> u32 {
    let mut s = session("nested.game", text, Compact::Fused, LIMITS).expect("it loads");
    let value = value_of(&mut s, position).expect("a value");
    assert!(
        s.interp
            .engines
            .entries
            .iter()
            .any(|e| e.path == Path::CompiledSearch),
        "{position} is searched compiled"
    );
    value
}

#[test]
fn several_wythoff_queens_agree_with_the_reference_and_sum_as_wythoff_games() {
    agree(
        QUEENS,
        &[
            "Queens([(2, 3), (1, 2)])",
            "Queens([(3, 0), (0, 0), (2, 2)])",
        ],
        true,
    );
    let g = wythoff(12);
    for queens in [
        vec![(3, 5)],
        vec![(7, 4), (2, 9)],
        vec![(6, 6), (1, 5), (4, 2)],
    ] {
        let want = queens.iter().fold(0, |x, &(a, b)| x ^ g[a][b]);
        let written: Vec<String> = queens.iter().map(|(a, b)| format!("({a}, {b})")).collect();
        let position = format!("Queens([{}])", written.join(", "));
        assert_eq!(compiled_value(QUEENS, &position), want, "{position}");
    }
}

#[test]
fn nim_on_rows_of_heaps_agrees_with_the_reference_and_is_the_xor_of_its_heaps() {
    agree(
        ROWS,
        &["Rows([[1, 2], [3, 0]])", "Rows([[2], [1], [2]])"],
        true,
    );
    for rows in [
        vec![vec![5, 3, 6], vec![4, 1, 2]],
        vec![vec![7, 7], vec![2, 9], vec![1, 0]],
    ] {
        let want = rows.iter().flatten().fold(0, |x, &h| x ^ h);
        let written: Vec<String> = rows.iter().map(|r| format!("{r:?}")).collect();
        let position = format!("Rows([{}])", written.join(", "));
        assert_eq!(compiled_value(ROWS, &position), want, "{position}");
    }
}

/// A tuple holding a boolean, and a list of such tuples (with a `lose
/// if` rule that reads one); tuples and rows of integers below 0.
#[test]
fn tuples_holding_booleans_agree_with_the_reference() {
    let text = "game Tup(t: (nat, nat, bool)) {
  move take(k in 1..=t[0]) => Tup((t[0] - k, t[1], not t[2]));
  move flip(k in 1..=t[1]) if t[2] => Tup((t[0], t[1] - k, false));
  move set() if t[0] > t[1] => Tup(set_at(t, 2, t[0] % 2 == 0));
}
game Flags(qs: [(nat, bool)]) {
  lose if qs[0] == (0, true);
  move take(i in indices(qs), k in 1..=qs[i][0]) => Flags(set_at(qs, i, (qs[i][0] - k, not qs[i][1])));
  move drop(i in indices(qs)) if qs[i][1] => Flags(set_at(qs, i, (qs[i][0], false)));
}
";
    agree(
        text,
        &["Tup((4, 3, true))", "Flags([(3, true), (2, false)])"],
        true,
    );
    // Integers that go below 0, in a tuple and in a row.
    let signed = "game S(qs: [(int, nat)]) {
  move down(i in indices(qs)) if qs[i][1] > 0 => S(set_at(qs, i, (qs[i][0] - 2, qs[i][1] - 1)));
  move up(i in indices(qs)) if qs[i][0] < 0 and qs[i][1] > 1 => S(set_at(qs, i, (qs[i][0] + 1, qs[i][1] - 2)));
}
game T(rs: [[int]]) {
  move down(r in indices(rs), i in indices(rs[r])) if rs[r][i] > -3 => T(set_at(rs, r, set_at(rs[r], i, rs[r][i] - 1)));
}
";
    agree(
        signed,
        &["S([(1, 5), (0, 4)])", "T([[1, 0], [2, -1]])"],
        true,
    );
}

/// Records read whole: walked with a pattern, compared with `==`, copied
/// from one place to another, summed, a new list made record by record
/// with a comprehension, and a list of lists of booleans.
#[test]
fn records_read_and_written_whole_agree_with_the_reference() {
    let text = "game Pat(qs: [(nat, nat)]) {
  move take((a, b) in qs, k in 1..=a) if b > 0 => Pat(set_at(qs, 0, (a - k, b - 1)));
  move same(p in qs, i in indices(qs)) if qs[i] == p and p[1] > 0 => Pat(set_at(qs, i, (p[1] - 1, p[0])));
}
game Copy(rs: [[nat]]) {
  move take(r in indices(rs), k in 1..=rs[r][0]) => Copy(set_at(rs, r, [rs[r][0] - k, rs[r][1]]));
  move copy(r in indices(rs), s in indices(rs)) if rs[r][1] > rs[s][1] => Copy(set_at(rs, r, rs[s]));
  move sum(r in indices(rs)) if sum(rs[r]) > len(rs[r]) and rs[r] != [1, 1] => Copy(set_at(rs, r, [1, 1]));
}
game Each(qs: [(nat, nat)]) {
  move take((a, b) in qs, k in 1..=a) if b > 0 => Each([if q == (a, b) then (a - k, b - 1) else q for q in qs]);
  move halve(i in indices(qs)) if qs[i][1] > 1 => Each([if j == i then (qs[j][0], qs[j][1] / 2) else qs[j] for j in indices(qs)]);
}
game Lights(rs: [[bool]]) {
  move flip(r in indices(rs), i in indices(rs[r])) if rs[r][i] => Lights(set_at(rs, r, set_at(rs[r], i, false)));
  move row(r in indices(rs)) if rs[r][0] => Lights(set_at(rs, r, [false, not rs[r][1]]));
}
";
    agree(
        text,
        &[
            "Pat([(3, 2), (2, 3)])",
            "Copy([[2, 1], [3, 2]])",
            "Each([(2, 2), (1, 3)])",
            "Lights([[true, false], [true, true]])",
        ],
        true,
    );
}

/// Reads past a record's end or past the last record are errors the
/// interpreter reports, at the same place from either engine.
#[test]
fn reads_out_of_range_fail_alike() {
    let text = "game Far(rs: [[nat]]) {
  move take(r in 0..=len(rs), k in 1..=rs[r][0]) => Far(set_at(rs, r, set_at(rs[r], 0, rs[r][0] - k)));
}
game Wide(rs: [[nat]]) {
  move take(r in indices(rs), i in 0..=len(rs[0]), k in 1..=rs[r][i]) => Wide(set_at(rs, r, set_at(rs[r], i, rs[r][i] - k)));
}
game Set(rs: [[nat]]) {
  move take(r in indices(rs), k in 1..=rs[r][0]) => Set(set_at(rs, r, set_at(rs[r], 2, k)));
}
";
    let starts = ["Far([[1], [2]])", "Wide([[1, 2], [0, 1]])", "Set([[1, 2]])"];
    agree_listing(text, &starts, true, false);
}

/// Look-alikes the compiled search leaves to the interpreter, with the
/// same answers: rows of different lengths, a row made longer, a list
/// made by a comprehension that keeps some of the records.
#[test]
fn what_does_not_pack_is_answered_by_the_interpreter() {
    let text = "game Rows(rs: [[nat]]) {
  move take(r in indices(rs), i in indices(rs[r]), k in 1..=rs[r][i]) => Rows(set_at(rs, r, set_at(rs[r], i, rs[r][i] - k)));
}
game Grow(rs: [[nat]]) {
  move take(r in indices(rs), i in indices(rs[r]), k in 1..=rs[r][i]) => Grow(set_at(rs, r, set_at(rs[r], i, rs[r][i] - k)));
  move grow(r in indices(rs)) if len(rs[r]) < 3 => Grow(set_at(rs, r, rs[r] + [0]));
}
game Kept(qs: [(nat, nat)]) {
  move take((a, b) in qs, k in 1..=a) if b > 0 => Kept([q for q in qs if q != (a, b)] + [(a - k, b - 1)]);
}
";
    agree(
        text,
        &[
            "Rows([[1, 2], [3]])",
            "Grow([[1], [2]])",
            "Kept([(2, 2), (1, 3)])",
        ],
        false,
    );
}
