//! `grundy table FILE GAME --upto N`, and the REPL's `table GAME N`.

use super::query::{open, report};
use super::{Failed, Options, Output};
use crate::error::{Error, ErrorKind, Errors};
use crate::session::{Session, Table, TableRequest};
use crate::solve::values::Values;
use crate::source::Span;
use serde_json::json;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// How `grundy table` was asked to run.
pub struct TableArgs<'a> {
    pub file: &'a str,
    pub game: &'a str,
    pub upto: u64,
    pub json: bool,
    /// Where to save progress, and resume from.
    pub checkpoint: Option<&'a str>,
    /// The longest time between two saves.
    pub every: Duration,
    /// Whether a proven period may end the computation early.
    pub shortcut: bool,
}

pub fn run(opts: &Options, args: TableArgs, out: &mut Output) -> Result<(), Failed> {
    let mut session = open(opts, args.file, out)?;
    let g = session
        .heap_game(args.game)
        .map_err(|e| report(&session, out, e))?;
    let table = compute(&mut session, g, &args).map_err(|e| report(&session, out, e))?;
    if let Some(kind) = table.stopped.clone() {
        let how_far = match table.values.len() {
            0 => format!("{}: stopped before g(0)", args.game),
            n => format!("{}: stopped after g(0..={})", args.game, n - 1),
        };
        out.note(&match args.checkpoint {
            Some(path) => format!("{how_far}; saved in {path}: run the same command to carry on"),
            None => how_far,
        });
        let span = session.interp.program.games[g as usize].span;
        return Err(report(&session, out, vec![Error::new(kind, span)]));
    }
    if args.json {
        let period = table.proof.map(|p| p.period).or(table.seen()).map(|p| {
            json!({
                "preperiod": p.preperiod,
                "period": p.period,
                "saltus": p.saltus,
                "proven": table.proof.is_some(),
            })
        });
        // The keys in order, "values" last and streamed: a table of
        // millions of values is never held as JSON.
        let head = json!({ "game": args.game, "period": period, "upto": args.upto }).to_string();
        let head = head.strip_suffix('}').unwrap_or(&head);
        out.lines(|w| {
            write!(w, "{head},\"values\":[")?;
            let mut digits = itoa::Buffer::new();
            for (n, v) in table.values.iter().enumerate() {
                if n > 0 {
                    w.write_all(b",")?;
                }
                w.write_all(digits.format(v).as_bytes())?;
            }
            writeln!(w, "]}}")
        });
        return Ok(());
    }
    print(&table, args.game, args.upto, out);
    Ok(())
}

/// Runs the table, resuming from and saving to the checkpoint, with a
/// progress bar on a terminal.
fn compute(session: &mut Session, game: u32, args: &TableArgs) -> Result<Table, Errors> {
    let definition = crate::reload::fingerprint(&session.interp.program, &session.sources, game);
    let checkpoint = args.checkpoint.map(Path::new);
    let mut known = match checkpoint {
        Some(path) => load(session, path, &definition)?,
        None => Values::default(),
    };
    // A checkpoint of a longer run answers from its start, and is left as
    // it is: saving the shorter table over it would lose the rest.
    let ahead = known.len() as u64 > args.upto.saturating_add(1);
    if ahead {
        known.truncate(args.upto as usize + 1);
    }
    let checkpoint = checkpoint.filter(|_| !ahead);
    let bar = progress_bar(args.upto);
    let mut last_save = Instant::now();
    let mut failed_save = None;
    let mut progress = |values: &Values| {
        if let Some(bar) = &bar {
            bar.set_position(values.len() as u64);
        }
        if let Some(path) = checkpoint {
            if last_save.elapsed() >= args.every {
                if let Err(e) = crate::checkpoint::save(path, &definition, values) {
                    failed_save = Some(e);
                    return ControlFlow::Break(());
                }
                last_save = Instant::now();
            }
        }
        ControlFlow::Continue(())
    };
    let table = session.table_run(
        game,
        TableRequest {
            upto: args.upto,
            known,
            shortcut: args.shortcut,
            progress: Some(&mut progress),
        },
    );
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let table = table?;
    let saved = match (checkpoint, failed_save) {
        (Some(_), Some(e)) => Err(e),
        (Some(path), None) => crate::checkpoint::save(path, &definition, &table.values),
        (None, _) => Ok(()),
    };
    match saved {
        Ok(()) => Ok(table),
        Err(e) => {
            let path = args.checkpoint.unwrap_or_default();
            Err(vec![session.file_error("write", path, e)])
        }
    }
}

fn load(session: &mut Session, path: &Path, definition: &str) -> Result<Values, Errors> {
    let shown = path.display().to_string();
    match crate::checkpoint::load(path, definition) {
        Ok(Ok(values)) => Ok(values.unwrap_or_default()),
        Ok(Err(reason)) => {
            let source = session.sources.add(shown.clone(), "");
            Err(vec![Error::new(
                ErrorKind::BadCheckpoint {
                    path: shown,
                    reason,
                },
                Span::new(source, 0, 0),
            )])
        }
        Err(e) => Err(vec![session.file_error("read", &shown, e)]),
    }
}

/// A bar on standard error, only when a person is watching it.
fn progress_bar(upto: u64) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(upto.saturating_add(1)),
        indicatif::ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} heaps, {per_sec}, {eta} left",
    ) {
        bar.set_style(style.progress_chars("=> "));
    }
    Some(bar)
}

/// The nim-sequence in rows of ten, with its period; if Ctrl-C stops it,
/// how far it got.
pub(crate) fn show(
    session: &mut Session,
    game: u32,
    name: &str,
    upto: u64,
    out: &mut Output,
) -> Result<(), Errors> {
    let table = session.table_run(game, TableRequest::upto(upto))?;
    if let Some(kind) = table.stopped {
        if !table.values.is_empty() {
            out.line(format!(
                "{name}: stopped after g(0..={})",
                table.values.len() - 1
            ));
        }
        let span = session.interp.program.games[game as usize].span;
        return Err(vec![Error::new(kind, span)]);
    }
    print(&table, name, upto, out);
    Ok(())
}

fn print(table: &Table, name: &str, upto: u64, out: &mut Output) {
    out.line(format!("{name}: g(n) for n = 0..={upto}"));
    rows(&table.values, out);
    out.line(period_line(table, upto));
}

/// What is known of the period, and how sure it is.
fn period_line(table: &Table, upto: u64) -> String {
    if let Some(proof) = table.proof {
        let p = proof.period;
        let mut line = format!(
            "period {}, preperiod {}: g(n + {}) = g(n) for every n >= {}, proven (it holds for {} <= n < {}, which the Guy-Smith theorem needs when a move takes at most {} tokens)",
            p.period, p.preperiod, p.period, p.preperiod, p.preperiod, proof.checked_below, proof.most_taken
        );
        // Heaps are at most i64::MAX: a bound there (`n + 1` at the
        // largest heap) goes without saying.
        if proof.exact_below < i64::MAX as u64 {
            line.push_str(&format!(
                "; it holds only for n < {}: from there on the rules' arithmetic may overflow",
                proof.exact_below
            ));
        }
        if table.computed < table.values.len() {
            line.push_str(&format!(
                "; g(n) from n = {} on read off the period",
                table.computed
            ));
        }
        return line;
    }
    match table.seen() {
        Some(p) if p.saltus == 0 => format!(
            "period {}, preperiod {} (g(n + {}) = g(n) from n = {} on), seen up to n = {upto}; not proven",
            p.period, p.preperiod, p.period, p.preperiod
        ),
        Some(p) => format!(
            "arithmetic period {}, saltus {}, preperiod {} (g(n + {}) = g(n) + {} from n = {} on), seen up to n = {upto}; not proven",
            p.period, p.saltus, p.preperiod, p.period, p.saltus, p.preperiod
        ),
        None => format!("no period seen up to n = {upto}"),
    }
}

/// Rows of ten values, each row headed by its first n.
fn rows(values: &Values, out: &mut Output) {
    let last = values.len().saturating_sub(1);
    let index_width = last.to_string().len();
    let widest = values.largest();
    let cell = widest.to_string().len().max(2) + 1;
    out.lines(|w| {
        let mut digits = itoa::Buffer::new();
        let mut line = Vec::with_capacity(index_width + 10 * cell + 2);
        for (n, v) in values.iter().enumerate() {
            if n % 10 == 0 {
                if n > 0 {
                    line.push(b'\n');
                    w.write_all(&line)?;
                    line.clear();
                }
                let first = digits.format(n);
                line.resize(index_width.saturating_sub(first.len()), b' ');
                line.extend_from_slice(first.as_bytes());
                line.push(b':');
            }
            let v = digits.format(v);
            line.resize(line.len() + cell - v.len(), b' ');
            line.extend_from_slice(v.as_bytes());
        }
        if !line.is_empty() {
            line.push(b'\n');
            w.write_all(&line)?;
        }
        Ok(())
    });
}
