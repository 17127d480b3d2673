//! `kill -9` the server in the middle of a game, restart it: the game resumes at the same position with the same
//! clocks (the downtime charged to no one), and the players reconnect and resync.

mod common;

use std::time::{Duration, Instant};

use common::{Ws, friend_game, guest, start};
use futures_util::{SinkExt, StreamExt};
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

fn last_move(frames: &[Value], ply: u64) -> Option<Value> {
    frames
        .iter()
        .filter(|f| f["t"] == "game_events")
        .flat_map(|f| f["events"].as_array().unwrap().iter())
        .find(|e| e["type"] == "move_made" && e["ply"] == ply)
        .cloned()
}

#[tokio::test(flavor = "multi_thread")]
async fn kill_9_and_restart_resumes_the_game() {
    let dir = std::env::temp_dir().join(format!("guoxiang-kill9-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("g.db").display());
    let (port, server) = start(&db);
    let (gid, [a, b], mut wa, mut wb) = friend_game(port).await;
    for (i, mv) in ["e2e4", "c7c5", "g1f3", "d7d6"].into_iter().enumerate() {
        let ws = if i % 2 == 0 { &mut wa } else { &mut wb };
        ws.req(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": mv}})).await;
    }
    // The last acknowledged move is durable: kill at once, without any grace.
    let mv4 = loop {
        if let Some(m) = last_move(&wa.seen, 4) {
            break m;
        }
        let v = wa.next().await;
        wa.seen.push(v);
    };
    drop(server); // SIGKILL
    drop((wa, wb));
    std::thread::sleep(Duration::from_secs(3)); // downtime: charged to no one
    let (port, server) = start(&db);
    let mut wa = Ws::connect(port, &a).await;
    // A reconnecting tab learns from `hello` which games its user plays.
    let hello = wa.wait(|v| v["t"] == "hello").await;
    assert_eq!(hello["playing"], json!([gid]));
    // A client that missed events the restarted server no longer has gets a full snapshot.
    wa.req(json!({"t": "subscribe", "game_id": gid, "since_version": 2})).await;
    let snap = wa.wait(|v| v["t"] == "game_snapshot").await["snapshot"].clone();
    assert_eq!(snap["fen"], mv4["fen"], "same position");
    assert_eq!(snap["moves"].as_array().unwrap().len(), 4);
    let white_before = mv4["clocks"]["white_ms"].as_u64().unwrap();
    let white_now = snap["clocks"]["white_ms"].as_u64().unwrap();
    // White's clock ran only between the last move and the kill (well under the 3 s of downtime).
    assert!(white_now <= white_before && white_before - white_now < 2_000, "{white_before} → {white_now}");
    assert_eq!(snap["clocks"]["black_ms"], mv4["clocks"]["black_ms"]);
    wa.req(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "d2d4"}})).await;
    let mut wb = Ws::connect(port, &b).await;
    wb.req(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = wb.wait(|v| v["t"] == "game_snapshot").await;
    assert_eq!(snap["snapshot"]["moves"].as_array().unwrap().len(), 5);
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Morphy's Opera game: 33 plies to mate, played again and again by the games of the burst below.
const OPERA: [&str; 33] = [
    "e2e4", "e7e5", "g1f3", "d7d6", "d2d4", "c8g4", "d4e5", "g4f3", "d1f3", "d6e5", "f1c4", "g8f6", "f3b3", "d8e7",
    "b1c3", "c7c6", "c1g5", "b7b5", "c3b5", "c6b5", "c4b5", "b8d7", "e1c1", "a8d8", "d1d7", "d8d7", "h1d1", "e7e6",
    "b5d7", "f6d7", "b3b8", "d7b8", "d1d8",
];

/// One game of the burst: its id, both players' sessions, and the moves acknowledged so far (over all trials).
struct BurstGame {
    id: String,
    sessions: [String; 2],
    acked: usize,
}

/// A player's connection that gives up quietly when the server dies.
async fn connect_quiet(port: u16, session: &str) -> Option<Ws> {
    let mut req = format!("ws://127.0.0.1:{port}/ws").into_client_request().ok()?;
    req.headers_mut().insert("Cookie", format!("gx_session={session}").parse().ok()?);
    let (s, _) = tokio_tungstenite::connect_async(req).await.ok()?;
    let mut ws = Ws { s, id: 0, seen: Vec::new() };
    ws.s.send(Message::Text(
        json!({"t": "hello", "protocol": guoxiang_protocol::PROTOCOL_VERSION, "id": 0}).to_string().into(),
    ))
    .await
    .ok()?;
    Some(ws)
}

/// Sends a move; `Some(true)` when acknowledged, `Some(false)` when refused, `None` when the connection died.
async fn move_quiet(ws: &mut Ws, gid: &str, uci: &str) -> Option<bool> {
    ws.id += 1;
    let id = ws.id;
    let m = json!({"t": "game", "game_id": gid, "id": id, "action": {"t": "move", "uci": uci}});
    ws.s.send(Message::Text(m.to_string().into())).await.ok()?;
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), ws.s.next()).await.ok()??.ok()?;
        if let Message::Text(t) = m {
            let v: Value = serde_json::from_str(&t).ok()?;
            if v["id"] == json!(id) && v["t"] != "game_events" && v["t"] != "game_snapshot" {
                return Some(v["t"] == "ack");
            }
        }
    }
}

/// Plays `game` from its acknowledged moves on, as fast as the acks come, until the line ends or the server dies.
/// Returns how many moves were acknowledged in all, and whether a move was in flight when the connection died.
async fn burst(port: u16, game: &BurstGame, count: &std::sync::atomic::AtomicUsize) -> (usize, bool) {
    let mut acked = game.acked;
    let (Some(mut w), Some(mut b)) =
        (connect_quiet(port, &game.sessions[0]).await, connect_quiet(port, &game.sessions[1]).await)
    else {
        return (acked, false);
    };
    while acked < OPERA.len() {
        let ws = if acked.is_multiple_of(2) { &mut w } else { &mut b };
        match move_quiet(ws, &game.id, OPERA[acked]).await {
            Some(true) => {
                acked += 1;
                count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
            Some(false) => panic!("game {}: move {} ({}) refused", game.id, acked + 1, OPERA[acked]),
            None => return (acked, true),
        }
    }
    (acked, false)
}

/// `kill -9` at random moments (after a random number of acknowledged moves) while many games move as fast as they
/// can, 24 times over one database: after each
/// kill, every acknowledged move is in the database, in order, and at most the one move in flight per game is
/// there without its ack; the next run resumes every game from what is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_kills_during_a_burst_lose_no_acknowledged_move() {
    const TRIALS: usize = 24;
    const GAMES: usize = 12;
    let dir = std::env::temp_dir().join(format!("guoxiang-kill-burst-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("g.db").display());
    let seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64;
    println!("seed {seed}");
    let mut rng = seed | 1;
    let mut next_rand = move |n: u64| {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng % n
    };
    let mut games: Vec<BurstGame> = Vec::new();
    let mut total_acked = 0;
    let mut finished = 0;
    let mut mid_burst = 0;
    for trial in 0..TRIALS {
        let (port, server) = start(&db);
        // Keep GAMES games going: replace the ones that reached mate.
        games.retain(|g| g.acked < OPERA.len());
        while games.len() < GAMES {
            let (a, b) = (guest(port), guest(port));
            let mut wa = Ws::connect(port, &a).await;
            let mut wb = Ws::connect(port, &b).await;
            let c =
                wa.req(json!({"t": "challenge_friend", "time_control": "-", "rated": false, "color": "white"})).await;
            wb.req(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
            let id = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
            games.push(BurstGame { id, sessions: [a, b], acked: 0 });
        }
        // The kill comes after a random number of acknowledgements of this run, so always in the middle of it.
        let remaining: usize = games.iter().map(|g| OPERA.len() - g.acked).sum();
        let kill_after = 1 + next_rand(remaining as u64 - 1) as usize;
        let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let tasks: Vec<_> = games
            .iter()
            .map(|g| {
                let g = BurstGame { id: g.id.clone(), sessions: g.sessions.clone(), acked: g.acked };
                let count = count.clone();
                tokio::spawn(async move { burst(port, &g, &count).await })
            })
            .collect();
        let t = Instant::now();
        while count.load(std::sync::atomic::Ordering::SeqCst) < kill_after {
            assert!(t.elapsed() < Duration::from_secs(60), "trial {trial}: the burst stalled");
            tokio::time::sleep(Duration::from_micros(200)).await;
        }
        drop(server); // SIGKILL, mid-burst
        let mut in_flight = Vec::new();
        for (g, t) in games.iter_mut().zip(tasks) {
            let (acked, flying) = t.await.unwrap();
            total_acked += acked - g.acked;
            g.acked = acked;
            in_flight.push(flying);
        }
        if in_flight.iter().any(|f| *f) {
            mid_burst += 1;
        }
        let store = guoxiang_store::Store::connect(&db).await.unwrap();
        for (g, flying) in games.iter_mut().zip(in_flight) {
            let (row, moves) = store.game(&g.id).await.unwrap().unwrap_or_else(|| panic!("game {} lost", g.id));
            let stored: Vec<&str> = moves.iter().map(|m| m.uci.as_str()).collect();
            assert!(
                stored.len() >= g.acked,
                "trial {trial} (seed {seed}): game {} lost acknowledged moves: {} acked, {} stored",
                g.id,
                g.acked,
                stored.len()
            );
            let extra = stored.len() - g.acked;
            assert!(extra <= usize::from(flying), "trial {trial}: game {} has {extra} moves never sent", g.id);
            assert_eq!(stored, OPERA[..stored.len()], "trial {trial}: game {} stored out of order", g.id);
            for (i, m) in moves.iter().enumerate() {
                assert_eq!(m.ply, i as i64 + 1);
            }
            if stored.len() == OPERA.len() {
                assert_eq!(row.status, "finished", "game {} ended in mate", g.id);
                finished += 1;
            }
            // A move that committed without its ack counts as played: the next run goes on after it.
            g.acked = stored.len();
        }
        store.close().await;
    }
    println!(
        "{TRIALS} kills ({mid_burst} with moves in flight), {total_acked} acknowledged moves, {finished} games to \
         mate, none lost"
    );
    assert!(mid_burst >= TRIALS * 3 / 4, "only {mid_burst} of {TRIALS} kills came while moves were in flight");
    let _ = std::fs::remove_dir_all(&dir);
}
