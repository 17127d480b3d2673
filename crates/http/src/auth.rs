//! Who is asking: passwords (argon2id), session cookies, personal API tokens with scopes, guests.
//!
//! Secrets (session cookies, tokens) are 256 random bits; the database keeps only their SHA-256, so a leaked
//! database does not let anyone in. A request is authenticated by the `gx_session` cookie (browsers) or an
//! `Authorization: Bearer` header (a session secret or a personal token, for API clients).

use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Argon2, password_hash::rand_core::OsRng};
use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use guoxiang_store::User;
use rand::RngCore;
use sha2::{Digest, Sha256};

use crate::AppState;
use crate::api_error::ApiError;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "gx_session";
/// Sessions last 30 days, guests' too: a guest who wants to keep their games registers (their course progress
/// carries over); a guest unused for longer is cleaned up.
pub const SESSION_DAYS: i64 = 30;
pub const GUEST_SESSION_DAYS: i64 = 30;

/// Every scope a token can carry: Lichess's names where Lichess has one, and our own for what Lichess has not.
/// [`crate::authz`] says which route and which WebSocket message needs which.
pub const SCOPES: &[&str] = &[
    "board:play",
    "bot:play",
    "challenge:read",
    "challenge:write",
    "preference:read",
    "preference:write",
    "email:read",
    "learn:read",
    "learn:write",
    "puzzle:read",
    "puzzle:write",
    "tournament:write",
    "arbiter:write",
    "study:read",
    "study:write",
    "class:read",
    "class:write",
];

/// A new random secret, hex.
pub fn new_secret() -> String {
    let mut b = [0u8; 32];
    rand::rng().fill_bytes(&mut b);
    hex::encode(b)
}

/// The stored form of a secret.
pub fn hash_secret(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Hashes a password with argon2id (default parameters: 19 MiB, 2 passes). Slow on purpose: call from a blocking
/// thread.
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| ApiError::internal("argon2", e))
}

/// Checks a password against a stored argon2 hash.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| Argon2::default().verify_password(password.as_bytes(), &h).is_ok())
}

/// A hash no password matches in practice, to check a login for an unknown name against: the answer then takes
/// as long as for a known one, so timing does not tell which names exist.
pub fn dummy_hash() -> &'static str {
    static DUMMY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    DUMMY.get_or_init(|| hash_password(&new_secret()).unwrap_or_default())
}

/// Checks a user name: 2–20 characters, letters (any script, so 张三 is fine), digits, `_` and `-`, starting with
/// a letter or digit.
pub fn check_name(name: &str) -> Result<(), ApiError> {
    let n = name.chars().count();
    let bad = |zh: &str, en: &str| Err(ApiError::bad_request("bad_username", zh.to_owned(), en.to_owned()));
    if name != normalize_name(name) {
        return bad("用户名须为规范形式（NFKC）", "the user name must be in normal form (NFKC)");
    }
    if !(2..=20).contains(&n) {
        return bad("用户名须为 2 到 20 个字符", "the user name must have 2 to 20 characters");
    }
    if !name.chars().all(|c| c.is_alphanumeric() || c == '_' || c == '-') {
        return bad("用户名只能包含字母、数字、_ 和 -", "the user name may contain only letters, digits, _ and -");
    }
    if !name.chars().next().is_some_and(char::is_alphanumeric) {
        return bad("用户名须以字母或数字开头", "the user name must start with a letter or a digit");
    }
    if name.to_lowercase().starts_with("guest") || name.to_lowercase().starts_with("engine") {
        return bad("此用户名已保留", "this user name is reserved");
    }
    // Look-alikes: a name mixing scripts that are not used together (Latin with Cyrillic, say) could pass for
    // another player's. Chinese, Japanese or Korean with Latin letters and digits is fine (UTS #39 "highly
    // restrictive").
    use unicode_security::{RestrictionLevel, RestrictionLevelDetection};
    if name.detect_restriction_level() > RestrictionLevel::HighlyRestrictive {
        return bad(
            "用户名不能混用容易混淆的文字（例如拉丁字母和西里尔字母）",
            "the user name mixes scripts that look alike (e.g. Latin and Cyrillic letters)",
        );
    }
    Ok(())
}

/// A user name as it is stored and compared: NFKC (full-width Ｌｉ becomes Li, ﬁ becomes fi), trimmed. Names are
/// unique case-insensitively (the user id is the lowercased name).
pub fn normalize_name(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    name.trim().nfkc().collect()
}

/// Words a guesser of this site's passwords would try first, besides the user's name.
const SITE_WORDS: &[&str] = &["guoxiang", "chess", "lichess", "国象", "象棋"];

/// How easy a password is to guess, by zxcvbn's estimate (dictionaries of common passwords, words and names,
/// keyboard rows, dates, repeats): `Some((zh, en))` when its score is below 2 (fewer than about a million guesses).
fn guessable(password: &str, username: &str) -> Option<(String, String)> {
    use zxcvbn::feedback::Warning as W;
    let mut inputs = vec![username];
    inputs.extend_from_slice(SITE_WORDS);
    let estimate = zxcvbn::zxcvbn(password, &inputs);
    if estimate.score() >= zxcvbn::Score::Two {
        return None;
    }
    let (zh, en) = match estimate.feedback().and_then(|f| f.warning()) {
        Some(W::ThisIsATop10Password | W::ThisIsATop100Password | W::ThisIsACommonPassword) => (
            "这个密码太常见了，很容易被猜到，请换一个",
            "this password is one of the most common ones and easy to guess",
        ),
        Some(W::ThisIsSimilarToACommonlyUsedPassword) => (
            "这个密码和常见密码太像了，很容易被猜到，请换一个",
            "this password is much like a common one and easy to guess",
        ),
        Some(W::StraightRowsOfKeysAreEasyToGuess | W::ShortKeyboardPatternsAreEasyToGuess) => {
            ("键盘上连着的键很容易被猜到，请换一个", "rows and patterns of keys are easy to guess")
        }
        Some(W::RecentYearsAreEasyToGuess | W::DatesAreOftenEasyToGuess) => {
            ("年份和日期很容易被猜到，请换一个", "years and dates are easy to guess")
        }
        _ => ("这个密码太容易被猜到，请换一个", "this password is too easy to guess"),
    };
    let hint_zh = "（几个不相关的词连在一起就是好密码）";
    let hint_en = " (a few unrelated words together make a good one)";
    Some((format!("{zh}{hint_zh}"), format!("{en}{hint_en}")))
}

/// Checks a new password: 8 to 200 characters, not only spaces or control characters, not one character repeated,
/// not the user name, and not easy to guess by zxcvbn's estimate (common passwords, words, names, dates and
/// keyboard patterns: refused below score 2).
pub fn check_password(password: &str, username: &str) -> Result<(), ApiError> {
    let bad = |zh: &str, en: &str| Err(ApiError::bad_request("bad_password", zh.to_owned(), en.to_owned()));
    let n = password.chars().count();
    if !(8..=200).contains(&n) {
        return bad("密码须为 8 到 200 个字符", "the password must have 8 to 200 characters");
    }
    let visible = password.chars().filter(|c| !c.is_whitespace() && !c.is_control()).count();
    if visible < 8 {
        return bad(
            "密码至少要有 8 个可见字符（不算空格和控制字符）",
            "the password needs at least 8 visible characters (spaces and control characters do not count)",
        );
    }
    let first = password.chars().next();
    if password.chars().all(|c| Some(c) == first) {
        return bad("密码不能只是一个字符的重复", "the password cannot be one character repeated");
    }
    if password.to_lowercase() == username.to_lowercase() {
        return bad("密码不能和用户名相同", "the password cannot be the user name");
    }
    if let Some((zh, en)) = guessable(password, username) {
        return bad(&zh, &en);
    }
    Ok(())
}

/// How a request was authenticated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Via {
    /// The session cookie (a browser): every scope, but subject to the origin check.
    Cookie,
    /// A session secret as a bearer token.
    Session,
    /// A personal token with these scopes.
    Token(Vec<String>),
}

/// An authenticated user.
#[derive(Clone, Debug)]
pub struct Auth {
    pub user: Arc<User>,
    pub via: Via,
    /// The hash of the session's secret (cookie or bearer session; `None` for a personal token): logging out ends
    /// this session, and the connections opened with it.
    pub session: Option<String>,
}

impl Auth {
    /// Refuses a token that lacks `scope` (sessions have every scope).
    pub fn require(&self, scope: &str) -> Result<(), ApiError> {
        match &self.via {
            Via::Token(scopes) if !scopes.iter().any(|s| s == scope) => Err(ApiError::forbidden(
                "missing_scope",
                format!("此令牌没有 {scope} 权限"),
                format!("Missing scope: this token lacks {scope}"),
            )),
            _ => Ok(()),
        }
    }
}

/// The session secret from the cookie header, if any.
pub fn cookie_secret(headers: &HeaderMap) -> Option<String> {
    headers.get_all(header::COOKIE).iter().filter_map(|v| v.to_str().ok()).flat_map(|v| v.split(';')).find_map(|kv| {
        let (k, v) = kv.trim().split_once('=')?;
        (k == SESSION_COOKIE && !v.is_empty() && v.len() <= 128).then(|| v.to_owned())
    })
}

fn bearer(headers: &HeaderMap) -> Option<String> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let t = v.strip_prefix("Bearer ").or_else(|| v.strip_prefix("bearer "))?.trim();
    (!t.is_empty() && t.len() <= 128).then(|| t.to_owned())
}

/// Resolves the request's user, if any (an unknown or expired secret is no user, not an error).
pub async fn authenticate(state: &AppState, headers: &HeaderMap) -> Result<Option<Auth>, ApiError> {
    let now = guoxiang_domain::time::now_ms() as i64;
    let idle = i64::try_from(state.config.session_idle_ms).unwrap_or(i64::MAX);
    if let Some(t) = bearer(headers) {
        let h = hash_secret(&t);
        if let Some((user, scopes)) = state.store.token_user(&h).await? {
            return Ok(Some(Auth { user: Arc::new(user), via: Via::Token(scopes), session: None }));
        }
        if let Some(user) = state.store.session_user(&h, now, idle).await? {
            return Ok(Some(Auth { user: Arc::new(user), via: Via::Session, session: Some(h) }));
        }
        return Err(ApiError::new(
            StatusCode::UNAUTHORIZED,
            "bad_token",
            "令牌无效或已过期",
            "invalid or expired token",
        ));
    }
    if let Some(s) = cookie_secret(headers) {
        let h = hash_secret(&s);
        if let Some(user) = state.store.session_user(&h, now, idle).await? {
            return Ok(Some(Auth { user: Arc::new(user), via: Via::Cookie, session: Some(h) }));
        }
    }
    Ok(None)
}

impl<S> FromRequestParts<S> for Auth
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Auth, ApiError> {
        // The authorization layer may have looked the credential up already.
        if let Some(a) = parts.extensions.get::<Auth>() {
            return Ok(a.clone());
        }
        let state = AppState::from_ref(state);
        authenticate(&state, &parts.headers).await?.ok_or_else(ApiError::unauthorized)
    }
}

/// An optional user: anonymous visitors get `None`.
#[derive(Clone, Debug)]
pub struct MaybeAuth(pub Option<Auth>);

impl<S> FromRequestParts<S> for MaybeAuth
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<MaybeAuth, ApiError> {
        if let Some(a) = parts.extensions.get::<Auth>() {
            return Ok(MaybeAuth(Some(a.clone())));
        }
        let state = AppState::from_ref(state);
        Ok(MaybeAuth(authenticate(&state, &parts.headers).await?))
    }
}

/// The `Set-Cookie` value for a new session.
pub fn session_cookie(secret: &str, days: i64, secure: bool) -> String {
    let secure = if secure { "; Secure" } else { "" };
    format!("{SESSION_COOKIE}={secret}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}", days * 86_400)
}

/// The `Set-Cookie` value that removes the session cookie.
pub fn clear_cookie() -> String {
    format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0")
}

/// Creates a session for `user_id` and returns its secret.
pub async fn new_session(state: &AppState, user_id: &str, days: i64) -> Result<String, ApiError> {
    let secret = new_secret();
    let now = guoxiang_domain::time::now_ms() as i64;
    state.store.create_session(&hash_secret(&secret), user_id, now, now + days * 86_400_000).await?;
    Ok(secret)
}

/// Creates a guest user (`Guest-xxxxxx`) with a session; returns the user and the session secret.
pub async fn new_guest(state: &AppState) -> Result<(User, String), ApiError> {
    for _ in 0..8 {
        let mut b = [0u8; 4];
        rand::rng().fill_bytes(&mut b);
        let name = format!("Guest-{}", &hex::encode(b)[..7]);
        match state.store.create_user(&name, None, true, guoxiang_domain::time::now_ms() as i64).await {
            Ok(user) => {
                let secret = new_session(state, &user.id, GUEST_SESSION_DAYS).await?;
                return Ok((user, secret));
            }
            Err(guoxiang_store::StoreError::NameTaken) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("guest", "could not find a free guest name"))
}

/// Creates a personal API token for a user; returns the token (shown once).
pub async fn new_token(
    state: &AppState,
    user_id: &str,
    description: &str,
    scopes: &[String],
) -> Result<String, ApiError> {
    for s in scopes {
        if !SCOPES.contains(&s.as_str()) {
            return Err(ApiError::bad_request(
                "bad_scope",
                format!("未知的权限 {s}"),
                format!("unknown scope {s:?}; known: {}", SCOPES.join(", ")),
            ));
        }
    }
    let token = format!("gxp_{}", new_secret());
    state
        .store
        .create_token(&hash_secret(&token), user_id, description, scopes, guoxiang_domain::time::now_ms() as i64)
        .await?;
    Ok(token)
}
