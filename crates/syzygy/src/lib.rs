//! guoxiang-syzygy: a reader of Syzygy endgame tablebases — the win/draw/loss (`.rtbw`) and distance-to-zeroing
//! (`.rtbz`) files of every position with up to seven pieces (kings included) and no castling rights.
//!
//! ```no_run
//! use guoxiang_core::Position;
//! use guoxiang_syzygy::{Tablebase, Wdl};
//!
//! let mut tb = Tablebase::new();
//! tb.add_paths("/data/syzygy/3-4-5:/data/syzygy/6")?;
//! let pos = Position::from_fen("8/8/8/8/8/2k5/2p5/K7 w - - 0 1").unwrap();
//! assert_eq!(tb.probe_wdl(&pos)?, Wdl::Loss);
//! if let Some((mv, wdl, dtz)) = tb.best_move(&pos)? {
//!     println!("{mv:?}: {wdl:?}, {} plies to the next capture or pawn move", dtz.0);
//! }
//! # Ok::<(), guoxiang_syzygy::ProbeError>(())
//! ```
//!
//! # What the values mean
//!
//! A WDL probe gives the result with best play **for the side to move**, under the 50-move rule counted from a
//! fresh counter (as if the last move had been a capture or a pawn move; the position's halfmove clock is not
//! looked at):
//!
//! | [`Wdl`] | meaning |
//! |---|---|
//! | `Win` | the side to move forces mate while keeping the 50-move rule: a capture or pawn move (or the mate) at least every 50 moves |
//! | `CursedWin` | it can force mate, but not that fast: the opponent can reach a 50-move draw |
//! | `Draw` | neither side can force mate |
//! | `BlessedLoss` | the opponent forces mate only without keeping the 50-move rule: a draw can be claimed |
//! | `Loss` | the opponent forces mate within the rule |
//!
//! A DTZ probe gives [`Dtz`]: the number of plies (half-moves) until the next *zeroing* move — a capture or a pawn
//! move, which resets the 50-move counter — when the winner hurries and the loser delays; positive when the side
//! to move wins, negative when it loses, 0 for draws. A magnitude above 100 marks a cursed win / blessed loss: the
//! zeroing move then comes after that many plies, or after that many minus 100 when it is a later phase (after the
//! next zeroing move) that runs past the 50-move limit.
//!
//! DTZ is **not** distance to mate: following DTZ keeps a win won (each zeroing move leads to a new phase, again
//! within the rule), but the line is not the shortest mate. To save space many files store distances in whole
//! moves rather than plies, so a stored value may be one ply too small: `Dtz(n)` can mean n or n + 1 plies (the
//! files keep exact plies wherever this rounding would change a result). Mind this near the 50-move limit.
//!
//! With a non-zero halfmove clock `h`, a win with DTZ `d` is safe only when `d + h ≤ 100`; [`Tablebase::root_moves`]
//! and [`Tablebase::best_move`] apply this rule (and warn through [`Wdl::CursedWin`] when it fails).
//!
//! # The file format, in brief
//!
//! A file holds, for one material (e.g. `KRPvKR`, white's pieces before the `v`; the same file also serves the
//! colours exchanged), one value per position of a numbering that removes the board's symmetries (see the
//! `index` module): mirror images without pawns, left–right mirror images with pawns (whose files are then split
//! into four parts by the file of the leading pawn). WDL files store both sides to move (one for symmetric
//! material); DTZ files only one, the other being found by a one-ply search. The values are compressed per part
//! into blocks of a canonical prefix code whose symbols expand into runs of values (see the `table` module).
//!
//! Positions where a capture is the best move may hold any value no better than the truth (it compresses better),
//! and positions with an en-passant right are not stored: the probes here resolve captures by a small search over
//! captures and handle en passant themselves, so [`Tablebase::probe_wdl`] and [`Tablebase::probe_dtz`] return
//! the true values. A probe therefore also needs the WDL tables that captures (and, for DTZ, pawn moves) lead to.
//!
//! # Robustness and sharing
//!
//! Files are found by [`Tablebase::add_directory`] / [`Tablebase::add_paths`] and opened only on first need
//! (memory-mapped; the bytes are read from disk by the operating system as probes touch them). Every read is
//! bounds-checked: a truncated, damaged or foreign file gives [`ProbeError::Corrupt`] naming the file and the
//! offset, never a panic. The files must not be modified or truncated while a [`Tablebase`] has them mapped.
//! A [`Tablebase`] is `Send + Sync`; probes take `&self`.

mod error;
mod index;
mod material;
mod probe;
mod table;

pub use error::ProbeError;
pub use probe::Tablebase;

use guoxiang_core::Move;

/// A result under the 50-move rule, from the side to move's point of view. Ordered from worst to best.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wdl {
    /// The opponent forces mate (within the 50-move rule).
    Loss,
    /// The opponent can force mate, but only by letting the 50-move rule draw the game.
    BlessedLoss,
    /// No one can force mate.
    Draw,
    /// Mate can be forced, but only by letting the 50-move rule draw the game.
    CursedWin,
    /// Mate can be forced within the 50-move rule.
    Win,
}

impl Wdl {
    /// The same result from the opponent's point of view (also available as the `-` operator).
    #[allow(clippy::should_implement_trait)] // the method is the documented API; `Neg` is implemented as well
    pub fn neg(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::BlessedLoss => Wdl::CursedWin,
            Wdl::Draw => Wdl::Draw,
            Wdl::CursedWin => Wdl::BlessedLoss,
            Wdl::Win => Wdl::Loss,
        }
    }

    /// -2 (loss), -1 (blessed loss), 0 (draw), 1 (cursed win), 2 (win): the numbers the files use.
    pub fn to_i32(self) -> i32 {
        match self {
            Wdl::Loss => -2,
            Wdl::BlessedLoss => -1,
            Wdl::Draw => 0,
            Wdl::CursedWin => 1,
            Wdl::Win => 2,
        }
    }

    /// From -2..=2 (values outside are clamped).
    pub(crate) fn from_i32(v: i32) -> Wdl {
        match v {
            i32::MIN..=-2 => Wdl::Loss,
            -1 => Wdl::BlessedLoss,
            0 => Wdl::Draw,
            1 => Wdl::CursedWin,
            _ => Wdl::Win,
        }
    }
}

impl std::ops::Neg for Wdl {
    type Output = Wdl;

    fn neg(self) -> Wdl {
        Wdl::neg(self)
    }
}

/// Distance to zeroing, in plies, from the side to move's point of view: `> 0` it wins, `< 0` it loses, `0` draw.
///
/// The magnitude is the number of plies until the next capture or pawn move (the move that makes it counted), with
/// the winner hurrying and the loser delaying; `1` means a zeroing move (or mate) wins now, `-1` that the side to
/// move is mated or must zero at once while losing. `|n| > 100` is a cursed win / blessed loss (see [`Wdl`]).
/// As stored by the files, the magnitude can be one ply short: `n` may stand for `n` or `n + 1` plies (the files
/// keep exact plies wherever the rounding would change a result). Same convention as python-chess's and
/// Stockfish's readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Dtz(pub i32);

/// A legal move at the root with what the tables say about it.
///
/// `wdl` and `dtz` are from the point of view of the side to move at the root (the one playing `mv`). `dtz`
/// counts plies from the root, `mv` included, to the next zeroing move: a winning capture or pawn move has
/// `dtz` ±1 (±101 when its result is already cursed/blessed), a mating move 1, a quiet move one more than the
/// opponent's DTZ after it.
///
/// `wdl` takes the root's halfmove clock `h` into account: a winning move with `dtz = d` is a [`Wdl::Win`] only
/// when `d + h ≤ 100` — the zeroing move must come before the 50-move rule allows a claim — and a
/// [`Wdl::CursedWin`] otherwise; likewise a losing move is a [`Wdl::BlessedLoss`] when `|d| + h > 100`.
/// (Because of the files' rounding a `d` right at the limit may in fact be one ply longer; see [`Dtz`].)
///
/// `rank` orders the moves, higher is better: wins (fastest first), then cursed wins (fastest first), draws
/// (all equal, 0), blessed losses (slowest first), losses (slowest first). An engine keeps the moves of the
/// highest rank class that it can afford and searches among them, or plays the top one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    pub mv: Move,
    pub wdl: Wdl,
    pub dtz: Dtz,
    pub rank: i32,
}

impl RootMove {
    /// Width of a rank class (far above any DTZ).
    const CLASS: i32 = 1 << 20;

    /// Result and rank of a move with root-relative DTZ `d` at halfmove clock `clock`.
    fn judge(d: i32, clock: i32) -> (Wdl, i32) {
        let plies_left = 100 - clock.clamp(0, 100);
        match d {
            0 => (Wdl::Draw, 0),
            d if d > 0 && d <= plies_left => (Wdl::Win, 4 * Self::CLASS - d),
            d if d > 0 => (Wdl::CursedWin, 2 * Self::CLASS - d),
            d if -d <= plies_left => (Wdl::Loss, -4 * Self::CLASS - d),
            d => (Wdl::BlessedLoss, -2 * Self::CLASS - d),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wdl_order_and_negation() {
        assert!(Wdl::Loss < Wdl::BlessedLoss && Wdl::BlessedLoss < Wdl::Draw);
        assert!(Wdl::Draw < Wdl::CursedWin && Wdl::CursedWin < Wdl::Win);
        for w in [Wdl::Loss, Wdl::BlessedLoss, Wdl::Draw, Wdl::CursedWin, Wdl::Win] {
            assert_eq!(w.neg().neg(), w);
            assert_eq!(-w, w.neg());
            assert_eq!(w.neg().to_i32(), -w.to_i32());
            assert_eq!(Wdl::from_i32(w.to_i32()), w);
        }
    }

    #[test]
    fn root_judgement_with_the_clock() {
        assert_eq!(RootMove::judge(1, 0).0, Wdl::Win);
        assert_eq!(RootMove::judge(100, 0).0, Wdl::Win);
        assert_eq!(RootMove::judge(101, 0).0, Wdl::CursedWin);
        assert_eq!(RootMove::judge(60, 40).0, Wdl::Win);
        assert_eq!(RootMove::judge(61, 40).0, Wdl::CursedWin);
        assert_eq!(RootMove::judge(-61, 40).0, Wdl::BlessedLoss);
        assert_eq!(RootMove::judge(-60, 40).0, Wdl::Loss);
        assert_eq!(RootMove::judge(0, 99).0, Wdl::Draw);
        // Faster wins rank higher; every win above every cursed win above draws; slower losses rank higher.
        let r = |d, h| RootMove::judge(d, h).1;
        assert!(r(3, 0) > r(5, 0));
        assert!(r(99, 0) > r(101, 0));
        assert!(r(101, 0) > r(0, 0));
        assert!(r(0, 0) > r(-120, 0));
        assert!(r(-120, 0) > r(-5, 0));
        assert!(r(-7, 0) > r(-5, 0));
    }
}
