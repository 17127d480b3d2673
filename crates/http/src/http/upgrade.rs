// SPDX-License-Identifier: GPL-3.0-or-later
//! What every WebSocket upgrade (`/ws`, `/ws/analysis`) checks before it accepts, in one place: the `Origin`
//! header (a page of another site may not open a socket with the user's cookie), then the credentials (cookie or
//! bearer token, as for HTTP); and the per-connection message limit that both connections apply to client frames.

use std::num::NonZeroU32;

use axum::http::HeaderMap;
use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use crate::AppState;
use crate::api_error::ApiError;
use crate::auth::Auth;

/// The upgrade's checks: a foreign `Origin` is refused first, then bad credentials; no credentials is `None`.
pub async fn admit(state: &AppState, headers: &HeaderMap) -> Result<Option<Auth>, ApiError> {
    crate::security::check_origin(headers, &state.config.public_url)?;
    crate::auth::authenticate(state, headers).await
}

/// [`admit`] for an endpoint that needs a user: no credentials is `unauthorized`.
pub async fn admit_user(state: &AppState, headers: &HeaderMap) -> Result<Auth, ApiError> {
    admit(state, headers).await?.ok_or_else(ApiError::unauthorized)
}

/// A connection's limit on client frames: `ws_messages_per_sec`, with bursts of `ws_burst` (at least one each).
pub fn message_limiter(limits: &crate::Limits) -> DefaultDirectRateLimiter {
    RateLimiter::direct(
        Quota::per_second(NonZeroU32::new(limits.ws_messages_per_sec).unwrap_or(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(limits.ws_burst).unwrap_or(NonZeroU32::MIN)),
    )
}
