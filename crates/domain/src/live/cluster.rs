//! Several nodes on one database (issue 19, first part): each live game has one owner cluster-wide, by a lease in the
//! database (`guoxiang_store`'s `leases.rs`), and every write of a game carries the owner's epoch as a fence. This
//! module is the node's side: the lease of a new game, the periodic renewal (which also finds the games another
//! node took, whose actors stop here), the takeover of games whose owner died or was paused past its lease (restored
//! from the durable state, the gap charged to no one's clock), and the hand-over at a graceful shutdown.
//!
//! Commands and events between nodes go through the cluster's transport (`crate::transport`, implemented over Redis
//! by the guoxiang-broker crate; `live::remote`) when the node has one.
//! With a broker, [`LeaseKeeper`] keeps the lobby's lease ([`LOBBY_LEASE`]) beside the games': one node at a time
//! runs the cluster's lobby.

use std::collections::HashSet;
use std::time::Duration;

use super::{ActorMsg, Live, actor};

/// The lease (a row of `game_leases`) of the node that runs the cluster's lobby: this module keeps it like a
/// game's (`lobby::cluster` serves the lobby while this node holds it).
pub const LOBBY_LEASE: &str = "~lobby";

/// The keeper of a lease that is not a game's — the lobby's: taken when free, watched at every renewal (another
/// node may have taken it meanwhile), handed over at a shutdown. Whoever serves what the lease guards asks
/// [`LeaseKeeper::epoch`] (`lobby::Lobby::is_here`).
#[derive(Debug)]
pub struct LeaseKeeper {
    store: guoxiang_store::Store,
    name: &'static str,
    node: String,
    /// The lease's epoch while this node holds it.
    epoch: std::sync::Mutex<Option<i64>>,
}

impl LeaseKeeper {
    pub fn new(store: guoxiang_store::Store, name: &'static str, node: String) -> LeaseKeeper {
        LeaseKeeper { store, name, node, epoch: std::sync::Mutex::new(None) }
    }

    /// The epoch this node holds the lease at, if it does.
    pub fn epoch(&self) -> Option<i64> {
        *self.epoch.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, epoch: Option<i64>) {
        *self.epoch.lock().unwrap_or_else(|e| e.into_inner()) = epoch;
    }

    /// After a renewal (`held`: the leases this node holds now): notices a lease lost, and takes it when free.
    pub async fn keep(&self, held: &HashSet<(String, i64)>, now: i64, ttl: i64) -> Result<(), String> {
        if let Some(e) = self.epoch()
            && !held.contains(&(self.name.to_owned(), e))
        {
            tracing::warn!("{}: another node holds its lease now", self.name);
            self.set(None);
        }
        if self.epoch().is_none()
            && let Some(e) =
                self.store.acquire_lease(self.name, &self.node, now, ttl).await.map_err(|e| e.to_string())?
        {
            tracing::info!("{}: this node holds its lease (epoch {e})", self.name);
            self.set(Some(e));
        }
        Ok(())
    }

    /// Hands the lease over (a shutdown), so that another node takes it at once.
    pub async fn let_go(&self) {
        let epoch = self.epoch.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Some(epoch) = epoch
            && let Err(e) = self.store.hand_over_lease(self.name, &self.node, epoch).await
        {
            tracing::warn!("{}: its lease was not handed over ({e}); it lapses by itself", self.name);
        }
    }
}

/// How many of its games being played a node lists for the cluster (the lobby shows 50, `GET /api/live` 100).
const LIVE_LIST: usize = 100;

/// This node's membership.
#[derive(Clone, Debug)]
pub struct ClusterConfig {
    /// The node's name, unique among the running nodes (`guoxiang serve --node`; by default the host name, the
    /// process id and a random suffix). Leases are held in this name.
    pub node: String,
    /// How long a lease runs without renewal, ms: after a node dies or is paused, its games wait at most about this
    /// long (plus one scan, a third of it) before another node takes them over.
    pub lease_ms: u64,
    /// The broker between the nodes (`guoxiang serve --broker redis://…`): with it any node serves any game's
    /// clients, the others' through it (`crate::transport`, `live::remote`); without it a client must reach the node
    /// that runs its game.
    pub broker: Option<String>,
}

impl ClusterConfig {
    /// A node with a fresh name and `lease_ms`.
    pub fn new(lease_ms: u64) -> ClusterConfig {
        ClusterConfig { node: default_node_name(), lease_ms, broker: None }
    }

    /// How often the node renews its leases and looks for games to take over.
    pub fn scan_every(&self) -> Duration {
        Duration::from_millis((self.lease_ms / 3).max(50))
    }
}

/// `host-pid-xxxx`: unique among the processes of one cluster.
pub fn default_node_name() -> String {
    use rand::Rng;
    let host = std::fs::read_to_string("/etc/hostname").ok().map(|h| h.trim().to_owned()).filter(|h| !h.is_empty());
    let suffix: u32 = rand::rng().random_range(0..0x1_0000);
    format!("{}-{}-{suffix:04x}", host.unwrap_or_else(|| "node".to_owned()), std::process::id())
}

impl Live {
    /// Renews this node's leases and stops the actors of the games it no longer holds; then takes over the live games
    /// no node holds. Returns how many games it took over. Nothing to do without a cluster.
    pub async fn cluster_scan(&self) -> Result<usize, String> {
        let Some(cluster) = self.inner.cluster.clone() else { return Ok(0) };
        let ttl = cluster.lease_ms as i64;
        let now = crate::time::now_ms() as i64;
        let held = match self.inner.store.renew_leases(&cluster.node, now, ttl).await {
            Ok(held) => held,
            Err(e) => {
                self.inner.metrics.lease_renewal_failures.inc();
                return Err(e.to_string());
            }
        };
        self.inner.metrics.renewed(now as u64, held.len());
        let held: HashSet<(String, i64)> = held.into_iter().collect();
        // With a broker one node runs the cluster's lobby, by a lease like a game's.
        if let Some(keeper) = &self.inner.lobby_lease {
            keeper.keep(&held, now, ttl).await?;
        }
        // With a broker, this node's games being played go in the cluster's list, valid for a lease.
        if let Some(b) = self.broker() {
            let games = self.live_games_here(LIVE_LIST);
            if let Err(e) = b.put_live_games(&cluster.node, now as u64 + cluster.lease_ms, &games).await {
                tracing::warn!("live games: not put in the broker ({e})");
            }
        }
        self.disown_lost(&held).await;
        self.take_over_unowned(&cluster.node, now, ttl).await
    }

    /// Stops the actors of the games this node held and no longer holds (another node took them over).
    async fn disown_lost(&self, held: &HashSet<(String, i64)>) {
        let mine: Vec<(String, i64)> = {
            let epochs = self.inner.epochs.lock().unwrap_or_else(|e| e.into_inner());
            epochs.iter().map(|(g, e)| (g.clone(), *e)).collect()
        };
        for (game_id, epoch) in mine {
            if !held.contains(&(game_id.clone(), epoch)) {
                tracing::warn!("game {game_id}: another node took it over; it stops here");
                self.disown(&game_id).await;
            }
        }
    }

    /// Takes over the live games no node holds (their owner died or was paused past its lease); returns how many.
    async fn take_over_unowned(&self, node: &str, now: i64, ttl: i64) -> Result<usize, String> {
        let mut taken = 0;
        for game_id in self.inner.store.unowned_live_games(now).await.map_err(|e| e.to_string())? {
            // A game in memory whose lease lapsed is still this node's until another takes it (the renewal above
            // extended it, or the next one will); never run two actors for one game.
            if self.get(&game_id).is_some() {
                continue;
            }
            let Some(epoch) =
                self.inner.store.acquire_lease(&game_id, node, now, ttl).await.map_err(|e| e.to_string())?
            else {
                continue;
            };
            match self.inner.store.game(&game_id).await {
                Ok(Some((row, moves))) if row.status == "live" => {
                    match actor::restore(&row, &moves, crate::time::now()) {
                        Ok(game) => {
                            self.set_epoch(&game_id, epoch);
                            self.spawn(game);
                            taken += 1;
                            self.inner.metrics.takeovers.inc();
                            tracing::info!("game {game_id}: taken over at epoch {epoch}");
                        }
                        Err(e) => tracing::error!("game {game_id} cannot be restored: {e}"),
                    }
                }
                // Ended meanwhile: nothing to run.
                Ok(_) => {
                    let _ = self.inner.store.release_lease(&game_id, node, epoch).await;
                }
                Err(e) => tracing::error!("game {game_id}: {e}"),
            }
        }
        Ok(taken)
    }

    /// Renews and takes over every [`ClusterConfig::scan_every`] (a task; nothing without a cluster).
    pub fn start_cluster(&self) {
        let Some(cluster) = self.inner.cluster.clone() else { return };
        let live = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(cluster.scan_every());
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                if let Err(e) = live.cluster_scan().await {
                    tracing::warn!("cluster: lease renewal or takeover failed: {e}");
                }
            }
        });
    }

    /// Stops the actor of a game another node owns now, without writing anything.
    async fn disown(&self, game_id: &str) {
        self.clear_epoch(game_id);
        if let Some(h) = self.get(game_id) {
            let _ = h.tx.send(Box::new(ActorMsg::Disown)).await;
        }
    }

    /// The epoch this node holds `game_id` at, when it is in a cluster.
    pub(crate) fn epoch(&self, game_id: &str) -> Option<i64> {
        self.inner.epochs.lock().unwrap_or_else(|e| e.into_inner()).get(game_id).copied()
    }

    pub(crate) fn set_epoch(&self, game_id: &str, epoch: i64) {
        self.inner.epochs.lock().unwrap_or_else(|e| e.into_inner()).insert(game_id.to_owned(), epoch);
    }

    pub(crate) fn clear_epoch(&self, game_id: &str) -> Option<i64> {
        self.inner.epochs.lock().unwrap_or_else(|e| e.into_inner()).remove(game_id)
    }

    /// The epoch of the lobby's lease while this node runs the cluster's lobby (with a broker).
    pub fn lobby_epoch(&self) -> Option<i64> {
        self.inner.lobby_lease.as_ref().and_then(LeaseKeeper::epoch)
    }

    /// How long a lease runs, ms (the default 4,000 outside a cluster).
    pub fn lease_ms(&self) -> u64 {
        self.inner.cluster.as_ref().map_or(4000, |c| c.lease_ms)
    }

    /// Hands the lobby's lease over at a shutdown, so that another node runs the lobby at once.
    pub(crate) async fn let_go_of_lobby(&self) {
        if let Some(keeper) = &self.inner.lobby_lease {
            keeper.let_go().await;
        }
    }

    /// The node's name, in a cluster.
    pub fn node(&self) -> Option<&str> {
        self.inner.cluster.as_ref().map(|c| c.node.as_str())
    }

    /// The fence that goes first in every batch of `game_id` (in a cluster).
    pub(crate) fn fence(&self, game_id: &str) -> Option<guoxiang_store::WriteOp> {
        let node = self.node()?;
        let epoch = self.epoch(game_id)?;
        Some(guoxiang_store::WriteOp::Fence { game_id: game_id.to_owned(), node: node.to_owned(), epoch })
    }

    /// Writes a game's ops durably, behind its fence in a cluster.
    pub(crate) async fn write_game(
        &self,
        game_id: &str,
        mut ops: Vec<guoxiang_store::WriteOp>,
    ) -> Result<(), super::persist::WriteError> {
        if let Some(fence) = self.fence(game_id) {
            ops.insert(0, fence);
        }
        self.inner.persist.write(ops).await
    }

    /// After an actor ended: a finished game's lease is dropped; a live one's (a shutdown) is handed over so that
    /// another node takes it at once.
    pub(crate) async fn let_go(&self, game_id: &str, over: bool) {
        let (Some(node), Some(epoch)) = (self.node().map(str::to_owned), self.clear_epoch(game_id)) else { return };
        let store = &self.inner.store;
        let r = if over {
            store.release_lease(game_id, &node, epoch).await
        } else {
            store.hand_over_lease(game_id, &node, epoch).await.map(|_| ())
        };
        if let Err(e) = r {
            tracing::warn!("game {game_id}: its lease was not let go ({e}); it lapses by itself");
        }
    }
}
