//! Helpers of the tests that run `guoxiang serve` as a process: the server on a port of its own (killed when dropped),
//! a guest session, and a WebSocket client of the typed protocol.

#![allow(dead_code)] // each test file uses its own subset

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// The server process, killed (SIGKILL) when dropped, also when a check fails.
pub struct Server(pub Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `guoxiang serve` on a port the system picks (`--addr 127.0.0.1:0`) and returns that port once the server
/// listens (read from the line it prints): no other test's server can be on it.
pub fn start(db: &str) -> (u16, Server) {
    start_with(db, &[])
}

/// [`start`] with more arguments of `guoxiang serve`.
pub fn start_with(db: &str, more: &[&str]) -> (u16, Server) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", db])
        .args(more)
        .env("RUST_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    // "guoxiang is listening on http://127.0.0.1:PORT/ (database: …)"
    let port = line
        .split("http://127.0.0.1:")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|p| p.parse().ok())
        .unwrap_or_else(|| panic!("the server did not start: {line:?}"));
    // Whatever else it prints is read and dropped, so that it never writes to a closed pipe.
    std::thread::spawn(move || std::io::copy(&mut out, &mut std::io::sink()));
    (port, Server(child))
}

/// Sends `sig` (`-STOP`, `-CONT`…) to the server process.
pub fn signal(server: &Server, sig: &str) {
    let ok = Command::new("kill").args([sig, &server.0.id().to_string()]).status().unwrap().success();
    assert!(ok, "kill {sig}");
}

pub fn guest(port: u16) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    let body = &r[r.find("\r\n\r\n").unwrap() + 4..];
    let v: Value = serde_json::from_str(body).unwrap();
    v["session"].as_str().unwrap().to_owned()
}

pub struct Ws {
    pub s: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    pub id: u32,
    pub seen: Vec<Value>,
}

impl Ws {
    pub async fn connect(port: u16, session: &str) -> Ws {
        let mut req = format!("ws://127.0.0.1:{port}/ws").into_client_request().unwrap();
        req.headers_mut().insert("Cookie", format!("gx_session={session}").parse().unwrap());
        let (s, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let mut ws = Ws { s, id: 0, seen: Vec::new() };
        let hello = ws.req(json!({"t": "hello", "protocol": guoxiang_protocol::PROTOCOL_VERSION})).await;
        ws.seen.push(hello);
        ws
    }

    pub async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), self.s.next()).await.unwrap().unwrap().unwrap();
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    pub async fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.seen.iter().position(&pred) {
            return self.seen.remove(i);
        }
        loop {
            let v = self.next().await;
            if pred(&v) {
                return v;
            }
            self.seen.push(v);
        }
    }

    /// Sends a request and returns its answer, which must not be an error.
    pub async fn req(&mut self, m: Value) -> Value {
        let r = self.request(m.clone()).await;
        assert_ne!(r["t"], "error", "{m} → {r}");
        r
    }

    /// Sends a request and returns its answer (an error too).
    pub async fn request(&mut self, mut m: Value) -> Value {
        self.id += 1;
        let id = self.id;
        m["id"] = json!(id);
        self.s.send(Message::Text(m.to_string().into())).await.unwrap();
        self.wait(|v| v["id"] == json!(id) && v["t"] != "game_events" && v["t"] != "game_snapshot").await
    }
}

/// A friend's game (10+5) between two new guests on the server at `port`: its id, the guests' sessions (White's
/// first) and their connections, both following the game.
pub async fn friend_game(port: u16) -> (String, [String; 2], Ws, Ws) {
    let (a, b) = (guest(port), guest(port));
    let mut wa = Ws::connect(port, &a).await;
    let mut wb = Ws::connect(port, &b).await;
    let c = wa.req(json!({"t": "challenge_friend", "time_control": "600+5", "rated": false, "color": "white"})).await;
    wb.req(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wa.req(json!({"t": "subscribe", "game_id": gid})).await;
    wb.req(json!({"t": "subscribe", "game_id": gid})).await;
    (gid, [a, b], wa, wb)
}
