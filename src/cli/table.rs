//! `grundy table FILE GAME --upto N`, and the REPL's `table GAME N`: a
//! game's nim-sequence, or the values of a position with `_` for the
//! free number (two `_` give a grid, `--upto XxY`).

use super::query::{open, report};
use super::table_format::Format;
use super::upto::Upto;
use super::{Failed, Options, Output};
use crate::checkpoint::Unavailable;
use crate::error::{Error, ErrorKind, Errors};
use crate::session::{Family, Session, Table, TableRequest};
use crate::solve::values::Values;
use crate::source::Span;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::path::Path;
use std::time::{Duration, Instant};

/// How `grundy table` was asked to run.
pub struct TableArgs<'a> {
    pub files: &'a [String],
    pub game: &'a str,
    pub upto: Upto,
    pub format: Format,
    /// Where to save progress, and resume from.
    pub checkpoint: Option<&'a str>,
    /// The longest time between two saves.
    pub every: Duration,
    /// Whether a proven period may end the computation early.
    pub shortcut: bool,
}

pub fn run(opts: &Options, args: TableArgs, out: &mut Output) -> Result<(), Failed> {
    let mut session = open(opts, args.files, out)?;
    let family = session
        .family(args.game)
        .map_err(|e| report(&session, out, e))?;
    if family.free.len() == 2 {
        return super::grid_format::run(&mut session, &family, &args, out)
            .map_err(|e| report(&session, out, e));
    }
    let upto = line_upto(&session, args.upto).map_err(|e| report(&session, out, e))?;
    let args = TableArgs {
        upto: Upto::Line(upto),
        ..args
    };
    let started = super::stats::start(&mut session);
    let table =
        compute(&mut session, &family, upto, &args, out).map_err(|e| report(&session, out, e))?;
    super::stats::report_values(&started, table.values.len(), out);
    super::stats::report(&started, &session, out);
    if let Some(kind) = table.stopped.clone() {
        let how_far = match table.values.len() {
            0 => format!("{}: stopped before g(0)", args.game),
            n => format!("{}: stopped after g(0..={})", args.game, n - 1),
        };
        out.note(&match args.checkpoint {
            Some(path) => format!("{how_far}; saved in {path}: run the same command to carry on"),
            None => how_far,
        });
        let span = session.interp.program.games[family.game as usize].span;
        return Err(report(&session, out, vec![Error::new(kind, span)]));
    }
    match args.format {
        Format::Text => print(&table, args.game, upto, out),
        format => super::table_format::write(&table, args.game, upto, format, out),
    }
    Ok(())
}

/// The last heap of a table of one free number: `--upto N`, not a grid.
pub(crate) fn line_upto(session: &Session, upto: Upto) -> Result<u64, Errors> {
    match upto {
        Upto::Line(n) => Ok(n),
        Upto::Grid(..) => Err(vec![Error::new(
            ErrorKind::WrongUpto {
                free: "one free number",
                expected: "N",
                found: upto.to_string(),
            },
            session.asked(),
        )]),
    }
}

/// Runs the table holding its checkpoint, if it has one.
fn compute(
    session: &mut Session,
    family: &Family,
    upto: u64,
    args: &TableArgs,
    out: &mut Output,
) -> Result<Table, Errors> {
    let Some(path) = args.checkpoint else {
        return compute_held(session, family, upto, args, out);
    };
    crate::checkpoint::hold(Path::new(path), || {
        compute_held(session, family, upto, args, out)
    })
    .unwrap_or_else(|why| {
        let reason = match why {
            Unavailable::InUse => {
                "another grundy run is using it; wait for that run to end, or name another file"
                    .to_string()
            }
            Unavailable::Unwritable(e) => {
                format!("a save could not be written beside it ({e}), so nothing was computed")
            }
        };
        Err(vec![session.file_error("use the checkpoint", path, reason)])
    })
}

/// Runs the table, resuming from and saving to the checkpoint, with a
/// progress bar on a terminal.
fn compute_held(
    session: &mut Session,
    family: &Family,
    upto: u64,
    args: &TableArgs,
    out: &mut Output,
) -> Result<Table, Errors> {
    let definition = definition(session, family);
    let checkpoint = args.checkpoint.map(Path::new);
    let mut known = match checkpoint {
        Some(path) => load(session, path, &definition)?,
        None => Values::default(),
    };
    // A checkpoint of a longer run answers from its start, and is left as
    // it is: saving the shorter table over it would lose the rest.
    let ahead = known.len() as u64 > upto.saturating_add(1);
    if ahead {
        known.truncate(upto as usize + 1);
    }
    let checkpoint = checkpoint.filter(|_| !ahead);
    let needed = crate::session::table_bytes(upto);
    if needed >= 100_000_000 {
        out.note(format!(
            "{}: g(0..={upto}) takes about {} of memory",
            args.game,
            crate::session::bytes(needed)
        ));
    }
    let bar = progress_bar(upto, known.len());
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
        family,
        TableRequest {
            upto,
            known,
            shortcut: args.shortcut,
            progress: Some(&mut progress),
            resume: false,
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

/// What a checkpoint is made for: the game's definition and everything it
/// uses, and the arguments fixed, if any.
fn definition(session: &Session, family: &Family) -> String {
    let program = &session.interp.program;
    let mut definition = crate::reload::fingerprint(program, &session.sources, family.game);
    if !family.is_whole_game() {
        let args: Vec<String> = (0..family.args.len())
            .map(|i| match family.free.contains(&i) {
                true => "_".to_string(),
                false => session.interp.show(&family.args[i]),
            })
            .collect();
        let name = &program.games[family.game as usize].name;
        definition.push_str(&format!("\n{name}({})", args.join(", ")));
    }
    definition
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

/// A bar on standard error, only when a person is watching it. It is drawn
/// at once and then every fraction of a second, even while a method works
/// a long stretch without reporting; its rate counts only the values this
/// run computes, not those `known` from a checkpoint.
fn progress_bar(upto: u64, known: usize) -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::with_draw_target(
        Some(upto.saturating_add(1)),
        indicatif::ProgressDrawTarget::hidden(),
    )
    .with_position(known as u64);
    // Whole values a second: a fraction of a heap means nothing here.
    let rate = |state: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}/s", indicatif::HumanCount(state.per_sec() as u64));
    };
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} heaps, {rate}, {eta} left",
    ) {
        bar.set_style(style.with_key("rate", rate).progress_chars("=> "));
    }
    // The rate starts from the values known: a tick records them, unseen,
    // and the estimate made of that jump is then forgotten.
    bar.tick();
    bar.reset_eta();
    bar.set_draw_target(indicatif::ProgressDrawTarget::stderr());
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}

/// The nim-sequence in rows of ten, with its period; if Ctrl-C stops it,
/// how far it got.
pub(crate) fn show(
    session: &mut Session,
    family: &Family,
    name: &str,
    upto: Upto,
    out: &mut Output,
) -> Result<(), Errors> {
    if family.free.len() == 2 {
        return super::grid_format::show(session, family, name, upto, out);
    }
    let upto = line_upto(session, upto)?;
    let table = session.table_run(family, TableRequest::upto(upto))?;
    if table.resumed > 0 {
        out.note(format!(
            "{name}: carried on from g(0..={}), kept when an earlier table was stopped",
            table.resumed - 1
        ));
    }
    if let Some(kind) = table.stopped {
        if !table.values.is_empty() {
            out.line(format!(
                "{name}: stopped after g(0..={})",
                table.values.len() - 1
            ));
        }
        let span = session.interp.program.games[family.game as usize].span;
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

/// `GAME COUNT` typed at the REPL: the game is a name, or a position
/// such as `Subtract({1, 4, 5}, _)` that may hold spaces, up to the
/// bracket that closes its arguments.
pub(crate) fn split_game(text: &str) -> (&str, &str) {
    let text = text.trim();
    let name_end = text
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    if text[name_end..].trim_start().starts_with('(') {
        let mut depth = 0;
        let mut quoted = false;
        for (i, c) in text.char_indices().skip(name_end) {
            match c {
                '"' => quoted = !quoted,
                '(' | '[' | '{' if !quoted => depth += 1,
                ')' | ']' | '}' if !quoted => {
                    depth -= 1;
                    if depth == 0 {
                        return (&text[..=i], text[i + 1..].trim());
                    }
                }
                _ => {}
            }
        }
    }
    match text.find(char::is_whitespace) {
        Some(i) => (&text[..i], text[i..].trim()),
        None => (text, ""),
    }
}

#[cfg(test)]
mod tests {
    use super::split_game;

    #[test]
    fn a_position_with_spaces_is_one_game() {
        assert_eq!(split_game("T 30"), ("T", "30"));
        assert_eq!(
            split_game(" Subtract({1, 4, 5}, _) 2 * 15"),
            ("Subtract({1, 4, 5}, _)", "2 * 15")
        );
        assert_eq!(split_game("Candy(_, _) 8x8"), ("Candy(_, _)", "8x8"));
        assert_eq!(split_game("Board(\")\", _)"), ("Board(\")\", _)", ""));
        assert_eq!(split_game("Kayles"), ("Kayles", ""));
    }
}
