// SPDX-License-Identifier: GPL-3.0-or-later
//! Game reviews (复盘): one row per finished game that somebody asked to have reviewed, which is also the reviewer's
//! queue. A review is queued, then running (with its progress in positions), then done (its JSON kept) or failed
//! (its reason kept; asking again queues it again). What a review *is* lives in guoxiang-review; the store keeps the
//! JSON as given and never parses it.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{Store, StoreError, db_err};

/// Where a review is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReviewStatus {
    Queued,
    Running,
    Done,
    Failed,
}

impl ReviewStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            ReviewStatus::Queued => "queued",
            ReviewStatus::Running => "running",
            ReviewStatus::Done => "done",
            ReviewStatus::Failed => "failed",
        }
    }

    fn parse(s: &str) -> Option<ReviewStatus> {
        Some(match s {
            "queued" => ReviewStatus::Queued,
            "running" => ReviewStatus::Running,
            "done" => ReviewStatus::Done,
            "failed" => ReviewStatus::Failed,
            _ => return None,
        })
    }
}

/// A game's review row.
#[derive(Clone, Debug, PartialEq)]
pub struct ReviewRow {
    pub game_id: String,
    pub status: ReviewStatus,
    /// Who asked (`None`: the server, for a game against the computer or an account that reviews every game).
    pub requested_by: Option<String>,
    pub requested_at_ms: i64,
    /// The node budget per position.
    pub nodes: i64,
    pub done_positions: i64,
    pub total_positions: i64,
    /// The review's JSON, once done.
    pub review: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    pub finished_at_ms: Option<i64>,
}

const COLUMNS: &str = "game_id, status, requested_by, requested_at_ms, nodes, done_positions, total_positions, \
                       review, error, finished_at_ms";

fn row_of(row: &AnyRow) -> Result<ReviewRow, StoreError> {
    let get = |e: sqlx::Error| StoreError::Corrupt(format!("game_reviews: {e}"));
    let status: String = row.try_get("status").map_err(get)?;
    let game_id: String = row.try_get("game_id").map_err(get)?;
    Ok(ReviewRow {
        status: ReviewStatus::parse(&status)
            .ok_or_else(|| StoreError::Corrupt(format!("game_reviews {game_id}: unknown status {status:?}")))?,
        game_id,
        requested_by: row.try_get("requested_by").map_err(get)?,
        requested_at_ms: row.try_get("requested_at_ms").map_err(get)?,
        nodes: row.try_get("nodes").map_err(get)?,
        done_positions: row.try_get("done_positions").map_err(get)?,
        total_positions: row.try_get("total_positions").map_err(get)?,
        review: row.try_get("review").map_err(get)?,
        error: row.try_get("error").map_err(get)?,
        finished_at_ms: row.try_get("finished_at_ms").map_err(get)?,
    })
}

/// The prefix of a running review's lease in `game_leases` (see [`review_lease`]; written out in the SQL of
/// [`Store::requeue_orphaned_reviews`]).
pub const REVIEW_LEASE_PREFIX: &str = "~review:";

/// The lease a node of a cluster holds on a review while it runs it (in `game_leases`, renewed with the node's game
/// leases): while it runs, no other node puts the review back in the queue; when the node dies, the lease lapses
/// and [`Store::requeue_orphaned_reviews`] does.
pub fn review_lease(game_id: &str) -> String {
    format!("{REVIEW_LEASE_PREFIX}{game_id}")
}

impl Store {
    /// A game's review row, if one was ever asked for.
    pub async fn review(&self, game_id: &str) -> Result<Option<ReviewRow>, StoreError> {
        let context = format!("review {game_id}");
        let row = sqlx::query(&format!("SELECT {COLUMNS} FROM game_reviews WHERE game_id = $1"))
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(&context))?;
        row.as_ref().map(row_of).transpose()
    }

    /// Queues a review of `game_id` unless it is queued, running or done already (a failed one is queued again),
    /// and returns the row as it now is. The game must exist.
    pub async fn request_review(
        &self,
        game_id: &str,
        requested_by: Option<&str>,
        nodes: i64,
        now_ms: i64,
    ) -> Result<ReviewRow, StoreError> {
        let context = format!("request_review {game_id}");
        let game = sqlx::query("SELECT id FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(&context))?;
        if game.is_none() {
            return Err(StoreError::NotFound(format!("game {game_id} (request_review)")));
        }
        sqlx::query(
            "INSERT INTO game_reviews (game_id, status, requested_by, requested_at_ms, nodes) \
             VALUES ($1, 'queued', $2, $3, $4) \
             ON CONFLICT (game_id) DO UPDATE SET status = 'queued', requested_by = $2, requested_at_ms = $3, \
             nodes = $4, done_positions = 0, total_positions = 0, error = NULL, finished_at_ms = NULL \
             WHERE game_reviews.status = 'failed'",
        )
        .bind(game_id)
        .bind(requested_by)
        .bind(now_ms)
        .bind(nodes)
        .execute(&self.pool)
        .await
        .map_err(db_err(&context))?;
        self.review(game_id).await?.ok_or_else(|| StoreError::NotFound(format!("game {game_id} (request_review)")))
    }

    /// The oldest queued review's game, if any.
    pub async fn next_queued_review(&self) -> Result<Option<String>, StoreError> {
        let row = sqlx::query(
            "SELECT game_id FROM game_reviews WHERE status = 'queued' ORDER BY requested_at_ms, game_id LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err("next_queued_review"))?;
        row.map(|r| r.try_get::<String, _>("game_id")).transpose().map_err(db_err("next_queued_review"))
    }

    /// A queued review's place in the queue (1: next).
    pub async fn review_queue_place(&self, game_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM game_reviews q, game_reviews me WHERE me.game_id = $1 AND q.status = 'queued' \
             AND (q.requested_at_ms < me.requested_at_ms \
                  OR (q.requested_at_ms = me.requested_at_ms AND q.game_id <= me.game_id))",
        )
        .bind(game_id)
        .fetch_one(&self.pool)
        .await
        .map_err(db_err("review_queue_place"))?;
        row.try_get("n").map_err(db_err("review_queue_place"))
    }

    /// How many reviews `user_id` has asked for that are still waiting or running.
    pub async fn pending_reviews_of(&self, user_id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) AS n FROM game_reviews WHERE requested_by = $1 AND status IN ('queued', 'running')",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await
        .map_err(db_err("pending_reviews_of"))?;
        row.try_get("n").map_err(db_err("pending_reviews_of"))
    }

    /// Marks a queued review running, with `total` positions to search. False if it was not queued.
    pub async fn start_review(&self, game_id: &str, total: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE game_reviews SET status = 'running', done_positions = 0, total_positions = $2 \
             WHERE game_id = $1 AND status = 'queued'",
        )
        .bind(game_id)
        .bind(total)
        .execute(&self.pool)
        .await
        .map_err(db_err("start_review"))?;
        Ok(done.rows_affected() == 1)
    }

    /// Records a running review's progress: `done` searches of `total` (which grows when the review's scan hands
    /// positions on to be searched again).
    pub async fn review_progress(&self, game_id: &str, done: i64, total: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE game_reviews SET done_positions = $2, total_positions = $3 WHERE game_id = $1 AND status = 'running'",
        )
        .bind(game_id)
        .bind(done)
        .bind(total)
            .execute(&self.pool)
            .await
            .map_err(db_err("review_progress"))?;
        Ok(())
    }

    /// Stores a finished review's JSON.
    pub async fn finish_review(&self, game_id: &str, review_json: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE game_reviews SET status = 'done', review = $2, error = NULL, finished_at_ms = $3, \
             done_positions = total_positions WHERE game_id = $1",
        )
        .bind(game_id)
        .bind(review_json)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err("finish_review"))?;
        Ok(())
    }

    /// Stores a review made in a player's browser and checked here, if the game's review is still waiting or running
    /// (the server's own, if it ends later, replaces it: both are the game's review). False when it is not.
    pub async fn finish_browser_review(
        &self,
        game_id: &str,
        review_json: &str,
        now_ms: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE game_reviews SET status = 'done', review = $2, error = NULL, finished_at_ms = $3, \
             done_positions = total_positions WHERE game_id = $1 AND status IN ('queued', 'running')",
        )
        .bind(game_id)
        .bind(review_json)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err("finish_browser_review"))?;
        Ok(done.rows_affected() == 1)
    }

    /// Records why a review failed.
    pub async fn fail_review(&self, game_id: &str, error: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE game_reviews SET status = 'failed', error = $2, finished_at_ms = $3 WHERE game_id = $1")
            .bind(game_id)
            .bind(error)
            .bind(now_ms)
            .execute(&self.pool)
            .await
            .map_err(db_err("fail_review"))?;
        Ok(())
    }

    /// Puts back in the queue (their progress starting again) the running reviews that no node of a cluster holds:
    /// their [`review_lease`] is missing or expired at `now_ms` — the node that ran them died or was stopped past
    /// its lease. The reviews other nodes are running stay theirs. Returns how many.
    pub async fn requeue_orphaned_reviews(&self, now_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "UPDATE game_reviews SET status = 'queued', done_positions = 0 WHERE status = 'running' AND NOT EXISTS \
             (SELECT 1 FROM game_leases l WHERE l.game_id = '~review:' || game_reviews.game_id AND l.expires_at_ms >= $1)",
        )
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err("requeue_orphaned_reviews"))?;
        Ok(done.rows_affected())
    }

    /// Puts the reviews a stopped server left running back in the queue (their progress starts again). Returns
    /// how many. For one server alone: in a cluster, [`Store::requeue_orphaned_reviews`].
    pub async fn requeue_running_reviews(&self) -> Result<u64, StoreError> {
        let done =
            sqlx::query("UPDATE game_reviews SET status = 'queued', done_positions = 0 WHERE status = 'running'")
                .execute(&self.pool)
                .await
                .map_err(db_err("requeue_running_reviews"))?;
        Ok(done.rows_affected())
    }

    /// Whether the account has every finished game reviewed.
    pub async fn auto_review(&self, user_id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT auto_review FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err("auto_review"))?;
        match row {
            Some(r) => Ok(r.try_get::<i64, _>("auto_review").map_err(db_err("auto_review"))? != 0),
            None => Ok(false),
        }
    }

    /// Sets whether the account has every finished game reviewed. The user must exist.
    pub async fn set_auto_review(&self, user_id: &str, on: bool) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE users SET auto_review = $2 WHERE id = $1")
            .bind(user_id)
            .bind(i64::from(on))
            .execute(&self.pool)
            .await
            .map_err(db_err("set_auto_review"))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!("user {user_id} (set_auto_review)")));
        }
        Ok(())
    }
}
