//! Checkpoints of long `table` runs: the values found so far, saved so that
//! a run stopped by Ctrl-C, a time limit or a kill resumes where it was.
//!
//! A checkpoint is trusted only when it is whole and was made for the same
//! definition of the same game; anything else is refused, never used. The
//! file is written beside its final name, under a name of its own, and then
//! renamed over it, so a kill during a save leaves the previous checkpoint
//! intact (the next run to hold it removes what the kill left). A run holds its checkpoint for as long as it
//! lasts (`hold`): a second run asking for the same file is refused at its
//! start, before it computes anything, rather than failing at its end.
//!
//! Layout (little-endian): the magic bytes, a format version, the length
//! and text of the game's definition, the number of values, the bytes per
//! value (1, 2 or 4), the values, and a CRC-32 of everything before it.

use crate::solve::values::Values;
use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"GRUNDYCK";
const VERSION: u32 = 1;

/// Why a checkpoint cannot be used.
pub type Refusal = String;

/// Writes the values, replacing any earlier checkpoint only once the new
/// one is complete on disk. The file is written as it is made, so a save
/// of a long table needs no second copy of it in memory.
pub fn save(path: &Path, definition: &str, values: &Values) -> std::io::Result<()> {
    let temporary = &temporary(path);
    let file = File::create(temporary)?;
    let mut out = Summed {
        to: BufWriter::with_capacity(1 << 16, file),
        crc: crc32fast::Hasher::new(),
    };
    let width = width_for(values);
    out.write_all(MAGIC)?;
    out.write_all(&VERSION.to_le_bytes())?;
    out.write_all(&(definition.len() as u64).to_le_bytes())?;
    out.write_all(definition.as_bytes())?;
    out.write_all(&(values.len() as u64).to_le_bytes())?;
    out.write_all(&[width as u8])?;
    // Gathered into chunks: the checksum is quick over long slices only.
    let mut chunk = Vec::with_capacity(1 << 16);
    for v in values.iter() {
        chunk.extend_from_slice(&v.to_le_bytes()[..width]);
        if chunk.len() >= 1 << 16 {
            out.write_all(&chunk)?;
            chunk.clear();
        }
    }
    out.write_all(&chunk)?;
    let crc = out.crc.finalize();
    let mut file = out.to.into_inner().map_err(|e| e.into_error())?;
    file.write_all(&crc.to_le_bytes())?;
    file.sync_all()?;
    drop(file);
    std::fs::rename(temporary, path)
}

/// `path` with `suffix` added to its file name.
fn beside(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Where a save is written before it is renamed: a name of its own (the
/// process and a count), so that two saves never write into one file.
fn temporary(path: &Path) -> PathBuf {
    static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let save = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    beside(path, &format!(".{}.{save}.partial", std::process::id()))
}

/// Why a run cannot have its checkpoint.
#[derive(Debug)]
pub enum Unavailable {
    /// Another run holds it.
    InUse,
    /// Its folder cannot be written (missing, read-only, full...).
    Unwritable(std::io::Error),
}

/// Runs `work` while holding the checkpoint at `path`: no other grundy can
/// hold it meanwhile. Holding it proves too that a save can be written
/// there, so a run whose checkpoint could never be saved is refused
/// before it computes anything.
///
/// The hold is a lock on `path` + `.lock`, removed when `work` ends.
pub fn hold<T>(path: &Path, work: impl FnOnce() -> T) -> Result<T, Unavailable> {
    let lock_path = beside(path, ".lock");
    loop {
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&lock_path)
            .map_err(Unavailable::Unwritable)?;
        let mut lock = fd_lock::RwLock::new(file);
        let held = match lock.try_write() {
            Ok(held) => held,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return Err(Unavailable::InUse),
            Err(e) => return Err(Unavailable::Unwritable(e)),
        };
        // A run that just ended removed the file this one locked: the lock
        // holds nothing, so open the path again.
        if !still_at(&lock_path, &held) {
            continue;
        }
        probe(path).map_err(Unavailable::Unwritable)?;
        remove_killed_saves(path);
        let result = work();
        // Removed while still locked, so that a run which opened it
        // meanwhile sees that it is gone.
        let _ = std::fs::remove_file(&lock_path);
        return Ok(result);
    }
}

/// Removes the temporary files of saves that a killed run left half
/// written: while the checkpoint is held, no other run is writing one.
fn remove_killed_saves(path: &Path) {
    let (Some(folder), Some(name)) = (path.parent(), path.file_name().and_then(|n| n.to_str()))
    else {
        return;
    };
    let folder = if folder.as_os_str().is_empty() {
        Path::new(".")
    } else {
        folder
    };
    let Ok(entries) = std::fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name();
        let save = file.to_str().and_then(|f| {
            f.strip_prefix(name)?
                .strip_prefix('.')?
                .strip_suffix(".partial")
        });
        if save.is_some_and(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
        {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Writes and renames a file as a save does, and removes it.
fn probe(path: &Path) -> std::io::Result<()> {
    let temporary = temporary(path);
    let renamed = beside(path, ".probe");
    let made = File::create(&temporary).and_then(|_| std::fs::rename(&temporary, &renamed));
    let _ = std::fs::remove_file(&temporary);
    made.and_then(|()| std::fs::remove_file(&renamed))
}

/// Whether `file` is still the file at `path`.
fn still_at(path: &Path, file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (std::fs::metadata(path), file.metadata()) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = (path, file);
        true
    }
}

/// A writer that keeps the CRC-32 of everything written through it.
struct Summed {
    to: BufWriter<File>,
    crc: crc32fast::Hasher,
}

impl Summed {
    fn write_all(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.crc.update(bytes);
        self.to.write_all(bytes)
    }
}

/// The values of a checkpoint, or `Ok(None)` if there is none yet. A
/// checkpoint that is damaged, or made for another game, is refused.
pub fn load(path: &Path, definition: &str) -> std::io::Result<Result<Option<Values>, Refusal>> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut file) => {
            // Exactly the file's size: a long table's checkpoint is large,
            // and a growing buffer could take up to twice that.
            let size = file.metadata().map_or(0, |m| m.len());
            bytes.reserve_exact(usize::try_from(size).unwrap_or(0));
            file.read_to_end(&mut bytes)?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Ok(None)),
        Err(e) => return Err(e),
    };
    Ok(parse(&bytes, definition).map(Some))
}

fn parse(bytes: &[u8], definition: &str) -> Result<Values, Refusal> {
    let mut reader = Reader { bytes, at: 0 };
    if reader.take(MAGIC.len()) != Some(MAGIC) {
        return Err("it is not a grundy checkpoint".into());
    }
    let Some((body, crc)) = bytes.split_last_chunk::<4>() else {
        return Err("it is cut short".into());
    };
    if crc32fast::hash(body) != u32::from_le_bytes(*crc) {
        return Err("its checksum does not match: it was cut short or changed".into());
    }
    let version = reader.u32().ok_or("it is cut short")?;
    if version != VERSION {
        return Err(format!(
            "it is in format {version}, and this grundy reads format {VERSION}"
        ));
    }
    let length = reader.u64().ok_or("it is cut short")?;
    let saved = usize::try_from(length)
        .ok()
        .and_then(|n| reader.take(n))
        .ok_or("it is cut short")?;
    if saved != definition.as_bytes() {
        return Err(format!(
            "it was made for another definition of the game:\n{}",
            String::from_utf8_lossy(saved)
        ));
    }
    let count = reader.u64().ok_or("it is cut short")?;
    let width = reader.take(1).ok_or("it is cut short")?[0] as usize;
    if ![1, 2, 4].contains(&width) {
        return Err(format!("it stores values of {width} bytes"));
    }
    let data = usize::try_from(count)
        .ok()
        .and_then(|n| n.checked_mul(width))
        .and_then(|n| reader.take(n))
        .ok_or("it is cut short")?;
    if reader.at + 4 != bytes.len() {
        return Err("it has bytes after its values".into());
    }
    let value = |c: &[u8]| {
        let mut le = [0u8; 4];
        le[..width].copy_from_slice(c);
        u32::from_le_bytes(le)
    };
    Ok(match width {
        // Read straight into the compact form: a long table is never held
        // at four bytes a value.
        1 | 2 => Values::Narrow(data.chunks_exact(width).map(|c| value(c) as u16).collect()),
        _ => Values::from(data.chunks_exact(width).map(value).collect::<Vec<_>>()),
    })
}

/// The fewest bytes that hold every value.
fn width_for(values: &Values) -> usize {
    match values.largest() {
        0..=0xff => 1,
        0x100..=0xffff => 2,
        _ => 4,
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.at.checked_add(n)?;
        // The last four bytes are the checksum, never data.
        let slice = self
            .bytes
            .get(self.at..end.min(self.bytes.len().saturating_sub(4)))?;
        if slice.len() != n {
            return None;
        }
        self.at = end;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn saved(values: &[u32]) -> Vec<u8> {
        let dir = std::env::temp_dir().join(format!("grundy-ck-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join(format!("{}.ck", values.len()));
        save(&path, "game K = octal 0.77;", &Values::from(values)).expect("saved");
        let bytes = std::fs::read(&path).expect("read back");
        std::fs::remove_file(&path).ok();
        bytes
    }

    #[test]
    fn values_come_back_as_saved_at_every_width() {
        for values in [vec![], vec![0, 1, 2], vec![300, 7], vec![70_000, 1]] {
            let bytes = saved(&values);
            assert_eq!(
                parse(&bytes, "game K = octal 0.77;").map(|v| v.to_vec()),
                Ok(values)
            );
        }
    }

    #[test]
    fn every_truncation_and_every_flipped_byte_is_refused() {
        let values: Vec<u32> = (0..40).map(|n| n % 7).collect();
        let bytes = saved(&values);
        for cut in 0..bytes.len() {
            assert!(
                parse(&bytes[..cut], "game K = octal 0.77;").is_err(),
                "cut at {cut}"
            );
        }
        for at in 0..bytes.len() {
            let mut changed = bytes.clone();
            changed[at] ^= 0x10;
            assert!(
                parse(&changed, "game K = octal 0.77;").is_err(),
                "byte {at}"
            );
        }
    }

    #[test]
    fn holding_a_checkpoint_removes_only_the_saves_killed_runs_left() {
        let dir = std::env::temp_dir().join(format!("grundy-hold-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        let path = dir.join("t.ck");
        let killed = dir.join("t.ck.4242.7.partial");
        let other = dir.join("t.ck.x.partial");
        std::fs::write(&killed, "half a save").expect("written");
        std::fs::write(&other, "not a save of grundy's").expect("written");
        let inside = hold(&path, || beside(&path, ".lock").exists()).expect("held");
        assert!(inside, "the lock file exists while the checkpoint is held");
        assert!(!killed.exists() && other.exists());
        assert!(!beside(&path, ".lock").exists(), "and is removed after");
        // Held twice at once: the second is refused.
        let nested = hold(&path, || {
            matches!(hold(&path, || ()), Err(Unavailable::InUse))
        });
        assert!(nested.expect("held"));
    }

    #[test]
    fn another_definition_is_refused() {
        let bytes = saved(&[0, 1, 2]);
        let refusal = parse(&bytes, "game K = octal 0.07;").expect_err("refused");
        assert!(refusal.contains("another definition"), "{refusal}");
    }
}
