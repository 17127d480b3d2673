//! The event stream (`GET /api/stream/event`) and board seeks (`POST /api/board/seek`).

use std::sync::atomic::AtomicU64;

use axum::Json;
use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guoxiang_game::{AbortReason, PlayerRef, Status};
use guoxiang_protocol::ColorChoice;
use serde_json::json;

use super::json::{self as lj, challenge_event_type, game_event_info, is_over};
use super::{KEEP_ALIVE, Params, player_of, rating, require_any, stream_response};
use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;
use guoxiang_domain::hub::UserEvent;
use guoxiang_domain::live::{GameHandle, GameView, game_row_view};
use guoxiang_domain::policy::Entrant;

/// Routes (Lichess API): the event stream and board seeks.
pub fn routes() -> Router<AppState> {
    Router::new().route("/api/stream/event", get(stream)).route("/api/board/seek", post(seek))
}

/// Whether an aborted game was aborted because a player did not make the first move in time (Lichess `noStart`).
pub async fn no_start(h: &GameHandle, v: &GameView) -> bool {
    v.status == "aborted"
        && h.snapshot()
            .await
            .is_ok_and(|s| matches!(s.status, Status::Aborted { reason: AbortReason::FirstMoveTimeout { .. } }))
}

/// The `gameStart` / `gameFinish` line of a game for `me`, if the game is known.
async fn game_line(state: &AppState, game_id: &str, me: &str, kind: &str) -> Option<String> {
    let (v, ns) = match state.live.find(game_id).await {
        Some(h) => {
            let v = h.view().await.ok()?;
            let ns = no_start(&h, &v).await;
            ((*v).clone(), ns)
        }
        None => {
            let (row, moves) = state.store.game(game_id).await.ok()??;
            let ns = lj::no_start_in_state(&row.state_json);
            (game_row_view(&row, &moves), ns)
        }
    };
    if kind == "gameStart" && is_over(&v) {
        return None;
    }
    let opp = if v.white.id == me { &v.black } else { &v.white };
    let r = if opp.is_engine { (0, false) } else { rating(state, &opp.id, &v.speed).await };
    Some(format!("{}\n", json!({"type": kind, "game": game_event_info(&v, me, r, ns)})))
}

async fn event_line(state: &AppState, me: &str, ev: UserEvent) -> Option<String> {
    match ev {
        UserEvent::GameStarted { game_id, .. } => game_line(state, &game_id, me, "gameStart").await,
        UserEvent::GameFinished { game_id } => game_line(state, &game_id, me, "gameFinish").await,
        UserEvent::Challenge(c) => {
            let kind = challenge_event_type(c.status)?;
            let c = super::challenge::challenge_value(state, &c, Some(me)).await;
            Some(format!("{}\n", json!({"type": kind, "challenge": c})))
        }
        UserEvent::RematchOffered { .. }
        | UserEvent::RematchDeclined { .. }
        | UserEvent::SessionEnded { .. }
        | UserEvent::Study(_) => None,
    }
}

fn keep_alive() -> tokio::time::Interval {
    tokio::time::interval_at(tokio::time::Instant::now() + KEEP_ALIVE, KEEP_ALIVE)
}

/// The user's events: first the games in progress (`gameStart`) and the pending incoming challenges, then
/// `gameStart`, `gameFinish`, `challenge`, `challengeCanceled`, `challengeDeclined` as they happen.
pub async fn stream(State(state): State<AppState>, auth: Auth) -> ApiResult<Response> {
    require_any(&auth, &["challenge:read", "bot:play", "board:play"])?;
    let (guard, mut rx) = state.hub.register(&auth.user.id);
    let (tx, resp) = stream_response("application/x-ndjson");
    tokio::spawn(async move {
        let _guard = guard;
        let me = auth.user.id.as_str();
        let mut first = Vec::new();
        for id in state.live.playing(me).await {
            first.extend(game_line(&state, &id, me, "gameStart").await);
        }
        for c in state.lobby.challenges_of(me).await.0 {
            first.extend(event_line(&state, me, UserEvent::Challenge(Box::new(c))).await);
        }
        for line in first {
            if tx.send(line).await.is_err() {
                return;
            }
        }
        let mut tick = keep_alive();
        let stop = super::stopping();
        tokio::pin!(stop);
        loop {
            let line = tokio::select! {
                ev = rx.recv() => match ev {
                    Some(UserEvent::SessionEnded { session }) if Some(&session) == auth.session.as_ref() => return,
                    Some(ev) => match event_line(&state, me, ev).await {
                        Some(line) => line,
                        None => continue,
                    },
                    None => return,
                },
                _ = tick.tick() => "\n".to_owned(),
                () = tx.closed() => return,
                () = &mut stop => return,
            };
            if tx.send(line).await.is_err() {
                return;
            }
        }
    });
    Ok(resp)
}

/// Seeks of this API count as lobby connections of their own (the lobby drops a connection's seeks when it closes).
static SEEK_CONNECTIONS: AtomicU64 = AtomicU64::new(1 << 39);

/// Drops the seeks of a connection when the seek's request goes away.
struct SeekGuard {
    state: AppState,
    conn: u64,
}

impl Drop for SeekGuard {
    fn drop(&mut self) {
        self.state.lobby.connection_closed(self.conn);
    }
}

/// Whether a waiting seek whose owner wants `theirs` can pair with one who wants `mine`.
pub fn colors_match(theirs: ColorChoice, mine: ColorChoice) -> bool {
    matches!(
        (theirs, mine),
        (_, ColorChoice::Random) | (ColorChoice::White, ColorChoice::Black) | (ColorChoice::Black, ColorChoice::White)
    )
}

/// What a seek asks for.
struct SeekRequest {
    /// The time control in PGN form.
    tc: String,
    /// A correspondence seek (`days`).
    correspondence: bool,
    rated: bool,
    color: ColorChoice,
}

/// The checked terms of a seek request: its scope, the lobby policy, the variant (standard only), the time control,
/// the rated flag (guests: casual only) and the colour.
fn seek_request(auth: &Auth, p: &Params) -> Result<SeekRequest, ApiError> {
    auth.require("board:play")?;
    guoxiang_domain::policy::check_lobby(auth.user.is_bot)?;
    if !matches!(p.get("variant"), None | Some("" | "standard")) {
        return Err(ApiError::bad_request(
            "bad_request",
            "约战只支持标准国际象棋",
            "seeks are for standard chess only",
        ));
    }
    let (tc, correspondence) = lj::seek_time_control(p)?;
    let rated = p.bool("rated")?.unwrap_or(false);
    if rated && auth.user.is_guest {
        return Err(ApiError::forbidden("login_required", "计分对局需要登录", "rated games need an account"));
    }
    let color = lj::color_choice(p)?;
    Ok(SeekRequest { tc, correspondence, rated, color })
}

/// Accepts the first waiting seek of someone else that matches (same time control and rated flag, compatible
/// colours); its id, or `None` when none could be taken.
async fn take_waiting_seek(
    state: &AppState,
    me: &PlayerRef,
    guest: bool,
    tc: &str,
    rated: bool,
    color: ColorChoice,
) -> Option<String> {
    for s in state.lobby.seeks().await {
        if s.player.id != me.id
            && s.time_control == tc
            && s.rated == rated
            && colors_match(s.color, color)
            && crate::http::class::check_pairing(state, &s.player.id, &me.id).await.is_ok()
        {
            // Someone else may take it first: then try the next.
            if state.lobby.accept_seek(&s.id, me.clone(), guest).await.is_ok() {
                return Some(s.id);
            }
        }
    }
    None
}

/// A public seek. If a waiting seek matches (same time control and rated flag, compatible colours), the game starts
/// at once; otherwise the seek waits while the request stays open (a newline every few seconds), and the answer
/// ends when the seek is paired — the game arrives on the event stream. Correspondence seeks (`days`) answer at
/// once with the seek's `id` and wait in the lobby.
pub async fn seek(State(state): State<AppState>, auth: Auth, p: Params) -> ApiResult<Response> {
    let SeekRequest { tc, correspondence, rated, color } = seek_request(&auth, &p)?;
    let me = player_of(&auth);
    if let Some(id) = take_waiting_seek(&state, &me, auth.user.is_guest, &tc, rated, color).await {
        return Ok(if correspondence {
            Json(json!({"id": id})).into_response()
        } else {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], "").into_response()
        });
    }
    let speed = guoxiang_clock::TimeControl::from_pgn(&tc).map(|t| t.speed().as_str()).unwrap_or("unlimited");
    let my_rating = u32::try_from(rating(&state, &me.id, speed).await.0).ok();
    let conn = crate::connection::connection_id(&SEEK_CONNECTIONS);
    // Listen before the seek is visible, so the game start cannot be missed.
    let (hub_guard, mut rx) = state.hub.register(&me.id);
    let seek = state
        .lobby
        .create_seek(
            Entrant { player: me, guest: auth.user.is_guest },
            conn,
            guoxiang_domain::lobby::SeekTerms {
                time_control: &tc,
                rated,
                color,
                variant: guoxiang_protocol::StartChoice::Standard,
            },
            my_rating,
        )
        .await?;
    if correspondence {
        return Ok(Json(json!({"id": seek.id})).into_response());
    }
    let (tx, resp) = stream_response("text/plain; charset=utf-8");
    let guard = SeekGuard { state: state.clone(), conn };
    tokio::spawn(async move {
        let _guards = (hub_guard, guard);
        let open = async || state.lobby.seeks().await.iter().any(|s| s.id == seek.id);
        let mut tick = keep_alive();
        let stop = super::stopping();
        tokio::pin!(stop);
        loop {
            tokio::select! {
                ev = rx.recv() => match ev {
                    Some(UserEvent::GameStarted { .. }) => {
                        if !open().await {
                            return;
                        }
                    }
                    Some(_) => {}
                    None => return,
                },
                _ = tick.tick() => {
                    if !open().await || tx.send("\n".to_owned()).await.is_err() {
                        return;
                    }
                }
                () = tx.closed() => return,
                () = &mut stop => return,
            }
        }
    });
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seek_colors() {
        use ColorChoice::{Black, Random, White};
        assert!(colors_match(Random, Random));
        assert!(colors_match(White, Random));
        assert!(colors_match(White, Black));
        assert!(!colors_match(White, White));
        assert!(!colors_match(Random, White));
    }
}
