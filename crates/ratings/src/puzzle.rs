//! Glicko-2 for puzzle rounds (战术训练): the solver against the puzzle.
//!
//! A round is one rating period for the player and one for the puzzle, as [`rate_game`] treats a game: a solved
//! puzzle is a win for the player and a loss for the puzzle, a failed one the other way round. The parameters are
//! those of [`crate::glicko`]: τ = [`TAU`] (0.75), a new player 1500 / 350 / 0.06, deviations kept within
//! [`MIN_DEVIATION`]..=[`MAX_DEVIATION`] (45..=350) after every round, provisional above 110.
//!
//! A puzzle starts where its source rated it ([`puzzle_start`]): lichess's `Rating` and `RatingDeviation`, volatility
//! 0.06, with the deviation raised to at least [`PUZZLE_START_MIN_DEVIATION`] (60) — lichess's pool of players is
//! not ours, so a puzzle must stay able to move here — and at most 350. A puzzle with no rating starts as a new
//! player does.

use crate::{DEFAULT_DEVIATION, DEFAULT_RATING, DEFAULT_VOLATILITY, GameResult, Glicko, MAX_DEVIATION, rate_game};

#[cfg(doc)]
use crate::{MIN_DEVIATION, TAU};

/// The least deviation an imported puzzle starts with (60).
pub const PUZZLE_START_MIN_DEVIATION: f64 = 60.0;

/// The rating a puzzle starts with from its source's `rating` and `deviation` (lichess's columns), with `plays` as
/// its count of rounds. Missing values are a new player's (1500, 350); the deviation is kept within
/// [`PUZZLE_START_MIN_DEVIATION`]..=[`MAX_DEVIATION`] (60..=350); the volatility is 0.06.
#[must_use]
pub fn puzzle_start(rating: Option<i32>, deviation: Option<i32>, plays: Option<i64>) -> Glicko {
    let deviation = deviation.map_or(DEFAULT_DEVIATION, f64::from).clamp(PUZZLE_START_MIN_DEVIATION, MAX_DEVIATION);
    Glicko {
        rating: rating.map_or(DEFAULT_RATING, f64::from),
        deviation,
        volatility: DEFAULT_VOLATILITY,
        games: plays.map_or(0, |p| u32::try_from(p.max(0)).unwrap_or(u32::MAX)),
    }
}

/// Rates one round: `player` tried `puzzle` and solved it (`win`) or not. Returns `(player, puzzle)` after the
/// round, each updated from the other's rating before it; both count one more round.
#[must_use]
pub fn rate_round(player: &Glicko, puzzle: &Glicko, win: bool) -> (Glicko, Glicko) {
    rate_game(player, puzzle, if win { GameResult::WhiteWins } else { GameResult::BlackWins })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::MIN_DEVIATION;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    fn puzzle(rating: f64, deviation: f64) -> Glicko {
        Glicko { rating, deviation, volatility: 0.06, games: 100 }
    }

    /// Expected values from an independent Glicko-2 computation (Glickman's steps 1–8, τ = 0.75).
    #[test]
    fn new_player_against_a_1500_80_puzzle() {
        let p = puzzle(1500.0, 80.0);
        let (won, pz) = rate_round(&Glicko::default(), &p, true);
        assert!(close(won.rating, 1675.03, 0.05), "{won:?}");
        assert!(close(won.deviation, 250.48, 0.05), "{won:?}");
        assert!(close(pz.rating, 1487.76, 0.05), "{pz:?}");
        assert!(close(pz.deviation, 79.72, 0.05), "{pz:?}");
        assert_eq!((won.games, pz.games), (1, 101));
        let (lost, pz2) = rate_round(&Glicko::default(), &p, false);
        assert!(close(lost.rating, 1324.97, 0.05), "{lost:?}");
        assert!(pz2.rating > p.rating);
    }

    #[test]
    fn an_established_player_moves_little() {
        let player = Glicko { rating: 1800.0, deviation: 60.0, volatility: 0.06, games: 500 };
        let (won, _) = rate_round(&player, &puzzle(1500.0, 80.0), true);
        assert!(close(won.rating, 1803.22, 0.05), "{won:?}");
    }

    #[test]
    fn a_win_never_lowers_and_a_loss_never_raises() {
        for pr in [800.0, 1200.0, 1500.0, 1900.0, 2600.0] {
            for ur in [600.0, 1500.0, 2900.0] {
                for ud in [45.0, 120.0, 350.0] {
                    let u = Glicko { rating: ur, deviation: ud, volatility: 0.06, games: 3 };
                    let (w, pw) = rate_round(&u, &puzzle(pr, 75.0), true);
                    let (l, pl) = rate_round(&u, &puzzle(pr, 75.0), false);
                    assert!(w.rating >= u.rating && pw.rating <= pr, "{u:?} vs {pr}");
                    assert!(l.rating <= u.rating && pl.rating >= pr, "{u:?} vs {pr}");
                }
            }
        }
    }

    #[test]
    fn deviation_shrinks_with_rounds() {
        let mut u = Glicko::default();
        let mut last = u.deviation;
        for i in 0..30 {
            (u, _) = rate_round(&u, &puzzle(1500.0 + f64::from(i % 5) * 50.0, 80.0), i % 2 == 0);
            assert!(u.deviation < last || u.deviation == MIN_DEVIATION, "round {i}: {u:?}");
            last = u.deviation;
        }
        assert!(u.deviation < 110.0 && !u.is_provisional(), "{u:?}");
    }

    #[test]
    fn imported_puzzles_start_at_their_rating() {
        let p = puzzle_start(Some(1784), Some(77), Some(9822));
        assert_eq!((p.rating, p.deviation, p.volatility, p.games), (1784.0, 77.0, 0.06, 9822));
        assert_eq!(puzzle_start(Some(1200), Some(20), None).deviation, PUZZLE_START_MIN_DEVIATION);
        assert_eq!(puzzle_start(Some(1200), Some(900), None).deviation, MAX_DEVIATION);
        assert_eq!(puzzle_start(None, None, Some(-4)), Glicko::default());
    }
}
