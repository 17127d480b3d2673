//! `Position`: the full state the FIDE Laws need to decide what may be played next — placement, side to move,
//! castling rights, en-passant square, the two move counters — plus a Zobrist hash kept up to date incrementally.
//!
//! Making moves lives here ([`Position::play_unchecked`] for the engine, [`Position::play`] for everyone else);
//! move generation is in `movegen.rs`, FEN reading and writing in `fen.rs`.

use crate::attacks;
use crate::bitboard::Bitboard;
use crate::mv::Move;
use crate::types::{Color, File, Piece, Rank, Role, Square};
use crate::zobrist;
use core::fmt;

/// A position. Copying it is cheap (it is plain data), and the engine copies it to make moves ("copy-make").
///
/// Invariants, established by the FEN validator and kept by every move: exactly one king per side; the side not to
/// move is not in check; `castles` holds only rooks on their back rank with their king on the same rank;
/// `ep_square` is set only when an en-passant capture is actually legal (so it takes part in position identity
/// exactly as Article 9.2 of the Laws requires); `hash` equals [`Position::hash_from_scratch`]. Checkers are not
/// stored: they are computed when asked for, so that making a move stays cheap.
#[derive(Clone)]
pub struct Position {
    pub(crate) by_role: [Bitboard; 6],
    pub(crate) by_color: [Bitboard; 2],
    pub(crate) occupied: Bitboard,
    pub(crate) turn: Color,
    /// Squares of rooks that still have castling rights, both colours.
    pub(crate) castles: Bitboard,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
    pub(crate) chess960: bool,
}

/// Why [`Position::play`] refused a move. The unchanged position comes back inside.
#[derive(Clone)]
pub struct PlayError {
    pub position: Position,
    pub mv: Move,
}

impl fmt::Debug for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PlayError({:?} in {})", self.mv, self.position.fen())
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move {} in position {}", self.position.uci(self.mv), self.position.fen())
    }
}

impl std::error::Error for PlayError {}

impl PartialEq for Position {
    /// Two positions are equal when they are the same position in the sense of Article 9.2 (placement, side to move,
    /// castling rights, legal en passant) and have the same move counters and castling mode.
    fn eq(&self, other: &Position) -> bool {
        self.by_role == other.by_role
            && self.by_color == other.by_color
            && self.turn == other.turn
            && self.castles == other.castles
            && self.ep_square == other.ep_square
            && self.halfmoves == other.halfmoves
            && self.fullmoves == other.fullmoves
            && self.chess960 == other.chess960
    }
}

impl Eq for Position {}

impl Default for Position {
    fn default() -> Position {
        Position::new()
    }
}

impl Position {
    /// The standard starting position.
    pub fn new() -> Position {
        let mut p = Position::empty();
        let back =
            [Role::Rook, Role::Knight, Role::Bishop, Role::Queen, Role::King, Role::Bishop, Role::Knight, Role::Rook];
        for f in File::ALL {
            p.put(Square::from_coords(f, Rank::First), Piece::new(Color::White, back[f as usize]));
            p.put(Square::from_coords(f, Rank::Second), Piece::new(Color::White, Role::Pawn));
            p.put(Square::from_coords(f, Rank::Seventh), Piece::new(Color::Black, Role::Pawn));
            p.put(Square::from_coords(f, Rank::Eighth), Piece::new(Color::Black, back[f as usize]));
        }
        p.castles = Bitboard(0) | Square::A1 | Square::H1 | Square::A8 | Square::H8;
        p.hash = p.hash_from_scratch();
        p
    }

    /// A board with nothing on it (not a legal position; a starting point for builders).
    pub(crate) fn empty() -> Position {
        Position {
            by_role: [Bitboard::EMPTY; 6],
            by_color: [Bitboard::EMPTY; 2],
            occupied: Bitboard::EMPTY,
            turn: Color::White,
            castles: Bitboard::EMPTY,
            ep_square: None,
            halfmoves: 0,
            fullmoves: 1,
            hash: 0,
            chess960: false,
        }
    }

    #[inline]
    pub(crate) fn put(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()] |= sq;
        self.by_color[piece.color.index()] |= sq;
        self.occupied |= sq;
    }

    #[inline]
    pub(crate) fn remove(&mut self, sq: Square, piece: Piece) {
        self.by_role[piece.role.index()] ^= sq;
        self.by_color[piece.color.index()] ^= sq;
        self.occupied ^= sq;
    }

    // ----- accessors -------------------------------------------------------------------------------------------

    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.occupied
    }

    #[inline]
    pub fn by_color(&self, c: Color) -> Bitboard {
        self.by_color[c.index()]
    }

    #[inline]
    pub fn by_role(&self, r: Role) -> Bitboard {
        self.by_role[r.index()]
    }

    #[inline]
    pub fn pieces(&self, c: Color, r: Role) -> Bitboard {
        self.by_color[c.index()] & self.by_role[r.index()]
    }

    /// The square of `c`'s king.
    #[inline]
    pub fn king(&self, c: Color) -> Square {
        // Every valid position has exactly one king per side (validated on construction).
        (self.pieces(c, Role::King)).first().unwrap_or(Square::A1)
    }

    #[inline]
    pub fn role_at(&self, sq: Square) -> Option<Role> {
        if !self.occupied.contains(sq) {
            return None;
        }
        Some(self.role_on_occupied(sq))
    }

    /// The role on a square known to be occupied (pawns and knights, the most frequent movers, tested first).
    #[inline]
    pub(crate) fn role_on_occupied(&self, sq: Square) -> Role {
        let b = Bitboard::from_square(sq);
        if self.by_role[0].intersects(b) {
            Role::Pawn
        } else if self.by_role[1].intersects(b) {
            Role::Knight
        } else if self.by_role[2].intersects(b) {
            Role::Bishop
        } else if self.by_role[3].intersects(b) {
            Role::Rook
        } else if self.by_role[4].intersects(b) {
            Role::Queen
        } else {
            Role::King
        }
    }

    #[inline]
    pub fn color_at(&self, sq: Square) -> Option<Color> {
        if self.by_color[0].contains(sq) {
            Some(Color::White)
        } else if self.by_color[1].contains(sq) {
            Some(Color::Black)
        } else {
            None
        }
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Some(Piece::new(self.color_at(sq)?, self.role_at(sq)?))
    }

    /// The en-passant target square, present only when an en-passant capture is legal right now.
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move (Article 9.3).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The number of the current move (starts at 1, grows after black moves).
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Number of half-moves played since a game starting at move 1 with white to move (saturating: a FEN may carry
    /// any counter).
    pub fn ply(&self) -> u32 {
        (self.fullmoves.max(1) - 1).saturating_mul(2).saturating_add(self.turn.index() as u32)
    }

    /// Rook squares that keep castling rights.
    #[inline]
    pub fn castling_rooks(&self) -> Bitboard {
        self.castles
    }

    /// Rook squares of `c` that keep castling rights.
    #[inline]
    pub fn castling_rooks_of(&self, c: Color) -> Bitboard {
        self.castles & Bitboard::from_rank(c.back_rank())
    }

    /// Whether this position uses Chess960 castling notation (king takes rook in UCI).
    #[inline]
    pub fn is_chess960(&self) -> bool {
        self.chess960
    }

    /// Switches the castling notation between standard and Chess960.
    pub fn set_chess960(&mut self, on: bool) {
        self.chess960 = on;
    }

    /// The Zobrist hash: equal for equal positions in the sense of Article 9.2.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        // Computed on demand: storing it would cost every made move, including perft and search leaves.
        self.attackers_to(self.king(self.turn), !self.turn, self.occupied)
    }

    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers().any()
    }

    /// Pieces of `attacker` that attack `sq`, with the given occupancy.
    #[inline]
    pub fn attackers_to(&self, sq: Square, attacker: Color, occupied: Bitboard) -> Bitboard {
        let them = self.by_color[attacker.index()];
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        ((attacks::rook_attacks(sq, occupied) & rq)
            | (attacks::bishop_attacks(sq, occupied) & bq)
            | (attacks::knight_attacks(sq) & self.by_role[Role::Knight.index()])
            | (attacks::king_attacks(sq) & self.by_role[Role::King.index()])
            | (attacks::pawn_attacks(!attacker, sq) & self.by_role[Role::Pawn.index()]))
            & them
    }

    /// Whether `sq` is attacked by `attacker` in the current position.
    #[inline]
    pub fn is_attacked(&self, sq: Square, attacker: Color) -> bool {
        self.attackers_to(sq, attacker, self.occupied).any()
    }

    /// Our pieces pinned to our king (they may move only along the pin line).
    pub fn pinned(&self, us: Color) -> Bitboard {
        let king = self.king(us);
        let them = self.by_color[(!us).index()];
        let rq = self.by_role[Role::Rook.index()] | self.by_role[Role::Queen.index()];
        let bq = self.by_role[Role::Bishop.index()] | self.by_role[Role::Queen.index()];
        let snipers = ((attacks::rook_attacks(king, Bitboard::EMPTY) & rq)
            | (attacks::bishop_attacks(king, Bitboard::EMPTY) & bq))
            & them;
        let mut pinned = Bitboard::EMPTY;
        for s in snipers {
            let b = attacks::between(king, s) & self.occupied;
            if !b.more_than_one() {
                pinned |= b & self.by_color[us.index()];
            }
        }
        pinned
    }

    /// For a piece pinned to `us`'s king on `sq`, the enemy piece that pins it.
    pub fn pinner_of(&self, us: Color, sq: Square) -> Option<Square> {
        let king = self.king(us);
        if !attacks::line(king, sq).any() {
            return None;
        }
        let them = !us;
        let occ = self.occupied ^ sq;
        let rq = self.pieces(them, Role::Rook) | self.pieces(them, Role::Queen);
        let bq = self.pieces(them, Role::Bishop) | self.pieces(them, Role::Queen);
        let same_file_or_rank = king.file() == sq.file() || king.rank() == sq.rank();
        let candidates = if same_file_or_rank {
            attacks::rook_attacks(king, occ) & rq
        } else {
            attacks::bishop_attacks(king, occ) & bq
        };
        (candidates & attacks::line(king, sq)).into_iter().find(|&p| attacks::between(king, p).contains(sq))
    }

    // ----- hashing --------------------------------------------------------------------------------------------

    /// Computes the Zobrist hash from nothing; the incremental hash always equals it.
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0;
        for c in Color::ALL {
            for r in Role::ALL {
                for sq in self.pieces(c, r) {
                    h ^= zobrist::piece(c, r, sq);
                }
            }
        }
        for sq in self.castles {
            h ^= zobrist::castle(sq);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::en_passant(ep);
        }
        if self.turn == Color::Black {
            h ^= zobrist::TURN_KEY;
        }
        h
    }

    // ----- making moves ---------------------------------------------------------------------------------------

    /// Plays a move that must be legal in this position (as produced by the move generator). Fast: this is the
    /// engine's path. An illegal move leaves the position in an unspecified (but memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, m: Move) {
        let role = self.role_on_occupied(m.from());
        self.play_unchecked_role(m, role);
    }

    /// [`Position::play_unchecked`] for a caller that already knows the moving piece's role (the move generator's
    /// [`crate::PieceMoves`] carries it), sparing a lookup in the hot loop. `role` must be the role on `m.from()`.
    #[inline]
    pub fn play_unchecked_role(&mut self, m: Move, role: Role) {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut hash = self.hash ^ zobrist::TURN_KEY;

        if let Some(ep) = self.ep_square.take() {
            hash ^= zobrist::en_passant(ep);
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        let old_castles = self.castles;

        if m.is_castle() {
            let king_to = m.king_to();
            let rook_to = m.castle_rook_to();
            self.remove(from, Piece::new(us, Role::King));
            self.remove(to, Piece::new(us, Role::Rook));
            self.put(king_to, Piece::new(us, Role::King));
            self.put(rook_to, Piece::new(us, Role::Rook));
            hash ^= zobrist::piece(us, Role::King, from)
                ^ zobrist::piece(us, Role::King, king_to)
                ^ zobrist::piece(us, Role::Rook, to)
                ^ zobrist::piece(us, Role::Rook, rook_to);
            self.castles &= !Bitboard::from_rank(us.back_rank());
        } else {
            // Each bitboard is touched once: fewer read-modify-writes on the freshly copied position.
            let from_to = Bitboard::from_square(from) | to;
            if self.occupied.contains(to) {
                let captured = self.role_on_occupied(to);
                self.by_role[captured.index()] ^= to;
                self.by_color[them.index()] ^= to;
                self.occupied ^= from;
                hash ^= zobrist::piece(them, captured, to);
                self.halfmoves = 0;
                self.castles &= !Bitboard::from_square(to);
            } else {
                self.occupied ^= from_to;
                if m.is_en_passant() {
                    let cap = Square::from_coords(to.file(), from.rank());
                    self.by_role[Role::Pawn.index()] ^= cap;
                    self.by_color[them.index()] ^= cap;
                    self.occupied ^= cap;
                    hash ^= zobrist::piece(them, Role::Pawn, cap);
                }
            }
            self.by_color[us.index()] ^= from_to;
            match m.promotion_role() {
                None => {
                    self.by_role[role.index()] ^= from_to;
                    hash ^= zobrist::piece(us, role, from) ^ zobrist::piece(us, role, to);
                }
                Some(promoted) => {
                    self.by_role[Role::Pawn.index()] ^= from;
                    self.by_role[promoted.index()] ^= to;
                    hash ^= zobrist::piece(us, Role::Pawn, from) ^ zobrist::piece(us, promoted, to);
                }
            }

            // A rook leaving its square (or captured on it, above) loses its right; the king loses both.
            self.castles &= !from_to;
            if role == Role::King {
                self.castles &= !Bitboard::from_rank(us.back_rank());
            }
            if role == Role::Pawn {
                self.halfmoves = 0;
                // A double step next to an enemy pawn may allow en passant. Computed without a branch on the
                // (unpredictable) step length: the mask is all ones for a double step, zero otherwise.
                let double = ((from.index() ^ to.index()) == 16) as u64;
                let mid = Square::new(((from.index() + to.index()) / 2) as u32);
                let capturers = attacks::pawn_attacks(us, mid) & self.pieces(them, Role::Pawn);
                if capturers.0 & double.wrapping_neg() != 0 {
                    // Decided below, once the rest of the position is updated.
                    self.ep_square = Some(mid);
                }
            }
        }

        for sq in old_castles ^ self.castles {
            hash ^= zobrist::castle(sq);
        }

        self.turn = them;
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }

        if let Some(ep) = self.ep_square {
            if self.ep_capture_is_legal(ep) {
                hash ^= zobrist::en_passant(ep);
            } else {
                self.ep_square = None;
            }
        }
        self.hash = hash;
    }

    /// Whether the side to move has a legal en-passant capture onto `ep` (the pawn that just double-stepped
    /// stands in front of it).
    pub(crate) fn ep_capture_is_legal(&self, ep: Square) -> bool {
        let us = self.turn;
        let them = !us;
        let Some(victim) = ep.offset(if us == Color::White { -8 } else { 8 }) else {
            return false;
        };
        let king = self.king(us);
        let capturers = attacks::pawn_attacks(them, ep) & self.pieces(us, Role::Pawn);
        Iterator::any(&mut capturers.into_iter(), |from| {
            let occ = (self.occupied ^ from ^ victim) | ep;
            let attackers = self.attackers_to(king, them, occ) & !Bitboard::from_square(victim);
            attackers.is_empty()
        })
    }

    /// Plays a move after checking that it is legal. On an illegal move, the unchanged position comes back inside
    /// the error.
    pub fn play(mut self, m: Move) -> Result<Position, PlayError> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(self)
        } else {
            Err(PlayError { position: self, mv: m })
        }
    }

    /// Passes the turn without moving (a "null move", for the engine and for PGN `--`). Not legal in chess; the
    /// caller must make sure the side to move is not in check.
    pub fn play_null(&mut self) {
        let mut hash = self.hash ^ zobrist::TURN_KEY;
        if let Some(ep) = self.ep_square.take() {
            hash ^= zobrist::en_passant(ep);
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = !self.turn;
        self.hash = hash;
    }

    /// Whether the move captures something (including en passant).
    #[inline]
    pub fn is_capture(&self, m: Move) -> bool {
        m.is_en_passant() || (!m.is_castle() && self.by_color[(!self.turn).index()].contains(m.to()))
    }

    /// Whether the move resets the 50-move counter (a capture or a pawn move).
    pub fn is_zeroing(&self, m: Move) -> bool {
        self.is_capture(m) || self.pieces(self.turn, Role::Pawn).contains(m.from())
    }

    /// The position after `m`, copied; `m` must be legal.
    pub fn after(&self, m: Move) -> Position {
        let mut p = self.clone();
        p.play_unchecked(m);
        p
    }

    /// Whether the move gives check.
    pub fn gives_check(&self, m: Move) -> bool {
        self.after(m).is_check()
    }

    /// The board drawn as text (rank 8 on top), for debugging and terminals.
    pub fn board_string(&self) -> String {
        let mut s = String::new();
        for r in (0..8).rev() {
            for f in 0..8 {
                let sq = Square::new(r * 8 + f);
                s.push(self.piece_at(sq).map_or('.', Piece::char));
                if f < 7 {
                    s.push(' ');
                }
            }
            s.push('\n');
        }
        s
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.fen())
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.fen())
    }
}

impl Position {
    /// Start position number `n` (0..960) of Chess960, in the standard numbering (Scharnagl's): number 518 is the
    /// classical start. Castling rights go to both rooks; the position is in Chess960 mode. `None` for `n ≥ 960`.
    pub fn chess960(n: u16) -> Option<Position> {
        if n >= 960 {
            return None;
        }
        let mut n = n as usize;
        let mut back: [Option<Role>; 8] = [None; 8];
        // Bishops on a light and a dark square, then the queen and the knights on the free squares, counted from
        // the a-file; king and rooks take the last three, rook-king-rook.
        back[(n % 4) * 2 + 1] = Some(Role::Bishop);
        n /= 4;
        back[(n % 4) * 2] = Some(Role::Bishop);
        n /= 4;
        let queen = n % 6;
        n /= 6;
        const KNIGHTS: [(usize, usize); 10] =
            [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];
        let (k1, k2) = KNIGHTS[n];
        let place = |back: &mut [Option<Role>; 8], nth: usize, role: Role| {
            if let Some(i) = (0..8).filter(|&i| back[i].is_none()).nth(nth) {
                back[i] = Some(role);
            }
        };
        place(&mut back, queen, Role::Queen);
        // The second knight's index counts the free squares before the first knight is placed.
        place(&mut back, k2, Role::Knight);
        place(&mut back, k1, Role::Knight);
        for role in [Role::Rook, Role::King, Role::Rook] {
            place(&mut back, 0, role);
        }
        let mut p = Position::empty();
        for (f, role) in back.iter().enumerate() {
            let role = (*role)?;
            let file = File::new(f as u32);
            p.put(Square::from_coords(file, Rank::First), Piece::new(Color::White, role));
            p.put(Square::from_coords(file, Rank::Second), Piece::new(Color::White, Role::Pawn));
            p.put(Square::from_coords(file, Rank::Seventh), Piece::new(Color::Black, Role::Pawn));
            p.put(Square::from_coords(file, Rank::Eighth), Piece::new(Color::Black, role));
            if role == Role::Rook {
                p.castles |= Square::from_coords(file, Rank::First);
                p.castles |= Square::from_coords(file, Rank::Eighth);
            }
        }
        p.chess960 = true;
        p.hash = p.hash_from_scratch();
        Some(p)
    }
}
