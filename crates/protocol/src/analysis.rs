// SPDX-License-Identifier: GPL-3.0-or-later
//! The analysis board's engine stream (`GET /ws/analysis`): a WebSocket of its own, apart from the game protocol.
//!
//! The browser sends [`AnalysisClientMessage`]s: `analyse` a position (a FEN and moves played from it) with 1–5
//! lines, or `stop`. The server answers with [`AnalysisServerMessage`]s. Every message about a search carries the
//! `id` of the `analyse` that started it and the FEN of the position searched, so a client drops whatever is not
//! about the position it now shows. The order on the connection is a promise: a new `analyse` first stops the
//! running search (its `done` comes first), then `started` acknowledges the new one; nothing about an older search
//! follows `started`. `stop` is acknowledged once the search has ended (its `done` comes before the `ack`).
//!
//! A search deepens until it reaches its depth cap or its time cap (`started` says both), is stopped, or yields its
//! worker to other users' waiting analyses; `info` comes at most five times a second, and `done` always ends it
//! with the final lines. The TypeScript types are in `web/src/protocol_analysis.ts`
//! ([`analysis_typescript`]; `cargo run -p guoxiang-protocol --bin gen-ts` writes both files).

use serde::{Deserialize, Serialize};
use ts_rs::{Config, TS};

/// Where the TypeScript bindings of this module live, relative to the workspace root.
pub const TS_ANALYSIS_OUTPUT_PATH: &str = "web/src/protocol_analysis.ts";

/// The most lines (`multipv`) one search may ask for.
pub const MAX_MULTIPV: u8 = 5;

/// The deepest a search may be asked to go (and the default cap).
pub const MAX_ANALYSIS_DEPTH: u32 = 30;

/// The longest one search runs, in milliseconds (then it ends with `time_limit`; the client may start it again).
pub const MAX_ANALYSIS_MS: u64 = 60_000;

/// A message from the browser on `/ws/analysis`. `id` is the client's (a counter is fine); unknown fields are
/// refused.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "t", rename_all = "snake_case", deny_unknown_fields)]
pub enum AnalysisClientMessage {
    /// Analyse the position after `moves` (UCI) from `fen` (the standard start when absent), with `multipv` lines
    /// (1–5, default 1) up to `depth` (1–30, default 30). Stops the search running on this connection first.
    /// Answered with `started`, then `info`s and a `done`; or with `error`.
    Analyse {
        id: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        fen: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        moves: Option<Vec<String>>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        multipv: Option<u8>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        depth: Option<u32>,
    },
    /// Stop the running search (if any). Answered with `ack` once it has ended.
    Stop { id: u32 },
}

impl AnalysisClientMessage {
    /// The message's id.
    pub fn id(&self) -> u32 {
        match self {
            AnalysisClientMessage::Analyse { id, .. } | AnalysisClientMessage::Stop { id } => *id,
        }
    }
}

/// An evaluation from the point of view of the side to move: centipawns, or mate in `mate` moves (negative: the
/// side to move is mated).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(untagged)]
pub enum EngineScore {
    Cp { cp: i32 },
    Mate { mate: i32 },
}

/// One principal variation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AnalysisLine {
    /// 1 for the best line.
    pub multipv: u8,
    pub depth: u32,
    pub score: EngineScore,
    /// The moves in UCI, then the same in SAN.
    pub pv: Vec<String>,
    pub pv_san: Vec<String>,
}

/// Why a search ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisEnd {
    /// It reached its depth cap.
    DepthLimit,
    /// It ran for its time cap.
    TimeLimit,
    /// The client stopped it (`stop`, or a new `analyse`), or the connection closed.
    Stopped,
    /// The same user's newer analysis (another tab) needed the slot.
    Superseded,
    /// Other users' analyses were waiting for a worker; it gave its worker up after a while.
    Yielded,
    /// The position has no legal move.
    GameOver,
}

/// The `code` of an analysis `error`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum AnalysisErrorCode {
    /// The frame is not an analysis message (or too large, or binary).
    BadMessage,
    /// The FEN cannot be read or is not a legal position.
    BadFen,
    /// One of `moves` cannot be played.
    IllegalMove,
    /// A value out of range (`multipv`, `depth`, too many moves).
    BadRequest,
    /// Too many messages or analyses.
    RateLimited,
    /// The user has too many analyses waiting.
    AnalysisRunning,
    /// Every analysis worker is busy and the queue is full.
    Busy,
    Internal,
}

impl AnalysisErrorCode {
    /// Every value, in order.
    pub const ALL: [AnalysisErrorCode; 8] = [
        AnalysisErrorCode::BadMessage,
        AnalysisErrorCode::BadFen,
        AnalysisErrorCode::IllegalMove,
        AnalysisErrorCode::BadRequest,
        AnalysisErrorCode::RateLimited,
        AnalysisErrorCode::AnalysisRunning,
        AnalysisErrorCode::Busy,
        AnalysisErrorCode::Internal,
    ];

    /// The code as it is written on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            AnalysisErrorCode::BadMessage => "bad_message",
            AnalysisErrorCode::BadFen => "bad_fen",
            AnalysisErrorCode::IllegalMove => "illegal_move",
            AnalysisErrorCode::BadRequest => "bad_request",
            AnalysisErrorCode::RateLimited => "rate_limited",
            AnalysisErrorCode::AnalysisRunning => "analysis_running",
            AnalysisErrorCode::Busy => "busy",
            AnalysisErrorCode::Internal => "internal",
        }
    }

    /// The value for a code.
    pub fn parse(code: &str) -> Option<AnalysisErrorCode> {
        AnalysisErrorCode::ALL.into_iter().find(|c| c.as_str() == code)
    }
}

/// A message to the browser on `/ws/analysis`. `id` is always that of the `analyse` (or `stop`) concerned.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum AnalysisServerMessage {
    /// The search `id` is accepted: every earlier search of the connection has ended (nothing about them follows).
    /// `fen` is the position searched (after the moves); `depth` and `max_ms` are its caps.
    Started { id: u32, fen: String, multipv: u8, depth: u32, max_ms: u64 },
    /// The lines after a completed iteration (at most five a second). `nps` is nodes per second so far.
    Info { id: u32, fen: String, depth: u32, nodes: u64, nps: u64, time_ms: u64, lines: Vec<AnalysisLine> },
    /// The search `id` ended: why, and its final lines (empty when it found none).
    Done { id: u32, fen: String, reason: AnalysisEnd, depth: u32, nodes: u64, time_ms: u64, lines: Vec<AnalysisLine> },
    /// The `stop` `id` was carried out: no search is running.
    Ack { id: u32 },
    /// The message `id` was refused (`null`: the frame could not be read far enough to find one). A refused
    /// `analyse` leaves the running search alone; one refused after `started` (no worker for it) ends it.
    Error { id: Option<u32>, code: AnalysisErrorCode, message_zh: String, message_en: String },
}

impl AnalysisServerMessage {
    /// The JSON text of the message.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|_| {
            r#"{"t":"error","id":null,"code":"internal","message_zh":"内部错误","message_en":"internal error"}"#
                .to_owned()
        })
    }

    /// An `error` answer.
    pub fn error(id: Option<u32>, code: AnalysisErrorCode, zh: impl Into<String>, en: impl Into<String>) -> Self {
        AnalysisServerMessage::Error { id, code, message_zh: zh.into(), message_en: en.into() }
    }
}

/// Reads one analysis frame; the error (`bad_message`) says what is wrong with it and carries its `id` when one
/// could be read. Never panics.
pub fn parse_analysis_frame(frame: &str) -> Result<AnalysisClientMessage, AnalysisServerMessage> {
    if frame.len() > crate::MAX_CLIENT_FRAME_BYTES {
        return Err(AnalysisServerMessage::error(
            None,
            AnalysisErrorCode::BadMessage,
            format!("消息太长（{} 字节）", frame.len()),
            format!("message too large ({} bytes, the limit is {})", frame.len(), crate::MAX_CLIENT_FRAME_BYTES),
        ));
    }
    serde_json::from_str(frame).map_err(|e| {
        let id = serde_json::from_str::<serde_json::Value>(frame)
            .ok()
            .and_then(|v| v.get("id").and_then(serde_json::Value::as_u64))
            .and_then(|id| u32::try_from(id).ok());
        AnalysisServerMessage::error(
            id,
            AnalysisErrorCode::BadMessage,
            format!("无法识别的消息：{e}"),
            format!("invalid message: {e}"),
        )
    })
}

/// The contents of `web/src/protocol_analysis.ts`.
pub fn analysis_typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let decls = vec![
        (<AnalysisClientMessage as TS>::docs(), <AnalysisClientMessage as TS>::decl(&cfg)),
        (<AnalysisServerMessage as TS>::docs(), <AnalysisServerMessage as TS>::decl(&cfg)),
        (<EngineScore as TS>::docs(), <EngineScore as TS>::decl(&cfg)),
        (<AnalysisLine as TS>::docs(), <AnalysisLine as TS>::decl(&cfg)),
        (<AnalysisEnd as TS>::docs(), <AnalysisEnd as TS>::decl(&cfg)),
        (<AnalysisErrorCode as TS>::docs(), <AnalysisErrorCode as TS>::decl(&cfg)),
    ];
    let consts = [
        ("MAX_MULTIPV", MAX_MULTIPV.to_string()),
        ("MAX_ANALYSIS_DEPTH", MAX_ANALYSIS_DEPTH.to_string()),
        ("MAX_ANALYSIS_MS", MAX_ANALYSIS_MS.to_string()),
    ];
    crate::ts::bindings_file("crates/protocol/src/analysis.rs", &consts, decls)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_match_the_wire() {
        for c in AnalysisErrorCode::ALL {
            assert_eq!(serde_json::to_value(c).unwrap(), serde_json::Value::String(c.as_str().into()));
            assert_eq!(AnalysisErrorCode::parse(c.as_str()), Some(c));
        }
        assert_eq!(AnalysisErrorCode::parse("nope"), None);
        let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/analysis.md")).unwrap();
        for c in AnalysisErrorCode::ALL {
            assert!(doc.contains(&format!("`{}`", c.as_str())), "docs/analysis.md misses {}", c.as_str());
        }
    }

    #[test]
    fn messages_parse_and_bad_ones_say_why() {
        let m = parse_analysis_frame(r#"{"t":"analyse","id":3,"fen":"8/8/8/8/8/8/8/K1k5 w - - 0 1","multipv":2}"#);
        assert_eq!(
            m.unwrap(),
            AnalysisClientMessage::Analyse {
                id: 3,
                fen: Some("8/8/8/8/8/8/8/K1k5 w - - 0 1".into()),
                moves: None,
                multipv: Some(2),
                depth: None
            }
        );
        assert_eq!(parse_analysis_frame(r#"{"t":"stop","id":4}"#).unwrap().id(), 4);
        let Err(AnalysisServerMessage::Error { id, code, message_en, .. }) =
            parse_analysis_frame(r#"{"t":"analyse","id":5,"multipvv":2}"#)
        else {
            panic!("an unknown field is refused")
        };
        assert_eq!((id, code), (Some(5), AnalysisErrorCode::BadMessage));
        assert!(message_en.contains("multipvv"), "{message_en}");
        assert!(parse_analysis_frame("not json").is_err());
        let big = format!(r#"{{"t":"stop","id":1,"x":"{}"}}"#, "a".repeat(crate::MAX_CLIENT_FRAME_BYTES));
        assert!(parse_analysis_frame(&big).is_err());
    }

    #[test]
    fn server_messages_are_tagged_and_scores_untagged() {
        let m = AnalysisServerMessage::Info {
            id: 1,
            fen: "f".into(),
            depth: 2,
            nodes: 3,
            nps: 4,
            time_ms: 5,
            lines: vec![AnalysisLine {
                multipv: 1,
                depth: 2,
                score: EngineScore::Mate { mate: -3 },
                pv: vec!["e2e4".into()],
                pv_san: vec!["e4".into()],
            }],
        };
        let j = m.to_json();
        assert!(j.starts_with(r#"{"t":"info","id":1,"#), "{j}");
        assert!(j.contains(r#""score":{"mate":-3}"#), "{j}");
        assert_eq!(serde_json::from_str::<AnalysisServerMessage>(&j).unwrap(), m);
    }

    #[test]
    fn committed_typescript_is_up_to_date() {
        let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").join(TS_ANALYSIS_OUTPUT_PATH);
        let fresh = analysis_typescript();
        if std::env::var_os("GUOXIANG_BLESS").is_some() {
            std::fs::write(&path, &fresh).unwrap();
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(committed == fresh, "{} is stale: run `cargo run -p guoxiang-protocol --bin gen-ts`", path.display());
        for bad in [": any", "<any>", ": unknown", "bigint"] {
            assert!(!fresh.contains(bad), "found {bad:?} in the bindings");
        }
        assert!(fresh.contains("\"t\": \"started\""), "{fresh}");
    }
}
