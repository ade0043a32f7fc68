//! Ctrl-C as a request to stop: long searches check this flag and return
//! an `Interrupted` error, keeping every value computed so far.

use std::sync::atomic::{AtomicBool, Ordering};

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Routes Ctrl-C to the flag instead of killing the process. Safe to call
/// more than once; only the first call installs the handler.
pub fn install() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if !INSTALLED.swap(true, Ordering::SeqCst) {
        let _ = ctrlc::set_handler(|| REQUESTED.store(true, Ordering::SeqCst));
    }
}

/// Whether Ctrl-C was pressed since the last `clear`.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::Relaxed)
}

/// Forgets an earlier Ctrl-C (the REPL does this before each command).
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
}
