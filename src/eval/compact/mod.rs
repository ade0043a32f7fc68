//! Games whose positions pack into one integer, searched without the
//! interner: a position's arguments become fields of a key (`layout`), the
//! rules are compiled once into code that reads those fields and writes the
//! options' keys (`compile`, `code`, `run`), and `solve::dense` searches the
//! keys. The general search stays the reference: whatever this code cannot
//! answer exactly as the interpreter would, it gives back to it.

mod code;
mod compile;
mod early;
mod fused;
mod layout;
mod rows;
mod run;

use super::engine::{Compiled, Path, Unsupported};
use super::interp::Interp;
use super::positions::PosId;
use super::value::Value;
use crate::solve::dense::{Abort, KeyGame};
use code::GameCode;
use layout::Layout;
use run::Machine;
use std::any::Any;

/// Whether value searches pack positions into keys where the rules allow:
/// tests turn it down to compare the ways with each other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Compact {
    /// Always the general search.
    Off,
    /// Keys, every rule run step by step.
    Plain,
    /// Keys, with the innermost loops of known shapes run on the key.
    #[default]
    Fused,
}

/// How `--stats` names this engine.
const COMPILED: &str = "the compiled search of packed keys";

/// A game's rules compiled for one layout, ready to list options of keys.
pub struct CompactGame {
    layout: Layout,
    code: GameCode,
    machine: Machine,
}

impl KeyGame for CompactGame {
    fn options(&mut self, key: u64, out: &mut Vec<u64>) -> Result<(), Abort> {
        let start = out.len();
        let made = self.machine.options(&self.layout, &self.code, key, out);
        if made.is_none() {
            out.truncate(start);
            return Err(Abort);
        }
        Ok(())
    }

    fn bits(&self) -> u32 {
        self.layout.bits
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

impl Interp {
    /// The game of `pos` compiled to keys, laid out to hold `pos`, and the
    /// key of `pos`; `None` when its rules are beyond the compiled code (the
    /// engine log then says why).
    pub fn compact_game(&mut self, pos: PosId) -> Option<(Box<dyn KeyGame>, u64)> {
        if !self.lowering || self.compact == Compact::Off {
            return None;
        }
        let mut args = Vec::new();
        let g = self.positions.args_into(pos, &mut args);
        match self.compile_compact(g, &args) {
            Ok(Some(found)) => {
                self.engines.record(g, Path::CompiledSearch, Vec::new());
                Some(found)
            }
            Ok(None) => {
                let span = self.program.games.get(g as usize).map(|game| game.span);
                let why = Unsupported::new(
                    "a position that does not pack into a key of at most 63 bits (its numbers \
                     must be natural, its grids' rows of one length, and all small enough \
                     together)",
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

    fn compile_compact(&self, g: u32, args: &[Value]) -> Compiled<Option<(Box<dyn KeyGame>, u64)>> {
        let program = self.program.clone();
        let (fixed, letters) = compile::fixed_and_letters(&program, g)?;
        let game = &program.games[g as usize];
        for (param, &fixed) in game.params.iter().zip(&fixed) {
            if !layout::packs(&param.ty, fixed) {
                return Err(Unsupported::new(
                    format!(
                        "a parameter of type {}: the compiled search packs numbers, booleans, \
                         lists of numbers, strings and grids into a key, and holds sets of numbers \
                         aside when every rule passes them on unchanged",
                        param.ty
                    ),
                    param.span,
                ));
            }
        }
        let types: Vec<_> = game.params.iter().map(|p| p.ty.clone()).collect();
        let Some(layout) = Layout::new(g, &types, args, &fixed, &letters) else {
            return Ok(None);
        };
        let Some(key) = layout.encode(g, args) else {
            return Ok(None);
        };
        let code = compile::game(&program, &layout, self.compact == Compact::Fused)?;
        let machine = Machine::new(&code, &layout);
        Ok(Some((
            Box::new(CompactGame {
                layout,
                code,
                machine,
            }),
            key,
        )))
    }

    /// The key of `pos` in a compiled game's layout, if it fits there.
    pub fn compact_key(&self, game: &dyn KeyGame, pos: PosId) -> Option<u64> {
        let game = game.as_any().downcast_ref::<CompactGame>()?;
        let mut args: Vec<Value> = Vec::new();
        let g = self.positions.args_into(pos, &mut args);
        game.layout.encode(g, &args)
    }
}
