//! `:help`: the commands and topics of the REPL, with examples.

use super::super::Output;
use super::commands::Entry;
use super::Repl;
use crate::error::{Error, ErrorKind, Errors};
use crate::eval::builtins::Builtin;

/// One command of the REPL, for `:help` and for completion.
pub struct Command {
    pub name: &'static str,
    pub usage: &'static str,
    pub about: &'static str,
}

pub const COMMANDS: &[Command] = &[
    Command {
        name: "value",
        usage: "value POSITION",
        about: "the Grundy value (nim-value) of a position or a sum; in a loopy game, a number or infinity with a set, such as ∞{0,2}",
    },
    Command {
        name: "outcome",
        usage: "outcome POSITION",
        about: "P (the player to move loses) or N (the player to move wins); D, a draw, in a loopy game",
    },
    Command {
        name: "misere",
        usage: "misere POSITION",
        about: "P or N under misère play, where whoever cannot move wins",
    },
    Command {
        name: "moves",
        usage: "moves POSITION",
        about: "every move, the position it leads to and its value; winning moves marked",
    },
    Command {
        name: "win",
        usage: "win POSITION",
        about: "the winning moves only",
    },
    Command {
        name: "explain",
        usage: "explain POSITION",
        about: "why the value is what it is: the mex of the options, or the xor of a sum's parts; for a loopy game, the rounds of its labelling",
    },
    Command {
        name: "height",
        usage: "height POSITION",
        about: "the length of the longest play from the position",
    },
    Command {
        name: "table",
        usage: "table GAME N",
        about:
            "the nim-sequence g(0..=N) of a game with one natural-number parameter, or of a position with `_` for it such as `Subtract({1, 4, 5}, _)`, and its period; two `_` and `N` as `XxY` give a grid",
    },
    Command {
        name: "play",
        usage: "play POSITION [first|second]",
        about: "play against the computer (you move first unless you say `second`)",
    },
    Command {
        name: "let",
        usage: "let NAME = EXPRESSION",
        about: "name a position or a value for later entries, such as `let p = Nim([3, 5, 7])`",
    },
    Command {
        name: ":load",
        usage: ":load FILE",
        about: "load a .game file and the files it imports",
    },
    Command {
        name: ":reload",
        usage: ":reload",
        about:
            "read the loaded files (and their imports) again if they changed, keeping bindings and typed definitions",
    },
    Command {
        name: ":reset",
        usage: ":reset",
        about: "forget the definitions and `let` names typed in this session and every value; loaded files stay",
    },
    Command {
        name: ":save",
        usage: ":save FILE [--force]",
        about: "write the definitions typed in this session (and the claims that held) to a .game file; `--force` replaces an existing file",
    },
    Command {
        name: ":time",
        usage: ":time [ENTRY]",
        about: "turn timing of every answer on or off, or time one entry, such as `:time table Kayles 1000`",
    },
    Command {
        name: ":games",
        usage: ":games",
        about: "each game with its parameters, and the helper functions",
    },
    Command {
        name: ":show",
        usage: ":show NAME",
        about: "the source of a game, function or constant",
    },
    Command {
        name: ":graph",
        usage: ":graph POSITION [-o FILE.dot] [--max-nodes N]",
        about:
            "write the game graph in Graphviz DOT, each position with its value (default graph.dot)",
    },
    Command {
        name: ":plot",
        usage: ":plot GAME N [-o FILE.svg]",
        about: "draw the nim-sequence g(0..=N) as an SVG scatter plot (default GAME.svg)",
    },
    Command {
        name: ":help",
        usage: ":help [TOPIC]",
        about: "this list, or more on one command or topic (`help` works too)",
    },
    Command {
        name: ":quit",
        usage: ":quit",
        about: "leave (`quit`, `exit` and Ctrl-D do too)",
    },
];

/// The topic that lists the built-in functions; each one is a topic too.
const BUILTINS_TOPIC: &str = "builtins";

/// Help topics that are not commands.
const TOPICS: &[(&str, &str)] = &[
    (
        "positions",
        "A POSITION is written in the language: a game applied to its arguments, such as
`Nim([3, 5, 7])` or `Candy(3, 4)`, or a sum of positions of any games, such as
`T(8) + T(12) + T(13)` or `Heap(3) + Kayles(4)`. Names bound by `let` may be used.",
    ),
    (
        "definitions",
        "Anything starting with `game`, `fn`, `const` or `claim` is a definition, as in a
.game file; claims are checked at once, and one that fails is not kept. `use \"FILE\";`
imports a file, its path relative to the current folder. A
definition may run over several lines, each further line after `...>`: the entry
goes on while a bracket is open, a line ends in the middle of an expression, or
the definition has not reached its `;` or closing `}`. An empty line ends it in
any case.
A definition whose name is taken (typed earlier or loaded from a file) replaces
the old one: everything that uses it is checked again, the values computed with
the old one are forgotten, and a typed claim that no longer holds is dropped. If
something that uses it no longer checks, the new definition is refused and the
old one kept; to change both, type them together on one line. `:save FILE`
writes what you typed; `:reset` forgets it. See docs/language.md for the
language.",
    ),
    (
        "keys",
        "Tab completes commands, names and (after :load and :save) file names; the grey
hint after the cursor comes from your history (Right arrow takes it). Ctrl-C
clears the line, drops an unfinished entry, or stops a computation (the values
found so far are kept); Ctrl-D leaves. History is kept in grundy's folder of
your data directory.",
    ),
    (
        "scripts",
        "When standard input is not a terminal, grundy repl reads its entries from it
and prints only answers and diagnostics, with no prompts (`--echo` shows each
entry after a prompt, as on a terminal). The exit status is 1 if any entry failed.",
    ),
];

/// The words the completer offers at the start of a line.
pub fn command_words() -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|c| c.name)
}

impl Repl {
    pub(super) fn help(
        &mut self,
        entry: &Entry,
        topic: &str,
        out: &mut Output,
    ) -> Result<(), Errors> {
        if topic.is_empty() {
            out.line("commands (POSITION is any position or sum, such as `Nim([3, 5, 7])`):");
            let width = COMMANDS.iter().map(|c| c.usage.len()).max().unwrap_or(0);
            for c in COMMANDS {
                out.line(format!("  {:<width$}  {}", c.usage, c.about));
            }
            out.line(
                "anything else is a definition (game, fn, const, claim, use) or an expression to evaluate",
            );
            let topics: Vec<&str> = TOPICS
                .iter()
                .map(|t| t.0)
                .chain(std::iter::once(BUILTINS_TOPIC))
                .collect();
            out.line(format!(
                "`:help COMMAND` tells more; other topics: {}",
                topics.join(", ")
            ));
            return Ok(());
        }
        let wanted = topic.trim_start_matches(':');
        if let Some(c) = COMMANDS
            .iter()
            .find(|c| c.name.trim_start_matches(':') == wanted)
        {
            out.line(c.usage);
            out.line(format!("  {}", c.about));
            if let Some(example) = example(c.name) {
                out.line(format!("  for example: {example}"));
            }
            return Ok(());
        }
        if let Some((_, text)) = TOPICS.iter().find(|t| t.0 == wanted) {
            out.line(*text);
            return Ok(());
        }
        if wanted == BUILTINS_TOPIC {
            out.line("the built-in functions (`:help NAME` shows one):");
            for b in Builtin::ALL {
                out.line(format!("  {}", b.doc()));
            }
            return Ok(());
        }
        if let Some(b) = Builtin::lookup(wanted) {
            out.line(format!("{wanted} is built in: {}", b.doc()));
            return Ok(());
        }
        let topics = COMMANDS
            .iter()
            .map(|c| c.name.trim_start_matches(':'))
            .chain(TOPICS.iter().map(|t| t.0))
            .chain(std::iter::once(BUILTINS_TOPIC));
        // Commands and topics first: `rset` is nearer `reset` than `set`
        // in what a user of the REPL means.
        let suggestion = crate::check::suggest::closest(wanted, topics).or_else(|| {
            crate::check::suggest::closest(wanted, Builtin::ALL.iter().map(|b| b.name()))
        });
        Err(vec![Error::new(
            ErrorKind::UnknownName {
                what: "help topic",
                name: topic.to_string(),
                suggestion,
            },
            entry.span(topic),
        )])
    }
}

fn example(command: &str) -> Option<&'static str> {
    Some(match command {
        "value" => "value Nim([3, 5, 7])",
        "outcome" => "outcome Candy(3, 4) + Candy(1, 2)",
        "misere" => "misere Nim([1, 1])",
        "moves" => "moves T(8) + T(12) + T(13)",
        "win" => "win Nim([3, 5, 7])",
        "explain" => "explain Nim([3, 5, 7])",
        "height" => "height Candy(3, 4)",
        "table" => "table T 30",
        "play" => "play Nim([1, 2, 3]) second",
        "let" => "let p = Nim([3, 5, 7])",
        ":load" => ":load examples/nim.game",
        ":save" => ":save mine.game",
        ":time" => ":time table Kayles 1000",
        ":show" => ":show Heap",
        ":graph" => ":graph Candy(3, 4) -o candy.dot",
        ":plot" => ":plot T 100 -o t.svg",
        _ => return None,
    })
}
