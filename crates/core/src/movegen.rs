//! Legal move generation. Moves are produced per piece as a set of target squares ([`PieceMoves`]), which lets
//! perft count leaves by popcount ("bulk counting") and lets the engine restrict targets (captures only, …).
//!
//! Legality is decided while generating, not afterwards: checkers and pins are computed once, king moves avoid
//! every attacked square, castling checks all of the conditions of Article 3.8.2, and en passant is tried on the
//! board (it may expose the king along the rank).

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mv::{Move, MoveList};
use crate::position::Position;
use crate::types::{Color, Rank, Role, Square};

/// What kind of moves a [`PieceMoves`] stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum MovesKind {
    /// One ordinary move to each target square.
    Normal,
    /// A pawn reaching the last rank: four moves (=Q, =R, =B, =N) per target square.
    Promotion,
    /// A single en-passant capture; the target is the square the pawn moves to.
    EnPassant,
    /// A single castling move; the target is the castling rook's square.
    Castle,
    /// Pawn moves of several pawns at once: each target `to` comes from `to - delta` (`from` is meaningless).
    PawnSet(i8),
    /// Like `PawnSet`, reaching the last rank: four promotions per target.
    PawnPromotionSet(i8),
}

/// Legal moves of one kind: of one piece (`from`), or for the pawn sets, of several pawns (see [`MovesKind`]).
#[derive(Copy, Clone, Debug)]
pub struct PieceMoves {
    pub from: Square,
    pub role: Role,
    pub targets: Bitboard,
    pub kind: MovesKind,
}

impl PieceMoves {
    /// How many moves this stands for.
    #[inline]
    pub fn len(&self) -> usize {
        match self.kind {
            MovesKind::Promotion | MovesKind::PawnPromotionSet(_) => self.targets.count() as usize * 4,
            _ => self.targets.count() as usize,
        }
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.targets.is_empty()
    }

    /// Expands into single moves. The kind is matched once, outside the loop over targets.
    #[inline]
    pub fn for_each(&self, mut f: impl FnMut(Move)) {
        let from = self.from;
        match self.kind {
            MovesKind::Normal => self.targets.for_each(|to| f(Move::normal(from, to))),
            MovesKind::PawnSet(d) => {
                self.targets.for_each(|to| f(Move::normal(Square::new((to.index() as i32 - d as i32) as u32), to)))
            }
            MovesKind::Promotion => self.targets.for_each(|to| {
                for r in Role::PROMOTIONS {
                    f(Move::promotion(from, to, r));
                }
            }),
            MovesKind::PawnPromotionSet(d) => self.targets.for_each(|to| {
                let from = Square::new((to.index() as i32 - d as i32) as u32);
                for r in Role::PROMOTIONS {
                    f(Move::promotion(from, to, r));
                }
            }),
            MovesKind::EnPassant => self.targets.for_each(|to| f(Move::en_passant(from, to))),
            MovesKind::Castle => self.targets.for_each(|to| f(Move::castle(from, to))),
        }
    }
}

impl Position {
    /// Generates the legal moves whose destination lies in `target` (for castling: always included when
    /// `castles` is true; for en passant: included when the captured pawn's square lies in `target` or the
    /// destination does). Calls `f` once per piece with a non-empty set.
    #[inline]
    pub fn generate(&self, target: Bitboard, castles: bool, f: impl FnMut(PieceMoves)) {
        self.generate_from(Bitboard::FULL, target, castles, f)
    }

    /// Like [`Position::generate`], for the pieces on `from` only (e.g. the knights that could reach a square named
    /// in SAN): everything else is skipped, not generated and filtered.
    #[inline]
    pub fn generate_from(&self, from: Bitboard, target: Bitboard, castles: bool, mut f: impl FnMut(PieceMoves)) {
        let us = self.turn;
        let them = !us;
        let ours = self.by_color[us.index()];
        let theirs = self.by_color[them.index()];
        let occ = self.occupied;
        let king = self.king(us);
        let checkers = self.attackers_to(king, them, occ);

        // King moves: never onto a square the enemy attacks once the king has left its square.
        let king_targets = attacks::king_attacks(king) & !ours & target;
        if king_targets.any() && from.contains(king) {
            let occ_wo_king = occ ^ king;
            let safe = if king_targets.count() >= 3 {
                // Several squares to test: one map of everything the enemy attacks is cheaper.
                king_targets & !self.attacked_by(them, occ_wo_king)
            } else {
                let mut safe = Bitboard::EMPTY;
                for to in king_targets {
                    if self.attackers_to(to, them, occ_wo_king).is_empty() {
                        safe |= to;
                    }
                }
                safe
            };
            if safe.any() {
                f(PieceMoves { from: king, role: Role::King, targets: safe, kind: MovesKind::Normal });
            }
        }

        if checkers.more_than_one() {
            return; // double check: only the king may move
        }
        let check_mask = match checkers.first() {
            Some(c) => attacks::between(king, c) | c,
            None => Bitboard::FULL,
        };
        let mask = target & check_mask & !ours;
        let pinned = self.pinned(us);

        // Knights: a pinned knight can never move.
        for from in self.pieces(us, Role::Knight) & !pinned & from {
            let t = attacks::knight_attacks(from) & mask;
            if t.any() {
                f(PieceMoves { from, role: Role::Knight, targets: t, kind: MovesKind::Normal });
            }
        }
        let bq = (self.pieces(us, Role::Bishop) | self.pieces(us, Role::Queen)) & from;
        for from in bq {
            let mut t = attacks::bishop_attacks(from, occ) & mask;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            if t.any() {
                let role = if self.by_role[Role::Queen.index()].contains(from) { Role::Queen } else { Role::Bishop };
                f(PieceMoves { from, role, targets: t, kind: MovesKind::Normal });
            }
        }
        let rq = (self.pieces(us, Role::Rook) | self.pieces(us, Role::Queen)) & from;
        for from in rq {
            let mut t = attacks::rook_attacks(from, occ) & mask;
            if pinned.contains(from) {
                t &= attacks::line(king, from);
            }
            if t.any() {
                let role = if self.by_role[Role::Queen.index()].contains(from) { Role::Queen } else { Role::Rook };
                f(PieceMoves { from, role, targets: t, kind: MovesKind::Normal });
            }
        }

        // Pawns. Unpinned pawns move set-wise, one set per direction; pinned pawns one by one along their line.
        let pawns = self.pieces(us, Role::Pawn) & from;
        let promo_rank = Bitboard::from_rank(us.promotion_rank());
        let third_rank = Bitboard::from_rank(Rank::Third.relative(us));
        let empty = !occ;
        let free = pawns & !pinned;
        let not_a = !Bitboard::from_file(crate::File::A);
        let not_h = !Bitboard::from_file(crate::File::H);
        let (single, double, west, east, d_single, d_west, d_east) = match us {
            Color::White => {
                let single = free.north() & empty;
                let double = (single & third_rank).north() & empty;
                (single, double, Bitboard((free & not_a).0 << 7), Bitboard((free & not_h).0 << 9), 8, 7, 9)
            }
            Color::Black => {
                let single = free.south() & empty;
                let double = (single & third_rank).south() & empty;
                (single, double, Bitboard((free & not_a).0 >> 9), Bitboard((free & not_h).0 >> 7), -8, -9, -7)
            }
        };
        let sets = [
            (single & mask, d_single),
            (double & mask, 2 * d_single),
            (west & theirs & mask, d_west),
            (east & theirs & mask, d_east),
        ];
        for (set, delta) in sets {
            let quiet = set & !promo_rank;
            if quiet.any() {
                f(PieceMoves { from: king, role: Role::Pawn, targets: quiet, kind: MovesKind::PawnSet(delta) });
            }
            let promos = set & promo_rank;
            if promos.any() {
                f(PieceMoves {
                    from: king,
                    role: Role::Pawn,
                    targets: promos,
                    kind: MovesKind::PawnPromotionSet(delta),
                });
            }
        }
        for from in pawns & pinned {
            let one = match us {
                Color::White => Bitboard::from_square(from).north(),
                Color::Black => Bitboard::from_square(from).south(),
            } & empty;
            let two = match us {
                Color::White => (one & third_rank).north(),
                Color::Black => (one & third_rank).south(),
            } & empty;
            let t = ((one | two) | (attacks::pawn_attacks(us, from) & theirs)) & mask & attacks::line(king, from);
            if t.any() {
                let kind = if (t & promo_rank).any() { MovesKind::Promotion } else { MovesKind::Normal };
                f(PieceMoves { from, role: Role::Pawn, targets: t, kind });
            }
        }

        if let Some(ep) = self.ep_square {
            let victim = Square::new(if us == Color::White { ep.index() - 8 } else { ep.index() + 8 } as u32);
            // In check, en passant helps only if it captures the checker (or blocks, which it cannot as the
            // checker is then a slider and ep lands between): the general test below handles both.
            if target.contains(ep) || target.contains(victim) {
                for from in attacks::pawn_attacks(them, ep) & pawns {
                    let occ2 = (occ ^ from ^ victim) | ep;
                    if (self.attackers_to(king, them, occ2) & !Bitboard::from_square(victim)).is_empty() {
                        f(PieceMoves {
                            from,
                            role: Role::Pawn,
                            targets: Bitboard::from_square(ep),
                            kind: MovesKind::EnPassant,
                        });
                    }
                }
            }
        }

        if castles && checkers.is_empty() && from.contains(king) {
            for rook in self.castling_rooks_of(us) {
                if self.castle_is_legal(king, rook) {
                    f(PieceMoves {
                        from: king,
                        role: Role::King,
                        targets: Bitboard::from_square(rook),
                        kind: MovesKind::Castle,
                    });
                }
            }
        }
    }

    /// Every square `attacker` attacks with the given occupancy (pawns set-wise, pieces one by one).
    pub fn attacked_by(&self, attacker: Color, occupied: Bitboard) -> Bitboard {
        let pawns = self.pieces(attacker, Role::Pawn);
        let not_a = !Bitboard::from_file(crate::File::A);
        let not_h = !Bitboard::from_file(crate::File::H);
        let mut a = match attacker {
            Color::White => Bitboard(((pawns & not_a).0 << 7) | ((pawns & not_h).0 << 9)),
            Color::Black => Bitboard(((pawns & not_a).0 >> 9) | ((pawns & not_h).0 >> 7)),
        };
        for sq in self.pieces(attacker, Role::Knight) {
            a |= attacks::knight_attacks(sq);
        }
        let queens = self.pieces(attacker, Role::Queen);
        for sq in self.pieces(attacker, Role::Bishop) | queens {
            a |= attacks::bishop_attacks(sq, occupied);
        }
        for sq in self.pieces(attacker, Role::Rook) | queens {
            a |= attacks::rook_attacks(sq, occupied);
        }
        a | attacks::king_attacks(self.king(attacker))
    }

    /// Castling with the rook on `rook`, given the king on `king`, the rights held and no check: the squares both
    /// pieces cross must be empty (but for the two of them), and the king must not pass through or land on an
    /// attacked square (Article 3.8.2).
    pub(crate) fn castle_is_legal(&self, king: Square, rook: Square) -> bool {
        let m = Move::castle(king, rook);
        let king_to = m.king_to();
        let rook_to = m.castle_rook_to();
        let occ = self.occupied ^ king ^ rook;
        let king_path = attacks::between(king, king_to) | king_to;
        let rook_path = attacks::between(rook, rook_to) | rook_to;
        if ((king_path | rook_path) & occ).any() {
            return false;
        }
        let them = !self.turn;
        !Iterator::any(&mut king_path.into_iter(), |sq| self.attackers_to(sq, them, occ).any())
    }

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Bitboard::FULL, true, |pm| pm.for_each(|m| list.push(m)));
        list
    }

    /// Legal moves from one square.
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = MoveList::new();
        self.generate(Bitboard::FULL, true, |pm| {
            pm.for_each(|m| {
                if m.from() == from {
                    list.push(m)
                }
            })
        });
        list
    }

    /// Legal captures (en passant included) and promotions.
    pub fn capture_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        let theirs = self.by_color(!self.turn);
        let promo = Bitboard::from_rank(self.turn.promotion_rank());
        // The promotion rank is in the target only for pawns: other pieces moving there quietly are no captures.
        self.generate(theirs | promo, false, |mut pm| {
            if pm.role != Role::Pawn {
                pm.targets &= theirs;
            }
            pm.for_each(|m| list.push(m))
        });
        list
    }

    /// Number of legal moves, without building a list.
    #[inline]
    pub fn count_legal(&self) -> usize {
        let mut n = 0;
        self.generate(Bitboard::FULL, true, |pm| n += pm.len());
        n
    }

    /// Whether the side to move has any legal move.
    pub fn has_legal_move(&self) -> bool {
        // Generation is cheap enough; early exit is not worth a second code path.
        self.count_legal() > 0
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        let from = m.from();
        if !self.by_color[self.turn.index()].contains(from) {
            return false;
        }
        let mut found = false;
        let dest = if m.is_castle() || m.is_en_passant() { Bitboard::FULL } else { Bitboard::from_square(m.to()) };
        self.generate(dest, m.is_castle(), |pm| {
            if !found {
                pm.for_each(|x| found |= x == m);
            }
        });
        found
    }

    /// Checkmate: in check with no legal move (Article 5.1).
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_move()
    }

    /// Stalemate: not in check and no legal move (Article 5.2.1).
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_move()
    }
}

/// Counts the leaves of the legal move tree to `depth` (bulk-counting the last ply).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal() as u64,
        _ => {
            let mut n = 0;
            pos.generate(Bitboard::FULL, true, |pm| {
                pm.for_each(|m| {
                    let mut child = pos.clone();
                    child.play_unchecked_role(m, pm.role);
                    n += perft(&child, depth - 1);
                })
            });
            n
        }
    }
}

/// Like [`perft`], but makes every leaf move instead of counting them (the "full" perft).
pub fn perft_full(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut n = 0;
    pos.generate(Bitboard::FULL, true, |pm| {
        pm.for_each(|m| {
            let mut child = pos.clone();
            child.play_unchecked_role(m, pm.role);
            n += perft_full(&child, depth - 1);
        })
    });
    n
}

/// Perft split by first move: `(move, leaves)` pairs in generation order.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let mut out = Vec::new();
    for &m in pos.legal_moves().iter() {
        let child = pos.after(m);
        out.push((m, if depth <= 1 { 1 } else { perft(&child, depth - 1) }));
    }
    out
}
