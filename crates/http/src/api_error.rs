//! One error type for every HTTP answer: a status, a stable code and messages in both languages. Internal details
//! (database errors) are logged, never sent. The domain's errors ([`guoxiang_domain::error::Error`] and the services' own
//! types) come in through `From`, each kind of refusal to its status ([`status_of`]).

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// An error answer. The JSON body is `{"error": <English message>, "code": …, "message_zh": …}`; `error` is what
/// Lichess clients read.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub zh: String,
    pub en: String,
}

/// The code of a write that did not commit.
const NOT_SAVED: &str = "not_saved";

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> ApiError {
        ApiError { status, code, zh: zh.into(), en: en.into() }
    }

    pub fn bad_request(code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, code, zh, en)
    }

    pub fn unauthorized() -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "login_required", "请先登录", "authentication required")
    }

    pub fn forbidden(code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::FORBIDDEN, code, zh, en)
    }

    pub fn not_found(what_zh: &str, what_en: &str) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, "not_found", format!("找不到{what_zh}"), format!("{what_en} not found"))
    }

    pub fn too_many() -> ApiError {
        ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "请求太频繁，请稍后再试",
            "too many requests; try again later",
        )
    }

    pub fn internal(context: &str, e: impl std::fmt::Display) -> ApiError {
        tracing::error!("{context}: {e}");
        ApiError::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "服务器内部错误",
            "internal server error (logged on the server)",
        )
    }

    /// A write that did not commit: nothing changed, the client may try again.
    pub fn not_committed(context: &str, e: impl std::fmt::Display) -> ApiError {
        tracing::error!("{context}: {e}");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            NOT_SAVED,
            "服务器暂时无法保存，这一步没有生效，请再试一次",
            "the server could not save this just now; nothing was changed, please try again",
        )
    }

    /// Whether this is a failed commit ([`ApiError::not_committed`]): the same command may be sent again.
    pub fn is_not_saved(&self) -> bool {
        self.code == NOT_SAVED
    }

    pub fn from_command(e: &guoxiang_game::CommandError) -> ApiError {
        let t = e.text();
        ApiError { status: StatusCode::BAD_REQUEST, code: e.code(), zh: t.zh, en: t.en }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} ({}): {}", self.status, self.code, self.en)
    }
}

impl From<guoxiang_store::StoreError> for ApiError {
    fn from(e: guoxiang_store::StoreError) -> ApiError {
        ApiError::internal("database", e)
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body =
            guoxiang_protocol::http::ApiErrorBody { error: self.en, code: self.code.to_owned(), message_zh: self.zh };
        (self.status, Json(body)).into_response()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

impl ApiError {
    /// The same error with another code.
    pub fn with_code(mut self, code: &'static str) -> ApiError {
        self.code = code;
        self
    }
}

/// Middleware: axum's own rejections — a body that is not JSON or misses a field (400/422), a wrong content type
/// (415), a wrong method (405), a body too large (413) or too slow (408) — come back as our JSON error in both
/// languages, with axum's explanation of what was wrong and where, like every other error.
pub async fn json_rejections(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let res = next.run(req).await;
    let status = res.status();
    let plain = res
        .headers()
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_none_or(|ct| ct.starts_with("text/plain"));
    if !status.is_client_error() || !plain {
        return res;
    }
    let (parts, body) = res.into_parts();
    let detail = axum::body::to_bytes(body, 16 * 1024).await.unwrap_or_default();
    let detail = String::from_utf8_lossy(&detail).trim().to_owned();
    let (code, zh, en) = match status.as_u16() {
        404 => ("not_found", "找不到", "not found"),
        405 => ("method_not_allowed", "不支持这个请求方法", "method not allowed"),
        408 => ("timeout", "请求超时", "the request took too long"),
        413 => ("too_large", "请求内容太大", "the request body is too large"),
        415 => ("unsupported_media_type", "请求的内容类型不对", "unsupported content type"),
        _ => ("bad_request", "请求有误", "bad request"),
    };
    let (zh, en) = if detail.is_empty() {
        (zh.to_owned(), en.to_owned())
    } else {
        (format!("{zh}：{detail}"), format!("{en}: {detail}"))
    };
    let mut out = ApiError::new(status, code, zh, en).into_response();
    if let Some(allow) = parts.headers.get(axum::http::header::ALLOW) {
        out.headers_mut().insert(axum::http::header::ALLOW, allow.clone());
    }
    out
}

/// The HTTP status of a kind of refusal of the domain.
pub fn status_of(kind: guoxiang_domain::error::Kind) -> StatusCode {
    use guoxiang_domain::error::Kind;
    match kind {
        Kind::BadRequest => StatusCode::BAD_REQUEST,
        Kind::Unauthorized => StatusCode::UNAUTHORIZED,
        Kind::Forbidden => StatusCode::FORBIDDEN,
        Kind::NotFound => StatusCode::NOT_FOUND,
        Kind::Conflict => StatusCode::CONFLICT,
        Kind::TooMany => StatusCode::TOO_MANY_REQUESTS,
        Kind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        Kind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
    }
}

impl From<guoxiang_domain::error::Error> for ApiError {
    fn from(e: guoxiang_domain::error::Error) -> ApiError {
        ApiError { status: status_of(e.kind), code: e.code, zh: e.zh, en: e.en }
    }
}

/// The domain's refusals of its services, each through [`guoxiang_domain::error::Error`].
macro_rules! through_domain {
    ($($t:ty),*) => {$(
        impl From<$t> for ApiError {
            fn from(e: $t) -> ApiError {
                ApiError::from(guoxiang_domain::error::Error::from(e))
            }
        }
    )*};
}

through_domain!(
    guoxiang_domain::live::GameError,
    guoxiang_domain::lobby::LobbyError,
    guoxiang_domain::policy::Refusal,
    guoxiang_domain::tournament::Refused
);
