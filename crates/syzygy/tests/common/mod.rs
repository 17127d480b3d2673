//! Helpers shared by the integration tests: a seeded generator of random legal positions for a table's material.

#![allow(dead_code)]

use guoxiang_core::fen::Setup;
use guoxiang_core::{CastlingMode, Color, Piece, Position, Role, Square, Validation};
use std::path::PathBuf;

/// The committed fixtures.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests").join("tables")
}

/// xorshift64*: small, deterministic, good enough to scatter pieces.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform-ish in 0..n.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
}

/// The pieces of a table name such as `KRPvKR` (white before the `v`).
pub fn pieces_of(name: &str) -> Vec<Piece> {
    let (w, b) = name.split_once('v').expect("table name");
    let mut out = Vec::new();
    for (color, side) in [(Color::White, w), (Color::Black, b)] {
        for ch in side.chars() {
            out.push(Piece::new(color, Role::from_char(ch).expect("piece letter")));
        }
    }
    out
}

/// A seed from a table name, so every table gets its own stream of positions.
pub fn seed_of(name: &str, salt: u64) -> u64 {
    name.bytes().fold(salt ^ 0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// One attempt at a random legal position with exactly `pieces` (no castling rights, counters 0 and 1). Pawns
/// never stand on the first or last rank. With `try_en_passant`, when both colours have pawns, one attempt in
/// three first sets up a pawn that has just stepped two squares next to an enemy pawn, with the en-passant square
/// given (kept by the position only when the capture is legal). `None` when the attempt gave an illegal position.
pub fn random_position(rng: &mut Rng, pieces: &[Piece], try_en_passant: bool) -> Option<Position> {
    let mut board: [Option<Piece>; 64] = [None; 64];
    let mut reserved = [false; 64];
    let turn = if rng.below(2) == 0 { Color::White } else { Color::Black };
    let mut rest: Vec<Piece> = pieces.to_vec();
    let mut ep_square = None;

    let has_pawn = |c: Color, rest: &[Piece]| rest.iter().any(|p| p.color == c && p.role == Role::Pawn);
    if try_en_passant && has_pawn(Color::White, &rest) && has_pawn(Color::Black, &rest) && rng.below(3) == 0 {
        let them = !turn;
        let file = rng.below(8) as i32;
        let side = if file == 0 || (file < 7 && rng.below(2) == 0) { 1 } else { -1 };
        let (rank, behind, origin) = if them == Color::White { (3, 2, 1) } else { (4, 5, 6) };
        let theirs = (rank * 8 + file) as usize;
        let ours = (rank * 8 + file + side) as usize;
        board[theirs] = Some(Piece::new(them, Role::Pawn));
        board[ours] = Some(Piece::new(turn, Role::Pawn));
        reserved[(behind * 8 + file) as usize] = true;
        reserved[(origin * 8 + file) as usize] = true;
        for c in [them, turn] {
            let i = rest.iter().position(|p| p.color == c && p.role == Role::Pawn).expect("pawn");
            rest.remove(i);
        }
        ep_square = Some(Square::new((behind * 8 + file) as u32));
    }

    for p in rest {
        loop {
            let sq = rng.below(64) as usize;
            if board[sq].is_some() || reserved[sq] {
                continue;
            }
            if p.role == Role::Pawn && !(8..56).contains(&sq) {
                continue;
            }
            board[sq] = Some(p);
            break;
        }
    }
    let setup = Setup { board, turn, castling: Vec::new(), ep_square, halfmoves: 0, fullmoves: 1 };
    let pos = Position::from_setup(&setup, CastlingMode::Standard, Validation::Relaxed).ok()?;
    (pos.occupied().count() as usize == pieces.len()).then_some(pos)
}

/// `n` random legal positions of a material (deterministic for a given seed).
pub fn random_positions(name: &str, n: usize, salt: u64, try_en_passant: bool) -> Vec<Position> {
    let pieces = pieces_of(name);
    let mut rng = Rng::new(seed_of(name, salt));
    let mut out = Vec::with_capacity(n);
    let mut attempts = 0;
    while out.len() < n {
        attempts += 1;
        assert!(attempts < 100 * n + 1000, "{name}: too few legal positions");
        if let Some(p) = random_position(&mut rng, &pieces, try_en_passant) {
            out.push(p);
        }
    }
    out
}

/// Table names of the `.rtbw` files in a directory, sorted.
pub fn wdl_tables_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("table directory")
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let p = e.path();
            (p.extension().and_then(|x| x.to_str()) == Some("rtbw"))
                .then(|| p.file_stem().and_then(|s| s.to_str()).map(str::to_string))
                .flatten()
        })
        .collect();
    names.sort();
    names
}
