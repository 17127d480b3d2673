//! Mates by length and by pattern, and the drawing resources (stalemate, perpetual check).

use guoxiang_core::{Bitboard, Role};

use super::Line;
use super::board::{en, zh};
use super::detect::{Facts, around, push};
use crate::Motif;
use crate::tag::Tag;

pub(crate) fn all(l: &Line, f: &Facts, out: &mut Vec<Tag>) {
    drawing(l, out);
    if !f.mate {
        return;
    }
    let last = l.last();
    let m = l.moves[l.moves.len() - 1];
    let n = l.solver_moves();
    let by = (zh(l.before(l.moves.len() - 1), m.from()), en(l.before(l.moves.len() - 1), m.from()));
    let mated = !l.pov;
    let king = last.king(mated);
    let kz = zh(last, king);
    let ke = en(last, king);
    push(
        out,
        Motif::Mate,
        format!("{}走到 {} 将死{kz}。", by.0, m.to().name()),
        format!("{} mates {ke} on {}.", by.1, m.to().name()),
    );
    let by_n = match n {
        1 => Some(Motif::MateIn1),
        2 => Some(Motif::MateIn2),
        3 => Some(Motif::MateIn3),
        4 => Some(Motif::MateIn4),
        5 => Some(Motif::MateIn5),
        _ => Some(Motif::MateLong),
    };
    if let Some(mn) = by_n {
        push(
            out,
            mn,
            format!("{n} 步杀：最后{}将死{kz}。", by.0),
            format!("Mate in {n}: {} finally mates {ke}.", by.1),
        );
    }
    let checkers = last.checkers();
    let own = last.by_color(mated);
    let ring = around(king);
    // Back rank: a rook or queen mates along the king's own back rank, and the squares in front hold its own men,
    // none of them attacked by the mating side (they, not the attacker, take the king's flight).
    if king.rank() == mated.back_rank() {
        let forward = ring & !Bitboard::from_rank(mated.back_rank());
        let on_rank = checkers.into_iter().all(|c| {
            c.rank() == king.rank()
                && matches!(last.role_at(c), Some(Role::Rook | Role::Queen))
                && c.distance(king) >= 2
        });
        // Hemmed in by its own men only: every square in front holds one, and the mating side attacks none of them.
        let hemmed = forward.into_iter().all(|s| own.contains(s) && !last.is_attacked(s, !mated));
        if on_rank && forward.any() && hemmed {
            push(
                out,
                Motif::BackRankMate,
                format!("{}在底线将死{kz}，王被自己的子挡住了去路。", by.0),
                format!("{} mates {ke} on the back rank, its own men blocking its way out.", by.1),
            );
        }
    }
    // Smothered: a knight mates a king whose neighbours are all its own men.
    if checkers.into_iter().all(|c| last.role_at(c) == Some(Role::Knight)) && (ring & !own).is_empty() {
        push(
            out,
            Motif::SmotheredMate,
            format!("{}闷杀{kz}：王四周都是自己的子。", by.0),
            format!("{} smothers {ke}: every square around it holds its own men.", by.1),
        );
    }
    // Self-block: a neighbour of the mated king holds its own piece that moved there during the line.
    for i in (1..l.moves.len()).step_by(2) {
        let to = l.moves[i].to();
        if ring.contains(to) && last.color_at(to) == Some(mated) && last.role_at(to) != Some(Role::King) {
            push(
                out,
                Motif::SelfBlock,
                format!("{}走到 {} 堵住了自己王的退路。", zh(last, to), to.name()),
                format!("{} went to {} and blocks its own king's flight.", en(last, to), to.name()),
            );
            break;
        }
    }
}

/// Stalemate at the end of the line, or checks without end.
fn drawing(l: &Line, out: &mut Vec<Tag>) {
    let last = l.last();
    if last.is_stalemate() {
        let stuck = last.turn();
        push(
            out,
            Motif::StalemateTrick,
            format!("{}无子可动，成逼和。", stuck.fold("白方", "黑方")),
            format!("{} has no legal move: stalemate.", stuck.name()),
        );
    }
    let plies: Vec<usize> = l.solver_plies().collect();
    if plies.len() >= 3 && !last.is_checkmate() && plies.iter().all(|&i| l.after(i).is_check()) {
        let repeats =
            (0..l.boards.len()).any(|a| (a + 1..l.boards.len()).any(|b| l.boards[a].hash() == l.boards[b].hash()));
        if repeats || balance_behind(l) {
            push(
                out,
                Motif::PerpetualCheck,
                format!("{}方不停将军，对方无法摆脱，成长将和棋。", l.pov.fold("白", "黑")),
                format!("{} checks without end: a perpetual check.", l.pov.name()),
            );
        }
    }
}

fn balance_behind(l: &Line) -> bool {
    super::board::balance(&l.boards[0], l.pov) <= -3
}
