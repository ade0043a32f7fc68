//! How a position's arguments pack into one integer key: every number a
//! field of a fixed width, a list a run of equal fields, a string a run of
//! character codes, a grid a field a row (the row's codes side by side).
//! Every string and grid of a game codes its letters in one alphabet: the
//! letters of the starting position and those the rules write. Widths come
//! from the position a search starts at; a move that leaves a value wider
//! than its field (or a row of another length, or a letter outside the
//! alphabet) stops the compact search (the general one then answers), so a
//! layout never loses a bit. A set of numbers the rules change is a mask
//! over the numbers the position may hold (see `bitsets`). A parameter
//! whose type nests (a list of tuples or of lists) is held as the flat
//! list of its records' elements (see `nested`).

use super::bitsets::Universe;
use super::code::Rows;
use super::nested::{self, Nest};
use super::rows::RowTable;
use crate::eval::value::Value;
use crate::solve::dense::PACKED_BITS;
use crate::types::Type;
use std::cell::RefCell;
use std::rc::Rc;

/// One parameter's place in the key.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Group {
    /// A number, or a set of numbers, that every rule passes on unchanged:
    /// held aside, no bits.
    Fixed(Value),
    /// A natural number.
    Scalar(Fields),
    /// A boolean, one bit.
    Flag(Fields),
    /// A list (or tuple) of natural numbers of a fixed length.
    List(Fields),
    /// A list of numbers whose length the rules may change, up to the
    /// length it starts with (or its room, see `with_room`): its elements
    /// in `items` (those past its length 0), its length in the one field
    /// of `length`. With `text`, a string so held, each letter a code
    /// into the layout's alphabet.
    Sized {
        items: Fields,
        length: Fields,
        text: bool,
    },
    /// A list of booleans of a fixed length, one bit each (1 for true).
    Bools(Fields),
    /// A string of a fixed length, each character a code into `alphabet`.
    Str(Fields, Vec<u8>),
    /// A list of strings of one length (a grid), a field a row.
    Grid(Rows),
    /// A set of numbers the rules change: one field, a bit for each
    /// number of the layout's `universe` (see `bitsets`).
    Bits(Fields),
}

impl Group {
    /// The fields of a list of numbers and how many of them `key` holds.
    pub fn numbers(&self, key: u64) -> Option<(Fields, u32)> {
        match self {
            Group::List(f) => Some((*f, f.len)),
            Group::Sized {
                items,
                length,
                text: false,
            } => Some((*items, length.read(key, 0) as u32)),
            _ => None,
        }
    }
}

/// Fields `first..first + len` (also the registers they decode into), each
/// `width` bits, the first at bit `shift`. A field holds a number less
/// `bias`: 0 for natural numbers and letters, below 0 for integers that
/// may be negative (see `signed`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields {
    pub first: u32,
    pub len: u32,
    pub width: u32,
    pub shift: u32,
    pub bias: i64,
}

impl Fields {
    #[inline(always)]
    pub fn mask(&self) -> u64 {
        (1u64 << self.width) - 1
    }

    #[inline(always)]
    pub fn shift_of(&self, i: u32) -> u32 {
        self.shift + i * self.width
    }

    /// Field `i` of `key`, as it is stored.
    #[inline(always)]
    pub fn read(&self, key: u64, i: u32) -> u64 {
        (key >> self.shift_of(i)) & self.mask()
    }

    /// The number field `i` of `key` holds.
    #[inline(always)]
    pub fn number(&self, key: u64, i: u32) -> i64 {
        self.read(key, i) as i64 + self.bias
    }

    /// Whether `v` fits a field.
    #[inline(always)]
    pub fn fits(&self, v: i64) -> bool {
        v.checked_sub(self.bias)
            .is_some_and(|raw| raw >= 0 && (raw as u64) <= self.mask())
    }

    /// How `v`, which fits, is stored.
    #[inline(always)]
    pub fn stored(&self, v: i64) -> u64 {
        v.wrapping_sub(self.bias) as u64
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    pub game: u32,
    pub groups: Vec<Group>,
    /// Fields in all, one register each.
    pub fields: u32,
    pub bits: u32,
    /// The letters strings and grids may hold, sorted: a letter's code is
    /// its place here.
    pub alphabet: Vec<u8>,
    /// Bits a letter's code takes.
    pub cell: u32,
    /// The rows of numbered grids (shared with the code that runs on keys).
    pub rows: Rc<RefCell<RowTable>>,
    /// The numbers the sets the rules change may hold, when there are such
    /// sets: every set of the game is a mask over them.
    pub universe: Option<Universe>,
    /// For each parameter whose type nests, how it is flattened into the
    /// list of numbers its group holds (see `nested`); empty when none
    /// nests.
    pub nests: Vec<Option<Nest>>,
}

/// Whether a parameter of this type can be a group of a layout.
pub fn packs(ty: &Type) -> bool {
    match ty {
        Type::Nat | Type::Int | Type::Bool | Type::Str | Type::Grid => true,
        Type::List(t) => matches!(**t, Type::Nat | Type::Int | Type::Str | Type::Bool),
        Type::Set(t) => matches!(**t, Type::Nat | Type::Int),
        Type::Tuple(ts) if ts.iter().all(|t| matches!(t, Type::Nat | Type::Int)) => true,
        _ => nested::nests(ty),
    }
}

/// Whether a value can be held aside: a number, or a set of them.
fn held(v: &Value) -> bool {
    match v {
        Value::Int(_) => true,
        Value::Set(xs) => xs.iter().all(|x| matches!(x, Value::Int(_))),
        _ => false,
    }
}

/// Whether a list or tuple type holds integers that may be negative.
fn signed(ty: &Type) -> bool {
    match ty {
        Type::List(t) => **t == Type::Int,
        Type::Tuple(ts) => ts.contains(&Type::Int),
        _ => false,
    }
}

/// The width and bias of fields holding `numbers`: natural numbers as
/// they are, or when `signed` (an `int`, which the rules may take below
/// 0 whatever the start holds) with a sign and a bit more, as many values
/// below 0 as from 0 up: a walk from 4 may reach -16 before it leaves the
/// field (and the interpreter answers); `None` for a number below 0 where
/// no sign is kept.
fn sized(signed: bool, numbers: impl IntoIterator<Item = i64>) -> Option<(u32, i64)> {
    let mut most = 0u64;
    for n in numbers {
        // -1 - n of a negative n: -1 takes as many bits as 0.
        let magnitude = match n {
            0.. => n as u64,
            _ if signed => !n as u64,
            _ => return None,
        };
        most = most.max(magnitude);
    }
    if !signed {
        return Some((width_of(most), 0));
    }
    let width = width_of(most) + 2;
    (width < 64).then(|| (width, -(1i64 << (width - 1))))
}

/// Bits needed to write `n` (at least one).
fn width_of(n: u64) -> u32 {
    (64 - n.leading_zeros()).max(1)
}

impl Layout {
    /// The layout for a search from a position with these arguments, where
    /// `fixed[i]` says that every rule passes parameter `i` on unchanged and
    /// `letters[i]` lists characters the rules may write into a string.
    #[cfg(test)]
    pub fn new(
        game: u32,
        types: &[Type],
        args: &[Value],
        fixed: &[bool],
        letters: &[u8],
    ) -> Option<Layout> {
        Layout::with_lengths(game, types, args, (fixed, &[]), letters)
    }

    /// `new`, where `changing[i]` says that the rules may change the
    /// length of list parameter `i`: its length is then a field of its
    /// own, and its elements have room for as many as it starts with.
    pub fn with_lengths(
        game: u32,
        types: &[Type],
        args: &[Value],
        (fixed, changing): (&[bool], &[bool]),
        letters: &[u8],
    ) -> Option<Layout> {
        let plain = Layout::build(game, types, args, (fixed, changing), letters, None)?;
        let (mut rows, mut grid_bits, mut widest) = (0u32, 0u32, 0u32);
        for group in &plain.groups {
            if let Group::Grid(g) = group {
                rows += g.fields.len;
                grid_bits += g.fields.len * g.fields.width;
                widest = widest.max(g.fields.width);
            }
        }
        // Past `PACKED_BITS` the table of values costs twice as much a
        // position: grids then number their rows, if that makes it fit.
        if plain.bits > PACKED_BITS && rows > 0 {
            let number_bits = PACKED_BITS.saturating_sub(plain.bits - grid_bits) / rows;
            if number_bits > 0 && number_bits < widest {
                let numbered = Layout::build(
                    game,
                    types,
                    args,
                    (fixed, changing),
                    letters,
                    Some(number_bits),
                )?;
                *numbered.rows.borrow_mut() = RowTable::new(widest, number_bits);
                // The start's rows must have numbers.
                numbered.encode(game, args)?;
                return Some(numbered);
            }
        }
        // The top bit stays clear: keys are also table indices and shifts.
        (plain.bits < 64).then_some(plain)
    }

    /// A layout with grids' rows numbered in `number_bits` bits where their
    /// letters take more; keys may take 64 bits or more.
    fn build(
        game: u32,
        types: &[Type],
        args: &[Value],
        (fixed, changing): (&[bool], &[bool]),
        letters: &[u8],
        number_bits: Option<u32>,
    ) -> Option<Layout> {
        let alphabet = alphabet(args, letters)?;
        let universe = Universe::of(types, args, fixed)?;
        let cell = width_of(alphabet.len().saturating_sub(1) as u64);
        let mut groups = Vec::new();
        let mut fields = 0u32;
        let mut bits = 0u32;
        let mut span = |len: usize, (width, bias): (u32, i64)| -> Option<Fields> {
            let len = u32::try_from(len).ok()?;
            let s = Fields {
                first: fields,
                len,
                width,
                shift: bits,
                bias,
            };
            fields += len;
            bits = bits.checked_add(len.checked_mul(width)?)?;
            Some(s)
        };
        for (param, ((ty, arg), &fixed)) in types.iter().zip(args).zip(fixed).enumerate() {
            let changes = changing.get(param) == Some(&true);
            let group = match (ty, arg) {
                (Type::Nat | Type::Int | Type::Set(_), v) if fixed && held(v) => {
                    Group::Fixed(v.clone())
                }
                (Type::Nat | Type::Int, Value::Int(n)) => {
                    Group::Scalar(span(1, sized(ty == &Type::Int, [*n])?)?)
                }
                (Type::Bool, Value::Bool(_)) => Group::Flag(span(1, (1, 0))?),
                (Type::List(t), Value::List(xs)) if **t == Type::Bool => {
                    truth_values(xs)?.for_each(drop);
                    Group::Bools(span(xs.len(), (1, 0))?)
                }
                (Type::List(_), Value::List(xs)) | (Type::Tuple(_), Value::Tuple(xs))
                    if matches!(ty, Type::Tuple(_))
                        || matches!(ty, Type::List(t) if matches!(**t, Type::Nat | Type::Int)) =>
                {
                    let numbers = xs.iter().map(|x| match x {
                        Value::Int(n) => Some(*n),
                        _ => None,
                    });
                    let numbers: Vec<i64> = numbers.collect::<Option<_>>()?;
                    let sizes = sized(signed(ty), numbers)?;
                    if changes && matches!(ty, Type::List(_)) {
                        let length = span(1, (width_of(xs.len() as u64), 0))?;
                        let items = span(xs.len(), sizes)?;
                        Group::Sized {
                            items,
                            length,
                            text: false,
                        }
                    } else {
                        Group::List(span(xs.len(), sizes)?)
                    }
                }
                (Type::Str, Value::Str(s)) if changes => Group::Sized {
                    length: span(1, (width_of(s.len() as u64), 0))?,
                    items: span(s.len(), (cell, 0))?,
                    text: true,
                },
                (Type::Str, Value::Str(s)) => {
                    Group::Str(span(s.len(), (cell, 0))?, alphabet.clone())
                }
                (Type::Set(_), Value::Set(_)) => Group::Bits(span(1, (universe?.size, 0))?),
                (Type::Grid | Type::List(_), Value::List(rows)) => {
                    let cols = match rows.first() {
                        Some(Value::Str(s)) => s.len(),
                        _ => 0,
                    };
                    for row in rows.iter() {
                        let Value::Str(s) = row else { return None };
                        if s.len() != cols {
                            return None;
                        }
                    }
                    let cols = u32::try_from(cols).ok()?;
                    let width = cols.checked_mul(cell).filter(|&w| w < 64)?;
                    let numbered = number_bits.filter(|&n| n < width);
                    Group::Grid(Rows {
                        fields: span(rows.len(), (numbered.unwrap_or(width), 0))?,
                        cols,
                        numbered: numbered.is_some(),
                    })
                }
                _ => return None,
            };
            groups.push(group);
        }
        Some(Layout {
            game,
            groups,
            fields,
            bits,
            alphabet,
            cell,
            rows: Rc::default(),
            universe,
            nests: Vec::new(),
        })
    }

    /// How many lengths the list whose length changes may have (one more
    /// than it starts with), 1 when no list's length changes: the rules
    /// are compiled for each (see `shape`).
    pub fn shapes(&self) -> u32 {
        self.groups
            .iter()
            .find_map(|g| match g {
                Group::Sized { items, .. } => Some(items.len + 1),
                _ => None,
            })
            .unwrap_or(1)
    }

    /// Which of the `shapes` a key holds: the length of its list whose
    /// length changes, 0 when none does.
    #[inline]
    pub fn shape(&self, key: u64) -> usize {
        self.groups
            .iter()
            .find_map(|g| match g {
                Group::Sized { length, .. } => Some(length.read(key, 0) as usize),
                _ => None,
            })
            .unwrap_or(0)
    }

    /// Whether some field holds integers that may be below 0.
    pub fn signed(&self) -> bool {
        self.groups.iter().any(|g| match g {
            Group::Scalar(f) | Group::List(f) | Group::Sized { items: f, .. } => f.bias != 0,
            _ => false,
        })
    }

    /// The codes of a string's letters side by side, if every letter is in
    /// the alphabet and they fit a word.
    pub fn word(&self, text: &str) -> Option<u64> {
        if text.len() as u64 * u64::from(self.cell) > 64 {
            return None;
        }
        let mut word = 0u64;
        for (i, b) in text.bytes().enumerate() {
            let code = self.alphabet.binary_search(&b).ok()? as u64;
            word |= code << (i as u32 * self.cell);
        }
        Some(word)
    }

    /// How parameter `param` is flattened, if its type nests.
    pub fn nest(&self, param: usize) -> Option<&Nest> {
        self.nests.get(param)?.as_ref()
    }

    /// The key of a position of this layout's game, if it fits.
    pub fn encode(&self, game: u32, args: &[Value]) -> Option<u64> {
        if self.nests.iter().any(Option::is_some) {
            let flat = args.iter().enumerate().map(|(i, arg)| match self.nest(i) {
                Some(nest) => nest.flatten(arg),
                None => Some(arg.clone()),
            });
            return self.encode_flat(game, &flat.collect::<Option<Vec<_>>>()?);
        }
        self.encode_flat(game, args)
    }

    /// `encode` of arguments none of which nests.
    fn encode_flat(&self, game: u32, args: &[Value]) -> Option<u64> {
        if game != self.game || args.len() != self.groups.len() {
            return None;
        }
        let mut key = 0u64;
        let put = |key: &mut u64, s: &Fields, i: u32, v: i64| -> Option<()> {
            if !s.fits(v) {
                return None;
            }
            *key |= s.stored(v) << s.shift_of(i);
            Some(())
        };
        for (group, arg) in self.groups.iter().zip(args) {
            match (group, arg) {
                (Group::Fixed(v), w) if v == w => {}
                (Group::Scalar(s), Value::Int(n)) => put(&mut key, s, 0, *n)?,
                (Group::Flag(s), Value::Bool(b)) => put(&mut key, s, 0, i64::from(*b))?,
                (Group::List(s), Value::List(xs) | Value::Tuple(xs))
                    if xs.len() == s.len as usize =>
                {
                    for (i, x) in xs.iter().enumerate() {
                        let Value::Int(n) = x else { return None };
                        put(&mut key, s, i as u32, *n)?;
                    }
                }
                (
                    Group::Sized {
                        items,
                        length,
                        text: true,
                    },
                    Value::Str(text),
                ) if text.len() <= items.len as usize => {
                    put(&mut key, length, 0, text.len() as i64)?;
                    key |= self.word(text)? << items.shift;
                }
                (
                    Group::Sized {
                        items,
                        length,
                        text: false,
                    },
                    Value::List(xs),
                ) if xs.len() <= items.len as usize => {
                    put(&mut key, length, 0, xs.len() as i64)?;
                    for (i, x) in xs.iter().enumerate() {
                        let Value::Int(n) = x else { return None };
                        put(&mut key, items, i as u32, *n)?;
                    }
                }
                (Group::Bools(s), Value::List(xs)) if xs.len() == s.len as usize => {
                    for (i, b) in truth_values(xs)?.enumerate() {
                        put(&mut key, s, i as u32, i64::from(b))?;
                    }
                }
                (Group::Str(s, _), Value::Str(text)) if text.len() == s.len as usize => {
                    key |= self.word(text)? << s.shift;
                }
                (Group::Bits(s), Value::Set(xs)) => {
                    put(&mut key, s, 0, self.universe?.mask(xs)? as i64)?
                }
                (Group::Grid(rows), Value::List(xs)) if xs.len() == rows.fields.len as usize => {
                    for (i, x) in xs.iter().enumerate() {
                        let Value::Str(text) = x else { return None };
                        if text.len() != rows.cols as usize {
                            return None;
                        }
                        let word = self.word(text)?;
                        let field = if rows.numbered {
                            self.rows.borrow_mut().number(word)?
                        } else {
                            word
                        };
                        put(&mut key, &rows.fields, i as u32, field as i64)?;
                    }
                }
                _ => return None,
            }
        }
        Some(key)
    }

    /// Every field of a key, one register each.
    #[inline]
    pub fn decode(&self, key: u64, regs: &mut [i64]) {
        for group in &self.groups {
            let s = match group {
                Group::Fixed(_) => continue,
                Group::Grid(rows) if rows.numbered => {
                    let table = self.rows.borrow();
                    let s = &rows.fields;
                    for i in 0..s.len {
                        let n = s.read(key, i);
                        regs[(s.first + i) as usize] = table.word(n) as i64;
                    }
                    continue;
                }
                Group::Scalar(s)
                | Group::Flag(s)
                | Group::List(s)
                | Group::Bools(s)
                | Group::Bits(s)
                | Group::Str(s, _) => s,
                Group::Grid(rows) => &rows.fields,
                Group::Sized { items, length, .. } => {
                    regs[length.first as usize] = length.number(key, 0);
                    items
                }
            };
            for i in 0..s.len {
                regs[(s.first + i) as usize] = s.number(key, i);
            }
        }
    }
}

/// The truth values of a list of booleans, or `None` if it holds
/// anything else.
fn truth_values(xs: &[Value]) -> Option<impl Iterator<Item = bool> + '_> {
    xs.iter()
        .all(|x| matches!(x, Value::Bool(_)))
        .then(|| xs.iter().map(|x| matches!(x, Value::Bool(true))))
}

/// The letters of every string and grid among the arguments, and those
/// the rules write, sorted; `None` for a letter past ASCII.
fn alphabet(args: &[Value], letters: &[u8]) -> Option<Vec<u8>> {
    let mut alphabet: Vec<u8> = letters.to_vec();
    for arg in args {
        let strings: Vec<&str> = match arg {
            Value::Str(s) => vec![s],
            Value::List(xs) => xs
                .iter()
                .filter_map(|x| match x {
                    Value::Str(s) => Some(&**s),
                    _ => None,
                })
                .collect(),
            _ => continue,
        };
        for s in strings {
            if !s.is_ascii() {
                return None;
            }
            alphabet.extend(s.bytes());
        }
    }
    alphabet.sort_unstable();
    alphabet.dedup();
    Some(alphabet)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_hold_every_field_and_refuse_what_does_not_fit() {
        let types = [Type::Nat, Type::List(Box::new(Type::Nat)), Type::Str];
        let args = [
            Value::Int(2),
            Value::list(vec![Value::Int(5), Value::Int(0), Value::Int(3)]),
            Value::str("..X"),
        ];
        let layout = Layout::new(0, &types, &args, &[true, false, false], b"O").unwrap();
        // Piles of 3 bits each, three letters in 2 bits each.
        assert_eq!(layout.bits, 3 * 3 + 3 * 2);
        let key = layout.encode(0, &args).unwrap();
        let mut regs = vec![0; layout.fields as usize];
        layout.decode(key, &mut regs);
        // '.' < 'O' < 'X' in the alphabet.
        assert_eq!(regs, [5, 0, 3, 0, 0, 2]);
        let wider = [
            Value::Int(2),
            Value::list(vec![Value::Int(8), Value::Int(0), Value::Int(3)]),
            Value::str("..X"),
        ];
        assert_eq!(layout.encode(0, &wider), None);
        let other_k = [Value::Int(3), args[1].clone(), args[2].clone()];
        assert_eq!(layout.encode(0, &other_k), None);
        let other_letter = [args[0].clone(), args[1].clone(), Value::str("..Y")];
        assert_eq!(layout.encode(0, &other_letter), None);
        assert_eq!(layout.encode(1, &args), None);
    }

    #[test]
    fn integers_below_zero_are_kept_with_a_sign() {
        let types = [Type::Int, Type::List(Box::new(Type::Int)), Type::Nat];
        let args = [
            Value::Int(-3),
            Value::list(vec![Value::Int(2), Value::Int(-5)]),
            Value::Int(4),
        ];
        let layout = Layout::new(0, &types, &args, &[false; 3], b"").unwrap();
        // -3 needs 2 bits, a sign and one more; -5 needs 3 and two more;
        // 4 needs 3.
        assert_eq!(layout.bits, 4 + 2 * 5 + 3);
        let key = layout.encode(0, &args).unwrap();
        let mut regs = vec![0; layout.fields as usize];
        layout.decode(key, &mut regs);
        assert_eq!(regs, [-3, 2, -5, 4]);
        // A signed field of 4 bits holds -8 to 7.
        let edge = [Value::Int(-8), args[1].clone(), args[2].clone()];
        assert!(layout.encode(0, &edge).is_some());
        let past = [Value::Int(8), args[1].clone(), args[2].clone()];
        assert_eq!(layout.encode(0, &past), None);
        // A natural number has no sign to keep.
        let negative = [args[0].clone(), args[1].clone(), Value::Int(-1)];
        assert_eq!(layout.encode(0, &negative), None);
        assert!(Layout::new(0, &types, &negative, &[false; 3], b"").is_none());
    }

    /// A list of booleans takes one bit an element, and only booleans.
    #[test]
    fn lists_of_booleans_take_a_bit_an_element() {
        let types = [Type::List(Box::new(Type::Bool))];
        let cells = |bs: &[bool]| [Value::list(bs.iter().map(|&b| Value::Bool(b)).collect())];
        let args = cells(&[true, false, true, true]);
        let layout = Layout::new(0, &types, &args, &[false], b"").unwrap();
        assert_eq!(layout.bits, 4);
        assert_eq!(layout.encode(0, &args), Some(0b1101));
        assert_eq!(layout.encode(0, &cells(&[true, false])), None);
        let numbers = [Value::list(vec![Value::Int(1), Value::Int(0)])];
        assert!(Layout::new(0, &types, &numbers, &[false], b"").is_none());
    }
}
