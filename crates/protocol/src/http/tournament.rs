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

/// How players are paired.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TournamentMode {
    /// On this server: each round's games are created for the players.
    Online,
    /// Over the board: the organiser or an arbiter enters the results.
    Otb,
}

/// Where a tournament is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entries.
    Open,
    Running,
    Finished,
}

/// A board's result, as TRF-16 scores it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ByeKind {
    /// The pairing-allocated bye of a Swiss round (1 point, C.04.1).
    Pairing,
    /// A requested half-point bye.
    Half,
    /// No game and no point: the round-robin's free round, an absence, a withdrawal, a late entry's missed round.
    Zero,
}

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

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentPlayer {
    /// The starting rank (pairing number), from 1; before the start, a provisional number in the order of entry
    /// (the start gives the ranks by rating, and forbidden pairs and byes follow their players).
    pub no: u32,
    pub name: String,
    /// The account's name; `null` for a player entered by name.
    pub user: Option<String>,
    pub rating: Option<u32>,
    /// Withdrawn (not paired any more).
    pub withdrawn: bool,
    pub score: f64,
    /// Online with the presence check: whether the player is here now (on the tournament page, or connected
    /// after playing the last round); `null` when the tournament does not check.
    #[serde(default)]
    pub present: Option<bool>,
}

/// A board of a round.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct TournamentBoard {
    pub board: u32,
    /// Starting ranks.
    pub white: u32,
    pub black: u32,
    /// Online: the game.
    pub game_id: Option<String>,
    pub result: Option<TournamentResult>,
}

/// A player without a game in a round.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentBye {
    pub no: u32,
    pub kind: ByeKind,
    pub points: f64,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct TournamentRound {
    pub number: u32,
    pub boards: Vec<TournamentBoard>,
    pub byes: Vec<TournamentBye>,
    /// Every board has its result.
    pub finished: bool,
    pub started_at_ms: i64,
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct StandingRow {
    /// 1 for the first; players level after every tie-break share a rank.
    pub rank: u32,
    pub no: u32,
    pub name: String,
    pub rating: Option<u32>,
    pub score: f64,
    /// The tie-breaks in the tournament's order ([`TournamentView::tie_breaks`]); `null` where one has no value
    /// (ARO without a rated opponent).
    pub tie_breaks: Vec<Option<f64>>,
}

/// One cell of the crosstable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct CrossCell {
    pub opponent: Option<u32>,
    /// `w`, `b`, or `-` (no game).
    pub colour: String,
    /// The TRF-16 result code (`1 = 0 + - H F U Z`).
    pub code: String,
    pub points: f64,
}

/// One player's line of the crosstable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct CrossLine {
    pub no: u32,
    pub name: String,
    pub cells: Vec<CrossCell>,
    pub score: f64,
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
}

/// How an arena game scored for a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ArenaMark {
    Normal,
    /// One of two wins in a row that set the player on fire.
    StreakStarter,
    /// Scored on fire: double.
    Double,
    /// A draw that scored nothing (within the first 10 moves, or in a draw streak).
    NoPoints,
}

/// One game of an arena player's sheet.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArenaSheetEntry {
    pub opponent: u32,
    /// `w` or `b`.
    pub colour: char,
    /// `w` won, `d` drawn, `l` lost.
    pub result: char,
    pub points: u32,
    pub mark: ArenaMark,
}

/// A line of an arena's standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ArenaRow {
    pub rank: u32,
    pub no: u32,
    pub name: String,
    pub rating: u32,
    pub score: u32,
    /// The performance rating; `null` before a first game.
    pub performance: Option<i32>,
    pub on_fire: bool,
    pub paused: bool,
    pub sheet: Vec<ArenaSheetEntry>,
}

/// An arena game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ArenaGame {
    pub white: u32,
    pub black: u32,
    pub game_id: Option<String>,
    /// `null` while it is played.
    pub result: Option<TournamentResult>,
}

/// An arena's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ArenaView {
    pub minutes: u32,
    /// When it started and ends (once started).
    pub started_at_ms: Option<i64>,
    pub ends_at_ms: Option<i64>,
    pub standings: Vec<ArenaRow>,
    /// The games, newest first (at most 100).
    pub games: Vec<ArenaGame>,
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
