// SPDX-License-Identifier: GPL-3.0-or-later
//! Profiles and the archive: `GET /api/user/{name}` (profile), `/api/user/{name}/rating-history`,
//! `/api/user/{name}/games` (a page of games in the Lichess export form, which `GET /api/games/user/{name}` with
//! `Accept: application/x-ndjson` and `GET /game/export/{id}` with `Accept: application/json` also write) and
//! `GET /api/game/{id}` (a game's state).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Perf;
use crate::Color;

/// `GET /api/user/{name}?format=guoxiang`: a user's public profile (without `format`, the answer has Lichess's shape).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Profile {
    pub id: String,
    pub username: String,
    pub guest: bool,
    /// ms since the Unix epoch.
    #[serde(rename = "createdAt")]
    pub created_at: i64,
    /// Ratings by speed (`bullet`, `blitz`, …); a speed not played yet is absent.
    pub perfs: BTreeMap<String, Perf>,
    /// 积分.
    pub points: i64,
    /// The 级别 the points reach (`null` below the first).
    pub level: Option<u8>,
    pub level_zh: String,
    pub level_en: String,
    pub count: GameCount,
    /// Connected now.
    pub online: bool,
    /// Ids of the games the user is playing now.
    pub playing: Vec<String>,
}

/// How many games a user has in the archive.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameCount {
    pub all: i64,
}

/// One point of `GET /api/user/{name}/rating-history?format=guoxiang`: the rating after a rated game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RatingPoint {
    pub speed: String,
    pub game_id: String,
    /// ms since the Unix epoch.
    pub at: i64,
    pub rating: i64,
    pub rd: i64,
}

/// A human player of an exported game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExportUser {
    pub name: String,
    pub id: String,
    /// `BOT` for a bot account (as Lichess); absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
}

/// A player of an exported game: a user, or the computer at a level; ratings for rated games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportPlayer {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user: Option<ExportUser>,
    /// The computer's level (1–10), for the computer.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub ai_level: Option<u8>,
    /// The rating before the game.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating: Option<i64>,
    /// What the game changed it by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating_diff: Option<i64>,
}

/// Both players of an exported game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExportPlayers {
    pub white: ExportPlayer,
    pub black: ExportPlayer,
}

/// The clock of an exported game with a simple control, in seconds.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportClock {
    pub initial: u64,
    pub increment: u64,
    /// `initial + 40 × increment`.
    pub total_time: u64,
}

/// The opening an exported game reached.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExportOpening {
    pub eco: String,
    /// In English.
    pub name: String,
    pub name_zh: String,
    /// The opening's length in plies.
    pub ply: u32,
}

/// A stored game in the Lichess export JSON form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ExportGame {
    pub id: String,
    pub rated: bool,
    /// `standard`, or `fromPosition` for a game from a set-up position.
    pub variant: String,
    /// `bullet`, `blitz`, …; `perf` is the same.
    pub speed: String,
    pub perf: String,
    /// ms since the Unix epoch.
    pub created_at: i64,
    pub last_move_at: i64,
    /// Lichess's status names: `started`, `mate`, `resign`, `stalemate`, `outoftime`, `timeout`, `draw`,
    /// `aborted`, `unknownFinish`.
    pub status: String,
    /// How the game came about: `friend`, `position`, `lobby`, `pool` or `ai`.
    pub source: String,
    pub players: ExportPlayers,
    /// The moves in SAN, separated by spaces.
    pub moves: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub winner: Option<Color>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub clock: Option<ExportClock>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub initial_fen: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub opening: Option<ExportOpening>,
    /// The PGN (`GET /game/export/{id}` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pgn: Option<String>,
}

/// `GET /api/user/{name}/games?offset=&limit=`: a page of a user's games, newest first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GamesPage {
    /// All the user's games.
    pub total: i64,
    pub offset: i64,
    pub games: Vec<ExportGame>,
}

/// A player of [`GameView`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GamePlayer {
    pub id: String,
    pub name: String,
    pub is_engine: bool,
    /// The computer's level (1–10), for the computer.
    pub engine_level: Option<u8>,
}

/// `GET /api/game/{id}`: a game's state, live or stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct GameView {
    pub id: String,
    pub white: GamePlayer,
    pub black: GamePlayer,
    pub rated: bool,
    /// How the game came about: `friend`, `position`, `lobby`, `pool` or `ai` (as Lichess's `source`).
    pub source: String,
    /// The PGN `TimeControl` tag.
    pub time_control: String,
    /// Initial time and increment in ms, when the control is a simple one.
    pub initial_ms: Option<u64>,
    pub increment_ms: Option<u64>,
    pub speed: String,
    /// The start position's FEN, `null` for the standard start.
    pub initial_fen: Option<String>,
    /// A Chess960 game (its start is `initial_fen`).
    pub chess960: bool,
    pub fen: String,
    pub turn: Color,
    pub moves_uci: Vec<String>,
    pub moves_san: Vec<String>,
    /// The clocks, in ms.
    pub white_ms: Option<u64>,
    pub black_ms: Option<u64>,
    /// Whose clock runs.
    pub running: Option<Color>,
    /// A live game's `created`, `started`, `finished` or `aborted`; a stored game's status as stored (`live`,
    /// `finished`, `aborted`).
    pub status: String,
    /// `1-0`, `0-1`, `1/2-1/2`, or `*`.
    pub result: String,
    /// The termination code (`checkmate`, `resignation`, …) once over.
    pub termination: Option<String>,
    pub winner: Option<Color>,
    /// Who offers a draw, who asks to take back.
    pub draw_offer: Option<Color>,
    pub takeback_offer: Option<Color>,
    /// The game's event version.
    pub version: u64,
    /// ms since the Unix epoch.
    pub created_at_ms: u64,
    /// The server's time of this view.
    pub at_ms: u64,
}
