//! guoxiang-loadtest: plays many concurrent games against a running guoxiang server over its WebSocket protocol
//! and reports the move throughput and the move round-trip latency ([`run`], described here); or simulates a class
//! of students — lessons, puzzles, games against the computer and their reviews ([`run_class`], see [`class`]).
//!
//! Each game is two guest players (`POST /api/guest`, then `ws://…/ws` with the `gx_session` cookie, `hello`): the
//! first sends `challenge_friend` asking for white, the second `accept_challenge`, both `subscribe` to the game and
//! the side to move plays a random legal move ([`guoxiang_core`]) of the position the server reported (the
//! snapshot's FEN, then each `move_made` event's). A game makes one move per [`Options::move_interval`], the sides
//! alternating, from a random phase so that games do not move in lockstep. A move's latency runs from sending
//! `move` to receiving its `ack`. When a game ends, or reaches [`PLY_CAP`] plies (the side to move resigns), the
//! same pair starts another, so that [`Options::games`] games stay live for the whole run.
//!
//! The run has three phases:
//!
//! 1. **ramp-up**: games start at most [`RAMP_GAMES_PER_SEC`] a second until every one is live (a game that
//!    fails to start three times gives up); the first game is set up alone, and if it fails the run fails with
//!    the reason (`cannot connect to http://127.0.0.1:8080: connection refused`);
//! 2. **warm-up**: one move interval (at most ten seconds) with every game live, not measured;
//! 3. **measured**: [`Options::duration`]; moves, latencies and completed games are counted here only.
//!
//! Errors (server `error` answers, disconnects, a move without `ack` within ten seconds, failed set-ups) are
//! counted over the whole run, with a few samples, and never stop it; a game whose connections break starts
//! afresh with new guests. At the start the process's open-file limit is raised to the hard limit: each game holds
//! two WebSockets.
//!
//! ```no_run
//! # async fn demo() -> Result<(), guoxiang_loadtest::LoadtestError> {
//! use std::time::Duration;
//!
//! let report = guoxiang_loadtest::run(guoxiang_loadtest::Options {
//!     games: 500,
//!     duration: Duration::from_secs(30),
//!     ..Default::default()
//! })
//! .await?;
//! println!("{report}");
//! # Ok(())
//! # }
//! ```

#![forbid(unsafe_code)]

pub mod class;
mod conn;
mod game;
mod http;
mod moves;
mod stats;

use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tokio::sync::watch;
use tokio::task::JoinSet;
use tokio::time::{Instant, MissedTickBehavior};

pub use class::{ClassOptions, ClassReport, run_class};
pub use game::{ANSWER_TIMEOUT, PLY_CAP, SETUP_ATTEMPTS};
pub use stats::{ClusterFigures, MAX_ERROR_SAMPLES, Report, ServerFigures};

use crate::game::{Ctx, game_task, setup};
use crate::http::{BaseUrl, describe_io};
use crate::stats::{Stats, fmt_latency};

/// The most games started per second during ramp-up (each is two guests, two WebSockets).
pub const RAMP_GAMES_PER_SEC: u32 = 200;

/// The longest warm-up: one move interval, but no more than this.
pub const MAX_WARM_UP: Duration = Duration::from_secs(10);

/// How long the ramp-up waits, after the last game was started, for every game to be live or to give up.
const RAMP_GRACE: Duration = Duration::from_secs(300);

/// How long the end of the run waits for the games to resign and close their connections.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(5);

/// The progress bars' templates: ramp-up, warm-up, measured phase.
const RAMP_TEMPLATE: &str = "{spinner} ramp-up   [{bar:30}] {pos}/{len} games live {msg}";
const WARM_UP_TEMPLATE: &str = "{spinner} warm-up   {msg}";
const MEASURE_TEMPLATE: &str = "{spinner} measuring [{bar:30}] {pos}/{len} s {msg}";

/// What to run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The server, `http://HOST:PORT` (a path prefix is allowed); default `http://127.0.0.1:8080`.
    pub base_url: String,
    /// More nodes of the same cluster (`guoxiang serve --broker`): the players' connections go round-robin over
    /// all the nodes, the two players of a game on two different ones.
    pub more_urls: Vec<String>,
    /// Concurrent games (two connections each); default 100.
    pub games: usize,
    /// Each game plays one move per interval, the sides alternating; default one second.
    pub move_interval: Duration,
    /// The measured phase, after ramp-up and warm-up; default 60 seconds.
    pub duration: Duration,
    /// The games' time control, a PGN `TimeControl` tag; default `1800+0` (long enough for [`PLY_CAP`] plies).
    pub time_control: String,
    /// Show a progress bar on the terminal (stderr).
    pub progress: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            base_url: "http://127.0.0.1:8080".to_owned(),
            more_urls: Vec::new(),
            games: 100,
            move_interval: Duration::from_secs(1),
            duration: Duration::from_secs(60),
            time_control: "1800+0".to_owned(),
            progress: false,
        }
    }
}

/// Why a run could not be carried out. Problems during the run are counted in the [`Report`] instead.
#[derive(Debug, thiserror::Error)]
pub enum LoadtestError {
    /// The options make no sense (no games, a zero interval, a URL that is not `http://HOST:PORT`).
    #[error("invalid load test options: {0}")]
    InvalidOptions(String),
    /// The server cannot be reached at all.
    #[error("cannot connect to {url}: {reason}")]
    Connect {
        /// The base URL as given.
        url: String,
        /// `connection refused`, `timed out`, …
        reason: String,
    },
    /// The server answers, but the first game could not be started (guest, WebSocket, `hello`, challenge…).
    #[error("cannot start a game on {url}: {reason}")]
    Setup {
        /// The base URL as given.
        url: String,
        /// The step that failed and how.
        reason: String,
    },
}

/// Runs the load test: ramp-up, warm-up, then the measured phase of `opts.duration`, and reports.
pub async fn run(opts: Options) -> Result<Report, LoadtestError> {
    let invalid = |s: &str| Err(LoadtestError::InvalidOptions(s.to_owned()));
    if opts.games == 0 {
        return invalid("games must be at least 1");
    }
    if opts.move_interval.is_zero() {
        return invalid("the move interval must be positive");
    }
    if opts.duration.is_zero() {
        return invalid("the duration must be positive");
    }
    if opts.time_control.trim().is_empty() {
        return invalid("the time control is empty");
    }
    let base = BaseUrl::parse(&opts.base_url).map_err(LoadtestError::InvalidOptions)?;
    let url = opts.base_url.trim().trim_end_matches('/').to_owned();
    let open_files_limit = raise_open_files_limit();
    let addr = reachable_address(&base).await.map_err(|reason| LoadtestError::Connect { url: url.clone(), reason })?;
    let mut nodes = vec![(addr, base.clone())];
    for u in &opts.more_urls {
        let b = BaseUrl::parse(u).map_err(LoadtestError::InvalidOptions)?;
        let a = reachable_address(&b).await.map_err(|reason| LoadtestError::Connect { url: u.clone(), reason })?;
        nodes.push((a, b));
    }

    let stats = Arc::new(Stats::new());
    let ctx = Arc::new(Ctx {
        addr,
        base,
        nodes,
        next_node: std::sync::atomic::AtomicUsize::new(0),
        time_control: opts.time_control.trim().to_owned(),
        move_interval: opts.move_interval,
        stats: Arc::clone(&stats),
    });
    let games = opts.games;
    let server_stats = |ctx: Arc<Ctx>| async move {
        crate::http::get_json(ctx.addr, &ctx.base, "/api/server/stats", Duration::from_secs(10)).await.ok()
    };
    let idle = server_stats(Arc::clone(&ctx)).await;

    // Ramp-up. The first game alone: if it cannot start, nothing will.
    let bar = progress_bar(opts.progress, games as u64, RAMP_TEMPLATE);
    bar.enable_steady_tick(Duration::from_millis(200));
    let ramp_start = Instant::now();
    let mut rng = StdRng::from_rng(&mut rand::rng());
    let first = match setup(&ctx, None, &mut rng).await {
        Ok(first) => first,
        Err(reason) => {
            bar.finish_and_clear();
            return Err(LoadtestError::Setup { url, reason });
        }
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut tasks = JoinSet::new();
    tasks.spawn(game_task(Arc::clone(&ctx), Some(first), stop_rx.clone()));
    let mut ticker = tokio::time::interval(Duration::from_secs(1) / RAMP_GAMES_PER_SEC);
    ticker.set_missed_tick_behavior(MissedTickBehavior::Delay);
    ticker.tick().await;
    let mut last_shown = Instant::now();
    for _ in 1..games {
        ticker.tick().await;
        tasks.spawn(game_task(Arc::clone(&ctx), None, stop_rx.clone()));
        if last_shown.elapsed() >= Duration::from_millis(100) {
            show_ramp(&bar, &stats);
            last_shown = Instant::now();
        }
    }
    let spawned = Instant::now();
    loop {
        show_ramp(&bar, &stats);
        let settled = stats.live.load(Ordering::SeqCst) + stats.failed.load(Ordering::SeqCst);
        if settled >= games {
            break;
        }
        if spawned.elapsed() >= RAMP_GRACE {
            stats.error(format!(
                "ramp-up: {} games neither live nor given up after {} s",
                games - settled,
                RAMP_GRACE.as_secs()
            ));
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let ramp_up = ramp_start.elapsed();
    let games_live = stats.live.load(Ordering::SeqCst);
    bar.finish_and_clear();

    // Warm-up: every game live, not measured.
    let warm_up = opts.move_interval.min(MAX_WARM_UP);
    let bar = progress_bar(opts.progress, 0, WARM_UP_TEMPLATE);
    bar.enable_steady_tick(Duration::from_millis(200));
    bar.set_message(format!("{games_live} games live, {:.1} s", warm_up.as_secs_f64()));
    tokio::time::sleep(warm_up).await;
    bar.finish_and_clear();

    // The measured phase.
    let bar = progress_bar(opts.progress, opts.duration.as_secs().max(1), MEASURE_TEMPLATE);
    bar.enable_steady_tick(Duration::from_millis(200));
    let before = server_stats(Arc::clone(&ctx)).await;
    let cluster_before = cluster_counts(&ctx).await;
    stats.set_measuring(true);
    let start = Instant::now();
    let end = start + opts.duration;
    let mut next_window = start + Duration::from_secs(1);
    let mut window_p99 = None;
    while Instant::now() < end {
        tokio::time::sleep_until(end.min(Instant::now() + Duration::from_millis(250))).await;
        let now = Instant::now();
        if now >= next_window {
            window_p99 = Some(stats.take_window().p99);
            next_window = now + Duration::from_secs(1);
        }
        let secs = now.saturating_duration_since(start).as_secs_f64();
        let moves = stats.moves();
        bar.set_position(secs as u64);
        bar.set_message(format!(
            "{moves} moves, {:.0}/s, p99 {}, {} errors",
            if secs > 0.0 { moves as f64 / secs } else { 0.0 },
            window_p99.map_or_else(|| "-".to_owned(), fmt_latency),
            stats.errors()
        ));
    }
    stats.set_measuring(false);
    let elapsed = start.elapsed();
    let after = server_stats(Arc::clone(&ctx)).await;
    let cluster = match (cluster_before, cluster_counts(&ctx).await) {
        (Some((m0, r0)), Some((m1, r1))) if ctx.nodes.len() > 1 => Some(ClusterFigures {
            nodes: ctx.nodes.len(),
            moves: m1.saturating_sub(m0),
            remote_requests: r1.saturating_sub(r0),
        }),
        _ => None,
    };
    let field = |v: &Option<serde_json::Value>, k: &str| v.as_ref().and_then(|v| v[k].as_u64());
    let server = match (field(&idle, "rss_bytes"), field(&after, "rss_bytes")) {
        (Some(rss_idle), Some(rss_loaded)) => Some(ServerFigures {
            rss_idle,
            rss_loaded,
            cpu_ms: field(&after, "cpu_ms").unwrap_or(0).saturating_sub(field(&before, "cpu_ms").unwrap_or(0)),
        }),
        _ => None,
    };
    bar.finish_and_clear();

    // Stop: the games resign and close.
    stats.set_stopping();
    let _ = stop_tx.send(true);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, async { while tasks.join_next().await.is_some() {} }).await;
    tasks.shutdown().await;

    let moves = stats.moves();
    let p = stats.measured();
    Ok(Report {
        games,
        games_live,
        ramp_up,
        games_completed: stats.games_completed(),
        moves,
        elapsed,
        moves_per_sec: moves as f64 / elapsed.as_secs_f64().max(1e-9),
        p50: p.p50,
        p95: p.p95,
        p99: p.p99,
        max: p.max,
        errors: stats.errors(),
        error_samples: stats.error_samples(),
        open_files_limit,
        server,
        cluster,
    })
}

/// The moves committed and the requests for remote games, summed over the nodes' `/metrics` (`None` if a node
/// does not answer).
async fn cluster_counts(ctx: &Ctx) -> Option<(u64, u64)> {
    let (mut moves, mut remote) = (0, 0);
    for (addr, base) in &ctx.nodes {
        let body = crate::http::get_body(*addr, base, "/metrics", Duration::from_secs(10)).await.ok()?;
        let text = String::from_utf8_lossy(&body);
        moves += metric(&text, "guoxiang_moves_total");
        remote += metric(&text, "guoxiang_remote_requests_total");
    }
    Some((moves, remote))
}

/// A counter's value in OpenMetrics text (0 when absent).
fn metric(text: &str, name: &str) -> u64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|v| v.trim().parse::<f64>().ok())
        .map_or(0, |v| v as u64)
}

/// Raises the soft open-file limit to the hard limit; returns the limit in force (`None` if unknown).
fn raise_open_files_limit() -> Option<u64> {
    if cfg!(unix) { rlimit::increase_nofile_limit(u64::MAX).ok() } else { None }
}

/// Resolves the server's host and returns the first address that accepts a TCP connection; the error is the
/// reason none did (`connection refused`).
pub(crate) async fn reachable_address(base: &BaseUrl) -> Result<SocketAddr, String> {
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host(&base.authority)
        .await
        .map_err(|e| format!("cannot resolve {}: {e}", base.authority))?
        .collect();
    let mut reason = format!("{} resolves to no address", base.authority);
    for addr in addrs {
        match tokio::time::timeout(Duration::from_secs(5), tokio::net::TcpStream::connect(addr)).await {
            Ok(Ok(_)) => return Ok(addr),
            Ok(Err(e)) => reason = describe_io(&e),
            Err(_) => reason = "timed out".to_owned(),
        }
    }
    Err(reason)
}

/// A progress bar on stderr, or a hidden one.
pub(crate) fn progress_bar(show: bool, len: u64, template: &str) -> ProgressBar {
    if !show {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len);
    bar.set_style(ProgressStyle::with_template(template).expect("valid template").progress_chars("=> "));
    bar
}

fn show_ramp(bar: &ProgressBar, stats: &Stats) {
    let live = stats.live.load(Ordering::SeqCst);
    bar.set_position(live as u64);
    let failed = stats.failed.load(Ordering::SeqCst);
    let mut msg = format!("({} connections", live * 2);
    if failed > 0 {
        msg.push_str(&format!(", {failed} gave up"));
    }
    let errors = stats.errors();
    if errors > 0 {
        msg.push_str(&format!(", {errors} errors"));
    }
    msg.push(')');
    bar.set_message(msg);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn invalid_options_are_refused() {
        let run_with = |o: Options| async move { run(o).await.unwrap_err().to_string() };
        assert_eq!(
            run_with(Options { games: 0, ..Default::default() }).await,
            "invalid load test options: games must be at least 1"
        );
        let e = run_with(Options { move_interval: Duration::ZERO, ..Default::default() }).await;
        assert!(e.contains("move interval"), "{e}");
        let e = run_with(Options { duration: Duration::ZERO, ..Default::default() }).await;
        assert!(e.contains("duration"), "{e}");
        let e = run_with(Options { time_control: " ".into(), ..Default::default() }).await;
        assert!(e.contains("time control"), "{e}");
        let e = run_with(Options { base_url: "https://example.org".into(), ..Default::default() }).await;
        assert!(e.contains("https is not supported"), "{e}");
    }

    #[tokio::test]
    async fn an_unreachable_server_fails_clearly() {
        // A port that was just free: nothing listens there.
        let port = {
            let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            l.local_addr().unwrap().port()
        };
        let url = format!("http://127.0.0.1:{port}/");
        let e = run(Options { base_url: url, games: 1, ..Default::default() }).await.unwrap_err();
        assert_eq!(e.to_string(), format!("cannot connect to http://127.0.0.1:{port}: connection refused"));
    }

    #[tokio::test]
    async fn a_server_that_is_not_guoxiang_fails_the_first_game() {
        // Answers every connection with a 404 and closes.
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        tokio::spawn(async move {
            use tokio::io::{AsyncReadExt, AsyncWriteExt};
            while let Ok((mut s, _)) = listener.accept().await {
                tokio::spawn(async move {
                    let mut buf = [0u8; 1024];
                    let _ = s.read(&mut buf).await;
                    let _ = s.write_all(b"HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n").await;
                });
            }
        });
        let url = format!("http://127.0.0.1:{port}");
        let e = run(Options { base_url: url.clone(), games: 1, ..Default::default() }).await.unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("cannot start a game on {url}: POST /api/guest answered HTTP/1.1 404 Not Found")
        );
    }

    #[test]
    fn progress_templates_are_valid() {
        for t in [RAMP_TEMPLATE, WARM_UP_TEMPLATE, MEASURE_TEMPLATE] {
            let bar = progress_bar(true, 10, t);
            bar.set_position(3);
            bar.set_message("(6 connections)");
            bar.finish_and_clear();
        }
        assert!(progress_bar(false, 10, RAMP_TEMPLATE).is_hidden());
    }

    #[test]
    fn defaults() {
        let o = Options::default();
        assert_eq!(o.base_url, "http://127.0.0.1:8080");
        assert_eq!(o.move_interval, Duration::from_secs(1));
        assert_eq!(o.time_control, "1800+0");
        assert!(!o.progress);
    }
}
