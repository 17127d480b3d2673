// SPDX-License-Identifier: GPL-3.0-or-later
//! 战术训练 / the tactics trainer (docs/api.md "Puzzles"): the next puzzle (`GET /api/puzzle/next`), the themes
//! (`GET /api/puzzle/themes`), the judge of one try (`POST /api/puzzle/{id}/try`), a round's rating
//! (`POST /api/puzzle/{id}/round`), an account's dashboard (`GET /api/puzzle/dashboard`), and the daily puzzle and
//! a puzzle by id in lichess's shape (`GET /api/puzzle/daily`, `GET /api/puzzle/{id}`; ours with
//! `?format=guoxiang`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Bilingual;
use crate::Color;

/// A motif the tagger found in a puzzle.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PuzzleMotif {
    /// `fork`, `pin`, `mate_in_2`, …
    pub id: String,
    /// The tagger's sentence about this position.
    pub text: Bilingual,
    /// The motif's name (absent for a motif this server does not know).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub zh: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub en: Option<String>,
    /// The number (1–18) of the seeds' tactic the motif belongs to, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub seed: Option<u8>,
}

/// Our puzzle object: `moves[0]` is the opponent's setup move, then solver, opponent, solver, …
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PuzzleView {
    pub id: String,
    /// The position before the setup move.
    pub fen: String,
    /// UCI.
    pub moves: Vec<String>,
    /// The side that solves.
    pub solver: Color,
    /// The puzzle's Glicko-2 rating and deviation, rounded.
    pub rating: i64,
    pub deviation: i64,
    pub plays: i64,
    pub motifs: Vec<PuzzleMotif>,
    /// lichess's theme names.
    pub lichess_themes: Vec<String>,
    /// The game it comes from (empty when none).
    pub game_url: String,
    /// `lichess` (imported) or `guoxiang` (our generator).
    pub source: String,
    /// The short number people call it by (第 1234 题), given at import; the id stays its name in URLs.
    pub number: i64,
}

/// `GET /api/puzzle/next?format=guoxiang&theme=&rating=&exclude=` and `GET /api/puzzle/{id}?format=guoxiang`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct PuzzleAnswer {
    pub puzzle: PuzzleView,
    /// The difficulty the puzzle was chosen with (`easiest` … `hardest`): the one asked for, else an account's
    /// remembered choice, else `normal`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub difficulty: Option<String>,
    /// When no rating was given and the player has no puzzle rating yet: the rating a new player starts from (low,
    /// or what the 学棋 course done implies), which the puzzle was chosen near. A guest's browser keeps it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub newcomer: Option<GlickoRating>,
}

/// One of the seeds' eighteen tactics, with its motifs and how many puzzles have one of them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct SeedTheme {
    /// 1 to 18; `theme=seed-N` asks for it.
    pub number: u8,
    pub zh: String,
    pub en: String,
    /// Motif ids.
    pub motifs: Vec<String>,
    pub count: i64,
}

/// A motif, what it is about, and how many puzzles have it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct MotifTheme {
    pub id: String,
    pub zh: String,
    pub en: String,
    pub about: Bilingual,
    /// Its seeds' tactic, if one.
    pub seed: Option<u8>,
    pub count: i64,
}

/// `GET /api/puzzle/themes`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PuzzleThemes {
    pub seeds: Vec<SeedTheme>,
    pub motifs: Vec<MotifTheme>,
}

/// The body of `POST /api/puzzle/{id}/try`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct PuzzleTryRequest {
    /// The moves after the setup move (UCI), the last being the solver's try.
    pub moves: Vec<String>,
}

/// `POST /api/puzzle/{id}/try` ([`PuzzleTryRequest`]): the verdict on the solver's try.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum PuzzleVerdict {
    /// Right; the opponent answers with `reply` (UCI) and the solver moves again.
    Correct { reply: String },
    /// Right, and the puzzle is over; `reply` is the opponent's last move when the line ends with one.
    Solved {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reply: Option<String>,
    },
    /// Legal but not the solution: why, and the opponent's best answer (UCI), when it has one.
    Wrong { reason: Bilingual, refutation: Option<String> },
    /// Not a legal move: the rules core's reason code and explanation.
    Illegal { code: String, reason: Bilingual },
}

/// A Glicko-2 rating as a guest's browser keeps it.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct GlickoRating {
    /// 100 to 4000.
    pub rating: f64,
    pub deviation: f64,
    /// 0.01 to 0.2 (default 0.09).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub volatility: Option<f64>,
}

/// The body of `POST /api/puzzle/{id}/round`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
pub struct RoundRequest {
    /// Solved without a mistake.
    pub win: bool,
    /// Hints used, 0 to 10.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub hints: Option<u8>,
    /// A streak round (changes no rating).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub streak: Option<bool>,
    /// A guest's rating before the round (accounts' is on the server).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rating: Option<GlickoRating>,
}

/// The solver's rating before and after a round.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct RoundRating {
    /// Rounded ratings.
    pub before: i32,
    pub after: i32,
    pub deviation: i64,
    pub volatility: f64,
    pub provisional: bool,
    /// An account's rounds so far (`null` for a guest).
    pub rounds: Option<i64>,
    /// The account had played this puzzle before: nothing changed.
    pub replay: bool,
}

/// The puzzle's rating after a round.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct RoundPuzzle {
    pub rating: i64,
    pub plays: i64,
}

/// `POST /api/puzzle/{id}/round`.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct RoundAnswer {
    pub rating: RoundRating,
    pub puzzle: RoundPuzzle,
}

/// An account's puzzle rating.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DashboardRating {
    pub rating: i32,
    pub deviation: i64,
    pub provisional: bool,
    pub rounds: i64,
}

/// One of an account's latest rounds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DashboardRound {
    /// The puzzle's id.
    pub id: String,
    pub win: bool,
    pub rating_after: i64,
    /// ms since the Unix epoch.
    pub at: i64,
    /// The puzzle's short number (第 1234 题), when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub number: Option<i64>,
}

/// An account's results on one motif.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DashboardTheme {
    /// The motif's id.
    pub id: String,
    pub solved: i64,
    pub failed: i64,
}

/// `GET /api/puzzle/dashboard` (accounts only): the puzzle rating, the latest rounds (newest first) and the
/// results per motif.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PuzzleDashboard {
    pub rating: DashboardRating,
    pub history: Vec<DashboardRound>,
    pub themes: Vec<DashboardTheme>,
}

/// `{"key": "puzzle", "name": "Puzzle"}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LichessPerf {
    pub key: String,
    pub name: String,
}

/// A player of a lichess-shaped puzzle's game (names are not kept: empty).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LichessPuzzlePlayer {
    pub name: String,
    pub id: String,
    pub color: Color,
    pub rating: Option<i64>,
}

/// The game a lichess-shaped puzzle comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LichessPuzzleGame {
    /// The lichess game id (empty when none).
    pub id: String,
    pub perf: LichessPerf,
    pub rated: bool,
    pub players: Vec<LichessPuzzlePlayer>,
    /// The setup move in SAN, played from `puzzle.fen`.
    pub pgn: String,
    pub clock: String,
}

/// The puzzle of a lichess-shaped answer, with our `fen` and `motifs` (ids).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LichessPuzzleData {
    pub id: String,
    pub rating: i64,
    pub plays: i64,
    /// The plies before the position after the setup move.
    #[serde(rename = "initialPly")]
    pub initial_ply: u32,
    /// The solver's moves and the opponent's replies after the setup move (UCI).
    pub solution: Vec<String>,
    pub themes: Vec<String>,
    /// The position before the setup move.
    pub fen: String,
    pub motifs: Vec<String>,
    /// Our short number for the puzzle (第 1234 题).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub number: Option<i64>,
}

/// `GET /api/puzzle/daily` and `GET /api/puzzle/{id}`: a puzzle in lichess's JSON shape.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LichessPuzzle {
    pub game: LichessPuzzleGame,
    pub puzzle: LichessPuzzleData,
}
