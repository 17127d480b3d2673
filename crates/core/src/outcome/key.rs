//! An exact, compact key for a position's identity (Article 9.2: placement, side to move, castling rights, legal en
//! passant), for the visited sets of the searches. Unlike the bare Zobrist hash it cannot collide: two keys are equal
//! only for the same position, so a search never skips a position it has not really seen (which would be unsound).

use crate::position::Position;
use crate::types::{Color, Role};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hash, Hasher};

/// Placement in six bitboards (white, occupied, pawns, knights, diagonal movers, straight movers; kings are what is
/// left), castling rooks, and the en-passant square and side to move packed in one byte. The Zobrist hash rides along
/// for hashing only.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct PosKey {
    boards: [u64; 7],
    ep_turn: u8,
    zobrist: u64,
}

impl PosKey {
    pub(crate) fn of(p: &Position) -> PosKey {
        let q = p.by_role(Role::Queen).0;
        let boards = [
            p.by_color(Color::White).0,
            p.occupied().0,
            p.by_role(Role::Pawn).0,
            p.by_role(Role::Knight).0,
            p.by_role(Role::Bishop).0 | q,
            p.by_role(Role::Rook).0 | q,
            p.castling_rooks().0,
        ];
        let ep = p.ep_square().map_or(0x7f, |s| s.index() as u8);
        PosKey { boards, ep_turn: ep << 1 | p.turn() as u8, zobrist: p.hash() }
    }
}

impl Hash for PosKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.zobrist);
    }
}

/// Passes the Zobrist hash through unchanged (it is already well mixed).
#[derive(Default, Debug)]
pub(crate) struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 ^= v;
    }
}

pub(crate) type KeySet = HashSet<PosKey, BuildHasherDefault<ZobristHasher>>;

/// Same position in the sense of Article 9.2 (the move counters do not matter).
pub(crate) fn same_position(a: &Position, b: &Position) -> bool {
    a.hash() == b.hash() && PosKey::of(a) == PosKey::of(b)
}
