//! A class tournament (issue 42): the existing tournaments, restricted to a class — created only by the class's
//! teacher, joined only by its students and its teacher.

mod common;

use common::{TestServer, temp_db};
use reqwest::Method;
use serde_json::{Value, json};

/// `TestServer::call` with a session.
async fn call(server: &TestServer, method: Method, path: &str, body: Option<Value>, session: &str) -> (u16, Value) {
    server.call(method, path, body, Some(session)).await
}

fn swiss(class: Option<&str>) -> Value {
    let mut t = json!({"name": "班级赛", "system": "swiss", "mode": "online", "time_control": "600+5",
                       "rated": false, "rounds": 3});
    if let Some(c) = class {
        t["class"] = json!(c);
    }
    t
}

/// A class of `teacher` with one new student: the class's id and the student's session.
async fn class_with_student(server: &TestServer, teacher: &str) -> (String, String) {
    let (s, c) = call(server, Method::POST, "/api/class", Some(json!({"name": "三年级二班"})), teacher).await;
    assert_eq!(s, 201, "{c}");
    let id = c["id"].as_str().unwrap().to_owned();
    let path = format!("/api/class/{id}/students");
    let (s, r) = call(server, Method::POST, &path, Some(json!({"count": 1})), teacher).await;
    assert_eq!(s, 201, "{r}");
    let card = &r["students"][0];
    let body = json!({"username": card["username"], "password": card["password"]});
    let r = reqwest::Client::new().post(server.url("/api/login")).json(&body).send().await.unwrap();
    assert_eq!(r.status().as_u16(), 200);
    let r: Value = r.json().await.unwrap();
    (id, r["session"].as_str().unwrap().to_owned())
}

#[tokio::test]
async fn a_class_tournament_is_its_teachers_and_only_its_class_joins() {
    let server = TestServer::start(&temp_db("class_tournament")).await;
    let (_, teacher) = server.register("teacher").await;
    let (_, other_teacher) = server.register("otherteacher").await;
    let (_, stranger) = server.register("stranger").await;
    let (class, student) = class_with_student(&server, &teacher).await;

    // Another teacher cannot create one for this class, nor can anyone for a class that does not exist.
    let (s, r) = call(&server, Method::POST, "/api/tournaments", Some(swiss(Some(&class))), &other_teacher).await;
    assert_eq!((s, r["code"].as_str()), (403, Some("not_your_class")), "{r}");
    assert!(r["error"].as_str().unwrap_or_default().starts_with("class:"), "{r}");
    assert!(r["message_zh"].as_str().unwrap_or_default().starts_with("class："), "{r}");
    let (s, r) = call(&server, Method::POST, "/api/tournaments", Some(swiss(Some("nosuchclass"))), &teacher).await;
    assert_eq!((s, r["code"].as_str()), (403, Some("not_your_class")), "{r}");

    // The teacher creates it: the view names the class.
    let (s, v) = call(&server, Method::POST, "/api/tournaments", Some(swiss(Some(&class))), &teacher).await;
    assert_eq!(s, 201, "{v}");
    assert_eq!(v["class"].as_str(), Some(class.as_str()), "{v}");
    let id = v["id"].as_str().unwrap().to_owned();
    let join = format!("/api/tournament/{id}/join");

    // A stranger is refused; the student and the teacher join.
    let (s, r) = call(&server, Method::POST, &join, None, &stranger).await;
    assert_eq!((s, r["code"].as_str()), (403, Some("class_only")), "{r}");
    let (s, r) = call(&server, Method::POST, &join, None, &student).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["you_joined"], json!(true), "{r}");
    let (s, r) = call(&server, Method::POST, &join, None, &teacher).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["players"].as_array().map(Vec::len), Some(2), "{r}");

    // A tournament without a class is open to all, and its view has no class.
    let (s, v) = call(&server, Method::POST, "/api/tournaments", Some(swiss(None)), &teacher).await;
    assert_eq!(s, 201, "{v}");
    assert!(v.get("class").is_none(), "{v}");
    let (s, r) =
        call(&server, Method::POST, &format!("/api/tournament/{}/join", v["id"].as_str().unwrap()), None, &stranger)
            .await;
    assert_eq!(s, 200, "{r}");
}

/// The teacher's pasted list of an online class tournament takes the class's own accounts only: a stranger's name is
/// an error on its line (and nobody is added), the class's students enter.
#[tokio::test]
async fn a_class_tournaments_list_takes_only_the_class() {
    let server = TestServer::start(&temp_db("class_tournament_list")).await;
    let (_, teacher) = server.register("listteacher").await;
    server.register("outsider").await;
    let (s, c) = call(&server, Method::POST, "/api/class", Some(json!({"name": "四年级一班"})), &teacher).await;
    assert_eq!(s, 201, "{c}");
    let class = c["id"].as_str().unwrap().to_owned();
    let (s, r) =
        call(&server, Method::POST, &format!("/api/class/{class}/students"), Some(json!({"count": 2})), &teacher).await;
    assert_eq!(s, 201, "{r}");
    let names: Vec<String> =
        r["students"].as_array().unwrap().iter().map(|c| c["username"].as_str().unwrap().to_owned()).collect();
    let (s, v) = call(&server, Method::POST, "/api/tournaments", Some(swiss(Some(&class))), &teacher).await;
    assert_eq!(s, 201, "{v}");
    let players = format!("/api/tournament/{}/players", v["id"].as_str().unwrap());

    let text = format!("{}\noutsider\n{}", names[0], names[1]);
    let (s, r) = call(&server, Method::POST, &players, Some(json!({"text": text})), &teacher).await;
    assert_eq!((s, r["code"].as_str()), (400, Some("bad_list")), "{r}");
    let msg = r["error"].as_str().unwrap_or_default();
    assert!(msg.contains("line 2") && msg.contains("not a student of class"), "{r}");
    assert!(r["message_zh"].as_str().unwrap_or_default().contains("不是班级"), "{r}");

    let text = format!("{}\n{}", names[0], names[1]);
    let (s, r) = call(&server, Method::POST, &players, Some(json!({"text": text})), &teacher).await;
    assert_eq!(s, 200, "{r}");
    assert_eq!(r["players"].as_array().map(Vec::len), Some(2), "{r}");
}
