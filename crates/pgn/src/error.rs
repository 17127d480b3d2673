//! Errors of the reader.

use std::fmt;
use std::io;

use crate::visitor::Location;

/// An error in one game (or an I/O error), with where it happened.
///
/// Displays as `game 12, line 340, column 17: unterminated comment`. The game
/// number is 1-based and counts every game the reader started, good or bad;
/// line and column are 1-based and the column counts characters (see
/// [`Location`]).
#[derive(Debug)]
pub struct PgnError {
    game: u64,
    location: Location,
    kind: ErrorKind,
}

impl PgnError {
    /// Makes an error; a layer above the reader (e.g. one that replays SAN)
    /// can use this to report its own problems in the same form.
    pub fn new(game: u64, location: Location, kind: ErrorKind) -> PgnError {
        PgnError { game, location, kind }
    }

    /// The 1-based number of the game in the input.
    pub fn game(&self) -> u64 {
        self.game
    }

    /// Where the problem is (for unterminated constructs: where they start).
    pub fn location(&self) -> Location {
        self.location
    }

    /// 1-based line.
    pub fn line(&self) -> u64 {
        self.location.line
    }

    /// 1-based column, in characters.
    pub fn column(&self) -> u64 {
        self.location.column
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Whether this is an I/O error (after which the reader stops) rather
    /// than a problem with one game's text (after which it goes on).
    pub fn is_io(&self) -> bool {
        matches!(self.kind, ErrorKind::Io(_))
    }
}

impl fmt::Display for PgnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}, {}: {}", self.game, self.location, self.kind)
    }
}

impl std::error::Error for PgnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// The reason of a [`PgnError`]. Texts quoted from the input are cut to a
/// few dozen characters.
#[derive(Debug)]
#[non_exhaustive]
pub enum ErrorKind {
    /// Reading the input failed; the reader stops.
    Io(io::Error),
    /// `{` without `}` before the end of input or before a line that starts
    /// like a tag pair (`[Name "`).
    UnterminatedComment,
    /// A tag value whose closing `"` is missing on its line.
    UnterminatedTagValue,
    /// A tag pair whose closing `]` is missing.
    UnterminatedTag,
    /// A tag name with a character other than ASCII letters, digits and `_`,
    /// or an empty one.
    InvalidTagName(String),
    /// No `"` where a tag value should start.
    MissingTagValue,
    /// `)` without a matching `(`.
    UnexpectedCloseParen,
    /// `(` whose `)` is missing when the game ends.
    UnterminatedVariation,
    /// A character that cannot start any movetext token.
    UnexpectedChar(char),
    /// `$` not followed by a number from 0 to 255.
    InvalidNag(String),
    /// A run of `!`/`?` other than `!`, `?`, `!!`, `??`, `!?`, `?!`.
    InvalidAnnotation(String),
    /// A token starting with a digit that is neither a move number, a
    /// result, nor castling with zeros.
    InvalidToken(String),
    /// A piece drop like `N@f6` (Crazyhouse and similar variants).
    CrazyhouseDrop(String),
    /// A comment, tag or token longer than the reader's limit, in bytes.
    TooLarge {
        /// What was too large: `"comment"`, `"tag"` or `"token"`.
        what: &'static str,
        /// The limit in bytes.
        limit: usize,
    },
    /// Variations nested deeper than the limit.
    TooDeep {
        /// The maximum depth.
        limit: usize,
    },
    /// A problem found by a layer above the syntax (e.g. an illegal move).
    Other(String),
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::Io(e) => write!(f, "I/O error: {e}"),
            ErrorKind::UnterminatedComment => f.write_str("unterminated comment"),
            ErrorKind::UnterminatedTagValue => f.write_str("unterminated tag value"),
            ErrorKind::UnterminatedTag => f.write_str("unterminated tag (missing ']')"),
            ErrorKind::InvalidTagName(name) => write!(f, "invalid tag name '{name}'"),
            ErrorKind::MissingTagValue => f.write_str("missing tag value (expected '\"')"),
            ErrorKind::UnexpectedCloseParen => f.write_str("unexpected ')'"),
            ErrorKind::UnterminatedVariation => f.write_str("unterminated variation (missing ')')"),
            ErrorKind::UnexpectedChar(c) => {
                write!(f, "unexpected character '{}'", c.escape_debug())
            }
            ErrorKind::InvalidNag(t) => write!(f, "invalid NAG '{t}'"),
            ErrorKind::InvalidAnnotation(t) => write!(f, "invalid annotation '{t}'"),
            ErrorKind::InvalidToken(t) => write!(f, "invalid token '{t}'"),
            ErrorKind::CrazyhouseDrop(t) => {
                write!(f, "crazyhouse drop '{t}' is not standard chess")
            }
            ErrorKind::TooLarge { what, limit } => write!(f, "{what} longer than {limit} bytes"),
            ErrorKind::TooDeep { limit } => write!(f, "variations nested deeper than {limit}"),
            ErrorKind::Other(t) => f.write_str(t),
        }
    }
}

/// Input text for an error message: lossy UTF-8, at most 40 characters.
pub(crate) fn excerpt(bytes: &[u8]) -> String {
    const MAX: usize = 40;
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text.chars().take(MAX).collect();
    if text.chars().nth(MAX).is_some() {
        out.push('…');
    }
    out
}
