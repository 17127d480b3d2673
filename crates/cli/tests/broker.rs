//! Three `guoxiang serve --broker` processes on one database and one Redis (issue 19, second part): any node serves
//! any client. A game whose players are connected to two other nodes than the one that runs it is listed on every node
//! and played to the end;
//! the node that runs a game is killed with SIGKILL mid-game and the players, still on their nodes, go on as another
//! node takes the game over, with every acknowledged move and the clocks as they were; the lobby (one node runs it)
//! pairs players on different nodes by a seek, by the pool and by a challenge link. The node that runs a game is
//! stopped with SIGSTOP past its lease; when it resumes, its stale copy cannot commit (the epoch refuses its write)
//! and it serves its clients again through the game's new owner. Rate limits and the pause after failed logins
//! hold across the nodes.
//!
//! The database is PostgreSQL (a new schema) when `GUOXIANG_TEST_POSTGRES` is set, as in CI, else a SQLite file.
//! Redis is Debian's `redis-server`, started on a Unix socket of the test's own; without it the tests say so and
//! pass, except in CI (`CI` set), where they fail.

mod common;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{Server, Ws, guest, signal, start_with};
use serde_json::{Value, json};

const LEASE_MS: &str = "1500";

struct Redis {
    child: Child,
    url: String,
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

struct Cluster {
    dir: std::path::PathBuf,
    db: String,
    redis: Redis,
}

impl Cluster {
    /// `None` (after saying why) when there is no redis-server here and this is not CI.
    fn new(name: &str) -> Option<Cluster> {
        if Command::new("redis-server").arg("--version").output().is_err() {
            assert!(std::env::var_os("CI").is_none(), "CI must have redis-server (.ci/run installs it)");
            eprintln!("SKIP: no redis-server (apt-get install redis-server)");
            return None;
        }
        let dir = std::env::temp_dir().join(format!("guoxiang-broker-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let sock = dir.join("redis.sock");
        let child = Command::new("redis-server")
            .args(["--port", "0", "--unixsocket"])
            .arg(&sock)
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !sock.exists() {
            assert!(started.elapsed() < Duration::from_secs(10), "redis-server did not start");
            std::thread::sleep(Duration::from_millis(20));
        }
        let redis = Redis { child, url: format!("redis+unix://{}", sock.display()) };
        let db = match std::env::var("GUOXIANG_TEST_POSTGRES") {
            Ok(pg) => {
                let schema = format!("broker_{name}_{}", std::process::id());
                let ok = Command::new("psql").args([&pg, "-qc", &format!("CREATE SCHEMA {schema}")]).status();
                assert!(ok.is_ok_and(|s| s.success()), "psql could not create the schema {schema}");
                let sep = if pg.contains('?') { '&' } else { '?' };
                format!("{pg}{sep}options=-c%20search_path%3D{schema}")
            }
            Err(_) => format!("sqlite://{}", dir.join("g.db").display()),
        };
        Some(Cluster { dir, db, redis })
    }

    fn node(&self, name: &str) -> (u16, Server) {
        // The tests and the load generator read the nodes' /metrics.
        start_with(&self.db, &["--broker", &self.redis.url, "--node", name, "--lease-ms", LEASE_MS, "--metrics-public"])
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn mv(gid: &str, uci: &str) -> Value {
    json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": uci}})
}

/// Waits for the `game_events` frame with the event of `version` and returns that event (or a snapshot at or past it).
async fn event_at(ws: &mut Ws, version: u64) -> Value {
    loop {
        let f = ws.wait(|v| v["t"] == "game_events" || v["t"] == "game_snapshot").await;
        if f["t"] == "game_snapshot" {
            if f["snapshot"]["version"].as_u64() >= Some(version) {
                return f;
            }
            continue;
        }
        if let Some(e) = f["events"].as_array().unwrap().iter().find(|e| e["version"].as_u64() == Some(version)) {
            let e = e.clone();
            // The frame may carry later events too (a move and the end it brings): keep it for them.
            ws.seen.push(f);
            return e;
        }
    }
}

/// A friend's game made on the node at `port` by two new guests (White first): its id and the sessions. Unlike
/// `common::friend_game` nobody follows it there, so its versions are its moves.
async fn game_made_on(port: u16) -> (String, [String; 2]) {
    let (a, b) = (guest(port), guest(port));
    let mut wa = Ws::connect(port, &a).await;
    let mut wb = Ws::connect(port, &b).await;
    let c = wa.req(json!({"t": "challenge_friend", "time_control": "600+5", "rated": false, "color": "white"})).await;
    wb.req(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    (gid, [a, b])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_other_nodes_play_a_game_to_the_end() {
    let Some(cluster) = Cluster::new("play") else { return };
    let (pa, _a) = cluster.node("a");
    let (pb, _b) = cluster.node("b");
    let (pc, _c) = cluster.node("c");
    // White is also connected to node b before the game starts: the notification crosses the broker.
    let (white_s, black_s) = (guest(pa), guest(pa));
    let mut w_early = Ws::connect(pb, &white_s).await;
    let mut wa = Ws::connect(pa, &white_s).await;
    let mut ba = Ws::connect(pa, &black_s).await;
    let c = wa.req(json!({"t": "challenge_friend", "time_control": "600+5", "rated": false, "color": "white"})).await;
    ba.req(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    let started = w_early.wait(|v| v["t"] == "game_started").await;
    assert_eq!(started["game_id"], json!(gid), "node b told White of the game node a started");
    assert_eq!(started["color"], "white");

    // The game runs on node a; White plays from node b and Black from node c.
    let mut w = Ws::connect(pb, &white_s).await;
    let hello = &w.seen[0];
    assert_eq!(hello["playing"], json!([gid]), "node b's hello lists the game node a runs: {hello}");
    let mut b = Ws::connect(pc, &black_s).await;
    w.req(json!({"t": "subscribe", "game_id": gid})).await;
    b.req(json!({"t": "subscribe", "game_id": gid})).await;
    // The list of games being played is the cluster's: node c lists the game node a runs.
    let listed = Instant::now();
    loop {
        let live = http_get(pc, "/api/live");
        if live.contains(&gid) {
            break;
        }
        assert!(listed.elapsed() < Duration::from_secs(10), "node c does not list node a's game: {live}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    for (i, m) in moves.into_iter().enumerate() {
        let (me, them) = if i % 2 == 0 { (&mut w, &mut b) } else { (&mut b, &mut w) };
        me.req(mv(&gid, m)).await;
        // The opponent, on the third node, sees the move.
        let e = event_at(them, i as u64 + 1).await;
        assert_eq!(e["type"], "move_made", "{e}");
        assert_eq!(e["uci"], m, "{e}");
    }
    // Fool's mate: both players see the end on their nodes.
    for ws in [&mut w, &mut b] {
        let end = event_at(ws, 5).await;
        assert_eq!(end["type"], "game_ended", "{end}");
        assert_eq!(end["result"], "0-1", "{end}");
        assert_eq!(end["termination"], "checkmate", "{end}");
    }
    // A refusal from the owner reaches the player with its code: the game is over.
    let r = w.request(mv(&gid, "e2e4")).await;
    assert_eq!(r["t"], "error", "{r}");
    // The stored game has the four moves and the result, read through node c's HTTP API.
    let pgn = http_get(pc, &format!("/api/game/{gid}"));
    assert!(pgn.contains("\"status\":\"finished\"") || pgn.contains("mate"), "{pgn}");
    // Node b counted its requests to node a, and the broker's lag.
    let metrics = http_get(pb, "/metrics");
    let remote = metric(&metrics, "guoxiang_remote_requests_total");
    assert!(remote >= 2.0, "node b sent its player's moves to node a: {remote}\n{metrics}");
    assert!(metric(&metrics, "guoxiang_broker_lag_seconds_count") > 0.0, "{metrics}");
    assert!(http_get(pb, "/readyz").contains("ready"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_mid_game_the_players_on_other_nodes_go_on() {
    let Some(cluster) = Cluster::new("kill") else { return };
    let (pa, node_a) = cluster.node("a");
    let (pb, _b) = cluster.node("b");
    let (pc, _c) = cluster.node("c");
    let (gid, [white_s, black_s]) = game_made_on(pa).await;
    let mut w = Ws::connect(pb, &white_s).await;
    let mut b = Ws::connect(pc, &black_s).await;
    w.req(json!({"t": "subscribe", "game_id": gid})).await;
    b.req(json!({"t": "subscribe", "game_id": gid})).await;
    for (i, m) in ["e2e4", "c7c5", "g1f3", "d7d6"].into_iter().enumerate() {
        let ws = if i % 2 == 0 { &mut w } else { &mut b };
        ws.req(mv(&gid, m)).await;
    }
    let clocks = w.wait(|v| v["t"] == "clocks" && v["running"] == "white").await;
    let white_ms = clocks["white_ms"].as_u64().unwrap();

    drop(node_a); // SIGKILL, right after Black's fourth move was acknowledged
    let killed = Instant::now();
    // White, still on node b, moves: the request waits for the takeover and is carried out by the new owner.
    w.req(mv(&gid, "d2d4")).await;
    println!("White's move went through {:?} after the owner was killed", killed.elapsed());
    let e = event_at(&mut b, 5).await;
    assert_eq!(e["uci"], "d2d4", "Black, on node c, sees White's move: {e}");
    b.req(mv(&gid, "c5d4")).await;
    let e = event_at(&mut w, 6).await;
    assert_eq!(e["uci"], "c5d4", "{e}");
    // Every acknowledged move, and White's clock not charged for the gap: its move's clock is what was left when
    // the owner died, plus the increment, less the time White really took on the new owner (well under a second).
    let snap = snapshot(&mut w, &gid).await;
    let moves: Vec<&str> = snap["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap()).collect();
    assert_eq!(moves, ["e2e4", "c7c5", "g1f3", "d7d6", "d2d4", "c5d4"]);
    let white_after = snap["moves"][4]["clock_ms"].as_u64().unwrap();
    let gap = killed.elapsed().as_millis() as u64;
    assert!(
        white_after + 1500 >= white_ms + 5000,
        "White had {white_ms} ms when the owner died, {white_after} ms after the move {gap} ms later"
    );
    // One of the two remaining nodes owns the game now, and runs the lobby.
    let owner = owner_of(&cluster, &gid);
    assert!(owner == "b" || owner == "c", "{owner}");
    let lobby = status(&cluster)["lobby"].clone();
    assert!(lobby == "b" || lobby == "c", "the lobby moved off the dead node too: {lobby}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_stopped_past_its_lease_cannot_commit_when_it_resumes() {
    let Some(cluster) = Cluster::new("stop") else { return };
    let (pa, node_a) = cluster.node("a");
    let (pb, _b) = cluster.node("b");
    let (pc, _c) = cluster.node("c");
    let (gid, [white_s, black_s]) = game_made_on(pa).await;
    assert_eq!(owner_of(&cluster, &gid), "a");
    // White plays from node b, Black from node c; Black also has a connection to node a, the owner.
    let mut w = Ws::connect(pb, &white_s).await;
    let mut b = Ws::connect(pc, &black_s).await;
    let mut b_on_a = Ws::connect(pa, &black_s).await;
    for ws in [&mut w, &mut b, &mut b_on_a] {
        ws.req(json!({"t": "subscribe", "game_id": gid})).await;
    }
    w.req(mv(&gid, "e2e4")).await;
    b.req(mv(&gid, "e7e5")).await;
    w.req(mv(&gid, "g1f3")).await;

    // Node a stops (Black to move in its copy). Past its lease, node b or c takes the game over: Black's next move
    // waits for that and is carried out by the new owner.
    signal(&node_a, "-STOP");
    let stopped = Instant::now();
    b.req(mv(&gid, "b8c6")).await;
    println!("Black's move went through {:?} after the owner was stopped", stopped.elapsed());
    let owner = owner_of(&cluster, &gid);
    assert!(owner == "b" || owner == "c", "the game moved to a running node: {owner}");

    // Node a resumes with its stale copy, where Black is still to move: d7d6 is legal there and would fork the
    // game. Whatever node a does first — its write refused by the epoch (`not_saved`), or the game found taken and
    // the move sent on to the owner, where it is White's turn (`not_your_turn`) — the move is refused and the game
    // is the owner's.
    signal(&node_a, "-CONT");
    let r = b_on_a.request(mv(&gid, "d7d6")).await;
    assert_eq!(r["t"], "error", "node a committed a move to a game it no longer owns: {r}");
    assert!(r["code"] == "not_saved" || r["code"] == "not_your_turn", "fenced, or the owner's refusal: {r}");
    assert_eq!(moves_of(&snapshot(&mut w, &gid).await), ["e2e4", "e7e5", "g1f3", "b8c6"]);
    let fenced = metric(&http_get(pa, "/metrics"), "guoxiang_fenced_writes_total");
    println!("node a: {r}; its writes refused by the epoch: {fenced}");
    // Node a is a node of the cluster again: White plays on node b, and Black's connection to node a plays on
    // through the new owner.
    w.req(mv(&gid, "f1b5")).await;
    let r = b_on_a.request(mv(&gid, "a7a6")).await;
    assert_ne!(r["t"], "error", "Black's move through node a after it resumed: {r}");
    let snap = snapshot(&mut w, &gid).await;
    assert_eq!(
        moves_of(&snap),
        ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"],
        "the game as White, on node b, has it"
    );
    assert_eq!(owner_of(&cluster, &gid), owner, "the game stays with its new owner");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_pairs_players_on_different_nodes() {
    let Some(cluster) = Cluster::new("lobby") else { return };
    let (pa, _a) = cluster.node("a");
    let (pb, _b) = cluster.node("b");
    let (pc, _c) = cluster.node("c");
    let (s1, s2) = (guest(pa), guest(pa));
    let mut p1 = Ws::connect(pb, &s1).await;
    let mut p2 = Ws::connect(pc, &s2).await;
    let mut watcher = Ws::connect(pa, &guest(pa)).await;
    watcher.req(json!({"t": "lobby_subscribe"})).await;

    // A seek posted on node b: node a's lobby follower sees it, and a player on node c accepts it.
    let seek = p1.req(json!({"t": "create_seek", "time_control": "300+3", "rated": false, "color": "white"})).await;
    let seek_id = seek["seek_id"].clone();
    let added = watcher.wait(|v| v["t"] == "seek_added").await;
    assert_eq!(added["seek"]["id"], seek_id, "{added}");
    p2.req(json!({"t": "accept_seek", "seek_id": seek_id})).await;
    let g1 = p1.wait(|v| v["t"] == "game_started").await;
    let g2 = p2.wait(|v| v["t"] == "game_started").await;
    assert_eq!(g1["game_id"], g2["game_id"]);
    assert_eq!((g1["color"].as_str(), g2["color"].as_str()), (Some("white"), Some("black")));
    let removed = watcher.wait(|v| v["t"] == "seek_removed").await;
    assert_eq!(removed["seek_id"], seek_id);
    let gid = g1["game_id"].as_str().unwrap().to_owned();
    assert_eq!(owner_of(&cluster, &gid), "c", "the game is made on the accepting player's node");
    p1.req(json!({"t": "subscribe", "game_id": gid})).await;
    p2.req(json!({"t": "subscribe", "game_id": gid})).await;
    p1.req(mv(&gid, "e2e4")).await;
    assert_eq!(event_at(&mut p2, 1).await["uci"], "e2e4");
    p2.req(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;

    // The quick-pairing pool pairs a player on node b with one on node c.
    p1.req(json!({"t": "join_pool", "time_control": "180+2", "rated": false})).await;
    p2.req(json!({"t": "join_pool", "time_control": "180+2", "rated": false})).await;
    let g1 = p1.wait(|v| v["t"] == "game_started" && v["game_id"] != json!(gid)).await;
    let g2 = p2.wait(|v| v["t"] == "game_started" && v["game_id"] != json!(gid)).await;
    assert_eq!(g1["game_id"], g2["game_id"], "one game for the two");
    assert_ne!(g1["color"], g2["color"]);

    // A challenge link made on node b is accepted on node c; the challenger hears of it on node b.
    let c = p1.req(json!({"t": "challenge_friend", "time_control": "600+5", "rated": false, "color": "black"})).await;
    p2.req(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    let started = p1.wait(|v| v["t"] == "game_started" && v["game_id"] == c["challenge_id"]).await;
    assert_eq!(started["color"], "black");
    let link = p1.wait(|v| v["t"] == "challenge" && v["challenge"]["status"] == "accepted").await;
    assert_eq!(link["challenge"]["id"], c["challenge_id"], "{link}");
    // A second accept of the same link is refused wherever it comes from.
    let r = watcher.request(json!({"t": "accept_challenge", "challenge_id": c["challenge_id"]})).await;
    assert_eq!(r["t"], "error", "{r}");
    assert_eq!(r["code"], "challenge_closed", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn limits_hold_across_nodes() {
    let Some(cluster) = Cluster::new("limits") else { return };
    let nodes: Vec<(u16, Server)> = ["a", "b", "c"].iter().map(|n| cluster.node(n)).collect();
    let ports: Vec<u16> = nodes.iter().map(|(p, _)| *p).collect();
    // Ten accounts failing to log in from one address a minute (the default), whichever node they reach: tried
    // round-robin on the three nodes, the first ten are judged (wrong password) and the eleventh is refused as too
    // many — each node alone has seen only three or four. (One account's repeated failures count once per address.)
    for i in 0..10 {
        let body = format!(r#"{{"username":"nobody{i}","password":"not the password"}}"#);
        let r = http_post(ports[i % 3], "/api/login", &body);
        assert!(!r.starts_with("HTTP/1.1 429"), "login {} was refused as too many: {r}", i + 1);
    }
    let body = r#"{"username":"nobody10","password":"not the password"}"#;
    let r = http_post(ports[10 % 3], "/api/login", body);
    assert!(r.starts_with("HTTP/1.1 429"), "the eleventh login in a minute went through: {r}");
    assert!(r.contains("rate_limited"), "{r}");

    // Ten wrong passwords for one account in ten minutes pause its logins, whichever nodes they reached: from ten
    // other addresses (the limit per address above must not be what stops them), round-robin on the nodes, then
    // the right password on node c — which has seen only three of the failures — is refused too.
    let account = r#"{"username":"Victim","password":"Qx7 rook on the seventh"}"#;
    let r = http_post_from([127, 0, 0, 20], ports[0], "/api/register", account).await;
    assert!(r.starts_with("HTTP/1.1 200"), "register: {r}");
    let wrong = r#"{"username":"victim","password":"wrong guess"}"#;
    for i in 0..10u8 {
        let r = http_post_from([127, 0, 0, 30 + i], ports[usize::from(i) % 3], "/api/login", wrong).await;
        assert!(r.starts_with("HTTP/1.1 401"), "wrong password {}: {r}", i + 1);
    }
    let r = http_post_from([127, 0, 0, 50], ports[2], "/api/login", account).await;
    assert!(r.starts_with("HTTP/1.1 429"), "the right password after ten wrong ones on three nodes: {r}");
    assert!(r.contains("too many wrong passwords for this account"), "{r}");

    // Three games against the computer at a time per player, on whichever nodes they run: two made on node a and
    // one on node b, the fourth is refused on node c.
    let me = guest(ports[0]);
    for (i, p) in [ports[0], ports[0], ports[1]].into_iter().enumerate() {
        let mut ws = Ws::connect(p, &me).await;
        let r = ws.request(computer_game()).await;
        assert_ne!(r["t"], "error", "computer game {}: {r}", i + 1);
    }
    let mut ws = Ws::connect(ports[2], &me).await;
    let r = ws.request(computer_game()).await;
    assert_eq!(r["code"], "too_many_games", "a fourth game against the computer: {r}");
    drop(nodes);
}

fn computer_game() -> Value {
    json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "600+5"})
}

fn http_post(port: u16, path: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    r
}

/// `http_post` from the loopback address `from` (the server limits logins per client address).
async fn http_post_from(from: [u8; 4], port: u16, path: &str, body: &str) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(std::net::SocketAddr::from((from, 0))).unwrap();
    let mut s = socket.connect(std::net::SocketAddr::from(([127, 0, 0, 1], port))).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).await.unwrap();
    s.write_all(body.as_bytes()).await.unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).await.unwrap();
    r
}

#[test]
fn loadtest_over_three_nodes_reports_the_cross_node_moves() {
    let Some(cluster) = Cluster::new("loadtest") else { return };
    let (pa, _a) = cluster.node("a");
    let (pb, _b) = cluster.node("b");
    let (pc, _c) = cluster.node("c");
    let url = |p: u16| format!("http://127.0.0.1:{p}");
    let out = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(["loadtest", "--games", "6", "--duration", "3", "--move-interval", "0.2"])
        .args(["--url", &url(pa), "--url", &url(pb), "--url", &url(pc)])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("  errors:     0"), "{text}");
    // The lobby creates each game on the accepting player's node; the challenger is on the next node round-robin,
    // so about half the moves cross nodes.
    let line = text.lines().find(|l| l.contains("cluster:")).unwrap_or_else(|| panic!("no cluster line: {text}"));
    let nums: Vec<u64> =
        line.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).filter_map(|w| w.parse().ok()).collect();
    let (nodes, remote, share, committed) = (nums[0], nums[1], nums[2], nums[3]);
    assert_eq!(nodes, 3, "{line}");
    assert!(committed > 0 && remote > 0 && remote <= committed + 12, "{line}");
    assert!((25..=75).contains(&share), "about one move in two crosses nodes: {line}");
}

/// The moves (UCI) of a game's snapshot.
fn moves_of(snap: &Value) -> Vec<&str> {
    snap["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap()).collect()
}

/// `guoxiang cluster status --json` of the cluster.
fn status(cluster: &Cluster) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(["cluster", "status", "--json", "--database", &cluster.db])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The node that owns `gid`, by `guoxiang cluster status --json`.
fn owner_of(cluster: &Cluster, gid: &str) -> String {
    let status = status(cluster);
    let nodes = status["nodes"].as_array().unwrap();
    let owner = nodes.iter().find(|n| n["games"].as_array().unwrap().contains(&json!(gid)));
    owner.map(|n| n["node"].as_str().unwrap().to_owned()).unwrap_or_else(|| panic!("no owner of {gid}: {status}"))
}

async fn snapshot(ws: &mut Ws, gid: &str) -> Value {
    // The snapshot of this subscription, not one an earlier subscription left unread.
    ws.seen.retain(|v| v["t"] != "game_snapshot");
    ws.req(json!({"t": "subscribe", "game_id": gid})).await;
    ws.wait(|v| v["t"] == "game_snapshot").await["snapshot"].clone()
}

fn http_get(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(s, "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    r
}

/// A sample's value in OpenMetrics text (0 when absent).
fn metric(text: &str, name: &str) -> f64 {
    text.lines()
        .find_map(|l| l.strip_prefix(name).and_then(|rest| rest.strip_prefix(' ')))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0.0)
}

/// `http_post` with a session secret as a bearer.
fn http_post_bearer(port: u16, path: &str, session: &str, body: &str) -> String {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAuthorization: Bearer {session}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut r = String::new();
    s.read_to_string(&mut r).unwrap();
    r
}

fn json_body(answer: &str) -> Value {
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or_default();
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

/// Present mode of a study (issue 42) across nodes: the teacher presents on one node, a follower connected to another
/// gets the position (followers register under the study's key in the hub, which the broker relays).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_study_presented_on_one_node_reaches_a_follower_on_another() {
    let Some(cluster) = Cluster::new("study") else { return };
    let (pa, _a) = cluster.node("a");
    let (pb, _b) = cluster.node("b");
    let register = |port, name: &str| {
        let body = json!({"username": name, "password": "correct horse"}).to_string();
        json_body(&http_post(port, "/api/register", &body))["session"].as_str().unwrap().to_owned()
    };
    let teacher = register(pa, "teacher");
    let student = register(pb, "student");
    let study =
        json_body(&http_post_bearer(pa, "/api/study", &teacher, r#"{"title": "Live", "visibility": "public"}"#));
    let id = study["id"].as_str().unwrap_or_else(|| panic!("{study}")).to_owned();
    let mut follower = Ws::connect(pb, &student).await;
    follower.req(json!({"t": "study_follow", "study": id})).await;
    let mut presenter = Ws::connect(pa, &teacher).await;
    presenter.req(json!({"t": "study_present", "study": id, "chapter": 0, "path": []})).await;
    let p = follower.wait(|v| v["t"] == "study_position").await;
    assert_eq!((p["study"].as_str(), p["fen"].as_str()), (Some(id.as_str()), Some(guoxiang_core::STARTING_FEN)));
    presenter.req(json!({"t": "study_release", "study": id})).await;
    follower.wait(|v| v["t"] == "study_released").await;
}
