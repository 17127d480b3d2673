// SPDX-License-Identifier: GPL-3.0-or-later
//! The cluster's list of games being played (`guoxiang_domain::transport::LiveList`): a Redis hash with one entry
//! per node, valid until the time the node put in it.

use std::collections::HashMap;

use guoxiang_protocol::LiveGame;
use serde::Deserialize;

use guoxiang_domain::transport::{LiveList, Pending};

use crate::Broker;

/// The hash of every node's games being played (field: the node; value: JSON `{until_ms, games}`).
const LIVE_GAMES: &str = "gx:live";

impl Broker {
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
