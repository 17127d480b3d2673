//! The server's own HTTP routes: accounts (`account`), the archive and PGN export (`archive`), the 学棋 / Learn
//! course (`learn`), the web UI's files (`web`), and helpers shared with the WebSocket and Lichess front ends.

pub mod account;
pub mod analysis;
pub mod archive;
pub mod learn;
pub mod stats;
pub mod web;

use axum::Router;
use axum::routing::{get, post};
use guoxiang_game::{PlayerRef, Variant};
use guoxiang_protocol::{ColorChoice, LiveGame, Player};

use crate::AppState;
use crate::error::ApiError;
use crate::live::engine_player;

pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/guest", post(account::guest))
        .route("/api/register", post(account::register))
        .route("/api/login", post(account::login))
        .route("/api/logout", post(account::logout))
        .route("/api/me", get(account::me))
        .route("/api/token", post(account::create_token))
        .route("/api/tokens", get(account::list_tokens))
        .route("/api/tokens/{id}", axum::routing::delete(account::revoke_token))
        .route("/api/levels", get(account::levels))
        .route("/api/user/{name}", get(archive::profile))
        .route("/api/user/{name}/rating-history", get(archive::rating_history))
        .route("/api/user/{name}/games", get(archive::games_json))
        .route("/api/games/user/{name}", get(archive::export_user))
        .route("/game/export/{id}", get(archive::export_game))
        .route("/api/game/{id}", get(archive::game_json))
        .route("/api/live", get(archive::live))
        .route("/api/analyse", post(analysis::analyse))
        .route("/api/opening", get(analysis::opening))
        .route("/api/learn", get(learn::course))
        .route("/api/learn/try", post(learn::judge_try))
        .route("/api/learn/progress", get(learn::get_progress).put(learn::put_progress))
        .route("/healthz", get(|| async { "ok" }))
        .route("/api/server/stats", get(stats::server_stats))
}

/// Starts a game against the computer at `level` (1..=10), casual, from the start or a set-up position.
pub async fn play_computer(
    state: &AppState,
    player: PlayerRef,
    level: u8,
    color: ColorChoice,
    time_control: &str,
    variant: Variant,
) -> Result<String, ApiError> {
    if guoxiang_engine::levels::level(level).is_none() {
        return Err(ApiError::bad_request(
            "bad_request",
            format!("电脑级别须为 1 到 {}", guoxiang_engine::LEVELS.len()),
            format!("the computer's level must be 1 to {}", guoxiang_engine::LEVELS.len()),
        ));
    }
    let tc = crate::lobby::parse_time_control(time_control)?;
    // A set-up start (the Learn course's play steps): an unreadable FEN is `bad_fen`, a finished position
    // `bad_setup` (from creating the game).
    variant.start_position().map_err(|e| {
        ApiError::bad_request("bad_fen", e.message(guoxiang_core::Lang::Zh), e.message(guoxiang_core::Lang::En))
    })?;
    let engine = engine_player(level);
    let human_white = match color {
        ColorChoice::White => true,
        ColorChoice::Black => false,
        ColorChoice::Random => rand::random::<bool>(),
    };
    let (white, black) = if human_white { (player, engine) } else { (engine, player) };
    state.live.create_game(white, black, false, tc, variant).await
}

/// Up to `n` games being played now, for spectators (newest first).
pub async fn live_games(state: &AppState, n: usize) -> Vec<LiveGame> {
    let mut views = Vec::new();
    for h in state.live.all() {
        if h.is_over() {
            continue;
        }
        if let Ok(v) = h.view().await
            && (v.status == "created" || v.status == "started")
        {
            views.push(v);
        }
    }
    views.sort_by_key(|v| std::cmp::Reverse(v.created_at_ms));
    views.truncate(n);
    views
        .into_iter()
        .map(|v| LiveGame {
            game_id: v.id.clone(),
            white: Player::from(&v.white),
            black: Player::from(&v.black),
            time_control: v.time_control.clone(),
            rated: v.rated,
            fen: v.fen.clone(),
            last_move: v.moves_uci.last().cloned(),
            spectators: 0,
        })
        .collect()
}
