//! The PGN `TimeControl` tag: parsing, writing and errors.
//!
//! Standard forms (PGN standard, section 9.6.1), amounts in whole seconds:
//!
//! | tag                  | meaning                                        |
//! |----------------------|------------------------------------------------|
//! | `?`                  | unknown ([`TimeControlTag::Unknown`])          |
//! | `-`                  | no time control ([`TimeControl::Unlimited`])   |
//! | `300`                | sudden death                                   |
//! | `300+2`              | Fischer increment                              |
//! | `40/5400`            | moves/seconds; a last period with a move count repeats |
//! | `40/5400+30:1800+30` | periods separated by `:`                       |
//! | `*180`               | sandclock                                      |
//!
//! Our extensions, written back in the same form:
//!
//! | tag        | meaning                                                 |
//! |------------|---------------------------------------------------------|
//! | `300+d5`   | simple (US) delay of 5 s instead of an increment        |
//! | `300+b5`   | Bronstein delay of 5 s instead of an increment          |
//! | `3d`       | correspondence, 3 days per move                         |
//! | `3d<=10d`  | correspondence, 3 days per move, unused time kept up to 10 days |
//!
//! Whitespace around the whole tag is ignored; none is allowed inside.
//! Numbers are decimal and must fit in a `u32`; leading zeros are accepted
//! (and not written back). Errors report the 1-based character column in
//! the original input.

use std::fmt;
use std::num::NonZeroU32;
use std::str::FromStr;

use crate::control::{Bonus, Correspondence, Period, Periods, TimeControl};

impl TimeControl {
    /// Parses a PGN `TimeControl` tag value (see the [module docs](self)).
    ///
    /// `?` is an error here because an unknown control cannot drive a
    /// clock; use [`TimeControlTag`] to read tags that may be unknown.
    pub fn from_pgn(input: &str) -> Result<TimeControl, ParseTimeControlError> {
        match Parser::new(input).tag()? {
            TimeControlTag::Known(tc) => Ok(tc),
            TimeControlTag::Unknown => {
                let column = input.chars().take_while(|c| c.is_whitespace()).count() + 1;
                Err(ParseTimeControlError::new(input, column, ParseErrorKind::UnknownNotAllowed))
            }
        }
    }

    /// Writes the PGN tag value; [`TimeControl::from_pgn`] reads it back
    /// to an equal value.
    #[must_use]
    pub fn to_pgn(&self) -> String {
        let mut out = String::new();
        match self {
            TimeControl::Unlimited => out.push('-'),
            TimeControl::Periods(periods) => {
                for (i, p) in periods.as_slice().iter().enumerate() {
                    if i > 0 {
                        out.push(':');
                    }
                    if let Some(n) = p.moves {
                        out.push_str(&format!("{n}/"));
                    }
                    out.push_str(&p.seconds.to_string());
                    match p.bonus {
                        Bonus::None => {}
                        Bonus::Fischer(s) => out.push_str(&format!("+{s}")),
                        Bonus::SimpleDelay(s) => out.push_str(&format!("+d{s}")),
                        Bonus::Bronstein(s) => out.push_str(&format!("+b{s}")),
                    }
                }
            }
            TimeControl::Sandclock { seconds } => out.push_str(&format!("*{seconds}")),
            TimeControl::Correspondence(c) => {
                out.push_str(&format!("{}d", c.days_per_move()));
                if let Some(max) = c.max_days() {
                    out.push_str(&format!("<={max}d"));
                }
            }
        }
        out
    }
}

impl From<TimeControl> for String {
    fn from(tc: TimeControl) -> String {
        tc.to_pgn()
    }
}

impl TryFrom<String> for TimeControl {
    type Error = ParseTimeControlError;

    fn try_from(s: String) -> Result<TimeControl, ParseTimeControlError> {
        TimeControl::from_pgn(&s)
    }
}

/// A PGN `TimeControl` tag value, which may be `?` (unknown).
///
/// `FromStr` and `Display` are exact inverses on values.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControlTag {
    /// `?`
    Unknown,
    /// Anything else.
    Known(TimeControl),
}

impl FromStr for TimeControlTag {
    type Err = ParseTimeControlError;

    fn from_str(s: &str) -> Result<TimeControlTag, ParseTimeControlError> {
        Parser::new(s).tag()
    }
}

impl fmt::Display for TimeControlTag {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlTag::Unknown => f.write_str("?"),
            TimeControlTag::Known(tc) => f.write_str(&tc.to_pgn()),
        }
    }
}

impl From<TimeControl> for TimeControlTag {
    fn from(tc: TimeControl) -> TimeControlTag {
        TimeControlTag::Known(tc)
    }
}

/// What went wrong in a time control tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// A character that cannot appear here; `expected` says what could.
    Unexpected { found: char, expected: &'static str },
    /// The input ended early; `expected` says what was missing.
    UnexpectedEnd { expected: &'static str },
    /// A number does not fit in a `u32`.
    NumberTooLarge,
    /// A period's move count is 0.
    ZeroMoves,
    /// A period without a move count is followed by another period.
    OpenEndedNotLast,
    /// Correspondence with 0 days per move.
    ZeroDays,
    /// Correspondence maximum below the per-move allowance.
    MaxBelowAllowance,
    /// `?` given where a usable time control is required.
    UnknownNotAllowed,
}

/// A time control tag could not be read.
///
/// The message names the input, the 1-based character column and the
/// problem, e.g. `time control '40/54x0': unexpected 'x' at column 6,
/// expected '+', ':' or the end`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTimeControlError {
    input: String,
    column: usize,
    kind: ParseErrorKind,
}

impl ParseTimeControlError {
    fn new(input: &str, column: usize, kind: ParseErrorKind) -> Self {
        ParseTimeControlError { input: input.to_owned(), column, kind }
    }

    /// The 1-based character column where the problem is.
    #[must_use]
    pub fn column(&self) -> usize {
        self.column
    }

    /// The problem.
    #[must_use]
    pub fn kind(&self) -> ParseErrorKind {
        self.kind
    }

    /// The input as given.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }
}

/// Longest input quoted in full in an error message.
const MAX_QUOTED_CHARS: usize = 60;

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("time control '")?;
        // Escape control characters so the message stays on one line, and
        // cut very long input: the column still locates the problem.
        for c in self.input.chars().take(MAX_QUOTED_CHARS) {
            write!(f, "{}", c.escape_debug())?;
        }
        if self.input.chars().nth(MAX_QUOTED_CHARS).is_some() {
            f.write_str("...")?;
        }
        f.write_str("': ")?;
        let col = self.column;
        match self.kind {
            ParseErrorKind::Unexpected { found, expected } => {
                write!(f, "unexpected '{}' at column {col}, expected {expected}", found.escape_debug())
            }
            ParseErrorKind::UnexpectedEnd { expected } => {
                write!(f, "unexpected end at column {col}, expected {expected}")
            }
            ParseErrorKind::NumberTooLarge => write!(f, "number at column {col} is too large (at most {})", u32::MAX),
            ParseErrorKind::ZeroMoves => {
                write!(f, "move count at column {col} must be at least 1")
            }
            ParseErrorKind::OpenEndedNotLast => {
                write!(f, "unexpected ':' at column {col}: only the last period may lack a move count")
            }
            ParseErrorKind::ZeroDays => {
                write!(f, "days per move at column {col} must be at least 1")
            }
            ParseErrorKind::MaxBelowAllowance => {
                write!(f, "maximum at column {col} is less than the days per move")
            }
            ParseErrorKind::UnknownNotAllowed => {
                write!(f, "'?' at column {col} means unknown, which cannot be used as a time control")
            }
        }
    }
}

impl std::error::Error for ParseTimeControlError {}

const EXPECT_START: &str = "'?', '-', '*' or a number";
const EXPECT_SECONDS: &str = "a number of seconds";
const EXPECT_PERIOD: &str = "a move count or a number of seconds";
const EXPECT_BONUS: &str = "a number of seconds, 'd' or 'b'";
const EXPECT_DAYS: &str = "a number of days";
const EXPECT_END: &str = "the end";
const EXPECT_AFTER_BASE: &str = "'+', ':' or the end";
const EXPECT_AFTER_OPEN_BASE: &str = "'+' or the end";
const EXPECT_AFTER_PERIOD: &str = "':' or the end";
const EXPECT_AFTER_DAYS: &str = "'<=' or the end";

/// Recursive-descent parser over the characters of the trimmed input;
/// positions are kept relative to the original so columns are exact.
struct Parser<'a> {
    input: &'a str,
    chars: Vec<char>,
    pos: usize,
    end: usize,
}

impl<'a> Parser<'a> {
    fn new(input: &'a str) -> Self {
        let chars: Vec<char> = input.chars().collect();
        let pos = chars.iter().take_while(|c| c.is_whitespace()).count();
        let trailing = chars[pos..].iter().rev().take_while(|c| c.is_whitespace()).count();
        let end = chars.len() - trailing;
        Parser { input, chars, pos, end }
    }

    fn peek(&self) -> Option<char> {
        (self.pos < self.end).then(|| self.chars[self.pos])
    }

    fn error_at(&self, pos: usize, kind: ParseErrorKind) -> ParseTimeControlError {
        ParseTimeControlError::new(self.input, pos + 1, kind)
    }

    /// Error for whatever is at the current position, given what was wanted.
    fn unexpected(&self, expected: &'static str) -> ParseTimeControlError {
        let kind = match self.peek() {
            Some(found) => ParseErrorKind::Unexpected { found, expected },
            None => ParseErrorKind::UnexpectedEnd { expected },
        };
        self.error_at(self.pos, kind)
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect_end(&self, expected: &'static str) -> Result<(), ParseTimeControlError> {
        match self.peek() {
            None => Ok(()),
            Some(_) => Err(self.unexpected(expected)),
        }
    }

    /// A decimal `u32`; returns the value and the position of its first digit.
    fn number(&mut self, expected: &'static str) -> Result<(u32, usize), ParseTimeControlError> {
        let start = self.pos;
        let mut value: u32 = 0;
        while let Some(digit) = self.peek().and_then(|c| c.to_digit(10)) {
            value = value
                .checked_mul(10)
                .and_then(|v| v.checked_add(digit))
                .ok_or_else(|| self.error_at(start, ParseErrorKind::NumberTooLarge))?;
            self.pos += 1;
        }
        if self.pos == start {
            return Err(self.unexpected(expected));
        }
        Ok((value, start))
    }

    fn tag(mut self) -> Result<TimeControlTag, ParseTimeControlError> {
        let tc = match self.peek() {
            Some('?') => {
                self.pos += 1;
                self.expect_end(EXPECT_END)?;
                return Ok(TimeControlTag::Unknown);
            }
            Some('-') => {
                self.pos += 1;
                self.expect_end(EXPECT_END)?;
                TimeControl::Unlimited
            }
            Some('*') => {
                self.pos += 1;
                let (seconds, _) = self.number(EXPECT_SECONDS)?;
                self.expect_end(EXPECT_END)?;
                TimeControl::Sandclock { seconds }
            }
            Some(c) if c.is_ascii_digit() => self.periods_or_correspondence()?,
            _ => return Err(self.unexpected(EXPECT_START)),
        };
        Ok(TimeControlTag::Known(tc))
    }

    fn periods_or_correspondence(&mut self) -> Result<TimeControl, ParseTimeControlError> {
        let mut periods = Vec::new();
        loop {
            let (first, first_at) = self.number(EXPECT_PERIOD)?;
            if periods.is_empty() && self.peek() == Some('d') {
                return self.correspondence(first, first_at);
            }
            let (moves, seconds) = if self.eat('/') {
                let moves = NonZeroU32::new(first).ok_or_else(|| self.error_at(first_at, ParseErrorKind::ZeroMoves))?;
                (Some(moves), self.number(EXPECT_SECONDS)?.0)
            } else {
                (None, first)
            };
            let bonus = match self.peek() {
                Some('+') => {
                    self.pos += 1;
                    self.bonus()?
                }
                Some(':') | None => Bonus::None,
                Some(_) if moves.is_none() => return Err(self.unexpected(EXPECT_AFTER_OPEN_BASE)),
                Some(_) => return Err(self.unexpected(EXPECT_AFTER_BASE)),
            };
            periods.push(Period { moves, seconds, bonus });
            match self.peek() {
                None => break,
                Some(':') if moves.is_none() => {
                    return Err(self.error_at(self.pos, ParseErrorKind::OpenEndedNotLast));
                }
                Some(':') => self.pos += 1,
                Some(_) => return Err(self.unexpected(EXPECT_AFTER_PERIOD)),
            }
        }
        // The loop only lets an open-ended period be last, so this holds.
        Periods::new(periods)
            .map(TimeControl::Periods)
            .map_err(|_| self.error_at(self.pos, ParseErrorKind::OpenEndedNotLast))
    }

    /// After a `+`: `<seconds>`, `d<seconds>` or `b<seconds>`.
    fn bonus(&mut self) -> Result<Bonus, ParseTimeControlError> {
        if self.eat('d') {
            Ok(Bonus::SimpleDelay(self.number(EXPECT_SECONDS)?.0))
        } else if self.eat('b') {
            Ok(Bonus::Bronstein(self.number(EXPECT_SECONDS)?.0))
        } else {
            Ok(Bonus::Fischer(self.number(EXPECT_BONUS)?.0))
        }
    }

    /// After `<days>` with the parser on the `d`.
    fn correspondence(&mut self, days: u32, days_at: usize) -> Result<TimeControl, ParseTimeControlError> {
        self.pos += 1; // the 'd'
        if days == 0 {
            return Err(self.error_at(days_at, ParseErrorKind::ZeroDays));
        }
        let mut max_days = None;
        if self.peek().is_some() {
            if !self.eat('<') {
                return Err(self.unexpected(EXPECT_AFTER_DAYS));
            }
            if !self.eat('=') {
                return Err(self.unexpected("'='"));
            }
            let (max, max_at) = self.number(EXPECT_DAYS)?;
            if !self.eat('d') {
                return Err(self.unexpected("'d'"));
            }
            self.expect_end(EXPECT_END)?;
            if max < days {
                return Err(self.error_at(max_at, ParseErrorKind::MaxBelowAllowance));
            }
            max_days = Some(max);
        }
        Correspondence::new(days, max_days)
            .map(TimeControl::Correspondence)
            .map_err(|_| self.error_at(days_at, ParseErrorKind::MaxBelowAllowance))
    }
}
