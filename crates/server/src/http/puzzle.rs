//! 战术训练 / the tactics trainer over HTTP (docs/api.md "Puzzles"): the next puzzle near a rating, the
//! motif catalogue with counts, the judge of one try, a round's rating, an account's dashboard, and the daily
//! puzzle and a puzzle by id in lichess's JSON shape.
//!
//! The default puzzle set (`puzzles/default.csv`, compiled in) is imported the first time the puzzles are needed
//! and the table is empty ([`import_default_if_empty`]); the CLI's `guoxiang puzzles import` loads more.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::num::NonZeroU32;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use axum::Json;
use axum::body::Bytes;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use guoxiang_core::Text;
use guoxiang_protocol::Color;
use guoxiang_protocol::http::{
    Bilingual, DashboardRating, DashboardRound, DashboardTheme, GlickoRating, LichessPerf, LichessPuzzle,
    LichessPuzzleData, LichessPuzzleGame, LichessPuzzlePlayer, MotifTheme, PuzzleAnswer, PuzzleDashboard, PuzzleMotif,
    PuzzleThemes, PuzzleVerdict, PuzzleView, RoundAnswer, RoundPuzzle, RoundRating, SeedTheme,
};
use guoxiang_ratings::Glicko;
use guoxiang_ratings::puzzle::{puzzle_start, rate_round};
use guoxiang_store::{MotifTag, NextQuery, PuzzleGlicko, PuzzleRow, Store, UpsertCounts};
use guoxiang_tactics::judge::{JUDGE_NODES, Verdict, judge_in};
use guoxiang_tactics::{Motif, Puzzle, Reader, SEED_TACTICS, lichess_themes};
use serde_json::{Map, Value};
use tokio::sync::Semaphore;

use crate::AppState;
use crate::auth::{Auth, MaybeAuth};
use crate::error::{ApiError, ApiResult};

include!(concat!(env!("OUT_DIR"), "/default_puzzles.rs"));

/// At most this many ids in `exclude`.
pub const MAX_EXCLUDE: usize = 200;
/// Ratings accepted in requests.
const RATING_RANGE: std::ops::RangeInclusive<f64> = 100.0..=4000.0;
/// Tries judged a minute per session (or per address without one), and the burst.
const TRIES_PER_MINUTE: u32 = 240;
const TRIES_BURST: u32 = 60;
/// Tries judged at once (a wrong one runs the engine), the rest wait.
const JUDGES_AT_ONCE: usize = 2;
/// Rows per transaction when importing.
pub const IMPORT_BATCH: usize = 1000;
/// How long the per-motif counts are kept before counting again.
const COUNTS_TTL: Duration = Duration::from_secs(60);
/// The latest rounds the dashboard shows.
const HISTORY: i64 = 50;

fn bad(field: &str, zh: impl std::fmt::Display, en: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request("bad_request", format!("{field}：{zh}"), format!("{field}: {en}"))
}

fn no_puzzle() -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "no_puzzle", "没有符合条件的题目", "no puzzle matches")
}

fn puzzle_not_found(id: &str) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("找不到题目 {id}"), format!("puzzle {id} not found"))
}

// ----- import -----

/// A puzzle of a lichess CSV as stored: our tagger's motifs, the rating it starts with
/// ([`puzzle_start`]), and `source` (`lichess` or `guoxiang`).
pub fn row_of(p: &Puzzle, source: &str) -> PuzzleRow {
    let start = puzzle_start(p.rating, p.deviation, p.plays);
    let motifs = guoxiang_tactics::tag::tag(p)
        .into_iter()
        .map(|t| MotifTag { id: t.motif.id().to_owned(), zh: t.text.zh, en: t.text.en })
        .collect();
    PuzzleRow {
        id: p.id.clone(),
        fen: p.fen(),
        moves: p.uci_moves(),
        glicko: PuzzleGlicko { rating: start.rating, deviation: start.deviation, volatility: start.volatility },
        plays: p.plays.unwrap_or(0).max(0),
        rounds: 0,
        popularity: p.popularity.map_or(0, i64::from),
        themes: p.themes.clone(),
        motifs,
        game_url: p.game_url.clone(),
        opening_tags: p.opening_tags.clone(),
        source: source.to_owned(),
        number: 0,
    }
}

/// The source a row is recorded with: `guoxiang` for our generator's puzzles (their ids are 12 lowercase hex
/// digits, `guoxiang_tactics::generate`), else `lichess` (whose ids are 5 letters and digits).
pub fn source_of(p: &Puzzle) -> &'static str {
    if p.id.len() == 12 && p.id.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)) {
        "guoxiang"
    } else {
        "lichess"
    }
}

/// Imports the compiled-in default set when the database has no puzzle. Returns what was imported (`None`: there
/// were puzzles already). Broken rows of the set are logged and skipped.
pub async fn import_default_if_empty(store: &Store) -> Result<Option<UpsertCounts>, ApiError> {
    if store.has_puzzles().await? {
        return Ok(None);
    }
    let rows = tokio::task::spawn_blocking(|| {
        let mut rows = Vec::new();
        for r in Reader::new(DEFAULT_CSV.as_bytes()) {
            match r {
                Ok(p) => rows.push(row_of(&p, source_of(&p))),
                Err(e) => tracing::warn!("default puzzle set: {e}"),
            }
        }
        rows
    })
    .await
    .map_err(|e| ApiError::internal("default puzzles", e))?;
    let mut counts = UpsertCounts::default();
    for chunk in rows.chunks(IMPORT_BATCH) {
        counts += store.upsert_puzzles(chunk).await?;
    }
    tracing::info!("default puzzle set: {} puzzles imported", counts.inserted);
    Ok(Some(counts))
}

/// The databases whose default set has been seen to (by URL: one process may run several servers in tests).
fn defaults_done() -> &'static tokio::sync::Mutex<Vec<String>> {
    static DONE: OnceLock<tokio::sync::Mutex<Vec<String>>> = OnceLock::new();
    DONE.get_or_init(Default::default)
}

/// Imports the default set once per database and process, before the first puzzle request is answered.
async fn ensure_puzzles(state: &AppState) -> Result<(), ApiError> {
    let mut done = defaults_done().lock().await;
    if done.iter().any(|u| *u == state.config.database_url) {
        return Ok(());
    }
    if import_default_if_empty(&state.store).await?.is_some() {
        forget_counts(&state.config.database_url);
    }
    done.push(state.config.database_url.clone());
    Ok(())
}

// ----- JSON -----

fn motif(tag: &MotifTag) -> PuzzleMotif {
    let known = Motif::from_id(&tag.id);
    PuzzleMotif {
        id: tag.id.clone(),
        text: Bilingual { zh: tag.zh.clone(), en: tag.en.clone() },
        zh: known.map(|m| m.info().zh.to_owned()),
        en: known.map(|m| m.info().en.to_owned()),
        seed: known.and_then(|m| m.seed_tactic()).map(|t| t.number),
    }
}

/// The motifs of a puzzle, each sentence said once: a motif whose sentence is the same as an earlier motif's (牵制
/// and 绝对牵制 name one pin) comes right after that motif, with an empty text.
fn motifs_once(tags: &[MotifTag]) -> Vec<PuzzleMotif> {
    let mut groups: Vec<Vec<&MotifTag>> = Vec::new();
    for t in tags {
        match groups.iter_mut().find(|g| g[0].zh == t.zh && g[0].en == t.en && !t.zh.is_empty()) {
            Some(g) => g.push(t),
            None => groups.push(vec![t]),
        }
    }
    groups
        .into_iter()
        .flat_map(|g| {
            g.into_iter().enumerate().map(|(i, t)| {
                let mut m = motif(t);
                if i > 0 {
                    m.text = Bilingual { zh: String::new(), en: String::new() };
                }
                m
            })
        })
        .collect()
}

/// The lichess theme names of a stored puzzle: its Themes column, or our motifs written as lichess names.
fn themes_of(row: &PuzzleRow) -> Vec<String> {
    if !row.themes.is_empty() {
        return row.themes.clone();
    }
    let motifs: Vec<Motif> = row.motifs.iter().filter_map(|m| Motif::from_id(&m.id)).collect();
    lichess_themes(&motifs).into_iter().map(str::to_owned).collect()
}

fn parsed(row: &PuzzleRow) -> Result<Puzzle, ApiError> {
    Puzzle::new(&row.id, &row.fen, &row.moves)
        .map_err(|e| ApiError::internal("stored puzzle", format!("{}: {e}", row.id)))
}

/// Our puzzle object.
fn puzzle_view(row: &PuzzleRow) -> Result<PuzzleView, ApiError> {
    let p = parsed(row)?;
    Ok(PuzzleView {
        id: row.id.clone(),
        fen: row.fen.clone(),
        moves: row.moves.split_whitespace().map(str::to_owned).collect(),
        solver: Color::from(p.solver()),
        rating: row.glicko.rating.round() as i64,
        deviation: row.glicko.deviation.round() as i64,
        plays: row.plays,
        motifs: motifs_once(&row.motifs),
        lichess_themes: themes_of(row),
        game_url: row.game_url.clone(),
        source: row.source.clone(),
        number: row.number,
    })
}

/// The game id of a lichess game URL (`https://lichess.org/787zsVup/black#48` → `787zsVup`), empty when none.
fn game_id(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let id = rest.split('/').nth(1).unwrap_or("");
    id.split(['#', '?']).next().unwrap_or("").to_owned()
}

/// A puzzle in lichess's JSON shape (`GET /api/puzzle/daily`, `GET /api/puzzle/{id}`), plus `puzzle.fen` and
/// `puzzle.motifs`.
fn lichess_puzzle(row: &PuzzleRow) -> Result<LichessPuzzle, ApiError> {
    let p = parsed(row)?;
    let setup_san = p.position.san(p.moves[0]);
    let before = &p.position;
    let initial_ply =
        (before.fullmoves().saturating_sub(1)) * 2 + u32::from(before.turn() == guoxiang_core::Color::Black);
    let solution: Vec<String> = {
        let mut pos = p.start();
        p.solution()
            .iter()
            .map(|&m| {
                let u = pos.uci(m);
                pos.play_unchecked(m);
                u
            })
            .collect()
    };
    let player = |color: Color| LichessPuzzlePlayer { name: String::new(), id: String::new(), color, rating: None };
    Ok(LichessPuzzle {
        game: LichessPuzzleGame {
            id: game_id(&row.game_url),
            perf: LichessPerf { key: "puzzle".to_owned(), name: "Puzzle".to_owned() },
            rated: true,
            players: vec![player(Color::White), player(Color::Black)],
            pgn: setup_san,
            clock: String::new(),
        },
        puzzle: LichessPuzzleData {
            id: row.id.clone(),
            rating: row.glicko.rating.round() as i64,
            plays: row.plays,
            initial_ply,
            solution,
            themes: themes_of(row),
            fen: row.fen.clone(),
            motifs: row.motifs.iter().map(|m| m.id.clone()).collect(),
            number: Some(row.number).filter(|&n| n > 0),
        },
    })
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

fn valid_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
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

// ----- a new player -----

/// A new player's puzzle rating when nothing is known of them: the easiest band (the first puzzles come from
/// 900–1100, the window of [`Store::next_puzzle`] being ±100 first).
pub const NEWCOMER_RATING: f64 = 1000.0;
/// What the whole 学棋 course adds to a new player's puzzle rating (course finished → 1250; each lesson done adds
/// its share).
pub const COURSE_RATING: f64 = 250.0;
/// A new player's deviation: smaller than Glicko's 350 because we start near where a beginner is, so that one miss
/// on the first puzzle costs about 100 points, not 175 (docs/puzzles/server.md "Ratings").
pub const NEWCOMER_DEVIATION: f64 = 250.0;

/// The ids of the 学棋 course's lessons (the embedded course).
fn course_lessons() -> &'static [String] {
    static IDS: OnceLock<Vec<String>> = OnceLock::new();
    IDS.get_or_init(|| guoxiang_learn::Course::embedded().course.lessons().map(|(_, l)| l.id.clone()).collect())
}

/// The rating a new player starts from, `done` lessons of the 学棋 course being finished: 1000 plus the course's
/// share of 250, deviation 250.
pub fn newcomer(done: usize) -> Glicko {
    let total = course_lessons().len();
    let share = if total == 0 { 0.0 } else { done.min(total) as f64 / total as f64 };
    Glicko {
        rating: (NEWCOMER_RATING + COURSE_RATING * share).round(),
        deviation: NEWCOMER_DEVIATION,
        volatility: guoxiang_ratings::DEFAULT_VOLATILITY,
        games: 0,
    }
}

/// A new account's starting rating, from its 学棋 progress on the server.
async fn account_newcomer(state: &AppState, user_id: &str) -> Result<Glicko, ApiError> {
    let progress = state.store.learn_progress(user_id).await?;
    let done = course_lessons().iter().filter(|id| progress.get(id.as_str()).is_some_and(|p| p.done)).count();
    Ok(newcomer(done))
}

/// The user's puzzle rating: an account's stored one (before the first round, the new player's
/// [`account_newcomer`]) and its rounds.
async fn account_rating(state: &AppState, user_id: &str) -> Result<(Glicko, i64), ApiError> {
    Ok(match state.store.user_puzzle_rating(user_id).await? {
        Some(r) => (glicko(r.glicko, r.rounds), r.rounds),
        None => (account_newcomer(state, user_id).await?, 0),
    })
}

fn glicko(g: PuzzleGlicko, rounds: i64) -> Glicko {
    Glicko {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: u32::try_from(rounds.max(0)).unwrap_or(u32::MAX),
    }
}

fn stored(g: &Glicko) -> PuzzleGlicko {
    PuzzleGlicko { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
}

/// Lichess's `difficulty` of `GET /api/puzzle/next`: how far from the solver's rating.
fn difficulty_offset(d: &str) -> Result<f64, ApiError> {
    match d {
        "easiest" => Ok(-600.0),
        "easier" => Ok(-300.0),
        "normal" => Ok(0.0),
        "harder" => Ok(300.0),
        "hardest" => Ok(600.0),
        _ => Err(bad(
            "difficulty",
            "须为 easiest、easier、normal、harder 或 hardest",
            "must be easiest, easier, normal, harder or hardest",
        )),
    }
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
/// neither a difficulty nor a rating is given. Without `rating`, a player with no puzzle rating yet starts from [`newcomer`]: an account's 学棋
/// progress on the server, a guest's `course` (the lessons their browser has done).
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
    let ours = match q.get("format").map(|s| s.trim()) {
        None | Some("" | "lichess") => false,
        Some("guoxiang") => true,
        Some(_) => return Err(bad("format", "须为 lichess 或 guoxiang", "must be lichess or guoxiang")),
    };
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
    let account = auth.as_ref().filter(|a| !a.user.is_guest).map(|a| a.user.id.clone());
    let rating_param = q.get("rating").filter(|s| !s.trim().is_empty());
    // The account's kept choice is relative to its own rating: it applies when neither a rating (a streak's) nor a
    // difficulty is asked for; one asked for is kept.
    let difficulty = match (&account, asked) {
        (Some(id), Some(d)) => {
            if state.store.puzzle_difficulty(id).await?.as_deref() != Some(d) {
                state.store.set_puzzle_difficulty(id, d, crate::time::now_ms() as i64).await?;
            }
            d.to_owned()
        }
        (Some(id), None) if rating_param.is_none() => {
            state.store.puzzle_difficulty(id).await?.unwrap_or_else(|| "normal".to_owned())
        }
        (_, d) => d.unwrap_or("normal").to_owned(),
    };
    let offset = difficulty_offset(&difficulty)?;
    let (rating, newcomer_rating) = match rating_param {
        Some(r) => (parse_rating_param(r)?, None),
        None => match &account {
            Some(id) => {
                let (g, rounds) = account_rating(&state, id).await?;
                (g.rating, (rounds == 0).then_some(g))
            }
            None => {
                let g = newcomer(course.unwrap_or(0));
                (g.rating, Some(g))
            }
        },
    };
    let rating = rating + offset;
    ensure_puzzles(&state).await?;
    let query = NextQuery {
        rating,
        start: rand::random::<f64>() * 2.0 - 1.0,
        motifs: &motifs,
        exclude: &exclude,
        user_id: account.as_deref(),
        not_daily: false,
    };
    let row = state.store.next_puzzle(&query).await?.ok_or_else(no_puzzle)?;
    Ok(if ours {
        Json(PuzzleAnswer {
            puzzle: puzzle_view(&row)?,
            difficulty: Some(difficulty),
            newcomer: newcomer_rating.map(|g| GlickoRating {
                rating: g.rating,
                deviation: g.deviation,
                volatility: Some(g.volatility),
            }),
        })
        .into_response()
    } else {
        Json(lichess_puzzle(&row)?).into_response()
    })
}

// ----- themes -----

type Counts = Arc<HashMap<String, i64>>;

fn counts_cache() -> &'static Mutex<HashMap<String, (Instant, Counts)>> {
    static CACHE: OnceLock<Mutex<HashMap<String, (Instant, Counts)>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

fn forget_counts(db: &str) {
    counts_cache().lock().unwrap_or_else(|e| e.into_inner()).remove(db);
}

async fn motif_counts(state: &AppState) -> Result<Counts, ApiError> {
    let db = &state.config.database_url;
    if let Some((at, c)) = counts_cache().lock().unwrap_or_else(|e| e.into_inner()).get(db)
        && at.elapsed() < COUNTS_TTL
    {
        return Ok(c.clone());
    }
    let counts: Counts = Arc::new(state.store.motif_counts().await?.into_iter().collect());
    counts_cache().lock().unwrap_or_else(|e| e.into_inner()).insert(db.clone(), (Instant::now(), counts.clone()));
    Ok(counts)
}

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
    ensure_puzzles(&state).await?;
    let counts = motif_counts(&state).await?;
    let count = |m: &Motif| counts.get(m.id()).copied().unwrap_or(0);
    let seeds = SEED_TACTICS
        .iter()
        .map(|t| SeedTheme {
            number: t.number,
            zh: t.zh.to_owned(),
            en: t.en.to_owned(),
            motifs: t.motifs.iter().map(|m| m.id().to_owned()).collect(),
            count: t.motifs.iter().map(count).sum::<i64>(),
        })
        .filter(|t| all || t.count > 0)
        .collect();
    let motifs = Motif::ALL
        .iter()
        .map(|m| {
            let i = m.info();
            MotifTheme {
                id: i.id.to_owned(),
                zh: i.zh.to_owned(),
                en: i.en.to_owned(),
                about: Bilingual { zh: i.about_zh.to_owned(), en: i.about_en.to_owned() },
                seed: m.seed_tactic().map(|t| t.number),
                count: count(m),
            }
        })
        .filter(|m| all || m.count > 0)
        .collect();
    Ok(Json(PuzzleThemes { seeds, motifs }))
}

// ----- try -----

fn try_limiter() -> &'static DefaultKeyedRateLimiter<String> {
    static LIMITER: OnceLock<DefaultKeyedRateLimiter<String>> = OnceLock::new();
    LIMITER.get_or_init(|| {
        let quota = Quota::per_minute(NonZeroU32::new(TRIES_PER_MINUTE).unwrap_or(NonZeroU32::MIN))
            .allow_burst(NonZeroU32::new(TRIES_BURST).unwrap_or(NonZeroU32::MIN));
        RateLimiter::keyed(quota)
    })
}

fn judges() -> &'static Semaphore {
    static JUDGES: OnceLock<Semaphore> = OnceLock::new();
    JUDGES.get_or_init(|| Semaphore::new(JUDGES_AT_ONCE))
}

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

fn text(t: &Text) -> Bilingual {
    Bilingual::from(t)
}

fn puzzle_verdict(v: Verdict) -> PuzzleVerdict {
    match v {
        Verdict::Correct { reply } => PuzzleVerdict::Correct { reply },
        Verdict::Solved { reply } => PuzzleVerdict::Solved { reply },
        Verdict::Wrong { reason, refutation } => PuzzleVerdict::Wrong { reason: text(&reason), refutation },
        Verdict::Illegal { code, reason } => PuzzleVerdict::Illegal { code, reason: text(&reason) },
    }
}

/// `POST /api/puzzle/{id}/try[?letters=zh]`: the verdict on the solver's last move; with `letters=zh` the moves
/// in its sentences are written with Chinese piece letters (…车xd2), the learner's choice. Open to anyone;
/// rate-limited per session (per address without one); at most [`JUDGES_AT_ONCE`] judged at once, off the async
/// runtime.
pub async fn try_move(
    State(state): State<AppState>,
    MaybeAuth(auth): MaybeAuth,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
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
    let key = auth.as_ref().map_or_else(|| format!("ip:{}", peer.ip()), |a| format!("user:{}", a.user.id));
    try_limiter().check_key(&key).map_err(|_| ApiError::too_many())?;
    if !valid_id(&id) {
        return Err(puzzle_not_found(&id));
    }
    ensure_puzzles(&state).await?;
    let row = state.store.puzzle(&id).await?.ok_or_else(|| puzzle_not_found(&id))?;
    let p = parsed(&row)?;
    let _permit = judges().acquire().await.map_err(|e| ApiError::internal("puzzle judge", e))?;
    let verdict = tokio::task::spawn_blocking(move || judge_in(&p, &moves, JUDGE_NODES, chinese))
        .await
        .map_err(|e| ApiError::internal("puzzle judge", e))?;
    match verdict {
        Ok(v) => Ok(Json(puzzle_verdict(v))),
        Err(e) => Err(bad(&e.field(), &e.text.zh, &e.text.en)),
    }
}

// ----- round -----

/// A round's request.
struct RoundBody {
    win: bool,
    hints: i64,
    streak: bool,
    rating: Option<Glicko>,
}

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

fn parse_round(body: &[u8]) -> Result<RoundBody, ApiError> {
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
    Ok(RoundBody { win, hints, streak, rating })
}

fn rating_answer(before: &Glicko, after: &Glicko, rounds: Option<i64>, replay: bool) -> RoundRating {
    RoundRating {
        before: before.rounded(),
        after: after.rounded(),
        deviation: after.deviation.round() as i64,
        volatility: after.volatility,
        provisional: after.is_provisional(),
        rounds,
        replay,
    }
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
    if !valid_id(&id) {
        return Err(puzzle_not_found(&id));
    }
    ensure_puzzles(&state).await?;
    let row = state.store.puzzle(&id).await?.ok_or_else(|| puzzle_not_found(&id))?;
    let puzzle = glicko(row.glicko, row.plays);
    let puzzle_answer = |rating: f64, plays: i64| RoundPuzzle { rating: rating.round() as i64, plays };
    if auth.user.is_guest {
        let before = r.rating.unwrap_or_else(|| newcomer(0));
        let after = if r.streak { before } else { rate_round(&before, &puzzle, r.win).0 };
        return Ok(Json(RoundAnswer {
            rating: rating_answer(&before, &after, None, false),
            puzzle: puzzle_answer(row.glicko.rating, row.plays),
        }));
    }
    let user_id = auth.user.id.clone();
    let new_user = account_newcomer(&state, &user_id).await?;
    if r.streak {
        let (current, rounds) = account_rating(&state, &user_id).await?;
        return Ok(Json(RoundAnswer {
            rating: rating_answer(&current, &current, Some(rounds), false),
            puzzle: puzzle_answer(row.glicko.rating, row.plays),
        }));
    }
    let rec = state
        .store
        .record_round(
            &guoxiang_store::NewRound {
                user_id: &user_id,
                puzzle_id: &id,
                win: r.win,
                hints: r.hints,
                at_ms: crate::time::now_ms() as i64,
                new_user: stored(&new_user),
            },
            |user, puzzle| {
                let (u, p) = rate_round(&glicko(user, 0), &glicko(puzzle, 0), r.win);
                (stored(&u), stored(&p))
            },
        )
        .await?;
    Ok(Json(RoundAnswer {
        rating: rating_answer(
            &glicko(rec.user_before, 0),
            &glicko(rec.user_after, 0),
            Some(rec.user_rounds),
            rec.replay,
        ),
        puzzle: puzzle_answer(rec.puzzle_after.rating, rec.puzzle_plays),
    }))
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
    let (rating, rounds) = account_rating(&state, &auth.user.id).await?;
    let history = state
        .store
        .puzzle_history(&auth.user.id, HISTORY)
        .await?
        .into_iter()
        .map(|h| DashboardRound {
            id: h.puzzle_id,
            win: h.win,
            rating_after: h.rating_after.round() as i64,
            at: h.at_ms,
            number: Some(h.number).filter(|&n| n > 0),
        })
        .collect();
    let themes = state
        .store
        .puzzle_motif_results(&auth.user.id)
        .await?
        .into_iter()
        .map(|m| DashboardTheme { id: m.motif, solved: m.solved, failed: m.failed })
        .collect();
    Ok(Json(PuzzleDashboard {
        rating: DashboardRating {
            rating: rating.rounded(),
            deviation: rating.deviation.round() as i64,
            provisional: rating.is_provisional(),
            rounds,
        },
        history,
        themes,
    }))
}

// ----- daily and by id -----

/// The UTC date `YYYY-MM-DD` of a time in ms since the Unix epoch.
pub fn utc_day(ms: i64) -> String {
    // Howard Hinnant's civil-from-days.
    let z = ms.div_euclid(86_400_000) + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// The rating the daily puzzle is chosen near.
const DAILY_RATING: f64 = 1800.0;

/// `GET /api/puzzle/daily`: the same puzzle for everyone during a UTC day, chosen on the day's first request (a
/// puzzle that has not been a daily one, near 1800) and kept.
pub async fn daily(State(state): State<AppState>) -> ApiResult<Json<LichessPuzzle>> {
    ensure_puzzles(&state).await?;
    let now = crate::time::now_ms() as i64;
    let day = utc_day(now);
    let id = match state.store.daily_puzzle(&day).await? {
        Some(id) => id,
        None => {
            let mut q = NextQuery {
                rating: DAILY_RATING,
                start: rand::random::<f64>() * 2.0 - 1.0,
                not_daily: true,
                ..NextQuery::default()
            };
            let pick = match state.store.next_puzzle(&q).await? {
                Some(p) => p,
                None => {
                    q.not_daily = false;
                    state.store.next_puzzle(&q).await?.ok_or_else(no_puzzle)?
                }
            };
            state.store.choose_daily_puzzle(&day, &pick.id, now).await?
        }
    };
    let row = state.store.puzzle(&id).await?.ok_or_else(|| puzzle_not_found(&id))?;
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
    let ours = match q.get("format").map(|s| s.trim()) {
        None | Some("" | "lichess") => false,
        Some("guoxiang") => true,
        Some(_) => return Err(bad("format", "须为 lichess 或 guoxiang", "must be lichess or guoxiang")),
    };
    if !valid_id(&id) {
        return Err(puzzle_not_found(&id));
    }
    ensure_puzzles(&state).await?;
    let row = state.store.puzzle(&id).await?.ok_or_else(|| puzzle_not_found(&id))?;
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
    fn utc_days() {
        assert_eq!(utc_day(0), "1970-01-01");
        assert_eq!(utc_day(951_782_400_000), "2000-02-29");
        assert_eq!(utc_day(1_796_083_199_999), "2026-11-30");
        assert_eq!(utc_day(1_796_083_200_000), "2026-12-01");
        assert_eq!(utc_day(-1), "1969-12-31");
    }

    #[test]
    fn sources_by_id() {
        let p = |id: &str| Puzzle::new(id, "6k1/3r1ppp/8/8/8/8/5PPP/3R2K1 b - - 0 1", "d7d8 d1d8").unwrap();
        assert_eq!(source_of(&p("00008")), "lichess");
        assert_eq!(source_of(&p("0a1b2c3d4e5f")), "guoxiang");
        assert_eq!(source_of(&p("0A1B2C3D4E5F")), "lichess");
    }

    #[test]
    fn game_ids_of_urls() {
        assert_eq!(game_id("https://lichess.org/787zsVup/black#48"), "787zsVup");
        assert_eq!(game_id("https://lichess.org/MQSyb3KW#127"), "MQSyb3KW");
        assert_eq!(game_id(""), "");
    }

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

    #[test]
    fn every_difficulty_the_store_keeps_is_one_next_takes() {
        let offsets: Vec<f64> =
            guoxiang_store::PUZZLE_DIFFICULTIES.iter().map(|d| difficulty_offset(d).unwrap()).collect();
        assert_eq!(offsets, vec![-600.0, -300.0, 0.0, 300.0, 600.0]);
        assert!(difficulty_offset("hard").is_err());
    }

    #[test]
    fn a_new_player_starts_low_and_the_course_moves_it_up() {
        let total = course_lessons().len();
        assert!(total > 0);
        assert_eq!((newcomer(0).rating, newcomer(0).deviation), (1000.0, 250.0));
        assert_eq!(newcomer(total).rating, 1250.0);
        assert_eq!(newcomer(total + 10).rating, 1250.0, "more than the course is the course");
    }

    #[test]
    fn the_default_set_reads() {
        let (mut ok, mut broken) = (0, 0);
        for r in Reader::new(DEFAULT_CSV.as_bytes()) {
            if r.is_ok() { ok += 1 } else { broken += 1 }
        }
        assert_eq!(broken, 0);
        assert!(DEFAULT_CSV.is_empty() || ok > 0);
    }
}
