// SPDX-License-Identifier: GPL-3.0-or-later
//! Game reviews (复盘) over HTTP (docs/review.md "On the server"):
//!
//! - `GET /api/game/{id}/review`: where the game's review is (`none`, `queued` with its place in the queue,
//!   `running` with its progress, `done` with the review, `failed` with the reason).
//! - `POST /api/game/{id}/review`: asks for it (any signed-in player or guest; at most a few waiting per person).
//! - `POST /api/game/{id}/review/browser`: a player's browser sends the review's searches, made with the engine in
//!   WebAssembly while the server was busy (the state's `browser` says when); the server makes the review of them and
//!   keeps it if its marks stand when searched again (guoxiang_domain::review::Reviewer::keep_browser_review): 200
//!   with the review, 400 judgements that do not read, 403 not a player, 409 nothing waiting or already done, 422
//!   a mark that does not stand.
//! - `POST /api/game/{id}/review/try` `{"ply": N, "uci": "…"}`: "learn from your mistakes" — is this move, in the
//!   position before ply N, right: does it keep what the engine's move keeps (its result class and its material,
//!   guoxiang-review's `exercise::judge_try`)? The answer says why in words.
//!
//! A done review's moves carry `exercise`: whether "learn from your mistakes" makes an exercise of the move
//! (`exercise::exercise`: a mate, material or a result class lost), decided from the stored review and the game.
//! - `GET`/`PUT /api/review/settings` `{"auto_review": bool}`: review every finished game of this account.
//!
//! The PGN with evaluations is `GET /game/export/{id}?evals=true&lang=zh|en` (archive).

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::{get, post};
use guoxiang_pgn::ReplayedGame;
use guoxiang_protocol::review::{
    GameReviewView, ReviewClass, ReviewComment, ReviewEval, ReviewProgress, ReviewSettings, ReviewState,
    ReviewStatusCode, ReviewText, ReviewTryAnswer, ReviewTryRequest, ReviewedMove,
};
use guoxiang_review::chances::{Class, Eval};
use guoxiang_store::{ReviewRow, ReviewStatus};

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;
use guoxiang_domain::live::engine::Busy;
use guoxiang_domain::review::reviewable;

/// Routes: a finished game's review and the review settings.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/game/{id}/review", get(get_review).post(request_review))
        .route("/api/game/{id}/review/try", post(try_move))
        .route("/api/game/{id}/review/browser", post(browser_review))
        .route("/api/review/settings", get(get_settings).put(put_settings))
}

/// Reviews one person may have waiting or running at once.
const PENDING_PER_USER: i64 = 3;

/// The engine's table for a "learn from your mistakes" try, MiB.
const TRY_HASH_MB: usize = 16;

fn view_of(row: Option<&ReviewRow>, queue_place: Option<i64>) -> Result<ReviewState, ApiError> {
    let Some(r) = row else {
        return Ok(ReviewState {
            status: ReviewStatusCode::None,
            nodes: None,
            progress: None,
            queue_place: None,
            review: None,
            error: None,
            browser: false,
        });
    };
    let status = match r.status {
        ReviewStatus::Queued => ReviewStatusCode::Queued,
        ReviewStatus::Running => ReviewStatusCode::Running,
        ReviewStatus::Done => ReviewStatusCode::Done,
        ReviewStatus::Failed => ReviewStatusCode::Failed,
    };
    // The stored review (with its annotated PGN, which the export serves) read into the answer's type.
    let review = match (r.status, r.review.as_deref()) {
        (ReviewStatus::Done, Some(text)) => Some(
            serde_json::from_str::<GameReviewView>(text)
                .map_err(|e| ApiError::internal(&format!("stored review of game {}", r.game_id), e))?,
        ),
        _ => None,
    };
    let count = |n: i64| u32::try_from(n.max(0)).unwrap_or(u32::MAX);
    Ok(ReviewState {
        status,
        nodes: Some(r.nodes.max(0) as u64),
        progress: Some(ReviewProgress { done: count(r.done_positions), total: count(r.total_positions) }),
        queue_place: queue_place.map(count),
        review,
        error: (r.status == ReviewStatus::Failed).then(|| ReviewText {
            zh: format!("复盘失败：{}", r.error.clone().unwrap_or_default()),
            en: r.error.clone().unwrap_or_default(),
        }),
        browser: false,
    })
}

async fn game_row(state: &AppState, id: &str) -> ApiResult<(guoxiang_store::GameRow, Vec<guoxiang_store::MoveRow>)> {
    if id.len() > 32 {
        return Err(ApiError::not_found("对局", "game"));
    }
    state.store.game(id).await?.ok_or_else(|| ApiError::not_found(&format!("对局 {id}"), &format!("game {id}")))
}

async fn current(state: &AppState, id: &str) -> ApiResult<ReviewState> {
    let row = state.store.review(id).await?;
    let place = match &row {
        Some(r) if r.status == ReviewStatus::Queued => Some(state.store.review_queue_place(id).await?.max(1)),
        _ => None,
    };
    let mut view = view_of(row.as_ref(), place)?;
    // Busy: another review is ahead of this one, or the server leaves reviews to browsers.
    view.browser = place.is_some_and(|p| p >= 2 || state.reviewer.browser_first());
    if let Some(review) = view.review.as_mut() {
        let (game_row, moves) = game_row(state, id).await?;
        let game = replayed(&state.config.public_url, &game_row, &moves)?;
        mark_exercises(review, &game);
    }
    Ok(view)
}

fn class_of(c: ReviewClass) -> Class {
    match c {
        ReviewClass::OnlyMove => Class::OnlyMove,
        ReviewClass::Best => Class::Best,
        ReviewClass::Excellent => Class::Excellent,
        ReviewClass::Good => Class::Good,
        ReviewClass::Inaccuracy => Class::Inaccuracy,
        ReviewClass::Mistake => Class::Mistake,
        ReviewClass::Blunder => Class::Blunder,
        ReviewClass::MissedWin => Class::MissedWin,
    }
}

/// White's evaluation after ply `ply` (0: the start, taken as even) from the side of `mover`; `None` after a mating
/// move (`{"mate": 0}`), which is no error.
fn eval_for(review: &GameReviewView, ply: usize, mover: guoxiang_core::Color) -> Option<Eval> {
    let white = match ply.checked_sub(1).and_then(|i| review.moves.get(i)).map(|m| m.eval) {
        None => Eval::Cp(0),
        Some(ReviewEval::Cp { cp }) => Eval::Cp(cp),
        Some(ReviewEval::Mate { mate: 0 }) => return None,
        Some(ReviewEval::Mate { mate }) => Eval::Mate(mate),
    };
    Some(if mover == guoxiang_core::Color::White { white } else { white.flip() })
}

/// A line of SAN moves from `pos` (stops at the first that does not read).
fn line_of(pos: &guoxiang_core::Position, sans: &[String]) -> Vec<guoxiang_core::Move> {
    let mut p = pos.clone();
    let mut out = Vec::new();
    for s in sans {
        let Ok(m) = p.parse_san(s) else { break };
        out.push(m);
        p.play_unchecked(m);
    }
    out
}

/// Sets each move's `exercise` ("learn from your mistakes" asks it): from the stored review (class, evaluations,
/// the engine's lines before and after the move) and the game's positions.
fn mark_exercises(review: &mut GameReviewView, game: &ReplayedGame) {
    let mut pos = game.start.clone();
    let mut verdicts = Vec::with_capacity(review.moves.len());
    for (i, &m) in game.moves.iter().enumerate() {
        let verdict = review.moves.get(i).and_then(|rm| {
            let mover = pos.turn();
            let before = eval_for(review, i, mover)?;
            let after = eval_for(review, i + 1, mover)?;
            let best = line_of(&pos, &rm.best_line);
            let next = pos.after(m);
            let reply = review.moves.get(i + 1).map(|r| line_of(&next, &r.best_line)).unwrap_or_default();
            guoxiang_review::exercise::exercise(&pos, m, class_of(rm.class), before, after, &best, &reply)
        });
        verdicts.push(verdict.is_some());
        pos.play_unchecked(m);
    }
    for (rm, v) in review.moves.iter_mut().zip(verdicts) {
        rm.exercise = v;
    }
}

fn comment_of(w: guoxiang_review::exercise::Words) -> ReviewComment {
    ReviewComment { zh: w.zh, en: w.en, zh_latin: Some(w.zh_latin), en_chinese: Some(w.en_chinese) }
}

/// `GET /api/game/{id}/review`.
pub async fn get_review(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<ReviewState>> {
    game_row(&state, &id).await?;
    Ok(Json(current(&state, &id).await?))
}

/// `POST /api/game/{id}/review`.
pub async fn request_review(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<ReviewState>)> {
    let (row, moves) = game_row(&state, &id).await?;
    if !reviewable(&row.status, moves.len()) {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "not_reviewable",
            "对局尚未结束、已被取消或没有着法，不能复盘",
            format!("game {id} cannot be reviewed: it is not over, was aborted or has no moves"),
        ));
    }
    if let Some(r) = state.store.review(&id).await?
        && r.status != ReviewStatus::Failed
    {
        return Ok((StatusCode::OK, Json(current(&state, &id).await?)));
    }
    if state.store.pending_reviews_of(&auth.user.id).await? >= PENDING_PER_USER {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_reviews",
            format!("你已有 {PENDING_PER_USER} 盘对局在等待复盘，请等它们完成"),
            format!("you already have {PENDING_PER_USER} reviews waiting; wait for them to finish"),
        ));
    }
    state.reviewer.request(&id, Some(&auth.user.id)).await?;
    Ok((StatusCode::ACCEPTED, Json(current(&state, &id).await?)))
}

/// `POST /api/game/{id}/review/browser`.
pub async fn browser_review(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<ReviewState>> {
    use guoxiang_domain::review::BrowserReview as B;
    game_row(&state, &id).await?;
    let text = std::str::from_utf8(&body)
        .map_err(|_| ApiError::bad_request("bad_request", "复盘数据不是 UTF-8 文本", "the body is not UTF-8"))?;
    match state.reviewer.keep_browser_review(&id, &auth.user.id, text).await {
        Ok(()) => Ok(Json(current(&state, &id).await?)),
        Err(B::NotPending) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "review_not_pending",
            "这盘棋没有在等待复盘，请先请求复盘",
            format!("no review of game {id} is waiting: ask for it first"),
        )),
        Err(B::Done) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "review_done",
            "这盘棋已经复盘完了",
            format!("game {id} is already reviewed"),
        )),
        Err(B::Checking) => Err(ApiError::new(
            StatusCode::CONFLICT,
            "review_checking",
            "这盘棋的另一份复盘正在核对",
            format!("another browser's review of game {id} is being checked"),
        )),
        Err(B::NotAPlayer) => Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "not_a_player",
            "只有下这盘棋的人可以送来它的复盘",
            "only the game's players may send its review",
        )),
        Err(B::Bad(e)) => Err(ApiError::bad_request("bad_review", format!("复盘数据有误：{e}"), e)),
        Err(B::Refused(e)) => Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "review_refused",
            format!("服务器复查后不能采用这份复盘：{}", e.zh()),
            format!("the review was not kept: {e}"),
        )),
        Err(B::Store(e)) => Err(e.into()),
        Err(B::Internal(e)) => Err(ApiError::internal(&format!("browser review of game {id}"), e)),
    }
}

fn bad(field: &str, zh: String, en: String) -> ApiError {
    let mut e = ApiError::bad_request("bad_request", zh, en);
    e.en = format!("{field}: {}", e.en);
    e.zh = format!("{field}：{}", e.zh);
    e
}

/// The stored game as our PGN reader replays it.
fn replayed(
    public_url: &str,
    row: &guoxiang_store::GameRow,
    moves: &[guoxiang_store::MoveRow],
) -> ApiResult<ReplayedGame> {
    guoxiang_domain::archive::replayed(public_url, row, moves).map_err(|e| ApiError::internal("review try pgn", e))
}

/// The position before the move at `ply` (from 1) of `game`, and the hashes of the positions before it since the
/// last capture or pawn move (for repetitions).
fn position_before(game: &ReplayedGame, ply: usize) -> (guoxiang_core::Position, Vec<u64>) {
    let mut pos = game.start.clone();
    let mut history = vec![pos.hash()];
    for &m in &game.moves[..ply - 1] {
        pos = pos.after(m);
        if pos.halfmoves() == 0 {
            history.clear();
        }
        history.push(pos.hash());
    }
    history.pop();
    (pos, history)
}

/// The answer to a try known from the review alone: the best move is right; the game's own move, when the review
/// marked it, is not.
fn answer_without_search(played: Option<&ReviewedMove>, best: &Option<String>, uci: &str) -> Option<ReviewTryAnswer> {
    if best.as_deref() == Some(uci) {
        let reason = ReviewComment {
            zh: "对了，这正是最佳着法。".into(),
            en: "Right: that is the best move.".into(),
            zh_latin: None,
            en_chinese: None,
        };
        return Some(ReviewTryAnswer { correct: true, best: best.clone(), loss: 0.0, reason: Some(reason) });
    }
    // The game's own move, when the review marked it, is not the answer — whatever a fresh search of it says.
    if let Some(p) = played
        && p.uci == uci
        && matches!(p.class, ReviewClass::Mistake | ReviewClass::Blunder | ReviewClass::MissedWin)
    {
        let reason = ReviewComment {
            zh: "这正是对局中走的那步，再想想。".into(),
            en: "That is the move played in the game: think again.".into(),
            zh_latin: None,
            en_chinese: None,
        };
        return Some(ReviewTryAnswer { correct: false, best: best.clone(), loss: p.loss, reason: Some(reason) });
    }
    None
}

/// `POST /api/game/{id}/review/try`: `{"correct", "best", "loss", "reason": {zh, en}}`.
pub async fn try_move(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    body: Bytes,
) -> ApiResult<Json<ReviewTryAnswer>> {
    let req: ReviewTryRequest = serde_json::from_slice(&body).map_err(|e| {
        bad(
            "body",
            format!("应为 {{\"ply\": 数字, \"uci\": \"着法\"}}（{e}）"),
            format!("expected {{\"ply\": N, \"uci\": \"…\"}} ({e})"),
        )
    })?;
    let ply = req.ply as usize;
    let (row, moves) = game_row(&state, &id).await?;
    let review = state.store.review(&id).await?.filter(|r| r.status == ReviewStatus::Done);
    let Some(review) = review else {
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            "no_review",
            format!("对局 {id} 还没有复盘"),
            format!("game {id} has no review yet"),
        ));
    };
    let stored: GameReviewView = serde_json::from_str(review.review.as_deref().unwrap_or("{}"))
        .map_err(|e| ApiError::internal("stored review", e))?;
    let game = replayed(&state.config.public_url, &row, &moves)?;
    if ply == 0 || ply > game.moves.len() {
        return Err(bad(
            "ply",
            format!("应在 1 到 {} 之间", game.moves.len()),
            format!("must be from 1 to {}", game.moves.len()),
        ));
    }
    let (pos, history) = position_before(&game, ply);
    let candidate = pos.parse_uci(&req.uci).ok().filter(|&m| pos.is_legal(m)).ok_or_else(|| {
        bad(
            "uci",
            format!("{} 在这个局面中不是合法着法", req.uci),
            format!("{} is not a legal move in this position", req.uci),
        )
    })?;
    let played = stored.moves.get(ply - 1);
    let best = played.and_then(|m| m.best.clone());
    if let Some(answer) = answer_without_search(played, &best, &pos.uci(candidate)) {
        return Ok(Json(answer));
    }
    let ticket = state.analysis.admit(&auth.user.id).await.map_err(|b| match b {
        Busy::User | Busy::Queue => ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "engine_busy",
            "引擎正忙，请稍后再试",
            "the engine is busy; try again in a moment",
        ),
    })?;
    let nodes = review.nodes.max(1) as u64;
    // Right when it keeps what the best move keeps (result class and material) by both judges.
    let verdict = tokio::task::spawn_blocking(move || {
        let _ticket = ticket;
        guoxiang_review::exercise::judge_try(&pos, &history, candidate, nodes, TRY_HASH_MB)
    })
    .await
    .map_err(|e| ApiError::internal("review try", e))?;
    Ok(Json(ReviewTryAnswer {
        correct: verdict.correct,
        best,
        loss: (verdict.loss * 10.0).round() / 10.0,
        reason: Some(comment_of(verdict.words)),
    }))
}

/// `GET /api/review/settings`.
pub async fn get_settings(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<ReviewSettings>> {
    Ok(Json(ReviewSettings { auto_review: state.store.auto_review(&auth.user.id).await? }))
}

/// `PUT /api/review/settings` `{"auto_review": bool}` (registered accounts).
pub async fn put_settings(State(state): State<AppState>, auth: Auth, body: Bytes) -> ApiResult<Json<ReviewSettings>> {
    if auth.user.is_guest {
        return Err(ApiError::forbidden(
            "guest_settings",
            "游客不能保存设置，请先注册",
            "guests cannot keep settings; register first",
        ));
    }
    let s: ReviewSettings = serde_json::from_slice(&body).map_err(|e| {
        bad(
            "body",
            format!("应为 {{\"auto_review\": true 或 false}}（{e}）"),
            format!("expected {{\"auto_review\": true|false}} ({e})"),
        )
    })?;
    state.store.set_auto_review(&auth.user.id, s.auto_review).await?;
    Ok(Json(s))
}
