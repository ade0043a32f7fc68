//! Ctrl-C, and the time limit, as requests to stop: long searches check
//! `requested` and return the error `stop_kind` names, keeping every value
//! computed so far.

use crate::error::ErrorKind;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
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

fn epoch() -> Instant {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    *EPOCH.get_or_init(Instant::now)
}

fn now_ms() -> u64 {
    epoch().elapsed().as_millis() as u64
}

/// Routes Ctrl-C to the flag instead of killing the process. Safe to call
/// more than once; only the first call installs the handler.
pub fn install() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if !INSTALLED.swap(true, Ordering::SeqCst) {
        let _ = ctrlc::set_handler(|| REQUESTED.store(true, Ordering::SeqCst));
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
