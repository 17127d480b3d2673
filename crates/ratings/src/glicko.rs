//! Glicko-2 ratings, one per [`RatingSpeed`].
//!
//! The arithmetic is the `skillratings` crate's Glicko-2; this module fixes the
//! parameters and the bookkeeping around it:
//!
//! - a new player starts at 1500 with deviation 350 and volatility 0.06
//!   (Glickman's suggested starting values);
//! - the system constant τ is [`TAU`] = 0.75, the value lichess uses (Glickman
//!   suggests 0.3–1.2; larger lets volatility move faster);
//! - every rated game is one rating period for each player ([`rate_game`]),
//!   as on lichess, so ratings move after every game;
//! - after every update the deviation is kept within
//!   [`MIN_DEVIATION`]..=[`MAX_DEVIATION`] (45..=350): the floor keeps
//!   established ratings responsive, the cap is the starting uncertainty;
//! - a rating is provisional (shown as `1500?`) while its deviation is above
//!   [`PROVISIONAL_DEVIATION`] = 110, as on lichess.

use std::fmt;

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{self, Glicko2Config, Glicko2Rating};

use crate::{GameResult, Outcome, RatingSpeed};

/// Rating of a new player.
pub const DEFAULT_RATING: f64 = 1500.0;
/// Deviation of a new player; also the cap, [`MAX_DEVIATION`].
pub const DEFAULT_DEVIATION: f64 = 350.0;
/// Volatility of a new player.
pub const DEFAULT_VOLATILITY: f64 = 0.06;
/// The Glicko-2 system constant τ used by [`rate_game`]: 0.75, as lichess.
pub const TAU: f64 = 0.75;
/// Deviations never fall below this after an update (45, as lichess).
pub const MIN_DEVIATION: f64 = 45.0;
/// Deviations never rise above this, by play or by [`decay`] (350, the starting deviation).
pub const MAX_DEVIATION: f64 = 350.0;
/// A rating whose deviation is above this (110, as lichess) is provisional.
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// Convergence tolerance of the volatility iteration (Glickman's suggestion).
const CONVERGENCE_TOLERANCE: f64 = 0.000_001;
/// Glicko-2's scale factor between the Glicko and Glicko-2 scales.
const SCALE: f64 = 173.7178;

/// One player's Glicko-2 rating in one speed.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko {
    /// The rating, on the familiar Glicko/Elo-like scale (1500 to start).
    pub rating: f64,
    /// The rating deviation (RD): how uncertain the rating is.
    pub deviation: f64,
    /// The volatility σ: how erratic the player's results are.
    pub volatility: f64,
    /// Rated games played in this speed.
    pub games: u32,
}

impl Default for Glicko {
    /// A new player: 1500 / 350 / 0.06, no games.
    fn default() -> Self {
        Glicko { rating: DEFAULT_RATING, deviation: DEFAULT_DEVIATION, volatility: DEFAULT_VOLATILITY, games: 0 }
    }
}

impl Glicko {
    /// Whether the rating is still provisional: deviation above [`PROVISIONAL_DEVIATION`] (110).
    #[must_use]
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }

    /// The rating rounded to the nearest whole number (halves away from zero).
    #[must_use]
    pub fn rounded(&self) -> i32 {
        // `as` saturates (and maps NaN to 0); ratings are nowhere near i32's range.
        self.rating.round() as i32
    }

    /// The rating as players see it: the rounded rating, with a `?` when
    /// provisional (`"1500?"`, `"1873"`). Same as `Display`.
    #[must_use]
    pub fn display(&self) -> String {
        self.to_string()
    }

    fn to_skill(self) -> Glicko2Rating {
        Glicko2Rating { rating: self.rating, deviation: self.deviation, volatility: self.volatility }
    }

    /// `self` updated to `new` over `games` more games, deviation clamped.
    fn updated(self, new: Glicko2Rating, games: u32) -> Glicko {
        Glicko {
            rating: new.rating,
            deviation: new.deviation.clamp(MIN_DEVIATION, MAX_DEVIATION),
            volatility: new.volatility,
            games: self.games.saturating_add(games),
        }
    }
}

impl fmt::Display for Glicko {
    /// The rounded rating, with a `?` when provisional.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.rounded(), if self.is_provisional() { "?" } else { "" })
    }
}

const fn outcome(o: Outcome) -> Outcomes {
    match o {
        Outcome::Win => Outcomes::WIN,
        Outcome::Draw => Outcomes::DRAW,
        Outcome::Loss => Outcomes::LOSS,
    }
}

fn config(tau: f64) -> Glicko2Config {
    Glicko2Config { tau, convergence_tolerance: CONVERGENCE_TOLERANCE }
}

/// Rates one game between `white` and `black`, returning their new ratings
/// `(white, black)`.
///
/// The game is treated as a complete rating period for each player, both
/// updated from the other's rating *before* the game (as lichess does, so
/// ratings move after every game). Uses τ = [`TAU`] (0.75), clamps the new
/// deviations to [`MIN_DEVIATION`]..=[`MAX_DEVIATION`] (45..=350) and adds one
/// to each player's `games`. Symmetric: swapping the players and the result
/// swaps the output.
#[must_use]
pub fn rate_game(white: &Glicko, black: &Glicko, result: GameResult) -> (Glicko, Glicko) {
    let (w, b) = glicko2::glicko2(&white.to_skill(), &black.to_skill(), &outcome(result.for_white()), &config(TAU));
    (white.updated(w, 1), black.updated(b, 1))
}

/// The textbook Glicko-2 update of `player` over one rating period holding
/// all of `results` (each an opponent's rating before the period and the
/// outcome from `player`'s side), with system constant `tau`.
///
/// All games count at once, against the opponents' ratings as given; this is
/// Glickman's algorithm (his paper's example uses τ = 0.5). Pass [`TAU`] for
/// this server's setting. The new deviation is clamped to
/// [`MIN_DEVIATION`]..=[`MAX_DEVIATION`] and `games` grows by `results.len()`.
/// With no results the player sat the period out: only the deviation grows,
/// as [`decay`] by one period.
#[must_use]
pub fn rate_period(player: &Glicko, results: &[(Glicko, Outcome)], tau: f64) -> Glicko {
    let results: Vec<_> = results.iter().map(|(opponent, o)| (opponent.to_skill(), outcome(*o))).collect();
    let new = glicko2::glicko2_rating_period(&player.to_skill(), &results, &config(tau));
    let games = u32::try_from(results.len()).unwrap_or(u32::MAX);
    player.updated(new, games)
}

/// `g` after `periods` rating periods without games: the deviation grows as
/// φ' = √(φ² + periods·σ²) on the Glicko-2 scale (Glickman's step 6 applied
/// `periods` times; fractional periods allowed), capped at [`MAX_DEVIATION`].
/// Rating, volatility and games are unchanged. Negative, NaN or infinite
/// `periods` count as none, so the deviation is at most capped.
///
/// How long a period is (lichess-like per-game periods suggest a few days) is
/// the caller's choice; `decay(g, 1.0)` matches `skillratings`'s
/// `decay_deviation`.
#[must_use]
pub fn decay(g: &Glicko, periods: f64) -> Glicko {
    let grown = if periods.is_finite() && periods > 0.0 {
        let phi = g.deviation / SCALE;
        periods.mul_add(g.volatility * g.volatility, phi * phi).sqrt() * SCALE
    } else {
        g.deviation
    };
    Glicko { deviation: grown.min(MAX_DEVIATION), ..*g }
}

/// The expected score of `a` against `b` (between 0 and 1; the win
/// probability counting a draw as half), allowing for both deviations.
#[must_use]
pub fn expected_score(a: &Glicko, b: &Glicko) -> f64 {
    glicko2::expected_score(&a.to_skill(), &b.to_skill()).0
}

/// One player's ratings: a [`Glicko`] for each [`RatingSpeed`], all starting at the default.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SpeedRatings {
    /// Bullet (and ultrabullet) games.
    pub bullet: Glicko,
    /// Blitz games.
    pub blitz: Glicko,
    /// Rapid games.
    pub rapid: Glicko,
    /// Classical games.
    pub classical: Glicko,
    /// Correspondence games.
    pub correspondence: Glicko,
}

impl SpeedRatings {
    /// The rating for `speed`.
    #[must_use]
    pub const fn get(&self, speed: RatingSpeed) -> &Glicko {
        match speed {
            RatingSpeed::Bullet => &self.bullet,
            RatingSpeed::Blitz => &self.blitz,
            RatingSpeed::Rapid => &self.rapid,
            RatingSpeed::Classical => &self.classical,
            RatingSpeed::Correspondence => &self.correspondence,
        }
    }

    /// The rating for `speed`, to update in place.
    pub const fn get_mut(&mut self, speed: RatingSpeed) -> &mut Glicko {
        match speed {
            RatingSpeed::Bullet => &mut self.bullet,
            RatingSpeed::Blitz => &mut self.blitz,
            RatingSpeed::Rapid => &mut self.rapid,
            RatingSpeed::Classical => &mut self.classical,
            RatingSpeed::Correspondence => &mut self.correspondence,
        }
    }

    /// Every speed with its rating, in [`RatingSpeed::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (RatingSpeed, &Glicko)> + '_ {
        RatingSpeed::ALL.into_iter().map(move |speed| (speed, self.get(speed)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g(rating: f64, deviation: f64) -> Glicko {
        Glicko { rating, deviation, volatility: 0.06, games: 0 }
    }

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Glickman, "Example of the Glicko-2 system", section 3.
    #[test]
    fn glickman_paper_example() {
        let player = g(1500.0, 200.0);
        let results =
            [(g(1400.0, 30.0), Outcome::Win), (g(1550.0, 100.0), Outcome::Loss), (g(1700.0, 300.0), Outcome::Loss)];
        let new = rate_period(&player, &results, 0.5);
        assert!(close(new.rating, 1464.06, 0.01), "{new:?}");
        assert!(close(new.deviation, 151.52, 0.01), "{new:?}");
        assert!(close(new.volatility, 0.05999, 0.00001), "{new:?}");
        assert_eq!(new.games, 3);
    }

    #[test]
    fn empty_period_only_decays() {
        let player = Glicko { games: 7, ..g(1800.0, 60.0) };
        assert_eq!(rate_period(&player, &[], TAU), decay(&player, 1.0));
    }

    #[test]
    fn new_players_win_and_lose() {
        let (w, b) = rate_game(&Glicko::default(), &Glicko::default(), GameResult::WhiteWins);
        // Glickman's example numbers for two fresh players (rating moves by ~162, RD 350 → ~290).
        assert!(close(w.rating, 1662.3, 0.5), "{w:?}");
        assert!(close(b.rating, 1337.7, 0.5), "{b:?}");
        assert!(close(w.deviation, 290.3, 0.5), "{w:?}");
        assert!(close(w.rating + b.rating, 3000.0, 1e-9));
        assert_eq!((w.games, b.games), (1, 1));
        assert!(w.is_provisional() && b.is_provisional());
    }

    #[test]
    fn symmetric() {
        let a = Glicko { volatility: 0.059, games: 40, ..g(1720.0, 80.0) };
        let b = Glicko { volatility: 0.061, games: 3, ..g(1610.0, 240.0) };
        for (result, mirrored) in [
            (GameResult::WhiteWins, GameResult::BlackWins),
            (GameResult::BlackWins, GameResult::WhiteWins),
            (GameResult::Draw, GameResult::Draw),
        ] {
            let (aw, bw) = rate_game(&a, &b, result);
            let (bb, ab) = rate_game(&b, &a, mirrored);
            assert_eq!((aw, bw), (ab, bb));
        }
    }

    #[test]
    fn direction_of_change() {
        let strong = g(1900.0, 70.0);
        let weak = g(1600.0, 70.0);
        let (s, w) = rate_game(&strong, &weak, GameResult::WhiteWins);
        assert!(s.rating > strong.rating && w.rating < weak.rating);
        // The expected win gains less than the upset.
        let (s2, w2) = rate_game(&strong, &weak, GameResult::BlackWins);
        assert!(s2.rating < strong.rating && w2.rating > weak.rating);
        assert!(w2.rating - weak.rating > s.rating - strong.rating);
        // A draw moves the stronger player down and the weaker up.
        let (s3, w3) = rate_game(&strong, &weak, GameResult::Draw);
        assert!(s3.rating < strong.rating && w3.rating > weak.rating);
        // Equal players drawing stay put, but become more certain.
        let (a, b) = rate_game(&Glicko::default(), &Glicko::default(), GameResult::Draw);
        assert!(close(a.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
        assert!(a.deviation < 350.0 && b.deviation < 350.0);
    }

    #[test]
    fn deviation_stays_within_bounds() {
        // With volatility 0.06 one game a period settles near RD 60; a steadier
        // player (low volatility) would go below 45 but for the floor.
        let mut a = Glicko { volatility: 0.02, ..g(2000.0, 50.0) };
        let mut b = a;
        for i in 0..500 {
            // Mostly the expected result, so the ratings firm up to the floor.
            let result = if i % 50 == 0 { GameResult::WhiteWins } else { GameResult::Draw };
            (a, b) = rate_game(&a, &b, result);
            for p in [a, b] {
                assert!((MIN_DEVIATION..=MAX_DEVIATION).contains(&p.deviation), "{p:?}");
            }
        }
        assert_eq!(a.deviation, MIN_DEVIATION);
        assert_eq!(a.games, 500);
        // A deviation that somehow exceeds the cap is brought back to it.
        let (w, _) = rate_game(&g(1500.0, 900.0), &Glicko::default(), GameResult::Draw);
        assert!(w.deviation <= MAX_DEVIATION);
    }

    #[test]
    fn decay_grows_deviation_up_to_the_cap() {
        let p = Glicko { games: 12, ..g(2100.0, 60.0) };
        let one = decay(&p, 1.0);
        let expected = glicko2::decay_deviation(&p.to_skill());
        assert!(close(one.deviation, expected.deviation, 1e-9));
        assert!(one.deviation > p.deviation);
        assert_eq!((one.rating, one.volatility, one.games), (p.rating, p.volatility, p.games));
        // Two periods at once equal two single periods.
        assert!(close(decay(&p, 2.0).deviation, decay(&one, 1.0).deviation, 1e-9));
        assert!(decay(&p, 0.5).deviation < one.deviation);
        assert_eq!(decay(&p, 1e9).deviation, MAX_DEVIATION);
        for nothing in [0.0, -3.0, f64::NAN, f64::INFINITY] {
            assert_eq!(decay(&p, nothing), p);
        }
    }

    #[test]
    fn provisional_display() {
        assert_eq!(Glicko::default().display(), "1500?");
        assert_eq!(g(1873.4, 110.0).display(), "1873");
        assert_eq!(g(1873.5, 110.1).display(), "1874?");
        assert_eq!(g(1873.5, 60.0).rounded(), 1874);
        assert!(!g(1500.0, PROVISIONAL_DEVIATION).is_provisional());
    }

    #[test]
    fn expected_scores() {
        assert!(close(expected_score(&Glicko::default(), &Glicko::default()), 0.5, 1e-12));
        let e = expected_score(&g(1900.0, 60.0), &g(1600.0, 60.0));
        assert!(e > 0.8 && e < 0.9, "{e}");
        assert!(close(e + expected_score(&g(1600.0, 60.0), &g(1900.0, 60.0)), 1.0, 1e-12));
    }

    #[test]
    fn speed_ratings() {
        let mut r = SpeedRatings::default();
        r.get_mut(RatingSpeed::Blitz).rating = 1700.0;
        assert_eq!(r.blitz.rating, 1700.0);
        assert_eq!(r.get(RatingSpeed::Bullet), &Glicko::default());
        let speeds: Vec<_> = r.iter().map(|(s, _)| s).collect();
        assert_eq!(speeds, RatingSpeed::ALL);
        let json = serde_json::to_string(&r).unwrap();
        assert_eq!(serde_json::from_str::<SpeedRatings>(&json).unwrap(), r);
        assert!(json.contains("\"correspondence\":{\"rating\":1500.0,\"deviation\":350.0"), "{json}");
    }
}
