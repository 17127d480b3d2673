//! Teachers and classes (课堂, issue 42): a teacher's classes, who is in them, join codes, the accounts a teacher
//! created (`students`) and the passwords a teacher reset (`password_resets`: the account must choose a new one).
//!
//! Ids, join codes, names and passwords are made by the caller (the HTTP layer or the CLI); the store keeps them and
//! says when a join code or a user name is already taken.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{Store, StoreError, User, begin_write, db_err, user_id_of};

/// A class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassRow {
    pub id: String,
    /// The teacher's user id.
    pub owner_id: String,
    pub name: String,
    /// The code a registered account joins with; `None`: joining by code is closed.
    pub join_code: Option<String>,
    /// Its students may be challenged by people outside their classes.
    pub allow_challenges: bool,
    pub created_at_ms: i64,
}

/// A class in a list, with its number of students.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassSummary {
    pub class: ClassRow,
    pub students: i64,
}

/// A student of a class as the teacher sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassMember {
    pub user_id: String,
    /// The user name as written.
    pub name: String,
    /// The account was created by this class's teacher (a `students` row with that teacher).
    pub created_by_teacher: bool,
    /// A password reset is pending: the account must choose a new password.
    pub must_change_password: bool,
    pub joined_at_ms: i64,
}

const CLASS_COLUMNS: &str = "c.id, c.owner_id, c.name, c.join_code, c.allow_challenges, c.created_at_ms";

fn class_from_row(row: &AnyRow) -> Result<ClassRow, sqlx::Error> {
    Ok(ClassRow {
        id: row.try_get("id")?,
        owner_id: row.try_get("owner_id")?,
        name: row.try_get("name")?,
        join_code: row.try_get("join_code")?,
        allow_challenges: row.try_get::<i64, _>("allow_challenges")? != 0,
        created_at_ms: row.try_get("created_at_ms")?,
    })
}

fn summary_from_row(row: &AnyRow) -> Result<ClassSummary, sqlx::Error> {
    Ok(ClassSummary { class: class_from_row(row)?, students: row.try_get("n")? })
}

/// The classes with their number of students, for a `WHERE` on `c`.
fn summaries_sql(filter: &str) -> String {
    format!(
        "SELECT {CLASS_COLUMNS}, (SELECT COUNT(*) FROM class_students s WHERE s.class_id = c.id) AS n \
         FROM classes c {filter} ORDER BY c.created_at_ms, c.id"
    )
}

impl Store {
    /// Creates a class. The owner must exist; `id` must be new.
    pub async fn create_class(
        &self,
        id: &str,
        owner_id: &str,
        name: &str,
        now_ms: i64,
    ) -> Result<ClassRow, StoreError> {
        sqlx::query("INSERT INTO classes (id, owner_id, name, join_code, allow_challenges, created_at_ms) VALUES ($1, $2, $3, NULL, 0, $4)")
            .bind(id)
            .bind(owner_id)
            .bind(name)
            .bind(now_ms)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("create_class {id}")))?;
        Ok(ClassRow {
            id: id.to_owned(),
            owner_id: owner_id.to_owned(),
            name: name.to_owned(),
            join_code: None,
            allow_challenges: false,
            created_at_ms: now_ms,
        })
    }

    /// The class with this id, if any.
    pub async fn class(&self, id: &str) -> Result<Option<ClassRow>, StoreError> {
        let ctx = || format!("class {id}");
        sqlx::query(&format!("SELECT {CLASS_COLUMNS} FROM classes c WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(ctx()))?
            .map(|r| class_from_row(&r))
            .transpose()
            .map_err(db_err(ctx()))
    }

    /// The class whose join code is `code`, if any (codes are stored as given; the caller normalises them).
    pub async fn class_by_join_code(&self, code: &str) -> Result<Option<ClassRow>, StoreError> {
        let ctx = || format!("class_by_join_code {code}");
        sqlx::query(&format!("SELECT {CLASS_COLUMNS} FROM classes c WHERE c.join_code = $1"))
            .bind(code)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(ctx()))?
            .map(|r| class_from_row(&r))
            .transpose()
            .map_err(db_err(ctx()))
    }

    async fn class_summaries(
        &self,
        filter: &str,
        bind: Option<&str>,
        ctx: &str,
    ) -> Result<Vec<ClassSummary>, StoreError> {
        let sql = summaries_sql(filter);
        let mut q = sqlx::query(&sql);
        if let Some(b) = bind {
            q = q.bind(b);
        }
        let rows = q.fetch_all(&self.pool).await.map_err(db_err(ctx))?;
        rows.iter().map(summary_from_row).collect::<Result<_, _>>().map_err(db_err(ctx))
    }

    /// The classes a user teaches, oldest first.
    pub async fn classes_taught(&self, owner_id: &str) -> Result<Vec<ClassSummary>, StoreError> {
        self.class_summaries("WHERE c.owner_id = $1", Some(owner_id), &format!("classes_taught {owner_id}")).await
    }

    /// The classes a user is a student of, oldest first.
    pub async fn classes_joined(&self, user_id: &str) -> Result<Vec<ClassSummary>, StoreError> {
        let filter = "WHERE EXISTS (SELECT 1 FROM class_students m WHERE m.class_id = c.id AND m.user_id = $1)";
        self.class_summaries(filter, Some(user_id), &format!("classes_joined {user_id}")).await
    }

    /// Every class on the server (for hosts: `guoxiang class list`).
    pub async fn all_classes(&self) -> Result<Vec<ClassSummary>, StoreError> {
        self.class_summaries("", None, "all_classes").await
    }

    /// Renames a class; `false` if there is no such class.
    pub async fn rename_class(&self, id: &str, name: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE classes SET name = $2 WHERE id = $1")
            .bind(id)
            .bind(name)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("rename_class {id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Lets strangers challenge the class's students or not; `false` if there is no such class.
    pub async fn set_class_allow_challenges(&self, id: &str, allow: bool) -> Result<bool, StoreError> {
        let done = sqlx::query("UPDATE classes SET allow_challenges = $2 WHERE id = $1")
            .bind(id)
            .bind(i64::from(allow))
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("set_class_allow_challenges {id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Deletes a class with its members and homework (the accounts stay); `false` if there was none.
    pub async fn delete_class(&self, id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM classes WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("delete_class {id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Sets (or with `None` closes) a class's join code. `Ok(false)` when another class has this code (the caller
    /// makes another); [`StoreError::NotFound`] without the class.
    pub async fn set_class_join_code(&self, id: &str, code: Option<&str>) -> Result<bool, StoreError> {
        let ctx = format!("set_class_join_code {id}");
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&ctx))?;
        if let Some(code) = code {
            let taken = sqlx::query("SELECT id FROM classes WHERE join_code = $1 AND id <> $2")
                .bind(code)
                .bind(id)
                .fetch_optional(&mut *tx)
                .await
                .map_err(db_err(&ctx))?;
            if taken.is_some() {
                return Ok(false);
            }
        }
        let done = sqlx::query("UPDATE classes SET join_code = $2 WHERE id = $1")
            .bind(id)
            .bind(code)
            .execute(&mut *tx)
            .await
            .map_err(db_err(&ctx))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!("class {id} (set_class_join_code)")));
        }
        tx.commit().await.map_err(db_err(&ctx))?;
        Ok(true)
    }

    /// Puts a user in a class; `false` if they were in it already.
    pub async fn add_class_student(&self, class_id: &str, user_id: &str, now_ms: i64) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO class_students (class_id, user_id, joined_at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (class_id, user_id) DO NOTHING",
        )
        .bind(class_id)
        .bind(user_id)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("add_class_student {class_id} {user_id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Takes a user out of a class (the account stays); `false` if they were not in it.
    pub async fn remove_class_student(&self, class_id: &str, user_id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM class_students WHERE class_id = $1 AND user_id = $2")
            .bind(class_id)
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("remove_class_student {class_id} {user_id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Whether a user is a student of a class.
    pub async fn is_class_student(&self, class_id: &str, user_id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 AS one FROM class_students WHERE class_id = $1 AND user_id = $2")
            .bind(class_id)
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(format_args!("is_class_student {class_id} {user_id}")))?;
        Ok(row.is_some())
    }

    /// The students of a class, by user name.
    pub async fn class_members(&self, class_id: &str) -> Result<Vec<ClassMember>, StoreError> {
        let ctx = format!("class_members {class_id}");
        let rows = sqlx::query(
            "SELECT u.id, u.name, m.joined_at_ms, \
             CASE WHEN st.user_id IS NULL THEN 0 ELSE 1 END AS by_teacher, \
             CASE WHEN r.user_id IS NULL THEN 0 ELSE 1 END AS reset \
             FROM class_students m JOIN classes c ON c.id = m.class_id JOIN users u ON u.id = m.user_id \
             LEFT JOIN students st ON st.user_id = u.id AND st.teacher_id = c.owner_id \
             LEFT JOIN password_resets r ON r.user_id = u.id \
             WHERE m.class_id = $1 ORDER BY u.id",
        )
        .bind(class_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(&ctx))?;
        let member = |r: &AnyRow| -> Result<ClassMember, sqlx::Error> {
            Ok(ClassMember {
                user_id: r.try_get("id")?,
                name: r.try_get("name")?,
                created_by_teacher: r.try_get::<i64, _>("by_teacher")? != 0,
                must_change_password: r.try_get::<i64, _>("reset")? != 0,
                joined_at_ms: r.try_get("joined_at_ms")?,
            })
        };
        rows.iter().map(member).collect::<Result<_, _>>().map_err(db_err(&ctx))
    }

    /// Creates an account for a class in one transaction: the user (not a guest), its `students` row with the class's
    /// teacher, and its place in the class. [`StoreError::NameTaken`] if the name is taken (nothing is written).
    pub async fn create_student_account(
        &self,
        class: &ClassRow,
        name: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> Result<User, StoreError> {
        let ctx = format!("create_student_account {name}");
        let id = user_id_of(name);
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&ctx))?;
        let done = sqlx::query(
            "INSERT INTO users (id, name, password_hash, is_guest, is_admin, points, created_at_ms) \
             VALUES ($1, $2, $3, 0, 0, 0, $4) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&id)
        .bind(name)
        .bind(password_hash)
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(db_err(&ctx))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NameTaken);
        }
        sqlx::query("INSERT INTO students (user_id, teacher_id, created_at_ms) VALUES ($1, $2, $3)")
            .bind(&id)
            .bind(&class.owner_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err(&ctx))?;
        sqlx::query("INSERT INTO class_students (class_id, user_id, joined_at_ms) VALUES ($1, $2, $3)")
            .bind(&class.id)
            .bind(&id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err(&ctx))?;
        tx.commit().await.map_err(db_err(&ctx))?;
        Ok(User {
            id,
            name: name.to_owned(),
            password_hash: Some(password_hash.to_owned()),
            is_guest: false,
            is_admin: false,
            is_bot: false,
            points: 0,
            created_at_ms: now_ms,
        })
    }

    /// The teacher who created this account, if a teacher did (`students`).
    pub async fn student_teacher(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        sqlx::query_scalar("SELECT teacher_id FROM students WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(format_args!("student_teacher {user_id}")))
    }

    /// Whether `who` may challenge (or be paired by a seek aimed at) `target`: always, unless `target` is an account
    /// a teacher created; then only its teacher, the teacher or a classmate of one of its classes, or anyone when
    /// one of its classes allows challenges.
    pub async fn may_challenge(&self, who: &str, target: &str) -> Result<bool, StoreError> {
        let ctx = format!("may_challenge {who} {target}");
        let Some(teacher) = self.student_teacher(target).await? else { return Ok(true) };
        if teacher == who || who == target {
            return Ok(true);
        }
        let row = sqlx::query(
            "SELECT 1 AS one FROM class_students m JOIN classes c ON c.id = m.class_id \
             WHERE m.user_id = $1 AND (c.allow_challenges <> 0 OR c.owner_id = $2 \
             OR EXISTS (SELECT 1 FROM class_students o WHERE o.class_id = c.id AND o.user_id = $2))",
        )
        .bind(target)
        .bind(who)
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err(&ctx))?;
        Ok(row.is_some())
    }

    /// Whether strangers may play this account: it is not one a teacher created, or one of its classes allows
    /// challenges. (The quick-pairing pools pair strangers.)
    pub async fn open_to_strangers(&self, user_id: &str) -> Result<bool, StoreError> {
        if self.student_teacher(user_id).await?.is_none() {
            return Ok(true);
        }
        let row = sqlx::query(
            "SELECT 1 AS one FROM class_students m JOIN classes c ON c.id = m.class_id \
             WHERE m.user_id = $1 AND c.allow_challenges <> 0",
        )
        .bind(user_id)
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err(format_args!("open_to_strangers {user_id}")))?;
        Ok(row.is_some())
    }

    /// Records that a teacher reset this account's password: it must choose a new one before anything else.
    pub async fn set_password_reset(&self, user_id: &str, reset_by: &str, now_ms: i64) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO password_resets (user_id, reset_by, at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET reset_by = $2, at_ms = $3",
        )
        .bind(user_id)
        .bind(reset_by)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("set_password_reset {user_id}")))?;
        Ok(())
    }

    /// Whether this account must choose a new password (a reset is pending).
    pub async fn password_reset_pending(&self, user_id: &str) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 AS one FROM password_resets WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(format_args!("password_reset_pending {user_id}")))?;
        Ok(row.is_some())
    }

    /// Forgets a pending reset (the account chose a new password); `false` if there was none.
    pub async fn clear_password_reset(&self, user_id: &str) -> Result<bool, StoreError> {
        let done = sqlx::query("DELETE FROM password_resets WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("clear_password_reset {user_id}")))?;
        Ok(done.rows_affected() > 0)
    }

    /// Deletes every personal API token of a user; returns how many there were.
    pub async fn delete_user_tokens(&self, user_id: &str) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM tokens WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("delete_user_tokens {user_id}")))?;
        Ok(done.rows_affected())
    }
}
