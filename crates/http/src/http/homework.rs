//! Homework (作业, issue 42): a teacher's assignments to a class (`POST`/`GET /api/class/{id}/assignments`,
//! `DELETE …/{aid}`), a student's homework from all their classes (`GET /api/homework`), and the done rules the
//! class's dashboard ([`super::class_progress`]) shares.
//!
//! An assignment is one [`Task`] — a lesson or a chapter of the course, puzzles (a trainer theme and a count, or
//! chosen ids), games against the computer at a level, a study, a tournament — with an optional due date. Each is
//! checked against what exists before it is stored. Whether a student did it is read from what the server itself
//! saw: lesson steps its judge accepted (`learn_earned`, never the bookmark of `PUT /api/learn/progress`), puzzle
//! rounds of the trainer won after the assignment was given, games against the computer played to the end, the
//! tournament's games. Anyone but the class's teacher (and, for reading, its students) gets 404.

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get};
use guoxiang_store::{AssignmentRow, ClassRow, EarnedLessons};
use serde_json::{Map, Value, json};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;

/// Routes: a class's assignments and a student's homework.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/class/{id}/assignments", get(list).post(create))
        .route("/api/class/{id}/assignments/{aid}", delete(remove))
        .route("/api/homework", get(homework))
}

/// The most puzzles (or games) one assignment may ask for.
const MAX_COUNT: u64 = 100;
/// The most puzzle ids one assignment may name.
const MAX_PUZZLE_IDS: usize = 50;

/// What is assigned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Task {
    Lesson(String),
    Chapter(String),
    /// `count` puzzles of a trainer theme (a motif id, as `/api/puzzle/next?theme=` takes).
    Theme {
        theme: String,
        count: u64,
    },
    /// These puzzles, each solved.
    Puzzles(Vec<String>),
    /// `count` games against the computer at `level` or higher, played to the end.
    Computer {
        level: u64,
        count: u64,
    },
    Study(String),
    Tournament(String),
}

impl Task {
    pub(crate) fn kind(&self) -> &'static str {
        match self {
            Task::Lesson(_) => "lesson",
            Task::Chapter(_) => "chapter",
            Task::Theme { .. } | Task::Puzzles(_) => "puzzles",
            Task::Computer { .. } => "computer",
            Task::Study(_) => "study",
            Task::Tournament(_) => "tournament",
        }
    }

    /// The kind's fields, as stored and as answered.
    fn fields(&self) -> Map<String, Value> {
        let v = match self {
            Task::Lesson(id) => json!({"lesson": id}),
            Task::Chapter(id) => json!({"chapter": id}),
            Task::Theme { theme, count } => json!({"theme": theme, "count": count}),
            Task::Puzzles(ids) => json!({"puzzles": ids}),
            Task::Computer { level, count } => json!({"level": level, "count": count}),
            Task::Study(id) => json!({"study": id}),
            Task::Tournament(id) => json!({"tournament": id}),
        };
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    /// A short text naming it (the CSV's column heads): `lesson rook`, `puzzles fork ×5`, `computer 3 ×2`.
    pub(crate) fn label(&self) -> String {
        match self {
            Task::Lesson(id) | Task::Chapter(id) | Task::Study(id) | Task::Tournament(id) => {
                format!("{} {id}", self.kind())
            }
            Task::Theme { theme, count } => format!("puzzles {theme} ×{count}"),
            Task::Puzzles(ids) => format!("puzzles {}", ids.join(" ")),
            Task::Computer { level, count } => format!("computer {level} ×{count}"),
        }
    }
}

/// A stored assignment read back.
#[derive(Debug, Clone)]
pub(crate) struct Assignment {
    pub row: AssignmentRow,
    pub task: Task,
}

impl Assignment {
    fn read(row: AssignmentRow) -> Result<Assignment, ApiError> {
        let spec: Value = serde_json::from_str(&row.spec)
            .map_err(|e| ApiError::internal("stored assignment", format!("{}: {e}", row.id)))?;
        let mut o = match spec {
            Value::Object(o) => o,
            _ => Map::new(),
        };
        o.insert("kind".into(), Value::String(row.kind.clone()));
        let task = task_of(&o).map_err(|_| ApiError::internal("stored assignment", &row.id))?;
        Ok(Assignment { row, task })
    }

    /// `{"id", "kind", <the kind's fields>, "due", "created_at"}`.
    pub(crate) fn answer(&self) -> Map<String, Value> {
        let mut o = Map::new();
        o.insert("id".into(), json!(self.row.id));
        o.insert("kind".into(), json!(self.task.kind()));
        o.extend(self.task.fields());
        o.insert("due".into(), json!(self.row.due_ms));
        o.insert("created_at".into(), json!(self.row.created_at_ms));
        o
    }
}

/// A class's assignments, oldest first.
pub(crate) async fn assignments_of(state: &AppState, class_id: &str) -> Result<Vec<Assignment>, ApiError> {
    state.store.class_assignments(class_id).await?.into_iter().map(Assignment::read).collect()
}

fn bad(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

fn text(o: &Map<String, Value>, field: &str) -> Result<String, ApiError> {
    match o.get(field) {
        Some(Value::String(s)) if !s.trim().is_empty() && s.len() <= 200 => Ok(s.trim().to_owned()),
        Some(_) => Err(bad(field, "须为非空字符串", "must be a non-empty string")),
        None => Err(bad(field, "缺少此字段", "missing")),
    }
}

fn count(o: &Map<String, Value>, field: &str, default: Option<u64>) -> Result<u64, ApiError> {
    match (o.get(field), default) {
        (None | Some(Value::Null), Some(d)) => Ok(d),
        (None, None) => Err(bad(field, "缺少此字段", "missing")),
        (Some(v), _) => v.as_u64().filter(|n| (1..=MAX_COUNT).contains(n)).ok_or_else(|| {
            bad(field, format!("须为 1 到 {MAX_COUNT} 的整数"), format!("must be an integer from 1 to {MAX_COUNT}"))
        }),
    }
}

fn puzzle_ids(v: &Value) -> Result<Vec<String>, ApiError> {
    let Value::Array(a) = v else {
        return Err(bad("puzzles", "须为谜题 id 的数组", "must be an array of puzzle ids"));
    };
    if a.is_empty() || a.len() > MAX_PUZZLE_IDS {
        return Err(bad(
            "puzzles",
            format!("须有 1 到 {MAX_PUZZLE_IDS} 道题"),
            format!("must name 1 to {MAX_PUZZLE_IDS} puzzles"),
        ));
    }
    let mut ids: Vec<String> = Vec::new();
    for (i, x) in a.iter().enumerate() {
        match x.as_str().map(str::trim) {
            Some(s) if !s.is_empty() && s.len() <= 64 => {
                if !ids.iter().any(|y| y == s) {
                    ids.push(s.to_owned());
                }
            }
            _ => return Err(bad(&format!("puzzles[{i}]"), "须为谜题 id", "must be a puzzle id")),
        }
    }
    Ok(ids)
}

/// The fields each kind takes besides `kind` and `due`.
fn allowed(kind: &str, o: &Map<String, Value>) -> &'static [&'static str] {
    match kind {
        "lesson" => &["lesson"],
        "chapter" => &["chapter"],
        "puzzles" if o.contains_key("puzzles") => &["puzzles"],
        "puzzles" => &["theme", "count"],
        "computer" => &["level", "count"],
        "study" => &["study"],
        "tournament" => &["tournament"],
        _ => &[],
    }
}

/// The task of `{"kind": …, <its fields>}` (shape only; [`check_task`] looks at what exists).
fn task_of(o: &Map<String, Value>) -> Result<Task, ApiError> {
    let kind = match o.get("kind") {
        Some(Value::String(k)) => k.as_str(),
        Some(_) => return Err(bad("kind", "须为字符串", "must be a string")),
        None => {
            return Err(bad("kind", "缺少此字段", "missing (lesson, chapter, puzzles, computer, study, tournament)"));
        }
    };
    let fields = allowed(kind, o);
    if fields.is_empty() {
        return Err(bad(
            "kind",
            "须为 lesson、chapter、puzzles、computer、study 或 tournament",
            "must be lesson, chapter, puzzles, computer, study or tournament",
        ));
    }
    if let Some(k) = o.keys().find(|k| !["kind", "due"].contains(&k.as_str()) && !fields.contains(&k.as_str())) {
        let list = fields.join(", ");
        return Err(bad(
            k,
            format!("未知字段（此类作业的字段：{list}）"),
            format!("unknown field (a {kind} takes {list})"),
        ));
    }
    Ok(match kind {
        "lesson" => Task::Lesson(text(o, "lesson")?),
        "chapter" => Task::Chapter(text(o, "chapter")?),
        "puzzles" => match o.get("puzzles") {
            Some(v) => Task::Puzzles(puzzle_ids(v)?),
            None => Task::Theme { theme: text(o, "theme")?, count: count(o, "count", None)? },
        },
        "computer" => {
            let levels = guoxiang_engine::LEVELS.len() as u64;
            let level = o.get("level").and_then(Value::as_u64).filter(|n| (1..=levels).contains(n));
            let Some(level) = level else {
                return Err(bad(
                    "level",
                    format!("须为 1 到 {levels} 的整数"),
                    format!("must be an integer from 1 to {levels}"),
                ));
            };
            Task::Computer { level, count: count(o, "count", Some(1))? }
        }
        "study" => Task::Study(text(o, "study")?),
        _ => Task::Tournament(text(o, "tournament")?),
    })
}

/// Reads a new assignment: its task and due date.
fn parse_assignment(body: &[u8]) -> Result<(Task, Option<i64>), ApiError> {
    let o = match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(o)) => o,
        Ok(_) => return Err(bad("body", "须为 JSON 对象", "must be a JSON object")),
        Err(e) => return Err(bad("body", format!("不是有效的 JSON（{e}）"), format!("not valid JSON ({e})"))),
    };
    let task = task_of(&o)?;
    let due = match o.get("due") {
        None | Some(Value::Null) => None,
        Some(v) => Some(v.as_i64().filter(|n| *n >= 0).ok_or_else(|| {
            bad("due", "须为毫秒时间戳（自 1970 年起的整数）", "must be a time in ms since 1970 (an integer)")
        })?),
    };
    Ok((task, due))
}

fn unknown(field: &str, what_zh: &str, what_en: &str, id: &str) -> ApiError {
    bad(field, format!("没有这个{what_zh}：{id}"), format!("no such {what_en}: {id}"))
}

/// Refuses a task that names what does not exist: a lesson or chapter of the course, a trainer theme with
/// puzzles, puzzle ids, a study, a tournament.
async fn check_task(state: &AppState, task: &Task) -> Result<(), ApiError> {
    let course = super::learn::course_model();
    match task {
        Task::Lesson(id) if course.lesson(id).is_none() => Err(unknown("lesson", "课", "lesson", id)),
        Task::Chapter(id) if !course.chapters.iter().any(|c| &c.id == id) => {
            Err(unknown("chapter", "章", "chapter", id))
        }
        Task::Theme { theme, .. } => {
            let counts = state.store.motif_counts().await?;
            if counts.iter().any(|(m, n)| m == theme && *n > 0) {
                Ok(())
            } else {
                Err(bad(
                    "theme",
                    format!("没有这个主题的谜题：{theme}（见 /api/puzzle/themes）"),
                    format!("no puzzles of theme {theme} (see /api/puzzle/themes)"),
                ))
            }
        }
        Task::Puzzles(ids) => {
            let found = state.store.puzzles_existing(ids).await?;
            match ids.iter().position(|id| !found.contains(id)) {
                Some(i) => Err(unknown(&format!("puzzles[{i}]"), "谜题", "puzzle", &ids[i])),
                None => Ok(()),
            }
        }
        Task::Study(id) if state.store.study(id).await?.is_none() => Err(unknown("study", "研究", "study", id)),
        Task::Tournament(id) if state.store.tournament(id).await?.is_none() => {
            Err(unknown("tournament", "比赛", "tournament", id))
        }
        _ => Ok(()),
    }
}

/// 404 for a class that does not exist and for one the caller may not see: the same answer, so a stranger learns
/// nothing of it.
fn no_class() -> ApiError {
    ApiError::not_found("这个班级", "class")
}

/// The class, when `auth` is its teacher.
pub(crate) async fn taught_class(state: &AppState, auth: &Auth, id: &str) -> Result<ClassRow, ApiError> {
    match state.store.class(id).await? {
        Some(c) if c.owner_id == auth.user.id => Ok(c),
        _ => Err(no_class()),
    }
}

/// The class, when `auth` is its teacher or one of its students.
async fn seen_class(state: &AppState, auth: &Auth, id: &str) -> Result<ClassRow, ApiError> {
    match state.store.class(id).await? {
        Some(c) if c.owner_id == auth.user.id || state.store.is_class_student(id, &auth.user.id).await? => Ok(c),
        _ => Err(no_class()),
    }
}

/// `POST /api/class/{id}/assignments`: 201 and the assignment.
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Response> {
    let class = taught_class(&state, &auth, &id).await?;
    let (task, due) = parse_assignment(&body)?;
    check_task(&state, &task).await?;
    let row = AssignmentRow {
        id: guoxiang_domain::live::new_game_id(),
        class_id: class.id,
        kind: task.kind().to_owned(),
        spec: Value::Object(task.fields()).to_string(),
        due_ms: due,
        created_at_ms: guoxiang_domain::time::now_ms() as i64,
    };
    state.store.insert_assignment(&row).await?;
    Ok((StatusCode::CREATED, Json(Value::Object(Assignment { row, task }.answer()))).into_response())
}

/// `GET /api/class/{id}/assignments`: `{"assignments": [...]}`, oldest first (the teacher and the students).
pub async fn list(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    seen_class(&state, &auth, &id).await?;
    let list: Vec<Value> = assignments_of(&state, &id).await?.iter().map(|a| Value::Object(a.answer())).collect();
    Ok(Json(json!({ "assignments": list })))
}

/// `DELETE /api/class/{id}/assignments/{aid}` (the teacher).
pub async fn remove(
    State(state): State<AppState>,
    auth: Auth,
    Path((id, aid)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    taught_class(&state, &auth, &id).await?;
    if !state.store.delete_assignment(&id, &aid).await? {
        return Err(ApiError::not_found("这项作业", "assignment"));
    }
    Ok(Json(json!({ "ok": true })))
}

// ----- done rules -----

/// Where a student stands on an assignment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Standing {
    /// When it was done (ms), if it is.
    pub done_at: Option<i64>,
    /// Parts done, of how many.
    pub done: i64,
    pub of: i64,
}

impl Standing {
    /// Done after the due date, or not done and the due date has passed.
    pub(crate) fn late(&self, due: Option<i64>, now_ms: i64) -> bool {
        due.is_some_and(|d| self.done_at.map_or(now_ms > d, |t| t > d))
    }

    /// `done`, `late` or `open`, as the dashboard marks it.
    pub(crate) fn mark(&self, due: Option<i64>, now_ms: i64) -> &'static str {
        match (self.done_at.is_some(), self.late(due, now_ms)) {
            (true, false) => "done",
            (_, true) => "late",
            (false, false) => "open",
        }
    }
}

/// A lesson's earned steps: (steps earned, steps in the lesson, when the last was earned if all are, misses).
pub(crate) fn lesson_state(id: &str, earned: &EarnedLessons) -> (i64, i64, Option<i64>, u32) {
    let steps = super::learn::course_model().lesson(id).map_or(0, |l| l.steps.len());
    let got = earned.get(id);
    let n = got.map_or(0, |s| s.keys().filter(|k| (**k as usize) < steps).count());
    let misses = got.map_or(0, |s| s.values().map(|e| e.misses).sum());
    let last = got.and_then(|s| s.values().map(|e| e.at_ms).max());
    let done_at = if steps > 0 && n == steps { last } else { None };
    (n as i64, steps as i64, done_at, misses)
}

fn chapter_standing(id: &str, earned: &EarnedLessons) -> Standing {
    let course = super::learn::course_model();
    let lessons: Vec<&str> =
        course.chapters.iter().filter(|c| c.id == id).flat_map(|c| &c.lessons).map(|l| l.id.as_str()).collect();
    let states: Vec<Option<i64>> = lessons.iter().map(|l| lesson_state(l, earned).2).collect();
    let done = states.iter().filter(|s| s.is_some()).count() as i64;
    let all = !states.is_empty() && states.iter().all(Option::is_some);
    Standing { done_at: if all { states.iter().flatten().max().copied() } else { None }, done, of: states.len() as i64 }
}

/// The `n`-th of `times` (from 1), when there are that many.
fn nth(times: &[i64], n: u64) -> Option<i64> {
    usize::try_from(n).ok().and_then(|n| n.checked_sub(1)).and_then(|i| times.get(i)).copied()
}

/// Where `user_id` stands on `a`, `earned` being the steps that user earned.
pub(crate) async fn standing(
    state: &AppState,
    a: &Assignment,
    user_id: &str,
    earned: &EarnedLessons,
) -> Result<Standing, ApiError> {
    let since = a.row.created_at_ms;
    Ok(match &a.task {
        Task::Lesson(id) => {
            let (done, of, done_at, _) = lesson_state(id, earned);
            Standing { done_at, done, of }
        }
        Task::Chapter(id) => chapter_standing(id, earned),
        Task::Theme { theme, count } => {
            let times = state.store.puzzle_solves_in_motif(user_id, theme, since).await?;
            Standing { done_at: nth(&times, *count), done: (times.len() as i64).min(*count as i64), of: *count as i64 }
        }
        Task::Puzzles(ids) => {
            let solved = state.store.puzzle_solves_among(user_id, ids).await?;
            let all = solved.len() == ids.len();
            let done_at = if all { solved.iter().map(|(_, t)| *t).max() } else { None };
            Standing { done_at, done: solved.len() as i64, of: ids.len() as i64 }
        }
        Task::Computer { level, count } => {
            let times = state.store.computer_games_finished(user_id, *level as i64, since).await?;
            Standing { done_at: nth(&times, *count), done: (times.len() as i64).min(*count as i64), of: *count as i64 }
        }
        // A study is done once the student has opened it (`GET /api/study/{id}` records the first view).
        Task::Study(id) => {
            let seen = state.store.study_viewed_at(user_id, id).await?;
            Standing { done_at: seen, done: i64::from(seen.is_some()), of: 1 }
        }
        Task::Tournament(id) => tournament_standing(state, id, user_id).await?,
    })
}

/// A tournament is done when it is finished and the student played in it (every game paired for them finished).
async fn tournament_standing(state: &AppState, id: &str, user_id: &str) -> Result<Standing, ApiError> {
    let finished = state.store.tournament(id).await?.map(|t| (t.status == "finished", t.updated_at_ms));
    let (paired, played, last) = state.store.tournament_games_of(user_id, id).await?;
    let done_at = match finished {
        Some((true, at)) if played > 0 && played == paired => Some(last.unwrap_or(at)),
        _ => None,
    };
    Ok(Standing { done_at, done: played, of: paired.max(1) })
}

/// `GET /api/homework`: `{"assignments": [{"id", "class", "class_name", "kind", <fields>, "due", "created_at",
/// "done", "late", "progress": {"done", "of"}}]}` for every class the user is a student of.
pub async fn homework(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Value>> {
    let me = auth.user.id.as_str();
    let earned = state.store.learn_earned(me).await?;
    let now = guoxiang_domain::time::now_ms() as i64;
    let mut out = Vec::new();
    for c in state.store.classes_joined(me).await? {
        for a in assignments_of(&state, &c.class.id).await? {
            let s = standing(&state, &a, me, &earned).await?;
            let mut o = a.answer();
            o.insert("class".into(), json!(c.class.id));
            o.insert("class_name".into(), json!(c.class.name));
            o.insert("done".into(), json!(s.done_at.is_some()));
            o.insert("late".into(), json!(s.late(a.row.due_ms, now)));
            o.insert("progress".into(), json!({"done": s.done, "of": s.of}));
            out.push(Value::Object(o));
        }
    }
    Ok(Json(json!({ "assignments": out })))
}
