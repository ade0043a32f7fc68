//! The REPL's history file, and the checksum grundy keeps beside it.
//!
//! The history is read back into the line editor at every start, so a file
//! cut short by a crash or a full disk, or edited by something else, would
//! be trusted silently. grundy writes `history.txt.sum` after each save,
//! with the file's length and its FNV-1a hash, and loads the history only
//! when both still match. A file that does not match is moved aside (to
//! `history.txt.refused`, so nothing is lost), a warning says why, and the
//! session starts with an empty history. The checksum catches damage, not
//! a deliberate forgery: anyone who can write the file can write the sum.

use std::path::{Path, PathBuf};

const HEADER: &str = "grundy history checksum v1";

/// `history.txt` in grundy's folder of the user's data directory (on
/// Linux `$XDG_DATA_HOME/grundy`, by default `~/.local/share/grundy`).
pub fn path() -> Option<PathBuf> {
    dirs::data_dir().map(|d| d.join("grundy").join("history.txt"))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// Where the checksum of a history file is kept.
pub fn sum_path(path: &Path) -> PathBuf {
    with_suffix(path, ".sum")
}

/// Where a history file that failed its check is moved.
pub fn refused_path(path: &Path) -> PathBuf {
    with_suffix(path, ".refused")
}

/// The text of a checksum file for these bytes.
pub fn checksum(bytes: &[u8]) -> String {
    // FNV-1a, 64 bits: a fixed, documented hash, unlike std's hashers,
    // so a file written by one build is read by the next.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{HEADER}\nlength {}\nfnv1a64 {hash:016x}\n", bytes.len())
}

/// Whether a history file may be loaded.
#[derive(Debug, PartialEq, Eq)]
pub enum Check {
    /// There is no history yet.
    Missing,
    /// The file is as grundy wrote it.
    Trusted,
    /// The file is not as grundy wrote it, for this reason.
    Refused(String),
}

pub fn check(path: &Path) -> Check {
    let Ok(bytes) = std::fs::read(path) else {
        return Check::Missing;
    };
    let sum = sum_path(path);
    let Ok(expected) = std::fs::read_to_string(&sum) else {
        return Check::Refused(format!(
            "has no checksum beside it ({}), so whether it is whole cannot be told",
            sum.display()
        ));
    };
    if expected == checksum(&bytes) {
        return Check::Trusted;
    }
    let length = expected
        .lines()
        .find_map(|l| l.strip_prefix("length "))
        .and_then(|n| n.parse::<usize>().ok());
    Check::Refused(match length {
        Some(n) if n != bytes.len() => format!(
            "is {} bytes long, but was {n} when grundy wrote it: it was cut short or changed",
            bytes.len()
        ),
        Some(_) => "does not match the checksum grundy wrote with it: it was changed".into(),
        None => format!("has a damaged checksum file ({})", sum.display()),
    })
}

/// Writes the checksum of the history file as it is now.
pub fn seal(path: &Path) -> std::io::Result<()> {
    let bytes = std::fs::read(path)?;
    // Written beside and renamed, so a crash leaves the old sum or the new
    // one, never half of one.
    let sum = sum_path(path);
    let partial = with_suffix(path, ".sum.partial");
    std::fs::write(&partial, checksum(&bytes))?;
    std::fs::rename(&partial, &sum)
}

/// Moves a refused history file aside, so that saving this session's
/// history does not destroy it.
pub fn set_aside(path: &Path) -> std::io::Result<PathBuf> {
    let aside = refused_path(path);
    std::fs::rename(path, &aside)?;
    Ok(aside)
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

    #[test]
    fn a_sealed_file_is_trusted_and_a_missing_one_is_missing() {
        let path = scratch("sealed");
        assert_eq!(check(&path), Check::Missing);
        std::fs::write(&path, "#V2\nvalue Nim([3, 5, 7])\n").expect("written");
        seal(&path).expect("sealed");
        assert_eq!(check(&path), Check::Trusted);
    }

    #[test]
    fn a_truncated_file_is_refused_with_both_lengths() {
        let path = scratch("truncated");
        std::fs::write(&path, "#V2\nvalue Nim([3, 5, 7])\n").expect("written");
        seal(&path).expect("sealed");
        std::fs::write(&path, "#V2\nvalue Nim([3").expect("cut short");
        let Check::Refused(why) = check(&path) else {
            panic!("a truncated history was trusted");
        };
        assert!(why.contains("is 16 bytes long, but was 25"), "{why}");
    }

    #[test]
    fn an_altered_file_of_the_same_length_is_refused() {
        let path = scratch("altered");
        std::fs::write(&path, "#V2\nvalue Nim([3, 5, 7])\n").expect("written");
        seal(&path).expect("sealed");
        std::fs::write(&path, "#V2\nvalue Nim([3, 5, 8])\n").expect("changed");
        let Check::Refused(why) = check(&path) else {
            panic!("an altered history was trusted");
        };
        assert!(why.contains("it was changed"), "{why}");
    }

    #[test]
    fn a_file_without_a_checksum_is_refused() {
        let path = scratch("unsealed");
        std::fs::write(&path, "#V2\n:quit\n").expect("written");
        assert!(matches!(check(&path), Check::Refused(why) if why.contains("no checksum")));
        std::fs::write(sum_path(&path), "garbage").expect("written");
        assert!(matches!(check(&path), Check::Refused(why) if why.contains("damaged")));
    }

    #[test]
    fn a_refused_file_is_kept_aside() {
        let path = scratch("aside");
        std::fs::write(&path, "old").expect("written");
        let aside = set_aside(&path).expect("moved");
        assert!(!path.exists());
        assert_eq!(std::fs::read_to_string(aside).expect("kept"), "old");
    }
}
