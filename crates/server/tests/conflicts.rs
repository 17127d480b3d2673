//! Conflicts of interest in tournaments (issue 41; docs/security.md "Conflicts of interest"): an organiser or an
//! arbiter who plays cannot enter, change or decide a result of their own board — not over HTTP, not as the game's
//! arbiter over the WebSocket, not even before the game started — while they still can for the other boards; rated
//! tournaments are created by administrators only unless the host allows everyone (`--rated-tournaments`); and a
//! result an arbiter sets before both players have moved is not rated.

mod common;

use std::time::Duration;

use common::{TestServer, temp_db};
use guoxiang_server::tournament::RatedTournaments;
use serde_json::{Value, json};

async fn call(server: &TestServer, session: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let client = reqwest::Client::new();
    let url = server.url(path);
    let req = if method == "GET" { client.get(url) } else { client.post(url) }.bearer_auth(session);
    let req = match body {
        Some(b) => req.json(&b),
        None => req,
    };
    let r = req.send().await.unwrap();
    let status = r.status().as_u16();
    let text = r.text().await.unwrap();
    (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
}

async fn ok(server: &TestServer, session: &str, path: &str, body: Option<Value>) -> Value {
    let (s, v) = call(server, session, "POST", path, body).await;
    assert!(s == 200 || s == 201, "{path}: {s} {v}");
    v
}

fn res(round: u32, board: u32, result: &str) -> Value {
    json!({"round": round, "board": board, "result": result})
}

/// The refusal of one's own board: 403 `own_board`, in both languages.
fn assert_own_board(status: u16, e: &Value) {
    assert_eq!((status, e["code"].as_str()), (403, Some("own_board")), "{e}");
    assert!(e["error"].as_str().unwrap().contains("you play"), "{e}");
    assert!(e["message_zh"].as_str().unwrap().contains("自己"), "{e}");
}

/// The board (1-based) of round 1 where player `no` plays, and the other one.
fn boards_of(v: &Value, no: u64) -> (u32, u32) {
    let boards = v["round_list"][0]["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2, "{v}");
    let mine = boards.iter().position(|b| b["white"] == no || b["black"] == no).expect("the player has a board");
    (mine as u32 + 1, 2 - mine as u32)
}

#[tokio::test]
async fn an_organiser_who_plays_cannot_enter_or_change_their_own_boards_result() {
    let server = TestServer::start(&temp_db("conflict_organiser")).await;
    let (_, org) = server.register("Organiser").await;
    let (_, judge) = server.register("Judge").await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Club night", "system": "round_robin", "mode": "otb", "time_control": "-",
                    "rated": false})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    // The organiser plays in it, with their own account, and names an arbiter who does not.
    ok(&server, &org, &format!("/api/tournament/{id}/join"), None).await;
    for name in ["Li Lei", "Han Meimei", "Wang Fang"] {
        ok(&server, &org, &format!("/api/tournament/{id}/player"), Some(json!({"name": name}))).await;
    }
    ok(&server, &org, &format!("/api/tournament/{id}/arbiter"), Some(json!({"name": "Judge"}))).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let (mine, other) = boards_of(&v, v["your_no"].as_u64().unwrap());
    let path = format!("/api/tournament/{id}/result");

    // Entering their own board's result is refused; the other board's is taken.
    let (s, e) = call(&server, &org, "POST", &path, Some(res(1, mine, "1-0"))).await;
    assert_own_board(s, &e);
    let v = ok(&server, &org, &path, Some(res(1, other, "0-1"))).await;
    assert_eq!(v["round_list"][0]["boards"][other as usize - 1]["result"], "0-1", "{v}");
    assert!(v["round_list"][0]["boards"][mine as usize - 1]["result"].is_null(), "{v}");
    // The arbiter enters it; the organiser cannot change it afterwards.
    ok(&server, &judge, &path, Some(res(1, mine, "1/2-1/2"))).await;
    let (s, e) = call(&server, &org, "POST", &path, Some(res(1, mine, "1-0"))).await;
    assert_own_board(s, &e);
    let (_, v) = call(&server, &org, "GET", &format!("/api/tournament/{id}"), None).await;
    assert_eq!(v["round_list"][0]["boards"][mine as usize - 1]["result"], "1/2-1/2", "{v}");

    // An administrator who plays is held to the same rule.
    let (admin_id, admin) = server.register("Admin").await;
    server.state.store.set_admin(&admin_id, true).await.unwrap();
    let v = ok(
        &server,
        &admin,
        "/api/tournaments",
        Some(json!({"name": "Staff cup", "system": "round_robin", "mode": "otb", "time_control": "-",
                    "rated": false})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    ok(&server, &admin, &format!("/api/tournament/{id}/join"), None).await;
    for name in ["A", "B", "C"] {
        ok(&server, &admin, &format!("/api/tournament/{id}/player"), Some(json!({"name": name}))).await;
    }
    let v = ok(&server, &admin, &format!("/api/tournament/{id}/start"), None).await;
    let (mine, _) = boards_of(&v, v["your_no"].as_u64().unwrap());
    let (s, e) =
        call(&server, &admin, "POST", &format!("/api/tournament/{id}/result"), Some(res(1, mine, "0-1"))).await;
    assert_own_board(s, &e);
}

#[tokio::test]
async fn an_arbiter_who_plays_cannot_judge_their_own_game_over_http_or_the_websocket() {
    let server = TestServer::start(&temp_db("conflict_arbiter")).await;
    let (_, org) = server.register("Organiser").await;
    let mut sessions = Vec::new();
    for name in ["Judge", "Anna", "Bo", "Chen"] {
        sessions.push(server.register(name).await.1);
    }
    let judge = sessions[0].clone();
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Judged", "system": "round_robin", "mode": "online", "presence_check": false,
                    "time_control": "600+5", "rated": false})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    for s in &sessions {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    ok(&server, &org, &format!("/api/tournament/{id}/arbiter"), Some(json!({"name": "Judge"}))).await;
    ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let (_, v) = call(&server, &judge, "GET", &format!("/api/tournament/{id}"), None).await;
    assert!(v["you_arbitrate"].as_bool().unwrap(), "{v}");
    let (mine, other) = boards_of(&v, v["your_no"].as_u64().unwrap());
    let game = |b: u32| v["round_list"][0]["boards"][b as usize - 1]["game_id"].as_str().unwrap().to_owned();
    let (my_game, other_game) = (game(mine), game(other));
    // The games are created just after the round is written.
    for gid in [&my_game, &other_game] {
        for _ in 0..200 {
            if call(&server, "", "GET", &format!("/api/game/{gid}"), None).await.0 == 200 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    let path = format!("/api/tournament/{id}/result");

    // Over HTTP, before anyone moved: not their own board.
    let (s, e) = call(&server, &judge, "POST", &path, Some(res(1, mine, "1-0"))).await;
    assert_own_board(s, &e);
    // Over the WebSocket: no arbiter's act in their own game, not told they arbitrate it.
    let mut ws = server.ws(&judge).await;
    ws.ok(json!({"t": "subscribe", "game_id": my_game})).await;
    assert!(!ws.inbox.iter().any(|f| f["t"] == "arbiter"), "{:?}", ws.inbox);
    for act in [
        json!({"t": "set_result", "result": "1-0", "reason": "the opponent did not come"}),
        json!({"t": "add_time", "color": "white", "ms": 60_000}),
        json!({"t": "add_time", "color": "black", "ms": 60_000}),
        json!({"t": "pause"}),
    ] {
        let e = ws.request(json!({"t": "arbiter", "game_id": my_game, "act": act})).await;
        assert_eq!((e["t"].as_str(), e["code"].as_str()), (Some("error"), Some("own_board")), "{act}: {e}");
    }
    let (_, g) = call(&server, "", "GET", &format!("/api/game/{my_game}"), None).await;
    assert_eq!(g["result"], "*", "their game goes on: {g}");

    // The other board: they are its arbiter, over the WebSocket and over HTTP.
    let mut wo = server.ws(&judge).await;
    wo.ok(json!({"t": "subscribe", "game_id": other_game})).await;
    assert!(wo.inbox.iter().any(|f| f["t"] == "arbiter"), "{:?}", wo.inbox);
    wo.ok(json!({"t": "arbiter", "game_id": other_game, "act": {"t": "add_time", "color": "black", "ms": 60_000}}))
        .await;
    assert_eq!(wo.event(&other_game, "arbiter_acted").await["act"], "add_time");
    let v = ok(&server, &judge, &path, Some(res(1, other, "1-0"))).await;
    assert_eq!(v["round_list"][0]["boards"][other as usize - 1]["result"], "1-0", "{v}");
    assert!(v["round_list"][0]["boards"][mine as usize - 1]["result"].is_null(), "{v}");
}

#[tokio::test]
async fn rated_tournaments_are_for_administrators_unless_the_host_allows_everyone() {
    let rated = |name: &str| {
        json!({"name": name, "system": "swiss", "mode": "online", "time_control": "600+5", "rated": true,
               "rounds": 3})
    };
    let server = TestServer::start(&temp_db("conflict_rated")).await;
    let (_, plain) = server.register("Plain").await;
    let (s, e) = call(&server, &plain, "POST", "/api/tournaments", Some(rated("Mine"))).await;
    assert_eq!((s, e["code"].as_str()), (403, Some("rated_needs_admin")), "{e}");
    assert!(e["error"].as_str().unwrap().contains("administrator"), "{e}");
    assert!(e["message_zh"].as_str().unwrap().contains("管理员"), "{e}");
    // Casual ones are anybody's.
    let mut casual = rated("Casual");
    casual["rated"] = json!(false);
    ok(&server, &plain, "/api/tournaments", Some(casual)).await;
    let (admin_id, admin) = server.register("Admin").await;
    server.state.store.set_admin(&admin_id, true).await.unwrap();
    let v = ok(&server, &admin, "/api/tournaments", Some(rated("Official"))).await;
    assert_eq!(v["rated"], true, "{v}");

    // A host who allows everyone.
    let server =
        TestServer::start_with(&temp_db("conflict_rated_all"), |c| c.rated_tournaments = RatedTournaments::Everyone)
            .await;
    let (_, plain) = server.register("Plain").await;
    let v = ok(&server, &plain, "/api/tournaments", Some(rated("Mine"))).await;
    assert_eq!(v["rated"], true, "{v}");
}

#[tokio::test]
async fn an_arbiters_result_before_any_move_is_not_rated() {
    let server = TestServer::start(&temp_db("conflict_unrated")).await;
    let (admin_id, org) = server.register("Organiser").await;
    server.state.store.set_admin(&admin_id, true).await.unwrap();
    let (_, judge) = server.register("Judge").await;
    let mut before = Vec::new();
    for name in ["Anna", "Bo"] {
        let (uid, _) = server.register(name).await;
        let points = server.state.store.user(&uid).await.unwrap().unwrap().points;
        before.push((uid, points));
    }
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Rated cup", "system": "round_robin", "mode": "online", "presence_check": false,
                    "time_control": "600+5", "rated": true})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    for name in ["Anna", "Bo"] {
        let (s, _) =
            call(&server, &org, "POST", &format!("/api/tournament/{id}/players"), Some(json!({"text": name}))).await;
        assert_eq!(s, 200);
    }
    ok(&server, &org, &format!("/api/tournament/{id}/arbiter"), Some(json!({"name": "Judge"}))).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let gid = v["round_list"][0]["boards"][0]["game_id"].as_str().unwrap().to_owned();
    let mut ws = server.ws(&judge).await;
    for _ in 0..200 {
        if ws.request(json!({"t": "subscribe", "game_id": gid})).await["t"] == "ack" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (_, g) = call(&server, "", "GET", &format!("/api/game/{gid}"), None).await;
    assert_eq!(g["rated"], true, "a rated tournament's game starts rated: {g}");
    ws.ok(json!({"t": "arbiter", "game_id": gid,
                 "act": {"t": "set_result", "result": "1-0", "reason": "Black did not come"}}))
        .await;
    let ended = ws.event(&gid, "game_ended").await;
    assert_eq!(ended["result"], "1-0", "{ended}");

    // The game is stored unrated, nobody's rating or points moved, and the tournament scores the board.
    let (row, moves) = server.state.store.game(&gid).await.unwrap().unwrap();
    assert_eq!((row.rated, row.result.as_deref(), moves.len()), (false, Some("1-0"), 0), "{row:?}");
    assert_eq!((row.white_rating_diff, row.black_rating_diff), (None, None), "{row:?}");
    let (_, g) = call(&server, "", "GET", &format!("/api/game/{gid}"), None).await;
    assert_eq!((g["rated"].as_bool(), g["result"].as_str()), (Some(false), Some("1-0")), "{g}");
    for (uid, points) in &before {
        assert!(server.state.store.ratings(uid).await.unwrap().is_empty(), "{uid} has a rating now");
        assert_eq!(server.state.store.user(uid).await.unwrap().unwrap().points, *points, "{uid}'s points");
    }
    for _ in 0..200 {
        let (_, v) = call(&server, "", "GET", &format!("/api/tournament/{id}"), None).await;
        if v["round_list"][0]["boards"][0]["result"] == "1-0" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("the tournament did not take the arbiter's result");
}

#[tokio::test]
async fn an_organiser_who_plays_a_round_robin_cannot_withdraw_an_opponent_to_win_by_forfeit() {
    let server = TestServer::start(&temp_db("conflict_withdraw")).await;
    let (_, org) = server.register("Organiser").await;
    let (_, judge) = server.register("Judge").await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Club night", "system": "round_robin", "mode": "otb", "time_control": "-",
                    "rated": false})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    ok(&server, &org, &format!("/api/tournament/{id}/join"), None).await;
    for name in ["Li Lei", "Han Meimei", "Wang Fang"] {
        ok(&server, &org, &format!("/api/tournament/{id}/player"), Some(json!({"name": name}))).await;
    }
    ok(&server, &org, &format!("/api/tournament/{id}/arbiter"), Some(json!({"name": "Judge"}))).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let me = v["your_no"].as_u64().unwrap();
    let other = (1..=4).find(|&n| n != me).unwrap();
    // A withdrawal forfeits the player's remaining games to their opponents, the organiser among them.
    let path = format!("/api/tournament/{id}/withdraw");
    let (s, e) = call(&server, &org, "POST", &path, Some(json!({"no": other}))).await;
    assert_own_board(s, &e);
    let v = ok(&server, &judge, &path, Some(json!({"no": other}))).await;
    let p = v["players"].as_array().unwrap().iter().find(|p| p["no"] == other).unwrap().clone();
    assert_eq!(p["withdrawn"], true, "{v}");
}
