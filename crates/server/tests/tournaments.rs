//! Tournaments on a real server (issue 18; docs/tournament.md "On the server"): an online Swiss whose rounds'
//! games are created, played over the WebSocket and scored into the standings, round after round, rated; an
//! over-the-board round-robin whose results the organiser and a named arbiter enter; a first-move timeout scored as
//! a forfeit; a running tournament picked up after a crash; and the refusals, each with its reason.

mod common;

use std::time::Duration;

use common::{TestServer, Ws, play, temp_db};
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

async fn call(server: &TestServer, session: &str, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
    let url = server.url(path);
    let req = match method {
        "GET" => client().get(url),
        _ => client().post(url),
    }
    .bearer_auth(session);
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

async fn get(server: &TestServer, id: &str) -> Value {
    let (s, v) = call(server, "", "GET", &format!("/api/tournament/{id}"), None).await;
    assert_eq!(s, 200, "{v}");
    v
}

/// Waits until the tournament satisfies `pred` (results arrive from the games' actors, rounds after a pause).
async fn until(server: &TestServer, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
    // Up to 30 s: the round's presence check looks again every 5 s, and a loaded 2-core machine (the whole test
    // suite at once) can stretch that.
    for _ in 0..600 {
        let v = get(server, id).await;
        if pred(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("tournament {id}: {what}: {}", get(server, id).await);
}

/// The sessions of four registered players and an organiser who does not play.
async fn people(server: &TestServer) -> (String, Vec<(String, String)>) {
    let (_, org) = server.register("Organiser").await;
    let mut players = Vec::new();
    for name in ["Anna", "Bo", "Chen", "Dora"] {
        let (id, s) = server.register(name).await;
        players.push((id, s));
    }
    (org, players)
}

/// Plays a round's games: White wins on boards where `white_wins`, else a draw (by agreement after two moves).
async fn play_round(server: &TestServer, v: &Value, round: usize, sessions: &[(String, String)], white_wins: bool) {
    let r = &v["round_list"][round - 1];
    for b in r["boards"].as_array().unwrap() {
        let gid = b["game_id"].as_str().expect("an online board has its game").to_owned();
        // The round is written before its games are created (so that a crash between cannot lose them): wait for
        // the game.
        for _ in 0..100 {
            if client().get(server.url(&format!("/api/game/{gid}"))).send().await.unwrap().status() == 200 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
        let no = |k: &str| b[k].as_u64().unwrap();
        let player = |no: u64| {
            let p = v["players"].as_array().unwrap().iter().find(|p| p["no"] == no).unwrap();
            let name = p["name"].as_str().unwrap().to_lowercase();
            sessions.iter().find(|(id, _)| *id == name).unwrap().1.clone()
        };
        let mut w: Ws = server.ws(&player(no("white"))).await;
        let mut bl: Ws = server.ws(&player(no("black"))).await;
        w.ok(json!({"t": "subscribe", "game_id": gid})).await;
        bl.ok(json!({"t": "subscribe", "game_id": gid})).await;
        play(&mut w, &gid, "e2e4").await;
        // No takebacks in a tournament game.
        let e = w.request(json!({"t": "game", "game_id": gid, "action": {"t": "takeback_offer"}})).await;
        assert_eq!(e["code"], "tournament_game", "{e}");
        play(&mut bl, &gid, "e7e5").await;
        if white_wins {
            bl.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
        } else {
            play(&mut w, &gid, "g1f3").await;
            bl.ok(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "b8c6", "offer_draw": true}}))
                .await;
            w.ok(json!({"t": "game", "game_id": gid, "action": {"t": "accept_draw"}})).await;
        }
        // No rematch after it.
        let e = w.request(json!({"t": "game", "game_id": gid, "action": {"t": "rematch_offer"}})).await;
        assert_eq!(e["code"], "tournament_game", "{e}");
    }
}

#[tokio::test]
async fn an_online_swiss_plays_its_rounds_and_ranks_the_players() {
    let server = TestServer::start(&temp_db("tour_swiss")).await;
    let (org, players) = people(&server).await;
    // A rated tournament is an administrator's (`--rated-tournaments admins`, the default).
    server.state.store.set_admin("organiser", true).await.unwrap();
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Club Swiss", "system": "swiss", "mode": "online", "presence_check": false,
                    "time_control": "600+5",
                    "rated": true, "rounds": 3, "round_gap_s": 0})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    assert_eq!((v["status"].as_str(), v["you_organise"].as_bool()), (Some("open"), Some(true)), "{v}");
    assert_eq!(v["tie_breaks"][0], "BH-C1");
    for (_, s) in &players {
        let v = ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
        assert!(v["you_joined"].as_bool().unwrap());
    }
    // Only the organiser starts it.
    let (s, e) = call(&server, &players[0].1, "POST", &format!("/api/tournament/{id}/start"), None).await;
    assert_eq!((s, e["code"].as_str()), (403, Some("not_organiser")), "{e}");
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    assert_eq!(v["status"], "running");
    assert_eq!(v["round_list"].as_array().unwrap().len(), 1);
    assert_eq!(v["round_list"][0]["boards"].as_array().unwrap().len(), 2);
    // Entries are numbered 1..=4 (all unrated newcomers: by rating, then by name).
    let nos: Vec<u64> = v["players"].as_array().unwrap().iter().map(|p| p["no"].as_u64().unwrap()).collect();
    assert_eq!(nos, vec![1, 2, 3, 4]);

    play_round(&server, &v, 1, &players, true).await;
    let v = until(&server, &id, "round 2 paired", |v| v["round_list"].as_array().unwrap().len() == 2).await;
    assert!(v["round_list"][0]["finished"].as_bool().unwrap());
    assert!(v["round_list"][0]["boards"].as_array().unwrap().iter().all(|b| b["result"] == "1-0"), "{v}");
    // After round 1 the two winners lead with 1 point each.
    assert_eq!(v["standings"].as_array().unwrap().iter().filter(|r| r["score"] == 1.0).count(), 2, "{v}");
    // The winners meet in round 2 (the Dutch system pairs within the score group).
    let winners: Vec<u64> =
        v["round_list"][0]["boards"].as_array().unwrap().iter().map(|b| b["white"].as_u64().unwrap()).collect();
    let b1 = &v["round_list"][1]["boards"][0];
    let mut top = vec![b1["white"].as_u64().unwrap(), b1["black"].as_u64().unwrap()];
    top.sort_unstable();
    let mut w = winners.clone();
    w.sort_unstable();
    assert_eq!(top, w, "{v}");

    play_round(&server, &v, 2, &players, false).await;
    let v = until(&server, &id, "round 3 paired", |v| v["round_list"].as_array().unwrap().len() == 3).await;
    play_round(&server, &v, 3, &players, true).await;
    let v = until(&server, &id, "finished", |v| v["status"] == "finished").await;
    let standings = v["standings"].as_array().unwrap();
    assert_eq!(standings.len(), 4);
    let total: f64 = standings.iter().map(|r| r["score"].as_f64().unwrap()).sum();
    assert_eq!(total, 6.0, "six games, one point each: {v}");
    assert_eq!(standings[0]["rank"], 1);
    // Every row has a value for every tie-break of the order (ARO may be null: all newcomers are rated here).
    for r in standings {
        assert_eq!(r["tie_breaks"].as_array().unwrap().len(), v["tie_breaks"].as_array().unwrap().len());
    }
    // The crosstable has three rounds for everyone.
    for line in v["crosstable"].as_array().unwrap() {
        assert_eq!(line["cells"].as_array().unwrap().len(), 3);
    }

    // Rated: each player's rapid rating counts the three games.
    let profile: Value = client().get(server.url("/api/user/Anna")).send().await.unwrap().json().await.unwrap();
    assert_eq!(profile["perfs"]["rapid"]["games"], 3, "{profile}");

    // Every game in one PGN, with the event and round.board.
    let (s, pgn) = call(&server, "", "GET", &format!("/api/tournament/{id}/pgn"), None).await;
    assert_eq!(s, 200);
    let pgn = pgn.as_str().unwrap().to_owned();
    assert_eq!(pgn.matches("[Event \"Club Swiss\"]").count(), 6, "{pgn}");
    assert!(pgn.contains("[Round \"1.1\"]") && pgn.contains("[Round \"3.2\"]"), "{pgn}");
    // The TRF export reads back with the same standings.
    let (s, trf) = call(&server, "", "GET", &format!("/api/tournament/{id}/trf"), None).await;
    assert_eq!(s, 200);
    let trf = trf.as_str().unwrap().to_owned();
    let t = guoxiang_tournament::trf::parse(&trf).unwrap();
    assert_eq!((t.rounds, t.rounds_played(), t.players.len()), (Some(3), 3, 4));
    let imported = ok(&server, &org, "/api/tournaments/import", Some(json!({"trf": trf}))).await;
    assert_eq!(imported["mode"], "otb");
    assert_eq!(imported["status"], "finished");
    let scores = |v: &Value| -> Vec<(u64, f64)> {
        v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| (r["no"].as_u64().unwrap(), r["score"].as_f64().unwrap()))
            .collect()
    };
    assert_eq!(scores(&imported), scores(&v));
    assert_eq!(imported["standings"][0]["tie_breaks"], v["standings"][0]["tie_breaks"]);

    // Listed.
    let (_, list) = call(&server, "", "GET", "/api/tournaments", None).await;
    assert!(list["tournaments"].as_array().unwrap().iter().any(|t| t["id"] == id.as_str() && t["current_round"] == 3));
}

#[tokio::test]
async fn an_over_the_board_round_robin_takes_results_from_the_organiser_and_an_arbiter() {
    let server = TestServer::start(&temp_db("tour_otb")).await;
    let (org, players) = people(&server).await;
    let (_, arbiter) = server.register("Judge").await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "School round-robin", "system": "round_robin", "mode": "otb", "time_control": "-",
                    "rated": false, "rules": "touch_move+illegal_moves_count"})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    assert_eq!(v["rules"], "touch_move+illegal_moves_count");
    for (name, rating) in [("Li Lei", 1800), ("Han Meimei", 1900), ("Wang Fang", 1700)] {
        ok(&server, &org, &format!("/api/tournament/{id}/player"), Some(json!({"name": name, "rating": rating}))).await;
    }
    // Players enter over the board by name only: nobody else adds them.
    let (s, e) =
        call(&server, &players[0].1, "POST", &format!("/api/tournament/{id}/player"), Some(json!({"name": "X"}))).await;
    assert_eq!((s, e["code"].as_str()), (403, Some("not_organiser")), "{e}");
    ok(&server, &org, &format!("/api/tournament/{id}/arbiter"), Some(json!({"name": "Judge"}))).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    // Three players: three rounds (Berger's table for 4, the fourth number the bye); ranks by rating.
    assert_eq!(v["rounds"], 3);
    assert_eq!(v["players"][0]["name"], "Han Meimei");
    let r1 = &v["round_list"][0];
    assert_eq!(r1["boards"].as_array().unwrap().len(), 1);
    assert_eq!(r1["byes"].as_array().unwrap().len(), 1);
    assert_eq!(r1["byes"][0]["kind"], "zero");
    // FIDE's table for 4, round 1: 1-4 (the bye, as 4 does not exist) and 2-3.
    assert_eq!((r1["boards"][0]["white"].as_u64(), r1["boards"][0]["black"].as_u64()), (Some(2), Some(3)));
    assert_eq!(r1["byes"][0]["no"], 1);
    assert!(r1["boards"][0]["game_id"].is_null(), "over the board: no game is created");

    // A player cannot enter a result; the named arbiter can.
    let res = |round: u32, board: u32, result: &str| json!({"round": round, "board": board, "result": result});
    let (s, e) =
        call(&server, &players[1].1, "POST", &format!("/api/tournament/{id}/result"), Some(res(1, 1, "1-0"))).await;
    assert_eq!((s, e["code"].as_str()), (403, Some("not_organiser")), "{e}");
    let v = ok(&server, &arbiter, &format!("/api/tournament/{id}/result"), Some(res(1, 1, "0-1"))).await;
    assert!(v["you_arbitrate"].as_bool().unwrap() && !v["you_organise"].as_bool().unwrap());
    // Over the board nothing is paired by itself: the arbiter pairs round 2.
    let (s, e) = call(&server, &arbiter, "POST", &format!("/api/tournament/{id}/result"), Some(res(2, 1, "1-0"))).await;
    assert_eq!((s, e["code"].as_str()), (400, Some("bad_request")), "{e}");
    let v = ok(&server, &arbiter, &format!("/api/tournament/{id}/pair"), None).await;
    assert_eq!(v["round_list"].as_array().unwrap().len(), 2);
    // The round is not finished: round 3 cannot be paired yet.
    let (s, e) = call(&server, &org, "POST", &format!("/api/tournament/{id}/pair"), None).await;
    assert_eq!((s, e["code"].as_str()), (409, Some("round_not_finished")), "{e}");
    ok(&server, &org, &format!("/api/tournament/{id}/result"), Some(res(2, 1, "1/2-1/2"))).await;
    // Player 3 withdraws: their round-3 game is forfeited to the opponent when it is paired.
    ok(&server, &org, &format!("/api/tournament/{id}/withdraw"), Some(json!({"no": 3}))).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/pair"), None).await;
    let r3 = &v["round_list"][2];
    let b = &r3["boards"][0];
    let expected = if b["white"] == 3 { "-+" } else { "+-" };
    assert_eq!(b["result"], expected, "{v}");
    assert_eq!(v["status"], "finished", "the last round had only the forfeit: {v}");
    let scores: Vec<(u64, f64)> = v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["no"].as_u64().unwrap(), r["score"].as_f64().unwrap()))
        .collect();
    assert_eq!(scores.iter().map(|s| s.1).sum::<f64>(), 3.0, "{v}");
    // Bad input is named: a tie-break that does not exist.
    let (s, e) = call(
        &server,
        &org,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "x", "system": "swiss", "mode": "otb", "time_control": "-", "rated": false,
                    "rounds": 5, "tie_breaks": ["BH", "XYZ"]})),
    )
    .await;
    assert_eq!((s, e["code"].as_str()), (400, Some("bad_tie_break")), "{e}");
    assert!(e["error"].as_str().unwrap().contains("XYZ"), "{e}");
    let (s, e) = call(&server, &org, "POST", "/api/tournaments/import", Some(json!({"trf": "001 nonsense"}))).await;
    assert_eq!((s, e["code"].as_str()), (400, Some("bad_trf")), "{e}");
    assert!(e["error"].as_str().unwrap().contains("line 1"), "{e}");
}

#[tokio::test]
async fn a_player_who_does_not_make_the_first_move_loses_by_forfeit() {
    let server = TestServer::start_with(&temp_db("tour_forfeit"), |c| c.first_move_timeout_ms = Some(400)).await;
    let (org, players) = people(&server).await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Blitz", "system": "swiss", "mode": "online", "time_control": "180+2",
                    "rated": false, "rounds": 1, "first_move_grace_s": 1})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    // The organiser's grace, not the server's first-move time, decides (here short, for the test).
    assert_eq!(v["first_move_grace_s"], 1, "{v}");
    for (_, s) in &players[..2] {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
        // Both are at the tournament page: the presence check pairs them; White then never moves.
        let (status, _) = call(&server, s, "GET", &format!("/api/tournament/{id}"), None).await;
        assert_eq!(status, 200);
    }
    ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let v = until(&server, &id, "the absent player forfeited", |v| v["status"] == "finished").await;
    assert_eq!(v["round_list"][0]["boards"][0]["result"], "-+", "White never moved: {v}");
    let black = v["round_list"][0]["boards"][0]["black"].as_u64().unwrap();
    let winner = v["standings"].as_array().unwrap().iter().find(|r| r["no"] == black).unwrap();
    assert_eq!(winner["score"], 1.0);
    // A forfeit is not a game played: no Buchholz from it for the winner's opponents' sake, no WON.
    let won = v["tie_breaks"].as_array().unwrap().iter().position(|t| t == "WIN").unwrap();
    assert_eq!(winner["tie_breaks"][won], 1.0);
}

#[tokio::test]
async fn a_running_tournament_goes_on_after_a_crash() {
    let db = temp_db("tour_crash");
    let server = TestServer::start(&db).await;
    let (org, players) = people(&server).await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Crash cup", "system": "round_robin", "mode": "online", "presence_check": false,
                    "time_control": "600+5",
                    "rated": false, "round_gap_s": 0})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    for (_, s) in &players[..2] {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    assert_eq!(v["rounds"], 1);
    server.crash().await;
    let server = TestServer::start(&db).await;
    // The game was restored with the server; its result reaches the tournament through the new server's listener.
    play_round(&server, &v, 1, &players, true).await;
    let v = until(&server, &id, "finished after the restart", |v| v["status"] == "finished").await;
    assert_eq!(v["round_list"][0]["boards"][0]["result"], "1-0");
    // Leaving after the end is refused with the reason.
    let (s, e) = call(&server, &players[0].1, "POST", &format!("/api/tournament/{id}/leave"), None).await;
    assert_eq!((s, e["code"].as_str()), (409, Some("not_running")), "{e}");
}

#[tokio::test]
async fn the_tournaments_arbiter_arbitrates_its_games_and_nobody_else_does() {
    let server = TestServer::start(&temp_db("tour_arbiter")).await;
    let (org, players) = people(&server).await;
    let (_, judge) = server.register("Judge").await;
    let (_, stranger) = server.register("Stranger").await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Judged", "system": "round_robin", "mode": "online", "presence_check": false,
                    "time_control": "600+5",
                    "rated": false})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    for (_, s) in &players[..2] {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    ok(&server, &org, &format!("/api/tournament/{id}/arbiter"), Some(json!({"name": "Judge"}))).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let gid = v["round_list"][0]["boards"][0]["game_id"].as_str().unwrap().to_owned();
    // The game knows its tournament (the game page links back to it).
    let (_, link) = call(&server, "", "GET", &format!("/api/game/{gid}/tournament"), None).await;
    assert_eq!(link, json!({"id": id, "name": "Judged", "system": "round_robin", "round": 1, "board": 1}));
    let (_, none) = call(&server, "", "GET", "/api/game/nosuchgame/tournament", None).await;
    assert_eq!(none, Value::Null);
    let add_time = json!({"t": "arbiter", "game_id": gid, "act": {"t": "add_time", "color": "black", "ms": 60_000}});
    let mut ws = server.ws(&stranger).await;
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let e = ws.request(add_time.clone()).await;
    assert_eq!(e["code"], "not_arbiter", "{e}");
    for who in [&judge, &org] {
        let mut ws = server.ws(who).await;
        ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
        ws.ok(add_time.clone()).await;
        let acted = ws.event(&gid, "arbiter_acted").await;
        assert_eq!(acted["act"], "add_time", "{acted}");
    }
}

#[tokio::test]
async fn an_arena_pairs_players_again_as_their_games_end() {
    let server = TestServer::start(&temp_db("tour_arena")).await;
    let (org, players) = people(&server).await;
    let (s, e) = call(
        &server,
        &org,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "x", "system": "arena", "mode": "otb", "time_control": "-", "rated": false})),
    )
    .await;
    assert_eq!((s, e["code"].as_str()), (400, Some("bad_request")), "an arena is online: {e}");
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Hourly arena", "system": "arena", "mode": "online", "time_control": "180+2",
                    "rated": false, "minutes": 30})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    assert_eq!(v["arena"]["minutes"], 30);
    for (_, s) in &players {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    assert_eq!(v["status"], "running");
    let ends = v["arena"]["ends_at_ms"].as_i64().unwrap();
    assert_eq!(ends - v["arena"]["started_at_ms"].as_i64().unwrap(), 30 * 60_000);
    let games = v["arena"]["games"].as_array().unwrap().clone();
    assert_eq!(games.len(), 2, "four waiting players, two games: {v}");
    let (_, pair) = call(&server, &org, "POST", &format!("/api/tournament/{id}/pair"), None).await;
    assert_eq!(pair["code"], "arena", "an arena has no rounds: {pair}");
    let session = |no: u64, v: &Value| {
        let p = v["players"].as_array().unwrap().iter().find(|p| p["no"] == no).unwrap();
        let name = p["name"].as_str().unwrap().to_lowercase();
        players.iter().find(|(id, _)| *id == name).unwrap().1.clone()
    };
    // Both games end with White winning (after two moves each).
    for g in &games {
        let gid = g["game_id"].as_str().unwrap();
        let mut w = server.ws(&session(g["white"].as_u64().unwrap(), &v)).await;
        let mut b = server.ws(&session(g["black"].as_u64().unwrap(), &v)).await;
        w.ok(json!({"t": "subscribe", "game_id": gid})).await;
        b.ok(json!({"t": "subscribe", "game_id": gid})).await;
        play(&mut w, gid, "e2e4").await;
        play(&mut b, gid, "e7e5").await;
        b.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    }
    // The four are paired again, never against the opponent they just played.
    let v = until(&server, &id, "paired again", |v| v["arena"]["games"].as_array().unwrap().len() == 4).await;
    let newest: Vec<(u64, u64)> = v["arena"]["games"].as_array().unwrap()[..2]
        .iter()
        .map(|g| (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap()))
        .collect();
    for g in &games {
        let old = (g["white"].as_u64().unwrap(), g["black"].as_u64().unwrap());
        for n in &newest {
            assert!(*n != old && *n != (old.1, old.0), "an immediate rematch {n:?}: {v}");
        }
    }
    // The standings: the two winners have 2 points, the others 0, each with a sheet of one game.
    let rows = v["arena"]["standings"].as_array().unwrap();
    let mut scores: Vec<u64> = rows.iter().map(|r| r["score"].as_u64().unwrap()).collect();
    scores.sort_unstable();
    assert_eq!(scores, vec![0, 0, 2, 2], "{v}");
    assert!(rows.iter().all(|r| r["sheet"].as_array().unwrap().len() == 1));
    // A player pauses and comes back.
    let (_, s0) = &players[0];
    let v = ok(&server, s0, &format!("/api/tournament/{id}/leave"), None).await;
    let me = v["your_no"].as_u64().unwrap();
    let row = |v: &Value| v["arena"]["standings"].as_array().unwrap().iter().find(|r| r["no"] == me).unwrap().clone();
    assert_eq!(row(&v)["paused"], true);
    let v = ok(&server, s0, &format!("/api/tournament/{id}/join"), None).await;
    assert_eq!(row(&v)["paused"], false);
}

#[tokio::test]
async fn a_swiss_keeps_forbidden_pairs_apart_and_gives_requested_byes() {
    let server = TestServer::start(&temp_db("tour_byes")).await;
    let (org, players) = people(&server).await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Family Swiss", "system": "swiss", "mode": "otb", "time_control": "-", "rated": false,
                    "rounds": 3})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    // Entered in this order (provisional numbers 1–5); ranked by rating at the start: Wu 1, Li 2, Xu 3, Ma 4, Zhao 5.
    for (name, rating) in [("Li", 2100), ("Xu", 2000), ("Wu", 2200), ("Ma", 1900), ("Zhao", 1800)] {
        ok(&server, &org, &format!("/api/tournament/{id}/player"), Some(json!({"name": name, "rating": rating}))).await;
    }
    // Li and Ma are brother and sister: never paired (by the Dutch system Li, 2, would meet Ma, 4... or Zhao).
    ok(&server, &org, &format!("/api/tournament/{id}/forbid"), Some(json!({"a": 1, "b": 4}))).await;
    // Xu asks for a half-point bye in round 1.
    let v = ok(&server, &org, &format!("/api/tournament/{id}/bye"), Some(json!({"no": 2}))).await;
    assert_eq!(v["next_round_byes"], json!([2]));
    // Nobody else may ask for someone else's bye.
    let (s, e) =
        call(&server, &players[0].1, "POST", &format!("/api/tournament/{id}/bye"), Some(json!({"no": 3}))).await;
    assert_eq!((s, e["code"].as_str()), (403, Some("not_organiser")), "{e}");
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let no = |name: &str| {
        v["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["no"].as_u64().unwrap()
    };
    assert_eq!((no("Wu"), no("Li"), no("Xu"), no("Ma"), no("Zhao")), (1, 2, 3, 4, 5));
    assert_eq!(v["forbidden"], json!([{"a": 2, "b": 4}]), "the pair follows its players to their ranks");
    let r1 = &v["round_list"][0];
    let byes = r1["byes"].as_array().unwrap();
    assert!(byes.iter().any(|b| b["no"] == 3 && b["kind"] == "half" && b["points"] == 0.5), "{r1}");
    for b in r1["boards"].as_array().unwrap() {
        let pair = (
            b["white"].as_u64().unwrap().min(b["black"].as_u64().unwrap()),
            b["white"].as_u64().unwrap().max(b["black"].as_u64().unwrap()),
        );
        assert_ne!(pair, (2, 4), "a forbidden pair met: {r1}");
    }
    assert_eq!(r1["boards"].as_array().unwrap().len(), 2, "four play, Xu has the bye: {r1}");
    // The TRF export names the forbidden pair for other pairing programs.
    let (_, trf) = call(&server, "", "GET", &format!("/api/tournament/{id}/trf"), None).await;
    assert!(trf.as_str().unwrap().contains("XXP 2 4"), "{trf}");
}

#[tokio::test]
async fn a_tournament_starts_by_itself_at_its_time() {
    let server = TestServer::start(&temp_db("tour_scheduled")).await;
    let (org, players) = people(&server).await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64;
    let (s, e) = call(
        &server,
        &org,
        "POST",
        "/api/tournaments",
        Some(json!({"name": "Past", "system": "swiss", "mode": "online", "presence_check": false,
                    "time_control": "300+3", "rated": false,
                    "rounds": 3, "starts_at_ms": now - 1000})),
    )
    .await;
    assert_eq!((s, e["code"].as_str()), (400, Some("bad_request")), "{e}");
    assert!(e["error"].as_str().unwrap().starts_with("starts_at_ms"), "{e}");
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Evening Swiss", "system": "swiss", "mode": "online", "presence_check": false,
                    "time_control": "300+3",
                    "rated": false, "rounds": 3, "starts_at_ms": now + 2500})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    assert_eq!(v["starts_at_ms"], now + 2500);
    for (_, s) in &players[..3] {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    // Starting and pairing the first round are two steps: wait for the round, not only the status.
    let v = until(&server, &id, "started at its time", |v| {
        v["status"] == "running" && v["round_list"][0]["boards"].is_array()
    })
    .await;
    assert_eq!(v["round_list"][0]["boards"].as_array().unwrap().len(), 1);
    assert_eq!(v["round_list"][0]["byes"][0]["kind"], "pairing");
}

#[tokio::test]
async fn an_organiser_has_at_most_ten_tournaments_running() {
    let server = TestServer::start(&temp_db("tour_limit")).await;
    let (_, org) = server.register("Busy").await;
    let body =
        json!({"name": "Club night", "system": "round_robin", "mode": "otb", "time_control": "-", "rated": false});
    for _ in 0..10 {
        ok(&server, &org, "/api/tournaments", Some(body.clone())).await;
    }
    let (s, e) = call(&server, &org, "POST", "/api/tournaments", Some(body.clone())).await;
    assert_eq!((s, e["code"].as_str()), (429, Some("too_many_tournaments")), "{e}");
    // A guest organises none.
    let (_, guest) = server.guest().await;
    let (s, _) = call(&server, &guest, "POST", "/api/tournaments", Some(body)).await;
    assert_eq!(s, 401);
}

/// A player shows the tournament page (what the page's refresh does): present for the presence check.
async fn look(server: &TestServer, session: &str, id: &str) -> Value {
    let (s, v) = call(server, session, "GET", &format!("/api/tournament/{id}"), None).await;
    assert_eq!(s, 200, "{v}");
    v
}

/// The class of issue 38: four of six students are at the page, two are not. Nobody absent is paired into a
/// forfeit: the absent sit the round out (no game, no point), and come back into the pairing when they open the
/// page.
#[tokio::test]
async fn an_online_swiss_pairs_only_the_players_present() {
    let server = TestServer::start(&temp_db("tour_presence")).await;
    let (org, players) = people(&server).await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Class Swiss", "system": "swiss", "mode": "online", "time_control": "600+5",
                    "rated": false, "rounds": 3, "round_gap_s": 0})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    // Defaults for a class: the presence check on, five minutes to make the first move.
    assert_eq!((v["presence_check"].as_bool(), v["first_move_grace_s"].as_u64()), (Some(true), Some(300)), "{v}");
    for (_, s) in &players {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    // Anna and Bo are at the page; Chen and Dora are not.
    look(&server, &players[0].1, &id).await;
    let v = look(&server, &players[1].1, &id).await;
    let present = |v: &Value, name: &str| {
        v["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["present"].as_bool()
    };
    assert_eq!(
        ["Anna", "Bo", "Chen", "Dora"].map(|n| present(&v, n)),
        [Some(true), Some(true), Some(false), Some(false)],
        "the organiser sees who is here: {v}"
    );
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    let r1 = &v["round_list"][0];
    assert_eq!(r1["boards"].as_array().unwrap().len(), 1, "only the two present are paired: {v}");
    let byes = r1["byes"].as_array().unwrap();
    assert_eq!(byes.len(), 2, "{v}");
    assert!(byes.iter().all(|b| b["kind"] == "zero" && b["points"] == 0.0), "absent: no game, no point: {v}");
    let no_of = |v: &Value, name: &str| {
        v["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["no"].as_u64().unwrap()
    };
    let mut absent: Vec<u64> = byes.iter().map(|b| b["no"].as_u64().unwrap()).collect();
    absent.sort();
    let mut expected = vec![no_of(&v, "Chen"), no_of(&v, "Dora")];
    expected.sort();
    assert_eq!(absent, expected);
    // Chen arrives during round 1; Dora does not.
    look(&server, &players[2].1, &id).await;
    play_round(&server, &v, 1, &players, true).await;
    let v = until(&server, &id, "round 2 paired", |v| v["round_list"].as_array().unwrap().len() == 2).await;
    let r2 = &v["round_list"][1];
    assert_eq!(r2["boards"].as_array().unwrap().len(), 1, "{v}");
    let kinds: Vec<(u64, String)> =
        r2["byes"].as_array().unwrap().iter().map(|b| (b["no"].as_u64().unwrap(), b["kind"].to_string())).collect();
    assert!(kinds.contains(&(no_of(&v, "Dora"), "\"zero\"".into())), "Dora, still away, sits out: {kinds:?}");
    assert!(kinds.iter().any(|(_, k)| k == "\"pairing\""), "three present: one gets the pairing bye: {kinds:?}");
    // Nobody lost by forfeit.
    for r in v["round_list"].as_array().unwrap() {
        for b in r["boards"].as_array().unwrap() {
            assert!(!["+-", "-+", "--"].contains(&b["result"].as_str().unwrap_or("")), "{v}");
        }
    }
    // The TRF has the absences as zero-point byes, not forfeits.
    let trf =
        client().get(server.url(&format!("/api/tournament/{id}/trf"))).send().await.unwrap().text().await.unwrap();
    let dora = trf.lines().find(|l| l.starts_with("001") && l.contains("Dora")).unwrap();
    assert!(dora.contains("0000 - Z"), "{trf}");
}

/// A round-robin's table is fixed: its round waits until everyone is at the page, then starts by itself.
#[tokio::test]
async fn an_online_round_robin_waits_for_every_player() {
    let db = temp_db("tour_presence_rr");
    let server = TestServer::start(&db).await;
    let (org, players) = people(&server).await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Class RR", "system": "round_robin", "mode": "online", "time_control": "600+5",
                    "rated": false, "round_gap_s": 0, "first_move_grace_s": 600})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    assert_eq!(v["first_move_grace_s"], 600);
    for (_, s) in &players[..3] {
        ok(&server, s, &format!("/api/tournament/{id}/join"), None).await;
    }
    look(&server, &players[0].1, &id).await;
    look(&server, &players[1].1, &id).await;
    let v = ok(&server, &org, &format!("/api/tournament/{id}/start"), None).await;
    assert_eq!(v["status"], "running");
    assert_eq!(v["round_list"].as_array().unwrap().len(), 0, "Chen is not here: round 1 waits: {v}");
    assert!(v["next_round_at_ms"].is_i64(), "it looks again soon: {v}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(get(&server, &id).await["round_list"].as_array().unwrap().len(), 0);
    // The server stops while the round waits; the new one goes on waiting (presence is not stored: the players'
    // pages make them present again).
    server.crash().await;
    let server = TestServer::start(&db).await;
    look(&server, &players[0].1, &id).await;
    look(&server, &players[1].1, &id).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(get(&server, &id).await["round_list"].as_array().unwrap().len(), 0);
    look(&server, &players[2].1, &id).await;
    let v = until(&server, &id, "round 1 paired once all are here", |v| {
        // Keep the three present while waiting (the page refreshes itself).
        v["round_list"].as_array().unwrap().len() == 1
    })
    .await;
    assert_eq!(v["round_list"][0]["boards"].as_array().unwrap().len(), 1);
    assert!(v["round_list"][0]["boards"][0]["game_id"].is_string());
}

#[tokio::test]
async fn a_first_move_grace_out_of_range_is_refused_with_its_field() {
    let server = TestServer::start(&temp_db("tour_grace")).await;
    let (org, _) = people(&server).await;
    for grace in [0, 3601] {
        let (s, e) = call(
            &server,
            &org,
            "POST",
            "/api/tournaments",
            Some(json!({"name": "G", "system": "swiss", "mode": "online", "time_control": "600+5",
                        "rated": false, "rounds": 3, "first_move_grace_s": grace})),
        )
        .await;
        assert_eq!((s, e["code"].as_str()), (400, Some("bad_request")), "{e}");
        assert!(e["error"].as_str().unwrap().starts_with("first_move_grace_s"), "{e}");
    }
    // Over the board there is no online rule and no grace.
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "OTB", "system": "swiss", "mode": "otb", "time_control": "5400+30",
                    "rated": false, "rounds": 5})),
    )
    .await;
    assert_eq!((v["first_move_grace_s"].as_u64(), v["presence_check"].as_bool()), (Some(0), Some(false)), "{v}");
}

/// A teacher pastes the class list: online, each name must be an account; every wrong line is named, and nothing
/// is added until the list is right.
#[tokio::test]
async fn a_pasted_list_adds_a_class_or_names_its_wrong_lines() {
    let server = TestServer::start(&temp_db("tour_list")).await;
    let (org, _players) = people(&server).await;
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "Class", "system": "swiss", "mode": "online", "time_control": "600+5",
                    "rated": false, "rounds": 3})),
    )
    .await;
    let id = v["id"].as_str().unwrap().to_owned();
    let path = format!("/api/tournament/{id}/players");
    let (s, e) = call(&server, &org, "POST", &path, Some(json!({"text": "Anna\nBo, Nobody\nanna\n"}))).await;
    assert_eq!((s, e["code"].as_str()), (400, Some("bad_list")), "{e}");
    let lines: Vec<&str> = e["message_zh"].as_str().unwrap().lines().collect();
    assert_eq!(lines.len(), 2, "{e}");
    assert!(e["error"].as_str().unwrap().starts_with("line 2: there is no registered user \"Nobody\""), "{e}");
    assert!(lines.iter().any(|l| l.contains("第 2 行") && l.contains("Nobody")), "{e}");
    assert!(lines.iter().any(|l| l.contains("第 3 行") && l.contains("重复")), "{e}");
    assert_eq!(get(&server, &id).await["players"].as_array().unwrap().len(), 0, "nothing added");
    let v = ok(&server, &org, &path, Some(json!({"text": "Anna，Bo、Chen\nDora\n"}))).await;
    let names: Vec<&str> = v["players"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Anna", "Bo", "Chen", "Dora"]);
    assert!(v["players"].as_array().unwrap().iter().all(|p| p["user"].is_string()), "accounts: {v}");
    // Again: already in.
    let (s, e) = call(&server, &org, "POST", &path, Some(json!({"text": "Dora"}))).await;
    assert_eq!(s, 400);
    assert!(e["message_zh"].as_str().unwrap().contains("第 1 行"), "{e}");
    // Over the board: names with ratings.
    let v = ok(
        &server,
        &org,
        "/api/tournaments",
        Some(json!({"name": "OTB class", "system": "round_robin", "mode": "otb", "time_control": "-",
                    "rated": false})),
    )
    .await;
    let otb = v["id"].as_str().unwrap().to_owned();
    let v =
        ok(&server, &org, &format!("/api/tournament/{otb}/players"), Some(json!({"text": "王小明 1200\n李华"}))).await;
    let got: Vec<(String, Value)> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap().to_owned(), p["rating"].clone()))
        .collect();
    assert_eq!(got, [("王小明".to_owned(), json!(1200)), ("李华".to_owned(), Value::Null)]);
    // Only the organiser.
    let (s, _) =
        call(&server, &_players[0].1, "POST", &format!("/api/tournament/{otb}/players"), Some(json!({"text": "X"})))
            .await;
    assert_eq!(s, 403);
}
