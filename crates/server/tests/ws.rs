//! The WebSocket protocol against a real server on loopback, with a real SQLite file.

mod common;

use common::{TestServer, friend_game, play, temp_db};
use serde_json::json;

#[tokio::test]
async fn friend_game_to_checkmate_and_pgn_export() {
    let server = TestServer::start(&temp_db("mate")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "300+3", &a, &b).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["status"]["status"], "created");
    play(&mut wa, &gid, "f2f3").await;
    play(&mut wb, &gid, "e7e5").await;
    play(&mut wa, &gid, "g2g4").await;
    play(&mut wb, &gid, "d8h4").await;
    let end = wa.event(&gid, "game_ended").await;
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["termination"], "checkmate");
    let end_b = wb.event(&gid, "game_ended").await;
    assert_eq!(end_b["winner"], "black");
    // A move after the end is refused with the game's own code.
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "e2e4"}})).await;
    assert_eq!(r["t"], "error");
    assert_eq!(r["code"], "game_over", "{r}");
    let pgn = reqwest::get(server.url(&format!("/game/export/{gid}"))).await.unwrap().text().await.unwrap();
    assert!(pgn.contains("1. f3 { [%clk 0:05:00] } 1... e5"), "{pgn}");
    assert!(pgn.contains("2. g4"), "{pgn}");
    assert!(pgn.contains("Qh4#"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("[TimeControl \"300+3\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"Normal\"]"), "{pgn}");
    assert!(pgn.trim_end().ends_with("0-1"), "{pgn}");
}

#[tokio::test]
async fn only_players_move_and_illegal_moves_are_explained() {
    let server = TestServer::start(&temp_db("auth")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (_, c) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "600+0", &a, &b).await;
    let mut wc = server.ws(&c).await;
    // A spectator may watch but not move.
    wc.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let r = wc.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "e2e4"}})).await;
    assert_eq!(r["code"], "not_a_player", "{r}");
    // Black may not move for White.
    let r = wb.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "e2e4"}})).await;
    assert_eq!(r["code"], "not_your_turn", "{r}");
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "e2e5"}})).await;
    assert_eq!(r["code"], "illegal_move", "{r}");
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "zz"}})).await;
    assert_eq!(r["code"], "bad_move_text", "{r}");
    let r = wa.request(json!({"t": "explain", "game_id": gid, "from": "e1", "to": "e2"})).await;
    assert_eq!(r["t"], "explanation");
    assert_eq!(r["legal"], false);
    assert!(r["reason"]["message_en"].as_str().unwrap().len() > 10, "{r}");
    play(&mut wa, &gid, "e2e4").await;
    let mv = wc.event(&gid, "move_made").await;
    assert_eq!(mv["san"], "e4");
    // Unknown games and anonymous players.
    let r = wa.request(json!({"t": "game", "game_id": "nosuchgm", "action": {"t": "resign"}})).await;
    assert_eq!(r["code"], "unknown_game", "{r}");
    let mut anon = common::Ws::connect(server.addr, None).await;
    let r = anon.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "e7e5"}})).await;
    assert_eq!(r["code"], "login_required", "{r}");
}

#[tokio::test]
async fn malformed_frames_get_clear_errors() {
    let server = TestServer::start(&temp_db("frames")).await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    ws.send_raw("this is not json").await;
    let r = ws.wait(|v| v["t"] == "error").await;
    assert_eq!(r["code"], "bad_message");
    ws.send_raw(r#"{"t":"game","id":9,"game_id":"x","action":{"t":"move","uci":"e2e4","ofer_draw":true}}"#).await;
    let r = ws.wait(|v| v["t"] == "error").await;
    assert_eq!(r["id"], 9);
    assert!(r["message_en"].as_str().unwrap().contains("ofer_draw"), "{r}");
    ws.send_raw(&format!(r#"{{"t":"ping","id":10,"client_time_ms":1,"pad":"{}"}}"#, "x".repeat(70_000))).await;
    let r = ws.wait(|v| v["t"] == "error").await;
    assert_eq!(r["code"], "frame_too_large");
    let r = ws.request(json!({"t": "play_computer", "level": 99, "color": "white", "time_control": "-"})).await;
    assert_eq!(r["code"], "bad_request", "{r}");
    let r =
        ws.request(json!({"t": "challenge_friend", "time_control": "fast", "rated": false, "color": "white"})).await;
    assert_eq!(r["code"], "bad_time_control", "{r}");
    // Still alive.
    let r = ws.request(json!({"t": "ping", "client_time_ms": 5})).await;
    assert_eq!(r["t"], "pong");
    assert_eq!(r["client_time_ms"], 5);
}

#[tokio::test]
async fn draw_offer_declined_by_moving_then_accepted() {
    let server = TestServer::start(&temp_db("draw")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "600+0", &a, &b).await;
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "e2e4", "offer_draw": true}})).await;
    wb.event(&gid, "draw_offered").await;
    play(&mut wb, &gid, "e7e5").await; // declines by moving
    wa.event(&gid, "draw_declined").await;
    // On one's own turn a draw is offered with the move; and White may not offer again before Black has offered.
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "offer_draw"}})).await;
    assert_eq!(r["code"], "offer_with_move", "{r}");
    play(&mut wa, &gid, "g1f3").await;
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "offer_draw"}})).await;
    assert_eq!(r["code"], "reoffer_not_allowed", "{r}");
    wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "b8c6", "offer_draw": true}})).await;
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "accept_draw"}})).await;
    let end = wb.event(&gid, "game_ended").await;
    assert_eq!(end["result"], "1/2-1/2");
    assert_eq!(end["termination"], "agreement");
}

#[tokio::test]
async fn computer_answers_moves() {
    let server = TestServer::start(&temp_db("engine")).await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    ws.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-"})).await;
    let started = ws.wait(|v| v["t"] == "game_started").await;
    let gid = started["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut ws, &gid, "e2e4").await;
    let reply = loop {
        let e = ws.event(&gid, "move_made").await;
        if e["by"] == "black" {
            break e;
        }
    };
    assert_eq!(reply["ply"], 2);
    // Takebacks against the computer are granted at once (casual game).
    ws.ok(json!({"t": "game", "game_id": gid, "action": {"t": "takeback_offer"}})).await;
    let done = ws.event(&gid, "takeback_done").await;
    assert_eq!(done["plies"], 2, "{done}");
}

#[tokio::test]
async fn restart_resumes_live_games_at_the_same_position() {
    let db = temp_db("restart");
    let server = TestServer::start(&db).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "300+0", &a, &b).await;
    play(&mut wa, &gid, "d2d4").await;
    play(&mut wb, &gid, "d7d5").await;
    play(&mut wa, &gid, "c2c4").await;
    let mv = loop {
        let mv = wb.event(&gid, "move_made").await;
        if mv["ply"] == 3 {
            break mv;
        }
    };
    let fen = mv["fen"].as_str().unwrap().to_owned();
    let clocks = mv["clocks"].clone();
    drop((wa, wb));
    server.crash().await;
    let server = TestServer::start(&db).await;
    let mut wb = server.ws(&b).await;
    let snap = wb.request(json!({"t": "subscribe", "game_id": gid, "since_version": 1})).await;
    // The answer is the ack; the resync came before it.
    assert_eq!(snap["t"], "ack");
    let s = wb.wait(|v| v["t"] == "game_snapshot" || v["t"] == "game_events").await;
    assert_eq!(s["t"], "game_snapshot", "after a restart the event log is gone: full resync");
    assert_eq!(s["snapshot"]["fen"], fen);
    assert_eq!(s["snapshot"]["moves"].as_array().unwrap().len(), 3);
    // Black's clock had not started running down at the restart point by more than the time between move and crash.
    let black_before = clocks["black_ms"].as_u64().unwrap();
    let black_now = s["snapshot"]["clocks"]["black_ms"].as_u64().unwrap();
    assert!(black_now <= black_before && black_before - black_now < 5_000, "{black_before} → {black_now}");
    play(&mut wb, &gid, "d5c4").await;
}

#[tokio::test]
async fn disconnected_opponent_can_be_claimed_against_and_first_moves_time_out() {
    let server = TestServer::start_with(&temp_db("gone"), |c| {
        c.disconnect_timeout_ms = Some(300);
        c.first_move_timeout_ms = Some(400);
    })
    .await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "600+0", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    drop(wb); // Black's only connection closes
    let gone = wa.event(&gid, "player_disconnected").await;
    assert_eq!(gone["who"], "black");
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "claim_victory"}})).await;
    assert_eq!(r["code"], "claim_too_early", "{r}");
    tokio::time::sleep(std::time::Duration::from_millis(400)).await;
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "claim_victory"}})).await;
    let end = wa.event(&gid, "game_ended").await;
    assert_eq!(end["winner"], "white");
    assert_eq!(end["termination"], "abandoned");

    // A game whose first move never comes is aborted by the server on its own.
    let (gid2, mut wa2, _wb2) = friend_game(&server, "600+0", &a, &b).await;
    let aborted = wa2.event(&gid2, "aborted").await;
    assert_eq!(aborted["reason"], "first_move_timeout");
    assert_eq!(aborted["by"], "white");
}

#[tokio::test]
async fn every_kind_of_clock_plays() {
    let server = TestServer::start(&temp_db("clocks")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    // Increment, simple and Bronstein delay, multi-period with move counts, sandclock, correspondence, none.
    for tc in ["300+2", "300+d5", "300+b5", "40/5400+30:1800+30", "*180", "3d", "3d<=10d", "-"] {
        let (gid, mut wa, mut wb) = friend_game(&server, tc, &a, &b).await;
        let snap = wa.wait(|v| v["t"] == "game_snapshot").await;
        assert_eq!(snap["snapshot"]["time_control"], tc, "{snap}");
        play(&mut wa, &gid, "e2e4").await;
        play(&mut wb, &gid, "e7e5").await;
        play(&mut wa, &gid, "g1f3").await;
        let mv = loop {
            let e = wb.event(&gid, "move_made").await;
            if e["ply"] == 3 {
                break e;
            }
        };
        if tc == "-" {
            assert!(mv["clocks"].is_null(), "{tc}: {mv}");
        } else {
            assert!(mv["clocks"]["white_ms"].as_u64().unwrap() > 0, "{tc}: {mv}");
        }
        wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
        let end = wa.event(&gid, "game_ended").await;
        assert_eq!(end["result"], "1-0", "{tc}");
        let pgn = reqwest::get(server.url(&format!("/game/export/{gid}"))).await.unwrap().text().await.unwrap();
        assert!(pgn.contains(&format!("[TimeControl \"{tc}\"]")), "{pgn}");
    }
}

#[tokio::test]
async fn the_live_list_shows_the_games_being_played() {
    let server = TestServer::start(&temp_db("live_list")).await;
    let live = || async {
        let v: serde_json::Value = reqwest::get(server.url("/api/live")).await.unwrap().json().await.unwrap();
        v.as_array().unwrap().clone()
    };
    assert!(live().await.is_empty());
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "600+0", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    let list = live().await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["game_id"], gid);
    assert_eq!(list[0]["last_move"], "e7e5");
    assert!(list[0]["fen"].as_str().unwrap().starts_with("rnbqkbnr/pppp1ppp/8/4p3/4P3/"), "{list:?}");
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wb.event(&gid, "game_ended").await;
    assert!(live().await.is_empty(), "a finished game is not listed as being played");
}

#[tokio::test]
async fn a_rematch_is_offered_declined_then_agreed_with_colours_swapped() {
    let server = TestServer::start(&temp_db("rematch")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "300+3", &a, &b).await;
    let rematch = |t: &str| json!({"t": "game", "game_id": gid, "action": {"t": t}});
    // Not before the game is over.
    assert_eq!(wa.request(rematch("rematch_offer")).await["code"], "not_over");
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wa.event(&gid, "game_ended").await;
    // Offered: the opponent hears it as a game event and as a message of its own.
    wa.ok(rematch("rematch_offer")).await;
    let e = wb.event(&gid, "rematch_offered").await;
    assert_eq!(e["by"], "white");
    let m = wb.wait(|v| v["t"] == "rematch_offered").await;
    assert_eq!((m["game_id"].as_str(), m["by"].as_str()), (Some(gid.as_str()), Some("white")));
    assert_eq!(wa.request(rematch("rematch_offer")).await["code"], "rematch_offered");
    // A reloaded page sees the offer in the snapshot.
    let mut wb2 = server.ws(&b).await;
    wb2.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wb2.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["rematch_offer"], "white", "{snap}");
    // Declined.
    wb.ok(rematch("rematch_decline")).await;
    assert_eq!(wa.event(&gid, "rematch_declined").await["by"], "black");
    assert_eq!(wa.request(rematch("rematch_accept")).await["code"], "no_rematch_offer");
    // Offered again, and accepted: a new game, colours swapped.
    wb.ok(rematch("rematch_offer")).await;
    wa.ok(rematch("rematch_accept")).await;
    wb.event(&gid, "rematch_agreed").await;
    let started_a = wa.wait(|v| v["t"] == "game_started").await;
    let started_b = wb.wait(|v| v["t"] == "game_started").await;
    assert_eq!(started_a["game_id"], started_b["game_id"]);
    assert_ne!(started_a["game_id"], gid);
    assert_eq!((started_a["color"].as_str(), started_b["color"].as_str()), (Some("black"), Some("white")));
    assert_eq!(wb.request(rematch("rematch_offer")).await["code"], "rematch_done");
}
