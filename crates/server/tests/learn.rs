//! 学棋 / Learn over real HTTP and WebSocket: the course, judging tries, progress for registered accounts, and
//! the computer opponent from a set-up position. The course files are being written as these tests run, so the
//! lessons used are picked from the course itself (a step the checker passes), not named here.

mod common;

use common::{TestServer, temp_db};
use guoxiang_core::{Explanation, Position, Square};
use guoxiang_learn::{Course, StepKind};
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

async fn try_step(server: &TestServer, body: Value) -> (u16, Value) {
    let r = client().post(server.url("/api/learn/try")).json(&body).send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap())
}

/// The first `moves` step (lesson id, 0-based index, first solution) that the checker passes, if the course has one.
fn good_moves_step() -> Option<(String, usize, Vec<String>, String)> {
    let course = Course::embedded().course;
    for (_, lesson) in course.lessons() {
        for (i, step) in lesson.steps.iter().enumerate() {
            if matches!(step.kind, StepKind::Moves { .. })
                && !step.solutions.is_empty()
                && guoxiang_learn::check::check_step(step).is_empty()
            {
                return Some((lesson.id.clone(), i, step.solutions[0].clone(), step.fen.clone()));
            }
        }
    }
    None
}

/// An illegal from→to move in the position and the rules core's reason code, a pinned piece's if there is one.
fn illegal_move(fen: &str) -> (String, String) {
    let pos = Position::from_fen(fen).unwrap();
    let mut any = None;
    for from in (0..64).map(Square::new) {
        if pos.color_at(from) != Some(pos.turn()) {
            continue;
        }
        for to in (0..64).map(Square::new) {
            if let Explanation::Illegal(r) = pos.explain(from, to, None)
                && r.code() != "same_square"
            {
                let uci = format!("{from}{to}");
                if r.code() == "pinned" {
                    return (uci, "pinned".into());
                }
                any.get_or_insert((uci, r.code().to_owned()));
            }
        }
    }
    any.expect("some move of the side to move is illegal")
}

#[tokio::test]
async fn the_course_and_tries() {
    let server = TestServer::start(&temp_db("learn_try")).await;
    let r = client().get(server.url("/api/learn")).send().await.unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("application/json"));
    let course: Value = r.json().await.unwrap();
    let chapters = course["chapters"].as_array().expect("chapters");
    let expected = Course::embedded().course;
    assert_eq!(chapters.len(), expected.chapters.len());
    for (c, e) in chapters.iter().zip(&expected.chapters) {
        assert_eq!(c["id"], e.id.as_str());
        assert_eq!(c["order"], e.order);
        assert!(c["title"]["zh"].is_string() && c["summary"]["en"].is_string(), "{c}");
        assert_eq!(c["lessons"].as_array().unwrap().len(), e.lessons.len());
    }

    // Unknown lessons and steps are 404; bad fields are 400 and named.
    let (s, e) = try_step(&server, json!({"lesson": "no_such_lesson", "step": 0, "moves": ["e2e4"]})).await;
    assert_eq!((s, e["code"].as_str()), (404, Some("not_found")), "{e}");
    let (s, e) = try_step(&server, json!({"step": 0, "moves": ["e2e4"]})).await;
    assert_eq!(s, 400);
    assert!(e["error"].as_str().unwrap().starts_with("lesson:"), "{e}");
    let (s, e) = try_step(&server, json!({"lesson": "x", "step": -1, "moves": []})).await;
    assert_eq!(s, 400);
    assert!(e["error"].as_str().unwrap().starts_with("step:"), "{e}");
    let (s, e) = try_step(&server, json!({"lesson": "x", "step": 0, "moves": [1]})).await;
    assert_eq!(s, 400);
    assert!(e["error"].as_str().unwrap().starts_with("moves[0]:"), "{e}");
    let (s, e) = try_step(&server, json!({"lesson": "x", "step": 0, "moves": [], "squares": []})).await;
    assert_eq!(s, 400);
    assert!(e["error"].as_str().unwrap().contains("only one"), "{e}");
    assert!(e["message_zh"].is_string());

    let Some((lesson, step, solution, fen)) = good_moves_step() else {
        println!("SKIP: the course has no checked moves step yet");
        return;
    };
    // Right: the first move of a solution.
    let (s, v) = try_step(&server, json!({"lesson": lesson, "step": step, "moves": [solution[0]]})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["ok"], true, "{lesson} step {step}: {v}");
    assert_eq!(v["done"], solution.len() == 1, "{v}");
    for k in ["ok", "done", "reply", "fen", "reason", "hint", "success", "remaining", "found"] {
        assert!(v.get(k).is_some(), "the verdict lacks {k}: {v}");
    }
    assert!(v["reason"].is_null() && v["hint"].is_null());
    // The whole solution completes the step.
    let (_, v) = try_step(&server, json!({"lesson": lesson, "step": step, "moves": solution})).await;
    assert_eq!((v["ok"].as_bool(), v["done"].as_bool()), (Some(true), Some(true)), "{v}");
    assert!(v["success"]["zh"].is_string(), "{v}");

    // Wrong: an illegal move gets the rules core's explanation, and the board stays.
    let (mv, code) = illegal_move(&fen);
    let (s, v) = try_step(&server, json!({"lesson": lesson, "step": step, "moves": [mv]})).await;
    assert_eq!(s, 200, "{v}");
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["reason"]["code"], code.as_str(), "{mv} in {fen}: {v}");
    assert!(v["reason"]["zh"].as_str().is_some_and(|t| !t.is_empty()), "{v}");
    assert!(v["hint"]["en"].is_string(), "{v}");
    assert_eq!(v["fen"], Position::from_fen(&fen).unwrap().fen().as_str());
    // A try of the wrong kind for the step names the field it expects.
    let (s, e) = try_step(&server, json!({"lesson": lesson, "step": step, "choices": [0]})).await;
    assert_eq!(s, 400, "{e}");
    assert!(e["error"].as_str().unwrap().contains("`moves`"), "{e}");
}

async fn progress(
    server: &TestServer,
    method: reqwest::Method,
    session: Option<&str>,
    body: Option<Value>,
) -> (u16, Value) {
    let mut r = client().request(method, server.url("/api/learn/progress"));
    if let Some(s) = session {
        r = r.header("Cookie", format!("gx_session={s}"));
    }
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn progress_of_registered_accounts() {
    use reqwest::Method;
    let server = TestServer::start(&temp_db("learn_progress")).await;
    let (s, e) = progress(&server, Method::GET, None, None).await;
    assert_eq!((s, e["code"].as_str()), (401, Some("login_required")));
    let (s, _) = progress(&server, Method::PUT, None, Some(json!({"lessons": {}}))).await;
    assert_eq!(s, 401);
    let (_, guest) = server.guest().await;
    let (s, e) = progress(&server, Method::GET, Some(&guest), None).await;
    assert_eq!((s, e["code"].as_str()), (403, Some("guest_progress_local")), "{e}");
    assert_eq!(e["message_zh"], "游客的学习进度保存在浏览器中，注册后可同步");
    let (s, _) = progress(&server, Method::PUT, Some(&guest), Some(json!({"lessons": {}}))).await;
    assert_eq!(s, 403);

    let (_, alice) = server.register("alice").await;
    let (s, p) = progress(&server, Method::GET, Some(&alice), None).await;
    assert_eq!((s, p), (200, json!({"lessons": {}})));

    let course = Course::embedded().course;
    let Some((_, lesson)) = course.lessons().find(|(_, l)| l.steps.len() >= 2) else {
        println!("SKIP: the course has no lesson with two steps yet");
        return;
    };
    let id = lesson.id.as_str();
    let body = json!({"lessons": {id: {"steps": [0], "stars": 2, "done": false}, "not_a_lesson": {"steps": [7]}}});
    let (s, p) = progress(&server, Method::PUT, Some(&alice), Some(body)).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(p, json!({"lessons": {id: {"steps": [0], "stars": 2, "done": false}}}), "unknown lessons are left out");
    let body = json!({"lessons": {id: {"steps": [1, 1], "stars": 1, "done": true}}});
    let (_, p) = progress(&server, Method::PUT, Some(&alice), Some(body)).await;
    let merged = json!({"lessons": {id: {"steps": [0, 1], "stars": 2, "done": true}}});
    assert_eq!(p, merged, "union of steps, the best stars, done stays done");
    let (_, p) = progress(&server, Method::GET, Some(&alice), None).await;
    assert_eq!(p, merged);

    // Bad shapes and step indexes are refused, naming the field; nothing changes.
    let n = lesson.steps.len();
    for (body, field) in [
        (json!({"lessons": {id: {"steps": [n]}}}), format!("lessons.{id}.steps[0]:")),
        (json!({"lessons": {id: {"stars": 4}}}), format!("lessons.{id}.stars:")),
        (json!({"lessons": {id: {"done": "yes"}}}), format!("lessons.{id}.done:")),
        (json!({"lessons": {id: {"steps": [0], "star": 1}}}), format!("lessons.{id}.star:")),
        (json!({"lessons": {"not_a_lesson": {"stars": "x"}}}), "lessons.not_a_lesson.stars:".to_owned()),
        (json!({"lessons": []}), "lessons:".to_owned()),
        (json!([1]), "body:".to_owned()),
    ] {
        let (s, e) = progress(&server, Method::PUT, Some(&alice), Some(body.clone())).await;
        assert_eq!(s, 400, "{body} → {e}");
        assert!(e["error"].as_str().unwrap().starts_with(&field), "{body} → {e}");
    }
    let (_, p) = progress(&server, Method::GET, Some(&alice), None).await;
    assert_eq!(p, merged);
}

#[tokio::test]
async fn play_computer_from_a_position() {
    let server = TestServer::start(&temp_db("learn_play")).await;
    let (_, a) = server.guest().await;
    let mut ws = server.ws(&a).await;
    let fen = "4k3/8/8/8/8/8/8/3QK3 w - - 0 1";
    ws.ok(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-", "fen": fen})).await;
    let started = ws.wait(|v| v["t"] == "game_started").await;
    assert_eq!(started["color"], "white");
    let gid = started["game_id"].as_str().unwrap().to_owned();
    ws.ok(json!({"t": "subscribe", "game_id": gid})).await;
    let snap = ws.wait(|v| v["t"] == "game_snapshot" && v["snapshot"]["id"] == gid.as_str()).await;
    assert_eq!(snap["snapshot"]["fen"], fen, "{snap}");
    assert_eq!(snap["snapshot"]["rated"], false);
    assert_eq!(snap["snapshot"]["time_control"], "-");
    common::play(&mut ws, &gid, "d1d7").await;
    let reply = loop {
        let e = ws.event(&gid, "move_made").await;
        if e["by"] == "black" {
            break e;
        }
    };
    assert_eq!(reply["ply"], 2, "the computer answers from the set-up position");

    // A FEN that is not a position, and a finished position, are refused.
    let r = ws
        .request(json!({"t": "play_computer", "level": 1, "color": "white", "time_control": "-", "fen": "8/8 w"}))
        .await;
    assert_eq!((r["t"].as_str(), r["code"].as_str()), (Some("error"), Some("bad_fen")), "{r}");
    let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
    let r =
        ws.request(json!({"t": "play_computer", "level": 1, "color": "black", "time_control": "-", "fen": mate})).await;
    assert_eq!((r["t"].as_str(), r["code"].as_str()), (Some("error"), Some("bad_setup")), "{r}");
}
