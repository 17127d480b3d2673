//! Who may make a rated game, and who may close a challenge — the same answer on every path (WebSocket, the
//! Lichess-compatible API).

mod common;

use common::{TestServer, temp_db};
use serde_json::{Value, json};

async fn post_form(server: &TestServer, session: &str, path: &str, form: &[(&str, &str)]) -> (u16, Value) {
    let r = reqwest::Client::new()
        .post(server.url(path))
        .header("Cookie", format!("gx_session={session}"))
        .form(form)
        .send()
        .await
        .unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn guests_cannot_make_rated_games_on_any_path() {
    let server = TestServer::start(&temp_db("policy_guest")).await;
    let (_, guest) = server.guest().await;
    // The open challenge of the Lichess API (it used to let a guest through).
    let (status, body) = post_form(
        &server,
        &guest,
        "/api/challenge/open",
        &[("rated", "true"), ("clock.limit", "300"), ("clock.increment", "0")],
    )
    .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["code"], "login_required");
    // A casual one is fine.
    let (status, body) =
        post_form(&server, &guest, "/api/challenge/open", &[("clock.limit", "300"), ("clock.increment", "0")]).await;
    assert_eq!(status, 200, "{body}");
    // The WebSocket: a link, a seek, a pool.
    let mut ws = server.ws(&guest).await;
    for msg in [
        json!({"t": "challenge_friend", "time_control": "300+0", "rated": true, "color": "white"}),
        json!({"t": "create_seek", "time_control": "300+0", "rated": true, "color": "random"}),
        json!({"t": "join_pool", "time_control": "300+3", "rated": true}),
    ] {
        let r = ws.request(msg.clone()).await;
        assert_eq!(r["code"], "login_required", "{msg} → {r}");
    }
}

#[tokio::test]
async fn a_rated_game_needs_a_clock_that_gives_time() {
    let server = TestServer::start(&temp_db("policy_clock")).await;
    let (_, alice) = server.register("policy_alice").await;
    let mut ws = server.ws(&alice).await;
    for tc in ["0+0", "-"] {
        let r = ws.request(json!({"t": "challenge_friend", "time_control": tc, "rated": true, "color": "white"})).await;
        assert_eq!(r["code"], "not_ratable", "{tc} → {r}");
    }
    let r = ws.request(json!({"t": "challenge_friend", "time_control": "0+2", "rated": true, "color": "white"})).await;
    assert_eq!(r["t"], "challenge_created", "{r}");
}

#[tokio::test]
async fn only_the_challenged_user_or_the_creator_closes_a_challenge() {
    let server = TestServer::start(&temp_db("policy_close")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let mut wa = server.ws(&a).await;
    let mut wb = server.ws(&b).await;
    // An open challenge (a link): a visitor cannot decline it for everyone.
    let c =
        wa.request(json!({"t": "challenge_friend", "time_control": "600+0", "rated": false, "color": "white"})).await;
    let cid = c["challenge_id"].as_str().unwrap().to_owned();
    let r = wb.request(json!({"t": "decline_challenge", "challenge_id": cid})).await;
    assert_eq!(r["code"], "not_for_you", "{r}");
    let r = wb.request(json!({"t": "cancel_challenge", "challenge_id": cid})).await;
    assert_eq!(r["code"], "not_for_you", "{r}");
    // It is still open: B can accept it.
    wb.ok(json!({"t": "accept_challenge", "challenge_id": cid})).await;
    // And its creator may withdraw another.
    let c =
        wa.request(json!({"t": "challenge_friend", "time_control": "600+0", "rated": false, "color": "white"})).await;
    wa.ok(json!({"t": "cancel_challenge", "challenge_id": c["challenge_id"]})).await;
}

#[tokio::test]
async fn one_users_flood_of_challenges_refuses_only_that_user() {
    let server = TestServer::start(&temp_db("policy_flood")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let mut wa = server.ws(&a).await;
    let mut wb = server.ws(&b).await;
    let friend = json!({"t": "challenge_friend", "time_control": "600+0", "rated": false, "color": "white"});
    for i in 0..guoxiang_server::lobby::MAX_CHALLENGES_FROM {
        let r = wa.request(friend.clone()).await;
        assert_eq!(r["t"], "challenge_created", "challenge {i}: {r}");
    }
    let r = wa.request(friend.clone()).await;
    assert_eq!(r["code"], "too_many_challenges", "{r}");
    // Anyone else still can.
    let r = wb.request(friend.clone()).await;
    assert_eq!(r["t"], "challenge_created", "{r}");
    // The flooder's list is bounded by the cap.
    let list: Value = reqwest::Client::new()
        .get(server.url("/api/challenge"))
        .header("Cookie", format!("gx_session={a}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(list["out"].as_array().map(Vec::len), Some(guoxiang_server::lobby::MAX_CHALLENGES_FROM), "{list}");
}

#[tokio::test]
async fn games_against_the_computer_in_progress_are_capped_per_user() {
    let server = TestServer::start(&temp_db("policy_games")).await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    let ai = json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-"});
    for _ in 0..guoxiang_server::live::MAX_COMPUTER_GAMES_PER_USER {
        ws.ok(ai.clone()).await;
    }
    let r = ws.request(ai.clone()).await;
    assert_eq!(r["code"], "too_many_games", "{r}");
    assert!(r["message_en"].as_str().unwrap().contains("in progress"), "{r}");
    // Resigning one frees a place.
    let gid = ws.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    ws.ok(ai).await;
}

#[tokio::test]
async fn guests_are_created_at_a_bounded_rate_per_address() {
    let server = TestServer::start_with(&temp_db("policy_guests"), |c| c.limits.guests_per_minute = 1).await;
    let from = |ip: [u8; 4]| reqwest::Client::builder().local_address(std::net::IpAddr::from(ip)).build().unwrap();
    let local = from([127, 0, 0, 1]);
    // A burst of ten times the rate, then 429.
    for i in 0..10 {
        let r = local.post(server.url("/api/guest")).send().await.unwrap();
        assert_eq!(r.status(), 200, "guest {i}");
    }
    let r = local.post(server.url("/api/guest")).send().await.unwrap();
    assert_eq!(r.status(), 429);
    // Another address is not affected.
    let r = from([127, 0, 0, 2]).post(server.url("/api/guest")).send().await.unwrap();
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn every_answer_has_security_headers_and_rejections_are_our_json() {
    let server = TestServer::start(&temp_db("policy_headers")).await;
    let client = reqwest::Client::new();
    for path in ["/", "/api/me", "/healthz", "/api/levels"] {
        let r = client.get(server.url(path)).send().await.unwrap();
        let h = r.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(csp.contains("frame-ancestors 'none'") && csp.contains("default-src 'self'"), "{path}: {csp}");
        assert_eq!(h["x-frame-options"], "DENY", "{path}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
    }
    // Not JSON, a missing field, the wrong content type, the wrong method, too large: each our JSON error, saying
    // what was wrong.
    let cases: Vec<(reqwest::RequestBuilder, u16, &str, &str)> = vec![
        (
            client.post(server.url("/api/login")).header("Content-Type", "application/json").body("{not json"),
            400,
            "bad_request",
            "line 1",
        ),
        (client.post(server.url("/api/login")).json(&json!({"username": "a"})), 422, "bad_request", "password"),
        (client.post(server.url("/api/login")).body("username=a"), 415, "unsupported_media_type", "Content-Type"),
        (client.delete(server.url("/api/login")), 405, "method_not_allowed", "method not allowed"),
        (
            client.post(server.url("/api/login")).json(&json!({"username": "x".repeat(100_000)})),
            413,
            "too_large",
            "large",
        ),
    ];
    for (req, status, code, says) in cases {
        let r = req.send().await.unwrap();
        assert_eq!(r.status().as_u16(), status);
        assert!(r.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
        let body: Value = r.json().await.unwrap();
        assert_eq!(body["code"], code, "{body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
        assert!(!body["message_zh"].as_str().unwrap().is_empty(), "{body}");
    }
}

#[tokio::test]
async fn housekeeping_removes_expired_sessions_and_unused_guests_only() {
    let server = TestServer::start(&temp_db("policy_housekeeping")).await;
    let (idle, _) = server.guest().await;
    let (player_a, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let (registered, _) = server.register("staying").await;
    let (gid, mut wa, _wb) = common::friend_game(&server, "600+0", &a, &b).await;
    common::play(&mut wa, &gid, "e2e4").await;
    // Now: every session is valid, nothing goes.
    let store = &server.state.store;
    let now = guoxiang_server::time::now_ms() as i64;
    let idle_ms = server.state.config.session_idle_ms;
    assert_eq!(guoxiang_server::housekeep(store, now, idle_ms).await.unwrap(), (0, 0));
    // 31 days on, every session has expired: the guest who never played goes, the players and the account stay.
    let later = now + 31 * 86_400_000;
    let (sessions, guests) = guoxiang_server::housekeep(store, later, idle_ms).await.unwrap();
    assert_eq!(guests, 1);
    assert!(sessions >= 4, "{sessions}");
    assert!(store.user(&idle).await.unwrap().is_none());
    assert!(store.user(&player_a).await.unwrap().is_some());
    assert!(store.user(&registered).await.unwrap().is_some());
}
