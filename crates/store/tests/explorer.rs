// SPDX-License-Identifier: GPL-3.0-or-later
//! The opening explorer's tables against SQLite (a file in a temporary folder) and, when `GUOXIANG_TEST_POSTGRES`
//! holds a URL, against PostgreSQL (`eval "$(bash .ci/postgres.sh)"`): every case runs as `<case>::sqlite` and
//! `<case>::postgres`, each PostgreSQL case in a schema of its own.

use guoxiang_store::{ExplorerImport, ExplorerRow, ExplorerSource};

#[macro_use]
mod common;
use common::TestDb;

both!(adds_up_and_filters, records_imports);

/// A position hash with the top bit set: stored as a negative BIGINT, read back as the same u64.
const POS: u64 = 0xF3E8_018C_327D_13AC;

fn row(mv: u32, speed: i64, rating: i64, w: i64, d: i64, b: i64) -> ExplorerRow {
    let sum = if rating >= 0 { (w + d + b) * (rating + 50) } else { 0 };
    ExplorerRow { pos: POS, mv, speed, rating, white: w, draws: d, black: b, rating_sum: sum }
}

fn sorted(mut rows: Vec<ExplorerRow>) -> Vec<ExplorerRow> {
    rows.sort_by_key(|r| (r.mv, r.speed, r.rating));
    rows
}

async fn adds_up_and_filters(db: &TestDb) {
    let store = db.open().await;
    assert!(store.applied_migrations().await.unwrap().iter().any(|m| m.version == 5 && m.name == "opening explorer"));
    // Two equal keys in one batch are added together (PostgreSQL refuses one statement touching a row twice).
    let first = vec![row(796, 3, 1600, 1, 0, 0), row(796, 3, 1600, 0, 1, 0), row(796, 4, -1, 0, 0, 1)];
    store.explorer_add(ExplorerSource::Imported, &first).await.unwrap();
    store.explorer_add(ExplorerSource::Imported, &[]).await.unwrap();
    // A second batch adds to the stored rows, and a new move is a new row.
    let second = vec![row(796, 3, 1600, 2, 0, 0), row(1804, 3, 1800, 0, 0, 1)];
    store.explorer_add(ExplorerSource::Imported, &second).await.unwrap();
    // The other source is kept apart.
    store.explorer_add(ExplorerSource::Server, &[row(796, 3, 1600, 5, 5, 5)]).await.unwrap();

    let all = sorted(store.explorer_rows(ExplorerSource::Imported, POS, &[], &[]).await.unwrap());
    assert_eq!(
        all,
        vec![
            ExplorerRow { rating_sum: 4 * 1650, ..row(796, 3, 1600, 3, 1, 0) },
            row(796, 4, -1, 0, 0, 1),
            row(1804, 3, 1800, 0, 0, 1),
        ]
    );
    assert_eq!(all[0].pos, POS);
    let blitz = store.explorer_rows(ExplorerSource::Imported, POS, &[3], &[]).await.unwrap();
    assert_eq!(blitz.len(), 2);
    let rated = store.explorer_rows(ExplorerSource::Imported, POS, &[3, 4], &[1800]).await.unwrap();
    assert_eq!(rated, vec![row(1804, 3, 1800, 0, 0, 1)]);
    let server = store.explorer_rows(ExplorerSource::Server, POS, &[], &[]).await.unwrap();
    assert_eq!(server, vec![row(796, 3, 1600, 5, 5, 5)]);
    assert!(store.explorer_rows(ExplorerSource::Imported, POS ^ 1, &[], &[]).await.unwrap().is_empty());
    assert_eq!(store.explorer_row_count(ExplorerSource::Imported).await.unwrap(), 3);

    // A batch larger than one statement.
    let many: Vec<ExplorerRow> =
        (0..4_500u64).map(|i| ExplorerRow { pos: i * 7_919, ..row(796, 2, 1200, 1, 0, 0) }).collect();
    store.explorer_add(ExplorerSource::Server, &many).await.unwrap();
    store.explorer_add(ExplorerSource::Server, &many).await.unwrap();
    assert_eq!(store.explorer_row_count(ExplorerSource::Server).await.unwrap(), 4_501);
    let one = store.explorer_rows(ExplorerSource::Server, 4_499 * 7_919, &[], &[]).await.unwrap();
    assert_eq!((one.len(), one[0].white), (1, 2));
    store.close().await;
}

async fn records_imports(db: &TestDb) {
    let store = db.open().await;
    assert_eq!(store.explorer_import("ab").await.unwrap(), None);
    let mut import = ExplorerImport {
        sha256: "ab".into(),
        file_name: "games.pgn".into(),
        bytes: 100,
        games: 3,
        skipped: 1,
        imported_at_ms: 42,
    };
    store.record_explorer_import(&import).await.unwrap();
    assert_eq!(store.explorer_import("ab").await.unwrap().as_ref(), Some(&import));
    import.games = 4;
    store.record_explorer_import(&import).await.unwrap();
    assert_eq!(store.explorer_import("ab").await.unwrap().map(|i| i.games), Some(4));
    store.close().await;
}
