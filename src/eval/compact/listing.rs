//! One position's options through the compiled code: the question about
//! a single position (`moves`, `play`, `explain`, `graph`, misère and
//! loopy play, the general search) runs the same code over packed keys as
//! the value search does. The position is packed into a key, the rules
//! list its options' keys, and each key is read back into the arguments of
//! a position; when labels are asked for, the compiled code also records
//! the values its generators held at each option, and the label is
//! written from them. Wherever the compiled code cannot answer a position
//! exactly as the interpreter would, the interpreter answers it.

use super::code::{GameCode, Gen, Target};
use super::compile::{grid_held, unfolded};
use super::layout::{Group, Layout};
use super::shapes::Shaped;
use super::COMPILED;
use crate::error::Error;
use crate::eval::builtins::Builtin;
use crate::eval::engine::{Path, Unsupported};
use crate::eval::interp::{Env, Interp};
use crate::eval::ir::{GameKind, Ir, IrKind, MoveIr, Param, Program};
use crate::eval::packing::{write_int, write_int_list};
use crate::eval::positions::{PosId, Positions};
use crate::eval::value::Value;
use crate::solve::dense::{options_of, Listed, PACKED_BITS};
use crate::solve::{Components, Move, MoveLabel};
use crate::types::Type;
use std::collections::HashMap;
use std::sync::Arc;

/// Bits a listing's number fields have beyond what the position needs,
/// and a value search's when its game's last layout was outgrown.
pub(super) const HEADROOM: u32 = 8;
/// How many times a layout grows by `HEADROOM` bits a number, at most.
pub(super) const MAX_GROWTHS: u32 = 4;

/// How many layouts a game's listing is made for, at most: past that, a
/// position that does not fit the last is handed to the interpreter.
const MOST_LAYOUTS: u32 = 16;

/// How `--stats` names the compiled code when it hands single positions
/// back to the interpreter.
const SOME_POSITIONS: &str = "the compiled code of packed keys, for some positions";

/// What the compiled code records as it lists options: where each rule's
/// options begin and, when labels are asked for, the registers its
/// generators set at each option.
#[derive(Default)]
pub struct Trail {
    rule: u32,
    labels: bool,
    /// Options listed so far (a sum is one option of several keys).
    listed: usize,
    /// By rule, the number of options listed before it.
    starts: Vec<usize>,
    made: Vec<Made>,
}

/// The state of the registers when an option was made.
struct Made {
    rule: u32,
    regs: Vec<i64>,
    tuples: Vec<Vec<i64>>,
}

impl Trail {
    /// Rule `rule` starts.
    pub fn begin_rule(&mut self, rule: u32) {
        self.rule = rule;
        self.starts.push(self.listed);
    }

    /// An option was made with these registers (kept for its label).
    pub fn record(&mut self, regs: &[i64], tuples: &[Vec<i64>]) {
        self.listed += 1;
        if self.labels {
            self.made.push(Made {
                rule: self.rule,
                regs: regs.to_vec(),
                tuples: tuples.to_vec(),
            });
        }
    }

    /// The rule that listed option `i`.
    fn rule_of(&self, i: usize) -> u32 {
        let after = self.starts.partition_point(|&start| start <= i);
        after.saturating_sub(1) as u32
    }
}

/// A game's rules compiled for listing options, with the layout they read.
struct Listing {
    layout: Layout,
    code: Shaped,
    /// The move rules as compiled (see `unfolded`), whose generators the
    /// code's are, each with the size of its frame: what labels read.
    rules: Vec<(MoveIr, usize)>,
}

/// The compiled code of each game of one program, made when first asked.
#[derive(Default)]
pub struct Listings {
    program: Option<Arc<Program>>,
    games: Vec<Option<Result<Listing, Unsupported>>>,
    /// How many times a value search was laid out for each game (counted
    /// up to `MAX_GROWTHS`).
    searched: HashMap<u32, u32>,
    /// How many times each game was laid out for listing (counted up to
    /// `MOST_LAYOUTS`).
    laid: HashMap<u32, u32>,
    keys: Vec<u64>,
    trail: Trail,
    scratch: Scratch,
}

impl Listings {
    /// Starts afresh when `program` is not the one the listings are for.
    fn for_program(&mut self, program: &Arc<Program>) {
        if !self
            .program
            .as_ref()
            .is_some_and(|p| Arc::ptr_eq(p, program))
        {
            *self = Listings {
                program: Some(program.clone()),
                ..Listings::default()
            };
        }
    }

    /// How many times a value search of game `g` was laid out before, each
    /// for a position that its layout then could not hold; counts this
    /// time.
    pub(super) fn searched_again(&mut self, program: &Arc<Program>, g: u32) -> u32 {
        self.for_program(program);
        let times = self.searched.entry(g).or_insert(0);
        let before = *times;
        *times = (before + 1).min(MAX_GROWTHS);
        before
    }
}

/// Why the compiled code left a position to the interpreter: by the name
/// `--stats` gives the compiled code, and the reason.
type Declined = (&'static str, Unsupported);

impl Interp {
    /// Lists the options of the position of game `g` (defined by move
    /// rules) with arguments `args`, made by the compiled code, in the
    /// order the interpreter makes them and with the same labels; `false`
    /// where the compiled code cannot answer exactly as the interpreter
    /// would, which then answers.
    pub(in crate::eval) fn compiled_moves(
        &mut self,
        (g, args): (u32, &[Value]),
        labels: bool,
        out: &mut Vec<Move>,
    ) -> bool {
        if self.compact == super::Compact::Off {
            return false;
        }
        // The value search of a game with a symmetry stores one position
        // of each family: the interpreter makes each option that one.
        if self.orbits.searching && self.has_symmetry(g) {
            return false;
        }
        let mut listings = std::mem::take(&mut self.listings);
        let start = out.len();
        let listed = self.list_compiled(&mut listings, g, args, labels, out);
        self.listings = listings;
        match listed {
            Ok(()) => {
                self.engines.record(g, Path::CompiledOptions, Vec::new());
                true
            }
            Err(declined) => {
                out.truncate(start);
                self.engines.record(g, Path::Interpreter, vec![declined]);
                false
            }
        }
    }

    fn list_compiled(
        &mut self,
        listings: &mut Listings,
        g: u32,
        args: &[Value],
        labels: bool,
        out: &mut Vec<Move>,
    ) -> Result<(), Declined> {
        let program = self.program.clone();
        let game = &program.games[g as usize];
        let declined = |what: &str| (SOME_POSITIONS, Unsupported::new(what, game.span));
        listings.for_program(&program);
        if listings.games.len() <= g as usize {
            listings.games.resize_with(g as usize + 1, || None);
        }
        let laid = listings.laid.entry(g).or_insert(0);
        let slot = &mut listings.games[g as usize];
        // A layout is sized for the position it is made for: a position
        // that does not fit it gets a layout of its own, while the game has
        // been laid out only a few times (positions that each outgrow the
        // last would each be compiled for).
        let key = match slot {
            Some(Ok(listing)) => listing.layout.encode(g, args),
            _ => None,
        };
        let key = match (key, &*slot) {
            (Some(key), _) => key,
            (None, Some(Err(why))) => return Err((COMPILED, why.clone())),
            (None, _) if *laid >= MOST_LAYOUTS => return Err(declined(UNPACKED)),
            (None, _) => {
                *laid += 1;
                match self.roomy_layout(g, args) {
                    Ok(Some((layout, codes, key))) => {
                        let code = Shaped::new(codes, &layout);
                        let rules = match &game.kind {
                            GameKind::Rules { moves, .. } => {
                                let frame = game.frame_size.max(args.len());
                                let unfold = |m| unfolded(m, |ir| grid_held(ir, &layout), frame);
                                let rules = moves.iter().map(unfold);
                                rules.map(|u| (u.rule.into_owned(), u.frame)).collect()
                            }
                            _ => Vec::new(),
                        };
                        *slot = Some(Ok(Listing {
                            layout,
                            code,
                            rules,
                        }));
                        key
                    }
                    Ok(None) => return Err(declined(UNPACKED)),
                    Err(why) => {
                        *slot = Some(Err(why.clone()));
                        return Err((COMPILED, why));
                    }
                }
            }
        };
        let Some(Ok(listing)) = slot else {
            return Err(declined(UNPACKED));
        };
        let mut trail = std::mem::take(&mut listings.trail);
        trail.starts.clear();
        trail.made.clear();
        trail.listed = 0;
        trail.labels = labels;
        let shape = listing.layout.shape(key);
        let Some((code, machine)) = listing.code.of(shape) else {
            return Err(declined(UNANSWERED));
        };
        machine.trail = Some(trail);
        let keys = &mut listings.keys;
        keys.clear();
        let made = machine.options(&listing.layout, code, key, keys);
        let trail = machine.trail.take().unwrap_or_default();
        let recorded = trail.listed == options_of(keys).count()
            && (!labels || trail.made.len() == trail.listed);
        let listed = match made {
            Some(()) if recorded => {
                let scratch = &mut listings.scratch;
                self.intern_listed((listing, shape), &trail, (g, args), keys, scratch, out)
            }
            _ => Err(declined(UNANSWERED)),
        };
        listings.trail = trail;
        listed
    }

    /// The options whose keys the compiled code listed, interned, with
    /// their rules and (when recorded) labels.
    fn intern_listed(
        &mut self,
        (listing, shape): (&Listing, usize),
        trail: &Trail,
        (g, args): (u32, &[Value]),
        keys: &[u64],
        scratch: &mut Scratch,
        out: &mut Vec<Move>,
    ) -> Result<(), Declined> {
        let program = self.program.clone();
        let game = &program.games[g as usize];
        let declined = || (SOME_POSITIONS, Unsupported::new(UNANSWERED, game.span));
        if !matches!(game.kind, GameKind::Rules { .. }) {
            return Err(declined());
        }

        // Near the state limit the interpreter answers: it stops with its
        // error at the very result that makes one position too many. The
        // positions the compiled search holds count too.
        let made: usize = options_of(keys)
            .map(|option| match option {
                Listed::Run(_, _, count) => count as usize,
                Listed::Sum(parts) => parts.len(),
            })
            .sum();
        if self.states_held() + made > self.max_positions {
            return Err(declined());
        }
        let mut parts = Vec::new();
        for (i, option) in options_of(keys).enumerate() {
            parts.clear();
            let keys = match &option {
                // The listing's code writes no run of more than one key.
                Listed::Run(key, _, 1) => std::slice::from_ref(key),
                Listed::Run(..) => return Err(declined()),
                Listed::Sum(keys) => keys,
            };
            for &key in keys {
                let id = intern_key(
                    &mut self.positions,
                    &listing.layout,
                    (g, &game.params),
                    key,
                    scratch,
                )
                .ok_or_else(declined)?;
                parts.push(id);
            }
            let result = match option {
                Listed::Run(..) => Components::One([parts[0]]),
                // A sum's parts in the order the interpreter keeps them.
                Listed::Sum(_) => {
                    parts.sort_unstable();
                    Components::from(parts.clone())
                }
            };
            let label = match trail.made.get(i) {
                Some(made) => {
                    let code = listing.code.code(shape).ok_or_else(declined)?;
                    let gens = &code.rules[made.rule as usize].gens;
                    let (rule, frame) =
                        listing.rules.get(made.rule as usize).ok_or_else(declined)?;
                    let alphabet = &listing.layout.alphabet;
                    let label = self.label(rule, gens, args, *frame, made, alphabet);
                    Some(label.map_err(|_| declined())?)
                }
                None => None,
            };
            out.push(Move {
                rule: trail.rule_of(i),
                result,
                label,
            });
        }
        Ok(())
    }

    /// The game's rules compiled for a layout with room for options whose
    /// numbers are larger than the position's (a heap that grows, the
    /// other parts of a sum), or sized for the position alone when that
    /// does not pack.
    fn roomy_layout(
        &self,
        g: u32,
        args: &[Value],
    ) -> Result<Option<(Layout, Vec<GameCode>, u64)>, Unsupported> {
        let rooms = match super::growing_length(&self.program, g, args) {
            Some(_) => PACKED_BITS as usize,
            None => 0,
        };
        super::fitted((HEADROOM, rooms), |room| {
            self.laid_out(g, args, false, room)
        })
    }

    /// A subset of the list `from` works out to, given as `items`: the
    /// items themselves, or where `from` is a list of pairs, the pairs at
    /// the places the items are.
    fn of_places(&mut self, from: &Ir, env: &mut Env, items: Vec<Value>) -> Result<Value, Error> {
        let Value::List(all) = self.eval(from, env)? else {
            return Ok(Value::list(items));
        };
        if all.iter().all(|x| matches!(x, Value::Int(_))) {
            return Ok(Value::list(items));
        }
        let pairs = items.iter().map(|place| match place {
            Value::Int(p) => usize::try_from(*p).ok().and_then(|p| all.get(p).cloned()),
            _ => None,
        });
        Ok(Value::list(pairs.collect::<Option<_>>().unwrap_or(items)))
    }

    /// The label of an option, from the values the rule's generators held.
    fn label(
        &mut self,
        rule: &MoveIr,
        gens: &[Gen],
        args: &[Value],
        frame: usize,
        made: &Made,
        alphabet: &[u8],
    ) -> Result<MoveLabel, Error> {
        let mut env: Env = args.to_vec();
        env.resize(frame, Value::Int(0));
        for (generator, gen) in rule.generators.iter().zip(gens) {
            let value = match gen.target {
                // A pair of `zip` or `enumerate`, or one of tuples written
                // out, is held as its place.
                Target::Reg(r)
                    if is_pairs(&generator.source)
                        || tuples_by_place(&generator.source, &self.consts) =>
                {
                    let place = Value::Int(made.regs[r as usize]);
                    let list = self.of_places(&generator.source, &mut env, vec![place])?;
                    match list {
                        Value::List(one) if one.len() == 1 => one[0].clone(),
                        other => other,
                    }
                }
                // The cells of a string are held as their columns.
                Target::Reg(r)
                    if matches!(generator.source.kind, IrKind::Builtin(Builtin::Cells, _)) =>
                {
                    Value::Tuple([Value::Int(0), Value::Int(made.regs[r as usize])].into())
                }
                // Letters written out are held as their codes.
                Target::Reg(r)
                    if super::compile::letters_written_out(&generator.source, &self.consts)
                        .is_some() =>
                {
                    let code = usize::try_from(made.regs[r as usize]).ok();
                    match code.and_then(|c| alphabet.get(c)) {
                        Some(&c) => Value::Str(char::from(c).to_string().into()),
                        None => Value::Int(made.regs[r as usize]),
                    }
                }
                // A record of a nested list is held as its place.
                Target::Reg(r) if record_of(&generator.source, args).is_some() => {
                    let place = usize::try_from(made.regs[r as usize]).ok();
                    let records = record_of(&generator.source, args);
                    match records.zip(place).and_then(|(xs, p)| xs.get(p)) {
                        Some(record) => record.clone(),
                        None => Value::Int(made.regs[r as usize]),
                    }
                }
                Target::Reg(r) => Value::Int(made.regs[r as usize]),
                Target::Tuple(t) => {
                    let held = &made.tuples[t as usize];
                    let items = held.iter().map(|&n| Value::Int(n));
                    // `cells` gives (row, column) pairs, every other tuple
                    // source lists; a subset of a list of pairs (of
                    // `enumerate`) is held as their places.
                    match &generator.source.kind {
                        IrKind::Builtin(Builtin::Cells, _) => Value::Tuple(items.collect()),
                        IrKind::Builtin(Builtin::Subsets, a) => {
                            let items: Vec<Value> = items.collect();
                            match a.first() {
                                Some(from) => self.of_places(from, &mut env, items)?,
                                None => Value::list(items),
                            }
                        }
                        _ => Value::List(items.collect()),
                    }
                }
            };
            if let Some(slot) = env.get_mut(generator.slot as usize) {
                *slot = value;
            }
        }
        self.move_label(rule, &mut env)
    }
}

/// The records a generator walks when it walks a parameter that is a
/// list of tuples or of lists, which the compiled code walks by place.
fn record_of<'a>(source: &Ir, args: &'a [Value]) -> Option<&'a [Value]> {
    let IrKind::Local(p) = source.kind else {
        return None;
    };
    match args.get(p as usize)? {
        Value::List(xs) if matches!(xs.first(), Some(Value::List(_) | Value::Tuple(_))) => Some(xs),
        _ => None,
    }
}

/// Whether a generator walks `zip` or `enumerate`, whose pairs the
/// compiled code holds as their places.
fn is_pairs(source: &Ir) -> bool {
    matches!(
        source.kind,
        IrKind::Builtin(Builtin::Zip | Builtin::Enumerate, _)
    )
}

/// Whether a generator walks tuples written out, or named by a constant,
/// which the compiled code walks by place (see `compile::Val::Chosen`).
fn tuples_by_place(source: &Ir, consts: &[Value]) -> bool {
    let tuples = |xs: &[Value]| !xs.is_empty() && xs.iter().all(|x| matches!(x, Value::Tuple(_)));
    match &source.kind {
        IrKind::List(items) => {
            !items.is_empty()
                && items.iter().all(|item| {
                    matches!(item.kind, IrKind::Tuple(_) | IrKind::Lit(Value::Tuple(_)))
                })
        }
        IrKind::Lit(Value::List(xs)) => tuples(xs),
        IrKind::Const(c) => matches!(consts.get(*c as usize), Some(Value::List(xs)) if tuples(xs)),
        _ => false,
    }
}

/// Why a position is handed to the interpreter when it does not pack.
const UNPACKED: &str = "a position that does not pack into a key of at most 63 bits";
/// Why a position is handed to the interpreter when its options could not
/// be made on keys.
const UNANSWERED: &str = "a position whose options it cannot make exactly as the interpreter \
                          would (a number wider than its field, a list or string longer than \
                          its room, an overflow, an index out of range, or a search past the \
                          state limit): the interpreter makes them";

/// The position a key holds, interned with its arguments written straight
/// from the key's fields as the interner packs them (numbers, lists of
/// numbers and strings build no value); `None` for a letter code outside
/// the alphabet, which no key the compiled code writes holds.
fn intern_key(
    positions: &mut Positions,
    layout: &Layout,
    (g, params): (u32, &[Param]),
    key: u64,
    scratch: &mut Scratch,
) -> Option<PosId> {
    positions.intern_built(g, |packer, out| {
        for (i, (group, param)) in layout.groups.iter().zip(params).enumerate() {
            if let Some(nest) = layout.nest(i) {
                let (f, len) = group.numbers(key)?;
                scratch.ints.clear();
                scratch.ints.extend((0..len).map(|i| f.number(key, i)));
                packer.write(std::slice::from_ref(&nest.value(&scratch.ints)), out);
                continue;
            }
            match group {
                Group::Scalar(f) => write_int(f.number(key, 0), out),
                Group::List(_) | Group::Sized { text: false, .. }
                    if !matches!(param.ty, Type::Tuple(_)) =>
                {
                    let (f, len) = group.numbers(key)?;
                    scratch.ints.clear();
                    scratch.ints.extend((0..len).map(|i| f.number(key, i)));
                    write_int_list(&scratch.ints, out);
                }
                Group::Str(f, _) => {
                    letters(layout, key >> f.shift, f.len, &mut scratch.text)?;
                    packer.string(&scratch.text, out);
                }
                Group::Sized {
                    items,
                    length,
                    text: true,
                } => {
                    let len = length.read(key, 0) as u32;
                    letters(layout, key >> items.shift, len, &mut scratch.text)?;
                    packer.string(&scratch.text, out);
                }
                _ => {
                    let value = group_value(layout, group, param, key)?;
                    packer.write(std::slice::from_ref(&value), out);
                }
            }
        }
        Some(())
    })
}

/// Buffers reused from one option to the next.
#[derive(Default)]
struct Scratch {
    ints: Vec<i64>,
    text: String,
}

/// The `len` letters whose codes are side by side in `word`, into `out`.
fn letters(layout: &Layout, word: u64, len: u32, out: &mut String) -> Option<()> {
    let mask = (1u64 << layout.cell) - 1;
    out.clear();
    for i in 0..len {
        let code = (word >> (i * layout.cell)) & mask;
        out.push(char::from(*layout.alphabet.get(code as usize)?));
    }
    Some(())
}

/// The argument a group of a key's fields holds.
fn group_value(layout: &Layout, group: &Group, param: &Param, key: u64) -> Option<Value> {
    let text = |word: u64, len: u32| -> Option<Value> {
        let mut s = String::new();
        letters(layout, word, len, &mut s)?;
        Some(Value::str(&s))
    };
    Some(match group {
        Group::Fixed(v) => v.clone(),
        Group::Scalar(f) => Value::Int(f.number(key, 0)),
        Group::Flag(f) => Value::Bool(f.read(key, 0) == 1),
        Group::List(_) | Group::Sized { text: false, .. } => {
            let (f, len) = group.numbers(key)?;
            let items = (0..len).map(|i| Value::Int(f.number(key, i)));
            match param.ty {
                Type::Tuple(_) => Value::Tuple(items.collect()),
                _ => Value::List(items.collect()),
            }
        }
        Group::Bools(f) => Value::List(
            (0..f.len)
                .map(|i| Value::Bool(f.read(key, i) == 1))
                .collect(),
        ),
        Group::Str(f, _) => text(key >> f.shift, f.len)?,
        Group::Sized {
            items,
            length,
            text: true,
        } => text(key >> items.shift, length.read(key, 0) as u32)?,
        Group::Bits(f) => layout.universe?.elements(f.read(key, 0)),
        Group::Grid(rows) => {
            let table = layout.rows.borrow();
            let rows_of = (0..rows.fields.len).map(|i| {
                let n = rows.fields.read(key, i);
                let word = if rows.numbered { table.word(n) } else { n };
                text(word, rows.cols)
            });
            Value::List(rows_of.collect::<Option<_>>()?)
        }
    })
}
