//! Values found by searching packed keys, step by step (`Compact::Plain`)
//! and with the innermost loops fused (`Compact::Fused`), must be exactly
//! what the general search finds: the same value for every position
//! reachable from many starts, and the same error where the general search
//! reports one (a cycle, an index out of range, a value that overflows).

mod common;

use common::engines::Limits;
use common::{reachable, session_with};
use grundy::eval::Compact;
use grundy::solve::dense::written_out;

/// Games in every shape the compiler knows, and some it refuses or must
/// give up on part way; the grid and string games of the benchmarks as
/// they are written there.
const GAMES: &str = concat!(
    include_str!("../bench/games/cram.game"),
    include_str!("../bench/games/chomp-grid.game"),
    include_str!("../bench/games/mock-turtles.game"),
    r##"
fn free(board: str, i: nat) = board[i] != "X" and board[i] != "O";
fn both(a: nat, b: nat) = min(a, b);

game Moore(k: nat, piles: [nat]) {
  move take(chosen in subsets(indices(piles), 1, k),
            left in product([0..piles[i] for i in chosen]))
    => Moore(k, set_at(piles, chosen, left));
}

game Treble(board: str) {
  lose if has(board, "XXX");
  move place(i in indices(board)) if board[i] == "." => Treble(set_at(board, i, "X"));
}

game Board(board: str) {
  lose if has(board, "XOX");
  move mark(i in indices(board)) if free(board, i) => Board(set_at(board, i, "X"));
  move other(i in indices(board)) if board[i] == "." or board[i] == "?" => Board(set_at(board, i, "O"));
}

game Domino(board: str) {
  move lay(i in 0..len(board) - 1) if board[i] == "." and board[i + 1] == "."
    => Domino(set_at(set_at(board, i, "#"), i + 1, "#"));
}

game Pair(a: nat, b: nat) {
  move down(k in 1..=a) => Pair(a - k, b);
  move swap(k in 0..1) if a < b => Pair(b - 1, a);
  move together(k in 1..=both(a, b)) => Pair(a - k, b - k);
}

game Spread(xs: [nat]) {
  move drop(i in 0..len(xs), t in 1..=xs[i]) => Spread([xs[j] - (if j == i then t else 0) for j in indices(xs)]);
  move halve(i in indices(xs)) if xs[i] >= 2 and xs[i] % 2 == 0 => Spread(set_at(xs, i, xs[i] / 2));
}

game Rect(xs: [nat]) {
  move cut(v in product([0..=xs[0], 0..=xs[1]])) if v[0] + v[1] > 0 and v[0] <= xs[0] - 0
    => Rect([xs[0] - v[0], xs[1] - v[1]]);
}

game Lower(xs: [nat], at: [nat]) {
  move lower(vs in product([0..xs[i] for i in at])) => Lower(set_at(xs, at, vs), at);
}

game Grow(n: nat, cap: nat) {
  move up(k in 1..3) if n + k <= cap => Grow(n + k, cap);
}

game Loop(n: nat) {
  move stay(k in 0..2) => Loop(n + k - k);
}

game Bad(xs: [nat]) {
  move oops(i in 0..len(xs) + 1) if len(xs) > 1 => Bad(set_at(xs, i, 0));
}

// Values past 253 no longer fit the table's bytes: it is widened part way.
game Take(n: nat) {
  move take(k in 1..=n) => Take(n - k);
}

game Below(n: nat) {
  move down(k in 1..=2) => Below(n - k);
}

// Take again, with a second number written anew by every move (so it is a
// field of the key, not held aside): from Wide(300, 2^46) the keys have 56
// bits, past the dense tables, and values past 252 no longer fit the
// packed table's slots beside the key.
game Wide(n: nat, pad: nat) {
  move take(k in 1..=n) => Wide(n - k, pad + 0);
}

// Three letters a cell; rows rebuilt by a literal list and by `+`; a
// string cut and glued back.
game Paint(g: grid) {
  move red(r in indices(g), c in indices(g[r])) if g[r][c] == "." => Paint(set_at(g, r, set_at(g[r], c, "r")));
  move swap(k in 0..1) if len(g) == 2 and g[0] != g[1] and has(g[0], "r") and not has(g[1], "r") => Paint([g[1], g[0]]);
  move shift(r in indices(g)) if g[r][0] == "r" => Paint(set_at(g, r, slice(g[r], 1, len(g[r])) + "b"));
}

game Cut(s: str) {
  move cut(i in 1..len(s)) if s[i - 1] == "a" => Cut(slice(s, i, len(s)) + repeat("b", i));
  move mark(i in indices(s)) if s[i] == "a" => Cut(set_at(s, i, "c"));
}

// Errors part way: a row too short, a row past the last, a letter of two.
game Ragged(g: grid) {
  move shorten(r in indices(g)) if len(g[r]) > 2 and g[r][0] == "." => Ragged(set_at(g, r, slice(g[r], 1, len(g[r]))));
}
game Past(g: grid) {
  move down(r in indices(g)) if g[r][0] == "." and g[r + 1][0] == "." => Past(set_at(g, r, "#"));
}
// 29 rows of one cell, 2 bits a letter: 58 bits, so rows are numbered,
// in one bit; a third distinct row stops the compiled search.
game Tall(g: grid) {
  move paint(r in indices(g)) if g[r] == "." => Tall(set_at(g, r, "r"));
  move blue(r in indices(g)) if g[r] == "r" => Tall(set_at(g, r, "b"));
}
// The cells holding a letter, walked by a pattern; `down` reads past the
// last row when a cell there is empty, which is an error at that cell only.
game CellCram(g: grid) {
  move across((r, c) in cells(g, ".")) if c + 1 < len(g[r]) and g[r][c + 1] == "."
    => CellCram(set_at(g, r, set_at(set_at(g[r], c, "#"), c + 1, "#")));
  move down((r, c) in cells(g, ".")) if g[r + 1][c] == "."
    => CellCram(set_at(set_at(g, r, set_at(g[r], c, "#")), r + 1, set_at(g[r + 1], c, "#")));
}

// Sets passed on unchanged are held aside: walked, and asked about.
game Subtract(s: {nat}, n: nat) {
  move take(k in s) if 1 <= k and k <= n => Subtract(s, n - k);
}
// A set's numbers come least first: a guard that fails on one fails on
// those after it, but only once they are not negative.
game Signed(s: {int}, n: nat) {
  move t(k in s) if k * k <= n => Signed(s, n - 1);
}
fn allowed(s: {nat}, m: nat) = m not in s;
game Avoid(s: {nat}, n: nat) {
  move down(k in 1..=3) if k <= n and allowed(s, n - k) => Avoid(s, n - k);
  move jump(k in 1..=n) if k in s and k * 2 <= n => Avoid(s, n - 2 * k);
}

// Guards tested as soon as their generator is set: one that fails on
// the last i (past the list) and one that never does.
game Early(xs: [nat]) {
  move m(i in 0..len(xs) + 1, j in 0..i) if xs[i] > 0 and j < xs[i] => Early(set_at(xs, i, j));
}
game Soon(xs: [nat]) {
  move m(i in indices(xs), j in 0..i, k in 0..=j) if xs[i] > 0 and k < xs[i] and j != k
    => Soon(set_at(xs, i, k));
}

// Booleans, one bit each: tested, written, compared and passed to helpers.
fn is_odd(n: nat) = n % 2 == 1;
fn pick(b: bool, x: nat) = if b then x else 0;
game Switch(on: bool, n: nat) {
  move take(k in 1..=n) if (on or k == 1) and k > pick(not on, 1) - 1 => Switch(not on, n - k);
  move wait(k in 0..1) if on and n > 0 and is_odd(n) == on => Switch(false, n - 1);
  move flip(k in 0..1) if (if n > 3 then not on else false) => Switch(true, n - 3);
}

// A tuple of small numbers, fields of the key like a list's.
fn total(p: (nat, nat)) = p[0] + p[1];
game Duo(p: (nat, nat)) {
  move left(k in 1..=p[0]) => Duo((p[0] - k, p[1]));
  move both(k in 1..=min(p[0], p[1])) if total(p) % 3 != 0 => Duo((p[0] - k, p[1] - k));
}

// Letters passed to a helper, one of them outside the alphabet.
fn next_letter(c: str) = if c == "a" then "b" else if c == "Q" then "Q" else c;
game Letters(s: str) {
  move up(i in indices(s)) if s[i] == "a" => Letters(set_at(s, i, next_letter(s[i])));
  move odd(i in indices(s)) if next_letter("Q") == "Q" and s[i] == "b" => Letters(set_at(s, i, "c"));
}
// Tuples compared whole (nested too), and membership in a string.
game Bite(h: [nat]) {
  move eat(c in indices(h), t in 0..h[c]) if (c, t) != (0, 0) and ((c, t), 1) != ((1, 1), 1)
    => Bite([if j < c then h[j] else min(h[j], t) for j in indices(h)]);
}
game Three(board: str) {
  lose if "XXX" in board;
  move place(i in indices(board)) if board[i] == "." and "X.X" not in board => Three(set_at(board, i, "X"));
  move late(i in indices(board)) if board[i] == "." and "X.X" in board => Three(set_at(board, i, "O"));
}
// The least and greatest of a list parameter.
game Even(xs: [nat]) {
  move both(k in 1..=min(xs)) if max(xs) - min(xs) <= 3 => Even([x - k for x in xs]);
  move one(i in indices(xs), k in 1..=xs[i]) => Even(set_at(xs, i, xs[i] - k));
}
// Generators over tuples written out, taken apart and indexed.
game Steps(x: nat, y: nat) {
  move take((dx, dy) in [(1, 0), (0, 1), (1, 1)], k in 1..=max(x, y)) if k * dx <= x and k * dy <= y
    => Steps(x - k * dx, y - k * dy);
  move jump(step in [(2, 1), (1, 2)]) if step[0] <= x and step[1] <= y => Steps(x - step[0], y - step[1]);
}
// Two letters: a cell that is not "X" is ".".
game Mark(board: str) {
  lose if "XXX" in board;
  move place(i in indices(board)) if board[i] != "X" => Mark(set_at(board, i, "X"));
}
// Operations on constants worked out once: an element at a constant
// index (past the end in `far`, an error), `min` and `max` of three,
// negation, and comparisons between literals.
game Fold(xs: [nat]) {
  move down(i in indices(xs), t in 0..xs[i]) if 1 + 1 == 2 and max(xs[0], t, 0 - -1) >= abs(t - xs[i])
    => Fold(set_at(xs, i, min(t, xs[i], 5 * 2 - 1)));
  move far(k in 0..1) if xs[0] > 3 => Fold(set_at(xs, 0, xs[3] - 1));
}
// Writes that read only the outer generator are made once for each of
// its values, and only when an option needs them: for i = len(xs) the
// first write is past the end, but no j is left to need it.
game Hoisted(xs: [nat]) {
  move m(i in 0..len(xs) + 1, j in 0..(if i < len(xs) then xs[i] else 0))
    => Hoisted(set_at(set_at(xs, i, 0), 0, j));
}
game Two(s: str) {
  move double(i in indices(s)) if s[i] == "." => Two(set_at(s, i, if i == 3 then "xx" else "x"));
}

// Guards that end a loop, spelled several ways: each rule's options stop
// at the first square past n (a rule per spelling, so that the options of
// each are compared in order).
fn square(k: nat) = k * k;
fn fits(k: nat, n: nat) = k ** 2 <= n;
game Squares(n: nat) {
  move a(k in 1..=n) if k * k <= n => Squares(n - k * k);
  move b(k in 1..=n) if n >= k * k => Squares(n - k * k);
  move c(k in 1..=n) if k + k * k <= n => Squares(n - k);
  move d(k in 1..=n) if not (k * k > n) => Squares(n - k * k);
  move e(k in 1..=n) if square(k) < n + 1 and k % 2 == 1 => Squares(n - square(k));
  move f(k in 0..n) if k >= 1 and fits(k, n) => Squares(n - k * k);
  move g(k in 1..=n) if 3 * k - n / 2 <= 4 or 2 * k < 3 => Squares(n - k);
}
// Guards that begin to hold part way: the loops start there.
game Late(n: nat) {
  move a(k in 1..=n) if 2 * k >= n => Late(n - k);
  move b(k in 0..n) if k * k > n and k % 2 == 0 => Late(k);
  move c(k in 1..=n) if k + 3 >= n => Late(n - k);
  move d(a in 0..n, b in 0..=a) if 3 * a >= n and a + b <= n => Late(n - a);
}
// Guards that fail and hold again further on: no loop may end early.
game Bumps(n: nat) {
  move a(k in 1..=n) if k % 3 <= n % 3 => Bumps(n - k);
  move b(k in 1..=n) if (k - 4) * (k - 4) <= n => Bumps(n - k);
  move c(k in 1..=n) if k * (8 - k) <= n => Bumps(n - k);
  move d(k in 1..=n) if k - 2 * k + k * k <= n and k != 3 => Bumps(n - k);
  move e(k in 1..=n) if 0 - k * k + n >= 0 - n or k == 5 => Bumps(n - k);
}
// An outer loop ended by its early test; an inner one by the guard.
game Pairs(n: nat) {
  move m(a in 0..=n, b in 1..=n) if a * a <= n and a + b <= n => Pairs(n - a - b);
}
// Options whose keys are a progression: going down (a field taken
// from), going up (a count moved to a later field), both, and ends that
// leave a field's width (the general search then answers).
game Rise(left: nat, got: nat) {
  move a(k in 1..=left) => Rise(left - k, got + 2 * k);
  move b(k in 0..left) if 2 * k + got <= 50 => Rise(left - 1, got + k);
}
game Carry(got: nat, left: nat) {
  move a(k in 1..=left) => Carry(got + 2 * k, left - k);
}
// Past the third option the count leaves its field: its keys would run
// on into the next field's bits.
game Jump(got: nat, left: nat) {
  move a(k in 1..=left) if got < 60 => Jump(got + 4 * k, 0);
}
// k * 2^61 overflows at k = 4, past the first and second options.
game Huge(left: nat) {
  move c(k in 1..=left) => Huge(left - k + k * 2305843009213693952 - k * 2305843009213693952);
}
game Shift(xs: [nat]) {
  move s(i in 0..len(xs) - 1, k in 1..=xs[i]) => Shift(set_at(set_at(xs, i, xs[i] - k), i + 1, xs[i + 1] + k));
  move t(i in indices(xs), k in 1..=xs[i]) => Shift(set_at(xs, i, xs[i] - k));
  move u(i in indices(xs), k in 2..=i + 3) if xs[i] >= 2 * k => Shift([xs[j] - (if j == i then 2 * k else 0) for j in indices(xs)]);
}
// Constants and sets known before the rules run: a bound named by a
// constant, a set and a list written in the rule or named by a constant
// (the list walked in its order, with its repeat), asked about and summed.
const CAP = 11;
const STEPS = {1, 3, 4};
const ORDER = [4, 1, 4, 2];
const ON = true;
game Capped(n: nat) {
  move up(k in 1..=2) if n >= 2 and n + k <= CAP and ON => Capped(n + k - 3);
  move take(s in STEPS) if s <= n => Capped(n - s);
  move odd(s in {2, 5}) if s <= n and n - s not in STEPS => Capped(n - s);
  move list(s in ORDER) if s + sum(ORDER) <= n + 11 and s <= n => Capped(n - s);
  move twice(k in [3, 2, 3]) if k in {3} and k <= n => Capped(n - k);
  move len(k in 0..len(ORDER)) if k + len(STEPS) <= n and k > 0 => Capped(n - k - len(STEPS));
}
// `count` of a number in a list parameter or a set, and of a letter in a
// string (a cell, a literal, one outside the alphabet); the item is worked
// out even when the list is empty, so `xs[0]` fails on `Tally([])`.
game Tally(xs: [nat]) {
  move down(i in indices(xs), t in 0..xs[i]) if count(xs, xs[i]) <= 2 or count(xs, t) > 0
    => Tally(set_at(xs, i, t));
  move odd(k in 1..=2) if count(xs, xs[0]) == 1 + count({1, 3}, k) and xs[0] >= k
    => Tally(set_at(xs, 0, xs[0] - k));
}
game Marks(board: str) {
  move place(i in indices(board)) if board[i] == "." and count(board, "X") < 3
    => Marks(set_at(board, i, "X"));
  move same(i in indices(board)) if board[i] == "X" and count(board, board[i]) == 2 and count(board, "Q") == 0
    => Marks(set_at(board, i, "O"));
  move runs(i in indices(board)) if board[i] == "." and count(board, "XX") == 1 and count(board, "O.O") + count(board, "") == 0
    => Marks(set_at(board, i, "O"));
}
// Integers below 0, kept with a sign: a number, a tuple's and a list's
// elements; from Walk(7) the walk leaves the field the start sizes (-8 to
// 7), and the interpreter answers those positions.
game Walk(x: int) {
  move left(k in 1..=2) if x - k >= -9 => Walk(x - k);
  move jump() if x > 2 => Walk(0 - x);
}
game Line(p: (int, nat), xs: [int]) {
  move step(k in 1..=2) if p[0] - k >= -6 => Line((p[0] - k, p[1]), xs);
  move back(i in indices(xs)) if xs[i] > -4 and p[1] > 0
    => Line((p[0], p[1] - 1), set_at(xs, i, xs[i] - 2));
  move sum(k in 0..1) if sum(xs) < 0 - p[1] and p[1] > 0 => Line(p, [xs[j] + 1 for j in indices(xs)]);
  move both() if sum(xs) < 0 and p[1] > 1 => Line((p[0], p[1] - 2), [xs[j] + 1 for j in indices(xs)]);
}
// Generators over the values a filtered comprehension keeps, named by a
// `let` or written in the rule; the second reads past the end of a list
// of four, an error at every such position.
game Kept(xs: [nat]) {
  let big = [i for i in indices(xs) if xs[i] > 1];
  move half(i in big, k in 1..=xs[i] / 2) => Kept(set_at(xs, i, xs[i] - k));
  move pair(i in indices(xs), j in [j for j in 0..len(xs) + (if len(xs) == 4 then 1 else 0) if xs[j] > xs[i]])
    => Kept(set_at(xs, j, xs[i]));
}
// The cells of a string are those of one row: (0, i).
game RowCells(board: str) {
  lose if count(board, "XXX") > 0;
  move place((r, i) in cells(board, ".")) if r == 0 and i % 3 != 1 => RowCells(set_at(board, i, "X"));
  move other(cell in cells(board)) if board[cell[1]] == "X" and cell[1] > 0 and board[cell[1] - 1] == "." => RowCells(set_at(board, cell[1] - 1, "O"));
}
// k ** 7 overflows past k = 512: the loop to `top` fails there, and so
// must the compiled search, however early its guard ends it.
game Seventh(n: nat, top: nat) {
  move m(k in 1..=top) if k * k * k * k * k * k * k <= n => Seventh(n - 1, top);
  move p(k in 1..=top) if k ** 7 <= n => Seventh(n - 1, top);
  move q(k in 1..=top) if k ** 7 > n and k < 3 => Seventh(n - 1, top);
}
// The last write sets the element at the last generator's value to a
// function of that element alone (read off a table): an error for some
// of its values (6 / 0), values past the field's width, and an index past
// the end.
fn turn(c: nat) = if c == 2 then 0 else c + 1;

game Dial(xs: [nat]) {
  move spin(i in indices(xs), k in 0..i) if xs[i] > 0
    => Dial(set_at(set_at(xs, i, xs[i] - 1), k, turn(xs[k])));
  move split(i in indices(xs), k in 0..i) if xs[i] > 1
    => Dial(set_at(set_at(xs, i, xs[i] - 2), k, 6 / xs[k]));
}

// The coins a move turns as the subsets of those left of the rightmost:
// the guard reads the rightmost alone and is tested before the subsets
// are walked, whose number the row's length bounds.
game Turned(row: str) {
  move turn(i in indices(row), others in subsets(0..i, 0, 2)) if row[i] == "H"
    => Turned(set_at(row, [i] + others, ["T"] + [if row[j] == "H" then "T" else "H" for j in others]));
}
// Subsets of a range that ends at a parameter: no earlier generator
// bounds them, so the guard waits for them.
game Open(row: str, n: nat) {
  move turn(i in indices(row), others in subsets(0..n, 0, 2)) if row[i] == "H"
    => Open(set_at(row, i, "T"), n);
}

// A string joined from one letter an element, written as a list's
// elements are; and one whose filter drops a letter, so that the string
// it makes is shorter than the key holds: handed back for that position.
fn turned(c: str) = if c == "H" then "T" else "H";

game Ruler(row: str) {
  move turn(i in indices(row), k in 1..=i + 1) if row[i] == "H"
    => Ruler(join([if j > i - k and j <= i then turned(row[j]) else row[j] for j in indices(row)]));
}

game Shorter(row: str) {
  move turn(i in indices(row)) if row[i] == "H"
    => Shorter(join([if j == i then "T" else row[j] for j in indices(row) if j != i or i > 2]));
}

// Node Kayles on a grid: a cell taken takes its neighbours with it, each
// new row joined from its letters; and a row joined from pieces longer
// than a letter, which the compiled code hands to the interpreter (where
// the row, grown longer than the others, is an error).
game Knock(g: grid) {
  move take(r in indices(g), c in indices(g[r])) if g[r][c] == "o"
    => Knock([join([if (i == r and j + 1 >= c and j <= c + 1) or (j == c and (i + 1 == r or i == r + 1)) then "." else g[i][j]
                    for j in indices(g[i])]) for i in indices(g)]);
}

game Smear(g: grid) {
  move wipe(r in indices(g)) if g[r][0] == "o"
    => Smear(set_at(g, r, join([if j == 0 then ".." else g[r][j] for j in indices(g[r])])));
}

// A heap taken away whole with `remove_at`, so the list gets shorter; and
// one whose place may be past the end, an error the interpreter reports.
game Shrink(hs: [nat]) {
  move drop(i in indices(hs)) if hs[i] > 0 => Shrink(remove_at(hs, i));
  move halve(i in indices(hs)) if hs[i] > 1 => Shrink(set_at(hs, i, hs[i] / 2));
}

game Overdrop(hs: [nat]) {
  move drop(k in 0..2) if len(hs) > 2 or k == 0 => Overdrop(remove_at(hs, len(hs) - 1 + k));
}

// Positions kept sorted: the list a move makes put in order, whole, and
// a sorted list written over; numbers that may be negative, and letters.
game Welter(coins: [nat]) {
  move slide(i in indices(coins), t in 0..coins[i]) if t not in coins
    => Welter(sort(set_at(coins, i, t)));
}

game Ordered(xs: [int]) {
  move lower(k in 1..=2) if min(xs) - k >= -3 => Ordered(set_at(sort(xs), 0, min(xs) - k));
  move drop(i in indices(xs)) if xs[i] > -3 => Ordered(sort(set_at(xs, i, xs[i] - 1)));
}

// Heaps kept sorted as they shrink, split in two or go: a sorted list
// whose length the moves change.
game Heaped(hs: [nat]) {
  move take(i in indices(hs), k in 1..=hs[i]) =>
    Heaped(sort([if j == i then h - k else h for (j, h) in enumerate(hs) if j != i or h > k]));
  move split(i in indices(hs), a in 1..hs[i]) if a <= hs[i] - a and len(hs) < 4 =>
    Heaped(sort(slice(hs, 0, i) + [a, hs[i] - a] + slice(hs, i + 1, len(hs))));
}

game Anagram(s: str) {
  move drop(i in indices(s)) if s[i] != "a" => Anagram(sort(set_at(s, i, "a")));
  move lower(i in indices(s)) if s[i] == "d" => Anagram(sort(set_at(s, i, "c")));
}

game Edge(s: str) {
  move flip(i in indices(s), k in 0..i + 2) if s[i] == "H"
    => Edge(set_at(set_at(s, i, "T"), k, if s[k] == "H" then "T" else "H"));
}

fn made(a: nat, b: nat) = Made(a, b);
fn again(a: nat, b: nat) = made(a, b);

game Made(x: nat, y: nat) {
  move a(k in 1..=x + y / 4) => again(x - k, y);
  move b(k in 1..=y) => if k > x then made(x, y - k) else Made(x + 1, y - k);
}

game Tests(xs: [nat]) {
  move a(i in indices(xs), k in 1..=xs[i]) if any([k > 1, i == 0, xs[i] == 3])
    => Tests(set_at(xs, i, xs[i] - k));
  move b(i in indices(xs)) if all([xs[i] > 0, xs[xs[i] / 2] >= 0]) and not any([])
    => Tests(set_at(xs, i, 0));
  move c(i in indices(xs)) if all([xs[i] > 1, xs[(i + 1) % len(xs)] > 1]) or not all([])
    => Tests(set_at(xs, i, xs[i] - 2));
}

game Eager(xs: [nat]) {
  move a(i in indices(xs)) if all([xs[i] > 1, xs[len(xs) + 1 - xs[i]] >= 0]) => Eager(set_at(xs, i, 0));
  move b(i in indices(xs)) if xs[i] > 0 => Eager(set_at(xs, i, xs[i] - 1));
}

game Split(xs: [nat]) {
  move m(d in 0..2, i in indices(xs)) if xs[i] > 1 and xs[i + d] > 0
    => if d == 0 then Split(set_at(xs, i, xs[i] - 2)) else Split(set_at(xs, i, xs[i] - 1));
}

game Zipped(piles: [nat]) {
  move take(chosen in subsets(indices(piles), 1, 2), taken in product([1..=piles[i] for i in chosen]))
    => Zipped(set_at(piles, chosen, [p - t for (p, t) in zip([piles[i] for i in chosen], taken)]));
  move past(chosen in subsets(indices(piles), 1, 1)) if piles[chosen[0]] == 3
    => Zipped(set_at(piles, chosen, [min(p, 2) for (p, _) in zip([piles[i + 1] for i in chosen], chosen)]));
}

"##
);

const STARTS: &[&str] = &[
    "Ruler(\"HTHHTH\")",
    "Ruler(\"HHHHHHH\")",
    "Shorter(\"HHHHH\")",
    "Welter([1, 4, 6, 9])",
    "Welter([0, 2, 3, 7, 8])",
    "Shrink([3, 1, 4, 2])",
    "Shrink([5, 0, 2])",
    "Overdrop([1, 2, 3, 4])",
    "Knock([\"ooo\", \"ooo\", \"oo.\"])",
    "Knock([\"oooo\", \"o.oo\"])",
    "Smear([\"ooo\", \"o.o\", \".oo\"])",
    "Ordered([2, -1, 3])",
    "Anagram(\"dcbcad\")",
    "Heaped([5, 2, 4, 0])",
    "Heaped([6, 1])",
    "Moore(2, [3, 2, 2])",
    "Moore(2, [4, 4, 4, 4])",
    "Moore(3, [3, 1, 2, 3])",
    "Moore(1, [5, 3])",
    "Treble(\"..........\")",
    "Treble(\"...X....\")",
    "Treble(\"XX.\")",
    "Board(\"..?...\")",
    "Board(\"X..?.O.\")",
    "Domino(\"..........\")",
    "Domino(\"...#....\")",
    "Pair(7, 5)",
    "Pair(0, 9)",
    "Spread([3, 4, 2])",
    "Spread([6, 1])",
    "Rect([4, 5])",
    "Rect([3, 2, 1])",
    "Lower([3, 4, 5], [0, 2])",
    "Lower([3, 4, 5], [1, 1])",
    "Lower([3, 4], [0, 5])",
    "Grow(0, 9)",
    "Grow(4, 6)",
    "Loop(3)",
    "Bad([1, 2, 3])",
    "Below(5)",
    "Take(300)",
    // Keys past 24 bits, in the packed table, which grows on the way.
    "Domino(\"..........#..........#########\")",
    "Treble(\"....O....O....\")",
    "Wide(300, 70368744177664)",
    "Cram([\"...\", \"...\", \"...\"])",
    "Cram([\"....\", \".#..\", \"....\"])",
    "Cram([\"..\", \"..\", \"..\", \"..\"])",
    "Chomp([\"....\", \"....\", \"....\"])",
    "Chomp([\".....\", \"...##\"])",
    "Turtles(\"HHHHHH\")",
    "Turtles(\"THTHHT\")",
    "Turned(\"HHHHHH\")",
    "Turned(\"THTHHT\")",
    "Open(\"HTHH\", 3)",
    "Open(\"HHHH\", 6)",
    "Paint([\"..\", \".b\"])",
    "Paint([\"...\"])",
    "Cut(\"aabab\")",
    "Ragged([\"...\", \"...\"])",
    "Ragged([\"....\", \"....\"])",
    "Past([\"..\", \"..\"])",
    "Two(\"....\")",
    "Letters(\"aab\")",
    "Subtract({2, 3, 5}, 30)",
    "Fold([3, 4, 2])",
    "Fold([5, 1, 2])",
    "Hoisted([2, 3, 1])",
    "Hoisted([3, 0, 2, 2])",
    "Avoid({4, 7}, 25)",
    "Signed({-5, -1, 0, 2, 4}, 9)",
    "Early([2, 1, 3])",
    "Soon([3, 1, 2, 4])",
    "Switch(true, 12)",
    "Switch(false, 9)",
    "Duo((7, 5))",
    "Bite([3, 3, 2])",
    "Bite([4, 2, 2, 1])",
    "Three(\"........\")",
    "Three(\"..X.....\")",
    "Even([4, 3, 5])",
    "Even([6, 6])",
    "Steps(7, 5)",
    "Steps(0, 6)",
    "Mark(\"..........\")",
    "Mark(\"..X..X...\")",
    // The least of no numbers: an error, reported alike.
    "Even([])",
    // A grid whose rows are numbered: 57 bits of letters.
    "Chomp([\"...................\", \"...................\", \"...................\"])",
    "Tall([\"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \"#\", \".\"])",
    "Two(\"...\")",
    "CellCram([\"#..\", \"...\", \"###\"])",
    "CellCram([\"...\", \"..#\", \"#..\"])",
    "Squares(40)",
    "Bumps(30)",
    "Late(25)",
    "Pairs(12)",
    "Rise(6, 40)",
    "Rise(7, 60)",
    "Rise(7, 56)",
    "Carry(56, 7)",
    "Carry(1, 9)",
    "Jump(50, 5)",
    "Jump(2, 5)",
    "Huge(3)",
    "Huge(6)",
    "Shift([3, 0, 2])",
    "Shift([6, 1, 7, 0])",
    "Capped(20)",
    "Capped(9)",
    "Tally([3, 2, 3])",
    "Tally([4, 1, 1, 2])",
    "Tally([])",
    "Marks(\"......\")",
    "Marks(\"..O.X..\")",
    "Marks(\"XXX....\")",
    "RowCells(\"........\")",
    "Kept([4, 2, 5])",
    "Kept([3, 1, 2])",
    "Kept([6, 0, 1, 3])",
    "Walk(0)",
    "Walk(-3)",
    "Walk(7)",
    "Line((0, 3), [1, -2])",
    "Line((-5, 4), [-1, 0, 2])",
    "RowCells(\".X..O...\")",
    "Marks(\".XXXX.X..\")",
    "Seventh(20, 511)",
    "Seventh(20, 512)",
    "Seventh(20, 100000)",
    "Dial([1, 2, 2])",
    "Dial([2, 1, 3, 0])",
    "Dial([3, 3, 3, 3])",
    "Edge(\"THTH\")",
    "Edge(\"HHT\")",
    "Made(3, 2)",
    "Made(2, 4)",
    "Made(1, 9)",
    "Tests([3, 2, 4])",
    "Tests([1, 5, 2, 2])",
    "Tests([7, 1])",
    "Eager([2, 3])",
    "Split([3, 1, 2])",
    "Split([3, 2, 1])",
    "Split([4, 4, 1])",
    "Zipped([2, 3, 1])",
    "Zipped([2, 2, 3])",
    "Zipped([1, 2, 2])",
];

/// The value of each position, or its error, in a fresh session searching
/// the way `mode` says; `reverse` asks in the opposite order, so that later
/// positions start searches of their own.
fn values(positions: &[String], mode: Compact, reverse: bool) -> Vec<Result<u32, String>> {
    let mut session = session_with(GAMES);
    session.interp.compact = mode;
    let mut order: Vec<usize> = (0..positions.len()).collect();
    if reverse {
        order.reverse();
    }
    let mut out = vec![Ok(0); positions.len()];
    for i in order {
        let parts = session.position(&positions[i]).expect("a position");
        out[i] = session.value(&parts).map_err(|e| format!("{e:?}"));
    }
    out
}

fn compare(starts: &[String]) -> usize {
    let mut compared = 0;
    for start in starts {
        let mut session = session_with(GAMES);
        let positions: Vec<String> = reachable(&mut session, start, 400)
            .into_iter()
            .map(|p| session.show_sum(&[p]))
            .collect();
        let general = values(&positions, Compact::Off, false);
        for mode in [Compact::Plain, Compact::Fused] {
            for reverse in [false, true] {
                let found = values(&positions, mode, reverse);
                for (i, (a, b)) in found.iter().zip(&general).enumerate() {
                    assert_eq!(
                        a, b,
                        "{} from {start}, searched {mode:?} (reverse: {reverse})",
                        positions[i]
                    );
                }
            }
        }
        compared += positions.len();
    }
    compared
}

#[test]
fn packed_searches_agree_with_the_general_search() {
    let starts: Vec<String> = STARTS.iter().map(|s| s.to_string()).collect();
    let compared = compare(&starts);
    assert!(compared > 2000, "only {compared} positions compared");
}

/// Random starts of the benchmark games (Moore's Nim, Treblecross, Cram
/// and Chomp on grids with some cells taken, Mock Turtles), and of a list
/// game whose moves set several elements at once.
#[test]
fn random_starts_agree_with_the_general_search() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |bound: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % bound
    };
    let mut starts = Vec::new();
    for _ in 0..12 {
        let piles: Vec<String> = (0..1 + next(4)).map(|_| next(5).to_string()).collect();
        starts.push(format!("Moore({}, [{}])", 1 + next(3), piles.join(", ")));
        let board: String = (0..1 + next(11))
            .map(|_| if next(4) == 0 { 'X' } else { '.' })
            .collect();
        starts.push(format!("Treble(\"{board}\")"));
        let xs: Vec<String> = (0..1 + next(3)).map(|_| next(5).to_string()).collect();
        let at: Vec<String> = (0..next(3)).map(|_| next(4).to_string()).collect();
        starts.push(format!("Lower([{}], [{}])", xs.join(", "), at.join(", ")));
        if starts.len() % 2 == 0 {
            let (rows, cols) = (1 + next(3), 1 + next(4));
            let mut grid = Vec::new();
            for _ in 0..rows {
                let row: String = (0..cols)
                    .map(|_| if next(4) == 0 { '#' } else { '.' })
                    .collect();
                grid.push(format!("\"{row}\""));
            }
            let grid = grid.join(", ");
            starts.push(format!("Cram([{grid}])"));
            starts.push(format!("Chomp([{grid}])"));
            let coins: String = (0..1 + next(7))
                .map(|_| if next(2) == 0 { 'H' } else { 'T' })
                .collect();
            starts.push(format!("Turtles(\"{coins}\")"));
        }
    }
    compare(&starts);
}

/// The compiled search does answer the shapes it is meant for: a test
/// that compared the general search with itself would prove nothing.
#[test]
fn the_benchmark_shapes_are_searched_as_keys() {
    for start in [
        "Moore(2, [4, 4, 4, 4])",
        "Treble(\"..........\")",
        "Domino(\"........\")",
        "Board(\"..?...\")",
        "Pair(7, 5)",
        "Spread([3, 4, 2])",
        "Rect([4, 5])",
        // A larger heap is read off the heap-rule reader's table.
        "Take(200)",
        "Lower([3, 4, 5], [0, 2])",
        "Domino(\"..........#..........#########\")",
        "Treble(\"....O....O....\")",
        "Wide(300, 70368744177664)",
        "Cram([\"...\", \"...\", \"...\"])",
        "Chomp([\"....\", \"....\", \"....\"])",
        "Turtles(\"HHHHHH\")",
        "Paint([\"..\", \".b\"])",
        "Cut(\"aabab\")",
        "Subtract({2, 3, 5}, 30)",
        "Avoid({4, 7}, 25)",
        "Switch(true, 12)",
        "Duo((7, 5))",
        "Bite([3, 3, 2])",
        "Three(\"........\")",
        "Even([4, 3, 5])",
        "Steps(7, 5)",
        "Squares(40)",
        "Bumps(30)",
        "Late(25)",
        "Pairs(12)",
        "Rise(6, 40)",
        "Shift([4, 0, 2])",
        "Capped(20)",
        "Tally([4, 1, 1, 2])",
        "Marks(\"......\")",
        "RowCells(\"........\")",
        "Walk(4)",
        "Kept([4, 2, 5])",
        "Line((0, 3), [3, -2])",
        "Chomp([\"...................\", \"...................\", \"...................\"])",
        "Ruler(\"HHTHHH\")",
        "Knock([\"ooo\", \"ooo\", \"ooo\"])",
        "Welter([1, 4, 6, 9])",
        "Shrink([3, 1, 4, 2, 5])",
        "Ordered([2, -1, 3])",
        "Anagram(\"dcbcad\")",
        "Heaped([5, 2, 4, 0])",
    ] {
        let mut session = session_with(GAMES);
        let parts = session.position(start).expect("a position");
        session.value(&parts).expect("a value");
        assert!(
            session.interp.solver.dense_positions() > 1,
            "{start} was not searched as keys"
        );
    }
}

/// The options the compiled code lists for every position reachable from
/// each start are the interpreter's: in the interpreter's order step by
/// step, and as often each fused (the search needs a position's options,
/// not their order, and its code may walk a rule in another); where the
/// interpreter reports an error, the compiled code gives the position back
/// to it.
#[test]
fn options_come_in_the_interpreters_order() {
    let mut compared = 0;
    for start in STARTS {
        for mode in [Compact::Plain, Compact::Fused] {
            let mut session = session_with(GAMES);
            session.interp.compact = mode;
            let parts = session.position(start).expect("a position");
            let Some((mut game, _)) = session.interp.compact_game(parts[0]) else {
                continue;
            };
            let positions = reachable(&mut session, start, 300);
            // The interpreter lists the options the compiled game is held to.
            session.interp.compact = Compact::Off;
            for pos in positions {
                let Some(key) = session.interp.compact_key(&*game, pos) else {
                    continue;
                };
                let shown = session.show_sum(&[pos]);
                let mut moves = Vec::new();
                let general = session.interp.moves_of(pos, false, &mut moves);
                let mut listed = Vec::new();
                let compiled = game.options(key, &mut listed);
                if general.is_err() {
                    assert!(
                        compiled.is_err(),
                        "{shown} ({mode:?}): the interpreter fails"
                    );
                    continue;
                }
                // Options past what the layout holds stop the compiled code.
                let keys: Option<Vec<u64>> = moves
                    .iter()
                    .map(|m| match &m.result[..] {
                        [p] => session.interp.compact_key(&*game, *p),
                        _ => None,
                    })
                    .collect();
                let Some(mut keys) = keys else { continue };
                assert_eq!(compiled, Ok(()), "{shown} ({mode:?})");
                let mut listed = written_out(&listed);
                if mode == Compact::Fused {
                    listed.sort_unstable();
                    keys.sort_unstable();
                }
                assert_eq!(listed, keys, "{shown} ({mode:?})");
                compared += 1;
            }
        }
    }
    assert!(compared > 3000, "only {compared} option lists compared");
}

/// `grundy ARGS --stats` says that `game` ran on the compiled code of
/// packed keys, and that nothing turned it down.
fn assert_runs_compiled(args: &[&str], game: &str) {
    let mut args = args.to_vec();
    args.push("--stats");
    let (_, stats) = common::grundy_ok(&args);
    assert!(
        stats.contains(&format!("stats: {game} ran on the compiled")),
        "{args:?}:\n{stats}"
    );
    assert!(!stats.contains("stopped at"), "{args:?}:\n{stats}");
}

/// Constants in computations and generators over sets and lists known
/// before the rules run compile: the shipped examples that use them.
#[test]
fn constants_and_written_out_sets_run_compiled() {
    for game in ["Coins", "T", "TakeAway"] {
        let position = format!("{game}(20)");
        assert_runs_compiled(&["value", "examples/subtraction.game", &position], game);
    }
    assert_runs_compiled(
        &["outcome", "examples/nim-with-additions.game", "Heap(5)"],
        "Heap",
    );
}

/// A string joined from a comprehension of letters compiles: the ruler
/// game of the examples.
#[test]
fn strings_joined_from_letters_run_compiled() {
    assert_runs_compiled(
        &["value", "examples/ruler.game", "Ruler(\"HHTHHHTH\")"],
        "Ruler",
    );
}

/// A game whose numbers grow past what the start needs is laid out again
/// with room to spare, and searched compiled: Staircase Nim, whose coins
/// pile up on the lower steps.
#[test]
fn numbers_that_outgrow_the_start_run_compiled() {
    let args = [
        "value",
        "examples/staircase.game",
        "Stairs([0, 3, 2, 3, 2, 3])",
    ];
    assert_runs_compiled(&args, "Stairs");
    // No position is left to the interpreter, as each was once the first
    // layout gave up.
    let (_, stats) = common::grundy_ok(&[&args[..], &["--stats"]].concat());
    assert!(!stats.contains("one position at a time"), "{stats}");
}

/// A generator over the values a filtered comprehension keeps compiles:
/// the Treblecross rewrite that names its empty cells with a `let`.
#[test]
fn generators_over_kept_values_run_compiled() {
    assert_runs_compiled(
        &[
            "value",
            "bench/games/search-rewrites/treblecross-let-empty.game",
            "Treblecross(\"........\")",
        ],
        "Treblecross",
    );
}

/// `count` of a text in a board compiles: the Treblecross rewrite that
/// ends the game when `count(board, "XXX") > 0`.
#[test]
fn count_runs_compiled() {
    assert_runs_compiled(
        &[
            "value",
            "bench/games/search-rewrites/treblecross-cells.game",
            "Treblecross(\"........\")",
        ],
        "Treblecross",
    );
}

/// A list whose length the rules change compiles, with its length as a
/// field of the key: the Chomp example, which drops the rows cut to
/// nothing, and a rewrite that keeps the rows as slices.
#[test]
fn lists_that_change_length_run_compiled() {
    let files = [
        "examples/chomp.game",
        "bench/games/search-rewrites/chomp-rows-kept.game",
    ];
    let positions = ["Chomp([4, 3, 3, 1])", "Chomp([3, 2])"];
    assert_value_and_moves_run_compiled(&files, "Chomp", positions);
}

/// A tuple that `subsets` or `product` gives, passed for a `[nat]`
/// parameter, compiles where every number it is drawn from is natural,
/// and so do `in`, `not in` and `index_of` on it: the Moore's Nim
/// rewrites that write the new piles one by one.
#[test]
fn tuples_passed_for_lists_of_naturals_run_compiled() {
    let files = [
        "bench/games/search-rewrites/moore-index-of.game",
        "bench/games/search-rewrites/moore-not-in.game",
    ];
    let positions = ["Moore(2, [3, 3, 2])", "Moore(2, [2, 1, 1])"];
    assert_value_and_moves_run_compiled(&files, "Moore", positions);
}

/// Generators over lists the rules work out compile: `zip` in the values
/// of `set_at`, `subsets` of `enumerate` and of a comprehension, and a
/// comprehension walked by a generator, whose values (floor(n / 2) for a
/// heap from which any even number may be taken) agree with theory.
#[test]
fn generators_over_lists_worked_out_run_compiled() {
    let files = [
        "bench/games/search-rewrites/moore-subsets-take.game",
        "bench/games/search-rewrites/moore-enumerate.game",
        "bench/games/search-rewrites/moore-nonempty.game",
        "bench/games/search-rewrites/moore-zip-made.game",
        "bench/games/search-rewrites/moore-list-range.game",
    ];
    let positions = ["Moore(2, [3, 3, 2])", "Moore(2, [2, 1, 1])"];
    assert_value_and_moves_run_compiled(&files, "Moore", positions);
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compact-evens.game");
    let text = "game Evens(piles: [nat]) {\n  move take(i in indices(piles), \
                k in [2 * j for j in 1..=piles[i] / 2])\n    \
                => Evens(set_at(piles, i, piles[i] - k));\n}\n";
    std::fs::write(&path, text).expect("the scratch file can be written");
    let file = path.to_str().expect("a UTF-8 path");
    assert_value_and_moves_run_compiled(&[file], "Evens", ["Evens([7, 4])", "Evens([5, 2])"]);
    // 7 / 2 xor 4 / 2 = 3 xor 2.
    let (value, _) = common::grundy_ok(&["value", file, "Evens([7, 4])"]);
    assert_eq!(value.trim(), "1");
}

/// A board turned into another shape and read as a board of its own
/// (`let t = transpose(g)`, then `t[c][r]`, `len(t[c])`, a helper given
/// `t`), and set and turned back, compiles: the Cram rewrites that make
/// the down moves as across moves on the turned board.
#[test]
fn boards_turned_into_another_shape_run_compiled() {
    let files = [
        "bench/games/search-rewrites/cram-transpose.game",
        "bench/games/search-rewrites/cram-rotate.game",
    ];
    let positions = [
        r##"Cram(["....", "#...", "...."])"##,
        r##"Cram(["...", "..#"])"##,
    ];
    assert_value_and_moves_run_compiled(&files, "Cram", positions);
}

/// The value of the first position and the moves of the second run on
/// the compiled code, in each file.
fn assert_value_and_moves_run_compiled(files: &[&str], game: &str, [value, moves]: [&str; 2]) {
    for file in files {
        assert_runs_compiled(&["value", file, value], game);
        assert_runs_compiled(&["moves", file, moves], game);
    }
}

/// A game over integers below 0 compiles: the walk of the language guide.
#[test]
fn integers_below_zero_run_compiled() {
    let path = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("compact-walk.game");
    let text = "game Walk(x: int) {\n  move left() if x > -3 => Walk(x - 1);\n}\n";
    std::fs::write(&path, text).expect("the scratch file can be written");
    let file = path.to_str().expect("a UTF-8 path");
    assert_runs_compiled(&["value", file, "Walk(-1)"], "Walk");
    assert_runs_compiled(&["moves", file, "Walk(-2)"], "Walk");
}

/// A generator over letters written out, or named by a constant, walks
/// their codes, and a move's label shows the letter: colouring a row so
/// that no two neighbours share a colour, compared with the reference
/// interpreter (options in order, labels included) on every reachable
/// position.
#[test]
fn letters_written_out_are_walked_compiled() {
    let text = r#"
game Paint(row: str) {
  move paint(i in indices(row), c in ["R", "G", "B"])
    if row[i] == "." and (i == 0 or row[i - 1] != c) and (i + 1 == len(row) or row[i + 1] != c)
    => Paint(set_at(row, i, c));
}

const SHADES = ["R", "G"];
game Shade(row: str) {
  move shade(i in indices(row), c in SHADES) if row[i] == "." => Shade(set_at(row, i, c));
}
"#;
    let limits = Limits {
        reached: 300,
        max_positions: 5000,
    };
    for start in ["Paint(\"....\")", "Paint(\".R..G\")", "Shade(\"R...\")"] {
        let compared = common::engines::compare_from("paint.game", text, start, limits)
            .unwrap_or_else(|difference| panic!("{difference}"));
        assert!(compared.positions.len() > 10, "{start}");
        assert!(compared.searched_compiled, "{start}");
        assert!(compared.listed_compiled > 10, "{start}");
    }
}
