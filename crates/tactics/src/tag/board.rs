//! Small board helpers for the detectors: piece values, material balance, attack sets, static exchange in
//! pawn units, and the names of pieces in both languages.

use guoxiang_core::{Bitboard, Color, Move, Position, Role, Square, Text, attacks};
use guoxiang_engine::see::see;

/// The teaching value of a piece: P 1, N 3, B 3, R 5, Q 9 (the king counts as 100 so that it outranks everything).
pub fn value(r: Role) -> i32 {
    match r {
        Role::Pawn => 1,
        Role::Knight | Role::Bishop => 3,
        Role::Rook => 5,
        Role::Queen => 9,
        Role::King => 100,
    }
}

/// The value of the piece on `sq` (0 when empty).
pub fn value_at(pos: &Position, sq: Square) -> i32 {
    pos.role_at(sq).map_or(0, value)
}

/// `c`'s material minus the other side's, kings not counted.
pub fn balance(pos: &Position, c: Color) -> i32 {
    let side = |c: Color| -> i32 {
        [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen]
            .iter()
            .map(|&r| value(r) * pos.pieces(c, r).count() as i32)
            .sum()
    };
    side(c) - side(!c)
}

/// The squares the piece on `sq` attacks with the board as it stands (empty when there is no piece).
pub fn attacks_of(pos: &Position, sq: Square) -> Bitboard {
    match pos.piece_at(sq) {
        Some(p) => attacks::attacks(p.role, p.color, sq, pos.occupied()),
        None => Bitboard::EMPTY,
    }
}

/// Whether the piece on `sq` is a bishop, rook or queen.
pub fn is_slider(pos: &Position, sq: Square) -> bool {
    matches!(pos.role_at(sq), Some(Role::Bishop | Role::Rook | Role::Queen))
}

/// Whether a slider of role `r` moves along the line from `a` to `b`.
pub fn slides_between(r: Role, a: Square, b: Square) -> bool {
    if a == b || attacks::line(a, b).is_empty() {
        return false;
    }
    let straight = a.file() == b.file() || a.rank() == b.rank();
    match r {
        Role::Rook => straight,
        Role::Bishop => !straight,
        Role::Queen => true,
        _ => false,
    }
}

/// Static exchange of `m` in pawn units (rounded down).
pub fn see_units(pos: &Position, m: Move) -> i32 {
    see(pos, m).div_euclid(100)
}

/// The best static exchange, in pawn units, of any capture on `sq` by the side to move (None: no capture).
pub fn best_capture_on(pos: &Position, sq: Square) -> Option<i32> {
    let attackers = pos.attackers_to(sq, pos.turn(), pos.occupied());
    attackers
        .filter_map(|from| {
            let m = normal_or_promotion(pos, from, sq);
            pos.is_legal(m).then(|| see_units(pos, m))
        })
        .max()
}

/// The move from `from` to `to`, promoting to a queen when a pawn reaches the last rank.
pub fn normal_or_promotion(pos: &Position, from: Square, to: Square) -> Move {
    if pos.role_at(from) == Some(Role::Pawn)
        && (to.rank() == Color::White.promotion_rank() || to.rank() == Color::Black.promotion_rank())
    {
        Move::promotion(from, to, Role::Queen)
    } else {
        Move::normal(from, to)
    }
}

/// The square a piece stands on after `m` (the king's square for castling).
pub fn dest(m: Move) -> Square {
    if m.is_castle() { m.king_to() } else { m.to() }
}

/// The position with the turn passed to the other side (None when the side to move is in check).
pub fn passed(pos: &Position) -> Option<Position> {
    if pos.is_check() {
        return None;
    }
    let mut p = pos.clone();
    p.play_null();
    Some(p)
}

/// Whether the side to move has a mate in one.
pub fn has_mate_in_one(pos: &Position) -> bool {
    pos.legal_moves().iter().any(|&m| pos.after(m).is_checkmate())
}

fn zh_color(c: Color) -> &'static str {
    c.fold("白", "黑")
}

/// "白马 c7" for the piece on `sq` (or just the square when it is empty).
pub fn zh(pos: &Position, sq: Square) -> String {
    match pos.piece_at(sq) {
        Some(p) => format!("{}{} {}", zh_color(p.color), p.role.zh_char(), sq.name()),
        None => sq.name(),
    }
}

/// "the white knight on c7" for the piece on `sq` (or "c7" when it is empty).
pub fn en(pos: &Position, sq: Square) -> String {
    match pos.piece_at(sq) {
        Some(p) => format!("the {} {} on {}", p.color.name(), p.role.name(), sq.name()),
        None => sq.name(),
    }
}

/// A sentence in both languages.
pub fn text(zh: String, en: String) -> Text {
    Text { zh, en }
}

/// Capitalises the first letter of an English sentence.
pub fn cap(s: String) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => s,
    }
}
