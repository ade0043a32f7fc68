//! The budget of a command: Ctrl-C, the time limit and the memory limit,
//! as one request to stop. Every loop that can run long (searches,
//! comprehensions, helper calls, the expansion of games given by an
//! expression) checks `requested` and returns the error `stop_kind` names,
//! keeping every value computed so far.
//!
//! A watchdog thread raises the flags: every 20 ms it reads the clock and
//! the memory the process holds (its resident size, as the system counts
//! it), so that `requested` is a few loads and costs nothing where values
//! are built. (Counting every allocation instead cost 5% of a search that
//! allocates on every move.) The memory limit bounds what a command adds
//! to what the process held when it started: every value, position and
//! table it holds, not what it once built and freed. Where the system does
//! not tell the resident size, the memory limit is not enforced.
//!
//! SIGTERM and SIGHUP stop a command as Ctrl-C does (so a table saves its
//! checkpoint), and then end grundy: the exit status is the shell's
//! convention, 128 plus the signal's number (143, 129), where Ctrl-C gives
//! 130. A second one ends grundy at once, in case the first arrived where
//! nothing checks. A REPL waiting at its prompt is ended by `while_idle`.

use crate::error::ErrorKind;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static TIMED_OUT: AtomicBool = AtomicBool::new(false);
/// The time limit in milliseconds, 0 for none.
static LIMIT_MS: AtomicU64 = AtomicU64::new(0);
/// When the current command must stop, in milliseconds since `epoch`.
static DEADLINE_MS: AtomicU64 = AtomicU64::new(u64::MAX);
/// The SIGTERM or SIGHUP that asked grundy to end, 0 for none.
static ENDING: AtomicI32 = AtomicI32::new(0);
/// What ends grundy when a signal arrives while it waits for the user.
type Idle = Box<dyn FnOnce(i32) + Send>;
static IDLE: Mutex<Option<Idle>> = Mutex::new(None);
/// How often the watchdog looks at the clock: a stop comes this late at
/// most, however long the work between two checks of `requested` is.
const WATCH_EVERY: Duration = Duration::from_millis(20);
/// The resident size when the current command started, in bytes.
static HELD_AT_START: AtomicUsize = AtomicUsize::new(0);
/// The memory limit in bytes, 0 for none.
static MEMORY_LIMIT: AtomicUsize = AtomicUsize::new(0);
static OUT_OF_MEMORY: AtomicBool = AtomicBool::new(false);
/// When the current command started, in milliseconds since `epoch`.
static STARTED_MS: AtomicU64 = AtomicU64::new(0);
/// Whether notes about a long search go to standard error (the command
/// line and the REPL say so; a library user hears nothing).
static NOTES: AtomicBool = AtomicBool::new(false);
/// Whether the current command has had its note about the state limit.
static FORESEEN: AtomicBool = AtomicBool::new(false);

/// How long a search runs before it says how far the state limit is.
const FORESEE_AFTER_MS: u64 = 5_000;

/// How much memory a command may take unless told otherwise: half of what
/// the machine has, so that a runaway evaluation stops with a diagnostic
/// long before the system starts to swap or kills the process; 4 GiB where
/// the system does not say.
pub fn default_memory_limit() -> usize {
    crate::memory::total().map_or(4 << 30, |total| total / 2)
}

/// How much memory each command may add from the next `clear` on, in
/// bytes (`None`: no limit).
pub fn set_memory_limit(limit: Option<usize>) {
    MEMORY_LIMIT.store(limit.unwrap_or(0), Ordering::SeqCst);
    if limit.is_some() {
        start_watchdog();
    }
}

/// The bytes the current command has added to what the process held.
pub fn memory_used() -> usize {
    crate::memory::resident().map_or(0, |held| {
        held.saturating_sub(HELD_AT_START.load(Ordering::Relaxed))
    })
}

/// The bytes the current command may still add before the memory limit
/// stops it, and no more than the machine could give it now: a table that
/// would pass either is not worth allocating. `None` when neither is known.
pub fn memory_room() -> Option<usize> {
    let limit = MEMORY_LIMIT.load(Ordering::Relaxed);
    let under_limit = (limit != 0).then(|| limit.saturating_sub(memory_used()));
    match (under_limit, crate::memory::available()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64
}

/// Routes Ctrl-C, SIGTERM and SIGHUP to the flag instead of killing the
/// process. Safe to call more than once; only the first call installs the
/// handlers.
pub fn install() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if !INSTALLED.swap(true, Ordering::SeqCst) {
        let _ = ctrlc::set_handler(|| REQUESTED.store(true, Ordering::SeqCst));
        #[cfg(unix)]
        install_termination();
    }
}

#[cfg(unix)]
fn install_termination() {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGTERM, SIGHUP]) else {
        return;
    };
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if ENDING.swap(signal, Ordering::SeqCst) != 0 {
                std::process::exit(128 + signal);
            }
            REQUESTED.store(true, Ordering::SeqCst);
            let idle = IDLE.lock().ok().and_then(|mut idle| idle.take());
            if let Some(idle) = idle {
                idle(128 + signal);
            }
        }
    });
}

/// Whether SIGTERM or SIGHUP asked grundy to end (the REPL then leaves
/// after the command it was running).
pub fn ending() -> bool {
    ENDING.load(Ordering::SeqCst) != 0
}

/// The exit status of a run stopped by a signal: 130 for Ctrl-C, 128 plus
/// the number of a SIGTERM or SIGHUP.
pub fn exit_status() -> i32 {
    match ENDING.load(Ordering::SeqCst) {
        0 => 130,
        signal => 128 + signal,
    }
}

/// Runs `wait` (reading the user's next entry), during which a SIGTERM or
/// SIGHUP calls `end` with the exit status instead; `end` should save what
/// must be saved and exit. `None` if a signal came first.
pub fn while_idle<T>(
    end: impl FnOnce(i32) + Send + 'static,
    wait: impl FnOnce() -> T,
) -> Option<T> {
    set_idle(Some(Box::new(end)));
    // A signal that came before the hook was in place would find none.
    if ending() {
        set_idle(None);
        return None;
    }
    let result = wait();
    set_idle(None);
    Some(result)
}

fn set_idle(end: Option<Idle>) {
    if let Ok(mut idle) = IDLE.lock() {
        *idle = end;
    }
}

/// How long each command may run from the next `clear` on (`None`: no limit).
pub fn set_time_limit(limit: Option<Duration>) {
    LIMIT_MS.store(
        limit.map_or(0, |d| d.as_millis().max(1) as u64),
        Ordering::SeqCst,
    );
    if limit.is_some() {
        start_watchdog();
    }
}

/// Starts (once) the thread that raises the flags of the time and memory
/// limits when they are passed, so that `requested` is a few loads of
/// flags and no loop needs to read the clock or count memory itself.
fn start_watchdog() {
    static STARTED: AtomicBool = AtomicBool::new(false);
    if STARTED.swap(true, Ordering::SeqCst) {
        return;
    }
    let watch = || loop {
        std::thread::sleep(WATCH_EVERY);
        if LIMIT_MS.load(Ordering::Relaxed) != 0 && now_ms() >= DEADLINE_MS.load(Ordering::Relaxed)
        {
            TIMED_OUT.store(true, Ordering::SeqCst);
        }
        let memory_limit = MEMORY_LIMIT.load(Ordering::Relaxed);
        if memory_limit != 0 && memory_used() > memory_limit {
            OUT_OF_MEMORY.store(true, Ordering::SeqCst);
        }
    };
    if std::thread::Builder::new()
        .name("grundy-time-limit".into())
        .spawn(watch)
        .is_err()
    {
        // Without a thread, only `requested_now` sees the time limit, and
        // the memory limit is not enforced.
        STARTED.store(false, Ordering::SeqCst);
    }
}

/// Whether Ctrl-C was pressed, the time limit passed or the memory limit
/// was reached since the last `clear`.
pub fn requested() -> bool {
    if REQUESTED.load(Ordering::Relaxed)
        || TIMED_OUT.load(Ordering::Relaxed)
        || OUT_OF_MEMORY.load(Ordering::Relaxed)
    {
        return true;
    }
    false
}

/// Like `requested`, but reads the clock itself as well, rather than
/// leaving it to the watchdog.
pub fn requested_now() -> bool {
    if LIMIT_MS.load(Ordering::Relaxed) != 0 && now_ms() >= DEADLINE_MS.load(Ordering::Relaxed) {
        TIMED_OUT.store(true, Ordering::SeqCst);
    }
    requested()
}

/// The error a stopped search reports: Ctrl-C, the time limit, or the
/// memory limit, in that order when more than one happened.
pub fn stop_kind() -> ErrorKind {
    if REQUESTED.load(Ordering::SeqCst) {
        ErrorKind::Interrupted
    } else if TIMED_OUT.load(Ordering::SeqCst) {
        ErrorKind::TimeLimit {
            seconds: LIMIT_MS.load(Ordering::SeqCst) as f64 / 1000.0,
        }
    } else if OUT_OF_MEMORY.load(Ordering::SeqCst) {
        ErrorKind::MemoryLimit {
            mib: MEMORY_LIMIT.load(Ordering::SeqCst).div_ceil(1 << 20),
        }
    } else {
        ErrorKind::Interrupted
    }
}

/// Forgets an earlier stop and starts the time and memory limits afresh
/// (the command line does this once, the REPL before each command).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
    TIMED_OUT.store(false, Ordering::SeqCst);
    OUT_OF_MEMORY.store(false, Ordering::SeqCst);
    FORESEEN.store(false, Ordering::SeqCst);
    HELD_AT_START.store(crate::memory::resident().unwrap_or(0), Ordering::SeqCst);
    STARTED_MS.store(now_ms(), Ordering::SeqCst);
    let limit = LIMIT_MS.load(Ordering::SeqCst);
    let deadline = if limit == 0 {
        u64::MAX
    } else {
        now_ms().saturating_add(limit)
    };
    DEADLINE_MS.store(deadline, Ordering::SeqCst);
}

/// Sends notes about long searches to standard error from now on.
pub fn enable_notes() {
    NOTES.store(true, Ordering::SeqCst);
}

/// Called now and then by a search holding `positions` of the `limit` it
/// may hold: once a command has run a few seconds, says (once) how long
/// and how much memory the whole state limit would take at the rate so
/// far, so that a search that cannot finish is known early, not minutes
/// later at the limit.
pub fn foresee_state_limit(positions: usize, limit: usize) {
    if !NOTES.load(Ordering::Relaxed) || FORESEEN.load(Ordering::Relaxed) || positions == 0 {
        return;
    }
    let elapsed = now_ms().saturating_sub(STARTED_MS.load(Ordering::Relaxed));
    if elapsed < FORESEE_AFTER_MS || FORESEEN.swap(true, Ordering::SeqCst) {
        return;
    }
    eprintln!(
        "note: {}",
        foresight(positions, limit, elapsed, memory_used())
    );
}

/// The note `foresee_state_limit` gives: positions so far, and the time and
/// memory the state limit would take at the same rate.
fn foresight(positions: usize, limit: usize, elapsed_ms: u64, held: usize) -> String {
    let scale = limit as f64 / positions as f64;
    let seconds = elapsed_ms as f64 / 1000.0;
    let mib = |bytes: f64| (bytes / f64::from(1 << 20)).ceil() as u64;
    let mut note = format!(
        "after {seconds:.0} s the search holds {positions} positions ({} MiB); at this rate the state limit of {limit} positions is about {:.0} s and {} MiB away",
        mib(held as f64),
        seconds * (scale - 1.0).max(0.0),
        mib(held as f64 * scale),
    );
    let time_limit = LIMIT_MS.load(Ordering::Relaxed);
    if time_limit > 0 && elapsed_ms as f64 * scale > time_limit as f64 {
        note.push_str(&format!(
            ", past the time limit of {} s (--timeout), which will stop it first",
            time_limit as f64 / 1000.0
        ));
    }
    let memory_limit = MEMORY_LIMIT.load(Ordering::Relaxed);
    if memory_limit > 0 && held as f64 * scale > memory_limit as f64 {
        note.push_str(&format!(
            ", past the memory limit of {} MiB (--max-memory), which will stop it first",
            memory_limit >> 20
        ));
    }
    note.push_str("; Ctrl-C stops it");
    note
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_foresight_scales_time_and_memory_to_the_limit() {
        // 100,000 positions in 5 s and 20 MiB: the limit of 4,000,000 is 40
        // times as far, so 195 s more and 800 MiB in all.
        let note = foresight(100_000, 4_000_000, 5_000, 20 << 20);
        assert!(note.contains("about 195 s and 800 MiB away"), "{note}");
    }
}
