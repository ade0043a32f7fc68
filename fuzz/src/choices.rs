//! The bytes a fuzz target or a property test gives, read as the choices
//! of a random game's generator: every byte sequence decodes to some game
//! (missing bytes read as 0, the plainest choice), so the fuzzer's
//! mutations always mean something.

/// The bytes, read one choice at a time.
pub struct Choices<'a> {
    pub bytes: &'a [u8],
}

impl Choices<'_> {
    pub fn byte(&mut self) -> u8 {
        let Some((&first, rest)) = self.bytes.split_first() else {
            return 0;
        };
        self.bytes = rest;
        first
    }

    /// One of `0..count`.
    pub fn below(&mut self, count: usize) -> usize {
        usize::from(self.byte()) % count
    }

    pub fn pick<'s>(&mut self, items: &[&'s str]) -> &'s str {
        items[self.below(items.len())]
    }

    /// A small constant.
    pub fn small(&mut self) -> i64 {
        self.below(6) as i64 - 1
    }
}

/// Now and then, `e` written so that its value is the same but working it
/// out passes near or over the edge of 64 bits: the interpreter then
/// overflows from some heap on (or at once), and every fast path must
/// agree that it does.
pub fn edge(c: &mut Choices, e: String) -> String {
    const MAX: i64 = i64::MAX;
    match c.below(40) {
        0 => {
            // Overflows once e passes `room`.
            let room = c.below(64) as i64;
            let big = MAX - room;
            format!("{e} + {big} - {big}")
        }
        1 => format!("{e} + {MAX} + {MAX} + 2"),
        2 => {
            // Below the bottom edge once e is under `room - 1`.
            let room = c.below(64) as i64;
            format!("{e} - {MAX} - {room} + {room} + {MAX}")
        }
        3 => {
            // k·e - (k - 1)·e: overflows once e passes MAX / k.
            let k = 1i64 << c.below(63);
            format!("{k} * ({e}) - ({k} - 1) * ({e})")
        }
        _ => e,
    }
}
