//! Finding a helpmate: a series of legal moves, both sides cooperating, that ends with a given side giving
//! checkmate. It is the evidence behind "the opponent can still mate" (Article 6.9) when a flag falls.
//!
//! Best-first search: positions wait in a priority queue ordered by the number of moves so far plus a guess of how far
//! the position is from a mate (loser's king far from the edge and corners, free flight squares around it, the
//! mating side's units far from it, and — without a queen or rook — pawns far from promotion). Every position is
//! visited once (exact keys); the search stops at the first mate or after `budget` positions. The guess only orders
//! the search: any line returned is checked move by move to be legal and to end in mate.

use super::key::{KeySet, PosKey};
use crate::attacks;
use crate::mv::Move;
use crate::position::Position;
use crate::types::{Color, Role, Square};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Edge distance of a square: 0 in a corner, up to 6 in the centre (distance to the nearest edge, on both axes).
fn corner_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f) + r.min(7 - r)
}

/// Distance to the nearest edge: 0 on the rim, 3 in the centre.
fn edge_distance(sq: Square) -> i32 {
    let f = sq.file() as i32;
    let r = sq.rank() as i32;
    f.min(7 - f).min(r).min(7 - r)
}

/// How far `p` seems from `winner` giving mate (smaller is closer).
fn guess(p: &Position, winner: Color) -> i32 {
    let loser = !winner;
    let lk = p.king(loser);
    let wk = p.king(winner);
    let pieces = p.by_color(winner) & !p.by_role(Role::King) & !p.by_role(Role::Pawn);
    let mut h;
    if pieces.count() <= 2 {
        // Endings: drive the king to a corner, bring the winner's king (and everything else) close.
        h = 2 * corner_distance(lk) + 2 * (wk.distance(lk) as i32 - 2).abs();
    } else {
        // With more pieces about, any edge will do and the king stays out of it.
        h = 2 * edge_distance(lk);
    }
    for sq in pieces {
        h += sq.distance(lk) as i32;
    }
    if p.turn() == loser && p.is_check() {
        h -= 4;
    }
    for n in attacks::king_attacks(lk) {
        if !p.by_color(loser).contains(n) && !p.is_attacked(n, winner) {
            h += 3;
        }
    }
    let heavy = p.pieces(winner, Role::Queen) | p.pieces(winner, Role::Rook);
    if heavy.is_empty() {
        let pawns = p.pieces(winner, Role::Pawn);
        let to_go = pawns
            .into_iter()
            .map(|s| {
                let r = s.rank() as i32;
                winner.fold(7 - r, r)
            })
            .min();
        if let Some(d) = to_go {
            h += 4 * d;
        }
    }
    h
}

/// A visited position, kept as the move that led to it (positions are rebuilt by replaying from the root, so the
/// queue costs a few bytes per position).
struct Node {
    parent: u32,
    mv: Option<Move>,
    depth: u32,
}

impl Position {
    /// A series of legal moves from this position (both sides' moves, starting with the side to move) that ends with
    /// `winner` checkmating the opponent, looking at no more than `budget` positions; `None` if none was found (which
    /// proves nothing: use [`Position::can_mate`] for the question itself). An empty line means the position is
    /// already checkmate against `winner`'s opponent.
    pub fn mating_line(&self, winner: Color, budget: usize) -> Option<Vec<Move>> {
        let loser = !winner;
        if self.turn() == loser && self.is_checkmate() {
            return Some(Vec::new());
        }
        if self.has_insufficient_material(winner) {
            return None;
        }
        let mut nodes = vec![Node { parent: u32::MAX, mv: None, depth: 0 }];
        let mut seen = KeySet::default();
        seen.insert(PosKey::of(self));
        let mut queue = BinaryHeap::new();
        queue.push(Reverse((guess(self, winner), 0u32)));
        let mut expanded = 0usize;
        while let Some(Reverse((_, idx))) = queue.pop() {
            expanded += 1;
            if expanded > budget {
                return None;
            }
            let mut p = self.clone();
            for m in line_to(&nodes, idx) {
                p.play_unchecked(m);
            }
            let depth = nodes[idx as usize].depth;
            for &m in &p.legal_moves() {
                let child = p.after(m);
                if !seen.insert(PosKey::of(&child)) {
                    continue;
                }
                let mate = child.turn() == loser && child.is_check() && !child.has_legal_move();
                // Lines where the winner can no longer mate lead nowhere.
                if !mate && child.has_insufficient_material(winner) {
                    continue;
                }
                let f = guess(&child, winner) + depth as i32 + 1;
                nodes.push(Node { parent: idx, mv: Some(m), depth: depth + 1 });
                let child_idx = (nodes.len() - 1) as u32;
                if mate {
                    return Some(line_to(&nodes, child_idx));
                }
                queue.push(Reverse((f, child_idx)));
            }
        }
        None
    }
}

fn line_to(nodes: &[Node], mut idx: u32) -> Vec<Move> {
    let mut line = Vec::new();
    while idx != u32::MAX {
        let n = &nodes[idx as usize];
        if let Some(m) = n.mv {
            line.push(m);
        }
        idx = n.parent;
    }
    line.reverse();
    line
}
