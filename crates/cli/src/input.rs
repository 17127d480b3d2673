//! Reading positions given on the command line.

use guoxiang_core::{CastlingMode, Position, Validation};

/// Reads a FEN (`startpos` is accepted too). Strict unless `relaxed`, so that typos are caught; perft suites
/// need relaxed mode for their impossible-but-playable positions.
pub fn position(fen: &str, relaxed: bool) -> Result<Position, String> {
    let validation = if relaxed { Validation::Relaxed } else { Validation::Strict };
    if fen.trim() == "startpos" {
        return Ok(Position::new());
    }
    Position::from_fen_with(fen, CastlingMode::Auto, validation).map_err(|e| format!("invalid FEN: {e}"))
}
