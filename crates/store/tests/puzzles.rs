//! The puzzle tables against SQLite (a file in a temporary folder) and, when `GUOXIANG_TEST_POSTGRES` holds a URL,
//! against PostgreSQL (`eval "$(bash .ci/postgres.sh)"`): every case runs as `<case>::sqlite` and `<case>::postgres`,
//! each PostgreSQL case in a schema of its own.

use guoxiang_store::{MotifTag, NewRound, NextQuery, PuzzleGlicko, PuzzleRow, Store, StoreError, UpsertCounts};
use sqlx::Row;

#[macro_use]
mod common;
use common::TestDb;

both!(
    upsert_is_idempotent_and_keeps_our_ratings,
    next_finds_puzzles_near_a_rating,
    rounds_are_recorded_once,
    daily_is_kept,
    difficulty_is_kept_per_account,
);

fn g(rating: f64) -> PuzzleGlicko {
    PuzzleGlicko { rating, deviation: 80.0, volatility: 0.06 }
}

fn nr<'a>(user_id: &'a str, puzzle_id: &'a str, win: bool, hints: i64, at_ms: i64) -> NewRound<'a> {
    NewRound { user_id, puzzle_id, win, hints, at_ms, new_user: g(1500.0) }
}

fn tag(id: &str) -> MotifTag {
    MotifTag { id: id.into(), zh: format!("{id} 中文"), en: format!("{id} text") }
}

fn puzzle(id: &str, rating: f64, motifs: &[&str]) -> PuzzleRow {
    PuzzleRow {
        id: id.into(),
        fen: "r6k/pp2r2p/4Rp1Q/3p4/8/1N1P2R1/PqP2bPP/7K b - - 0 24".into(),
        moves: "f2g3 e6e7 b2b1 b3c1 b1c1 h6c1".into(),
        glicko: g(rating),
        plays: 100,
        rounds: 0,
        popularity: 90,
        themes: vec!["crushing".into(), "long".into()],
        motifs: motifs.iter().map(|m| tag(m)).collect(),
        game_url: "https://lichess.org/787zsVup/black#48".into(),
        opening_tags: vec![],
        source: "lichess".into(),
        number: 0,
    }
}

/// Every puzzle and motif row, in order, as one text (the table's content).
async fn dump(store: &Store) -> String {
    let mut out = String::new();
    let rows = sqlx::query(
        "SELECT id, fen, moves, rating, deviation, volatility, plays, rounds, popularity, themes, motifs, game_url, \
         opening_tags, source, number FROM puzzles ORDER BY id",
    )
    .fetch_all(store.pool())
    .await
    .unwrap();
    for r in rows {
        for i in 0..15 {
            let v = r.try_get::<String, _>(i).or_else(|_| r.try_get::<i64, _>(i).map(|x| x.to_string()));
            let v = v.or_else(|_| r.try_get::<f64, _>(i).map(|x| x.to_string())).unwrap();
            out.push_str(&v);
            out.push('|');
        }
        out.push('\n');
    }
    let rows = sqlx::query("SELECT puzzle_id, motif, rating FROM puzzle_motifs ORDER BY puzzle_id, motif")
        .fetch_all(store.pool())
        .await
        .unwrap();
    for r in rows {
        let (p, m, x): (String, String, f64) = (r.get(0), r.get(1), r.get(2));
        out.push_str(&format!("{p}|{m}|{x}\n"));
    }
    out
}

async fn user(store: &Store, name: &str) {
    store.create_user(name, None, false, 1).await.unwrap();
}

async fn upsert_is_idempotent_and_keeps_our_ratings(db: &TestDb) {
    let store = db.open().await;
    assert!(!store.has_puzzles().await.unwrap());
    let batch = vec![puzzle("a", 1500.0, &["fork"]), puzzle("b", 1600.0, &["pin", "fork"]), puzzle("c", 1700.0, &[])];
    let c = store.upsert_puzzles(&batch).await.unwrap();
    assert_eq!(c, UpsertCounts { inserted: 3, updated: 0, unchanged: 0 });
    let first = dump(&store).await;
    let c = store.upsert_puzzles(&batch).await.unwrap();
    assert_eq!(c, UpsertCounts { inserted: 0, updated: 0, unchanged: 3 });
    assert_eq!(dump(&store).await, first, "importing again changes nothing");
    assert_eq!(store.puzzle_count().await.unwrap(), 3);
    assert_eq!(store.puzzle("b").await.unwrap().unwrap(), PuzzleRow { number: 2, ..batch[1].clone() });
    assert_eq!(store.puzzle("zz").await.unwrap(), None);
    let mut counts = store.motif_counts().await.unwrap();
    counts.sort();
    assert_eq!(counts, vec![("fork".to_owned(), 2), ("pin".to_owned(), 1)]);

    // A played puzzle keeps our rating on re-import; its content and plays follow the file.
    user(&store, "alice").await;
    store.record_round(&nr("alice", "a", true, 0, 10), |u, p| (g(u.rating + 100.0), g(p.rating - 10.0))).await.unwrap();
    let mut again = batch.clone();
    again[0].glicko = g(1900.0);
    again[0].plays = 200;
    again[0].themes = vec!["fork".into()];
    again[0].motifs = vec![tag("skewer")];
    again[1].glicko = g(1650.0);
    let c = store.upsert_puzzles(&again).await.unwrap();
    assert_eq!(c, UpsertCounts { inserted: 0, updated: 2, unchanged: 1 });
    let a = store.puzzle("a").await.unwrap().unwrap();
    assert_eq!(a.glicko.rating, 1490.0, "our rating stays");
    assert_eq!((a.plays, a.rounds), (201, 1), "the file's plays plus ours");
    assert_eq!(a.themes, vec!["fork"]);
    assert_eq!(a.motifs, vec![tag("skewer")]);
    assert_eq!(store.puzzle("b").await.unwrap().unwrap().glicko.rating, 1650.0, "unplayed: the file's rating");
    let mut counts = store.motif_counts().await.unwrap();
    counts.sort();
    assert_eq!(counts, vec![("fork".to_owned(), 1), ("pin".to_owned(), 1), ("skewer".to_owned(), 1)]);
    // And the same again is unchanged.
    let snapshot = dump(&store).await;
    assert_eq!(store.upsert_puzzles(&again).await.unwrap().unchanged, 3);
    assert_eq!(dump(&store).await, snapshot);
    // A repeated id in one batch is one puzzle.
    let c = store.upsert_puzzles(&[puzzle("d", 1000.0, &[]), puzzle("d", 1000.0, &[])]).await.unwrap();
    assert_eq!(c, UpsertCounts { inserted: 1, updated: 0, unchanged: 1 });
    // Numbers for people: 1, 2, 3 in the order of import, the next batch after them; a re-import keeps them.
    let mut numbers = Vec::new();
    for id in ["a", "b", "c", "d"] {
        numbers.push(store.puzzle(id).await.unwrap().unwrap().number);
    }
    assert_eq!(numbers, vec![1, 2, 3, 4]);
    store.close().await;
}

async fn next_finds_puzzles_near_a_rating(db: &TestDb) {
    let store = db.open().await;
    let mut batch = Vec::new();
    for i in 0..40 {
        let r = 800.0 + 50.0 * f64::from(i);
        let motifs: &[&str] = if i % 4 == 0 {
            &["fork"]
        } else if i % 4 == 1 {
            &["pin"]
        } else {
            &[]
        };
        batch.push(puzzle(&format!("p{i:02}"), r, motifs));
    }
    store.upsert_puzzles(&batch).await.unwrap();
    let next = |rating: f64, start: f64, motifs: &'static [&'static str]| {
        let store = store.clone();
        async move {
            let motifs: Vec<String> = motifs.iter().map(|m| m.to_string()).collect();
            let q = NextQuery { rating, start, motifs: &motifs, ..NextQuery::default() };
            store.next_puzzle(&q).await.unwrap().map(|p| (p.id, p.glicko.rating))
        }
    };
    // From the window's middle upwards: exactly the rating.
    assert_eq!(next(1500.0, 0.0, &[]).await, Some(("p14".into(), 1500.0)));
    // From its top: nothing above within ±100 → the first below.
    assert_eq!(next(1510.0, 1.0, &[]).await, Some(("p16".into(), 1600.0)));
    // From its bottom upwards.
    assert_eq!(next(1510.0, -1.0, &[]).await, Some(("p13".into(), 1450.0)));
    // By motif: forks are p00, p04, … (800, 1000, 1200, …).
    // Nothing from 1290 up to 1390: the nearest below.
    assert_eq!(next(1290.0, 0.0, &["fork"]).await, Some(("p08".into(), 1200.0)));
    // Of several motifs, the nearest to the point (a pin at 1250 rather than a fork at 1200).
    assert_eq!(next(1290.0, 0.0, &["fork", "pin"]).await, Some(("p09".into(), 1250.0)));
    // The window widens: far above everything, the highest comes back.
    assert_eq!(next(3900.0, 0.0, &[]).await, Some(("p39".into(), 2750.0)));
    assert_eq!(next(100.0, 0.0, &["pin"]).await, Some(("p01".into(), 850.0)));
    assert_eq!(next(1500.0, 0.0, &["skewer"]).await, None);
    // Excluded ids and played puzzles are skipped.
    let exclude = vec!["p14".to_owned()];
    let q = NextQuery { rating: 1500.0, start: 0.0, exclude: &exclude, ..NextQuery::default() };
    assert_eq!(store.next_puzzle(&q).await.unwrap().unwrap().id, "p15");
    user(&store, "bob").await;
    store.record_round(&nr("bob", "p14", false, 0, 5), |u, p| (u, p)).await.unwrap();
    let q = NextQuery { rating: 1500.0, start: 0.0, user_id: Some("bob"), ..NextQuery::default() };
    assert_eq!(store.next_puzzle(&q).await.unwrap().unwrap().id, "p15");
    let q = NextQuery { rating: 1500.0, start: 0.0, user_id: Some("carol"), ..NextQuery::default() };
    assert_eq!(store.next_puzzle(&q).await.unwrap().unwrap().id, "p14", "others still get it");
    store.close().await;
}

async fn rounds_are_recorded_once(db: &TestDb) {
    let store = db.open().await;
    store.upsert_puzzles(&[puzzle("a", 1500.0, &["fork"]), puzzle("b", 1600.0, &["fork", "pin"])]).await.unwrap();
    user(&store, "alice").await;
    assert_eq!(store.user_puzzle_rating("alice").await.unwrap(), None);
    let rate = |u: PuzzleGlicko, p: PuzzleGlicko| (g(u.rating + 100.0), g(p.rating - 7.0));
    let r = store.record_round(&nr("alice", "a", true, 1, 100), rate).await.unwrap();
    assert!(!r.replay);
    assert_eq!((r.user_before.rating, r.user_after.rating, r.user_rounds), (1500.0, 1600.0, 1));
    assert_eq!((r.puzzle_after.rating, r.puzzle_plays), (1493.0, 101));
    let replay = store.record_round(&nr("alice", "a", false, 0, 200), |_, _| panic!("no rating")).await.unwrap();
    assert!(replay.replay);
    assert_eq!((replay.user_after.rating, replay.puzzle_after.rating, replay.puzzle_plays), (1600.0, 1493.0, 101));
    let r = store
        .record_round(&nr("alice", "b", false, 0, 300), |u, p| (g(u.rating - 50.0), g(p.rating + 5.0)))
        .await
        .unwrap();
    assert_eq!((r.user_before.rating, r.user_after.rating, r.user_rounds), (1600.0, 1550.0, 2));
    let stored = store.user_puzzle_rating("alice").await.unwrap().unwrap();
    assert_eq!((stored.glicko.rating, stored.rounds), (1550.0, 2));
    let a = store.puzzle("a").await.unwrap().unwrap();
    assert_eq!((a.glicko.rating, a.plays, a.rounds), (1493.0, 101, 1));
    // The motif copy of the rating follows, so the next pick by motif sees it.
    let motifs = vec!["fork".to_owned()];
    let q = NextQuery { rating: 1493.0, start: 0.0, motifs: &motifs, ..NextQuery::default() };
    assert_eq!(store.next_puzzle(&q).await.unwrap().unwrap().id, "a");
    let h = store.puzzle_history("alice", 50).await.unwrap();
    let ids: Vec<_> = h.iter().map(|r| (r.puzzle_id.as_str(), r.win, r.rating_after)).collect();
    assert_eq!(ids, vec![("b", false, 1550.0), ("a", true, 1600.0)]);
    assert_eq!(h[1].hints, 1);
    let numbers: Vec<_> = h.iter().map(|r| r.number).collect();
    let stored = (store.puzzle("b").await.unwrap().unwrap().number, store.puzzle("a").await.unwrap().unwrap().number);
    assert_eq!(numbers, vec![stored.0, stored.1], "each round with its puzzle's short number");
    assert!(numbers.iter().all(|&n| n > 0));
    let results = store.puzzle_motif_results("alice", false).await.unwrap();
    let results: Vec<_> = results.iter().map(|m| (m.motif.as_str(), m.solved, m.failed)).collect();
    assert_eq!(results, vec![("fork", 1, 1), ("pin", 0, 1)]);
    assert!(matches!(store.record_round(&nr("nobody", "a", true, 0, 1), rate).await, Err(StoreError::NotFound(_))));
    assert!(matches!(store.record_round(&nr("alice", "zz", true, 0, 1), rate).await, Err(StoreError::NotFound(_))));
    store.close().await;
}

async fn daily_is_kept(db: &TestDb) {
    let store = db.open().await;
    store.upsert_puzzles(&[puzzle("a", 1800.0, &[]), puzzle("b", 1810.0, &[])]).await.unwrap();
    assert_eq!(store.daily_puzzle("2026-12-01").await.unwrap(), None);
    assert_eq!(store.choose_daily_puzzle("2026-12-01", "a", 1).await.unwrap(), "a");
    assert_eq!(store.choose_daily_puzzle("2026-12-01", "b", 2).await.unwrap(), "a", "the first choice stays");
    let q = NextQuery { rating: 1800.0, start: 0.0, not_daily: true, ..NextQuery::default() };
    assert_eq!(store.next_puzzle(&q).await.unwrap().unwrap().id, "b", "a daily puzzle is not chosen again");
    assert_eq!(store.daily_puzzle("2026-12-01").await.unwrap().as_deref(), Some("a"));
    store.close().await;
}

async fn difficulty_is_kept_per_account(db: &TestDb) {
    let store = db.open().await;
    user(&store, "alice").await;
    user(&store, "bob").await;
    let (alice, bob) = ("alice", "bob");
    assert_eq!(store.puzzle_difficulty(alice).await.unwrap(), None, "nothing chosen yet");
    store.set_puzzle_difficulty(alice, "easier", 1).await.unwrap();
    store.set_puzzle_difficulty(bob, "hardest", 1).await.unwrap();
    store.set_puzzle_difficulty(alice, "easiest", 2).await.unwrap();
    assert_eq!(store.puzzle_difficulty(alice).await.unwrap().as_deref(), Some("easiest"));
    assert_eq!(store.puzzle_difficulty(bob).await.unwrap().as_deref(), Some("hardest"));
    assert!(store.set_puzzle_difficulty(alice, "impossible", 3).await.is_err());
    assert!(matches!(store.set_puzzle_difficulty("nobody", "easier", 3).await, Err(StoreError::NotFound(_))));
    assert_eq!(store.puzzle_difficulty(alice).await.unwrap().as_deref(), Some("easiest"));
    store.close().await;
}
