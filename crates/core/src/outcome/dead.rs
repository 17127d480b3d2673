//! Can a side still checkmate? Article 5.2.2 (dead position) and Article 6.9 (a flag falls, but the opponent "cannot
//! checkmate the player's king by any possible series of legal moves").
//!
//! The question is cooperative: the other side helps (a helpmate counts). Answers must be **sound**: we only say "cannot
//! mate" after a proof; when unsure we say "can mate" (a win on time is never turned into a draw by mistake, and a game
//! is never ended as dead while a mate is still possible). In that order, [`Position::mate_ability`]:
//!
//! 1. the position is already checkmate against the other side → reachable;
//! 2. **insufficient material** ([`Position::has_insufficient_material`]): the lone-king, lone-minor-piece and
//!    same-coloured-bishops rules (they agree with python-chess, and each one is a theorem) → impossible;
//! 3. **locked pawns** (module `fortress`): a static over-approximation of every reachable position when all pawns face
//!    enemy pawns → impossible if no square can host a mate;
//! 4. **exhaustive search**, in two cases. *Closed*: every pawn faces an enemy pawn on its file and the estimated
//!    number of positions before the structure changes is at most 8 × the budget; the search gives up (unknown) as
//!    soon as a pawn breaks free, since it could promote. *Narrow*: the side to move has at most two legal moves (a
//!    forced capture of the last mating piece, say); the search follows forced lines only and gives up at the first
//!    position with more than three legal moves. Either way it visits *every* position reachable by legal moves,
//!    pruning those where steps 2–3 prove that no mate follows: finding a mate → reachable; running out of positions
//!    → impossible (the set visited was closed under legal moves); running over the budget → unknown;
//! 5. anything else → unknown, which [`Position::can_mate`] treats as "can mate".
//!
//! So `can_mate` may answer `true` in some dead positions (a queen walled in behind locked pawns, long forced lines,
//! structures too big to search), never `false` in a live one.
//!
//! Costs (optimised build, this machine): about 1 µs per call on average over the 4,947 final positions of the
//! lichess test data; steps 1–3 take well under a microsecond for ordinary positions (a pawn with no enemy pawn
//! ahead ends step 3 at once) and a few microseconds for locked structures; the searches cost one to two microseconds
//! per position visited — a few hundred microseconds in king-and-pawn endings with rammed pawns, at most
//! [`DEFAULT_MATE_BUDGET`] positions (tens of milliseconds) in the rare worst case.

use super::fortress::{Lock, Open};
use super::key::{KeySet, PosKey};
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, Role};

/// The number of positions the exhaustive search of [`Position::can_mate`] may visit before it gives up (and answers
/// "can mate").
pub const DEFAULT_MATE_BUDGET: usize = 20_000;

/// In the narrow (forced-line) search, a position with more legal moves than this ends the search as unknown.
const NARROW_WIDTH: usize = 3;
/// Position budget of the narrow search.
const NARROW_BUDGET: usize = 2_000;
/// The exhaustive search runs in a closed position only when the estimated number of positions is at most this many
/// times the budget (the estimate counts positions that cannot occur, like kings side by side).
const ESTIMATE_SLACK: f64 = 8.0;

/// Why a side cannot checkmate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DeadReason {
    /// Not enough material to ever mate (a lone king, a lone knight against a king and queens, bishops all on one
    /// colour with no knights or pawns on the board …).
    InsufficientMaterial,
    /// The pawns are locked for good and no square can host a checkmate.
    LockedPawns,
    /// Every position reachable by legal moves was examined, and none is a checkmate by this side.
    NoMateReachable,
}

/// What [`Position::mate_ability`] found out.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum MateAbility {
    /// A checkmate by this side was found among the reachable positions (or the position is one already).
    Reachable,
    /// Proved: no series of legal moves ends with this side giving checkmate.
    Impossible(DeadReason),
    /// Not decided within the budget; to be treated as "can mate".
    Unknown,
}

impl MateAbility {
    /// Whether the side may still be able to mate (everything except a proof of the opposite).
    pub fn can_mate(self) -> bool {
        !matches!(self, MateAbility::Impossible(_))
    }
}

impl Position {
    /// Whether `color` can never checkmate for lack of material, by these rules (the same ones python-chess uses,
    /// each a theorem about all positions):
    ///
    /// - a lone king;
    /// - king and one knight, when the opponent has nothing but a king and queens (with any other enemy unit a
    ///   knight mate against a king hemmed in by its own piece becomes possible);
    /// - kings and bishops only for `color`, when every bishop on the board (both sides) stands on squares of one
    ///   colour and there are no pawns and no knights at all.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let ours = self.by_color(color);
        let heavy_or_pawn = self.by_role(Role::Pawn) | self.by_role(Role::Rook) | self.by_role(Role::Queen);
        if (ours & heavy_or_pawn).any() {
            return false;
        }
        let kings = self.by_role(Role::King);
        if (ours & self.by_role(Role::Knight)).any() {
            let theirs = self.by_color(!color);
            return ours.count() <= 2 && (theirs & !kings & !self.by_role(Role::Queen)).is_empty();
        }
        if (ours & self.by_role(Role::Bishop)).any() {
            let bishops = self.by_role(Role::Bishop);
            let one_colour =
                (bishops & Bitboard::LIGHT_SQUARES).is_empty() || (bishops & Bitboard::DARK_SQUARES).is_empty();
            return one_colour && self.by_role(Role::Pawn).is_empty() && self.by_role(Role::Knight).is_empty();
        }
        true
    }

    /// Whether neither side has enough material to mate ([`Position::has_insufficient_material`] for both).
    pub fn is_insufficient_material(&self) -> bool {
        self.has_insufficient_material(Color::White) && self.has_insufficient_material(Color::Black)
    }

    /// Whether `color` could still checkmate the opponent by some series of legal moves (both sides' moves, the
    /// opponent cooperating). Sound: `false` only with a proof. See [`Position::mate_ability`] for how and at what
    /// cost.
    pub fn can_mate(&self, color: Color) -> bool {
        self.mate_ability(color, DEFAULT_MATE_BUDGET).can_mate()
    }

    /// A dead position (Article 5.2.2): neither side can checkmate by any series of legal moves.
    pub fn is_dead_position(&self) -> bool {
        !self.can_mate(Color::White) && !self.can_mate(Color::Black)
    }

    /// The full answer behind [`Position::can_mate`], with `budget` bounding the positions the exhaustive search may
    /// visit (see the module text for the steps).
    pub fn mate_ability(&self, color: Color, budget: usize) -> MateAbility {
        if self.turn() != color && self.is_checkmate() {
            return MateAbility::Reachable;
        }
        if self.has_insufficient_material(color) {
            return MateAbility::Impossible(DeadReason::InsufficientMaterial);
        }
        let lock = Lock::of(self);
        if let Ok(l) = &lock
            && l.no_mate(color)
        {
            return MateAbility::Impossible(DeadReason::LockedPawns);
        }
        let mode = match &lock {
            Ok(l) if l.states <= budget as f64 * ESTIMATE_SLACK => Some(Mode::Closed),
            _ if self.count_legal() <= 2 => Some(Mode::Narrow),
            _ => None,
        };
        match mode {
            Some(mode) => match explore(self, color, budget, mode) {
                Explored::Mate => MateAbility::Reachable,
                Explored::NoMate => MateAbility::Impossible(DeadReason::NoMateReachable),
                Explored::Unknown => MateAbility::Unknown,
            },
            None => MateAbility::Unknown,
        }
    }
}

#[derive(Copy, Clone, PartialEq, Eq)]
enum Mode {
    /// Every pawn faces an enemy pawn: explore up to the budget, but give up as soon as a pawn breaks free (it could
    /// promote, and the positions after that are too many to visit).
    Closed,
    /// Few legal moves: follow forced lines only, giving up at the first position with more than [`NARROW_WIDTH`]
    /// legal moves or after [`NARROW_BUDGET`] positions.
    Narrow,
}

enum Explored {
    Mate,
    NoMate,
    Unknown,
}

/// What the rules of steps 2–3 say about `p`.
enum Proof {
    NoMate,
    /// Not proved, and a pawn has broken free.
    FreePawn,
    NotProved,
}

fn try_prove(p: &Position, color: Color) -> Proof {
    if p.has_insufficient_material(color) {
        return Proof::NoMate;
    }
    match Lock::of(p) {
        Ok(l) if l.no_mate(color) => Proof::NoMate,
        Err(Open::FreePawn) => Proof::FreePawn,
        _ => Proof::NotProved,
    }
}

/// Depth-first visit of every position reachable from `root` (whose own proofs the caller already tried). A child
/// reached by a reversible move (no capture, no pawn move, same castling rights, no en-passant square before) has the
/// same material, pawns and piece regions as its parent, so the proofs are retried only after the other kind of move.
fn explore(root: &Position, color: Color, budget: usize, mode: Mode) -> Explored {
    let (budget, width) = match mode {
        Mode::Closed => (budget, usize::MAX),
        Mode::Narrow => (budget.min(NARROW_BUDGET), NARROW_WIDTH),
    };
    let mut seen = KeySet::default();
    seen.insert(PosKey::of(root));
    let mut stack = vec![(root.clone(), false)];
    let mut visited = 0usize;
    while let Some((p, changed)) = stack.pop() {
        let moves = p.legal_moves();
        if moves.is_empty() {
            if p.turn() != color && p.is_check() {
                return Explored::Mate;
            }
            continue;
        }
        if changed {
            match try_prove(&p, color) {
                Proof::NoMate => continue,
                Proof::FreePawn if mode == Mode::Closed => return Explored::Unknown,
                _ => {}
            }
        }
        visited += 1;
        if visited > budget || moves.len() > width {
            return Explored::Unknown;
        }
        // Irreversible moves are pushed last, so they are visited first: they lead soonest to a proof, a free pawn
        // or a mate.
        let (quiet, zeroing): (Vec<Move>, Vec<Move>) = moves.iter().partition(|&&m| !p.is_zeroing(m));
        for m in quiet.into_iter().chain(zeroing) {
            let child = p.after(m);
            if seen.insert(PosKey::of(&child)) {
                let changed =
                    p.is_zeroing(m) || child.castling_rooks() != p.castling_rooks() || p.ep_square().is_some();
                stack.push((child, changed));
            }
        }
    }
    Explored::NoMate
}
