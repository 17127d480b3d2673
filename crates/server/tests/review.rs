// SPDX-License-Identifier: GPL-3.0-or-later
//! Game reviews on the server: queued after a game against the computer and for accounts that ask, on request
//! for others; progress, the stored review, "learn from your mistakes" tries, the setting, and the PGN export
//! with evaluations. A small node budget keeps the reviews quick; what is asserted does not depend on it.

mod common;

use std::time::Duration;

use common::{TestServer, friend_game, play, temp_db};
use serde_json::{Value, json};

const NODES: u64 = 20_000;

async fn server(name: &str) -> TestServer {
    TestServer::start_with(&temp_db(name), |c| c.review_nodes = NODES).await
}

async fn call(
    server: &TestServer,
    method: reqwest::Method,
    path: &str,
    session: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = reqwest::Client::new().request(method, server.url(path));
    if let Some(s) = session {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    call(server, reqwest::Method::GET, path, None, None).await
}

/// Polls the review until it is done (or failed), checking that its progress never goes backwards.
async fn until_done(server: &TestServer, gid: &str) -> Value {
    let mut last = 0;
    for _ in 0..1200 {
        let (s, v) = get(server, &format!("/api/game/{gid}/review")).await;
        assert_eq!(s, 200, "{v}");
        match v["status"].as_str().unwrap() {
            "done" => return v,
            "failed" => panic!("review failed: {v}"),
            "running" => {
                let done = v["progress"]["done"].as_i64().unwrap();
                assert!(done >= last, "progress went back: {v}");
                assert!(done <= v["progress"]["total"].as_i64().unwrap(), "{v}");
                last = done;
            }
            "queued" => assert!(v["queue_place"].as_i64().unwrap() >= 1, "{v}"),
            // The game has just ended: the reviewer hears of it a moment later.
            "none" => {}
            other => panic!("unexpected status {other}: {v}"),
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("review of {gid} not done after a minute");
}

/// 1. e4 e5 2. Ba6?? bxa6, and White resigns: a friend game with a blunder at ply 3.
async fn blunder_game(server: &TestServer, white: &str, black: &str) -> String {
    let (gid, mut wa, mut wb) = friend_game(server, "-", white, black).await;
    for (i, m) in ["e2e4", "e7e5", "f1a6", "b7a6"].iter().enumerate() {
        play(if i % 2 == 0 { &mut wa } else { &mut wb }, &gid, m).await;
    }
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wa.event(&gid, "game_ended").await;
    gid
}

#[tokio::test]
async fn an_account_that_asks_has_its_games_reviewed_with_the_blunder_explained() {
    let server = server("review_auto").await;
    let (_, alice) = server.register("Alice").await;
    let (_, guest) = server.guest().await;
    let put = |body| call(&server, reqwest::Method::PUT, "/api/review/settings", Some(&alice), Some(body));
    let (s, v) = put(json!({"auto_review": true})).await;
    assert_eq!((s, &v["auto_review"]), (200, &json!(true)), "{v}");
    let (s, v) = call(&server, reqwest::Method::GET, "/api/review/settings", Some(&alice), None).await;
    assert_eq!((s, &v["auto_review"]), (200, &json!(true)), "{v}");

    let gid = blunder_game(&server, &alice, &guest).await;
    let v = until_done(&server, &gid).await;
    let r = &v["review"];
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4, "{r}");
    assert_eq!(moves[2]["san"], "Ba6");
    let class = moves[2]["class"].as_str().unwrap();
    assert!(class == "blunder" || class == "mistake", "Ba6 hangs the bishop: {}", moves[2]);
    assert_ne!(moves[2]["best"], "f1a6");
    // Hanging the bishop is an exercise of "learn from your mistakes"; the first moves are not.
    assert_eq!(moves[2]["exercise"], json!(true), "{}", moves[2]);
    assert_eq!((&moves[0]["exercise"], &moves[1]["exercise"]), (&json!(false), &json!(false)), "{r}");
    for lang in ["zh", "en"] {
        assert!(!moves[2]["comment"][lang].as_str().unwrap().is_empty(), "{}", moves[2]);
    }
    assert!(r["accuracy"]["white"].as_f64().unwrap() < r["accuracy"]["black"].as_f64().unwrap(), "{r}");
    assert!(r.get("pgn").is_none(), "the annotated PGN comes from the export");

    // The PGN export: plain by default, with the review's evaluations and comments on request.
    let export = |q: &'static str| {
        let url = server.url(&format!("/game/export/{gid}{q}"));
        async move {
            let r = reqwest::get(url).await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (s, plain) = export("").await;
    assert_eq!(s, 200);
    assert!(!plain.contains("%eval"), "{plain}");
    let (s, zh) = export("?evals=true").await;
    assert_eq!(s, 200);
    assert!(zh.contains("[%eval"), "{zh}");
    assert!(zh.contains("Ba6 $4") || zh.contains("Ba6 $2"), "the NAG on the blunder: {zh}");
    // The writer folds long lines: compare with the line breaks as spaces.
    let flat = |s: &str| s.replace('\n', " ");
    assert!(flat(&zh).contains(moves[2]["comment"]["zh"].as_str().unwrap()), "{zh}");
    let (_, en) = export("?evals=true&lang=en").await;
    assert!(flat(&en).contains(moves[2]["comment"]["en"].as_str().unwrap()), "{en}");
    let (s, _) = export("?evals=maybe").await;
    assert_eq!(s, 400);

    // Learn from your mistakes: the engine's move is right, the blunder again is not, and nonsense is named.
    let best = moves[2]["best"].as_str().unwrap().to_owned();
    let try_path = format!("/api/game/{gid}/review/try");
    let try_move = |body: Value| call(&server, reqwest::Method::POST, &try_path, Some(&alice), Some(body));
    let (s, v) = try_move(json!({"ply": 3, "uci": best})).await;
    assert_eq!((s, &v["correct"]), (200, &json!(true)), "{v}");
    // The game's own move: the review's verdict, said as such.
    let (s, v) = try_move(json!({"ply": 3, "uci": "f1a6"})).await;
    assert_eq!((s, &v["correct"]), (200, &json!(false)), "{v}");
    assert_eq!(v["loss"], moves[2]["loss"], "{v}");
    assert!(v["reason"]["zh"].as_str().unwrap().contains("对局中走的那步"), "{v}");
    assert!(v["reason"]["en"].as_str().unwrap().contains("the move played in the game"), "{v}");
    // Other moves, searched by both judges: right when they keep what the best move keeps. Before 2…bxa6 the
    // knight takes the bishop as well (right); 2…Nf6 leaves it (wrong). The answers are words, not numbers.
    let (s, v) = try_move(json!({"ply": 4, "uci": "b8a6"})).await;
    assert_eq!((s, &v["correct"]), (200, &json!(true)), "{v}");
    let (s, v) = try_move(json!({"ply": 4, "uci": "g8f6"})).await;
    assert_eq!((s, &v["correct"]), (200, &json!(false)), "{v}");
    for lang in ["zh", "en", "zh_latin", "en_chinese"] {
        let text = v["reason"][lang].as_str().unwrap();
        assert!(!text.is_empty() && !text.contains('%'), "{lang}: {v}");
    }
    let (s, v) = try_move(json!({"ply": 3, "uci": "e1e3"})).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("uci:"), "{v}");
    let (s, v) = try_move(json!({"ply": 9, "uci": "e1e2"})).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().contains("ply: must be from 1 to 4"), "{v}");
    let (s, v) = try_move(json!({"ply": 3})).await;
    assert_eq!(s, 400, "{v}");
}

#[tokio::test]
async fn a_game_against_the_computer_is_reviewed_when_it_ends() {
    let server = server("review_computer").await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    ws.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-"})).await;
    let gid = ws.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut ws, &gid, "e2e4").await;
    loop {
        if ws.event(&gid, "move_made").await["by"] == "black" {
            break;
        }
    }
    ws.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    ws.event(&gid, "game_ended").await;
    let v = until_done(&server, &gid).await;
    assert_eq!(v["review"]["moves"].as_array().unwrap().len(), 2, "{v}");
    assert_eq!(v["nodes"], NODES);
}

#[tokio::test]
async fn others_are_reviewed_on_request_once() {
    let server = server("review_request").await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let gid = blunder_game(&server, &a, &b).await;
    // Nobody asked: no review.
    let (s, v) = get(&server, &format!("/api/game/{gid}/review")).await;
    assert_eq!((s, &v["status"]), (200, &json!("none")), "{v}");
    let post = |session: Option<String>, g: String| {
        let server = &server;
        async move { call(server, reqwest::Method::POST, &format!("/api/game/{g}/review"), session.as_deref(), None).await }
    };
    let (s, _) = post(None, gid.clone()).await;
    assert_eq!(s, 401, "signing in (a guest is enough) is needed to ask");
    let (s, v) = post(Some(b.clone()), gid.clone()).await;
    assert_eq!(s, 202, "{v}");
    assert!(["queued", "running"].contains(&v["status"].as_str().unwrap()), "{v}");
    let done = until_done(&server, &gid).await;
    // Asking again gives the review there is.
    let (s, v) = post(Some(a.clone()), gid.clone()).await;
    assert_eq!((s, &v["status"]), (200, &json!("done")), "{v}");
    assert_eq!(v["review"], done["review"]);

    // A game in progress, and one that does not exist.
    let (live, mut wa, _wb) = friend_game(&server, "-", &a, &b).await;
    play(&mut wa, &live, "e2e4").await;
    let (s, v) = post(Some(a.clone()), live.clone()).await;
    assert_eq!(s, 409, "{v}");
    assert_eq!(v["code"], "not_reviewable");
    let (s, _) = post(Some(a.clone()), "nosuchgame".into()).await;
    assert_eq!(s, 404);
    let (s, _) = get(&server, "/api/game/nosuchgame/review").await;
    assert_eq!(s, 404);
    // The try needs a done review.
    let (s, v) = call(
        &server,
        reqwest::Method::POST,
        &format!("/api/game/{live}/review/try"),
        Some(&a),
        Some(json!({"ply": 1, "uci": "e2e4"})),
    )
    .await;
    assert_eq!((s, v["code"].as_str()), (409, Some("no_review")), "{v}");
}

#[tokio::test]
async fn guests_cannot_keep_the_setting_and_bad_bodies_are_named() {
    let server = server("review_settings").await;
    let (_, g) = server.guest().await;
    let (s, v) =
        call(&server, reqwest::Method::PUT, "/api/review/settings", Some(&g), Some(json!({"auto_review": true}))).await;
    assert_eq!((s, v["code"].as_str()), (403, Some("guest_settings")), "{v}");
    let (_, bob) = server.register("Bob").await;
    let (s, v) =
        call(&server, reqwest::Method::PUT, "/api/review/settings", Some(&bob), Some(json!({"auto_review": "yes"})))
            .await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("body:"), "{v}");
    let (s, v) = call(&server, reqwest::Method::GET, "/api/review/settings", Some(&bob), None).await;
    assert_eq!((s, &v["auto_review"]), (200, &json!(false)), "{v}");
}

/// The reviewer and the "learn from your mistakes" tries take the stored game's moves and positions
/// (`archive::replayed`) rather than reading its exported PGN back: they get what our reader makes of that PGN — tags
/// in order, start, moves, result — for a standard game and for a Chess960 one that castles king onto rook. A
/// tournament's `Event` and `Round` are tags of the same export, nothing else in it changed.
#[tokio::test]
async fn a_stored_game_replays_as_its_exported_pgn_reads() {
    use guoxiang_pgn::{Reader, Replayer};
    use guoxiang_server::archive::{self, EventTags, PgnOptions};
    let server = server("review_replayed").await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let standard = blunder_game(&server, &a, &b).await;
    let (c960, mut wa, mut wb) =
        common::friend_game_with(&server, "300+3", &a, &b, json!({"variant": {"kind": "chess960", "position": 518}}))
            .await;
    for (i, m) in ["e2e4", "e7e5", "g1f3", "g8f6", "f1c4", "f8c5", "e1h1"].iter().enumerate() {
        play(if i % 2 == 0 { &mut wa } else { &mut wb }, &c960, m).await;
    }
    wb.ok(json!({"t": "game", "game_id": c960, "action": {"t": "resign"}})).await;
    wb.event(&c960, "game_ended").await;
    let url = &server.state.config.public_url;
    for gid in [&standard, &c960] {
        let (row, moves) = server.state.store.game(gid).await.unwrap().unwrap();
        let pgn = archive::game_pgn(url, &row, &moves, PgnOptions::default(), EventTags::default()).unwrap();
        let read = Reader::new(pgn.as_bytes()).read_game(&mut Replayer::new()).unwrap().unwrap();
        assert!(read.errors.is_empty(), "{pgn}");
        let ours = archive::replayed(url, &row, &moves).unwrap();
        assert_eq!(ours.tags, read.tags, "{pgn}");
        assert_eq!(ours.start.fen(), read.start.fen(), "{pgn}");
        assert_eq!(ours.moves, read.moves, "{pgn}");
        assert_eq!(ours.position.fen(), read.position.fen(), "{pgn}");
        assert_eq!(ours.result, read.result, "{pgn}");
        assert_eq!(ours.moves.len(), moves.len());

        let at = EventTags { event: Some(r#"Club "A" \ B"#.to_owned()), round: Some("2.1".to_owned()) };
        let tagged = archive::game_pgn(url, &row, &moves, PgnOptions::default(), at).unwrap();
        let lines: Vec<&str> = pgn
            .lines()
            .map(|l| match l {
                l if l.starts_with("[Event ") => r#"[Event "Club \"A\" \\ B"]"#,
                l if l.starts_with("[Round ") => r#"[Round "2.1"]"#,
                l => l,
            })
            .collect();
        assert_eq!(tagged, format!("{}\n\n", lines.join("\n").trim_end()));
    }
}
