//! FEN reading and writing: every error names the field and the problem (exact messages), Strict and Relaxed
//! validation, X-FEN and Shredder-FEN castling, and a fuzz-style property that no input makes the reader panic.

use guoxiang_core::fen::FenField;
use guoxiang_core::{CastlingMode, ParseFenError, Position, STARTING_FEN, SetupProblem, Validation};
use proptest::prelude::*;

fn strict_err(fen: &str) -> String {
    match Position::from_fen(fen) {
        Ok(p) => panic!("{fen:?} was accepted as {}", p.fen()),
        Err(e) => e.to_string(),
    }
}

fn relaxed(fen: &str) -> Result<Position, ParseFenError> {
    Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed)
}

/// A syntax error: both modes fail with the same message, and it is a `FenError` for the given field.
fn syntax_err(fen: &str, field: FenField) -> String {
    let msg = strict_err(fen);
    match relaxed(fen) {
        Err(ParseFenError::Fen(e)) => {
            assert_eq!(e.field, field, "{fen:?}: {e}");
            assert_eq!(e.to_string(), msg, "{fen:?}");
        }
        other => panic!("{fen:?}: Relaxed gives {other:?}, expected a syntax error"),
    }
    msg
}

const START_PLACEMENT: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR";

#[test]
fn castling_field_errors() {
    assert_eq!(
        syntax_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", FenField::Castling),
        "field 3 (castling): 'KQkx' — unknown letter 'x'"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkqK - 0 1"), FenField::Castling),
        "field 3 (castling): 'KQkqK' — letter 'K' given twice"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQ1 - 0 1"), FenField::Castling),
        "field 3 (castling): 'KQ1' — unknown letter '1'"
    );
}

#[test]
fn placement_errors() {
    assert_eq!(
        syntax_err("8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
        "field 1 (piece placement): '8/8/8/8/8/8/8' — 7 ranks, expected 8 separated by '/'"
    );
    assert_eq!(
        syntax_err("8/8/8/8/8/8/8/8/8 w - - 0 1", FenField::Placement),
        "field 1 (piece placement): '8/8/8/8/8/8/8/8/8' — 9 ranks, expected 8 separated by '/'"
    );
    assert_eq!(
        syntax_err("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement),
        "field 1 (piece placement): 'rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' — rank 7 has more than 8 squares"
    );
    assert_eq!(
        syntax_err("rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", FenField::Placement),
        "field 1 (piece placement): 'rnbqkbnr/ppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR' — rank 7 has only 7 squares, expected 8"
    );
    assert_eq!(
        syntax_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ w KQkq - 0 1", FenField::Placement),
        "field 1 (piece placement): 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNZ' — unknown piece letter 'Z' on rank 1"
    );
    assert_eq!(
        syntax_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN09 w KQkq - 0 1", FenField::Placement),
        "field 1 (piece placement): 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN09' — rank 1: '0' is not a count of 1–8 empty squares"
    );
    assert_eq!(
        syntax_err("4k3/8/8/8/8/8/8/4K12 w - - 0 1", FenField::Placement),
        "field 1 (piece placement): '4k3/8/8/8/8/8/8/4K12' — rank 1: two digits in a row"
    );
    // An absurdly long field is cut in the message.
    let long = format!("{}/8/8/8/8/8/8/8 w - - 0 1", "p".repeat(300));
    let msg = syntax_err(&long, FenField::Placement);
    assert!(msg.contains('…') && msg.chars().count() < 200, "{msg}");
}

#[test]
fn side_to_move_errors() {
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} x KQkq - 0 1"), FenField::Turn),
        "field 2 (side to move): 'x' — expected 'w' or 'b'"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} white KQkq - 0 1"), FenField::Turn),
        "field 2 (side to move): 'white' — expected 'w' or 'b'"
    );
}

#[test]
fn en_passant_errors() {
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq e9 0 1"), FenField::EnPassant),
        "field 4 (en passant): 'e9' — not a square; expected e.g. 'e3' or '-'"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq e4 0 1"), FenField::EnPassant),
        "field 4 (en passant): 'e4' — must be a square on rank 3 or 6, or '-'"
    );
    // Well-formed but impossible: an error in Strict mode, dropped in Relaxed mode.
    let fen = format!("{START_PLACEMENT} w KQkq e6 0 1");
    assert_eq!(strict_err(&fen), "field 4 (en passant): 'e6' but no black pawn stands in front of it");
    assert_eq!(relaxed(&fen).unwrap().fen(), STARTING_FEN);
    let fen = format!("{START_PLACEMENT} b KQkq e3 0 1");
    assert_eq!(strict_err(&fen), "field 4 (en passant): 'e3' but no white pawn stands in front of it");
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e3 0 1";
    assert_eq!(strict_err(fen), "field 4 (en passant): 'e3' is on the wrong rank for white to move");
    let fen = "rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1";
    assert_eq!(strict_err(fen), "field 4 (en passant): 'e6' but the squares the pawn passed are not empty");
    // Possible but no capture is legal: accepted, and not written back (nor part of the position's identity).
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let p = Position::from_fen(fen).unwrap();
    assert_eq!(p.ep_square(), None);
    assert_eq!(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    assert_eq!(p, Position::from_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").unwrap());
    // A legal capture keeps it.
    let fen = "rnbqkbnr/ppp1pppp/8/8/2Pp4/8/PP1PPPPP/RNBQKBNR b KQkq c3 0 2";
    assert_eq!(Position::from_fen(fen).unwrap().fen(), fen);
}

#[test]
fn clock_errors() {
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq - x 1"), FenField::Halfmove),
        "field 5 (halfmove clock): 'x' — expected a non-negative whole number"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq - -1 1"), FenField::Halfmove),
        "field 5 (halfmove clock): '-1' — expected a non-negative whole number"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq - 99999999999 1"), FenField::Halfmove),
        "field 5 (halfmove clock): '99999999999' — number too large"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq - 0 y"), FenField::Fullmove),
        "field 6 (fullmove number): 'y' — expected a non-negative whole number"
    );
    assert_eq!(
        syntax_err(&format!("{START_PLACEMENT} w KQkq - 0 1.5"), FenField::Fullmove),
        "field 6 (fullmove number): '1.5' — expected a non-negative whole number"
    );
    // Move number 0, as some writers emit, is read as 1.
    assert_eq!(Position::from_fen(&format!("{START_PLACEMENT} w KQkq - 0 0")).unwrap().fen(), STARTING_FEN);
}

#[test]
fn whole_fen_errors() {
    assert_eq!(
        syntax_err(&format!("{STARTING_FEN} extra"), FenField::Whole),
        format!(
            "FEN '{STARTING_FEN} extra': 7 fields, expected at most 6 (placement, side, castling, en passant, halfmove, fullmove)"
        )
    );
    assert_eq!(syntax_err("", FenField::Whole), "FEN '': empty; expected six space-separated fields");
    assert_eq!(syntax_err("  \t ", FenField::Whole), "FEN '  \t ': empty; expected six space-separated fields");
}

#[test]
fn missing_fields_take_defaults() {
    // EPD-style four fields, and fewer, read with the usual defaults.
    assert_eq!(Position::from_fen(&format!("{START_PLACEMENT} w KQkq -")).unwrap().fen(), STARTING_FEN);
    assert_eq!(Position::from_fen(&format!("{START_PLACEMENT} w KQkq")).unwrap().fen(), STARTING_FEN);
    assert_eq!(Position::from_fen(START_PLACEMENT).unwrap().fen(), format!("{START_PLACEMENT} w - - 0 1"));
    // Extra spaces between fields do not matter.
    assert_eq!(Position::from_fen(&format!("  {START_PLACEMENT}   w  KQkq - 0   1 ")).unwrap().fen(), STARTING_FEN);
}

#[test]
fn position_errors() {
    assert_eq!(strict_err("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1"), "more than one white king");
    assert_eq!(strict_err("rnbq1bnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1"), "no black king");
    assert_eq!(strict_err("8/8/8/8/8/8/8/8 w - - 0 1"), "no white king; no black king");
    assert_eq!(strict_err("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"), "side not to move is in check");
    assert_eq!(strict_err("P3k3/8/8/8/8/8/8/4K3 w - - 0 1"), "pawns on the first or last rank");
    assert_eq!(
        strict_err("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1"),
        "too many black pieces (at most 16, of which at most 8 pawns)"
    );
    assert_eq!(
        strict_err("4k3/8/8/8/8/8/8/4K2R w KQ - 0 1"),
        "field 3 (castling): 'Q' but there is no white rook to castle with on that side"
    );
    assert_eq!(
        strict_err("7r/8/8/8/4k3/8/8/4K2R w Kk - 0 1"),
        "field 3 (castling): 'k' but the black king is not on its first rank"
    );
    // Every problem is listed, not just the first.
    assert_eq!(
        strict_err("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        "field 3 (castling): 'k' but there is no black rook to castle with on that side; \
         field 3 (castling): 'q' but there is no black rook to castle with on that side"
    );
    // Kings are checked first; without them nothing else is judged. Relaxed mode cannot help there.
    for fen in ["rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1", "4k3/8/8/8/8/8/4R3/4K3 w - - 0 1"] {
        assert!(relaxed(fen).is_err(), "{fen}");
    }
    // The structured form is there too.
    match Position::from_fen("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1") {
        Err(ParseFenError::Position(e)) => assert_eq!(e.problems, vec![SetupProblem::OppositeCheck]),
        other => panic!("{other:?}"),
    }
}

#[test]
fn relaxed_accepts_playable_oddities() {
    // An impossible double check from the perft suite: Strict rejects, Relaxed plays it.
    let fen = "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1";
    assert_eq!(strict_err(fen), "impossible check (no legal move gives check by these pieces at once)");
    let p = relaxed(fen).unwrap();
    assert_eq!(p.fen(), fen);
    assert_eq!(p.checkers().count(), 2);
    assert_eq!(p.count_legal(), 6);
    // Three checkers.
    let fen = "4k3/8/8/8/8/3n1n2/8/r3K3 w - - 0 1";
    assert_eq!(strict_err(fen), "impossible check (no legal move gives check by these pieces at once)");
    assert_eq!(relaxed(fen).unwrap().checkers().count(), 3);
    // Pawns on the back rank, too many pieces, castling rights without a rook: Relaxed drops or tolerates them.
    assert_eq!(relaxed("P3k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap().fen(), "P3k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert!(relaxed("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1").is_ok());
    assert_eq!(relaxed("4k3/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap().fen(), "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
}

#[test]
fn aligned_and_impossible_double_checks() {
    // Impossible double checks like the perft suites' (see shared/data/README.md): Strict rejects, Relaxed plays them.
    for fen in [
        "B6b/8/8/8/2K5/5k2/8/b6B b - - 0 1",
        // tricky.perft "align-diag-1" / "align-horizontal" style: two aligned sliders.
        "8/8/8/8/1r2K2r/8/8/k7 w - - 0 1",
        "8/2b5/8/4K3/8/6b1/8/k7 w - - 0 1",
    ] {
        let s = Position::from_fen(fen);
        assert!(
            matches!(&s, Err(ParseFenError::Position(e)) if e.problems == vec![SetupProblem::ImpossibleCheck]),
            "{fen}: {s:?}"
        );
        let p = relaxed(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        assert_eq!(p.checkers().count(), 2, "{fen}");
        assert!(p.count_legal() > 0, "{fen}");
    }
}

#[test]
fn shredder_and_x_fen() {
    // Standard chess: KQkq, or rook files with fen_with(true); reading Shredder-FEN gives the same position.
    let start = Position::new();
    assert_eq!(start.fen(), STARTING_FEN);
    assert_eq!(start.fen_with(true), format!("{START_PLACEMENT} w HAha - 0 1"));
    let shredder = Position::from_fen(&format!("{START_PLACEMENT} w HAha - 0 1")).unwrap();
    assert_eq!(shredder, start);
    assert!(!shredder.is_chess960());
    assert_eq!(shredder.hash(), start.hash());

    // Chess960 given in Shredder-FEN: written in X-FEN (K/Q for the outermost rooks), Shredder on request.
    let fen = "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9";
    let p = Position::from_fen(fen).unwrap();
    assert!(p.is_chess960());
    assert_eq!(p.fen(), "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w KQkq - 2 9");
    assert_eq!(p.fen_with(true), fen);
    assert_eq!(Position::from_fen(&p.fen()).unwrap(), p);

    // X-FEN from the tricky suite: K/Q mean the outermost rook on that side of the king.
    let p = Position::from_fen("r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w KQkq - 0 1").unwrap();
    assert!(p.is_chess960());
    assert_eq!(p.fen_with(true), "r1k2r1q/p1ppp1pp/8/8/8/8/P1PPP1PP/R1K2R1Q w FAfa - 0 1");
    // Castling with the f1 rook is illegal here (the rook on f8 attacks f1, which the king crosses), with the a1
    // rook it is legal; both are written king-takes-rook.
    assert!(p.parse_uci("c1f1").is_err());
    let ooo = p.parse_uci("c1a1").unwrap();
    assert!(ooo.is_castle());
    assert_eq!(p.uci(ooo), "c1a1");

    // A castling rook that is not the outermost one must be written with its file, even in X-FEN.
    let p = Position::from_fen("4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1").unwrap();
    assert!(p.is_chess960());
    assert_eq!(p.fen(), "4k3/8/8/8/8/8/8/R1R1K3 w C - 0 1");
    let outer = Position::from_fen("4k3/8/8/8/8/8/8/R1R1K3 w Q - 0 1").unwrap();
    assert_eq!(outer.fen_with(true), "4k3/8/8/8/8/8/8/R1R1K3 w A - 0 1");
    assert_ne!(outer, p);

    // Chess960 rights in a position read as standard chess.
    let fen = "4k3/8/8/8/8/8/8/1R2K2R w B - 0 1";
    assert_eq!(
        Position::from_fen_with(fen, CastlingMode::Standard, Validation::Strict).unwrap_err().to_string(),
        "field 3 (castling): king or rook not on its standard square — this needs Chess960 mode"
    );
    let dropped = Position::from_fen_with(fen, CastlingMode::Standard, Validation::Relaxed).unwrap();
    assert_eq!(dropped.fen(), "4k3/8/8/8/8/8/8/1R2K2R w - - 0 1");
    // Auto mode switches to Chess960 for it; Chess960 mode may be asked for any position.
    assert!(Position::from_fen(fen).unwrap().is_chess960());
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let p960 = Position::from_fen_with(fen, CastlingMode::Chess960, Validation::Strict).unwrap();
    let std = Position::from_fen(fen).unwrap();
    assert!(p960.is_chess960() && !std.is_chess960());
    assert_eq!(p960.fen(), fen);
    assert_eq!(p960.fen_with(true), "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1");
    // Castling in UCI: king takes rook in Chess960 mode, the king's two-square move in standard mode; standard mode
    // also reads king-takes-rook.
    let oo = std.parse_uci("e1g1").unwrap();
    assert!(oo.is_castle());
    assert_eq!(std.uci(oo), "e1g1");
    assert_eq!(p960.uci(oo), "e1h1");
    assert_eq!(std.parse_uci("e1h1").unwrap(), oo);
    assert_eq!(p960.parse_uci("e1h1").unwrap(), oo);
    assert!(p960.parse_uci("e1g1").is_err());
}

#[test]
fn two_rights_on_one_side() {
    let fen = "4k3/8/8/8/8/8/8/RR2K3 w AB - 0 1";
    let e = strict_err(fen);
    assert_eq!(e, "field 3 (castling): 'B': two castling rights on the same side of the white king");
}

// ----- properties ------------------------------------------------------------------------------------------------

/// Text that looks like a FEN field by field, so that the reader gets past the first field often.
fn fenish() -> impl Strategy<Value = String> {
    (
        "[pnbrqkPNBRQK1-8/]{0,70}",
        "[wbWBx-]{0,2}",
        "[KQkqA-Ha-hx-]{0,5}",
        "[a-h1-8-]{0,3}",
        "[0-9-]{0,4}",
        "[0-9]{0,4}",
        0usize..8,
    )
        .prop_map(|(a, b, c, d, e, f, n)| [a, b, c, d, e, f].into_iter().take(n).collect::<Vec<_>>().join(" "))
}

/// Mostly valid placements: eight ranks of piece letters and counts.
fn placement() -> impl Strategy<Value = String> {
    proptest::collection::vec("[pnbrqkPNBRQK1-8]{1,8}", 8).prop_map(|v| v.join("/"))
}

fn check_reader(s: &str) -> Result<(), TestCaseError> {
    for mode in [CastlingMode::Auto, CastlingMode::Standard, CastlingMode::Chess960] {
        for v in [Validation::Strict, Validation::Relaxed] {
            match Position::from_fen_with(s, mode, v) {
                Ok(p) => {
                    // Whatever is accepted is written back to a FEN that reads as the same position.
                    let again = Position::from_fen_with(&p.fen(), mode, v);
                    prop_assert_eq!(again.as_ref().ok(), Some(&p), "{:?} → {}", s, p.fen());
                    prop_assert_eq!(p.hash(), p.hash_from_scratch());
                    let sh = Position::from_fen_with(&p.fen_with(true), mode, v);
                    prop_assert_eq!(sh.as_ref().ok(), Some(&p), "{:?} → {}", s, p.fen_with(true));
                }
                Err(ParseFenError::Fen(e)) => {
                    let msg = e.to_string();
                    if e.field == FenField::Whole {
                        prop_assert!(msg.starts_with("FEN '"), "{}", msg);
                    } else {
                        let prefix = format!("field {} ({}): '", e.field.number(), e.field.name());
                        prop_assert!(msg.starts_with(&prefix), "{}", msg);
                    }
                    prop_assert!(!e.problem.is_empty());
                }
                Err(ParseFenError::Position(e)) => {
                    prop_assert!(!e.problems.is_empty());
                    prop_assert!(!e.to_string().is_empty());
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in "\\PC{0,120}") {
        check_reader(&s)?;
    }

    #[test]
    fn fen_like_strings_never_panic(s in fenish()) {
        check_reader(&s)?;
    }

    #[test]
    fn plausible_fens_never_panic(
        p in placement(),
        turn in "[wb]",
        castling in "(-|[KQkqA-Ha-h]{1,4})",
        ep in "(-|[a-h][36])",
        half in 0u32..200,
        full in 0u32..200,
    ) {
        check_reader(&format!("{p} {turn} {castling} {ep} {half} {full}"))?;
    }
}

/// Found by fuzzing: a FEN may carry counters at the top of their range; playing on must not overflow.
#[test]
fn huge_move_counters_saturate() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 4294967295 1",
        "4k3/8/8/8/8/8/8/4K3 b - - 0 4294967295",
        "4k3/8/8/8/8/8/8/4K3 w - - 0 2147483650",
    ] {
        let pos = guoxiang_core::Position::from_fen(fen).unwrap();
        let _ = pos.ply();
        for &m in pos.legal_moves().iter() {
            let after = pos.after(m);
            assert_eq!(after.halfmoves(), pos.halfmoves().saturating_add(1));
            assert!(after.fullmoves() >= pos.fullmoves());
            let mut null = after.clone();
            null.play_null();
            let _ = null.ply();
        }
    }
}

/// The 960 start positions: all distinct, bishops on opposite colours, king between the rooks, number 518 the
/// classical start, and the first one (0) as the standard numbering gives it.
#[test]
fn chess960_start_positions() {
    use guoxiang_core::{Bitboard, Color, Position, Role};
    let mut seen = std::collections::HashSet::new();
    for n in 0..960u16 {
        let p = Position::chess960(n).unwrap();
        assert!(seen.insert(p.placement()), "start position {n} repeats");
        let bishops = p.pieces(Color::White, Role::Bishop);
        assert_eq!((bishops & Bitboard::LIGHT_SQUARES).count(), 1, "{n}");
        let rooks: Vec<_> = p.pieces(Color::White, Role::Rook).collect();
        let king = p.king(Color::White);
        assert!(rooks[0].file() < king.file() && king.file() < rooks[1].file(), "{n}");
        assert_eq!(p.castling_rooks().count(), 4, "{n}: both rooks of each side keep their rights");
        // Its X-FEN reads back to the same position.
        let again =
            Position::from_fen_with(&p.fen(), guoxiang_core::CastlingMode::Chess960, guoxiang_core::Validation::Strict)
                .unwrap();
        assert_eq!(again, p, "{n}");
    }
    assert_eq!(Position::chess960(518).unwrap().placement(), Position::new().placement());
    assert_eq!(Position::chess960(0).unwrap().placement(), "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR");
    assert!(Position::chess960(960).is_none());
}
