//! Studies (研究, issue 42): a teacher's chapters of annotated positions. The store keeps the study's JSON `body`
//! (the model of `guoxiang_learn::study`, validated by the caller) with its title, owner and who may read it:
//! `visibility` is `private`, `class` (the students of `class_id`) or `public` (anyone with the link).

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{Store, StoreError, db_err};

/// A stored study.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StudyRow {
    pub id: String,
    /// The owner's user id.
    pub owner_id: String,
    /// The owner's user name as written.
    pub owner_name: String,
    pub title: String,
    /// `private`, `class` or `public`.
    pub visibility: String,
    pub class_id: Option<String>,
    /// The study's JSON (empty in lists: see [`Store::studies_owned`]).
    pub body: String,
    pub created_at_ms: i64,
    pub updated_at_ms: i64,
}

/// The visibilities a study may have.
pub const STUDY_VISIBILITIES: [&str; 3] = ["private", "class", "public"];

const COLUMNS: &str =
    "s.id, s.owner_id, u.name AS owner_name, s.title, s.visibility, s.class_id, s.created_at_ms, s.updated_at_ms";

fn row_of(row: &AnyRow, with_body: bool) -> Result<StudyRow, sqlx::Error> {
    Ok(StudyRow {
        id: row.try_get("id")?,
        owner_id: row.try_get("owner_id")?,
        owner_name: row.try_get("owner_name")?,
        title: row.try_get("title")?,
        visibility: row.try_get("visibility")?,
        class_id: row.try_get("class_id")?,
        body: if with_body { row.try_get("body")? } else { String::new() },
        created_at_ms: row.try_get("created_at_ms")?,
        updated_at_ms: row.try_get("updated_at_ms")?,
    })
}

/// What a study is saved with.
#[derive(Debug, Clone, Copy)]
pub struct StudyWrite<'a> {
    pub title: &'a str,
    pub visibility: &'a str,
    pub class_id: Option<&'a str>,
    pub body: &'a str,
}

impl Store {
    /// Creates a study. The owner (and the class, if any) must exist; `id` must be new.
    pub async fn create_study(
        &self,
        id: &str,
        owner_id: &str,
        w: StudyWrite<'_>,
        now_ms: i64,
    ) -> Result<StudyRow, StoreError> {
        sqlx::query(
            "INSERT INTO studies (id, owner_id, title, visibility, class_id, body, created_at_ms, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $7)",
        )
        .bind(id)
        .bind(owner_id)
        .bind(w.title)
        .bind(w.visibility)
        .bind(w.class_id)
        .bind(w.body)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("create_study {id}")))?;
        self.study(id).await?.ok_or_else(|| StoreError::NotFound(format!("study {id} (create_study)")))
    }

    /// The study with this id, with its body.
    pub async fn study(&self, id: &str) -> Result<Option<StudyRow>, StoreError> {
        let ctx = || format!("study {id}");
        sqlx::query(&format!(
            "SELECT {COLUMNS}, s.body FROM studies s JOIN users u ON u.id = s.owner_id WHERE s.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err(ctx()))?
        .map(|r| row_of(&r, true))
        .transpose()
        .map_err(db_err(ctx()))
    }

    /// Saves a study's title, visibility, class and body; `false` if there is no such study.
    pub async fn update_study(&self, id: &str, w: StudyWrite<'_>, now_ms: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE studies SET title = $2, visibility = $3, class_id = $4, body = $5, updated_at_ms = $6 WHERE id = $1",
        )
        .bind(id)
        .bind(w.title)
        .bind(w.visibility)
        .bind(w.class_id)
        .bind(w.body)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("update_study {id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Deletes a study; `false` if there was none.
    pub async fn delete_study(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM studies WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("delete_study {id}")))?;
        Ok(done.rows_affected() > 0)
    }

    async fn study_list(&self, filter: &str, bind: Option<&str>, ctx: &str) -> Result<Vec<StudyRow>, StoreError> {
        let sql = format!(
            "SELECT {COLUMNS} FROM studies s JOIN users u ON u.id = s.owner_id {filter} \
             ORDER BY s.updated_at_ms DESC, s.id LIMIT 500"
        );
        let mut q = sqlx::query(&sql);
        if let Some(b) = bind {
            q = q.bind(b);
        }
        let rows = q.fetch_all(&self.pool).await.map_err(db_err(ctx))?;
        rows.iter().map(|r| row_of(r, false)).collect::<Result<_, _>>().map_err(db_err(ctx))
    }

    /// A user's own studies, newest change first (without bodies).
    pub async fn studies_owned(&self, owner_id: &str) -> Result<Vec<StudyRow>, StoreError> {
        self.study_list("WHERE s.owner_id = $1", Some(owner_id), &format!("studies_owned {owner_id}")).await
    }

    /// The studies shared with a class (visibility `class`), newest change first (without bodies).
    pub async fn studies_of_class(&self, class_id: &str) -> Result<Vec<StudyRow>, StoreError> {
        self.study_list(
            "WHERE s.visibility = 'class' AND s.class_id = $1",
            Some(class_id),
            &format!("studies_of_class {class_id}"),
        )
        .await
    }

    /// The studies shared with the classes a user is a student of (not their own), newest change first.
    pub async fn studies_shared_with(&self, user_id: &str) -> Result<Vec<StudyRow>, StoreError> {
        self.study_list(
            "WHERE s.visibility = 'class' AND s.owner_id <> $1 \
             AND s.class_id IN (SELECT m.class_id FROM class_students m WHERE m.user_id = $1)",
            Some(user_id),
            &format!("studies_shared_with {user_id}"),
        )
        .await
    }

    /// Public studies, newest change first (without bodies).
    pub async fn public_studies(&self) -> Result<Vec<StudyRow>, StoreError> {
        self.study_list("WHERE s.visibility = 'public'", None, "public_studies").await
    }

    /// Whether a user may read a study: its owner, anyone when it is public, a student of its class when it is
    /// shared with a class.
    pub async fn may_read_study(&self, study: &StudyRow, user_id: Option<&str>) -> Result<bool, StoreError> {
        if study.visibility == "public" {
            return Ok(true);
        }
        let Some(user) = user_id else { return Ok(false) };
        if study.owner_id == user {
            return Ok(true);
        }
        match (&study.class_id, study.visibility.as_str()) {
            (Some(class), "class") => self.is_class_student(class, user).await,
            _ => Ok(false),
        }
    }
}
