//! The REPL's history file.
//!
//! History is a convenience, not data that must be proven intact: every
//! line that can be read is loaded, a line that cannot (not UTF-8, a broken
//! escape) is skipped, and one warning counts the lines skipped. A session
//! appends the lines typed in it when it ends, holding a lock on the file,
//! so two sessions open at once both keep their lines; nothing is ever
//! overwritten, except to drop the oldest lines when the file has grown
//! past twice the length the editor keeps.
//!
//! The format is rustyline's: a `#V2` line, then one entry a line, with a
//! newline inside an entry written `\n` and a backslash `\\`.

use std::fs::OpenOptions;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The most entries the line editor keeps, and so the most worth loading.
pub const KEPT: usize = 5000;
const HEADER: &str = "#V2";

/// `history.txt` in grundy's folder of the user's data directory (on
/// Linux `$XDG_DATA_HOME/grundy`, by default `~/.local/share/grundy`).
pub fn path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("grundy").join("history.txt"))
}

/// The entries a history file holds, oldest first.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Loaded {
    /// The last `KEPT` entries that could be read.
    pub entries: Vec<String>,
    /// How many lines could not be read.
    pub skipped: usize,
}

/// Reads what can be read of a history file; a missing file is an empty
/// history.
pub fn load(path: &Path) -> std::io::Result<Loaded> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::default()),
        Err(e) => return Err(e),
    };
    Ok(parse(&bytes))
}

fn parse(bytes: &[u8]) -> Loaded {
    let mut loaded = Loaded::default();
    for line in bytes.split(|&b| b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() || line == HEADER.as_bytes() {
            continue;
        }
        match std::str::from_utf8(line).ok().and_then(unescape) {
            Some(entry) => loaded.entries.push(entry),
            None => loaded.skipped += 1,
        }
    }
    let excess = loaded.entries.len().saturating_sub(KEPT);
    loaded.entries.drain(..excess);
    loaded
}

/// An entry as written in the file, or `None` for a broken escape.
fn unescape(line: &str) -> Option<String> {
    let mut entry = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        entry.push(match c {
            '\\' => match chars.next()? {
                'n' => '\n',
                '\\' => '\\',
                _ => return None,
            },
            c => c,
        });
    }
    Some(entry)
}

fn escape(entry: &str) -> String {
    entry.replace('\\', "\\\\").replace('\n', "\\n")
}

/// Adds `entries` at the end of the history file, creating it (and its
/// folder) if need be. Other sessions appending at the same time wait for
/// the lock, so no line is lost or interleaved.
pub fn append(path: &Path, entries: &[String]) -> std::io::Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir)?;
    }
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)?;
    let mut lock = fd_lock::RwLock::new(file);
    let mut file = lock.write()?;
    let mut old = Vec::new();
    file.read_to_end(&mut old)?;
    let mut text = String::new();
    if old.is_empty() {
        text.push_str(HEADER);
        text.push('\n');
    } else if !old.ends_with(b"\n") {
        // A file cut short mid-line: the broken line stays its own.
        text.push('\n');
    }
    for entry in entries {
        text.push_str(&escape(entry));
        text.push('\n');
    }
    let lines = old.iter().filter(|&&b| b == b'\n').count() + entries.len();
    if lines <= 2 * KEPT {
        file.seek(SeekFrom::End(0))?;
        return file.write_all(text.as_bytes());
    }
    // Grown too long: keep the newest lines, rewritten in place under the
    // lock (a rename would leave other sessions locking the old file).
    old.extend_from_slice(text.as_bytes());
    let newest = newest_lines(&old, KEPT);
    file.seek(SeekFrom::Start(0))?;
    file.set_len(0)?;
    file.write_all(format!("{HEADER}\n").as_bytes())?;
    file.write_all(newest)
}

/// The last `n` lines of `bytes`, which end with a newline.
fn newest_lines(bytes: &[u8], n: usize) -> &[u8] {
    let mut newlines = 0;
    for (at, &b) in bytes.iter().enumerate().rev().skip(1) {
        if b == b'\n' {
            newlines += 1;
            if newlines == n {
                return &bytes[at + 1..];
            }
        }
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("grundy-history-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        dir.join("history.txt")
    }

    fn strings(entries: &[&str]) -> Vec<String> {
        entries.iter().map(|e| e.to_string()).collect()
    }

    #[test]
    fn entries_come_back_as_appended_with_newlines_and_backslashes() {
        let path = scratch("round-trip");
        assert_eq!(load(&path).expect("no file"), Loaded::default());
        let entries = strings(&["value Nim([3, 5, 7])", "game A(n: nat) {\n}", "\"a\\nb\""]);
        append(&path, &entries[..1]).expect("appended");
        append(&path, &entries[1..]).expect("appended");
        let loaded = load(&path).expect("read");
        assert_eq!(loaded.entries, entries);
        assert_eq!(loaded.skipped, 0);
    }

    #[test]
    fn unreadable_lines_are_skipped_and_counted() {
        let mut bytes = b"#V2\nvalue Nim([1])\n".to_vec();
        bytes.extend_from_slice(b"bad \xff byte\nbroken \\q escape\n\nmoves Nim([2])\n");
        let loaded = parse(&bytes);
        assert_eq!(
            loaded.entries,
            strings(&["value Nim([1])", "moves Nim([2])"])
        );
        assert_eq!(loaded.skipped, 2);
    }

    #[test]
    fn a_file_cut_mid_line_keeps_its_lines_and_the_new_ones() {
        let path = scratch("cut");
        std::fs::write(&path, "#V2\nvalue Nim([1])\nvalue Ni").expect("written");
        append(&path, &strings(&[":help"])).expect("appended");
        let loaded = load(&path).expect("read");
        assert_eq!(
            loaded.entries,
            strings(&["value Nim([1])", "value Ni", ":help"])
        );
    }

    #[test]
    fn a_long_file_keeps_its_newest_lines() {
        let path = scratch("long");
        let old: Vec<String> = (0..2 * KEPT).map(|i| format!("value Nim([{i}])")).collect();
        append(&path, &old).expect("appended");
        append(&path, &strings(&["newest"])).expect("appended");
        let loaded = load(&path).expect("read");
        assert_eq!(loaded.entries.len(), KEPT);
        assert_eq!(loaded.entries.last().map(String::as_str), Some("newest"));
        assert_eq!(loaded.entries[0], format!("value Nim([{}])", KEPT + 1));
    }
}
