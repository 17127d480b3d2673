//! A static proof that a side can never checkmate behind locked pawns (the classic "blocked pawn chain" dead
//! positions), by over-approximating everything that can ever happen.
//!
//! **Pawns.** On its file every pawn walks forward until the first enemy pawn ahead (it can never pass one without
//! capturing). If some pawn has no enemy pawn ahead it might promote: no proof. Otherwise its *trajectory* (the
//! squares from where it stands up to that enemy pawn) holds every square it may ever stand on, as long as no pawn
//! captures and no pawn is captured. A pawn whose trajectory is its own square is *frozen*: the enemy pawn in front of
//! it is frozen too, so both stay where they are for ever — they are the walls.
//!
//! **Pieces.** For every other piece we flood the squares it could ever reach with only the walls in the way (other
//! pieces may block or be captured: ignoring them only makes the set bigger). Kings never step onto a square a frozen
//! enemy pawn attacks. Each move graph is symmetric, so the set is the same from any square the piece reaches.
//!
//! **Stability.** If no pawn can ever capture (no enemy pawn or piece can ever stand on a square it may attack), no
//! piece can ever capture a pawn (no enemy pawn trajectory is attacked from the piece's squares; for kings, unless the
//! pawn is protected by a frozen pawn), no en-passant capture is available and nobody may castle, then in every
//! position reachable from here the pawns keep to their trajectories and every piece to its set. (Proof by induction
//! over moves: the walls never move, so no move leaves these sets; the only captures left are of pieces by pieces.)
//!
//! **No mate.** In such a world a checkmate of side *L* by side *C* needs a square `k` for L's king that (1) lies in
//! its set and is not attacked by a frozen C pawn (L's king had just made a legal move, or stood there at the start
//! with C to move), (2) can be attacked by a C piece or by a mobile C pawn (kings give no check, frozen pawns give no
//! new check), and (3) has every neighbouring square either occupiable by an L pawn or piece, or attackable by some
//! C unit. If no square passes all three, C can never checkmate.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::position::Position;
use crate::types::{Color, Role, Square};

/// Why [`Lock::of`] did not apply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Open {
    NoPawns,
    Castling,
    /// A pawn has no enemy pawn ahead on its file.
    FreePawn,
}

/// The over-approximated future of a position whose pawns all face an enemy pawn on their file.
#[derive(Clone, Debug)]
pub(crate) struct Lock {
    /// Squares each colour's pawns may ever stand on.
    pawn_squares: [Bitboard; 2],
    /// Squares attacked by each colour's frozen pawns: permanently attacked.
    frozen_pawn_attacks: [Bitboard; 2],
    /// Squares each colour's mobile pawns may ever attack.
    mobile_pawn_attacks: [Bitboard; 2],
    /// Squares each colour's non-king pieces may ever stand on.
    piece_squares: [Bitboard; 2],
    /// Squares each colour's non-king pieces may ever attack.
    piece_attacks: [Bitboard; 2],
    /// Squares each king may ever stand on.
    king_squares: [Bitboard; 2],
    /// Whether the pawn structure provably never changes (see the module text). `no_mate` needs it.
    pub(crate) stable: bool,
    /// A rough upper bound on the number of reachable positions before the structure changes (product of the
    /// pieces' set sizes and the pawns' trajectory lengths, times two for the side to move).
    pub(crate) states: f64,
}

/// Squares from `sq` forward (for `color`) up to, not including, the first enemy pawn; `None` when no enemy pawn
/// stands ahead on the file.
fn trajectory(pos: &Position, color: Color, sq: Square) -> Option<Bitboard> {
    let enemy_pawns = pos.pieces(!color, Role::Pawn);
    let step = color.fold(8, -8);
    let mut t = Bitboard::from_square(sq);
    let mut s = sq;
    loop {
        s = s.offset(step)?;
        if enemy_pawns.contains(s) {
            return Some(t);
        }
        t |= s;
    }
}

/// Squares a piece of `role` starting on `from` can ever occupy (moving only through `passable`, sliding with
/// `walls` as blockers), and every square it can ever attack from them.
fn flood(role: Role, from: Square, walls: Bitboard, passable: Bitboard) -> (Bitboard, Bitboard) {
    let mut reach = Bitboard::from_square(from);
    let mut frontier = reach;
    let mut attacked = Bitboard::EMPTY;
    while frontier.any() {
        let mut next = Bitboard::EMPTY;
        for s in frontier {
            next |= match role {
                Role::King => attacks::king_attacks(s),
                Role::Knight => attacks::knight_attacks(s),
                Role::Bishop => attacks::bishop_attacks(s, walls),
                Role::Rook => attacks::rook_attacks(s, walls),
                Role::Queen | Role::Pawn => attacks::queen_attacks(s, walls),
            };
        }
        attacked |= next;
        next &= passable & !reach;
        reach |= next;
        frontier = next;
    }
    (reach, attacked)
}

impl Lock {
    /// Builds the over-approximation, unless there are no pawns at all, castling rights remain, or some pawn might
    /// promote (no enemy pawn ahead on its file).
    pub(crate) fn of(pos: &Position) -> Result<Lock, Open> {
        if pos.by_role(Role::Pawn).is_empty() {
            return Err(Open::NoPawns);
        }
        if pos.castling_rooks().any() {
            return Err(Open::Castling);
        }
        let mut walls = Bitboard::EMPTY;
        let mut pawn_squares = [Bitboard::EMPTY; 2];
        let mut frozen_pawn_attacks = [Bitboard::EMPTY; 2];
        let mut mobile_pawn_attacks = [Bitboard::EMPTY; 2];
        let mut states = 2.0f64;
        for c in Color::ALL {
            for sq in pos.pieces(c, Role::Pawn) {
                let t = trajectory(pos, c, sq).ok_or(Open::FreePawn)?;
                pawn_squares[c.index()] |= t;
                states *= f64::from(t.count());
                if t.more_than_one() {
                    for s in t {
                        mobile_pawn_attacks[c.index()] |= attacks::pawn_attacks(c, s);
                    }
                } else {
                    walls |= sq;
                    frozen_pawn_attacks[c.index()] |= attacks::pawn_attacks(c, sq);
                }
            }
        }
        let pawn_attacks =
            [frozen_pawn_attacks[0] | mobile_pawn_attacks[0], frozen_pawn_attacks[1] | mobile_pawn_attacks[1]];

        let mut piece_squares = [Bitboard::EMPTY; 2];
        let mut piece_attacks = [Bitboard::EMPTY; 2];
        let mut king_squares = [Bitboard::EMPTY; 2];
        let mut king_attacks = [Bitboard::EMPTY; 2];
        let pawns = pos.by_role(Role::Pawn);
        for c in Color::ALL {
            let i = c.index();
            let (r, a) = flood(Role::King, pos.king(c), walls, !walls & !frozen_pawn_attacks[(!c).index()]);
            king_squares[i] = r;
            king_attacks[i] = a;
            states *= f64::from(r.count());
            for sq in pos.by_color(c) & !pawns & !pos.by_role(Role::King) {
                let role = pos.role_at(sq).unwrap_or(Role::Queen);
                let (r, a) = flood(role, sq, walls, !walls);
                piece_squares[i] |= r;
                piece_attacks[i] |= a;
                states *= f64::from(r.count());
            }
        }

        let mut stable = pos.ep_square().is_none();
        for c in Color::ALL {
            let (i, o) = (c.index(), (!c).index());
            // A pawn of c could capture an enemy pawn or piece.
            stable &= (pawn_attacks[i] & (pawn_squares[o] | piece_squares[o])).is_empty();
            // A piece of c could capture an enemy pawn.
            stable &= (piece_attacks[i] & pawn_squares[o]).is_empty();
            // c's king could capture an enemy pawn not protected by a frozen pawn.
            stable &= (king_attacks[i] & pawn_squares[o] & !frozen_pawn_attacks[o]).is_empty();
        }

        Ok(Lock {
            pawn_squares,
            frozen_pawn_attacks,
            mobile_pawn_attacks,
            piece_squares,
            piece_attacks,
            king_squares,
            stable,
            states,
        })
    }

    /// Whether `color` provably can never checkmate (only meaningful, and only ever true, when `stable`).
    pub(crate) fn no_mate(&self, color: Color) -> bool {
        if !self.stable {
            return false;
        }
        let (c, l) = (color.index(), (!color).index());
        let king_cover = self.king_squares[c].into_iter().fold(Bitboard::EMPTY, |b, s| b | attacks::king_attacks(s));
        let cover = self.frozen_pawn_attacks[c] | self.mobile_pawn_attacks[c] | self.piece_attacks[c] | king_cover;
        let shelter = self.pawn_squares[l] | self.piece_squares[l];
        let checks = self.piece_attacks[c] | self.mobile_pawn_attacks[c];
        let candidates = self.king_squares[l] & !self.frozen_pawn_attacks[c] & checks;
        candidates.into_iter().all(|k| (attacks::king_attacks(k) & !(cover | shelter)).any())
    }
}
