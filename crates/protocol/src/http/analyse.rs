// SPDX-License-Identifier: GPL-3.0-or-later
//! The engine's one-off analysis of a position (`POST /api/analyse`) and the name of the opening a line reaches
//! (`GET /api/opening?moves=e2e4,e7e5`). The continuous analysis of the analysis board is a WebSocket of its own
//! ([`crate::analysis`]).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::Color;
use crate::analysis::EngineScore;

/// The body of `POST /api/analyse`; unknown fields are refused.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct AnalyseRequest {
    /// The position (default: the standard start).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub fen: Option<String>,
    /// Moves played from it, in UCI.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub moves: Option<Vec<String>>,
    /// Depth limit, 1–30 (default 14).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub depth: Option<u32>,
    /// Lines, 1–5 (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub multipv: Option<usize>,
    /// Time limit in ms, at most 5,000 (default 1,000).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub movetime_ms: Option<u64>,
}

/// One line of the engine, best first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AnalyseLine {
    pub depth: u32,
    pub score: EngineScore,
    /// The moves in UCI, then the same in SAN.
    pub pv: Vec<String>,
    pub pv_san: Vec<String>,
    /// Nodes searched.
    pub nodes: u64,
}

/// `POST /api/analyse`: the engine's lines for the position after the moves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AnalyseAnswer {
    /// The position analysed.
    pub fen: String,
    /// The side to move.
    pub turn: Color,
    /// The best line's depth (0 when the position has no legal move).
    pub depth: u32,
    /// Empty when the position has no legal move.
    pub lines: Vec<AnalyseLine>,
    /// The best move (UCI), the first of the best line.
    pub bestmove: Option<String>,
    /// The search was cut short by a newer analysis of the same user (it answers with what it had).
    pub stopped: bool,
}

/// `GET /api/opening`: the opening a line reaches (`null` when none is known).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct OpeningName {
    pub eco: String,
    pub name_en: String,
    pub name_zh: String,
    /// The opening's length in plies.
    pub ply: u32,
}
