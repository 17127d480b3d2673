//! Homework (issue 42): a class's assignments (`class_assignments`: the kind, its fields as JSON, an optional due
//! date), and the questions their done rules ask of what students did — puzzles solved through the trainer, games
//! against the computer played to the end, a tournament's games — and when a student was last seen. Whether an
//! assignment is done is decided above the store (`crates/http`'s homework module); here are only the rows.

use std::collections::BTreeMap;

use sqlx::Row;

use crate::{Store, StoreError, db_err};

/// One assignment as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AssignmentRow {
    pub id: String,
    pub class_id: String,
    /// `lesson`, `chapter`, `puzzles`, `computer`, `study` or `tournament`.
    pub kind: String,
    /// The kind's fields as a JSON object (`{"lesson": …}`, `{"theme": …, "count": …}`, …).
    pub spec: String,
    /// When it is due (ms since the Unix epoch), if ever.
    pub due_ms: Option<i64>,
    pub created_at_ms: i64,
}

fn assignment_of(r: &sqlx::any::AnyRow) -> Result<AssignmentRow, sqlx::Error> {
    Ok(AssignmentRow {
        id: r.try_get("id")?,
        class_id: r.try_get("class_id")?,
        kind: r.try_get("kind")?,
        spec: r.try_get("spec")?,
        due_ms: r.try_get("due_ms")?,
        created_at_ms: r.try_get("created_at_ms")?,
    })
}

const COLUMNS: &str = "id, class_id, kind, spec, due_ms, created_at_ms";

impl Store {
    /// Stores a new assignment.
    pub async fn insert_assignment(&self, a: &AssignmentRow) -> Result<(), StoreError> {
        sqlx::query(&format!("INSERT INTO class_assignments ({COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6)"))
            .bind(a.id.clone())
            .bind(a.class_id.clone())
            .bind(a.kind.clone())
            .bind(a.spec.clone())
            .bind(a.due_ms)
            .bind(a.created_at_ms)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("insert_assignment {}", a.id)))?;
        Ok(())
    }

    /// A class's assignments, oldest first.
    pub async fn class_assignments(&self, class_id: &str) -> Result<Vec<AssignmentRow>, StoreError> {
        let ctx = || format!("class_assignments {class_id}");
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM class_assignments WHERE class_id = $1 ORDER BY created_at_ms, id"
        ))
        .bind(class_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter().map(assignment_of).collect::<Result<_, _>>().map_err(db_err(ctx()))
    }

    /// Deletes assignment `id` of class `class_id`; whether there was one.
    pub async fn delete_assignment(&self, class_id: &str, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM class_assignments WHERE class_id = $1 AND id = $2")
            .bind(class_id)
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("delete_assignment {class_id} {id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// When `user_id` solved puzzles of `motif` (the trainer's themes, `puzzle_motifs`) in rounds recorded at or
    /// after `since_ms`, earliest first. Only earned solves count (`puzzle_rounds.earned`: the server's judge saw
    /// the solving move and no wrong try), not what a client claimed.
    pub async fn puzzle_solves_in_motif(
        &self,
        user_id: &str,
        motif: &str,
        since_ms: i64,
    ) -> Result<Vec<i64>, StoreError> {
        let ctx = || format!("puzzle_solves_in_motif {user_id} {motif}");
        let rows = sqlx::query(
            "SELECT r.at_ms AS at_ms FROM puzzle_rounds r JOIN puzzle_motifs m ON m.puzzle_id = r.puzzle_id \
             WHERE r.user_id = $1 AND m.motif = $2 AND r.earned <> 0 AND r.at_ms >= $3 ORDER BY r.at_ms",
        )
        .bind(user_id)
        .bind(motif)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter().map(|r| r.try_get("at_ms")).collect::<Result<_, _>>().map_err(db_err(ctx()))
    }

    /// Which of `puzzle_ids` `user_id` solved (an earned round; an account has one round per puzzle), with when.
    pub async fn puzzle_solves_among(
        &self,
        user_id: &str,
        puzzle_ids: &[String],
    ) -> Result<Vec<(String, i64)>, StoreError> {
        if puzzle_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT puzzle_id, at_ms FROM puzzle_rounds WHERE user_id = $1 AND earned <> 0 AND puzzle_id IN ({})",
            crate::puzzles::placeholders(2, puzzle_ids.len())
        );
        let mut q = sqlx::query(&sql).bind(user_id.to_owned());
        for id in puzzle_ids {
            q = q.bind(id.clone());
        }
        let ctx = || format!("puzzle_solves_among {user_id}");
        let rows = q.fetch_all(&self.pool).await.map_err(db_err(ctx()))?;
        rows.iter()
            .map(|r| Ok((r.try_get("puzzle_id")?, r.try_get("at_ms")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err(ctx()))
    }

    /// Notes that `user_id` opened study `study_id` (the first time is kept).
    pub async fn record_study_view(&self, user_id: &str, study_id: &str, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO study_views (user_id, study_id, first_at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id, study_id) DO NOTHING",
        )
        .bind(user_id)
        .bind(study_id)
        .bind(at_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("record_study_view {user_id} {study_id}")))?;
        Ok(())
    }

    /// When `user_id` first opened study `study_id`, if ever.
    pub async fn study_viewed_at(&self, user_id: &str, study_id: &str) -> Result<Option<i64>, StoreError> {
        let ctx = || format!("study_viewed_at {user_id} {study_id}");
        let row = sqlx::query("SELECT first_at_ms FROM study_views WHERE user_id = $1 AND study_id = $2")
            .bind(user_id)
            .bind(study_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(ctx()))?;
        row.map(|r| r.try_get("first_at_ms")).transpose().map_err(db_err(ctx()))
    }

    /// An account's rounds: (solved, failed) — solved are the earned rounds, failed all the others.
    pub async fn puzzle_round_counts(&self, user_id: &str) -> Result<(i64, i64), StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, CAST(COALESCE(SUM(earned), 0) AS BIGINT) AS w FROM puzzle_rounds WHERE user_id = $1",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await
        .map_err(db_err(format_args!("puzzle_round_counts {user_id}")))?;
        let n: i64 = row.try_get("n").map_err(db_err("puzzle_round_counts"))?;
        let w: i64 = row.try_get("w").map_err(db_err("puzzle_round_counts"))?;
        Ok((w, n - w))
    }

    /// Which of `puzzle_ids` exist.
    pub async fn puzzles_existing(&self, puzzle_ids: &[String]) -> Result<Vec<String>, StoreError> {
        if puzzle_ids.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!("SELECT id FROM puzzles WHERE id IN ({})", crate::puzzles::placeholders(1, puzzle_ids.len()));
        let mut q = sqlx::query(&sql);
        for id in puzzle_ids {
            q = q.bind(id.clone());
        }
        let rows = q.fetch_all(&self.pool).await.map_err(db_err("puzzles_existing"))?;
        rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>().map_err(db_err("puzzles_existing"))
    }

    /// When `user_id`'s games against the computer at `min_level` or higher, started at or after `since_ms`, ended
    /// — those played to the end (finished, not aborted) — earliest first.
    pub async fn computer_games_finished(
        &self,
        user_id: &str,
        min_level: i64,
        since_ms: i64,
    ) -> Result<Vec<i64>, StoreError> {
        let ctx = || format!("computer_games_finished {user_id}");
        let rows = sqlx::query(
            "SELECT COALESCE(ended_at_ms, created_at_ms) AS at_ms FROM games \
             WHERE status = 'finished' AND created_at_ms >= $3 AND \
             ((white_id = $1 AND black_engine_level >= $2) OR (black_id = $1 AND white_engine_level >= $2)) \
             ORDER BY at_ms",
        )
        .bind(user_id)
        .bind(min_level)
        .bind(since_ms)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter().map(|r| r.try_get("at_ms")).collect::<Result<_, _>>().map_err(db_err(ctx()))
    }

    /// `user_id`'s games in tournament `tournament_id`: how many were paired, how many finished, and when the last
    /// finished one ended.
    pub async fn tournament_games_of(
        &self,
        user_id: &str,
        tournament_id: &str,
    ) -> Result<(i64, i64, Option<i64>), StoreError> {
        let ctx = || format!("tournament_games_of {user_id} {tournament_id}");
        let row = sqlx::query(
            "SELECT COUNT(*) AS n, \
             CAST(COALESCE(SUM(CASE WHEN g.status = 'finished' THEN 1 ELSE 0 END), 0) AS BIGINT) AS f, \
             MAX(CASE WHEN g.status = 'finished' THEN g.ended_at_ms END) AS last \
             FROM tournament_games t JOIN games g ON g.id = t.game_id \
             WHERE t.tournament_id = $2 AND (g.white_id = $1 OR g.black_id = $1)",
        )
        .bind(user_id)
        .bind(tournament_id)
        .fetch_one(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        let n: i64 = row.try_get("n").map_err(db_err(ctx()))?;
        let f: i64 = row.try_get("f").map_err(db_err(ctx()))?;
        let last: Option<i64> = row.try_get("last").map_err(db_err(ctx()))?;
        Ok((n, f, last))
    }

    /// When each of `user_ids` was last seen (ms): the latest of a session's recorded use, a puzzle round, an
    /// earned lesson step and a game's start; users never seen are missing.
    pub async fn last_seen(&self, user_ids: &[String]) -> Result<BTreeMap<String, i64>, StoreError> {
        let mut out = BTreeMap::new();
        for id in user_ids {
            let row = sqlx::query(
                "SELECT (SELECT MAX(last_used_at_ms) FROM sessions WHERE user_id = $1) AS s, \
                 (SELECT MAX(at_ms) FROM puzzle_rounds WHERE user_id = $1) AS p, \
                 (SELECT MAX(at_ms) FROM learn_earned WHERE user_id = $1) AS l, \
                 (SELECT MAX(created_at_ms) FROM games WHERE white_id = $1 OR black_id = $1) AS g",
            )
            .bind(id.clone())
            .fetch_one(&self.pool)
            .await
            .map_err(db_err(format_args!("last_seen {id}")))?;
            let mut seen: Option<i64> = None;
            for k in ["s", "p", "l", "g"] {
                let v: Option<i64> = row.try_get(k).map_err(db_err("last_seen"))?;
                seen = seen.max(v);
            }
            if let Some(at) = seen.filter(|at| *at > 0) {
                out.insert(id.clone(), at);
            }
        }
        Ok(out)
    }
}
