//! Choosing the players' moves: a random legal move of the position the server reported.

use guoxiang_core::{Color, Position};
use rand::Rng;
use rand::seq::IndexedRandom;

/// Reads a position the server sent (a snapshot's or a `move_made` event's FEN).
pub(crate) fn position_from_fen(fen: &str) -> Result<Position, String> {
    Position::from_fen(fen).map_err(|e| format!("the server sent an unreadable FEN {fen:?}: {e}"))
}

/// A random legal move in UCI (`e2e4`, `e7e8q`, castling as the position's mode writes it), or `None` when the side
/// to move has no legal move (the game is over).
pub(crate) fn random_move(pos: &Position, rng: &mut impl Rng) -> Option<String> {
    let moves = pos.legal_moves();
    moves.as_slice().choose(rng).map(|&m| pos.uci(m))
}

/// The index of a colour in `[white, black]` arrays.
pub(crate) fn color_index(c: Color) -> usize {
    c.fold(0, 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use guoxiang_core::STARTING_FEN;
    use rand::SeedableRng;
    use rand::rngs::StdRng;
    use std::collections::HashSet;

    #[test]
    fn random_moves_are_legal_and_varied() {
        let pos = position_from_fen(STARTING_FEN).unwrap();
        let mut rng = StdRng::seed_from_u64(7);
        let mut seen = HashSet::new();
        for _ in 0..500 {
            let uci = random_move(&pos, &mut rng).unwrap();
            assert!(pos.parse_uci(&uci).is_ok(), "{uci} is legal");
            seen.insert(uci);
        }
        assert_eq!(seen.len(), 20, "all twenty first moves come up: {seen:?}");
    }

    #[test]
    fn forced_moves_promotions_and_castling() {
        let mut rng = StdRng::seed_from_u64(1);
        // Black's king in check from the queen on h5, g-file covered by the rook: only the block on h6 is left.
        let pos = position_from_fen("7k/8/r7/7Q/8/8/8/1K4R1 b - - 0 1").unwrap();
        assert_eq!(random_move(&pos, &mut rng).as_deref(), Some("a6h6"));
        // A promotion is written with its piece letter.
        let pos = position_from_fen("8/P6k/8/8/8/8/8/K7 w - - 0 1").unwrap();
        let mut promotions = HashSet::new();
        for _ in 0..400 {
            let uci = random_move(&pos, &mut rng).unwrap();
            if uci.starts_with("a7a8") {
                promotions.insert(uci);
            }
        }
        let want: HashSet<String> = ["a7a8q", "a7a8r", "a7a8b", "a7a8n"].map(String::from).into();
        assert_eq!(promotions, want);
        // Standard castling is the king's two-square move.
        let pos = position_from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1").unwrap();
        assert!((0..400).any(|_| random_move(&pos, &mut rng).as_deref() == Some("e1g1")));
    }

    #[test]
    fn no_move_when_the_game_is_over() {
        let mut rng = StdRng::seed_from_u64(3);
        let mate = position_from_fen("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3").unwrap();
        assert_eq!(random_move(&mate, &mut rng), None);
        let stalemate = position_from_fen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1").unwrap();
        assert_eq!(random_move(&stalemate, &mut rng), None);
    }

    #[test]
    fn random_games_stay_legal() {
        let mut rng = StdRng::seed_from_u64(11);
        for _ in 0..5 {
            let mut pos = position_from_fen(STARTING_FEN).unwrap();
            for _ in 0..200 {
                let Some(uci) = random_move(&pos, &mut rng) else { break };
                let m = pos.parse_uci(&uci).unwrap();
                // The server's FEN after the move reads back to the same position.
                pos = position_from_fen(&pos.after(m).fen()).unwrap();
            }
        }
    }

    #[test]
    fn bad_fen_is_reported() {
        let e = position_from_fen("not a fen").unwrap_err();
        assert!(e.contains("unreadable FEN \"not a fen\""), "{e}");
        assert_eq!(color_index(Color::White), 0);
        assert_eq!(color_index(Color::Black), 1);
    }
}
