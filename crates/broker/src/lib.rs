// SPDX-License-Identifier: GPL-3.0-or-later
//! guoxiang-broker: the traffic between the nodes of a cluster (issue 19, second part), over Redis pub/sub
//! (`guoxiang serve --broker redis://…`; why Redis is in `docs/architecture.md`, "Cluster"). [`Broker`] is the
//! domain's transport (`guoxiang_domain::transport`: ask, tell, publish, follow), its shared counters and its list
//! of live games; it carries the domain's message bodies without reading them. The channels:
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

#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use guoxiang_protocol::LiveGame;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo, PushKind, Value};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::{broadcast, mpsc, oneshot};

use guoxiang_domain::metrics::SharedMetrics;
use guoxiang_domain::transport::{
    Family, Inbound, Incoming, Listener, LiveList, Pending, SharedCounters, Topic, Transport,
};

type Raw = Box<RawValue>;

/// Publications a node may have queued before it drops some (each dropped one is a resync for some follower).
const OUT_QUEUE: usize = 65_536;

/// Publications sent in one pipeline at most.
const BATCH: usize = 256;

#[derive(Debug, Serialize, Deserialize)]
struct Envelope {
    /// The sending node.
    from: String,
    /// The sender's clock when it was queued (ms since the Unix epoch): the receiver measures the broker's lag.
    sent_ms: u64,
    body: Body,
}

/// What an envelope carries: the domain's message bodies as they are (`guoxiang_domain::transport`), with what a node needs to
/// route them. (Externally tagged: a raw body cannot go through serde's buffering of internally tagged enums.)
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Body {
    Request { req_id: u64, family: Family, key: String, body: Raw },
    Reply { req_id: u64, body: Raw },
    Update { game_id: String, body: Raw },
    User { body: Raw },
    Lobby { body: Raw },
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
    pending: Mutex<HashMap<u64, oneshot::Sender<Raw>>>,
    /// Per followed game, this node's listeners (one per remote game in memory here).
    games: Mutex<Listeners>,
    next_listener: AtomicU64,
    /// Every time the connection to the broker was lost (publications may have been missed: followers resync).
    lost: broadcast::Sender<()>,
    metrics: SharedMetrics,
}

/// Per game, the listeners of this node (an id each, to take one out).
type Listeners = HashMap<String, Vec<(u64, mpsc::Sender<Arc<RawValue>>)>>;

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

    fn queue(&self, channel: String, body: Body) {
        let env = Envelope { from: self.0.node.clone(), sent_ms: guoxiang_domain::time::now_ms(), body };
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

    /// Publishes `body` on `topic`.
    fn publish_on(&self, topic: Topic<'_>, body: Raw) {
        match topic {
            Topic::Game(game_id) => {
                self.queue(game_channel(game_id), Body::Update { game_id: game_id.to_owned(), body })
            }
            Topic::Users => self.queue(USERS.to_owned(), Body::User { body }),
            Topic::Lobby => self.queue(LOBBY.to_owned(), Body::Lobby { body }),
        }
    }

    /// Sends a request to `node` and waits up to `timeout` for the reply (`None`: none came).
    async fn request(&self, node: &str, family: Family, key: &str, body: Raw, timeout: Duration) -> Option<Raw> {
        let req_id = self.0.next_req.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.0.pending.lock().unwrap_or_else(|e| e.into_inner()).insert(req_id, tx);
        let started = std::time::Instant::now();
        self.queue(node_channel(node), Body::Request { req_id, family, key: key.to_owned(), body });
        let r = tokio::time::timeout(timeout, rx).await.ok().and_then(Result::ok);
        self.0.pending.lock().unwrap_or_else(|e| e.into_inner()).remove(&req_id);
        if r.is_some() {
            self.0.metrics.broker_request_seconds.observe(started.elapsed().as_secs_f64());
        } else {
            self.0.metrics.broker_request_timeouts.inc();
        }
        r
    }

    /// Follows the changes of `game_id` published by its owner, whichever node that is, until the listener is
    /// dropped.
    async fn follow_game(&self, game_id: &str) -> Result<Listener, String> {
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
        let stop = Box::new(Following { broker: self.clone(), game_id: game_id.to_owned(), id });
        Ok(Listener::new(rx, self.0.lost.subscribe(), stop))
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
    /// returns the window's count so far: the cluster-wide rate limits (`guoxiang_http::security::Limiters`).
    async fn count_event(&self, key: &str, window_ms: u64) -> Result<u64, String> {
        let window = guoxiang_domain::time::now_ms() / window_ms.max(1);
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
    /// (`guoxiang_http::security::Limiters::login_allowed`).
    async fn recent_events(&self, key: &str, window_ms: u64) -> Result<(usize, Option<u64>), String> {
        let k = format!("gx:ev:{key}");
        let since = guoxiang_domain::time::now_ms().saturating_sub(window_ms);
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
    async fn record_event(&self, key: &str, window_ms: u64, keep: usize) -> Result<(), String> {
        let k = format!("gx:ev:{key}");
        let now = guoxiang_domain::time::now_ms();
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
    async fn clear_events(&self, key: &str) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("DEL").arg(format!("gx:ev:{key}")).query_async::<()>(&mut conn).await.map_err(|e| e.to_string())
    }

    /// Puts this node's games being played (each with its creation time, ms) in the cluster's list, valid until
    /// `until_ms`: a node that stops renewing it drops out of the list (`Live::all_live_games`).
    async fn put_games(&self, node: &str, until_ms: u64, games: &[(u64, LiveGame)]) -> Result<(), String> {
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
    async fn drop_games(&self, node: &str) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("HDEL").arg(LIVE_GAMES).arg(node).query_async::<()>(&mut conn).await.map_err(|e| e.to_string())
    }

    /// Every node's games being played, with their creation times, from the entries still valid at `now_ms`
    /// (those of nodes that stopped renewing theirs are removed).
    async fn all_games(&self, now_ms: u64) -> Result<Vec<(u64, LiveGame)>, String> {
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
    async fn ping_broker(&self) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("PING").query_async::<String>(&mut conn).await.map(|_| ()).map_err(|e| e.to_string())
    }

    async fn dispatch(
        self,
        mut push: mpsc::UnboundedReceiver<PushInfo>,
        requests: mpsc::Sender<Incoming>,
        users: mpsc::Sender<Raw>,
        lobby: mpsc::Sender<Raw>,
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
            let lag_ms = guoxiang_domain::time::now_ms().saturating_sub(env.sent_ms);
            self.0.metrics.broker_lag_seconds.observe(lag_ms as f64 / 1000.0);
            match env.body {
                Body::Request { req_id, family, key, body } => {
                    let _ = requests.send(Incoming { from: env.from, req_id, family, key, body }).await;
                }
                Body::Reply { req_id, body } => {
                    if let Some(tx) = self.0.pending.lock().unwrap_or_else(|e| e.into_inner()).remove(&req_id) {
                        let _ = tx.send(body);
                    }
                }
                Body::Update { game_id, body } => {
                    let update: Arc<RawValue> = Arc::from(body);
                    let listeners: Vec<mpsc::Sender<Arc<RawValue>>> = {
                        let games = self.0.games.lock().unwrap_or_else(|e| e.into_inner());
                        games.get(&game_id).map(|v| v.iter().map(|(_, tx)| tx.clone()).collect())
                    }
                    .unwrap_or_default();
                    for tx in listeners {
                        // A listener that does not keep up sees a gap in the versions and resyncs.
                        let _ = tx.try_send(update.clone());
                    }
                }
                Body::User { body } => {
                    if env.from != self.0.node {
                        let _ = users.send(body).await;
                    }
                }
                Body::Lobby { body } => {
                    if env.from != self.0.node {
                        let _ = lobby.send(body).await;
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

/// A game followed on this node: dropped with its [`Listener`], it takes the listener out.
#[derive(Debug)]
struct Following {
    broker: Broker,
    game_id: String,
    id: u64,
}

impl Drop for Following {
    fn drop(&mut self) {
        self.broker.forget(&self.game_id, self.id);
    }
}

impl Transport for Broker {
    fn node(&self) -> &str {
        &self.0.node
    }

    fn ask<'a>(
        &'a self,
        node: &'a str,
        family: Family,
        key: &'a str,
        body: Raw,
        timeout: Duration,
    ) -> Pending<'a, Option<Raw>> {
        Box::pin(self.request(node, family, key, body, timeout))
    }

    fn tell(&self, node: &str, family: Family, key: &str, body: Raw) {
        self.queue(node_channel(node), Body::Request { req_id: 0, family, key: key.to_owned(), body });
    }

    fn answer(&self, to: &str, req_id: u64, body: Raw) {
        self.queue(node_channel(to), Body::Reply { req_id, body });
    }

    fn publish(&self, topic: Topic<'_>, body: Raw) {
        self.publish_on(topic, body);
    }

    fn follow<'a>(&'a self, game_id: &'a str) -> Pending<'a, Result<Listener, String>> {
        Box::pin(self.follow_game(game_id))
    }

    fn ping(&self) -> Pending<'_, Result<(), String>> {
        Box::pin(self.ping_broker())
    }
}

impl SharedCounters for Broker {
    fn count<'a>(&'a self, key: &'a str, window_ms: u64) -> Pending<'a, Result<u64, String>> {
        Box::pin(self.count_event(key, window_ms))
    }

    fn recent<'a>(&'a self, key: &'a str, window_ms: u64) -> Pending<'a, Result<(usize, Option<u64>), String>> {
        Box::pin(self.recent_events(key, window_ms))
    }

    fn record<'a>(&'a self, key: &'a str, window_ms: u64, keep: usize) -> Pending<'a, Result<(), String>> {
        Box::pin(self.record_event(key, window_ms, keep))
    }

    fn clear<'a>(&'a self, key: &'a str) -> Pending<'a, Result<(), String>> {
        Box::pin(self.clear_events(key))
    }
}

impl LiveList for Broker {
    fn put_live_games<'a>(
        &'a self,
        node: &'a str,
        until_ms: u64,
        games: &'a [(u64, LiveGame)],
    ) -> Pending<'a, Result<(), String>> {
        Box::pin(self.put_games(node, until_ms, games))
    }

    fn drop_live_games<'a>(&'a self, node: &'a str) -> Pending<'a, Result<(), String>> {
        Box::pin(self.drop_games(node))
    }

    fn live_games(&self, now_ms: u64) -> Pending<'_, Result<Vec<(u64, LiveGame)>, String>> {
        Box::pin(self.all_games(now_ms))
    }
}
