// SPDX-License-Identifier: GPL-3.0-or-later
//! A static proof that a side can never checkmate, for any position without castling rights or en passant (not only
//! locked ones): an over-approximation of where every unit may ever stand, computed as a fixpoint, then a test of
//! every square the losing king may reach.
//!
//! **Units and squares.** Each unit on the board gets a *reach* (squares it may ever stand on) and an *attack set*
//! (squares it may ever attack). A square is *fixed* while we know that its present occupant stays on it for ever:
//! its reach is that square alone and no enemy unit may ever capture on it (kings are never captured). Fixed squares
//! are the only blockers we trust: sliding pieces are stopped by them and nothing moves onto them; any other unit may
//! be gone or out of the way, so we ignore it (which only makes the sets bigger). A fixed unit's attacks that cannot
//! be blocked (a pawn's, a knight's, a king's, a slider's on the squares next to it) last for ever.
//!
//! **Moves.** Knights, bishops, rooks and queens flood their move graph around fixed squares. Kings do the same but
//! never step onto a square a fixed enemy unit attacks, and never capture a unit one protects; a king in check from a
//! fixed unit leaves by one of its present legal moves and never comes back. Pawns push onto squares that are not
//! fixed (two steps from their first rank) and capture diagonally onto a square only if some enemy non-king unit may
//! stand there. A pawn that may reach its last rank may become anything: its reach and attacks are then the whole
//! board. Two refinements:
//!
//! - *Pawns that never pass each other*: when a pawn and the nearest enemy pawn ahead on its file can both never
//!   leave that file and the enemy one can never be captured, the pawn never reaches the enemy pawn's square or beyond.
//! - *Terminal squares*: when no enemy unit but the king may ever move and the enemy king may only stand on two
//!   squares, a king arriving next to either leaves the enemy without a legal move (mate or stalemate): the king's
//!   reach includes such squares but it goes no further, and a capture there frees nothing.
//!
//! **Fixpoint.** Each round recomputes all sets from the facts the previous round's sets give; the analysis stops at
//! the first round that changes nothing (or gives up after [`MAX_ROUNDS`]). At such an exact fixpoint every rule used
//! is a true statement about every position consistent with the sets, so by induction over any series of legal moves
//! from the position every unit stays in its reach, attacks only squares of its attack set, and fixed squares keep
//! their occupants (terminal squares end the series).
//!
//! **No mate.** A checkmate of L's king by C needs a square `k` in L's king's reach that no fixed C unit attacks (L's
//! king could not stand there), that some C non-king unit may attack (kings give no check). A neighbour of `k` outside
//! the king's reach is never a flight square; every other neighbour that no C non-king unit may attack must, at the
//! same time, be attacked by C's king (on a square of its reach at least two steps from `k`) or held by an L unit —
//! one unit a square, which we check as a small matching. If no square passes, C can never checkmate.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// One unit of the position.
#[derive(Copy, Clone, Debug)]
struct Unit {
    color: Color,
    role: Role,
    from: Square,
    reach: Bitboard,
    attacks: Bitboard,
    /// A pawn that may promote: its reach and attacks are the whole board.
    promoted: bool,
}

/// The over-approximated future of a position (see the module text).
#[derive(Clone, Debug)]
pub(crate) struct Regions {
    units: Vec<Unit>,
    /// Squares whose present occupant never leaves.
    fixed: Bitboard,
}

fn rank_of(sq: Square) -> usize {
    sq.index() / 8
}

impl Regions {
    /// The fixpoint, or `None` when castling rights remain or an en-passant square is set (the model has neither).
    pub(crate) fn of(pos: &Position) -> Option<Regions> {
        Regions::fixpoint(pos, false).unwrap_or(None)
    }

    /// The fixpoint of the module text; with `stop_when_hopeless`, [`Hopeless`] as soon as a round shows that neither
    /// side's proof can succeed.
    pub(crate) fn fixpoint(pos: &Position, stop_when_hopeless: bool) -> Result<Option<Regions>, Hopeless> {
        if pos.castling_rooks().any() || pos.ep_square().is_some() {
            return Ok(None);
        }
        let mut units: Vec<Unit> = pos
            .occupied()
            .into_iter()
            .map(|sq| Unit {
                color: pos.color_at(sq).unwrap_or(Color::White),
                role: pos.role_at(sq).unwrap_or(Role::Pawn),
                from: sq,
                reach: Bitboard::from_square(sq),
                attacks: Bitboard::EMPTY,
                promoted: false,
            })
            .collect();
        let mut fixed = pos.occupied();
        // The legal king moves of the side to move, when in check.
        let exits = pos.is_check().then(|| {
            let k = pos.king(pos.turn());
            (pos.turn(), pos.legal_moves().iter().filter(|m| m.from() == k).map(|m| m.to()).collect::<Bitboard>())
        });
        // Each round recomputes every unit's sets from scratch under the facts the previous round's sets give, until
        // a round changes nothing (an exact fixpoint, which is what the soundness argument needs); a position that
        // does not settle within the rounds gets no proof.
        for _ in 0..MAX_ROUNDS {
            let fa = fixed_attacks(&units, fixed);
            let terminal = [terminal_squares(&units, Color::White), terminal_squares(&units, Color::Black)];
            // Squares each colour's non-king units may ever stand on (targets of pawn captures).
            let mut stand = [Bitboard::EMPTY; 2];
            for u in &units {
                if u.role != Role::King {
                    stand[u.color.index()] |= u.reach;
                }
            }
            let capture = capture_sets(&units, &fa, &terminal);
            let barriers: Vec<Bitboard> = units.iter().map(|u| barrier(u, &units, &capture)).collect();
            let mut own = [Bitboard::EMPTY; 2];
            for u in &units {
                own[u.color.index()] |= u.from;
            }
            let mut next = units.clone();
            for (u, bar) in next.iter_mut().zip(barriers) {
                u.reach = Bitboard::from_square(u.from);
                u.attacks = Bitboard::EMPTY;
                u.promoted = false;
                let limits = Limits {
                    fixed,
                    own_fixed: fixed & own[u.color.index()],
                    enemy_fixed_attacks: fa[(!u.color).index()],
                    enemy_stand: stand[(!u.color).index()],
                    barrier: bar,
                    terminal: terminal[u.color.index()],
                    exits,
                };
                grow(u, &limits);
            }
            if stop_when_hopeless && hopeless(&next) {
                return Err(Hopeless);
            }
            let fa_next = fixed_attacks(&next, fixed);
            let terminal_next = [terminal_squares(&next, Color::White), terminal_squares(&next, Color::Black)];
            let capture = capture_sets(&next, &fa_next, &terminal_next);
            let mut new_fixed = Bitboard::EMPTY;
            for u in &next {
                if u.reach == Bitboard::from_square(u.from)
                    && (u.role == Role::King || !capture[(!u.color).index()].contains(u.from))
                {
                    new_fixed |= u.from;
                }
            }
            let same = new_fixed == fixed
                && next
                    .iter()
                    .zip(&units)
                    .all(|(a, b)| (a.reach, a.attacks, a.promoted) == (b.reach, b.attacks, b.promoted));
            units = next;
            fixed = new_fixed;
            if same {
                return Ok(Some(Regions { units, fixed }));
            }
        }
        Ok(None)
    }

    fn fixed_attacks(&self, c: Color) -> Bitboard {
        fixed_attacks(&self.units, self.fixed)[c.index()]
    }

    /// A rough upper bound on the number of positions reachable from here: the product of the units' reach sizes,
    /// times two for the side to move (infinite once a pawn may promote).
    pub(crate) fn states(&self) -> f64 {
        let mut n = 2.0f64;
        for u in &self.units {
            if u.promoted {
                return f64::INFINITY;
            }
            n *= f64::from(u.reach.count());
        }
        n
    }

    fn king(&self, c: Color) -> Option<&Unit> {
        self.units.iter().find(|u| u.color == c && u.role == Role::King)
    }

    /// Whether `color` provably can never checkmate (see the module text).
    pub(crate) fn no_mate(&self, color: Color) -> bool {
        let (c, l) = (color, !color);
        let Some(lking) = self.king(l) else { return false };
        let Some(cking) = self.king(c) else { return false };
        let mut checks = Bitboard::EMPTY;
        for u in &self.units {
            if u.color == c && u.role != Role::King {
                checks |= u.attacks;
            }
        }
        let candidates = lking.reach & !self.fixed_attacks(c) & checks;
        let blockers: Vec<Bitboard> =
            self.units.iter().filter(|u| u.color == l && u.role != Role::King).map(|u| u.reach).collect();
        for k in candidates {
            // A neighbour outside the king's reach is never a flight square (a legal king move would put it there).
            let around = attacks::king_attacks(k) & lking.reach;
            let needed = around & !checks;
            if mate_square_possible(k, needed, cking.reach, &blockers) {
                return false;
            }
        }
        true
    }
}

/// A round of the fixpoint after which neither side's "no mate" can be proved: each side's units other than the king
/// may between them attack every square.
///
/// Why that settles it: the units' sets only grow from round to round (the module text), so at the fixpoint too each
/// side C may check on every square. Then [`Regions::no_mate`] finds a candidate square for a mate of the other
/// side's king L: its own square, unless a fixed C unit attacks it — which is a check no move can block (a fixed
/// unit's lasting attacks are those next to it, or a knight's or a pawn's) by a unit that is never captured, so L's
/// king must step away, and every square of a legal king move is in its reach and attacked by no C unit. (L's king
/// with no legal move there is checkmated, which the callers decide before asking.) At a candidate, with every
/// neighbour attackable, no neighbour needs covering, so the mate is possible as far as the squares go.
#[derive(Debug)]
pub(crate) struct Hopeless;

fn hopeless(units: &[Unit]) -> bool {
    let mut checks = [Bitboard::EMPTY; 2];
    for u in units {
        if u.role != Role::King {
            checks[u.color.index()] |= u.attacks;
        }
    }
    checks == [Bitboard::FULL; 2]
}

/// Whether a mate on `k` is possible as far as the squares go: the neighbours in `needed` (which no C unit but the king
/// may attack) must each be attacked by C's king, standing on a square of `cking_reach` at least two steps from `k`
/// (kings never touch), or held by an L unit of its own (`blockers`: each one's reach).
fn mate_square_possible(k: Square, needed: Bitboard, cking_reach: Bitboard, blockers: &[Bitboard]) -> bool {
    let fits = |rest: Bitboard| {
        let squares: Vec<Square> = rest.into_iter().collect();
        squares.len() <= blockers.len() && assignable(&squares, blockers, 0)
    };
    if fits(needed) {
        return true;
    }
    let near = needed.into_iter().fold(Bitboard::EMPTY, |b, s| b | attacks::king_attacks(s));
    let spots = cking_reach & near & !attacks::king_attacks(k) & !Bitboard::from_square(k);
    for s in spots {
        if fits(needed & !attacks::king_attacks(s)) {
            return true;
        }
    }
    false
}

/// Whether every square of `squares` can get its own unit among `units` (each unit a bitboard of squares it may stand
/// on), by backtracking over `used` units.
fn assignable(squares: &[Square], units: &[Bitboard], used: u64) -> bool {
    let Some((&s, rest)) = squares.split_first() else { return true };
    for (i, r) in units.iter().enumerate() {
        if i < 64 && used & (1 << i) == 0 && r.contains(s) && assignable(rest, units, used | (1 << i)) {
            return true;
        }
    }
    false
}

/// Rounds of [`Regions::of`] before it gives up.
const MAX_ROUNDS: usize = 40;

/// What a unit's moves must respect in one round (see [`grow`]).
struct Limits {
    fixed: Bitboard,
    /// Fixed squares held by the unit's own side.
    own_fixed: Bitboard,
    enemy_fixed_attacks: Bitboard,
    enemy_stand: Bitboard,
    barrier: Bitboard,
    terminal: Bitboard,
    exits: Option<(Color, Bitboard)>,
}

/// Squares each colour's units may capture on: every attacked square, except that a king never captures a unit a
/// fixed enemy unit protects, and a king's capture on one of its terminal squares ends the game (so it frees nothing).
fn capture_sets(units: &[Unit], fa: &[Bitboard; 2], terminal: &[Bitboard; 2]) -> [Bitboard; 2] {
    let mut capture = [Bitboard::EMPTY; 2];
    for u in units {
        let i = u.color.index();
        let a = if u.role == Role::King { u.attacks & !fa[(!u.color).index()] & !terminal[i] } else { u.attacks };
        capture[i] |= a;
    }
    capture
}

/// The squares where `color`'s king ends the game by arriving: when no enemy unit but the king may ever move and the
/// enemy king may only ever stand on two squares, a king arriving next to either of them leaves the enemy no legal
/// move (its king cannot step next to ours, nothing else moves): mate or stalemate, nothing after. Empty otherwise.
fn terminal_squares(units: &[Unit], color: Color) -> Bitboard {
    let mut enemy_king = Bitboard::EMPTY;
    for u in units {
        if u.color == color {
            continue;
        }
        if u.role == Role::King {
            enemy_king = u.reach;
        } else if u.promoted || u.reach != Bitboard::from_square(u.from) {
            return Bitboard::EMPTY;
        }
    }
    if enemy_king.count() != 2 {
        return Bitboard::EMPTY;
    }
    enemy_king.into_iter().fold(Bitboard::EMPTY, |b, s| b | attacks::king_attacks(s))
}

/// The squares each colour's fixed units attack for as long as the game lasts: a fixed unit never leaves its square
/// and is never captured, and its attacks on the squares next to it (or a knight's or a pawn's) cannot be blocked.
fn fixed_attacks(units: &[Unit], fixed: Bitboard) -> [Bitboard; 2] {
    let mut out = [Bitboard::EMPTY; 2];
    for u in units {
        if !fixed.contains(u.from) || u.promoted {
            continue;
        }
        let a = match u.role {
            Role::Pawn => attacks::pawn_attacks(u.color, u.from),
            Role::Knight => attacks::knight_attacks(u.from),
            Role::King => attacks::king_attacks(u.from),
            Role::Bishop => attacks::bishop_attacks(u.from, Bitboard::FULL),
            Role::Rook => attacks::rook_attacks(u.from, Bitboard::FULL),
            Role::Queen => attacks::queen_attacks(u.from, Bitboard::FULL),
        };
        out[u.color.index()] |= a;
    }
    out
}

/// The squares a pawn can never push onto because an enemy pawn stands in the way for ever: when the pawn `u` has
/// never left its file, the nearest enemy pawn ahead on that file has never left it either and may never be captured,
/// the two can never pass each other, so `u` never reaches that enemy pawn's starting square or beyond. Empty for
/// other units, or when the conditions fail (they only fail more as the sets grow, so the fixpoint stays monotone).
fn barrier(u: &Unit, units: &[Unit], capture: &[Bitboard; 2]) -> Bitboard {
    if u.role != Role::Pawn || u.promoted {
        return Bitboard::EMPTY;
    }
    let file = Bitboard::from_file(u.from.file());
    if (u.reach & !file).any() {
        return Bitboard::EMPTY;
    }
    let ahead = |sq: Square| u.color.fold(sq.index() > u.from.index(), sq.index() < u.from.index());
    let nearest = units
        .iter()
        .filter(|q| q.role == Role::Pawn && q.color != u.color && file.contains(q.from) && ahead(q.from))
        .min_by_key(|q| (q.from.index() as i32 - u.from.index() as i32).abs());
    let Some(q) = nearest else { return Bitboard::EMPTY };
    if q.promoted || (q.reach & !file).any() || (q.reach & capture[u.color.index()]).any() {
        return Bitboard::EMPTY;
    }
    file & Bitboard(if u.color == Color::White { !0u64 << q.from.index() } else { !0u64 >> (63 - q.from.index()) })
}

/// A unit's reach and attacks for one round: a flood of its moves from its square under `limits` (see the module
/// text).
fn grow(u: &mut Unit, limits: &Limits) {
    let fixed = limits.fixed;
    let mut reach = u.reach;
    let mut attacked = u.attacks;
    let mut frontier = reach;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for s in frontier {
            let (moves, att) = match u.role {
                Role::Pawn => pawn_moves(u.color, s, fixed | limits.barrier, limits.enemy_stand),
                Role::King => {
                    let a = attacks::king_attacks(s);
                    match limits.exits {
                        // In check from a fixed unit: the king leaves now, by one of its legal moves, for good.
                        Some((c, e)) if c == u.color && s == u.from && limits.enemy_fixed_attacks.contains(s) => (e, a),
                        // Arriving on a terminal square ends the game: nothing moves on from there.
                        _ if s != u.from && limits.terminal.contains(s) => (Bitboard::EMPTY, a),
                        _ => (a & !limits.enemy_fixed_attacks, a),
                    }
                }
                Role::Knight => (attacks::knight_attacks(s), attacks::knight_attacks(s)),
                Role::Bishop => (attacks::bishop_attacks(s, fixed), attacks::bishop_attacks(s, fixed)),
                Role::Rook => (attacks::rook_attacks(s, fixed), attacks::rook_attacks(s, fixed)),
                Role::Queen => (attacks::queen_attacks(s, fixed), attacks::queen_attacks(s, fixed)),
            };
            attacked |= att;
            // A king may arrive on a terminal square even where a unit stays for ever (it captures it as the game
            // ends).
            let open = if u.role == Role::King { !fixed | (limits.terminal & !limits.own_fixed) } else { !fixed };
            next |= moves & open;
        }
        next &= !reach;
        reach |= next;
        frontier = next;
    }
    if u.role == Role::Pawn && (reach & Bitboard::BACK_RANKS).any() {
        u.promoted = true;
        u.reach = Bitboard::FULL;
        u.attacks = Bitboard::FULL;
        return;
    }
    u.reach = reach;
    u.attacks = attacked;
}

/// A pawn's possible moves from `s` (pushes onto non-fixed squares, captures onto squares an enemy unit may hold) and
/// the squares it attacks there.
fn pawn_moves(color: Color, s: Square, fixed: Bitboard, enemy_stand: Bitboard) -> (Bitboard, Bitboard) {
    let att = attacks::pawn_attacks(color, s);
    let step = color.fold(8, -8);
    let mut moves = att & enemy_stand;
    if let Some(one) = s.offset(step)
        && !fixed.contains(one)
    {
        moves |= one;
        let start = color.fold(1, 6);
        if rank_of(s) == start
            && let Some(two) = one.offset(step)
        {
            moves |= two;
        }
    }
    (moves, att)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CastlingMode, Validation};

    /// The answers of the fixpoint that may stop early and of the whole one.
    fn both_ways(p: &Position) -> ([bool; 2], [bool; 2]) {
        let answers =
            |r: Option<Regions>| r.map_or([false, false], |r| [r.no_mate(Color::White), r.no_mate(Color::Black)]);
        (answers(Regions::fixpoint(p, true).unwrap_or(None)), answers(Regions::of(p)))
    }

    /// Stopping as soon as neither side can be proved changes no answer: on fortresses that are proved, on every
    /// position of seeded random games (where pawns lock now and then and pieces come off), and on the final
    /// positions of the shared data's real games when they are present.
    #[test]
    fn stopping_early_gives_the_fixpoints_answers() {
        let mut positions = Vec::new();
        for fen in [
            "8/8/4k3/1p1p1p1p/1P1P1P1P/8/4K3/8 w - - 0 1",
            "2b1k3/8/8/1p1p1p1p/1P1P1P1P/8/8/2B1K3 w - - 0 1",
            "1k6/p1p1p1p1/P1P1P1P1/p1p1p1p1/8/8/P1P1P1P1/4K3 w - - 0 1",
            "k7/1b6/8/8/8/1pB5/pP6/K7 w - - 0 1",
            "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
            "4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/R3K3 b - - 0 1",
            "8/2k5/8/1p1p1p1p/1P1P1P1P/8/3QK3/8 w - - 0 1",
        ] {
            positions.push(Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed).expect(fen));
        }
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = |n: usize| {
            seed ^= seed >> 12;
            seed ^= seed << 25;
            seed ^= seed >> 27;
            (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
        };
        for game in 0..120 {
            let mut p = Position::default();
            for _ in 0..240 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Half the games push pawns when they can, so that pawn chains lock.
                let pushes: Vec<_> =
                    moves.iter().copied().filter(|m| p.role_at(m.from()) == Some(Role::Pawn)).collect();
                let m = if game % 2 == 0 && !pushes.is_empty() && next(3) > 0 {
                    pushes[next(pushes.len())]
                } else {
                    moves.as_slice()[next(moves.len())]
                };
                p = p.play(m).expect("a legal move");
                positions.push(p.clone());
            }
        }
        let data = std::env::var_os("GUOXIANG_DATA")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data")));
        match std::fs::read_to_string(data.join("positions/lichess_game_endings.tsv")) {
            Ok(text) => {
                let mut lines = text.lines();
                let header: Vec<&str> = lines.next().unwrap_or_default().split('\t').collect();
                let col = header.iter().position(|h| *h == "final_fen").expect("final_fen column");
                for line in lines.filter(|l| !l.is_empty()) {
                    let fen = line.split('\t').nth(col).expect("final_fen");
                    positions.push(Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed).expect(fen));
                }
            }
            Err(e) => eprintln!("SKIP the real games' final positions: {}: {e}", data.display()),
        }
        let mut proved = 0;
        for p in &positions {
            let (early, full) = both_ways(p);
            assert_eq!(early, full, "{}", p.fen());
            proved += full.iter().filter(|&&b| b).count();
        }
        eprintln!("{} positions, {proved} proofs", positions.len());
        assert!(proved >= 14, "too few proofs to mean anything: {proved}");
    }
}
