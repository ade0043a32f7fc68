//! grundy: a language for impartial combinatorial games and a Sprague-Grundy
//! solver behind it.
//!
//! The pipeline runs in order: [`syntax`] turns source text into a typed AST,
//! [`check`] resolves names and types and compiles the AST into the IR that
//! [`eval`] runs as move generators, and [`solve`] computes values, outcomes
//! and winning moves over any game the interpreter produces. [`session`] ties
//! them together for the command line and the REPL; [`diagnostic`] is the one
//! place that turns errors into miette reports.

pub mod check;
pub mod checkpoint;
pub mod cli;
pub mod diagnostic;
pub mod error;
pub mod eval;
pub mod interrupt;
pub mod lsp;
pub mod memory;
pub mod reload;
pub mod session;
pub mod solve;
pub mod source;
pub mod syntax;
pub mod types;
pub mod verify;

pub use error::{Error, ErrorKind};
pub use session::Session;

pub use source::{SourceId, Sources, Span};
