//! guoxiang-server: the game server behind `guoxiang serve`.
//!
//! | module | what lives there |
//! |---|---|
//! | `live` | live games: one actor per game, the registry, group-commit persistence, the engine pool |
//! | `lobby` | challenges, seeks, quick-pairing pools |
//! | `hub` | per-user notifications (game started, challenge, rematch) |
//! | `ws` | the typed WebSocket protocol for the web UI |
//! | `http` | accounts, the archive's endpoints, the web UI's files |
//! | `archive` | stored games as PGN (tournament tags as tags) and as replayed games, without HTTP |
//! | `explorer` | the opening explorer's write path (finished games into its `server` source) |
//! | `users`, `params`, `connection` | shared by the site's and the Lichess API: user JSON, request parameters, connection ids |
//! | `review` | the reviewer: game reviews (复盘) queued in the store, run on the analysis workers |
//! | `puzzle` | the tactics trainer's service (next puzzle, rounds and ratings, daily puzzle), the puzzles' import |
//! | `tournament` | tournaments: round-robins and Swiss, online rounds' games created, results, standings |
//! | `lichess` | the Lichess-compatible HTTP API for bots and boards |
//! | `auth`, `security` | sessions, tokens, passwords; origin checks and rate limits |
//! | `time`, `error` | the server's clock; the one error type of every answer |
//! | `access` | the access log (debug level, target `guoxiang::access`) |
//!
//! The database is `guoxiang-store` (SQLite or PostgreSQL); the rules, the clock and the game state machine are
//! `guoxiang-core`, `guoxiang-clock` and `guoxiang-game`. [`app`] builds the router from an [`AppState`], so tests
//! can drive it; [`serve`] is the whole server.

#![forbid(unsafe_code)]

pub mod access;
pub mod api_error;
pub mod archive;
pub mod auth;
pub mod broker;
pub mod connection;
pub mod error;
pub mod events;
pub mod explorer;
pub mod http;
pub mod hub;
pub mod lichess;
pub mod listen;
pub mod live;
pub mod lobby;
pub mod metrics;
pub mod params;
pub mod policy;
pub mod puzzle;
pub mod review;
pub mod security;
pub mod time;
pub mod tournament;
pub mod transport;
pub mod users;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use guoxiang_store::Store;

pub use api_error::{ApiError, ApiResult};

/// Rate limits (per client address or per user).
#[derive(Clone, Debug)]
pub struct Limits {
    pub logins_per_minute: u32,
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
    /// 10 logins a minute and 30 registrations an hour per address; 20 WebSocket messages a second (bursts of 60);
    /// 600 API game commands a minute per user; 240 analyses a minute per user (an evaluation graph asks one per position).
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
    pub limits: Limits,
    /// Timeouts and connection caps of the accept loop.
    pub connections: listen::ConnLimits,
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
            limits: Limits::default(),
            connections: listen::ConnLimits::default(),
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

impl AppState {
    /// Connects to the database (running migrations), starts the writer and the engine pool, and resumes the live
    /// games of the last run.
    pub async fn start(config: Config) -> Result<AppState, String> {
        let store =
            Store::connect(&config.database_url).await.map_err(|e| format!("database {}: {e}", config.database_url))?;
        let metrics = Arc::new(metrics::Metrics::default());
        let persist = live::persist::Persist::start(store.clone(), metrics.clone());
        let hub = hub::Hub::default();
        let engines = live::engine::EnginePool::new(config.engine_workers, config.engine_hash_mb)
            .with_syzygy(config.syzygy.clone());
        let timeouts = live::Timeouts {
            linger_ms: config.linger_ms,
            first_move_ms: config.first_move_timeout_ms,
            disconnect_ms: config.disconnect_timeout_ms,
            computer_reply_ms: config.computer_reply_ms,
            rated_bot_games: config.rated_bot_games,
        };
        let cluster = config.cluster.clone();
        // With a broker: connected before the games are resumed, so that their first changes reach the other nodes.
        let broker = match cluster.as_ref().and_then(|c| c.broker.as_deref().map(|url| (url, c.node.as_str()))) {
            Some((url, node)) => {
                let (b, inbound) = broker::Broker::connect(url, node, metrics.clone()).await?;
                Some((Arc::new(b) as transport::SharedCluster, inbound))
            }
            None => None,
        };
        let live = live::Live::new(
            store.clone(),
            persist,
            hub.clone(),
            engines,
            timeouts,
            cluster.map(|c| (c, broker.as_ref().map(|(b, _)| b.clone()))),
            metrics.clone(),
            Arc::new(tournament::TournamentArbiters::new(store.clone())),
        );
        let lobby = lobby::Lobby::new(live.clone(), config.public_url.clone());
        if let Some((b, inbound)) = broker {
            hub.set_relay(Arc::new(hub::ClusterRelay(b.clone())));
            tokio::spawn(hub::deliver_relayed(hub.clone(), inbound.users));
            tokio::spawn(lobby::deliver_lobby(lobby.updates.clone(), inbound.lobby));
            tokio::spawn(lobby::serve_requests(live.clone(), lobby.clone(), b, inbound.requests));
        }
        let n = live.restore_all().await.map_err(|e| e.to_string())?;
        if n > 0 {
            tracing::info!("resumed {n} live games");
        }
        live.start_cluster();
        let limiters = security::Limiters::new(&config.limits);
        if let Some(b) = live.broker() {
            limiters.set_cluster(b.clone());
        }
        let analysis = live::engine::AnalysisPool::new(config.analysis_workers, config.analysis_queue, 2);
        let reviewer = review::Reviewer::start(
            store.clone(),
            &live,
            analysis.clone(),
            config.review_nodes,
            config.public_url.clone(),
            config.syzygy.clone(),
        )
        .await
        .map_err(|e| format!("reviewer: {e}"))?;
        let tournaments = tournament::Tournaments::new(store.clone(), live.clone());
        tournaments.run();
        let config = Arc::new(config);
        let puzzles = puzzle::Puzzles::new(store.clone());
        let state =
            AppState { config, store, live, lobby, hub, limiters, analysis, reviewer, tournaments, puzzles, metrics };
        // A new server has puzzles from the first request on: the set compiled in, when the table is empty.
        if let Err(e) = puzzle::import::import_default_if_empty(&state.store).await {
            tracing::warn!("default puzzles: {e}");
        }
        state.lobby.start_live_games_feed();
        let store = state.store.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(std::time::Duration::from_secs(3600));
            loop {
                every.tick().await;
                if let Err(e) = housekeep(&store, time::now_ms() as i64).await {
                    tracing::warn!("housekeeping: {e}");
                }
            }
        });
        Ok(state)
    }
}

/// What the server clears away every hour: expired sessions, then the guests nobody can use any more (no valid
/// session, no game, older than a day). Returns how many of each.
pub async fn housekeep(store: &Store, now_ms: i64) -> Result<(u64, u64), guoxiang_store::StoreError> {
    let sessions = store.purge_expired_sessions(now_ms).await?;
    let guests = store.delete_unused_guests(now_ms, now_ms - 86_400_000).await?;
    if sessions + guests > 0 {
        tracing::info!("housekeeping: {sessions} expired sessions and {guests} unused guests removed");
    }
    Ok((sessions, guests))
}

/// The whole HTTP surface.
pub fn app(state: AppState) -> Router {
    Router::new()
        .route("/ws", axum::routing::get(ws::upgrade))
        .merge(http::routes())
        .merge(lichess::routes())
        .fallback(http::web::static_or_index)
        .layer(axum::middleware::from_fn_with_state(state.clone(), security::origin_layer))
        .layer(DefaultBodyLimit::max(64 * 1024))
        .layer(axum::middleware::from_fn(api_error::json_rejections))
        .layer(axum::middleware::from_fn(security::headers_layer))
        .layer(axum::middleware::from_fn(access::layer))
        .with_state(state)
}

/// Runs the server until Ctrl-C / SIGTERM; then stops the clocks of live games and exits.
pub async fn serve(config: Config) -> Result<(), String> {
    let addr = config.addr;
    let state = AppState::start(config).await?;
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("guoxiang is listening on http://{local}/ (database: {})", state.config.database_url);
    let live = state.live.clone();
    let limits = state.config.connections;
    listen::serve(listener, app(state), limits, shutdown_signal(), std::time::Duration::from_secs(5)).await;
    live.shutdown().await;
    Ok(())
}

async fn shutdown_signal() {
    let ctrl_c = async {
        if let Err(e) = tokio::signal::ctrl_c().await {
            // Without the handler, Ctrl-C cannot be waited for: wait for the other signal only, rather than stop now.
            tracing::warn!("cannot listen for Ctrl-C: {e}");
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}
