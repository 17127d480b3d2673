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
