// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /api/explorer` against a real server on loopback with a real database (SQLite, or PostgreSQL when
//! `GUOXIANG_SERVER_TEST_DB=postgres`): a game finished on the server is counted in the `server` source, imported
//! games in the `imported` source, the filters and the opening's name and family, and bad parameters.

mod common;

use std::time::Duration;

use common::{TestServer, friend_game, play, temp_db};
use guoxiang_explorer::{Batch, Indexer};
use guoxiang_pgn::Reader;
use guoxiang_store::ExplorerSource;
use serde_json::Value;

async fn get(server: &TestServer, query: &str) -> (u16, Value) {
    let r = reqwest::get(server.url(&format!("/api/explorer{query}"))).await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

/// The server adds a finished game in a task of its own, after the commit: wait (bounded) until it is there.
async fn wait_for_games(server: &TestServer, query: &str, games: i64) -> Value {
    for _ in 0..500 {
        let (status, v) = get(server, query).await;
        assert_eq!(status, 200, "{v}");
        if v["total"]["games"] == games {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!("{query}: never reached {games} games");
}

#[tokio::test]
async fn a_finished_game_is_counted_in_the_server_source() {
    let server = TestServer::start(&temp_db("explorer_server")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&server, "300+3", &a, &b).await;
    for (i, uci) in ["f2f3", "e7e5", "g2g4", "d8h4"].into_iter().enumerate() {
        play(if i % 2 == 0 { &mut wa } else { &mut wb }, &gid, uci).await;
    }
    let end = wa.event(&gid, "game_ended").await;
    assert_eq!(end["result"], "0-1");

    let start = wait_for_games(&server, "", 1).await;
    assert_eq!(start["source"], "server");
    assert_eq!(start["moves"].as_array().unwrap().len(), 1);
    let f3 = &start["moves"][0];
    assert_eq!((f3["uci"].as_str(), f3["san"].as_str(), &f3["games"]), (Some("f2f3"), Some("f3"), &Value::from(1)));
    assert_eq!(
        (&f3["black"], &f3["black_pct"], &f3["white_pct"]),
        (&Value::from(1), &Value::from(100.0), &Value::from(0.0))
    );
    // Guests play unrated: no average rating.
    assert_eq!(f3["average_rating"], Value::Null);
    // After 1. f3 e5: the next move of the game, and the family (1. f3 is not 1. e4: closed).
    let (_, after) = get(&server, "?moves=f2f3,e7e5").await;
    assert_eq!(after["moves"][0]["san"], "g4");
    assert_eq!(after["opening"]["family"], "closed");
    assert_eq!(after["opening"]["family_zh"], "封闭性布局");
    // 300+3 is blitz (5 min + 40 × 3 s = 7 min): counted there, not in bullet, and not in any rating bucket.
    assert_eq!(get(&server, "?speeds=blitz").await.1["total"]["games"], 1);
    assert_eq!(get(&server, "?speeds=bullet,rapid").await.1["total"]["games"], 0);
    assert_eq!(get(&server, "?ratings=0,1000,1200,1400,1600,1800,2000,2200,2500").await.1["total"]["games"], 0);
    // Nothing was imported.
    assert_eq!(get(&server, "?source=imported").await.1["total"]["games"], 0);
}

const PGN: &str = r#"[Event "1"]
[WhiteElo "1500"]
[BlackElo "1700"]
[TimeControl "180+0"]
[Result "1-0"]

1. e4 c5 2. Nf3 d6 1-0

[Event "2"]
[WhiteElo "1900"]
[BlackElo "1900"]
[TimeControl "600+0"]
[Result "0-1"]

1. e4 c5 2. Nc3 0-1

[Event "3"]
[WhiteElo "2000"]
[BlackElo "2000"]
[TimeControl "180+2"]
[Result "1/2-1/2"]

1. e4 e5 2. Nf3 Nc6 1/2-1/2

[Event "4"]
[TimeControl "180+0"]
[Result "1-0"]

1. d4 d5 1-0
"#;

#[tokio::test]
async fn imported_games_with_filters_and_openings() {
    let server = TestServer::start(&temp_db("explorer_imported")).await;
    let mut reader = Reader::new(PGN.as_bytes());
    let mut indexer = Indexer::new();
    let mut batch = Batch::new();
    while let Some(g) = reader.read_game(&mut indexer).unwrap() {
        batch.add(&g.unwrap());
    }
    server.state.store.explorer_add(ExplorerSource::Imported, &batch.take_rows()).await.unwrap();

    let (status, start) = get(&server, "?source=imported").await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["total"]["games"], 4);
    let moves = start["moves"].as_array().unwrap();
    let ucis: Vec<&str> = moves.iter().map(|m| m["uci"].as_str().unwrap()).collect();
    assert_eq!(ucis, ["e2e4", "d2d4"], "most played first");
    let e4 = &moves[0];
    assert_eq!((&e4["white"], &e4["draws"], &e4["black"]), (&1.into(), &1.into(), &1.into()));
    assert_eq!(e4["games"], 3);
    assert_eq!(e4["draws_pct"], 33.3);
    // (1600 + 1900 + 2000) / 3; game 4 has no ratings and is not in the average.
    assert_eq!(e4["average_rating"], 1833);
    assert_eq!(start["total"]["average_rating"], 1833);
    assert_eq!(start["opening"]["family"], Value::Null);

    // After 1. e4 c5: the Sicilian, semi-open, two games.
    let (_, sicilian) = get(&server, "?source=imported&moves=e2e4%2Cc7c5").await;
    assert_eq!(sicilian["total"]["games"], 2);
    assert_eq!(sicilian["opening"]["family"], "semi-open");
    assert_eq!(sicilian["opening"]["family_zh"], "半开放性布局");
    assert_eq!(sicilian["opening"]["family_en"], "Semi-open game");
    assert!(sicilian["opening"]["eco"].as_str().unwrap().starts_with('B'), "{sicilian}");
    assert!(sicilian["opening"]["name_zh"].as_str().unwrap().contains("西西里"), "{sicilian}");
    // The same position given as a FEN: the same games (positions, not move orders, are the key).
    let fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2";
    let (_, by_fen) =
        get(&server, &format!("?source=imported&fen={}", fen.replace(' ', "%20").replace('/', "%2F"))).await;
    assert_eq!(by_fen["total"], sicilian["total"]);
    assert_eq!(by_fen["opening"]["family"], "semi-open");

    // Filters: blitz only (games 1, 3, 4), then blitz and a rating bucket.
    assert_eq!(get(&server, "?source=imported&speeds=blitz").await.1["total"]["games"], 3);
    let (_, blitz_e4) = get(&server, "?source=imported&speeds=blitz&ratings=2000").await;
    assert_eq!(blitz_e4["total"]["games"], 1);
    assert_eq!(blitz_e4["moves"][0]["draws_pct"], 100.0);
    assert_eq!(blitz_e4["ratings"], serde_json::json!([2000]));
    assert_eq!(get(&server, "?source=imported&speeds=rapid&ratings=1800").await.1["total"]["games"], 1);
    // Past the indexed plies there is nothing, by design: the answer says how deep the index goes.
    assert_eq!(start["max_plies"], guoxiang_explorer::MAX_PLIES);
}

#[tokio::test]
async fn bad_parameters_are_named() {
    let server = TestServer::start(&temp_db("explorer_bad")).await;
    for (query, field) in [
        ("?source=everything", "source"),
        ("?speeds=blitz,fast", "speeds"),
        ("?ratings=1650", "ratings"),
        ("?ratings=high", "ratings"),
        ("?moves=e2e4,e7e4", "moves"),
        ("?fen=not%20a%20fen", "fen"),
        ("?colour=white", "colour"),
    ] {
        let (status, v) = get(&server, query).await;
        assert_eq!(status, 400, "{query}: {v}");
        let en = v["error"].as_str().unwrap();
        assert!(en.starts_with(&format!("{field}: ")), "{query}: {en}");
        assert!(v["message_zh"].as_str().unwrap().starts_with(field), "{query}: {v}");
    }
    let (_, v) = get(&server, "?moves=e2e4,e7e4").await;
    assert!(v["error"].as_str().unwrap().contains("move 2"), "{v}");
}
