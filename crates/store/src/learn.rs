//! Progress in the 学棋 / Learn course, per registered account: for each lesson the steps done, the stars earned
//! (0–3) and whether it is finished. Saving merges, never loses: the union of the steps, the best stars, done once
//! done — so progress sent from a second browser, or kept by a guest before registering, only adds.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::{Dialect, Store, StoreError, begin_write, db_err};

/// One lesson's progress.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct LessonProgress {
    /// Indexes of the steps done (from 0), ascending, no repeats.
    pub steps: Vec<u32>,
    /// 0 to 3.
    pub stars: u8,
    pub done: bool,
}

impl LessonProgress {
    /// This progress together with `other`: union of steps, more stars, done if either is.
    pub fn merge(&self, other: &LessonProgress) -> LessonProgress {
        let mut steps: Vec<u32> = self.steps.iter().chain(&other.steps).copied().collect();
        steps.sort_unstable();
        steps.dedup();
        LessonProgress { steps, stars: self.stars.max(other.stars).min(3), done: self.done || other.done }
    }
}

/// Progress by lesson id.
pub type LearnProgress = BTreeMap<String, LessonProgress>;

fn progress_from_rows(rows: &[sqlx::any::AnyRow], context: &str) -> Result<LearnProgress, StoreError> {
    let mut out = LearnProgress::new();
    for row in rows {
        let lesson: String = row.try_get("lesson_id").map_err(db_err(context))?;
        let steps: String = row.try_get("steps").map_err(db_err(context))?;
        let stars: i64 = row.try_get("stars").map_err(db_err(context))?;
        let done: i64 = row.try_get("done").map_err(db_err(context))?;
        let steps: Vec<u32> = serde_json::from_str(&steps)
            .map_err(|e| StoreError::Corrupt(format!("{context}: steps of lesson {lesson}: {e}")))?;
        out.insert(lesson, LessonProgress { steps, stars: stars.clamp(0, 3) as u8, done: done != 0 });
    }
    Ok(out)
}

impl Store {
    /// The course progress of a user (empty if none).
    pub async fn learn_progress(&self, user_id: &str) -> Result<LearnProgress, StoreError> {
        let context = format!("learn_progress {user_id}");
        let rows = sqlx::query("SELECT lesson_id, steps, stars, done FROM learn_progress WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(&self.pool)
            .await
            .map_err(db_err(&context))?;
        progress_from_rows(&rows, &context)
    }

    /// Merges `progress` into the user's stored progress ([`LessonProgress::merge`], per lesson) in one
    /// transaction, and returns the whole merged progress. The user must exist.
    pub async fn merge_learn_progress(
        &self,
        user_id: &str,
        progress: &LearnProgress,
        now_ms: i64,
    ) -> Result<LearnProgress, StoreError> {
        let context = format!("merge_learn_progress {user_id}");
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&context))?;
        // Two merges for one user at once must not both read the old rows: SQLite's BEGIN IMMEDIATE already
        // serialises writers; on PostgreSQL the user's row is the lock.
        let lock = match self.dialect {
            Dialect::Postgres => "SELECT id FROM users WHERE id = $1 FOR UPDATE",
            Dialect::Sqlite => "SELECT id FROM users WHERE id = $1",
        };
        if sqlx::query(lock).bind(user_id).fetch_optional(&mut *tx).await.map_err(db_err(&context))?.is_none() {
            return Err(StoreError::NotFound(format!("user {user_id} (merge_learn_progress)")));
        }
        let rows = sqlx::query("SELECT lesson_id, steps, stars, done FROM learn_progress WHERE user_id = $1")
            .bind(user_id)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err(&context))?;
        let mut all = progress_from_rows(&rows, &context)?;
        for (lesson, p) in progress {
            let merged = all.get(lesson).map_or_else(|| LessonProgress::default().merge(p), |old| old.merge(p));
            if all.get(lesson) == Some(&merged) {
                continue;
            }
            let steps = serde_json::to_string(&merged.steps).map_err(|e| StoreError::Corrupt(e.to_string()))?;
            sqlx::query(
                "INSERT INTO learn_progress (user_id, lesson_id, steps, stars, done, updated_at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6) \
                 ON CONFLICT (user_id, lesson_id) DO UPDATE SET steps = $3, stars = $4, done = $5, updated_at_ms = $6",
            )
            .bind(user_id)
            .bind(lesson)
            .bind(steps)
            .bind(i64::from(merged.stars))
            .bind(i64::from(merged.done))
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err(&context))?;
            all.insert(lesson.clone(), merged);
        }
        tx.commit().await.map_err(db_err(&context))?;
        Ok(all)
    }
}
