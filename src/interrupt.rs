//! Ctrl-C, and the time limit, as requests to stop: long searches check
//! `requested` and return the error `stop_kind` names, keeping every value
//! computed so far.
//!
//! SIGTERM and SIGHUP stop a command as Ctrl-C does (so a table saves its
//! checkpoint), and then end grundy: the exit status is the shell's
//! convention, 128 plus the signal's number (143, 129), where Ctrl-C gives
//! 130. A second one ends grundy at once, in case the first arrived where
//! nothing checks. A REPL waiting at its prompt is ended by `while_idle`.

use crate::error::ErrorKind;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU32, AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

static REQUESTED: AtomicBool = AtomicBool::new(false);
static TIMED_OUT: AtomicBool = AtomicBool::new(false);
/// The time limit in milliseconds, 0 for none.
static LIMIT_MS: AtomicU64 = AtomicU64::new(0);
/// When the current command must stop, in milliseconds since `epoch`.
static DEADLINE_MS: AtomicU64 = AtomicU64::new(u64::MAX);
/// Calls since the clock was last read: reading it on every call would
/// cost more than the work between calls.
static TICKS: AtomicU32 = AtomicU32::new(0);
/// The SIGTERM or SIGHUP that asked grundy to end, 0 for none.
static ENDING: AtomicI32 = AtomicI32::new(0);
/// What ends grundy when a signal arrives while it waits for the user.
type Idle = Box<dyn FnOnce(i32) + Send>;
static IDLE: Mutex<Option<Idle>> = Mutex::new(None);

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
}

/// Whether Ctrl-C was pressed, or the time limit passed, since the last
/// `clear`.
pub fn requested() -> bool {
    if REQUESTED.load(Ordering::Relaxed) || TIMED_OUT.load(Ordering::Relaxed) {
        return true;
    }
    if LIMIT_MS.load(Ordering::Relaxed) == 0
        || !TICKS.fetch_add(1, Ordering::Relaxed).is_multiple_of(1024)
    {
        return false;
    }
    let late = now_ms() >= DEADLINE_MS.load(Ordering::Relaxed);
    if late {
        TIMED_OUT.store(true, Ordering::SeqCst);
    }
    late
}

/// Like `requested`, but reads the clock every time: for callers that ask
/// only every few thousand steps of work.
pub fn requested_now() -> bool {
    if LIMIT_MS.load(Ordering::Relaxed) != 0 && now_ms() >= DEADLINE_MS.load(Ordering::Relaxed) {
        TIMED_OUT.store(true, Ordering::SeqCst);
    }
    requested()
}

/// The error a stopped search reports: Ctrl-C, or the time limit.
pub fn stop_kind() -> ErrorKind {
    if TIMED_OUT.load(Ordering::SeqCst) && !REQUESTED.load(Ordering::SeqCst) {
        ErrorKind::TimeLimit {
            seconds: LIMIT_MS.load(Ordering::SeqCst) as f64 / 1000.0,
        }
    } else {
        ErrorKind::Interrupted
    }
}

/// Forgets an earlier stop and starts the time limit afresh (the command
/// line does this once, the REPL before each command).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
    TIMED_OUT.store(false, Ordering::SeqCst);
    let limit = LIMIT_MS.load(Ordering::SeqCst);
    let deadline = if limit == 0 {
        u64::MAX
    } else {
        now_ms().saturating_add(limit)
    };
    DEADLINE_MS.store(deadline, Ordering::SeqCst);
}
