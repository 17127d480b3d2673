//! [`GameView`]: a game's public state in one flat value, for the HTTP APIs (the Lichess-compatible streams, the
//! archive) — the WebSocket protocol has its own snapshot type.

use guoxiang_clock::Side;
use guoxiang_core::Color;
use guoxiang_game::{Game, PlayerRef, Status, TimeControl, Timestamp};
use guoxiang_store::{GameRow, MoveRow};
use serde::{Deserialize, Serialize};

/// A game as the APIs show it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameView {
    pub id: String,
    pub white: PlayerRef,
    pub black: PlayerRef,
    pub rated: bool,
    /// How the game came about (Lichess's `source`: `friend`, `position`, `lobby`, `pool`, `ai`).
    pub source: String,
    /// PGN `TimeControl` tag.
    pub time_control: String,
    /// Initial time and increment in ms, when the control is a simple one (Lichess's `clock`).
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    pub speed: String,
    /// The start position's FEN, `None` for the standard start.
    pub initial_fen: Option<String>,
    /// A Chess960 game (its start is `initial_fen`).
    pub chess960: bool,
    pub fen: String,
    pub turn: String,
    pub moves_uci: Vec<String>,
    pub moves_san: Vec<String>,
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    /// Whose clock runs.
    pub running: Option<String>,
    /// `created`, `started`, `finished`, `aborted`.
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*`.
    pub result: String,
    /// The termination code (`checkmate`, `resignation`, …) once over.
    pub termination: Option<String>,
    pub winner: Option<String>,
    pub draw_offer: Option<String>,
    pub takeback_offer: Option<String>,
    pub version: u64,
    pub created_at_ms: u64,
    /// Server time of this view.
    pub at_ms: u64,
}

pub(crate) fn color_str(c: Color) -> String {
    c.fold("white", "black").to_owned()
}

fn side_color(s: Side) -> Color {
    match s {
        Side::White => Color::White,
        Side::Black => Color::Black,
    }
}

/// Initial time and increment of a simple control (one period with a per-move increment, or none).
pub fn clock_of(tc: &TimeControl) -> (Option<u64>, Option<u64>) {
    let pgn = tc.to_pgn();
    let Some((base, inc)) = pgn.split_once('+').map(|(a, b)| (a.to_owned(), b.to_owned())).or_else(|| {
        (pgn.chars().all(|c| c.is_ascii_digit()) && !pgn.is_empty()).then(|| (pgn.clone(), "0".to_owned()))
    }) else {
        return (tc.initial_ms(), None);
    };
    match (base.parse::<u64>(), inc.parse::<u64>()) {
        (Ok(b), Ok(i)) => (Some(b * 1000), Some(i * 1000)),
        _ => (tc.initial_ms(), None),
    }
}

impl GameView {
    pub fn of(game: &Game, now: Timestamp) -> GameView {
        let clocks = game.clocks(now);
        let (status, result, termination, winner) = match game.status() {
            Status::Created => ("created", "*".to_owned(), None, None),
            Status::Started => ("started", "*".to_owned(), None, None),
            Status::Finished { outcome } => (
                "finished",
                outcome.result().to_owned(),
                Some(outcome.termination.code().to_owned()),
                outcome.winner.map(color_str),
            ),
            Status::Aborted { .. } => ("aborted", "*".to_owned(), Some("aborted".to_owned()), None),
        };
        let tc = game.time_control();
        let (initial_ms, increment_ms) = clock_of(tc);
        GameView {
            id: game.id().to_owned(),
            white: game.white().clone(),
            black: game.black().clone(),
            rated: game.rated(),
            source: game.source().as_str().to_owned(),
            time_control: tc.to_pgn(),
            initial_ms,
            increment_ms,
            speed: tc.speed().as_str().to_owned(),
            initial_fen: game.variant().fen().map(str::to_owned),
            chess960: matches!(game.variant(), guoxiang_game::Variant::Chess960 { .. }),
            fen: game.position().fen(),
            turn: color_str(game.turn()),
            moves_uci: game.moves().iter().map(|m| m.uci.to_string()).collect(),
            moves_san: game.moves().iter().map(|m| m.san.to_string()).collect(),
            white_ms: clocks.map(|c| c.white_ms),
            black_ms: clocks.map(|c| c.black_ms),
            running: if game.is_over() { None } else { game.clock().running().map(|s| color_str(side_color(s))) },
            status: status.to_owned(),
            result,
            termination,
            winner,
            draw_offer: game.draw_offer().map(color_str),
            takeback_offer: game.takeback_offer().map(color_str),
            version: game.version(),
            created_at_ms: game.created_at().0,
            at_ms: now.0,
        }
    }
}

/// The `source` of a stored state; states stored before it was kept are `ai` against the computer, else `friend`.
fn stored_source(state: &serde_json::Value, engine: bool) -> &'static str {
    let stored = state.get("source").cloned().and_then(|s| serde_json::from_value::<guoxiang_game::Source>(s).ok());
    match stored {
        Some(s) => s.as_str(),
        None if engine => "ai",
        None => "friend",
    }
}

/// A stored game's players, White first.
pub(crate) fn stored_players(row: &GameRow) -> [PlayerRef; 2] {
    let player = |id: &str, name: &str, level: Option<i64>| PlayerRef {
        id: id.to_owned(),
        name: name.to_owned(),
        is_engine: level.is_some(),
        engine_level: level.and_then(|l| u8::try_from(l).ok()),
    };
    [
        player(&row.white_id, &row.white_name, row.white_engine_level),
        player(&row.black_id, &row.black_name, row.black_engine_level),
    ]
}

/// A view of a stored game (finished or aborted ones are no longer in memory).
pub fn game_row_view(row: &GameRow, moves: &[MoveRow]) -> GameView {
    let [white, black] = stored_players(row);
    let tc = TimeControl::from_pgn(&row.time_control).unwrap_or(TimeControl::Unlimited);
    let (initial_ms, increment_ms) = clock_of(&tc);
    let state: serde_json::Value = serde_json::from_str(&row.state_json).unwrap_or_default();
    let initial_fen = state.get("variant").and_then(|v| v.get("fen")).and_then(|f| f.as_str()).map(str::to_owned);
    let clocks = state.get("clocks");
    let ms = |k: &str| clocks.and_then(|c| c.get(k)).and_then(serde_json::Value::as_u64);
    GameView {
        id: row.id.clone(),
        white,
        black,
        rated: row.rated,
        source: stored_source(&state, row.white_engine_level.is_some() || row.black_engine_level.is_some()).to_owned(),
        time_control: row.time_control.clone(),
        initial_ms,
        increment_ms,
        speed: row.speed.clone(),
        initial_fen,
        chess960: state.get("variant").and_then(|v| v.get("kind")).and_then(|k| k.as_str()) == Some("chess960"),
        fen: state.get("fen").and_then(|f| f.as_str()).unwrap_or_default().to_owned(),
        turn: state.get("turn").and_then(|f| f.as_str()).unwrap_or("white").to_owned(),
        moves_uci: moves.iter().map(|m| m.uci.clone()).collect(),
        moves_san: moves.iter().map(|m| m.san.clone()).collect(),
        white_ms: ms("white_ms"),
        black_ms: ms("black_ms"),
        running: None,
        status: row.status.clone(),
        result: row.result.clone().unwrap_or_else(|| "*".to_owned()),
        termination: row.termination.clone(),
        winner: row.winner.clone(),
        draw_offer: None,
        takeback_offer: None,
        version: row.version as u64,
        created_at_ms: row.created_at_ms as u64,
        at_ms: crate::time::now_ms(),
    }
}
