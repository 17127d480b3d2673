//! Rule sets over the WebSocket (issue 18; `docs/game.md`, "Rule sets"): a friend challenge and a computer game
//! created with `rules`, shown in the challenge and the snapshot; touch-move refuses a move that breaks the
//! obligation with its explanation; a counted illegal move; an adjournment with a sealed move; a bad name refused.

mod common;

use common::{TestServer, play, temp_db};
use serde_json::{Value, json};

async fn challenge(server: &TestServer, rules: &str) -> (String, common::Ws, common::Ws, Value) {
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, wa, mut wb) = common::friend_game_with(server, "5400+30", &a, &b, json!({"rules": rules})).await;
    let snap = wb.wait(|v| v["t"] == "game_snapshot").await;
    (gid, wa, wb, snap)
}

fn act(gid: &str, action: Value) -> Value {
    json!({"t": "game", "game_id": gid, "action": action})
}

#[tokio::test]
async fn touch_move_and_counted_illegal_moves_between_friends() {
    let server = TestServer::start(&temp_db("rules_touch")).await;
    let (gid, mut wa, mut wb, snap) = challenge(&server, "touch_move+illegal_moves_count").await;
    // Both players see the rule set.
    assert_eq!(snap["snapshot"]["rules"], "touch_move+illegal_moves_count", "{snap}");
    wa.ok(act(&gid, json!({"t": "touch", "square": "g1"}))).await;
    let ev = wb.event(&gid, "piece_touched").await;
    assert_eq!(ev["message_zh"], "你已摸了马g1，必须走马（摸子走子，第4.3.1条）", "{ev}");
    let refused = wa.request(act(&gid, json!({"t": "move", "uci": "e2e4"}))).await;
    assert_eq!((refused["t"].as_str(), refused["code"].as_str()), (Some("error"), Some("touch_move")), "{refused}");
    assert!(refused["message_en"].as_str().unwrap_or_default().contains("g1"), "{refused}");
    // The snapshot of a reconnecting client keeps the touch.
    let (_, c) = server.guest().await;
    let mut wc = server.ws(&c).await;
    wc.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wc.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["touches"], json!(["g1"]), "{snap}");
    play(&mut wa, &gid, "g1f3").await;
    // Black's completed illegal move is taken back and counted: two minutes to White.
    wb.ok(act(&gid, json!({"t": "move", "uci": "g8g6"}))).await;
    let ev = wa.event(&gid, "illegal_move_counted").await;
    assert_eq!(
        (ev["count"].as_u64(), ev["limit"].as_u64(), ev["penalty_ms"].as_u64()),
        (Some(1), Some(2), Some(120_000))
    );
    // Its piece counts as touched (7.5.1 with 4.3): Black must now move the knight.
    let refused = wb.request(act(&gid, json!({"t": "move", "uci": "e7e5"}))).await;
    assert_eq!(refused["code"], "touch_move", "{refused}");
    wb.ok(act(&gid, json!({"t": "move", "uci": "g8f6"}))).await;
}

#[tokio::test]
async fn a_sealed_move_in_a_correspondence_game() {
    let server = TestServer::start(&temp_db("rules_seal")).await;
    let (gid, mut wa, mut wb, snap) = challenge(&server, "adjournment").await;
    assert_eq!(snap["snapshot"]["rules"], "adjournment", "{snap}");
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    wa.ok(act(&gid, json!({"t": "adjourn_offer"}))).await;
    wb.ok(act(&gid, json!({"t": "adjourn_offer"}))).await;
    let called = wa.event(&gid, "adjournment_called").await;
    assert_eq!(called["to_seal"], "white");
    wa.ok(act(&gid, json!({"t": "seal", "mv": "马f3"}))).await;
    let sealed = wb.event(&gid, "move_sealed").await;
    assert!(!sealed.to_string().contains("f3"), "{sealed}");
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as u64;
    let at = now + 1_500;
    wa.ok(act(&gid, json!({"t": "propose_resumption", "at_ms": at}))).await;
    wb.ok(act(&gid, json!({"t": "propose_resumption", "at_ms": at}))).await;
    // The server's tick starts the session on time and opens the envelope (both are connected).
    let opened = wb.event(&gid, "sealed_move_opened").await;
    assert_eq!((opened["text"].as_str(), opened["valid"].as_bool()), (Some("马f3"), Some(true)), "{opened}");
    let mv = wb.event(&gid, "move_made").await;
    assert_eq!(mv["san"], "Nf3", "{mv}");
    play(&mut wb, &gid, "b8c6").await;
}

#[tokio::test]
async fn a_computer_game_with_rules_and_a_bad_name() {
    let server = TestServer::start(&temp_db("rules_ai")).await;
    let (_, a) = server.guest().await;
    let mut wa = server.ws(&a).await;
    let bad = wa
        .request(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-", "rules": "touch"}))
        .await;
    assert_eq!(bad["t"], "error", "{bad}");
    assert!(bad["message_en"].as_str().unwrap_or_default().contains("touch"), "{bad}");
    wa.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-", "rules": "king_into_check"}))
        .await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["rules"], "king_into_check", "{snap}");
}

/// The course's pawn war (`first_promotion`): against the computer the first promotion ends the game with its maker
/// as the winner; a rated challenge and a tournament with the rule are refused, naming it.
#[tokio::test]
async fn a_pawn_war_ends_at_the_first_promotion_and_is_never_rated() {
    let server = TestServer::start(&temp_db("rules_pawn_war")).await;
    let (_, a) = server.guest().await;
    let mut wa = server.ws(&a).await;
    wa.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-",
                 "fen": "8/P7/6k1/8/8/8/7p/4K3 w - - 0 1", "rules": "first_promotion"}))
        .await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["rules"], "first_promotion", "{snap}");
    play(&mut wa, &gid, "a7a8q").await;
    let ended = wa.event(&gid, "game_ended").await;
    assert_eq!(
        (ended["termination"].as_str(), ended["winner"].as_str()),
        (Some("promotion"), Some("white")),
        "{ended}"
    );
    assert_eq!(ended["message_zh"], "白方先让兵升变，白胜（兵的战争）", "{ended}");

    let (_, org) = server.register("pawnwarorg").await;
    let mut wo = server.ws(&org).await;
    let rated = wo
        .request(json!({"t": "challenge_friend", "time_control": "300+0", "rated": true, "color": "white",
                        "rules": "first_promotion"}))
        .await;
    assert_eq!(rated["t"], "error", "{rated}");
    assert!(rated["message_en"].as_str().unwrap_or_default().contains("first_promotion"), "{rated}");
    let (status, v) = server
        .call(
            reqwest::Method::POST,
            "/api/tournaments",
            Some(json!({"name": "Pawn war cup", "system": "swiss", "mode": "online", "time_control": "300+0",
                        "rated": false, "rounds": 3, "rules": "first_promotion"})),
            Some(&org),
        )
        .await;
    assert_eq!(status, 400, "{v}");
    assert!(v.to_string().contains("first_promotion"), "{v}");
}
