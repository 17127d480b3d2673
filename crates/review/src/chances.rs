//! From engine scores to winning chances, move classes and accuracy (docs/review.md has the curve, the thresholds
//! and how they were calibrated).
//!
//! - **Expected score** of the side to move, 0–100, from the engine's centipawns: `50 · (1 + σ(K · (cp − A)) −
//!   σ(K · (−cp − A)))` with `σ(x) = 1 / (1 + exp(−x))` and `A` = [`DRAW_MARGIN`]: a chance to win that rises
//!   around `+A`, less a chance to lose that rises around `−A` (a draw counts ½); a mate for the side to move is
//!   100, being mated 0. [`K`] and [`DRAW_MARGIN`] were fitted to
//!   an independent engine's win/draw/loss estimate of the same positions (docs/review.md, "Calibration").
//! - **Loss** of a move: the mover's expected score before it (with the best move) minus after it (with the move
//!   played), in percentage points, never below 0.
//! - **Class** by loss: best (the engine's move, or < [`BEST_MAX`]), excellent < [`EXCELLENT_MAX`], good <
//!   [`INACCURACY_MIN`], inaccuracy (?!) from [`INACCURACY_MIN`], mistake (?) from [`MISTAKE_MIN`], blunder (??)
//!   from [`BLUNDER_MIN`]; then "only move" (the best move played where every other move loses at least
//!   [`ONLY_MOVE_GAP`]) and "missed win" (from a won position, [`WON`], to one that is not, below [`NOT_WON`], by
//!   a mistake or a blunder).
//! - **Accuracy** of a move: `100 · exp(−loss / ACCURACY_SCALE)`; of a side: the mean over its moves that had a
//!   choice (positions with one legal move are left out).

use serde::{Deserialize, Serialize};

/// The slope of the expected-score curve per centipawn (fitted: docs/review.md "Calibration").
pub const K: f64 = 0.0385;
/// Where the chance to win (and, below −DRAW_MARGIN, to lose) rises, in centipawns (fitted with [`K`]).
pub const DRAW_MARGIN: f64 = 70.0;

/// Below this loss a move that is not the engine's choice still counts as best (percentage points).
pub const BEST_MAX: f64 = 1.0;
/// Below this loss: excellent.
pub const EXCELLENT_MAX: f64 = 2.0;
/// From this loss: inaccuracy (?!).
pub const INACCURACY_MIN: f64 = 4.0;
/// From this loss: mistake (?).
pub const MISTAKE_MIN: f64 = 8.0;
/// From this loss: blunder (??).
pub const BLUNDER_MIN: f64 = 30.0;
/// With two judges (`Judges::Both`), a blunder or missed win one judge finds stands only when the other finds the
/// move loses at least this much; else it is a mistake (fitted: docs/review.md, "Two judges").
pub const CONFIRM_MIN: f64 = 25.0;
/// "Only move": the best move was played and the second best loses at least this much more.
pub const ONLY_MOVE_GAP: f64 = 20.0;
/// A position with at least this expected score is won.
pub const WON: f64 = 85.0;
/// A missed win ends below this expected score.
pub const NOT_WON: f64 = 70.0;
/// Accuracy falls by a factor e per this many points of loss.
pub const ACCURACY_SCALE: f64 = 14.0;

/// An evaluation: centipawns, or mate in moves (positive: the side it is given for mates).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Eval {
    Cp(i32),
    Mate(i32),
}

impl Eval {
    /// The same evaluation from the other side.
    pub fn flip(self) -> Eval {
        match self {
            Eval::Cp(c) => Eval::Cp(-c),
            Eval::Mate(m) => Eval::Mate(-m),
        }
    }

    /// The expected score (0–100) of the side this evaluation is for.
    pub fn expected(self) -> f64 {
        match self {
            Eval::Mate(m) if m > 0 => 100.0,
            Eval::Mate(_) => 0.0,
            Eval::Cp(c) => expected_cp(c),
        }
    }

    /// As in PGN `[%eval]` comments: `0.35`, `-1.20`, `#3`, `#-2` (always from White's side there).
    pub fn pgn(self) -> String {
        match self {
            Eval::Cp(c) => format!("{:.2}", f64::from(c) / 100.0),
            Eval::Mate(m) => format!("#{m}"),
        }
    }

    /// For people: `+0.35`, `−1.20`, `M3`, `−M2`.
    pub fn human(self) -> String {
        match self {
            Eval::Cp(c) if c >= 0 => format!("+{:.2}", f64::from(c) / 100.0),
            Eval::Cp(c) => format!("−{:.2}", f64::from(-c) / 100.0),
            Eval::Mate(m) if m > 0 => format!("M{m}"),
            Eval::Mate(m) => format!("−M{}", -m),
        }
    }
}

/// The expected score (0–100) of the side to move at `cp` centipawns.
pub fn expected_cp(cp: i32) -> f64 {
    let cp = f64::from(cp.clamp(-4000, 4000));
    let sigmoid = |x: f64| 1.0 / (1.0 + (-x).exp());
    50.0 * (1.0 + sigmoid(K * (cp - DRAW_MARGIN)) - sigmoid(K * (-cp - DRAW_MARGIN)))
}

/// A move's class.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Class {
    OnlyMove,
    Best,
    Excellent,
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
    MissedWin,
}

impl Class {
    pub const ALL: [Class; 8] = [
        Class::OnlyMove,
        Class::Best,
        Class::Excellent,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
        Class::MissedWin,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Class::OnlyMove => "only_move",
            Class::Best => "best",
            Class::Excellent => "excellent",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
            Class::MissedWin => "missed_win",
        }
    }

    pub fn zh(self) -> &'static str {
        match self {
            Class::OnlyMove => "唯一着",
            Class::Best => "最佳",
            Class::Excellent => "很好",
            Class::Good => "不错",
            Class::Inaccuracy => "欠准",
            Class::Mistake => "错着",
            Class::Blunder => "败着",
            Class::MissedWin => "错失胜机",
        }
    }

    pub fn en(self) -> &'static str {
        match self {
            Class::OnlyMove => "Only move",
            Class::Best => "Best",
            Class::Excellent => "Excellent",
            Class::Good => "Good",
            Class::Inaccuracy => "Inaccuracy",
            Class::Mistake => "Mistake",
            Class::Blunder => "Blunder",
            Class::MissedWin => "Missed win",
        }
    }

    /// A mistake, blunder or missed win.
    pub fn is_mistake_or_worse(self) -> bool {
        matches!(self, Class::Mistake | Class::Blunder | Class::MissedWin)
    }

    /// Whether the move gets a comment: an inaccuracy or worse.
    pub fn is_error(self) -> bool {
        matches!(self, Class::Inaccuracy | Class::Mistake | Class::Blunder | Class::MissedWin)
    }
}

/// The class of a move that loses `loss` points, given whether it was the engine's own choice, the expected score
/// before (with the best move) and after, and how much the second-best move would have lost (`None`: no other
/// legal move).
pub fn classify(loss: f64, engine_move: bool, before: f64, after: f64, second_loss: Option<f64>) -> Class {
    let by_loss = if engine_move || loss < BEST_MAX {
        Class::Best
    } else if loss < EXCELLENT_MAX {
        Class::Excellent
    } else if loss < INACCURACY_MIN {
        Class::Good
    } else if loss < MISTAKE_MIN {
        Class::Inaccuracy
    } else if loss < BLUNDER_MIN {
        Class::Mistake
    } else {
        Class::Blunder
    };
    match by_loss {
        Class::Best if engine_move && second_loss.is_some_and(|s| s >= ONLY_MOVE_GAP) => Class::OnlyMove,
        Class::Mistake | Class::Blunder if before >= WON && after < NOT_WON => Class::MissedWin,
        c => c,
    }
}

/// The class one judge gave a move, given the loss the other judge finds in it: a blunder or missed win the other
/// judge puts below [`CONFIRM_MIN`] is a mistake.
pub fn confirmed(class: Class, other_loss: f64) -> Class {
    match class {
        Class::Blunder | Class::MissedWin if other_loss < CONFIRM_MIN => Class::Mistake,
        c => c,
    }
}

/// The slope of the *people's* curve: a plain logistic `100 / (1 + e^(−K·cp))` fitted on the results of lichess
/// games (the `calibrate` example, K = 0.0047): how often people actually win from an evaluation. Far flatter than
/// the engine curve [`K`], which describes engine play — a swing of a quarter of a pawn near equality is 9 points to
/// the engine curve and 3 to people's.
pub const PEOPLE_K: f64 = 0.0047;
/// A mistake or inaccuracy is marked only when some judge finds the move loses at least this many points on the
/// people's curve (about a third of a pawn near equality): smaller swings are ones a beginner cannot feel
/// (docs/review.md, "Marks for people"). The floor holds only for swings the speaking judge puts below
/// [`FLOOR_BELOW`] on the engine's curve.
pub const PEOPLE_MIN: f64 = 4.0;
/// A move the speaking judge finds loses at least this many points on the engine's curve keeps its mark whatever the
/// people's curve says: where the two curves disagree by that much, the independent engine mostly sides with ours.
pub const FLOOR_BELOW: f64 = 10.0;
/// A blunder or missed win that gives away no material and allows no mate is marked "??" only when both judges find
/// it loses at least this many points on the people's curve (a change in a person's chances they feel): otherwise
/// it is a mistake ("?"). Large swings the engine's curve sees where people's chances hardly move are the marks an
/// independent engine confirms least (docs/review.md, "Marks for people").
pub const PEOPLE_BLUNDER: f64 = 10.0;
/// Material of at least this many pawns given away (a minor piece), or a mate allowed, makes a mistake a blunder …
pub const BLUNDER_MATERIAL: i32 = 3;
/// … from a position the mover was not already losing: expected score before the move at least this much.
pub const NOT_LOST: f64 = 25.0;

/// The people's expected score (0–100) of the side an evaluation is for ([`PEOPLE_K`]).
pub fn people_expected(e: Eval) -> f64 {
    match e {
        Eval::Mate(m) if m > 0 => 100.0,
        Eval::Mate(_) => 0.0,
        Eval::Cp(c) => 100.0 / (1.0 + (-PEOPLE_K * f64::from(c.clamp(-4000, 4000))).exp()),
    }
}

/// What one judge's two lines say a move did, beyond its loss: the facts the marks for people use.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Facts {
    /// Points lost on the people's curve ([`people_expected`]), from the evaluations before and after the move.
    pub people_loss: f64,
    /// Material (pawns) the opponent's best line after the move wins against the engine's line before it.
    pub material_lost: i32,
    /// The move allows a mate that was not there before.
    pub allows_mate: bool,
    /// The mover's expected score (engine curve) before the move.
    pub before: f64,
}

/// The mark a person gets for a move the judges classed `class` (after [`confirmed`]): `loss` (engine curve) and
/// `speaker` are what the judge that speaks for the move found, `other_loss` and `other_people` the other judge's loss (engine curve) and
/// people's loss (with one judge: the speaker's own).
///
/// - An inaccuracy or mistake whose swing no judge finds at least [`PEOPLE_MIN`] on the people's curve is no
///   error at all (class good): no mark, no comment — unless it gives material away or allows a mate, or the
///   speaking judge's `loss` is at least [`FLOOR_BELOW`].
/// - A mistake that gives away a minor piece or more ([`BLUNDER_MATERIAL`]) or allows a mate, from a position that
///   was not already lost ([`NOT_LOST`]), is a blunder when the other judge finds it loses at least
///   [`CONFIRM_MIN`], as any blunder needs.
/// - A blunder or missed win that gives away nothing (no minor piece, no mate) is a mistake unless both judges find
///   it costs at least [`PEOPLE_BLUNDER`] on the people's curve.
pub fn for_people(class: Class, loss: f64, speaker: Facts, other_loss: f64, other_people: f64) -> Class {
    let gives_away = speaker.material_lost >= BLUNDER_MATERIAL || speaker.allows_mate;
    match class {
        Class::Inaccuracy | Class::Mistake
            if speaker.people_loss.max(other_people) < PEOPLE_MIN
                && loss < FLOOR_BELOW
                && speaker.material_lost < 1
                && !speaker.allows_mate =>
        {
            Class::Good
        }
        Class::Mistake if gives_away && speaker.before >= NOT_LOST && other_loss >= CONFIRM_MIN => Class::Blunder,
        Class::Blunder | Class::MissedWin if !gives_away && speaker.people_loss.min(other_people) < PEOPLE_BLUNDER => {
            Class::Mistake
        }
        c => c,
    }
}

/// The NAG of a class: 6 (?!), 2 (?), 4 (??) for errors; a missed win is marked by its loss.
pub fn nag(class: Class, loss: f64) -> Option<u8> {
    match class {
        Class::Inaccuracy => Some(6),
        Class::Mistake => Some(2),
        Class::Blunder => Some(4),
        Class::MissedWin if loss >= BLUNDER_MIN => Some(4),
        Class::MissedWin => Some(2),
        _ => None,
    }
}

/// The accuracy (0–100) of a move that loses `loss` points.
pub fn move_accuracy(loss: f64) -> f64 {
    100.0 * (-loss.max(0.0) / ACCURACY_SCALE).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_blunder_one_judge_finds_needs_the_other_to_find_a_large_loss() {
        assert_eq!(confirmed(Class::Blunder, CONFIRM_MIN), Class::Blunder);
        assert_eq!(confirmed(Class::Blunder, CONFIRM_MIN - 0.1), Class::Mistake);
        assert_eq!(confirmed(Class::MissedWin, 3.0), Class::Mistake);
        assert_eq!(confirmed(Class::MissedWin, 40.0), Class::MissedWin);
        for c in [Class::Mistake, Class::Inaccuracy, Class::Good, Class::Best, Class::OnlyMove] {
            assert_eq!(confirmed(c, 0.0), c);
        }
    }

    #[test]
    fn the_curve_is_symmetric_and_monotone() {
        assert!((expected_cp(0) - 50.0).abs() < 1e-9);
        assert!((expected_cp(150) + expected_cp(-150) - 100.0).abs() < 1e-9);
        let mut last = 0.0;
        for cp in (-1000..=1000).step_by(50) {
            let e = expected_cp(cp);
            assert!(e > last, "{cp}");
            last = e;
        }
        assert_eq!(Eval::Mate(3).expected(), 100.0);
        assert_eq!(Eval::Mate(-1).expected(), 0.0);
        assert_eq!(Eval::Cp(120).flip(), Eval::Cp(-120));
    }

    #[test]
    fn the_fitted_curve_is_steep_near_equality_and_saturates_beyond_two_pawns() {
        // Values of the fitted curve (K = 0.0385, DRAW_MARGIN = 70): docs/review.md, "Calibration".
        for (cp, e) in [(0, 50.0), (35, 59.5), (70, 74.8), (100, 87.9), (150, 97.8), (300, 100.0)] {
            assert!((expected_cp(cp) - e).abs() < 0.1, "{cp}: {}", expected_cp(cp));
        }
        // A pawn lost near equality costs far more than half a pawn at +2.
        assert!(expected_cp(50) - expected_cp(-50) > 25.0);
        assert!(expected_cp(250) - expected_cp(200) < 1.0);
    }

    #[test]
    fn classes_follow_the_thresholds() {
        assert_eq!(classify(0.0, true, 50.0, 50.0, Some(2.0)), Class::Best);
        assert_eq!(classify(0.5, false, 50.0, 49.5, None), Class::Best);
        assert_eq!(classify(1.5, false, 50.0, 48.5, None), Class::Excellent);
        assert_eq!(classify(3.0, false, 50.0, 47.0, None), Class::Good);
        assert_eq!(classify(INACCURACY_MIN, false, 50.0, 46.0, None), Class::Inaccuracy);
        assert_eq!(classify(7.9, false, 50.0, 42.1, None), Class::Inaccuracy);
        assert_eq!(classify(MISTAKE_MIN, false, 50.0, 42.0, None), Class::Mistake);
        assert_eq!(classify(29.9, false, 50.0, 20.1, None), Class::Mistake);
        assert_eq!(classify(BLUNDER_MIN, false, 50.0, 20.0, None), Class::Blunder);
        assert_eq!(classify(0.0, true, 60.0, 60.0, Some(40.0)), Class::OnlyMove);
        assert_eq!(classify(30.0, false, 95.0, 65.0, None), Class::MissedWin);
        // A small loss from a won position is not a missed win, nor a mistake that stays won.
        assert_eq!(classify(6.0, false, 95.0, 89.0, None), Class::Inaccuracy);
        assert_eq!(classify(10.0, false, 95.0, 85.0, None), Class::Mistake);
        assert_eq!(nag(Class::MissedWin, 30.0), Some(4));
        assert_eq!(nag(Class::Good, 5.0), None);
    }

    #[test]
    fn marks_for_people_drop_small_swings_and_make_a_piece_given_away_a_blunder() {
        let f =
            |people_loss, material_lost, allows_mate, before| Facts { people_loss, material_lost, allows_mate, before };
        // 1…a6 from +0.27 to +0.52: 9 points of the engine's curve, 3 of people's: no mark.
        let a6 = f(people_expected(Eval::Cp(-27)) - people_expected(Eval::Cp(-52)), 0, false, expected_cp(-27));
        assert!(a6.people_loss < PEOPLE_MIN && expected_cp(-27) - expected_cp(-52) >= MISTAKE_MIN, "{a6:?}");
        assert_eq!(for_people(Class::Mistake, 9.0, a6, 9.0, a6.people_loss), Class::Good);
        assert_eq!(for_people(Class::Inaccuracy, 5.0, a6, 5.0, 0.0), Class::Good);
        // … unless the other judge finds a swing people feel, or material goes.
        assert_eq!(for_people(Class::Mistake, 9.0, a6, 9.0, PEOPLE_MIN), Class::Mistake);
        // … or the speaking judge's swing on the engine's curve is too large to drop.
        assert_eq!(for_people(Class::Mistake, FLOOR_BELOW, a6, 9.0, 0.0), Class::Mistake);
        assert_eq!(for_people(Class::Mistake, FLOOR_BELOW - 0.1, a6, 9.0, 0.0), Class::Good);
        assert_eq!(for_people(Class::Mistake, 9.0, Facts { material_lost: 1, ..a6 }, 9.0, 0.0), Class::Mistake);
        // A bishop left to be taken from an equal position: a blunder, even where the loss alone says mistake …
        let hung = f(20.0, 3, false, 50.0);
        assert_eq!(for_people(Class::Mistake, 9.0, hung, CONFIRM_MIN, 18.0), Class::Blunder);
        assert_eq!(for_people(Class::Mistake, 9.0, f(20.0, 0, true, 40.0), 27.0, 18.0), Class::Blunder);
        // … but not from a lost position, nor when the other judge does not confirm it as a blunder.
        assert_eq!(for_people(Class::Mistake, 9.0, Facts { before: 10.0, ..hung }, 27.0, 18.0), Class::Mistake);
        assert_eq!(for_people(Class::Mistake, 9.0, hung, CONFIRM_MIN - 0.1, 18.0), Class::Mistake);
        // The good moves stay as they are.
        for c in [Class::Good, Class::Best, Class::OnlyMove] {
            assert_eq!(for_people(c, 9.0, a6, 0.0, 0.0), c);
        }
        // A blunder or missed win stays one when both judges find people's chances fall by PEOPLE_BLUNDER …
        let swing = f(PEOPLE_BLUNDER, 0, false, 60.0);
        for c in [Class::Blunder, Class::MissedWin] {
            assert_eq!(for_people(c, 40.0, swing, 40.0, PEOPLE_BLUNDER), c);
            // … and is a mistake when either finds less, unless material or a mate goes.
            assert_eq!(for_people(c, 40.0, swing, 40.0, PEOPLE_BLUNDER - 0.1), Class::Mistake);
            assert_eq!(for_people(c, 40.0, Facts { people_loss: 9.9, ..swing }, 40.0, 30.0), Class::Mistake);
            assert_eq!(for_people(c, 40.0, Facts { people_loss: 2.0, ..hung }, 40.0, 2.0), c);
            assert_eq!(for_people(c, 40.0, f(2.0, 0, true, 60.0), 40.0, 2.0), c);
        }
        // The people's curve: even at 0, far flatter than the engine's, mates at the ends.
        assert!((people_expected(Eval::Cp(0)) - 50.0).abs() < 1e-9);
        assert!(people_expected(Eval::Cp(100)) - 50.0 < 12.0 && expected_cp(100) - 50.0 > 35.0);
        assert_eq!((people_expected(Eval::Mate(2)), people_expected(Eval::Mate(-1))), (100.0, 0.0));
    }

    #[test]
    fn accuracy_falls_with_loss() {
        assert!((move_accuracy(0.0) - 100.0).abs() < 1e-9);
        assert!(move_accuracy(10.0) > move_accuracy(20.0));
        assert!(move_accuracy(50.0) < 5.0);
    }

    #[test]
    fn evals_print_for_pgn_and_people() {
        assert_eq!(Eval::Cp(35).pgn(), "0.35");
        assert_eq!(Eval::Cp(-120).pgn(), "-1.20");
        assert_eq!(Eval::Mate(-2).pgn(), "#-2");
        assert_eq!(Eval::Cp(-120).human(), "−1.20");
        assert_eq!(serde_json::to_string(&Eval::Mate(3)).expect("json"), r#"{"mate":3}"#);
        assert_eq!(serde_json::to_string(&Eval::Cp(-7)).expect("json"), r#"{"cp":-7}"#);
    }
}
