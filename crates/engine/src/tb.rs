//! Syzygy endgame tablebases in the search (the tables are read by `guoxiang-syzygy`).
//!
//! Two uses, both only at full strength (the weak levels play endgames as people do):
//!
//! - **At the root**, when the position is in the tables, every legal move is judged by them (the result after it
//!   and its distance to the next capture or pawn move, DTZ, against the game's 50-move count) and the search only
//!   looks at the moves that keep the best result: the winning side also keeps only the moves that get fastest to
//!   the next zeroing move, so it always makes progress and wins within the 50-move rule; the losing side keeps
//!   the moves that hold out longest; in a draw every drawing move stays, and the search picks among them.
//! - **In the tree**, right after a capture or a pawn move (when the halfmove count is 0, so the tables' 50-move
//!   accounting is exact) a position with few enough pieces is looked up (win, draw or loss) instead of searched,
//!   when the answer decides the node; at PV nodes a win or loss that does not decide it bounds the result.
//!
//! A table win scores [`TB_WIN`] less the distance in plies from the root (a "cursed win" — won, but not within the
//! 50-move rule — is a draw while that rule is on), so search wins by mate (above) and evaluations (below) keep
//! their places.

use crate::score::MAX_PLY;
use guoxiang_core::{Move, Position};
use guoxiang_syzygy::{Tablebase, Wdl};
use std::sync::Arc;

/// A won position by the tables, in centipawns before the distance from the root is taken off: far above any
/// evaluation, below every mate score. UCI shows it as `cp 20000` less the plies.
pub const TB_WIN: i32 = 20_000;
/// Any score at least this large (in absolute value) is a tablebase win or loss, or a mate.
pub const TB_WIN_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// The tablebase settings of [`crate::Options`] (UCI `SyzygyPath`, `SyzygyProbeLimit`, `SyzygyProbeDepth`,
/// `Syzygy50MoveRule`).
#[derive(Clone, Debug)]
pub struct Syzygy {
    pub tables: Arc<Tablebase>,
    /// Positions with more pieces than this (kings and pawns included) are not looked up; the tables' own largest
    /// size applies too.
    pub probe_limit: u32,
    /// In the tree, positions with exactly `probe_limit` pieces are looked up only this many plies or more from the
    /// horizon (fewer pieces: always).
    pub probe_depth: i32,
    /// Whether the 50-move rule counts: on, a cursed win is a draw and a blessed loss too.
    pub rule50: bool,
}

impl Syzygy {
    /// Settings with the usual defaults: every piece count the tables have, depth 1, the 50-move rule on.
    pub fn new(tables: Arc<Tablebase>) -> Syzygy {
        Syzygy { tables, probe_limit: 7, probe_depth: 1, rule50: true }
    }

    /// The largest number of pieces looked up.
    pub fn cardinality(&self) -> u32 {
        self.probe_limit.min(self.tables.max_pieces())
    }

    /// Whether `pos` is small enough and has no castling rights (the tables have none).
    pub fn covers(&self, pos: &Position) -> bool {
        pos.occupied().count() <= self.cardinality() && pos.castling_rooks().is_empty()
    }

    /// The result for the side to move after a capture or pawn move, as a search value at `ply` with how far it
    /// can be trusted: `Exact` for draws, a lower bound for wins, an upper bound for losses. `None` when the
    /// position is not looked up or a table is missing.
    pub(crate) fn probe_in_tree(&self, pos: &Position, depth: i32, ply: usize) -> Option<(i32, crate::Bound)> {
        use crate::Bound;
        if pos.halfmoves() != 0 {
            return None;
        }
        let pieces = pos.occupied().count();
        let card = self.cardinality();
        if pieces > card || !pos.castling_rooks().is_empty() || (pieces == card && depth < self.probe_depth) {
            return None;
        }
        let wdl = self.tables.probe_wdl(pos).ok()?;
        let win = TB_WIN - ply as i32;
        Some(match wdl {
            Wdl::Win => (win, Bound::Lower),
            Wdl::Loss => (-win, Bound::Upper),
            Wdl::Draw => (0, Bound::Exact),
            // A draw under the 50-move rule, but the better side of one (as Stockfish scores it: ±1).
            Wdl::CursedWin if self.rule50 => (1, Bound::Exact),
            Wdl::BlessedLoss if self.rule50 => (-1, Bound::Exact),
            Wdl::CursedWin => (win, Bound::Lower),
            Wdl::BlessedLoss => (-win, Bound::Upper),
        })
    }

    /// Judges the root moves by the tables: the moves the search should consider and the score the tables give
    /// the root, or `None` when the root is not in the tables (too many pieces, castling rights, a table missing).
    /// `candidates` are the legal moves (or the `searchmoves` among them).
    pub(crate) fn rank_root(&self, pos: &Position, candidates: &[Move]) -> Option<RootVerdict> {
        if !self.covers(pos) || candidates.is_empty() {
            return None;
        }
        // The reader judges every legal move against the game's halfmove count: `dtz` is the plies from the root to
        // the line's next capture or pawn move (1 for one itself or a mate), and a win whose zeroing move comes
        // too late for the 50-move rule is already a cursed win.
        let judged: Vec<(Move, Class, i32)> = self
            .tables
            .root_moves(pos)
            .ok()?
            .into_iter()
            .filter(|rm| candidates.contains(&rm.mv))
            .map(|rm| {
                let class = match rm.wdl {
                    Wdl::Win => Class::Win,
                    Wdl::CursedWin if !self.rule50 => Class::Win,
                    Wdl::CursedWin => Class::Cursed,
                    Wdl::Draw => Class::Draw,
                    Wdl::BlessedLoss if !self.rule50 => Class::Loss,
                    Wdl::BlessedLoss => Class::Blessed,
                    Wdl::Loss => Class::Loss,
                };
                (rm.mv, class, rm.dtz.0.abs())
            })
            .collect();
        let best = judged.iter().map(|&(_, c, _)| c).max()?;
        let of_best = judged.iter().filter(|&&(_, c, _)| c == best);
        // The winner goes for the nearest zeroing move; the loser holds out for the farthest.
        let dist = match best {
            Class::Win => of_best.clone().map(|&(_, _, d)| d).min(),
            Class::Loss => of_best.clone().map(|&(_, _, d)| d).max(),
            _ => None,
        };
        let moves: Vec<Move> = of_best.filter(|&&(_, _, d)| dist.is_none_or(|x| x == d)).map(|&(m, _, _)| m).collect();
        let score = match best {
            Class::Win => TB_WIN - dist.unwrap_or(1),
            Class::Cursed => 1,
            Class::Draw => 0,
            Class::Blessed => -1,
            Class::Loss => -(TB_WIN - dist.unwrap_or(1)),
        };
        Some(RootVerdict { moves, score, probes: judged.len() as u64 })
    }
}

/// What the tables say about the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct RootVerdict {
    /// The moves that keep the best result (and, winning or losing, the best distance).
    pub moves: Vec<Move>,
    /// The root's value by the tables, for the side to move.
    pub score: i32,
    /// Root moves looked up.
    pub probes: u64,
}

/// The result of a root move for the side to move, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Loss,
    Blessed,
    Draw,
    Cursed,
    Win,
}
