//! Studies (issue 42, point 4): create, read, change and delete over HTTP; who may read one (its owner, a student
//! of its class when shared with the class, anyone when public, nobody else); PGN in and out through the API; a
//! course lesson copied into a study and exported as a course file; judging a study's step; present mode over the
//! WebSocket.

mod common;

use common::{TestServer, temp_db};
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

async fn new_study(server: &TestServer, session: &str, body: Value) -> String {
    let (s, r) = call(server, Method::POST, "/api/study", Some(body), Some(session)).await;
    assert_eq!(s, 201, "{r}");
    r["id"].as_str().unwrap().to_owned()
}

const PGN: &str = r#"[Event "Italian"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "?"]
[Black "?"]
[Result "*"]

{ [%csl Ge4,Gd4] 控制中心 } 1. e4 { [%cal Gg1f3] Good } 1... e5 (1... c5 { Sicilian }) 2. Nf3 Nc6
3. Bc4 $1 { [%cal Rc4f7] The Italian } *
"#;

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[tokio::test]
async fn studies_are_read_by_whom_they_are_shared_with() {
    let server = TestServer::start(&temp_db("studies_access")).await;
    let (teacher_id, teacher) = server.register("teacher").await;
    let (student_id, student) = server.register("student").await;
    let (_, stranger) = server.register("stranger").await;
    let (_, guest) = server.guest().await;
    let store = &server.state.store;
    store.create_class("c1", &teacher_id, "一班", 1).await.unwrap();
    store.add_class_student("c1", &student_id, 2).await.unwrap();

    let private = new_study(&server, &teacher, json!({"title": "私人"})).await;
    let shared = new_study(&server, &teacher, json!({"title": "Class", "visibility": "class", "class": "c1"})).await;
    let public = new_study(&server, &teacher, json!({"title": "Public", "visibility": "public"})).await;

    // Bad creations name the field.
    for (body, field) in [
        (json!({"title": ""}), "title"),
        (json!({"title": 3}), "title"),
        (json!({"title": "x", "visibility": "secret"}), "visibility"),
        (json!({"title": "x", "visibility": "class"}), "class"),
        (json!({"title": "x", "visibility": "class", "class": "nope"}), "class"),
        (json!({"title": "x", "colour": "red"}), "colour"),
    ] {
        let (s, r) = call(&server, Method::POST, "/api/study", Some(body.clone()), Some(&teacher)).await;
        assert_eq!(s, 400, "{body}: {r}");
        assert!(r["error"].as_str().unwrap().contains(field), "{body}: {r}");
        assert!(!r["message_zh"].as_str().unwrap().is_empty(), "{r}");
    }
    let (s, _) = call(&server, Method::POST, "/api/study", Some(json!({"title": "x"})), Some(&guest)).await;
    assert_eq!(s, 403, "guests write no studies");
    let (s, _) = call(&server, Method::POST, "/api/study", Some(json!({"title": "x"})), None).await;
    assert_eq!(s, 401);

    // Who reads what.
    let read = |id: &str, who: Option<&str>| {
        let (server, id, who) = (&server, id.to_owned(), who.map(str::to_owned));
        async move { call(server, Method::GET, &format!("/api/study/{id}"), None, who.as_deref()).await.0 }
    };
    assert_eq!(read(&private, Some(&teacher)).await, 200);
    assert_eq!(read(&private, Some(&student)).await, 404);
    assert_eq!(read(&private, Some(&stranger)).await, 404);
    assert_eq!(read(&shared, Some(&student)).await, 200);
    assert_eq!(read(&shared, Some(&stranger)).await, 404);
    assert_eq!(read(&shared, None).await, 404);
    assert_eq!(read(&public, None).await, 200);
    assert_eq!(read(&public, Some(&stranger)).await, 200);
    assert_eq!(read("nope", Some(&teacher)).await, 404);

    let (s, r) = call(&server, Method::GET, &format!("/api/study/{shared}"), None, Some(&student)).await;
    assert_eq!(s, 200);
    assert_eq!(
        (r["owner"].as_str(), r["mine"].as_bool(), r["class"].as_str()),
        (Some("teacher"), Some(false), Some("c1"))
    );
    assert_eq!(r["study"]["title"], "Class");
    assert_eq!(r["study"]["chapters"][0]["fen"], guoxiang_core::STARTING_FEN);

    // Lists: mine, and shared with my classes.
    let (_, r) = call(&server, Method::GET, "/api/study", None, Some(&teacher)).await;
    assert_eq!(r["studies"].as_array().unwrap().len(), 3, "{r}");
    let (_, r) = call(&server, Method::GET, "/api/study", None, Some(&student)).await;
    let ids: Vec<&str> = r["studies"].as_array().unwrap().iter().map(|s| s["id"].as_str().unwrap()).collect();
    assert_eq!(ids, [shared.as_str()]);
    let (_, r) = call(&server, Method::GET, "/api/study", None, Some(&stranger)).await;
    assert!(r["studies"].as_array().unwrap().is_empty());

    // Only the owner changes or deletes: a reader gets 403, anyone else 404.
    let (s, r) = call(&server, Method::GET, &format!("/api/study/{shared}"), None, Some(&teacher)).await;
    assert_eq!(s, 200);
    let mut body = r["study"].clone();
    body["title"] = json!("Class 2");
    let path = format!("/api/study/{shared}");
    assert_eq!(call(&server, Method::PUT, &path, Some(body.clone()), Some(&student)).await.0, 403);
    assert_eq!(call(&server, Method::PUT, &path, Some(body.clone()), Some(&stranger)).await.0, 404);
    assert_eq!(call(&server, Method::DELETE, &path, None, Some(&student)).await.0, 403);
    let (s, r) = call(&server, Method::PUT, &path, Some(body.clone()), Some(&teacher)).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["title"], "Class 2");
    // Made private: the student loses it.
    body["visibility"] = json!("private");
    assert_eq!(call(&server, Method::PUT, &path, Some(body.clone()), Some(&teacher)).await.0, 200);
    assert_eq!(read(&shared, Some(&student)).await, 404);
    // A bad body names where.
    body["chapters"][0]["moves"] = json!([{"san": "e4"}, {"san": "e5"}, {"san": "Ke3"}]);
    let (s, r) = call(&server, Method::PUT, &path, Some(body.clone()), Some(&teacher)).await;
    assert_eq!(s, 400, "{r}");
    assert!(r["error"].as_str().unwrap().starts_with("chapter 1, move [2] (Ke3)"), "{r}");
    body["chapters"][0]["moves"] = json!([]);
    body["chapters"][0]["shapes"] = json!([{"brush": "pink", "orig": "e4"}]);
    let (s, r) = call(&server, Method::PUT, &path, Some(body), Some(&teacher)).await;
    assert_eq!(s, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("pink"), "{r}");

    assert_eq!(call(&server, Method::DELETE, &path, None, Some(&teacher)).await.0, 204);
    assert_eq!(read(&shared, Some(&teacher)).await, 404);
}

#[tokio::test]
async fn pgn_goes_in_and_out_through_the_api() {
    let server = TestServer::start(&temp_db("studies_pgn")).await;
    let (_, teacher) = server.register("teacher").await;
    let (_, stranger) = server.register("stranger").await;
    let id = new_study(&server, &teacher, json!({"title": "Openings", "visibility": "public"})).await;
    let path = format!("/api/study/{id}/chapters/pgn");
    let (s, r) = call(&server, Method::POST, &path, Some(Value::String(PGN.into())), Some(&teacher)).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r, json!({"added": [1], "chapters": 2}));
    let (s, _) = call(&server, Method::POST, &path, Some(Value::String(PGN.into())), Some(&stranger)).await;
    assert_eq!(s, 403, "a reader of a public study does not add to it");

    let (s, text) = call(&server, Method::GET, &format!("/api/study/{id}/chapters/1.pgn"), None, None).await;
    assert_eq!(s, 200);
    assert_eq!(collapse(text.as_str().unwrap()), collapse(PGN));
    let (_, r) = call(&server, Method::GET, &format!("/api/study/{id}"), None, None).await;
    let ch = &r["study"]["chapters"][1];
    assert_eq!(ch["shapes"], json!([{"brush": "green", "orig": "e4"}, {"brush": "green", "orig": "d4"}]));
    assert_eq!(ch["moves"][1]["variations"][0][0]["comment"], "Sicilian");
    assert_eq!(call(&server, Method::GET, &format!("/api/study/{id}/chapters/7.pgn"), None, None).await.0, 404);

    // Bad PGN says where.
    let bad = Value::String("1. e4 e5 2. Qxf7 *".into());
    let (s, r) = call(&server, Method::POST, &path, Some(bad), Some(&teacher)).await;
    assert_eq!(s, 400, "{r}");
    assert!(r["error"].as_str().unwrap().starts_with("game 1, line 1, column 13 (Qxf7)"), "{r}");
    let bad = Value::String("1. e4 { [%csl Ge9] } *".into());
    let (s, r) = call(&server, Method::POST, &path, Some(bad), Some(&teacher)).await;
    assert_eq!(s, 400, "{r}");
    assert!(r["error"].as_str().unwrap().contains("[%csl Ge9]"), "{r}");

    // A study without steps is no lesson.
    let (s, r) = call(&server, Method::GET, &format!("/api/study/{id}.toml"), None, None).await;
    assert_eq!(s, 400, "{r}");
}

#[tokio::test]
async fn a_lesson_becomes_a_study_whose_steps_are_judged_and_exported() {
    let server = TestServer::start(&temp_db("studies_lesson")).await;
    let (_, teacher) = server.register("teacher").await;
    let (_, stranger) = server.register("stranger").await;
    let course = guoxiang_learn::Course::embedded().course;
    let (_, lesson) = course.lessons().find(|(_, l)| l.steps.iter().any(|s| !s.solutions.is_empty())).unwrap();
    let (s, r) =
        call(&server, Method::POST, &format!("/api/study/from-lesson/{}", lesson.id), None, Some(&teacher)).await;
    assert_eq!(s, 201, "{r}");
    let id = r["id"].as_str().unwrap().to_owned();
    assert_eq!(r["visibility"], "private");
    assert_eq!(r["study"]["chapters"].as_array().unwrap().len(), lesson.steps.len());
    assert_eq!(call(&server, Method::POST, "/api/study/from-lesson/no_such", None, Some(&teacher)).await.0, 404);

    // The exported course file holds the same lesson.
    let (s, toml) = call(&server, Method::GET, &format!("/api/study/{id}.toml"), None, Some(&teacher)).await;
    assert_eq!(s, 200);
    let checked = guoxiang_learn::check_files(vec![("01-studies.toml".into(), toml.as_str().unwrap().to_owned())]);
    assert_eq!(checked.course.lesson(&lesson.id), Some(lesson));
    assert_eq!(call(&server, Method::GET, &format!("/api/study/{id}.toml"), None, Some(&stranger)).await.0, 404);

    // Its steps are judged as the lesson's.
    let (i, step) = lesson.steps.iter().enumerate().find(|(_, s)| !s.solutions.is_empty()).unwrap();
    let try_path = format!("/api/study/{id}/try");
    let good = json!({"chapter": i, "moves": [step.solutions[0][0]]});
    let (s, v) = call(&server, Method::POST, &try_path, Some(good.clone()), Some(&teacher)).await;
    assert_eq!(s, 200, "{v}");
    let (_, want) = call(
        &server,
        Method::POST,
        "/api/learn/try",
        Some(json!({"lesson": lesson.id, "step": i, "moves": [step.solutions[0][0]]})),
        None,
    )
    .await;
    assert_eq!(v, want);
    assert_eq!(v["ok"], true);
    assert_eq!(call(&server, Method::POST, &try_path, Some(good.clone()), Some(&stranger)).await.0, 404);
    let (s, r) =
        call(&server, Method::POST, &try_path, Some(json!({"chapter": i, "moves": ["e9e4"]})), Some(&teacher)).await;
    assert_eq!(s, 400, "{r}");
    assert!(r["error"].as_str().unwrap().starts_with("moves[0]"), "{r}");
    let (s, r) =
        call(&server, Method::POST, &try_path, Some(json!({"chapter": 999, "moves": ["e2e4"]})), Some(&teacher)).await;
    assert_eq!(s, 400);
    assert!(r["error"].as_str().unwrap().starts_with("chapter"), "{r}");
}

#[tokio::test]
async fn present_mode_moves_a_followers_board() {
    let server = TestServer::start(&temp_db("studies_present")).await;
    let (teacher_id, teacher) = server.register("teacher").await;
    let (student_id, student) = server.register("student").await;
    let (_, stranger) = server.register("stranger").await;
    server.state.store.create_class("c1", &teacher_id, "一班", 1).await.unwrap();
    server.state.store.add_class_student("c1", &student_id, 2).await.unwrap();
    let id = new_study(&server, &teacher, json!({"title": "Live", "visibility": "class", "class": "c1"})).await;
    let path = format!("/api/study/{id}/chapters/pgn");
    assert_eq!(call(&server, Method::POST, &path, Some(Value::String(PGN.into())), Some(&teacher)).await.0, 200);

    let mut t = server.ws(&teacher).await;
    let mut s = server.ws(&student).await;
    let mut x = server.ws(&stranger).await;
    // A stranger may not follow; nobody but the owner presents.
    let r = x.request(json!({"t": "study_follow", "study": id})).await;
    assert_eq!((r["t"].as_str(), r["code"].as_str()), (Some("error"), Some("not_found")), "{r}");
    s.ok(json!({"t": "study_follow", "study": id})).await;
    let r = s.request(json!({"t": "study_present", "study": id, "chapter": 1, "path": []})).await;
    assert_eq!(r["code"], "not_study_owner", "{r}");
    let r = t.request(json!({"t": "study_present", "study": id, "chapter": 1, "path": [9]})).await;
    assert_eq!(r["t"], "error", "{r}");

    // The teacher goes to 1... c5 in the Sicilian: the student's board follows, with the shapes there.
    t.ok(json!({"t": "study_present", "study": id, "chapter": 1, "path": [1, 0, 0]})).await;
    let p = s.wait(|v| v["t"] == "study_position").await;
    assert_eq!(
        p,
        json!({"t": "study_position", "study": id, "chapter": 1, "path": [1, 0, 0],
               "fen": "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2", "shapes": []})
    );
    t.ok(json!({"t": "study_present", "study": id, "chapter": 1, "path": [0]})).await;
    let p = s.wait(|v| v["t"] == "study_position").await;
    assert_eq!(p["shapes"], json!([{"brush": "green", "orig": "g1", "dest": "f3"}]));

    // Someone who starts following later gets the current position at once.
    let mut late = server.ws(&student).await;
    late.ok(json!({"t": "study_follow", "study": id})).await;
    let p = late.wait(|v| v["t"] == "study_position").await;
    assert_eq!(p["path"], json!([0]));

    // Let go: the followers are told; after unfollowing, no more positions.
    t.ok(json!({"t": "study_release", "study": id})).await;
    assert_eq!(s.wait(|v| v["t"] == "study_released").await, json!({"t": "study_released", "study": id}));
    s.ok(json!({"t": "study_unfollow", "study": id})).await;
    t.ok(json!({"t": "study_present", "study": id, "chapter": 0, "path": []})).await;
    late.wait(|v| v["t"] == "study_position" && v["chapter"] == 0).await;
    let r = s.request(json!({"t": "ping", "client_time_ms": 1})).await;
    assert_eq!(r["t"], "pong");
    assert!(!s.inbox.iter().any(|v| v["t"] == "study_position"), "{:?}", s.inbox);
    assert!(!x.inbox.iter().any(|v| v["t"] == "study_position"), "the stranger saw nothing");
}
