//! The server's own HTTP routes: accounts (`account`), the archive and PGN export (`archive`), the 学棋 / Learn
//! course (`learn`), the web UI's files (`web`), and helpers shared with the WebSocket and Lichess front ends.
//! Their JSON answers are guoxiang-protocol's types (`guoxiang_protocol::http`, `guoxiang_protocol::review`),
//! which the web client's TypeScript types are generated from.

pub mod account;
pub mod analysis;
pub mod analysis_ws;
pub mod archive;
pub mod explorer;
pub mod learn;
pub mod metrics;
pub mod puzzle;
pub mod review;
pub mod stats;
pub mod tournament;
pub mod upgrade;
pub mod web;

use axum::Router;
use axum::routing::{get, post};

use crate::AppState;

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
        .route("/api/user/{name}/current-game", get(archive::current_game))
        .route("/api/user/{name}/games", get(archive::games_json))
        .route("/api/games/user/{name}", get(archive::export_user))
        .route("/api/games/export/_ids", post(archive::export_ids))
        .route("/api/crosstable/{a}/{b}", get(archive::crosstable))
        .route("/game/export/{id}", get(archive::export_game))
        .route("/api/game/{id}", get(archive::game_json))
        .route("/api/game/{id}/review", get(review::get_review).post(review::request_review))
        .route("/api/game/{id}/review/try", post(review::try_move))
        .route("/api/review/settings", get(review::get_settings).put(review::put_settings))
        .route("/api/live", get(archive::live))
        .route("/api/analyse", post(analysis::analyse))
        .route("/api/opening", get(analysis::opening))
        .route("/api/explorer", get(explorer::explorer))
        .route("/ws/analysis", get(analysis_ws::upgrade))
        .route("/api/learn", get(learn::course))
        .route("/api/learn/try", post(learn::judge_try))
        .route("/api/learn/progress", get(learn::get_progress).put(learn::put_progress))
        .route("/api/puzzle/next", get(puzzle::next))
        .route("/api/puzzle/themes", get(puzzle::themes))
        .route("/api/puzzle/dashboard", get(puzzle::dashboard))
        .route("/api/puzzle/daily", get(puzzle::daily))
        .route("/api/puzzle/{id}", get(puzzle::by_id))
        .route("/api/puzzle/{id}/try", post(puzzle::try_move))
        .route("/api/puzzle/{id}/round", post(puzzle::round))
        .route("/api/tournaments", get(tournament::list).post(tournament::create))
        .route("/api/tournaments/import", post(tournament::import))
        .route("/api/tournament/{id}", get(tournament::get))
        .route("/api/tournament/{id}/join", post(tournament::join))
        .route("/api/tournament/{id}/leave", post(tournament::leave))
        .route("/api/tournament/{id}/start", post(tournament::start))
        .route("/api/tournament/{id}/pair", post(tournament::pair))
        .route("/api/tournament/{id}/result", post(tournament::result))
        .route("/api/tournament/{id}/withdraw", post(tournament::withdraw))
        .route("/api/tournament/{id}/player", post(tournament::add_player))
        .route("/api/tournament/{id}/players", post(tournament::add_player_list))
        .route("/api/tournament/{id}/arbiter", post(tournament::add_arbiter))
        .route("/api/tournament/{id}/forbid", post(tournament::forbid))
        .route("/api/tournament/{id}/bye", post(tournament::bye))
        .route("/api/tournament/{id}/pgn", get(tournament::pgn))
        .route("/api/game/{id}/tournament", get(tournament::of_game))
        .route("/api/tournament/{id}/trf", get(tournament::trf))
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(metrics::readyz))
        .route("/metrics", get(metrics::metrics))
        .route("/api/server/stats", get(stats::server_stats))
}
