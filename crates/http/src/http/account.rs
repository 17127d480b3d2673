//! Accounts: register, log in and out, guests, the current user, the password and the sessions, personal API tokens,
//! the engine's levels.
//!
//! Every answer that carries a secret (a session in its body or its `Set-Cookie`, a new token) says
//! `Cache-Control: no-store`, so that no cache between the server and the browser keeps it.

use axum::Json;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::header;
use axum::response::{AppendHeaders, IntoResponse, Response};
use axum::routing::{delete, get, post};
use guoxiang_protocol::http::{
    AccountUser, AuthAnswer, Level, Me, NewToken, OkAnswer, PasswordChange, SessionsEnded, TokenCreated, TokenInfo,
    TokenList,
};
use serde::Deserialize;

use crate::AppState;
use crate::api_error::{ApiError, ApiResult};
use crate::auth::{self, Auth, MaybeAuth, Via};
use crate::client::ClientIp;

pub use guoxiang_protocol::http::Credentials;

/// Routes: accounts, sessions and API tokens.
pub fn routes() -> Router<AppState> {
    Router::new()
        .route("/api/guest", post(guest))
        .route("/api/register", post(register))
        .route("/api/login", post(login))
        .route("/api/logout", post(logout))
        .route("/api/logout/all", post(logout_all))
        .route("/api/account/password", post(change_password))
        .route("/api/me", get(me))
        .route("/api/token", post(create_token))
        .route("/api/tokens", get(list_tokens))
        .route("/api/tokens/{id}", delete(revoke_token))
        .route("/api/levels", get(levels))
}

fn account_user(u: &guoxiang_store::User) -> AccountUser {
    let points = u.points.max(0) as u32;
    AccountUser {
        id: u.id.clone(),
        username: u.name.clone(),
        guest: u.is_guest,
        admin: u.is_admin,
        points: u.points,
        level_zh: guoxiang_ratings::level_name(points, guoxiang_ratings::Lang::Zh).to_string(),
        level_en: guoxiang_ratings::level_name(points, guoxiang_ratings::Lang::En).to_string(),
        created_at: u.created_at_ms,
    }
}

fn auth_answer(u: &guoxiang_store::User, secret: &str) -> AuthAnswer {
    AuthAnswer { user: account_user(u), session: secret.to_owned() }
}

/// `Cache-Control: no-store` on an answer that carries a secret.
fn no_store(answer: impl IntoResponse) -> Response {
    (AppendHeaders([(header::CACHE_CONTROL, "no-store")]), answer).into_response()
}

fn with_cookie(state: &AppState, secret: &str, days: i64, body: AuthAnswer) -> Response {
    no_store((
        AppendHeaders([(header::SET_COOKIE, auth::session_cookie(secret, days, state.config.secure_cookies))]),
        Json(body),
    ))
}

pub async fn guest(State(state): State<AppState>, ClientIp(client): ClientIp) -> ApiResult<Response> {
    state.limiters.guest(client).await?;
    let (user, secret) = auth::new_guest(&state).await?;
    let body = auth_answer(&user, &secret);
    Ok(with_cookie(&state, &secret, auth::GUEST_SESSION_DAYS, body))
}

pub async fn register(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(c): Json<Credentials>,
) -> ApiResult<Response> {
    state.limiters.register(client).await?;
    let name = auth::normalize_name(&c.username);
    auth::check_name(&name)?;
    auth::check_password(&c.password, &name)?;
    let password = c.password.clone();
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|e| ApiError::internal("argon2 task", e))??;
    let user = match state.store.create_user(&name, Some(&hash), false, guoxiang_domain::time::now_ms() as i64).await {
        Ok(u) => u,
        Err(guoxiang_store::StoreError::NameTaken) => {
            return Err(ApiError::new(
                axum::http::StatusCode::CONFLICT,
                "name_taken",
                format!("用户名 {name} 已被使用"),
                format!("the user name {name} is taken"),
            ));
        }
        Err(e) => return Err(e.into()),
    };
    let secret = auth::new_session(&state, &user.id, auth::SESSION_DAYS).await?;
    let body = auth_answer(&user, &secret);
    Ok(with_cookie(&state, &secret, auth::SESSION_DAYS, body))
}

fn bad_credentials() -> ApiError {
    ApiError::new(
        axum::http::StatusCode::UNAUTHORIZED,
        "bad_credentials",
        "用户名或密码错误",
        "wrong user name or password",
    )
}

pub async fn login(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    Json(c): Json<Credentials>,
) -> ApiResult<Response> {
    state.limiters.login(client).await?;
    if c.username.len() > 100 || c.password.len() > 1000 {
        return Err(bad_credentials());
    }
    let id = guoxiang_store::user_id_of(&auth::normalize_name(&c.username));
    // Per account as well as per address: guessing one account's password from many addresses is slowed too.
    state.limiters.login_allowed(&id).await?;
    let user = state.store.user(&id).await?.filter(|u| !u.is_guest);
    let hash = user.as_ref().and_then(|u| u.password_hash.clone());
    // The same work whether the name exists or not.
    let against = hash.clone().unwrap_or_else(|| auth::dummy_hash().to_owned());
    let password = c.password.clone();
    let matches = tokio::task::spawn_blocking(move || auth::verify_password(&password, &against))
        .await
        .map_err(|e| ApiError::internal("argon2 task", e))?;
    let Some(user) = user.filter(|_| matches && hash.is_some()) else {
        state.limiters.login_failed(&id, client).await;
        return Err(bad_credentials());
    };
    state.limiters.login_succeeded(&id).await;
    let secret = auth::new_session(&state, &user.id, auth::SESSION_DAYS).await?;
    // A password a teacher reset: the client asks for a new one before anything else.
    let must_change = state.store.password_reset_pending(&user.id).await?;
    let mut body = serde_json::to_value(auth_answer(&user, &secret)).map_err(|e| ApiError::internal("login", e))?;
    body["must_change_password"] = must_change.into();
    let cookie = auth::session_cookie(&secret, auth::SESSION_DAYS, state.config.secure_cookies);
    Ok(no_store((AppendHeaders([(header::SET_COOKIE, cookie)]), Json(body))))
}

/// Ends the session the request came with (a cookie or a bearer session; a personal token is revoked with
/// `DELETE /api/tokens/{id}` instead), and closes the WebSockets and event streams opened with it.
pub async fn logout(State(state): State<AppState>, MaybeAuth(a): MaybeAuth) -> ApiResult<impl IntoResponse> {
    if let Some(a) = a
        && let Some(session) = a.session.clone()
    {
        state.store.delete_session(&session).await?;
        state.live.notifier().notify(&a.user.id, guoxiang_domain::hub::UserEvent::SessionEnded { session });
    }
    Ok(no_store((AppendHeaders([(header::SET_COOKIE, auth::clear_cookie())]), Json(OkAnswer { ok: true }))))
}

/// The session a request came with; a personal token is refused: ending sessions or changing the password takes
/// a signed-in session (a cookie, or a session secret as a bearer token).
fn session_of(a: &Auth) -> Result<String, ApiError> {
    match (&a.via, &a.session) {
        (Via::Cookie | Via::Session, Some(s)) => Ok(s.clone()),
        _ => Err(ApiError::forbidden(
            "session_required",
            "这需要登录的会话，个人令牌不能做",
            "this needs a signed-in session; a personal token cannot do it",
        )),
    }
}

/// Ends every session of `user_id` but `keep`, and closes the WebSockets and event streams opened with them.
async fn end_sessions(state: &AppState, user_id: &str, keep: Option<&str>) -> Result<u32, ApiError> {
    let ended = state.store.end_user_sessions(user_id, keep).await?;
    for session in &ended {
        let event = guoxiang_domain::hub::UserEvent::SessionEnded { session: session.clone() };
        state.live.notifier().notify(user_id, event);
    }
    Ok(u32::try_from(ended.len()).unwrap_or(u32::MAX))
}

/// `POST /api/logout/all` ("sign out everywhere"): ends every session of the user, this one too, closes their
/// connections and clears the cookie. Personal tokens stay (they are revoked one by one).
pub async fn logout_all(State(state): State<AppState>, a: Auth) -> ApiResult<Response> {
    session_of(&a)?;
    let ended = end_sessions(&state, &a.user.id, None).await?;
    let cookie = AppendHeaders([(header::SET_COOKIE, auth::clear_cookie())]);
    Ok(no_store((cookie, Json(SessionsEnded { ok: true, ended }))))
}

fn wrong_password() -> ApiError {
    ApiError::forbidden("wrong_password", "当前密码不对", "the current password is wrong")
}

/// `POST /api/account/password` `{"current", "new"}`: checks the current password (a wrong one counts as a wrong
/// login, against the same limits), checks the new one as registering does, stores it, and ends every other
/// session of the user with its connections; the caller's session stays.
pub async fn change_password(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    a: Auth,
    Json(c): Json<PasswordChange>,
) -> ApiResult<Response> {
    let session = session_of(&a)?;
    let Some(hash) = a.user.password_hash.clone().filter(|_| !a.user.is_guest) else {
        return Err(ApiError::forbidden(
            "login_required",
            "游客没有密码，请先注册",
            "a guest has no password; register first",
        ));
    };
    auth::check_password(&c.new, &a.user.name)?;
    state.limiters.login(client).await?;
    state.limiters.login_allowed(&a.user.id).await?;
    if c.current.len() > 1000 {
        return Err(wrong_password());
    }
    let current = c.current;
    let matches = tokio::task::spawn_blocking(move || auth::verify_password(&current, &hash))
        .await
        .map_err(|e| ApiError::internal("argon2 task", e))?;
    if !matches {
        state.limiters.login_failed(&a.user.id, client).await;
        return Err(wrong_password());
    }
    state.limiters.login_succeeded(&a.user.id).await;
    let new = c.new;
    let new_hash = tokio::task::spawn_blocking(move || auth::hash_password(&new))
        .await
        .map_err(|e| ApiError::internal("argon2 task", e))??;
    state.store.set_password(&a.user.id, &new_hash).await?;
    state.store.clear_password_reset(&a.user.id).await?;
    let ended = end_sessions(&state, &a.user.id, Some(&session)).await?;
    Ok(no_store(Json(SessionsEnded { ok: true, ended })))
}

/// `GET /api/tokens`: the signed-in user's personal tokens (never their secrets), newest first.
pub async fn list_tokens(State(state): State<AppState>, a: Auth) -> ApiResult<Json<TokenList>> {
    if matches!(a.via, Via::Token(_)) {
        return Err(ApiError::forbidden("missing_scope", "令牌不能管理令牌", "a token cannot manage tokens"));
    }
    let tokens = state.store.tokens_of(&a.user.id).await?;
    Ok(Json(TokenList {
        tokens: tokens
            .into_iter()
            .map(|t| TokenInfo { id: t.id, description: t.description, scopes: t.scopes, created_at: t.created_at_ms })
            .collect(),
    }))
}

/// `DELETE /api/tokens/{id}`: revokes one of the signed-in user's tokens; it stops working at once.
pub async fn revoke_token(
    State(state): State<AppState>,
    a: Auth,
    axum::extract::Path(id): axum::extract::Path<String>,
) -> ApiResult<Json<OkAnswer>> {
    if matches!(a.via, Via::Token(_)) {
        return Err(ApiError::forbidden("missing_scope", "令牌不能管理令牌", "a token cannot manage tokens"));
    }
    if !state.store.revoke_token(&a.user.id, &id).await? {
        return Err(ApiError::not_found(&format!("令牌 {id}"), &format!("token {id}")));
    }
    Ok(Json(OkAnswer { ok: true }))
}

/// `GET /api/me?optional=true`: asking whether there is a session (the web client's first request) is not an error.
#[derive(Debug, Default, Deserialize)]
pub struct MeQuery {
    #[serde(default)]
    pub optional: bool,
}

/// The session's user (with `must_change_password`: a teacher reset the password); without a session 401, or `null` (200) when the query says `optional=true`, so that a new
/// visitor's browser does not log a failed request before it gets a guest session.
pub async fn me(
    State(state): State<AppState>,
    MaybeAuth(a): MaybeAuth,
    Query(q): Query<MeQuery>,
) -> ApiResult<Json<serde_json::Value>> {
    let Some(a) = a else {
        return if q.optional { Ok(Json(serde_json::Value::Null)) } else { Err(ApiError::unauthorized()) };
    };
    let ratings = state.store.ratings(&a.user.id).await?;
    let me = Me {
        user: account_user(&a.user),
        ratings: crate::http::archive::perfs(&ratings),
        playing: state.live.playing(&a.user.id).await,
    };
    // Besides `Me`: whether a teacher reset the password (every other route refuses until a new one is chosen).
    let mut body = serde_json::to_value(me).map_err(|e| ApiError::internal("me", e))?;
    body["must_change_password"] = (!a.user.is_guest && state.store.password_reset_pending(&a.user.id).await?).into();
    Ok(Json(body))
}

/// Creates a personal API token (from a logged-in session, not from another token).
pub async fn create_token(State(state): State<AppState>, a: Auth, Json(t): Json<NewToken>) -> ApiResult<Response> {
    if matches!(a.via, Via::Token(_)) {
        return Err(ApiError::forbidden("missing_scope", "令牌不能创建令牌", "a token cannot create tokens"));
    }
    if a.user.is_guest {
        return Err(ApiError::forbidden("login_required", "游客不能创建令牌", "guests cannot create tokens"));
    }
    if t.description.chars().count() > 200 || t.scopes.len() > 20 {
        return Err(ApiError::bad_request("bad_request", "描述或权限太长", "description or scope list too long"));
    }
    let token = auth::new_token(&state, &a.user.id, &t.description, &t.scopes).await?;
    Ok(no_store(Json(TokenCreated { token, scopes: t.scopes })))
}

/// The computer's levels: number, names, approximate Elo.
pub async fn levels() -> Json<Vec<Level>> {
    Json(
        guoxiang_engine::LEVELS
            .iter()
            .map(|l| Level {
                level: l.number,
                name_zh: l.name_zh.to_owned(),
                name_en: l.name_en.to_owned(),
                elo: l.elo,
            })
            .collect(),
    )
}
