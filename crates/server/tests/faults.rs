//! A store that fails, stalls or is slow on chosen writes (the store's fault rules, against the real SQLite file or
//! PostgreSQL schema): every acknowledged change is in the database, every refused one is not, and the game goes on
//! once the store recovers.

mod common;

use std::time::Duration;

use common::{TestServer, Ws, friend_game, play, temp_db};
use guoxiang_store::fault::{Fault, FaultRule, WriteKind};
use serde_json::{Value, json};

/// The moves of `gid` in the database, as UCI, in ply order (plies checked to be 1, 2, 3 …).
async fn stored_moves(server: &TestServer, gid: &str) -> Vec<String> {
    let (_, moves) = server.state.store.game(gid).await.unwrap().expect("the game is stored");
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(m.ply, i as i64 + 1, "plies of {gid} are 1, 2, 3 …: {moves:?}");
    }
    moves.into_iter().map(|m| m.uci).collect()
}

async fn stored_status(server: &TestServer, gid: &str) -> String {
    server.state.store.game(gid).await.unwrap().expect("the game is stored").0.status
}

/// The game's moves as a new follower sees them (the actor's memory).
async fn live_moves(ws: &mut Ws, gid: &str) -> Vec<String> {
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = ws.wait(|v| v["t"] == "game_snapshot" && v["snapshot"]["id"] == gid).await;
    snap["snapshot"]["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap().to_owned()).collect()
}

fn v(moves: &[&str]) -> Vec<String> {
    moves.iter().map(|s| (*s).to_owned()).collect()
}

#[tokio::test]
async fn a_failed_commit_refuses_the_move_and_changes_nothing() {
    let server = TestServer::start(&temp_db("fault_move")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "600+0", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;

    let faults = server.state.store.faults();
    faults.add(FaultRule::on(WriteKind::AppendMoves, Fault::Fail).for_game(&gid));
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "d1h5"}})).await;
    assert_eq!(r["t"], "error", "{r}");
    assert_eq!(r["code"], "not_saved", "{r}");
    assert!(r["message_en"].as_str().unwrap().contains("try again"), "{r}");
    assert!(faults.failed() >= 1);
    // Neither the database nor the game in memory has the refused move; it is still White's turn.
    assert_eq!(stored_moves(&server, &gid).await, v(&["e2e4", "e7e5"]));
    let (_, c) = server.guest().await;
    let mut wc = server.ws(&c).await;
    assert_eq!(live_moves(&mut wc, &gid).await, v(&["e2e4", "e7e5"]));
    let r = wb.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "b8c6"}})).await;
    assert_eq!(r["code"], "not_your_turn", "{r}");

    // The store recovers: the same move again, and the game goes on to the end with every ply in its place.
    faults.clear();
    for (i, mv) in ["d1h5", "b8c6", "f1c4", "g8f6", "h5f7"].into_iter().enumerate() {
        play(if i.is_multiple_of(2) { &mut wa } else { &mut wb }, &gid, mv).await;
    }
    let end = wb.event(&gid, "game_ended").await;
    assert_eq!(end["termination"], "checkmate", "{end}");
    assert_eq!(stored_moves(&server, &gid).await, v(&["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"]));
    let (row, _) = server.state.store.game(&gid).await.unwrap().unwrap();
    assert_eq!(row.status, "finished");
    assert_eq!(row.result.as_deref(), Some("1-0"));
}

#[tokio::test]
async fn a_failed_result_commit_keeps_the_game_going_and_a_rated_result_is_written_once() {
    let server = TestServer::start(&temp_db("fault_rated")).await;
    let (ua, a) = server.register("faulty_alice").await;
    let (ub, b) = server.register("faulty_bob").await;
    let mut wa = server.ws(&a).await;
    let mut wb = server.ws(&b).await;
    let c =
        wa.request(json!({"t": "challenge_friend", "time_control": "300+0", "rated": true, "color": "white"})).await;
    assert_eq!(c["t"], "challenge_created", "{c}");
    wb.ok(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    wb.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;

    let faults = server.state.store.faults();
    faults.add(FaultRule::on(WriteKind::UpsertRating, Fault::Fail));
    let r = wb.request(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    assert_eq!(r["code"], "not_saved", "{r}");
    assert_eq!(stored_status(&server, &gid).await, "live");
    assert!(server.state.store.ratings(&ua).await.unwrap().is_empty(), "no rating written for a refused result");
    // The game is not over: White may still move.
    play(&mut wa, &gid, "g1f3").await;

    faults.clear();
    wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    let end = wa.event(&gid, "game_ended").await;
    assert_eq!(end["result"], "1-0", "{end}");
    let (row, moves) = server.state.store.game(&gid).await.unwrap().unwrap();
    assert_eq!((row.status.as_str(), row.result.as_deref()), ("finished", Some("1-0")));
    assert_eq!(moves.len(), 3);
    for u in [&ua, &ub] {
        let ratings = server.state.store.ratings(u).await.unwrap();
        assert_eq!(ratings.len(), 1, "{ratings:?}");
        assert_eq!(ratings[0].games, 1, "the result counted once: {ratings:?}");
    }
    assert!(row.white_rating_diff.unwrap() > 0);
}

#[tokio::test]
async fn a_timeout_whose_commit_fails_is_committed_when_the_store_recovers() {
    let server = TestServer::start_with(&temp_db("fault_tick"), |c| c.first_move_timeout_ms = Some(400)).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, _wb) = friend_game(&server, "600+0", &a, &b).await;
    let faults = server.state.store.faults();
    faults.add(FaultRule::on(WriteKind::FinishGame, Fault::Fail).for_game(&gid));
    // The first-move timer fires and its commit fails (again and again, with a back-off).
    let t = std::time::Instant::now();
    while faults.failed() < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "the timer's commit was not tried again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(stored_status(&server, &gid).await, "live");
    faults.clear();
    let end = wa.event(&gid, "aborted").await;
    assert_eq!(end["reason"], "first_move_timeout", "{end}");
    let t = std::time::Instant::now();
    while stored_status(&server, &gid).await != "aborted" {
        assert!(t.elapsed() < Duration::from_secs(5));
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn the_computers_move_is_committed_again_after_a_failure() {
    let server = TestServer::start(&temp_db("fault_engine")).await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    ws.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-"})).await;
    let gid = ws.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    // White's move is held in the writer; meanwhile every later write of this game is made to fail. So White's
    // move commits, and the computer's reply is refused by the store for a while: it must not be lost.
    let faults = server.state.store.faults();
    faults.add(FaultRule::on(WriteKind::AppendMoves, Fault::Hold).for_game(&gid).times(1));
    ws.send_raw(&json!({"t": "game", "game_id": gid, "id": 900, "action": {"t": "move", "uci": "e2e4"}}).to_string())
        .await;
    let t = std::time::Instant::now();
    while faults.holding() == 0 {
        assert!(t.elapsed() < Duration::from_secs(20), "White's move never reached the store");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    faults.add(FaultRule::on(WriteKind::AppendMoves, Fault::Fail).for_game(&gid));
    faults.release();
    assert_eq!(ws.wait(|v| v["id"] == 900).await["t"], "ack");
    let t = std::time::Instant::now();
    while faults.failed() < 2 {
        assert!(t.elapsed() < Duration::from_secs(20), "the computer's move was not tried again");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(stored_moves(&server, &gid).await, v(&["e2e4"]));
    faults.clear();
    let reply = loop {
        let e = ws.event(&gid, "move_made").await;
        if e["by"] == "black" {
            break e;
        }
    };
    let stored = stored_moves(&server, &gid).await;
    assert_eq!(stored.len(), 2, "{stored:?}");
    assert_eq!(stored[1], reply["uci"].as_str().unwrap());
    // And the game goes on.
    play(&mut ws, &gid, "d2d4").await;
}

#[tokio::test]
async fn a_stalled_store_holds_the_ack_until_the_commit() {
    let server = TestServer::start(&temp_db("fault_hold")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "600+0", &a, &b).await;
    play(&mut wa, &gid, "e2e4").await;
    let faults = server.state.store.faults();
    faults.add(FaultRule::on(WriteKind::AppendMoves, Fault::Hold).for_game(&gid).times(1));
    wb.send_raw(&json!({"t": "game", "game_id": gid, "id": 900, "action": {"t": "move", "uci": "c7c5"}}).to_string())
        .await;
    // While the write is held, neither player hears of the move, and the database does not have it.
    let quiet = tokio::time::timeout(Duration::from_millis(500), wb.wait(|v| v["id"] == 900)).await;
    assert!(quiet.is_err(), "acknowledged before the commit: {quiet:?}");
    assert_eq!(stored_moves(&server, &gid).await, v(&["e2e4"]));
    assert!(!wa.inbox.iter().any(|f| f.to_string().contains("c7c5")));
    faults.release();
    let ack = wb.wait(|v| v["id"] == 900).await;
    assert_eq!(ack["t"], "ack", "{ack}");
    assert_eq!(stored_moves(&server, &gid).await, v(&["e2e4", "c7c5"]));
    let mv = wa.event(&gid, "move_made").await;
    let mv = if mv["uci"] == "e2e4" { wa.event(&gid, "move_made").await } else { mv };
    assert_eq!(mv["uci"], "c7c5");
}

/// Many games at once on a slow store, with one game's writes failing now and then: every game's acknowledged moves
/// are exactly its stored moves, and one game's failures refuse no other game's move (the group commit falls back to
/// committing each game alone).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn many_games_on_a_slow_and_failing_store_lose_nothing() {
    let server = TestServer::start(&temp_db("fault_many")).await;
    let faults = server.state.store.faults();
    const LINE: [&str; 12] =
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5"];
    let mut games = Vec::new();
    for _ in 0..8 {
        let (_, a) = server.guest().await;
        let (_, b) = server.guest().await;
        games.push(friend_game(&server, "600+0", &a, &b).await);
    }
    let bad = games[0].0.clone();
    faults.add(FaultRule::always(Fault::Delay(Duration::from_millis(15))));
    // Only the first game's writes fail, now and then.
    let mut tasks = Vec::new();
    for (gid, mut wa, mut wb) in games {
        let store = server.state.store.clone();
        let bad = bad.clone();
        tasks.push(tokio::spawn(async move {
            let mut acked = Vec::new();
            let mut refused = 0;
            let mut i = 0;
            let mut armed = usize::MAX;
            while i < LINE.len() {
                if gid == bad && i % 3 == 1 && armed != i {
                    armed = i;
                    // Twice: a group commit that fails is committed again game by game, and the second try fails too.
                    store.faults().add(FaultRule::on(WriteKind::AppendMoves, Fault::Fail).for_game(&gid).times(2));
                }
                let ws = if i.is_multiple_of(2) { &mut wa } else { &mut wb };
                let r: Value =
                    ws.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": LINE[i]}})).await;
                if r["t"] == "ack" {
                    acked.push(LINE[i].to_owned());
                    i += 1;
                } else {
                    assert_eq!(r["code"], "not_saved", "{r}");
                    refused += 1;
                }
            }
            (gid, acked, refused)
        }));
    }
    for t in tasks {
        let (gid, acked, refused) = t.await.unwrap();
        assert_eq!(stored_moves(&server, &gid).await, acked, "game {gid}");
        assert_eq!(acked.len(), LINE.len());
        if gid == bad {
            assert!(refused >= 1, "the failing game had no refused move");
        } else {
            assert_eq!(refused, 0, "game {gid} had moves refused for another game's failure");
        }
    }
}
