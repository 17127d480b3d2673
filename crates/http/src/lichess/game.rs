//! The game endpoints of the board and bot APIs (`/api/board/game/…` with `board:play`, `/api/bot/game/…` with
//! `bot:play`): the game stream, moves, abort, resign, draw and takeback offers, victory and draw claims, chat.

use std::sync::Arc;
use std::time::Duration;

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guoxiang_core::Color;
use guoxiang_game::{Action, ClaimKind, Event, Game, MoveInput, Timestamp};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::mpsc;

use super::events::no_start;
use super::json::{self as lj, game_full_json, game_state_json, is_over};
use super::{Api, KEEP_ALIVE, Params, ok, ratings, stream_response, titles};
use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;
use guoxiang_domain::live::{GameHandle, GameView, Subscription, Update, game_row_view};

/// Routes (Lichess API): the board and bot game endpoints, the same under `/api/board/game/` and `/api/bot/game/`.
pub fn routes() -> Router<AppState> {
    let mut r = Router::new();
    for api in ["board", "bot"] {
        let p = |rest: &str| format!("/api/{api}/game/{rest}");
        r = r
            .route(&p("stream/{id}"), get(stream))
            .route(&p("{id}/move/{uci}"), post(make_move))
            .route(&p("{id}/abort"), post(abort))
            .route(&p("{id}/resign"), post(resign))
            .route(&p("{id}/draw/{answer}"), post(draw))
            .route(&p("{id}/takeback/{answer}"), post(takeback))
            .route(&p("{id}/claim-victory"), post(claim_victory))
            .route(&p("{id}/claim-victory/"), post(claim_victory))
            .route(&p("{id}/claim-draw"), post(claim_draw))
            .route(&p("{id}/chat"), get(chat_read).post(chat_write));
    }
    r
}

fn game_not_found(id: &str) -> ApiError {
    ApiError::not_found(&format!("对局 {id}"), &format!("game {id}"))
}

/// Reports a player's stream as a connection to the game while it lives.
struct Presence {
    handle: GameHandle,
    user_id: String,
}

impl Drop for Presence {
    fn drop(&mut self) {
        let (h, u) = (self.handle.clone(), std::mem::take(&mut self.user_id));
        if let Ok(rt) = tokio::runtime::Handle::try_current() {
            rt.spawn(async move { h.presence(&u, -1).await });
        }
    }
}

async fn sleep_until(deadline: Option<tokio::time::Instant>) {
    match deadline {
        Some(d) => tokio::time::sleep_until(d).await,
        None => std::future::pending().await,
    }
}

fn opponent_gone(gone: bool, claim_in_ms: Option<u64>) -> String {
    let mut v = json!({"type": "opponentGone", "gone": gone});
    if let Some(ms) = claim_in_ms {
        v["claimWinInSeconds"] = json!(ms.div_ceil(1000));
    }
    format!("{v}\n")
}

/// The game's stream: `gameFull`, then a `gameState` after every change and `opponentGone` when the opponent's
/// connections drop or come back; it ends with the game. A player's open stream counts as their connection.
pub async fn stream(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    auth.require(Api::of_path(uri.path()).scope())?;
    let id = lj::game_id(&id).to_owned();
    let Some(h) = state.live.find(&id).await else { return finished_game(&state, &id).await };
    let sub = h.subscribe(None, true).await?;
    let Some(view) = sub.view.clone() else { return Err(ApiError::internal("game stream", "no view")) };
    let snap = h.snapshot().await?;
    let me = auth.user.id.clone();
    let my_color = h.color_of(&me);
    let opponent = my_color.map(|c| if c == Color::White { &h.black } else { &h.white });
    // Whether to tell this watcher about the opponent's connection.
    let watch_opponent = opponent.is_some_and(|o| !o.is_engine);
    let timeout_ms = snap.config.disconnect_timeout_ms;
    let gone_since = my_color.and_then(|c| snap.disconnected[(!c).index()]).filter(|_| watch_opponent);
    let presence = match my_color {
        Some(_) => {
            h.presence(&me, 1).await;
            Some(Presence { handle: h.clone(), user_id: me.clone() })
        }
        None => None,
    };
    let r = ratings(&state, &h.white, &h.black, &view.speed).await;
    let t = titles(&state, &h.white, &h.black).await;
    let (tx, resp) = stream_response("application/x-ndjson");
    let follow = Follow {
        _presence: presence,
        h,
        sub,
        view,
        ns: false,
        claim_at: None,
        my_color,
        watch_opponent,
        timeout_ms,
        tx,
    };
    tokio::spawn(follow.run(gone_since, r, t));
    Ok(resp)
}

/// The stream of a game over and no longer in memory: its final state, and the end of the stream.
async fn finished_game(state: &AppState, id: &str) -> ApiResult<Response> {
    if id.len() > 32 {
        return Err(game_not_found(id));
    }
    let (row, moves) = state.store.game(id).await?.ok_or_else(|| game_not_found(id))?;
    let v = game_row_view(&row, &moves);
    let (white, black) = ((&v.white).into(), (&v.black).into());
    let r = ratings(state, &white, &black, &v.speed).await;
    let t = titles(state, &white, &black).await;
    let line = format!("{}\n", game_full_json(&v, lj::no_start_in_state(&row.state_json), r, t));
    Ok(([(header::CONTENT_TYPE, "application/x-ndjson")], line).into_response())
}

/// A live game's stream, written by its own task.
struct Follow {
    /// A player's stream counts as their connection while it lives (dropped first when the stream ends).
    _presence: Option<Presence>,
    h: GameHandle,
    sub: Subscription,
    /// The game as last seen.
    view: Arc<GameView>,
    /// Whether the game ended for want of a first move.
    ns: bool,
    /// When the opponent's absence can be claimed (an `opponentGone` with no time left is sent then).
    claim_at: Option<tokio::time::Instant>,
    /// The watcher's colour (`None`: a spectator).
    my_color: Option<Color>,
    /// Whether to tell this watcher about the opponent's connection.
    watch_opponent: bool,
    timeout_ms: u64,
    tx: mpsc::Sender<String>,
}

impl Follow {
    /// `gameFull` (the end, if the game is over), the opponent's absence so far, then a line per change until the
    /// game ends, the client goes or the server stops; a keep-alive line when nothing happened for a while.
    async fn run(mut self, gone_since: Option<Timestamp>, r: [lj::Rating; 2], t: [Option<&'static str>; 2]) {
        self.ns = no_start(&self.h, &self.view).await;
        if self.tx.send(format!("{}\n", game_full_json(&self.view, self.ns, r, t))).await.is_err()
            || is_over(&self.view)
        {
            return;
        }
        if let Some(since) = gone_since {
            let left = (since.0 + self.timeout_ms).saturating_sub(guoxiang_domain::time::now_ms());
            if self.tx.send(opponent_gone(true, Some(left))).await.is_err() {
                return;
            }
            if left > 0 {
                self.claim_at = Some(tokio::time::Instant::now() + Duration::from_millis(left));
            }
        }
        let mut tick = tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE);
        let stop = super::stopping();
        tokio::pin!(stop);
        loop {
            let mut lines = Vec::new();
            let mut over = false;
            tokio::select! {
                u = self.sub.rx.recv() => match u {
                    Ok(u) => over = self.update(&u, &mut lines),
                    Err(RecvError::Lagged(_)) => match self.h.subscribe(None, true).await {
                        Ok(s) => {
                            self.sub = s;
                            if let Some(v) = &self.sub.view {
                                self.view = v.clone();
                            }
                            lines.push(format!("{}\n", game_state_json(&self.view, self.ns)));
                            over = is_over(&self.view);
                        }
                        Err(_) => return,
                    },
                    Err(RecvError::Closed) => return,
                },
                () = sleep_until(self.claim_at) => {
                    self.claim_at = None;
                    lines.push(opponent_gone(true, Some(0)));
                }
                _ = tick.tick() => lines.push("\n".to_owned()),
                () = self.tx.closed() => return,
                () = &mut stop => return,
            }
            for line in lines {
                if self.tx.send(line).await.is_err() {
                    return;
                }
            }
            if over {
                return;
            }
        }
    }

    /// The lines of one update of the game (the opponent's connection, the new state); whether the game is over.
    fn update(&mut self, u: &Update, lines: &mut Vec<String>) -> bool {
        let mut changed = false;
        for e in &u.events {
            match &e.event {
                Event::PlayerDisconnected { who } | Event::PlayerReconnected { who } => {
                    if !self.watch_opponent || Some(*who) == self.my_color {
                        continue;
                    }
                    let gone = matches!(e.event, Event::PlayerDisconnected { .. });
                    lines.push(opponent_gone(gone, gone.then_some(self.timeout_ms)));
                    self.claim_at = gone.then(|| tokio::time::Instant::now() + Duration::from_millis(self.timeout_ms));
                }
                Event::Aborted { reason, .. } => {
                    self.ns = reason == "first_move_timeout";
                    changed = true;
                }
                _ => changed = true,
            }
        }
        if let Some(v) = &u.view {
            self.view = v.clone();
        }
        if changed {
            lines.push(format!("{}\n", game_state_json(&self.view, self.ns)));
        }
        is_over(&self.view)
    }
}

/// Runs a player's command on a live game.
async fn command(state: &AppState, auth: &Auth, uri: &Uri, id: &str, action: Action) -> ApiResult<Json<Value>> {
    auth.require(Api::of_path(uri.path()).scope())?;
    state.limiters.api_move(&auth.user.id).await?;
    let h = state.live.locate(lj::game_id(id)).await?;
    state.live.command(h, &auth.user.id, action, 0).await?;
    Ok(ok())
}

/// A move in UCI (`e2e4`, `e7e8q`, castling `e1g1`); `offeringDraw=true` offers a draw with it — or, as on Lichess
/// ("offer or agree to a draw"), when the opponent has offered one, agrees to it: the game is drawn and the move
/// is not played. lichess-bot accepts draws only this way.
pub async fn make_move(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path((id, uci)): Path<(String, String)>,
    p: Params,
) -> ApiResult<Json<Value>> {
    if uci.len() > 8 {
        return Err(ApiError::bad_request("illegal_move", "着法格式错误", format!("{uci:?} is not a UCI move")));
    }
    let offer_draw = p.bool("offeringDraw")?.unwrap_or(false);
    if offer_draw && let Some(h) = state.live.find(lj::game_id(&id)).await {
        let v = h.view().await?;
        let mine = h.color_of(&auth.user.id).map(guoxiang_protocol::Color::from);
        if v.draw_offer.is_some() && v.draw_offer != mine && !is_over(&v) {
            // Offering a draw while the opponent offers one agrees to it.
            return command(&state, &auth, &uri, &id, Action::OfferDraw).await;
        }
    }
    command(&state, &auth, &uri, &id, Action::Move { mv: MoveInput::Uci(uci), offer_draw }).await
}

pub async fn abort(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    command(&state, &auth, &uri, &id, Action::Abort).await
}

pub async fn resign(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    command(&state, &auth, &uri, &id, Action::Resign).await
}

fn yes_no(answer: &str) -> ApiResult<bool> {
    match answer {
        "yes" | "true" | "accept" => Ok(true),
        "no" | "false" | "decline" => Ok(false),
        a => Err(ApiError::bad_request("bad_request", "须为 yes 或 no", format!("expected yes or no, not {a:?}"))),
    }
}

/// `yes`: offer a draw, or accept the opponent's offer; `no`: decline the opponent's offer.
pub async fn draw(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let cmd = if yes_no(&answer)? { Action::OfferDraw } else { Action::DeclineDraw };
    command(&state, &auth, &uri, &id, cmd).await
}

/// `yes`: ask to take back, or accept the opponent's request; `no`: decline the opponent's request.
pub async fn takeback(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path((id, answer)): Path<(String, String)>,
) -> ApiResult<Json<Value>> {
    let cmd = if yes_no(&answer)? { Action::TakebackOffer } else { Action::TakebackDecline };
    command(&state, &auth, &uri, &id, cmd).await
}

pub async fn claim_victory(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path(id): Path<String>,
) -> ApiResult<Json<Value>> {
    command(&state, &auth, &uri, &id, Action::ClaimVictory).await
}

/// Reads the `kind` of a draw claim: `threefold` or `fifty` (also the long codes).
pub fn claim_kind(kind: Option<&str>) -> ApiResult<Option<ClaimKind>> {
    match kind {
        None | Some("") => Ok(None),
        Some("threefold" | "threefold_repetition" | "repetition") => Ok(Some(ClaimKind::ThreefoldRepetition)),
        Some("fifty" | "fifty_moves" | "50") => Ok(Some(ClaimKind::FiftyMoves)),
        Some(k) => Err(ApiError::bad_request(
            "bad_request",
            format!("未知的和棋要求 {k:?}"),
            format!("unknown claim kind {k:?}: threefold or fifty"),
        )),
    }
}

/// Our extension: claims a draw by threefold repetition or the fifty-move rule (FIDE Articles 9.2, 9.3), as the
/// player to move. `kind` = `threefold` | `fifty`; `move` = a UCI move to claim with (written, not yet played:
/// the claim is about the position after it). Without `kind`, claims what can be claimed now, or answers 400 if
/// nothing can (without the penalty that an incorrect claim of a `kind` costs: 2 minutes for the opponent).
pub async fn claim_draw(
    State(state): State<AppState>,
    auth: Auth,
    uri: Uri,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult<Json<Value>> {
    let intended = p.get("move").filter(|m| !m.is_empty()).map(str::to_owned);
    let kind = match claim_kind(p.get("kind"))? {
        Some(k) => k,
        None if intended.is_some() => {
            return Err(ApiError::bad_request(
                "bad_request",
                "带着法的和棋要求须指明 kind",
                "a claim with a move needs kind=threefold or kind=fifty",
            ));
        }
        None => {
            auth.require(Api::of_path(uri.path()).scope())?;
            let h = state.live.locate(lj::game_id(&id)).await?;
            let snap = h.snapshot().await?;
            let game = Game::restore(snap, guoxiang_domain::time::now()).map_err(|e| ApiError::internal("claim", e))?;
            *game.claimable_draws().first().ok_or_else(|| {
                ApiError::bad_request("no_claim", "现在不能要求和棋", "there is no draw to claim in this position")
            })?
        }
    };
    command(&state, &auth, &uri, &id, Action::ClaimDraw { kind, intended: intended.map(MoveInput::Uci) }).await
}

/// Game chat is not kept: messages are accepted and dropped.
pub async fn chat_write(auth: Auth, uri: Uri) -> ApiResult<Json<Value>> {
    auth.require(Api::of_path(uri.path()).scope())?;
    Ok(ok())
}

/// Game chat: always empty.
pub async fn chat_read(auth: Auth, uri: Uri) -> ApiResult<Json<Value>> {
    auth.require(Api::of_path(uri.path()).scope())?;
    Ok(Json(json!([])))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_claims() {
        assert!(yes_no("yes").unwrap());
        assert!(!yes_no("no").unwrap());
        assert!(yes_no("maybe").is_err());
        assert_eq!(claim_kind(None).unwrap(), None);
        assert_eq!(claim_kind(Some("threefold")).unwrap(), Some(ClaimKind::ThreefoldRepetition));
        assert_eq!(claim_kind(Some("fifty_moves")).unwrap(), Some(ClaimKind::FiftyMoves));
        assert!(claim_kind(Some("stalemate")).is_err());
        let gone: Value = serde_json::from_str(&opponent_gone(true, Some(59_001))).unwrap();
        assert_eq!(gone, json!({"type": "opponentGone", "gone": true, "claimWinInSeconds": 60}));
        let back: Value = serde_json::from_str(&opponent_gone(false, None)).unwrap();
        assert_eq!(back, json!({"type": "opponentGone", "gone": false}));
    }
}
