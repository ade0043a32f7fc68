//! What a diagnostic shows of its source text: the lines its labels touch
//! (and one line around each), made safe to print. miette is handed this
//! excerpt instead of the whole text, with the real line numbers and
//! columns, so what it draws still says where in the file it is.
//!
//! Three things in a source line would otherwise go wrong on the way to
//! the terminal. A line of tens of thousands of characters: miette pads
//! the underline with a formatting width, which cannot go past 65,535, so
//! a long line is cut to a window around its labels, with `…` where it is
//! cut. A control character: an escape byte would be obeyed by the
//! terminal, and a lone carriage return would be taken for a line break
//! (every later line number one too high), so each is shown as its
//! visible symbol (`␛`, `␍`). And characters that are invisible or turn
//! text around (right-to-left overrides, zero-width spaces) are shown as
//! `\u{...}`. Labels are moved with the text, so they still point at what
//! they name.
//!
//! A diagnostic that points into several texts (a name defined in two
//! files) shows one excerpt per text, joined one after another, each
//! drawn under its own name and line numbers.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Lines up to this many columns (see `shown_width`) are shown whole.
const MAX_LINE_CHARS: usize = 120;
/// A longer line is shown from this many columns before its first
/// label ...
const BEFORE_LABEL: usize = 30;
/// ... for this many columns in all.
const WINDOW_CHARS: usize = 100;
/// How many lines are shown before and after each label; the handler
/// that renders an excerpt must be told the same.
pub const CONTEXT_LINES: usize = 1;

/// The excerpt of one source text a diagnostic shows.
#[derive(Debug)]
pub struct Excerpt {
    /// The name of each text shown.
    names: Vec<String>,
    /// The lines shown, one after another, each ended by `\n`.
    text: String,
    lines: Vec<Line>,
}

/// One source line as shown.
#[derive(Debug)]
struct Line {
    /// Which of the excerpt's texts it is from.
    part: usize,
    /// Its line number in the source, from 0.
    number: usize,
    /// Where it starts in the source.
    source_start: usize,
    /// Where its shown text starts and ends in the excerpt (the end is
    /// before its `\n`).
    start: usize,
    end: usize,
    /// The character boundaries of the part shown: (offset in the source,
    /// offset in the excerpt), ascending in both.
    marks: Vec<(usize, usize)>,
}

impl Excerpt {
    /// The excerpt of `text`, whose lines start at `starts` (as
    /// `Source::line_starts` finds them), that shows every byte range of
    /// `spans`, and those ranges as offsets into the excerpt.
    pub fn new(
        name: &str,
        text: &str,
        starts: &[usize],
        spans: &[(usize, usize)],
    ) -> (Excerpt, Vec<(usize, usize)>) {
        let spans: Vec<(usize, usize)> = spans
            .iter()
            .map(|&(s, e)| {
                let s = floor_boundary(text, s);
                (s, floor_boundary(text, e).max(s))
            })
            .collect();
        let line_of = |offset: usize| starts.partition_point(|&s| s <= offset) - 1;
        let mut numbers: Vec<usize> = Vec::new();
        for &(s, e) in &spans {
            let first = line_of(s).saturating_sub(CONTEXT_LINES);
            let last = (line_of(e.saturating_sub(1).max(s)) + CONTEXT_LINES).min(starts.len() - 1);
            numbers.extend(first..=last);
        }
        numbers.sort_unstable();
        numbers.dedup();
        let mut excerpt = Excerpt {
            names: vec![name.to_string()],
            text: String::new(),
            lines: Vec::with_capacity(numbers.len()),
        };
        for number in numbers {
            let start = starts[number];
            let mut end = starts.get(number + 1).map_or(text.len(), |next| next - 1);
            if text[start..end].ends_with('\n') {
                end -= 1;
            }
            // A `\r\n` line break is a line break, not a lone `\r`.
            if text[start..end].ends_with('\r') && text[end..].starts_with('\n') {
                end -= 1;
            }
            let anchor = spans
                .iter()
                .flat_map(|&(s, e)| [s, e])
                .filter(|&o| o >= start && o <= end)
                .min()
                .unwrap_or(start);
            excerpt.push_line(number, text, start, end, anchor);
        }
        let moved = spans
            .iter()
            .map(|&(s, e)| {
                (
                    excerpt.shown_offset(line_of(s), s),
                    excerpt.shown_offset(line_of(e), e),
                )
            })
            .collect();
        (excerpt, moved)
    }

    /// This excerpt followed by `other`, shown under its own name; `moved`,
    /// offsets into `other`, are moved to where they are in the result.
    pub fn join(mut self, other: Excerpt, moved: &mut [(usize, usize)]) -> Excerpt {
        let shift = self.text.len();
        let parts = self.names.len();
        self.lines.extend(other.lines.into_iter().map(|line| {
            Line {
                part: line.part + parts,
                start: line.start + shift,
                end: line.end + shift,
                marks: line
                    .marks
                    .into_iter()
                    .map(|(s, e)| (s, e + shift))
                    .collect(),
                ..line
            }
        }));
        self.text.push_str(&other.text);
        self.names.extend(other.names);
        for (start, end) in moved {
            *start += shift;
            *end += shift;
        }
        self
    }

    /// Adds source line `number`, `text[start..end]`, cut to a window
    /// around `anchor` if it is long.
    fn push_line(&mut self, number: usize, text: &str, start: usize, end: usize, anchor: usize) {
        let line = &text[start..end];
        let (from, to) = if line.chars().map(shown_width).sum::<usize>() <= MAX_LINE_CHARS {
            (start, end)
        } else {
            let from = chars_back(text, anchor, BEFORE_LABEL, start);
            (from, chars_forward(text, from, WINDOW_CHARS, end))
        };
        let shown_start = self.text.len();
        if from > start {
            self.text.push('…');
        }
        let mut marks = Vec::with_capacity(to - from + 1);
        for (i, c) in text[from..to].char_indices() {
            marks.push((from + i, self.text.len()));
            push_visible(&mut self.text, c);
        }
        marks.push((to, self.text.len()));
        if to < end {
            self.text.push('…');
        }
        self.lines.push(Line {
            part: 0,
            number,
            source_start: start,
            start: shown_start,
            end: self.text.len(),
            marks,
        });
        self.text.push('\n');
    }

    /// Where source offset `offset`, on source line `number`, is in the
    /// excerpt: a place cut off the shown part of its line goes to that
    /// end of the line.
    fn shown_offset(&self, number: usize, offset: usize) -> usize {
        let i = self.lines.partition_point(|l| l.number <= number);
        let Some(line) = i.checked_sub(1).map(|i| &self.lines[i]) else {
            return 0;
        };
        if line.number != number {
            return line.end;
        }
        match line.marks.partition_point(|&(source, _)| source <= offset) {
            0 => line.start,
            k if k == line.marks.len() && offset > line.marks[k - 1].0 => line.end,
            k => line.marks[k - 1].1,
        }
    }

    /// Which shown line excerpt offset `offset` is on.
    fn line_at(&self, offset: usize) -> usize {
        self.lines
            .partition_point(|l| l.start <= offset)
            .saturating_sub(1)
    }

    /// The source column (in bytes, from 0) of excerpt offset `offset`.
    fn column(&self, offset: usize) -> usize {
        let line = &self.lines[self.line_at(offset)];
        let k = line.marks.partition_point(|&(_, shown)| shown <= offset);
        let source = match k {
            0 => line.marks.first().map_or(line.source_start, |m| m.0),
            k => line.marks[k - 1].0,
        };
        source - line.source_start
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        if self.lines.is_empty() || span.offset() > self.text.len() {
            return Err(MietteError::OutOfBounds);
        }
        let offset = span.offset();
        let end = offset + span.len();
        let mut first = self.line_at(offset);
        let mut last = self.line_at(end.saturating_sub(1).max(offset));
        let follows = |i: usize| {
            let (line, before) = (&self.lines[i], &self.lines[i - 1]);
            line.part == before.part && line.number == before.number + 1
        };
        // Lines not next to each other in the source cannot be drawn as
        // one piece; miette then draws each label on its own.
        if !(first + 1..=last).all(follows) {
            return Err(MietteError::OutOfBounds);
        }
        for _ in 0..context_lines_before {
            if first > 0 && follows(first) {
                first -= 1;
            }
        }
        for _ in 0..context_lines_after {
            if last + 1 < self.lines.len() && follows(last + 1) {
                last += 1;
            }
        }
        let (data_start, column) = if context_lines_before == 0 {
            (offset, self.column(offset))
        } else {
            (self.lines[first].start, 0)
        };
        let data_end = if context_lines_after == 0 {
            end
        } else {
            self.lines[last].end + 1
        };
        Ok(Box::new(MietteSpanContents::new_named(
            self.names[self.lines[first].part].clone(),
            &self.text.as_bytes()[data_start..data_end],
            SourceSpan::new(data_start.into(), data_end - data_start),
            self.lines[first].number,
            column,
            last - first + 1,
        )))
    }
}

/// The most characters of a message shown: a message quoting a name or
/// a value of a hundred thousand characters shows its two ends.
const MAX_MESSAGE_CHARS: usize = 1000;

/// `text` (a message, a label or help) as it is shown: control and
/// invisible characters made visible, line breaks kept, and a very long
/// text cut in the middle.
pub fn printable(text: &str) -> String {
    let count = text.chars().count();
    let cut = count > MAX_MESSAGE_CHARS;
    let (head, tail) = if cut {
        (MAX_MESSAGE_CHARS * 4 / 5, MAX_MESSAGE_CHARS / 5)
    } else {
        (count, 0)
    };
    let mut out = String::with_capacity(text.len().min(4 * MAX_MESSAGE_CHARS));
    for (i, c) in text.chars().enumerate() {
        if i == head && cut {
            out.push_str(&format!(
                " … ({} characters left out) … ",
                count - head - tail
            ));
        }
        if i < head || i >= count - tail {
            match c {
                '\n' => out.push(c),
                _ => push_visible(&mut out, c),
            }
        }
    }
    out
}

/// How a character of a source line is shown.
fn push_visible(out: &mut String, c: char) {
    match c {
        '\t' => out.push(c),
        // The C0 control characters have visible symbols from U+2400 on.
        '\0'..='\u{1f}' => out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?')),
        '\u{7f}' => out.push('␡'),
        '\u{80}'..='\u{9f}'
        | '\u{61c}'
        | '\u{200b}'..='\u{200f}'
        | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{2064}'
        | '\u{2066}'..='\u{2069}'
        | '\u{feff}' => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        _ => out.push(c),
    }
}

/// The largest character boundary of `text` at or before `offset`.
fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// How many columns a character of a source line takes once shown: an
/// invisible character written out as `\u{202e}` takes eight, a tab the
/// four miette expands it to. Windows are measured in these, so a line
/// of such characters is cut as narrow as a line of letters.
fn shown_width(c: char) -> usize {
    let mut shown = String::new();
    push_visible(&mut shown, c);
    match c {
        '\t' => 4,
        _ => shown.chars().count(),
    }
}

/// The offset `n` shown columns before `from`, but not before `floor`.
fn chars_back(text: &str, from: usize, n: usize, floor: usize) -> usize {
    let mut width = 0;
    for (i, c) in text[floor..from].char_indices().rev() {
        width += shown_width(c);
        if width >= n {
            return floor + i;
        }
    }
    floor
}

/// The offset `n` shown columns after `from`, but not after `ceiling`.
fn chars_forward(text: &str, from: usize, n: usize, ceiling: usize) -> usize {
    let mut width = 0;
    for (i, c) in text[from..ceiling].char_indices() {
        width += shown_width(c);
        if width > n {
            return from + i;
        }
    }
    ceiling
}

#[cfg(test)]
mod tests {
    use super::*;

    fn excerpt_of(text: &str, spans: &[(usize, usize)]) -> (Excerpt, Vec<(usize, usize)>) {
        let mut sources = crate::source::Sources::default();
        let id = sources.add("f", text);
        let starts = sources.try_get(id).map_or(&[0][..], |s| s.line_starts());
        Excerpt::new("f", text, starts, spans)
    }

    /// The excerpt's text, and what each moved span covers in it.
    fn shown(text: &str, spans: &[(usize, usize)]) -> (String, Vec<String>) {
        let (excerpt, moved) = excerpt_of(text, spans);
        let covered = moved
            .iter()
            .map(|&(s, e)| excerpt.text[s..e].to_string())
            .collect();
        (excerpt.text, covered)
    }

    #[test]
    fn a_long_line_is_cut_around_its_label() {
        let text = format!("{}TARGET{}", "x".repeat(5000), "y".repeat(5000));
        let (excerpt, covered) = shown(&text, &[(5000, 5006)]);
        assert_eq!(covered, ["TARGET"]);
        assert!(
            excerpt.starts_with('…') && excerpt.ends_with("…\n"),
            "{excerpt}"
        );
        assert_eq!(excerpt.chars().count(), WINDOW_CHARS + 3);
        let (e, _) = excerpt_of(&text, &[(5000, 5006)]);
        let header = e.read_span(
            &SourceSpan::new(e.lines[0].marks[BEFORE_LABEL].1.into(), 6),
            0,
            0,
        );
        assert_eq!(header.map(|c| (c.line(), c.column())).ok(), Some((0, 5000)));
    }

    /// A line of characters written out as `\u{...}` is cut by the
    /// columns it takes once shown: cut by its characters, a hundred of
    /// them filled eight hundred columns.
    #[test]
    fn a_long_line_of_invisible_characters_is_cut_as_narrow() {
        let text = format!("{}TARGET{}", "\u{202e}".repeat(500), "\u{feff}".repeat(500));
        let at = 500 * '\u{202e}'.len_utf8();
        let (excerpt, covered) = shown(&text, &[(at, at + 6)]);
        assert_eq!(covered, ["TARGET"]);
        let columns = excerpt.trim_end().chars().count();
        assert!(columns <= WINDOW_CHARS + 2, "{columns} columns: {excerpt}");
        assert!(columns >= WINDOW_CHARS - 8, "{columns} columns: {excerpt}");
    }

    #[test]
    fn control_characters_are_shown_as_symbols_and_labels_follow() {
        let text = "a\u{1b}[2J\u{7}\u{202e}b = 1\n";
        let (excerpt, covered) = shown(text, &[(text.len() - 2, text.len() - 1)]);
        assert_eq!(excerpt, "a␛[2J␇\\u{202e}b = 1\n");
        assert_eq!(covered, ["1"]);
    }

    #[test]
    fn messages_show_control_characters_and_the_ends_of_long_names() {
        assert_eq!(printable("found `\u{1b}`\nhelp"), "found `␛`\nhelp");
        let long = format!("unknown game `{}`", "b".repeat(100_000));
        let shown = printable(&long);
        assert!(shown.starts_with("unknown game `bbb"), "{shown}");
        assert!(
            shown.contains(" … (99015 characters left out) … "),
            "{shown}"
        );
        assert!(shown.ends_with("bbb`"), "{shown}");
        assert!(shown.chars().count() < 2 * MAX_MESSAGE_CHARS);
    }

    #[test]
    fn only_a_lone_carriage_return_is_shown() {
        let text = "one\r\ntwo\rstill two\r\nthree\r\n";
        let three = text.find("three").unwrap_or(0);
        let (excerpt, covered) = shown(text, &[(three, three + 5)]);
        assert_eq!(excerpt, "two␍still two\nthree\n");
        assert_eq!(covered, ["three"]);
        let (e, moved) = excerpt_of(text, &[(three, three + 5)]);
        let at = e.read_span(&SourceSpan::new(moved[0].0.into(), 5), 0, 0);
        assert_eq!(at.map(|c| (c.line(), c.column())).ok(), Some((2, 0)));
    }
}
