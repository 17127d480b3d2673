// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /api/server/stats`: what the server process costs now (for the load generator and operators).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// `GET /api/server/stats` (the server's own machine and administrators only).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ServerStats {
    /// Resident memory (`null` where `/proc` cannot tell).
    pub rss_bytes: Option<u64>,
    /// User and system CPU time so far, ms.
    pub cpu_ms: Option<u64>,
    /// Games held in memory, and those of them not over.
    pub games_in_memory: u64,
    pub games_in_progress: u64,
}
