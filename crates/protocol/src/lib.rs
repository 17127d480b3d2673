//! guoxiang-protocol: the typed WebSocket protocol between the game server and the web UI.
//!
//! JSON text frames, one message each, tagged with a `t` field in snake_case: [`ClientMessage`] from the browser,
//! [`ServerMessage`] to it. The client opens with `hello` ([`PROTOCOL_VERSION`]); every client message carries a
//! client-chosen `id`, answered once by `ack`, `error` (stable `code`, zh/en messages) or a typed reply. Game
//! actions are `guoxiang-game`'s [`Action`] (one type from the wire to the game's rules), game
//! events are `guoxiang-game`'s versioned events, so a reconnecting client sends `subscribe` with the last version
//! it saw and gets what it missed, or a snapshot. The full description, with examples, is `docs/api.md`.
//!
//! The TypeScript types of `web/src/protocol.ts` are generated from these types ([`typescript`]; regenerate with
//! `cargo run -p guoxiang-protocol --bin gen-ts`; a test fails when the committed file is stale). The crate also
//! holds the types of the analysis board's WebSocket ([`analysis`]), of the review endpoints ([`review`]) and of the
//! rest of the server's own HTTP API ([`http`]), each generated into a file of its own.
//!
//! ```
//! use guoxiang_protocol::{Action, ClientMessage, ServerMessage, parse_client_frame};
//!
//! let frame = r#"{"t":"game","id":7,"game_id":"abcd1234","action":{"t":"move","uci":"e2e4"}}"#;
//! let msg = parse_client_frame(frame).unwrap();
//! assert!(matches!(msg, ClientMessage::Game { id: 7, action: Action::Move { offer_draw: false, .. }, lag_ms: 0, .. }));
//! assert_eq!(ServerMessage::Ack { id: msg.id() }.to_json(), r#"{"t":"ack","id":7}"#);
//! ```

#![forbid(unsafe_code)]

pub mod analysis;
mod client;
mod codes;
mod error;
pub mod http;
pub mod review;
mod server;
mod ts;
mod wire;

pub use analysis::{TS_ANALYSIS_OUTPUT_PATH, analysis_typescript};
pub use client::ClientMessage;
pub use codes::{AbortReasonCode, ErrorCode, GameResult, ReasonCode, TerminationCode};
pub use error::{PROTOCOL_ERROR_CODES, ProtocolError};
pub use http::{TS_HTTP_OUTPUT_PATH, http_typescript};
pub use review::{TS_REVIEW_OUTPUT_PATH, review_typescript};
pub use server::{Challenge, ChallengeStatus, LiveGame, PoolSize, Seek, ServerMessage, StudyShape};
pub use ts::{TS_OUTPUT_PATH, typescript};
pub use wire::{
    AdjournmentInfo, ArbiterNote, ClaimKind, Clocks, Color, ColorChoice, DisputeInfo, GameEvent, GameSnapshot,
    GameStatus, IllegalMoveReason, Lang, MoveInfo, Player, PromotionRole, StartChoice, Variant, VersionedGameEvent,
};

/// What a player asks of a game, carried by [`ClientMessage::Game`] as the game crate defines it.
pub use guoxiang_game::{Action, ArbiterAct, MoveInput};

/// The version of this protocol. Bumped on any change a deployed client could not handle; the server refuses a
/// `hello` with another version (`unsupported_protocol`), and the UI reloads.
pub const PROTOCOL_VERSION: u32 = 3;

/// The largest client frame the server reads, in bytes (64 KiB). Larger frames are refused before parsing.
pub const MAX_CLIENT_FRAME_BYTES: usize = 64 * 1024;

/// Checks a client frame's size ([`MAX_CLIENT_FRAME_BYTES`]) without looking at its content.
pub fn check_frame_size(frame: &str) -> Result<(), ProtocolError> {
    if frame.len() > MAX_CLIENT_FRAME_BYTES {
        return Err(ProtocolError::FrameTooLarge { len: frame.len() });
    }
    Ok(())
}

/// Reads one client frame: checks its size, then parses it. A frame that is not a client message gives
/// [`ProtocolError::BadMessage`] with the JSON reader's explanation and, if the frame has a numeric `id`, that id
/// (so the error answer can carry it). Never panics.
pub fn parse_client_frame(frame: &str) -> Result<ClientMessage, ProtocolError> {
    check_frame_size(frame)?;
    serde_json::from_str(frame).map_err(|e| {
        let id = serde_json::from_str::<serde_json::Value>(frame)
            .ok()
            .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
            .and_then(|id| u32::try_from(id).ok());
        ProtocolError::BadMessage { id, detail: e.to_string() }
    })
}
