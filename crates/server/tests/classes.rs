//! Teachers and classes (issue 42): a class logs in at once from one address, nobody but its teacher reads or
//! changes it, a reset password must be replaced, join codes, `--teachers admin-only`, and the students' protection
//! from strangers' challenges.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, temp_db};
use guoxiang_server::http::class::Teachers;
use reqwest::Method;
use serde_json::{Value, json};

/// `TestServer::call`.
async fn call(
    server: &TestServer,
    method: Method,
    path: &str,
    body: Option<Value>,
    session: Option<&str>,
) -> (u16, Value) {
    server.call(method, path, body, session).await
}

async fn login(server: &TestServer, user: &str, password: &str) -> (u16, Value) {
    call(server, Method::POST, "/api/login", Some(json!({"username": user, "password": password})), None).await
}

/// A class of `teacher` with `n` new students; its id and the students' cards.
async fn class_with(server: &TestServer, teacher: &str, name: &str, n: u32) -> (String, Vec<(String, String)>) {
    let (s, c) = call(server, Method::POST, "/api/class", Some(json!({"name": name})), Some(teacher)).await;
    assert_eq!(s, 201, "{c}");
    assert_eq!((c["join_code"].clone(), c["allow_challenges"].clone()), (Value::Null, json!(false)), "{c}");
    let id = c["id"].as_str().unwrap().to_owned();
    let path = format!("/api/class/{id}/students");
    let (s, r) = call(server, Method::POST, &path, Some(json!({"count": n})), Some(teacher)).await;
    assert_eq!(s, 201, "{r}");
    let cards = r["students"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["username"].as_str().unwrap().to_owned(), c["password"].as_str().unwrap().to_owned()))
        .collect();
    (id, cards)
}

async fn session_of(server: &TestServer, user: &str, password: &str) -> String {
    let (s, r) = login(server, user, password).await;
    assert_eq!(s, 200, "{user}: {r}");
    r["session"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn thirty_students_log_in_from_one_address_and_one_childs_wrong_passwords_stop_nobody_else() {
    // The default limits (the harness raises them for other tests).
    let server =
        TestServer::start_with(&temp_db("class_login"), |c| c.limits = guoxiang_server::Limits::default()).await;
    let (_, teacher) = server.register("teacher").await;
    let (_, cards) = class_with(&server, &teacher, "三年级二班", 30).await;
    assert_eq!(cards.len(), 30);
    let names: std::collections::HashSet<_> = cards.iter().map(|(u, _)| u.clone()).collect();
    assert_eq!(names.len(), 30, "unique user names");
    for (u, p) in &cards {
        assert!(u.is_ascii() && (2..=20).contains(&u.len()), "{u}");
        assert!(guoxiang_server::auth::check_password(p, u).is_ok(), "{u} {p}");
    }
    let start = Instant::now();
    let logins = cards.iter().map(|(u, p)| login(&server, u, p));
    let answers = futures_util::future::join_all(logins).await;
    for ((u, _), (s, r)) in cards.iter().zip(&answers) {
        assert_eq!(*s, 200, "{u}: {r}");
        // A card's password is the student's own: no forced change.
        assert_eq!(r["must_change_password"], false, "{r}");
    }
    // Ten wrong passwords for one child…
    for i in 0..10 {
        let (s, r) = login(&server, &cards[0].0, "not-my-password-9").await;
        assert_eq!(s, 401, "wrong try {i}: {r}");
    }
    // …pause that account only: the other 29 sign in again at once.
    assert_eq!(login(&server, &cards[0].0, &cards[0].1).await.0, 429);
    for (u, p) in &cards[1..] {
        let (s, r) = login(&server, u, p).await;
        assert_eq!(s, 200, "{u}: {r}");
    }
    assert!(start.elapsed() < Duration::from_secs(60), "{:?}", start.elapsed());
    // Ten different accounts failing from the address (that child's and nine more) are its limit: guessing many
    // accounts from one address is still slowed.
    for i in 0..9 {
        assert_eq!(login(&server, &format!("nobody{i}"), "whatever-1").await.0, 401);
    }
    assert_eq!(login(&server, &cards[1].0, &cards[1].1).await.0, 429);
}

#[tokio::test]
async fn only_the_teacher_reads_and_changes_a_class() {
    let server = TestServer::start(&temp_db("class_access")).await;
    let (_, teacher) = server.register("teacher").await;
    let (id, cards) = class_with(&server, &teacher, "Chess club", 2).await;
    let student = session_of(&server, &cards[0].0, &cards[0].1).await;
    let (_, stranger) = server.register("stranger").await;
    let (_, other_teacher) = server.register("otherteacher").await;
    let (_, other_cards) = class_with(&server, &other_teacher, "Other class", 1).await;
    let other_student = session_of(&server, &other_cards[0].0, &other_cards[0].1).await;
    let (u0, u1) = (&cards[0].0, &cards[1].0);
    let routes: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, format!("/api/class/{id}"), None),
        (Method::PATCH, format!("/api/class/{id}"), Some(json!({"name": "mine now", "allow_challenges": true}))),
        (Method::POST, format!("/api/class/{id}/students"), Some(json!({"count": 1}))),
        (Method::POST, format!("/api/class/{id}/join-code"), None),
        (Method::DELETE, format!("/api/class/{id}/join-code"), None),
        (Method::DELETE, format!("/api/class/{id}/students/{u1}"), None),
        (Method::POST, format!("/api/class/{id}/students/{u0}/password"), None),
        (Method::DELETE, format!("/api/class/{id}"), None),
    ];
    for (who, session) in
        [("stranger", &stranger), ("other teacher", &other_teacher), ("other student", &other_student)]
    {
        for (m, path, body) in &routes {
            let (s, r) = call(&server, m.clone(), path, body.clone(), Some(session)).await;
            assert_eq!((s, r["code"].as_str()), (404, Some("not_found")), "{who} {m} {path}: {r}");
        }
        let (s, r) = call(&server, Method::GET, "/api/class", None, Some(session)).await;
        assert_eq!(s, 200);
        assert!(r["classes"].as_array().unwrap().iter().all(|c| c["id"] != json!(id)), "{who}: {r}");
    }
    // A student of the class sees its name and teacher, never the others, and changes nothing.
    let (s, r) = call(&server, Method::GET, &format!("/api/class/{id}"), None, Some(&student)).await;
    assert_eq!(s, 200);
    assert_eq!(r, json!({"id": id, "name": "Chess club", "owner": "teacher"}));
    for (m, path, body) in routes.iter().skip(1) {
        let (s, r) = call(&server, m.clone(), path, body.clone(), Some(&student)).await;
        assert_eq!((s, r["code"].as_str()), (403, Some("class_teacher_only")), "student {m} {path}: {r}");
    }
    let (_, r) = call(&server, Method::GET, "/api/class", None, Some(&student)).await;
    assert_eq!(
        r["classes"],
        json!([{"id": id, "name": "Chess club", "owner": "teacher", "role": "student", "students": 2}])
    );
    // Nothing changed.
    let (s, r) = call(&server, Method::GET, &format!("/api/class/{id}"), None, Some(&teacher)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (r["name"].as_str(), r["join_code"].clone(), r["allow_challenges"].clone()),
        (Some("Chess club"), Value::Null, json!(false))
    );
    assert_eq!(r["students"].as_array().unwrap().len(), 2, "{r}");
    let s0 = &r["students"][0];
    assert_eq!(
        (s0["created_by_teacher"].clone(), s0["must_change_password"].clone()),
        (json!(true), json!(false)),
        "{r}"
    );
    let (_, r) = call(&server, Method::GET, "/api/class", None, Some(&teacher)).await;
    assert_eq!(
        r["classes"],
        json!([{"id": id, "name": "Chess club", "owner": "teacher", "role": "teacher", "students": 2}])
    );
    // The teacher changes it; bad input names its field.
    let patch = Some(json!({"name": "  Chess club A  ", "allow_challenges": true}));
    let (s, r) = call(&server, Method::PATCH, &format!("/api/class/{id}"), patch, Some(&teacher)).await;
    assert_eq!((s, r["name"].as_str(), r["allow_challenges"].clone()), (200, Some("Chess club A"), json!(true)), "{r}");
    for bad in [json!({"name": "   "}), json!({"name": "x".repeat(61)})] {
        let (s, r) = call(&server, Method::PATCH, &format!("/api/class/{id}"), Some(bad), Some(&teacher)).await;
        assert_eq!((s, r["code"].as_str()), (400, Some("bad_name")), "{r}");
        assert!(r["error"].as_str().unwrap().contains("name") && r["message_zh"].as_str().unwrap().contains("name"));
    }
    for n in [0, 61, -1] {
        let path = format!("/api/class/{id}/students");
        let (s, r) = call(&server, Method::POST, &path, Some(json!({"count": n})), Some(&teacher)).await;
        assert_eq!((s, r["code"].as_str()), (400, Some("bad_count")), "{n}: {r}");
    }
    // Removing a student keeps the account.
    let (s, _) = call(&server, Method::DELETE, &format!("/api/class/{id}/students/{u1}"), None, Some(&teacher)).await;
    assert_eq!(s, 200);
    assert_eq!(login(&server, u1, &cards[1].1).await.0, 200);
    let (s, _) = call(&server, Method::DELETE, &format!("/api/class/{id}/students/{u1}"), None, Some(&teacher)).await;
    assert_eq!(s, 404);
    // Guests have no classes; deleting ends it.
    let (_, guest) = server.guest().await;
    let (s, r) = call(&server, Method::POST, "/api/class", Some(json!({"name": "g"})), Some(&guest)).await;
    assert_eq!((s, r["code"].as_str()), (403, Some("login_required")), "{r}");
    let (s, _) = call(&server, Method::DELETE, &format!("/api/class/{id}"), None, Some(&teacher)).await;
    assert_eq!(s, 200);
    let (s, _) = call(&server, Method::GET, &format!("/api/class/{id}"), None, Some(&student)).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn a_reset_password_must_be_replaced_before_anything_else() {
    let server = TestServer::start(&temp_db("class_reset")).await;
    let (_, teacher) = server.register("teacher").await;
    let (id, cards) = class_with(&server, &teacher, "Reset", 1).await;
    let (user, card_password) = &cards[0];
    let old_session = session_of(&server, user, card_password).await;
    let path = format!("/api/class/{id}/students/{user}/password");
    let (s, r) = call(&server, Method::POST, &path, None, Some(&teacher)).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["username"].as_str(), Some(user.as_str()));
    let new_password = r["password"].as_str().unwrap().to_owned();
    // The old session ended, the old password is gone.
    assert_eq!(call(&server, Method::GET, "/api/me", None, Some(&old_session)).await.0, 401);
    assert_eq!(login(&server, user, card_password).await.0, 401);
    let (s, r) = login(&server, user, &new_password).await;
    assert_eq!((s, r["must_change_password"].clone()), (200, json!(true)), "{r}");
    let session = r["session"].as_str().unwrap().to_owned();
    // Everything but the account, the password and signing out waits for a new password.
    for (m, p) in [(Method::GET, "/api/class"), (Method::GET, "/api/learn/progress"), (Method::GET, "/api/tokens")] {
        let (s, r) = call(&server, m.clone(), p, None, Some(&session)).await;
        assert_eq!((s, r["code"].as_str()), (403, Some("password_change_required")), "{m} {p}: {r}");
    }
    // The cookie too, on the WebSocket's upgrade.
    let r = reqwest::Client::new()
        .get(server.url("/api/class"))
        .header("Cookie", format!("gx_session={session}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 403);
    let (s, r) = call(&server, Method::GET, "/api/me", None, Some(&session)).await;
    assert_eq!((s, r["must_change_password"].clone()), (200, json!(true)), "{r}");
    assert_eq!(call(&server, Method::GET, "/api/account", None, Some(&session)).await.0, 200);
    // The teacher sees it pending.
    let (_, c) = call(&server, Method::GET, &format!("/api/class/{id}"), None, Some(&teacher)).await;
    assert_eq!(c["students"][0]["must_change_password"], true, "{c}");
    let change = json!({"current": new_password, "new": "a violin under the bridge"});
    let (s, r) = call(&server, Method::POST, "/api/account/password", Some(change), Some(&session)).await;
    assert_eq!(s, 200, "{r}");
    let (s, r) = call(&server, Method::GET, "/api/class", None, Some(&session)).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["classes"][0]["role"], "student");
    let (s, r) = login(&server, user, "a violin under the bridge").await;
    assert_eq!((s, r["must_change_password"].clone()), (200, json!(false)), "{r}");
    // Only the class's teacher resets.
    let (_, stranger) = server.register("stranger").await;
    assert_eq!(call(&server, Method::POST, &path, None, Some(&stranger)).await.0, 404);
}

#[tokio::test]
async fn join_codes_open_and_close_a_class() {
    let server = TestServer::start(&temp_db("class_join")).await;
    let (_, teacher) = server.register("teacher").await;
    let (id, _) = class_with(&server, &teacher, "Open", 1).await;
    let (s, r) = call(&server, Method::POST, &format!("/api/class/{id}/join-code"), None, Some(&teacher)).await;
    assert_eq!(s, 200, "{r}");
    let code = r["join_code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 8);
    assert!(code.chars().all(|c| "ABCDEFGHJKMNPQRSTUVWXYZ23456789".contains(c)), "{code}");
    let (_, pupil) = server.register("pupil").await;
    // Typed in lower case with a dash: the same code.
    let typed = format!("{}-{}", &code[..4], &code[4..]).to_lowercase();
    let (s, r) = call(&server, Method::POST, "/api/class/join", Some(json!({"code": typed})), Some(&pupil)).await;
    assert_eq!((s, r), (200, json!({"id": id, "name": "Open"})));
    let (_, c) = call(&server, Method::GET, &format!("/api/class/{id}"), None, Some(&teacher)).await;
    assert_eq!(c["join_code"].as_str(), Some(code.as_str()));
    let pupil_row = c["students"].as_array().unwrap().iter().find(|s| s["username"] == "pupil").cloned().unwrap();
    assert_eq!(pupil_row["created_by_teacher"], false, "{c}");
    // Wrong codes, guests, and a closed code.
    let (_, late) = server.register("latecomer").await;
    for bad in ["", "ABC", "IIIIIIII", "ZZZZZZZZ"] {
        let (s, r) = call(&server, Method::POST, "/api/class/join", Some(json!({"code": bad})), Some(&late)).await;
        assert_eq!((s, r["code"].as_str()), (404, Some("bad_join_code")), "{bad}: {r}");
    }
    let (_, guest) = server.guest().await;
    let (s, _) = call(&server, Method::POST, "/api/class/join", Some(json!({"code": code})), Some(&guest)).await;
    assert_eq!(s, 403);
    let (s, r) = call(&server, Method::DELETE, &format!("/api/class/{id}/join-code"), None, Some(&teacher)).await;
    assert_eq!((s, r), (200, json!({"join_code": null})));
    let (s, _) = call(&server, Method::POST, "/api/class/join", Some(json!({"code": code})), Some(&late)).await;
    assert_eq!(s, 404);
}

#[tokio::test]
async fn with_teachers_admin_only_only_administrators_create_classes() {
    let server = TestServer::start_with(&temp_db("class_admin_only"), |c| c.teachers = Teachers::AdminOnly).await;
    let (_, someone) = server.register("someone").await;
    let (s, r) = call(&server, Method::POST, "/api/class", Some(json!({"name": "A"})), Some(&someone)).await;
    assert_eq!((s, r["code"].as_str()), (403, Some("teachers_admin_only")), "{r}");
    let (admin_id, admin) = server.register("headteacher").await;
    server.state.store.set_admin(&admin_id, true).await.unwrap();
    let (s, r) = call(&server, Method::POST, "/api/class", Some(json!({"name": "A"})), Some(&admin)).await;
    assert_eq!(s, 201, "{r}");
}

#[tokio::test]
async fn strangers_cannot_challenge_a_teachers_students() {
    let server = TestServer::start(&temp_db("class_protect")).await;
    let (_, teacher) = server.register("teacher").await;
    let (id, cards) = class_with(&server, &teacher, "Protected", 2).await;
    let kid = session_of(&server, &cards[0].0, &cards[0].1).await;
    let mate = session_of(&server, &cards[1].0, &cards[1].1).await;
    let (_, stranger) = server.register("stranger").await;
    let challenge = |session: String| {
        let url = server.url(&format!("/api/challenge/{}", cards[0].0));
        async move {
            let r = reqwest::Client::new()
                .post(url)
                .bearer_auth(session)
                .form(&[("clock.limit", "300"), ("clock.increment", "0")])
                .send()
                .await
                .unwrap();
            let s = r.status().as_u16();
            (s, r.json::<Value>().await.unwrap_or(Value::Null))
        }
    };
    let (s, r) = challenge(stranger.clone()).await;
    assert_eq!((s, r["code"].as_str()), (403, Some("student_protected")), "{r}");
    assert!(r["message_zh"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(challenge(teacher.clone()).await.0, 200);
    assert_eq!(challenge(mate.clone()).await.0, 200);
    // A stranger's link or seek cannot be taken by the child either.
    let mut ws_stranger = server.ws(&stranger).await;
    let mut ws_kid = server.ws(&kid).await;
    let c = ws_stranger
        .request(json!({"t": "challenge_friend", "time_control": "300+0", "rated": false, "color": "white"}))
        .await;
    let cid = c["challenge_id"].as_str().unwrap().to_owned();
    let r = ws_kid.request(json!({"t": "accept_challenge", "challenge_id": cid})).await;
    assert_eq!(r["code"], "student_protected", "{r}");
    let sk = ws_stranger
        .request(json!({"t": "create_seek", "time_control": "300+3", "rated": false, "color": "random"}))
        .await;
    let sid = sk["seek_id"].as_str().unwrap().to_owned();
    let r = ws_kid.request(json!({"t": "accept_seek", "seek_id": sid})).await;
    assert_eq!(r["code"], "student_protected", "{r}");
    // Nor does the quick pairing (it pairs strangers).
    let r = ws_kid.request(json!({"t": "join_pool", "time_control": "300+3", "rated": false})).await;
    assert_eq!(r["code"], "student_protected", "{r}");
    // The teacher lets the class be challenged.
    let patch = Some(json!({"allow_challenges": true}));
    assert_eq!(call(&server, Method::PATCH, &format!("/api/class/{id}"), patch, Some(&teacher)).await.0, 200);
    assert_eq!(challenge(stranger).await.0, 200);
    ws_kid.ok(json!({"t": "join_pool", "time_control": "300+3", "rated": false})).await;
}
