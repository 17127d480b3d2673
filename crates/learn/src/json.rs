//! The course as JSON (docs/learn.md "Interfaces"): one object per lesson for `guoxiang learn --json`, and the
//! lessons grouped by chapter for `GET /api/learn`.
//!
//! A step is `{kind, fen, prompt, hint, success, orientation, solutions}` plus its kind's fields; `orientation` is
//! always given (the side to move when the file leaves it out), and optional fields that are absent are left out.

use guoxiang_core::{Color, Position};
use serde_json::{Map, Value, json};

use crate::model::{Goal, Side, Step, StepKind};
use crate::{Chapter, Course, Lesson};

/// One lesson; `order` is its place in the whole course, from 1.
pub fn lesson_json(chapter: &Chapter, lesson: &Lesson, order: usize) -> Value {
    json!({
        "id": lesson.id,
        "chapter": chapter.id,
        "chapter_title": chapter.title,
        "chapter_order": chapter.order,
        "chapter_optional": chapter.optional,
        "order": order,
        "topics": lesson.topics,
        "title": lesson.title,
        "intro": lesson.intro,
        "steps": lesson.steps.iter().map(step_json).collect::<Vec<_>>(),
    })
}

/// Every lesson of the course, in order.
pub fn lessons_json(course: &Course) -> Vec<Value> {
    course.lessons().enumerate().map(|(i, (c, l))| lesson_json(c, l, i + 1)).collect()
}

/// `{"chapters": [{id, order, title, summary, lessons: [...]}]}`.
pub fn course_json(course: &Course) -> Value {
    let mut n = 0;
    let chapters: Vec<Value> = course
        .chapters
        .iter()
        .map(|c| {
            let lessons: Vec<Value> = c
                .lessons
                .iter()
                .map(|l| {
                    n += 1;
                    lesson_json(c, l, n)
                })
                .collect();
            json!({
                "id": c.id,
                "order": c.order,
                "title": c.title,
                "summary": c.summary,
                "optional": c.optional,
                "lessons": lessons,
            })
        })
        .collect();
    json!({ "chapters": chapters })
}

fn squares(v: &[guoxiang_core::Square]) -> Value {
    v.iter().map(|s| s.to_string()).collect::<Vec<_>>().into()
}

/// One step.
pub fn step_json(step: &Step) -> Value {
    let orientation = step.orientation.unwrap_or_else(|| match Position::from_fen(&step.fen).map(|p| p.turn()) {
        Ok(Color::Black) => Side::Black,
        _ => Side::White,
    });
    let mut o = Map::new();
    o.insert("kind".into(), step.kind.name().into());
    o.insert("fen".into(), step.fen.clone().into());
    o.insert("prompt".into(), json!(step.prompt));
    o.insert("hint".into(), json!(step.hint));
    o.insert("success".into(), json!(step.success));
    o.insert("orientation".into(), json!(orientation));
    o.insert("solutions".into(), json!(step.solutions));
    let mut put = |k: &str, v: Value| {
        o.insert(k.into(), v);
    };
    match &step.kind {
        StepKind::Moves { goal, .. } => {
            put("goal", goal.name().into());
            match goal {
                Goal::Line { lines } => put("lines", json!(lines)),
                Goal::Mate { lines, mate_in } => {
                    if !lines.is_empty() {
                        put("lines", json!(lines));
                    }
                    if let Some(n) = mate_in {
                        put("mate_in", (*n).into());
                    }
                }
                Goal::Capture { target: Some(t) } => put("target", t.to_string().into()),
                Goal::Castle { side: Some(s) } => put("side", json!(s)),
                Goal::Promote { role: Some(r) } => put("role", json!(r)),
                Goal::Stars { stars, max_moves, guarded } => {
                    put("stars", squares(stars));
                    if *guarded {
                        put("guarded", true.into());
                    }
                    if let Some(n) = max_moves {
                        put("max_moves", (*n).into());
                    }
                }
                Goal::Escape { count } => put("count", (*count).into()),
                Goal::Any { from: Some(f) } => put("from", f.to_string().into()),
                Goal::Safe { target: Some(t) } => put("target", t.to_string().into()),
                _ => {}
            }
        }
        StepKind::Squares { targets, .. } => put("answer", squares(targets)),
        StepKind::Choice { choices, answer, verify, history } => {
            put("choices", json!(choices));
            put("answer", json!(answer));
            if let Some(v) = verify {
                put("verify", json!(v));
            }
            if !history.is_empty() {
                put("history", json!(history));
            }
        }
        StepKind::LegalMoves { candidates, answer } => {
            put("candidates", json!(candidates));
            put("answer", json!(answer));
        }
        StepKind::Play { level, goal, max_moves } => {
            put("level", (*level).into());
            put("goal", json!(goal));
            if let Some(n) = max_moves {
                put("max_moves", (*n).into());
            }
        }
    }
    Value::Object(o)
}
