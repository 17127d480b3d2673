// SPDX-License-Identifier: GPL-3.0-or-later
//! `GET /api/explorer`: the opening explorer's answer for one position (docs/explorer.md).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whose games the explorer counts.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ExplorerSource {
    /// The games finished on this server.
    Server,
    /// The PGN databases the host imported (`guoxiang games import`).
    Imported,
}

/// An opening's family.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
pub enum OpeningFamily {
    /// 开放性布局 (1.e4 e5).
    #[serde(rename = "open")]
    Open,
    /// 半开放性布局 (1.e4, Black answers otherwise).
    #[serde(rename = "semi-open")]
    SemiOpen,
    /// 封闭性布局 (the rest).
    #[serde(rename = "closed")]
    Closed,
}

impl OpeningFamily {
    /// The family of its id (`open`, `semi-open`, `closed`).
    pub fn from_id(id: &str) -> Option<OpeningFamily> {
        match id {
            "open" => Some(OpeningFamily::Open),
            "semi-open" => Some(OpeningFamily::SemiOpen),
            "closed" => Some(OpeningFamily::Closed),
            _ => None,
        }
    }
}

/// A move played in the position (or, as `total`, all of them): games and results.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ExplorerMove {
    /// Empty in `total`.
    pub uci: String,
    pub san: String,
    pub games: i64,
    pub white: i64,
    pub draws: i64,
    pub black: i64,
    /// Percentages of the games, one decimal.
    pub white_pct: f64,
    pub draws_pct: f64,
    pub black_pct: f64,
    /// The average rating of the games with both players rated (`null`: none has).
    pub average_rating: Option<i64>,
}

/// The position's opening: the one named by this position or, failing that, the last named position of the line
/// that reached it; and its family.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ExplorerOpening {
    pub eco: Option<String>,
    pub name_zh: Option<String>,
    pub name_en: Option<String>,
    pub family: Option<OpeningFamily>,
    pub family_zh: Option<String>,
    pub family_en: Option<String>,
}

/// `GET /api/explorer?fen=&moves=&source=&speeds=&ratings=`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
pub struct ExplorerAnswer {
    /// The position after the moves.
    pub fen: String,
    pub source: ExplorerSource,
    /// The filters applied (empty: all): speed bucket names and rating bucket lower bounds.
    pub speeds: Vec<String>,
    pub ratings: Vec<i64>,
    /// Games are indexed to this many plies; deeper positions have no games.
    pub max_plies: u32,
    pub total: ExplorerMove,
    /// Most played first.
    pub moves: Vec<ExplorerMove>,
    pub opening: ExplorerOpening,
}
