// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /metrics`: the server's counters (`guoxiang_domain::metrics`) in the Prometheus (OpenMetrics) text format;
//! and `GET /readyz`, whether this node can take traffic (the database answers and, in a cluster, its leases are
//! being renewed).

use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::AppState;

/// Routes: liveness, readiness and the Prometheus metrics.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

/// `GET /metrics`.
pub async fn metrics(State(state): State<AppState>) -> Response {
    let live = state.live.all().iter().filter(|g| !g.is_over()).count();
    let body = state.metrics.render(live);
    ([(header::CONTENT_TYPE, "application/openmetrics-text; version=1.0.0; charset=utf-8")], body).into_response()
}

/// `GET /readyz`: 200 when this node can serve — the database answers, and in a cluster the last lease renewal is
/// less than a lease old; 503 with the reason otherwise (a load balancer then sends no one here).
pub async fn readyz(State(state): State<AppState>) -> Response {
    let mut problems: Vec<String> = Vec::new();
    if let Err(e) = state.store.ping().await {
        problems.push(format!("database: {e}"));
    }
    if let Some(c) = &state.config.cluster {
        let now = guoxiang_domain::time::now_ms();
        match state.metrics.last_renewal_ms() {
            Some(t) if now.saturating_sub(t) <= c.lease_ms => {}
            Some(t) => problems.push(format!("cluster: the leases were last renewed {} ms ago", now.saturating_sub(t))),
            None => problems.push("cluster: the leases were never renewed".to_owned()),
        }
    }
    if let Some(b) = state.live.broker()
        && let Err(e) = b.ping().await
    {
        problems.push(format!("broker: {e}"));
    }
    if problems.is_empty() {
        (StatusCode::OK, "ready\n").into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, format!("not ready: {}\n", problems.join("; "))).into_response()
    }
}
