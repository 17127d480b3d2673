//! The guoxiang server's database: users (guests included), sessions, personal API tokens, ratings and their
//! history, games and their moves, progress in the 学棋 / Learn course.
//!
//! One code path serves two databases through sqlx's `Any` driver:
//!
//! - **SQLite** (the default, an embedded file): `sqlite://PATH` (the file is created if missing), or
//!   `sqlite::memory:` for tests. Every connection runs with `journal_mode=WAL`, `synchronous=FULL` (a committed
//!   move survives `kill -9` and a power cut), `foreign_keys=ON` and a 5 s `busy_timeout`.
//! - **PostgreSQL**: `postgres://user@host:port/database`.
//!
//! All SQL uses bound parameters written `$1`, `$2`, …: PostgreSQL's syntax, which sqlx's SQLite driver also accepts
//! (it binds a `$N` parameter to the N-th argument), so no statement is rewritten per dialect. Only the schema has a
//! few per-dialect statements (see the `migrate` module); [`Store::connect`] applies its migrations, which are
//! idempotent and recorded in the `schema_migrations` table.
//!
//! Live play writes through [`Store::write_batch`]: the server's writer task gathers the [`WriteOp`]s of many games
//! and commits them as ONE transaction (group commit), so one fsync covers them all. Inside it, moves and snapshots
//! are written as multi-row statements, so a batch costs a few statements whatever the number of games in it.
//!
//! Types on disk are `TEXT`, `BIGINT` and `DOUBLE PRECISION` only; flags are `BIGINT` 0/1, because the `Any` driver
//! cannot read a SQLite column declared `BOOLEAN`.

#![forbid(unsafe_code)]

mod batch;
mod classes;
mod earned;
mod explorer;
pub mod fault;
mod homework;
mod learn;
mod leases;
mod migrate;
mod puzzles;
mod reviews;
mod studies;
mod tournaments;

use std::collections::HashMap;
use std::fmt::{self, Display};

use serde::{Deserialize, Serialize};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Executor, Row};

pub use classes::{ClassMember, ClassRow, ClassSummary};
pub use earned::{EarnedLessons, EarnedStep, EarnedSteps, stars_for};
pub use explorer::{ExplorerImport, ExplorerRow, ExplorerSource};
pub use homework::AssignmentRow;
pub use learn::{LearnProgress, LessonProgress};
pub use leases::LeaseRow;
pub use migrate::AppliedMigration;
pub use puzzles::{
    MotifResults, MotifTag, NEXT_WINDOWS, NewRound, NextQuery, PUZZLE_DIFFICULTIES, PuzzleGlicko, PuzzleRow,
    RoundRecord, RoundRow, UpsertCounts, UserPuzzleRating,
};
pub use reviews::{REVIEW_LEASE_PREFIX, ReviewRow, ReviewStatus, review_lease};
pub use studies::{STUDY_VISIBILITIES, StudyRow, StudyWrite};
pub use tournaments::{TournamentGameRow, TournamentRow};

/// Connections in the pool of an SQLite file (WAL lets readers run beside the one writer).
const SQLITE_POOL_SIZE: u32 = 4;
/// Connections in the pool of a PostgreSQL database.
const POSTGRES_POOL_SIZE: u32 = 8;

/// Run on every new SQLite connection. `busy_timeout` first, so that switching the journal mode waits for a lock
/// rather than failing.
const SQLITE_PRAGMAS: &[&str] = &[
    "PRAGMA busy_timeout = 5000",
    "PRAGMA journal_mode = WAL",
    "PRAGMA synchronous = FULL",
    "PRAGMA foreign_keys = ON",
    // 8 MiB of pages per connection instead of 2: the live games' rows, rewritten at every move, stay in memory
    // rather than being read back from the file between commits.
    "PRAGMA cache_size = -8192",
];

/// Which database a [`Store`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// An embedded SQLite file (or an in-memory database in tests).
    Sqlite,
    /// A PostgreSQL server.
    Postgres,
}

impl Dialect {
    /// The dialect a connection URL names: `sqlite:…` or `postgres://…` / `postgresql://…`.
    pub fn of_url(url: &str) -> Result<Dialect, StoreError> {
        if url.starts_with("sqlite:") {
            Ok(Dialect::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Ok(Dialect::Postgres)
        } else {
            Err(StoreError::BadUrl(format!(
                "{}: expected sqlite://PATH, sqlite::memory: or postgres://…",
                redact_url(url)
            )))
        }
    }
}

impl Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dialect::Sqlite => "SQLite",
            Dialect::Postgres => "PostgreSQL",
        })
    }
}

/// What went wrong in the store.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// [`Store::create_user`]: another user has this name, compared case-insensitively.
    #[error("this name is already taken (names are compared case-insensitively)")]
    NameTaken,
    /// The row an operation needed does not exist; the text says which and where.
    #[error("not found: {0}")]
    NotFound(String),
    /// The connection URL is not one the store can use.
    #[error("bad database URL: {0}")]
    BadUrl(String),
    /// The database failed; the text says which operation and the driver's message.
    #[error("database error in {0}")]
    Db(String),
    /// A stored value the store cannot read back (e.g. a token's scope list that is not JSON).
    #[error("corrupt data in the database: {0}")]
    Corrupt(String),
    /// [`WriteOp::Fence`]: this node no longer holds the game's lease at that epoch (another node took the game
    /// over); the batch was rolled back.
    #[error("{0}")]
    Fenced(String),
}

/// Wraps a driver error with the operation that hit it.
pub(crate) fn db_err(context: impl Display) -> impl FnOnce(sqlx::Error) -> StoreError {
    move |e| StoreError::Db(format!("{context}: {e}"))
}

/// The lowercased name: a user's id (as on lichess, the id is the lowercased username). Names are unique under this
/// mapping, which is how they are compared case-insensitively.
pub fn user_id_of(name: &str) -> String {
    name.to_lowercase()
}

/// How many hex digits of a token's hash name it.
pub const TOKEN_ID_LEN: usize = 16;

/// A session's last use is written at most this often (ms): the idle limit is counted from the last use written,
/// so it may be up to this much late, and a busy session costs one write per period rather than one per request.
pub const SESSION_TOUCH_MS: i64 = 10 * 60_000;

/// A personal API token as its owner sees it (never its secret).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenInfo {
    /// The first [`TOKEN_ID_LEN`] hex digits of the secret's hash.
    pub id: String,
    pub description: String,
    pub scopes: Vec<String>,
    pub created_at_ms: i64,
}

/// A user; guests are users with `is_guest` and no password.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct User {
    /// The lowercased name ([`user_id_of`]).
    pub id: String,
    /// The name as the user wrote it.
    pub name: String,
    /// The password hash (the server's format), `None` for guests and users without a password.
    pub password_hash: Option<String>,
    /// A guest account.
    pub is_guest: bool,
    /// A server administrator.
    pub is_admin: bool,
    /// A bot account (upgraded through the Lichess-compatible API; its title is BOT).
    pub is_bot: bool,
    /// The user's points (积分).
    pub points: i64,
    /// When the account was created (ms since the Unix epoch).
    pub created_at_ms: i64,
}

/// A user's games by kind: see [`Store::game_counts`] (`_h`: against people, not the computer).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameCounts {
    pub all: i64,
    pub rated: i64,
    pub ai: i64,
    pub win: i64,
    pub loss: i64,
    pub draw: i64,
    pub win_h: i64,
    pub loss_h: i64,
    pub draw_h: i64,
}

/// A user's current rating in one speed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingRow {
    /// The rated user.
    pub user_id: String,
    /// The speed ("blitz", "rapid", …: the server's names).
    pub speed: String,
    /// The rating.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played in this speed.
    pub games: i64,
    /// When it last changed (ms since the Unix epoch).
    pub updated_at_ms: i64,
}

/// One point of a user's rating history: the rating after a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RatingPoint {
    /// The speed.
    pub speed: String,
    /// The game that produced this rating.
    pub game_id: String,
    /// When (ms since the Unix epoch).
    pub at_ms: i64,
    /// The rating after the game.
    pub rating: f64,
    /// Its deviation.
    pub deviation: f64,
}

/// A game, without its moves.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRow {
    /// The game's id.
    pub id: String,
    /// White's user id (or the server's id for an engine side).
    pub white_id: String,
    /// White's display name.
    pub white_name: String,
    /// Black's user id (or the server's id for an engine side).
    pub black_id: String,
    /// Black's display name.
    pub black_name: String,
    /// The engine level if White is the engine.
    pub white_engine_level: Option<i64>,
    /// The engine level if Black is the engine.
    pub black_engine_level: Option<i64>,
    /// A rated game.
    pub rated: bool,
    /// The time control as a PGN `TimeControl` tag.
    pub time_control: String,
    /// The speed.
    pub speed: String,
    /// The variant (server-owned JSON).
    pub variant_json: String,
    /// `"live"`, `"finished"` or `"aborted"`.
    pub status: String,
    /// `"1-0"`, `"0-1"` or `"1/2-1/2"` once decided.
    pub result: Option<String>,
    /// How the game ended.
    pub termination: Option<String>,
    /// `"white"` or `"black"`, `None` for a draw or an unfinished game.
    pub winner: Option<String>,
    /// When the game was created (ms since the Unix epoch).
    pub created_at_ms: i64,
    /// When it ended.
    pub ended_at_ms: Option<i64>,
    /// The game's snapshot without its move list; the server owns its format.
    pub state_json: String,
    /// The snapshot's version.
    pub version: i64,
    /// White's rating when the game started.
    pub white_rating: Option<i64>,
    /// Black's rating when the game started.
    pub black_rating: Option<i64>,
    /// White's rating change.
    pub white_rating_diff: Option<i64>,
    /// Black's rating change.
    pub black_rating_diff: Option<i64>,
    /// White's change of points.
    pub white_points_diff: Option<i64>,
    /// Black's change of points.
    pub black_points_diff: Option<i64>,
}

/// One move of a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRow {
    /// The game.
    pub game_id: String,
    /// The ply, 1-based.
    pub ply: i64,
    /// The move in UCI notation.
    pub uci: String,
    /// The move in SAN.
    pub san: String,
    /// When it was played (ms since the Unix epoch).
    pub at_ms: i64,
    /// The mover's clock after the move, for timed games.
    pub clock_ms: Option<i64>,
    /// Time the mover used on it.
    pub used_ms: i64,
}

/// One write of live play; [`Store::write_batch`] commits a slice of them as one transaction.
// `InsertGame` holds a whole `GameRow` (about 480 bytes): ops live briefly in the writer's batch, a few dozen at a
// time, so boxing would only add an allocation per game.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum WriteOp {
    /// Inserts a new game (its id must be new).
    InsertGame(GameRow),
    /// Appends moves; every row is stored under `game_id` (the rows' own `game_id` is ignored).
    AppendMoves {
        /// The game.
        game_id: String,
        /// The moves, with plies not yet stored.
        moves: Vec<MoveRow>,
    },
    /// Takeback: deletes the moves with `ply > keep_plies`.
    TruncateMoves {
        /// The game.
        game_id: String,
        /// How many plies stay.
        keep_plies: i64,
    },
    /// Replaces the game's snapshot.
    UpdateGameState {
        /// The game.
        game_id: String,
        /// The new snapshot.
        state_json: String,
        /// Its version.
        version: i64,
    },
    /// Ends a game (`status` "finished" or "aborted") and stores its last snapshot.
    FinishGame {
        /// The game.
        game_id: String,
        /// The new status.
        status: String,
        /// The result, if decided.
        result: Option<String>,
        /// How it ended.
        termination: Option<String>,
        /// The winner's colour.
        winner: Option<String>,
        /// When it ended.
        ended_at_ms: i64,
        /// The final snapshot.
        state_json: String,
        /// Its version.
        version: i64,
    },
    /// Marks a rated game as not rated (a result an arbiter set before both players moved).
    Unrate {
        /// The game.
        game_id: String,
    },
    /// Sets the game's ratings and rating/points changes.
    SetRatingDiffs {
        /// The game.
        game_id: String,
        /// White's rating.
        white_rating: Option<i64>,
        /// Black's rating.
        black_rating: Option<i64>,
        /// White's rating change.
        white_rating_diff: Option<i64>,
        /// Black's rating change.
        black_rating_diff: Option<i64>,
        /// White's change of points.
        white_points_diff: Option<i64>,
        /// Black's change of points.
        black_points_diff: Option<i64>,
    },
    /// Inserts or replaces a user's rating in one speed, and appends a point to the rating history.
    UpsertRating {
        /// The new rating.
        row: RatingRow,
        /// The game that produced it.
        game_id: String,
    },
    /// Sets a user's points.
    SetPoints {
        /// The user.
        user_id: String,
        /// The new total.
        points: i64,
    },
    /// Fails the whole batch with [`StoreError::Fenced`] unless `node` still holds the lease of `game_id` at `epoch`
    /// (`leases.rs`); put first in every batch of a game when several nodes share the database.
    Fence {
        /// The game.
        game_id: String,
        /// The node that writes.
        node: String,
        /// The epoch it holds the game at.
        epoch: i64,
    },
}

impl WriteOp {
    /// A short name and target for error messages.
    fn describe(&self) -> String {
        match self {
            WriteOp::InsertGame(g) => format!("InsertGame {}", g.id),
            WriteOp::AppendMoves { game_id, moves } => format!("AppendMoves {game_id} ({} moves)", moves.len()),
            WriteOp::TruncateMoves { game_id, keep_plies } => format!("TruncateMoves {game_id} to {keep_plies}"),
            WriteOp::UpdateGameState { game_id, .. } => format!("UpdateGameState {game_id}"),
            WriteOp::FinishGame { game_id, .. } => format!("FinishGame {game_id}"),
            WriteOp::Unrate { game_id } => format!("Unrate {game_id}"),
            WriteOp::SetRatingDiffs { game_id, .. } => format!("SetRatingDiffs {game_id}"),
            WriteOp::UpsertRating { row, game_id } => {
                format!("UpsertRating {} {} (game {game_id})", row.user_id, row.speed)
            }
            WriteOp::SetPoints { user_id, .. } => format!("SetPoints {user_id}"),
            WriteOp::Fence { game_id, node, epoch } => format!("Fence {game_id} ({node} at epoch {epoch})"),
        }
    }
}

/// The database: a connection pool and its dialect. Cheap to clone (the pool is shared).
#[derive(Debug, Clone)]
pub struct Store {
    pool: AnyPool,
    /// The connection [`Store::write_batch`] commits on: for an SQLite file, a pool of its own with one connection,
    /// so that connection's page cache stays valid from one commit to the next (SQLite drops a connection's cache
    /// whenever another connection has written, and a pool hands out its connections in turn); otherwise `pool`.
    writer: AnyPool,
    dialect: Dialect,
    faults: std::sync::Arc<fault::Faults>,
}

const USER_COLUMNS: &str = "u.id, u.name, u.password_hash, u.is_guest, u.is_admin, u.is_bot, u.points, u.created_at_ms";

const GAME_COLUMNS: &str = "id, white_id, white_name, black_id, black_name, white_engine_level, black_engine_level, \
     rated, time_control, speed, variant_json, status, result, termination, winner, created_at_ms, ended_at_ms, \
     state_json, version, white_rating, black_rating, white_rating_diff, black_rating_diff, white_points_diff, \
     black_points_diff";

const MOVE_COLUMNS: &str = "game_id, ply, uci, san, at_ms, clock_ms, used_ms";

fn user_from_row(row: &AnyRow) -> Result<User, sqlx::Error> {
    Ok(User {
        id: row.try_get("id")?,
        name: row.try_get("name")?,
        password_hash: row.try_get("password_hash")?,
        is_guest: row.try_get::<i64, _>("is_guest")? != 0,
        is_admin: row.try_get::<i64, _>("is_admin")? != 0,
        is_bot: row.try_get::<i64, _>("is_bot")? != 0,
        points: row.try_get("points")?,
        created_at_ms: row.try_get("created_at_ms")?,
    })
}

fn rating_from_row(row: &AnyRow) -> Result<RatingRow, sqlx::Error> {
    Ok(RatingRow {
        user_id: row.try_get("user_id")?,
        speed: row.try_get("speed")?,
        rating: row.try_get("rating")?,
        deviation: row.try_get("deviation")?,
        volatility: row.try_get("volatility")?,
        games: row.try_get("games")?,
        updated_at_ms: row.try_get("updated_at_ms")?,
    })
}

fn game_from_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
    Ok(GameRow {
        id: row.try_get("id")?,
        white_id: row.try_get("white_id")?,
        white_name: row.try_get("white_name")?,
        black_id: row.try_get("black_id")?,
        black_name: row.try_get("black_name")?,
        white_engine_level: row.try_get("white_engine_level")?,
        black_engine_level: row.try_get("black_engine_level")?,
        rated: row.try_get::<i64, _>("rated")? != 0,
        time_control: row.try_get("time_control")?,
        speed: row.try_get("speed")?,
        variant_json: row.try_get("variant_json")?,
        status: row.try_get("status")?,
        result: row.try_get("result")?,
        termination: row.try_get("termination")?,
        winner: row.try_get("winner")?,
        created_at_ms: row.try_get("created_at_ms")?,
        ended_at_ms: row.try_get("ended_at_ms")?,
        state_json: row.try_get("state_json")?,
        version: row.try_get("version")?,
        white_rating: row.try_get("white_rating")?,
        black_rating: row.try_get("black_rating")?,
        white_rating_diff: row.try_get("white_rating_diff")?,
        black_rating_diff: row.try_get("black_rating_diff")?,
        white_points_diff: row.try_get("white_points_diff")?,
        black_points_diff: row.try_get("black_points_diff")?,
    })
}

fn move_from_row(row: &AnyRow) -> Result<MoveRow, sqlx::Error> {
    Ok(MoveRow {
        game_id: row.try_get("game_id")?,
        ply: row.try_get("ply")?,
        uci: row.try_get("uci")?,
        san: row.try_get("san")?,
        at_ms: row.try_get("at_ms")?,
        clock_ms: row.try_get("clock_ms")?,
        used_ms: row.try_get("used_ms")?,
    })
}

/// Starts a transaction that will write. On SQLite it takes the write lock at once (`BEGIN IMMEDIATE`), so it waits
/// for the lock under `busy_timeout` instead of failing when a read snapshot turns out to be stale.
pub(crate) async fn begin_write(
    pool: &AnyPool,
    dialect: Dialect,
) -> Result<sqlx::Transaction<'static, sqlx::Any>, sqlx::Error> {
    match dialect {
        Dialect::Sqlite => pool.begin_with("BEGIN IMMEDIATE").await,
        Dialect::Postgres => pool.begin().await,
    }
}

/// Runs [`SQLITE_PRAGMAS`] on every new connection of a pool.
fn with_sqlite_pragmas(options: AnyPoolOptions) -> AnyPoolOptions {
    options.after_connect(|conn, _meta| {
        Box::pin(async move {
            for pragma in SQLITE_PRAGMAS {
                conn.execute(*pragma).await?;
            }
            Ok(())
        })
    })
}

/// Hides the password of a URL (`scheme://user:password@host…`) for error messages.
fn redact_url(url: &str) -> String {
    let Some(scheme_end) = url.find("://") else { return url.to_owned() };
    let rest = &url[scheme_end + 3..];
    let authority_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let authority = &rest[..authority_end];
    match (authority.rfind('@'), authority.find(':')) {
        (Some(at), Some(colon)) if colon < at => {
            format!("{}{}:***{}", &url[..scheme_end + 3], &authority[..colon], &rest[at..])
        }
        _ => url.to_owned(),
    }
}

/// Checks a SQLite URL and makes a file URL create its file if missing. Returns the URL and whether it names an
/// in-memory database.
fn sqlite_url(url: &str) -> Result<(String, bool), StoreError> {
    let rest = url.trim_start_matches("sqlite://").trim_start_matches("sqlite:");
    let (database, params) = match rest.split_once('?') {
        Some((d, p)) => (d, Some(p)),
        None => (rest, None),
    };
    let has_mode = params.is_some_and(|p| p.split('&').any(|kv| kv.starts_with("mode=")));
    let memory = database == ":memory:" || params.is_some_and(|p| p.split('&').any(|kv| kv == "mode=memory"));
    if memory {
        return Ok((url.to_owned(), true));
    }
    if database.is_empty() {
        return Err(StoreError::BadUrl(format!("{url}: no file path (expected sqlite://PATH or sqlite::memory:)")));
    }
    let url = match (params, has_mode) {
        (_, true) => url.to_owned(),
        (None, false) => format!("{url}?mode=rwc"),
        (Some(_), false) => format!("{url}&mode=rwc"),
    };
    Ok((url, false))
}

impl Store {
    /// Opens the database and applies the pending migrations.
    ///
    /// `sqlite://PATH` opens (or creates) a file; `sqlite::memory:` an in-memory database for tests, on a pool of
    /// one connection that never closes (each SQLite connection to `:memory:` would be a new, empty database);
    /// `postgres://…` a PostgreSQL database (its schema is the connection's `search_path`, which the URL can set
    /// with `?options=-c%20search_path%3DNAME`).
    pub async fn connect(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let dialect = Dialect::of_url(url)?;
        let (url, memory) = match dialect {
            Dialect::Sqlite => sqlite_url(url)?,
            Dialect::Postgres => (url.to_owned(), false),
        };
        let options = AnyPoolOptions::new();
        let options = match (dialect, memory) {
            (Dialect::Sqlite, true) => {
                options.max_connections(1).min_connections(1).idle_timeout(None).max_lifetime(None)
            }
            (Dialect::Sqlite, false) => options.max_connections(SQLITE_POOL_SIZE),
            (Dialect::Postgres, _) => options.max_connections(POSTGRES_POOL_SIZE),
        };
        let options = if dialect == Dialect::Sqlite { with_sqlite_pragmas(options) } else { options };
        let pool = options.connect(&url).await.map_err(db_err(format!("connecting to {}", redact_url(&url))))?;
        migrate::run(&pool, dialect).await?;
        let writer = if dialect == Dialect::Sqlite && !memory {
            with_sqlite_pragmas(AnyPoolOptions::new())
                .max_connections(1)
                .min_connections(1)
                .idle_timeout(None)
                .max_lifetime(None)
                .connect(&url)
                .await
                .map_err(db_err(format!("connecting the writer to {}", redact_url(&url))))?
        } else {
            pool.clone()
        };
        Ok(Store { pool, writer, dialect, faults: Default::default() })
    }

    /// The database's dialect.
    pub fn dialect(&self) -> Dialect {
        self.dialect
    }

    /// The connection pool, for health checks and tests. Everything the server stores goes through the methods.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes the pool, waiting for the connections in use to come back.
    pub async fn close(&self) {
        self.writer.close().await;
        self.pool.close().await;
    }

    /// The migrations recorded in `schema_migrations`, oldest first.
    pub async fn applied_migrations(&self) -> Result<Vec<AppliedMigration>, StoreError> {
        migrate::applied(&self.pool).await
    }

    // ----- users -----

    /// Creates a user whose id is the lowercased `name`. [`StoreError::NameTaken`] if a user has the same name in
    /// any case.
    pub async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        is_guest: bool,
        now_ms: i64,
    ) -> Result<User, StoreError> {
        let user = User {
            id: user_id_of(name),
            name: name.to_owned(),
            password_hash: password_hash.map(str::to_owned),
            is_guest,
            is_admin: false,
            is_bot: false,
            points: 0,
            created_at_ms: now_ms,
        };
        let done = sqlx::query(
            "INSERT INTO users (id, name, password_hash, is_guest, is_admin, points, created_at_ms) \
             VALUES ($1, $2, $3, $4, 0, 0, $5) ON CONFLICT (id) DO NOTHING",
        )
        .bind(&user.id)
        .bind(&user.name)
        .bind(password_hash)
        .bind(i64::from(is_guest))
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("create_user {name}")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NameTaken);
        }
        Ok(user)
    }

    /// The user with this id (the lowercased name), if any.
    pub async fn user(&self, id: &str) -> Result<Option<User>, StoreError> {
        let ctx = || format!("user {id}");
        sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users u WHERE u.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(ctx()))?
            .map(|row| user_from_row(&row))
            .transpose()
            .map_err(db_err(ctx()))
    }

    /// Sets a user's password hash.
    pub async fn set_password(&self, id: &str, hash: &str) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE users SET password_hash = $2 WHERE id = $1")
            .bind(id)
            .bind(hash)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("set_password {id}")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!("user {id} (set_password)")));
        }
        Ok(())
    }

    /// Makes a user a bot account (there is no way back, as on Lichess).
    pub async fn set_bot(&self, id: &str) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE users SET is_bot = 1 WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("set_bot {id}")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!("user {id} (set_bot)")));
        }
        Ok(())
    }

    /// Every bot account, by name.
    pub async fn bots(&self) -> Result<Vec<User>, StoreError> {
        sqlx::query(&format!("SELECT {USER_COLUMNS} FROM users u WHERE u.is_bot = 1 ORDER BY u.id"))
            .fetch_all(&self.pool)
            .await
            .map_err(db_err("bots"))?
            .iter()
            .map(user_from_row)
            .collect::<Result<Vec<_>, _>>()
            .map_err(db_err("bots"))
    }

    /// Grants or revokes administrator rights.
    pub async fn set_admin(&self, id: &str, admin: bool) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE users SET is_admin = $2 WHERE id = $1")
            .bind(id)
            .bind(i64::from(admin))
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("set_admin {id}")))?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!("user {id} (set_admin)")));
        }
        Ok(())
    }

    // ----- sessions -----

    /// Stores a session; only the hash of its secret is kept. It counts as used at `now_ms`.
    pub async fn create_session(
        &self,
        token_hash: &str,
        user_id: &str,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms, last_used_at_ms) \
             VALUES ($1, $2, $3, $4, $3)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("create_session for {user_id}")))?;
        Ok(())
    }

    /// The user of a session, `None` if the session is unknown, expired (`expires_ms <= now_ms`) or unused for
    /// `idle_ms` or longer. A use is recorded as the session's last use, at most once per [`SESSION_TOUCH_MS`]
    /// (so a busy session costs one write every few minutes, not one per request).
    pub async fn session_user(&self, token_hash: &str, now_ms: i64, idle_ms: i64) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {USER_COLUMNS}, s.last_used_at_ms FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = $1 AND s.expires_at_ms > $2 AND s.last_used_at_ms > $3"
        ))
        .bind(token_hash)
        .bind(now_ms)
        .bind(now_ms.saturating_sub(idle_ms))
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err("session_user"))?;
        let Some(row) = row else { return Ok(None) };
        let last_used: i64 = row.try_get("last_used_at_ms").map_err(db_err("session_user"))?;
        if now_ms - last_used >= SESSION_TOUCH_MS {
            self.set_session_last_used(token_hash, now_ms).await?;
        }
        user_from_row(&row).map(Some).map_err(db_err("session_user"))
    }

    /// When a session was last used (as recorded: see [`Store::session_user`]); `None` for an unknown session.
    pub async fn session_last_used(&self, token_hash: &str) -> Result<Option<i64>, StoreError> {
        sqlx::query_scalar("SELECT last_used_at_ms FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err("session_last_used"))
    }

    /// Records a session's last use (tests set it back instead of waiting for a session to go idle).
    pub async fn set_session_last_used(&self, token_hash: &str, at_ms: i64) -> Result<(), StoreError> {
        sqlx::query("UPDATE sessions SET last_used_at_ms = $2 WHERE token_hash = $1")
            .bind(token_hash)
            .bind(at_ms)
            .execute(&self.pool)
            .await
            .map_err(db_err("set_session_last_used"))?;
        Ok(())
    }

    /// Deletes a session (logout). Deleting an unknown session is not an error.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await
            .map_err(db_err("delete_session"))?;
        Ok(())
    }

    /// Deletes every session of a user (e.g. after a password change); returns how many there were.
    pub async fn delete_user_sessions(&self, user_id: &str) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("delete_user_sessions {user_id}")))?;
        Ok(done.rows_affected())
    }

    /// Deletes every session of a user but `keep` (a password change keeps the session that made it; "sign out
    /// everywhere" keeps none) and returns the hashes of those deleted, so that the connections opened with them
    /// can be closed.
    pub async fn end_user_sessions(&self, user_id: &str, keep: Option<&str>) -> Result<Vec<String>, StoreError> {
        sqlx::query_scalar("DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 RETURNING token_hash")
            .bind(user_id)
            .bind(keep.unwrap_or(""))
            .fetch_all(&self.pool)
            .await
            .map_err(db_err(format_args!("end_user_sessions {user_id}")))
    }

    /// Deletes the sessions expired at `now_ms` or unused for `idle_ms`; returns how many.
    pub async fn purge_expired_sessions(&self, now_ms: i64, idle_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at_ms <= $1 OR last_used_at_ms <= $2")
            .bind(now_ms)
            .bind(now_ms.saturating_sub(idle_ms))
            .execute(&self.pool)
            .await
            .map_err(db_err("purge_expired_sessions"))?;
        Ok(done.rows_affected())
    }

    /// Deletes the guests nobody can use any more: created before `created_before_ms`, without a session that is
    /// still valid at `now_ms`, and without a game (a guest who played stays, for the games' archive).
    pub async fn delete_unused_guests(&self, now_ms: i64, created_before_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query(
            "DELETE FROM users WHERE is_guest = 1 AND created_at_ms < $2 \
             AND NOT EXISTS (SELECT 1 FROM sessions s WHERE s.user_id = users.id AND s.expires_at_ms > $1) \
             AND NOT EXISTS (SELECT 1 FROM games g WHERE g.white_id = users.id OR g.black_id = users.id)",
        )
        .bind(now_ms)
        .bind(created_before_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err("delete_unused_guests"))?;
        Ok(done.rows_affected())
    }

    // ----- personal API tokens -----

    /// Stores a personal API token (only the hash of its secret) with its scopes, e.g. `"board:play"`.
    pub async fn create_token(
        &self,
        token_hash: &str,
        user_id: &str,
        description: &str,
        scopes: &[String],
        now_ms: i64,
    ) -> Result<(), StoreError> {
        let scopes = serde_json::to_string(scopes).map_err(|e| StoreError::Corrupt(format!("token scopes: {e}")))?;
        sqlx::query(
            "INSERT INTO tokens (token_hash, user_id, description, scopes, created_at_ms) VALUES ($1, $2, $3, $4, $5)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(description)
        .bind(scopes)
        .bind(now_ms)
        .execute(&self.pool)
        .await
        .map_err(db_err(format_args!("create_token for {user_id}")))?;
        Ok(())
    }

    /// The user of a token and the token's scopes, `None` if the token is unknown.
    pub async fn token_user(&self, token_hash: &str) -> Result<Option<(User, Vec<String>)>, StoreError> {
        let Some(row) = sqlx::query(&format!(
            "SELECT {USER_COLUMNS}, t.scopes FROM tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = $1"
        ))
        .bind(token_hash)
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err("token_user"))?
        else {
            return Ok(None);
        };
        let user = user_from_row(&row).map_err(db_err("token_user"))?;
        let scopes: String = row.try_get("scopes").map_err(db_err("token_user"))?;
        let scopes = serde_json::from_str(&scopes)
            .map_err(|e| StoreError::Corrupt(format!("scopes of a token of {}: {e}", user.id)))?;
        Ok(Some((user, scopes)))
    }

    /// Deletes a token. Deleting an unknown token is not an error.
    pub async fn delete_token(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM tokens WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await
            .map_err(db_err("delete_token"))?;
        Ok(())
    }

    /// A user's tokens, newest first. Only the hash of a token's secret is stored; its first 16 hex digits name it.
    pub async fn tokens_of(&self, user_id: &str) -> Result<Vec<TokenInfo>, StoreError> {
        let ctx = || format!("tokens_of {user_id}");
        let rows = sqlx::query(
            "SELECT token_hash, description, scopes, created_at_ms FROM tokens WHERE user_id = $1 \
             ORDER BY created_at_ms DESC, token_hash",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter()
            .map(|row| {
                let hash: String = row.try_get("token_hash").map_err(db_err(ctx()))?;
                let scopes: String = row.try_get("scopes").map_err(db_err(ctx()))?;
                Ok(TokenInfo {
                    id: hash.chars().take(TOKEN_ID_LEN).collect(),
                    description: row.try_get("description").map_err(db_err(ctx()))?,
                    scopes: serde_json::from_str(&scopes)
                        .map_err(|e| StoreError::Corrupt(format!("scopes of a token of {user_id}: {e}")))?,
                    created_at_ms: row.try_get("created_at_ms").map_err(db_err(ctx()))?,
                })
            })
            .collect()
    }

    /// Revokes the token of `user_id` named `id` (see [`Store::tokens_of`]); `false` if the user has no such token.
    pub async fn revoke_token(&self, user_id: &str, id: &str) -> Result<bool, StoreError> {
        if id.len() != TOKEN_ID_LEN || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(false);
        }
        let r = sqlx::query("DELETE FROM tokens WHERE user_id = $1 AND token_hash LIKE $2")
            .bind(user_id)
            .bind(format!("{}%", id.to_ascii_lowercase()))
            .execute(&self.pool)
            .await
            .map_err(db_err(format_args!("revoke_token {user_id} {id}")))?;
        Ok(r.rows_affected() > 0)
    }

    // ----- ratings -----

    /// A user's ratings, one per speed they have played, by speed name.
    pub async fn ratings(&self, user_id: &str) -> Result<Vec<RatingRow>, StoreError> {
        let ctx = || format!("ratings {user_id}");
        let rows = sqlx::query(
            "SELECT user_id, speed, rating, deviation, volatility, games, updated_at_ms FROM ratings \
             WHERE user_id = $1 ORDER BY speed",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter().map(rating_from_row).collect::<Result<_, _>>().map_err(db_err(ctx()))
    }

    /// A user's rating history, all speeds, oldest first.
    pub async fn rating_history(&self, user_id: &str) -> Result<Vec<RatingPoint>, StoreError> {
        let ctx = || format!("rating_history {user_id}");
        let rows = sqlx::query(
            "SELECT speed, game_id, at_ms, rating, deviation FROM rating_history WHERE user_id = $1 \
             ORDER BY at_ms, id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter()
            .map(|row| {
                Ok(RatingPoint {
                    speed: row.try_get("speed")?,
                    game_id: row.try_get("game_id")?,
                    at_ms: row.try_get("at_ms")?,
                    rating: row.try_get("rating")?,
                    deviation: row.try_get("deviation")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err(ctx()))
    }

    // ----- games -----

    /// A game and its moves in ply order.
    pub async fn game(&self, id: &str) -> Result<Option<(GameRow, Vec<MoveRow>)>, StoreError> {
        let ctx = || format!("game {id}");
        let Some(row) = sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err(ctx()))?
        else {
            return Ok(None);
        };
        let game = game_from_row(&row).map_err(db_err(ctx()))?;
        let moves = self.moves(id).await?;
        Ok(Some((game, moves)))
    }

    /// Every game with status `"live"` and its moves in ply order, oldest game first: what the server resumes after a
    /// restart. Two queries, whatever the number of games.
    pub async fn live_games(&self) -> Result<Vec<(GameRow, Vec<MoveRow>)>, StoreError> {
        let games =
            sqlx::query(&format!("SELECT {GAME_COLUMNS} FROM games WHERE status = 'live' ORDER BY created_at_ms, id"))
                .fetch_all(&self.pool)
                .await
                .map_err(db_err("live_games"))?;
        let moves = sqlx::query(
            "SELECT m.game_id, m.ply, m.uci, m.san, m.at_ms, m.clock_ms, m.used_ms \
             FROM moves m JOIN games g ON g.id = m.game_id WHERE g.status = 'live' ORDER BY m.game_id, m.ply",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(db_err("live_games moves"))?;
        let mut by_game: HashMap<String, Vec<MoveRow>> = HashMap::new();
        for row in &moves {
            let mv = move_from_row(row).map_err(db_err("live_games moves"))?;
            by_game.entry(mv.game_id.clone()).or_default().push(mv);
        }
        games
            .iter()
            .map(|row| {
                let game = game_from_row(row).map_err(db_err("live_games"))?;
                let moves = by_game.remove(&game.id).unwrap_or_default();
                Ok((game, moves))
            })
            .collect()
    }

    /// A user's games, live and finished (not aborted), newest first; `offset` and `limit` page through them.
    pub async fn user_games(&self, user_id: &str, offset: i64, limit: i64) -> Result<Vec<GameRow>, StoreError> {
        let ctx = || format!("user_games {user_id}");
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games WHERE (white_id = $1 OR black_id = $1) \
             AND status IN ('live', 'finished') ORDER BY created_at_ms DESC, id DESC LIMIT $2 OFFSET $3"
        ))
        .bind(user_id)
        .bind(limit.max(0))
        .bind(offset.max(0))
        .fetch_all(&self.pool)
        .await
        .map_err(db_err(ctx()))?;
        rows.iter().map(game_from_row).collect::<Result<_, _>>().map_err(db_err(ctx()))
    }

    /// A game's moves in ply order.
    pub async fn moves(&self, game_id: &str) -> Result<Vec<MoveRow>, StoreError> {
        let ctx = || format!("moves {game_id}");
        let rows = sqlx::query(&format!("SELECT {MOVE_COLUMNS} FROM moves WHERE game_id = $1 ORDER BY ply"))
            .bind(game_id)
            .fetch_all(&self.pool)
            .await
            .map_err(db_err(ctx()))?;
        rows.iter().map(move_from_row).collect::<Result<_, _>>().map_err(db_err(ctx()))
    }

    /// How many games [`Store::user_games`] pages through.
    pub async fn count_user_games(&self, user_id: &str) -> Result<i64, StoreError> {
        sqlx::query(
            "SELECT COUNT(*) FROM games WHERE (white_id = $1 OR black_id = $1) AND status IN ('live', 'finished')",
        )
        .bind(user_id)
        .fetch_one(&self.pool)
        .await
        .and_then(|row| row.try_get::<i64, _>(0))
        .map_err(db_err(format_args!("count_user_games {user_id}")))
    }

    /// A user's games counted as Lichess's `count` does: all (in progress and finished), rated, against the
    /// computer, and the finished ones won, lost and drawn (in all, and against people only).
    pub async fn game_counts(&self, user_id: &str) -> Result<GameCounts, StoreError> {
        let ctx = || format!("game_counts {user_id}");
        let sum = |cond: &str| format!("CAST(COALESCE(SUM(CASE WHEN {cond} THEN 1 ELSE 0 END), 0) AS BIGINT)");
        let me = "(CASE WHEN white_id = $1 THEN 'white' ELSE 'black' END)";
        let human = "white_engine_level IS NULL AND black_engine_level IS NULL";
        let won = format!("status = 'finished' AND winner = {me}");
        let lost = format!("status = 'finished' AND winner IS NOT NULL AND winner <> {me}");
        let drawn = "status = 'finished' AND winner IS NULL";
        let sql = format!(
            "SELECT COUNT(*), {}, {}, {}, {}, {}, {}, {}, {} FROM games \
             WHERE (white_id = $1 OR black_id = $1) AND status IN ('live', 'finished')",
            sum("rated <> 0"),
            sum(&format!("NOT ({human})")),
            sum(&won),
            sum(&lost),
            sum(drawn),
            sum(&format!("{won} AND {human}")),
            sum(&format!("{lost} AND {human}")),
            sum(&format!("{drawn} AND {human}")),
        );
        let row = sqlx::query(&sql).bind(user_id).fetch_one(&self.pool).await.map_err(db_err(ctx()))?;
        let n = |i: usize| row.try_get::<i64, _>(i).map_err(db_err(ctx()));
        Ok(GameCounts {
            all: n(0)?,
            rated: n(1)?,
            ai: n(2)?,
            win: n(3)?,
            loss: n(4)?,
            draw: n(5)?,
            win_h: n(6)?,
            loss_h: n(7)?,
            draw_h: n(8)?,
        })
    }

    // ----- live play -----

    /// The fault rules of this store and its clones (for tests; see [`fault`]).
    pub fn faults(&self) -> &fault::Faults {
        &self.faults
    }

    /// Applies `ops` in order as ONE transaction: all of them or, on any error, none. An error names the failing
    /// op (its number and target). An update of a game or user that does not exist is an error
    /// ([`StoreError::NotFound`]), so a lost write is never silent.
    ///
    /// Nothing is read back. The hot ops, [`WriteOp::AppendMoves`] and [`WriteOp::UpdateGameState`], are gathered
    /// and written as multi-row statements (up to 64 rows each), so a batch of a move and a snapshot for each of
    /// twenty games is a handful of statements, not forty round trips to PostgreSQL. Gathering keeps the batch's
    /// meaning: an op on a game whose moves or snapshot are still gathered writes those first, and ops on other
    /// games or on users touch other rows. For one game, the last snapshot of the batch wins, as in order.
    pub async fn write_batch(&self, ops: &[WriteOp]) -> Result<(), StoreError> {
        if ops.is_empty() {
            return Ok(());
        }
        let mut effect = self.faults.take(ops);
        if let Some(released) = effect.as_mut().and_then(|e| e.hold.take()) {
            self.faults.hold(released).await;
        }
        let mut tx = begin_write(&self.writer, self.dialect).await.map_err(db_err("write_batch: begin"))?;
        if let Err(e) = batch::run(&mut tx, ops).await {
            // Dropping the transaction would roll it back too, but later; roll back now so the connection goes back
            // to the pool clean. The op's error is the one worth reporting.
            if let Err(r) = tx.rollback().await {
                tracing::warn!("write_batch: rollback after a failed op: {r}");
            }
            return Err(e);
        }
        if let Some(effect) = effect {
            if !effect.delay.is_zero() {
                tokio::time::sleep(effect.delay).await;
            }
            if effect.fail {
                tx.rollback().await.map_err(db_err("write_batch: rollback of an injected fault"))?;
                return Err(StoreError::Db(format!(
                    "write_batch: injected fault, {} ops rolled back ({})",
                    ops.len(),
                    ops.first().map(WriteOp::describe).unwrap_or_default()
                )));
            }
        }
        tx.commit().await.map_err(db_err(format_args!("write_batch: commit of {} ops", ops.len())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_of_urls() {
        assert_eq!(Dialect::of_url("sqlite://data/x.db"), Ok(Dialect::Sqlite));
        assert_eq!(Dialect::of_url("sqlite::memory:"), Ok(Dialect::Sqlite));
        assert_eq!(Dialect::of_url("postgres://u@h/db"), Ok(Dialect::Postgres));
        assert_eq!(Dialect::of_url("postgresql://u@h/db"), Ok(Dialect::Postgres));
        assert!(
            matches!(Dialect::of_url("mysql://u:secret@h/db"), Err(StoreError::BadUrl(m)) if !m.contains("secret"))
        );
    }

    #[test]
    fn sqlite_urls_create_their_file() {
        assert_eq!(sqlite_url("sqlite://a.db").unwrap(), ("sqlite://a.db?mode=rwc".to_owned(), false));
        assert_eq!(sqlite_url("sqlite://a.db?cache=private").unwrap().0, "sqlite://a.db?cache=private&mode=rwc");
        assert_eq!(sqlite_url("sqlite://a.db?mode=ro").unwrap().0, "sqlite://a.db?mode=ro");
        assert!(sqlite_url("sqlite::memory:").unwrap().1);
        assert!(sqlite_url("sqlite://").is_err());
    }

    #[test]
    fn passwords_are_redacted() {
        assert_eq!(redact_url("postgres://u:pw@h:5432/db?x=y"), "postgres://u:***@h:5432/db?x=y");
        assert_eq!(redact_url("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact_url("sqlite://a:b.db"), "sqlite://a:b.db");
    }

    /// sqlx's SQLite driver binds `$N` to the N-th argument (the reason no SQL is rewritten per dialect), also out of
    /// order and repeated.
    #[tokio::test]
    async fn sqlite_binds_dollar_placeholders_by_number() {
        let store = Store::connect("sqlite::memory:").await.unwrap();
        let row = sqlx::query("SELECT $2 || $1 || $2 AS s").bind("a").bind("b").fetch_one(store.pool()).await.unwrap();
        assert_eq!(row.try_get::<String, _>("s").unwrap(), "bab");
    }
}
