//! Replaying PGN under the rules: SAN resolved against the board, the start position taken from the `FEN`,
//! `SetUp` and `Variant` tags. This is the layer between the purely syntactic reader and the rules core.
//!
//! Two tools, for two jobs:
//! - [`Replayer`], a [`Visitor`] that follows the main line only and allocates little: for importing games,
//!   statistics, and the `--json` output of `guoxiang pgn`.
//! - [`normalize`], which walks an owned [`Game`] (variations included) and rewrites every SAN in its canonical form,
//!   for re-rendering in export format.

use crate::model::{Game, Line};
use crate::visitor::{GameResult, Location, Skip, Visitor};
use guoxiang_core::{CastlingMode, Move, Position, Validation};
use std::fmt;

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
    /// Main-line moves up to the first error.
    pub moves: Vec<Move>,
    pub position: Position,
    pub result: Option<GameResult>,
    pub errors: Vec<ReplayError>,
}

impl ReplayedGame {
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
    result: Option<GameResult>,
    errors: Vec<ReplayError>,
    /// Set after the first move error: the rest of the main line cannot be judged.
    stopped: bool,
}

impl Replayer {
    pub fn new() -> Replayer {
        Replayer::default()
    }
}

impl Visitor for Replayer {
    type Output = ReplayedGame;

    fn begin_game(&mut self) {
        self.tags.clear();
        self.moves.clear();
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
        match pos.parse_san(san) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.moves.push(m);
            }
            Err(e) => {
                self.errors.push(ReplayError {
                    location: Some(at),
                    ply: Some(self.moves.len() + 1),
                    message: move_error(pos, &e),
                });
                self.stopped = true;
            }
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
            position,
            result: self.result.take(),
            errors: std::mem::take(&mut self.errors),
        }
    }
}

/// `move 12. Nf3: …` or `move 12... Nf6: …` for messages, from the position before the move. The SAN error already
/// starts with the move as written, so it follows the move number directly.
fn move_error(pos: &Position, e: &guoxiang_core::SanError) -> String {
    match pos.turn() {
        guoxiang_core::Color::White => format!("move {}. {e}", pos.fullmoves()),
        guoxiang_core::Color::Black => format!("move {}... {e}", pos.fullmoves()),
    }
}

/// Resolves every SAN of an owned game (variations too) and rewrites it canonically (`Ng1f3` → `Nf3`, `0-0` →
/// `O-O`, `e8Q` → `e8=Q`, check marks fixed). At the first illegal move of a line, that line is cut there and an
/// error is reported. Returns the main-line moves and the errors.
pub fn normalize(game: &mut Game) -> (Position, Vec<Move>, Vec<ReplayError>) {
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
    mut record: Option<&mut Vec<Move>>,
) {
    let mut pos = start.clone();
    let mut cut = None;
    for (i, node) in line.nodes.iter_mut().enumerate() {
        // Variations are alternatives to this node: they start from the position before it.
        for v in node.variations.iter_mut() {
            normalize_line(&pos, v, ply0 + i, errors, None);
        }
        match pos.parse_san(&node.san) {
            Ok(m) => {
                node.san = pos.san(m);
                if let Some(r) = record.as_deref_mut() {
                    r.push(m);
                }
                pos.play_unchecked(m);
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
