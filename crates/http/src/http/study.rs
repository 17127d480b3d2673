//! Studies (研究, issue 42) over HTTP: a registered account's chapters of annotated positions with interactive
//! steps (the model is [`guoxiang_learn::study`]). A study is private, shared with one of its owner's classes, or
//! public (anyone with the link). Its owner changes it; whoever may read it may judge its steps. A study nobody may
//! read is answered 404, as if it did not exist.
//!
//! Chapters are counted from 0 (`/chapters/0.pgn`, `"chapter": 0`); a position in a chapter is a path
//! ([`guoxiang_learn::study`]: `[]` the start, `[i]` after mainline move `i`, `[i, v, j]` in a variation).

use std::sync::OnceLock;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guoxiang_learn::study::chapters_from_pgn;
use guoxiang_learn::{Course, Note, Study, StudyError, Try, judge_step};
use guoxiang_store::{STUDY_VISIBILITIES, StudyRow, StudyWrite};
use serde_json::{Map, Value, json};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::{self, Auth, MaybeAuth};

/// The largest study body or PGN upload (the other routes keep the server's 64 KiB).
pub const MAX_STUDY_BYTES: usize = 1024 * 1024;

/// Routes: studies, their chapters' PGN, the course file, judging a step.
pub fn routes() -> Router<AppState> {
    let big = || DefaultBodyLimit::max(MAX_STUDY_BYTES);
    Router::new()
        .route("/api/study", post(create).get(list))
        .route("/api/study/from-lesson/{lesson}", post(from_lesson))
        .route("/api/study/{id}", get(show).put(save).layer(big()).delete(remove))
        .route("/api/study/{id}/chapters/pgn", post(import_pgn).layer(big()))
        .route("/api/study/{id}/chapters/{n}", get(chapter_pgn))
        .route("/api/study/{id}/try", post(judge_try))
}

fn now_ms() -> i64 {
    guoxiang_domain::time::now_ms() as i64
}

fn course() -> &'static Course {
    static COURSE: OnceLock<Course> = OnceLock::new();
    COURSE.get_or_init(|| Course::embedded().course)
}

fn bad(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

fn study_error(e: StudyError) -> ApiError {
    ApiError::bad_request("bad_study", format!("{}：{}", e.at, e.zh), format!("{}: {}", e.at, e.en))
}

fn not_found() -> ApiError {
    ApiError::not_found("这个研究", "study")
}

fn registered(a: &Auth) -> Result<&str, ApiError> {
    if a.user.is_guest {
        return Err(ApiError::forbidden(
            "registered_only",
            "游客不能创建研究，请先注册",
            "guests cannot write studies; register first",
        ));
    }
    Ok(&a.user.id)
}

/// The study if the caller may read it (404 otherwise).
async fn readable(state: &AppState, id: &str, user: Option<&str>) -> Result<StudyRow, ApiError> {
    let row = state.store.study(id).await?.ok_or_else(not_found)?;
    if state.store.may_read_study(&row, user).await? { Ok(row) } else { Err(not_found()) }
}

/// The study if the caller owns it (404 if they may not read it, 403 if they may only read it).
async fn owned(state: &AppState, id: &str, a: &Auth) -> Result<StudyRow, ApiError> {
    let row = readable(state, id, Some(&a.user.id)).await?;
    if row.owner_id != a.user.id {
        return Err(ApiError::forbidden(
            "not_study_owner",
            "只有研究的作者可以修改它",
            "only the study's owner may change it",
        ));
    }
    Ok(row)
}

fn body_of(row: &StudyRow) -> Result<Study, ApiError> {
    serde_json::from_str(&row.body).map_err(|e| ApiError::internal(&format!("study {} body", row.id), e))
}

/// The title column of a study's title.
fn title_of(study: &Study) -> String {
    match &study.title {
        Note::One(s) => s.trim().to_owned(),
        Note::Both(t) if t.zh == t.en => t.zh.trim().to_owned(),
        Note::Both(t) => format!("{} / {}", t.zh.trim(), t.en.trim()),
    }
}

/// A study in a list, or (with `study`) whole.
fn answer(row: &StudyRow, me: Option<&str>, study: Option<&Study>) -> Value {
    let mut v = json!({
        "id": row.id, "title": row.title, "owner": row.owner_name, "visibility": row.visibility,
        "class": row.class_id, "created_at_ms": row.created_at_ms, "updated_at_ms": row.updated_at_ms,
        "mine": me == Some(row.owner_id.as_str()),
    });
    if let Some(s) = study {
        v["study"] = serde_json::to_value(s).unwrap_or(Value::Null);
    }
    v
}

/// Reads `visibility` and `class` (a class the caller teaches, needed with and only with `class`).
async fn sharing(
    state: &AppState,
    owner: &str,
    o: &Map<String, Value>,
    current: (&str, Option<&str>),
) -> Result<(String, Option<String>), ApiError> {
    let visibility = match o.get("visibility") {
        None => current.0.to_owned(),
        Some(Value::String(v)) if STUDY_VISIBILITIES.contains(&v.as_str()) => v.clone(),
        Some(_) => return Err(bad("visibility", "须为 private、class 或 public", "must be private, class or public")),
    };
    let class = match o.get("class") {
        None => current.1.map(str::to_owned),
        Some(Value::Null) => None,
        Some(Value::String(c)) => Some(c.clone()),
        Some(_) => return Err(bad("class", "须为班级编号", "must be a class id")),
    };
    if visibility != "class" {
        return Ok((visibility, None));
    }
    let Some(class) = class else {
        return Err(bad("class", "分享给班级时须给出班级", "a study shared with a class needs the class"));
    };
    match state.store.class(&class).await? {
        Some(c) if c.owner_id == owner => Ok((visibility, Some(class))),
        _ => Err(bad("class", "不是你教的班级", "not a class you teach")),
    }
}

fn object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(bad("body", "须为 JSON 对象", "must be a JSON object")),
        Err(e) => Err(bad("body", format!("不是有效的 JSON（{e}）"), format!("not valid JSON ({e})"))),
    }
}

async fn insert(
    state: &AppState,
    owner: &str,
    study: &Study,
    visibility: &str,
    class: Option<&str>,
) -> ApiResult<Response> {
    let body = serde_json::to_string(study).map_err(|e| ApiError::internal("study json", e))?;
    let id = auth::new_secret()[..12].to_owned();
    let w = StudyWrite { title: &title_of(study), visibility, class_id: class, body: &body };
    let row = state.store.create_study(&id, owner, w, now_ms()).await?;
    Ok((StatusCode::CREATED, Json(answer(&row, Some(owner), Some(study)))).into_response())
}

/// `POST /api/study` `{"title", "visibility"?, "class"?}` → 201 with the new study (one chapter at the start).
pub async fn create(State(state): State<AppState>, a: Auth, body: Bytes) -> ApiResult<Response> {
    let owner = registered(&a)?;
    let o = object(&body)?;
    if let Some(k) = o.keys().find(|k| !["title", "visibility", "class"].contains(&k.as_str())) {
        return Err(bad(k, "未知字段", "unknown field (expected title, visibility, class)"));
    }
    let title = match o.get("title") {
        Some(Value::String(t)) => t.trim().to_owned(),
        _ => return Err(bad("title", "须为文字", "must be a text")),
    };
    let mut study = Study::new(&title);
    study.validate().map_err(study_error)?;
    let (visibility, class) = sharing(&state, owner, &o, ("private", None)).await?;
    insert(&state, owner, &study, &visibility, class.as_deref()).await
}

/// `POST /api/study/from-lesson/{lesson}`: a new private study copied from a course lesson (a chapter per step).
pub async fn from_lesson(State(state): State<AppState>, a: Auth, Path(lesson): Path<String>) -> ApiResult<Response> {
    let owner = registered(&a)?;
    let l = course().lesson(&lesson).ok_or_else(|| ApiError::not_found("这一课", "lesson"))?;
    insert(&state, owner, &Study::from_lesson(l), "private", None).await
}

/// `GET /api/study`: `{"studies": [...]}`, the caller's own and those shared with their classes.
pub async fn list(State(state): State<AppState>, a: Auth) -> ApiResult<Json<Value>> {
    let me = a.user.id.as_str();
    let mut rows = state.store.studies_owned(me).await?;
    rows.extend(state.store.studies_shared_with(me).await?);
    let studies: Vec<Value> = rows.iter().map(|r| answer(r, Some(me), None)).collect();
    Ok(Json(json!({ "studies": studies })))
}

/// `GET /api/study/{id}`: the study with its body; `GET /api/study/{id}.toml`: its steps as a course file.
pub async fn show(
    State(state): State<AppState>,
    MaybeAuth(a): MaybeAuth,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let me = a.as_ref().map(|a| a.user.id.as_str());
    if let Some(id) = id.strip_suffix(".toml") {
        let row = readable(&state, id, me).await?;
        let toml = body_of(&row)?.to_lesson_toml().map_err(study_error)?;
        return Ok(([(header::CONTENT_TYPE, "application/toml; charset=utf-8")], toml).into_response());
    }
    let row = readable(&state, &id, me).await?;
    let study = body_of(&row)?;
    // A registered reader's first view (a study given as homework is then done).
    if let Some(a) = a.as_ref().filter(|a| !a.user.is_guest && a.user.id != row.owner_id) {
        state.store.record_study_view(&a.user.id, &row.id, guoxiang_domain::time::now_ms() as i64).await?;
    }
    Ok(Json(answer(&row, me, Some(&study))).into_response())
}

/// `PUT /api/study/{id}`: the owner saves the whole study (its JSON, validated; `visibility` and `class` beside it
/// change its sharing).
pub async fn save(
    State(state): State<AppState>,
    a: Auth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let row = owned(&state, &id, &a).await?;
    let mut o = object(&body)?;
    let (visibility, class) = sharing(&state, &row.owner_id, &o, (&row.visibility, row.class_id.as_deref())).await?;
    o.remove("visibility");
    o.remove("class");
    let mut study: Study = serde_json::from_value(Value::Object(o)).map_err(|e| bad("body", e.to_string(), e))?;
    study.validate().map_err(study_error)?;
    write(&state, &row, &study, &visibility, class.as_deref()).await?;
    let row = state.store.study(&id).await?.ok_or_else(not_found)?;
    Ok(Json(answer(&row, Some(&a.user.id), Some(&study))))
}

async fn write(state: &AppState, row: &StudyRow, s: &Study, visibility: &str, class: Option<&str>) -> ApiResult<()> {
    let body = serde_json::to_string(s).map_err(|e| ApiError::internal("study json", e))?;
    let w = StudyWrite { title: &title_of(s), visibility, class_id: class, body: &body };
    if !state.store.update_study(&row.id, w, now_ms()).await? {
        return Err(not_found());
    }
    Ok(())
}

/// `DELETE /api/study/{id}`: the owner deletes it (204).
pub async fn remove(State(state): State<AppState>, a: Auth, Path(id): Path<String>) -> ApiResult<StatusCode> {
    owned(&state, &id, &a).await?;
    state.store.delete_study(&id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/study/{id}/chapters/pgn` (PGN text, one chapter per game): the owner adds chapters →
/// `{"added": [indexes], "chapters": count}`.
pub async fn import_pgn(
    State(state): State<AppState>,
    a: Auth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<Value>> {
    let row = owned(&state, &id, &a).await?;
    let text = std::str::from_utf8(&body).map_err(|_| bad("body", "须为 UTF-8 文本", "must be UTF-8 text"))?;
    let chapters = chapters_from_pgn(text).map_err(study_error)?;
    let mut study = body_of(&row)?;
    let first = study.chapters.len();
    study.chapters.extend(chapters);
    study.validate().map_err(study_error)?;
    write(&state, &row, &study, &row.visibility, row.class_id.as_deref()).await?;
    let added: Vec<usize> = (first..study.chapters.len()).collect();
    Ok(Json(json!({ "added": added, "chapters": study.chapters.len() })))
}

/// `GET /api/study/{id}/chapters/{n}.pgn`: chapter `n` (from 0) as PGN.
pub async fn chapter_pgn(
    State(state): State<AppState>,
    MaybeAuth(a): MaybeAuth,
    Path((id, n)): Path<(String, String)>,
) -> ApiResult<Response> {
    let row = readable(&state, &id, a.as_ref().map(|a| a.user.id.as_str())).await?;
    let study = body_of(&row)?;
    let n: usize = n
        .strip_suffix(".pgn")
        .unwrap_or(&n)
        .parse()
        .map_err(|_| bad("n", "须为章节序号（从 0 数起）", "must be a chapter number (from 0)"))?;
    let chapter = study.chapters.get(n).ok_or_else(|| ApiError::not_found("这一章", "chapter"))?;
    Ok(([(header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8")], chapter.to_pgn()).into_response())
}

fn index_list(field: &str, v: &Value) -> Result<Vec<usize>, ApiError> {
    let err = || bad(field, "须为非负整数数组", "must be an array of non-negative integers");
    let Value::Array(a) = v else { return Err(err()) };
    a.iter().map(|x| x.as_u64().and_then(|n| usize::try_from(n).ok()).ok_or_else(err)).collect()
}

fn string_list(field: &str, v: &Value) -> Result<Vec<String>, ApiError> {
    let err = || bad(field, "须为字符串数组", "must be an array of strings");
    let Value::Array(a) = v else { return Err(err()) };
    a.iter().map(|x| x.as_str().map(str::to_owned).ok_or_else(err)).collect()
}

/// Reads `{"chapter", "path"? | "step"?, <one of moves|squares|choices|selected>}`: the try and where its step is
/// (`path`, or the `step`-th step of the chapter, from 0; neither: the chapter's first step).
fn parse_try(o: &Map<String, Value>) -> Result<StudyTry, ApiError> {
    const KEYS: [&str; 7] = ["chapter", "path", "step", "moves", "squares", "choices", "selected"];
    if let Some(k) = o.keys().find(|k| !KEYS.contains(&k.as_str())) {
        return Err(bad(
            k,
            "未知字段",
            "unknown field (expected chapter, path or step, and one of moves, squares, choices, selected)",
        ));
    }
    let number = |k: &str| {
        o.get(k).map(|v| {
            v.as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .ok_or_else(|| bad(k, "须为非负整数", "must be a non-negative integer"))
        })
    };
    let chapter = number("chapter").ok_or_else(|| bad("chapter", "缺少此字段", "missing (the chapter, from 0)"))??;
    let step = number("step").transpose()?.unwrap_or(0);
    let path = o.get("path").map(|v| index_list("path", v)).transpose()?;
    let given: Vec<&str> =
        ["moves", "squares", "choices", "selected"].into_iter().filter(|k| o.contains_key(*k)).collect();
    let t = match given.as_slice() {
        ["moves"] => Try::Moves(string_list("moves", &o["moves"])?),
        ["squares"] => Try::Squares(string_list("squares", &o["squares"])?),
        ["choices"] => Try::Choices(index_list("choices", &o["choices"])?),
        ["selected"] => Try::Selected(string_list("selected", &o["selected"])?),
        _ => {
            return Err(bad(
                "moves",
                "须给出 moves、squares、choices 或 selected 之一",
                "give one of moves, squares, choices, selected",
            ));
        }
    };
    Ok(StudyTry { chapter, path, step, t })
}

/// A try at a study's step: the chapter, the step's path or its index in the chapter, the try.
struct StudyTry {
    chapter: usize,
    path: Option<Vec<usize>>,
    step: usize,
    t: Try,
}

/// `POST /api/study/{id}/try`: the judge's verdict on a try at one of the study's interactive steps, exactly as
/// `POST /api/learn/try` judges a lesson's (anyone who may read the study; nothing is recorded).
pub async fn judge_try(
    State(state): State<AppState>,
    MaybeAuth(a): MaybeAuth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<guoxiang_learn::Verdict>> {
    let row = readable(&state, &id, a.as_ref().map(|a| a.user.id.as_str())).await?;
    let StudyTry { chapter, path, step: k, t } = parse_try(&object(&body)?)?;
    let study = body_of(&row)?;
    let ch = study.chapters.get(chapter).ok_or_else(|| bad("chapter", "没有这一章", "there is no such chapter"))?;
    let step = match &path {
        Some(p) => {
            ch.step_at(p).ok_or_else(|| bad("path", "这里没有互动步骤", "there is no interactive step there"))?
        }
        None => ch
            .steps()
            .get(k)
            .map(|(_, s)| *s)
            .ok_or_else(|| bad("step", "这一章没有这一步", "the chapter has no such step"))?,
    };
    judge_step(step, &t).map(Json).map_err(|e| {
        let text = e.text();
        bad(&e.field(), text.zh, text.en)
    })
}
