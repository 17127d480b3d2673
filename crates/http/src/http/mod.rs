//! The server's own HTTP routes: accounts (`account`), the archive and PGN export (`archive`), the 学棋 / Learn
//! course (`learn`), the web UI's files (`web`), and helpers shared with the WebSocket and Lichess front ends.
//! Their JSON answers are guoxiang-protocol's types (`guoxiang_protocol::http`, `guoxiang_protocol::review`),
//! which the web client's TypeScript types are generated from.

pub mod account;
pub mod analysis;
pub mod analysis_ws;
pub mod archive;
pub mod class;
pub mod class_progress;
pub mod explorer;
pub mod homework;
pub mod learn;
pub mod learn_play;
pub mod metrics;
pub mod puzzle;
pub mod review;
pub mod stats;
pub mod study;
pub mod tournament;
pub mod upgrade;
pub mod web;

use axum::Router;

use crate::AppState;

/// The server's own routes: every feature's router, merged.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(account::routes())
        .merge(archive::routes())
        .merge(class::routes())
        .merge(homework::routes())
        .merge(class_progress::routes())
        .merge(review::routes())
        .merge(analysis::routes())
        .merge(explorer::routes())
        .merge(analysis_ws::routes())
        .merge(learn::routes())
        .merge(puzzle::routes())
        .merge(study::routes())
        .merge(tournament::routes())
        .merge(metrics::routes())
        .merge(stats::routes())
}

/// The metrics listener's whole surface (`guoxiang serve --metrics-addr`): the server's figures and the health
/// checks, without a token ([`metrics::FiguresAllowed`]); anything else is 404.
pub fn metrics_listener_app(state: AppState) -> Router {
    metrics::routes()
        .merge(stats::routes())
        .layer(axum::Extension(metrics::FiguresListener))
        .layer(axum::middleware::from_fn_with_state(state.config.clone(), crate::access::layer))
        .with_state(state)
}
