//! 战术训练 / the tactics trainer over HTTP (docs/api.md "Puzzles"): the next puzzle near a rating, the motif
//! catalogue with counts, the judge of one try, a round's rating, an account's dashboard, and the daily puzzle and a
//! puzzle by id in lichess's JSON shape. Each handler reads its request, asks the server's puzzle service
//! ([`guoxiang_domain::puzzle::Puzzles`]) and answers; the service imports the default set the first time puzzles are needed.

use std::collections::HashMap;

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guoxiang_protocol::http::{
    GlickoRating, LichessPuzzle, PuzzleAnswer, PuzzleDashboard, PuzzleThemes, PuzzleVerdict, RoundAnswer,
};
use guoxiang_ratings::Glicko;
use guoxiang_tactics::{Motif, SEED_TACTICS};
use serde_json::{Map, Value};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::{Auth, MaybeAuth};
use crate::client::ClientIp;
use guoxiang_domain::puzzle::PuzzleError;
use guoxiang_domain::puzzle::service::{NextAsk, RATING_RANGE, Round, difficulty_offset, valid_id};
use guoxiang_domain::puzzle::view::{lichess_puzzle, puzzle_view};

/// Routes: puzzles.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/puzzle/next", get(next))
        .route("/api/puzzle/themes", get(themes))
        .route("/api/puzzle/dashboard", get(dashboard))
        .route("/api/puzzle/daily", get(daily))
        .route("/api/puzzle/{id}", get(by_id))
        .route("/api/puzzle/{id}/try", post(try_move))
        .route("/api/puzzle/{id}/round", post(round))
}

/// At most this many ids in `exclude`.
pub const MAX_EXCLUDE: usize = 200;

/// A 400 naming the field, in both languages.
fn bad(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

impl From<PuzzleError> for ApiError {
    fn from(e: PuzzleError) -> ApiError {
        match e {
            PuzzleError::Invalid { field, zh, en } => bad(&field, zh, en),
            PuzzleError::NoPuzzle => {
                ApiError::new(StatusCode::NOT_FOUND, "no_puzzle", "没有符合条件的题目", "no puzzle matches")
            }
            PuzzleError::NotFound { id } => ApiError::new(
                StatusCode::NOT_FOUND,
                "not_found",
                format!("找不到题目 {id}"),
                format!("puzzle {id} not found"),
            ),
            PuzzleError::TooManyTries => ApiError::too_many(),
            PuzzleError::Store(e) => ApiError::from(e),
            PuzzleError::Internal { context, detail } => ApiError::internal(context, detail),
        }
    }
}

/// `format`: ours (`guoxiang`) or lichess's shape.
fn ours(q: &HashMap<String, String>) -> Result<bool, ApiError> {
    match q.get("format").map(|s| s.trim()) {
        None | Some("" | "lichess") => Ok(false),
        Some("guoxiang") => Ok(true),
        Some(_) => Err(bad("format", "须为 lichess 或 guoxiang", "must be lichess or guoxiang")),
    }
}

// ----- next -----

/// The motif ids a `theme` parameter names: a motif id, or `seed-N` (all motifs of the seeds' tactic N).
fn theme_motifs(theme: &str) -> Result<Vec<String>, ApiError> {
    if let Some(n) = theme.strip_prefix("seed-") {
        let t = n
            .parse::<usize>()
            .ok()
            .and_then(|n| n.checked_sub(1))
            .and_then(|i| SEED_TACTICS.get(i))
            .ok_or_else(|| bad("theme", "seed-N 中 N 须为 1 到 18", "seed-N needs N from 1 to 18"))?;
        return Ok(t.motifs.iter().map(|m| m.id().to_owned()).collect());
    }
    match Motif::from_id(theme) {
        Some(m) => Ok(vec![m.id().to_owned()]),
        None => Err(bad(
            "theme",
            format!("没有这个主题：{theme:?}"),
            format!("unknown theme {theme:?} (a motif id such as fork, or seed-1 … seed-18)"),
        )),
    }
}

fn parse_rating_param(s: &str) -> Result<f64, ApiError> {
    match s.trim().parse::<f64>() {
        Ok(r) if RATING_RANGE.contains(&r) => Ok(r),
        _ => Err(bad("rating", "须为 100 到 4000 之间的数", "must be a number from 100 to 4000")),
    }
}

fn parse_exclude(s: &str) -> Result<Vec<String>, ApiError> {
    let ids: Vec<String> = s.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned).collect();
    if ids.len() > MAX_EXCLUDE {
        return Err(bad("exclude", format!("最多 {MAX_EXCLUDE} 个题目"), format!("at most {MAX_EXCLUDE} ids")));
    }
    if let Some(i) = ids.iter().position(|id| !valid_id(id)) {
        return Err(bad(
            &format!("exclude[{i}]"),
            "题目 id 只能含字母、数字、_ 和 -",
            "a puzzle id has only letters, digits, '_' and '-'",
        ));
    }
    Ok(ids)
}

fn parse_course(s: &str) -> Result<usize, ApiError> {
    match s.trim().parse::<usize>() {
        Ok(n) if n <= 1000 => Ok(n),
        _ => Err(bad(
            "course",
            "须为 0 到 1000 的整数（学完的课数）",
            "must be an integer from 0 to 1000 (lessons done)",
        )),
    }
}

/// `GET /api/puzzle/next?theme=&rating=&exclude=&difficulty=&course=`, in Lichess's shape (as `/api/puzzle/{id}`);
/// with `format=guoxiang`, ours (what the trainer reads). Lichess's `angle` is `theme`'s other name, and
/// `difficulty` moves the rating asked for by ±300 or ±600; an account's choice is remembered and used when
/// neither a difficulty nor a rating is given. Without `rating`, a player with no puzzle rating yet starts from
/// `newcomer`: an account's 学棋 progress on the server, a guest's `course` (the lessons their browser has done).
pub async fn next(
    State(state): State<AppState>,
    MaybeAuth(auth): MaybeAuth,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    const KNOWN: [&str; 7] = ["theme", "angle", "rating", "exclude", "difficulty", "format", "course"];
    if let Some(k) = q.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(bad(
            k,
            "未知参数",
            "unknown parameter (expected theme, rating, exclude, angle, difficulty, format, course)",
        ));
    }
    let ours = ours(&q)?;
    let asked = q.get("difficulty").map(|d| d.trim()).filter(|d| !d.is_empty());
    if let Some(d) = asked {
        difficulty_offset(d)?;
    }
    let course = q.get("course").filter(|s| !s.trim().is_empty()).map(|s| parse_course(s)).transpose()?;
    let theme = q.get("theme").or_else(|| q.get("angle").filter(|a| a.trim() != "mix"));
    let motifs = match theme.map(|s| s.trim()).filter(|s| !s.is_empty()) {
        Some(t) => theme_motifs(t)?,
        None => Vec::new(),
    };
    let exclude = q.get("exclude").map_or(Ok(Vec::new()), |s| parse_exclude(s))?;
    let rating = q.get("rating").filter(|s| !s.trim().is_empty()).map(|r| parse_rating_param(r)).transpose()?;
    let account = auth.as_ref().filter(|a| !a.user.is_guest).map(|a| a.user.id.as_str());
    let ask = NextAsk { account, difficulty: asked, rating, course, motifs, exclude };
    let next = state.puzzles.next(ask).await?;
    Ok(if ours {
        Json(PuzzleAnswer {
            puzzle: puzzle_view(&next.row)?,
            difficulty: Some(next.difficulty),
            newcomer: next.newcomer.map(|g| GlickoRating {
                rating: g.rating,
                deviation: g.deviation,
                volatility: Some(g.volatility),
            }),
        })
        .into_response()
    } else {
        Json(lichess_puzzle(&next.row)?).into_response()
    })
}

// ----- themes -----

/// `GET /api/puzzle/themes`: the seeds' eighteen tactics and the motifs that have puzzles, with their counts; with
/// `?all=1` every motif of the catalogue, those without puzzles too (count 0).
pub async fn themes(
    State(state): State<AppState>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<PuzzleThemes>> {
    if let Some(k) = q.keys().find(|k| k.as_str() != "all") {
        return Err(bad(k, "未知参数", "unknown parameter (expected all)"));
    }
    let all = match q.get("all").map(|s| s.trim()) {
        None | Some("" | "0" | "false") => false,
        Some("1" | "true") => true,
        Some(_) => return Err(bad("all", "须为 1 或 0", "must be 1 or 0")),
    };
    Ok(Json(state.puzzles.themes(all).await?))
}

// ----- try -----

fn body_object(body: &[u8]) -> Result<Map<String, Value>, ApiError> {
    match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(o)) => Ok(o),
        Ok(_) => Err(bad("body", "须为 JSON 对象", "must be a JSON object")),
        Err(e) => Err(bad("body", format!("不是有效的 JSON（{e}）"), format!("not valid JSON ({e})"))),
    }
}

fn parse_try(body: &[u8]) -> Result<Vec<String>, ApiError> {
    let o = body_object(body)?;
    if let Some(k) = o.keys().find(|k| *k != "moves") {
        return Err(bad(k, "未知字段", "unknown field (expected moves)"));
    }
    let Some(v) = o.get("moves") else {
        return Err(bad("moves", "缺少此字段", "missing (the moves after the setup move, UCI)"));
    };
    let Value::Array(a) = v else {
        return Err(bad("moves", "须为字符串数组", "must be an array of UCI strings"));
    };
    if a.len() > guoxiang_tactics::puzzle::MAX_PLIES {
        return Err(bad("moves", "着法太多", "too many moves"));
    }
    a.iter()
        .enumerate()
        .map(|(i, x)| match x.as_str() {
            Some(s) if s.len() <= 8 => Ok(s.to_owned()),
            _ => Err(bad(&format!("moves[{i}]"), "须为 UCI 着法字符串", "must be a UCI move string")),
        })
        .collect()
}

/// `POST /api/puzzle/{id}/try[?letters=zh]`: the verdict on the solver's last move; with `letters=zh` the moves
/// in its sentences are written with Chinese piece letters (…车xd2), the learner's choice. Open to anyone;
/// rate-limited per session (per address without one); a few judged at once, off the async runtime.
pub async fn try_move(
    State(state): State<AppState>,
    MaybeAuth(auth): MaybeAuth,
    ClientIp(client): ClientIp,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    body: Bytes,
) -> ApiResult<Json<PuzzleVerdict>> {
    if let Some(k) = q.keys().find(|k| k.as_str() != "letters") {
        return Err(bad(k, "未知参数", "unknown parameter (expected letters)"));
    }
    let chinese = match q.get("letters").map(|s| s.trim()) {
        None | Some("" | "en") => false,
        Some("zh") => true,
        Some(_) => return Err(bad("letters", "须为 zh 或 en", "must be zh or en")),
    };
    let moves = parse_try(&body)?;
    let key = auth.as_ref().map_or_else(|| format!("ip:{client}"), |a| format!("user:{}", a.user.id));
    let account = auth.as_ref().filter(|a| !a.user.is_guest).map(|a| a.user.id.as_str());
    Ok(Json(state.puzzles.judge(key, account, &id, moves, chinese).await?))
}

// ----- round -----

fn number(
    o: &Map<String, Value>,
    field: &str,
    key: &str,
    range: std::ops::RangeInclusive<f64>,
) -> Result<f64, ApiError> {
    let at = format!("{field}.{key}");
    match o.get(key).and_then(Value::as_f64) {
        Some(x) if range.contains(&x) => Ok(x),
        Some(_) => Err(bad(
            &at,
            format!("须在 {} 到 {} 之间", range.start(), range.end()),
            format!("must be from {} to {}", range.start(), range.end()),
        )),
        None => Err(bad(&at, "须为数字", "must be a number")),
    }
}

fn parse_round(body: &[u8]) -> Result<Round, ApiError> {
    let o = body_object(body)?;
    if let Some(k) = o.keys().find(|k| !["win", "hints", "streak", "rating"].contains(&k.as_str())) {
        return Err(bad(k, "未知字段", "unknown field (expected win, hints, streak, rating)"));
    }
    let win = match o.get("win") {
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(bad("win", "须为 true 或 false", "must be true or false")),
        None => return Err(bad("win", "缺少此字段", "missing (true when solved without a mistake)")),
    };
    let hints = match o.get("hints") {
        None => 0,
        Some(v) => match v.as_i64() {
            Some(n @ 0..=10) => n,
            _ => return Err(bad("hints", "须为 0 到 10 的整数", "must be an integer from 0 to 10")),
        },
    };
    let streak = match o.get("streak") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(_) => return Err(bad("streak", "须为 true 或 false", "must be true or false")),
    };
    let rating = match o.get("rating") {
        None | Some(Value::Null) => None,
        Some(Value::Object(r)) => {
            if let Some(k) = r.keys().find(|k| !["rating", "deviation", "volatility"].contains(&k.as_str())) {
                return Err(bad(
                    &format!("rating.{k}"),
                    "未知字段",
                    "unknown field (expected rating, deviation, volatility)",
                ));
            }
            Some(Glicko {
                rating: number(r, "rating", "rating", RATING_RANGE)?,
                deviation: number(
                    r,
                    "rating",
                    "deviation",
                    guoxiang_ratings::MIN_DEVIATION..=guoxiang_ratings::MAX_DEVIATION,
                )?,
                volatility: match r.get("volatility") {
                    None => guoxiang_ratings::DEFAULT_VOLATILITY,
                    Some(_) => number(r, "rating", "volatility", 0.01..=0.2)?,
                },
                games: 0,
            })
        }
        Some(_) => {
            return Err(bad(
                "rating",
                "须为对象 {rating, deviation, volatility}",
                "must be an object {rating, deviation, volatility}",
            ));
        }
    };
    Ok(Round { win, hints, streak, rating })
}

/// `POST /api/puzzle/{id}/round`: rates a finished puzzle. Needs a session; an account's round is stored once and
/// moves the puzzle's rating, a guest's moves nothing on the server; streak rounds change no rating.
pub async fn round(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<RoundAnswer>> {
    let r = parse_round(&body)?;
    let account = (!auth.user.is_guest).then_some(auth.user.id.as_str());
    Ok(Json(state.puzzles.round(account, &id, r).await?))
}

// ----- dashboard -----

/// `GET /api/puzzle/dashboard`: an account's puzzle rating, latest rounds and results per motif (401 for guests).
pub async fn dashboard(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<PuzzleDashboard>> {
    if auth.user.is_guest {
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "login_required",
            "游客的做题记录保存在浏览器中，注册后可保存在服务器上",
            "guests keep their puzzle history in the browser; register to keep it on the server",
        ));
    }
    Ok(Json(state.puzzles.dashboard(&auth.user.id).await?))
}

// ----- daily and by id -----

/// `GET /api/puzzle/daily`: the same puzzle for everyone during a UTC day, chosen on the day's first request (a
/// puzzle that has not been a daily one, near 1800) and kept.
pub async fn daily(State(state): State<AppState>) -> ApiResult<Json<LichessPuzzle>> {
    let row = state.puzzles.daily().await?;
    Ok(Json(lichess_puzzle(&row)?))
}

/// `GET /api/puzzle/{id}`: a puzzle in lichess's shape, or with `?format=guoxiang` as `{"puzzle": <our puzzle
/// object>}` (the shape of `next`, with the tagger's sentences about this position).
pub async fn by_id(
    State(state): State<AppState>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    if let Some(k) = q.keys().find(|k| k.as_str() != "format") {
        return Err(bad(k, "未知参数", "unknown parameter (expected format)"));
    }
    let ours = ours(&q)?;
    let row = state.puzzles.by_id(&id).await?;
    Ok(if ours {
        Json(PuzzleAnswer { puzzle: puzzle_view(&row)?, difficulty: None, newcomer: None }).into_response()
    } else {
        Json(lichess_puzzle(&row)?).into_response()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn themes_and_excludes_are_checked() {
        assert_eq!(theme_motifs("fork").unwrap(), vec!["fork"]);
        assert_eq!(theme_motifs("seed-14").unwrap(), vec!["attraction", "deflection"]);
        assert!(theme_motifs("seed-19").is_err() && theme_motifs("seed-0").is_err() && theme_motifs("nope").is_err());
        assert_eq!(parse_exclude("a,b, c,,").unwrap(), vec!["a", "b", "c"]);
        assert!(parse_exclude("a,b c").is_err());
        assert!(parse_exclude(&vec!["x"; MAX_EXCLUDE + 1].join(",")).is_err());
    }

    /// Bodies written from the protocol's request types are what the field-by-field readers accept.
    #[test]
    fn bodies_written_from_the_protocol_types_are_read() {
        use guoxiang_protocol::http::{GlickoRating, PuzzleTryRequest, RoundRequest};
        let t = PuzzleTryRequest { moves: vec!["e2e4".into(), "e7e5".into()] };
        assert_eq!(parse_try(&serde_json::to_vec(&t).unwrap()).unwrap(), t.moves);
        let r = RoundRequest {
            win: true,
            hints: Some(2),
            streak: None,
            rating: Some(GlickoRating { rating: 1600.0, deviation: 120.0, volatility: None }),
        };
        let read = parse_round(&serde_json::to_vec(&r).unwrap()).unwrap();
        assert!(read.win && !read.streak && read.hints == 2);
        let g = read.rating.unwrap();
        assert_eq!((g.rating, g.deviation, g.volatility), (1600.0, 120.0, guoxiang_ratings::DEFAULT_VOLATILITY));
        let bare = RoundRequest { win: false, hints: None, streak: Some(true), rating: None };
        let read = parse_round(&serde_json::to_vec(&bare).unwrap()).unwrap();
        assert!(!read.win && read.streak && read.hints == 0 && read.rating.is_none());
    }
}
