//! 战术训练 over real HTTP: the default set imported on first use, next by theme and rating, the judge of tries,
//! rounds for guests and accounts, the dashboard, the daily puzzle and the lichess shapes, and bad input naming its
//! field. Puzzle 00008 (lichess, CC0) and puzzles with known motifs are added through the store, so the tests do
//! not depend on what the default set holds.

mod common;

use common::{TestServer, temp_db};
use guoxiang_store::{MotifTag, PuzzleGlicko, PuzzleRow};
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

async fn get(server: &TestServer, path: &str, session: Option<&str>) -> (u16, Value) {
    let mut r = client().get(server.url(path));
    if let Some(s) = session {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn post(server: &TestServer, path: &str, session: Option<&str>, body: Value) -> (u16, Value) {
    let mut r = client().post(server.url(path)).json(&body);
    if let Some(s) = session {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

/// A 400 whose message names `field` (in both languages).
fn names_field(status: u16, body: &Value, field: &str) {
    assert_eq!(status, 400, "{body}");
    let en = body["error"].as_str().unwrap_or("");
    let zh = body["message_zh"].as_str().unwrap_or("");
    assert!(en.starts_with(&format!("{field}: ")), "{field}: {body}");
    assert!(zh.starts_with(&format!("{field}：")), "{field}: {body}");
}

fn tagged(id: &str, rating: f64, motifs: &[&str]) -> PuzzleRow {
    PuzzleRow {
        id: id.into(),
        fen: "6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1".into(),
        moves: "d7d8 d1d8".into(),
        glicko: PuzzleGlicko { rating, deviation: 80.0, volatility: 0.06 },
        plays: 10,
        rounds: 0,
        popularity: 50,
        themes: vec![],
        motifs: motifs
            .iter()
            .map(|m| MotifTag {
                id: (*m).into(), zh: "白车吃 d8 将死".into(), en: "The rook takes on d8, mate".into()
            })
            .collect(),
        game_url: String::new(),
        opening_tags: vec![],
        source: "guoxiang".into(),
        number: 0,
    }
}

/// lichess puzzle 00008 (CC0).
const P00008: &str = "00008,r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24,f2g3 e6e7 b2b1 b3c1 b1c1 h6c1,1784,77,95,9822,crushing hangingPiece long middlegame,https://lichess.org/787zsVup/black#48,";

/// A server with the default set (imported when it started, the table being empty), puzzle 00008 and three
/// tagged puzzles.
async fn server(name: &str) -> TestServer {
    let server = TestServer::start(&temp_db(name)).await;
    let defaults = server.state.store.puzzle_count().await.unwrap();
    assert!(defaults > 0, "the default set is imported at start");
    let (status, _) = get(&server, "/api/puzzle/next?format=guoxiang", None).await;
    assert_eq!(status, 200);
    add_00008(&server.state.store, true).await;
    add_tagged(&server.state.store).await;
    server
}

/// Puzzle 00008, with its motifs from the tagger or none.
async fn add_00008(store: &guoxiang_store::Store, tagger: bool) {
    let p = guoxiang_tactics::Reader::new(P00008.as_bytes()).next().unwrap().unwrap();
    let row = guoxiang_server::puzzle::import::row_of(&p, "lichess");
    let row = if tagger { row } else { PuzzleRow { motifs: vec![], ..row } };
    store.upsert_puzzles(&[row]).await.unwrap();
}

async fn add_tagged(store: &guoxiang_store::Store) {
    store
        .upsert_puzzles(&[
            tagged("gx1", 1200.0, &["fork", "back_rank_mate"]),
            tagged("gx2", 2400.0, &["fork"]),
            tagged("gx3", 1900.0, &["deflection"]),
        ])
        .await
        .unwrap();
}

/// A server with only puzzle 00008 (without motifs) and three tagged puzzles: stored before the server starts, so
/// the default set is not imported and the motifs are known whatever the tagger says.
async fn own_server(name: &str) -> TestServer {
    let db = temp_db(name);
    let store = guoxiang_store::Store::connect(&db).await.unwrap();
    add_00008(&store, false).await;
    add_tagged(&store).await;
    drop(store);
    let server = TestServer::start(&db).await;
    let (status, _) = get(&server, "/api/puzzle/next?format=guoxiang", None).await;
    assert_eq!(status, 200);
    assert_eq!(server.state.store.puzzle_count().await.unwrap(), 4, "no default set over stored puzzles");
    server
}

#[tokio::test]
async fn next_by_rating_and_theme() {
    let server = own_server("pz_next").await;
    let (status, body) = get(&server, "/api/puzzle/next?format=guoxiang&rating=1750", None).await;
    assert_eq!(status, 200, "{body}");
    let p = &body["puzzle"];
    assert_eq!(p["id"], "00008", "the only one within 100 of 1750: {p}");
    for key in ["id", "fen", "moves", "solver", "deviation", "plays", "motifs", "lichess_themes", "game_url", "source"]
    {
        assert!(!p[key].is_null(), "{key} in {p}");
    }
    // By theme: the fork nearest to the rating, over the whole range if need be.
    let (_, body) = get(&server, "/api/puzzle/next?format=guoxiang&theme=fork&rating=1300", None).await;
    assert_eq!(body["puzzle"]["id"], "gx1", "{body}");
    let m = &body["puzzle"]["motifs"][0];
    assert_eq!((m["id"].as_str(), m["zh"].as_str(), m["seed"].as_u64()), (Some("fork"), Some("捉双"), Some(4)));
    assert_eq!(m["text"]["en"], "The rook takes on d8, mate");
    let (_, body) = get(&server, "/api/puzzle/next?format=guoxiang&theme=fork&rating=2300", None).await;
    assert_eq!(body["puzzle"]["id"], "gx2");
    let (_, body) = get(&server, "/api/puzzle/next?format=guoxiang&theme=fork&rating=2300&exclude=gx2", None).await;
    assert_eq!(body["puzzle"]["id"], "gx1", "excluded ids are skipped");
    // seed-14 (吸引和引离) is attraction or deflection.
    let (_, body) = get(&server, "/api/puzzle/next?format=guoxiang&theme=seed-14", None).await;
    assert_eq!(body["puzzle"]["id"], "gx3");
    let (status, body) = get(&server, "/api/puzzle/next?format=guoxiang&theme=skewer", None).await;
    assert_eq!((status, body["code"].as_str()), (404, Some("no_puzzle")), "{body}");

    // Themes: only those with puzzles (借力 (0) is not listed); with all=1 every one.
    let (status, body) = get(&server, "/api/puzzle/themes", None).await;
    assert_eq!(status, 200);
    let fork = body["motifs"].as_array().unwrap().iter().find(|m| m["id"] == "fork").unwrap();
    assert_eq!(fork["count"], 2, "{fork}");
    let seeds: Vec<(u64, i64)> = body["seeds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["number"].as_u64().unwrap(), s["count"].as_i64().unwrap()))
        .collect();
    assert_eq!(seeds, vec![(4, 2), (14, 1)], "双重打击 (two forks) and 吸引和引离 (a deflection) only: {body}");
    assert!(body["motifs"].as_array().unwrap().iter().all(|m| m["count"].as_i64() > Some(0)), "{body}");
    assert!(!body["motifs"].as_array().unwrap().iter().any(|m| m["id"] == "skewer"));
    let (_, all) = get(&server, "/api/puzzle/themes?all=1", None).await;
    assert_eq!(all["seeds"].as_array().unwrap().len(), 18);
    assert_eq!(all["seeds"][3]["zh"], "双重打击");
    assert!(all["motifs"].as_array().unwrap().iter().any(|m| m["id"] == "skewer" && m["count"] == 0));
    let (s, b) = get(&server, "/api/puzzle/themes?all=maybe", None).await;
    names_field(s, &b, "all");

    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&theme=nope", None).await;
    names_field(s, &b, "theme");
    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&rating=abc", None).await;
    names_field(s, &b, "rating");
    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&rating=90000", None).await;
    names_field(s, &b, "rating");
    let many = (0..201).map(|i| format!("x{i}")).collect::<Vec<_>>().join(",");
    let (s, b) = get(&server, &format!("/api/puzzle/next?format=guoxiang&exclude={many}"), None).await;
    names_field(s, &b, "exclude");
    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&exclude=a,b%20c", None).await;
    names_field(s, &b, "exclude[1]");
    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&colour=white", None).await;
    names_field(s, &b, "colour");
}

#[tokio::test]
async fn tries_are_judged() {
    let server = server("pz_try").await;
    let t = |moves: Value| {
        let server = &server;
        async move { post(server, "/api/puzzle/00008/try", None, json!({ "moves": moves })).await }
    };
    assert_eq!(t(json!(["e6e7"])).await, (200, json!({"verdict": "correct", "reply": "b2b1"})));
    assert_eq!(t(json!(["e6e7", "b2b1", "b3c1"])).await, (200, json!({"verdict": "correct", "reply": "b1c1"})));
    assert_eq!(t(json!(["e6e7", "b2b1", "b3c1", "b1c1", "h6c1"])).await, (200, json!({"verdict": "solved"})));
    let (status, body) = t(json!(["h2g3"])).await;
    assert_eq!((status, body["verdict"].as_str()), (200, Some("wrong")), "{body}");
    assert!(body["reason"]["zh"].as_str().is_some_and(|s| s.contains("对方")), "{body}");
    assert!(body["refutation"].is_string(), "{body}");
    let (status, body) = t(json!(["a2a5"])).await;
    assert_eq!((status, body["verdict"].as_str()), (200, Some("illegal")), "{body}");
    assert!(!body["reason"]["en"].as_str().unwrap().is_empty());
    // Any mate solves: a puzzle with a second mating move.
    let (_, body) = post(&server, "/api/puzzle/gx1/try", None, json!({"moves": ["d1d8"]})).await;
    assert_eq!(body, json!({"verdict": "solved"}));

    let (s, b) = t(json!(["h2g3", "b2b1", "b3c1"])).await;
    names_field(s, &b, "moves[0]");
    let (s, b) = t(json!(["e6e7", "b2b1"])).await;
    names_field(s, &b, "moves[1]");
    let (s, b) = t(json!("e6e7")).await;
    names_field(s, &b, "moves");
    let (s, b) = t(json!(["e6e7", 3])).await;
    names_field(s, &b, "moves[1]");
    let (s, b) = post(&server, "/api/puzzle/00008/try", None, json!({"moves": ["e6e7"], "x": 1})).await;
    names_field(s, &b, "x");
    let (s, b) = post(&server, "/api/puzzle/nothere/try", None, json!({"moves": ["e6e7"]})).await;
    assert_eq!((s, b["code"].as_str()), (404, Some("not_found")));
}

#[tokio::test]
async fn rounds_for_guests_and_accounts() {
    let server = own_server("pz_round").await;
    let (_, before) = get(&server, "/api/puzzle/00008", None).await;
    let puzzle_rating = before["puzzle"]["rating"].as_i64().unwrap();
    let plays = before["puzzle"]["plays"].as_i64().unwrap();
    assert_eq!((puzzle_rating, plays), (1784, 9822));

    let (s, b) = post(&server, "/api/puzzle/00008/round", None, json!({"win": true})).await;
    assert_eq!((s, b["code"].as_str()), (401, Some("login_required")));

    // A guest: the rating comes from the browser and nothing on the server moves.
    let (_, guest) = server.guest().await;
    let body = json!({"win": true, "hints": 0, "streak": false, "rating": {"rating": 1500, "deviation": 350, "volatility": 0.06}});
    let (s, b) = post(&server, "/api/puzzle/00008/round", Some(&guest), body).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["rating"]["before"], 1500);
    let after = b["rating"]["after"].as_i64().unwrap();
    assert!(after > 1600, "{b}");
    assert!(b["rating"]["provisional"].as_bool().unwrap());
    assert_eq!(b["puzzle"], json!({"rating": puzzle_rating, "plays": plays}));
    let (_, again) = get(&server, "/api/puzzle/00008", None).await;
    assert_eq!(again["puzzle"]["rating"], puzzle_rating, "a guest's round leaves the puzzle alone");
    let (s, b) = get(&server, "/api/puzzle/dashboard", Some(&guest)).await;
    assert_eq!((s, b["code"].as_str()), (401, Some("login_required")));

    // A guest who sends no rating is a new player: 1000 / 250.
    let (_, b) = post(&server, "/api/puzzle/00008/round", Some(&guest), json!({"win": true})).await;
    assert_eq!(b["rating"]["before"], 1000, "{b}");
    let new_after = b["rating"]["after"].as_i64().unwrap();

    // An account: stored once, moves the puzzle; a new account starts as a new guest does.
    let (_, alice) = server.register("alice").await;
    let (s, b) = post(&server, "/api/puzzle/00008/round", Some(&alice), json!({"win": true})).await;
    assert_eq!(s, 200, "{b}");
    assert_eq!(b["rating"]["before"], 1000);
    assert_eq!(b["rating"]["after"].as_i64().unwrap(), new_after, "the same Glicko-2 arithmetic as for the guest");
    let after = new_after;
    assert_eq!(b["rating"]["replay"], false);
    let moved = b["puzzle"]["rating"].as_i64().unwrap();
    assert!(moved < puzzle_rating, "{b}");
    assert_eq!(b["puzzle"]["plays"], plays + 1);
    let (s, replay) = post(&server, "/api/puzzle/00008/round", Some(&alice), json!({"win": false})).await;
    assert_eq!(s, 200);
    assert_eq!(replay["rating"]["replay"], true);
    assert_eq!((replay["rating"]["before"].as_i64(), replay["rating"]["after"].as_i64()), (Some(after), Some(after)));
    assert_eq!(replay["puzzle"], json!({"rating": moved, "plays": plays + 1}), "a replay changes nothing");
    let (_, now) = get(&server, "/api/puzzle/00008", None).await;
    assert_eq!(now["puzzle"]["rating"], moved);
    // A streak round changes no rating and stores nothing.
    let (_, b) = post(&server, "/api/puzzle/gx3/round", Some(&alice), json!({"win": true, "streak": true})).await;
    assert_eq!((b["rating"]["before"].as_i64(), b["rating"]["after"].as_i64()), (Some(after), Some(after)));
    // A lost round.
    let (_, b) = post(&server, "/api/puzzle/gx1/round", Some(&alice), json!({"win": false, "hints": 2})).await;
    assert!(b["rating"]["after"].as_i64().unwrap() < after, "{b}");
    // The next puzzle for alice is never one she played.
    for _ in 0..5 {
        let (_, n) = get(&server, "/api/puzzle/next?format=guoxiang&rating=1200&theme=fork", Some(&alice)).await;
        assert_eq!(n["puzzle"]["id"], "gx2", "{n}");
    }

    let (s, d) = get(&server, "/api/puzzle/dashboard", Some(&alice)).await;
    assert_eq!(s, 200, "{d}");
    assert_eq!(d["rating"]["rounds"], 2);
    let history: Vec<(&str, bool)> = d["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["id"].as_str().unwrap(), h["win"].as_bool().unwrap()))
        .collect();
    assert_eq!(history, vec![("gx1", false), ("00008", true)]);
    assert_eq!(
        d["themes"],
        json!([{"id": "back_rank_mate", "solved": 0, "failed": 1}, {"id": "fork", "solved": 0, "failed": 1}])
    );

    // Bad input names the field.
    let (s, b) = post(&server, "/api/puzzle/00008/round", Some(&alice), json!({})).await;
    names_field(s, &b, "win");
    let (s, b) = post(&server, "/api/puzzle/00008/round", Some(&alice), json!({"win": "yes"})).await;
    names_field(s, &b, "win");
    let (s, b) = post(&server, "/api/puzzle/00008/round", Some(&alice), json!({"win": true, "hints": -1})).await;
    names_field(s, &b, "hints");
    let bad = json!({"win": true, "rating": {"rating": 1500, "deviation": 0}});
    let (s, b) = post(&server, "/api/puzzle/00008/round", Some(&guest), bad).await;
    names_field(s, &b, "rating.deviation");
    let (s, b) = post(&server, "/api/puzzle/nothere/round", Some(&alice), json!({"win": true})).await;
    assert_eq!((s, b["code"].as_str()), (404, Some("not_found")));
}

#[tokio::test]
async fn daily_and_by_id_in_lichess_shape() {
    let server = server("pz_daily").await;
    let (s, a) = get(&server, "/api/puzzle/daily", None).await;
    assert_eq!(s, 200, "{a}");
    for _ in 0..3 {
        let (_, b) = get(&server, "/api/puzzle/daily", None).await;
        assert_eq!(b["puzzle"]["id"], a["puzzle"]["id"], "the same all day");
    }
    // The keys lichess's clients (berserk and others) read.
    for key in ["id", "perf", "rated", "players", "pgn", "clock"] {
        assert!(a["game"].get(key).is_some(), "game.{key} in {a}");
    }
    for key in ["id", "rating", "plays", "initialPly", "solution", "themes", "fen", "motifs"] {
        assert!(a["puzzle"].get(key).is_some(), "puzzle.{key} in {a}");
    }
    let (s, p) = get(&server, "/api/puzzle/00008", None).await;
    assert_eq!(s, 200);
    assert_eq!(p["game"]["id"], "787zsVup");
    assert_eq!(p["game"]["pgn"], "Bxg3");
    assert_eq!(p["game"]["perf"]["key"], "puzzle");
    assert_eq!(p["puzzle"]["initialPly"], 47);
    assert_eq!(p["puzzle"]["solution"], json!(["e6e7", "b2b1", "b3c1", "b1c1", "h6c1"]));
    assert_eq!(p["puzzle"]["themes"], json!(["crushing", "hangingPiece", "long", "middlegame"]));
    assert_eq!(p["puzzle"]["fen"], "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24");
    // Our own puzzles have no lichess themes in the file: our motifs are written as lichess names.
    let (_, g) = get(&server, "/api/puzzle/gx1", None).await;
    assert_eq!(g["puzzle"]["themes"], json!(["fork", "backRankMate"]));
    assert_eq!(g["game"]["id"], "");
    let (s, b) = get(&server, "/api/puzzle/nothere", None).await;
    assert_eq!((s, b["code"].as_str()), (404, Some("not_found")));
    let (s, _) = get(&server, "/api/puzzle/bad%20id", None).await;
    assert_eq!(s, 404);
    // Our shape on request: the object of `next`, with the moves from the setup move on.
    let (s, o) = get(&server, "/api/puzzle/00008?format=guoxiang", None).await;
    assert_eq!(s, 200, "{o}");
    assert_eq!(o["puzzle"]["id"], "00008");
    assert_eq!(o["puzzle"]["moves"], json!(["f2g3", "e6e7", "b2b1", "b3c1", "b1c1", "h6c1"]));
    assert_eq!(o["puzzle"]["solver"], "white");
    assert!(o["puzzle"]["motifs"].is_array() && o.get("game").is_none(), "{o}");
    let (s, b) = get(&server, "/api/puzzle/00008?format=pgn", None).await;
    names_field(s, &b, "format");
    let (s, b) = get(&server, "/api/puzzle/00008?fmt=guoxiang", None).await;
    names_field(s, &b, "fmt");
}

/// A puzzle with these motifs, each with its own sentence.
fn with_motifs(id: &str, rating: f64, motifs: &[(&str, &str, &str)]) -> PuzzleRow {
    let mut row = tagged(id, rating, &[]);
    row.motifs =
        motifs.iter().map(|(m, zh, en)| MotifTag { id: (*m).into(), zh: (*zh).into(), en: (*en).into() }).collect();
    row
}

/// A server holding only puzzles at 950, 1050, 1250, 1300, 1550 and 1600 (no default set).
async fn banded_server(name: &str) -> TestServer {
    let db = temp_db(name);
    let store = guoxiang_store::Store::connect(&db).await.unwrap();
    let rows: Vec<PuzzleRow> = [
        ("e950", 950.0),
        ("e1050", 1050.0),
        ("c1250", 1250.0),
        ("h1300", 1300.0),
        ("m1550", 1550.0),
        ("m1600", 1600.0),
    ]
    .iter()
    .map(|(id, r)| tagged(id, *r, &["fork"]))
    .collect();
    store.upsert_puzzles(&rows).await.unwrap();
    drop(store);
    TestServer::start(&db).await
}

async fn rating_of(server: &TestServer, query: &str, session: Option<&str>) -> (i64, Value) {
    let (s, b) = get(server, &format!("/api/puzzle/next?format=guoxiang{query}"), session).await;
    assert_eq!(s, 200, "{query}: {b}");
    (b["puzzle"]["rating"].as_i64().unwrap(), b)
}

#[tokio::test]
async fn a_new_player_starts_in_the_easiest_band_or_where_the_course_left_them() {
    let server = banded_server("pz_newcomer").await;
    // A fresh guest (no rating sent): puzzles from the easiest band, and the rating assumed.
    for _ in 0..10 {
        let (r, b) = rating_of(&server, "", None).await;
        assert!(r <= 1100, "a new player's first puzzle is at most 1100: {b}");
        assert_eq!(b["newcomer"], json!({"rating": 1000.0, "deviation": 250.0, "volatility": 0.06}), "{b}");
        assert_eq!(b["difficulty"], "normal");
    }
    // A guest whose browser has done the whole 学棋 course starts at 1250.
    let lessons: Vec<String> = guoxiang_learn::Course::embedded().course.lessons().map(|(_, l)| l.id.clone()).collect();
    assert!(lessons.len() >= 4, "the embedded course has lessons");
    for _ in 0..5 {
        let (r, b) = rating_of(&server, &format!("&course={}", lessons.len()), None).await;
        assert_eq!(b["newcomer"]["rating"], 1250.0, "{b}");
        assert!((1150..=1350).contains(&r), "{b}");
    }
    let (_, b) = rating_of(&server, &format!("&course={}", lessons.len() / 2), None).await;
    let half = b["newcomer"]["rating"].as_f64().unwrap();
    assert!(half > 1000.0 && half < 1250.0, "half the course, part of the way: {half}");
    // A rating sent is a player with rounds: no newcomer.
    let (r, b) = rating_of(&server, "&rating=1575", None).await;
    assert!(r >= 1550 && b.get("newcomer").is_none(), "{b}");
    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&course=many", None).await;
    names_field(s, &b, "course");

    // A new account: the easiest band, then after the course (its progress on the server) 1250.
    let (alice_id, alice) = server.register("alice").await;
    let (r, b) = rating_of(&server, "", Some(&alice)).await;
    assert!(r <= 1100, "{b}");
    assert_eq!(b["newcomer"]["rating"], 1000.0);
    let (_, d) = get(&server, "/api/puzzle/dashboard", Some(&alice)).await;
    assert_eq!((d["rating"]["rating"].as_i64(), d["rating"]["provisional"].as_bool()), (Some(1000), Some(true)), "{d}");
    let done: guoxiang_store::LearnProgress = lessons
        .iter()
        .map(|id| (id.clone(), guoxiang_store::LessonProgress { steps: vec![0], stars: 3, done: true }))
        .collect();
    server.state.store.merge_learn_progress(&alice_id, &done, 1).await.unwrap();
    let (r, b) = rating_of(&server, "", Some(&alice)).await;
    assert_eq!(b["newcomer"]["rating"], 1250.0, "{b}");
    assert!((1150..=1350).contains(&r), "{b}");
    // Her first round starts from 1250; a miss on a puzzle of her rating costs about a hundred, not 147 or 175.
    let (_, b) = post(&server, "/api/puzzle/c1250/round", Some(&alice), json!({"win": false})).await;
    assert_eq!(b["rating"]["before"], 1250, "{b}");
    let loss = 1250 - b["rating"]["after"].as_i64().unwrap();
    assert!((80..=120).contains(&loss), "a first miss costs {loss}: {b}");
    assert_eq!(b["rating"]["provisional"], true);
    // With a rating, no newcomer any more.
    let (_, b) = rating_of(&server, "", Some(&alice)).await;
    assert!(b.get("newcomer").is_none(), "{b}");
}

#[tokio::test]
async fn the_difficulty_moves_the_puzzles_and_an_account_keeps_it() {
    let server = banded_server("pz_difficulty").await;
    // A guest says it each time: easiest is 600 below, hardest 600 above.
    for _ in 0..5 {
        let (r, b) = rating_of(&server, "&rating=1600&difficulty=easiest", None).await;
        assert!(r <= 1100, "1600 − 600: {b}");
        assert_eq!(b["difficulty"], "easiest");
        let (r, _) = rating_of(&server, "&rating=1000&difficulty=hardest", None).await;
        assert!(r >= 1550, "1000 + 600: {r}");
        let (r, _) = rating_of(&server, "&rating=1300&difficulty=easier", None).await;
        assert!(r <= 1100, "1300 − 300: {r}");
    }
    let (r, _) = rating_of(&server, "", None).await;
    assert!(r <= 1100, "a guest's choice is not kept on the server");
    // An account's choice is remembered and applied when the request gives none.
    let (_, bob) = server.register("bob").await;
    let (r, b) = rating_of(&server, "&difficulty=harder", Some(&bob)).await;
    assert!((1200..=1400).contains(&r), "1000 + 300: {b}");
    for _ in 0..5 {
        let (r, b) = rating_of(&server, "", Some(&bob)).await;
        assert_eq!(b["difficulty"], "harder", "{b}");
        assert!((1200..=1400).contains(&r), "{b}");
    }
    assert_eq!(server.state.store.puzzle_difficulty("bob").await.unwrap().as_deref(), Some("harder"));
    // A streak asks with a rating of its own: the kept difficulty does not move it, and stays kept.
    let (r, b) = rating_of(&server, "&rating=1000", Some(&bob)).await;
    assert!(r <= 1100 && b["difficulty"] == "normal", "{b}");
    assert_eq!(server.state.store.puzzle_difficulty("bob").await.unwrap().as_deref(), Some("harder"));
    let (_, b) = rating_of(&server, "&difficulty=normal", Some(&bob)).await;
    assert_eq!(b["difficulty"], "normal");
    let (r, b) = rating_of(&server, "", Some(&bob)).await;
    assert!(r <= 1100 && b["difficulty"] == "normal", "{b}");
    let (s, b) = get(&server, "/api/puzzle/next?format=guoxiang&difficulty=hard", Some(&bob)).await;
    names_field(s, &b, "difficulty");
    assert_eq!(
        server.state.store.puzzle_difficulty("bob").await.unwrap().as_deref(),
        Some("normal"),
        "a bad one is not kept"
    );
}

#[tokio::test]
async fn sentences_once_with_the_learners_letters_and_puzzles_numbered() {
    let server = own_server("pz_sentences").await;
    // Two motifs saying the same sentence (牵制 and 绝对牵制): said once, the second right after the first.
    let pin = ("pin", "黑车被牵制在王前。", "The black rook is pinned to the king.");
    let fork = ("fork", "马同时攻击王和后。", "The knight attacks king and queen.");
    let abs = ("absolute_pin", pin.1, pin.2);
    server.state.store.upsert_puzzles(&[with_motifs("dup", 1500.0, &[pin, fork, abs])]).await.unwrap();
    let (_, o) = get(&server, "/api/puzzle/dup?format=guoxiang", None).await;
    let motifs: Vec<(&str, &str)> = o["puzzle"]["motifs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["id"].as_str().unwrap(), m["text"]["zh"].as_str().unwrap()))
        .collect();
    assert_eq!(motifs, vec![("pin", pin.1), ("absolute_pin", ""), ("fork", fork.1)], "{o}");

    // A wrong move's sentence in the learner's letters: Chinese when asked, English otherwise.
    let wrong = json!({"moves": ["d1d2"]});
    let (_, v) = post(&server, "/api/puzzle/gx1/try?letters=zh", None, wrong.clone()).await;
    assert_eq!(v["reason"], json!({"zh": "对方走 …车xd2，吃掉你的车。", "en": "…车xd2 takes your rook."}), "{v}");
    let (_, v) = post(&server, "/api/puzzle/gx1/try", None, wrong.clone()).await;
    assert_eq!(v["reason"]["zh"], "对方走 …Rxd2，吃掉你的车。", "{v}");
    let (_, v) = post(&server, "/api/puzzle/gx1/try?letters=en", None, wrong.clone()).await;
    assert_eq!(v["reason"]["en"], "…Rxd2 takes your rook.", "{v}");
    let (s, b) = post(&server, "/api/puzzle/gx1/try?letters=fr", None, wrong).await;
    names_field(s, &b, "letters");

    // Numbered for people in the order of import (00008 first, then gx1, gx2, gx3, then dup); the id stays.
    let mut numbers = Vec::new();
    for id in ["00008", "gx1", "gx2", "gx3", "dup"] {
        let (_, o) = get(&server, &format!("/api/puzzle/{id}?format=guoxiang"), None).await;
        assert_eq!(o["puzzle"]["id"], id);
        numbers.push(o["puzzle"]["number"].as_i64().unwrap());
        let (_, l) = get(&server, &format!("/api/puzzle/{id}"), None).await;
        assert_eq!(l["puzzle"]["number"], o["puzzle"]["number"], "the lichess shape carries it too");
    }
    assert_eq!(numbers, vec![1, 2, 3, 4, 5]);
    let (_, n) = get(&server, "/api/puzzle/next?format=guoxiang&rating=1750", None).await;
    assert_eq!((n["puzzle"]["id"].as_str(), n["puzzle"]["number"].as_i64()), (Some("00008"), Some(1)));
}

/// The tries' limiter is each server's, not the process's: one session that used up its tries on one server
/// still has them on another server of the same database in the same process.
#[tokio::test]
async fn two_servers_keep_their_own_try_limits() {
    let db = temp_db("pz_two_limits");
    let a = TestServer::start(&db).await;
    let b = TestServer::start(&db).await;
    let (_, session) = a.guest().await;
    let body = json!({"moves": ["e6e7"]});
    let mut statuses = Vec::new();
    for _ in 0..61 {
        statuses.push(post(&a, "/api/puzzle/nothere/try", Some(&session), body.clone()).await.0);
    }
    assert_eq!(statuses.iter().filter(|&&s| s == 404).count(), 60, "the burst is 60: {statuses:?}");
    assert_eq!(statuses.last(), Some(&429), "{statuses:?}");
    let (status, _) = post(&b, "/api/puzzle/nothere/try", Some(&session), body).await;
    assert_eq!(status, 404, "the other server's limiter has not counted this session");
}
