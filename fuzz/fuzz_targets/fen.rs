//! FEN reading: arbitrary bytes (lossy UTF-8) through `Setup::parse` and
//! `Position::from_fen_with` in every castling mode, strict and relaxed.
//!
//! Invariants, beyond "never panics":
//! - `from_fen_with` rejects whatever `Setup::parse` rejects;
//! - a strictly valid FEN is also valid relaxed, giving the same position;
//! - an accepted position's FEN (and Shredder-FEN) reads back to an equal
//!   position with the same hash, and its FEN is a fixpoint;
//! - the incremental hash equals `hash_from_scratch`, before and after every
//!   legal move; move counting and mate/stalemate agree with the move list;
//! - the position after every legal move has a FEN that reads back (relaxed)
//!   to an equal position.
#![no_main]

use guoxiang_core::{CastlingMode, Position, Setup, Validation};
use guoxiang_fuzz::{check_hash, legal, mode_of};
use libfuzzer_sys::fuzz_target;

const MODES: [CastlingMode; 3] = [CastlingMode::Auto, CastlingMode::Standard, CastlingMode::Chess960];

fn reread(fen: &str, mode: CastlingMode, validation: Validation, original: &Position, what: &str) {
    let back = Position::from_fen_with(fen, mode, validation)
        .unwrap_or_else(|e| panic!("{what}: {fen:?} does not read back ({mode:?}, {validation:?}): {e}"));
    assert!(back == *original, "{what}: {fen:?} reads back as a different position: {}", back.fen());
    assert_eq!(back.hash(), original.hash(), "{what}: {fen:?} reads back with another hash");
    assert_eq!(back.fen(), original.fen(), "{what}: FEN is not a fixpoint");
}

fn check_position(pos: &Position, mode: CastlingMode, validation: Validation) {
    check_hash(pos);
    let fen = pos.fen();
    reread(&fen, mode_of(pos), validation, pos, "fen");
    if mode == CastlingMode::Auto {
        reread(&fen, CastlingMode::Auto, validation, pos, "fen (auto)");
        if validation == Validation::Strict {
            let back = Position::from_fen(&fen).expect("from_fen reads a strict position's FEN");
            assert!(back == *pos && back.hash() == pos.hash());
        }
    }
    reread(&pos.fen_with(true), mode_of(pos), validation, pos, "shredder fen");

    let moves = legal(pos);
    assert_eq!(pos.count_legal(), moves.len());
    assert_eq!(pos.has_legal_move(), !moves.is_empty());
    assert_eq!(pos.is_checkmate(), pos.is_check() && moves.is_empty());
    assert_eq!(pos.is_stalemate(), !pos.is_check() && moves.is_empty());
    for &m in &moves {
        assert!(pos.is_legal(m), "generated move {m:?} is not is_legal in {fen}");
        let after = pos.after(m);
        check_hash(&after);
        // The mover's king is safe after a legal move, so the new position is
        // always playable: it must survive a relaxed FEN round trip.
        reread(&after.fen(), mode_of(&after), Validation::Relaxed, &after, "fen after move");
    }
    // `ply()` saturates for move numbers beyond u32::MAX / 2.
    if pos.fullmoves() <= u32::MAX / 2 {
        assert_eq!(pos.ply() / 2 + 1, pos.fullmoves(), "ply() does not match the move number");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let setup = Setup::parse(&text);
    for mode in MODES {
        let mut strict_pos = None;
        for validation in [Validation::Strict, Validation::Relaxed] {
            let result = Position::from_fen_with(&text, mode, validation);
            if setup.is_err() {
                assert!(result.is_err(), "from_fen_with accepts what Setup::parse rejects");
            }
            match (validation, result) {
                (Validation::Strict, Ok(pos)) => {
                    check_position(&pos, mode, validation);
                    strict_pos = Some(pos);
                }
                (Validation::Relaxed, Ok(pos)) => {
                    if let Some(strict) = &strict_pos {
                        assert!(*strict == pos, "strict and relaxed readings differ");
                    } else {
                        check_position(&pos, mode, validation);
                    }
                }
                (Validation::Relaxed, Err(e)) => {
                    assert!(strict_pos.is_none(), "valid strictly but not relaxed: {e}");
                }
                (Validation::Strict, Err(_)) => {}
            }
        }
    }
});
