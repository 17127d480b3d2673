//! Every evaluation weight in one place. Pairs are `(middlegame, endgame)` in centipawns; the evaluation blends
//! them by game phase. Tables indexed by square are written as a board seen from white (rank 8 on the first line)
//! and read for white with `sq ^ 56`, for black with `sq`.
//!
//! The values are hand-set starting points (in the spirit of the well-known "simplified evaluation function"),
//! not yet tuned.

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
#[derive(Debug)]
pub struct EvalParams {
    /// Material by role (pawn, knight, bishop, rook, queen, king).
    pub material: [Pair; 6],
    /// Game-phase weight of each role; a full board sums to `phase_total`.
    pub phase: [i32; 6],
    pub phase_total: i32,
    /// Piece-square tables, middlegame and endgame.
    pub pst_mg: [[i32; 64]; 6],
    pub pst_eg: [[i32; 64]; 6],
    /// Mobility per reachable square (knight, bishop, rook, queen), above `mobility_base` squares.
    pub mobility: [Pair; 4],
    pub mobility_base: [i32; 4],
    pub doubled_pawn: Pair,
    pub isolated_pawn: Pair,
    /// Passed pawn bonus by relative rank (rank 1 … rank 8).
    pub passed_pawn: [Pair; 8],
    pub bishop_pair: Pair,
    pub rook_open_file: Pair,
    pub rook_semi_open_file: Pair,
    /// Own pawns in front of a castled king: directly in front, and one step further.
    pub shield_close: i32,
    pub shield_far: i32,
    /// Weight of attacks on the king zone by role (knight, bishop, rook, queen).
    pub king_attack_weight: [i32; 4],
    /// King danger (middlegame penalty) = units² / `king_danger_divisor`, at most `king_danger_max`.
    pub king_danger_divisor: i32,
    pub king_danger_max: i32,
    /// Bonus for having the move.
    pub tempo: i32,
}

#[rustfmt::skip]
pub const PARAMS: EvalParams = EvalParams {
    material: [Pair(82, 100), Pair(330, 300), Pair(345, 320), Pair(470, 540), Pair(980, 1000), Pair(0, 0)],
    phase: [0, 1, 1, 2, 4, 0],
    phase_total: 24,
    pst_mg: [
        // pawn
        [  0,   0,   0,   0,   0,   0,   0,   0,
          30,  30,  30,  30,  30,  30,  30,  30,
          10,  10,  20,  30,  30,  20,  10,  10,
           5,   5,  10,  25,  25,  10,   5,   5,
           0,   0,   5,  20,  20,   0,   0,   0,
           5,  -5, -10,   0,   0, -10,  -5,   5,
           5,  10,  10, -20, -20,  10,  10,   5,
           0,   0,   0,   0,   0,   0,   0,   0],
        // knight
        [-50, -40, -30, -30, -30, -30, -40, -50,
         -40, -20,   0,   0,   0,   0, -20, -40,
         -30,   0,  10,  15,  15,  10,   0, -30,
         -30,   5,  15,  20,  20,  15,   5, -30,
         -30,   0,  15,  20,  20,  15,   0, -30,
         -30,   5,  10,  15,  15,  10,   5, -30,
         -40, -20,   0,   5,   5,   0, -20, -40,
         -50, -40, -30, -30, -30, -30, -40, -50],
        // bishop
        [-20, -10, -10, -10, -10, -10, -10, -20,
         -10,   0,   0,   0,   0,   0,   0, -10,
         -10,   0,   5,  10,  10,   5,   0, -10,
         -10,   5,   5,  10,  10,   5,   5, -10,
         -10,   0,  10,  10,  10,  10,   0, -10,
         -10,  10,  10,  10,  10,  10,  10, -10,
         -10,   5,   0,   0,   0,   0,   5, -10,
         -20, -10, -10, -10, -10, -10, -10, -20],
        // rook
        [  0,   0,   0,   0,   0,   0,   0,   0,
           5,  10,  10,  10,  10,  10,  10,   5,
          -5,   0,   0,   0,   0,   0,   0,  -5,
          -5,   0,   0,   0,   0,   0,   0,  -5,
          -5,   0,   0,   0,   0,   0,   0,  -5,
          -5,   0,   0,   0,   0,   0,   0,  -5,
          -5,   0,   0,   0,   0,   0,   0,  -5,
           0,   0,   0,   5,   5,   0,   0,   0],
        // queen
        [-20, -10, -10,  -5,  -5, -10, -10, -20,
         -10,   0,   0,   0,   0,   0,   0, -10,
         -10,   0,   5,   5,   5,   5,   0, -10,
          -5,   0,   5,   5,   5,   5,   0,  -5,
           0,   0,   5,   5,   5,   5,   0,  -5,
         -10,   5,   5,   5,   5,   5,   0, -10,
         -10,   0,   5,   0,   0,   0,   0, -10,
         -20, -10, -10,  -5,  -5, -10, -10, -20],
        // king
        [-30, -40, -40, -50, -50, -40, -40, -30,
         -30, -40, -40, -50, -50, -40, -40, -30,
         -30, -40, -40, -50, -50, -40, -40, -30,
         -30, -40, -40, -50, -50, -40, -40, -30,
         -20, -30, -30, -40, -40, -30, -30, -20,
         -10, -20, -20, -20, -20, -20, -20, -10,
          20,  20,   0,   0,   0,   0,  20,  20,
          20,  30,  10,   0,   0,  10,  30,  20],
    ],
    pst_eg: [
        // pawn: advancing matters more in the endgame
        [  0,   0,   0,   0,   0,   0,   0,   0,
          60,  60,  60,  60,  60,  60,  60,  60,
          35,  35,  35,  35,  35,  35,  35,  35,
          20,  20,  20,  20,  20,  20,  20,  20,
          10,  10,  10,  10,  10,  10,  10,  10,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0],
        // knight
        [-50, -40, -30, -30, -30, -30, -40, -50,
         -40, -20,   0,   0,   0,   0, -20, -40,
         -30,   0,  10,  15,  15,  10,   0, -30,
         -30,   5,  15,  20,  20,  15,   5, -30,
         -30,   0,  15,  20,  20,  15,   0, -30,
         -30,   5,  10,  15,  15,  10,   5, -30,
         -40, -20,   0,   5,   5,   0, -20, -40,
         -50, -40, -30, -30, -30, -30, -40, -50],
        // bishop
        [-20, -10, -10, -10, -10, -10, -10, -20,
         -10,   0,   0,   0,   0,   0,   0, -10,
         -10,   0,   5,  10,  10,   5,   0, -10,
         -10,   5,   5,  10,  10,   5,   5, -10,
         -10,   0,  10,  10,  10,  10,   0, -10,
         -10,  10,  10,  10,  10,  10,  10, -10,
         -10,   5,   0,   0,   0,   0,   5, -10,
         -20, -10, -10, -10, -10, -10, -10, -20],
        // rook
        [  5,   5,   5,   5,   5,   5,   5,   5,
          10,  10,  10,  10,  10,  10,  10,  10,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0,
           0,   0,   0,   0,   0,   0,   0,   0],
        // queen
        [-20, -10, -10,  -5,  -5, -10, -10, -20,
         -10,   0,   5,   5,   5,   5,   0, -10,
         -10,   5,  10,  10,  10,  10,   5, -10,
          -5,   5,  10,  15,  15,  10,   5,  -5,
          -5,   5,  10,  15,  15,  10,   5,  -5,
         -10,   5,  10,  10,  10,  10,   5, -10,
         -10,   0,   5,   5,   5,   5,   0, -10,
         -20, -10, -10,  -5,  -5, -10, -10, -20],
        // king: centralise
        [-50, -40, -30, -20, -20, -30, -40, -50,
         -30, -20, -10,   0,   0, -10, -20, -30,
         -30, -10,  20,  30,  30,  20, -10, -30,
         -30, -10,  30,  40,  40,  30, -10, -30,
         -30, -10,  30,  40,  40,  30, -10, -30,
         -30, -10,  20,  30,  30,  20, -10, -30,
         -30, -30,   0,   0,   0,   0, -30, -30,
         -50, -30, -30, -30, -30, -30, -30, -50],
    ],
    mobility: [Pair(4, 4), Pair(5, 5), Pair(2, 4), Pair(1, 2)],
    mobility_base: [4, 6, 6, 12],
    doubled_pawn: Pair(-10, -20),
    isolated_pawn: Pair(-12, -15),
    passed_pawn: [Pair(0, 0), Pair(5, 10), Pair(10, 15), Pair(15, 30), Pair(30, 55), Pair(50, 90), Pair(80, 140),
                  Pair(0, 0)],
    bishop_pair: Pair(30, 50),
    rook_open_file: Pair(25, 10),
    rook_semi_open_file: Pair(12, 6),
    shield_close: 12,
    shield_far: 6,
    king_attack_weight: [2, 2, 3, 5],
    king_danger_divisor: 8,
    king_danger_max: 500,
    tempo: 10,
};

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
    /// History values are kept within ±this.
    pub const HISTORY_MAX: i32 = 16_384;
}
