// SPDX-License-Identifier: GPL-3.0-or-later
//! What a new user ran into, server side: the live list keeps games nobody plays any more, a first visit's
//! session check answered 401, and the computer at the lower levels answered faster than a person could look.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, friend_game, play, temp_db};
use serde_json::{Value, json};

async fn live(server: &TestServer) -> Vec<Value> {
    let v: Value = reqwest::get(server.url("/api/live")).await.unwrap().json().await.unwrap();
    v.as_array().unwrap().clone()
}

/// Polls the live list until `pred` holds (the server notices a closed socket on its own time), at most 20 s.
async fn live_until(server: &TestServer, what: &str, pred: impl Fn(&[Value]) -> bool) -> Vec<Value> {
    for _ in 0..400 {
        let l = live(server).await;
        if pred(&l) {
            return l;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the live list never became {what}: {:?}", live(server).await);
}

#[tokio::test]
async fn a_game_everyone_left_is_not_listed_and_an_ended_one_stays_off() {
    let server = TestServer::start(&temp_db("ux_live")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "-", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    let l = live_until(&server, "the game", |l| l.len() == 1).await;
    assert_eq!(l[0]["game_id"], gid);
    // One player leaves: still being played (the other is there).
    drop(wb);
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(live(&server).await.len(), 1, "one player is still at the board");
    // Both left: an untimed game would stay "being played" forever; it is no longer listed.
    drop(wa);
    live_until(&server, "empty once both left", |l| l.is_empty()).await;
    // A player comes back: listed again.
    let mut wa = server.ws(&a).await;
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let l = live_until(&server, "the game again", |l| l.len() == 1).await;
    assert_eq!(l[0]["game_id"], gid);
    // It ends; the player leaves, comes back to look at it: it is over, and not listed.
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wa.event(&gid, "game_ended").await;
    assert!(live(&server).await.is_empty(), "a finished game is not listed");
    drop(wa);
    let mut wa = server.ws(&a).await;
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let mut wb = server.ws(&b).await;
    wb.ok(json!({"t": "subscribe", "game_id": gid})).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(live(&server).await.is_empty(), "coming back to a finished game does not list it");

    // An aborted game, after both players left and one came back.
    let (gid2, mut wa2, wb2) = friend_game(&server, "-", &a, &b).await;
    live_until(&server, "the second game", |l| l.iter().any(|g| g["game_id"] == gid2)).await;
    drop(wb2);
    wa2.ok(json!({"t": "game", "game_id": gid2, "action": {"t": "abort"}})).await;
    wa2.event(&gid2, "aborted").await;
    drop(wa2);
    let mut wb2 = server.ws(&b).await;
    wb2.ok(json!({"t": "subscribe", "game_id": gid2})).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(live(&server).await.iter().all(|g| g["game_id"] != gid2), "an aborted game is not listed");
}

#[tokio::test]
async fn asking_for_the_session_without_one_is_not_an_error_when_optional() {
    let server = TestServer::start(&temp_db("ux_me")).await;
    let http = reqwest::Client::new();
    // The web client's first request: no session yet, and no 401 for the browser to log.
    let r = http.get(server.url("/api/me?optional=true")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), Value::Null);
    // Without the flag the API stays as it was (401, as an authenticated endpoint answers).
    let r = http.get(server.url("/api/me")).send().await.unwrap();
    assert_eq!(r.status(), 401);
    // With a session both give the user.
    let (id, session) = server.guest().await;
    for path in ["/api/me", "/api/me?optional=true"] {
        let r = http.get(server.url(path)).header("Cookie", format!("gx_session={session}")).send().await.unwrap();
        assert_eq!(r.status(), 200, "{path}");
        let v: Value = r.json().await.unwrap();
        assert_eq!(v["id"], id, "{path}: {v}");
    }
}

#[test]
fn the_computer_takes_a_human_moment_only_at_the_lower_levels_and_never_much_of_its_clock() {
    use guoxiang_server::live::{HUMAN_PACE_LEVELS, computer_pace_ms};
    assert_eq!(computer_pace_ms(800, 1, None), 800);
    assert_eq!(computer_pace_ms(800, HUMAN_PACE_LEVELS, Some(600_000)), 800);
    assert_eq!(computer_pace_ms(800, HUMAN_PACE_LEVELS + 1, Some(600_000)), 0, "the strong levels answer at once");
    assert_eq!(computer_pace_ms(800, 1, Some(6_000)), 200, "a thirtieth of 6 s left");
    assert_eq!(computer_pace_ms(0, 1, None), 0, "0 turns it off (the tests)");
}

#[tokio::test]
async fn the_computers_moment_runs_on_its_own_clock() {
    const PACE: u64 = 400;
    let server = TestServer::start_with(&temp_db("ux_pace"), |c| c.computer_reply_ms = PACE).await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    ws.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "300+0"})).await;
    let started = ws.wait(|v| v["t"] == "game_started").await;
    let gid = started["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    // The first moves are not timed (docs/game.md); the computer's second reply is.
    let mut black_ms = 0;
    for (i, uci) in ["e2e4", "d2d4"].into_iter().enumerate() {
        let sent = Instant::now();
        play(&mut ws, &gid, uci).await;
        let reply = loop {
            let e = ws.event(&gid, "move_made").await;
            if e["by"] == "black" {
                break e;
            }
        };
        // The reply cannot come before the pace (which starts after our move was taken)...
        assert!(sent.elapsed() >= Duration::from_millis(PACE), "reply {i} after {:?}", sent.elapsed());
        black_ms = reply["clocks"]["black_ms"].as_u64().unwrap();
    }
    // ...and that time is the computer's: its clock paid for it (no increment in 300+0).
    assert!(black_ms <= 300_000 - PACE, "the computer's clock shows {black_ms} ms");
}
