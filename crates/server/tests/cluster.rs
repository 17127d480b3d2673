//! Two nodes on one database (issue 19, first part: leases and fencing), in one process: each is a whole server with
//! its own live games, sharing the store (a SQLite file, or a PostgreSQL schema with `GUOXIANG_SERVER_TEST_DB`).
//! A node that stalls past its lease loses its game to the other, which resumes it from the database; the stalled
//! node's next write is refused by the game's fence, and it stops its copy. A graceful shutdown hands games over.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, Ws, friend_game, play, temp_db};
use guoxiang_server::Config;
use guoxiang_server::live::cluster::ClusterConfig;
use guoxiang_store::fault::{Fault, FaultRule, WriteKind};
use serde_json::json;

fn node(name: &str, lease_ms: u64) -> impl FnOnce(&mut Config) {
    let node = name.to_owned();
    move |c: &mut Config| c.cluster = Some(ClusterConfig { node, lease_ms, broker: None })
}

/// Waits (up to 10 s) until `f` holds.
async fn until(what: &str, f: impl Fn() -> bool) {
    let started = Instant::now();
    while !f() {
        assert!(started.elapsed() < Duration::from_secs(10), "waited 10 s for {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

async fn stored_moves(server: &TestServer, gid: &str) -> Vec<String> {
    let (_, moves) = server.state.store.game(gid).await.unwrap().expect("the game is stored");
    moves.into_iter().map(|m| m.uci).collect()
}

async fn lease_of(server: &TestServer, gid: &str) -> (String, i64) {
    let leases = server.state.store.leases().await.unwrap();
    let l = leases.iter().find(|l| l.game_id == gid).unwrap_or_else(|| panic!("no lease of {gid}: {leases:?}"));
    (l.node.clone(), l.epoch)
}

/// The game's moves as a new follower sees them on a node.
async fn live_moves(ws: &mut Ws, gid: &str) -> Vec<String> {
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = ws.wait(|v| v["t"] == "game_snapshot" && v["snapshot"]["id"] == gid).await;
    snap["snapshot"]["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_node_loses_its_game_and_cannot_commit_to_it() {
    let db = temp_db("cluster_stall");
    let a = TestServer::start_with(&db, node("node-a", 1_200)).await;
    let b = TestServer::start_with(&db, node("node-b", 1_200)).await;
    let (_, alice) = a.guest().await;
    let (_, bob) = a.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&a, "600+0", &alice, &bob).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    assert_eq!(lease_of(&a, &gid).await, ("node-a".to_owned(), 1));
    assert!(a.state.live.get(&gid).is_some() && b.state.live.get(&gid).is_none(), "one owner");
    // A few scans later node a still owns it (its renewals keep the lease).
    tokio::time::sleep(Duration::from_millis(2_000)).await;
    assert!(b.state.live.get(&gid).is_none(), "node b took a game whose owner is alive");
    assert_eq!(lease_of(&a, &gid).await, ("node-a".to_owned(), 1));

    // Node a stalls: its renewals hang (as a paused process's would). Its lease lapses; node b takes the game over.
    a.state.store.faults().add(FaultRule::on(WriteKind::RenewLeases, Fault::Hold));
    let stalled = Instant::now();
    until("node b to take the game over", || b.state.live.get(&gid).is_some()).await;
    let gap = stalled.elapsed();
    assert_eq!(lease_of(&b, &gid).await, ("node-b".to_owned(), 2));

    // The players reach node b: the game is there with its moves, and goes on.
    let mut wa2 = b.ws(&alice).await;
    let mut wb2 = b.ws(&bob).await;
    assert_eq!(live_moves(&mut wa2, &gid).await, ["e2e4", "e7e5"]);
    wb2.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut wa2, &gid, "g1f3").await;

    // Node a still runs its stale copy (its renewal is stuck). A move sent there is refused by the fence, written
    // nowhere, and node a drops its copy.
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "move", "uci": "d2d4"}})).await;
    assert_eq!(r["t"], "error", "{r}");
    assert_eq!(r["code"], "not_saved", "{r}");
    until("node a to stop its copy", || a.state.live.get(&gid).is_none()).await;
    assert_eq!(stored_moves(&b, &gid).await, ["e2e4", "e7e5", "g1f3"]);

    // The clocks: the time the game had no owner is charged to no one (White thought far less than the gap).
    let (_, moves) = b.state.store.game(&gid).await.unwrap().unwrap();
    let used = moves[2].used_ms;
    assert!(used < gap.as_millis() as i64, "White was charged {used} ms of a {gap:?} gap");

    play(&mut wb2, &gid, "b8c6").await;
    assert_eq!(stored_moves(&b, &gid).await, ["e2e4", "e7e5", "g1f3", "b8c6"]);

    // Node a comes back: it holds nothing and does not take the game back; node b's renewals keep it.
    a.state.store.faults().clear();
    a.state.store.faults().release();
    assert_eq!(a.state.live.cluster_scan().await.unwrap(), 0);
    assert!(a.state.live.get(&gid).is_none());
    assert_eq!(lease_of(&a, &gid).await, ("node-b".to_owned(), 2));
    play(&mut wa2, &gid, "f1b5").await;
    assert_eq!(stored_moves(&a, &gid).await, ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_graceful_shutdown_hands_its_games_over_at_once() {
    let db = temp_db("cluster_handover");
    // Leases of a minute: whatever moves here moves by hand-over, not by a lease lapsing.
    let a = TestServer::start_with(&db, node("node-a", 60_000)).await;
    let b = TestServer::start_with(&db, node("node-b", 60_000)).await;
    let (_, alice) = a.guest().await;
    let (_, bob) = a.guest().await;
    let (gid, mut wa, _wb) = friend_game(&a, "300+3", &alice, &bob).await;
    play(&mut wa, &gid, "d2d4").await;
    assert_eq!(b.state.live.cluster_scan().await.unwrap(), 0, "a running game is not taken");

    a.state.live.shutdown().await;
    assert!(a.state.live.get(&gid).is_none());
    assert_eq!(b.state.live.cluster_scan().await.unwrap(), 1, "handed over: free at once");
    assert_eq!(lease_of(&b, &gid).await, ("node-b".to_owned(), 2));
    let mut wb2 = b.ws(&bob).await;
    assert_eq!(live_moves(&mut wb2, &gid).await, ["d2d4"]);
    play(&mut wb2, &gid, "g8f6").await;
    assert_eq!(stored_moves(&b, &gid).await, ["d2d4", "g8f6"]);

    // When the game ends its lease goes with it.
    wb2.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    let status = b.state.store.game(&gid).await.unwrap().unwrap().0.status;
    assert_eq!(status, "finished");
}

/// A node alone (no cluster) writes no leases: nothing changes for a single server.
#[tokio::test]
async fn without_a_cluster_there_are_no_leases() {
    let db = temp_db("cluster_none");
    let a = TestServer::start(&db).await;
    let (_, alice) = a.guest().await;
    let (_, bob) = a.guest().await;
    let (gid, mut wa, _wb) = friend_game(&a, "300+3", &alice, &bob).await;
    play(&mut wa, &gid, "e2e4").await;
    assert!(a.state.store.leases().await.unwrap().is_empty());
    assert_eq!(stored_moves(&a, &gid).await, ["e2e4"]);
}

async fn get(server: &TestServer, path: &str) -> (u16, String, String) {
    let r = reqwest::get(server.url(path)).await.unwrap();
    let status = r.status().as_u16();
    let ctype = r.headers().get("content-type").map(|v| v.to_str().unwrap().to_owned()).unwrap_or_default();
    (status, ctype, r.text().await.unwrap())
}

/// The value of a sample line `name value` in a metrics page.
fn sample(page: &str, name: &str) -> f64 {
    let line =
        page.lines().find(|l| l.split(' ').next() == Some(name)).unwrap_or_else(|| panic!("no {name} in\n{page}"));
    line.split(' ').nth(1).unwrap().parse().unwrap()
}

#[tokio::test]
async fn metrics_count_moves_and_commits_and_readyz_answers() {
    let db = temp_db("metrics");
    // The figures are closed unless the host opens them (`--metrics-public`; tests/metrics_access.rs).
    let a = TestServer::start_with(&db, |c| c.metrics.public = true).await;
    assert_eq!(get(&a, "/readyz").await.0, 200);
    let (_, alice) = a.guest().await;
    let (_, bob) = a.guest().await;
    let (gid, mut wa, mut wb) = friend_game(&a, "300+3", &alice, &bob).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    let (status, ctype, page) = get(&a, "/metrics").await;
    assert_eq!(status, 200);
    assert!(ctype.starts_with("application/openmetrics-text"), "{ctype}");
    assert_eq!(sample(&page, "guoxiang_moves_total"), 2.0, "{page}");
    assert_eq!(sample(&page, "guoxiang_live_games"), 1.0, "{page}");
    // The game's creation and the two moves, at least (snapshots and presence may add more).
    assert!(sample(&page, "guoxiang_commit_jobs_total") >= 3.0, "{page}");
    assert!(sample(&page, "guoxiang_commit_seconds_count") >= 1.0, "{page}");
    assert_eq!(sample(&page, "guoxiang_fenced_writes_total"), 0.0, "{page}");
    assert!(page.contains("# TYPE guoxiang_commit_seconds histogram"), "{page}");
    assert!(page.trim_end().ends_with("# EOF"), "{page}");
}

/// A cluster node whose lease renewals fail says it is not ready (a load balancer sends no one there), and is ready
/// again once they succeed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_that_cannot_renew_its_leases_is_not_ready() {
    let db = temp_db("readyz");
    let a = TestServer::start_with(&db, |c| {
        node("node-a", 600)(c);
        c.metrics.public = true;
    })
    .await;
    assert_eq!(get(&a, "/readyz").await.0, 200);
    a.state.store.faults().add(FaultRule::on(WriteKind::RenewLeases, Fault::Fail));
    let started = Instant::now();
    let body = loop {
        let (status, _, body) = get(&a, "/readyz").await;
        if status == 503 {
            break body;
        }
        assert!(started.elapsed() < Duration::from_secs(10), "still ready after 10 s without renewals");
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert!(body.contains("leases were last renewed"), "{body}");
    let (_, _, page) = get(&a, "/metrics").await;
    assert!(sample(&page, "guoxiang_lease_renewal_failures_total") >= 1.0, "{page}");
    a.state.store.faults().clear();
    let started = Instant::now();
    while get(&a, "/readyz").await.0 != 200 {
        assert!(started.elapsed() < Duration::from_secs(10), "not ready again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
