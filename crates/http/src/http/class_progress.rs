//! A class's dashboard (issue 42): what each student earned — lessons the server's judge accepted step by step,
//! puzzles of the trainer by theme, games played — where each stands on each assignment (done, late or open), and
//! the class's weakest tactics themes; as JSON (`GET /api/class/{id}/progress`) and as a spreadsheet
//! (`GET /api/class/{id}/progress.csv`, UTF-8 with a byte-order mark so that Excel reads the Chinese right). The
//! class's teacher only; anyone else gets 404. The learner's own bookmark (`PUT /api/learn/progress`) is never
//! read here.

use std::collections::BTreeMap;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use guoxiang_store::{ClassMember, EarnedLessons, GameRow, stars_for};
use serde_json::{Map, Value, json};

use super::homework::{Assignment, Standing, assignments_of, lesson_state, standing, taught_class};
use crate::AppState;
use crate::api_error::ApiResult;
use crate::auth::Auth;

/// Routes: the dashboard and its CSV.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/class/{id}/progress", get(progress))
        .route("/api/class/{id}/progress.csv", get(progress_csv))
}

/// A theme counts among the class's weakest once the class tried this many of its puzzles.
const WEAK_MIN_TRIES: i64 = 3;
/// The weakest themes shown.
const WEAK_THEMES: usize = 5;
/// A student's latest games shown.
const RECENT_GAMES: i64 = 5;

/// One student's part of the dashboard.
struct StudentReport {
    member: ClassMember,
    earned: EarnedLessons,
    solved: i64,
    failed: i64,
    by_theme: BTreeMap<String, (i64, i64)>,
    games: guoxiang_store::GameCounts,
    recent: Vec<GameRow>,
    last_seen: Option<i64>,
    standings: Vec<Standing>,
}

/// The whole dashboard.
struct Report {
    assignments: Vec<Assignment>,
    students: Vec<StudentReport>,
    now_ms: i64,
}

async fn student_report(
    state: &AppState,
    member: ClassMember,
    earned: EarnedLessons,
    assignments: &[Assignment],
    last_seen: Option<i64>,
) -> ApiResult<StudentReport> {
    let id = member.user_id.clone();
    let (solved, failed) = state.store.puzzle_round_counts(&id).await?;
    let by_theme = state
        .store
        .puzzle_motif_results(&id, true)
        .await?
        .into_iter()
        .map(|m| (m.motif, (m.solved, m.failed)))
        .collect();
    let mut standings = Vec::with_capacity(assignments.len());
    for a in assignments {
        standings.push(standing(state, a, &id, &earned).await?);
    }
    Ok(StudentReport {
        games: state.store.game_counts(&id).await?,
        recent: state.store.user_games(&id, 0, RECENT_GAMES).await?,
        member,
        earned,
        solved,
        failed,
        by_theme,
        last_seen,
        standings,
    })
}

async fn report(state: &AppState, auth: &Auth, class_id: &str) -> ApiResult<Report> {
    let class = taught_class(state, auth, class_id).await?;
    let members = state.store.class_members(&class.id).await?;
    let ids: Vec<String> = members.iter().map(|m| m.user_id.clone()).collect();
    let mut earned = state.store.learn_earned_of(&ids).await?;
    let seen = state.store.last_seen(&ids).await?;
    let assignments = assignments_of(state, &class.id).await?;
    let mut students = Vec::with_capacity(members.len());
    for m in members {
        let e = earned.remove(&m.user_id).unwrap_or_default();
        let last = seen.get(&m.user_id).copied();
        students.push(student_report(state, m, e, &assignments, last).await?);
    }
    Ok(Report { assignments, students, now_ms: guoxiang_domain::time::now_ms() as i64 })
}

/// `{ID: {"done", "stars"}}` for the lessons with an earned step; stars once the lesson is done.
fn lessons_json(earned: &EarnedLessons) -> Map<String, Value> {
    let mut out = Map::new();
    for id in earned.keys() {
        if super::learn::course_model().lesson(id).is_none() {
            continue;
        }
        let (_, _, done_at, misses) = lesson_state(id, earned);
        let stars = if done_at.is_some() { stars_for(misses) } else { 0 };
        out.insert(id.clone(), json!({"done": done_at.is_some(), "stars": stars}));
    }
    out
}

/// A game as the dashboard lists it, from the student's side: `win`, `loss`, `draw` or `playing`.
fn recent_json(user_id: &str, g: &GameRow) -> Value {
    let white = g.white_id == user_id;
    let opponent = if white { &g.black_name } else { &g.white_name };
    let result = match (g.status.as_str(), g.winner.as_deref()) {
        ("finished", Some(w)) if (w == "white") == white => "win",
        ("finished", Some(_)) => "loss",
        ("finished", None) => "draw",
        _ => "playing",
    };
    json!({"id": g.id, "opponent": opponent, "result": result, "at": g.created_at_ms})
}

fn student_json(s: &StudentReport) -> Value {
    let by_theme: Map<String, Value> =
        s.by_theme.iter().map(|(t, (w, l))| (t.clone(), json!({"solved": w, "failed": l}))).collect();
    let g = &s.games;
    json!({
        "username": s.member.name,
        // No other name is kept: the user name, as the class's own list gives it.
        "name": s.member.name,
        "lessons": lessons_json(&s.earned),
        "puzzles": {"solved": s.solved, "failed": s.failed, "by_theme": by_theme},
        "games": {
            "played": g.win + g.loss + g.draw,
            "won": g.win,
            "drawn": g.draw,
            "lost": g.loss,
            "recent": s.recent.iter().map(|r| recent_json(&s.member.user_id, r)).collect::<Vec<_>>(),
        },
        "last_seen": s.last_seen,
    })
}

/// The class's weakest themes: failure rate over the themes tried at least [`WEAK_MIN_TRIES`] times, worst first.
fn weak_themes(students: &[StudentReport]) -> Vec<Value> {
    let mut sum: BTreeMap<&str, (i64, i64)> = BTreeMap::new();
    for s in students {
        for (t, (w, l)) in &s.by_theme {
            let e = sum.entry(t.as_str()).or_default();
            e.0 += w;
            e.1 += l;
        }
    }
    let mut rows: Vec<(&str, i64, i64, f64)> = sum
        .into_iter()
        .filter(|(_, (w, l))| w + l >= WEAK_MIN_TRIES && *l > 0)
        .map(|(t, (w, l))| (t, w, l, l as f64 / (w + l) as f64))
        .collect();
    rows.sort_by(|a, b| b.3.total_cmp(&a.3).then(b.2.cmp(&a.2)).then(a.0.cmp(b.0)));
    rows.truncate(WEAK_THEMES);
    rows.into_iter()
        .map(|(t, w, l, r)| json!({"theme": t, "solved": w, "failed": l, "rate": (r * 1000.0).round() / 1000.0}))
        .collect()
}

/// `GET /api/class/{id}/progress`: `{"students": [...], "assignments": [{…, "students": {USERNAME: "done" |
/// "late" | "open"}}], "weak_themes": [...]}`.
pub async fn progress(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    let r = report(&state, &auth, &id).await?;
    let assignments: Vec<Value> = r
        .assignments
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let marks: Map<String, Value> = r
                .students
                .iter()
                .map(|s| (s.member.name.clone(), json!(s.standings[i].mark(a.row.due_ms, r.now_ms))))
                .collect();
            let mut o = a.answer();
            o.insert("students".into(), Value::Object(marks));
            Value::Object(o)
        })
        .collect();
    Ok(Json(json!({
        "students": r.students.iter().map(student_json).collect::<Vec<_>>(),
        "assignments": assignments,
        "weak_themes": weak_themes(&r.students),
    })))
}

/// One CSV field, quoted when it must be (and a leading `=`, `+`, `-`, `@` defused, so a spreadsheet does not read a
/// user name as a formula).
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) { format!("'{s}") } else { s.to_owned() };
    if s.contains([',', '"', '\n', '\r']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s }
}

/// A time as `YYYY-MM-DD HH:MM` (UTC).
fn utc_minute(ms: i64) -> String {
    let day = guoxiang_domain::puzzle::service::utc_day(ms);
    let min = ms.rem_euclid(86_400_000) / 60_000;
    format!("{day} {:02}:{:02}", min / 60, min % 60)
}

/// `GET /api/class/{id}/progress.csv`: one row per student — user name, name, lessons done, puzzles solved and
/// failed, games played, each assignment's mark, last seen (UTC).
pub async fn progress_csv(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> ApiResult<Response> {
    let r = report(&state, &auth, &id).await?;
    let mut head: Vec<String> =
        ["username", "name", "lessons_done", "puzzles_solved", "puzzles_failed", "games"].map(String::from).into();
    head.extend(r.assignments.iter().map(|a| a.task.label()));
    head.push("last_seen_utc".into());
    let mut out = String::from("\u{feff}");
    out.push_str(&head.iter().map(|h| csv_field(h)).collect::<Vec<_>>().join(","));
    out.push_str("\r\n");
    for s in &r.students {
        let lessons = lessons_json(&s.earned).values().filter(|v| v["done"] == true).count();
        let mut row = vec![
            csv_field(&s.member.name),
            csv_field(&s.member.name),
            lessons.to_string(),
            s.solved.to_string(),
            s.failed.to_string(),
            (s.games.win + s.games.loss + s.games.draw).to_string(),
        ];
        row.extend(r.assignments.iter().zip(&s.standings).map(|(a, st)| st.mark(a.row.due_ms, r.now_ms).to_owned()));
        row.push(s.last_seen.map(utc_minute).unwrap_or_default());
        out.push_str(&row.join(","));
        out.push_str("\r\n");
    }
    let disposition = format!("attachment; filename=\"class-{}-progress.csv\"", csv_safe_name(&id));
    Ok((
        [(header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()), (header::CONTENT_DISPOSITION, disposition)],
        out,
    )
        .into_response())
}

fn csv_safe_name(id: &str) -> String {
    id.chars().filter(char::is_ascii_alphanumeric).collect()
}
