//! `Move`: a legal-or-not move packed into 16 bits, and `MoveList`, a fixed-capacity list that never allocates.

use crate::types::{Role, Square};
use core::fmt;

/// A move, packed into 16 bits:
///
/// ```text
/// bits  0..6   from square (a1 = 0)
/// bits  6..12  to square; for castling, the square of the castling ROOK ("king takes rook"),
///              which describes Chess960 and standard castling alike
/// bits 12..16  kind: 0 normal, 1 en passant, 2 castling, 4 =N, 5 =B, 6 =R, 7 =Q (promotions)
/// ```
///
/// A `Move` says nothing about legality; it only makes sense together with a position.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Move(u16);

const KIND_NORMAL: u16 = 0;
const KIND_EN_PASSANT: u16 = 1;
const KIND_CASTLE: u16 = 2;
const KIND_PROMO: u16 = 4;

impl Move {
    #[inline]
    pub const fn normal(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_NORMAL << 12)
    }

    #[inline]
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move(from.index() as u16 | (to.index() as u16) << 6 | KIND_EN_PASSANT << 12)
    }

    /// Castling, given by the king's square and the castling rook's square.
    #[inline]
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move(king.index() as u16 | (rook.index() as u16) << 6 | KIND_CASTLE << 12)
    }

    /// A promotion to `role` (knight, bishop, rook or queen).
    #[inline]
    pub const fn promotion(from: Square, to: Square, role: Role) -> Move {
        let k = match role {
            Role::Knight => 0,
            Role::Bishop => 1,
            Role::Rook => 2,
            _ => 3,
        };
        Move(from.index() as u16 | (to.index() as u16) << 6 | (KIND_PROMO + k) << 12)
    }

    #[inline]
    pub const fn from(self) -> Square {
        Square::new((self.0 & 63) as u32)
    }

    /// The destination; for castling this is the rook's square, see [`Move::king_to`].
    #[inline]
    pub const fn to(self) -> Square {
        Square::new((self.0 >> 6 & 63) as u32)
    }

    #[inline]
    const fn kind(self) -> u16 {
        self.0 >> 12
    }

    #[inline]
    pub const fn is_castle(self) -> bool {
        self.kind() == KIND_CASTLE
    }

    #[inline]
    pub const fn is_en_passant(self) -> bool {
        self.kind() == KIND_EN_PASSANT
    }

    #[inline]
    pub const fn is_promotion(self) -> bool {
        self.kind() >= KIND_PROMO
    }

    #[inline]
    pub const fn promotion_role(self) -> Option<Role> {
        // Kinds 4..8 are N, B, R, Q: role index = kind - 3 (a subtraction, not a jump table).
        let k = self.kind();
        if k >= KIND_PROMO { Some(Role::ALL[(k as usize - 3) % 6]) } else { None }
    }

    /// Where the king lands when castling (c- or g-file of its rank); `to()` otherwise.
    #[inline]
    pub const fn king_to(self) -> Square {
        if self.is_castle() {
            let kingside = self.to().index() > self.from().index();
            let rank_base = self.from().index() as u32 & !7;
            Square::new(rank_base + if kingside { 6 } else { 2 })
        } else {
            self.to()
        }
    }

    /// Where the rook lands when castling (d- or f-file).
    #[inline]
    pub const fn castle_rook_to(self) -> Square {
        let kingside = self.to().index() > self.from().index();
        let rank_base = self.from().index() as u32 & !7;
        Square::new(rank_base + if kingside { 5 } else { 3 })
    }

    /// Whether castling is on the king's side (h-side).
    #[inline]
    pub const fn is_kingside_castle(self) -> bool {
        self.is_castle() && self.to().index() > self.from().index()
    }

    /// The raw 16-bit encoding (for transposition tables).
    #[inline]
    pub const fn to_u16(self) -> u16 {
        self.0
    }

    /// From the raw encoding; `None` for the unused kind 3 and for from == to.
    pub const fn from_u16(v: u16) -> Option<Move> {
        let m = Move(v);
        if m.kind() == 3 || m.from().index() == m.to().index() { None } else { Some(m) }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from(), self.to())?;
        if let Some(r) = self.promotion_role() {
            write!(f, "{}", r.char())?;
        }
        if self.is_castle() {
            write!(f, "(castle)")?;
        }
        if self.is_en_passant() {
            write!(f, "(ep)")?;
        }
        Ok(())
    }
}

/// Upper bound on the number of legal moves in any chess position (the known maximum is 218).
pub const MAX_MOVES: usize = 256;

/// A list of moves on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList { moves: [Move(0); MAX_MOVES], len: 0 }
    }
}

impl MoveList {
    #[inline]
    pub fn new() -> MoveList {
        MoveList::default()
    }

    #[inline]
    pub fn push(&mut self, m: Move) {
        // Legal move counts never exceed 218; the capacity check only guards pseudo-legal callers.
        if self.len < MAX_MOVES {
            self.moves[self.len] = m;
            self.len += 1;
        }
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }

    pub fn iter(&self) -> core::slice::Iter<'_, Move> {
        self.as_slice().iter()
    }

    pub fn swap_remove(&mut self, i: usize) -> Move {
        let m = self.moves[i];
        self.len -= 1;
        self.moves[i] = self.moves[self.len];
        m
    }

    pub fn retain(&mut self, mut f: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if f(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl core::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = core::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}
