//! Zobrist keys, generated at compile time from a fixed xorshift sequence so that hashes are stable across builds.

use crate::types::{Color, Role, Square};

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut s = seed;
    let mut i = 0;
    while i < N {
        // xorshift64*, good enough for hashing and fully deterministic.
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        out[i] = s.wrapping_mul(0x2545_F491_4F6C_DD1D);
        i += 1;
    }
    out
}

static PIECE_KEYS: [[[u64; 64]; 6]; 2] = {
    let flat: [u64; 768] = keys(0x0B5E_55ED_C0FF_EE01);
    let mut out = [[[0u64; 64]; 6]; 2];
    let mut i = 0;
    while i < 768 {
        out[i / 384][i / 64 % 6][i % 64] = flat[i];
        i += 1;
    }
    out
};
/// One key per square that may hold a rook with castling rights.
static CASTLE_KEYS: [u64; 64] = keys(0x7A57_1E5E_EDCA_5713);
static EP_KEYS: [u64; 8] = keys(0x00E9_A55A_9700_0001);
pub(crate) const TURN_KEY: u64 = 0x9D39_247E_3377_6D41;

#[inline]
pub(crate) fn piece(color: Color, role: Role, sq: Square) -> u64 {
    PIECE_KEYS[color.index()][role.index()][sq.index()]
}

#[inline]
pub(crate) fn castle(rook_sq: Square) -> u64 {
    CASTLE_KEYS[rook_sq.index()]
}

#[inline]
pub(crate) fn en_passant(sq: Square) -> u64 {
    EP_KEYS[sq.file().index() as usize]
}
