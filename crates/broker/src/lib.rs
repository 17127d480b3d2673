// SPDX-License-Identifier: GPL-3.0-or-later
//! guoxiang-broker: the traffic between the nodes of a cluster (issue 19, second part), over Redis pub/sub
//! (`guoxiang serve --broker redis://…`; why Redis is in `docs/architecture.md`, "Cluster"). [`Broker`] is the
//! domain's transport (`guoxiang_domain::transport`: ask, tell, publish, follow), its shared counters and its list
//! of live games; it carries the domain's message bodies without reading them. The channels:
//!
//! | channel | published by | carries |
//! |---|---|---|
//! | `gx:node:{node}` | any node | requests for `node`: for the games it owns (`Family::Game`: a command, a subscription, a view, …) and for the lobby while it runs it (`Family::Lobby`); and the replies to `node`'s own requests |
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
//!
//! | module | its job (the connection, [`Broker::connect`], is here) |
//! |---|---|
//! | `transport` | the cluster's transport: the envelope, the publisher, the dispatch of what comes in, ask/tell/publish/follow |
//! | `counters` | the shared counters (the cluster-wide rate limits and failed logins) |
//! | `live_list` | the cluster's list of games being played |

#![forbid(unsafe_code)]

mod counters;
mod live_list;
mod transport;

use std::collections::HashMap;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use redis::{IntoConnectionInfo, ProtocolVersion, PushInfo};
use serde_json::value::RawValue;
use tokio::sync::{broadcast, mpsc, oneshot};

use guoxiang_domain::metrics::SharedMetrics;
use guoxiang_domain::transport::Inbound;

use transport::{LOBBY, OUT_QUEUE, USERS, node_channel, publisher};

type Raw = Box<RawValue>;

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
}
