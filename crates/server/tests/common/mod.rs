//! A real server on a loopback port with a fresh SQLite file, and WebSocket/HTTP clients for it.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use guoxiang_server::{AppState, Config};
use serde_json::{Value, json};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

pub struct TestServer {
    pub addr: SocketAddr,
    pub db: String,
    pub state: AppState,
    task: tokio::task::JoinHandle<()>,
}

/// A fresh database for one test: a SQLite file, or — when `GUOXIANG_SERVER_TEST_DB=postgres` and
/// `GUOXIANG_TEST_POSTGRES` names a server (`.ci/postgres.sh`) — a new schema on that PostgreSQL.
pub fn temp_db(name: &str) -> String {
    if std::env::var("GUOXIANG_SERVER_TEST_DB").as_deref() == Ok("postgres") {
        let base = std::env::var("GUOXIANG_TEST_POSTGRES").expect("GUOXIANG_TEST_POSTGRES must be set");
        // A schema name is an SQL identifier: letters, digits and `_` only.
        let name: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
        let schema = format!("srv_{}_{}_{}", name, std::process::id(), rand_suffix());
        std::thread::scope(|s| {
            s.spawn(|| {
                let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().unwrap();
                rt.block_on(async {
                    use sqlx::Connection;
                    let mut conn = sqlx::postgres::PgConnection::connect(&base).await.unwrap();
                    sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&mut conn).await.unwrap();
                    conn.close().await.unwrap();
                });
            });
        });
        let sep = if base.contains('?') { '&' } else { '?' };
        return format!("{base}{sep}options=-c%20search_path%3D{schema}");
    }
    let dir = std::env::temp_dir().join(format!("guoxiang-test-{}-{name}-{}", std::process::id(), rand_suffix()));
    std::fs::create_dir_all(&dir).unwrap();
    format!("sqlite://{}", dir.join("test.db").display())
}

fn rand_suffix() -> u64 {
    use std::time::{SystemTime, UNIX_EPOCH};
    SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos() as u64 % 1_000_000_007
}

impl TestServer {
    pub async fn start(db: &str) -> TestServer {
        Self::start_with(db, |_| {}).await
    }

    pub async fn start_with(db: &str, f: impl FnOnce(&mut Config)) -> TestServer {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let mut config = Config::new(addr, db);
        config.limits.registrations_per_hour = 10_000;
        config.limits.logins_per_minute = 10_000;
        config.engine_workers = 1;
        config.engine_hash_mb = 1;
        // Games against the computer are reviewed when they end: cheaply here.
        config.review_nodes = 5_000;
        f(&mut config);
        let limits = config.connections;
        let state = guoxiang_server::start(config).await.unwrap();
        let app = guoxiang_server::app(state.clone());
        // The server's own accept loop, with its timeouts and connection caps.
        let task = tokio::spawn(async move {
            guoxiang_server::listen::serve(listener, app, limits, std::future::pending(), Duration::ZERO).await;
        });
        TestServer { addr, db: db.to_owned(), state, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// An HTTP request with a session secret as a bearer (or none) and a JSON body (a JSON string is sent as a
    /// text body); the status and the answer: its JSON, a JSON string of its text when it is not JSON, `null` when
    /// it is empty.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        session: Option<&str>,
    ) -> (u16, Value) {
        let mut req = reqwest::Client::new().request(method, self.url(path));
        if let Some(s) = session {
            req = req.bearer_auth(s);
        }
        match body {
            Some(Value::String(text)) => req = req.header("content-type", "text/plain").body(text),
            Some(b) => req = req.json(&b),
            None => {}
        }
        let r = req.send().await.unwrap();
        let status = r.status().as_u16();
        let text = r.text().await.unwrap();
        if text.is_empty() {
            return (status, Value::Null);
        }
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    /// Stops serving (as a crash would: no clean shutdown of the games).
    pub async fn crash(self) {
        // The process would be gone: the tournament service's listener (a task of its own) goes with it.
        self.state.tournaments.stop();
        self.task.abort();
        let _ = self.task.await;
    }

    pub async fn guest(&self) -> (String, String) {
        let r: Value = reqwest::Client::new().post(self.url("/api/guest")).send().await.unwrap().json().await.unwrap();
        (r["user"]["id"].as_str().unwrap().to_owned(), r["session"].as_str().unwrap().to_owned())
    }

    pub async fn register(&self, name: &str) -> (String, String) {
        let r = reqwest::Client::new()
            .post(self.url("/api/register"))
            .json(&json!({"username": name, "password": "correct horse"}))
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 200, "{:?}", r.text().await);
        let r: Value = r.json().await.unwrap();
        (r["user"]["id"].as_str().unwrap().to_owned(), r["session"].as_str().unwrap().to_owned())
    }

    pub async fn ws(&self, session: &str) -> Ws {
        Ws::connect(self.addr, Some(session)).await
    }
}

pub struct Ws {
    stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    next_id: u32,
    /// Frames received but not yet looked at.
    pub inbox: Vec<Value>,
}

impl Ws {
    pub async fn connect(addr: SocketAddr, session: Option<&str>) -> Ws {
        Ws::connect_with(addr, session.map(|s| ("Cookie", format!("gx_session={s}")))).await
    }

    /// A connection that signs in with `Authorization: Bearer TOKEN` (a personal token or a session secret).
    pub async fn connect_bearer(addr: SocketAddr, token: &str) -> Ws {
        Ws::connect_with(addr, Some(("Authorization", format!("Bearer {token}")))).await
    }

    async fn connect_with(addr: SocketAddr, header: Option<(&'static str, String)>) -> Ws {
        let mut req = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some((k, v)) = header {
            req.headers_mut().insert(k, v.parse().unwrap());
        }
        let (stream, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        let mut ws = Ws { stream, next_id: 1, inbox: Vec::new() };
        let hello =
            ws.request(json!({"t": "hello", "protocol": guoxiang_protocol::PROTOCOL_VERSION, "lang": "en"})).await;
        assert_eq!(hello["t"], "hello", "{hello}");
        ws
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.stream.send(Message::Text(text.into())).await.unwrap();
    }

    /// Sends a message with a fresh id; returns the answer with that id (ack, error or typed reply).
    pub async fn request(&mut self, mut msg: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        msg["id"] = json!(id);
        self.send_raw(&msg.to_string()).await;
        self.wait(|v| v["id"] == json!(id) && v["t"] != "game_events" && v["t"] != "game_snapshot").await
    }

    /// Sends and expects an ack.
    pub async fn ok(&mut self, msg: Value) {
        let r = self.request(msg.clone()).await;
        assert_eq!(r["t"], "ack", "{msg} → {r}");
    }

    /// Whether the server closes the connection (within 20 s); frames before the close are dropped.
    pub async fn closed(&mut self) -> bool {
        let t = tokio::time::Instant::now() + Duration::from_secs(20);
        loop {
            match tokio::time::timeout_at(t, self.stream.next()).await {
                Err(_) => return false,
                Ok(None | Some(Err(_)) | Some(Ok(Message::Close(_)))) => return true,
                Ok(Some(Ok(_))) => {}
            }
        }
    }

    pub async fn next_frame(&mut self) -> Value {
        loop {
            let m = tokio::time::timeout(Duration::from_secs(20), self.stream.next())
                .await
                .expect("no frame within 20 s")
                .expect("connection closed")
                .expect("websocket error");
            if let Message::Text(t) = m {
                return serde_json::from_str(&t).unwrap();
            }
        }
    }

    /// The first frame (already received or coming) matching `pred`; frames before it stay in the inbox.
    pub async fn wait(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.inbox.iter().position(&pred) {
            return self.inbox.remove(i);
        }
        loop {
            let v = self.next_frame().await;
            if pred(&v) {
                return v;
            }
            self.inbox.push(v);
        }
    }

    /// The next game event of `game_id` with the given type.
    pub async fn event(&mut self, game_id: &str, ty: &str) -> Value {
        loop {
            if let Some(e) = self.take_event(game_id, ty) {
                return e;
            }
            let v = self.next_frame().await;
            self.inbox.push(v);
        }
    }

    fn take_event(&mut self, game_id: &str, ty: &str) -> Option<Value> {
        for i in 0..self.inbox.len() {
            let f = &mut self.inbox[i];
            if f["t"] == "game_events" && f["game_id"] == game_id {
                let events = f["events"].as_array_mut().unwrap();
                if let Some(j) = events.iter().position(|e| e["type"] == ty) {
                    let e = events.remove(j);
                    // Earlier events of the frame are dropped as seen.
                    events.drain(..j);
                    return Some(e);
                }
                self.inbox[i]["events"] = json!([]);
            }
        }
        None
    }
}

/// Two guests paired through a friend challenge; returns (game id, white's ws, black's ws).
pub async fn friend_game(server: &TestServer, tc: &str, a: &str, b: &str) -> (String, Ws, Ws) {
    friend_game_with(server, tc, a, b, json!({})).await
}

/// [`friend_game`] with more fields in the challenge (`variant`, `rules`, …).
pub async fn friend_game_with(server: &TestServer, tc: &str, a: &str, b: &str, more: Value) -> (String, Ws, Ws) {
    let mut wa = server.ws(a).await;
    let mut wb = server.ws(b).await;
    let mut msg = json!({"t": "challenge_friend", "time_control": tc, "rated": false, "color": "white"});
    if let (Some(m), Some(more)) = (msg.as_object_mut(), more.as_object()) {
        m.extend(more.clone());
    }
    let c = wa.request(msg).await;
    assert_eq!(c["t"], "challenge_created", "{c}");
    let cid = c["challenge_id"].as_str().unwrap().to_owned();
    assert!(c["url"].as_str().unwrap().ends_with(&format!("/challenge/{cid}")));
    wb.ok(json!({"t": "accept_challenge", "challenge_id": cid})).await;
    let sa = wa.wait(|v| v["t"] == "game_started").await;
    let sb = wb.wait(|v| v["t"] == "game_started").await;
    assert_eq!(sa["game_id"], sb["game_id"]);
    assert_eq!(sa["game_id"], cid, "a challenge's game takes its id, as on Lichess");
    assert_eq!(sa["color"], "white");
    assert_eq!(sb["color"], "black");
    let gid = sa["game_id"].as_str().unwrap().to_owned();
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    wb.ok(json!({"t": "subscribe", "game_id": gid})).await;
    (gid, wa, wb)
}

pub async fn play(ws: &mut Ws, gid: &str, uci: &str) {
    ws.ok(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": uci}})).await;
}
