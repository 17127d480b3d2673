//! Puzzle ratings: where a new player starts (the 学棋 course moves it up), and the store's ratings as Glicko-2.

use guoxiang_ratings::Glicko;
use guoxiang_store::PuzzleGlicko;

/// A new player's puzzle rating when nothing is known of them: the easiest band (the first puzzles come from
/// 900–1100, the window of `Store::next_puzzle` being ±100 first).
pub const NEWCOMER_RATING: f64 = 1000.0;
/// What the whole 学棋 course adds to a new player's puzzle rating (course finished → 1250; each lesson done adds
/// its share).
pub const COURSE_RATING: f64 = 250.0;
/// A new player's deviation: smaller than Glicko's 350 because we start near where a beginner is, so that one miss
/// on the first puzzle costs about 100 points, not 175 (docs/puzzles/server.md "Ratings").
pub const NEWCOMER_DEVIATION: f64 = 250.0;

/// The ids of the 学棋 course's lessons (the embedded course).
pub fn course_lessons() -> Vec<String> {
    guoxiang_learn::Course::embedded().course.lessons().map(|(_, l)| l.id.clone()).collect()
}

/// The rating a new player starts from, `done` of the 学棋 course's `total` lessons being finished: 1000 plus the
/// course's share of 250, deviation 250.
pub fn newcomer(done: usize, total: usize) -> Glicko {
    let share = if total == 0 { 0.0 } else { done.min(total) as f64 / total as f64 };
    Glicko {
        rating: (NEWCOMER_RATING + COURSE_RATING * share).round(),
        deviation: NEWCOMER_DEVIATION,
        volatility: guoxiang_ratings::DEFAULT_VOLATILITY,
        games: 0,
    }
}

/// A stored rating with its rounds as Glicko-2.
pub fn glicko(g: PuzzleGlicko, rounds: i64) -> Glicko {
    Glicko {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: u32::try_from(rounds.max(0)).unwrap_or(u32::MAX),
    }
}

/// A Glicko-2 rating as stored.
pub fn stored(g: &Glicko) -> PuzzleGlicko {
    PuzzleGlicko { rating: g.rating, deviation: g.deviation, volatility: g.volatility }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_player_starts_low_and_the_course_moves_it_up() {
        let total = course_lessons().len();
        assert!(total > 0);
        assert_eq!((newcomer(0, total).rating, newcomer(0, total).deviation), (1000.0, 250.0));
        assert_eq!(newcomer(total, total).rating, 1250.0);
        assert_eq!(newcomer(total + 10, total).rating, 1250.0, "more than the course is the course");
    }
}
