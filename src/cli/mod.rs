//! The command line: arguments in, answers and diagnostics out. Only this
//! module and the REPL know about terminals and colour.

mod check;
mod graph;
mod output;
mod plot;
mod query;
mod repl;
mod stats;
pub(crate) mod table;

use crate::eval::interp::DEFAULT_MAX_POSITIONS;
use crate::session::Session;
use clap::{Parser, Subcommand};
pub use output::Output;
pub use repl::run_script;

/// A language for impartial games and a Sprague-Grundy solver.
#[derive(Parser, Debug)]
#[command(name = "grundy", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Stop with an error when a search needs more than this many positions.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_POSITIONS)]
    pub max_states: usize,
    /// Stop with an error when a command (in the REPL: each command) runs
    /// longer than this many seconds.
    #[arg(long, global = true, value_name = "SECONDS")]
    pub timeout: Option<f64>,
    /// Stop with an error when a command (in the REPL: each command) holds
    /// more than this many MiB of memory; 0 for no limit.
    #[arg(long, global = true, value_name = "MIB", default_value_t = crate::interrupt::DEFAULT_MEMORY_LIMIT >> 20)]
    pub max_memory: usize,
    /// After a value or outcome search, print to standard error the
    /// positions stored, positions per second and bytes per position.
    #[arg(long, global = true)]
    pub stats: bool,
}

/// What every command needs to start a session.
pub struct Options {
    pub max_states: usize,
}

impl Options {
    pub fn session(&self) -> Session {
        let mut session = Session::new();
        session.interp.max_positions = self.max_states;
        session
    }
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and check files and run their claims.
    Check {
        /// The .game files to check.
        #[arg(required = true)]
        files: Vec<String>,
        /// Also compare every declared decomposition with a search of the
        /// whole position, on every position up to size N.
        #[arg(long, value_name = "N", long_help = check::VERIFY_HELP)]
        verify_decomposition: Option<usize>,
    },
    /// Print the Grundy value of a position.
    Value {
        file: String,
        /// A position, such as 'Nim([3,5,7])' or 'Kayles(10) + Kayles(4)'.
        position: String,
        /// Print one JSON document.
        #[arg(long)]
        json: bool,
    },
    /// Print P (the previous player wins) or N (the next player wins).
    Outcome {
        file: String,
        position: String,
        /// Under misère play: the player who cannot move wins.
        #[arg(long)]
        misere: bool,
        #[arg(long)]
        json: bool,
    },
    /// List every move: the move, the position it leads to, its value.
    Moves {
        file: String,
        position: String,
        /// Only the winning moves.
        #[arg(long)]
        winning: bool,
        #[arg(long)]
        json: bool,
    },
    /// Print the nim-sequence g(0..=N) of a game with one natural-number parameter.
    Table {
        file: String,
        /// The game's name, such as Kayles.
        game: String,
        /// The last heap size.
        #[arg(long)]
        upto: u64,
        #[arg(long)]
        json: bool,
        /// Save progress to this file, and carry on from it if it exists: a
        /// run stopped by Ctrl-C, --timeout or a kill resumes where it was.
        #[arg(long, value_name = "FILE")]
        checkpoint: Option<String>,
        /// Save the checkpoint at least this often.
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        checkpoint_every: f64,
        /// Compute every value, even past a proven period (for timing).
        #[arg(long)]
        no_shortcut: bool,
    },
    /// An interactive session (a script when standard input is not a terminal).
    Repl {
        /// Files to load first.
        files: Vec<String>,
        /// Show each entry read from a script after a prompt, as a terminal would.
        #[arg(long)]
        echo: bool,
    },
    /// Write the game graph of a position in Graphviz DOT.
    Graph {
        file: String,
        /// A position, such as 'Candy(3, 4)'.
        position: String,
        /// Label positions P or N instead of with their values.
        #[arg(long)]
        outcome: bool,
        /// Refuse graphs with more positions than this.
        #[arg(long, value_name = "N", default_value_t = graph::DEFAULT_MAX_NODES)]
        max_nodes: usize,
        /// Write to this file instead of standard output.
        #[arg(short, long, value_name = "FILE.dot")]
        output: Option<String>,
    },
    /// Draw the nim-sequence g(0..=N) of a heap game as an SVG scatter plot.
    Plot {
        file: String,
        /// The game's name, such as Kayles.
        game: String,
        /// The last heap size.
        #[arg(long)]
        upto: u64,
        /// The SVG file to write.
        #[arg(short, long, value_name = "FILE.svg")]
        output: String,
    },
}

/// Runs a command and returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    crate::interrupt::install();
    crate::interrupt::enable_notes();
    let limit = cli
        .timeout
        .filter(|s| s.is_finite() && *s > 0.0)
        .map(std::time::Duration::from_secs_f64);
    crate::interrupt::set_time_limit(limit);
    crate::interrupt::set_memory_limit(
        (cli.max_memory > 0).then(|| cli.max_memory.saturating_mul(1 << 20)),
    );
    crate::interrupt::clear();
    stats::enable(cli.stats);
    let mut out = Output::new();
    let opts = Options {
        max_states: cli.max_states,
    };
    let opts = &opts;
    let result = match cli.command {
        Command::Check {
            files,
            verify_decomposition,
        } => check::run(opts, &files, verify_decomposition, &mut out),
        Command::Value {
            file,
            position,
            json,
        } => query::value(opts, &file, &position, json, &mut out),
        Command::Outcome {
            file,
            position,
            misere,
            json,
        } => query::outcome(opts, &file, &position, misere, json, &mut out),
        Command::Moves {
            file,
            position,
            winning,
            json,
        } => query::moves(opts, &file, &position, winning, json, &mut out),
        Command::Table {
            file,
            game,
            upto,
            json,
            checkpoint,
            checkpoint_every,
            no_shortcut,
        } => table::run(
            opts,
            table::TableArgs {
                file: &file,
                game: &game,
                upto,
                json,
                checkpoint: checkpoint.as_deref(),
                every: std::time::Duration::try_from_secs_f64(checkpoint_every)
                    .unwrap_or(std::time::Duration::ZERO),
                shortcut: !no_shortcut,
            },
            &mut out,
        ),
        Command::Repl { files, echo } => repl::run(opts, &files, echo, &mut out),
        Command::Graph {
            file,
            position,
            outcome,
            max_nodes,
            output,
        } => graph::run(
            opts,
            graph::GraphArgs {
                file: &file,
                position: &position,
                outcome,
                max_nodes,
                output: output.as_deref(),
            },
            &mut out,
        ),
        Command::Plot {
            file,
            game,
            upto,
            output,
        } => plot::run(
            opts,
            plot::PlotArgs {
                file: &file,
                game: &game,
                upto,
                output: &output,
            },
            &mut out,
        ),
    };
    match result {
        Ok(()) => 0,
        Err(Failed::Diagnostic) => 1,
        Err(Failed::Interrupted) => 130,
    }
}

/// A command failed; its diagnostics have been printed.
#[derive(Debug, PartialEq, Eq)]
pub enum Failed {
    /// A bad game file, a bad position or a failed claim.
    Diagnostic,
    /// Ctrl-C.
    Interrupted,
}
