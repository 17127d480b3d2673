// SPDX-License-Identifier: GPL-3.0-or-later
//! Accounts: `POST /api/register`, `/api/login`, `/api/guest` and `/api/logout`, `GET /api/me`, the password
//! and the sessions (`POST /api/account/password`, `POST /api/logout/all`), personal API tokens (`POST /api/token`,
//! `GET /api/tokens`, `DELETE /api/tokens/{id}`) and the computer's levels (`GET /api/levels`).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The body of `POST /api/register` and `POST /api/login`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct Credentials {
    pub username: String,
    pub password: String,
}

/// A user as their own session sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AccountUser {
    /// The lowercased name.
    pub id: String,
    /// The name as the user wrote it.
    pub username: String,
    pub guest: bool,
    pub admin: bool,
    /// 积分: the points the 级别 (level) comes from.
    pub points: i64,
    /// The level's name in Chinese and in English.
    pub level_zh: String,
    pub level_en: String,
    /// When the account was made, ms since the Unix epoch.
    pub created_at: i64,
}

/// `POST /api/register`, `/api/login` and `/api/guest`: the user and the session's secret (also set as a cookie).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AuthAnswer {
    pub user: AccountUser,
    pub session: String,
}

/// A rating of one speed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Perf {
    /// Rated games played at this speed.
    pub games: i64,
    /// Glicko-2 rating and deviation, rounded.
    pub rating: i64,
    pub rd: i64,
    /// Provisional: the deviation is still high.
    pub prov: bool,
}

/// `GET /api/me`: the session's user with their ratings (by speed: `bullet`, `blitz`, …) and the ids of the games
/// they are playing. `null` without a session when asked with `?optional=true` (else a 401).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Me {
    #[serde(flatten)]
    pub user: AccountUser,
    pub ratings: BTreeMap<String, Perf>,
    pub playing: Vec<String>,
}

/// One of the computer's levels (`GET /api/levels` answers all ten, weakest first).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Level {
    /// 1 to 10.
    pub level: u8,
    pub name_zh: String,
    pub name_en: String,
    /// Approximate playing strength (Elo).
    pub elo: u32,
}

/// The body of `POST /api/token`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct NewToken {
    /// What the token is for (at most 200 characters; may be left out).
    #[serde(default)]
    pub description: String,
    pub scopes: Vec<String>,
}

/// `POST /api/token`: the token's secret (shown this once) and its scopes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenCreated {
    pub token: String,
    pub scopes: Vec<String>,
}

/// A personal token, without its secret.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenInfo {
    pub id: String,
    pub description: String,
    pub scopes: Vec<String>,
    /// ms since the Unix epoch.
    pub created_at: i64,
}

/// `GET /api/tokens`: the signed-in user's tokens, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TokenList {
    pub tokens: Vec<TokenInfo>,
}

/// The body of `POST /api/account/password`: the password now and the new one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PasswordChange {
    pub current: String,
    pub new: String,
}

/// `POST /api/account/password` and `POST /api/logout/all`: how many sessions were ended (by a password change,
/// all but the caller's; by "sign out everywhere", all of them).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SessionsEnded {
    pub ok: bool,
    pub ended: u32,
}
