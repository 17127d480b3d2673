//! Counters and latency histograms shared by the game tasks, and the final [`Report`].

use core::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use hdrhistogram::Histogram;

/// How many distinct error messages are kept as samples.
pub const MAX_ERROR_SAMPLES: usize = 10;

/// The largest latency the histograms tell apart (one hour, in microseconds); longer ones count as this.
const MAX_LATENCY_MICROS: u64 = 3_600_000_000;

/// The outcome of a load test run. `Display` writes a readable multi-line summary.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The number of concurrent games asked for.
    pub games: usize,
    /// How many of them went live during ramp-up (the others failed to start three times).
    pub games_live: usize,
    /// The ramp-up: from the first connection to the moment every game was live (or had given up).
    pub ramp_up: Duration,
    /// Games that ended (checkmate, draw, resignation at the ply cap, …) during the measured phase.
    pub games_completed: u64,
    /// Moves acknowledged by the server during the measured phase.
    pub moves: u64,
    /// The length of the measured phase.
    pub elapsed: Duration,
    /// `moves / elapsed`.
    pub moves_per_sec: f64,
    /// Median move round trip: from sending `move` to receiving its `ack`.
    pub p50: Duration,
    /// 95th percentile of the move round trip.
    pub p95: Duration,
    /// 99th percentile of the move round trip.
    pub p99: Duration,
    /// The slowest move round trip.
    pub max: Duration,
    /// Errors over the whole run, ramp-up included: server `error` answers, disconnects, timeouts, failed setups.
    pub errors: u64,
    /// A few distinct error messages (`… (N times)` when repeated).
    pub error_samples: Vec<String>,
    /// The process's open-file limit after raising it (`None` where it could not be read).
    pub open_files_limit: Option<u64>,
    /// The server's own figures (`GET /api/server/stats`: the server must run with `--metrics-public`, or with
    /// `--metrics-token` and this process with `GUOXIANG_METRICS_TOKEN`), when it gives them.
    pub server: Option<ServerFigures>,
    /// With several nodes of a cluster: what their `/metrics` counted during the measured phase.
    pub cluster: Option<ClusterFigures>,
}

/// The nodes of a cluster during the measured phase, from their `/metrics`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClusterFigures {
    pub nodes: usize,
    /// Moves the nodes committed (`guoxiang_moves_total`), each on the node that owns its game.
    pub moves: u64,
    /// Requests the nodes sent for games another node owns (`guoxiang_remote_requests_total`): the players' moves
    /// that crossed nodes, and a few subscriptions.
    pub remote_requests: u64,
}

/// What the server says of itself around the run.
#[derive(Clone, Debug, PartialEq)]
pub struct ServerFigures {
    /// Resident memory before the games were started, and at the end of the measured phase, bytes.
    pub rss_idle: u64,
    pub rss_loaded: u64,
    /// CPU time (user and system) the server spent during the measured phase, ms.
    pub cpu_ms: u64,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "guoxiang load test")?;
        write!(f, "  games:      {} live of {} asked for", self.games_live, self.games)?;
        if let Some(limit) = self.open_files_limit {
            write!(f, " (open-file limit {limit})")?;
        }
        writeln!(f)?;
        writeln!(f, "  ramp-up:    {}", fmt_secs(self.ramp_up))?;
        writeln!(
            f,
            "  measured:   {}: {} moves, {:.1} moves/s, {} games completed",
            fmt_secs(self.elapsed),
            self.moves,
            self.moves_per_sec,
            self.games_completed
        )?;
        if self.moves == 0 {
            writeln!(f, "  latency:    no move was acknowledged")?;
        } else {
            writeln!(
                f,
                "  latency:    p50 {}  p95 {}  p99 {}  max {}",
                fmt_latency(self.p50),
                fmt_latency(self.p95),
                fmt_latency(self.p99),
                fmt_latency(self.max)
            )?;
        }
        match &self.server {
            Some(s) => {
                let per_game = s.rss_loaded.saturating_sub(s.rss_idle) as f64 / self.games_live.max(1) as f64;
                let per_move = if self.moves > 0 { s.cpu_ms as f64 * 1000.0 / self.moves as f64 } else { 0.0 };
                writeln!(
                    f,
                    "  server:     RSS {:.1} MB idle, {:.1} MB with the games ({:.1} KB per live game); CPU {:.0} µs \
                     per move",
                    s.rss_idle as f64 / 1e6,
                    s.rss_loaded as f64 / 1e6,
                    per_game / 1e3,
                    per_move
                )?;
            }
            None => writeln!(
                f,
                "  server:     no figures (GET /api/server/stats: run the server with --metrics-public, or set \
                 GUOXIANG_METRICS_TOKEN to its --metrics-token)"
            )?,
        }
        if let Some(c) = &self.cluster {
            // Against the moves acknowledged: the games may run on a node that is not in the list.
            let share = if self.moves > 0 { 100.0 * c.remote_requests as f64 / self.moves as f64 } else { 0.0 };
            writeln!(
                f,
                "  cluster:    {} nodes; {} requests for a game on another node ({share:.0} % of the moves); {} \
                 moves committed on these nodes",
                c.nodes, c.remote_requests, c.moves
            )?;
        }
        write!(f, "  errors:     {}", self.errors)?;
        for sample in &self.error_samples {
            write!(f, "\n    - {sample}")?;
        }
        Ok(())
    }
}

/// A duration of seconds, one decimal: `60.0 s`.
pub(crate) fn fmt_secs(d: Duration) -> String {
    format!("{:.1} s", d.as_secs_f64())
}

/// A latency in milliseconds with a precision that suits its size (`0.42 ms`, `12.3 ms`, `250 ms`), seconds from
/// ten seconds on.
pub(crate) fn fmt_latency(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms < 10.0 {
        format!("{ms:.2} ms")
    } else if ms < 100.0 {
        format!("{ms:.1} ms")
    } else if ms < 10_000.0 {
        format!("{ms:.0} ms")
    } else {
        format!("{:.1} s", ms / 1000.0)
    }
}

/// Latency percentiles of a histogram of microseconds.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Percentiles {
    pub p50: Duration,
    pub p95: Duration,
    pub p99: Duration,
    pub max: Duration,
}

/// A histogram of round trips in microseconds, from 1 µs to an hour with three significant digits.
pub(crate) fn new_histogram() -> Histogram<u64> {
    Histogram::new_with_bounds(1, MAX_LATENCY_MICROS, 3).expect("valid histogram bounds")
}

/// Records one round trip (at least 1 µs; saturating at the histogram's top).
pub(crate) fn record(h: &mut Histogram<u64>, latency: Duration) {
    let micros = u64::try_from(latency.as_micros()).unwrap_or(u64::MAX).max(1);
    h.saturating_record(micros);
}

/// The percentiles of a histogram; zero when it is empty.
pub(crate) fn percentiles(h: &Histogram<u64>) -> Percentiles {
    if h.is_empty() {
        return Percentiles::default();
    }
    let at = |q: f64| Duration::from_micros(h.value_at_quantile(q));
    Percentiles { p50: at(0.50), p95: at(0.95), p99: at(0.99), max: Duration::from_micros(h.max()) }
}

/// Round trips: the measured phase's, and a window the progress display reads and clears.
#[derive(Debug)]
struct Latencies {
    measured: Histogram<u64>,
    window: Histogram<u64>,
}

/// State shared by all game tasks and the coordinator.
#[derive(Debug)]
pub(crate) struct Stats {
    measuring: AtomicBool,
    stopping: AtomicBool,
    moves: AtomicU64,
    games_completed: AtomicU64,
    errors: AtomicU64,
    /// Games that went live at least once.
    pub live: AtomicUsize,
    /// Games that gave up before going live.
    pub failed: AtomicUsize,
    samples: Mutex<Vec<(String, u64)>>,
    latencies: Mutex<Latencies>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Stats {
    pub fn new() -> Stats {
        Stats {
            measuring: AtomicBool::new(false),
            stopping: AtomicBool::new(false),
            moves: AtomicU64::new(0),
            games_completed: AtomicU64::new(0),
            errors: AtomicU64::new(0),
            live: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            samples: Mutex::new(Vec::new()),
            latencies: Mutex::new(Latencies { measured: new_histogram(), window: new_histogram() }),
        }
    }

    /// Starts or ends the measured phase. Starting it clears the window.
    pub fn set_measuring(&self, on: bool) {
        if on {
            lock(&self.latencies).window.reset();
        }
        self.measuring.store(on, Ordering::SeqCst);
    }

    /// From now on errors are the shutdown's own (closed connections) and are not counted.
    pub fn set_stopping(&self) {
        self.stopping.store(true, Ordering::SeqCst);
    }

    pub fn is_stopping(&self) -> bool {
        self.stopping.load(Ordering::SeqCst)
    }

    /// A move's ack arrived after `latency`.
    pub fn record_move(&self, latency: Duration) {
        let measuring = self.measuring.load(Ordering::SeqCst);
        let mut l = lock(&self.latencies);
        record(&mut l.window, latency);
        if measuring {
            record(&mut l.measured, latency);
            self.moves.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// A game ended normally.
    pub fn game_completed(&self) {
        if self.measuring.load(Ordering::SeqCst) {
            self.games_completed.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Counts an error and keeps its message as a sample (distinct messages, up to [`MAX_ERROR_SAMPLES`]).
    pub fn error(&self, message: impl Into<String>) {
        if self.is_stopping() {
            return;
        }
        self.errors.fetch_add(1, Ordering::Relaxed);
        add_sample(&mut lock(&self.samples), message.into());
    }

    pub fn errors(&self) -> u64 {
        self.errors.load(Ordering::Relaxed)
    }

    pub fn moves(&self) -> u64 {
        self.moves.load(Ordering::Relaxed)
    }

    pub fn games_completed(&self) -> u64 {
        self.games_completed.load(Ordering::Relaxed)
    }

    /// The percentiles of the round trips since the last call, and clears them (for the progress display).
    pub fn take_window(&self) -> Percentiles {
        let mut l = lock(&self.latencies);
        let p = percentiles(&l.window);
        l.window.reset();
        p
    }

    /// The percentiles of the measured phase.
    pub fn measured(&self) -> Percentiles {
        percentiles(&lock(&self.latencies).measured)
    }

    /// The error samples, as the report shows them.
    pub fn error_samples(&self) -> Vec<String> {
        lock(&self.samples).iter().map(|(m, n)| if *n > 1 { format!("{m} ({n} times)") } else { m.clone() }).collect()
    }
}

fn add_sample(samples: &mut Vec<(String, u64)>, message: String) {
    if let Some((_, n)) = samples.iter_mut().find(|(m, _)| *m == message) {
        *n += 1;
    } else if samples.len() < MAX_ERROR_SAMPLES {
        samples.push((message, 1));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_of_a_known_distribution() {
        let mut h = new_histogram();
        assert_eq!(percentiles(&h), Percentiles::default());
        for ms in 1..=1000 {
            record(&mut h, Duration::from_millis(ms));
        }
        let p = percentiles(&h);
        let close = |d: Duration, ms: u64| {
            let want = ms as f64 / 1000.0;
            (d.as_secs_f64() - want).abs() <= want * 0.002
        };
        assert!(close(p.p50, 500), "{p:?}");
        assert!(close(p.p95, 950), "{p:?}");
        assert!(close(p.p99, 990), "{p:?}");
        assert!(close(p.max, 1000), "{p:?}");
        assert!(p.p50 <= p.p95 && p.p95 <= p.p99 && p.p99 <= p.max);
    }

    #[test]
    fn tiny_and_huge_latencies_are_recorded() {
        let mut h = new_histogram();
        record(&mut h, Duration::ZERO);
        record(&mut h, Duration::from_secs(1_000_000));
        assert_eq!(h.len(), 2);
        assert_eq!(h.min(), 1);
        assert!(h.max() >= MAX_LATENCY_MICROS);
    }

    #[test]
    fn only_the_measured_phase_counts() {
        let s = Stats::new();
        s.record_move(Duration::from_millis(5));
        s.game_completed();
        assert_eq!((s.moves(), s.games_completed()), (0, 0));
        assert!(s.take_window().p50 >= Duration::from_millis(5));
        assert_eq!(s.take_window(), Percentiles::default(), "the window is cleared when read");
        s.set_measuring(true);
        s.record_move(Duration::from_millis(2));
        s.record_move(Duration::from_millis(4));
        s.game_completed();
        s.set_measuring(false);
        s.record_move(Duration::from_millis(100));
        assert_eq!((s.moves(), s.games_completed()), (2, 1));
        let p = s.measured();
        assert!(p.max < Duration::from_millis(5), "{p:?}");
    }

    #[test]
    fn error_samples_are_distinct_and_few() {
        let s = Stats::new();
        s.error("disconnected");
        s.error("disconnected");
        for i in 0..20 {
            s.error(format!("error {i}"));
        }
        assert_eq!(s.errors(), 22);
        let samples = s.error_samples();
        assert_eq!(samples.len(), MAX_ERROR_SAMPLES);
        assert_eq!(samples[0], "disconnected (2 times)");
        assert_eq!(samples[1], "error 0");
        s.set_stopping();
        s.error("closed during shutdown");
        assert_eq!(s.errors(), 22);
    }

    #[test]
    fn latencies_are_formatted_by_size() {
        assert_eq!(fmt_latency(Duration::from_micros(420)), "0.42 ms");
        assert_eq!(fmt_latency(Duration::from_micros(12_345)), "12.3 ms");
        assert_eq!(fmt_latency(Duration::from_micros(250_400)), "250 ms");
        assert_eq!(fmt_latency(Duration::from_secs(12)), "12.0 s");
        assert_eq!(fmt_secs(Duration::from_millis(60_040)), "60.0 s");
    }

    fn sample_report() -> Report {
        Report {
            games: 2000,
            games_live: 1998,
            ramp_up: Duration::from_millis(10_300),
            games_completed: 12,
            moves: 119_834,
            elapsed: Duration::from_secs(60),
            moves_per_sec: 1997.23,
            p50: Duration::from_micros(1_234),
            p95: Duration::from_micros(3_400),
            p99: Duration::from_micros(8_900),
            max: Duration::from_micros(45_100),
            errors: 3,
            error_samples: vec!["disconnected: connection reset (2 times)".into(), "move refused: illegal_move".into()],
            open_files_limit: Some(1_048_576),
            server: Some(ServerFigures { rss_idle: 20_000_000, rss_loaded: 120_000_000, cpu_ms: 12_000 }),
            cluster: None,
        }
    }

    #[test]
    fn report_display() {
        let text = sample_report().to_string();
        assert_eq!(
            text,
            "guoxiang load test\n\
             \x20 games:      1998 live of 2000 asked for (open-file limit 1048576)\n\
             \x20 ramp-up:    10.3 s\n\
             \x20 measured:   60.0 s: 119834 moves, 1997.2 moves/s, 12 games completed\n\
             \x20 latency:    p50 1.23 ms  p95 3.40 ms  p99 8.90 ms  max 45.1 ms\n\
             \x20 server:     RSS 20.0 MB idle, 120.0 MB with the games (50.1 KB per live game); CPU 100 µs per move\n\
             \x20 errors:     3\n\
             \x20   - disconnected: connection reset (2 times)\n\
             \x20   - move refused: illegal_move"
        );
    }

    #[test]
    fn report_display_without_moves_or_errors() {
        let r = Report {
            moves: 0,
            moves_per_sec: 0.0,
            errors: 0,
            error_samples: vec![],
            open_files_limit: None,
            server: None,
            ..sample_report()
        };
        let text = r.to_string();
        assert!(text.contains("  latency:    no move was acknowledged\n"), "{text}");
        assert!(text.ends_with("  errors:     0"), "{text}");
        assert!(text.contains("1998 live of 2000 asked for\n"), "{text}");
        assert!(!text.contains("cluster:"), "{text}");
        let r = Report {
            moves: 200,
            cluster: Some(ClusterFigures { nodes: 3, moves: 180, remote_requests: 150 }),
            ..sample_report()
        };
        assert!(
            r.to_string().contains(
                "  cluster:    3 nodes; 150 requests for a game on another node (75 % of the moves); 180 moves \
                 committed on these nodes\n"
            ),
            "{r}"
        );
    }
}
