// SPDX-License-Identifier: GPL-3.0-or-later
//! The stored model: what a tournament is (its kinds, players, rounds, boards and byes, an arena's events), as one
//! JSON document per tournament. The same kinds, boards and byes are what the HTTP API carries
//! (`guoxiang-protocol` re-exports them, with their TypeScript declarations under the `ts` feature).

use serde::{Deserialize, Serialize};

#[cfg(doc)]
use crate::arena;

/// How players are paired.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TournamentSystem {
    /// Everyone plays everyone once, by FIDE's Berger tables (循环赛).
    RoundRobin,
    /// Everyone plays everyone twice, colours reversed (双循环).
    DoubleRoundRobin,
    /// The FIDE (Dutch) Swiss system, C.04.3 (瑞士制).
    Swiss,
    /// An arena (竞技场, casual): for a fixed time, players are paired again as soon as their game ends; a win 2, a
    /// draw 1, double on fire after two wins in a row.
    Arena,
}

/// Where the games are played.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TournamentMode {
    /// On this server: each round's games are created for the players.
    Online,
    /// Over the board: the organiser or an arbiter enters the results.
    Otb,
}

/// Where a tournament is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entries.
    Open,
    Running,
    Finished,
}

/// A board's result, as TRF-16 scores it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub enum TournamentResult {
    #[serde(rename = "1-0")]
    WhiteWins,
    #[serde(rename = "1/2-1/2")]
    Draw,
    #[serde(rename = "0-1")]
    BlackWins,
    /// White won by forfeit (Black did not play).
    #[serde(rename = "+-")]
    WhiteForfeitWin,
    /// Black won by forfeit.
    #[serde(rename = "-+")]
    BlackForfeitWin,
    /// Neither played: both lose by forfeit.
    #[serde(rename = "--")]
    DoubleForfeit,
}

/// A round without a game for a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "snake_case")]
pub enum ByeKind {
    /// The pairing-allocated bye of a Swiss round (1 point, C.04.1).
    Pairing,
    /// A requested half-point bye.
    Half,
    /// No game and no point: the round-robin's free round, an absence, a withdrawal, a late entry's missed round.
    Zero,
}

/// The most players a tournament takes.
pub const MAX_PLAYERS: usize = 500;

/// The most rounds of a Swiss tournament.
pub const MAX_SWISS_ROUNDS: u32 = 30;

/// A player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// The starting rank from the start on (0 before).
    pub no: u32,
    /// The account, if the player has one (over the board, players may be entered by name).
    pub user_id: Option<String>,
    /// The account's name (or the name entered).
    pub name: String,
    /// The rating the starting ranks are ordered by.
    pub rating: Option<u32>,
    /// Not paired from round `withdrawn_from` on.
    pub withdrawn_from: Option<u32>,
    /// The first round the player can be paired in (a late entry's earlier rounds are zero-point absences).
    pub first_round: u32,
}

/// A board: who plays whom, the game (online) and the result. Stored as it is; the API's
/// [`TournamentBoard`](super::view::TournamentBoard) adds the board's number.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Board {
    /// Starting ranks.
    pub white: u32,
    pub black: u32,
    /// Online: the game.
    pub game_id: Option<String>,
    pub result: Option<TournamentResult>,
}

/// A player without a game in a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Bye {
    pub no: u32,
    pub kind: ByeKind,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    pub boards: Vec<Board>,
    pub byes: Vec<Bye>,
    pub started_at_ms: i64,
}

impl Round {
    pub fn finished(&self) -> bool {
        self.boards.iter().all(|b| b.result.is_some())
    }
}

/// The whole state of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Doc {
    pub name: String,
    pub system: TournamentSystem,
    pub mode: TournamentMode,
    pub status: TournamentStatus,
    /// PGN `TimeControl`.
    pub time_control: String,
    /// The rule set's name.
    pub rules: String,
    pub rated: bool,
    /// The rounds (a round-robin's are set at the start).
    pub rounds: u32,
    pub tie_breaks: Vec<String>,
    pub round_gap_ms: u64,
    /// The organiser's user id and name.
    pub organiser_id: String,
    pub organiser: String,
    /// Arbiters: (user id, name).
    pub arbiters: Vec<(String, String)>,
    pub players: Vec<Entry>,
    pub round_list: Vec<Round>,
    /// When the next round is due (online), set when a round finishes.
    pub next_round_at_ms: Option<i64>,
    pub created_at_ms: i64,
    /// An arena's state (the other systems have none).
    #[serde(default)]
    pub arena: Option<ArenaDoc>,
    /// When the server starts it by itself (online).
    #[serde(default)]
    pub starts_at_ms: Option<i64>,
    /// Pairs that must not meet (a Swiss).
    #[serde(default)]
    pub forbidden: Vec<(u32, u32)>,
    /// Half-point byes asked for: (round, starting rank).
    #[serde(default)]
    pub byes_requested: Vec<(u32, u32)>,
    /// Online: seconds to make the first move of a game ([`DEFAULT_FIRST_MOVE_GRACE_S`] when absent).
    #[serde(default)]
    pub first_move_grace_s: Option<u32>,
    /// Online Swiss and round-robin: pair only players present (stored tournaments of before: off).
    #[serde(default)]
    pub presence_check: bool,
    /// A Swiss's players who sat a round out for not being present: (round, starting rank).
    #[serde(default)]
    pub absent: Vec<(u32, u32)>,
    /// A class tournament (issue 42): the class's id; only its students and its teacher may join.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

/// The first-move grace of an online tournament's games when the organiser does not set one: five minutes, long
/// enough for a class to sit down and find its boards.
pub const DEFAULT_FIRST_MOVE_GRACE_S: u32 = 300;
/// The longest first-move grace, seconds.
pub const MAX_FIRST_MOVE_GRACE_S: u32 = 3600;

/// An arena as stored: its length and what happened, in order. The state (scores, streaks, who is playing) is
/// `guoxiang-tournament`'s [`arena::Arena`], rebuilt by replaying the events — so it is always what the rules make
/// of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaDoc {
    pub minutes: u32,
    pub started_at_ms: Option<i64>,
    pub events: Vec<ArenaEvent>,
}

/// Something that happened in an arena.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ArenaEvent {
    /// A player joins (or comes back from a pause).
    Join { no: u32, rating: u32, at_ms: i64 },
    /// A player pauses (left, or did not make a first move).
    Pause { no: u32 },
    /// Two waiting players were paired.
    Pair { white: u32, black: u32, at_ms: i64, game_id: Option<String> },
    /// A game ended.
    Result { white: u32, black: u32, result: TournamentResult, plies: u32, at_ms: i64 },
}

/// The shortest and longest arena, minutes.
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 10..=720;

impl Doc {
    pub fn player(&self, no: u32) -> Option<&Entry> {
        self.players.iter().find(|p| p.no == no)
    }

    /// The player of an account.
    pub fn player_of(&self, user_id: &str) -> Option<&Entry> {
        self.players.iter().find(|p| p.user_id.as_deref() == Some(user_id))
    }

    pub fn is_arbiter(&self, user_id: &str) -> bool {
        self.arbiters.iter().any(|(id, _)| id == user_id)
    }

    pub(super) fn round_robin(&self) -> bool {
        matches!(self.system, TournamentSystem::RoundRobin | TournamentSystem::DoubleRoundRobin)
    }
}
