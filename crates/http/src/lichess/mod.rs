//! The Lichess-compatible HTTP API: the subset of lichess.org's API that bots (lichess-bot), board apps and client
//! libraries (berserk) use, at the same paths with the same parameters and answers, so that they work with this
//! server by changing the base URL. Described in `docs/api.md`, section "HTTP API (Lichess-compatible)".
//!
//! | module | what lives there |
//! |---|---|
//! | `json` | the wire shapes, as pure functions (status names, `gameState`, challenges, clock parameters) |
//! | `account` | `/api/account`, `/api/account/playing`, the bot upgrade, token test, users' status |
//! | `events` | the event stream (`/api/stream/event`) and board seeks |
//! | `challenge` | challenges to a user, open challenges, the AI |
//! | `game` | the board and bot game endpoints: the game stream, moves and the other game commands |
//! | `watch` | anyone's stream of a game's moves (`/api/stream/game/{id}`), three moves late while it goes on |
//!
//! Requests are form-encoded (as Lichess) or JSON; query parameters count too. Streams are NDJSON with a newline
//! every few seconds to keep the connection alive.

mod account;
mod challenge;
mod events;
mod game;
pub mod json;
pub mod watch;
use crate::params::bad_param;
pub use crate::params::{comma_list, parse_bool};
pub use crate::users::{title, user_json};

use std::collections::HashMap;
use std::convert::Infallible;
use std::time::Duration;

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Request};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use guoxiang_game::PlayerRef;
use tokio::sync::mpsc;

use crate::AppState;
use crate::api_error::ApiError;
use crate::auth::Auth;

/// Streams send a newline this often when there is nothing else to say (Lichess does the same).
pub const KEEP_ALIVE: Duration = Duration::from_secs(6);

/// The Lichess-compatible API: every submodule's router, merged.
pub fn routes() -> Router<AppState> {
    Router::new()
        .merge(account::routes())
        .merge(events::routes())
        .merge(watch::routes())
        .merge(challenge::routes())
        .merge(game::routes())
}

/// Which of the two game APIs a request came through (from its path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// `/api/board/…`: scope `board:play`.
    Board,
    /// `/api/bot/…`: scope `bot:play`.
    Bot,
}

impl Api {
    pub fn of_path(path: &str) -> Api {
        if path.starts_with("/api/bot/") { Api::Bot } else { Api::Board }
    }

    pub fn scope(self) -> &'static str {
        match self {
            Api::Board => "board:play",
            Api::Bot => "bot:play",
        }
    }
}

/// Accepts a request whose token has any of `scopes` (as Lichess, where e.g. accepting a challenge works with
/// `challenge:write`, `bot:play` or `board:play`); refuses with 403 `Missing scope` naming the first.
pub fn require_any(auth: &Auth, scopes: &[&str]) -> Result<(), ApiError> {
    if scopes.iter().any(|s| auth.require(s).is_ok()) {
        return Ok(());
    }
    auth.require(scopes.first().copied().unwrap_or("board:play"))
}

/// The authenticated user as a player.
pub fn player_of(auth: &Auth) -> PlayerRef {
    PlayerRef::human(auth.user.id.clone(), auth.user.name.clone())
}

/// Completes when the process is asked to stop (Ctrl-C, SIGTERM), as the server's graceful shutdown does. The
/// streams of this API end then: a graceful shutdown waits for every answer to finish, and they never would.
pub async fn stopping() {
    let ctrl_c = async {
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {},
        () = term => {},
    }
}

/// The `{"ok": true}` answer.
pub fn ok() -> axum::Json<serde_json::Value> {
    axum::Json(serde_json::json!({"ok": true}))
}

/// A request's parameters: the query string, then the body (form-encoded, or a JSON object whose `null`s are
/// left out and whose other values become strings). Later values win.
#[derive(Clone, Debug, Default)]
pub struct Params(pub HashMap<String, String>);

impl Params {
    pub fn get(&self, k: &str) -> Option<&str> {
        self.0.get(k).map(String::as_str)
    }

    /// A boolean (`true`/`false`, also `1`/`0`, `yes`/`no`); absent → `None`.
    pub fn bool(&self, k: &str) -> Result<Option<bool>, ApiError> {
        parse_bool(k, self.get(k))
    }

    /// A whole number; absent or empty → `None`.
    pub fn u32(&self, k: &str) -> Result<Option<u32>, ApiError> {
        match self.get(k) {
            None | Some("") => Ok(None),
            Some(v) => v.trim().parse().map(Some).map_err(|_| bad_param(k, v)),
        }
    }

    fn extend_urlencoded(&mut self, s: &str) {
        self.0.extend(parse_urlencoded(s));
    }

    fn extend_json(&mut self, body: &[u8]) -> Result<(), ApiError> {
        let v: serde_json::Value = serde_json::from_slice(body)
            .map_err(|e| ApiError::bad_request("bad_request", "JSON 格式错误", format!("invalid JSON body: {e}")))?;
        let serde_json::Value::Object(m) = v else {
            return Err(ApiError::bad_request("bad_request", "JSON 须为对象", "the JSON body must be an object"));
        };
        for (k, v) in m {
            let s = match v {
                serde_json::Value::Null => continue,
                serde_json::Value::String(s) => s,
                v => v.to_string(),
            };
            self.0.insert(k, s);
        }
        Ok(())
    }
}

/// Decodes `application/x-www-form-urlencoded` (`+` is a space, `%XX` a byte; invalid UTF-8 is replaced).
pub fn parse_urlencoded(s: &str) -> Vec<(String, String)> {
    fn decode(s: &str) -> String {
        let b = s.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < b.len() && b[i + 1].is_ascii_hexdigit() && b[i + 2].is_ascii_hexdigit() => {
                    let hex = |c: u8| (c as char).to_digit(16).unwrap_or(0) as u8;
                    out.push(hex(b[i + 1]) * 16 + hex(b[i + 2]));
                    i += 2;
                }
                c => out.push(c),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    }
    s.split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (decode(k), decode(v))
        })
        .collect()
}

impl<S: Send + Sync> FromRequest<S> for Params {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Params, ApiError> {
        let mut p = Params::default();
        if let Some(q) = req.uri().query() {
            p.extend_urlencoded(q);
        }
        let json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.starts_with("application/json"));
        let body = Bytes::from_request(req, state).await.map_err(|e| {
            ApiError::bad_request("bad_request", "请求体无法读取", format!("cannot read the body: {e}"))
        })?;
        if body.iter().all(u8::is_ascii_whitespace) {
            return Ok(p);
        }
        if json {
            p.extend_json(&body)?;
        } else {
            p.extend_urlencoded(&String::from_utf8_lossy(&body));
        }
        Ok(p)
    }
}

/// A streamed answer: whatever the producer sends on the returned channel, as `content_type`.
pub fn stream_response(content_type: &'static str) -> (mpsc::Sender<String>, Response) {
    let (tx, mut rx) = mpsc::channel::<String>(64);
    let stream = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx)).map(Ok::<_, Infallible>);
    let resp = ([(header::CONTENT_TYPE, content_type)], Body::from_stream(stream)).into_response();
    (tx, resp)
}

/// A player's rating in a speed (`ultrabullet` counts as bullet), the default for an unrated speed.
pub async fn rating(state: &AppState, user_id: &str, speed: &str) -> json::Rating {
    let default = guoxiang_ratings::Glicko::default();
    let speed = if speed == "ultrabullet" { "bullet" } else { speed };
    let row = state.store.ratings(user_id).await.ok().and_then(|rows| rows.into_iter().find(|r| r.speed == speed));
    match row {
        Some(r) => (r.rating.round() as i64, r.deviation > 110.0),
        None => (default.rating.round() as i64, default.is_provisional()),
    }
}

/// The titles of a game's players (engines: none).
pub async fn titles(state: &AppState, white: &PlayerRef, black: &PlayerRef) -> [Option<&'static str>; 2] {
    let mut out = [None; 2];
    for (i, p) in [white, black].into_iter().enumerate() {
        if !p.is_engine {
            out[i] = title(state, &p.id).await;
        }
    }
    out
}

/// The ratings of a game's players in its speed (engines: 0).
pub async fn ratings(state: &AppState, white: &PlayerRef, black: &PlayerRef, speed: &str) -> [json::Rating; 2] {
    let mut out = [(0, false); 2];
    for (i, p) in [white, black].into_iter().enumerate() {
        if !p.is_engine {
            out[i] = rating(state, &p.id, speed).await;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urlencoded() {
        let v = parse_urlencoded("clock.limit=300&clock.increment=2&fen=8%2F8+w&empty=&flag&bad=%zz%");
        assert_eq!(
            v,
            [
                ("clock.limit".to_owned(), "300".to_owned()),
                ("clock.increment".to_owned(), "2".to_owned()),
                ("fen".to_owned(), "8/8 w".to_owned()),
                ("empty".to_owned(), String::new()),
                ("flag".to_owned(), String::new()),
                ("bad".to_owned(), "%zz%".to_owned()),
            ]
        );
        assert_eq!(parse_urlencoded("a=%E4%B8%AD"), [("a".to_owned(), "中".to_owned())]);
        assert!(parse_urlencoded("").is_empty());
    }

    #[test]
    fn json_params() {
        let mut p = Params::default();
        p.extend_json(br#"{"rated": true, "clock.limit": 300, "days": null, "color": "white"}"#).unwrap();
        assert_eq!(p.bool("rated").unwrap(), Some(true));
        assert_eq!(p.u32("clock.limit").unwrap(), Some(300));
        assert_eq!(p.get("days"), None);
        assert_eq!(p.get("color"), Some("white"));
        assert!(p.extend_json(b"[1]").is_err());
        assert!(p.u32("color").is_err());
        assert!(p.bool("color").is_err());
    }
}
