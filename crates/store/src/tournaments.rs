//! Tournaments (issue 18): each is one row whose `data` is a document the server owns (its settings, players,
//! rounds, boards and results), written whole with a version check — two writers that read the same version cannot
//! both commit, so a result is never lost to a concurrent pairing. `tournament_games` maps each game a round created
//! to its tournament, round and board, written in the same transaction as the document that names the game.

use sqlx::Row;

use crate::{Store, StoreError, begin_write, db_err};

/// A tournament as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentRow {
    pub id: String,
    pub name: String,
    /// The organiser's user id.
    pub created_by: String,
    /// `"open"` (taking entries), `"running"` or `"finished"`.
    pub status: String,
    /// The server's document (JSON).
    pub data: String,
    /// Incremented by every update.
    pub version: i64,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// A game of a tournament's round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TournamentGameRow {
    pub game_id: String,
    pub tournament_id: String,
    /// From 1.
    pub round: i64,
    /// From 1.
    pub board: i64,
}

fn row_of(row: &sqlx::any::AnyRow) -> Result<TournamentRow, sqlx::Error> {
    Ok(TournamentRow {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        created_by: row.try_get("created_by")?,
        status: row.try_get("status")?,
        data: row.try_get("data")?,
        version: row.try_get("version")?,
        created_at_ms: row.try_get("created_at_ms")?,
        updated_at_ms: row.try_get("updated_at_ms")?,
    })
}

const COLUMNS: &str = "id, name, created_by, status, data, version, created_at_ms, updated_at_ms";

impl Store {
    /// Stores a new tournament (its `version` as given, usually 1).
    pub async fn insert_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        let context = format!("insert_tournament {}", t.id);
        sqlx::query(
            "INSERT INTO tournaments (id, name, created_by, status, data, version, created_at_ms, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.created_by)
        .bind(&t.status)
        .bind(&t.data)
        .bind(t.version)
        .bind(t.created_at_ms)
        .bind(t.updated_at_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(&context))?;
        Ok(())
    }

    /// The tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let context = format!("tournament {id}");
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(&context))?;
        row.as_ref().map(row_of).transpose().map_err(db_err(&context))
    }

    /// Tournaments with one of `statuses` (all when empty), newest first, at most `limit`.
    pub async fn tournaments(&self, statuses: &[&str], limit: i64) -> Result<Vec<TournamentRow>, StoreError> {
        let context = "tournaments";
        let rows = if statuses.is_empty() {
            sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments ORDER BY created_at_ms DESC, id LIMIT $1"))
                .bind(limit)
                .fetch_all(&self.pool)
                .await
        } else {
            let marks: Vec<String> = (0..statuses.len()).map(|i| format!("${}", i + 2)).collect();
            let sql = format!(
                "SELECT {COLUMNS} FROM tournaments WHERE status IN ({}) ORDER BY created_at_ms DESC, id LIMIT $1",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql).bind(limit);
            for s in statuses {
                q = q.bind(*s);
            }
            q.fetch_all(&self.pool).await
        }
        .map_err(db_err(context))?;
        rows.iter().map(row_of).collect::<Result<_, _>>().map_err(db_err(context))
    }

    /// Writes a new state of a tournament if it is still at `expected_version` (then at `expected_version + 1`),
    /// together with the games its rounds created. Answers `false`, writing nothing, when someone else wrote first.
    pub async fn update_tournament(
        &self,
        t: &TournamentRow,
        expected_version: i64,
        new_games: &[TournamentGameRow],
    ) -> Result<bool, StoreError> {
        let context = format!("update_tournament {}", t.id);
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&context))?;
        let done = sqlx::query(
            "UPDATE tournaments SET name = $2, status = $3, data = $4, version = $5, updated_at_ms = $6 \
             WHERE id = $1 AND version = $7",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.status)
        .bind(&t.data)
        .bind(expected_version + 1)
        .bind(t.updated_at_ms)
        .bind(expected_version)
        .execute(&mut *tx)
        .await
        .map_err(db_err(&context))?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        for g in new_games {
            sqlx::query("INSERT INTO tournament_games (game_id, tournament_id, round, board) VALUES ($1, $2, $3, $4)")
                .bind(&g.game_id)
                .bind(&g.tournament_id)
                .bind(g.round)
                .bind(g.board)
                .execute(&mut *tx)
                .await
                .map_err(db_err(&context))?;
        }
        tx.commit().await.map_err(db_err(&context))?;
        Ok(true)
    }

    /// The tournament, round and board of a game, if a tournament created it.
    pub async fn tournament_of_game(&self, game_id: &str) -> Result<Option<TournamentGameRow>, StoreError> {
        let context = format!("tournament_of_game {game_id}");
        let row = sqlx::query("SELECT game_id, tournament_id, round, board FROM tournament_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(&context))?;
        let Some(row) = row else { return Ok(None) };
        let get = || -> Result<TournamentGameRow, sqlx::Error> {
            Ok(TournamentGameRow {
                game_id: row.try_get("game_id")?,
                tournament_id: row.try_get("tournament_id")?,
                round: row.try_get("round")?,
                board: row.try_get("board")?,
            })
        };
        get().map(Some).map_err(db_err(&context))
    }
}
