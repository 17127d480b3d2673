//! Replaying PGN under the rules: moves resolved against the board, the start position taken from the `FEN`,
//! `SetUp` and `Variant` tags. This is the layer between the purely syntactic reader and the rules core.
//!
//! Two tools, for two jobs:
//! - [`Replayer`], a [`Visitor`] that follows the main line only and allocates little: for importing games,
//!   statistics, and the `--json` output of `guoxiang pgn`.
//! - [`normalize`], which walks an owned [`Game`] (variations included) and rewrites every move in its canonical form,
//!   for re-rendering in export format.
//!
//! # Lenient moves
//!
//! A move token is read as SAN first ([`Position::parse_san`], itself lenient: `Ng1f3`, `e8Q`, `0-0`, Chinese piece
//! letters, …) and, when that finds no legal move, as UCI (`g1f3`, `e7e8q`, castling as the king's two-square move
//! `e1g1` or as king onto rook `e1h1`; in a Chess960 game only king onto rook, since `e1g1` may be a plain king move
//! there): [`parse_move`]. Both readings name the same move whenever both find one, so the order only matters for
//! the error message.
//!
//! # Null moves
//!
//! A null move (`--`; the reader also hands out `Z0`, `0000` and `@@@@` as `--`) passes the turn: the other side
//! moves next, the en-passant square is cleared, the halfmove clock goes up by one and the fullmove number after
//! Black's turn, as python-chess does ([`Position::play_null`]). Null moves appear in analysis ("what if Black could
//! pass?") and in some engine and database exports; they are not moves of a game. What we do with them:
//!
//! - A null move **while in check** is an error (python-chess accepts it): it would leave the side that gave check
//!   able to take the king, a position the rules core does not handle. The line is cut there like at an illegal
//!   move.
//! - [`normalize`] keeps null moves in every line (written back as `--`) and replays on from the passed position.
//! - [`Replayer::new`] treats a main-line null move as an error naming the move ("move 41... --: a null move …"), so
//!   that importers, which need real moves, refuse such a game instead of replaying it wrongly.
//!   [`Replayer::with_null_moves`] keeps them: [`ReplayedGame::plies`] has every half-move as a [`Ply`], and
//!   [`ReplayedGame::moves`] stops before the first null move ([`ReplayedGame::main_line`] serves both kinds).

pub use crate::model::is_null_token;
use crate::model::{Game, Line};
use crate::visitor::{GameResult, Location, Skip, Visitor};
use guoxiang_core::{CastlingMode, Move, Position, SanError, Text, UciMove, Validation};
use std::fmt;

/// One half-move of a replayed line: a move on the board, or a null move (the side to move passes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ply {
    Move(Move),
    Null,
}

impl Ply {
    /// The move, unless this is a null move.
    pub fn as_move(self) -> Option<Move> {
        match self {
            Ply::Move(m) => Some(m),
            Ply::Null => None,
        }
    }

    pub fn is_null(self) -> bool {
        self == Ply::Null
    }

    /// Plays the half-move on `pos`, which must be the position it was read in.
    pub fn play(self, pos: &mut Position) {
        match self {
            Ply::Move(m) => pos.play_unchecked(m),
            Ply::Null => pos.play_null(),
        }
    }

    /// UCI notation in `pos` (the position before it): `0000` for a null move.
    pub fn uci(self, pos: &Position) -> String {
        match self {
            Ply::Move(m) => pos.uci(m),
            Ply::Null => UciMove::Null.to_string(),
        }
    }

    /// SAN in `pos` (the position before it): `--` for a null move.
    pub fn san(self, pos: &Position) -> String {
        match self {
            Ply::Move(m) => pos.san(m),
            Ply::Null => crate::NULL_MOVE.to_string(),
        }
    }
}

/// Reads a move token in `pos`: SAN, else UCI (see the [module docs](self)). A null move is an error here; use
/// [`parse_ply`] to accept it.
#[inline]
pub fn parse_move(pos: &Position, token: &str) -> Result<Move, SanError> {
    let san_error = match pos.parse_san(token) {
        Ok(m) => return Ok(m),
        Err(e) => e,
    };
    let text = token.trim().trim_end_matches(['+', '#']);
    let Ok(uci @ UciMove::Normal { from, to, .. }) = UciMove::parse(text) else {
        return Err(san_error);
    };
    if let Ok(m) = uci.to_move(pos) {
        return Ok(m);
    }
    let Text { en, zh } = san_error.text();
    Err(SanError::Illegal {
        san: token.trim().to_string(),
        reason: Text {
            en: format!("not a legal move here, neither as SAN ({en}) nor as UCI (no legal move from {from} to {to})"),
            zh: format!("在此局面不是合法着法：按 SAN 读（{zh}），按 UCI 读（{from} 到 {to} 没有合法着法）都不行"),
        },
    })
}

/// Reads a move token in `pos` like [`parse_move`], and a null move token ([`is_null_token`]) as [`Ply::Null`]
/// unless the side to move is in check.
pub fn parse_ply(pos: &Position, token: &str) -> Result<Ply, SanError> {
    if is_null_token(token) {
        if pos.is_check() {
            return Err(null_in_check(token));
        }
        return Ok(Ply::Null);
    }
    parse_move(pos, token).map(Ply::Move)
}

fn null_in_check(token: &str) -> SanError {
    SanError::Illegal {
        san: token.trim().to_string(),
        reason: Text {
            en: "a null move is not allowed in check (the king could be taken)".to_string(),
            zh: "被将军时不能走空着（王会被吃掉）".to_string(),
        },
    }
}

/// A move or set-up problem in one game. Reading goes on with the next game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplayError {
    /// Where in the input, when known (moves); `None` for tag problems.
    pub location: Option<Location>,
    /// 1-based ply of the move at fault, for move errors.
    pub ply: Option<usize>,
    pub message: String,
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(loc) = self.location {
            write!(f, "{loc}: ")?;
        }
        f.write_str(&self.message)
    }
}

/// The start position a game's tags ask for.
pub fn start_position(tags: &[(String, String)]) -> Result<Position, String> {
    let get = |name: &str| tags.iter().find(|(k, _)| k.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str());
    let mode = match get("Variant").map(|v| v.trim().to_ascii_lowercase()) {
        None => CastlingMode::Auto,
        Some(v) if matches!(v.as_str(), "" | "standard" | "normal" | "chess" | "from position" | "from_position") => {
            CastlingMode::Auto
        }
        Some(v) if v.contains("960") || v.contains("fischer") => CastlingMode::Chess960,
        Some(v) => return Err(format!("variant '{v}' is not standard chess")),
    };
    match get("FEN") {
        Some(fen) => Position::from_fen_with(fen, mode, Validation::Relaxed).map_err(|e| format!("FEN tag: {e}")),
        None if mode == CastlingMode::Chess960 => Err("a Chess960 game needs a FEN tag".to_string()),
        None => Ok(Position::new()),
    }
}

/// A game replayed along its main line.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    pub tags: Vec<(String, String)>,
    pub start: Position,
    /// Main-line moves up to the first error or null move.
    pub moves: Vec<Move>,
    /// With [`Replayer::with_null_moves`]: the main line's half-moves up to the first error, null moves included.
    /// Empty with [`Replayer::new`], where `moves` is the whole main line (a null move being an error there); see
    /// [`ReplayedGame::main_line`] for either.
    pub plies: Vec<Ply>,
    pub position: Position,
    pub result: Option<GameResult>,
    pub errors: Vec<ReplayError>,
}

impl ReplayedGame {
    /// The main line's half-moves up to the first error, null moves included, from either kind of [`Replayer`].
    pub fn main_line(&self) -> Vec<Ply> {
        if self.plies.is_empty() { self.moves.iter().map(|&m| Ply::Move(m)).collect() } else { self.plies.clone() }
    }

    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
    }
}

/// Replays the main line of each game (variations are skipped).
#[derive(Debug, Default)]
pub struct Replayer {
    tags: Vec<(String, String)>,
    position: Option<Position>,
    start: Option<Position>,
    moves: Vec<Move>,
    plies: Vec<Ply>,
    /// Whether null moves are kept (in `plies`) rather than errors.
    null_moves: bool,
    /// Half-moves replayed.
    count: usize,
    /// Whether a null move was replayed: `moves` stops there.
    passed: bool,
    result: Option<GameResult>,
    errors: Vec<ReplayError>,
    /// Set after the first move error: the rest of the main line cannot be judged.
    stopped: bool,
}

impl Replayer {
    /// A replayer for which a main-line null move is an error (for importers, which need real moves).
    pub fn new() -> Replayer {
        Replayer::default()
    }

    /// A replayer that keeps main-line null moves in [`ReplayedGame::plies`] (a null move in check is still an
    /// error).
    pub fn with_null_moves() -> Replayer {
        Replayer { null_moves: true, ..Replayer::default() }
    }
}

impl Visitor for Replayer {
    type Output = ReplayedGame;

    fn begin_game(&mut self) {
        self.tags.clear();
        self.moves.clear();
        self.plies.clear();
        self.count = 0;
        self.passed = false;
        self.errors.clear();
        self.result = None;
        self.position = None;
        self.start = None;
        self.stopped = false;
    }

    fn tag(&mut self, name: &str, value: &str) {
        self.tags.push((name.to_string(), value.to_string()));
    }

    fn begin_movetext(&mut self) -> Skip {
        match start_position(&self.tags) {
            Ok(p) => {
                self.start = Some(p.clone());
                self.position = Some(p);
            }
            Err(message) => {
                self.errors.push(ReplayError { location: None, ply: None, message });
                self.stopped = true;
            }
        }
        Skip(false)
    }

    fn san(&mut self, san: &str, at: Location) {
        if self.stopped {
            return;
        }
        let Some(pos) = self.position.as_mut() else { return };
        self.count += 1;
        let outcome = if is_null_token(san) {
            if !self.null_moves {
                Err(format!(
                    "{} {san}: a null move (a pass, not a move on the board) cannot be replayed here",
                    move_label(pos)
                ))
            } else if pos.is_check() {
                Err(move_error(pos, &null_in_check(san)))
            } else {
                pos.play_null();
                self.plies.push(Ply::Null);
                self.passed = true;
                Ok(())
            }
        } else {
            match parse_move(pos, san) {
                Ok(m) => {
                    pos.play_unchecked(m);
                    if !self.passed {
                        self.moves.push(m);
                    }
                    if self.null_moves {
                        self.plies.push(Ply::Move(m));
                    }
                    Ok(())
                }
                Err(e) => Err(move_error(pos, &e)),
            }
        };
        if let Err(message) = outcome {
            self.errors.push(ReplayError { location: Some(at), ply: Some(self.count), message });
            self.stopped = true;
        }
    }

    fn begin_variation(&mut self) -> Skip {
        Skip(true)
    }

    fn outcome(&mut self, result: GameResult) {
        self.result = Some(result);
    }

    fn end_game(&mut self) -> ReplayedGame {
        let start = self.start.take().unwrap_or_default();
        let position = self.position.take().unwrap_or_else(|| start.clone());
        ReplayedGame {
            tags: std::mem::take(&mut self.tags),
            start,
            moves: std::mem::take(&mut self.moves),
            plies: std::mem::take(&mut self.plies),
            position,
            result: self.result.take(),
            errors: std::mem::take(&mut self.errors),
        }
    }
}

/// `move 12. Nf3: …` or `move 12... Nf6: …` for messages, from the position before the move. The SAN error already
/// starts with the move as written, so it follows the move number directly.
fn move_error(pos: &Position, e: &SanError) -> String {
    format!("{} {e}", move_label(pos))
}

/// `move 12.` or `move 12...`: the move to be made in `pos`, for messages.
fn move_label(pos: &Position) -> String {
    match pos.turn() {
        guoxiang_core::Color::White => format!("move {}.", pos.fullmoves()),
        guoxiang_core::Color::Black => format!("move {}...", pos.fullmoves()),
    }
}

/// Resolves every move of an owned game (variations too) and rewrites it canonically (`Ng1f3` → `Nf3`, `0-0` →
/// `O-O`, `e8Q` → `e8=Q`, `g1f3` → `Nf3`, check marks fixed; null moves as `--`). At the first illegal move of a line
/// (or null move in check), that line is cut there and an error is reported. Returns the start position, the
/// main-line half-moves and the errors.
pub fn normalize(game: &mut Game) -> (Position, Vec<Ply>, Vec<ReplayError>) {
    let mut errors = Vec::new();
    let start = match start_position(&game.tags) {
        Ok(p) => p,
        Err(message) => {
            errors.push(ReplayError { location: None, ply: None, message });
            return (Position::new(), Vec::new(), errors);
        }
    };
    let mut mainline = Vec::new();
    normalize_line(&start, &mut game.moves, 0, &mut errors, Some(&mut mainline));
    (start, mainline, errors)
}

fn normalize_line(
    start: &Position,
    line: &mut Line,
    ply0: usize,
    errors: &mut Vec<ReplayError>,
    mut record: Option<&mut Vec<Ply>>,
) {
    let mut pos = start.clone();
    let mut cut = None;
    for (i, node) in line.nodes.iter_mut().enumerate() {
        // Variations are alternatives to this node: they start from the position before it.
        for v in node.variations.iter_mut() {
            normalize_line(&pos, v, ply0 + i, errors, None);
        }
        match parse_ply(&pos, &node.san) {
            Ok(p) => {
                node.san = p.san(&pos);
                if let Some(r) = record.as_deref_mut() {
                    r.push(p);
                }
                p.play(&mut pos);
            }
            Err(e) => {
                let what = if record.is_some() { "" } else { " (in a variation)" };
                errors.push(ReplayError {
                    location: node.source.0,
                    ply: Some(ply0 + i + 1),
                    message: format!("{}{what}", move_error(&pos, &e)),
                });
                cut = Some(i);
                break;
            }
        }
    }
    if let Some(i) = cut {
        line.nodes.truncate(i);
    }
}
