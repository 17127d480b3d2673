//! Challenges: to a user (`POST /api/challenge/{username}`), open to anyone (`/api/challenge/open`), to the computer
//! (`/api/challenge/ai`); accept, decline, cancel, show, and the lists of one's challenges.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use guoxiang_game::{Action, PlayerRef};
use serde_json::{Value, json};

use super::json::{self as lj, challenge_json, challenge_user_json};
use super::{Params, ok, player_of, rating, require_any, title};
use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::Auth;
use guoxiang_domain::lobby::ChallengeInfo;
use guoxiang_domain::policy::Entrant;

/// Routes (Lichess API): challenges.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/challenge", get(list))
        .route("/api/challenge/open", post(open))
        .route("/api/challenge/ai", post(ai))
        .route("/api/challenge/{name}", post(create))
        .route("/api/challenge/{id}/show", get(show))
        .route("/api/challenge/{id}/accept", post(accept))
        .route("/api/challenge/{id}/decline", post(decline))
        .route("/api/challenge/{id}/cancel", post(cancel))
}

const WRITE: &[&str] = &["challenge:write", "bot:play", "board:play"];

/// A challenge as Lichess shows it to `viewer`, with the players' ratings in its speed.
pub async fn challenge_value(state: &AppState, c: &ChallengeInfo, viewer: Option<&str>) -> Value {
    let speed =
        guoxiang_clock::TimeControl::from_pgn(&c.time_control).map(|t| t.speed().as_str()).unwrap_or("unlimited");
    let ch = &c.challenger;
    let challenger = challenge_user_json(
        &ch.id,
        &ch.name,
        rating(state, &ch.id, speed).await,
        state.hub.is_online(&ch.id),
        title(state, &ch.id).await,
    );
    let dest = match &c.dest {
        Some(d) => {
            let name = match &c.opponent {
                Some(o) if o.id == *d => o.name.clone(),
                _ => state.store.user(d).await.ok().flatten().map_or_else(|| d.clone(), |u| u.name),
            };
            challenge_user_json(d, &name, rating(state, d, speed).await, state.hub.is_online(d), title(state, d).await)
        }
        None => Value::Null,
    };
    challenge_json(c, state.lobby.base_url(), challenger, dest, viewer)
}

/// `{"in": […], "out": […]}`: the pending challenges to and from the user.
pub async fn list(State(state): State<AppState>, auth: Auth) -> ApiResult<Json<Value>> {
    auth.require("challenge:read")?;
    let me = auth.user.id.as_str();
    let (incoming, outgoing) = state.lobby.challenges_of(me).await;
    let mut lists = [Vec::new(), Vec::new()];
    for (i, cs) in [incoming, outgoing].into_iter().enumerate() {
        for c in &cs {
            lists[i].push(challenge_value(&state, c, Some(me)).await);
        }
    }
    let [incoming, outgoing] = lists;
    Ok(Json(json!({"in": incoming, "out": outgoing})))
}

/// One challenge.
pub async fn show(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    auth.require("challenge:read")?;
    let c = state.lobby.challenge(&id).await.ok_or_else(|| not_found(&id))?;
    Ok(Json(challenge_value(&state, &c, Some(&auth.user.id)).await))
}

fn not_found(id: &str) -> ApiError {
    ApiError::not_found(&format!("挑战 {id}"), &format!("challenge {id}"))
}

fn rated_param(p: &Params) -> ApiResult<bool> {
    let rated = p.bool("rated")?.unwrap_or(false);
    if rated && p.get("fen").is_some_and(|f| !f.trim().is_empty()) {
        return Err(ApiError::bad_request(
            "not_ratable",
            "自定局面的对局不能计算等级分",
            "games from a position cannot be rated",
        ));
    }
    Ok(rated)
}

/// Challenges a user.
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    Path(name): Path<String>,
    p: Params,
) -> ApiResult<Json<Value>> {
    require_any(&auth, WRITE)?;
    let no_user = || ApiError::not_found(&format!("用户 {name}"), &format!("user {name}"));
    if name.is_empty() || name.len() > 64 {
        return Err(no_user());
    }
    let dest = state.store.user(&name.to_lowercase()).await?.ok_or_else(no_user)?;
    crate::http::class::check_pairing(&state, &auth.user.id, &dest.id).await?;
    let rated = rated_param(&p)?;
    if rated && (auth.user.is_guest || dest.is_guest) {
        return Err(ApiError::bad_request("not_ratable", "游客不能下计分对局", "guests cannot play rated games"));
    }
    guoxiang_domain::policy::check_bots(rated, auth.user.is_bot, dest.is_bot, state.config.rated_bot_games)?;
    let tc = lj::challenge_time_control(&p)?;
    // `acceptByToken`: the destination's own token (with `challenge:write`) accepts at once, and the game starts.
    let accept_by = match p.get("acceptByToken").filter(|t| !t.is_empty()) {
        None => None,
        Some(t) => {
            let found = if t.len() <= 128 { state.store.token_user(&crate::auth::hash_secret(t)).await? } else { None };
            match found {
                Some((u, scopes)) if u.id == dest.id && scopes.iter().any(|s| s == "challenge:write") => Some(u),
                Some((u, _)) if u.id == dest.id => {
                    return Err(ApiError::forbidden(
                        "missing_scope",
                        "acceptByToken 的令牌没有 challenge:write 权限",
                        "acceptByToken: that token lacks challenge:write",
                    ));
                }
                _ => {
                    return Err(ApiError::bad_request(
                        "bad_token",
                        format!("acceptByToken 不是 {} 的个人令牌", dest.name),
                        format!("acceptByToken is not a personal token of {}", dest.name),
                    ));
                }
            }
        }
    };
    let c = state
        .lobby
        .create_challenge(
            Entrant { player: player_of(&auth), guest: auth.user.is_guest },
            Some(dest.id.clone()),
            terms(&tc, rated, &p)?,
        )
        .await?;
    if let Some(u) = accept_by {
        state.lobby.accept_challenge(&c.id, PlayerRef::human(u.id.clone(), u.name.clone()), u.is_guest).await?;
        let accepted = state.lobby.challenge(&c.id).await.unwrap_or(c);
        return Ok(Json(challenge_value(&state, &accepted, Some(&auth.user.id)).await));
    }
    Ok(Json(challenge_value(&state, &c, Some(&auth.user.id)).await))
}

/// An open challenge: a link anyone may accept to play the creator (on Lichess, any two players join it).
pub async fn open(State(state): State<AppState>, auth: Auth, p: Params) -> ApiResult<Json<Value>> {
    let rated = rated_param(&p)?;
    let tc = lj::challenge_time_control(&p)?;
    let c = state
        .lobby
        .create_challenge(Entrant { player: player_of(&auth), guest: auth.user.is_guest }, None, terms(&tc, rated, &p)?)
        .await?;
    Ok(Json(challenge_value(&state, &c, Some(&auth.user.id)).await))
}

/// A game against the computer, started at once (201 with the game).
pub async fn ai(State(state): State<AppState>, auth: Auth, p: Params) -> ApiResult<Response> {
    require_any(&auth, WRITE)?;
    let level = p.u32("level")?.unwrap_or(1);
    let level = lj::ai_level(level).ok_or_else(|| {
        ApiError::bad_request("bad_request", "电脑级别须为 1 到 8", "level must be 1 to 8 (Lichess's AI levels)")
    })?;
    let tc = lj::challenge_time_control(&p)?;
    let color = lj::color_choice(&p)?;
    let variant = lj::variant_param(&p)?;
    let id =
        state.live.play_computer(player_of(&auth), level, color, &tc, variant, guoxiang_game::Rules::ONLINE).await?;
    let h = state.live.require(&id)?;
    let v = h.view().await?;
    let white = v.white.id == auth.user.id;
    let status = lj::status_name(&v.status, v.termination.as_deref(), false);
    let body = json!({
        "id": v.id,
        "fullId": lj::full_id(&v.id, white),
        "variant": lj::variant_json(v.initial_fen.as_deref(), v.chess960),
        "speed": lj::speed_name(&v.speed),
        "perf": lj::speed_name(&v.speed),
        "rated": v.rated,
        "fen": v.fen,
        "turns": v.moves_uci.len(),
        "source": "ai",
        "status": {"id": lj::status_id(status), "name": status},
        "createdAt": v.created_at_ms,
        "player": if white { "white" } else { "black" },
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

pub async fn accept(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    require_any(&auth, WRITE)?;
    if let Some(c) = state.lobby.challenge(&id).await {
        crate::http::class::check_pairing(&state, &c.challenger.id, &auth.user.id).await?;
    }
    state.lobby.accept_challenge(&id, player_of(&auth), auth.user.is_guest).await?;
    Ok(ok())
}

pub async fn decline(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    p: Params,
) -> ApiResult<Json<Value>> {
    require_any(&auth, WRITE)?;
    let c = state.lobby.challenge(&id).await.ok_or_else(|| not_found(&id))?;
    if c.challenger.id == auth.user.id {
        return Err(ApiError::bad_request(
            "bad_request",
            "不能拒绝自己的挑战（请取消）",
            "you cannot decline your own challenge; cancel it",
        ));
    }
    let reason = lj::decline_reason_key(p.get("reason"));
    state.lobby.close_challenge(&id, &auth.user.id, Some(reason.to_owned())).await?;
    Ok(ok())
}

/// Cancels one's challenge; once accepted, aborts its game if it can still be aborted.
pub async fn cancel(State(state): State<AppState>, auth: Auth, Path(id): Path<String>) -> ApiResult<Json<Value>> {
    require_any(&auth, WRITE)?;
    let c = state.lobby.challenge(&id).await.ok_or_else(|| not_found(&id))?;
    if let Some(game_id) = c.game_id.as_deref() {
        state.limiters.api_move(&auth.user.id).await?;
        state.live.command(state.live.locate(game_id).await?, &auth.user.id, Action::Abort, 0).await?;
        return Ok(ok());
    }
    if c.challenger.id != auth.user.id {
        return Err(ApiError::forbidden("not_yours", "这不是你的挑战", "this challenge is not yours"));
    }
    state.lobby.close_challenge(&id, &auth.user.id, None).await?;
    Ok(ok())
}

/// A challenge's terms from the API's parameters. Lichess's own `rules` parameter means something else (noAbort,
/// noRematch, …): these games are played under online rules.
fn terms<'a>(tc: &'a str, rated: bool, p: &Params) -> ApiResult<guoxiang_domain::lobby::ChallengeTerms<'a>> {
    Ok(guoxiang_domain::lobby::ChallengeTerms {
        time_control: tc,
        rated,
        color: lj::color_choice(p)?,
        variant: lj::variant_param(p)?,
        rules: guoxiang_game::Rules::ONLINE,
    })
}
