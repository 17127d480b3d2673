//! Every evaluation weight in one place. Pairs are `(middlegame, endgame)` in centipawns; the evaluation blends
//! them by game phase. Tables indexed by square are written as a board seen from white (rank 8 on the first line)
//! and read for white with `sq ^ 56`, for black with `sq`.
//!
//! The values of the tunable weights live in `params/weights.rs`, written by the tuner (`crates/tune`); the flat
//! numbering of those weights that the tuner works on is [`feature`].

mod weights;

pub use weights::PARAMS;

/// A middlegame/endgame pair.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Pair(pub i32, pub i32);

impl Pair {
    pub const ZERO: Pair = Pair(0, 0);
}

impl core::ops::Add for Pair {
    type Output = Pair;
    #[inline]
    fn add(self, o: Pair) -> Pair {
        Pair(self.0 + o.0, self.1 + o.1)
    }
}

impl core::ops::AddAssign for Pair {
    #[inline]
    fn add_assign(&mut self, o: Pair) {
        self.0 += o.0;
        self.1 += o.1;
    }
}

impl core::ops::Sub for Pair {
    type Output = Pair;
    #[inline]
    fn sub(self, o: Pair) -> Pair {
        Pair(self.0 - o.0, self.1 - o.1)
    }
}

impl core::ops::SubAssign for Pair {
    #[inline]
    fn sub_assign(&mut self, o: Pair) {
        self.0 -= o.0;
        self.1 -= o.1;
    }
}

impl core::ops::Mul<i32> for Pair {
    type Output = Pair;
    #[inline]
    fn mul(self, k: i32) -> Pair {
        Pair(self.0 * k, self.1 * k)
    }
}

/// All evaluation weights.
#[derive(Clone, Debug)]
pub struct EvalParams {
    /// Material by role (pawn, knight, bishop, rook, queen, king).
    pub material: [Pair; 6],
    /// Game-phase weight of each role; a full board sums to `phase_total`.
    pub phase: [i32; 6],
    pub phase_total: i32,
    /// Piece-square tables, middlegame and endgame.
    pub pst_mg: [[i32; 64]; 6],
    pub pst_eg: [[i32; 64]; 6],
    /// Mobility by the number of squares reached (safe from enemy pawns, not holding an own piece): knight 0–8,
    /// bishop 0–13, rook 0–14, queen 0–27, one after the other (see [`MOBILITY_OFFSET`]).
    pub mobility: [Pair; MOBILITY_COUNT],
    pub doubled_pawn: Pair,
    pub isolated_pawn: Pair,
    /// Passed pawn bonus by relative rank (rank 1 … rank 8).
    pub passed_pawn: [Pair; 8],
    pub bishop_pair: Pair,
    pub rook_open_file: Pair,
    pub rook_semi_open_file: Pair,
    /// Own pawns in front of a castled king: directly in front, and one step further.
    pub shield_close: Pair,
    pub shield_far: Pair,
    /// Threats (see [`THREAT_NAMES`]): attacks on enemy pieces by pawns, minor pieces, rooks and the queen, and
    /// enemy pieces attacked and not defended.
    pub threat: [Pair; THREAT_COUNT],
    /// A passed pawn whose stop square is empty and not attacked by the enemy, by relative rank.
    pub passed_free: [Pair; 8],
    /// Per square of distance from our / their king to a passed pawn's stop square, times the pawn's rank weight
    /// (rank 4 counts 1 … rank 7 counts 4).
    pub passed_king_us: Pair,
    pub passed_king_them: Pair,
    /// A pawn defended by an own pawn or with an own pawn beside it, by relative rank.
    pub connected_pawn: [Pair; 8],
    /// A pawn whose neighbours on the adjacent files are all ahead of it and whose stop square an enemy pawn attacks.
    pub backward_pawn: Pair,
    /// A knight / bishop on ranks 4–6 defended by an own pawn where no enemy pawn can ever attack it.
    pub outpost: [Pair; 2],
    /// Per own pawn on the squares of a bishop's colour.
    pub bad_bishop: Pair,
    /// A knight or bishop directly behind an own pawn.
    pub minor_behind_pawn: Pair,
    /// Squares from which a knight / bishop / rook / queen of ours could give check, that one of them attacks and
    /// no enemy piece attacks.
    pub safe_check: [Pair; 4],
    /// Per file (the king's and the adjacent ones) without an own pawn.
    pub king_open_file: Pair,
    /// Weight of attacks on the king zone by role (knight, bishop, rook, queen).
    pub king_attack_weight: [i32; 4],
    /// King danger (middlegame penalty) = units² / `king_danger_divisor`, at most `king_danger_max`.
    pub king_danger_divisor: i32,
    pub king_danger_max: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

/// How many mobility weights each of knight, bishop, rook and queen has (0 … the most squares it can reach).
pub const MOBILITY_SIZE: [usize; 4] = [9, 14, 15, 28];
/// Where each role's mobility weights start in [`EvalParams::mobility`].
pub const MOBILITY_OFFSET: [usize; 4] = {
    let mut o = [0; 4];
    let mut k = 1;
    while k < 4 {
        o[k] = o[k - 1] + MOBILITY_SIZE[k - 1];
        k += 1;
    }
    o
};
pub const MOBILITY_COUNT: usize = MOBILITY_OFFSET[3] + MOBILITY_SIZE[3];

/// The threat terms, in the order of [`EvalParams::threat`].
pub const THREAT_NAMES: [&str; 11] = [
    "pawn_on_piece",
    "minor_on_loose_pawn",
    "minor_on_knight",
    "minor_on_bishop",
    "minor_on_rook",
    "minor_on_queen",
    "rook_on_loose_pawn",
    "rook_on_loose_minor",
    "rook_on_queen",
    "queen_on_loose",
    "hanging",
];
pub const THREAT_COUNT: usize = THREAT_NAMES.len();

/// The tunable weights as one flat list of [`Pair`]s: the numbering the evaluation's trace and the tuner share.
/// The king has no material value and is not in `MATERIAL`; the fixed settings (phase weights,
/// king-attack weights and danger curve, tempo) are not tunable.
pub mod feature {
    /// Material, pawn … queen (5).
    pub const MATERIAL: usize = 0;
    /// Piece-square tables, `role * 64 + table index` (6 × 64).
    pub const PST: usize = MATERIAL + 5;
    /// Mobility tables, knight … queen, one after the other (66, see [`super::MOBILITY_OFFSET`]).
    pub const MOBILITY: usize = PST + 6 * 64;
    pub const DOUBLED_PAWN: usize = MOBILITY + super::MOBILITY_COUNT;
    pub const ISOLATED_PAWN: usize = DOUBLED_PAWN + 1;
    /// Passed pawns by relative rank (8).
    pub const PASSED_PAWN: usize = ISOLATED_PAWN + 1;
    pub const BISHOP_PAIR: usize = PASSED_PAWN + 8;
    pub const ROOK_OPEN_FILE: usize = BISHOP_PAIR + 1;
    pub const ROOK_SEMI_OPEN_FILE: usize = ROOK_OPEN_FILE + 1;
    pub const SHIELD_CLOSE: usize = ROOK_SEMI_OPEN_FILE + 1;
    pub const SHIELD_FAR: usize = SHIELD_CLOSE + 1;
    /// Threats (11, see [`super::THREAT_NAMES`]).
    pub const THREAT: usize = SHIELD_FAR + 1;
    /// Free passed pawns by relative rank (8).
    pub const PASSED_FREE: usize = THREAT + super::THREAT_COUNT;
    pub const PASSED_KING_US: usize = PASSED_FREE + 8;
    pub const PASSED_KING_THEM: usize = PASSED_KING_US + 1;
    /// Connected pawns by relative rank (8).
    pub const CONNECTED_PAWN: usize = PASSED_KING_THEM + 1;
    pub const BACKWARD_PAWN: usize = CONNECTED_PAWN + 8;
    /// Outposts, knight and bishop (2).
    pub const OUTPOST: usize = BACKWARD_PAWN + 1;
    pub const BAD_BISHOP: usize = OUTPOST + 2;
    pub const MINOR_BEHIND_PAWN: usize = BAD_BISHOP + 1;
    /// Safe checks, knight … queen (4).
    pub const SAFE_CHECK: usize = MINOR_BEHIND_PAWN + 1;
    pub const KING_OPEN_FILE: usize = SAFE_CHECK + 4;
    /// How many tunable pairs there are.
    pub const COUNT: usize = KING_OPEN_FILE + 1;

    /// A readable name for feature `i`, e.g. `pst.knight[c3]` or `passed_pawn[6]`.
    pub fn name(i: usize) -> String {
        const ROLES: [&str; 6] = ["pawn", "knight", "bishop", "rook", "queen", "king"];
        match i {
            _ if i < PST => format!("material.{}", ROLES[i - MATERIAL]),
            _ if i < MOBILITY => {
                let (role, idx) = ((i - PST) / 64, (i - PST) % 64);
                // Tables are written rank 8 first.
                let file = (b'a' + (idx % 8) as u8) as char;
                let rank = 8 - idx / 8;
                format!("pst.{}[{file}{rank}]", ROLES[role])
            }
            _ if i < DOUBLED_PAWN => {
                let j = i - MOBILITY;
                let k = super::MOBILITY_OFFSET.iter().rposition(|&o| o <= j).unwrap_or(0);
                format!("mobility.{}[{}]", ROLES[k + 1], j - super::MOBILITY_OFFSET[k])
            }
            DOUBLED_PAWN => "doubled_pawn".into(),
            ISOLATED_PAWN => "isolated_pawn".into(),
            _ if i < BISHOP_PAIR => format!("passed_pawn[{}]", i - PASSED_PAWN + 1),
            BISHOP_PAIR => "bishop_pair".into(),
            ROOK_OPEN_FILE => "rook_open_file".into(),
            ROOK_SEMI_OPEN_FILE => "rook_semi_open_file".into(),
            SHIELD_CLOSE => "shield_close".into(),
            SHIELD_FAR => "shield_far".into(),
            _ if i < PASSED_FREE => format!("threat.{}", super::THREAT_NAMES[i - THREAT]),
            _ if i < PASSED_KING_US => format!("passed_free[{}]", i - PASSED_FREE + 1),
            PASSED_KING_US => "passed_king_us".into(),
            PASSED_KING_THEM => "passed_king_them".into(),
            _ if i < BACKWARD_PAWN => format!("connected_pawn[{}]", i - CONNECTED_PAWN + 1),
            BACKWARD_PAWN => "backward_pawn".into(),
            _ if i < BAD_BISHOP => format!("outpost.{}", ROLES[i - OUTPOST + 1]),
            BAD_BISHOP => "bad_bishop".into(),
            MINOR_BEHIND_PAWN => "minor_behind_pawn".into(),
            _ if i < KING_OPEN_FILE => format!("safe_check.{}", ROLES[i - SAFE_CHECK + 1]),
            KING_OPEN_FILE => "king_open_file".into(),
            _ => format!("feature {i}"),
        }
    }
}

impl EvalParams {
    /// The tunable weights, numbered as in [`feature`].
    pub fn weights(&self) -> Vec<Pair> {
        let mut w = Vec::with_capacity(feature::COUNT);
        w.extend_from_slice(&self.material[..5]);
        for role in 0..6 {
            for i in 0..64 {
                w.push(Pair(self.pst_mg[role][i], self.pst_eg[role][i]));
            }
        }
        w.extend_from_slice(&self.mobility);
        w.push(self.doubled_pawn);
        w.push(self.isolated_pawn);
        w.extend_from_slice(&self.passed_pawn);
        w.extend([self.bishop_pair, self.rook_open_file, self.rook_semi_open_file, self.shield_close, self.shield_far]);
        w.extend_from_slice(&self.threat);
        w.extend_from_slice(&self.passed_free);
        w.extend([self.passed_king_us, self.passed_king_them]);
        w.extend_from_slice(&self.connected_pawn);
        w.push(self.backward_pawn);
        w.extend_from_slice(&self.outpost);
        w.extend([self.bad_bishop, self.minor_behind_pawn]);
        w.extend_from_slice(&self.safe_check);
        w.push(self.king_open_file);
        debug_assert_eq!(w.len(), feature::COUNT);
        w
    }

    /// A copy with the tunable weights replaced by `w` (numbered as in [`feature`]; `w.len()` must be
    /// [`feature::COUNT`]).
    pub fn with_weights(&self, w: &[Pair]) -> EvalParams {
        assert_eq!(w.len(), feature::COUNT, "with_weights: wrong number of weights");
        let mut p = self.clone();
        p.material[..5].copy_from_slice(&w[feature::MATERIAL..feature::MATERIAL + 5]);
        for role in 0..6 {
            for i in 0..64 {
                let Pair(mg, eg) = w[feature::PST + role * 64 + i];
                p.pst_mg[role][i] = mg;
                p.pst_eg[role][i] = eg;
            }
        }
        p.mobility.copy_from_slice(&w[feature::MOBILITY..feature::MOBILITY + MOBILITY_COUNT]);
        p.doubled_pawn = w[feature::DOUBLED_PAWN];
        p.isolated_pawn = w[feature::ISOLATED_PAWN];
        p.passed_pawn.copy_from_slice(&w[feature::PASSED_PAWN..feature::PASSED_PAWN + 8]);
        p.bishop_pair = w[feature::BISHOP_PAIR];
        p.rook_open_file = w[feature::ROOK_OPEN_FILE];
        p.rook_semi_open_file = w[feature::ROOK_SEMI_OPEN_FILE];
        p.shield_close = w[feature::SHIELD_CLOSE];
        p.shield_far = w[feature::SHIELD_FAR];
        p.threat.copy_from_slice(&w[feature::THREAT..feature::THREAT + THREAT_COUNT]);
        p.passed_free.copy_from_slice(&w[feature::PASSED_FREE..feature::PASSED_FREE + 8]);
        p.passed_king_us = w[feature::PASSED_KING_US];
        p.passed_king_them = w[feature::PASSED_KING_THEM];
        p.connected_pawn.copy_from_slice(&w[feature::CONNECTED_PAWN..feature::CONNECTED_PAWN + 8]);
        p.backward_pawn = w[feature::BACKWARD_PAWN];
        p.outpost.copy_from_slice(&w[feature::OUTPOST..feature::OUTPOST + 2]);
        p.bad_bishop = w[feature::BAD_BISHOP];
        p.minor_behind_pawn = w[feature::MINOR_BEHIND_PAWN];
        p.safe_check.copy_from_slice(&w[feature::SAFE_CHECK..feature::SAFE_CHECK + 4]);
        p.king_open_file = w[feature::KING_OPEN_FILE];
        p
    }
}

/// Piece values for static exchange evaluation and move ordering (pawn … king).
pub const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 20_000];

/// Search parameters.
pub mod search {
    /// Reverse futility: static eval minus this per ply of depth at or above beta returns.
    pub const RFP_MARGIN: i32 = 75;
    pub const RFP_DEPTH: i32 = 7;
    /// Futility: quiet moves skipped when static eval plus this per ply cannot reach alpha.
    pub const FUTILITY_MARGIN: [i32; 4] = [0, 110, 210, 320];
    /// Late move pruning: quiet moves after this many at depth d (non-PV, not in check).
    pub const LMP_COUNT: [usize; 5] = [0, 6, 10, 16, 24];
    /// Null move: base reduction and minimum depth.
    pub const NULL_MIN_DEPTH: i32 = 3;
    pub const NULL_BASE_REDUCTION: i32 = 3;
    /// At or below this much non-pawn material (side to move), a null-move cutoff is verified by a search.
    pub const NULL_VERIFY_MATERIAL: i32 = 500;
    /// Quiescence delta pruning margin.
    pub const DELTA_MARGIN: i32 = 200;
    /// Aspiration window half-width at the start.
    pub const ASPIRATION: i32 = 25;
    /// LMR table: reduction = BASE + ln(depth) · ln(moves) / DIVISOR.
    pub const LMR_BASE: f64 = 0.75;
    pub const LMR_DIVISOR: f64 = 2.25;
    /// SEE pruning threshold per ply for captures at low depth.
    pub const SEE_CAPTURE_MARGIN: i32 = 100;
    /// Singular extensions: from this depth, a transposition-table move whose stored score (a lower bound or
    /// exact, at most `SINGULAR_TT_DEPTH_GAP` plies shallower) no other move comes within `SINGULAR_MARGIN` per ply
    /// of, in a search of half the depth, is searched a ply deeper.
    pub const SINGULAR_DEPTH: i32 = 8;
    pub const SINGULAR_TT_DEPTH_GAP: i32 = 3;
    pub const SINGULAR_MARGIN: i32 = 2;
    /// History values are kept within ±this.
    pub const HISTORY_MAX: i32 = 16_384;
}
