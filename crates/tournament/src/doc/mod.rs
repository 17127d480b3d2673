// SPDX-License-Identifier: GPL-3.0-or-later
//! A tournament's state as the server stores it (one JSON document per tournament), and what can be done to it —
//! entries, the start, pairing a round, a result, a withdrawal — as plain functions with no I/O and no clock (the
//! time is passed in). The pairings, standings and TRF-16 are this crate's: the document is turned into its
//! [`crate::trf::Tournament`] for them.
//!
//! | module | what lives there |
//! |---|---|
//! | `model` | the stored document: [`Doc`], its players, rounds, boards, byes and an arena's events |
//! | `entries` | entries, leaving, withdrawals, half-point byes asked for, forbidden pairs |
//! | `rounds` | the start, pairing the next round, results, the end |
//! | `arena` | an arena's acts, replayed on [`crate::arena`] |
//! | `report` | the document as TRF-16 and back (an over-the-board import) |
//! | [`view`] | what the page shows: players, rounds, standings, crosstable, an arena's table |
//! | `player_list` | a pasted list of players |

mod arena;
mod entries;
mod model;
mod player_list;
mod report;
mod rounds;
pub mod view;

pub use model::*;
pub use player_list::{ListError, ListedPlayer, MAX_LIST, parse_player_list};
pub use report::{bye_points, codes, result_of_codes};

use crate::standings::TieBreak;

/// Why an act on a tournament was refused: a stable code and the message in both languages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    pub code: &'static str,
    pub zh: String,
    pub en: String,
}

pub(super) fn refused(code: &'static str, zh: impl Into<String>, en: impl Into<String>) -> Refused {
    Refused { code, zh: zh.into(), en: en.into() }
}

/// The tie-breaks a system ranks by when the organiser chooses none: for a round-robin, C.07's recommendation
/// (direct encounter, wins, Sonneborn-Berger); for a Swiss, the Buchholz family first.
pub fn default_tie_breaks(system: TournamentSystem) -> Vec<String> {
    let order: &[TieBreak] = match system {
        TournamentSystem::RoundRobin | TournamentSystem::DoubleRoundRobin => {
            &[TieBreak::De, TieBreak::Win, TieBreak::Sb, TieBreak::Bwg]
        }
        TournamentSystem::Arena => &[],
        TournamentSystem::Swiss => {
            &[TieBreak::BhC1, TieBreak::Bh, TieBreak::Sb, TieBreak::De, TieBreak::Win, TieBreak::Bwg, TieBreak::Aro]
        }
    };
    order.iter().map(|t| t.abbreviation().to_owned()).collect()
}

/// Reads a list of tie-break abbreviations.
pub fn parse_tie_breaks(list: &[String]) -> Result<Vec<String>, Refused> {
    let mut out: Vec<String> = Vec::new();
    for s in list {
        let Some(tb) = TieBreak::from_abbreviation(s.trim()) else {
            let known: Vec<&str> = TieBreak::ALL.iter().map(|t| t.abbreviation()).collect();
            return Err(refused(
                "bad_tie_break",
                format!("没有名为 {s} 的破同分方法（可用：{}）", known.join("、")),
                format!("no tie-break is called {s} (known: {})", known.join(", ")),
            ));
        };
        let a = tb.abbreviation().to_owned();
        if out.contains(&a) {
            return Err(refused(
                "bad_tie_break",
                format!("破同分方法 {a} 重复了"),
                format!("the tie-break {a} is listed twice"),
            ));
        }
        out.push(a);
    }
    Ok(out)
}

pub(super) fn no_player(no: u32) -> Refused {
    refused("bad_request", format!("没有 {no} 号棋手"), format!("there is no player number {no}"))
}
