//! `grundy repl`: load files, then answer questions line by line. When
//! standard input is not a terminal the session is a script: no prompts,
//! and the exit status says whether every line succeeded.

use super::query::{print_moves, report};
use super::{Failed, Options, Output};
use crate::error::Errors;
use crate::session::Session;
use rustyline::error::ReadlineError;
use std::io::{BufRead, IsTerminal};

const HELP: &str = "\
commands:
  value POSITION      the Grundy value
  outcome POSITION    P or N
  misere POSITION     P or N under misère play
  moves POSITION      every move, winning moves marked
  win POSITION        the winning moves only
  table GAME N        g(0..=N) of a heap game
  :load FILE          load a .game file
  :help               this text
  :quit               leave (or Ctrl-D)
anything else is a definition (game, fn, const, claim) or an expression to evaluate";

pub fn run(opts: &Options, files: &[String], out: &mut Output) -> Result<(), Failed> {
    let mut session = opts.session();
    let mut ok = true;
    for file in files {
        if let Err(e) = session.load_file(file) {
            report(&session, out, e);
            ok = false;
        }
    }
    let interactive = std::io::stdin().is_terminal();
    if interactive {
        let mut editor = rustyline::DefaultEditor::new().map_err(|_| Failed::Diagnostic)?;
        loop {
            match editor.readline("grundy> ") {
                Ok(line) => {
                    let _ = editor.add_history_entry(line.as_str());
                    if line.trim() == ":quit" {
                        break;
                    }
                    let _ = handle(&mut session, &line, out);
                }
                Err(ReadlineError::Interrupted) => continue,
                Err(_) => break,
            }
        }
    } else {
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if line.trim() == ":quit" {
                break;
            }
            if handle(&mut session, &line, out).is_err() {
                ok = false;
            }
        }
    }
    if ok {
        Ok(())
    } else {
        Err(Failed::Diagnostic)
    }
}

fn handle(session: &mut Session, line: &str, out: &mut Output) -> Result<(), Failed> {
    crate::interrupt::clear();
    let line = line.trim();
    if line.is_empty() || line.starts_with("//") {
        return Ok(());
    }
    let (word, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
    let rest = rest.trim();
    let result: Result<(), Errors> = match word {
        ":help" => {
            out.line(HELP);
            Ok(())
        }
        ":load" => session
            .load_file(rest)
            .map(|_| out.line(format!("loaded {rest}"))),
        "value" => session
            .position(rest)
            .and_then(|p| session.value(&p))
            .map(|v| out.line(v.to_string())),
        "outcome" => session
            .position(rest)
            .and_then(|p| session.value(&p))
            .map(|v| out.line(if v == 0 { "P" } else { "N" })),
        "misere" => session
            .position(rest)
            .and_then(|p| session.misere_wins(&p))
            .map(|w| out.line(if w { "N" } else { "P" })),
        "moves" | "win" => session
            .position(rest)
            .and_then(|p| print_moves(session, &p, word == "win", false, out)),
        "table" => table(session, rest, out),
        _ if starts_definition(word) => session.load_text("<input>", line).and_then(|added| {
            let failures: Vec<_> = session
                .run_claims(session.claim_count() - added)
                .into_iter()
                .filter_map(|r| r.failure)
                .collect();
            if failures.is_empty() {
                Ok(())
            } else {
                Err(failures)
            }
        }),
        _ => session
            .eval_text(line)
            .map(|v| out.line(session.interp.show(&v))),
    };
    result.map_err(|e| report(session, out, e))
}

fn starts_definition(word: &str) -> bool {
    matches!(word, "game" | "fn" | "const" | "claim")
}

fn table(session: &mut Session, args: &str, out: &mut Output) -> Result<(), Errors> {
    let mut words = args.split_whitespace();
    let game = words.next().unwrap_or("");
    let upto_text = words.next().unwrap_or("20");
    let g = session.heap_game(game)?;
    let upto: u64 = match upto_text.parse() {
        Ok(n) => n,
        Err(_) => {
            let v = session.eval_text(upto_text)?;
            match v {
                crate::eval::Value::Int(n) if n >= 0 => n as u64,
                other => {
                    out.note(format!(
                        "table needs a count, not {}",
                        session.interp.show(&other)
                    ));
                    return Ok(());
                }
            }
        }
    };
    let values = session.table(g, upto, |_, _| {})?;
    let cells: Vec<String> = values.iter().map(u32::to_string).collect();
    out.line(cells.join(" "));
    Ok(())
}
