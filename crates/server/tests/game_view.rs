//! `GET /api/game/{id}`: one view of a game, live or stored — a stored game tells how it ended (who aborted it and
//! why, the result with the server's words) and the clock after each move, as the live game does.

mod common;

use std::time::Duration;

use common::{TestServer, friend_game, play, temp_db};
use serde_json::{Value, json};

async fn view(server: &TestServer, gid: &str) -> Value {
    let r = reqwest::get(server.url(&format!("/api/game/{gid}"))).await.unwrap();
    assert_eq!(r.status(), 200);
    r.json().await.unwrap()
}

/// The view once the game has left memory (`linger_ms` 0) and its end is in the store.
async fn stored_view(server: &TestServer, gid: &str) -> Value {
    for _ in 0..200 {
        if server.state.live.find(gid).await.is_none() {
            let v = view(server, gid).await;
            if v["status"] != "live" {
                return v;
            }
        }
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    panic!("game {gid} did not leave memory");
}

#[tokio::test]
async fn a_stored_aborted_game_says_who_aborted_it() {
    let server = TestServer::start_with(&temp_db("view-abort"), |c| c.linger_ms = 0).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "300+3", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "abort"}})).await;
    wa.event(&gid, "aborted").await;
    let v = stored_view(&server, &gid).await;
    assert_eq!(v["status"], "aborted");
    assert_eq!(v["end"], json!({"status": "aborted", "reason": "player", "by": "black"}));
    assert_eq!(v["moves_uci"], json!(["e2e4"]));
    assert_eq!(v["move_clocks_ms"].as_array().map(Vec::len), Some(1), "{v}");
    assert_eq!((&v["turn"], &v["running"], &v["winner"]), (&json!("black"), &Value::Null, &Value::Null));
}

#[tokio::test]
async fn a_stored_finished_game_keeps_the_words_of_its_end_and_its_move_clocks() {
    let server = TestServer::start_with(&temp_db("view-resign"), |c| c.linger_ms = 0).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "300+3", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    play(&mut wa, &gid, "g1f3").await;
    // The live view while the game is played: no end yet, a clock after every move.
    let live = view(&server, &gid).await;
    assert_eq!((&live["status"], &live["end"]), (&json!("started"), &Value::Null));
    assert_eq!(live["running"], "black");
    let live_clocks = live["move_clocks_ms"].clone();
    assert_eq!(live_clocks.as_array().map(|c| c.iter().all(Value::is_u64)), Some(true), "{live}");
    assert_eq!(live_clocks.as_array().map(Vec::len), Some(3));
    wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    let ended = wa.event(&gid, "game_ended").await;
    let v = stored_view(&server, &gid).await;
    assert_eq!(v["status"], "finished");
    let end = &v["end"];
    assert_eq!(
        (&end["status"], &end["result"], &end["termination"]),
        (&json!("finished"), &json!("1-0"), &json!("resignation"))
    );
    assert_eq!(end["winner"], "white");
    // The words are the server's, the same as the live game's end event.
    assert_eq!((&end["message_zh"], &end["message_en"]), (&ended["message_zh"], &ended["message_en"]), "{ended}");
    assert!(end["message_en"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(v["move_clocks_ms"], live_clocks, "the stored clocks are the ones the live game had");
    assert_eq!((&v["winner"], &v["result"]), (&json!("white"), &json!("1-0")));
}
