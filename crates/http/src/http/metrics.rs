// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /metrics`: the server's counters (`guoxiang_domain::metrics`) in the Prometheus (OpenMetrics) text format;
//! and `GET /readyz`, whether this node can take traffic (the database answers and, in a cluster, its leases are
//! being renewed).
//!
//! The server's figures — `/metrics` and `/api/server/stats` — are the host's, not the world's ([`MetricsAccess`]):
//! on the main address they answer only a request with the metrics token (`--metrics-token`), or everyone when the
//! host asks for it (`--metrics-public`); otherwise 403. A listener of their own (`--metrics-addr`,
//! [`super::metrics_listener_app`]) serves them and the health checks without a token, and nothing else.
//! `/healthz` and `/readyz` are always open.

use axum::Router;
use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::AppState;
use crate::api_error::ApiError;

/// Who may read the server's figures (`/metrics`, `/api/server/stats`).
#[derive(Clone, Default)]
pub struct MetricsAccess {
    /// `--metrics-token`: on the main address, a request with `Authorization: Bearer TOKEN` may.
    pub token: Option<String>,
    /// `--metrics-addr`: a listener of their own, serving only them and the health checks, without a token.
    pub addr: Option<std::net::SocketAddr>,
    /// `--metrics-public`: everyone may, on the main address.
    pub public: bool,
}

impl std::fmt::Debug for MetricsAccess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricsAccess")
            .field("token", &self.token.as_ref().map(|_| "(set)"))
            .field("addr", &self.addr)
            .field("public", &self.public)
            .finish()
    }
}

/// Marks the requests of the metrics listener (`super::metrics_listener_app`), where the figures need no token.
#[derive(Clone, Copy, Debug)]
pub(crate) struct FiguresListener;

/// Extractor: the request may read the server's figures. It came to the metrics listener, the host made them
/// public, or it carries the metrics token; otherwise it is refused — 401 when the token would do, 403 when nothing
/// would on this address.
#[derive(Clone, Copy, Debug)]
pub struct FiguresAllowed;

impl FromRequestParts<AppState> for FiguresAllowed {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<FiguresAllowed, ApiError> {
        figures_allowed(&state.config.metrics, parts).map(|()| FiguresAllowed)
    }
}

fn figures_allowed(access: &MetricsAccess, parts: &Parts) -> Result<(), ApiError> {
    if access.public || parts.extensions.get::<FiguresListener>().is_some() {
        return Ok(());
    }
    let Some(token) = &access.token else {
        return Err(ApiError::forbidden(
            "metrics_closed",
            "服务器的统计数据不对外开放",
            "the server's figures are not open on this address (the host can open them with --metrics-token, \
             --metrics-addr or --metrics-public)",
        ));
    };
    let given = parts
        .headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim());
    if given.is_some_and(|g| same_secret(g, token)) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::UNAUTHORIZED,
        "metrics_token",
        "需要正确的统计数据令牌",
        "the server's figures need the metrics token (Authorization: Bearer TOKEN)",
    ))
}

/// Whether two secrets are equal, in a time that depends neither on where they differ nor on their lengths (their
/// digests are compared, in constant time).
fn same_secret(a: &str, b: &str) -> bool {
    Sha256::digest(a.as_bytes()).ct_eq(&Sha256::digest(b.as_bytes())).into()
}

/// Routes: liveness, readiness and the Prometheus metrics.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(readyz))
        .route("/metrics", get(metrics))
}

/// `GET /metrics`.
pub async fn metrics(State(state): State<AppState>, _: FiguresAllowed) -> Response {
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
