//! Is a piece safe? A small static exchange evaluation (our own) for goal `safe` and for naming the guard of a
//! square in `stars` steps with `guarded = true`.
//!
//! The exchange on a square: the opponent captures with its least valuable attacker, the owner recaptures with its
//! least valuable one, and so on, each side free to stop when going on would lose material. Piece values are
//! 1 (pawn), 3 (knight, bishop), 5 (rook), 9 (queen). Attackers are found with the rules core's
//! `Position::attackers_to` against the board with the pieces already used taken off, so a piece behind another
//! on the same line (a battery: rook behind rook, queen behind bishop) joins in once the front one has captured.
//! Pins, checks, en passant and promotions are not looked at: a pinned piece counts as an attacker, and a capture
//! that would leave the capturer's own king in check is counted like any other. A king captures only when the
//! other side has no attacker left on the square.

use guoxiang_core::{Bitboard, Color, Position, Role, Square};

/// A piece's value in pawns: 1, 3, 3, 5, 9 (the king: more than everything else together, it is never captured).
pub fn value(role: Role) -> i32 {
    match role {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 1000,
    }
}

/// The least valuable piece of `pieces` (all of one colour), with its role.
fn least_valuable(pos: &Position, pieces: Bitboard) -> Option<(Square, Role)> {
    Role::ALL.iter().find_map(|&r| (pieces & pos.by_role(r)).first().map(|sq| (sq, r)))
}

/// The pieces of `side` that attack `sq` on `pos`'s board (pins not considered), cheapest first.
pub fn guards(pos: &Position, sq: Square, side: Color) -> Vec<(Square, Role)> {
    let mut v: Vec<(Square, Role)> =
        pos.attackers_to(sq, side, pos.occupied()).filter_map(|s| pos.role_at(s).map(|r| (s, r))).collect();
    v.sort_by_key(|&(s, r)| (value(r), s.index()));
    v
}

/// What `attacker` wins at best by starting the exchange on `sq` (0 when it had better not capture, or when no piece
/// of the other side stands there).
pub fn exchange_gain(pos: &Position, sq: Square, attacker: Color) -> i32 {
    let Some(victim) = pos.piece_at(sq) else { return 0 };
    if victim.color == attacker {
        return 0;
    }
    // captured[i]: the value taken by the i-th capture of the exchange.
    let mut captured: Vec<i32> = Vec::new();
    let mut occupied = pos.occupied();
    let mut on_square = value(victim.role);
    let mut side = attacker;
    loop {
        let attackers = pos.attackers_to(sq, side, occupied) & occupied;
        let Some((from, role)) = least_valuable(pos, attackers) else { break };
        let without = occupied.without(from);
        if role == Role::King && (pos.attackers_to(sq, !side, without) & without).any() {
            break;
        }
        captured.push(on_square);
        on_square = value(role);
        occupied = without;
        side = !side;
    }
    // Backwards: each side captures only if what it takes is worth more than what it then loses.
    captured.iter().rev().fold(0, |after, &taken| (taken - after).max(0))
}

/// The pieces of `side` (the king aside) that the opponent wins material on by the exchange, with the gain, in
/// square order.
pub fn pieces_in_danger(pos: &Position, side: Color) -> Vec<(Square, i32)> {
    (pos.by_color(side) & !pos.by_role(Role::King))
        .filter_map(|sq| {
            let g = exchange_gain(pos, sq, !side);
            (g > 0).then_some((sq, g))
        })
        .collect()
}

/// The name of a piece for the learner: ("黑马", "black knight").
pub fn piece_names(color: Color, role: Role) -> (String, String) {
    (format!("{}{}", color.fold('白', '黑'), role.zh_char()), format!("{} {}", color.name(), role.name()))
}
