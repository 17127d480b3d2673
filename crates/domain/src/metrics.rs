//! The server's counters, kept for the Prometheus (OpenMetrics) text format by `prometheus-client` (served as
//! `GET /metrics` by the HTTP layer).

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

/// Everything counted. Cheap to share (`Arc`); each metric is atomic.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    /// Moves committed (each before it was acknowledged).
    pub moves: Counter,
    /// Transactions of the group-commit writer, and the games' writes they carried.
    pub commits: Counter,
    pub commit_jobs: Counter,
    /// Games' writes that were not committed (the command refused `not_saved`, or a retry later).
    pub commit_failures: Counter,
    /// Games' writes refused by their fence: another node owns the game now.
    pub fenced_writes: Counter,
    /// Seconds per transaction of the writer.
    pub commit_seconds: Histogram,
    /// Live games in memory (set at each scrape).
    live_games: Gauge,
    /// In a cluster: lease renewals that succeeded and failed, games taken over, games held.
    pub lease_renewals: Counter,
    pub lease_renewal_failures: Counter,
    pub takeovers: Counter,
    pub leases_held: Gauge,
    /// With a broker: messages published, received, and dropped (queue full or the broker down: a follower
    /// resyncs); time from a message's queueing on one node to its arrival on another; requests to a game's owner
    /// on another node (round trip) and those that got no reply; connections to the broker lost.
    pub broker_published: Counter,
    pub broker_received: Counter,
    pub broker_dropped: Counter,
    pub broker_lag_seconds: Histogram,
    pub broker_request_seconds: Histogram,
    pub broker_request_timeouts: Counter,
    pub broker_disconnections: Counter,
    /// Requests for games owned by another node (each a round trip through the broker).
    pub remote_requests: Counter,
    /// When the last renewal succeeded (ms since the Unix epoch; 0: never).
    last_renewal_ms: AtomicU64,
}

impl Default for Metrics {
    fn default() -> Self {
        let mut m = Metrics {
            registry: Registry::with_prefix("guoxiang"),
            moves: Counter::default(),
            commits: Counter::default(),
            commit_jobs: Counter::default(),
            commit_failures: Counter::default(),
            fenced_writes: Counter::default(),
            // 0.25 ms to about 4 s.
            commit_seconds: Histogram::new(exponential_buckets(0.000_25, 2.0, 15)),
            live_games: Gauge::default(),
            lease_renewals: Counter::default(),
            lease_renewal_failures: Counter::default(),
            takeovers: Counter::default(),
            leases_held: Gauge::default(),
            broker_published: Counter::default(),
            broker_received: Counter::default(),
            broker_dropped: Counter::default(),
            // 0.05 ms to about 1.6 s.
            broker_lag_seconds: Histogram::new(exponential_buckets(0.000_05, 2.0, 16)),
            broker_request_seconds: Histogram::new(exponential_buckets(0.000_1, 2.0, 16)),
            broker_request_timeouts: Counter::default(),
            broker_disconnections: Counter::default(),
            remote_requests: Counter::default(),
            last_renewal_ms: AtomicU64::new(0),
        };
        m.register_games_and_leases();
        m.register_broker();
        m
    }
}

impl Metrics {
    /// Registers the metrics of the moves, the writer and the leases.
    fn register_games_and_leases(&mut self) {
        let registry = &mut self.registry;
        registry.register("moves", "Moves committed", self.moves.clone());
        registry.register("commits", "Transactions of the group-commit writer", self.commits.clone());
        registry.register(
            "commit_jobs",
            "Games' writes committed (many share a transaction)",
            self.commit_jobs.clone(),
        );
        registry.register("commit_failures", "Games' writes that could not be committed", self.commit_failures.clone());
        registry.register("fenced_writes", "Writes refused: another node owns the game", self.fenced_writes.clone());
        registry.register("commit_seconds", "Time per transaction of the writer", self.commit_seconds.clone());
        registry.register("live_games", "Games in progress on this node", self.live_games.clone());
        registry.register("lease_renewals", "Successful renewals of this node's leases", self.lease_renewals.clone());
        registry.register(
            "lease_renewal_failures",
            "Failed renewals of this node's leases",
            self.lease_renewal_failures.clone(),
        );
        registry.register("takeovers", "Games this node took over from another", self.takeovers.clone());
        registry.register("leases_held", "Live games this node holds the lease of", self.leases_held.clone());
    }

    /// Registers the metrics of the broker.
    fn register_broker(&mut self) {
        let registry = &mut self.registry;
        registry.register(
            "broker_published",
            "Messages this node published to the broker",
            self.broker_published.clone(),
        );
        registry.register(
            "broker_received",
            "Messages this node received from the broker",
            self.broker_received.clone(),
        );
        registry.register(
            "broker_dropped",
            "Messages not published (queue full or broker down; followers resync)",
            self.broker_dropped.clone(),
        );
        registry.register(
            "broker_lag_seconds",
            "Time from a message's queueing on its node to its arrival here",
            self.broker_lag_seconds.clone(),
        );
        registry.register(
            "broker_request_seconds",
            "Round trip of a request to a game's owner on another node",
            self.broker_request_seconds.clone(),
        );
        registry.register(
            "broker_request_timeouts",
            "Requests to another node that got no reply in time",
            self.broker_request_timeouts.clone(),
        );
        registry.register(
            "broker_disconnections",
            "Connections to the broker lost",
            self.broker_disconnections.clone(),
        );
        registry.register("remote_requests", "Requests for games another node owns", self.remote_requests.clone());
    }
}

impl Metrics {
    pub fn renewed(&self, now_ms: u64, held: usize) {
        self.lease_renewals.inc();
        self.leases_held.set(held as i64);
        self.last_renewal_ms.store(now_ms, Ordering::Relaxed);
    }

    /// When the last lease renewal succeeded (ms since the Unix epoch), if ever.
    pub fn last_renewal_ms(&self) -> Option<u64> {
        Some(self.last_renewal_ms.load(Ordering::Relaxed)).filter(|&t| t > 0)
    }

    /// The text a scrape gets.
    pub fn render(&self, live_games: usize) -> String {
        self.live_games.set(live_games as i64);
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = encode(&mut out, &self.registry);
        out
    }
}

/// Shared by the writer, the live games and the handlers.
pub type SharedMetrics = Arc<Metrics>;
