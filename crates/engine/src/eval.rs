//! Static evaluation, tapered between middlegame and endgame: material and piece-square tables, mobility, pawn
//! structure (doubled, isolated, passed pawns), king safety (pawn shield, attacks on the king zone), the bishop
//! pair and rooks on open files. Weights live in [`crate::params`].

use crate::params::{PARAMS, Pair};
use guoxiang_core::attacks;
use guoxiang_core::{Bitboard, Color, Position, Role, Square};

const fn file_mask(f: usize) -> u64 {
    0x0101_0101_0101_0101u64 << f
}

const fn build_adjacent() -> [u64; 8] {
    let mut t = [0u64; 8];
    let mut f = 0;
    while f < 8 {
        if f > 0 {
            t[f] |= file_mask(f - 1);
        }
        if f < 7 {
            t[f] |= file_mask(f + 1);
        }
        f += 1;
    }
    t
}

/// Files next to each file.
const ADJACENT_FILES: [u64; 8] = build_adjacent();

/// Squares in front of `sq` (from `color`'s point of view) on its own and the adjacent files: where enemy pawns
/// would stop a passed pawn.
const fn build_passed_masks() -> [[u64; 64]; 2] {
    let mut t = [[0u64; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let f = sq % 8;
        let r = sq / 8;
        let files = file_mask(f) | ADJACENT_FILES[f];
        let mut ahead_w = 0u64;
        let mut rr = r + 1;
        while rr < 8 {
            ahead_w |= 0xFFu64 << (rr * 8);
            rr += 1;
        }
        let mut ahead_b = 0u64;
        let mut rr = 0;
        while rr < r {
            ahead_b |= 0xFFu64 << (rr * 8);
            rr += 1;
        }
        t[0][sq] = files & ahead_w;
        t[1][sq] = files & ahead_b;
        sq += 1;
    }
    t
}

const PASSED_MASK: [[u64; 64]; 2] = build_passed_masks();

/// Squares attacked by all pawns of `color` in `pawns`.
#[inline]
fn pawn_attack_set(color: Color, pawns: Bitboard) -> Bitboard {
    let not_a = !Bitboard::from_file(guoxiang_core::File::A);
    let not_h = !Bitboard::from_file(guoxiang_core::File::H);
    match color {
        Color::White => Bitboard(((pawns & not_a).0 << 7) | ((pawns & not_h).0 << 9)),
        Color::Black => Bitboard(((pawns & not_a).0 >> 9) | ((pawns & not_h).0 >> 7)),
    }
}

/// Index into the piece-square tables (written rank 8 first) for a piece of `color` on `sq`.
#[inline]
fn pst_index(color: Color, sq: Square) -> usize {
    match color {
        Color::White => sq.index() ^ 56,
        Color::Black => sq.index(),
    }
}

/// The evaluation of one side, as a middlegame/endgame pair.
fn side(pos: &Position, us: Color) -> Pair {
    let p = &PARAMS;
    let them = !us;
    let occ = pos.occupied();
    let ours = pos.by_color(us);
    let our_pawns = pos.pieces(us, Role::Pawn);
    let their_pawns = pos.pieces(them, Role::Pawn);
    let mut s = Pair::ZERO;

    // Material and placement.
    for role in Role::ALL {
        for sq in pos.pieces(us, role) {
            let i = pst_index(us, sq);
            s += p.material[role.index()];
            s += Pair(p.pst_mg[role.index()][i], p.pst_eg[role.index()][i]);
        }
    }

    // Mobility, and attacks on the enemy king zone.
    let area = !(ours | pawn_attack_set(them, their_pawns));
    let their_king = pos.king(them);
    let zone = attacks::king_attacks(their_king) | their_king;
    let mut attackers = 0;
    let mut units = 0;
    for (k, role) in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen].into_iter().enumerate() {
        for sq in pos.pieces(us, role) {
            let a = match role {
                Role::Knight => attacks::knight_attacks(sq),
                Role::Bishop => attacks::bishop_attacks(sq, occ),
                Role::Rook => attacks::rook_attacks(sq, occ),
                _ => attacks::queen_attacks(sq, occ),
            };
            let n = (a & area).count() as i32 - p.mobility_base[k];
            s += p.mobility[k] * n;
            let hits = (a & zone).count() as i32;
            if hits > 0 {
                attackers += 1;
                units += p.king_attack_weight[k] * hits;
            }
        }
    }
    if attackers >= 2 && pos.pieces(us, Role::Queen).any() {
        let danger = (units * units / p.king_danger_divisor).min(p.king_danger_max);
        s += Pair(danger, 0);
    }

    // Pawn structure.
    for sq in our_pawns {
        let f = sq.file().index() as usize;
        let file = Bitboard(file_mask(f));
        if (our_pawns & file).more_than_one() {
            // Counted once per pawn of a doubled file: two pawns cost twice the weight.
            s += p.doubled_pawn;
        }
        if (our_pawns & Bitboard(ADJACENT_FILES[f])).is_empty() {
            s += p.isolated_pawn;
        }
        if (their_pawns & Bitboard(PASSED_MASK[us.index()][sq.index()])).is_empty() {
            // Only the frontmost of our pawns on a file counts as passed.
            let ahead_own = our_pawns & file & Bitboard(PASSED_MASK[us.index()][sq.index()]);
            if ahead_own.is_empty() {
                s += p.passed_pawn[sq.rank().relative(us) as usize];
            }
        }
    }

    // Bishop pair, rooks on open files.
    if pos.pieces(us, Role::Bishop).more_than_one() {
        s += p.bishop_pair;
    }
    for sq in pos.pieces(us, Role::Rook) {
        let file = Bitboard(file_mask(sq.file().index() as usize));
        if (our_pawns & file).is_empty() {
            s += if (their_pawns & file).is_empty() { p.rook_open_file } else { p.rook_semi_open_file };
        }
    }

    // Pawn shield in front of our king (middlegame only), when the king is on its first two ranks.
    let king = pos.king(us);
    if (king.rank().relative(us) as u32) <= 1 {
        let kf = king.file().index() as usize;
        let files = Bitboard(file_mask(kf) | ADJACENT_FILES[kf]);
        let step = |b: Bitboard| if us == Color::White { b.north() } else { b.south() };
        let front1 = step(Bitboard::from_rank(king.rank())) & files;
        let front2 = step(front1);
        let close = (our_pawns & front1).count() as i32;
        let far = (our_pawns & front2).count() as i32;
        s += Pair(close * p.shield_close + far * p.shield_far, 0);
    }
    s
}

/// Game phase from the material on the board: `phase_total` at the start, 0 with only kings and pawns.
pub fn phase(pos: &Position) -> i32 {
    let mut ph = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        ph += PARAMS.phase[role.index()] * pos.by_role(role).count() as i32;
    }
    ph.min(PARAMS.phase_total)
}

/// Non-pawn material of `color` (middlegame values), used by the search to spot zugzwang-prone endings.
pub fn non_pawn_material(pos: &Position, color: Color) -> i32 {
    let mut m = 0;
    for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
        m += PARAMS.material[role.index()].0 * pos.pieces(color, role).count() as i32;
    }
    m
}

/// Whether neither side can possibly win on material alone (bare kings, or a single minor piece).
fn insufficient(pos: &Position) -> bool {
    if pos.by_role(Role::Pawn).any() || pos.by_role(Role::Rook).any() || pos.by_role(Role::Queen).any() {
        return false;
    }
    let minors = pos.by_role(Role::Knight) | pos.by_role(Role::Bishop);
    !minors.more_than_one()
}

/// The evaluation from white's point of view, without the tempo bonus.
pub fn evaluate_white(pos: &Position) -> i32 {
    if insufficient(pos) {
        return 0;
    }
    let s = side(pos, Color::White) - side(pos, Color::Black);
    let ph = phase(pos);
    let total = PARAMS.phase_total;
    let mut v = (s.0 * ph + s.1 * (total - ph)) / total;
    // A side without pawns and at most a minor piece ahead can rarely win: scale the score down.
    let (w_pawns, b_pawns) = (pos.pieces(Color::White, Role::Pawn), pos.pieces(Color::Black, Role::Pawn));
    let diff = non_pawn_material(pos, Color::White) - non_pawn_material(pos, Color::Black);
    if (v > 0 && w_pawns.is_empty() && diff <= PARAMS.material[Role::Bishop.index()].0)
        || (v < 0 && b_pawns.is_empty() && -diff <= PARAMS.material[Role::Bishop.index()].0)
    {
        v /= 4;
    }
    v
}

/// The evaluation from the side to move's point of view, in centipawns.
pub fn evaluate(pos: &Position) -> i32 {
    let v = evaluate_white(pos);
    let v = if pos.turn() == Color::White { v } else { -v };
    v + PARAMS.tempo
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The colour-swapped mirror image of a FEN (board flipped vertically, colours and side to move swapped).
    pub(crate) fn mirror_fen(fen: &str) -> String {
        let parts: Vec<&str> = fen.split_whitespace().collect();
        let swap = |c: char| if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        let board: Vec<String> = parts[0].split('/').rev().map(|r| r.chars().map(swap).collect()).collect();
        let turn = if parts[1] == "w" { "b" } else { "w" };
        let castling: String = if parts[2] == "-" {
            "-".into()
        } else {
            let mut c: Vec<char> = parts[2].chars().map(swap).collect();
            c.sort_by_key(|&x| (x.is_ascii_lowercase(), x));
            c.into_iter().collect()
        };
        let ep = if parts[3] == "-" {
            "-".to_string()
        } else {
            let b = parts[3].as_bytes();
            format!("{}{}", b[0] as char, (b'1' + b'8' - b[1]) as char)
        };
        format!("{} {} {} {} {} {}", board.join("/"), turn, castling, ep, parts[4], parts[5])
    }

    #[test]
    fn symmetric() {
        for fen in crate::bench::POSITIONS {
            let pos = Position::from_fen(fen).unwrap();
            let m = Position::from_fen(&mirror_fen(fen)).unwrap();
            assert_eq!(evaluate_white(&pos), -evaluate_white(&m), "{fen}");
            assert_eq!(evaluate(&pos), evaluate(&m), "{fen}");
        }
    }

    #[test]
    fn start_is_balanced_and_material_counts() {
        assert_eq!(evaluate_white(&Position::new()), 0);
        let up_queen = Position::from_fen("rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").unwrap();
        assert!(evaluate(&up_queen) > 800);
        let kk = Position::from_fen("8/8/4k3/8/8/2K5/8/8 w - - 0 1").unwrap();
        assert_eq!(evaluate_white(&kk), 0);
    }
}
