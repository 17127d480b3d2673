// SPDX-License-Identifier: GPL-3.0-or-later
//! Profiles and the archive: `GET /api/user/{name}` (profile), `/api/user/{name}/rating-history`,
//! `/api/user/{name}/games` (a page of games in the Lichess export form, which `GET /api/games/user/{name}` with
//! `Accept: application/x-ndjson` and `GET /game/export/{id}` with `Accept: application/json` also write) and
//! `GET /api/game/{id}` (a game's state).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use guoxiang_game::{Game, Status, TimeControl, Timestamp, Variant};

use super::Perf;
use crate::{Color, GameStatus};

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

/// `GET /api/game/{id}`: a game's state, live or stored. The same value is the live game's view inside the server
/// (the Lichess-compatible streams render their JSON from it, the cluster carries it between nodes): built from a
/// game in memory (`GameView::of`) or from a stored game (the domain's `game_row_view`).
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
    /// How the game ended, as the WebSocket snapshot's `status` says it once over: the result with its words, or
    /// who aborted and why; `null` while the game is played (and for a stored game whose state does not say).
    pub end: Option<GameStatus>,
    /// The mover's clock after each move, in ms (`null` without a time limit), in the order of `moves_uci`.
    pub move_clocks_ms: Vec<Option<u64>>,
    /// The game's event version.
    pub version: u64,
    /// ms since the Unix epoch.
    pub created_at_ms: u64,
    /// The server's time of this view.
    pub at_ms: u64,
}

impl From<&guoxiang_game::PlayerRef> for GamePlayer {
    fn from(p: &guoxiang_game::PlayerRef) -> GamePlayer {
        GamePlayer { id: p.id.clone(), name: p.name.clone(), is_engine: p.is_engine, engine_level: p.engine_level }
    }
}

impl From<&GamePlayer> for guoxiang_game::PlayerRef {
    fn from(p: &GamePlayer) -> guoxiang_game::PlayerRef {
        guoxiang_game::PlayerRef {
            id: p.id.clone(),
            name: p.name.clone(),
            is_engine: p.is_engine,
            engine_level: p.engine_level,
        }
    }
}

impl GameView {
    /// The view of a game in memory at `now`.
    pub fn of(game: &Game, now: Timestamp) -> GameView {
        let clocks = game.clocks(now);
        let status = game.status();
        let (status_name, result, termination, winner) = match status {
            Status::Created => ("created", "*".to_owned(), None, None),
            Status::Started => ("started", "*".to_owned(), None, None),
            Status::Finished { outcome } => (
                "finished",
                outcome.result().to_owned(),
                Some(outcome.termination.code().to_owned()),
                outcome.winner.map(Color::from),
            ),
            Status::Aborted { .. } => ("aborted", "*".to_owned(), Some("aborted".to_owned()), None),
        };
        let tc = game.time_control();
        let (initial_ms, increment_ms) = simple_clock(tc);
        let over = game.is_over();
        GameView {
            id: game.id().to_owned(),
            white: game.white().into(),
            black: game.black().into(),
            rated: game.rated(),
            source: game.source().as_str().to_owned(),
            time_control: tc.to_pgn(),
            initial_ms,
            increment_ms,
            speed: tc.speed().as_str().to_owned(),
            initial_fen: game.variant().fen().map(str::to_owned),
            chess960: matches!(game.variant(), Variant::Chess960 { .. }),
            fen: game.position().fen(),
            turn: game.turn().into(),
            moves_uci: game.moves().iter().map(|m| m.uci.to_string()).collect(),
            moves_san: game.moves().iter().map(|m| m.san.to_string()).collect(),
            white_ms: clocks.map(|c| c.white_ms),
            black_ms: clocks.map(|c| c.black_ms),
            running: if over {
                None
            } else {
                game.clock().running().map(|s| match s {
                    guoxiang_clock::Side::White => Color::White,
                    guoxiang_clock::Side::Black => Color::Black,
                })
            },
            status: status_name.to_owned(),
            result,
            termination,
            winner,
            draw_offer: game.draw_offer().map(Color::from),
            takeback_offer: game.takeback_offer().map(Color::from),
            end: over.then(|| GameStatus::from(&status)),
            move_clocks_ms: game.moves().iter().map(|m| m.clock_ms).collect(),
            version: game.version(),
            created_at_ms: game.created_at().0,
            at_ms: now.0,
        }
    }
}

/// Initial time and increment in ms of a simple control (one period with a per-move increment, or none); the
/// initial time alone for the others.
pub fn simple_clock(tc: &TimeControl) -> (Option<u64>, Option<u64>) {
    let pgn = tc.to_pgn();
    let Some((base, inc)) = pgn.split_once('+').map(|(a, b)| (a.to_owned(), b.to_owned())).or_else(|| {
        (pgn.chars().all(|c| c.is_ascii_digit()) && !pgn.is_empty()).then(|| (pgn.clone(), "0".to_owned()))
    }) else {
        return (tc.initial_ms(), None);
    };
    match (base.parse::<u64>(), inc.parse::<u64>()) {
        (Ok(b), Ok(i)) => (Some(b * 1000), Some(i * 1000)),
        _ => (tc.initial_ms(), None),
    }
}
