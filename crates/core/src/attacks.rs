//! Attack tables, all built at compile time: knight, king and pawn steps, sliding attacks by "fancy" magic
//! bitboards, and the `between`/`line` rays used for pins and check evasion.
//!
//! The magic multipliers below were found by our own random search (tools/find_magics.rs) and are checked for
//! collisions when the tables are built: a bad constant fails compilation.

use crate::bitboard::Bitboard;
use crate::types::{Color, Square};

const fn step_table(deltas: &[(i32, i32)]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
        let mut i = 0;
        while i < deltas.len() {
            let (nf, nr) = (f + deltas[i].0, r + deltas[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                t[sq] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    t
}

static KNIGHT: [u64; 64] = step_table(&[(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]);
static KING: [u64; 64] = step_table(&[(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]);
static PAWN: [[u64; 64]; 2] = [step_table(&[(-1, 1), (1, 1)]), step_table(&[(-1, -1), (1, -1)])];

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];

/// Sliding attacks computed ray by ray (slow; used to build the tables and in tests).
pub(crate) const fn slide(sq: usize, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut a = 0u64;
    let mut d = 0;
    while d < 4 {
        let (mut f, mut r) = ((sq % 8) as i32 + dirs[d].0, (sq / 8) as i32 + dirs[d].1);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let s = r * 8 + f;
            a |= 1 << s;
            if occ & (1 << s) != 0 {
                break;
            }
            f += dirs[d].0;
            r += dirs[d].1;
        }
        d += 1;
    }
    a
}

/// The relevant-occupancy mask: the rays without their last square.
const fn relevant(sq: usize, dirs: &[(i32, i32); 4]) -> u64 {
    let mut a = 0u64;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = ((sq % 8) as i32 + df, (sq / 8) as i32 + dr);
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            a |= 1 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    a
}

#[derive(Copy, Clone)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: u32,
}

pub(crate) const ROOK_MAGICS: [u64; 64] = [
    0x2080002080400010,
    0x00C0002001401000,
    0x2100110008402002,
    0x0880080081041000,
    0x0200020020041008,
    0x2300040008010012,
    0x0C00283004008201,
    0x0180010000407A80,
    0x0168800080400020,
    0x0010400040201000,
    0x1001002001001048,
    0x1001002408100100,
    0x0801000408010012,
    0x4001000209000400,
    0x08A20004C8020001,
    0x2002801145002280,
    0x0080860021004200,
    0x001000C009402002,
    0x00B0002004002800,
    0x100A808010020800,
    0x8101010008000410,
    0x0244008002000480,
    0x0000040010810208,
    0x2000020000448534,
    0x4104400480008033,
    0x0000810100204000,
    0x0440430900200010,
    0x4600240900100100,
    0x0060080080040080,
    0x0001000300080400,
    0x0004084400011002,
    0x0023040200008041,
    0x0580050043002080,
    0x0400804002802008,
    0x0001002001004010,
    0x1000200901001000,
    0x4410800801800C00,
    0xA012003806001004,
    0x0020100104008802,
    0x0004808402000041,
    0x0010400170898000,
    0x0080500020004004,
    0x1040408012020020,
    0x8010040008004040,
    0x2001080100110004,
    0x0000020004008080,
    0x0021010810040002,
    0x0800008C43020024,
    0x0000800021005100,
    0x0070201040008080,
    0x0000D04282006A00,
    0x0010014400080240,
    0x0001080110050100,
    0x0012000810240600,
    0x0402000801040200,
    0x028100108A004100,
    0x0050800300102045,
    0x8208210040120882,
    0x8010600101183441,
    0x020B000910006045,
    0x0241001002480005,
    0x0081000400880241,
    0x0000009008024124,
    0x0048122980410402,
];
pub(crate) const BISHOP_MAGICS: [u64; 64] = [
    0x0848020822040013,
    0x8010A40085821200,
    0x0008008430840822,
    0x0808048108040000,
    0x1304042100008104,
    0x5001012010204023,
    0x81048801B8200420,
    0x200A008084012000,
    0x0040102001042084,
    0x840A505042428020,
    0x0000700102202920,
    0x44101C0C10800002,
    0x0040040422000000,
    0x0180020802090202,
    0x4020020811041202,
    0x000104308C042000,
    0x4140661002424400,
    0x0028012008010460,
    0x0188062102002A00,
    0x0014004840102008,
    0x0105000290400002,
    0x8001022200410400,
    0x104A041918013446,
    0x008A000082008238,
    0x04A0060008100430,
    0x0008220008820801,
    0x2508041208005010,
    0x4008080200202020,
    0x2441001013004000,
    0x0030008060407000,
    0x4008108000420800,
    0x0012021050290100,
    0x0210080482200500,
    0xCC01112048100480,
    0x0020402806500440,
    0x00048E0080580080,
    0x0040102020020080,
    0x0028010440080807,
    0x4601041108008800,
    0x8040810E04104200,
    0x901210110400088A,
    0xA003080212081050,
    0x00C1004048401004,
    0x900000A014400800,
    0x0008021040405401,
    0x4020008206002090,
    0x0004190424030100,
    0x0424008A02026250,
    0x8004088250900040,
    0x1C00430088A04200,
    0x0001020094040001,
    0x8040210020880061,
    0x2010040450442032,
    0x0800840850044001,
    0x0004040802140004,
    0x0004080A04222020,
    0x8088802110022000,
    0x1081A10416114400,
    0x0205010A24060820,
    0x0000000720411080,
    0x1008000208430400,
    0x580C026028810840,
    0x802020441020A110,
    0x12C0022401020018,
];

const ROOK_TABLE_SIZE: usize = 102_400;
const BISHOP_TABLE_SIZE: usize = 5_248;

const fn build_magics(dirs: &[(i32, i32); 4], magics: &[u64; 64]) -> [Magic; 64] {
    let mut out = [Magic { mask: 0, magic: 0, shift: 0, offset: 0 }; 64];
    let mut offset = 0u32;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant(sq, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic { mask, magic: magics[sq], shift: 64 - bits, offset };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const fn build_table<const N: usize>(dirs: &[(i32, i32); 4], magics: &[Magic; 64]) -> [u64; N] {
    let mut table = [0u64; N];
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        let mut sub = 0u64;
        loop {
            let idx = m.offset as usize + (sub.wrapping_mul(m.magic) >> m.shift) as usize;
            let att = slide(sq, sub, dirs);
            // A collision with a different attack set would mean a bad magic constant.
            assert!(table[idx] == 0 || table[idx] == att, "magic collision");
            table[idx] = att;
            sub = sub.wrapping_sub(m.mask) & m.mask;
            if sub == 0 {
                break;
            }
        }
        sq += 1;
    }
    table
}

static ROOK_M: [Magic; 64] = build_magics(&ROOK_DIRS, &ROOK_MAGICS);
static BISHOP_M: [Magic; 64] = build_magics(&BISHOP_DIRS, &BISHOP_MAGICS);
static ROOK_ATTACKS: [u64; ROOK_TABLE_SIZE] = build_table(&ROOK_DIRS, &ROOK_M);
static BISHOP_ATTACKS: [u64; BISHOP_TABLE_SIZE] = build_table(&BISHOP_DIRS, &BISHOP_M);

const fn build_rays() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0u64; 64]; 64];
    let mut line = [[0u64; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut d = 0;
        while d < 8 {
            let (df, dr) = if d < 4 { ROOK_DIRS[d] } else { BISHOP_DIRS[d - 4] };
            // Full line through a in this direction (both ways).
            let mut full = 1u64 << a;
            let mut k = 0;
            while k < 2 {
                let (sf, sr) = if k == 0 { (df, dr) } else { (-df, -dr) };
                let (mut f, mut r) = ((a % 8) as i32 + sf, (a / 8) as i32 + sr);
                while f >= 0 && f < 8 && r >= 0 && r < 8 {
                    full |= 1 << (r * 8 + f);
                    f += sf;
                    r += sr;
                }
                k += 1;
            }
            let (mut f, mut r) = ((a % 8) as i32 + df, (a / 8) as i32 + dr);
            let mut acc = 0u64;
            while f >= 0 && f < 8 && r >= 0 && r < 8 {
                let b = (r * 8 + f) as usize;
                between[a][b] = acc;
                line[a][b] = full;
                acc |= 1 << b;
                f += df;
                r += dr;
            }
            d += 1;
        }
        a += 1;
    }
    (between, line)
}

static RAYS: ([[u64; 64]; 64], [[u64; 64]; 64]) = build_rays();

#[inline]
pub fn knight_attacks(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

#[inline]
pub fn king_attacks(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks.
#[inline]
pub fn pawn_attacks(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

#[inline]
pub fn rook_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &ROOK_M[sq.index()];
    let idx = m.offset as usize + ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(ROOK_ATTACKS[idx])
}

#[inline]
pub fn bishop_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    let m = &BISHOP_M[sq.index()];
    let idx = m.offset as usize + ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(BISHOP_ATTACKS[idx])
}

#[inline]
pub fn queen_attacks(sq: Square, occupied: Bitboard) -> Bitboard {
    rook_attacks(sq, occupied) | bishop_attacks(sq, occupied)
}

/// Squares strictly between `a` and `b` when they share a rank, file or diagonal; otherwise empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.0[a.index()][b.index()])
}

/// The whole line (edge to edge) through `a` and `b` when they are aligned; otherwise empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(RAYS.1[a.index()][b.index()])
}

/// Whether `a`, `b` and `c` lie on one line.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

/// Attacks of a piece of the given role and colour from `sq` (pawns: captures only).
#[inline]
pub fn attacks(role: crate::Role, color: Color, sq: Square, occupied: Bitboard) -> Bitboard {
    use crate::Role::*;
    match role {
        Pawn => pawn_attacks(color, sq),
        Knight => knight_attacks(sq),
        Bishop => bishop_attacks(sq, occupied),
        Rook => rook_attacks(sq, occupied),
        Queen => queen_attacks(sq, occupied),
        King => king_attacks(sq),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn magic_lookups_equal_slow_rays() {
        let mut s: u64 = 0x1234_5678_9ABC_DEF1;
        for _ in 0..20_000 {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            let occ = s & s.rotate_left(17);
            let sq = (s >> 58) as usize;
            assert_eq!(rook_attacks(Square::new(sq as u32), Bitboard(occ)).0, slide(sq, occ, &ROOK_DIRS));
            assert_eq!(bishop_attacks(Square::new(sq as u32), Bitboard(occ)).0, slide(sq, occ, &BISHOP_DIRS));
        }
    }

    #[test]
    fn rays() {
        assert_eq!(between(Square::A1, Square::D4), Bitboard(0) | Square::B2 | Square::C3);
        assert!(between(Square::A1, Square::B3).is_empty());
        assert!(line(Square::A1, Square::H8).contains(Square::E5));
        assert_eq!(knight_attacks(Square::A1).count(), 2);
        assert_eq!(king_attacks(Square::E4).count(), 8);
        assert_eq!(pawn_attacks(Color::White, Square::E4), Bitboard(0) | Square::D5 | Square::F5);
    }
}
