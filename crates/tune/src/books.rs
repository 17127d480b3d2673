//! Books apart (issue 44): a test book whose openings no training step ever reaches.
//!
//! `datagen` starts each self-play game from a position of the training book followed by `random_plies` random
//! legal moves. A test line is kept only when none of its positions from `from_ply` on (the training book's own
//! depth: every book shares the first moves of chess with every other) is a training-book position or a position
//! `datagen` can reach from one in up to `random_plies` plies, compared by the Zobrist hash (equal for equal
//! positions in the sense of Article 9.2), so transpositions count too. What it cannot see is where the self-play
//! games wander afterwards; `check_data` compares the training positions themselves with the test lines once the
//! data exists.

use std::collections::HashMap;

use guoxiang_core::Position;

/// The test lines touched by the training openings: for each line, `Some(ply)` of its first position (from
/// `from_ply` on) that a training game can start from or pass through before its first searched move, `None` when
/// the line is apart. `progress` is called with the number of training positions done.
pub fn touched(
    training: &[Position],
    random_plies: u32,
    lines: &[Vec<Position>],
    from_ply: usize,
    progress: &mut dyn FnMut(usize),
) -> Vec<Option<usize>> {
    // Every position of every line from `from_ply` on, by hash: the line and the ply.
    let mut at: HashMap<u64, Vec<(usize, usize)>> = HashMap::new();
    for (l, line) in lines.iter().enumerate() {
        for (ply, pos) in line.iter().enumerate().skip(from_ply.max(1)) {
            at.entry(pos.hash()).or_default().push((l, ply));
        }
    }
    let mut first: Vec<Option<usize>> = vec![None; lines.len()];
    let mut mark = |h: u64| {
        if let Some(hits) = at.get(&h) {
            for &(l, ply) in hits {
                if first[l].is_none_or(|p| ply < p) {
                    first[l] = Some(ply);
                }
            }
        }
    };
    for (i, pos) in training.iter().enumerate() {
        reach(pos, random_plies, &mut mark);
        if i % 1024 == 1023 {
            progress(i + 1);
        }
    }
    progress(training.len());
    first
}

/// Calls `f` with the hash of `pos` and of every position reachable from it in up to `plies` legal moves.
fn reach(pos: &Position, plies: u32, f: &mut dyn FnMut(u64)) {
    f(pos.hash());
    if plies == 0 {
        return;
    }
    for &m in pos.legal_moves().as_slice() {
        reach(&pos.after(m), plies - 1, f);
    }
}

/// The first training position (by its place in `data`, one FEN per item) that is a position of a test line.
pub fn check_data<'a>(data: impl Iterator<Item = &'a Position>, lines: &[Vec<Position>]) -> Option<(usize, usize)> {
    let mut at: HashMap<u64, usize> = HashMap::new();
    for (l, line) in lines.iter().enumerate() {
        for pos in line.iter().skip(1) {
            at.insert(pos.hash(), l);
        }
    }
    data.enumerate().find_map(|(i, p)| at.get(&p.hash()).map(|&l| (i, l)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(sans: &[&str]) -> Vec<Position> {
        let mut pos = Position::new();
        let mut out = vec![pos.clone()];
        for san in sans {
            pos.play_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
            out.push(pos.clone());
        }
        out
    }

    #[test]
    fn a_line_through_a_training_position_or_two_random_plies_from_one_is_touched() {
        let training = vec![line(&["e4", "e5", "Nf3", "Nc6"]).pop().unwrap()];
        let lines = vec![
            // Through the training position itself (after 4 plies).
            line(&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]),
            // Through it by another order of moves.
            line(&["Nf3", "Nc6", "e4", "e5", "Bc4", "Bc5"]),
            // Never through it, but through a position two plies past it (Bc4 Bc5 played first): datagen can
            // start a game there.
            line(&["e4", "e5", "Bc4", "Bc5", "Nf3", "Nc6", "c3", "Nf6"]),
            // Elsewhere.
            line(&["d4", "d5", "c4", "e6"]),
        ];
        let mut calls = 0;
        let t = touched(&training, 2, &lines, 4, &mut |_| calls += 1);
        assert_eq!(t, vec![Some(4), Some(4), Some(6), None]);
        assert!(calls >= 1);
        // From the first ply, two random plies also go back: Ng1 Nb8 from the training position is the position
        // after 1.e4 e5 — which is why the comparison starts at the training book's depth.
        assert_eq!(touched(&training, 2, &lines, 1, &mut |_| {})[0], Some(2));
        // With no random plies only the training position itself counts, by any order of moves.
        assert_eq!(touched(&training, 0, &lines, 4, &mut |_| {}), vec![Some(4), Some(4), None, None]);
    }

    #[test]
    fn the_training_data_is_checked_position_by_position() {
        let lines = vec![line(&["d4", "d5", "c4", "e6"])];
        let data = line(&["e4", "e5"]);
        assert_eq!(check_data(data.iter(), &lines), None);
        let qgd = line(&["c4", "e6", "d4", "d5"]);
        assert_eq!(check_data(qgd.iter(), &lines), Some((4, 0)), "the queen's gambit by transposition");
    }
}
