// SPDX-License-Identifier: GPL-3.0-or-later
//! Tournaments over HTTP (the routes are listed in `guoxiang_protocol::http::tournament`; docs/tournament.md "On
//! the server"). Every act answers the tournament as the page shows it ([`TournamentView`]).

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{self, post};
use guoxiang_protocol::http::{
    AddArbiter, AddPlayer, ForbiddenPair, NewTournament, PlayerList, PlayerNumber, ResultEntry, TournamentLink,
    TournamentList, TournamentView, TrfImport,
};

use crate::AppState;
use crate::api_error::ApiResult;
use crate::auth::{Auth, MaybeAuth};

/// Routes: tournaments.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/tournaments", routing::get(list).post(create))
        .route("/api/tournaments/import", post(import))
        .route("/api/tournament/{id}", routing::get(get))
        .route("/api/tournament/{id}/join", post(join))
        .route("/api/tournament/{id}/leave", post(leave))
        .route("/api/tournament/{id}/start", post(start))
        .route("/api/tournament/{id}/pair", post(pair))
        .route("/api/tournament/{id}/result", post(result))
        .route("/api/tournament/{id}/withdraw", post(withdraw))
        .route("/api/tournament/{id}/player", post(add_player))
        .route("/api/tournament/{id}/players", post(add_player_list))
        .route("/api/tournament/{id}/arbiter", post(add_arbiter))
        .route("/api/tournament/{id}/forbid", post(forbid))
        .route("/api/tournament/{id}/bye", post(bye))
        .route("/api/tournament/{id}/pgn", routing::get(pgn))
        .route("/api/game/{id}/tournament", routing::get(of_game))
        .route("/api/tournament/{id}/trf", routing::get(trf))
}

/// `GET /api/tournaments`.
pub async fn list(State(state): State<AppState>) -> ApiResult<Json<TournamentList>> {
    Ok(Json(state.tournaments.list().await?))
}

/// `POST /api/tournaments`.
pub async fn create(
    State(state): State<AppState>,
    auth: Auth,
    Json(req): Json<NewTournament>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    let id = state.tournaments.create(&auth.user, &req).await?;
    let (_, doc) = state.tournaments.get(&id).await?;
    Ok((StatusCode::CREATED, Json(state.tournaments.view(&id, &doc, Some(&auth.user)))))
}

/// `POST /api/tournaments/import`.
pub async fn import(
    State(state): State<AppState>,
    auth: Auth,
    Json(req): Json<TrfImport>,
) -> ApiResult<(StatusCode, Json<TournamentView>)> {
    let id = state.tournaments.import(&auth.user, &req).await?;
    let (_, doc) = state.tournaments.get(&id).await?;
    Ok((StatusCode::CREATED, Json(state.tournaments.view(&id, &doc, Some(&auth.user)))))
}

/// `GET /api/tournament/{id}`.
pub async fn get(
    State(state): State<AppState>,
    MaybeAuth(auth): MaybeAuth,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let (_, doc) = state.tournaments.get(&id).await?;
    if let Some(a) = &auth {
        // A player looking at the page is present for the next round (the presence check).
        state.tournaments.mark_present(&id, &doc, &a.user);
    }
    Ok(Json(state.tournaments.view(&id, &doc, auth.as_ref().map(|a| &*a.user))))
}

fn answer(state: &AppState, id: &str, doc: &guoxiang_domain::tournament::Doc, auth: &Auth) -> Json<TournamentView> {
    Json(state.tournaments.view(id, doc, Some(&auth.user)))
}

/// `POST /api/tournament/{id}/join`.
pub async fn join(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.join(&id, &auth.user).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/leave`.
pub async fn leave(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.leave(&id, &auth.user).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/start`.
pub async fn start(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.start(&id, &auth.user).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/pair`.
pub async fn pair(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.pair_next(&id, Some(&auth.user)).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/result`.
pub async fn result(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<ResultEntry>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.enter_result(&id, &auth.user, req.round, req.board, req.result).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/withdraw`.
pub async fn withdraw(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<PlayerNumber>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.withdraw(&id, &auth.user, req.no).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/player`.
pub async fn add_player(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<AddPlayer>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.add_player(&id, &auth.user, &req.name, req.rating).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/players`: a pasted list of players.
pub async fn add_player_list(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<PlayerList>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.add_player_list(&id, &auth.user, &req.text).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/arbiter`.
pub async fn add_arbiter(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<AddArbiter>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.add_arbiter(&id, &auth.user, &req.name).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/forbid`.
pub async fn forbid(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<ForbiddenPair>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.forbid(&id, &auth.user, req.a, req.b).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `POST /api/tournament/{id}/bye`.
pub async fn bye(
    State(state): State<AppState>,
    auth: Auth,
    Path(id): Path<String>,
    Json(req): Json<PlayerNumber>,
) -> ApiResult<Json<TournamentView>> {
    let doc = state.tournaments.request_bye(&id, &auth.user, req.no).await?;
    Ok(answer(&state, &id, &doc, &auth))
}

/// `GET /api/game/{id}/tournament`: the tournament a game was paired in, or `null`.
pub async fn of_game(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Json<Option<TournamentLink>>> {
    if id.len() > 32 {
        return Ok(Json(None));
    }
    let Some(link) = state.store.tournament_of_game(&id).await? else { return Ok(Json(None)) };
    let (_, doc) = state.tournaments.get(&link.tournament_id).await?;
    Ok(Json(Some(TournamentLink {
        id: link.tournament_id,
        name: doc.name,
        system: doc.system,
        round: u32::try_from(link.round).unwrap_or(0),
        board: u32::try_from(link.board).unwrap_or(0),
    })))
}

/// `GET /api/tournament/{id}/pgn`: every game, round by round.
pub async fn pgn(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = state.tournaments.pgn(&id, &state.config.public_url).await?;
    Ok((
        [
            (header::CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"guoxiang_tournament_{id}.pgn\"")),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/tournament/{id}/trf`: FIDE TRF-16 with every finished round (a round being played has no results yet,
/// which TRF-16 cannot write).
pub async fn trf(State(state): State<AppState>, Path(id): Path<String>) -> ApiResult<Response> {
    let (_, doc) = state.tournaments.get(&id).await?;
    let text = guoxiang_tournament::trf::write(&doc.to_trf(true));
    Ok((
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"guoxiang_tournament_{id}.trf\"")),
        ],
        text,
    )
        .into_response())
}
