//! Who may call what: one table of every route of the router (method and path, as the router names them) and one
//! of every WebSocket message, each with what a personal API token needs for it. One layer ([`layer`]) applies the
//! route table to every request before its handler runs; the WebSocket applies the message table to every frame
//! ([`allow_message`]).
//!
//! A session — a browser's cookie, or a session secret sent as a bearer — may do whatever its user may. A personal
//! token may do only what its scopes allow: a route or message that is missing from the tables refuses tokens, so a
//! new route is closed to tokens until someone decides what it needs. Whether the *user* may (an organiser's powers,
//! a player's own game) is still the handler's and the domain's question; this layer answers only "may this
//! credential speak for the user here".
//!
//! `docs/api.md` shows both tables as [`markdown`] writes them (a test keeps it so).

use axum::extract::{MatchedPath, Request, State};
use axum::http::{HeaderMap, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use guoxiang_protocol::ClientMessage;

use crate::AppState;
use crate::api_error::ApiError;
use crate::auth::{Auth, Via};

/// What a token needs for a route or a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    /// Anyone, signed in or not; a token of any scope.
    Open,
    /// A signed-in user; a token of any scope (the user's own account, read).
    SignedIn,
    /// A token with one of these scopes (signed-in sessions, and visitors where the handler allows them, need none).
    Scope(&'static [&'static str]),
    /// A session, never a token: tokens, passwords and sessions are their owner's to manage in person.
    Session,
}

/// One route: its method, its path as the router names it, what a token needs.
#[derive(Clone, Copy, Debug)]
pub struct Rule {
    pub method: &'static str,
    pub path: &'static str,
    pub need: Need,
}

const fn r(method: &'static str, path: &'static str, need: Need) -> Rule {
    Rule { method, path, need }
}

use Need::{Open, Scope, Session, SignedIn};

const PLAY: &[&str] = &["board:play"];
const BOT: &[&str] = &["bot:play"];
const CHALLENGE_READ: &[&str] = &["challenge:read"];
/// Starting or answering a challenge (as Lichess: `challenge:write`, or a board or bot token).
const CHALLENGE_WRITE: &[&str] = &["challenge:write", "bot:play", "board:play"];
const EVENTS: &[&str] = &["challenge:read", "bot:play", "board:play"];
const LEARN_READ: &[&str] = &["learn:read", "learn:write"];
const LEARN_WRITE: &[&str] = &["learn:write"];
const PUZZLE_READ: &[&str] = &["puzzle:read", "puzzle:write"];
const PUZZLE_WRITE: &[&str] = &["puzzle:write"];
const PREF_READ: &[&str] = &["preference:read", "preference:write"];
const PREF_WRITE: &[&str] = &["preference:write"];
const TOURNAMENT: &[&str] = &["tournament:write"];
const ARBITER: &[&str] = &["arbiter:write"];
const STUDY_READ: &[&str] = &["study:read", "study:write"];
const STUDY_WRITE: &[&str] = &["study:write"];
const CLASS_READ: &[&str] = &["class:read", "class:write"];
const CLASS_WRITE: &[&str] = &["class:write"];

pub use crate::auth::SCOPES;

/// Every route of the router (a test compares this with the router's routes, both ways).
pub const ROUTES: &[Rule] = &[
    // Accounts.
    r("POST", "/api/guest", Open),
    r("POST", "/api/register", Open),
    r("POST", "/api/login", Open),
    r("POST", "/api/logout", Session),
    r("POST", "/api/logout/all", Session),
    r("POST", "/api/account/password", Session),
    r("GET", "/api/me", SignedIn),
    r("POST", "/api/token", Session),
    r("GET", "/api/tokens", Session),
    r("DELETE", "/api/tokens/{id}", Session),
    r("GET", "/api/levels", Open),
    // The archive.
    r("GET", "/api/user/{name}", Open),
    r("GET", "/api/user/{name}/rating-history", Open),
    r("GET", "/api/user/{name}/current-game", Open),
    r("GET", "/api/user/{name}/games", Open),
    r("GET", "/api/games/user/{name}", Open),
    r("POST", "/api/games/export/_ids", Open),
    r("GET", "/api/crosstable/{a}/{b}", Open),
    r("GET", "/game/export/{id}", Open),
    r("GET", "/api/game/{id}", Open),
    r("GET", "/api/live", Open),
    // Analysis, openings, the explorer.
    r("POST", "/api/analyse", SignedIn),
    r("GET", "/api/opening", Open),
    r("GET", "/api/explorer", Open),
    r("GET", "/ws/analysis", Open),
    // The course, reviews, puzzles.
    r("GET", "/api/learn", Open),
    r("POST", "/api/learn/try", Open),
    r("GET", "/api/learn/progress", Scope(LEARN_READ)),
    r("PUT", "/api/learn/progress", Scope(LEARN_WRITE)),
    r("GET", "/api/game/{id}/review", Open),
    r("POST", "/api/game/{id}/review", Scope(LEARN_WRITE)),
    r("POST", "/api/game/{id}/review/try", Scope(LEARN_WRITE)),
    r("POST", "/api/game/{id}/review/browser", Scope(LEARN_WRITE)),
    r("GET", "/api/review/settings", Scope(PREF_READ)),
    r("PUT", "/api/review/settings", Scope(PREF_WRITE)),
    r("GET", "/api/puzzle/next", Scope(PUZZLE_READ)),
    r("GET", "/api/puzzle/themes", Open),
    r("GET", "/api/puzzle/dashboard", Scope(PUZZLE_READ)),
    r("GET", "/api/puzzle/daily", Open),
    r("GET", "/api/puzzle/{id}", Open),
    r("POST", "/api/puzzle/{id}/try", Scope(PUZZLE_WRITE)),
    r("POST", "/api/puzzle/{id}/round", Scope(PUZZLE_WRITE)),
    // Tournaments.
    r("GET", "/api/tournaments", Open),
    r("POST", "/api/tournaments", Scope(TOURNAMENT)),
    r("POST", "/api/tournaments/import", Scope(TOURNAMENT)),
    r("GET", "/api/tournament/{id}", Open),
    r("POST", "/api/tournament/{id}/join", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/leave", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/start", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/pair", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/result", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/withdraw", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/player", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/players", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/arbiter", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/forbid", Scope(TOURNAMENT)),
    r("POST", "/api/tournament/{id}/bye", Scope(TOURNAMENT)),
    r("GET", "/api/tournament/{id}/pgn", Open),
    r("GET", "/api/tournament/{id}/trf", Open),
    r("GET", "/api/game/{id}/tournament", Open),
    // Studies (a public one is open to anyone; the handlers check who may read or change each).
    r("POST", "/api/study", Scope(STUDY_WRITE)),
    r("GET", "/api/study", Scope(STUDY_READ)),
    r("POST", "/api/study/from-lesson/{lesson}", Scope(STUDY_WRITE)),
    r("GET", "/api/study/{id}", Scope(STUDY_READ)),
    r("PUT", "/api/study/{id}", Scope(STUDY_WRITE)),
    r("DELETE", "/api/study/{id}", Scope(STUDY_WRITE)),
    r("POST", "/api/study/{id}/chapters/pgn", Scope(STUDY_WRITE)),
    r("GET", "/api/study/{id}/chapters/{n}", Scope(STUDY_READ)),
    r("POST", "/api/study/{id}/try", Scope(STUDY_READ)),
    // Classes.
    r("POST", "/api/class", Scope(CLASS_WRITE)),
    r("GET", "/api/class", Scope(CLASS_READ)),
    r("POST", "/api/class/join", Scope(CLASS_WRITE)),
    r("GET", "/api/class/{id}", Scope(CLASS_READ)),
    r("PATCH", "/api/class/{id}", Scope(CLASS_WRITE)),
    r("DELETE", "/api/class/{id}", Scope(CLASS_WRITE)),
    r("POST", "/api/class/{id}/students", Scope(CLASS_WRITE)),
    r("POST", "/api/class/{id}/join-code", Scope(CLASS_WRITE)),
    r("DELETE", "/api/class/{id}/join-code", Scope(CLASS_WRITE)),
    r("DELETE", "/api/class/{id}/students/{username}", Scope(CLASS_WRITE)),
    r("POST", "/api/class/{id}/students/{username}/password", Scope(CLASS_WRITE)),
    // Homework and the class's dashboard.
    r("GET", "/api/class/{id}/assignments", Scope(CLASS_READ)),
    r("POST", "/api/class/{id}/assignments", Scope(CLASS_WRITE)),
    r("DELETE", "/api/class/{id}/assignments/{aid}", Scope(CLASS_WRITE)),
    r("GET", "/api/class/{id}/progress", Scope(CLASS_READ)),
    r("GET", "/api/class/{id}/progress.csv", Scope(CLASS_READ)),
    r("GET", "/api/homework", Scope(CLASS_READ)),
    // The server itself.
    r("GET", "/healthz", Open),
    r("GET", "/readyz", Open),
    r("GET", "/metrics", Open),
    r("GET", "/api/server/stats", Open),
    // The WebSocket: each message is checked against [`MESSAGES`].
    r("GET", "/ws", Open),
    // The Lichess-compatible API.
    r("GET", "/api/account", SignedIn),
    r("GET", "/api/account/playing", SignedIn),
    r("POST", "/api/bot/account/upgrade", Scope(BOT)),
    r("POST", "/api/token/test", Open),
    r("GET", "/api/users/status", Open),
    r("GET", "/api/bot/online", Open),
    r("POST", "/api/users", Open),
    r("GET", "/api/stream/event", Scope(EVENTS)),
    r("POST", "/api/board/seek", Scope(PLAY)),
    r("GET", "/api/stream/game/{id}", Open),
    r("GET", "/api/challenge", Scope(CHALLENGE_READ)),
    r("POST", "/api/challenge/open", Scope(CHALLENGE_WRITE)),
    r("POST", "/api/challenge/ai", Scope(CHALLENGE_WRITE)),
    r("POST", "/api/challenge/{name}", Scope(CHALLENGE_WRITE)),
    r("GET", "/api/challenge/{id}/show", Scope(CHALLENGE_READ)),
    r("POST", "/api/challenge/{id}/accept", Scope(CHALLENGE_WRITE)),
    r("POST", "/api/challenge/{id}/decline", Scope(CHALLENGE_WRITE)),
    r("POST", "/api/challenge/{id}/cancel", Scope(CHALLENGE_WRITE)),
    r("GET", "/api/board/game/stream/{id}", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/move/{uci}", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/abort", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/resign", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/draw/{answer}", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/takeback/{answer}", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/claim-victory", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/claim-victory/", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/claim-draw", Scope(PLAY)),
    r("GET", "/api/board/game/{id}/chat", Scope(PLAY)),
    r("POST", "/api/board/game/{id}/chat", Scope(PLAY)),
    r("GET", "/api/bot/game/stream/{id}", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/move/{uci}", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/abort", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/resign", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/draw/{answer}", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/takeback/{answer}", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/claim-victory", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/claim-victory/", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/claim-draw", Scope(BOT)),
    r("GET", "/api/bot/game/{id}/chat", Scope(BOT)),
    r("POST", "/api/bot/game/{id}/chat", Scope(BOT)),
];

/// Every message of the WebSocket protocol after `hello`, by its `type`, with what a token needs for it.
pub const MESSAGES: &[(&str, Need)] = &[
    ("hello", Open),
    ("ping", Open),
    ("subscribe", Open),
    ("unsubscribe", Open),
    ("explain", Open),
    ("lobby_subscribe", Open),
    ("lobby_unsubscribe", Open),
    ("game", Scope(&["board:play", "bot:play"])),
    ("arbiter", Scope(ARBITER)),
    ("create_seek", Scope(PLAY)),
    ("cancel_seek", Scope(PLAY)),
    ("accept_seek", Scope(PLAY)),
    ("join_pool", Scope(PLAY)),
    ("leave_pool", Scope(PLAY)),
    ("play_computer", Scope(CHALLENGE_WRITE)),
    ("challenge_friend", Scope(CHALLENGE_WRITE)),
    ("accept_challenge", Scope(CHALLENGE_WRITE)),
    ("decline_challenge", Scope(CHALLENGE_WRITE)),
    ("cancel_challenge", Scope(CHALLENGE_WRITE)),
    ("study_follow", Scope(STUDY_READ)),
    ("study_unfollow", Scope(STUDY_READ)),
    ("study_present", Scope(STUDY_WRITE)),
    ("study_release", Scope(STUDY_READ)),
];

/// A token's scopes for the events a signed-in WebSocket is sent (challenges, games starting): as the event stream.
pub const WS_EVENTS: &[&str] = EVENTS;

/// What a token needs for `method path` (the router's path pattern); a route missing from the table is closed to
/// tokens.
pub fn need_of(method: &Method, path: &str) -> Need {
    let found = ROUTES.iter().find(|r| r.path == path && r.method == method.as_str());
    // HEAD is GET without the body.
    let found = found.or_else(|| {
        (method == Method::HEAD).then(|| ROUTES.iter().find(|r| r.path == path && r.method == "GET")).flatten()
    });
    found.map_or(Session, |r| r.need)
}

/// What a token needs for a WebSocket message (by its `type`); an unknown type is closed to tokens.
pub fn need_of_message(kind: &str) -> Need {
    MESSAGES.iter().find(|(k, _)| *k == kind).map_or(Session, |(_, n)| *n)
}

/// Whether `auth` may speak for its user where `need` applies.
pub fn allow(auth: &Auth, need: Need) -> Result<(), ApiError> {
    let Via::Token(scopes) = &auth.via else { return Ok(()) };
    match need {
        Open | SignedIn => Ok(()),
        Scope(any) if any.iter().any(|s| scopes.iter().any(|t| t == s)) => Ok(()),
        Scope(any) => Err(missing_scope(any)),
        Session => Err(ApiError::forbidden(
            "session_required",
            "这里需要登录的会话，个人令牌不能使用",
            "this needs a signed-in session; a personal API token cannot be used here",
        )),
    }
}

fn missing_scope(any: &[&str]) -> ApiError {
    let list = any.join(", ");
    let (zh, en) = if any.len() == 1 {
        (format!("此令牌没有 {list} 权限"), format!("Missing scope: this token lacks {list}"))
    } else {
        (format!("此令牌没有以下任一权限：{list}"), format!("Missing scope: this token needs one of {list}"))
    };
    ApiError::forbidden("missing_scope", zh, en)
}

/// [`allow`] for a WebSocket message.
pub fn allow_message(auth: Option<&Auth>, msg: &ClientMessage) -> Result<(), ApiError> {
    match auth {
        Some(a) => allow(a, need_of_message(msg.kind())),
        None => Ok(()),
    }
}

fn has_bearer(headers: &HeaderMap) -> bool {
    headers.contains_key(header::AUTHORIZATION)
}

/// The layer in front of every route: a request with a credential (a bearer, or the session cookie) is authenticated
/// here, checked against [`ROUTES`] (cookies are sessions, which may do all their user may), refused while a
/// password a teacher reset waits to be replaced ([`crate::http::class::check_password_reset`]), and its [`Auth`]
/// handed to the handler (which then does not look it up again). Requests without a credential pass untouched.
pub async fn layer(State(state): State<AppState>, path: Option<MatchedPath>, mut req: Request, next: Next) -> Response {
    let bearer = has_bearer(req.headers());
    let cookie = crate::auth::cookie_secret(req.headers()).is_some();
    if !bearer && !cookie {
        return next.run(req).await;
    }
    let route = path.as_ref().map_or("", |p| p.as_str()).to_owned();
    let need = path.as_ref().map_or(Session, |p| need_of(req.method(), p.as_str()));
    match crate::auth::authenticate(&state, req.headers()).await {
        Ok(Some(auth)) => {
            if let Err(e) = allow(&auth, need) {
                return e.into_response();
            }
            // A password a teacher reset must be replaced before anything else.
            if let Err(e) = crate::http::class::check_password_reset(&state, &auth, req.method(), &route).await {
                return e.into_response();
            }
            req.extensions_mut().insert(auth);
        }
        Ok(None) => {}
        // A bad bearer on an open route is the handler's to judge (as without this layer).
        Err(e) if need != Open => return e.into_response(),
        Err(_) => {}
    }
    next.run(req).await
}

fn need_text(need: Need) -> String {
    match need {
        Open => "open".to_owned(),
        SignedIn => "signed in; any token".to_owned(),
        Scope(any) => any.iter().map(|s| format!("`{s}`")).collect::<Vec<_>>().join(", "),
        Session => "a session only (no token)".to_owned(),
    }
}

/// Both tables as `docs/api.md` shows them.
pub fn markdown() -> String {
    let mut s = String::from("| method | path | a token needs (any of) |\n|---|---|---|\n");
    for r in ROUTES {
        s.push_str(&format!("| {} | `{}` | {} |\n", r.method, r.path, need_text(r.need)));
    }
    s.push_str("\n| WebSocket message | a token needs (any of) |\n|---|---|\n");
    for (k, n) in MESSAGES {
        s.push_str(&format!("| `{k}` | {} |\n", need_text(*n)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scope_named_in_the_tables_is_a_known_scope_and_every_known_one_is_used() {
        let mut used: Vec<&str> = Vec::new();
        for n in ROUTES.iter().map(|r| r.need).chain(MESSAGES.iter().map(|(_, n)| *n)) {
            if let Scope(any) = n {
                used.extend(any.iter());
            }
        }
        for s in &used {
            assert!(SCOPES.contains(s), "{s} is not in SCOPES");
        }
        for s in SCOPES {
            assert!(*s == "email:read" || used.contains(s), "{s} is never needed");
        }
    }

    #[test]
    fn a_route_or_message_missing_from_the_tables_is_closed_to_tokens() {
        assert_eq!(need_of(&Method::POST, "/api/no/such/route"), Session);
        assert_eq!(need_of(&Method::DELETE, "/api/levels"), Session);
        assert_eq!(need_of(&Method::HEAD, "/api/levels"), Open);
        assert_eq!(need_of_message("no_such_message"), Session);
    }

    #[test]
    fn every_message_of_the_protocol_is_in_the_table() {
        for k in ClientMessage::KINDS {
            assert!(MESSAGES.iter().any(|(m, _)| m == k), "{k} is missing from MESSAGES");
        }
        assert_eq!(MESSAGES.len(), ClientMessage::KINDS.len());
    }

    #[test]
    fn the_tables_name_each_route_and_message_once() {
        let mut seen = std::collections::HashSet::new();
        for r in ROUTES {
            assert!(seen.insert((r.method, r.path)), "{} {} twice", r.method, r.path);
        }
        let mut seen = std::collections::HashSet::new();
        for (k, _) in MESSAGES {
            assert!(seen.insert(k), "{k} twice");
        }
    }
}
