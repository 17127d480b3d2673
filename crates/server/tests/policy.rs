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
