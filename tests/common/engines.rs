//! Every faster way of running a game's rules against the reference
//! interpreter (no compiled code), on the positions reachable from a
//! start: values by the compiled search of packed keys (step by step and
//! fused), options (in order, with their rules and labels) by the
//! compiled code of packed keys. An error must be the same diagnostic:
//! the same kind and message, at the same place, with the same related
//! places and the same account of what was being done.

use super::reachable;
use grundy::error::Errors;
use grundy::eval::engine::Path;
use grundy::eval::Compact;
use grundy::Session;

/// How far a comparison goes.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// The most positions compared from one start.
    pub reached: usize,
    /// The state limit of every search: low, so that a start too large
    /// for it is an error every engine must report alike.
    pub max_positions: usize,
}

/// The faster ways a value is found, each against the reference.
pub const ENGINES: &[(&str, Compact)] = &[
    ("the compiled search, step by step", Compact::Plain),
    ("the compiled search, fused", Compact::Fused),
];

/// The ways one position's options are listed, each against the
/// reference: the compiled code of packed keys where the game compiles
/// (the interpreter elsewhere).
pub const LISTINGS: &[(&str, Compact)] = &[("the compiled code of packed keys", Compact::Fused)];

/// A session with the file loaded, searching the way it is told.
pub fn session(
    path: &str,
    text: &str,
    compact: Compact,
    limits: Limits,
) -> Result<Session, Errors> {
    let mut session = Session::new();
    session.interp.compact = compact;
    session.interp.max_positions = limits.max_positions;
    session.load_text(path, text)?;
    Ok(session)
}

/// An error as the comparison sees it: the whole diagnostic but its help
/// (which follows from the kind).
pub fn shown(errors: &Errors) -> String {
    match errors.first() {
        Some(e) => format!(
            "{:?} at {}..{}, related {:?}, while {:?}",
            e.kind, e.span.start, e.span.end, e.related, e.context
        ),
        None => "an empty error".to_string(),
    }
}

/// The value of the position `text` names, or its error as shown.
pub fn value_of(session: &mut Session, position: &str) -> Result<u32, String> {
    let parts = session.position(position).map_err(|e| shown(&e))?;
    session.value(&parts).map_err(|e| shown(&e))
}

/// Whether an answer is the error of a search past the state limit, on
/// the positions it makes or on one position's options: which of them a
/// search meets first depends on the order it goes in.
fn past_the_limit(answer: &Result<u32, String>) -> bool {
    answer
        .as_ref()
        .is_err_and(|e| e.starts_with("StateLimit") || e.starts_with("OptionLimit"))
}

/// The options of the position `text` names, in order, with their rules
/// and labels, then in order without labels, listed with or without the
/// compiled code; and whether the compiled code listed them all.
pub fn options_of(
    session: &mut Session,
    text: &str,
    compact: Compact,
) -> (Result<Vec<String>, String>, bool) {
    let parts = match session.position(text) {
        Ok(parts) => parts,
        Err(e) => return (Err(shown(&e)), false),
    };
    let mut all = Vec::new();
    session.interp.compact = compact;
    session.interp.engines.clear();
    let listed = list_options(session, &parts, &mut all);
    let entries = &session.interp.engines.entries;
    let compiled = !entries.is_empty() && entries.iter().all(|e| e.path == Path::CompiledOptions);
    session.interp.compact = Compact::Off;
    (listed.map(|()| all), compiled)
}

/// With labels (as `moves` shows them) and without (as searches ask): the
/// compiled code lists them in two ways.
fn list_options(
    session: &mut Session,
    parts: &[grundy::eval::PosId],
    all: &mut Vec<String>,
) -> Result<(), String> {
    for labels in [true, false] {
        for &part in parts {
            let mut moves = Vec::new();
            if let Err(e) = session.interp.moves_of(part, labels, &mut moves) {
                return Err(shown(&vec![e]));
            }
            all.extend(moves.iter().map(|m| {
                let result = session.show_sum(&m.result);
                format!("rule {} {:?} -> {result}", m.rule, m.label)
            }));
        }
    }
    Ok(())
}

/// What a comparison from one start covered: the positions compared, as
/// text, how many of them had their options listed by the compiled code,
/// and whether the compiled search answered for the start's game.
pub struct Compared {
    pub positions: Vec<String>,
    pub listed_compiled: usize,
    pub searched_compiled: bool,
}

/// Compares every engine with the reference on the positions reachable
/// from `start`; the first difference, described, is the error.
pub fn compare_from(
    path: &str,
    text: &str,
    start: &str,
    limits: Limits,
) -> Result<Compared, String> {
    let loaded = |compact| {
        session(path, text, compact, limits)
            .map_err(|e| format!("{path} does not load: {}", shown(&e)))
    };
    // The positions are found in a session of their own: the state limit
    // counts every position a session makes, so every question is asked
    // of sessions with the same history.
    let mut finder = loaded(Compact::Off)?;
    let positions: Vec<String> = reachable(&mut finder, start, limits.reached)
        .into_iter()
        .map(|p| finder.show_sum(&[p]))
        .collect();
    let mut reference = loaded(Compact::Off)?;
    let values: Vec<Result<u32, String>> = positions
        .iter()
        .map(|p| value_of(&mut reference, p))
        .collect();
    let mut searched_compiled = false;
    for (engine, compact) in ENGINES {
        let mut fast = loaded(*compact)?;
        for (position, want) in positions.iter().zip(&values) {
            let mut found = value_of(&mut fast, position);
            let mut want = want.clone();
            if found != want && [&found, &want].iter().any(|v| past_the_limit(v)) {
                // The limit counts every position a session holds, and
                // after a question that failed, the general search and a
                // compiled one may both hold some: asked alone, as the
                // command line asks, the question must fail alike.
                let alone = |compact| {
                    let mut session = loaded(compact)?;
                    Ok::<_, String>(value_of(&mut session, position))
                };
                found = alone(*compact)?;
                want = alone(Compact::Off)?;
            }
            // A compiled search that meets the limit leaves the general
            // search no room, so it names the first move it makes rather
            // than the move the reference went over the limit at.
            let both_past = past_the_limit(&found) && past_the_limit(&want);
            if found != want && !both_past {
                return Err(format!(
                    "{path}: the value of {position} (from {start}) by {engine}:\n  \
                     found {found:?}\n  want  {want:?}"
                ));
            }
        }
        searched_compiled |= fast
            .interp
            .engines
            .entries
            .iter()
            .any(|e| e.path == Path::CompiledSearch);
    }
    // Each way lists in a session of its own, asked the same positions in
    // the same order, so that the state limit is met alike.
    let mut listers = Vec::new();
    for _ in LISTINGS {
        listers.push(loaded(Compact::Off)?);
    }
    let mut reference = loaded(Compact::Off)?;
    let mut listed_compiled = 0;
    for position in &positions {
        let (want, _) = options_of(&mut reference, position, Compact::Off);
        for ((way, compact), lister) in LISTINGS.iter().zip(&mut listers) {
            let (found, compiled) = options_of(lister, position, *compact);
            if found != want {
                return Err(format!(
                    "{path}: the options of {position} (from {start}) by {way}:\n  \
                     found {found:?}\n  want  {want:?}"
                ));
            }
            listed_compiled += usize::from(compiled);
        }
    }
    Ok(Compared {
        positions,
        listed_compiled,
        searched_compiled,
    })
}

/// Every engine agrees with the reference from each start, which must
/// reach every position of its game within `limits`; `compiled`: whether
/// the compiled search must answer for the start's game. What each start
/// covered, in order.
pub fn agree_from(
    name: &str,
    text: &str,
    starts: &[&str],
    limits: Limits,
    compiled: bool,
) -> Vec<Compared> {
    let mut covered = Vec::new();
    for start in starts {
        let compared = compare_from(name, text, start, limits)
            .unwrap_or_else(|difference| panic!("{difference}"));
        assert!(
            compared.positions.len() < limits.reached,
            "{name}: {start} reaches more than {} positions",
            limits.reached
        );
        assert!(
            !compiled || compared.searched_compiled,
            "{name}: {start} is not searched compiled"
        );
        covered.push(compared);
    }
    covered
}
