//! The 级别/积分 (levels and points) system of Chinese online play.
//!
//! Everyone starts at [`START_POINTS`] = 0. Below 100 points a player is
//! unranked (无级别); every 100 points is one level, counting down from 30级:
//! 100–199 is 30级, 200–299 is 29级, …, 2900–2999 is 2级, and 3000 or more is
//! 1级 ([`level`], [`level_name`]).
//!
//! After a game the points move by a stake that depends on d, the absolute
//! difference of the two players' points before the game, and on whether the
//! side with fewer points (the "lower" side) or the one with more (the
//! "higher" side) won ([`points_after`]):
//!
//! | result        | d < 10 | 10 ≤ d ≤ 99       | 100 ≤ d ≤ 199 | d ≥ 200 |
//! |---------------|--------|-------------------|---------------|---------|
//! | draw          | 0      | (10 + d/10) / 2   | d/4           | d/4     |
//! | lower wins    | 10     | 10 + d/10         | d/2           | d/2     |
//! | higher wins   | 10     | 10 − d/12.5       | 2             | 0       |
//!
//! In a draw the lower side gains the stake and the higher side loses it; in a
//! decisive game the winner gains the stake and the loser loses it. With equal
//! points d = 0, so it does not matter which side counts as lower.
//!
//! Interpretations, fixed here:
//!
//! - the divisions are exact (d/10 of 55 is 5.5, not 5) and only the final
//!   stake is rounded, to the nearest whole point with halves rounded up
//!   (away from zero; every stake is non-negative): a draw at d = 10 is
//!   (10 + 1)/2 = 5.5 → 6, a lower-side win at d = 55 is 15.5 → 16. The
//!   arithmetic is done in integers (each stake is a fraction with a small
//!   denominator), so there are no floating-point rounding surprises;
//! - points never go below 0: the losing side loses at most the points it
//!   has, but the winner (or in a draw the lower side) still gains the full
//!   stake — so a game at the bottom can create points. Points saturate at
//!   `u32::MAX` at the top (unreachable in practice).

use guoxiang_clock::Lang;
use serde::{Deserialize, Serialize};

use crate::GameResult;

/// Points of a new player: 0.
pub const START_POINTS: u32 = 0;
/// Points per level: 100.
pub const LEVEL_STEP: u32 = 100;

/// The level for `points`: `None` below 100 (无级别, unranked), then
/// `Some(30)` for 100–199, `Some(29)` for 200–299, …, `Some(2)` for
/// 2900–2999 and `Some(1)` for 3000 and above.
#[must_use]
pub const fn level(points: u32) -> Option<u8> {
    let steps = points / LEVEL_STEP;
    if steps == 0 {
        None
    } else if steps >= 30 {
        Some(1)
    } else {
        // 1..=29 steps → 30..=2.
        Some(31 - steps as u8)
    }
}

/// The level for `points` as players read it: in Chinese `"无级别"` or
/// `"30级"` … `"1级"`, in English `"Unranked"` or `"Level 30"` … `"Level 1"`.
#[must_use]
pub fn level_name(points: u32, lang: Lang) -> String {
    match (level(points), lang) {
        (None, Lang::Zh) => "无级别".to_owned(),
        (None, Lang::En) => "Unranked".to_owned(),
        (Some(n), Lang::Zh) => format!("{n}级"),
        (Some(n), Lang::En) => format!("Level {n}"),
    }
}

/// Both players' points before and after one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PointsChange {
    /// White's points before the game.
    pub white_before: u32,
    /// White's points after the game.
    pub white_after: u32,
    /// `white_after - white_before`.
    pub white_delta: i32,
    /// Black's points before the game.
    pub black_before: u32,
    /// Black's points after the game.
    pub black_after: u32,
    /// `black_after - black_before`.
    pub black_delta: i32,
}

/// `num / den` rounded to the nearest integer, halves up (both non-negative, `den > 0`).
const fn div_round(num: u64, den: u64) -> u64 {
    (2 * num + den) / (2 * den)
}

/// What the lower side gains and the higher side loses in a draw, `d` apart.
const fn draw_stake(d: u64) -> u64 {
    match d {
        0..=9 => 0,
        // (10 + d/10) / 2 = (100 + d) / 20
        10..=99 => div_round(100 + d, 20),
        _ => div_round(d, 4),
    }
}

/// What the winner gains and the loser loses, `d` apart; `lower_won` when the
/// winner had fewer points.
const fn win_stake(d: u64, lower_won: bool) -> u64 {
    match (d, lower_won) {
        (0..=9, _) => 10,
        // 10 + d/10 = (100 + d) / 10
        (10..=99, true) => div_round(100 + d, 10),
        (_, true) => div_round(d, 2),
        // 10 − d/12.5 = (250 − 2d) / 25, positive for d ≤ 99
        (10..=99, false) => div_round(250 - 2 * d, 25),
        (100..=199, false) => 2,
        (_, false) => 0,
    }
}

/// `points` moved by `delta`, floored at 0 and saturating at `u32::MAX`.
fn apply(points: u32, delta: i64) -> u32 {
    u32::try_from((i64::from(points) + delta).max(0)).unwrap_or(u32::MAX)
}

/// Both players' points after a game between White with `white_points` and
/// Black with `black_points`, by the table in the [module docs](self): the
/// stake depends on d = |white_points − black_points| and on whether the side
/// with fewer points won, drew or lost; it is rounded to the nearest whole
/// point (halves up), and the loser's points stop at 0 while the winner still
/// gains the whole stake.
#[must_use]
pub fn points_after(white_points: u32, black_points: u32, result: GameResult) -> PointsChange {
    let d = u64::from(white_points.abs_diff(black_points));
    // White's signed change before flooring; Black's is the opposite.
    let white_change: i64 = match result {
        GameResult::Draw if white_points < black_points => draw_stake(d) as i64,
        GameResult::Draw => -(draw_stake(d) as i64),
        GameResult::WhiteWins => win_stake(d, white_points < black_points) as i64,
        GameResult::BlackWins => -(win_stake(d, black_points < white_points) as i64),
    };
    let white_after = apply(white_points, white_change);
    let black_after = apply(black_points, -white_change);
    let delta = |before: u32, after: u32| {
        i32::try_from(i64::from(after) - i64::from(before)).unwrap_or(if after > before { i32::MAX } else { i32::MIN })
    };
    PointsChange {
        white_before: white_points,
        white_after,
        white_delta: delta(white_points, white_after),
        black_before: black_points,
        black_after,
        black_delta: delta(black_points, black_after),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Outcome;
    use GameResult::{BlackWins, Draw, WhiteWins};

    #[test]
    fn levels() {
        let cases: [(u32, Option<u8>, &str, &str); 14] = [
            (0, None, "无级别", "Unranked"),
            (99, None, "无级别", "Unranked"),
            (100, Some(30), "30级", "Level 30"),
            (199, Some(30), "30级", "Level 30"),
            (200, Some(29), "29级", "Level 29"),
            (299, Some(29), "29级", "Level 29"),
            (1500, Some(16), "16级", "Level 16"),
            (2899, Some(3), "3级", "Level 3"),
            (2900, Some(2), "2级", "Level 2"),
            (2999, Some(2), "2级", "Level 2"),
            (3000, Some(1), "1级", "Level 1"),
            (3999, Some(1), "1级", "Level 1"),
            (5000, Some(1), "1级", "Level 1"),
            (u32::MAX, Some(1), "1级", "Level 1"),
        ];
        for (points, lvl, zh, en) in cases {
            assert_eq!(level(points), lvl, "{points}");
            assert_eq!(level_name(points, Lang::Zh), zh, "{points}");
            assert_eq!(level_name(points, Lang::En), en, "{points}");
        }
        assert_eq!(level(START_POINTS), None);
        // Each level covers exactly one step of 100 points.
        for n in 1..30u32 {
            assert_eq!(level(n * LEVEL_STEP), Some(31 - n as u8));
            assert_eq!(level(n * LEVEL_STEP + 99), Some(31 - n as u8));
        }
    }

    /// Stake by branch and boundary: (d, draw, lower wins, higher wins).
    const STAKES: &[(u32, u32, u32, u32)] = &[
        (0, 0, 10, 10),
        (1, 0, 10, 10),
        (9, 0, 10, 10),
        (10, 6, 11, 9),    // draw 5.5 → 6; higher 9.2 → 9
        (11, 6, 11, 9),    // draw 5.55 → 6; lower 11.1 → 11; higher 9.12 → 9
        (15, 6, 12, 9),    // draw 5.75 → 6; lower 11.5 → 12; higher 8.8 → 9
        (25, 6, 13, 8),    // draw 6.25 → 6; lower 12.5 → 13; higher 8
        (30, 7, 13, 8),    // draw 6.5 → 7; higher 7.6 → 8
        (31, 7, 13, 8),    // higher 7.52 → 8
        (44, 7, 14, 6),    // draw 7.2 → 7; lower 14.4 → 14; higher 6.48 → 6
        (50, 8, 15, 6),    // draw 7.5 → 8; higher 6
        (55, 8, 16, 6),    // draw 7.75 → 8; lower 15.5 → 16; higher 5.6 → 6
        (75, 9, 18, 4),    // draw 8.75 → 9; lower 17.5 → 18; higher 4
        (90, 10, 19, 3),   // draw 9.5 → 10; higher 2.8 → 3
        (99, 10, 20, 2),   // draw 9.95 → 10; lower 19.9 → 20; higher 2.08 → 2
        (100, 25, 50, 2),  // d/4, d/2, 2
        (101, 25, 51, 2),  // 25.25 → 25; 50.5 → 51
        (102, 26, 51, 2),  // 25.5 → 26
        (150, 38, 75, 2),  // 37.5 → 38
        (199, 50, 100, 2), // 49.75 → 50; 99.5 → 100
        (200, 50, 100, 0),
        (201, 50, 101, 0), // 50.25 → 50; 100.5 → 101
        (1000, 250, 500, 0),
        (2999, 750, 1500, 0), // 749.75 → 750; 1499.5 → 1500
    ];

    /// Checks one game both ways round (colours swapped), with `lower` points
    /// against `lower + d`.
    fn check(lower: u32, d: u32, result_for_lower: Outcome, lower_after: u32, higher_after: u32) {
        let higher = lower + d;
        let (as_white, as_black) = match result_for_lower {
            Outcome::Win => (WhiteWins, BlackWins),
            Outcome::Loss => (BlackWins, WhiteWins),
            Outcome::Draw => (Draw, Draw),
        };
        let c = points_after(lower, higher, as_white);
        let expected = PointsChange {
            white_before: lower,
            white_after: lower_after,
            white_delta: lower_after as i32 - lower as i32,
            black_before: higher,
            black_after: higher_after,
            black_delta: higher_after as i32 - higher as i32,
        };
        assert_eq!(c, expected, "lower {lower} as White, d {d}, {result_for_lower:?}");
        let c = points_after(higher, lower, as_black);
        assert_eq!(
            (c.white_before, c.white_after, c.black_before, c.black_after),
            (higher, higher_after, lower, lower_after),
            "lower {lower} as Black, d {d}, {result_for_lower:?}"
        );
    }

    #[test]
    fn stakes_table() {
        for &(d, draw, lower_wins, higher_wins) in STAKES {
            // Far from 0, so nothing is floored.
            let lower = 5000;
            let higher = lower + d;
            check(lower, d, Outcome::Draw, lower + draw, higher - draw);
            check(lower, d, Outcome::Win, lower + lower_wins, higher - lower_wins);
            check(lower, d, Outcome::Loss, lower - higher_wins, higher + higher_wins);
        }
    }

    #[test]
    fn named_examples() {
        // Draw at d = 10: (10 + 1)/2 = 5.5 → 6.
        assert_eq!(points_after(1000, 1010, Draw).white_delta, 6);
        assert_eq!(points_after(1000, 1010, Draw).black_delta, -6);
        // Lower side wins at d = 55: 15.5 → 16.
        assert_eq!(points_after(945, 1000, WhiteWins).white_delta, 16);
        // Higher side wins at d = 50: 10 − 4 = 6.
        assert_eq!(points_after(1050, 1000, WhiteWins).white_delta, 6);
        assert_eq!(points_after(1050, 1000, WhiteWins).black_delta, -6);
        // Equal points.
        assert_eq!(points_after(700, 700, Draw).white_delta, 0);
        assert_eq!(points_after(700, 700, BlackWins).black_delta, 10);
        // The higher side winning by 200 or more gains nothing.
        let c = points_after(2600, 300, WhiteWins);
        assert_eq!((c.white_after, c.black_after), (2600, 300));
    }

    #[test]
    fn never_below_zero() {
        // 5 points losing a 10-point game: down to 0, the winner still gains 10.
        let c = points_after(5, 5, BlackWins);
        assert_eq!(
            c,
            PointsChange {
                white_before: 5,
                white_after: 0,
                white_delta: -5,
                black_before: 5,
                black_after: 15,
                black_delta: 10
            }
        );
        // New players.
        let c = points_after(START_POINTS, START_POINTS, WhiteWins);
        assert_eq!((c.white_after, c.black_after, c.black_delta), (10, 0, 0));
        // Lower side with 0 points beats 40 (d = 40: 14): higher loses 14.
        let c = points_after(0, 40, WhiteWins);
        assert_eq!((c.white_after, c.black_after), (14, 26));
        // Higher side with 8 points loses to 0 (d = 8: 10): floored at 0.
        let c = points_after(8, 0, BlackWins);
        assert_eq!((c.white_after, c.white_delta, c.black_after), (0, -8, 10));
        // Lower side with 3 points loses to 12 (d = 9: 10): floored.
        let c = points_after(3, 12, BlackWins);
        assert_eq!((c.white_after, c.black_after), (0, 22));
    }

    #[test]
    fn extremes_do_not_overflow() {
        let c = points_after(0, u32::MAX, WhiteWins);
        assert_eq!(c.white_after, u32::MAX / 2 + 1);
        assert_eq!(c.white_delta, i32::MAX);
        assert_eq!(c.black_after, u32::MAX - (u32::MAX / 2 + 1));
        let c = points_after(u32::MAX, u32::MAX, WhiteWins);
        assert_eq!((c.white_after, c.white_delta, c.black_delta), (u32::MAX, 0, -10));
    }

    #[test]
    fn conserved_and_symmetric_everywhere() {
        for white in (0..400).step_by(3) {
            for black in (0..400).step_by(7) {
                for (result, mirrored) in [(WhiteWins, BlackWins), (BlackWins, WhiteWins), (Draw, Draw)] {
                    let c = points_after(white, black, result);
                    let m = points_after(black, white, mirrored);
                    assert_eq!((c.white_after, c.black_after), (m.black_after, m.white_after));
                    assert_eq!(c.white_delta, c.white_after as i32 - white as i32);
                    assert_eq!(c.black_delta, c.black_after as i32 - black as i32);
                    // Without the floor the two changes cancel out.
                    if c.white_after > 0 && c.black_after > 0 {
                        assert_eq!(c.white_delta + c.black_delta, 0, "{c:?}");
                    }
                    // The winner never loses, the loser never gains.
                    match result {
                        WhiteWins => assert!(c.white_delta >= 0 && c.black_delta <= 0),
                        BlackWins => assert!(c.white_delta <= 0 && c.black_delta >= 0),
                        Draw => {}
                    }
                }
            }
        }
    }

    #[test]
    fn serde_round_trip() {
        let c = points_after(150, 90, Draw);
        let json = serde_json::to_string(&c).unwrap();
        assert_eq!(
            json,
            r#"{"white_before":150,"white_after":142,"white_delta":-8,"black_before":90,"black_after":98,"black_delta":8}"#
        );
        assert_eq!(serde_json::from_str::<PointsChange>(&json).unwrap(), c);
    }
}
