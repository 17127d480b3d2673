//! Two `guoxiang serve --cluster` processes on one database (issue 19, first part: one owner per live game by a
//! lease, writes fenced by its epoch). A node killed with SIGKILL mid-game: the other takes the game over from the
//! database and it goes on with every acknowledged move. A node stopped with SIGSTOP past its lease and then resumed:
//! its game has moved to the other node, and its write is refused.

mod common;

use std::process::Command;
use std::time::{Duration, Instant};

use common::{Server, Ws, friend_game, signal, start_with};
use serde_json::{Value, json};

/// Leases of 1.5 s: a dead node's games move within about 2 s.
const LEASE_MS: &str = "1500";

struct Cluster {
    dir: std::path::PathBuf,
    db: String,
}

impl Cluster {
    fn new(name: &str) -> Cluster {
        let dir = std::env::temp_dir().join(format!("guoxiang-cluster-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = format!("sqlite://{}", dir.join("g.db").display());
        Cluster { dir, db }
    }

    fn node(&self, name: &str) -> (u16, Server) {
        start_with(&self.db, &["--cluster", "--node", name, "--lease-ms", LEASE_MS])
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

/// Subscribes on node `port` until the node runs the game (it answers "not live here" until it took it over);
/// returns the connection, the snapshot's moves and how long it took.
async fn reach(port: u16, session: &str, gid: &str) -> (Ws, Vec<String>, Duration) {
    let started = Instant::now();
    let mut ws = Ws::connect(port, session).await;
    loop {
        let r = ws.request(json!({"t": "subscribe", "game_id": gid})).await;
        if r["t"] != "error" {
            let snap = ws.wait(|v| v["t"] == "game_snapshot").await;
            let moves = snap["snapshot"]["moves"].as_array().unwrap();
            let moves = moves.iter().map(|m| m["uci"].as_str().unwrap().to_owned()).collect();
            return (ws, moves, started.elapsed());
        }
        assert!(started.elapsed() < Duration::from_secs(15), "node on {port} never took {gid} over: {r}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_node_s_game_goes_on_on_another_node() {
    let cluster = Cluster::new("kill");
    let (pa, node_a) = cluster.node("a");
    let (pb, _node_b) = cluster.node("b");
    let (gid, [white, black], mut wa, mut wb) = friend_game(pa).await;
    for (i, m) in ["e2e4", "c7c5", "g1f3", "d7d6"].into_iter().enumerate() {
        let ws = if i % 2 == 0 { &mut wa } else { &mut wb };
        ws.req(mv(&gid, m)).await;
    }
    let before = status(&cluster);
    assert_eq!(before["nodes"].as_array().unwrap().len(), 1, "{before}");
    assert_eq!(before["nodes"][0]["node"], "a", "{before}");
    assert_eq!(before["nodes"][0]["games"], json!([gid]), "{before}");
    assert!(before["nodes"][0]["leases_until_ms"].as_i64() > before["now_ms"].as_i64(), "{before}");
    // Node b does not run a game node a holds.
    let mut probe = Ws::connect(pb, &white).await;
    let r = probe.request(json!({"t": "subscribe", "game_id": gid})).await;
    assert_eq!(r["t"], "error", "{r}");

    drop(node_a); // SIGKILL, right after the fourth move was acknowledged
    drop((wa, wb));
    let (mut wa, moves, took) = reach(pb, &white, &gid).await;
    println!("node b took the game over {took:?} after node a was killed");
    assert_eq!(moves, ["e2e4", "c7c5", "g1f3", "d7d6"], "every acknowledged move");
    wa.req(mv(&gid, "d2d4")).await;
    let (mut wb, moves, _) = reach(pb, &black, &gid).await;
    assert_eq!(moves.len(), 5);
    wb.req(mv(&gid, "c5d4")).await;
    let after = status(&cluster);
    assert_eq!(after["nodes"].as_array().unwrap().len(), 1, "{after}");
    assert_eq!(after["nodes"][0]["node"], "b", "{after}");
    assert_eq!(after["nodes"][0]["games"], json!([gid]), "{after}");
    assert_eq!(after["unowned_live_games"], json!([]), "{after}");
}

/// `guoxiang cluster status --json` on the cluster's database.
fn status(cluster: &Cluster) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(["cluster", "status", "--json", "--database", &cluster.db])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_stopped_past_its_lease_cannot_commit_when_it_resumes() {
    let cluster = Cluster::new("stop");
    let (pa, node_a) = cluster.node("a");
    let (pb, _node_b) = cluster.node("b");
    let (gid, [white, _black], mut wa, mut wb) = friend_game(pa).await;
    wa.req(mv(&gid, "e2e4")).await;
    wb.req(mv(&gid, "e7e5")).await;

    signal(&node_a, "-STOP");
    let (mut wa2, moves, took) = reach(pb, &white, &gid).await;
    println!("node b took the game over {took:?} after node a was stopped");
    assert_eq!(moves, ["e2e4", "e7e5"]);
    wa2.req(mv(&gid, "g1f3")).await;

    // Node a wakes up with its stale copy (White to move there). A move sent to it is refused: its fence fails, or
    // its renewal has already found the game taken and dropped it.
    signal(&node_a, "-CONT");
    let r = wa.request(mv(&gid, "d2d4")).await;
    assert_eq!(r["t"], "error", "node a committed to a game it no longer owns: {r}");
    assert!(r["code"] == "not_saved" || r["code"] == "unknown_game", "{r}");
    // Node b has the game as it was, and it goes on there.
    let (_, moves, _) = reach(pb, &white, &gid).await;
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3"]);
    let (mut wb2, _, _) = reach(pb, &_black, &gid).await;
    wb2.req(mv(&gid, "b8c6")).await;
    drop(node_a);
}

/// `--log-format json`: every line the node writes to stderr is one JSON object with the time, the level, the
/// module, the node's name and the message (a collector merges the nodes' lines by them).
#[test]
fn json_logs_name_the_node() {
    use std::io::{BufRead, BufReader};
    let cluster = Cluster::new("logs");
    let mut child = Command::new(env!("CARGO_BIN_EXE_guoxiang"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", &cluster.db, "--cluster", "--node", "logs-a"])
        .args(["--log-format", "json"])
        .env("RUST_LOG", "info")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let _server = Server(child);
    // A new database: the node imports the default puzzle set and says so at `info`.
    let mut line = String::new();
    BufReader::new(stderr).read_line(&mut line).unwrap();
    let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("not a JSON line ({e}): {line:?}"));
    assert_eq!(v["node"], "logs-a", "{v}");
    assert_eq!(v["level"], "INFO", "{v}");
    assert!(v["message"].as_str().is_some_and(|m| m.contains("puzzles")), "{v}");
    // The server's crates: the domain (this line), its HTTP layer, its broker, its composition root.
    let ours = ["guoxiang_domain", "guoxiang_http", "guoxiang_broker", "guoxiang_server"];
    assert!(v["target"].as_str().is_some_and(|t| ours.iter().any(|c| t.starts_with(c))), "{v}");
    assert!(v["ts"].as_str().is_some_and(|t| t.ends_with('Z')), "{v}");
}
