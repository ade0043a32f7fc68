//! Errors as plain data: what went wrong and where. Nothing here knows about
//! terminals or colour; `diagnostic` turns these into miette reports.

use crate::source::Span;
use thiserror::Error as ThisError;

/// One mistake found in a file, a position or a running rule. Boxed, so
/// that the `Result`s carrying it stay small on the interpreter's hot path.
#[derive(Clone, Debug, PartialEq)]
pub struct Error(Box<ErrorData>);

#[derive(Clone, Debug, PartialEq)]
pub struct ErrorData {
    pub kind: ErrorKind,
    /// Where the mistake is.
    pub span: Span,
    /// Other places that explain it, each with a label.
    pub related: Vec<(Span, String)>,
    /// What was being done when the mistake was found, innermost first
    /// (for example "finding the moves of Heap(3) by rule `take`").
    pub context: Vec<String>,
}

/// How many positions of a long loop are shown at each end.
const CYCLE_ENDS: usize = 5;

/// A loop of positions joined by ` -> `, shortened to its first and last
/// few with the number of moves, so that a loop of a million positions is
/// one line rather than megabytes.
fn shown_cycle(cycle: &str) -> String {
    let steps = cycle_steps(cycle);
    if steps.len() <= 2 * CYCLE_ENDS + 1 {
        return cycle.to_string();
    }
    let first = steps[..CYCLE_ENDS].join(" -> ");
    let last = steps[steps.len() - CYCLE_ENDS..].join(" -> ");
    format!(
        "{first} -> ... -> {last} ({} moves in all)",
        steps.len() - 1
    )
}

/// The positions of a loop: split at each ` -> ` that is not inside a
/// string (a position such as `S("a -> b")` keeps its arrow).
fn cycle_steps(cycle: &str) -> Vec<&str> {
    let mut steps = Vec::new();
    let mut start = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in cycle.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if in_string => escaped = true,
            '"' => in_string = !in_string,
            ' ' if !in_string && cycle[i..].starts_with(" -> ") && i >= start => {
                steps.push(&cycle[start..i]);
                start = i + " -> ".len();
            }
            _ => {}
        }
    }
    steps.push(&cycle[start..]);
    steps
}

impl std::ops::Deref for Error {
    type Target = ErrorData;
    fn deref(&self) -> &ErrorData {
        &self.0
    }
}

impl std::ops::DerefMut for Error {
    fn deref_mut(&mut self) -> &mut ErrorData {
        &mut self.0
    }
}

impl Error {
    pub fn new(kind: ErrorKind, span: Span) -> Error {
        Error(Box::new(ErrorData {
            kind,
            span,
            related: Vec::new(),
            context: Vec::new(),
        }))
    }

    /// The same error pointing somewhere else.
    pub fn at(mut self, span: Span) -> Error {
        self.span = span;
        self
    }

    pub fn with_related(mut self, span: Span, label: impl Into<String>) -> Error {
        self.related.push((span, label.into()));
        self
    }

    pub fn with_context(mut self, context: impl Into<String>) -> Error {
        self.context.push(context.into());
        self
    }
}

/// Every kind of mistake, named for what the user wrote or asked.
#[derive(Clone, Debug, PartialEq, ThisError)]
pub enum ErrorKind {
    #[error("syntax error: expected {expected}, found {found}")]
    Syntax {
        expected: String,
        found: String,
        /// Advice for a mistake recognised from its look, such as `&&`.
        hint: Option<String>,
    },
    #[error("the number {text} is too large (the largest is {max})", max = i64::MAX)]
    NumberTooLarge { text: String },
    #[error("this is nested too deeply ({depth} levels; the limit is {limit})")]
    NestedTooDeeply { depth: usize, limit: usize },
    #[error("`{code}` is not a take-and-break code: {reason}")]
    BadOctalCode { code: String, reason: String },
    #[error("unknown escape `\\{found}` in a string")]
    BadEscape { found: char },

    #[error("unknown {what} `{name}`")]
    UnknownName {
        what: &'static str,
        name: String,
        suggestion: Option<String>,
    },
    #[error("`{name}` is defined twice")]
    Duplicate { name: String },
    #[error("{what} `{name}` takes {expected} argument{s}, but {found} {were} given", s = plural(expected), were = if *found == 1 { "was" } else { "were" })]
    WrongArity {
        what: &'static str,
        name: String,
        expected: String,
        found: usize,
        /// How it is called, such as `f(a: nat, b: nat)`.
        signature: String,
    },
    #[error("expected {expected}, found {found}")]
    WrongType {
        expected: String,
        found: String,
        /// The built-in that turns the one into the other, where one does.
        hint: Option<String>,
    },
    #[error("this pattern takes {names} elements apart, but the value is a tuple of {found}")]
    PatternArity {
        names: usize,
        found: usize,
        /// The tuple's type, such as `(nat, str)`.
        ty: String,
    },
    #[error("this `let` stands for an expression of more than {limit} parts")]
    LetTooLarge { limit: usize },
    #[error("comparisons do not chain")]
    ChainedComparison,
    #[error("a move must lead to a position, but this is {found}")]
    NotAPosition { found: String },
    #[error("expected a position, such as `Nim([3, 5, 7])` or `Kayles(4) + Kayles(6)`, but this is {found}")]
    ExpectedPosition { found: String },
    #[error("game parameter `{name}` needs a type")]
    MissingType { name: String },
    #[error("`{name}` asks the solver, which only claims and queries may do")]
    QueryOutsideClaim { name: String },
    #[error("game `{name}` has neither moves nor parts")]
    EmptyGame { name: String },

    #[error("arithmetic overflow: {detail}")]
    Overflow { detail: String },
    #[error("division by zero")]
    DivisionByZero,
    #[error("a negative power: {base} ** {exponent}")]
    NegativeExponent { base: i64, exponent: i64 },
    #[error("`{lhs}^{rhs}` is {value}: `^` is exclusive or, not a power")]
    XorOfNumbers { lhs: i64, rhs: i64, value: i64 },
    #[error("`{name}` must be a natural number, but it is {value}")]
    Negative { name: String, value: i64 },
    #[error("index {index} is out of range for a {what} of length {len}")]
    IndexOutOfRange {
        index: i64,
        len: usize,
        what: &'static str,
    },
    /// `cycle` is every position of the loop, joined by ` -> `; a long
    /// one is shown by its ends.
    #[error("the rules loop: {}", shown_cycle(cycle))]
    Cycle { cycle: String },
    #[error("{detail}")]
    BadValue { detail: String },
    /// A question only finite games answer, asked of a position of a
    /// loopy game or of one whose play can reach one.
    #[error("from {position} play reaches the loopy game `{game}`, whose values are generalised ones, which this question does not handle")]
    LoopyNotHandled { position: String, game: String },
    #[error("misère play of the loopy game `{game}` is out of scope")]
    LoopyMisere { game: String },
    /// `value(p)` of a position whose value is infinite, or `infinite(p)`
    /// of one whose value is a number.
    #[error("the value of {position} is {value}, {what}")]
    ValueKind {
        position: String,
        value: String,
        what: &'static str,
    },
    #[error("game `{game}` has a `lose if` rule, so it cannot be part of a sum")]
    TerminalInSum { game: String },
    #[error("game `{game}` has a `lose if` rule, so it cannot be declared a sum of parts")]
    LoseWithParts { game: String },
    #[error("{from} can lead to {reached}, and game `{game}` has a `lose if` rule, so {from} cannot be part of a sum")]
    TerminalReachedInSum {
        from: String,
        reached: String,
        game: String,
    },
    #[error("the decomposition of `{game}` is wrong at {position}: its parts give the value {decomposed}, {whole} gives {searched}")]
    DecompositionWrong {
        game: String,
        position: String,
        /// What was searched instead of the parts.
        whole: String,
        decomposed: u32,
        searched: u32,
    },
    #[error("`symmetry =` lists positions of `{game}` itself, but this is {found}")]
    SymmetryNotImage { game: String, found: String },
    #[error("the symmetry of `{game}` does not come back round: {position} has more than {limit} images")]
    SymmetryOrbit {
        game: String,
        position: String,
        limit: usize,
    },
    #[error("the symmetry of `{game}` is wrong at {position}: it has the value {value}, but its image {image} has the value {image_value}")]
    SymmetryWrong {
        game: String,
        position: String,
        image: String,
        value: u32,
        image_value: u32,
    },
    #[error("{what} is too large: {size} (the limit is {limit})")]
    TooLarge {
        what: String,
        size: String,
        limit: String,
    },
    #[error("interrupted")]
    Interrupted,
    #[error("stopped: the time limit of {seconds} s ran out")]
    TimeLimit { seconds: f64 },
    #[error("the search needs more than {limit} positions")]
    StateLimit { limit: usize },
    #[error("a position has more than {limit} options")]
    OptionLimit { limit: usize },
    #[error("helper functions call each other too deeply (more than {limit} calls)")]
    RecursionTooDeep { limit: usize },
    #[error("stopped: this command needs more than {mib} MiB of memory")]
    MemoryLimit { mib: usize },
    #[error("game `{game}` expands into games given by expressions too deeply (more than {limit} levels)")]
    ExpansionTooDeep { game: String, limit: usize },
    #[error("the games given by expressions stand for each other without end: {cycle}")]
    AliasLoop { cycle: String },
    #[error("this position holds games inside games too deeply (more than {limit} levels)")]
    PositionTooDeep { limit: usize },

    #[error("claim failed{detail}")]
    ClaimFailed { detail: String },
    #[error("`{name}` is not a game with one natural-number parameter")]
    NotAHeapGame { name: String },
    #[error("`_` stands for a free number only in a table, as a whole argument of the game")]
    PlaceholderOutsideTable,
    #[error("`{position}` has no `_` for the table to run over")]
    NoPlaceholder { position: String },
    #[error("a table runs over one or two numbers, but {count} arguments are `_`")]
    TooManyPlaceholders { count: usize },
    #[error(
        "`_` stands for parameter `{param}` of `{game}`, which is `{ty}`, not a natural number"
    )]
    PlaceholderNotNat {
        game: String,
        param: String,
        ty: String,
    },
    #[error("a table of {free} runs to `--upto {expected}`, not `--upto {found}`")]
    WrongUpto {
        free: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("the checkpoint `{path}` cannot be used: {reason}")]
    BadCheckpoint { path: String, reason: String },
    #[error("the files import each other in a loop: {cycle}")]
    ImportCycle { cycle: String },
    #[error("cannot import `{path}`: {reason}")]
    ImportUnreadable { path: String, reason: String },
    #[error("cannot {doing} `{path}`: {reason}")]
    Io {
        /// "read" or "write".
        doing: &'static str,
        path: String,
        reason: String,
    },
}

fn plural(expected: &str) -> &'static str {
    if expected == "1" {
        ""
    } else {
        "s"
    }
}

impl ErrorKind {
    /// Whether this is only a warning: shown, but nothing stops for it.
    pub fn is_warning(&self) -> bool {
        matches!(self, ErrorKind::XorOfNumbers { .. })
    }

    /// A stable name for the kind, shown as `grundy::<code>`.
    pub fn code(&self) -> &'static str {
        match self {
            ErrorKind::Syntax { .. } => "syntax",
            ErrorKind::NumberTooLarge { .. } => "number-too-large",
            ErrorKind::NestedTooDeeply { .. } => "nested-too-deeply",
            ErrorKind::BadOctalCode { .. } => "bad-octal-code",
            ErrorKind::BadEscape { .. } => "bad-escape",
            ErrorKind::UnknownName { .. } => "unknown-name",
            ErrorKind::Duplicate { .. } => "duplicate",
            ErrorKind::WrongArity { .. } => "wrong-arity",
            ErrorKind::PatternArity { .. } => "pattern-arity",
            ErrorKind::LetTooLarge { .. } => "let-too-large",
            ErrorKind::WrongType { .. } => "wrong-type",
            ErrorKind::ChainedComparison => "chained-comparison",
            ErrorKind::NegativeExponent { .. } => "negative-exponent",
            ErrorKind::XorOfNumbers { .. } => "xor-of-numbers",
            ErrorKind::NotAPosition { .. } => "not-a-position",
            ErrorKind::ExpectedPosition { .. } => "expected-position",
            ErrorKind::MissingType { .. } => "missing-type",
            ErrorKind::QueryOutsideClaim { .. } => "query-outside-claim",
            ErrorKind::EmptyGame { .. } => "empty-game",
            ErrorKind::Overflow { .. } => "overflow",
            ErrorKind::DivisionByZero => "division-by-zero",
            ErrorKind::Negative { .. } => "negative",
            ErrorKind::IndexOutOfRange { .. } => "index-out-of-range",
            ErrorKind::Cycle { .. } => "cycle",
            ErrorKind::BadValue { .. } => "bad-value",
            ErrorKind::LoopyNotHandled { .. } => "loopy-not-handled",
            ErrorKind::LoopyMisere { .. } => "loopy-misere",
            ErrorKind::ValueKind { .. } => "value-kind",
            ErrorKind::TerminalInSum { .. } => "terminal-in-sum",
            ErrorKind::LoseWithParts { .. } => "lose-with-parts",
            ErrorKind::TerminalReachedInSum { .. } => "terminal-in-sum",
            ErrorKind::DecompositionWrong { .. } => "decomposition-wrong",
            ErrorKind::SymmetryNotImage { .. } => "symmetry-not-an-image",
            ErrorKind::SymmetryOrbit { .. } => "symmetry-orbit",
            ErrorKind::SymmetryWrong { .. } => "symmetry-wrong",
            ErrorKind::TooLarge { .. } => "too-large",
            ErrorKind::RecursionTooDeep { .. } => "recursion-too-deep",
            ErrorKind::MemoryLimit { .. } => "memory-limit",
            ErrorKind::ExpansionTooDeep { .. } => "expansion-too-deep",
            ErrorKind::AliasLoop { .. } => "alias-loop",
            ErrorKind::PositionTooDeep { .. } => "position-too-deep",
            ErrorKind::StateLimit { .. } => "state-limit",
            ErrorKind::OptionLimit { .. } => "option-limit",
            ErrorKind::Interrupted => "interrupted",
            ErrorKind::TimeLimit { .. } => "time-limit",
            ErrorKind::ClaimFailed { .. } => "claim-failed",
            ErrorKind::NotAHeapGame { .. } => "not-a-heap-game",
            ErrorKind::PlaceholderOutsideTable => "placeholder-outside-table",
            ErrorKind::NoPlaceholder { .. } => "no-placeholder",
            ErrorKind::TooManyPlaceholders { .. } => "too-many-placeholders",
            ErrorKind::PlaceholderNotNat { .. } => "placeholder-not-nat",
            ErrorKind::WrongUpto { .. } => "wrong-upto",
            ErrorKind::BadCheckpoint { .. } => "bad-checkpoint",
            ErrorKind::ImportCycle { .. } => "import-cycle",
            ErrorKind::ImportUnreadable { .. } => "import-unreadable",
            ErrorKind::Io { .. } => "io",
        }
    }

    /// A short label for the span.
    pub fn label(&self) -> String {
        match self {
            ErrorKind::Syntax { expected, .. } => format!("expected {expected}"),
            ErrorKind::NumberTooLarge { .. } => "this number".into(),
            ErrorKind::NestedTooDeeply { .. } => "nesting starts here".into(),
            ErrorKind::BadOctalCode { .. } => "this code".into(),
            ErrorKind::BadEscape { .. } => "this escape".into(),
            ErrorKind::UnknownName { what, .. } => format!("no {what} has this name"),
            ErrorKind::Duplicate { .. } => "defined again here".into(),
            ErrorKind::WrongArity { .. } => "this call".into(),
            ErrorKind::PatternArity { names, .. } => format!("{names} names here"),
            ErrorKind::LetTooLarge { .. } => "this `let`".into(),
            ErrorKind::WrongType { found, .. } => format!("this is {found}"),
            ErrorKind::ChainedComparison => "a comparison of a comparison".into(),
            ErrorKind::NegativeExponent { .. } => "this power".into(),
            ErrorKind::XorOfNumbers { value, .. } => format!("this is {value}"),
            ErrorKind::NotAPosition { .. } => "this result".into(),
            ErrorKind::ExpectedPosition { .. } => "not a position".into(),
            ErrorKind::MissingType { .. } => "this parameter".into(),
            ErrorKind::QueryOutsideClaim { .. } => "asked here".into(),
            ErrorKind::EmptyGame { .. } => "this game".into(),
            ErrorKind::Overflow { .. } => "overflows here".into(),
            ErrorKind::DivisionByZero => "divides by zero".into(),
            ErrorKind::Negative { .. } => "negative here".into(),
            ErrorKind::IndexOutOfRange { .. } => "this index".into(),
            ErrorKind::Cycle { .. } => "this rule makes the loop".into(),
            ErrorKind::BadValue { .. } => "here".into(),
            ErrorKind::LoopyNotHandled { .. } | ErrorKind::LoopyMisere { .. } => {
                "this position".into()
            }
            ErrorKind::ValueKind { .. } => "this value".into(),
            ErrorKind::TerminalInSum { .. } => "this sum".into(),
            ErrorKind::LoseWithParts { .. } => "these parts".into(),
            ErrorKind::TerminalReachedInSum { .. } => "this sum".into(),
            ErrorKind::DecompositionWrong { .. } => "the declared decomposition".into(),
            ErrorKind::SymmetryNotImage { .. } => "not a position of this game".into(),
            ErrorKind::SymmetryOrbit { .. } | ErrorKind::SymmetryWrong { .. } => {
                "the declared symmetry".into()
            }
            ErrorKind::TooLarge { .. } => "here".into(),
            ErrorKind::RecursionTooDeep { .. } => "this call".into(),
            ErrorKind::MemoryLimit { .. } => "still building this".into(),
            ErrorKind::ExpansionTooDeep { .. } => "this expansion".into(),
            ErrorKind::AliasLoop { .. } => "the first game of the loop stands for this".into(),
            ErrorKind::PositionTooDeep { .. } => "the position that went over the limit".into(),
            ErrorKind::StateLimit { .. } => "the position that went over the limit".into(),
            ErrorKind::OptionLimit { .. } => "the option that went over the limit".into(),
            ErrorKind::Interrupted => "stopped here".into(),
            ErrorKind::TimeLimit { .. } => "still working on this".into(),
            ErrorKind::ClaimFailed { .. } => "this claim".into(),
            ErrorKind::NotAHeapGame { .. } => "this game".into(),
            ErrorKind::PlaceholderOutsideTable => "a free number here".into(),
            ErrorKind::NoPlaceholder { .. } => "every argument is fixed".into(),
            ErrorKind::TooManyPlaceholders { .. } => "one `_` too many".into(),
            ErrorKind::PlaceholderNotNat { .. } => "this `_`".into(),
            ErrorKind::WrongUpto { .. } => "this table".into(),
            ErrorKind::BadCheckpoint { .. } => "here".into(),
            ErrorKind::ImportCycle { .. } => "this import closes the loop".into(),
            ErrorKind::ImportUnreadable { .. } => "this file".into(),
            ErrorKind::Io { .. } => "here".into(),
        }
    }

    /// Advice on how to put it right.
    pub fn help(&self) -> Option<String> {
        match self {
            ErrorKind::Syntax { hint, .. } => hint.clone(),
            ErrorKind::NumberTooLarge { .. } => {
                Some("numbers are 64-bit; a game this large could not be searched anyway".into())
            }
            ErrorKind::NestedTooDeeply { .. } => {
                Some("split the expression with a helper function".into())
            }
            ErrorKind::BadOctalCode { .. } => Some(
                "a code is a digit, a point and digits, such as 0.77 (Kayles), 4!.0 (Grundy's game) or 0.[3] (Nim)"
                    .into(),
            ),
            ErrorKind::BadEscape { .. } => Some("strings know \\\" \\\\ \\n and \\t".into()),
            ErrorKind::UnknownName { suggestion, what, .. } => Some(match suggestion {
                Some(s) => format!("did you mean `{s}`?"),
                // The REPL's own words are listed rather than defined.
                None if *what == "command" => "`:help` lists the commands".into(),
                None if *what == "help topic" => "`:help` lists the commands and topics".into(),
                None => format!("define the {what} before using it, or check the spelling"),
            }),
            ErrorKind::Duplicate { .. } => Some("rename one of them".into()),
            ErrorKind::WrongArity { signature, .. } => Some(format!("it is called as {signature}")),
            ErrorKind::PatternArity { found, ty, .. } => Some(format!(
                "each element of `{ty}` needs a name here: write {found} names, or one name for the whole tuple"
            )),
            ErrorKind::LetTooLarge { .. } => Some(
                "a `let` name is replaced by its expression wherever it is used, and each name here uses the one before several times: compute the value in a helper function instead".into(),
            ),
            ErrorKind::WrongType { hint, .. } => hint.clone(),
            ErrorKind::ChainedComparison => {
                Some("write `a < b and b < c` rather than `a < b < c`".into())
            }
            ErrorKind::NegativeExponent { .. } => {
                Some("numbers are whole: an exponent must be 0 or more".into())
            }
            ErrorKind::XorOfNumbers { lhs, rhs, .. } => Some(format!(
                "for a power write `{lhs} ** {rhs}`; to keep the exclusive or and silence this, write `({lhs})^{rhs}`"
            )),
            ErrorKind::NotAPosition { .. } => Some(
                "write a game applied to arguments, such as `Heap(n - k)`, a sum such as `Heap(a) + Heap(b)`, or a list of positions".into(),
            ),
            ErrorKind::ExpectedPosition { .. } => {
                Some("a position is a game applied to its arguments, or a sum of them".into())
            }
            ErrorKind::MissingType { .. } => Some(
                "write `name: nat`, `name: [nat]`, `name: str`, ... so positions can be checked"
                    .into(),
            ),
            ErrorKind::QueryOutsideClaim { .. } => Some(
                "move rules and helpers must not ask for values; put the question in a `claim`"
                    .into(),
            ),
            ErrorKind::EmptyGame { .. } => Some(
                "add a rule such as `move take(k in 1..=n) => Heap(n - k);`".into(),
            ),
            ErrorKind::Overflow { .. } => Some("numbers are 64-bit and never wrap".into()),
            ErrorKind::DivisionByZero => None,
            ErrorKind::Negative { .. } => Some(
                "a `nat` is never negative; if a move made it so, guard the move (for example `if k <= n`)"
                    .into(),
            ),
            ErrorKind::IndexOutOfRange { .. } => Some("indices start at 0".into()),
            ErrorKind::Cycle { .. } => Some(
                "games must be finite: every move must lead closer to the end; a game whose positions may repeat is declared `loopy game Name(...) { ... }`, and then gets generalised values and draws".into(),
            ),
            ErrorKind::BadValue { .. } => None,
            ErrorKind::LoopyNotHandled { .. } => Some(
                "`value`, `outcome`, `moves`, `explain`, `play` and claims handle loopy games; this question is for finite games only".into(),
            ),
            ErrorKind::LoopyMisere { .. } => Some(
                "generalised values and draws describe normal play (whoever cannot move loses); ask the outcome without misère".into(),
            ),
            ErrorKind::ValueKind { .. } => Some(
                "`value(p)` is a finite value, `infinite(p)` the set of an infinite one: claim `value(p) == 3`, `infinite(p) == {0, 2}` for ∞{0,2}, or `outcome(p) == \"D\"`".into(),
            ),
            ErrorKind::TerminalInSum { .. } | ErrorKind::TerminalReachedInSum { .. } => Some(
                "a `lose if` rule ends the whole game, so the parts are not independent; ask about the game on its own".into(),
            ),
            ErrorKind::LoseWithParts { .. } => Some(
                "the parts would be valued on their own, and the `lose if` rule never looked at; drop `parts =`, or move the condition into the parts' games".into(),
            ),
            ErrorKind::DecompositionWrong { .. } => Some(
                "a value is the mex of the values of the position's moves; the parts must give that value on every position, so the `parts =` (or alias) or the move rules are wrong".into(),
            ),
            ErrorKind::SymmetryNotImage { game, .. } => Some(format!(
                "an image is the same position seen another way: a position of `{game}` itself, made from its arguments turned, reflected or reversed, listed as `symmetry = [{game}(...), ...];`"
            )),
            ErrorKind::SymmetryOrbit { .. } => Some(
                "the images of a position, their images and so on must come back to it (a board turned or reflected does, after at most 8 steps); does an image change the position in a way that never repeats?".into(),
            ),
            ErrorKind::SymmetryWrong { .. } => Some(
                "an image must be the same position seen another way (turned, reflected, reversed), so of the same value on every position; the `symmetry =` rule or the move rules are wrong".into(),
            ),
            ErrorKind::TooLarge { .. } => None,
            ErrorKind::Interrupted => None,
            ErrorKind::TimeLimit { .. } => Some(
                "give it longer with --timeout SECONDS, or ask about a smaller position or range".into(),
            ),
            ErrorKind::StateLimit { .. } => Some(
                "if the game is finite but large, raise the limit with --max-states; if a move can always be followed by another (an infinite game), the search would never end".into(),
            ),
            ErrorKind::OptionLimit { .. } => Some(
                "--max-states bounds the options of one position as well as the positions a search makes: raise it if the game has that many moves; a rule that walks a variable its guard and result never read lists the same move once for each value".into(),
            ),
            ErrorKind::RecursionTooDeep { .. } => {
                Some("does the helper call itself without getting closer to a base case?".into())
            }
            ErrorKind::MemoryLimit { .. } => Some(
                "give it more with --max-memory MIB, or build less: a smaller range, or a sum or count instead of a list".into(),
            ),
            ErrorKind::ExpansionTooDeep { .. } => Some(
                "a game given by `=` or `parts =` must end in games with moves; does it call itself without getting closer to a base case?".into(),
            ),
            ErrorKind::AliasLoop { .. } => Some(
                "a game given by `=` stands for another position; at least one game on this loop needs moves of its own, or a branch that leaves the loop".into(),
            ),
            ErrorKind::PositionTooDeep { .. } => Some(
                "a move that wraps the position in another game every time never ends; does a move put a game inside a game without a bound?".into(),
            ),
            ErrorKind::ClaimFailed { .. } => None,
            ErrorKind::NotAHeapGame { .. } => Some(
                "`table` needs a game such as `game Heap(n: nat) { ... }` or an octal game, or a position with `_` for the free number, such as `Subtract({1, 4, 5}, _)`"
                    .into(),
            ),
            ErrorKind::PlaceholderOutsideTable => Some(
                "`_` marks the heap a table runs over, as in `table Subtract({1, 4, 5}, _)`; anywhere else write the number itself"
                    .into(),
            ),
            ErrorKind::NoPlaceholder { .. } => Some(
                "write `_` for the argument the table runs over, as in `Subtract({1, 4, 5}, _)`; two `_` make a 2-D table, as in `Wythoff(_, _)`"
                    .into(),
            ),
            ErrorKind::TooManyPlaceholders { .. } => {
                Some("give all but one or two of the arguments a value".into())
            }
            ErrorKind::PlaceholderNotNat { param, .. } => Some(format!(
                "a table runs over `nat` parameters only; give `{param}` a value"
            )),
            ErrorKind::WrongUpto { expected, .. } => Some(format!(
                "write `--upto {expected}`, such as `--upto {}`",
                if expected.contains('x') { "10x10" } else { "30" }
            )),
            ErrorKind::BadCheckpoint { .. } => Some(
                "a checkpoint is used only when it is whole and was made for this very definition of the game; delete it, or name another file, to start again".into(),
            ),
            ErrorKind::ImportCycle { .. } => Some(
                "a file cannot import a file that imports it back; move what both need into a third file that each of them imports".into(),
            ),
            ErrorKind::ImportUnreadable { .. } => Some(
                "the path in `use` is relative to the folder of the file that holds it".into(),
            ),
            ErrorKind::Io { .. } => None,
        }
    }
}

/// Several errors found together (a file can hold many mistakes).
pub type Errors = Vec<Error>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_loop_is_shown_whole() {
        let cycle = "Loop(2) -> Loop(3) -> Loop(2)".to_string();
        assert_eq!(
            ErrorKind::Cycle { cycle }.to_string(),
            "the rules loop: Loop(2) -> Loop(3) -> Loop(2)"
        );
    }

    /// The loop `name(0) -> name(1) -> ... -> name(n - 1) -> name(0)`.
    fn ring(n: usize, name: impl Fn(usize) -> String) -> Vec<String> {
        (0..n).chain([0]).map(name).collect()
    }

    #[test]
    fn a_long_loop_is_shown_by_its_ends_and_its_length() {
        let cycle = ring(1_000_000, |n| format!("L({n})")).join(" -> ");
        assert_eq!(
            ErrorKind::Cycle { cycle }.to_string(),
            "the rules loop: L(0) -> L(1) -> L(2) -> L(3) -> L(4) -> ... -> L(999996) -> L(999997) -> L(999998) -> L(999999) -> L(0) (1000000 moves in all)"
        );
    }

    #[test]
    fn an_arrow_inside_a_string_is_part_of_its_position() {
        let steps = ring(20, |n| format!("S(\"{n} -> \\\" -> \")"));
        let cycle = steps.join(" -> ");
        assert_eq!(cycle_steps(&cycle), steps);
        let shown = ErrorKind::Cycle { cycle }.to_string();
        assert!(
            shown.ends_with(r#"S("0 -> \" -> ") (20 moves in all)"#),
            "{shown}"
        );
    }
}
