//! [`Store::write_batch`](crate::Store::write_batch): the ops of a batch inside one transaction.
//!
//! Most ops of live play are a move and a new snapshot, for many games. Those two kinds are gathered in [`Pending`]
//! and written as multi-row statements; every other op is written where it stands, after the gathered writes of its
//! own game (if any). Ops on different games, or on users, touch different rows, so moving gathered writes past them
//! changes nothing but the number of statements.

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use sqlx::any::AnyQueryResult;
use sqlx::{Any, Transaction};

use crate::{GAME_COLUMNS, MOVE_COLUMNS, MoveRow, StoreError, WriteOp};

type Tx = Transaction<'static, Any>;

/// Rows in the largest multi-row statement. Smaller groups use the powers of two below it, so each kind has at most
/// seven distinct statements (each prepared once per connection).
const MAX_ROWS: usize = 64;

/// Why one op failed, before the op's context is added.
enum OpError {
    Db(sqlx::Error),
    Missing(String),
    Fenced(String),
}

impl From<sqlx::Error> for OpError {
    fn from(e: sqlx::Error) -> Self {
        OpError::Db(e)
    }
}

impl OpError {
    fn with_context(self, context: &str) -> StoreError {
        match self {
            OpError::Db(e) => StoreError::Db(format!("{context}: {e}")),
            OpError::Missing(what) => StoreError::NotFound(format!("{what} ({context})")),
            OpError::Fenced(what) => StoreError::Fenced(what),
        }
    }
}

/// Fails with [`OpError::Missing`] when an update touched no row.
fn expect_row(done: AnyQueryResult, what: impl FnOnce() -> String) -> Result<(), OpError> {
    if done.rows_affected() == 0 { Err(OpError::Missing(what())) } else { Ok(()) }
}

/// Runs every op of a batch in `tx`; the caller commits or rolls back.
pub(crate) async fn run(tx: &mut Tx, ops: &[WriteOp]) -> Result<(), StoreError> {
    let n = ops.len();
    let mut pending = Pending::default();
    for (i, op) in ops.iter().enumerate() {
        let context = || format!("write_batch op {} of {n} ({})", i + 1, op.describe());
        match op {
            WriteOp::AppendMoves { game_id, moves } => pending.add_moves(i, game_id, moves),
            WriteOp::UpdateGameState { game_id, state_json, version } => {
                pending.add_state(i, game_id, state_json, *version);
            }
            _ => {
                if let Some(game_id) = op_game(op)
                    && pending.games.contains(game_id)
                {
                    pending.flush(tx, n).await?;
                }
                apply(tx, op).await.map_err(|e| e.with_context(&context()))?;
            }
        }
    }
    pending.flush(tx, n).await
}

/// The game whose rows an op (other than the gathered kinds) writes, if any.
fn op_game(op: &WriteOp) -> Option<&str> {
    match op {
        WriteOp::InsertGame(g) => Some(&g.id),
        WriteOp::TruncateMoves { game_id, .. }
        | WriteOp::FinishGame { game_id, .. }
        | WriteOp::Unrate { game_id }
        | WriteOp::SetRatingDiffs { game_id, .. }
        | WriteOp::AppendMoves { game_id, .. }
        | WriteOp::UpdateGameState { game_id, .. }
        | WriteOp::Fence { game_id, .. } => Some(game_id),
        // The history's game id is a label; these write ratings and users only.
        WriteOp::UpsertRating { .. } | WriteOp::SetPoints { .. } => None,
    }
}

/// Gathered moves and snapshots, not yet written.
#[derive(Default)]
struct Pending<'a> {
    /// (op index, game, move), in op order.
    moves: Vec<(usize, &'a str, &'a MoveRow)>,
    /// (op index, game, snapshot, version): one per game, the latest.
    states: Vec<(usize, &'a str, &'a str, i64)>,
    /// Where each game's snapshot is in `states`.
    state_of: HashMap<&'a str, usize>,
    /// Every game with something gathered.
    games: HashSet<&'a str>,
    /// The first and last gathered op, for error messages.
    first_op: usize,
    last_op: usize,
    ops: usize,
}

impl<'a> Pending<'a> {
    fn note_op(&mut self, i: usize, game_id: &'a str) {
        if self.ops == 0 {
            self.first_op = i;
        }
        self.last_op = i;
        self.ops += 1;
        self.games.insert(game_id);
    }

    fn add_moves(&mut self, i: usize, game_id: &'a str, moves: &'a [MoveRow]) {
        self.note_op(i, game_id);
        self.moves.extend(moves.iter().map(|m| (i, game_id, m)));
    }

    fn add_state(&mut self, i: usize, game_id: &'a str, state_json: &'a str, version: i64) {
        self.note_op(i, game_id);
        match self.state_of.get(game_id) {
            Some(&at) => self.states[at] = (i, game_id, state_json, version),
            None => {
                self.state_of.insert(game_id, self.states.len());
                self.states.push((i, game_id, state_json, version));
            }
        }
    }

    /// Writes everything gathered, then forgets it.
    async fn flush(&mut self, tx: &mut Tx, n: usize) -> Result<(), StoreError> {
        if self.ops == 0 {
            return Ok(());
        }
        let context = || {
            format!(
                "write_batch ops {}–{} of {n} ({} moves and {} snapshots of {} games, written together)",
                self.first_op + 1,
                self.last_op + 1,
                self.moves.len(),
                self.states.len(),
                self.games.len()
            )
        };
        let mut rest = &self.moves[..];
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(chunk_len(rest.len()));
            insert_moves(tx, chunk).await.map_err(|e| OpError::from(e).with_context(&context()))?;
            rest = tail;
        }
        let mut rest = &self.states[..];
        while !rest.is_empty() {
            let (chunk, tail) = rest.split_at(chunk_len(rest.len()));
            let done = update_states(tx, chunk).await.map_err(|e| OpError::from(e).with_context(&context()))?;
            if done.rows_affected() < chunk.len() as u64 {
                return Err(missing_game(tx, chunk, n).await);
            }
            rest = tail;
        }
        *self = Pending::default();
        Ok(())
    }
}

/// The size of the next multi-row statement: the largest power of two not above `left`, at most [`MAX_ROWS`].
fn chunk_len(left: usize) -> usize {
    let mut len = MAX_ROWS;
    while len > left {
        len /= 2;
    }
    len
}

/// `INSERT INTO moves … VALUES (…), (…)` for `rows` rows (a power of two up to [`MAX_ROWS`]).
fn insert_moves_sql(rows: usize) -> &'static str {
    static SQL: OnceLock<Vec<String>> = OnceLock::new();
    let all = SQL.get_or_init(|| {
        (0..=MAX_ROWS.trailing_zeros())
            .map(|k| format!("INSERT INTO moves ({MOVE_COLUMNS}) VALUES {}", values(1 << k, 7)))
            .collect()
    });
    &all[rows.trailing_zeros() as usize]
}

/// One multi-row `UPDATE … FROM (VALUES …)` for `rows` games. The columns of a `VALUES` list are named
/// `column1`, `column2`, … on both SQLite (3.33 and later) and PostgreSQL.
fn update_states_sql(rows: usize) -> &'static str {
    static SQL: OnceLock<Vec<String>> = OnceLock::new();
    let all = SQL.get_or_init(|| {
        (0..=MAX_ROWS.trailing_zeros())
            .map(|k| {
                format!(
                    "UPDATE games SET state_json = v.column2, version = v.column3 FROM (VALUES {}) AS v \
                     WHERE games.id = v.column1",
                    values(1 << k, 3)
                )
            })
            .collect()
    });
    &all[rows.trailing_zeros() as usize]
}

/// `($1, $2), ($3, $4)` for `rows` rows of `cols` parameters.
fn values(rows: usize, cols: usize) -> String {
    (0..rows)
        .map(|r| {
            let params: Vec<String> = (1..=cols).map(|c| format!("${}", r * cols + c)).collect();
            format!("({})", params.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

async fn insert_moves(tx: &mut Tx, rows: &[(usize, &str, &MoveRow)]) -> Result<AnyQueryResult, sqlx::Error> {
    let mut query = sqlx::query(insert_moves_sql(rows.len()));
    for &(_, game_id, m) in rows {
        query = query
            .bind(game_id)
            .bind(m.ply)
            .bind(m.uci.as_str())
            .bind(m.san.as_str())
            .bind(m.at_ms)
            .bind(m.clock_ms)
            .bind(m.used_ms);
    }
    query.execute(&mut **tx).await
}

async fn update_states(tx: &mut Tx, rows: &[(usize, &str, &str, i64)]) -> Result<AnyQueryResult, sqlx::Error> {
    let mut query = sqlx::query(update_states_sql(rows.len()));
    for &(_, game_id, state_json, version) in rows {
        query = query.bind(game_id).bind(state_json).bind(version);
    }
    query.execute(&mut **tx).await
}

/// Error path only: finds which game of a multi-row update does not exist.
async fn missing_game(tx: &mut Tx, rows: &[(usize, &str, &str, i64)], n: usize) -> StoreError {
    for &(i, game_id, _, _) in rows {
        let found = sqlx::query("SELECT id FROM games WHERE id = $1").bind(game_id).fetch_optional(&mut **tx).await;
        match found {
            Ok(Some(_)) => {}
            Ok(None) => {
                return StoreError::NotFound(format!(
                    "game {game_id} (write_batch op {} of {n}: UpdateGameState {game_id})",
                    i + 1
                ));
            }
            Err(e) => return StoreError::Db(format!("write_batch: looking for a missing game: {e}")),
        }
    }
    StoreError::Db("write_batch: a snapshot update touched fewer games than it named".to_owned())
}

/// Writes one op by itself: [`run`] sends every kind but the gathered ones here (for those, the same writes one op
/// at a time).
async fn apply(tx: &mut Tx, op: &WriteOp) -> Result<(), OpError> {
    match op {
        WriteOp::InsertGame(g) => {
            static SQL: OnceLock<String> = OnceLock::new();
            let sql = SQL.get_or_init(|| format!("INSERT INTO games ({GAME_COLUMNS}) VALUES {}", values(1, 25)));
            sqlx::query(sql)
                .bind(&g.id)
                .bind(&g.white_id)
                .bind(&g.white_name)
                .bind(&g.black_id)
                .bind(&g.black_name)
                .bind(g.white_engine_level)
                .bind(g.black_engine_level)
                .bind(i64::from(g.rated))
                .bind(&g.time_control)
                .bind(&g.speed)
                .bind(&g.variant_json)
                .bind(&g.status)
                .bind(&g.result)
                .bind(&g.termination)
                .bind(&g.winner)
                .bind(g.created_at_ms)
                .bind(g.ended_at_ms)
                .bind(&g.state_json)
                .bind(g.version)
                .bind(g.white_rating)
                .bind(g.black_rating)
                .bind(g.white_rating_diff)
                .bind(g.black_rating_diff)
                .bind(g.white_points_diff)
                .bind(g.black_points_diff)
                .execute(&mut **tx)
                .await?;
        }
        WriteOp::AppendMoves { game_id, moves } => {
            for m in moves {
                insert_moves(tx, &[(0, game_id, m)]).await?;
            }
        }
        WriteOp::UpdateGameState { game_id, state_json, version } => {
            let done = update_states(tx, &[(0, game_id, state_json, *version)]).await?;
            expect_row(done, || format!("game {game_id}"))?;
        }
        WriteOp::TruncateMoves { game_id, keep_plies } => {
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND ply > $2")
                .bind(game_id)
                .bind(*keep_plies)
                .execute(&mut **tx)
                .await?;
        }
        WriteOp::FinishGame { game_id, status, result, termination, winner, ended_at_ms, state_json, version } => {
            let done = sqlx::query(
                "UPDATE games SET status = $2, result = $3, termination = $4, winner = $5, ended_at_ms = $6, \
                 state_json = $7, version = $8 WHERE id = $1",
            )
            .bind(game_id)
            .bind(status)
            .bind(result)
            .bind(termination)
            .bind(winner)
            .bind(*ended_at_ms)
            .bind(state_json)
            .bind(*version)
            .execute(&mut **tx)
            .await?;
            expect_row(done, || format!("game {game_id}"))?;
        }
        WriteOp::Unrate { game_id } => {
            let done = sqlx::query("UPDATE games SET rated = 0 WHERE id = $1").bind(game_id).execute(&mut **tx).await?;
            expect_row(done, || format!("game {game_id}"))?;
        }
        WriteOp::SetRatingDiffs {
            game_id,
            white_rating,
            black_rating,
            white_rating_diff,
            black_rating_diff,
            white_points_diff,
            black_points_diff,
        } => {
            let done = sqlx::query(
                "UPDATE games SET white_rating = $2, black_rating = $3, white_rating_diff = $4, \
                 black_rating_diff = $5, white_points_diff = $6, black_points_diff = $7 WHERE id = $1",
            )
            .bind(game_id)
            .bind(*white_rating)
            .bind(*black_rating)
            .bind(*white_rating_diff)
            .bind(*black_rating_diff)
            .bind(*white_points_diff)
            .bind(*black_points_diff)
            .execute(&mut **tx)
            .await?;
            expect_row(done, || format!("game {game_id}"))?;
        }
        WriteOp::UpsertRating { row, game_id } => {
            sqlx::query(
                "INSERT INTO ratings (user_id, speed, rating, deviation, volatility, games, updated_at_ms) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (user_id, speed) DO UPDATE SET \
                 rating = excluded.rating, deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games, updated_at_ms = excluded.updated_at_ms",
            )
            .bind(&row.user_id)
            .bind(&row.speed)
            .bind(row.rating)
            .bind(row.deviation)
            .bind(row.volatility)
            .bind(row.games)
            .bind(row.updated_at_ms)
            .execute(&mut **tx)
            .await?;
            sqlx::query(
                "INSERT INTO rating_history (user_id, speed, game_id, at_ms, rating, deviation) \
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&row.user_id)
            .bind(&row.speed)
            .bind(game_id)
            .bind(row.updated_at_ms)
            .bind(row.rating)
            .bind(row.deviation)
            .execute(&mut **tx)
            .await?;
        }
        WriteOp::SetPoints { user_id, points } => {
            let done = sqlx::query("UPDATE users SET points = $2 WHERE id = $1")
                .bind(user_id)
                .bind(*points)
                .execute(&mut **tx)
                .await?;
            expect_row(done, || format!("user {user_id}"))?;
        }
        WriteOp::Fence { game_id, node, epoch } => {
            // An update, not a read: on PostgreSQL it locks the lease row until this batch commits, so a takeover
            // waits for the batch (and then sees it) rather than slipping in between the check and the commit.
            let done =
                sqlx::query("UPDATE game_leases SET epoch = epoch WHERE game_id = $1 AND node = $2 AND epoch = $3")
                    .bind(game_id)
                    .bind(node)
                    .bind(*epoch)
                    .execute(&mut **tx)
                    .await?;
            if done.rows_affected() == 0 {
                return Err(OpError::Fenced(format!(
                    "node {node} no longer owns game {game_id} (its lease at epoch {epoch} was taken over); \
                     nothing was written"
                )));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_are_powers_of_two() {
        let sizes = |mut n: usize| {
            let mut out = Vec::new();
            while n > 0 {
                let c = chunk_len(n);
                out.push(c);
                n -= c;
            }
            out
        };
        assert_eq!(sizes(1), [1]);
        assert_eq!(sizes(20), [16, 4]);
        assert_eq!(sizes(64), [64]);
        assert_eq!(sizes(135), [64, 64, 4, 2, 1]);
    }

    #[test]
    fn multi_row_sql() {
        assert_eq!(values(2, 3), "($1, $2, $3), ($4, $5, $6)");
        assert!(insert_moves_sql(4).ends_with("($22, $23, $24, $25, $26, $27, $28)"));
        assert!(update_states_sql(1).contains("FROM (VALUES ($1, $2, $3)) AS v"));
        assert!(update_states_sql(64).contains("$192)"));
    }
}
