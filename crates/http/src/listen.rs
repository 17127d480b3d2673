//! The accept loop: HTTP/1.1 connections (and their WebSocket upgrades) with the limits a public server needs
//! against slow or greedy clients. axum's own `serve` sets no timer, so a client that sends its headers one byte a
//! minute, or opens thousands of idle connections, holds them for ever.
//!
//! - **Header read timeout**: the request line and headers must arrive within [`ConnLimits::header_read`] of the
//!   connection waiting for them — also between two requests on a kept-alive connection, so it is the idle
//!   timeout too. (hyper's timer; an upgraded WebSocket is no longer HTTP and has its own keep-alive.)
//! - **Body read timeout**: a request body must arrive within [`ConnLimits::body_read`] (then 408).
//! - **Connections per client address**, and in all: over the cap a new connection is closed at once, so one
//!   client's flood cannot take every descriptor. A failing `accept` (out of descriptors) backs off instead of
//!   spinning, and the connections already open go on. The count is taken when a connection is accepted, before
//!   any header, so its address is the TCP peer's: a trusted proxy's connections ([`serve_with_proxies`]) carry
//!   many clients and count in the total only — limiting connections per client is then the proxy's work
//!   (`docs/deploy.md`). Per-request limits use the forwarded client ([`crate::client`]).

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::extract::Request;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use ipnet::IpNet;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

/// Connection limits.
#[derive(Clone, Copy, Debug)]
pub struct ConnLimits {
    /// Time to send a request's headers (and the idle time allowed between requests).
    pub header_read: Duration,
    /// Time to send a request's body.
    pub body_read: Duration,
    /// Open connections per client address.
    pub per_ip: usize,
    /// Open connections in all.
    pub total: usize,
}

impl Default for ConnLimits {
    /// 10 s for headers, 20 s for a body, 256 connections per address, 20,000 in all.
    fn default() -> ConnLimits {
        ConnLimits {
            header_read: Duration::from_secs(10),
            body_read: Duration::from_secs(20),
            per_ip: 256,
            total: 20_000,
        }
    }
}

/// Open connections by client address.
#[derive(Debug, Default)]
struct Counts {
    by_ip: HashMap<IpAddr, usize>,
    total: usize,
}

/// One counted connection; uncounted when dropped. Requests carry it as an extension, so that a WebSocket, which
/// outlives its HTTP connection, keeps counting against its address while it is open.
#[derive(Clone, Debug)]
pub struct ConnSlot(#[allow(dead_code)] Arc<Slot>);

#[derive(Debug)]
struct Slot {
    counts: Arc<Mutex<Counts>>,
    /// The address it counts against; `None` for a trusted proxy's connection (counted in the total only).
    ip: Option<IpAddr>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        c.total = c.total.saturating_sub(1);
        if let Some(ip) = self.ip
            && let Some(n) = c.by_ip.get_mut(&ip)
        {
            *n -= 1;
            if *n == 0 {
                c.by_ip.remove(&ip);
            }
        }
    }
}

/// A slot for a connection from `ip` (`None`: a trusted proxy, held to the total only), if the caps allow one.
fn take_slot(counts: &Arc<Mutex<Counts>>, ip: Option<IpAddr>, limits: &ConnLimits) -> Option<ConnSlot> {
    let mut c = counts.lock().unwrap_or_else(|e| e.into_inner());
    if c.total >= limits.total {
        return None;
    }
    if let Some(ip) = ip {
        let n = c.by_ip.get(&ip).copied().unwrap_or(0);
        if n >= limits.per_ip {
            return None;
        }
        c.by_ip.insert(ip, n + 1);
    }
    c.total += 1;
    Some(ConnSlot(Arc::new(Slot { counts: counts.clone(), ip })))
}

/// Serves `app` on `listener` until `shutdown` resolves; then stops accepting, lets open requests finish (for at
/// most `grace`), and returns. Handlers see the TCP peer as `ConnectInfo<SocketAddr>` (the client, as
/// [`crate::client::ClientIp`] names it, is computed from it).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    shutdown: impl Future<Output = ()>,
    grace: Duration,
) {
    serve_with_proxies(listener, app, limits, &[], shutdown, grace).await;
}

/// [`serve`], where connections from the proxies in `trusted` are not held to one address's share of
/// connections (they count in the total).
pub async fn serve_with_proxies(
    listener: TcpListener,
    app: Router,
    limits: ConnLimits,
    trusted: &[IpNet],
    shutdown: impl Future<Output = ()>,
    grace: Duration,
) {
    let app = app.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(limits.body_read));
    let counts = Arc::new(Mutex::new(Counts::default()));
    let (stop_tx, stop_rx) = watch::channel(false);
    let mut refused: u64 = 0;
    tokio::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            () = &mut shutdown => break,
        };
        let (tcp, peer) = match accepted {
            Ok(a) => a,
            Err(e) => {
                // Out of descriptors (EMFILE/ENFILE) or a connection reset before it was accepted: wait a little
                // rather than spin; the open connections go on.
                tracing::warn!("accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let ip = peer.ip().to_canonical();
        let counted = (!trusted.iter().any(|n| n.contains(&ip))).then_some(ip);
        let Some(slot) = take_slot(&counts, counted, &limits) else {
            refused += 1;
            if refused.is_power_of_two() {
                tracing::warn!("connection limit: refused {refused} connections so far (last from {peer})");
            }
            drop(tcp);
            continue;
        };
        // Without TCP_NODELAY a move's events and its ack, written back to back, wait for the client's delayed ACK.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!("TCP_NODELAY: {e}");
        }
        tokio::spawn(serve_connection(tcp, peer, slot, app.clone(), limits.header_read, stop_rx.clone()));
    }
    drop(listener);
    // Fails only when no connection task is left to tell.
    let _ = stop_tx.send(true);
    // Requests in flight finish; idle connections close at once.
    let deadline = tokio::time::Instant::now() + grace;
    while counts.lock().unwrap_or_else(|e| e.into_inner()).total > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Serves one accepted connection with `app` until it closes; once `stop` changes, lets its open request finish and
/// closes it. The connection's slot is given back when this ends.
async fn serve_connection(
    tcp: TcpStream,
    peer: SocketAddr,
    slot: ConnSlot,
    app: Router,
    header_read: Duration,
    mut stop: watch::Receiver<bool>,
) {
    let service_slot = slot.clone();
    let _slot = slot;
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(service_slot.clone());
        let app = app.clone();
        async move { Ok::<_, Infallible>(app.oneshot(req.map(Body::new)).await.unwrap_or_else(|e| match e {})) }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(header_read)
        .serve_connection(TokioIo::new(tcp), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        tokio::select! {
            r = conn.as_mut() => {
                if let Err(e) = r {
                    tracing::debug!("connection from {peer}: {e}");
                }
                break;
            }
            _ = stop.changed(), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}
