//! The streaming reader: a byte-level scanner over a growable buffer that
//! hands out events to a [`Visitor`].
//!
//! The buffer holds one chunk of input. Tokens are handed out as slices of
//! it; when a token reaches the end of the chunk, the unread tail is moved to
//! the front and more input is read behind it (the buffer only grows for a
//! single token longer than itself, up to the token limit). Memory use is
//! therefore bounded by the buffer size plus the longest token, whatever the
//! size of the input.

use std::cell::Cell;
use std::fmt;
use std::io::{self, Read};

use crate::error::{ErrorKind, PgnError, excerpt};
use crate::model::{Game, GameBuilder};
use crate::visitor::{GameResult, Location, Skip, Visitor};

/// Default size of the read buffer, in bytes.
pub const DEFAULT_BUFFER_SIZE: usize = 64 * 1024;

/// Default limit for one comment, tag pair or token, in bytes.
pub const DEFAULT_MAX_TOKEN_LEN: usize = 4 * 1024 * 1024;

/// Maximum nesting depth of variations.
pub const MAX_DEPTH: usize = 256;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// The token handed out for a null move, however it was written (`--`, `Z0`, `0000`, `@@@@`).
pub const NULL_MOVE: &str = "--";

// Byte classes, looked up in a table on the hot paths.
const SPACE: u8 = 1; // whitespace, line breaks included (skip_ws counts them)
const SYM_START: u8 = 2; // may start a SAN token (digits are handled apart)
const SYM_CONT: u8 = 4; // may continue a SAN-like symbol token (`@` apart: drops)
const NAME: u8 = 8; // tag name character
const VALUE_STOP: u8 = 16; // ends a run of plain tag value bytes

static CLASS: [u8; 256] = classes();

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        let mut k = 0;
        if matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            k |= SPACE;
        }
        if c.is_ascii_alphabetic() || c == b'-' || c >= 0x80 {
            k |= SYM_START;
        }
        if c.is_ascii_alphanumeric() || matches!(c, b'_' | b'+' | b'#' | b'=' | b':' | b'-' | b'/') || c >= 0x80 {
            k |= SYM_CONT;
        }
        if c.is_ascii_alphanumeric() || c == b'_' {
            k |= NAME;
        }
        if matches!(c, b'"' | b'\\' | b'\n' | b'\r') {
            k |= VALUE_STOP;
        }
        t[b] = k;
        b += 1;
    }
    t
}

#[inline]
fn is(b: u8, class: u8) -> bool {
    CLASS[b as usize] & class != 0
}

#[inline]
fn is_hspace(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// `bytes` as text if they are all ASCII.
#[inline]
fn ascii(bytes: &[u8]) -> Option<&str> {
    // An OR over all bytes: branch-free, and vectorised for long slices.
    if bytes.iter().fold(0u8, |acc, &b| acc | b) < 0x80 {
        // SAFETY: every byte is below 0x80 (checked just above), and a
        // sequence of ASCII bytes is valid UTF-8. Measured on the shared
        // lichess samples (callgrind, one pass over each file): calling
        // `str::from_utf8` here instead costs 44% more instructions for the
        // whole read (85.5 M vs 59.4 M for the 2016 file, 8.4 M vs 5.6 M for
        // the 2017 one), because it runs once per move, tag and comment.
        Some(unsafe { std::str::from_utf8_unchecked(bytes) })
    } else {
        None
    }
}

/// Text for the visitor: UTF-8 as is, anything else decoded as Latin-1.
#[inline]
fn decode<'a>(bytes: &'a [u8], scratch: &'a mut String) -> &'a str {
    if let Some(s) = ascii(bytes) {
        return s;
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => s,
        Err(_) => {
            scratch.clear();
            scratch.extend(bytes.iter().map(|&b| char::from(b)));
            scratch
        }
    }
}

/// `\"` → `"`, `\\` → `\`; any other backslash is kept.
fn unescape(raw: &[u8], out: &mut Vec<u8>) {
    out.clear();
    let mut i = 0;
    while i < raw.len() {
        let b = raw[i];
        if b == b'\\' && matches!(raw.get(i + 1), Some(b'"' | b'\\')) {
            out.push(raw[i + 1]);
            i += 2;
        } else {
            out.push(b);
            i += 1;
        }
    }
}

/// A tag name's bit in a 64-bit set: from its length and its first and last bytes, which keeps the seven roster
/// names apart and no usual name on `Event`'s bit (tested), at the cost of a few instructions per tag.
#[inline]
fn tag_bit(name: &[u8]) -> u64 {
    let (first, last) = (name.first().copied().unwrap_or(0), name.last().copied().unwrap_or(0));
    let h = (name.len() as u32).wrapping_mul(7) ^ u32::from(first).wrapping_mul(3) ^ u32::from(last).wrapping_mul(11);
    1 << (h & 63)
}

/// `0-0`, `0-0-0`, optionally followed by `+`/`#` marks.
fn is_zero_castling(tok: &[u8]) -> bool {
    let base_len = tok.iter().rposition(|&b| b != b'+' && b != b'#').map_or(0, |p| p + 1);
    matches!(&tok[..base_len], b"0-0" | b"0-0-0") && tok.len() - base_len <= 1
}

/// The index of the first `x` or `y` in `hay`, eight bytes at a time.
#[inline]
fn find_either(hay: &[u8], x: u8, y: u8) -> Option<usize> {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    // `zero_bytes(v)` flags (high bit) every zero byte of `v`, and possibly
    // some bytes above one; the lowest flag is always the first zero byte.
    let zero_bytes = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let (xs, ys) = (ONES * u64::from(x), ONES * u64::from(y));
    let mut chunks = hay.chunks_exact(8);
    for (n, chunk) in chunks.by_ref().enumerate() {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        let w = u64::from_le_bytes(word);
        let hits = zero_bytes(w ^ xs) | zero_bytes(w ^ ys);
        if hits != 0 {
            return Some(n * 8 + (hits.trailing_zeros() / 8) as usize);
        }
    }
    let done = hay.len() - chunks.remainder().len();
    chunks.remainder().iter().position(|&b| b == x || b == y).map(|k| done + k)
}

/// Where the parts of a tag pair are, relative to its `[`.
struct TagSpan {
    name_start: usize,
    name_end: usize,
    value_start: usize,
    value_end: usize,
    escaped: bool,
    /// The closing `]`.
    close: usize,
}

/// Fast path for a tag pair that is complete in `data` (which starts at its
/// `[`) and has no error; `None` sends the caller to the general path,
/// which reads more input as needed and reports errors. Both accept the
/// same tag pairs.
#[inline]
fn well_formed_tag(data: &[u8]) -> Option<TagSpan> {
    let skip_blanks = |mut i: usize| {
        while data.get(i).is_some_and(|&b| is_hspace(b)) {
            i += 1;
        }
        i
    };
    let name_start = skip_blanks(1);
    let mut i = name_start;
    while data.get(i).is_some_and(|&b| is(b, NAME)) {
        i += 1;
    }
    let name_end = i;
    if name_end == name_start || !matches!(data.get(i), Some(b' ' | b'\t' | b'"')) {
        return None;
    }
    i = skip_blanks(i);
    if data.get(i) != Some(&b'"') {
        return None;
    }
    let value_start = i + 1;
    i = value_start;
    let mut escaped = false;
    loop {
        i += data.get(i..)?.iter().position(|&b| is(b, VALUE_STOP))?;
        match data[i] {
            b'\\' => {
                if !matches!(data.get(i + 1), Some(b) if *b != b'\n' && *b != b'\r') {
                    return None;
                }
                escaped = true;
                i += 2;
            }
            b'"' => {
                let k = skip_blanks(i + 1);
                match data.get(k) {
                    Some(b']') => {
                        return Some(TagSpan { name_start, name_end, value_start, value_end: i, escaped, close: k });
                    }
                    None | Some(b'\n' | b'\r') => return None,
                    Some(_) => i += 1,
                }
            }
            _ => return None,
        }
    }
}

/// Character counting for columns, as a cursor that moves forward through the current line, so that finding the
/// column of each token costs time in proportion to the bytes since the last one (a lichess game is one long line).
/// Before the reader drops buffered bytes, it moves the cursor past them.
///
/// A character is a byte that is not a UTF-8 continuation byte following its lead byte: UTF-8 text counts in
/// characters, and a byte of ISO-8859-1 text (which the reader also accepts) counts as one.
#[derive(Debug, Default)]
struct Columns {
    /// `line_start` of the line the cursor is on.
    line: Cell<u64>,
    /// Stream offset the cursor has counted up to.
    off: Cell<u64>,
    /// Bytes between the line's start and `off` that are not characters of their own.
    extra: Cell<u64>,
    /// Continuation bytes still expected after `off`.
    pending: Cell<u8>,
}

impl Columns {
    /// The continuation bytes of `bytes`, and the continuations still expected after them, starting with `pending`
    /// expected.
    #[inline]
    fn count(bytes: &[u8], mut pending: u8) -> (u64, u8) {
        if pending == 0 && ascii(bytes).is_some() {
            return (0, 0);
        }
        let mut extra = 0;
        for &b in bytes {
            match b {
                0x80..=0xBF if pending > 0 => {
                    extra += 1;
                    pending -= 1;
                }
                0xC2..=0xDF => pending = 1,
                0xE0..=0xEF => pending = 2,
                0xF0..=0xF4 => pending = 3,
                _ => pending = 0,
            }
        }
        (extra, pending)
    }
}

/// Reads games one at a time from any [`Read`] and reports them to a
/// [`Visitor`].
///
/// The reader buffers by itself (do not wrap the input in a `BufReader`) and
/// never holds more than its buffer plus one token, so files of any size are
/// read in constant memory.
///
/// # Syntax handled
///
/// Tag pairs `[Name "value"]` (names of any case; escapes `\"`, `\\`; several
/// per line; a `"` not followed by `]` is taken literally), brace comments
/// over several lines, `;` comments, `%` escape lines, nested variations,
/// NAGs `$n` and suffix annotations `!` `?` `!!` `??` `!?` `?!` (also glued
/// to the move, `Nf3+!?`), move numbers `12.` / `12...` (also glued,
/// `1.e4`; ignored), the results `1-0` `0-1` `1/2-1/2` `*` (and `½-½`), a
/// UTF-8 byte order mark at the start, CRLF line ends, null moves written
/// `--`, `Z0`, `0000` or `@@@@` (all handed out as [`NULL_MOVE`], `--`). See
/// [`Visitor::san`] for the form of move tokens.
///
/// # Game boundaries
///
/// A game ends at its result token, at a `[` outside comments (the next
/// game's tag section, so a missing result or a missing blank line does no
/// harm), or at the end of input. A tag section followed by a blank line and
/// a tag pair whose name the section already has (usually `Event`) is a game
/// without movetext; a blank line before a new name is taken as a blank line
/// inside the tag section (as ChessBase writes after `Event`, and as
/// python-chess reads it). Games need no tag section.
///
/// # Errors and recovery
///
/// The first syntax error of a game is returned instead of the game (see
/// [`PgnError`] for the message form); the reader has then already skipped
/// the rest of that game, so the next call reads the next game. Errors are
/// not repeated: a game yields at most one. An unterminated comment ends at
/// the end of input or, as a safeguard, before a line that starts like a
/// tag pair (`[Name "`), where the next game is taken to begin. After an I/O
/// error the reader stops: every later call returns `Ok(None)`.
pub struct Reader<R> {
    inner: R,
    buf: Vec<u8>,
    /// Start of unread data in `buf`.
    pos: usize,
    /// End of valid data in `buf`.
    end: usize,
    /// Stream offset of `buf[0]`.
    base: u64,
    eof: bool,
    started: bool,
    stopped: bool,
    line: u64,
    /// Stream offset of the first byte of the current line.
    line_start: u64,
    /// Counts characters for columns (see [`Columns`]).
    cols: Columns,
    /// Stream offset just after the last byte outside ASCII read so far (0 if none): lines after it count
    /// characters as bytes, without looking at them. Bytes of a line that the buffer dropped while this was at or
    /// before the line's start were therefore ASCII.
    non_ascii_end: u64,
    game: u64,
    max_len: usize,
    error: Option<PgnError>,
    /// Where the open variations started.
    parens: Vec<Location>,
    unescaped: Vec<u8>,
    /// The names of the current game's tags so far, as a set of [`tag_bit`]s.
    tag_mask: u64,
    text: String,
}

impl<R> fmt::Debug for Reader<R> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Reader")
            .field("game", &self.game)
            .field("location", &self.here())
            .field("buffer_size", &self.buf.len())
            .field("max_token_len", &self.max_len)
            .field("eof", &self.eof)
            .finish_non_exhaustive()
    }
}

impl<R> Reader<R> {
    // ---- positions and errors -----------------------------------------

    fn loc_at(&self, i: usize) -> Location {
        let offset = self.base + (self.pos + i) as u64;
        Location { line: self.line, column: self.chars_before(offset) + 1, offset }
    }

    /// The number of characters from the start of the current line to stream offset `offset` (see [`Columns`]).
    #[inline]
    fn chars_before(&self, offset: u64) -> u64 {
        // Fastest path: no byte of the line so far, nor any buffered after it, is outside ASCII (most files).
        if self.non_ascii_end <= self.line_start {
            return offset.saturating_sub(self.line_start);
        }
        self.chars_before_cursor(offset)
    }

    /// [`Reader::chars_before`] on a line with non-ASCII bytes, or with some buffered after it.
    #[inline(never)]
    fn chars_before_cursor(&self, offset: u64) -> u64 {
        // Fast path: forward on the cursor's line over ASCII bytes (most tokens).
        let c = &self.cols;
        let off = c.off.get();
        if c.line.get() == self.line_start
            && c.pending.get() == 0
            && let (Some(lo), Some(hi)) = (off.checked_sub(self.base), offset.checked_sub(self.base))
            && let Some(bytes) = self.buf[..self.end].get(lo as usize..hi as usize)
            && ascii(bytes).is_some()
        {
            c.off.set(offset);
            return (offset - self.line_start).saturating_sub(c.extra.get());
        }
        self.chars_before_slow(offset)
    }

    #[cold]
    fn chars_before_slow(&self, offset: u64) -> u64 {
        let start = self.line_start;
        let c = &self.cols;
        if c.line.get() != start || c.off.get() < start {
            c.line.set(start);
            c.off.set(start);
            c.extra.set(0);
            c.pending.set(0);
        }
        if offset <= start {
            return 0;
        }
        let off = c.off.get();
        let buffered = |from: u64, to: u64| {
            let lo = from.saturating_sub(self.base).min(self.end as u64) as usize;
            let hi = to.saturating_sub(self.base).min(self.end as u64) as usize;
            self.buf.get(lo..hi.max(lo)).unwrap_or(&[])
        };
        let extra = if offset >= off {
            let (extra, pending) = Columns::count(buffered(off, offset), c.pending.get());
            c.off.set(offset);
            c.extra.set(c.extra.get() + extra);
            c.pending.set(pending);
            c.extra.get()
        } else {
            // Backwards (rare): count again from the line's start if it is still buffered, else take off what
            // lies between `offset` and the cursor.
            if start >= self.base {
                Columns::count(buffered(start, offset), 0).0
            } else {
                c.extra.get().saturating_sub(Columns::count(buffered(offset, off), 0).0)
            }
        };
        (offset - start).saturating_sub(extra)
    }

    fn here(&self) -> Location {
        self.loc_at(0)
    }

    fn at_line_start(&self) -> bool {
        self.base + self.pos as u64 == self.line_start
    }

    /// Counts the line break at unread byte `i`.
    #[inline]
    fn newline_at(&mut self, i: usize) {
        self.line += 1;
        self.line_start = self.base + (self.pos + i) as u64 + 1;
    }
}

impl<R: Read> Reader<R> {
    /// A reader with the default buffer size ([`DEFAULT_BUFFER_SIZE`]).
    pub fn new(inner: R) -> Reader<R> {
        Reader::with_capacity(DEFAULT_BUFFER_SIZE, inner)
    }

    /// A reader whose buffer starts at `capacity` bytes (at least 16).
    pub fn with_capacity(capacity: usize, inner: R) -> Reader<R> {
        Reader {
            inner,
            buf: vec![0; capacity.max(16)],
            pos: 0,
            end: 0,
            base: 0,
            eof: false,
            started: false,
            stopped: false,
            line: 1,
            line_start: 0,
            cols: Columns::default(),
            non_ascii_end: 0,
            game: 0,
            max_len: DEFAULT_MAX_TOKEN_LEN,
            error: None,
            parens: Vec::new(),
            unescaped: Vec::new(),
            tag_mask: 0,
            text: String::new(),
        }
    }

    /// Sets the limit for one comment, tag pair or move token, in bytes
    /// (default [`DEFAULT_MAX_TOKEN_LEN`]). Longer ones are an error
    /// ([`ErrorKind::TooLarge`]) and are skipped without being buffered.
    pub fn set_max_token_len(&mut self, bytes: usize) {
        self.max_len = bytes.max(1);
    }

    /// The current limit for one comment, tag pair or move token.
    pub fn max_token_len(&self) -> usize {
        self.max_len
    }

    /// The number of games started so far (the number of the game last
    /// returned, good or bad).
    pub fn games_started(&self) -> u64 {
        self.game
    }

    /// Where the reader is in the input.
    pub fn location(&self) -> Location {
        self.here()
    }

    /// Gives back the input. Data the reader had buffered but not used is
    /// lost.
    pub fn into_inner(self) -> R {
        self.inner
    }

    /// Reads the next game and reports it to `visitor`.
    ///
    /// Returns `Ok(Some(output of end_game))` for a good game, `Ok(None)` at
    /// the end of input, and `Err` for a game with a syntax error (the next
    /// call goes on with the next game) or an I/O error (the reader stops).
    pub fn read_game<V: Visitor + ?Sized>(&mut self, visitor: &mut V) -> Result<Option<V::Output>, PgnError> {
        if self.stopped {
            return Ok(None);
        }
        match self.game_inner(visitor) {
            Err(e) => {
                self.stopped = true;
                self.error = None;
                Err(PgnError::new(self.game, self.here(), ErrorKind::Io(e)))
            }
            Ok(false) => Ok(None),
            Ok(true) => match self.error.take() {
                Some(e) => Err(e),
                None => Ok(Some(visitor.end_game())),
            },
        }
    }

    /// Skips the next game: `Ok(true)` if there was one, `Ok(false)` at the
    /// end of input. Its syntax errors are reported as by `read_game`.
    pub fn skip_game(&mut self) -> Result<bool, PgnError> {
        struct SkipAll;
        impl Visitor for SkipAll {
            type Output = ();
            fn begin_movetext(&mut self) -> Skip {
                Skip(true)
            }
            fn end_game(&mut self) {}
        }
        self.read_game(&mut SkipAll).map(|g| g.is_some())
    }

    /// Reads the next game into the owned model.
    pub fn read_owned_game(&mut self) -> Result<Option<Game>, PgnError> {
        self.read_game(&mut GameBuilder::new())
    }

    /// Iterates over the games as owned [`Game`]s (one item per game, `Err`
    /// for bad ones), until the end of input.
    pub fn games(&mut self) -> Games<'_, R> {
        Games { reader: self, builder: GameBuilder::new() }
    }

    // ---- buffer -------------------------------------------------------

    /// Reads more input behind the unread data, moving that data to the
    /// front or growing the buffer when there is no room. `Ok(false)` at the
    /// end of input.
    fn fill_more(&mut self) -> io::Result<bool> {
        if self.eof {
            return Ok(false);
        }
        // The bytes before `pos` may be dropped below: count them for columns first.
        self.chars_before(self.base + self.pos as u64);
        if self.pos == self.end {
            self.base += self.pos as u64;
            self.pos = 0;
            self.end = 0;
        } else if self.end == self.buf.len() {
            if self.pos > 0 {
                self.buf.copy_within(self.pos..self.end, 0);
                self.base += self.pos as u64;
                self.end -= self.pos;
                self.pos = 0;
            } else {
                let len = self.buf.len();
                self.buf.resize(len * 2, 0);
            }
        }
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(false);
                }
                Ok(n) => {
                    let read = &self.buf[self.end..self.end + n];
                    if ascii(read).is_none()
                        && let Some(last) = read.iter().rposition(|&b| b >= 0x80)
                    {
                        self.non_ascii_end = self.base + (self.end + last) as u64 + 1;
                    }
                    self.end += n;
                    return Ok(true);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// Makes at least `n` unread bytes available; `Ok(false)` if the input
    /// ends first.
    fn ensure(&mut self, n: usize) -> io::Result<bool> {
        while self.end - self.pos < n {
            if !self.fill_more()? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// Unread byte `i` (relative to `pos`), if buffered.
    #[inline]
    fn byte(&self, i: usize) -> Option<u8> {
        self.buf[..self.end].get(self.pos + i).copied()
    }

    /// Unread byte `i`, reading input as needed.
    fn peek(&mut self, i: usize) -> io::Result<Option<u8>> {
        self.ensure(i + 1)?;
        Ok(self.byte(i))
    }

    /// Finds the first byte at or after `i` (relative to `pos`) for which
    /// `stop` holds, reading input as needed; returns its index, or the
    /// number of unread bytes at the end of input.
    ///
    /// With `keep`, everything from `pos` stays buffered (so the caller can
    /// take the token as a slice) and `None` is returned when the token grows
    /// beyond the limit. Without `keep`, scanned bytes are dropped when more
    /// input is needed: `pos` advances, and the returned index is relative
    /// to the new `pos`. `stop` must hold for `\n` where the caller counts
    /// lines.
    #[inline]
    fn scan(&mut self, mut i: usize, keep: bool, stop: impl Fn(u8) -> bool) -> io::Result<Option<usize>> {
        loop {
            let data = &self.buf[self.pos..self.end];
            if let Some(rest) = data.get(i..) {
                if let Some(k) = rest.iter().position(|&b| stop(b)) {
                    return Ok(if keep && i + k > self.max_len { None } else { Some(i + k) });
                }
                i = data.len();
            }
            if keep {
                if i > self.max_len {
                    return Ok(None);
                }
            } else {
                self.pos += i;
                i = 0;
            }
            if !self.fill_more()? {
                return Ok(Some(i.min(self.end - self.pos)));
            }
        }
    }

    /// Records a syntax error unless the game already has one.
    fn fail(&mut self, at: Location, kind: ErrorKind) {
        if self.error.is_none() {
            self.error = Some(PgnError::new(self.game, at, kind));
        }
    }

    fn fail_at(&mut self, i: usize, kind: ErrorKind) {
        let at = self.loc_at(i);
        self.fail(at, kind);
    }

    // ---- lexical helpers ----------------------------------------------

    /// Skips whitespace, counting lines; returns the number of line breaks.
    /// Afterwards `pos == end` only at the end of input.
    #[inline]
    fn skip_ws(&mut self) -> io::Result<u32> {
        let mut newlines = 0;
        loop {
            let mut p = self.pos;
            while p < self.end {
                let b = self.buf[p];
                if b == b'\n' {
                    newlines += 1;
                    self.line += 1;
                    self.line_start = self.base + p as u64 + 1;
                } else if !is(b, SPACE) {
                    self.pos = p;
                    return Ok(newlines);
                }
                p += 1;
            }
            self.pos = p;
            if !self.fill_more()? {
                return Ok(newlines);
            }
        }
    }

    /// Skips to the line break ending the current line (not past it).
    fn skip_line(&mut self) -> io::Result<()> {
        let i = self.scan(0, false, |b| b == b'\n')?.unwrap_or(0);
        self.pos += i;
        Ok(())
    }

    /// Skips the rest of an over-long token: up to whitespace or a
    /// delimiter.
    fn skip_token(&mut self) -> io::Result<()> {
        let i = self
            .scan(0, false, |b| is(b, SPACE) || matches!(b, b'{' | b'}' | b'(' | b')' | b'[' | b']' | b';'))?
            .unwrap_or(0);
        self.pos += i;
        Ok(())
    }

    /// Whether unread bytes from `i` look like the start of a tag pair:
    /// `[`, a name, blanks, `"`.
    fn looks_like_tag(&mut self, i: usize) -> io::Result<bool> {
        if self.peek(i)? != Some(b'[') {
            return Ok(false);
        }
        let mut j = i + 1;
        while let Some(b) = self.peek(j)? {
            if !is(b, NAME) || j - i > 64 {
                break;
            }
            j += 1;
        }
        if j == i + 1 {
            return Ok(false);
        }
        let name_end = j;
        while let Some(b) = self.peek(j)? {
            if !is_hspace(b) || j - name_end > 64 {
                break;
            }
            j += 1;
        }
        Ok(j > name_end && self.peek(j)? == Some(b'"'))
    }

    // ---- games ----------------------------------------------------------

    /// Returns `Ok(false)` at the end of input (no game), else reads one game
    /// leaving any syntax error in `self.error`.
    fn game_inner<V: Visitor + ?Sized>(&mut self, v: &mut V) -> io::Result<bool> {
        self.error = None;
        if !self.started {
            self.started = true;
            if self.ensure(BOM.len())? && self.buf[self.pos..].starts_with(BOM) {
                self.pos += BOM.len();
                self.line_start = self.base + self.pos as u64;
            }
        }
        loop {
            self.skip_ws()?;
            match self.byte(0) {
                None => return Ok(false),
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                Some(_) => break,
            }
        }
        self.game += 1;
        v.begin_game();
        let ended = self.tag_section(v)?;
        let skip = if self.error.is_none() { v.begin_movetext().0 } else { true };
        if !ended {
            self.movetext(v, skip)?;
        }
        Ok(true)
    }

    /// Reads tag pairs; `Ok(true)` if the game ends with them (a blank line
    /// and another game's tag section follow).
    fn tag_section<V: Visitor + ?Sized>(&mut self, v: &mut V) -> io::Result<bool> {
        let mut tags = 0u32;
        self.tag_mask = 0;
        loop {
            let newlines = self.skip_ws()?;
            match self.byte(0) {
                Some(b'%') if self.at_line_start() => self.skip_line()?,
                Some(b'[') => {
                    if tags > 0 && newlines >= 2 && self.starts_another_game()? {
                        return Ok(true);
                    }
                    self.tag(v)?;
                    tags += 1;
                }
                _ => return Ok(false),
            }
        }
    }

    /// At a `[` after a blank line in a tag section: whether it starts the next game's tags (a game without
    /// movetext ended) rather than going on with this game's (ChessBase writes a blank line after `Event`). It
    /// starts the next game when its tag name is one this game already has, or is no tag name at all. Names are
    /// compared by [`tag_bit`]: two names that share a bit make a split where none was due (the reading before
    /// blank lines in tag sections were allowed), never the other way round.
    fn starts_another_game(&mut self) -> io::Result<bool> {
        let mut i = 1;
        while self.peek(i)?.is_some_and(is_hspace) {
            i += 1;
        }
        let start = i;
        while self.peek(i)?.is_some_and(|b| is(b, NAME)) && i - start < 64 {
            i += 1;
        }
        if i == start {
            return Ok(true);
        }
        Ok(self.tag_mask & tag_bit(&self.buf[self.pos + start..self.pos + i]) != 0)
    }

    /// Gives up on the current tag pair: error, then skip the line.
    fn bad_tag(&mut self, i: usize, kind: ErrorKind) -> io::Result<()> {
        self.fail_at(i, kind);
        self.pos += 1; // the '['
        self.skip_line()
    }

    fn tag_too_long(&mut self) -> io::Result<()> {
        let limit = self.max_len;
        self.bad_tag(0, ErrorKind::TooLarge { what: "tag", limit })
    }

    /// One tag pair; `pos` is at its `[`.
    fn tag<V: Visitor + ?Sized>(&mut self, v: &mut V) -> io::Result<()> {
        if self.error.is_some() {
            self.pos += 1;
            return self.skip_line();
        }
        if let Some(t) = well_formed_tag(&self.buf[self.pos..self.end])
            && t.close < self.max_len
        {
            self.deliver_tag(v, &t);
            return Ok(());
        }
        let Some(name_start) = self.scan(1, true, |b| !is_hspace(b))? else {
            return self.tag_too_long();
        };
        let Some(name_end) = self.scan(name_start, true, |b| !is(b, NAME))? else {
            return self.tag_too_long();
        };
        let after_name = self.byte(name_end);
        if name_end == name_start || !matches!(after_name, Some(b' ' | b'\t' | b'"')) {
            let Some(bad_end) = self.scan(name_end, true, |b| is(b, SPACE) || b == b'"' || b == b']')? else {
                return self.tag_too_long();
            };
            let name = excerpt(&self.buf[self.pos + name_start..self.pos + bad_end]);
            return self.bad_tag(name_start, ErrorKind::InvalidTagName(name));
        }
        let Some(quote) = self.scan(name_end, true, |b| !is_hspace(b))? else {
            return self.tag_too_long();
        };
        if self.byte(quote) != Some(b'"') {
            return self.bad_tag(quote, ErrorKind::MissingTagValue);
        }
        let value_start = quote + 1;
        let mut i = value_start;
        let mut escaped = false;
        let (value_end, close) = loop {
            let Some(j) = self.scan(i, true, |b| is(b, VALUE_STOP))? else {
                return self.tag_too_long();
            };
            match self.byte(j) {
                Some(b'\\') => match self.peek(j + 1)? {
                    None | Some(b'\n' | b'\r') => i = j + 1,
                    Some(_) => {
                        escaped = true;
                        i = j + 2;
                    }
                },
                Some(b'"') => {
                    let Some(k) = self.scan(j + 1, true, |b| !is_hspace(b))? else {
                        return self.tag_too_long();
                    };
                    match self.byte(k) {
                        None | Some(b']' | b'\n' | b'\r') => break (j, k),
                        // A quote inside the value, not escaped: keep it.
                        Some(_) => i = j + 1,
                    }
                }
                _ => return self.bad_tag(quote, ErrorKind::UnterminatedTagValue),
            }
        };
        if self.byte(close) != Some(b']') {
            return self.bad_tag(close, ErrorKind::UnterminatedTag);
        }
        let t = TagSpan { name_start, name_end, value_start, value_end, escaped, close };
        self.deliver_tag(v, &t);
        Ok(())
    }

    fn deliver_tag<V: Visitor + ?Sized>(&mut self, v: &mut V, t: &TagSpan) {
        let base = self.pos;
        let raw = &self.buf[base + t.value_start..base + t.value_end];
        let value = if t.escaped {
            unescape(raw, &mut self.unescaped);
            decode(&self.unescaped, &mut self.text)
        } else {
            decode(raw, &mut self.text)
        };
        // Tag names are ASCII by construction.
        let name = ascii(&self.buf[base + t.name_start..base + t.name_end]).unwrap_or("");
        v.tag(name, value);
        self.tag_mask |= tag_bit(name.as_bytes());
        self.pos += t.close + 1;
    }

    /// Reads movetext up to and including the result token, or up to the
    /// next tag section or the end of input.
    fn movetext<V: Visitor + ?Sized>(&mut self, v: &mut V, skip_game: bool) -> io::Result<()> {
        self.parens.clear();
        let mut depth = 0usize;
        // Variations nested at this depth or deeper are being skipped.
        let mut skip_depth = usize::MAX;
        loop {
            self.skip_ws()?;
            let Some(b) = self.byte(0) else {
                self.unclosed_variation(depth);
                return Ok(());
            };
            let quiet = skip_game || self.error.is_some() || depth >= skip_depth;
            match b {
                b'{' => self.brace_comment(v, quiet)?,
                b';' => self.line_comment(v, quiet)?,
                b'(' => {
                    let at = self.here();
                    self.pos += 1;
                    if depth < MAX_DEPTH {
                        self.parens.push(at);
                    } else {
                        self.fail(at, ErrorKind::TooDeep { limit: MAX_DEPTH });
                    }
                    depth += 1;
                    if !quiet && v.begin_variation().0 {
                        skip_depth = depth;
                    }
                }
                b')' => {
                    if depth == 0 {
                        let at = self.here();
                        self.fail(at, ErrorKind::UnexpectedCloseParen);
                    } else {
                        if depth == skip_depth {
                            skip_depth = usize::MAX;
                        } else if !quiet {
                            v.end_variation();
                        }
                        if self.parens.len() == depth {
                            self.parens.pop();
                        }
                        depth -= 1;
                    }
                    self.pos += 1;
                }
                b'[' => {
                    self.unclosed_variation(depth);
                    return Ok(());
                }
                b'%' if self.at_line_start() => self.skip_line()?,
                b'$' => self.nag(v, quiet)?,
                b'!' | b'?' => self.annotation(v, quiet)?,
                b'*' => {
                    self.pos += 1;
                    self.result(v, GameResult::Unknown, depth, skip_game);
                    return Ok(());
                }
                b'0'..=b'9' => {
                    if let Some(r) = self.number(v, quiet)? {
                        self.result(v, r, depth, skip_game);
                        return Ok(());
                    }
                }
                b'.' => self.pos += 1, // stray dots, as in `1 ... e5`
                _ if is(b, SYM_START) => {
                    if let Some(r) = self.symbol(v, quiet)? {
                        self.result(v, r, depth, skip_game);
                        return Ok(());
                    }
                }
                _ => self.stray(v, quiet, b)?,
            }
        }
    }

    /// A byte that starts no other movetext token, at `pos`: `@@@@` as a token of its own is the null move in
    /// WinBoard notation; anything else is an error. Out of line, so that the common tokens' code stays small.
    #[cold]
    #[inline(never)]
    fn stray<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool, b: u8) -> io::Result<()> {
        let at = self.here();
        let mut null = b == b'@';
        for i in 1..4 {
            null = null && self.peek(i)? == Some(b'@');
        }
        if null && !self.peek(4)?.is_some_and(|b| is(b, SYM_CONT) || b == b'@') {
            if !quiet {
                v.san(NULL_MOVE, at);
            }
            self.pos += 4;
        } else {
            self.fail(at, ErrorKind::UnexpectedChar(char::from(b)));
            self.pos += 1;
        }
        Ok(())
    }

    /// `0000`, the null move in UCI notation, at `at`; out of line like [`Reader::stray`].
    #[cold]
    #[inline(never)]
    fn uci_null<V: Visitor + ?Sized>(v: &mut V, at: Location) {
        v.san(NULL_MOVE, at);
    }

    fn unclosed_variation(&mut self, depth: usize) {
        if depth > 0
            && let Some(&at) = self.parens.last()
        {
            self.fail(at, ErrorKind::UnterminatedVariation);
        }
    }

    fn result<V: Visitor + ?Sized>(&mut self, v: &mut V, r: GameResult, depth: usize, skip_game: bool) {
        self.unclosed_variation(depth);
        if !skip_game && self.error.is_none() {
            v.outcome(r);
        }
    }

    /// `{ ... }`; `pos` is at the `{`.
    fn brace_comment<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool) -> io::Result<()> {
        // Fast path: a one-line comment that is complete in the buffer.
        let data = &self.buf[self.pos + 1..self.end];
        if let Some(k) = find_either(data, b'}', b'\n')
            && data[k] == b'}'
            && k < self.max_len
        {
            if !quiet {
                let text = decode(&data[..k], &mut self.text);
                v.comment(text);
            }
            self.pos += k + 2;
            return Ok(());
        }
        let at = self.here();
        let mut keep = !quiet;
        let mut i = 1;
        loop {
            let Some(j) = self.scan(i, keep, |b| b == b'}' || b == b'\n')? else {
                let limit = self.max_len;
                self.fail(at, ErrorKind::TooLarge { what: "comment", limit });
                keep = false;
                continue;
            };
            match self.byte(j) {
                Some(b'}') => {
                    if keep {
                        let text = decode(&self.buf[self.pos + 1..self.pos + j], &mut self.text);
                        v.comment(text);
                    }
                    self.pos += j + 1;
                    return Ok(());
                }
                Some(_) => {
                    // A line break: count it, and stop at a line that starts
                    // like a tag pair (a lost `}`).
                    self.newline_at(j);
                    i = j + 1;
                    if self.peek(i)? == Some(b'[') && self.looks_like_tag(i)? {
                        self.fail(at, ErrorKind::UnterminatedComment);
                        self.pos += i;
                        return Ok(());
                    }
                }
                None => {
                    self.fail(at, ErrorKind::UnterminatedComment);
                    self.pos = self.end;
                    return Ok(());
                }
            }
        }
    }

    /// `; ...` up to the end of the line; `pos` is at the `;`.
    fn line_comment<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool) -> io::Result<()> {
        let keep = !quiet;
        let Some(j) = self.scan(1, keep, |b| b == b'\n')? else {
            let at = self.here();
            let limit = self.max_len;
            self.fail(at, ErrorKind::TooLarge { what: "comment", limit });
            return self.skip_line();
        };
        if keep {
            let mut text = &self.buf[self.pos + 1..self.pos + j];
            if let [rest @ .., b'\r'] = text {
                text = rest;
            }
            let text = decode(text, &mut self.text);
            v.comment(text);
        }
        self.pos += j;
        Ok(())
    }

    /// `$n`; `pos` is at the `$`.
    fn nag<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool) -> io::Result<()> {
        let at = self.here();
        let Some(n) = self.scan(1, true, |b| !b.is_ascii_digit())? else {
            return self.token_too_long(at);
        };
        let digits = &self.buf[self.pos + 1..self.pos + n];
        let value = if digits.is_empty() || digits.len() > 3 {
            None
        } else {
            let x = digits.iter().fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
            u8::try_from(x).ok()
        };
        match value {
            Some(nag) if !quiet => v.nag(nag),
            Some(_) => {}
            None => {
                let text = excerpt(&self.buf[self.pos..self.pos + n]);
                self.fail(at, ErrorKind::InvalidNag(text));
            }
        }
        self.pos += n;
        Ok(())
    }

    /// `!`, `?`, `!!`, `??`, `!?`, `?!`; `pos` is at the first mark.
    fn annotation<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool) -> io::Result<()> {
        let at = self.here();
        let Some(n) = self.scan(1, true, |b| b != b'!' && b != b'?')? else {
            return self.token_too_long(at);
        };
        let nag = match &self.buf[self.pos..self.pos + n] {
            b"!" => 1,
            b"?" => 2,
            b"!!" => 3,
            b"??" => 4,
            b"!?" => 5,
            b"?!" => 6,
            other => {
                let text = excerpt(other);
                self.fail(at, ErrorKind::InvalidAnnotation(text));
                0
            }
        };
        if nag != 0 && !quiet {
            v.nag(nag);
        }
        self.pos += n;
        Ok(())
    }

    fn token_too_long(&mut self, at: Location) -> io::Result<()> {
        let limit = self.max_len;
        self.fail(at, ErrorKind::TooLarge { what: "token", limit });
        self.pos += 1;
        self.skip_token()
    }

    /// A token starting with a digit: move number, result, or castling
    /// with zeros. `pos` is at the first digit.
    fn number<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool) -> io::Result<Option<GameResult>> {
        // Fast path: a move number `12.` or `12...` followed by more input.
        let data = &self.buf[self.pos..self.end];
        let digits = data.iter().position(|b| !b.is_ascii_digit()).unwrap_or(data.len());
        if data.get(digits) == Some(&b'.') {
            let dots = data[digits..].iter().position(|&b| b != b'.');
            if let Some(d) = dots {
                self.pos += digits + d;
                return Ok(None);
            }
        }
        let at = self.here();
        let Some(n) = self.scan(1, true, |b| !b.is_ascii_digit())? else {
            self.token_too_long(at)?;
            return Ok(None);
        };
        match self.byte(n) {
            Some(b'.') => {
                let Some(m) = self.scan(n, true, |b| b != b'.')? else {
                    self.token_too_long(at)?;
                    return Ok(None);
                };
                self.pos += m;
                Ok(None)
            }
            Some(b'@') => {
                self.drop_move(at, n)?;
                Ok(None)
            }
            Some(b) if is(b, SYM_CONT) => {
                let Some(m) = self.scan(n, true, |b| !is(b, SYM_CONT))? else {
                    self.token_too_long(at)?;
                    return Ok(None);
                };
                let tok = &self.buf[self.pos..self.pos + m];
                let result = match tok {
                    b"1-0" => Some(GameResult::WhiteWins),
                    b"0-1" => Some(GameResult::BlackWins),
                    b"1/2-1/2" => Some(GameResult::Draw),
                    _ => None,
                };
                if result.is_none() {
                    if is_zero_castling(tok) {
                        if !quiet {
                            self.text.clear();
                            self.text.extend(tok.iter().map(|&b| if b == b'0' { 'O' } else { char::from(b) }));
                            v.san(&self.text, at);
                        }
                    } else {
                        let text = excerpt(tok);
                        self.fail(at, ErrorKind::InvalidToken(text));
                    }
                }
                self.pos += m;
                Ok(result)
            }
            _ => {
                // `0000`, the null move in UCI notation; else a move number without its dot.
                if !quiet && n == 4 && &self.buf[self.pos..self.pos + n] == b"0000" {
                    Self::uci_null(v, at);
                }
                self.pos += n;
                Ok(None)
            }
        }
    }

    /// A piece drop like `N@f6`: an error. The token starts at `pos` and
    /// has an `@` at `n`.
    fn drop_move(&mut self, at: Location, n: usize) -> io::Result<Option<GameResult>> {
        let Some(m) = self.scan(n + 1, true, |b| !is(b, SYM_CONT) && b != b'@')? else {
            self.token_too_long(at)?;
            return Ok(None);
        };
        let text = excerpt(&self.buf[self.pos..self.pos + m]);
        self.fail(at, ErrorKind::CrazyhouseDrop(text));
        self.pos += m;
        Ok(None)
    }

    /// A SAN-like token (or `½-½`); `pos` is at its first byte.
    fn symbol<V: Visitor + ?Sized>(&mut self, v: &mut V, quiet: bool) -> io::Result<Option<GameResult>> {
        let at = self.here();
        // Fast path: the token ends within the buffer, in plain ASCII.
        let data = &self.buf[self.pos..self.end];
        if let Some(k) = data[1..].iter().position(|&b| !is(b, SYM_CONT))
            && data[k + 1] != b'@'
            && k < self.max_len
        {
            let tok = &data[..k + 1];
            if let Some(san) = ascii(tok) {
                if !quiet {
                    v.san(if san == "Z0" { NULL_MOVE } else { san }, at);
                }
                self.pos += k + 1;
                return Ok(None);
            }
        }
        let Some(n) = self.scan(1, true, |b| !is(b, SYM_CONT))? else {
            self.token_too_long(at)?;
            return Ok(None);
        };
        if self.byte(n) == Some(b'@') {
            return self.drop_move(at, n);
        }
        let tok = &self.buf[self.pos..self.pos + n];
        if tok == "½-½".as_bytes() {
            self.pos += n;
            return Ok(Some(GameResult::Draw));
        } else if !quiet {
            let san = if tok == b"Z0" { NULL_MOVE } else { decode(tok, &mut self.text) };
            v.san(san, at);
        }
        self.pos += n;
        Ok(None)
    }
}

/// Iterator over owned games, from [`Reader::games`].
#[derive(Debug)]
pub struct Games<'a, R> {
    reader: &'a mut Reader<R>,
    builder: GameBuilder,
}

impl<R: Read> Iterator for Games<'_, R> {
    type Item = Result<Game, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.reader.read_game(&mut self.builder).transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_either_finds_the_first() {
        let naive = |h: &[u8]| h.iter().position(|&b| b == b'}' || b == b'\n');
        let mut hay = vec![b'a'; 40];
        assert_eq!(find_either(&hay, b'}', b'\n'), None);
        for i in 0..hay.len() {
            for j in i..hay.len() {
                hay.fill(b'a');
                hay[j] = b'\n';
                hay[i] = b'}';
                assert_eq!(find_either(&hay, b'}', b'\n'), naive(&hay), "{i} {j}");
                assert_eq!(find_either(&hay[..j], b'}', b'\n'), naive(&hay[..j]));
            }
        }
        // Bytes next to the searched ones (borrows) do not confuse it.
        let hay = [0x7c, 0x7e, 0x0b, 0x09, 0x7d, 0x01, 0xff, 0x00, 0x0a];
        assert_eq!(find_either(&hay, b'}', b'\n'), Some(4));
        assert_eq!(find_either(&hay[5..], b'}', b'\n'), Some(3));
    }

    #[test]
    fn zero_castling_shapes() {
        assert!(is_zero_castling(b"0-0"));
        assert!(is_zero_castling(b"0-0-0#"));
        assert!(is_zero_castling(b"0-0+"));
        assert!(!is_zero_castling(b"0-0++"));
        assert!(!is_zero_castling(b"0-1"));
        assert!(!is_zero_castling(b"0-0-"));
    }

    #[test]
    fn tag_bits_keep_the_roster_apart_and_nothing_usual_on_events() {
        let roster = ["Event", "Site", "Date", "Round", "White", "Black", "Result"];
        for (i, a) in roster.iter().enumerate() {
            for b in &roster[i + 1..] {
                assert_ne!(tag_bit(a.as_bytes()), tag_bit(b.as_bytes()), "{a} {b}");
            }
        }
        // After `Event` and a blank line (ChessBase), none of the usual names is taken for a second `Event`.
        let usual = "Site Date Round White Black Result WhiteElo BlackElo ECO Opening Variation TimeControl \
                     Termination PlyCount EventDate Annotator FEN SetUp Variant UTCDate UTCTime WhiteTitle BlackTitle \
                     WhiteFideId BlackFideId WhiteCountry BlackCountry Board Mode Source SourceDate";
        for name in usual.split_whitespace() {
            assert_ne!(tag_bit(name.as_bytes()), tag_bit(b"Event"), "{name}");
        }
    }

    #[test]
    fn unescape_keeps_unknown_escapes() {
        let mut out = Vec::new();
        unescape(br#"a\"b\\c\n"#, &mut out);
        assert_eq!(out, br#"a"b\c\n"#);
    }

    #[test]
    fn latin1_fallback() {
        let mut s = String::new();
        assert_eq!(decode(b"Ren\xe9", &mut s), "René");
        assert_eq!(decode("马f3".as_bytes(), &mut s), "马f3");
    }

    #[test]
    fn tiny_buffer_reads_tokens_across_chunks() {
        let pgn = "[Event \"A long event name\"]\n\n1. e4 { a comment that is longer than the buffer } e5 1-0\n";
        let mut r = Reader::with_capacity(16, pgn.as_bytes());
        let g = r.read_owned_game().unwrap().unwrap();
        assert_eq!(g.tag("Event"), Some("A long event name"));
        assert_eq!(g.mainline().collect::<Vec<_>>(), ["e4", "e5"]);
        assert_eq!(g.moves.nodes[0].comments_after, ["a comment that is longer than the buffer"]);
        assert!(r.read_owned_game().unwrap().is_none());
    }
}
