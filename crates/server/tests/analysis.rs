//! `POST /api/analyse` is bounded: it needs a session (a guest's will do), a user's newer analyses stop their
//! oldest, the queue in front of the analysis workers is bounded, and a live game's computer opponent never waits
//! for analysis.

mod common;

use common::{TestServer, play, temp_db};
use serde_json::{Value, json};

async fn analyse(server: &TestServer, session: Option<&str>, body: Value) -> (u16, Value) {
    let mut r = reqwest::Client::new().post(server.url("/api/analyse")).json(&body);
    if let Some(s) = session {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// A search that runs for its whole time limit (a depth it will not reach).
fn long(ms: u64) -> Value {
    json!({"depth": 30, "movetime_ms": ms})
}

#[tokio::test]
async fn analysis_needs_a_session_and_answers_a_guest() {
    let server = TestServer::start(&temp_db("analyse_auth")).await;
    let (status, body) = analyse(&server, None, json!({"depth": 4})).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["code"], "login_required");
    let (_, s) = server.guest().await;
    let (status, body) = analyse(&server, Some(&s), json!({"depth": 4, "moves": ["e2e4"]})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["turn"], "black");
    assert!(body["lines"][0]["pv"].as_array().is_some_and(|pv| !pv.is_empty()), "{body}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_queue_for_the_analysis_workers_is_bounded() {
    let server = TestServer::start_with(&temp_db("analyse_queue"), |c| {
        c.analysis_workers = 1;
        c.analysis_queue = 1;
    })
    .await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (_, c) = server.guest().await;
    let server = std::sync::Arc::new(server);
    let spawn = |s: String, body: Value| {
        let server = server.clone();
        tokio::spawn(async move { analyse(&server, Some(&s), body).await })
    };
    // A's search holds the one worker; B waits in the one place of the queue; C is refused at once.
    let a1 = spawn(a.clone(), long(3_000));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let b1 = spawn(b.clone(), json!({"depth": 2}));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (status, body) = analyse(&server, Some(&c), json!({"depth": 2})).await;
    assert_eq!((status, body["code"].as_str()), (503, Some("busy")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("try again"));
    assert_eq!(a1.await.unwrap().0, 200);
    assert_eq!(b1.await.unwrap().0, 200);
    assert_eq!(analyse(&server, Some(&c), json!({"depth": 2})).await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_users_newer_analyses_stop_the_oldest() {
    let server = TestServer::start_with(&temp_db("analyse_newer"), |c| c.analysis_workers = 1).await;
    let (_, a) = server.guest().await;
    let server = std::sync::Arc::new(server);
    let spawn = |body: Value| {
        let (server, a) = (server.clone(), a.clone());
        tokio::spawn(async move { analyse(&server, Some(&a), body).await })
    };
    // A long search, then A steps on twice: the third search asks the first to stop, which answers with what it
    // has (`stopped`); every search answers 200, the newest for its own position.
    let a1 = spawn(long(5_000));
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let a2 = spawn(json!({"depth": 2, "moves": ["e2e4"]}));
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let a3 = spawn(json!({"depth": 2, "moves": ["d2d4"]}));
    let (status, first) = a1.await.unwrap();
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["stopped"], true, "{first}");
    assert!(first["lines"][0]["pv"].as_array().is_some_and(|pv| !pv.is_empty()), "a stopped search still answers");
    for (t, fen_part) in [(a2, "4P3"), (a3, "3P4")] {
        let (status, body) = t.await.unwrap();
        assert_eq!(status, 200, "{body}");
        assert!(body["fen"].as_str().unwrap().contains(fen_part), "{body}");
        assert!(body["lines"][0]["pv"].as_array().is_some_and(|pv| !pv.is_empty()), "{body}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_opponent_does_not_wait_for_analysis() {
    let server = TestServer::start_with(&temp_db("analyse_live"), |c| {
        c.analysis_workers = 1;
        c.engine_workers = 1;
    })
    .await;
    let server = std::sync::Arc::new(server);
    // Every analysis worker busy for 8 s, and one more analysis waiting.
    let mut analyses = Vec::new();
    for _ in 0..2 {
        let (_, s) = server.guest().await;
        let server = server.clone();
        analyses.push(tokio::spawn(async move { analyse(&server, Some(&s), long(8_000)).await }));
    }
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (_, p) = server.guest().await;
    let mut ws = server.ws(&p).await;
    ws.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-"})).await;
    let gid = ws.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut ws, &gid, "e2e4").await;
    loop {
        let e = ws.event(&gid, "move_made").await;
        if e["by"] == "black" {
            break;
        }
    }
    // The computer answered while the analyses were still running (or waiting).
    assert!(analyses.iter().all(|t| !t.is_finished()), "the computer's reply came only after the analyses");
    for t in analyses {
        assert_eq!(t.await.unwrap().0, 200);
    }
}

// ---- the continuous stream, `GET /ws/analysis` ----

mod stream {
    use super::*;
    use futures_util::{SinkExt, StreamExt};
    use std::time::Duration;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;

    type Stream = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

    struct Client {
        ws: Stream,
        /// Every frame received, in order.
        seen: Vec<Value>,
    }

    async fn connect(server: &TestServer, session: &str) -> Client {
        let mut req = format!("ws://{}/ws/analysis", server.addr).into_client_request().unwrap();
        req.headers_mut().insert("Cookie", format!("gx_session={session}").parse().unwrap());
        let (ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
        Client { ws, seen: Vec::new() }
    }

    impl Client {
        async fn send(&mut self, v: Value) {
            self.ws.send(Message::Text(v.to_string().into())).await.unwrap();
        }

        async fn next(&mut self) -> Value {
            loop {
                let m = tokio::time::timeout(Duration::from_secs(30), self.ws.next())
                    .await
                    .expect("no frame within 30 s")
                    .expect("closed")
                    .expect("websocket error");
                if let Message::Text(t) = m {
                    let v: Value = serde_json::from_str(&t).unwrap();
                    self.seen.push(v.clone());
                    return v;
                }
            }
        }

        /// Reads frames until one matches; returns it.
        async fn until(&mut self, pred: impl Fn(&Value) -> bool) -> Value {
            loop {
                let v = self.next().await;
                if pred(&v) {
                    return v;
                }
            }
        }
    }

    fn is(v: &Value, t: &str, id: u32) -> bool {
        v["t"] == t && v["id"] == id
    }

    const AFTER_E4: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";

    #[tokio::test]
    async fn the_stream_needs_a_session() {
        let server = TestServer::start(&temp_db("analysis_ws_auth")).await;
        let req = format!("ws://{}/ws/analysis", server.addr).into_client_request().unwrap();
        let err = tokio_tungstenite::connect_async(req).await.unwrap_err();
        match err {
            tokio_tungstenite::tungstenite::Error::Http(r) => assert_eq!(r.status(), 401),
            e => panic!("expected a refusal, got {e}"),
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_new_position_ends_the_old_search_before_it_is_acknowledged() {
        let server = TestServer::start(&temp_db("analysis_ws_switch")).await;
        let (_, s) = server.guest().await;
        let mut c = connect(&server, &s).await;
        c.send(json!({"t": "analyse", "id": 1})).await;
        let started = c.until(|v| v["t"] == "started").await;
        assert_eq!(started["id"], 1, "{started}");
        assert_eq!(started["fen"], guoxiang_core::Position::new().fen());
        assert_eq!((started["depth"].as_u64(), started["max_ms"].as_u64()), (Some(30), Some(60_000)));
        let info = c.until(|v| is(v, "info", 1)).await;
        assert_eq!(info["lines"].as_array().unwrap().len(), 1, "{info}");
        // The position changes while the first search runs.
        c.send(json!({"t": "analyse", "id": 2, "moves": ["e2e4"]})).await;
        let at = {
            c.until(|v| is(v, "started", 2)).await;
            c.seen.len()
        };
        let done1 = c.seen[..at].iter().find(|v| is(v, "done", 1)).expect("the old search's done came first").clone();
        assert_eq!(done1["reason"], "stopped", "{done1}");
        let info2 = c.until(|v| is(v, "info", 2)).await;
        assert_eq!(info2["fen"], AFTER_E4);
        assert_eq!(c.seen[at - 1]["fen"], AFTER_E4, "started names the new position");
        // Stop: acknowledged after the search's `done`, and nothing follows the ack.
        c.send(json!({"t": "stop", "id": 3})).await;
        c.until(|v| is(v, "ack", 3)).await;
        c.send(json!({"t": "stop", "id": 4})).await;
        let next = c.next().await;
        assert!(is(&next, "ack", 4), "nothing of a stopped search after its ack: {next}");
        let after: Vec<&Value> = c.seen[at..].iter().collect();
        assert!(after.iter().all(|v| v["id"] != 1), "a frame about the old position after the switch: {after:?}");
        assert!(after.iter().filter(|v| v["id"] == 2).all(|v| v["t"] == "ack" || v["fen"] == AFTER_E4));
        let done2 = after.iter().position(|v| is(v, "done", 2)).expect("the stopped search's done");
        let ack3 = after.iter().position(|v| is(v, "ack", 3)).unwrap();
        assert!(done2 < ack3);
        assert_eq!(after[done2]["reason"], "stopped");
        assert!(!after[done2]["lines"].as_array().unwrap().is_empty(), "done carries the final lines");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn multipv_3_gives_3_lines_and_the_depth_cap_ends_the_search() {
        let server = TestServer::start(&temp_db("analysis_ws_multipv")).await;
        let (_, s) = server.guest().await;
        let mut c = connect(&server, &s).await;
        c.send(json!({"t": "analyse", "id": 7, "multipv": 3, "depth": 5})).await;
        let done = c.until(|v| is(v, "done", 7)).await;
        assert_eq!(done["reason"], "depth_limit", "{done}");
        assert_eq!(done["depth"], 5);
        let lines = done["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 3, "{done}");
        let ranks: Vec<u64> = lines.iter().map(|l| l["multipv"].as_u64().unwrap()).collect();
        assert_eq!(ranks, [1, 2, 3]);
        let mut firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
        firsts.dedup();
        assert_eq!(firsts.len(), 3, "three different first moves: {firsts:?}");
        assert!(lines.iter().all(|l| l["pv_san"].as_array().unwrap().len() == l["pv"].as_array().unwrap().len()));
        let infos: Vec<&Value> = c.seen.iter().filter(|v| is(v, "info", 7)).collect();
        assert!(!infos.is_empty(), "at least one info before done");
        assert!(infos.iter().all(|i| i["lines"].as_array().unwrap().len() == 3), "{infos:?}");
        // Fewer legal moves than lines asked: as many lines as moves. A mated side: `game_over` at once.
        c.send(json!({"t": "analyse", "id": 8, "multipv": 5, "depth": 3, "fen": "7k/8/8/8/8/8/8/K7 w - - 0 1"})).await;
        let done = c.until(|v| is(v, "done", 8)).await;
        assert_eq!(done["lines"].as_array().unwrap().len(), 3, "the king in the corner has three moves: {done}");
        c.send(json!({"t": "analyse", "id": 9, "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]})).await;
        let done = c.until(|v| is(v, "done", 9)).await;
        assert_eq!(done["reason"], "game_over", "{done}");
    }

    /// With Syzygy tables (guoxiang-syzygy's fixtures; `guoxiang serve --syzygy-path`) the board shows the tables'
    /// verdict: only the moves that keep the best result, as many lines as there are such moves (the `info`s still
    /// come), a win scored as one.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn endgame_tables_decide_the_lines() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../syzygy/tests/tables");
        let mut tables = guoxiang_syzygy::Tablebase::new();
        assert!(tables.add_directory(dir).unwrap() > 0);
        let syzygy = guoxiang_engine::tb::Syzygy::new(std::sync::Arc::new(tables));
        let server = TestServer::start_with(&temp_db("analysis_ws_syzygy"), |c| c.syzygy = Some(syzygy)).await;
        let (_, s) = server.guest().await;
        let mut c = connect(&server, &s).await;
        // Black draws only with Kf8, Kg7 or Kf7: three lines though five were asked, each a draw.
        let fen = "6k1/8/8/4P2K/8/8/8/8 b - - 0 1";
        c.send(json!({"t": "analyse", "id": 1, "multipv": 5, "depth": 8, "fen": fen})).await;
        let done = c.until(|v| is(v, "done", 1)).await;
        let lines = done["lines"].as_array().unwrap();
        let mut firsts: Vec<&str> = lines.iter().map(|l| l["pv"][0].as_str().unwrap()).collect();
        firsts.sort();
        assert_eq!(firsts, ["g8f7", "g8f8", "g8g7"], "{done}");
        assert!(lines.iter().all(|l| l["score"]["cp"] == 0), "{done}");
        let infos: Vec<&Value> = c.seen.iter().filter(|v| is(v, "info", 1)).collect();
        assert!(!infos.is_empty(), "infos while it searches");
        assert!(infos.iter().all(|i| i["lines"].as_array().unwrap().len() == 3), "{infos:?}");
        // White to move wins only with Kg6.
        c.send(json!({"t": "analyse", "id": 2, "multipv": 3, "depth": 8, "fen": fen.replace(" b ", " w ")})).await;
        let done = c.until(|v| is(v, "done", 2)).await;
        let lines = done["lines"].as_array().unwrap();
        assert_eq!(lines.len(), 1, "{done}");
        assert_eq!(lines[0]["pv"][0], "h5g6");
        assert!(lines[0]["score"]["cp"].as_i64().unwrap() > 19_000, "{done}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn bad_input_gets_an_error_naming_what_is_wrong_and_leaves_the_search_alone() {
        let server = TestServer::start(&temp_db("analysis_ws_bad")).await;
        let (_, s) = server.guest().await;
        let mut c = connect(&server, &s).await;
        c.send(json!({"t": "analyse", "id": 1})).await;
        c.until(|v| is(v, "info", 1)).await;
        let cases = [
            (
                json!({"t": "analyse", "id": 2, "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1"}),
                "bad_fen",
                "bad FEN",
            ),
            (json!({"t": "analyse", "id": 3, "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}), "bad_fen", "king"),
            (json!({"t": "analyse", "id": 4, "moves": ["e2e4", "e7e4"]}), "illegal_move", "move 2 (\"e7e4\")"),
            (json!({"t": "analyse", "id": 5, "multipv": 6}), "bad_request", "multipv must be 1–5, not 6"),
            (json!({"t": "analyse", "id": 6, "depth": 0}), "bad_request", "depth must be 1–30"),
            (json!({"t": "analyse", "id": 7, "depht": 3}), "bad_message", "depht"),
        ];
        for (msg, code, text) in cases {
            let id = msg["id"].as_u64().unwrap() as u32;
            c.send(msg).await;
            let e = c.until(|v| is(v, "error", id)).await;
            assert_eq!(e["code"], code, "{e}");
            assert!(e["message_en"].as_str().unwrap().contains(text), "{e} should say {text:?}");
            assert!(!e["message_zh"].as_str().unwrap().is_empty());
        }
        // The first search still runs, and is the one stopped.
        let before = c.seen.len();
        c.until(|v| is(v, "info", 1)).await;
        c.send(json!({"t": "stop", "id": 10})).await;
        c.until(|v| is(v, "ack", 10)).await;
        assert!(c.seen[before..].iter().any(|v| is(v, "done", 1)));
        c.send(Value::String("not an object".into())).await;
        let e = c.until(|v| v["t"] == "error").await;
        assert_eq!((e["code"].as_str(), &e["id"]), (Some("bad_message"), &Value::Null), "{e}");
    }
}
