//! Helpers shared by the fuzz targets: a few fixed positions worth fuzzing
//! notation in, a way to walk from them to nearby positions with fuzzer
//! bytes, and the hash invariants.

use guoxiang_core::{CastlingMode, Move, Position, Validation};

/// Positions the `san` and `uci` targets start from (the first input byte
/// picks one). All are valid under strict validation.
pub const POSITIONS: &[&str] = &[
    // 0: the start position.
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    // 1: "Kiwipete": castling both ways, pins, captures, promotions soon.
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    // 2: en passant exf6 available.
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    // 3: promotions with and without capture, Black to move.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N b - - 0 1",
    // 4: the same, White to move.
    "n1n5/PPPk4/8/8/8/8/4Kppp/5N1N w - - 0 1",
    // 5: Chess960 (X-FEN castling letters HFhf).
    "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
    // 6: Chess960 with the king on b1: O-O-O and the king's step b1c1 end on the same square.
    "rk2r3/pppppppp/8/8/8/8/PPPPPPPP/RK2R3 w EAea - 0 1",
    // 7: in check from a pawn that just double-stepped; exd3 e.p. removes the checker.
    "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
    // 8: four queens reaching b4: needs file, rank or both to disambiguate.
    "8/7k/8/Q1Q5/8/Q1Q5/8/6K1 w - - 0 1",
    // 9: two knights reach d5 but one is pinned: no disambiguation needed.
    "4k3/4r3/8/8/8/2N1N3/8/4K3 w - - 0 1",
    // 10: Black to move with all castling rights.
    "r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 0 1",
];

/// The position `POSITIONS[i % len]`.
pub fn position(i: u8) -> Position {
    let fen = POSITIONS[usize::from(i) % POSITIONS.len()];
    Position::from_fen_with(fen, CastlingMode::Auto, Validation::Strict).expect("fixed fuzz position is valid")
}

/// Splits a fuzz input into a start position and the rest: byte 0 picks the
/// position, byte 1 (mod 8) the number of plies to play from it, and that many
/// bytes pick each legal move (index mod the number of legal moves). Every
/// position reached is checked with [`check_hash`].
pub fn walk(data: &[u8]) -> (Position, &[u8]) {
    let Some((&sel, rest)) = data.split_first() else {
        return (position(0), data);
    };
    let mut pos = position(sel);
    let Some((&plies, mut rest)) = rest.split_first() else {
        return (pos, rest);
    };
    for _ in 0..plies % 8 {
        let Some((&pick, tail)) = rest.split_first() else {
            break;
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves.as_slice()[usize::from(pick) % moves.len()];
        pos.play_unchecked(m);
        check_hash(&pos);
        rest = tail;
    }
    (pos, rest)
}

/// The incremental hash equals the hash computed from scratch.
pub fn check_hash(pos: &Position) {
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "incremental hash differs from scratch hash in {}", pos.fen());
}

/// The legal moves, as a vector.
pub fn legal(pos: &Position) -> Vec<Move> {
    pos.legal_moves().as_slice().to_vec()
}

/// Castling mode to re-read a position's FEN with.
pub fn mode_of(pos: &Position) -> CastlingMode {
    if pos.is_chess960() { CastlingMode::Chess960 } else { CastlingMode::Standard }
}
