// SPDX-License-Identifier: GPL-3.0-or-later
//! Reviews searched in a player's browser and kept by the server (`POST /api/game/{id}/review/browser`; docs/review.md,
//! "Reviews made in the browser"): the state says when a browser should search (the server busy, or without analysis
//! workers of its own); a player's honest searches become the game's review, made and checked by the server; a
//! forged mark, a stranger, searches that do not read and a second upload are refused with what is wrong.

mod common;

use common::{TestServer, friend_game, play, temp_db};
use guoxiang_core::Position;
use guoxiang_review::search::{Hooks, no_admit};
use guoxiang_review::{Options, judge_game, upload};
use serde_json::{Value, json};

const NODES: u64 = 20_000;
const GAME: [&str; 4] = ["e2e4", "e7e5", "f1a6", "b7a6"];

/// The searches an honest browser sends for GAME (the module runs this same code: crates/engine-wasm's tests).
fn honest() -> Value {
    let start = Position::new();
    let mut p = start.clone();
    let moves: Vec<_> = GAME
        .iter()
        .map(|u| {
            let m = p.parse_uci(u).unwrap();
            p.play_unchecked(m);
            m
        })
        .collect();
    let options = Options { nodes: NODES, ..Options::default() };
    let judged =
        judge_game(&start, &moves, &options, &mut Hooks { admit: &no_admit, progress: &mut |_, _| {} }).unwrap();
    serde_json::to_value(upload::to_upload(&start, &judged, NODES)).unwrap()
}

/// 1. e4 e5 2. Ba6?? bxa6, and White resigns.
async fn blunder_game(server: &TestServer, white: &str, black: &str) -> String {
    let (gid, mut wa, mut wb) = friend_game(server, "-", white, black).await;
    for (i, m) in GAME.iter().enumerate() {
        play(if i % 2 == 0 { &mut wa } else { &mut wb }, &gid, m).await;
    }
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wa.event(&gid, "game_ended").await;
    gid
}

#[tokio::test]
async fn a_players_browser_review_is_made_and_checked_by_the_server_and_forgeries_are_refused() {
    // No analysis workers: browsers review first (the server would take the game only after its grace).
    let server = TestServer::start_with(&temp_db("review_browser"), |c| {
        c.review_nodes = NODES;
        c.analysis_workers = 0;
    })
    .await;
    let (_, alice) = server.register("Alice").await;
    let (_, bob) = server.guest().await;
    let (_, carol) = server.guest().await;
    let gid = blunder_game(&server, &alice, &bob).await;
    let path = format!("/api/game/{gid}/review/browser");
    let post = |who: String, body: Value| {
        let (server, path) = (&server, path.clone());
        async move { server.call(reqwest::Method::POST, &path, Some(body), Some(&who)).await }
    };

    // Nothing asked for yet.
    let (s, v) = post(alice.clone(), honest()).await;
    assert_eq!((s, v["code"].as_str()), (409, Some("review_not_pending")), "{v}");
    let review_path = format!("/api/game/{gid}/review");
    let (s, v) = server.call(reqwest::Method::POST, &review_path, None, Some(&bob)).await;
    assert_eq!((s, v["status"].as_str(), &v["browser"]), (202, Some("queued"), &json!(true)), "{v}");

    // A stranger to the game, then searches that do not read: refused with what is wrong.
    let (s, v) = post(carol.clone(), honest()).await;
    assert_eq!((s, v["code"].as_str()), (403, Some("not_a_player")), "{v}");
    let mut bad = honest();
    bad["nodes"] = json!(5);
    let (s, v) = post(alice.clone(), bad).await;
    assert_eq!((s, v["code"].as_str()), (400, Some("bad_review")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("nodes: 5 (this server reviews at 20000"), "{v}");
    let mut bad = honest();
    bad["judges"][1][2]["line"] = json!(["a1a8"]);
    let (s, v) = post(alice.clone(), bad).await;
    assert_eq!(s, 400, "{v}");
    assert!(v["error"].as_str().unwrap().starts_with("judge 2, position 2 (after 2 moves): line, move 1: a1a8"), "{v}");

    // A forged mark: 1. e4 made a blunder (Nf3 said best, the position after e4 said won for Black).
    let mut forged = honest();
    for j in 0..2 {
        forged["judges"][j][0]["line"] = json!(["g1f3"]);
        forged["judges"][j][0].as_object_mut().unwrap().remove("second_line");
        forged["judges"][j][1]["eval"] = json!({"cp": 900});
    }
    let (s, v) = post(bob.clone(), forged).await;
    assert_eq!((s, v["code"].as_str()), (422, Some("review_refused")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("1.e4 (blunder): searched again"), "{v}");
    assert!(
        v["message_zh"].as_str().unwrap().starts_with("服务器复查后不能采用这份复盘：1.e4（败着）：复查时只失去"),
        "{v}"
    );
    let (_, v) = server.call(reqwest::Method::GET, &review_path, None, None).await;
    assert_eq!(v["status"], "queued", "a refused review leaves the game's waiting: {v}");

    // The honest searches: the server's own review of them, its marks checked, kept.
    let (s, v) = post(alice.clone(), honest()).await;
    assert_eq!((s, v["status"].as_str()), (200, Some("done")), "{v}");
    let r = &v["review"];
    assert_eq!(r["browser"], json!(true), "{r}");
    let moves = r["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 4);
    let class = moves[2]["class"].as_str().unwrap();
    assert!(class == "blunder" || class == "mistake", "Ba6 hangs the bishop: {}", moves[2]);
    assert!(!moves[2]["comment"]["zh"].as_str().unwrap().is_empty(), "{}", moves[2]);
    assert_eq!(moves[2]["exercise"], json!(true), "{}", moves[2]);
    let (_, again) = server.call(reqwest::Method::GET, &review_path, None, None).await;
    assert_eq!(&again["review"], r, "the stored review is the one answered");
    let pgn = reqwest::get(server.url(&format!("/game/export/{gid}?evals=true"))).await.unwrap().text().await.unwrap();
    assert!(pgn.contains("[%eval") && (pgn.contains("$2") || pgn.contains("$4")), "{pgn}");

    // Sent again: already done.
    let (s, v) = post(bob.clone(), honest()).await;
    assert_eq!((s, v["code"].as_str()), (409, Some("review_done")), "{v}");
}

#[tokio::test]
async fn a_server_with_workers_and_no_queue_reviews_itself() {
    let server = TestServer::start_with(&temp_db("review_browser_idle"), |c| c.review_nodes = NODES).await;
    let (_, alice) = server.register("Alice").await;
    let (_, bob) = server.guest().await;
    let gid = blunder_game(&server, &alice, &bob).await;
    let (s, v) = server.call(reqwest::Method::POST, &format!("/api/game/{gid}/review"), None, Some(&bob)).await;
    assert!(s == 202 || s == 200, "{v}");
    assert!(v.get("browser").is_none(), "next in line on an idle server: no browser needed: {v}");
}
