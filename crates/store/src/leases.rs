//! Who owns each live game when several nodes share the database (issue 19). A node holds a game by a lease: a row
//! naming the node, an **epoch** and an expiry. Taking a game over (its lease missing or expired) increments the
//! epoch. Every batch a node writes for a game starts with [`WriteOp::Fence`](crate::WriteOp::Fence), which checks in
//! the same transaction that the lease still names this node and epoch; a node that was paused or cut off past its
//! lease, and whose game another node took, can therefore never commit to that game again, whatever its clock says.
//!
//! Safety rests on the epoch alone. Clocks only decide *when* a lease may be taken (liveness): the expiry is the
//! holder's clock plus the lease's length, compared with the taker's clock, so the nodes' clocks should agree to well
//! within a lease (NTP does).
//!
//! On PostgreSQL the fence is an `UPDATE` of the lease row, which locks it until the batch commits: a takeover that
//! runs meanwhile waits for that commit and then sees the new moves, and a batch that runs after a takeover finds
//! the new epoch and fails. On SQLite every write transaction holds the whole database.

use sqlx::Row;

use crate::fault::WriteKind;
use crate::{Store, StoreError, begin_write, db_err};

/// A game's lease as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRow {
    pub game_id: String,
    /// The node that holds it.
    pub node: String,
    /// 1 for the game's first owner, one more at every takeover.
    pub epoch: i64,
    /// When it lapses unless renewed (ms since the Unix epoch, the holder's clock).
    pub expires_at_ms: i64,
}

/// A `game_leases` row as read.
fn lease_row(r: &sqlx::any::AnyRow) -> Result<LeaseRow, sqlx::Error> {
    Ok(LeaseRow {
        game_id: r.try_get("game_id")?,
        node: r.try_get("node")?,
        epoch: r.try_get("epoch")?,
        expires_at_ms: r.try_get("expires_at_ms")?,
    })
}

impl Store {
    /// Whether the database answers (`/readyz`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.pool).await.map_err(db_err("ping"))?;
        Ok(())
    }

    /// Takes the lease of `game_id` for `node` until `now_ms + ttl_ms` if no node holds it — there is none, or it
    /// expired before `now_ms`, or it was handed over — and returns its epoch; `None` while another lease runs.
    pub async fn acquire_lease(
        &self,
        game_id: &str,
        node: &str,
        now_ms: i64,
        ttl_ms: i64,
    ) -> Result<Option<i64>, StoreError> {
        let context = format!("acquire_lease {game_id} for {node}");
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&context))?;
        let expires = now_ms.saturating_add(ttl_ms);
        let inserted = sqlx::query(
            "INSERT INTO game_leases (game_id, node, epoch, expires_at_ms) VALUES ($1, $2, 1, $3) \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(node)
        .bind(expires)
        .execute(&mut *tx)
        .await
        .map_err(db_err(&context))?;
        let epoch = if inserted.rows_affected() == 1 {
            Some(1)
        } else {
            let taken = sqlx::query(
                "UPDATE game_leases SET node = $1, epoch = epoch + 1, expires_at_ms = $2 \
                 WHERE game_id = $3 AND expires_at_ms < $4",
            )
            .bind(node)
            .bind(expires)
            .bind(game_id)
            .bind(now_ms)
            .execute(&mut *tx)
            .await
            .map_err(db_err(&context))?;
            if taken.rows_affected() == 1 {
                let row = sqlx::query("SELECT epoch FROM game_leases WHERE game_id = $1")
                    .bind(game_id)
                    .fetch_one(&mut *tx)
                    .await
                    .map_err(db_err(&context))?;
                Some(row.try_get::<i64, _>("epoch").map_err(db_err(&context))?)
            } else {
                None
            }
        };
        tx.commit().await.map_err(db_err(&context))?;
        Ok(epoch)
    }

    /// Extends every lease `node` holds to `now_ms + ttl_ms` and returns them (game and epoch, by game): a game the
    /// node has in memory but that is not in the answer was taken over, and its actor must stop.
    ///
    /// The store's fault rules for [`WriteKind::RenewLeases`] apply (a failed or stalled renewal: a node cut off
    /// from the database, or paused).
    pub async fn renew_leases(&self, node: &str, now_ms: i64, ttl_ms: i64) -> Result<Vec<(String, i64)>, StoreError> {
        let context = format!("renew_leases of {node}");
        if let Some(effect) = self.faults.take_kind(WriteKind::RenewLeases, None) {
            if let Some(released) = effect.hold {
                self.faults.hold(released).await;
            }
            if effect.fail {
                return Err(StoreError::Db(format!("{context}: failed by a fault rule")));
            }
        }
        let mut tx = begin_write(&self.pool, self.dialect).await.map_err(db_err(&context))?;
        sqlx::query("UPDATE game_leases SET expires_at_ms = $1 WHERE node = $2")
            .bind(now_ms.saturating_add(ttl_ms))
            .bind(node)
            .execute(&mut *tx)
            .await
            .map_err(db_err(&context))?;
        let rows = sqlx::query("SELECT game_id, epoch FROM game_leases WHERE node = $1 ORDER BY game_id")
            .bind(node)
            .fetch_all(&mut *tx)
            .await
            .map_err(db_err(&context))?;
        tx.commit().await.map_err(db_err(&context))?;
        rows.iter()
            .map(|r| Ok((r.try_get("game_id")?, r.try_get("epoch")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err(&context))
    }

    /// Lets another node take `game_id` at once (a graceful shutdown hands its games over): the lease expires now,
    /// if `node` still holds it at `epoch`. Returns whether it did.
    pub async fn hand_over_lease(&self, game_id: &str, node: &str, epoch: i64) -> Result<bool, StoreError> {
        let done =
            sqlx::query("UPDATE game_leases SET expires_at_ms = 0 WHERE game_id = $1 AND node = $2 AND epoch = $3")
                .bind(game_id)
                .bind(node)
                .bind(epoch)
                .execute(&self.pool)
                .await
                .map_err(db_err(format!("hand_over_lease {game_id}")))?;
        Ok(done.rows_affected() == 1)
    }

    /// Drops the lease of a game that ended, if `node` still holds it at `epoch`.
    pub async fn release_lease(&self, game_id: &str, node: &str, epoch: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM game_leases WHERE game_id = $1 AND node = $2 AND epoch = $3")
            .bind(game_id)
            .bind(node)
            .bind(epoch)
            .execute(&self.pool)
            .await
            .map_err(db_err(format!("release_lease {game_id}")))?;
        Ok(())
    }

    /// The games in progress that no node holds at `now_ms` (no lease, or an expired one), oldest first: what a
    /// node may take over.
    pub async fn unowned_live_games(&self, now_ms: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id \
             WHERE g.status = 'live' AND (l.game_id IS NULL OR l.expires_at_ms < $1) ORDER BY g.created_at_ms, g.id",
        )
        .bind(now_ms)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err("unowned_live_games"))?;
        rows.iter().map(|r| r.try_get("id")).collect::<Result<_, _>>().map_err(db_err("unowned_live_games"))
    }

    /// The lease of `game_id` while the game is in progress (`None`: no lease, or the game is not live): which node
    /// to send a request for the game to. An expired lease is returned as it is (its node may be dead; wait for a
    /// takeover).
    pub async fn live_lease(&self, game_id: &str) -> Result<Option<LeaseRow>, StoreError> {
        let row = sqlx::query(
            "SELECT l.game_id, l.node, l.epoch, l.expires_at_ms FROM game_leases l JOIN games g ON g.id = l.game_id \
             WHERE l.game_id = $1 AND g.status = 'live'",
        )
        .bind(game_id)
        .fetch_optional(&self.pool)
        .await
        .map_err(db_err("live_lease"))?;
        row.as_ref().map(lease_row).transpose().map_err(db_err("live_lease"))
    }

    /// The lease named `id` as it is (expired or not), if any.
    pub async fn lease(&self, id: &str) -> Result<Option<LeaseRow>, StoreError> {
        let row = sqlx::query("SELECT game_id, node, epoch, expires_at_ms FROM game_leases WHERE game_id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .map_err(db_err("lease"))?;
        row.as_ref().map(lease_row).transpose().map_err(db_err("lease"))
    }

    /// The games in progress `user_id` plays, on whichever node (oldest first): each id, and whether it is against
    /// the computer.
    pub async fn live_games_of(&self, user_id: &str) -> Result<Vec<(String, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, CASE WHEN white_engine_level IS NOT NULL OR black_engine_level IS NOT NULL \
             THEN CAST(1 AS BIGINT) ELSE CAST(0 AS BIGINT) END AS computer FROM games WHERE status = 'live' AND (white_id = $1 OR black_id = $1) ORDER BY created_at_ms, id",
        )
        .bind(user_id)
        .fetch_all(&self.pool)
        .await
        .map_err(db_err("live_games_of"))?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get::<i64, _>("computer")? != 0)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(db_err("live_games_of"))
    }

    /// Every lease, by node and game (`guoxiang cluster status`).
    pub async fn leases(&self) -> Result<Vec<LeaseRow>, StoreError> {
        let rows = sqlx::query("SELECT game_id, node, epoch, expires_at_ms FROM game_leases ORDER BY node, game_id")
            .fetch_all(&self.pool)
            .await
            .map_err(db_err("leases"))?;
        rows.iter().map(lease_row).collect::<Result<_, _>>().map_err(db_err("leases"))
    }
}
