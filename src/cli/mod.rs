//! The command line: arguments in, answers and diagnostics out. Only this
//! module and the REPL know about terminals and colour.

mod args;
mod check;
mod graph;
mod graph_json;
mod grid_format;
mod json;
mod manual;
mod output;
mod plot;
mod query;
mod repl;
mod stats;
pub(crate) mod table;
mod table_format;
pub(crate) mod upto;

use crate::eval::interp::DEFAULT_MAX_POSITIONS;
use crate::session::Session;
use clap::{Parser, Subcommand, ValueHint};
pub use output::Output;
pub use repl::run_script;

/// A language for impartial games and a Sprague-Grundy solver.
#[derive(Parser, Debug)]
#[command(name = "grundy", version, about, long_about = None, after_help = "\
Examples:
  grundy check examples/*.game
  grundy value examples/nim.game 'Nim([3,5,7])'
  grundy value examples/nim.game examples/octal.game 'Nim([1, 2]) + Kayles(5)'
  grundy moves examples/nim.game 'Nim([3,5,7])' --winning
  grundy repl examples/nim.game

Several files make one program (`check` checks each on its own); for a
command that asks about a position or a game, every argument before the
last is a file.

`grundy help COMMAND` shows a command's options and examples.")]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Stop with an error when a search needs more than this many
    /// positions, or one position has more than this many options.
    #[arg(long, global = true, value_name = "N", default_value_t = DEFAULT_MAX_POSITIONS,
          value_parser = args::at_least_one)]
    pub max_states: usize,
    /// Stop with an error when a command (in the REPL: each command) runs
    /// longer than this many seconds.
    #[arg(long, global = true, value_name = "SECONDS", value_parser = args::seconds)]
    pub timeout: Option<std::time::Duration>,
    /// Stop with an error when a command (in the REPL: each command) holds
    /// more than this many MiB of memory; 0 for no limit. The default is
    /// half of the machine's memory.
    #[arg(long, global = true, value_name = "MIB")]
    pub max_memory: Option<usize>,
    /// After a value, outcome, moves, graph or table command, print to
    /// standard error the positions stored, positions per second and bytes
    /// per position, and which engine ran each game.
    #[arg(long, global = true)]
    pub stats: bool,
    /// Write an infinite value of a loopy game as inf{0,2} rather than
    /// with the infinity sign; chosen anyway when the locale's character
    /// set is not UTF-8.
    #[arg(long, global = true)]
    pub ascii: bool,
}

/// Reads the command line, or exits with status 2 saying what is wrong
/// with it (as a JSON errors document when `--json` was asked for).
pub fn parse() -> Cli {
    use clap::error::ErrorKind;
    let e = match Cli::try_parse() {
        Ok(cli) => match cli.command.last_is_a_file() {
            None => return cli,
            Some(e) => e,
        },
        Err(e) => args::position_missing(e),
    };
    // As given: an argument that is not UTF-8 is for clap to refuse.
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let asked_json = args.iter().any(|a| a == "--json" || a == "--format=json")
        || args
            .windows(2)
            .any(|w| w[0] == "--format" && w[1] == "json");
    let is_usage = !matches!(
        e.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    );
    if asked_json && is_usage {
        println!("{}", json::usage_error(&e));
        std::process::exit(2);
    }
    e.exit()
}

/// What every command needs to start a session.
pub struct Options {
    pub max_states: usize,
    /// Infinite values in ASCII (`inf{0,2}`).
    pub ascii: bool,
}

impl Options {
    pub fn session(&self) -> Session {
        let mut session = Session::new();
        session.interp.max_positions = self.max_states;
        session.ascii = self.ascii;
        session
    }
}

/// Whether the locale asks for a character set other than UTF-8: the first
/// of `LC_ALL`, `LC_CTYPE` and `LANG` that is set names it, as in `C`,
/// `POSIX` or `en_US.ISO-8859-1`. With none set, UTF-8 is assumed.
fn locale_is_not_utf8() -> bool {
    let set = ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|v| !v.is_empty());
    set.is_some_and(|v| {
        let v = v.to_ascii_lowercase();
        !(v.contains("utf-8") || v.contains("utf8"))
    })
}

/// The `.game` files a command reads.
const FILE_HELP: &str =
    "The .game files that define the games: every argument before the last, loaded in order as one program";
/// A position on the command line.
const POSITION_HELP: &str =
    "A position, quoted for the shell: a game with its arguments, or a sum such as 'Heap(3) + Heap(5)'";
/// `--json` on the commands that answer about one position.
const JSON_HELP: &str =
    "Print one JSON document (errors too, on standard output); docs/json.md describes each shape";

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Parse and check files and run their claims.
    #[command(after_help = "\
Examples:
  grundy check examples/*.game
  grundy check examples/octal.game --json
  grundy check examples/cram.game --verify-decomposition 6
  grundy check examples/cram.game --verify-symmetry 9")]
    Check {
        /// The .game files to check.
        #[arg(required = true, value_name = "FILE", value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        /// Also compare every declared decomposition with a search of the
        /// whole position, on every position up to size N.
        #[arg(long, value_name = "N", long_help = check::VERIFY_HELP)]
        verify_decomposition: Option<usize>,
        /// Also value every position up to size N and each image its
        /// game's `symmetry =` declares, by a search that ignores it.
        #[arg(long, value_name = "N", long_help = check::VERIFY_SYMMETRY_HELP)]
        verify_symmetry: Option<usize>,
        /// Print one JSON document: each file's claims and errors.
        #[arg(long)]
        json: bool,
    },
    /// Print the Grundy value of a position.
    #[command(after_help = "\
Examples:
  grundy value examples/nim.game 'Nim([3,5,7])'
  grundy value examples/octal.game 'Kayles(10) + Kayles(4)' --json
  grundy value examples/nim.game examples/octal.game 'Nim([1, 2]) + Kayles(5)'")]
    Value {
        #[arg(help = FILE_HELP, required = true, value_name = "FILE",
              value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        /// A position, such as 'Nim([3,5,7])' or 'Kayles(10) + Kayles(4)'.
        position: String,
        #[arg(long, help = JSON_HELP)]
        json: bool,
    },
    /// Print P (the previous player wins) or N (the next player wins); D,
    /// a draw, for a loopy game.
    #[command(after_help = "\
Examples:
  grundy outcome examples/candy-split.game 'Candy(3,4) + Candy(1,2)'
  grundy outcome examples/nim.game 'Nim([1,1])' --misere")]
    Outcome {
        #[arg(help = FILE_HELP, required = true, value_name = "FILE",
              value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        #[arg(help = POSITION_HELP)]
        position: String,
        /// Under misère play: the player who cannot move wins.
        #[arg(long)]
        misere: bool,
        #[arg(long, help = JSON_HELP)]
        json: bool,
    },
    /// List every move: the move, the position it leads to, its value.
    #[command(after_help = "\
Examples:
  grundy moves examples/nim.game 'Nim([3,5,7])' --winning
  grundy moves examples/subtraction.game 'T(8) + T(12)' --json")]
    Moves {
        #[arg(help = FILE_HELP, required = true, value_name = "FILE",
              value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        #[arg(help = POSITION_HELP)]
        position: String,
        /// Only the winning moves.
        #[arg(long)]
        winning: bool,
        #[arg(long, help = JSON_HELP)]
        json: bool,
    },
    /// Print the nim-sequence g(0..=N) of a game with one natural-number
    /// parameter, or the grid g(x, y) of a game with two.
    #[command(after_help = "\
Examples:
  grundy table examples/subtraction.game T --upto 30
  grundy table examples/subtraction.game 'Subtract({1, 4, 5}, _)' --upto 30
  grundy table examples/candy-split.game 'Candy(_, _)' --upto 8x8
  grundy table examples/octal.game Kayles --upto 1000 --format oeis > b002186.txt
  grundy table examples/grundys-game.game Grundy --upto 100000000 --checkpoint grundy.ckpt")]
    Table {
        #[arg(help = FILE_HELP, required = true, value_name = "FILE",
              value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        /// The game's name, such as Kayles, or a position with `_` for the
        /// free number, such as 'Subtract({1, 4, 5}, _)' (two `_` for a
        /// grid, such as 'Candy(_, _)').
        game: String,
        /// The last heap size, or XxY for a grid (such as 10x10).
        #[arg(long, value_name = "N")]
        upto: upto::Upto,
        /// How to print the values: rows of ten with the period (text), one
        /// JSON document (json), `n,g` lines under a header (csv), or the
        /// lines `n g(n)` of an OEIS b-file (oeis).
        #[arg(long, value_enum, default_value_t = table_format::Format::Text)]
        format: table_format::Format,
        /// The same as --format json.
        #[arg(long, conflicts_with = "format")]
        json: bool,
        /// Save progress to this file, and carry on from it if it exists: a
        /// run stopped by Ctrl-C, --timeout or a kill resumes where it was.
        #[arg(long, value_name = "FILE", value_hint = ValueHint::FilePath)]
        checkpoint: Option<String>,
        /// Save the checkpoint at least this often.
        #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = args::seconds)]
        checkpoint_every: std::time::Duration,
        /// Compute every value, even past a proven period (for timing).
        #[arg(long)]
        no_shortcut: bool,
    },
    /// An interactive session (a script when standard input is not a terminal).
    #[command(after_help = "\
Examples:
  grundy repl examples/nim.game examples/subtraction.game
  echo 'value Nim([3,5,7])' | grundy repl examples/nim.game")]
    Repl {
        /// Files to load first.
        #[arg(value_name = "FILE", value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        /// Show each entry read from a script after a prompt, as a terminal would.
        #[arg(long)]
        echo: bool,
    },
    /// Write the game graph of a position in Graphviz DOT, or draw it.
    #[command(after_help = "\
Examples:
  grundy graph examples/candy-split.game 'Candy(3, 4)' -o candy.dot
  grundy graph examples/candy-split.game 'Candy(3, 4)' -o candy.svg
  grundy graph examples/candy-split.game 'Candy(3, 4)' --json")]
    Graph {
        #[arg(help = FILE_HELP, required = true, value_name = "FILE",
              value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        /// A position, such as 'Candy(3, 4)'.
        position: String,
        /// Label positions P or N instead of with their values.
        #[arg(long)]
        outcome: bool,
        /// Refuse graphs with more positions than this.
        #[arg(long, value_name = "N", default_value_t = graph::DEFAULT_MAX_NODES,
              value_parser = args::at_least_one)]
        max_nodes: usize,
        /// Write to this file instead of standard output: DOT text, or,
        /// for a name ending in .svg, .png or .pdf, the graph drawn by
        /// Graphviz (which must be installed).
        #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath)]
        output: Option<String>,
        /// Print the graph as one JSON document instead of DOT: every
        /// position with its value, every move with its rule.
        #[arg(long, conflicts_with_all = ["outcome", "output"])]
        json: bool,
    },
    /// Draw the nim-sequence g(0..=N) of a heap game as a scatter plot
    /// (SVG, or PNG when the file's name ends in .png).
    #[command(after_help = "\
Examples:
  grundy plot examples/octal.game Kayles --upto 150 -o kayles.svg
  grundy plot examples/octal.game Kayles --upto 150 -o kayles.png")]
    Plot {
        #[arg(help = FILE_HELP, required = true, value_name = "FILE",
              value_hint = ValueHint::FilePath)]
        files: Vec<String>,
        /// The game's name, such as Kayles, or a position with `_` for the
        /// free number, such as 'Subtract({1, 4, 5}, _)'.
        game: String,
        /// The last heap size.
        #[arg(long, value_name = "N")]
        upto: u64,
        /// The file to write: FILE.svg, or FILE.png for a bitmap.
        #[arg(short, long, value_name = "FILE", value_hint = ValueHint::FilePath)]
        output: String,
        /// The picture's width in pixels.
        #[arg(long, value_name = "PIXELS", default_value_t = plot::DEFAULT_SIZE.0,
              value_parser = clap::value_parser!(u32).range(200..=10_000))]
        width: u32,
        /// The picture's height in pixels.
        #[arg(long, value_name = "PIXELS", default_value_t = plot::DEFAULT_SIZE.1,
              value_parser = clap::value_parser!(u32).range(150..=10_000))]
        height: u32,
    },
    /// Print a completion script for a shell.
    #[command(after_help = "\
Examples:
  grundy completions bash > ~/.local/share/bash-completion/completions/grundy
  grundy completions zsh > ~/.zfunc/_grundy
  grundy completions fish > ~/.config/fish/completions/grundy.fish")]
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff, for man).
    #[command(after_help = "\
Examples:
  grundy man | man -l -
  grundy man > ~/.local/share/man/man1/grundy.1")]
    Man,
    /// A language server on standard input and output, for editors that
    /// speak the Language Server Protocol: diagnostics as you type,
    /// completion, hover, go to definition, and each claim's result.
    #[command(after_help = "\
Example (what an editor runs; see the editors guide in docs/):
  grundy lsp")]
    Lsp,
}

/// Runs a command and returns the process exit status.
pub fn run(cli: Cli) -> i32 {
    crate::interrupt::install();
    crate::interrupt::enable_notes();
    crate::interrupt::set_time_limit(cli.timeout);
    crate::interrupt::set_memory_limit(match cli.max_memory {
        Some(0) => None,
        Some(mib) => Some(mib.saturating_mul(1 << 20)),
        None => Some(crate::interrupt::default_memory_limit()),
    });
    crate::interrupt::clear();
    stats::enable(cli.stats);
    let mut out = Output::new();
    if cli.command.wants_json() {
        out.json_errors();
    }
    let opts = Options {
        max_states: cli.max_states,
        ascii: cli.ascii || locale_is_not_utf8(),
    };
    let opts = &opts;
    let result = match cli.command {
        Command::Check {
            files,
            verify_decomposition,
            verify_symmetry,
            json,
        } => {
            let verify = check::Verify {
                decomposition: verify_decomposition,
                symmetry: verify_symmetry,
            };
            check::run(opts, &files, verify, json, &mut out)
        }
        Command::Value {
            files,
            position,
            json,
        } => query::value(opts, &files, &position, json, &mut out),
        Command::Outcome {
            files,
            position,
            misere,
            json,
        } => query::outcome(opts, &files, &position, misere, json, &mut out),
        Command::Moves {
            files,
            position,
            winning,
            json,
        } => query::moves(opts, &files, &position, winning, json, &mut out),
        Command::Table {
            files,
            game,
            upto,
            format,
            json,
            checkpoint,
            checkpoint_every,
            no_shortcut,
        } => table::run(
            opts,
            table::TableArgs {
                files: &files,
                game: &game,
                upto,
                format: if json {
                    table_format::Format::Json
                } else {
                    format
                },
                checkpoint: checkpoint.as_deref(),
                every: checkpoint_every,
                shortcut: !no_shortcut,
            },
            &mut out,
        ),
        Command::Repl { files, echo } => repl::run(opts, &files, echo, &mut out),
        Command::Graph {
            files,
            position,
            max_nodes,
            json: true,
            ..
        } => graph_json::run(opts, &files, &position, max_nodes, &mut out),
        Command::Graph {
            files,
            position,
            outcome,
            max_nodes,
            output,
            json: false,
        } => graph::run(
            opts,
            graph::GraphArgs {
                files: &files,
                position: &position,
                outcome,
                max_nodes,
                output: output.as_deref(),
            },
            &mut out,
        ),
        Command::Plot {
            files,
            game,
            upto,
            output,
            width,
            height,
        } => plot::run(
            opts,
            plot::PlotArgs {
                files: &files,
                game: &game,
                upto,
                output: &output,
                size: (width, height),
            },
            &mut out,
        ),
        Command::Completions { shell } => manual::completions(shell, &mut out),
        Command::Man => manual::man(&mut out),
        Command::Lsp => return crate::lsp::run(),
    };
    let status = match result {
        Ok(()) => 0,
        Err(Failed::Diagnostic) => 1,
        Err(Failed::Interrupted) => crate::interrupt::exit_status(),
    };
    match out.write_failure() {
        None => status,
        // The reader has all it wanted, as `head` has: end as Unix tools
        // do when SIGPIPE ends them, without a word.
        Some(e) if e.kind() == std::io::ErrorKind::BrokenPipe => 141,
        Some(e) => {
            out.note(format!(
                "error: the answer could not be written to standard output: {e}"
            ));
            1
        }
    }
}

impl Command {
    /// A command whose last argument, which must be the position or the
    /// game, names a `.game` file: the user listed files and left the
    /// position out. No position or game is written that way.
    fn last_is_a_file(&self) -> Option<clap::Error> {
        use clap::CommandFactory;
        let (name, last, what) = match self {
            Command::Value { position, .. } => ("value", position, "position"),
            Command::Outcome { position, .. } => ("outcome", position, "position"),
            Command::Moves { position, .. } => ("moves", position, "position"),
            Command::Graph { position, .. } => ("graph", position, "position"),
            Command::Table { game, .. } => ("table", game, "game"),
            Command::Plot { game, .. } => ("plot", game, "game"),
            _ => return None,
        };
        if !last.trim_end().ends_with(".game") {
            return None;
        }
        let mut cli = Cli::command();
        cli.build();
        Some(cli.find_subcommand_mut(name)?.error(
            clap::error::ErrorKind::MissingRequiredArgument,
            format!("the last argument, `{last}`, names a file, but it must be the {what}: give the {what} after the files"),
        ))
    }

    /// Whether the answer, and so any error, is one JSON document.
    fn wants_json(&self) -> bool {
        match self {
            Command::Check { json, .. }
            | Command::Value { json, .. }
            | Command::Outcome { json, .. }
            | Command::Moves { json, .. }
            | Command::Graph { json, .. } => *json,
            Command::Table { json, format, .. } => *json || *format == table_format::Format::Json,
            _ => false,
        }
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
