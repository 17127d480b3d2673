// SPDX-License-Identifier: GPL-3.0-or-later
//! The store's test harness shared by its test files: a database of one's own (a SQLite file in a fresh
//! folder, or a fresh schema on the PostgreSQL of `GUOXIANG_TEST_POSTGRES`) and `both!`, which runs each case on
//! both.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use guoxiang_store::Store;
use sqlx::Connection;

static SEQ: AtomicU32 = AtomicU32::new(0);

/// A name no other test (of this or a parallel run) uses.
fn unique(prefix: &str) -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().subsec_nanos();
    format!("{prefix}_{}_{nanos}_{}", std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed))
}

/// A database of one's own: a SQLite file in a fresh folder, or a fresh schema on the test PostgreSQL.
pub struct TestDb {
    pub url: String,
    sqlite_dir: Option<PathBuf>,
    postgres: Option<(String, String)>,
}

impl TestDb {
    pub fn sqlite() -> TestDb {
        let dir = std::env::temp_dir().join(unique("guoxiang_store_test"));
        std::fs::create_dir_all(&dir).unwrap();
        let url = format!("sqlite://{}", dir.join("guoxiang.db").display());
        TestDb { url, sqlite_dir: Some(dir), postgres: None }
    }

    /// `None` when `GUOXIANG_TEST_POSTGRES` is not set.
    pub async fn postgres() -> Option<TestDb> {
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

    pub async fn open(&self) -> Store {
        Store::connect(&self.url).await.unwrap_or_else(|e| panic!("connect {}: {e}", self.url))
    }

    pub async fn cleanup(self) {
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
