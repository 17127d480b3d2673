//! Earned lesson steps (issue 42) against SQLite and, when `GUOXIANG_TEST_POSTGRES` holds a URL, PostgreSQL: misses
//! count until a step is earned, the first acceptance wins with the misses before it, later tries change nothing,
//! and each account has its own.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use guoxiang_store::{Store, stars_for};
use sqlx::Connection;

static SEQ: AtomicU32 = AtomicU32::new(0);

/// A name no other test (of this or a parallel run) uses.
fn unique(prefix: &str) -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{prefix}_{}_{nanos}_{}", std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed))
}

/// A database of one's own: a SQLite file in a fresh folder, or a fresh schema on the test PostgreSQL.
struct TestDb {
    url: String,
    sqlite_dir: Option<PathBuf>,
    postgres: Option<(String, String)>,
}

impl TestDb {
    fn sqlite() -> TestDb {
        let dir = std::env::temp_dir().join(unique("guoxiang_store_test"));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("guoxiang.db").display());
        TestDb { url, sqlite_dir: Some(dir), postgres: None }
    }

    /// `None` when `GUOXIANG_TEST_POSTGRES` is not set.
    async fn postgres() -> Option<TestDb> {
        let base = std::env::var("GUOXIANG_TEST_POSTGRES").ok().filter(|u| !u.is_empty())?;
        let schema = unique("t");
        let mut conn = sqlx::postgres::PgConnection::connect(&base).await.expect("connect to GUOXIANG_TEST_POSTGRES");
        // The schema name is made here of [a-z0-9_]; identifiers cannot be bound parameters.
        sqlx::query(&format!("CREATE SCHEMA {schema}")).execute(&mut conn).await.unwrap();
        conn.close().await.unwrap();
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{schema}");
        Some(TestDb { url, sqlite_dir: None, postgres: Some((base, schema)) })
    }

    async fn open(&self) -> Store {
        Store::connect(&self.url).await.unwrap_or_else(|e| panic!("connect {}: {e}", self.url))
    }

    async fn cleanup(self) {
        if let Some(dir) = &self.sqlite_dir {
            let _ = std::fs::remove_dir_all(dir);
        }
        if let Some((base, schema)) = &self.postgres {
            let mut conn = sqlx::postgres::PgConnection::connect(base).await.unwrap();
            sqlx::query(&format!("DROP SCHEMA {schema} CASCADE")).execute(&mut conn).await.unwrap();
            conn.close().await.unwrap();
        }
    }
}

/// Runs each case against SQLite and PostgreSQL.
macro_rules! both {
    ($($case:ident),* $(,)?) => {$(
        mod $case {
            #[tokio::test]
            async fn sqlite() {
                let db = super::TestDb::sqlite();
                super::$case(&db).await;
                db.cleanup().await;
            }

            #[tokio::test]
            async fn postgres() {
                let Some(db) = super::TestDb::postgres().await else {
                    println!("skipped: GUOXIANG_TEST_POSTGRES not set");
                    return;
                };
                super::$case(&db).await;
                db.cleanup().await;
            }
        }
    )*};
}

both!(earned_steps);

async fn earned_steps(db: &TestDb) {
    let store = db.open().await;
    store.create_user("Alice", None, false, 1).await.unwrap();
    store.create_user("Bob", None, false, 1).await.unwrap();
    assert!(store.learn_earned("alice").await.unwrap().is_empty());

    // Two wrong tries at step 1, then the judge accepts it: earned with 2 misses.
    store.add_learn_miss("alice", "rook", 1).await.unwrap();
    store.add_learn_miss("alice", "rook", 1).await.unwrap();
    assert!(store.earn_learn_step("alice", "rook", 1, 100).await.unwrap());
    // Step 0 at once, without a miss.
    assert!(store.earn_learn_step("alice", "rook", 0, 110).await.unwrap());
    // Later tries change nothing: the first acceptance wins, misses after it are not counted.
    store.add_learn_miss("alice", "rook", 1).await.unwrap();
    assert!(!store.earn_learn_step("alice", "rook", 1, 200).await.unwrap());
    let got = store.learn_earned("alice").await.unwrap();
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(
        got["rook"].iter().map(|(s, e)| (*s, e.misses, e.at_ms)).collect::<Vec<_>>(),
        vec![(0, 0, 110), (1, 2, 100)]
    );

    // Bob's misses are his own.
    store.add_learn_miss("bob", "rook", 0).await.unwrap();
    assert!(store.earn_learn_step("bob", "rook", 0, 300).await.unwrap());
    let all = store.learn_earned_of(&["alice".into(), "bob".into(), "carol".into()]).await.unwrap();
    assert_eq!(all["bob"]["rook"][&0].misses, 1);
    assert_eq!(all["alice"]["rook"][&0].misses, 0);
    assert!(!all.contains_key("carol"));
    assert!(store.learn_earned_of(&[]).await.unwrap().is_empty());

    assert_eq!([stars_for(0), stars_for(1), stars_for(2), stars_for(3)], [3, 2, 2, 1]);
    store.close().await;
}
