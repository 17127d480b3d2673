//! Per-user notifications that are not about one game's moves: a game started, a game finished, a challenge
//! changed, a rematch was offered. Every open connection of a user (browser tabs, Lichess event streams) gets them.
//!
//! Each connection has a bounded queue ([`QUEUE`] events). A connection that lets it fill up does not read: it is
//! dropped from the hub (its receiver ends once drained), and its transport closes it, so the client reconnects
//! and resyncs (the WebSocket `hello` and the Lichess event stream both start with the current games and
//! challenges). Memory per connection stays bounded however slow the client is.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc;

pub use crate::events::UserEvent;

/// How many events a connection may have waiting before it counts as not reading.
pub const QUEUE: usize = 256;

// Events are boxed in the queues: a channel's first block of slots is allocated with it, so an idle connection
// holds 32 slots of a pointer rather than of an event.
type Senders = HashMap<String, Vec<(u64, mpsc::Sender<Box<UserEvent>>)>>;

/// One connection's queue of events.
#[derive(Debug)]
pub struct HubReceiver(mpsc::Receiver<Box<UserEvent>>);

impl HubReceiver {
    /// The next event; `None` once the hub dropped the connection (or the hub is gone).
    pub async fn recv(&mut self) -> Option<UserEvent> {
        self.0.recv().await.map(|e| *e)
    }

    pub fn try_recv(&mut self) -> Result<UserEvent, mpsc::error::TryRecvError> {
        self.0.try_recv().map(|e| *e)
    }
}

/// Passes a user's notifications on to the other nodes of a cluster (their connections of the user get them there).
pub trait Relay: Send + Sync + std::fmt::Debug {
    fn relay(&self, user_id: &str, event: &UserEvent);
}

/// The user → connections map.
#[derive(Clone, Debug, Default)]
pub struct Hub {
    users: Arc<Mutex<Senders>>,
    /// In a cluster with a broker: where every notification also goes.
    relay: Arc<std::sync::OnceLock<Arc<dyn Relay>>>,
    next: Arc<AtomicU64>,
    /// Connections dropped for not reading.
    dropped: Arc<AtomicU64>,
}

/// A registered connection; unregisters when dropped.
#[derive(Debug)]
pub struct HubGuard {
    hub: Hub,
    user_id: String,
    id: u64,
}

impl Drop for HubGuard {
    fn drop(&mut self) {
        let mut users = self.hub.users.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = users.get_mut(&self.user_id) {
            v.retain(|(id, _)| *id != self.id);
            if v.is_empty() {
                users.remove(&self.user_id);
            }
        }
    }
}

impl Hub {
    /// Registers a connection of `user_id`. The receiver ends when the connection is dropped for not reading.
    pub fn register(&self, user_id: &str) -> (HubGuard, HubReceiver) {
        let (tx, rx) = mpsc::channel(QUEUE);
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.users.lock().unwrap_or_else(|e| e.into_inner()).entry(user_id.to_owned()).or_default().push((id, tx));
        (HubGuard { hub: self.clone(), user_id: user_id.to_owned(), id }, HubReceiver(rx))
    }

    /// Passes every notification on to the other nodes from now on (set once).
    pub fn set_relay(&self, relay: Arc<dyn Relay>) {
        let _ = self.relay.set(relay);
    }

    /// Sends `event` to every connection of `user_id`, on this node and (with a relay) the others.
    pub fn send(&self, user_id: &str, event: UserEvent) {
        if let Some(r) = self.relay.get() {
            r.relay(user_id, &event);
        }
        self.deliver(user_id, event);
    }

    /// Sends `event` to every connection of `user_id` on this node (none: dropped). Never waits: a connection whose
    /// queue is full is dropped.
    pub fn deliver(&self, user_id: &str, event: UserEvent) {
        let mut users = self.users.lock().unwrap_or_else(|e| e.into_inner());
        let Some(v) = users.get_mut(user_id) else { return };
        v.retain(|(id, tx)| match tx.try_send(Box::new(event.clone())) {
            Ok(()) => true,
            Err(mpsc::error::TrySendError::Full(_)) => {
                tracing::info!("user {user_id}: connection {id} does not read its events; dropped");
                self.dropped.fetch_add(1, Ordering::Relaxed);
                false
            }
            Err(mpsc::error::TrySendError::Closed(_)) => false,
        });
        if v.is_empty() {
            users.remove(user_id);
        }
    }

    /// How many connections were dropped for not reading their events.
    pub fn dropped(&self) -> u64 {
        self.dropped.load(Ordering::Relaxed)
    }

    /// Whether `user_id` has an open connection.
    pub fn is_online(&self, user_id: &str) -> bool {
        self.users.lock().unwrap_or_else(|e| e.into_inner()).contains_key(user_id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_connection_that_does_not_read_is_dropped_and_the_others_keep_their_events() {
        let hub = Hub::default();
        let (_g1, mut slow) = hub.register("alice");
        let (_g2, mut fast) = hub.register("alice");
        let ev = || UserEvent::GameFinished { game_id: "g".into() };
        for i in 0..QUEUE + 10 {
            hub.send("alice", ev());
            // The fast connection reads as it goes.
            assert!(fast.try_recv().is_ok(), "event {i} reached the reading connection");
        }
        assert_eq!(hub.dropped(), 1);
        assert!(hub.is_online("alice"), "the reading connection stays");
        // The slow one gets what was queued, then its stream ends: its transport closes it and the client resyncs.
        let mut n = 0;
        while slow.recv().await.is_some() {
            n += 1;
        }
        assert_eq!(n, QUEUE);
        drop(fast);
        hub.send("alice", ev());
        assert!(!hub.is_online("alice"), "a closed connection is forgotten on the next send");
    }
}

impl crate::events::Notifier for Hub {
    fn notify(&self, user_id: &str, event: UserEvent) {
        self.send(user_id, event);
    }

    fn is_online(&self, user_id: &str) -> bool {
        Hub::is_online(self, user_id)
    }
}

/// The relay of a cluster: a user's notification published for the other nodes' connections of that user.
#[derive(Debug)]
pub struct ClusterRelay(pub crate::transport::SharedCluster);

impl Relay for ClusterRelay {
    fn relay(&self, user_id: &str, event: &UserEvent) {
        let relayed =
            crate::events::Relayed { user_id: user_id.to_owned(), event: crate::events::WireUserEvent::of(event) };
        self.0.publish(crate::transport::Topic::Users, crate::transport::encode(&relayed));
    }
}

/// Delivers the notifications other nodes relayed to this node's connections.
pub async fn deliver_relayed(hub: Hub, mut users: mpsc::Receiver<crate::transport::Body>) {
    while let Some(body) = users.recv().await {
        if let Some(crate::events::Relayed { user_id, event }) = crate::transport::decode(&body) {
            hub.deliver(&user_id, event.into_event());
        }
    }
}
