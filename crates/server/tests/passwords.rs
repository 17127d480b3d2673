//! Passwords and sessions (issue 41): changing the password ends the user's other sessions and their connections,
//! "sign out everywhere" ends them all, sessions end when unused for the idle limit, weak passwords are refused,
//! and no answer that carries a secret may be cached.

mod common;

use common::{TestServer, temp_db};
use reqwest::header::CACHE_CONTROL;
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse";
const NEW_PASSWORD: &str = "queen-side castle 42";
const DAY_MS: i64 = 86_400_000;

/// A POST with a session cookie, or a bearer (session secret or token).
async fn post(
    server: &TestServer,
    path: &str,
    body: Value,
    cookie: Option<&str>,
    bearer: Option<&str>,
) -> reqwest::Response {
    let mut r = reqwest::Client::new().post(server.url(path)).json(&body);
    if let Some(s) = cookie {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    if let Some(b) = bearer {
        r = r.header("Authorization", format!("Bearer {b}"));
    }
    r.send().await.unwrap()
}

/// `GET /api/me`'s status with a session cookie.
async fn me(server: &TestServer, session: &str) -> u16 {
    let r = reqwest::Client::new().get(server.url("/api/me")).header("Cookie", format!("gx_session={session}"));
    r.send().await.unwrap().status().as_u16()
}

/// Logs in; the status and, on success, the new session.
async fn login(server: &TestServer, name: &str, password: &str) -> (u16, Option<String>) {
    let r = post(server, "/api/login", json!({"username": name, "password": password}), None, None).await;
    let status = r.status().as_u16();
    let body: Value = r.json().await.unwrap();
    (status, body["session"].as_str().map(str::to_owned))
}

async fn status_and_body(r: reqwest::Response) -> (u16, Value) {
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

#[tokio::test]
async fn changing_the_password_ends_the_other_sessions_and_their_sockets() {
    let server = TestServer::start(&temp_db("pw_change")).await;
    let (_, mine) = server.register("Changer").await;
    let (_, other) = login(&server, "changer", PASSWORD).await;
    let other = other.unwrap();
    let mut ws_mine = server.ws(&mine).await;
    let mut ws_other = server.ws(&other).await;
    let token: Value =
        post(&server, "/api/token", json!({"scopes": ["board:play"]}), Some(&mine), None).await.json().await.unwrap();
    let token = token["token"].as_str().unwrap().to_owned();
    let change = |current: &str, new: &str| json!({"current": current, "new": new});

    // A personal token cannot change the password, whatever its scopes.
    let (status, body) = status_and_body(
        post(&server, "/api/account/password", change(PASSWORD, NEW_PASSWORD), None, Some(&token)).await,
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (403, Some("session_required")), "{body}");
    // A wrong current password; a weak new one (said in both languages).
    let (status, body) = status_and_body(
        post(&server, "/api/account/password", change("not it at all", NEW_PASSWORD), Some(&mine), None).await,
    )
    .await;
    assert_eq!((status, body["code"].as_str()), (403, Some("wrong_password")), "{body}");
    let (status, body) =
        status_and_body(post(&server, "/api/account/password", change(PASSWORD, "password1"), Some(&mine), None).await)
            .await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_password")), "{body}");
    assert!(!body["message_zh"].as_str().unwrap().is_empty() && body["error"].as_str().unwrap().contains("common"));
    assert_eq!(me(&server, &other).await, 200, "nothing changed yet");

    let r = post(&server, "/api/account/password", change(PASSWORD, NEW_PASSWORD), Some(&mine), None).await;
    assert_eq!(r.headers().get(CACHE_CONTROL).unwrap(), "no-store");
    let (status, body) = status_and_body(r).await;
    assert_eq!((status, body["ended"].as_u64()), (200, Some(1)), "{body}");
    // The other session and its socket are gone; the caller's stay.
    assert_eq!(me(&server, &other).await, 401);
    assert!(ws_other.closed().await, "the other session's socket was closed");
    assert_eq!(me(&server, &mine).await, 200);
    let r = ws_mine.request(json!({"t": "lobby_subscribe"})).await;
    assert_eq!(r["t"], "ack", "{r}");
    // The old password no longer logs in; the new one does.
    assert_eq!(login(&server, "changer", PASSWORD).await.0, 401);
    assert_eq!(login(&server, "changer", NEW_PASSWORD).await.0, 200);
}

#[tokio::test]
async fn a_wrong_current_password_counts_as_a_wrong_login() {
    let server = TestServer::start(&temp_db("pw_wrong")).await;
    let (_, session) = server.register("Guessed").await;
    let body = json!({"current": "one more guess", "new": NEW_PASSWORD});
    for i in 0..10 {
        let r = post(&server, "/api/account/password", body.clone(), Some(&session), None).await;
        assert_eq!(r.status(), 403, "guess {i}");
    }
    // The account is paused, for a password change and a login alike, even with the right password.
    let right = json!({"current": PASSWORD, "new": NEW_PASSWORD});
    assert_eq!(post(&server, "/api/account/password", right, Some(&session), None).await.status(), 429);
    assert_eq!(login(&server, "guessed", PASSWORD).await.0, 429);
}

#[tokio::test]
async fn guests_have_no_password_to_change() {
    let server = TestServer::start(&temp_db("pw_guest")).await;
    let (_, session) = server.guest().await;
    let body = json!({"current": "", "new": NEW_PASSWORD});
    let (status, body) =
        status_and_body(post(&server, "/api/account/password", body, Some(&session), None).await).await;
    assert_eq!((status, body["code"].as_str()), (403, Some("login_required")), "{body}");
}

#[tokio::test]
async fn signing_out_everywhere_ends_every_session_but_not_the_tokens() {
    let server = TestServer::start(&temp_db("pw_all")).await;
    let (_, first) = server.register("Everywhere").await;
    let (_, second) = login(&server, "everywhere", PASSWORD).await;
    let second = second.unwrap();
    let mut ws_first = server.ws(&first).await;
    let mut ws_second = server.ws(&second).await;
    let token: Value =
        post(&server, "/api/token", json!({"scopes": ["board:play"]}), Some(&first), None).await.json().await.unwrap();
    let token = token["token"].as_str().unwrap().to_owned();
    assert_eq!(post(&server, "/api/logout/all", json!({}), None, Some(&token)).await.status(), 403);

    // As a bearer session (an API client's).
    let r = post(&server, "/api/logout/all", json!({}), None, Some(&second)).await;
    assert_eq!(r.headers().get(CACHE_CONTROL).unwrap(), "no-store");
    let cookie = r.headers().get("set-cookie").unwrap().to_str().unwrap().to_owned();
    assert!(cookie.starts_with("gx_session=;") && cookie.contains("Max-Age=0"), "{cookie}");
    let (status, body) = status_and_body(r).await;
    assert_eq!((status, body["ended"].as_u64()), (200, Some(2)), "{body}");
    assert_eq!(me(&server, &first).await, 401);
    assert_eq!(me(&server, &second).await, 401);
    assert!(ws_first.closed().await && ws_second.closed().await, "both sessions' sockets were closed");
    // The token is revoked on its own (the tokens page, or `guoxiang token revoke`).
    let r = reqwest::Client::new().get(server.url("/api/account")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn a_session_unused_for_the_idle_limit_is_refused() {
    let server = TestServer::start_with(&temp_db("pw_idle"), |c| c.session_idle_ms = 2 * DAY_MS as u64).await;
    let (_, stale) = server.register("Sleepy").await;
    let (_, fresh) = login(&server, "sleepy", PASSWORD).await;
    let fresh = fresh.unwrap();
    let store = &server.state.store;
    let now = guoxiang_server::time::now_ms() as i64;
    let hash = |s: &str| guoxiang_server::auth::hash_secret(s);
    // Unused for two days: refused (as a cookie and as a bearer), though 28 days are left of its 30.
    store.set_session_last_used(&hash(&stale), now - 2 * DAY_MS).await.unwrap();
    assert_eq!(me(&server, &stale).await, 401);
    let r = reqwest::Client::new().get(server.url("/api/me")).bearer_auth(&stale).send().await.unwrap();
    assert_eq!(r.status(), 401);
    // Unused for a day and a half: still good, and the use is recorded, so it has two days again.
    store.set_session_last_used(&hash(&fresh), now - 3 * DAY_MS / 2).await.unwrap();
    assert_eq!(me(&server, &fresh).await, 200);
    let used = store.session_last_used(&hash(&fresh)).await.unwrap().unwrap();
    assert!(used >= now, "the use was recorded: {used} < {now}");
    // The housekeeping removes the idle session.
    let (sessions, _) = guoxiang_server::housekeep(store, now, server.state.config.session_idle_ms).await.unwrap();
    assert_eq!(sessions, 1);
    assert_eq!(store.session_last_used(&hash(&stale)).await.unwrap(), None);
}

#[tokio::test]
async fn the_default_idle_limit_is_seven_days() {
    let server = TestServer::start(&temp_db("pw_idle7")).await;
    assert_eq!(server.state.config.session_idle_ms, 7 * DAY_MS as u64);
    let (_, six) = server.register("Weekly").await;
    let (_, seven) = login(&server, "weekly", PASSWORD).await;
    let seven = seven.unwrap();
    let now = guoxiang_server::time::now_ms() as i64;
    let store = &server.state.store;
    let hash = |s: &str| guoxiang_server::auth::hash_secret(s);
    store.set_session_last_used(&hash(&six), now - 6 * DAY_MS).await.unwrap();
    store.set_session_last_used(&hash(&seven), now - 7 * DAY_MS - 1).await.unwrap();
    assert_eq!(me(&server, &six).await, 200);
    assert_eq!(me(&server, &seven).await, 401);
}

#[tokio::test]
async fn answers_that_carry_a_secret_are_not_cached() {
    let server = TestServer::start(&temp_db("pw_nostore")).await;
    let no_store = |r: &reqwest::Response, what: &str| {
        assert_eq!(r.headers().get(CACHE_CONTROL).map(|v| v.to_str().unwrap()), Some("no-store"), "{what}");
    };
    let r = post(&server, "/api/guest", json!({}), None, None).await;
    no_store(&r, "guest");
    let r = post(&server, "/api/register", json!({"username": "Secretive", "password": PASSWORD}), None, None).await;
    no_store(&r, "register");
    let session = r.json::<Value>().await.unwrap()["session"].as_str().unwrap().to_owned();
    let r = post(&server, "/api/login", json!({"username": "secretive", "password": PASSWORD}), None, None).await;
    no_store(&r, "login");
    let r = post(&server, "/api/token", json!({"scopes": []}), Some(&session), None).await;
    no_store(&r, "token");
    let change = json!({"current": PASSWORD, "new": NEW_PASSWORD});
    let r = post(&server, "/api/account/password", change, Some(&session), None).await;
    assert_eq!(r.status(), 200);
    no_store(&r, "password");
    let r = post(&server, "/api/logout", json!({}), Some(&session), None).await;
    no_store(&r, "logout");
    let (_, other) = login(&server, "secretive", NEW_PASSWORD).await;
    let r = post(&server, "/api/logout/all", json!({}), Some(&other.unwrap()), None).await;
    no_store(&r, "logout/all");
    // An answer without a secret is left alone.
    let r = reqwest::Client::new().get(server.url("/api/levels")).send().await.unwrap();
    assert_ne!(r.headers().get(CACHE_CONTROL).map(|v| v.to_str().unwrap()), Some("no-store"));
}
