//! Documents as files: the path a `file:` URI names, so that a document's
//! `use "other.game";` is found beside it, and the URI of a file it
//! imports, so that a diagnostic or a definition there can point at it.

use lsp_types::Uri;
use std::str::FromStr;

/// The path of a document, its `%XX` escapes decoded (a folder named
/// `my games` arrives as `my%20games`).
pub fn path_of(uri: &Uri) -> String {
    let raw = uri.path().as_str().as_bytes();
    let mut bytes = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        let escaped = (raw[i] == b'%')
            .then(|| raw.get(i + 1..i + 3))
            .flatten()
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match escaped {
            Some(byte) => {
                bytes.push(byte);
                i += 3;
            }
            None => {
                bytes.push(raw[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The `file:` URI of a file on disk, if it can be found.
pub fn uri_of(path: &str) -> Option<Uri> {
    let absolute = std::fs::canonicalize(path).ok()?;
    let mut uri = String::from("file://");
    for &byte in absolute.to_str()?.as_bytes() {
        if byte.is_ascii_alphanumeric() || b"/-._~".contains(&byte) {
            uri.push(byte as char);
        } else {
            uri.push_str(&format!("%{byte:02X}"));
        }
    }
    Uri::from_str(&uri).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_goes_to_a_uri_and_back() {
        let dir = std::env::temp_dir().join(format!("grundy lsp ü {}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch folder");
        let file = dir.join("a b.game");
        std::fs::write(&file, "").expect("a scratch file");
        let path = file.to_str().expect("a UTF-8 path");
        let uri = uri_of(path).expect("a URI");
        assert!(
            uri.as_str().contains("grundy%20lsp%20%C3%BC"),
            "{}",
            uri.as_str()
        );
        let back = path_of(&uri);
        assert_eq!(
            std::fs::canonicalize(&back).ok(),
            std::fs::canonicalize(&file).ok()
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
