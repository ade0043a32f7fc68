//! `:time`: how long each answer took, or one answer.

use super::super::Output;
use super::{Input, Repl, Status};
use std::time::{Duration, Instant};

impl Repl {
    /// `:time` turns timing on or off; `:time ENTRY` times that entry
    /// alone.
    pub(super) fn time(&mut self, rest: &str, input: &mut dyn Input, out: &mut Output) -> Status {
        if rest.is_empty() {
            self.timing = !self.timing;
            out.line(if self.timing {
                "timing on: each answer is followed by the time it took (`:time` again turns it off)"
            } else {
                "timing off"
            });
            return Status::Done;
        }
        // `:time :time ENTRY` is `:time ENTRY`: the inner one does it.
        if rest.split_whitespace().next() == Some(":time") {
            return self.handle(rest, input, out);
        }
        let start = Instant::now();
        let status = self.run(rest, input, out);
        if status != Status::Quit {
            out.note(took(start.elapsed()));
        }
        status
    }
}

/// `took 1.5 ms`, `took 2.31 s`: wall-clock time, as the user waited it.
pub fn took(elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    if seconds < 1.0 {
        format!("took {:.1} ms", seconds * 1000.0)
    } else {
        format!("took {seconds:.2} s")
    }
}
