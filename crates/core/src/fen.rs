//! FEN, X-FEN and Shredder-FEN: text → [`Setup`] (syntax only) → [`Position`] (validated), and back.
//!
//! Parsing never looks at chess rules: it only checks the six fields' syntax and names the field that is wrong.
//! Validation then lists every problem that makes the setup unplayable or impossible. [`Validation::Relaxed`]
//! accepts odd-but-playable setups (impossible checks, too many pieces, pawns on the last rank, castling rights or
//! en-passant squares that do not fit are dropped) — what perft suites and puzzle composers need.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use core::fmt;

/// A castling letter as written in the FEN, before it is matched to a rook.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CastlingToken {
    /// `K`/`k`: the outermost rook on the h-side of the king.
    KingSide,
    /// `Q`/`q`: the outermost rook on the a-side of the king.
    QueenSide,
    /// `A`–`H`/`a`–`h` (Shredder-FEN / X-FEN): the rook on this file.
    File(File),
}

/// A position as written, not yet validated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: [Option<Piece>; 64],
    pub turn: Color,
    pub castling: Vec<(Color, CastlingToken)>,
    pub ep_square: Option<Square>,
    pub halfmoves: u32,
    pub fullmoves: u32,
}

/// Which part of a FEN a [`FenError`] is about.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FenField {
    Whole,
    Placement,
    Turn,
    Castling,
    EnPassant,
    Halfmove,
    Fullmove,
}

impl FenField {
    pub fn number(self) -> usize {
        match self {
            FenField::Whole => 0,
            FenField::Placement => 1,
            FenField::Turn => 2,
            FenField::Castling => 3,
            FenField::EnPassant => 4,
            FenField::Halfmove => 5,
            FenField::Fullmove => 6,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FenField::Whole => "FEN",
            FenField::Placement => "piece placement",
            FenField::Turn => "side to move",
            FenField::Castling => "castling",
            FenField::EnPassant => "en passant",
            FenField::Halfmove => "halfmove clock",
            FenField::Fullmove => "fullmove number",
        }
    }
}

/// A FEN that cannot be read: which field, its text, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FenError {
    pub field: FenField,
    pub text: String,
    pub problem: String,
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.field {
            FenField::Whole => write!(f, "FEN '{}': {}", self.text, self.problem),
            field => write!(f, "field {} ({}): '{}' — {}", field.number(), field.name(), self.text, self.problem),
        }
    }
}

impl std::error::Error for FenError {}

fn err(field: FenField, text: &str, problem: impl Into<String>) -> FenError {
    // Keep error messages readable even for absurdly long input.
    let text: String = if text.chars().count() > 100 {
        text.chars().take(100).chain("…".chars()).collect()
    } else {
        text.to_string()
    };
    FenError { field, text, problem: problem.into() }
}

impl Setup {
    /// Parses FEN (also X-FEN and Shredder-FEN castling, and 4-field EPD-style FEN without the counters).
    pub fn parse(fen: &str) -> Result<Setup, FenError> {
        let trimmed = fen.trim();
        if trimmed.is_empty() {
            return Err(err(FenField::Whole, fen, "empty; expected six space-separated fields"));
        }
        let fields: Vec<&str> = trimmed.split_ascii_whitespace().collect();
        if fields.len() > 6 {
            return Err(err(
                FenField::Whole,
                trimmed,
                format!(
                    "{} fields, expected at most 6 (placement, side, castling, en passant, halfmove, fullmove)",
                    fields.len()
                ),
            ));
        }
        let board = parse_placement(fields[0])?;
        let turn = match fields.get(1).copied() {
            None => Color::White,
            Some("w") | Some("W") => Color::White,
            Some("b") | Some("B") => Color::Black,
            Some(t) => return Err(err(FenField::Turn, t, "expected 'w' or 'b'")),
        };
        let castling = match fields.get(2) {
            None => Vec::new(),
            Some(c) => parse_castling(c)?,
        };
        let ep_square = match fields.get(3).copied() {
            None | Some("-") => None,
            Some(t) => match Square::parse(t) {
                Some(sq) if sq.rank() == Rank::Third || sq.rank() == Rank::Sixth => Some(sq),
                Some(_) => return Err(err(FenField::EnPassant, t, "must be a square on rank 3 or 6, or '-'")),
                None => return Err(err(FenField::EnPassant, t, "not a square; expected e.g. 'e3' or '-'")),
            },
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(t) => parse_number(FenField::Halfmove, t)?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(t) => {
                let n = parse_number(FenField::Fullmove, t)?;
                // Some writers emit 0; treat it as 1 rather than rejecting the whole position.
                n.max(1)
            }
        };
        Ok(Setup { board, turn, castling, ep_square, halfmoves, fullmoves })
    }
}

fn parse_number(field: FenField, t: &str) -> Result<u32, FenError> {
    if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
        return Err(err(field, t, "expected a non-negative whole number"));
    }
    t.parse::<u32>().map_err(|_| err(field, t, "number too large"))
}

fn parse_placement(t: &str) -> Result<[Option<Piece>; 64], FenError> {
    let mut board = [None; 64];
    // Accept the common "[...]"-free form only; ranks are separated by '/'.
    let ranks: Vec<&str> = t.split('/').collect();
    if ranks.len() != 8 {
        return Err(err(FenField::Placement, t, format!("{} ranks, expected 8 separated by '/'", ranks.len())));
    }
    for (i, rank_text) in ranks.iter().enumerate() {
        let rank = 7 - i as u32;
        let mut file = 0u32;
        let mut prev_digit = false;
        for c in rank_text.chars() {
            if let Some(d) = c.to_digit(10) {
                if d == 0 || d > 8 {
                    return Err(err(
                        FenField::Placement,
                        t,
                        format!("rank {}: '{c}' is not a count of 1–8 empty squares", rank + 1),
                    ));
                }
                if prev_digit {
                    return Err(err(FenField::Placement, t, format!("rank {}: two digits in a row", rank + 1)));
                }
                prev_digit = true;
                file += d;
            } else if let Some(p) = Piece::from_char(c) {
                prev_digit = false;
                if file < 8 {
                    board[(rank * 8 + file) as usize] = Some(p);
                }
                file += 1;
            } else if c == '~' && file > 0 {
                // Crazyhouse "promoted" marker; meaningless in standard chess, tolerated.
                continue;
            } else {
                return Err(err(FenField::Placement, t, format!("unknown piece letter '{c}' on rank {}", rank + 1)));
            }
            if file > 8 {
                return Err(err(FenField::Placement, t, format!("rank {} has more than 8 squares", rank + 1)));
            }
        }
        if file < 8 {
            return Err(err(FenField::Placement, t, format!("rank {} has only {file} squares, expected 8", rank + 1)));
        }
    }
    Ok(board)
}

fn parse_castling(t: &str) -> Result<Vec<(Color, CastlingToken)>, FenError> {
    if t == "-" {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    for c in t.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let token = match c.to_ascii_lowercase() {
            'k' => CastlingToken::KingSide,
            'q' => CastlingToken::QueenSide,
            l @ 'a'..='h' => CastlingToken::File(File::from_char(l).unwrap_or(File::A)),
            _ => return Err(err(FenField::Castling, t, format!("unknown letter '{c}'"))),
        };
        if out.contains(&(color, token)) {
            return Err(err(FenField::Castling, t, format!("letter '{c}' given twice")));
        }
        out.push((color, token));
    }
    Ok(out)
}

/// How strictly to validate a setup.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Validation {
    /// Only positions that can arise in a game (as far as cheap checks can tell).
    #[default]
    Strict,
    /// Any setup that can be played: one king each, the side not to move not in check.
    Relaxed,
}

/// Which castling notation a position uses.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CastlingMode {
    /// Decide from the setup: Chess960 when the castling rights need it.
    #[default]
    Auto,
    Standard,
    Chess960,
}

/// One reason a setup is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    MissingKing(Color),
    TooManyKings(Color),
    /// The side that is not to move is in check: its king could be captured.
    OppositeCheck,
    PawnsOnBackRank,
    /// More than 16 pieces or more than 8 pawns of one colour.
    TooManyPieces(Color),
    /// More pieces beyond the initial set (which can only come from promotions) than pawns missing.
    ImpossibleMaterial(Color),
    /// Three or more checkers, or two that no legal move can give at once.
    ImpossibleCheck,
    /// A castling letter with no matching king and rook.
    BadCastlingRights(String),
    /// An en-passant square that no double step can have produced.
    BadEnPassant(String),
    /// Chess960 castling in a position read as standard chess.
    NeedsChess960(String),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::MissingKing(c) => write!(f, "no {} king", c.name()),
            SetupProblem::TooManyKings(c) => write!(f, "more than one {} king", c.name()),
            SetupProblem::OppositeCheck => write!(f, "side not to move is in check"),
            SetupProblem::PawnsOnBackRank => write!(f, "pawns on the first or last rank"),
            SetupProblem::TooManyPieces(c) => {
                write!(f, "too many {} pieces (at most 16, of which at most 8 pawns)", c.name())
            }
            SetupProblem::ImpossibleMaterial(c) => {
                write!(f, "impossible {} material: more promoted pieces than missing pawns", c.name())
            }
            SetupProblem::ImpossibleCheck => {
                write!(f, "impossible check (no legal move gives check by these pieces at once)")
            }
            SetupProblem::BadCastlingRights(s) => write!(f, "field 3 (castling): {s}"),
            SetupProblem::BadEnPassant(s) => write!(f, "field 4 (en passant): {s}"),
            SetupProblem::NeedsChess960(s) => write!(f, "field 3 (castling): {s} — this needs Chess960 mode"),
        }
    }
}

/// A setup that is not a valid position; lists every problem found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    pub problems: Vec<SetupProblem>,
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PositionError {}

/// Either a syntax error or an invalid position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    Fen(FenError),
    Position(PositionError),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Fen(e) => e.fmt(f),
            ParseFenError::Position(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for ParseFenError {}

impl From<FenError> for ParseFenError {
    fn from(e: FenError) -> Self {
        ParseFenError::Fen(e)
    }
}

impl From<PositionError> for ParseFenError {
    fn from(e: PositionError) -> Self {
        ParseFenError::Position(e)
    }
}

/// The standard starting position's FEN.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Position {
    /// Reads a FEN strictly, deciding standard or Chess960 castling from the setup.
    pub fn from_fen(fen: &str) -> Result<Position, ParseFenError> {
        Position::from_fen_with(fen, CastlingMode::Auto, Validation::Strict)
    }

    /// Reads a FEN with the given castling mode and strictness.
    pub fn from_fen_with(fen: &str, mode: CastlingMode, validation: Validation) -> Result<Position, ParseFenError> {
        let setup = Setup::parse(fen)?;
        Ok(Position::from_setup(&setup, mode, validation)?)
    }

    /// Validates a setup into a position, listing every problem.
    pub fn from_setup(setup: &Setup, mode: CastlingMode, validation: Validation) -> Result<Position, PositionError> {
        let strict = validation == Validation::Strict;
        let mut problems = Vec::new();
        let mut p = Position::empty();
        for (i, piece) in setup.board.iter().enumerate() {
            if let Some(piece) = piece {
                p.put(Square::new(i as u32), *piece);
            }
        }
        p.turn = setup.turn;
        p.halfmoves = setup.halfmoves;
        p.fullmoves = setup.fullmoves.max(1);

        for c in Color::ALL {
            match p.pieces(c, Role::King).count() {
                0 => problems.push(SetupProblem::MissingKing(c)),
                1 => {}
                _ => problems.push(SetupProblem::TooManyKings(c)),
            }
        }
        if !problems.is_empty() {
            // Without one king each, nothing else can be judged.
            return Err(PositionError { problems });
        }

        // Castling rights.
        let mut chess960_needed = false;
        for &(color, token) in &setup.castling {
            let king = p.king(color);
            let back = Bitboard::from_rank(color.back_rank());
            let letter = castling_letter(color, token);
            if !back.contains(king) {
                if strict {
                    problems.push(SetupProblem::BadCastlingRights(format!(
                        "'{letter}' but the {} king is not on its first rank",
                        color.name()
                    )));
                }
                continue;
            }
            let rooks = p.pieces(color, Role::Rook) & back;
            let rook = match token {
                CastlingToken::KingSide => rooks.into_iter().filter(|r| r.file() > king.file()).last(),
                CastlingToken::QueenSide => rooks.into_iter().find(|r| r.file() < king.file()),
                CastlingToken::File(f) => {
                    let sq = Square::from_coords(f, color.back_rank());
                    if rooks.contains(sq) && sq != king { Some(sq) } else { None }
                }
            };
            let Some(rook) = rook else {
                if strict {
                    problems.push(SetupProblem::BadCastlingRights(format!(
                        "'{letter}' but there is no {} rook to castle with on that side",
                        color.name()
                    )));
                }
                continue;
            };
            // Only one right per side of the king.
            let side_mask = if rook.file() > king.file() {
                p.castling_rooks_of(color) & files_above(king.file())
            } else {
                p.castling_rooks_of(color) & !files_above(king.file())
            };
            if side_mask.any() && !side_mask.contains(rook) {
                if strict {
                    problems.push(SetupProblem::BadCastlingRights(format!(
                        "'{letter}': two castling rights on the same side of the {} king",
                        color.name()
                    )));
                }
                continue;
            }
            if king.file() != File::E || (rook.file() != File::A && rook.file() != File::H) {
                chess960_needed = true;
            }
            p.castles |= rook;
        }
        p.chess960 = match mode {
            CastlingMode::Auto => chess960_needed,
            CastlingMode::Standard => {
                if chess960_needed {
                    if strict {
                        problems
                            .push(SetupProblem::NeedsChess960("king or rook not on its standard square".to_string()));
                    } else {
                        // Relaxed: keep only the rights that standard chess can express.
                        for r in p.castles {
                            let c = if r.rank() == Rank::First { Color::White } else { Color::Black };
                            if p.king(c).file() != File::E || (r.file() != File::A && r.file() != File::H) {
                                p.castles ^= r;
                            }
                        }
                    }
                }
                false
            }
            CastlingMode::Chess960 => true,
        };

        // Pieces and pawns.
        if (p.by_role(Role::Pawn) & Bitboard::BACK_RANKS).any() && strict {
            problems.push(SetupProblem::PawnsOnBackRank);
        }
        for c in Color::ALL {
            if strict && (p.by_color(c).count() > 16 || p.pieces(c, Role::Pawn).count() > 8) {
                problems.push(SetupProblem::TooManyPieces(c));
            } else if strict && promoted_at_least(&p, c) + p.pieces(c, Role::Pawn).count() > 8 {
                // Each piece beyond the initial set came from a promotion, which used up a pawn.
                problems.push(SetupProblem::ImpossibleMaterial(c));
            }
        }

        // Checks.
        let us = p.turn;
        let them = !us;
        if p.is_attacked(p.king(them), us) {
            problems.push(SetupProblem::OppositeCheck);
        }

        // En passant: the square behind a pawn that has just stepped two squares.
        if let Some(ep) = setup.ep_square {
            let pusher_sq = ep.offset(if us == Color::White { -8 } else { 8 });
            let origin = ep.offset(if us == Color::White { 8 } else { -8 });
            let expected_rank = Rank::Sixth.relative(us);
            let problem = if ep.rank() != expected_rank {
                Some(format!("'{ep}' is on the wrong rank for {} to move", us.name()))
            } else if pusher_sq.is_none_or(|s| !p.pieces(them, Role::Pawn).contains(s)) {
                Some(format!("'{ep}' but no {} pawn stands in front of it", them.name()))
            } else if p.occupied.contains(ep) || origin.is_some_and(|o| p.occupied.contains(o)) {
                Some(format!("'{ep}' but the squares the pawn passed are not empty"))
            } else {
                None
            };
            match problem {
                Some(msg) if strict => problems.push(SetupProblem::BadEnPassant(msg)),
                Some(_) => {}
                None => {
                    if p.ep_capture_is_legal(ep) {
                        p.ep_square = Some(ep);
                    }
                }
            }
        }

        if strict && p.is_check() && !check_is_possible(&p, setup.ep_square) {
            problems.push(SetupProblem::ImpossibleCheck);
        }

        if problems.is_empty() {
            p.hash = p.hash_from_scratch();
            Ok(p)
        } else {
            Err(PositionError { problems })
        }
    }

    /// FEN with all six fields; castling in X-FEN for Chess960 positions.
    pub fn fen(&self) -> String {
        self.fen_with(false)
    }

    /// FEN with castling in Shredder-FEN (rook files) when `shredder` is set.
    pub fn fen_with(&self, shredder: bool) -> String {
        format!("{} {} {}", self.epd_with(shredder), self.halfmoves, self.fullmoves)
    }

    /// The first four FEN fields (placement, side, castling, en passant): the position's identity.
    pub fn epd(&self) -> String {
        self.epd_with(false)
    }

    fn epd_with(&self, shredder: bool) -> String {
        let mut s = self.placement();
        s.push(' ');
        s.push(self.turn.char());
        s.push(' ');
        let castling = self.castling_string(shredder);
        s.push_str(&castling);
        s.push(' ');
        match self.ep_square {
            Some(ep) => s.push_str(&ep.to_string()),
            None => s.push('-'),
        }
        s
    }

    /// The first FEN field.
    pub fn placement(&self) -> String {
        let mut s = String::with_capacity(72);
        for r in (0..8).rev() {
            let mut empty = 0;
            for f in 0..8 {
                match self.piece_at(Square::new(r * 8 + f)) {
                    Some(p) => {
                        if empty > 0 {
                            s.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        s.push(p.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push(char::from(b'0' + empty));
            }
            if r > 0 {
                s.push('/');
            }
        }
        s
    }

    fn castling_string(&self, shredder: bool) -> String {
        let mut s = String::new();
        for c in Color::ALL {
            let king = self.king(c);
            let rooks = self.castling_rooks_of(c);
            let back_rooks = self.pieces(c, Role::Rook) & Bitboard::from_rank(c.back_rank());
            // King side first, then queen side, as FEN writes "KQkq".
            let mut sides: Vec<Square> = rooks.into_iter().collect();
            sides.sort_by_key(|r| core::cmp::Reverse(r.file()));
            for r in sides {
                let kingside = r.file() > king.file();
                let outermost = if kingside {
                    back_rooks.into_iter().filter(|x| x.file() > king.file()).last() == Some(r)
                } else {
                    back_rooks.into_iter().find(|x| x.file() < king.file()) == Some(r)
                };
                let letter = if shredder || (self.chess960 && !outermost) {
                    r.file().char()
                } else if kingside {
                    'k'
                } else {
                    'q'
                };
                s.push(if c == Color::White { letter.to_ascii_uppercase() } else { letter });
            }
        }
        if s.is_empty() {
            s.push('-');
        }
        s
    }

    /// The position as an unchecked setup (for editing).
    pub fn to_setup(&self) -> Setup {
        let mut board = [None; 64];
        for (i, b) in board.iter_mut().enumerate() {
            *b = self.piece_at(Square::new(i as u32));
        }
        let mut castling = Vec::new();
        for r in self.castles {
            let c = if r.rank() == Rank::First { Color::White } else { Color::Black };
            castling.push((c, CastlingToken::File(r.file())));
        }
        Setup {
            board,
            turn: self.turn,
            castling,
            ep_square: self.ep_square,
            halfmoves: self.halfmoves,
            fullmoves: self.fullmoves,
        }
    }
}

/// The fewest promotions that explain `c`'s pieces: queens beyond one, rooks and knights beyond two, and bishops
/// beyond one per square colour.
fn promoted_at_least(p: &Position, c: Color) -> u32 {
    let extra = |role: Role, initial: u32| p.pieces(c, role).count().saturating_sub(initial);
    let bishops = p.pieces(c, Role::Bishop);
    extra(Role::Queen, 1)
        + extra(Role::Rook, 2)
        + extra(Role::Knight, 2)
        + (bishops & Bitboard::LIGHT_SQUARES).count().saturating_sub(1)
        + (bishops & Bitboard::DARK_SQUARES).count().saturating_sub(1)
}

fn castling_letter(color: Color, token: CastlingToken) -> char {
    let l = match token {
        CastlingToken::KingSide => 'k',
        CastlingToken::QueenSide => 'q',
        CastlingToken::File(f) => f.char(),
    };
    if color == Color::White { l.to_ascii_uppercase() } else { l }
}

fn files_above(f: File) -> Bitboard {
    let mut b = Bitboard::EMPTY;
    for x in File::ALL {
        if x > f {
            b |= Bitboard::from_file(x);
        }
    }
    b
}

/// Whether the checks on the side to move could have been given by the opponent's last move.
fn check_is_possible(p: &Position, ep: Option<Square>) -> bool {
    let checkers = p.checkers();
    let king = p.king(p.turn);
    if checkers.count() > 2 {
        return false;
    }
    if let Some(ep) = ep {
        // After a double step, only the pushed pawn or a discovered slider can check.
        let pushed = ep.offset(if p.turn == Color::White { -8 } else { 8 });
        let origin = ep.offset(if p.turn == Color::White { 8 } else { -8 });
        return match (pushed, origin) {
            (Some(pushed), Some(origin)) => checkers
                .into_iter()
                .all(|c| c == pushed || (attacks::between(king, c).contains(origin) && checkers.count() == 1)),
            _ => false,
        };
    }
    if checkers.count() == 2 {
        let mut it = checkers;
        let (a, b) = (it.next(), it.next());
        if let (Some(a), Some(b)) = (a, b) {
            // Two checkers on one line through the king cannot both be new, and two pawns or two knights
            // (or a pawn and a knight... only after promotion/discovery) need a discovered check by a slider.
            if attacks::aligned(king, a, b)
                && attacks::between(king, a).contains(b) == attacks::between(king, b).contains(a)
            {
                return false;
            }
            let sliders = p.by_role(Role::Bishop) | p.by_role(Role::Rook) | p.by_role(Role::Queen);
            if !(sliders.contains(a) || sliders.contains(b)) {
                return false;
            }
        }
    }
    true
}
