//! The server's address and a minimal HTTP/1.1 client: guest identities (`POST /api/guest`) and the few API
//! requests of the class scenario (JSON bodies, the session cookie).
//!
//! One request per connection (`Connection: close`), read to the end, so no keep-alive or pipelining is needed;
//! the answer may carry a `Content-Length` or be chunked.

use std::io;
use std::net::SocketAddr;
use std::time::Duration;

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// The name of the session cookie.
pub(crate) const SESSION_COOKIE: &str = "gx_session";

/// The largest guest answer read, in bytes: far above the few hundred bytes expected.
const MAX_RESPONSE_BYTES: u64 = 1 << 20;

/// A parsed `http://HOST[:PORT][/PREFIX]` base URL.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BaseUrl {
    /// `HOST:PORT` as written (port added when missing), for resolving and for the `Host` header.
    pub authority: String,
    /// The path the server is mounted under, without a trailing slash (usually empty).
    pub prefix: String,
}

impl BaseUrl {
    /// Reads a base URL. Only plain `http://` is supported: the load test runs on loopback.
    pub fn parse(url: &str) -> Result<BaseUrl, String> {
        let url = url.trim();
        let lower = url.to_ascii_lowercase();
        let rest = if lower.starts_with("http://") {
            &url["http://".len()..]
        } else if lower.starts_with("https://") {
            return Err(format!("{url}: https is not supported, use http:// (the load test runs on loopback)"));
        } else {
            return Err(format!("{url}: expected a base URL like http://127.0.0.1:8080"));
        };
        let (authority, path) = match rest.find(['/', '?', '#']) {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if path.contains(['?', '#']) {
            return Err(format!("{url}: a base URL has no query or fragment"));
        }
        if authority.is_empty() || authority.contains('@') {
            return Err(format!("{url}: expected a base URL like http://127.0.0.1:8080"));
        }
        let port = if let Some(stripped) = authority.strip_prefix('[') {
            let Some(end) = stripped.find(']') else {
                return Err(format!("{url}: unclosed '[' in the host"));
            };
            match &stripped[end + 1..] {
                "" => None,
                p => Some(p.strip_prefix(':').ok_or_else(|| format!("{url}: bad port"))?),
            }
        } else {
            authority.rsplit_once(':').map(|(_, p)| p)
        };
        let authority = match port {
            Some(p) => {
                p.parse::<u16>().map_err(|_| format!("{url}: bad port {p:?}"))?;
                authority.to_owned()
            }
            None => format!("{authority}:80"),
        };
        Ok(BaseUrl { authority, prefix: path.trim_end_matches('/').to_owned() })
    }

    /// The WebSocket URL, `ws://HOST:PORT/PREFIX/ws`.
    pub fn ws_url(&self) -> String {
        format!("ws://{}{}/ws", self.authority, self.prefix)
    }
}

/// A guest identity: the answer to `POST /api/guest`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Guest {
    pub user_id: String,
    /// The session secret, sent back as the `gx_session` cookie.
    pub session: String,
}

/// A short description of a connection failure: `connection refused`, `timed out`, or the system's message.
pub(crate) fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::ConnectionRefused => "connection refused".to_owned(),
        io::ErrorKind::TimedOut => "timed out".to_owned(),
        io::ErrorKind::ConnectionReset => "connection reset".to_owned(),
        _ => e.to_string(),
    }
}

/// Loopback source addresses the connections are spread over (127.0.0.1 … 127.0.0.64): the server caps
/// connections per client address, and thousands of simulated players on one machine are not one client.
const LOOPBACK_SOURCES: u32 = 64;

async fn connect_spread(addr: SocketAddr) -> std::io::Result<TcpStream> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(0);
    match addr {
        SocketAddr::V4(v4) if v4.ip().is_loopback() => {
            let n = NEXT.fetch_add(1, Ordering::Relaxed) % LOOPBACK_SOURCES;
            let socket = tokio::net::TcpSocket::new_v4()?;
            socket.bind(SocketAddr::from(([127, 0, 0, 1 + n as u8], 0)))?;
            socket.connect(addr).await
        }
        _ => TcpStream::connect(addr).await,
    }
}

/// Opens a TCP connection with a timeout and Nagle's algorithm off (small request/answer frames).
pub(crate) async fn connect_tcp(addr: SocketAddr, timeout: Duration) -> Result<TcpStream, String> {
    match tokio::time::timeout(timeout, connect_spread(addr)).await {
        Err(_) => Err(format!("connecting to {addr} timed out")),
        Ok(Err(e)) => Err(format!("cannot connect to {addr}: {}", describe_io(&e))),
        Ok(Ok(stream)) => {
            // Best effort: latency figures are a little worse without it, nothing breaks.
            let _ = stream.set_nodelay(true);
            Ok(stream)
        }
    }
}

/// One request on a connection of its own (`Connection: close`): the raw answer, read to the end. `what` names the
/// request in errors (`POST /api/guest`).
async fn exchange(addr: SocketAddr, request: &str, what: &str, timeout: Duration) -> Result<Vec<u8>, String> {
    let run = async {
        let mut stream = connect_tcp(addr, timeout).await?;
        stream.write_all(request.as_bytes()).await.map_err(|e| format!("{what}: {}", describe_io(&e)))?;
        let mut raw = Vec::new();
        (&mut stream)
            .take(MAX_RESPONSE_BYTES)
            .read_to_end(&mut raw)
            .await
            .map_err(|e| format!("{what}: {}", describe_io(&e)))?;
        Ok(raw)
    };
    tokio::time::timeout(timeout, run)
        .await
        .unwrap_or_else(|_| Err(format!("{what}: no answer within {} s", timeout.as_secs())))
}

/// Asks the server for a new guest identity: `POST {base}/api/guest` with no body.
pub(crate) async fn post_guest(addr: SocketAddr, base: &BaseUrl, timeout: Duration) -> Result<Guest, String> {
    let request = format!(
        "POST {}/api/guest HTTP/1.1\r\nHost: {}\r\nContent-Length: 0\r\nAccept: application/json\r\n\
         User-Agent: guoxiang-loadtest\r\nConnection: close\r\n\r\n",
        base.prefix, base.authority
    );
    parse_guest_response(&exchange(addr, &request, "POST /api/guest", timeout).await?)
}

/// A raw HTTP answer, read: its status, body (de-chunked) and the session cookie it set, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Response {
    pub status: u16,
    pub status_line: String,
    pub body: Vec<u8>,
    pub session_cookie: Option<String>,
}

impl Response {
    /// The body as JSON (`what` names the request in the error).
    pub fn json(&self, what: &str) -> Result<serde_json::Value, String> {
        serde_json::from_slice(&self.body).map_err(|e| format!("{what}: the answer is not JSON: {e}"))
    }

    /// An error for an answer that is not 2xx: the status line and the start of the body.
    pub fn refused(&self, what: &str) -> String {
        let text = String::from_utf8_lossy(&self.body);
        let shown: String = text.trim().chars().take(200).collect();
        if shown.is_empty() {
            format!("{what} answered {}", self.status_line)
        } else {
            format!("{what} answered {}: {shown}", self.status_line)
        }
    }
}

/// Reads a raw HTTP answer; `what` names the request in errors (`POST /api/guest`).
pub(crate) fn read_response(raw: &[u8], what: &str) -> Result<Response, String> {
    let Some(head_end) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return Err(if raw.is_empty() {
            format!("{what}: the server closed the connection without answering")
        } else {
            format!("{what}: incomplete HTTP answer")
        });
    };
    let head = std::str::from_utf8(&raw[..head_end]).map_err(|_| format!("{what}: unreadable HTTP header"))?;
    let body = &raw[head_end + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let mut parts = status_line.splitn(3, ' ');
    let (version, code) = (parts.next().unwrap_or_default(), parts.next().unwrap_or_default());
    if !version.starts_with("HTTP/1.") {
        return Err(format!("{what}: not an HTTP answer: {status_line:?}"));
    }
    let status: u16 = code.parse().map_err(|_| format!("{what}: bad status line {status_line:?}"))?;
    let mut content_length = None;
    let mut chunked = false;
    let mut session_cookie = None;
    for line in lines {
        let Some((name, value)) = line.split_once(':') else { continue };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => content_length = value.parse::<usize>().ok(),
            "transfer-encoding" => chunked = value.to_ascii_lowercase().contains("chunked"),
            "set-cookie" => {
                let first = value.split(';').next().unwrap_or_default();
                if let Some((k, v)) = first.split_once('=')
                    && k.trim() == SESSION_COOKIE
                    && !v.trim().is_empty()
                {
                    session_cookie = Some(v.trim().to_owned());
                }
            }
            _ => {}
        }
    }
    let body = if chunked {
        dechunk(body).map_err(|e| format!("{what}: {e}"))?
    } else if let Some(n) = content_length {
        body.get(..n).ok_or(format!("{what}: the answer is shorter than its Content-Length"))?.to_vec()
    } else {
        body.to_vec()
    };
    Ok(Response { status, status_line: status_line.to_owned(), body, session_cookie })
}

/// Reads the raw HTTP answer to `POST /api/guest`: status 2xx, a JSON body `{"user":{"id":…},"session":…}`. The
/// session may also come only as the `gx_session` cookie.
pub(crate) fn parse_guest_response(raw: &[u8]) -> Result<Guest, String> {
    parse_auth_answer(&read_response(raw, "POST /api/guest")?, "POST /api/guest")
}

/// Reads an answer that opens a session (`POST /api/guest`, `/api/register`, `/api/login`): 2xx and
/// `{"user":{"id":…},"session":…}`, the session possibly only as the cookie.
pub(crate) fn parse_auth_answer(r: &Response, what: &str) -> Result<Guest, String> {
    if !(200..300).contains(&r.status) {
        return Err(r.refused(what));
    }
    let json = r.json(what)?;
    let user_id = json
        .get("user")
        .and_then(|u| u.get("id"))
        .and_then(serde_json::Value::as_str)
        .ok_or(format!("{what}: the answer has no user.id"))?
        .to_owned();
    let session = json
        .get("session")
        .and_then(serde_json::Value::as_str)
        .map(str::to_owned)
        .or_else(|| r.session_cookie.clone())
        .filter(|s| !s.is_empty())
        .ok_or(format!("{what}: the answer has neither a session nor a gx_session cookie"))?;
    if !session.bytes().all(|b| b.is_ascii_graphic() && b != b';' && b != b',') {
        return Err(format!("{what}: the session is not a valid cookie value"));
    }
    Ok(Guest { user_id, session })
}

/// One API request on a connection of its own: `METHOD {base}{path}`, with the session cookie and a JSON body
/// when given. Any status is an answer; only a failure to get one is an error.
pub(crate) async fn call(
    addr: SocketAddr,
    base: &BaseUrl,
    method: &str,
    path: &str,
    session: Option<&str>,
    body: Option<&serde_json::Value>,
    timeout: Duration,
) -> Result<Response, String> {
    let what = format!("{method} {path}");
    let cookie = session.map(|s| format!("Cookie: {SESSION_COOKIE}={s}\r\n")).unwrap_or_default();
    let body = body.map(serde_json::Value::to_string).unwrap_or_default();
    let content_type = if body.is_empty() { "" } else { "Content-Type: application/json\r\n" };
    let request = format!(
        "{method} {}{path} HTTP/1.1\r\nHost: {}\r\n{cookie}{content_type}Content-Length: {}\r\n\
         Accept: application/json\r\nUser-Agent: guoxiang-loadtest\r\nConnection: close\r\n\r\n{body}",
        base.prefix,
        base.authority,
        body.len()
    );
    read_response(&exchange(addr, &request, &what, timeout).await?, &what)
}

/// Decodes a chunked body (RFC 9112 §7.1), ignoring chunk extensions and trailers.
fn dechunk(mut data: &[u8]) -> Result<Vec<u8>, String> {
    let bad = || "bad chunked body".to_owned();
    let mut out = Vec::new();
    loop {
        let line_end = data.windows(2).position(|w| w == b"\r\n").ok_or_else(bad)?;
        let line = std::str::from_utf8(&data[..line_end]).map_err(|_| bad())?;
        let size_text = line.split(';').next().unwrap_or_default().trim();
        let size = usize::from_str_radix(size_text, 16).map_err(|_| bad())?;
        data = &data[line_end + 2..];
        if size == 0 {
            return Ok(out);
        }
        let chunk = data.get(..size).ok_or_else(bad)?;
        out.extend_from_slice(chunk);
        data = data.get(size..).and_then(|d| d.strip_prefix(b"\r\n")).ok_or_else(bad)?;
    }
}

/// `GET {base}{path}` and its JSON answer (2xx only).
pub(crate) async fn get_json(
    addr: SocketAddr,
    base: &BaseUrl,
    path: &str,
    timeout: Duration,
) -> Result<serde_json::Value, String> {
    let body = get_body(addr, base, path, timeout).await?;
    serde_json::from_slice(&body).map_err(|e| format!("GET {path}: the answer is not JSON: {e}"))
}

/// `GET {base}{path}` and its body (2xx only). These are the server's figures: sent with the metrics token when
/// `GUOXIANG_METRICS_TOKEN` holds one (the server's `--metrics-token`).
pub(crate) async fn get_body(
    addr: SocketAddr,
    base: &BaseUrl,
    path: &str,
    timeout: Duration,
) -> Result<Vec<u8>, String> {
    let token = std::env::var("GUOXIANG_METRICS_TOKEN")
        .ok()
        .map(|t| t.trim().to_owned())
        .filter(|t| !t.is_empty() && !t.contains(['\r', '\n']))
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default();
    let request = format!(
        "GET {}{path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: guoxiang-loadtest\r\n{token}Connection: close\r\n\r\n",
        base.prefix, base.authority
    );
    let raw = exchange(addr, &request, &format!("GET {path}"), timeout).await?;
    let head_end = raw.windows(4).position(|w| w == b"\r\n\r\n").ok_or(format!("GET {path}: no HTTP answer"))?;
    let head = String::from_utf8_lossy(&raw[..head_end]).into_owned();
    let status = head.split(' ').nth(1).unwrap_or_default();
    if !status.starts_with('2') {
        return Err(format!("GET {path} answered {}", head.lines().next().unwrap_or_default()));
    }
    let body = &raw[head_end + 4..];
    if head.to_ascii_lowercase().contains("transfer-encoding: chunked") {
        dechunk(body).map_err(|e| format!("GET {path}: {e}"))
    } else {
        Ok(body.to_vec())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base_urls() {
        let b = BaseUrl::parse("http://127.0.0.1:8080").unwrap();
        assert_eq!(b, BaseUrl { authority: "127.0.0.1:8080".into(), prefix: String::new() });
        assert_eq!(b.ws_url(), "ws://127.0.0.1:8080/ws");
        let b = BaseUrl::parse("HTTP://localhost/chess/").unwrap();
        assert_eq!(b, BaseUrl { authority: "localhost:80".into(), prefix: "/chess".into() });
        assert_eq!(b.ws_url(), "ws://localhost:80/chess/ws");
        let b = BaseUrl::parse("http://[::1]:9000/").unwrap();
        assert_eq!(b.authority, "[::1]:9000");
        assert_eq!(BaseUrl::parse("http://[::1]").unwrap().authority, "[::1]:80");
        assert!(BaseUrl::parse("https://example.org").unwrap_err().contains("https is not supported"));
        assert!(BaseUrl::parse("127.0.0.1:8080").is_err());
        assert!(BaseUrl::parse("http://").is_err());
        assert!(BaseUrl::parse("http://host:99999").unwrap_err().contains("bad port"));
        assert!(BaseUrl::parse("http://host:8080/?x=1").is_err());
    }

    const BODY: &str =
        r#"{"user":{"id":"u17","name":"Guest 17","is_engine":false,"engine_level":null},"session":"s3cr3t"}"#;

    #[test]
    fn guest_answer_with_content_length() {
        let raw = format!(
            "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nset-cookie: gx_session=s3cr3t; Path=/; HttpOnly\r\n\
             content-length: {}\r\n\r\n{BODY}",
            BODY.len()
        );
        let g = parse_guest_response(raw.as_bytes()).unwrap();
        assert_eq!(g, Guest { user_id: "u17".into(), session: "s3cr3t".into() });
    }

    #[test]
    fn guest_answer_chunked_and_session_from_cookie_only() {
        let body = r#"{"user":{"id":"u2","name":"Guest 2"}}"#;
        let (a, b) = body.split_at(10);
        let raw = format!(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: other=1\r\nSet-Cookie: gx_session=abc; Path=/\r\n\r\n\
             {:x}\r\n{a}\r\n{:x};ext=1\r\n{b}\r\n0\r\n\r\n",
            a.len(),
            b.len()
        );
        let g = parse_guest_response(raw.as_bytes()).unwrap();
        assert_eq!(g, Guest { user_id: "u2".into(), session: "abc".into() });
    }

    #[test]
    fn guest_answer_without_length_reads_to_the_end() {
        let raw = format!("HTTP/1.0 201 Created\r\n\r\n{BODY}");
        assert_eq!(parse_guest_response(raw.as_bytes()).unwrap().session, "s3cr3t");
    }

    #[test]
    fn guest_answer_errors_say_what_was_wrong() {
        let e = parse_guest_response(b"HTTP/1.1 404 Not Found\r\ncontent-length: 9\r\n\r\nnot found").unwrap_err();
        assert_eq!(e, "POST /api/guest answered HTTP/1.1 404 Not Found: not found");
        let e = parse_guest_response(b"").unwrap_err();
        assert!(e.contains("without answering"), "{e}");
        let e = parse_guest_response(b"HTTP/1.1 200 OK\r\n\r\n<html>").unwrap_err();
        assert!(e.contains("not JSON"), "{e}");
        let e = parse_guest_response(b"HTTP/1.1 200 OK\r\n\r\n{\"user\":{\"id\":\"u1\"}}").unwrap_err();
        assert!(e.contains("neither a session"), "{e}");
        let e = parse_guest_response(b"HTTP/1.1 200 OK\r\n\r\n{\"session\":\"x\"}").unwrap_err();
        assert!(e.contains("no user.id"), "{e}");
        let e =
            parse_guest_response(b"HTTP/1.1 200 OK\r\n\r\n{\"user\":{\"id\":\"u1\"},\"session\":\"a;b\"}").unwrap_err();
        assert!(e.contains("not a valid cookie"), "{e}");
        assert!(parse_guest_response(b"SSH-2.0-OpenSSH\r\n\r\n").unwrap_err().contains("not an HTTP answer"));
    }

    #[test]
    fn api_answers_are_read_whatever_their_status() {
        let raw = b"HTTP/1.1 201 Created\r\nSet-Cookie: gx_session=k1; Path=/\r\nContent-Length: 8\r\n\r\n{\"id\":7}xx";
        let r = read_response(raw, "POST /api/class").unwrap();
        assert_eq!((r.status, r.session_cookie.as_deref()), (201, Some("k1")));
        assert_eq!(r.json("POST /api/class").unwrap()["id"], 7);
        let raw = b"HTTP/1.1 429 Too Many Requests\r\n\r\n{\"code\":\"rate_limited\"}";
        let r = read_response(raw, "POST /api/puzzle/x/try").unwrap();
        assert_eq!(
            r.refused("POST /api/puzzle/x/try"),
            "POST /api/puzzle/x/try answered HTTP/1.1 429 Too Many Requests: {\"code\":\"rate_limited\"}"
        );
        let e = parse_auth_answer(&r, "POST /api/login").unwrap_err();
        assert!(e.starts_with("POST /api/login answered HTTP/1.1 429"), "{e}");
        assert!(read_response(b"", "GET /x").unwrap_err().contains("GET /x: the server closed"));
    }

    #[test]
    fn io_errors_are_described_briefly() {
        let e = io::Error::from(io::ErrorKind::ConnectionRefused);
        assert_eq!(describe_io(&e), "connection refused");
    }
}
