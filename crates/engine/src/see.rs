//! Static exchange evaluation: the material balance of the capture sequence on one square when both sides always
//! recapture with their least valuable piece and may stop when continuing would lose. X-rays through the capturing
//! sliders are found; pins are ignored.

use crate::params::SEE_VALUE;
use guoxiang_core::attacks;
use guoxiang_core::{Bitboard, Color, Move, Position, Role};

/// The value a move gains by static exchange (the captured piece, less what the opponent wins back).
pub fn see(pos: &Position, m: Move) -> i32 {
    if m.is_castle() {
        return 0;
    }
    let from = m.from();
    let to = m.to();
    let Some(mut on_square) = pos.role_at(from) else {
        return 0;
    };
    let mut occ = pos.occupied() ^ from;
    let mut gain = [0i32; 40];
    gain[0] = if m.is_en_passant() {
        occ ^= guoxiang_core::Square::from_coords(to.file(), from.rank());
        SEE_VALUE[Role::Pawn.index()]
    } else {
        pos.role_at(to).map_or(0, |r| SEE_VALUE[r.index()])
    };
    if let Some(promo) = m.promotion_role() {
        gain[0] += SEE_VALUE[promo.index()] - SEE_VALUE[Role::Pawn.index()];
        on_square = promo;
    }
    let bq = pos.by_role(Role::Bishop) | pos.by_role(Role::Queen);
    let rq = pos.by_role(Role::Rook) | pos.by_role(Role::Queen);
    let mut attackers = (pos.attackers_to(to, Color::White, occ) | pos.attackers_to(to, Color::Black, occ)) & occ;
    let mut side = !pos.turn();
    let mut d = 0;
    loop {
        let mine = attackers & pos.by_color(side);
        if mine.is_empty() || d + 1 >= gain.len() {
            break;
        }
        let Some((role, sq)) = least_valuable(pos, mine) else { break };
        if role == Role::King && (attackers & pos.by_color(!side) & !Bitboard::from_square(sq)).any() {
            break; // the king may not capture into a defended square
        }
        d += 1;
        gain[d] = SEE_VALUE[on_square.index()] - gain[d - 1];
        on_square = role;
        occ ^= sq;
        attackers = (attackers | (attacks::bishop_attacks(to, occ) & bq) | (attacks::rook_attacks(to, occ) & rq)) & occ;
        side = !side;
    }
    while d > 0 {
        gain[d - 1] = -(-gain[d - 1]).max(gain[d]);
        d -= 1;
    }
    gain[0]
}

/// Whether the static exchange value of `m` is at least `threshold`.
#[inline]
pub fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    see(pos, m) >= threshold
}

fn least_valuable(pos: &Position, set: Bitboard) -> Option<(Role, guoxiang_core::Square)> {
    for role in Role::ALL {
        if let Some(sq) = (set & pos.by_role(role)).first() {
            return Some((role, sq));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see_of(fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        let m = pos.parse_uci(uci).unwrap();
        see(&pos, m)
    }

    #[test]
    fn known_values() {
        // Pawn takes an undefended knight.
        assert_eq!(see_of("4k3/8/8/3n4/4P3/8/8/4K3 w - - 0 1", "e4d5"), 320);
        // Rook takes a pawn defended by a pawn: loses the exchange for a pawn.
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "e1e5"), 100);
        // Queen takes a defended pawn: loses the queen for a pawn.
        assert_eq!(see_of("4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1", "e1e5"), 100 - 950);
        // Knight takes pawn defended by a pawn: 100 - 320.
        assert_eq!(see_of("4k3/8/3p4/4p3/8/5N2/8/4K3 w - - 0 1", "f3e5"), 100 - 320);
        // Knight takes defended pawn, backed by a rook x-ray: the classic example.
        assert_eq!(see_of("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "d3e5"), 100 - 320);
        // Quiet move onto an attacked square: the piece is lost.
        assert_eq!(see_of("4k3/8/8/8/3p4/8/8/2R1K3 w - - 0 1", "c1c3"), -500);
        assert_eq!(see_of("4k3/8/8/8/3p4/8/8/2R1K3 w - - 0 1", "c1c2"), 0);
        // Rook behind rook (x-ray) wins the defended rook: R takes R, recapture, R retakes.
        assert_eq!(see_of("3r4/3r4/8/8/8/8/3R4/3RK2k w - - 0 1", "d2d7"), 500);
        // En passant.
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "e5d6"), 100);
        // Promotion without a defender gains queen minus pawn.
        assert_eq!(see_of("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q"), 850);
    }
}
