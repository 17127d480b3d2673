//! Standard Algebraic Notation: reading and writing moves as people do (`e4`, `Nbd2`, `exd8=Q+`, `O-O`), also with
//! Chinese piece letters (`马f3`, `e8=后`) and in long form (`Ng1-f3`).
//!
//! Reading happens in two steps. [`SanPlus::parse`] / [`San::parse`] look at the text alone, without a board, and
//! either produce the move's syntax or a [`ParseSanError`] that names the offending characters. Resolving
//! ([`San::to_move`], [`Position::parse_san`]) then matches that syntax against the legal moves of a position and
//! explains, in English and Chinese, why nothing matched or why several moves did ([`SanError`]).
//!
//! The reader is forgiving about what people actually type (see [`Position::parse_san`] for the list); the writer
//! ([`Position::san`], [`Position::san_zh`], [`Position::lan`], [`movetext`]) always produces the standard form.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::lang::{Lang, Text};
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, File, Rank, Role, Square};
use crate::uci::UciMove;
use core::fmt;
use core::fmt::Write as _;

/// Longest text (in characters, after trimming) that the parser looks at; anything longer is not a move.
const MAX_CHARS: usize = 40;

// ----- syntax ------------------------------------------------------------------------------------------------------

/// Which side castling goes to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// `O-O`: with the rook on the h-side of the king.
    KingSide,
    /// `O-O-O`: with the rook on the a-side of the king.
    QueenSide,
}

impl CastlingSide {
    /// `O-O` or `O-O-O`.
    pub const fn notation(self) -> &'static str {
        match self {
            CastlingSide::KingSide => "O-O",
            CastlingSide::QueenSide => "O-O-O",
        }
    }
}

/// A move in SAN as written, not yet matched to a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move. `file`/`rank` are the (optional) disambiguation of the moving piece's square; for a
    /// pawn capture `file` is the pawn's file.
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        /// Whether an `x` was written. Resolving does not insist on it either way.
        capture: bool,
        to: Square,
        promotion: Option<Role>,
    },
    Castle(CastlingSide),
    /// `--` (or `Z0`): passing the move, as some PGN tools write it. Never a legal move.
    Null,
}

/// Check or mate mark after a move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#` (also read from `++`)
    Checkmate,
}

impl Suffix {
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// A SAN move with its check/mate mark and move-quality glyph.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    pub san: San,
    pub suffix: Option<Suffix>,
    /// The annotation glyph as a PGN NAG: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`.
    pub nag: Option<u8>,
}

/// The glyph written for NAGs 1–6.
pub fn nag_glyph(nag: u8) -> Option<&'static str> {
    match nag {
        1 => Some("!"),
        2 => Some("?"),
        3 => Some("!!"),
        4 => Some("??"),
        5 => Some("!?"),
        6 => Some("?!"),
        _ => None,
    }
}

/// What is wrong with a text that should be SAN.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseSanErrorKind {
    /// Nothing but white space.
    Empty,
    /// Longer than any move could be.
    TooLong,
    /// Only check marks or annotations, no move.
    MissingMove,
    /// The destination square is missing (`N`, `Nf`, `Nx`).
    MissingDestination,
    /// Two characters in the place of a square that do not name one (`f9`, `i3`).
    NotASquare(String),
    /// A character that has no place in SAN where it stands.
    UnexpectedChar(char),
    /// The text after `=` (or in parentheses) is not a piece a pawn can promote to.
    BadPromotion(String),
    /// `=` or `/` with nothing after it.
    MissingPromotion,
    /// Looked like castling but is not `O-O` or `O-O-O`.
    BadCastling,
    /// A run of `!`/`?` that is not one of the six move glyphs.
    BadAnnotation(String),
    /// A run of `+`/`#` that is not `+`, `#` or `++`.
    BadCheckMark(String),
    /// A check mark, glyph or `e.p.` written twice.
    Repeated(String),
}

/// Text that is not a move in SAN. `at` counts characters from the start of `text` (the trimmed input).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSanError {
    pub text: String,
    pub at: usize,
    pub kind: ParseSanErrorKind,
}

impl ParseSanError {
    /// The problem alone, without the text, in both languages.
    pub fn problem(&self) -> Text {
        use ParseSanErrorKind as K;
        let pos = self.at + 1;
        let (en, zh) = match &self.kind {
            K::Empty => ("there is no move, the text is empty".to_string(), "内容为空，没有着法".to_string()),
            K::TooLong => (
                format!("too long to be a move (more than {MAX_CHARS} characters)"),
                format!("太长了，不像一步着法（超过 {MAX_CHARS} 个字符）"),
            ),
            K::MissingMove => ("there is only a mark or annotation, no move".into(), "只有符号或评注，没有着法".into()),
            K::MissingDestination => ("the destination square is missing".into(), "缺少目标格".into()),
            K::NotASquare(s) => (format!("'{s}' is not a square"), format!("'{s}' 不是棋盘上的格子")),
            K::UnexpectedChar(c) => {
                (format!("unexpected '{c}' (character {pos})"), format!("第 {pos} 个字符 '{c}' 不该出现在这里"))
            }
            K::BadPromotion(s) => (
                format!("a pawn cannot promote to '{s}': only to Q, R, B or N"),
                format!("兵不能升变为 '{s}'：只能升变为后、车、象或马（Q、R、B、N）"),
            ),
            K::MissingPromotion => (
                format!("the promotion piece is missing after character {pos}"),
                format!("第 {pos} 个字符后缺少升变的棋子"),
            ),
            K::BadCastling => ("castling is written O-O or O-O-O".into(), "王车易位应写作 O-O 或 O-O-O".into()),
            K::BadAnnotation(s) => (
                format!("'{s}' is not a move annotation (use !, ?, !!, ??, !? or ?!)"),
                format!("'{s}' 不是着法评注（可用 !、?、!!、??、!?、?!）"),
            ),
            K::BadCheckMark(s) => {
                (format!("'{s}' is not a check mark (use + or #)"), format!("'{s}' 不是将军符号（用 + 或 #）"))
            }
            K::Repeated(s) => (format!("'{s}' is written twice"), format!("'{s}' 重复出现")),
        };
        Text { en, zh }
    }

    /// The whole message in both languages, e.g. `'Nf9': 'f9' is not a square`.
    pub fn text(&self) -> Text {
        let p = self.problem();
        Text { en: format!("'{}': {}", self.text, p.en), zh: format!("'{}'：{}", self.text, p.zh) }
    }

    pub fn message(&self, lang: Lang) -> String {
        self.text().get(lang).to_string()
    }
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text().en)
    }
}

impl std::error::Error for ParseSanError {}

/// Maps what Chinese input methods and word processors produce onto the ASCII SAN uses: full-width letters, digits
/// and signs, `×` for captures, typographic dashes, `〇` for castling's O. One character in, one out, so positions
/// in the input and in the normalised text agree.
fn normalize(c: char) -> char {
    match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        '×' | '✕' | '⨯' => 'x',
        '‐' | '‑' | '‒' | '–' | '—' | '−' => '-',
        '〇' => 'O',
        _ => c,
    }
}

/// A piece letter at the start of a move: upper-case English, the unambiguous lower-case ones (never `b`, which
/// is a file), or a Chinese letter.
fn leading_role(c: char) -> Option<Role> {
    match c {
        'K' | 'Q' | 'R' | 'B' | 'N' | 'P' | 'k' | 'q' | 'r' | 'n' | 'p' => Role::from_char(c),
        _ => Role::from_zh_char(c),
    }
}

/// Whether `c` names a piece when written as a promotion (any case, or Chinese).
fn is_piece_char(c: char) -> bool {
    Role::from_char(c).is_some() || Role::from_zh_char(c).is_some()
}

fn promotion_role(c: char) -> Option<Role> {
    match Role::from_char(c).or_else(|| Role::from_zh_char(c)) {
        Some(r @ (Role::Knight | Role::Bishop | Role::Rook | Role::Queen)) => Some(r),
        _ => None,
    }
}

fn is_glyph_char(c: char) -> bool {
    matches!(c, '!' | '?' | '‼' | '⁇' | '⁈' | '⁉')
}

struct Parser<'a> {
    /// The trimmed input, as written.
    orig: &'a [char],
    /// The same, normalised.
    c: &'a [char],
}

impl Parser<'_> {
    fn err(&self, at: usize, kind: ParseSanErrorKind) -> ParseSanError {
        ParseSanError { text: self.orig.iter().collect(), at, kind }
    }

    fn orig(&self, from: usize, to: usize) -> String {
        self.orig[from..to].iter().collect()
    }

    fn parse(&self) -> Result<SanPlus, ParseSanError> {
        use ParseSanErrorKind as K;
        let c = self.c;
        if c.is_empty() {
            return Err(self.err(0, K::Empty));
        }
        let (end, suffix, nag) = self.strip_tail()?;
        if end == 0 {
            return Err(self.err(0, K::MissingMove));
        }
        let body = &c[..end];
        let san = if body == ['-', '-'] || body == ['Z', '0'] {
            San::Null
        } else if matches!(body[0], 'O' | 'o' | '0') {
            self.castling(end)?
        } else {
            self.normal(end)?
        };
        Ok(SanPlus { san, suffix, nag })
    }

    /// Takes check marks, glyphs, `e.p.` and spaces off the end, in any order. Returns where the move ends.
    fn strip_tail(&self) -> Result<(usize, Option<Suffix>, Option<u8>), ParseSanError> {
        use ParseSanErrorKind as K;
        let c = self.c;
        let mut end = c.len();
        let (mut suffix, mut nag, mut ep) = (None, None, false);
        while end > 0 {
            let last = c[end - 1];
            if last.is_whitespace() {
                end -= 1;
            } else if is_glyph_char(last) {
                let mut start = end;
                while start > 0 && is_glyph_char(c[start - 1]) {
                    start -= 1;
                }
                let mut s = String::new();
                for &g in &c[start..end] {
                    s.push_str(match g {
                        '‼' => "!!",
                        '⁇' => "??",
                        '⁈' => "?!",
                        '⁉' => "!?",
                        '!' => "!",
                        _ => "?",
                    });
                }
                let v = (1..=6).find(|&n| nag_glyph(n) == Some(s.as_str()));
                let Some(v) = v else {
                    return Err(self.err(start, K::BadAnnotation(self.orig(start, end))));
                };
                if nag.is_some() {
                    return Err(self.err(start, K::Repeated(self.orig(start, end))));
                }
                nag = Some(v);
                end = start;
            } else if last == '+' || last == '#' {
                let mut start = end;
                while start > 0 && matches!(c[start - 1], '+' | '#') {
                    start -= 1;
                }
                let s = match &c[start..end] {
                    ['+'] => Suffix::Check,
                    ['#'] | ['+', '+'] => Suffix::Checkmate,
                    _ => return Err(self.err(start, K::BadCheckMark(self.orig(start, end)))),
                };
                if suffix.is_some() {
                    return Err(self.err(start, K::Repeated(self.orig(start, end))));
                }
                suffix = Some(s);
                end = start;
            } else if c[..end].ends_with(&['e', '.', 'p', '.'])
                || (end >= 3 && c[end - 2..end] == ['e', 'p'] && (c[end - 3].is_ascii_digit() || c[end - 3] == ' '))
            {
                let start = if last == '.' { end - 4 } else { end - 2 };
                if ep {
                    return Err(self.err(start, K::Repeated(self.orig(start, end))));
                }
                ep = true;
                end = start;
            } else {
                break;
            }
        }
        Ok((end, suffix, nag))
    }

    fn castling(&self, end: usize) -> Result<San, ParseSanError> {
        let body = &self.c[..end];
        let is_o = |ch: char| matches!(ch, 'O' | 'o' | '0');
        let dashed = body.len() % 2 == 1
            && body.iter().enumerate().all(|(i, &ch)| if i % 2 == 0 { is_o(ch) } else { ch == '-' });
        let plain = body.iter().all(|&ch| is_o(ch));
        let letters = if dashed { body.len().div_ceil(2) } else { body.len() };
        match (dashed || plain, letters) {
            (true, 2) => Ok(San::Castle(CastlingSide::KingSide)),
            (true, 3) => Ok(San::Castle(CastlingSide::QueenSide)),
            _ => Err(self.err(0, ParseSanErrorKind::BadCastling)),
        }
    }

    fn normal(&self, end: usize) -> Result<San, ParseSanError> {
        use ParseSanErrorKind as K;
        let c = self.c;
        let (role, i) = match leading_role(c[0]) {
            Some(r) => (r, 1),
            None => (Role::Pawn, 0),
        };
        let mut j = end;

        // Promotion, from the end: `=Q`, `/Q`, `(Q)` or a bare letter right after the rank.
        let mut promotion = None;
        if c[j - 1] == ')' {
            if j >= i + 3 && c[j - 3] == '(' {
                let r = promotion_role(c[j - 2])
                    .ok_or_else(|| self.err(j - 2, K::BadPromotion(self.orig(j - 2, j - 1))))?;
                promotion = Some(r);
                j -= 3;
            } else {
                return Err(self.err(j - 1, K::UnexpectedChar(self.orig[j - 1])));
            }
        } else if j >= i + 2 && matches!(c[j - 2], '=' | '/') {
            let r = promotion_role(c[j - 1]).ok_or_else(|| self.err(j - 1, K::BadPromotion(self.orig(j - 1, j))))?;
            promotion = Some(r);
            j -= 2;
        } else if j >= i + 2 && c[j - 2].is_ascii_digit() && is_piece_char(c[j - 1]) {
            let r = promotion_role(c[j - 1]).ok_or_else(|| self.err(j - 1, K::BadPromotion(self.orig(j - 1, j))))?;
            promotion = Some(r);
            j -= 1;
        } else if matches!(c[j - 1], '=' | '/') {
            return Err(self.err(j - 1, K::MissingPromotion));
        }

        // The destination square.
        if j <= i {
            return Err(self.err(j, K::MissingDestination));
        }
        let last = c[j - 1];
        if !last.is_ascii_digit() {
            return Err(if File::from_char(last).is_some() || matches!(last, 'x' | 'X' | ':' | '-') {
                self.err(j, K::MissingDestination)
            } else {
                self.err(j - 1, K::UnexpectedChar(self.orig[j - 1]))
            });
        }
        if j < i + 2 {
            return Err(self.err(j - 1, K::MissingDestination));
        }
        let to = match (File::from_char(c[j - 2]), Rank::from_char(last)) {
            (Some(f), Some(r)) => Square::from_coords(f, r),
            _ if c[j - 2].is_alphanumeric() => {
                return Err(self.err(j - 2, K::NotASquare(self.orig(j - 2, j))));
            }
            _ => return Err(self.err(j - 1, K::MissingDestination)),
        };
        j -= 2;

        // Capture mark (or LAN's dash).
        let mut capture = false;
        if j > i && matches!(c[j - 1], 'x' | 'X' | ':' | '-') {
            capture = c[j - 1] != '-';
            j -= 1;
        }

        // Disambiguation: file, rank, or both.
        let mut k = i;
        let file = File::from_char(c.get(k).copied().unwrap_or(' ')).filter(|_| k < j);
        if file.is_some() {
            k += 1;
        }
        let rank = Rank::from_char(c.get(k).copied().unwrap_or(' ')).filter(|_| k < j);
        if rank.is_some() {
            k += 1;
        }
        if k < j {
            return Err(self.err(k, K::UnexpectedChar(self.orig[k])));
        }
        Ok(San::Normal { role, file, rank, capture, to, promotion })
    }
}

impl SanPlus {
    /// Reads SAN with its suffixes, without a board. Accepts the variants listed at [`Position::parse_san`].
    pub fn parse(s: &str) -> Result<SanPlus, ParseSanError> {
        let t = s.trim();
        let orig: Vec<char> = t.chars().take(MAX_CHARS + 1).collect();
        if orig.len() > MAX_CHARS {
            let text: String = orig[..MAX_CHARS].iter().collect();
            return Err(ParseSanError { text: text + "…", at: MAX_CHARS, kind: ParseSanErrorKind::TooLong });
        }
        let c: Vec<char> = orig.iter().map(|&x| normalize(x)).collect();
        Parser { orig: &orig, c: &c }.parse()
    }

    /// The move with its check or mate mark, for playing `m` in `pos` (which must be legal).
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        SanPlus { san, suffix: suffix_after(&pos.after(m)), nag: None }
    }

    /// Like [`SanPlus::from_move`], and plays the move on `pos` (saves a copy when writing a whole game).
    pub fn from_move_and_play_unchecked(pos: &mut Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        pos.play_unchecked(m);
        SanPlus { san, suffix: suffix_after(pos), nag: None }
    }

    /// Resolves against a position; suffixes are not checked.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.san.to_move(pos)
    }

    /// The same move written with Chinese piece letters.
    pub fn to_string_zh(&self) -> String {
        let mut s = String::with_capacity(12);
        write_san(&mut s, &self.san, true);
        self.write_tail(&mut s);
        s
    }

    fn write_tail(&self, s: &mut String) {
        if let Some(x) = self.suffix {
            s.push(x.char());
        }
        if let Some(g) = self.nag.and_then(nag_glyph) {
            s.push_str(g);
        }
    }
}

fn suffix_after(after: &Position) -> Option<Suffix> {
    if !after.is_check() {
        None
    } else if after.has_legal_move() {
        Some(Suffix::Check)
    } else {
        Some(Suffix::Checkmate)
    }
}

impl San {
    /// Reads SAN without a board; a check mark, glyph or `e.p.` after the move is accepted and dropped (use
    /// [`SanPlus::parse`] to keep them).
    pub fn parse(s: &str) -> Result<San, ParseSanError> {
        SanPlus::parse(s).map(|p| p.san)
    }

    /// The SAN of a legal move, with the least disambiguation that makes it unique (file if that suffices, else
    /// rank, else both). Looks only at the pieces of the same kind that could reach the same square.
    pub fn from_move(pos: &Position, m: Move) -> San {
        if m.is_castle() {
            return San::Castle(if m.is_kingside_castle() { CastlingSide::KingSide } else { CastlingSide::QueenSide });
        }
        let from = m.from();
        let to = m.to();
        let role = pos.role_at(from).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(m);
        let promotion = m.promotion_role();
        let (file, rank) = match role {
            Role::Pawn => (capture.then_some(from.file()), None),
            Role::King => (None, None),
            _ => disambiguation(pos, role, from, to),
        };
        San::Normal { role, file, rank, capture, to, promotion }
    }

    /// The same move written with Chinese piece letters.
    pub fn to_string_zh(&self) -> String {
        let mut s = String::with_capacity(10);
        write_san(&mut s, self, true);
        s
    }

    /// Finds the legal move this SAN stands for. A missing or superfluous `x` is tolerated, and so is more
    /// disambiguation than needed.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        match resolve_quick(pos, self) {
            Some(m) => Ok(m),
            None => resolve(pos, self, &self.to_string()),
        }
    }
}

/// The common case, without allocation: exactly one legal move fits. Anything else (no move, several, a missing
/// promotion piece, castling) returns `None`, and [`resolve`] then works out the precise error.
#[inline]
fn resolve_quick(pos: &Position, san: &San) -> Option<Move> {
    let San::Normal { role, file, rank, capture, to, promotion } = *san else { return None };
    let mut from = pos.pieces(pos.turn(), role);
    if let Some(f) = file {
        from &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        from &= Bitboard::from_rank(r);
    }
    let occ = pos.occupied();
    match role {
        // Written without a file, a pawn move goes straight ahead.
        Role::Pawn if file.is_none() && !capture => from &= Bitboard::from_file(to.file()),
        Role::Pawn => {}
        // Only pieces that reach `to` at all are worth generating for.
        Role::Knight => from &= attacks::knight_attacks(to),
        Role::Bishop => from &= attacks::bishop_attacks(to, occ),
        Role::Rook => from &= attacks::rook_attacks(to, occ),
        Role::Queen => from &= attacks::queen_attacks(to, occ),
        Role::King => from &= attacks::king_attacks(to),
    }
    if from.is_empty() {
        return None;
    }
    let mut found = None;
    let mut count = 0;
    pos.generate_from(from, Bitboard::from_square(to), false, |pm| {
        pm.for_each(|m| {
            if m.to() == to && m.promotion_role() == promotion {
                count += 1;
                found = Some(m);
            }
        })
    });
    if count == 1 { found } else { None }
}

/// Reads the standard ASCII shapes (`Nf3`, `exd5`, `Raxd1+`, `e8=Q#`, `N1c3`, `Qh4xe1`) straight from the bytes.
/// Anything else — castling, sloppy forms, Chinese letters, full-width input — returns `None` for the full parser.
#[inline]
fn parse_quick(text: &str) -> Option<San> {
    let mut b = text.as_bytes();
    while let [rest @ .., b'+' | b'#' | b'!' | b'?'] = b {
        b = rest;
    }
    let (role, mut b) = match b.first()? {
        b'N' => (Role::Knight, &b[1..]),
        b'B' => (Role::Bishop, &b[1..]),
        b'R' => (Role::Rook, &b[1..]),
        b'Q' => (Role::Queen, &b[1..]),
        b'K' => (Role::King, &b[1..]),
        b'a'..=b'h' => (Role::Pawn, b),
        _ => return None,
    };
    let mut promotion = None;
    if let [rest @ .., b'=', p] = b {
        if role != Role::Pawn {
            return None;
        }
        promotion = Some(match p {
            b'N' => Role::Knight,
            b'B' => Role::Bishop,
            b'R' => Role::Rook,
            b'Q' => Role::Queen,
            _ => return None,
        });
        b = rest;
    }
    let [rest @ .., f @ b'a'..=b'h', r @ b'1'..=b'8'] = b else { return None };
    let to = Square::from_coords(File::new((f - b'a') as u32), Rank::new((r - b'1') as u32));
    let (capture, rest) = match rest {
        [rest @ .., b'x'] => (true, rest),
        _ => (false, rest),
    };
    let (file, rank) = match rest {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(File::new((f - b'a') as u32)), None),
        [r @ b'1'..=b'8'] if role != Role::Pawn => (None, Some(Rank::new((r - b'1') as u32))),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] if role != Role::Pawn => {
            (Some(File::new((f - b'a') as u32)), Some(Rank::new((r - b'1') as u32)))
        }
        _ => return None,
    };
    if role == Role::Pawn && (file.is_some() != capture) {
        return None; // `ed5` or `xd5`: sloppy, for the full parser
    }
    Some(San::Normal { role, file, rank, capture, to, promotion })
}

/// Other pieces of `role` that can legally move to `to` as well, and the shortest way to tell `from` from them.
fn disambiguation(pos: &Position, role: Role, from: Square, to: Square) -> (Option<File>, Option<Rank>) {
    let us = pos.turn();
    let occ = pos.occupied();
    let reach = match role {
        Role::Knight => attacks::knight_attacks(to),
        Role::Bishop => attacks::bishop_attacks(to, occ),
        Role::Rook => attacks::rook_attacks(to, occ),
        Role::Queen => attacks::queen_attacks(to, occ),
        Role::Pawn | Role::King => Bitboard::EMPTY,
    };
    let others = reach & pos.pieces(us, role).without(from);
    if others.is_empty() {
        return (None, None);
    }
    // The move itself is legal, so `to` already answers any check; a rival is held back only by a pin.
    let pinned = pos.pinned(us);
    let king = pos.king(us);
    let mut rivals = Bitboard::EMPTY;
    for s in others {
        if !pinned.contains(s) || attacks::aligned(king, s, to) {
            rivals |= s;
        }
    }
    if rivals.is_empty() {
        (None, None)
    } else if (rivals & Bitboard::from_file(from.file())).is_empty() {
        (Some(from.file()), None)
    } else if (rivals & Bitboard::from_rank(from.rank())).is_empty() {
        (None, Some(from.rank()))
    } else {
        (Some(from.file()), Some(from.rank()))
    }
}

fn role_letter(role: Role, zh: bool) -> char {
    if zh { role.zh_char() } else { role.upper_char() }
}

fn write_san(s: &mut String, san: &San, zh: bool) {
    match *san {
        San::Normal { role, file, rank, capture, to, promotion } => {
            if role != Role::Pawn {
                s.push(role_letter(role, zh));
            }
            if let Some(f) = file {
                s.push(f.char());
            }
            if let Some(r) = rank {
                s.push(r.char());
            }
            if capture {
                s.push('x');
            }
            s.push(to.file().char());
            s.push(to.rank().char());
            if let Some(p) = promotion {
                s.push('=');
                s.push(role_letter(p, zh));
            }
        }
        San::Castle(side) => s.push_str(side.notation()),
        San::Null => s.push_str("--"),
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(8);
        write_san(&mut s, self, false);
        f.write_str(&s)
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(10);
        write_san(&mut s, &self.san, false);
        self.write_tail(&mut s);
        f.write_str(&s)
    }
}

impl core::str::FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::parse(s)
    }
}

impl core::str::FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s)
    }
}

// ----- resolving ---------------------------------------------------------------------------------------------------

/// Why a text could not be turned into a legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// The text is not SAN at all.
    Parse(ParseSanError),
    /// Well-formed, but no legal move matches. `reason` explains (without repeating the move).
    Illegal { san: String, reason: Text },
    /// Several legal moves match: the pieces on `from` can all move to `to`; `suggestions` are the unambiguous
    /// ways to write each of them.
    Ambiguous { san: String, role: Role, to: Square, from: Vec<Square>, suggestions: Vec<String> },
}

fn plural_en(role: Role) -> String {
    format!("{}s", role.name())
}

/// `a`, `a and b`, `a, b and c` (or `…or…`).
fn join_en(items: &[String], last_word: &str) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} {last_word} {last}", init.join(", ")),
    }
}

impl SanError {
    /// The message in both languages.
    pub fn text(&self) -> Text {
        match self {
            SanError::Parse(e) => e.text(),
            SanError::Illegal { san, reason } => {
                Text { en: format!("{san}: {}", reason.en), zh: format!("{san}：{}", reason.zh) }
            }
            SanError::Ambiguous { san, role, to, from, suggestions } => {
                let squares: Vec<String> = from.iter().map(|s| s.to_string()).collect();
                let both = if from.len() == 2 { "both" } else { "all" };
                Text {
                    en: format!(
                        "{san} is ambiguous: the {} on {} can {both} move to {to} — write {}",
                        plural_en(*role),
                        join_en(&squares, "and"),
                        join_en(suggestions, "or")
                    ),
                    zh: format!(
                        "{san} 有歧义：{} 上的{}都能走到 {to}——请写 {}",
                        squares.join("、"),
                        role.zh_char(),
                        suggestions.join(" 或 ")
                    ),
                }
            }
        }
    }

    pub fn message(&self, lang: Lang) -> String {
        self.text().get(lang).to_string()
    }
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text().en)
    }
}

impl std::error::Error for SanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            SanError::Parse(e) => Some(e),
            _ => None,
        }
    }
}

impl From<ParseSanError> for SanError {
    fn from(e: ParseSanError) -> SanError {
        SanError::Parse(e)
    }
}

fn illegal(san: &str, en: String, zh: String) -> SanError {
    SanError::Illegal { san: san.to_string(), reason: Text { en, zh } }
}

/// Whether the input was written with Chinese piece letters (then suggestions are too).
fn uses_zh(text: &str) -> bool {
    text.chars().any(|c| Role::from_zh_char(c).is_some())
}

fn side_name(side: CastlingSide) -> (&'static str, &'static str) {
    match side {
        CastlingSide::KingSide => ("king side (O-O)", "短易位（O-O）"),
        CastlingSide::QueenSide => ("queen side (O-O-O)", "长易位（O-O-O）"),
    }
}

fn resolve(pos: &Position, san: &San, text: &str) -> Result<Move, SanError> {
    match *san {
        San::Null => Err(illegal(text, "a null move (--) is not a legal move".into(), "空着（--）不是合法着法".into())),
        San::Castle(side) => {
            let mut found = None;
            pos.generate(Bitboard::EMPTY, true, |pm| {
                pm.for_each(|m| {
                    if m.is_castle() && m.is_kingside_castle() == (side == CastlingSide::KingSide) {
                        found = Some(m);
                    }
                })
            });
            found.ok_or_else(|| explain_castling(pos, side, text))
        }
        San::Normal { role, file, rank, capture, to, promotion } => {
            let mut found: Vec<Move> = Vec::new();
            let mut promotes = false;
            pos.generate(Bitboard::from_square(to), false, |pm| {
                if pm.role != role {
                    return;
                }
                // (`pm.from` is not the origin for pawn sets: look at each move.)
                pm.for_each(|m| {
                    let from = m.from();
                    if m.to() != to || file.is_some_and(|f| from.file() != f) || rank.is_some_and(|r| from.rank() != r)
                    {
                        return;
                    }
                    // A pawn move written without a file goes straight ahead, unless an `x` says it captures.
                    if role == Role::Pawn && file.is_none() && !capture && from.file() != to.file() {
                        return;
                    }
                    if m.promotion_role() == promotion {
                        found.push(m);
                    } else if promotion.is_none() {
                        promotes = true;
                    }
                });
            });
            match found.as_slice() {
                [m] => Ok(*m),
                [] => Err(explain_normal(pos, san, text, promotes)),
                many => {
                    let mut many = many.to_vec();
                    many.sort_by_key(|m| (m.from().file(), m.from().rank()));
                    let zh = uses_zh(text);
                    let suggestions =
                        many.iter().map(|&m| if zh { pos.san_zh_bare(m) } else { pos.san_bare(m) }).collect();
                    Err(SanError::Ambiguous {
                        san: text.to_string(),
                        role,
                        to,
                        from: many.iter().map(|m| m.from()).collect(),
                        suggestions,
                    })
                }
            }
        }
    }
}

fn explain_castling(pos: &Position, side: CastlingSide, text: &str) -> SanError {
    let us = pos.turn();
    let king = pos.king(us);
    let (side_en, side_zh) = side_name(side);
    let rook =
        pos.castling_rooks_of(us).into_iter().find(|r| (r.file() > king.file()) == (side == CastlingSide::KingSide));
    let Some(rook) = rook else {
        return illegal(
            text,
            format!("{} may no longer castle {side_en}", us.name()),
            format!("{}已不能{side_zh}", us.name_zh()),
        );
    };
    if pos.is_check() {
        return illegal(text, "the king may not castle out of check".into(), "王正被将军，不能易位".into());
    }
    let m = Move::castle(king, rook);
    let occ = pos.occupied() ^ king ^ rook;
    let path = attacks::between(king, m.king_to())
        | m.king_to()
        | attacks::between(rook, m.castle_rook_to())
        | m.castle_rook_to();
    if (path & occ).any() {
        return illegal(
            text,
            "the squares between the king and the rook must be empty".into(),
            "王和车之间的格子必须是空的".into(),
        );
    }
    illegal(
        text,
        "the king would pass through or land on an attacked square".into(),
        "王会经过或停在受对方攻击的格子上".into(),
    )
}

/// Whether `role` on `from` could go to `to` by the way it moves, ignoring the safety of its own king.
fn pseudo_reaches(pos: &Position, role: Role, from: Square, to: Square, pushes_only: bool) -> bool {
    let us = pos.turn();
    if pos.by_color(us).contains(to) {
        return false;
    }
    let occ = pos.occupied();
    if role != Role::Pawn {
        return attacks::attacks(role, us, from, occ).contains(to);
    }
    let step = if us == Color::White { 8 } else { -8 };
    let one = from.offset(step);
    let push1 = one == Some(to) && !occ.contains(to);
    let push2 = from.rank() == Rank::Second.relative(us)
        && from.offset(2 * step) == Some(to)
        && one.is_some_and(|o| !occ.contains(o))
        && !occ.contains(to);
    let takes = !pushes_only
        && attacks::pawn_attacks(us, from).contains(to)
        && (pos.by_color(!us).contains(to) || pos.ep_square() == Some(to));
    push1 || push2 || takes
}

fn explain_normal(pos: &Position, san: &San, text: &str, promotes: bool) -> SanError {
    let San::Normal { role, file, rank, capture, to, promotion } = *san else {
        return illegal(text, "no legal move matches".into(), "没有合法着法与之相符".into());
    };
    let us = pos.turn();
    let (name, zh_name) = (role.name(), role.zh_char());
    let zh = uses_zh(text);
    let write = |m: Move| {
        if zh { pos.san_zh_bare(m) } else { pos.san_bare(m) }
    };

    // Every legal move of this kind of piece to the square, whatever the disambiguation said.
    let mut alternatives: Vec<Move> = Vec::new();
    pos.generate(Bitboard::from_square(to), false, |pm| {
        if pm.role == role {
            pm.for_each(|m| {
                if m.promotion_role().is_none() || m.promotion_role() == promotion.or(Some(Role::Queen)) {
                    alternatives.push(m)
                }
            })
        }
    });
    let hint = |en: String, zh_text: String| -> SanError {
        if alternatives.is_empty() {
            illegal(text, en, zh_text)
        } else {
            let alts: Vec<String> = alternatives.iter().map(|&m| write(m)).collect();
            illegal(
                text,
                format!("{en} (did you mean {}?)", join_en(&alts, "or")),
                format!("{zh_text}（是不是想走 {}？）", alts.join(" 或 ")),
            )
        }
    };

    let ours = pos.pieces(us, role);
    if ours.is_empty() {
        return illegal(text, format!("{} has no {name}", us.name()), format!("{}没有{zh_name}", us.name_zh()));
    }
    if promotion.is_some() {
        if role != Role::Pawn {
            return illegal(text, "only a pawn can promote".into(), "只有兵才能升变".into());
        }
        if to.rank() != us.promotion_rank() {
            let r = us.promotion_rank().char();
            return illegal(
                text,
                format!("a pawn promotes only on reaching rank {r}, and {to} is not on it"),
                format!("兵只有走到第 {r} 横排才能升变，{to} 不在那一排"),
            );
        }
    }
    let mut from_mask = ours;
    if let Some(f) = file {
        from_mask &= Bitboard::from_file(f);
    }
    if let Some(r) = rank {
        from_mask &= Bitboard::from_rank(r);
    }
    let (where_en, where_zh) = match (file, rank) {
        (Some(f), Some(r)) => {
            let s = Square::from_coords(f, r);
            (format!(" on {s}"), format!("{s} 上的"))
        }
        (Some(f), None) => (format!(" on the {}-file", f.char()), format!("{} 线上的", f.char())),
        (None, Some(r)) => (format!(" on rank {}", r.char()), format!("第 {} 横排上的", r.char())),
        (None, None) => (String::new(), String::new()),
    };
    if from_mask.is_empty() {
        return hint(format!("there is no {name}{where_en}"), format!("没有{where_zh}{zh_name}"));
    }
    if let Some(own) = pos.role_at(to).filter(|_| pos.by_color(us).contains(to)) {
        return hint(format!("{to} is taken by your own {}", own.name()), format!("{to} 上是己方的{}", own.zh_char()));
    }
    if promotes {
        let alts: Vec<String> = Role::PROMOTIONS
            .iter()
            .filter_map(|&p| {
                let s = San::Normal { role, file, rank, capture, to, promotion: Some(p) };
                resolve(pos, &s, "").ok().map(write)
            })
            .collect();
        return illegal(
            text,
            format!("a pawn reaching the last rank must promote: write {}", join_en(&alts, "or")),
            format!("兵走到底线必须升变：请写 {}", alts.join("、")),
        );
    }
    let pushes_only = role == Role::Pawn && file.is_none() && !capture;
    if let Some(from) = from_mask.into_iter().find(|&f| pseudo_reaches(pos, role, f, to, pushes_only)) {
        if role == Role::King {
            return illegal(
                text,
                format!("the king may not move to {to}: it would be in check there"),
                format!("王不能走到 {to}：那里受到攻击"),
            );
        }
        if pos.is_check() {
            return hint(
                format!("the king is in check, and moving the {name} on {from} to {to} does not answer it"),
                format!("王正被将军，{from} 上的{zh_name}走到 {to} 不能解除将军"),
            );
        }
        return hint(
            format!("the {name} on {from} is pinned: moving it to {to} would expose the king"),
            format!("{from} 上的{zh_name}被牵制：走到 {to} 会让己方的王被将军"),
        );
    }
    hint(format!("no {name}{where_en} can move to {to}"), format!("没有{where_zh}{zh_name}能走到 {to}"))
}

// ----- writing ---------------------------------------------------------------------------------------------------

/// How [`movetext`] and [`Position::notation`] write moves.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum SanStyle {
    /// Standard SAN with English letters: `Nf3`, `exd8=Q+`, `O-O`.
    #[default]
    Standard,
    /// SAN with Chinese letters: `马f3`, `exd8=后+`, `O-O`.
    Chinese,
    /// Long algebraic: `Ng1-f3`, `e7xd8=Q+`, `O-O`.
    Long,
}

impl Position {
    /// Standard SAN of a legal move, with `+`/`#`: `Nbd2`, `exd8=Q+`, `O-O-O#`.
    pub fn san(&self, m: Move) -> String {
        SanPlus::from_move(self, m).to_string()
    }

    /// SAN with Chinese piece letters (王 后 车 象 马; pawns have none): `马f3`, `象xb5+`, `e8=后`.
    pub fn san_zh(&self, m: Move) -> String {
        SanPlus::from_move(self, m).to_string_zh()
    }

    /// SAN without `+`/`#` (does not need to play the move).
    pub fn san_bare(&self, m: Move) -> String {
        San::from_move(self, m).to_string()
    }

    /// Chinese SAN without `+`/`#`.
    pub fn san_zh_bare(&self, m: Move) -> String {
        San::from_move(self, m).to_string_zh()
    }

    /// Long algebraic notation: `e2-e4`, `Ng1-f3`, `Nf3xe5`, `e7-e8=Q`, `O-O`, with `+`/`#`.
    pub fn lan(&self, m: Move) -> String {
        let mut s = String::with_capacity(10);
        write_lan(&mut s, self, m);
        if let Some(x) = suffix_after(&self.after(m)) {
            s.push(x.char());
        }
        s
    }

    /// The move written in the given style.
    pub fn notation(&self, m: Move, style: SanStyle) -> String {
        match style {
            SanStyle::Standard => self.san(m),
            SanStyle::Chinese => self.san_zh(m),
            SanStyle::Long => self.lan(m),
        }
    }

    /// Reads a move in SAN and finds it among the legal moves.
    ///
    /// Besides standard SAN this accepts: castling as `O-O`/`0-0`/`o-o` (and `OO`); check, mate (`+`, `#`, `++`)
    /// and glyphs (`!`, `?`, `!!`, `??`, `!?`, `?!`) in any order, not checked; `e.p.`/`ep` after an en-passant
    /// capture; promotions as `e8=Q`, `e8Q`, `e8(Q)`, `e8/Q`, with a lower-case or Chinese letter; an `x` where
    /// nothing is taken or none where something is; more disambiguation than needed (`Ngf3`, `Ng1f3`); long
    /// algebraic (`e2-e4`, `Ng1-f3`, `Ng1xf3`, `e7-e8=Q`) and `e2e4`; a `P` before pawn moves; lower-case piece
    /// letters `n r q k` (a lower-case `b` is a pawn's file, and read as a bishop only when no pawn move fits);
    /// Chinese piece letters (王 后 车/車 象 马/馬, 兵/卒 for pawns); and full-width characters (`ｅ４`, `＋`, `×`,
    /// `Ｏ－Ｏ`).
    pub fn parse_san(&self, s: &str) -> Result<Move, SanError> {
        // PGN tokens come trimmed already; trimming is only paid for when needed.
        let text = match s.as_bytes() {
            [a, .., z] if !a.is_ascii_whitespace() && !z.is_ascii_whitespace() => s,
            _ => s.trim(),
        };
        if let Some(m) = parse_quick(text).and_then(|san| resolve_quick(self, &san)) {
            return Ok(m);
        }
        let first = match SanPlus::parse(text) {
            Ok(sp) => resolve(self, &sp.san, text),
            Err(e) => Err(SanError::Parse(e)),
        };
        match first {
            Err(e @ (SanError::Parse(_) | SanError::Illegal { .. })) => self.bishop_fallback(text).ok_or(e),
            other => other,
        }
    }

    /// `bc4`, `bxc4`, `bf1c4`: when the lower-case `b` read as a pawn's file fits no legal move, tries it as a
    /// bishop.
    fn bishop_fallback(&self, text: &str) -> Option<Move> {
        let mut chars = text.chars();
        if chars.next().map(normalize) != Some('b') {
            return None;
        }
        let rest = chars.as_str();
        if rest.chars().next().map(normalize).is_none_or(|c| c.is_ascii_digit()) {
            return None;
        }
        let sp = SanPlus::parse(&format!("B{rest}")).ok()?;
        resolve(self, &sp.san, text).ok()
    }

    /// Like [`Position::parse_san`], then, when that fails, tries the text as UCI (`e2e4`, `e1g1`, `e1h1`,
    /// `e7e8q`). The SAN error is returned when both fail (unless only the UCI reading was well-formed).
    pub fn parse_move_any(&self, s: &str) -> Result<Move, SanError> {
        let err = match self.parse_san(s) {
            Ok(m) => return Ok(m),
            Err(e) => e,
        };
        let text = s.trim();
        let normalized: String = text.chars().map(normalize).collect();
        match UciMove::parse(&normalized) {
            Ok(u) => match u.to_move(self) {
                Ok(m) => Ok(m),
                Err(_) if matches!(err, SanError::Parse(_)) => Err(illegal(
                    text,
                    format!("read as UCI {u}, which is not a legal move here"),
                    format!("按 UCI 读作 {u}，但这步棋在此局面下不合法"),
                )),
                Err(_) => Err(err),
            },
            Err(_) => Err(err),
        }
    }

    /// Reads a SAN move (as [`Position::parse_san`]) and plays it.
    pub fn play_san(&mut self, s: &str) -> Result<Move, SanError> {
        let m = self.parse_san(s)?;
        self.play_unchecked(m);
        Ok(m)
    }
}

fn write_lan(s: &mut String, pos: &Position, m: Move) {
    if m.is_castle() {
        s.push_str(if m.is_kingside_castle() { "O-O" } else { "O-O-O" });
        return;
    }
    let role = pos.role_at(m.from()).unwrap_or(Role::Pawn);
    if role != Role::Pawn {
        s.push(role.upper_char());
    }
    let _ = write!(s, "{}", m.from());
    s.push(if pos.is_capture(m) { 'x' } else { '-' });
    let _ = write!(s, "{}", m.to());
    if let Some(p) = m.promotion_role() {
        s.push('=');
        s.push(p.upper_char());
    }
}

fn write_styled(out: &mut String, pos: &mut Position, m: Move, style: SanStyle) {
    match style {
        SanStyle::Standard => {
            let sp = SanPlus::from_move_and_play_unchecked(pos, m);
            let _ = write!(out, "{sp}");
        }
        SanStyle::Chinese => out.push_str(&SanPlus::from_move_and_play_unchecked(pos, m).to_string_zh()),
        SanStyle::Long => {
            write_lan(out, pos, m);
            pos.play_unchecked(m);
            if let Some(x) = suffix_after(pos) {
                out.push(x.char());
            }
        }
    }
}

/// Numbered movetext for `moves` played from `start`: `1. e4 e5 2. Nf3`, or `12... Nf6 13. c4` when black moves
/// first. Writing stops before the first move that is not legal (see [`try_movetext`] to be told).
pub fn movetext(start: &Position, moves: &[Move], style: SanStyle) -> String {
    movetext_inner(start, moves, style).0
}

/// Like [`movetext`], but fails with the index of the first move that is not legal in its position.
pub fn try_movetext(start: &Position, moves: &[Move], style: SanStyle) -> Result<String, usize> {
    match movetext_inner(start, moves, style) {
        (s, None) => Ok(s),
        (_, Some(i)) => Err(i),
    }
}

fn movetext_inner(start: &Position, moves: &[Move], style: SanStyle) -> (String, Option<usize>) {
    let mut pos = start.clone();
    let mut out = String::with_capacity(moves.len() * 6);
    for (i, &m) in moves.iter().enumerate() {
        if !pos.is_legal(m) {
            return (out, Some(i));
        }
        if i > 0 {
            out.push(' ');
        }
        match pos.turn() {
            Color::White => {
                let _ = write!(out, "{}. ", pos.fullmoves());
            }
            Color::Black if i == 0 => {
                let _ = write!(out, "{}... ", pos.fullmoves());
            }
            Color::Black => {}
        }
        write_styled(&mut out, &mut pos, m, style);
    }
    (out, None)
}

#[cfg(test)]
mod quick_tests {
    use super::*;

    /// Wherever the fast path accepts text, it reads it exactly as the full parser does.
    #[test]
    fn quick_parser_agrees_with_full_parser() {
        let mut texts: Vec<String> = Vec::new();
        let mut seed: u64 = 0x5EED;
        for _ in 0..200 {
            let mut pos = Position::new();
            for _ in 0..80 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                for &m in moves.iter() {
                    let san = pos.san(m);
                    let lan = pos.lan(m);
                    texts.push(san.clone());
                    texts.push(lan);
                    // Over-disambiguated and sloppy variants.
                    let from = m.from().to_string();
                    texts.push(format!("{}{}", &san[..san.len().min(1)], &from));
                    texts.push(san.replace('x', ""));
                    texts.push(format!("{san}!?"));
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos.play_unchecked(moves[(seed % moves.len() as u64) as usize]);
            }
        }
        for extra in ["e8=Q", "e8=K", "exd", "Nxx4", "N", "", "x", "Ka1b2c3", "ed5", "xd5", "b8=Q+", "Pe4", "e4e5"] {
            texts.push(extra.to_string());
        }
        let mut accepted = 0;
        for t in &texts {
            if let Some(q) = parse_quick(t) {
                accepted += 1;
                let full = SanPlus::parse(t).unwrap_or_else(|e| panic!("{t}: quick accepts, full rejects: {e}"));
                assert_eq!(full.san, q, "{t}");
            }
        }
        assert!(accepted > texts.len() / 3, "the fast path should take most real SAN ({accepted}/{})", texts.len());
    }
}
