// SPDX-License-Identifier: GPL-3.0-or-later
//! guoxiang-server: the composition root behind `guoxiang serve`. It wires the layers and runs them:
//!
//! | crate | layer | may use |
//! |---|---|---|
//! | `guoxiang-domain` | live games, lobby, tournaments, reviews, puzzles, explorer, policy, events, metrics | the chess and store crates; no axum, tower, hyper or redis |
//! | `guoxiang-http` | the site's API, the Lichess API, the WebSocket, auth, security and limits | the domain |
//! | `guoxiang-broker` | the cluster's transport, shared counters and live list over Redis | the domain |
//! | `guoxiang-server` | [`start`] (the state, wired) and [`serve`] (the whole server) | all three |
//!
//! The layers' modules are re-exported under their old paths (`guoxiang_server::live`, `guoxiang_server::ws`, …)
//! for the binary and the tests.

#![forbid(unsafe_code)]

use std::sync::Arc;

use guoxiang_broker as broker;
use guoxiang_store::Store;

pub use guoxiang_domain::{
    archive, error, events, explorer, hub, live, lobby, metrics, policy, puzzle, review, time, tournament, transport,
};
pub use guoxiang_http::{
    ApiError, ApiResult, AppState, Config, Limits, access, api_error, app, auth, authz, client, connection, http,
    lichess, listen, params, security, users, ws,
};

/// Connects to the database (running migrations), starts the writer and the engine pool, and resumes the live
/// games of the last run.
pub async fn start(config: Config) -> Result<AppState, String> {
    let store =
        Store::connect(&config.database_url).await.map_err(|e| format!("database {}: {e}", config.database_url))?;
    let metrics = Arc::new(metrics::Metrics::default());
    let persist = live::persist::Persist::start(store.clone(), metrics.clone());
    let hub = hub::Hub::default();
    let engines =
        live::engine::EnginePool::new(config.engine_workers, config.engine_hash_mb).with_syzygy(config.syzygy.clone());
    let timeouts = live::Timeouts {
        linger_ms: config.linger_ms,
        first_move_ms: config.first_move_timeout_ms,
        disconnect_ms: config.disconnect_timeout_ms,
        computer_reply_ms: config.computer_reply_ms,
        rated_bot_games: config.rated_bot_games,
    };
    let cluster = config.cluster.clone();
    // With a broker: connected before the games are resumed, so that their first changes reach the other nodes.
    let broker = connect_broker(cluster.as_ref(), &metrics).await?;
    let live = live::Live::new(
        store.clone(),
        persist,
        Arc::new(hub.clone()),
        engines,
        timeouts,
        cluster.map(|c| (c, broker.as_ref().map(|(b, _)| b.clone()))),
        metrics.clone(),
        Arc::new(tournament::TournamentArbiters::new(store.clone())),
    );
    let lobby = lobby::Lobby::new(live.clone(), config.public_url.clone());
    if let Some((b, inbound)) = broker {
        serve_cluster(b, inbound, &hub, &live, &lobby);
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
        config.analysis_workers == 0,
    )
    .await
    .map_err(|e| format!("reviewer: {e}"))?;
    let tournaments = tournament::Tournaments::new(store.clone(), live.clone(), config.rated_tournaments);
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
    start_housekeeping(state.store.clone(), state.config.session_idle_ms);
    Ok(state)
}

/// The broker of a cluster that has one, connected as this node.
async fn connect_broker(
    cluster: Option<&live::cluster::ClusterConfig>,
    metrics: &metrics::SharedMetrics,
) -> Result<Option<(transport::SharedCluster, transport::Inbound)>, String> {
    let Some((url, node)) = cluster.and_then(|c| c.broker.as_deref().map(|url| (url, c.node.as_str()))) else {
        return Ok(None);
    };
    let (b, inbound) = broker::Broker::connect(url, node, metrics.clone()).await?;
    Ok(Some((Arc::new(b) as transport::SharedCluster, inbound)))
}

/// What comes in from the other nodes, to whom it is for: users' notifications to the hub, the lobby's frames to
/// its followers, requests to the games and the lobby; and this node's notifications out to the others.
fn serve_cluster(
    b: transport::SharedCluster,
    inbound: transport::Inbound,
    hub: &hub::Hub,
    live: &live::Live,
    lobby: &lobby::Lobby,
) {
    hub.set_relay(Arc::new(hub::ClusterRelay(b.clone())));
    tokio::spawn(hub::deliver_relayed(hub.clone(), inbound.users));
    tokio::spawn(lobby::deliver_lobby(lobby.updates.clone(), inbound.lobby));
    tokio::spawn(lobby::serve_requests(live.clone(), lobby.clone(), b, inbound.requests));
}

/// Runs [`housekeep`] every hour.
fn start_housekeeping(store: Store, session_idle_ms: u64) {
    tokio::spawn(async move {
        let mut every = tokio::time::interval(std::time::Duration::from_secs(3600));
        loop {
            every.tick().await;
            if let Err(e) = housekeep(&store, time::now_ms() as i64, session_idle_ms).await {
                tracing::warn!("housekeeping: {e}");
            }
        }
    });
}

/// What the server clears away every hour: expired sessions (past their end, or unused for `session_idle_ms`), then
/// the guests nobody can use any more (no valid session, no game, older than a day). Returns how many of each.
pub async fn housekeep(
    store: &Store,
    now_ms: i64,
    session_idle_ms: u64,
) -> Result<(u64, u64), guoxiang_store::StoreError> {
    let sessions = store.purge_expired_sessions(now_ms, i64::try_from(session_idle_ms).unwrap_or(i64::MAX)).await?;
    let guests = store.delete_unused_guests(now_ms, now_ms - 86_400_000).await?;
    if sessions + guests > 0 {
        tracing::info!("housekeeping: {sessions} expired sessions and {guests} unused guests removed");
    }
    Ok((sessions, guests))
}

/// Runs the server until Ctrl-C / SIGTERM; then stops the clocks of live games and exits.
pub async fn serve(config: Config) -> Result<(), String> {
    let addr = config.addr;
    let state = start(config).await?;
    let listener = tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let local = listener.local_addr().map_err(|e| e.to_string())?;
    println!("guoxiang is listening on http://{local}/ (database: {})", state.config.database_url);
    let metrics = match state.config.metrics.addr {
        Some(a) => {
            let l = tokio::net::TcpListener::bind(a)
                .await
                .map_err(|e| format!("cannot listen on {a} (--metrics-addr): {e}"))?;
            let local = l.local_addr().map_err(|e| e.to_string())?;
            println!("metrics and health checks: http://{local}/metrics, /api/server/stats, /healthz, /readyz");
            Some(l)
        }
        None => None,
    };
    let live = state.live.clone();
    run(state, listener, metrics, shutdown_signal()).await;
    live.shutdown().await;
    Ok(())
}

/// Serves the whole site on `listener` and, with `--metrics-addr`, the figures and health checks on `metrics`
/// (`http::metrics_listener_app`), until `shutdown` resolves; then stops both, lets open requests finish (at most
/// 5 s) and returns.
pub async fn run(
    state: AppState,
    listener: tokio::net::TcpListener,
    metrics: Option<tokio::net::TcpListener>,
    shutdown: impl std::future::Future<Output = ()>,
) {
    let grace = std::time::Duration::from_secs(5);
    let limits = state.config.connections;
    let trusted = state.config.trusted_proxies.clone();
    let (stop, stopped) = tokio::sync::watch::channel(false);
    let side = metrics.map(|l| {
        let app = http::metrics_listener_app(state.clone());
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let until = async move {
                let _ = stopped.wait_for(|s| *s).await;
            };
            listen::serve_with_proxies(l, app, limits, &trusted, until, grace).await;
        })
    });
    let trusted = state.config.trusted_proxies.clone();
    listen::serve_with_proxies(listener, app(state), limits, &trusted, shutdown, grace).await;
    let _ = stop.send(true);
    if let Some(side) = side {
        let _ = side.await;
    }
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
