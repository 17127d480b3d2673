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

/// Iterative-deepening depth-first search for short helpmates (the mates that a best-first search guided by the king's
/// distance to the edge finds late in middle games: a queen's check against a king boxed in by its own pieces). At
/// the winner's last move only checks are tried; every other move is tried, the winner's checks and captures first.
/// Positions are remembered with the depth already searched below them. Returns the first line found within
/// `max_plies` plies and `budget` positions.
pub(crate) fn short_mating_line(root: &Position, winner: Color, max_plies: u32, budget: usize) -> Option<Vec<Move>> {
    if root.turn() == !winner && root.is_checkmate() {
        return Some(Vec::new());
    }
    let mut nodes = 0usize;
    let mut line = Vec::new();
    let mut done: std::collections::HashMap<PosKey, u32, std::hash::BuildHasherDefault<super::key::ZobristHasher>> =
        Default::default();
    // The winner moves on odd plies counted from the root when it is to move, on even plies otherwise: a line that
    // ends with the winner's move has an odd length when the winner moves first.
    let first = u32::from(root.turn() != winner);
    let mut depth = 1 + first;
    while depth <= max_plies {
        done.clear();
        if short_dfs(root, winner, depth, &mut line, &mut nodes, budget, &mut done) {
            return Some(line);
        }
        if nodes >= budget {
            return None;
        }
        depth += 2;
    }
    None
}

#[allow(clippy::too_many_arguments)]
fn short_dfs(
    p: &Position,
    winner: Color,
    left: u32,
    line: &mut Vec<Move>,
    nodes: &mut usize,
    budget: usize,
    done: &mut std::collections::HashMap<PosKey, u32, std::hash::BuildHasherDefault<super::key::ZobristHasher>>,
) -> bool {
    *nodes += 1;
    if *nodes >= budget || left == 0 {
        return false;
    }
    let key = PosKey::of(p);
    if done.get(&key).is_some_and(|&d| d >= left) {
        return false;
    }
    done.insert(key, left);
    let moves = p.legal_moves();
    let lk = p.king(!winner);
    if p.turn() == winner {
        let mut ordered: Vec<(i32, Move, Position)> = Vec::with_capacity(moves.len());
        for &m in &moves {
            let child = p.after(m);
            let check = child.is_check();
            if left == 1 && !check {
                continue;
            }
            if check && !child.has_legal_move() {
                line.push(m);
                return true;
            }
            let score = i32::from(check) * 100 + i32::from(p.is_capture(m)) * 10 - m.to().distance(lk) as i32;
            ordered.push((score, m, child));
        }
        if left == 1 {
            return false;
        }
        ordered.sort_by_key(|(s, _, _)| -s);
        for (_, m, child) in ordered {
            line.push(m);
            if short_dfs(&child, winner, left - 1, line, nodes, budget, done) {
                return true;
            }
            line.pop();
        }
    } else {
        if left < 2 {
            return false;
        }
        for &m in &moves {
            let child = p.after(m);
            if child.has_insufficient_material(winner) {
                continue;
            }
            line.push(m);
            if short_dfs(&child, winner, left - 1, line, nodes, budget, done) {
                return true;
            }
            line.pop();
        }
    }
    false
}
