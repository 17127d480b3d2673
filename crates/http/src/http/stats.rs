//! `GET /api/server/stats`: what the server process costs now — resident memory, CPU time, live games — for the
//! load generator and for operators. Answered as `/metrics` is ([`super::metrics::FiguresAllowed`]: the metrics
//! token, the metrics listener, or `--metrics-public`), and to administrators; others are refused.

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::HeaderMap;
use axum::routing::get;
use guoxiang_protocol::http::ServerStats;

use super::metrics::FiguresAllowed;
use crate::AppState;
use crate::api_error::{ApiError, ApiResult};

/// Routes: the server's statistics.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/server/stats", get(server_stats))
}

/// The kernel's clock ticks per second in `/proc/self/stat` (USER_HZ, 100 on every Linux).
const TICKS_PER_SEC: u64 = 100;

/// Resident memory in bytes (`/proc/self/statm`, pages of 4 KiB).
fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    statm.split_whitespace().nth(1)?.parse::<u64>().ok().map(|pages| pages * 4096)
}

/// User and system CPU time in ms (`/proc/self/stat`, fields 14 and 15, after the command name in parentheses).
fn cpu_ms() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let (utime, stime): (u64, u64) = (fields.get(11)?.parse().ok()?, fields.get(12)?.parse().ok()?);
    Some((utime + stime) * 1000 / TICKS_PER_SEC)
}

pub async fn server_stats(
    State(state): State<AppState>,
    allowed: Result<FiguresAllowed, ApiError>,
    headers: HeaderMap,
) -> ApiResult<Json<ServerStats>> {
    if let Err(refused) = allowed {
        // A signed-in administrator may read them anywhere.
        let auth = crate::auth::authenticate(&state, &headers).await.ok().flatten();
        if !auth.is_some_and(|a| a.user.is_admin) {
            return Err(refused);
        }
    }
    let live = state.live.all();
    let playing = live.iter().filter(|g| !g.is_over()).count();
    Ok(Json(ServerStats {
        rss_bytes: rss_bytes(),
        cpu_ms: cpu_ms(),
        games_in_memory: live.len() as u64,
        games_in_progress: playing as u64,
    }))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_process_reads_its_own_figures() {
        assert!(super::rss_bytes().is_some_and(|b| b > 1_000_000));
        assert!(super::cpu_ms().is_some());
    }
}
