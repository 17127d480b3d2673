//! Who may read the server's figures (issue 41): `/metrics` and `/api/server/stats` are closed on the main address
//! unless the host opens them — with a token (`--metrics-token`), on a listener of their own (`--metrics-addr`), or
//! to everyone (`--metrics-public`). `/healthz` and `/readyz` stay open.

mod common;

use common::{TestServer, temp_db};
use guoxiang_server::Config;
use tokio::net::TcpListener;

const FIGURES: [&str; 2] = ["/metrics", "/api/server/stats"];

/// `GET url` with `Authorization: Bearer token` (none when empty): the status.
async fn get(url: &str, token: &str) -> u16 {
    let mut req = reqwest::Client::new().get(url);
    if !token.is_empty() {
        req = req.bearer_auth(token);
    }
    req.send().await.unwrap().status().as_u16()
}

#[tokio::test]
async fn without_options_the_figures_are_closed_and_health_checks_open() {
    let server = TestServer::start(&temp_db("metrics_closed")).await;
    for path in FIGURES {
        let status = get(&server.url(path), "").await;
        assert!(status == 403, "{path}: {status}");
        assert_eq!(get(&server.url(path), "anything").await, 403, "{path}");
    }
    assert_eq!(get(&server.url("/healthz"), "").await, 200);
    assert_eq!(get(&server.url("/readyz"), "").await, 200);
}

#[tokio::test]
async fn with_a_token_the_figures_need_it() {
    let server =
        TestServer::start_with(&temp_db("metrics_token"), |c| c.metrics.token = Some("s3cret-figures".into())).await;
    for path in FIGURES {
        let url = server.url(path);
        assert_eq!(get(&url, "").await, 401, "{path} without a token");
        assert_eq!(get(&url, "s3cret-figure").await, 401, "{path} with a wrong token");
        assert_eq!(get(&url, "s3cret-figures-").await, 401, "{path} with a longer token");
        assert_eq!(get(&url, "s3cret-figures").await, 200, "{path} with the token");
    }
    // The token is for the figures only: it signs nobody in.
    assert_eq!(get(&server.url("/api/account"), "s3cret-figures").await, 401);
}

#[tokio::test]
async fn public_figures_are_open_to_everyone() {
    let server = TestServer::start_with(&temp_db("metrics_public"), |c| c.metrics.public = true).await;
    for path in FIGURES {
        assert_eq!(get(&server.url(path), "").await, 200, "{path}");
    }
}

#[tokio::test]
async fn a_metrics_address_serves_the_figures_and_health_checks_only() {
    let main = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let side = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let (addr, side_addr) = (main.local_addr().unwrap(), side.local_addr().unwrap());
    let mut config = Config::new(addr, temp_db("metrics_addr"));
    config.engine_workers = 1;
    config.metrics.addr = Some(side_addr);
    let state = guoxiang_server::start(config).await.unwrap();
    tokio::spawn(guoxiang_server::run(state, main, Some(side), std::future::pending()));
    for path in FIGURES {
        assert_eq!(get(&format!("http://{side_addr}{path}"), "").await, 200, "{path} on the metrics address");
        assert_eq!(get(&format!("http://{addr}{path}"), "").await, 403, "{path} on the main address");
    }
    for path in ["/healthz", "/readyz"] {
        assert_eq!(get(&format!("http://{side_addr}{path}"), "").await, 200, "{path}");
        assert_eq!(get(&format!("http://{addr}{path}"), "").await, 200, "{path}");
    }
    // Nothing else is served there.
    assert_eq!(get(&format!("http://{side_addr}/api/account"), "").await, 404);
    assert_eq!(get(&format!("http://{side_addr}/"), "").await, 404);
    assert_eq!(get(&format!("http://{addr}/api/account"), "").await, 401);
}
