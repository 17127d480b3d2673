//! 学棋 / Learn over HTTP: the course compiled into the binary (`GET /api/learn`), the judge of one try
//! (`POST /api/learn/try`, open to anyone: pure computation by the rules core; a registered account's verdicts are
//! recorded as the steps it earned, what its teacher sees), and a registered account's
//! progress (`GET`/`PUT /api/learn/progress`; guests keep theirs in the browser).
//!
//! Request bodies are read as JSON values and checked field by field, so a bad request says which field is wrong
//! (`moves[2]`, `lessons.rook.stars`) instead of a generic deserialisation error. Answers are guoxiang-protocol's
//! types ([`guoxiang_protocol::http::learn`]); the course's JSON is read into [`LearnCourse`] once, which refuses
//! a field that type does not describe.

use std::sync::OnceLock;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guoxiang_learn::{Course, Try};
use guoxiang_protocol::http::{Bilingual, LearnCourse, LearnReason, LearnVerdict};
use guoxiang_store::{LearnProgress, LessonProgress};
use serde_json::{Map, Value};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::{Auth, MaybeAuth};

/// Routes: the 学棋 / Learn course and its progress.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/learn", get(course))
        .route("/api/learn/try", post(judge_try))
        .route("/api/learn/progress", get(get_progress).put(put_progress))
}

/// The most lessons one progress upload may hold.
const MAX_PROGRESS_LESSONS: usize = 1000;

/// The embedded course and its JSON, made once per process (`Err`: the course's JSON does not fit
/// [`LearnCourse`], which the tests rule out).
struct Loaded {
    course: Course,
    json: Result<String, String>,
}

/// The course's JSON read into the answer's type, and written from it.
fn course_answer(course: &Course) -> Result<String, String> {
    let typed: LearnCourse = serde_json::from_value(guoxiang_learn::json::course_json(course))
        .map_err(|e| format!("the course's JSON does not fit the protocol's LearnCourse: {e}"))?;
    serde_json::to_string(&typed).map_err(|e| e.to_string())
}

fn loaded() -> &'static Loaded {
    static LOADED: OnceLock<Loaded> = OnceLock::new();
    LOADED.get_or_init(|| {
        let report = Course::embedded();
        // A broken lesson is the course writers' to fix (`guoxiang learn check course/`); serve the rest.
        for e in report.file_errors() {
            tracing::warn!("learn course: {e}");
        }
        let json = course_answer(&report.course);
        if let Err(e) = &json {
            tracing::error!("learn course: {e}");
        }
        Loaded { course: report.course, json }
    })
}

/// The course compiled into the binary (what lessons and chapters exist, and their steps).
pub(crate) fn course_model() -> &'static Course {
    &loaded().course
}

/// `GET /api/learn`: [`LearnCourse`], `{"chapters": [{id, order, title, summary, lessons: [...]}]}`.
pub async fn course() -> ApiResult<Response> {
    match &loaded().json {
        Ok(json) => Ok(([(header::CONTENT_TYPE, "application/json")], json.as_str()).into_response()),
        Err(e) => Err(ApiError::internal("learn course", e)),
    }
}

/// The answer's form of a verdict. Every field is named, so a field added to the judge's verdict does not compile
/// until it is placed here too.
fn verdict(v: guoxiang_learn::Verdict) -> LearnVerdict {
    let guoxiang_learn::Verdict { ok, done, reply, fen, reason, hint, success, remaining, found, restart } = v;
    let text = |t: guoxiang_learn::Text| Bilingual { zh: t.zh, en: t.en };
    LearnVerdict {
        ok,
        done,
        reply,
        fen,
        reason: reason.map(|guoxiang_learn::Reason { code, zh, en }| LearnReason { code, zh, en }),
        hint: hint.map(text),
        success: success.map(text),
        remaining,
        found,
        restart,
    }
}

fn bad(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

fn body_object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(bad("body", "须为 JSON 对象", "must be a JSON object")),
        Err(e) => Err(bad("body", format!("不是有效的 JSON（{e}）"), format!("not valid JSON ({e})"))),
    }
}

fn strings(field: &str, v: &Value) -> Result<Vec<String>, ApiError> {
    let Value::Array(a) = v else {
        return Err(bad(field, "须为字符串数组", "must be an array of strings"));
    };
    a.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_str().map(str::to_owned).ok_or_else(|| bad(&format!("{field}[{i}]"), "须为字符串", "must be a string"))
        })
        .collect()
}

fn indexes(field: &str, v: &Value) -> Result<Vec<usize>, ApiError> {
    let Value::Array(a) = v else {
        return Err(bad(field, "须为非负整数数组", "must be an array of non-negative integers"));
    };
    a.iter()
        .enumerate()
        .map(|(i, x)| {
            x.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| bad(&format!("{field}[{i}]"), "须为非负整数", "must be a non-negative integer"))
        })
        .collect()
}

/// Reads `{"lesson": …, "step": n, <one of moves|squares|choices|selected>: [...]}`.
fn parse_try(body: &[u8]) -> Result<(String, usize, Try), ApiError> {
    let o = body_object(body)?;
    for k in o.keys() {
        if !["lesson", "step", "moves", "squares", "choices", "selected"].contains(&k.as_str()) {
            return Err(bad(
                k,
                "未知字段",
                "unknown field (expected lesson, step and one of moves, squares, choices, selected)",
            ));
        }
    }
    let lesson = match o.get("lesson") {
        Some(Value::String(s)) => s.clone(),
        Some(_) => return Err(bad("lesson", "须为字符串", "must be a string (the lesson id)")),
        None => return Err(bad("lesson", "缺少此字段", "missing (the lesson id)")),
    };
    let step = match o.get("step") {
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| bad("step", "须为非负整数（从 0 数起）", "must be a non-negative integer (from 0)"))?,
        None => return Err(bad("step", "缺少此字段", "missing (the step, from 0)")),
    };
    let given: Vec<&str> =
        ["moves", "squares", "choices", "selected"].into_iter().filter(|k| o.contains_key(*k)).collect();
    let t = match given.as_slice() {
        ["moves"] => Try::Moves(strings("moves", &o["moves"])?),
        ["squares"] => Try::Squares(strings("squares", &o["squares"])?),
        ["choices"] => Try::Choices(indexes("choices", &o["choices"])?),
        ["selected"] => Try::Selected(strings("selected", &o["selected"])?),
        [] => {
            return Err(bad(
                "moves",
                "须给出 moves、squares、choices 或 selected 之一",
                "give one of moves, squares, choices, selected",
            ));
        }
        more => {
            return Err(bad(
                more[1],
                format!("只能给出一个：{}", more.join("、")),
                format!("give only one of {}", more.join(", ")),
            ));
        }
    };
    Ok((lesson, step, t))
}

/// `POST /api/learn/try`: the verdict on one try. For a registered account (a session, or a token with
/// `learn:write`) the verdict is also recorded: a wrong try counts as a miss at the step, an accepted step is
/// earned ([`record_try`]); guests and visitors are judged alone, as before. A `play` step is judged from the
/// game played: `{"lesson", "step", "game": ID}` ([`judge_played`]).
pub async fn judge_try(
    State(state): State<AppState>,
    MaybeAuth(auth): MaybeAuth,
    body: Bytes,
) -> ApiResult<Json<LearnVerdict>> {
    if let Some(played) = parse_played(&body)? {
        return judge_played(&state, auth.as_ref(), played).await;
    }
    let (lesson, step, t) = parse_try(&body)?;
    match guoxiang_learn::judge(&loaded().course, &lesson, step, &t) {
        Ok(v) => {
            if let Some(user) = auth.as_ref().filter(|a| !a.user.is_guest && a.require("learn:write").is_ok()) {
                record_try(&state, &user.user.id, &lesson, step, &v).await?;
            }
            Ok(Json(verdict(v)))
        }
        Err(e) => {
            let text = e.text();
            if e.is_not_found() {
                Err(ApiError::new(axum::http::StatusCode::NOT_FOUND, "not_found", text.zh, text.en))
            } else {
                Err(bad(&e.field(), text.zh, text.en))
            }
        }
    }
}

/// Reads `{"lesson", "step", "game"}` (a `play` step's game); `None` when the body names no game.
fn parse_played(body: &[u8]) -> Result<Option<(String, usize, String)>, ApiError> {
    let o = body_object(body)?;
    if !o.contains_key("game") {
        return Ok(None);
    }
    if let Some(k) = o.keys().find(|k| !["lesson", "step", "game"].contains(&k.as_str())) {
        return Err(bad(k, "未知字段", "unknown field (with game: lesson, step, game)"));
    }
    let text = |k: &str, what: &str| match o.get(k) {
        Some(Value::String(s)) if !s.is_empty() && s.len() <= 64 => Ok(s.clone()),
        _ => Err(bad(k, "须为字符串", format!("must be a string ({what})"))),
    };
    let step = o
        .get("step")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| bad("step", "须为非负整数（从 0 数起）", "must be a non-negative integer (from 0)"))?;
    Ok(Some((text("lesson", "the lesson id")?, step, text("game", "the game's id")?)))
}

/// A `play` step judged from the game played ([`super::learn_play`]); earned for a registered account when met.
async fn judge_played(
    state: &AppState,
    auth: Option<&Auth>,
    (lesson, index, game): (String, usize, String),
) -> ApiResult<Json<LearnVerdict>> {
    let not_found = |zh: &str, en: &str| ApiError::new(axum::http::StatusCode::NOT_FOUND, "not_found", zh, en);
    let l = loaded().course.lesson(&lesson).ok_or_else(|| not_found("没有这一课", "no such lesson"))?;
    let step = l.steps.get(index).ok_or_else(|| not_found("这一课没有这一步", "the lesson has no such step"))?;
    let (row, moves) = state.store.game(&game).await?.ok_or_else(|| not_found("没有这盘棋", "no such game"))?;
    let user = auth.map_or("", |a| a.user.id.as_str());
    let missed = super::learn_play::judge_played(step, user, &row, &moves).err();
    if missed == Some(super::learn_play::Missed::NotPlay) {
        return Err(bad("game", "这一步不是对局，请用 moves、squares、choices 或 selected", "this step is not a game"));
    }
    if missed.is_none()
        && let Some(a) = auth.filter(|a| !a.user.is_guest && a.require("learn:write").is_ok())
    {
        let at = guoxiang_domain::time::now_ms() as i64;
        state.store.earn_learn_step(&a.user.id, &lesson, index as u32, at).await?;
    }
    let text = |t: &guoxiang_learn::Text| Bilingual { zh: t.zh.clone(), en: t.en.clone() };
    Ok(Json(LearnVerdict {
        ok: missed.is_none(),
        done: missed.is_none(),
        reply: None,
        fen: step.fen.clone(),
        reason: missed.map(|m| {
            let (code, zh, en) = m.text();
            LearnReason { code: code.into(), zh: zh.into(), en: en.into() }
        }),
        hint: missed.map(|_| text(&step.hint)),
        success: missed.is_none().then(|| text(&step.success)),
        remaining: None,
        found: None,
        restart: false,
    }))
}

/// What a teacher sees of a judged try (issue 42): a wrong one adds a miss at the step, an accepted step is earned
/// (the first acceptance wins, with the misses before it). A try that is right but does not finish the step yet
/// changes nothing.
async fn record_try(
    state: &AppState,
    user_id: &str,
    lesson: &str,
    step: usize,
    v: &guoxiang_learn::Verdict,
) -> Result<(), ApiError> {
    let step = u32::try_from(step).map_err(|_| bad("step", "数值太大", "too large"))?;
    if !v.ok {
        state.store.add_learn_miss(user_id, lesson, step).await?;
    } else if v.done {
        state.store.earn_learn_step(user_id, lesson, step, guoxiang_domain::time::now_ms() as i64).await?;
    }
    Ok(())
}

/// Progress is kept for registered accounts only.
fn registered(auth: &Auth) -> Result<&str, ApiError> {
    if auth.user.is_guest {
        return Err(ApiError::forbidden(
            "guest_progress_local",
            "游客的学习进度保存在浏览器中，注册后可同步",
            "guests keep their progress in the browser; register to keep it on the server",
        ));
    }
    Ok(&auth.user.id)
}

fn progress_answer(p: LearnProgress) -> guoxiang_protocol::http::LearnProgress {
    let lessons = p
        .into_iter()
        .map(|(id, LessonProgress { steps, stars, done })| {
            (id, guoxiang_protocol::http::LessonProgress { steps, stars, done })
        })
        .collect();
    guoxiang_protocol::http::LearnProgress { lessons }
}

/// `GET /api/learn/progress`.
pub async fn get_progress(
    State(state): State<AppState>,
    auth: Auth,
) -> ApiResult<Json<guoxiang_protocol::http::LearnProgress>> {
    let user = registered(&auth)?;
    Ok(Json(progress_answer(state.store.learn_progress(user).await?)))
}

/// Reads `{"lessons": {"<id>": {"steps": [..], "stars": 0..3, "done": bool}}}`; lessons the course does not have
/// are checked for shape and then left out.
fn parse_progress(body: &[u8], course: &Course) -> Result<LearnProgress, ApiError> {
    let o = body_object(body)?;
    if let Some(k) = o.keys().find(|k| *k != "lessons") {
        return Err(bad(k, "未知字段", "unknown field (expected lessons)"));
    }
    let Some(Value::Object(lessons)) = o.get("lessons") else {
        return Err(bad("lessons", "须为对象（课程 id → 进度）", "must be an object (lesson id → progress)"));
    };
    if lessons.len() > MAX_PROGRESS_LESSONS {
        return Err(bad("lessons", "课程太多", format!("too many lessons (at most {MAX_PROGRESS_LESSONS})")));
    }
    let mut out = LearnProgress::new();
    for (id, v) in lessons {
        let at = |k: &str| format!("lessons.{id}.{k}");
        let Value::Object(p) = v else {
            return Err(bad(&format!("lessons.{id}"), "须为对象", "must be an object {steps, stars, done}"));
        };
        if let Some(k) = p.keys().find(|k| !["steps", "stars", "done"].contains(&k.as_str())) {
            return Err(bad(&at(k), "未知字段", "unknown field (expected steps, stars, done)"));
        }
        let lesson = course.lesson(id);
        let mut steps = Vec::new();
        if let Some(s) = p.get("steps") {
            for (i, n) in indexes(&at("steps"), s)?.into_iter().enumerate() {
                let count = lesson.map_or(usize::MAX, |l| l.steps.len());
                if n >= count {
                    return Err(bad(
                        &format!("{}[{i}]", at("steps")),
                        format!("第 {id} 课只有 {count} 步（从 0 数起）"),
                        format!("lesson {id} has {count} steps (counted from 0), so {n} is not one"),
                    ));
                }
                steps.push(u32::try_from(n).map_err(|_| bad(&at("steps"), "数值太大", "index too large"))?);
            }
        }
        let stars = match p.get("stars") {
            None => 0,
            Some(v) => match v.as_u64() {
                Some(n @ 0..=3) => n as u8,
                _ => return Err(bad(&at("stars"), "须为 0 到 3 的整数", "must be an integer 0 to 3")),
            },
        };
        let done = match p.get("done") {
            None => false,
            Some(Value::Bool(b)) => *b,
            Some(_) => return Err(bad(&at("done"), "须为 true 或 false", "must be true or false")),
        };
        if lesson.is_some() {
            // Merging with nothing sorts the steps and drops repeats.
            out.insert(id.clone(), LessonProgress { steps, stars, done }.merge(&LessonProgress::default()));
        }
    }
    Ok(out)
}

/// `PUT /api/learn/progress`: merges the body into the stored progress and returns the result.
pub async fn put_progress(
    State(state): State<AppState>,
    auth: Auth,
    body: Bytes,
) -> ApiResult<Json<guoxiang_protocol::http::LearnProgress>> {
    let user = registered(&auth)?;
    let progress = parse_progress(&body, &loaded().course)?;
    let merged = state.store.merge_learn_progress(user, &progress, guoxiang_domain::time::now_ms() as i64).await?;
    Ok(Json(progress_answer(merged)))
}

#[cfg(test)]
mod tests {
    use guoxiang_protocol::http::{LearnAnswerItem, LearnStepKind, LearnTry};

    use super::*;

    /// The embedded course's JSON fits the protocol's type field for field (a field guoxiang-learn adds and the type
    /// does not describe fails here), and writing the type back gives the same JSON.
    #[test]
    fn the_embedded_course_reads_into_the_protocol_type() {
        let report = Course::embedded();
        let raw = guoxiang_learn::json::course_json(&report.course);
        let typed: LearnCourse = serde_json::from_value(raw.clone()).expect("the course fits LearnCourse");
        assert_eq!(serde_json::to_value(&typed).unwrap(), raw);
        let steps: Vec<_> = typed.chapters.iter().flat_map(|c| &c.lessons).flat_map(|l| &l.steps).collect();
        assert!(!steps.is_empty(), "the embedded course has steps");
        // Choice steps answer with indexes, squares steps with squares.
        for s in &steps {
            match s.kind {
                LearnStepKind::Choice => {
                    assert!(s.answer.iter().flatten().all(|a| matches!(a, LearnAnswerItem::Index(_))), "{s:?}")
                }
                LearnStepKind::Squares => {
                    assert!(s.answer.iter().flatten().all(|a| matches!(a, LearnAnswerItem::Text(_))), "{s:?}")
                }
                _ => {}
            }
        }
        assert!(course_answer(&report.course).is_ok());
    }

    /// A try written from the protocol's type is what the field-by-field reader accepts.
    #[test]
    fn tries_written_from_the_protocol_type_are_read() {
        let t = LearnTry { lesson: "rook".into(), step: 2, moves: Some(vec!["a1a8".into()]), ..LearnTry::default() };
        let (lesson, step, t) = parse_try(&serde_json::to_vec(&t).unwrap()).unwrap();
        assert_eq!((lesson.as_str(), step), ("rook", 2));
        assert_eq!(t, Try::Moves(vec!["a1a8".into()]));
        let t = LearnTry { lesson: "x".into(), step: 0, choices: Some(vec![1, 0]), ..LearnTry::default() };
        assert_eq!(parse_try(&serde_json::to_vec(&t).unwrap()).unwrap().2, Try::Choices(vec![1, 0]));
    }
}
