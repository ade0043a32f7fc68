//! The `grundy` binary: a thin shell around the library's command line.

use clap::Parser;
use grundy::cli::{run, Cli};

/// The solver is iterative, but the parser and the interpreter recurse
/// over expressions; a large stack keeps deep (but allowed) nesting safe.
const STACK_SIZE: usize = 256 * 1024 * 1024;

fn main() {
    let cli = Cli::parse();
    let status = std::thread::Builder::new()
        .stack_size(STACK_SIZE)
        .spawn(move || run(cli))
        .ok()
        .and_then(|worker| worker.join().ok())
        .unwrap_or(101);
    std::process::exit(status);
}
