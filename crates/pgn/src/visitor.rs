//! The event interface between the [`Reader`](crate::Reader) and whoever
//! consumes games, plus the small value types it hands out.

use std::fmt;
use std::str::FromStr;

/// A position in the input, for messages.
///
/// `line` and `column` are 1-based; the column counts **characters** from
/// the start of the line (a tab or a Chinese character advances it by one; in
/// text that is not UTF-8, read as ISO-8859-1, each byte is a character), as
/// an editor shows it. `offset` is the 0-based **byte** offset from the start
/// of the stream (a UTF-8 byte order mark counts as three bytes there, but
/// not in the column).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Location {
    /// 1-based line number.
    pub line: u64,
    /// 1-based column within the line, in characters.
    pub column: u64,
    /// 0-based byte offset within the whole input.
    pub offset: u64,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, column {}", self.line, self.column)
    }
}

/// Whether the reader should skip what comes next (returned by
/// [`Visitor::begin_movetext`] and [`Visitor::begin_variation`]).
///
/// `Skip(true)` skips; `Skip(false)` reads on. Skipped text is still scanned
/// (to find where it ends) but produces no calls and no UTF-8 decoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Skip(pub bool);

/// The game termination marker of PGN movetext.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0`
    WhiteWins,
    /// `0-1`
    BlackWins,
    /// `1/2-1/2`
    Draw,
    /// `*`: game unfinished, abandoned or result unknown.
    Unknown,
}

impl GameResult {
    /// The PGN token: `1-0`, `0-1`, `1/2-1/2` or `*`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Error of [`GameResult::from_str`]: the text is none of the four tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseGameResultError;

impl fmt::Display for ParseGameResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not a game result (expected 1-0, 0-1, 1/2-1/2 or *)")
    }
}

impl std::error::Error for ParseGameResultError {}

impl FromStr for GameResult {
    type Err = ParseGameResultError;

    /// Parses exactly `1-0`, `0-1`, `1/2-1/2` or `*` (no surrounding space).
    fn from_str(s: &str) -> Result<GameResult, ParseGameResultError> {
        match s {
            "1-0" => Ok(GameResult::WhiteWins),
            "0-1" => Ok(GameResult::BlackWins),
            "1/2-1/2" => Ok(GameResult::Draw),
            "*" => Ok(GameResult::Unknown),
            _ => Err(ParseGameResultError),
        }
    }
}

/// Receives the events of one game at a time, in input order (like a SAX
/// parser). Every method but [`end_game`](Visitor::end_game) has an empty
/// default, so a visitor implements only what it needs.
///
/// For each game the [`Reader`](crate::Reader) calls:
///
/// 1. [`begin_game`](Visitor::begin_game) — reset per-game state here;
/// 2. [`tag`](Visitor::tag) for each tag pair, in input order;
/// 3. [`begin_movetext`](Visitor::begin_movetext) once (also for games
///    without tags or without moves); returning `Skip(true)` skips the rest
///    of the game cheaply: nothing else is called until `end_game`;
/// 4. [`san`](Visitor::san), [`nag`](Visitor::nag),
///    [`comment`](Visitor::comment), [`begin_variation`](Visitor::begin_variation)
///    and [`end_variation`](Visitor::end_variation) in movetext order, then
///    [`outcome`](Visitor::outcome) if the game has a result token;
/// 5. [`end_game`](Visitor::end_game), whose value `read_game` returns.
///
/// If the game has a syntax error, the calls stop at the error, `end_game` is
/// **not** called, and `read_game` returns the error instead; the next
/// `begin_game` must therefore reset any state.
///
/// Strings are borrowed from the reader's buffer and valid only during the
/// call. Text that is not valid UTF-8 is decoded as ISO-8859-1 (Latin-1, the
/// PGN standard's own character set).
pub trait Visitor {
    /// What [`end_game`](Visitor::end_game) produces for each game.
    type Output;

    /// A game starts.
    fn begin_game(&mut self) {}

    /// A tag pair `[name "value"]`. `name` is ASCII letters, digits and `_`
    /// (any case); `value` is unescaped (`\"` → `"`, `\\` → `\`).
    fn tag(&mut self, _name: &str, _value: &str) {}

    /// The tag section is over (it may have been empty).
    fn begin_movetext(&mut self) -> Skip {
        Skip(false)
    }

    /// A move token in standard algebraic notation, as written, with check
    /// (`+`) and mate (`#`) marks kept but suffix annotations (`!`, `?`, …)
    /// removed — those follow as [`nag`](Visitor::nag) calls. Castling written
    /// with zeros (`0-0`, `0-0-0`) is handed out with letter O (`O-O`,
    /// `O-O-O`). A null move, written `--`, `Z0`, `0000` or `@@@@`, is the
    /// token `--` ([`NULL_MOVE`](crate::NULL_MOVE)). Other text, including UCI
    /// moves (`g1f3`) and non-ASCII piece letters (`马f3`), is passed through
    /// untouched; whether it is a legal move is for the caller to decide (see
    /// [`replay`](crate::replay)). `at` is where the token starts.
    fn san(&mut self, _san: &str, _at: Location) {}

    /// A numeric annotation glyph: `$n`, or a suffix annotation mapped to its
    /// NAG (`!` 1, `?` 2, `!!` 3, `??` 4, `!?` 5, `?!` 6). Follows the move it
    /// annotates.
    fn nag(&mut self, _nag: u8) {}

    /// A comment: the text between `{` and `}` (untrimmed, may span lines),
    /// or after `;` up to the end of the line (without the line break).
    fn comment(&mut self, _text: &str) {}

    /// `(` — a variation starts; it is an alternative to the last move
    /// handed out. Return `Skip(true)` to skip it and everything nested in it
    /// (then no `end_variation` follows for it).
    fn begin_variation(&mut self) -> Skip {
        Skip(false)
    }

    /// `)` — the innermost variation that was not skipped ends.
    fn end_variation(&mut self) {}

    /// The game's result token. Not called when the movetext ends without
    /// one (at end of input or at the next game's tag section).
    fn outcome(&mut self, _result: GameResult) {}

    /// The game ended without error.
    fn end_game(&mut self) -> Self::Output;
}
