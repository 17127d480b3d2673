//! The web UI's files, embedded in the binary at build time from `web/dist` (built by `npm run build` in `web/`),
//! so running the server never needs npm. Unknown paths that are not API paths get `index.html` (the UI routes
//! them itself: `/game/…`, `/challenge/…`, `/analysis`, `/@/name`).

use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use rust_embed::Embed;

#[derive(Embed)]
#[folder = "../../web/dist"]
struct Assets;

pub async fn static_or_index(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return crate::api_error::ApiError::not_found(&format!("接口 /{path}"), &format!("endpoint /{path}"))
            .into_response();
    }
    if let Some(f) = Assets::get(path).filter(|_| !path.is_empty()) {
        let mime = mime_guess::from_path(path).first_or_octet_stream();
        let cache = if path.starts_with("assets/") { "public, max-age=31536000, immutable" } else { "no-cache" };
        return ([(header::CONTENT_TYPE, mime.as_ref().to_owned()), (header::CACHE_CONTROL, cache.to_owned())], f.data)
            .into_response();
    }
    match Assets::get("index.html") {
        Some(f) => ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], f.data)
            .into_response(),
        None => (StatusCode::NOT_FOUND, "the web UI is not built (web/dist is empty)").into_response(),
    }
}
