// SPDX-License-Identifier: GPL-3.0-or-later
//! Ids of the connections that hold seeks and pool entries (WebSocket connections, Lichess seek streams), unique
//! in a cluster.

use std::sync::atomic::{AtomicU64, Ordering};

/// A connection's id, unique in a cluster: the lobby of a cluster runs on one node and ties seeks and pool entries
/// to the connection that made them, whichever node it is on.
pub fn connection_id(counter: &AtomicU64) -> u64 {
    static NODE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    // 24 random bits for this process above 40 bits of its own count.
    let node = *NODE.get_or_init(|| u64::from(rand::random::<u32>() & 0x00ff_ffff) << 40);
    node | (counter.fetch_add(1, Ordering::Relaxed) & ((1 << 40) - 1))
}
