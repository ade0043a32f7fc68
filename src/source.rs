//! Source texts and the spans that point into them.

/// Which source text a span points into: a file, a position typed on the
/// command line, or a line typed at the REPL.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SourceId(pub u32);

/// A byte range in one source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Span {
    pub source: SourceId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(source: SourceId, start: usize, end: usize) -> Span {
        Span {
            source,
            start: start as u32,
            end: end as u32,
        }
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span {
            source: self.source,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }

    pub fn len(self) -> usize {
        (self.end - self.start) as usize
    }

    pub fn is_empty(self) -> bool {
        self.end == self.start
    }
}

/// One named text.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    /// Where each line starts, found the first time a diagnostic asks, so
    /// that a file with thousands of mistakes is not read through again
    /// for each.
    line_starts: std::sync::OnceLock<Vec<usize>>,
}

impl Source {
    /// The offset where each line starts: 0, and every offset just after a
    /// `\n` that is not the end of the text (the `\n` ending the text
    /// ends the last line; it starts no empty one).
    pub fn line_starts(&self) -> &[usize] {
        self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .filter(|&start| start == 0 || start < self.text.len())
                .collect()
        })
    }
}

/// Every text a session has read, so that any span can be shown later.
#[derive(Clone, Debug, Default)]
pub struct Sources {
    texts: Vec<Source>,
}

impl Sources {
    pub fn add(&mut self, name: impl Into<String>, text: impl Into<String>) -> SourceId {
        self.texts.push(Source {
            name: name.into(),
            text: text.into(),
            line_starts: std::sync::OnceLock::new(),
        });
        SourceId((self.texts.len() - 1) as u32)
    }

    pub fn try_get(&self, id: SourceId) -> Option<&Source> {
        self.texts.get(id.0 as usize)
    }

    /// The text a span covers.
    pub fn slice(&self, span: Span) -> &str {
        self.try_get(span.source)
            .and_then(|s| s.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }
}

/// The largest file read as a source: far beyond any game file, and small
/// enough that a device such as `/dev/zero`, which never ends, is refused
/// instead of filling memory.
pub const MAX_FILE_BYTES: u64 = 64 * 1024 * 1024;

/// Reads a source file as text, or says why it cannot be.
pub fn read_file(path: &str) -> Result<String, String> {
    use std::io::Read;
    refuse_pipes(path)?;
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    // Reading a terminal (`/dev/tty`, named in a file's `use`) would wait
    // for typing, and Ctrl-C does not end the wait.
    if std::io::IsTerminal::is_terminal(&file) {
        return Err("it is a terminal, not a file".to_string());
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!(
            "it is larger than {} MiB, too large for a game file",
            MAX_FILE_BYTES / (1024 * 1024)
        ));
    }
    let text = String::from_utf8(bytes)
        .map_err(|_| "it is not a text file (it is not valid UTF-8)".to_string())?;
    Ok(without_byte_order_mark(text))
}

/// The text without the byte-order mark some editors put at the start of
/// a UTF-8 file: it is no part of the source, and invisible when shown.
fn without_byte_order_mark(text: String) -> String {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    }
}

/// A named pipe or a socket is refused before it is opened: opening a pipe
/// waits for a writer, and a read that waits cannot be stopped by Ctrl-C.
#[cfg(unix)]
fn refuse_pipes(path: &str) -> Result<(), String> {
    use std::os::unix::fs::FileTypeExt;
    let kind = std::fs::metadata(path)
        .map_err(|e| e.to_string())?
        .file_type();
    if kind.is_fifo() || kind.is_socket() {
        return Err(format!(
            "it is a {}, not a file; save what it gives to a file and name that",
            if kind.is_fifo() {
                "named pipe"
            } else {
                "socket"
            }
        ));
    }
    Ok(())
}

#[cfg(not(unix))]
fn refuse_pipes(_path: &str) -> Result<(), String> {
    Ok(())
}
