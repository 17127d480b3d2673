//! Can a side still checkmate? Article 5.2.2 (dead position) and Article 6.9 (a flag falls, but the opponent "cannot
//! checkmate the player's king by any possible series of legal moves").
//!
//! The question is cooperative: the other side helps (a helpmate counts). Answers must be **sound**: we only say "cannot
//! mate" after a proof, and "can mate" ([`MateVerdict::Can`]) only with a legal mating line as evidence; when neither
//! is found within the budget the answer is [`MateVerdict::Unknown`], which [`Position::can_mate`] treats as "can
//! mate" (a win on time is never turned into a draw by mistake, and a game is never ended as dead while a mate is
//! still possible). [`Position::mate_verdict_with`] goes through these steps, the cheap ones first:
//!
//! 1. the position is already checkmate against the other side → can (empty line);
//! 2. **insufficient material** ([`Position::has_insufficient_material`]): the lone-king, lone-minor-piece and
//!    same-coloured-bishops rules (they agree with python-chess, and each one is a theorem) → cannot;
//! 3. **locked pawns** (module `fortress`): a static over-approximation of every reachable position when all pawns face
//!    enemy pawns and nothing can ever capture → cannot if no square can host a mate;
//! 4. **regions** (module `regions`): for any position without castling rights or en passant, the squares every unit
//!    may ever stand on and attack, as an exact fixpoint (fixed units, pawns that can never pass each other, kings
//!    that can never approach an immobile enemy without ending the game, …); then every square the losing king may
//!    reach is tested as a mating square, with the flight squares to be held by distinct defenders or covered → cannot
//!    if none passes;
//! 5. the old **closed / forced-line searches** (all pawns rammed and few positions, or at most two legal moves):
//!    every reachable position is visited, pruned where steps 2–4 prove that no mate follows → can (the line to the
//!    mate), cannot (the set visited was closed under legal moves), or on;
//! 6. **short helpmates**: iterative deepening up to 9 plies, the winner's last move a check, checks and captures
//!    first (middle-game mates against a king boxed in by its own pieces);
//! 7. **guided helpmate search** (module `helpmate`, best first, the whole budget): the loser's king driven to a
//!    corner or an edge, its flight squares taken, the winner's units brought close, pawns pushed when mating material
//!    is missing;
//! 8. **exhaustive search** of every reachable position as in step 5 but for any position, with up to
//!    [`DEFAULT_MATE_BUDGET`] × 4 positions when no queen or rook is on the board (closed bishop and pawn
//!    structures, stalemate tricks) and [`DEFAULT_MATE_BUDGET`] otherwise (a mate found there comes with the line
//!    that led to it: legal, but often long); then unknown.
//!
//! Steps 1–5 are the cheap test that [`Position::is_dead_position`] (asked after every move) applies to both sides,
//! running all steps for one side only once the other is proved unable to mate; [`Position::can_mate`] (a flag, a
//! claim of victory) and [`Position::dead_verdict`] run all steps.
//!
//! On CHA's 1,803 labelled test positions (Ambrona's Chess Unwinnability Analyzer; 1,857 sides that cannot win) this
//! recognises 1,842 of the sides that cannot win (99.2 %) with no unsound answer, and finds a mating line for 1,684 of
//! the 1,749 sides that can (see docs/benchmarks.md for the figures and the command).
//!
//! **Cost.** Every step is bounded by a count of positions, not by time, so answers do not depend on the machine.
//! With the default budget a call visits at most 2,000 positions in step 6, expands 20,000 in step 7, and visits
//! 80,000 in step 8 (generating at most 16 × that many children), plus one regions analysis (microseconds) per
//! irreversible move in the searches. On this shared 2-core machine that is a median of about 55 µs per call over
//! CHA's positions and under half a second in the worst case seen there (docs/benchmarks.md); the calls that end
//! unknown pay the whole bound, so they are the slow ones.

use super::fortress::{Lock, Open};
use super::helpmate::short_mating_line;
use super::key::{KeySet, PosKey};
use super::regions::{Hopeless, Regions};
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, Role};

/// The budget of [`Position::mate_verdict`] (and so of [`Position::can_mate`]): the searches' bound on the positions
/// they visit (see [`Position::mate_verdict_with`]).
pub const DEFAULT_MATE_BUDGET: usize = 20_000;

/// In the narrow (forced-line) search, a position with more legal moves than this ends the search as unknown.
const NARROW_WIDTH: usize = 3;
/// Position budget of the narrow search.
const NARROW_BUDGET: usize = 2_000;
/// The exhaustive search runs in a closed position only when the estimated number of positions is at most this many
/// times the budget (the estimate counts positions that cannot occur, like kings side by side).
const ESTIMATE_SLACK: f64 = 8.0;
/// Positions the short helpmate search of [`Position::mate_verdict_with`] may visit, as a share of the budget
/// (1/QUICK_SHARE).
const QUICK_SHARE: usize = 10;
/// How many times the budget the exhaustive search may visit when no queen or rook is on the board, or when the
/// static bound on the reachable positions is at most 4 × this × budget.
const LARGE_BUDGET_FACTOR: usize = 4;
/// The exhaustive search also stops once it has generated this many times its budget in children (positions with
/// dozens of moves each cost more per visit).
const MAX_BRANCHING: usize = 16;
/// The longest line (in plies) the iterative-deepening helpmate search tries.
const SHORT_PLIES: u32 = 9;

/// Why a side cannot checkmate.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum DeadReason {
    /// Not enough material to ever mate (a lone king, a lone knight against a king and queens, bishops all on one
    /// colour with no knights or pawns on the board …).
    InsufficientMaterial,
    /// The pawns are locked for good and no square can host a checkmate.
    LockedPawns,
    /// Every unit's possible squares were bounded (module `regions`), and no square the losing king may reach can
    /// host a checkmate.
    NoMatingSquare,
    /// Every position reachable by legal moves was examined (those where one of the rules above applies are not
    /// followed further), and none is a checkmate by this side.
    NoMateReachable,
}

impl DeadReason {
    /// A short English name, for machine-readable output (`insufficient_material`, `locked_pawns`,
    /// `no_mating_square`, `no_mate_reachable`).
    pub fn code(self) -> &'static str {
        match self {
            DeadReason::InsufficientMaterial => "insufficient_material",
            DeadReason::LockedPawns => "locked_pawns",
            DeadReason::NoMatingSquare => "no_mating_square",
            DeadReason::NoMateReachable => "no_mate_reachable",
        }
    }
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

/// The answer of [`Position::mate_verdict`], with its evidence.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum MateVerdict {
    /// This side can mate: a series of legal moves from the position (starting with the side to move) that ends with
    /// it giving checkmate. Empty when the position already is that checkmate.
    Can(Vec<Move>),
    /// Proved: no series of legal moves ends with this side giving checkmate.
    Cannot(DeadReason),
    /// Not decided within the budget; to be treated as "can mate".
    Unknown,
}

impl MateVerdict {
    /// Whether the side may still be able to mate (everything except a proof of the opposite).
    pub fn can_mate(&self) -> bool {
        !matches!(self, MateVerdict::Cannot(_))
    }

    /// The summary without the line.
    pub fn ability(&self) -> MateAbility {
        match self {
            MateVerdict::Can(_) => MateAbility::Reachable,
            MateVerdict::Cannot(r) => MateAbility::Impossible(*r),
            MateVerdict::Unknown => MateAbility::Unknown,
        }
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
    /// opponent cooperating): the full analysis of [`Position::mate_verdict`], `false` only with a proof. For the
    /// flag question (Article 6.9).
    pub fn can_mate(&self, color: Color) -> bool {
        self.mate_verdict(color).can_mate()
    }

    /// A dead position (Article 5.2.2): neither side can checkmate by any series of legal moves. Meant to be asked
    /// after every move, so it is cheap for live positions: the static proofs (and the closed / forced-line searches)
    /// for both sides, and the full analysis of [`Position::mate_verdict`] for one side only once the other is proved
    /// unable to mate. Sound (`true` only with proofs for both sides); it may miss a dead position that only the full
    /// analysis of both sides would prove (see [`Position::dead_verdict`]).
    pub fn is_dead_position(&self) -> bool {
        let mut statics = Statics::new(self);
        let w = self.quick_cannot_mate(Color::White, &mut statics);
        let b = self.quick_cannot_mate(Color::Black, &mut statics);
        match (w, b) {
            (true, true) => true,
            (true, false) => !self.mate_verdict(Color::Black).can_mate(),
            (false, true) => !self.mate_verdict(Color::White).can_mate(),
            (false, false) => false,
        }
    }

    /// The full answer to "is this position dead?" (Article 5.2.2), with both sides' verdicts: dead when both are
    /// [`MateVerdict::Cannot`], alive when one is [`MateVerdict::Can`], otherwise undecided.
    pub fn dead_verdict(&self) -> [MateVerdict; 2] {
        [self.mate_verdict(Color::White), self.mate_verdict(Color::Black)]
    }

    /// The cheap part of the analysis: a proof that `color` cannot mate from the static rules, or from the
    /// exhaustive searches of closed positions and forced lines; `false` when none applies.
    fn quick_cannot_mate(&self, color: Color, statics: &mut Statics<'_>) -> bool {
        matches!(self.quick(color, DEFAULT_MATE_BUDGET / 10, statics), Some(MateVerdict::Cannot(_)))
    }

    /// Whether `color` could still checkmate, with evidence, at the default budget ([`DEFAULT_MATE_BUDGET`]): see
    /// [`Position::mate_verdict_with`].
    pub fn mate_verdict(&self, color: Color) -> MateVerdict {
        self.mate_verdict_with(color, DEFAULT_MATE_BUDGET)
    }

    /// Whether `color` could still checkmate the opponent by some series of legal moves, the opponent cooperating.
    /// `Can` comes with a mating line, `Cannot` with the proof's kind; `Unknown` when neither was found within
    /// `budget`: the searches visit at most `budget` / 10 + `budget` + 4 × `budget` positions in all (the exhaustive
    /// one only `budget` when a queen or rook is on the board, and it generates at most 16 children per position
    /// allowed). See the module text for the steps.
    pub fn mate_verdict_with(&self, color: Color, budget: usize) -> MateVerdict {
        let mut statics = Statics::new(self);
        if let Some(v) = self.quick(color, budget, &mut statics) {
            return v;
        }
        // Short helpmates by plain iterative deepening (middle games), then a guided best-first search (endings):
        // most positions that can mate show it within a few thousand positions.
        if let Some(line) = short_mating_line(self, color, SHORT_PLIES, (budget / QUICK_SHARE).max(100)) {
            return MateVerdict::Can(line);
        }
        if let Some(line) = self.mating_line(color, budget.max(100)) {
            return MateVerdict::Can(line);
        }
        // Every reachable position, pruned by the static proofs: closes in most positions that cannot mate. When the
        // static bound on the reachable positions is small, the search may visit many more of them.
        let small = (self.by_role(Role::Queen) | self.by_role(Role::Rook)).is_empty()
            || statics.regions().is_some_and(|r| r.states() <= LARGE_BUDGET_FACTOR as f64 * budget as f64 * 4.0);
        let explore_budget = if small { budget * LARGE_BUDGET_FACTOR } else { budget };
        match explore(self, color, explore_budget, Mode::Full) {
            Explored::Mate(line) => MateVerdict::Can(line),
            Explored::NoMate => MateVerdict::Cannot(DeadReason::NoMateReachable),
            Explored::Unknown => MateVerdict::Unknown,
        }
    }

    /// The full answer behind [`Position::mate_verdict_with`] without the line.
    pub fn mate_ability(&self, color: Color, budget: usize) -> MateAbility {
        self.mate_verdict_with(color, budget).ability()
    }

    /// The cheap steps: a mate on the board, the static proofs, and the searches of closed positions and forced
    /// lines. `None` when they decide nothing.
    fn quick(&self, color: Color, budget: usize, statics: &mut Statics<'_>) -> Option<MateVerdict> {
        if self.turn() != color && self.is_checkmate() {
            return Some(MateVerdict::Can(Vec::new()));
        }
        if self.has_insufficient_material(color) {
            return Some(MateVerdict::Cannot(DeadReason::InsufficientMaterial));
        }
        if let Ok(l) = statics.lock()
            && l.no_mate(color)
        {
            return Some(MateVerdict::Cannot(DeadReason::LockedPawns));
        }
        if statics.regions_no_mate(color) {
            return Some(MateVerdict::Cannot(DeadReason::NoMatingSquare));
        }
        let mode = match statics.lock() {
            Ok(l) if l.states <= budget as f64 * ESTIMATE_SLACK => Mode::Closed,
            _ if self.count_legal() <= 2 => Mode::Narrow,
            _ => return None,
        };
        match explore(self, color, budget, mode) {
            Explored::Mate(line) => Some(MateVerdict::Can(line)),
            Explored::NoMate => Some(MateVerdict::Cannot(DeadReason::NoMateReachable)),
            Explored::Unknown => None,
        }
    }
}

/// The static analyses of one position, each made at most once however many questions are asked of it (a dead
/// position check asks for both sides).
struct Statics<'a> {
    pos: &'a Position,
    lock: Option<Result<Lock, Open>>,
    /// The regions' fixpoint; [`Hopeless`] when it stopped early, having seen that it could prove nothing.
    regions: Option<Result<Option<Regions>, Hopeless>>,
}

impl<'a> Statics<'a> {
    fn new(pos: &'a Position) -> Statics<'a> {
        Statics { pos, lock: None, regions: None }
    }

    fn lock(&mut self) -> &Result<Lock, Open> {
        let pos = self.pos;
        self.lock.get_or_insert_with(|| Lock::of(pos))
    }

    /// Whether the regions' fixpoint proves that `color` can never checkmate (the fixpoint may stop early here).
    fn regions_no_mate(&mut self, color: Color) -> bool {
        let pos = self.pos;
        let r = self.regions.get_or_insert_with(|| Regions::fixpoint(pos, true));
        matches!(r, Ok(Some(r)) if r.no_mate(color))
    }

    /// The whole fixpoint (computed again if it had stopped early).
    fn regions(&mut self) -> Option<&Regions> {
        let pos = self.pos;
        if matches!(self.regions, None | Some(Err(Hopeless))) {
            self.regions = Some(Regions::fixpoint(pos, false));
        }
        self.regions.as_ref().and_then(|r| r.as_ref().ok()).and_then(Option::as_ref)
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
    /// Anything: explore up to the budget.
    Full,
}

enum Explored {
    Mate(Vec<Move>),
    NoMate,
    Unknown,
}

/// What the static rules say about `p`.
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
    let lock = Lock::of(p);
    if let Ok(l) = &lock
        && l.no_mate(color)
    {
        return Proof::NoMate;
    }
    if let Some(r) = Regions::of(p)
        && r.no_mate(color)
    {
        return Proof::NoMate;
    }
    match lock {
        Err(Open::FreePawn) => Proof::FreePawn,
        _ => Proof::NotProved,
    }
}

/// The move that led to a visited position, and where that move was played from (for the mating line).
struct Node {
    parent: u32,
    mv: Option<Move>,
}

fn line_to(nodes: &[Node], mut idx: u32) -> Vec<Move> {
    let mut line = Vec::new();
    while idx != u32::MAX {
        let n = &nodes[idx as usize];
        if let Some(m) = n.mv {
            line.push(m);
        }
        idx = n.parent;
    }
    line.reverse();
    line
}

/// Depth-first visit of every position reachable from `root` (whose own proofs the caller already tried); a mate
/// found comes with the line that led to it, legal but often long (depth first wanders). A child
/// reached by a reversible move (no capture, no pawn move, same castling rights, no en-passant square before) has the
/// same material, pawns and piece regions as its parent, so the proofs are retried only after the other kind of move
/// (skipping a proof only costs time: nothing is pruned without one).
fn explore(root: &Position, color: Color, budget: usize, mode: Mode) -> Explored {
    let (budget, width) = match mode {
        Mode::Closed | Mode::Full => (budget, usize::MAX),
        Mode::Narrow => (budget.min(NARROW_BUDGET), NARROW_WIDTH),
    };
    let mut seen = KeySet::default();
    seen.insert(PosKey::of(root));
    let mut nodes = vec![Node { parent: u32::MAX, mv: None }];
    let mut stack = vec![(root.clone(), 0u32, false)];
    let (mut visited, mut generated) = (0usize, 0usize);
    while let Some((p, idx, changed)) = stack.pop() {
        let moves = p.legal_moves();
        if moves.is_empty() {
            if p.turn() != color && p.is_check() {
                return Explored::Mate(line_to(&nodes, idx));
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
        generated += moves.len();
        if visited > budget || generated > budget * MAX_BRANCHING || moves.len() > width {
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
                nodes.push(Node { parent: idx, mv: Some(m) });
                stack.push((child, (nodes.len() - 1) as u32, changed));
            }
        }
    }
    Explored::NoMate
}
