//! Cross-site and abuse protection: the origin check, the security headers and the rate limiters.
//!
//! Browsers send `Origin` on WebSocket upgrades and on cross-site POSTs; a request whose origin is not this server's
//! own host is refused, so another site cannot act with a visitor's cookie (session cookies are also `SameSite=Lax`).
//! Requests without `Origin` (API clients, curl) are not browsers acting for a user and pass.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::DefaultClock;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::{Quota, RateLimiter};

use crate::api_error::ApiError;

/// An origin as `scheme://host[:port]`, lowercased, without the scheme's default port.
fn normal_origin(scheme: &str, authority: &str) -> String {
    let scheme = scheme.to_ascii_lowercase();
    let authority = authority.trim_end_matches('/').to_ascii_lowercase();
    let authority = match (scheme.as_str(), authority.rsplit_once(':')) {
        ("http", Some((h, "80"))) | ("https", Some((h, "443"))) => h.to_owned(),
        _ => authority,
    };
    format!("{scheme}://{authority}")
}

/// Refuses a request whose `Origin` is not this server: the same scheme (that of `public_url`), host and port as
/// the `Host` it was sent to, or `public_url` itself.
pub fn check_origin(headers: &HeaderMap, public_url: &str) -> Result<(), ApiError> {
    let Some(origin) = headers.get(header::ORIGIN) else { return Ok(()) };
    let origin = origin.to_str().unwrap_or_default();
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).unwrap_or_default();
    let (scheme, public_authority) = public_url.split_once("://").unwrap_or(("http", public_url));
    let public_authority = public_authority.split('/').next().unwrap_or_default();
    let given = match origin.split_once("://") {
        Some((s, rest)) => normal_origin(s, rest),
        None => String::new(),
    };
    let ok = !given.is_empty()
        && ((!host.is_empty() && given == normal_origin(scheme, host))
            || given == normal_origin(scheme, public_authority));
    if ok {
        return Ok(());
    }
    Err(ApiError::forbidden(
        "forbidden_origin",
        "拒绝跨站请求",
        format!("cross-site request refused: origin {origin:?} is not this server ({scheme}://{host})"),
    ))
}

/// Middleware: the origin check for every state-changing request.
pub async fn origin_layer(State(state): State<crate::AppState>, req: Request, next: Next) -> Response {
    if !matches!(*req.method(), Method::GET | Method::HEAD | Method::OPTIONS)
        && let Err(e) = check_origin(req.headers(), &state.config.public_url)
    {
        return e.into_response();
    }
    next.run(req).await
}

/// The page may load its own scripts, styles (chessground sets inline styles) and images (the pieces are data:
/// SVGs), talk to this server only (HTTP and WebSocket: `'self'`, which CSP Level 3 browsers take to cover `ws:` and
/// `wss:` to the page's own host, and the WebSocket origin of `public_url`), and be framed by nobody. A
/// `public_url` that is not a plain `http(s)://host[:port]` adds nothing (`'self'` alone). `'wasm-unsafe-eval'` lets
/// the page compile WebAssembly (the engine in the browser, issue 43) and nothing else: no `eval`, no inline script.
pub fn content_security_policy(public_url: &str) -> HeaderValue {
    let ws = public_ws_origin(public_url).map(|o| format!(" {o}")).unwrap_or_default();
    let csp = format!(
        "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; font-src 'self' data:; connect-src 'self'{ws}; frame-ancestors 'none'; base-uri 'self'; \
         form-action 'self'; object-src 'none'"
    );
    HeaderValue::from_str(&csp).unwrap_or_else(|_| HeaderValue::from_static("default-src 'self'"))
}

/// `ws://host[:port]` for an `http` public URL, `wss://…` for `https`; `None` when the URL is anything else or its
/// host holds a character that has no place in a CSP source.
fn public_ws_origin(public_url: &str) -> Option<String> {
    let (scheme, rest) = public_url.trim().split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    let ws = match scheme.as_str() {
        "http" => "ws",
        "https" => "wss",
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let ok = |c: char| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']');
    if authority.is_empty() || !authority.chars().all(ok) {
        return None;
    }
    // The http(s) origin without its default port, then the same host and port under ws(s).
    let origin = normal_origin(&scheme, authority);
    Some(format!("{ws}{}", &origin[scheme.len()..]))
}

/// Middleware: security headers on every response; `csp` is [`content_security_policy`] of the public URL.
pub async fn headers_layer(State(csp): State<HeaderValue>, req: Request, next: Next) -> Response {
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, csp);
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    res
}

type Keyed<K> = RateLimiter<K, DefaultKeyedStateStore<K>, DefaultClock>;

/// Failed logins per account: after [`LoginFailures::MAX`] within [`LoginFailures::WINDOW_MS`] the account refuses
/// logins (even the right password) until the oldest failure is that old — a pause, never a lock-out for good.
#[derive(Debug, Default)]
pub struct LoginFailures {
    by_account: std::sync::Mutex<std::collections::HashMap<String, std::collections::VecDeque<u64>>>,
}

impl LoginFailures {
    pub const MAX: usize = 10;
    pub const WINDOW_MS: u64 = 10 * 60_000;
    /// Accounts tracked at most; beyond, the oldest failures are forgotten first.
    const ACCOUNTS: usize = 100_000;

    /// Refuses a login attempt on an account with too many recent failures.
    pub fn check(&self, account: &str) -> Result<(), ApiError> {
        let now = guoxiang_domain::time::now_ms();
        let mut map = self.by_account.lock().unwrap_or_else(|e| e.into_inner());
        let Some(f) = map.get_mut(account) else { return Ok(()) };
        while f.front().is_some_and(|t| now.saturating_sub(*t) >= Self::WINDOW_MS) {
            f.pop_front();
        }
        if f.len() < Self::MAX {
            return Ok(());
        }
        Err(Self::pause(f.front().copied()))
    }

    /// The refusal while an account pauses: until its oldest failure in the window, at `oldest`, is that old.
    fn pause(oldest: Option<u64>) -> ApiError {
        let now = guoxiang_domain::time::now_ms();
        let wait_min =
            oldest.map_or(1, |t| (Self::WINDOW_MS.saturating_sub(now.saturating_sub(t))).div_ceil(60_000).max(1));
        ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            format!("这个账号的密码错误次数太多，请 {wait_min} 分钟后再试"),
            format!("too many wrong passwords for this account; try again in {wait_min} min"),
        )
    }

    /// Counts a failed attempt.
    pub fn record(&self, account: &str) {
        let now = guoxiang_domain::time::now_ms();
        let mut map = self.by_account.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= Self::ACCOUNTS && !map.contains_key(account) {
            map.retain(|_, f| f.back().is_some_and(|t| now.saturating_sub(*t) < Self::WINDOW_MS));
            if map.len() >= Self::ACCOUNTS {
                return;
            }
        }
        let f = map.entry(account.to_owned()).or_default();
        f.push_back(now);
        while f.len() > Self::MAX {
            f.pop_front();
        }
    }

    /// Forgets the failures after a successful login.
    pub fn clear(&self, account: &str) {
        self.by_account.lock().unwrap_or_else(|e| e.into_inner()).remove(account);
    }
}

/// Failed logins per client address, within a minute: the accounts that failed from it, each counted once (at
/// most `logins_per_minute`, `guoxiang serve --login-limit`). Successful logins never count, and ten wrong passwords
/// for one account count as one here (that account pauses on its own, [`LoginFailures`]): so a class of thirty
/// behind one school router signs in at once even when a child mistypes, while trying one password on many
/// accounts from one address is still slowed.
#[derive(Debug, Default)]
pub struct AddressFailures {
    by_address: std::sync::Mutex<std::collections::HashMap<IpAddr, std::collections::VecDeque<(u64, String)>>>,
}

impl AddressFailures {
    pub const WINDOW_MS: u64 = 60_000;
    const ADDRESSES: usize = 100_000;

    fn expire(f: &mut std::collections::VecDeque<(u64, String)>, now: u64) {
        while f.front().is_some_and(|(t, _)| now.saturating_sub(*t) >= Self::WINDOW_MS) {
            f.pop_front();
        }
    }

    /// How many accounts failed from `ip` within the window.
    fn count(&self, ip: IpAddr) -> usize {
        let now = guoxiang_domain::time::now_ms();
        let mut map = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let Some(f) = map.get_mut(&ip) else { return 0 };
        Self::expire(f, now);
        f.len()
    }

    /// Counts a failure on `account` from `ip` (keeping at most `keep` accounts); `true` if this account had not
    /// failed from this address within the window.
    fn record(&self, ip: IpAddr, account: &str, keep: usize) -> bool {
        let now = guoxiang_domain::time::now_ms();
        let mut map = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        if map.len() >= Self::ADDRESSES && !map.contains_key(&ip) {
            map.retain(|_, f| f.back().is_some_and(|(t, _)| now.saturating_sub(*t) < Self::WINDOW_MS));
            if map.len() >= Self::ADDRESSES {
                return true;
            }
        }
        let f = map.entry(ip).or_default();
        Self::expire(f, now);
        if f.iter().any(|(_, a)| a == account) {
            return false;
        }
        f.push_back((now, account.to_owned()));
        while f.len() > keep.max(1) {
            f.pop_front();
        }
        true
    }
}

/// The server's rate limiters. Each node limits its own traffic (governor's GCRA, with bursts); in a cluster with a
/// broker the same limits also hold for the whole cluster: every request is counted in a fixed window in Redis
/// (a minute; an hour for registrations), and one over the window's allowance (the burst, or the rate if larger) is
/// refused whichever node it reached. If Redis does not answer, the node's own limits still hold.
#[derive(Debug, Clone)]
pub struct Limiters {
    cluster: Arc<std::sync::OnceLock<guoxiang_domain::transport::SharedCluster>>,
    limits: crate::Limits,
    /// Failed logins per account, on this node (with a broker, also counted in Redis for the cluster).
    login_failures: Arc<LoginFailures>,
    /// Failed logins per address, on this node (with a broker, also counted in Redis for the cluster).
    address_failures: Arc<AddressFailures>,
    register: Arc<Keyed<IpAddr>>,
    moves: Arc<Keyed<String>>,
    analyses: Arc<Keyed<String>>,
    guests: Arc<Keyed<IpAddr>>,
}

fn quota(per_minute: u32, burst: u32) -> Quota {
    Quota::per_minute(NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN))
        .allow_burst(NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN))
}

impl Limiters {
    pub fn new(limits: &crate::Limits) -> Limiters {
        Limiters {
            cluster: Arc::default(),
            limits: limits.clone(),
            login_failures: Arc::default(),
            address_failures: Arc::default(),
            register: Arc::new(RateLimiter::keyed(quota(
                limits.registrations_per_hour.div_ceil(60).max(1),
                limits.registrations_per_hour,
            ))),
            moves: Arc::new(RateLimiter::keyed(quota(
                limits.api_moves_per_minute,
                limits.api_moves_per_minute / 4 + 1,
            ))),
            analyses: Arc::new(RateLimiter::keyed(quota(limits.analyses_per_minute, limits.analyses_per_minute / 2))),
            guests: Arc::new(RateLimiter::keyed(quota(limits.guests_per_minute, limits.guests_per_minute * 10))),
        }
    }

    /// Counts every request in the cluster too (set once, with a broker).
    pub fn set_cluster(&self, broker: guoxiang_domain::transport::SharedCluster) {
        let _ = self.cluster.set(broker);
    }

    /// The cluster-wide check of one request of `kind` by `key`: at most `allowed` in a window of `window_ms`.
    async fn in_cluster(&self, kind: &str, key: &str, allowed: u32, window_ms: u64) -> Result<(), ApiError> {
        let Some(b) = self.cluster.get() else { return Ok(()) };
        match b.count(&format!("{kind}:{key}"), window_ms).await {
            Ok(n) if n > u64::from(allowed.max(1)) => Err(ApiError::too_many()),
            Ok(_) => Ok(()),
            Err(e) => {
                // The node's own limit has held; the cluster's cannot be known now.
                tracing::warn!("rate limit {kind}: the broker did not count ({e})");
                Ok(())
            }
        }
    }

    /// A login attempt from `ip`: refused while `logins_per_minute` accounts have failed to log in from the
    /// address within a minute ([`AddressFailures`]), on this node or, with a broker, on all the nodes together.
    /// Successful logins do not count.
    pub async fn login(&self, ip: IpAddr) -> Result<(), ApiError> {
        let allowed = self.limits.logins_per_minute.max(1) as usize;
        if self.address_failures.count(ip) >= allowed {
            return Err(ApiError::too_many());
        }
        let Some(b) = self.cluster.get() else { return Ok(()) };
        match b.recent(&format!("login-fail-ip:{ip}"), AddressFailures::WINDOW_MS).await {
            Ok((n, _)) if n >= allowed => Err(ApiError::too_many()),
            Ok(_) => Ok(()),
            Err(e) => {
                tracing::warn!("failed logins by address: the broker did not answer ({e}); this node's count holds");
                Ok(())
            }
        }
    }

    /// A login attempt on `account`: refused while it has [`LoginFailures::MAX`] failed logins within
    /// [`LoginFailures::WINDOW_MS`], on this node or, with a broker, on all the nodes together — guessing one
    /// account's password on every node at once is slowed as on one.
    pub async fn login_allowed(&self, account: &str) -> Result<(), ApiError> {
        self.login_failures.check(account)?;
        let Some(b) = self.cluster.get() else { return Ok(()) };
        match b.recent(&format!("login-fail:{account}"), LoginFailures::WINDOW_MS).await {
            Ok((n, oldest)) if n >= LoginFailures::MAX => Err(LoginFailures::pause(oldest)),
            Ok(_) => Ok(()),
            Err(e) => {
                tracing::warn!("failed logins: the broker did not answer ({e}); this node's count holds");
                Ok(())
            }
        }
    }

    /// Counts a failed login on `account` from `ip`: against the account, and against the address when the
    /// account had not failed from it within the minute ([`AddressFailures`]), here and in the cluster.
    pub async fn login_failed(&self, account: &str, ip: IpAddr) {
        self.login_failures.record(account);
        let per_address = self.limits.logins_per_minute.max(1) as usize;
        self.address_failures.record(ip, account, per_address);
        let Some(b) = self.cluster.get() else { return };
        if let Err(e) = b.record(&format!("login-fail:{account}"), LoginFailures::WINDOW_MS, LoginFailures::MAX).await {
            tracing::warn!("failed logins: the broker did not count one ({e})");
        }
        let pair = format!("login-fail-ip-account:{ip}:{account}");
        let window = AddressFailures::WINDOW_MS;
        let counted = match b.recent(&pair, window).await {
            Ok((n, _)) => n > 0,
            Err(_) => false,
        };
        let mut result = b.record(&pair, window, 1).await;
        if !counted && result.is_ok() {
            result = b.record(&format!("login-fail-ip:{ip}"), window, per_address).await;
        }
        if let Err(e) = result {
            tracing::warn!("failed logins by address: the broker did not count one ({e})");
        }
    }

    /// Forgets the failed logins of `account` after a successful one.
    pub async fn login_succeeded(&self, account: &str) {
        self.login_failures.clear(account);
        if let Some(b) = self.cluster.get()
            && let Err(e) = b.clear(&format!("login-fail:{account}")).await
        {
            tracing::warn!("failed logins: the broker did not forget them ({e})");
        }
    }

    pub async fn register(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.register.check_key(&ip).map_err(|_| ApiError::too_many())?;
        self.in_cluster("register", &ip.to_string(), self.limits.registrations_per_hour, 60 * MINUTE).await
    }

    /// New guests, per address.
    pub async fn guest(&self, ip: IpAddr) -> Result<(), ApiError> {
        self.guests.check_key(&ip).map_err(|_| ApiError::too_many())?;
        let allowed = self.limits.guests_per_minute.saturating_mul(10);
        self.in_cluster("guest", &ip.to_string(), allowed, MINUTE).await
    }

    /// Analyses, per user.
    pub async fn analysis(&self, user_id: &str) -> Result<(), ApiError> {
        self.analyses.check_key(&user_id.to_owned()).map_err(|_| ApiError::too_many())?;
        self.in_cluster("analysis", user_id, self.limits.analyses_per_minute, MINUTE).await
    }

    /// Moves and game commands through the HTTP API, per user.
    pub async fn api_move(&self, user_id: &str) -> Result<(), ApiError> {
        self.moves.check_key(&user_id.to_owned()).map_err(|_| ApiError::too_many())?;
        self.in_cluster("move", user_id, self.limits.api_moves_per_minute, MINUTE).await
    }
}

const MINUTE: u64 = 60_000;

#[cfg(test)]
mod origin_tests {
    use super::*;

    fn headers(origin: &str, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::ORIGIN, origin.parse().unwrap());
        h.insert(header::HOST, host.parse().unwrap());
        h
    }

    #[test]
    fn origins_must_match_scheme_host_and_port() {
        let local = "http://127.0.0.1:8080";
        assert!(check_origin(&headers("http://127.0.0.1:8080", "127.0.0.1:8080"), local).is_ok());
        assert!(check_origin(&headers("HTTP://LOCALHOST:8080", "localhost:8080"), local).is_ok());
        // Another scheme, port or host is another site.
        assert!(check_origin(&headers("https://127.0.0.1:8080", "127.0.0.1:8080"), local).is_err());
        assert!(check_origin(&headers("http://127.0.0.1:9999", "127.0.0.1:8080"), local).is_err());
        assert!(check_origin(&headers("http://evil.example", "127.0.0.1:8080"), local).is_err());
        assert!(check_origin(&headers("null", "127.0.0.1:8080"), local).is_err());
        // Behind an HTTPS proxy: the public URL's scheme, default ports equal to none.
        let public = "https://chess.example.org";
        assert!(check_origin(&headers("https://chess.example.org", "chess.example.org"), public).is_ok());
        assert!(check_origin(&headers("https://chess.example.org:443", "chess.example.org"), public).is_ok());
        assert!(check_origin(&headers("http://chess.example.org", "chess.example.org"), public).is_err());
        // The proxy may pass its own Host: the public URL itself is accepted.
        assert!(check_origin(&headers("https://chess.example.org", "127.0.0.1:8080"), public).is_ok());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn connect_src(public_url: &str) -> String {
        let csp = content_security_policy(public_url);
        let csp = csp.to_str().unwrap().to_owned();
        let d = csp.split(';').map(str::trim).find(|d| d.starts_with("connect-src")).expect("connect-src");
        d.to_owned()
    }

    #[test]
    fn connect_src_is_this_site_and_its_public_websocket_origin_only() {
        assert_eq!(connect_src("https://chess.example.org"), "connect-src 'self' wss://chess.example.org");
        assert_eq!(connect_src("https://Chess.example.org:443/"), "connect-src 'self' wss://chess.example.org");
        assert_eq!(connect_src("http://127.0.0.1:8080"), "connect-src 'self' ws://127.0.0.1:8080");
        assert_eq!(connect_src("http://[::1]:80/base"), "connect-src 'self' ws://[::1]");
        // Anything odd adds nothing: never a bare scheme, never a second directive.
        for odd in
            ["", "chess.example.org", "ftp://x", "https://", "https://a; script-src *", "http://a b", "https://*"]
        {
            assert_eq!(connect_src(odd), "connect-src 'self'", "{odd:?}");
        }
        for url in ["https://chess.example.org", "http://127.0.0.1:8080", ""] {
            let csp = content_security_policy(url);
            let csp = csp.to_str().unwrap();
            let sources: Vec<&str> = csp.split([';', ' ']).collect();
            assert!(!sources.contains(&"ws:") && !sources.contains(&"wss:"), "a bare ws:/wss: in {csp}");
            assert!(csp.contains("default-src 'self'") && csp.contains("frame-ancestors 'none'"), "{csp}");
        }
    }
}
