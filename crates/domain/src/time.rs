//! The server's time: Unix milliseconds that never go backwards within one process.
//!
//! Game clocks take [`Timestamp`]s on one monotonic scale. The server uses Unix time at start-up plus a monotonic
//! `Instant` since then, so timestamps are monotonic while the process runs and comparable across restarts (a
//! restored game shifts its timestamps by the downtime, see `Game::restore`).

use std::sync::OnceLock;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use guoxiang_game::Timestamp;

fn base() -> &'static (Instant, u64) {
    static BASE: OnceLock<(Instant, u64)> = OnceLock::new();
    BASE.get_or_init(|| {
        let unix = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0);
        (Instant::now(), unix)
    })
}

/// Now, in Unix milliseconds on the monotonic scale.
pub fn now_ms() -> u64 {
    let (instant, unix) = base();
    unix + instant.elapsed().as_millis() as u64
}

/// Now, as a game timestamp.
pub fn now() -> Timestamp {
    Timestamp(now_ms())
}

/// The `Instant` corresponding to a timestamp (for timers), never in the past of the process's start.
pub fn instant_of(t: Timestamp) -> tokio::time::Instant {
    let (instant, unix) = base();
    let at = *instant + std::time::Duration::from_millis(t.0.saturating_sub(*unix));
    tokio::time::Instant::from_std(at)
}
