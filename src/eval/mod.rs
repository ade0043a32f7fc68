//! Values, the compiled program, and the interpreter that runs move rules.

mod arith;
pub mod builtins;
mod compact;
mod conform;
pub mod engine;
mod grid_turns;
pub mod interp;
pub mod ir;
mod moves;
pub mod octal;
mod operators;
mod packing;
pub mod positions;
mod product;
mod regions;
pub mod show;
mod symmetry;
pub mod take_break;
pub mod value;

pub use compact::Compact;
pub use interp::Interp;
pub use ir::Program;
pub use positions::{GameId, PosId, Positions};
pub use value::Value;
