// SPDX-License-Identifier: GPL-3.0-or-later
//! The traffic between the nodes of a cluster (issue 19, second part), over Redis pub/sub (`guoxiang serve --broker
//! redis://…`; why Redis is in `docs/architecture.md`, "Cluster"). Three kinds of channel:
//!
//! | channel | published by | carries |
//! |---|---|---|
//! | `gx:node:{node}` | any node | requests for the games `node` owns (a command, a subscription, a view, …) and the replies to `node`'s own requests |
//! | `gx:game:{id}` | the game's owner | every change of the game (the same frames its local followers get), for the nodes whose clients follow it |
//! | `gx:users` | any node | per-user notifications (a game started, a challenge, a rematch offered, a session ended) |
//! | `gx:lobby` | the node that runs the lobby | the lobby's changes (seeks, pools), for every node's lobby followers |
//!
//! Redis pub/sub delivers at most once, in order per connection. Nothing durable goes through it: a move is
//! committed to the database by its game's owner before anyone is told, so a lost message costs a resync, never a
//! move. A follower on another node sees a gap in the versions (or the broker connection dropped) and takes a fresh
//! snapshot from the owner; a request that gets no reply is sent again to whoever owns the game then.
//!
//! One multiplexed RESP3 connection per node carries both its publications and its subscriptions (the `redis`
//! crate's `ConnectionManager`, which reconnects and subscribes again by itself). Publications go through one task
//! that sends what is queued as a pipeline, in order.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use guoxiang_game::{Action, ArbiterAct, ArbiterRef, Snapshot, VersionedEvent};
use guoxiang_protocol::LiveGame;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, PushKind, Value};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::live::GameView;
use crate::metrics::SharedMetrics;

/// Publications a node may have queued before it drops some (each dropped one is a resync for some follower).
const OUT_QUEUE: usize = 65_536;

/// Publications sent in one pipeline at most.
const BATCH: usize = 256;

/// A request for the owner of a game.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Request {
    Command {
        user_id: String,
        action: Action,
        lag_ms: u64,
    },
    Arbiter {
        arbiter: ArbiterRef,
        act: ArbiterAct,
    },
    /// The frames a new follower starts with (a snapshot or the events since `since`, then the clocks).
    Subscribe {
        since: Option<u64>,
    },
    Presence {
        user_id: String,
        delta: i32,
    },
    View,
    Snapshot,
    /// For the node that runs the cluster's lobby (`game_id` is [`crate::lobby::LOBBY_LEASE`]).
    Lobby {
        op: Box<crate::lobby::LobbyOp>,
    },
    /// From the node that runs the lobby: create (and own) the game `game_id` it paired.
    CreateGame {
        game: Box<crate::live::NewGame>,
    },
}

/// A game's refusal as it crosses the broker: the transports' error (status, code, messages) as the owner made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireError {
    pub status: u16,
    pub code: String,
    pub zh: String,
    pub en: String,
}

/// The owner's answer to a [`Request`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Reply {
    Done,
    Refused {
        error: WireError,
    },
    /// The addressed node does not run the game (any more): ask the database who does.
    NotHere,
    /// The frames a new follower starts with, and the version they bring it to.
    Initial {
        frames: Vec<String>,
        version: u64,
    },
    View {
        view: Box<GameView>,
    },
    Snapshot {
        snapshot: Box<Snapshot>,
    },
    Lobby {
        answer: Box<crate::lobby::LobbyAnswer>,
    },
    Created {
        game_id: String,
    },
}

/// A change of a game, as its owner publishes it on `gx:game:{id}`.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct GameUpdate {
    pub game_id: String,
    pub events: Vec<VersionedEvent>,
    /// The `game_events` frame.
    pub ws_json: String,
    /// The `clocks` frame, when the game has clocks.
    pub clocks_json: Option<String>,
    /// The game's version after this change.
    pub version: u64,
    pub over: bool,
}

/// A per-user notification as it crosses nodes (`crate::hub::UserEvent`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum WireUserEvent {
    GameStarted { game_id: String, white: bool },
    GameFinished { game_id: String },
    RematchOffered { game_id: String, by_white: bool },
    RematchDeclined { game_id: String, by_white: bool },
    SessionEnded { session: String },
    Challenge { challenge: Box<crate::lobby::ChallengeInfo> },
}

#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    /// The sending node.
    from: String,
    /// The sender's clock when it was queued (ms since the Unix epoch): the receiver measures the broker's lag.
    sent_ms: u64,
    body: Body,
}

#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum Body {
    Request { req_id: u64, game_id: String, req: Request },
    Reply { req_id: u64, reply: Reply },
    Update { update: GameUpdate },
    User { user_id: String, event: WireUserEvent },
    Lobby { frame: String },
}

/// A request from another node for a game this node may own.
#[derive(Debug)]
pub struct Incoming {
    pub from: String,
    pub req_id: u64,
    pub game_id: String,
    pub req: Request,
}

/// What the broker hands to the rest of the server: requests for this node's games, and notifications for users.
#[derive(Debug)]
pub struct Inbound {
    pub requests: mpsc::Receiver<Incoming>,
    pub users: mpsc::Receiver<(String, WireUserEvent)>,
    /// The lobby's frames from the node that runs it.
    pub lobby: mpsc::Receiver<String>,
}

/// This node's connection to the broker (cheap to clone).
#[derive(Clone, Debug)]
pub struct Broker(Arc<Inner>);

#[derive(Debug)]
struct Inner {
    node: String,
    conn: ConnectionManager,
    out: mpsc::Sender<(String, String)>,
    next_req: AtomicU64,
    /// Requests waiting for their reply.
    pending: Mutex<HashMap<u64, oneshot::Sender<Reply>>>,
    /// Per followed game, this node's listeners (one per remote game in memory here).
    games: Mutex<Listeners>,
    next_listener: AtomicU64,
    /// Every time the connection to the broker was lost (publications may have been missed: followers resync).
    lost: broadcast::Sender<()>,
    metrics: SharedMetrics,
}

/// Per game, the listeners of this node (an id each, to take one out).
type Listeners = HashMap<String, Vec<(u64, mpsc::Sender<Arc<GameUpdate>>)>>;

fn node_channel(node: &str) -> String {
    format!("gx:node:{node}")
}

fn game_channel(game_id: &str) -> String {
    format!("gx:game:{game_id}")
}

const USERS: &str = "gx:users";

const LOBBY: &str = "gx:lobby";
/// The hash of every node's games being played (field: the node; value: JSON `{until_ms, games}`).
const LIVE_GAMES: &str = "gx:live";

impl Broker {
    /// Connects to the broker at `url` (`redis://host:port/`, `redis+unix:///path`) as `node`, and subscribes to the
    /// node's and the users' channels.
    pub async fn connect(url: &str, node: &str, metrics: SharedMetrics) -> Result<(Broker, Inbound), String> {
        let info = url.into_connection_info().map_err(|e| format!("broker {url}: {e}"))?;
        // RESP3: subscriptions and commands share the connection, and the messages come as pushes.
        let settings = info.redis_settings().clone().set_protocol(ProtocolVersion::RESP3);
        let info = info.set_redis_settings(settings);
        let client = redis::Client::open(info).map_err(|e| format!("broker {url}: {e}"))?;
        let (push_tx, push_rx) = mpsc::unbounded_channel::<PushInfo>();
        let config = ConnectionManagerConfig::new()
            .set_push_sender(push_tx)
            .set_automatic_resubscription()
            .set_connection_timeout(Some(Duration::from_secs(5)))
            .set_response_timeout(Some(Duration::from_secs(5)))
            .set_max_delay(Duration::from_secs(1));
        let mut conn = client
            .get_connection_manager_with_config(config)
            .await
            .map_err(|e| format!("broker {url}: cannot connect: {e}"))?;
        conn.subscribe(&[node_channel(node), USERS.to_owned(), LOBBY.to_owned()])
            .await
            .map_err(|e| format!("broker {url}: cannot subscribe: {e}"))?;
        let (out, out_rx) = mpsc::channel(OUT_QUEUE);
        let broker = Broker(Arc::new(Inner {
            node: node.to_owned(),
            conn: conn.clone(),
            out,
            next_req: AtomicU64::new(1),
            pending: Mutex::new(HashMap::new()),
            games: Mutex::new(HashMap::new()),
            next_listener: AtomicU64::new(1),
            lost: broadcast::channel(16).0,
            metrics,
        }));
        let (req_tx, requests) = mpsc::channel(4096);
        let (user_tx, users) = mpsc::channel(4096);
        let (lobby_tx, lobby) = mpsc::channel(4096);
        tokio::spawn(publisher(conn, out_rx, broker.0.metrics.clone()));
        tokio::spawn(broker.clone().dispatch(push_rx, req_tx, user_tx, lobby_tx));
        Ok((broker, Inbound { requests, users, lobby }))
    }

    /// This node's name.
    pub fn node(&self) -> &str {
        &self.0.node
    }

    fn queue(&self, channel: String, body: Body) {
        let env = Envelope { from: self.0.node.clone(), sent_ms: crate::time::now_ms(), body };
        let payload = match serde_json::to_string(&env) {
            Ok(p) => p,
            Err(e) => {
                tracing::error!("broker: a message could not be encoded: {e}");
                return;
            }
        };
        if self.0.out.try_send((channel, payload)).is_err() {
            // The broker is down or far behind; whoever missed this resyncs.
            self.0.metrics.broker_dropped.inc();
        }
    }

    /// Publishes a change of a game this node owns.
    pub fn publish_update(&self, update: GameUpdate) {
        self.queue(game_channel(&update.game_id), Body::Update { update });
    }

    /// Publishes a notification for `user_id`, for that user's connections on every other node.
    pub fn publish_user(&self, user_id: &str, event: WireUserEvent) {
        self.queue(USERS.to_owned(), Body::User { user_id: user_id.to_owned(), event });
    }

    /// Publishes a frame of the lobby (by the node that runs it) for the other nodes' lobby followers.
    pub fn publish_lobby(&self, frame: &str) {
        self.queue(LOBBY.to_owned(), Body::Lobby { frame: frame.to_owned() });
    }

    /// Answers a request of another node.
    pub fn reply(&self, to: &str, req_id: u64, reply: Reply) {
        self.queue(node_channel(to), Body::Reply { req_id, reply });
    }

    /// Sends `req` about `game_id` to `node` and waits up to `timeout` for the reply (`None`: none came).
    pub async fn request(&self, node: &str, game_id: &str, req: Request, timeout: Duration) -> Option<Reply> {
        let req_id = self.0.next_req.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.0.pending.lock().unwrap_or_else(|e| e.into_inner()).insert(req_id, tx);
        let started = std::time::Instant::now();
        self.queue(node_channel(node), Body::Request { req_id, game_id: game_id.to_owned(), req });
        let r = tokio::time::timeout(timeout, rx).await.ok().and_then(Result::ok);
        self.0.pending.lock().unwrap_or_else(|e| e.into_inner()).remove(&req_id);
        if r.is_some() {
            self.0.metrics.broker_request_seconds.observe(started.elapsed().as_secs_f64());
        } else {
            self.0.metrics.broker_request_timeouts.inc();
        }
        r
    }

    /// Fire and forget: a request whose reply nobody waits for (presence).
    pub fn tell(&self, node: &str, game_id: &str, req: Request) {
        self.queue(node_channel(node), Body::Request { req_id: 0, game_id: game_id.to_owned(), req });
    }

    /// Follows the changes of `game_id` published by its owner, whichever node that is. The listener stops when the
    /// returned [`GameListener`] is dropped.
    pub async fn follow(&self, game_id: &str) -> Result<GameListener, String> {
        let (tx, rx) = mpsc::channel(256);
        let id = self.0.next_listener.fetch_add(1, Ordering::Relaxed);
        let first = {
            let mut games = self.0.games.lock().unwrap_or_else(|e| e.into_inner());
            let v = games.entry(game_id.to_owned()).or_default();
            v.push((id, tx));
            v.len() == 1
        };
        if first {
            let mut conn = self.0.conn.clone();
            if let Err(e) = conn.subscribe(game_channel(game_id)).await {
                self.forget(game_id, id);
                return Err(format!("broker: cannot subscribe to game {game_id}: {e}"));
            }
        }
        Ok(GameListener { broker: self.clone(), game_id: game_id.to_owned(), id, rx, lost: self.0.lost.subscribe() })
    }

    fn forget(&self, game_id: &str, id: u64) {
        let last = {
            let mut games = self.0.games.lock().unwrap_or_else(|e| e.into_inner());
            let Some(v) = games.get_mut(game_id) else { return };
            v.retain(|(i, _)| *i != id);
            let empty = v.is_empty();
            if empty {
                games.remove(game_id);
            }
            empty
        };
        if last {
            let mut conn = self.0.conn.clone();
            let channel = game_channel(game_id);
            tokio::spawn(async move {
                if let Err(e) = conn.unsubscribe(&channel).await {
                    tracing::debug!("broker: unsubscribe {channel}: {e}");
                }
            });
        }
    }

    /// Counts one more event of `key` in the current window of `window_ms` (fixed windows, shared by every node) and
    /// returns the window's count so far: the cluster-wide rate limits (`crate::security::Limiters`).
    pub async fn count(&self, key: &str, window_ms: u64) -> Result<u64, String> {
        let window = crate::time::now_ms() / window_ms.max(1);
        let k = format!("gx:rl:{key}:{window}");
        let mut conn = self.0.conn.clone();
        let (n,): (u64,) = redis::pipe()
            .atomic()
            .cmd("INCR")
            .arg(&k)
            .cmd("PEXPIRE")
            .arg(&k)
            .arg(window_ms.saturating_mul(2))
            .ignore()
            .query_async(&mut conn)
            .await
            .map_err(|e| e.to_string())?;
        Ok(n)
    }

    /// The recent events of `key` kept by every node (a sorted set of times): drops those `window_ms` old or
    /// older and returns how many are left and the time of the oldest. The failed logins of an account
    /// (`crate::security::Limiters::login_allowed`).
    pub async fn recent(&self, key: &str, window_ms: u64) -> Result<(usize, Option<u64>), String> {
        let k = format!("gx:ev:{key}");
        let since = crate::time::now_ms().saturating_sub(window_ms);
        let mut conn = self.0.conn.clone();
        let (n, oldest): (usize, Vec<String>) = redis::pipe()
            .atomic()
            .cmd("ZREMRANGEBYSCORE")
            .arg(&k)
            .arg("-inf")
            .arg(since)
            .ignore()
            .cmd("ZCARD")
            .arg(&k)
            .cmd("ZRANGE")
            .arg(&k)
            .arg(0)
            .arg(0)
            .query_async(&mut conn)
            .await
            .map_err(|e| e.to_string())?;
        // A member is `time-random` (two events in one millisecond are two members).
        let oldest = oldest.first().and_then(|m| m.split('-').next()).and_then(|t| t.parse().ok());
        Ok((n, oldest))
    }

    /// Adds an event of `key` now, keeping the `keep` newest; the set expires `window_ms` after its last event.
    pub async fn record(&self, key: &str, window_ms: u64, keep: usize) -> Result<(), String> {
        let k = format!("gx:ev:{key}");
        let now = crate::time::now_ms();
        let member = format!("{now}-{:08x}", rand::random::<u32>());
        let mut conn = self.0.conn.clone();
        redis::pipe()
            .atomic()
            .cmd("ZADD")
            .arg(&k)
            .arg(now)
            .arg(member)
            .ignore()
            .cmd("ZREMRANGEBYRANK")
            .arg(&k)
            .arg(0)
            .arg(-(keep.clamp(1, 1 << 20) as i64) - 1)
            .ignore()
            .cmd("PEXPIRE")
            .arg(&k)
            .arg(window_ms)
            .ignore()
            .query_async::<()>(&mut conn)
            .await
            .map_err(|e| e.to_string())
    }

    /// Forgets the events of `key`.
    pub async fn clear(&self, key: &str) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("DEL").arg(format!("gx:ev:{key}")).query_async::<()>(&mut conn).await.map_err(|e| e.to_string())
    }

    /// Puts this node's games being played (each with its creation time, ms) in the cluster's list, valid until
    /// `until_ms`: a node that stops renewing it drops out of the list (`Live::all_live_games`).
    pub async fn put_live_games(&self, node: &str, until_ms: u64, games: &[(u64, LiveGame)]) -> Result<(), String> {
        let entry = serde_json::json!({ "until_ms": until_ms, "games": games }).to_string();
        let mut conn = self.0.conn.clone();
        redis::cmd("HSET")
            .arg(LIVE_GAMES)
            .arg(node)
            .arg(entry)
            .query_async::<()>(&mut conn)
            .await
            .map_err(|e| e.to_string())
    }

    /// Takes this node out of the cluster's list of games being played (a shutdown).
    pub async fn drop_live_games(&self, node: &str) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("HDEL").arg(LIVE_GAMES).arg(node).query_async::<()>(&mut conn).await.map_err(|e| e.to_string())
    }

    /// Every node's games being played, with their creation times, from the entries still valid at `now_ms`
    /// (those of nodes that stopped renewing theirs are removed).
    pub async fn live_games(&self, now_ms: u64) -> Result<Vec<(u64, LiveGame)>, String> {
        let mut conn = self.0.conn.clone();
        let entries: HashMap<String, String> =
            redis::cmd("HGETALL").arg(LIVE_GAMES).query_async(&mut conn).await.map_err(|e| e.to_string())?;
        #[derive(Deserialize)]
        struct Entry {
            until_ms: u64,
            games: Vec<(u64, LiveGame)>,
        }
        let mut games = Vec::new();
        for (node, text) in entries {
            match serde_json::from_str::<Entry>(&text) {
                Ok(e) if e.until_ms >= now_ms => games.extend(e.games),
                stale_or_unreadable => {
                    if let Err(e) = stale_or_unreadable {
                        tracing::warn!("broker: node {node}'s live games unreadable: {e}");
                    }
                    let _ = redis::cmd("HDEL").arg(LIVE_GAMES).arg(&node).query_async::<()>(&mut conn).await;
                }
            }
        }
        Ok(games)
    }

    /// Whether the broker answers (`/readyz`).
    pub async fn ping(&self) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("PING").query_async::<String>(&mut conn).await.map(|_| ()).map_err(|e| e.to_string())
    }

    async fn dispatch(
        self,
        mut push: mpsc::UnboundedReceiver<PushInfo>,
        requests: mpsc::Sender<Incoming>,
        users: mpsc::Sender<(String, WireUserEvent)>,
        lobby: mpsc::Sender<String>,
    ) {
        while let Some(p) = push.recv().await {
            match p.kind {
                PushKind::Message => {}
                PushKind::Disconnection => {
                    tracing::warn!("broker: connection lost; reconnecting (followers of remote games resync)");
                    self.0.metrics.broker_disconnections.inc();
                    let _ = self.0.lost.send(());
                    continue;
                }
                _ => continue,
            }
            let Some(payload) = p.data.get(1).and_then(bytes) else { continue };
            let env: Envelope = match serde_json::from_slice(payload) {
                Ok(e) => e,
                Err(e) => {
                    tracing::warn!("broker: a message that is not ours ({e}); ignored");
                    continue;
                }
            };
            self.0.metrics.broker_received.inc();
            let lag_ms = crate::time::now_ms().saturating_sub(env.sent_ms);
            self.0.metrics.broker_lag_seconds.observe(lag_ms as f64 / 1000.0);
            match env.body {
                Body::Request { req_id, game_id, req } => {
                    let _ = requests.send(Incoming { from: env.from, req_id, game_id, req }).await;
                }
                Body::Reply { req_id, reply } => {
                    if let Some(tx) = self.0.pending.lock().unwrap_or_else(|e| e.into_inner()).remove(&req_id) {
                        let _ = tx.send(reply);
                    }
                }
                Body::Update { update } => {
                    let update = Arc::new(update);
                    let listeners: Vec<mpsc::Sender<Arc<GameUpdate>>> = {
                        let games = self.0.games.lock().unwrap_or_else(|e| e.into_inner());
                        games.get(&update.game_id).map(|v| v.iter().map(|(_, tx)| tx.clone()).collect())
                    }
                    .unwrap_or_default();
                    for tx in listeners {
                        // A listener that does not keep up sees a gap in the versions and resyncs.
                        let _ = tx.try_send(update.clone());
                    }
                }
                Body::User { user_id, event } => {
                    if env.from != self.0.node {
                        let _ = users.send((user_id, event)).await;
                    }
                }
                Body::Lobby { frame } => {
                    if env.from != self.0.node {
                        let _ = lobby.send(frame).await;
                    }
                }
            }
        }
    }
}

fn bytes(v: &Value) -> Option<&[u8]> {
    match v {
        Value::BulkString(b) => Some(b),
        Value::SimpleString(s) => Some(s.as_bytes()),
        _ => None,
    }
}

/// Sends the queued publications, a pipeline at a time, in order.
async fn publisher(mut conn: ConnectionManager, mut rx: mpsc::Receiver<(String, String)>, metrics: SharedMetrics) {
    let mut batch = Vec::with_capacity(BATCH);
    while rx.recv_many(&mut batch, BATCH).await > 0 {
        let mut pipe = redis::pipe();
        for (channel, payload) in &batch {
            pipe.cmd("PUBLISH").arg(channel).arg(payload).ignore();
        }
        match pipe.query_async::<()>(&mut conn).await {
            Ok(()) => {
                metrics.broker_published.inc_by(batch.len() as u64);
            }
            Err(e) => {
                metrics.broker_dropped.inc_by(batch.len() as u64);
                tracing::warn!("broker: {} messages not published: {e}", batch.len());
            }
        }
        batch.clear();
    }
}

/// The changes of one game, from the broker.
#[derive(Debug)]
pub struct GameListener {
    broker: Broker,
    game_id: String,
    id: u64,
    rx: mpsc::Receiver<Arc<GameUpdate>>,
    lost: broadcast::Receiver<()>,
}

/// What a [`GameListener`] hears.
#[derive(Debug)]
pub enum Heard {
    Update(Arc<GameUpdate>),
    /// The broker connection was lost meanwhile: changes may have been missed.
    Lost,
}

impl GameListener {
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

impl Drop for GameListener {
    fn drop(&mut self) {
        self.broker.forget(&self.game_id, self.id);
    }
}

impl WireUserEvent {
    /// The notification as it crosses the broker.
    pub fn of(event: &crate::hub::UserEvent) -> WireUserEvent {
        use crate::hub::UserEvent as U;
        use guoxiang_core::Color;
        match event {
            U::GameStarted { game_id, color } => {
                WireUserEvent::GameStarted { game_id: game_id.clone(), white: *color == Color::White }
            }
            U::GameFinished { game_id } => WireUserEvent::GameFinished { game_id: game_id.clone() },
            U::RematchOffered { game_id, by } => {
                WireUserEvent::RematchOffered { game_id: game_id.clone(), by_white: *by == Color::White }
            }
            U::RematchDeclined { game_id, by } => {
                WireUserEvent::RematchDeclined { game_id: game_id.clone(), by_white: *by == Color::White }
            }
            U::SessionEnded { session } => WireUserEvent::SessionEnded { session: session.clone() },
            U::Challenge(c) => WireUserEvent::Challenge { challenge: c.clone() },
        }
    }

    /// Back to the hub's event.
    pub fn into_event(self) -> crate::hub::UserEvent {
        use crate::hub::UserEvent as U;
        use guoxiang_core::Color;
        let color = |white: bool| if white { Color::White } else { Color::Black };
        match self {
            WireUserEvent::GameStarted { game_id, white } => U::GameStarted { game_id, color: color(white) },
            WireUserEvent::GameFinished { game_id } => U::GameFinished { game_id },
            WireUserEvent::RematchOffered { game_id, by_white } => U::RematchOffered { game_id, by: color(by_white) },
            WireUserEvent::RematchDeclined { game_id, by_white } => U::RematchDeclined { game_id, by: color(by_white) },
            WireUserEvent::SessionEnded { session } => U::SessionEnded { session },
            WireUserEvent::Challenge { challenge } => U::Challenge(challenge),
        }
    }
}

impl crate::hub::Relay for Broker {
    fn relay(&self, user_id: &str, event: &crate::hub::UserEvent) {
        self.publish_user(user_id, WireUserEvent::of(event));
    }
}

/// Passes the lobby's frames from the node that runs it to this node's lobby followers.
pub async fn deliver_lobby(updates: broadcast::Sender<Arc<str>>, mut frames: mpsc::Receiver<String>) {
    while let Some(f) = frames.recv().await {
        let _ = updates.send(f.into());
    }
}

/// Delivers the notifications other nodes relayed to this node's connections.
pub async fn deliver_users(hub: crate::hub::Hub, mut users: mpsc::Receiver<(String, WireUserEvent)>) {
    while let Some((user_id, event)) = users.recv().await {
        hub.deliver(&user_id, event.into_event());
    }
}
