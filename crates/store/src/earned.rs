//! Lesson steps *earned* by a registered account (issue 42): a step counts when the server's own judge accepted it
//! (`POST /api/learn/try` in that account's session), never because a client said so — `learn_progress` stays the
//! learner's own bookmark. `learn_misses` counts the wrong tries at a step until it is earned; `learn_earned` keeps
//! the first acceptance with the misses before it (later tries change nothing), from which a teacher's dashboard
//! gives the lesson's stars.

use std::collections::BTreeMap;

use sqlx::Row;

use crate::{Store, StoreError, db_err};

/// An earned step: the wrong tries before the judge accepted it, and when it did (ms since the Unix epoch).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EarnedStep {
    pub misses: u32,
    pub at_ms: i64,
}

/// The earned steps of one lesson, by step index (from 0).
pub type EarnedSteps = BTreeMap<u32, EarnedStep>;

/// Earned steps by lesson id.
pub type EarnedLessons = BTreeMap<String, EarnedSteps>;

fn step_i64(step: u32) -> i64 {
    i64::from(step)
}

impl Store {
    /// Counts one wrong try of `user_id` at `step` of `lesson_id` (nothing once the step is earned).
    pub async fn add_learn_miss(&self, user_id: &str, lesson_id: &str, step: u32) -> Result<(), StoreError> {
        let context = format!("add_learn_miss {user_id} {lesson_id} {step}");
        sqlx::query(
            "INSERT INTO learn_misses (user_id, lesson_id, step, misses) \
             SELECT $1, $2, $3, 1 WHERE NOT EXISTS \
             (SELECT 1 FROM learn_earned WHERE user_id = $1 AND lesson_id = $2 AND step = $3) \
             ON CONFLICT (user_id, lesson_id, step) DO UPDATE SET misses = learn_misses.misses + 1",
        )
        .bind(user_id)
        .bind(lesson_id)
        .bind(step_i64(step))
        .execute(&self.pool)
        .await
        .map_err(db_err(&context))?;
        Ok(())
    }

    /// Records that the judge accepted `step` of `lesson_id` for `user_id` at `at_ms`, with the misses counted so far.
    /// The first acceptance wins: returns whether this one was recorded (`false`: the step was earned before).
    pub async fn earn_learn_step(
        &self,
        user_id: &str,
        lesson_id: &str,
        step: u32,
        at_ms: i64,
    ) -> Result<bool, StoreError> {
        let context = format!("earn_learn_step {user_id} {lesson_id} {step}");
        let done = sqlx::query(
            "INSERT INTO learn_earned (user_id, lesson_id, step, misses, at_ms) \
             SELECT $1, $2, $3, COALESCE((SELECT misses FROM learn_misses \
             WHERE user_id = $1 AND lesson_id = $2 AND step = $3), 0), $4 \
             WHERE 1 = 1 ON CONFLICT (user_id, lesson_id, step) DO NOTHING",
        )
        .bind(user_id)
        .bind(lesson_id)
        .bind(step_i64(step))
        .bind(at_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(&context))?;
        Ok(done.rows_affected() > 0)
    }

    /// The steps `user_id` earned, by lesson.
    pub async fn learn_earned(&self, user_id: &str) -> Result<EarnedLessons, StoreError> {
        let mut all = self.learn_earned_of(&[user_id.to_owned()]).await?;
        Ok(all.remove(user_id).unwrap_or_default())
    }

    /// The steps each of `user_ids` earned, by user id and lesson (users without any are missing).
    pub async fn learn_earned_of(&self, user_ids: &[String]) -> Result<BTreeMap<String, EarnedLessons>, StoreError> {
        let mut out: BTreeMap<String, EarnedLessons> = BTreeMap::new();
        if user_ids.is_empty() {
            return Ok(out);
        }
        let sql = format!(
            "SELECT user_id, lesson_id, step, misses, at_ms FROM learn_earned WHERE user_id IN ({})",
            crate::puzzles::placeholders(1, user_ids.len())
        );
        let mut q = sqlx::query(&sql);
        for id in user_ids {
            q = q.bind(id.clone());
        }
        let rows = q.fetch_all(&self.pool).await.map_err(db_err("learn_earned_of"))?;
        for r in &rows {
            let user: String = r.try_get("user_id").map_err(db_err("learn_earned_of"))?;
            let lesson: String = r.try_get("lesson_id").map_err(db_err("learn_earned_of"))?;
            let step: i64 = r.try_get("step").map_err(db_err("learn_earned_of"))?;
            let misses: i64 = r.try_get("misses").map_err(db_err("learn_earned_of"))?;
            let at_ms: i64 = r.try_get("at_ms").map_err(db_err("learn_earned_of"))?;
            let (Ok(step), Ok(misses)) = (u32::try_from(step), u32::try_from(misses.max(0))) else {
                return Err(StoreError::Corrupt(format!("learn_earned {user} {lesson}: step {step}")));
            };
            out.entry(user).or_default().entry(lesson).or_default().insert(step, EarnedStep { misses, at_ms });
        }
        Ok(out)
    }
}

/// Stars of a lesson from the wrong tries over all its steps, as the course page gives them: 3 without a wrong try,
/// 2 with at most two, else 1.
pub fn stars_for(misses: u32) -> u8 {
    match misses {
        0 => 3,
        1..=2 => 2,
        _ => 1,
    }
}
