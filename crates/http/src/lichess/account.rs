//! `GET /api/account` (and the same shape for `GET /api/user/{name}`), `GET /api/account/playing`, `POST /api/bot/account/upgrade`, `POST /api/token/test`,
//! `GET /api/users/status`, `GET /api/bot/online`.

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};

use super::json::{game_event_info, is_over};
use super::{ok, rating, user_json};
use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;

/// Routes (Lichess API): the account, the bot upgrade, token test, users.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/account", get(account))
        .route("/api/account/playing", get(playing))
        .route("/api/bot/account/upgrade", post(upgrade))
        .route("/api/token/test", post(token_test))
        .route("/api/users/status", get(users_status))
        .route("/api/bot/online", get(bots_online))
        .route("/api/users", post(users_by_id))
}

/// At most this many tokens per `POST /api/token/test` (as Lichess).
const MAX_TOKENS_TESTED: usize = 1000;
/// At most this many users per `GET /api/users/status` (as Lichess).
const MAX_STATUS_IDS: usize = 100;

/// The user's profile, as Lichess's `/api/account`.
pub async fn account(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Value>> {
    Ok(Json(user_json(&state, &auth.user).await?))
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
    for id in state.live.playing(me).await {
        let Some(h) = state.live.find(&id).await else { continue };
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

/// `POST /api/bot/account/upgrade`: the account becomes a bot account for good (title BOT), as on Lichess only
/// while it has played no game; again on a bot account it is simply ok. Guests cannot be bots.
pub async fn upgrade(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Value>> {
    auth.require("bot:play")?;
    let u = &auth.user;
    if u.is_bot {
        return Ok(ok());
    }
    if u.is_guest {
        return Err(ApiError::bad_request(
            "guest_bot",
            "游客账户不能成为机器人账户",
            "a guest account cannot become a bot",
        ));
    }
    let games = state.store.count_user_games(&u.id).await?;
    if games > 0 {
        return Err(ApiError::bad_request(
            "bot_has_games",
            format!("{} 已经下过 {games} 局棋：只有没下过棋的账户能成为机器人账户", u.name),
            format!(
                "{} has played {games} {}: only an account that has played none can become a bot",
                u.name,
                if games == 1 { "game" } else { "games" }
            ),
        ));
    }
    state.store.set_bot(&u.id).await?;
    Ok(ok())
}

/// `POST /api/token/test`: the body is up to 1,000 tokens separated by commas; the answer maps each to its user and
/// scopes (`{"userId", "scopes": "a,b", "expires": null}`, personal tokens here never expire) or to `null` when it
/// is not a personal token of this server. No authentication, as on Lichess. lichess-bot asks this at start-up.
pub async fn token_test(State(state): State<AppState>, body: String) -> ApiResult<Json<Value>> {
    let tokens = super::comma_list(&body, MAX_TOKENS_TESTED, "too_many_tokens")?;
    let mut out = serde_json::Map::new();
    for t in tokens {
        let found = if t.len() <= 128 { state.store.token_user(&crate::auth::hash_secret(t)).await? } else { None };
        let v = match found {
            Some((user, scopes)) => json!({"userId": user.id, "scopes": scopes.join(","), "expires": null}),
            None => Value::Null,
        };
        out.insert(t.to_owned(), v);
    }
    Ok(Json(Value::Object(out)))
}

#[derive(Debug, Deserialize)]
pub struct StatusQuery {
    #[serde(default)]
    ids: String,
    #[serde(default, rename = "withGameIds")]
    with_game_ids: Option<String>,
}

/// `GET /api/users/status?ids=a,b[&withGameIds=true]`: for each known user, `id` and `name`, with `online: true`
/// while they have a connection open (a page, an event stream) and `playing: true` while they have a game in
/// progress (its id as `playingId` when asked) — Lichess leaves out what is false. Unknown names are left out.
pub async fn users_status(State(state): State<AppState>, Query(q): Query<StatusQuery>) -> ApiResult<Json<Value>> {
    let ids = super::comma_list(&q.ids, MAX_STATUS_IDS, "too_many_ids")?;
    let with_games = super::parse_bool("withGameIds", q.with_game_ids.as_deref())?.unwrap_or(false);
    let mut out = Vec::new();
    for name in ids {
        let Some(user) = state.store.user(&guoxiang_store::user_id_of(name)).await? else { continue };
        let mut v = json!({"id": user.id, "name": user.name});
        if state.hub.is_online(&user.id) {
            v["online"] = json!(true);
        }
        if let Some(g) = state.live.playing(&user.id).await.first() {
            v["playing"] = json!(true);
            if with_games {
                v["playingId"] = json!(g);
            }
        }
        out.push(v);
    }
    Ok(Json(Value::Array(out)))
}

/// `GET /api/bot/online?nb=50`: the bot accounts online now (an event stream or a page open), as NDJSON of users
/// (`id`, `username`, `title`, `perfs`, `createdAt`, `url`), at most `nb` (default 50, at most 300).
pub async fn bots_online(State(state): State<AppState>, Query(q): Query<Nb>) -> ApiResult<axum::response::Response> {
    use axum::response::IntoResponse;
    let nb = q.nb.unwrap_or(50).clamp(1, 300);
    let mut body = String::new();
    for b in state.store.bots().await?.into_iter().filter(|b| state.hub.is_online(&b.id)).take(nb) {
        body.push_str(&lichess_user(&state, &b).await?.to_string());
        body.push('\n');
    }
    Ok(([(axum::http::header::CONTENT_TYPE, "application/x-ndjson")], body).into_response())
}

/// A user as Lichess's user lists give one: `id`, `username`, `title` (bots), `perfs`, `createdAt`, `url`.
async fn lichess_user(state: &AppState, u: &guoxiang_store::User) -> ApiResult<Value> {
    let ratings = state.store.ratings(&u.id).await?;
    let history = state.store.rating_history(&u.id).await?;
    let mut v = json!({
        "id": u.id,
        "username": u.name,
        "perfs": crate::users::lichess_perfs(&ratings, &history),
        "createdAt": u.created_at_ms,
        "url": format!("{}/@/{}", state.config.public_url, u.name),
    });
    if u.is_bot {
        v["title"] = json!("BOT");
    }
    Ok(v)
}

/// At most this many users per `POST /api/users` (as Lichess).
const MAX_USERS_BY_ID: usize = 300;

/// `POST /api/users`: the body is up to 300 user names or ids, comma-separated; the answer lists those that exist,
/// in Lichess's user shape. No authentication.
pub async fn users_by_id(State(state): State<AppState>, body: String) -> ApiResult<Json<Value>> {
    let ids = super::comma_list(&body, MAX_USERS_BY_ID, "too_many_ids")?;
    let mut out = Vec::new();
    for name in ids {
        if name.len() > 64 {
            continue;
        }
        if let Some(u) = state.store.user(&guoxiang_store::user_id_of(name)).await? {
            out.push(lichess_user(&state, &u).await?);
        }
    }
    Ok(Json(Value::Array(out)))
}
