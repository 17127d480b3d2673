//! Writing PGN in export format (PGN standard, sections 3.2 and 8).
//!
//! What the writer produces for each game:
//!
//! - the seven-tag roster first, in the order Event, Site, Date, Round,
//!   White, Black, Result; a missing one is written as `?` (`????.??.??` for
//!   Date; for Result, the game's result token). Only the first tag of each
//!   roster name is used, later duplicates are dropped;
//! - then all other tags **in their input order** (the standard also allows
//!   alphabetical order; we keep the order the game came with);
//! - tag values escaped (`\` → `\\`, `"` → `\"`; line breaks and tabs become
//!   spaces, since a tag pair must stay on one line); tag names are written
//!   as given (they should be ASCII letters, digits and `_`);
//! - a blank line, then the movetext wrapped at [`MAX_LINE`] characters
//!   (counted as Unicode scalar values): lines break only between tokens,
//!   a move number stays with its move, and a token longer than the limit
//!   gets a line of its own;
//! - move numbers `12.` before White's moves, and `12...` before a Black
//!   move that opens a line or follows a comment or a variation;
//! - NAGs as `$n`; comments as `{ text }` with their words re-wrapped (a
//!   `}` inside a comment cannot be written and is dropped; a comment word
//!   that would begin a line with `[` or `%` is indented by one space so that
//!   no reader takes it for a tag pair or an escape line, and a first or
//!   last word too long for a line with its brace leaves the brace on a
//!   line of its own); variations in
//!   parentheses, `(` kept with the token after it;
//! - the result token, a line break and a blank line.
//!
//! Move tokens are written exactly as given.

use std::fmt::{self, Write as _};
use std::io::{self, Write};

use crate::model::{Game, Line};
use crate::visitor::GameResult;

impl Game {
    /// Where move numbering starts: from the `FEN` tag if it has one that
    /// gives side to move and move number, else move 1 with White.
    pub fn numbering(&self) -> Numbering {
        self.tag("FEN").and_then(Numbering::from_fen).unwrap_or_default()
    }

    /// The game in PGN export format (see [`write_game`]).
    pub fn to_pgn(&self) -> String {
        let mut out = Vec::new();
        // Writing into a Vec cannot fail.
        let _ = write_game(&mut out, self);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// Maximum length of a movetext line, in characters.
pub const MAX_LINE: usize = 80;

const ROSTER: [(&str, &str); 7] = [
    ("Event", "?"),
    ("Site", "?"),
    ("Date", "????.??.??"),
    ("Round", "?"),
    ("White", "?"),
    ("Black", "?"),
    ("Result", "*"),
];

/// Where move numbering starts: the fullmove number and side to move of the
/// game's first position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Numbering {
    /// The fullmove number of the first move (1 for the standard start).
    pub fullmove: u32,
    /// Whether Black moves first.
    pub black_to_move: bool,
}

impl Default for Numbering {
    /// Move 1, White to move.
    fn default() -> Numbering {
        Numbering { fullmove: 1, black_to_move: false }
    }
}

impl Numbering {
    /// Numbering from move `fullmove` (0 is taken as 1) with the given side
    /// to move.
    pub fn new(fullmove: u32, black_to_move: bool) -> Numbering {
        Numbering { fullmove: fullmove.max(1), black_to_move }
    }

    /// Reads the side-to-move field (2nd) and the fullmove field (6th, 1 if
    /// absent) of a FEN. `None` if the side field is not `w` or `b` or the
    /// fullmove field is not a number. The rest of the FEN is not checked.
    pub fn from_fen(fen: &str) -> Option<Numbering> {
        // Split as the written tag will read: every control character is written as a space.
        let mut fields = fen.split(|c: char| c.is_ascii_whitespace() || c.is_control()).filter(|f| !f.is_empty());
        let black = match fields.nth(1)? {
            "w" | "W" => false,
            "b" | "B" => true,
            _ => return None,
        };
        let fullmove = match fields.nth(3) {
            Some(n) => n.parse().ok()?,
            None => 1,
        };
        Some(Numbering::new(fullmove, black))
    }
}

/// An incremental export-format writer: give it the tags, then the movetext
/// events in order, then [`finish`](Writer::finish) the game; repeat for the
/// next game.
///
/// The game is assembled in memory and written by `finish` in one go (so the
/// movetext methods cannot fail and the tag section can use the result).
/// Move numbers follow from the [`Numbering`] set with
/// [`set_numbering`](Writer::set_numbering), else from a `FEN` tag, else
/// from move 1 with White.
pub struct Writer<W> {
    out: W,
    tags: Vec<(String, String)>,
    numbering: Option<Numbering>,
    /// Numbering in force, fixed by the first move.
    start: Option<Numbering>,
    movetext: String,
    col: usize,
    /// Number of `(` waiting to be written in front of the next token.
    opens: usize,
    /// Index in `movetext` of the space before the last token, if that
    /// token is on the current line after another one.
    last_space: Option<usize>,
    /// Width of the last token (with the parentheses around it).
    last_width: usize,
    /// Scratch space for a comment word.
    word: String,
    /// Half-moves from the start to the next move of the current line.
    ply: u64,
    /// `ply` at the start of the current line.
    line_start_ply: u64,
    /// `(ply, line_start_ply)` of the enclosing lines.
    stack: Vec<(u64, u64)>,
    need_number: bool,
    head: String,
}

impl<W> fmt::Debug for Writer<W> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Writer")
            .field("tags", &self.tags)
            .field("numbering", &self.numbering)
            .field("ply", &self.ply)
            .field("depth", &self.stack.len())
            .finish_non_exhaustive()
    }
}

/// Display width of a token, in characters.
fn width(s: &str) -> usize {
    if s.is_ascii() { s.len() } else { s.chars().count() }
}

fn decimal_width(mut n: u64) -> usize {
    let mut w = 1;
    while n >= 10 {
        n /= 10;
        w += 1;
    }
    w
}

/// One tag line. Free text cannot end the tag early nor start another: in the value a quote and a backslash are
/// escaped and every control character (line feed, carriage return, tab, ...) becomes a blank; a name keeps only
/// what a tag name may hold (ASCII letters, digits, `_`; anything else becomes `_`, at most 64 characters, `_` when
/// empty).
fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    let name_start = out.len();
    out.extend(name.chars().take(64).map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }));
    if out.len() == name_start {
        out.push('_');
    }
    out.push_str(" \"");
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

impl<W: Write> Writer<W> {
    /// A writer into `out` (consider a `BufWriter` for files: each game is
    /// one `write_all`, but a game is small).
    pub fn new(out: W) -> Writer<W> {
        Writer {
            out,
            tags: Vec::new(),
            numbering: None,
            start: None,
            movetext: String::new(),
            col: 0,
            opens: 0,
            last_space: None,
            last_width: 0,
            word: String::new(),
            ply: 0,
            line_start_ply: 0,
            stack: Vec::new(),
            need_number: true,
            head: String::new(),
        }
    }

    /// The output.
    pub fn get_ref(&self) -> &W {
        &self.out
    }

    /// The output.
    pub fn get_mut(&mut self) -> &mut W {
        &mut self.out
    }

    /// Gives back the output (an unfinished game is dropped).
    pub fn into_inner(self) -> W {
        self.out
    }

    /// Adds a tag pair to the current game (see the [module docs](self) for
    /// the order they are written in).
    pub fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_owned(), value.to_owned()));
    }

    /// Sets where move numbering starts, overriding a `FEN` tag. Takes
    /// effect if called before the first move.
    pub fn set_numbering(&mut self, numbering: Numbering) {
        self.numbering = Some(numbering);
    }

    fn start(&mut self) -> Numbering {
        if let Some(n) = self.start {
            return n;
        }
        let n = self.numbering.unwrap_or_else(|| {
            self.tags
                .iter()
                .find(|(name, _)| name == "FEN")
                .and_then(|(_, fen)| Numbering::from_fen(fen))
                .unwrap_or_default()
        });
        self.start = Some(n);
        n
    }

    fn newline(&mut self) {
        self.movetext.push('\n');
        self.col = 0;
        self.last_space = None;
    }

    /// Makes room for a token of `w` characters (a space or a line break)
    /// and writes the `(` that go in front of it.
    fn place(&mut self, w: usize, first: Option<char>) {
        let opens = std::mem::take(&mut self.opens);
        let w = w + opens;
        if self.col > 0 {
            if self.col + 1 + w > MAX_LINE {
                self.newline();
            } else {
                self.last_space = Some(self.movetext.len());
                self.movetext.push(' ');
                self.col += 1;
            }
        }
        self.last_width = w;
        if self.col == 0 && opens == 0 && matches!(first, Some('[' | '%')) {
            self.movetext.push(' ');
            self.col = 1;
        }
        for _ in 0..opens {
            self.movetext.push('(');
        }
        self.col += opens;
    }

    fn token(&mut self, s: &str) {
        let w = width(s);
        self.place(w, s.chars().next());
        self.movetext.push_str(s);
        self.col += w;
    }

    /// A move, written exactly as given, with a move number where needed.
    pub fn san(&mut self, san: &str) {
        let start = self.start();
        let half = u64::from(start.black_to_move) + self.ply;
        let fullmove = u64::from(start.fullmove) + half / 2;
        let black = half % 2 == 1;
        let w = width(san);
        if !black || self.need_number {
            let dots = if black { 3 } else { 1 };
            self.place(decimal_width(fullmove) + dots + 1 + w, None);
            let _ = write!(self.movetext, "{fullmove}{} ", if black { "..." } else { "." });
            self.movetext.push_str(san);
            self.col += decimal_width(fullmove) + dots + 1 + w;
        } else {
            self.token(san);
        }
        self.ply += 1;
        self.need_number = false;
    }

    /// A NAG, as `$n`.
    pub fn nag(&mut self, nag: u8) {
        let mut buf = String::with_capacity(4);
        let _ = write!(buf, "${nag}");
        self.token(&buf);
    }

    /// A comment, as `{ text }` with its words re-wrapped (the braces stay
    /// with the first and last word).
    pub fn comment(&mut self, text: &str) {
        let mut words = text.split_whitespace().filter(|w| w.chars().any(|c| c != '}')).peekable();
        let mut unit = std::mem::take(&mut self.word);
        let mut first = true;
        if words.peek().is_none() {
            self.token("{ }");
        }
        while let Some(word) = words.next() {
            let (opening, closing) = (std::mem::take(&mut first), words.peek().is_none());
            unit.clear();
            unit.extend(word.chars().filter(|&c| c != '}'));
            let braces = 2 * (usize::from(opening) + usize::from(closing));
            if width(&unit) + braces > MAX_LINE {
                // A word too long for any line goes on a line of its own,
                // without the braces.
                if opening {
                    self.token("{");
                }
                self.token(&unit);
                if closing {
                    self.token("}");
                }
                continue;
            }
            if opening {
                unit.insert_str(0, "{ ");
            }
            if closing {
                unit.push_str(" }");
            }
            self.token(&unit);
        }
        self.word = unit;
        self.need_number = true;
    }

    /// Opens a variation: an alternative to the last move written.
    pub fn begin_variation(&mut self) {
        self.start();
        self.stack.push((self.ply, self.line_start_ply));
        if self.ply > self.line_start_ply {
            self.ply -= 1;
        }
        self.line_start_ply = self.ply;
        self.opens += 1;
        self.need_number = true;
    }

    /// Closes the innermost variation (ignored if none is open).
    pub fn end_variation(&mut self) {
        let Some((ply, line_start_ply)) = self.stack.pop() else {
            return;
        };
        self.ply = ply;
        self.line_start_ply = line_start_ply;
        if self.opens > 0 {
            // An empty variation.
            self.place(1, None);
        } else if self.col + 1 > MAX_LINE {
            // No room: take the last token along to the next line rather
            // than start a line with `)`.
            match self.last_space {
                Some(i) if !matches!(self.movetext.as_bytes().get(i + 1), Some(b'[' | b'%')) => {
                    self.movetext.replace_range(i..=i, "\n");
                    self.col = self.last_width;
                    self.last_space = None;
                }
                _ => self.newline(),
            }
        }
        self.movetext.push(')');
        self.col += 1;
        self.last_width += 1;
        self.need_number = true;
    }

    /// Ends the game with its result token (closing any open variation),
    /// writes it out, and gets ready for the next game.
    pub fn finish(&mut self, result: GameResult) -> io::Result<()> {
        while !self.stack.is_empty() {
            self.end_variation();
        }
        self.token(result.as_str());

        let mut head = std::mem::take(&mut self.head);
        head.clear();
        for (name, default) in ROSTER {
            let value = match self.tags.iter().find(|(n, _)| n == name) {
                Some((_, v)) => v.as_str(),
                None if name == "Result" => result.as_str(),
                None => default,
            };
            push_tag(&mut head, name, value);
        }
        for (name, value) in &self.tags {
            if !ROSTER.iter().any(|(r, _)| r == name) {
                push_tag(&mut head, name, value);
            }
        }
        head.push('\n');
        head.push_str(&self.movetext);
        head.push_str("\n\n");
        let written = self.out.write_all(head.as_bytes());
        self.head = head;
        self.reset();
        written
    }

    fn reset(&mut self) {
        self.tags.clear();
        self.numbering = None;
        self.start = None;
        self.movetext.clear();
        self.col = 0;
        self.opens = 0;
        self.last_space = None;
        self.last_width = 0;
        self.ply = 0;
        self.line_start_ply = 0;
        self.stack.clear();
        self.need_number = true;
    }
}

/// Writes a [`Game`] in export format (see the [module docs](self)).
///
/// The result token is the game's result, else its `Result` tag if that
/// holds one, else `*`. Numbering follows the `FEN` tag, if any.
pub fn write_game<W: Write>(out: W, game: &Game) -> io::Result<()> {
    let mut w = Writer::new(out);
    for (name, value) in &game.tags {
        w.tag(name, value);
    }
    write_line(&mut w, &game.moves);
    let result = game.result.or_else(|| game.tag("Result").and_then(|r| r.parse().ok())).unwrap_or(GameResult::Unknown);
    w.finish(result)
}

fn write_line<W: Write>(w: &mut Writer<W>, line: &Line) {
    for node in &line.nodes {
        for c in &node.comments_before {
            w.comment(c);
        }
        w.san(&node.san);
        for &nag in &node.nags {
            w.nag(nag);
        }
        for c in &node.comments_after {
            w.comment(c);
        }
        for variation in &node.variations {
            w.begin_variation();
            write_line(w, variation);
            w.end_variation();
        }
    }
    for c in &line.comments {
        w.comment(c);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn render(f: impl FnOnce(&mut Writer<&mut Vec<u8>>)) -> String {
        let mut out = Vec::new();
        let mut w = Writer::new(&mut out);
        f(&mut w);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn numbering_from_fen() {
        assert_eq!(
            Numbering::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 12"),
            Some(Numbering::new(12, true))
        );
        assert_eq!(Numbering::from_fen("8/8/8/8/8/8/8/8 w - -"), Some(Numbering::new(1, false)));
        assert_eq!(Numbering::from_fen("8/8/8/8/8/8/8/8 x - - 0 1"), None);
        assert_eq!(Numbering::from_fen("8/8/8/8/8/8/8/8 w - - 0 0"), Some(Numbering::new(1, false)));
        // A control character separates fields, as the space it is written as does.
        assert_eq!(
            Numbering::from_fen("8/8/8/8/8/8/8/8\u{1f}b - - 0 3"),
            Numbering::from_fen("8/8/8/8/8/8/8/8 b - - 0 3")
        );
    }

    #[test]
    fn roster_defaults_and_order() {
        let s = render(|w| {
            w.tag("WhiteElo", "2000");
            w.tag("White", "A \"quoted\" \\ name");
            w.tag("Event", "E");
            w.tag("ECO", "C20");
            w.san("e4");
            w.finish(GameResult::WhiteWins).unwrap();
        });
        assert_eq!(
            s,
            "[Event \"E\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n[Round \"?\"]\n\
             [White \"A \\\"quoted\\\" \\\\ name\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\
             [WhiteElo \"2000\"]\n[ECO \"C20\"]\n\n1. e4 1-0\n\n"
        );
    }

    #[test]
    fn black_start_and_numbers_after_comments_and_variations() {
        let s = render(|w| {
            w.set_numbering(Numbering::new(12, true));
            w.san("Nf6");
            w.san("Nc3");
            w.comment("text");
            w.san("e5");
            w.begin_variation();
            w.san("d5");
            w.san("exd5");
            w.end_variation();
            w.san("Nf3");
            w.nag(1);
            w.san("Nc6");
            w.finish(GameResult::Unknown).unwrap();
        });
        let movetext = s.split("\n\n").nth(1).unwrap();
        assert_eq!(movetext, "12... Nf6 13. Nc3 { text } 13... e5 (13... d5 14. exd5) 14. Nf3 $1 Nc6 *");
    }

    #[test]
    fn wraps_at_80_and_never_inside_tokens() {
        let long = "x".repeat(100);
        let s = render(|w| {
            for i in 0..60 {
                w.san(if i % 2 == 0 { "Nf3" } else { "Nf6" });
            }
            w.comment(&format!("a {long} b"));
            w.finish(GameResult::Draw).unwrap();
        });
        let movetext = s.split("\n\n").nth(1).unwrap();
        for line in movetext.lines() {
            assert!(line.len() <= MAX_LINE || line == long, "{line:?}");
        }
        assert!(movetext.lines().any(|l| l == long));
        assert!(movetext.ends_with("1/2-1/2"));
    }

    #[test]
    fn an_over_long_first_or_last_comment_word_leaves_its_brace_behind() {
        // Found by the property test: `{ ` in front of an 80-character word
        // made an 82-character line.
        let long = "y".repeat(MAX_LINE);
        for text in [format!("{long} c"), format!("c {long}"), long.clone()] {
            let s = render(|w| {
                w.comment(&text);
                w.finish(GameResult::Unknown).unwrap();
            });
            let movetext = s.split("\n\n").nth(1).unwrap();
            for line in movetext.lines() {
                assert!(line.chars().count() <= MAX_LINE || line == long, "{line:?} in {movetext:?}");
            }
            assert!(movetext.lines().any(|l| l == long), "{movetext:?}");
            assert!(movetext.starts_with('{') && movetext.ends_with("} *"), "{movetext:?}");
        }
    }

    #[test]
    fn comment_words_do_not_start_lines_with_bracket_or_percent() {
        let s = render(|w| {
            w.comment(&format!("{} [Event \"x\"] %y", "w".repeat(75)));
            w.finish(GameResult::Unknown).unwrap();
        });
        let movetext = s.split("\n\n").nth(1).unwrap();
        for line in movetext.lines() {
            assert!(!line.starts_with('[') && !line.starts_with('%'), "{line:?}");
        }
    }
}
