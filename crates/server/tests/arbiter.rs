//! The sealed move stays secret, and the arbiter's role over the WebSocket (issue 18; `docs/game.md`, "The arbiter"):
//! nobody sees a sealed move before its envelope is opened — not the opponent, a spectator, the PGN export, the
//! archive or the Lichess-compatible game stream; the server's administrators are the arbiters of the games they do
//! not play (`live::services::AdminArbiters`), told so after `subscribe`, and their acts reach everyone as events
//! and the PGN; anyone else is refused with `not_arbiter`, a player of the game with `own_board`.

mod common;

use std::time::Duration;

use common::{TestServer, play, temp_db};
use serde_json::{Value, json};

fn act(gid: &str, action: Value) -> Value {
    json!({"t": "game", "game_id": gid, "action": action})
}

fn arb(gid: &str, act: Value) -> Value {
    json!({"t": "arbiter", "game_id": gid, "act": act})
}

async fn get_text(server: &TestServer, path: &str) -> String {
    reqwest::get(server.url(path)).await.unwrap().text().await.unwrap()
}

/// The first chunk of a stream that does not end.
async fn first_chunk(server: &TestServer, path: &str) -> String {
    let mut r = reqwest::get(server.url(path)).await.unwrap();
    let chunk = tokio::time::timeout(Duration::from_secs(5), r.chunk()).await.unwrap().unwrap().unwrap_or_default();
    String::from_utf8_lossy(&chunk).into_owned()
}

#[tokio::test]
async fn a_sealed_move_is_never_shown_before_the_envelope_is_opened() {
    let server = TestServer::start(&temp_db("arbiter_secret")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) =
        common::friend_game_with(&server, "5400+30", &a, &b, json!({"rules": "adjournment"})).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    wa.ok(act(&gid, json!({"t": "adjourn_offer"}))).await;
    wb.ok(act(&gid, json!({"t": "adjourn_offer"}))).await;
    // The sealed move: a knight to c3, which nothing else in this game mentions.
    wa.ok(act(&gid, json!({"t": "seal", "mv": "Nc3"}))).await;
    let sealed = wb.event(&gid, "move_sealed").await;
    assert_eq!(sealed["by"], "white");
    let secret = |what: &str, text: &str| assert!(!text.contains("Nc3"), "{what} shows the sealed move: {text}");
    // The opponent's frames so far, and a spectator's snapshot.
    for f in &wb.inbox {
        secret("a frame to the opponent", &f.to_string());
    }
    let (_, c) = server.guest().await;
    let mut wc = server.ws(&c).await;
    wc.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wc.wait(|v| v["t"] == "game_snapshot").await;
    secret("the snapshot", &snap.to_string());
    assert_eq!(snap["snapshot"]["adjournment"]["sealed_by"], "white", "{snap}");
    assert_eq!(snap["snapshot"]["paused"], true, "{snap}");
    // The opponent reconnecting gets the same.
    let mut wb2 = server.ws(&b).await;
    wb2.ok(json!({"t": "subscribe", "game_id": gid})).await;
    secret("the opponent's snapshot", &wb2.wait(|v| v["t"] == "game_snapshot").await.to_string());
    // The HTTP views: the PGN export, the archive's JSON, the Lichess-compatible stream of the game.
    secret("the PGN", &get_text(&server, &format!("/game/export/{gid}")).await);
    secret("the game's JSON", &get_text(&server, &format!("/api/game/{gid}")).await);
    secret("the game stream", &first_chunk(&server, &format!("/api/stream/game/{gid}")).await);
    // The resumption is agreed; at that time the envelope is opened (both are here) and the move played.
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let at = now + 1_500;
    wb.ok(act(&gid, json!({"t": "propose_resumption", "at_ms": at}))).await;
    let proposed = wa.event(&gid, "resumption_proposed").await;
    assert_eq!(proposed["at_ms"], at);
    wa.ok(act(&gid, json!({"t": "propose_resumption", "at_ms": at}))).await;
    let opened = wc.event(&gid, "sealed_move_opened").await;
    assert_eq!((opened["text"].as_str(), opened["valid"].as_bool()), (Some("Nc3"), Some(true)), "{opened}");
    assert_eq!(wc.event(&gid, "move_made").await["san"], "Nc3");
    play(&mut wb, &gid, "g8f6").await;
}

#[tokio::test]
async fn administrators_arbitrate_the_games_they_do_not_play() {
    let server = TestServer::start(&temp_db("arbiter_role")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (admin_id, admin) = server.register("arbiterwang").await;
    server.state.store.set_admin(&admin_id, true).await.unwrap();
    let (_, plain) = server.register("plainuser").await;
    let (gid, mut wa, mut wb) = common::friend_game(&server, "600+0", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;

    // Someone who is not an arbiter is refused, and not told they are one.
    let mut wp = server.ws(&plain).await;
    wp.ok(json!({"t": "subscribe", "game_id": gid})).await;
    assert!(!wp.inbox.iter().any(|f| f["t"] == "arbiter"), "{:?}", wp.inbox);
    let refused = wp.request(arb(&gid, json!({"t": "pause"}))).await;
    assert_eq!((refused["t"].as_str(), refused["code"].as_str()), (Some("error"), Some("not_arbiter")), "{refused}");
    // A player is not the arbiter of their own game (issue 41: said so with its own code).
    let refused = wa.request(arb(&gid, json!({"t": "add_time", "color": "white", "ms": 60_000}))).await;
    assert_eq!(refused["code"], "own_board", "{refused}");

    // The administrator is told after subscribing, and acts.
    let mut wr = server.ws(&admin).await;
    wr.ok(json!({"t": "subscribe", "game_id": gid})).await;
    assert!(wr.inbox.iter().any(|f| f["t"] == "arbiter" && f["game_id"] == gid.as_str()), "{:?}", wr.inbox);
    wr.ok(arb(&gid, json!({"t": "add_time", "color": "black", "ms": 120_000}))).await;
    let acted = wa.event(&gid, "arbiter_acted").await;
    assert_eq!((acted["arbiter"].as_str(), acted["act"].as_str()), (Some("arbiterwang"), Some("add_time")), "{acted}");
    assert!(acted["message_en"].as_str().unwrap().contains("gave Black 2:00 more"), "{acted}");
    let update = wa.event(&gid, "clock_update").await;
    assert!(update["clocks"]["black_ms"].as_u64().unwrap() > 600_000, "{update}");
    // Pause and restart (6.11).
    wr.ok(arb(&gid, json!({"t": "pause"}))).await;
    wa.event(&gid, "adjourned").await;
    let refused = wa.request(act(&gid, json!({"t": "move", "uci": "g1f3"}))).await;
    assert_eq!(refused["code"], "adjourned", "{refused}");
    wr.ok(arb(&gid, json!({"t": "resume"}))).await;
    wa.event(&gid, "resumed").await;
    // A player's claim, decided.
    wb.ok(act(&gid, json!({"t": "call_arbiter", "reason": "White is using a phone"}))).await;
    let called = wr.event(&gid, "arbiter_called").await;
    assert_eq!(called["by"], "black");
    let bad = wr.request(arb(&gid, json!({"t": "set_result", "result": "3-0", "reason": "x"}))).await;
    assert_eq!(bad["code"], "bad_ruling", "{bad}");
    wr.ok(arb(&gid, json!({"t": "decide", "uphold": true, "ruling": "the phone rang"}))).await;
    // The result with its reason (12.9: a game declared lost).
    let reason = "Article 11.3.2: White's phone rang";
    wr.ok(arb(&gid, json!({"t": "set_result", "result": "0-1", "reason": reason, "infraction": true}))).await;
    let ended = wb.event(&gid, "game_ended").await;
    assert_eq!((ended["result"].as_str(), ended["termination"].as_str()), (Some("0-1"), Some("adjudication")));
    assert!(ended["message_en"].as_str().unwrap().contains(reason), "{ended}");
    // The PGN records the acts and the infraction.
    let pgn = get_text(&server, &format!("/game/export/{gid}")).await;
    let flat = pgn.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(flat.contains("[Termination \"Rules infraction\"]"), "{pgn}");
    for a in ["add_time", "pause", "resume", "decide", "set_result"] {
        assert!(flat.contains(&format!("[%arbiter arbiterwang {a}]")), "{a}: {pgn}");
    }
    // A finished game takes no more acts.
    let over = wr.request(arb(&gid, json!({"t": "pause"}))).await;
    assert_eq!(over["t"], "error", "{over}");
}
