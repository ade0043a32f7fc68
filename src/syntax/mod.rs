//! From source text to a typed AST in which every node carries its span.

pub mod ast;
mod expected;
mod parser;

pub use parser::{parse_file, parse_position, parse_repl_line, ReplLine};
