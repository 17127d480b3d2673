// SPDX-License-Identifier: GPL-3.0-or-later
//! What the tournament page shows of a document: the players with their scores, the rounds, the standings with
//! their tie-breaks, the crosstable, an arena's table. These are the HTTP API's types (`guoxiang-protocol`
//! re-exports them).

use serde::{Deserialize, Serialize};

use super::{Board, Bye, Doc, TournamentResult, TournamentStatus, TournamentSystem, bye_points};
use crate::standings::{self, TieBreak};
use crate::trf::{Colour, RoundEntry};

/// A player of a tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TournamentBoard {
    pub board: u32,
    /// The board as the document stores it (its fields inline on the wire).
    #[serde(flatten)]
    pub pairing: Board,
}

/// A player without a game in a round.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TournamentBye {
    /// The bye as the document stores it (its fields inline on the wire).
    #[serde(flatten)]
    pub bye: Bye,
    pub points: f64,
}

/// A round.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct TournamentRound {
    pub number: u32,
    pub boards: Vec<TournamentBoard>,
    pub byes: Vec<TournamentBye>,
    /// Every board has its result.
    pub finished: bool,
    pub started_at_ms: i64,
}

/// A line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CrossCell {
    pub opponent: Option<u32>,
    /// `w`, `b`, or `-` (no game).
    pub colour: String,
    /// The TRF-16 result code (`1 = 0 + - H F U Z`).
    pub code: String,
    pub points: f64,
}

/// One player's line of the crosstable.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CrossLine {
    pub no: u32,
    pub name: String,
    pub cells: Vec<CrossCell>,
    pub score: f64,
}

/// How an arena game scored for a player.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
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
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ArenaGame {
    pub white: u32,
    pub black: u32,
    pub game_id: Option<String>,
    /// `null` while it is played.
    pub result: Option<TournamentResult>,
}

/// An arena's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ArenaView {
    pub minutes: u32,
    /// When it started and ends (once started).
    pub started_at_ms: Option<i64>,
    pub ends_at_ms: Option<i64>,
    pub standings: Vec<ArenaRow>,
    /// The games, newest first (at most 100).
    pub games: Vec<ArenaGame>,
}

impl Doc {
    /// The tie-breaks in the tournament's order.
    pub fn tie_break_order(&self) -> Vec<TieBreak> {
        self.tie_breaks.iter().filter_map(|s| TieBreak::from_abbreviation(s)).collect()
    }

    /// The standings after the finished rounds.
    pub fn standings(&self) -> Vec<StandingRow> {
        if self.status == TournamentStatus::Open || self.system == TournamentSystem::Arena {
            return Vec::new();
        }
        let t = self.to_trf(true);
        let order = self.tie_break_order();
        standings::compute(&t, &order)
            .into_iter()
            .map(|row| StandingRow {
                rank: row.rank,
                no: row.start_number.into(),
                name: row.name,
                rating: row.rating.map(u32::from),
                score: row.score,
                tie_breaks: order
                    .iter()
                    .map(|&tb| match tb {
                        TieBreak::Aro => row.tie_breaks.aro.map(f64::from),
                        _ => Some(standings::value(&row.tie_breaks, tb)),
                    })
                    .collect(),
            })
            .collect()
    }

    /// The crosstable of every round paired (results so far).
    pub fn crosstable(&self) -> Vec<CrossLine> {
        if self.status == TournamentStatus::Open || self.system == TournamentSystem::Arena {
            return Vec::new();
        }
        let t = self.to_trf(false);
        let pending: Vec<(usize, u32)> = self
            .round_list
            .iter()
            .enumerate()
            .flat_map(|(r, round)| {
                round.boards.iter().filter(|b| b.result.is_none()).flat_map(move |b| [(r, b.white), (r, b.black)])
            })
            .collect();
        t.players
            .iter()
            .map(|p| {
                let cells: Vec<CrossCell> = (0..self.round_list.len())
                    .map(|r| {
                        let e = p.rounds.get(r).copied().unwrap_or(RoundEntry::ABSENT);
                        let waiting = pending.contains(&(r, u32::from(p.start_number)));
                        CrossCell {
                            opponent: e.opponent.map(u32::from),
                            colour: match e.colour {
                                Colour::White => "w",
                                Colour::Black => "b",
                                Colour::None => "-",
                            }
                            .to_owned(),
                            code: if waiting { "*".to_owned() } else { e.code.as_char().to_string() },
                            points: if waiting { 0.0 } else { standings::points(e.code) },
                        }
                    })
                    .collect();
                let score = cells.iter().map(|c| c.points).sum::<f64>() + 0.0;
                CrossLine { no: p.start_number.into(), name: p.name.clone(), cells, score }
            })
            .collect()
    }

    /// The players as the page lists them, with their scores so far.
    pub fn player_views(&self) -> Vec<TournamentPlayer> {
        let cross = self.crosstable();
        let mut out: Vec<TournamentPlayer> = self
            .players
            .iter()
            .map(|p| TournamentPlayer {
                no: p.no,
                name: p.name.clone(),
                user: p.user_id.as_ref().map(|_| p.name.clone()),
                rating: p.rating,
                withdrawn: p.withdrawn_from.is_some(),
                score: cross.iter().find(|c| c.no == p.no).map_or(0.0, |c| c.score),
                present: None,
            })
            .collect();
        out.sort_by_key(|p| p.no);
        out
    }

    pub fn round_views(&self) -> Vec<TournamentRound> {
        self.round_list
            .iter()
            .enumerate()
            .map(|(r, round)| TournamentRound {
                number: r as u32 + 1,
                boards: round
                    .boards
                    .iter()
                    .enumerate()
                    .map(|(i, b)| TournamentBoard { board: i as u32 + 1, pairing: b.clone() })
                    .collect(),
                byes: round.byes.iter().map(|&b| TournamentBye { bye: b, points: bye_points(b.kind) }).collect(),
                finished: round.finished(),
                started_at_ms: round.started_at_ms,
            })
            .collect()
    }
}
