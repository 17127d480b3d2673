//! Per-user notifications that are not about one game's moves: a game started, a game finished, a challenge
//! changed, a rematch was offered. Every open connection of a user (browser tabs, Lichess event streams) gets them.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use guoxiang_core::Color;
use tokio::sync::mpsc;

use crate::lobby::ChallengeInfo;

/// Something for a user.
#[derive(Clone, Debug)]
pub enum UserEvent {
    GameStarted { game_id: String, color: Color },
    GameFinished { game_id: String },
    Challenge(Box<ChallengeInfo>),
    RematchOffered { game_id: String, by: Color },
    RematchDeclined { game_id: String, by: Color },
}

type Senders = HashMap<String, Vec<(u64, mpsc::UnboundedSender<UserEvent>)>>;

/// The user → connections map.
#[derive(Clone, Debug, Default)]
pub struct Hub {
    users: Arc<Mutex<Senders>>,
    next: Arc<AtomicU64>,
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
    /// Registers a connection of `user_id`.
    pub fn register(&self, user_id: &str) -> (HubGuard, mpsc::UnboundedReceiver<UserEvent>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        self.users.lock().unwrap_or_else(|e| e.into_inner()).entry(user_id.to_owned()).or_default().push((id, tx));
        (HubGuard { hub: self.clone(), user_id: user_id.to_owned(), id }, rx)
    }

    /// Sends `event` to every connection of `user_id` (none: dropped).
    pub fn send(&self, user_id: &str, event: UserEvent) {
        let users = self.users.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(v) = users.get(user_id) {
            for (_, tx) in v {
                let _ = tx.send(event.clone());
            }
        }
    }

    /// Whether `user_id` has an open connection.
    pub fn is_online(&self, user_id: &str) -> bool {
        self.users.lock().unwrap_or_else(|e| e.into_inner()).contains_key(user_id)
    }
}
