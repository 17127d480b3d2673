//! The detectors: one function per motif (or family), each a chess statement checked on the positions of the
//! line with attack maps and static exchange (docs/puzzles/tagger.md states them in one sentence each). This file
//! has the facts and helpers the detectors share and the special-move and check detectors; `mates` and `tactics`
//! have the others, and `all` in `tag` (mod.rs) runs them in turn.

use guoxiang_core::{Bitboard, Position, Role, Square, attacks};

use super::Line;
use super::board::{balance, best_capture_on, cap, en, passed, see_units, text, value, value_at, zh};
use crate::Motif;
use crate::tag::Tag;

/// Facts about the whole line that several detectors share.
pub(crate) struct Facts {
    /// Material gain of the solver from the start to the end of the line.
    pub gain: i32,
    /// The line ends in checkmate given by the solver.
    pub mate: bool,
    /// The line ends in mate, wins at least two points of material, promotes, or ends on a solver move without
    /// having lost material (a puzzle line is taken to be winning: the checker sees to that).
    pub wins: bool,
}

impl Facts {
    pub(crate) fn new(l: &Line) -> Facts {
        let gain = balance(l.last(), l.pov) - balance(&l.boards[0], l.pov);
        let mate = l.last().is_checkmate() && l.moves.len() % 2 == 1;
        let promotes = l.solver_plies().any(|i| l.moves[i].is_promotion());
        let ends_on_solver = l.moves.len() % 2 == 1;
        Facts { gain, mate, wins: mate || gain >= 2 || promotes || (ends_on_solver && gain >= 0) }
    }
}

pub(crate) fn push(out: &mut Vec<Tag>, motif: Motif, zh: String, en: String) {
    out.push(Tag { motif, text: text(zh, cap(en)) });
}

/// Promotion, under-promotion, en passant and castling by the solver.
pub(crate) fn special(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        let (pos, m) = (l.before(i), l.moves[i]);
        if let Some(r) = m.promotion_role() {
            let (z, e) = (zh(pos, m.from()), en(pos, m.from()));
            let to = m.to().name();
            push(
                out,
                Motif::Promotion,
                format!("{z}走到 {to} 升变为{}。", r.zh_char()),
                format!("{e} promotes on {to} to a {}.", r.name()),
            );
            if r != Role::Queen {
                push(
                    out,
                    Motif::UnderPromotion,
                    format!("{z}在 {to} 升变为{}而不是后。", r.zh_char()),
                    format!("{e} promotes on {to} to a {}, not a queen.", r.name()),
                );
            }
        }
        if m.is_en_passant() {
            push(
                out,
                Motif::EnPassant,
                format!("{}吃过路兵，走到 {}。", zh(pos, m.from()), m.to().name()),
                format!("{} takes en passant on {}.", en(pos, m.from()), m.to().name()),
            );
        }
        if m.is_castle() {
            let side = if m.is_kingside_castle() { ("短", "kingside") } else { ("长", "queenside") };
            push(
                out,
                Motif::Castling,
                format!("{}方{}易位（王车易位），王到 {}。", l.pov.fold("白", "黑"), side.0, m.king_to().name()),
                format!("{} castles {}, the king going to {}.", l.pov.name(), side.1, m.king_to().name()),
            );
        }
    }
}

/// Double check, discovered check and cross-check after the solver's moves.
pub(crate) fn checks(l: &Line, out: &mut Vec<Tag>) {
    for i in l.solver_plies() {
        let (pos, m, after) = (l.before(i), l.moves[i], l.after(i));
        let checkers = after.checkers();
        if checkers.is_empty() {
            continue;
        }
        let moved = if m.is_castle() { m.castle_rook_to() } else { m.to() };
        let king = after.king(!l.pov);
        if checkers.more_than_one() {
            let names: Vec<Square> = checkers.collect();
            push(
                out,
                Motif::DoubleCheck,
                format!("{}和{}同时将军，{}只能走动。", zh(after, names[0]), zh(after, names[1]), zh(after, king)),
                format!(
                    "{} and {} give check at once; {} must move.",
                    en(after, names[0]),
                    en(after, names[1]),
                    en(after, king)
                ),
            );
        }
        if let Some(s) = checkers.without(moved).first() {
            push(
                out,
                Motif::DiscoveredCheck,
                format!("{}从 {} 走开，{}闪将。", zh(pos, m.from()), m.from().name(), zh(after, s)),
                format!("{} leaves {} and uncovers a check by {}.", en(pos, m.from()), m.from().name(), en(after, s)),
            );
        }
        if pos.is_check() {
            push(
                out,
                Motif::CrossCheck,
                format!("{}应将的同时反将一军。", zh(pos, m.from())),
                format!("{} answers the check with a check.", en(pos, m.from())),
            );
        }
    }
}

/// The squares next to `sq`.
pub(crate) fn around(sq: Square) -> Bitboard {
    attacks::king_attacks(sq)
}

/// Whether the enemy piece on `t` is a target for the solver's piece on `from` in `pos` (the opponent to move):
/// the king, a piece worth more than the attacker, or one it would win by static exchange.
pub(crate) fn is_target(pos: &Position, from: Square, t: Square) -> bool {
    let Some(r) = pos.role_at(t) else { return false };
    let mover = value_at(pos, from);
    if r == Role::King || value(r) > mover {
        return true;
    }
    if r == Role::Pawn {
        return false;
    }
    match passed(pos) {
        Some(p) => {
            let m = super::board::normal_or_promotion(&p, from, t);
            p.is_legal(m) && see_units(&p, m) >= 1
        }
        None => !pos.is_attacked(t, pos.turn()),
    }
}

/// Whether the solver's piece on `sq` (opponent to move) can be taken at a profit.
pub(crate) fn loses_piece(pos: &Position, sq: Square) -> bool {
    best_capture_on(pos, sq).is_some_and(|g| g >= 1)
}
