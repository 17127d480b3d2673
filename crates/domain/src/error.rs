// SPDX-License-Identifier: GPL-3.0-or-later
//! The domain's refusal, said the same way to every transport: a [`Kind`] (what sort of refusal), a stable code
//! and messages in both languages. The transports give it their own form (the HTTP layer a status and a JSON body,
//! `api_error`); internal details (database errors) are logged here, never sent.

use serde::{Deserialize, Serialize};

/// What sort of refusal an [`Error`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// The request is not right (a field, a move, a state that does not allow it).
    BadRequest,
    /// Who asks is not known: log in first.
    Unauthorized,
    /// Who asks may not do this.
    Forbidden,
    /// What was asked for does not exist.
    NotFound,
    /// It clashes with what is there now (the state moved on, a name taken).
    Conflict,
    /// Too many, too often: later.
    TooMany,
    /// Ours failed (logged).
    Internal,
    /// Not now: nothing changed, the same request may be sent again.
    Unavailable,
}

/// A refusal of the domain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    pub kind: Kind,
    pub code: &'static str,
    pub zh: String,
    pub en: String,
}

/// The code of a write that did not commit.
const NOT_SAVED: &str = "not_saved";

/// A code that came from another node (`live::wire::WireError`) as a `&'static str`: the codes are a small fixed
/// set, so each distinct one is leaked once.
pub fn intern_code(code: &str) -> &'static str {
    static CODES: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let mut codes = CODES.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(c) = codes.iter().find(|c| **c == code) {
        return c;
    }
    // A peer cannot grow this without end: past a few hundred codes, the rest are told apart by message only.
    if codes.len() >= 512 || code.len() > 64 {
        return "remote_error";
    }
    let c: &'static str = Box::leak(code.to_owned().into_boxed_str());
    codes.push(c);
    c
}

impl Error {
    pub fn new(kind: Kind, code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> Error {
        Error { kind, code, zh: zh.into(), en: en.into() }
    }

    pub fn bad_request(code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> Error {
        Error::new(Kind::BadRequest, code, zh, en)
    }

    pub fn unauthorized() -> Error {
        Error::new(Kind::Unauthorized, "login_required", "请先登录", "authentication required")
    }

    pub fn forbidden(code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> Error {
        Error::new(Kind::Forbidden, code, zh, en)
    }

    pub fn not_found(what_zh: &str, what_en: &str) -> Error {
        Error::new(Kind::NotFound, "not_found", format!("找不到{what_zh}"), format!("{what_en} not found"))
    }

    pub fn too_many() -> Error {
        Error::new(Kind::TooMany, "rate_limited", "请求太频繁，请稍后再试", "too many requests; try again later")
    }

    pub fn internal(context: &str, e: impl std::fmt::Display) -> Error {
        tracing::error!("{context}: {e}");
        Error::new(Kind::Internal, "internal", "服务器内部错误", "internal server error (logged on the server)")
    }

    /// A write that did not commit: nothing changed, the client may try again.
    pub fn not_committed(context: &str, e: impl std::fmt::Display) -> Error {
        tracing::error!("{context}: {e}");
        Error::new(
            Kind::Unavailable,
            NOT_SAVED,
            "服务器暂时无法保存，这一步没有生效，请再试一次",
            "the server could not save this just now; nothing was changed, please try again",
        )
    }

    /// Whether this is a failed commit ([`Error::not_committed`]): the same command may be sent again.
    pub fn is_not_saved(&self) -> bool {
        self.code == NOT_SAVED
    }

    pub fn from_command(e: &guoxiang_game::CommandError) -> Error {
        let t = e.text();
        Error { kind: Kind::BadRequest, code: e.code(), zh: t.zh, en: t.en }
    }

    /// The same error with another code.
    pub fn with_code(mut self, code: &'static str) -> Error {
        self.code = code;
        self
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?} ({}): {}", self.kind, self.code, self.en)
    }
}

impl std::error::Error for Error {}

impl From<guoxiang_store::StoreError> for Error {
    fn from(e: guoxiang_store::StoreError) -> Error {
        Error::internal("database", e)
    }
}

impl From<guoxiang_tournament::doc::Refused> for Error {
    fn from(r: guoxiang_tournament::doc::Refused) -> Error {
        let kind = match r.code {
            "bad_request" | "bad_tie_break" | "bad_trf" => Kind::BadRequest,
            _ => Kind::Conflict,
        };
        Error::new(kind, r.code, r.zh, r.en)
    }
}

/// The kind an HTTP status stands for (the tests' tables are written in statuses).
#[cfg(test)]
pub(crate) fn kind_of_status(status: u16) -> Kind {
    match status {
        400 => Kind::BadRequest,
        401 => Kind::Unauthorized,
        403 => Kind::Forbidden,
        404 => Kind::NotFound,
        409 => Kind::Conflict,
        429 => Kind::TooMany,
        503 => Kind::Unavailable,
        _ => Kind::Internal,
    }
}
