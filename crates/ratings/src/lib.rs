//! Ratings for rated games.
//!
//! Two independent systems live here, both pure functions over plain values
//! (no I/O, no clock, no storage):
//!
//! - [`glicko`]: a Glicko-2 rating per [`RatingSpeed`] (bullet, blitz, rapid,
//!   classical, correspondence), computed with the `skillratings` crate.
//!   [`rate_game`] rates one game as one rating period for each player, as
//!   lichess does; [`rate_period`] is the textbook many-games-at-once update;
//!   [`decay`] grows the deviation of an inactive player. [`SpeedRatings`]
//!   holds one [`Glicko`] per speed.
//! - [`points`]: the 级别/积分 (levels and points) system of Chinese online
//!   play. Everyone starts at 0 points; every 100 points is a level, from
//!   30级 at 100 points up to 1级 at 3000. [`points_after`] applies one game,
//!   [`level`] and [`level_name`] read the level.
//!
//! [`GameResult`] (from White's side) is the input to both; [`RatingSpeed`]
//! (in [`speed`]) maps a clock [`Speed`](guoxiang_clock::Speed) to the rating
//! pool it counts for. Names are given in Simplified Chinese or English via
//! [`Lang`], re-exported from `guoxiang-clock` so callers use one type.
//!
//! ```
//! use guoxiang_ratings::{GameResult, Glicko, Lang, level_name, points_after, rate_game};
//!
//! let (white, black) = rate_game(&Glicko::default(), &Glicko::default(), GameResult::WhiteWins);
//! assert!(white.rating > 1500.0 && black.rating < 1500.0);
//! assert_eq!(white.display(), format!("{}?", white.rounded()));
//!
//! let change = points_after(95, 40, GameResult::BlackWins);
//! assert_eq!((change.white_after, change.black_after), (79, 56));
//! assert_eq!(level_name(change.white_after, Lang::Zh), "无级别");
//! assert_eq!(level_name(150, Lang::En), "Level 30");
//! ```

#![forbid(unsafe_code)]

pub mod glicko;
pub mod points;
pub mod puzzle;
pub mod speed;

use serde::{Deserialize, Serialize};

pub use glicko::{
    DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, Glicko, MAX_DEVIATION, MIN_DEVIATION, PROVISIONAL_DEVIATION,
    SpeedRatings, TAU, decay, expected_score, rate_game, rate_period,
};
pub use guoxiang_clock::Lang;
pub use points::{LEVEL_STEP, PointsChange, START_POINTS, level, level_name, points_after};
pub use speed::{ParseRatingSpeedError, RatingSpeed};

/// The result of a finished game, from White's side.
///
/// Serialized in snake case: `"white_wins"`, `"black_wins"`, `"draw"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameResult {
    /// White won (1-0).
    WhiteWins,
    /// Black won (0-1).
    BlackWins,
    /// Drawn (½-½).
    Draw,
}

impl GameResult {
    /// The result as White experienced it.
    #[must_use]
    pub const fn for_white(self) -> Outcome {
        match self {
            GameResult::WhiteWins => Outcome::Win,
            GameResult::BlackWins => Outcome::Loss,
            GameResult::Draw => Outcome::Draw,
        }
    }

    /// The result as Black experienced it.
    #[must_use]
    pub const fn for_black(self) -> Outcome {
        self.for_white().reversed()
    }
}

/// One game's result from one player's point of view (used by [`rate_period`]).
///
/// Serialized in lowercase: `"win"`, `"draw"`, `"loss"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The player won.
    Win,
    /// The game was drawn.
    Draw,
    /// The player lost.
    Loss,
}

impl Outcome {
    /// The same game seen from the opponent's side.
    #[must_use]
    pub const fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Draw => Outcome::Draw,
            Outcome::Loss => Outcome::Win,
        }
    }

    /// The chess score: 1 for a win, ½ for a draw, 0 for a loss.
    #[must_use]
    pub const fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Draw => 0.5,
            Outcome::Loss => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_from_each_side() {
        assert_eq!(GameResult::WhiteWins.for_white(), Outcome::Win);
        assert_eq!(GameResult::WhiteWins.for_black(), Outcome::Loss);
        assert_eq!(GameResult::BlackWins.for_white(), Outcome::Loss);
        assert_eq!(GameResult::BlackWins.for_black(), Outcome::Win);
        assert_eq!(GameResult::Draw.for_white(), Outcome::Draw);
        assert_eq!(GameResult::Draw.for_black(), Outcome::Draw);
        assert_eq!(Outcome::Draw.score(), 0.5);
    }

    #[test]
    fn serde_names() {
        assert_eq!(serde_json::to_string(&GameResult::WhiteWins).unwrap(), "\"white_wins\"");
        assert_eq!(serde_json::from_str::<GameResult>("\"draw\"").unwrap(), GameResult::Draw);
        assert_eq!(serde_json::to_string(&Outcome::Loss).unwrap(), "\"loss\"");
    }
}
