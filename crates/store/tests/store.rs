//! The store against SQLite (a file in a temporary folder) and, when `GUOXIANG_TEST_POSTGRES` holds a URL, against
//! PostgreSQL: every case runs as `<case>::sqlite` and `<case>::postgres`. Each PostgreSQL case gets a schema of
//! its own (through the connection's `search_path`), so cases run in parallel; `.ci/postgres.sh` starts a server.

use std::time::{SystemTime, UNIX_EPOCH};

use guoxiang_store::{
    Dialect, GameRow, LearnProgress, LessonProgress, MoveRow, RatingRow, ReviewStatus, Store, StoreError, WriteOp,
};
use sqlx::Row;

#[macro_use]
mod common;
use common::TestDb;

both!(
    users_and_names,
    sessions_expire,
    sessions_expire_when_idle,
    sessions_of_a_user_end_but_one,
    sessions_from_before_the_idle_limit_count_as_used_at_the_upgrade,
    token_scopes_round_trip,
    batch_plays_a_game,
    failed_batch_rolls_back,
    live_games_resume_with_moves,
    user_games_pages_newest_first,
    reopening_keeps_data_and_migrations,
    concurrent_batches,
    batch_gathering_keeps_order,
    learn_progress_merges,
    review_queue_in_request_order,
    reviews_of_a_dead_node_are_queued_again,
    leases_fence_a_game_taken_over,
    a_takeover_waits_for_a_fenced_batch_in_flight,
);

fn game(id: &str, white: &str, black: &str, created_at_ms: i64, status: &str) -> GameRow {
    GameRow {
        id: id.to_owned(),
        white_id: white.to_owned(),
        white_name: white.to_owned(),
        black_id: black.to_owned(),
        black_name: black.to_owned(),
        white_engine_level: None,
        black_engine_level: None,
        rated: true,
        time_control: "180+2".to_owned(),
        speed: "blitz".to_owned(),
        variant_json: r#"{"key":"standard"}"#.to_owned(),
        status: status.to_owned(),
        result: None,
        termination: None,
        winner: None,
        created_at_ms,
        ended_at_ms: None,
        state_json: "{}".to_owned(),
        version: 0,
        white_rating: None,
        black_rating: None,
        white_rating_diff: None,
        black_rating_diff: None,
        white_points_diff: None,
        black_points_diff: None,
    }
}

fn mv(game_id: &str, ply: i64, uci: &str, san: &str) -> MoveRow {
    MoveRow {
        game_id: game_id.to_owned(),
        ply,
        uci: uci.to_owned(),
        san: san.to_owned(),
        at_ms: 1_000 + ply,
        clock_ms: if ply % 2 == 0 { None } else { Some(180_000 - ply) },
        used_ms: ply * 10,
    }
}

fn append(game_id: &str, moves: Vec<MoveRow>) -> WriteOp {
    WriteOp::AppendMoves { game_id: game_id.to_owned(), moves }
}

fn plies(moves: &[MoveRow]) -> Vec<i64> {
    moves.iter().map(|m| m.ply).collect()
}

async fn users_and_names(db: &TestDb) {
    let store = db.open().await;
    let alice = store.create_user("Alice", Some("hash1"), false, 100).await.unwrap();
    assert_eq!(alice.id, "alice");
    assert_eq!(alice.name, "Alice");
    assert_eq!(store.user("alice").await.unwrap(), Some(alice.clone()));
    assert_eq!(store.user("Alice").await.unwrap(), None, "lookups take the id");
    assert_eq!(store.create_user("ALICE", None, false, 101).await, Err(StoreError::NameTaken));
    assert_eq!(store.create_user("alice", None, true, 101).await, Err(StoreError::NameTaken));

    let zhang = store.create_user("张三", Some("h"), false, 102).await.unwrap();
    assert_eq!(zhang.id, "张三");
    assert_eq!(store.user("张三").await.unwrap().unwrap().name, "张三");
    assert_eq!(store.create_user("张三", None, false, 103).await, Err(StoreError::NameTaken));
    let emile = store.create_user("Émile", None, false, 104).await.unwrap();
    assert_eq!(emile.id, "émile");
    assert_eq!(store.create_user("ÉMILE", None, false, 105).await, Err(StoreError::NameTaken));

    let guest = store.create_user("Guest12345", None, true, 106).await.unwrap();
    let stored = store.user(&guest.id).await.unwrap().unwrap();
    assert!(stored.is_guest && !stored.is_admin && stored.password_hash.is_none() && stored.points == 0);

    store.set_password("alice", "hash2").await.unwrap();
    store.set_admin("alice", true).await.unwrap();
    let alice = store.user("alice").await.unwrap().unwrap();
    assert_eq!(alice.password_hash.as_deref(), Some("hash2"));
    assert!(alice.is_admin && !alice.is_guest);
    assert_eq!(alice.created_at_ms, 100);
    store.set_admin("alice", false).await.unwrap();
    assert!(!store.user("alice").await.unwrap().unwrap().is_admin);

    assert!(matches!(store.set_password("nobody", "h").await, Err(StoreError::NotFound(_))));
    assert!(matches!(store.set_admin("nobody", true).await, Err(StoreError::NotFound(_))));
    assert_eq!(store.user("nobody").await.unwrap(), None);
    store.close().await;
}

async fn sessions_expire(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Bob", None, false, 0).await.unwrap();
    store.create_session("s1", "bob", 0, 1_000).await.unwrap();
    store.create_session("s2", "bob", 0, 5_000).await.unwrap();
    assert_eq!(store.session_user("s1", 999, IDLE).await.unwrap().unwrap().id, "bob");
    assert_eq!(store.session_user("s1", 1_000, IDLE).await.unwrap(), None, "expired at its expiry time");
    assert_eq!(store.session_user("nope", 0, IDLE).await.unwrap(), None);

    store.delete_session("s2").await.unwrap();
    assert_eq!(store.session_user("s2", 0, IDLE).await.unwrap(), None);
    store.delete_session("s2").await.unwrap();

    store.create_session("s3", "bob", 0, 9_000).await.unwrap();
    assert_eq!(store.purge_expired_sessions(2_000, IDLE).await.unwrap(), 1);
    assert_eq!(store.session_user("s3", 2_000, IDLE).await.unwrap().unwrap().id, "bob");
    assert_eq!(store.delete_user_sessions("bob").await.unwrap(), 1);
    assert_eq!(store.session_user("s3", 2_000, IDLE).await.unwrap(), None);

    // Sessions reference users: the foreign key is enforced (on SQLite too).
    let err = store.create_session("s4", "ghost", 0, 9_000).await.unwrap_err();
    assert!(matches!(&err, StoreError::Db(m) if m.contains("create_session")), "{err}");
    store.close().await;
}

/// An idle limit longer than any of these tests' clocks.
const IDLE: i64 = 1 << 40;
const DAY: i64 = 86_400_000;

async fn sessions_expire_when_idle(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Dora", None, false, 0).await.unwrap();
    let idle = 7 * DAY;
    store.create_session("d1", "dora", 0, 30 * DAY).await.unwrap();
    store.create_session("d2", "dora", 0, 30 * DAY).await.unwrap();
    // Used on day 6: the use is recorded, so the session lives on past day 7 (counted from its last use).
    assert_eq!(store.session_user("d1", 6 * DAY, idle).await.unwrap().unwrap().id, "dora");
    assert_eq!(store.session_last_used("d1").await.unwrap(), Some(6 * DAY));
    assert_eq!(store.session_user("d1", 12 * DAY, idle).await.unwrap().unwrap().id, "dora");
    // A use soon after another is not written again (at most one write per SESSION_TOUCH_MS).
    store.session_user("d1", 12 * DAY + 1_000, idle).await.unwrap().unwrap();
    assert_eq!(store.session_last_used("d1").await.unwrap(), Some(12 * DAY));
    // Unused since its creation: refused once idle for the limit, and purged.
    assert_eq!(store.session_user("d2", 7 * DAY, idle).await.unwrap(), None, "idle for 7 days");
    assert_eq!(store.session_last_used("d2").await.unwrap(), Some(0), "a refused use does not refresh it");
    assert_eq!(store.purge_expired_sessions(13 * DAY, idle).await.unwrap(), 1);
    assert_eq!(store.session_last_used("d2").await.unwrap(), None);
    // The stored time can be set back (tests of the server use it instead of waiting).
    store.set_session_last_used("d1", 0).await.unwrap();
    assert_eq!(store.session_user("d1", 13 * DAY, idle).await.unwrap(), None);
    // The absolute limit holds whatever the use.
    store.create_session("d3", "dora", 0, 10 * DAY).await.unwrap();
    store.set_session_last_used("d3", 10 * DAY - 1).await.unwrap();
    assert_eq!(store.session_user("d3", 10 * DAY, idle).await.unwrap(), None);
    store.close().await;
}

async fn sessions_of_a_user_end_but_one(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Eve", None, false, 0).await.unwrap();
    store.create_user("Fay", None, false, 0).await.unwrap();
    for (h, u) in [("e1", "eve"), ("e2", "eve"), ("e3", "eve"), ("f1", "fay")] {
        store.create_session(h, u, 0, DAY).await.unwrap();
    }
    let mut ended = store.end_user_sessions("eve", Some("e2")).await.unwrap();
    ended.sort();
    assert_eq!(ended, ["e1", "e3"]);
    assert!(store.session_user("e2", 1, IDLE).await.unwrap().is_some(), "the one kept");
    assert_eq!(store.session_user("e1", 1, IDLE).await.unwrap(), None);
    assert!(store.session_user("f1", 1, IDLE).await.unwrap().is_some(), "another user's");
    assert_eq!(store.end_user_sessions("eve", None).await.unwrap(), ["e2"]);
    assert_eq!(store.session_user("e2", 1, IDLE).await.unwrap(), None);
    assert_eq!(store.end_user_sessions("eve", None).await.unwrap(), Vec::<String>::new());
    store.close().await;
}

/// Migration 10 on a database that has sessions: they count as used when it runs, not as never used.
async fn sessions_from_before_the_idle_limit_count_as_used_at_the_upgrade(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Gus", None, false, 0).await.unwrap();
    store.create_session("g1", "gus", 0, i64::MAX).await.unwrap();
    // Back to the schema before version 10.
    for sql in ["ALTER TABLE sessions DROP COLUMN last_used_at_ms", "DELETE FROM schema_migrations WHERE version = 10"]
    {
        sqlx::query(sql).execute(store.pool()).await.unwrap();
    }
    store.close().await;
    let before = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_millis() as i64;
    let store = db.open().await;
    let used = store.session_last_used("g1").await.unwrap().unwrap();
    assert!(used >= before / 1000 * 1000, "{used} < {before}");
    assert!(store.applied_migrations().await.unwrap().iter().any(|m| m.version == 10));
    store.close().await;
}

async fn token_scopes_round_trip(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Carol", None, false, 0).await.unwrap();
    let scopes = vec!["board:play".to_owned(), "challenge:write".to_owned(), "email:read".to_owned()];
    store.create_token("t1", "carol", "my bot", &scopes, 10).await.unwrap();
    store.create_token("t2", "carol", "", &[], 11).await.unwrap();

    let (user, got) = store.token_user("t1").await.unwrap().unwrap();
    assert_eq!(user.id, "carol");
    assert_eq!(got, scopes);
    assert_eq!(store.token_user("t2").await.unwrap().unwrap().1, Vec::<String>::new());
    assert_eq!(store.token_user("t3").await.unwrap(), None);

    store.delete_token("t1").await.unwrap();
    assert_eq!(store.token_user("t1").await.unwrap(), None);
    assert!(store.token_user("t2").await.unwrap().is_some());
    store.close().await;
}

async fn batch_plays_a_game(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Alice", None, false, 0).await.unwrap();
    store.create_user("Bob", None, false, 0).await.unwrap();

    let mut g = game("g1", "alice", "bob", 1_000, "live");
    g.white_engine_level = Some(3);
    g.white_rating = Some(1500);
    store
        .write_batch(&[
            WriteOp::InsertGame(g.clone()),
            append("g1", vec![mv("g1", 1, "e2e4", "e4"), mv("g1", 2, "e7e5", "e5"), mv("g1", 3, "g1f3", "Nf3")]),
            WriteOp::UpdateGameState { game_id: "g1".to_owned(), state_json: r#"{"v":3}"#.to_owned(), version: 3 },
        ])
        .await
        .unwrap();
    let (stored, moves) = store.game("g1").await.unwrap().unwrap();
    assert_eq!(stored, GameRow { state_json: r#"{"v":3}"#.to_owned(), version: 3, ..g.clone() });
    assert_eq!(moves, vec![mv("g1", 1, "e2e4", "e4"), mv("g1", 2, "e7e5", "e5"), mv("g1", 3, "g1f3", "Nf3")]);

    // Takeback of two plies, then other moves.
    store
        .write_batch(&[
            WriteOp::TruncateMoves { game_id: "g1".to_owned(), keep_plies: 1 },
            append("g1", vec![mv("g1", 2, "c7c5", "c5")]),
            WriteOp::UpdateGameState { game_id: "g1".to_owned(), state_json: r#"{"v":5}"#.to_owned(), version: 5 },
        ])
        .await
        .unwrap();
    let moves = store.moves("g1").await.unwrap();
    assert_eq!(moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(), ["e4", "c5"]);

    let rating = |user: &str, rating: f64, games: i64, at: i64| RatingRow {
        user_id: user.to_owned(),
        speed: "blitz".to_owned(),
        rating,
        deviation: 80.5,
        volatility: 0.06,
        games,
        updated_at_ms: at,
    };
    store
        .write_batch(&[
            WriteOp::FinishGame {
                game_id: "g1".to_owned(),
                status: "finished".to_owned(),
                result: Some("1-0".to_owned()),
                termination: Some("resign".to_owned()),
                winner: Some("white".to_owned()),
                ended_at_ms: 9_000,
                state_json: r#"{"v":6}"#.to_owned(),
                version: 6,
            },
            WriteOp::SetRatingDiffs {
                game_id: "g1".to_owned(),
                white_rating: Some(1500),
                black_rating: Some(1480),
                white_rating_diff: Some(7),
                black_rating_diff: Some(-7),
                white_points_diff: Some(3),
                black_points_diff: None,
            },
            WriteOp::UpsertRating { row: rating("alice", 1507.25, 1, 9_000), game_id: "g1".to_owned() },
            WriteOp::UpsertRating { row: rating("bob", 1473.0, 1, 9_000), game_id: "g1".to_owned() },
            WriteOp::SetPoints { user_id: "alice".to_owned(), points: 3 },
        ])
        .await
        .unwrap();

    let (finished, moves) = store.game("g1").await.unwrap().unwrap();
    assert_eq!(plies(&moves), [1, 2]);
    assert_eq!(finished.status, "finished");
    assert_eq!(finished.result.as_deref(), Some("1-0"));
    assert_eq!(finished.termination.as_deref(), Some("resign"));
    assert_eq!(finished.winner.as_deref(), Some("white"));
    assert_eq!(finished.ended_at_ms, Some(9_000));
    assert_eq!((finished.state_json.as_str(), finished.version), (r#"{"v":6}"#, 6));
    assert_eq!((finished.white_rating, finished.black_rating), (Some(1500), Some(1480)));
    assert_eq!((finished.white_rating_diff, finished.black_rating_diff), (Some(7), Some(-7)));
    assert_eq!((finished.white_points_diff, finished.black_points_diff), (Some(3), None));
    assert_eq!(store.ratings("alice").await.unwrap(), vec![rating("alice", 1507.25, 1, 9_000)]);
    assert_eq!(store.user("alice").await.unwrap().unwrap().points, 3);
    assert_eq!(store.user("bob").await.unwrap().unwrap().points, 0);

    // A second rating in the same speed replaces the first and adds a history point; another speed adds a row.
    store
        .write_batch(&[
            WriteOp::InsertGame(game("g2", "bob", "alice", 10_000, "live")),
            WriteOp::UpsertRating { row: rating("alice", 1490.0, 2, 12_000), game_id: "g2".to_owned() },
            WriteOp::UpsertRating {
                row: RatingRow { speed: "rapid".to_owned(), ..rating("alice", 1600.0, 1, 11_000) },
                game_id: "g0".to_owned(),
            },
        ])
        .await
        .unwrap();
    let ratings = store.ratings("alice").await.unwrap();
    assert_eq!(ratings.len(), 2);
    assert_eq!(ratings[0], rating("alice", 1490.0, 2, 12_000));
    assert_eq!(ratings[1].speed, "rapid");
    let history = store.rating_history("alice").await.unwrap();
    assert_eq!(
        history.iter().map(|p| (p.game_id.as_str(), p.speed.as_str(), p.at_ms, p.rating)).collect::<Vec<_>>(),
        [("g1", "blitz", 9_000, 1507.25), ("g0", "rapid", 11_000, 1600.0), ("g2", "blitz", 12_000, 1490.0)]
    );
    assert_eq!(history[0].deviation, 80.5);
    assert!(store.rating_history("bob").await.unwrap().len() == 1);
    assert!(store.write_batch(&[]).await.is_ok());
    store.close().await;
}

async fn failed_batch_rolls_back(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Alice", None, false, 0).await.unwrap();
    store.write_batch(&[WriteOp::InsertGame(game("g1", "alice", "x", 1, "live"))]).await.unwrap();

    let rating = RatingRow {
        user_id: "alice".to_owned(),
        speed: "blitz".to_owned(),
        rating: 1600.0,
        deviation: 60.0,
        volatility: 0.06,
        games: 1,
        updated_at_ms: 5,
    };
    let err = store
        .write_batch(&[
            WriteOp::InsertGame(game("g2", "alice", "x", 2, "live")),
            append("g2", vec![mv("g2", 1, "e2e4", "e4")]),
            append("g1", vec![mv("g1", 1, "d2d4", "d4")]),
            WriteOp::UpdateGameState { game_id: "g1".to_owned(), state_json: "changed".to_owned(), version: 9 },
            WriteOp::UpsertRating { row: rating.clone(), game_id: "g2".to_owned() },
            WriteOp::SetPoints { user_id: "alice".to_owned(), points: 50 },
            WriteOp::InsertGame(game("g1", "alice", "x", 3, "live")),
        ])
        .await
        .unwrap_err();
    assert!(matches!(&err, StoreError::Db(m) if m.contains("op 7 of 7") && m.contains("InsertGame g1")), "{err}");

    assert_eq!(store.game("g2").await.unwrap(), None);
    let (g1, moves) = store.game("g1").await.unwrap().unwrap();
    assert_eq!((g1.state_json.as_str(), g1.version, moves.len()), ("{}", 0, 0));
    assert_eq!(store.user("alice").await.unwrap().unwrap().points, 0);
    assert!(store.ratings("alice").await.unwrap().is_empty());
    assert!(store.rating_history("alice").await.unwrap().is_empty());
    assert_eq!(store.live_games().await.unwrap().len(), 1);

    // An update of a game that does not exist fails the batch too, naming the op.
    let err = store
        .write_batch(&[
            append("g1", vec![mv("g1", 1, "d2d4", "d4")]),
            WriteOp::UpdateGameState { game_id: "ghost".to_owned(), state_json: "{}".to_owned(), version: 1 },
        ])
        .await
        .unwrap_err();
    assert!(matches!(&err, StoreError::NotFound(m) if m.contains("game ghost") && m.contains("op 2 of 2")), "{err}");
    assert!(store.moves("g1").await.unwrap().is_empty());
    assert!(matches!(
        store.write_batch(&[WriteOp::SetPoints { user_id: "ghost".to_owned(), points: 1 }]).await,
        Err(StoreError::NotFound(_))
    ));
    // Moves need their game (foreign key), and a ply is stored once.
    assert!(store.write_batch(&[append("ghost", vec![mv("ghost", 1, "e2e4", "e4")])]).await.is_err());
    assert!(
        store
            .write_batch(&[
                append("g1", vec![mv("g1", 1, "e2e4", "e4")]),
                append("g1", vec![mv("g1", 1, "d2d4", "d4")])
            ])
            .await
            .is_err()
    );

    // The store is still usable after failures.
    store.write_batch(&[append("g1", vec![mv("g1", 1, "c2c4", "c4")])]).await.unwrap();
    assert_eq!(store.moves("g1").await.unwrap()[0].san, "c4");
    store.close().await;
}

async fn live_games_resume_with_moves(db: &TestDb) {
    let store = db.open().await;
    let finish = |id: &str, status: &str| WriteOp::FinishGame {
        game_id: id.to_owned(),
        status: status.to_owned(),
        result: None,
        termination: None,
        winner: None,
        ended_at_ms: 50,
        state_json: "{}".to_owned(),
        version: 1,
    };
    store
        .write_batch(&[
            WriteOp::InsertGame(game("a", "p1", "p2", 10, "live")),
            WriteOp::InsertGame(game("b", "p3", "p4", 11, "live")),
            WriteOp::InsertGame(game("c", "p5", "p6", 12, "live")),
            WriteOp::InsertGame(game("d", "p7", "p8", 13, "live")),
            append("b", vec![mv("b", 1, "e2e4", "e4")]),
            append("a", vec![mv("a", 1, "d2d4", "d4"), mv("a", 2, "d7d5", "d5")]),
        ])
        .await
        .unwrap();
    store
        .write_batch(&[
            append("b", vec![mv("b", 2, "e7e5", "e5")]),
            finish("b", "finished"),
            append("c", vec![mv("c", 1, "c2c4", "c4")]),
            finish("c", "aborted"),
            append("a", vec![mv("a", 3, "c2c4", "c4")]),
        ])
        .await
        .unwrap();
    let live = store.live_games().await.unwrap();
    assert_eq!(live.iter().map(|(g, _)| g.id.as_str()).collect::<Vec<_>>(), ["a", "d"]);
    assert_eq!(plies(&live[0].1), [1, 2, 3]);
    assert_eq!(live[0].1.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(), ["d4", "d5", "c4"]);
    assert!(live[0].1.iter().all(|m| m.game_id == "a"));
    assert!(live[1].1.is_empty());
    assert_eq!(store.game("b").await.unwrap().unwrap().1.len(), 2);
    store.close().await;
}

async fn user_games_pages_newest_first(db: &TestDb) {
    let store = db.open().await;
    let mut ops = Vec::new();
    for i in 0..7 {
        let (white, black) = if i % 2 == 0 { ("alice", "bob") } else { ("carol", "alice") };
        let status = match i {
            3 => "aborted",
            6 => "live",
            _ => "finished",
        };
        ops.push(WriteOp::InsertGame(game(&format!("g{i}"), white, black, 100 + i, status)));
    }
    ops.push(WriteOp::InsertGame(game("other", "bob", "carol", 200, "finished")));
    // Same time: the id breaks the tie, so paging is stable.
    ops.push(WriteOp::InsertGame(game("g7", "alice", "dave", 106, "finished")));
    store.write_batch(&ops).await.unwrap();

    let ids = |games: Vec<GameRow>| games.into_iter().map(|g| g.id).collect::<Vec<_>>();
    assert_eq!(ids(store.user_games("alice", 0, 3).await.unwrap()), ["g7", "g6", "g5"]);
    assert_eq!(ids(store.user_games("alice", 3, 3).await.unwrap()), ["g4", "g2", "g1"]);
    assert_eq!(ids(store.user_games("alice", 6, 3).await.unwrap()), ["g0"]);
    assert!(store.user_games("alice", 9, 3).await.unwrap().is_empty());
    assert_eq!(ids(store.user_games("alice", -5, 1).await.unwrap()), ["g7"]);
    assert!(store.user_games("alice", 0, -1).await.unwrap().is_empty());
    assert_eq!(store.count_user_games("alice").await.unwrap(), 7);
    assert_eq!(store.count_user_games("bob").await.unwrap(), 5);
    assert_eq!(store.count_user_games("nobody").await.unwrap(), 0);
    store.close().await;
}

async fn reopening_keeps_data_and_migrations(db: &TestDb) {
    let store = db.open().await;
    let applied = store.applied_migrations().await.unwrap();
    assert!(!applied.is_empty());
    assert_eq!(applied[0].version, 1);
    store.create_user("张三", Some("h"), false, 7).await.unwrap();
    store
        .write_batch(&[
            WriteOp::InsertGame(game("g1", "张三", "李四", 1, "live")),
            append("g1", vec![mv("g1", 1, "e2e4", "e4")]),
        ])
        .await
        .unwrap();
    if store.dialect() == Dialect::Sqlite {
        assert_eq!(pragma(&store, "PRAGMA journal_mode").await, "wal");
        assert_eq!(pragma(&store, "PRAGMA synchronous").await, "2", "FULL");
        assert_eq!(pragma(&store, "PRAGMA foreign_keys").await, "1");
        assert_eq!(pragma(&store, "PRAGMA busy_timeout").await, "5000");
    }
    store.close().await;

    let store = db.open().await;
    assert_eq!(store.applied_migrations().await.unwrap(), applied, "no migration ran again");
    assert_eq!(store.user("张三").await.unwrap().unwrap().created_at_ms, 7);
    let (g, moves) = store.game("g1").await.unwrap().unwrap();
    assert_eq!((g.black_name.as_str(), moves.len()), ("李四", 1));
    assert_eq!(store.create_user("张三", None, false, 8).await, Err(StoreError::NameTaken));
    store.close().await;
}

/// Moves and snapshots are written together, in multi-row statements; the result is that of the ops in order.
async fn batch_gathering_keeps_order(db: &TestDb) {
    let store = db.open().await;
    let state = |id: &str, v: i64| WriteOp::UpdateGameState {
        game_id: id.to_owned(),
        state_json: format!("{{\"v\":{v}}}"),
        version: v,
    };
    // 150 games (more than one statement's worth of rows), each with two moves and two snapshots; game "t" also
    // takes back and finishes inside the batch.
    let mut ops = Vec::new();
    for i in 0..150 {
        ops.push(WriteOp::InsertGame(game(&format!("g{i:03}"), "p", "q", i, "live")));
    }
    ops.push(WriteOp::InsertGame(game("t", "p", "q", 500, "live")));
    for i in 0..150 {
        let id = format!("g{i:03}");
        ops.push(append(&id, vec![mv(&id, 1, "e2e4", "e4")]));
        ops.push(state(&id, 1));
    }
    ops.push(append("t", vec![mv("t", 1, "e2e4", "e4"), mv("t", 2, "e7e5", "e5")]));
    ops.push(state("t", 2));
    ops.push(WriteOp::TruncateMoves { game_id: "t".to_owned(), keep_plies: 1 });
    ops.push(append("t", vec![mv("t", 2, "c7c5", "c5")]));
    ops.push(state("t", 3));
    for i in 0..150 {
        let id = format!("g{i:03}");
        ops.push(append(&id, vec![mv(&id, 2, "e7e5", "e5")]));
        ops.push(state(&id, 2));
    }
    ops.push(WriteOp::FinishGame {
        game_id: "t".to_owned(),
        status: "finished".to_owned(),
        result: Some("1/2-1/2".to_owned()),
        termination: Some("agreement".to_owned()),
        winner: None,
        ended_at_ms: 600,
        state_json: r#"{"v":4}"#.to_owned(),
        version: 4,
    });
    ops.push(append("t", vec![mv("t", 3, "g1f3", "Nf3")]));
    store.write_batch(&ops).await.unwrap();

    let live = store.live_games().await.unwrap();
    assert_eq!(live.len(), 150);
    for (g, moves) in &live {
        assert_eq!((g.version, g.state_json.as_str()), (2, r#"{"v":2}"#), "{}", g.id);
        assert_eq!(moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(), ["e4", "e5"], "{}", g.id);
    }
    let (t, moves) = store.game("t").await.unwrap().unwrap();
    assert_eq!((t.status.as_str(), t.version, t.state_json.as_str()), ("finished", 4, r#"{"v":4}"#));
    assert_eq!(moves.iter().map(|m| m.san.as_str()).collect::<Vec<_>>(), ["e4", "c5", "Nf3"]);
    assert_eq!(moves[1], mv("t", 2, "c7c5", "c5"));

    // A snapshot written after the finish (in op order) wins over it.
    store.write_batch(&[state("t", 9), state("t", 10)]).await.unwrap();
    assert_eq!(store.game("t").await.unwrap().unwrap().0.version, 10);
    store.close().await;
}

/// A pragma's value as text (`journal_mode` answers text, the others numbers).
async fn pragma(store: &Store, sql: &str) -> String {
    let row = sqlx::query(sql).fetch_one(store.pool()).await.unwrap();
    row.try_get::<String, _>(0).or_else(|_| row.try_get::<i64, _>(0).map(|n| n.to_string())).unwrap()
}

/// Many writers at once (the server has one writer task, but requests write sessions and users beside it): no
/// "database is locked" on SQLite, nothing lost.
async fn concurrent_batches(db: &TestDb) {
    let store = db.open().await;
    let mut tasks = Vec::new();
    for t in 0..6 {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            let id = format!("g{t}");
            store.write_batch(&[WriteOp::InsertGame(game(&id, "a", "b", t, "live"))]).await.unwrap();
            for ply in 1..=15 {
                store
                    .write_batch(&[
                        append(&id, vec![mv(&id, ply, "a1a2", "Ra2")]),
                        WriteOp::UpdateGameState { game_id: id.clone(), state_json: "{}".to_owned(), version: ply },
                    ])
                    .await
                    .unwrap();
                let _ = store.live_games().await.unwrap();
            }
        }));
    }
    for task in tasks {
        task.await.unwrap();
    }
    let live = store.live_games().await.unwrap();
    assert_eq!(live.len(), 6);
    assert!(live.iter().all(|(g, moves)| g.version == 15 && plies(moves) == (1..=15).collect::<Vec<_>>()));
    store.close().await;
}

#[tokio::test]
async fn in_memory_sqlite_keeps_its_data_on_one_connection() {
    let store = Store::connect("sqlite::memory:").await.unwrap();
    assert_eq!(store.dialect(), Dialect::Sqlite);
    store.create_user("Dave", None, true, 1).await.unwrap();
    for _ in 0..3 {
        assert!(store.user("dave").await.unwrap().is_some());
    }
    // Another in-memory store is another database.
    let other = Store::connect("sqlite::memory:").await.unwrap();
    assert_eq!(other.user("dave").await.unwrap(), None);
}

#[tokio::test]
async fn bad_urls_are_refused() {
    assert!(matches!(Store::connect("mysql://localhost/x").await, Err(StoreError::BadUrl(_))));
    assert!(matches!(Store::connect("guoxiang.db").await, Err(StoreError::BadUrl(_))));
    assert!(matches!(Store::connect("sqlite://").await, Err(StoreError::BadUrl(_))));
}

/// Group-commit throughput, the server's load: 2,000 live games at a move a second is about 100 batches a second of
/// 20 games each (a move and a new snapshot per game). Run with
/// `cargo test -p guoxiang-store --release --test store -- --ignored --nocapture write_batch_throughput`.
#[tokio::test]
#[ignore = "a benchmark; prints batches per second"]
async fn write_batch_throughput() {
    let mut dbs = vec![TestDb::sqlite()];
    dbs.extend(TestDb::postgres().await);
    for db in dbs {
        let store = db.open().await;
        let games: i64 = 2_000;
        let inserts: Vec<_> =
            (0..games).map(|i| WriteOp::InsertGame(game(&format!("g{i}"), "a", "b", i, "live"))).collect();
        for chunk in inserts.chunks(200) {
            store.write_batch(chunk).await.unwrap();
        }
        let batches: i64 = 300;
        let per_batch: i64 = 20;
        let state = "x".repeat(600);
        let start = std::time::Instant::now();
        for b in 0..batches {
            let mut ops = Vec::new();
            for k in 0..per_batch {
                let g = (b * per_batch + k) % games;
                let id = format!("g{g}");
                let ply = (b * per_batch + k) / games + 1;
                ops.push(append(&id, vec![mv(&id, ply, "e2e4", "e4")]));
                ops.push(WriteOp::UpdateGameState { game_id: id, state_json: state.clone(), version: ply });
            }
            store.write_batch(&ops).await.unwrap();
        }
        let secs = start.elapsed().as_secs_f64();
        println!(
            "{}: {batches} batches of {} ops in {secs:.2} s: {:.0} batches/s, {:.0} moves/s",
            store.dialect(),
            2 * per_batch,
            batches as f64 / secs,
            (batches * per_batch) as f64 / secs
        );
        store.close().await;
        db.cleanup().await;
    }
}

/// A committed batch survives `kill -9` of the process: a child process (this test binary again, running
/// `durability_child`) commits a batch into a SQLite file, says so, and is killed with SIGKILL while its pool is
/// still open; the file, reopened, has the batch.
#[tokio::test]
async fn committed_batch_survives_kill_9() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};

    let db = TestDb::sqlite();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "durability_child", "--ignored", "--nocapture", "--test-threads=1"])
        .env("GUOXIANG_STORE_CHILD_DB", &db.url)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let committed = tokio::task::spawn_blocking(move || {
        BufReader::new(stdout).lines().map_while(Result::ok).any(|line| line.contains("committed 40 moves"))
    });
    let committed = tokio::time::timeout(std::time::Duration::from_secs(60), committed).await.unwrap().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(committed, "the child did not report its commit");

    let store = db.open().await;
    let (g, moves) = store.game("k").await.unwrap().unwrap();
    assert_eq!((g.version, moves.len()), (40, 40));
    store.close().await;
    db.cleanup().await;
}

/// The child of `committed_batch_survives_kill_9`; does nothing when run by itself.
#[tokio::test]
#[ignore = "run by committed_batch_survives_kill_9"]
async fn durability_child() {
    let Ok(url) = std::env::var("GUOXIANG_STORE_CHILD_DB") else { return };
    let store = Store::connect(&url).await.unwrap();
    store.write_batch(&[WriteOp::InsertGame(game("k", "a", "b", 0, "live"))]).await.unwrap();
    for ply in 1..=40 {
        store
            .write_batch(&[
                append("k", vec![mv("k", ply, "a1a2", "Ra2")]),
                WriteOp::UpdateGameState { game_id: "k".to_owned(), state_json: "{}".to_owned(), version: ply },
            ])
            .await
            .unwrap();
    }
    println!("committed 40 moves");
    // Wait to be killed, pool open, nothing checkpointed.
    tokio::time::sleep(std::time::Duration::from_secs(60)).await;
}

fn lesson(steps: &[u32], stars: u8, done: bool) -> LessonProgress {
    LessonProgress { steps: steps.to_vec(), stars, done }
}

async fn learn_progress_merges(db: &TestDb) {
    let store = db.open().await;
    let applied = store.applied_migrations().await.unwrap();
    assert!(applied.iter().any(|m| m.version == 2 && m.name == "learn progress"), "{applied:?}");
    store.create_user("alice", Some("h"), false, 1).await.unwrap();
    store.create_user("bob", Some("h"), false, 1).await.unwrap();
    assert!(store.learn_progress("alice").await.unwrap().is_empty());

    let first: LearnProgress = [("rook".to_owned(), lesson(&[2, 0], 1, false))].into();
    let got = store.merge_learn_progress("alice", &first, 10).await.unwrap();
    assert_eq!(got["rook"], lesson(&[0, 2], 1, false), "steps sorted");

    // A second browser: more steps, fewer stars, done; and another lesson.
    let second: LearnProgress =
        [("rook".to_owned(), lesson(&[1, 2], 0, true)), ("king".to_owned(), lesson(&[0], 3, true))].into();
    let got = store.merge_learn_progress("alice", &second, 20).await.unwrap();
    assert_eq!(got["rook"], lesson(&[0, 1, 2], 1, true), "union of steps, max stars, done stays done");
    assert_eq!(got["king"], lesson(&[0], 3, true));
    assert_eq!(store.learn_progress("alice").await.unwrap(), got, "what was returned is what is stored");

    // Sending less changes nothing.
    let less: LearnProgress = [("rook".to_owned(), lesson(&[], 0, false))].into();
    assert_eq!(store.merge_learn_progress("alice", &less, 30).await.unwrap(), got);
    assert!(store.learn_progress("bob").await.unwrap().is_empty(), "progress is per user");
    assert!(matches!(store.merge_learn_progress("nobody", &first, 40).await, Err(StoreError::NotFound(_))));
    store.close().await;
}

/// Reviews are queued once per game, taken oldest first, carry their progress, and a failed one can be asked again;
/// a server that stopped mid-review finds it queued again.
async fn review_queue_in_request_order(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Alice", None, false, 0).await.unwrap();
    store.write_batch(&[WriteOp::InsertGame(game("g1", "alice", "bob", 1, "ended"))]).await.unwrap();
    store.write_batch(&[WriteOp::InsertGame(game("g2", "alice", "bob", 2, "ended"))]).await.unwrap();
    assert_eq!(store.review("g1").await.unwrap(), None);
    assert!(matches!(store.request_review("nope", None, 1000, 5).await, Err(StoreError::NotFound(_))));

    let r2 = store.request_review("g2", Some("alice"), 1000, 10).await.unwrap();
    assert_eq!((r2.status, r2.requested_by.as_deref()), (ReviewStatus::Queued, Some("alice")));
    store.request_review("g1", None, 1000, 20).await.unwrap();
    // Asking again changes nothing: still queued at its first time.
    assert_eq!(store.request_review("g2", None, 5, 30).await.unwrap(), r2);
    assert_eq!(store.pending_reviews_of("alice").await.unwrap(), 1);
    assert_eq!(store.next_queued_review().await.unwrap().as_deref(), Some("g2"));

    assert!(store.start_review("g2", 41).await.unwrap());
    assert!(!store.start_review("g2", 41).await.unwrap(), "only a queued review starts");
    store.review_progress("g2", 17, 41).await.unwrap();
    let r = store.review("g2").await.unwrap().unwrap();
    assert_eq!((r.status, r.done_positions, r.total_positions), (ReviewStatus::Running, 17, 41));
    // The scan hands positions on to be searched again: the total grows.
    store.review_progress("g2", 42, 55).await.unwrap();
    let r = store.review("g2").await.unwrap().unwrap();
    assert_eq!((r.done_positions, r.total_positions), (42, 55));
    assert_eq!(store.next_queued_review().await.unwrap().as_deref(), Some("g1"));

    // A restart puts the running one back in the queue, first again.
    assert_eq!(store.requeue_running_reviews().await.unwrap(), 1);
    assert_eq!(store.next_queued_review().await.unwrap().as_deref(), Some("g2"));
    assert!(store.start_review("g2", 41).await.unwrap());
    store.finish_review("g2", r#"{"moves":[]}"#, 99).await.unwrap();
    let r = store.review("g2").await.unwrap().unwrap();
    assert_eq!(
        (r.status, r.review.as_deref(), r.done_positions, r.finished_at_ms),
        (ReviewStatus::Done, Some(r#"{"moves":[]}"#), 41, Some(99))
    );
    assert_eq!(store.pending_reviews_of("alice").await.unwrap(), 0);
    // A done review is not queued again.
    assert_eq!(store.request_review("g2", None, 1000, 100).await.unwrap().status, ReviewStatus::Done);

    assert!(store.start_review("g1", 3).await.unwrap());
    store.fail_review("g1", "move 2: e7e5 is not legal", 50).await.unwrap();
    let r = store.review("g1").await.unwrap().unwrap();
    assert_eq!((r.status, r.error.as_deref()), (ReviewStatus::Failed, Some("move 2: e7e5 is not legal")));
    let r = store.request_review("g1", Some("alice"), 2000, 60).await.unwrap();
    assert_eq!((r.status, r.error, r.nodes, r.requested_at_ms), (ReviewStatus::Queued, None, 2000, 60));
    assert_eq!(store.next_queued_review().await.unwrap().as_deref(), Some("g1"));

    assert!(!store.auto_review("alice").await.unwrap());
    store.set_auto_review("alice", true).await.unwrap();
    assert!(store.auto_review("alice").await.unwrap());
    assert!(matches!(store.set_auto_review("nobody", true).await, Err(StoreError::NotFound(_))));
    store.close().await;
}

/// In a cluster a node runs a review under a lease; starting or looking around, a node puts back in the queue only
/// the running reviews whose lease lapsed (their node died or was stopped), never those another node is running.
async fn reviews_of_a_dead_node_are_queued_again(db: &TestDb) {
    let (a, b) = (db.open().await, db.open().await);
    for (id, at) in [("g1", 1), ("g2", 2)] {
        a.write_batch(&[WriteOp::InsertGame(game(id, "alice", "bob", at, "ended"))]).await.unwrap();
        a.request_review(id, None, 1000, at).await.unwrap();
    }
    let lease = |id: &str| guoxiang_store::review_lease(id);
    assert_eq!(lease("g1"), format!("{}g1", guoxiang_store::REVIEW_LEASE_PREFIX));
    // Node a runs g1 and node b runs g2, each under a lease of 4 s from t = 1,000.
    assert_eq!(a.acquire_lease(&lease("g1"), "a", 1_000, 4_000).await.unwrap(), Some(1));
    assert!(a.start_review("g1", 10).await.unwrap());
    assert_eq!(b.acquire_lease(&lease("g2"), "b", 1_000, 4_000).await.unwrap(), Some(1));
    assert!(b.start_review("g2", 10).await.unwrap());
    // Node b starts again at t = 3,000 (or looks at t = 5,000): both leases run, nothing is queued again.
    assert_eq!(b.requeue_orphaned_reviews(3_000).await.unwrap(), 0);
    assert_eq!(b.requeue_orphaned_reviews(5_000).await.unwrap(), 0);
    // Node b renews its leases; node a is gone. At t = 6,000 only a's review is queued again, and b takes it.
    b.renew_leases("b", 4_000, 4_000).await.unwrap();
    assert_eq!(b.requeue_orphaned_reviews(6_000).await.unwrap(), 1);
    assert_eq!(b.review("g1").await.unwrap().unwrap().status, ReviewStatus::Queued);
    assert_eq!(b.review("g2").await.unwrap().unwrap().status, ReviewStatus::Running);
    assert_eq!(b.acquire_lease(&lease("g1"), "b", 6_000, 4_000).await.unwrap(), Some(2));
    assert!(b.start_review("g1", 10).await.unwrap());
    // A running review with no lease at all (a node that crashed between the two writes) is queued again too.
    b.release_lease(&lease("g1"), "b", 2).await.unwrap();
    assert_eq!(a.requeue_orphaned_reviews(6_500).await.unwrap(), 1);
    assert_eq!(a.review("g1").await.unwrap().unwrap().status, ReviewStatus::Queued);
    a.close().await;
    b.close().await;
}

/// Two nodes (two stores on one database) and one live game: the first owner writes under its lease; once the lease
/// lapses the second node takes the game at a new epoch, and from then on every batch of the first is refused whole
/// (`StoreError::Fenced`, nothing of it written) while the new owner's batches commit. A handed-over lease is free at
/// once; renewals report exactly the games a node still holds.
async fn leases_fence_a_game_taken_over(db: &TestDb) {
    let (a, b) = (db.open().await, db.open().await);
    a.write_batch(&[WriteOp::InsertGame(game("g1", "alice", "bob", 1, "live"))]).await.unwrap();
    a.write_batch(&[WriteOp::InsertGame(game("g2", "alice", "bob", 2, "live"))]).await.unwrap();
    a.write_batch(&[WriteOp::InsertGame(game("g3", "alice", "bob", 3, "finished"))]).await.unwrap();
    let fence = |node: &str, epoch: i64| WriteOp::Fence { game_id: "g1".into(), node: node.into(), epoch };
    let append =
        |ply: i64, uci: &str| WriteOp::AppendMoves { game_id: "g1".into(), moves: vec![mv("g1", ply, uci, uci)] };

    // Live games without a lease are anyone's; a finished game is no one's.
    assert_eq!(b.unowned_live_games(1_000).await.unwrap(), vec!["g1".to_owned(), "g2".to_owned()]);
    assert_eq!(a.acquire_lease("g1", "node-a", 1_000, 5_000).await.unwrap(), Some(1));
    assert_eq!(a.acquire_lease("g2", "node-a", 1_000, 5_000).await.unwrap(), Some(1));
    // Held: not free for another node, nor taken again by its holder before it lapses.
    assert_eq!(b.acquire_lease("g1", "node-b", 2_000, 5_000).await.unwrap(), None);
    assert_eq!(b.unowned_live_games(2_000).await.unwrap(), Vec::<String>::new());
    a.write_batch(&[fence("node-a", 1), append(1, "e2e4")]).await.unwrap();
    // A fence naming another node or epoch fails even while the lease runs.
    let e = a.write_batch(&[fence("node-b", 1), append(2, "e7e5")]).await.unwrap_err();
    assert!(matches!(e, StoreError::Fenced(_)), "{e:?}");

    // Renewed at 4,000: good until 9,000.
    let held = a.renew_leases("node-a", 4_000, 5_000).await.unwrap();
    assert_eq!(held, vec![("g1".to_owned(), 1), ("g2".to_owned(), 1)]);
    assert_eq!(b.acquire_lease("g1", "node-b", 8_999, 5_000).await.unwrap(), None);
    // Node a falls silent; at 9,001 node b takes g1 over at epoch 2.
    assert_eq!(b.unowned_live_games(9_001).await.unwrap(), vec!["g1".to_owned(), "g2".to_owned()]);
    assert_eq!(b.acquire_lease("g1", "node-b", 9_001, 5_000).await.unwrap(), Some(2));
    assert_eq!(a.acquire_lease("g1", "node-a", 9_002, 5_000).await.unwrap(), None, "taken: not free again");

    // Node a wakes up and writes a move with a snapshot: refused whole, whatever else the batch held.
    let e = a
        .write_batch(&[
            fence("node-a", 1),
            append(2, "e7e5"),
            WriteOp::UpdateGameState { game_id: "g1".into(), state_json: "{\"stale\":1}".into(), version: 9 },
        ])
        .await
        .unwrap_err();
    match &e {
        StoreError::Fenced(m) => assert!(m.contains("node-a") && m.contains("g1") && m.contains("epoch 1"), "{m}"),
        other => panic!("expected Fenced, got {other:?}"),
    }
    let (row, moves) = b.game("g1").await.unwrap().unwrap();
    assert_eq!(moves.iter().map(|m| m.uci.as_str()).collect::<Vec<_>>(), ["e2e4"]);
    assert_eq!(row.version, 0, "the stale snapshot was not written");
    // The new owner writes.
    b.write_batch(&[fence("node-b", 2), append(2, "c7c5")]).await.unwrap();
    // Node a's renewal no longer lists g1 (its actor must stop); g2 is still its own.
    let held = a.renew_leases("node-a", 9_100, 5_000).await.unwrap();
    assert_eq!(held, vec![("g2".to_owned(), 1)]);
    assert_eq!(b.renew_leases("node-b", 9_100, 5_000).await.unwrap(), vec![("g1".to_owned(), 2)]);

    // A graceful shutdown hands g2 over: free at once, at the next epoch.
    assert!(a.hand_over_lease("g2", "node-a", 1).await.unwrap());
    assert!(!a.hand_over_lease("g1", "node-a", 1).await.unwrap(), "not a's to hand over");
    assert_eq!(b.acquire_lease("g2", "node-b", 9_200, 5_000).await.unwrap(), Some(2));
    let leases = b.leases().await.unwrap();
    assert_eq!(
        leases.iter().map(|l| (l.game_id.as_str(), l.node.as_str(), l.epoch)).collect::<Vec<_>>(),
        [("g1", "node-b", 2), ("g2", "node-b", 2)]
    );
    // A game that ended gives its lease up (only its holder can).
    a.release_lease("g1", "node-a", 1).await.unwrap();
    assert_eq!(b.leases().await.unwrap().len(), 2);
    b.release_lease("g1", "node-b", 2).await.unwrap();
    assert_eq!(b.leases().await.unwrap().len(), 1);
}

/// The fence is checked and the batch committed as one: a takeover that starts while the old owner's batch is in its
/// transaction (after the fence, before the commit) waits for that commit, and the new owner then has its move; the
/// old owner's next batch is refused.
async fn a_takeover_waits_for_a_fenced_batch_in_flight(db: &TestDb) {
    use guoxiang_store::fault::{Fault, FaultRule, WriteKind};
    let (a, b) = (db.open().await, db.open().await);
    a.write_batch(&[WriteOp::InsertGame(game("g1", "alice", "bob", 1, "live"))]).await.unwrap();
    assert_eq!(a.acquire_lease("g1", "node-a", 1_000, 10).await.unwrap(), Some(1));
    let fence = |node: &str, epoch: i64| WriteOp::Fence { game_id: "g1".into(), node: node.into(), epoch };
    let append =
        |ply: i64, uci: &str| WriteOp::AppendMoves { game_id: "g1".into(), moves: vec![mv("g1", ply, uci, uci)] };
    a.faults().add(FaultRule::on(WriteKind::Fence, Fault::Delay(std::time::Duration::from_millis(400))).times(1));
    let in_flight = {
        let (a, ops) = (a.clone(), vec![fence("node-a", 1), append(1, "e2e4")]);
        tokio::spawn(async move { a.write_batch(&ops).await })
    };
    tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    let started = std::time::Instant::now();
    assert_eq!(b.acquire_lease("g1", "node-b", 2_000, 5_000).await.unwrap(), Some(2));
    assert!(in_flight.await.unwrap().is_ok(), "the batch in flight held the lease when it was checked");
    assert!(started.elapsed() >= std::time::Duration::from_millis(200), "the takeover waited for the commit");
    let (_, moves) = b.game("g1").await.unwrap().unwrap();
    assert_eq!(moves.iter().map(|m| m.uci.as_str()).collect::<Vec<_>>(), ["e2e4"]);
    let e = a.write_batch(&[fence("node-a", 1), append(2, "e7e5")]).await.unwrap_err();
    assert!(matches!(e, StoreError::Fenced(_)), "{e:?}");
    b.write_batch(&[fence("node-b", 2), append(2, "e7e5")]).await.unwrap();
}
