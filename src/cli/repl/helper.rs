//! What the line editor needs: completion of commands, names and file
//! paths; highlighting of keywords, numbers, strings and matching
//! brackets; and hints from history. (The further lines of an unfinished
//! entry are read by the REPL, after its continuation prompt.)

use super::help::{command_words, COMMANDS};
use super::lex::{self, Kind};
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::highlight::{CmdKind, Highlighter};
use rustyline::hint::{Hinter, HistoryHinter};
use rustyline::validate::Validator;
use rustyline::{Context, Helper};
use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::rc::Rc;

/// The names defined in the session, kept up to date by the REPL.
#[derive(Default)]
pub struct Names {
    /// Games, functions and constants, sorted: the highlighter looks up
    /// every word of the entry at each redraw.
    pub callables: Vec<String>,
    /// Names bound by `let`.
    pub bindings: Vec<String>,
}

pub struct ReplHelper {
    names: Rc<RefCell<Names>>,
    color: bool,
    files: FilenameCompleter,
    hinter: HistoryHinter,
    /// The position of a bracket under or just before the cursor.
    bracket: Cell<Option<usize>>,
}

impl ReplHelper {
    pub fn new(names: Rc<RefCell<Names>>, color: bool) -> ReplHelper {
        ReplHelper {
            names,
            color,
            files: FilenameCompleter::new(),
            hinter: HistoryHinter::new(),
            bracket: Cell::new(None),
        }
    }

    /// Every word that may complete `prefix` where an expression goes.
    fn expression_words(&self, prefix: &str) -> Vec<String> {
        let names = self.names.borrow();
        let builtins = crate::eval::builtins::Builtin::ALL
            .iter()
            .map(|b| b.name().to_string());
        let mut words: Vec<String> = names
            .callables
            .iter()
            .chain(names.bindings.iter())
            .cloned()
            .chain(builtins)
            .filter(|w| w.starts_with(prefix))
            .collect();
        words.sort();
        words.dedup();
        words
    }
}

impl Helper for ReplHelper {}

impl Completer for ReplHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let before = line.get(..pos).unwrap_or(line);
        let trimmed = before.trim_start();
        // The commands whose argument is a file name.
        if [":load ", ":l ", ":save "]
            .iter()
            .any(|command| trimmed.starts_with(command))
        {
            return self.files.complete(line, pos, ctx);
        }
        // The word being completed: counted in bytes from the end, since
        // what comes before it may be any character, of any length.
        let word_bytes: usize = before
            .chars()
            .rev()
            .take_while(|&c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
            .map(char::len_utf8)
            .sum();
        let start = before.len() - word_bytes;
        let prefix = &before[start..];
        let at_line_start = before[..start].trim().is_empty();
        let mut words: Vec<String> = Vec::new();
        if at_line_start {
            words.extend(
                command_words()
                    .filter(|c| c.starts_with(prefix))
                    .map(str::to_string),
            );
            for keyword in ["game", "fn", "const", "claim", "use"] {
                if keyword.starts_with(prefix) {
                    words.push(keyword.to_string());
                }
            }
        }
        if trimmed.starts_with(":help ") {
            words.extend(
                COMMANDS
                    .iter()
                    .map(|c| c.name.trim_start_matches(':'))
                    .chain(["positions", "definitions", "keys", "scripts"])
                    .filter(|w| w.starts_with(prefix))
                    .map(str::to_string),
            );
        } else if !prefix.starts_with(':') {
            words.extend(self.expression_words(prefix));
        }
        let pairs = words
            .into_iter()
            .map(|w| Pair {
                display: w.clone(),
                replacement: w,
            })
            .collect();
        Ok((start, pairs))
    }
}

impl Hinter for ReplHelper {
    type Hint = String;

    /// No hint on a long entry: a hint is drawn by drawing the whole
    /// entry again, at every key.
    fn hint(&self, line: &str, pos: usize, ctx: &Context<'_>) -> Option<String> {
        if line.len() > LIVE_BYTES {
            return None;
        }
        self.hinter.hint(line, pos, ctx)
    }
}

/// Every line is accepted as typed: the REPL itself reads the further
/// lines of an unfinished entry, after its continuation prompt (the line
/// editor has no prompt of its own for them).
impl Validator for ReplHelper {}

/// Entries up to this long are highlighted, and get a hint, anew at every
/// key typed; longer ones only when the cursor moves or the editor draws
/// the whole entry anyway.
const LIVE_BYTES: usize = 1024;

const RESET: &str = "\x1b[0m";
const KEYWORD: &str = "\x1b[1;35m";
const COMMAND: &str = "\x1b[1m";
const NUMBER: &str = "\x1b[36m";
const STRING: &str = "\x1b[32m";
const COMMENT: &str = "\x1b[2m";
const NAME: &str = "\x1b[33m";
const BRACKET: &str = "\x1b[1;34m";

impl Highlighter for ReplHelper {
    fn highlight<'l>(&self, line: &'l str, _pos: usize) -> Cow<'l, str> {
        if !self.color || line.is_empty() {
            return Cow::Borrowed(line);
        }
        let matching = self.bracket.get().and_then(|at| matching_bracket(line, at));
        let names = self.names.borrow();
        let mut out = String::with_capacity(line.len() * 2);
        let mut first_word = true;
        for t in lex::tokens(line) {
            let style = match t.kind {
                Kind::Space => None,
                Kind::Comment => Some(COMMENT),
                Kind::Number => Some(NUMBER),
                Kind::Str { .. } => Some(STRING),
                Kind::Ident if lex::KEYWORDS.contains(&t.text) => Some(KEYWORD),
                Kind::Ident if first_word && command_words().any(|c| c == t.text) => Some(COMMAND),
                Kind::Ident
                    if names
                        .callables
                        .binary_search_by(|n| n.as_str().cmp(t.text))
                        .is_ok() =>
                {
                    Some(NAME)
                }
                Kind::Punct if matching.is_some_and(|(a, b)| t.start == a || t.start == b) => {
                    Some(BRACKET)
                }
                Kind::Punct if first_word && t.text == ":" => Some(COMMAND),
                _ => None,
            };
            if t.kind != Kind::Space && !(t.kind == Kind::Punct && t.text == ":") {
                first_word = false;
            }
            match style {
                Some(s) => {
                    out.push_str(s);
                    out.push_str(t.text);
                    out.push_str(RESET);
                }
                None => out.push_str(t.text),
            }
        }
        Cow::Owned(out)
    }

    fn highlight_hint<'h>(&self, hint: &'h str) -> Cow<'h, str> {
        if self.color {
            Cow::Owned(format!("{COMMENT}{hint}{RESET}"))
        } else {
            Cow::Borrowed(hint)
        }
    }

    /// Whether the line must be drawn again, highlighted, after a key.
    /// Saying yes redraws the whole entry, so it is said only where that
    /// is cheap: on a short entry, or when the cursor moves onto or off a
    /// bracket. Characters typed (or pasted without bracketed paste) onto
    /// a long entry are just written out, so pasting n characters does
    /// not redraw n times a text of up to n characters.
    fn highlight_char(&self, line: &str, pos: usize, kind: CmdKind) -> bool {
        if !self.color {
            return false;
        }
        if kind == CmdKind::ForcedRefresh {
            self.bracket.set(None);
            return true;
        }
        if kind == CmdKind::Other && line.len() > LIVE_BYTES {
            // Still true if a bracket was highlighted: it must be cleared.
            return self.bracket.take().is_some();
        }
        let bytes = line.as_bytes();
        let is_bracket = |i: usize| bytes.get(i).is_some_and(|b| b"()[]{}".contains(b));
        let at = if is_bracket(pos) {
            Some(pos)
        } else if pos > 0 && is_bracket(pos - 1) {
            Some(pos - 1)
        } else {
            None
        };
        self.bracket.set(at);
        true
    }
}

/// The bracket at byte `at` and the one that matches it, if any (brackets
/// inside strings and comments do not count).
fn matching_bracket(line: &str, at: usize) -> Option<(usize, usize)> {
    let toks: Vec<lex::Token> = lex::tokens(line)
        .into_iter()
        .filter(|t| t.kind == Kind::Punct && t.text.len() == 1 && "()[]{}".contains(t.text))
        .collect();
    let index = toks.iter().position(|t| t.start == at)?;
    let open = |s: &str| matches!(s, "(" | "[" | "{");
    let mut depth = 0i64;
    if open(toks[index].text) {
        for t in &toks[index..] {
            depth += if open(t.text) { 1 } else { -1 };
            if depth == 0 {
                return Some((at, t.start));
            }
        }
    } else {
        for t in toks[..=index].iter().rev() {
            depth += if open(t.text) { -1 } else { 1 };
            if depth == 0 {
                return Some((t.start, at));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rustyline::history::{DefaultHistory, History};

    /// A helper that knows a few names, with colour on so that
    /// highlighting does its work.
    fn helper() -> ReplHelper {
        let names = Names {
            callables: vec!["Heap".into(), "Nim".into(), "Éclair".into()],
            bindings: vec!["p".into(), "ü".into()],
        };
        ReplHelper::new(Rc::new(RefCell::new(names)), true)
    }

    /// Everything the line editor asks of the helper, at every cursor
    /// position of `line`.
    fn exercise(helper: &ReplHelper, history: &DefaultHistory, line: &str) {
        let ctx = Context::new(history);
        let boundaries = line.char_indices().map(|(i, _)| i).chain([line.len()]);
        for pos in boundaries {
            let (start, pairs) = helper.complete(line, pos, &ctx).unwrap_or((0, Vec::new()));
            assert!(
                line.is_char_boundary(start) && start <= pos,
                "{line:?} at {pos}: {start}"
            );
            for p in pairs {
                assert!(!p.replacement.is_empty());
            }
            let _ = helper.hint(line, pos, &ctx);
            for kind in [CmdKind::MoveCursor, CmdKind::Other, CmdKind::ForcedRefresh] {
                let _ = helper.highlight_char(line, pos, kind);
                // Highlighting only adds colour.
                let shown = helper.highlight(line, pos);
                assert_eq!(without_colour(&shown), line);
            }
        }
    }

    fn without_colour(text: &str) -> String {
        let mut out = text.to_string();
        for code in [
            RESET, KEYWORD, COMMAND, NUMBER, STRING, COMMENT, NAME, BRACKET,
        ] {
            out = out.replace(code, "");
        }
        out
    }

    #[test]
    fn defined_names_are_highlighted() {
        let shown = helper().highlight("value Heap(3) + Nim([1]) + Nope(2)", 0);
        assert!(shown.contains(&format!("{NAME}Heap{RESET}")), "{shown}");
        assert!(shown.contains(&format!("{NAME}Nim{RESET}")), "{shown}");
        assert!(!shown.contains(&format!("{NAME}Nope")), "{shown}");
    }

    /// After `:load` and `:save` Tab completes file names (the tests run
    /// in the crate's folder, which holds `examples/`).
    #[test]
    fn tab_completes_file_names_after_load_and_save() {
        let helper = helper();
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        for line in [":load exam", ":save exam"] {
            let (_, found) = helper
                .complete(line, line.len(), &ctx)
                .expect("completion works");
            let offered: Vec<&str> = found.iter().map(|p| p.replacement.as_str()).collect();
            assert_eq!(offered, ["examples/"], "{line:?}");
        }
    }

    #[test]
    fn tab_after_a_character_of_several_bytes_completes() {
        let helper = helper();
        let history = DefaultHistory::new();
        let ctx = Context::new(&history);
        for (line, start) in [
            ("é", 2),
            ("x🙂y", 5),
            ("value Nim([3]) + É", 19),
            ("🙂Nim", 4),
        ] {
            let completed = helper.complete(line, line.len(), &ctx);
            assert_eq!(completed.ok().map(|c| c.0), Some(start), "{line:?}");
        }
        exercise(&helper, &history, "x🙂y");
    }

    /// Typing (or pasting, on a terminal without bracketed paste) a
    /// 200 KB entry one key at a time, as the line editor asks after each
    /// key: a redraw of the whole entry is asked for only while it is
    /// short, so the keys past that cost no work that grows with the
    /// entry. Asking at every key made a 20 KB paste take minutes.
    #[test]
    fn typing_a_long_entry_redraws_it_a_bounded_number_of_times() {
        let helper = helper();
        let mut history = DefaultHistory::new();
        let line = format!("value Nim([{}1]) + (Heap(2))", "(1), ".repeat(40_000));
        // A hint would be drawn by redrawing the entry: give it one to find.
        let _ = history.add(&line);
        let ctx = Context::new(&history);
        let mut redraws = 0;
        let mut hints = 0;
        for (pos, _) in line.char_indices().skip(1) {
            let typed = &line[..pos];
            hints += usize::from(helper.hint(typed, pos, &ctx).is_some());
            redraws += usize::from(helper.highlight_char(typed, pos, CmdKind::Other));
        }
        assert!(line.len() > 200_000);
        // At most one for each key of the first kilobyte.
        assert!(hints <= 1025, "{hints} hints");
        assert!(redraws <= 1025, "{redraws} redraws");
        // Moving the cursor onto a bracket still shows its match.
        let open = line.len() - "(Heap(2))".len();
        assert!(helper.highlight_char(&line, open, CmdKind::MoveCursor));
        let shown = helper.highlight(&line, open);
        assert_eq!(shown.matches(BRACKET).count(), 2);
        assert!(shown.ends_with(&format!("{BRACKET}){RESET}")));
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// No line and no cursor position makes completion, hints,
        /// highlighting or validation slice a string inside a character.
        #[test]
        fn any_unicode_line_at_any_cursor_is_safe(
            prefix in prop::sample::select(vec!["", ":load ", ":help ", "let x = ", "game ", "value ", "\""]),
            line in "\\PC{0,30}|[a-zé🙂 ()\\[\\]{}\"\\\\/:=.,+\t\n\u{3000}\u{a0}]{0,30}",
            past in prop::collection::vec("\\PC{0,12}", 0..4),
        ) {
            let helper = helper();
            let mut history = DefaultHistory::new();
            for entry in &past {
                let _ = history.add(entry);
            }
            let line = format!("{prefix}{line}");
            let _ = history.add(&line);
            exercise(&helper, &history, &line);
        }
    }

    #[test]
    fn brackets_match_across_nesting() {
        let line = "value Nim([3, (5), 7])";
        let open = line.find('(').unwrap_or(0);
        assert_eq!(matching_bracket(line, open), Some((open, line.len() - 1)));
        let inner = line.find("(5").unwrap_or(0);
        assert_eq!(matching_bracket(line, inner + 2), Some((inner, inner + 2)));
    }
}
