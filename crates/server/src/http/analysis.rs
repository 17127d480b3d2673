//! The analysis board's server side: the engine's evaluation and best lines of a position (on the bounded analysis
//! worker pool, apart from the computer opponents'), and the name of the opening a line reaches. The continuous
//! stream over a WebSocket is `analysis_ws`.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::{Query, State};
use guoxiang_core::{Position, Validation};
use guoxiang_engine::{Control, Engine, Info, Limits};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::auth::Auth;
use crate::error::{ApiError, ApiResult};
use crate::live::engine::Busy;
use axum::http::StatusCode;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The position (default: the standard start).
    #[serde(default)]
    pub fen: Option<String>,
    /// Moves played from it, in UCI.
    #[serde(default)]
    pub moves: Vec<String>,
    /// Depth limit, 1–30 (default 14).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Lines, 1–5 (default 1).
    #[serde(default)]
    pub multipv: Option<usize>,
    /// Time limit in ms, at most 5,000 (default 1,000).
    #[serde(default)]
    pub movetime_ms: Option<u64>,
}

fn bad(zh: String, en: String) -> ApiError {
    ApiError::bad_request("bad_request", zh, en)
}

/// Why a position could not be set up: the FEN, or which move (1-based) failed and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PositionError {
    Fen(String),
    Move { index: usize, uci: String, reason: String },
    TooManyMoves(usize),
}

/// The most moves a position may be given by.
pub const MAX_MOVES: usize = 1000;

impl PositionError {
    /// The message in Chinese and English.
    pub fn text(&self) -> (String, String) {
        match self {
            PositionError::Fen(e) => (format!("FEN 有误：{e}"), format!("bad FEN: {e}")),
            PositionError::Move { index, uci, reason } => (
                format!("第 {index} 步 {uci:?} 无法走出：{reason}"),
                format!("move {index} ({uci:?}) cannot be played: {reason}"),
            ),
            PositionError::TooManyMoves(n) => {
                (format!("着法太多（{n} 步，上限 {MAX_MOVES}）"), format!("too many moves ({n}, at most {MAX_MOVES})"))
            }
        }
    }
}

/// Replays `moves` (UCI) from `fen` (or the start): the position reached, and the hashes of the positions before
/// it, oldest first (so that a search sees repetitions).
pub fn replay(fen: Option<&str>, moves: &[String]) -> Result<(Position, Vec<u64>), PositionError> {
    let mut pos = match fen {
        None => Position::new(),
        Some(f) => Position::from_fen_with(f, guoxiang_core::CastlingMode::Auto, Validation::Strict)
            .map_err(|e| PositionError::Fen(e.to_string()))?,
    };
    if moves.len() > MAX_MOVES {
        return Err(PositionError::TooManyMoves(moves.len()));
    }
    let mut history = Vec::with_capacity(moves.len());
    for (i, u) in moves.iter().enumerate() {
        let m = pos.parse_uci(u).map_err(|reason| PositionError::Move {
            index: i + 1,
            uci: u.clone(),
            reason: reason.to_string(),
        })?;
        history.push(pos.hash());
        pos.play_unchecked(m);
    }
    Ok((pos, history))
}

/// Replays `moves` (UCI) from `fen` (or the start); the error names the move that failed.
pub fn position_after(fen: Option<&str>, moves: &[String]) -> Result<Position, ApiError> {
    replay(fen, moves).map(|(p, _)| p).map_err(|e| {
        let (zh, en) = e.text();
        bad(zh, en)
    })
}

fn score_json(info: &Info) -> Value {
    match info.score.mate_moves() {
        Some(m) => json!({"mate": m}),
        None => json!({"cp": info.score.cp()}),
    }
}

/// `POST /api/analyse`: the engine at full strength on a position. Needs a session (a guest's will do): two
/// analyses at a time per user (a third stops the oldest, which answers with what it has), a rate per user, and a
/// bounded queue on analysis workers of their own, so live games' computer opponents are never kept waiting.
pub async fn analyse(
    State(state): State<AppState>,
    auth: Auth,
    Json(r): Json<AnalyseRequest>,
) -> ApiResult<Json<Value>> {
    let pos = position_after(r.fen.as_deref(), &r.moves)?;
    state.limiters.analysis(&auth.user.id)?;
    let depth = r.depth.unwrap_or(14).clamp(1, 30);
    let multipv = r.multipv.unwrap_or(1).clamp(1, 5);
    let movetime = Duration::from_millis(r.movetime_ms.unwrap_or(1_000).clamp(10, 5_000));
    if pos.legal_moves().is_empty() {
        return Ok(Json(json!({"fen": pos.fen(), "depth": 0, "lines": [], "bestmove": null})));
    }
    let ticket = state.analysis.admit(&auth.user.id).await.map_err(|b| match b {
        Busy::User => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "analysis_running",
            "你有太多分析在等待",
            "you have too many analyses waiting",
        ),
        Busy::Queue => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            "分析引擎正忙，请稍后再试",
            "the analysis engine is busy; try again in a moment",
        ),
    })?;
    let fen = pos.fen();
    let (lines, stopped) = tokio::task::spawn_blocking(move || {
        let mut control = ticket.control.clone();
        let _ticket = ticket;
        let mut engine = Engine::new(16);
        engine.options.multipv = multipv;
        let mut limits = Limits { depth: Some(depth), movetime: Some(movetime), ..Limits::default() };
        let superseded = control.stop.load(std::sync::atomic::Ordering::SeqCst);
        if superseded {
            // A newer analysis of the same user came while this one waited: answer at once, from one ply.
            control = Control::default();
            limits = Limits { depth: Some(1), ..Limits::default() };
        }
        let last: Mutex<Vec<Option<Info>>> = Mutex::new(vec![None; multipv]);
        let reporter = |info: &Info| {
            let mut l = last.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(slot) = l.get_mut(info.multipv.saturating_sub(1) as usize) {
                *slot = Some(info.clone());
            }
        };
        engine.search(&pos, &[], &limits, &control, &reporter, Instant::now());
        let stopped = superseded || control.stop.load(std::sync::atomic::Ordering::SeqCst);
        let infos = last.into_inner().unwrap_or_else(|e| e.into_inner());
        let lines = infos
            .into_iter()
            .flatten()
            .map(|info| {
                let mut p = pos.clone();
                let mut uci = Vec::new();
                let mut san = Vec::new();
                for m in &info.pv {
                    uci.push(p.uci(*m));
                    san.push(p.san(*m));
                    p.play_unchecked(*m);
                }
                json!({"depth": info.depth, "score": score_json(&info), "pv": uci, "pv_san": san, "nodes": info.nodes})
            })
            .collect::<Vec<_>>();
        (lines, stopped)
    })
    .await
    .map_err(|e| ApiError::internal("analysis", e))?;
    let best = lines.first().and_then(|l| l["pv"].get(0).cloned());
    let depth = lines.first().map_or(json!(0), |l| l["depth"].clone());
    let turn = if fen.split(' ').nth(1) == Some("b") { "black" } else { "white" };
    Ok(Json(json!({"fen": fen, "turn": turn, "depth": depth, "lines": lines, "bestmove": best, "stopped": stopped})))
}

#[derive(Debug, Deserialize)]
pub struct OpeningQuery {
    /// UCI moves from the start, separated by spaces or commas.
    #[serde(default)]
    pub moves: String,
}

/// `GET /api/opening?moves=e2e4,e7e5`: the opening reached (`null` when none is known).
pub async fn opening(Query(q): Query<OpeningQuery>) -> ApiResult<Json<Value>> {
    if q.moves.len() > 10_000 {
        return Err(bad("着法太多".into(), "too many moves".into()));
    }
    let moves: Vec<&str> = q.moves.split([' ', ',']).filter(|s| !s.is_empty()).collect();
    Ok(Json(match guoxiang_openings::classify_uci(&moves) {
        Some(o) => json!({"eco": o.eco, "name_en": o.name_en, "name_zh": o.name_zh, "ply": o.plies}),
        None => Value::Null,
    }))
}
