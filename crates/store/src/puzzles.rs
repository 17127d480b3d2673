//! Puzzles of the tactics trainer (战术训练): the puzzles themselves, which motifs each teaches, the rounds accounts
//! played, their puzzle ratings and the daily puzzle. Tables of migration 3 (`puzzles`, `puzzle_motifs`,
//! `puzzle_rounds`, `puzzle_ratings`, `puzzle_daily`).
//!
//! - [`Store::upsert_puzzles`] imports a batch in one transaction, idempotently: a row equal to the stored one writes
//!   nothing. A row whose id is stored updates its content (FEN, moves, themes, motifs, popularity, game URL,
//!   opening tags, source); its rating, deviation and volatility are taken from the file only while nobody has
//!   played the puzzle on this server (`rounds = 0`) — after that the rating is ours; `plays` becomes the file's
//!   plays plus our rounds.
//! - [`Store::next_puzzle`] finds a puzzle near a rating with index range scans on `puzzles (rating)` or
//!   `puzzle_motifs (motif, rating)`: the first puzzle at or above a point in a window around the rating, else the
//!   first below it, widening the window (±100, ±250, ±600, then everything) when nothing is found.
//! - [`Store::record_round`] writes an account's round in ONE transaction: its puzzle rating, the puzzle's rating
//!   and play count, and the round row (one per account and puzzle; a replay changes nothing).

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use sqlx::Row;
use sqlx::any::AnyRow;

use crate::{Dialect, Store, StoreError, begin_write, db_err};

/// The windows around the wanted rating that [`Store::next_puzzle`] tries, narrowest first (then everything).
pub const NEXT_WINDOWS: [f64; 3] = [100.0, 250.0, 600.0];

/// How many ids one `IN (…)` list binds at most.
const IN_CHUNK: usize = 500;
/// How many rows one multi-row `INSERT` writes at most.
const INSERT_CHUNK: usize = 100;

/// A Glicko-2 rating as stored: rating, deviation, volatility.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PuzzleGlicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

/// One motif our tagger found in a puzzle, with its sentence about the position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MotifTag {
    /// The motif's id (`fork`, `mate_in_2`, …).
    pub id: String,
    pub zh: String,
    pub en: String,
}

/// A stored puzzle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PuzzleRow {
    /// The PuzzleId (letters, digits, `_`, `-`).
    pub id: String,
    /// The position before the setup move.
    pub fen: String,
    /// UCI moves separated by spaces, the setup move first.
    pub moves: String,
    pub glicko: PuzzleGlicko,
    /// Plays: the source's count plus the rounds on this server.
    pub plays: i64,
    /// Rounds played on this server (read back only; [`Store::upsert_puzzles`] ignores it).
    pub rounds: i64,
    pub popularity: i64,
    /// lichess's themes, as the file gave them.
    pub themes: Vec<String>,
    /// Our tagger's motifs.
    pub motifs: Vec<MotifTag>,
    pub game_url: String,
    pub opening_tags: Vec<String>,
    /// `lichess` (imported) or `guoxiang` (our generator).
    pub source: String,
    /// The short number people call the puzzle by (第 1234 题): given at import, 1, 2, 3, … in the order the
    /// puzzles came in, never changed (read back only; [`Store::upsert_puzzles`] gives it, 0 in a row to import).
    #[serde(default)]
    pub number: i64,
}

/// What a batch import did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct UpsertCounts {
    /// New puzzles.
    pub inserted: u64,
    /// Stored puzzles whose content changed.
    pub updated: u64,
    /// Stored puzzles the row left as they were.
    pub unchanged: u64,
}

impl std::ops::AddAssign for UpsertCounts {
    fn add_assign(&mut self, o: UpsertCounts) {
        self.inserted += o.inserted;
        self.updated += o.updated;
        self.unchanged += o.unchanged;
    }
}

/// What [`Store::next_puzzle`] looks for.
#[derive(Debug, Clone, Default)]
pub struct NextQuery<'a> {
    /// The wanted rating.
    pub rating: f64,
    /// Where in each window to start, from -1 (its bottom) to 1 (its top): the caller's random number, so that
    /// players of one rating do not all get the same puzzle.
    pub start: f64,
    /// Any of these motifs (empty: any puzzle).
    pub motifs: &'a [String],
    /// Not one of these ids.
    pub exclude: &'a [String],
    /// Not one this account has played.
    pub user_id: Option<&'a str>,
    /// Not one that has been a daily puzzle.
    pub not_daily: bool,
}

/// An account's puzzle rating.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct UserPuzzleRating {
    pub glicko: PuzzleGlicko,
    /// Rounds played.
    pub rounds: i64,
}

/// A round to record ([`Store::record_round`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NewRound<'a> {
    pub user_id: &'a str,
    pub puzzle_id: &'a str,
    /// Solved without a mistake.
    pub win: bool,
    /// Hints used.
    pub hints: i64,
    pub at_ms: i64,
    /// The account's rating before its first round.
    pub new_user: PuzzleGlicko,
}

/// What [`Store::record_round`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RoundRecord {
    /// The account had played this puzzle before: nothing was written, the ratings are the current ones.
    pub replay: bool,
    pub user_before: PuzzleGlicko,
    pub user_after: PuzzleGlicko,
    /// The account's rounds after this one.
    pub user_rounds: i64,
    pub puzzle_after: PuzzleGlicko,
    pub puzzle_plays: i64,
}

/// One round of an account's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoundRow {
    pub puzzle_id: String,
    pub win: bool,
    pub hints: i64,
    pub at_ms: i64,
    pub rating_before: f64,
    pub rating_after: f64,
    /// The puzzle's short number (0 if the puzzle is gone).
    pub number: i64,
}

/// An account's results on one motif.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MotifResults {
    pub motif: String,
    pub solved: i64,
    pub failed: i64,
}

const PUZZLE_COLUMNS: &str = "id, fen, moves, rating, deviation, volatility, plays, rounds, popularity, themes, \
     motifs, game_url, opening_tags, source, number";

/// The difficulties an account can choose for its puzzles (lichess's names).
pub const PUZZLE_DIFFICULTIES: [&str; 5] = ["easiest", "easier", "normal", "harder", "hardest"];

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_owned).collect()
}

fn puzzle_from_row(row: &AnyRow) -> Result<PuzzleRow, StoreError> {
    let get = |e: sqlx::Error| StoreError::Db(format!("reading a puzzle: {e}"));
    let id: String = row.try_get("id").map_err(get)?;
    let motifs: String = row.try_get("motifs").map_err(get)?;
    let motifs =
        serde_json::from_str(&motifs).map_err(|e| StoreError::Corrupt(format!("motifs of puzzle {id}: {e}")))?;
    Ok(PuzzleRow {
        fen: row.try_get("fen").map_err(get)?,
        moves: row.try_get("moves").map_err(get)?,
        glicko: PuzzleGlicko {
            rating: row.try_get("rating").map_err(get)?,
            deviation: row.try_get("deviation").map_err(get)?,
            volatility: row.try_get("volatility").map_err(get)?,
        },
        plays: row.try_get("plays").map_err(get)?,
        rounds: row.try_get("rounds").map_err(get)?,
        popularity: row.try_get("popularity").map_err(get)?,
        themes: words(&row.try_get::<String, _>("themes").map_err(get)?),
        motifs,
        game_url: row.try_get("game_url").map_err(get)?,
        opening_tags: words(&row.try_get::<String, _>("opening_tags").map_err(get)?),
        source: row.try_get("source").map_err(get)?,
        number: row.try_get::<Option<i64>, _>("number").map_err(get)?.unwrap_or(0),
        id,
    })
}

fn motifs_json(p: &PuzzleRow) -> Result<String, StoreError> {
    serde_json::to_string(&p.motifs).map_err(|e| StoreError::Corrupt(format!("motifs of puzzle {}: {e}", p.id)))
}

/// `$from, $from+1, …` for `n` parameters.
pub(crate) fn placeholders(from: usize, n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        if i > 0 {
            s.push_str(", ");
        }
        let _ = write!(s, "${}", from + i);
    }
    s
}

/// The stored puzzle `old` after importing `new`: the content from `new`; the rating from `new` only while the
/// puzzle has no rounds here; plays from `new` plus our rounds.
fn merged(old: &PuzzleRow, new: &PuzzleRow) -> PuzzleRow {
    PuzzleRow {
        glicko: if old.rounds == 0 { new.glicko } else { old.glicko },
        plays: new.plays + old.rounds,
        rounds: old.rounds,
        number: old.number,
        ..new.clone()
    }
}

type Tx = sqlx::Transaction<'static, sqlx::Any>;

/// Inserts new puzzles, numbering them after the highest number stored (the caller holds the write lock: SQLite's
/// `BEGIN IMMEDIATE`, or on PostgreSQL the lock [`Store::upsert_puzzles`] takes on `puzzles`).
async fn insert_puzzles(tx: &mut Tx, rows: &[&PuzzleRow]) -> Result<(), StoreError> {
    const COLS: usize = 15;
    if rows.is_empty() {
        return Ok(());
    }
    let mut number: i64 = sqlx::query("SELECT COALESCE(MAX(number), 0) AS n FROM puzzles")
        .fetch_one(&mut **tx)
        .await
        .and_then(|r| r.try_get::<i64, _>("n"))
        .map_err(db_err("upsert_puzzles: numbers"))?;
    for chunk in rows.chunks(INSERT_CHUNK) {
        let mut sql = format!("INSERT INTO puzzles ({PUZZLE_COLUMNS}) VALUES ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push_str(", ");
            }
            let _ = write!(sql, "({})", placeholders(i * COLS + 1, COLS));
        }
        let mut q = sqlx::query(&sql);
        for p in chunk {
            q = q
                .bind(p.id.clone())
                .bind(p.fen.clone())
                .bind(p.moves.clone())
                .bind(p.glicko.rating)
                .bind(p.glicko.deviation)
                .bind(p.glicko.volatility)
                .bind(p.plays)
                .bind(p.rounds)
                .bind(p.popularity)
                .bind(p.themes.join(" "))
                .bind(motifs_json(p)?)
                .bind(p.game_url.clone())
                .bind(p.opening_tags.join(" "))
                .bind(p.source.clone());
            number += 1;
            q = q.bind(number);
        }
        q.execute(&mut **tx).await.map_err(db_err("upsert_puzzles: insert"))?;
    }
    let motifs: Vec<(&str, &str, f64)> = rows
        .iter()
        .flat_map(|p| p.motifs.iter().map(move |m| (p.id.as_str(), m.id.as_str(), p.glicko.rating)))
        .collect();
    insert_motifs(tx, &motifs).await
}

async fn insert_motifs(tx: &mut Tx, motifs: &[(&str, &str, f64)]) -> Result<(), StoreError> {
    for chunk in motifs.chunks(INSERT_CHUNK * 3) {
        let mut sql = String::from("INSERT INTO puzzle_motifs (puzzle_id, motif, rating) VALUES ");
        for i in 0..chunk.len() {
            if i > 0 {
                sql.push_str(", ");
            }
            let _ = write!(sql, "({})", placeholders(i * 3 + 1, 3));
        }
        // A motif named twice by the tagger is one row.
        sql.push_str(" ON CONFLICT (puzzle_id, motif) DO NOTHING");
        let mut q = sqlx::query(&sql);
        for (id, motif, rating) in chunk {
            q = q.bind(id.to_string()).bind(motif.to_string()).bind(*rating);
        }
        q.execute(&mut **tx).await.map_err(db_err("upsert_puzzles: motifs"))?;
    }
    Ok(())
}

async fn update_puzzle(tx: &mut Tx, p: &PuzzleRow) -> Result<(), StoreError> {
    let context = format!("upsert_puzzles: update {}", p.id);
    sqlx::query(
        "UPDATE puzzles SET fen = $2, moves = $3, rating = $4, deviation = $5, volatility = $6, plays = $7, \
         popularity = $8, themes = $9, motifs = $10, game_url = $11, opening_tags = $12, source = $13 WHERE id = $1",
    )
    .bind(&p.id)
    .bind(&p.fen)
    .bind(&p.moves)
    .bind(p.glicko.rating)
    .bind(p.glicko.deviation)
    .bind(p.glicko.volatility)
    .bind(p.plays)
    .bind(p.popularity)
    .bind(p.themes.join(" "))
    .bind(motifs_json(p)?)
    .bind(&p.game_url)
    .bind(p.opening_tags.join(" "))
    .bind(&p.source)
    .execute(&mut **tx)
    .await
    .map_err(db_err(&context))?;
    sqlx::query("DELETE FROM puzzle_motifs WHERE puzzle_id = $1")
        .bind(&p.id)
        .execute(&mut **tx)
        .await
        .map_err(db_err(&context))?;
    let motifs: Vec<(&str, &str, f64)> =
        p.motifs.iter().map(|m| (p.id.as_str(), m.id.as_str(), p.glicko.rating)).collect();
    insert_motifs(tx, &motifs).await
}

fn glicko_of(row: &AnyRow, context: &str) -> Result<PuzzleGlicko, StoreError> {
    Ok(PuzzleGlicko {
        rating: row.try_get("rating").map_err(db_err(context))?,
        deviation: row.try_get("deviation").map_err(db_err(context))?,
        volatility: row.try_get("volatility").map_err(db_err(context))?,
    })
}

impl Store {
    /// Imports a batch of puzzles in one transaction; see the module's documentation for what a stored puzzle's
    /// re-import updates. A row repeated within the batch counts as a re-import of the first.
    pub async fn upsert_puzzles(&self, rows: &[PuzzleRow]) -> Result<UpsertCounts, StoreError> {
        let mut counts = UpsertCounts::default();
        if rows.is_empty() {
            return Ok(counts);
        }
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err("upsert_puzzles: begin"))?;
        let mut stored: HashMap<String, PuzzleRow> = HashMap::new();
        let ids: Vec<&str> = rows.iter().map(|p| p.id.as_str()).collect();
        for chunk in ids.chunks(IN_CHUNK) {
            let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id IN ({})", placeholders(1, chunk.len()));
            let mut q = sqlx::query(&sql);
            for id in chunk {
                q = q.bind(id.to_string());
            }
            for row in q.fetch_all(&mut *tx).await.map_err(db_err("upsert_puzzles: select"))? {
                let p = puzzle_from_row(&row)?;
                stored.insert(p.id.clone(), p);
            }
        }
        // New rows in file order; a repeat of a new row within the batch replaces it.
        let mut new_rows: Vec<PuzzleRow> = Vec::new();
        let mut new_index: HashMap<String, usize> = HashMap::new();
        let mut updates: Vec<PuzzleRow> = Vec::new();
        for row in rows {
            let row = PuzzleRow { rounds: 0, ..row.clone() };
            if let Some(&i) = new_index.get(&row.id) {
                if new_rows[i] == row {
                    counts.unchanged += 1;
                } else {
                    counts.updated += 1;
                    new_rows[i] = row;
                }
            } else if let Some(old) = stored.get(&row.id) {
                let m = merged(old, &row);
                if &m == old {
                    counts.unchanged += 1;
                } else {
                    counts.updated += 1;
                    stored.insert(m.id.clone(), m.clone());
                    updates.push(m);
                }
            } else {
                counts.inserted += 1;
                new_index.insert(row.id.clone(), new_rows.len());
                new_rows.push(row);
            }
        }
        let refs: Vec<&PuzzleRow> = new_rows.iter().collect();
        if !refs.is_empty() && self.dialect == Dialect::Postgres {
            // Two imports at once: the second waits here, so each numbers after the other's puzzles.
            sqlx::query("LOCK TABLE puzzles IN SHARE ROW EXCLUSIVE MODE")
                .execute(&mut *tx)
                .await
                .map_err(db_err("upsert_puzzles: lock"))?;
        }
        insert_puzzles(&mut tx, &refs).await?;
        for p in &updates {
            update_puzzle(&mut tx, p).await?;
        }
        tx.commit().await.map_err(db_err("upsert_puzzles: commit"))?;
        Ok(counts)
    }

    /// The puzzle with this id.
    pub async fn puzzle(&self, id: &str) -> Result<Option<PuzzleRow>, StoreError> {
        let sql = format!("SELECT {PUZZLE_COLUMNS} FROM puzzles WHERE id = $1");
        let row =
            sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await.map_err(db_err(format_args!("puzzle {id}")))?;
        row.as_ref().map(puzzle_from_row).transpose()
    }

    /// Whether any puzzle is stored.
    pub async fn has_puzzles(&self) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT id FROM puzzles LIMIT 1")
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err("has_puzzles"))?;
        Ok(row.is_some())
    }

    /// The number of puzzles stored (counts the table: slow on millions of rows).
    pub async fn puzzle_count(&self) -> Result<i64, StoreError> {
        sqlx::query("SELECT COUNT(*) FROM puzzles")
            .fetch_one(&self.pool)
            .await
            .and_then(|r| r.try_get::<i64, _>(0))
            .map_err(db_err("puzzle_count"))
    }

    /// How many puzzles each motif has, for the motifs that have any, by motif id.
    pub async fn motif_counts(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query("SELECT motif, COUNT(*) AS n FROM puzzle_motifs GROUP BY motif ORDER BY motif")
            .fetch_all(&self.pool)
            .await
            .map_err(db_err("motif_counts"))?;
        rows.iter()
            .map(|r| Ok((r.try_get("motif")?, r.try_get("n")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err("motif_counts"))
    }

    /// One candidate: the first puzzle in `lo..=hi` from `point` upwards (`up`) or downwards, of `motif` (or any).
    async fn next_in(
        &self,
        q: &NextQuery<'_>,
        motif: Option<&str>,
        (lo, point, hi): (f64, f64, f64),
        up: bool,
    ) -> Result<Option<(String, f64)>, StoreError> {
        let (table, id_col) = match motif {
            Some(_) => ("puzzle_motifs p", "p.puzzle_id"),
            None => ("puzzles p", "p.id"),
        };
        let (range, order) = if up {
            ("p.rating >= $1 AND p.rating <= $2", "ASC")
        } else {
            ("p.rating >= $1 AND p.rating < $2", "DESC")
        };
        let mut sql = format!("SELECT {id_col} AS id, p.rating AS rating FROM {table} WHERE {range}");
        let mut n = 2;
        if motif.is_some() {
            n += 1;
            let _ = write!(sql, " AND p.motif = ${n}");
        }
        if q.user_id.is_some() {
            n += 1;
            let _ = write!(
                sql,
                " AND NOT EXISTS (SELECT 1 FROM puzzle_rounds r WHERE r.user_id = ${n} AND r.puzzle_id = {id_col})"
            );
        }
        if q.not_daily {
            let _ = write!(sql, " AND NOT EXISTS (SELECT 1 FROM puzzle_daily d WHERE d.puzzle_id = {id_col})");
        }
        if !q.exclude.is_empty() {
            let _ = write!(sql, " AND {id_col} NOT IN ({})", placeholders(n + 1, q.exclude.len()));
        }
        let _ = write!(sql, " ORDER BY p.rating {order} LIMIT 1");
        let (a, b) = if up { (point, hi) } else { (lo, point) };
        let mut query = sqlx::query(&sql).bind(a).bind(b);
        if let Some(m) = motif {
            query = query.bind(m.to_owned());
        }
        if let Some(u) = q.user_id {
            query = query.bind(u.to_owned());
        }
        for id in q.exclude {
            query = query.bind(id.clone());
        }
        let row = query.fetch_optional(&self.pool).await.map_err(db_err("next_puzzle"))?;
        row.map(|r| Ok((r.try_get("id")?, r.try_get("rating")?))).transpose().map_err(db_err("next_puzzle"))
    }

    /// A puzzle near `q.rating` that matches `q` (see the module's documentation for how it is found), or `None`
    /// when no puzzle matches at all.
    pub async fn next_puzzle(&self, q: &NextQuery<'_>) -> Result<Option<PuzzleRow>, StoreError> {
        let start = if q.start.is_finite() { q.start.clamp(-1.0, 1.0) } else { 0.0 };
        let rating = if q.rating.is_finite() { q.rating } else { 1500.0 };
        let motifs: Vec<Option<&str>> =
            if q.motifs.is_empty() { vec![None] } else { q.motifs.iter().map(|m| Some(m.as_str())).collect() };
        let windows = NEXT_WINDOWS.iter().map(|&w| (rating - w, rating + start * w, rating + w)).chain([(
            f64::MIN,
            rating,
            f64::MAX,
        )]);
        for window in windows {
            for up in [true, false] {
                let mut best: Option<(String, f64)> = None;
                for &m in &motifs {
                    if let Some((id, r)) = self.next_in(q, m, window, up).await?
                        && best.as_ref().is_none_or(|(_, b)| (r - window.1).abs() < (b - window.1).abs())
                    {
                        best = Some((id, r));
                    }
                }
                if let Some((id, _)) = best {
                    return self.puzzle(&id).await;
                }
            }
        }
        Ok(None)
    }

    /// An account's puzzle rating (`None` before its first round).
    pub async fn user_puzzle_rating(&self, user_id: &str) -> Result<Option<UserPuzzleRating>, StoreError> {
        let context = format!("user_puzzle_rating {user_id}");
        let row = sqlx::query("SELECT rating, deviation, volatility, rounds FROM puzzle_ratings WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(&context))?;
        row.map(|r| {
            Ok(UserPuzzleRating {
                glicko: glicko_of(&r, &context)?,
                rounds: r.try_get("rounds").map_err(db_err(&context))?,
            })
        })
        .transpose()
    }

    /// Records an account's round on a puzzle in one transaction: `rate(user, puzzle)` gives the new ratings of
    /// both from the current ones (the account's `new_user` before its first round); the account's rating, the
    /// puzzle's rating and plays (and its copies in `puzzle_motifs`) and the round row are written together. If the
    /// account has played the puzzle before, nothing is written and the current ratings come back with
    /// `replay: true`. [`StoreError::NotFound`] for an unknown user or puzzle.
    pub async fn record_round(
        &self,
        round: &NewRound<'_>,
        rate: impl FnOnce(PuzzleGlicko, PuzzleGlicko) -> (PuzzleGlicko, PuzzleGlicko),
    ) -> Result<RoundRecord, StoreError> {
        let NewRound { user_id, puzzle_id, win, hints, at_ms, new_user } = *round;
        let context = format!("record_round {user_id} {puzzle_id}");
        let ctx = || context.as_str();
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(ctx()))?;
        // Two rounds of one account at once: SQLite's BEGIN IMMEDIATE serialises writers; on PostgreSQL the user's
        // row is the lock (then the puzzle's, always in this order).
        let (lock_user, lock_puzzle) = match self.dialect {
            Dialect::Postgres => (
                "SELECT id FROM users WHERE id = $1 FOR UPDATE",
                "SELECT rating, deviation, volatility, plays FROM puzzles WHERE id = $1 FOR UPDATE",
            ),
            Dialect::Sqlite => (
                "SELECT id FROM users WHERE id = $1",
                "SELECT rating, deviation, volatility, plays FROM puzzles WHERE id = $1",
            ),
        };
        if sqlx::query(lock_user).bind(user_id).fetch_optional(&mut *tx).await.map_err(db_err(ctx()))?.is_none() {
            return Err(StoreError::NotFound(format!("user {user_id} (record_round)")));
        }
        let Some(prow) =
            sqlx::query(lock_puzzle).bind(puzzle_id).fetch_optional(&mut *tx).await.map_err(db_err(ctx()))?
        else {
            return Err(StoreError::NotFound(format!("puzzle {puzzle_id} (record_round)")));
        };
        let puzzle = glicko_of(&prow, ctx())?;
        let plays: i64 = prow.try_get("plays").map_err(db_err(ctx()))?;
        let urow = sqlx::query("SELECT rating, deviation, volatility, rounds FROM puzzle_ratings WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err(ctx()))?;
        let (user, rounds) = match &urow {
            Some(r) => (glicko_of(r, ctx())?, r.try_get::<i64, _>("rounds").map_err(db_err(ctx()))?),
            None => (new_user, 0),
        };
        let played = sqlx::query("SELECT at_ms FROM puzzle_rounds WHERE user_id = $1 AND puzzle_id = $2")
            .bind(user_id)
            .bind(puzzle_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err(ctx()))?;
        if played.is_some() {
            tx.commit().await.map_err(db_err(ctx()))?;
            return Ok(RoundRecord {
                replay: true,
                user_before: user,
                user_after: user,
                user_rounds: rounds,
                puzzle_after: puzzle,
                puzzle_plays: plays,
            });
        }
        let (user_after, puzzle_after) = rate(user, puzzle);
        sqlx::query(
            "INSERT INTO puzzle_ratings (user_id, rating, deviation, volatility, rounds, updated_at_ms) \
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (user_id) DO UPDATE SET rating = $2, deviation = $3, \
             volatility = $4, rounds = $5, updated_at_ms = $6",
        )
        .bind(user_id)
        .bind(user_after.rating)
        .bind(user_after.deviation)
        .bind(user_after.volatility)
        .bind(rounds + 1)
        .bind(at_ms)
        .execute(&mut *tx)
        .await
        .map_err(db_err(ctx()))?;
        sqlx::query(
            "UPDATE puzzles SET rating = $2, deviation = $3, volatility = $4, plays = plays + 1, rounds = rounds + 1 \
             WHERE id = $1",
        )
        .bind(puzzle_id)
        .bind(puzzle_after.rating)
        .bind(puzzle_after.deviation)
        .bind(puzzle_after.volatility)
        .execute(&mut *tx)
        .await
        .map_err(db_err(ctx()))?;
        sqlx::query("UPDATE puzzle_motifs SET rating = $2 WHERE puzzle_id = $1")
            .bind(puzzle_id)
            .bind(puzzle_after.rating)
            .execute(&mut *tx)
            .await
            .map_err(db_err(ctx()))?;
        // Earned: a win the server's judge saw (the solving move, no wrong try before it).
        let judged = sqlx::query("SELECT wrong, solved FROM puzzle_judged WHERE user_id = $1 AND puzzle_id = $2")
            .bind(user_id)
            .bind(puzzle_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err(ctx()))?;
        let earned = match judged {
            Some(j) => {
                let wrong: i64 = j.try_get("wrong").map_err(db_err(ctx()))?;
                let solved: i64 = j.try_get("solved").map_err(db_err(ctx()))?;
                win && solved != 0 && wrong == 0
            }
            None => false,
        };
        sqlx::query(
            "INSERT INTO puzzle_rounds (user_id, puzzle_id, at_ms, win, hints, rating_before, rating_after, earned) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(user_id)
        .bind(puzzle_id)
        .bind(at_ms)
        .bind(i64::from(win))
        .bind(hints)
        .bind(user.rating)
        .bind(user_after.rating)
        .bind(i64::from(earned))
        .execute(&mut *tx)
        .await
        .map_err(db_err(ctx()))?;
        tx.commit().await.map_err(db_err(ctx()))?;
        Ok(RoundRecord {
            replay: false,
            user_before: user,
            user_after,
            user_rounds: rounds + 1,
            puzzle_after,
            puzzle_plays: plays + 1,
        })
    }

    /// An account's latest rounds, newest first, at most `limit`.
    pub async fn puzzle_history(&self, user_id: &str, limit: i64) -> Result<Vec<RoundRow>, StoreError> {
        let context = format!("puzzle_history {user_id}");
        let rows = sqlx::query(
            "SELECT r.puzzle_id AS puzzle_id, r.win AS win, r.hints AS hints, r.at_ms AS at_ms, \
             r.rating_before AS rating_before, r.rating_after AS rating_after, p.number AS number \
             FROM puzzle_rounds r LEFT JOIN puzzles p ON p.id = r.puzzle_id WHERE r.user_id = $1 \
             ORDER BY r.at_ms DESC, r.puzzle_id LIMIT $2",
        )
        .bind(user_id)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(&context))?;
        rows.iter()
            .map(|r| {
                Ok(RoundRow {
                    puzzle_id: r.try_get("puzzle_id")?,
                    win: r.try_get::<i64, _>("win")? != 0,
                    hints: r.try_get("hints")?,
                    at_ms: r.try_get("at_ms")?,
                    rating_before: r.try_get("rating_before")?,
                    rating_after: r.try_get("rating_after")?,
                    number: r.try_get::<Option<i64>, _>("number")?.unwrap_or(0),
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err(&context))
    }

    /// Records what the server's judge said of one of an account's tries on a puzzle: a wrong (or illegal) try, or
    /// the solving move. Once wrong stays wrong; a round recorded later is earned only when solved and never wrong.
    pub async fn record_judged_try(
        &self,
        user_id: &str,
        puzzle_id: &str,
        wrong: bool,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let (w, s) = (i64::from(wrong), i64::from(!wrong));
        sqlx::query(
            "INSERT INTO puzzle_judged (user_id, puzzle_id, wrong, solved, at_ms) VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id, puzzle_id) DO UPDATE SET \
             wrong = CASE WHEN puzzle_judged.wrong <> 0 THEN 1 ELSE $3 END, \
             solved = CASE WHEN puzzle_judged.solved <> 0 THEN 1 ELSE $4 END, at_ms = $5",
        )
        .bind(user_id)
        .bind(puzzle_id)
        .bind(w)
        .bind(s)
        .bind(at_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("record_judged_try {user_id} {puzzle_id}")))?;
        Ok(())
    }

    /// An account's solved and failed rounds per motif of the puzzles it played, by motif id: solved are the rounds
    /// won as the client said (the learner's own dashboard), or with `earned_only` those the server's judge saw
    /// solved (a teacher's).
    pub async fn puzzle_motif_results(
        &self,
        user_id: &str,
        earned_only: bool,
    ) -> Result<Vec<MotifResults>, StoreError> {
        let context = format!("puzzle_motif_results {user_id}");
        let column = if earned_only { "earned" } else { "win" };
        let rows = sqlx::query(&format!(
            "SELECT m.motif AS motif, CAST(SUM(r.{column}) AS BIGINT) AS solved, COUNT(*) AS n \
             FROM puzzle_rounds r JOIN puzzle_motifs m ON m.puzzle_id = r.puzzle_id \
             WHERE r.user_id = $1 GROUP BY m.motif ORDER BY m.motif"
        ))
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(&context))?;
        rows.iter()
            .map(|r| {
                let solved: i64 = r.try_get("solved")?;
                let n: i64 = r.try_get("n")?;
                Ok(MotifResults { motif: r.try_get("motif")?, solved, failed: n - solved })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err(&context))
    }

    /// The difficulty an account chose for its puzzles (one of [`PUZZLE_DIFFICULTIES`]), `None` before it chose.
    pub async fn puzzle_difficulty(&self, user_id: &str) -> Result<Option<String>, StoreError> {
        let context = format!("puzzle_difficulty {user_id}");
        let row = sqlx::query("SELECT difficulty FROM puzzle_prefs WHERE user_id = $1")
            .bind(user_id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(&context))?;
        let d: Option<String> = row.map(|r| r.try_get("difficulty")).transpose().map_err(db_err(&context))?;
        Ok(d.filter(|d| PUZZLE_DIFFICULTIES.contains(&d.as_str())))
    }

    /// Keeps the difficulty an account chose for its puzzles. A name that is not one of [`PUZZLE_DIFFICULTIES`] is
    /// refused with [`StoreError::Corrupt`] (the caller checks it first); [`StoreError::NotFound`] for an unknown
    /// user.
    pub async fn set_puzzle_difficulty(&self, user_id: &str, difficulty: &str, now_ms: i64) -> Result<(), StoreError> {
        let context = format!("set_puzzle_difficulty {user_id}");
        if !PUZZLE_DIFFICULTIES.contains(&difficulty) {
            return Err(StoreError::Corrupt(format!("{context}: {difficulty:?} is not a difficulty")));
        }
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&context))?;
        if sqlx::query("SELECT id FROM users WHERE id = $1")
            .bind(user_id)
            .fetch_optional(&mut *tx)
            .await
            .map_err(db_err(&context))?
            .is_none()
        {
            return Err(StoreError::NotFound(format!("user {user_id} ({context})")));
        }
        sqlx::query(
            "INSERT INTO puzzle_prefs (user_id, difficulty, updated_at_ms) VALUES ($1, $2, $3) \
             ON CONFLICT (user_id) DO UPDATE SET difficulty = $2, updated_at_ms = $3",
        )
        .bind(user_id)
        .bind(difficulty)
        .bind(now_ms)
        .execute(&mut *tx)
        .await
        .map_err(db_err(&context))?;
        tx.commit().await.map_err(db_err(&context))
    }

    /// The daily puzzle of `day` (`YYYY-MM-DD`, UTC), if chosen.
    pub async fn daily_puzzle(&self, day: &str) -> Result<Option<String>, StoreError> {
        let row = sqlx::query("SELECT puzzle_id FROM puzzle_daily WHERE day = $1")
            .bind(day)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(format_args!("daily_puzzle {day}")))?;
        row.map(|r| r.try_get("puzzle_id")).transpose().map_err(db_err(format_args!("daily_puzzle {day}")))
    }

    /// Makes `puzzle_id` the daily puzzle of `day` unless one is already chosen, and returns the day's puzzle (so
    /// two servers choosing at once agree on the first).
    pub async fn choose_daily_puzzle(&self, day: &str, puzzle_id: &str, now_ms: i64) -> Result<String, StoreError> {
        let context = format!("choose_daily_puzzle {day}");
        sqlx::query(
            "INSERT INTO puzzle_daily (day, puzzle_id, chosen_at_ms) VALUES ($1, $2, $3) ON CONFLICT (day) DO NOTHING",
        )
        .bind(day)
        .bind(puzzle_id)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(&context))?;
        self.daily_puzzle(day).await?.ok_or(StoreError::NotFound(context))
    }
}
