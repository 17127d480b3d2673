//! Protocol-level errors: a frame the server cannot take as a client message, or a message it cannot carry out
//! for reasons outside the game's rules. Refusals by the game itself use `CommandError::code`.

use core::fmt;

use guoxiang_core::Text;

use crate::{MAX_CLIENT_FRAME_BYTES, PROTOCOL_VERSION};

/// Every code [`ProtocolError::code`] can return. The game's own refusals (`not_your_turn`, `illegal_move`, …) are
/// `guoxiang_game::CommandError::code`s; both sets are listed in `docs/api.md`.
pub const PROTOCOL_ERROR_CODES: [&str; 7] = [
    "frame_too_large",
    "bad_message",
    "unsupported_protocol",
    "hello_required",
    "unknown_game",
    "not_a_player",
    "bad_request",
];

/// Why the server refused a frame or a message before it reached a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// The frame is larger than [`MAX_CLIENT_FRAME_BYTES`]; it was not parsed.
    FrameTooLarge { len: usize },
    /// The frame is not a valid client message: `detail` is the JSON reader's explanation (unknown `t`, missing or
    /// unknown field, wrong type, with line and column). `id` is the message's id if one could be read.
    BadMessage { id: Option<u32>, detail: String },
    /// The client speaks another protocol version.
    UnsupportedProtocol { client: u32 },
    /// A message other than `hello` came first.
    HelloRequired,
    /// No such game (or it is no longer in memory).
    UnknownGame { game_id: String },
    /// A game command from someone who does not play in that game.
    NotAPlayer { game_id: String },
    /// A message whose content is invalid (a bad time control, a square that is not a square, …).
    BadRequest { detail: String },
}

impl ProtocolError {
    /// A stable code, one of [`PROTOCOL_ERROR_CODES`].
    pub fn code(&self) -> &'static str {
        match self {
            ProtocolError::FrameTooLarge { .. } => "frame_too_large",
            ProtocolError::BadMessage { .. } => "bad_message",
            ProtocolError::UnsupportedProtocol { .. } => "unsupported_protocol",
            ProtocolError::HelloRequired => "hello_required",
            ProtocolError::UnknownGame { .. } => "unknown_game",
            ProtocolError::NotAPlayer { .. } => "not_a_player",
            ProtocolError::BadRequest { .. } => "bad_request",
        }
    }

    /// The id of the message concerned, when it could be read.
    pub fn id(&self) -> Option<u32> {
        match self {
            ProtocolError::BadMessage { id, .. } => *id,
            _ => None,
        }
    }

    /// The message in both languages.
    pub fn text(&self) -> Text {
        let (zh, en) = match self {
            ProtocolError::FrameTooLarge { len } => (
                format!("消息太长（{len} 字节，上限 {MAX_CLIENT_FRAME_BYTES} 字节）"),
                format!("message too large ({len} bytes, the limit is {MAX_CLIENT_FRAME_BYTES})"),
            ),
            ProtocolError::BadMessage { detail, .. } => {
                (format!("无法识别的消息：{detail}"), format!("invalid message: {detail}"))
            }
            ProtocolError::UnsupportedProtocol { client } => (
                format!("协议版本 {client} 不受支持（服务器版本 {PROTOCOL_VERSION}），请刷新页面"),
                format!(
                    "protocol version {client} is not supported (the server speaks {PROTOCOL_VERSION}); reload the page"
                ),
            ),
            ProtocolError::HelloRequired => {
                ("连接后须先发送 hello".to_owned(), "the first message must be hello".to_owned())
            }
            ProtocolError::UnknownGame { game_id } => {
                (format!("找不到对局 {game_id}"), format!("no such game: {game_id}"))
            }
            ProtocolError::NotAPlayer { game_id } => {
                (format!("你不是对局 {game_id} 的棋手"), format!("you are not playing in game {game_id}"))
            }
            ProtocolError::BadRequest { detail } => {
                (format!("请求无效：{detail}"), format!("invalid request: {detail}"))
            }
        };
        Text { zh, en }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text().en)
    }
}

impl std::error::Error for ProtocolError {}
