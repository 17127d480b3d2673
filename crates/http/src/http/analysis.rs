//! The analysis board's server side: the engine's evaluation and best lines of a position (on the bounded analysis
//! worker pool, apart from the computer opponents'), and the name of the opening a line reaches. The continuous
//! stream over a WebSocket is `analysis_ws`.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::routing::{get, post};
use guoxiang_core::{Position, Validation};
use guoxiang_engine::{Control, Engine, Info, Limits};
use guoxiang_protocol::Color;
use guoxiang_protocol::analysis::EngineScore;
use guoxiang_protocol::http::{AnalyseAnswer, AnalyseLine, OpeningName};
use serde::Deserialize;

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;
use axum::http::StatusCode;
use guoxiang_domain::live::engine::Busy;

pub use guoxiang_protocol::http::AnalyseRequest;

/// Routes: one-shot analysis and opening names.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/analyse", post(analyse)).route("/api/opening", get(opening))
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

/// The answer when the server runs with `--analysis-workers 0`: browsers analyse for themselves (issue 43).
pub fn no_server_analysis() -> ApiError {
    ApiError::new(
        StatusCode::SERVICE_UNAVAILABLE,
        "analysis_off",
        "本服务器不提供引擎分析（--analysis-workers 0）：请在浏览器中分析",
        "this server does not analyse positions (--analysis-workers 0): the engine runs in the browser",
    )
}

fn score(info: &Info) -> EngineScore {
    match info.score.mate_moves() {
        Some(m) => EngineScore::Mate { mate: m },
        None => EngineScore::Cp { cp: info.score.cp() },
    }
}

/// One line of an analysis of `pos`: the engine's last report for it, its moves in UCI and in SAN.
fn analyse_line(pos: &Position, info: &Info) -> AnalyseLine {
    let mut p = pos.clone();
    let mut uci = Vec::new();
    let mut san = Vec::new();
    for m in &info.pv {
        uci.push(p.uci(*m));
        san.push(p.san(*m));
        p.play_unchecked(*m);
    }
    AnalyseLine { depth: info.depth, score: score(info), pv: uci, pv_san: san, nodes: info.nodes }
}

/// `POST /api/analyse`: the engine at full strength on a position. Needs a session (a guest's will do): two
/// analyses at a time per user (a third stops the oldest, which answers with what it has), a rate per user, and a
/// bounded queue on analysis workers of their own, so live games' computer opponents are never kept waiting.
pub async fn analyse(
    State(state): State<AppState>,
    auth: Auth,
    Json(r): Json<AnalyseRequest>,
) -> ApiResult<Json<AnalyseAnswer>> {
    if state.config.analysis_workers == 0 {
        return Err(no_server_analysis());
    }
    let pos = position_after(r.fen.as_deref(), r.moves.as_deref().unwrap_or_default())?;
    state.limiters.analysis(&auth.user.id).await?;
    let depth = r.depth.unwrap_or(14).clamp(1, 30);
    let multipv = r.multipv.unwrap_or(1).clamp(1, 5);
    let movetime = Duration::from_millis(r.movetime_ms.unwrap_or(1_000).clamp(10, 5_000));
    let turn = Color::from(pos.turn());
    if pos.legal_moves().is_empty() {
        return Ok(Json(AnalyseAnswer {
            fen: pos.fen(),
            turn,
            depth: 0,
            lines: Vec::new(),
            bestmove: None,
            stopped: false,
        }));
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
    let syzygy = state.config.syzygy.clone();
    let (lines, stopped) = tokio::task::spawn_blocking(move || {
        let mut control = ticket.control.clone();
        let _ticket = ticket;
        let mut engine = Engine::new(16);
        engine.options.multipv = multipv;
        engine.options.syzygy = syzygy;
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
        let lines = infos.into_iter().flatten().map(|info| analyse_line(&pos, &info)).collect::<Vec<_>>();
        (lines, stopped)
    })
    .await
    .map_err(|e| ApiError::internal("analysis", e))?;
    let bestmove = lines.first().and_then(|l| l.pv.first().cloned());
    let depth = lines.first().map_or(0, |l| l.depth);
    Ok(Json(AnalyseAnswer { fen, turn, depth, lines, bestmove, stopped }))
}

#[derive(Debug, Deserialize)]
pub struct OpeningQuery {
    /// UCI moves from the start, separated by spaces or commas.
    #[serde(default)]
    pub moves: String,
}

/// `GET /api/opening?moves=e2e4,e7e5`: the opening reached (`null` when none is known).
pub async fn opening(Query(q): Query<OpeningQuery>) -> ApiResult<Json<Option<OpeningName>>> {
    if q.moves.len() > 10_000 {
        return Err(bad("着法太多".into(), "too many moves".into()));
    }
    let moves: Vec<&str> = q.moves.split([' ', ',']).filter(|s| !s.is_empty()).collect();
    Ok(Json(guoxiang_openings::classify_uci(&moves).map(|o| OpeningName {
        eco: o.eco.to_string(),
        name_en: o.name_en.to_string(),
        name_zh: o.name_zh.to_string(),
        ply: o.plies as u32,
    })))
}
