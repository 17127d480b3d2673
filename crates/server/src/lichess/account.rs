//! `GET /api/account`, `GET /api/account/playing`, `POST /api/bot/account/upgrade`.

use axum::Json;
use axum::extract::{Query, State};
use serde::Deserialize;
use serde_json::{Value, json};

use super::json::{game_event_info, is_over};
use super::{ok, rating};
use crate::AppState;
use crate::auth::Auth;
use crate::error::ApiResult;

/// The user's profile, as Lichess's `/api/account`.
pub async fn account(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Value>> {
    let u = &auth.user;
    let ratings = state.store.ratings(&u.id).await?;
    let games = state.store.count_user_games(&u.id).await?;
    let playing = state.live.games_of(&u.id).len();
    Ok(Json(json!({
        "id": u.id,
        "username": u.name,
        "perfs": crate::http::archive::perfs_json(&ratings),
        "createdAt": u.created_at_ms,
        "seenAt": crate::time::now_ms(),
        "playTime": {"total": 0, "tv": 0},
        "url": format!("{}/@/{}", state.config.public_url, u.name),
        "count": {"all": games, "playing": playing},
        "followable": false,
        "following": false,
        "blocking": false,
    })))
}

#[derive(Debug, Deserialize)]
pub struct Nb {
    #[serde(default)]
    nb: Option<usize>,
}

/// The user's games in progress (`{"nowPlaying": […]}`), at most `nb` (default 9, at most 50).
pub async fn playing(State(state): State<AppState>, auth: Auth, Query(q): Query<Nb>) -> ApiResult<Json<Value>> {
    let me = &auth.user.id;
    let mut games = Vec::new();
    for h in state.live.games_of(me) {
        let Ok(v) = h.view().await else { continue };
        if is_over(&v) {
            continue;
        }
        let opp = if v.white.id == *me { &v.black } else { &v.white };
        let r = if opp.is_engine { (0, false) } else { rating(&state, &opp.id, &v.speed).await };
        games.push((v.created_at_ms, game_event_info(&v, me, r, false)));
    }
    // Lichess lists the games where it is the user's turn first, then the newest.
    games.sort_by_key(|(t, g)| (!g["isMyTurn"].as_bool().unwrap_or(false), std::cmp::Reverse(*t)));
    games.truncate(q.nb.unwrap_or(9).clamp(1, 50));
    Ok(Json(json!({"nowPlaying": games.into_iter().map(|(_, g)| g).collect::<Vec<_>>()})))
}

/// Upgrading to a bot account: accepted (with `bot:play`) and nothing else — accounts here have no bot flag, and
/// the bot endpoints work for every account whose token has `bot:play`.
pub async fn upgrade(auth: Auth) -> ApiResult<Json<Value>> {
    auth.require("bot:play")?;
    Ok(ok())
}
