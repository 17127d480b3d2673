//! The motif tagger: a puzzle, or any forcing line, → the motifs it teaches, each with one sentence about the
//! position (zh and en) naming pieces and squares ("白马 e7 同时攻击王和车。").
//!
//! Pure and fast: no search, only the rules core, attack maps and static exchange on the positions of the line.
//! Only the solver's moves are judged (the opponent's replies are taken as given); material is judged with attack
//! maps right after a move, mates on the final position. docs/puzzles/tagger.md states each definition in one
//! sentence and measures them against lichess's own themes.

mod board;
mod detect;
mod mates;
mod tactics;

use guoxiang_core::{Color, Move, Position, Text};

use crate::{Motif, Puzzle};

/// One motif found in a line, with a sentence about the position ("白马 e7 同时攻击王和车").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tag {
    pub motif: Motif,
    pub text: Text,
}

/// The motifs of a puzzle (its setup move included), one [`Tag`] per motif, in catalogue order.
pub fn tag(p: &Puzzle) -> Vec<Tag> {
    tag_line(&p.position, Some(p.moves[0]), p.solution())
}

/// The motifs of a forcing line, one [`Tag`] per motif, in catalogue order.
///
/// * With `setup = Some(m)`, `before` is the position **before** `m` (the opponent's last move, as in a lichess
///   puzzle or a game position before its last move) and the solver plays `line[0]` in `before.after(m)`.
/// * With `setup = None`, `before` is the position the solver faces and `line[0]` is played in it.
///
/// `line` alternates solver and opponent moves. Moves are checked: the line is read up to its first illegal move,
/// and an illegal `setup` yields no tags at all.
pub fn tag_line(before: &Position, setup: Option<Move>, line: &[Move]) -> Vec<Tag> {
    let Some(l) = Line::new(before, setup, line) else { return Vec::new() };
    let mut found = all(&l);
    found.sort_by_key(|t| t.motif);
    found.dedup_by_key(|t| t.motif);
    found
}

/// Every motif found in the line.
fn all(l: &Line) -> Vec<Tag> {
    if l.moves.is_empty() {
        return Vec::new();
    }
    let f = detect::Facts::new(l);
    let mut out = Vec::new();
    mates::all(l, &f, &mut out);
    detect::special(l, &mut out);
    detect::checks(l, &mut out);
    tactics::all(l, &f, &mut out);
    out
}

/// Just the motifs of [`tag`].
pub fn motifs(p: &Puzzle) -> Vec<Motif> {
    tag(p).into_iter().map(|t| t.motif).collect()
}

/// A line prepared for the detectors: every position of it, and the move that led to the start, if known.
pub(crate) struct Line {
    /// The solver's colour.
    pub pov: Color,
    /// The position before the setup move, and the setup move.
    pub setup: Option<(Position, Move)>,
    /// `boards[i]` is the position in which `moves[i]` is played; `boards[moves.len()]` the final one.
    pub boards: Vec<Position>,
    pub moves: Vec<Move>,
}

impl Line {
    fn new(before: &Position, setup: Option<Move>, line: &[Move]) -> Option<Line> {
        let (start, setup) = match setup {
            Some(m) if before.is_legal(m) => (before.after(m), Some((before.clone(), m))),
            Some(_) => return None,
            None => (before.clone(), None),
        };
        let mut boards = Vec::with_capacity(line.len() + 1);
        let mut moves = Vec::with_capacity(line.len());
        let pov = start.turn();
        boards.push(start);
        for &m in line {
            let pos = &boards[boards.len() - 1];
            if !pos.is_legal(m) {
                break;
            }
            let next = pos.after(m);
            moves.push(m);
            boards.push(next);
        }
        Some(Line { pov, setup, boards, moves })
    }

    /// The ply indices of the solver's moves.
    pub fn solver_plies(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.moves.len()).step_by(2)
    }

    /// The position before ply `i`.
    pub fn before(&self, i: usize) -> &Position {
        &self.boards[i]
    }

    /// The position after ply `i`.
    pub fn after(&self, i: usize) -> &Position {
        &self.boards[i + 1]
    }

    /// The move before ply `i` (the setup move before ply 0), with the position it was played in.
    pub fn prev(&self, i: usize) -> Option<(&Position, Move)> {
        if i == 0 { self.setup.as_ref().map(|(p, m)| (p, *m)) } else { Some((&self.boards[i - 1], self.moves[i - 1])) }
    }

    /// The final position.
    pub fn last(&self) -> &Position {
        &self.boards[self.boards.len() - 1]
    }

    /// The number of the solver's moves.
    pub fn solver_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }
}
