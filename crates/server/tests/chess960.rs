//! Chess960 games over the WebSocket: a chosen or a random start, castling by moving the king onto its rook or to
//! its castling square, casual only, and the PGN with `Variant "Chess960"`, `SetUp` and `FEN`.

mod common;

use common::{TestServer, play, temp_db};
use serde_json::{Value, json};

/// A friend challenge with `variant`, accepted; returns (game id, white's ws, black's ws, the answer to creating it).
async fn challenge(server: &TestServer, variant: Value) -> (String, common::Ws, common::Ws) {
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let mut wa = server.ws(&a).await;
    let mut wb = server.ws(&b).await;
    let c = wa
        .request(json!({"t": "challenge_friend", "time_control": "300+3", "rated": false, "color": "white", "variant": variant}))
        .await;
    assert_eq!(c["t"], "challenge_created", "{c}");
    wb.ok(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wb.wait(|v| v["t"] == "game_started").await;
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    wb.ok(json!({"t": "subscribe", "game_id": gid})).await;
    (gid, wa, wb)
}

#[tokio::test]
async fn a_chosen_start_castles_king_onto_rook_and_exports_its_setup() {
    let server = TestServer::start(&temp_db("c960_chosen")).await;
    // Number 518 is the usual start, in Chess960 mode: castling is the king onto its rook.
    let (gid, mut wa, mut wb) = challenge(&server, json!({"kind": "chess960", "position": 518})).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["variant"]["kind"], "chess960", "{snap}");
    let start = snap["snapshot"]["variant"]["fen"].as_str().unwrap().to_owned();
    assert!(start.starts_with("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w"), "{start}");
    for (w, b) in [("e2e4", "e7e5"), ("g1f3", "g8f6"), ("f1c4", "f8c5")] {
        play(&mut wa, &gid, w).await;
        play(&mut wb, &gid, b).await;
    }
    // White castles by moving the king onto its rook (the UCI form in Chess960)…
    play(&mut wa, &gid, "e1h1").await;
    let mv = wb.wait(|v| v["t"] == "game_events" && v["events"][0]["ply"] == 7).await;
    let mv = &mv["events"][0];
    assert_eq!((mv["san"].as_str(), mv["uci"].as_str()), (Some("O-O"), Some("e1h1")), "{mv}");
    // …and Black by moving the king to its castling square, which no ordinary king move reaches.
    play(&mut wb, &gid, "e8g8").await;
    let mv = wa.wait(|v| v["t"] == "game_events" && v["events"][0]["ply"] == 8).await;
    assert_eq!((mv["events"][0]["san"].as_str(), mv["events"][0]["uci"].as_str()), (Some("O-O"), Some("e8h8")), "{mv}");
    assert!(mv["events"][0]["fen"].as_str().unwrap().starts_with("rnbq1rk1/"), "{mv}");
    wa.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wb.event(&gid, "game_ended").await;
    let pgn = reqwest::get(server.url(&format!("/game/export/{gid}"))).await.unwrap().text().await.unwrap();
    assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
    assert!(pgn.contains("[SetUp \"1\"]"), "{pgn}");
    assert!(pgn.contains(&format!("[FEN \"{start}\"]")), "{pgn}");
    assert!(pgn.contains("4. O-O {") && pgn.contains("4... O-O {"), "{pgn}");
    python_chess_reads(&pgn, &start, "e2e4 e7e5 g1f3 g8f6 f1c4 f8c5 e1h1 e8h8");
    // The Lichess-shaped JSON export names the variant.
    let j: Value = reqwest::Client::new()
        .get(server.url(&format!("/game/export/{gid}")))
        .header("accept", "application/json")
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(j["variant"], "chess960", "{j}");
}

/// python-chess (an independent reader) reads the PGN as a Chess960 game from `start` with these moves (UCI in its
/// Chess960 form). Skipped with a message where python-chess is not installed.
fn python_chess_reads(pgn: &str, start: &str, ucis: &str) {
    use std::io::Write;
    let script = "import sys, chess.pgn\n\
                  g = chess.pgn.read_game(sys.stdin)\n\
                  b = g.board()\n\
                  print(b.chess960, b.fen())\n\
                  print(' '.join(m.uci() for m in g.mainline_moves()))\n";
    let child = std::process::Command::new("python3")
        .args(["-c", script])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("python3 not found: the python-chess read-back is skipped");
        return;
    };
    child.stdin.take().unwrap().write_all(pgn.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    if !out.status.success() && String::from_utf8_lossy(&out.stderr).contains("No module named 'chess'") {
        eprintln!("python-chess is not installed: the read-back is skipped");
        return;
    }
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(format!("True {start}").as_str()), "{text}");
    assert_eq!(lines.next(), Some(ucis), "{text}");
}

#[tokio::test]
async fn random_starts_seeks_and_the_computer_and_what_is_refused() {
    let server = TestServer::start(&temp_db("c960_random")).await;
    // A random start: a Chess960 position with both sides' pieces mirrored.
    let (gid, mut wa, _wb) = challenge(&server, json!({"kind": "chess960"})).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["variant"]["kind"], "chess960");
    let fen = snap["snapshot"]["variant"]["fen"].as_str().unwrap();
    let ranks: Vec<&str> = fen.split(' ').next().unwrap().split('/').collect();
    assert_eq!(ranks[0].to_uppercase(), ranks[7], "{fen}");
    let live = reqwest::get(server.url(&format!("/api/game/{gid}"))).await.unwrap().json::<Value>().await.unwrap();
    assert_eq!(live["chess960"], true, "{live}");

    let (_, c) = server.guest().await;
    let mut wc = server.ws(&c).await;
    // Against the computer.
    wc.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-", "variant": {"kind": "chess960", "position": 959}}))
        .await;
    let g = wc.wait(|v| v["t"] == "game_started").await;
    wc.ok(json!({"t": "subscribe", "game_id": g["game_id"]})).await;
    let snap = wc.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["variant"]["kind"], "chess960");
    // A seek shows its variant in the lobby.
    wc.ok(json!({"t": "lobby_subscribe"})).await;
    let r = wc.request(json!({"t": "create_seek", "time_control": "600+0", "rated": false, "color": "random", "variant": {"kind": "chess960", "position": 100}})).await;
    assert_eq!(r["t"], "seek_created", "{r}");
    let added = wc.wait(|v| v["t"] == "seek_added").await;
    assert_eq!(added["seek"]["variant"], json!({"kind": "chess960", "position": 100}), "{added}");

    // Refused: a rated Chess960 game, a number past 959, Chess960 with a fen.
    let (_, reg) = server.register("c960player").await;
    let mut wr = server.ws(&reg).await;
    let r = wr
        .request(json!({"t": "challenge_friend", "time_control": "300+3", "rated": true, "color": "white", "variant": {"kind": "chess960"}}))
        .await;
    assert_eq!(r["code"], "not_ratable", "{r}");
    let r = wc
        .request(json!({"t": "challenge_friend", "time_control": "300+3", "rated": false, "color": "white", "variant": {"kind": "chess960", "position": 960}}))
        .await;
    assert_eq!(r["code"], "bad_variant", "{r}");
    let r = wc
        .request(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-", "fen": "4k3/8/8/8/8/8/8/3QK3 w - - 0 1", "variant": {"kind": "chess960"}}))
        .await;
    assert_eq!(r["code"], "bad_variant", "{r}");
}
