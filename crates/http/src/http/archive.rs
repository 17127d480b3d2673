//! The archive: profiles with ratings and 级别/积分, game lists, PGN export of one game or of all of a user's games
//! (streamed page by page), and game JSON in the Lichess export format.

use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use std::collections::BTreeMap;

use guoxiang_protocol::Color;
use guoxiang_protocol::http::{
    ExportClock, ExportGame, ExportOpening, ExportPlayer, ExportPlayers, ExportUser, GameCount, GamePlayer, GameView,
    GamesPage, Perf, Profile, RatingPoint,
};
use guoxiang_store::{GameRow, MoveRow, RatingRow};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use guoxiang_domain::archive::{EventTags, PgnOptions, civil, opening_of};
use guoxiang_domain::live::game_row_view;

/// Routes: the archive (profiles, players' games, exports, the live list).
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/user/{name}", get(profile))
        .route("/api/user/{name}/rating-history", get(rating_history))
        .route("/api/user/{name}/current-game", get(current_game))
        .route("/api/user/{name}/games", get(games_json))
        .route("/api/games/user/{name}", get(export_user))
        .route("/api/games/export/_ids", post(export_ids))
        .route("/api/crosstable/{a}/{b}", get(crosstable))
        .route("/game/export/{id}", get(export_game))
        .route("/api/game/{id}", get(game_json))
        .route("/api/live", get(live))
}

/// A stored game in PGN export format, with `[%clk]` comments, ratings and the opening (see [`guoxiang_domain::archive`]).
pub fn game_pgn(state: &AppState, row: &GameRow, moves: &[MoveRow]) -> Result<String, ApiError> {
    game_pgn_with(&state.config.public_url, row, moves, PgnOptions::default())
}

/// [`game_pgn`] with the export's options, as a response's error when the stored game does not rebuild.
fn game_pgn_with(public_url: &str, row: &GameRow, moves: &[MoveRow], opts: PgnOptions) -> Result<String, ApiError> {
    guoxiang_domain::archive::game_pgn(public_url, row, moves, opts, EventTags::default())
        .map_err(|e| ApiError::internal("pgn", e))
}

/// Lichess status names.
pub fn lichess_status(row_status: &str, termination: Option<&str>) -> &'static str {
    match (row_status, termination) {
        ("aborted", _) => "aborted",
        ("live", _) => "started",
        (_, Some("checkmate")) => "mate",
        (_, Some("resignation")) => "resign",
        (_, Some("stalemate")) => "stalemate",
        (_, Some("time_forfeit" | "time_forfeit_draw")) => "outoftime",
        (_, Some("abandoned" | "late_arrival")) => "timeout",
        (_, Some("adjudication" | "illegal_move" | "sealed_move")) => "unknownFinish",
        (_, Some("promotion")) => "variantEnd",
        _ => "draw",
    }
}

/// `"white"` or `"black"` as a colour (`None` for anything else).
fn color_of(s: &str) -> Option<Color> {
    match s {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

/// A stored game in the Lichess export JSON form.
pub fn game_export(row: &GameRow, moves: &[MoveRow], with_pgn: Option<String>) -> ExportGame {
    let view = game_row_view(row, moves);
    let player = |p: &GamePlayer, rating: Option<i64>, diff: Option<i64>| ExportPlayer {
        user: (!p.is_engine).then(|| ExportUser { name: p.name.clone(), id: p.id.clone(), title: None }),
        ai_level: if p.is_engine { p.engine_level } else { None },
        rating,
        rating_diff: diff,
    };
    ExportGame {
        id: row.id.clone(),
        rated: row.rated,
        variant: if view.chess960 {
            "chess960"
        } else if view.initial_fen.is_some() {
            "fromPosition"
        } else {
            "standard"
        }
        .to_owned(),
        speed: row.speed.clone(),
        perf: row.speed.clone(),
        created_at: row.created_at_ms,
        last_move_at: moves.last().map_or(row.created_at_ms, |m| m.at_ms),
        status: lichess_status(&row.status, row.termination.as_deref()).to_owned(),
        source: view.source.clone(),
        players: ExportPlayers {
            white: player(&view.white, row.white_rating, row.white_rating_diff),
            black: player(&view.black, row.black_rating, row.black_rating_diff),
        },
        moves: view.moves_san.join(" "),
        winner: row.winner.as_deref().and_then(color_of),
        clock: match (view.initial_ms, view.increment_ms) {
            (Some(i), Some(inc)) => {
                Some(ExportClock { initial: i / 1000, increment: inc / 1000, total_time: i / 1000 + 40 * inc / 1000 })
            }
            _ => None,
        },
        opening: opening_of(moves, view.initial_fen.as_deref()).map(|o| ExportOpening {
            eco: o.eco.to_string(),
            name: o.name_en.to_string(),
            name_zh: o.name_zh.to_string(),
            ply: o.plies as u32,
        }),
        initial_fen: view.initial_fen,
        pgn: with_pgn,
    }
}

/// [`game_export`] with the players' titles (`BOT`), which only the store knows.
pub async fn game_export_titled(
    state: &AppState,
    row: &GameRow,
    moves: &[MoveRow],
    with_pgn: Option<String>,
) -> ExportGame {
    let mut g = game_export(row, moves, with_pgn);
    for p in [&mut g.players.white, &mut g.players.black] {
        if let Some(u) = p.user.as_mut() {
            u.title = crate::users::title(state, &u.id).await.map(str::to_owned);
        }
    }
    g
}

/// A user's ratings by speed.
pub fn perfs(rows: &[RatingRow]) -> BTreeMap<String, Perf> {
    rows.iter()
        .map(|r| {
            let g = guoxiang_ratings::Glicko {
                rating: r.rating,
                deviation: r.deviation,
                volatility: r.volatility,
                games: r.games as u32,
            };
            let perf = Perf {
                games: r.games,
                rating: r.rating.round() as i64,
                rd: r.deviation.round() as i64,
                prov: g.is_provisional(),
            };
            (r.speed.clone(), perf)
        })
        .collect()
}

/// [`perfs`] as a JSON value (the Lichess-compatible account answer embeds it).
pub fn perfs_json(rows: &[RatingRow]) -> Value {
    serde_json::to_value(perfs(rows)).unwrap_or_default()
}

async fn user_by_name(state: &AppState, name: &str) -> ApiResult<guoxiang_store::User> {
    if name.len() > 64 {
        return Err(ApiError::not_found("用户", "user"));
    }
    state
        .store
        .user(&name.to_lowercase())
        .await?
        .ok_or_else(|| ApiError::not_found(&format!("用户 {name}"), &format!("user {name}")))
}

/// `GET /api/user/{name}`: a user's public data in Lichess's shape (as `/api/account`); with `?format=guoxiang`,
/// our [`Profile`] (what the web UI reads).
pub async fn profile(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> ApiResult<Response> {
    let u = user_by_name(&state, &name).await?;
    if q.format.as_deref() == Some("guoxiang") {
        return Ok(Json(our_profile(&state, u).await?).into_response());
    }
    Ok(Json(crate::users::user_json(&state, &u).await?).into_response())
}

async fn our_profile(state: &AppState, u: guoxiang_store::User) -> ApiResult<Profile> {
    let ratings = state.store.ratings(&u.id).await?;
    let games = state.store.count_user_games(&u.id).await?;
    let points = u.points.max(0) as u32;
    Ok(Profile {
        online: state.hub.is_online(&u.id),
        playing: state.live.playing(&u.id).await,
        id: u.id,
        username: u.name,
        guest: u.is_guest,
        created_at: u.created_at_ms,
        perfs: perfs(&ratings),
        points: u.points,
        level: guoxiang_ratings::level(points),
        level_zh: guoxiang_ratings::level_name(points, guoxiang_ratings::Lang::Zh).to_string(),
        level_en: guoxiang_ratings::level_name(points, guoxiang_ratings::Lang::En).to_string(),
        count: GameCount { all: games },
    })
}

#[derive(Debug, Deserialize)]
pub struct HistoryQuery {
    /// `guoxiang`: our own shape (what the web UI reads); otherwise Lichess's.
    #[serde(default)]
    pub format: Option<String>,
}

/// `GET /api/user/{name}/rating-history`: in Lichess's shape, one entry per speed (`UltraBullet`, `Bullet`,
/// `Blitz`, `Rapid`, `Classical`, `Correspondence`) with its points `[year, month (0-11), day, rating]`, the
/// rating after each rated game; with `?format=guoxiang`, ours (`RatingPoint[]`: speed, game, time, rating, RD).
pub async fn rating_history(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(q): Query<HistoryQuery>,
) -> ApiResult<Response> {
    let u = user_by_name(&state, &name).await?;
    let points = state.store.rating_history(&u.id).await?;
    if q.format.as_deref() == Some("guoxiang") {
        let ours: Vec<RatingPoint> = points
            .into_iter()
            .map(|p| RatingPoint {
                speed: p.speed,
                game_id: p.game_id,
                at: p.at_ms,
                rating: p.rating.round() as i64,
                rd: p.deviation.round() as i64,
            })
            .collect();
        return Ok(Json(ours).into_response());
    }
    let names = [
        ("UltraBullet", "ultrabullet"),
        ("Bullet", "bullet"),
        ("Blitz", "blitz"),
        ("Rapid", "rapid"),
        ("Classical", "classical"),
        ("Correspondence", "correspondence"),
    ];
    let lichess: Vec<Value> = names
        .iter()
        .map(|(name, speed)| {
            let pts: Vec<Value> = points
                .iter()
                .filter(|p| p.speed == *speed)
                .map(|p| {
                    let (y, m, d) = civil(p.at_ms.div_euclid(86_400_000));
                    json!([y, m - 1, d, p.rating.round() as i64])
                })
                .collect();
            json!({"name": name, "points": pts})
        })
        .collect();
    Ok(Json(Value::Array(lichess)).into_response())
}

#[derive(Debug, Deserialize)]
pub struct Page {
    #[serde(default)]
    pub offset: Option<i64>,
    #[serde(default)]
    pub limit: Option<i64>,
    #[serde(default)]
    pub max: Option<i64>,
}

pub async fn games_json(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(p): Query<Page>,
) -> ApiResult<Json<GamesPage>> {
    let u = user_by_name(&state, &name).await?;
    let offset = p.offset.unwrap_or(0).max(0);
    let limit = p.limit.unwrap_or(20).clamp(1, 100);
    let rows = state.store.user_games(&u.id, offset, limit).await?;
    let total = state.store.count_user_games(&u.id).await?;
    let mut games = Vec::new();
    for r in &rows {
        let moves = state.store.moves(&r.id).await?;
        games.push(game_export_titled(&state, r, &moves, None).await);
    }
    Ok(Json(GamesPage { total, offset, games }))
}

fn wants(headers: &HeaderMap, mime: &str) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains(mime))
}

/// Lichess's filters and options of `GET /api/games/user/{name}`.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UserExportQuery {
    #[serde(default)]
    pub max: Option<i64>,
    /// Games created at or after / at or before (ms since the Unix epoch).
    #[serde(default)]
    pub since: Option<i64>,
    #[serde(default)]
    pub until: Option<i64>,
    #[serde(default)]
    pub rated: Option<String>,
    /// Speeds, comma-separated, as Lichess names them (`ultraBullet`, `bullet`, …, `correspondence`, `chess960`).
    #[serde(default)]
    pub perf_type: Option<String>,
    /// Only the games against this user.
    #[serde(default)]
    pub vs: Option<String>,
    #[serde(default)]
    pub color: Option<String>,
    /// Games in progress (default: no) and finished games (default: yes).
    #[serde(default)]
    pub ongoing: Option<String>,
    #[serde(default)]
    pub finished: Option<String>,
    #[serde(flatten)]
    pub options: ExportOptionsQuery,
}

/// Lichess's options of a games export (`/api/games/user/{name}`, `/api/games/export/_ids`), with its defaults:
/// `moves` and `tags` on, `clocks`, `opening`, `evals` and `pgnInJson` off.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExportOptionsQuery {
    #[serde(default)]
    pub clocks: Option<String>,
    #[serde(default)]
    pub evals: Option<String>,
    #[serde(default)]
    pub opening: Option<String>,
    #[serde(default)]
    pub moves: Option<String>,
    #[serde(default)]
    pub tags: Option<String>,
    #[serde(default)]
    pub pgn_in_json: Option<String>,
}

/// The options of an export, checked.
#[derive(Clone, Copy, Debug)]
pub struct ExportOptions {
    pub pgn: PgnOptions,
    /// A reviewed game as its review annotated it (`[%eval]`, comments), in PGN.
    pub evals: bool,
    pub moves: bool,
    pub tags: bool,
    /// The PGN in the JSON form's `pgn` field.
    pub pgn_in_json: bool,
}

impl ExportOptions {
    pub fn of(q: &ExportOptionsQuery) -> ApiResult<ExportOptions> {
        Ok(ExportOptions {
            pgn: PgnOptions {
                clocks: flag("clocks", &q.clocks)?.unwrap_or(false),
                opening: flag("opening", &q.opening)?.unwrap_or(false),
            },
            evals: flag("evals", &q.evals)?.unwrap_or(false),
            moves: flag("moves", &q.moves)?.unwrap_or(true),
            tags: flag("tags", &q.tags)?.unwrap_or(true),
            pgn_in_json: flag("pgnInJson", &q.pgn_in_json)?.unwrap_or(false),
        })
    }
}

/// A PGN with its tags or its movetext left out (`tags=false`, `moves=false`); it ends as the whole PGN does
/// (a blank line), so that exports keep Lichess's two blank lines between games.
pub fn pgn_parts(pgn: &str, tags: bool, moves: bool) -> String {
    if tags && moves {
        return pgn.to_owned();
    }
    let (head, body) = match pgn.find("\n\n") {
        Some(i) => (&pgn[..=i], pgn[i + 2..].trim_end()),
        None => (pgn, ""),
    };
    let mut out = if tags { head.to_owned() } else { format!("{body}\n") };
    out.push('\n');
    out
}

/// One game of an export, in PGN or as a line of NDJSON; `None` when it cannot be written (logged).
async fn export_one(state: &AppState, r: &GameRow, ndjson: bool, o: ExportOptions) -> Option<String> {
    let moves = state.store.moves(&r.id).await.unwrap_or_default();
    export_with_moves(state, r, &moves, ndjson, o).await
}

/// [`export_one`] for a game whose moves are already read.
async fn export_with_moves(
    state: &AppState,
    r: &GameRow,
    moves: &[MoveRow],
    ndjson: bool,
    o: ExportOptions,
) -> Option<String> {
    // With evals, a reviewed game comes as its review annotated it (`[%eval]` and comments).
    let reviewed = if o.evals { reviewed_pgn(state, &r.id, "zh").await.ok().flatten() } else { None };
    let pgn = || reviewed.clone().map_or_else(|| game_pgn_with(&state.config.public_url, r, moves, o.pgn), Ok);
    if ndjson {
        let with_pgn = if o.pgn_in_json { pgn().ok() } else { None };
        let mut g = game_export_titled(state, r, moves, with_pgn).await;
        if !o.moves {
            g.moves.clear();
        }
        return match serde_json::to_string(&g) {
            Ok(line) => Some(format!("{line}\n")),
            Err(e) => {
                tracing::warn!("export of game {}: {e}", r.id);
                None
            }
        };
    }
    match pgn() {
        Ok(p) => Some(format!("{}\n", pgn_parts(&p, o.tags, o.moves))),
        Err(e) => {
            tracing::warn!("export of game {}: {}", r.id, e.en);
            None
        }
    }
}

/// A Lichess boolean parameter (see [`crate::params::parse_bool`]).
fn flag(field: &str, v: &Option<String>) -> ApiResult<Option<bool>> {
    crate::params::parse_bool(field, v.as_deref())
}

/// The export's filters, checked.
struct ExportFilter {
    since: Option<i64>,
    until: Option<i64>,
    rated: Option<bool>,
    speeds: Option<Vec<&'static str>>,
    chess960: bool,
    vs: Option<String>,
    color: Option<&'static str>,
    ongoing: bool,
    finished: bool,
}

impl ExportFilter {
    fn of(q: &UserExportQuery) -> ApiResult<ExportFilter> {
        let (speeds, chess960) = match q.perf_type.as_deref().filter(|s| !s.is_empty()) {
            None => (None, false),
            Some(list) => {
                let mut speeds = Vec::new();
                let mut chess960 = false;
                for p in list.split(',').map(str::trim) {
                    match p {
                        "ultraBullet" => speeds.push("ultrabullet"),
                        "bullet" => speeds.push("bullet"),
                        "blitz" => speeds.push("blitz"),
                        "rapid" => speeds.push("rapid"),
                        "classical" => speeds.push("classical"),
                        "correspondence" => speeds.push("correspondence"),
                        "chess960" => chess960 = true,
                        other => {
                            return Err(ApiError::bad_request(
                                "bad_request",
                                format!("perfType 中的 {other} 不是本服务器的速度或变体"),
                                format!("perfType: {other} is not a speed or variant of this server"),
                            ));
                        }
                    }
                }
                (Some(speeds), chess960)
            }
        };
        let color = match q.color.as_deref() {
            None | Some("") => None,
            Some("white") => Some("white"),
            Some("black") => Some("black"),
            Some(other) => {
                return Err(ApiError::bad_request(
                    "bad_request",
                    format!("color 应为 white 或 black，而不是 {other}"),
                    format!("color must be white or black, not {other}"),
                ));
            }
        };
        Ok(ExportFilter {
            since: q.since,
            until: q.until,
            rated: flag("rated", &q.rated)?,
            speeds,
            chess960,
            vs: q.vs.as_deref().filter(|v| !v.is_empty()).map(guoxiang_store::user_id_of),
            color,
            ongoing: flag("ongoing", &q.ongoing)?.unwrap_or(false),
            finished: flag("finished", &q.finished)?.unwrap_or(true),
        })
    }

    /// Whether `user`'s game `r` passes.
    fn keeps(&self, user: &str, r: &GameRow) -> bool {
        let mine = if r.white_id == user { "white" } else { "black" };
        let opponent = if mine == "white" { &r.black_id } else { &r.white_id };
        let live = r.status == "live";
        self.since.is_none_or(|t| r.created_at_ms >= t)
            && self.until.is_none_or(|t| r.created_at_ms <= t)
            && self.rated.is_none_or(|b| r.rated == b)
            && self
                .speeds
                .as_ref()
                .is_none_or(|s| s.contains(&r.speed.as_str()) || (self.chess960 && r.variant_json.contains("Chess960")))
            && self.vs.as_ref().is_none_or(|v| opponent == v)
            && self.color.is_none_or(|c| c == mine)
            && if live { self.ongoing } else { self.finished }
    }
}

/// A user's games, newest first, as PGN (or NDJSON with `Accept: application/x-ndjson`), streamed, with Lichess's
/// filters (`since`, `until`, `rated`, `perfType`, `vs`, `color`, `ongoing` — games in progress, off by default —,
/// `finished`) and options (`clocks`, `opening`: on unless `false`; `evals=true`: a reviewed game as its review
/// annotated it, in PGN) applied; `max` counts the games that pass. Aborted games are never exported.
pub async fn export_user(
    State(state): State<AppState>,
    Path(name): Path<String>,
    Query(p): Query<UserExportQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let u = user_by_name(&state, &name).await?;
    let ndjson = wants(&headers, "application/x-ndjson");
    let max = p.max.unwrap_or(i64::MAX).max(0);
    let filter = ExportFilter::of(&p)?;
    let opts = ExportOptions::of(&p.options)?;
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<String, std::io::Error>>(4);
    tokio::spawn(async move {
        let (mut offset, mut sent) = (0, 0);
        while sent < max {
            let limit = 100;
            let rows = match state.store.user_games(&u.id, offset, limit).await {
                Ok(r) => r,
                Err(e) => {
                    let _ = tx.send(Err(std::io::Error::other(e.to_string()))).await;
                    return;
                }
            };
            if rows.is_empty() {
                break;
            }
            offset += rows.len() as i64;
            for r in rows {
                if sent >= max || !filter.keeps(&u.id, &r) {
                    continue;
                }
                sent += 1;
                let Some(chunk) = export_one(&state, &r, ndjson, opts).await else { continue };
                if tx.send(Ok(chunk)).await.is_err() {
                    return;
                }
            }
        }
    });
    let stream = tokio_stream_from(rx);
    let ctype = if ndjson { "application/x-ndjson" } else { "application/x-chess-pgn; charset=utf-8" };
    let filename = format!("attachment; filename=\"guoxiang_{name}.pgn\"");
    Ok(([(header::CONTENT_TYPE, ctype.to_owned()), (header::CONTENT_DISPOSITION, filename)], Body::from_stream(stream))
        .into_response())
}

/// `GET /api/crosstable/{a}/{b}`: the two users' score against each other over their finished games, as Lichess
/// gives it: `{"users": {a: score, b: score}, "nbGames": n}` (ids as keys; a win 1, a draw ½). Lichess's
/// `matchup` (the current streak of games) is not given.
pub async fn crosstable(State(state): State<AppState>, Path((a, b)): Path<(String, String)>) -> ApiResult<Json<Value>> {
    let (ua, ub) = (user_by_name(&state, &a).await?, user_by_name(&state, &b).await?);
    let (mut score_a, mut score_b, mut games) = (0.0_f64, 0.0_f64, 0_u32);
    let mut offset = 0;
    loop {
        let rows = state.store.user_games(&ua.id, offset, 200).await?;
        if rows.is_empty() {
            break;
        }
        offset += rows.len() as i64;
        for r in rows.iter().filter(|r| r.status == "finished" && (r.white_id == ub.id || r.black_id == ub.id)) {
            games += 1;
            let a_white = r.white_id == ua.id;
            match r.winner.as_deref() {
                Some("white") if a_white => score_a += 1.0,
                Some("black") if !a_white => score_a += 1.0,
                Some(_) => score_b += 1.0,
                None => {
                    score_a += 0.5;
                    score_b += 0.5;
                }
            }
        }
    }
    let mut users = serde_json::Map::new();
    users.insert(ua.id.clone(), json!(score_a));
    users.insert(ub.id.clone(), json!(score_b));
    Ok(Json(json!({"users": users, "nbGames": games})))
}

/// At most this many ids per `POST /api/games/export/_ids` (as Lichess).
pub const MAX_EXPORT_IDS: usize = 300;

/// `POST /api/games/export/_ids`: the games whose ids the body lists (comma-separated, at most 300), newest first,
/// as PGN or NDJSON (`Accept: application/x-ndjson`) with the export options. Unknown ids, aborted games and games
/// in progress are left out (follow those with `/api/stream/game/{id}`).
pub async fn export_ids(
    State(state): State<AppState>,
    Query(q): Query<ExportOptionsQuery>,
    headers: HeaderMap,
    body: String,
) -> ApiResult<Response> {
    let opts = ExportOptions::of(&q)?;
    let ids = crate::params::comma_list(&body, MAX_EXPORT_IDS, "too_many_ids")?;
    let mut games: Vec<(GameRow, Vec<MoveRow>)> = Vec::new();
    for id in ids.iter().filter(|id| id.len() <= 32) {
        if let Some((row, moves)) = state.store.game(id).await?
            && row.status == "finished"
            && !games.iter().any(|(r, _)| r.id == row.id)
        {
            games.push((row, moves));
        }
    }
    games.sort_by_key(|(r, _)| std::cmp::Reverse(r.created_at_ms));
    let ndjson = wants(&headers, "application/x-ndjson");
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<String, std::io::Error>>(4);
    tokio::spawn(async move {
        for (r, moves) in games {
            let Some(chunk) = export_with_moves(&state, &r, &moves, ndjson, opts).await else { continue };
            if tx.send(Ok(chunk)).await.is_err() {
                return;
            }
        }
    });
    let ctype = if ndjson { "application/x-ndjson" } else { "application/x-chess-pgn; charset=utf-8" };
    Ok(([(header::CONTENT_TYPE, ctype)], Body::from_stream(tokio_stream_from(rx))).into_response())
}

fn tokio_stream_from<T: Send + 'static>(
    mut rx: tokio::sync::mpsc::Receiver<T>,
) -> impl futures_util::Stream<Item = T> + Send + 'static {
    futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx))
}

async fn stored_game(state: &AppState, id: &str) -> ApiResult<(GameRow, Vec<MoveRow>)> {
    if id.len() > 32 {
        return Err(ApiError::not_found("对局", "game"));
    }
    // A live game's latest state is in memory; the database has every committed move too.
    state.store.game(id).await?.ok_or_else(|| ApiError::not_found(&format!("对局 {id}"), &format!("game {id}")))
}

/// Options of the one-game export.
#[derive(Debug, serde::Deserialize)]
pub struct ExportQuery {
    /// `true`: the game as its review annotated it (`[%eval]`, NAGs, comments, better lines), when it has one.
    #[serde(default)]
    pub evals: Option<String>,
    /// The language of the review's comments: `zh` (default) or `en`.
    #[serde(default)]
    pub lang: Option<String>,
}

/// The reviewed game's annotated PGN in `lang`, if its review is done.
async fn reviewed_pgn(state: &AppState, id: &str, lang: &str) -> ApiResult<Option<String>> {
    let Some(r) = state.store.review(id).await? else { return Ok(None) };
    let Some(text) = r.review.filter(|_| r.status == guoxiang_store::ReviewStatus::Done) else { return Ok(None) };
    let v: Value = serde_json::from_str(&text).map_err(|e| ApiError::internal("stored review", e))?;
    Ok(v["pgn"][lang].as_str().map(str::to_owned))
}

/// One game as PGN (`Accept: application/json` for the Lichess JSON form; `?evals=true` with its review).
pub async fn export_game(
    State(state): State<AppState>,
    Path(id): Path<String>,
    axum::extract::Query(q): axum::extract::Query<ExportQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (row, moves) = stored_game(&state, &id).await?;
    let evals = flag("evals", &q.evals)?.unwrap_or(false);
    let lang = match q.lang.as_deref() {
        None | Some("zh") => "zh",
        Some("en") => "en",
        Some(other) => {
            return Err(ApiError::bad_request(
                "bad_request",
                format!("lang：应为 zh 或 en，而不是 {other:?}"),
                format!("lang: expected zh or en, not {other:?}"),
            ));
        }
    };
    let annotated = if evals { reviewed_pgn(&state, &id, lang).await? } else { None };
    let pgn = match annotated {
        Some(p) => p,
        None => game_pgn(&state, &row, &moves)?,
    };
    if wants(&headers, "application/json") {
        return Ok(Json(game_export_titled(&state, &row, &moves, Some(pgn)).await).into_response());
    }
    let filename = format!("attachment; filename=\"guoxiang_{id}.pgn\"");
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, filename),
        ],
        pgn,
    )
        .into_response())
}

/// `GET /api/user/{name}/current-game`: the user's game in progress, exported as `GET /game/export/{id}` exports
/// it (PGN, or JSON with `Accept: application/json`); a 404 when there is none. With several games in progress
/// (correspondence), one of them.
pub async fn current_game(
    State(state): State<AppState>,
    Path(name): Path<String>,
    q: axum::extract::Query<ExportQuery>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let u = user_by_name(&state, &name).await?;
    let Some(id) = state.live.playing(&u.id).await.into_iter().min() else {
        return Err(ApiError::not_found(
            &format!("{} 进行中的对局", u.name),
            &format!("a game in progress of {}", u.name),
        ));
    };
    export_game(State(state), Path(id), q, headers).await
}

/// `GET /api/game/{id}`: a game's state (a live game's from memory, else the stored one's).
pub async fn game_json(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<GameView>> {
    if let Some(h) = state.live.find(&id).await {
        return Ok(Json(GameView::clone(&*h.view().await?)));
    }
    let (row, moves) = stored_game(&state, &id).await?;
    Ok(Json(game_row_view(&row, &moves)))
}

/// `GET /api/live`: games being played, for spectators.
pub async fn live(State(state): State<AppState>) -> Json<Vec<guoxiang_protocol::LiveGame>> {
    Json(state.live.live_games(100).await)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pgn_without_tags_or_moves() {
        let pgn = "[Event \"x\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n\n";
        assert_eq!(pgn_parts(pgn, true, true), pgn);
        assert_eq!(pgn_parts(pgn, false, true), "1. f3 e5 2. g4 Qh4# 0-1\n\n");
        assert_eq!(pgn_parts(pgn, true, false), "[Event \"x\"]\n[Result \"0-1\"]\n\n");
    }

    #[test]
    fn export_options_have_lichess_defaults_and_name_a_bad_flag() {
        let o = ExportOptions::of(&ExportOptionsQuery::default()).unwrap();
        assert!(!o.pgn.clocks && !o.pgn.opening && !o.evals && !o.pgn_in_json && o.moves && o.tags);
        let q = ExportOptionsQuery { clocks: Some("maybe".into()), ..ExportOptionsQuery::default() };
        let e = ExportOptions::of(&q).unwrap_err();
        assert!(e.en.contains("clocks"), "{}", e.en);
    }
}
