//! `grundy repl`: load files, then answer questions line by line.
//!
//! On a terminal the session is a rustyline editor with completion,
//! highlighting, hints and multi-line entries (`helper`). When standard
//! input is not a terminal the session is a script: no prompts (unless
//! `--echo` asks to see the input), the same rule joins the lines of a
//! multi-line entry, and the exit status says whether every line
//! succeeded.
//!
//! One file per concept: `commands` reads and runs an entry, `explain`
//! shows the mex and xor steps, `play` plays against the user, `files`
//! loads, reloads and resets, `save` writes the typed definitions, `time`
//! times answers, `lex` knows where names, strings and brackets are, and
//! `helper` is everything the line editor needs.

mod commands;
mod explain;
mod explain_loopy;
mod files;
mod help;
mod helper;
mod history;
mod lex;
mod play;
mod save;
mod time;

use super::query::report;
use super::{Failed, Options, Output};
use crate::session::Session;
use helper::{Names, ReplHelper};
use rustyline::error::ReadlineError;
use rustyline::history::{FileHistory, History};
use rustyline::{Config, Editor};
use std::cell::RefCell;
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::{Arc, Mutex};

/// The prompt before each entry, and before each further line of one.
pub const PROMPT: &str = "grundy> ";
pub const MORE: &str = "   ...> ";

/// Everything a session remembers between entries.
pub struct Repl {
    pub session: Session,
    max_states: usize,
    /// Each file loaded by name (the files they import are the session's
    /// to know), for `:reload`.
    files: Vec<String>,
    /// How many definitions were typed at the prompt, to name each one.
    definitions_typed: usize,
    /// What completion offers; refreshed after every entry.
    names: Rc<RefCell<Names>>,
    /// Whether each answer is followed by the time it took (`:time`).
    timing: bool,
}

/// What became of one entry.
#[derive(Debug, PartialEq, Eq)]
pub enum Status {
    Done,
    /// Its diagnostics have been printed.
    Failed,
    Quit,
}

/// One entry read from the user.
pub enum Line {
    Entry(String),
    /// Ctrl-C at the prompt: the line is dropped.
    Interrupted,
    /// Ctrl-D, or the end of the script.
    End,
}

/// Where entries come from: the line editor, or a script on stdin.
pub trait Input {
    fn read(&mut self, prompt: &str, out: &mut Output) -> Line;
}

/// Lines from a script, joined into entries by the validator's rule.
struct Script<R: BufRead> {
    lines: std::io::Lines<R>,
    echo: bool,
}

impl<R: BufRead> Input for Script<R> {
    fn read(&mut self, prompt: &str, out: &mut Output) -> Line {
        // A script keeps nothing: a signal while it waits for input ends it.
        let first =
            crate::interrupt::while_idle(|status| std::process::exit(status), || self.lines.next());
        let Some(Some(Ok(first))) = first else {
            return Line::End;
        };
        if self.echo {
            out.line(format!("{prompt}{first}").trim_end());
        }
        let mut completeness = lex::Completeness::default();
        completeness.push_line(&first);
        let mut entry = first;
        while !completeness.is_complete() {
            let Some(Ok(next)) = self.lines.next() else {
                break;
            };
            if self.echo {
                out.line(format!("{MORE}{next}").trim_end());
            }
            completeness.push_line(&next);
            entry.push('\n');
            entry.push_str(&next);
        }
        Line::Entry(entry)
    }
}

/// The interactive line editor, with its history file.
struct Terminal {
    editor: Editor<ReplHelper, FileHistory>,
    /// Where this session's entries go when it ends, however it ends.
    keeper: Keeper,
}

/// What must be done before the session ends, even when a signal ends it
/// at the prompt: its entries appended to the history file, and the
/// terminal put back as it was.
#[derive(Clone)]
struct Keeper {
    history: Option<PathBuf>,
    /// The entries typed in this session and not yet saved.
    typed: Arc<Mutex<Vec<String>>>,
    #[cfg(unix)]
    mode: Option<nix::sys::termios::Termios>,
}

impl Keeper {
    fn save_history(&self) {
        let typed = match self.typed.lock() {
            Ok(mut typed) => std::mem::take(&mut *typed),
            Err(_) => return,
        };
        if let Some(path) = &self.history {
            let _ = history::append(path, &typed);
        }
    }

    /// Saves the history and ends grundy with `status`, from a signal that
    /// came while the line editor held the terminal.
    fn end(self, status: i32) {
        self.save_history();
        #[cfg(unix)]
        if let Some(mode) = &self.mode {
            let _ = nix::sys::termios::tcsetattr(
                std::io::stdin(),
                nix::sys::termios::SetArg::TCSANOW,
                mode,
            );
        }
        eprintln!();
        std::process::exit(status);
    }
}

impl Terminal {
    fn new(names: Rc<RefCell<Names>>, out: &mut Output) -> Option<Terminal> {
        let config = Config::builder()
            .auto_add_history(false)
            .completion_type(rustyline::CompletionType::List)
            .max_history_size(history::KEPT)
            .ok()?
            .build();
        let mut editor: Editor<ReplHelper, FileHistory> = Editor::with_config(config).ok()?;
        editor.set_helper(Some(ReplHelper::new(names, out.color)));
        let history = history::path();
        if let Some(path) = &history {
            match history::load(path) {
                Ok(loaded) => {
                    for entry in &loaded.entries {
                        let _ = editor.history_mut().add(entry);
                    }
                    if loaded.skipped > 0 {
                        out.note(format!(
                            "warning: {} of the history file {} could not be read and {} skipped",
                            plural(loaded.skipped, "line"),
                            path.display(),
                            if loaded.skipped == 1 { "was" } else { "were" }
                        ));
                    }
                }
                Err(e) => out.note(format!(
                    "warning: the history file {} could not be read ({e}); this session's entries will be added to it",
                    path.display()
                )),
            }
        }
        let keeper = Keeper {
            history,
            typed: Arc::default(),
            #[cfg(unix)]
            mode: nix::sys::termios::tcgetattr(std::io::stdin()).ok(),
        };
        Some(Terminal { editor, keeper })
    }
}

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

impl Terminal {
    /// One line from the editor, after `prompt`; what ends the entry
    /// instead, if something does.
    fn read_line(&mut self, prompt: &str) -> Result<String, Line> {
        let keeper = self.keeper.clone();
        let read = crate::interrupt::while_idle(
            move |status| keeper.end(status),
            || self.editor.readline(prompt),
        );
        match read {
            Some(Ok(line)) => Ok(line),
            Some(Err(ReadlineError::Interrupted)) => Err(Line::Interrupted),
            Some(Err(_)) | None => Err(Line::End),
        }
    }
}

impl Input for Terminal {
    /// An entry, line by line: while it is unfinished (a bracket open, a
    /// definition short of its end) each further line is read after the
    /// continuation prompt, so the screen shows that grundy waits for
    /// more. An entry pasted whole arrives as one read.
    fn read(&mut self, prompt: &str, _out: &mut Output) -> Line {
        let mut entry = match self.read_line(prompt) {
            Ok(line) => line,
            Err(end) => return end,
        };
        let mut completeness = lex::Completeness::of(&entry);
        while !completeness.is_complete() {
            match self.read_line(MORE) {
                Ok(next) => {
                    next.split('\n').for_each(|l| completeness.push_line(l));
                    entry.push('\n');
                    entry.push_str(&next);
                }
                // Ctrl-C drops the unfinished entry.
                Err(Line::Interrupted) => return Line::Interrupted,
                // Ctrl-D runs it as it is, and says what it lacks.
                Err(_) => break,
            }
        }
        if !entry.trim().is_empty() {
            let _ = self.editor.history_mut().add(&entry);
            if let Ok(mut typed) = self.keeper.typed.lock() {
                typed.push(entry.clone());
            }
        }
        Line::Entry(entry)
    }
}

impl Repl {
    pub fn new(opts: &Options) -> Repl {
        let mut repl = Repl {
            session: opts.session(),
            max_states: opts.max_states,
            files: Vec::new(),
            definitions_typed: 0,
            names: Rc::new(RefCell::new(Names::default())),
            timing: false,
        };
        repl.refresh_names();
        repl
    }

    /// Tells completion about the names defined now.
    fn refresh_names(&mut self) {
        let mut names = self.names.borrow_mut();
        let program = &self.session.interp.program;
        names.callables = program.callables.keys().cloned().collect();
        names
            .callables
            .extend(program.consts.iter().map(|c| c.name.clone()));
        names.callables.sort_unstable();
        names.bindings = self.session.bindings.keys().cloned().collect();
    }
}

/// Runs `script` as `grundy repl` runs a script on standard input, after
/// loading each `(name, text)` of `files`; whether every entry succeeded.
/// The REPL fuzz target drives the command line through this.
pub fn run_script(opts: &Options, files: &[(&str, &str)], script: &str, out: &mut Output) -> bool {
    let mut repl = Repl::new(opts);
    let mut ok = true;
    for (name, text) in files {
        match repl.session.load_text(name, text) {
            Ok(_) => repl.files.push(name.to_string()),
            Err(errors) => {
                report(&repl.session, out, errors);
                ok = false;
            }
        }
    }
    repl.refresh_names();
    let mut input = Script {
        lines: std::io::Cursor::new(script.as_bytes()).lines(),
        echo: false,
    };
    loop {
        match input.read(PROMPT, out) {
            Line::Entry(text) => match repl.handle(&text, &mut input, out) {
                Status::Done => {}
                Status::Failed => ok = false,
                Status::Quit => break,
            },
            Line::Interrupted => {}
            Line::End => break,
        }
        repl.refresh_names();
    }
    ok
}

pub fn run(opts: &Options, files: &[String], echo: bool, out: &mut Output) -> Result<(), Failed> {
    crate::interrupt::install();
    let mut repl = Repl::new(opts);
    let mut ok = true;
    for file in files {
        if let Err(errors) = repl.load(file) {
            report(&repl.session, out, errors);
            ok = false;
        }
    }
    repl.refresh_names();
    let interactive = std::io::stdin().is_terminal();
    let mut terminal = if interactive {
        Terminal::new(repl.names.clone(), out)
    } else {
        None
    };
    let mut script;
    let input: &mut dyn Input = match terminal.as_mut() {
        Some(t) => {
            out.line(
                "grundy: `:help` lists the commands; Tab completes, Ctrl-C stops, Ctrl-D leaves",
            );
            t
        }
        None => {
            script = Script {
                lines: std::io::stdin().lock().lines(),
                echo,
            };
            &mut script
        }
    };
    loop {
        match input.read(PROMPT, out) {
            Line::Entry(text) => match repl.handle(&text, input, out) {
                Status::Done => {}
                Status::Failed => ok = false,
                Status::Quit => break,
            },
            Line::Interrupted => {}
            Line::End => break,
        }
        repl.refresh_names();
        // Ended by a signal, or with nowhere left to write answers.
        if crate::interrupt::ending() || out.write_failed() {
            break;
        }
    }
    if let Some(t) = terminal.as_mut() {
        t.keeper.save_history();
    }
    if crate::interrupt::ending() {
        return Err(Failed::Interrupted);
    }
    if ok || interactive {
        Ok(())
    } else {
        Err(Failed::Diagnostic)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A long entry piped in line by line is lexed once: the check for
    /// whether it goes on reads each new line, not the whole entry again
    /// at every line, which made reading it take time growing with the
    /// square of its length.
    #[test]
    fn a_long_multi_line_entry_is_lexed_once() {
        let line = format!("{}\n", "1, ".repeat(33));
        let entry = format!("[{}1]", line.repeat(2_000));
        let script = format!("{entry}\nvalue 1\n");
        let mut input = Script {
            lines: std::io::Cursor::new(script.as_bytes()).lines(),
            echo: false,
        };
        let mut out = Output::silent();
        let before = lex::LEXED.with(|n| n.get());
        let Line::Entry(read) = input.read(PROMPT, &mut out) else {
            panic!("the entry is read");
        };
        let lexed = lex::LEXED.with(|n| n.get()) - before;
        assert_eq!(read, entry);
        assert!(entry.len() > 200_000);
        assert!(lexed <= entry.len(), "{lexed} bytes lexed");
        assert!(matches!(input.read(PROMPT, &mut out), Line::Entry(e) if e == "value 1"));
    }
}
