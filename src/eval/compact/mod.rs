//! Games whose positions pack into one integer, searched without the
//! interner: a position's arguments become fields of a key (`layout`), the
//! rules are compiled once into code that reads those fields and writes the
//! options' keys (`compile`, `code`, `run`), and `solve::dense` searches the
//! keys. The general search stays the reference: whatever this code cannot
//! answer exactly as the interpreter would, it gives back to it.

mod bitsets;
mod bound_runs;
mod called;
mod clamped;
mod closure;
mod code;
mod compile;
mod cost;
mod crossing;
mod early;
mod facts;
mod fused;
mod hoist;
mod lanes;
mod layout;
mod leaves;
mod letters;
mod listing;
mod lookup;
mod masks;
mod monotone;
mod nested;
mod one_place;
mod peel;
mod placed;
mod plane;
mod product_runs;
mod progression;
mod reads;
mod rows;
mod run;
mod shapes;
mod sieve;
mod split;
mod sums;
mod turn;
mod windows;
mod words;

use super::engine::{Compiled, Path, Unsupported};
use super::interp::Interp;
use super::ir::Program;
use super::positions::PosId;
use super::symmetry::MAX_ORBIT;
use super::value::Value;
use crate::solve::bottom_up::HeapField;
use crate::solve::dense::{Abort, KeyGame, PACKED_BITS};
use code::GameCode;
use layout::Layout;
pub use listing::{Listings, Trail};
#[cfg(test)]
use run::Machine;
use shapes::Shaped;
use std::any::Any;

/// Whether value searches pack positions into keys where the rules allow:
/// tests turn it down to compare the ways with each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compact {
    /// Always the general search.
    Off,
    /// Keys, every rule run step by step.
    Plain,
    /// Keys, with the innermost loops of known shapes run on the key,
    /// loops walked only where a test that changes once holds (see
    /// `monotone`), and moves linear in their last loop's variable written
    /// as progressions of keys (see `progression`).
    #[default]
    Fused,
}

/// How `--stats` names this engine.
const COMPILED: &str = "the compiled search of packed keys";
/// How `--stats` names compiling a helper in place, when it is turned
/// down: the compiled code then calls the helper through the reference
/// interpreter.
const HELPER: &str = "compiling a helper in place (it runs on the reference interpreter, once \
                      for each set of arguments met)";
/// How `--stats` names the symmetry on packed keys, when it is turned down:
/// the compiled search then stores every position of an orbit.
const SYMMETRY: &str = "the symmetry on packed keys (every position is stored)";

/// A game's rules compiled for one layout, ready to list options of keys.
pub struct CompactGame {
    layout: Layout,
    code: Shaped,
    /// The orbit of the key being made canonical.
    orbit: Vec<u64>,
}

impl KeyGame for CompactGame {
    fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
        let start = out.len();
        let made = self.code.options(&self.layout, key, out);
        if made.is_none() {
            out.truncate(start);
            return Err(Abort);
        }
        Ok(())
    }

    fn bits(&self) -> u32 {
        self.layout.bits
    }

    fn room(&self) -> u32 {
        self.layout.shapes().saturating_sub(1)
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn has_symmetry(&self) -> bool {
        self.code.code(0).is_some_and(|c| !c.images.is_empty())
    }

    /// The least key of the orbit; `Abort` where an image cannot be made
    /// on the key (the general search then makes it, or reports why not).
    fn canonical(&mut self, key: u64) -> Result<u64, Abort> {
        if !self.has_symmetry() {
            return Ok(key);
        }
        let orbit = &mut self.orbit;
        orbit.clear();
        orbit.push(key);
        let mut next = 0;
        while next < orbit.len() {
            let shape = self.layout.shape(orbit[next]);
            let (code, machine) = self.code.of(shape).ok_or(Abort)?;
            for writes in &code.images {
                let image = machine
                    .image(&self.layout, orbit[next], writes)
                    .ok_or(Abort)?;
                if !orbit.contains(&image) {
                    if orbit.len() >= MAX_ORBIT {
                        return Err(Abort);
                    }
                    orbit.push(image);
                }
            }
            next += 1;
        }
        Ok(orbit.iter().copied().min().unwrap_or(key))
    }
}

/// A game compiled for a position: the game, the position's key, and what
/// did not compile the faster way (the game's images, a helper written in
/// place), with why, as `--stats` names them.
type Laid = (Box<dyn KeyGame>, u64, Vec<(&'static str, Unsupported)>);

impl Interp {
    /// The game of `pos` compiled to keys, laid out to hold `pos`, and the
    /// key of `pos`; `None` when its rules are beyond the compiled code (the
    /// engine log then says why).
    pub fn compact_game(&mut self, pos: PosId) -> Option<(Box<dyn KeyGame>, u64)> {
        if self.compact == Compact::Off {
            return None;
        }
        let mut args = Vec::new();
        let g = self.positions.args_into(pos, &mut args);
        // Positions asked one after another (a heap, then a larger one)
        // would each outgrow the last layout, and the state limit counts
        // every search's positions: once outgrown, a layout has room.
        let program = self.program.clone();
        let again = self.listings.searched_again(&program, g);
        let growths = again.min(listing::MAX_GROWTHS);
        let headroom = listing::HEADROOM * growths;
        // A list that grows has room for more elements: as many again as
        // it has (at least two) at first, then as many as the key has
        // bits for.
        let rooms = match growing_length(&program, g, &args) {
            None => 0,
            Some(len) if growths == 0 => len.max(2),
            Some(_) => PACKED_BITS as usize,
        };
        let compiled = fitted((headroom, rooms), |room| {
            self.compile_compact(g, &args, room)
        });
        match compiled {
            Ok(Some((game, key, declined))) => {
                self.engines.record(g, Path::CompiledSearch, declined);
                Some((game, key))
            }
            Ok(None) => {
                let span = self.program.games.get(g as usize).map(|game| game.span);
                let why = Unsupported::new(
                    "a position that does not pack into a key of at most 63 bits (its grids' \
                     rows, and the rows of its lists of lists, must be of one length, and its \
                     numbers all small enough together)",
                    span.unwrap_or_default(),
                );
                self.engines
                    .record(g, Path::Interpreter, vec![(COMPILED, why)]);
                None
            }
            Err(why) => {
                self.engines
                    .record(g, Path::Interpreter, vec![(COMPILED, why)]);
                None
            }
        }
    }

    /// The compiled game and the key, with what did not compile the faster
    /// way (see `Laid`); each number's field has `headroom` bits more than
    /// the position needs, and a list that grows has room for more
    /// elements (see `with_room`).
    fn compile_compact(
        &self,
        g: u32,
        args: &[Value],
        (headroom, room): (u32, usize),
    ) -> Compiled<Option<Laid>> {
        let fuse = self.compact == Compact::Fused;
        let Some((layout, mut codes, key)) = self.laid_out(g, args, fuse, (headroom, room))? else {
            return Ok(None);
        };
        let unimaged = codes.iter_mut().find_map(|c| c.unimaged.take());
        let evaluated = codes.iter_mut().find_map(|c| c.evaluated.take());
        let declined = (unimaged.map(|why| (SYMMETRY, why)).into_iter())
            .chain(evaluated.map(|why| (HELPER, why)))
            .collect();
        let code = Shaped::new(codes, &layout);
        Ok(Some((
            Box::new(CompactGame {
                layout,
                code,
                orbit: Vec::new(),
            }),
            key,
            declined,
        )))
    }

    /// Game `g`'s rules compiled for a layout that holds the position with
    /// arguments `args`, and its key; `None` when it does not pack. Each
    /// number's field has `headroom` bits more than the position needs.
    fn laid_out(
        &self,
        g: u32,
        args: &[Value],
        fuse: bool,
        (headroom, room): (u32, usize),
    ) -> Compiled<Option<(Layout, Vec<GameCode>, u64)>> {
        // A parameter whose type nests is read and written as a flat list.
        let Some((program, nests)) = nested::flattened(&self.program, g, args)? else {
            return Ok(None);
        };
        let flat = args.iter().zip(&nests).map(|(arg, nest)| match nest {
            Some(nest) => nest.flatten(arg),
            None => Some(arg.clone()),
        });
        // Records of different lengths do not pack.
        let Some(flat) = flat.collect::<Option<Vec<Value>>>() else {
            return Ok(None);
        };
        let (fixed, letters) = compile::fixed_and_letters(&program, &self.consts, g)?;
        let game = &program.games[g as usize];
        for param in &game.params {
            if !layout::packs(&param.ty) {
                return Err(Unsupported::new(
                    format!(
                        "a parameter of type {}: the compiled search packs numbers, booleans, \
                         lists of numbers or booleans, strings, grids, sets of numbers, tuples \
                         of numbers and booleans, and lists of those tuples or of lists of \
                         numbers or booleans into a key",
                        param.ty
                    ),
                    param.span,
                ));
            }
        }
        let types: Vec<_> = game.params.iter().map(|p| p.ty.clone()).collect();
        // Room goes only to a list that grows: no game is read for one
        // when there is no room to give.
        let growing = match room {
            0 => Vec::new(),
            _ => compile::growing(&program, g),
        };
        let sizes: Vec<Value> = flat
            .iter()
            .zip(&fixed)
            .enumerate()
            .map(
                |(i, (arg, &fixed))| match (fixed, growing.get(i) == Some(&true)) {
                    (true, _) => arg.clone(),
                    (false, false) => with_headroom(arg, headroom),
                    (false, true) => with_room(&with_headroom(arg, headroom), room),
                },
            )
            .collect();
        let changing = compile::changing(&program, g);
        let Some(mut layout) =
            Layout::with_lengths(g, &types, &sizes, (&fixed, &changing), &letters)
        else {
            return Ok(None);
        };
        layout.nests = nests;
        let Some(key) = layout.encode(g, args) else {
            return Ok(None);
        };
        let codes = compile::games(&program, &self.consts, &layout, fuse)?;
        Ok(Some((layout, codes, key)))
    }

    /// The game of `pos` compiled to keys, with where its number at
    /// `param` lies in them, for a table of the heaps of a family (see
    /// `solve::bottom_up`); `None` when the rules are beyond the compiled
    /// code or that number has no field of its own.
    pub fn compact_heaps(
        &mut self,
        pos: PosId,
        param: usize,
    ) -> Option<(Box<dyn KeyGame>, HeapField)> {
        let (game, key) = self.compact_game(pos)?;
        let compact = game.as_any().downcast_ref::<CompactGame>()?;
        let Some(layout::Group::Scalar(f)) = compact.layout.groups.get(param) else {
            return None;
        };
        let field = HeapField {
            others: key & !(f.mask() << f.shift),
            shift: f.shift,
            mask: f.mask(),
            bias: f.bias,
        };
        Some((game, field))
    }

    /// The key of `pos` in a compiled game's layout, if it fits there.
    pub fn compact_key(&self, game: &dyn KeyGame, pos: PosId) -> Option<u64> {
        let game = game.as_any().downcast_ref::<CompactGame>()?;
        let mut args: Vec<Value> = Vec::new();
        let g = self.positions.args_into(pos, &mut args);
        game.layout.encode(g, &args)
    }
}

/// The length of game `g`'s list parameter that its rules may make longer
/// (see `compile::growing`), in `args`; `None` when there is none.
fn growing_length(program: &Program, g: u32, args: &[Value]) -> Option<usize> {
    let growing = compile::growing(program, g);
    args.iter()
        .zip(&growing)
        .find_map(|(arg, &grows)| match arg {
            Value::List(xs) if grows => Some(xs.len()),
            Value::Str(s) if grows => Some(s.len()),
            _ => None,
        })
}

/// The first layout `attempt` makes that packs, given headroom bits a
/// number and room for more elements of a list that grows: as much of
/// each as the key has bits for, the numbers' cut first, then the room,
/// an eighth at a time (each attempt lays the game out).
fn fitted<T>(
    (headroom, rooms): (u32, usize),
    mut attempt: impl FnMut((u32, usize)) -> Compiled<Option<T>>,
) -> Compiled<Option<T>> {
    let mut room = rooms;
    loop {
        for bits in (0..=headroom).rev() {
            if let Some(made) = attempt((bits, room))? {
                return Ok(Some(made));
            }
        }
        if room == 0 {
            return Ok(None);
        }
        room = (room * 7 / 8).min(room - 1);
    }
}

/// A list that grows, with room for `room` more elements: zeros after its
/// own (for a string, copies of its last letter, so that the alphabet is
/// its own). A list laid out so long is taken to be of any length up to
/// that (see `Group::Sized`).
fn with_room(v: &Value, room: usize) -> Value {
    let xs = match v {
        Value::List(xs) => xs,
        Value::Str(s) => {
            let last = s.chars().last().map(String::from).unwrap_or_default();
            return Value::str(&format!("{s}{}", last.repeat(room)));
        }
        _ => return v.clone(),
    };
    let room = xs
        .iter()
        .cloned()
        .chain(std::iter::repeat_n(Value::Int(0), room));
    Value::List(room.collect())
}

/// A value whose numbers are `bits` bits wider than `v`'s, for sizing a
/// layout's fields: a number becomes the largest such number, and a set
/// holds that number too.
fn with_headroom(v: &Value, bits: u32) -> Value {
    let wider = |n: i64| -> i64 {
        if n < 0 || bits == 0 {
            return n;
        }
        n.checked_add(1)
            .and_then(|m| m.checked_mul(1i64 << bits.min(62)))
            .map_or(n, |m| m - 1)
    };
    match v {
        Value::Int(n) => Value::Int(wider(*n)),
        Value::List(xs) => Value::List(xs.iter().map(|x| with_headroom(x, bits)).collect()),
        Value::Tuple(xs) => Value::Tuple(xs.iter().map(|x| with_headroom(x, bits)).collect()),
        // A set's bits reach from its least number to its largest: a
        // larger number widens them as it would a number's field.
        Value::Set(xs) if bits > 0 && xs.iter().all(|x| matches!(x, Value::Int(_))) => {
            let numbers = xs.iter().filter_map(|x| match x {
                Value::Int(n) => Some(*n),
                _ => None,
            });
            let largest = numbers.max().unwrap_or(0);
            let mut xs = xs.to_vec();
            xs.push(Value::Int(wider(largest.max(0))));
            Value::set(xs)
        }
        other => other.clone(),
    }
}

/// Test helpers: a game compiled from its text for a position.
#[cfg(test)]
pub(super) mod testing {
    use super::{Compact, CompactGame, GameCode, Layout, Machine};
    use crate::solve::dense::{written_out, KeyGame};
    use std::collections::HashSet;

    /// The game of `position` in `text`, compiled to keys (`fused` says
    /// whether the loops of known shapes run on the key), and its key.
    pub fn compiled(text: &str, position: &str, fused: bool) -> (Box<dyn KeyGame>, u64) {
        let mut session = crate::session::Session::new();
        session
            .load_text("test.game", text)
            .expect("the game loads");
        session.interp.compact = if fused {
            Compact::Fused
        } else {
            Compact::Plain
        };
        let parts = session.position(position).expect("a position");
        session
            .interp
            .compact_game(parts[0])
            .expect("the game compiles to keys")
    }

    /// How many keys are reachable from `start`, after checking that the
    /// fused code and the step-by-step code give each of them the same
    /// options, as often each (or both give up on it). The fused code
    /// gives values only, which need no order: it may walk a rule's
    /// generators in another (see `grid_order`).
    pub fn same_options(text: &str, start: &str) -> usize {
        let (mut fast, key) = compiled(text, start, true);
        let (mut plain, _) = compiled(text, start, false);
        let (mut seen, mut todo) = (HashSet::from([key]), vec![key]);
        while let Some(key) = todo.pop() {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            let fast_made = fast.options(key, &mut a).is_ok();
            let plain_made = plain.options(key, &mut b).is_ok();
            assert_eq!(fast_made, plain_made, "key {key:#x}");
            let (mut a, mut b) = (written_out(&a), written_out(&b));
            a.sort_unstable();
            b.sort_unstable();
            assert_eq!(a, b, "the options of key {key:#x}");
            for k in a {
                if seen.insert(k) {
                    todo.push(k);
                }
            }
        }
        seen.len()
    }

    /// The code and machine of a compiled game whose keys have one shape
    /// (see `Layout::shapes`).
    pub(in crate::eval::compact) struct Inside<'a> {
        pub layout: &'a Layout,
        pub code: &'a GameCode,
        pub machine: &'a Machine,
    }

    /// The compiled game behind a `KeyGame`.
    pub(in crate::eval::compact) fn inside(game: &dyn KeyGame) -> Inside<'_> {
        let game = game
            .as_any()
            .downcast_ref::<CompactGame>()
            .expect("a compiled game");
        let (code, machine) = game.code.only();
        Inside {
            layout: &game.layout,
            code,
            machine,
        }
    }
}
