//! Behind a reverse proxy (issue 41): only from a trusted proxy (`guoxiang serve --trusted-proxy CIDR`) is the client
//! address read from `X-Forwarded-For` / `Forwarded`, and then every per-address limit counts that client, not the
//! proxy; without it the headers are ignored. The right-most address that is not a trusted proxy is the client, so
//! a client cannot escape its limit by writing addresses of its own in front.

mod common;

use std::net::SocketAddr;
use std::time::Duration;

use common::{TestServer, temp_db};
use guoxiang_server::Config;
use serde_json::json;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpSocket, TcpStream};

fn trusting(cidr: &'static str) -> impl FnOnce(&mut Config) {
    move |c| {
        c.limits.logins_per_minute = 10;
        c.trusted_proxies = vec![cidr.parse().unwrap()];
    }
}

/// `POST /api/login` as sent by a proxy with `X-Forwarded-For: xff` (none when empty); the status.
async fn login(server: &TestServer, xff: &str, user: &str, password: &str) -> u16 {
    let mut req =
        reqwest::Client::new().post(server.url("/api/login")).json(&json!({"username": user, "password": password}));
    if !xff.is_empty() {
        req = req.header("X-Forwarded-For", xff);
    }
    req.send().await.unwrap().status().as_u16()
}

/// Wrong passwords for ten accounts (alice and nine unknown names) from the client `xff` behind the proxy: its
/// whole allowance of a minute (an address's limit counts the accounts that failed from it, issue 42).
async fn ten_wrong_logins(server: &TestServer, xff: &str) {
    for i in 0..10 {
        let user = if i == 0 { "alice".to_owned() } else { format!("alice{i}") };
        assert_eq!(login(server, xff, &user, "wrong password").await, 401, "wrong login {i}");
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_client_has_its_own_login_limit() {
    let server = TestServer::start_with(&temp_db("xff_trusted"), trusting("127.0.0.0/8")).await;
    server.register("alice").await;
    server.register("bob").await;
    ten_wrong_logins(&server, "203.0.113.5").await;
    // Another client behind the same proxy signs in…
    assert_eq!(login(&server, "203.0.113.9", "bob", "correct horse").await, 200);
    // …while the first has used its allowance, even with the right password.
    assert_eq!(login(&server, "203.0.113.5", "bob", "correct horse").await, 429);
    // RFC 7239's header names the client too (when there is no X-Forwarded-For).
    let r = reqwest::Client::new()
        .post(server.url("/api/login"))
        .header("Forwarded", "for=\"203.0.113.5:4711\";proto=https")
        .json(&json!({"username": "bob", "password": "correct horse"}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 429);
}

#[tokio::test]
async fn without_a_trusted_proxy_forwarded_addresses_are_ignored() {
    let server = TestServer::start_with(&temp_db("xff_untrusted"), |c| c.limits.logins_per_minute = 10).await;
    server.register("alice").await;
    server.register("bob").await;
    ten_wrong_logins(&server, "203.0.113.5").await;
    // The peer (127.0.0.1) is the client, whatever it writes: its allowance is gone.
    assert_eq!(login(&server, "203.0.113.9", "bob", "correct horse").await, 429);
    assert_eq!(login(&server, "", "bob", "correct horse").await, 429);
}

#[tokio::test]
async fn a_spoofed_left_most_address_does_not_escape_the_limit() {
    let server = TestServer::start_with(&temp_db("xff_spoof"), trusting("127.0.0.0/8")).await;
    server.register("alice").await;
    server.register("bob").await;
    ten_wrong_logins(&server, "203.0.113.5").await;
    // The client wrote "198.51.100.7" itself; the proxy appended the address it saw.
    assert_eq!(login(&server, "198.51.100.7, 203.0.113.5", "bob", "correct horse").await, 429);
    assert_eq!(login(&server, "198.51.100.7,203.0.113.5, 127.0.0.1", "bob", "correct horse").await, 429);
    // Garbage on the left changes nothing either.
    assert_eq!(login(&server, "not an address, 203.0.113.5", "bob", "correct horse").await, 429);
    // A second trusted hop in front: the client is still the right-most untrusted address.
    assert_eq!(login(&server, "203.0.113.9, 127.0.0.5", "bob", "correct horse").await, 200);
}

#[tokio::test]
async fn signups_are_counted_per_forwarded_client() {
    let server = TestServer::start_with(&temp_db("xff_signup"), |c| {
        c.limits.registrations_per_hour = 2;
        c.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    })
    .await;
    let signup = |name: &'static str, xff: &'static str| {
        let url = server.url("/api/register");
        async move {
            let r = reqwest::Client::new()
                .post(url)
                .header("X-Forwarded-For", xff)
                .json(&json!({"username": name, "password": "correct horse"}))
                .send()
                .await
                .unwrap();
            r.status().as_u16()
        }
    };
    assert_eq!(signup("carol", "203.0.113.5").await, 200);
    assert_eq!(signup("dave", "203.0.113.5").await, 200);
    assert_eq!(signup("erin", "203.0.113.5").await, 429);
    assert_eq!(signup("frank", "203.0.113.9").await, 200);
}

/// A TCP connection to `to` from the loopback address `from`.
async fn connect_from(from: [u8; 4], to: SocketAddr) -> TcpStream {
    let s = TcpSocket::new_v4().unwrap();
    s.bind(SocketAddr::from((from, 0))).unwrap();
    s.connect(to).await.unwrap()
}

async fn healthz(from: [u8; 4], to: SocketAddr) -> String {
    let mut s = connect_from(from, to).await;
    s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let mut buf = Vec::new();
    // A connection over the cap is closed at once (or reset): nothing comes back.
    let _ =
        tokio::time::timeout(Duration::from_secs(20), s.read_to_end(&mut buf)).await.expect("still open after 20 s");
    String::from_utf8_lossy(&buf).into_owned()
}

/// The connection cap is counted when a connection is accepted, before any header: a trusted proxy's connections
/// carry many clients, so they count in the total only, not against one address's share.
#[tokio::test]
async fn a_trusted_proxy_is_not_held_to_one_address_s_connections() {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let mut config = Config::new(addr, temp_db("xff_conns"));
    config.engine_workers = 1;
    config.connections.per_ip = 2;
    config.trusted_proxies = vec!["127.0.0.1/32".parse().unwrap()];
    let state = guoxiang_server::start(config).await.unwrap();
    tokio::spawn(guoxiang_server::run(state, listener, None, std::future::pending()));
    // The proxy (127.0.0.1) holds three idle connections and is still served.
    let _held: Vec<TcpStream> =
        futures_util::future::join_all((0..3).map(|_| connect_from([127, 0, 0, 1], addr))).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(healthz([127, 0, 0, 1], addr).await.starts_with("HTTP/1.1 200"));
    // Any other address keeps its cap.
    let _other: Vec<TcpStream> =
        futures_util::future::join_all((0..2).map(|_| connect_from([127, 0, 0, 2], addr))).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(healthz([127, 0, 0, 2], addr).await, "");
}
