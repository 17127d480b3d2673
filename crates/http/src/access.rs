// SPDX-License-Identifier: GPL-3.0-or-later
//! The access log: one line per HTTP request (the client's address, method, path with query, status, time to the
//! response head) at `debug` level under the target `guoxiang::access`, so `RUST_LOG=info,guoxiang::access=debug
//! guoxiang serve` shows every call a client makes, in order. The address is the client's as [`crate::client`]
//! names it: behind a trusted proxy, the one the proxy forwarded. Off by default; when off it costs one level check
//! per request.

use std::sync::Arc;
use std::time::Instant;

use axum::extract::{Request, State};
use axum::middleware::Next;
use axum::response::Response;

/// The log's target, for `RUST_LOG`.
pub const TARGET: &str = "guoxiang::access";

pub async fn layer(State(config): State<Arc<crate::Config>>, req: Request, next: Next) -> Response {
    if !tracing::enabled!(target: TARGET, tracing::Level::DEBUG) {
        return next.run(req).await;
    }
    let client = crate::client::of_request(req.headers(), req.extensions(), &config.trusted_proxies)
        .map_or_else(|| "-".to_owned(), |ip| ip.to_string());
    let method = req.method().clone();
    let uri = req.uri().path_and_query().map_or_else(|| req.uri().path().to_owned(), ToString::to_string);
    let start = Instant::now();
    let res = next.run(req).await;
    tracing::debug!(
        target: TARGET,
        "{client} {method} {uri} {} {:.1} ms",
        res.status().as_u16(),
        start.elapsed().as_secs_f64() * 1000.0
    );
    res
}

#[cfg(test)]
mod tests {
    use std::io::Write;
    use std::net::SocketAddr;
    use std::sync::{Arc, Mutex};

    use axum::Router;
    use axum::body::Body;
    use axum::extract::ConnectInfo;
    use axum::http::Request;
    use axum::routing::get;
    use tower::ServiceExt;

    /// The lines the access log writes for one request from `peer` with `X-Forwarded-For: xff`, the server trusting
    /// `trusted`.
    fn log_of(peer: &str, xff: &str, trusted: &[&str]) -> String {
        #[derive(Clone, Default)]
        struct Lines(Arc<Mutex<Vec<u8>>>);
        impl Write for Lines {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(b);
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::DEBUG)
            .with_ansi(false)
            .with_writer(move || writer.clone())
            .finish();
        let mut config = crate::Config::new("127.0.0.1:8080".parse().unwrap(), "sqlite::memory:");
        config.trusted_proxies = trusted.iter().map(|t| crate::client::parse_trusted_proxy(t).unwrap()).collect();
        let app = Router::new()
            .route("/x", get(|| async { "ok" }))
            .layer(axum::middleware::from_fn_with_state(Arc::new(config), super::layer));
        let mut req = Request::get("/x?y=1").header("x-forwarded-for", xff).body(Body::empty()).unwrap();
        req.extensions_mut().insert(ConnectInfo(SocketAddr::new(peer.parse().unwrap(), 50_000)));
        tracing::subscriber::with_default(subscriber, || {
            let rt = tokio::runtime::Builder::new_current_thread().build().unwrap();
            let res = rt.block_on(app.oneshot(req)).unwrap();
            assert_eq!(res.status(), 200);
        });
        String::from_utf8(lines.0.lock().unwrap().clone()).unwrap()
    }

    #[test]
    fn the_access_log_names_the_client_behind_a_trusted_proxy_only() {
        let line = log_of("127.0.0.1", "198.51.100.7, 203.0.113.5", &["127.0.0.0/8"]);
        assert!(line.contains("203.0.113.5 GET /x?y=1 200"), "{line}");
        assert!(!line.contains("198.51.100.7"), "{line}");
        let line = log_of("192.0.2.10", "203.0.113.5", &["127.0.0.0/8"]);
        assert!(line.contains("192.0.2.10 GET /x?y=1 200"), "{line}");
        let line = log_of("127.0.0.1", "203.0.113.5", &[]);
        assert!(line.contains("127.0.0.1 GET /x?y=1 200"), "{line}");
    }
}
