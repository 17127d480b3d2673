//! guoxiang-engine: a chess engine — alpha-beta search, an NNUE evaluation and a hand-written one — as a library
//! without I/O.
//!
//! The caller (the UCI front end in the `guoxiang` binary, later the game server) hands over a position, the
//! hashes of the game's earlier positions (for repetitions), [`Limits`], a [`Control`] with the stop and ponder
//! flags, and a [`Reporter`] that receives an [`Info`] per completed iteration.
//!
//! | module | what lives there |
//! |---|---|
//! | `score` | [`Score`]: centipawns or mate distance, printed as UCI `cp N` / `mate N` |
//! | `params` | every evaluation weight and search margin, in named tables |
//! | `eval` | the tapered evaluation |
//! | `nnue` | the neural-network evaluation and its incrementally updated accumulators |
//! | `see` | static exchange evaluation |
//! | `movepick` | staged move ordering |
//! | `tt` | the shared, lock-free transposition table |
//! | `time` | time management |
//! | `search` | iterative deepening, PVS, quiescence, pruning, Lazy SMP |
//! | `levels` | strength levels for people |
//! | `book` | the low levels' opening book and their preference for developing moves |
//! | `tb` | Syzygy endgame tablebases at the root and in the tree |
//! | `bench` | the fixed benchmark positions |
//! | `clock` | the clock the search reads (the host's in a browser) |

pub mod bench;
pub mod book;
pub mod clock;
pub mod eval;
pub mod levels;
pub mod movepick;
pub mod nnue;
pub mod params;
pub mod score;
pub mod search;
pub mod see;
pub mod tb;
pub mod time;
pub mod tt;

pub use levels::{LEVELS, Level};
pub use score::{MAX_PLY, Score};
pub use tt::{Bound, TranspositionTable};

use crate::clock::Instant;
use guoxiang_core::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// What the `go` command asked for. Everything is optional; nothing set means "search until stopped".
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub wtime: Option<Duration>,
    pub btime: Option<Duration>,
    pub winc: Option<Duration>,
    pub binc: Option<Duration>,
    pub movestogo: Option<u32>,
    /// Search for a mate in this many moves.
    pub mate: Option<u32>,
    pub infinite: bool,
    /// Restrict the root to these moves (empty: all).
    pub searchmoves: Vec<Move>,
    /// Pondering: no time limit until [`Control::ponder`] is cleared (ponderhit).
    pub ponder: bool,
}

/// Flags shared with whoever controls a running search.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Set to stop the search as soon as possible.
    pub stop: Arc<AtomicBool>,
    /// Set while pondering; cleared on ponderhit.
    pub ponder: Arc<AtomicBool>,
}

/// A report on one principal variation after an iteration.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1 for the best line.
    pub multipv: u32,
    pub score: Score,
    /// `Some` when the score is only a bound (an aspiration window failed).
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    /// Endgame-table lookups so far (UCI `tbhits`).
    pub tbhits: u64,
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes.saturating_mul(1000) / ms
    }
}

/// Receives search reports. Called from the search's main thread.
pub trait Reporter: Sync {
    fn info(&self, info: &Info);
}

/// A reporter that drops everything.
#[derive(Debug, Default, Clone, Copy)]
pub struct Silent;

impl Reporter for Silent {
    fn info(&self, _: &Info) {}
}

impl<F: Fn(&Info) + Sync> Reporter for F {
    fn info(&self, info: &Info) {
        self(info)
    }
}

/// Engine settings (the UCI options).
#[derive(Clone, Debug)]
pub struct Options {
    pub threads: usize,
    pub multipv: usize,
    pub move_overhead: Duration,
    /// A strength level (see [`LEVELS`] and [`levels::level`]); `None` is full strength. Held by value, so a tool
    /// can also try settings that are not in the table.
    pub level: Option<Level>,
    /// Seed for the weak levels' choices and evaluation noise.
    pub seed: u64,
    /// The NNUE network that evaluates at full strength (by default the one compiled in), or `None` for the
    /// hand-written evaluation. The weak levels always use the hand-written one.
    pub nnue: Option<Arc<nnue::Network>>,
    /// Syzygy endgame tablebases (UCI `SyzygyPath`) and how to use them; `None`: the search plays endgames on its
    /// own. Used at full strength only.
    pub syzygy: Option<tb::Syzygy>,
    /// Singular extensions (UCI `SingularExtensions`; off by default until an SPRT shows they pay: docs/engine.md,
    /// "Singular extensions"). Full strength only.
    pub singular_extensions: bool,
    /// Continuation history in move ordering and reductions (UCI `ContinuationHistory`; docs/engine.md,
    /// "Continuation history"). Full strength only.
    pub continuation_history: bool,
}

/// Whether continuation history is on by default (docs/engine.md, "Continuation history").
pub const CONTINUATION_HISTORY_DEFAULT: bool = false;

impl Default for Options {
    fn default() -> Options {
        Options {
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(30),
            level: None,
            seed: 0x5EED,
            nnue: Some(nnue::Network::embedded()),
            syzygy: None,
            singular_extensions: false,
            continuation_history: CONTINUATION_HISTORY_DEFAULT,
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// `None` only when there is no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    pub score: Score,
    pub depth: u32,
    pub nodes: u64,
}

/// An engine: options and a transposition table that lives across searches. Cloning shares the table.
#[derive(Clone, Debug)]
pub struct Engine {
    tt: Arc<TranspositionTable>,
    pub options: Options,
}

impl Engine {
    /// An engine with a `hash_mb` table.
    pub fn new(hash_mb: usize) -> Engine {
        Engine { tt: Arc::new(TranspositionTable::new(hash_mb)), options: Options::default() }
    }

    /// Replaces the table by an empty one of `mb` mebibytes. The old table is let go first (when no search holds
    /// it), so the two are never both in memory.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Arc::new(TranspositionTable::new(1));
        self.tt = Arc::new(TranspositionTable::new(mb));
    }

    /// Empties the table in place (every entry written: about a second per gigabyte).
    pub fn clear_hash(&self) {
        self.tt.clear();
    }

    /// Empties the table by replacing it with a fresh one of the same size, whose memory the system zeroes lazily:
    /// immediate whatever the size (the protocol front end's `Clear Hash` and `ucinewgame`).
    pub fn renew_hash(&mut self) {
        let mb = self.tt.size_mb();
        self.set_hash(mb);
    }

    pub fn tt(&self) -> &TranspositionTable {
        &self.tt
    }

    /// The moves a search of `pos` with `limits` would consider at the root: the legal ones (those of
    /// `searchmoves` when given), and at full strength with endgame tables only those that keep the tables' best
    /// result. MultiPV shows at most this many lines.
    pub fn root_moves(&self, pos: &Position, limits: &Limits) -> Vec<Move> {
        search::root_moves(&self.options, pos, limits).0
    }

    /// Searches `pos`. `history` holds the hashes of the game's positions before `pos`, oldest first (those since
    /// the last capture or pawn move are enough); `start` is when the clock started for this move.
    pub fn search(
        &self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        control: &Control,
        reporter: &dyn Reporter,
        start: Instant,
    ) -> SearchResult {
        search::run(&self.tt, &self.options, pos, history, limits, control, reporter, start)
    }
}
