//! The built-in functions: their names, arities, static types and, for the
//! pure ones, their behaviour. Queries (value, outcome, ...) need the solver
//! and are run by the interpreter.

use super::grid_turns::{turn, Turn};
use super::value::{range_len, Value};
use crate::error::ErrorKind;
use crate::types::Type;
use std::sync::Arc;

/// Collections built by a built-in are refused beyond this many elements.
pub const MAX_COLLECTION: usize = 10_000_000;

macro_rules! builtins {
    ($($variant:ident = $name:literal, $min:literal ..= $max:literal, $doc:literal;)*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Builtin { $($variant,)* }

        impl Builtin {
            pub const ALL: &'static [Builtin] = &[$(Builtin::$variant,)*];

            pub fn name(self) -> &'static str {
                match self { $(Builtin::$variant => $name,)* }
            }

            /// The fewest and most arguments it takes.
            pub fn arity(self) -> (usize, usize) {
                match self { $(Builtin::$variant => ($min, $max),)* }
            }

            /// One line of documentation, for `:help` and completion.
            pub fn doc(self) -> &'static str {
                match self { $(Builtin::$variant => $doc,)* }
            }
        }
    };
}

builtins! {
    Len = "len", 1..=1, "len(x): the number of characters or elements";
    Count = "count", 2..=2, "count(x, item): how often item occurs in a list, or a substring in a string";
    Min = "min", 1..=8, "min(xs) or min(a, b, ...): the smallest";
    Max = "max", 1..=8, "max(xs) or max(a, b, ...): the largest";
    Sum = "sum", 1..=1, "sum(xs): the sum of a list of numbers";
    Sort = "sort", 1..=1, "sort(xs): the list in increasing order";
    Reverse = "reverse", 1..=1, "reverse(x): a list or string backwards (a grid upside down)";
    Transpose = "transpose", 1..=1, "transpose(g): the grid with its rows as columns";
    Rotate = "rotate", 1..=1, "rotate(g): the grid turned a quarter clockwise";
    Mirror = "mirror", 1..=1, "mirror(g): the grid reflected left to right (each row backwards)";
    SetAt = "set_at", 3..=3, "set_at(x, i, v): the list or string with element i replaced by v; set_at(x, [i, j], [v, w]) replaces several";
    RemoveAt = "remove_at", 2..=2, "remove_at(xs, i): the list without element i";
    Slice = "slice", 3..=3, "slice(x, from, to): elements from..to of a list or string";
    Runs = "runs", 2..=2, "runs(s, c): the lengths of the maximal runs of character c in s";
    Regions = "regions", 2..=2, "regions(g, c): the 4-connected regions of cells c in grid g, each cut out as a grid (other cells become #)";
    Xor = "xor", 1..=8, "xor(xs) or xor(a, b, ...): the nim-sum";
    Mex = "mex", 1..=1, "mex(xs): the least natural number not in xs";
    Abs = "abs", 1..=1, "abs(n)";
    Pow = "pow", 2..=2, "pow(a, b): a to the power b";
    Popcount = "popcount", 1..=1, "popcount(n): the number of 1 bits of n";
    Indices = "indices", 1..=1, "indices(x): 0..len(x)";
    Enumerate = "enumerate", 1..=1, "enumerate(xs): the pairs (i, x) of each element x and its index i";
    Zip = "zip", 2..=8, "zip(xs, ys, ...): the tuples of the elements at each index, as many as the shortest has";
    IndexOf = "index_of", 2..=2, "index_of(x, item): the index of the first item in a list, or where the substring item first starts in a string; -1 when there is none";
    Cells = "cells", 1..=2, "cells(g) or cells(g, c): the (row, column) pairs of the cells of grid g, row by row, or of those holding c";
    Has = "has", 2..=2, "has(s, sub): whether string s contains sub (or list s contains sub)";
    Subsets = "subsets", 2..=3, "subsets(xs, k) or subsets(xs, lo, hi): the sub-lists of k (or lo..=hi) elements";
    Product = "product", 1..=1, "product(lists): every way of picking one element from each list";
    All = "all", 1..=1, "all(bools): whether every one is true";
    Any = "any", 1..=1, "any(bools): whether at least one is true";
    Repeat = "repeat", 2..=2, "repeat(s, n): s written n times";
    Join = "join", 1..=2, "join(strings) or join(strings, sep)";
    List = "list", 1..=1, "list(x): the elements of a set, range or string as a list";
    Set = "set", 1..=1, "set(x): the elements of a list, range or string as a set";
    Value = "value", 1..=1, "value(p): the Grundy value of a position (finite; see infinite)";
    Outcome = "outcome", 1..=1, "outcome(p): \"P\" if the previous player wins, \"N\" if the next, \"D\" for a draw";
    Infinite = "infinite", 1..=1, "infinite(p): the set K of a loopy position whose value is ∞K";
    Misere = "misere", 1..=1, "misere(p): the outcome under misère play";
    Height = "height", 1..=1, "height(p): the length of the longest play from p";
    Moves = "moves", 1..=1, "moves(p): the set of positions one move leads to";
    Winning = "winning", 1..=1, "winning(p): the set of positions a winning move leads to";
}

impl Builtin {
    pub fn lookup(name: &str) -> Option<Builtin> {
        Builtin::ALL.iter().copied().find(|b| b.name() == name)
    }

    /// Whether it asks the solver, which only claims and queries may do.
    pub fn is_query(self) -> bool {
        use Builtin::*;
        matches!(
            self,
            Value | Outcome | Infinite | Misere | Height | Moves | Winning
        )
    }

    /// The type of the result, given the argument types; or which argument
    /// has the wrong type and what was expected there.
    pub fn result_type(self, args: &[Type]) -> Result<Type, (usize, &'static str)> {
        use Builtin as B;
        let first = args.first().cloned().unwrap_or(Type::Unknown);
        let numeric = |i: usize| -> Result<(), (usize, &'static str)> {
            if args[i].is_numeric() {
                Ok(())
            } else {
                Err((i, "a number"))
            }
        };
        let collection = |i: usize| -> Result<(), (usize, &'static str)> {
            if args[i].element().is_some() {
                Ok(())
            } else {
                Err((i, "a list, set or string"))
            }
        };
        let game = |i: usize| -> Result<(), (usize, &'static str)> {
            if args[i].fits(&Type::Game) {
                Ok(())
            } else {
                Err((i, "a position"))
            }
        };
        Ok(match self {
            B::Len | B::Count | B::Popcount | B::Abs | B::Mex | B::Sum => {
                match self {
                    B::Popcount | B::Abs => numeric(0)?,
                    _ => collection(0)?,
                }
                if self == B::Abs {
                    Type::Int
                } else {
                    Type::Nat
                }
            }
            B::Min | B::Max | B::Xor => {
                if args.len() == 1 {
                    collection(0)?;
                    first.element().unwrap_or(Type::Unknown)
                } else if self != B::Xor && !first.is_numeric() && first.element().is_some() {
                    // Strings and lists compare in order, as `min` of a
                    // list of them does.
                    for (i, arg) in args.iter().enumerate().skip(1) {
                        if !arg.fits(&first) {
                            return Err((i, "a value of the first argument's type"));
                        }
                    }
                    first
                } else {
                    for i in 0..args.len() {
                        numeric(i)?;
                    }
                    Type::Int
                }
            }
            B::Pow => {
                numeric(0)?;
                numeric(1)?;
                Type::Int
            }
            B::Sort | B::Reverse | B::SetAt | B::RemoveAt | B::Slice => {
                collection(0)?;
                let several = match args.get(1) {
                    Some(Type::List(t)) => t.is_numeric(),
                    Some(Type::Tuple(_)) => true,
                    _ => false,
                };
                if self == B::SetAt && several {
                    // Several elements at once: a list of values to match.
                    if args[2].element().is_none() {
                        return Err((2, "a list of values (one for each index)"));
                    }
                } else if self == B::SetAt && !args[1].is_numeric() {
                    return Err((1, "a number, or a list of numbers"));
                } else if matches!(self, B::RemoveAt | B::Slice) {
                    numeric(1)?;
                }
                if self == B::Slice {
                    numeric(2)?;
                }
                match first {
                    Type::Set(t) => Type::List(t),
                    t => t,
                }
            }
            B::Transpose | B::Rotate | B::Mirror => {
                if !first.fits(&Type::Grid) {
                    return Err((0, "a grid (a list of strings of one length)"));
                }
                Type::Grid
            }
            B::Runs => Type::List(Box::new(Type::Nat)),
            B::Regions => Type::List(Box::new(Type::Grid)),
            B::Indices => {
                collection(0)?;
                Type::List(Box::new(Type::Nat))
            }
            B::Enumerate => {
                collection(0)?;
                let element = first.element().unwrap_or(Type::Unknown);
                Type::List(Box::new(Type::Tuple(vec![Type::Nat, element])))
            }
            B::Zip => {
                let mut elements = Vec::new();
                for (i, t) in args.iter().enumerate() {
                    collection(i)?;
                    elements.push(t.element().unwrap_or(Type::Unknown));
                }
                Type::List(Box::new(Type::Tuple(elements)))
            }
            B::IndexOf => {
                collection(0)?;
                Type::Int
            }
            B::Cells => {
                if !first.fits(&Type::Grid) && !first.fits(&Type::Str) {
                    return Err((0, "a grid"));
                }
                if args.len() == 2 && !args[1].fits(&Type::Str) {
                    return Err((1, "a one-character string"));
                }
                Type::List(Box::new(Type::Tuple(vec![Type::Nat, Type::Nat])))
            }
            B::Has | B::All | B::Any => Type::Bool,
            B::Subsets => {
                collection(0)?;
                Type::List(Box::new(Type::List(Box::new(
                    first.element().unwrap_or(Type::Unknown),
                ))))
            }
            B::Product => Type::List(Box::new(Type::List(Box::new(Type::Unknown)))),
            B::Repeat | B::Join => Type::Str,
            B::List => {
                collection(0)?;
                Type::List(Box::new(first.element().unwrap_or(Type::Unknown)))
            }
            B::Set => {
                collection(0)?;
                Type::Set(Box::new(first.element().unwrap_or(Type::Unknown)))
            }
            B::Value | B::Height => {
                game(0)?;
                Type::Nat
            }
            B::Outcome | B::Misere => {
                game(0)?;
                Type::Str
            }
            B::Infinite => {
                game(0)?;
                Type::Set(Box::new(Type::Nat))
            }
            B::Moves | B::Winning => {
                game(0)?;
                Type::Set(Box::new(Type::Game))
            }
        })
    }

    /// Runs a pure built-in.
    pub fn call(self, args: &[Value]) -> Result<Value, ErrorKind> {
        use Builtin as B;
        let arg = |i: usize| &args[i];
        Ok(match self {
            B::Len => Value::Int(counted(arg(0))?),
            B::Count => match (arg(0), arg(1)) {
                (Value::Str(s), Value::Str(sub)) if !sub.is_empty() => {
                    Value::Int(s.matches(&**sub).count() as i64)
                }
                (x, item) => {
                    Value::Int(elements(x)?.iter().filter(|v| v.same(item)).count() as i64)
                }
            },
            B::Min | B::Max => {
                let items = if args.len() == 1 {
                    elements(arg(0))?
                } else {
                    args.to_vec()
                };
                let best = if self == B::Min {
                    items.iter().min()
                } else {
                    items.iter().max()
                };
                best.cloned()
                    .ok_or_else(|| bad(format!("{} of an empty collection", self.name())))?
            }
            B::Sum => {
                let mut total: i64 = 0;
                let mut add = |v: &Value| {
                    total = total
                        .checked_add(int(v)?)
                        .ok_or_else(|| overflow("the sum is too large"))?;
                    Ok::<(), ErrorKind>(())
                };
                // Lists are summed in place rather than copied first.
                match arg(0) {
                    Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => {
                        xs.iter().try_for_each(&mut add)?
                    }
                    other => elements(other)?.iter().try_for_each(&mut add)?,
                }
                Value::Int(total)
            }
            B::Sort => {
                let mut items = elements(arg(0))?;
                items.sort();
                rebuild(arg(0), items)
            }
            B::Reverse => {
                let mut items = elements(arg(0))?;
                items.reverse();
                rebuild(arg(0), items)
            }
            B::SetAt => {
                if let Some(board) = set_ascii_cell(args) {
                    return Ok(board);
                }
                if let Value::List(_) | Value::Tuple(_) = arg(1) {
                    return set_several(arg(0), arg(1), arg(2));
                }
                let mut items = elements(arg(0))?;
                let i = index(int(arg(1))?, items.len(), arg(0))?;
                if let Value::Str(_) = arg(0) {
                    match arg(2) {
                        Value::Str(s) if s.chars().count() == 1 => {}
                        other => {
                            return Err(bad(format!(
                                "set_at on a string needs a one-character string, not {}",
                                other.kind()
                            )))
                        }
                    }
                }
                items[i] = arg(2).clone();
                rebuild(arg(0), items)
            }
            B::RemoveAt => {
                let mut items = elements(arg(0))?;
                let i = index(int(arg(1))?, items.len(), arg(0))?;
                items.remove(i);
                rebuild(arg(0), items)
            }
            B::Slice => {
                let items = elements(arg(0))?;
                let len = items.len() as i64;
                let from = int(arg(1))?.clamp(0, len) as usize;
                let to = int(arg(2))?.clamp(0, len) as usize;
                rebuild(arg(0), items[from..to.max(from)].to_vec())
            }
            B::Transpose => turn(Turn::Transpose, "transpose", arg(0))?,
            B::Rotate => turn(Turn::Rotate, "rotate", arg(0))?,
            B::Mirror => turn(Turn::Mirror, "mirror", arg(0))?,
            B::Runs => {
                let (Value::Str(s), Value::Str(c)) = (arg(0), arg(1)) else {
                    return Err(bad("runs(s, c) needs two strings".into()));
                };
                let mut runs = Vec::new();
                let mut current = 0;
                for ch in s.chars() {
                    if c.starts_with(ch) && c.chars().count() == 1 {
                        current += 1;
                    } else if current > 0 {
                        runs.push(Value::Int(current));
                        current = 0;
                    }
                }
                if current > 0 {
                    runs.push(Value::Int(current));
                }
                Value::list(runs)
            }
            B::Regions => {
                let Value::Str(c) = arg(1) else {
                    return Err(bad("regions(g, c) needs a one-character string c".into()));
                };
                let mut rows = Vec::new();
                // A string is a board of one row.
                let grid = match arg(0) {
                    Value::Str(_) => vec![arg(0).clone()],
                    other => elements(other)?,
                };
                for row in grid {
                    match row {
                        Value::Str(r) => rows.push(r.chars().collect::<Vec<char>>()),
                        other => {
                            return Err(bad(format!(
                                "regions needs a grid of strings, not a list holding {}",
                                other.kind()
                            )))
                        }
                    }
                }
                if rows.iter().any(|r| r.len() != rows[0].len()) {
                    return Err(bad(
                        "regions needs a grid whose rows all have the same length".into(),
                    ));
                }
                let mut c = c.chars();
                let (Some(cell), None) = (c.next(), c.next()) else {
                    return Err(bad("regions(g, c) needs a one-character string c".into()));
                };
                if cell == '#' {
                    return Err(bad(
                        "regions fills the rest of each region's grid with `#`, so it cannot look for `#`".into(),
                    ));
                }
                Value::list(
                    super::regions::regions(&rows, cell)
                        .into_iter()
                        .map(|g| Value::list(g.into_iter().map(|r| Value::str(&r)).collect()))
                        .collect(),
                )
            }
            B::Xor => {
                let items = if args.len() == 1 {
                    elements(arg(0))?
                } else {
                    args.to_vec()
                };
                let mut x = 0;
                for v in &items {
                    x ^= int(v)?;
                }
                Value::Int(x)
            }
            B::Mex => {
                let mut seen = vec![false; length(arg(0))? + 1];
                for v in elements(arg(0))? {
                    let n = int(&v)?;
                    if n >= 0 && (n as usize) < seen.len() {
                        seen[n as usize] = true;
                    }
                }
                Value::Int(seen.iter().position(|s| !s).unwrap_or(0) as i64)
            }
            B::Abs => Value::Int(
                int(arg(0))?
                    .checked_abs()
                    .ok_or_else(|| overflow("abs of the smallest number"))?,
            ),
            B::Pow => {
                let (a, b) = (int(arg(0))?, int(arg(1))?);
                let b = u32::try_from(b).map_err(|_| {
                    bad(format!(
                        "pow needs an exponent from 0 to {}, not {b}",
                        u32::MAX
                    ))
                })?;
                Value::Int(
                    a.checked_pow(b)
                        .ok_or_else(|| overflow(&format!("pow({a}, {b})")))?,
                )
            }
            B::Popcount => {
                let n = int(arg(0))?;
                if n < 0 {
                    return Err(bad(format!("popcount of a negative number ({n})")));
                }
                Value::Int(n.count_ones() as i64)
            }
            B::Indices => Value::Range(0, counted(arg(0))?),
            B::Enumerate => Value::list(
                elements(arg(0))?
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| pair(Value::Int(i as i64), x))
                    .collect(),
            ),
            B::Zip => {
                let columns: Vec<Vec<Value>> =
                    args.iter().map(elements).collect::<Result<_, _>>()?;
                let shortest = columns.iter().map(Vec::len).min().unwrap_or(0);
                Value::list(
                    (0..shortest)
                        .map(|i| Value::Tuple(columns.iter().map(|c| c[i].clone()).collect()))
                        .collect(),
                )
            }
            B::IndexOf => {
                let found = match (arg(0), arg(1)) {
                    (Value::Str(s), Value::Str(sub)) => {
                        s.find(&**sub).map(|byte| s[..byte].chars().count())
                    }
                    (x, item) => elements(x)?.iter().position(|v| v.same(item)),
                };
                Value::Int(found.map_or(-1, |i| i as i64))
            }
            B::Cells => cells(arg(0), args.get(1))?,
            B::Has => match (arg(0), arg(1)) {
                (Value::Str(s), Value::Str(sub)) => Value::Bool(s.contains(&**sub)),
                (x, item) => Value::Bool(elements(x)?.iter().any(|v| v.same(item))),
            },
            B::Subsets => {
                let items = elements(arg(0))?;
                let lo = int(arg(1))?;
                let hi = if args.len() == 3 { int(arg(2))? } else { lo };
                let mut out = Vec::new();
                for k in lo.max(0)..=hi.min(items.len() as i64) {
                    let mut chosen = Vec::new();
                    choose(&items, k as usize, 0, &mut chosen, &mut out)?;
                }
                Value::list(out)
            }
            B::Product => {
                // Each tuple is made once, in order, straight into its own
                // shared slice.
                let mut tuples = super::product::Tuples::new(arg(0))?;
                let mut out = Vec::with_capacity(tuples.count);
                let mut tuple = tuples.first();
                for _ in 0..tuples.count {
                    out.push(Value::List(Arc::from(&tuple[..])));
                    tuples.step(&mut tuple);
                }
                Value::list(out)
            }
            B::All | B::Any => {
                let mut result = self == B::All;
                for v in elements(arg(0))? {
                    let Value::Bool(b) = v else {
                        return Err(bad(format!(
                            "{} needs booleans, not {}",
                            self.name(),
                            v.kind()
                        )));
                    };
                    if b != result {
                        result = b;
                        break;
                    }
                }
                Value::Bool(result)
            }
            B::Repeat => {
                let (Value::Str(s), n) = (arg(0), int(arg(1))?) else {
                    return Err(bad("repeat(s, n) needs a string".into()));
                };
                let n = usize::try_from(n)
                    .map_err(|_| bad(format!("repeat needs a count of at least 0, not {n}")))?;
                if s.len().saturating_mul(n) > MAX_COLLECTION {
                    return Err(too_large("the string", s.len().saturating_mul(n)));
                }
                Value::str(&s.repeat(n))
            }
            B::Join => {
                let sep = match args.get(1) {
                    Some(Value::Str(s)) => s.to_string(),
                    Some(other) => {
                        return Err(bad(format!(
                            "join needs a string separator, not {}",
                            other.kind()
                        )))
                    }
                    None => String::new(),
                };
                let mut parts = Vec::new();
                for v in elements(arg(0))? {
                    match v {
                        Value::Str(s) => parts.push(s.to_string()),
                        other => {
                            return Err(bad(format!("join needs strings, not {}", other.kind())))
                        }
                    }
                }
                Value::str(&parts.join(&sep))
            }
            B::List => Value::list(elements(arg(0))?),
            B::Set => Value::set(elements(arg(0))?),
            B::Value | B::Outcome | B::Infinite | B::Misere | B::Height | B::Moves | B::Winning => {
                return Err(bad(format!("`{}` needs the solver", self.name())))
            }
        })
    }
}

fn pair(a: Value, b: Value) -> Value {
    Value::Tuple(Arc::from([a, b]))
}

/// `cells(g)` or `cells(g, c)`: the (row, column) of each cell of a grid,
/// or of each cell holding the letter `c`, row by row. A string is a grid
/// of one row.
fn cells(grid: &Value, letter: Option<&Value>) -> Result<Value, ErrorKind> {
    let letter = match letter {
        None => None,
        Some(Value::Str(c)) if c.chars().count() == 1 => c.chars().next(),
        Some(other) => {
            return Err(bad(format!(
                "cells(g, c) needs a one-character string c, not {}",
                match other {
                    Value::Str(_) => "a longer string",
                    other => other.kind(),
                }
            )))
        }
    };
    let rows = match grid {
        Value::Str(_) => vec![grid.clone()],
        other => elements(other)?,
    };
    let mut out = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        let Value::Str(row) = row else {
            return Err(bad(format!(
                "cells needs a grid of strings, not a list holding {}",
                row.kind()
            )));
        };
        for (c, cell) in row.chars().enumerate() {
            if letter.is_none_or(|l| l == cell) {
                out.push(pair(Value::Int(r as i64), Value::Int(c as i64)));
            }
        }
    }
    Ok(Value::list(out))
}

fn bad(detail: String) -> ErrorKind {
    ErrorKind::BadValue { detail }
}

fn overflow(detail: &str) -> ErrorKind {
    ErrorKind::Overflow {
        detail: detail.to_string(),
    }
}

fn too_large(what: &str, size: impl ToString) -> ErrorKind {
    ErrorKind::TooLarge {
        what: what.to_string(),
        size: size.to_string(),
        limit: MAX_COLLECTION.to_string(),
    }
}

pub fn int(v: &Value) -> Result<i64, ErrorKind> {
    match v {
        Value::Int(n) => Ok(*n),
        other => Err(ErrorKind::WrongType {
            expected: "a number".into(),
            found: other.kind().into(),
            hint: None,
        }),
    }
}

/// The number of elements as a number of the language: a range of more
/// than `i64::MAX` numbers has a length no number holds.
fn counted(v: &Value) -> Result<i64, ErrorKind> {
    let len = length(v)?;
    i64::try_from(len).map_err(|_| ErrorKind::Overflow {
        detail: format!("a length of {len}"),
    })
}

fn length(v: &Value) -> Result<usize, ErrorKind> {
    v.count().ok_or_else(|| ErrorKind::WrongType {
        expected: "a list, set or string".into(),
        found: v.kind().into(),
        hint: None,
    })
}

/// The lists a product picks from, and how many tuples it has; refused
/// when the product would be too large to build.
pub fn product_lists(v: &Value) -> Result<(Vec<Vec<Value>>, usize), ErrorKind> {
    let lists: Vec<Vec<Value>> = elements(v)?
        .iter()
        .map(elements)
        .collect::<Result<_, _>>()?;
    // The size of the product after each list, counting the elements of
    // the tuples, not just the tuples.
    let mut tuples = 1usize;
    for (depth, list) in lists.iter().enumerate() {
        let size = tuples.saturating_mul(list.len()).saturating_mul(depth + 1);
        if size > MAX_COLLECTION {
            return Err(too_large("the product (counting its elements)", size));
        }
        tuples = tuples.saturating_mul(list.len());
    }
    Ok((lists, tuples))
}

/// The elements of a collection, in order; a string's are its characters.
pub fn elements(v: &Value) -> Result<Vec<Value>, ErrorKind> {
    Ok(match v {
        Value::Str(s) => s.chars().map(Value::char).collect(),
        Value::List(xs) | Value::Set(xs) | Value::Tuple(xs) => xs.to_vec(),
        Value::Range(lo, hi) => {
            let len = range_len(*lo, *hi);
            if len > MAX_COLLECTION as u64 {
                return Err(too_large("the range", len));
            }
            (*lo..*hi).map(Value::Int).collect()
        }
        other => {
            return Err(ErrorKind::WrongType {
                expected: "a list, set or string".into(),
                found: other.kind().into(),
                hint: None,
            })
        }
    })
}

/// `set_at` on an ASCII string with an ASCII character in range: the
/// common move on a board, done on bytes without splitting the string
/// into characters. Anything else (and every error) takes the general path.
fn set_ascii_cell(args: &[Value]) -> Option<Value> {
    let [Value::Str(s), Value::Int(i), Value::Str(c)] = args else {
        return None;
    };
    let i = usize::try_from(*i).ok().filter(|&i| i < s.len())?;
    if !s.is_ascii() || c.len() != 1 || !c.is_ascii() {
        return None;
    }
    // Built in a reused buffer and copied once into the shared string.
    thread_local! {
        static BOARD: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    BOARD.with_borrow_mut(|board| {
        board.clear();
        board.push_str(&s[..i]);
        board.push_str(c);
        board.push_str(&s[i + 1..]);
        Some(Value::Str(Arc::from(board.as_str())))
    })
}

/// `set_at(x, [i, j, ...], [v, w, ...])`: element i replaced by v, j by w
/// and so on, in that order (so a repeated index keeps its last value).
fn set_several(target: &Value, at: &Value, values: &Value) -> Result<Value, ErrorKind> {
    let mut items = elements(target)?;
    let at = elements(at)?;
    let values = elements(values)?;
    if at.len() != values.len() {
        let plural =
            |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
        return Err(bad(format!(
            "set_at was given {} but {}: it needs one value for each index",
            plural(at.len(), "index", "indices"),
            plural(values.len(), "value", "values")
        )));
    }
    for (i, v) in at.iter().zip(values) {
        let i = index(int(i)?, items.len(), target)?;
        if let Value::Str(_) = target {
            if !matches!(&v, Value::Str(s) if s.chars().count() == 1) {
                return Err(bad(format!(
                    "set_at on a string needs one-character strings, not {}",
                    v.kind()
                )));
            }
        }
        items[i] = v;
    }
    Ok(rebuild(target, items))
}

/// A collection of the same kind as `like`, holding `items`.
fn rebuild(like: &Value, items: Vec<Value>) -> Value {
    match like {
        Value::Str(_) => {
            let mut s = String::new();
            for v in items {
                if let Value::Str(c) = v {
                    s.push_str(&c);
                }
            }
            Value::Str(Arc::from(s))
        }
        Value::Tuple(_) => Value::Tuple(items.into()),
        _ => Value::list(items),
    }
}

fn index(i: i64, len: usize, of: &Value) -> Result<usize, ErrorKind> {
    if i < 0 || i as usize >= len {
        return Err(ErrorKind::IndexOutOfRange {
            index: i,
            len,
            what: if matches!(of, Value::Str(_)) {
                "string"
            } else {
                "list"
            },
        });
    }
    Ok(i as usize)
}

fn choose(
    items: &[Value],
    k: usize,
    from: usize,
    chosen: &mut Vec<Value>,
    out: &mut Vec<Value>,
) -> Result<(), ErrorKind> {
    if chosen.len() == k {
        // Every subset holds k elements: count those, not just the subsets.
        let elements = out.len().saturating_add(1).saturating_mul(k.max(1));
        if elements > MAX_COLLECTION {
            return Err(too_large("the subsets (counting their elements)", elements));
        }
        out.push(Value::list(chosen.clone()));
        return Ok(());
    }
    for i in from..items.len() {
        if items.len() - i < k - chosen.len() {
            break;
        }
        chosen.push(items[i].clone());
        choose(items, k, i + 1, chosen, out)?;
        chosen.pop();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{Builtin, Value};

    /// Every way of picking one element from each list, by recursion.
    fn plain_product(lists: &[Vec<i64>]) -> Vec<Vec<i64>> {
        let Some((first, rest)) = lists.split_first() else {
            return vec![Vec::new()];
        };
        let tails = plain_product(rest);
        first
            .iter()
            .flat_map(|&x| {
                tails.iter().map(move |t| {
                    let mut tuple = vec![x];
                    tuple.extend(t);
                    tuple
                })
            })
            .collect()
    }

    #[test]
    fn product_agrees_with_the_plain_recursion() {
        let shapes: [&[usize]; 8] = [
            &[],
            &[0],
            &[3],
            &[2, 3],
            &[3, 0, 2],
            &[1, 1, 1],
            &[4, 2, 3],
            &[2, 2, 2, 2],
        ];
        for shape in shapes {
            let lists: Vec<Vec<i64>> = shape
                .iter()
                .enumerate()
                .map(|(d, &n)| (0..n as i64).map(|x| 10 * d as i64 + x).collect())
                .collect();
            let arg = Value::list(
                lists
                    .iter()
                    .map(|l| Value::list(l.iter().map(|&x| Value::Int(x)).collect()))
                    .collect(),
            );
            let want = Value::list(
                plain_product(&lists)
                    .into_iter()
                    .map(|t| Value::list(t.into_iter().map(Value::Int).collect()))
                    .collect(),
            );
            assert_eq!(Builtin::Product.call(&[arg]), Ok(want), "{shape:?}");
        }
    }
}
