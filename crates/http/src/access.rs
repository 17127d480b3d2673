// SPDX-License-Identifier: GPL-3.0-or-later
//! The access log: one line per HTTP request (method, path with query, status, time to the response head) at
//! `debug` level under the target `guoxiang::access`, so `RUST_LOG=info,guoxiang::access=debug guoxiang serve` shows
//! every call a client makes, in order. Off by default; when off it costs one level check per request.

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

/// The log's target, for `RUST_LOG`.
pub const TARGET: &str = "guoxiang::access";

pub async fn layer(req: Request, next: Next) -> Response {
    if !tracing::enabled!(target: TARGET, tracing::Level::DEBUG) {
        return next.run(req).await;
    }
    let method = req.method().clone();
    let uri = req.uri().path_and_query().map_or_else(|| req.uri().path().to_owned(), ToString::to_string);
    let start = Instant::now();
    let res = next.run(req).await;
    tracing::debug!(
        target: TARGET,
        "{method} {uri} {} {:.1} ms",
        res.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    res
}
