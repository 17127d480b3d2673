// SPDX-License-Identifier: GPL-3.0-or-later
//! The seam between the domain and the traffic between the nodes of a cluster: what the domain asks of a broker,
//! as traits over message bodies the domain encodes itself. The domain owns its messages, in families kept apart —
//! a game's requests and updates (`live::wire`), the lobby's (`lobby::LobbyOp`), users' notifications
//! (`events::WireUserEvent`) — and a transport only carries them (`guoxiang serve --broker redis://…` plugs in the
//! Redis one, the guoxiang-broker crate). Four verbs:
//!
//! | verb | what | delivery |
//! |---|---|---|
//! | [`Transport::ask`] | a request to one node, and its reply | at most once; `None` when no reply came in time |
//! | [`Transport::tell`] | a request to one node, no reply | at most once |
//! | [`Transport::publish`] | a change for every node that listens to its topic | at most once, in order per node |
//! | [`Transport::follow`] | the changes of one game, whichever node publishes them | at most once; [`Heard::Lost`] when some may be missed |
//!
//! Beside it, [`SharedCounters`] (the rate limits every node shares) and [`LiveList`] (every node's games being
//! played, for spectators). [`Cluster`] is all three, as one broker provides them.

use std::fmt::Debug;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use guoxiang_protocol::LiveGame;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::{broadcast, mpsc};

/// A message body as the domain encoded it (JSON).
pub type Body = Box<RawValue>;

/// A future a transport returns.
pub type Pending<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Which part of the domain a request is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Family {
    /// A game's owner (`live::wire::Request`); the key is the game's id.
    Game,
    /// The node that runs the cluster's lobby (`lobby::LobbyOp`); the key is the lobby's lease.
    Lobby,
}

/// Where a publication goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Topic<'a> {
    /// The changes of one game, for the nodes that follow it (`live::wire::GameUpdate`).
    Game(&'a str),
    /// Users' notifications, for every node (`events::WireUserEvent` with its user).
    Users,
    /// The lobby's frames, for every node (a `ServerMessage` as JSON).
    Lobby,
}

/// A request from another node.
#[derive(Debug)]
pub struct Incoming {
    pub from: String,
    /// 0: a [`Transport::tell`], nobody waits for a reply.
    pub req_id: u64,
    pub family: Family,
    pub key: String,
    pub body: Body,
}

/// What a transport hands to the domain: the requests for this node, and the other nodes' publications on
/// [`Topic::Users`] and [`Topic::Lobby`] (this node's own are not handed back).
#[derive(Debug)]
pub struct Inbound {
    pub requests: mpsc::Receiver<Incoming>,
    pub users: mpsc::Receiver<Body>,
    pub lobby: mpsc::Receiver<Body>,
}

/// What a [`Listener`] hears.
#[derive(Debug)]
pub enum Heard {
    /// A publication on the game's topic.
    Update(Arc<RawValue>),
    /// The connection to the broker was lost meanwhile: changes may have been missed.
    Lost,
}

/// The changes of one game ([`Transport::follow`]); following stops when it is dropped.
#[derive(Debug)]
pub struct Listener {
    rx: mpsc::Receiver<Arc<RawValue>>,
    lost: broadcast::Receiver<()>,
    _stop: Box<dyn Debug + Send + Sync>,
}

impl Listener {
    /// A listener over the transport's channels; `stop` is dropped with it (and stops the following).
    pub fn new(
        rx: mpsc::Receiver<Arc<RawValue>>,
        lost: broadcast::Receiver<()>,
        stop: Box<dyn Debug + Send + Sync>,
    ) -> Listener {
        Listener { rx, lost, _stop: stop }
    }

    pub async fn recv(&mut self) -> Heard {
        tokio::select! {
            u = self.rx.recv() => match u {
                Some(u) => Heard::Update(u),
                None => std::future::pending().await,
            },
            r = self.lost.recv() => match r {
                Ok(()) | Err(broadcast::error::RecvError::Lagged(_)) => Heard::Lost,
                Err(broadcast::error::RecvError::Closed) => std::future::pending().await,
            },
        }
    }
}

/// The traffic between nodes.
pub trait Transport: Debug + Send + Sync + 'static {
    /// This node's name.
    fn node(&self) -> &str;

    /// Sends a request to `node` and waits up to `timeout` for its reply (`None`: none came).
    fn ask<'a>(
        &'a self,
        node: &'a str,
        family: Family,
        key: &'a str,
        body: Body,
        timeout: Duration,
    ) -> Pending<'a, Option<Body>>;

    /// Sends a request to `node`; nobody waits for a reply.
    fn tell(&self, node: &str, family: Family, key: &str, body: Body);

    /// Answers the request `req_id` of the node `to`.
    fn answer(&self, to: &str, req_id: u64, body: Body);

    /// Publishes a change on `topic`.
    fn publish(&self, topic: Topic<'_>, body: Body);

    /// Follows the publications on a game's topic.
    fn follow<'a>(&'a self, game_id: &'a str) -> Pending<'a, Result<Listener, String>>;

    /// Whether the broker answers (`/readyz`).
    fn ping(&self) -> Pending<'_, Result<(), String>>;
}

/// Counters every node shares: the cluster-wide rate limits.
pub trait SharedCounters: Debug + Send + Sync + 'static {
    /// Counts one more event of `key` in the current fixed window of `window_ms` and returns the window's count.
    fn count<'a>(&'a self, key: &'a str, window_ms: u64) -> Pending<'a, Result<u64, String>>;

    /// Drops the events of `key` that are `window_ms` old or older; how many are left and the time of the oldest.
    fn recent<'a>(&'a self, key: &'a str, window_ms: u64) -> Pending<'a, Result<(usize, Option<u64>), String>>;

    /// Adds an event of `key` now, keeping the `keep` newest; they expire `window_ms` after the last one.
    fn record<'a>(&'a self, key: &'a str, window_ms: u64, keep: usize) -> Pending<'a, Result<(), String>>;

    /// Forgets the events of `key`.
    fn clear<'a>(&'a self, key: &'a str) -> Pending<'a, Result<(), String>>;
}

/// Every node's games being played (each with its creation time, ms).
pub trait LiveList: Debug + Send + Sync + 'static {
    /// Puts `node`'s games in the list, valid until `until_ms`.
    fn put_live_games<'a>(
        &'a self,
        node: &'a str,
        until_ms: u64,
        games: &'a [(u64, LiveGame)],
    ) -> Pending<'a, Result<(), String>>;

    /// Takes `node` out of the list (a shutdown).
    fn drop_live_games<'a>(&'a self, node: &'a str) -> Pending<'a, Result<(), String>>;

    /// Every node's games from the entries still valid at `now_ms`.
    fn live_games(&self, now_ms: u64) -> Pending<'_, Result<Vec<(u64, LiveGame)>, String>>;
}

/// What a broker gives a cluster: the traffic, the shared counters and the live list.
pub trait Cluster: Transport + SharedCounters + LiveList {}

impl<T: Transport + SharedCounters + LiveList> Cluster for T {}

/// The cluster's connection as the domain holds it.
pub type SharedCluster = Arc<dyn Cluster>;

/// Encodes a message (our own types always encode; a failure is logged and gives `null`).
pub fn encode<T: Serialize>(v: &T) -> Body {
    serde_json::value::to_raw_value(v).unwrap_or_else(|e| {
        tracing::error!("transport: a message could not be encoded: {e}");
        RawValue::NULL.to_owned()
    })
}

/// Decodes a message; a message that is not ours is logged and gives `None`.
pub fn decode<T: DeserializeOwned>(body: &RawValue) -> Option<T> {
    serde_json::from_str(body.get())
        .map_err(|e| tracing::warn!("transport: a message that is not ours ({e}); ignored"))
        .ok()
}
