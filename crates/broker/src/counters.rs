// SPDX-License-Identifier: GPL-3.0-or-later
//! The shared counters (`guoxiang_domain::transport::SharedCounters`) in Redis: fixed-window event counts for the
//! cluster-wide rate limits, and sorted sets of recent events for the failed logins of an account.

use guoxiang_domain::transport::{Pending, SharedCounters};

use crate::Broker;

impl Broker {
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
