//! Strength levels for people, from someone who has never played before to full strength.
//!
//! Weakness is made human-like rather than random: a shallow search (depth and node limits), noise in the
//! evaluation, a quiescence search that looks only a few captures deep (so exchanges and tactics beyond the horizon
//! are missed), a choice among the best few moves weighted by their scores (a softmax with a temperature), never
//! worse than `max_loss` below the best, and *lapses*: a share of the moves played at a glance, the level's own
//! move only, as a person who now and then leaves a piece hanging or misses the opponent's threat. All levels take
//! a mate they have found, and none walks its king out of a full board unless that is its search's best move.
//! Weak levels search very few nodes and so move at once.
//!
//! Levels 1–9 are calibrated on PEOPLE (2026-12-05, `guoxiang-tune humans`): on positions from rated lichess games,
//! each level's best-move rate and blunder rate (moves losing ≥ 30 points of winning chances, by the full-strength
//! engine's judgement) match those of the players rated at the level's Elo — the line through the rating bands
//! (blitz games for levels 5–9, the mostly-bullet games of the lowest bands for levels 1–4; level 1, at 800, lies
//! below the data and is an extrapolation) — within 5 points for the best-move rate and 2 for the blunder rate. So
//! Elo is on the lichess rating scale of those games. Level 10 is full strength, measured against engines at
//! 10+0.1 (about 2860 on the engine rating lists' scale). `guoxiang-tune levels` checks that each level still beats
//! the one below.
//!
//! See `docs/engine.md` ("Levels against people") for the tables, the kinds of error and the commands.

/// One strength level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// 1 ..= 10.
    pub number: u8,
    pub name_zh: &'static str,
    pub name_en: &'static str,
    /// Playing strength: the rating of the people the level plays like (levels 1–9), or the engine rating lists'
    /// Elo (level 10); see the module documentation.
    pub elo: u32,
    pub depth: u32,
    pub nodes: u64,
    /// Evaluation noise, ± centipawns.
    pub eval_noise: i32,
    /// How many best lines are considered for the move choice.
    pub multipv: usize,
    /// Softmax temperature of the move choice, in centipawns.
    pub temperature: i32,
    /// A move is chosen only if it scores at most this much below the best.
    pub max_loss: i32,
    /// How many captures deep the quiescence search looks.
    pub qsearch_plies: usize,
    /// Lapses per thousand moves: moves played at a glance (one ply deep, no look at the replies beyond what the
    /// evaluation sees), as a person who now and then misses a threat or leaves a piece hanging.
    pub lapse: u32,
}

impl Level {
    /// The top level: no handicap at all.
    pub fn is_full_strength(&self) -> bool {
        self.number as usize == LEVELS.len()
    }
}

const UNLIMITED_PLIES: usize = usize::MAX;

/// Elo of each level: levels 1–9 on the lichess scale of the people they play like, level 10 measured against
/// engines (see the module documentation).
const ELO: [u32; 10] = [800, 1060, 1250, 1370, 1550, 1800, 2100, 2170, 2390, 2860];

#[rustfmt::skip]
pub const LEVELS: [Level; 10] = [
    Level { number: 1, name_zh: "入门", name_en: "Beginner", elo: ELO[0], depth: 1, nodes: 300,
            eval_noise: 55, multipv: 6, temperature: 55, max_loss: 400, qsearch_plies: 1, lapse: 0 },
    Level { number: 2, name_zh: "新手", name_en: "Novice", elo: ELO[1], depth: 1, nodes: 800,
            eval_noise: 50, multipv: 4, temperature: 50, max_loss: 250, qsearch_plies: 3, lapse: 0 },
    Level { number: 3, name_zh: "初级", name_en: "Casual", elo: ELO[2], depth: 2, nodes: 1_500,
            eval_noise: 45, multipv: 4, temperature: 45, max_loss: 180, qsearch_plies: 3, lapse: 0 },
    Level { number: 4, name_zh: "业余", name_en: "Amateur", elo: ELO[3], depth: 2, nodes: 3_000,
            eval_noise: 40, multipv: 4, temperature: 45, max_loss: 200, qsearch_plies: 5, lapse: 0 },
    Level { number: 5, name_zh: "棋友", name_en: "Club player", elo: ELO[4], depth: 3, nodes: 6_000,
            eval_noise: 50, multipv: 3, temperature: 60, max_loss: 150, qsearch_plies: 4, lapse: 160 },
    Level { number: 6, name_zh: "进阶", name_en: "Intermediate", elo: ELO[5], depth: 4, nodes: 12_000,
            eval_noise: 45, multipv: 4, temperature: 50, max_loss: 120, qsearch_plies: 5, lapse: 50 },
    Level { number: 7, name_zh: "高级", name_en: "Advanced", elo: ELO[6], depth: 5, nodes: 25_000,
            eval_noise: 35, multipv: 4, temperature: 40, max_loss: 90, qsearch_plies: 6, lapse: 20 },
    Level { number: 8, name_zh: "专家", name_en: "Expert", elo: ELO[7], depth: 6, nodes: 50_000,
            eval_noise: 30, multipv: 4, temperature: 35, max_loss: 80, qsearch_plies: UNLIMITED_PLIES, lapse: 10 },
    Level { number: 9, name_zh: "候补大师", name_en: "Candidate Master", elo: ELO[8], depth: 8, nodes: 200_000,
            eval_noise: 25, multipv: 4, temperature: 30, max_loss: 70, qsearch_plies: UNLIMITED_PLIES, lapse: 40 },
    Level { number: 10, name_zh: "大师", name_en: "Master", elo: ELO[9], depth: 255, nodes: u64::MAX,
            eval_noise: 0, multipv: 1, temperature: 1, max_loss: 0, qsearch_plies: UNLIMITED_PLIES, lapse: 0 },
];

/// The level numbered `n` (1 ..= 10).
pub fn level(n: u8) -> Option<&'static Level> {
    LEVELS.get((n as usize).checked_sub(1)?)
}

/// The lowest UCI_Elo offered, and the highest.
pub const MIN_ELO: u32 = LEVELS[0].elo;
pub const MAX_ELO: u32 = LEVELS[LEVELS.len() - 1].elo;
// UCI_Elo's default (1500) and the 800 that tests and GUIs ask for lie within the offered range.
const _: () = assert!(MIN_ELO <= 800 && MAX_ELO >= 1500);

/// The level closest to an Elo rating (`UCI_Elo`).
pub fn from_elo(elo: u32) -> &'static Level {
    LEVELS.iter().min_by_key(|l| l.elo.abs_diff(elo)).unwrap_or(&LEVELS[0])
}

/// The level for a `Skill Level` of 0 ..= 20 (20 is full strength).
pub fn from_skill(skill: u32) -> &'static Level {
    let skill = skill.min(20) as usize;
    &LEVELS[skill * (LEVELS.len() - 1) / 20]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_ordered() {
        for (i, l) in LEVELS.iter().enumerate() {
            assert_eq!(l.number as usize, i + 1);
            assert_eq!(level(l.number), Some(l));
        }
        for w in LEVELS.windows(2) {
            assert!(w[0].elo < w[1].elo && w[0].depth <= w[1].depth && w[0].nodes <= w[1].nodes);
        }
        assert!(LEVELS[9].is_full_strength() && !LEVELS[8].is_full_strength());
        assert_eq!(from_elo(0).number, 1);
        assert_eq!(from_elo(4000).number, 10);
        for l in &LEVELS {
            assert_eq!(from_elo(l.elo).number, l.number);
        }
        assert_eq!(from_skill(0).number, 1);
        assert_eq!(from_skill(20).number, 10);
        assert_eq!(from_skill(10).number, 5);
        assert!(level(0).is_none() && level(11).is_none());
    }
}
