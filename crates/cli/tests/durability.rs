//! `kill -9` the server in the middle of a game, restart it: the game resumes at the same position with the same
//! clocks (the downtime charged to no one), and the players reconnect and resync.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// The server process, killed (SIGKILL) when dropped, also when a check fails.
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start(port: u16, db: &str) -> Server {
    let child = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(["serve", "--addr", &format!("127.0.0.1:{port}"), "--database", db])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(t.elapsed() < Duration::from_secs(30), "server did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    Server(child)
}

fn guest(port: u16) -> String {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "POST /api/guest HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    let body = &r[r.find("\r\n\r\n").unwrap() + 4..];
    let v: Value = serde_json::from_str(body).unwrap();
    v["session"].as_str().unwrap().to_owned()
}

struct Ws {
    s: tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
    id: u32,
    seen: Vec<Value>,
}

impl Ws {
    async fn connect(port: u16, session: &str) -> Ws {
        let mut req = format!("ws://127.0.0.1:{port}/ws").into_client_request().unwrap();
        req.headers_mut().insert("Cookie", format!("gx_session={session}").parse().unwrap());
        let (s, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let mut ws = Ws { s, id: 0, seen: Vec::new() };
        let hello = ws.req(json!({"t": "hello", "protocol": 1})).await;
        ws.seen.push(hello);
        ws
    }

    async fn next(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), self.s.next()).await.unwrap().unwrap().unwrap();
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    async fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
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

    async fn req(&mut self, mut m: Value) -> Value {
        self.id += 1;
        let id = self.id;
        m["id"] = json!(id);
        self.s.send(Message::Text(m.to_string().into())).await.unwrap();
        let r = self.wait(|v| v["id"] == json!(id) && v["t"] != "game_events" && v["t"] != "game_snapshot").await;
        assert_ne!(r["t"], "error", "{m} → {r}");
        r
    }
}

fn last_move(frames: &[Value], ply: u64) -> Option<Value> {
    frames
        .iter()
        .filter(|f| f["t"] == "game_events")
        .flat_map(|f| f["events"].as_array().unwrap().iter())
        .find(|e| e["type"] == "move_made" && e["ply"] == ply)
        .cloned()
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_and_restart_resumes_the_game() {
    let dir = std::env::temp_dir().join(format!("guoxiang-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("g.db").display());
    let port = free_port();
    let server = start(port, &db);
    let (a, b) = (guest(port), guest(port));
    let mut wa = Ws::connect(port, &a).await;
    let mut wb = Ws::connect(port, &b).await;
    let c = wa.req(json!({"t": "challenge_friend", "time_control": "600+5", "rated": false, "color": "white"})).await;
    wb.req(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wa.req(json!({"t": "subscribe", "game_id": gid})).await;
    wb.req(json!({"t": "subscribe", "game_id": gid})).await;
    for (i, mv) in ["e2e4", "c7c5", "g1f3", "d7d6"].into_iter().enumerate() {
        let ws = if i % 2 == 0 { &mut wa } else { &mut wb };
        ws.req(json!({"t": "move", "game_id": gid, "uci": mv})).await;
    }
    // The last acknowledged move is durable: kill at once, without any grace.
    let mv4 = loop {
        if let Some(m) = last_move(&wa.seen, 4) {
            break m;
        }
        let v = wa.next().await;
        wa.seen.push(v);
    };
    drop(server); // SIGKILL
    drop((wa, wb));
    std::thread::sleep(Duration::from_secs(3)); // downtime: charged to no one
    let server = start(port, &db);
    let mut wa = Ws::connect(port, &a).await;
    // A reconnecting tab learns from `hello` which games its user plays.
    let hello = wa.wait(|v| v["t"] == "hello").await;
    assert_eq!(hello["playing"], json!([gid]));
    // A client that missed events the restarted server no longer has gets a full snapshot.
    wa.req(json!({"t": "subscribe", "game_id": gid, "since_version": 2})).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await["snapshot"].clone();
    assert_eq!(snap["fen"], mv4["fen"], "same position");
    assert_eq!(snap["moves"].as_array().unwrap().len(), 4);
    let white_before = mv4["clocks"]["white_ms"].as_u64().unwrap();
    let white_now = snap["clocks"]["white_ms"].as_u64().unwrap();
    // White's clock ran only between the last move and the kill (well under the 3 s of downtime).
    assert!(white_now <= white_before && white_before - white_now < 2_000, "{white_before} → {white_now}");
    assert_eq!(snap["clocks"]["black_ms"], mv4["clocks"]["black_ms"]);
    wa.req(json!({"t": "move", "game_id": gid, "uci": "d2d4"})).await;
    let mut wb = Ws::connect(port, &b).await;
    wb.req(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wb.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["moves"].as_array().unwrap().len(), 5);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
