//! Byte offsets, which every span holds, against LSP positions, which count
//! lines and UTF-16 code units within a line (the protocol's default
//! encoding, and the only one every client speaks).

use lsp_types::{Position, Range};

/// Where each line of a text starts, to turn offsets into positions and back.
pub struct LineIndex {
    /// Byte offset of the start of each line.
    starts: Vec<usize>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        LineIndex { starts }
    }

    /// The position of a byte offset; an offset inside a character, or past
    /// the end, is moved back to the nearest character boundary.
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let start = self.starts[line];
        let character: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(line as u32, character as u32)
    }

    pub fn range(&self, text: &str, start: usize, end: usize) -> Range {
        Range::new(self.position(text, start), self.position(text, end))
    }

    /// The byte offset of a position; a column past the end of its line
    /// means the line's end, and a line past the last means the text's end.
    pub fn offset(&self, text: &str, position: Position) -> usize {
        let Some(&start) = self.starts.get(position.line as usize) else {
            return text.len();
        };
        let end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(text.len(), |&next| next - 1);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= position.character as usize {
                return start + i;
            }
            units += c.len_utf16();
        }
        end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        // `é` is 2 bytes and 1 unit; `𝔾` is 4 bytes and 2 units.
        let text = "ab\né𝔾x\n";
        let index = LineIndex::new(text);
        let x = text.find('x').unwrap();
        assert_eq!(index.position(text, x), Position::new(1, 3));
        assert_eq!(index.offset(text, Position::new(1, 3)), x);
        assert_eq!(index.position(text, 1), Position::new(0, 1));
        assert_eq!(index.offset(text, Position::new(0, 99)), 2);
        assert_eq!(index.offset(text, Position::new(9, 0)), text.len());
        // The end of the text is the start of the empty last line.
        assert_eq!(index.position(text, text.len()), Position::new(2, 0));
    }

    #[test]
    fn an_offset_inside_a_character_moves_back() {
        let text = "é";
        assert_eq!(LineIndex::new(text).position(text, 1), Position::new(0, 0));
    }
}
