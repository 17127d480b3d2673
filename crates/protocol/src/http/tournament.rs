// SPDX-License-Identifier: GPL-3.0-or-later
//! Tournaments (比赛, issue 18; docs/tournament.md "On the server"): round-robins by FIDE's Berger tables and Swiss
//! tournaments by the Dutch system, played online (each round's games created by the server) or over the board
//! (the organiser enters the results), with standings, FIDE tie-breaks, the crosstable, PGN and TRF-16.
//!
//! - `GET /api/tournaments` → [`TournamentList`]; `POST /api/tournaments` [`NewTournament`] → [`TournamentView`];
//!   `POST /api/tournaments/import` [`TrfImport`] → [`TournamentView`] (an over-the-board event from a TRF file).
//! - `GET /api/tournament/{id}` → [`TournamentView`].
//! - `POST /api/tournament/{id}/join`, `…/leave`, `…/start`, `…/pair` (the next round), `…/result`
//!   [`ResultEntry`], `…/withdraw` [`PlayerNumber`], `…/player` [`AddPlayer`] (over the board), `…/arbiter`
//!   [`AddArbiter`], `…/players` [`PlayerList`] (a pasted list), `…/forbid` [`ForbiddenPair`], `…/bye` [`PlayerNumber`] (a half-point bye in the next round)
//!   → [`TournamentView`].
//! - `GET /api/tournament/{id}/pgn` (every game), `GET /api/tournament/{id}/trf` (FIDE TRF-16).
//! - `GET /api/game/{id}/tournament` → [`TournamentLink`] or `null`: the tournament a game belongs to.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

// The tournament document's kinds, boards and byes, and what the page shows of it, are `guoxiang-tournament`'s
// (one model for the stored document and the wire); their TypeScript declarations come with its `ts` feature.
pub use guoxiang_tournament::doc::view::{
    ArenaGame, ArenaMark, ArenaRow, ArenaSheetEntry, ArenaView, CrossCell, CrossLine, StandingRow, TournamentBoard,
    TournamentBye, TournamentPlayer, TournamentRound,
};
pub use guoxiang_tournament::doc::{ByeKind, TournamentMode, TournamentResult, TournamentStatus, TournamentSystem};

/// `POST /api/tournaments`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct NewTournament {
    pub name: String,
    pub system: TournamentSystem,
    pub mode: TournamentMode,
    /// A PGN `TimeControl` such as `600+5` (`-` for none: over the board only).
    pub time_control: String,
    /// The rule set's name (`online`, `touch_move`, `illegal_moves_count`, `king_into_check`, `adjournment`, joined
    /// by `+`); `online` when absent.
    #[ts(optional)]
    pub rules: Option<String>,
    pub rated: bool,
    /// Swiss: the number of rounds (a round-robin's follows from its players).
    #[ts(optional)]
    pub rounds: Option<u32>,
    /// The order of tie-breaks, by FIDE abbreviation (`BH`, `BH-C1`, `BH-M1`, `SB`, `DE`, `WIN`, `WON`, `BPG`,
    /// `BWG`, `PS`, `ARO`); the system's default when absent.
    #[ts(optional)]
    pub tie_breaks: Option<Vec<String>>,
    /// Online: the pause between the end of a round and the start of the next, seconds (default 30).
    #[ts(optional)]
    pub round_gap_s: Option<u32>,
    /// An arena's length in minutes (10 to 720).
    #[ts(optional)]
    pub minutes: Option<u32>,
    /// Online: when the server starts it by itself (Unix ms); the organiser may start it earlier.
    #[ts(optional)]
    pub starts_at_ms: Option<i64>,
    /// Online (not an arena): how long a player has to make the first move of a tournament game before losing it
    /// by forfeit, seconds (1 to 3600; default 300, long enough for a class to find its boards).
    #[ts(optional)]
    pub first_move_grace_s: Option<u32>,
    /// Online Swiss and round-robin: a presence check before each round (default true). Present: on the
    /// tournament page, or still connected after playing the last round. A Swiss pairs only the present players
    /// (the absent sit the round out: no game, no point, no forfeit); a round-robin's next round waits until all
    /// are present (the organiser may pair it anyway).
    #[ts(optional)]
    pub presence_check: Option<bool>,
    /// A class tournament (issue 42): the id of a class the organiser teaches; only its students and its teacher
    /// may join.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

/// `POST /api/tournament/{id}/forbid`: two players who must not be paired (a Swiss: players of one family or club;
/// TRF-16's `XXP`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ForbiddenPair {
    pub a: u32,
    pub b: u32,
}

/// `POST /api/tournaments/import`: an over-the-board tournament from a TRF-16 file (players, rounds, results).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TrfImport {
    pub trf: String,
    /// The file's `012` line when absent.
    #[ts(optional)]
    pub name: Option<String>,
}

/// `POST /api/tournament/{id}/result`: a board's result, entered by the organiser or an arbiter (over the board;
/// online, to decide a game that cannot be finished).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ResultEntry {
    pub round: u32,
    pub board: u32,
    pub result: TournamentResult,
}

/// `POST /api/tournament/{id}/withdraw`: a player withdraws from the next round on.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerNumber {
    pub no: u32,
}

/// `POST /api/tournament/{id}/player`: a player without an account (over the board).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AddPlayer {
    pub name: String,
    #[ts(optional)]
    pub rating: Option<u32>,
}

/// `POST /api/tournament/{id}/players`: players added from a pasted list, one per line or separated by commas; a
/// rating may follow a name (`王小明 1200`, over the board). Online, each name is an account's. All are added or,
/// if any line is wrong, none: the error (`bad_list`) names every wrong line, one per line of its text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PlayerList {
    pub text: String,
}

/// `POST /api/tournament/{id}/arbiter`: a user who may enter results and act as arbiter in the tournament's games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct AddArbiter {
    pub name: String,
}

/// `GET /api/tournament/{id}`: everything the tournament page shows.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentView {
    pub id: String,
    pub name: String,
    pub system: TournamentSystem,
    pub mode: TournamentMode,
    pub status: TournamentStatus,
    pub time_control: String,
    pub rules: String,
    pub rated: bool,
    /// The rounds the tournament will have (a round-robin's are known once it starts: 0 before).
    pub rounds: u32,
    /// The organiser's name.
    pub organiser: String,
    pub arbiters: Vec<String>,
    pub players: Vec<TournamentPlayer>,
    pub round_list: Vec<TournamentRound>,
    /// The tie-breaks' FIDE abbreviations, in the order they rank.
    pub tie_breaks: Vec<String>,
    /// Every player, best first (from the start on).
    pub standings: Vec<StandingRow>,
    pub crosstable: Vec<CrossLine>,
    /// Online: when the next round is paired, if it waits for a time.
    pub next_round_at_ms: Option<i64>,
    pub created_at_ms: i64,
    /// What the viewer may do: organise (start, pair, enter results), arbitrate (enter results), or is playing.
    pub you_organise: bool,
    pub you_arbitrate: bool,
    /// The viewer's number ([`TournamentPlayer::no`]), or 0 when not in it.
    pub your_no: u32,
    pub you_joined: bool,
    /// An arena's own state (`null` for the other systems).
    pub arena: Option<ArenaView>,
    /// Online: when the server starts it by itself.
    pub starts_at_ms: Option<i64>,
    /// A Swiss's pairs that must not meet (starting ranks).
    pub forbidden: Vec<ForbiddenPair>,
    /// A Swiss's players who asked for a half-point bye in the next round.
    pub next_round_byes: Vec<u32>,
    /// Online (not an arena): the first-move grace of its games, seconds; 0 over the board.
    #[serde(default)]
    pub first_move_grace_s: u32,
    /// Online: players are paired only when present ([`TournamentPlayer::present`]).
    #[serde(default)]
    pub presence_check: bool,
    /// A class tournament: the class's id (absent for the others).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
}

/// A tournament in a list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TournamentSummary {
    pub id: String,
    pub name: String,
    pub system: TournamentSystem,
    pub mode: TournamentMode,
    pub status: TournamentStatus,
    pub time_control: String,
    pub players: u32,
    pub rounds: u32,
    /// Rounds paired so far.
    pub current_round: u32,
    pub created_at_ms: i64,
}

/// `GET /api/tournaments`: open and running tournaments first, then the recently finished.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TournamentList {
    pub tournaments: Vec<TournamentSummary>,
}

/// `GET /api/game/{id}/tournament`: the tournament a game was paired in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TournamentLink {
    pub id: String,
    pub name: String,
    pub system: TournamentSystem,
    /// The round and board (0 in an arena).
    pub round: u32,
    pub board: u32,
}
