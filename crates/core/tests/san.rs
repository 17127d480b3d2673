//! SAN: syntax, resolving (with the forgiving forms people type), error messages, writing (English, Chinese, long),
//! round trips over random games, a cross-check against shakmaty, the opening book, and no panics on any input.

mod common;
use common::{XorShift as Rng, data_dir};

use guoxiang_core::{
    CastlingMode, CastlingSide, Color, File, Lang, Move, ParseSanErrorKind, Position, Rank, Role, San, SanError,
    SanPlus, SanStyle, Square, Suffix, Validation, movetext, try_movetext,
};
use proptest::prelude::*;
use std::path::PathBuf;

fn pos(fen: &str) -> Position {
    Position::from_fen_with(fen, CastlingMode::Auto, Validation::Relaxed).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn sq(s: &str) -> Square {
    Square::parse(s).unwrap()
}

fn uci(p: &Position, s: &str) -> Move {
    p.parse_uci(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// Asserts that `text` resolves to the UCI move `expected` in `p`.
fn resolves(p: &Position, text: &str, expected: &str) {
    match p.parse_san(text) {
        Ok(m) => assert_eq!(p.uci(m), expected, "{text} in {}", p.fen()),
        Err(e) => panic!("{text} in {}: {e}", p.fen()),
    }
}

fn normal(role: Role, file: Option<File>, rank: Option<Rank>, capture: bool, to: &str, promotion: Option<Role>) -> San {
    San::Normal { role, file, rank, capture, to: sq(to), promotion }
}

// ----- a small deterministic PRNG ----------------------------------------------------------------------------------

fn chess960_start(n: usize) -> Position {
    Position::chess960(n as u16).expect("0..960")
}

/// Positions from random games: `games` games of at most `max_plies` plies each, every position visited.
fn random_positions(seed: u64, games: usize, max_plies: usize, chess960: bool) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut p = if chess960 { chess960_start(rng.below(960)) } else { Position::new() };
        for _ in 0..max_plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            out.push(p.clone());
            // Prefer captures and promotions now and then, to reach endgames with promotions and odd pieces.
            let caps: Vec<Move> = moves.iter().copied().filter(|&m| p.is_capture(m) || m.is_promotion()).collect();
            let m = if !caps.is_empty() && rng.below(3) == 0 {
                caps[rng.below(caps.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            p.play_unchecked(m);
        }
    }
    out
}

// ----- syntax ------------------------------------------------------------------------------------------------------

#[test]
fn syntax_of_normal_moves() {
    use Role::*;
    let f = |c| File::from_char(c);
    let r = |c| Rank::from_char(c);
    let cases: &[(&str, San)] = &[
        ("e4", normal(Pawn, None, None, false, "e4", None)),
        ("Pe4", normal(Pawn, None, None, false, "e4", None)),
        ("exd5", normal(Pawn, f('e'), None, true, "d5", None)),
        ("Nf3", normal(Knight, None, None, false, "f3", None)),
        ("nf3", normal(Knight, None, None, false, "f3", None)),
        ("Nbd2", normal(Knight, f('b'), None, false, "d2", None)),
        ("R1e2", normal(Rook, None, r('1'), false, "e2", None)),
        ("Qh4xe1", normal(Queen, f('h'), r('4'), true, "e1", None)),
        ("Ng1-f3", normal(Knight, f('g'), r('1'), false, "f3", None)),
        ("e2-e4", normal(Pawn, f('e'), r('2'), false, "e4", None)),
        ("e2e4", normal(Pawn, f('e'), r('2'), false, "e4", None)),
        ("e8=Q", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("e8Q", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("e8(Q)", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("e8/Q", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("e8=q", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("e8n", normal(Pawn, None, None, false, "e8", Some(Knight))),
        ("dxe8=N", normal(Pawn, f('d'), None, true, "e8", Some(Knight))),
        ("e7-e8=Q", normal(Pawn, f('e'), r('7'), false, "e8", Some(Queen))),
        ("bxc3", normal(Pawn, f('b'), None, true, "c3", None)),
        ("Bxc3", normal(Bishop, None, None, true, "c3", None)),
        ("exd6e.p.", normal(Pawn, f('e'), None, true, "d6", None)),
        ("exd6 e.p.", normal(Pawn, f('e'), None, true, "d6", None)),
        ("exd6ep", normal(Pawn, f('e'), None, true, "d6", None)),
        ("马f3", normal(Knight, None, None, false, "f3", None)),
        ("馬f3", normal(Knight, None, None, false, "f3", None)),
        ("象xb5+", normal(Bishop, None, None, true, "b5", None)),
        ("车a1d1", normal(Rook, f('a'), r('1'), false, "d1", None)),
        ("車a1d1", normal(Rook, f('a'), r('1'), false, "d1", None)),
        ("e8=后", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("兵e4", normal(Pawn, None, None, false, "e4", None)),
        ("卒e5", normal(Pawn, None, None, false, "e5", None)),
        ("王e2", normal(King, None, None, false, "e2", None)),
        ("ｅ４", normal(Pawn, None, None, false, "e4", None)),
        ("Ｎｆ３＋", normal(Knight, None, None, false, "f3", None)),
        ("ｅ×ｄ５", normal(Pawn, f('e'), None, true, "d5", None)),
        ("e8＝Q", normal(Pawn, None, None, false, "e8", Some(Queen))),
        ("  Nf3  ", normal(Knight, None, None, false, "f3", None)),
    ];
    for (text, want) in cases {
        assert_eq!(San::parse(text).as_ref(), Ok(want), "{text}");
    }
}

#[test]
fn syntax_of_castling_null_and_suffixes() {
    for t in ["O-O", "0-0", "o-o", "OO", "Ｏ－Ｏ", "O-O+", "0-0#"] {
        assert_eq!(San::parse(t), Ok(San::Castle(CastlingSide::KingSide)), "{t}");
    }
    for t in ["O-O-O", "0-0-0", "o-o-o", "OOO", "O-O-O!?"] {
        assert_eq!(San::parse(t), Ok(San::Castle(CastlingSide::QueenSide)), "{t}");
    }
    assert_eq!(San::parse("--"), Ok(San::Null));
    assert_eq!(San::parse("Z0"), Ok(San::Null));

    let sp = SanPlus::parse("Nf3+!?").unwrap();
    assert_eq!(sp.suffix, Some(Suffix::Check));
    assert_eq!(sp.nag, Some(5));
    assert_eq!(sp.to_string(), "Nf3+!?");
    let glyphs = [("!", 1), ("?", 2), ("!!", 3), ("??", 4), ("!?", 5), ("?!", 6), ("‼", 3), ("⁉", 5)];
    for (g, n) in glyphs {
        assert_eq!(SanPlus::parse(&format!("e4{g}")).unwrap().nag, Some(n), "{g}");
    }
    assert_eq!(SanPlus::parse("Qh7#").unwrap().suffix, Some(Suffix::Checkmate));
    assert_eq!(SanPlus::parse("Qh7++").unwrap().suffix, Some(Suffix::Checkmate));
    assert_eq!(SanPlus::parse("Qh7!+").unwrap().suffix, Some(Suffix::Check));
    assert_eq!(SanPlus::parse("Ｑｈ７＃！").unwrap().nag, Some(1));
    assert_eq!(SanPlus::parse("e4").unwrap().suffix, None);
    assert_eq!("Nbd2".parse::<San>().unwrap().to_string(), "Nbd2");
}

#[test]
fn parse_errors_name_the_problem() {
    let e = San::parse("Nf9").unwrap_err();
    assert_eq!(e.to_string(), "'Nf9': 'f9' is not a square");
    assert_eq!(e.at, 1);
    assert_eq!(e.kind, ParseSanErrorKind::NotASquare("f9".into()));
    assert!(e.message(Lang::Zh).contains("不是棋盘上的格子"), "{}", e.message(Lang::Zh));

    let cases: &[(&str, ParseSanErrorKind)] = &[
        ("", ParseSanErrorKind::Empty),
        ("   ", ParseSanErrorKind::Empty),
        ("Ni3", ParseSanErrorKind::NotASquare("i3".into())),
        ("N", ParseSanErrorKind::MissingDestination),
        ("Nf", ParseSanErrorKind::MissingDestination),
        ("Nx", ParseSanErrorKind::MissingDestination),
        ("Nf3z", ParseSanErrorKind::UnexpectedChar('z')),
        ("Nzf3", ParseSanErrorKind::UnexpectedChar('z')),
        ("e8=K", ParseSanErrorKind::BadPromotion("K".into())),
        ("e8=X", ParseSanErrorKind::BadPromotion("X".into())),
        ("e8=", ParseSanErrorKind::MissingPromotion),
        ("O-O-O-O", ParseSanErrorKind::BadCastling),
        ("0-1", ParseSanErrorKind::BadCastling),
        ("e4!!!", ParseSanErrorKind::BadAnnotation("!!!".into())),
        ("e4+#", ParseSanErrorKind::BadCheckMark("+#".into())),
        ("e4+!+", ParseSanErrorKind::Repeated("+".into())),
        ("+", ParseSanErrorKind::MissingMove),
        ("!?", ParseSanErrorKind::MissingMove),
        ("E4", ParseSanErrorKind::NotASquare("E4".into())),
    ];
    for (text, kind) in cases {
        let e = San::parse(text).unwrap_err();
        assert_eq!(&e.kind, kind, "{text}: {e}");
        // Both languages render.
        assert!(!e.message(Lang::En).is_empty() && !e.message(Lang::Zh).is_empty());
    }
    let long = "N".repeat(100);
    assert_eq!(San::parse(&long).unwrap_err().kind, ParseSanErrorKind::TooLong);
    // The unexpected character is quoted as typed (full width), with its position.
    let e = San::parse("Ｎｆ３ｚ").unwrap_err();
    assert_eq!(e.to_string(), "'Ｎｆ３ｚ': unexpected 'ｚ' (character 4)");
}

// ----- resolving -------------------------------------------------------------------------------------------------

#[test]
fn castling_in_all_spellings() {
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    for t in ["O-O", "0-0", "o-o", "O-O+", "Ｏ－Ｏ", "OO"] {
        let m = p.parse_san(t).unwrap();
        assert!(m.is_castle() && m.is_kingside_castle(), "{t}");
        assert_eq!(p.uci(m), "e1g1");
    }
    for t in ["O-O-O", "0-0-0", "o-o-o", "O-O-O!"] {
        assert_eq!(p.uci(p.parse_san(t).unwrap()), "e1c1", "{t}");
    }
    assert_eq!(p.san(p.parse_san("O-O").unwrap()), "O-O");
    assert_eq!(p.san(p.parse_san("O-O-O").unwrap()), "O-O-O");

    // Chess960: king on b1, rooks on a1 and h1. O-O-O is king takes a1 rook, O-O king takes h1 rook.
    let p = pos("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah - 0 1");
    assert!(p.is_chess960());
    let long = p.parse_san("O-O-O").unwrap();
    assert_eq!(long, Move::castle(Square::B1, Square::A1));
    assert_eq!(long.king_to(), Square::C1);
    assert_eq!(p.san(long), "O-O-O");
    let short = p.parse_san("O-O").unwrap();
    assert_eq!(short, Move::castle(Square::B1, Square::H1));
    assert_eq!(p.san(short), "O-O");
    // Chess960 with the king already on g1: castling short moves only the rook.
    let p = pos("1r4kr/8/8/8/8/8/8/1R4KR w BHbh - 0 1");
    let m = p.parse_san("O-O").unwrap();
    assert_eq!(m, Move::castle(Square::G1, Square::H1));
    assert_eq!(p.san(m), "O-O");
}

#[test]
fn castling_errors_explain() {
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w Qkq - 0 1");
    let e = p.parse_san("O-O").unwrap_err();
    assert_eq!(e.to_string(), "O-O: white may no longer castle king side (O-O)");
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/RN2K2R w KQkq - 0 1");
    assert!(p.parse_san("O-O-O").unwrap_err().to_string().contains("must be empty"));
    let p = pos("4r1k1/8/8/8/8/8/8/4K2R w K - 0 1");
    assert_eq!(p.parse_san("O-O").unwrap_err().to_string(), "O-O: the king may not castle out of check");
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let p2 = pos("4kr2/8/8/8/8/8/8/4K2R w K - 0 1");
    assert!(p.parse_san("O-O").is_ok());
    assert!(p2.parse_san("O-O").unwrap_err().to_string().contains("attacked square"));
    assert!(p.parse_san("--").unwrap_err().to_string().contains("null move"));
}

#[test]
fn sloppy_forms_resolve() {
    let start = Position::new();
    resolves(&start, "e4", "e2e4");
    resolves(&start, "Pe4", "e2e4");
    resolves(&start, "pe4", "e2e4");
    resolves(&start, "e2-e4", "e2e4");
    resolves(&start, "e2e4", "e2e4");
    resolves(&start, "Nf3", "g1f3");
    resolves(&start, "Nf3+!?", "g1f3");
    resolves(&start, "nf3", "g1f3");
    resolves(&start, "Ngf3", "g1f3");
    resolves(&start, "N1f3", "g1f3");
    resolves(&start, "Ng1f3", "g1f3");
    resolves(&start, "Ng1-f3", "g1f3");
    resolves(&start, "Ng1xf3", "g1f3");
    resolves(&start, "Nxf3", "g1f3"); // nothing on f3: the x is tolerated
    resolves(&start, "马f3", "g1f3");
    resolves(&start, "馬f3", "g1f3");
    resolves(&start, "兵e4", "e2e4");
    resolves(&start, "ｅ４", "e2e4");
    resolves(&start, "Ｎｆ３", "g1f3");
    resolves(&start, "  e4  ", "e2e4");

    // Lower-case letters: q, k, r in a position where they can move.
    let p = pos("4k3/8/8/8/8/8/8/R2QK3 w - - 0 1");
    resolves(&p, "qh5", "d1h5");
    resolves(&p, "kf1", "e1f1");
    resolves(&p, "rb1", "a1b1");
    resolves(&p, "Q×h5", "d1h5");
    resolves(&p, "后h5", "d1h5");
    resolves(&p, "王f2", "e1f2");
    resolves(&p, "车a1c1", "a1c1");

    // Capture written without x.
    let p = pos("4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1");
    resolves(&p, "Ne5", "f3e5");
    resolves(&p, "Nxe5", "f3e5");
    resolves(&p, "Nf3xe5", "f3e5");
    resolves(&p, "Nf3-e5", "f3e5");
    resolves(&p, "马xe5", "f3e5");

    // En passant, with and without e.p.
    let p = pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2");
    for t in ["exd6", "exd6e.p.", "exd6 e.p.", "exd6ep", "exd6 e.p.+", "e5xd6", "ed6", "ｅ×ｄ６"] {
        let m = p.parse_san(t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert!(m.is_en_passant(), "{t}");
    }
    assert_eq!(p.san(Move::en_passant(Square::E5, Square::D6)), "exd6");
}

#[test]
fn promotions_in_all_spellings() {
    let p = pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    for (t, want) in [
        ("e8=Q", "e7e8q"),
        ("e8Q", "e7e8q"),
        ("e8(Q)", "e7e8q"),
        ("e8/Q", "e7e8q"),
        ("e8=q", "e7e8q"),
        ("e8=后", "e7e8q"),
        ("e8后", "e7e8q"),
        ("e8=N", "e7e8n"),
        ("e8=马", "e7e8n"),
        ("e8=R+", "e7e8r"),
        ("e8=車", "e7e8r"),
        ("e8=B", "e7e8b"),
        ("e8=象", "e7e8b"),
        ("e7-e8=Q", "e7e8q"),
        ("e7e8q", "e7e8q"),
        ("Pe8=Q", "e7e8q"),
        ("exd8=Q", "e7d8q"),
        ("exd8Q+", "e7d8q"),
        ("e7xd8=Q", "e7d8q"),
        ("ed8=Q", "e7d8q"),
        ("ｅ８＝Ｑ", "e7e8q"),
    ] {
        resolves(&p, t, want);
    }
    let e = p.parse_san("e8").unwrap_err();
    assert_eq!(e.to_string(), "e8: a pawn reaching the last rank must promote: write e8=Q, e8=R, e8=B or e8=N");
    let e = p.parse_san("exd8").unwrap_err();
    assert!(e.to_string().contains("exd8=Q, exd8=R, exd8=B or exd8=N"), "{e}");
    assert!(p.parse_san("Ke2=Q").unwrap_err().to_string().contains("only a pawn"));
    let p2 = pos("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert!(p2.parse_san("e4=Q").unwrap_err().to_string().contains("rank 8"));
}

#[test]
fn lowercase_b_is_a_pawn_first() {
    // Both the b2 pawn and the bishop on a5 can take on c3: bxc3 is the pawn.
    let p = pos("4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1");
    resolves(&p, "bxc3", "b2c3");
    resolves(&p, "Bxc3", "a5c3");
    resolves(&p, "b3", "b2b3");
    resolves(&p, "b4", "b2b4");
    // A pawn that can move keeps the b-file reading even though the bishop could go there too.
    resolves(&p, "bb4", "b2b4");
    // No pawn can take on c3: lower-case b falls back to the bishop.
    let p = pos("4k3/8/8/B7/8/2n5/8/4K3 w - - 0 1");
    resolves(&p, "bxc3", "a5c3");
    resolves(&p, "bc3", "a5c3");
    resolves(&p, "bb4", "a5b4");
    resolves(&p, "ba5c3", "a5c3");
    // When neither reading fits, the error is about the pawn reading.
    assert!(p.parse_san("bd4").unwrap_err().to_string().contains("pawn"), "{}", p.parse_san("bd4").unwrap_err());
    // "b1c3" is a square pair, never a bishop.
    assert!(p.parse_san("b1c3").is_err());
}

#[test]
fn pawn_moves_without_file_go_straight() {
    let p = pos("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1");
    resolves(&p, "e5", "e4e5");
    resolves(&p, "exd5", "e4d5");
    resolves(&p, "xd5", "e4d5");
    resolves(&p, "Pxd5", "e4d5");
    let e = p.parse_san("d5").unwrap_err();
    assert_eq!(e.to_string(), "d5: no pawn can move to d5 (did you mean exd5?)");
}

#[test]
fn ambiguity_is_explained() {
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    let e = p.parse_san("Nd2").unwrap_err();
    assert_eq!(e.to_string(), "Nd2 is ambiguous: the knights on b1 and f3 can both move to d2 — write Nbd2 or Nfd2");
    match &e {
        SanError::Ambiguous { role, to, from, suggestions, .. } => {
            assert_eq!(*role, Role::Knight);
            assert_eq!(*to, Square::D2);
            assert_eq!(from, &vec![Square::B1, Square::F3]);
            assert_eq!(suggestions, &vec!["Nbd2".to_string(), "Nfd2".to_string()]);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(e.message(Lang::Zh), "Nd2 有歧义：b1、f3 上的马都能走到 d2——请写 Nbd2 或 Nfd2");
    resolves(&p, "Nbd2", "b1d2");
    resolves(&p, "Nfd2", "f3d2");
    resolves(&p, "N1d2", "b1d2");
    resolves(&p, "N3d2", "f3d2");
    // Written in Chinese, the suggestions come in Chinese.
    let e = p.parse_san("马d2").unwrap_err();
    assert!(e.to_string().contains("write 马bd2 or 马fd2"), "{e}");

    // Three queens: file, rank, or both.
    let p = pos("8/2k5/8/8/Q6Q/8/8/K6Q w - - 0 1");
    let e = p.parse_san("Qe1").unwrap_err();
    assert!(matches!(e, SanError::Ambiguous { .. }), "{e}");
    let e = p.parse_san("Qd4").unwrap_err();
    assert!(e.to_string().starts_with("Qd4 is ambiguous: the queens on a4 and h4 can both"), "{e}");
    let e = p.parse_san("Qe4").unwrap_err();
    assert_eq!(
        e.to_string(),
        "Qe4 is ambiguous: the queens on a4, h1 and h4 can all move to e4 — write Qae4, Q1e4 or Qh4e4"
    );
    resolves(&p, "Qh4e4", "h4e4");
    resolves(&p, "Qh1e4", "h1e4");
    resolves(&p, "Qae4", "a4e4");
    assert!(p.parse_san("Qhe4").unwrap_err().to_string().contains("ambiguous"));
}

#[test]
fn illegal_moves_are_explained() {
    let start = Position::new();
    let msg = |p: &Position, t: &str| p.parse_san(t).unwrap_err().to_string();
    assert_eq!(msg(&start, "Nf4"), "Nf4: no knight can move to f4");
    assert_eq!(msg(&start, "e5"), "e5: no pawn can move to e5");
    assert_eq!(msg(&start, "Nd2"), "Nd2: d2 is taken by your own pawn");
    assert_eq!(msg(&start, "Nbf3"), "Nbf3: no knight on the b-file can move to f3 (did you mean Nf3?)");
    assert_eq!(msg(&start, "Ncf3"), "Ncf3: there is no knight on the c-file (did you mean Nf3?)");
    let p = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(msg(&p, "Nf3"), "Nf3: white has no knight");
    assert_eq!(p.parse_san("Nf3").unwrap_err().message(Lang::Zh), "Nf3：白方没有马");
    // A pinned knight.
    let p = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
    assert_eq!(msg(&p, "Nc3"), "Nc3: the knight on e2 is pinned: moving it to c3 would expose the king");
    // In check, a move that does not answer it.
    let p = pos("4k3/4r3/8/8/8/8/8/1N2K3 w - - 0 1");
    assert!(msg(&p, "Nc3").contains("is in check"), "{}", msg(&p, "Nc3"));
    assert_eq!(msg(&p, "Ke2"), "Ke2: the king may not move to e2: it would be in check there");
    // Chinese messages.
    let e = start.parse_san("马f4").unwrap_err();
    assert_eq!(e.message(Lang::Zh), "马f4：没有马能走到 f4");
    // Parse errors come through parse_san as SanError::Parse.
    assert!(matches!(start.parse_san("Nf9"), Err(SanError::Parse(_))));
    assert_eq!(start.parse_san("Nf9").unwrap_err().to_string(), "'Nf9': 'f9' is not a square");
}

#[test]
fn uci_as_last_resort() {
    let start = Position::new();
    assert_eq!(start.uci(start.parse_move_any("g1f3").unwrap()), "g1f3");
    assert!(start.parse_san("g1f3").is_err());
    assert_eq!(start.uci(start.parse_move_any("e2e4").unwrap()), "e2e4");
    assert_eq!(start.uci(start.parse_move_any("Nf3").unwrap()), "g1f3");
    let p = pos("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1");
    assert!(p.parse_move_any("e1g1").unwrap().is_castle());
    assert!(p.parse_move_any("e1h1").unwrap().is_castle());
    let promo = pos("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(promo.uci(promo.parse_move_any("b7b8q").unwrap()), "b7b8q");
    // Errors: the SAN reading's error, or the UCI one when only that was well-formed.
    assert!(start.parse_move_any("Nf4").unwrap_err().to_string().contains("no knight"));
    assert!(start.parse_move_any("g1g3").is_err());
    assert!(start.parse_move_any("zz").is_err());
}

#[test]
fn play_san_plays() {
    let mut p = Position::new();
    for t in ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "O-O"] {
        p.play_san(t).unwrap();
    }
    assert_eq!(p.fen(), "r1bqkbnr/1ppp1ppp/p1n5/1B2p3/4P3/5N2/PPPP1PPP/RNBQ1RK1 b kq - 1 4");
    let before = p.clone();
    assert!(p.play_san("Nf3").is_err());
    assert_eq!(p, before);
}

// ----- writing ---------------------------------------------------------------------------------------------------

#[test]
fn writing_disambiguates_minimally() {
    // Knights on b1 and f3 both reach d2: file.
    let p = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    assert_eq!(p.san(uci(&p, "b1d2")), "Nbd2");
    assert_eq!(p.san(uci(&p, "f3d2")), "Nfd2");
    assert_eq!(p.san(uci(&p, "f3g5")), "Ng5");
    // Rooks on a1 and a5: rank.
    let p = pos("4k3/8/8/R7/8/8/8/R3K3 w - - 0 1");
    assert_eq!(p.san(uci(&p, "a1a3")), "R1a3");
    assert_eq!(p.san(uci(&p, "a5a3")), "R5a3");
    assert_eq!(p.san(uci(&p, "a1b1")), "Rb1");
    // Three queens: both.
    let p = pos("8/2k5/8/8/Q6Q/8/8/K6Q w - - 0 1");
    assert_eq!(p.san(uci(&p, "h4e4")), "Qh4e4");
    assert_eq!(p.san(uci(&p, "h1e4")), "Q1e4");
    assert_eq!(p.san(uci(&p, "a4e4")), "Qae4");
    assert_eq!(p.san(uci(&p, "h4e1")), "Q4e1");
    // A pinned rival does not count: the knight on e2 is pinned by the rook on e8.
    let p = pos("4r1k1/8/8/8/8/8/4N3/1N2K3 w - - 0 1");
    assert_eq!(p.san(uci(&p, "b1c3")), "Nc3");
    // Captures, promotions, checks, mate.
    let p = pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(p.san(uci(&p, "e7d8q")), "exd8=Q+");
    assert_eq!(p.san(uci(&p, "e7e8q")), "e8=Q+");
    assert_eq!(p.san(uci(&p, "e7e8n")), "e8=N");
    assert_eq!(p.san_zh(uci(&p, "e7d8q")), "exd8=后+");
    assert_eq!(p.san_zh(uci(&p, "e7e8n")), "e8=马");
    assert_eq!(p.lan(uci(&p, "e7d8q")), "e7xd8=Q+");
    assert_eq!(p.lan(uci(&p, "e7e8r")), "e7-e8=R+");
    let fools = pos("rnbqkbnr/pppp1ppp/8/4p3/6P1/5P2/PPPPP2P/RNBQKBNR b KQkq - 0 2");
    assert_eq!(fools.san(uci(&fools, "d8h4")), "Qh4#");
    assert_eq!(fools.san_zh(uci(&fools, "d8h4")), "后h4#");
    assert_eq!(fools.lan(uci(&fools, "d8h4")), "Qd8-h4#");
    assert_eq!(fools.san_bare(uci(&fools, "d8h4")), "Qh4");
}

#[test]
fn chinese_and_long_writing() {
    let mut p = Position::new();
    let mut zh = Vec::new();
    let mut lan = Vec::new();
    for t in ["e4", "e5", "Nf3", "Nc6", "Bb5", "Nf6", "O-O", "Nxe4"] {
        let m = p.parse_san(t).unwrap();
        zh.push(p.san_zh(m));
        lan.push(p.lan(m));
        assert_eq!(p.notation(m, SanStyle::Standard), t);
        assert_eq!(p.notation(m, SanStyle::Chinese), *zh.last().unwrap());
        assert_eq!(p.notation(m, SanStyle::Long), *lan.last().unwrap());
        p.play_unchecked(m);
    }
    assert_eq!(zh, ["e4", "e5", "马f3", "马c6", "象b5", "马f6", "O-O", "马xe4"]);
    assert_eq!(lan, ["e2-e4", "e7-e5", "Ng1-f3", "Nb8-c6", "Bf1-b5", "Ng8-f6", "O-O", "Nf6xe4"]);
    let p = pos("4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    let m = p.parse_san("王f2").unwrap();
    assert_eq!(p.san_zh(m), "王f2");
    assert_eq!(p.san_zh(p.parse_san("O-O").unwrap()), "O-O");
    assert_eq!(p.san_zh(p.parse_san("Rh8+").unwrap()), "车h8+");
}

#[test]
fn movetext_numbers_moves() {
    let start = Position::new();
    let mut p = start.clone();
    let mut moves = Vec::new();
    for t in ["e4", "e5", "Nf3", "Nc6", "Bb5"] {
        moves.push(p.play_san(t).unwrap());
    }
    assert_eq!(movetext(&start, &moves, SanStyle::Standard), "1. e4 e5 2. Nf3 Nc6 3. Bb5");
    assert_eq!(movetext(&start, &moves, SanStyle::Chinese), "1. e4 e5 2. 马f3 马c6 3. 象b5");
    assert_eq!(movetext(&start, &moves, SanStyle::Long), "1. e2-e4 e7-e5 2. Ng1-f3 Nb8-c6 3. Bf1-b5");
    assert_eq!(movetext(&start, &[], SanStyle::Standard), "");

    // Black to move first.
    let b = pos("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 12");
    let m1 = b.parse_san("Nf6").unwrap();
    let b2 = b.after(m1);
    let m2 = b2.parse_san("e5").unwrap();
    let b3 = b2.after(m2);
    let m3 = b3.parse_san("Nd5").unwrap();
    assert_eq!(movetext(&b, &[m1, m2, m3], SanStyle::Standard), "12... Nf6 13. e5 Nd5");
    assert_eq!(movetext(&b, &[m1], SanStyle::Chinese), "12... 马f6");

    // An illegal move ends the text; try_movetext says where.
    let bad = Move::normal(Square::E2, Square::E5);
    assert_eq!(movetext(&start, &[moves[0], bad], SanStyle::Standard), "1. e4");
    assert_eq!(try_movetext(&start, &[moves[0], moves[1], bad], SanStyle::Standard), Err(2));
    assert_eq!(try_movetext(&start, &moves, SanStyle::Standard).unwrap(), "1. e4 e5 2. Nf3 Nc6 3. Bb5");
}

// ----- round trips over random games ------------------------------------------------------------------------------

fn round_trip_all(positions: &[Position]) -> usize {
    let mut checked = 0;
    for p in positions {
        for &m in p.legal_moves().iter() {
            let san = p.san(m);
            let zh = p.san_zh(m);
            let lan = p.lan(m);
            for text in [&san, &zh, &lan] {
                match p.parse_san(text) {
                    Ok(back) => assert_eq!(back, m, "{text} in {}", p.fen()),
                    Err(e) => panic!("{text} in {}: {e}", p.fen()),
                }
            }
            // The syntax alone round-trips too, and the bare SAN is the SAN without its mark.
            let sp = SanPlus::parse(&san).unwrap();
            assert_eq!(sp.to_string(), san);
            assert_eq!(sp.to_string_zh(), zh);
            assert_eq!(sp.san.to_move(p).unwrap(), m);
            assert_eq!(san.trim_end_matches(['+', '#']), p.san_bare(m));
            assert_eq!(sp.suffix.is_some(), p.after(m).is_check());
            checked += 1;
        }
    }
    checked
}

#[test]
fn round_trip_random_standard_games() {
    let positions = random_positions(0x5EED_0001, 40, 160, false);
    assert!(positions.len() > 3000, "{}", positions.len());
    let n = round_trip_all(&positions);
    eprintln!("standard: {} positions, {n} moves round-tripped", positions.len());
}

#[test]
fn round_trip_random_chess960_games() {
    // Scharnagl 518 is the standard array.
    assert_eq!(chess960_start(518).placement(), Position::new().placement());
    let positions = random_positions(0x5EED_0960, 40, 160, true);
    assert!(positions.len() > 3000, "{}", positions.len());
    assert!(positions.iter().all(|p| p.is_chess960()));
    let n = round_trip_all(&positions);
    let castles: usize = positions.iter().map(|p| p.legal_moves().iter().filter(|m| m.is_castle()).count()).sum();
    assert!(castles > 100, "castling is exercised ({castles})");
    eprintln!("chess960: {} positions, {n} moves round-tripped, {castles} castling moves", positions.len());
}

// ----- oracle: shakmaty ---------------------------------------------------------------------------------------------

fn oracle_check(positions: &[Position]) -> usize {
    use shakmaty::Position as _;
    let mut moves_checked = 0;
    for p in positions {
        let mode = if p.is_chess960() { shakmaty::CastlingMode::Chess960 } else { shakmaty::CastlingMode::Standard };
        let fen = p.fen_with(p.is_chess960());
        let theirs: shakmaty::Chess = fen
            .parse::<shakmaty::fen::Fen>()
            .unwrap_or_else(|e| panic!("{fen}: {e}"))
            .into_position(mode)
            .unwrap_or_else(|e| panic!("{fen}: {e}"));
        let ours = p.legal_moves();
        assert_eq!(ours.len(), theirs.legal_moves().len(), "{fen}");
        for &m in ours.iter() {
            let u = p.uci(m);
            let sm = u
                .parse::<shakmaty::uci::UciMove>()
                .unwrap()
                .to_move(&theirs)
                .unwrap_or_else(|e| panic!("{u} in {fen}: {e}"));
            let their_san = shakmaty::san::SanPlus::from_move(theirs.clone(), sm).to_string();
            let our_san = p.san(m);
            assert_eq!(our_san, their_san, "{u} in {fen}");
            // shakmaty reads our SAN as the same move.
            let back = shakmaty::san::SanPlus::from_ascii(our_san.as_bytes())
                .unwrap_or_else(|e| panic!("{our_san}: {e}"))
                .san
                .to_move(&theirs)
                .unwrap_or_else(|e| panic!("{our_san} in {fen}: {e}"));
            assert_eq!(shakmaty::uci::UciMove::from_move(back, mode).to_string(), u, "{our_san} in {fen}");
            moves_checked += 1;
        }
    }
    moves_checked
}

#[test]
fn oracle_shakmaty_standard() {
    let positions = random_positions(0x0AC1_E5EED, 30, 200, false);
    assert!(positions.len() >= 3000, "{}", positions.len());
    let n = oracle_check(&positions);
    eprintln!("shakmaty oracle (standard): {} positions, {n} moves agree", positions.len());
}

#[test]
fn oracle_shakmaty_chess960() {
    let positions = random_positions(0x0AC1_E960, 30, 200, true);
    assert!(positions.len() >= 3000, "{}", positions.len());
    let n = oracle_check(&positions);
    eprintln!("shakmaty oracle (chess960): {} positions, {n} moves agree", positions.len());
}

// ----- the opening book ---------------------------------------------------------------------------------------------

#[test]
fn opening_book_replays_with_identical_san() {
    let Some(dir) = data_dir() else { return };
    let dir = dir.join("openings");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("SKIP: {} not found", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "tsv"))
        .collect();
    files.sort();
    let (mut lines, mut tokens) = (0, 0);
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (i, line) in text.lines().enumerate().skip(1) {
            let cols: Vec<&str> = line.split('\t').collect();
            assert!(cols.len() >= 3, "{}:{}: {line}", f.display(), i + 1);
            let start = Position::new();
            let mut p = start.clone();
            let mut moves = Vec::new();
            let mut written = Vec::new();
            for tok in cols[2].split_whitespace().filter(|t| !t.ends_with('.')) {
                let m = p.parse_san(tok).unwrap_or_else(|e| panic!("{}:{}: {e}", f.display(), i + 1));
                assert_eq!(p.san(m), tok, "{}:{}", f.display(), i + 1);
                moves.push(m);
                written.push(tok);
                p.play_unchecked(m);
                tokens += 1;
            }
            // movetext writes the line back exactly as the book has it.
            assert_eq!(movetext(&start, &moves, SanStyle::Standard), cols[2], "{}:{}", f.display(), i + 1);
            lines += 1;
        }
    }
    eprintln!("openings: {lines} lines, {tokens} moves replayed");
    assert!(lines >= 3807, "{lines}");
}

// ----- never panic ---------------------------------------------------------------------------------------------------

fn fixed_positions() -> Vec<Position> {
    vec![
        Position::new(),
        pos("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        pos("3r2k1/4P3/8/8/8/8/8/4K3 w - - 0 1"),
        pos("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2"),
        pos("rk5r/pppppppp/8/8/8/8/PPPPPPPP/RK5R w AHah - 0 1"),
        pos("4k3/4r3/8/8/8/8/8/1N2K3 w - - 0 1"),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_strings_never_panic(s in any::<String>()) {
        let _ = San::parse(&s).map(|x| x.to_string());
        let _ = SanPlus::parse(&s);
        for p in fixed_positions() {
            if let Err(e) = p.parse_move_any(&s) {
                let _ = (e.to_string(), e.message(Lang::Zh));
            }
        }
    }

    #[test]
    fn san_like_strings_never_panic_and_reparse(
        s in "[KQRBNPkqrbnpa-hxX1-90=/()+#!?:. O0o\\-Z马車车后王象兵卒ｅ４＋×Ｏ－‼]{0,14}"
    ) {
        match San::parse(&s) {
            Ok(san) => {
                // What we write, we read back as the same syntax.
                let written = san.to_string();
                prop_assert_eq!(San::parse(&written), Ok(san), "{} -> {}", s, written);
                prop_assert_eq!(San::parse(&san.to_string_zh()), Ok(san));
            }
            Err(e) => {
                prop_assert!(e.at <= s.chars().count());
                let _ = (e.to_string(), e.message(Lang::Zh));
            }
        }
        for p in fixed_positions() {
            match p.parse_move_any(&s) {
                Ok(m) => prop_assert!(p.is_legal(m)),
                Err(e) => { let _ = (e.to_string(), e.message(Lang::Zh)); }
            }
        }
    }
}

#[test]
fn colour_names_in_messages() {
    let p = pos("4k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert_eq!(p.parse_san("Nf6").unwrap_err().to_string(), "Nf6: black has no knight");
    assert_eq!(p.turn(), Color::Black);
}
