// SPDX-License-Identifier: GPL-3.0-or-later
//! guoxiang-http: how the server is reached — HTTP and WebSocket over the domain's services (`guoxiang-domain`).
//! Handlers read requests, check who asks ([`auth`]) and how often ([`security`]), call the domain and turn its
//! answers and refusals into HTTP ([`api_error`]); no game rule or stored state lives here.
//!
//! | module | what lives there |
//! |---|---|
//! | `http` | the site's API by feature (accounts, archive, analysis, review, learn, puzzles, tournaments, explorer, stats, metrics), the web UI's files |
//! | `lichess` | the Lichess-compatible HTTP API for bots and boards |
//! | `ws` | the typed WebSocket protocol for the web UI |
//! | `auth`, `authz`, `security` | sessions, tokens, passwords; which route and WebSocket message a token's scopes allow (one table, one layer); origin checks and rate limits (shared with the cluster through the domain's counters) |
//! | `api_error` | the one error answer: a status per kind of the domain's refusal, a code, zh and en |
//! | `users`, `params`, `connection` | shared by the site's and the Lichess API: user JSON, request parameters, connection ids |
//! | `listen`, `client`, `access` | the accept loop with its timeouts and caps; the client's address (behind trusted proxies, from their headers); the access log (target `guoxiang::access`) |
//!
//! [`app`] builds the router from an [`AppState`] (made by the composition root, `guoxiang-server`), so tests can
//! drive it.

#![forbid(unsafe_code)]

pub mod access;
pub mod api_error;
pub mod auth;
pub mod authz;
pub mod client;
pub mod connection;
pub mod http;
pub mod lichess;
pub mod listen;
pub mod params;
pub mod security;
pub mod users;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use guoxiang_domain::{hub, live, lobby, metrics, puzzle, review, tournament};
use guoxiang_store::Store;

pub use api_error::{ApiError, ApiResult};

/// Rate limits (per client address or per user).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Failed logins a minute per address (`guoxiang serve --login-limit`); successful ones are not limited.
    pub logins_per_minute: u32,
    /// Registrations an hour per address (`guoxiang serve --signup-limit`).
    pub registrations_per_hour: u32,
    pub ws_messages_per_sec: u32,
    pub ws_burst: u32,
    pub api_moves_per_minute: u32,
    /// Analyses (`POST /api/analyse`) a minute per user.
    pub analyses_per_minute: u32,
    /// New guests a minute per address (bursts of ten times as many: a school's shared address).
    pub guests_per_minute: u32,
}

impl Default for Limits {
    /// 10 failed logins a minute and 30 registrations an hour per address; 20 WebSocket messages a second (bursts of
    /// 60); 600 API game commands a minute per user; 240 analyses a minute per user (an evaluation graph asks one per
    /// position).
    fn default() -> Limits {
        Limits {
            logins_per_minute: 10,
            registrations_per_hour: 30,
            ws_messages_per_sec: 20,
            ws_burst: 60,
            api_moves_per_minute: 600,
            analyses_per_minute: 240,
            guests_per_minute: 30,
        }
    }
}

/// How the server runs.
#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    /// `sqlite://FILE` or `postgres://…`.
    pub database_url: String,
    /// The address people reach the server at (for links), without a trailing slash.
    pub public_url: String,
    /// Mark cookies `Secure` (behind HTTPS).
    pub secure_cookies: bool,
    /// A session unused for this long (ms) is ended (`guoxiang serve --session-idle-days`; 7 days by default), as
    /// well as any session 30 days after it began. Uses are recorded at most every few minutes
    /// (`guoxiang_store::SESSION_TOUCH_MS`).
    pub session_idle_ms: u64,
    /// Threads the computer opponent may think on at once.
    pub engine_workers: usize,
    /// Transposition table per search, MiB.
    pub engine_hash_mb: usize,
    /// Threads for analysis (the analysis board, reviews), apart from the computer opponents'.
    pub analysis_workers: usize,
    /// Analyses that may wait for a worker; more are refused with 503.
    pub analysis_queue: usize,
    /// How long a finished game stays in memory for rematch offers, ms.
    pub linger_ms: u64,
    /// Time for each first move before the game is aborted, ms (`None`: 30 s; correspondence: a move's allowance).
    pub first_move_timeout_ms: Option<u64>,
    /// How long a player must have been disconnected before the opponent may claim the game, ms (`None`: 60 s).
    pub disconnect_timeout_ms: Option<u64>,
    /// The least time the computer takes for a reply at the lower levels (1 to
    /// [`live::HUMAN_PACE_LEVELS`]), ms, so that a beginner sees its move come rather than appear at once. It runs
    /// on the computer's clock, as a person's thinking would (and is cut to a small share of the time left). 0: no
    /// wait (the default of `Config::new`, used by the tests; `guoxiang serve` sets a human pace).
    pub computer_reply_ms: u64,
    /// Nodes the reviewer searches per position (guoxiang-review's default; the tests use a few thousand).
    pub review_nodes: u64,
    /// Whether bot accounts and people may play rated games against each other (Lichess allows it; off by default
    /// here, so that a club's ratings are people's). Two bots may always.
    pub rated_bot_games: bool,
    /// Who may create rated tournaments (`guoxiang serve --rated-tournaments`; administrators by default).
    pub rated_tournaments: tournament::RatedTournaments,
    /// Who may create classes (`guoxiang serve --teachers`; every registered account by default).
    pub teachers: http::class::Teachers,
    pub limits: Limits,
    /// Timeouts and connection caps of the accept loop.
    pub connections: listen::ConnLimits,
    /// Proxies whose `X-Forwarded-For` / `Forwarded` name the client (`guoxiang serve --trusted-proxy`, [`client`]);
    /// empty: the TCP peer is the client and those headers are ignored.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// Who may read `/metrics` and `/api/server/stats` (`--metrics-token`, `--metrics-addr`, `--metrics-public`).
    pub metrics: http::metrics::MetricsAccess,
    /// Several nodes on this database (`guoxiang serve --cluster`): each live game is owned by one node through a
    /// lease, and its writes are fenced (`live::cluster`). `None`: this is the only node.
    pub cluster: Option<live::cluster::ClusterConfig>,
    /// Syzygy endgame tables for the computer's top level, the analysis board and the review (`guoxiang serve
    /// --syzygy-path`); `None`: the engine plays endgames on its own.
    pub syzygy: Option<guoxiang_engine::tb::Syzygy>,
}

impl Config {
    /// Defaults for an address and a database.
    pub fn new(addr: SocketAddr, database_url: impl Into<String>) -> Config {
        Config {
            addr,
            database_url: database_url.into(),
            public_url: format!("http://{addr}"),
            secure_cookies: false,
            session_idle_ms: 7 * 86_400_000,
            engine_workers: std::thread::available_parallelism().map_or(1, |n| n.get().saturating_sub(1).max(1)),
            engine_hash_mb: 16,
            analysis_workers: 1,
            analysis_queue: 8,
            linger_ms: 600_000,
            first_move_timeout_ms: None,
            disconnect_timeout_ms: None,
            computer_reply_ms: 0,
            review_nodes: guoxiang_review::DEFAULT_NODES,
            rated_bot_games: false,
            rated_tournaments: tournament::RatedTournaments::Admins,
            teachers: http::class::Teachers::Anyone,
            limits: Limits::default(),
            connections: listen::ConnLimits::default(),
            trusted_proxies: Vec::new(),
            metrics: http::metrics::MetricsAccess::default(),
            cluster: None,
            syzygy: None,
        }
    }
}

/// Everything a request handler can reach.
#[derive(Clone, Debug)]
pub struct AppState {
    pub config: Arc<Config>,
    pub store: Store,
    pub live: live::Live,
    pub lobby: lobby::Lobby,
    pub hub: hub::Hub,
    pub limiters: security::Limiters,
    /// Analysis searches (one running or queued per user).
    pub analysis: live::engine::AnalysisPool,
    /// Game reviews.
    pub reviewer: review::Reviewer,
    /// Tournaments.
    pub tournaments: tournament::Tournaments,
    /// Puzzles (the tactics trainer): its caches, limiter and judges are this server's.
    pub puzzles: puzzle::Puzzles,
    /// What `/metrics` reports.
    pub metrics: metrics::SharedMetrics,
}

/// The whole HTTP surface.
pub fn app(state: AppState) -> Router {
    Router::new()
        .merge(ws::routes())
        .merge(http::routes())
        .merge(lichess::routes())
        // Every route, before its handler: may this credential speak for its user here (a token's scopes)?
        .route_layer(axum::middleware::from_fn_with_state(state.clone(), authz::layer))
        .fallback(http::web::static_or_index)
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::origin_layer))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .layer(axum::middleware::from_fn(api_error::json_rejections))
        .layer(axum::middleware::from_fn_with_state(
            security::content_security_policy(&state.config.public_url),
            security::headers_layer,
        ))
        .layer(axum::middleware::from_fn_with_state(state.config.clone(), access::layer))
        .with_state(state)
}
