//! Cross-site and abuse protection: the origin check and the rate limiters.
//!
//! Browsers send `Origin` on WebSocket upgrades and on cross-site POSTs; a request whose origin is not this server's
//! own host is refused, so another site cannot act with a visitor's cookie (session cookies are also `SameSite=Lax`).
//! Requests without `Origin` (API clients, curl) are not browsers acting for a user and pass.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::Request;
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::DefaultClock;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::error::ApiError;

/// Refuses a request whose `Origin` names another host than `Host`.
pub fn check_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let origin = origin.to_str().unwrap_or_default();
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest).trim_end_matches('/');
    if !host.is_empty() && origin_host.eq_ignore_ascii_case(host) {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "forbidden_origin",
        "拒绝跨站请求",
        format!("cross-site request refused: origin {origin:?} is not this server ({host})"),
    ))
}

/// Middleware: the origin check for every state-changing request.
pub async fn origin_layer(req: Request, next: Next) -> Response {
    if !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        && let Err(e) = check_origin(req.headers())
    {
        return e.into_response();
    }
    next.run(req).await
}

type Keyed<K> = RateLimiter<K, DefaultKeyedStateStore<K>, DefaultClock>;

/// The server's rate limiters.
#[derive(Debug, Clone)]
pub struct Limiters {
    login: Arc<Keyed<IpAddr>>,
    register: Arc<Keyed<IpAddr>>,
    moves: Arc<Keyed<String>>,
    analyses: Arc<Keyed<String>>,
    guests: Arc<Keyed<IpAddr>>,
}

fn quota(per_minute: u32, burst: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

impl Limiters {
    pub fn new(limits: &crate::Limits) -> Limiters {
        Limiters {
            login: Arc::new(RateLimiter::keyed(quota(limits.logins_per_minute, limits.logins_per_minute))),
            register: Arc::new(RateLimiter::keyed(quota(
                limits.registrations_per_hour.div_ceil(60).max(1),
                limits.registrations_per_hour,
            ))),
            moves: Arc::new(RateLimiter::keyed(quota(
                limits.api_moves_per_minute,
                limits.api_moves_per_minute / 4 + 1,
            ))),
            analyses: Arc::new(RateLimiter::keyed(quota(limits.analyses_per_minute, limits.analyses_per_minute / 2))),
            guests: Arc::new(RateLimiter::keyed(quota(limits.guests_per_minute, limits.guests_per_minute * 10))),
        }
    }

    pub fn login(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.login.check_key(&ip).map_err(|_| ApiError::too_many())
    }

    pub fn register(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.register.check_key(&ip).map_err(|_| ApiError::too_many())
    }

    /// New guests, per address.
    pub fn guest(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.guests.check_key(&ip).map_err(|_| ApiError::too_many())
    }

    /// Analyses, per user.
    pub fn analysis(&self, user_id: &str) -> Result<(), ApiError> {
        self.analyses.check_key(&user_id.to_owned()).map_err(|_| ApiError::too_many())
    }

    /// Moves and game commands through the HTTP API, per user.
    pub fn api_move(&self, user_id: &str) -> Result<(), ApiError> {
        self.moves.check_key(&user_id.to_owned()).map_err(|_| ApiError::too_many())
    }
}
