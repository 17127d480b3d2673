//! Accounts, sessions, tokens, rated games (Glicko-2 and 积分), origin checks and rate limits, over real HTTP.

mod common;

use common::{TestServer, play, temp_db};
use serde_json::{Value, json};

async fn post(server: &TestServer, path: &str, body: Value, session: Option<&str>) -> reqwest::Response {
    let mut r = reqwest::Client::new().post(server.url(path)).json(&body);
    if let Some(s) = session {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    r.send().await.unwrap()
}

#[tokio::test]
async fn register_login_logout_and_bad_input() {
    let server = TestServer::start(&temp_db("accounts")).await;
    let (id, session) = server.register("张三").await;
    assert_eq!(id, "张三");
    // Same name in another case is taken.
    let r = post(&server, "/api/register", json!({"username": "Alice", "password": "opening-prep-7"}), None).await;
    assert_eq!(r.status(), 200);
    let r = post(&server, "/api/register", json!({"username": "alice", "password": "opening-prep-7"}), None).await;
    assert_eq!(r.status(), 409);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["code"], "name_taken");
    // Bad names and passwords say what is wrong.
    let r = post(&server, "/api/register", json!({"username": "a b", "password": "opening-prep-7"}), None).await;
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "bad_username");
    let r = post(&server, "/api/register", json!({"username": "bob", "password": "short"}), None).await;
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "bad_password");
    let r = post(&server, "/api/register", json!({"username": "bob"}), None).await;
    assert_eq!(r.status(), 422, "a missing field is a client error");
    // Login: wrong password, then right; the cookie is HttpOnly and SameSite.
    let r = post(&server, "/api/login", json!({"username": "ALICE", "password": "nope-nope"}), None).await;
    assert_eq!(r.status(), 401);
    let r = post(&server, "/api/login", json!({"username": "ALICE", "password": "opening-prep-7"}), None).await;
    assert_eq!(r.status(), 200);
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"), "{cookie}");
    // /api/me with the session; after logout, no more.
    let me: Value = reqwest::Client::new()
        .get(server.url("/api/me"))
        .header("Cookie", format!("gx_session={session}"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["username"], "张三");
    assert_eq!(me["level_zh"], "无级别");
    let r = post(&server, "/api/logout", json!({}), Some(&session)).await;
    assert_eq!(r.status(), 200);
    let r = reqwest::Client::new()
        .get(server.url("/api/me"))
        .header("Cookie", format!("gx_session={session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 401);
}

#[tokio::test]
async fn tokens_carry_scopes_and_origin_is_checked() {
    let server = TestServer::start(&temp_db("tokens")).await;
    let (_, session) = server.register("carol").await;
    let r =
        post(&server, "/api/token", json!({"description": "board", "scopes": ["board:play"]}), Some(&session)).await;
    let token = r.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_owned();
    let r = post(&server, "/api/token", json!({"scopes": ["root"]}), Some(&session)).await;
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "bad_scope");
    let me: Value = reqwest::Client::new()
        .get(server.url("/api/me"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(me["username"], "carol");
    let r = reqwest::Client::new().get(server.url("/api/me")).bearer_auth("gxp_forged").send().await.unwrap();
    assert_eq!(r.status(), 401);
    // A token cannot mint tokens.
    let r = reqwest::Client::new()
        .post(server.url("/api/token"))
        .bearer_auth(&token)
        .json(&json!({"scopes": ["board:play"]}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    // Cross-site requests are refused, same-site ones pass.
    let r = reqwest::Client::new()
        .post(server.url("/api/logout"))
        .header("Origin", "https://evil.example")
        .header("Cookie", format!("gx_session={session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "forbidden_origin");
    let r = reqwest::Client::new()
        .post(server.url("/api/guest"))
        .header("Origin", format!("http://{}", server.addr))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    // A WebSocket from another site is refused at the upgrade.
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{}/ws", server.addr).into_client_request().unwrap();
    req.headers_mut().insert("Origin", "https://evil.example".parse().unwrap());
    assert!(tokio_tungstenite::connect_async(req).await.is_err());
    // Oversized bodies are refused.
    let r = post(&server, "/api/login", json!({"username": "x".repeat(100_000), "password": "y"}), None).await;
    assert_eq!(r.status(), 413);
}

#[tokio::test]
async fn login_is_rate_limited() {
    let server = TestServer::start_with(&temp_db("limits"), |c| c.limits.logins_per_minute = 5).await;
    let mut statuses = Vec::new();
    // The address's limit counts the accounts that failed from it (one account's own failures pause it alone).
    for i in 0..8 {
        let r =
            post(&server, "/api/login", json!({"username": format!("nobody{i}"), "password": "whatever1"}), None).await;
        statuses.push(r.status().as_u16());
    }
    assert_eq!(&statuses[..5], &[401; 5]);
    assert!(statuses[5..].iter().all(|&s| s == 429), "{statuses:?}");
}

#[tokio::test]
async fn rated_game_changes_glicko_and_points() {
    let server = TestServer::start(&temp_db("rated")).await;
    let (_, a) = server.register("winner").await;
    let (_, b) = server.register("loser").await;
    let mut wa = server.ws(&a).await;
    let mut wb = server.ws(&b).await;
    let c =
        wa.request(json!({"t": "challenge_friend", "time_control": "180+2", "rated": true, "color": "white"})).await;
    let cid = c["challenge_id"].as_str().unwrap().to_owned();
    wb.ok(json!({"t": "accept_challenge", "challenge_id": cid})).await;
    let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
    wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
    wb.ok(json!({"t": "subscribe", "game_id": gid})).await;
    play(&mut wa, &gid, "e2e4").await;
    play(&mut wb, &gid, "e7e5").await;
    // Takebacks are for casual games only.
    let r = wa.request(json!({"t": "game", "game_id": gid, "action": {"t": "takeback_offer"}})).await;
    assert_eq!(r["code"], "takeback_in_rated", "{r}");
    wb.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await;
    wa.event(&gid, "game_ended").await;
    let w: Value = reqwest::get(server.url("/api/user/winner")).await.unwrap().json().await.unwrap();
    let l: Value = reqwest::get(server.url("/api/user/loser")).await.unwrap().json().await.unwrap();
    let wr = w["perfs"]["blitz"]["rating"].as_i64().unwrap();
    let lr = l["perfs"]["blitz"]["rating"].as_i64().unwrap();
    assert!(wr > 1500 && lr < 1500 && wr - 1500 == 1500 - lr, "{w} {l}");
    assert_eq!(w["perfs"]["blitz"]["prov"], true);
    // 积分: equal points, the winner gains 10; the loser had 0 and stays at 0.
    assert_eq!(w["points"], 10);
    assert_eq!(l["points"], 0);
    assert_eq!(w["level_zh"], "无级别");
    // Lichess's shape by default (every speed in perfs, `url`, counts); ours with `?format=guoxiang`.
    assert_eq!(w["username"], "winner");
    assert!(w["url"].as_str().unwrap().ends_with("/@/winner"), "{w}");
    assert_eq!(w["perfs"]["classical"]["games"], 0, "{w}");
    assert_eq!(w["count"]["rated"], 1, "{w}");
    assert_eq!(w["count"]["win"], 1, "{w}");
    assert!(w.get("title").is_none() && w.get("playing").is_none(), "{w}");
    let ours: Value = reqwest::get(server.url("/api/user/winner?format=guoxiang")).await.unwrap().json().await.unwrap();
    assert_eq!((&ours["points"], &ours["guest"], &ours["count"]["all"]), (&json!(10), &json!(false), &json!(1)));
    assert!(ours["perfs"].get("classical").is_none(), "ours lists the speeds played: {ours}");
    let pgn = reqwest::get(server.url(&format!("/game/export/{gid}"))).await.unwrap().text().await.unwrap();
    assert!(pgn.contains("[WhiteElo \"1500\"]") && pgn.contains("[WhiteRatingDiff \"+"), "{pgn}");
    assert!(pgn.contains("[Event \"Rated blitz game\"]"), "{pgn}");
    // The archive: both players' game lists and the all-games export.
    let list: Value = reqwest::get(server.url("/api/user/loser/games")).await.unwrap().json().await.unwrap();
    assert_eq!(list["total"], 1);
    assert_eq!(list["games"][0]["status"], "resign");
    assert_eq!(list["games"][0]["winner"], "white");
    let all = reqwest::get(server.url("/api/games/user/winner")).await.unwrap().text().await.unwrap();
    assert_eq!(all.matches("[Event ").count(), 1);
    // Guests cannot play rated games.
    let (_, g) = server.guest().await;
    let mut wg = server.ws(&g).await;
    let r =
        wg.request(json!({"t": "challenge_friend", "time_control": "180+2", "rated": true, "color": "white"})).await;
    assert_eq!(r["code"], "login_required", "{r}");
}

#[tokio::test]
async fn seeks_and_pools_pair_players() {
    let server = TestServer::start(&temp_db("lobby")).await;
    let (_, a) = server.guest().await;
    let (_, b) = server.guest().await;
    let mut wa = server.ws(&a).await;
    let mut wb = server.ws(&b).await;
    wb.ok(json!({"t": "lobby_subscribe"})).await;
    let lobby = wb.wait(|v| v["t"] == "lobby").await;
    assert!(lobby["pools"].as_array().unwrap().len() >= 7);
    let s = wa.request(json!({"t": "create_seek", "time_control": "300+3", "rated": false, "color": "random"})).await;
    let sid = s["seek_id"].as_str().unwrap().to_owned();
    let added = wb.wait(|v| v["t"] == "seek_added").await;
    assert_eq!(added["seek"]["id"], sid);
    wb.ok(json!({"t": "accept_seek", "seek_id": sid})).await;
    let ga = wa.wait(|v| v["t"] == "game_started").await;
    let gb = wb.wait(|v| v["t"] == "game_started").await;
    assert_eq!(ga["game_id"], gb["game_id"]);
    assert_ne!(ga["color"], gb["color"]);
    // Pools: the second player to join the same pool is paired.
    wa.ok(json!({"t": "join_pool", "time_control": "180+2", "rated": false})).await;
    wb.ok(json!({"t": "join_pool", "time_control": "180+2", "rated": false})).await;
    let ga2 = wa.wait(|v| v["t"] == "game_started" && v["game_id"] != ga["game_id"]).await;
    let gb2 = wb.wait(|v| v["t"] == "game_started" && v["game_id"] != gb["game_id"]).await;
    assert_eq!(ga2["game_id"], gb2["game_id"]);
    let r = wa.request(json!({"t": "join_pool", "time_control": "7+0", "rated": false})).await;
    assert_eq!(r["code"], "unknown_pool", "{r}");
}

#[tokio::test]
async fn weak_passwords_and_look_alike_names_are_refused() {
    let server = TestServer::start(&temp_db("weak")).await;
    let register = |name: &str, password: &str| {
        let body = json!({"username": name, "password": password});
        let server = &server;
        async move {
            let r = post(server, "/api/register", body, None).await;
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }
    };
    for (pw, says) in [
        ("password123", "common"),
        ("Qwertyuiop", "common"),
        ("   a   b   ", "visible"),
        ("\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{7}\u{8}", "visible"),
        ("zzzzzzzzzz", "repeated"),
        ("magnus1990", "user name"),
    ] {
        let (status, body) = register("Magnus1990", pw).await;
        assert_eq!((status, body["code"].as_str()), (400, Some("bad_password")), "{pw:?}: {body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{pw:?}: {body}");
    }
    // A Cyrillic а among Latin letters passes for "paypal": refused. Chinese with Latin letters is fine.
    let (status, body) = register("p\u{430}ypal", "a-fine-pass-9").await;
    assert_eq!((status, body["code"].as_str()), (400, Some("bad_username")), "{body}");
    let (status, body) = register("张三abc", "a-fine-pass-9").await;
    assert_eq!(status, 200, "{body}");
    // Full-width letters are the same name as their ASCII form (NFKC), so the name is taken.
    let (status, body) = register("Ｍａｇｎｕｓ", "a-fine-pass-9").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["user"]["username"], "Magnus");
    let (status, body) = register("MAGNUS", "a-fine-pass-9").await;
    assert_eq!((status, body["code"].as_str()), (409, Some("name_taken")), "{body}");
    let r = post(&server, "/api/login", json!({"username": "ｍａｇｎｕｓ", "password": "a-fine-pass-9"}), None).await;
    assert_eq!(r.status(), 200);
}

#[tokio::test]
async fn wrong_passwords_pause_the_account_not_the_others() {
    let server = TestServer::start(&temp_db("per_account")).await;
    for name in ["target", "bystander"] {
        let r = post(&server, "/api/register", json!({"username": name, "password": "the-right-one-1"}), None).await;
        assert_eq!(r.status(), 200);
    }
    let login = |name: &str, password: &str| {
        let body = json!({"username": name, "password": password});
        let server = &server;
        async move { post(server, "/api/login", body, None).await.status().as_u16() }
    };
    for _ in 0..guoxiang_server::security::LoginFailures::MAX {
        assert_eq!(login("target", "a-wrong-guess").await, 401);
    }
    // Now even the right password waits (the pause ends by itself); another account is not affected.
    assert_eq!(login("target", "the-right-one-1").await, 429);
    assert_eq!(login("bystander", "the-right-one-1").await, 200);
    // Unknown names get the same answer as wrong passwords.
    assert_eq!(login("nobody-at-all", "a-wrong-guess").await, 401);
}

#[tokio::test]
async fn tokens_are_listed_and_revoked_and_logout_ends_the_session_and_its_sockets() {
    let server = TestServer::start(&temp_db("revoke")).await;
    let (_, session) = server.register("tokenholder").await;
    let client = reqwest::Client::new();
    let mut tokens = Vec::new();
    for d in ["bot", "board"] {
        let r: Value = post(&server, "/api/token", json!({"description": d, "scopes": ["board:play"]}), Some(&session))
            .await
            .json()
            .await
            .unwrap();
        tokens.push(r["token"].as_str().unwrap().to_owned());
    }
    let get = |path: &str, bearer: Option<&str>, cookie: Option<&str>| {
        let mut r = client.get(server.url(path));
        if let Some(b) = bearer {
            r = r.header("Authorization", format!("Bearer {b}"));
        }
        if let Some(c) = cookie {
            r = r.header("Cookie", format!("gx_session={c}"));
        }
        r.send()
    };
    let list: Value = get("/api/tokens", None, Some(&session)).await.unwrap().json().await.unwrap();
    let listed = list["tokens"].as_array().unwrap();
    assert_eq!(listed.len(), 2, "{list}");
    assert!(!list.to_string().contains(&tokens[0]) && !list.to_string().contains(&tokens[1]), "no secret is shown");
    // A token may not manage tokens.
    assert_eq!(get("/api/tokens", Some(&tokens[0]), None).await.unwrap().status(), 403);
    // Revoke the "bot" one: it stops working at once, the other goes on.
    let bot = listed.iter().find(|t| t["description"] == "bot").unwrap()["id"].as_str().unwrap().to_owned();
    let r = client
        .delete(server.url(&format!("/api/tokens/{bot}")))
        .header("Cookie", format!("gx_session={session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert_eq!(get("/api/account", Some(&tokens[0]), None).await.unwrap().status(), 401);
    assert_eq!(get("/api/account", Some(&tokens[1]), None).await.unwrap().status(), 200);
    let r = client
        .delete(server.url(&format!("/api/tokens/{bot}")))
        .header("Cookie", format!("gx_session={session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);

    // A session used as a bearer token ends with its logout.
    let login: Value =
        post(&server, "/api/login", json!({"username": "tokenholder", "password": "correct horse"}), None)
            .await
            .json()
            .await
            .unwrap();
    let bearer = login["session"].as_str().unwrap().to_owned();
    assert_eq!(get("/api/me", Some(&bearer), None).await.unwrap().status(), 200);
    let r = client.post(server.url("/api/logout")).header("Authorization", format!("Bearer {bearer}")).send().await;
    assert_eq!(r.unwrap().status(), 200);
    assert_eq!(get("/api/me", Some(&bearer), None).await.unwrap().status(), 401);

    // Logging out closes the WebSockets of that session, not those of the user's other sessions.
    let mut ws_out = server.ws(&session).await;
    let other: Value =
        post(&server, "/api/login", json!({"username": "tokenholder", "password": "correct horse"}), None)
            .await
            .json()
            .await
            .unwrap();
    let mut ws_other = server.ws(other["session"].as_str().unwrap()).await;
    assert_eq!(post(&server, "/api/logout", json!({}), Some(&session)).await.status(), 200);
    assert!(ws_out.closed().await, "the logged-out session's socket was closed");
    let r = ws_other.request(json!({"t": "lobby_subscribe"})).await;
    assert_eq!(r["t"], "ack", "{r}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_rated_results_of_one_player_at_once_both_count() {
    let server = TestServer::start(&temp_db("rated_race")).await;
    let (a_id, a) = server.register("racer_a").await;
    let (_, b) = server.register("racer_b").await;
    let (_, c) = server.register("racer_c").await;
    let mut games = Vec::new();
    for opp in [&b, &c] {
        let mut wa = server.ws(&a).await;
        let mut wo = server.ws(opp).await;
        let ch = wa
            .request(json!({"t": "challenge_friend", "time_control": "300+0", "rated": true, "color": "white"}))
            .await;
        wo.ok(json!({"t": "accept_challenge", "challenge_id": ch["challenge_id"]})).await;
        let gid = wa.wait(|v| v["t"] == "game_started").await["game_id"].as_str().unwrap().to_owned();
        wa.ok(json!({"t": "subscribe", "game_id": gid})).await;
        wo.ok(json!({"t": "subscribe", "game_id": gid})).await;
        play(&mut wa, &gid, "e2e4").await;
        play(&mut wo, &gid, "e7e5").await;
        games.push((gid, wo));
    }
    // Both opponents resign at the same moment: A's blitz rating counts both games.
    let resigns: Vec<_> = games
        .into_iter()
        .map(|(gid, mut wo)| {
            tokio::spawn(async move { wo.ok(json!({"t": "game", "game_id": gid, "action": {"t": "resign"}})).await })
        })
        .collect();
    for r in resigns {
        r.await.unwrap();
    }
    let ratings = server.state.store.ratings(&a_id).await.unwrap();
    assert_eq!(ratings.len(), 1, "{ratings:?}");
    assert_eq!(ratings[0].games, 2, "{ratings:?}");
    assert!(ratings[0].rating > 1500.0);
}

/// lichess-bot's first call, `POST /api/token/test` (comma-separated tokens as the body, no authentication), and
/// `GET /api/users/status` (online while a connection is open, playing while a game is in progress).
#[tokio::test]
async fn token_test_and_users_status_as_lichess() {
    let server = TestServer::start(&temp_db("tokentest")).await;
    let (dave_id, dave) = server.register("Dave").await;
    let (erin_id, erin) = server.register("Erin").await;
    let r = post(&server, "/api/token", json!({"scopes": ["bot:play", "challenge:read"]}), Some(&dave)).await;
    let token = r.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_owned();
    let client = reqwest::Client::new();
    let answer: Value = client
        .post(server.url("/api/token/test"))
        .header("Content-Type", "text/plain")
        .body(format!("{token},gxp_not_a_token"))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(answer[&token], json!({"userId": dave_id, "scopes": "bot:play,challenge:read", "expires": null}));
    assert_eq!(answer["gxp_not_a_token"], Value::Null);
    assert_eq!(answer.as_object().unwrap().len(), 2, "{answer}");
    // Too many at once: a clear 400.
    let many = vec!["x"; 1001].join(",");
    let r = client.post(server.url("/api/token/test")).body(many).send().await.unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "too_many_tokens");

    let status = |ids: &'static str| {
        let url = server.url(&format!("/api/users/status?ids={ids}&withGameIds=true"));
        async move { reqwest::get(url).await.unwrap().json::<Value>().await.unwrap() }
    };
    // Offline, not playing: only id and name; unknown names are left out.
    assert_eq!(
        status("dave,nobody,ERIN").await,
        json!([{"id": dave_id, "name": "Dave"}, {"id": erin_id, "name": "Erin"}])
    );
    let (gid, _wa, _wb) = common::friend_game(&server, "5+0", &dave, &erin).await;
    let now = status("Dave").await;
    assert_eq!(now, json!([{"id": dave_id, "name": "Dave", "online": true, "playing": true, "playingId": gid}]));
    let r = reqwest::get(server.url(&format!("/api/users/status?ids={}", vec!["u"; 101].join(",")))).await.unwrap();
    assert_eq!(r.status(), 400);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "too_many_ids");
}

/// `POST /api/bot/account/upgrade` makes a new account a bot for good (title BOT); an account that has played
/// cannot become one; a bot may not seek or join a pool (it plays by challenge), as on Lichess.
#[tokio::test]
async fn bot_accounts_as_lichess() {
    let server = TestServer::start(&temp_db("bots")).await;
    let client = reqwest::Client::new();
    let token = |session: String| {
        let client = client.clone();
        let url = server.url("/api/token");
        async move {
            let r = client
                .post(url)
                .header("Cookie", format!("gx_session={session}"))
                .json(&json!({"scopes": ["bot:play", "board:play", "challenge:read"]}))
                .send()
                .await
                .unwrap();
            r.json::<Value>().await.unwrap()["token"].as_str().unwrap().to_owned()
        }
    };
    let (_, fay) = server.register("Fay").await;
    let (_, gus) = server.register("Gus").await;
    let fay_token = token(fay.clone()).await;
    let gus_token = token(gus.clone()).await;
    let upgrade = |t: &str| client.post(server.url("/api/bot/account/upgrade")).bearer_auth(t).send();
    let account = |t: &str| client.get(server.url("/api/account")).bearer_auth(t).send();
    assert_eq!(account(&fay_token).await.unwrap().json::<Value>().await.unwrap().get("title"), None);
    assert_eq!(upgrade(&fay_token).await.unwrap().status(), 200);
    assert_eq!(account(&fay_token).await.unwrap().json::<Value>().await.unwrap()["title"], "BOT");
    assert_eq!(upgrade(&fay_token).await.unwrap().status(), 200, "again: ok");
    // Gus has played: no.
    let (_, h) = server.register("Hal").await;
    let (_gid, _wa, _wb) = common::friend_game(&server, "5+0", &gus, &h).await;
    let r = upgrade(&gus_token).await.unwrap();
    assert_eq!(r.status(), 400);
    let e: Value = r.json().await.unwrap();
    assert_eq!(e["code"], "bot_has_games", "{e}");
    assert!(e["error"].as_str().unwrap().contains("Gus has played 1 game:"), "{e}");
    // A bot seeks neither on the board API nor over the WebSocket.
    let r = client
        .post(server.url("/api/board/seek"))
        .bearer_auth(&fay_token)
        .form(&[("time", "5"), ("increment", "0")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    assert_eq!(r.json::<Value>().await.unwrap()["code"], "bot_not_in_lobby");
    let mut ws = server.ws(&fay).await;
    let r = ws.request(json!({"t": "create_seek", "time_control": "300+0", "rated": false, "color": "random"})).await;
    assert_eq!(r["code"], "bot_not_in_lobby", "{r}");
    let r = ws.request(json!({"t": "join_pool", "time_control": "300+0", "rated": false})).await;
    assert_eq!(r["code"], "bot_not_in_lobby", "{r}");
}
