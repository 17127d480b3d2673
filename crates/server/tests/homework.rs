//! Homework and the class's dashboard over real HTTP (issue 42): a lesson claimed through `PUT /api/learn/progress`
//! is not done for the teacher while the same lesson done through the judge (`POST /api/learn/try`) is, with its
//! stars; assignments go open → done, or late; puzzles of a theme count from the trainer's rounds after the
//! assignment; strangers, other teachers and students of other classes get 404; the CSV has a byte-order mark, a
//! header and a line per student. Classes and their students are made through the store (the class routes are
//! tested in their own file).

mod common;

use common::{TestServer, temp_db};
use guoxiang_learn::{Course, StepKind, Try};
use guoxiang_store::{GameRow, MotifTag, PuzzleGlicko, PuzzleRow, WriteOp};
use serde_json::{Value, json};

fn client() -> reqwest::Client {
    reqwest::Client::new()
}

async fn call(server: &TestServer, method: &str, path: &str, session: &str, body: Option<Value>) -> (u16, Value) {
    let m = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    let mut r = client().request(m, server.url(path)).header("Cookie", format!("gx_session={session}"));
    if let Some(b) = body {
        r = r.json(&b);
    }
    let r = r.send().await.unwrap();
    let status = r.status().as_u16();
    (status, r.json().await.unwrap_or(Value::Null))
}

async fn get(server: &TestServer, path: &str, session: &str) -> (u16, Value) {
    call(server, "GET", path, session, None).await
}

async fn post(server: &TestServer, path: &str, session: &str, body: Value) -> (u16, Value) {
    call(server, "POST", path, session, Some(body)).await
}

/// A 400 whose message names `field` (in both languages).
fn names_field(status: u16, body: &Value, field: &str) {
    assert_eq!(status, 400, "{field}: {body}");
    let en = body["error"].as_str().unwrap_or("");
    let zh = body["message_zh"].as_str().unwrap_or("");
    assert!(en.starts_with(&format!("{field}: ")), "{field}: {body}");
    assert!(zh.starts_with(&format!("{field}：")), "{field}: {body}");
}

fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

fn tagged(id: &str, motif: &str) -> PuzzleRow {
    PuzzleRow {
        id: id.into(),
        fen: "6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1".into(),
        moves: "d7d8 d1d8".into(),
        glicko: PuzzleGlicko { rating: 1500.0, deviation: 80.0, volatility: 0.06 },
        plays: 10,
        rounds: 0,
        popularity: 50,
        themes: vec![],
        motifs: vec![MotifTag {
            id: motif.into(),
            zh: "白车吃 d8 将死".into(),
            en: "The rook takes on d8, mate".into(),
        }],
        game_url: String::new(),
        opening_tags: vec![],
        source: "guoxiang".into(),
        number: 0,
    }
}

/// A server whose puzzles are only ours (stored before it starts, so the default set is not imported): forks
/// fk1…fk4 and pins pn1…pn3.
async fn server(name: &str) -> TestServer {
    let db = temp_db(name);
    let store = guoxiang_store::Store::connect(&db).await.unwrap();
    let mut rows: Vec<PuzzleRow> = (1..=4).map(|i| tagged(&format!("fk{i}"), "fork")).collect();
    rows.extend((1..=3).map(|i| tagged(&format!("pn{i}"), "pin")));
    store.upsert_puzzles(&rows).await.unwrap();
    drop(store);
    TestServer::start(&db).await
}

/// A class `id` of `teacher` with these students (user ids).
async fn class(server: &TestServer, id: &str, teacher: &str, students: &[&str]) {
    let store = &server.state.store;
    store.create_class(id, teacher, &format!("Class {id}"), now_ms()).await.unwrap();
    for s in students {
        assert!(store.add_class_student(id, s, now_ms()).await.unwrap());
    }
}

/// A right try for a step, when one can be written without playing (not a `play` step).
fn right_try(step: &guoxiang_learn::Step) -> Option<Try> {
    match &step.kind {
        StepKind::Moves { .. } => step.solutions.first().map(|s| Try::Moves(s.clone())),
        StepKind::Squares { targets, .. } => Some(Try::Squares(targets.iter().map(|s| s.to_string()).collect())),
        StepKind::Choice { answer, .. } => Some(Try::Choices(answer.clone())),
        StepKind::LegalMoves { answer, .. } => Some(Try::Selected(answer.clone())),
        StepKind::Play { .. } => None,
    }
}

/// A wrong try for a step the judge refuses (`ok: false`), if one is easily found.
fn wrong_try(course: &Course, lesson: &str, i: usize) -> Option<Try> {
    let step = &course.lesson(lesson)?.steps[i];
    let candidates: Vec<Try> = match &step.kind {
        StepKind::Choice { choices, answer, .. } => {
            (0..choices.len()).filter(|c| !answer.contains(c)).map(|c| Try::Choices(vec![c])).collect()
        }
        StepKind::Squares { targets, .. } => ["a1", "h8", "d4", "e5"]
            .iter()
            .filter(|s| !targets.iter().any(|t| t.to_string() == **s))
            .map(|s| Try::Squares(vec![(*s).to_owned()]))
            .collect(),
        StepKind::Moves { .. } => {
            ["a1a8", "h1h8", "e2e5", "a2a5", "h7h4"].iter().map(|m| Try::Moves(vec![(*m).into()])).collect()
        }
        _ => vec![],
    };
    candidates.into_iter().find(|t| guoxiang_learn::judge(course, lesson, i, t).is_ok_and(|v| !v.ok))
}

/// The shortest lesson of the course whose every step a right try completes, with those tries.
fn short_lesson() -> (String, Vec<Try>) {
    let course = Course::embedded().course;
    let mut lessons: Vec<_> = course.lessons().map(|(_, l)| l).collect();
    lessons.sort_by_key(|l| l.steps.len());
    for l in lessons {
        let tries: Option<Vec<Try>> = l.steps.iter().map(right_try).collect();
        let Some(tries) = tries else { continue };
        let all =
            tries.iter().enumerate().all(|(i, t)| guoxiang_learn::judge(&course, &l.id, i, t).is_ok_and(|v| v.done));
        if !l.steps.is_empty() && all {
            return (l.id.clone(), tries);
        }
    }
    panic!("the course has a lesson whose steps can all be answered without playing");
}

fn try_body(lesson: &str, step: usize, t: &Try) -> Value {
    let (k, v) = match t {
        Try::Moves(m) => ("moves", json!(m)),
        Try::Squares(s) => ("squares", json!(s)),
        Try::Choices(c) => ("choices", json!(c)),
        Try::Selected(s) => ("selected", json!(s)),
    };
    json!({"lesson": lesson, "step": step, k: v})
}

fn student<'a>(progress: &'a Value, username: &str) -> &'a Value {
    progress["students"].as_array().unwrap().iter().find(|s| s["username"] == username).unwrap()
}

#[tokio::test]
async fn a_claimed_lesson_is_not_done_for_the_teacher_but_an_earned_one_is() {
    let server = server("hw_claimed").await;
    let (_, teacher) = server.register("Teacher").await;
    let (_, ann) = server.register("Ann").await;
    let (_, ben) = server.register("Ben").await;
    class(&server, "c1", "teacher", &["ann", "ben"]).await;
    let (lesson, tries) = short_lesson();
    let (s, a) =
        post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "lesson", "lesson": lesson})).await;
    assert_eq!(s, 201, "{a}");
    assert_eq!((a["kind"].as_str(), a["lesson"].as_str()), (Some("lesson"), Some(lesson.as_str())), "{a}");
    assert!(a["id"].is_string() && a["created_at"].is_i64() && a["due"].is_null(), "{a}");

    // Ann only claims the lesson, every step and three stars, through her bookmark.
    let steps: Vec<usize> = (0..tries.len()).collect();
    let claim = json!({"lessons": {lesson.clone(): {"steps": steps, "stars": 3, "done": true}}});
    let (s, p) = call(&server, "PUT", "/api/learn/progress", &ann, Some(claim)).await;
    assert_eq!(s, 200, "{p}");
    assert_eq!(p["lessons"][&lesson]["done"], true, "her bookmark keeps it: {p}");

    // Ben does it through the judge, with one wrong try first when one is easy to find.
    let course = Course::embedded().course;
    let wrong = wrong_try(&course, &lesson, 0);
    if let Some(w) = &wrong {
        let (s, v) = post(&server, "/api/learn/try", &ben, try_body(&lesson, 0, w)).await;
        assert_eq!((s, v["ok"].as_bool()), (200, Some(false)), "{v}");
    }
    for (i, t) in tries.iter().enumerate() {
        let (s, v) = post(&server, "/api/learn/try", &ben, try_body(&lesson, i, t)).await;
        assert_eq!((s, v["done"].as_bool()), (200, Some(true)), "step {i}: {v}");
    }
    // Tries without a session are judged as before, and count for nobody.
    let r = client().post(server.url("/api/learn/try")).json(&try_body(&lesson, 0, &tries[0])).send().await.unwrap();
    assert_eq!(r.status(), 200);

    let (s, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!(s, 200, "{p}");
    let a_lessons = &student(&p, "Ann")["lessons"];
    assert!(a_lessons.get(&lesson).is_none_or(|l| l["done"] == false), "a claim is not done: {a_lessons}");
    let b = &student(&p, "Ben")["lessons"][&lesson];
    assert_eq!(b["done"], true, "{p}");
    assert_eq!(b["stars"], if wrong.is_some() { 2 } else { 3 }, "stars from the misses, as the course page: {b}");
    let marks = &p["assignments"][0]["students"];
    assert_eq!((marks["Ann"].as_str(), marks["Ben"].as_str()), (Some("open"), Some("done")), "{p}");

    // The students' own homework says the same.
    let (_, h) = get(&server, "/api/homework", &ann).await;
    let hw = &h["assignments"][0];
    assert_eq!(
        (hw["done"].as_bool(), hw["late"].as_bool(), hw["class"].as_str()),
        (Some(false), Some(false), Some("c1"))
    );
    assert_eq!(hw["progress"], json!({"done": 0, "of": tries.len()}), "{hw}");
    let (_, h) = get(&server, "/api/homework", &ben).await;
    assert_eq!(h["assignments"][0]["done"], true, "{h}");
    assert_eq!(h["assignments"][0]["class_name"], "Class c1", "{h}");
}

async fn round(server: &TestServer, session: &str, id: &str, win: bool) {
    // As the trainer: the solving move is judged, then the round is recorded.
    let (s, v) = post(server, &format!("/api/puzzle/{id}/try"), session, json!({"moves": ["d1d8"]})).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(server, &format!("/api/puzzle/{id}/round"), session, json!({"win": win})).await;
    assert_eq!(s, 200, "{v}");
}

#[tokio::test]
async fn puzzles_of_a_theme_go_open_done_or_late() {
    let server = server("hw_puzzles").await;
    let (_, teacher) = server.register("Teacher").await;
    let (_, ann) = server.register("Ann").await;
    let (_, ben) = server.register("Ben").await;
    class(&server, "c1", "teacher", &["ann", "ben"]).await;
    // A fork solved before the homework was given does not count for it.
    round(&server, &ann, "fk1", true).await;
    let hw = |due: Option<i64>| json!({"kind": "puzzles", "theme": "fork", "count": 2, "due": due});
    let (s, on_time) = post(&server, "/api/class/c1/assignments", &teacher, hw(Some(now_ms() + 3_600_000))).await;
    assert_eq!(s, 201, "{on_time}");
    assert_eq!((on_time["theme"].as_str(), on_time["count"].as_i64()), (Some("fork"), Some(2)), "{on_time}");
    let (_, overdue) = post(&server, "/api/class/c1/assignments", &teacher, hw(Some(now_ms() - 1))).await;
    let (_, ids) =
        post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "puzzles", "puzzles": ["pn1", "pn2"]}))
            .await;
    assert_eq!(ids["puzzles"], json!(["pn1", "pn2"]), "{ids}");

    let marks = |p: &Value, i: usize, who: &str| p["assignments"][i]["students"][who].as_str().unwrap().to_owned();
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!([marks(&p, 0, "Ann"), marks(&p, 1, "Ann"), marks(&p, 2, "Ann")], ["open", "late", "open"], "{p}");

    // Ann solves two more forks (and misses a pin twice): both fork assignments are done, the overdue one late.
    round(&server, &ann, "fk2", true).await;
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!(marks(&p, 0, "Ann"), "open", "one fork since the homework is not two: {p}");
    round(&server, &ann, "fk3", true).await;
    round(&server, &ann, "pn1", false).await;
    round(&server, &ann, "pn2", false).await;
    round(&server, &ben, "pn3", true).await;
    round(&server, &ben, "pn1", true).await;
    round(&server, &ben, "pn2", true).await;
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!([marks(&p, 0, "Ann"), marks(&p, 1, "Ann"), marks(&p, 2, "Ann")], ["done", "late", "open"], "{p}");
    assert_eq!([marks(&p, 0, "Ben"), marks(&p, 1, "Ben"), marks(&p, 2, "Ben")], ["open", "late", "done"], "{p}");
    let a = &student(&p, "Ann")["puzzles"];
    assert_eq!((a["solved"].as_i64(), a["failed"].as_i64()), (Some(3), Some(2)), "{a}");
    assert_eq!(a["by_theme"]["pin"], json!({"solved": 0, "failed": 2}), "{a}");
    // The class's weakest theme: pins, 2 of 5 missed; forks were never missed.
    let weak = p["weak_themes"].as_array().unwrap();
    assert_eq!(weak.len(), 1, "{weak:?}");
    assert_eq!(
        (weak[0]["theme"].as_str(), weak[0]["failed"].as_i64(), weak[0]["solved"].as_i64()),
        (Some("pin"), Some(2), Some(3))
    );
    assert!((weak[0]["rate"].as_f64().unwrap() - 0.4).abs() < 1e-9, "{weak:?}");

    let (_, h) = get(&server, "/api/homework", &ann).await;
    let h = h["assignments"].as_array().unwrap();
    assert_eq!(h.len(), 3);
    assert_eq!((h[0]["done"].as_bool(), h[0]["late"].as_bool()), (Some(true), Some(false)), "{h:?}");
    assert_eq!((h[1]["done"].as_bool(), h[1]["late"].as_bool()), (Some(true), Some(true)), "{h:?}");
    assert_eq!(h[2]["progress"], json!({"done": 0, "of": 2}), "{h:?}");

    // The CSV: a byte-order mark, a header, one line per student.
    let r = client()
        .get(server.url("/api/class/c1/progress.csv"))
        .header("Cookie", format!("gx_session={teacher}"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    assert!(r.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let bytes = r.bytes().await.unwrap();
    assert!(bytes.starts_with(&[0xEF, 0xBB, 0xBF]), "UTF-8 byte-order mark");
    let text = String::from_utf8(bytes[3..].to_vec()).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "{text}");
    assert!(lines[0].starts_with("username,name,lessons_done,puzzles_solved,puzzles_failed,games,"), "{text}");
    assert!(lines[0].ends_with(",last_seen_utc"), "{text}");
    assert!(lines[1].starts_with("Ann,Ann,0,3,2,0,done,late,open,"), "{text}");
    assert!(lines[2].starts_with("Ben,Ben,0,3,0,0,open,late,done,"), "{text}");

    // Deleting an assignment takes it off everyone's list.
    let aid = on_time["id"].as_str().unwrap();
    let (s, _) = call(&server, "DELETE", &format!("/api/class/c1/assignments/{aid}"), &teacher, None).await;
    assert_eq!(s, 200);
    let (s, _) = call(&server, "DELETE", &format!("/api/class/c1/assignments/{aid}"), &teacher, None).await;
    assert_eq!(s, 404);
    let (_, l) = get(&server, "/api/class/c1/assignments", &ben).await;
    assert_eq!(l["assignments"].as_array().unwrap().len(), 2, "{l}");
    assert_eq!(overdue["kind"], "puzzles");
}

#[tokio::test]
async fn an_assignment_names_what_does_not_exist() {
    let server = server("hw_bad").await;
    let (_, teacher) = server.register("Teacher").await;
    class(&server, "c1", "teacher", &[]).await;
    let cases = [
        (json!({"lesson": "x"}), "kind"),
        (json!({"kind": "homework"}), "kind"),
        (json!({"kind": "lesson", "lesson": "no_such_lesson"}), "lesson"),
        (json!({"kind": "lesson"}), "lesson"),
        (json!({"kind": "lesson", "lesson": "x", "theme": "fork"}), "theme"),
        (json!({"kind": "chapter", "chapter": "no_such_chapter"}), "chapter"),
        (json!({"kind": "puzzles", "theme": "no_such_theme", "count": 2}), "theme"),
        (json!({"kind": "puzzles", "theme": "deflection", "count": 2}), "theme"),
        (json!({"kind": "puzzles", "theme": "fork", "count": 0}), "count"),
        (json!({"kind": "puzzles", "theme": "fork"}), "count"),
        (json!({"kind": "puzzles", "puzzles": ["fk1", "nope"]}), "puzzles[1]"),
        (json!({"kind": "puzzles", "puzzles": []}), "puzzles"),
        (json!({"kind": "computer", "level": 11}), "level"),
        (json!({"kind": "computer", "level": 0}), "level"),
        (json!({"kind": "computer", "level": 3, "count": "two"}), "count"),
        (json!({"kind": "study", "study": "nope"}), "study"),
        (json!({"kind": "tournament", "tournament": "nope"}), "tournament"),
        (json!({"kind": "computer", "level": 3, "due": "tomorrow"}), "due"),
        (json!({"kind": "computer", "level": 3, "due": -5}), "due"),
    ];
    for (body, field) in cases {
        let (s, e) = post(&server, "/api/class/c1/assignments", &teacher, body.clone()).await;
        names_field(s, &e, field);
    }
    let (s, a) =
        post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "computer", "level": 10, "due": 5})).await;
    assert_eq!(s, 201, "{a}");
    assert_eq!((a["level"].as_i64(), a["count"].as_i64(), a["due"].as_i64()), (Some(10), Some(1), Some(5)), "{a}");
    let course = Course::embedded().course;
    let chapter = &course.chapters[0].id;
    let (s, a) =
        post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "chapter", "chapter": chapter})).await;
    assert_eq!((s, a["chapter"].as_str()), (201, Some(chapter.as_str())), "{a}");
}

#[tokio::test]
async fn strangers_other_teachers_and_other_classes_get_404() {
    let server = server("hw_404").await;
    let (_, teacher) = server.register("Teacher").await;
    let (_, ann) = server.register("Ann").await;
    let (_, other_teacher) = server.register("Other").await;
    let (_, olga) = server.register("Olga").await;
    let (_, stranger) = server.register("Stranger").await;
    class(&server, "c1", "teacher", &["ann"]).await;
    class(&server, "c2", "other", &["olga"]).await;
    let (s, a) = post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "computer", "level": 2})).await;
    assert_eq!(s, 201);
    let aid = a["id"].as_str().unwrap().to_owned();
    let new = json!({"kind": "computer", "level": 2});
    for who in [&stranger, &other_teacher, &olga] {
        for path in ["/api/class/c1/assignments", "/api/class/c1/progress", "/api/class/c1/progress.csv"] {
            let (s, _) = get(&server, path, who).await;
            assert_eq!(s, 404, "{path}");
        }
        let (s, _) = post(&server, "/api/class/c1/assignments", who, new.clone()).await;
        assert_eq!(s, 404);
        let (s, _) = call(&server, "DELETE", &format!("/api/class/c1/assignments/{aid}"), who, None).await;
        assert_eq!(s, 404);
        let (_, h) = get(&server, "/api/homework", who).await;
        assert!(h["assignments"].as_array().unwrap().iter().all(|a| a["class"] != "c1"), "{h}");
    }
    // The class's own student reads the assignments, and changes nothing, nor sees the dashboard.
    let (s, l) = get(&server, "/api/class/c1/assignments", &ann).await;
    assert_eq!((s, l["assignments"].as_array().map(Vec::len)), (200, Some(1)), "{l}");
    let (s, _) = post(&server, "/api/class/c1/assignments", &ann, new.clone()).await;
    assert_eq!(s, 404);
    let (s, _) = call(&server, "DELETE", &format!("/api/class/c1/assignments/{aid}"), &ann, None).await;
    assert_eq!(s, 404);
    let (s, _) = get(&server, "/api/class/c1/progress", &ann).await;
    assert_eq!(s, 404);
    let (s, _) = get(&server, "/api/class/nope/progress", &teacher).await;
    assert_eq!(s, 404);
    // Without a session: 401.
    let r = client().get(server.url("/api/class/c1/progress")).send().await.unwrap();
    assert_eq!(r.status(), 401);
    let (s, _) = get(&server, "/api/class/c1/assignments", &teacher).await;
    assert_eq!(s, 200);
}

/// A game of `user` (White) against the computer at `level`, stored as the server stores one that ended.
fn computer_game(id: &str, user: &str, level: i64, at: i64, status: &str, winner: Option<&str>) -> GameRow {
    GameRow {
        id: id.to_owned(),
        white_id: user.to_owned(),
        white_name: user.to_owned(),
        black_id: "computer".to_owned(),
        black_name: format!("Computer level {level}"),
        white_engine_level: None,
        black_engine_level: Some(level),
        rated: false,
        time_control: "-".to_owned(),
        speed: "correspondence".to_owned(),
        variant_json: r#"{"key":"standard"}"#.to_owned(),
        status: status.to_owned(),
        result: winner.map(|w| if w == "white" { "1-0" } else { "0-1" }.to_owned()),
        termination: None,
        winner: winner.map(str::to_owned),
        created_at_ms: at,
        ended_at_ms: (status != "live").then_some(at + 1000),
        state_json: "{}".to_owned(),
        version: 0,
        white_rating: None,
        black_rating: None,
        white_rating_diff: None,
        black_rating_diff: None,
        white_points_diff: None,
        black_points_diff: None,
    }
}

#[tokio::test]
async fn games_against_the_computer_count_when_played_to_the_end_at_the_level() {
    let server = server("hw_computer").await;
    let (_, teacher) = server.register("Teacher").await;
    let (_, _ann) = server.register("Ann").await;
    class(&server, "c1", "teacher", &["ann"]).await;
    let store = &server.state.store;
    let t0 = now_ms();
    // Before the homework: does not count.
    store
        .write_batch(&[WriteOp::InsertGame(computer_game("g0", "ann", 5, t0 - 60_000, "finished", Some("white")))])
        .await
        .unwrap();
    let (s, _) =
        post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "computer", "level": 3, "count": 2})).await;
    assert_eq!(s, 201);
    let mark = |p: &Value| p["assignments"][0]["students"]["Ann"].as_str().unwrap().to_owned();
    let t = now_ms() + 10;
    store
        .write_batch(&[
            // Aborted, too weak a level, still being played: none counts.
            WriteOp::InsertGame(computer_game("g1", "ann", 3, t, "aborted", None)),
            WriteOp::InsertGame(computer_game("g2", "ann", 2, t, "finished", Some("white"))),
            WriteOp::InsertGame(computer_game("g3", "ann", 4, t, "live", None)),
            // Played to the end at level 3 or higher: lost or won, each counts.
            WriteOp::InsertGame(computer_game("g4", "ann", 3, t, "finished", Some("black"))),
        ])
        .await
        .unwrap();
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!(mark(&p), "open", "{p}");
    store.write_batch(&[WriteOp::InsertGame(computer_game("g5", "ann", 6, t, "finished", None))]).await.unwrap();
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!(mark(&p), "done", "{p}");
    let g = &student(&p, "Ann")["games"];
    assert_eq!(
        (g["played"].as_i64(), g["won"].as_i64(), g["drawn"].as_i64(), g["lost"].as_i64()),
        (Some(4), Some(2), Some(1), Some(1)),
        "{g}"
    );
    let recent = g["recent"].as_array().unwrap();
    assert!(recent.iter().all(|r| r["id"] != "g1"), "aborted games are not listed: {g}");
    let g4 = recent.iter().find(|r| r["id"] == "g4").unwrap();
    assert_eq!((g4["opponent"].as_str(), g4["result"].as_str()), (Some("Computer level 3"), Some("loss")), "{g4}");
    assert!(student(&p, "Ann")["last_seen"].as_i64().is_some_and(|at| at >= t), "{p}");
}

/// The first `play` step of the course that is won, drawn or finished (not a promotion race): lesson, index, step.
fn play_step() -> Option<(String, usize, guoxiang_learn::Step)> {
    let course = Course::embedded().course;
    for (_, l) in course.lessons() {
        for (i, s) in l.steps.iter().enumerate() {
            if let StepKind::Play { goal, .. } = &s.kind
                && *goal != guoxiang_learn::PlayGoal::Promote
            {
                return Some((l.id.clone(), i, s.clone()));
            }
        }
    }
    None
}

#[tokio::test]
async fn a_play_step_is_earned_from_the_game_played() {
    let server = server("hw_play").await;
    let (_, ann) = server.register("Ann").await;
    let (_, ben) = server.register("Ben").await;
    let Some((lesson, index, step)) = play_step() else {
        println!("SKIP: the course has no play step");
        return;
    };
    let StepKind::Play { level, goal, .. } = &step.kind else { unreachable!() };
    // Ann plays the side to move of the step's position against the computer at its level, and meets the goal.
    let white = step.fen.split_whitespace().nth(1) != Some("b");
    let winner = match goal {
        guoxiang_learn::PlayGoal::Draw => None,
        _ => Some(if white { "white" } else { "black" }),
    };
    let mut g = computer_game("p1", "ann", i64::from(*level), now_ms(), "finished", winner);
    if !white {
        (g.white_id, g.black_id) = (g.black_id.clone(), g.white_id.clone());
        (g.white_engine_level, g.black_engine_level) = (g.black_engine_level, None);
    }
    g.variant_json = json!({"kind": "from_position", "fen": step.fen}).to_string();
    let other = GameRow { id: "p2".into(), variant_json: r#"{"kind":"standard"}"#.into(), ..g.clone() };
    let store = &server.state.store;
    store.write_batch(&[WriteOp::InsertGame(g), WriteOp::InsertGame(other)]).await.unwrap();

    let body = |game: &str| json!({"lesson": lesson, "step": index, "game": game});
    // Ben cannot earn it with Ann's game; a game from another position does not count.
    let (s, v) = post(&server, "/api/learn/try", &ben, body("p1")).await;
    assert_eq!((s, v["ok"].as_bool(), v["reason"]["code"].as_str()), (200, Some(false), Some("not_your_game")), "{v}");
    let (s, v) = post(&server, "/api/learn/try", &ann, body("p2")).await;
    assert_eq!((s, v["reason"]["code"].as_str()), (200, Some("other_position")), "{v}");
    let (s, v) = post(&server, "/api/learn/try", &ann, body("nope")).await;
    assert_eq!(s, 404, "{v}");
    assert!(store.learn_earned("ann").await.unwrap().is_empty());
    let (s, v) = post(&server, "/api/learn/try", &ann, body("p1")).await;
    assert_eq!((s, v["ok"].as_bool(), v["done"].as_bool()), (200, Some(true), Some(true)), "{v}");
    assert!(store.learn_earned("ann").await.unwrap()[&lesson].contains_key(&(index as u32)));
    // A game for a step that is not a game: the field is named.
    let (s, e) =
        post(&server, "/api/learn/try", &ann, json!({"lesson": lesson, "step": index, "game": "p1", "x": 1})).await;
    names_field(s, &e, "x");
}

/// A solve counts for the teacher only when the server's judge saw it: a round claimed without the solving try,
/// or after a wrong try, is rated as the client says but is not earned.
#[tokio::test]
async fn a_claimed_puzzle_solve_is_not_earned() {
    let server = server("hw_claimed_puzzles").await;
    let (_, teacher) = server.register("Teacher").await;
    let (_, ann) = server.register("Ann").await;
    let (_, ben) = server.register("Ben").await;
    class(&server, "c1", "teacher", &["ann", "ben"]).await;
    let (s, v) =
        post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "puzzles", "theme": "fork", "count": 1}))
            .await;
    assert_eq!(s, 201, "{v}");
    // Ann claims a win without a try, then a win after a wrong try.
    let (s, v) = post(&server, "/api/puzzle/fk1/round", &ann, json!({"win": true})).await;
    assert_eq!(s, 200, "{v}");
    let (s, v) = post(&server, "/api/puzzle/fk2/try", &ann, json!({"moves": ["h2h3"]})).await;
    assert_eq!((s, v["verdict"].as_str()), (200, Some("wrong")), "{v}");
    let (s, v) = post(&server, "/api/puzzle/fk2/try", &ann, json!({"moves": ["d1d8"]})).await;
    assert_eq!((s, v["verdict"].as_str()), (200, Some("solved")), "{v}");
    let (s, v) = post(&server, "/api/puzzle/fk2/round", &ann, json!({"win": true})).await;
    assert_eq!(s, 200, "{v}");
    // Ben solves one as the trainer does.
    round(&server, &ben, "fk3", true).await;
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    let marks = &p["assignments"][0]["students"];
    assert_eq!((marks["Ann"].as_str(), marks["Ben"].as_str()), (Some("open"), Some("done")), "{p}");
    let a = &student(&p, "Ann")["puzzles"];
    assert_eq!((a["solved"].as_i64(), a["failed"].as_i64()), (Some(0), Some(2)), "{a}");
    assert_eq!(a["by_theme"]["fork"], json!({"solved": 0, "failed": 2}), "{a}");
    let b = &student(&p, "Ben")["puzzles"];
    assert_eq!((b["solved"].as_i64(), b["failed"].as_i64()), (Some(1), Some(0)), "{b}");
    // Ann's own trainer dashboard still shows her rounds as the trainer reported them (the ratings move as on
    // lichess); only the teacher's count asks the judge.
    let (s, d) = get(&server, "/api/puzzle/dashboard", &ann).await;
    assert_eq!(s, 200, "{d}");
    let fork = d["themes"].as_array().unwrap().iter().find(|t| t["id"] == "fork").cloned().unwrap_or_default();
    assert_eq!((fork["solved"].as_i64(), fork["failed"].as_i64()), (Some(2), Some(0)), "{d}");
}

/// A study given as homework is done once the student has opened it; the teacher's own views do not count.
#[tokio::test]
async fn a_study_is_done_once_opened() {
    let server = server("hw_study").await;
    let (_, teacher) = server.register("Teacher").await;
    let (_, ann) = server.register("Ann").await;
    let (_, _ben) = server.register("Ben").await;
    class(&server, "c1", "teacher", &["ann", "ben"]).await;
    let (s, st) =
        post(&server, "/api/study", &teacher, json!({"title": "Pins", "visibility": "class", "class": "c1"})).await;
    assert_eq!(s, 201, "{st}");
    let id = st["id"].as_str().unwrap().to_owned();
    let (s, v) = post(&server, "/api/class/c1/assignments", &teacher, json!({"kind": "study", "study": id})).await;
    assert_eq!(s, 201, "{v}");
    let (s, v) = get(&server, &format!("/api/study/{id}"), &teacher).await;
    assert_eq!(s, 200, "{v}");
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!(p["assignments"][0]["students"], json!({"Ann": "open", "Ben": "open"}), "{p}");
    let (s, v) = get(&server, &format!("/api/study/{id}"), &ann).await;
    assert_eq!(s, 200, "{v}");
    let (_, p) = get(&server, "/api/class/c1/progress", &teacher).await;
    assert_eq!(p["assignments"][0]["students"], json!({"Ann": "done", "Ben": "open"}), "{p}");
    let (_, h) = get(&server, "/api/homework", &ann).await;
    assert_eq!(h["assignments"][0]["progress"], json!({"done": 1, "of": 1}), "{h}");
}
