//! [`GameView`]: a game's public state in one flat value, for the HTTP APIs (the site's `GET /api/game/{id}`, the
//! Lichess-compatible streams, the cluster's view request) — the WebSocket protocol has its own snapshot type. It is
//! the protocol's type: a game in memory gives it with [`GameView::of`], a stored game with [`game_row_view`].

use guoxiang_core::Color;
use guoxiang_game::{PlayerRef, Status, TimeControl};
use guoxiang_protocol::GameStatus;
pub use guoxiang_protocol::http::GameView;
use guoxiang_store::{GameRow, MoveRow};

pub(crate) fn color_str(c: Color) -> String {
    c.fold("white", "black").to_owned()
}

/// Initial time and increment of a simple control (one period with a per-move increment, or none).
pub fn clock_of(tc: &TimeControl) -> (Option<u64>, Option<u64>) {
    guoxiang_protocol::http::simple_clock(tc)
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

/// How a stored game ended, from the status its stored state keeps (the snapshot's `status` with the outcome or
/// the abort reason); `None` while it is played, or when the state does not say.
fn stored_end(state: &serde_json::Value) -> Option<GameStatus> {
    match serde_json::from_value::<Status>(state.clone()).ok()? {
        Status::Created | Status::Started => None,
        s => Some(GameStatus::from(&s)),
    }
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
    let color = |c: Option<&str>| match c {
        Some("white") => Some(guoxiang_protocol::Color::White),
        Some("black") => Some(guoxiang_protocol::Color::Black),
        _ => None,
    };
    GameView {
        id: row.id.clone(),
        white: (&white).into(),
        black: (&black).into(),
        rated: row.rated,
        source: stored_source(&state, row.white_engine_level.is_some() || row.black_engine_level.is_some()).to_owned(),
        time_control: row.time_control.clone(),
        initial_ms,
        increment_ms,
        speed: row.speed.clone(),
        initial_fen,
        chess960: state.get("variant").and_then(|v| v.get("kind")).and_then(|k| k.as_str()) == Some("chess960"),
        fen: state.get("fen").and_then(|f| f.as_str()).unwrap_or_default().to_owned(),
        turn: color(state.get("turn").and_then(|f| f.as_str())).unwrap_or(guoxiang_protocol::Color::White),
        moves_uci: moves.iter().map(|m| m.uci.clone()).collect(),
        moves_san: moves.iter().map(|m| m.san.clone()).collect(),
        white_ms: ms("white_ms"),
        black_ms: ms("black_ms"),
        running: None,
        status: row.status.clone(),
        result: row.result.clone().unwrap_or_else(|| "*".to_owned()),
        termination: row.termination.clone(),
        winner: color(row.winner.as_deref()),
        draw_offer: None,
        takeback_offer: None,
        end: stored_end(&state),
        move_clocks_ms: moves.iter().map(|m| m.clock_ms.and_then(|c| u64::try_from(c).ok())).collect(),
        version: row.version as u64,
        created_at_ms: row.created_at_ms as u64,
        at_ms: crate::time::now_ms(),
    }
}
