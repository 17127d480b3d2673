//! Waiting for a game's review: ask for it, then poll its state once a second until it is done, and measure the
//! time from the game's end.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;
use tokio::time::Instant;

use super::{ClassCtx, RequestKind};

/// Between two looks at the review's state.
pub const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// Asks for the review of `game_id` (ended at `ended`) and polls until it is done: `true` when it was, within
/// [`super::ClassOptions::review_timeout`] of the game's end.
pub(crate) async fn watch(ctx: Arc<ClassCtx>, session: String, game_id: String, ended: Instant) -> bool {
    let path = format!("/api/game/{game_id}/review");
    let deadline = ended + ctx.opts.review_timeout;
    let asked = ctx.api(Some(RequestKind::ReviewRequest), "POST", &path, Some(&session), None).await;
    let mut state = match asked.and_then(|r| r.json(&format!("POST {path}"))) {
        Ok(v) => v,
        Err(e) => {
            ctx.stats.error(format!("asking for a review: {e}"));
            return false;
        }
    };
    loop {
        match state["status"].as_str() {
            Some("done") => {
                ctx.stats.review_ready(ended.elapsed());
                return true;
            }
            Some("failed") => {
                ctx.stats.error(format!("a review failed: {}", state["error"]["en"]));
                return false;
            }
            _ => {}
        }
        if Instant::now() + POLL_INTERVAL > deadline {
            let secs = ctx.opts.review_timeout.as_secs();
            ctx.stats.error(format!("a review was not ready {secs} s after its game ended"));
            return false;
        }
        tokio::time::sleep(POLL_INTERVAL).await;
        state = match poll(&ctx, &session, &path).await {
            Ok(v) => v,
            Err(e) => {
                ctx.stats.error(format!("polling a review: {e}"));
                Value::Null
            }
        };
    }
}

async fn poll(ctx: &ClassCtx, session: &str, path: &str) -> Result<Value, String> {
    let r = ctx.api(Some(RequestKind::ReviewPoll), "GET", path, Some(session), None).await?;
    r.json(&format!("GET {path}"))
}
