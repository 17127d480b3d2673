//! One player's WebSocket connection: opening it with the session cookie, sending client messages, reading and
//! classifying server frames, and request/answer exchanges for the set-up steps.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use guoxiang_protocol::{ClientMessage, ServerMessage};
use tokio::net::TcpStream;
use tokio::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::http::header::COOKIE;
use tokio_tungstenite::tungstenite::{self, Message};
use tokio_tungstenite::{WebSocketStream, client_async};

use crate::http::{BaseUrl, SESSION_COOKIE, connect_tcp};

/// What reading one frame gave.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A server message.
    Message(Box<ServerMessage>),
    /// A control frame (ping, pong): nothing to do.
    Nothing,
    /// A frame that is not a server message; the connection goes on.
    Unreadable(String),
    /// The connection is gone.
    Closed(String),
}

impl Incoming {
    /// Classifies what the WebSocket stream yielded.
    pub fn from_item(item: Option<Result<Message, tungstenite::Error>>) -> Incoming {
        match item {
            None => Incoming::Closed("disconnected: the connection closed".to_owned()),
            Some(Err(e)) => Incoming::Closed(format!("disconnected: {}", describe_ws(&e))),
            Some(Ok(Message::Text(text))) => Incoming::from_text(text.as_str()),
            Some(Ok(Message::Binary(_))) => Incoming::Unreadable("unexpected binary frame from the server".to_owned()),
            Some(Ok(Message::Close(frame))) => Incoming::Closed(match frame {
                Some(f) if !f.reason.is_empty() => format!("disconnected: closed by the server ({})", f.reason),
                _ => "disconnected: closed by the server".to_owned(),
            }),
            Some(Ok(Message::Ping(_) | Message::Pong(_) | Message::Frame(_))) => Incoming::Nothing,
        }
    }

    /// Parses a text frame.
    pub fn from_text(text: &str) -> Incoming {
        match serde_json::from_str::<ServerMessage>(text) {
            Ok(m) => Incoming::Message(Box::new(m)),
            Err(e) => {
                let t = text.split_once(',').map_or(text, |(t, _)| t);
                let shown: String = t.chars().take(60).collect();
                Incoming::Unreadable(format!("unreadable server message ({e}) starting {shown}"))
            }
        }
    }
}

fn describe_ws(e: &tungstenite::Error) -> String {
    match e {
        tungstenite::Error::Io(io) => crate::http::describe_io(io),
        tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed => "the connection closed".to_owned(),
        tungstenite::Error::Protocol(p) => format!("protocol error: {p}"),
        other => other.to_string(),
    }
}

/// The id a server message answers, if it is an answer (`ack`, `error` with an id, or a typed reply).
pub(crate) fn answer_id(m: &ServerMessage) -> Option<u32> {
    match m {
        ServerMessage::Ack { id }
        | ServerMessage::Error { id: Some(id), .. }
        | ServerMessage::Hello { id, .. }
        | ServerMessage::Pong { id, .. }
        | ServerMessage::Explanation { id, .. }
        | ServerMessage::SeekCreated { id, .. }
        | ServerMessage::ChallengeCreated { id, .. } => Some(*id),
        _ => None,
    }
}

/// A server `error` answer as a short, id-free sentence (so that repeated errors group in the samples).
pub(crate) fn describe_error(what: &str, m: &ServerMessage) -> String {
    match m {
        ServerMessage::Error { code, message_en, .. } => format!("{what} refused: {code} ({message_en})"),
        _ => format!("{what}: unexpected answer"),
    }
}

/// An open, authenticated WebSocket connection.
#[derive(Debug)]
pub(crate) struct Conn {
    pub ws: WebSocketStream<TcpStream>,
    next_id: u32,
}

impl Conn {
    /// Opens `ws://…/ws` with the session cookie on the upgrade request.
    pub async fn open(addr: SocketAddr, base: &BaseUrl, session: &str, timeout: Duration) -> Result<Conn, String> {
        let mut request = base.ws_url().into_client_request().map_err(|e| format!("bad WebSocket URL: {e}"))?;
        let cookie = HeaderValue::from_str(&format!("{SESSION_COOKIE}={session}"))
            .map_err(|_| "the session is not a valid cookie value".to_owned())?;
        request.headers_mut().insert(COOKIE, cookie);
        let open = async {
            let stream = connect_tcp(addr, timeout).await?;
            let (ws, _) = client_async(request, stream)
                .await
                .map_err(|e| format!("WebSocket upgrade of /ws failed: {}", describe_ws(&e)))?;
            Ok::<_, String>(ws)
        };
        let ws = tokio::time::timeout(timeout, open)
            .await
            .map_err(|_| format!("WebSocket upgrade of /ws: no answer within {} s", timeout.as_secs()))??;
        Ok(Conn { ws, next_id: 1 })
    }

    /// A fresh message id.
    pub fn next_id(&mut self) -> u32 {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        id
    }

    /// Sends one client message.
    pub async fn send(&mut self, msg: &ClientMessage) -> Result<(), String> {
        let text = serde_json::to_string(msg).expect("client messages serialize");
        self.ws.send(Message::text(text)).await.map_err(|e| format!("disconnected: {}", describe_ws(&e)))
    }

    /// Reads the next server message; control frames are skipped. A frame that is not a server message is an
    /// error here: this is for the set-up steps, where anything unexpected makes the set-up fail.
    async fn recv(&mut self) -> Result<ServerMessage, String> {
        loop {
            match Incoming::from_item(self.ws.next().await) {
                Incoming::Message(m) => return Ok(*m),
                Incoming::Nothing => {}
                Incoming::Unreadable(e) | Incoming::Closed(e) => return Err(e),
            }
        }
    }

    /// Reads until `pick` returns something, within `timeout`; the messages before it go to `other`.
    pub async fn wait_for<T>(
        &mut self,
        what: &str,
        timeout: Duration,
        mut pick: impl FnMut(&ServerMessage) -> Option<T>,
        mut other: impl FnMut(ServerMessage),
    ) -> Result<T, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let m = tokio::time::timeout_at(deadline, self.recv())
                .await
                .map_err(|_| format!("timeout: no {what} within {} s", timeout.as_secs()))??;
            match pick(&m) {
                Some(t) => return Ok(t),
                None => other(m),
            }
        }
    }

    /// Sends the message `make(id)` and reads until its answer, which is returned unless it is an `error` (then a
    /// description). Messages before the answer go to `other`.
    pub async fn request(
        &mut self,
        what: &str,
        timeout: Duration,
        make: impl FnOnce(u32) -> ClientMessage,
        other: impl FnMut(ServerMessage),
    ) -> Result<ServerMessage, String> {
        let id = self.next_id();
        self.send(&make(id)).await?;
        let answer = self
            .wait_for(&format!("answer to {what}"), timeout, |m| (answer_id(m) == Some(id)).then(|| m.clone()), other)
            .await?;
        match answer {
            ServerMessage::Error { .. } => Err(describe_error(what, &answer)),
            a => Ok(a),
        }
    }

    /// Closes the connection politely, without waiting long.
    pub async fn close(mut self) {
        let _ = tokio::time::timeout(Duration::from_secs(1), self.ws.close(None)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_classified() {
        let m = Incoming::from_text(r#"{"t":"ack","id":5}"#);
        assert!(matches!(m, Incoming::Message(ref m) if answer_id(m) == Some(5)), "{m:?}");
        let m = Incoming::from_text(r#"{"t":"what","id":5}"#);
        assert!(matches!(m, Incoming::Unreadable(ref e) if e.contains(r#"starting {"t":"what""#)), "{m:?}");
        assert!(matches!(Incoming::from_item(None), Incoming::Closed(_)));
        assert!(matches!(Incoming::from_item(Some(Ok(Message::Ping(vec![1].into())))), Incoming::Nothing));
        assert!(matches!(
            Incoming::from_item(Some(Ok(Message::Close(None)))),
            Incoming::Closed(ref e) if e == "disconnected: closed by the server"
        ));
    }

    #[test]
    fn answers_and_errors() {
        let e = ServerMessage::Error {
            id: Some(9),
            code: "not_your_turn".into(),
            message_zh: "还没轮到你".into(),
            message_en: "not your turn".into(),
        };
        assert_eq!(answer_id(&e), Some(9));
        assert_eq!(describe_error("move", &e), "move refused: not_your_turn (not your turn)");
        let ServerMessage::Error { code, message_zh, message_en, .. } = e else { unreachable!() };
        let pushed = ServerMessage::Error { id: None, code, message_zh, message_en };
        assert_eq!(answer_id(&pushed), None);
        let started = ServerMessage::GameStarted { game_id: "g".into(), color: guoxiang_protocol::Color::White };
        assert_eq!(answer_id(&started), None);
    }
}
