//! The accept loop's limits against slow and greedy clients, on a real server over loopback: a client that sends
//! its headers or its body too slowly is cut off, one address cannot hold more than its share of connections (its
//! WebSockets included), and other clients are still served meanwhile.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{TestServer, temp_db};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// A TCP connection to `to` from the loopback address `from` (any of 127.0.0.0/8 is this machine).
async fn connect_from(from: [u8; 4], to: SocketAddr) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.bind(SocketAddr::from((from, 0))).unwrap();
    s.connect(to).await.unwrap()
}

/// Reads until the server closes the connection; returns what it sent. Fails if it stays open for 20 s.
async fn read_to_close(s: &mut TcpStream) -> String {
    let mut buf = Vec::new();
    match tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut buf)).await {
        Ok(_) => String::from_utf8_lossy(&buf).into_owned(),
        Err(_) => panic!("the server kept the connection open; it sent {:?}", String::from_utf8_lossy(&buf)),
    }
}

async fn healthz(from: [u8; 4], to: SocketAddr) -> String {
    let mut s = connect_from(from, to).await;
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    read_to_close(&mut s).await
}

#[tokio::test]
async fn slow_headers_and_idle_connections_are_cut_off() {
    let server = TestServer::start_with(&temp_db("slow_headers"), |c| {
        c.connections.header_read = Duration::from_millis(300);
    })
    .await;
    // Half a request line, then nothing.
    let mut slow = connect_from([127, 0, 0, 1], server.addr).await;
    slow.write_all(b"GET /healthz HT").await.unwrap();
    let got = read_to_close(&mut slow).await;
    assert!(!got.contains("200 OK"), "{got}");
    // A kept-alive connection that goes quiet after its request is closed too.
    let mut idle = connect_from([127, 0, 0, 1], server.addr).await;
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n").await.unwrap();
    let got = read_to_close(&mut idle).await;
    assert!(got.starts_with("HTTP/1.1 200"), "{got}");
    // And a normal client is served.
    assert!(healthz([127, 0, 0, 1], server.addr).await.starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn a_slow_body_is_cut_off() {
    let server = TestServer::start_with(&temp_db("slow_body"), |c| {
        c.connections.body_read = Duration::from_millis(300);
    })
    .await;
    let mut s = connect_from([127, 0, 0, 1], server.addr).await;
    s.write_all(
        b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"user",
    )
    .await
    .unwrap();
    // The handler's body read times out: an error answer, and the connection closes.
    let got = read_to_close(&mut s).await;
    assert!(got.starts_with("HTTP/1.1 4"), "{got}");
    assert!(got.contains("timeout"), "{got}");
}

#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let server = TestServer::start_with(&temp_db("per_ip"), |c| c.connections.per_ip = 4).await;
    let (_, session) = server.guest().await;
    // Two WebSockets and two idle connections from 127.0.0.1: its four.
    let _ws1 = server.ws(&session).await;
    let _ws2 = server.ws(&session).await;
    let _idle1 = connect_from([127, 0, 0, 1], server.addr).await;
    let _idle2 = connect_from([127, 0, 0, 1], server.addr).await;
    tokio::time::sleep(Duration::from_millis(100)).await; // let the server accept them
    // The fifth is closed at once, without an answer…
    let mut fifth = connect_from([127, 0, 0, 1], server.addr).await;
    let _ = fifth.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await;
    let got = read_to_close(&mut fifth).await;
    assert!(got.is_empty(), "{got}");
    // …while another address is served.
    assert!(healthz([127, 0, 0, 2], server.addr).await.starts_with("HTTP/1.1 200"));
    // A connection closed frees its place.
    drop(_idle1);
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(healthz([127, 0, 0, 1], server.addr).await.starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn the_server_tells_the_host_what_it_costs() {
    // The figures are the host's: here with the metrics token (tests/metrics_access.rs).
    let server =
        TestServer::start_with(&temp_db("stats"), |c| c.metrics.token = Some("a-metrics-token-16".into())).await;
    let v: serde_json::Value = reqwest::Client::new()
        .get(server.url("/api/server/stats"))
        .bearer_auth("a-metrics-token-16")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert!(v["rss_bytes"].as_u64().is_some_and(|b| b > 1_000_000), "{v}");
    assert!(v["cpu_ms"].as_u64().is_some(), "{v}");
    assert_eq!(v["games_in_progress"], 0, "{v}");
}
