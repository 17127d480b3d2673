//! `Score`: a search value in centipawns from the side to move's point of view, which also encodes mate distances.
//!
//! Mate scores sit near [`Score::MATE`]: a position where the side to move mates in `n` plies scores
//! `MATE - n`, one where it is mated in `n` plies scores `-(MATE - n)`. Printing follows UCI: `cp 31`, `mate 3`
//! (moves, not plies), `mate -2`.

use core::fmt;

/// The deepest ply the search ever reaches (also bounds mate distances).
pub const MAX_PLY: usize = 128;

/// A score in centipawns, or a mate distance.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub i32);

impl Score {
    /// Being mated right now (`-MATE`) or mating right now (`MATE`) — the largest magnitudes the search produces.
    pub const MATE: i32 = 32_000;
    /// Anything above this (in absolute value) is a mate score.
    pub const MATE_BOUND: i32 = Score::MATE - MAX_PLY as i32;
    /// Larger than any score: the initial alpha-beta window.
    pub const INFINITE: i32 = 32_001;
    pub const DRAW: Score = Score(0);

    /// The side to move mates in `ply` plies.
    #[inline]
    pub const fn mate_in(ply: usize) -> Score {
        Score(Score::MATE - ply as i32)
    }

    /// The side to move is mated in `ply` plies.
    #[inline]
    pub const fn mated_in(ply: usize) -> Score {
        Score(-Score::MATE + ply as i32)
    }

    #[inline]
    pub const fn cp(self) -> i32 {
        self.0
    }

    #[inline]
    pub const fn is_mate(self) -> bool {
        self.0 > Score::MATE_BOUND || self.0 < -Score::MATE_BOUND
    }

    /// Win, draw and loss chances per mille for the side to move (they add up to 1000), for `UCI_ShowWDL`. A mate
    /// score is certain; otherwise a logistic model of our own on the centipawns: each side's chance of winning is
    /// `1 / (1 + e^(-(s - 150) / 90))` of its own score `s`, and the rest is a draw — about 16 % each way and 68 %
    /// drawn at 0, 84 % won at +300.
    pub fn wdl(self) -> [u32; 3] {
        match self.mate_moves() {
            Some(m) if m > 0 => return [1000, 0, 0],
            Some(_) => return [0, 0, 1000],
            None => {}
        }
        let chance = |s: f64| 1.0 / (1.0 + (-(s - 150.0) / 90.0).exp());
        let cp = f64::from(self.0);
        let win = (chance(cp) * 1000.0).round() as u32;
        let loss = ((chance(-cp) * 1000.0).round() as u32).min(1000 - win);
        [win, 1000 - win - loss, loss]
    }

    /// Mate in moves as UCI counts them: positive when the side to move mates, negative when it is mated.
    pub const fn mate_moves(self) -> Option<i32> {
        if self.0 > Score::MATE_BOUND {
            Some((Score::MATE - self.0 + 1) / 2)
        } else if self.0 < -Score::MATE_BOUND {
            Some(-(Score::MATE + self.0) / 2)
        } else {
            None
        }
    }

    /// Converts a score relative to the node at `ply` into one relative to the position itself, for storing in the
    /// transposition table (mate distances are counted from the stored position, not from the root).
    #[inline]
    pub const fn to_tt(self, ply: usize) -> Score {
        if self.0 > Score::MATE_BOUND {
            Score(self.0 + ply as i32)
        } else if self.0 < -Score::MATE_BOUND {
            Score(self.0 - ply as i32)
        } else {
            self
        }
    }

    /// The inverse of [`Score::to_tt`]: a table score read at `ply`.
    #[inline]
    pub const fn from_tt(self, ply: usize) -> Score {
        if self.0 > Score::MATE_BOUND {
            Score(self.0 - ply as i32)
        } else if self.0 < -Score::MATE_BOUND {
            Score(self.0 + ply as i32)
        } else {
            self
        }
    }
}

impl fmt::Display for Score {
    /// `cp N` or `mate N`, as in UCI `info score`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_moves() {
            Some(n) => write!(f, "mate {n}"),
            None => write!(f, "cp {}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printing() {
        assert_eq!(Score(31).to_string(), "cp 31");
        assert_eq!(Score(-250).to_string(), "cp -250");
        assert_eq!(Score::mate_in(1).to_string(), "mate 1");
        assert_eq!(Score::mate_in(3).to_string(), "mate 2");
        assert_eq!(Score::mate_in(5).to_string(), "mate 3");
        assert_eq!(Score::mated_in(0).to_string(), "mate 0");
        assert_eq!(Score::mated_in(2).to_string(), "mate -1");
        assert_eq!(Score::mated_in(4).to_string(), "mate -2");
        assert!(Score::mate_in(7).is_mate() && !Score(900).is_mate());
    }

    #[test]
    fn wdl_adds_up_and_follows_the_score() {
        assert_eq!(Score::mate_in(3).wdl(), [1000, 0, 0]);
        assert_eq!(Score::mated_in(0).wdl(), [0, 0, 1000]);
        assert_eq!(Score(0).wdl(), [159, 682, 159]);
        assert_eq!(Score(300).wdl()[0], 841);
        let mut last = [0, 0, 1000];
        for cp in (-3000..=3000).step_by(25) {
            let w = Score(cp).wdl();
            assert_eq!(w.iter().sum::<u32>(), 1000, "{cp}");
            assert!(w[0] >= last[0] && w[2] <= last[2], "{cp}: {w:?} after {last:?}");
            assert_eq!(Score(-cp).wdl(), [w[2], w[1], w[0]], "{cp}: symmetric");
            last = w;
        }
    }

    #[test]
    fn tt_adjustment_round_trips() {
        for s in [Score(0), Score(123), Score::mate_in(9), Score::mated_in(6)] {
            assert_eq!(s.to_tt(5).from_tt(5), s);
        }
        // Mate in 3 plies seen at ply 4 is mate in 7 plies from the root; stored as mate in 3 from the position.
        assert_eq!(Score::mate_in(7).to_tt(4), Score::mate_in(3));
        assert_eq!(Score::mate_in(3).from_tt(2), Score::mate_in(5));
    }
}
