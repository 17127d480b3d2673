// SPDX-License-Identifier: GPL-3.0-or-later
//! The opening explorer's tables (migration 5): `explorer_moves`, one row per (source, position, move, speed
//! bucket, rating bucket) with the results of the games that played that move there, and `explorer_imports`, one
//! row per PGN file imported (its SHA-256, so the same file is not counted twice).
//!
//! The rows are aggregates, written by [`Store::explorer_add`] as additions: a batch of rows is one transaction of
//! multi-row `INSERT … ON CONFLICT … DO UPDATE SET white = white + excluded.white, …` statements, so importing a
//! game twice counts it twice (the CLI refuses a file whose digest is recorded). What a position, a move and the
//! buckets mean is the `guoxiang-explorer` crate's business: here they are integers.
//!
//! - `pos`: the position's Zobrist hash (`guoxiang_core::Position::hash`, stable across builds) as a signed 64-bit
//!   integer (the same bits).
//! - `mv`: the move, `from + 64 × to + 4096 × promotion` on UCI squares (a1 = 0 … h8 = 63).
//! - `speed`, `rating`: bucket numbers; `rating` is the bucket's lower bound, −1 for games without both ratings.
//! - `white`, `draws`, `black`: games by result; their sum is the games.
//! - `rating_sum`: the sum of the games' average ratings (0 in the −1 bucket).
//!
//! The import's rows are integers only, written into the SQL text as literals (no bound parameters): they are ours,
//! never user text, and formatting a literal is much cheaper than binding through the `Any` driver. Such a statement
//! is not kept in the driver's statement cache (each text is new).

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::{Store, StoreError, begin_write, db_err};

/// How many rows one multi-row `INSERT` writes.
const INSERT_CHUNK: usize = 2_000;

/// Whose games: played on this server, or imported from a host's PGN files.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ExplorerSource {
    /// Games finished on this server.
    Server,
    /// Games imported with `guoxiang games import`.
    Imported,
}

impl ExplorerSource {
    /// The number stored in `explorer_moves.source`.
    pub fn code(self) -> i64 {
        match self {
            ExplorerSource::Server => 0,
            ExplorerSource::Imported => 1,
        }
    }

    /// `server` or `imported`.
    pub fn as_str(self) -> &'static str {
        match self {
            ExplorerSource::Server => "server",
            ExplorerSource::Imported => "imported",
        }
    }

    /// Reads `server` or `imported`.
    pub fn parse(s: &str) -> Option<ExplorerSource> {
        match s {
            "server" => Some(ExplorerSource::Server),
            "imported" => Some(ExplorerSource::Imported),
            _ => None,
        }
    }
}

/// One aggregate: the games of one source that played `mv` in position `pos`, in one speed and rating bucket.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct ExplorerRow {
    /// The position's Zobrist hash.
    pub pos: u64,
    /// The move's code (see the module documentation).
    pub mv: u32,
    /// The speed bucket.
    pub speed: i64,
    /// The rating bucket (its lower bound; −1: unknown).
    pub rating: i64,
    /// Games White won.
    pub white: i64,
    /// Games drawn.
    pub draws: i64,
    /// Games Black won.
    pub black: i64,
    /// Sum of the games' average ratings.
    pub rating_sum: i64,
}

impl ExplorerRow {
    /// The games this row counts.
    pub fn games(&self) -> i64 {
        self.white + self.draws + self.black
    }
}

/// A PGN file imported into the explorer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExplorerImport {
    /// The file's SHA-256, in hex.
    pub sha256: String,
    /// Its name as given on the command line.
    pub file_name: String,
    /// Its size in bytes.
    pub bytes: i64,
    /// Games indexed.
    pub games: i64,
    /// Games skipped (broken, unfinished, not standard chess).
    pub skipped: i64,
    /// When the import finished (ms since the Unix epoch).
    pub imported_at_ms: i64,
}

fn import_from_row(row: &sqlx::any::AnyRow) -> Result<ExplorerImport, sqlx::Error> {
    Ok(ExplorerImport {
        sha256: row.try_get("sha256")?,
        file_name: row.try_get("file_name")?,
        bytes: row.try_get("bytes")?,
        games: row.try_get("games")?,
        skipped: row.try_get("skipped")?,
        imported_at_ms: row.try_get("imported_at_ms")?,
    })
}

/// `a, b, c` for a filter list.
fn int_list(values: &[i64]) -> String {
    let mut s = String::new();
    for (i, v) in values.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "{v}");
    }
    s
}

impl Store {
    /// Adds a batch of aggregates in ONE transaction: a row whose key is stored adds its counts to the stored row;
    /// rows of the batch with equal keys are added together first. Rows are written in key order (for locality in
    /// the B-tree). An empty batch writes nothing.
    pub async fn explorer_add(&self, source: ExplorerSource, rows: &[ExplorerRow]) -> Result<(), StoreError> {
        if rows.is_empty() {
            return Ok(());
        }
        // One statement must not touch a key twice (PostgreSQL refuses it): sort, and merge equal keys (unless the
        // batch is sorted with distinct keys already, as the import's are).
        let key = |r: &ExplorerRow| (r.pos as i64, r.mv, r.speed, r.rating);
        if rows.windows(2).all(|w| key(&w[0]) < key(&w[1])) {
            return self.explorer_insert(source, rows).await;
        }
        let mut sorted = rows.to_vec();
        sorted.sort_unstable_by_key(key);
        let mut merged: Vec<ExplorerRow> = Vec::with_capacity(sorted.len());
        for r in sorted {
            match merged.last_mut() {
                Some(m) if (m.pos, m.mv, m.speed, m.rating) == (r.pos, r.mv, r.speed, r.rating) => {
                    m.white += r.white;
                    m.draws += r.draws;
                    m.black += r.black;
                    m.rating_sum += r.rating_sum;
                }
                _ => merged.push(r),
            }
        }
        self.explorer_insert(source, &merged).await
    }

    /// [`Store::explorer_add`] for rows sorted by key, keys distinct.
    async fn explorer_insert(&self, source: ExplorerSource, rows: &[ExplorerRow]) -> Result<(), StoreError> {
        let ctx = "explorer_add";
        let mut tx = begin_write(self.pool(), self.dialect()).await.map_err(db_err(ctx))?;
        let src = source.code();
        let mut sql = String::with_capacity(INSERT_CHUNK * 64);
        for chunk in rows.chunks(INSERT_CHUNK) {
            sql.clear();
            sql.push_str(
                "INSERT INTO explorer_moves (source, pos, mv, speed, rating, white, draws, black, rating_sum) VALUES ",
            );
            for (i, r) in chunk.iter().enumerate() {
                if i > 0 {
                    sql.push(',');
                }
                let _ = write!(
                    sql,
                    "({src},{},{},{},{},{},{},{},{})",
                    r.pos as i64, r.mv, r.speed, r.rating, r.white, r.draws, r.black, r.rating_sum
                );
            }
            sql.push_str(
                " ON CONFLICT (source, pos, mv, speed, rating) DO UPDATE SET \
                 white = explorer_moves.white + excluded.white, \
                 draws = explorer_moves.draws + excluded.draws, \
                 black = explorer_moves.black + excluded.black, \
                 rating_sum = explorer_moves.rating_sum + excluded.rating_sum",
            );
            // Not prepared for reuse: every text is new, and the driver would keep each in its statement cache.
            sqlx::query(&sql).persistent(false).execute(&mut *tx).await.map_err(db_err(ctx))?;
        }
        tx.commit().await.map_err(db_err(ctx))
    }

    /// The stored aggregates of one position, in the given speed and rating buckets (an empty list: all of them),
    /// in no particular order. One range scan of the primary key.
    pub async fn explorer_rows(
        &self,
        source: ExplorerSource,
        pos: u64,
        speeds: &[i64],
        ratings: &[i64],
    ) -> Result<Vec<ExplorerRow>, StoreError> {
        let mut sql = String::from(
            "SELECT mv, speed, rating, white, draws, black, rating_sum FROM explorer_moves \
             WHERE source = $1 AND pos = $2",
        );
        if !speeds.is_empty() {
            let _ = write!(sql, " AND speed IN ({})", int_list(speeds));
        }
        if !ratings.is_empty() {
            let _ = write!(sql, " AND rating IN ({})", int_list(ratings));
        }
        // The text depends on the filters only (a few kinds), so the prepared statement is reused.
        let rows = sqlx::query(&sql)
            .bind(source.code())
            .bind(pos as i64)
            .fetch_all(self.pool())
            .await
            .map_err(db_err("explorer_rows"))?;
        rows.iter()
            .map(|row| {
                Ok(ExplorerRow {
                    pos,
                    mv: u32::try_from(row.try_get::<i64, _>("mv")?).unwrap_or(0),
                    speed: row.try_get("speed")?,
                    rating: row.try_get("rating")?,
                    white: row.try_get("white")?,
                    draws: row.try_get("draws")?,
                    black: row.try_get("black")?,
                    rating_sum: row.try_get("rating_sum")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err("explorer_rows"))
    }

    /// How many aggregate rows a source has (for reports and tests; a full count, not for hot paths).
    pub async fn explorer_row_count(&self, source: ExplorerSource) -> Result<i64, StoreError> {
        sqlx::query(&format!("SELECT COUNT(*) FROM explorer_moves WHERE source = {}", source.code()))
            .fetch_one(self.pool())
            .await
            .and_then(|row| row.try_get::<i64, _>(0))
            .map_err(db_err("explorer_row_count"))
    }

    /// The import of the file with this SHA-256, if one was recorded.
    pub async fn explorer_import(&self, sha256: &str) -> Result<Option<ExplorerImport>, StoreError> {
        let row = sqlx::query(
            "SELECT sha256, file_name, bytes, games, skipped, imported_at_ms FROM explorer_imports WHERE sha256 = $1",
        )
        .bind(sha256)
        .fetch_optional(self.pool())
        .await
        .map_err(db_err("explorer_import"))?;
        row.as_ref().map(import_from_row).transpose().map_err(db_err("explorer_import"))
    }

    /// Records a finished import (a later record of the same digest replaces it: `--force`).
    pub async fn record_explorer_import(&self, import: &ExplorerImport) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO explorer_imports (sha256, file_name, bytes, games, skipped, imported_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (sha256) DO UPDATE SET file_name = excluded.file_name, \
             bytes = excluded.bytes, games = excluded.games, skipped = excluded.skipped, \
             imported_at_ms = excluded.imported_at_ms",
        )
        .bind(&import.sha256)
        .bind(&import.file_name)
        .bind(import.bytes)
        .bind(import.games)
        .bind(import.skipped)
        .bind(import.imported_at_ms)
        .execute(self.pool())
        .await
        .map_err(db_err("record_explorer_import"))?;
        Ok(())
    }
}
