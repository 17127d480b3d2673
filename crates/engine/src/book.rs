//! The low levels' opening: a small book of the common first moves of club and beginners' games, and in the first
//! moves out of it a preference for developing moves over the rim and the king's side pawns.
//!
//! A shallow search with noise has no feeling for the opening: level 1 answered 1.e4 with 1…a6 in every game (the
//! seed was the same in every game, too). People at these ratings play the main moves — 1…e5, 1…c5, 1…e6 — and
//! develop their pieces; their mistakes come later, as hung pieces and missed tactics. So the levels up to
//! [`BOOK_LEVEL_MAX`] take a book move while the game is in the book (a weighted choice by the search's seed, so
//! each game has its own opening), and until move [`OPENING_MOVES`] their choice among the search's candidates
//! leaves out the quiet moves of the rook's pawns, of a knight to the rim, of the king and of the rooks when a
//! developing move is among them. The full-strength search and the evaluation are untouched.

use std::collections::HashMap;
use std::sync::OnceLock;

use guoxiang_core::{File, Move, Position, Role};

/// The highest level that plays from the book (levels 1–5, up to 1550).
pub const BOOK_LEVEL_MAX: u8 = 5;

/// Until this full move the low levels prefer developing moves (see the module documentation).
pub const OPENING_MOVES: u32 = 8;

/// The book: each line is a space-separated sequence of moves in UCI from the standard start, the last one with its
/// weight (`move:weight`); the earlier moves make the position the last one is played in. Main moves of club games, weighted roughly as people
/// at these ratings play them.
const LINES: &[&str] = &[
    // White's first move.
    "e2e4:8",
    "d2d4:5",
    "g1f3:2",
    "c2c4:2",
    // 1.e4
    "e2e4 e7e5:10",
    "e2e4 c7c5:4",
    "e2e4 e7e6:3",
    "e2e4 c7c6:2",
    "e2e4 d7d5:2",
    "e2e4 b8c6:1",
    "e2e4 d7d6:1",
    "e2e4 g8f6:1",
    // 1.e4 e5
    "e2e4 e7e5 g1f3:10",
    "e2e4 e7e5 f1c4:3",
    "e2e4 e7e5 b1c3:2",
    "e2e4 e7e5 d2d4:1",
    "e2e4 e7e5 g1f3 b8c6:10",
    "e2e4 e7e5 g1f3 d7d6:2",
    "e2e4 e7e5 g1f3 g8f6:2",
    "e2e4 e7e5 g1f3 b8c6 f1c4:4",
    "e2e4 e7e5 g1f3 b8c6 f1b5:3",
    "e2e4 e7e5 g1f3 b8c6 d2d4:2",
    "e2e4 e7e5 g1f3 b8c6 b1c3:1",
    "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5:3",
    "e2e4 e7e5 g1f3 b8c6 f1c4 g8f6:3",
    "e2e4 e7e5 g1f3 b8c6 f1b5 a7a6:3",
    "e2e4 e7e5 g1f3 b8c6 f1b5 g8f6:2",
    "e2e4 e7e5 g1f3 b8c6 d2d4 e5d4:1",
    "e2e4 e7e5 g1f3 b8c6 b1c3 g8f6:1",
    "e2e4 e7e5 f1c4 g8f6:2",
    "e2e4 e7e5 f1c4 b8c6:2",
    "e2e4 e7e5 f1c4 f8c5:1",
    "e2e4 e7e5 b1c3 g8f6:1",
    "e2e4 e7e5 b1c3 b8c6:1",
    "e2e4 e7e5 d2d4 e5d4:1",
    // 1.e4 and the other replies
    "e2e4 c7c5 g1f3:4",
    "e2e4 c7c5 b1c3:2",
    "e2e4 c7c5 c2c3:1",
    "e2e4 c7c5 g1f3 d7d6:2",
    "e2e4 c7c5 g1f3 b8c6:2",
    "e2e4 c7c5 g1f3 e7e6:1",
    "e2e4 c7c5 b1c3 b8c6:1",
    "e2e4 e7e6 d2d4:4",
    "e2e4 e7e6 d2d3:1",
    "e2e4 e7e6 d2d4 d7d5:1",
    "e2e4 c7c6 d2d4:2",
    "e2e4 c7c6 b1c3:1",
    "e2e4 c7c6 d2d4 d7d5:1",
    "e2e4 d7d5 e4d5:1",
    "e2e4 d7d5 e4d5 d8d5:2",
    "e2e4 d7d5 e4d5 g8f6:1",
    "e2e4 b8c6 d2d4:1",
    "e2e4 b8c6 g1f3:1",
    "e2e4 d7d6 d2d4:1",
    "e2e4 d7d6 d2d4 g8f6:1",
    "e2e4 g8f6 e4e5:1",
    "e2e4 g8f6 b1c3:1",
    // 1.d4
    "d2d4 d7d5:5",
    "d2d4 g8f6:4",
    "d2d4 e7e6:1",
    "d2d4 d7d5 c2c4:3",
    "d2d4 d7d5 g1f3:2",
    "d2d4 d7d5 c1f4:2",
    "d2d4 d7d5 e2e3:1",
    "d2d4 d7d5 c2c4 e7e6:2",
    "d2d4 d7d5 c2c4 c7c6:2",
    "d2d4 d7d5 c2c4 d5c4:1",
    "d2d4 d7d5 g1f3 g8f6:1",
    "d2d4 d7d5 c1f4 g8f6:1",
    "d2d4 d7d5 e2e3 g8f6:1",
    "d2d4 g8f6 c2c4:3",
    "d2d4 g8f6 g1f3:2",
    "d2d4 g8f6 c1f4:1",
    "d2d4 g8f6 c2c4 e7e6:2",
    "d2d4 g8f6 c2c4 g7g6:1",
    "d2d4 g8f6 g1f3 d7d5:1",
    "d2d4 e7e6 c2c4:1",
    "d2d4 e7e6 e2e4:1",
    // 1.Nf3, 1.c4
    "g1f3 d7d5:2",
    "g1f3 g8f6:2",
    "g1f3 c7c5:1",
    "g1f3 d7d5 d2d4:1",
    "g1f3 g8f6 d2d4:1",
    "g1f3 g8f6 c2c4:1",
    "c2c4 e7e5:2",
    "c2c4 g8f6:2",
    "c2c4 c7c5:1",
    "c2c4 e7e6:1",
    "c2c4 e7e5 b1c3:1",
    "c2c4 g8f6 b1c3:1",
];

type Book = HashMap<u64, Vec<(Move, u32)>>;

fn book() -> &'static Book {
    static BOOK: OnceLock<Book> = OnceLock::new();
    BOOK.get_or_init(|| {
        let mut book: Book = HashMap::new();
        for line in LINES {
            let mut pos = Position::new();
            let steps: Vec<&str> = line.split_whitespace().collect();
            for (i, step) in steps.iter().enumerate() {
                let (uci, weight) = step.split_once(':').unwrap_or((step, "1"));
                // The lines are ours and checked by a test; a bad one is left out rather than stopping a game.
                let Ok(m) = pos.parse_uci(uci) else { break };
                if i + 1 == steps.len() {
                    let entry = book.entry(pos.hash()).or_default();
                    if !entry.iter().any(|&(b, _)| b == m) {
                        entry.push((m, weight.parse().unwrap_or(1)));
                    }
                }
                pos = pos.after(m);
            }
        }
        book
    })
}

/// A book move for a level up to [`BOOK_LEVEL_MAX`] in `pos` (standard chess only), chosen by `seed` with the
/// book's weights; `None` out of the book.
pub fn book_move(pos: &Position, level: u8, seed: u64) -> Option<Move> {
    if level > BOOK_LEVEL_MAX || pos.is_chess960() || pos.fullmoves() > OPENING_MOVES {
        return None;
    }
    let moves = book().get(&pos.hash())?;
    let total: u32 = moves.iter().map(|&(_, w)| w).sum();
    let x =
        (seed ^ 0x0B00_C0DE).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(23).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    let mut r = ((x >> 32) % u64::from(total.max(1))) as u32;
    for &(m, w) in moves {
        if r < w && pos.is_legal(m) {
            return Some(m);
        }
        r = r.saturating_sub(w);
    }
    moves.iter().map(|&(m, _)| m).find(|&m| pos.is_legal(m))
}

/// Whether a low level leaves `m` out in the opening when it has a developing move among its candidates: a quiet
/// move (no capture, not out of check) of a rook's pawn, of a knight to the rim, of the king other than castling,
/// or of a rook.
pub fn off_in_opening(pos: &Position, m: Move, level: u8) -> bool {
    if level > BOOK_LEVEL_MAX || pos.fullmoves() > OPENING_MOVES || pos.is_check() || pos.is_capture(m) {
        return false;
    }
    match pos.role_at(m.from()) {
        Some(Role::Pawn) => matches!(m.from().file(), File::A | File::H),
        Some(Role::Knight) => matches!(m.to().file(), File::A | File::H),
        Some(Role::King) => !m.is_castle(),
        Some(Role::Rook) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_book_line_is_legal_and_weighted() {
        for line in LINES {
            let mut pos = Position::new();
            let steps: Vec<&str> = line.split_whitespace().collect();
            for (i, step) in steps.iter().enumerate() {
                let (uci, weight) = step.split_once(':').unwrap_or((step, ""));
                // The last move carries the weight; the earlier ones none.
                if i + 1 == steps.len() {
                    assert!(weight.parse::<u32>().is_ok_and(|w| w > 0), "{line}: weight {weight:?}");
                } else {
                    assert!(weight.is_empty(), "{line}: {step} is not the last move");
                }
                let m = pos.parse_uci(uci).unwrap_or_else(|e| panic!("{line}: {uci}: {e}"));
                pos = pos.after(m);
            }
        }
        // Every line but the first moves continues one that is in the book.
        for line in LINES {
            let steps: Vec<&str> = line.split_whitespace().collect();
            if steps.len() > 1 {
                let parent: Vec<&str> = steps[..steps.len() - 1].iter().map(|s| s.split(':').next().unwrap()).collect();
                assert!(
                    LINES
                        .iter()
                        .any(|l| l.split_whitespace().map(|s| s.split(':').next().unwrap()).eq(parent.iter().copied())),
                    "{line}: its start is not a line of the book"
                );
            }
        }
    }

    #[test]
    fn the_book_answers_with_its_weights_and_only_for_low_levels() {
        let start = Position::new();
        let e4 = start.after(start.parse_uci("e2e4").unwrap());
        let mut seen: HashMap<String, u32> = HashMap::new();
        for seed in 0..2_000u64 {
            let m = book_move(&e4, 1, seed.wrapping_mul(0x2545_F491_4F6C_DD1D)).expect("1.e4 is in the book");
            *seen.entry(e4.uci(m)).or_default() += 1;
        }
        // 1…e5 has 10 of the 24 weights: about 830 of 2,000.
        let e5 = seen["e7e5"];
        assert!((700..=970).contains(&e5), "{seen:?}");
        assert_eq!(seen.len(), 8, "{seen:?}");
        assert!(book_move(&e4, BOOK_LEVEL_MAX + 1, 1).is_none());
        let a3 = start.after(start.parse_uci("a2a3").unwrap());
        assert!(book_move(&a3, 1, 1).is_none(), "1.a3 is not in the book");
        let mut c960 = Position::chess960(518).unwrap();
        c960.set_chess960(true);
        assert!(book_move(&c960, 1, 1).is_none());
    }

    #[test]
    fn rim_and_rook_moves_are_left_out_only_in_the_opening() {
        let start = Position::new();
        let m = |pos: &Position, s: &str| pos.parse_uci(s).unwrap();
        assert!(off_in_opening(&start, m(&start, "a2a3"), 1));
        assert!(off_in_opening(&start, m(&start, "h2h4"), 3));
        assert!(!off_in_opening(&start, m(&start, "e2e4"), 1));
        assert!(!off_in_opening(&start, m(&start, "g1f3"), 1));
        assert!(off_in_opening(&start, m(&start, "g1h3"), 1));
        assert!(!off_in_opening(&start, m(&start, "a2a3"), BOOK_LEVEL_MAX + 1));
        let late = Position::from_fen("4k3/p7/8/8/8/8/P7/4K3 w - - 0 30").unwrap();
        assert!(!off_in_opening(&late, m(&late, "a2a3"), 1));
    }
}
