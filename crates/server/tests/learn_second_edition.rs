//! 学棋 / Learn, the second edition over real HTTP: a guarded star square is refused with reason `guarded` and
//! words naming the guard, and the course's JSON says which chapters are optional. The steps are picked from the
//! course compiled in (it is being written as these tests run), not named here.

mod common;

use common::{TestServer, temp_db};
use guoxiang_learn::{Course, Goal, StepKind};
use serde_json::{Value, json};

#[tokio::test]
async fn guarded_stars_and_optional_chapters() {
    let server = TestServer::start(&temp_db("learn_second_edition")).await;
    let client = reqwest::Client::new();
    let course: Value = client.get(server.url("/api/learn")).send().await.unwrap().json().await.unwrap();
    let expected = Course::embedded().course;
    for (c, e) in course["chapters"].as_array().unwrap().iter().zip(&expected.chapters) {
        assert_eq!(c["optional"], e.optional, "{}", e.id);
        for l in c["lessons"].as_array().unwrap() {
            assert_eq!(l["chapter_optional"], e.optional, "{}", l["id"]);
        }
    }

    // A wrong try of a guarded stars step that the course says is refused as `guarded`.
    let found = expected.lessons().find_map(|(_, l)| {
        l.steps.iter().enumerate().find_map(|(i, s)| match &s.kind {
            StepKind::Moves { goal: Goal::Stars { guarded: true, .. }, wrong } if s.solutions.len() == 1 => wrong
                .iter()
                .find(|w| w.reason == "guarded" && guoxiang_learn::check::check_step(s).is_empty())
                .map(|w| (l.id.clone(), i, w.moves.clone())),
            _ => None,
        })
    });
    let Some((lesson, step, moves)) = found else {
        println!("SKIP: the course has no checked guarded stars step yet");
        return;
    };
    let r = client
        .post(server.url("/api/learn/try"))
        .json(&json!({"lesson": lesson, "step": step, "moves": moves}))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    let v: Value = r.json().await.unwrap();
    assert_eq!(v["ok"], false, "{v}");
    assert_eq!(v["reason"]["code"], "guarded", "{v}");
    let square = &moves.last().unwrap()[2..4];
    let zh = v["reason"]["zh"].as_str().unwrap();
    let en = v["reason"]["en"].as_str().unwrap();
    assert!(zh.starts_with(square) && zh.contains("守着"), "{zh}");
    assert!(en.starts_with("The ") && en.contains(&format!("guards {square}")), "{en}");
}
