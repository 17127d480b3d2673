// SPDX-License-Identifier: GPL-3.0-or-later
//! The cluster's transport over Redis pub/sub (`guoxiang_domain::transport::Transport`): the envelope every message
//! travels in, the task that publishes what is queued, the dispatch of what comes in, and ask, tell, answer,
//! publish and follow.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use redis::aio::ConnectionManager;
use redis::{PushInfo, PushKind, Value};
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use tokio::sync::{mpsc, oneshot};

use guoxiang_domain::metrics::SharedMetrics;
use guoxiang_domain::transport::{Family, Incoming, Listener, Pending, Topic, Transport};

use crate::{Broker, Raw};

/// Publications a node may have queued before it drops some (each dropped one is a resync for some follower).
pub(crate) const OUT_QUEUE: usize = 65_536;

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

pub(crate) fn node_channel(node: &str) -> String {
    format!("gx:node:{node}")
}

fn game_channel(game_id: &str) -> String {
    format!("gx:game:{game_id}")
}

pub(crate) const USERS: &str = "gx:users";

pub(crate) const LOBBY: &str = "gx:lobby";

impl Broker {
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

    /// Whether the broker answers (`/readyz`).
    async fn ping_broker(&self) -> Result<(), String> {
        let mut conn = self.0.conn.clone();
        redis::cmd("PING").query_async::<String>(&mut conn).await.map(|_| ()).map_err(|e| e.to_string())
    }

    pub(crate) async fn dispatch(
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
pub(crate) async fn publisher(
    mut conn: ConnectionManager,
    mut rx: mpsc::Receiver<(String, String)>,
    metrics: SharedMetrics,
) {
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
